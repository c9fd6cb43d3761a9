"""The batched trainer: R independent runs as one tensor program.

All parameters of all runs live in one flat buffer of shape ``(R, P)`` (:class:`repro.training.params.FlatParams`);
each model parameter is a view ``(R, *shape)`` into it. Gradients land in one ``(R, P)`` tensor and the optimizer
update is a handful of whole-buffer ops with per-run (and per-group) learning rates and weight decays. Runs stay
independent: the objective is the sum of per-run losses, so run r's gradient depends on run r alone.

What may differ between runs (:data:`PER_RUN_FIELDS`): learning rates and weight decays of the representation and
decoder groups, the two init-scale multipliers, the init seed, ``fixed_norm``, the dropout rate, and the training
split (per-run boolean masks over a shared dataset).

Full batch: one forward pass over *all* samples per step gives the training loss (masked) and, at evaluation steps,
every metric of the current parameters at no extra cost (the official toy code logs pre-step losses the same way:
grokking-squared toy/train_add.py). Minibatch: per-run shuffled epochs, evaluation by a separate no-grad pass.

The parts: :mod:`~repro.training.config` (what every run has), :mod:`~repro.training.optimizers`,
:mod:`~repro.training.gradients` (gradient sources), :mod:`~repro.training.hooks` (regularizers, post-step hooks,
the learning-rate schedule), :mod:`~repro.training.batching` (minibatches, scheduled batches, dropout),
:mod:`~repro.training.recorder` (evaluation schedule, records, history), :mod:`~repro.training.stopping` (early
stopping), :mod:`~repro.training.loop` (one block's loop) and :mod:`~repro.training.engine` (how it runs).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import torch

from repro.core.kernels import init_nudge
from repro.core.validation import check_int, check_real
from repro.data.tasks import TaskData
from repro.models import fastgrad
from repro.models.networks import BatchedModel, QuadraticNet, build_model
from repro.training.batching import DROPOUT_SEED_OFFSET, BatchSchedule, Dropout, check_batch_schedule
from repro.training.config import OPTIMIZERS, PER_RUN_FIELDS, TrainConfig, per_run_values
from repro.training.engine import (BLOCK_BYTES, LARGE_RUN_BYTES, BlockRunner, Performance, Progress, default_block_runs,
                                   join_blocks, plan_blocks, progress_enabled, run_blocks)
from repro.training.hooks import LinfPenalty, LRSchedule, Regularizer, StepDecay, lr_multiplier
from repro.training.loop import BlockSpec
from repro.training.losses import (EVAL_CHUNK_ROWS, forward_all, per_sample_correct, per_sample_loss, sample_labels,
                                   sample_targets)
from repro.training.optimizers import GD, SGD, AdamW, NormalizedGD
from repro.training.params import FlatParams, InitialParams, project_to_norm
from repro.training.recorder import BackgroundEvaluations, EvalSteps, History, Record, evaluation_steps
from repro.training.stopping import Until

__all__ = ["AdamW", "BatchSchedule", "BLOCK_BYTES", "default_block_runs", "Dropout", "DROPOUT_SEED_OFFSET",
           "EVAL_CHUNK_ROWS", "EvalSteps", "evaluation_steps", "FlatParams", "forward_all", "GD", "History",
           "InitialParams", "join_blocks", "LARGE_RUN_BYTES", "LinfPenalty", "lr_multiplier", "LRSchedule", "NormalizedGD",
           "OPTIMIZERS", "PER_RUN_FIELDS", "per_run_values", "per_sample_correct", "per_sample_loss", "Performance",
           "progress_enabled", "project_to_norm", "Record", "Regularizer", "run_blocks", "sample_labels",
           "sample_targets", "SGD", "StepDecay", "train", "TrainConfig", "Until"]

_BackgroundEvaluations = BackgroundEvaluations  # its name before the split (tests patch it here)


def train(model_config, data: TaskData, cfg: TrainConfig, runs: Mapping[str, Sequence] | None = None, *,
          split: tuple[torch.Tensor | None, torch.Tensor | None] | None = None, record: Record | None = None,
          components: Sequence = (), performance: Performance | None = None) -> History:
    """Train R runs together and return their histories.

    model_config: an ``EmbedMLPConfig``, ``TransformerConfig``, ``EncoderTransformerConfig``, ``TwoLayerConfig``,
        ``MLPConfig``, ``QuadraticNetConfig`` or ``RelationModelConfig``.
    data: the dataset with its default split (``data.train_idx`` / ``data.val_idx``); its labels are shared
        (N,) or one row per run (R, N).
    cfg: what every run has; ``runs`` overrides any of :data:`PER_RUN_FIELDS` per run.
    split: ``(train_mask, val_mask)``, optional ``(R, N)`` boolean masks replacing the default split per run
        (either may be None: the default's).
    record: what is recorded besides the metrics (:class:`Record`: callback, final parameters, MSE threshold).
    components: what a paper needs beyond the common run, each type at most once: :class:`Until` (early
        stopping), :class:`BatchSchedule` (another code's minibatches), :class:`EvalSteps` (another evaluation
        grid), :class:`InitialParams` (another code's initial state), :class:`StepDecay` (a step schedule of the
        learning rate), and any :class:`Regularizer` (a gradient term: :class:`LinfPenalty`), added in the order
        given after ``cfg.embed_l1``'s.
    performance: how it runs, never what it computes (:class:`Performance`: blocks, threads, gradient path,
        progress bar, checkpoint).
    """
    performance = Performance() if performance is None else performance
    record = Record() if record is None else record
    parts = _components(components)
    model = build_model(model_config)
    n_runs, values = per_run_values(cfg, runs)
    device, dtype = cfg.torch_device, cfg.torch_dtype
    data = data.to(device=device, dtype=dtype)
    until = parts[Until].fn if Until in parts else None
    train_mask, val_mask, batch_schedule, fast_grad, eval_steps = _checked(
        model, data, cfg, values, n_runs, split, parts, until, record.mse_threshold, performance)
    given = _given_params(model, parts[InitialParams].values if InitialParams in parts else None, n_runs)
    regularizers = tuple(c for c in components if isinstance(c, Regularizer) and c.active)
    spec = BlockSpec(model, data, cfg, values, train_mask, val_mask, record.callback, record.keep_final_params,
                     record.mse_threshold, given, eval_steps, until, batch_schedule, regularizers,
                     parts.get(StepDecay, StepDecay()))
    checkpoint = performance.checkpoint
    layout = plan_blocks(performance, model, data.n_samples, n_runs, cfg.steps, dtype, device, checkpoint,
                         stops=until is not None)
    bar = Progress(cfg.steps, n_runs, performance.desc, checkpoint, layout.blocks) if progress_enabled(
        performance.progress) else None
    runner = BlockRunner(spec, layout, performance, fast_grad, init_nudge(), checkpoint, bar)
    blocks = run_blocks(runner, layout.blocks, layout.workers)
    if bar is not None:
        bar.close()
    return join_blocks(blocks, values)


COMPONENTS = (Until, BatchSchedule, EvalSteps, InitialParams, StepDecay, Regularizer)


def _components(components: Sequence) -> dict[type, object]:
    """``train``'s components by type, each at most once."""
    out = {}
    for c in components:
        if not isinstance(c, COMPONENTS):
            raise ValueError(f"components has {c!r}; allowed: {', '.join(t.__name__ for t in COMPONENTS)} "
                             "(a subclass of Regularizer).")
        if type(c) in out:
            raise ValueError(f"components has two {type(c).__name__}; allowed: one of each.")
        out[type(c)] = c
    return out


def _checked(model: BatchedModel, data: TaskData, cfg: TrainConfig, values: dict, n_runs: int, split, parts: dict,
             until, mse_threshold, performance: Performance):
    """The arguments of :func:`train` checked against each other, in the order their errors are reported: the
    per-run masks, the batch schedule, whether to use the hand-written gradient, and the evaluation steps."""
    train_mask, val_mask = (None, None) if split is None else split
    batch_schedule = parts[BatchSchedule].schedule if BatchSchedule in parts else None
    eval_steps = parts[EvalSteps].steps if EvalSteps in parts else None
    if cfg.embed_l1 and "embed" not in {spec.name for spec in model.param_specs()}:
        raise ValueError(f"embed_l1={cfg.embed_l1} is not allowed for {type(model).__name__}: it penalizes the "
                         "embedding table 'embed', which this model does not have; use embed_l1=0.")
    train_mask, val_mask = _run_masks(data, n_runs, train_mask, val_mask, cfg.torch_device)
    if data.per_run is not None and data.per_run != n_runs:
        raise ValueError(f"data has per-run labels or targets (one per run) for {data.per_run} runs; this call trains "
                         f"{n_runs} runs.")
    if batch_schedule is not None:
        batch_schedule = check_batch_schedule(batch_schedule, cfg, n_runs, train_mask)
    if until is not None and (cfg.batch_size is not None or any(values["dropout"])):
        raise ValueError("until is only allowed with full-batch training without dropout: use batch_size=None and "
                         "dropout=0.")
    if mse_threshold is not None:
        check_real("mse_threshold", mse_threshold, positive=True)
        if data.loss != "mse":
            raise ValueError(f"mse_threshold={mse_threshold} is only allowed with an MSE task; this task's loss is {data.loss!r}.")
    fast_grad = _resolve_fast_grad(model, data.loss, performance.fast_grad)
    eval_steps = _check_gradient_source_options(model, cfg, fast_grad, eval_steps, parts.get(LinfPenalty))
    if any(values["dropout"]) and not getattr(model, "dropout_sites", ()):
        raise ValueError(f"dropout={max(values['dropout'])} is not allowed for {type(model).__name__}: it has no "
                         "dropout sites; models with dropout: EncoderTransformer. Use dropout=0.")
    return train_mask, val_mask, batch_schedule, fast_grad, eval_steps


def _given_params(model: BatchedModel, init_params, n_runs: int) -> dict[str, torch.Tensor]:
    """``init_params`` checked against the model's parameters and broadcast to ``(R, *shape)``, on the CPU in
    their own dtype (:class:`FlatParams` casts them to the training dtype)."""
    shapes = {s.name: s.shape for s in model.param_specs()}
    out = {}
    for name, value in (init_params or {}).items():
        if name not in shapes:
            raise ValueError(f"init_params has {name!r}, which is not a parameter of {type(model).__name__}; "
                             f"allowed: {', '.join(shapes)}.")
        value = torch.as_tensor(value).detach().cpu()
        if tuple(value.shape) == tuple(shapes[name]):
            value = value.expand(n_runs, *shapes[name])
        if tuple(value.shape) != (n_runs, *shapes[name]):
            raise ValueError(f"init_params[{name!r}] has shape {tuple(value.shape)}; allowed: {tuple(shapes[name])} "
                             f"(shared by every run) or {(n_runs, *shapes[name])} (one per run).")
        out[name] = value
    return out


def _run_masks(data: TaskData, n_runs: int, train_mask, val_mask, device) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-run (R, N) train / validation masks: the given ones (validated) or the data's default split."""
    default_train, default_val = data.masks()
    train_mask = default_train.expand(n_runs, -1) if train_mask is None else train_mask.to(device)
    val_mask = default_val.expand(n_runs, -1) if val_mask is None else val_mask.to(device)
    for name, mask in (("train_mask", train_mask), ("val_mask", val_mask)):
        if tuple(mask.shape) != (n_runs, data.n_samples) or mask.dtype != torch.bool:
            raise ValueError(f"{name} must be a bool tensor of shape ({n_runs}, {data.n_samples}); got {tuple(mask.shape)} {mask.dtype}.")
    if (train_mask.sum(-1) == 0).any():
        raise ValueError("train_mask leaves some run with an empty training split.")
    return train_mask, val_mask


def _resolve_fast_grad(model, loss: str, fast_grad: bool | None) -> bool:
    supported = fastgrad.supports(model, loss)
    if fast_grad is None:
        return supported
    if fast_grad and not supported:
        raise ValueError(f"fast_grad=True is not allowed for {type(model).__name__} with loss {loss!r}: "
                         f"repro.models.fastgrad supports {fastgrad.SUPPORTED}; use fast_grad=None or False.")
    return fast_grad


def _check_gradient_source_options(model, cfg: TrainConfig, fast_grad: bool, eval_steps,
                                   linf: LinfPenalty | None) -> frozenset[int] | None:
    """Validate what :class:`repro.models.fastgrad.QuadraticGradient` and the eNTK recorders of Mohamadi et al. 2024
    need; returns ``eval_steps`` as a set (None: every ``cfg.eval_every``)."""
    quadratic = fast_grad and isinstance(model, QuadraticNet)
    if quadratic and cfg.batch_size is not None:
        raise ValueError(f"batch_size={cfg.batch_size} is not allowed with QuadraticNet's hand-written gradient "
                         "(full batch only); use batch_size=None or Performance(fast_grad=False).")
    if linf is not None and linf.relative and cfg.optimizer != "normalized_gd":
        raise ValueError(f"LinfPenalty(relative=True) is not allowed with optimizer={cfg.optimizer!r}: only normalized_gd "
                         "ignores the scale of the data gradient; use relative=False.")
    if linf is not None and linf.relative and not quadratic:
        raise ValueError("LinfPenalty(relative=True) is not allowed here: it weighs the ℓ∞ term against the underflow-safe "
                         "cross-entropy gradient of repro.models.fastgrad.QuadraticGradient (QuadraticNetConfig, loss 'ce', "
                         "fast_grad not False); use relative=False.")
    if eval_steps is None:
        return None
    for s in eval_steps:
        check_int("eval_steps", s, minimum=0)
        if s > cfg.steps:
            raise ValueError(f"eval_steps has {s}; allowed: steps in [0, steps={cfg.steps}].")
    return frozenset(int(s) for s in eval_steps)


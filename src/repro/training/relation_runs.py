"""GenEFT's relation runs through the one trainer (Baek, Liu & Tegmark 2024, §2–3): many runs, each with its
own relation, training mask, learning rates, weight decay and initialization seed, trained as one tensor
program by :func:`repro.training.trainer.train` with binary cross-entropy on one logit. Used by the chapters
``book/baek2024_geneft_information`` and ``book/baek2024_geneft_dynamics`` (through
:mod:`repro.experiments.baek2024_geneft`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from repro.core.crossings import first_step
from repro.core.kernels import single_thread
from repro.core.devices import resolve_dtype
from repro.core.portable import ConfigRepr
from repro.core.validation import check_choice, check_int, check_real
from repro.data.relations import all_pairs
from repro.data.tasks import TaskData
from repro.models.networks import RelationModel, RelationModelConfig
from repro.training.trainer import History, Performance, Record, TrainConfig, Until, train


def init_params(cfg: RelationModelConfig, seeds: Sequence[int], dtype=torch.float32) -> list[torch.Tensor]:
    """[E, W_0, b_0, …, W_out, b_out], each with a leading run axis: :class:`~repro.models.networks.RelationModel`'s
    initialization (PyTorch's default per run, run r from its own generator seeded with ``seeds[r]``, so runs
    sharing a seed share an init), drawn in float64 and cast to ``dtype``."""
    specs = RelationModel(cfg).param_specs()
    per_run = []
    for seed in seeds:
        gen = torch.Generator().manual_seed(int(seed))
        per_run.append([spec.init(spec.shape, gen) for spec in specs])
    return [torch.stack([run[i] for run in per_run]).to(dtype) for i in range(len(specs))]


def forward(cfg: RelationModelConfig, params: list[torch.Tensor]) -> torch.Tensor:
    """Logits (R, n²) for every ordered pair (i, j), in row-major order (pair index i·n + j)."""
    model = RelationModel(cfg)
    named = {spec.name: p for spec, p in zip(model.param_specs(), params)}
    return model.forward(named, all_pairs(cfg.n).to(params[0].device))[..., 0]


RELATION_OPTIMIZERS = {"adam": "adamw", "gd": "gd"}  # RelationTrainConfig.optimizer -> TrainConfig.optimizer


@dataclass(frozen=True, repr=False)
class RelationTrainConfig(ConfigRepr):
    """Optimization settings shared by all runs of one batched program (paper Table 3; the optimizer, loss and
    batch are unstated in the paper: our choice)."""

    steps: int = 100_000  # Table 4: phases are judged within 10^5 steps
    eval_every: int = 100
    # "adam": AdamW with decoupled decoder decay (the optimizer is unstated in the paper; our choice); "gd": plain
    # full-batch gradient descent θ ← θ − η·g with the same two learning rates and no decay, the update whose
    # continuous limit is the gradient flow of §5's repon theory (Eqs. 9–11)
    optimizer: str = "adam"
    beta1: float = 0.9  # Adam defaults (the optimizer is unstated in the paper; our choice)
    beta2: float = 0.999
    eps: float = 1e-8
    dtype: str = "float32"

    def __post_init__(self):
        check_int("steps", self.steps, minimum=1)
        check_int("eval_every", self.eval_every, minimum=1)
        check_choice("dtype", self.dtype, ("float32", "float64"))
        check_choice("optimizer", self.optimizer, tuple(RELATION_OPTIMIZERS))
        for name in ("beta1", "beta2"):
            if not 0 <= getattr(self, name) < 1:
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: {name} must be in [0, 1).")
        check_real("eps", self.eps, positive=True)


@dataclass
class RelationHistory:
    steps: np.ndarray  # (T,) evaluation steps
    train_acc: np.ndarray  # (R, T)
    test_acc: np.ndarray  # (R, T)
    all_acc: np.ndarray  # (R, T): accuracy over all n² pairs (paper Fig. 3)
    train_loss: np.ndarray  # (R, T)
    final_params: list[torch.Tensor] | None = None

    def first_step(self, key: str, threshold: float) -> np.ndarray:
        """Per run, the first evaluation step at which ``key`` > threshold (−1: never)."""
        return first_step(self.steps, getattr(self, key), threshold, strict=True)


def _per_run(name: str, values, n_runs: int, *, nonnegative: bool = False) -> list[float]:
    values = list(values)
    if len(values) != n_runs:
        raise ValueError(f"{name}: expected one value per run ({n_runs}), got {len(values)}.")
    for v in values:
        check_real(name, v, nonnegative=nonnegative, positive=not nonnegative)
    return [float(v) for v in values]


def check_relation_runs(model: RelationModelConfig, labels, masks, lr_enc, lr_dec, wd_dec, init_seeds):
    """Validate one batch of R relation runs (labels and masks (R, n²), one lr / decay / seed per run); returns
    ``(labels, masks, {"lr_enc": [...], "lr_dec": [...], "wd_dec": [...]})`` as arrays and float lists."""
    labels = np.asarray(labels)
    masks = np.asarray(masks, dtype=bool)
    if labels.ndim != 2 or labels.shape != masks.shape or labels.shape[1] != model.n**2:
        raise ValueError(f"labels and masks must both have shape (R, n²) = (R, {model.n ** 2}); "
                         f"got {labels.shape} and {masks.shape}.")
    if not np.isin(labels, (0, 1)).all():
        raise ValueError("labels must be 0/1.")
    n_runs = labels.shape[0]
    if (masks.sum(1) == 0).any():
        raise ValueError("masks: every run needs at least one training pair.")
    per_run = {"lr_enc": _per_run("lr_enc", lr_enc, n_runs), "lr_dec": _per_run("lr_dec", lr_dec, n_runs),
               "wd_dec": _per_run("wd_dec", wd_dec, n_runs, nonnegative=True)}
    if len(init_seeds) != n_runs:
        raise ValueError(f"init_seeds: expected one value per run ({n_runs}), got {len(init_seeds)}.")
    return labels, masks, per_run


def relation_task_data(model: RelationModelConfig, labels: np.ndarray) -> TaskData:
    """All n² pairs as one data set, with one row of 0/1 labels per run (R, n²), for binary cross-entropy.

    Its default split (every pair in training) is never used: each run passes its own training mask."""
    n_pairs = model.n**2
    return TaskData(inputs=all_pairs(model.n), labels=torch.as_tensor(np.asarray(labels), dtype=torch.int64),
                    n_classes=2, train_idx=np.arange(n_pairs), val_idx=np.arange(0), loss="bce", accuracy="binary",
                    meta={"n": model.n})


def train_relation_runs(
    model: RelationModelConfig,
    labels: np.ndarray,
    masks: np.ndarray,
    *,
    lr_enc: Sequence[float],
    lr_dec: Sequence[float],
    wd_dec: Sequence[float],
    init_seeds: Sequence[int],
    cfg: RelationTrainConfig = RelationTrainConfig(),
    keep_final_params: bool = False,
    until=None,
    fast_grad: bool | None = False,
    progress: bool = False,
    checkpoint=None,
) -> History:
    """R runs of the GenEFT model through :func:`repro.training.trainer.train`: full batch, AdamW with the encoder
    (embeddings) at ``lr_enc`` and the decoder at ``lr_dec`` with decoupled decay ``wd_dec`` (decoder only), or
    plain gradient descent at the same two rates (``cfg.optimizer = "gd"``, no decay),
    binary cross-entropy on the sigmoid output averaged over each run's training pairs, on the CPU.

    ``labels``: (R, n²) 0/1 targets; ``masks``: (R, n²) bool training masks (validation = the rest);
    ``until``: see :class:`repro.training.stopping.Until`. The history's ``val_acc`` is the test accuracy.

    ``fast_grad``: autograd by default (False), or :mod:`repro.models.fastgrad`'s hand-written gradient (True; None:
    where it supports the model), which forwards only each run's training pairs between evaluations. The
    optimizer runs as whole-buffer elementwise ops, which are faster than the fused kernel for these many
    tiny runs; with both settings the float32 runs keep the bits of the GenEFT chapters' former loops.
    ``progress``: a progress bar (long stored runs); ``checkpoint``: as :class:`repro.training.engine.Performance`'s (a
    resumable stored run)."""
    labels, masks, per_run = check_relation_runs(model, labels, masks, lr_enc, lr_dec, wd_dec, init_seeds)
    n_runs = labels.shape[0]
    if cfg.optimizer == "gd" and any(per_run["wd_dec"]):
        raise ValueError("wd_dec must be 0 with optimizer='gd' (plain gradient descent has no weight decay); "
                         "use optimizer='adam' for decoder decay.")
    tcfg = TrainConfig(steps=cfg.steps, optimizer=RELATION_OPTIMIZERS[cfg.optimizer], beta1=cfg.beta1, beta2=cfg.beta2, eps=cfg.eps,
                       eval_every=cfg.eval_every, dtype=cfg.dtype, device="cpu")
    runs = {"lr_repr": per_run["lr_enc"], "lr_dec": per_run["lr_dec"], "wd_repr": [0.0] * n_runs,
            "wd_dec": per_run["wd_dec"], "init_seed": [int(s) for s in init_seeds]}
    train_mask = torch.as_tensor(masks)
    return train(model, relation_task_data(model, labels), tcfg, runs, split=(train_mask, ~train_mask),
                 record=Record(keep_final_params=keep_final_params), components=(Until(until),),
                 performance=Performance(fast_grad=fast_grad, fused_optimizer=False, progress=progress,
                                         checkpoint=checkpoint))


def train_relations(
    model: RelationModelConfig,
    labels: np.ndarray,
    masks: np.ndarray,
    *,
    lr_enc: Sequence[float],
    lr_dec: Sequence[float],
    wd_dec: Sequence[float],
    init_seeds: Sequence[int],
    cfg: RelationTrainConfig = RelationTrainConfig(),
    keep_final_params: bool = False,
) -> RelationHistory:
    """Train R networks at once, full batch, Adam(W) with per-run encoder/decoder lr and decoder decay, on one
    torch thread (see :func:`train_relation_runs`).

    ``labels``: (R, n²) 0/1 targets; ``masks``: (R, n²) bool training masks (test = the rest).
    Loss: binary cross-entropy on the sigmoid output, averaged over each run's training pairs.
    The update is torch.optim.AdamW's (decoupled decay on the decoder only; unstated in the paper, our choice).
    """
    with single_thread():
        h = train_relation_runs(model, labels, masks, lr_enc=lr_enc, lr_dec=lr_dec, wd_dec=wd_dec,
                                init_seeds=init_seeds, cfg=cfg, keep_final_params=keep_final_params)
    masks = np.asarray(masks, dtype=bool)
    n_train, n_test = masks.sum(1)[:, None], (~masks).sum(1)[:, None]
    # accuracy over all n² pairs (paper Fig. 3) from the two splits' exact counts
    correct = np.rint(h["train_acc"] * n_train) + np.where(n_test > 0, np.rint(np.nan_to_num(h["val_acc"]) * n_test), 0)
    dtype = resolve_dtype(cfg.dtype)
    final = [torch.as_tensor(h.final_params[spec.name]).to(dtype) for spec in RelationModel(model).param_specs()] \
        if keep_final_params else None
    all_acc = correct / masks.shape[1]
    if cfg.dtype == "float32":  # rounded to float32, as a float32 mean over the pairs (the chapters' stored outputs)
        all_acc = all_acc.astype(np.float32).astype(np.float64)
    return RelationHistory(steps=h.steps, train_acc=h["train_acc"], test_acc=h["val_acc"], all_acc=all_acc,
                           train_loss=h["train_loss"], final_params=final)

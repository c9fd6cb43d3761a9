"""One block of runs trained step by step: the components chosen once (:func:`build_block`), then the loop
(:func:`train_block`). Each step: the batch, the data gradient, the regularizers' terms, the optimizer's update,
the post-step hooks; at evaluation steps first the evaluation (and with early stopping the runs that stop leave).
``history[t]`` describes the parameters after t updates."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

import numpy as np
import torch

from repro.data.tasks import TaskData
from repro.training.batching import Dropout, Minibatches, ScheduledBatches
from repro.training.config import TrainConfig
from repro.training.gradients import gradient_source
from repro.training.hooks import EmbedL1, FixedNorm, LRSchedule, StepDecay
from repro.training.optimizers import OPTIMIZER_CLASSES
from repro.training.params import FlatParams
from repro.training.recorder import EvaluationSchedule, Evaluations, History, Recorder
from repro.training.stopping import EarlyStop


@dataclass
class BlockSpec:
    """What one block trains (its runs' slice of every argument of :func:`repro.training.trainer.train`)."""

    model: object
    data: TaskData
    cfg: TrainConfig
    values: dict[str, list]
    train_mask: torch.Tensor
    val_mask: torch.Tensor
    callback: Callable | None = None
    keep_final_params: bool = False
    mse_threshold: float | None = None
    given: Mapping[str, torch.Tensor] = field(default_factory=dict)
    eval_steps: frozenset[int] | None = None
    until: Callable | None = None
    batch_schedule: torch.Tensor | None = None
    regularizers: tuple = ()
    decay: StepDecay = field(default_factory=StepDecay)

    def part(self, runs: slice) -> "BlockSpec":
        """What the runs ``runs`` alone train: every per-run argument cut to them."""
        return replace(self, data=self.data.select_runs(runs), values={k: v[runs] for k, v in self.values.items()},
                       train_mask=self.train_mask[runs], val_mask=self.val_mask[runs],
                       given={k: v[runs] for k, v in self.given.items()},
                       batch_schedule=None if self.batch_schedule is None else self.batch_schedule[runs])


@dataclass
class Block:
    """The components of one block, each with one job; :meth:`select` narrows every one of them to the runs that go
    on training (early stopping)."""

    params: FlatParams
    optimizer: object
    source: object
    regularizers: list
    post_step: list
    lr: LRSchedule
    batches: object
    dropout: Dropout | None
    recorder: Recorder
    schedule: EvaluationSchedule
    evaluations: Evaluations
    stop: EarlyStop | None
    values: dict[str, list]
    keep_final_params: bool

    @property
    def n_runs(self) -> int:
        return self.params.flat.shape[0]

    def select(self, stop: np.ndarray | None) -> int:
        """The runs ``stop`` (bool over the active runs; None: none) leave the block; returns the runs left."""
        if stop is None:
            return self.n_runs
        keep = torch.as_tensor(~stop, device=self.params.flat.device)
        self.stop.keep_rows(self.params.flat)
        self.values = {k: [v for v, kept in zip(vals, keep.tolist()) if kept] for k, vals in self.values.items()}
        self.params.select(keep)
        self.optimizer.select(keep, self.values)
        self.source.select(keep)
        for part in self.regularizers + self.post_step:
            part.select(keep)
        self.recorder.select(keep, self.params.flat)
        return self.n_runs

    def state(self) -> dict[str, np.ndarray]:
        """Everything the rest of the block's run depends on, as a checkpoint keeps it."""
        out = self.params.state()
        if self.stop is not None:
            out.update(self.stop.state())
        out.update({f"optimizer/{k}": v.detach().cpu().numpy() for k, v in self.optimizer.state().items()})
        for part in self.post_step + [self.batches, self.dropout, self.recorder]:
            if part is not None and hasattr(part, "state"):
                out.update(part.state())
        return out

    @torch.no_grad()
    def load(self, state: Mapping[str, np.ndarray]) -> int:
        """Restore :meth:`state` (in place, where other components hold views); returns the step it was taken at."""
        if self.stop is not None:  # the runs that had stopped leave first: every state then has the saved rows
            stopped = self.stop.stopped_in(state)
            if stopped.any():
                self.select(stopped)
            self.stop.load_final(state)
        elif "until/active" in state:
            raise ValueError("the checkpoint was saved with until (some runs may have stopped); resume it with until.")
        device = self.params.flat.device
        self.params.load_state(state)
        self.optimizer.load_state({k[len("optimizer/"):]: torch.from_numpy(v).to(device) for k, v in state.items()
                                   if k.startswith("optimizer/")})
        for part in self.post_step + [self.batches, self.dropout]:
            if part is not None and hasattr(part, "load_state"):
                part.load_state(state)
        self.recorder.load_state(state, device)
        return int(state["step"])

    def finish(self, values_all: dict) -> History:
        """The final evaluation (of the runs still training) and the block's history."""
        if self.n_runs:
            self.evaluations.now(self.schedule.n_steps)
        else:  # every run stopped: the rest of the schedule is nan, as for any stopped run
            self.recorder.pad(self.schedule.steps())
        if self.stop is not None and self.stop.final is not None:
            self.stop.keep_rows(self.params.flat)
            final = {name: v.detach().cpu().double().numpy() for name, v in self.params.views(self.stop.final).items()}
        elif self.keep_final_params:
            final = {k: v.detach().cpu().double().numpy() for k, v in self.params.views().items()}
        else:
            final = {}
        return self.recorder.history(final, values_all)


def train_block(block: Block, steps: int, checkpoint=None, progress=None) -> History:
    """Train ``block`` to ``steps`` updates, from its checkpoint's state if it has one (a
    :class:`repro.training.engine.BlockCheckpoint`); ``progress`` counts run-steps."""
    values_all = block.values  # the history reports every run's values, also of runs that stop early
    start = checkpoint.restore(block) if checkpoint is not None else 0
    for step in range(start, steps):
        if checkpoint is not None and checkpoint.due(step):
            block.evaluations.wait()  # the state saved holds every evaluation before this step
            checkpoint.save(step, block.state())
        record = None
        if block.schedule.due(step):
            record = block.evaluations(step)
            if block.stop is not None and block.select(block.stop.stopping()) == 0:
                break
        batch = block.batches.indices(step) if block.batches is not None else None
        views = block.params.views()
        grads, log_scale = block.source(views, batch, record)
        for term in block.regularizers:
            term.add(grads, views, log_scale)
        flat = block.params.flat
        block.optimizer.step(flat, [grads[name].reshape(block.n_runs, -1) for name in block.params.offsets],
                             block.lr(step))
        for hook in block.post_step:
            hook(flat)
        if progress is not None:
            progress.advance(step, block.n_runs)
    block.evaluations.close()
    for hook in block.post_step:  # what a hook noted on the device without waiting for the host at every step
        if hasattr(hook, "check"):
            hook.check()
    return block.finish(values_all)


def build_block(spec: BlockSpec, *, nudge: float = 0.0, fast_grad: bool = False, fused_optimizer: bool | None = None,
                background: bool = False) -> Block:
    """Choose every component of one block, once. ``nudge``: a relative change of every initial parameter (another
    machine's rounding simulated on this one: ``REPRO_NUDGE``, :func:`repro.core.kernels.init_nudge`)."""
    cfg, values = spec.cfg, spec.values
    device, dtype = cfg.torch_device, cfg.torch_dtype
    params = FlatParams(spec.model, values, dtype, device, spec.given)
    if nudge:
        with torch.no_grad():
            params.flat.mul_(1 + nudge)
    optimizer = OPTIMIZER_CLASSES[cfg.optimizer](params, cfg, values, fused=fused_optimizer)
    minibatch = cfg.batch_size is not None and cfg.batch_size < int(spec.train_mask.sum(-1).min())
    if spec.batch_schedule is not None:
        batches = ScheduledBatches(spec.batch_schedule, device)
    else:
        batches = Minibatches(spec.train_mask, cfg.batch_size, values["init_seed"], device) if minibatch else None
    dropout = (Dropout(values["dropout"], values["init_seed"], device, dtype, spec.data.n_samples)
               if any(values["dropout"]) else None)
    source, data, train_mask, val_mask = gradient_source(spec.model, spec.data, spec.train_mask, spec.val_mask, dtype,
                                                         fast_grad, minibatch, dropout, optimizer.scale_free)
    recorder = Recorder(data, params.flat, train_mask, val_mask, spec.callback, spec.mse_threshold)
    regularizers = ([EmbedL1(cfg.embed_l1)] if cfg.embed_l1 else []) + list(spec.regularizers)
    fixed = torch.as_tensor([bool(v) for v in values["fixed_norm"]], device=device)
    post_step = [FixedNorm(params.flat, fixed)] if bool(fixed.any()) else []
    stop = None if spec.until is None else EarlyStop(spec.until, recorder, params.flat, spec.keep_final_params)
    # an evaluation rides on the gradient's forward, except where runs may stop or the gradient forwards each run's
    # own rows: there it is a forward of its own, first; a forward of its own may run in the background
    separate = stop is not None or source.separate_evaluation
    background = background and (separate or source.own_forward) and stop is None
    return Block(params=params, optimizer=optimizer, source=source, regularizers=regularizers, post_step=post_step,
                 lr=LRSchedule(cfg.warmup_steps, spec.decay.steps, spec.decay.factor), batches=batches,
                 dropout=dropout, recorder=recorder, schedule=EvaluationSchedule(cfg.steps, cfg.eval_every, spec.eval_steps),
                 evaluations=Evaluations(recorder, params, source, background, separate), stop=stop,
                 values=values, keep_final_params=spec.keep_final_params)

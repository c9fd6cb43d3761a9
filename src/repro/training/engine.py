"""How :func:`repro.training.trainer.train` runs, never what it computes: blocks of runs on worker threads, the
device, background evaluation, the progress bar and the checkpoints of each block (:class:`Performance`)."""
from __future__ import annotations

import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Mapping

import numpy as np
import torch

from repro.core.portable import ConfigRepr
from repro.core.validation import check_int
from repro.models.networks import BatchedModel
from repro.training.loop import build_block, train_block
from repro.training.recorder import History

def progress_enabled(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return os.environ.get("REPRO_PROGRESS", "1") != "0"



BLOCK_BYTES = 256 * 1024**2  # cap on a block's hot data (parameters, gradients, Adam moments, activations)
# A run above this trains in a block of its own: batching such runs did not pay on the CPU (measurements:
# book/benchmarks.md). Smaller runs keep the byte cap.
LARGE_RUN_BYTES = 64 * 1024**2


def default_block_runs(model: BatchedModel, n_samples: int, itemsize: int, n_runs: int, workers: int) -> int:
    """Runs per block on the CPU: the runs split evenly over the workers, one block each, and further only
    where a block's hot data would exceed :data:`BLOCK_BYTES`; a run above :data:`LARGE_RUN_BYTES` alone. A block
    that fits in the last-level cache does not pay for its extra per-step overhead (book/benchmarks.md)."""
    width = max((max(s.shape) for s in model.param_specs()), default=1)
    per_run = itemsize * (4 * model.n_params() + 6 * n_samples * width)
    max_block = 1 if per_run > LARGE_RUN_BYTES else max(1, BLOCK_BYTES // per_run)
    n_blocks = max(min(workers, n_runs), math.ceil(n_runs / max_block))
    n_blocks = min(n_runs, math.ceil(n_blocks / workers) * workers)
    return math.ceil(n_runs / n_blocks)


@dataclass(frozen=True, repr=False)
class Performance(ConfigRepr):
    """How :func:`train` runs, never what it computes: the histories do not depend on these fields beyond
    rounding (``tests/test_fastgrad.py`` trains the same runs every way and compares in float64; in float32 other
    blocks can change the last bits, ``tests/test_synthesis_one_task.py``).

    block_runs, workers: runs are independent, so on the CPU they train in blocks of ``block_runs``
        (default: what fits in cache, :func:`default_block_runs`), ``workers`` blocks at a time on their
        own threads (default: ``torch.get_num_threads()``, each block then single-threaded). On CUDA all
        runs form one block.
    fast_grad: use the hand-written backward pass of :mod:`repro.models.fastgrad` (default: whenever it
        supports the model and loss; otherwise autograd). ``True`` where unsupported is an error.
    background_evaluation: on the CPU, evaluate on a thread of its own while the block trains on (default: where
        a worker would otherwise idle, a single block on two or more workers, without ``until``). The evaluation
        reads a copy of the parameters of its step and is the same single-threaded forward, so the bits do not
        change. Only where the evaluation is a forward of its own (dropout, minibatches or a per-run-rows gradient);
        where it rides on the training forward it stays there.
    fused_optimizer: AdamW through PyTorch's fused kernel (default: where it exists, on CPU and CUDA; see
        :class:`AdamW`) or as whole-buffer elementwise ops (False). For many small runs (hundreds of runs
        of a thousand parameters) the elementwise update is the faster one: the fused kernel pays per tensor.
    progress: show a tqdm bar over run-steps on stderr, with the rate and the time left (default: unless
        ``REPRO_PROGRESS=0``); ``desc``: its label.
    checkpoint: a :class:`repro.training.checkpoint.Checkpointer` (made by the results store for a stored run,
        issue 32): the run resumes from its saved state and saves its state every ``checkpoint.every_s`` seconds.
        The resumed run equals the uninterrupted one bit for bit; a ``Record``'s callback must then keep no state of
        its own. With early stopping the checkpoint also keeps which runs had stopped (and their parameters).
    """

    block_runs: int | None = None
    workers: int | None = None
    fast_grad: bool | None = None
    fused_optimizer: bool | None = None
    background_evaluation: bool | None = None
    progress: bool | None = None
    desc: str = "training"
    checkpoint: object = field(default=None, compare=False)

    def __post_init__(self):
        for name in ("block_runs", "workers"):
            if getattr(self, name) is not None:
                check_int(name, getattr(self, name), minimum=1)
        for name in ("fast_grad", "fused_optimizer", "background_evaluation"):
            if getattr(self, name) not in (None, True, False):
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: use None (automatic), True or False.")
        if self.progress not in (None, True, False):
            raise ValueError(f"progress={self.progress!r} is not allowed: use None (unless REPRO_PROGRESS=0), True or "
                             "False.")

    def but(self, **changes) -> "Performance":
        """This performance with ``changes`` (e.g. a caller's ``progress``)."""
        return replace(self, **changes)



def run_blocks(run_block, blocks: list[slice], workers: int) -> list[History]:
    """``run_block`` on every block of runs, ``workers`` at a time on their own threads, each block
    single-threaded -- also when there is only one block. Two intra-op threads on one block sum in
    another order than one thread (and were measured to differ run to run), so a run's bits would
    depend on the caller's ``torch.get_num_threads()``: a sweep chunk recomputed on a Dask worker
    with another thread count would then differ from the same chunk trained in-process."""
    threads_before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        if workers == 1 or len(blocks) == 1:
            return [run_block(b) for b in blocks]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(run_block, blocks))
    finally:
        torch.set_num_threads(threads_before)


def join_blocks(parts: list[History], run_values: dict) -> History:
    """One :class:`History` from the blocks' histories, runs in block order."""
    join = lambda key: {k: np.concatenate([getattr(h, key)[k] for h in parts], axis=0) for k in getattr(parts[0], key)}
    return History(steps=parts[0].steps, metrics=join("metrics"), extra=join("extra"), final_params=join("final_params"),
                   run_values=run_values, extra_steps=parts[0].extra_steps)



def history_state(history: History) -> dict[str, np.ndarray]:
    """A finished block's history as checkpoint arrays (its run values are rebuilt from the run's arguments)."""
    out = {"history/steps": history.steps}
    for part in ("metrics", "extra", "final_params", "extra_steps"):
        out.update({f"history/{part}/{k}": v for k, v in getattr(history, part).items()})
    return out


def history_from_state(state: Mapping[str, np.ndarray], run_values: dict) -> History:
    part = lambda name: {k[len(f"history/{name}/"):]: v for k, v in state.items() if k.startswith(f"history/{name}/")}
    return History(steps=state["history/steps"], metrics=part("metrics"), extra=part("extra"),
                   final_params=part("final_params"), run_values=run_values, extra_steps=part("extra_steps"))



@dataclass
class Layout:
    """The blocks of runs (slices over the runs), the worker threads that train them, and whether evaluations may
    run on a thread of their own."""

    blocks: list[slice]
    workers: int
    background: bool


def plan_blocks(performance: Performance, model: BatchedModel, n_samples: int, n_runs: int, steps: int, dtype,
                device: torch.device, checkpoint=None, stops: bool = False) -> Layout:
    """Blocks and threads by :class:`Performance` (a resumed run keeps the blocks its checkpoint was saved in)."""
    workers = performance.workers
    if workers is None:
        workers = torch.get_num_threads() if device.type == "cpu" else 1
    block_runs = performance.block_runs
    if block_runs is None:
        block_runs = (n_runs if device.type != "cpu" else
                      default_block_runs(model, n_samples, torch.finfo(dtype).bits // 8, n_runs, workers))
    blocks = [slice(a, min(a + block_runs, n_runs)) for a in range(0, n_runs, block_runs)]
    if checkpoint is not None:
        blocks = [slice(a, b) for a, b in checkpoint.begin(n_runs, steps, [(b.start, b.stop) for b in blocks])]
    background = performance.background_evaluation
    if background is None:  # a worker would idle: one block on two or more (one seed on the CI's two cores)
        background = device.type == "cpu" and not stops and 2 * len(blocks) <= workers
    elif background and (device.type != "cpu" or stops):
        raise ValueError("background_evaluation=True is only allowed on the CPU and without until (runs that stop "
                         "early need their evaluation before the next step); use None or False.")
    return Layout(blocks, min(workers, len(blocks)), background)


class Progress:
    """A tqdm bar over run-steps on stderr, advanced every ``steps // 200`` steps of a block."""

    def __init__(self, steps: int, n_runs: int, desc: str, checkpoint=None, blocks: list[slice] = ()):
        from tqdm import tqdm

        self.every = max(1, steps // 200)
        # the run-steps a resumed run has done count from the start, as the blocks would have counted them; tqdm's
        # rate (and so the time left) counts only this process's updates
        done = 0 if checkpoint is None else sum(
            (int(state["step"]) // self.every) * self.every * (b.stop - b.start)
            for i, b in enumerate(blocks) if (state := checkpoint.restored(i)) is not None)
        self.bar = tqdm(total=steps * n_runs, initial=done, desc=desc, unit="run-step", unit_scale=True,
                        file=sys.stderr, mininterval=1.0,
                        bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed} elapsed, {remaining} left, {rate_fmt}]")

    def advance(self, step: int, n_runs: int) -> None:
        if (step + 1) % self.every == 0:
            self.bar.update(self.every * n_runs)

    def close(self) -> None:
        self.bar.update(self.bar.total - self.bar.n)
        self.bar.close()


class BlockCheckpoint:
    """Block ``index`` of a :class:`repro.training.checkpoint.Checkpointer`: its saved state, and its saves."""

    def __init__(self, checkpoint, index: int):
        self.checkpoint, self.index = checkpoint, index

    def restore(self, block) -> int:
        """Load the block's saved state into ``block`` (a :class:`repro.training.loop.Block`); the step to go on from."""
        state = self.checkpoint.restored(self.index)
        if state is None:
            return 0
        start = block.load(state)
        self.checkpoint.release(self.index)
        return start

    def due(self, step: int) -> bool:
        return self.checkpoint.due(self.index, step)

    def save(self, step: int, arrays: dict[str, np.ndarray]) -> None:
        self.checkpoint.save(self.index, step, arrays)


class BlockRunner:
    """Trains one block of runs of a :class:`repro.training.loop.BlockSpec` (called by :func:`run_blocks`), or
    returns its history from the checkpoint where it had finished."""

    def __init__(self, spec, layout: Layout, performance: Performance, fast_grad: bool, nudge: float,
                 checkpoint=None, progress: Progress | None = None):
        self.spec, self.performance, self.fast_grad, self.nudge = spec, performance, fast_grad, nudge
        self.checkpoint, self.progress, self.background = checkpoint, progress, layout.background
        self.index = {(b.start, b.stop): i for i, b in enumerate(layout.blocks)}

    def __call__(self, runs: slice) -> History:
        i, spec = self.index[(runs.start, runs.stop)], self.spec.part(runs)
        saved = None if self.checkpoint is None else self.checkpoint.restored(i)
        if saved is not None and bool(saved["done"]):  # a block that finished before the run was interrupted
            return history_from_state(saved, spec.values)
        block = build_block(spec, nudge=self.nudge, fast_grad=self.fast_grad, background=self.background,
                            fused_optimizer=self.performance.fused_optimizer)
        history = train_block(block, spec.cfg.steps, None if self.checkpoint is None else BlockCheckpoint(self.checkpoint, i),
                              self.progress)
        if self.checkpoint is not None and self.checkpoint.wants_done_blocks():
            self.checkpoint.save(i, spec.cfg.steps, history_state(history), done=True)
        return history

"""Batched sweeps: a whole grid of configurations trained as one tensor program.

``sweep(model_config, data, cfg, axes)`` takes the Cartesian product of ``axes``: per-run training
fields of :data:`repro.training.trainer.PER_RUN_FIELDS`, plus ``train_fraction`` and ``data_seed``, which become
per-run training/validation masks over the shared dataset. It trains every run together through
:func:`repro.training.trainer.train`, which is the same code path as a single run. Runs are split into chunks
that fit a memory budget. With a :class:`~repro.training.store.ResultsStore`, every finished chunk is stored,
so an interrupted sweep resumes where it stopped and recomputes nothing.

On a cluster, ``sweep(..., client=dask.distributed.Client(...))`` makes each chunk one Dask task: the
worker trains it (on its GPU if it has one: the trainer picks CUDA) and writes it to the store itself,
and this process gathers the results. The store key of a chunk is the same in both modes, so a sweep
interrupted on a cluster resumes on a laptop and the other way round; a chunk whose worker died is
recomputed by Dask, and the store's atomic writes mean it is never half-written. ``dask[distributed]``
is the optional extra ``cluster``; nothing here imports it unless a client is given.
"""
from __future__ import annotations

import hashlib
import itertools
import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import torch

from repro.data.tasks import Split, TaskData, make_split
from repro.models.networks import build_model
from repro.training.checkpoint import DEFAULT_EVERY_S
from repro.training.store import ResultsStore, canonical, config_key, history_from_arrays, history_to_arrays
from repro.training.trainer import (PER_RUN_FIELDS, History, LinfPenalty, Performance, Record, StepDecay, TrainConfig,
                                    train)

SPLIT_FIELDS = ("train_fraction", "data_seed")
DEFAULT_MEMORY_BUDGET = 2 * 1024**3  # bytes; sized for a 24 GiB laptop-class machine with room to spare


@dataclass
class SweepResult:
    """Histories of every run of a grid, with the grid's axes (``shape`` = lengths of the axes)."""

    axes: dict[str, list]
    history: History
    n_chunks: int
    chunks_from_store: int

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.axes.values())

    def grid(self, values: np.ndarray) -> np.ndarray:
        """Reshape a per-run array ``(R, ...)`` onto the grid ``(*shape, ...)``."""
        values = np.asarray(values)
        return values.reshape(*self.shape, *values.shape[1:])

    def first_steps(self, key: str, threshold: float) -> np.ndarray:
        return self.grid(self.history.first_step(key, threshold))



def train_key(cfg: TrainConfig, components: Sequence = ()) -> dict:
    """A training config's part of a store key: ``cfg`` and the step decay and ℓ∞ penalty among ``components``,
    under the names they had as fields of :class:`TrainConfig` until they became components, so that every chunk
    stored before keeps its key (``tests/test_trainer_components.py``)."""
    decay = next((c for c in components if isinstance(c, StepDecay)), StepDecay())
    linf = next((c for c in components if isinstance(c, LinfPenalty)), LinfPenalty(0.0))
    return {**canonical(cfg), **canonical({"lr_decay_steps": decay.steps, "lr_decay_factor": decay.factor,
                                          "linf_reg": linf.lam, "linf_relative": linf.relative})}


def expand_grid(axes: Mapping[str, Sequence]) -> dict[str, list]:
    """Cartesian product of the axes, the last axis varying fastest: ``{field: [value per run]}``."""
    allowed = PER_RUN_FIELDS + SPLIT_FIELDS
    for name, values in axes.items():
        if name not in allowed:
            raise ValueError(f"sweep axis {name!r} is not allowed: axes must be among {', '.join(allowed)}.")
        if len(values) == 0:
            raise ValueError(f"sweep axis {name!r} is empty: give at least one value.")
    names = list(axes)
    combos = list(itertools.product(*(axes[n] for n in names)))
    return {n: [c[i] for c in combos] for i, n in enumerate(names)}


def split_masks(data: TaskData, fractions: Sequence[float], seeds: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-run training and validation masks ``(R, N)`` from each run's fraction and data seed.

    Only the split changes between runs; targets (e.g. regression templates) stay those of ``data``.
    """
    n = data.n_samples
    train = torch.zeros(len(fractions), n, dtype=torch.bool)
    for r, (frac, seed) in enumerate(zip(fractions, seeds)):
        idx, _ = make_split(n, Split(train_fraction=float(frac), data_seed=int(seed)))
        train[r, torch.as_tensor(idx)] = True
    return train, ~train


def bytes_per_run(model_config, data: TaskData, cfg: TrainConfig) -> int:
    """A generous estimate of one run's memory: parameters with gradient and optimizer state, plus
    activations (kept for backward) of the samples in one step."""
    model = build_model(model_config)
    itemsize = 8 if cfg.dtype == "float64" else 4
    n_params = model.n_params()
    param_bytes = 8 * n_params * itemsize  # flat, grad, m, v, buffer, lr, decay, views' slack
    samples = data.n_samples if cfg.batch_size is None else cfg.batch_size + data.n_samples
    # activations: each matmul's output and input are kept; ~ flops / (2 * fan_in) per sample, bounded below
    acts = 6 * samples * max(64, model.matmul_flops_per_sample() // 64) * itemsize
    return int(param_bytes + acts)


def _data_fingerprint(data: TaskData) -> str:
    h = hashlib.sha256()
    for t in (data.inputs, data.labels, data.targets, data.templates):
        if t is not None:
            h.update(t.detach().cpu().contiguous().numpy().tobytes())
    h.update(np.asarray(data.train_idx).tobytes())
    h.update(np.asarray(data.val_idx).tobytes())
    return h.hexdigest()[:16]


def sweep(
    model_config,
    data: TaskData,
    cfg: TrainConfig,
    axes: Mapping[str, Sequence],
    *,
    store: ResultsStore | None = None,
    label: str = "sweep",
    memory_budget_bytes: int = DEFAULT_MEMORY_BUDGET,
    chunk_size: int | None = None,
    callback=None,
    keep_final_params: bool = False,
    progress: bool | None = None,
    client=None,
    checkpoint_every_s: float = DEFAULT_EVERY_S,
) -> SweepResult:
    """Train every combination of ``axes`` and return the histories on the grid.

    ``chunk_size`` (runs per chunk) defaults to what fits ``memory_budget_bytes``. With ``store``, each
    chunk is filed under its own config (model, training config, data fingerprint, its runs), so a
    rerun after an interruption loads finished chunks and trains only the rest. With ``client`` (a
    ``dask.distributed.Client``), the chunks not yet in the store train as Dask tasks on its workers,
    which must be able to write to the store's folder (a shared file system on a cluster).

    With ``store``, a chunk also checkpoints every ``checkpoint_every_s`` seconds (issue 32): a chunk interrupted
    mid-run -- the process stopped, or its Dask worker died and the task moved to another -- resumes from its
    checkpoint, not from step 0, and its entry lists the segments it was trained in.
    """
    runs = expand_grid(axes)
    n_runs = len(next(iter(runs.values())))
    per_run = {k: v for k, v in runs.items() if k in PER_RUN_FIELDS}
    masks = None
    if any(k in runs for k in SPLIT_FIELDS):
        default_fraction = len(data.train_idx) / data.n_samples
        fractions = runs.get("train_fraction", [default_fraction] * n_runs)
        seeds = runs.get("data_seed", [int(data.meta.get("data_seed", 0))] * n_runs)
        masks = split_masks(data, fractions, seeds)
    if chunk_size is None:
        chunk_size = max(1, memory_budget_bytes // bytes_per_run(model_config, data, cfg))
    elif chunk_size < 1:
        raise ValueError(f"chunk_size={chunk_size} is not allowed: chunk_size must be >= 1.")
    n_chunks = math.ceil(n_runs / chunk_size)
    fingerprint = _data_fingerprint(data)
    chunks = []
    for c in range(n_chunks):
        lo, hi = c * chunk_size, min(n_runs, (c + 1) * chunk_size)
        chunks.append(_Chunk(
            index=c,
            runs={k: v[lo:hi] for k, v in per_run.items()} or {"init_seed": [cfg.init_seed] * (hi - lo)},
            masks=None if masks is None else (masks[0][lo:hi], masks[1][lo:hi]),
            key={"model": model_config, "train": train_key(cfg), "data": fingerprint,
                 "runs": {k: v[lo:hi] for k, v in runs.items()}, "callback": getattr(callback, "__name__", None),
                 "keep_final_params": keep_final_params},
            desc=f"{label} chunk {c + 1}/{n_chunks}",
        ))
    # The claims that judge this sweep are sealed once, before its first chunk trains (a chunk trained on a Dask
    # worker records this seal; one trained here seals again at its own start, which is no earlier).
    job = _Job(model_config, data, cfg, callback, keep_final_params, progress, label,
               None if store is None else store.seal(label), checkpoint_every_s)
    if client is not None:
        arrays, from_store = _run_distributed(client, job, chunks, store)
    else:
        arrays, from_store = [], 0
        for chunk in chunks:
            if store is None:
                arrays.append(_train_chunk(job, chunk))
                continue
            had = store.has(chunk.key, label)
            stored, _ = store.get_or_compute(chunk.key, lambda checkpoint: _train_chunk(job, chunk, checkpoint),
                                             label=label, checkpoint_every_s=checkpoint_every_s)
            from_store += had
            arrays.append(stored)
    return SweepResult(axes={k: list(v) for k, v in axes.items()},
                       history=_concat([history_from_arrays(a) for a in arrays]),
                       n_chunks=n_chunks, chunks_from_store=from_store)


@dataclass(frozen=True)
class _Job:
    """What every chunk of one sweep shares (sent to each Dask worker once)."""

    model_config: object
    data: TaskData
    cfg: TrainConfig
    callback: object
    keep_final_params: bool
    progress: bool | None
    label: str
    sealed: dict | None = None  # the store's seal of this label's claims, taken when the sweep started
    checkpoint_every_s: float = DEFAULT_EVERY_S  # how often a chunk trained with a store saves its checkpoint


@dataclass(frozen=True)
class _Chunk:
    index: int
    runs: dict
    masks: tuple | None
    key: dict  # the store key: identical in-process and on a cluster
    desc: str


def _train_chunk(job: _Job, chunk: _Chunk, checkpoint=None) -> dict[str, np.ndarray]:
    hist = train(job.model_config, job.data, job.cfg, runs=chunk.runs,
                 split=chunk.masks,
                 record=Record(callback=job.callback, keep_final_params=job.keep_final_params),
                 performance=Performance(progress=job.progress, desc=chunk.desc, checkpoint=checkpoint))
    return history_to_arrays(hist)


def _train_and_store(job: _Job, chunk: _Chunk, store_root: str | None) -> dict[str, np.ndarray]:
    """One Dask task: train a chunk and, with a store, write it there from the worker (atomically). With a store
    the chunk checkpoints beside its entry, so a task that moves to another worker after its worker died resumes
    from there (the same as :meth:`ResultsStore.get_or_compute`, with the worker in the manifest)."""
    if store_root is None:
        return _train_chunk(job, chunk)
    store, worker = ResultsStore(store_root), _worker_address()
    checkpoint = store.checkpointer(chunk.key, job.label, every_s=job.checkpoint_every_s, sealed=job.sealed,
                                    provenance={"dask_worker": worker})
    arrays = _train_chunk(job, chunk, checkpoint)
    store.save(chunk.key, arrays, label=job.label, wall_time_s=checkpoint.wall_time_s(), sealed=checkpoint.sealed,
               extra_manifest={"dask_worker": worker, "segments": checkpoint.segments(finished=True)})
    checkpoint.remove()
    return arrays


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return "none"


def _check_writable(folder: str) -> str | None:
    """Run on every worker: None if the worker can create and remove a file in ``folder``, else why not."""
    import os as _os
    import tempfile as _tempfile

    try:
        _os.makedirs(folder, exist_ok=True)
        fd, probe = _tempfile.mkstemp(dir=folder, prefix=".probe-")
        _os.close(fd)
        _os.unlink(probe)
        return None
    except OSError as exc:
        return f"{type(exc).__name__}: {exc}"


def check_client(client, store: ResultsStore | None = None) -> int:
    """Validate a Dask client for a sweep: it has workers, and (with a store) every worker can write to
    the store's folder. Returns the number of workers; raises ValueError naming what is wrong."""
    try:
        workers = client.scheduler_info(n_workers=-1).get("workers", {})
    except TypeError:  # older distributed: no n_workers argument
        workers = client.scheduler_info().get("workers", {})
    if not workers:
        raise ValueError(f"client={client!r} has no workers: start workers for the scheduler at "
                         f"{client.scheduler.address} (or use a LocalCluster) before sweeping.")
    if store is not None:
        problems = {w: why for w, why in client.run(_check_writable, str(Path(store.root).resolve())).items() if why}
        if problems:
            listed = "; ".join(f"{w}: {why}" for w, why in sorted(problems.items()))
            raise ValueError(f"store={str(store.root)!r} is not writable by every Dask worker ({listed}); give a folder "
                             f"that all workers share and can write, e.g. on the cluster's shared file system.")
    return len(workers)


def _run_distributed(client, job: _Job, chunks: list[_Chunk], store: ResultsStore | None):
    """Chunks already in the store are loaded here; the others become one Dask task each."""
    from distributed import as_completed

    from repro.training.trainer import progress_enabled

    check_client(client, store)
    arrays: list = [None] * len(chunks)
    todo = []
    for chunk in chunks:
        if store is not None and store.has(chunk.key, job.label):
            arrays[chunk.index], _ = store.load(chunk.key, job.label)
        else:
            todo.append(chunk)
    from_store = len(chunks) - len(todo)
    if todo:
        # Chunk-level progress here; no per-step bars in the workers' logs.
        [job_future] = client.scatter([dataclasses.replace(job, progress=False)], broadcast=True)
        root = None if store is None else str(Path(store.root).resolve())
        futures = {client.submit(_train_and_store, job_future, chunk, root, pure=False,
                                 key=f"{job.label}-chunk-{chunk.index}-{config_key(chunk.key)}"): chunk.index
                   for chunk in todo}
        bar = None
        if progress_enabled(job.progress):
            import sys

            from tqdm import tqdm

            bar = tqdm(total=len(todo), desc=f"{job.label}: chunks on the cluster", unit="chunk", file=sys.stderr)
        try:
            for future in as_completed(futures):
                arrays[futures[future]] = future.result()
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
    return arrays, from_store


def _concat(histories: list[History]) -> History:
    first = histories[0]
    return History(
        steps=first.steps,
        metrics={k: np.concatenate([h.metrics[k] for h in histories]) for k in first.metrics},
        extra={k: np.concatenate([h.extra[k] for h in histories]) for k in first.extra},
        final_params={k: np.concatenate([h.final_params[k] for h in histories]) for k in first.final_params},
        run_values={k: sum((list(h.run_values[k]) for h in histories), []) for k in first.run_values},
        extra_steps=first.extra_steps,
    )

"""Checkpoints of a stored training run, so that a run longer than a sitting resumes where it stopped (issue 32).

A :class:`Checkpointer` belongs to one :func:`repro.training.trainer.train` call of one stored run. The results
store makes it (:meth:`repro.training.store.ResultsStore.get_or_compute` with a ``compute`` that takes a
``checkpoint`` argument, passed on as ``Performance(checkpoint=...)``), and the trainer hands it the complete state
of each block of runs every ``every_s`` seconds (and at ``at_steps``, for tests):

* the parameters, the optimizer's state, the initial norms of ``fixed_norm`` runs;
* every random state that decides the rest of the run: each run's minibatch sampler (data order, with the
  current epoch's order) and dropout generator (CPU or CUDA; nothing in the trainer draws from torch's global
  generator);
* the history recorded so far, and the step reached.

It lives in ``<root>/<label>-<key>.partial/``, next to where the finished entry will be, as

* ``config.json`` — the run's config, checked like a stored entry's before resuming;
* ``block-<i>.npz`` — block i's state, compressed, loaded with ``allow_pickle=False`` (no pickles, so no
  ``torch.save``); one file per block and no older copies, so a checkpoint committed to move a run to
  another machine stays small;
* ``checkpoint.json`` — the seal taken when the run's FIRST segment started (a resumed run keeps it), the run's
  shape (runs, steps, blocks), the step each block reached, and the segments: one per process that trained part
  of the run (commit, machine, kernel set, wall time, steps covered).

Every file is written to a temporary name and renamed over the old one, so an interruption at any moment
leaves the previous, complete file. A block file carries its own step, so a block is always restored from a
consistent state even if ``checkpoint.json`` (written after it) lags behind. The checkpoint is never a
result: the store refuses to load it and removes it once the finished entry is stored.

A resumed run equals the uninterrupted one bit for bit (``tests/test_checkpoint.py``) when it runs with the
same kernels, dtype and device type; a callback passed to ``train`` must not keep state of its own.
"""
from __future__ import annotations

import io
import json
import math
import os
import threading
import time
from pathlib import Path
from typing import Iterable

import numpy as np

from repro.core.files import write_bytes_atomic

CHECKPOINT_SCHEMA = 1
DEFAULT_EVERY_S = 600.0  # ten minutes: at most that much of a run is lost when its process stops
STATE_FILE = "checkpoint.json"
CONFIG_FILE = "config.json"
PARTIAL_SUFFIX = ".partial"


def _utc_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def block_file(folder: Path, block: int) -> Path:
    return Path(folder) / f"block-{block}.npz"


def read_checkpoint(folder: str | os.PathLike) -> dict | None:
    """The ``checkpoint.json`` of a checkpoint folder (None when there is none yet), with its schema checked."""
    path = Path(folder) / STATE_FILE
    if not path.exists():
        return None
    state = json.loads(path.read_text())
    if state.get("schema") != CHECKPOINT_SCHEMA:
        raise ValueError(f"{path}: checkpoint schema {state.get('schema')} != current {CHECKPOINT_SCHEMA}; delete the "
                         "folder to restart the run from step 0.")
    return state


def reached_step(state: dict) -> int:
    """The step every block of a checkpoint has reached (a finished block counts as all ``steps``)."""
    return min(int(s) for s in state["block_steps"]) if state.get("block_steps") else 0


def steps_per_second(segments: list[dict]) -> float | None:
    """The run's measured speed over its segments (steps covered / wall time), None before any step."""
    done = sum(max(0, (s.get("to_step") or 0) - (s.get("from_step") or 0)) for s in segments)
    wall = sum(s.get("wall_time_s") or 0.0 for s in segments)
    return done / wall if done > 0 and wall > 0 else None


def projected_remaining_s(state: dict) -> float | None:
    """Seconds left for a checkpointed run at the speed of its segments so far (None: nothing measured yet)."""
    rate = steps_per_second(state.get("segments", []))
    return None if rate is None else (int(state["steps"]) - reached_step(state)) / rate


class Checkpointer:
    """Saves and restores the state of one :func:`repro.training.trainer.train` call in ``folder``.

    folder: the checkpoint folder (``<root>/<label>-<key>.partial``); when it holds a checkpoint, the run resumes
        from it (the caller has checked that its ``config.json`` is this run's: :meth:`ResultsStore.checkpointer`).
    config_text: the ``config.json`` to write beside the state (None: none, for tests without a store).
    sealed: the seal of the claims that judge the run, taken now; a resumed run keeps the one of its first segment.
    provenance: what this process records in its segment (commit, machine, kernel set, ...).
    every_s: seconds between two saves of a block (the issue's "every N minutes"); 0 saves at every step.
    at_steps: steps at which every block is saved in any case (tests interrupt a run after one).
    """

    def __init__(self, folder: str | os.PathLike, *, config_text: str | None = None, label: str = "run",
                 sealed: dict | None = None, provenance: dict | None = None, every_s: float = DEFAULT_EVERY_S,
                 at_steps: Iterable[int] = ()):
        if isinstance(every_s, bool) or not isinstance(every_s, (int, float)) or not math.isfinite(every_s) \
                or every_s < 0:
            raise ValueError(f"every_s={every_s!r} is not allowed: it must be a number of seconds >= 0.")
        at_steps = frozenset(at_steps)
        for s in at_steps:
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 1:
                raise ValueError(f"at_steps has {s!r}; allowed: integer steps >= 1.")
        self.folder = Path(folder)
        self.config_text, self.label, self.every_s, self.at_steps = config_text, label, float(every_s), at_steps
        self.provenance = dict(provenance or {})
        self.previous = read_checkpoint(self.folder)  # the checkpoint this process resumes (None: a fresh run)
        self.sealed = self.previous["sealed"] if self.previous is not None else sealed
        self._segment = dict(self.provenance, started=_utc_now(), from_step=None, to_step=None, wall_time_s=0.0)
        self._t0 = time.perf_counter()
        self._lock = threading.Lock()
        self._begun = False
        self.steps: int | None = None
        self.n_runs: int | None = None
        self.blocks: list[tuple[int, int]] = []
        self._restored: dict[int, dict[str, np.ndarray]] = {}
        self._step: list[int] = []
        self._start: list[int] = []
        self._done: list[bool] = []
        self._last_save: list[float] = []

    # --- what the trainer calls -------------------------------------------------------------------------------

    def begin(self, n_runs: int, steps: int, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Start this process's segment of a run of ``n_runs`` runs and ``steps`` steps; returns the blocks of runs
        to train: ``blocks`` for a fresh run, the checkpoint's own for a resumed one (each block's state is its own,
        so the blocks must stay as they were, whatever this machine's default)."""
        if self._begun:
            raise RuntimeError("this Checkpointer already served a train() call: a checkpoint holds one training run; "
                               "make one per stored run.")
        self._begun = True
        if self.previous is not None:
            prev = self.previous
            if (int(prev["n_runs"]), int(prev["steps"])) != (n_runs, steps):
                raise ValueError(f"{self.folder}: the checkpoint is of a run of {prev['n_runs']} runs and {prev['steps']} "
                                 f"steps; this train() call has {n_runs} runs and {steps} steps. Delete the folder to "
                                 "start again.")
            blocks = [tuple(b) for b in prev["blocks"]]
            for i in range(len(blocks)):
                path = block_file(self.folder, i)
                if path.exists():
                    with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as npz:
                        self._restored[i] = {k: npz[k] for k in npz.files}
        self.n_runs, self.steps, self.blocks = n_runs, steps, [(int(a), int(b)) for a, b in blocks]
        self._step = [int(self._restored[i]["step"]) if i in self._restored else 0 for i in range(len(self.blocks))]
        self._done = [bool(self._restored.get(i, {}).get("done", False)) for i in range(len(self.blocks))]
        self._start = list(self._step)
        now = time.monotonic()
        self._last_save = [now] * len(self.blocks)
        self._segment["from_step"] = min(self._step) if self._step else 0
        self._segment["to_step"] = self._segment["from_step"]
        # from_step/to_step are what every block has reached; blocks train one after another, so a segment that
        # ends inside the first of several blocks reads 0 -> 0: the per-block steps say what it did
        self._segment["block_steps_from"] = list(self._step)
        return list(self.blocks)

    def restored(self, block: int) -> dict[str, np.ndarray] | None:
        """The saved state of ``block`` (None: it starts from step 0)."""
        return self._restored.get(block)

    def release(self, block: int) -> None:
        """Drop the saved state of ``block`` once it is restored (a history of embedding snapshots can be large)."""
        saved = self._restored.get(block)
        if saved is not None:
            self._restored[block] = {"step": saved["step"], "done": saved["done"]}

    def due(self, block: int, step: int) -> bool:
        """Whether ``block`` saves its state before taking step ``step`` (never at the step it started from)."""
        if step == self._start[block]:
            return False
        return step in self.at_steps or time.monotonic() - self._last_save[block] >= self.every_s

    def save(self, block: int, step: int, arrays: dict[str, np.ndarray], *, done: bool = False) -> None:
        """Store ``block``'s state after ``step`` steps (``done``: its finished history), then ``checkpoint.json``."""
        buffer = io.BytesIO()
        np.savez_compressed(buffer, step=np.int64(step), done=np.bool_(done), **arrays)
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            if self.config_text is not None and not (self.folder / CONFIG_FILE).exists():
                write_bytes_atomic(self.folder / CONFIG_FILE, self.config_text.encode())
            write_bytes_atomic(block_file(self.folder, block), buffer.getvalue())
            self._step[block], self._done[block] = int(step), bool(done)
            self._last_save[block] = time.monotonic()
            write_bytes_atomic(self.folder / STATE_FILE, (json.dumps(self.state(), indent=2, sort_keys=True) + "\n").encode())

    # --- what the store calls ---------------------------------------------------------------------------------

    def wants_done_blocks(self) -> bool:
        """Whether a block that finished should be saved: only while another block still trains (when the last one
        finishes, the store writes the finished entry instead)."""
        return sum(not d for d in self._done) > 1  # the finishing block is not marked done yet

    def current_segment(self, finished: bool = False) -> dict:
        seg = dict(self._segment, wall_time_s=round(time.perf_counter() - self._t0, 3))
        if self._begun:
            seg["to_step"] = self.steps if finished else min(self._step, default=0)
            seg["block_steps_to"] = [self.steps] * len(self._step) if finished else list(self._step)
        return seg

    def segments(self, finished: bool = False) -> list[dict]:
        """Every segment of the run so far, this process's last (``finished``: it completed the run)."""
        earlier = list(self.previous["segments"]) if self.previous is not None else []
        return earlier + [self.current_segment(finished)]

    def wall_time_s(self) -> float:
        """The run's wall time over all its segments."""
        return round(sum(s.get("wall_time_s") or 0.0 for s in self.segments()), 3)

    def state(self) -> dict:
        """The contents of ``checkpoint.json`` now."""
        return {
            "schema": CHECKPOINT_SCHEMA,
            "label": self.label,
            "sealed": self.sealed,
            "n_runs": self.n_runs,
            "steps": self.steps,
            "blocks": [list(b) for b in self.blocks],
            "block_steps": list(self._step),
            "block_done": list(self._done),
            "segments": self.segments(),
            "updated": _utc_now(),
        }

    def remove(self) -> None:
        """Delete the checkpoint folder (the run is stored as a finished entry)."""
        import shutil

        if self.folder.exists():
            shutil.rmtree(self.folder)

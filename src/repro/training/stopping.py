"""Early stopping (the :class:`Until` component, GenEFT): after each evaluation a run may stop; it takes no further step and
leaves the block, its later records are nan and (``keep_final_params``) its final parameters those at its stop."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np
import torch

from repro.training.recorder import Recorder


@dataclass(frozen=True)
class Until:
    """A component: stop runs early. At every evaluation step before the last, after recording it, ``fn(steps,
    metrics)`` gets the evaluation steps so far (T,) and every metric so far as ``(R_block, T)`` float64 arrays of
    the runs of one block (see :class:`repro.training.engine.Performance`; nan once a run has stopped), and returns
    a bool array (R_block,): the runs to stop now. A stopped run takes no further step and leaves the batch (the
    others continue exactly as without it); its later history entries are nan and its final parameters are those
    at its stop. It must decide from the history alone (blocks call it separately). Full batch without dropout."""

    fn: Callable[[np.ndarray, dict[str, np.ndarray]], np.ndarray]


class EarlyStop:
    """``until(steps, metrics)`` -> bool (R_block,): the runs to stop now (see :class:`Until`).
    Keeps which runs are active (the recorder's) and, with ``keep_final``, the parameters the stopped runs stopped at,
    for a checkpoint (``until/active``, ``until/final``)."""

    def __init__(self, until: Callable, recorder: Recorder, flat: torch.Tensor, keep_final: bool):
        self.until, self.recorder = until, recorder
        self.final = flat.detach().clone() if keep_final else None  # rows of stopped runs

    def stopping(self) -> np.ndarray | None:
        """Which active runs ``until`` stops after this evaluation (bool (R_active,)), or None when none."""
        recorder = self.recorder
        stop = np.asarray(self.until(np.asarray(recorder.steps, dtype=np.int64), recorder.metrics_so_far()))
        if stop.shape != (recorder.n_runs,) or stop.dtype != bool:
            raise ValueError(f"until must return a bool array of shape ({recorder.n_runs},) (one per run of the block); "
                             f"got {stop.dtype} {stop.shape}.")
        if recorder.active is not None:
            stop = stop[recorder.active.cpu().numpy()]
        return stop if stop.any() else None

    def _active(self):
        return self.recorder.active if self.recorder.active is not None else slice(None)

    def keep_rows(self, flat: torch.Tensor) -> None:
        """Remember the active runs' parameters ``flat`` (before some of them leave, and at the end)."""
        if self.final is not None:
            self.final[self._active()] = flat

    def state(self) -> dict[str, np.ndarray]:
        recorder = self.recorder
        active = recorder.active.cpu().numpy() if recorder.active is not None else np.arange(recorder.n_runs)
        out = {"until/active": active.astype(np.int64)}
        if self.final is not None:
            out["until/final"] = self.final.detach().cpu().numpy()
        return out

    def stopped_in(self, restored: Mapping[str, np.ndarray]) -> np.ndarray:
        """The runs (bool over the block) that had stopped when ``restored`` was saved."""
        if "until/active" not in restored:
            raise ValueError("the checkpoint was saved without until; resume it without until.")
        return ~np.isin(np.arange(self.recorder.n_runs), restored["until/active"])

    def load_final(self, restored: Mapping[str, np.ndarray]) -> None:
        if self.final is not None:
            self.final.copy_(torch.from_numpy(restored["until/final"]))

"""The steps a run evaluates at, the recorder of its metrics and callback entries, evaluations on a thread of
their own, and the per-run :class:`History` the trainer returns."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np
import torch

from repro.core.crossings import first_step
from repro.data.tasks import TaskData
from repro.training.losses import per_sample_correct, per_sample_loss

@dataclass
class History:
    """Per-run training curves: arrays of shape ``(R, T)`` at the evaluation ``steps`` (T,)."""

    steps: np.ndarray
    metrics: dict[str, np.ndarray]
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    final_params: dict[str, np.ndarray] = field(default_factory=dict)
    run_values: dict[str, list] = field(default_factory=dict)
    # the steps of an ``extra`` entry that the callback returned at some evaluation steps only (a snapshot every
    # few hundred steps): ``extra[k]`` is then (R, len(extra_steps[k]), ...); entries recorded at every step are absent
    extra_steps: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def n_runs(self) -> int:
        return next(iter(self.metrics.values())).shape[0]

    def __getitem__(self, key: str) -> np.ndarray:
        if key in self.metrics:
            return self.metrics[key]
        if key in self.extra:
            return self.extra[key]
        raise KeyError(f"history has no metric {key!r}; it has {sorted(self.metrics) + sorted(self.extra)}.")

    def first_step(self, key: str, threshold: float, *, above: bool = True) -> np.ndarray:
        """Per run, the first evaluation step where ``key`` reaches ``threshold`` (>=, or <= with
        ``above=False``); -1 where it never does."""
        return first_step(self.steps, self[key], threshold, above=above)

    def run(self, r: int) -> "History":
        """The history of run r alone (as a one-run History)."""
        return History(
            steps=self.steps,
            metrics={k: v[r : r + 1] for k, v in self.metrics.items()},
            extra={k: v[r : r + 1] for k, v in self.extra.items()},
            final_params={k: v[r : r + 1] for k, v in self.final_params.items()},
            run_values={k: v[r : r + 1] for k, v in self.run_values.items()},
            extra_steps=self.extra_steps,
        )



def _masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    count = mask.sum(-1).to(values.dtype)
    return torch.where(count > 0, (values * mask).sum(-1) / count.clamp(min=1), torch.full_like(count, float("nan")))


class Recorder:
    """The evaluations of one block: losses and accuracies over each run's train / validation split,
    weight norms, and whatever the callback returns, at every evaluation step.

    With ``until`` some runs stop early; the recorder then sees the ``active`` runs only and stores nan for
    the stopped ones."""

    def __init__(self, data: TaskData, flat: torch.Tensor, train_mask, val_mask, callback, mse_threshold):
        self.data, self.flat, self.train_mask, self.val_mask = data, flat, train_mask, val_mask
        self.callback, self.mse_threshold = callback, mse_threshold
        self.steps, self.rows, self.extras = [], [], []
        self.n_runs = flat.shape[0]
        self.active: torch.Tensor | None = None  # block indices of the runs still training (None: all)

    def _full(self, values: torch.Tensor) -> torch.Tensor:
        """``values`` (R_active, ...) spread over the block's runs, nan for the stopped ones."""
        if self.active is None:
            return values
        if not values.is_floating_point():
            raise ValueError(f"with until, a callback must return floating-point tensors (nan marks a stopped run); "
                             f"got {values.dtype}.")
        full = torch.full((self.n_runs, *values.shape[1:]), float("nan"), dtype=values.dtype, device=values.device)
        full[self.active] = values
        return full

    def select(self, keep: torch.Tensor, flat: torch.Tensor) -> None:
        """Keep recording only the runs ``keep`` (bool over the active runs), now at ``flat``."""
        active = torch.arange(self.n_runs, device=keep.device) if self.active is None else self.active
        self.active = active[keep]
        self.flat, self.data = flat, self.data.select_runs(keep)
        self.train_mask, self.val_mask = self.train_mask[keep], self.val_mask[keep]

    def pad(self, schedule: np.ndarray) -> None:
        """nan rows for the evaluation steps of ``schedule`` after the last recorded one (every run stopped)."""
        for step in schedule[len(self.steps):]:
            self.rows.append({k: torch.full_like(v, float("nan")) for k, v in self.rows[-1].items()})
            if self.extras:  # the entries recorded at every step so far; a sparse one has no row to pad
                dense = self._dense_keys()
                self.extras.append({k: torch.full_like(v, float("nan")) for k, v in self.extras[-1].items() if k in dense})
            self.steps.append(int(step))

    def _dense_keys(self) -> set[str]:
        """The callback's entries recorded at every evaluation step so far."""
        return set.intersection(*(set(e) for e in self.extras)) if self.extras else set()

    def _extra_columns(self) -> dict[str, tuple[np.ndarray, list[torch.Tensor]]]:
        """Per callback entry: the indices of the evaluation steps that recorded it, and its rows there."""
        columns: dict[str, tuple[list[int], list[torch.Tensor]]] = {}
        for t, entry in enumerate(self.extras):
            for k, v in entry.items():
                columns.setdefault(k, ([], []))
                columns[k][0].append(t)
                columns[k][1].append(v)
        return {k: (np.asarray(index, dtype=np.int64), rows) for k, (index, rows) in columns.items()}

    def metrics_so_far(self) -> dict[str, np.ndarray]:
        """Every recorded metric as (R, T) float64 arrays (nan where a run had stopped)."""
        return {k: torch.stack([r[k] for r in self.rows], dim=1).cpu().numpy() for k in self.rows[0]}

    @torch.no_grad()
    def __call__(self, step: int, out: torch.Tensor, views, flat: torch.Tensor | None = None) -> None:
        """Record the metrics of the outputs ``out`` over *all* samples, at parameters ``views`` (the views of
        ``flat``; default: of the block's live buffer)."""
        data = self.data
        # metrics in float64: 9/10 correct must read as exactly 0.9 for threshold tests
        loss = per_sample_loss(out, data).double()
        if self.mse_threshold is not None:
            correct = (loss < self.mse_threshold).double()
        else:
            correct = per_sample_correct(out, data).double()
        row = {
            "train_loss": _masked_mean(loss, self.train_mask),
            "val_loss": _masked_mean(loss, self.val_mask),
            "weight_norm": (self.flat if flat is None else flat).norm(dim=1).double(),  # native dtype: no (R, P) copy
        }
        if data.accuracy != "none" or self.mse_threshold is not None:
            row["train_acc"] = _masked_mean(correct, self.train_mask)
            row["val_acc"] = _masked_mean(correct, self.val_mask)
        self.rows.append({k: self._full(v) for k, v in row.items()})
        self.steps.append(step)
        if self.callback is not None:
            self.extras.append({k: self._full(v.detach().clone()) for k, v in self.callback(step, views).items()})

    def state(self) -> dict[str, np.ndarray]:
        """The records so far, in their own dtypes, as a checkpoint keeps them."""
        out = {"record/steps": np.asarray(self.steps, dtype=np.int64)}
        if self.rows:
            out.update({"record/metric/" + k: torch.stack([r[k] for r in self.rows], dim=1).cpu().numpy()
                        for k in self.rows[0]})
        for k, (index, rows) in self._extra_columns().items():
            out["record/extra/" + k] = torch.stack(rows, dim=1).cpu().numpy()
            if len(index) < len(self.steps):  # a sparse entry: the evaluation steps (by index) that recorded it
                out["record/extra_index/" + k] = index
        return out

    def load_state(self, state: Mapping[str, np.ndarray], device) -> None:
        """Continue from :meth:`state`: the restored rows stack to the same bits as the recorded ones."""
        self.steps = [int(s) for s in state["record/steps"]]

        def rows(prefix):
            columns = {k[len(prefix):]: torch.from_numpy(v).to(device) for k, v in state.items() if k.startswith(prefix)}
            out = [{} for _ in self.steps]
            for k, v in columns.items():
                index = state.get("record/extra_index/" + k) if prefix == "record/extra/" else None
                for j, t in enumerate(range(len(self.steps)) if index is None else index):
                    out[int(t)][k] = v[:, j]
            # one dict per recorded step even where a step recorded no extra, so that the steps recorded after
            # the resume keep their place (an entry's steps are found by position)
            return out

        self.rows, self.extras = rows("record/metric/"), rows("record/extra/")

    def history(self, final_params: dict, values: dict) -> History:
        to_numpy = lambda rows: torch.stack(rows, dim=1).cpu().double().numpy()
        steps = np.asarray(self.steps, dtype=np.int64)
        columns = self._extra_columns()
        return History(steps=steps, metrics={k: to_numpy([r[k] for r in self.rows]) for k in self.rows[0]},
                       extra={k: to_numpy(rows) for k, (_, rows) in columns.items()}, final_params=final_params,
                       run_values=values,
                       extra_steps={k: steps[index] for k, (index, _) in columns.items() if len(index) < len(steps)})


class BackgroundEvaluations:
    """Evaluations on a thread of their own, in step order, each on a copy of the parameters of its step, while
    the block's thread trains on: on a machine where a worker would otherwise idle (one seed on two cores) the
    evaluation's forward over all samples leaves the training's critical path. The forward and the recorder are
    the ones the block would run itself, single-threaded, on the same values, so the records are the same bits;
    :meth:`wait` and :meth:`close` re-raise an evaluation's error in the block's thread."""

    def __init__(self, recorder: "Recorder", params: FlatParams, evaluate):
        self.recorder, self.params, self.evaluate = recorder, params, evaluate
        self.pool = ThreadPoolExecutor(max_workers=1)  # one thread: the records stay in step order
        self.pending: list = []

    def submit(self, step: int, flat: torch.Tensor) -> None:
        copy = flat.detach().clone()
        self.pending.append(self.pool.submit(self._record, step, copy))

    def _record(self, step: int, flat: torch.Tensor) -> None:
        with torch.no_grad():  # grad mode is per thread
            views = self.params.views(flat)
            self.recorder(step, self.evaluate(views), views, flat)

    def wait(self) -> None:
        done, self.pending = self.pending, []
        for future in done:
            future.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)


def evaluation_steps(cfg, eval_steps=None) -> np.ndarray:
    """The steps :func:`repro.training.trainer.train` evaluates at: every ``eval_every`` steps from 0 (or the given
    ``eval_steps``), and the last step."""
    return EvaluationSchedule(cfg.steps, cfg.eval_every, eval_steps).steps()


@dataclass(frozen=True)
class Record:
    """What :func:`repro.training.trainer.train` records besides each run's losses, accuracies and weight norm.

    callback: called at every evaluation step with the parameter views ``(R, ...)``; returns a dict of ``(R, ...)``
        tensors recorded into ``history.extra`` (e.g. embedding snapshots, RQI). An entry it returns at some steps
        only (a snapshot every 500 steps) is recorded at those (``history.extra_steps``), which keeps a long run's
        history and checkpoint small.
    keep_final_params: keep every run's final parameters in ``history.final_params``.
    mse_threshold: for regression tasks without classes (Omnigrok's teacher-student toy), a sample counts as
        correct when its MSE is below this value; default: ``data.accuracy``.
    """

    callback: Callable | None = None
    keep_final_params: bool = False
    mse_threshold: float | None = None


@dataclass(frozen=True)
class EvalSteps:
    """A component: evaluate (metrics and callback) at these steps instead of every ``cfg.eval_every``, for recorders
    on another grid than the metrics (the eNTK of :mod:`repro.experiments.mohamadi2024_why_grok`); the final
    parameters (step ``cfg.steps``) are always evaluated."""

    steps: Sequence[int]


class EvaluationSchedule:
    """When a block evaluates: every ``every`` steps from 0, or at the steps ``at`` (a set), and after the last."""

    def __init__(self, steps: int, every: int = 1, at: frozenset[int] | None = None):
        self.n_steps, self.every, self.at = steps, every, at

    def due(self, step: int) -> bool:
        return step % self.every == 0 if self.at is None else step in self.at

    def steps(self) -> np.ndarray:
        return np.asarray([s for s in range(self.n_steps) if self.due(s)] + [self.n_steps], dtype=np.int64)


class Evaluations:
    """How a block's evaluations run: on a thread of their own (``background``), as a forward of their own before
    the step (``separate``), or riding on the gradient's forward (the ``record`` the source is handed)."""

    def __init__(self, recorder: Recorder, params, source, background: bool, separate: bool):
        self.recorder, self.params, self.source, self.separate = recorder, params, source, separate
        self.later = BackgroundEvaluations(recorder, params, source.evaluate) if background else None

    def __call__(self, step: int):
        """Evaluate at ``step``; returns the ``record`` for the gradient's forward, or None when done already."""
        if self.later is not None:
            self.later.submit(step, self.params.flat)
            return None
        if self.separate:
            self.now(step)
            return None
        return lambda out, views: self.recorder(step, out, views)

    def now(self, step: int) -> None:
        views = self.params.views()
        with torch.no_grad():
            self.recorder(step, self.source.evaluate(views), views)

    def wait(self) -> None:
        """Every evaluation submitted so far is recorded (before a checkpoint saves the records)."""
        if self.later is not None:
            self.later.wait()

    def close(self) -> None:
        if self.later is not None:
            self.later.close()

"""Which samples each step trains on, and how: per-run shuffled minibatches, minibatches given in advance
(another code's draws) and dropout. Each keeps the state a checkpoint needs (``state`` / ``load_state``)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import torch

from repro.core.cpurand import keep_mask
from repro.training.config import TrainConfig

DROPOUT_SEED_OFFSET = 2**32  # run r's dropout stream: seed init_seed + offset, apart from its init draws


class Dropout:
    """Inverted dropout with a per-run rate, as ``torch.nn.functional.dropout`` in training: each unit is
    zeroed with probability ``rate[r]`` and the survivors are scaled by ``1 / (1 - rate[r])``. A run with
    rate 0 keeps every unit, bit for bit.

    A run's masks must not depend on which other runs share its block. Each run therefore draws from its
    own generator (a loop over runs per site), and when ``rows`` is set -- (R, K): the original sample index of
    each row that run r forwards in a full-batch step (its own training set, :class:`repro.training.gradients.RunRows`) -- it draws a
    mask for every one of the ``n_samples`` samples and keeps its rows, so the mask of a sample does not
    depend on which rows are forwarded."""

    def __init__(self, rates: Sequence[float], seeds: Sequence[int], device, dtype, n_samples: int | None = None):
        self.rates = [float(r) for r in rates]  # as Python floats too: reading the tensor would wait on the device
        self.rate = torch.as_tensor(self.rates, dtype=dtype, device=device)
        self.scale = 1.0 / (1.0 - self.rate)
        self.generators = [torch.Generator(device=device).manual_seed(int(s) + DROPOUT_SEED_OFFSET) for s in seeds]
        self.n_samples = n_samples
        self.rows: torch.Tensor | None = None

    def __call__(self, h: torch.Tensor) -> torch.Tensor:
        u = torch.empty_like(h)
        shape = (-1,) + (1,) * (h.dim() - 1)
        # rows (R, K): run r forwards the samples rows[r]; each sample's mask is drawn whatever the rows
        draw = (self.n_samples,) + tuple(h.shape[2:]) if self.rows is not None else tuple(h.shape[1:])
        if h.device.type == "cpu" and h.dtype in (torch.float32, torch.float64):
            # the same masks as torch.rand(...) >= rate below, drawn from the same generators' streams by NumPy's
            # faster twister (repro.core.cpurand)
            for r, g in enumerate(self.generators):
                u[r].copy_(keep_mask(draw, g, h.dtype, self.rates[r], None if self.rows is None else self.rows[r]))
            return h * u.mul_(self.scale.view(shape))
        for r, g in enumerate(self.generators):
            if self.rows is None:
                torch.rand(draw, generator=g, device=h.device, dtype=h.dtype, out=u[r])
            else:
                torch.index_select(torch.rand(draw, generator=g, device=h.device, dtype=h.dtype), 0, self.rows[r], out=u[r])
        # the mask, in place: 1 where kept, 0 where dropped, times 1 / (1 - rate) (bit for bit h * keep * scale)
        return h * u.ge_(self.rate.view(shape)).mul_(self.scale.view(shape))

    def state(self) -> dict[str, np.ndarray]:
        """Each run's generator state (R, L) as a checkpoint keeps it: the rest of the run's masks."""
        return {"dropout/generators": torch.stack([g.get_state() for g in self.generators]).numpy()}

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        saved = state["dropout/generators"]
        now = self.generators[0].get_state()
        if saved.shape != (len(self.generators), now.numel()):
            raise ValueError(f"the checkpoint's dropout generators have states of shape {saved.shape}; this run's "
                             f"{self.generators[0].device.type} generators need {(len(self.generators), now.numel())}: "
                             "resume on the device type the run started on.")
        for g, st in zip(self.generators, saved):
            g.set_state(torch.from_numpy(st.copy()))



@dataclass(frozen=True)
class BatchSchedule:
    """A component: ``(R, >= cfg.steps, cfg.batch_size)`` sample indices; step k trains run r on the samples
    ``schedule[r, k]`` (its own training samples, each set larger than the batch) instead of per-run shuffled
    epochs, for another code's draws (the official toy code's: :func:`repro.data.tasks.toy_runs`)."""

    schedule: torch.Tensor


class Minibatches:
    """Per-run shuffled epochs over each run's own training set (a generator per run, seeded by its
    init seed): ``indices(step)`` is the (R, batch_size) sample index of that step's batch."""

    def __init__(self, train_mask: torch.Tensor, batch_size: int, seeds, device):
        n_train = train_mask.sum(-1)
        if not bool((n_train == n_train[0]).all()):
            raise ValueError("batch_size with per-run masks needs the same number of training samples in every run.")
        self.n_train, self.batch_size, self.device = int(n_train[0]), batch_size, device
        self.train_index = torch.stack([torch.nonzero(m).squeeze(1) for m in train_mask])  # (R, n_train)
        self.samplers = [torch.Generator().manual_seed(int(s)) for s in seeds]
        self.per_epoch = math.ceil(self.n_train / batch_size)
        self.epoch_index = None

    def indices(self, step: int) -> torch.Tensor:
        k = step % self.per_epoch
        if k == 0:
            order = torch.stack([torch.randperm(self.n_train, generator=g) for g in self.samplers]).to(self.device)
            self.epoch_index = torch.gather(self.train_index, 1, order)
        return self.epoch_index[:, k * self.batch_size : (k + 1) * self.batch_size]

    def state(self) -> dict[str, np.ndarray]:
        """The samplers' states and the current epoch's order: the data order of the rest of the run."""
        out = {"minibatch/samplers": torch.stack([g.get_state() for g in self.samplers]).numpy()}
        if self.epoch_index is not None:
            out["minibatch/epoch_index"] = self.epoch_index.cpu().numpy()
        return out

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        for g, st in zip(self.samplers, state["minibatch/samplers"]):
            g.set_state(torch.from_numpy(st.copy()))
        if "minibatch/epoch_index" in state:
            self.epoch_index = torch.from_numpy(state["minibatch/epoch_index"]).to(self.device)


class ScheduledBatches:
    """Minibatches given in advance (a :class:`BatchSchedule`): ``indices(step)`` is the (R, batch_size)
    sample index of that step's batch. The schedule is an argument of the run, so a checkpoint keeps no state."""

    def __init__(self, schedule: torch.Tensor, device):
        self.schedule, self.device = schedule, device

    def indices(self, step: int) -> torch.Tensor:
        return self.schedule[:, step].to(device=self.device, dtype=torch.int64)

    def state(self) -> dict[str, np.ndarray]:
        return {}

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        pass


def check_batch_schedule(schedule, cfg: TrainConfig, n_runs: int, train_mask: torch.Tensor) -> torch.Tensor:
    """A :class:`BatchSchedule`'s schedule, checked: its shape, that it names each run's own training samples, and that
    every run's training set is larger than the batch (a run that trains on all of it needs no schedule)."""
    schedule = torch.as_tensor(schedule)
    if schedule.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"batch_schedule must hold integer sample indices; got {schedule.dtype}.")
    if cfg.batch_size is None:
        raise ValueError("batch_schedule needs cfg.batch_size: set it to the schedule's batch size "
                         f"({schedule.shape[-1] if schedule.dim() == 3 else '?'}).")
    want = (n_runs, cfg.steps, cfg.batch_size)
    if schedule.dim() != 3 or schedule.shape[0] != n_runs or schedule.shape[1] < cfg.steps or schedule.shape[2] != cfg.batch_size:
        raise ValueError(f"batch_schedule has shape {tuple(schedule.shape)}; allowed: (runs, >= steps, batch_size) = "
                         f"{want}.")
    schedule = schedule[:, :cfg.steps]
    n_train = train_mask.sum(-1).cpu()
    if bool((n_train <= cfg.batch_size).any()):
        raise ValueError(f"batch_schedule with batch_size={cfg.batch_size} needs every run's training set larger than "
                         f"the batch; the smallest has {int(n_train.min())} samples (train it full batch, without a schedule).")
    if int(schedule.min()) < 0 or int(schedule.max()) >= train_mask.shape[1]:
        raise ValueError(f"batch_schedule has sample indices outside 0..{train_mask.shape[1] - 1}.")
    own = train_mask.cpu().gather(1, schedule.reshape(n_runs, -1).long())
    if not bool(own.all()):
        raise ValueError("batch_schedule names samples outside their run's training set (train_mask).")
    return schedule


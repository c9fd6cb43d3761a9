"""The four learning phases of Liu et al. 2022 (App. A, Table 1; official rule in ejmichaud/grokking-squared,
phase_diagram_plot/simple_phase_diagram.ipynb).

From the first steps at which training and validation accuracy reach a threshold (90 % by default)
within a step budget:

| phase | train reached | val reached | val step − train step |
|---|---|---|---|
| comprehension | yes | yes | < gap (10^3 steps) |
| grokking | yes | yes | >= gap |
| memorization | yes | no | – |
| confusion | no | no | – |

A run that reaches the validation threshold but never the training one (the official data never
show it) is classed as confusion: it did not fit its training set.
Used by the phase-diagram chapters (effective theory, GenEFT, Omnigrok).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from repro.core.validation import check_fraction, check_int

PHASES = ("comprehension", "grokking", "memorization", "confusion")  # the four phases of Liu et al. 2022 §4


@dataclass(frozen=True)
class PhaseRule:
    train_threshold: float = 0.9  # Liu et al. 2022, App. A, Table 1
    val_threshold: float = 0.9  # Table 1 (App. J uses 0.6 for MNIST)
    gap: int = 1000  # Table 1: comprehension if val follows train within 10^3 steps
    budget: int | None = None  # only crossings at step < budget count (None: the whole history)

    def __post_init__(self):
        check_fraction("train_threshold", self.train_threshold)
        check_fraction("val_threshold", self.val_threshold)
        check_int("gap", self.gap, minimum=0)
        if self.budget is not None:
            check_int("budget", self.budget, minimum=1)


def classify(train_steps, val_steps, gap: int = 1000) -> np.ndarray:
    """Phase names from per-run first-crossing steps (-1 = never reached)."""
    tr = np.asarray(train_steps)
    te = np.asarray(val_steps)
    out = np.full(tr.shape, "confusion", dtype=object)
    fit = tr >= 0
    gen = te >= 0
    out[fit & ~gen] = "memorization"
    both = fit & gen
    out[both & (te - tr < gap)] = "comprehension"
    out[both & (te - tr >= gap)] = "grokking"
    return out


def classify_history(history, rule: PhaseRule = PhaseRule()) -> np.ndarray:
    """Phases of every run in a :class:`repro.training.trainer.History` (shape ``(R,)``)."""
    tr = history.first_step("train_acc", rule.train_threshold)
    te = history.first_step("val_acc", rule.val_threshold)
    if rule.budget is not None:
        tr = np.where(tr < rule.budget, tr, -1)
        te = np.where(te < rule.budget, te, -1)
    return classify(tr, te, rule.gap)


def phase_counts(phases) -> dict[str, int]:
    values = np.asarray(phases, dtype=object).ravel()
    return {p: int((values == p).sum()) for p in PHASES}


@dataclass
class PhaseExample:
    """One run's curves, shown beside a phase map as what its phase looks like: its cell (``cell``: axis name ->
    value, in the units the map is labelled in), init seed, and train / validation accuracy at the evaluation
    ``steps`` (nan after a run left its batch)."""

    phase: str
    cell: dict
    seed: int
    steps: np.ndarray
    train_acc: np.ndarray
    val_acc: np.ndarray


def example_runs(seed_phases) -> dict[str, tuple[int, int, int]]:
    """For each phase that is the majority phase of some cell of a (seeds, rows, columns) map, one run in it, as
    (seed index, row, column): among the cells where the largest share of seeds is in that phase, the one deepest
    inside the phase's region (farthest, in grid steps, from a cell whose majority phase differs), and its first
    seed in the phase. The deepest cell shows the phase plainly; a cell at a boundary may graze a threshold."""
    sp = np.asarray(seed_phases, dtype=object)
    if sp.ndim != 3:
        raise ValueError(f"seed_phases must be (seeds, rows, columns); got shape {sp.shape}")
    counts = np.stack([(sp == p).sum(axis=0) for p in PHASES])
    majority = np.asarray(PHASES, dtype=object)[counts.argmax(axis=0)]  # ties: the earlier phase in PHASES
    out = {}
    for k, phase in enumerate(PHASES):
        mine = majority == phase
        if not mine.any():
            continue
        share = np.where(mine, counts[k], -1)
        best = np.argwhere(share == share.max())
        others = np.argwhere(~mine)
        depth = ([np.abs(others - cell).max(axis=1).min() for cell in best] if len(others)
                 else [0] * len(best))  # Chebyshev distance to the nearest other-phase cell
        iy, ix = best[int(np.argmax(depth))]  # first of the deepest, in row-major order
        out[phase] = (int(np.argmax(sp[:, iy, ix] == phase)), int(iy), int(ix))
    return out

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

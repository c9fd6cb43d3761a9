"""Figures of the chapter ``book/liu2023_omnigrok``; the runs they show are made by
:mod:`repro.experiments.liu2023_omnigrok`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np

from repro.experiments.liu2023_omnigrok import GrokResult, LandscapeResult, ModularResult
from repro.plotting.shared import plot_seed_band


def plot_landscape(result: LandscapeResult, ax=None, title: str = "", ylabel: str = "MSE loss"):
    """Reduced train (L) and test (U) loss against the norm scale alpha, log-log."""
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 3.5))
    ax.loglog(result.alphas, np.maximum(result.train_loss, 1e-12), "o-", label="train (L)")
    ax.loglog(result.alphas, result.test_loss, "s-", label="test (U)")
    ax.set_xlabel(r"norm scale $\alpha = w / w_0$")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return ax


def plot_grokking(steps, curves: dict, norm=None, ax=None, title: str = "", ylabel: str = "accuracy"):
    """Accuracy curves on a log step axis, with the weight norm on a twin axis. A curve (or the norm)
    given as ``(S, T)`` is drawn over seeds: every seed faintly, the median thickly, quartiles shaded."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.5))
    x = np.maximum(steps, 1)
    for i, (label, y) in enumerate(curves.items()):
        y = np.asarray(y, dtype=float)
        if y.ndim == 2:
            plot_seed_band(ax, x, y, label=label, color=f"C{i}")
        else:
            ax.plot(x, y, label=label, color=f"C{i}")
    ax.set_xscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel(ylabel)
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title)
    if norm is not None:
        ax2 = ax.twinx()
        norm = np.asarray(norm, dtype=float)
        if norm.ndim == 2:
            for row in norm:
                ax2.plot(x, row, "k--", lw=0.5, alpha=0.25)
            norm = np.median(norm, axis=0)
        ax2.semilogx(x, norm, "k--", lw=1, label="weight norm (median)" if np.ndim(norm) == 1 else "weight norm")
        lo, hi = float(np.min(norm)), float(np.max(norm))
        if hi - lo <= 1e-3 * hi:  # a norm held fixed: autoscaling would blow up float rounding into noise
            ax2.set_ylim(0.9 * lo, 1.1 * hi)
        ax2.set_ylabel(r"weight norm $\|\theta\|_2$")
        # one legend for both axes, where the curves are not: before the fit, at mid height
        handles, labels = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax2.legend(handles + h2, labels + l2, loc="center left", fontsize=9)
        return ax
    ax.legend(loc="center left", fontsize=9)
    return ax


def legend_above(fig, panels) -> None:
    """One legend above the figure for the curves of ``panels`` (plot_grokking axes: their own legends, and their
    norm twins', are removed), so that no legend covers a curve; then lays the figure out below it."""
    boxes = [p.get_position().bounds for p in panels]
    merged = [a for a in fig.axes if a.get_position().bounds in boxes]  # the panels and their twin axes
    handles, labels = [], []
    for a in merged:
        for h, l in zip(*a.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
        if a.get_legend() is not None:
            a.get_legend().remove()
    fig.legend(handles, labels, loc="upper center", ncol=len(labels), fontsize=10, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.9))


def _inverse_guide(ax, g: np.ndarray, steps: np.ndarray):
    """The talk's t ∝ 1/γ through the test median at the middle γ: only its slope is compared, so it borrows
    its offset from the data; no guide when that run never generalized."""
    mid = np.argsort(g)[len(g) // 2]
    if steps[mid] > 0:
        ax.loglog(g, steps[mid] * g[mid] / g, "--", color="grey", lw=1, label="talk: t ∝ γ⁻¹")


def plot_gamma_scaling(result: GrokResult, ax=None, *, inverse_guide: bool = False):
    """Steps to 95 % train and test accuracy vs weight decay, with the fitted power law; ``inverse_guide``: a
    slope −1 guide (the talk's law) through the test median at the middle γ."""
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 3.5))
    n = result.n_sweep
    g = np.asarray(result.gammas[:n])
    ax.loglog(g, np.where(result.train_steps[:n] > 0, result.train_steps[:n], np.nan), "o-", color="C0",
              label="train 95 % (median over seeds)")
    ax.loglog(g, np.where(result.test_steps[:n] > 0, result.test_steps[:n], np.nan), "s-", color="C1",
              label="test 95 % (median over seeds)")
    if result.seed_test_steps is not None and result.seed_test_steps.shape[0] > 1:  # every seed faintly
        for row_tr, row_te in zip(result.seed_train_steps[:, :n], result.seed_test_steps[:, :n]):
            ax.loglog(g, np.where(row_tr > 0, row_tr, np.nan), "o", color="C0", alpha=0.25, ms=3)
            ax.loglog(g, np.where(row_te > 0, row_te, np.nan), "s", color="C1", alpha=0.25, ms=3)
    # A power law needs two sweep runs that generalized (as in seed_slopes); short runs may have fewer.
    if int((result.test_steps[:n] > 0).sum()) >= 2:
        slope, intercept = result.slope()
        ax.loglog(g, np.exp(intercept) * g**slope, "k:", label=f"fit: slope {slope:.1f}")
    if inverse_guide:
        _inverse_guide(ax, g, result.test_steps[:n])
    ax.set_xlabel(r"weight decay $\gamma$")
    ax.set_xticks(g, [f"{v:g}" for v in g])  # the swept values: a short log axis's minor labels would overlap
    ax.xaxis.set_minor_formatter(mticker.NullFormatter())
    ax.set_ylabel("steps")
    ax.legend(loc="upper right", fontsize=9)
    return ax


def _title(prefix: str, label: str) -> str:
    """A panel title on two lines when it has a prefix ("mod 31: " + the run's label): one line overlaps its neighbours."""
    return f"{prefix.rstrip(': ')}:\n{label}" if prefix else label


def plot_modular(result: ModularResult, title_prefix: str = ""):
    """Three panels: the free run and the fixed-norm run (accuracy with the weight norm, dashed, on the right
    axis), then both runs' validation accuracy on one axis, with the steps where each reaches ``level``
    train accuracy (median over seeds) marked."""
    h = result.history
    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.6))
    for k, ax in ((result.FREE, axes[0]), (result.CONSTRAINED, axes[1])):
        r = result.runs_of(k)
        plot_grokking(h.steps, {"train": h["train_acc"][r], "validation": h["val_acc"][r]}, norm=h["weight_norm"][r],
                      ax=ax, title=_title(title_prefix, result.labels[k]))
    ax = axes[2]
    x = np.maximum(h.steps, 1)
    for k, color in ((result.FREE, "C1"), (result.CONSTRAINED, "k")):
        plot_seed_band(ax, x, h["val_acc"][result.runs_of(k)], label=result.labels[k], color=color, every_seed=False)
        if result.train_steps[k] > 0:
            ax.axvline(max(result.train_steps[k], 1), color=color, ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel("step")
    ax.set_ylabel("validation accuracy")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(_title(title_prefix, "free vs fixed norm (dotted: 95 % train)"))
    ax.legend(loc="upper left", fontsize=8.5)  # before the jump the curves lie at the bottom
    fig.tight_layout()
    legend_above(fig, axes[:2])
    return fig

"""Figures of the chapter ``book/power2022_what_is_grokking``; the runs they show are made by
:mod:`repro.experiments.power2022_what_is_grokking`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.core.portable import seed_median
from repro.experiments.power2022_what_is_grokking import IntroResult
from repro.plotting.shared import TRAIN_COLOR, VAL_COLOR, plot_seed_band, plot_token_pca


def plot_intro(result: IntroResult, run: int | None = None, step: int | None = None):
    """Left: accuracy vs step (log axis) over all seeds: every seed faintly, the median thickly, the
    inter-quartile band shaded; dashed lines at the median crossing steps. Right: token embeddings of one
    run (default: the run with the best final circle fit) on their first two principal components at
    initialization and at ``step`` (default: the end of training), each point labelled by its token."""
    h, cfg = result.history, result.config
    end = int(h.steps[-1]) if step is None else int(step)
    if run is None:
        run = int(np.argmax(result.circle_fits(end)))
    fig = plt.figure(figsize=(11.5, 3.8))
    grid = fig.add_gridspec(1, 3, width_ratios=[1.5, 1, 1])
    ax = fig.add_subplot(grid[0])
    pct = f"{100 * cfg.threshold:g} %"
    x = np.maximum(h.steps, 1)
    plot_seed_band(ax, x, h["train_acc"], label="train", color=TRAIN_COLOR)
    plot_seed_band(ax, x, h["val_acc"], label="validation", color=VAL_COLOR)
    for label, steps in ((f"train {pct}", result.train_steps), (f"val {pct}", result.val_steps)):
        step = seed_median(steps)
        if np.isfinite(step) and step > 0:
            ax.axvline(step, ls="--", lw=1, color="0.4")
            ax.annotate(f"{label} (median)", (step, 0.02), xycoords=("data", "axes fraction"), rotation=90,
                        va="bottom", ha="right", fontsize=9, color="0.3")
    ax.set_xscale("log")
    ax.set_xlabel("optimization step")
    ax.set_ylabel("accuracy")
    ax.legend(loc="center left", fontsize=9.5)
    ax.set_title(f"(a + b) mod {cfg.p}: {100 * cfg.train_fraction:g} % of pairs in training")
    for k, (at, title) in enumerate([(0, "at initialization"), (end, f"after {end} steps")]):
        plot_token_pca(fig.add_subplot(grid[k + 1]), result.embeddings_at(at, run),
                       f"seed {cfg.seeds[run]}: embeddings {title}", title_size=10)
    fig.tight_layout()
    return fig


def plot_fig1_as_published(results: dict[str, IntroResult]):
    """Fig. 1 (left) as published, one panel per stored run (``results``: panel title -> run): training (blue) and
    validation (red) accuracy of every seed against step on a log axis, with chance (1/p) dotted and the first
    steps at the accuracy threshold of seed 0 dashed."""
    fig, axes = plt.subplots(1, len(results), figsize=(5.2 * len(results), 3.6), sharey=True, squeeze=False)
    for ax, (title, result) in zip(axes[0], results.items()):
        h, cfg = result.history, result.config
        x = np.maximum(h.steps, 1)
        for r, seed in enumerate(cfg.seeds):
            style = dict(lw=1.4 if r == 0 else 0.9, alpha=1.0 if r == 0 else 0.6, ls="-" if r == 0 else ":")
            ax.plot(x, h["train_acc"][r], color=TRAIN_COLOR, label=f"train, seed {seed}", **style)
            ax.plot(x, h["val_acc"][r], color=VAL_COLOR, label=f"validation, seed {seed}", **style)
        ax.axhline(1 / cfg.p, color="0.5", lw=0.8, ls=(0, (1, 2)), label=f"chance 1/{cfg.p}")
        for step in (result.train_steps[0], result.val_steps[0]):
            if step > 0:
                ax.axvline(step, color="0.4", lw=0.8, ls="--")
        ax.set_xscale("log")
        ax.set_xlabel("optimization step")
        ax.set_title(title, fontsize=10)
    axes[0, 0].set_ylabel("accuracy")
    axes[0, -1].legend(loc="center left", fontsize=7)
    fig.tight_layout()
    return fig

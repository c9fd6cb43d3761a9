"""Figures of the chapter ``book/liu2022_transformer_and_images``; the runs they show are made by
:mod:`repro.experiments.liu2022_transformer_and_images`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2022_transformer_and_images import (DropoutResult, ImageResult, TransformerResult,
                                                              standardize_tokens)
from repro.plotting.shared import (TRAIN_COLOR, VAL_COLOR, plot_phase_diagram, plot_phase_examples, plot_seed_band,
                                   plot_token_pca)


def plot_dropout_sweep(result: DropoutResult):
    """Fig. 7 (centre): steps to 99 % train and validation accuracy against the dropout rate, each seed as a
    dot and the median over seeds as a line; runs that never generalize sit on the top edge."""
    cfg = result.config
    rates = np.asarray(cfg.dropout_values)
    fig, ax = plt.subplots(figsize=(5.6, 3.8))
    cap = cfg.dropout_steps
    for key, color, label in (("train_acc", TRAIN_COLOR, "train"), ("val_acc", VAL_COLOR, "validation")):
        steps = result.steps_to(key).astype(float)
        shown = np.where(steps < 0, cap, steps)
        for k in range(steps.shape[1]):
            ax.scatter(rates, np.maximum(shown[:, k], 1), s=14, color=color, alpha=0.5)
        med = result.median_steps_to(key)
        ax.plot(rates, np.maximum(np.where(np.isinf(med), cap, med), 1), color=color,
                label=f"{label}: median of {steps.shape[1]} seeds")
    ax.axhline(cap, color="0.5", ls=":", lw=1, label=f"end of training ({cap:,} steps; never reached)")
    ax.set_yscale("log")
    ax.set_xlabel("dropout rate")
    ax.set_ylabel(f"steps to {100 * cfg.threshold:g} % accuracy")
    ax.set_title(f"(a + b) mod {cfg.p}: time to generalize vs dropout (Fig. 7 centre)")
    ax.legend(loc="best", fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_transformer(result: TransformerResult):
    """Fig. 7 (left) and Fig. 1 (right end): accuracy and e^S over training (every seed faintly, the median
    and the inter-quartile band), final embeddings of the first seed on PC1-PC2."""
    h, cfg = result.history, result.config
    mem, gen = result.steps_to("train_acc"), result.steps_to("val_acc")
    pct = f"{100 * cfg.threshold:g} %"
    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.7), gridspec_kw={"width_ratios": [1.3, 1.3, 1]})
    x = np.maximum(h.steps, 1)
    plot_seed_band(axes[0], x, h["train_acc"], label="train", color=TRAIN_COLOR)
    plot_seed_band(axes[0], x, h["val_acc"], label="validation", color=VAL_COLOR)
    axes[0].set_xscale("log")
    axes[0].set_xlabel("optimization step")
    axes[0].set_ylabel("accuracy")
    axes[0].set_title(f"(a + b) mod {cfg.p}, {len(cfg.seeds)} seeds")
    axes[0].legend(loc="best", fontsize=9.5)
    plot_seed_band(axes[1], x, result.effective_dim, label="e^S", color="k")
    for steps, color, label in ((mem, TRAIN_COLOR, f"train {pct}"), (gen, VAL_COLOR, f"val {pct}")):
        for k, s in enumerate(steps):
            if s > 0:
                axes[1].axvline(s, color=color, ls="--", lw=1, label=label if k == 0 else None)
    axes[1].set_xscale("log")
    axes[1].set_xlabel("optimization step")
    axes[1].set_ylabel("effective dimension e^S of embeddings")
    axes[1].set_title("PCA explained-variance entropy (Fig. 7 left)")
    axes[1].legend(loc="best", fontsize=9.5)
    plot_token_pca(axes[2], result.embeddings[0, -1], f"embeddings after {int(h.steps[-1]):,} steps (seed {cfg.first_seed})")
    fig.tight_layout()
    return fig


FIG1_TITLES = ("Initialization", "Overfitting", "Representation Learning")  # official scripts/pizza_plot.py


def plot_fig1(result: TransformerResult, steps=(0, 1000, None), run: int = 0):
    """Fig. 1: one run's token embeddings on their first two principal components at three steps (default: 0,
    1,000 and the last, the official pizza_plot.py's snapshots), each token's row standardized first as the
    official script does, with its train / validation accuracy at that step; and the run's accuracies over
    training with those steps marked."""
    h, cfg = result.history, result.config
    snap_steps = h.steps if result.embedding_steps is None else np.asarray(result.embedding_steps)
    steps = [int(snap_steps[-1]) if s is None else int(s) for s in steps]
    missing = [s for s in steps if s not in set(snap_steps.tolist())]
    if missing:
        raise ValueError(f"steps={missing} are not snapshot steps of this run (it has {snap_steps.tolist()}).")
    fig, axes = plt.subplots(1, len(steps) + 1, figsize=(min(12.5, 3.4 * (len(steps) + 1)), 3.6))
    logged = {int(s): t for t, s in enumerate(h.steps)}
    for ax, step, title in zip(axes, steps, FIG1_TITLES + ("",) * len(steps)):
        t = logged[step]
        emb = result.embeddings_at(step, run)
        plot_token_pca(ax, standardize_tokens(emb), f"{title} ({step:,} iterations)\n"
                       f"train acc {h['train_acc'][run, t]:.2f} | val acc {h['val_acc'][run, t]:.2f}", title_size=10)
    ax = axes[-1]
    x = np.maximum(h.steps, 1)
    ax.plot(x, h["train_acc"][run], color=TRAIN_COLOR, label="train")
    ax.plot(x, h["val_acc"][run], color=VAL_COLOR, label="validation")
    for step in steps:
        ax.axvline(max(step, 1), color="0.5", ls=":", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel("optimization step (dotted: the PCA panels)")
    ax.set_ylabel("accuracy")
    ax.set_title(f"(a + b) mod {cfg.p}, seed {cfg.seeds[run]}", fontsize=10)
    ax.legend(loc="best", fontsize=9.5)
    fig.tight_layout()
    return fig


def _plot_curve(ax, result: ImageResult):
    """Fig. 8(a): train and validation accuracy of the curve cell, every seed faintly, median and band."""
    cfg, h = result.config, result.history
    runs = result.curve_runs()
    x = np.maximum(h.steps, 1)
    plot_seed_band(ax, x, h["train_acc"][runs], label="train", color=TRAIN_COLOR)
    plot_seed_band(ax, x, h["val_acc"][runs], label="validation", color=VAL_COLOR)
    for value, color, source, what in ((cfg.train_threshold, TRAIN_COLOR, "Table 1", "train"),
                                       (cfg.val_threshold, VAL_COLOR, "App. J", "validation")):
        ax.axhline(value, color=color, ls=":", lw=1, label=f"{source}: {value * 100:g} % ({what})")
    ax.set_xscale("log")
    ax.set_xlabel("optimization step")
    ax.set_ylabel("accuracy")
    ax.legend(loc="best", fontsize=9.5)
    ax.set_title(f"(a) {cfg.label}\nα = {cfg.alpha:g}, last-layer lr {cfg.curve_lr_dec:.2g}, wd {cfg.curve_wd:g}",
                 fontsize=11)


def plot_image_curve(result: ImageResult):
    """Fig. 8(a) alone (for a run of the curve cell only, e.g. the stored one)."""
    fig, ax = plt.subplots(figsize=(6.5, 3.9))
    _plot_curve(ax, result)
    fig.tight_layout()
    return fig


def plot_image_examples(result: ImageResult):
    """Beside Fig. 8(b): one run of each phase the map shows, its training and validation accuracy against step."""
    cfg = result.config
    return plot_phase_examples({"": result.examples()}, threshold=(cfg.train_threshold, cfg.val_threshold),
                               threshold_label=f"thresholds: train {cfg.train_threshold * 100:g} %, "
                                               f"validation {cfg.val_threshold * 100:g} % (App. J)")


def plot_images(result: ImageResult):
    """Fig. 8: (a) train / validation accuracy of the curve cell (every seed faintly, median and
    inter-quartile band); (b) the phase diagram (majority over seeds, "k/S" where only k seeds agree)."""
    from repro.plotting.liu2022_phase_diagrams import annotate_consensus

    cfg = result.config
    fig, axes = plt.subplots(1, 2, figsize=(11.5, 3.9))
    _plot_curve(axes[0], result)
    wds = np.asarray(cfg.wd_values, dtype=float)
    y_plot = np.arange(len(wds), dtype=float)
    suffix = f", majority of {cfg.n_seeds} seeds" if cfg.n_seeds > 1 else ""
    plot_phase_diagram(result.phases, cfg.lr_dec_values, y_plot, ax=axes[1],
                       xlabel="last-layer (decoder) learning rate", ylabel="weight decay",
                       title=f"(b) {cfg.label}: {cfg.steps:,} steps{suffix}")
    annotate_consensus(axes[1], result.seed_phases, result.phases, np.log10(cfg.lr_dec_values), y_plot)
    axes[1].set_yticks(y_plot, [f"{w:g}" for w in wds])
    axes[1].invert_yaxis()  # weight decay increases downward, as in Fig. 8(b)
    fig.tight_layout()
    return fig

"""Figures of the chapter ``book/liu2022_effective_theory``; the runs they show are made by
:mod:`repro.experiments.liu2022_effective_theory`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2022_effective_theory import (Fig2Run, IntegratorSpread, class_map, fig2_data,
                                                        unseen_validation)
from repro.plotting.shared import TRAIN_COLOR, VAL_COLOR


def plot_fig2(panels: list[tuple[str, Fig2Run, int]]):
    """Fig. 2, one panel per (title, run, seed index) in ``panels``: the final embeddings (black, labelled),
    the midpoints (E_i + E_j) / 2 of the training samples (blue dots) and of the unseen validation samples
    (red crosses), and the decoder's class at every point of the plane (colour, :func:`class_map`)."""
    fig, axes = plt.subplots(1, len(panels), figsize=(min(12.5, 4.3 * len(panels)), 4.2), squeeze=False)
    for ax, (title, run, i) in zip(axes[0], panels):
        cfg = run.config
        xs, ys, classes = class_map(run, i)
        ax.pcolormesh(xs, ys, classes, cmap="tab20" if cfg.n_classes > 11 else "tab20b", shading="nearest",
                      alpha=0.45, vmin=0, vmax=max(cfg.n_classes - 1, 1), rasterized=True)
        e = run.final_embeddings[i]
        data = fig2_data(cfg)
        pairs = data.inputs.numpy()
        mid = (e[pairs[:, 0]] + e[pairs[:, 1]]) / 2
        unseen = unseen_validation(data)
        ax.scatter(mid[data.train_idx, 0], mid[data.train_idx, 1], s=6, color=TRAIN_COLOR, alpha=0.6,
                   label="(E_i + E_j) / 2, training")
        ax.scatter(mid[unseen, 0], mid[unseen, 1], s=16, marker="x", color=VAL_COLOR, label="unseen validation")
        ax.scatter(e[:, 0], e[:, 1], s=30, color="k", zorder=3)
        for k in range(cfg.p):
            ax.annotate(str(k), e[k], xytext=(3, 3), textcoords="offset points", fontsize=9, zorder=4)
        ax.set_xlim(xs[0], xs[-1])
        ax.set_ylim(ys[0], ys[-1])
        ax.set_aspect("equal")
        stat = f"RQI {run.rqi()[i]:.2f}" if cfg.operation == "addition" else f"circle fit {run.circle()[2][i]:.2f}"
        ax.set_title(f"{title}\nseed {run.seeds[i]}: val acc {run.final('val_acc')[i]:.2f}, "
                     f"unseen {run.final('unseen_acc')[i]:.2f}\n{stat}", fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
    axes[0][0].legend(loc="lower left", fontsize=7)
    fig.tight_layout()
    return fig


def plot_fig2_curves(addition: Fig2Run, modular: Fig2Run):
    """Accuracy against step for every seed: training (blue) and unseen validation (red)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharey=True)
    for ax, run, name in ((axes[0], addition, "addition"), (axes[1], modular, "modular addition")):
        for r in range(len(run.seeds)):
            ax.plot(run.steps, run.train_acc[r], color=TRAIN_COLOR, alpha=0.5, lw=1,
                    label="train" if r == 0 else None)
            ax.plot(run.steps, run.unseen_acc[r], color=VAL_COLOR, alpha=0.5, lw=1,
                    label="unseen validation" if r == 0 else None)
        ax.set_xlabel("step")
        ax.set_title(f"{name}: {len(run.seeds)} init seeds")
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("accuracy")
    axes[0].legend(loc="lower right", fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_integrators(spread: IntegratorSpread, network_steps: np.ndarray, network_rqi: np.ndarray,
                     network_crossing: np.ndarray, network_n_h: float, reference_seed: int, threshold: float = 0.95,
                     band: tuple[float, float] = (1.5, 4.5)):
    """(a) RQI against steps / n_h, each integrator in its own n_h and the network in the training set's:
    medians over starts with their 10-90 % band, the reference start dashed. (b) Every start's steps to
    RQI > threshold in its own n_h (the network's seeds: the training set's), with the paper's "about 3"
    (``band``) shaded and the reference start ringed."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.9), gridspec_kw={"width_ratios": [1.5, 1]})
    ax = axes[0]
    ref = int(np.nonzero(spread.seeds == reference_seed)[0][0]) if reference_seed in spread.seeds else None
    curves = (("train", "eq. (5): P0(D), training set's n_h", TRAIN_COLOR),
              ("all", "official integrator: all of P0, its own n_h", "#2ca02c"))
    for rows, label, color in curves:
        x = spread.steps / spread.n_h[rows]
        q = spread.rqi[rows]
        lo, med, hi = np.quantile(q, [0.1, 0.5, 0.9], axis=0)
        ax.fill_between(x, lo, hi, color=color, alpha=0.18, lw=0)
        ax.plot(x, med, color=color, lw=1.8, label=f"{label} (median of {len(q)} starts)")
        if ref is not None:
            ax.plot(x, q[ref], color=color, lw=1.2, ls="--")
    ax.plot(np.asarray(network_steps) / network_n_h, np.median(network_rqi, axis=0), color=VAL_COLOR, lw=1.8,
            label=f"network, training set's n_h (median of {len(network_rqi)} seeds)")
    ax.axvspan(*band, color="0.85", alpha=0.5, lw=0)
    ax.axhline(threshold, ls=":", color="0.4", lw=1)
    ax.set_xlim(0, 9)
    ax.set_xlabel("steps / n_h")
    ax.set_ylabel("RQI")
    ax.set_title(f"(a) RQI against steps / n_h; dashed: the reference start (seed {reference_seed})")
    ax.legend(loc="lower right", fontsize=7)
    ax = axes[1]
    rng = np.random.default_rng(0)  # fixed jitter for the strip plot
    rows_net = np.where(np.asarray(network_crossing) >= 0, np.asarray(network_crossing) / network_n_h, -1.0)
    strips = [(spread.ratio("train"), TRAIN_COLOR, ref), (spread.ratio("all"), "#2ca02c", ref), (rows_net, VAL_COLOR, None)]
    for k, (r, color, ring) in enumerate(strips):
        ok = r >= 0
        y = k + 0.3 * (rng.random(len(r)) - 0.5)
        ax.scatter(r[ok], y[ok], s=10, color=color, alpha=0.6)
        if ring is not None and ok[ring]:
            ax.scatter([r[ring]], [y[ring]], s=90, facecolors="none", edgecolors="k", lw=1.3)
    ax.set_yticks([0, 1, 2], ["eq. (5)", "official\nintegrator", "network"])
    ax.axvspan(*band, color="0.85", alpha=0.5, lw=0)
    ax.set_xlabel(f"steps to RQI > {threshold} / own n_h")
    ax.set_title("(b) every start (ringed: the reference start)")
    ax.set_xlim(0, 9)
    fig.tight_layout()
    return fig

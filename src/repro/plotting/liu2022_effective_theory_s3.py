"""Figures of the chapter ``book/liu2022_effective_theory``; the runs they show are made by
:mod:`repro.experiments.liu2022_effective_theory_s3`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2022_effective_theory_s3 import N_SAMPLES, S3Sweep
from repro.metrics.representation import pca
from repro.plotting.shared import TRAIN_COLOR, VAL_COLOR, seed_jitter


def plot_s3(sweep: S3Sweep):
    """Fig. 18a, b, e and Fig. 17 (the best run's matrices on PC1 and PC3, with their variance shares)."""
    cfg = sweep.config
    fig, axes = plt.subplots(1, 4, figsize=(12.5, 3.6))
    x = seed_jitter(sweep.fractions, sweep.seeds, 0.012)

    ax = axes[0]
    ax.scatter(x, sweep.final_rqi, s=16, color=VAL_COLOR, alpha=0.7, label="one seed")
    u, best = sweep.best_rqi()
    ax.plot(u / N_SAMPLES, best, "-", color=TRAIN_COLOR, lw=1.8, label="best seed")
    ax.axhline(cfg.rqi_threshold, ls=":", color="0.4", lw=1)
    ax.set_xlabel("training fraction")
    ax.set_ylabel("final RQI")
    ax.set_title("(a) final RQI\n(Fig. 18a)")
    ax.set_xlim(0, 1)
    ax.legend(loc="upper left", fontsize=9.5)

    ax = axes[1]
    ok = sweep.rqi_step >= 0
    ax.scatter(x[ok], sweep.rqi_step[ok], s=16, color=VAL_COLOR, label="one seed")
    ax.scatter(x[~ok], np.full((~ok).sum(), cfg.steps), s=20, marker="x", color="0.3", label=f"never within {cfg.steps} steps")
    u, fastest = sweep.fastest_rqi_step()
    good = fastest >= 0
    ax.plot(u[good] / N_SAMPLES, fastest[good], "-", color=TRAIN_COLOR, lw=1.8, label="fastest seed")
    ax.set_xlabel("training fraction")
    ax.set_ylabel(f"steps to RQI > {cfg.rqi_threshold}")
    ax.set_title("(b) time to a representation\n(Fig. 18b)")
    ax.set_xlim(0, 1)
    ax.legend(loc="lower left", fontsize=9.5)

    ax = axes[2]
    ax.scatter(sweep.predicted_accuracy, sweep.accuracy, s=16, c=sweep.fractions, cmap="viridis")
    ax.plot([0, 1], [0, 1], "--", color="0.4", lw=1)
    ax.set_xlabel(r"$\widehat{\mathrm{Acc}}$ (from the matrices)")
    ax.set_ylabel("Acc (network, all 36 samples)")
    ax.set_title("(e) Acc against Acc-hat\n(Fig. 18e)")

    ax = axes[3]
    r = sweep.best_run()
    proj, var = pca(sweep.embeddings[r])
    ax.scatter(proj[:, 0], proj[:, 2], s=40, color=TRAIN_COLOR)
    for k in range(6):
        ax.annotate(str(k), (proj[k, 0], proj[k, 2]), xytext=(4, 4), textcoords="offset points", fontsize=9)
    ax.set_xlabel(f"PC1 ({100 * var[0]:.0f} % of variance)")
    ax.set_ylabel(f"PC3 ({100 * var[2]:.0f} % of variance)")
    ax.set_title(f"Fig. 17: best run\n({sweep.counts[r]} samples, RQI {sweep.final_rqi[r]:.2f})")
    ax.set_aspect("equal", adjustable="datalim")
    fig.tight_layout()
    return fig

"""Figures of the chapter ``book/liu2023_omnigrok``; the runs they show are made by
:mod:`repro.experiments.liu2023_omnigrok_messiness`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2023_omnigrok_messiness import MessinessResult


def plot_messiness(result: MessinessResult):
    """Three panels: log10 training loss and log10 test loss over (alpha, m) (medians over seeds), with
    w_c(m) (the ``fit_level`` training-loss contour) marked; then the test loss against alpha per m."""
    cfg = result.config
    a, m = np.asarray(cfg.alphas), np.asarray(cfg.messiness)
    wc = np.median(result.critical_alpha(), axis=0)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.0))
    for ax, key, title in ((axes[0], "train_loss", "training"), (axes[1], "test_loss", "test")):
        im = ax.pcolormesh(a, m, np.log10(result.median(key)), shading="nearest", cmap="viridis")
        fig.colorbar(im, ax=ax, label=f"log10 {title} loss (MSE)")
        ax.plot(wc, m, "w-o", ms=3, lw=1.5, label=f"$w_c$: training loss {cfg.fit_level:g}")
        ax.set_xlabel(r"decoder norm $w$ ($\alpha$ x standard init)")
        ax.set_ylabel("representation messiness $m$")
        ax.set_title(f"reduced {title} loss")
        ax.legend(loc="upper right", fontsize=8)
    ax = axes[2]
    colors = plt.cm.plasma(np.linspace(0, 0.85, len(m)))
    for k, color in enumerate(colors):
        ax.plot(a, result.median("test_loss")[k], "-o", ms=3, color=color, label=f"m = {m[k]:g}")
    ax.set_yscale("log")
    ax.set_xlabel(r"decoder norm $w$ ($\alpha$ x standard init)")
    ax.set_ylabel("test loss (MSE)")
    ax.set_title("test loss against the norm, per messiness")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig

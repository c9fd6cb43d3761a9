"""Figures of the chapter ``book/liu2023_omnigrok``; the runs they show are made by
:mod:`repro.experiments.liu2023_omnigrok_messiness`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from repro.experiments.liu2023_omnigrok_messiness import MessinessResult, contour_slope


def plot_messiness(result: MessinessResult):
    """Three panels: log10 training loss and log10 test loss over (alpha, m) (medians over seeds), with
    w_c(m) (the ``fit_level`` training-loss contour) marked; then the test loss against alpha per m."""
    cfg = result.config
    a, m = np.asarray(cfg.alphas), np.asarray(cfg.messiness)
    wc = np.median(result.critical_alpha(), axis=0)
    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.7))
    for ax, key, title in ((axes[0], "train_loss", "training"), (axes[1], "test_loss", "test")):
        im = ax.pcolormesh(a, m, np.log10(result.median(key)), shading="nearest", cmap="viridis")
        fig.colorbar(im, ax=ax, label=f"log10 {title} loss (MSE)")
        ax.plot(wc, m, "w-o", ms=3, lw=1.5, label=f"$w_c$: training loss {cfg.fit_level:g}")
        ax.set_xlabel(r"decoder norm $w$ ($\alpha$ x standard init)")
        ax.set_ylabel("representation messiness $m$")
        ax.set_title(f"reduced {title} loss")
        ax.legend(loc="upper right", fontsize=9.5)
    ax = axes[2]
    # one curve per m: a colour bar, not a legend of len(m) entries that would cover the curves
    cmap = ListedColormap(plt.cm.plasma(np.linspace(0, 0.85, 256)))
    norm = plt.Normalize(m.min(), m.max())
    for k in range(len(m)):
        ax.plot(a, result.median("test_loss")[k], "-o", ms=3, color=cmap(norm(m[k])))
    fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, label="representation messiness $m$")
    ax.set_yscale("log")
    ax.set_xlabel(r"decoder norm $w$ ($\alpha$ x standard init)")
    ax.set_ylabel("test loss (MSE)")
    ax.set_title("test loss against the norm, per messiness")
    fig.tight_layout()
    return fig


def plot_data_size(results: dict[int, MessinessResult]):
    """The backup slide "Algorithmic: data size/weight decay dependence", as the official
    plot-addition-data-dependence.ipynb draws it: left, the training-loss contour at ``fit_level`` (w_c(m)) for
    each training-set size, norm on a log axis, with its least-squares line (contour_slope); right, the line's slope
    d ln(w_c)/dm against the size, with its standard error. A steeper slope is a smaller angle theta between the
    contour and the log-norm axis."""
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    sizes = sorted(results)
    colors = plt.cm.viridis(np.linspace(0, 0.85, len(sizes)))
    slopes, ses = [], []
    for n, color in zip(sizes, colors):
        r = results[n]
        m = np.asarray(r.config.messiness)
        wc = np.median(r.critical_alpha(), axis=0)
        inside = np.isfinite(r.critical_alpha()).all(axis=0) & (r.train_loss[:, :, 0] > r.config.fit_level).all(axis=0)
        cs = contour_slope(r)
        slopes.append(cs.slope)
        ses.append(cs.se)
        ax.plot(wc[inside], m[inside], "o", color=color, label=f"{n} training pairs")
        if np.isfinite(cs.slope):
            mm = m[inside]
            intercept = np.mean(np.log(wc[inside])) - cs.slope * np.mean(mm)
            ax.plot(np.exp(intercept + cs.slope * mm), mm, "-", color=color, lw=1.2)
    lo, hi = min(results[n].config.alphas[0] for n in sizes), max(results[n].config.alphas[-1] for n in sizes)
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    ax.set_xlabel(r"decoder norm $w_c$ ($\alpha$ x standard init, log axis)")
    ax.set_ylabel("representation messiness $m$")
    ax.set_title(f"training loss = {results[sizes[0]].config.fit_level:g} contour per data size")
    ax.legend(fontsize=9.5)
    bx.errorbar(sizes, slopes, yerr=np.nan_to_num(ses), fmt="o-", color="k", capsize=3)
    bx.set_xlabel("training pairs (of 55)")
    bx.set_ylabel(r"contour slope $d\,\ln w_c / dm$  ($\propto 1/\tan\theta$)")
    bx.set_title(r"more data: steeper contour, smaller $\theta$?")
    fig.tight_layout()
    return fig

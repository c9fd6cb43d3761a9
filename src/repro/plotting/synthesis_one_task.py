"""The figures of the synthesis chapter (``book/synthesis_one_task.ipynb``), one per slice of the sweep, in the
house style. Each panel draws the number a registered prediction reads, with the prediction's bound where it has one."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments import synthesis_one_task_predictions as pred
from repro.experiments.synthesis_one_task import SynthesisResult

GEN, MEM = "C2", "C3"


def _jitter(n: int, width: float, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).random(n) - 0.5) * width


def plot_fraction_slice(result: SynthesisResult):
    """Left: each run's final validation accuracy against its training fraction, the share that generalizes, and
    the band between the phases (Rubin et al.). Right: the embeddings' structure against time in units of each run's
    generalization step, with the fit marked (Liu et al. 2022)."""
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11.5, 4.2))
    runs = result.where(slice="fraction")
    f = np.asarray([result.specs[r].train_fraction for r in runs])
    final = result.val_acc[runs, -1]
    ax.axhspan(0.2, 0.8, color="0.9", label="between the phases (T10)")
    ax.scatter(f + _jitter(len(f), 0.03), final, s=16, color="C0", alpha=0.7, label="one run")
    shares = pred.generalizing_share_by_fraction(result)
    ax.plot(list(shares), list(shares.values()), "k-o", ms=4, label="share reaching 99 % validation")
    ax.set(xlabel="training fraction", ylabel="final validation accuracy", ylim=(-0.03, 1.03),
           title=f"fraction slice ({result.config.steps:,} steps)")
    ax.legend(fontsize=9.5, loc="upper left")
    for r in pred.grokking_runs(result):
        g = result.generalize_step[r]
        rise = result.fourier[r] - result.fourier[r, 0]
        if rise[-1] > 0:
            bx.plot(result.snapshot_steps / g, rise / rise[-1], color="C4", alpha=0.25, lw=1)
    fits = result.fit_step[pred.grokking_runs(result)] / result.generalize_step[pred.grokking_runs(result)]
    bx.axvline(np.median(fits), color="C0", ls="--", label="median fit (99 % training)")
    bx.axvline(1.0, color=GEN, ls="--", label="99 % validation")
    bx.axhline(0.5, color="0.5", lw=0.8, label="half the rise (T01, T02)")
    bx.set(xscale="log", xlabel="step / the run's step to 99 % validation", ylabel="share of the structure's rise",
           title="embeddings' Fourier concentration, runs that grok")
    bx.legend(fontsize=9.5, loc="upper left")
    fig.tight_layout()
    return fig


def plot_norm_slice(result: SynthesisResult):
    """Left: the delay against α, free norm (Omnigrok). Middle: final validation accuracy against the held norm's α.
    Right: the raw eNTK change against step, free α = 1 and the largest α, fits marked (Mohamadi et al.)."""
    fig, axes = plt.subplots(1, 3, figsize=(12.8, 4.0))
    cfg = result.config
    for ax, fixed, values, ylabel in ((axes[0], False, lambda runs: pred.delays(result, runs), "delay: fit to 99 % validation (steps)"),
                                      (axes[1], True, lambda runs: result.val_acc[runs, -1], "final validation accuracy")):
        alphas = cfg.fixed_alphas if fixed else cfg.free_alphas
        medians = []
        for k, a in enumerate(alphas):
            v = values(result.where(slice="norm", fixed_norm=fixed, alpha=a))
            ax.scatter(a * np.exp(_jitter(len(v), 0.12, k)), v, s=16, color="C1" if fixed else "C0", alpha=0.7)
            medians.append(np.median(v))
        ax.plot(alphas, medians, "k-o", ms=4, label="median over seeds")
        ax.set(xscale="log", xlabel="initial scale α", ylabel=ylabel,
               title="norm held at α × the init's (T04, T05)" if fixed else "free norm (T03)")
        ax.legend(fontsize=9.5)
    axes[0].axhline(cfg.steps, color="0.6", ls=":", lw=0.8)
    bx = axes[2]
    for a, color in ((1.0, "C0"), (max(cfg.free_alphas), "C3")):
        runs = result.where(slice="norm", fixed_norm=False, alpha=a)
        k0 = result.ntk_norm[runs, :1]
        steps = np.maximum(result.snapshot_steps[1:], 1)
        bx.plot(steps, np.median(result.ntk_change[runs, 1:] / k0, axis=0), color=color,
                label=f"α = {a:g}: ‖Θ̂_t − Θ̂_0‖ / ‖Θ̂_0‖")
        bx.plot(steps, np.median(result.ntk_norm[runs, 1:] / k0, axis=0), color=color, ls=":",
                label=f"α = {a:g}: ‖Θ̂_t‖ / ‖Θ̂_0‖")
        bx.axvline(np.median(result.fit_step[runs]), color=color, ls="--", lw=0.8)
    bx.set(xscale="log", yscale="log", xlabel="step", ylabel="relative to the initial kernel (median)",
           title="first-logit eNTK; dashed: the fit (T06, T07)")
    bx.legend(fontsize=8.5)
    for ax in axes[:2]:
        alphas = cfg.fixed_alphas if ax is axes[1] else cfg.free_alphas
        ax.set_xticks(alphas, [f"{a:g}" for a in alphas])
        ax.minorticks_off()
    fig.tight_layout()
    return fig


def plot_rate_grid(result: SynthesisResult):
    """The share of runs that generalize within the budget over (η_enc, η_dec) (GenEFT §5, Eq. 11)."""
    factors = result.config.rate_factors
    share = np.array([[pred.generalized(result, result.where(slice="rates", lr_enc=e, lr_dec=d)).mean()
                       for d in factors] for e in factors])
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    im = ax.imshow(share, origin="lower", cmap="viridis", vmin=0, vmax=1)
    labels = [f"{f * result.config.lr:.0e}" for f in factors]
    ax.set_xticks(range(len(factors)), labels)
    ax.set_yticks(range(len(factors)), labels)
    for i in range(len(factors)):
        for j in range(len(factors)):
            ax.text(j, i, f"{share[i, j]:.2f}", ha="center", va="center", color="w" if share[i, j] < 0.6 else "k")
    ax.plot([-0.5, len(factors) - 0.5], [-0.5, len(factors) - 0.5], color="w", ls=":", lw=1)
    ax.set(xlabel="decoder rate η_dec", ylabel="embedding rate η_enc",
           title="share reaching 99 % validation\nabove the diagonal: η_enc > η_dec (T08, T09)")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    return fig

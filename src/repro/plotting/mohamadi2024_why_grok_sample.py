"""Figures of the chapter ``book/mohamadi2024_why_grok``; the runs they show are made by
:mod:`repro.experiments.mohamadi2024_why_grok_sample`."""
from __future__ import annotations

import numpy as np

from repro.experiments.mohamadi2024_why_grok_sample import SampleComplexityResult, SettledExponent, critical_sizes


def plot_sample_complexity(res: SampleComplexityResult):
    """Left and middle: seed-mean final test accuracy against n/p^{5/3} and n/p² (one line per p). Right:
    n* against p on log axes with the p^{5/3} and p² slopes through the fitted line's middle."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.7))
    cmap = plt.get_cmap("viridis")
    ps = res.config.ps
    for i, p in enumerate(ps):
        n, acc = res.n_values(p), res.final(p).mean(axis=0)
        color = cmap(i / max(len(ps) - 1, 1))
        axes[0].plot(n / p ** (5 / 3), acc, "o-", ms=3, color=color, label=f"p = {p}")
        axes[1].plot(n / p ** 2, acc, "o-", ms=3, color=color)
    for ax, xlabel in zip(axes[:2], ("$n / p^{5/3}$", "$n / p^2$ (fraction of all pairs)")):
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("final test accuracy (mean of seeds)")
    axes[0].legend(fontsize=7, ncol=2)
    axes[0].set_title("against $n/p^{5/3}$ (Thm 4.5)")
    axes[1].set_title("against $n/p^2$ (kernel rate, Thm 4.3)")
    crit = critical_sizes(res)
    ok = np.isfinite(crit)
    axes[2].plot(np.array(ps)[ok], crit[ok], "ko", label="$n^*$: mean test accuracy crosses 1/2")
    _critical_size_fit(axes[2], ps, crit, "critical training size")
    fig.tight_layout()
    return fig


def _critical_size_fit(ax, ps, crit, title: str):
    """On log axes: the least-squares line of log n* on log p over the finite n* (when there are two), and the
    slopes 5/3 (Thm 4.5) and 2 (kernels, Thm 4.3) through its middle; axis labels, title and legend."""
    ok = np.isfinite(crit)
    if ok.sum() >= 2:
        lp = np.log(np.array(ps, dtype=float)[ok])
        k, b = np.polyfit(lp, np.log(np.asarray(crit)[ok]), 1)
        grid = np.linspace(lp.min(), lp.max(), 20)
        mid = lp.mean()
        ax.plot(np.exp(grid), np.exp(k * grid + b), "k-", lw=1, label=f"fit: slope {k:.2f}")
        for slope, style in ((5 / 3, "--"), (2.0, ":")):
            ax.plot(np.exp(grid), np.exp(k * mid + b + slope * (grid - mid)), style, color="C3",
                    label=f"slope {slope:.2f}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("p")
    ax.set_ylabel("$n^*$ (training pairs)")
    ax.set_title(title)
    ax.legend(fontsize=7)


def plot_norm_margin(res: SampleComplexityResult, c: float = 2.0):
    """Figs 3-4 (right) from the same runs at n = c·p^{5/3}: final ‖θ‖∞ and normalized margin q_min/‖θ‖∞³
    against p (median and range over seeds); the construction's margin p (App. F) for reference."""
    import matplotlib.pyplot as plt

    ps = [p for p in res.config.ps if c in res.config.coeffs_at(p)]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for ax, name, label in ((axes[0], "linf", r"$\|\theta\|_\infty$"),
                            (axes[1], "margin", r"normalized margin $q_{\min}/\|\theta\|_\infty^3$")):
        vals = [res.final(p, name)[:, res.config.coeffs_at(p).index(c)] for p in ps]
        med = np.array([np.median(v) for v in vals])
        lo, hi = np.array([v.min() for v in vals]), np.array([v.max() for v in vals])
        ax.errorbar(ps, med, yerr=[med - lo, hi - med], fmt="o-", color="C0", capsize=3,
                    label=f"trained, n = {c:g}p$^{{5/3}}$, after {res.config.steps} steps")
        ax.set_xlabel("p")
        ax.set_ylabel(label)
    axes[1].plot(ps, ps, "--", color="C3", label="Fourier construction (App. F): p")
    axes[1].set_yscale("log")
    for ax in axes:
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_settled_budget(budget: SampleComplexityResult, settled: SettledExponent):
    """Left: n*/p^{5/3} of the longer-budget run against the budget it is read at (every recorded step), one line
    per p, with App. A.2's n = 2p^{5/3}. Right: the settled n* against p on log axes (each p at the budget
    :class:`SettledExponent` reads it at), the fitted line and the slopes 5/3 and 2 through its middle."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    cmap = plt.get_cmap("viridis")
    ps = budget.config.ps
    steps = budget.steps[budget.steps > 0]
    crit = np.array([critical_sizes(budget, step=int(t)) for t in steps])  # (T, P)
    for i, p in enumerate(ps):
        axes[0].plot(steps, crit[:, i] / p ** (5 / 3), "-", color=cmap(i / max(len(ps) - 1, 1)), label=f"p = {p}")
    axes[0].axhline(2.0, color="C3", ls="--", lw=1, label="n = 2p$^{5/3}$ (App. A.2)")
    axes[0].set_xscale("log")
    axes[0].set_xlabel("budget (normalized GD steps)")
    axes[0].set_ylabel("$n^*/p^{5/3}$ (mean test accuracy 1/2)")
    axes[0].set_title("critical size against the budget")
    axes[0].legend(fontsize=7)
    ax = axes[1]
    ps_all = np.array(settled.ps, dtype=float)
    ok = np.isfinite(settled.n_crit)
    for budget_steps in sorted(set(settled.steps.values())):
        sel = ok & np.array([settled.steps[p] == budget_steps for p in settled.ps])
        ax.plot(ps_all[sel], settled.n_crit[sel], "o", label=f"$n^*$ after {budget_steps:,} steps")
    _critical_size_fit(ax, settled.ps, settled.n_crit, "settled critical size")
    fig.tight_layout()
    return fig

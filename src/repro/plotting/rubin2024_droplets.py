"""Figures of the chapter ``book/rubin2024_droplets``; the runs they show are made by
:mod:`repro.experiments.rubin2024_droplets`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.rubin2024_droplets import (BETA_COLORS, DropletsConfig, ExperimentResult, TheoryResult,
                                                  beta_label, component_stats)
from repro.theory.rubin2024 import (action_1d, binned_neg_log_p, gfl_b, mode_action, modular_solve, nngp_b,
                                    relaxed_action)


def plot_landau(cfg: DropletsConfig, theory: TheoryResult):
    """The single-neuron action along the teacher direction at the GFL discrepancy (d -> infinity):
    the paper's frozen-r action (v1 Eq. 14) and the corrected one with r at its saddle (our correction)."""
    ts = cfg.teacher
    q = np.linspace(0, 1.6, 321)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    cmap = plt.get_cmap("viridis")
    for j, s2 in enumerate(cfg.landau_sigma2s):
        u, g = float(ts.u(s2)), float(ts.g(s2))
        b = gfl_b(u, g, ts.sigma_w2)
        col = cmap(j / max(len(cfg.landau_sigma2s) - 1, 1))
        axes[0].plot(q, action_1d(q, b, ts.eps, u, ts.sigma_w2), color=col, label=f"σ² = {s2:g}")
        axes[1].plot(q, relaxed_action(q, b, ts.eps, u, ts.sigma_w2), color=col, label=f"σ² = {s2:g}")
    for ax, title in zip(axes, ("paper: |w⊥|² frozen at σ_w² (v1 Eq. 14)", "corrected: |w⊥|² at its saddle")):
        ax.axhline(0, color="k", lw=0.8)
        ax.set_xlabel("overlap with the teacher q = w·w*")
        ax.set_title(title)
        ax.set_ylim(-0.15, 0.6)
    axes[0].set_ylabel("action per input dimension, s(q) − s(0)")
    axes[1].legend(loc="upper left")
    fig.tight_layout()
    return fig


def plot_histograms(exp: ExperimentResult):
    """v1 Fig. 1: -log p(|w·w*|) of trained networks against both theories at the same d."""
    lv = exp.langevin
    edges = lv.edges
    centres = 0.5 * (edges[:-1] + edges[1:])
    S = len(lv.sigma2s)
    fig, axes = plt.subplots(1, S, figsize=(min(12.5, 3.0 * S), 3.4), sharey=True)
    axes = np.atleast_1d(axes)
    for s, ax in enumerate(axes):
        y, err = lv.neg_log_p(s), lv.neg_log_p_error(s)
        ok = np.isfinite(y)
        ax.errorbar(centres[ok], y[ok], yerr=np.where(np.isfinite(err[ok]), err[ok], 0), fmt="x", color="k",
                    label="Langevin ensembles")
        ax.plot(centres, binned_neg_log_p(exp.theory_2d[s], edges), color="#c44e52", label="corrected theory")
        ax.plot(centres, binned_neg_log_p(exp.theory_1d[s], edges), color="#4c72b0", ls="--",
                label="paper's theory (v3 Eq. 13)")
        ax.set_title(f"σ² = {lv.sigma2s[s]:g}")
        ax.set_xlabel("|q| = |w·w*|")
        ax.set_ylim(-0.3, 8)
    axes[0].set_ylabel("−log p(|q|) (nats, 0 at the first bin)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=9.5)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def plot_components(cfg: DropletsConfig, theory: TheoryResult, exp: ExperimentResult | None = None):
    """v1 Fig. 2: learned linear (1 - b) and cubic (eps - c) components of the mean predictor vs sigma^2."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.3))
    s1 = [s.sigma2 for s in theory.sharp_1d]
    s2 = [s.sigma2 for s in theory.sharp_2d]
    sf = [s.sigma2 for s in theory.finite_2d]
    d = cfg.langevin.d
    ts = cfg.teacher
    nngp = [1 - float(nngp_b(ts.g(x), ts.sigma_w2)) for x in s1]
    axes[0].plot(s1, nngp, color="gray", ls=":", label="NNGP (no feature learning)")
    for ax, attr in zip(axes, ("learned_linear", "learned_cubic")):
        ax.plot(s1, [getattr(s, attr) for s in theory.sharp_1d], color="#4c72b0", ls="--",
                label=f"paper's theory, d = {cfg.d_sharp:,}")
        ax.plot(s2, [getattr(s, attr) for s in theory.sharp_2d], color="#c44e52",
                label=f"corrected theory, d = {cfg.d_sharp_2d:,}")
        ax.plot(sf, [getattr(s, attr) for s in theory.finite_2d], color="#c44e52", alpha=0.45, lw=3,
                label=f"corrected theory, d = {d}")
        if exp is not None:
            lv = exp.langevin
            vals = getattr(lv, attr)
            ax.errorbar(lv.sigma2s, vals.mean(1), yerr=vals.std(1, ddof=1) / np.sqrt(vals.shape[1]), fmt="x",
                        color="k", label=f"Langevin ensembles, d = {d}")
        ax.axvline(theory.crit_paper.sigma2, color="k", lw=1)
        ax.axvline(theory.crit_corrected.sigma2, color="k", lw=1, ls="-.")
        ax.set_xlabel("noise σ² (lower = more effective data n/σ²)")
    axes[0].axhline(1, color="k", ls="--", lw=0.8)
    axes[0].set_ylabel("learned linear component 1 − b")
    axes[1].set_ylabel("learned cubic component ε − c")
    h0, l0 = axes[0].get_legend_handles_labels()
    fig.legend(h0, l0, loc="lower center", ncol=3, fontsize=9.5)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    return fig


def plot_finite_histograms(finite: dict, sigma2s=(0.25, 0.15, 0.10)):
    """v1 Fig. 1 / v3 Fig. 2(a, b) with finite data: -log p(|w.w*|) of the stored ensembles (crosses, error
    bars from five subsets of networks) at each beta, against the paper's theory (solid) and the corrected
    one (dashed) at the same size."""
    fig, axes = plt.subplots(1, len(sigma2s), figsize=(min(12.5, 3.4 * len(sigma2s)), 3.6), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, s2 in zip(axes, sigma2s):
        for beta, fe in finite.items():
            lv = fe.langevin
            if s2 not in lv.sigma2s:
                continue
            s = lv.sigma2s.index(s2)
            centres = 0.5 * (lv.edges[:-1] + lv.edges[1:])
            col = BETA_COLORS.get(beta, "k")
            y, err = lv.neg_log_p(s), lv.neg_log_p_error(s)
            ok = np.isfinite(y)
            ax.errorbar(centres[ok], y[ok], yerr=np.where(np.isfinite(err[ok]), err[ok], 0), fmt="x", color=col,
                        label=f"β = {beta_label(beta)}: d = {lv.config.d}, finite data")
            ax.plot(centres, binned_neg_log_p(fe.theory_1d[s], lv.edges), color=col, lw=1.2)
            ax.plot(centres, binned_neg_log_p(fe.theory_2d[s], lv.edges), color=col, lw=1.2, ls="--")
        ax.set_title(f"σ² = {s2:g}")
        ax.set_xlabel("|q| = |w·w*|")
        ax.set_ylim(-0.3, 10)
    axes[0].set_ylabel("−log p(|q|) (nats, 0 at the first bin)")
    handles, labels = axes[0].get_legend_handles_labels()
    handles += [plt.Line2D([], [], color="gray", lw=1.2), plt.Line2D([], [], color="gray", lw=1.2, ls="--")]
    labels += ["paper's theory (v3 Eq. 13), same d", "corrected theory, same d"]
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=9.5)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def plot_finite_components(theory: TheoryResult, finite: dict, curves: dict, exp: ExperimentResult | None = None):
    """v1 Fig. 2 / v3 Fig. 2(c) with finite data: learned linear and cubic components of the mean predictor
    against sigma^2 for each beta (mean ± standard error over data sets), the paper's theory (solid) and the
    corrected one (dashed) at each size, and the infinite-data ensembles at d = 53 (grey)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.3))
    for ax, attr in zip(axes, ("learned_linear", "learned_cubic")):
        for beta, fe in finite.items():
            col = BETA_COLORS.get(beta, "k")
            one, two = curves[beta]
            ax.plot([x.sigma2 for x in one], [getattr(x, attr) for x in one], color=col, lw=1.2)
            ax.plot([x.sigma2 for x in two], [getattr(x, attr) for x in two], color=col, lw=1.2, ls="--")
            mean, se = component_stats(fe.langevin, attr)
            ax.errorbar(fe.langevin.sigma2s, mean, yerr=se, fmt="o", ms=4, color=col, capsize=2,
                        label=f"β = {beta_label(beta)} (d = {fe.langevin.config.d}), finite data")
        if exp is not None:
            lv = exp.langevin
            vals = getattr(lv, attr)
            ax.errorbar(lv.sigma2s, vals.mean(1), yerr=vals.std(1, ddof=1) / np.sqrt(vals.shape[1]), fmt="x",
                        color="0.4", label=f"infinite data, d = {lv.config.d}")
        ax.axvline(theory.crit_paper.sigma2, color="k", lw=1)
        ax.axvline(theory.crit_corrected.sigma2, color="k", lw=1, ls="-.")
        ax.set_xlabel("noise σ²")
    axes[0].axhline(1, color="k", ls="--", lw=0.8)
    axes[0].set_ylabel("learned linear component 1 − b")
    axes[1].set_ylabel("learned cubic component ε − c")
    h0, l0 = axes[0].get_legend_handles_labels()
    h0 += [plt.Line2D([], [], color="gray", lw=1.2), plt.Line2D([], [], color="gray", lw=1.2, ls="--")]
    l0 += ["paper's theory, same d", "corrected theory, same d"]
    fig.legend(h0, l0, loc="lower center", ncol=3, fontsize=9.5)
    fig.tight_layout(rect=(0, 0.16, 1, 1))
    return fig


def plot_modular(cfg: DropletsConfig, theory: TheoryResult):
    """v3 Fig. 3: (a) per-mode action s(x) along |w_k|^2 = |v_k|^2 = x for several sigma^2, with an inset of
    the droplet-saddle heights P s(x_+) across the mixed phase; (b) the target component 1 - |a|."""
    mod = cfg.modular
    bd = theory.modular_bounds
    by_s2 = {round(s.sigma2, 4): s for s in theory.modular_curve}
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    x = np.linspace(0, 260, 521)
    cmap = plt.get_cmap("plasma")
    for j, s2 in enumerate(cfg.modular_sigma2s):
        sol = by_s2.get(round(s2, 4)) or modular_solve(mod, s2)
        U = float(mod.u(s2)) * sol.a**2
        phase = "GFL" if s2 > bd.sigma2_c1 else ("GMFL-I" if s2 > bd.sigma2_c2 else "GMFL-II")
        axes[0].plot(x, mode_action(x, U, mod.gamma), color=cmap(j / len(cfg.modular_sigma2s)),
                     label=f"σ² = {s2:g} ({phase})")
    axes[0].axhline(0, color="k", lw=0.8)
    axes[0].set_ylim(-30, 60)
    axes[0].set_xlabel("mode power x = |w_k|² = |v_k|²")
    axes[0].set_ylabel("action per P, s(x) = S_k / P")
    axes[0].legend(loc="lower left", fontsize=7)
    inset = axes[0].inset_axes([0.58, 0.62, 0.38, 0.33])
    mixed = [s for s in theory.modular_curve if bd.sigma2_c2 - 1e-9 <= s.sigma2 <= bd.sigma2_c1 + 1e-9]
    inset.plot([s.sigma2 for s in mixed], [s.saddle_nats for s in mixed], color="k")
    inset.axhline(0, color="gray", lw=0.6)
    inset.set_xlabel("σ²", fontsize=7)
    inset.set_ylabel("P·s(x₊) (nats)", fontsize=7)
    inset.tick_params(labelsize=6)
    s = np.array([m.sigma2 for m in theory.modular_curve])
    a = np.array([m.a for m in theory.modular_curve])
    axes[1].plot(s, 1 - np.abs(a), color="k", label="1 − |a| (target learned)")
    axes[1].plot(s, np.abs(a), color="#c44e52", ls="--", label="|a| (test-RMSE proxy)")
    if theory.modular_exact_curve:
        ae = np.array([m.a for m in theory.modular_exact_curve])
        axes[1].plot(s, 1 - np.abs(ae), color="#4c72b0", ls=":", lw=1.5,
                     label="1 − |a|, exact kernel eigenvalue (no GMFL-II)")
    for v, lab in ((bd.sigma2_c1, "σ²_c1"), (bd.sigma2_c2, "σ²_c2")):
        axes[1].axvline(v, color="gray", lw=1)
        axes[1].text(v, 0.85, lab, rotation=90, ha="right", va="center", fontsize=9)
    axes[1].set_xlabel("noise σ²")
    axes[1].set_ylabel("component of the mean predictor")
    axes[1].legend(loc="center left", bbox_to_anchor=(0.0, 0.3), fontsize=9)
    fig.tight_layout()
    return fig


def plot_step_bias(stats: dict):
    """The Langevin step's first-order bias, 2(x(h) - x(h/2)), as a percentage of the fine step's value, with
    95 % bars (1.96 paired standard errors), per statistic (x) and noise level (colour). ``stats``: statistic
    name -> :func:`repro.experiments.rubin2024_droplets.step_difference`'s output."""
    names = list(stats)
    sigma2s = sorted({s2 for per in stats.values() for s2 in per}, reverse=True)
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    width = 0.8 / max(len(sigma2s), 1)
    cmap = plt.get_cmap("viridis")
    for j, s2 in enumerate(sigma2s):
        xs, ys, es = [], [], []
        for i, name in enumerate(names):
            if s2 in stats[name]:
                r = stats[name][s2]
                xs.append(i + (j - (len(sigma2s) - 1) / 2) * width)
                ys.append(100 * r["bias"] / r["fine"])
                es.append(100 * 1.96 * abs(r["bias_se"] / r["fine"]))
        ax.errorbar(xs, ys, yerr=es, fmt="o", capsize=4, color=cmap(0.75 * j / max(len(sigma2s) - 1, 1)),
                    label=f"σ² = {s2:.2f}")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("bias at h = 0.05\n(% of the h = 0.025 value)")
    ax.set_xlabel("statistic")
    ax.legend()
    fig.tight_layout()
    return fig

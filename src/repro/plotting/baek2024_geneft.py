"""Figures of the chapters ``book/baek2024_geneft_dynamics`` and ``book/baek2024_geneft_information``; the runs they show are made by
:mod:`repro.experiments.baek2024_geneft`."""
from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib import patheffects
import numpy as np

from repro.experiments.baek2024_geneft import (BoundResult, BoundaryFit, COLORS, DataSizeResult, DepthResult, LABELS,
                                               LogisticBoundary, PhaseResult, ReponConfig)
from repro.plotting.shared import PHASE_COLORS, plot_phase_diagram, plot_phase_examples, plot_seed_band
from repro.theory.baek2024 import description_length


def plot_bound(result: BoundResult):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    fine = np.linspace(0, max(result.config.fractions), 200)
    for rel in result.config.relations:
        mc = result.accuracy[rel]
        ax.errorbar(result.config.fractions, mc.mean(1), yerr=mc.std(1), color=COLORS[rel], lw=1.8, capsize=2,
                    label=f"{LABELS[rel]}: Monte Carlo")
        ax.plot(fine, result.eq4(rel, fine), ls=":", color=COLORS[rel], lw=1.8, label=f"{LABELS[rel]}: Eq. 4")
    ax.set_xlabel("training data fraction")
    ax.set_ylabel("upper bound on accuracy $f_{UB}$ (all $n^2$ pairs)")
    ax.set_ylim(0.45, 1.02)
    ax.legend(fontsize=9.5, ncol=2, loc="lower right")
    return fig


def plot_data_size(result: DataSizeResult, bound: BoundResult):
    cfg = result.config
    fig, axes = plt.subplots(1, len(cfg.relations), figsize=(4.1 * len(cfg.relations), 3.7), squeeze=False)
    for ax, rel in zip(axes[0], cfg.relations):
        ax.plot(bound.config.fractions, bound.mc_mean(rel), color="k", lw=2, label="Monte-Carlo bound (Fig. 2)")
        for a in range(len(cfg.architectures)):
            plot_seed_band(ax, np.asarray(cfg.fractions), result.accuracy[rel, a].T, label=result.labels[rel, a],
                           color=f"C{a + 4}")
        ax.axvline(description_length(rel) / 900, color="grey", ls="--", lw=1, label="$b/n^2$")
        ax.set_xlabel("training data fraction")
        ax.set_ylabel("accuracy over all pairs")
        ax.set_title(f"({'ab'[cfg.relations.index(rel)]}) {LABELS[rel]}")
        ax.set_ylim(0.45, 1.02)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def plot_depth(result: DepthResult):
    cfg = result.config
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.0))
    for i, rel in enumerate(cfg.relations):
        for ax, values in zip(axes, (result.test_acc, result.train_acc)):
            plot_seed_band(ax, np.asarray(cfg.depths), values[i].T, label=LABELS[rel], color=COLORS[rel])
    if "greater_than" in cfg.relations:  # §4: greater-than "can easily reach ≈90% accuracy, but struggles to reach 100%"
        axes[0].axhline(0.9, color=COLORS["greater_than"], ls=":", lw=1.2, label="§4: greater-than ≈ 90 %")
    for ax, what in zip(axes, ("test", "training")):
        ax.set_xlabel("decoder depth $n_h$ (hidden layers of width %d)" % cfg.width)
        ax.set_ylabel(f"{what} accuracy")
        ax.set_ylim(0.3, 1.02)
        ax.legend(fontsize=9.5)
    axes[0].set_title("test accuracy (paper Fig. 4)")
    axes[1].set_title("training accuracy (confusion vs memorization)")
    fig.tight_layout()
    return fig


def plot_phase_curves(result: PhaseResult):
    """Beside Figs. 5 and 6: one run of each phase per task (rows: tasks; columns: the four phases), its training
    and test accuracy against step. A run leaves the batch once both accuracies have crossed the threshold (its
    phase is then decided), so a generalizing run's curve ends there."""
    cfg = result.config
    if not result.examples:
        raise ValueError("this PhaseResult has no example runs: stored maps keep final accuracies only; "
                         "run_phases(cfg) records them")
    return plot_phase_examples({f"({'abc'[i]}) {LABELS[r]}": result.examples[r] for i, r in enumerate(cfg.relations)},
                               threshold=cfg.threshold, threshold_label=f"{cfg.threshold * 100:g} % (Table 4)", val_label="test accuracy",
                               stopped_note=True)


def _grid_span(centres) -> tuple[float, float]:
    """The outer cell edges of a (log10) grid axis, where plot_phase_diagram draws them."""
    c = np.asarray(centres, dtype=float)
    if len(c) == 1:
        return c[0] - 0.5, c[0] + 0.5
    return c[0] - (c[1] - c[0]) / 2, c[-1] + (c[-1] - c[-2]) / 2


def _power(v: float) -> str:
    return f"10^{{{np.log10(v):.0f}}}"


def _draw_product_rule(ax, cfg, product_rule: float, xlim: tuple[float, float]):
    """The paper's §5 rule η_enc·η_dec = product_rule: a diagonal on a Fig. 5 map; on a Fig. 6 map (encoder rate
    fixed) the decoder rate it allows, a vertical line, drawn only where it falls inside the grid."""
    if cfg.rows == "lr_enc":
        fine = np.linspace(*xlim, 50)
        ax.plot(fine, np.log10(product_rule) - fine, "k:", lw=1.5,
                label=f"paper's rule $\\eta_{{enc}}\\eta_{{dec}} = {_power(product_rule)}$")
        return
    x = np.log10(product_rule / cfg.lr_enc)
    if xlim[0] <= x <= xlim[1]:
        ax.axvline(x, color="k", ls=":", lw=1.5,
                   label=f"§5 rule at this $\\eta_{{enc}}$: $\\eta_{{dec}} = {_power(product_rule)}/\\eta_{{enc}}$")


def _legend_lines(axes):
    """The boundary lines' legend outside the last panel, below the phase legend (which add_artist keeps)."""
    last = axes[-1]
    lines = [(h, l) for h, l in zip(*last.get_legend_handles_labels()) if l.startswith(("fitted", "paper's", "§5"))]
    if not lines:
        return
    if last.get_legend() is not None:
        last.add_artist(last.get_legend())
    last.legend([h for h, _ in lines], [l for _, l in lines], fontsize=9, loc="lower left",
                bbox_to_anchor=(1.02, 0.0), frameon=False)


def plot_phases(result: PhaseResult, fit: BoundaryFit | None = None, *, logistic: LogisticBoundary | None = None,
                product_rule: float | None = None):
    """Phase maps, one panel per task (majority phase over seeds; label: seeds that generalize). ``fit``: the
    clean-column boundary points and their common-slope line (dashed); ``logistic``: the boundary fitted to every
    decided run (solid white); ``product_rule``: the paper's line η_enc·η_dec = product_rule (dotted black; on a
    Fig. 6 map, the decoder rate it gives at the fixed encoder rate)."""
    cfg = result.config
    n = len(cfg.relations)
    fig, axes = plt.subplots(1, n, figsize=(3.7 * n + 1.9, 3.7), squeeze=False)
    ylabel = "encoder learning rate $\\eta_{enc}$" if cfg.rows == "lr_enc" else "decoder weight decay $wd_{dec}$"
    row_vals = np.asarray(cfg.row_values, dtype=float)
    if cfg.rows == "wd_dec":  # weight decay 0 cannot sit on a log axis: show it one step below the rest
        pos = row_vals[row_vals > 0]
        row_vals = np.where(row_vals > 0, row_vals, pos.min() / (pos[1] / pos[0] if len(pos) > 1 else 10))
    n_seeds = len(cfg.seeds)
    xs = np.log10(np.asarray(cfg.lr_dec, dtype=float))
    # each axis by its own spacing: Fig. 6's weight-decay rows are a decade apart, its columns half a decade
    xlim, ylim = _grid_span(xs), _grid_span(np.log10(row_vals))
    for i, (ax, rel) in enumerate(zip(axes[0], cfg.relations)):
        plot_phase_diagram(result.majority_phase(rel), cfg.lr_dec, row_vals, ax=ax,
                           xlabel="decoder learning rate $\\eta_{dec}$", ylabel=ylabel,
                           title=f"({'abc'[i]}) {LABELS[rel]}", logy=True, legend=i == n - 1)
        counts = result.generalized(rel).sum(0)
        for (r, c), k in np.ndenumerate(counts):  # how many seeds generalize in each cell
            ax.text(xs[c], np.log10(row_vals[r]), f"{k}/{n_seeds}", ha="center", va="center", fontsize=7.5,
                    color="k", path_effects=[patheffects.withStroke(linewidth=2, foreground="w")])  # legible on dark
        if fit is not None and rel in fit.intercepts:
            pts = np.stack(fit.points[rel], 1)
            uniq, mult = np.unique(pts, axis=0, return_counts=True)
            ax.scatter(uniq[:, 0] + 0.12, uniq[:, 1], s=8 + 10 * mult, c="w", edgecolors="k", zorder=3,
                       label="boundary (size: seeds)")
            ax.plot(xs, fit.slope * xs + fit.intercepts[rel], "w--", lw=1.5)
            ax.set_ylim(np.log10(row_vals).min() - fit.half_step, np.log10(row_vals).max() + fit.half_step)
        if logistic is not None and np.isfinite(logistic.intercepts.get(rel, np.nan)) and np.isfinite(logistic.slope):
            fine = np.linspace(*xlim, 50)
            ax.plot(fine, logistic.slope * fine + logistic.intercepts[rel], "w-", lw=2,
                    path_effects=[patheffects.Stroke(linewidth=3.5, foreground="k"), patheffects.Normal()],
                    label=f"fitted boundary (slope {logistic.slope:.1f})")
        if product_rule is not None:
            _draw_product_rule(ax, cfg, product_rule, xlim)
        if cfg.rows == "wd_dec" and (np.asarray(cfg.row_values) == 0).any():  # the shifted zero row says 0
            ax.set_yticks(np.log10(row_vals), [f"{v:g}" for v in cfg.row_values])
            ax.set_ylabel(ylabel)  # the ticks are the values now, not their log10
        if logistic is not None or product_rule is not None:  # the lines run past the grid: keep it framed
            ax.set_ylim(*ylim)
            ax.set_xlim(*xlim)
    if logistic is not None or product_rule is not None:
        _legend_lines(axes[0])
    fig.tight_layout()
    return fig


def plot_repons(cfg: ReponConfig, trajectories, p_theory, p_mc):
    from repro.theory.baek2024 import conserved_quantity

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    ax = axes[0]
    grid_a, grid_c = np.meshgrid(np.linspace(-0.05, 1.3, 200), np.linspace(-0.05, 0.8, 200))
    ax.contour(grid_a, grid_c, conserved_quantity(grid_a, grid_c, cfg.eta_x, cfg.eta_A), levels=[0], colors="k",
               linewidths=1)
    for (a0, c0), (t, a, c) in zip(cfg.starts, trajectories):
        C = conserved_quantity(a0, c0, cfg.eta_x, cfg.eta_A)
        ax.plot(a, c, lw=2, color=PHASE_COLORS["comprehension"] if C > 0 else PHASE_COLORS["memorization"])
        ax.plot([a0], [c0], "ko", ms=4)
        ax.plot([a[-1]], [c[-1]], "k*", ms=8)
    ax.set_xlabel("decoder strength along the pair, $a_2$")
    ax.set_ylabel("half separation of the repons, $c$")
    ax.set_title("Eq. 9: collision (C > 0) or not (C < 0); black: C = 0")
    ax = axes[1]
    fine = np.logspace(np.log10(min(cfg.ratios)), np.log10(max(cfg.ratios)), 200)
    ax.plot(fine, [2 / np.pi * np.arctan(np.sqrt(r / 2)) for r in fine], "k-", label="Eq. 11")
    ax.plot(cfg.ratios, p_mc, "o", color="C3", label=f"Monte Carlo, {cfg.samples:,} initial conditions")
    ax.set_xscale("log")
    ax.set_xlabel("learning-rate ratio $\\eta_x / \\eta_A$ (encoder / decoder)")
    ax.set_ylabel("probability of representation learning $p_r$")
    ax.legend()
    fig.tight_layout()
    return fig

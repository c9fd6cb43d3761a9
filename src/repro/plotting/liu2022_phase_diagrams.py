"""Figures of the chapter ``book/liu2022_phase_diagrams``; the runs they show are made by
:mod:`repro.experiments.liu2022_phase_diagrams`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2022_phase_diagrams import PANEL_TITLES, PhaseDiagram, _with_seed_axis, official_map
from repro.plotting.shared import plot_phase_diagram


def annotate_consensus(ax, seed_phases: np.ndarray, majority: np.ndarray, x_plot, y_plot) -> None:
    """Write "k/S" on each cell of a drawn majority map where only k of the S seeds are in the majority
    phase (cells where every seed agrees stay clean). ``x_plot``/``y_plot``: the cell centres as drawn."""
    sp = _with_seed_axis(np.asarray(seed_phases, dtype=object))
    n = sp.shape[0]
    if n == 1:
        return
    agree = (sp == np.asarray(majority, dtype=object)[None]).sum(axis=0)
    for j, y in enumerate(y_plot):
        for i, x in enumerate(x_plot):
            if agree[j, i] < n:
                ax.text(x, y, f"{agree[j, i]}/{n}", ha="center", va="center", fontsize=7, color="w",
                        bbox=dict(boxstyle="round,pad=0.1", fc="0.2", ec="none", alpha=0.6))


def plot_phase_diagrams(diagrams: dict[str, PhaseDiagram], *, official: bool = False):
    """Fig. 6: one phase map per panel (x: decoder lr; y: representation lr or decoder weight decay).

    Book-scale axes show the paper-equivalent learning rates (actual lr / time_scale), so the maps line
    up with the paper's. Our maps show each cell's majority phase over seeds, with "k/S" on the cells
    where only k of the S seeds agree, and the agreement with the official map (mean over seeds) in the
    title (a figure is not compared by nbval, so trajectory-level numbers live here). With
    ``official=True`` a second row shows the official maps.
    """
    n = len(diagrams)
    rows = 2 if official else 1
    fig, axes = plt.subplots(rows, n, figsize=(3.3 * n + 1.6, 3.1 * rows), squeeze=False)
    for col, (panel, d) in enumerate(diagrams.items()):
        cfg = d.config
        suffix = f"\nours: {cfg.steps:,} steps" + ("" if cfg.time_scale == 1 else f" at lr x{cfg.time_scale:g}")
        if d.n_seeds > 1:
            suffix += f", majority of {d.n_seeds} seeds"
        suffix += f"\ncells with the official phase: {d.agreement():.2f}"
        for row in range(rows):
            ax = axes[row, col]
            if row == 0:
                phases, xs, ys, title = d.phases, cfg.lr_dec_values, cfg.y_values, PANEL_TITLES[panel] + suffix
            else:
                off = official_map(panel)
                phases, xs, ys, title = off.phases, off.x_values, off.y_values, f"official {panel}: 10^5 steps"
            order = np.argsort(ys)  # pcolormesh wants increasing y; (b)-(d) are flipped below
            phases = np.asarray(phases, dtype=object)[order]
            ys = np.asarray(ys, dtype=float)[order]
            uneven = panel == "d"  # wd 0 ... 200 on a ragged grid: draw rows evenly, label them by value
            y_plot = np.arange(len(ys), dtype=float) if uneven else ys
            plot_phase_diagram(phases, xs, y_plot, ax=ax, xlabel="decoder lr (paper-equivalent)" if row == 0 else "decoder lr",
                               ylabel=cfg.y_label, title=title, logy=panel == "a", legend=col == n - 1 and row == 0)
            if row == 0:
                annotate_consensus(ax, d.seed_phases[:, order], phases, np.log10(xs),
                                   np.log10(y_plot) if panel == "a" else y_plot)
            if uneven:
                ax.set_yticks(y_plot, [f"{v:g}" for v in ys])
            if panel != "a":  # weight decay increases downward, as in the paper (imshow default)
                ax.invert_yaxis()
    fig.tight_layout()
    return fig


def plot_phase_examples(diagrams: dict[str, PhaseDiagram]):
    """Beside Fig. 6: one run of each phase per panel (rows: panels; columns: the four phases), its training and
    validation accuracy against paper-equivalent step (log axis). The panel of a phase the map never shows is
    left empty and says so."""
    from repro.metrics.phases import PHASES
    from repro.plotting.shared import PHASE_COLORS, TRAIN_COLOR, VAL_COLOR

    fig, axes = plt.subplots(len(diagrams), len(PHASES), figsize=(2.6 * len(PHASES), 1.9 * len(diagrams)),
                             sharex=True, sharey=True, squeeze=False)
    for row, (panel, d) in enumerate(diagrams.items()):
        for col, phase in enumerate(PHASES):
            ax = axes[row, col]
            ax.set_xscale("log")
            ax.set_ylim(-0.05, 1.05)
            example = d.examples.get(phase)
            if example is None:
                ax.text(0.5, 0.5, "not in this map", ha="center", va="center", transform=ax.transAxes, color="0.4")
                ax.set_title(f"({panel}) {phase}", fontsize=8)
            else:
                steps = np.maximum(example.steps, 1)
                ax.axhline(d.config.threshold, color="0.5", lw=0.8, ls=":")
                ax.plot(steps, example.train_acc, color=TRAIN_COLOR, lw=1.2, label="train")
                ax.plot(steps, example.val_acc, color=VAL_COLOR, lw=1.2, label="validation")
                y_name = "repr. lr" if d.config.y_field == "lr_repr" else "wd"
                ax.set_title(f"({panel}) {phase}\ndecoder lr {example.lr_dec:.1e}, {y_name} {example.y:.2g}",
                             fontsize=8)
            for spine in ax.spines.values():  # the frame in the map's colour of the phase
                spine.set_edgecolor(PHASE_COLORS[phase])
                spine.set_linewidth(2.0)
            if col == 0:
                ax.set_ylabel("accuracy")
            if row == len(diagrams) - 1:
                ax.set_xlabel("step (paper-equivalent)")
    handles = [plt.Line2D([], [], color=TRAIN_COLOR, lw=1.2), plt.Line2D([], [], color=VAL_COLOR, lw=1.2),
               plt.Line2D([], [], color="0.5", lw=0.8, ls=":")]
    fig.legend(handles, ["train accuracy", "validation accuracy", "90 % (Table 1)"], loc="upper center", ncol=3,
               fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.96))  # room for the legend above the panels, clear of every curve
    return fig

"""Figures of the chapter ``book/liu2022_phase_diagrams``; the runs they show are made by
:mod:`repro.experiments.liu2022_phase_diagrams`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2022_phase_diagrams import PANEL_TITLES, PhaseDiagram, _with_seed_axis, official_map
from repro.plotting.shared import plot_phase_diagram
from repro.plotting.shared import plot_phase_examples as shared_examples


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
    """Fig. 6: one phase map per panel (x: decoder lr; y: representation lr or decoder weight decay), one panel per
    row; with ``official=True`` the official map beside ours, so each comparison reads across a row.

    Book-scale axes show the paper-equivalent learning rates (actual lr / time_scale), so the maps line
    up with the paper's. Our maps show each cell's majority phase over seeds, with "k/S" on the cells
    where only k of the S seeds agree, and the agreement with the official map (mean over seeds) in the
    title (a figure is not compared by nbval, so trajectory-level numbers live here).
    """
    n, cols = len(diagrams), 2 if official else 1
    fig, axes = plt.subplots(n, cols, figsize=(3.9 * cols + 1.9, 3.2 * n), squeeze=False)
    for row, (panel, d) in enumerate(diagrams.items()):
        cfg = d.config
        ours = f"ours: {cfg.steps:,} steps" + ("" if cfg.time_scale == 1 else f" at lr x{cfg.time_scale:g}")
        if d.n_seeds > 1:
            ours += f",\nmajority of {d.n_seeds} seeds"
        ours += f"; cells with the official phase: {d.agreement():.2f}"
        for col in range(cols):
            ax = axes[row, col]
            if col == 0:
                phases, xs, ys, title = d.phases, cfg.lr_dec_values, cfg.y_values, f"{PANEL_TITLES[panel]}\n{ours}"
            else:
                off = official_map(panel)
                phases, xs, ys, title = off.phases, off.x_values, off.y_values, f"official {panel}: 10^5 steps"
            order = np.argsort(ys)  # pcolormesh wants increasing y; (b)-(d) are flipped below
            phases = np.asarray(phases, dtype=object)[order]
            ys = np.asarray(ys, dtype=float)[order]
            uneven = panel == "d"  # wd 0 ... 200 on a ragged grid: draw rows evenly, label them by value
            y_plot = np.arange(len(ys), dtype=float) if uneven else ys
            plot_phase_diagram(phases, xs, y_plot, ax=ax, xlabel="decoder lr (paper-equivalent)" if col == 0 else "decoder lr",
                               ylabel=cfg.y_label, logy=panel == "a", legend=row == 0 and col == cols - 1)
            ax.set_title(title, fontsize=10.5)
            if col == 0:
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
    validation accuracy against paper-equivalent step (log axis)."""
    threshold = next(iter(diagrams.values())).config.threshold
    return shared_examples({f"({panel})": d.examples for panel, d in diagrams.items()}, threshold=threshold,
                           threshold_label=f"{threshold * 100:g} % (Table 1)", xlabel="step (paper-equivalent)")

"""The book's house style and the plots every chapter reuses.

* :func:`use_style` — one look for every figure (sizes, fonts, grid), set once per chapter.
* :func:`plot_training_curves` — accuracy or loss against optimisation step on a log axis, with
  optional vertical markers (e.g. the steps where each curve crosses 99 %).
* :func:`plot_phase_examples` — beside a phase map, one run of each phase: its train and validation curves.
* :func:`plot_phase_diagram` — a 4-phase map with **fixed colours** (those of the official plotting
  code of Liu et al. 2022, grokking-squared toy/Figure5.ipynb) so comprehension / grokking / memorization / confusion read the
  same in every chapter.
"""
from __future__ import annotations

from typing import Sequence

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from repro.metrics.phases import PHASES

PHASE_COLORS = {  # the official plotting code's RGB values (grokking-squared toy/Figure5.ipynb)
    "comprehension": (160 / 255, 218 / 255, 57 / 255),
    "grokking": (253 / 255, 231 / 255, 37 / 255),
    "memorization": (70 / 255, 50 / 255, 126 / 255),
    "confusion": (30 / 255, 30 / 255, 30 / 255),
}
TRAIN_COLOR, VAL_COLOR = "#1f77b4", "#d62728"

STYLE = {
    "figure.figsize": (6.4, 4.0),
    # the book shows an 11-inch-wide figure at page width (about 800 px): 120 dpi keeps it sharp on high-density
    # screens, and the fonts below keep its labels about 9-11 px there
    "figure.dpi": 120,
    "savefig.dpi": 120,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 13,
    "axes.labelsize": 12,
    "legend.fontsize": 10.5,
    "legend.frameon": False,
    "font.size": 12,
    "svg.hashsalt": "repro",  # deterministic ids should anyone switch to SVG
}


def seed_jitter(values: np.ndarray, seeds: np.ndarray, width: float) -> np.ndarray:
    """Deterministic horizontal offsets so that seeds at the same x (e.g. a training fraction) do not overlap."""
    u = np.unique(seeds)
    k = np.searchsorted(u, seeds)
    return values + width * (k - (len(u) - 1) / 2) / max(1, len(u))


def use_style() -> None:
    """Apply the house style (call once at the top of a chapter)."""
    mpl.rcParams.update(STYLE)


def plot_training_curves(steps: np.ndarray, curves: dict[str, np.ndarray], *, ax=None, ylabel: str = "accuracy",
                         markers: dict[str, float] | None = None, title: str | None = None, logy: bool = False):
    """Curves against step on a log x axis (step 0 is drawn at step 1).

    ``curves``: label -> values (T,), or (R, T) to draw every run thinly and the mean thickly.
    ``markers``: label -> step for dashed vertical lines (e.g. "train ≥ 99 %").
    """
    if ax is None:
        _, ax = plt.subplots()
    x = np.maximum(np.asarray(steps), 1)
    colors = {"train": TRAIN_COLOR, "validation": VAL_COLOR}
    for label, values in curves.items():
        values = np.asarray(values, dtype=float)
        color = next((c for key, c in colors.items() if label.lower().startswith(key)), None)
        if values.ndim == 2 and values.shape[0] > 1:
            for row in values:
                ax.plot(x, row, color=color, alpha=0.25, lw=0.8)
            values = values.mean(axis=0)
        line, = ax.plot(x, values.reshape(-1), label=label, color=color, lw=1.8)
    for label, step in (markers or {}).items():
        if step is not None and step > 0:
            ax.axvline(step, ls="--", lw=1, color="0.4")
            ax.annotate(label, (step, 0.02), xycoords=("data", "axes fraction"), rotation=90, va="bottom",
                        ha="right", fontsize=9, color="0.3")
    ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("optimization step")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(loc="best")
    return ax


def plot_phase_diagram(phases: np.ndarray, x_values: Sequence[float], y_values: Sequence[float], *, ax=None,
                       xlabel: str, ylabel: str, title: str | None = None, logx: bool = True, logy: bool = False,
                       legend: bool = True):
    """Draw a phase map: ``phases`` is (len(y_values), len(x_values)) of phase names (or indices into PHASES).

    Cells are drawn as coloured rectangles at their grid positions (log-spaced axes are handled by
    plotting in log10 coordinates and labelling ticks with the real values).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(5.2, 4.2))
    idx = np.vectorize(lambda v: PHASES.index(v) if isinstance(v, str) else int(v))(np.asarray(phases, dtype=object))
    xs = np.log10(np.asarray(x_values, dtype=float)) if logx else np.asarray(x_values, dtype=float)
    ys = np.log10(np.asarray(y_values, dtype=float)) if logy else np.asarray(y_values, dtype=float)
    if idx.shape != (len(ys), len(xs)):
        raise ValueError(f"phases has shape {idx.shape}; expected (len(y_values), len(x_values)) = ({len(ys)}, {len(xs)}).")
    cmap = ListedColormap([PHASE_COLORS[p] for p in PHASES])
    ax.pcolormesh(_edges(xs), _edges(ys), idx, cmap=cmap, vmin=-0.5, vmax=len(PHASES) - 0.5, shading="flat")
    ax.set_xlabel(xlabel + (" (log10)" if logx else ""))
    ax.set_ylabel(ylabel + (" (log10)" if logy else ""))
    ax.grid(False)
    if title:
        ax.set_title(title)
    if legend:
        handles = [Patch(color=PHASE_COLORS[p], label=p) for p in PHASES]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return ax


def plot_phase_examples(rows: dict, *, threshold: float | tuple[float, float], threshold_label: str, xlabel: str = "step",
                        val_label: str = "validation accuracy", stopped_note: bool = False):
    """Beside a phase map: one run of each phase (columns: the four phases), its training and validation accuracy
    against step (log axis). ``rows``: row label ("" for none) -> {phase: :class:`repro.metrics.phases.PhaseExample`}, one
    row per map; a phase a map never shows is left empty and says so. ``threshold``: one for both curves, or (train,
    validation), each drawn in its curve's colour. ``stopped_note``: say where a curve ends because its
    run left the batch once its phase was decided."""
    fig, axes = plt.subplots(len(rows), len(PHASES), figsize=(2.9 * len(PHASES), 2.6 * len(rows) + 0.5),
                             sharex=True, sharey=True, squeeze=False)
    for i, (label, examples) in enumerate(rows.items()):
        for j, phase in enumerate(PHASES):
            _plot_example(axes[i, j], label, phase, examples.get(phase), threshold, stopped_note)
            if j == 0:
                axes[i, j].set_ylabel("accuracy")
            if i == len(rows) - 1:
                axes[i, j].set_xlabel(xlabel)
    handles = [plt.Line2D([], [], color=TRAIN_COLOR, lw=1.4), plt.Line2D([], [], color=VAL_COLOR, lw=1.4),
               plt.Line2D([], [], color="0.5", lw=0.8, ls=":")]
    fig.legend(handles, ["train accuracy", val_label, threshold_label], loc="upper center", ncol=3,
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.4 / (2.6 * len(rows) + 0.5)))  # room for the legend above the panels
    return fig


def _short(v: float) -> str:
    """A grid value in few characters: 0.3, 10, 3.2e-4."""
    v = float(v)
    if v == 0 or 1e-2 <= abs(v) < 1e3:
        return f"{v:.2g}"
    mantissa, exp = f"{v:.1e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exp)}"


def _plot_example(ax, label: str, phase: str, example, threshold, stopped_note: bool) -> None:
    ax.set_xscale("log")
    ax.set_ylim(-0.05, 1.05)
    for spine in ax.spines.values():  # the frame in the map's colour of the phase
        spine.set_visible(True)
        spine.set_edgecolor(PHASE_COLORS[phase])
        spine.set_linewidth(2.0)
    if example is None:
        ax.text(0.5, 0.5, "not in this map", ha="center", va="center", transform=ax.transAxes, color="0.4")
        ax.set_title(f"{label}: {phase}" if label else phase, fontsize=11)
        return
    steps = np.maximum(np.asarray(example.steps, dtype=float), 1)
    if isinstance(threshold, tuple):  # separate train and validation thresholds, each in its curve's colour
        ax.axhline(threshold[0], color=TRAIN_COLOR, lw=0.8, ls=":")
        ax.axhline(threshold[1], color=VAL_COLOR, lw=0.8, ls=":")
    else:
        ax.axhline(threshold, color="0.5", lw=0.8, ls=":")
    ax.plot(steps, example.train_acc, color=TRAIN_COLOR, lw=1.4)
    ax.plot(steps, example.val_acc, color=VAL_COLOR, lw=1.4)
    kept = ~np.isnan(np.asarray(example.train_acc, dtype=float))
    if stopped_note and not kept[-1] and kept.any():
        ax.axvline(steps[kept][-1], color="0.3", lw=0.8, ls="--")
        ax.text(0.03, 0.95, "run stops where\nits phase is decided", ha="left", va="top", transform=ax.transAxes,
                fontsize=9, color="0.3")
    cell = ", ".join(f"{k} {_short(v)}" for k, v in example.cell.items())
    ax.set_title((f"{label}: {phase}" if label else phase) + f"\n{cell}", fontsize=11)


def _edges(centres: np.ndarray) -> np.ndarray:
    c = np.asarray(centres, dtype=float)
    if len(c) == 1:
        return np.array([c[0] - 0.5, c[0] + 0.5])
    mid = (c[:-1] + c[1:]) / 2
    return np.concatenate([[c[0] - (mid[0] - c[0])], mid, [c[-1] + (c[-1] - mid[-1])]])


def plot_seed_band(ax, x: np.ndarray, values: np.ndarray, *, label: str, color=None, band: str = "quartiles",
                   every_seed: bool = True):
    """Spread over seeds: ``values`` is (S, T); draws each seed faintly, the median thickly and the
    inter-quartile band (``band="quartiles"``) or the full range (``band="range"``) shaded."""
    values = np.asarray(values, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"values has shape {values.shape}; expected (seeds, points).")
    if band not in ("quartiles", "range"):
        raise ValueError(f"band={band!r} is not allowed: band must be 'quartiles' or 'range'.")
    lo, hi = (np.quantile(values, [0.25, 0.75], axis=0) if band == "quartiles"
              else (values.min(axis=0), values.max(axis=0)))
    if every_seed and values.shape[0] > 1:
        for row in values:
            ax.plot(x, row, color=color, alpha=0.2, lw=0.6)
    ax.fill_between(x, lo, hi, color=color, alpha=0.2, lw=0)
    ax.plot(x, np.median(values, axis=0), color=color, lw=1.8,
            label=f"{label} (median of {values.shape[0]} seeds)" if values.shape[0] > 1 else label)
    return ax


def plot_token_pca(ax, embeddings: np.ndarray, title: str, *, title_size: float | None = None):
    """Token embeddings (p, d) on their first two principal components, each point coloured (cyclic colour
    map) and labelled by its token, equal axes: the panel of Liu et al. 2022 Fig. 1, where an ordered circle
    shows as the colours running once (or k times) around it."""
    from repro.metrics.representation import pca

    proj, ratios = pca(embeddings)
    p = len(embeddings)
    ax.scatter(proj[:, 0], proj[:, 1], c=np.arange(p), cmap="twilight", s=30)
    for token in range(p):
        ax.annotate(str(token), proj[token, :2], fontsize=7, ha="center", va="bottom")
    ax.set_xlabel(f"PC1 ({100 * ratios[0]:.0f} % of variance)")
    ax.set_ylabel(f"PC2 ({100 * ratios[1]:.0f} % of variance)")
    ax.set_title(title, fontsize=title_size)
    ax.set_aspect("equal", adjustable="datalim")
    return ax

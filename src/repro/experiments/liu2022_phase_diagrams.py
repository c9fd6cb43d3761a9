"""Phase diagrams of the toy model of Liu et al. 2022 (Fig. 6, §4.1 and App. G; official phase_diagram_plot/).

Each panel is one batched sweep (:func:`repro.training.sweep.sweep`) over decoder learning rate (x) and a second
knob (y): the representation learning rate in panel (a), the decoder weight decay in (b)–(d). Every
cell is classified into comprehension / grokking / memorization / confusion by the rule of Table 1
(:class:`repro.metrics.phases.PhaseRule`). All cells of a panel share one seed, hence one split, one set of
templates and one initialization, as in the official sweeps (phase_diagram_plot/phase_diagram*.ipynb).

Seeds: a cell near a phase boundary flips phase with the last bits of float32 rounding (training is
chaotic), so one initialization per cell is a statement about noise. With ``n_seeds`` > 1 the panel
keeps the official split and templates (data seed ``seed``) and trains ``n_seeds`` initializations
(init seeds ``seed``, ``seed + 1``, ...) of every cell, as a leading seed axis of the same batched
sweep. :class:`PhaseDiagram` keeps every seed's map; its ``phases`` is the per-cell majority and the
statistics of the chapter are averages or medians over seeds.

Paper scale (:meth:`ToyPhaseConfig.paper`) is the official grid and budget of 10^5 steps.

Book scale (:meth:`ToyPhaseConfig.for_scale`) compresses time: every learning rate (representation and
decoder) is multiplied by ``time_scale`` = 5 and the step budget and the comprehension gap are divided
by it. For Adam, whose step length is proportional to its learning rate, a run with learning rates
k·η for n/k steps follows roughly the path of a run with η for n steps; AdamW's decoupled decay
(a factor 1 − lr·wd per step) is compressed the same way, so the weight-decay axis is unchanged. A
book cell at decoder lr k·η is therefore compared with the official cell at η. The approximation
breaks for the largest learning rates (Adam at lr ≥ 10^-2 no longer follows gradient flow), which the
chapter reports as a deviation. The grids are coarser (6 × 6 cells of the official grids).

Used by ``book/liu2022_phase_diagrams`` (Fig. 6) and, for the statistics of the image phase maps (Fig. 8),
``book/liu2022_transformer_and_images``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from repro.core.files import load_paper_data
from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_fraction, check_int, check_real
from repro.data.tasks import BinaryOpTask, Split, TaskData, build_task_data
from repro.metrics.agreement import Kappa, cohen_kappa
from repro.metrics.phases import (PHASES, PhaseExample, PhaseRule, classify, classify_history, example_runs,
                                  phase_counts)
from repro.models.networks import EmbedMLPConfig
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.sweep import sweep
from repro.training.trainer import TrainConfig

PANELS = ("a", "b", "c", "d")
PANEL_TITLES = {
    "a": "(a) addition, regression, decoder wd 0",
    "b": "(b) addition, regression",
    "c": "(c) addition, classification",
    "d": "(d) S3 (permutations), regression",
}
PHASE_LETTERS = {"C": "comprehension", "G": "grokking", "M": "memorization", "X": "confusion"}
BOOK_SEEDS = 1  # initializations per cell at book scale (each seed of the four panels costs ~3 CPU-minutes)


def _log_grid(lo: float, hi: float, n: int) -> tuple[float, ...]:
    return tuple(float(v) for v in 10 ** np.linspace(lo, hi, n))


_PAPER_LRS = _log_grid(-5, -2, 16)  # decoder lr 10^linspace(-5,-2,16), the grid of the official Fig. 6 HDF5 files

# Official phase maps: our classification of the HDF5 files of the paper's Fig. 6 (ejmichaud/grokking-squared,
# phase_diagram_plot/*.h5) with the official rule (phase_diagram_plot/simple_phase_diagram.ipynb, Table 1), kept
# with their provenance in data/official/liu2022_fig6_official_phases.json. Per panel, rows: y values (top = first);
# columns: decoder lr. C/G/M/X = comprehension/grokking/memorization/confusion.
_OFFICIAL_ROWS = load_paper_data("liu2022_fig6_official_phases")
_OFFICIAL_Y = {
    "a": _log_grid(-2, -5, 13),  # representation lr, top row first
    "b": tuple(float(v) for v in range(11)),  # decoder wd 0..10
    "c": tuple(float(v) for v in range(0, 21, 2)),  # decoder wd 0, 2, ..., 20
    "d": (0.0, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 50.0, 100.0, 200.0),
}
_OFFICIAL_X = {"a": _log_grid(-5, -2, 13), "b": _PAPER_LRS, "c": _PAPER_LRS, "d": _PAPER_LRS}
OFFICIAL_COUNTS = {  # phase counts of the maps above (our classification of the official HDF5 files)
    "a": {"comprehension": 29, "grokking": 31, "memorization": 109, "confusion": 0},
    "b": {"comprehension": 17, "grokking": 60, "memorization": 60, "confusion": 39},
    "c": {"comprehension": 30, "grokking": 85, "memorization": 50, "confusion": 11},
    "d": {"comprehension": 73, "grokking": 31, "memorization": 62, "confusion": 10},
}


@dataclass(frozen=True)
class OfficialMap:
    """The paper's phase map of one panel (from the official data): phases (ny, nx) with its axes."""

    panel: str
    phases: np.ndarray
    x_values: tuple[float, ...]  # decoder lr
    y_values: tuple[float, ...]

    def nearest(self, lr_dec: float, y: float, log_y: bool) -> tuple[int, int]:
        """(row, column) of the official cell nearest to (lr_dec, y) (log distance in lr, and in y when ``log_y``)."""
        i = int(np.argmin(np.abs(np.log10(self.x_values) - np.log10(lr_dec))))
        ys = np.log10(self.y_values) if log_y else np.asarray(self.y_values)
        j = int(np.argmin(np.abs(ys - (np.log10(y) if log_y else y))))
        return j, i

    def at(self, lr_dec: float, y: float, log_y: bool) -> str:
        """Phase of the official cell nearest to (lr_dec, y) (log distance in lr, and in y when ``log_y``)."""
        j, i = self.nearest(lr_dec, y, log_y)
        return str(self.phases[j, i])

    def on_boundary(self, row: int, col: int) -> bool:
        """Whether the official cell (row, col) has a different phase in one of its four neighbours (one official
        grid step along either axis): there, a boundary shifted by one grid step, or another seed, changes its phase."""
        ny, nx = self.phases.shape
        here = self.phases[row, col]
        return any(0 <= j < ny and 0 <= i < nx and self.phases[j, i] != here
                   for j, i in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)))


def official_map(panel: str) -> OfficialMap:
    check_choice("panel", panel, PANELS)
    rows = _OFFICIAL_ROWS[panel]
    phases = np.array([[PHASE_LETTERS[c] for c in row] for row in rows], dtype=object)
    assert phases.shape == (len(_OFFICIAL_Y[panel]), len(_OFFICIAL_X[panel]))
    return OfficialMap(panel, phases, _OFFICIAL_X[panel], _OFFICIAL_Y[panel])


def official_rerun_map() -> OfficialMap:
    """Fig. 6(d) as the official repository re-ran it (``toy/results/fig5d``: toy/Figure5d_permutation.ipynb, seed 0,
    10 decoder lrs, 1e4 steps), classified by the official rule within its budget (9999 in its files: never)."""
    d = load_paper_data("liu2022_fig6d_official_rerun")
    budget = int(d["budget"])
    never = lambda steps: np.where(np.asarray(steps) >= budget - 1, -1, np.asarray(steps))  # noqa: E731
    phases = classify(never(d["train_steps"]), never(d["test_steps"]))
    return OfficialMap("d", phases, tuple(d["decoder_lr"]), tuple(float(w) for w in d["weight_decay"]))


def shared_cells(a: OfficialMap, b: OfficialMap) -> tuple[np.ndarray, np.ndarray]:
    """The two maps' phases at the cells both have: the decoder lrs both share (equal to 1e-9 in log10) and their
    common y values, as two arrays of one shape (rows in ``a``'s order). No shared cell is an error."""
    cols = [(i, j) for i, x in enumerate(a.x_values) for j, y in enumerate(b.x_values)
            if abs(np.log10(x) - np.log10(y)) < 1e-9]
    rows = [(i, j) for i, x in enumerate(a.y_values) for j, y in enumerate(b.y_values) if x == y]
    if not cols or not rows:
        raise ValueError(f"the maps of panels {a.panel!r} and {b.panel!r} share no cell (decoder lr and y value).")
    pick = lambda m, which: np.array([[m.phases[r[which], c[which]] for c in cols] for r in rows], dtype=object)  # noqa: E731
    return pick(a, 0), pick(b, 1)


def shared_cell_agreement(a: OfficialMap, b: OfficialMap) -> tuple[int, int]:
    """(cells with the same phase, cells compared) over the cells both maps have (:func:`shared_cells`)."""
    pa, pb = shared_cells(a, b)
    return int((pa == pb).sum()), int(pa.size)


def shared_cell_kappa(a: OfficialMap, b: OfficialMap) -> Kappa:
    """Cohen's kappa (:func:`repro.metrics.agreement.cohen_kappa`, over the four phases) between two maps at the
    cells both have (:func:`shared_cells`)."""
    return cohen_kappa(*shared_cells(a, b), categories=PHASES)


def diagram_map(diagram: "PhaseDiagram", budget: int | None = None) -> OfficialMap:
    """A one-seed diagram as a map on its (paper-equivalent) axes, to set beside another map with
    :func:`shared_cells`. ``budget``: read its phases as a run of that many steps would have ended (a first step
    at or after ``budget`` counts as never), e.g. at the 1e4 steps of the official re-run; None: its own budget."""
    if diagram.n_seeds != 1:
        raise ValueError(f"diagram_map reads a one-seed map; this diagram has {diagram.n_seeds} seeds.")
    if budget is None:
        phases = diagram.seed_phases[0]
    else:
        check_int("budget", budget, minimum=1)
        within = lambda s: np.where((s >= 0) & (s < budget), s, -1)  # noqa: E731
        phases = classify(within(diagram.train_steps[0]), within(diagram.val_steps[0]), gap=diagram.config.gap)
    cfg = diagram.config
    return OfficialMap(cfg.panel, np.asarray(phases, dtype=object), tuple(cfg.lr_dec_values), tuple(cfg.y_values))


def with_columns_reversed(m: OfficialMap) -> OfficialMap:
    """The map with its phases' decoder-lr order reversed under the same axis values: how
    toy/Figure5d_permutation.ipynb plots its re-run (``plt.imshow(RGB[:,::-1])`` under ticks 1e-5 ... 1e-2)."""
    return OfficialMap(m.panel, np.asarray(m.phases, dtype=object)[:, ::-1], m.x_values, m.y_values)


def shifted_kappa(official: OfficialMap, axis: str = "decoder lr") -> Kappa:
    """Cohen's kappa of an official map against itself moved one official grid step along ``axis`` ("decoder lr":
    the columns; "y": the rows), over the cells the two overlap: what a map whose every boundary sits one grid step
    off the official one scores, the grid's own resolution (the chapter's kappa band rests on it)."""
    check_choice("axis", axis, ("decoder lr", "y"))
    p = official.phases
    a, b = (p[:, 1:], p[:, :-1]) if axis == "decoder lr" else (p[1:], p[:-1])
    return cohen_kappa(a, b, categories=PHASES)


def shuffled_kappas(phases: np.ndarray, reference: np.ndarray, n_shuffles: int = 200, seed: int = 0) -> np.ndarray:
    """Cohen's kappa against ``reference`` of ``n_shuffles`` copies of ``phases`` with their cells permuted at random
    (generator ``np.random.default_rng(seed)``): layouts with exactly ``phases``' phase shares and no relation to the
    reference's cells, so their share differences are ``phases``' own and their kappas scatter about 0."""
    check_int("n_shuffles", n_shuffles, minimum=1)
    flat, ref = np.asarray(phases, dtype=object).ravel(), np.asarray(reference, dtype=object)
    if flat.size != ref.size:
        raise ValueError(f"phases has {flat.size} cells, reference {ref.size}: kappa compares the same cells.")
    rng = np.random.default_rng(seed)
    return np.array([cohen_kappa(rng.permutation(flat).reshape(ref.shape), ref, categories=PHASES).kappa
                     for _ in range(n_shuffles)])


@dataclass(frozen=True, repr=False)
class ToyPhaseConfig(ConfigRepr):
    """One panel of Fig. 6. Defaults are panel (b) at the paper's settings; use :meth:`paper` /
    :meth:`for_scale` to get any panel."""

    panel: str = "b"
    operation: str = "addition"  # (a)-(c): p = 10 addition; (d): S3 (App. H)
    target: str = "regression"  # (c) is classification (CE)
    n_train: int = 45  # §4.1: 45/10 split; S3: 24/12
    seed: int = 58  # one seed per diagram (official sweep notebooks): regression 58, classification 6, S3 0
    lr_dec_values: tuple[float, ...] = _PAPER_LRS  # x axis: 10^linspace(-5,-2,16) (official HDF5)
    y_values: tuple[float, ...] = _OFFICIAL_Y["b"]  # decoder wd (b-d) or representation lr (a)
    lr_repr: float = 1e-3  # §4.1: embedding lr 1e-3 in (b)-(d); unused in (a)
    repr_init_scale: float = 1.0  # embeddings U[-s/2, s/2], s = 1 (App. G, toy/train_add.py); S3 latent s = 0.1
    steps: int = 100_000  # budget 10^5 steps (App. A, Table 1)
    gap: int = 1000  # comprehension: val step - train step < 10^3 (Table 1)
    threshold: float = 0.9  # 90 % train / val accuracy (Table 1)
    time_scale: float = 1.0  # book scale: all lrs x k, budget and gap / k (see module docstring)
    eval_every: int = 1  # the official code logs every step
    embed_l1: float = 0.0  # extra loss embed_l1 * mean|E|: 1e-3 in the official toy/Figure5d_permutation.ipynb
    n_seeds: int = 1  # initializations per cell (init seeds seed, seed + 1, ...); split and templates stay seed's

    def __post_init__(self):
        check_choice("panel", self.panel, PANELS)
        check_choice("operation", self.operation, ("addition", "s3"))
        check_choice("target", self.target, ("regression", "classification"))
        check_int("n_train", self.n_train, minimum=1)
        check_int("seed", self.seed, minimum=0)
        for name in ("lr_dec_values", "y_values"):
            values = getattr(self, name)
            if not isinstance(values, tuple) or len(values) == 0:
                raise ValueError(f"{name}={values!r} is not allowed: it must be a non-empty tuple of numbers.")
            for v in values:
                check_real(name, v, nonnegative=True)
        for v in self.lr_dec_values:
            check_real("lr_dec_values", v, positive=True)
        if self.panel == "a":
            for v in self.y_values:
                check_real("y_values (representation lr)", v, positive=True)
        check_real("lr_repr", self.lr_repr, positive=True)
        check_real("repr_init_scale", self.repr_init_scale, positive=True)
        check_int("steps", self.steps, minimum=1)
        check_int("gap", self.gap, minimum=0)
        check_fraction("threshold", self.threshold)
        check_real("time_scale", self.time_scale, positive=True)
        check_int("eval_every", self.eval_every, minimum=1)
        check_real("embed_l1", self.embed_l1, nonnegative=True)
        check_int("n_seeds", self.n_seeds, minimum=1)

    @property
    def init_seeds(self) -> tuple[int, ...]:
        """The initialization seed of each of the ``n_seeds`` maps (the first is the official seed)."""
        return tuple(range(self.seed, self.seed + self.n_seeds))

    @property
    def y_field(self) -> str:
        return "lr_repr" if self.panel == "a" else "wd_dec"

    @property
    def y_label(self) -> str:
        return "representation learning rate" if self.panel == "a" else "decoder weight decay"

    @property
    def paper_steps(self) -> int:
        """The budget in paper-equivalent steps (steps x time_scale)."""
        return int(round(self.steps * self.time_scale))

    @classmethod
    def paper(cls, panel: str) -> "ToyPhaseConfig":
        """The official grid, seed and budget of panel (a), (b), (c) or (d) (official phase_diagram_plot/*.h5)."""
        check_choice("panel", panel, PANELS)
        base = cls(panel=panel, lr_dec_values=_OFFICIAL_X[panel], y_values=_OFFICIAL_Y[panel])
        if panel == "c":
            return replace(base, target="classification", seed=6)
        if panel == "d":
            return replace(base, operation="s3", n_train=24, seed=0, repr_init_scale=0.1, embed_l1=1e-3)
        return base

    @classmethod
    def book(cls, panel: str, n_seeds: int = BOOK_SEEDS) -> "ToyPhaseConfig":
        """6 x 6 cells of the official grid, time compressed 5x: 3,000 steps (= 1.5 x 10^4 paper steps),
        ``n_seeds`` initializations per cell."""
        paper = cls.paper(panel)
        k = 5.0
        lrs = _log_grid(-5, -2, 6) if panel != "a" else _log_grid(-4.5, -2, 6)
        ys = {"a": _log_grid(-2, -4.5, 6), "b": (0.0, 2.0, 4.0, 6.0, 8.0, 10.0),
              "c": (0.0, 4.0, 8.0, 12.0, 16.0, 20.0), "d": (0.0, 3.0, 10.0, 30.0, 100.0, 200.0)}[panel]
        # S3 at book scale without the L1 term: with it, one run of this grid still had no comprehension
        # (see the chapter's deviations), so the book keeps the plain objective of panels (a)-(c).
        return replace(paper, lr_dec_values=lrs, y_values=ys, steps=3000, gap=200, time_scale=k, embed_l1=0.0,
                       n_seeds=n_seeds)

    @classmethod
    def for_scale(cls, panel: str) -> "ToyPhaseConfig":
        book = cls.book(panel)
        smoke = replace(book, lr_dec_values=book.lr_dec_values[::2], y_values=book.y_values[::2], steps=100, gap=10,
                        n_seeds=2)
        return by_scale(book=book, paper=cls.paper(panel), smoke=smoke)

    def task_data(self) -> TaskData:
        task = BinaryOpTask("addition", 10) if self.operation == "addition" else BinaryOpTask("s3")
        return build_task_data(task, Split(train_count=self.n_train, data_seed=self.seed), target=self.target)

    def model_config(self) -> EmbedMLPConfig:
        d_out = 30 if self.target == "regression" else 19  # templates in R^30, or 2p - 1 = 19 classes
        # S3: 3x3 matrices, decoder input E_a E_b flattened (App. H, official toy/Figure5d_permutation.ipynb)
        if self.operation == "s3":
            return EmbedMLPConfig(n_symbols=6, d_embed=9, combine="matmul", d_out=d_out)
        return EmbedMLPConfig(n_symbols=10, d_embed=1, combine="sum", d_out=d_out)

    def train_config(self) -> TrainConfig:
        k = self.time_scale
        return TrainConfig(steps=self.steps, lr_repr=self.lr_repr * k, lr_dec=1e-4, init_seed=self.seed,
                           repr_init_scale=self.repr_init_scale, eval_every=self.eval_every, embed_l1=self.embed_l1)

    def rule(self) -> PhaseRule:
        return PhaseRule(self.threshold, self.threshold, gap=self.gap, budget=self.steps)


@dataclass
class PhaseDiagram:
    """A swept panel. ``seed_phases`` (S, ny, nx): every seed's phase map; ``train_steps`` / ``val_steps``
    (S, ny, nx): the first steps to 90 % train / val accuracy (-1: never). One-seed (ny, nx) arrays are
    accepted and get a seed axis of length 1."""

    config: ToyPhaseConfig
    seed_phases: np.ndarray
    train_steps: np.ndarray
    val_steps: np.ndarray
    examples: dict = field(default_factory=dict)  # phase -> PhaseExample (live runs; stored diagrams keep none)

    def __post_init__(self):
        self.seed_phases = _with_seed_axis(np.asarray(self.seed_phases, dtype=object))
        self.train_steps = _with_seed_axis(np.asarray(self.train_steps))
        self.val_steps = _with_seed_axis(np.asarray(self.val_steps))

    @property
    def n_seeds(self) -> int:
        return int(self.seed_phases.shape[0])

    @property
    def phases(self) -> np.ndarray:
        """The majority phase of each cell over seeds (ties: see :func:`majority_phase`)."""
        return majority_phase(self.seed_phases)

    def phase_fractions(self, phase: str) -> np.ndarray:
        """(ny, nx): the fraction of seeds in ``phase`` at each cell."""
        check_choice("phase", phase, PHASES)
        return (self.seed_phases == phase).mean(axis=0)

    def consensus(self) -> np.ndarray:
        """(ny, nx): the fraction of seeds in the cell's majority phase."""
        return (self.seed_phases == self.phases[None]).mean(axis=0)

    def counts(self) -> dict[str, int]:
        """Phase counts of the majority map."""
        return phase_counts(self.phases)

    def mean_counts(self) -> dict[str, float]:
        """Phase counts per map, averaged over seeds."""
        return {p: float((self.seed_phases == p).sum() / self.n_seeds) for p in PHASES}

    def official_phases(self) -> np.ndarray:
        """The official phase at each of our cells (nearest official cell at paper-equivalent lrs)."""
        cfg, off = self.config, official_map(self.config.panel)
        out = np.empty(self.seed_phases.shape[1:], dtype=object)
        for j, y in enumerate(cfg.y_values):
            for i, lr in enumerate(cfg.lr_dec_values):
                out[j, i] = off.at(lr, y, log_y=cfg.panel == "a")
        return out

    def official_boundary(self) -> np.ndarray:
        """(ny, nx) bool: our cells whose nearest official cell lies on an official phase boundary
        (:meth:`OfficialMap.on_boundary`). Elsewhere the official phase is unambiguous."""
        cfg, off = self.config, official_map(self.config.panel)
        out = np.zeros(self.seed_phases.shape[1:], dtype=bool)
        for j, y in enumerate(cfg.y_values):
            for i, lr in enumerate(cfg.lr_dec_values):
                out[j, i] = off.on_boundary(*off.nearest(lr, y, log_y=cfg.panel == "a"))
        return out

    def interior_agreement(self) -> float:
        """Fraction of the (seed, cell) entries with the official phase, over the cells where the official phase
        is unambiguous (not on an official boundary, :meth:`official_boundary`)."""
        inside = ~self.official_boundary()
        if not inside.any():
            raise ValueError("interior_agreement: every cell of this grid lies on an official phase boundary.")
        return float((self.seed_phases == self.official_phases()[None])[:, inside].mean())

    def agreement(self) -> float:
        """Fraction of our (seed, cell) maps entries whose phase equals the official phase at the same
        (paper-equivalent) cell: the mean over seeds of each seed's cell-by-cell agreement."""
        return float((self.seed_phases == self.official_phases()[None]).mean())

    def comparison(self) -> "MapComparison":
        """The majority map against the official one, computed once: what the chapter prints and its claims judge."""
        off, inside = self.official_phases(), ~self.official_boundary()
        return MapComparison(
            official=off, interior_cells=int(inside.sum()),
            interior_differ=int(((self.phases != off) & inside).sum()),
            agreement=self.agreement(), interior_agreement=self.interior_agreement(),
            counts={p: (int((self.phases == p).sum()), int((off == p).sum())) for p in PHASES})

    def kappa(self) -> Kappa:
        """Cohen's kappa of the majority map against the official phases at the same cells
        (:func:`repro.metrics.agreement.cohen_kappa`): the cell agreement with what chance gives at these shares
        removed."""
        return cohen_kappa(self.phases, self.official_phases(), categories=PHASES)

    def seed_agreements(self) -> np.ndarray:
        """(S,): each seed's fraction of cells with the official phase."""
        return (self.seed_phases == self.official_phases()[None]).mean(axis=(1, 2))

    def fraction(self, phase: str, rows: slice = slice(None), cols: slice = slice(None)) -> float:
        """Fraction of the (seed, cell) entries of a block (rows = y index, cols = x index) in ``phase``."""
        check_choice("phase", phase, PHASES)
        return float((self.seed_phases[:, rows, cols] == phase).mean())

    def per_seed(self, statistic) -> np.ndarray:
        """``statistic(phases (ny, nx), y_values)`` evaluated on every seed's map: (S,)."""
        return np.array([float(statistic(p, self.config.y_values)) for p in self.seed_phases])


@dataclass(frozen=True)
class MapComparison:
    """A phase map against the official map (:meth:`PhaseDiagram.comparison`). ``official``: the official phase
    at each cell; ``interior_cells``: cells whose official phase is unambiguous (off official boundaries), of which
    ``interior_differ`` have another majority phase; ``agreement`` / ``interior_agreement``: as the methods of
    those names; ``counts[phase]``: (our cells, the official map's cells) in that phase."""

    official: np.ndarray
    interior_cells: int
    interior_differ: int
    agreement: float
    interior_agreement: float
    counts: dict[str, tuple[int, int]]

    @property
    def n_cells(self) -> int:
        return int(self.official.size)

    def share_difference(self, phase: str) -> float:
        """Our share of cells in ``phase`` minus the official map's."""
        check_choice("phase", phase, PHASES)
        ours, official = self.counts[phase]
        return ours / self.n_cells - official / self.n_cells  # as the difference of the two maps' means


def _with_seed_axis(a: np.ndarray) -> np.ndarray:
    return a[None] if a.ndim == 2 else a


def seed_fraction(diagram: "PhaseDiagram", statistic, holds) -> float:
    """Fraction of the seeds whose map satisfies ``holds(statistic(phases, y_values))``: a claim checked
    map by map. Its value changes only when a seed's own verdict changes, not when one cell flips."""
    y = diagram.config.y_values
    return float(np.mean([bool(holds(statistic(p, y))) for p in diagram.seed_phases]))


def majority_phase(seed_phases: np.ndarray) -> np.ndarray:
    """(ny, nx): the most frequent phase of each cell over the seed axis (axis 0). A tie goes to the phase
    that comes first in the order comprehension, grokking, memorization, confusion (a fixed rule, so the
    map does not depend on which seed came first)."""
    sp = _with_seed_axis(np.asarray(seed_phases, dtype=object))
    counts = np.stack([(sp == p).sum(axis=0) for p in PHASES])  # (4, ny, nx)
    return np.asarray(PHASES, dtype=object)[counts.argmax(axis=0)]


def _ordered(phases: np.ndarray, y_values) -> np.ndarray:
    """Rows sorted by increasing y (weight decay or representation lr)."""
    return np.asarray(phases, dtype=object)[np.argsort(np.asarray(y_values, dtype=float), kind="stable")]


def corner_fraction(phases: np.ndarray, y_values, phase: str, corner: str) -> float:
    """Fraction of ``phase`` in a corner block: the right (``"top_right"``, ``"bottom_right"``: high decoder lr)
    or left (``"top_left"``: low decoder lr) half of the columns, and the lowest (``"top_..."``: small weight
    decay) or highest (``"bottom_right"``) third of the rows (at least two rows), rows ordered by y. The
    paper's §4.1 (ii)/(iii) name the right-hand corners; App. J puts memorization in the top left of Fig. 8b."""
    check_choice("phase", phase, PHASES)
    return float((_corner_block(phases, y_values, corner) == phase).mean())


def _corner_block(phases: np.ndarray, y_values, corner: str) -> np.ndarray:
    """The cells of a corner block of :func:`corner_fraction`."""
    check_choice("corner", corner, ("top_right", "bottom_right", "top_left"))
    rows = _ordered(phases, y_values)
    n_rows = max(2, -(-rows.shape[0] // 3))
    n_cols = -(-rows.shape[1] // 2)
    return {"top_right": rows[:n_rows, -n_cols:], "bottom_right": rows[-n_rows:, -n_cols:],
            "top_left": rows[:n_rows, :n_cols]}[corner]


LAYOUT_STATEMENTS = ("(i)", "(ii)", "(iii)", "(iv)")  # §4.1, "Universality of phase diagrams"


def layout_counts(phases: np.ndarray, y_values) -> dict[str, tuple[tuple[int, int], ...]]:
    """The counts behind §4.1's four statements on one map, each as (hits, out of) pairs, so that a share and its
    binomial error can be read from them: (i) the rarest phase's cells of all cells (four phases: at least one);
    (ii) memorization cells of the top-right block; (iii) confusion cells of the bottom-right block, then of the
    top-right block (their shares' difference); (iv) columns reading comprehension -> grokking -> memorization with
    increasing y (:func:`sandwich_columns`) of all columns. Blocks as in :func:`corner_fraction`."""
    ph = np.asarray(phases, dtype=object)
    top, bottom = _corner_block(ph, y_values, "top_right"), _corner_block(ph, y_values, "bottom_right")
    return {"(i)": ((min(int((ph == p).sum()) for p in PHASES), int(ph.size)),),
            "(ii)": ((int((top == "memorization").sum()), int(top.size)),),
            "(iii)": ((int((bottom == "confusion").sum()), int(bottom.size)),
                      (int((top == "confusion").sum()), int(top.size))),
            "(iv)": ((sandwich_columns(ph, y_values), int(ph.shape[1])),)}


def sandwich_columns(phases: np.ndarray, y_values) -> int:
    """Columns (one decoder lr each) in which, with increasing y (weight decay), a comprehension cell is
    followed by a grokking cell and then a memorization cell: grokking sandwiched between the two
    (§4.1 (iv))."""
    rows = _ordered(phases, y_values)
    count = 0
    for col in rows.T:
        seq = [p for p in col if p in ("comprehension", "grokking", "memorization")]
        c = next((i for i, p in enumerate(seq) if p == "comprehension"), None)
        if c is None:
            continue
        g = next((i for i in range(c + 1, len(seq)) if seq[i] == "grokking"), None)
        if g is not None and any(p == "memorization" for p in seq[g + 1 :]):
            count += 1
    return count


def generalizing_fraction_fast_decoder(phases: np.ndarray, lr_dec_values, lr_repr_values) -> float:
    """Panel (a): fraction of the cells with decoder lr >= representation lr that generalize
    (comprehension or grokking). The paper's data: none do."""
    x = np.asarray(lr_dec_values, dtype=float)[None, :]
    y = np.asarray(lr_repr_values, dtype=float)[:, None]
    fast = x >= y * (1 - 1e-9)
    ph = np.asarray(phases, dtype=object)
    return float(np.isin(ph[fast], ["comprehension", "grokking"]).mean())


def phase_examples(cfg: ToyPhaseConfig, seed_phases: np.ndarray, history) -> dict[str, PhaseExample]:
    """For each phase the panel shows, one run in it (:func:`repro.metrics.phases.example_runs`), its cell in paper
    units and its curves against paper-equivalent step. ``seed_phases`` is (S, ny, nx) and ``history`` the sweep's,
    whose runs are in the same order."""
    runs = np.arange(seed_phases.size).reshape(seed_phases.shape)
    steps = np.asarray(history.steps) * cfg.time_scale
    y_name = "repr. lr" if cfg.y_field == "lr_repr" else "wd"
    return {phase: PhaseExample(phase, {"dec. lr": cfg.lr_dec_values[ix], y_name: cfg.y_values[iy]},
                                cfg.init_seeds[s], steps, history["train_acc"][runs[s, iy, ix]],
                                history["val_acc"][runs[s, iy, ix]])
            for phase, (s, iy, ix) in example_runs(seed_phases).items()}


def run_phase_diagram(cfg: ToyPhaseConfig, progress: bool | None = None, *, store=None, client=None) -> PhaseDiagram:
    """Train every (seed, cell) of one panel as one batched program and classify it.

    ``store`` (a :class:`~repro.training.store.ResultsStore`) keeps finished chunks so an interrupted paper-scale
    panel resumes; ``client`` (a ``dask.distributed.Client``) trains the chunks on a cluster
    (``python -m repro.book.sweep_cli liu2022_fig6a ...``)."""
    k = cfg.time_scale
    axes = {"init_seed": list(cfg.init_seeds),
            cfg.y_field: [v * k if cfg.y_field == "lr_repr" else v for v in cfg.y_values],
            "lr_dec": [v * k for v in cfg.lr_dec_values]}
    result = sweep(cfg.model_config(), cfg.task_data(), cfg.train_config(), axes, label=f"liu2022_fig6{cfg.panel}",
                   progress=progress, store=store, client=client)
    rule = cfg.rule()
    tr = result.first_steps("train_acc", cfg.threshold)
    te = result.first_steps("val_acc", cfg.threshold)
    tr = np.where((tr >= 0) & (tr < cfg.steps), tr, -1)
    te = np.where((te >= 0) & (te < cfg.steps), te, -1)
    seed_phases = result.grid(classify_history(result.history, rule))
    return PhaseDiagram(cfg, seed_phases, tr, te, phase_examples(cfg, seed_phases, result.history))


def uncompressed_config(panel: str) -> ToyPhaseConfig:
    """The book's 6 x 6 cells of panel ``panel`` at the paper's settings: no time compression (the official
    learning rates, 10^5 steps, gap 10^3), the official seed, and in (d) the official L1 term. Every book cell
    lies on the official grid, so each cell has an official phase and a compressed book-scale twin. The
    accuracies are read every 10 steps (the official code reads every step; this only moves a first step by
    < 10, against the rule's gap of 1000). About 15 minutes per panel on 2 cores."""
    book = ToyPhaseConfig.book(panel)
    return replace(ToyPhaseConfig.paper(panel), lr_dec_values=book.lr_dec_values, y_values=book.y_values,
                   eval_every=10)


FULL_ROWS_PER_PART = 2  # official rows per stored part of a full map: 26-32 runs, about 20 minutes on one core


def full_grid_config(panel: str) -> ToyPhaseConfig:
    """Panel ``panel`` on the official grid (13 x 13 in (a), 11 x 16 in (b)-(d)) at the paper's settings
    (:meth:`ToyPhaseConfig.paper`: official lrs, seed, 10^5 steps, gap 10^3, in (d) the L1 term), accuracies read
    every 10 steps as in :func:`uncompressed_config`. About 1.7 core-hours per panel."""
    return replace(ToyPhaseConfig.paper(panel), eval_every=10)


def full_grid_parts(panel: str, rows_per_part: int = FULL_ROWS_PER_PART) -> list[ToyPhaseConfig]:
    """:func:`full_grid_config` cut into parts of ``rows_per_part`` official rows (y values), each trained and stored
    on its own, so that a map of ~1.7 core-hours is computed over several sittings and each finished part keeps
    only its phases and first steps (a few kB; a whole map's curves every 10 steps would be ~70 MB). A cell's run
    does not depend on the other cells it is batched with."""
    check_int("rows_per_part", rows_per_part, minimum=1)
    cfg = full_grid_config(panel)
    ys = cfg.y_values
    return [replace(cfg, y_values=ys[i:i + rows_per_part]) for i in range(0, len(ys), rows_per_part)]


def full_grid_label(panel: str) -> str:
    return f"liu2022-fig6{panel}-full"


def join_diagrams(cfg: ToyPhaseConfig, parts: list[PhaseDiagram]) -> PhaseDiagram:
    """One diagram of ``cfg`` from diagrams of consecutive row blocks of it (same columns and seeds)."""
    ys = tuple(y for part in parts for y in part.config.y_values)
    if ys != cfg.y_values or any(replace(part.config, y_values=cfg.y_values) != cfg for part in parts):
        raise ValueError("parts must be consecutive row blocks of cfg, in order (as full_grid_parts makes them).")
    join = lambda name: np.concatenate([getattr(part, name) for part in parts], axis=1)
    return PhaseDiagram(cfg, join("seed_phases"), join("train_steps"), join("val_steps"))


def stored_full_grid(panel: str, root) -> tuple[PhaseDiagram, list[dict]] | None:
    """The full official-grid map of ``panel`` from its stored parts (:func:`full_grid_parts`) and their
    manifests, or None while any part is missing."""
    return stored_parts(root, full_grid_label(panel), full_grid_config(panel), full_grid_parts(panel))


def stored_parts(root, label: str, whole: ToyPhaseConfig, parts: list, panel_config=lambda part: part
                 ) -> tuple[PhaseDiagram, list[dict]] | None:
    """The map of ``whole`` joined from its stored row blocks ``parts`` (stored under ``label``; ``panel_config``
    maps a part's store key to its :class:`ToyPhaseConfig`) and their manifests, or None while any is missing."""
    from repro.training.store import ResultsStore

    store = ResultsStore(root)
    loaded = [store.load_result(part, label, lambda arrays, part=part: diagram_from_arrays(panel_config(part), arrays))
              for part in parts]
    if any(entry is None for entry in loaded):
        return None
    return join_diagrams(whole, [d for d, _ in loaded]), [m for _, m in loaded]


def diagram_to_arrays(diagram: PhaseDiagram) -> dict[str, np.ndarray]:
    """A phase diagram as numeric arrays (phases as indices into :data:`repro.metrics.phases.PHASES`)."""
    codes = np.vectorize(PHASES.index, otypes=[np.int64])(diagram.seed_phases)
    return {"phase_codes": codes, "train_steps": np.asarray(diagram.train_steps, dtype=np.int64),
            "val_steps": np.asarray(diagram.val_steps, dtype=np.int64)}


def diagram_from_arrays(cfg: ToyPhaseConfig, arrays: dict[str, np.ndarray]) -> PhaseDiagram:
    from repro.training.store import required_arrays

    a = required_arrays(arrays, ("phase_codes", "train_steps", "val_steps"), "stored phase diagram")
    shape = (cfg.n_seeds, len(cfg.y_values), len(cfg.lr_dec_values))
    if a["phase_codes"].shape != shape:
        raise ValueError(f"stored phase diagram has shape {a['phase_codes'].shape}; its config needs {shape}.")
    return PhaseDiagram(cfg, np.asarray(PHASES, dtype=object)[a["phase_codes"]], a["train_steps"], a["val_steps"])


def stored_uncompressed(panel: str, root) -> tuple[PhaseDiagram, dict] | None:
    """The stored uncompressed map of ``panel`` (:func:`uncompressed_config`) and its manifest, or None."""
    from repro.training.store import ResultsStore

    cfg = uncompressed_config(panel)
    return ResultsStore(root).load_result(cfg, f"liu2022-fig6{panel}-uncompressed",
                                          lambda arrays: diagram_from_arrays(cfg, arrays))


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2022_phase_diagrams", rows=(
    StoredRun("Fig. 6 (a)–(d) uncompressed at the paper's settings: the book's 6 × 6 cells of each panel, 10⁵ steps, "
              "official seed (and in (d) the official L1 term); `--panels` picks some", "",
              tuple(f"liu2022-fig6{p}-uncompressed" for p in "abcd")),
    StoredRun("Fig. 6 (a)–(d) on the full official grids (13 × 13 in (a), 11 × 16 in (b)–(d)) at the paper's settings, "
              "accuracies every 10 steps, stored in parts of two official rows (a rerun trains only the missing parts); "
              "claims registered before the first part", "--full", tuple(f"liu2022-fig6{p}-full" for p in "abcd")),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2022_phase_diagrams --store book/_results [--full]``: train the uncompressed
    maps of :func:`uncompressed_config` (36 cells x 10^5 steps per panel; about an hour for all four on 2 cores), or
    with ``--full`` the official grids (:func:`full_grid_parts`), and store each panel's (or part's) phases and first
    steps with provenance (one already stored is not retrained)."""
    from repro.training.store import ResultsStore, store_parser

    parser = store_parser("repro.experiments.liu2022_phase_diagrams", main.__doc__)
    parser.add_argument("--panels", default="".join(PANELS), help="which panels, e.g. 'bd' (default: abcd)")
    parser.add_argument("--full", action="store_true",
                        help="the full official grids (full_grid_parts: about 1.7 core-hours a panel, stored part by "
                             "part, so a rerun trains only the missing parts) instead of the book's 6 x 6 cells")
    args = parser.parse_args(argv)
    for panel in args.panels:
        check_choice("panel", panel, PANELS)
    store = ResultsStore(args.store)
    for panel in args.panels:
        if args.full:
            parts = full_grid_parts(panel)
            for k, cfg in enumerate(parts):
                print(f"Fig. 6({panel}) full grid, part {k + 1}/{len(parts)}: rows {cfg.y_values}", flush=True)
                store.get_or_compute(cfg, lambda cfg=cfg: diagram_to_arrays(run_phase_diagram(cfg, progress=True)),
                                     label=full_grid_label(panel))
            continue
        cfg = uncompressed_config(panel)
        store.get_or_compute(cfg, lambda: diagram_to_arrays(run_phase_diagram(cfg, progress=True)),
                             label=f"liu2022-fig6{panel}-uncompressed")
    return 0


def phase_letters(phases: np.ndarray) -> list[str]:
    """Rows of one-letter phase codes (C/G/M/X), for printing a map."""
    inverse = {v: k for k, v in PHASE_LETTERS.items()}
    return [" ".join(inverse[p] for p in row) for row in np.asarray(phases, dtype=object)]


if __name__ == "__main__":
    import sys

    sys.exit(main())

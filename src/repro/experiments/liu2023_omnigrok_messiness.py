"""Omnigrok's backup slides, "Algorithmic: Landscape analysis" (the talk's Fig. 6; official notebook
KindXiaoming/Omnigrok mod-addition/landscape/addition-landscape.ipynb): the reduced training and test loss
over two variables, the decoder's weight norm w (as a multiple alpha of its standard initialization) and the
*representation messiness* m of frozen 2-d embeddings,

    R = m R_random + (1 - m) R_linear                                      (Omnigrok, backup slide)

on p = 10 symbols. The decoder reads R_i + R_j and is trained on 45 of the 55 unordered pairs to output the
N(0, 1) template of (i + j) mod 10; its norm is held at alpha times its initial norm (repro.training.trainer's
``fixed_norm``), the embeddings stay fixed. The slide's statement tested here is Omnigrok's Eq. (2): a
messier representation needs a larger decoder norm to fit the training set, w_c(bad) > w_c(good), and
generalizes worse at every norm.

One batched :func:`repro.experiments.liu2023_omnigrok.run_landscape` per messiness (its runs: alphas x seeds); the messiness
changes the inputs, so it cannot share a batch. Used by ``book/liu2023_omnigrok``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import torch

from repro.core.crossings import crossing
from repro.core.devices import resolve_dtype
from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_int, check_real
from repro.data.tasks import TaskData
from repro.experiments.liu2023_omnigrok import run_landscape
from repro.models.networks import MLPConfig
from repro.training.store import ResultsStore, required_arrays, store_parser
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.trainer import StepDecay, TrainConfig


@dataclass(frozen=True, repr=False)
class MessinessConfig(ConfigRepr):
    """The (w, m) landscape. Data and grids follow the official notebook (the figure comes from it); the
    defaults' activation, optimizer and budget follow the Omnigrok paper's description of it (App. D: ReLU, Adam,
    lr 1e-3, 10^4 steps); :meth:`official` is the notebook's own training (LeakyReLU(0.2), Adam lr 1e-2, betas
    (0.9, 0.99), x0.2 every 5000 steps, 15 000 steps)."""

    p: int = 10  # official notebook: p = 10, unordered pairs (55)
    n_train: int = 45  # official notebook: train_num = 45
    data_seed: int = 58  # official notebook: seed 58 (our draws use numpy in the notebook's order, not torch's)
    d_out: int = 30  # official notebook: 30-d N(0, 1) output templates
    hidden: tuple = (200, 200)  # official notebook: decoder 2-200-200-30
    activation: str = "relu"  # Omnigrok App. D: ReLU (the notebook uses LeakyReLU(0.2): "leaky_relu_0.2", see official())
    line_noise: float = 0.3  # official notebook: R_linear's second coordinate is U(-1, 1) x 0.3
    messiness: tuple = tuple(np.round(np.linspace(0, 0.2, 21), 4).tolist())  # official coarse grid
    alphas: tuple = tuple(np.round(np.linspace(0, 9, 21)[1:], 4).tolist())  # official coarse grid, without 0
    lr: float = 1e-3  # Omnigrok App. D
    beta2: float = 0.999  # Adam's default (App. D names Adam only; the notebook: betas (0.9, 0.99))
    lr_decay_steps: tuple = ()  # App. D: a constant rate (the notebook: x0.2 before updates 4999, 9999, 14999)
    lr_decay_factor: float = 1.0
    steps: int = 10_000  # Omnigrok App. D
    seeds: tuple = (0,)  # decoder initializations; the notebook has one (seed 58)
    fit_level: float = 0.02  # the notebook's training-loss contour (plot-addition-data-dependence.ipynb)
    dtype: str = "float32"

    def __post_init__(self):
        for name in ("p", "n_train", "d_out", "steps"):
            check_int(name, getattr(self, name), minimum=1)
        if self.n_train >= self.p * (self.p + 1) // 2:
            raise ValueError(f"n_train={self.n_train} is not allowed: n_train must be below the {self.p * (self.p + 1) // 2} "
                             "unordered pairs, to leave a test set.")
        check_choice("activation", self.activation, ("relu", "leaky_relu_0.2", "tanh", "gelu"))
        try:  # the schedule is validated where it is used (StepDecay)
            self.step_decay()
        except ValueError as e:
            raise ValueError(f"lr_decay_steps={self.lr_decay_steps!r}, lr_decay_factor={self.lr_decay_factor!r}: {e}") from None
        self.train_config()
        for name in ("lr", "fit_level"):
            check_real(name, getattr(self, name), positive=True)
        check_real("line_noise", self.line_noise, nonnegative=True)
        for name in ("messiness", "alphas"):
            values = getattr(self, name)
            if not isinstance(values, tuple) or len(values) < 2 or list(values) != sorted(values):
                raise ValueError(f"{name}={values!r} is not allowed: {name} must be an increasing tuple of >= 2 numbers.")
        if not all(0 <= m <= 1 for m in self.messiness):
            raise ValueError(f"messiness={self.messiness!r} is not allowed: every m must lie in [0, 1].")
        if not all(a > 0 for a in self.alphas):
            raise ValueError(f"alphas={self.alphas!r} is not allowed: every alpha must be > 0.")
        if not self.seeds:
            raise ValueError("seeds=() is not allowed: give at least one initialization seed.")
        check_choice("dtype", self.dtype, ("float32", "float64"))

    @classmethod
    def for_scale(cls) -> "MessinessConfig":
        # Book: 5 messiness values x 8 norms x 3 initializations, 2500 steps (about a minute on 2 cores).
        book = cls(messiness=(0.0, 0.05, 0.1, 0.15, 0.2), alphas=tuple(np.round(np.linspace(0, 9, 11)[1:9], 4).tolist()),
                   steps=2500, seeds=(0, 1, 2))
        return by_scale(book=book, paper=cls(), smoke=replace(book, messiness=(0.0, 0.2), steps=20, seeds=(0,)))

    @classmethod
    def official(cls) -> "MessinessConfig":
        """The official notebook's own training (mod-addition/landscape/addition-landscape.ipynb): LeakyReLU(0.2),
        Adam lr 1e-2 with betas (0.9, 0.99), the rate x0.2 when (epoch + 1) % 5000 == 0 (before that update), 15 000
        full-batch steps, on the coarse 21 x 21 grid its plot notebook reads (plot-addition-landscape.ipynb; norm 0
        left out, as in every config here). One decoder initialization, as the notebook's."""
        return cls(activation="leaky_relu_0.2", lr=1e-2, beta2=0.99, lr_decay_steps=(4999, 9999, 14999),
                   lr_decay_factor=0.2, steps=15_000)

    @classmethod
    def data_size(cls, n_train: int) -> "MessinessConfig":
        """The backup slide "Algorithmic: data size/weight decay dependence" (official
        mod-addition/landscape/plot-addition-data-dependence.ipynb): the notebook's own training (:meth:`official`)
        on its fine window, messiness 0 to 0.1 and alpha 2.5 to 4.0, with ``n_train`` training pairs (the notebook:
        25, 35, 45 and "55", run as 54: see DATA_SIZES). The notebook's window is 21 x 21; here every 4th messiness
        and every 2nd alpha (6 x 11), so that the four sizes train in about half an hour of two cores."""
        return replace(cls.official(), n_train=n_train,
                       messiness=tuple(np.round(np.linspace(0, 0.1, 21)[::4], 4).tolist()),
                       alphas=tuple(np.round(np.linspace(2.5, 4.0, 21)[::2], 4).tolist()))

    @classmethod
    def data_size_wide(cls, n_train: int) -> "MessinessConfig":
        """:meth:`data_size` with the norm window widened down to alpha = 1 (21 norms from 1.0 to 4.0, the same
        0.15 step): in the notebook's window the smallest size fits the training set at every norm and messiness,
        so its contour, and its angle theta, lie left of the window (found on the first run, 2026-11-27)."""
        return replace(cls.data_size(n_train), alphas=tuple(np.round(np.linspace(1.0, 4.0, 21), 4).tolist()))

    def train_config(self) -> TrainConfig:
        """The optimizer settings of every run: full-batch Adam (AdamW with no decay) at ``lr`` with ``beta2``,
        evaluated once at the end; the step decay is :meth:`step_decay`."""
        return TrainConfig(steps=self.steps, lr_repr=self.lr, lr_dec=self.lr, beta2=self.beta2,
                           eval_every=self.steps, dtype=self.dtype)

    def step_decay(self) -> StepDecay:
        """The learning rate's step decay (a component of the trainer)."""
        return StepDecay(self.lr_decay_steps, self.lr_decay_factor)

    def representations(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(R_linear, R_random, templates, training pair indices, test pair indices), drawn in the notebook's
        order: unused input templates, output templates, the split, R_linear's noise, R_random."""
        rng = np.random.RandomState(self.data_seed)
        rng.normal(size=(self.p, self.d_out))  # the notebook's input templates (unused by the decoder)
        templates = rng.normal(size=(self.p, self.d_out))
        n_pairs = self.p * (self.p + 1) // 2
        train = np.sort(rng.choice(n_pairs, self.n_train, replace=False))
        test = np.setdiff1d(np.arange(n_pairs), train)
        line = (2 * rng.rand(self.p, 2) - 1) * self.line_noise
        line[:, 0] = 2 * np.linspace(0, 1, self.p) - 1
        random = 2 * rng.rand(self.p, 2) - 1
        return line, random, templates, train, test

    def task_data(self, m: float) -> TaskData:
        """The pairs (i <= j) with inputs R_i + R_j at messiness m and targets the template of (i + j) mod p."""
        line, random, templates, train, test = self.representations()
        rep = m * random + (1 - m) * line
        i, j = np.triu_indices(self.p)
        labels = (i + j) % self.p
        dt = resolve_dtype(self.dtype)
        return TaskData(inputs=torch.tensor(rep[i] + rep[j], dtype=dt), labels=torch.tensor(labels), n_classes=self.p,
                        train_idx=train, val_idx=test, loss="mse", targets=torch.tensor(templates[labels], dtype=dt),
                        templates=torch.tensor(templates, dtype=dt), accuracy="nearest_template")

    def model_config(self) -> MLPConfig:
        return MLPConfig(d_in=2, hidden=self.hidden, d_out=self.d_out, activation=self.activation)


@dataclass
class MessinessResult:
    """Final reduced losses and accuracies, each ``(S, M, A)``: seeds x messiness x alpha."""

    config: MessinessConfig
    train_loss: np.ndarray
    test_loss: np.ndarray
    train_acc: np.ndarray
    test_acc: np.ndarray

    KEYS = ("train_loss", "test_loss", "train_acc", "test_acc")

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {k: np.asarray(getattr(self, k), dtype=float) for k in self.KEYS}

    @classmethod
    def from_arrays(cls, config: MessinessConfig, arrays: dict[str, np.ndarray]) -> "MessinessResult":
        arrays = required_arrays(arrays, list(cls.KEYS), "stored (w, m) landscape")
        shape = (len(config.seeds), len(config.messiness), len(config.alphas))
        for k in cls.KEYS:
            if arrays[k].shape != shape:
                raise ValueError(f"stored (w, m) landscape: {k} has shape {arrays[k].shape}, expected {shape} "
                                 "(seeds x messiness x alphas).")
        return cls(config, **{k: arrays[k] for k in cls.KEYS})

    def median(self, key: str) -> np.ndarray:
        """``(M, A)``: the median over seeds of ``key``."""
        return np.median(getattr(self, key), axis=0)

    def critical_alpha(self) -> np.ndarray:
        """``(S, M)``: w_c per seed and messiness, the smallest alpha at which the training loss falls below
        ``fit_level`` (log-linear interpolation between grid points; nan if it never does)."""
        a = np.asarray(self.config.alphas, dtype=float)
        out = np.full(self.train_loss.shape[:2], np.nan)
        for idx in np.ndindex(*out.shape):  # -log loss rises through -log fit_level: interpolated linearly in alpha
            out[idx] = crossing(a, -np.log(self.train_loss[idx]), -np.log(self.config.fit_level))
        return out


@dataclass(frozen=True)
class ContourSlope:
    """The fit-level contour of the training loss in the (w, m) plane, as a line ln alpha_c = a + slope * m."""

    slope: float  # d ln(alpha_c) / dm: how much more log-norm a messier representation needs to fit (nan: < 2 rows)
    se: float  # its least-squares standard error (nan with fewer than 3 rows)
    rows: int  # messiness values whose contour crosses inside the norm window, in every seed


def contour_slope(result: MessinessResult) -> ContourSlope:
    """The slide's angle theta (backup slide "Algorithmic: data size/weight decay dependence"; its schematic in
    plot-addition-data-dependence.ipynb): the generalizing solution is reached along the training-loss contour,
    drawn against log(weight norm) and representation quality, at the angle theta to the norm axis, and the slide's
    time law is t = (L + h tan(theta)) / gamma. Measured here as the least-squares slope of ln alpha_c against m,
    alpha_c the norm where the training loss crosses ``fit_level`` (:meth:`MessinessResult.critical_alpha`):
    tan(theta) is proportional to 1 / slope, so "more data, smaller theta" is "more data, larger slope".

    A row counts only where every seed's contour crosses inside the norm window: a row already fitted at the
    smallest alpha (its alpha_c is the window's edge, a bound) or never fitted is left out. The slope is the line
    through the median over seeds of alpha_c."""
    c = result.config
    wc = result.critical_alpha()  # (S, M)
    inside = np.isfinite(wc) & (result.train_loss[:, :, 0] > c.fit_level)  # crossed after the window's first norm
    keep = inside.all(axis=0)
    m = np.asarray(c.messiness, dtype=float)[keep]
    y = np.log(np.median(wc[:, keep], axis=0)) if keep.any() else np.array([])
    if len(m) < 2:
        return ContourSlope(float("nan"), float("nan"), int(len(m)))
    dm = m - m.mean()
    slope = float(dm @ (y - y.mean()) / (dm @ dm))
    if len(m) < 3:
        return ContourSlope(slope, float("nan"), 2)
    resid = y - y.mean() - slope * dm
    return ContourSlope(slope, float(np.sqrt(resid @ resid / (len(m) - 2) / (dm @ dm))), int(len(m)))


NOTEBOOK_FINE_STEP = (0.005, 0.075)  # plot-addition-data-dependence.ipynb's grid steps: messiness, alpha (21 x 21)


def blurred_like_notebook(result: MessinessResult, sigma_cells: float = 1.0,
                          notebook_step: tuple[float, float] = NOTEBOOK_FINE_STEP) -> MessinessResult:
    """``result`` with each seed's training-loss map smoothed as the official plot notebook smooths its own before it
    draws the 0.02 contour (plot-addition-data-dependence.ipynb: ``gaussian_filter(trainss, sigma=1)`` on its 21 x 21
    grid, then a 10x bilinear upsampling, which moves no contour of a bilinear map). The Gaussian has ``sigma_cells``
    of the notebook's grid steps (``notebook_step``: messiness, alpha), converted to this grid's steps; the edges
    reflect, as scipy's default. Only ``train_loss`` changes."""
    from scipy.ndimage import gaussian_filter

    check_real("sigma_cells", sigma_cells, positive=True)
    c = result.config
    steps = [float(np.diff(v).mean()) if len(v) > 1 else 0.0 for v in (c.messiness, c.alphas)]
    if min(steps) <= 0:
        raise ValueError("blurred_like_notebook: the map needs at least two messiness values and two norms, "
                         f"equally spaced; got {len(c.messiness)} x {len(c.alphas)}.")
    if not all(np.allclose(np.diff(v), d) for v, d in zip((c.messiness, c.alphas), steps)):
        raise ValueError("blurred_like_notebook: the messiness and norm grids must be equally spaced.")
    sigma = (0.0, sigma_cells * notebook_step[0] / steps[0], sigma_cells * notebook_step[1] / steps[1])
    return replace(result, train_loss=gaussian_filter(np.asarray(result.train_loss, dtype=float), sigma=sigma))


def run_messiness(cfg: MessinessConfig, progress=None) -> MessinessResult:
    """The landscape: for each messiness, one batched norm-constrained run per alpha and seed."""
    tc = cfg.train_config()
    out = {k: [] for k in ("train_loss", "test_loss", "train_acc", "test_acc")}
    for m in cfg.messiness:
        res = run_landscape(cfg.model_config(), cfg.task_data(m), cfg.alphas, tc, progress, seeds=cfg.seeds,
                            components=(cfg.step_decay(),))
        for k in out:
            out[k].append(getattr(res, "seed_" + k))  # (S, A)
    return MessinessResult(cfg, **{k: np.stack(v, axis=1) for k, v in out.items()})


WM_OFFICIAL_LABEL = "omnigrok-wm-official"
WM_SIZE_LABEL = "omnigrok-wm-size"  # the four data sizes of MessinessConfig.data_size, each its own entry
WM_SIZE_WIDE_LABEL = "omnigrok-wm-size-wide"  # the same in the wider norm window (MessinessConfig.data_size_wide)
# plot-addition-data-dependence.ipynb reads sizes [25, 35, 45, 55]; its largest is 54 here: the landscape notebook's
# stored output shows its last run with train_num=54, and 55 (every pair) would leave no test pair
DATA_SIZES = (25, 35, 45, 54)


def stored_messiness(cfg: MessinessConfig, root, label: str = WM_OFFICIAL_LABEL) -> tuple[MessinessResult, dict] | None:
    """The stored landscape for exactly ``cfg`` under ``root`` and its manifest, or None when none is stored."""
    return ResultsStore(root).load_result(cfg, label, lambda arrays: MessinessResult.from_arrays(cfg, arrays))


def stored_data_sizes(root, sizes=DATA_SIZES, wide: bool = False) -> dict[int, tuple[MessinessResult, dict]]:
    """``{n_train: (result, manifest)}`` for each data size whose landscape (:meth:`MessinessConfig.data_size`, or
    :meth:`MessinessConfig.data_size_wide` with ``wide``) is stored under ``root``; sizes not stored are missing."""
    out = {}
    for n in sizes:
        cfg = MessinessConfig.data_size_wide(n) if wide else MessinessConfig.data_size(n)
        stored = stored_messiness(cfg, root, WM_SIZE_WIDE_LABEL if wide else WM_SIZE_LABEL)
        if stored is not None:
            out[n] = stored
    return out


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2023_omnigrok", rows=(
    StoredRun("the (w, m) landscape with the official notebook's training (LeakyReLU(0.2), Adam 10⁻² betas (0.9, 0.99) "
              "×0.2 every 5,000 updates, 15,000 steps; 21 × 20 grid, one initialization); claims registered before the "
              "run", "", ("omnigrok-wm-official",)),
    StoredRun("the backup slide \"Algorithmic: data size/weight decay dependence\": that landscape at 25, 35, 45 and 54 "
              "training pairs in the notebook's fine window (messiness 0–0.1, α 2.5–4.0; 6 × 11 points), one entry per "
              "size; claims registered before each run", "--data-size 25 35 45 54", ("omnigrok-wm-size",)),
    StoredRun("the same in a window widened to α = 1 (6 × 21 points)", "--data-size 25 35 45 54 --wide",
              ("omnigrok-wm-size-wide",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2023_omnigrok_messiness --store book/_results``: compute and store, with
    provenance, the (w, m) landscape with the official notebook's own training (:meth:`MessinessConfig.official`:
    21 messiness values x 20 norms, 15 000 steps; about an hour on one core). With ``--data-size 25 35 45 54``:
    the data-size landscapes of the backup slide instead (:meth:`MessinessConfig.data_size`, each size its own
    entry; about 4 minutes per size on one core; ``--wide``: the wider norm window, about 7)."""
    parser = store_parser("repro.experiments.liu2023_omnigrok_messiness", main.__doc__)
    parser.add_argument("--data-size", type=int, nargs="+", metavar="N",
                        help=f"training-set sizes of the data-size slide (the notebook's: {list(DATA_SIZES)})")
    parser.add_argument("--wide", action="store_true",
                        help="with --data-size: the norm window widened to alpha 1.0-4.0 (MessinessConfig.data_size_wide)")
    args = parser.parse_args(argv)
    store = ResultsStore(args.store)
    if args.wide and not args.data_size:
        parser.error("--wide is allowed only with --data-size (it widens the data-size landscapes' norm window)")
    if args.data_size:
        for n in args.data_size:
            # validates n (the message names n_train and its range)
            cfg = MessinessConfig.data_size_wide(n) if args.wide else MessinessConfig.data_size(n)
            store.get_or_compute(cfg, lambda cfg=cfg: run_messiness(cfg, progress=True).to_arrays(),
                                 label=WM_SIZE_WIDE_LABEL if args.wide else WM_SIZE_LABEL)
        return 0
    cfg = MessinessConfig.official()
    store.get_or_compute(cfg, lambda: run_messiness(cfg, progress=True).to_arrays(), label=WM_OFFICIAL_LABEL)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())

"""Experiments of the GenEFT chapters (Baek, Liu & Tegmark 2024, arXiv 2402.05916 v1): configs, batched
runs and figures. Used by ``book/baek2024_geneft_information`` (Figs. 2–4) and
``book/baek2024_geneft_dynamics`` (repons, Figs. 5–6). Equations live in :mod:`repro.theory.baek2024`;
the data and the model in :mod:`repro.data.relations`.

Config defaults are the paper's values where it states them (Table 3, figure captions) and our choices
where it does not (marked [UNKNOWN]); ``for_scale()`` returns the
book-scale variant with ``dataclasses.replace``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Sequence

import numpy as np

from repro.core.crossings import first_step
from repro.core.kernels import single_thread
from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_int, check_real
from repro.data.relations import RELATIONS, relation_matrix, train_mask
from repro.metrics.bootstrap import bootstrap_standard_error
from repro.metrics.phases import PHASES, PhaseExample, classify, example_runs
from repro.models.networks import RelationModelConfig
from repro.theory.baek2024 import GUESS_PROBABILITY, accuracy_upper_bound, description_length, monte_carlo_upper_bound
from repro.training.relation_runs import RELATION_OPTIMIZERS, RelationTrainConfig, train_relation_runs, train_relations
from repro.training.store import (ResultsStore, add_checkpoint_option, checkpoint_every_s, required_arrays,
                                  store_parser)
from repro.training.stored_runs import StoredRun, StoredRunTable

LABELS = {"mod3": "mod 3", "mod5": "mod 5", "greater_than": "greater-than", "bipartite": "bipartite"}
COLORS = {"mod3": "C0", "mod5": "C1", "greater_than": "C2", "bipartite": "C3"}
GENERALIZED = ("comprehension", "grokking")  # the paper's "generalization" and "delayed generalization"


def _check_relations(relations):
    if not relations:
        raise ValueError("relations must not be empty.")
    for r in relations:
        check_choice("relations", r, RELATIONS)


def _check_fractions(name, values):
    for f in values:
        check_real(name, f)
        if not 0 <= f <= 1:
            raise ValueError(f"{name} contains {f!r}: every fraction must be in [0, 1].")


def _once_per_resample(statistic):
    """``statistic`` (of seed indices drawn with replacement; it must not depend on their order) computed once per
    distinct resample, for :func:`repro.metrics.bootstrap.bootstrap_standard_error` of a slow fit: three seeds have
    ten distinct resamples among the 2000."""
    cache = {}

    def once(draw):
        key = tuple(sorted(np.asarray(draw).tolist()))
        if key not in cache:
            cache[key] = float(statistic(key))
        return cache[key]

    return once


# ======================================================================= Fig. 2: information bound

@dataclass(frozen=True, repr=False)
class BoundConfig(ConfigRepr):
    """Fig. 2: Monte-Carlo 'theoretical maximum accuracy' against Eq. 4, for the four relations."""

    n: int = 30  # paper §2
    relations: tuple = RELATIONS  # Fig. 2: all four relations (the panel layout is not stated; ours)
    fractions: tuple = (0.0, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7, 0.9)  # [UNKNOWN] grid
    data_seeds: tuple = (0, 1, 2, 3, 4)  # our choice: several random training sets per point (the paper's count is unstated)
    chains: int = 400  # MC chains per training set (our choice; the paper states no sampler settings)
    sweeps_equivalence: int = 300  # Gibbs sweeps, the first third burn-in (our choice)
    sweeps_order: int = 20_000  # odd/even sweeps (our choice)
    mc_seed: int = 0
    alpha: float = 0.9  # issue: p_c at alpha = 0.9

    def __post_init__(self):
        check_int("n", self.n, minimum=2)
        _check_relations(self.relations)
        _check_fractions("fractions", self.fractions)
        for name in ("chains", "sweeps_equivalence", "sweeps_order"):
            check_int(name, getattr(self, name), minimum=3)

    @classmethod
    def for_scale(cls) -> "BoundConfig":
        book = cls(fractions=(0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5), data_seeds=(0, 1, 2), chains=100,
                   sweeps_equivalence=200, sweeps_order=3000)
        return by_scale(book=book, paper=cls(), smoke=replace(book, fractions=(0.0, 0.1), chains=20,
                                                                sweeps_equivalence=30, sweeps_order=200))


@dataclass
class BoundResult:
    config: BoundConfig
    accuracy: dict  # relation -> (F, S) Monte-Carlo accuracy
    inferable: dict  # relation -> (F, S) directly inferable fraction

    def eq4(self, relation: str, fractions=None) -> np.ndarray:
        fr = np.asarray(self.config.fractions if fractions is None else fractions)
        b = description_length(relation, self.config.n)
        return accuracy_upper_bound(fr * self.config.n**2, b, GUESS_PROBABILITY[relation])

    def mc_mean(self, relation: str) -> np.ndarray:
        return self.accuracy[relation].mean(1)

    def largest_gap(self, relation: str) -> tuple[float, float]:
        """(fraction, MC − Eq. 4) where |MC − Eq. 4| is largest."""
        gap = self.mc_mean(relation) - self.eq4(relation)
        k = int(np.abs(gap).argmax())
        return self.config.fractions[k], float(gap[k])

    def largest_gap_standard_error(self) -> float | None:
        """The standard error of the largest |MC − Eq. 4| over the relations and fractions, from the random training
        sets the Monte Carlo already draws: the training sets (data seeds, resampled together for every relation and
        fraction) on :func:`~repro.metrics.bootstrap.bootstrap_standard_error`. It measures the draws, not the
        sampler's bias."""
        eq4 = {r: self.eq4(r) for r in self.config.relations}
        return bootstrap_standard_error(
            lambda idx: max(float(np.abs(self.accuracy[r][:, list(idx)].mean(1) - eq4[r]).max())
                            for r in self.config.relations), len(self.config.data_seeds))


def run_bound(cfg: BoundConfig) -> BoundResult:
    acc, inf = {}, {}
    for rel in cfg.relations:
        sweeps = cfg.sweeps_order if rel == "greater_than" else cfg.sweeps_equivalence
        acc[rel], inf[rel] = monte_carlo_upper_bound(rel, cfg.fractions, cfg.data_seeds, n=cfg.n, chains=cfg.chains,
                                                     sweeps=sweeps, seed=cfg.mc_seed)
    return BoundResult(cfg, acc, inf)


# ======================================================================= Fig. 3: accuracy vs data

def _inductive_mode(relation: str) -> str:
    """The combination mode that carries the relation's inductive bias (paper §3): mode 3 for the
    equivalence relations (equal iff the embeddings coincide), mode 2 for greater-than (sign of E_x − E_y)."""
    return "difference" if relation == "greater_than" else "squared_difference"


@dataclass(frozen=True, repr=False)
class DataSizeConfig(ConfigRepr):
    """Fig. 3: accuracy over all n² pairs against training fraction, for several architectures."""

    relations: tuple = ("mod3", "greater_than")  # Fig. 3 (a), (b)
    fractions: tuple = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 0.9)  # our choice: the paper's grid is not stated
    # (hidden layers, width, mode, d); mode None = the relation's inductive-bias mode. The legend's exact
    # entries are not stated in the paper; ours: the default, a small concat net and the mode-2/3 nets.
    architectures: tuple = ((3, 50, "concat", 2), (1, 10, "concat", 2), (0, 1, None, 2), (0, 1, None, 1))
    data_seeds: tuple = (0, 1, 2, 3, 4)  # the paper's seed count is unstated; one init seed per data seed (init_seed + s)
    init_seed: int = 0
    lr: float = 1e-3  # Table 3
    steps: int = 100_000  # Table 4 horizon
    eval_every: int = 1000

    def __post_init__(self):
        _check_relations(self.relations)
        _check_fractions("fractions", self.fractions)
        check_real("lr", self.lr, positive=True)
        for nh, w, mode, d in self.architectures:
            RelationModelConfig(hidden_layers=nh, width=w, mode=mode or "concat", d_embed=d)

    @classmethod
    def book_scale(cls) -> "DataSizeConfig":
        """The book-scale Fig. 3 run (the chapter's live run at ``REPRO_SCALE=book``)."""
        return cls(fractions=(0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75), architectures=((1, 10, "concat", 2), (0, 1, None, 2),
                   (0, 1, None, 1)), data_seeds=(0, 1, 2), lr=3e-3, steps=2000, eval_every=500)

    @classmethod
    def for_scale(cls) -> "DataSizeConfig":
        book = cls.book_scale()
        return by_scale(book=book, paper=cls(), smoke=replace(book, fractions=(0.1, 0.5), steps=50, eval_every=25))

    def model(self, arch, relation: str) -> RelationModelConfig:
        nh, w, mode, d = arch
        return RelationModelConfig(hidden_layers=nh, width=w, mode=mode or _inductive_mode(relation), d_embed=d)


def _arch_label(model: RelationModelConfig) -> str:
    """The legend label of one Fig. 3 architecture."""
    return f"$n_h$={model.hidden_layers}" + (f", w={model.width}" if model.hidden_layers else "") + \
        f", {model.mode.replace('_', ' ')}, d={model.d_embed}"


@dataclass
class DataSizeResult:
    config: DataSizeConfig
    accuracy: dict  # (relation, arch index) -> (F, S) final accuracy over all pairs (S: data seeds)
    labels: dict  # (relation, arch index) -> legend label

    def to_arrays(self) -> dict[str, np.ndarray]:
        """``<relation>_arch<a>``: the (fractions, seeds) accuracies, for the results store."""
        return {f"{rel}_arch{a}": np.asarray(self.accuracy[rel, a], dtype=float)
                for rel in self.config.relations for a in range(len(self.config.architectures))}

    @classmethod
    def from_arrays(cls, config: DataSizeConfig, arrays: dict[str, np.ndarray]) -> "DataSizeResult":
        keys = [(rel, a) for rel in config.relations for a in range(len(config.architectures))]
        got = required_arrays(arrays, [f"{rel}_arch{a}" for rel, a in keys], "stored Fig. 3 run")
        shape = (len(config.fractions), len(config.data_seeds))
        if any(v.shape != shape for v in got.values()):
            raise ValueError(f"the stored Fig. 3 run's arrays are not of shape {shape}.")
        return cls(config, {(rel, a): got[f"{rel}_arch{a}"] for rel, a in keys},
                   {(rel, a): _arch_label(config.model(config.architectures[a], rel)) for rel, a in keys})


def run_data_size(cfg: DataSizeConfig) -> DataSizeResult:
    """One batched program per architecture (its relations × fractions × data seeds)."""
    acc, labels = {}, {}
    tcfg = RelationTrainConfig(steps=cfg.steps, eval_every=cfg.eval_every)
    n_f, n_s = len(cfg.fractions), len(cfg.data_seeds)
    for a, arch in enumerate(cfg.architectures):
        groups = {}  # relations sharing one model config train together
        for rel in cfg.relations:
            groups.setdefault(cfg.model(arch, rel), []).append(rel)
        for model, rels in groups.items():
            lab, masks, seeds = [], [], []
            for rel in rels:
                m = relation_matrix(rel, model.n).ravel()
                for f in cfg.fractions:
                    for s in cfg.data_seeds:
                        lab.append(m)
                        masks.append(train_mask(model.n**2, f, s))
                        seeds.append(cfg.init_seed + s)
            R = len(lab)
            hist = train_relations(model, np.stack(lab), np.stack(masks), lr_enc=[cfg.lr] * R, lr_dec=[cfg.lr] * R,
                                   wd_dec=[0.0] * R, init_seeds=seeds, cfg=tcfg)
            final = hist.all_acc[:, -1].reshape(len(rels), n_f, n_s)
            for i, rel in enumerate(rels):
                acc[rel, a] = final[i]
                labels[rel, a] = _arch_label(model)
    return DataSizeResult(cfg, acc, labels)


def induction_gap(result: DataSizeResult, bound: BoundResult, relation: str, arch: int) -> float:
    """Mean over the Fig. 3 fractions of (Monte-Carlo bound − network accuracy over all pairs)."""
    return float(induction_gap_seeds(result, bound, relation, arch).mean())


def induction_gap_seeds(result: DataSizeResult, bound: BoundResult, relation: str, arch: int) -> np.ndarray:
    """(S,): per data seed, the mean over the Fig. 3 fractions of (Monte-Carlo bound − network accuracy)."""
    fr = np.asarray(result.config.fractions)
    mc = np.interp(fr, bound.config.fractions, bound.mc_mean(relation))
    return (mc[:, None] - result.accuracy[relation, arch]).mean(0)


# ======================================================================= Fig. 4: Goldilocks depth

@dataclass(frozen=True, repr=False)
class DepthConfig(ConfigRepr):
    """Fig. 4: test accuracy against decoder depth; width 10 and training fraction 0.6 (caption)."""

    relations: tuple = RELATIONS  # Fig. 4: the four relations
    depths: tuple = (0, 1, 2, 3, 4, 5, 6, 8, 10)  # our choice: the paper's grid is not stated
    width: int = 10  # Fig. 4 caption
    fraction: float = 0.6  # Fig. 4 caption
    data_seeds: tuple = (0, 1, 2, 3, 4)  # [UNKNOWN]; one init seed per data seed (init_seed + data seed)
    init_seed: int = 1
    lr: float = 1e-3  # Table 3
    steps: int = 100_000  # Table 4 horizon
    eval_every: int = 1000
    # float64 at book scale: deep decoders train chaotically, and in float32 the last bits of a CPU's
    # vector kernels already decide which seeds memorize (the paper's precision is unstated)
    dtype: str = "float32"

    def __post_init__(self):
        _check_relations(self.relations)
        for d in self.depths:
            check_int("depths", d, minimum=0)
        check_int("width", self.width, minimum=1)
        _check_fractions("fraction", (self.fraction,))

    @classmethod
    def book_scale(cls) -> "DepthConfig":
        """The book-scale Fig. 4 run (the chapter's live run at ``REPRO_SCALE=book``)."""
        return cls(depths=(0, 1, 2, 3, 5, 8), data_seeds=(0, 1, 2, 3, 4), steps=3000, eval_every=500, dtype="float64")

    @classmethod
    def for_scale(cls) -> "DepthConfig":
        book = cls.book_scale()
        return by_scale(book=book, paper=cls(), smoke=replace(book, depths=(0, 1), steps=50, eval_every=25))


@dataclass
class DepthResult:
    config: DepthConfig
    test_acc: np.ndarray  # (relations, depths, seeds)
    train_acc: np.ndarray

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"test_acc": self.test_acc, "train_acc": self.train_acc}

    @classmethod
    def from_arrays(cls, config: DepthConfig, arrays: dict[str, np.ndarray]) -> "DepthResult":
        got = required_arrays(arrays, ("test_acc", "train_acc"), "stored depth sweep")
        shape = (len(config.relations), len(config.depths), len(config.data_seeds))
        if any(v.shape != shape for v in got.values()):
            raise ValueError(f"the stored depth sweep's arrays are not of shape {shape}: recompute it with "
                             "`python -m repro.experiments.baek2024_geneft --store book/_results --only depth`.")
        return cls(config, got["test_acc"], got["train_acc"])


def stored_depth_config() -> DepthConfig:
    """Fig. 4 trained long enough to fit: every depth of the default grid (0-10), five seeds, 20 000 Adam steps
    (the book's live sweep runs 3 000, after which some deep decoders have not fitted their training pairs;
    the paper's horizon is 10^5). float32: the stored run is loaded, not recomputed on other machines."""
    return replace(DepthConfig(), steps=20_000, eval_every=1000)


def stored_depth(cfg: DepthConfig, root) -> tuple[DepthResult, dict] | None:
    """The stored depth sweep for exactly ``cfg`` under ``root`` and its manifest, or None when none is stored."""
    return ResultsStore(root).load_result(cfg, "geneft-depth", lambda arrays: DepthResult.from_arrays(cfg, arrays))


DEEP_DEPTHS = (1, 2, 3, 6, 8, 10, 12)  # the peak (1-3) and the deep end (6-12) at one budget
DEEP_SEEDS = tuple(range(10))


def deep_depth_config(depth: int) -> DepthConfig:
    """One depth of Fig. 4 at the paper's horizon (Table 4: 10^5 steps), each its own stored entry (resumable):
    ten seeds, so that the deep end rests on at least five seeds that fitted their training pairs (the 20 000-step
    sweep fitted as few as one of five at depth 10). ``DEEP_DEPTHS``: the peak (1-3) and depths 6-12, the deep end,
    evaluated at the end only. float32, as the other stored sweep."""
    check_choice("depth", depth, DEEP_DEPTHS)
    return replace(DepthConfig(), depths=(depth,), data_seeds=DEEP_SEEDS, steps=100_000, eval_every=5000)


def stored_deep_depths(root) -> tuple[DepthResult, list[dict]] | None:
    """Every depth of :func:`deep_depth_config` stored under ``root``, joined along the depth axis, with their
    manifests; None until all are stored."""
    found = [ResultsStore(root).load_result(deep_depth_config(d), "geneft-depth-deep",
                                            lambda arrays, d=d: DepthResult.from_arrays(deep_depth_config(d), arrays))
             for d in DEEP_DEPTHS]
    if any(f is None for f in found):
        return None
    cfg = replace(deep_depth_config(DEEP_DEPTHS[0]), depths=DEEP_DEPTHS)
    return (DepthResult(cfg, np.concatenate([r.test_acc for r, _ in found], axis=1),
                        np.concatenate([r.train_acc for r, _ in found], axis=1)), [m for _, m in found])


def fewest_fitted_standard_error(fitted: np.ndarray) -> float | None:
    """The seed standard error of the fewest seeds that fitted in any cell, ``fitted`` (..., seeds) bool (every axis
    but the last a cell: relation, depth): the fewest on resampled seeds
    (:func:`~repro.metrics.bootstrap.bootstrap_standard_error`)."""
    fitted = np.asarray(fitted, dtype=bool)
    return bootstrap_standard_error(lambda idx: fitted[..., list(idx)].sum(axis=-1).min(), fitted.shape[-1])


def run_depth(cfg: DepthConfig, progress: bool = False, checkpoint=None) -> DepthResult:
    """One batched program per depth: all relations × seeds together, trained for ``cfg.steps`` steps
    (``progress``: one line per depth). ``checkpoint`` (a stored run's, resumable) needs one depth ≥ 1."""
    if checkpoint is not None and (len(cfg.depths) != 1 or cfg.depths[0] < 1):
        raise ValueError(f"depths={cfg.depths!r}: a checkpointed depth run trains one depth >= 1 (one training "
                         "program per checkpoint); store each depth as its own entry.")
    n_r, n_s = len(cfg.relations), len(cfg.data_seeds)
    test = np.zeros((n_r, len(cfg.depths), n_s))
    train = np.zeros_like(test)
    tcfg = RelationTrainConfig(steps=cfg.steps, eval_every=cfg.eval_every, dtype=cfg.dtype)
    for k, depth in enumerate(cfg.depths):
        model = RelationModelConfig(hidden_layers=depth, width=cfg.width)
        lab = [relation_matrix(r, model.n).ravel() for r in cfg.relations for _ in cfg.data_seeds]
        masks = [train_mask(model.n**2, cfg.fraction, s) for _ in cfg.relations for s in cfg.data_seeds]
        seeds = [cfg.init_seed + s for _ in cfg.relations for s in cfg.data_seeds]
        R = len(lab)
        args = (model, np.stack(lab), np.stack(masks))
        kwargs = dict(lr_enc=[cfg.lr] * R, lr_dec=[cfg.lr] * R, wd_dec=[0.0] * R, init_seeds=seeds, cfg=tcfg)
        if depth == 0:  # a linear decoder: train_until_decided needs a hidden layer, and this one is cheap anyway
            h = train_relations(*args, **kwargs)
            test_acc, train_acc = h.test_acc[:, -1], h.train_acc[:, -1]
        else:
            # The same training as train_relations (tests/test_trainer_relations.py), without the early exit;
            # it records only the accuracies the sweep reads.
            h = train_until_decided(*args, **kwargs, stop=False, record=True, progress=progress and checkpoint is not None,
                                    checkpoint=checkpoint)
            test_acc, train_acc = h.test_acc_history[:, -1], h.train_acc_history[:, -1]
        test[:, k] = test_acc.reshape(n_r, n_s)
        train[:, k] = train_acc.reshape(n_r, n_s)
        if progress:
            print(f"depth {depth}: {R} runs x {cfg.steps} steps done ({time.strftime('%H:%M:%S')})", flush=True)
    return DepthResult(cfg, test, train)


# ======================================================================= the live comparisons, confirmed

GAP_NAME = "induction gap: generic minus inductive-bias network (d={d}), {rel}"
CONFUSION_NAME = "depth 0 training accuracy, {rel} (confusion)"
CONFUSION_RELATIONS = ("mod3", "mod5", "bipartite")
CONFIRM_LABEL = "geneft-information-confirm"
CONFIRM_PREFIX = "confirmation (fresh seeds, stored): "


def book_statistics(sizes: DataSizeResult, depth: DepthResult, bound: BoundResult) -> dict[str, tuple[float, np.ndarray]]:
    """The statistics of the chapter's book-scale Fig. 3 and Fig. 4 comparisons, ``name -> (ours, per-seed values)``,
    one function for the live runs and their stored confirmation. The induction gaps: the generic network's
    (architecture 0) mean gap to the bound minus the inductive-bias network's (no hidden layer, the relation's mode,
    d = 2 and d = 1), a mean over seeds (the bound cancels in the difference); depth 0: the median training
    accuracy over seeds of mod 3, mod 5 and bipartite."""
    archs = sizes.config.architectures
    out = {}
    for d, rels in ((2, sizes.config.relations), (1, ("greater_than", "mod3"))):
        bias = archs.index((0, 1, None, d))
        for rel in rels:
            out[GAP_NAME.format(d=d, rel=LABELS[rel])] = (
                induction_gap(sizes, bound, rel, 0) - induction_gap(sizes, bound, rel, bias),
                induction_gap_seeds(sizes, bound, rel, 0) - induction_gap_seeds(sizes, bound, rel, bias))
    k0 = depth.config.depths.index(0)
    for rel in CONFUSION_RELATIONS:
        per_seed = depth.train_acc[depth.config.relations.index(rel), k0]
        out[CONFUSION_NAME.format(rel=LABELS[rel])] = (float(np.median(per_seed)), per_seed)
    return out


@dataclass(frozen=True, repr=False)
class ConfirmationConfig(ConfigRepr):
    """The chapter's two book-scale live runs (Fig. 3 and Fig. 4) as one stored run."""

    sizes: DataSizeConfig = DataSizeConfig()
    depth: DepthConfig = DepthConfig()


CONFIRM_SIZE_SEEDS = (1000, 1001, 1002)  # Fig. 3: three seeds, as live (0, 1, 2); init seeds 1000-1002
CONFIRM_DEPTH_SEEDS = (1010, 1011, 1012, 1013, 1014)  # Fig. 4: five, as live (0-4); init seeds 1011-1015


def confirmation_config() -> ConfirmationConfig:
    """The book-scale Fig. 3 and Fig. 4 runs with fresh seeds. The live runs' comparisons were seen before they were
    registered, so they are exploratory and never decide a paper claim; copies of them registered for this stored
    run (label :data:`CONFIRM_LABEL`, sealed when it starts) are confirmatory. Everything is the book-scale config
    (whatever ``REPRO_SCALE`` says) but the data seeds (each its own training set, and initialization init_seed +
    seed), which no run of the chapter used: the live runs and the stored sweeps use seeds 0-9 (initializations
    0-10)."""
    return ConfirmationConfig(sizes=replace(DataSizeConfig.book_scale(), data_seeds=CONFIRM_SIZE_SEEDS),
                              depth=replace(DepthConfig.book_scale(), data_seeds=CONFIRM_DEPTH_SEEDS))


@dataclass
class ConfirmationResult:
    config: ConfirmationConfig
    sizes: DataSizeResult
    depth: DepthResult

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {**{f"sizes_{k}": v for k, v in self.sizes.to_arrays().items()},
                **{f"depth_{k}": v for k, v in self.depth.to_arrays().items()}}

    @classmethod
    def from_arrays(cls, config: ConfirmationConfig, arrays: dict[str, np.ndarray]) -> "ConfirmationResult":
        part = lambda prefix: {k.removeprefix(prefix): v for k, v in arrays.items() if k.startswith(prefix)}  # noqa: E731
        return cls(config, DataSizeResult.from_arrays(config.sizes, part("sizes_")),
                   DepthResult.from_arrays(config.depth, part("depth_")))


def run_confirmation(cfg: ConfirmationConfig, progress: bool = False) -> ConfirmationResult:
    """Both runs of ``cfg``, as the chapter trains them live."""
    return ConfirmationResult(cfg, run_data_size(cfg.sizes), run_depth(cfg.depth, progress=progress))


def stored_confirmation(root, cfg: ConfirmationConfig | None = None) -> tuple[ConfirmationResult, dict] | None:
    """The stored confirmation run (:func:`confirmation_config` by default) under ``root`` and its manifest, or None
    when it is not stored."""
    cfg = confirmation_config() if cfg is None else cfg
    return ResultsStore(root).load_result(cfg, CONFIRM_LABEL, lambda arrays: ConfirmationResult.from_arrays(cfg, arrays))


# ======================================================================= Figs. 5 and 6: phase diagrams

@dataclass(frozen=True, repr=False)
class PhaseConfig(ConfigRepr):
    """Figs. 5 and 6: phases over a grid of (row value × decoder learning rate), per relation.

    ``rows = "lr_enc"`` gives Fig. 5 (encoder × decoder lr); ``rows = "wd_dec"`` gives Fig. 6 (decoder
    weight decay × decoder lr, encoder lr fixed at ``lr_enc``).
    """

    rows: str = "lr_enc"
    relations: tuple = ("mod3", "greater_than", "bipartite")  # Figs. 5, 6 (a)-(c)
    row_values: tuple = tuple(10.0 ** np.arange(-6, -0.9, 0.5))  # [UNKNOWN] range (unstated in the paper): 1e-6 … 1e-1
    lr_dec: tuple = tuple(10.0 ** np.arange(-6, -0.9, 0.5))
    lr_enc: float = 1e-5  # Fig. 6 caption: encoder lr fixed to 1e-5 (used when rows = "wd_dec")
    wd_dec: float = 0.0  # Table 3 (used when rows = "lr_enc")
    width: int = 50  # Table 3
    hidden_layers: int = 3  # Table 3
    fraction: float = 0.75  # Table 3
    data_seed: int = 0
    init_seed: int = 0  # within one seed, one initialization is shared across the grid (cells differ only by their values)
    seeds: tuple = (0, 1, 2, 3, 4)  # seed s: training split data_seed + s, initialization init_seed + s [UNKNOWN]
    steps: int = 100_000  # Table 4: criteria within 10^5 steps
    eval_every: int = 100
    threshold: float = 0.9  # Table 4
    gap: int = 1000  # Table 4: generalization if test follows train within 10^3 steps
    optimizer: str = "adam"  # full-batch Adam (unstated in the paper; our choice) or "gd" (see RelationTrainConfig)

    def __post_init__(self):
        check_choice("rows", self.rows, ("lr_enc", "wd_dec"))
        check_choice("optimizer", self.optimizer, tuple(RELATION_OPTIMIZERS))
        if self.optimizer == "gd" and (self.rows == "wd_dec" or self.wd_dec):
            raise ValueError("optimizer='gd' has no weight decay: it needs rows='lr_enc' and wd_dec=0.")
        _check_relations(self.relations)
        for v in self.row_values:
            check_real("row_values", v, nonnegative=True, positive=self.rows == "lr_enc")
        for v in self.lr_dec:
            check_real("lr_dec", v, positive=True)
        check_real("lr_enc", self.lr_enc, positive=True)
        check_real("wd_dec", self.wd_dec, nonnegative=True)
        check_int("steps", self.steps, minimum=1)
        if not self.seeds:
            raise ValueError("seeds must not be empty.")
        for sd in self.seeds:
            check_int("seeds", sd, minimum=0)

    @classmethod
    def fig5(cls) -> "PhaseConfig":
        grid = tuple(10.0 ** np.arange(-4, -1.4, 0.5))  # 1e-4 … 3e-2
        book = cls(row_values=grid, lr_dec=grid, width=20, steps=1500, eval_every=25, seeds=(0, 1, 2))
        # Smoke: long enough for memorization below and comprehension above the boundary in most columns, so
        # that fit_boundary has clean columns to fit (at 40 steps every run was still confused).
        return by_scale(book=book, paper=cls(), smoke=replace(book, row_values=grid[1:5], lr_dec=grid[-2:], steps=300,
                                                                seeds=(0, 1)))

    @classmethod
    def fig6(cls) -> "PhaseConfig":
        paper = cls(rows="wd_dec", row_values=(0.0, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0))  # [UNKNOWN] range (unstated in the paper)
        book = replace(paper, relations=("mod3",), row_values=(0.0, 1e-2, 1e-1, 1.0), lr_enc=3e-4,
                       lr_dec=tuple(10.0 ** np.arange(-4, -1.4, 0.5)), width=20, steps=1500, eval_every=25,
                       seeds=(0, 1, 2))
        return by_scale(book=book, paper=paper, smoke=replace(book, row_values=(0.0, 1.0), lr_dec=(1e-3, 1e-2), steps=40,
                                                                eval_every=10, seeds=(0, 1)))


@dataclass
class PhaseResult:
    config: PhaseConfig
    phases: dict  # relation -> (seeds, rows, lr_dec) phase names
    test_acc: dict  # relation -> (seeds, rows, lr_dec) test accuracy at the run's last evaluation (a run whose
    # phase is decided stops early: see train_until_decided)
    examples: dict = field(default_factory=dict)  # relation -> {phase: PhaseExample} (live runs; stored maps keep none)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Phases as indices into :data:`repro.metrics.phases.PHASES` (no object arrays: nothing loads pickles)."""
        out = {}
        for rel in self.config.relations:
            out[f"{rel}_phase"] = np.vectorize(PHASES.index, otypes=[np.int8])(self.phases[rel])
            out[f"{rel}_test_acc"] = np.asarray(self.test_acc[rel], dtype=float)
        return out

    @classmethod
    def from_arrays(cls, config: "PhaseConfig", arrays: dict[str, np.ndarray]) -> "PhaseResult":
        arrays = required_arrays(arrays, [f"{r}_{k}" for r in config.relations for k in ("phase", "test_acc")],
                                 "stored phase diagram")
        names = np.asarray(PHASES, dtype=object)
        return cls(config, {r: names[arrays[f"{r}_phase"]] for r in config.relations},
                   {r: arrays[f"{r}_test_acc"] for r in config.relations})

    def generalized(self, relation: str) -> np.ndarray:
        """(seeds, rows, lr_dec) bool: the run generalized (comprehension or grokking)."""
        return np.isin(self.phases[relation], GENERALIZED)

    def generalized_fraction(self, relation: str) -> np.ndarray:
        """(rows, lr_dec): fraction of seeds that generalize in each cell."""
        return self.generalized(relation).mean(0)

    def majority_phase(self, relation: str) -> np.ndarray:
        """(rows, lr_dec): the phase most seeds show in each cell (ties: the earlier phase in PHASES)."""
        ph = self.phases[relation]
        counts = np.stack([(ph == p).sum(0) for p in PHASES])
        return np.asarray(PHASES, dtype=object)[counts.argmax(0)]


@dataclass
class DecidedRuns:
    """Per run of :func:`train_until_decided` (arrays of shape (R,)): the first evaluation steps at which
    training and test accuracy exceed the threshold (−1: never), and the test accuracy and step of the run's
    last evaluation (the step budget, or the evaluation at which its phase was decided)."""

    steps: np.ndarray  # (T,) evaluation steps of the schedule
    first_train: np.ndarray
    first_test: np.ndarray
    test_acc: np.ndarray
    stopped_at: np.ndarray
    train_acc_history: np.ndarray | None = None  # (R, T), nan after a run stopped (record=True only)
    test_acc_history: np.ndarray | None = None


def decided(threshold: float):
    """The stopping rule of :func:`train_until_decided` for :func:`repro.training.trainer.train`'s ``until``: a run stops at
    the evaluation at which both its training and its test accuracy have exceeded ``threshold`` (at this or an
    earlier evaluation). Its phase (comprehension or grokking) is then decided, since the phase rule of Table 4
    only reads the two first crossings."""
    def until(steps: np.ndarray, metrics: dict) -> np.ndarray:
        crossed = lambda key: first_step(steps, metrics[key], threshold, strict=True) >= 0
        return crossed("train_acc") & crossed("val_acc")
    return until


def train_until_decided(
    model: RelationModelConfig,
    labels: np.ndarray,
    masks: np.ndarray,
    *,
    lr_enc: Sequence[float],
    lr_dec: Sequence[float],
    wd_dec: Sequence[float],
    init_seeds: Sequence[int],
    cfg: RelationTrainConfig = RelationTrainConfig(),
    threshold: float = 0.9,
    stop: bool = True,
    record: bool = False,
    progress: bool = False,
    checkpoint=None,
) -> DecidedRuns:
    """Train R networks of the phase diagrams of Figs. 5–6 at once, on one torch thread: the training of
    :func:`repro.training.relation_runs.train_relations` (same initialization, loss and AdamW update, full batch).

    It returns what the phase rule of Table 4 needs: per run, the first evaluation steps at which training
    and test accuracy exceed ``threshold``. With ``stop`` (the default), a run leaves the batch at the
    evaluation at which both accuracies have crossed the threshold (:func:`decided`): runs are independent,
    so the others continue unchanged. ``record``: also return the accuracy histories (nan after a stop).

    The model is the concatenation one with at least one hidden layer, which :mod:`repro.models.fastgrad`
    differentiates by hand (each run forwarding only its training pairs between evaluations).
    """
    check_choice("mode", model.mode, ("concat",))
    check_int("hidden_layers", model.hidden_layers, minimum=1)
    check_real("threshold", threshold)
    with single_thread():
        h = train_relation_runs(model, labels, masks, lr_enc=lr_enc, lr_dec=lr_dec, wd_dec=wd_dec,
                                init_seeds=init_seeds, cfg=cfg, until=decided(threshold) if stop else None, fast_grad=True,
                                progress=progress, checkpoint=checkpoint)
    train_acc, test_acc = h["train_acc"], h["val_acc"]
    # the run's last evaluation: the step budget, or the evaluation at which its phase was decided
    last = train_acc.shape[1] - 1 - np.argmax(~np.isnan(train_acc[:, ::-1]), axis=1)
    rows = np.arange(train_acc.shape[0])
    return DecidedRuns(h.steps, first_step(h.steps, train_acc, threshold, strict=True),
                       first_step(h.steps, test_acc, threshold, strict=True), test_acc[rows, last], h.steps[last],
                       train_acc if record else None, test_acc if record else None)


def run_phases(cfg: PhaseConfig, progress: bool = False, checkpoint=None) -> PhaseResult:
    """All relations × seeds × grid cells in one batched program; a run stops once its phase is decided.
    ``progress``: a progress bar; ``checkpoint``: a stored run's (resumable, see :func:`main`)."""
    model = RelationModelConfig(hidden_layers=cfg.hidden_layers, width=cfg.width)
    rows, cols = np.meshgrid(cfg.row_values, cfg.lr_dec, indexing="ij")
    n_cells, n_seeds, n_rel = rows.size, len(cfg.seeds), len(cfg.relations)
    n_runs = n_rel * n_seeds * n_cells  # order: relation, seed, cell
    lab = np.concatenate([np.stack([relation_matrix(r, model.n).ravel()] * (n_seeds * n_cells)) for r in cfg.relations])
    seed_masks = [train_mask(model.n**2, cfg.fraction, cfg.data_seed + sd) for sd in cfg.seeds]
    masks = np.stack([seed_masks[k] for _ in cfg.relations for k in range(n_seeds) for _ in range(n_cells)])
    init_seeds = [cfg.init_seed + sd for _ in cfg.relations for sd in cfg.seeds for _ in range(n_cells)]
    tile = lambda a: np.tile(a.ravel(), n_rel * n_seeds)
    if cfg.rows == "lr_enc":
        lr_enc, wd = tile(rows), np.full(n_runs, cfg.wd_dec)
    else:
        lr_enc, wd = np.full(n_runs, cfg.lr_enc), tile(rows)
    h = train_until_decided(model, lab, masks, lr_enc=lr_enc, lr_dec=tile(cols), wd_dec=wd, init_seeds=init_seeds,
                            cfg=RelationTrainConfig(steps=cfg.steps, eval_every=cfg.eval_every, optimizer=cfg.optimizer),
                            threshold=cfg.threshold, progress=progress, checkpoint=checkpoint, record=True)
    shape = (n_rel, n_seeds) + rows.shape
    phases = classify(h.first_train, h.first_test, cfg.gap).reshape(shape)
    test = h.test_acc.reshape(shape)
    return PhaseResult(cfg, {r: phases[i] for i, r in enumerate(cfg.relations)},
                       {r: test[i] for i, r in enumerate(cfg.relations)},
                       {r: phase_examples(cfg, phases[i], h.steps, h.train_acc_history.reshape(shape + (-1,))[i],
                                          h.test_acc_history.reshape(shape + (-1,))[i])
                        for i, r in enumerate(cfg.relations)})


def phase_examples(cfg: PhaseConfig, seed_phases: np.ndarray, steps: np.ndarray, train_acc: np.ndarray,
                   test_acc: np.ndarray) -> dict[str, PhaseExample]:
    """For each phase one relation's map shows, one run in it (:func:`repro.metrics.phases.example_runs`) and its
    curves; ``train_acc`` / ``test_acc`` are (seeds, rows, lr_dec, evaluations), nan after a run stopped."""
    row_name = "enc. lr" if cfg.rows == "lr_enc" else "wd"
    return {phase: PhaseExample(phase, {"dec. lr": cfg.lr_dec[ix], row_name: cfg.row_values[iy]},
                                cfg.init_seed + cfg.seeds[s], steps, train_acc[s, iy, ix], test_acc[s, iy, ix])
            for phase, (s, iy, ix) in example_runs(seed_phases).items()}


@dataclass
class BoundaryFit:
    slope: float  # common slope of the fit pooled over relations and seeds
    slope_err: float
    intercepts: dict  # relation -> intercept (log10 lr_enc at log10 lr_dec = 0), pooled over seeds
    intercept_errs: dict
    points: dict  # relation -> (log10 lr_dec, log10 lr_enc boundary) arrays, all seeds together
    half_step: float
    seed_slopes: np.ndarray = None  # (seeds,) the same fit on each seed alone (nan: too few clean columns)
    seed_columns: np.ndarray = None  # (seeds,) clean boundary columns per seed, all relations together
    # the pooled slope refitted on seeds resampled with replacement (the seed-to-seed part of its uncertainty)
    boot_slopes: np.ndarray = None


def boundary_points(result: PhaseResult, relation: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per decoder-lr column of seed index ``seed``, log10 of the encoder lr where memorization turns into
    generalization.

    A column contributes only if it is clean: memorization at every encoder lr below the boundary
    and generalization at every one above it (the boundary is placed midway, in log, between the two
    rows). Columns without both phases, or with confusion or a non-monotone pattern, are skipped.
    """
    cfg = result.config
    if cfg.rows != "lr_enc":
        raise ValueError("boundary_points needs a Fig. 5 result (rows = 'lr_enc').")
    phases = result.phases[relation][seed]
    log_enc = np.log10(cfg.row_values)
    xs, ys = [], []
    for j, lr_dec in enumerate(cfg.lr_dec):
        col = phases[:, j]
        gen = np.isin(col, GENERALIZED)
        mem = col == "memorization"
        if not gen.any() or not mem.any():
            continue
        k = int(np.argmax(gen))  # first generalizing row (encoder lr ascending)
        if gen[k:].all() and mem[:k].all():
            xs.append(np.log10(lr_dec))
            ys.append((log_enc[k - 1] + log_enc[k]) / 2)
    return np.array(xs), np.array(ys)


def _common_slope_fit(pts: dict, relations, half: float):
    """Least squares y = slope·x + intercept_relation over the given {relation: [(xs, ys), ...]} point sets."""
    used = [r for r in relations if sum(len(p[0]) for p in pts[r]) >= 1]
    rows, y = [], []
    for i, r in enumerate(used):
        for xs, ys in pts[r]:
            for x, b in zip(xs, ys):
                rows.append([x] + [1.0 if k == i else 0.0 for k in range(len(used))])
                y.append(b)
    if len(y) < len(used) + 2:
        return None
    A, y = np.array(rows), np.array(y)
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    resid = y - A @ coef
    dof = len(y) - A.shape[1]
    cov_inv = np.linalg.inv(A.T @ A)
    sigma2 = max(float(resid @ resid) / dof if dof > 0 else 0.0, (2 * half) ** 2 / 12)
    err = np.sqrt(np.diag(cov_inv) * sigma2)
    return coef, err, used


def fit_boundary(result: PhaseResult, n_boot: int = 1000) -> BoundaryFit:
    """Least-squares fit log10 η_enc* = slope · log10 η_dec + intercept_task, one common slope, pooled over
    the seeds' clean boundary columns (and, for the spread, the same fit on each seed alone, and on ``n_boot``
    resamplings of the seeds with replacement).

    Each boundary point is only known to within ± half a grid step (uniform), i.e. σ = step/√12; the
    slope's standard error is the larger of that propagated error and the residual-based one.
    """
    cfg = result.config
    half = float(np.diff(np.log10(cfg.row_values)).mean()) / 2
    n_seeds = len(cfg.seeds)
    per_seed = {r: [boundary_points(result, r, k) for k in range(n_seeds)] for r in cfg.relations}
    pooled = _common_slope_fit(per_seed, cfg.relations, half)
    if pooled is None:
        raise ValueError("too few clean boundary columns to fit a slope; widen the grid.")
    coef, err, used = pooled
    seed_slopes = []
    for k in range(n_seeds):
        one = _common_slope_fit({r: [per_seed[r][k]] for r in cfg.relations}, cfg.relations, half)
        seed_slopes.append(float(one[0][0]) if one is not None else np.nan)
    columns = np.array([sum(len(per_seed[r][k][0]) for r in cfg.relations) for k in range(n_seeds)])
    points = {r: (np.concatenate([p[0] for p in per_seed[r]]), np.concatenate([p[1] for p in per_seed[r]]))
              for r in cfg.relations}
    rng = np.random.default_rng(0)  # fixed: the bootstrap is part of the analysis, the same on every machine
    boot = []
    for _ in range(n_boot):
        pick = rng.integers(0, n_seeds, n_seeds)
        one = _common_slope_fit({r: [per_seed[r][k] for k in pick] for r in cfg.relations}, cfg.relations, half)
        boot.append(float(one[0][0]) if one is not None else np.nan)
    return BoundaryFit(float(coef[0]), float(err[0]), {r: float(coef[1 + i]) for i, r in enumerate(used)},
                       {r: float(err[1 + i]) for i, r in enumerate(used)}, points, half, np.array(seed_slopes), columns,
                       np.array(boot))


@dataclass
class LogisticBoundary:
    """The generalization/memorization boundary of a Fig. 5 result fitted to every decided run (see
    :func:`fit_boundary_logistic`). Rates in log10; the boundary of task r is the line where the fitted
    log-odds of generalizing vanish: log10 η_enc = slope · log10 η_dec + intercepts[r]."""

    slope: float  # d log10 η_enc / d log10 η_dec along the boundary (±inf: a vertical boundary)
    intercepts: dict  # relation -> log10 η_enc on the boundary at η_dec = 1
    generalize_above: bool  # generalization lies at larger encoder rates than the boundary (our reading of Eq. 11)
    weights: tuple  # (w_dec, w_enc): the log-odds' gradient in (log10 η_dec, log10 η_enc)
    decided: int  # runs that memorized or generalized (the fit's data), all tasks and seeds
    confused: int  # runs still confused at the budget (left out: their phase is undecided)
    misclassified: int  # decided runs on the wrong side of their task's fitted boundary
    seed_slopes: np.ndarray  # (seeds,) the same fit on each seed alone
    boot_slopes: np.ndarray  # the fit on seeds resampled with replacement (the seed-to-seed spread)


RIDGE = 1e-2  # the fit's ridge penalty (in log-odds per decade, squared): keeps a cleanly separated grid finite


def _logistic_fit(x: np.ndarray, y: np.ndarray, task: np.ndarray, gen: np.ndarray, n_tasks: int) -> np.ndarray | None:
    """Ridge-penalized maximum likelihood of P(generalize) = σ(w_x·x + w_y·y + c_task) by Newton's method; returns
    (w_x, w_y, c_0 … c_{n_tasks−1}), or None without both outcomes. Separable data (a clean boundary) have no
    unpenalized maximum; the small penalty makes the direction the large-margin one."""
    if gen.all() or not gen.any():
        return None
    A = np.column_stack([x, y, np.eye(n_tasks)[task]])
    theta = np.zeros(A.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(A @ theta)))
        grad = A.T @ (gen - p) - RIDGE * theta
        hess = (A * (p * (1 - p))[:, None]).T @ A + RIDGE * np.eye(A.shape[1])
        step = np.linalg.solve(hess, grad)
        theta = theta + step
        if np.abs(step).max() < 1e-10:
            break
    return theta


def _logistic_data(result: PhaseResult) -> tuple[list, float, float, int]:
    """A Fig. 5 result's decided runs for :func:`fit_boundary_logistic`: per seed (x, y, task, generalized), rates
    in log10 centred on the grid's middle (xc, yc), and the count of confused runs left out."""
    cfg = result.config
    if cfg.rows != "lr_enc":
        raise ValueError("fit_boundary_logistic needs a Fig. 5 result (rows = 'lr_enc').")
    rows, cols = np.meshgrid(np.log10(cfg.row_values), np.log10(cfg.lr_dec), indexing="ij")
    yc, xc = float(rows.mean()), float(cols.mean())
    data = []  # per seed: (x, y, task, generalized) of its decided runs
    confused = 0
    for k in range(len(cfg.seeds)):
        xs, ys, ts, gs = [], [], [], []
        for t, rel in enumerate(cfg.relations):
            ph = result.phases[rel][k]
            keep = ph != "confusion"
            confused += int((~keep).sum())
            xs.append(cols[keep] - xc), ys.append(rows[keep] - yc), ts.append(np.full(int(keep.sum()), t))
            gs.append(np.isin(ph[keep], GENERALIZED))
        data.append(tuple(np.concatenate(a) for a in (xs, ys, ts, gs)))
    return data, xc, yc, confused


def _logistic_fit_seeds(data: list, n_tasks: int, seeds) -> np.ndarray | None:
    """:func:`_logistic_fit` on the decided runs of the seeds at indices ``seeds`` (repeats allowed)."""
    parts = [data[k] for k in seeds]
    return _logistic_fit(*(np.concatenate([p[i] for p in parts]) for i in range(4)), n_tasks)


def _logistic_intercepts(theta: np.ndarray, xc: float, yc: float) -> np.ndarray:
    """(tasks,): log10 η_enc on each task's fitted boundary at η_dec = 1 (nan: a boundary with no η_enc dependence)."""
    w_x, w_y = float(theta[0]), float(theta[1])
    return np.array([yc + (w_x * xc - c) / w_y if w_y != 0 else np.nan for c in theta[2:]])


def fit_boundary_logistic(result: PhaseResult, n_boot: int = 200) -> LogisticBoundary:
    """Fig. 5's boundary from every decided run, whatever the pattern: a logistic model of generalized
    (comprehension or grokking) against memorized in (log10 η_dec, log10 η_enc), one common direction for all
    tasks and one offset per task, fitted to all seeds at once (rates centred on the grid's middle). No column
    is dropped: a boundary that falls to the right (the paper's slope −1, generalization at low rates) fits as
    well as one that rises, and a vertical one (no dependence on η_enc) gives an infinite slope. Confused runs
    (no phase within the budget) are left out and counted. Spread: the same fit per seed and on ``n_boot``
    resamplings of the seeds (fixed generator: the analysis is the same on every machine)."""
    cfg = result.config
    data, xc, yc, confused = _logistic_data(result)
    n_seeds = len(cfg.seeds)
    fit = partial(_logistic_fit_seeds, data, len(cfg.relations))

    def slope_of(theta):
        return float(-theta[0] / theta[1]) if theta is not None and theta[1] != 0 else (
            np.inf if theta is not None else np.nan)

    theta = fit(range(n_seeds))
    if theta is None:
        raise ValueError("fit_boundary_logistic: the decided runs are all memorized or all generalized; no boundary "
                         "lies inside the grid.")
    w_x, w_y = float(theta[0]), float(theta[1])
    x, y, t, g = (np.concatenate([d[i] for d in data]) for i in range(4))
    wrong = int(((w_x * x + w_y * y + theta[2:][t] > 0) != g).sum())
    intercepts = dict(zip(cfg.relations, map(float, _logistic_intercepts(theta, xc, yc))))
    rng = np.random.default_rng(0)
    boot = [slope_of(fit(rng.integers(0, n_seeds, n_seeds))) for _ in range(n_boot)]
    return LogisticBoundary(slope_of(theta), intercepts, w_y > 0, (w_x, w_y), int(len(g)), confused, wrong,
                            np.array([slope_of(fit([k])) for k in range(n_seeds)]), np.array(boot))


def intercept_spread_standard_error(result: PhaseResult) -> float | None:
    """The seed standard error of the spread of :func:`fit_boundary_logistic`'s per-task intercepts (max − min,
    decades; a fit pooled over the seeds, so no one value per seed gives it): the same fit and spread on resampled
    seeds (:func:`~repro.metrics.bootstrap.bootstrap_standard_error`)."""
    data, xc, yc, _ = _logistic_data(result)

    def spread(seeds):
        theta = _logistic_fit_seeds(data, len(result.config.relations), seeds)
        return np.ptp(_logistic_intercepts(theta, xc, yc)) if theta is not None else np.nan

    return bootstrap_standard_error(_once_per_resample(spread), len(result.config.seeds))


PRODUCT_RULE = 1e-7  # §5's rule of thumb: generalization where η_enc·η_dec ≲ 1e-7


@dataclass
class ProductRule:
    """Fig. 5 against §5's rule of thumb η_enc·η_dec ≲ ``bound`` (:func:`product_rule`). Counts pool every task
    and seed; ``low`` marks the grid cells at or below the bound (the paper's low-rate regime)."""

    bound: float
    low: np.ndarray  # (rows, lr_dec) bool
    generalizing: int  # generalizing runs
    above: int  # of them, runs whose product exceeds the bound (the rule's violations)
    seed_share_above: np.ndarray  # (seeds,): above / generalizing per seed (0 where a seed has none)
    low_runs: int  # runs in the low cells
    low_confused: int  # of them, still undecided (confusion) at the budget
    low_generalized: int
    seed_low_decided: np.ndarray  # (seeds,): the share of each seed's runs in the low cells that are decided

    @property
    def share_above(self) -> float:
        """Share of generalizing runs that break the rule (0 when none generalizes)."""
        return self.above / max(self.generalizing, 1)

    @property
    def low_decided(self) -> float:
        return 1 - self.low_confused / self.low_runs if self.low_runs else float("nan")

    @property
    def low_generalized_share(self) -> float:
        return self.low_generalized / self.low_runs if self.low_runs else float("nan")


def product_rule(result: PhaseResult, bound: float = PRODUCT_RULE) -> ProductRule:
    """How a Fig. 5 grid (``rows = "lr_enc"``) bears on §5's product rule. A cell whose product equals the bound up
    to rounding (10^-3.5 · 10^-3.5 is 1.0000000000000002e-07 in floats) counts as at the bound, so inside the rule."""
    c = result.config
    if c.rows != "lr_enc":
        raise ValueError(f"product_rule needs a Fig. 5 grid (rows='lr_enc'); the result has rows={c.rows!r}.")
    check_real("bound", bound, positive=True)
    rows, cols = np.meshgrid(c.row_values, c.lr_dec, indexing="ij")
    low = rows * cols <= bound * (1 + 1e-9)
    gen = np.stack([result.generalized(r) for r in c.relations])  # (tasks, seeds, rows, cols)
    phases = np.stack([result.phases[r] for r in c.relations])
    above = gen & ~low
    return ProductRule(bound=bound, low=low, generalizing=int(gen.sum()), above=int(above.sum()),
                       seed_share_above=above.sum(axis=(0, 2, 3)) / np.maximum(gen.sum(axis=(0, 2, 3)), 1),
                       low_runs=int(low.sum()) * len(c.relations) * len(c.seeds),
                       low_confused=int((phases[:, :, low] == "confusion").sum()),
                       low_generalized=int(gen[:, :, low].sum()),
                       seed_low_decided=(phases[:, :, low] != "confusion").mean(axis=(0, 2)) if low.any()
                       else np.full(len(c.seeds), np.nan))


def invert_encoder_axis(result: PhaseResult) -> PhaseResult:
    """A Fig. 5 result read with its encoder-rate axis upside down: row i holds the phases (and test accuracies) of
    row n − 1 − i, the row values unchanged. On an evenly spaced log grid this maps log10 η_enc to
    (log10 η_min + log10 η_max) − log10 η_enc, the reading of a figure whose encoder axis runs the other way from
    its tick labels (a matrix drawn top-down, read bottom-up). A boundary of slope s reads as slope −s; a ratio rule
    η_enc/η_dec ≳ k reads as a product rule η_enc·η_dec ≲ η_min·η_max/k."""
    c = result.config
    if c.rows != "lr_enc":
        raise ValueError(f"invert_encoder_axis needs a Fig. 5 grid (rows='lr_enc'); the result has rows={c.rows!r}.")
    steps = np.diff(np.log10(np.asarray(c.row_values, dtype=float)))
    if len(steps) and not np.allclose(steps, steps[0], atol=1e-9):
        raise ValueError("invert_encoder_axis needs encoder rates evenly spaced in log10: reversing the rows of an "
                         "uneven grid is not a reflection of its axis.")
    flip = lambda arrays: {r: np.ascontiguousarray(np.asarray(a)[:, ::-1, :]) for r, a in arrays.items()}  # noqa: E731
    return PhaseResult(c, flip(result.phases), flip(result.test_acc))


@dataclass(frozen=True)
class DecayReach:
    """Fig. 6 against what decoupled weight decay does by construction (:func:`decay_reach`), for one task."""

    efolds: np.ndarray  # (rows, lr_dec): e-folds of the decay over the budget, -T·ln(1 − η_dec·wd) (inf: η·wd ≥ 1)
    shrink: np.ndarray  # (rows, lr_dec): (1 − η_dec·wd)^T, the factor the decay alone multiplies the decoder by
    weight_bound: np.ndarray  # (rows,): 1/wd, the largest decoder weight the data gradient can hold under AdamW
    onset: float  # log10 of the zero-decay row's median memorization onset (nan: it never memorizes)
    critical_wd: float  # 1/(η_on·T): the decay at which the onset cell's shrink factor reaches 1/e
    last_memorizing: float  # the largest decay, below the first without memorization, whose median row memorizes
    first_without: float  # the smallest decay whose median row has no memorization (nan: every row memorizes)

    @property
    def brackets(self) -> bool:
        """The critical decay lies between the last row that memorizes and the first that does not."""
        return bool(self.last_memorizing < self.critical_wd <= self.first_without)


def decay_efolds(cfg: PhaseConfig) -> np.ndarray:
    """(rows, lr_dec) for a Fig. 6 config (``rows = "wd_dec"``): how many e-folds decoupled weight decay shrinks the
    decoder by within the budget, −T·ln(1 − η_dec·wd). torch.optim.AdamW multiplies every decoder parameter by
    (1 − η_dec·wd) before each Adam step, so the decay alone leaves (1 − η_dec·wd)^T of it after T steps (a run that
    memorizes never stops early: T is the budget). inf where η_dec·wd ≥ 1 (the decay zeroes or flips a weight each
    step)."""
    if cfg.rows != "wd_dec":
        raise ValueError(f"decay_efolds needs a Fig. 6 config (rows='wd_dec'); got rows={cfg.rows!r}.")
    wd, lr = np.meshgrid(np.asarray(cfg.row_values, dtype=float), np.asarray(cfg.lr_dec, dtype=float), indexing="ij")
    per_step = wd * lr
    with np.errstate(divide="ignore"):
        return np.where(per_step < 1, -cfg.steps * np.log1p(-np.minimum(per_step, 1 - 1e-16)), np.inf)


def decay_reach(result: PhaseResult, relation: str) -> DecayReach:
    """Where decoupled decay must, by construction, reach one task's Fig. 6 boundary. Under AdamW the decay takes
    η_dec·wd·|θ| off a decoder weight each step, while the Adam step gives back at most about η_dec (its normalized
    gradient is at most about 1 per unit rate): the gradient can hold only weights up to ~1/wd, at any η_dec, and the
    decay has shrunk the decoder by e-fold η_dec·wd·T over the budget. The zero-decay row memorizes from its onset
    η_on on; its onset cell is shrunk by 1/e at the critical decay 1/(η_on·T), so the argument puts the decay that
    removes memorization from the row at about that value. Rows read as :func:`onsets` reads them (median over
    seeds); the first row must be the zero-decay one."""
    cfg = result.config
    if cfg.rows != "wd_dec" or cfg.row_values[0] != 0:
        raise ValueError("decay_reach needs a Fig. 6 result whose first row has no weight decay (rows='wd_dec', "
                         "row_values[0] = 0).")
    efolds = decay_efolds(cfg)
    wd = np.asarray(cfg.row_values, dtype=float)
    with np.errstate(divide="ignore"):
        bound = 1 / wd
    median = onsets(result, relation).median
    onset = float(median[0]) if np.isfinite(median[0]) else float("nan")
    critical = 1 / (10.0 ** onset * cfg.steps) if np.isfinite(onset) else float("nan")
    without = [k for k in range(1, len(wd)) if not np.isfinite(median[k])]
    first = float(wd[without[0]]) if without else float("nan")
    last = float(wd[without[0] - 1]) if without else float("nan")
    return DecayReach(efolds, np.exp(-efolds), bound, onset, critical, last, first)


def memorization_onset(result: PhaseResult, relation: str) -> np.ndarray:
    """(seeds, rows): log10 of the smallest decoder lr at which the run memorizes (nan: none in the row)."""
    ph = result.phases[relation]
    out = np.full(ph.shape[:2], np.nan)
    for k in range(ph.shape[0]):
        for i, row in enumerate(ph[k]):
            mem = np.nonzero(row == "memorization")[0]
            if len(mem):
                out[k, i] = np.log10(result.config.lr_dec[mem[0]])
    return out


@dataclass(frozen=True)
class Onsets:
    """Where each weight-decay row of a Fig. 6 diagram starts to memorize, for one task (:func:`onsets`)."""

    per_seed: np.ndarray  # (seeds, rows): log10 of the smallest decoder lr that memorizes, on the grid (nan: none)
    median: np.ndarray  # (rows,): the median over seeds, a seed that never memorizes counted +inf (inf: most never do)
    beyond: float  # half a grid step beyond the largest decoder lr: where a row without an onset is placed (a bound)

    @property
    def rows(self) -> np.ndarray:
        """(rows,): the median onsets, a row whose median never memorizes placed at ``beyond``."""
        return np.where(np.isfinite(self.median), self.median, self.beyond)

    def spread(self, rows=None) -> float:
        """How far the median onset moves over the weight-decay rows (all, or a boolean mask ``rows``), decades."""
        r = self.rows if rows is None else self.rows[np.asarray(rows)]
        return float(r.max() - r.min())

    @property
    def seed_spread(self) -> np.ndarray:
        """(seeds,): each seed's own spread over the rows, a row where it never memorizes placed at ``beyond``."""
        placed = np.where(np.isnan(self.per_seed), self.beyond, self.per_seed)
        return placed.max(axis=1) - placed.min(axis=1)

    def resampled(self, seeds) -> "Onsets":
        """The same onsets for the seeds at indices ``seeds`` (with repeats: a bootstrap resample)."""
        per = self.per_seed[list(seeds)]
        return Onsets(per, np.median(np.where(np.isnan(per), np.inf, per), axis=0), self.beyond)

    def spread_standard_error(self, rows=None) -> float | None:
        """The seed standard error of :meth:`spread` (a spread over rows of medians over seeds, so no one value per
        seed gives it): the spread of resampled seeds (:func:`~repro.metrics.bootstrap.bootstrap_standard_error`)."""
        return bootstrap_standard_error(lambda idx: self.resampled(idx).spread(rows), self.per_seed.shape[0])


def onsets(result: PhaseResult, relation: str) -> Onsets:
    """The memorization onsets of one task's Fig. 6 diagram (:func:`memorization_onset`), read the one way every
    Fig. 6 claim reads them: rounded to 1e-6 so that they sit exactly on the grid (the grid's rates are computed
    powers of ten, so without it a spread of one grid step could come out a last bit above it), a seed that never
    memorizes in a row counted later than any rate, and a row whose median never memorizes placed half a grid
    step beyond the largest rate (a lower bound on its onset)."""
    lr = np.log10(np.asarray(result.config.lr_dec, dtype=float))
    if len(lr) < 2:
        raise ValueError(f"onsets: the decoder-rate grid has {len(lr)} value(s); a grid step needs at least 2.")
    on = np.round(memorization_onset(result, relation), 6)
    beyond = round(float(lr[-1]), 6) + round(float(lr[-1] - lr[-2]), 6) / 2
    return Onsets(on, np.median(np.where(np.isnan(on), np.inf, on), axis=0), beyond)


# ======================================================================= repon theory (Eq. 9–11)

@dataclass(frozen=True, repr=False)
class ReponConfig(ConfigRepr):
    """Eq. 9–11 demonstration: trajectories of (a2, c) and p_r against a Monte Carlo of initial conditions."""

    eta_x: float = 1e-3  # a worked example of Eq. 9–10 (our choice)
    eta_A: float = 2e-3
    starts: tuple = ((1.0, 0.3), (1.0, 0.55), (0.6, 0.45), (1.2, 0.7))  # on both sides of the separatrix C = 0 (our choice)
    t_max: float = 2e5
    ratios: tuple = (0.01, 0.03, 0.1, 0.3, 1.0, 2.0, 3.0, 10.0, 30.0, 100.0)  # η_x/η_A, four decades around 1 (our choice)
    samples: int = 200_000  # Monte-Carlo initial conditions per ratio
    seed: int = 0

    def __post_init__(self):
        check_real("eta_x", self.eta_x, positive=True)
        check_real("eta_A", self.eta_A, positive=True)
        check_real("t_max", self.t_max, positive=True)
        check_int("samples", self.samples, minimum=1)
        for r in self.ratios:
            check_real("ratios", r, positive=True)


def stored_fig6_config() -> PhaseConfig:
    """Fig. 6 for all three relations (a)-(c) and every weight-decay row of the paper-scale config (0 and
    1e-4 ... 10), on the book's learning-rate grid and encoder rate (3e-4), three seeds, for 3 000 steps (twice
    the live budget)."""
    return replace(
        PhaseConfig(rows="wd_dec", row_values=(0.0, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)),
        lr_enc=3e-4, lr_dec=tuple(10.0 ** np.arange(-4, -1.4, 0.5)), width=20, steps=3000, eval_every=25,
        seeds=(0, 1, 2))


FIG5_SEEDS = (0, 1, 2)  # the stored Fig. 5 runs: three seeds, each its own stored entry (see stored_fig5_config)


def stored_fig5_config(optimizer: str = "adam", seed: int = 0) -> PhaseConfig:
    """One seed of the stored Fig. 5 at the paper's model (Table 3: width 50, three hidden layers, 75 % of the
    pairs), on a learning-rate grid wide enough for the paper's low-rate regime and a budget of 2·10⁴ steps (a
    run whose phase is decided stops early). Each seed is its own stored entry and checkpoints as it trains, so an
    interrupted set resumes where it stopped.

    ``optimizer = "adam"``: both axes 10⁻⁵ … 10⁻¹ in half decades (the paper's axes are unlabelled; its rule of thumb
    η_enc·η_dec ≲ 10⁻⁷ sits inside this grid). ``"gd"``: plain gradient descent on 10⁻³ … 10¹, two decades higher,
    because gradient descent at rates ≤ 10⁻¹ leaves nearly every run undecided within the budget (a 2 000-step
    pilot at width 20 put the whole memorization/generalization boundary between 10⁻¹ and 10¹)."""
    check_choice("optimizer", optimizer, tuple(RELATION_OPTIMIZERS))
    check_int("seed", seed, minimum=0)
    grid = tuple(10.0 ** np.arange(-5, -0.9, 0.5)) if optimizer == "adam" else tuple(10.0 ** np.arange(-3, 1.1, 0.5))
    return PhaseConfig(row_values=grid, lr_dec=grid, steps=20_000, seeds=(seed,), optimizer=optimizer)


def stored_fig6_wide_config(seed: int = 0) -> PhaseConfig:
    """One seed of Fig. 6 at the paper's model (Table 3: width 50, three hidden layers) over every weight-decay row
    (0 and 10⁻⁴ … 10; the paper's rows are unstated) and decoder rates 10⁻⁵ … 10⁻¹ in half decades, 2·10⁴ Adam
    steps (a run whose phase is decided stops early). Encoder rate 3·10⁻⁴, not the caption's 10⁻⁵: in the stored
    Fig. 5 under Adam, an encoder rate of 10⁻⁵ memorizes at every decoder rate of this grid (no boundary to read),
    while at 3·10⁻⁴ the memorization onset lies inside it, near 10⁻³, for all three tasks. Each seed is its own
    resumable stored entry, as for Fig. 5."""
    check_int("seed", seed, minimum=0)
    return PhaseConfig(rows="wd_dec", row_values=(0.0, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0), lr_enc=3e-4,
                       lr_dec=tuple(10.0 ** np.arange(-5, -0.9, 0.5)), steps=20_000, seeds=(seed,))


def stored_fig6_wide(seed: int, root) -> tuple[PhaseResult, dict] | None:
    """One seed of :func:`stored_fig6_wide_config` and its manifest, or None when it is not stored yet."""
    cfg = stored_fig6_wide_config(seed)
    return ResultsStore(root).load_result(cfg, "geneft-fig6-wide", lambda arrays: PhaseResult.from_arrays(cfg, arrays))


def fig5_label(optimizer: str) -> str:
    """The store label of the stored Fig. 5 runs under ``optimizer`` (the label the registered claims name)."""
    check_choice("optimizer", optimizer, tuple(RELATION_OPTIMIZERS))
    return f"geneft-fig5-{optimizer}"


def merge_seeds(results: Sequence[PhaseResult]) -> PhaseResult:
    """One :class:`PhaseResult` from single-seed results of one config that differ only in their seeds (seed
    axis in the given order)."""
    if not results:
        raise ValueError("merge_seeds needs at least one result.")
    base = replace(results[0].config, seeds=(0,))
    for r in results[1:]:
        if replace(r.config, seeds=(0,)) != base:
            raise ValueError("merge_seeds: the results differ in more than their seeds.")
    cfg = replace(results[0].config, seeds=tuple(sd for r in results for sd in r.config.seeds))
    return PhaseResult(cfg, {rel: np.concatenate([r.phases[rel] for r in results]) for rel in cfg.relations},
                       {rel: np.concatenate([r.test_acc[rel] for r in results]) for rel in cfg.relations})


def stored_fig5(optimizer: str, seed: int, root) -> tuple[PhaseResult, dict] | None:
    """One seed of the stored Fig. 5 under ``optimizer`` (:func:`stored_fig5_config`) and its manifest, or None when
    it is not stored yet; :func:`merge_seeds` joins the seeds."""
    cfg = stored_fig5_config(optimizer, seed)
    return ResultsStore(root).load_result(cfg, fig5_label(optimizer), lambda arrays: PhaseResult.from_arrays(cfg, arrays))


def stored_phases(cfg: PhaseConfig, root) -> tuple[PhaseResult, dict] | None:
    """The stored phase diagram for exactly ``cfg`` under ``root`` and its manifest, or None when none is stored."""
    return ResultsStore(root).load_result(cfg, "geneft-phases", lambda arrays: PhaseResult.from_arrays(cfg, arrays))


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="baek2024_geneft_information", rows=(
    StoredRun("Fig. 4 trained to fit (depths 0–10, 4 relations × 5 seeds, 2·10⁴ steps, float32)", "--only depth",
              ("geneft-depth",)),
    StoredRun("Fig. 4's deep end at the paper's horizon (depths 1–3 and 6–12, 4 relations × 10 seeds, 10⁵ steps, float32; "
              "one resumable entry per depth, `--depths` picks some); claims registered before the run",
              "--only depth-deep", ("geneft-depth-deep",)),
    StoredRun("the book-scale Figs 3–4 statistics on fresh seeds; claims registered before the run", "--only confirm",
              ("geneft-information-confirm",)),
    StoredRun("Fig. 6 for all three relations and every weight-decay row (7 × 6 cells × 3 seeds, 3 000 steps; chapter "
              "`baek2024_geneft_dynamics`)", "--only fig6", ("geneft-phases",)),
    StoredRun("Fig. 6 at the paper's width over every weight-decay row (3 relations × 7 weight decays × 9 decoder rates, "
              "encoder 3·10⁻⁴, 2·10⁴ steps, a run stops once decided; one resumable entry per seed, `--seeds` picks some; "
              "chapter `baek2024_geneft_dynamics`); claims registered before the run", "--only fig6-wide",
              ("geneft-fig6-wide",)),
    StoredRun("Fig. 5 in the paper's regime under Adam: width 50, three relations × 81 cells (both rates 10⁻⁵–10⁻¹) × 3 "
              "seeds, 2·10⁴ steps (a run stops once its phase is decided), one entry per seed (chapter "
              "`baek2024_geneft_dynamics`); claims registered before the runs", "--only fig5-adam", ("geneft-fig5-adam",)),
    StoredRun("the same under plain gradient descent (both rates 10⁻³–10¹)", "--only fig5-gd", ("geneft-fig5-gd",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.baek2024_geneft --store book/_results``: compute and store, with provenance, the chapter's stored
    runs that are missing: ``depth`` (:func:`stored_depth_config`, 9 depths × 4 relations × 5 seeds × 20 000 steps;
    about 13 minutes on one core) and ``fig6`` (:func:`stored_fig6_config`, 3 relations × 7 weight decays × 6
    learning rates × 3 seeds). ``--only`` picks one; ``fig5-adam``, ``fig5-gd`` (:func:`stored_fig5_config`) and
    ``depth-deep`` (:func:`deep_depth_config`: depths 1-3 and 6-12 at 10^5 steps, 10 seeds) and ``fig6-wide``
    (:func:`stored_fig6_wide_config`) are only computed when named, one resumable entry per seed or depth;
    so is ``confirm`` (:func:`confirmation_config`: the live Figs. 3-4 runs with fresh seeds, one entry)."""
    parser = store_parser("repro.experiments.baek2024_geneft", main.__doc__)
    parser.add_argument("--only", choices=("depth", "depth-deep", "fig6", "fig6-wide", "fig5-adam", "fig5-gd", "confirm"),
                        help="compute only this stored run")
    parser.add_argument("--depths", type=int, nargs="+", default=list(DEEP_DEPTHS), choices=list(DEEP_DEPTHS),
                        help="depth-deep: only these depths (each is its own stored entry)")
    parser.add_argument("--seeds", type=int, nargs="+", default=list(FIG5_SEEDS), choices=list(FIG5_SEEDS),
                        help="fig5-adam / fig5-gd / fig6-wide: only these seeds (each is its own stored entry)")
    add_checkpoint_option(parser)
    args = parser.parse_args(argv)
    store = ResultsStore(args.store)
    if args.only in ("fig5-adam", "fig5-gd"):  # not part of the default set: about an hour per seed on one core
        optimizer = args.only.removeprefix("fig5-")
        for sd in args.seeds:
            c = stored_fig5_config(optimizer, sd)
            # resumable: an interrupted seed continues from its last checkpoint when the command runs again
            store.get_or_compute(c, lambda checkpoint, c=c: run_phases(c, progress=True, checkpoint=checkpoint).to_arrays(),
                                 label=fig5_label(optimizer), checkpoint_every_s=checkpoint_every_s(args))
        return 0
    if args.only == "fig6-wide":  # not part of the default set: 41-50 minutes per seed on one core (measured)
        for sd in args.seeds:
            c = stored_fig6_wide_config(sd)
            store.get_or_compute(c, lambda checkpoint, c=c: run_phases(c, progress=True, checkpoint=checkpoint).to_arrays(),
                                 label="geneft-fig6-wide", checkpoint_every_s=checkpoint_every_s(args))
        return 0
    if args.only == "confirm":  # not part of the default set: the live Figs. 3-4 runs with fresh seeds
        c = confirmation_config()
        store.get_or_compute(c, lambda: run_confirmation(c, progress=True).to_arrays(), label=CONFIRM_LABEL)
        return 0
    if args.only == "depth-deep":  # not part of the default set: about 2 hours on one core for every depth
        for d in args.depths:
            c = deep_depth_config(d)
            store.get_or_compute(c, lambda checkpoint, c=c: run_depth(c, progress=True, checkpoint=checkpoint).to_arrays(),
                                 label="geneft-depth-deep", checkpoint_every_s=checkpoint_every_s(args))
        return 0
    if args.only in (None, "depth"):
        cfg = stored_depth_config()
        store.get_or_compute(cfg, lambda: run_depth(cfg, progress=True).to_arrays(), label="geneft-depth")
    if args.only in (None, "fig6"):
        cfg6 = stored_fig6_config()
        store.get_or_compute(cfg6, lambda: run_phases(cfg6).to_arrays(), label="geneft-phases")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())

"""Runs and figures for Liu et al. 2022, part A: representations and the effective theory.

Used by ``book/liu2022_effective_theory`` (Fig. 2, Fig. 4c-d, App. H) and ``book/liu2022_critical_data``
(Figs 3, 4a-b, 5). The equations live in :mod:`repro.theory.liu2022`; this module trains the toy
model (``repro.training.trainer`` with ``EmbedMLPConfig``: 1-D embeddings summed into a tanh 1-200-200-30
decoder, MSE on random 30-d templates; paper §2 and official ``toy/train_add.py``) and draws the paper's figures.

Config defaults are the paper's / official code's values (``ejmichaud/grokking-squared``: ``toy/train_add.py``,
``toy/produce_figure_data.py``, ``phase_diagram_plot/effective_linear_eq.ipynb``); ``for_scale()`` gives the
book-scale variant (fewer seeds and steps, evaluation every 10 steps).
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass, replace

import numpy as np
import torch

from repro.core.crossings import first_step
from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_int, check_real
from repro.data.tasks import BinaryOpTask, Split, build_task_data, toy_runs
from repro.metrics.bootstrap import resample_spread, seed_draws
from repro.models.networks import EmbedMLPConfig
from repro.theory import liu2022 as theory
from repro.training.store import ResultsStore, required_arrays, result_arrays, store_parser
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.sweep import split_masks
from repro.training.trainer import BatchSchedule, History, Performance, Record, TrainConfig, train


# --------------------------------------------------------------------------------------------------
# The toy model on p = 10 addition: reference run (Fig. 4c-d) and fraction sweep (Figs 3, 4b, 5b)


RNG_ORDERS = ("official", "shared_templates")


@dataclass(frozen=True, repr=False)
class ToyConfig(ConfigRepr):
    p: int = 10  # paper §2 toy addition: symbols 0..9, 55 unordered samples
    d_embed: int = 1  # Figs 3-5: 1-D embeddings (train_add.py)
    hidden: tuple[int, ...] = (200, 200)  # train_add.py: tanh 1-200-200-30 decoder
    d_out: int = 30  # train_add.py: 30-d N(0, 1) regression templates
    lr_repr: float = 1e-3  # train_add.py: Adam 1e-3 on the embeddings (eta of n_h, Fig. 5b)
    lr_dec: float = 1e-4  # train_add.py: AdamW 1e-4 on the decoder
    wd_dec: float = 0.0  # train_add.py: weight decay 0
    reference_seed: int = 58  # default seed of train_add.py (split, templates and init)
    reference_train_count: int = 45  # train_add.py: 45/10 split
    reference_steps: int = 5000  # train_add.py / Fig. 4c-d: 5000 steps
    effective_steps: int = 5000  # official integrator (train_add.py): eff_steps Euler steps at the embedding lr
    train_counts: tuple[int, ...] = (5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 54)  # official toy/produce_figure_data.py
    seeds: tuple[int, ...] = tuple(range(10))  # paper: not stated; official driver: seeds 0-2; Fig. 4b shows more
    sweep_steps: int = 10_000  # official produce_figure_data.py, train_many_fig4: steps=int(1e4) (Fig. 3: 5000)
    eval_every: int = 1  # official code logs every step
    template_seed: int = 58  # rng_order="shared_templates": the templates shared by the sweep's runs
    # "official": run (count, seed) draws its templates, split and minibatches from its seed in toy/train_add.py's
    # order, so it is the official run of that seed (data.tasks.toy_runs); "shared_templates": the book's earlier
    # order (templates from template_seed shared by all runs, splits from a fresh stream per seed, full batch)
    rng_order: str = "official"
    batch_size: int | None = 45  # train_add.py: batch_size=45, lowered to the training set where that is smaller
    fig3_steps: int = 5000  # official produce_figure_data.py, train_many_fig3: Fig. 3's accuracies after 5000 steps
    rqi_delta: float = 0.01  # train_add.py: mean squared deviation < 0.01 on normalised embeddings
    rqi_threshold: float = 0.95  # Fig. 4b: steps to RQI > 0.95
    n_random_sets: int = 10_000  # effective_linear_eq.ipynb: 10^4 random sets per size (Figs 4a, 5a)
    theory_seed: int = 0
    # ours: init seeds of the reference setting's seed spread (seed-58 split and templates; Fig. 2, 3 n_h claim)
    spread_seeds: tuple[int, ...] = (58, 0, 1, 2, 3, 4, 5, 6, 7)

    def __post_init__(self):
        for name in ("p", "d_embed", "d_out", "reference_train_count", "reference_steps", "effective_steps", "sweep_steps",
                     "eval_every", "n_random_sets"):
            check_int(name, getattr(self, name), minimum=1)
        n_total = self.p * (self.p + 1) // 2
        for n in (*self.train_counts, self.reference_train_count):
            check_int("train_counts", n, minimum=1, maximum=n_total - 1)
        if not self.seeds:
            raise ValueError("seeds must hold at least one seed.")
        for s in self.seeds:
            check_int("seeds", s, minimum=0)
        if not self.spread_seeds:
            raise ValueError("spread_seeds must hold at least one seed.")
        for s in self.spread_seeds:
            check_int("spread_seeds", s, minimum=0)
        for name in ("lr_repr", "lr_dec", "rqi_delta"):
            check_real(name, getattr(self, name), positive=True)
        check_choice("rng_order", self.rng_order, RNG_ORDERS)
        check_int("fig3_steps", self.fig3_steps, minimum=1)
        if self.batch_size is not None:
            check_int("batch_size", self.batch_size, minimum=1)
        if self.rng_order == "shared_templates" and self.batch_size is not None:
            raise ValueError(f"batch_size={self.batch_size} is not allowed with rng_order='shared_templates' (its runs "
                             "train full batch); use batch_size=None, or rng_order='official'.")
        check_real("wd_dec", self.wd_dec, nonnegative=True)
        if not 0 < self.rqi_threshold < 1:
            raise ValueError(f"rqi_threshold={self.rqi_threshold!r} is not allowed: it must be in (0, 1).")

    @classmethod
    def book_config(cls) -> "ToyConfig":
        """The book scale, whatever the active scale: 5 seeds, 3000 steps, evaluation every 10 steps; 9 init seeds
        for the reference setting's spread."""
        return cls(reference_steps=2000, effective_steps=4000, train_counts=(10, 15, 20, 25, 30, 35, 40, 45, 50, 54),
                   seeds=tuple(range(5)), sweep_steps=3000, eval_every=10, n_random_sets=2000)

    @classmethod
    def for_scale(cls) -> "ToyConfig":
        """Paper: the defaults. Book: :meth:`book_config`. Smoke: seconds."""
        book = cls.book_config()
        smoke = replace(book, reference_steps=100, effective_steps=100, train_counts=(20, 45), seeds=(0,), sweep_steps=100,
                        n_random_sets=100, spread_seeds=(58, 0))
        return by_scale(book=book, paper=cls(), smoke=smoke)

    @property
    def n_total(self) -> int:
        return self.p * (self.p + 1) // 2

    def model_config(self) -> EmbedMLPConfig:
        return EmbedMLPConfig(n_symbols=self.p, d_embed=self.d_embed, hidden=self.hidden, d_out=self.d_out,
                              activation="tanh", combine="sum", embed_init="uniform")

    def train_config(self, steps: int, eval_every: int | None = None) -> TrainConfig:
        return TrainConfig(steps=steps, optimizer="adamw", lr_repr=self.lr_repr, lr_dec=self.lr_dec, wd_repr=0.0,
                           wd_dec=self.wd_dec, init_seed=self.reference_seed,
                           eval_every=self.eval_every if eval_every is None else eval_every)

    def task(self) -> BinaryOpTask:
        return BinaryOpTask("addition", self.p, ordered=False)


def _record_embeddings(step, params):
    return {"embed": params["embed"]}


def _pairs(data, idx) -> list[tuple[int, int]]:
    return [tuple(x) for x in data.inputs[torch.as_tensor(idx)].tolist()]


@dataclass
class ReferenceRun:
    """The default run (seed 58, 45/10): network and effective-theory trajectories (Fig. 4c-d)."""

    config: ToyConfig
    history: History
    train_pairs: list[tuple[int, int]]
    embeddings: np.ndarray  # (T, p) network embeddings at history.steps
    rqi: np.ndarray  # (T,)
    effective: theory.EffectiveTrajectory  # from the network's initial embeddings, rows P0(D) (eq. 5)
    effective_rqi: np.ndarray  # (T_eff,)
    effective_all_rqi: np.ndarray  # (T_eff,) same, rows = all of P0 (the official integrator in train_add.py)
    train_step: int  # first step with train acc >= 0.9
    val_step: int
    rqi_step: int  # first step with RQI > 0.95
    effective_rqi_step: int
    effective_all_rqi_step: int
    grokking_rate: float  # lambda_3 of this training set
    n_h: float  # p / (2 lambda_3 eta)


def run_reference(cfg: ToyConfig, progress: bool | None = None) -> ReferenceRun:
    """Train the default toy run, recording embeddings at every evaluation step, and integrate the
    effective theory (eq. 4, rows P0(D)) from the same initial embeddings with the embedding lr."""
    data = build_task_data(cfg.task(), Split(train_count=cfg.reference_train_count, data_seed=cfg.reference_seed),
                           target="regression", target_dim=cfg.d_out)
    tc = cfg.train_config(cfg.reference_steps)
    history = train(cfg.model_config(), data, tc, record=Record(callback=_record_embeddings),
                    performance=Performance(progress=progress, desc="reference run"))
    emb = history.extra["embed"][0, :, :, 0]
    rqi = theory.rqi(emb[..., None], None, cfg.p, cfg.rqi_delta)
    pairs = _pairs(data, data.train_idx)
    eff = theory.effective_trajectories(emb[:1], [pairs], cfg.p, lr=cfg.lr_repr, steps=cfg.effective_steps,
                                        record_every=tc.eval_every)
    eff_rqi = theory.rqi(eff.embeddings[0], None, cfg.p, cfg.rqi_delta)
    eff_all = theory.effective_trajectories(emb[:1], [pairs], cfg.p, lr=cfg.lr_repr, steps=cfg.effective_steps,
                                            record_every=tc.eval_every, rows="all")
    eff_all_rqi = theory.rqi(eff_all.embeddings[0], None, cfg.p, cfg.rqi_delta)
    rate = theory.grokking_rate(pairs, cfg.p)
    return ReferenceRun(
        config=cfg, history=history, train_pairs=pairs, embeddings=emb, rqi=rqi, effective=eff, effective_rqi=eff_rqi,
        effective_all_rqi=eff_all_rqi,
        effective_all_rqi_step=int(first_step(eff.steps, eff_all_rqi, cfg.rqi_threshold, strict=True)),
        train_step=int(history.first_step("train_acc", 0.9)[0]), val_step=int(history.first_step("val_acc", 0.9)[0]),
        rqi_step=int(first_step(history.steps, rqi, cfg.rqi_threshold, strict=True)),
        effective_rqi_step=int(first_step(eff.steps, eff_rqi, cfg.rqi_threshold, strict=True)),
        grokking_rate=rate, n_h=theory.theory_grokking_steps(rate, cfg.p, cfg.lr_repr),
    )


@dataclass
class FractionSweep:
    """One network per (training count, seed): final accuracies, Acc-hat, RQI and grokking steps."""

    config: ToyConfig
    counts: np.ndarray  # (R,) training samples of each run
    seeds: np.ndarray  # (R,)
    accuracy: np.ndarray  # (R,) final accuracy on the whole table (train and validation)
    predicted_accuracy: np.ndarray  # (R,) Acc-hat of the final representation (eq. 13)
    final_rqi: np.ndarray  # (R,)
    rqi_step: np.ndarray  # (R,) first step with RQI > threshold, -1 if never
    grokking_rate: np.ndarray  # (R,) lambda_3 of each run's training set
    theory_steps: np.ndarray  # (R,) n_h = p / (2 lambda_3 eta), inf when lambda_3 = 0
    steps: int  # training budget
    # (R,) accuracy on the whole table after config.fig3_steps steps (Fig. 3's); None in sweeps stored before it
    fig3_accuracy: np.ndarray | None = None

    @property
    def fractions(self) -> np.ndarray:
        return self.counts / self.config.n_total

    def success_rate(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted counts, fraction of seeds reaching RQI > threshold within the budget)."""
        u = np.unique(self.counts)
        return u, np.array([(self.rqi_step[self.counts == n] >= 0).mean() for n in u])

    def median_steps(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted counts, median steps to RQI > threshold over all seeds; a failed run counts as the
        budget, so the median is the budget when fewer than half succeed) — Fig. 4b's line."""
        u = np.unique(self.counts)
        capped = np.where(self.rqi_step >= 0, self.rqi_step, self.steps)
        return u, np.array([np.median(capped[self.counts == n]) for n in u])

    # what the results store keeps (``steps`` is the config's ``sweep_steps``)
    ARRAYS = ("counts", "seeds", "accuracy", "predicted_accuracy", "final_rqi", "rqi_step", "grokking_rate",
              "theory_steps")
    OPTIONAL = ("fig3_accuracy",)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The numeric results, for :class:`repro.training.store.ResultsStore`."""
        return result_arrays(self, self.ARRAYS + tuple(k for k in self.OPTIONAL if getattr(self, k) is not None))

    @classmethod
    def from_arrays(cls, config: ToyConfig, arrays: dict[str, np.ndarray]) -> "FractionSweep":
        optional = {k: np.asarray(arrays[k]) for k in cls.OPTIONAL if k in arrays}
        arrays = required_arrays(arrays, cls.ARRAYS, "stored fraction sweep")
        expected = len(config.train_counts) * len(config.seeds)
        if any(np.asarray(arrays[name]).shape != (expected,) for name in cls.ARRAYS):
            raise ValueError(f"stored fraction sweep arrays must have shape ({expected},) for this config "
                             f"({len(config.train_counts)} counts x {len(config.seeds)} seeds).")
        if any(v.shape != (expected,) for v in optional.values()):
            raise ValueError(f"stored fraction sweep arrays must have shape ({expected},) for this config.")
        return cls(config=config, steps=config.sweep_steps, **{name: np.asarray(arrays[name]) for name in cls.ARRAYS},
                   **optional)

    def transition_count(self, share: float = 0.5) -> int:
        """The smallest training count from which on at least ``share`` of the seeds reach RQI > threshold
        at that count and at every larger one; -1 if the largest count falls short."""
        u, rate = self.success_rate()
        return transition_size(u, rate, share)

    def onset_count(self) -> int:
        """The smallest training count at which some seed reaches RQI > threshold (Fig. 4b's first networks); -1 if
        none does."""
        u, rate = self.success_rate()
        return int(u[rate > 0].min()) if (rate > 0).any() else -1

    def _hits(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sorted counts, sorted seeds, hits[count, seed]: whether that run reaches RQI > threshold); every seed
        must be run at every count."""
        u, seeds = np.unique(self.counts), np.unique(self.seeds)
        hits = np.zeros((len(u), len(seeds)), dtype=bool)
        for i, n in enumerate(u):
            at = self.counts == n
            if sorted(self.seeds[at].tolist()) != seeds.tolist():
                raise ValueError(f"a seed resample needs the same seeds at every count; count {n} differs.")
            hits[i, np.searchsorted(seeds, self.seeds[at])] = self.rqi_step[at] >= 0
        return u, seeds, hits

    def bootstrap_transition(self, share: float = 0.5, n_boot: int = 2000, seed: int = 0) -> np.ndarray:
        """``transition_count(share)`` over ``n_boot`` bootstrap resamples of the seeds
        (:func:`~repro.metrics.bootstrap.seed_draws`; none for a sweep of one seed): the spread of the
        transition that the finite number of seeds leaves. A seed is resampled as a whole, at every count at
        once, because its runs share the initialization and nested training sets (a seed that fails at one
        size tends to fail at the next)."""
        u, seeds, hits = self._hits()
        return np.array([transition_size(u, hits[:, d].mean(axis=1), share)
                         for d in seed_draws(len(seeds), n_boot, seed)])

    def bootstrap_onset(self, n_boot: int = 2000, seed: int = 0) -> np.ndarray:
        """``onset_count()`` over ``n_boot`` bootstrap resamples of whole seeds (the same draws as
        :meth:`bootstrap_transition` for the same ``seed``); -1 where no resampled seed succeeds. The onset is a
        minimum over seeds, so a resample can only lose the seeds that succeed earliest, never add an earlier one:
        the spread says how much the onset hangs on those seeds, not how much earlier other seeds might get there."""
        u, seeds, hits = self._hits()
        return np.array([int(u[hits[:, d].any(axis=1)].min()) if hits[:, d].any() else -1
                         for d in seed_draws(len(seeds), n_boot, seed)])

    def seed_shares(self, mask) -> np.ndarray:
        """Per seed (sorted), the share of its runs selected by ``mask`` (a boolean array over the runs) that reach
        RQI > threshold. Every seed has the same number of runs there, so their mean is the share over all of them:
        the per-seed values behind such a share, whose spread counts a seed's runs (one initialization, nested
        training sets) as one draw, not as independent ones."""
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != self.counts.shape or not mask.any():
            raise ValueError(f"mask must be a boolean array of shape {self.counts.shape} selecting at least one run.")
        seeds = np.unique(self.seeds)
        per_seed = [int((mask & (self.seeds == s)).sum()) for s in seeds]
        if len(set(per_seed)) != 1:
            raise ValueError(f"seed_shares needs the same number of selected runs for every seed; got {per_seed}.")
        return np.array([(self.rqi_step[mask & (self.seeds == s)] >= 0).mean() for s in seeds])

    def bootstrap_spearman(self, min_count: int, values=None, n_boot: int = 2000, seed: int = 0) -> np.ndarray:
        """Spearman's rank correlation of training count and ``values`` (one per run; default: the steps to
        RQI > threshold, a run that never gets there counted as the budget; non-finite values are left out, as
        the theory's n_h where lambda_3 = 0) over the runs of at least ``min_count`` samples, for ``n_boot``
        bootstrap resamples of whole seeds (the same draws as :meth:`bootstrap_transition` for the same ``seed``). A
        resample whose values are all equal (a seed that never gets there, drawn every time) has no correlation: NaN,
        which :func:`~repro.metrics.bootstrap.resample_spread` drops."""
        import warnings

        from scipy.stats import ConstantInputWarning, spearmanr

        v = np.where(self.rqi_step >= 0, self.rqi_step, self.steps) if values is None else np.asarray(values, float)
        if v.shape != self.counts.shape:
            raise ValueError(f"values must hold one value per run, shape {self.counts.shape}; got {v.shape}.")
        keep = (self.counts >= min_count) & np.isfinite(v)
        if not keep.any():
            raise ValueError(f"min_count={min_count} leaves no run with a finite value.")
        rows = [np.nonzero(keep & (self.seeds == s))[0] for s in np.unique(self.seeds)]
        out = []
        for d in seed_draws(len(rows), n_boot, seed):
            r = np.concatenate([rows[i] for i in d])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConstantInputWarning)
                out.append(spearmanr(self.counts[r], v[r]).statistic)
        return np.asarray(out, dtype=float)


def size_spread(sizes, n_total: int) -> float | None:
    """:func:`~repro.metrics.bootstrap.resample_spread` of resampled sizes on a grid
    (:meth:`FractionSweep.bootstrap_transition`, :meth:`FractionSweep.bootstrap_onset`) as training fractions of
    ``n_total``; a resample without one (-1) is dropped."""
    sizes = np.asarray(sizes, dtype=float)
    return resample_spread(np.where(sizes > 0, sizes / n_total, np.nan))


def transition_size(counts, shares, share: float = 0.5) -> int:
    """The smallest of the (sorted) ``counts`` from which on ``shares`` stays >= ``share`` (at that count and
    every larger one); -1 if the share at the largest count falls short."""
    if not 0 < share <= 1:
        raise ValueError(f"share={share!r} is not allowed: it must be in (0, 1].")
    counts, shares = np.asarray(counts), np.asarray(shares, dtype=float)
    if counts.shape != shares.shape or counts.ndim != 1 or len(counts) == 0 or np.any(np.diff(counts) <= 0):
        raise ValueError("counts must be a non-empty increasing 1-D array with one share per count.")
    ok = shares >= share - 1e-12
    if not ok[-1]:
        return -1
    k = len(counts) - 1
    while k > 0 and ok[k - 1]:
        k -= 1
    return int(counts[k])


def run_fraction_sweep(cfg: ToyConfig, progress: bool | None = None) -> FractionSweep:
    """Train every (count, seed) pair as one batched program (two with rng_order="official": the runs whose
    training set exceeds the batch minibatch, the others train full batch, as train_add.py lowers its batch).

    rng_order="official": run (count, seed) is the official code's run of that seed (templates, split, minibatches
    and initialization from the seed: :func:`repro.data.tasks.toy_runs`). "shared_templates": each run's split is
    drawn from its seed, its initialization from the same seed, the templates are shared."""
    counts = np.asarray([n for n in cfg.train_counts for _ in cfg.seeds])
    seeds = np.asarray([s for _ in cfg.train_counts for s in cfg.seeds])
    if cfg.rng_order == "shared_templates":
        data = build_task_data(cfg.task(), Split(train_count=cfg.reference_train_count, data_seed=cfg.template_seed),
                               target="regression", target_dim=cfg.d_out)
        train_mask, _ = split_masks(data, [n / cfg.n_total for n in counts], seeds.tolist())
        parts = [(np.arange(len(counts)), _sweep_group(cfg, data, train_mask, seeds, None, progress))]
    else:
        minibatch = counts > cfg.batch_size if cfg.batch_size is not None else np.zeros(len(counts), dtype=bool)
        parts = []
        for group, batch_size in ((~minibatch, None), (minibatch, cfg.batch_size)):
            idx = np.nonzero(group)[0]
            if len(idx) == 0:
                continue
            runs = toy_runs(cfg.task(), counts[idx], seeds[idx], target_dim=cfg.d_out, batch_size=batch_size,
                            steps=cfg.sweep_steps)
            parts.append((idx, _sweep_group(cfg, runs.data, runs.train_mask, seeds[idx], runs.batches, progress)))
    out = {}
    for idx, arrays in parts:
        for k, v in arrays.items():
            out.setdefault(k, np.zeros(len(counts), dtype=v.dtype))[idx] = v
    return FractionSweep(config=cfg, counts=counts, seeds=seeds, steps=cfg.sweep_steps, **out)


def _sweep_group(cfg: ToyConfig, data, train_mask: torch.Tensor, seeds, batches, progress) -> dict[str, np.ndarray]:
    """One batched training of some of the sweep's runs and their measures."""
    tc = cfg.train_config(cfg.sweep_steps)
    if batches is not None:
        tc = replace(tc, batch_size=cfg.batch_size)
    history = train(cfg.model_config(), data, tc, runs={"init_seed": [int(s) for s in seeds]},
                    split=(train_mask, ~train_mask), record=Record(callback=_record_embeddings),
                    components=(BatchSchedule(batches),),
                    performance=Performance(progress=progress, desc="fraction sweep"))
    emb = history.extra["embed"]  # (R, T, p, d)
    rqi = theory.rqi(emb, None, cfg.p, cfg.rqi_delta)  # (R, T)
    n_train = train_mask.sum(1).numpy()

    def overall(t):  # accuracy on the whole table at evaluation t (as train_add.py's dic["acc"])
        return (history["train_acc"][:, t] * n_train + history["val_acc"][:, t] * (cfg.n_total - n_train)) / cfg.n_total

    at3 = np.nonzero(history.steps == min(cfg.fig3_steps, cfg.sweep_steps))[0]
    pairs = [_pairs(data, np.nonzero(m.numpy())[0]) for m in train_mask]
    acc_hat = np.array([theory.predicted_accuracy(emb[r, -1], pairs[r], cfg.p, cfg.rqi_delta) for r in range(len(pairs))])
    rates = np.array([theory.grokking_rate(t, cfg.p) for t in pairs])
    return dict(accuracy=overall(-1), predicted_accuracy=acc_hat, final_rqi=rqi[:, -1],
                rqi_step=first_step(history.steps, rqi, cfg.rqi_threshold, strict=True), grokking_rate=rates,
                theory_steps=theory.theory_grokking_steps(rates, cfg.p, cfg.lr_repr),
                fig3_accuracy=overall(int(at3[0])) if len(at3) else np.full(len(seeds), np.nan))


SWEEP_LABEL = "fig4b-sweep"  # the stored sweep in the shared-templates order
OFFICIAL_ORDER_LABEL = "fig4b-official-order"  # the stored sweep in the official order


def sweep_label(cfg: ToyConfig) -> str:
    """The results-store label of a stored fraction sweep in ``cfg``'s random-number order."""
    return OFFICIAL_ORDER_LABEL if cfg.rng_order == "official" else SWEEP_LABEL


def stored_fraction_sweep(cfg: ToyConfig, root) -> tuple[FractionSweep, dict] | None:
    """The fraction sweep stored for exactly ``cfg`` under ``root`` (a :class:`repro.training.store.ResultsStore`
    folder) and its provenance manifest, or None when none is stored. The store verifies config and content."""
    return ResultsStore(root).load_result(cfg, sweep_label(cfg), lambda arrays: FractionSweep.from_arrays(cfg, arrays))


# The book-scale sweep's comparisons on Fig. 3(c) and Fig. 4(b)/5(b) (registry T12, T15) and their confirmation on
# fresh seeds (T27, T28: the same criteria, registered before the stored run that they judge).
ACC_GAP = "mean |Acc - Acc-hat| over the sweep"
STEPS_SPEARMAN = "Spearman(size, network steps to RQI > 0.95) above 22 samples"
CONFIRM_PREFIX = "confirmation (fresh seeds, stored): "
CONFIRM_LABEL = "critical-data-confirm"
CONFIRM_SEEDS = (1000, 1001, 1002, 1003, 1004)  # never run by this chapter or its stored runs (seeds 0-9)


def confirmation_config() -> ToyConfig:
    """The book-scale sweep (:meth:`ToyConfig.book_config`) with its five seeds replaced by :data:`CONFIRM_SEEDS`.

    The chapter's live comparisons on the book-scale sweep (T12, T15) were seen before they were registered, so they
    are exploratory and never decide a paper claim. Their copies T27, T28 were registered (and committed) before this
    config ever ran: seeds never run before, everything else as the live sweep (sizes, steps, evaluation, RNG order),
    stored under :data:`CONFIRM_LABEL` and sealed when the run starts, so that they are confirmatory."""
    return replace(ToyConfig.book_config(), seeds=CONFIRM_SEEDS)


def stored_confirmation(root) -> tuple[FractionSweep, dict] | None:
    """The stored confirmation sweep (:func:`confirmation_config`) under ``root`` and its manifest, or None when
    it is not stored (``python -m repro.experiments.liu2022_critical_data --store book/_results --run confirm``)."""
    cfg = confirmation_config()
    return ResultsStore(root).load_result(cfg, CONFIRM_LABEL, lambda arrays: FractionSweep.from_arrays(cfg, arrays))


def book_statistics(sweep: FractionSweep, min_count: int = 22) -> dict[str, dict]:
    """The comparisons the chapter reads off a book-scale sweep, by registry name (:data:`ACC_GAP`,
    :data:`STEPS_SPEARMAN`), each as the keywords of :meth:`repro.book.claims.ClaimBook.check`: ``ours`` and its
    seed spread. The live sweep and its fresh-seed confirmation are judged by this one function.

    * :data:`ACC_GAP`: the mean of |Acc - Acc-hat| over all runs, with ``seeds=`` the per-seed means (every seed has
      one run per size, so their mean is ours). A seed's runs share its templates, its initialization and nested
      training sets, so the seed, not the run, is the independent draw.
    * :data:`STEPS_SPEARMAN`: Spearman's rank correlation of size and steps to RQI > threshold (a run that never gets
      there counted as the budget) over the runs of at least ``min_count`` samples, with ``spread=`` its bootstrap
      over whole seeds (:meth:`FractionSweep.bootstrap_spearman`; None for one seed)."""
    from scipy.stats import spearmanr

    from repro.metrics.bootstrap import resample_spread

    seeds = np.unique(sweep.seeds)
    runs = [int((sweep.seeds == s).sum()) for s in seeds]
    if len(set(runs)) != 1:
        raise ValueError(f"book_statistics needs the same number of runs for every seed; got {runs}.")
    gap = np.abs(np.asarray(sweep.accuracy, float) - np.asarray(sweep.predicted_accuracy, float))
    per_seed = np.array([gap[sweep.seeds == s].mean() for s in seeds])
    above = sweep.counts >= min_count
    capped = np.where(sweep.rqi_step >= 0, sweep.rqi_step, sweep.steps)
    rho = float(spearmanr(sweep.counts[above], capped[above]).statistic)
    return {ACC_GAP: dict(ours=float(gap.mean()), seeds=per_seed, statistic="mean"),
            STEPS_SPEARMAN: dict(ours=rho, spread=resample_spread(sweep.bootstrap_spearman(min_count)))}


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2022_critical_data", rows=(
    StoredRun("Figs 3 and 4(b) in the official random-number order: sizes 5–54, seeds 0–9, 10⁴ steps, each run's "
              "templates, split, minibatches and init drawn as `toy/train_add.py` draws them (seeds 0–2 are the official "
              "runs, compared run by run); claims registered before the run", "", ("fig4b-official-order",)),
    StoredRun("Fig. 4(b) at the official sizes and steps in the book's earlier order (shared templates, full batch; ten "
              "seeds)", "--order shared_templates", ("fig4b-sweep",)),
    StoredRun("the book-scale sweep on fresh seeds; claims registered before the run", "--run confirm",
              ("critical-data-confirm",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2022_critical_data --store book/_results``: run the paper-scale fraction
    sweep of Figs 3 and 4(b) (``ToyConfig()``: the official sizes 5-54, 10 seeds, 10^4 steps, every step
    evaluated, each run drawn as the official code draws the run of its seed; 1.1 x 10^6 run-steps, about 10
    CPU-minutes) and store it with provenance for the chapter. ``--order shared_templates``: the sweep in the
    book's earlier order (shared templates, full batch). ``--run confirm``: the book-scale sweep on fresh seeds
    (:func:`confirmation_config`, label :data:`CONFIRM_LABEL`)."""
    parser = store_parser("repro.experiments.liu2022_critical_data", main.__doc__)
    parser.add_argument("--recompute", action="store_true", help="recompute even if a matching entry is stored")
    parser.add_argument("--order", choices=RNG_ORDERS, default="official", help="the random-number order (default: official)")
    parser.add_argument("--run", choices=("paper", "confirm"), default="paper",
                        help="paper: the paper-scale sweep (default); confirm: the book-scale sweep on fresh seeds")
    args = parser.parse_args(argv)
    if args.run == "confirm":
        if args.order != "official":
            parser.error("--run confirm is the book-scale sweep in the official order: give no --order.")
        cfg, label = confirmation_config(), CONFIRM_LABEL
    else:
        cfg = paper_sweep_config(args.order)
        label = sweep_label(cfg)
    _, manifest = ResultsStore(args.store).get_or_compute(cfg, lambda: run_fraction_sweep(cfg, progress=True).to_arrays(),
                                                          label=label, recompute=args.recompute)
    print(f"stored {label} ({manifest['key']}): wall time {manifest['wall_time_s']} s on {manifest['device']}")
    return 0


def paper_sweep_config(order: str = "official") -> ToyConfig:
    """The stored paper-scale sweep's config in the random-number order ``order``."""
    check_choice("order", order, RNG_ORDERS)
    return ToyConfig() if order == "official" else replace(ToyConfig(), rng_order=order, batch_size=None)


def linear_structure(cfg: ToyConfig) -> theory.LinearStructureStats:
    """P(unique linear structure) and lambda_3 over random training sets of every size 1..|D0| (Figs 4a, 5a)."""
    return theory.linear_structure_statistics(cfg.p, list(range(1, cfg.n_total + 1)), cfg.n_random_sets, cfg.theory_seed)


def critical_fraction_spread(stats: theory.LinearStructureStats, level: float = 0.5, n_boot: int = 2000,
                             seed: int = 0) -> float | None:
    """The bootstrap standard error (:func:`~repro.metrics.bootstrap.resample_spread`) of
    ``stats.critical_fraction(level)`` over the random training sets it was estimated from: each size's sets are
    drawn independently, so resampling them with replacement draws that size's number of unique sets from
    Binomial(n_sets, P(unique)); the crossing is read from each resampled curve. Resamples without a crossing are
    dropped."""
    check_int("n_boot", n_boot, minimum=2)
    n_sets = stats.rates.shape[1]
    rng = np.random.default_rng(seed)
    draws = rng.binomial(n_sets, np.clip(stats.p_unique, 0.0, 1.0), size=(n_boot, len(stats.p_unique))) / n_sets
    return resample_spread([replace(stats, p_unique=d).critical_fraction(level) for d in draws])


# --------------------------------------------------------------------------------------------------
# Figures


# Official Fig. 4(b) data (ejmichaud/grokking-squared, toy/results/fig4/rqistep_num_<n>_seed_<s>.txt, seeds 0-2,
# 10^4 steps; 9999 = never): how many of the three seeds reach RQI > 0.95 at each training size.
OFFICIAL_FIG4B_SEEDS = 3
OFFICIAL_FIG4B_SUCCESSES = {5: 0, 10: 0, 15: 0, 20: 0, 25: 1, 30: 1, 35: 1, 40: 2, 45: 3, 50: 3, 54: 3}
# The same files run by run: size -> the steps of seeds 0, 1, 2 (train_add.py's iter_rqi: the loop index of the first
# update after which RQI > 0.95, 9999 when it never is, i.e. our evaluation step minus one).
OFFICIAL_FIG4B_STEPS = {5: (9999, 9999, 9999), 10: (9999, 9999, 9999), 15: (9999, 9999, 9999), 20: (9999, 9999, 9999),
                        25: (9999, 9999, 2553), 30: (9999, 9999, 739), 35: (9999, 9999, 1171), 40: (867, 9999, 943),
                        45: (833, 1071, 887), 50: (1011, 1272, 977), 54: (1033, 1086, 850)}
OFFICIAL_NEVER = 9999
# Official Fig. 3 data (toy/results/fig3/realacc_num_<n>_seed_<s>.txt, train_many_fig3: 5000 steps): each run's
# accuracy on all 55 samples after its last update, as the number of samples right (the file holds k / 55).
OFFICIAL_FIG3_CORRECT = {5: (7, 6, 8), 10: (12, 15, 14), 15: (15, 17, 24), 20: (25, 20, 32), 25: (27, 29, 50),
                         30: (39, 31, 51), 35: (42, 41, 54), 40: (50, 43, 55), 45: (50, 55, 55), 50: (53, 53, 54),
                         54: (51, 53, 54)}


@dataclass(frozen=True)
class OfficialComparison:
    """Our runs beside the official runs of the same (size, seed), for the seeds the official data has."""

    counts: np.ndarray  # (K,)
    seeds: np.ndarray  # (K,)
    official_step: np.ndarray  # (K,) official iter_rqi, -1 when never
    our_step: np.ndarray  # (K,) ours on the official scale (our evaluation step - 1), -1 when never
    official_correct: np.ndarray  # (K,) samples right after fig3_steps (official)
    our_correct: np.ndarray  # (K,) ours

    @property
    def outcome_agreement(self) -> float:
        """Share of runs whose outcome (RQI > 0.95 within the budget or not) is the official one."""
        return float(np.mean((self.our_step >= 0) == (self.official_step >= 0)))

    @property
    def log_step_ratios(self) -> np.ndarray:
        """log10(our steps / official steps) over the runs that both reach RQI > 0.95."""
        both = (self.our_step >= 0) & (self.official_step >= 0)
        return np.log10(self.our_step[both] / self.official_step[both])

    @property
    def median_abs_log_ratio(self) -> float:
        r = self.log_step_ratios
        return float(np.median(np.abs(r))) if len(r) else float("nan")

    @property
    def accuracy_agreement(self) -> float:
        """Share of runs whose accuracy after Fig. 3's steps is the official one, to the sample."""
        return float(np.mean(self.our_correct == self.official_correct))


def official_comparison(sweep: FractionSweep) -> OfficialComparison:
    """The runs of ``sweep`` that the official Fig. 3/4(b) data has (sizes 5-54, seeds 0-2), beside it. Needs the
    official random-number order (else seed s is another run than the official seed s) and Fig. 3's accuracies."""
    cfg = sweep.config
    if cfg.rng_order != "official":
        raise ValueError(f"official_comparison needs a sweep with rng_order='official'; this one has {cfg.rng_order!r}: "
                         "its seed s is not the official run of seed s.")
    if sweep.fig3_accuracy is None or cfg.fig3_steps > cfg.sweep_steps:
        raise ValueError("official_comparison needs the sweep's accuracies after fig3_steps (Fig. 3's 5000 steps).")
    rows = [(n, s, r) for r, (n, s) in enumerate(zip(sweep.counts.tolist(), sweep.seeds.tolist()))
            if n in OFFICIAL_FIG4B_STEPS and s < OFFICIAL_FIG4B_SEEDS]
    if not rows:
        raise ValueError("the sweep has no run of the official data's sizes and seeds 0-2.")
    n, s, r = (np.asarray(c) for c in zip(*rows))
    official = np.array([OFFICIAL_FIG4B_STEPS[a][b] for a, b in zip(n, s)])
    ours = sweep.rqi_step[r]
    return OfficialComparison(
        counts=n, seeds=s, official_step=np.where(official == OFFICIAL_NEVER, -1, official),
        our_step=np.where(ours >= 0, ours - 1, -1),
        official_correct=np.array([OFFICIAL_FIG3_CORRECT[a][b] for a, b in zip(n, s)]),
        our_correct=np.rint(sweep.fig3_accuracy[r] * cfg.n_total).astype(int))


def binomial_interval(successes, trials, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (default 95 %) for a share of ``successes`` out of ``trials`` (arrays or scalars)."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(n < 1) or np.any((k < 0) | (k > n)):
        raise ValueError("binomial_interval needs 0 <= successes <= trials and trials >= 1.")
    check_real("z", z, positive=True)
    q = k / n
    centre = (q + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(q * (1 - q) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


# --------------------------------------------------------------------------------------------------
# Fig. 2: what a generalizing and a memorizing representation look like


@dataclass
class EmbeddingComparison:
    """Final embeddings of the reference run trained with 1-D and with 2-D embeddings (same data, seed)."""

    config: ToyConfig
    embeddings: dict[int, np.ndarray]  # d_embed -> (p, d) final embeddings
    val_acc: dict[int, float]
    rqi: dict[int, float]
    class_map: tuple[np.ndarray, np.ndarray, np.ndarray]  # (xs, ys, class index (len(ys), len(xs))) of the 2-D decoder


def decoder_classes(model_config: EmbedMLPConfig, params: dict[str, np.ndarray], points: np.ndarray,
                    templates: torch.Tensor) -> np.ndarray:
    """The class the trained decoder assigns to each point of embedding space (nearest template).

    The decoder is fed ``points`` as E_a + E_b with E_a = point and E_b = 0, through the model's own
    forward pass: a table of the points plus one zero row stands in for the embeddings.
    """
    from repro.models.networks import build_model

    model = build_model(model_config)
    pts = torch.as_tensor(points, dtype=torch.float64)
    table = torch.cat([pts, torch.zeros(1, pts.shape[1], dtype=torch.float64)])[None]
    views = {k: torch.as_tensor(v[:1], dtype=torch.float64) for k, v in params.items()}
    views["embed"] = table
    pairs = torch.stack([torch.arange(len(pts)), torch.full((len(pts),), len(pts))], dim=1)
    with torch.no_grad():
        out = model.forward(views, pairs)[0]
    t = templates.to(torch.float64)
    return (t.pow(2).sum(-1) - 2 * out @ t.T).argmin(-1).numpy()


def run_embedding_comparison(ref: ReferenceRun, grid: int = 60, progress: bool | None = None) -> EmbeddingComparison:
    """Retrain the reference setting with 2-D embeddings (the 1-D run is ``ref``) and map the 2-D
    decoder's classes over embedding space."""
    cfg = ref.config
    data = build_task_data(cfg.task(), Split(train_count=cfg.reference_train_count, data_seed=cfg.reference_seed),
                           target="regression", target_dim=cfg.d_out)
    emb = {1: ref.embeddings[-1][:, None]}
    val = {1: float(ref.history["val_acc"][0, -1])}
    q = {1: float(ref.rqi[-1])}
    cmap = None
    for d in (2,):
        mc = replace(cfg.model_config(), d_embed=d)
        h = train(mc, data, cfg.train_config(cfg.reference_steps, eval_every=cfg.reference_steps),
                  record=Record(keep_final_params=True),
                  performance=Performance(progress=progress, desc=f"{d}-D embeddings"))
        emb[d] = h.final_params["embed"][0]
        val[d] = float(h["val_acc"][0, -1])
        q[d] = theory.rqi(emb[d], None, cfg.p, cfg.rqi_delta)
        if d == 2:
            lo, hi = emb[d].min(0), emb[d].max(0)
            pad = 0.25 * (hi - lo)
            # E_a + E_b spans twice the embeddings' range: map the decoder on the sums' box
            xs = np.linspace(2 * lo[0] - pad[0], 2 * hi[0] + pad[0], grid)
            ys = np.linspace(2 * lo[1] - pad[1], 2 * hi[1] + pad[1], grid)
            pts = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
            classes = decoder_classes(mc, h.final_params, pts, data.templates)
            cmap = (xs, ys, classes.reshape(grid, grid))
    return EmbeddingComparison(cfg, emb, val, q, cmap)


@dataclass
class SeedSpread:
    """The reference setting (seed-58 split and templates, ``reference_steps``) trained from several init
    seeds, with 1-D and with 2-D embeddings: the spread over seeds behind the Fig. 2 and "about 3 n_h" claims."""

    config: ToyConfig
    seeds: np.ndarray  # (S,) init seeds
    steps: np.ndarray  # (T,) evaluation steps of the 1-D runs
    rqi_curves: np.ndarray  # (S, T) RQI of the 1-D embeddings
    rqi_step: np.ndarray  # (S,) first step with RQI > threshold (1-D), -1 if never
    val_acc: dict[int, np.ndarray]  # d_embed -> (S,) final validation accuracy
    rqi: dict[int, np.ndarray]  # d_embed -> (S,) final RQI
    n_h: float  # of the (shared) training set
    initial: np.ndarray  # (S, p) 1-D embeddings of every seed at step 0 (starting points for the effective theory)
    comparison: EmbeddingComparison  # the 1-D reference run and the 2-D run of the reference init seed (Fig. 2 panels)


def run_seed_spread(ref: ReferenceRun, grid: int = 60, progress: bool | None = None) -> SeedSpread:
    """Train the reference setting from every init seed of ``spread_seeds``: one batched call with 1-D
    embeddings (RQI recorded at every evaluation) and one with 2-D embeddings (final parameters kept). The
    2-D run of the reference init seed (or the first seed) supplies Fig. 2's decoder class map."""
    cfg = ref.config
    data = build_task_data(cfg.task(), Split(train_count=cfg.reference_train_count, data_seed=cfg.reference_seed),
                           target="regression", target_dim=cfg.d_out)
    seeds = list(cfg.spread_seeds)
    h1 = train(cfg.model_config(), data, cfg.train_config(cfg.reference_steps), runs={"init_seed": seeds},
               record=Record(callback=_record_embeddings),
               performance=Performance(progress=progress, desc="1-D seed spread"))
    rqi1 = theory.rqi(h1.extra["embed"], None, cfg.p, cfg.rqi_delta)  # (S, T)
    mc2 = replace(cfg.model_config(), d_embed=2)
    h2 = train(mc2, data, cfg.train_config(cfg.reference_steps, eval_every=cfg.reference_steps),
               runs={"init_seed": seeds}, record=Record(keep_final_params=True),
               performance=Performance(progress=progress, desc="2-D seed spread"))
    emb2 = h2.final_params["embed"]  # (S, p, 2)
    rqi2 = np.array([theory.rqi(e, None, cfg.p, cfg.rqi_delta) for e in emb2])
    val = {1: np.asarray(h1["val_acc"][:, -1], dtype=float), 2: np.asarray(h2["val_acc"][:, -1], dtype=float)}
    i = seeds.index(cfg.reference_seed) if cfg.reference_seed in seeds else 0
    lo, hi = emb2[i].min(0), emb2[i].max(0)
    pad = 0.25 * (hi - lo)
    xs = np.linspace(2 * lo[0] - pad[0], 2 * hi[0] + pad[0], grid)
    ys = np.linspace(2 * lo[1] - pad[1], 2 * hi[1] + pad[1], grid)
    pts = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    params_i = {k: np.asarray(v)[i:i + 1] for k, v in h2.final_params.items()}
    classes = decoder_classes(mc2, params_i, pts, data.templates)
    comp = EmbeddingComparison(cfg, {1: ref.embeddings[-1][:, None], 2: emb2[i]},
                               {1: float(ref.history["val_acc"][0, -1]), 2: float(val[2][i])},
                               {1: float(ref.rqi[-1]), 2: float(rqi2[i])}, (xs, ys, classes.reshape(grid, grid)))
    return SeedSpread(config=cfg, seeds=np.asarray(seeds), steps=h1.steps, rqi_curves=rqi1,
                      rqi_step=first_step(h1.steps, rqi1, cfg.rqi_threshold, strict=True), val_acc=val,
                      rqi={1: rqi1[:, -1], 2: rqi2}, n_h=ref.n_h,
                      initial=np.asarray(h1.extra["embed"][:, 0, :, 0], dtype=np.float64), comparison=comp)


def effective_rqi_steps(cfg: ToyConfig, initial, train_pairs, *, rows: str = "train", freeze_z0: bool = False,
                        record_every: int | None = None) -> np.ndarray:
    """First step at which the effective theory, integrated from each starting representation in ``initial``
    ((R, p) or (R, p, d)) with the embeddings' learning rate for ``cfg.effective_steps`` Euler steps, reaches
    RQI > ``cfg.rqi_threshold``; -1 where it never does. ``rows``: ``'train'`` (eq. 5, the training set's
    parallelograms) or ``'all'`` (the official integrator); ``freeze_z0`` as in
    :func:`repro.theory.liu2022.effective_trajectories`. Steps are resolved to ``record_every``
    (default ``cfg.eval_every``)."""
    initial = np.asarray(initial, dtype=np.float64)
    every = cfg.eval_every if record_every is None else record_every
    traj = theory.effective_trajectories(initial, [train_pairs] * len(initial), cfg.p, lr=cfg.lr_repr,
                                         steps=cfg.effective_steps, record_every=every, rows=rows, freeze_z0=freeze_z0)
    q = theory.rqi(traj.embeddings, None, cfg.p, cfg.rqi_delta)  # (R, T)
    return first_step(traj.steps, q, cfg.rqi_threshold, strict=True)


if __name__ == "__main__":
    sys.exit(main())


def rate_against_theory(sweep) -> tuple[float, float, dict[int, float]]:
    """Network steps to RQI > 0.95 against the theory's n_h over the runs that reach it: the median ratio, the
    log-log slope (1 for proportionality; the paper claims only the trend) and the median ratio per training-set
    size. NaN where fewer than two runs reach it (a smoke-scale run)."""
    ok = (sweep.rqi_step > 0) & np.isfinite(sweep.theory_steps)
    if ok.sum() < 2:
        return math.nan, math.nan, {}
    ratio = float(np.median(sweep.rqi_step[ok] / sweep.theory_steps[ok]))
    slope = float(np.polyfit(np.log10(sweep.theory_steps[ok]), np.log10(sweep.rqi_step[ok]), 1)[0])
    by_size = {int(n): float(np.median(sweep.rqi_step[ok & (sweep.counts == n)] / sweep.theory_steps[ok & (sweep.counts == n)]))
               for n in np.unique(sweep.counts[ok])}
    return ratio, slope, by_size

"""Sample complexity of classification against p, stored (Mohamadi et al. 2024, Fig. 1 right, Fig. 4, Thm 4.5).

Thm 4.5 says Õ(p^{5/3}) training pairs suffice for a network with normalized ℓ∞ margin Ω(p); Thm 4.3 says
kernel methods need Ω(p²). The chapter's live runs test three p at n = c·p^{5/3}, c ∈ {0.5, 1, 2}, which
cannot tell n ∝ p^{5/3} from n ∝ p² or from a constant fraction of the p² pairs. This module trains the
paper's recipe (normalized GD, App. A.2) at nine p from 11 to 41 on a fine grid of n, finds for each p the
training size n* at which the seed-mean final test accuracy crosses 1/2, and fits the exponent k of
n* ∝ p^k with a bootstrap over seeds. The same runs give ‖θ‖∞ and the normalized margin against p
(Figs 3-4, right).

``python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results`` recomputes the stored run (about 45 minutes
on one CPU core). Used by ``book/mohamadi2024_why_grok``.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace

import numpy as np

from repro.core.crossings import crossing as interpolated_crossing
from repro.core.portable import ConfigRepr
from repro.core.validation import check_choice, check_int, check_prime, check_real
from repro.experiments.mohamadi2024_why_grok import ClassificationConfig, train_classification
from repro.metrics.bootstrap import group_draws, resample_spread
from repro.theory import mohamadi2024 as th
from repro.training.store import ResultsStore, required_arrays, store_parser
from repro.training.stored_runs import StoredRun, StoredRunTable

PER_P = ("train_acc", "test_acc", "linf", "margin", "l2")  # (R, T) arrays stored for every p


@dataclass(frozen=True, repr=False)
class SampleComplexityConfig(ConfigRepr):
    """Normalized GD (App. A.2: step length 10, λ = 1e-20, h = 8p, α = 1) at every p and n = c·p^{5/3} of a
    grid with n < p², each (p, c) once per seed (init and training split). Our choices: the p list (the paper's
    Fig. 4 list is unstated), the c grid (factors of 2^{1/4} from 0.5, wide enough for n* ∝ p^{5/3}, p² or a
    constant fraction to stay inside it from p = 11 to 41) and the budget (1 500 steps: every generalizing
    run of the chapter's live p reaches 99 % within 1 000; the paper trains up to 10^5)."""

    ps: tuple[int, ...] = (11, 13, 17, 19, 23, 29, 31, 37, 41)
    n_coeffs: tuple[float, ...] = tuple(round(0.5 * 2 ** (k / 4), 4) for k in range(12))  # 0.5 ... 3.36
    seeds: tuple[int, ...] = (0, 1, 2)
    steps: int = 1500
    eval_every: int = 50
    lr: float = 10.0  # App. A.2
    width_factor: int = 8  # h = 8p (Thm 4.5 needs h ≥ 8p)

    def __post_init__(self):
        if not self.ps or len(set(self.ps)) != len(self.ps):
            raise ValueError(f"ps={self.ps!r} is not allowed: give at least one prime, each once.")
        for p in self.ps:
            check_prime("ps", p)
        if not self.n_coeffs or list(self.n_coeffs) != sorted(set(self.n_coeffs)):
            raise ValueError(f"n_coeffs={self.n_coeffs!r} is not allowed: give increasing, distinct coefficients.")
        for c in self.n_coeffs:
            check_real("n_coeffs", c, positive=True)
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"seeds={self.seeds!r} is not allowed: give at least one seed, each once.")
        for s in self.seeds:
            check_int("seeds", s, minimum=0)
        check_int("steps", self.steps, minimum=1)
        check_int("eval_every", self.eval_every, minimum=1)
        check_real("lr", self.lr, positive=True)
        check_int("width_factor", self.width_factor, minimum=1)

    def coeffs_at(self, p: int) -> tuple[float, ...]:
        """The grid's coefficients whose n = c·p^{5/3} leaves a test set (n < p²)."""
        return tuple(c for c in self.n_coeffs if th.classification_train_size(p, c) < p * p)

    def classification_config(self, p: int) -> ClassificationConfig:
        """All runs of one p, seed-major: run s·C + j is seed ``seeds[s]`` at ``coeffs_at(p)[j]``."""
        coeffs = self.coeffs_at(p)
        runs = [(c, s) for s in self.seeds for c in coeffs]
        return ClassificationConfig(p=p, width_factor=self.width_factor, n_coeffs=tuple(c for c, _ in runs),
                                    init_scales=(1.0,) * len(runs), data_seeds=tuple(s for _, s in runs),
                                    init_seeds=tuple(s for _, s in runs), lr=self.lr, steps=self.steps,
                                    eval_every=self.eval_every)


@dataclass
class SampleComplexityResult:
    config: SampleComplexityConfig
    steps: np.ndarray  # (T,)
    runs: dict  # p -> {name: (S, C_p, T) array} for name in PER_P

    def n_values(self, p: int) -> np.ndarray:
        return np.array([th.classification_train_size(p, c) for c in self.config.coeffs_at(p)])

    def final(self, p: int, name: str = "test_acc") -> np.ndarray:
        """(S, C_p): ``name`` at the last step, per seed and n."""
        return self.runs[p][name][..., -1]

    def at(self, p: int, step: int, name: str = "test_acc") -> np.ndarray:
        """(S, C_p): ``name`` at the recorded step ``step`` (the budget of a shorter run of the same config: the
        runs are deterministic, so stopping at ``step`` would have given these very numbers)."""
        where = np.flatnonzero(self.steps == step)
        if where.size == 0:
            raise ValueError(f"step={step!r} was not recorded: allowed are the evaluation steps "
                             f"{int(self.steps[0])}, {int(self.steps[1])}, ... {int(self.steps[-1])}.")
        return self.runs[p][name][..., int(where[0])]

    def to_arrays(self) -> dict[str, np.ndarray]:
        out = {"steps": self.steps}
        for p, arrays in self.runs.items():
            out.update({f"p{p}_{name}": arrays[name] for name in PER_P})
        return out

    @classmethod
    def from_arrays(cls, config: SampleComplexityConfig, arrays: dict[str, np.ndarray]) -> "SampleComplexityResult":
        arrays = required_arrays(arrays, ["steps"] + [f"p{p}_{n}" for p in config.ps for n in PER_P],
                                 "stored sample-complexity run")
        return cls(config=config, steps=arrays["steps"],
                   runs={p: {n: arrays[f"p{p}_{n}"] for n in PER_P} for p in config.ps})


def run_sample_complexity(cfg: SampleComplexityConfig, progress: bool = True) -> SampleComplexityResult:
    """Train every p of ``cfg`` (one batched program per p), largest p first, printing one line per p."""
    runs, steps = {}, None
    for p in sorted(cfg.ps, reverse=True):
        t0 = time.time()
        res = train_classification(cfg.classification_config(p))
        S, C = len(cfg.seeds), len(cfg.coeffs_at(p))
        runs[p] = {name: getattr(res, name).reshape(S, C, -1) for name in PER_P}
        steps = res.steps
        if progress:
            print(f"p = {p}: {S * C} runs x {cfg.steps} steps in {time.time() - t0:.0f} s", flush=True)
    return SampleComplexityResult(config=cfg, steps=steps, runs=dict(sorted(runs.items())))


def crossing(n: np.ndarray, acc: np.ndarray, level: float = 0.5) -> float:
    """The training size at which ``acc`` (one value per n, increasing n) first rises through ``level``,
    interpolated linearly in log n (:func:`repro.core.crossings.crossing`). NaN when it never crosses, or when it is
    already at or above ``level`` at the smallest n (the crossing lies off the grid)."""
    n, acc = np.asarray(n, dtype=float), np.asarray(acc, dtype=float)
    if acc[0] >= level:
        return float("nan")
    return float(np.exp(interpolated_crossing(np.log(n), acc, level)))


def critical_sizes(res: SampleComplexityResult, seeds=None, step: int | None = None) -> np.ndarray:
    """n*(p) for every p of the config: where the mean over ``seeds`` (indices; default all) of the test accuracy
    after ``step`` steps (default: the last) crosses 1/2."""
    out = []
    for p in res.config.ps:
        acc = res.final(p) if step is None else res.at(p, step)
        acc = acc if seeds is None else acc[np.asarray(seeds)]
        out.append(crossing(res.n_values(p), acc.mean(axis=0)))
    return np.array(out)


def fit_exponent(ps, n_crit) -> float:
    """Least-squares slope k of log n* = k log p + b over the p with a finite n*."""
    ps, n_crit = np.asarray(ps, dtype=float), np.asarray(n_crit, dtype=float)
    ok = np.isfinite(n_crit)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(ps[ok]), np.log(n_crit[ok]), 1)[0])


def bootstrap_exponent(res: SampleComplexityResult, n_boot: int = 2000, seed: int = 0) -> np.ndarray:
    """The fitted exponent for ``n_boot`` resamplings of the seeds (with replacement, independently per p):
    its spread is the seed-to-seed uncertainty of k."""
    ps = res.config.ps
    return _bootstrap(ps, {p: res.n_values(p) for p in ps}, {p: res.final(p) for p in ps}, n_boot, seed)


def _bootstrap(ps, n_by_p: dict, finals_by_p: dict, n_boot: int, seed: int) -> np.ndarray:
    """Seed bootstrap of the fitted exponent from each p's grid ``n_by_p[p]`` and (S, C_p) final accuracies."""
    rng = np.random.default_rng(seed)
    ks = np.empty(n_boot)
    for i in range(n_boot):
        crit = []
        for p in ps:
            S = finals_by_p[p].shape[0]
            crit.append(crossing(n_by_p[p], finals_by_p[p][rng.integers(0, S, S)].mean(axis=0)))
        ks[i] = fit_exponent(ps, crit)
    return ks


@dataclass
class SettledExponent:
    """n* ∝ p^k from runs read at budgets where n* has stopped moving: each p from ``short`` at its last step,
    except the p that ``long`` trains, which come from ``long`` at its last step."""
    ps: tuple[int, ...]
    steps: dict  # p -> the budget its n* is read at
    n_crit: np.ndarray  # (P,)
    k: float  # least-squares exponent over every finite n*
    k_boot: np.ndarray  # (n_boot,) seed bootstrap of k


def settled_exponent(short: SampleComplexityResult, long: SampleComplexityResult, n_boot: int = 2000,
                     seed: int = 0) -> SettledExponent:
    """Join a short-budget run and a longer-budget run of larger p into one exponent fit (see
    :class:`SettledExponent`), with the seed bootstrap of :func:`bootstrap_exponent`."""
    source = {p: short for p in short.config.ps if p not in long.config.ps}
    source.update({p: long for p in long.config.ps})
    ps = tuple(sorted(source))
    n_by_p = {p: source[p].n_values(p) for p in ps}
    finals = {p: source[p].final(p) for p in ps}
    n_crit = np.array([crossing(n_by_p[p], finals[p].mean(axis=0)) for p in ps])
    return SettledExponent(ps=ps, steps={p: int(source[p].steps[-1]) for p in ps}, n_crit=n_crit,
                           k=fit_exponent(ps, n_crit), k_boot=_bootstrap(ps, n_by_p, finals, n_boot, seed))


def median_at(res: SampleComplexityResult, p: int, name: str = "test_acc", coeff: float = 2.0) -> float:
    """The median over seeds of ``name`` at the last step, at p and n = coeff·p^{5/3} (App. A.2's n by default)."""
    return float(np.median(res.final(p, name)[:, res.config.coeffs_at(p).index(coeff)]))


def min_median_at(res: SampleComplexityResult, name: str = "test_acc", coeff: float = 2.0) -> float:
    """The smallest :func:`median_at` over the config's p."""
    return min(median_at(res, p, name, coeff) for p in res.config.ps)


def resample_seeds(res: SampleComplexityResult, picks: dict) -> SampleComplexityResult:
    """``res`` with each p's seeds replaced by those at indices ``picks[p]`` (repeats allowed: a bootstrap resample);
    a seed keeps all its sizes and steps."""
    runs = {p: {name: a[picks[p]] for name, a in arrays.items()} for p, arrays in res.runs.items()}
    return SampleComplexityResult(config=res.config, steps=res.steps, runs=runs)


def seed_bootstrap_se(statistic, *results: SampleComplexityResult, n_boot: int = 1000, seed: int = 0) -> float | None:
    """Seed-bootstrap standard error of ``statistic(*results)``, a statistic of stored runs that is no mean or median
    of per-seed values (a min over p, a ratio, a fitted exponent's percentile): recomputed on ``n_boot`` resamplings
    of the seeds, each p of each result apart (:func:`repro.metrics.bootstrap.group_draws`, as
    :func:`bootstrap_exponent` resamples each p; :func:`resample_seeds`), and read off the values by
    :func:`repro.metrics.bootstrap.resample_spread`."""
    groups = [(i, p) for i, r in enumerate(results) for p in r.runs]
    draws = group_draws([results[i].runs[p]["test_acc"].shape[0] for i, p in groups], n_boot, seed)
    values = []
    for b in range(len(draws[0]) if draws else 0):
        picks = [{} for _ in results]
        for (i, p), d in zip(groups, draws):
            picks[i][p] = d[b]
        values.append(statistic(*(resample_seeds(r, pk) for r, pk in zip(results, picks))))
    return resample_spread(values)


def exponent_percentile_se(q: float, *results: SampleComplexityResult, n_boot: int = 100, inner: int = 250,
                           seed: int = 0) -> float | None:
    """Seed-bootstrap standard error of the ``q``-th percentile of the seed-bootstrap exponent, nested: each of
    ``n_boot`` resamplings of the seeds reruns an ``inner``-draw bootstrap (:func:`bootstrap_exponent` of one result,
    :func:`settled_exponent` of a (short, long) pair). Small counts keep it to seconds; the inner draws' noise
    only widens the error."""
    def percentile(*rs):
        ks = bootstrap_exponent(rs[0], inner, seed) if len(rs) == 1 else settled_exponent(*rs, inner, seed).k_boot
        return float(np.nanpercentile(ks, q))
    return seed_bootstrap_se(percentile, *results, n_boot=n_boot, seed=seed)


BUDGET_PS = (37, 41, 47, 53)  # where n* still moves at 1,500 steps (p = 37, 41), and two larger p
BUDGET_LABEL = "sample-complexity-budget"


def budget_config(p: int | None = None) -> SampleComplexityConfig:
    """Does n* stop moving with the budget? In the 1,500-step run, runs near the threshold at p ≥ 37 still improve
    at the last step. This run trains p = 37, 41 and the larger 47, 53 for 4,000 normalized steps (the paper trains
    up to 10^5), recorded every 100, so n* after 1,000, 2,000 and 4,000 steps comes from one run. Sizes
    n = c·p^{5/3} for c = 2^{k/4} from 1/√2 to 2 (the 1,500-step run's n*/p^{5/3} is about 1.2 for p ≥ 23, and
    c = 2 is App. A.2's n), three seeds. About 2.5 hours on one core, so each p is its own stored entry
    (``budget_config(p)``: 14 to 66 minutes each); :func:`stored_budget` joins them."""
    cfg = SampleComplexityConfig(ps=BUDGET_PS, n_coeffs=tuple(round(2 ** (k / 4), 4) for k in range(-2, 5)),
                                 steps=4000, eval_every=100)
    if p is None:
        return cfg
    check_choice("p", p, BUDGET_PS)
    return replace(cfg, ps=(p,))


def stored_budget(root) -> tuple[SampleComplexityResult, list[dict]] | None:
    """Every p of :func:`budget_config` stored under ``root`` (one entry per p), joined into one result for the
    whole config, with their manifests; None until all are stored."""
    found = [stored_sample_complexity(budget_config(p), root, BUDGET_LABEL) for p in BUDGET_PS]
    if any(f is None for f in found):
        return None
    if any(not np.array_equal(r.steps, found[0][0].steps) for r, _ in found):
        raise ValueError("the stored budget entries record different steps: recompute them with "
                         "`python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results --run budget`.")
    runs = {p: r.runs[p] for p, (r, _) in zip(BUDGET_PS, found)}
    return SampleComplexityResult(config=budget_config(), steps=found[0][0].steps, runs=runs), [m for _, m in found]


def budget_shift(res: SampleComplexityResult, short: int, long: int) -> np.ndarray:
    """Per p, log2 n*(``long`` steps) − log2 n*(``short`` steps): how far the critical size moves when the budget
    grows (one grid step of the coefficients is 1/4; NaN where n* lies off the grid at either budget)."""
    return np.log2(critical_sizes(res, step=long)) - np.log2(critical_sizes(res, step=short))


def stored_sample_complexity(cfg: SampleComplexityConfig, root, label: str = "sample-complexity") -> tuple[SampleComplexityResult, dict] | None:
    """The stored run for exactly ``cfg`` under ``root`` and its manifest, or None when none is stored."""
    return ResultsStore(root).load_result(cfg, label, lambda arrays: SampleComplexityResult.from_arrays(cfg, arrays))


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="mohamadi2024_why_grok", rows=(
    StoredRun("sample complexity against p (normalized GD, p = 11–41, 12 sizes × 3 seeds, 1 500 steps)", "",
              ("sample-complexity",)),
    StoredRun("sample complexity at settled budgets (p = 37, 41, 47, 53; 7 sizes × 3 seeds; 4 000 steps, n* read after "
              "1 000, 2 000 and 4 000), one entry per p (`--ps` picks some); claims registered before the run",
              "--run budget", ("sample-complexity-budget",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results``: train :class:`SampleComplexityConfig`'s
    defaults (p = 11-41, 1,500 steps, about 45 minutes on one core) and store them with provenance for the chapter;
    ``--run budget`` trains :func:`budget_config` instead (p = 37-53, 4,000 steps, about 2.5 hours), one stored entry
    per p (``--ps`` picks some)."""
    parser = store_parser("repro.experiments.mohamadi2024_why_grok_sample", main.__doc__)
    parser.add_argument("--run", choices=("sweep", "budget"), default="sweep",
                        help="sweep: p = 11-41 at 1,500 steps (default); budget: p = 37-53 at 4,000 steps")
    parser.add_argument("--ps", type=int, nargs="+", default=list(BUDGET_PS), choices=list(BUDGET_PS),
                        help="budget: only these p (each is its own stored entry; default all)")
    args = parser.parse_args(argv)
    store = ResultsStore(args.store)
    if args.run == "budget":
        for p in args.ps:
            cfg = budget_config(p)
            store.get_or_compute(cfg, lambda cfg=cfg: run_sample_complexity(cfg).to_arrays(), label=BUDGET_LABEL)
        return 0
    cfg = SampleComplexityConfig()
    store.get_or_compute(cfg, lambda: run_sample_complexity(cfg).to_arrays(), label="sample-complexity")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What each theory predicts on the synthesis sweep, as one number each (``book/synthesis_one_task.ipynb``).

Every prediction is a statistic of the runs of one slice of :mod:`repro.experiments.synthesis_one_task` and a
standard error from resampling those runs (each group of runs resampled on its own, as its seeds are independent).
The registry (``book/_registry/synthesis_one_task.toml``) holds what each number is compared with and why; this
module only measures. A run that never reaches 99 % is kept, never dropped: a delay is then censored at the budget
(a lower bound), and a share counts it as not generalizing. A share of runs takes the book's error for a fraction of
independent runs, the binomial bound of :func:`repro.metrics.bootstrap.fraction_standard_error` (a resample of a
group whose runs all agree would claim no error at all).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from repro.experiments.synthesis_one_task import SynthesisResult
from repro.metrics.bootstrap import fraction_standard_error, resample_spread, seed_draws
from repro.metrics.representation import snapshot_at

N_BOOT = 2000


@dataclass(frozen=True)
class Measured:
    """One prediction's number on the sweep: its value, its resampling standard error, and the runs behind it."""

    value: float
    spread: float | None
    n_runs: int


def measured(statistic: Callable[..., float], groups: Sequence[np.ndarray], seed: int = 0) -> Measured:
    """``statistic(*groups)`` and its standard error from :data:`N_BOOT` resamples of each group's runs."""
    groups = [np.asarray(g, dtype=float) for g in groups]
    value = float(statistic(*groups))
    draws = [seed_draws(len(g), N_BOOT, seed + k) for k, g in enumerate(groups)]
    if any(d.shape[0] == 0 for d in draws):
        return Measured(value, None, sum(len(g) for g in groups))
    resampled = [statistic(*(g[d[b]] for g, d in zip(groups, draws))) for b in range(N_BOOT)]
    return Measured(value, resample_spread(np.asarray(resampled, dtype=float)), sum(len(g) for g in groups))


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation (ties take their mean rank; inf ranks last); 0 when either side is constant."""
    from scipy.stats import rankdata

    rx, ry = rankdata(x), rankdata(y)
    if rx.std() == 0 or ry.std() == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


def delays(result: SynthesisResult, runs: np.ndarray) -> np.ndarray:
    """Steps from the fit (99 % training) to 99 % validation; a run that never generalizes counts from its fit (or
    step 0) to the budget's end plus one evaluation, a lower bound that ranks it after every generalizing run."""
    fit, gen = result.fit_step[runs], result.generalize_step[runs]
    end = result.config.steps + result.config.eval_every
    return np.where(gen >= 0, gen - np.maximum(fit, 0), end - np.maximum(fit, 0)).astype(float)


def generalized(result: SynthesisResult, runs: np.ndarray) -> np.ndarray:
    return (result.generalize_step[runs] >= 0).astype(float)


def _share_reached(result: SynthesisResult, r: int, step: int) -> float:
    """The share of run r's Fourier-concentration rise (initial → final) reached at the snapshot at or after step."""
    f = result.fourier[r]
    at = snapshot_at(f, result.snapshot_steps, int(step))
    rise = f[-1] - f[0]
    return float((at - f[0]) / rise) if rise > 0 else float("nan")


def grokking_runs(result: SynthesisResult) -> np.ndarray:
    """The runs that fit and then generalize later (all slices): the ones a timing of structure can be read on."""
    fit, gen = result.fit_step, result.generalize_step
    return np.flatnonzero((fit >= 0) & (gen > fit))


def structure_share(result: SynthesisResult, at: str) -> Measured:
    """Liu et al. 2022: median over :func:`grokking_runs` of the share of the embeddings' structure rise reached at
    the fit (``at="fit"``) or at 99 % validation (``at="generalization"``)."""
    steps = {"fit": result.fit_step, "generalization": result.generalize_step}[at]
    runs = grokking_runs(result)
    shares = np.asarray([_share_reached(result, r, steps[r]) for r in runs])
    return measured(lambda v: np.nanmedian(v) if np.isfinite(v).any() else np.nan, [shares])


def alpha_correlation(result: SynthesisResult, what: str) -> Measured:
    """Spearman's ρ between α and, over the free-norm runs of the norm slice, their ``"delay"`` (Omnigrok) or their
    validation accuracy at the fit (``"val_at_fit"``, Mohamadi et al.)."""
    runs = result.where(slice="norm", fixed_norm=False)
    alpha = np.asarray([result.specs[r].alpha for r in runs], dtype=float)
    if what == "delay":
        y = delays(result, runs)
    elif what == "val_at_fit":
        fit = result.fit_step[runs]
        idx = np.searchsorted(result.steps, np.where(fit >= 0, fit, result.steps[-1]))
        y = result.val_acc[runs, idx]
    else:
        raise ValueError(f"what={what!r} is not allowed: 'delay' or 'val_at_fit'.")
    pairs = np.stack([alpha, y], axis=1)
    return measured(lambda v: spearman(v[:, 0], v[:, 1]), [pairs])


def _by_alpha(result: SynthesisResult, values: Callable, fixed: bool) -> list[np.ndarray]:
    alphas = result.config.fixed_alphas if fixed else result.config.free_alphas
    return [values(result.where(slice="norm", fixed_norm=fixed, alpha=a)) for a in alphas]


def goldilocks_window(result: SynthesisResult) -> Measured:
    """Omnigrok: with the norm held, the best median final validation accuracy over the inner α's minus the better
    of the two outer α's (> 0: a window of norms generalizes better than both too small and too large ones)."""
    groups = _by_alpha(result, lambda runs: result.val_acc[runs, -1], fixed=True)
    if len(groups) < 3:
        raise ValueError(f"fixed_alphas={result.config.fixed_alphas!r}: a window needs at least three held norms.")

    def window(*g):
        medians = [np.median(x) for x in g]
        return max(medians[1:-1]) - max(medians[0], medians[-1])

    return measured(window, groups)


def held_norm_delay_ratio(result: SynthesisResult) -> Measured:
    """Omnigrok: the smallest median delay over the held-norm α's, over the free α = 1 runs' median delay (delays
    censored at the budget, :func:`delays`)."""
    free = result.where(slice="norm", fixed_norm=False, alpha=1.0)
    groups = [delays(result, free), *_by_alpha(result, lambda runs: delays(result, runs), fixed=True)]
    return measured(lambda f, *held: min(np.median(h) for h in held) / np.median(f), groups)


def ntk_decades_after_fit(result: SynthesisResult, alpha: float) -> Measured:
    """Mohamadi et al. Fig. 1 (left): median over the free-norm runs at ``alpha`` that fit of
    log10(‖Θ̂_end − Θ̂_0‖ / ‖Θ̂_fit − Θ̂_0‖), the kernel's movement after the fit against before it."""
    runs = result.where(slice="norm", fixed_norm=False, alpha=alpha)
    runs = runs[result.fit_step[runs] >= 0]
    decades = np.asarray([np.log10(result.ntk_change[r, -1] /
                                   snapshot_at(result.ntk_change[r], result.snapshot_steps, int(result.fit_step[r])))
                          for r in runs])
    return measured(np.median, [decades])


def _rate_cells(result: SynthesisResult) -> dict[tuple[float, float], np.ndarray]:
    factors = result.config.rate_factors
    return {(e, d): generalized(result, result.where(slice="rates", lr_enc=e, lr_dec=d)) for e in factors for d in factors}


def share_difference(a: np.ndarray, b: np.ndarray) -> Measured:
    """The share of runs that generalize in group ``a`` minus that in ``b`` (0/1 per run), with the binomial bound
    of each share's error combined in quadrature."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    spread = float(np.hypot(fraction_standard_error(int(a.sum()), a.size), fraction_standard_error(int(b.sum()), b.size)))
    return Measured(float(a.mean() - b.mean()), spread, a.size + b.size)


def ratio_rule(result: SynthesisResult) -> Measured:
    """GenEFT Eq. 11 (generalization set by η_enc/η_dec): the share of runs that generalize with η_enc > η_dec minus
    the share with η_enc < η_dec, over the rate slice."""
    cells = _rate_cells(result)
    above = np.concatenate([v for (e, d), v in cells.items() if e > d])
    below = np.concatenate([v for (e, d), v in cells.items() if e < d])
    return share_difference(above, below)


def product_rule(result: SynthesisResult) -> Measured:
    """GenEFT §5 (generalization needs η_enc·η_dec small): on the diagonal η_enc = η_dec, the share of runs that
    generalize at the largest product minus that at the smallest."""
    factors = result.config.rate_factors
    cells = _rate_cells(result)
    return share_difference(cells[(max(factors),) * 2], cells[(min(factors),) * 2])


def between_phases(result: SynthesisResult, low: float = 0.2, high: float = 0.8) -> Measured:
    """Rubin et al.: over the fraction slice, the share of runs whose final validation accuracy lies between the
    two phases (in [low, high]); a first-order transition leaves few there, as its phases coexist across seeds."""
    runs = result.where(slice="fraction")
    final = result.val_acc[runs, -1]
    between = int(((final >= low) & (final <= high)).sum())
    return Measured(between / len(runs), fraction_standard_error(between, len(runs)), len(runs))


def generalizing_share_by_fraction(result: SynthesisResult) -> dict[float, float]:
    """The share of the fraction slice's runs that generalize within the budget, per training fraction."""
    return {f: float(generalized(result, result.where(slice="fraction", train_fraction=f)).mean())
            for f in result.config.fractions}


def structure_contrast(result: SynthesisResult) -> Measured:
    """Liu et al. 2022, with a control: over the free-norm runs that fit, the median final Fourier concentration of
    those that generalize minus that of those that do not (> 0: the structure goes with generalization)."""
    free = np.asarray([r for r, s in enumerate(result.specs) if not s.fixed_norm and result.fit_step[r] >= 0])
    gen = result.generalize_step[free] >= 0
    final = result.fourier[free, -1]
    return measured(lambda g, n: np.median(g) - np.median(n), [final[gen], final[~gen]])


def delay_difference(result: SynthesisResult, higher: dict, lower: dict) -> Measured:
    """The median delay (censored, :func:`delays`) of the runs with knobs ``higher`` minus that of ``lower``."""
    a, b = delays(result, result.where(**higher)), delays(result, result.where(**lower))
    return measured(lambda x, y: np.median(x) - np.median(y), [a, b])


def slow_decoder_delay(result: SynthesisResult) -> Measured:
    """Liu et al. 2022 §4: over the rate slice, the median delay at the slowest decoder rate minus that at the fastest
    (every embedding rate pooled)."""
    factors = result.config.rate_factors
    return delay_difference(result, dict(slice="rates", lr_dec=min(factors)), dict(slice="rates", lr_dec=max(factors)))


def alpha_delay_difference(result: SynthesisResult, higher: float, lower: float) -> Measured:
    """The median delay of the free-norm runs at α = ``higher`` minus that at α = ``lower``."""
    return delay_difference(result, dict(slice="norm", fixed_norm=False, alpha=higher),
                            dict(slice="norm", fixed_norm=False, alpha=lower))

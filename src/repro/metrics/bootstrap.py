"""Bootstrap standard errors over seeds: the one rule every chapter uses for a statistic whose error no formula gives
(a median, a spread of medians, a fit, a minimum over cells, a ratio of two ensembles).

The seeds (or whatever the independent draws are: data sets, random training sets) are resampled with replacement
(:func:`seed_draws`, a fixed generator, so the same data give the same error on every machine), the statistic is
recomputed on each resample, and its standard error is read off the resampled values (:func:`resample_spread`).
:func:`bootstrap_standard_error` does both for a statistic of seed indices; a module whose draws are structured
(several groups resampled apart, pairs resampled together, a nested bootstrap) draws with :func:`seed_draws` or
:func:`group_draws` and reads the error with :func:`resample_spread`.
"""
from __future__ import annotations

import math

import numpy as np

BOOTSTRAP_RESAMPLES = 2000  # resamplings of the seeds
CENTRAL_68 = (0.158655, 0.841345)  # the quantiles one normal standard deviation either side of the median


def _check_count(name: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name}={value!r} is not allowed: {name} must be an integer >= {minimum}.")
    return int(value)


def seed_draws(n_seeds: int, n_boot: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> np.ndarray:
    """(n_boot, n_seeds) indices of the ``n_seeds`` seeds resampled with replacement, one resample a row, from the
    fixed generator ``np.random.default_rng(seed)``. No resamples (an empty (0, n_seeds) array) for fewer than two
    seeds, whose resamples would all repeat the one: one seed measures no spread."""
    n_seeds = _check_count("n_seeds", n_seeds, 0)
    n_boot = _check_count("n_boot", n_boot, 1)
    if n_seeds < 2:
        return np.zeros((0, n_seeds), dtype=int)
    return np.random.default_rng(seed).integers(0, n_seeds, (n_boot, n_seeds))


def group_draws(sizes, n_boot: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> list[np.ndarray]:
    """:func:`seed_draws` for several groups of seeds resampled apart (independent runs, two ensembles, the seeds of
    each p), one (n_boot, size) array per group: group k from generator ``seed + k``, so that groups of equal size
    are not drawn alike (group 0's draws are :func:`seed_draws`'). A group of one seed stays itself in every
    resample; if no group has two seeds, every array is empty (0, size): nothing measures a spread."""
    sizes = [_check_count("size", s, 1) for s in sizes]
    n_boot = _check_count("n_boot", n_boot, 1)
    rows = n_boot if any(s >= 2 for s in sizes) else 0
    return [seed_draws(s, n_boot, seed + k) if s >= 2 else np.zeros((rows, s), dtype=int) for k, s in enumerate(sizes)]


def resample_spread(values) -> float | None:
    """The standard error of a statistic read off its bootstrap resamples ``values`` (NaN and inf dropped): the
    larger of their standard deviation (ddof 1) and half the width of their central 68 %. None (no spread measured)
    with fewer than two finite values.

    Half the central width equals the standard error for a normal statistic and is robust to the rare resample
    whose statistic runs far out (a median of a few seeds jumping to an outlying one, a significance whose subset
    error nearly vanishes). But a statistic on a grid (a transition size, an onset, a count) can put most resamples
    on one value, so that the central 68 % has width 0 while a tenth of them lie elsewhere; the standard deviation
    still counts those. The larger of the two never claims more certainty than either."""
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if v.size < 2:
        return None
    lo, hi = np.quantile(v, CENTRAL_68)
    return float(max(v.std(ddof=1), (hi - lo) / 2))


def bootstrap_standard_error(statistic, n_seeds: int, n_boot: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> float | None:
    """The seed standard error of ``statistic``, a function of seed indices (one row of :func:`seed_draws`, an
    array of ``n_seeds`` indices with repeats) that computes the statistic on those seeds: :func:`resample_spread`
    of its values on ``n_boot`` resamplings. None for fewer than two seeds or two finite values."""
    return resample_spread([statistic(d) for d in seed_draws(n_seeds, n_boot, seed)])


def fraction_standard_error(k: int, n: int) -> float:
    """The seed standard error of a fraction ``k / n`` over ``n`` independent one-seed runs (the cells of a phase map,
    each trained from its own seed): at most sqrt(f (1 - f) / n), since the variance of a sum of independent
    Bernoulli outcomes, sum p_i (1 - p_i), is at most n p (1 - p) at their mean p; with f = (k + 1) / (n + 2) so that
    0 or n hits do not claim certainty."""
    if not (isinstance(n, (int, np.integer)) and n >= 1 and isinstance(k, (int, np.integer)) and 0 <= k <= n):
        raise ValueError(f"k={k!r}, n={n!r} are not allowed: counts with 0 <= k <= n and n >= 1.")
    f = (k + 1) / (n + 2)
    return math.sqrt(f * (1 - f) / n)

"""repro.metrics.bootstrap: seed draws, the standard error read off resamples, and the two together."""
import numpy as np
import pytest

from repro.metrics.bootstrap import bootstrap_standard_error, group_draws, resample_spread, seed_draws


def test_seed_draws_shape_range_and_determinism():
    d = seed_draws(5, n_boot=300, seed=3)
    assert d.shape == (300, 5) and d.min() >= 0 and d.max() <= 4
    assert np.array_equal(d, seed_draws(5, n_boot=300, seed=3))  # a fixed generator
    assert not np.array_equal(d, seed_draws(5, n_boot=300, seed=4))
    assert np.array_equal(seed_draws(5), np.random.default_rng(0).integers(0, 5, (2000, 5)))


@pytest.mark.parametrize("n", [0, 1])
def test_one_seed_has_no_draws(n):
    assert seed_draws(n).shape == (0, n)


def test_seed_draws_rejects_bad_counts():
    with pytest.raises(ValueError):
        seed_draws(-1)
    with pytest.raises(ValueError):
        seed_draws(3, n_boot=0)


def test_group_draws_are_independent_and_keep_a_lone_seed():
    a, b = group_draws([4, 4], n_boot=100)
    assert np.array_equal(a, seed_draws(4, 100, 0)) and not np.array_equal(a, b)
    a, one = group_draws([4, 1], n_boot=100)
    assert a.shape == (100, 4) and one.shape == (100, 1) and not one.any()
    assert [g.shape for g in group_draws([1, 1], n_boot=100)] == [(0, 1), (0, 1)]


def test_resample_spread_normal_is_the_standard_deviation():
    v = np.random.default_rng(1).normal(0.0, 2.0, 20_000)
    assert resample_spread(v) == pytest.approx(2.0, rel=0.03)


def test_resample_spread_drops_non_finite_and_needs_two():
    assert resample_spread([1.0, np.nan, np.inf]) is None
    assert resample_spread([]) is None
    assert resample_spread([1.0, 3.0, np.nan]) == pytest.approx(np.std([1.0, 3.0], ddof=1))


def test_resample_spread_on_a_grid_counts_the_rare_values():
    # 90 % of the resamples on one grid value: the central 68 % has width 0, the standard deviation does not
    v = np.r_[np.zeros(900), np.ones(100)]
    lo, hi = np.quantile(v, [0.158655, 0.841345])
    assert hi - lo == 0
    assert resample_spread(v) == pytest.approx(v.std(ddof=1)) and resample_spread(v) > 0.25


def test_resample_spread_keeps_half_the_central_width_when_larger():
    # heavy tails: a few far outliers inflate nothing, a wide centre is kept
    v = np.r_[np.linspace(-1, 1, 1000)]
    lo, hi = np.quantile(v, [0.158655, 0.841345])
    assert resample_spread(v) == pytest.approx(max(v.std(ddof=1), (hi - lo) / 2))


def test_bootstrap_standard_error_of_the_mean():
    x = np.random.default_rng(2).normal(5.0, 1.5, 40)
    se = bootstrap_standard_error(lambda d: x[d].mean(), x.size)
    assert se == pytest.approx(x.std(ddof=1) / np.sqrt(x.size), rel=0.1)
    assert se == bootstrap_standard_error(lambda d: x[d].mean(), x.size)  # deterministic
    assert se != bootstrap_standard_error(lambda d: x[d].mean(), x.size, seed=1)


def test_bootstrap_standard_error_passes_the_draws():
    seen = []
    bootstrap_standard_error(lambda d: seen.append(d.copy()) or 0.0, 3, n_boot=50, seed=7)
    assert np.array_equal(np.array(seen), seed_draws(3, 50, 7))


def test_bootstrap_standard_error_of_one_seed_is_none():
    assert bootstrap_standard_error(lambda d: 1.0, 1) is None
    assert bootstrap_standard_error(lambda d: np.nan, 4) is None  # no finite resample

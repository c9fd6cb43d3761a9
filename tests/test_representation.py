import numpy as np
import pytest

from repro.metrics.representation import (circle_order, circularity, effective_dimension, explained_variance_entropy,
                                          grokking_delay, pca, snapshot_at)


def test_pca_against_numpy_covariance():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 4)) * np.array([5.0, 2.0, 1.0, 0.1])
    proj, ratios = pca(x)
    eig = np.sort(np.linalg.eigvalsh(np.cov(x.T)))[::-1]
    np.testing.assert_allclose(ratios, eig / eig.sum(), rtol=1e-10)
    np.testing.assert_allclose(proj.var(axis=0, ddof=1), eig, rtol=1e-10)


def test_entropy_and_effective_dimension():
    assert explained_variance_entropy(np.array([1.0, 0, 0])) == 0.0
    assert np.isclose(explained_variance_entropy(np.full(4, 0.25)), np.log(4))
    circle = np.stack([np.cos(np.arange(12)), np.sin(np.arange(12))], 1)
    assert np.isclose(effective_dimension(circle @ np.eye(2, 5)), 2.0, atol=0.1)


def test_circle_measures():
    p = 11
    angles = 2 * np.pi * 3 * np.arange(p) / p
    pts = np.stack([np.cos(angles), np.sin(angles)], 1) * 2 + 5
    assert np.isclose(circularity(pts), 1.0)
    k, fit = circle_order(pts, p)
    assert k == 3 and np.isclose(fit, 1.0)
    rng = np.random.default_rng(1)
    assert circle_order(rng.normal(size=(p, 2)), p)[1] < 0.9


def test_grokking_delay():
    assert grokking_delay(100, 3000) == 30
    assert np.isnan(grokking_delay(100, -1)) and grokking_delay(0, 10) == float("inf")


def test_snapshot_at_takes_the_first_snapshot_at_or_after_the_step():
    snapshots = np.arange(3 * 2).reshape(3, 2)  # logged at steps 0, 10, 20
    steps = np.array([0, 10, 20])
    assert [snapshot_at(snapshots, steps, s)[0] for s in (-5, 0, 1, 10, 11, 20, 99)] == [0, 0, 2, 2, 4, 4, 4]
    with pytest.raises(ValueError, match="one step per snapshot"):
        snapshot_at(snapshots, steps[:2], 0)
    with pytest.raises(ValueError, match="one step per snapshot"):
        snapshot_at(snapshots[:0], steps[:0], 0)

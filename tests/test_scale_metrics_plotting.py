import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from repro.metrics import circle_order, circularity, effective_dimension, explained_variance_entropy, grokking_delay, pca
from repro.plotting import PHASE_COLORS, plot_phase_diagram, plot_training_curves
from repro.scale import by_scale, current_scale
from repro.validation import is_prime


def test_scale_switch(monkeypatch):
    monkeypatch.delenv("REPRO_SCALE", raising=False)
    assert current_scale() == "book" and by_scale(book=1, paper=2, smoke=3) == 1
    monkeypatch.setenv("REPRO_SCALE", "paper")
    assert by_scale(book=1, paper=2, smoke=3) == 2
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    assert by_scale(book=1, paper=2, smoke=3) == 3 and by_scale(book=1, paper=2) == 1
    monkeypatch.setenv("REPRO_SCALE", "huge")
    with pytest.raises(ValueError, match="REPRO_SCALE"):
        current_scale()


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


def test_is_prime():
    assert [n for n in range(20) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19]


def test_plots_have_labels():
    ax = plot_training_curves(np.arange(0, 100, 10), {"train": np.linspace(0, 1, 10), "validation": np.zeros((3, 10))},
                              markers={"fit": 20})
    assert ax.get_xscale() == "log" and ax.get_xlabel() and ax.get_ylabel()
    phases = np.array([["comprehension", "grokking"], ["memorization", "confusion"]])
    ax = plot_phase_diagram(phases, [1e-4, 1e-3], [0, 1], xlabel="decoder lr", ylabel="weight decay", logx=True)
    assert "decoder lr" in ax.get_xlabel() and len(ax.get_legend().get_texts()) == 4
    assert len(PHASE_COLORS) == 4
    with pytest.raises(ValueError, match="phases has shape"):
        plot_phase_diagram(phases, [1e-4], [0, 1], xlabel="x", ylabel="y")
    plt.close("all")

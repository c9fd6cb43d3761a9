import numpy as np
import pytest

from repro.metrics.agreement import cohen_kappa
from repro.metrics.phases import PHASES


def test_identical_maps_have_kappa_one_and_no_error():
    a = np.array([["comprehension", "grokking"], ["memorization", "confusion"]], dtype=object)
    k = cohen_kappa(a, a.copy(), categories=PHASES)
    assert k.kappa == pytest.approx(1.0) and k.observed == 1.0 and k.standard_error == pytest.approx(0.0, abs=1e-12)
    assert k.chance == pytest.approx(0.25) and k.n == 4


def test_hand_computed_two_by_two():
    # 10 cells: a = 6 x, 4 y; b = 6 x, 4 y; agreement on 5 x and 3 y -> p_o 0.8, p_e 0.6^2 + 0.4^2 = 0.52,
    # kappa = 0.28 / 0.48 = 7/12
    a = ["x"] * 6 + ["y"] * 4
    b = ["x"] * 5 + ["y"] + ["y"] * 3 + ["x"]
    k = cohen_kappa(a, b)
    assert k.observed == pytest.approx(0.8) and k.chance == pytest.approx(0.52) and k.kappa == pytest.approx(7 / 12)


def test_a_random_layout_with_the_same_phase_shares_has_kappa_near_zero():
    """The point of kappa: a shuffled map keeps every phase share (so share comparisons pass) but its kappa against
    the original is about 0, within its standard error, and 0 on average over shuffles."""
    rng = np.random.default_rng(0)
    original = rng.choice(np.array(PHASES, dtype=object), size=(11, 16), p=[0.4, 0.2, 0.3, 0.1])
    kappas = []
    for _ in range(300):
        shuffled = rng.permutation(original.ravel()).reshape(original.shape)
        assert all((shuffled == p).sum() == (original == p).sum() for p in PHASES)  # the same shares
        k = cohen_kappa(shuffled, original, categories=PHASES)
        kappas.append(k.kappa)
    kappas = np.array(kappas)
    assert abs(kappas.mean()) < 0.01
    assert np.mean(np.abs(kappas) < 3 * k.standard_error) > 0.95
    # while the agreement share itself is far from 0: chance alone gives p_e
    assert cohen_kappa(shuffled, original, categories=PHASES).chance > 0.25


def test_standard_error_matches_the_spread_of_kappa_over_draws():
    """The large-sample (Fleiss-Cohen-Everitt) error against the spread of kappa over cells drawn from a joint law."""
    joint = np.array([[.30, .05, .02, .00], [.04, .15, .03, .01], [.02, .05, .20, .01], [.00, .01, .01, .10]])
    joint = joint / joint.sum()
    rng = np.random.default_rng(1)
    labels = np.array(PHASES, dtype=object)
    kappas, errors = [], []
    for _ in range(1500):
        cells = rng.choice(16, size=176, p=joint.ravel())
        k = cohen_kappa(labels[cells // 4], labels[cells % 4], categories=PHASES)
        kappas.append(k.kappa)
        errors.append(k.standard_error)
    assert np.mean(errors) == pytest.approx(np.std(kappas), rel=0.1)


def test_mask_and_categories():
    a = np.array(["x", "y", "x", "z"], dtype=object)
    b = np.array(["x", "y", "y", "z"], dtype=object)
    full = cohen_kappa(a, b)
    masked = cohen_kappa(a, b, mask=np.array([True, True, False, True]))
    assert masked.n == 3 and masked.kappa == pytest.approx(1.0) and full.kappa < 1
    assert cohen_kappa(a, b, categories=["x", "y", "z", "w"]).kappa == pytest.approx(full.kappa)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="shapes"):
        cohen_kappa(["x", "y"], ["x"])
    with pytest.raises(ValueError, match="empty"):
        cohen_kappa([], [])
    with pytest.raises(ValueError, match="undefined"):
        cohen_kappa(["x", "x"], ["x", "x"])
    with pytest.raises(ValueError, match="not among the categories"):
        cohen_kappa(["x", "q"], ["x", "x"], categories=["x", "y"])
    with pytest.raises(ValueError, match="mask"):
        cohen_kappa(["x", "y"], ["x", "y"], mask=[1, 0])

"""Tests of repro.theory.baek2024 (GenEFT, Baek, Liu & Tegmark 2024): the information bound and the repon theory."""
import math

import numpy as np
import pytest

from repro.theory.baek2024 import (accuracy_upper_bound, conserved_quantity, critical_fraction, description_length,
                                   inferable_fraction, integrate_repons, monte_carlo_upper_bound, repon_fixed_point,
                                   repon_probability, repon_probability_monte_carlo)

# ------------------------------------------------------------------ Monte-Carlo upper bound


def test_monte_carlo_upper_bound_limits():
    acc, inf = monte_carlo_upper_bound("bipartite", [0.0, 1.0], data_seeds=[0])
    assert acc[1, 0] == 1.0 and inf[1, 0] == 1.0
    assert acc[0, 0] == pytest.approx(0.5 + 0.5 / 30)  # only the diagonal is known with no data


# ------------------------------------------------------------------ static theory


def test_description_lengths_table_2():
    assert description_length("mod3") == pytest.approx(30 * math.log2(3))
    assert description_length("mod5") == pytest.approx(30 * math.log2(5))
    assert description_length("greater_than") == pytest.approx(math.log2(math.factorial(30)))
    assert description_length("bipartite") == 30


def test_critical_fraction_solves_eq_2():
    for b in (30.0, 47.5, 107.7):
        pc = critical_fraction(b, 30, 0.9)
        assert inferable_fraction(900 * pc, b) == pytest.approx(0.9)
    # Eq. 3 with Table 2's b = 30 log2 3 (our calculation)
    assert critical_fraction(description_length("mod3"), 30, 0.9) == pytest.approx(0.1204, abs=1e-4)
    with pytest.raises(ValueError, match="alpha"):
        critical_fraction(30, 30, 1.0)


def test_accuracy_upper_bound_limits():
    assert accuracy_upper_bound(0, 47.5, 1 / 3) == pytest.approx(2 / 3)
    assert accuracy_upper_bound(1e6, 47.5, 1 / 3) == pytest.approx(1.0)
    assert accuracy_upper_bound(90, 30, 0.5) == pytest.approx(0.9763, abs=1e-4)  # Eq. 4 (our calculation)
    with pytest.raises(ValueError, match="p_star"):
        accuracy_upper_bound(1, 30, 1.5)


# ------------------------------------------------------------------ repon theory


@pytest.mark.parametrize("a2,c", [(1.0, 0.3), (1.0, 0.55), (-0.7, 0.2)])
def test_conserved_quantity_along_the_ode(a2, c):
    eta_x, eta_A = 1e-3, 2e-3
    t, a, cc = integrate_repons(a2, c, eta_x, eta_A, t_max=2e5)
    C = conserved_quantity(a, cc, eta_x, eta_A)
    assert np.abs(C - C[0]).max() < 1e-6 * max(1.0, abs(C[0]))
    a_inf, c_inf = repon_fixed_point(a2, c, eta_x, eta_A)
    assert a[-1] == pytest.approx(a_inf, abs=2e-3) and cc[-1] == pytest.approx(c_inf, abs=2e-3)


def test_repon_fixed_point_examples():  # our Euler integration of Eq. 9
    assert repon_fixed_point(1.0, 0.3, 1e-3, 2e-3) == pytest.approx((0.8, 0.0), abs=1e-3)
    assert repon_fixed_point(1.0, 0.55, 1e-3, 2e-3) == pytest.approx((0.0, 0.229), abs=1e-3)


def test_repon_probability_eq_11():
    assert repon_probability(2.0, 1.0) == pytest.approx(0.5)
    assert repon_probability(1e-3, 1e-3) == pytest.approx(0.392, abs=1e-3)
    assert repon_probability(2e-5, 1e-5) == pytest.approx(repon_probability(2.0, 1.0))  # ratio only
    mc = repon_probability_monte_carlo(1e-3, 1e-2, sigma_a=2.0, samples=200_000)
    assert mc == pytest.approx(repon_probability(1e-3, 1e-2, sigma_a=2.0), abs=0.005)
    with pytest.raises(ValueError, match="eta_x"):
        repon_probability(0.0, 1.0)

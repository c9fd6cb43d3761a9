"""Tests of repro.theory.rubin2024 (Rubin, Seroussi & Ringel 2024, droplets): kernels, actions and phase boundaries
against Monte Carlo, sympy and brute-force minimization."""
import math

import numpy as np
import pytest
import sympy as sp

from repro.theory.rubin2024 import (Modular, TeacherStudent, action_1d, action_2d, critical_point, erf_kernel, gfl_b,
                                    gfl_curvature, hermite_projections, mode_action, mode_saddles, modular_boundaries,
                                    modular_solve, nngp_b, relaxed_action, self_consistent)

# ---------------------------------------------------------------- integrals against Monte Carlo / sympy


def test_erf_kernel_matches_monte_carlo():
    rng = np.random.default_rng(0)
    d = 6
    x = rng.standard_normal((400_000, d))
    for _ in range(3):
        w1, w2 = rng.standard_normal(d) * 0.6, rng.standard_normal(d) * 0.6
        mc = np.mean(special_erf(x @ w1) * special_erf(x @ w2))
        assert erf_kernel(w1, w2) == pytest.approx(mc, abs=4e-3)
    # diagonal: E[erf^2]
    mc = np.mean(special_erf(x @ w1) ** 2)
    assert erf_kernel(w1, w1) == pytest.approx(mc, abs=4e-3)


def special_erf(z):
    from scipy.special import erf

    return erf(z)


def test_hermite_projections_match_monte_carlo():
    rng = np.random.default_rng(1)
    d = 5
    x = rng.standard_normal((600_000, d))
    z = x[:, 0]
    w = np.array([0.9, 0.3, -0.2, 0.1, 0.4])
    A1, A3 = hermite_projections(w[0], w @ w)
    phi = special_erf(x @ w)
    assert A1 == pytest.approx(np.mean(z * phi), abs=3e-3)
    assert A3 == pytest.approx(np.mean((z**3 - 3 * z) / math.sqrt(6) * phi), abs=3e-3)


@pytest.mark.slow
def test_hermite_norms_and_sherman_morrison_symbolic():
    z = sp.symbols("z", real=True)
    gauss = sp.exp(-z**2 / 2) / sp.sqrt(2 * sp.pi)
    H1, H3 = z, z**3 - 3 * z
    assert sp.integrate(H1**2 * gauss, (z, -sp.oo, sp.oo)) == 1
    assert sp.integrate(H3**2 * gauss, (z, -sp.oo, sp.oo)) == 6  # H3 of v1/v3 Eq. 1 (derived here)
    assert sp.integrate(H1 * H3 * gauss, (z, -sp.oo, sp.oo)) == 0
    # (1 + 2 w w^T)^{-1} = 1 - 2 w w^T / (1 + 2|w|^2) (App. A.4), checked on a symbolic 3-vector
    w = sp.Matrix(sp.symbols("w1:4", real=True))
    lhs = (sp.eye(3) + 2 * w * w.T) * (sp.eye(3) - 2 * w * w.T / (1 + 2 * (w.T * w)[0]))
    assert sp.simplify(lhs - sp.eye(3)) == sp.zeros(3)


# ---------------------------------------------------------------- teacher-student theory


def test_gfl_b_is_the_largest_stable_root_brute_force():
    u, g, sw2 = 30.0, 1.27, 0.5
    b = gfl_b(u, g, sw2)
    grid = np.linspace(1e-4, 1, 200_001)
    curv = gfl_curvature(grid, u, sw2)
    res = grid - 1 / (1 + 4 * g / (np.pi * (1 + 2 * sw2) * curv))
    ok = curv > 0
    roots = grid[:-1][ok[:-1] & ok[1:] & (np.sign(res[:-1]) != np.sign(res[1:]))]
    assert b == pytest.approx(roots.max(), abs=1e-4)
    assert gfl_curvature(b, u, sw2) > 0
    # the GP (NNGP) limit: with u -> 0 GFL reduces to the NNGP discrepancy
    assert gfl_b(1e-9, g, sw2) == pytest.approx(nngp_b(g, sw2), abs=1e-6)


def test_critical_point_against_grid_minimization():
    model = TeacherStudent()
    cp = critical_point(model)
    for s2, sign in ((cp.sigma2 * 1.01, 1), (cp.sigma2 * 0.99, -1)):
        u, g = float(model.u(s2)), float(model.g(s2))
        b = gfl_b(u, g, model.sigma_w2)
        q = np.linspace(0.01, 3, 30_001)
        assert sign * action_1d(q, b, model.eps, u, model.sigma_w2).min() > 0
    assert cp.sigma2 == pytest.approx(0.1787, abs=5e-4)  # derived here (v3 quotes sigma^2 ~ 0.18, u_c ~ 30.2)


def test_relaxed_action_matches_brute_force_over_r():
    u, b, c, sw2 = 25.0, 0.33, -0.3, 0.5
    q = np.array([0.0, 0.4, 0.8, 1.2])
    r = np.linspace(1e-3, 2.0, 400_001)
    brute = np.array([np.min(action_2d(qq, r, b, c, u, sw2) - 0.5 * np.log(r)) for qq in q])
    brute -= 0.5 - 0.5 * np.log(sw2)
    assert relaxed_action(q, b, c, u, sw2) == pytest.approx(brute, abs=1e-7)
    # relaxing r can only lower the frozen-r action (frozen r = sigma_w^2 is one candidate)
    assert np.all(relaxed_action(q, b, c, u, sw2) <= action_1d(q, b, c, u, sw2) + 1e-12)


def test_self_consistent_finite_d_tends_to_gfl_closed_form():
    model = TeacherStudent().at_dimension(20_000)
    s2 = 0.25
    sol = self_consistent(model, s2, nq=20_001, q_max=1.0)
    assert sol.b == pytest.approx(gfl_b(float(model.u(s2)), float(model.g(s2)), model.sigma_w2), abs=2e-3)
    assert abs(sol.learned_cubic) < 1e-3  # GFL: c = eps


def test_self_consistent_2d_reproduces_our_corrected_values():
    model = TeacherStudent().with_scale(1 / 8)  # d = 53
    sol = self_consistent(model, 0.15, two_d=True, nq=601, nr=160)
    assert sol.learned_linear == pytest.approx(0.798, abs=2e-3)  # our correction, derived here (d = 53, sigma^2 = 0.15)
    assert sol.learned_cubic == pytest.approx(-0.0374, abs=1e-3)


def test_teacher_student_config_errors_name_the_parameter():
    with pytest.raises(ValueError, match="sigma_w2"):
        TeacherStudent(sigma_w2=-1.0)
    with pytest.raises(ValueError, match="sigma2"):
        self_consistent(TeacherStudent(), -0.1)


# ---------------------------------------------------------------- modular theory


def test_mode_saddles_against_grid_minimization():
    gamma = 1e-4
    for U in (0.0105, 0.011547, 0.02):
        xp, xm = mode_saddles(U, gamma)
        x = np.linspace(1, 2 * xp, 400_001)
        s = mode_action(x, U, gamma)
        interior = (x > xm)
        assert x[interior][np.argmin(s[interior])] == pytest.approx(xp, rel=1e-4)
        assert x[x < xp][np.argmax(s[x < xp])] == pytest.approx(xm, rel=1e-4)
    assert np.isnan(mode_saddles(0.5 * math.sqrt(gamma), gamma)[0])  # no droplet below U = sqrt(gamma)


def test_modular_boundaries_closed_form_vs_numerical_solution():
    model = Modular()
    bd = modular_boundaries(model)
    assert mode_action(bd.x_star, bd.U_star, model.gamma) == pytest.approx(0, abs=1e-9)
    assert bd.sigma2_c1 == pytest.approx(0.2360, abs=1e-4)  # derived here (v3 quotes ~ 0.227)
    assert bd.sigma2_c2 == pytest.approx(0.1760, abs=1e-4)
    above = modular_solve(model, 0.30)
    assert above.a == pytest.approx(-1, abs=1e-6)
    mid = modular_solve(model, 0.21)
    assert abs(mid.a) == pytest.approx(bd.pinned_slope * 0.21, abs=2e-3)  # pinned inside GMFL-I
    end = modular_solve(model, bd.sigma2_c2)
    assert end.a == pytest.approx(bd.a_c2, abs=2e-3)
    with pytest.raises(ValueError, match="gamma"):
        Modular(gamma=0.0)


def test_modular_exact_eigenvalue_keeps_the_onset_and_removes_gmfl2():
    """The exact kernel eigenvalue is 4 P^2 times the paper's: the GP eigenvalue on a Fourier mode, by
    brute force over all P^2 inputs, is 4 sigma_a^2 = 4 P^2 * sigma_a^2 <Phi Psi>_prior (<Phi Psi> = P^-2)."""
    P, sa2 = 7, 0.3
    n, m = np.meshgrid(np.arange(P), np.arange(P), indexing="ij")
    n, m = n.ravel(), m.ravel()
    c = (n[:, None] == n[None, :]).astype(float) + (m[:, None] == m[None, :])  # cov(w.x, w.x') under w ~ N(0, I)
    Q = sa2 * (4 + 2 * c**2)  # sigma_a^2 E[(w.x)^2 (w.x')^2]
    k = 2
    phi = np.exp(2j * np.pi * k * (n + m) / P) / P
    assert np.allclose(Q @ phi, 4 * sa2 * phi)
    assert Modular(P=P, sigma_a2=sa2, exact_eigenvalue=True).eigenvalue_scale * sa2 * P**-2 == pytest.approx(4 * sa2)
    paper, exact = Modular(), Modular(exact_eigenvalue=True)
    bp, be = modular_boundaries(paper), modular_boundaries(exact)
    assert be.sigma2_c1 == bp.sigma2_c1 and be.sigma2_c2 < 0 < bp.sigma2_c2  # same onset; GMFL-II never reached
    sol = modular_solve(exact, 0.15)
    assert abs(sol.a) == pytest.approx(bp.pinned_slope * 0.15, abs=2e-3)  # still pinned in the mixed phase
    assert sol.droplet_probability < 1e-2 and modular_solve(paper, 0.15).droplet_probability > 0.999
    with pytest.raises(ValueError, match="exact_eigenvalue"):
        Modular(exact_eigenvalue=1)

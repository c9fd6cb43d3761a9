"""Tests of repro.theory.rubin2024 (Rubin, Seroussi & Ringel 2024, droplets): kernels, actions and phase boundaries
against Monte Carlo, sympy and brute-force minimization."""
import math

import numpy as np
import pytest
import sympy as sp

from repro.theory.rubin2024 import (Modular, TeacherStudent, action_1d, action_2d, complex_mode_action, critical_point,
                                    erf_kernel, fourier_action, fourier_weights, gfl_b, gfl_curvature,
                                    gmfl1_weight_nats, hermite_projections, mode_action, mode_count_readings,
                                    mode_saddles, modular_boundaries, modular_onset, modular_solve, nngp_b,
                                    relaxed_action, self_consistent)

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


# ---------------------------------------------------------------- the mode count (issue 62)


def test_fourier_action_identities_and_the_conjugate_pair():
    """v3 Eq. 16 from the real-space action: |w|^2 = P sum_k |w_k|^2 and the target's quartic term
    sum_p (sum_n 2 w_n v_{p-n}, mean over p removed)^2 = 4 P^3 sum_{k=1}^{P-1} |w_k|^2 |v_k|^2; and for real weights
    the sum over k = 1 .. P-1 is twice the sum over the (P-1)/2 complex modes: each pair (k, P-k) carries 2 S_k."""
    rng = np.random.default_rng(3)
    P, U, gamma = 11, 0.37, 0.05
    w, v = rng.standard_normal(P), rng.standard_normal(P)
    wk, vk = fourier_weights(w), fourier_weights(v)
    assert np.allclose(wk[1:], np.conj(wk[1:][::-1]))  # w_{P-k} = conj(w_k)
    assert np.sum(w**2) == pytest.approx(P * np.sum(np.abs(wk) ** 2))
    conv = np.array([2 * np.sum(w * v[(p - np.arange(P)) % P]) for p in range(P)])
    assert np.sum((conv - conv.mean()) ** 2) == pytest.approx(4 * P**3 * np.sum(np.abs(wk[1:] * vk[1:]) ** 2))
    Phi, Psi = np.abs(wk) ** 2, np.abs(vk) ** 2
    half = np.arange(1, (P + 1) // 2)  # one index per complex mode
    zero = P * (0.5 * (Phi[0] + Psi[0]) + gamma / 6 * (Phi[0] ** 3 + Psi[0] ** 3))
    assert fourier_action(w, v, U, gamma) == pytest.approx(zero + np.sum(complex_mode_action(Phi[half], Psi[half], U,
                                                                                               gamma, P)))


def test_only_the_doubled_exponent_gives_the_prior():
    """Under the prior (w_n ~ N(0, 1), v3 §2.3) <|w_k|^2> = 1/P exactly (the DFT). A complex variable with density
    exp(-c |z|^2) has <|z|^2> = 1/c: the free part of 2 S_k (c = P) gives 1/P, that of S_k alone (c = P/2) 2/P."""
    P = 13
    F = np.exp(2j * np.pi * np.outer(np.arange(P), np.arange(P)) / P) / P  # w_k = F @ w
    prior = np.sum(np.abs(F) ** 2, axis=1)  # <|w_k|^2> for w ~ N(0, I)
    assert np.allclose(prior, 1 / P)
    c_pair = complex_mode_action(1.0, 0.0, 0.0, 0.0, P) - complex_mode_action(0.0, 0.0, 0.0, 0.0, P)
    assert 1 / c_pair == pytest.approx(1 / P) and 1 / (c_pair / 2) == pytest.approx(2 / P)
    rng = np.random.default_rng(0)  # and by sampling: the mean |w_k|^2 of real Gaussian weights
    assert np.mean(np.abs(fourier_weights(rng.standard_normal((20_000, P)))[:, 1:]) ** 2) == pytest.approx(1 / P, rel=0.02)


def test_mode_count_leaves_the_self_consistent_exponent_and_halves_s_k():
    """Counting each complex mode once doubles the exponent at fixed a, but a is solved self-consistently: the
    GPR equation fixes the droplet probability, so the exponent E stays (the closed form), and S_k = E/2."""
    model = Modular()
    r = mode_count_readings(model, 0.227)
    assert r.as_printed.weight_nats == r.as_printed.saddle_nats
    assert r.once.weight_nats == pytest.approx(2 * r.once.saddle_nats)
    assert r.once.weight_nats == pytest.approx(r.as_printed.weight_nats, abs=1e-2)
    assert r.once.weight_nats == pytest.approx(r.closed_form_nats, abs=1e-2)
    assert r.once.a == pytest.approx(r.as_printed.a, abs=1e-4)
    assert r.doubled_at_printed_a == pytest.approx(2 * r.as_printed.saddle_nats)
    assert abs(r.a_implied_by_doubled - r.as_printed.a) > 0.03  # the doubled height at the printed a is no solution
    once = Modular(conjugates_once=True)
    assert modular_onset(once, 5.0) == pytest.approx(modular_onset(model, 5.0), abs=1e-4)
    assert np.isnan(gmfl1_weight_nats(model, 0.30)) and np.isnan(gmfl1_weight_nats(model, 0.15))
    with pytest.raises(ValueError, match="conjugates_once"):
        Modular(conjugates_once=1)
    with pytest.raises(ValueError, match="P=10"):
        Modular(P=10, conjugates_once=True)

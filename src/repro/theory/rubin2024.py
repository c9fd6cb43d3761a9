"""Adaptive-kernel mean-field theory of Rubin, Seroussi & Ringel (2024), "Droplets of good
representations: grokking as a first order phase transition in two layer networks" (arXiv 2310.03789).

Used by the chapter ``book/rubin2024_droplets.ipynb``. Equation numbers are given twice: the text's
(v1, as in ``shared/papers``) and v3's (the ICLR version). Statements that are not in the paper are
marked "derived here", or "our correction (tested in tests/test_theory_rubin2024.py)".

Two models.

* **Teacher–student** (v1/v3 Eqs. 1–2): target y = H1(w*.x) + eps H3(w*.x), student
  f(x) = sum_i a_i erf(w_i.x). Everything reduces to the overlap q = w.w* of one neuron with the
  teacher and its orthogonal norm r = |w_perp|^2. The paper freezes r at its prior mean sigma_w^2
  (v1 Eq. 14 / v3 Eq. 13: :func:`action_1d`); our correction (tested in tests/test_theory_rubin2024.py):
  r must be marginalized (:func:`action_2d`), which moves the transition from sigma^2 ~ 0.179 to
  ~ 0.217. Both are here.
* **Modular addition** (v1 Eqs. 3–5, 15–19 / v3 Eqs. 3–5, 15–16, App. B): square activation, two-hot
  inputs. Every Fourier mode carries the same action (v1 Eq. 19) with closed-form saddles
  (the roots of v3 App. B.4 Eq. 39 = v1 Eqs. 43-44, printed unnumbered after it; typos fixed), so the phase
  boundaries are closed forms (derived here).

Conventions (v1 Eqs. 1-2, 6, 12 / v3 Eqs. 1-2, 7, 12 and App. C): probabilists' Hermite polynomials
H1 = z, H3 = z^3 - 3z, orthonormal basis (H1, H3/sqrt 6); sigma_a^2 is the *total* readout variance;
the loss is a sum over the n samples; "learned linear" = 1 - b and "learned cubic" = eps - c.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from scipy import optimize, special

from repro.core.validation import check_int, check_real

SQRT6 = math.sqrt(6.0)

# ================================================================================================
# Teacher–student model
# ================================================================================================


@dataclass(frozen=True)
class TeacherStudent:
    """Parameters of the teacher–student model. Defaults: v3 App. C base scale."""

    d: int = 150  # input dimension (v3 App. C)
    N: int = 700  # hidden width (v3 App. C)
    n: int = 3000  # training set size (v3 App. C)
    sigma_w2: float = 0.5  # input-weight prior variance x d (v3 App. C)
    sigma_a2: float = 8 / 700  # total readout prior variance, sigma~_a^2 / chi with chi = N (v3 App. C)
    eps: float = -0.3  # cubic teacher coefficient (v3 App. C); its sign matters (derived here)

    def __post_init__(self):
        for name in ("d", "N", "n"):
            check_int(name, getattr(self, name), minimum=1)
        check_real("sigma_w2", self.sigma_w2, positive=True)
        check_real("sigma_a2", self.sigma_a2, positive=True)
        check_real("eps", self.eps)

    def u(self, sigma2):
        """Effective interaction u = n^2 sigma_a^2 / (sigma^4 d N) (named in v3 §3.1 after Eq. 11; in v3 App. A.2
        Eq. 6 as 2u/pi)."""
        return self.n**2 * self.sigma_a2 / (np.asarray(sigma2) ** 2 * self.d * self.N)

    def g(self, sigma2):
        """Kernel signal-to-noise g = (n / sigma^2) sigma_a^2 / d (derived here), so that
        (n / sigma^2) Q~ = g d M in the 2x2 self-consistency (v3 App. A.3)."""
        return self.n * self.sigma_a2 / (np.asarray(sigma2) * self.d)

    def at_dimension(self, d: int) -> "TeacherStudent":
        """The same theory (same u and g at every sigma^2) at input dimension d: sigma_a^2 scales with d
        (v1 Eq. 13 / v3 App. A.2 Eq. 6: the action is d times a function of q, r and u; the
        self-consistency depends on g only, derived here). d -> infinity is the sharp limit."""
        check_int("d", d, minimum=1)
        return TeacherStudent(d=d, N=self.N, n=self.n, sigma_w2=self.sigma_w2, sigma_a2=self.sigma_a2 * d / self.d,
                              eps=self.eps)

    def with_scale(self, beta: float) -> "TeacherStudent":
        """The (alpha = beta) scaling family of v3 Table 1: N, n -> beta N, beta n; d -> sqrt(beta) d;
        sigma_a^2 -> sigma_a^2 / sqrt(beta). u and g are invariant, so only finite-d effects change."""
        check_real("beta", beta, positive=True)
        return TeacherStudent(d=round(self.d * math.sqrt(beta)), N=round(self.N * beta), n=round(self.n * beta),
                              sigma_w2=self.sigma_w2, sigma_a2=self.sigma_a2 / math.sqrt(beta), eps=self.eps)


def erf_kernel(w1, w2):
    """E_x[erf(w1.x) erf(w2.x)] for x ~ N(0, I) (the arcsine kernel of Williams 1996, cited in v1 §1):
    (2/pi) arcsin(2 w1.w2 / sqrt((1 + 2|w1|^2)(1 + 2|w2|^2))). Last axis is the input dimension."""
    w1, w2 = np.asarray(w1, float), np.asarray(w2, float)
    dot = np.sum(w1 * w2, axis=-1)
    s1 = 1 + 2 * np.sum(w1 * w1, axis=-1)
    s2 = 1 + 2 * np.sum(w2 * w2, axis=-1)
    return (2 / np.pi) * np.arcsin(2 * dot / np.sqrt(s1 * s2))


def hermite_projections(q, norm2):
    """A(w) = (<H1 erf(w.x)>, <H3/sqrt6 erf(w.x)>) for |w*| = 1 (v1 App. A.4 Eqs. 17-23 / v3 App. A.4 Eqs. 13-19):
    A1 = 2q / sqrt(pi D), A3 = -4 q^3 / (sqrt(6 pi) D^{3/2}), D = 1 + 2|w|^2, q = w.w*."""
    q = np.asarray(q, float)
    D = 1 + 2 * np.asarray(norm2, float)
    return 2 * q / np.sqrt(np.pi * D), -4 * q**3 / (np.sqrt(6 * np.pi) * D**1.5)


def _interaction(q, D, b, c, u):
    """(2u/pi) q^2/D (b - 2c q^2/D)^2 = (u/2)(b A1 + sqrt6 c A3)^2: the data term of v1 Eq. 13 per d."""
    return (2 * u / np.pi) * q**2 / D * (b - 2 * c * q**2 / D) ** 2


def action_1d(q, b, c, u, sigma_w2):
    """The paper's mean-field decoupled action per input dimension, s(q) = S[q]/d (v1 Eq. 14 / v3
    Eq. 13 and App. A.2 Eq. 8): q^2/(2 sigma_w^2) - (2u/pi) q^2/D_q (b - 2c q^2/D_q)^2, with the
    orthogonal norm frozen at its prior mean, D_q = 1 + 2(sigma_w^2 + q^2)."""
    q = np.asarray(q, float)
    D = 1 + 2 * (sigma_w2 + q**2)
    return q**2 / (2 * sigma_w2) - _interaction(q, D, b, c, u)


def action_2d(q, r, b, c, u, sigma_w2):
    """The continuum action per d as a function of q and r = |w_perp|^2 (v1 Eq. 13 / v3 App. A.2 Eq. 6),
    *without* the entropy of w_perp: (q^2 + r)/(2 sigma_w^2) - (2u/pi) q^2/D (b - 2cq^2/D)^2,
    D = 1 + 2(q^2 + r). The density of (q, r) is r^{(d-3)/2} exp(-d action_2d) (derived here)."""
    q, r = np.asarray(q, float), np.asarray(r, float)
    D = 1 + 2 * (q**2 + r)
    return (q**2 + r) / (2 * sigma_w2) - _interaction(q, D, b, c, u)


def relaxed_action(q, b, c, u, sigma_w2, r_grid=None):
    """d -> infinity action of q with r at its saddle, min_r [action_2d - (1/2) ln r], relative to the
    origin (q = 0, r = sigma_w^2). This is our correction (tested in tests/test_theory_rubin2024.py) of the
    frozen-r action."""
    if r_grid is None:
        r_grid = np.linspace(0.02, 1.5, 2961)
    q = np.atleast_1d(np.asarray(q, float))
    vals = action_2d(q[:, None], r_grid[None, :], b, c, u, sigma_w2) - 0.5 * np.log(r_grid)[None, :]
    i = np.clip(np.argmin(vals, axis=1), 1, len(r_grid) - 2)
    rows = np.arange(len(q))
    # three-point parabolic refinement of the grid minimum (the function is smooth in r)
    f0, f1, f2 = vals[rows, i - 1], vals[rows, i], vals[rows, i + 1]
    curv = f0 - 2 * f1 + f2
    out = f1 - (f2 - f0) ** 2 / (8 * np.where(curv > 0, curv, np.inf))
    origin = 0.5 - 0.5 * np.log(sigma_w2)  # r* = sigma_w^2 at q = 0
    return out - origin


def gfl_curvature(b, u, sigma_w2):
    """s''(0) = 1/sigma_w^2 - (4u/pi) b^2/(1 + 2 sigma_w^2): curvature of v1 Eq. 14 at q = 0 (derived here)."""
    return 1 / sigma_w2 - (4 * u / np.pi) * b**2 / (1 + 2 * sigma_w2)


def nngp_b(g, sigma_w2):
    """Linear discrepancy of the GP (NNGP) limit, b = [1 + g (4/pi) sigma_w^2/(1 + 2 sigma_w^2)]^-1
    (v1 Eq. 11 with the H1 eigenvalue; derived here)."""
    return 1 / (1 + g * (4 / np.pi) * sigma_w2 / (1 + 2 * sigma_w2))


def gfl_b(u, g, sigma_w2):
    """Linear discrepancy in the GFL phase (d -> infinity), the largest root with s''(0) > 0 of
    b = [1 + 4g / (pi (1 + 2 sigma_w^2) s''(0))]^-1 (derived here from v3 App. A.3 with our 4/pi
    correction, tested in tests/test_theory_rubin2024.py)."""
    b_max = math.sqrt((1 / sigma_w2) * np.pi * (1 + 2 * sigma_w2) / (4 * u))  # s''(0) = 0 here
    b_max = min(b_max, 1.0)

    def residual(b):
        return b - 1 / (1 + 4 * g / (np.pi * (1 + 2 * sigma_w2) * gfl_curvature(b, u, sigma_w2)))

    grid = np.linspace(1e-9, b_max * (1 - 1e-9), 4001)
    res = residual(grid)
    sign_change = np.nonzero(np.sign(res[:-1]) != np.sign(res[1:]))[0]
    if len(sign_change) == 0:
        raise ValueError(f"no GFL root for u={u!r}, g={g!r}: the scan over b in (0, {b_max:.4g}) found none.")
    k = sign_change[-1]  # largest stable root
    return optimize.brentq(residual, grid[k], grid[k + 1], xtol=1e-14)


def _min_droplet_action(model: TeacherStudent, sigma2: float, relaxed: bool) -> tuple[float, float]:
    """min over q > 0 of the GFL-solution action relative to q = 0, and the q where it is reached."""
    u, g = float(model.u(sigma2)), float(model.g(sigma2))
    b = gfl_b(u, g, model.sigma_w2)
    q = np.linspace(0.05, 3.0, 591)
    if relaxed:
        s = relaxed_action(q, b, model.eps, u, model.sigma_w2)
    else:
        s = action_1d(q, b, model.eps, u, model.sigma_w2)
    k = int(np.argmin(s))
    f = (lambda x: float(relaxed_action(x, b, model.eps, u, model.sigma_w2)[0])) if relaxed else (
        lambda x: float(action_1d(x, b, model.eps, u, model.sigma_w2)))
    res = optimize.minimize_scalar(f, bounds=(q[max(k - 1, 0)], q[min(k + 1, len(q) - 1)]), method="bounded",
                                   options={"xatol": 1e-10})
    return min(res.fun, s[k]), float(res.x)


@dataclass(frozen=True)
class CriticalPoint:
    sigma2: float  # critical noise sigma_c^2
    u: float  # effective interaction u_c
    b: float  # GFL linear discrepancy at the transition
    q_star: float  # position of the droplet saddle


def critical_point(model: TeacherStudent, relaxed: bool = False, bracket=(0.03, 0.6)) -> CriticalPoint:
    """d -> infinity GFL -> GMFL-I transition along the sigma^2 path at fixed (n, d, N, sigma_a^2):
    the largest sigma^2 at which min_{q>0} s(q; b_GFL, c = eps) = s(0) (v1 §3.1.2 / v3 §3.1, Claims III-IV;
    the d -> infinity definition is derived here). ``relaxed=False``: the paper's frozen-r action
    (v1 Eq. 14), ``True``: our corrected one (tested in tests/test_theory_rubin2024.py).
    """
    def h(s2):
        return _min_droplet_action(model, s2, relaxed)[0]

    lo, hi = bracket
    grid = np.geomspace(lo, hi, 40)[::-1]
    vals = [h(s) for s in grid]
    for k in range(len(grid) - 1):
        if vals[k] > 0 >= vals[k + 1]:
            s2 = optimize.brentq(h, grid[k + 1], grid[k], xtol=1e-12)
            _, qs = _min_droplet_action(model, s2, relaxed)
            return CriticalPoint(s2, float(model.u(s2)), gfl_b(float(model.u(s2)), float(model.g(s2)), model.sigma_w2), qs)
    raise ValueError(f"no transition for sigma^2 in {bracket!r}")


# ---- finite-d self-consistency (v1 Eqs. 8-9, 12 / v3 Eqs. 9-10, 12 and App. A.3, with the fixes) ----


@dataclass(frozen=True)
class SelfConsistent:
    sigma2: float
    b: float  # linear discrepancy (learned linear = 1 - b)
    c: float  # cubic discrepancy (learned cubic = eps - c)
    eps: float
    droplet_fraction: float  # P(|q| > 0.5) under the self-consistent single-neuron law
    q: np.ndarray  # grid of q values (1-D theory) or of q bin centres
    log_p: np.ndarray  # log density of q on the grid (normalized), marginalized over r in 2-D

    @property
    def learned_linear(self):
        return 1 - self.b

    @property
    def learned_cubic(self):
        return self.eps - self.c


class _Grid:
    """Quadrature grid for the single-neuron law: q only (paper, r frozen) or (q, r) (corrected)."""

    def __init__(self, d: int, sigma_w2: float, two_d: bool, nq: int, nr: int, q_max: float):
        self.d, self.sigma_w2, self.two_d = d, sigma_w2, two_d
        self.q = np.linspace(0, q_max, nq)  # q >= 0: the law is even in q and A A^T is even
        self.wq = np.full(nq, self.q[1] - self.q[0])
        self.wq[0] *= 0.5
        if two_d:
            # r concentrates at sigma_w^2 (1 - 3/d) with width ~ sigma_w^2 sqrt(2/d); droplets shrink it
            self.r = np.linspace(0.01, 3.2 * sigma_w2, nr)
            self.logw_r = 0.5 * (d - 3) * np.log(self.r)
            Q, R = np.meshgrid(self.q, self.r, indexing="ij")
            self.norm2 = Q**2 + R
        else:
            self.norm2 = sigma_w2 + self.q**2
        A1, A3 = hermite_projections(self.q[:, None] if two_d else self.q, self.norm2)
        self.AA = np.stack([A1 * A1, A1 * A3, A3 * A3])

    def log_weights(self, b, c, u):
        if self.two_d:
            s = action_2d(self.q[:, None], self.r[None, :], b, c, u, self.sigma_w2)
            return self.logw_r[None, :] - self.d * s + np.log(self.wq)[:, None]
        return -self.d * action_1d(self.q, b, c, u, self.sigma_w2) + np.log(self.wq)

    def moments(self, b, c, u):
        lw = self.log_weights(b, c, u)
        p = np.exp(lw - special.logsumexp(lw))
        m = [float(np.sum(p * aa)) for aa in self.AA]
        return np.array([[m[0], m[1]], [m[1], m[2]]]), p


def self_consistent(model: TeacherStudent, sigma2: float, two_d: bool = False, start=None,
                    nq: int = 3001, nr: int = 400, q_max: float = 3.0) -> SelfConsistent:
    """Solve [b, sqrt6 c] = (I + (n/sigma^2) Q~)^-1 [1, sqrt6 eps], Q~ = sigma_a^2 <A A^T> under
    p(q) ~ exp(-d s(q)) (v3 App. A.3 with our two corrections, tested in tests/test_theory_rubin2024.py: 4/pi
    in Q~_11 and the missing sigma^2/n) by exact quadrature at finite d. ``two_d=False``: the paper's
    frozen-r law (v1 Eq. 14); ``True``: our corrected (q, r) law (derived here). ``start``: (b, c) to
    warm-start from (continuation)."""
    check_real("sigma2", sigma2, positive=True)
    u, g = float(model.u(sigma2)), float(model.g(sigma2))
    grid = _Grid(model.d, model.sigma_w2, two_d, nq, nr, q_max)
    y = np.array([1.0, SQRT6 * model.eps])

    def target(t):
        M, _ = grid.moments(t[0], t[1] / SQRT6, u)
        return np.linalg.solve(np.eye(2) + g * model.d * M, y)

    t = np.array([nngp_b(g, model.sigma_w2), SQRT6 * model.eps]) if start is None else np.array([start[0], SQRT6 * start[1]])
    sol = optimize.root(lambda t: t - target(t), t, method="hybr", options={"xtol": 1e-12})
    t = sol.x
    if not sol.success or np.max(np.abs(t - target(t))) > 1e-8:
        # damped fixed-point iteration, our fallback (derived here); the map is contracting along the path
        for _ in range(5000):
            t = 0.9 * t + 0.1 * target(t)
        if np.max(np.abs(t - target(t))) > 1e-8:
            raise RuntimeError(f"self-consistency did not converge at sigma2={sigma2!r} (two_d={two_d})")
    b, c = float(t[0]), float(t[1] / SQRT6)
    _, p = grid.moments(b, c, u)
    p_q = p.sum(axis=1) if two_d else p
    return SelfConsistent(sigma2, b, c, model.eps, float(p_q[grid.q > 0.5].sum()), grid.q,
                          np.log(np.maximum(p_q / grid.wq, 1e-300)))


def sweep_self_consistent(model: TeacherStudent, sigma2s, two_d: bool = False, **kw) -> list[SelfConsistent]:
    """:func:`self_consistent` along a path of sigma^2 values, warm-starting each from the previous
    (continuation from large to small sigma^2, as chosen here). Returned in the order given."""
    order = np.argsort(-np.asarray(sigma2s, float))
    out, start = {}, None
    for k in order:
        sol = self_consistent(model, float(sigma2s[k]), two_d=two_d, start=start, **kw)
        start = (sol.b, sol.c)
        out[k] = sol
    return [out[k] for k in range(len(sigma2s))]


def binned_neg_log_p(sol: SelfConsistent, edges) -> np.ndarray:
    """-log P(|q| in bin), relative to the first bin: the theory line of v1 Fig. 1 integrated over the
    same bins as a histogram (v3 Fig. 2(a,b); the binning is ours)."""
    dens = np.exp(sol.log_p)
    w = np.full(len(sol.q), sol.q[1] - sol.q[0])
    w[0] *= 0.5
    mass = np.array([np.sum((dens * w)[(sol.q >= lo) & (sol.q < hi)]) for lo, hi in zip(edges[:-1], edges[1:])])
    with np.errstate(divide="ignore"):
        out = -np.log(mass)
    return out - out[0]


# ================================================================================================
# Modular addition model (square activation)
# ================================================================================================


@dataclass(frozen=True)
class Modular:
    """Parameters of the modular-addition theory. Defaults: v3 Fig. 3."""

    P: int = 401  # modulus (v3 Fig. 3)
    N: int = 1000  # width (v3 Fig. 3)
    sigma_a2: float = 0.002 / 1000  # total readout variance, 0.002/N (v3 Fig. 3)
    gamma: float = 1e-4  # sextic weight-decay coefficient of Gamma (v3 Fig. 3; "eps" in B.4 is a typo)
    # The droplet eigenvalue: False is the paper's lambda = sigma_a^2 <Phi Psi> (v3 App. B.3), which its
    # numbers need; True is the exact eigenvalue of the P^2 x P^2 kernel matrix on the target,
    # 4 P^2 sigma_a^2 <Phi Psi> (under the prior <Phi Psi> = P^-2, and the GP kernel's eigenvalue on a
    # Fourier mode phi_{k,k}, k != 0, is 4 sigma_a^2: E[(w.x)^2 (w.x')^2] = 4 + 2 (d_nn' + d_mm')^2).
    exact_eigenvalue: bool = False
    # The mode count: False is the paper's, each index k = 1 .. P-1 of the sum in v3 Eq. 16 (v1 Eq. 19) carrying
    # S_k and the weight 4e^{-S_k} (v3 Eq. 41 / v1 Eq. 45); True counts each complex mode once: the weights are
    # real, so w_{P-k} = conj(w_k) (v1 App. B.2 before Eq. 37), the pair (k, P-k) is one complex variable, and its
    # action is 2 S_k, weight 4e^{-2S_k} (derived here; tested in tests/test_theory_rubin2024.py, which checks
    # that only 2 S_k gives the prior's <|w_k|^2> = 1/P).
    conjugates_once: bool = False

    def __post_init__(self):
        check_int("P", self.P, minimum=2)
        check_int("N", self.N, minimum=1)
        check_real("sigma_a2", self.sigma_a2, positive=True)
        check_real("gamma", self.gamma, positive=True)
        for name in ("exact_eigenvalue", "conjugates_once"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: it must be True or False.")
        if self.conjugates_once and self.P % 2 == 0:
            raise ValueError(f"P={self.P!r} is not allowed with conjugates_once: an even P has the self-conjugate "
                             "mode k = P/2, which is real; the paper's P is an odd prime.")

    @property
    def exponent_factor(self) -> int:
        """How many times S_k = P s(x) enters the droplet weight's exponent: 1 as the paper counts, 2 when
        each complex mode (k, P-k) is counted once."""
        return 2 if self.conjugates_once else 1

    @property
    def eigenvalue_scale(self) -> float:
        """lambda / (sigma_a^2 <Phi Psi>): 1 in the paper's normalization, 4 P^2 for the exact eigenvalue."""
        return 4.0 * self.P**2 if self.exact_eigenvalue else 1.0

    def u(self, sigma2):
        """u = 2 sigma_a^2 P^2 / (N sigma^4) (v1 Eq. 19 / v3 Eq. 16)."""
        return 2 * self.sigma_a2 * self.P**2 / (self.N * np.asarray(sigma2, float) ** 2)


def mode_action(x, U, gamma):
    """Per-mode action per P along Phi = Psi = x (= |w_k|^2 = |v_k|^2):
    s(x) = x - U x^2 + (gamma/3) x^3, U = u a^2 (v1 Eq. 19 / v3 Eq. 16 with the Gamma chosen after it, v3 §3.2
    Claim II)."""
    x = np.asarray(x, float)
    return x - U * x**2 + (gamma / 3) * x**3


def mode_saddles(U, gamma):
    """x_{+-} = (U +- sqrt(U^2 - gamma)) / gamma (the roots of v3 App. B.4 Eq. 39 = v1 Eqs. 43-44, with our typo
    corrections, tested in tests/test_theory_rubin2024.py): x_+ the droplet minimum, x_- the barrier. NaN
    where U < sqrt(gamma) (no droplet minimum)."""
    U = np.asarray(U, float)
    disc = U**2 - gamma
    root = np.sqrt(np.where(disc >= 0, disc, np.nan))
    return (U + root) / gamma, (U - root) / gamma


def droplet_probability(PS):
    """Weight of the droplet saddle in the mixture (v3 App. B.4 Eqs. 41-42 = v1 Eqs. 45-46): 4e^{-S}/(1 + 4e^{-S}),
    S = P s(x_+) in nats; computed as an expit so the e^{-S} of huge S never underflows (derived here)."""
    return special.expit(np.log(4.0) - np.asarray(PS, float))


def _modular_eigenvalue(model: Modular, sigma2: float, a: float) -> tuple[float, float, float]:
    """lambda = sigma_a^2 <Phi Psi> (the paper's normalization; times 4 P^2 with ``exact_eigenvalue``),
    x_+ and P s(x_+)."""
    U = float(model.u(sigma2)) * a * a
    xp, _ = mode_saddles(U, model.gamma)
    if not np.isfinite(xp):
        return 0.0, float("nan"), float("inf")
    PS = model.P * float(mode_action(xp, U, model.gamma))
    weight = model.exponent_factor * PS
    return model.eigenvalue_scale * model.sigma_a2 * xp**2 * float(droplet_probability(weight)), float(xp), PS


@dataclass(frozen=True)
class ModularSolution:
    sigma2: float
    a: float  # discrepancy coefficient, sigma^2 t = a y; |a| is the test-RMSE proxy
    x_plus: float  # droplet saddle |w_k|^2 (NaN if none)
    saddle_nats: float  # P s(x_+) = S_k(x_+): droplet-saddle action of one index k relative to the origin, in nats
    droplet_probability: float
    weight_nats: float = float("nan")  # the exponent of the droplet weight: exponent_factor x saddle_nats


def modular_solve(model: Modular, sigma2: float) -> ModularSolution:
    """Self-consistent a = -sigma^2 / (lambda(a) + sigma^2) (v3 App. B.3 Eq. 38). The residual
    F(a) = a + sigma^2 / (lambda(a) + sigma^2) is monotone on [-1, 0), so brentq is safe (derived here)."""
    check_real("sigma2", sigma2, positive=True)

    def F(a):
        return a + sigma2 / (_modular_eigenvalue(model, sigma2, a)[0] + sigma2)

    if F(-1.0) >= 0:  # lambda(-1) ~ 0: the GFL solution a = -1 (up to O(P^-2))
        a = -1.0 + F(-1.0)
    else:
        a = optimize.brentq(F, -1.0, -1e-12, xtol=1e-14)
    lam, xp, PS = _modular_eigenvalue(model, sigma2, a)
    weight = model.exponent_factor * PS
    return ModularSolution(sigma2, a, xp, PS, float(droplet_probability(weight)) if np.isfinite(PS) else 0.0, weight)


@dataclass(frozen=True)
class ModularBoundaries:
    U_star: float  # u a^2 at which s(x_+) = 0
    x_star: float  # droplet |w_k|^2 at degeneracy
    sigma2_c1: float  # GMFL-I onset (a = -1)
    sigma2_c2: float  # GMFL-II onset (droplet probability -> 1)
    a_c2: float  # a at the GMFL-II onset
    pinned_slope: float  # |a| = k sigma^2 inside GMFL-I
    sigma2_droplet_appears: float  # U = sqrt(gamma) at a = -1


def modular_boundaries(model: Modular) -> ModularBoundaries:
    """Closed-form large-P phase boundaries (derived here from App. B.4: v1 Eqs. 43-46 / v3 Eqs. 39-42;
    tested in tests/test_theory_rubin2024.py): s(x_+) = 0 needs U* = 2 sqrt(gamma/3) at x* = sqrt(3/gamma).
    GMFL-I starts when u(sigma^2) = U* with a = -1; inside it |a| = sqrt(U*/u) = k sigma^2 is pinned;
    GMFL-II starts when the droplet eigenvalue saturates at lambda = sigma_a^2 x*^2, i.e.
    k sigma^2 = sigma^2/(lambda_sat + sigma^2)."""
    g = model.gamma
    U_star = 2 * math.sqrt(g / 3)
    x_star = math.sqrt(3 / g)
    coef = 2 * model.sigma_a2 * model.P**2 / model.N  # u = coef / sigma^4
    k = math.sqrt(U_star / coef)
    lam_sat = model.eigenvalue_scale * model.sigma_a2 * x_star**2
    s2_c2 = 1 / k - lam_sat  # < 0 (no GMFL-II at any noise) when the saturated eigenvalue exceeds 1/k
    return ModularBoundaries(U_star, x_star, math.sqrt(coef / U_star), s2_c2, -k * s2_c2, k,
                             math.sqrt(coef / math.sqrt(g)))


def modular_onset(model: Modular, kappa: float) -> float:
    """Finite-P reading of the GMFL-I onset (v3 §3.2.1; stripped in v1 §3.2.2: the droplet saddles "come within O(1)"
    of the origin): the largest sigma^2 at which the self-consistent exponent of the droplet weight
    (``weight_nats``: P s(x_+) as the paper counts) is at most ``kappa`` nats. As P -> infinity every fixed kappa gives sigma2_c1 of :func:`modular_boundaries`."""
    check_real("kappa", kappa)
    bd = modular_boundaries(model)

    def h(s2):
        return modular_solve(model, s2).weight_nats - kappa

    lo, hi = 0.5 * bd.sigma2_c2, bd.sigma2_droplet_appears * (1 - 1e-9)
    if h(lo) > 0 or h(hi) < 0:
        raise ValueError(f"kappa={kappa!r} is not allowed: the saddle action spans [{h(lo) + kappa:.3g}, "
                         f"{h(hi) + kappa:.3g}] nats between sigma^2 = {lo:.3g} and {hi:.3g}.")
    return optimize.brentq(h, lo, hi, xtol=1e-12)


# ---- the mode count (issue 62): k and P-k are one complex mode ----


def fourier_weights(w) -> np.ndarray:
    """w_k = P^-1 sum_n w_n e^{+2 pi i k n / P}, k = 0 .. P-1: the inverse of v1 Eq. 18 (w_n = sum_k w_k
    e^{-2 pi i k n / P}). For real w, w_{P-k} = conj(w_k) (v1 App. B.2)."""
    w = np.asarray(w, float)
    return np.fft.ifft(w, axis=-1)  # numpy's ifft is (1/P) sum_n w_n e^{+2 pi i k n / P}


def fourier_action(w, v, U, gamma) -> float:
    """The per-neuron action of v3 Eq. 16 (v1 Eq. 19) as printed, with the sextic Gamma of v3 §3.2 Claim II:
    P [1/2 sum_{k=0}^{P-1} (|w_k|^2 + |v_k|^2) - U sum_{k=1}^{P-1} |w_k|^2 |v_k|^2
    + (gamma/6) sum_{k=0}^{P-1} (|w_k|^6 + |v_k|^6)], U = u a^2, from the real weights w, v (length P each)."""
    wk, vk = np.abs(fourier_weights(w)) ** 2, np.abs(fourier_weights(v)) ** 2
    P = len(wk)
    return float(P * (0.5 * np.sum(wk + vk) - U * np.sum(wk[1:] * vk[1:]) + gamma / 6 * np.sum(wk**3 + vk**3)))


def complex_mode_action(Phi, Psi, U, gamma, P) -> np.ndarray:
    """The action of one complex mode (the pair k, P-k; P odd) as a function of Phi = |w_k|^2, Psi = |v_k|^2:
    both indices of the sum in v3 Eq. 16 carry the same S_k = P [(Phi + Psi)/2 - U Phi Psi + (gamma/6)(Phi^3 +
    Psi^3)], so the pair carries 2 S_k (derived here). Along Phi = Psi = x it is 2 P s(x) (:func:`mode_action`)."""
    Phi, Psi = np.asarray(Phi, float), np.asarray(Psi, float)
    return 2 * P * (0.5 * (Phi + Psi) - U * Phi * Psi + gamma / 6 * (Phi**3 + Psi**3))


def gmfl1_weight_nats(model: Modular, sigma2) -> np.ndarray:
    """Large-P closed form of the droplet weight's exponent inside GMFL-I (derived here from v3 Eqs. 38, 41): |a| is
    pinned at k sigma^2 (:func:`modular_boundaries`), so the GPR equation a = -sigma^2/(lambda + sigma^2) fixes the
    eigenvalue lambda = 1/k - sigma^2 and with it the droplet probability p = lambda / lambda_sat; the exponent is
    E = ln(4 (1 - p) / p). E does not depend on the mode count: counting each complex mode once halves
    S_k = E / 2 and leaves E. NaN outside GMFL-I."""
    bd = modular_boundaries(model)
    s2 = np.asarray(sigma2, float)
    lam_sat = model.eigenvalue_scale * model.sigma_a2 * bd.x_star**2
    p = (1 / bd.pinned_slope - s2) / lam_sat
    inside = (s2 > bd.sigma2_c2) & (s2 < bd.sigma2_c1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(inside, np.log(4 * (1 - p) / p), np.nan)


@dataclass(frozen=True)
class ModeCountReadings:
    """The droplet saddle at one sigma^2 under both mode counts (:func:`mode_count_readings`)."""

    sigma2: float
    as_printed: ModularSolution  # each index k carries S_k (the paper's count), solved self-consistently
    once: ModularSolution  # each complex mode (k, P-k) counted once, action 2 S_k, solved self-consistently
    doubled_at_printed_a: float  # 2 S_k with a held at the as-printed solution: not a solution of the 2 S_k theory
    a_implied_by_doubled: float  # the a that the GPR equation returns for that doubled exponent
    closed_form_nats: float  # the large-P exponent (:func:`gmfl1_weight_nats`), the same for both counts


def mode_count_readings(model: Modular, sigma2: float) -> ModeCountReadings:
    """The droplet-saddle height at ``sigma2`` with the paper's count and with each complex mode counted once,
    both solved self-consistently (:func:`modular_solve`); and the reading that doubles the as-printed height
    while keeping its a, with the a that the GPR equation (v3 Eq. 38) then gives back, which shows it is not
    a solution (derived here)."""
    check_real("sigma2", sigma2, positive=True)
    printed = modular_solve(replace(model, conjugates_once=False), sigma2)
    once = modular_solve(replace(model, conjugates_once=True), sigma2)
    doubled = 2 * printed.saddle_nats
    lam = model.eigenvalue_scale * model.sigma_a2 * printed.x_plus**2 * float(droplet_probability(doubled))
    return ModeCountReadings(sigma2, printed, once, doubled, -sigma2 / (lam + sigma2),
                             float(gmfl1_weight_nats(model, sigma2)))

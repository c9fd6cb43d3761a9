"""GenEFT (Baek, Liu & Tegmark 2024, arXiv 2402.05916 v1): the static and dynamic effective theories.

Equation numbers are the paper's (v1). Used by the chapters
``book/baek2024_geneft_information`` and ``book/baek2024_geneft_dynamics``.

* Static (§3): description lengths b (Table 2), the balls-in-buckets inferable fraction f(m) (Eq. 2),
  the critical training fraction p_c (Eq. 3), the accuracy upper bound f_UB (Eq. 4), and the
  Monte-Carlo "theoretical maximum accuracy" of Fig. 2 (algorithm in :mod:`repro.metrics.relation_inference`).
* Dynamic (§5, App. C): two interacting repons under a linearized decoder, the reduced ODE (Eq. 9),
  its conserved quantity C (Eq. 10) and the representation-learning probability p_r (Eq. 11).
"""
from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

from repro.core.validation import check_choice, check_fraction, check_int, check_real
from repro.data.relations import RELATIONS, train_mask
from repro.metrics.relation_inference import relation_posterior

# ---------------------------------------------------------------- static theory (§3)

GUESS_PROBABILITY = {  # p*: probability of guessing a non-inferable pair right (§3, after Eq. 4)
    "mod3": 1 / 3,  # equivalence with k classes: 1/k
    "mod5": 1 / 5,
    "greater_than": 1 / 3,  # the paper's three-element argument
    "bipartite": 1 / 2,
}


def description_length(relation: str, n: int = 30) -> float:
    """b in bits, from Table 2, for the four relations of Table 1.

    mod k: n log2 k (equivalence with k classes); greater-than: log2 n! (total ordering, the exact
    count the paper approximates by n log2(n/2)); complete bipartite: n.
    """
    check_choice("relation", relation, RELATIONS)
    check_int("n", n, minimum=2)
    if relation == "mod3":
        return n * math.log2(3)
    if relation == "mod5":
        return n * math.log2(5)
    if relation == "greater_than":
        return math.lgamma(n + 1) / math.log(2)
    return float(n)


def inferable_fraction(m, b):
    """f(m) = 1 − (1 − 1/b)^m, Eq. 2: the expected fraction of the b 'buckets' hit by m samples."""
    check_real("b", b, positive=True)
    if b <= 1:
        raise ValueError(f"b={b!r} is not allowed: b must be > 1 bit.")
    m = np.asarray(m, dtype=float)
    if (m < 0).any():
        raise ValueError("m must be >= 0 (number of training samples).")
    return 1 - (1 - 1 / b) ** m


def critical_fraction(b, n, alpha):
    """p_c = (1/N) log2(1 − α) / log2(1 − 1/b) with N = n², Eq. 3: the fraction where f(N p_c) = α."""
    check_real("b", b, positive=True)
    if b <= 1:
        raise ValueError(f"b={b!r} is not allowed: b must be > 1 bit.")
    check_int("n", n, minimum=1)
    check_real("alpha", alpha)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha!r} is not allowed: alpha must be in (0, 1).")
    return math.log2(1 - alpha) / math.log2(1 - 1 / b) / n**2


def accuracy_upper_bound(m, b, p_star):
    """f_UB(m) = f(m) + max(p*, 1 − p*)(1 − f(m)), Eq. 4."""
    check_fraction("p_star", p_star)
    f = inferable_fraction(m, b)
    return f + max(p_star, 1 - p_star) * (1 - f)


def monte_carlo_upper_bound(relation: str, fractions, data_seeds=(0, 1, 2), *, n: int = 30, chains: int = 200,
                            sweeps: int | None = None, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Fig. 2 solid curves: Bayes-optimal accuracy (and inferable fraction) over all n² pairs.

    Returns two (len(fractions), len(data_seeds)) arrays. The training set of (fraction, seed) is the
    same random subset :func:`repro.data.relations.train_mask` gives the networks.
    """
    fractions = list(fractions)
    seeds = list(data_seeds)
    masks = np.stack([train_mask(n * n, f, s).reshape(n, n) for f in fractions for s in seeds])
    post = relation_posterior(relation, masks, n=n, chains=chains, sweeps=sweeps, seed=seed)
    shape = (len(fractions), len(seeds))
    return post.accuracy.reshape(shape), post.inferable_fraction.reshape(shape)


# ---------------------------------------------------------------- dynamic theory: repons (§5)

def conserved_quantity(a2, c, eta_x, eta_A):
    """C = a2²/(2η_A) − c²/η_x, Eq. 10 (constant along Eq. 9; C > 0 ⇒ collision)."""
    check_real("eta_x", eta_x, positive=True)
    check_real("eta_A", eta_A, positive=True)
    return np.asarray(a2) ** 2 / (2 * eta_A) - np.asarray(c) ** 2 / eta_x


def repon_rhs(t, state, eta_x, eta_A):
    """Eq. 9: da2/dt = −2η_A c² a2, dc/dt = −η_x a2² c."""
    a2, c = state
    return [-2 * eta_A * c**2 * a2, -eta_x * a2**2 * c]


def integrate_repons(a2_0, c_0, eta_x, eta_A, t_max, n_points: int = 400, rtol: float = 1e-10, atol: float = 1e-12):
    """Integrate Eq. 9 with scipy (LSODA) from (a2, c)(0); returns (t, a2(t), c(t))."""
    check_real("eta_x", eta_x, positive=True)
    check_real("eta_A", eta_A, positive=True)
    check_real("t_max", t_max, positive=True)
    check_int("n_points", n_points, minimum=2)
    t = np.linspace(0.0, t_max, n_points)
    sol = solve_ivp(repon_rhs, (0.0, t_max), [a2_0, c_0], args=(eta_x, eta_A), t_eval=t, method="LSODA",
                    rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"repon ODE integration failed: {sol.message}")
    return sol.t, sol.y[0], sol.y[1]


def repon_fixed_point(a2_0, c_0, eta_x, eta_A) -> tuple[float, float]:
    """The t → ∞ limit from Eq. 10: C > 0 ⇒ (±√(2η_A C), 0) (collision); C < 0 ⇒ (0, ±√(−η_x C))."""
    C = float(conserved_quantity(a2_0, c_0, eta_x, eta_A))
    if C > 0:
        return math.copysign(math.sqrt(2 * eta_A * C), a2_0), 0.0
    return 0.0, math.copysign(math.sqrt(-eta_x * C), c_0)


def repon_probability(eta_x, eta_A, sigma_a=1.0, sigma_c=1.0):
    """p_r = (2/π) arctan((σ_a/σ_c) √(η_x / (2 η_A))), Eq. 11: Pr[C > 0] for Gaussian initial a2, c.

    (The paper's normaliser 1/(2π σ_a σ_x) should read σ_c, and its region c/a < … should read
    |c/a|: our correction, which the unit tests check by Monte Carlo.) Depends on the learning rates only
    through η_x/η_A.
    """
    for name, v in (("eta_x", eta_x), ("eta_A", eta_A), ("sigma_a", sigma_a), ("sigma_c", sigma_c)):
        check_real(name, v, positive=True)
    return 2 / math.pi * math.atan(sigma_a / sigma_c * math.sqrt(eta_x / (2 * eta_A)))


def repon_probability_monte_carlo(eta_x, eta_A, sigma_a=1.0, sigma_c=1.0, samples: int = 100_000, seed: int = 0):
    """Fraction of Gaussian initial conditions (a2 ~ N(0, σ_a²), c ~ N(0, σ_c²)) with C > 0 (Eq. 10)."""
    check_int("samples", samples, minimum=1)
    rng = np.random.default_rng(seed)
    a2 = rng.normal(0.0, sigma_a, samples)
    c = rng.normal(0.0, sigma_c, samples)
    return float((conserved_quantity(a2, c, eta_x, eta_A) > 0).mean())

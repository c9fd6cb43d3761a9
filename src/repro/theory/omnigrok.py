"""The LU mechanism of Omnigrok (Liu, Michaud, Tegmark, ICLR 2023) as equations.

Numbering: "B eq. n" is Omnigrok's (arXiv 2210.01117); "slides" is Z. Liu's 2023 talk "Physics of deep
learning: understanding grokking via the lens of physics". Used by the chapter ``book/liu2023_omnigrok``.

* Reduced landscape (B eq. 1): f̃(w) = f(θ*(w)) with θ*(w) = argmin_{‖θ‖₂ = w} l_train(θ). Training
  loss is L-shaped in w (≈ 0 above a critical norm w_c), test loss U-shaped (minimal near w_c).
* Weight-norm dynamics (slides "LU mechanism"): dw/dt = −γ w − ∂l̃_train/∂w. Above w_c the
  gradient term vanishes, so w(t) = w₀ e^{−γt} and the time to reach w_c is t = ln(w₀/w_c)/γ ∝ 1/γ.
* AdamW applies the decay as θ ← (1 − lr·γ) θ per step, so in optimizer steps the same law reads
  t ≈ ln(w₀/w_c)/(lr·γ) (our step-count form of Omnigrok §2's t ≈ ln(w₀/w_c)/γ).
"""
from __future__ import annotations

import numpy as np

from repro.core.validation import check_real


def norm_decay(w0: float, gamma: float, t, lr: float = 1.0):
    """w(t) = w₀ exp(−lr·γ·t): the solution of dw/dt = −γw above w_c (slides; the slide omits w₀)."""
    check_real("w0", w0, positive=True)
    check_real("gamma", gamma, nonnegative=True)
    check_real("lr", lr, positive=True)
    return w0 * np.exp(-lr * gamma * np.asarray(t, dtype=float))


def time_to_grok(w0: float, w_c: float, gamma: float, lr: float = 1.0) -> float:
    """t(w₀ → w_c) = ln(w₀/w_c) / (lr·γ)  (slides, B §2); 0 when w₀ ≤ w_c, ∞ when γ = 0.

    With ``lr`` = 1 the time is in the units of the ODE; with the AdamW learning rate it is in steps.
    """
    check_real("w0", w0, positive=True)
    check_real("w_c", w_c, positive=True)
    check_real("gamma", gamma, nonnegative=True)
    check_real("lr", lr, positive=True)
    if w0 <= w_c:
        return 0.0
    if gamma == 0:
        return float("inf")
    return float(np.log(w0 / w_c) / (lr * gamma))


def l_shaped_train_loss(w, w_c: float, depth: float = 1.0):
    """A model L curve: depth·(1 − w/w_c)² below w_c, exactly 0 above (non-increasing, B §2).

    Only the shape matters for the dynamics above w_c; this stands in for a measured l̃_train(w).
    """
    w = np.asarray(w, dtype=float)
    return depth * np.clip(1.0 - w / w_c, 0.0, None) ** 2


def l_shaped_train_loss_grad(w, w_c: float, depth: float = 1.0):
    """∂l̃_train/∂w of :func:`l_shaped_train_loss`."""
    w = np.asarray(w, dtype=float)
    return -2.0 * depth / w_c * np.clip(1.0 - w / w_c, 0.0, None)


def integrate_norm_dynamics(w0: float, gamma: float, t_max: float, n_steps: int, w_c: float, depth: float = 1.0):
    """Euler integration of dw/dt = −γw − ∂l̃_train/∂w (slides) with the model L curve.

    Returns (t, w), arrays of n_steps + 1 points. Above w_c it follows w₀e^{−γt}; it settles where the
    decay balances the loss gradient, slightly below w_c (at w = w_c·2d/(2d + γw_c²)).
    """
    check_real("t_max", t_max, positive=True)
    t = np.linspace(0.0, t_max, n_steps + 1)
    dt = t_max / n_steps
    w = np.empty_like(t)
    w[0] = w0
    for k in range(n_steps):
        w[k + 1] = w[k] + dt * (-gamma * w[k] - l_shaped_train_loss_grad(w[k], w_c, depth))
    return t, w


def reduced_train_loss_with_decay(train_loss, alpha, gamma: float, c: float):
    """l̃_train(α, γ) = l̃_train(α) + γα²C² (B §2): the L curve plus the weight-decay bowl.

    ``c`` is the average parameter magnitude of the standard init, so (αC)² is the squared norm per
    parameter; the minimum of the sum moves from "anywhere above w_c" to just above w_c.
    """
    alpha = np.asarray(alpha, dtype=float)
    return np.asarray(train_loss, dtype=float) + gamma * alpha**2 * c**2


def loglog_slope(x, y) -> tuple[float, float]:
    """Least-squares fit log y = slope·log x + intercept; returns (slope, intercept).

    Used to test t ∝ γ⁻¹ (slope −1) on measured steps to generalize.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError(f"loglog_slope needs two 1-D arrays of equal length >= 2; got shapes {x.shape}, {y.shape}.")
    if not (np.all(x > 0) and np.all(y > 0)):
        raise ValueError("loglog_slope needs positive x and y (drop runs that never generalized).")
    slope, intercept = np.polyfit(np.log(x), np.log(y), 1)
    return float(slope), float(intercept)

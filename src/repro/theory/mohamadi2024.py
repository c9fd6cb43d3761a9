"""Equations of Mohamadi, Li, Wu & Sutherland (2024), *Why Do You Grok? A Theoretical Analysis of Grokking
Modular Addition* (ICML 2024, arXiv 2407.12332). Used by the chapter ``book/mohamadi2024_why_grok``.

Numbering (equations, theorems, appendices) follows the paper (arXiv 2407.12332 v1).

Model (Eq. 2.1): f(θ; (e_a, e_b)) = V (W (e_a, e_b))^{⊙2} with W ∈ R^{h×2p} (first layer), V ∈ R^{p×h},
no biases. Split W = [Q R]; neuron k's pre-activation on the pair (a, b) is z_k(a, b) = Q_ka + R_kb.
Regression reads the network at coordinate c: g(θ; (a, b, c)) = Σ_k V_ck z_k(a, b)^2, target p·1(a+b ≡ c).

Contents:

* :func:`fourier_construction` (App. F, Prop. 3.8): exact interpolating weights with ‖θ‖∞ = 1;
  :func:`duplicate_neurons` (Prop. 3.8's width argument, norm r^{-1/3}).
* :func:`quadratic_net`, :func:`linf_norm`, :func:`normalized_margin` (§4.2).
* eNTK closed forms (App. B, Eq. B.1/B.2): :func:`entk_regression_kernel`, :func:`entk_logit_kernel`
  (the first-coordinate kernel Θ̂ of Fig. 1), :func:`pntk_kernel` (ref. [32]'s Σ_c f_c/√p kernel), the
  expected kernel :func:`expected_entk_regression` (Prop. B.3) and the rank bound :func:`entk_rank_bound`
  (Prop. B.6, with the per-neuron rank 3p − 2); :func:`empirical_ntk`, the same kernels of any network
  by autograd (the one-layer transformer of Fig. 5).
* :func:`kernel_regression` (App. B.1: ridgeless, initial network as prior mean) and the two end-to-end
  kernel predictors :func:`entk_regression` (Thm 3.4) and :func:`entk_classification` (Thm 4.3).
* The underflow-safe cross-entropy gradient of normalized GD (our addition) and the ℓ∞ subgradient:
  :func:`safe_cross_entropy_weights`, :func:`linf_subgradient` (defined in :mod:`repro.models.fastgrad`, where the
  trainer uses them; normalized GD itself is ``repro.training.trainer``'s optimizer ``normalized_gd``).
* Sample sizes of App. A: :func:`regression_train_size`, :func:`classification_train_size`.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from repro.models.fastgrad import linf_subgradient, safe_cross_entropy_weights
#   trainer's gradient code needs them in a lower layer)
from repro.core.validation import check_int, check_real

# --------------------------------------------------------------------------------------------------
# The explicit Fourier construction (App. F)


def _check_p(p) -> None:
    check_int("p", p, minimum=2)


def fourier_construction(p: int, halved: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Interpolating weights (W, V) of the quadratic network for modular addition mod ``p`` (App. F).

    ``V @ (W @ x)**2 == p * onehot((a + b) % p)`` for ``x = concat(onehot(a), onehot(b))``, exactly (up to
    float64 rounding), for every pair (a, b).

    * ``halved=False``: the paper's 8p neurons (F.1/F.2), neuron 8k + i for frequency k and type i. The
      literal F.2 second layer outputs 4p·1(·) (Eq. F.10); we divide it by 4 so the output is the regression
      target p·1(·). Then ‖W‖∞ = 1, ‖V‖∞ = 1/4: ‖θ‖∞ = 1. Works for every p ≥ 2.
    * ``halved=True`` (Remark F.1, odd p only): frequencies k = 1..(p−1)/2 with doubled second-layer
      weights (Eq. F.11: Σ_{k<p} cos kφ = 1 + 2 Σ_{k≤(p−1)/2} cos kφ), plus one constant neuron (all-ones
      first-layer row, output weight 1/4 giving (1 + 1)^2 / 4 = 1): 8(p − 1)/2 + 1 = 4p − 3 neurons
      (the paper: "at most 4p"), ‖θ‖∞ = 1.
    """
    _check_p(p)
    if halved not in (True, False):
        raise ValueError(f"halved={halved!r} is not allowed: halved must be True or False.")
    if halved and p % 2 == 0:
        raise ValueError(f"halved=True is not allowed with p={p}: the halved construction needs an odd p "
                         "(cos kφ pairs k with p − k only when p is odd); use halved=False for even p.")
    k = np.arange(p)[:, None]
    j = np.arange(p)[None, :]
    C, S = np.cos(2 * np.pi * k * j / p), np.sin(2 * np.pi * k * j / p)  # rows: frequency k; columns: symbol
    # F.1: the eight neuron types per frequency, [a-block | b-block].
    blocks = [(C, C), (C, -C), (S, S), (S, -S), (S, C), (S, -C), (C, S), (-C, S)]
    # F.2 signs for output q: (+cos, -cos, -cos, +cos, +sin, -sin, +sin, -sin) of θ_q^k.
    out_signs = [(1, C.T), (-1, C.T), (-1, C.T), (1, C.T), (1, S.T), (-1, S.T), (1, S.T), (-1, S.T)]
    freqs = np.arange(1, (p - 1) // 2 + 1) if halved else np.arange(p)
    n_f = len(freqs)
    W = np.zeros((8 * n_f, 2 * p))
    V = np.zeros((p, 8 * n_f))
    for i, (A, B) in enumerate(blocks):
        W[i::8] = np.concatenate([A[freqs], B[freqs]], axis=1)
    for i, (sign, T) in enumerate(out_signs):
        V[:, i::8] = sign * T[:, freqs]
    V = V / 2 if halved else V / 4  # F.11 doubles the kept frequencies; /4 turns 4p·1 into p·1
    if halved:
        # The constant term of F.11: one neuron (1 + 1)^2 with output weight 1/4 on every output.
        constant_row = np.ones((1, 2 * p))
        W = np.concatenate([W, constant_row], axis=0)
        V = np.concatenate([V, np.full((p, 1), 0.25)], axis=1)
    return W, V


def quadratic_net(W, V, a, b):
    """f(θ; (e_a, e_b)) of Eq. 2.1 for integer arrays ``a``, ``b`` of length n: returns (n, p)."""
    W = np.asarray(W)
    p = W.shape[1] // 2
    z = W[:, np.asarray(a)] + W[:, p + np.asarray(b)]  # (h, n)
    return (np.asarray(V) @ z ** 2).T


def ordered_pairs(p: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (a, b) in row-major order, as two integer arrays of length p^2."""
    a, b = np.meshgrid(np.arange(p), np.arange(p), indexing="ij")
    return a.ravel(), b.ravel()


def duplicate_neurons(W, V, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Prop. 3.8's width argument: copy every neuron ``r`` times and scale each copy's first-layer row and
    second-layer column by r^{−1/3}. The output is unchanged (r copies × (r^{−1/3})^3 = 1, by
    3-homogeneity) while ‖θ‖∞ shrinks by r^{−1/3}."""
    check_int("r", r, minimum=1)
    s = r ** (-1.0 / 3.0)
    return np.repeat(np.asarray(W), r, axis=0) * s, np.repeat(np.asarray(V), r, axis=1) * s


def linf_norm(W, V) -> float:
    """‖θ‖∞: the largest absolute entry over W and V (the regularizer of Eq. 2.2)."""
    return float(max(np.abs(np.asarray(W)).max(), np.abs(np.asarray(V)).max()))


def normalized_margin(W, V, a, b, labels) -> float:
    """§4.2: q_min(θ/‖θ‖∞; D) = q_min(θ; D)/‖θ‖∞^3 (f is 3-homogeneous), with
    q(θ; x, y) = f_y − max_{y'≠y} f_{y'}."""
    out = quadratic_net(W, V, a, b)
    labels = np.asarray(labels)
    rows = np.arange(len(labels))
    correct = out[rows, labels]
    out = out.copy()
    out[rows, labels] = -np.inf
    return float((correct - out.max(axis=1)).min() / linf_norm(W, V) ** 3)


# --------------------------------------------------------------------------------------------------
# eNTK closed forms (App. B)


def _as_t(x, dtype=torch.float64):
    return x if isinstance(x, torch.Tensor) else torch.as_tensor(np.asarray(x), dtype=dtype)


def _as_idx(x):
    return x.long() if isinstance(x, torch.Tensor) else torch.as_tensor(np.asarray(x), dtype=torch.long)


def _preacts(W: torch.Tensor, a, b) -> torch.Tensor:
    p = W.shape[1] // 2
    return (W[:, _as_idx(a)] + W[:, p + _as_idx(b)]).T  # (n, h): z_k(a_i, b_i)


def entk_regression_kernel(W, V, x1, x2=None, multipliers=(1.0, 1.0)) -> torch.Tensor:
    """The regression eNTK K_θ(x, x') = ∇g(θ;x)·∇g(θ;x') (App. B, Eq. B.1/B.2), closed form:

    K = Σ_k [ 1(c=c') z_k(a,b)^2 z_k(a',b')^2 + 4 V_ck V_c'k z_k(a,b) z_k(a',b') (1(a=a') + 1(b=b')) ].

    The first term (L_θ) comes from the V-gradients, the second (J_θ) from the Q- and R-gradients.
    ``x1``, ``x2``: integer arrays of shape (n, 3) holding triples (a, b, c). Returns (n1, n2), float64.
    ``W``, ``V`` are Eq. 2.1's weights; ``multipliers`` (m_W, m_V) give the kernel of parameters θ with
    W = m_W θ_W, V = m_V θ_V (the NTK parametrization, ``QuadraticNetConfig.multipliers``): the chain rule
    weights J_θ by m_W^2 and L_θ by m_V^2.
    """
    W, V = _as_t(W), _as_t(V)
    m_w, m_v = multipliers
    x1 = _as_idx(x1)
    x2 = x1 if x2 is None else _as_idx(x2)
    z1, z2 = _preacts(W, x1[:, 0], x1[:, 1]), _preacts(W, x2[:, 0], x2[:, 1])
    same_c = (x1[:, None, 2] == x2[None, :, 2]).to(W.dtype)
    shared = (x1[:, None, 0] == x2[None, :, 0]).to(W.dtype) + (x1[:, None, 1] == x2[None, :, 1]).to(W.dtype)
    v1, v2 = V[x1[:, 2]], V[x2[:, 2]]  # (n, h): V_{c_i, k}
    return m_v ** 2 * same_c * ((z1 ** 2) @ (z2 ** 2).T) + m_w ** 2 * 4 * shared * ((v1 * z1) @ (v2 * z2).T)


def _logit_kernel(W, sq_weight, a1, b1, a2, b2, readout):
    z1, z2 = _preacts(W, a1, b1), _preacts(W, a2, b2)
    shared = (_as_idx(a1)[:, None] == _as_idx(a2)[None, :]).to(W.dtype) + \
        (_as_idx(b1)[:, None] == _as_idx(b2)[None, :]).to(W.dtype)
    return sq_weight * ((z1 ** 2) @ (z2 ** 2).T) + 4 * shared * ((readout * z1) @ z2.T)


def entk_logit_kernel(W, V, a1, b1, a2=None, b2=None, output: int = 0, multipliers=(1.0, 1.0)) -> torch.Tensor:
    """The NTK of one output coordinate f_output (Fig. 1 left uses the first, "following [32]"):

    Θ̂(x, x') = Σ_k z_k^2 z_k'^2 + 4 Σ_k V_{output,k}^2 z_k z_k' (1(a=a') + 1(b=b')).

    ``multipliers`` (m_W, m_V): as in :func:`entk_regression_kernel` (first term × m_V^2, second × m_W^2).
    """
    W, V = _as_t(W), _as_t(V)
    m_w, m_v = multipliers
    a2, b2 = (a1, b1) if a2 is None else (a2, b2)
    return _logit_kernel(W, m_v ** 2, a1, b1, a2, b2, m_w ** 2 * V[output] ** 2)


def pntk_kernel(W, V, a1, b1, a2=None, b2=None) -> torch.Tensor:
    """The pseudo-NTK of ref. [32] (Mohamadi, Bae & Sutherland 2023): the NTK of Σ_c f_c/√p,

    Σ_k z_k^2 z_k'^2 + (4/p) Σ_k (Σ_c V_ck)^2 z_k z_k' (1(a=a') + 1(b=b')).

    Used as a scalar kernel shared by all p outputs (the matrix kernel pNTK ⊗ I_p) in :func:`entk_classification`.
    """
    W, V = _as_t(W), _as_t(V)
    a2, b2 = (a1, b1) if a2 is None else (a2, b2)
    p = V.shape[0]
    return _logit_kernel(W, 1.0, a1, b1, a2, b2, V.sum(0) ** 2 / p)


def expected_entk_regression(x1, x2, width: int, var_w: float, kurtosis_w: float, var_v: float) -> torch.Tensor:
    """E K over the init (Prop. B.3, plus the J term for V independent of W with mean 0, variance var_v).

    E L_θk(x, x') = var_w^2 1(c=c') · {4 if a≠a', b≠b'; κ+3 if exactly one matches; 2κ+6 if both}, and
    E J_θk(x, x') = 4 var_v var_w 1(c=c') (1(a=a') + 1(b=b'))^2; E K = width · (E L + E J).
    For W ~ U(±s): var_w = s^2/3, κ = 9/5 (PyTorch's default); Gaussian: κ = 3.
    """
    x1, x2 = _as_idx(x1), _as_idx(x2)
    same_c = (x1[:, None, 2] == x2[None, :, 2]).double()
    shared = (x1[:, None, 0] == x2[None, :, 0]).double() + (x1[:, None, 1] == x2[None, :, 1]).double()
    fourth = torch.where(shared == 0, 4.0, torch.where(shared == 1, kurtosis_w + 3, 2 * kurtosis_w + 6))
    return width * same_c * (var_w ** 2 * fourth + 4 * var_v * var_w * shared ** 2)


def entk_rank_bound(p: int, width: int, n: int) -> int:
    """Prop. B.6 sharpened: rank K ≤ min(n, h(3p − 2)).

    Each neuron's gradient lives in 3p dimensions (its row of Q, of R and its column of V) but has two
    null directions on every input: Q_k += t·1 with R_k −= t·1 leaves z_k unchanged, and the homogeneity
    rescaling (Q_k, R_k, V_k) ↦ (sQ_k, sR_k, V_k/s^2) leaves the output unchanged (our derivation). So the
    eNTK is singular — and eNTK regression cannot interpolate every labelling (Lemma B.1/B.2) — iff
    h(3p − 2) < n (for generic weights; measured to be sharp in the chapter).
    """
    for name, v in (("p", p), ("width", width), ("n", n)):
        check_int(name, v, minimum=1)
    return min(n, width * (3 * p - 2))


def empirical_ntk(forward, params: dict[str, torch.Tensor], x: torch.Tensor, output="first") -> torch.Tensor:
    """The empirical NTK of any network, by autograd: Θ̂_θ(x, x') = ⟨∇_θ s(θ; x), ∇_θ s(θ; x')⟩ (§2 and
    App. B: K_θ(x, x') = ∇_θ f(θ; x)^T ∇_θ f(θ; x') for a scalar output), summed over every parameter tensor.

    ``forward(params, x)`` maps a dict of parameter tensors and a batch of inputs ``x`` (n, ...) to logits
    (n, C); ``output`` picks the scalar s: ``"first"``, the first logit f_0 (Fig. 1 left, "following [32]"),
    an integer c for the logit f_c, or ``"pntk"`` for Σ_c f_c/√C (ref. [32]'s pseudo-NTK, as in
    :func:`pntk_kernel`). Per-input gradients come from ``torch.func.vmap(torch.func.grad(...))``: memory
    n × (number of parameters). Returns the (n, n) Gram matrix in the parameters' dtype. For the quadratic
    network the closed forms :func:`entk_logit_kernel` and :func:`pntk_kernel` give the same kernel.
    """
    from torch.func import grad, vmap

    if not (output in ("first", "pntk") or (isinstance(output, int) and not isinstance(output, bool) and output >= 0)):
        raise ValueError(f"output={output!r} is not allowed: output must be 'first', 'pntk' or a class index >= 0.")
    params = {k: v.detach() for k, v in params.items()}

    def scalar(ps, xi):
        logits = forward(ps, xi.unsqueeze(0))[0]  # (C,)
        if output == "pntk":
            return logits.sum() / math.sqrt(logits.shape[-1])
        return logits[0 if output == "first" else output]

    grads = vmap(grad(scalar), in_dims=(None, 0))(params, x)  # name -> (n, *shape)
    flat = torch.cat([g.reshape(g.shape[0], -1) for g in grads.values()], dim=1)  # (n, P)
    return flat @ flat.T


def kernel_distance(K0: torch.Tensor, Kt: torch.Tensor) -> float:
    """Scale-free kernel distance 1 − ⟨K_t, K_0⟩_F / (‖K_t‖_F ‖K_0‖_F); 0 when K_t ∝ K_0.

    Our addition to Fig. 1's raw ‖K_t − K_0‖_F, which the growth of ‖θ‖ dominates."""
    return float(1 - (K0 * Kt).sum() / (torch.linalg.norm(K0) * torch.linalg.norm(Kt)))


def unit_kernel_distance(distance):
    """‖K̄_t − K̄_0‖_F of the kernels scaled to unit norm, K̄ = K/‖K‖_F, from :func:`kernel_distance`'s
    d = 1 − cos: √(2d) (the law of cosines; rounding below 0 read as 0). Elementwise on arrays."""
    return np.sqrt(2 * np.maximum(distance, 0.0))


# --------------------------------------------------------------------------------------------------
# Kernel predictors (Thm 3.4 / 4.3 made visible)


def kernel_regression(K_train: torch.Tensor, K_test_train: torch.Tensor, y_train: torch.Tensor,
                      f0_train: torch.Tensor | None = None, f0_test: torch.Tensor | None = None) -> torch.Tensor:
    """Ridgeless kernel regression with the initial network as prior mean (App. B.1):
    f̂ = f₀ + K(·, X) K^†(y − f₀(X)); this is where GD on the linearized network converges.

    ``y_train`` may be (n,) or (n, d) (matrix kernel K ⊗ I_d). K^† is applied by least squares, which
    gives the minimum-norm solution also when K is singular.
    """
    resid = y_train if f0_train is None else y_train - f0_train
    squeeze = resid.dim() == 1
    resid = resid[:, None] if squeeze else resid
    # K ≻ 0 (the interpolating case, Lemma B.1) is solved by Cholesky; a singular K falls back to the
    # minimum-norm least-squares solution, eigenvalues below 1e-10·λ_max counting as exact zeros.
    L, info = torch.linalg.cholesky_ex(K_train)
    if int(info) == 0:
        coef = torch.cholesky_solve(resid, L)
    else:
        coef = torch.linalg.lstsq(K_train, resid, rcond=1e-10, driver="gelsd").solution
    coef = coef[:, 0] if squeeze else coef
    out = K_test_train @ coef
    return out if f0_test is None else out + f0_test


def pytorch_default_init(p: int, width: int, seed: int, scale: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """W ~ U(±1/√(2p)), V ~ U(±1/√h): nn.Linear's default (kaiming_uniform_, a = √5), the paper's init
    ("default PyTorch initialization [19]", App. A), times the init scale α (Fig. 1-2)."""
    check_int("p", p, minimum=2)
    check_int("width", width, minimum=1)
    check_real("scale", scale, positive=True)
    gen = torch.Generator().manual_seed(int(seed))
    W = (torch.rand(width, 2 * p, generator=gen, dtype=torch.float64) * 2 - 1) / math.sqrt(2 * p)
    V = (torch.rand(p, width, generator=gen, dtype=torch.float64) * 2 - 1) / math.sqrt(width)
    return W * scale, V * scale


def he_normal_init(p: int, width: int, seed: int, scale: float = 1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """W ~ N(0, 2/(2p)), V ~ N(0, 2/h): He et al.'s normal init (``kaiming_normal_``, fan-in mode, gain √2), the
    reference [19] that App. A.1-A.2 cite, times the init scale α; drawn like :func:`pytorch_default_init` (one
    generator per seed, W before V, float64)."""
    check_int("p", p, minimum=2)
    check_int("width", width, minimum=1)
    check_real("scale", scale, positive=True)
    gen = torch.Generator().manual_seed(int(seed))
    W = torch.randn(width, 2 * p, generator=gen, dtype=torch.float64) * math.sqrt(2 / (2 * p))
    V = torch.randn(p, width, generator=gen, dtype=torch.float64) * math.sqrt(2 / width)
    return W * scale, V * scale


def all_triples(p: int) -> np.ndarray:
    """Every triple (a, b, c), shape (p^3, 3), row-major."""
    grid = np.stack(np.meshgrid(np.arange(p), np.arange(p), np.arange(p), indexing="ij"), axis=-1)
    return grid.reshape(-1, 3)


def regression_targets(x, p: int) -> torch.Tensor:
    """y = p·1(a + b ≡ c mod p) for triples ``x`` of shape (n, 3) (§2: scaled so that the zero predictor
    has population loss L(Ψ₀) = p, footnote 2)."""
    x = _as_idx(x)
    return p * ((x[:, 0] + x[:, 1]) % p == x[:, 2]).double()


def entk_regression(p: int, width: int, train, test, seed: int, kernel: str = "empirical") -> float:
    """Thm 3.4 made visible: test loss of eNTK kernel regression relative to the zero predictor Ψ₀.

    ``train``, ``test``: integer arrays (n, 3) of triples. The network is drawn with the paper's init
    (:func:`pytorch_default_init`, ``seed``); ``kernel="empirical"`` uses its eNTK at init with the initial
    network as prior mean, ``"expected"`` the expected NTK (Prop. B.3, no prior mean). Returns
    mean_test (f̂ − y)^2 / mean_test y^2, which is 1 for Ψ₀ ≡ 0; Thm 3.4 says ≥ 1/2 in expectation for
    n < C p^3.
    """
    if kernel not in ("empirical", "expected"):
        raise ValueError(f"kernel={kernel!r} is not allowed: kernel must be 'empirical' or 'expected'.")
    train, test = _as_idx(train), _as_idx(test)
    y_train, y_test = regression_targets(train, p), regression_targets(test, p)
    if kernel == "empirical":
        W, V = pytorch_default_init(p, width, seed)
        K = entk_regression_kernel(W, V, train)
        K_cross = entk_regression_kernel(W, V, test, train)
        f0 = lambda x: (V[x[:, 2]] * _preacts(W, x[:, 0], x[:, 1]) ** 2).sum(1)
        pred = kernel_regression(K, K_cross, y_train, f0(train), f0(test))
    else:
        var_w, var_v = 1 / (3 * 2 * p), 1 / (3 * width)
        K = expected_entk_regression(train, train, width, var_w, 9 / 5, var_v)
        K_cross = expected_entk_regression(test, train, width, var_w, 9 / 5, var_v)
        pred = kernel_regression(K, K_cross, y_train)
    return float(((pred - y_test) ** 2).mean() / (y_test ** 2).mean())


def entk_classification(p: int, width: int, train_pairs, test_pairs, seed: int) -> tuple[float, float]:
    """Thm 4.3 made visible: pNTK-at-init kernel regression on one-hot targets p·e_{(a+b) mod p}.

    Returns (test accuracy of the argmax, test squared loss relative to the zero predictor). ``train_pairs``,
    ``test_pairs``: integer arrays (n, 2). The prior mean is the initial network.
    """
    tr, te = _as_idx(train_pairs), _as_idx(test_pairs)
    W, V = pytorch_default_init(p, width, seed)
    K = pntk_kernel(W, V, tr[:, 0], tr[:, 1])
    K_cross = pntk_kernel(W, V, te[:, 0], te[:, 1], tr[:, 0], tr[:, 1])
    f0 = lambda x: (V @ (_preacts(W, x[:, 0], x[:, 1]) ** 2).T).T
    onehot = lambda x: p * torch.nn.functional.one_hot((x[:, 0] + x[:, 1]) % p, p).double()
    pred = kernel_regression(K, K_cross, onehot(tr), f0(tr), f0(te))
    y_te = onehot(te)
    acc = float((pred.argmax(1) == (te[:, 0] + te[:, 1]) % p).double().mean())
    return acc, float(((pred - y_te) ** 2).mean() / (y_te ** 2).mean())


# --------------------------------------------------------------------------------------------------
# Training-set sizes (App. A)


def regression_train_size(p: int) -> int:
    """n = 2 p^2.25 triples (App. A.1), rounded down."""
    return int(2 * p ** 2.25)


def classification_train_size(p: int, c: float = 2.0) -> int:
    """n = c · p^{5/3} pairs, c = 2 in App. A.2 (Thm 4.5's sample complexity Õ(p^{5/3})), rounded down."""
    return int(c * p ** (5 / 3))


# --------------------------------------------------------------------------------------------------
# The span limit of App. D: the best predictor in a kernel's span against the explicit bound (issue 62)
#
# App. D bounds what a kernel method can do at all: its predictor Σ_t λ_t K(x_t, ·) lies in the n-dimensional span
# of the kernel's columns at the training inputs, and for ANY n-dimensional subspace V of the functions on
# Z_p^m the permuted tasks Ψ_σ(x) = 1(σ_1(x_1) + … + σ_{m−1}(x_{m−1}) ≡ σ_m(x_m)) (σ_i independent uniform
# permutations) satisfy E_σ dist(Ψ_σ, V)^2 ≥ Σ_{i>n} λ_i(Σ), Σ = E_σ Ψ_σ Ψ_σ^T (Lemma D.4), with
# Σ_{i≤n} λ_i(Σ) ≤ p^{m−2} + (n/p) e^{(m−1)/(p−1)} (Lemma D.7) and tr Σ = p^{m−1} = ‖Ψ‖^2 (all p^m points):
# Thm D.1 (m = 3) and Cor. D.8 (general m). Relative to the zero predictor's ‖Ψ‖^2 that is
# :func:`kernel_span_bound`. The paper's formulas are lost in our text copy; the unit tests check the bound
# against the exact spectrum of Σ at small p, and Σ against a brute-force average over all permutations.


def kernel_span_bound(p: int, n: int, m: int = 3) -> float:
    """App. D's explicit lower bound (Thm D.1 for m = 3, Cor. D.8 for m summands' tasks on Z_p^m) on the
    population loss of the best predictor in ANY n-dimensional span, averaged over the permuted tasks,
    relative to the zero predictor's: 1 − 1/p − (n/p^m) e^{(m−1)/(p−1)}. Negative (vacuous) for large n.
    For classification (Thm D.2) n counts regression triples: n_pairs · p."""
    check_int("p", p, minimum=2)
    check_int("n", n, minimum=0)
    check_int("m", m, minimum=2)
    return 1 - 1 / p - (n / p ** m) * math.exp((m - 1) / (p - 1))


def _pattern_value(p: int, differ: int) -> float:
    """E_σ[Ψ_σ(x) Ψ_σ(x')] for two points of Z_p^3 that differ in ``differ`` coordinates (our derivation: the
    values σ_i(x_i), σ_i(x'_i) are a uniform equal pair or a uniform distinct pair):
    1/p (d = 0), 0 (d = 1), 1/(p(p−1)) (d = 2), (p − 2)/(p(p−1)^2) (d = 3)."""
    return {0: 1 / p, 1: 0.0, 2: 1 / (p * (p - 1)), 3: (p - 2) / (p * (p - 1) ** 2)}[differ]


def apply_permuted_task_covariance(U: np.ndarray, p: int) -> np.ndarray:
    """Σ @ U for Σ = E_σ Ψ_σ Ψ_σ^T on the p^3 triples (row-major, as :func:`all_triples`), without forming Σ.

    Σ(x, x') depends only on which coordinates agree, so Σ = Σ_patterns C_d ⊗_i (I or J − I), with J the all-ones
    p × p matrix; each factor acts on one axis of U reshaped to (p, p, p, r). ``U``: (p^3,) or (p^3, r)."""
    U = np.asarray(U, dtype=np.float64)
    vec = U.ndim == 1
    T = U.reshape(p, p, p, -1)
    out = np.zeros_like(T)
    for pattern in range(8):  # bit i set: coordinate i differs
        X = T
        for axis in range(3):
            if pattern >> axis & 1:
                X = X.sum(axis=axis, keepdims=True) - X  # (J − I) along this axis
        out += _pattern_value(p, bin(pattern).count("1")) * X
    out = out.reshape(p ** 3, -1)
    return out[:, 0] if vec else out


def _pair_covariance_apply(U: np.ndarray, p: int) -> np.ndarray:
    """Σ restricted to one output slice (c = c'), on the p^2 pairs: Σ_pair @ U, U (p^2, r)."""
    T = np.asarray(U, dtype=np.float64).reshape(p, p, -1)
    out = np.zeros_like(T)
    for pattern in range(4):
        X = T
        for axis in range(2):
            if pattern >> axis & 1:
                X = X.sum(axis=axis, keepdims=True) - X
        out += _pattern_value(p, bin(pattern).count("1")) * X
    return out.reshape(p * p, -1)


def span_basis(features, rcond: float = 1e-10) -> np.ndarray:
    """An orthonormal basis of the column span of ``features`` (N, n): the left singular vectors whose singular
    values exceed ``rcond`` · the largest (the numerical rank; the only regularization of the projection)."""
    F = np.asarray(features.detach().cpu().numpy() if isinstance(features, torch.Tensor) else features, dtype=np.float64)
    if F.ndim != 2 or F.shape[1] == 0:
        raise ValueError(f"features of shape {F.shape} are not allowed: give an (N, n) matrix with n ≥ 1 columns.")
    check_real("rcond", rcond, positive=True)
    u, s, _ = np.linalg.svd(F, full_matrices=False)
    return u[:, s > rcond * s.max()] if s.max() > 0 else u[:, :0]


def best_in_span_loss(features, target, rcond: float = 1e-10) -> float:
    """Population loss of the best predictor in the column span of ``features`` (N, n) — the exact orthogonal
    projection of ``target`` (N,) or (N, k) — relative to the zero predictor's: ‖(I − P) y‖^2 / ‖y‖^2."""
    y = np.asarray(target, dtype=np.float64)
    U = span_basis(features, rcond)
    resid = y - U @ (U.T @ y)
    return float((resid ** 2).sum() / (y ** 2).sum())


def expected_best_in_span_loss(features, p: int, rcond: float = 1e-10) -> float:
    """E_σ over the permuted tasks Ψ_σ (App. D) of the best-in-span population loss, relative to the zero
    predictor's, for a span of functions on the p^3 triples (``features``: (p^3, n), rows as :func:`all_triples`):
    1 − tr(U^T Σ U) / tr Σ, exact (no sampling of σ). App. D: ≥ :func:`kernel_span_bound` (p, n)."""
    U = span_basis(features, rcond)
    if U.shape[0] != p ** 3:
        raise ValueError(f"features have {U.shape[0]} rows; a span of functions on the triples needs p^3 = {p ** 3}.")
    return float(1 - np.einsum("ij,ij->", U, apply_permuted_task_covariance(U, p)) / p ** 2)


def expected_best_in_span_loss_pairs(pair_features, p: int, rcond: float = 1e-10) -> float:
    """The same for a matrix-valued kernel K ⊗ I_p (classification, Thm D.2): the span is V ⊗ R^p with V the column
    span of ``pair_features`` (p^2, n) over the p^2 pairs (rows as :func:`ordered_pairs`), so
    tr(U^T Σ U) = p · tr(U_V^T Σ_pair U_V) with Σ_pair the covariance between pairs with the same label slot.
    App. D: ≥ :func:`kernel_span_bound` (p, n · p)."""
    U = span_basis(pair_features, rcond)
    if U.shape[0] != p * p:
        raise ValueError(f"pair_features have {U.shape[0]} rows; a span of functions on the pairs needs p^2 = {p * p}.")
    return float(1 - p * np.einsum("ij,ij->", U, _pair_covariance_apply(U, p)) / p ** 2)


def span_features_regression(p: int, width: int, train, seed: int, kernel: str = "empirical") -> torch.Tensor:
    """K(x, x_t) for every triple x (rows, :func:`all_triples` order) and training triple x_t (columns): the
    functions whose span holds every kernel predictor Σ_t λ_t K(x_t, ·) (App. D). ``kernel``: the eNTK at the
    paper's init (:func:`pytorch_default_init`, ``seed``) or the expected NTK (Prop. B.3), as :func:`entk_regression`."""
    if kernel not in ("empirical", "expected"):
        raise ValueError(f"kernel={kernel!r} is not allowed: kernel must be 'empirical' or 'expected'.")
    x, train = _as_idx(all_triples(p)), _as_idx(train)
    if kernel == "empirical":
        W, V = pytorch_default_init(p, width, seed)
        return entk_regression_kernel(W, V, x, train)
    return expected_entk_regression(x, train, width, 1 / (3 * 2 * p), 9 / 5, 1 / (3 * width))


def span_features_pntk(p: int, width: int, train_pairs, seed: int) -> torch.Tensor:
    """pNTK(q, q_t) at the paper's init for every pair q (rows, :func:`ordered_pairs` order) and training pair q_t:
    the span V of :func:`expected_best_in_span_loss_pairs` for the kernel classifier of :func:`entk_classification`."""
    a, b = ordered_pairs(p)
    tr = _as_idx(train_pairs)
    W, V = pytorch_default_init(p, width, seed)
    return pntk_kernel(W, V, a, b, tr[:, 0], tr[:, 1])

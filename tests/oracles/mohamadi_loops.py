"""Reference for tests only: the training loops of Mohamadi et al. 2024 ("Why do you grok?") as they were in
src/repro/experiments/mohamadi2024_why_grok.py before they moved onto the batched trainer ``repro.training.trainer.train`` (copied verbatim,
with their helpers, and the optimizer helpers they called from ``repro.theory.mohamadi2024``, also verbatim).
``tests/test_trainer_mohamadi.py`` checks that the trainer reproduces every recorded array.
Do not import this from ``src/``.
"""
from __future__ import annotations

import math
import sys

import numpy as np
import torch

from repro.core.devices import resolve_device
from repro.experiments.mohamadi2024_why_grok import (ClassificationConfig, ClassificationResult, RegressionConfig,
                                                     RegressionResult)
from repro.theory import mohamadi2024 as th

# The optimizer helpers of repro.theory.mohamadi2024, as they were


def safe_cross_entropy_weights(logits: torch.Tensor, labels: torch.Tensor,
                               mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """∂(mean CE)/∂logits up to a positive per-run factor, computed without underflow (our addition).

    At the paper's step size 10 the float64 softmax becomes one-hot within a few hundred steps, the naive
    gradient is exactly 0 and the normalized step 0/0; normalizing removes the global factor, so this is exact.

    ``logits`` (R, N, p); ``labels`` (N,) or (R, N); ``mask`` (R, N) bool marks each run's training points
    (default: all). With logP_ic = log softmax, let m_r = max over run r's training points i and wrong
    classes c ≠ y_i of logP_ic. Returns (G, log_scale): G_ic = exp(logP_ic − m_r) for c ≠ y_i,
    G_{i,y_i} = −Σ_{c≠y_i} G_ic (zero off the mask), and log_scale_r = m_r − log n_r, so the true gradient
    of run r's mean cross-entropy w.r.t. the logits is exp(log_scale_r)·G_r. The largest |G| entry is ≥ 1,
    so G does not underflow even when the softmax is one-hot to machine precision (where the naive
    P − Y is exactly 0 and a normalized step would be 0/0). ``log_scale`` lets a regularizer be added exactly.
    """
    R, N, p = logits.shape
    labels = labels.expand(R, N) if labels.dim() == 1 else labels
    mask = torch.ones(R, N, dtype=torch.bool, device=logits.device) if mask is None else mask
    logp = torch.log_softmax(logits, dim=-1)
    excluded = torch.nn.functional.one_hot(labels, p).bool() | ~mask[:, :, None]
    wrong = logp.masked_fill(excluded, -math.inf)
    m = wrong.amax(dim=(1, 2))  # (R,)
    G = torch.exp(wrong - m[:, None, None])  # exp(-inf) = 0 on labels and off the mask
    G = G - torch.nn.functional.one_hot(labels, p) * G.sum(-1, keepdim=True)
    return G, m - torch.log(mask.sum(1).to(logits.dtype))


def linf_subgradient(params: list[torch.Tensor]) -> list[torch.Tensor]:
    """A subgradient of ‖θ‖∞ per run (Eq. 2.2's regularizer): sign(θ_i) on the entries achieving the max
    |θ_i| (over all tensors), split equally among ties — what ``jax.grad`` of ``max(abs(θ))`` returns.
    Each tensor has a leading run axis R."""
    R = params[0].shape[0]
    flat_abs = torch.cat([t.detach().abs().reshape(R, -1) for t in params], dim=1)
    top = flat_abs.amax(dim=1)  # (R,)
    out, n_ties = [], torch.zeros(R, dtype=params[0].dtype, device=params[0].device)
    for t in params:
        shape = (R,) + (1,) * (t.dim() - 1)
        hit = (t.detach().abs() == top.view(shape)).to(t.dtype)
        n_ties = n_ties + hit.reshape(R, -1).sum(1)
        out.append(torch.sign(t.detach()) * hit)
    return [g / n_ties.view((R,) + (1,) * (g.dim() - 1)) for g in out]


def normalized_step(params: list[torch.Tensor], grads: list[torch.Tensor], lr) -> None:
    """θ ← θ − η ∇/‖∇‖₂ per run (App. A.1), in place: every run moves exactly Euclidean length η (or not
    at all where its gradient is exactly zero). ``lr``: float or (R,) tensor."""
    R = params[0].shape[0]
    sq = sum((g.reshape(R, -1) ** 2).sum(1) for g in grads)
    norm = torch.sqrt(sq)
    factor = torch.where(norm > 0, torch.as_tensor(lr, dtype=norm.dtype) / torch.where(norm > 0, norm, 1.0), 0.0)
    with torch.no_grad():
        for t, g in zip(params, grads):
            t.sub_(factor.view((R,) + (1,) * (t.dim() - 1)) * g)


# The loops' own helpers and the loops


def init_runs(p: int, width: int, seeds, scales) -> tuple[torch.Tensor, torch.Tensor]:
    """Stack R independently initialized networks (PyTorch default init × α): W (R, h, 2p), V (R, p, h)."""
    pairs = [th.pytorch_default_init(p, width, int(s), float(a)) for s, a in zip(seeds, scales)]
    return torch.stack([w for w, _ in pairs]), torch.stack([v for _, v in pairs])


def forward_pairs(W: torch.Tensor, V: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Eq. 2.1 for every run on shared pairs: (R, n, p). The one-hot first layer is a column gather."""
    p = W.shape[2] // 2
    z = W[:, :, a] + W[:, :, p + b]  # (R, h, n)
    return (V @ z.square()).transpose(1, 2)


def forward_triples(W: torch.Tensor, V: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """g(θ; (a, b, c)) = Σ_k V_ck z_k(a, b)^2 for every run on shared triples ``x`` (n, 3): (R, n)."""
    p = W.shape[2] // 2
    z = W[:, :, x[:, 0]] + W[:, :, p + x[:, 1]]  # (R, h, n)
    return (V[:, x[:, 2], :] * z.transpose(1, 2).square()).sum(-1)


def backward_pairs(W, V, z, G, onehot_a, onehot_b) -> list[torch.Tensor]:
    """Gradients of Σ_{r,i,c} G_ric f_c(θ_r; x_i) w.r.t. (W, V), by hand (3 batched matmuls, no autograd).

    With s = z^2 and f = V s: ∂/∂V = G^T s^T; ∂/∂z = 2 z ⊙ (V^T G^T); the one-hot first layer sends
    ∂/∂z of pair (a, b) to column a of Q and column b of R, a matmul with the (n, p) one-hot matrices.
    """
    Gt = G.transpose(1, 2)  # (R, p, n)
    gV = Gt @ z.square().transpose(1, 2)  # (R, p, h)
    gz = 2 * z * (V.transpose(1, 2) @ Gt)  # (R, h, n)
    return [torch.cat([gz @ onehot_a, gz @ onehot_b], dim=2), gV]


def grid_preacts(W: torch.Tensor) -> torch.Tensor:
    """z_k(a, b) = Q_ka + R_kb for every run on all p^2 pairs in row-major order (:func:`th.ordered_pairs`):
    (R, h, p^2), a broadcast sum instead of a gather."""
    p = W.shape[2] // 2
    R, h = W.shape[:2]
    return (W[:, :, :p, None] + W[:, :, None, p:]).reshape(R, h, p * p)


def backward_grid(W, V, z, G) -> list[torch.Tensor]:
    """:func:`backward_pairs` on all p^2 pairs in row-major order: ∂/∂Q_ka sums ∂/∂z over b and ∂/∂R_kb sums
    it over a, so the one-hot matmuls become two reductions of the (R, h, p, p) grid (same gradient, fewer
    flops)."""
    p = W.shape[2] // 2
    R, h = W.shape[:2]
    Gt = G.transpose(1, 2)  # (R, p, n)
    gV = Gt @ z.square().transpose(1, 2)  # (R, p, h)
    gz = (2 * z * (V.transpose(1, 2) @ Gt)).view(R, h, p, p)
    return [torch.cat([gz.sum(3), gz.sum(2)], dim=2), gV]


def linf_norms(W: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """‖θ‖∞ per run (R,)."""
    return torch.maximum(W.abs().amax(dim=(1, 2)), V.abs().amax(dim=(1, 2)))


def _combine_with_regularizer(grads, reg, log_data_scale, lam: float):
    """Exact λ-weighted sum e^{s}·g_data + λ·g_reg, rescaled by e^{−s} (a normalized step ignores the
    per-run factor): g_data + λ e^{−s} g_reg, with the exponent capped so it cannot overflow."""
    if lam == 0:
        return grads
    coef = torch.exp(torch.clamp(math.log(lam) - log_data_scale, max=600.0))
    return [g + coef.view(-1, 1, 1) * r for g, r in zip(grads, reg)]



def _train_classification(cfg: ClassificationConfig) -> ClassificationResult:
    p = cfg.p
    a, b = (torch.as_tensor(v) for v in th.ordered_pairs(p))  # row-major: grid_preacts / backward_grid rely on it
    labels = (a + b) % p
    masks = cfg.train_masks()
    W, V = init_runs(p, cfg.width, cfg.init_seeds, cfg.init_scales)
    rows = list(range(cfg.n_runs)) if cfg.ntk_runs is None else sorted(set(cfg.ntk_runs))
    train_idx = {r: torch.nonzero(masks[r]).squeeze(1) for r in rows}

    def first_logit_ntk():
        return [th.entk_logit_kernel(W[r], V[r], a[train_idx[r]], b[train_idx[r]]) for r in rows]

    log = {k: [] for k in ("step", "train_acc", "test_acc", "train_loss", "linf", "margin", "l2", "unmirrored_acc")}
    # Test pairs (a, b) whose mirror (b, a) is not a training pair either: a net that only learned a + b = b + a
    # cannot answer them (the pairs are ordered, N = p^2).
    grid = masks.view(cfg.n_runs, p, p)
    unmirrored = (~grid & ~grid.transpose(1, 2)).reshape(cfg.n_runs, -1)
    ntk_log = {"step": [], "change": [], "distance": [], "norm": [], "fit_distance": []}
    K0 = first_logit_ntk() if cfg.ntk_every else None
    K_fit = {}  # run -> its eNTK at the first eNTK step with 100 % training accuracy
    fit_step = {}
    n_train = masks.sum(1).double()
    for step in range(cfg.steps + 1):
        z = grid_preacts(W)  # (R, h, p^2)
        logits = (V @ z.square()).transpose(1, 2)  # (R, p^2, p), Eq. 2.1
        ntk_now = cfg.ntk_every and (step % cfg.ntk_every == 0 or step == cfg.steps)
        if step % cfg.eval_every == 0 or step == cfg.steps or ntk_now:
            with torch.no_grad():
                out = logits
                correct = (out.argmax(-1) == labels).double()
                train_acc = (correct * masks).sum(1) / n_train
        if step % cfg.eval_every == 0 or step == cfg.steps:
            with torch.no_grad():
                ce = torch.nn.functional.cross_entropy(out.reshape(-1, p), labels.repeat(cfg.n_runs),
                                                       reduction="none").view(cfg.n_runs, -1)
                true = out.gather(-1, labels.expand(cfg.n_runs, -1)[..., None]).squeeze(-1)
                others = out.scatter(-1, labels.expand(cfg.n_runs, -1)[..., None], -math.inf).amax(-1)
                q = torch.where(masks, true - others, math.inf).amin(1)
                lin = linf_norms(W, V)
                log["step"].append(step)
                log["train_acc"].append(train_acc)
                log["test_acc"].append((correct * ~masks).sum(1) / (~masks).sum(1))
                log["train_loss"].append((ce * masks).sum(1) / n_train)
                log["linf"].append(lin)
                log["margin"].append(q / lin ** 3)
                log["l2"].append(torch.sqrt(W.square().sum((1, 2)) + V.square().sum((1, 2))))
                log["unmirrored_acc"].append((correct * unmirrored).sum(1) / unmirrored.sum(1).clamp(min=1))
        if ntk_now:
            Kt = first_logit_ntk()
            for r, k in zip(rows, Kt):
                if r not in K_fit and float(train_acc[r]) == 1.0:
                    K_fit[r], fit_step[r] = k, step
            ntk_log["step"].append(step)
            ntk_log["change"].append([float(torch.linalg.norm(k - k0)) for k, k0 in zip(Kt, K0)])
            ntk_log["distance"].append([th.kernel_distance(k0, k) for k, k0 in zip(Kt, K0)])
            ntk_log["norm"].append([float(torch.linalg.norm(k)) for k in Kt])
            ntk_log["fit_distance"].append([th.kernel_distance(K_fit[r], k) if r in K_fit else math.nan
                                            for r, k in zip(rows, Kt)])
        if step == cfg.steps:
            break
        G, log_scale = safe_cross_entropy_weights(logits, labels, masks)
        grads = backward_grid(W, V, z, G)
        if cfg.optimizer == "gd":  # the true gradient: exp(log_scale)·G is ∂(mean CE)/∂logits
            scale = torch.exp(log_scale).view(-1, 1, 1)
            reg = linf_subgradient([W, V])
            for t, g, r in zip((W, V), grads, reg):
                t.sub_(cfg.lr * (scale * g + cfg.linf_reg * r))
            continue
        data_log_scale = log_scale if cfg.exact_regularizer else torch.zeros_like(log_scale)
        grads = _combine_with_regularizer(grads, linf_subgradient([W, V]), data_log_scale, cfg.linf_reg)
        normalized_step([W, V], grads, cfg.lr)

    stack = lambda k: torch.stack(log[k], 1).numpy()
    K = len(ntk_log["step"])

    def per_run(values, k):  # (k, len(rows)) -> (R, k), NaN for runs without an eNTK
        out = np.full((cfg.n_runs, k), np.nan)
        if rows and k:
            out[rows] = np.array(values, dtype=float).reshape(k, len(rows)).T
        return out

    return ClassificationResult(
        config=cfg, steps=np.array(log["step"]), train_acc=stack("train_acc"), test_acc=stack("test_acc"),
        train_loss=stack("train_loss"), linf=stack("linf"), margin=stack("margin"),
        ntk_steps=np.array(ntk_log["step"], dtype=int),
        ntk_change=per_run(ntk_log["change"], K), ntk_distance=per_run(ntk_log["distance"], K),
        ntk_norm0=per_run([float(torch.linalg.norm(k)) for k in K0], 1)[:, 0] if K0 else np.full(cfg.n_runs, np.nan),
        masks=masks.numpy(), final_W=W.numpy(), final_V=V.numpy(), l2=stack("l2"),
        ntk_norm=per_run(ntk_log["norm"], K),
        ntk_fit_step=np.array([fit_step.get(r, -1) for r in range(cfg.n_runs)]),
        ntk_fit_distance=per_run(ntk_log["fit_distance"], K), unmirrored_acc=stack("unmirrored_acc"))



def _train_regression(cfg: RegressionConfig, progress: bool = False) -> RegressionResult:
    p, dev = cfg.p, resolve_device(cfg.device)
    train_x, mask = cfg.split()
    train_x = torch.as_tensor(train_x, device=dev)
    y_train = th.regression_targets(train_x.cpu(), p).to(dev)
    R = len(cfg.run_scales)
    W, V = init_runs(p, cfg.width, cfg.run_seeds, cfg.run_scales)
    W, V = W.to(dev).requires_grad_(True), V.to(dev).requires_grad_(True)
    a, b = (torch.as_tensor(v, device=dev) for v in th.ordered_pairs(p))
    target_all = p * torch.nn.functional.one_hot((a + b) % p, p).double()  # (p^2, p): y over all triples
    mask_t = torch.as_tensor(mask.reshape(p * p, p), device=dev)
    test_y2 = (target_all.square() * ~mask_t).sum()
    n_test = (~mask_t).sum()
    ntk_x = th.all_triples(p)[np.random.default_rng(cfg.data_seed + 1).permutation(p ** 3)[: min(cfg.ntk_points, p ** 3)]]
    ntk_x = torch.as_tensor(ntk_x, device=dev)

    def kernels():
        return [th.entk_regression_kernel(W[r].detach(), V[r].detach(), ntk_x) for r in range(R)]

    K0 = kernels()
    log = {k: [] for k in ("step", "train_loss", "test_loss", "train_acc", "pair_acc", "linf")}
    ntk_log = {"step": [], "change": [], "distance": []}
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=cfg.steps, desc=f"regression GD, {R} runs", unit="step", unit_scale=True, file=sys.stderr,
                   mininterval=2.0)
    for step in range(cfg.steps + 1):
        if bar is not None and step and step % 1000 == 0:
            bar.update(1000)
        g = forward_triples(W, V, train_x)  # (R, n)
        sq = (g - y_train).square()
        if step % cfg.eval_every == 0 or step == cfg.steps:
            with torch.no_grad():
                out = forward_pairs(W.detach(), V.detach(), a, b)  # (R, p^2, p)
                err = (out - target_all).square()
                log["step"].append(step)
                log["train_loss"].append(sq.detach().mean(1) / p)
                log["test_loss"].append((err * ~mask_t).sum((1, 2)) / test_y2)
                log["train_acc"].append((sq.detach() < (p / 2) ** 2).double().mean(1))
                log["pair_acc"].append((out.argmax(-1) == (a + b) % p).double().mean(1))
                log["linf"].append(linf_norms(W.detach(), V.detach()))
        if step % cfg.ntk_every == 0 or step == cfg.steps:
            Kt = kernels()
            ntk_log["step"].append(step)
            ntk_log["change"].append([float(torch.linalg.norm(k - k0)) for k, k0 in zip(Kt, K0)])
            ntk_log["distance"].append([th.kernel_distance(k0, k) for k, k0 in zip(Kt, K0)])
        if step == cfg.steps:
            break
        loss = sq.mean(1).sum()  # sum over runs: run r's gradient is its own loss's gradient
        gW, gV = torch.autograd.grad(loss, [W, V])
        with torch.no_grad():
            if cfg.linf_reg:
                rW, rV = linf_subgradient([W, V])
                gW, gV = gW + cfg.linf_reg * rW, gV + cfg.linf_reg * rV
            W -= cfg.lr * gW
            V -= cfg.lr * gV

    if bar is not None:
        bar.close()
    stack = lambda k: torch.stack(log[k], 1).cpu().numpy()
    return RegressionResult(
        config=cfg, steps=np.array(log["step"]), train_loss=stack("train_loss"), test_loss=stack("test_loss"),
        train_acc=stack("train_acc"), pair_acc=stack("pair_acc"), linf=stack("linf"),
        ntk_steps=np.array(ntk_log["step"], dtype=int), ntk_change=np.array(ntk_log["change"]).T,
        ntk_distance=np.array(ntk_log["distance"]).T,
        ntk_norm0=np.array([float(torch.linalg.norm(k)) for k in K0]))



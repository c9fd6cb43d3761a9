"""Hand-written backward pass for embedding + MLP models (the toy models of the phase-diagram chapters).

Autograd is exact but general: for a 3-layer MLP it records a graph every step, keeps activations it
could overwrite, and differentiates through the *whole* batch even where the loss weight is zero (the
validation rows, which a full-batch step forwards only to log metrics). For the tiny models whose
phase diagrams need 10^6-10^7 run-steps that bookkeeping costs more than the matrix products.

:class:`MLPGradient` computes the same gradients by the chain rule, layer by layer, with batched
matrix products over the run axis, and only over the rows that carry loss weight. It supports
:class:`~repro.models.networks.EmbedMLP` with ``combine`` in {sum, concat} and ``activation`` in {tanh, relu},
and the losses of :func:`repro.training.trainer.per_sample_loss` (MSE averaged over output dims, cross-entropy).
``tests/test_fastgrad.py`` checks it against torch autograd (float64, relative difference <= 1e-10).
:class:`RelationGradient` does the same for the GenEFT encoder–decoder (:class:`~repro.models.networks.RelationModel`)
under binary cross-entropy.
Anything else falls back to autograd in :func:`repro.training.trainer.train`.

:class:`QuadraticGradient` does the same for Mohamadi et al. 2024's quadratic network
(:class:`~repro.models.networks.QuadraticNet`) under cross-entropy, with an underflow-safe output gradient
(:func:`safe_cross_entropy_weights`): at their normalized-GD step length 10 the float64 softmax saturates
within a few hundred steps and autograd's gradient becomes exactly zero, while the safe one keeps its
direction. :func:`linf_subgradient` is the subgradient of their ℓ∞ regularizer (Eq. 2.2).
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from repro.models.networks import EmbedMLP, QuadraticNet, RelationModel

FAST_ACTIVATIONS = ("tanh", "relu")
FAST_COMBINES = ("sum", "concat")
SUPPORTED = (f"EmbedMLP with activation in {FAST_ACTIVATIONS}, combine in {FAST_COMBINES} and loss 'mse' or 'ce'; "
             "RelationModel with mode 'concat', hidden_layers >= 1 and loss 'bce'; QuadraticNet with loss 'ce'")


def supports(model, loss: str) -> bool:
    """Whether a hand-written gradient (:func:`gradient`, :class:`QuadraticGradient`) can differentiate this
    model and loss (else use autograd)."""
    if isinstance(model, QuadraticNet):
        return loss == "ce"
    if isinstance(model, RelationModel):
        return model.config.mode == "concat" and model.config.hidden_layers >= 1 and loss == "bce"
    return (
        isinstance(model, EmbedMLP)
        and model.config.activation in FAST_ACTIVATIONS
        and model.config.combine in FAST_COMBINES
        and loss in ("mse", "ce")
    )


def gradient(model, loss: str):
    """The hand-written gradient of ``model`` under ``loss``: :class:`MLPGradient` or :class:`RelationGradient`."""
    if not supports(model, loss):
        raise ValueError(f"no hand-written gradient for {type(model).__name__} with loss {loss!r}; supported: {SUPPORTED}.")
    return RelationGradient(model) if isinstance(model, RelationModel) else MLPGradient(model)


class MLPGradient:
    """Forward with cached activations and the matching backward, batched over runs (leading axis R)."""

    # Full batch: forward the rows that carry loss weight in any run, shared by all runs (the toy models'
    # runs mostly share one split, and a shared batch is one index for all runs)
    per_run_rows = False

    def __init__(self, model: EmbedMLP):
        if not supports(model, "mse"):
            raise ValueError(
                f"MLPGradient supports EmbedMLP with activation in {FAST_ACTIVATIONS} and combine in {FAST_COMBINES}; "
                f"got {type(model).__name__}."
            )
        self.model = model
        self.n_layers = len(model.widths) - 1
        self.tanh = model.config.activation == "tanh"
        self.concat = model.config.combine == "concat"
        self.d_embed = model.config.d_embed

    def forward(self, params: dict[str, torch.Tensor], x: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Output ``(R, n, d_out)`` for the pairs ``x`` (n, 2), and each layer's input (the cache)."""
        h = self.model.embed_pairs(params["embed"], x)
        inputs = []
        for k in range(self.n_layers):
            inputs.append(h)
            h = torch.baddbmm(params[f"b{k}"].unsqueeze(1), h, params[f"W{k}"])
            if self.model.activated(k):
                h = h.tanh_() if self.tanh else h.relu_()
        return h, inputs

    @staticmethod
    def output_gradient(out: torch.Tensor, targets: torch.Tensor | None, labels: torch.Tensor, weights: torch.Tensor,
                        loss: str) -> torch.Tensor:
        """d(objective)/d(out) for objective = sum_r sum_n weights[r, n] * loss(out[r, n])."""
        if loss == "mse":  # loss = mean_j (out_j - t_j)^2
            return (out - targets).mul_((weights * (2.0 / out.shape[-1])).unsqueeze(-1))
        # cross-entropy: softmax - onehot
        grad = F.softmax(out, dim=-1)
        grad.scatter_add_(-1, labels.expand(out.shape[0], -1).unsqueeze(-1),
                          torch.full((*out.shape[:2], 1), -1.0, dtype=out.dtype, device=out.device))
        return grad.mul_(weights.unsqueeze(-1))

    def backward(self, params: dict[str, torch.Tensor], x: torch.Tensor, inputs: list[torch.Tensor],
                 dout: torch.Tensor) -> dict[str, torch.Tensor]:
        """Gradients of every parameter, given ``dout`` for the first ``n = dout.shape[1]`` rows of the cache."""
        n = dout.shape[1]
        grads = {}
        d = dout
        for k in reversed(range(self.n_layers)):
            a = inputs[k][:, :n]
            grads[f"W{k}"] = torch.bmm(a.transpose(1, 2), d)
            grads[f"b{k}"] = d.sum(1)
            d = torch.bmm(d, params[f"W{k}"].transpose(1, 2))
            if k > 0 and self.model.activated(k - 1):  # through the activation that produced this layer's input
                if self.tanh:
                    d = torch.ops.aten.tanh_backward(d, a)  # d * (1 - tanh^2)
                else:
                    d = torch.ops.aten.threshold_backward(d, a, 0)  # d * (relu output > 0)
        embed = params["embed"]
        d_embed = torch.zeros_like(embed)
        if self.model.config.input_scale != 1.0:  # the input was input_scale * combine(E_a, E_b)
            d = d * self.model.config.input_scale
        first, second = (d[..., : self.d_embed], d[..., self.d_embed :]) if self.concat else (d, d)
        if x.dim() == 2:  # the same pairs for every run
            d_embed.index_add_(1, x[:n, 0], first)
            d_embed.index_add_(1, x[:n, 1], second)
        else:  # per-run minibatches (R, B, 2)
            width = first.shape[-1]
            d_embed.scatter_add_(1, x[:, :n, 0:1].expand(-1, -1, width), first)
            d_embed.scatter_add_(1, x[:, :n, 1:2].expand(-1, -1, width), second)
        grads["embed"] = d_embed
        return grads


# --------------------------------------------------------------------------------------------------
# Mohamadi et al. 2024's quadratic network (Eq. 2.1) under cross-entropy


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
    # one-hot by comparison: F.one_hot validates its labels on the host (two synchronisations a call, every step)
    onehot = labels[..., None] == torch.arange(p, device=labels.device)
    excluded = onehot | ~mask[:, :, None]
    wrong = logp.masked_fill(excluded, -math.inf)
    m = wrong.amax(dim=(1, 2))  # (R,)
    G = torch.exp(wrong - m[:, None, None])  # exp(-inf) = 0 on labels and off the mask
    G = G - onehot.to(G.dtype) * G.sum(-1, keepdim=True)
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


class QuadraticGradient:
    """Gradient of each run's mean cross-entropy on its training pairs for :class:`~repro.models.networks.QuadraticNet`,
    by hand (three batched matmuls), in the underflow-safe form of :func:`safe_cross_entropy_weights`: it
    returns (grads, log_scale) with the true gradient exp(log_scale_r)·grads_r. Full batch: every step
    forwards all the data's pairs (the evaluation rides on that forward). On the full grid of p^2 pairs in
    row-major order (:func:`repro.theory.mohamadi2024.ordered_pairs`) the first layer's gradient is two
    reductions of the (R, h, p, p) grid; on any other set of pairs, a matmul with one-hot matrices."""

    def __init__(self, model: QuadraticNet, inputs: torch.Tensor):
        if not isinstance(model, QuadraticNet) or inputs.dim() != 2 or inputs.shape[1] != 2:
            raise ValueError("QuadraticGradient differentiates QuadraticNet on pairs (a, b): inputs of shape (n, 2).")
        self.model, self.p = model, model.config.p
        p = self.p
        grid = torch.stack(torch.meshgrid(torch.arange(p), torch.arange(p), indexing="ij"), -1).reshape(-1, 2)
        self.grid = inputs.shape[0] == p * p and torch.equal(inputs.cpu(), grid)
        if not self.grid:
            self.onehot_a = F.one_hot(inputs[:, 0], p).to(torch.float64)
            self.onehot_b = F.one_hot(inputs[:, 1], p).to(torch.float64)

    def grid_preacts(self, W: torch.Tensor) -> torch.Tensor:
        """z_k(a, b) = Q_ka + R_kb on all p^2 pairs in row-major order: (R, h, p^2), a broadcast sum instead of
        a gather (the same numbers)."""
        p = self.p
        R, h = W.shape[:2]
        return (W[:, :, :p, None] + W[:, :, None, p:]).reshape(R, h, p * p)

    def __call__(self, params: dict[str, torch.Tensor], x: torch.Tensor, labels: torch.Tensor,
                 train_mask: torch.Tensor, record=None) -> tuple[dict[str, torch.Tensor], torch.Tensor]:
        """(grads, log_scale) at ``params`` for the pairs ``x`` (n, 2) with ``labels`` (n,) and each run's
        training pairs ``train_mask`` (R, n); ``record(out, params)`` sees the logits of every pair."""
        W, V = self.model.weights(params["W"], params["V"])  # Eq. 2.1's weights (the NTK parametrization scales them)
        z = self.grid_preacts(W) if self.grid else self.model.preacts(W, x[:, 0], x[:, 1])
        logits = (V @ z.square()).transpose(1, 2)  # (R, n, p), Eq. 2.1
        if record is not None:
            record(logits, params)
        G, log_scale = safe_cross_entropy_weights(logits, labels, train_mask)
        Gt = G.transpose(1, 2)  # (R, p, n)
        # f = V s with s = z^2: ∂/∂V = G^T s^T; ∂/∂z = 2 z ⊙ (V^T G^T)
        gV = Gt @ z.square().transpose(1, 2)  # (R, p, h)
        gz = 2 * z * (V.transpose(1, 2) @ Gt)  # (R, h, n)
        if self.grid:  # ∂/∂Q_ka sums ∂/∂z over b, ∂/∂R_kb sums it over a
            gz = gz.view(*gz.shape[:2], self.p, self.p)
            gW = torch.cat([gz.sum(3), gz.sum(2)], dim=2)
        else:  # the one-hot first layer sends ∂/∂z of pair (a, b) to column a of Q and column b of R
            gW = torch.cat([gz @ self.onehot_a.to(gz.dtype), gz @ self.onehot_b.to(gz.dtype)], dim=2)
        m_w, m_v = self.model.config.multipliers  # chain rule to the parameters: W = m_W θ_W, V = m_V θ_V
        if (m_w, m_v) != (1.0, 1.0):
            gW, gV = gW * m_w, gV * m_v
        return {"W": gW, "V": gV}, log_scale


class RelationGradient:
    """Forward and backward of the GenEFT encoder–decoder (:class:`~repro.models.networks.RelationModel`, mode concat,
    at least one hidden layer) under binary cross-entropy, batched over runs.

    Written for the phase diagrams of Baek, Liu & Tegmark 2024 (Figs. 5–6: 10^7–10^9 run-steps), which it
    makes several times cheaper than autograd without changing what a run computes:

    * full batch, each run forwards only its own training pairs (``per_run_rows``: the trainer gathers them,
      padded with zero-weight pairs to the largest training set), not the union of every run's;
    * the first layer of the concatenation model is E_i W_a + E_j W_b + b, so it is built from two (n, width)
      tables instead of an (N, 2d) input, and its backward sums the pairs' gradients over j and over i;
    * tanh z is evaluated as 2·sigmoid(2z) − 1 (the same function; PyTorch's vectorized sigmoid is several
      times faster than its tanh on CPU), and the backward pass is the chain rule, layer by layer.

    Every pair (i, j) may occur at most once in a run's rows. ``tests/test_trainer_relations.py`` checks it against
    autograd in float64, and the trainer with it against the loop it replaced (bit for bit in float32).
    """

    per_run_rows = True

    def __init__(self, model: RelationModel):
        if not supports(model, "bce"):
            raise ValueError(f"RelationGradient supports {SUPPORTED.split('; ')[1]}; got {type(model).__name__}.")
        c = model.config
        self.n, self.d, self.width, self.depth = c.n, c.d_embed, c.width, c.hidden_layers
        self._storage: dict[str, torch.Tensor] = {}  # reused activation buffers: no page faults every step
        self._spread = None  # the first layer's dZ spread over all n² pairs of every run; zero off the rows in use
        self._spread_x = None  # the pairs whose rows of _spread are in use, and those rows
        self._spread_rows = None

    def _buffer(self, name: str, shape: tuple, like: torch.Tensor) -> torch.Tensor:
        numel = math.prod(shape)
        buf = self._storage.get(name)
        if buf is None or buf.numel() < numel or buf.dtype != like.dtype or buf.device != like.device:
            buf = self._storage[name] = torch.empty(numel, dtype=like.dtype, device=like.device)
        return buf[:numel].view(shape)

    @staticmethod
    def _tanh_from_double_(z2: torch.Tensor) -> torch.Tensor:
        """tanh z from 2z, in place: 2 sigmoid(2z) − 1."""
        return torch.sigmoid(z2, out=z2).mul_(2).sub_(1)

    def forward(self, params: dict[str, torch.Tensor], x: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Logits ``(R, K, 1)`` of the pairs ``x``, shared (K, 2) or per run (R, K, 2), and each hidden layer's
        tanh (the cache; buffers reused by the next call)."""
        n, d, width, depth = self.n, self.d, self.width, self.depth
        emb, w_in, b_in = params["embed"], params["W0"], params["b0"]
        runs, k = emb.shape[0], x.shape[-2]
        hidden = [self._buffer(f"h{layer}", (runs, k, width), emb) for layer in range(depth)]
        tab_i = torch.bmm(emb, w_in[:, :d]).mul_(2)  # 2 E_i W_a: (R, n, width)
        tab_j = torch.bmm(emb, w_in[:, d:]).mul_(2)
        if x.dim() == 2:
            h = torch.index_select(tab_i, 1, x[:, 0], out=hidden[0])
            h.add_(torch.index_select(tab_j, 1, x[:, 1]))
        else:  # rows r·n + i of the (R·n, width) tables
            offset = torch.arange(runs, device=x.device)[:, None] * n
            h = torch.index_select(tab_i.view(-1, width), 0, (x[..., 0] + offset).view(-1),
                                   out=hidden[0].view(-1, width)).view(runs, k, width)
            h.add_(torch.index_select(tab_j.view(-1, width), 0, (x[..., 1] + offset).view(-1)).view(runs, k, width))
        h.add_(b_in[:, None, :], alpha=2)  # 2 z_1
        self._tanh_from_double_(h)
        for layer in range(1, depth):
            h = torch.baddbmm(params[f"b{layer}"].unsqueeze(1), h, params[f"W{layer}"], beta=2, alpha=2,
                              out=hidden[layer])  # 2 z
            self._tanh_from_double_(h)
        # the output layer as (1, width) @ (width, K): a matrix-vector product is much faster this way round
        out = torch.baddbmm(params[f"b{depth}"].unsqueeze(-1), params[f"W{depth}"].transpose(1, 2), h.transpose(1, 2))
        return out.transpose(1, 2), hidden

    @staticmethod
    def output_gradient(out: torch.Tensor, targets, labels: torch.Tensor, weights: torch.Tensor, loss: str) -> torch.Tensor:
        """d(objective)/d(logit) for objective = sum_r sum_k weights[r, k] * BCE(logit[r, k], labels[r, k])."""
        if loss != "bce":
            raise ValueError(f"loss={loss!r} is not allowed for RelationGradient: it differentiates loss='bce'.")
        g = torch.sigmoid(out[..., 0]).sub_(labels.to(out.dtype)).mul_(weights)  # σ(z) − y
        return g.unsqueeze(-1)

    def _spread_rows_for(self, x: torch.Tensor, runs: int) -> torch.Tensor:
        """Rows r·n² + i·n + j of ``_spread`` for the pairs ``x``; clears the rows of the previous pairs when
        the pairs change (each step reuses the rows, and only they are nonzero)."""
        if x is self._spread_x:
            return self._spread_rows
        n = self.n
        pair = x[..., 0] * n + x[..., 1]
        rows = (pair + torch.arange(runs, device=x.device)[:, None] * (n * n)).view(-1)
        if torch.unique(rows).numel() != rows.numel():
            raise ValueError("RelationGradient needs each pair (i, j) at most once per run; these inputs repeat one.")
        if self._spread is not None and self._spread_rows is not None:
            self._spread.index_fill_(0, self._spread_rows, 0)
        self._spread_x, self._spread_rows = x, rows
        return rows

    def backward(self, params: dict[str, torch.Tensor], x: torch.Tensor, hidden: list[torch.Tensor],
                 dout: torch.Tensor) -> dict[str, torch.Tensor]:
        """Gradients of every parameter, given ``dout`` (R, K, 1) for the pairs ``x`` of the cached forward."""
        n, d, width, depth = self.n, self.d, self.width, self.depth
        g = dout[..., 0]
        runs, k = g.shape
        dz = self._buffer("dz", (runs, k, width), g)
        dh = self._buffer("dh", (runs, k, width), g)
        grads = {f"W{depth}": torch.bmm(g.unsqueeze(1), hidden[depth - 1]).transpose(1, 2),  # (1, K) @ (K, width)
                 f"b{depth}": torch.sum(g, 1, keepdim=True)}
        torch.mul(g.unsqueeze(-1), params[f"W{depth}"].transpose(1, 2), out=dh)
        torch.ops.aten.tanh_backward.grad_input(dh, hidden[depth - 1], grad_input=dz)  # dh (1 − tanh²)
        for layer in range(depth - 1, 0, -1):
            grads[f"W{layer}"] = torch.bmm(hidden[layer - 1].transpose(1, 2), dz)
            grads[f"b{layer}"] = torch.sum(dz, 1)
            torch.bmm(dz, params[f"W{layer}"].transpose(1, 2), out=dh)
            torch.ops.aten.tanh_backward.grad_input(dh, hidden[layer - 1], grad_input=dz)
        grads["b0"] = torch.sum(dz, 1)
        # d loss / d (E_i W_a) and d (E_j W_b), per element: dZ spread over all n² pairs, then summed over j and
        # over i (zero off the pairs' rows, which are distinct)
        if self._spread is None or self._spread.shape[0] < runs * n * n or self._spread.dtype != g.dtype \
                or self._spread.device != g.device:
            self._spread = torch.zeros(runs * n * n, width, dtype=g.dtype, device=g.device)
            self._spread_x = self._spread_rows = None
        rows = self._spread_rows_for(x, runs)
        d_all = self._spread[: runs * n * n].index_copy_(0, rows, dz.view(-1, width)).view(runs, n, n, width)
        d_p, d_q = d_all.sum(2), d_all.sum(1)
        emb, w_in = params["embed"], params["W0"]
        g_in = torch.empty_like(w_in)
        g_in[:, :d] = torch.bmm(emb.transpose(1, 2), d_p)
        g_in[:, d:] = torch.bmm(emb.transpose(1, 2), d_q)
        grads["W0"] = g_in
        grads["embed"] = torch.bmm(d_p, w_in[:, :d].transpose(1, 2)).add_(torch.bmm(d_q, w_in[:, d:].transpose(1, 2)))
        return grads

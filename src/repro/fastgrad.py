"""Hand-written backward pass for embedding + MLP models (the toy models of the phase-diagram chapters).

Autograd is exact but general: for a 3-layer MLP it records a graph every step, keeps activations it
could overwrite, and differentiates through the *whole* batch even where the loss weight is zero (the
validation rows, which a full-batch step forwards only to log metrics). For the tiny models whose
phase diagrams need 10^6-10^7 run-steps that bookkeeping costs more than the matrix products.

:class:`MLPGradient` computes the same gradients by the chain rule, layer by layer, with batched
matrix products over the run axis, and only over the rows that carry loss weight. It supports
:class:`~repro.models.EmbedMLP` with ``combine`` in {sum, concat} and ``activation`` in {tanh, relu},
and the losses of :func:`repro.train.per_sample_loss` (MSE averaged over output dims, cross-entropy).
``tests/test_fastgrad.py`` checks it against torch autograd (float64, relative difference <= 1e-10).
Anything else falls back to autograd in :func:`repro.train.train`.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from .models import EmbedMLP

FAST_ACTIVATIONS = ("tanh", "relu")
FAST_COMBINES = ("sum", "concat")


def supports(model, loss: str) -> bool:
    """Whether :class:`MLPGradient` can differentiate this model and loss (else use autograd)."""
    return (
        isinstance(model, EmbedMLP)
        and model.config.activation in FAST_ACTIVATIONS
        and model.config.combine in FAST_COMBINES
        and loss in ("mse", "ce")
    )


class MLPGradient:
    """Forward with cached activations and the matching backward, batched over runs (leading axis R)."""

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
            if k < self.n_layers - 1:
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
            if k > 0:  # through the activation that produced this layer's input (one fused kernel each)
                if self.tanh:
                    d = torch.ops.aten.tanh_backward(d, a)  # d * (1 - tanh^2)
                else:
                    d = torch.ops.aten.threshold_backward(d, a, 0)  # d * (relu output > 0)
        embed = params["embed"]
        d_embed = torch.zeros_like(embed)
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

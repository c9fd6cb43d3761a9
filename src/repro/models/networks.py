"""Models shared by several chapters, written with a leading **run axis** on every parameter.

A parameter of per-run shape ``s`` is stored as a tensor of shape ``(R, *s)``; all R runs of a sweep
train together as one tensor program (batched matmuls), and a single run is just ``R = 1``. Each
model declares its parameters once (:meth:`BatchedModel.param_specs`): name, shape, optimizer group
(``"repr"`` for the representation/embeddings, ``"dec"`` for the decoder) and how to initialize it
for one run from a ``torch.Generator`` — so run r's initial weights depend on its own seed only.

* :class:`EmbedMLP` — embeddings + MLP decoder: the toy model of Liu et al. 2022 (§2; the official toy code, ejmichaud/grokking-squared toy/train_add.py;
  ``combine='sum'`` feeds E_a + E_b, ``'matmul'`` feeds E_a E_b for S3, App. H), also used on
  modular addition in the opening chapter.
* :class:`Transformer` — a small decoder-only transformer with TransformerLens field names.
* :class:`repro.models.grok_transformer.GrokTransformer` (its own module) — openai/grok's post-LayerNorm decoder
  of Power et al. 2022 (grok/transformer.py), built by :func:`build_model` like the others.
* :class:`EncoderTransformer` — Liu et al. 2022's transformer for Figs 1 and 7: pre-LayerNorm encoder
  layers without mask or positions, both positions' outputs concatenated into a linear head, with dropout
  (official ejmichaud/grokking-squared phasegrok/models.py, ``Decoder(concat=True)``).
* :class:`TwoLayerNet` — f(x) = act(x W + b) a with a chosen activation (Rubin et al.).
* :class:`QuadraticNet` — Mohamadi et al. 2024's two-layer quadratic network on one-hot pairs (Eq. 2.1).
* :class:`RelationModel` — the GenEFT encoder–decoder of Baek, Liu & Tegmark 2024 (§2–3): embeddings, a
  combination of the pair (concatenation, difference or squared difference), a tanh MLP and one logit.
* :class:`MLP` — a plain multilayer perceptron on flat inputs with PyTorch's nn.Linear init (the
  784-200-200-10 MNIST network of Liu et al. 2022 App. J and Omnigrok, the 5-100-100-5 teacher-student).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import torch
import torch.nn.functional as F

from repro.core.portable import ConfigRepr
from repro.core.validation import check_choice, check_int, check_real

# "leaky_relu_0.2": LeakyReLU with negative slope 0.2, the official Omnigrok landscape notebook's
# (torch.nn.LeakyReLU(0.2); PyTorch's default slope is 0.01, so the slope is part of the name)
ACTIVATIONS = ("tanh", "relu", "gelu", "erf", "quadratic", "leaky_relu_0.2")


def activation(name: str) -> Callable[[torch.Tensor], torch.Tensor]:
    check_choice("activation", name, ACTIVATIONS)
    return {
        "tanh": torch.tanh,
        "relu": torch.relu,
        "gelu": F.gelu,
        "erf": torch.erf,
        "quadratic": torch.square,
        "leaky_relu_0.2": lambda x: F.leaky_relu(x, 0.2),
    }[name]


@dataclass(frozen=True)
class ParamSpec:
    name: str
    shape: tuple[int, ...]
    group: str  # "repr" | "dec"
    init: Callable[[tuple[int, ...], torch.Generator], torch.Tensor]  # draw for one run (float32 stream)


# Draws use float32, torch's default dtype, whatever the training dtype: a float64 draw consumes the
# generator differently, and only float32 draws reproduce the official code's initial weights.
# (RelationModel is the exception: it draws in float64, as the GenEFT chapters' own initialization always did.)


def _uniform(bound: float, transpose: bool = False):
    """U(-bound, bound) as ``(rand - 0.5) * 2 * bound``. ``transpose``: draw in nn.Linear's (out, in)
    order and store as (in, out)."""

    def init(shape, gen):
        draw_shape = shape[::-1] if transpose else shape
        # (rand - 0.5) * width: the official toy code's expression for the embeddings (toy/train_add.py); for
        # nn.Linear, uniform_(-b, b) computes rand * 2b - b, equal up to float32 rounding.
        u = (torch.rand(draw_shape, generator=gen) - 0.5) * (2 * bound)
        return u.T if transpose else u

    return init


def _torch_linear_weight(fan_in: int):
    # nn.Linear's default: kaiming_uniform_(a=sqrt(5)) == U(-1/sqrt(fan_in), 1/sqrt(fan_in)). The draw
    # uses torch.rand with the same stream as uniform_, so a seeded generator reproduces nn.Linear.
    return _uniform(1.0 / math.sqrt(fan_in), transpose=True)


def runwise_layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """LayerNorm over the last axis of x (R, ..., d) with run r's affine weight (R, d) and bias (R, d), as
    torch.nn.LayerNorm(d, eps) of each run. One F.layer_norm call per run with the affine inside the kernel: its
    forward and its backward (weight and bias gradients included) are one pass each, where a norm followed by a
    broadcast mul and add took several more passes over the activations (about 6 % of a paper-scale step of
    Liu et al.'s transformer). unbind/stack rather than x[r]: the backward of a select builds a zero tensor of
    x's whole shape per run."""
    if x.shape[0] == 1:
        return F.layer_norm(x.squeeze(0), x.shape[-1:], weight[0], bias[0], eps).unsqueeze(0)
    return torch.stack([F.layer_norm(xr, x.shape[-1:], w, b, eps) for xr, w, b in zip(x.unbind(0), weight, bias)])


def _normal(std: float):
    return lambda shape, gen: torch.randn(shape, generator=gen) * std


def _shifted(init, mean: float):
    return lambda shape, gen: init(shape, gen) + mean


def _constant(value: float):
    return lambda shape, gen: torch.full(shape, float(value))


class BatchedModel:
    """Base class: subclasses define :meth:`param_specs` and :meth:`forward`."""

    def param_specs(self, init_scale: float = 1.0, repr_init_scale: float = 1.0) -> list[ParamSpec]:
        raise NotImplementedError

    def forward(self, params: dict[str, torch.Tensor], x: torch.Tensor) -> torch.Tensor:
        """``x``: inputs shared by all runs ``(B, ...)`` or per run ``(R, B, ...)``; returns ``(R, B, d_out)``."""
        raise NotImplementedError

    def input_ndim(self) -> int:
        """Number of dims of one shared batch of inputs (to tell shared from per-run inputs)."""
        return 2

    def n_params(self) -> int:
        return sum(math.prod(s.shape) for s in self.param_specs())

    def matmul_flops_per_sample(self) -> int:
        """Multiply-add FLOPs (2 per MAC) of one forward pass on one sample, matmuls only."""
        raise NotImplementedError


# --------------------------------------------------------------------------------------------------
# Embeddings + MLP (toy model)


@dataclass(frozen=True, repr=False)
class EmbedMLPConfig(ConfigRepr):
    """Embeddings + MLP decoder. Defaults: the effective-theory toy model (the official toy code, ejmichaud/grokking-squared toy/train_add.py:
    1-D embeddings, decoder 1-200-200-30 with tanh)."""

    n_symbols: int = 10
    d_embed: int = 1  # d_in of the paper; for combine='matmul' a k x k matrix needs d_embed = k*k
    hidden: tuple[int, ...] = (200, 200)  # Liu et al. 2022 §2 "1-200-200-30" (toy/train_add.py)
    d_out: int = 30  # regression template dimension (toy/train_add.py: 30) or number of classes
    activation: str = "tanh"  # toy/train_add.py: nn.Tanh
    combine: str = "sum"  # E_a + E_b (Liu et al. §2); 'concat'; 'matmul' = E_a E_b (App. H, S3)
    embed_init: str = "uniform"  # official: (rand - 0.5) * scale, i.e. U[-scale/2, scale/2] (toy/train_add.py; Liu et al. 2022 App. G)
    # Added to every initial embedding entry: the official Fig. 2 notebooks draw ``torch.randn(p, 2) + 1``
    # (ejmichaud/grokking-squared plotting_nbs/VisualizingAddition.ipynb); 0 everywhere else.
    embed_mean: float = 0.0
    # The decoder's input is input_scale * combine(E_a, E_b): 0.5 makes the sum the mean (E_a + E_b) / 2, the
    # official addition notebook's input; 1 everywhere else.
    input_scale: float = 1.0
    # False: no activation after the last hidden layer, the official Fig. 2 decoder (its list comprehension drops
    # the ReLU before the output layer); True everywhere else.
    activate_last_hidden: bool = True

    def __post_init__(self):
        check_int("n_symbols", self.n_symbols, minimum=1)
        check_int("d_embed", self.d_embed, minimum=1)
        check_int("d_out", self.d_out, minimum=1)
        if not isinstance(self.hidden, tuple) or not all(isinstance(h, int) and h >= 1 for h in self.hidden):
            raise ValueError(f"hidden={self.hidden!r} is not allowed: hidden must be a tuple of positive ints.")
        check_choice("activation", self.activation, ACTIVATIONS)
        check_choice("combine", self.combine, ("sum", "concat", "matmul"))
        check_choice("embed_init", self.embed_init, ("uniform", "normal"))
        check_real("embed_mean", self.embed_mean)
        check_real("input_scale", self.input_scale, positive=True)
        if not isinstance(self.activate_last_hidden, bool):
            raise ValueError(f"activate_last_hidden={self.activate_last_hidden!r} is not allowed: it must be True or False.")
        if self.combine == "matmul" and math.isqrt(self.d_embed) ** 2 != self.d_embed:
            raise ValueError(f"d_embed={self.d_embed} is not allowed with combine='matmul': it must be a square k*k.")


class EmbedMLP(BatchedModel):
    def __init__(self, config: EmbedMLPConfig):
        self.config = config
        self.act = activation(config.activation)
        d_in = 2 * config.d_embed if config.combine == "concat" else config.d_embed
        self.widths = (d_in, *config.hidden, config.d_out)

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        if c.embed_init == "uniform":
            emb = _uniform(0.5 * repr_init_scale)
        else:
            emb = _normal(repr_init_scale)
        if c.embed_mean:
            emb = _shifted(emb, c.embed_mean)
        specs = [ParamSpec("embed", (c.n_symbols, c.d_embed), "repr", emb)]
        for k, (fan_in, fan_out) in enumerate(zip(self.widths[:-1], self.widths[1:])):
            w = _torch_linear_weight(fan_in)
            b = _uniform(1.0 / math.sqrt(fan_in))
            specs.append(ParamSpec(f"W{k}", (fan_in, fan_out), "dec", _scaled(w, init_scale)))
            specs.append(ParamSpec(f"b{k}", (fan_out,), "dec", _scaled(b, init_scale)))
        return specs

    def embed_pairs(self, embed: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """The decoder's input for pairs ``x`` (B, 2) or (R, B, 2): (R, B, d_in)."""
        if x.dim() == 2:
            ea, eb = embed[:, x[:, 0]], embed[:, x[:, 1]]
        else:
            runs = torch.arange(embed.shape[0], device=embed.device)[:, None]
            ea, eb = embed[runs, x[..., 0]], embed[runs, x[..., 1]]
        c = self.config
        if c.combine == "sum":
            h = ea + eb
        elif c.combine == "concat":
            h = torch.cat([ea, eb], dim=-1)
        else:
            k = math.isqrt(c.d_embed)
            h = (ea.unflatten(-1, (k, k)) @ eb.unflatten(-1, (k, k))).flatten(-2)
        return h if c.input_scale == 1.0 else h * c.input_scale

    def activated(self, k: int) -> bool:
        """Whether an activation follows layer ``k``: every hidden layer (the last one only if
        ``activate_last_hidden``), never the output layer."""
        last_hidden = len(self.widths) - 3
        return k < last_hidden or (k == last_hidden and self.config.activate_last_hidden)

    def forward(self, params, x):
        h = self.embed_pairs(params["embed"], x)
        n_layers = len(self.widths) - 1
        for k in range(n_layers):
            h = torch.baddbmm(params[f"b{k}"].unsqueeze(1), h, params[f"W{k}"])
            if self.activated(k):
                h = self.act(h)
        return h

    def matmul_flops_per_sample(self):
        return 2 * sum(a * b for a, b in zip(self.widths[:-1], self.widths[1:]))


def _scaled(init, scale):
    if scale == 1.0:
        return init
    return lambda shape, gen: init(shape, gen) * scale


# --------------------------------------------------------------------------------------------------
# Decoder-only transformer (TransformerLens names)


@dataclass(frozen=True, repr=False)
class TransformerConfig(ConfigRepr):
    """A small decoder-only transformer; field names follow TransformerLens' HookedTransformerConfig.

    Inputs are token sequences (B, n_ctx); the logits at the last position are the prediction.
    Defaults: the one-layer modular-addition transformer of Nanda et al. (p = 113, '=' token).
    """

    d_vocab: int = 114
    n_ctx: int = 3
    d_model: int = 128
    n_heads: int = 4
    d_head: int = 32
    d_mlp: int = 512
    n_layers: int = 1
    d_vocab_out: int = 113
    act_fn: str = "relu"
    normalization_type: str | None = None  # None or "LN"
    initializer_range: float | None = None  # TransformerLens default: 0.8 / sqrt(d_model)
    # "transformer_lens": every weight N(0, initializer_range²), zero-initialised trainable biases everywhere.
    # "nanda": the transformer of Nanda et al.'s grokking notebook, which the Omnigrok notebook copies
    # (KindXiaoming/Omnigrok mod-addition/grokking): W_E, W_pos, W_Q, W_K, W_V, W_O, W_in, W_out drawn
    # N(0, 1/d_model), W_U N(0, 1/d_vocab), no attention and no unembedding biases (the MLP's are zeros).
    init: str = "transformer_lens"

    def __post_init__(self):
        for name in ("d_vocab", "n_ctx", "d_model", "n_heads", "d_head", "d_mlp", "n_layers", "d_vocab_out"):
            check_int(name, getattr(self, name), minimum=1)
        check_choice("act_fn", self.act_fn, ("relu", "gelu"))
        check_choice("normalization_type", self.normalization_type, (None, "LN"))
        check_choice("init", self.init, ("transformer_lens", "nanda"))
        if self.initializer_range is not None:
            check_real("initializer_range", self.initializer_range, positive=True)
            if self.init == "nanda":
                raise ValueError("initializer_range is not allowed with init='nanda': that init fixes every standard "
                                 "deviation (1/sqrt(d_model), and 1/sqrt(d_vocab) for W_U); use init='transformer_lens'.")

    @property
    def biases(self) -> bool:
        """Whether attention and unembedding carry biases (not in Nanda et al.'s transformer)."""
        return self.init == "transformer_lens"


class Transformer(BatchedModel):
    def __init__(self, config: TransformerConfig):
        self.config = config
        self.act = activation(config.act_fn)
        mask = torch.triu(torch.ones(config.n_ctx, config.n_ctx, dtype=torch.bool), diagonal=1)
        self._causal = mask

    def input_ndim(self):
        return 2

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        if c.init == "nanda":
            std, std_u = 1 / math.sqrt(c.d_model), 1 / math.sqrt(c.d_vocab)
        else:
            std = c.initializer_range if c.initializer_range is not None else 0.8 / math.sqrt(c.d_model)
            std_u = std
        zero, one = _constant(0.0), _constant(1.0)
        specs = [
            ParamSpec("W_E", (c.d_vocab, c.d_model), "repr", _normal(std * repr_init_scale)),
            ParamSpec("W_pos", (c.n_ctx, c.d_model), "repr", _normal(std * repr_init_scale)),
        ]
        w = _normal(std * init_scale)
        for layer in range(c.n_layers):
            pre = f"blocks.{layer}."
            if c.normalization_type == "LN":
                specs += [ParamSpec(pre + "ln1.w", (c.d_model,), "dec", one), ParamSpec(pre + "ln1.b", (c.d_model,), "dec", zero)]
            specs += [
                ParamSpec(pre + "attn.W_Q", (c.n_heads, c.d_model, c.d_head), "dec", w),
                ParamSpec(pre + "attn.W_K", (c.n_heads, c.d_model, c.d_head), "dec", w),
                ParamSpec(pre + "attn.W_V", (c.n_heads, c.d_model, c.d_head), "dec", w),
                ParamSpec(pre + "attn.W_O", (c.n_heads, c.d_head, c.d_model), "dec", w),
            ]
            if c.biases:
                specs += [
                    ParamSpec(pre + "attn.b_Q", (c.n_heads, c.d_head), "dec", zero),
                    ParamSpec(pre + "attn.b_K", (c.n_heads, c.d_head), "dec", zero),
                    ParamSpec(pre + "attn.b_V", (c.n_heads, c.d_head), "dec", zero),
                    ParamSpec(pre + "attn.b_O", (c.d_model,), "dec", zero),
                ]
            if c.normalization_type == "LN":
                specs += [ParamSpec(pre + "ln2.w", (c.d_model,), "dec", one), ParamSpec(pre + "ln2.b", (c.d_model,), "dec", zero)]
            specs += [
                ParamSpec(pre + "mlp.W_in", (c.d_model, c.d_mlp), "dec", w),
                ParamSpec(pre + "mlp.b_in", (c.d_mlp,), "dec", zero),
                ParamSpec(pre + "mlp.W_out", (c.d_mlp, c.d_model), "dec", w),
                ParamSpec(pre + "mlp.b_out", (c.d_model,), "dec", zero),
            ]
        if c.normalization_type == "LN":
            specs += [ParamSpec("ln_final.w", (c.d_model,), "dec", one), ParamSpec("ln_final.b", (c.d_model,), "dec", zero)]
        specs.append(ParamSpec("W_U", (c.d_model, c.d_vocab_out), "dec", _normal(std_u * init_scale)))
        if c.biases:
            specs.append(ParamSpec("b_U", (c.d_vocab_out,), "dec", zero))
        return specs

    @staticmethod
    def _project(h, w, b):
        """Per-head projections of h (R, B, pos, d) by w (R, H, d, e) plus b (R, H, e; None: no bias):
        (R, B, pos, H, e), a view of one batched product over all heads, (R, B·pos, d) @ (R, d, H·e)."""
        R, B, T, d = h.shape
        H, e = w.shape[1], w.shape[3]
        w_all = w.permute(0, 2, 1, 3).reshape(R, d, H * e)
        if b is None:
            out = torch.bmm(h.reshape(R, B * T, d), w_all)
        else:
            out = torch.baddbmm(b.reshape(R, 1, H * e), h.reshape(R, B * T, d), w_all)
        return out.view(R, B, T, H, e)

    @staticmethod
    def _ln(x, w, b):
        return runwise_layer_norm(x, w, b)

    def forward(self, params, x):
        c = self.config
        R = params["W_E"].shape[0]
        if x.dim() == 2:
            resid = params["W_E"][:, x]  # (R, B, pos, d_model)
        else:
            runs = torch.arange(R, device=x.device)[:, None, None]
            resid = params["W_E"][runs, x]
        resid = resid + params["W_pos"][:, None, : x.shape[-1]]
        mask = self._causal[: x.shape[-1], : x.shape[-1]].to(resid.device)

        def linear(h, w, b):  # b None: no bias (Nanda et al.'s attention output)
            flat = h.reshape(R, -1, h.shape[-1])
            return (torch.bmm(flat, w) if b is None else torch.baddbmm(b[:, None], flat, w)).view(*h.shape[:-1], -1)

        bias = params.get if c.biases else (lambda name: None)
        for layer in range(c.n_layers):
            pre = f"blocks.{layer}."
            # Only the last position's logits are read, so the last layer computes its query, attention output and
            # MLP at the last position alone (keys and values still at every position): the same logits and
            # gradients, without the work whose results nothing reads -- most of a one-layer model's MLP.
            last = layer == c.n_layers - 1
            h = self._ln(resid, params[pre + "ln1.w"], params[pre + "ln1.b"]) if c.normalization_type == "LN" else resid
            k, v = (self._project(h, params[pre + f"attn.W_{n}"], bias(pre + f"attn.b_{n}")) for n in "KV")
            q = self._project(h[:, :, -1:] if last else h, params[pre + "attn.W_Q"], bias(pre + "attn.b_Q"))
            # Attention as broadcast products summed over e (scores) and over keys (z), in the projections' own
            # (pos, H, e) layout. With a handful of positions, matmul over (pos, e) blocks first copied q, k, v and
            # z into head-major layout and then ran thousands of 3 x 32 products far below the machine's rate. At
            # Power et al.'s shapes (3 runs, batch 512, pos 3, 4 heads of 32) this form cut the attention's forward
            # and backward from 38 to 28 ms in the first layer and from 19 to 10 ms in the last (one query); for
            # Liu et al.'s encoder (pos 2, one head of 256) it was 3x slower than matmul, which that model keeps.
            scores = (q[:, :, :, None] * k[:, :, None]).sum(-1) / math.sqrt(c.d_head)  # (R, B, queries, pos, H)
            if not last:  # the last position's query sees every key
                scores = scores.masked_fill(mask[:, :, None], float("-inf"))
            z = (scores.softmax(-2)[..., None] * v[:, :, None]).sum(3)  # (R, B, queries, H, e)
            w_o = params[pre + "attn.W_O"].reshape(R, c.n_heads * c.d_head, c.d_model)  # (H, e, d) rows in head order
            resid = (resid[:, :, -1:] if last else resid) + linear(z.flatten(-2), w_o, bias(pre + "attn.b_O"))
            h = self._ln(resid, params[pre + "ln2.w"], params[pre + "ln2.b"]) if c.normalization_type == "LN" else resid
            mid = self.act(linear(h, params[pre + "mlp.W_in"], params[pre + "mlp.b_in"]))
            resid = resid + linear(mid, params[pre + "mlp.W_out"], params[pre + "mlp.b_out"])
        final = resid[:, :, -1]
        if c.normalization_type == "LN":
            final = self._ln(final[:, :, None], params["ln_final.w"], params["ln_final.b"])[:, :, 0]
        if not c.biases:
            return torch.bmm(final, params["W_U"])
        return torch.baddbmm(params["b_U"][:, None], final, params["W_U"])

    def matmul_flops_per_sample(self):
        c = self.config
        qkvo, mlp = 4 * c.d_model * c.n_heads * c.d_head, 2 * c.d_model * c.d_mlp
        attn = 2 * c.n_heads * c.d_head * c.n_ctx
        earlier = (c.n_layers - 1) * c.n_ctx * (qkvo + mlp + attn)
        last = c.n_ctx * qkvo // 2 + (qkvo // 2 + mlp + attn)  # keys and values at every position, the rest at the last
        return 2 * (earlier + last + c.d_model * c.d_vocab_out)


# --------------------------------------------------------------------------------------------------
# Liu et al. 2022's encoder transformer (PyTorch parameter names)


@dataclass(frozen=True, repr=False)
class EncoderTransformerConfig(ConfigRepr):
    """The transformer of Liu et al. 2022 §4.2 (Figs 1 and 7), as in the official code
    (ejmichaud/grokking-squared phasegrok/models.py ``Decoder(concat=True)`` on a free embedding table,
    scripts/transformer_grokking.py): ``n_layers`` x ``nn.TransformerEncoderLayer(d_model, nhead=n_heads,
    dim_feedforward=d_mlp, activation='relu', batch_first=True, norm_first=True)`` -- pre-LayerNorm, **no
    attention mask and no positional encoding** -- then the outputs at the ``n_ctx`` positions concatenated
    (§4.2: "the outputs from the last layer are concatenated and passed to a linear layer") into
    ``nn.Linear(n_ctx * d_model, d_vocab_out)``. Defaults: the official Fig. 1 run (p = 59, latent_dim 256,
    decoder_width 128, decoder_depth 2 of phasegrok/config.py).

    Dropout is not a model field: its rate is a per-run training setting (``TrainConfig.dropout``), applied
    where nn.TransformerEncoderLayer applies it (:data:`EncoderTransformer.dropout_sites`)."""

    d_vocab: int = 59
    n_ctx: int = 2
    d_model: int = 256
    n_heads: int = 1
    d_mlp: int = 128
    n_layers: int = 2
    d_vocab_out: int = 59

    def __post_init__(self):
        for name in ("d_vocab", "n_ctx", "d_model", "n_heads", "d_mlp", "n_layers", "d_vocab_out"):
            check_int(name, getattr(self, name), minimum=1)
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not allowed: it must be divisible by n_heads={self.n_heads}.")


def _drawn_then_zero(draw):
    # nn.MultiheadAttention draws out_proj's bias (nn.Linear's init) and then sets it to 0: the draw still
    # advances the generator, so the weights drawn after it match the official code's.
    return lambda shape, gen: draw(shape, gen).zero_()


class EncoderTransformer(BatchedModel):
    """:class:`EncoderTransformerConfig`'s network with a leading run axis. Parameter names and layouts are
    the official module's ``state_dict`` keys (``net.{i}.self_attn.in_proj_weight`` ..., ``net.{n_layers + 1}``
    for the head), plus ``embed`` for the representation, so a run's parameters load into the official
    module unchanged (``tests/test_networks.py`` compares the two). Initial values are drawn in PyTorch's
    order with PyTorch's distributions: the embedding N(0, 1) first (``torch.randn(p, latent_dim)``), then
    each layer's attention out_proj, in_proj (Xavier uniform), linear1, linear2, then the head."""

    # where nn.TransformerEncoderLayer applies dropout, per layer: the attention probabilities (inside
    # nn.MultiheadAttention), the attention output (dropout1), the ReLU output (dropout), the MLP output (dropout2)
    dropout_sites = ("attention", "attention_out", "mlp_hidden", "mlp_out")

    def __init__(self, config: EncoderTransformerConfig):
        self.config = config

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        d, w = c.d_model, c.d_mlp
        zero, one = _constant(0.0), _constant(1.0)
        specs = [ParamSpec("embed", (c.d_vocab, d), "repr", _normal(repr_init_scale))]
        s = lambda init: _scaled(init, init_scale)
        for layer in range(c.n_layers):
            pre = f"net.{layer}."
            specs += [
                ParamSpec(pre + "self_attn.out_proj.weight", (d, d), "dec", s(_uniform(1 / math.sqrt(d)))),
                ParamSpec(pre + "self_attn.out_proj.bias", (d,), "dec", _drawn_then_zero(_uniform(1 / math.sqrt(d)))),
                ParamSpec(pre + "self_attn.in_proj_weight", (3 * d, d), "dec", s(_uniform(math.sqrt(6 / (4 * d))))),
                ParamSpec(pre + "self_attn.in_proj_bias", (3 * d,), "dec", zero),
                ParamSpec(pre + "linear1.weight", (w, d), "dec", s(_uniform(1 / math.sqrt(d)))),
                ParamSpec(pre + "linear1.bias", (w,), "dec", s(_uniform(1 / math.sqrt(d)))),
                ParamSpec(pre + "linear2.weight", (d, w), "dec", s(_uniform(1 / math.sqrt(w)))),
                ParamSpec(pre + "linear2.bias", (d,), "dec", s(_uniform(1 / math.sqrt(w)))),
                ParamSpec(pre + "norm1.weight", (d,), "dec", one),
                ParamSpec(pre + "norm1.bias", (d,), "dec", zero),
                ParamSpec(pre + "norm2.weight", (d,), "dec", one),
                ParamSpec(pre + "norm2.bias", (d,), "dec", zero),
            ]
        head = f"net.{c.n_layers + 1}."  # net.{n_layers} is the parameter-free reshape
        fan_in = c.n_ctx * d
        specs += [ParamSpec(head + "weight", (c.d_vocab_out, fan_in), "dec", s(_uniform(1 / math.sqrt(fan_in)))),
                  ParamSpec(head + "bias", (c.d_vocab_out,), "dec", s(_uniform(1 / math.sqrt(fan_in))))]
        return specs

    @staticmethod
    def _linear(x, weight, bias):
        """x (R, ..., in) @ weight (R, out, in)^T + bias (R, out)."""
        shape = x.shape
        out = torch.baddbmm(bias[:, None], x.reshape(shape[0], -1, shape[-1]), weight.transpose(1, 2))
        return out.view(*shape[:-1], weight.shape[1])

    @staticmethod
    def _layer_norm(x, weight, bias):
        return runwise_layer_norm(x, weight, bias)

    def forward(self, params, x, dropout=None):
        """Logits (R, B, d_vocab_out). ``dropout``: None (evaluation, as ``module.eval()``), or a function
        applied to each dropout site's activations (R, ...) in training (see :class:`repro.training.trainer.Dropout`)."""
        c = self.config
        drop = dropout if dropout is not None else (lambda h: h)
        # Rows gathered by index_select, not advanced indexing: the same values and, its backward being index_add_
        # instead of index_put_(accumulate=True), the same gradients bit for bit (the rows are summed in the same
        # order) in about half the time on the CPU -- four gathers a step, 2 % of a paper-scale step.
        V = params["embed"].shape[1]
        if x.dim() == 2:  # x (B, n_ctx): the same samples for every run
            flat = x.reshape(-1)
            gather = lambda table: table.index_select(1, flat).view(table.shape[0], *x.shape, table.shape[-1])
        else:  # x (R, B, n_ctx): each run's own samples, rows of the (R V, k) table
            flat = (x + V * torch.arange(x.shape[0], device=x.device)[:, None, None]).reshape(-1)
            gather = lambda table: table.reshape(-1, table.shape[-1]).index_select(0, flat).view(*x.shape,
                                                                                                   table.shape[-1])
        resid = gather(params["embed"])  # (R, B, n_ctx, d)
        R, B, T, d = resid.shape
        H = c.n_heads
        for layer in range(c.n_layers):
            pre = f"net.{layer}."
            # in_proj rows: q, then k, then v. Three products on row blocks of the weight, not one product split
            # afterwards: the backward of a split (unbind) stacks three activation-sized gradients, a copy that
            # cost a tenth of a step.
            projections = list(zip(params[pre + "self_attn.in_proj_weight"].chunk(3, dim=1),
                                   params[pre + "self_attn.in_proj_bias"].chunk(3, dim=1)))
            if layer == 0:
                # Layer 0 sees the token embeddings alone (no positional encoding): its LayerNorm and q, k, v
                # projections depend on the token only, so they are computed once per vocabulary entry (p rows)
                # instead of once per sample and position (2B rows), then gathered -- the same function and
                # gradients, about 30 % fewer FLOPs per step at the paper's sizes.
                tokens = self._layer_norm(params["embed"][:, None], params[pre + "norm1.weight"],
                                          params[pre + "norm1.bias"])[:, 0]
                q, k, v = (self._linear(tokens, w, b) for w, b in projections)  # (R, p, d): one row per token
                q, k = gather(q), gather(k)
                # The attention output is linear in the values: out_proj(sum_j p_ij v_j) + b = sum_j p_ij
                # (W_O v_j) + b, per head. So W_O too is applied once per token and head (p H rows) instead of once
                # per sample and position, and the pattern mixes the projected rows: the same function and
                # gradients without one of the layer's four d x d products per position (a seventh of a
                # paper-scale step's products).
                e = d // H
                w_o = params[pre + "self_attn.out_proj.weight"].transpose(1, 2).reshape(R * H, e, d)
                v_heads = v.view(R, -1, H, e).transpose(1, 2).reshape(R * H, -1, e)
                u = torch.bmm(v_heads, w_o).view(R, H, -1, d).transpose(1, 2).reshape(R, -1, H * d)  # (R, p, H d)
                values = gather(u).view(R * B, T * H, d)  # rows (position j, head h) of each sample
            else:
                h = self._layer_norm(resid, params[pre + "norm1.weight"], params[pre + "norm1.bias"])
                q, k, v = (self._linear(h, w, b) for w, b in projections)
            q, k = (t.view(R, B, T, H, d // H).transpose(2, 3) for t in (q, k))  # (R, B, H, T, e)
            # matmul over (T, e) blocks, not einsum: einsum copies its operands into bmm's layout, which made
            # attention cost twice as much at these tiny T
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d // H)
            pattern = drop(scores.softmax(-1))  # (R, B, H, T, T)
            if layer == 0:  # attn_i = sum over keys j and heads h of pattern_hij u_(h, token j), plus the bias
                mix = pattern.permute(0, 1, 3, 4, 2).reshape(R * B, T, T * H)  # columns (j, h), as values' rows
                attn = torch.bmm(mix, values).view(R, B, T, d) + params[pre + "self_attn.out_proj.bias"][:, None, None]
            else:
                z = torch.matmul(pattern, v.view(R, B, T, H, d // H).transpose(2, 3)).transpose(2, 3).reshape(R, B, T, d)
                attn = self._linear(z, params[pre + "self_attn.out_proj.weight"],
                                    params[pre + "self_attn.out_proj.bias"])
            resid = resid + drop(attn)
            h = self._layer_norm(resid, params[pre + "norm2.weight"], params[pre + "norm2.bias"])
            mid = drop(torch.relu(self._linear(h, params[pre + "linear1.weight"], params[pre + "linear1.bias"])))
            resid = resid + drop(self._linear(mid, params[pre + "linear2.weight"], params[pre + "linear2.bias"]))
        head = f"net.{c.n_layers + 1}."
        return self._linear(resid.reshape(R, B, T * d), params[head + "weight"], params[head + "bias"])

    def matmul_flops_per_sample(self):
        c = self.config
        # q, k, v and out_proj of layer 0 are computed per token, not per sample (forward): left out here
        per_pos = (c.n_layers * (2 * c.d_model * c.d_mlp + 2 * c.n_ctx * c.d_model)
                   + (c.n_layers - 1) * 4 * c.d_model * c.d_model)
        return 2 * (c.n_ctx * per_pos + c.n_ctx * c.d_model * c.d_vocab_out)


# --------------------------------------------------------------------------------------------------
# Two-layer network


@dataclass(frozen=True, repr=False)
class TwoLayerConfig(ConfigRepr):
    """f(x) = act(x W + b) a (+ c): a two-layer network with a chosen activation and optional biases.

    Weights are N(0, init_std^2 / fan_in) (the mean-field/NTK-style scaling both the Rubin et al. and
    Mohamadi et al. chapters start from); chapters override the readout scaling through ``init_scale``.
    """

    d_in: int = 10
    width: int = 100
    d_out: int = 1
    activation: str = "erf"
    bias: bool = False
    init_std: float = 1.0

    def __post_init__(self):
        check_int("d_in", self.d_in, minimum=1)
        check_int("width", self.width, minimum=1)
        check_int("d_out", self.d_out, minimum=1)
        check_choice("activation", self.activation, ACTIVATIONS)
        check_choice("bias", self.bias, (True, False))
        check_real("init_std", self.init_std, positive=True)


class TwoLayerNet(BatchedModel):
    def __init__(self, config: TwoLayerConfig):
        self.config = config
        self.act = activation(config.activation)

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        specs = [ParamSpec("W", (c.d_in, c.width), "repr", _normal(c.init_std * repr_init_scale / math.sqrt(c.d_in)))]
        if c.bias:
            specs.append(ParamSpec("b", (c.width,), "repr", _constant(0.0)))
        specs.append(ParamSpec("a", (c.width, c.d_out), "dec", _normal(c.init_std * init_scale / math.sqrt(c.width))))
        if c.bias:
            specs.append(ParamSpec("c", (c.d_out,), "dec", _constant(0.0)))
        return specs

    def forward(self, params, x):
        if x.dim() == 2:
            x = x.expand(params["W"].shape[0], *x.shape)
        pre = x @ params["W"]
        if self.config.bias:
            pre = pre + params["b"][:, None]
        out = self.act(pre) @ params["a"]
        if self.config.bias:
            out = out + params["c"][:, None]
        return out

    def matmul_flops_per_sample(self):
        c = self.config
        return 2 * c.width * (c.d_in + c.d_out)


# --------------------------------------------------------------------------------------------------
# Mohamadi et al.'s quadratic network on pairs of one-hot tokens


def _uniform_float64(fan_in: int, scale: float):
    """U(±1/√fan_in) × ``scale``, drawn in float64: the init of Mohamadi et al. 2024 ("default PyTorch
    initialization", App. A) as ``repro.theory.mohamadi2024.pytorch_default_init`` draws it, which the
    chapter's runs have always used (float64 draws consume the generator otherwise than float32 ones)."""

    def init(shape, gen):
        return (torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1) / math.sqrt(fan_in) * scale

    return init


def _normal_float64(scale: float):
    """N(0, 1) × ``scale``, drawn in float64: the NTK parametrization's init (``jax.nn.initializers.normal(1)``
    in the first author's code; the draws themselves are torch's, not JAX's)."""

    def init(shape, gen):
        return torch.randn(shape, generator=gen, dtype=torch.float64) * scale

    return init


def _he_normal_float64(fan_in: int, scale: float):
    """N(0, 2/fan_in) × ``scale``, drawn in float64: He et al.'s (2015) normal init, the reference App. A.1-A.2 of
    Mohamadi et al. 2024 cite ("initialized according to [19]"); ``torch.nn.init.kaiming_normal_`` with its
    defaults (fan-in mode, gain √2)."""

    def init(shape, gen):
        return torch.randn(shape, generator=gen, dtype=torch.float64) * math.sqrt(2 / fan_in) * scale

    return init


QUADRATIC_PARAMETRIZATIONS = ("standard", "standard_he", "ntk")


@dataclass(frozen=True, repr=False)
class QuadraticNetConfig(ConfigRepr):
    """Mohamadi et al. 2024, Eq. 2.1: f(θ; (e_a, e_b)) = V (W (e_a, e_b))^{⊙2}, no biases, W (h, 2p) = [Q R],
    V (p, h), modulus ``p`` and width h = ``width``.

    ``parametrization`` says which numbers θ are (what the optimizer steps and the ℓ∞ penalty measures):

    * ``"standard"``: Eq. 2.1 as printed, θ = (W, V), drawn from PyTorch's nn.Linear default U(±1/√fan_in)
      (the Fig. 1 caption's "default PyTorch initialization").
    * ``"standard_he"``: Eq. 2.1 as printed, θ = (W, V), drawn from He et al.'s normal init N(0, 2/fan_in), the
      reference App. A.1-A.2 cite ([19]). Each layer is √6 times wider than PyTorch's default, so the
      3-homogeneous output starts √6³ ≈ 15 times larger. (An init, not a parametrization: it shares this field so
      that the configs of the runs stored before it keep their keys.)
    * ``"ntk"``: the NTK parametrization of the first author's public code (mohamad-amin/tracked-grok-v2,
      ``models/simple.py:GromovMLP``): θ = (W̃, V) with W̃, Ṽ ~ N(0, 1) and W = W̃/√(2p), V = Ṽ/√h. At init the
      function has the law of Eq. 2.1 under N(0, 1/fan_in) weights; under gradient descent each layer's
      effective learning rate is divided by its fan-in, and ‖θ‖ starts at √(3ph) instead of about 1.
    """

    p: int = 97
    width: int = 776
    parametrization: str = "standard"  # Eq. 2.1 as printed (App. A gives no parametrization)

    def __post_init__(self):
        check_int("p", self.p, minimum=2)
        check_int("width", self.width, minimum=1)
        check_choice("parametrization", self.parametrization, QUADRATIC_PARAMETRIZATIONS)

    @property
    def multipliers(self) -> tuple[float, float]:
        """(m_W, m_V): Eq. 2.1's weights are W = m_W·θ_W and V = m_V·θ_V; (1, 1) in the standard
        parametrization, (1/√(2p), 1/√h) in the NTK one."""
        if self.parametrization == "ntk":
            return 1 / math.sqrt(2 * self.p), 1 / math.sqrt(self.width)
        return 1.0, 1.0


class QuadraticNet(BatchedModel):
    """:class:`QuadraticNetConfig`'s network. Inputs are shared integer rows: pairs (a, b), shape (n, 2), give
    all p outputs f(θ; (a, b)) (R, n, p); triples (a, b, c), shape (n, 3), give the one output
    g(θ; (a, b, c)) = f_c(θ; (a, b)) (R, n, 1) of the paper's regression task (§2). W is the representation
    group (scaled by ``repr_init_scale``), V the decoder (``init_scale``); Mohamadi's α scales both."""

    def __init__(self, config: QuadraticNetConfig):
        self.config = config

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        p, h = self.config.p, self.config.width
        if self.config.parametrization == "ntk":
            return [ParamSpec("W", (h, 2 * p), "repr", _normal_float64(repr_init_scale)),
                    ParamSpec("V", (p, h), "dec", _normal_float64(init_scale))]
        if self.config.parametrization == "standard_he":
            return [ParamSpec("W", (h, 2 * p), "repr", _he_normal_float64(2 * p, repr_init_scale)),
                    ParamSpec("V", (p, h), "dec", _he_normal_float64(h, init_scale))]
        return [ParamSpec("W", (h, 2 * p), "repr", _uniform_float64(2 * p, repr_init_scale)),
                ParamSpec("V", (p, h), "dec", _uniform_float64(h, init_scale))]

    def weights(self, W: torch.Tensor, V: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Eq. 2.1's (W, V) from the parameters (the same tensors in the standard parametrization)."""
        m_w, m_v = self.config.multipliers
        return (W, V) if (m_w, m_v) == (1.0, 1.0) else (W * m_w, V * m_v)

    def preacts(self, W: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """z_k(a, b) = Q_ka + R_kb: (R, h, n) from Eq. 2.1's W. The one-hot first layer is a column gather."""
        return W[:, :, a] + W[:, :, self.config.p + b]

    def triple_outputs(self, W: torch.Tensor, V: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """g(a, b, c) = f_c(a, b) for the triples ``x`` (n, 3): (R, n, 1), from Eq. 2.1's weights. Every output
        f_c(a, b) is one matmul on the (R, h, p^2) grid of squared preactivations, and the triples are read off
        it: a gather of h numbers per triple (and its scatter-add backward) costs far more on a CPU than the
        p^3·h multiply-adds of the whole grid (measured: about 10× per step at p = 23, n = 2p^2.25)."""
        p = self.config.p
        R, h = W.shape[:2]
        z = (W[:, :, :p, None] + W[:, :, None, p:]).reshape(R, h, p * p)  # z_k(a, b), row-major in (a, b)
        out = (V @ z.square()).reshape(R, p * p * p)  # f_c(a, b) at c·p^2 + a·p + b
        return out[:, x[:, 2] * (p * p) + x[:, 0] * p + x[:, 1], None]

    def forward(self, params, x):
        W, V = self.weights(params["W"], params["V"])
        if x.shape[1] == 3:
            return self.triple_outputs(W, V, x)
        z = self.preacts(W, x[:, 0], x[:, 1])
        if x.shape[1] == 2:
            return (V @ z.square()).transpose(1, 2)
        raise ValueError(f"QuadraticNet inputs have {x.shape[1]} columns; allowed: 2 (pairs a, b) or 3 (triples a, b, c).")

    def matmul_flops_per_sample(self):
        return 2 * self.config.width * self.config.p


# --------------------------------------------------------------------------------------------------
# Multilayer perceptron on flat inputs


@dataclass(frozen=True, repr=False)
class MLPConfig(ConfigRepr):
    """A multilayer perceptron ``d_in -> hidden... -> d_out`` on flat inputs (no embeddings).

    Defaults: the MNIST network of Liu et al. 2022 App. J and Omnigrok §3 (784-200-200-10, ReLU;
    official code: KindXiaoming/Omnigrok mnist/) except ``d_in``, which has no default-worthy value (784
    for MNIST, 64 for the 8x8 digits substitute, 5 for the teacher-student toy of Omnigrok §2).

    Init is PyTorch's nn.Linear default for weights and biases, U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
    drawn layer by layer (W0, b0, W1, b1, ...) in nn.Linear's (out, in) order from a float32 stream, so
    a seeded generator reproduces ``nn.Sequential(nn.Linear, act, nn.Linear, ...)`` exactly.

    Groups: the **last layer is the decoder** (``"dec"``: its lr/wd are ``lr_dec``/``wd_dec`` and its
    init multiplier is ``init_scale``); every earlier layer is the representation (``"repr"``:
    ``lr_repr``/``wd_repr``/``repr_init_scale``). This matches Liu et al. 2022 Fig. 8b, whose phase
    diagram varies the last-layer ("decoder") learning rate with the rest fixed. Omnigrok's alpha
    multiplies *all* parameters, i.e. set ``init_scale = repr_init_scale = alpha``.
    """

    d_in: int = 784
    hidden: tuple[int, ...] = (200, 200)  # Liu et al. 2022 App. J: "depth-3 width-200"
    d_out: int = 10  # ten classes
    activation: str = "relu"  # Liu et al. 2022 App. J
    bias: bool = True  # nn.Linear default

    def __post_init__(self):
        check_int("d_in", self.d_in, minimum=1)
        if not isinstance(self.hidden, tuple) or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 1 for h in self.hidden
        ):
            raise ValueError(f"hidden={self.hidden!r} is not allowed: hidden must be a tuple of positive ints (may be empty).")
        check_int("d_out", self.d_out, minimum=1)
        check_choice("activation", self.activation, ACTIVATIONS)
        if not isinstance(self.bias, bool):  # check_choice would accept 1 == True
            raise ValueError(f"bias={self.bias!r} is not allowed: bias must be True or False.")


class MLP(BatchedModel):
    def __init__(self, config: MLPConfig):
        self.config = config
        self.act = activation(config.activation)
        self.widths = (config.d_in, *config.hidden, config.d_out)

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        n_layers = len(self.widths) - 1
        specs = []
        for k, (fan_in, fan_out) in enumerate(zip(self.widths[:-1], self.widths[1:])):
            last = k == n_layers - 1
            group, scale = ("dec", init_scale) if last else ("repr", repr_init_scale)
            specs.append(ParamSpec(f"W{k}", (fan_in, fan_out), group, _scaled(_torch_linear_weight(fan_in), scale)))
            if c.bias:
                specs.append(ParamSpec(f"b{k}", (fan_out,), group, _scaled(_uniform(1.0 / math.sqrt(fan_in)), scale)))
        return specs

    def forward(self, params, x):
        n_layers = len(self.widths) - 1
        h = x
        for k in range(n_layers):
            W = params[f"W{k}"]
            if h.dim() == 2:  # shared inputs (B, d_in): one matmul against every run's weights
                h = torch.matmul(h, W)
            else:
                h = torch.bmm(h, W)
            if self.config.bias:
                h = h + params[f"b{k}"].unsqueeze(1)
            if k < n_layers - 1:
                h = self.act(h)
        return h

    def matmul_flops_per_sample(self):
        return 2 * sum(a * b for a, b in zip(self.widths[:-1], self.widths[1:]))


# --------------------------------------------------------------------------------------------------
# GenEFT encoder-decoder (Baek, Liu & Tegmark 2024)

RELATION_MODES = ("concat", "difference", "squared_difference")


@dataclass(frozen=True, repr=False)
class RelationModelConfig(ConfigRepr):
    """The GenEFT encoder–decoder (Baek, Liu & Tegmark 2024, arXiv 2402.05916 v1, §2 and §3 "three modes";
    defaults from Table 3): each of n elements is embedded in R^d, the two embeddings of a pair are combined,
    and a tanh MLP decodes one logit (the relation holds when it is positive)."""

    n: int = 30  # paper §2: n = 30 elements
    d_embed: int = 2  # Table 3: embedding space dimension 2
    hidden_layers: int = 3  # Table 3 "decoder depth 3", read as n_h = 3 hidden layers (Fig. 3's n_h; our reading)
    width: int = 50  # Table 3: decoder width 50
    mode: str = "concat"  # §3: mode 1 (concatenation) is the default

    def __post_init__(self):
        check_int("n", self.n, minimum=2)
        check_int("d_embed", self.d_embed, minimum=1)
        check_int("hidden_layers", self.hidden_layers, minimum=0)
        check_int("width", self.width, minimum=1)
        check_choice("mode", self.mode, RELATION_MODES)

    @property
    def decoder_input(self) -> int:
        return 2 * self.d_embed if self.mode == "concat" else self.d_embed

    def layer_shapes(self) -> list[tuple[int, int]]:
        dims = [self.decoder_input] + [self.width] * self.hidden_layers + [1]
        return list(zip(dims[:-1], dims[1:]))

    def label(self) -> str:
        return f"n_h={self.hidden_layers}, w={self.width}, {self.mode}, d={self.d_embed}"


def _float64_normal(shape, gen):
    # N(0, 1) as nn.Embedding, drawn in float64 (the GenEFT chapters' init since their first version: a float64
    # draw consumes the generator differently from a float32 one, so it must stay float64 for the stored runs)
    return torch.randn(shape, generator=gen, dtype=torch.float64)


def _float64_uniform(bound: float):
    # U(±bound) as (rand · 2 − 1) · bound, in float64 and in the stored (fan_in, fan_out) order (see above)
    return lambda shape, gen: (torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1) * bound


class RelationModel(BatchedModel):
    """The GenEFT encoder–decoder on pairs ``x`` (B, 2) or (R, B, 2) of element indices; output (R, B, 1) logits.

    Parameters: ``embed`` (n, d) (group "repr": the encoder), then ``W{k}`` (fan_in, fan_out) and ``b{k}`` per
    decoder layer (group "dec"). Run r draws them in that order from its own generator: embeddings ~ N(0, 1)
    (nn.Embedding), weights and biases ~ U(±1/√fan_in) (nn.Linear's default), all in float64.
    """

    def __init__(self, config: RelationModelConfig):
        self.config = config

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        specs = [ParamSpec("embed", (c.n, c.d_embed), "repr", _scaled(_float64_normal, repr_init_scale))]
        for k, (fan_in, fan_out) in enumerate(c.layer_shapes()):
            init = _scaled(_float64_uniform(1 / math.sqrt(fan_in)), init_scale)
            specs += [ParamSpec(f"W{k}", (fan_in, fan_out), "dec", init), ParamSpec(f"b{k}", (fan_out,), "dec", init)]
        return specs

    def combine(self, e1: torch.Tensor, e2: torch.Tensor) -> torch.Tensor:
        """Decoder input from the two embeddings of a pair (paper §3, modes 1–3)."""
        mode = self.config.mode
        if mode == "concat":
            return torch.cat([e1, e2], dim=-1)
        if mode == "difference":
            return e1 - e2
        return (e1 - e2) ** 2

    def forward(self, params, x):
        emb = params["embed"]
        if x.dim() == 2:
            e1, e2 = emb[:, x[:, 0]], emb[:, x[:, 1]]
        else:
            runs = torch.arange(emb.shape[0], device=emb.device)[:, None]
            e1, e2 = emb[runs, x[..., 0]], emb[runs, x[..., 1]]
        h = self.combine(e1, e2)
        n_layers = len(self.config.layer_shapes())
        for k in range(n_layers):
            h = torch.baddbmm(params[f"b{k}"].unsqueeze(1), h, params[f"W{k}"])
            if k < n_layers - 1:
                h = torch.tanh(h)
        return h

    def matmul_flops_per_sample(self):
        return 2 * sum(a * b for a, b in self.config.layer_shapes())


def build_model(config) -> BatchedModel:
    """The model for a config dataclass. A config defined in a module that builds on this one (e.g.
    :class:`repro.models.grok_transformer.GrokTransformerConfig`) builds its own model with ``build_model()``."""
    own = getattr(config, "build_model", None)
    if callable(own) and not isinstance(config, type):
        return own()
    if isinstance(config, EmbedMLPConfig):
        return EmbedMLP(config)
    if isinstance(config, TransformerConfig):
        return Transformer(config)
    if isinstance(config, EncoderTransformerConfig):
        return EncoderTransformer(config)
    if isinstance(config, TwoLayerConfig):
        return TwoLayerNet(config)
    if isinstance(config, MLPConfig):
        return MLP(config)
    if isinstance(config, QuadraticNetConfig):
        return QuadraticNet(config)
    if isinstance(config, RelationModelConfig):
        return RelationModel(config)
    raise ValueError(
        f"model config of type {type(config).__name__} is not allowed: use EmbedMLPConfig, TransformerConfig, "
        "GrokTransformerConfig, EncoderTransformerConfig, TwoLayerConfig, MLPConfig, QuadraticNetConfig or "
        "RelationModelConfig."
    )

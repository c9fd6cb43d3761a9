"""The decoder-only transformer of openai/grok (commit 3d64b1d, grok/transformer.py), the code behind Power et al.
2022, written with the run axis of :mod:`repro.models.networks` (every parameter ``(R, *shape)``); it trains the
opening chapter's Fig. 1 run (``book/power2022_what_is_grokking``).

What makes it that model and not :class:`repro.models.networks.Transformer` (pre-LayerNorm, learned positions,
TransformerLens init):

* post-LayerNorm blocks, ``a = LN(x + attn(x))`` then ``LN(a + ffn(a))`` (``DecoderBlock.forward``), and no final
  LayerNorm (``Decoder`` ends with the last block);
* linear layers without biases (every ``Linear(..., bias=False)``); the LayerNorms keep their affine weight and bias;
* fixed sinusoidal position encodings, a buffer (``Transformer._position_encoding``): row ``pos``, column ``i`` is
  ``sin(pos / 10000^(i / d))`` for even ``i`` and ``cos(pos / 10000^((i - 1) / d))`` for odd ``i``;
* a causal mask (``Transformer.make_mask``: ``tril`` of ones; a query sees its own and earlier positions);
* an untied output head over the whole vocabulary (``self.linear``, d_model -> vocab_len);
* PyTorch's default init: the embedding N(0, 1) (``nn.Embedding``), every linear weight U(-1/sqrt(fan_in),
  1/sqrt(fan_in)) (``nn.Linear``'s kaiming_uniform_(a=sqrt(5))), LayerNorms at weight 1, bias 0. Run r draws them
  from a generator seeded with its init seed in the order the official modules are built: the embedding; then per
  block each head's Wq, Wk, Wv (head by head), Wo, the FFN's two layers; then the output head. With
  ``torch.manual_seed(seed)`` before building the official module, its initial weights are these
  (``tests/test_grok_transformer.py`` checks an nn.Module built that way).

Inputs are token sequences ``(B, n_ctx)`` (shared by the runs) or ``(R, B, n_ctx)``; the output is the logits at the
last ``n_answer`` positions, ``(R, B, n_answer, d_vocab)``: the positions whose next tokens are the answer (the
official loss reads the predictions of the tokens after "=", ``training.py _step``). Two savings keep the function
and skip work (the logits and gradients equal those of the whole sequence, ``tests/test_grok_transformer.py``): the
last block computes its queries, attention output and FFN at those positions alone (keys and values at every
position), and the first positions ("<eos> a op", which the causal mask keeps from seeing the rest) are computed
once per distinct prefix in the batch. On one CPU core the second cut a training step of Fig. 1's model from about
95 to 72 ms.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from repro.core.portable import ConfigRepr
from repro.core.validation import check_choice, check_int
from repro.models.networks import (BatchedModel, ParamSpec, _constant, _normal, _scaled, _torch_linear_weight,
                                   runwise_layer_norm)


@dataclass(frozen=True, repr=False)
class GrokTransformerConfig(ConfigRepr):
    """openai/grok's transformer. Defaults: the official command line (training.py ``add_model_specific_args``) on its
    arithmetic vocabulary."""

    d_vocab: int = 239  # data.py ArithmeticTokenizer.get_tokens: 2 special + 20 operators + 97 numbers + 120 S5 elements
    # the sequence "<eos> a op b = c": the official text[:, :-1] of "<eos> a op b = c <eos>" (data.py
    # ArithmeticIterator); the position encodings of longer contexts (--max_context_len 50) are never read
    n_ctx: int = 6
    d_model: int = 128  # training.py --d_model 128
    n_heads: int = 4  # training.py --n_heads 4 (d_key = d_model / heads, transformer.py MultiHeadAttention)
    n_layers: int = 2  # training.py --n_layers 2
    d_mlp: int = 512  # transformer.py FFN: multiplier 4 x d_model
    n_answer: int = 2  # the target tokens after "=": c and the closing <eos> (training.py _step)
    act_fn: str = "relu"  # training.py --non_linearity relu

    def __post_init__(self):
        for name in ("d_vocab", "n_ctx", "d_model", "n_heads", "n_layers", "d_mlp", "n_answer"):
            check_int(name, getattr(self, name), minimum=1)
        check_choice("act_fn", self.act_fn, ("relu", "gelu"))
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not allowed: it must be divisible by n_heads={self.n_heads}.")
        if self.n_answer >= self.n_ctx:
            raise ValueError(f"n_answer={self.n_answer} is not allowed: fewer than n_ctx={self.n_ctx} positions (the "
                             "answer follows at least one token).")

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    def build_model(self) -> "GrokTransformer":
        """The model (what :func:`repro.models.networks.build_model` calls: that module cannot import this one,
        which builds on it)."""
        return GrokTransformer(self)


def sinusoidal_positions(n_ctx: int, d_model: int) -> torch.Tensor:
    """The fixed (n_ctx, d_model) position encodings: column i is sin(pos / 10000^(i / d)) for even i and
    cos(pos / 10000^((i - 1) / d)) for odd i, computed in float64 as the official code's numpy does."""
    pos = torch.arange(n_ctx, dtype=torch.float64)[:, None]
    i = torch.arange(d_model)
    angle = pos / 10000 ** ((i - i % 2).double() / d_model)
    return torch.where(i % 2 == 0, torch.sin(angle), torch.cos(angle))


def _qkv_init(shape, gen):
    """The (3, d_model, H, d_head) query, key and value weights, drawn head by head in the order of the official heads
    (each an AttentionHead with Linear Wq, Wk, Wv of d_model -> d_head, drawn (out, in) and stored transposed)."""
    three, d, n_heads, e = shape
    w = torch.empty(shape)
    draw = _torch_linear_weight(d)
    for h in range(n_heads):
        for j in range(three):
            w[j, :, h] = draw((d, e), gen)
    return w


def _rows(table: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``table[r, index[r]]`` of each run: rows of the tables (R, V, ...) at the indices (R, N, ...), as
    (R, N, ..., *table.shape[2:]). By index_select over the (R V, ...) table, whose backward is index_add_: faster
    on the CPU than advanced indexing's."""
    R, V = table.shape[:2]
    flat = index + V * torch.arange(R, device=index.device).view(R, *([1] * (index.dim() - 1)))
    return table.reshape(R * V, *table.shape[2:]).index_select(0, flat.reshape(-1)).view(*flat.shape, *table.shape[2:])


def _linear(h: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """h (R, ..., n_in) @ w (R, n_in, n_out): a bias-free linear layer of each run."""
    R, n_in = h.shape[0], h.shape[-1]
    return torch.bmm(h.reshape(R, -1, n_in), w).view(*h.shape[:-1], w.shape[-1])


class GrokTransformer(BatchedModel):
    """:class:`GrokTransformerConfig`'s network. Parameters (per run): ``W_E`` (vocab, d), per block
    ``blocks.{l}.attn.W_QKV`` (3, d, H, d_head), ``attn.W_O`` (H d_head, d), ``ln1.w``/``ln1.b`` (the official
    self_attn_norm), ``mlp.W_in`` (d, d_mlp), ``mlp.W_out`` (d_mlp, d), ``ln2.w``/``ln2.b`` (ffn_norm), and ``W_U``
    (d, vocab). Linear weights are stored (in, out), the transpose of nn.Linear's. ``W_E`` is the representation
    group, the rest the decoder."""

    # Positions 0-2 of openai/grok's equations are "<eos> a op": in a table of p(p - 1) equations they take p distinct
    # values, so the first blocks compute them once per distinct prefix (:meth:`forward`)
    shared_prefix = 3

    def __init__(self, config: GrokTransformerConfig):
        self.config = config
        self.act = torch.relu if config.act_fn == "relu" else F.gelu
        self.positions = sinusoidal_positions(config.n_ctx, config.d_model)
        # True where a key comes after its query (masked), as the official mask is 0 there
        self.future = torch.triu(torch.ones(config.n_ctx, config.n_ctx, dtype=torch.bool), diagonal=1)

    def input_ndim(self):
        return 2

    def param_specs(self, init_scale=1.0, repr_init_scale=1.0):
        c = self.config
        d, H, e = c.d_model, c.n_heads, c.d_head
        one, zero = _constant(1.0), _constant(0.0)
        w = lambda init: _scaled(init, init_scale)  # the trainer's init multipliers (1: the official init)
        specs = [ParamSpec("W_E", (c.d_vocab, d), "repr", _normal(repr_init_scale))]
        for layer in range(c.n_layers):
            pre = f"blocks.{layer}."
            specs += [
                ParamSpec(pre + "attn.W_QKV", (3, d, H, e), "dec", w(_qkv_init)),
                ParamSpec(pre + "attn.W_O", (H * e, d), "dec", w(_torch_linear_weight(H * e))),
                ParamSpec(pre + "ln1.w", (d,), "dec", one), ParamSpec(pre + "ln1.b", (d,), "dec", zero),
                ParamSpec(pre + "mlp.W_in", (d, c.d_mlp), "dec", w(_torch_linear_weight(d))),
                ParamSpec(pre + "mlp.W_out", (c.d_mlp, d), "dec", w(_torch_linear_weight(c.d_mlp))),
                ParamSpec(pre + "ln2.w", (d,), "dec", one), ParamSpec(pre + "ln2.b", (d,), "dec", zero),
            ]
        specs.append(ParamSpec("W_U", (d, c.d_vocab), "dec", w(_torch_linear_weight(d))))
        return specs

    def embed(self, W_E: torch.Tensor, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        """Token embeddings plus the position encodings of positions ``start``, ``start + 1``, ...: (R, N, T, d) for
        each run's tokens x (R, N, T)."""
        return _rows(W_E, x) + self.positions[start : start + x.shape[-1]].to(device=W_E.device, dtype=W_E.dtype)

    def heads(self, params, pre: str, which: int, h: torch.Tensor) -> torch.Tensor:
        """Queries (``which`` 0), keys (1) or values (2) of h (R, N, T, d): (R, N, T, H, d_head). One product on the
        weight's block each, not one product split afterwards: slices of one product made the attention's products
        strided and their backward zero-filled the whole product three times (about a third of a step)."""
        c = self.config
        R, d = h.shape[0], h.shape[-1]
        w = params[pre + "attn.W_QKV"][:, which].reshape(R, d, c.n_heads * c.d_head)
        return _linear(h, w).view(*h.shape[:-1], c.n_heads, c.d_head)

    def attend(self, params, pre: str, q, k, v, first_query: int) -> torch.Tensor:
        """Causal attention of the queries q (R, N, Tq, H, e) at positions ``first_query``... over the keys and
        values k, v (R, N, Tk, H, e) at positions 0... (a query sees its own position and the earlier ones), the heads
        concatenated in order, then Wo: (R, N, Tq, d)."""
        e, Tq, Tk = q.shape[-1], q.shape[2], k.shape[2]
        q, k, v = (t.transpose(2, 3) for t in (q, k, v))  # (R, N, H, positions, e)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(e)  # (R, N, H, queries, keys)
        future = self.future[first_query : first_query + Tq, :Tk].to(q.device)
        z = torch.matmul(scores.masked_fill(future, float("-inf")).softmax(-1), v).transpose(2, 3)  # (R, N, Tq, H, e)
        return _linear(z.flatten(-2), params[pre + "attn.W_O"])

    def post_norm(self, params, pre: str, x: torch.Tensor, attn: torch.Tensor) -> torch.Tensor:
        """The rest of a post-LayerNorm block (official ``DecoderBlock.forward``): a = LN(x + attn), LN(a + FFN(a))."""
        a = runwise_layer_norm(x + attn, params[pre + "ln1.w"], params[pre + "ln1.b"])
        ffn = _linear(self.act(_linear(a, params[pre + "mlp.W_in"])), params[pre + "mlp.W_out"])
        return runwise_layer_norm(a + ffn, params[pre + "ln2.w"], params[pre + "ln2.b"])

    def block(self, params, layer: int, prefix, which, suffix, queries_from: int, prefix_out: bool = True):
        """One decoder block of the sequences made of a shared prefix and each sample's suffix.

        prefix (R, U, P, d): the block's input at positions 0..P-1 of the U distinct prefixes; ``which`` (R, N): each
        sample's prefix; suffix (R, N, S, d): the input at positions P..P+S-1. Returns the block's output at the
        prefixes (None unless ``prefix_out``) and at the suffix positions from ``queries_from`` (counted in the suffix)
        on. A prefix position sees only the prefix (the mask is causal), so its output, keys and values are computed
        once per distinct prefix and gathered per sample."""
        pre = f"blocks.{layer}."
        P = prefix.shape[2]
        k_prefix, v_prefix = self.heads(params, pre, 1, prefix), self.heads(params, pre, 2, prefix)
        k = torch.cat([_rows(k_prefix, which), self.heads(params, pre, 1, suffix)], dim=2)
        v = torch.cat([_rows(v_prefix, which), self.heads(params, pre, 2, suffix)], dim=2)
        x = suffix[:, :, queries_from:]
        out = self.post_norm(params, pre, x, self.attend(params, pre, self.heads(params, pre, 0, x), k, v,
                                                         P + queries_from))
        if not prefix_out:
            return None, out
        attn = self.attend(params, pre, self.heads(params, pre, 0, prefix), k_prefix, v_prefix, 0)
        return self.post_norm(params, pre, prefix, attn), out

    def forward(self, params, x):
        """Logits (R, N, n_answer, d_vocab) of the tokens x (N, T) or (R, N, T). The first :attr:`shared_prefix`
        positions ("<eos> a op": 97 distinct prefixes in a table of 9312 equations) are computed once per distinct
        prefix (``torch.unique``): the same function as the whole sequence's with about a third fewer products."""
        c = self.config
        R, T = params["W_E"].shape[0], x.shape[-1]
        x = x.expand(R, *x.shape) if x.dim() == 2 else x  # (R, N, T)
        P = min(self.shared_prefix, T - c.n_answer)
        prefixes, which = torch.unique(x[..., :P].reshape(-1, P), dim=0, return_inverse=True)
        prefix = self.embed(params["W_E"], prefixes.expand(R, *prefixes.shape))  # (R, U, P, d): every run's prefixes
        suffix = self.embed(params["W_E"], x[..., P:], start=P)  # (R, N, T - P, d)
        which = which.view(x.shape[:-1])
        for layer in range(c.n_layers):
            last = layer == c.n_layers - 1
            # the last block computes its queries, attention output and FFN at the answer positions alone
            prefix, suffix = self.block(params, layer, prefix, which, suffix, T - P - c.n_answer if last else 0,
                                        prefix_out=not last)
        return _linear(suffix, params["W_U"])  # (R, N, n_answer, d_vocab)

    def matmul_flops_per_sample(self):
        """Without the shared prefix's saving (it depends on how many samples share a prefix)."""
        c = self.config
        T, d = c.n_ctx, c.d_model
        layer = lambda q: (2 * T + 2 * q) * d * d + 2 * q * T * d + 2 * q * d * c.d_mlp  # MACs with q queries
        macs = (c.n_layers - 1) * layer(T) + layer(c.n_answer) + c.n_answer * d * c.d_vocab
        return 2 * macs

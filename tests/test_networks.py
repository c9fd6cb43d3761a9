import math

import pytest
import torch

from repro.models.networks import (EmbedMLP, EmbedMLPConfig, EncoderTransformerConfig, MLPConfig, Transformer,
                                   TransformerConfig, TwoLayerConfig, TwoLayerNet, activation, build_model)
from repro.training.trainer import FlatParams, TrainConfig, per_run_values


def _params(model_cfg, runs=3, **over):
    model = build_model(model_cfg)
    _, values = per_run_values(TrainConfig(), {"init_seed": list(range(runs)), **over})
    return model, FlatParams(model, values, torch.float64, torch.device("cpu"))


def test_embed_mlp_shapes_and_param_count():
    cfg = EmbedMLPConfig()  # 1-200-200-30 toy model
    model, flat = _params(cfg)
    x = torch.tensor([[0, 1], [2, 3], [9, 9]])
    out = model.forward(flat.views(), x)
    assert out.shape == (3, 3, 30)
    assert model.n_params() == 10 + (1 * 200 + 200) + (200 * 200 + 200) + (200 * 30 + 30)
    # per-run inputs give the same as shared inputs
    out2 = model.forward(flat.views(), x.expand(3, -1, -1))
    assert torch.allclose(out, out2)


def test_embed_mlp_init_matches_official_torch_order():
    """toy/train_add.py: reprs = (rand(p, d) - 0.5) * s, then nn.Linear layers in order, all from one torch seed."""
    torch.manual_seed(58)
    reprs = (torch.rand(10, 1) - 0.5) * 1.0
    layers = [torch.nn.Linear(1, 200), torch.nn.Linear(200, 200), torch.nn.Linear(200, 30)]
    model, flat = _params(EmbedMLPConfig(), runs=1, init_seed=[58])
    v = flat.views()
    assert torch.allclose(v["embed"][0].float(), reprs, atol=1e-7)
    for k, layer in enumerate(layers):
        assert torch.allclose(v[f"W{k}"][0].float(), layer.weight.detach().T, atol=1e-7)
        assert torch.allclose(v[f"b{k}"][0].float(), layer.bias.detach(), atol=1e-7)


def test_embed_mlp_matches_nn_modules():
    cfg = EmbedMLPConfig(n_symbols=5, d_embed=3, hidden=(7,), d_out=4, activation="relu")
    model, flat = _params(cfg, runs=2)
    x = torch.tensor([[0, 4], [1, 2], [3, 3]])
    out = model.forward(flat.views(), x)
    for r in range(2):
        v = {k: t[r] for k, t in flat.views().items()}
        h = torch.relu((v["embed"][x[:, 0]] + v["embed"][x[:, 1]]) @ v["W0"] + v["b0"])
        assert torch.allclose(out[r], h @ v["W1"] + v["b1"])


def test_embed_mlp_matmul_combine_for_s3():
    cfg = EmbedMLPConfig(n_symbols=6, d_embed=9, combine="matmul", d_out=30)
    model, flat = _params(cfg, runs=1)
    x = torch.tensor([[1, 2]])
    E = flat.views()["embed"][0]
    expected = (E[1].view(3, 3) @ E[2].view(3, 3)).reshape(9)
    assert torch.allclose(model.embed_pairs(flat.views()["embed"], x)[0, 0], expected)
    with pytest.raises(ValueError, match="d_embed"):
        EmbedMLPConfig(d_embed=8, combine="matmul")


def test_init_scale_multiplies_decoder_only():
    cfg = EmbedMLPConfig(n_symbols=5, d_embed=2, hidden=(4,), d_out=3)
    _, a = _params(cfg, runs=1, init_seed=[3])
    _, b = _params(cfg, runs=1, init_seed=[3], init_scale=[8.0])
    va, vb = a.views(), b.views()
    assert torch.allclose(vb["W0"], 8 * va["W0"]) and torch.allclose(vb["embed"], va["embed"])


def _reference_transformer(cfg, v, x):
    """A plain per-head loop implementation to check the batched einsum version (a missing bias counts as 0)."""
    v = {**{k: 0.0 for k in ("b_U",)}, **v}
    for layer in range(cfg.n_layers):
        for name in ("b_Q", "b_K", "b_V"):
            v.setdefault(f"blocks.{layer}.attn.{name}", torch.zeros(cfg.n_heads, cfg.d_head, dtype=v["W_E"].dtype))
        v.setdefault(f"blocks.{layer}.attn.b_O", 0.0)
    resid = v["W_E"][x] + v["W_pos"][: x.shape[1]]
    n = x.shape[1]
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
    for layer in range(cfg.n_layers):
        pre = f"blocks.{layer}."
        heads = []
        for h in range(cfg.n_heads):
            q = resid @ v[pre + "attn.W_Q"][h] + v[pre + "attn.b_Q"][h]
            k = resid @ v[pre + "attn.W_K"][h] + v[pre + "attn.b_K"][h]
            val = resid @ v[pre + "attn.W_V"][h] + v[pre + "attn.b_V"][h]
            s = (q @ k.transpose(-1, -2)) / math.sqrt(cfg.d_head)
            heads.append(s.masked_fill(mask, float("-inf")).softmax(-1) @ val @ v[pre + "attn.W_O"][h])
        resid = resid + sum(heads) + v[pre + "attn.b_O"]
        mid = torch.relu(resid @ v[pre + "mlp.W_in"] + v[pre + "mlp.b_in"])
        resid = resid + mid @ v[pre + "mlp.W_out"] + v[pre + "mlp.b_out"]
    return resid[:, -1] @ v["W_U"] + v["b_U"]


def test_transformer_matches_reference_loop():
    cfg = TransformerConfig(d_vocab=8, n_ctx=3, d_model=16, n_heads=2, d_head=8, d_mlp=32, n_layers=2, d_vocab_out=7)
    model, flat = _params(cfg, runs=2)
    x = torch.randint(0, 8, (5, 3), generator=torch.Generator().manual_seed(0))
    out = model.forward(flat.views(), x)
    assert out.shape == (2, 5, 7)
    for r in range(2):
        v = {k: t[r] for k, t in flat.views().items()}
        assert torch.allclose(out[r], _reference_transformer(cfg, v, x), atol=1e-10)


def test_nanda_init_has_the_official_scales_and_no_attention_or_unembedding_biases():
    """init='nanda' (Nanda et al.'s transformer, copied by the Omnigrok notebook): no b_Q/b_K/b_V/b_O/b_U, weights
    N(0, 1/d_model) and W_U N(0, 1/d_vocab); the forward pass equals the per-head reference; at p = 59 the initial
    norm is the official init's in expectation, sqrt(sum of n_i sigma_i^2), about 1/0.8 times TransformerLens'."""
    cfg = TransformerConfig(d_vocab=8, n_ctx=3, d_model=16, n_heads=2, d_head=8, d_mlp=32, n_layers=2, d_vocab_out=7,
                            init="nanda")
    model, flat = _params(cfg, runs=2)
    names = set(flat.views())
    assert not any(n.endswith(("attn.b_Q", "attn.b_K", "attn.b_V", "attn.b_O")) for n in names) and "b_U" not in names
    assert {"blocks.0.mlp.b_in", "blocks.0.mlp.b_out"} <= names
    x = torch.randint(0, 8, (5, 3), generator=torch.Generator().manual_seed(1))
    out = model.forward(flat.views(), x)
    for r in range(2):
        v = {k: t[r] for k, t in flat.views().items()}
        assert torch.allclose(out[r], _reference_transformer(cfg, v, x), atol=1e-10)
    # the Omnigrok talk's p = 59 model: expected initial norm, official layout (W_U over d_vocab = p + 1 columns)
    big = TransformerConfig(d_vocab=60, n_ctx=3, d_model=128, n_heads=4, d_head=32, d_mlp=512, d_vocab_out=59,
                            init="nanda")
    _, bflat = _params(big, runs=4)
    norms = bflat.flat.norm(dim=1)
    d, h, e, m = 128, 4, 32, 512
    expected = math.sqrt((60 * d + 3 * d + 3 * h * d * e + h * e * d + 2 * d * m) / d + d * 59 / 60)
    assert abs(float(norms.mean()) / expected - 1) < 0.01, (float(norms.mean()), expected)
    official = math.sqrt((60 * d + 3 * d + 3 * h * d * e + h * e * d + 2 * d * m) / d + d * 60 / 60)
    assert abs(expected / official - 1) < 0.002  # one unembedding column fewer (no '=' output)
    _, tl = _params(TransformerConfig(d_vocab=60, n_ctx=3, d_model=128, n_heads=4, d_head=32, d_mlp=512,
                                      d_vocab_out=59), runs=4)
    assert float(tl.flat.norm(dim=1).mean()) < 0.82 * float(norms.mean())
    with pytest.raises(ValueError, match="initializer_range"):
        TransformerConfig(init="nanda", initializer_range=0.1)
    with pytest.raises(ValueError, match="init"):
        TransformerConfig(init="xavier")


def test_transformer_layernorm_option_runs():
    cfg = TransformerConfig(d_vocab=6, n_ctx=3, d_model=8, n_heads=2, d_head=4, d_mlp=16, d_vocab_out=5,
                            normalization_type="LN")
    model, flat = _params(cfg, runs=2)
    out = model.forward(flat.views(), torch.zeros(4, 3, dtype=torch.long))
    assert out.shape == (2, 4, 5) and torch.isfinite(out).all()


@pytest.mark.parametrize("act", ["quadratic", "erf", "relu", "tanh"])
@pytest.mark.parametrize("bias", [False, True])
def test_two_layer_net(act, bias):
    cfg = TwoLayerConfig(d_in=4, width=6, d_out=2, activation=act, bias=bias)
    model, flat = _params(cfg, runs=3)
    x = torch.randn(5, 4, dtype=torch.float64)
    out = model.forward(flat.views(), x)
    assert out.shape == (3, 5, 2)
    v = {k: t[1] for k, t in flat.views().items()}
    pre = x @ v["W"] + (v["b"] if bias else 0)
    ref = activation(act)(pre) @ v["a"] + (v["c"] if bias else 0)
    assert torch.allclose(out[1], ref)


@pytest.mark.parametrize("make, match", [
    (lambda: EmbedMLPConfig(activation="sigmoid"), "activation"),
    (lambda: EmbedMLPConfig(hidden=[200]), "hidden"),
    (lambda: TransformerConfig(n_heads=0), "n_heads"),
    (lambda: TransformerConfig(normalization_type="RMS"), "normalization_type"),
    (lambda: TwoLayerConfig(width=0), "width"),
    (lambda: build_model("mlp"), "model config"),
])
def test_bad_model_config_raises(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# Liu et al. 2022's transformer against the official module: phasegrok/models.py's Decoder(concat=True),
# re-declared here from torch.nn (DecoderLayer = nn.TransformerEncoderLayer with the official arguments).


class _OfficialDecoderLayer(torch.nn.TransformerEncoderLayer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout):
        super().__init__(d_model, nhead, dim_feedforward=dim_feedforward, dropout=dropout, activation="relu",
                         batch_first=True, norm_first=True)


class _Flatten(torch.nn.Module):  # the official ReshapeBlock on (B, 2, d)
    def forward(self, x):
        return x.reshape(x.shape[0], -1)


def _official_decoder(cfg: EncoderTransformerConfig, dropout=0.0):
    layers = [_OfficialDecoderLayer(cfg.d_model, cfg.n_heads, cfg.d_mlp, dropout) for _ in range(cfg.n_layers)]
    return torch.nn.Sequential(*layers, _Flatten(), torch.nn.Linear(cfg.n_ctx * cfg.d_model, cfg.d_vocab_out))


ENCODER = EncoderTransformerConfig(d_vocab=7, d_model=16, n_heads=2, d_mlp=12, n_layers=2, d_vocab_out=7)


def test_encoder_transformer_init_matches_official_draws():
    """scripts/transformer_grokking.py draws representation = torch.randn(p, latent_dim), then builds the
    Decoder: from the same seed our per-run generator gives the same numbers, bit for bit."""
    model = build_model(ENCODER)
    _, values = per_run_values(TrainConfig(init_seed=3), None)
    views = FlatParams(model, values, torch.float32, torch.device("cpu")).views()
    torch.manual_seed(3)
    representation = torch.randn(ENCODER.d_vocab, ENCODER.d_model)
    official = _official_decoder(ENCODER)
    assert torch.equal(views["embed"][0], representation)
    state = official.state_dict()
    assert {f"net.{k}" for k in state} == set(views) - {"embed"}
    for key, value in state.items():
        assert torch.equal(views[f"net.{key}"][0], value), key


def test_encoder_transformer_forward_matches_official_module():
    """Eval mode (no dropout), float64: the official module loaded with each run's parameters."""
    model, flat = _params(ENCODER, runs=2)
    x = torch.cartesian_prod(torch.arange(7), torch.arange(7))
    views = flat.views()
    ours = model.forward(views, x)
    assert ours.shape == (2, 49, 7)
    for r in range(2):
        official = _official_decoder(ENCODER).double().eval()
        official.load_state_dict({k[len("net."):]: v[r] for k, v in views.items() if k != "embed"})
        with torch.no_grad():
            ref = official(views["embed"][r][x])
        assert torch.allclose(ours[r], ref, atol=1e-12, rtol=0)
    # order matters only through the concatenation: swapping (a, b) changes the logits
    assert not torch.allclose(ours, model.forward(views, x.flip(1)))


def test_encoder_transformer_dropout_sites_match_torch_in_expectation():
    """With the same units dropped... torch's masks cannot be replayed, so check the rule at each site
    instead: an identity 'dropout' gives the eval output, and a dropout that zeroes everything leaves the
    residual stream carrying the embeddings alone (attention and MLP outputs all dropped)."""
    model, flat = _params(ENCODER, runs=2)
    views = flat.views()
    x = torch.tensor([[0, 1], [2, 3]])
    assert torch.equal(model.forward(views, x, dropout=lambda h: h), model.forward(views, x))
    calls = []
    zero_all = lambda h: calls.append(h.shape) or torch.zeros_like(h)
    out = model.forward(views, x, dropout=zero_all)
    assert len(calls) == 4 * ENCODER.n_layers  # attention, attention output, MLP hidden, MLP output
    head = f"net.{ENCODER.n_layers + 1}."
    embeds = views["embed"][:, x].reshape(2, 2, -1)
    expected = torch.baddbmm(views[head + "bias"][:, None], embeds, views[head + "weight"].transpose(1, 2))
    assert torch.allclose(out, expected)


# ---------------------------------------------------------------- MLPConfig (the Omnigrok chapter's MLP)


@pytest.mark.parametrize("act, module", [("relu", torch.nn.ReLU), ("leaky_relu_0.2", lambda: torch.nn.LeakyReLU(0.2))])
def test_mlp_matches_torch_sequential_init_and_forward(act, module):
    """Against nn.Sequential; "leaky_relu_0.2" is the official Omnigrok landscape notebook's nn.LeakyReLU(0.2)."""
    cfg = MLPConfig(d_in=7, hidden=(11, 5), d_out=3, activation=act)
    torch.manual_seed(4)
    net = torch.nn.Sequential(torch.nn.Linear(7, 11), module(), torch.nn.Linear(11, 5), module(),
                              torch.nn.Linear(5, 3))
    _, values = per_run_values(TrainConfig(init_seed=4), None)
    params = FlatParams(build_model(cfg), values, torch.float32, "cpu")
    v = params.views()
    for k in range(3):
        torch.testing.assert_close(v[f"W{k}"][0], net[2 * k].weight.T)
        torch.testing.assert_close(v[f"b{k}"][0], net[2 * k].bias)
    x = torch.randn(6, 7)
    torch.testing.assert_close(build_model(cfg).forward(v, x)[0], net(x))
    torch.testing.assert_close(build_model(cfg).forward(v, x[None])[0], net(x))  # per-run inputs


def test_mlp_groups_scales_and_validation():
    model = build_model(MLPConfig(d_in=4, hidden=(3,), d_out=2, bias=False))
    specs = model.param_specs(init_scale=2.0, repr_init_scale=0.5)
    assert [(s.name, s.group) for s in specs] == [("W0", "repr"), ("W1", "dec")]
    gen = torch.Generator().manual_seed(0)
    w0 = specs[0].init(specs[0].shape, gen)
    assert float(w0.abs().max()) <= 0.5 / 2.0 + 1e-7  # U(-1/sqrt(4), 1/sqrt(4)) x 0.5
    assert model.n_params() == 4 * 3 + 3 * 2
    for bad in (dict(d_in=0), dict(d_in=3, hidden=[200]), dict(d_in=3, activation="sigmoid"), dict(d_in=3, bias=1)):
        with pytest.raises(ValueError):
            MLPConfig(**bad)


def test_runwise_layer_norm_is_each_runs_nn_layernorm_values_and_gradients():
    from repro.models.networks import runwise_layer_norm

    gen = torch.Generator().manual_seed(0)
    for runs in (1, 3):
        x = torch.randn(runs, 5, 2, 8, generator=gen, dtype=torch.float64, requires_grad=True)
        w = torch.randn(runs, 8, generator=gen, dtype=torch.float64, requires_grad=True)
        b = torch.randn(runs, 8, generator=gen, dtype=torch.float64, requires_grad=True)
        up = torch.randn(runs, 5, 2, 8, generator=gen, dtype=torch.float64)
        out = runwise_layer_norm(x, w, b)
        grads = torch.autograd.grad((out * up).sum(), (x, w, b))
        for r in range(runs):
            ln = torch.nn.LayerNorm(8, eps=1e-5, dtype=torch.float64)
            with torch.no_grad():
                ln.weight.copy_(w[r])
                ln.bias.copy_(b[r])
            xr = x[r].detach().clone().requires_grad_(True)
            ref = ln(xr)
            (ref * up[r]).sum().backward()
            assert torch.allclose(out[r], ref, rtol=0, atol=1e-12)
            assert torch.allclose(grads[0][r], xr.grad, rtol=0, atol=1e-12)
            assert torch.allclose(grads[1][r], ln.weight.grad, rtol=0, atol=1e-12)
            assert torch.allclose(grads[2][r], ln.bias.grad, rtol=0, atol=1e-12)

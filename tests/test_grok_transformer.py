"""openai/grok's transformer (repro.models.grok_transformer) and data pipeline (repro.data.tasks build_grok_task_data),
against a reference written here with torch.nn modules in the structure of openai/grok's grok/transformer.py (commit
3d64b1d): the same modules built in the same order, so that ``torch.manual_seed(s)`` gives it the initial weights
the official code would have."""
import math

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from repro.data.tasks import (GROK_EOS, GROK_EQ, GROK_FIRST_NUMBER, GROK_OPERATOR, GROK_VOCAB, BinaryOpTask,
                              build_grok_task_data, grok_sequences, grok_split)
from repro.models.grok_transformer import GrokTransformer, GrokTransformerConfig, sinusoidal_positions
from repro.models.networks import build_model
from repro.training.trainer import FlatParams, TrainConfig, per_run_values, per_sample_correct, per_sample_loss

DIVISION = BinaryOpTask("modular_division", 97)


class Reference(nn.Module):
    """openai/grok's Transformer as plain nn.Modules, built in its order: the embedding; per block, each head's Wq,
    Wk, Wv, then Wo, the attention's LayerNorm, the FFN's two linears, its LayerNorm; the output linear."""

    def __init__(self, vocab=GROK_VOCAB, d=128, n_heads=4, n_layers=2, n_ctx=6):
        super().__init__()
        e = d // n_heads
        self.e = e
        self.embedding = nn.Embedding(vocab, d)
        self.register_buffer("pe", sinusoidal_positions(n_ctx, d).float())
        self.blocks = nn.ModuleList()
        for _ in range(n_layers):
            block = nn.Module()
            block.heads = nn.ModuleList()
            for _ in range(n_heads):
                head = nn.Module()
                head.Wq, head.Wk, head.Wv = (nn.Linear(d, e, bias=False) for _ in range(3))
                block.heads.append(head)
            block.Wo = nn.Linear(d, d, bias=False)
            block.norm1 = nn.LayerNorm(d)
            block.ffn = nn.Sequential(nn.Linear(d, 4 * d, bias=False), nn.ReLU(), nn.Linear(4 * d, d, bias=False))
            block.norm2 = nn.LayerNorm(d)
            self.blocks.append(block)
        self.linear = nn.Linear(d, vocab, bias=False)

    def forward(self, x):  # (B, T) -> logits at every position (B, T, vocab)
        T = x.shape[-1]
        mask = torch.ones(T, T).tril()
        h = self.embedding(x) + self.pe[:T]
        for block in self.blocks:
            outs = []
            for head in block.heads:
                att = head.Wq(h) @ head.Wk(h).transpose(-2, -1) / math.sqrt(self.e)
                outs.append(att.masked_fill(mask == 0, float("-inf")).softmax(-1) @ head.Wv(h))
            a = block.norm1(h + block.Wo(torch.cat(outs, dim=-1)))
            h = block.norm2(a + block.ffn(a))
        return self.linear(h)

    def as_params(self, of=lambda t: t.detach()) -> dict[str, torch.Tensor]:
        """Its weights (or, with ``of=lambda t: t.grad``, their gradients) under GrokTransformer's names and layouts,
        with a run axis of one."""
        out = {"W_E": of(self.embedding.weight), "W_U": of(self.linear.weight).T}
        for i, b in enumerate(self.blocks):
            p = f"blocks.{i}."
            out[p + "attn.W_QKV"] = torch.stack([torch.stack([of(getattr(h, n).weight).T for h in b.heads], dim=1)
                                                 for n in ("Wq", "Wk", "Wv")])
            out[p + "attn.W_O"], out[p + "ln1.w"] = of(b.Wo.weight).T, of(b.norm1.weight)
            out[p + "ln1.b"], out[p + "ln2.w"], out[p + "ln2.b"] = of(b.norm1.bias), of(b.norm2.weight), of(b.norm2.bias)
            out[p + "mlp.W_in"], out[p + "mlp.W_out"] = of(b.ffn[0].weight).T, of(b.ffn[2].weight).T
        return {k: v[None] for k, v in out.items()}


def ours(seeds=(0,), config=GrokTransformerConfig()):
    model = build_model(config)
    _, values = per_run_values(TrainConfig(), {"init_seed": list(seeds)})
    return model, FlatParams(model, values, torch.float32, torch.device("cpu"))


def test_output_shapes_for_shared_and_per_run_inputs():
    model, flat = ours(seeds=(0, 1))
    inputs, _, _ = grok_sequences(DIVISION)
    assert inputs.shape == (97 * 96, 6)
    assert model.forward(flat.views(), inputs[:5]).shape == (2, 5, 2, GROK_VOCAB)
    assert model.forward(flat.views(), torch.stack([inputs[:7], inputs[7:14]])).shape == (2, 7, 2, GROK_VOCAB)


def test_parameter_count_is_the_official_models():
    """openai/grok's model on its 239-token vocabulary: the embedding 239 x 128; per block four heads of Wq, Wk, Wv
    (128 -> 32 each), Wo 128 x 128, the FFN 128 x 512 and 512 x 128, two LayerNorms of 128 weights and 128 biases;
    the output linear 128 x 239; no biases in any Linear and the position encodings a buffer, not parameters."""
    d, v = 128, 239
    per_block = 4 * 3 * d * 32 + d * d + 2 * d * 512 + 2 * 2 * d  # 197,120
    assert build_model(GrokTransformerConfig()).n_params() == v * d + 2 * per_block + d * v == 455_424
    assert sum(p.numel() for p in Reference().parameters()) == 455_424


def test_initial_statistics_are_pytorch_defaults():
    _, flat = ours(seeds=(3,))
    p = flat.views()
    assert p["W_E"].std().item() == pytest.approx(1.0, abs=0.02)  # nn.Embedding: N(0, 1), 30,592 draws
    assert p["W_E"].mean().item() == pytest.approx(0.0, abs=0.02)
    for name, fan_in in (("blocks.0.attn.W_QKV", 128), ("blocks.0.attn.W_O", 128), ("blocks.1.mlp.W_in", 128),
                         ("blocks.1.mlp.W_out", 512), ("W_U", 128)):
        w, bound = p[name], 1 / math.sqrt(fan_in)  # nn.Linear: U(-1/sqrt(fan_in), 1/sqrt(fan_in))
        assert w.abs().max().item() <= bound
        assert w.std().item() == pytest.approx(bound / math.sqrt(3), rel=0.03)
    assert torch.equal(p["blocks.0.ln1.w"], torch.ones(1, 128)) and torch.equal(p["blocks.1.ln2.b"], torch.zeros(1, 128))


def test_position_encodings_are_the_official_sinusoids():
    pe = sinusoidal_positions(6, 128)
    for pos, i in ((0, 0), (0, 1), (3, 10), (5, 127), (2, 64)):
        angle = pos / 10000 ** ((i - i % 2) / 128)
        assert pe[pos, i].item() == pytest.approx(math.sin(angle) if i % 2 == 0 else math.cos(angle), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 5])
def test_same_seed_same_initial_weights_as_the_official_modules_built_after_manual_seed(seed):
    torch.manual_seed(seed)
    reference = Reference()
    _, flat = ours(seeds=(seed,))
    for name, value in reference.as_params().items():
        # uniform_(-b, b) computes rand * 2b - b, ours (rand - 0.5) * 2b: equal up to float32 rounding
        torch.testing.assert_close(flat.views()[name], value, rtol=0, atol=1e-6, msg=name)


def test_logits_and_gradients_equal_the_reference():
    """The same function (post-LN blocks, causal heads, sinusoids, no biases) and the same gradients, for the
    logits at the two answer positions, with the shared prefix computed once per distinct prefix."""
    torch.manual_seed(1)
    reference = Reference()
    model = GrokTransformer(GrokTransformerConfig())
    data = build_grok_task_data(DIVISION, 0.5)
    idx = torch.as_tensor(data.train_idx[:300])
    x, targets = data.inputs[idx], data.targets[idx]
    logits = reference(x)[:, -2:]
    params = {k: v.clone().requires_grad_() for k, v in reference.as_params().items()}
    out = model.forward(params, x)
    torch.testing.assert_close(out[0], logits, rtol=1e-5, atol=1e-5)
    F.cross_entropy(logits.reshape(-1, GROK_VOCAB), targets.reshape(-1)).backward()
    per_sample_loss(out, data, idx[None]).mean().backward()
    for name, grad in reference.as_params(of=lambda t: t.grad).items():
        torch.testing.assert_close(params[name].grad, grad, rtol=1e-4, atol=1e-6, msg=name)


def test_blocks_are_post_layer_norm():
    """The last block ends in a LayerNorm (weight 1, bias 0 at init), so the vector the head reads has mean 0 and
    variance 1 at every answer position; a pre-LN block would add its FFN output after the norm."""
    model, flat = ours()
    params = {k: v.clone() for k, v in flat.views().items()}
    params["W_U"] = torch.eye(128, GROK_VOCAB)[None]  # logits[:128] = the last block's output
    h = model.forward(params, grok_sequences(DIVISION)[0][:50])[..., :128]
    torch.testing.assert_close(h.mean(-1), torch.zeros(1, 50, 2), atol=1e-5, rtol=0)
    torch.testing.assert_close(h.var(-1, unbiased=False), torch.ones(1, 50, 2), atol=1e-3, rtol=0)


def test_attention_is_causal():
    """Changing the answer token c (the input at the last position) leaves the prediction of c (made at "=") as it
    is and changes the one made at c; changing an operand changes both."""
    model, flat = ours()
    x = grok_sequences(DIVISION)[0][:20]
    base = model.forward(flat.views(), x)
    later = x.clone()
    later[:, 5] = GROK_FIRST_NUMBER + (later[:, 5] - GROK_FIRST_NUMBER + 1) % 97
    changed = model.forward(flat.views(), later)
    assert torch.equal(changed[:, :, 0], base[:, :, 0])
    assert not torch.allclose(changed[:, :, 1], base[:, :, 1])
    earlier = x.clone()
    earlier[:, 1] = GROK_FIRST_NUMBER + (earlier[:, 1] - GROK_FIRST_NUMBER + 1) % 97
    assert not torch.allclose(model.forward(flat.views(), earlier)[:, :, 0], base[:, :, 0])


def test_loss_and_accuracy_count_the_answer_tokens_only():
    """As openai/grok training.py _step: cross-entropy on the target tokens after "=" (c and <eos>), averaged over
    them; a sample is right only when both are."""
    data = build_grok_task_data(DIVISION, 0.5)
    n = 6
    out = torch.randn(1, n, 2, GROK_VOCAB)
    seq = torch.cat([data.inputs[:n], torch.full((n, 1), GROK_EOS)], dim=1)  # "<eos> a / b = c <eos>"
    target = seq[:, 1:]  # the code's target: the sequence shifted by one
    eq = int(torch.nonzero(target[0] == GROK_EQ).squeeze())
    full = torch.randn(n, 6, GROK_VOCAB)
    full[:, eq + 1:] = out[0]  # what the loss must not read: the logits before the answer positions
    expected = torch.stack([F.cross_entropy(full[i, eq + 1:], target[i, eq + 1:]) for i in range(n)])
    torch.testing.assert_close(per_sample_loss(out, data.to(), torch.arange(n)[None])[0], expected)
    right = out.clone()
    right[0, :, 0] = -100.0
    right[0, torch.arange(n), 0, data.targets[:n, 0]] = 100.0  # c right everywhere...
    right[0, :, 1] = -100.0
    right[0, :, 1, GROK_EOS] = 100.0  # ... and <eos> right
    right[0, 0, 1, GROK_EOS] = -1000.0  # sample 0: c right, <eos> wrong
    full_data = data.to()
    correct = per_sample_correct(torch.cat([right, torch.zeros(1, data.n_samples - n, 2, GROK_VOCAB)], dim=1),
                                 full_data)[0, :n]
    assert correct.tolist() == [False] + [True] * (n - 1)


def test_sequences_use_the_official_token_ids():
    inputs, targets, labels = grok_sequences(DIVISION)
    k = 5 * 96 + 2  # the table's pair (5, 3): 5 / 3 = 5 * 3^-1 = 5 * 65 = 34 mod 97
    assert labels[k] == 34 and (3 * 34) % 97 == 5
    n = GROK_FIRST_NUMBER
    assert inputs[k].tolist() == [GROK_EOS, n + 5, GROK_OPERATOR["modular_division"], n + 3, GROK_EQ, n + 34]
    assert targets[k].tolist() == [n + 34, GROK_EOS]
    assert GROK_VOCAB == 2 + 20 + 97 + 120 and int(inputs.max()) < GROK_FIRST_NUMBER + 97


def test_split_is_the_official_one():
    """openai/grok shuffles its list of equations (c, y) -> "(y c) / y = c" with RandomState(0) and trains on the first
    half. Its first training equation is the shuffle's first index 7534 = 78 * 96 + 46: c = 78, y = 47, x = 47 * 78
    mod 97 = 77."""
    train, val = grok_split(DIVISION, 0.5)
    assert len(train) == len(val) == 4656 and len(np.intersect1d(train, val)) == 0
    assert np.random.RandomState(0).permutation(9312)[0] == 7534  # the same swaps as shuffle
    pairs, labels = DIVISION.table()
    assert pairs[train[0]].tolist() == [77, 47] and labels[train[0]] == 78
    data = build_grok_task_data(DIVISION, 0.5)
    assert data.loss == "ce_tokens" and data.accuracy == "all_tokens" and data.n_classes == GROK_VOCAB
    with pytest.raises(ValueError, match="mod 97"):
        grok_split(BinaryOpTask("modular_division", 31), 0.5)


def test_batched_seeds_are_independent_runs():
    model, both = ours(seeds=(0, 1))
    x = grok_sequences(DIVISION)[0][::97][:40]
    out = model.forward(both.views(), x)
    for r, seed in enumerate((0, 1)):
        _, one = ours(seeds=(seed,))
        torch.testing.assert_close(out[r], model.forward(one.views(), x)[0], rtol=1e-5, atol=1e-5)
    per_run = model.forward(both.views(), torch.stack([x, x.flip(0)]))  # each run its own samples
    torch.testing.assert_close(per_run[1], out[1].flip(0), rtol=1e-5, atol=1e-5)


def test_fig1_config_is_fig1_as_made():
    """Fig. 1 (division mod 97, 50 % of the table) on openai/grok's model and data, Adam without weight decay (App.
    A.1.2) for 10^6 updates, lr 1e-3 warmed up over 10 updates, betas (0.9, 0.98), batch 512, one seed."""
    from repro.experiments.power2022_what_is_grokking import stored_run

    label, cfg = stored_run("fig1")
    assert label == "power2022-fig1"
    assert cfg.model_config() == GrokTransformerConfig()
    t = cfg.train_config()
    assert (t.optimizer, t.lr_repr, t.lr_dec, t.wd_repr, t.wd_dec, t.beta1, t.beta2, t.eps, t.warmup_steps) == (
        "adamw", 1e-3, 1e-3, 0.0, 0.0, 0.9, 0.98, 1e-8, 10)
    assert (t.steps, t.batch_size, cfg.n_seeds, cfg.operation, cfg.train_fraction) == (
        1_000_000, 512, 2, "modular_division", 0.5)
    data = cfg.task_data()
    assert data.inputs.shape == (9312, 6) and len(data.train_idx) == 4656
    assert np.array_equal(data.train_idx, grok_split(DIVISION, 0.5)[0])
    from repro.experiments.power2022_what_is_grokking import IntroConfig

    with pytest.raises(ValueError, match="mod 97"):
        IntroConfig(model="grok_transformer", p=31)


def _tiny_fig1():
    from dataclasses import replace

    from repro.experiments.power2022_what_is_grokking import fig1_config

    return replace(fig1_config(), d_model=16, n_heads=2, d_mlp=32, batch_size=256, steps=30, eval_every=5,
                   n_seeds=2)


def test_the_official_model_trains_through_the_chapters_runner():
    from repro.experiments.power2022_what_is_grokking import run_intro

    result = run_intro(_tiny_fig1(), progress=False)
    h = result.history
    assert h.steps.tolist() == list(range(0, 31, 5)) and h["train_loss"].shape == (2, 7)
    assert (h["train_loss"][:, -1] < h["train_loss"][:, 0] - 1).all()  # from ln(239) ~ 5.5 towards ln(97)
    assert result.embeddings is None  # division keeps no embedding snapshots


def test_the_fig1_run_resumes_through_its_command(tmp_path, monkeypatch):
    """``python -m repro.experiments.power2022_what_is_grokking --store DIR --run fig1`` at a tiny size, stopped
    right after its checkpoint at step 12 and run again, stores what one uninterrupted run stores, in two segments."""
    from repro.experiments import power2022_what_is_grokking as power
    from repro.training.checkpoint import Checkpointer
    from repro.training.store import ResultsStore, UnfinishedRun

    cfg = _tiny_fig1()
    monkeypatch.setitem(power.STORED_RUNS, "fig1", ("power2022-fig1", lambda: cfg))
    real_save = Checkpointer.save

    class Stop(Exception):
        pass

    def save_then_stop(self, block, step, arrays, **kw):
        real_save(self, block, step, arrays, **kw)
        if step == 12:
            raise Stop

    monkeypatch.setattr(Checkpointer, "save", save_then_stop)
    command = ["--store", str(tmp_path / "_results"), "--run", "fig1", "--checkpoint-minutes", "1e-9"]
    with pytest.raises(Stop):
        power.main(command)
    store = ResultsStore(tmp_path / "_results")
    with pytest.raises(UnfinishedRun, match="step 12 of 30"):
        store.load(cfg, "power2022-fig1")
    monkeypatch.setattr(Checkpointer, "save", real_save)
    assert power.main(command) == 0
    arrays, manifest = store.load(cfg, "power2022-fig1")
    expected = power.intro_to_arrays(power.run_intro(cfg, progress=False))
    assert sorted(arrays) == sorted(expected)
    for k in expected:
        assert arrays[k].tobytes() == np.asarray(expected[k]).tobytes(), k
    assert [(s["from_step"], s["to_step"]) for s in manifest["segments"]] == [(0, 12), (12, 30)]

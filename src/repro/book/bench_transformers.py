"""``python -m repro.book.bench transformers``: each paper-scale transformer -- Liu et al. 2022's encoder, Power et al.
2022's decoder, the Omnigrok modular-addition transformer -- trained by our batched trainer exactly as its experiment
calls it, against a plain PyTorch loop written the way the official code writes it (:func:`reference_liu`,
:func:`reference_power`, :func:`reference_omnigrok`), same data, sizes, batch, float32 and evaluation steps, in one
process. Per model: ms per run-step with 1 seed and with K seeds batched, the reference's ms per step, and the ratios
``ours/ref 1 seed`` and ``ours/ref per run-step, K seeds`` (:func:`bench_transformers`). The command line is
:mod:`repro.book.bench`'s.
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import replace

import torch
import torch.nn.functional as F

from repro.book.matmul_bound import matmul_gflops, record_matmuls, replay_seconds, total_flops
from repro.core.devices import resolve_device, resolve_dtype
from repro.core.validation import check_int
from repro.training.trainer import Performance, Record, TrainConfig, train


TRANSFORMER_MODELS = ("liu", "power", "omnigrok")


def _evaluation_due(step: int, steps: int, eval_every: int) -> bool:
    """The evaluation steps of :func:`repro.training.trainer.evaluation_steps`: every ``eval_every`` steps from 0,
    and the final parameters; the references evaluate on exactly these, so both sides do the same evaluations."""
    return step == steps or step % eval_every == 0


@torch.no_grad()
def _reference_evaluate(module: torch.nn.Module, forward, inputs, labels, train_mask) -> dict[str, float]:
    """One evaluation of a reference run, as ours records one: loss and accuracy on the training and held-out pairs
    (one forward over all pairs, ``module.eval()``, no grad) and the weight norm, read back as Python floats as the
    official loops log them (``.item()``, which also waits for a GPU)."""
    module.eval()
    logits = forward(inputs)
    loss = F.cross_entropy(logits, labels, reduction="none")
    correct = (logits.argmax(-1) == labels).float()
    norm = torch.sqrt(sum(p.detach().pow(2).sum() for p in module.parameters()))
    module.train()
    return {"train_loss": loss[train_mask].mean().item(), "val_loss": loss[~train_mask].mean().item(),
            "train_acc": correct[train_mask].mean().item(), "val_acc": correct[~train_mask].mean().item(),
            "weight_norm": norm.item()}


# ---- Liu et al. 2022 (ejmichaud/grokking-squared: scripts/transformer_grokking.py, phasegrok/models.py) ----------


def reference_liu(cfg, data, train_mask: torch.Tensor, steps: int, device: torch.device) -> None:
    """The official Fig. 1 / Fig. 7 loop: a free embedding table ``torch.randn(p, latent_dim)`` and
    ``Decoder(concat=True)``, i.e. ``nn.Sequential`` of ``depth`` x ``nn.TransformerEncoderLayer(latent_dim, 1,
    decoder_width, dropout, activation="relu", batch_first=True, norm_first=True)``, the two positions' outputs
    concatenated (their ``ReshapeBlock``: a view to (B, 2 d)) into ``nn.Linear(2 d, p)``; ``torch.optim.AdamW`` with
    two parameter groups; full batch of the training pairs (``batch_size=-1``), cross-entropy."""
    torch.manual_seed(cfg.first_seed)
    representation = torch.randn(cfg.p, cfg.d_model, device=device).requires_grad_()
    layers = [torch.nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, cfg.d_mlp, cfg.dropout, activation="relu",
                                               batch_first=True, norm_first=True) for _ in range(cfg.n_layers)]
    model = torch.nn.Sequential(*layers, torch.nn.Flatten(1), torch.nn.Linear(2 * cfg.d_model, cfg.p)).to(device)
    # the official groups set only lr and weight_decay (betas: torch's default, as our config's beta2 0.999); the
    # embedding group's decay is our config's wd_repr (0, §4.2) where the official code gets AdamW's default 0.01
    optimizer = torch.optim.AdamW([{"params": (representation,), "lr": cfg.lr_repr, "weight_decay": cfg.wd_repr},
                                   {"params": model.parameters(), "lr": cfg.lr_dec, "weight_decay": cfg.wd_dec}],
                                  betas=(0.9, cfg.beta2))
    x, y, train_mask = data.inputs.to(device), data.labels.to(device), train_mask.to(device)
    x_train, y_train = x[train_mask], y[train_mask]
    forward = lambda pairs: model(representation[pairs])
    for step in range(steps + 1):
        if _evaluation_due(step, steps, cfg.eval_every):
            _reference_evaluate(model, forward, x, y, train_mask)
        if step == steps:
            break
        optimizer.zero_grad()
        F.cross_entropy(forward(x_train), y_train).backward()
        optimizer.step()


def setup_liu(cfg, device: torch.device) -> dict:
    """Liu et al. 2022's encoder transformer: our side is :func:`repro.experiments.liu2022_transformer_and_images.run_transformer`'s
    ``train`` call (each seed on its own split, embeddings recorded at every evaluation); the reference trains seed
    ``first_seed``'s split."""
    from repro.training.sweep import split_masks

    data = cfg.task_data()

    def ours(n_seeds: int, steps: int, performance: Performance | None = None):
        c = replace(cfg, n_seeds=n_seeds, steps=steps)
        seeds = c.seeds
        train_mask, val_mask = split_masks(data, [c.train_fraction] * len(seeds), seeds)
        record = lambda step, params: {"embeddings": params["embed"]}  # run_transformer's callback
        tc = replace(c.train_config(), device=device.type)
        return lambda: train(c.model_config(), data, tc, runs={"init_seed": seeds}, split=(train_mask, val_mask),
                             record=Record(callback=record),
                             performance=(performance or Performance()).but(progress=False))

    ref_mask = split_masks(data, [cfg.train_fraction], [cfg.first_seed])[0][0]

    def reference(steps: int):
        return lambda: reference_liu(cfg, data, ref_mask, steps, device)

    n_train = int(ref_mask.sum())
    title = (f"liu: Liu et al. 2022 encoder transformer (p {cfg.p}, full batch {n_train} of {data.n_samples} pairs, "
             f"d {cfg.d_model}, {cfg.n_layers} pre-LN encoder layer(s), {cfg.n_heads} head, FFN {cfg.d_mlp}, dropout "
             f"{cfg.dropout:g}, AdamW embeddings lr {cfg.lr_repr:g} wd {cfg.wd_repr:g} / rest lr {cfg.lr_dec:g} wd "
             f"{cfg.wd_dec:g}, eval on all pairs every {cfg.eval_every}, float32); reference: nn.TransformerEncoderLayer "
             f"+ torch.optim.AdamW; differences: the official embedding group gets AdamW's default wd 0.01 (both: "
             f"{cfg.wd_repr:g}), the official loop evaluates the held-out pairs every step (both: all pairs every "
             f"{cfg.eval_every}); ours computes layer 0's LayerNorm, q, k, v and out_proj once per token")
    return {"title": title, "ours": ours, "reference": reference, "eval_every": cfg.eval_every}


# ---- Power et al. 2022 (openai/grok: grok/transformer.py, grok/training.py) ---------------------------------------


class _GrokAttentionHead(torch.nn.Module):
    """grok/transformer.py ``AttentionHead``: bias-free query, key and value projections of one head."""

    def __init__(self, d_model: int, d_key: int):
        super().__init__()
        self.d_key = d_key
        self.Wq = torch.nn.Linear(d_model, d_key, bias=False)
        self.Wk = torch.nn.Linear(d_model, d_key, bias=False)
        self.Wv = torch.nn.Linear(d_model, d_key, bias=False)

    def forward(self, x, mask):
        attn = torch.matmul(self.Wq(x), self.Wk(x).transpose(-2, -1)) / math.sqrt(self.d_key)
        attn = attn.masked_fill(mask == 0, float("-inf"))  # the official masked_fill_, out of place for autograd
        return torch.matmul(attn.softmax(-1), self.Wv(x))


class _GrokDecoderBlock(torch.nn.Module):
    """grok/transformer.py ``DecoderBlock``: post-LayerNorm, heads as separate modules concatenated into ``Wo``,
    a bias-free ReLU FFN, dropout after the FFN."""

    def __init__(self, d_model: int, heads: int, d_ff: int, dropout: float):
        super().__init__()
        self.attn_heads = torch.nn.ModuleList(_GrokAttentionHead(d_model, d_model // heads) for _ in range(heads))
        self.Wo = torch.nn.Linear(d_model, d_model, bias=False)
        self.self_attn_norm = torch.nn.LayerNorm(d_model)
        self.ffn = torch.nn.Sequential(torch.nn.Linear(d_model, d_ff, bias=False), torch.nn.ReLU(),
                                       torch.nn.Linear(d_ff, d_model, bias=False))
        self.ffn_drop = torch.nn.Dropout(dropout)
        self.ffn_norm = torch.nn.LayerNorm(d_model)

    def forward(self, x, mask):
        a1 = self.self_attn_norm(x + self.Wo(torch.cat([h(x, mask) for h in self.attn_heads], dim=-1)))
        return self.ffn_norm(a1 + self.ffn_drop(self.ffn(a1)))


class _GrokTransformer(torch.nn.Module):
    """grok/transformer.py ``Transformer``: token embedding plus fixed sinusoidal positions, causal self-attention
    blocks, a bias-free unembedding; ``forward(x, pos=-1)`` keeps the answer position (the official ``pos``)."""

    def __init__(self, n_layers: int, n_heads: int, d_model: int, d_ff: int, dropout: float, n_ctx: int,
                 d_vocab: int, d_vocab_out: int):
        super().__init__()
        self.embedding = torch.nn.Embedding(d_vocab, d_model)
        pos = torch.arange(n_ctx, dtype=torch.float64)[:, None]
        i = torch.arange(d_model)
        angle = pos / 10000 ** ((i - i % 2) / d_model)  # sin at even i, cos at odd i (exponent (i - 1) / d)
        self.register_buffer("position_encoding", torch.where(i % 2 == 0, angle.sin(), angle.cos()).float())
        self.register_buffer("self_attn_mask", torch.ones(n_ctx, n_ctx).tril())
        self.blocks = torch.nn.ModuleList(_GrokDecoderBlock(d_model, n_heads, d_ff, dropout) for _ in range(n_layers))
        self.linear = torch.nn.Linear(d_model, d_vocab_out, bias=False)

    def forward(self, x, pos: int = -1):
        t = x.shape[-1]
        a = self.embedding(x) + self.position_encoding[:t]
        for block in self.blocks:
            a = block(a, self.self_attn_mask[:t, :t])
        return self.linear(a[:, pos])


def reference_power(cfg, data, steps: int, device: torch.device, warmup_steps: int = 10) -> None:
    """The official training step (grok/training.py): ``torch.optim.AdamW`` form of their ``CustomAdamW`` (betas
    (0.9, 0.98), eps 1e-8, base lr 1 scaled by a ``LambdaLR`` with ``warmup_steps`` of linear warm-up to max_lr,
    decoupled decay on every parameter), minibatches from a reshuffled pass over the training set
    (``ArithmeticIterator``), cross-entropy on the answer; dropout 0 (their default)."""
    mc = cfg.model_config()
    torch.manual_seed(cfg.init_seed)
    model = _GrokTransformer(mc.n_layers, mc.n_heads, mc.d_model, mc.d_mlp, 0.0, mc.n_ctx, mc.d_vocab,
                             mc.d_vocab_out).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1.0, betas=(0.9, cfg.beta2), eps=1e-8,
                                  weight_decay=cfg.weight_decay)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: cfg.lr * min(1.0, float(s) / max(warmup_steps, 1)))
    x, y = data.inputs.to(device), data.labels.to(device)
    train_mask = torch.zeros(data.n_samples, dtype=torch.bool, device=device)
    train_mask[torch.as_tensor(data.train_idx, device=device)] = True
    train_idx = torch.nonzero(train_mask).squeeze(1)
    batch_size = cfg.batch_size or len(train_idx)
    per_epoch = math.ceil(len(train_idx) / batch_size)
    gen = torch.Generator().manual_seed(cfg.init_seed)
    for step in range(steps + 1):
        if _evaluation_due(step, steps, cfg.eval_every):
            _reference_evaluate(model, model, x, y, train_mask)
        if step == steps:
            break
        if step % per_epoch == 0:
            order = train_idx[torch.randperm(len(train_idx), generator=gen).to(device)]
        batch = order[(step % per_epoch) * batch_size:(step % per_epoch + 1) * batch_size]
        optimizer.zero_grad()
        F.cross_entropy(model(x[batch]), y[batch]).backward()
        optimizer.step()
        schedule.step()


def setup_power(cfg, device: torch.device) -> dict:
    """Power et al. 2022's decoder transformer at the paper's values: our side is
    :func:`repro.experiments.power2022_what_is_grokking.run_intro`'s ``train`` call (inputs "a b =", embeddings
    recorded at every evaluation)."""
    data = cfg.task_data()
    data.inputs = torch.cat([data.inputs, torch.full((data.n_samples, 1), cfg.p)], dim=1)  # as run_intro: '=' is p
    embed_name = "embed" if cfg.model == "embed_mlp" else "W_E"

    def ours(n_seeds: int, steps: int, performance: Performance | None = None):
        c = replace(cfg, n_seeds=n_seeds, steps=steps)
        record = lambda step, params: {"embeddings": params[embed_name][:, : c.p]}  # run_intro's callback
        tc = replace(c.train_config(), device=device.type)
        return lambda: train(c.model_config(), data, tc, runs={"init_seed": c.seeds}, record=Record(callback=record),
                             performance=(performance or Performance()).but(progress=False))

    def reference(steps: int):
        return lambda: reference_power(cfg, data, steps, device)

    mc = cfg.model_config()
    title = (f"power: Power et al. 2022 decoder transformer (p {cfg.p}, inputs 'a b =', minibatch {cfg.batch_size} of "
             f"{len(data.train_idx)} training pairs, d {mc.d_model}, {mc.n_layers} layers, {mc.n_heads} heads, MLP "
             f"{mc.d_mlp}, causal, AdamW lr {cfg.lr:g} betas (0.9, {cfg.beta2:g}) wd {cfg.weight_decay:g}, eval on all "
             f"{data.n_samples} pairs every {cfg.eval_every}, float32); reference: the official module layout "
             f"(post-LN, bias-free, fixed sinusoidal positions, one nn.Module per head) + torch.optim.AdamW; "
             f"differences: ours is pre-LN with biases, learned positions and a final LayerNorm; the reference keeps "
             f"the official 10-step lr warm-up (ours has none); both unembed the last position to {mc.d_vocab_out} "
             f"answers (official: every position of '<bos> a + b = c <eos>' to its whole vocabulary) and evaluate "
             f"every {cfg.eval_every} steps (official: at exponentially spaced epochs)")
    return {"title": title, "ours": ours, "reference": reference, "eval_every": cfg.eval_every}


# ---- Omnigrok (KindXiaoming/Omnigrok: mod-addition/grokking/modular-addition-grokking.ipynb) -----------------------


class _HookPoint(torch.nn.Module):
    """The notebook's ``HookPoint`` with no hook registered: an identity module call, as in every forward there."""

    def forward(self, x):
        return x


class _NandaTransformer(torch.nn.Module):
    """The notebook's one-layer transformer (Neel Nanda's): ``nn.Parameter`` weights contracted by einsum, no
    LayerNorm (``use_ln=False``), no attention or unembedding biases, the causal mask as ``tril(scores) - 1e10 (1 -
    mask)``, identity hook points; initial values as the notebook draws them. The unembedding keeps the last
    position and the ``d_vocab_out`` answers (the notebook: every position, all ``p + 1`` tokens, then ``[:, -1]``)."""

    def __init__(self, d_vocab: int, d_vocab_out: int, d_model: int, d_mlp: int, d_head: int, n_heads: int, n_ctx: int,
                 n_layers: int):
        super().__init__()
        randn = lambda *shape, fan: torch.nn.Parameter(torch.randn(*shape) / math.sqrt(fan))
        self.W_E = randn(d_model, d_vocab, fan=d_model)
        self.W_pos = randn(n_ctx, d_model, fan=d_model)
        self.blocks = torch.nn.ModuleList()
        for _ in range(n_layers):
            block = torch.nn.Module()
            block.W_K, block.W_Q, block.W_V = (randn(n_heads, d_head, d_model, fan=d_model) for _ in range(3))
            block.W_O = randn(d_model, d_head * n_heads, fan=d_model)
            block.W_in, block.b_in = randn(d_mlp, d_model, fan=d_model), torch.nn.Parameter(torch.zeros(d_mlp))
            block.W_out, block.b_out = randn(d_model, d_mlp, fan=d_model), torch.nn.Parameter(torch.zeros(d_model))
            block.hooks = torch.nn.ModuleList(_HookPoint() for _ in range(13))  # 6 attention, 2 MLP, 5 block hooks
            self.blocks.append(block)
        self.W_U = randn(d_model, d_vocab_out, fan=d_vocab)  # the notebook's scale 1/sqrt(p + 1), p answers kept
        self.register_buffer("mask", torch.tril(torch.ones(n_ctx, n_ctx)))
        self.d_head = d_head

    def _block(self, b, x):
        h = iter(b.hooks)
        x = next(h)(x)  # hook_resid_pre
        k = next(h)(torch.einsum("ihd,bpd->biph", b.W_K, x))
        q = next(h)(torch.einsum("ihd,bpd->biph", b.W_Q, x))
        v = next(h)(torch.einsum("ihd,bpd->biph", b.W_V, x))
        scores = torch.einsum("biph,biqh->biqp", k, q)
        t = x.shape[-2]
        scores = torch.tril(scores) - 1e10 * (1 - self.mask[:t, :t])
        attn = next(h)(F.softmax(next(h)(scores / math.sqrt(self.d_head)), dim=-1))
        z = next(h)(torch.einsum("biph,biqp->biqh", v, attn))
        z_flat = z.permute(0, 2, 1, 3).reshape(z.shape[0], t, -1)  # einops 'b i q h -> b q (i h)'
        x = next(h)(x + next(h)(torch.einsum("df,bqf->bqd", b.W_O, z_flat)))  # hook_resid_mid(x + hook_attn_out)
        mid = F.relu(next(h)(torch.einsum("md,bpd->bpm", b.W_in, x) + b.b_in))  # hook_pre
        mid = next(h)(mid)  # hook_post
        return next(h)(x + next(h)(torch.einsum("dm,bpm->bpd", b.W_out, mid) + b.b_out))  # resid_post, mlp_out

    def forward(self, x):
        x = torch.einsum("dbp -> bpd", self.W_E[:, x]) + self.W_pos[: x.shape[-1]]
        for block in self.blocks:
            x = self._block(block, x)
        return x[:, -1] @ self.W_U


def reference_omnigrok(cfg, data, steps: int, device: torch.device, dtype=torch.float32) -> None:
    """The notebook's loop: full batch of the training pairs, ``torch.optim.AdamW(lr, weight_decay, betas (0.9,
    0.98))`` on every parameter, cross-entropy on the last position; ``backward``, ``step``, ``zero_grad``."""
    mc = cfg.model_config()
    torch.manual_seed(cfg.init_seed)
    model = _NandaTransformer(mc.d_vocab, mc.d_vocab_out, mc.d_model, mc.d_mlp, mc.d_head, mc.n_heads, mc.n_ctx,
                              mc.n_layers).to(device=device, dtype=dtype)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay, betas=(0.9, cfg.beta2))
    x, y = data.inputs.to(device), data.labels.to(device)
    train_mask = torch.zeros(data.n_samples, dtype=torch.bool, device=device)
    train_mask[torch.as_tensor(data.train_idx, device=device)] = True
    x_train, y_train = x[train_mask], y[train_mask]
    for step in range(steps + 1):
        if _evaluation_due(step, steps, cfg.eval_every):
            _reference_evaluate(model, model, x, y, train_mask)
        if step == steps:
            break
        F.cross_entropy(model(x_train), y_train).backward()
        optimizer.step()
        optimizer.zero_grad()


def setup_omnigrok(cfg, device: torch.device) -> dict:
    """The Omnigrok modular-addition transformer: our side is :func:`repro.experiments.liu2023_omnigrok.run_modular`'s
    call (its TrainConfig, ``train_heldout_in_callback``) for the free setting only (alpha ``free_alpha``, weight
    decay ``weight_decay``): the fixed-norm twin that run_modular trains beside it has no counterpart in the
    reference's single run."""
    from repro.experiments.liu2023_omnigrok import train_heldout_in_callback

    data = cfg.task_data()

    def ours(n_seeds: int, steps: int, performance: Performance | None = None):
        c = replace(cfg, n_seeds=n_seeds, steps=steps)
        seeds = c.seeds
        # run_modular's TrainConfig and run values, free setting
        tc = TrainConfig(steps=c.steps, lr_repr=c.lr, lr_dec=c.lr, beta2=c.beta2, init_seed=c.init_seed,
                         eval_every=c.eval_every, dtype=c.dtype, device=device.type)
        runs = {"init_scale": [c.free_alpha] * len(seeds), "repr_init_scale": [c.free_alpha] * len(seeds),
                "wd_repr": [c.weight_decay] * len(seeds), "wd_dec": [c.weight_decay] * len(seeds),
                "fixed_norm": [False] * len(seeds), "init_seed": seeds}
        return lambda: train_heldout_in_callback(c.model_config(), data, tc, runs=runs, progress=False,
                                                 performance=performance)

    def reference(steps: int):
        return lambda: reference_omnigrok(cfg, data, steps, device, resolve_dtype(cfg.dtype))

    mc = cfg.model_config()
    title = (f"omnigrok: Omnigrok modular-addition transformer (p {cfg.p}, inputs 'a b =', full batch "
             f"{len(data.train_idx)} of {data.n_samples} pairs, d {mc.d_model}, {mc.n_layers} layer, {mc.n_heads} heads, "
             f"MLP {mc.d_mlp}, no LayerNorm, AdamW lr {cfg.lr:g} betas (0.9, {cfg.beta2:g}) wd {cfg.weight_decay:g}, "
             f"eval every {cfg.eval_every}, {cfg.dtype}); reference: the notebook's Transformer + torch.optim.AdamW; "
             f"differences: {cfg.dtype} on both sides (notebook and ModularConfig: float64); ours times run_modular's "
             f"free run only (not its fixed-norm twin); ours has attention and unembedding biases and draws every "
             f"weight N(0, 0.8/sqrt(d)) (notebook: no such biases, 1/sqrt(d), W_U 1/sqrt(p + 1)); both unembed the last "
             f"position to {mc.d_vocab_out} answers and evaluate all pairs every {cfg.eval_every} steps (notebook: all "
             f"positions to p + 1 tokens, every 30 steps with separate loss and accuracy forwards)")
    return {"title": title, "ours": ours, "reference": reference, "eval_every": cfg.eval_every}


# ---- timing and the report -----------------------------------------------------------------------------------------


def transformer_configs(smoke: bool = False) -> dict:
    """The configs benchmarked: the paper values of each experiment (float32), or tiny ones for the tests."""
    from repro.experiments.liu2022_transformer_and_images import TransformerGrokConfig
    from repro.experiments.liu2023_omnigrok import ModularConfig
    from repro.experiments.power2022_what_is_grokking import IntroConfig

    liu, power, omni = TransformerGrokConfig(), IntroConfig(), replace(ModularConfig(), dtype="float32")
    if smoke:
        liu = replace(liu, p=11, d_model=16, d_mlp=32, n_layers=1)
        power = replace(power, p=11, d_model=16, n_heads=2, d_mlp=32, n_layers=1, batch_size=16)
        omni = replace(omni, p=11)
    return {"liu": liu, "power": power, "omnigrok": omni}


def timed(fn, device: torch.device) -> float:
    """Wall seconds of ``fn()``; on a GPU, from an idle device to the end of its queued work (synchronized before
    and after, so that neither side is charged with the other's kernels nor leaves its own unfinished)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - start


def measure_model(setup: dict, steps: int, seeds: int, device: torch.device, repeats: int = 2,
                  warmup_steps: int = 2, block_runs=()) -> dict[str, float]:
    """Seconds per run-step of ours with 1 seed and with ``seeds`` seeds batched, and per step of the reference.
    Each side first runs ``warmup_steps`` steps (allocator, kernel and thread-pool start-up are not what is
    compared); then the measurements run in turn, ``repeats`` times with the order reversed each time (a
    neighbour's load hits both sides alike), and each keeps its best (noise on a shared machine only adds time).
    ``block_runs``: block sizes b for which the ``seeds`` batched seeds are also timed in blocks of b runs
    (``Performance(block_runs=b)``, which changes no computed bit), as ``ours_k_blocks_<b>``, in the same rotation as
    the default block size: an A/B that one neighbour's load cannot decide."""
    jobs = {"ours_1": (setup["ours"](1, steps), steps),
            "ours_k": (setup["ours"](seeds, steps), steps * seeds),
            "ref": (setup["reference"](steps), steps)}
    warmups = [setup["ours"](1, warmup_steps), setup["ours"](seeds, warmup_steps), setup["reference"](warmup_steps)]
    for b in block_runs:
        jobs[f"ours_k_blocks_{b}"] = (setup["ours"](seeds, steps, Performance(block_runs=b)), steps * seeds)
        warmups.append(setup["ours"](seeds, warmup_steps, Performance(block_runs=b)))
    for fn in warmups:
        fn()
    best = {name: float("inf") for name in jobs}
    order = list(jobs)
    for r in range(repeats):
        for name in (order if r % 2 == 0 else order[::-1]):
            fn, run_steps = jobs[name]
            best[name] = min(best[name], timed(fn, device) / run_steps)
    return best


def matmul_only_bound(setup: dict, steps: int, seeds: int, device: torch.device) -> dict[str, dict[str, float]]:
    """Per measurement of :func:`measure_model` (``ours_1``, ``ours_k``, ``ref``): its matrix products per run-step,
    recorded from one run of ``steps`` steps and replayed alone (:mod:`repro.book.matmul_bound`): ``{"seconds": the
    replay's time per run-step, "gflop": the products' GFLOP per run-step}``. The replay's time is a floor for any
    implementation performing these products on this machine and thread count. Recorded on this thread, so ours must
    train its runs as one block on it: one torch thread on the CPU (several would hand blocks to worker threads)."""
    if device.type == "cpu" and torch.get_num_threads() != 1:
        raise ValueError("matmul_only_bound needs torch.get_num_threads() == 1 on the CPU (got "
                         f"{torch.get_num_threads()}): run the benchmark with --threads 1.")
    jobs = {"ours_1": (setup["ours"](1, steps), steps), "ours_k": (setup["ours"](seeds, steps), steps * seeds),
            "ref": (setup["reference"](steps), steps)}
    bound = {}
    for name, (fn, run_steps) in jobs.items():
        products = record_matmuls(fn)
        bound[name] = {"seconds": replay_seconds(products, device) / run_steps,
                       "gflop": total_flops(products) / run_steps / 1e9}
    return bound


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "unknown CPU"


def bench_transformers(steps: int = 40, seeds: int = 3, models=TRANSFORMER_MODELS, threads: int | None = None,
                       device: str = "auto", repeats: int = 2, block_runs=(), out=sys.stdout,
                       _smoke: bool = False) -> dict:
    """Time our batched trainer against the plain-PyTorch references (see the section comment) and print, per
    model, a header line (sizes, settings and remaining differences), our ms per run-step with 1 seed and with
    ``seeds`` seeds batched, the reference's ms per step and the two ratios. Returns ``{model: {"ours_1", "ours_k",
    "ref" (seconds per run-step), "one_seed", "batched" (ours / ref)}}``. ``block_runs``: block sizes (each from 1 to
    ``seeds``) at which the batched seeds are also timed, in the same rotation (:func:`measure_model`); each adds
    ``"blocks": {b: {"seconds", "batched"}}`` to the model's entry and two printed lines. ``_smoke``: tiny configs
    (tests)."""
    unknown = set(models) - set(TRANSFORMER_MODELS)
    if unknown or not models:
        raise ValueError(f"models={list(models)} is not allowed: choose among {', '.join(TRANSFORMER_MODELS)}.")
    check_int("steps", steps, minimum=1)
    check_int("seeds", seeds, minimum=1)
    check_int("repeats", repeats, minimum=1)
    block_runs = tuple(block_runs)
    for b in block_runs:
        check_int("block_runs", b, minimum=1)
        if b > seeds:
            raise ValueError(f"block_runs={list(block_runs)} is not allowed: each block size must be from 1 to seeds "
                             f"({seeds}); a block larger than seeds is one block of all the runs, which {seeds} already times.")
    if len(set(block_runs)) != len(block_runs):
        raise ValueError(f"block_runs={list(block_runs)} is not allowed: each block size at most once.")
    if threads is not None:
        check_int("threads", threads, minimum=1)
    dev = resolve_device(device)
    threads_before = torch.get_num_threads()
    try:
        if threads is not None:
            torch.set_num_threads(threads)
        return _bench_transformers(steps, seeds, models, dev, repeats, out, transformer_configs(_smoke), block_runs)
    finally:  # a caller's thread count is its own (the tests run this in the suite's process)
        torch.set_num_threads(threads_before)


def _bench_transformers(steps: int, seeds: int, models, dev: torch.device, repeats: int, out, configs: dict,
                        block_runs=()) -> dict:
    where = f"GPU {torch.cuda.get_device_name(dev)}" if dev.type == "cuda" else "CPU"
    print(f"transformers: CPU {cpu_name()}, torch threads {torch.get_num_threads()}, torch {torch.__version__}, "
          f"device {where}; {steps} steps per measurement, best of {repeats}, float32"
          + ("; ours trains each block of runs on one thread (run_blocks), a single block's evaluations on another "
             "(Performance.background_evaluation), the reference uses every torch thread"
             if dev.type == "cpu" and torch.get_num_threads() > 1 else ""), file=out)
    setups = {"liu": setup_liu, "power": setup_power, "omnigrok": setup_omnigrok}
    with_bound = dev.type == "cuda" or torch.get_num_threads() == 1
    if with_bound and dev.type == "cpu":
        print(f"  dense fp32 matmul (2048^2) on 1 thread: {matmul_gflops():.1f} GFLOP/s", file=out)
    results = {}
    for name in models:
        setup = setups[name](configs[name], dev)
        print(setup["title"], file=out)
        t = measure_model(setup, steps, seeds, dev, repeats, block_runs=block_runs)
        r = {**{k: t[k] for k in ("ours_1", "ours_k", "ref")}, "one_seed": t["ours_1"] / t["ref"],
             "batched": t["ours_k"] / t["ref"]}
        # with fewer steps than the evaluation interval, the two evaluations of all pairs (first and last step)
        # weigh more in a measurement than in a full run: say how many there were
        n_evals = sum(1 for s in range(steps) if s % setup["eval_every"] == 0) + 1
        print(f"  each measurement: {steps} steps, {n_evals} evaluations of all pairs", file=out)
        print(f"  ours, 1 seed: {1e3 * t['ours_1']:.2f} ms/run-step", file=out)
        print(f"  ours, {seeds} seeds batched: {1e3 * t['ours_k']:.2f} ms/run-step", file=out)
        print(f"  reference: {1e3 * t['ref']:.2f} ms/step", file=out)
        print(f"  ours/ref 1 seed: {r['one_seed']:.2f}", file=out)
        print(f"  ours/ref per run-step, {seeds} seeds: {r['batched']:.2f}", file=out, flush=True)
        if block_runs:
            r["blocks"] = {b: {"seconds": t[f"ours_k_blocks_{b}"], "batched": t[f"ours_k_blocks_{b}"] / t["ref"]}
                           for b in block_runs}
            for b, rb in r["blocks"].items():
                print(f"  ours, {seeds} seeds in blocks of {b}: {1e3 * rb['seconds']:.2f} ms/run-step", file=out)
                print(f"  ours/ref per run-step, {seeds} seeds in blocks of {b}: {rb['batched']:.2f}", file=out,
                      flush=True)
        if with_bound:
            # the floor each side's own products set: how far a side is from it, and the best ratio ours could reach
            # with the products it performs now
            b = matmul_only_bound(setup, steps, seeds, dev)
            r["bound"] = b
            for key, label in (("ours_1", "ours, 1 seed"), ("ours_k", f"ours, {seeds} seeds"), ("ref", "reference")):
                print(f"  matmul-only bound, {label}: {b[key]['gflop']:.3f} GFLOP/run-step in "
                      f"{1e3 * b[key]['seconds']:.2f} ms ({b[key]['gflop'] / b[key]['seconds']:.1f} GFLOP/s), "
                      f"{100 * b[key]['seconds'] / t[key]:.0f} % of its measured time", file=out)
            r["floor_one_seed"] = b["ours_1"]["seconds"] / t["ref"]
            r["floor_batched"] = b["ours_k"]["seconds"] / t["ref"]
            print(f"  lowest ours/ref these products allow: 1 seed {r['floor_one_seed']:.2f}, {seeds} seeds "
                  f"{r['floor_batched']:.2f}", file=out, flush=True)
        results[name] = r
    return results

"""Reference implementations for tests only: the two GenEFT training loops as they were before they were
merged into :func:`repro.training.trainer.train` (copied verbatim from src/repro/data/relations.py and src/repro/experiments/baek2024_geneft.py at
commit 560e216, with the helpers they call). ``tests/test_trainer_relations.py`` checks the trainer against them."""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import torch

from repro.core.validation import check_choice, check_int, check_real
from repro.experiments.baek2024_geneft import DecidedRuns
from repro.models.networks import RelationModelConfig, RELATION_MODES as MODES
from repro.training.relation_runs import RelationHistory, RelationTrainConfig


def init_params(cfg: RelationModelConfig, seeds: Sequence[int], dtype=torch.float32) -> list[torch.Tensor]:
    """[E, W_1, b_1, …, W_out, b_out], each with a leading run axis, PyTorch's default init per run.

    Embeddings ~ N(0, 1) (nn.Embedding); Linear weights and biases ~ U(±1/√fan_in) (nn.Linear).
    Run r draws from its own generator seeded with ``seeds[r]``, so runs sharing a seed share an init.
    """
    shapes = [(cfg.n, cfg.d_embed)]
    for fan_in, fan_out in cfg.layer_shapes():
        shapes += [(fan_in, fan_out), (fan_out,)]
    per_run = []
    for seed in seeds:
        gen = torch.Generator().manual_seed(int(seed))
        tensors = [torch.randn(shapes[0], generator=gen, dtype=torch.float64)]
        for k in range(1, len(shapes), 2):
            bound = 1 / math.sqrt(shapes[k][0])
            tensors.append((torch.rand(shapes[k], generator=gen, dtype=torch.float64) * 2 - 1) * bound)
            tensors.append((torch.rand(shapes[k + 1], generator=gen, dtype=torch.float64) * 2 - 1) * bound)
        per_run.append(tensors)
    return [torch.stack([run[i] for run in per_run]).to(dtype) for i in range(len(shapes))]


def combine(e1: torch.Tensor, e2: torch.Tensor, mode: str) -> torch.Tensor:
    """Decoder input from the two embeddings of a pair (paper §3, modes 1–3)."""
    if mode == "concat":
        return torch.cat([e1, e2], dim=-1)
    if mode == "difference":
        return e1 - e2
    if mode == "squared_difference":
        return (e1 - e2) ** 2
    check_choice("mode", mode, MODES)


def forward(cfg: RelationModelConfig, params: list[torch.Tensor]) -> torch.Tensor:
    """Logits (R, n²) for every ordered pair (i, j), in row-major order (pair index i·n + j)."""
    emb = params[0]
    idx = torch.arange(cfg.n, device=emb.device)
    e1 = emb[:, idx.repeat_interleave(cfg.n)]
    e2 = emb[:, idx.repeat(cfg.n)]
    h = combine(e1, e2, cfg.mode)
    n_layers = (len(params) - 1) // 2
    for k in range(n_layers):
        h = torch.baddbmm(params[2 + 2 * k].unsqueeze(1), h, params[1 + 2 * k])
        if k < n_layers - 1:
            h = torch.tanh(h)
    return h.squeeze(-1)



def _per_run(name: str, values, n_runs: int, *, nonnegative: bool = False) -> list[float]:
    values = list(values)
    if len(values) != n_runs:
        raise ValueError(f"{name}: expected one value per run ({n_runs}), got {len(values)}.")
    for v in values:
        check_real(name, v, nonnegative=nonnegative, positive=not nonnegative)
    return [float(v) for v in values]


def check_relation_runs(model: RelationModelConfig, labels, masks, lr_enc, lr_dec, wd_dec, init_seeds):
    """Validate one batch of R relation runs (labels and masks (R, n²), one lr / decay / seed per run); returns
    ``(labels, masks, {"lr_enc": [...], "lr_dec": [...], "wd_dec": [...]})`` as arrays and float lists."""
    labels = np.asarray(labels)
    masks = np.asarray(masks, dtype=bool)
    if labels.ndim != 2 or labels.shape != masks.shape or labels.shape[1] != model.n**2:
        raise ValueError(f"labels and masks must both have shape (R, n²) = (R, {model.n ** 2}); "
                         f"got {labels.shape} and {masks.shape}.")
    if not np.isin(labels, (0, 1)).all():
        raise ValueError("labels must be 0/1.")
    n_runs = labels.shape[0]
    if (masks.sum(1) == 0).any():
        raise ValueError("masks: every run needs at least one training pair.")
    per_run = {"lr_enc": _per_run("lr_enc", lr_enc, n_runs), "lr_dec": _per_run("lr_dec", lr_dec, n_runs),
               "wd_dec": _per_run("wd_dec", wd_dec, n_runs, nonnegative=True)}
    if len(init_seeds) != n_runs:
        raise ValueError(f"init_seeds: expected one value per run ({n_runs}), got {len(init_seeds)}.")
    return labels, masks, per_run



def _train_relations(
    model: RelationModelConfig,
    labels: np.ndarray,
    masks: np.ndarray,
    *,
    lr_enc: Sequence[float],
    lr_dec: Sequence[float],
    wd_dec: Sequence[float],
    init_seeds: Sequence[int],
    cfg: RelationTrainConfig = RelationTrainConfig(),
    keep_final_params: bool = False,
) -> RelationHistory:
    """Train R networks at once, full batch, Adam(W) with per-run encoder/decoder lr and decoder decay.

    ``labels``: (R, n²) 0/1 targets; ``masks``: (R, n²) bool training masks (test = the rest).
    Loss: binary cross-entropy on the sigmoid output, averaged over each run's training pairs.
    The update is torch.optim.AdamW's (decoupled decay on the decoder only; unstated in the paper, our choice).
    """
    labels, masks, per_run = check_relation_runs(model, labels, masks, lr_enc, lr_dec, wd_dec, init_seeds)
    n_runs = labels.shape[0]
    lr_e, lr_d, wd = per_run["lr_enc"], per_run["lr_dec"], per_run["wd_dec"]
    dtype = torch.float32 if cfg.dtype == "float32" else torch.float64

    # all parameters of a run live in one (R, P) buffer, so Adam is a handful of whole-buffer ops
    init = init_params(model, init_seeds, dtype)
    sizes = [math.prod(p.shape[1:]) for p in init]
    flat = torch.cat([p.reshape(n_runs, -1) for p in init], 1)
    bounds = np.cumsum([0] + sizes)
    shapes = [p.shape[1:] for p in init]

    def views(buffer):
        return [buffer[:, a:b].view(n_runs, *shape) for a, b, shape in zip(bounds[:-1], bounds[1:], shapes)]

    y = torch.as_tensor(labels, dtype=dtype)
    train = torch.as_tensor(masks)
    w_train = train.to(dtype) / train.sum(1, keepdim=True).to(dtype)
    test = ~train
    n_test = test.sum(1).clamp(min=1).to(dtype)

    n_enc = sizes[0]  # the embedding table (encoder) is the first block; the decoder is the rest
    lr = torch.cat([torch.tensor(lr_e, dtype=dtype)[:, None].expand(-1, n_enc),
                    torch.tensor(lr_d, dtype=dtype)[:, None].expand(-1, flat.shape[1] - n_enc)], 1)
    decay = None
    if any(wd):
        decay = torch.ones_like(flat)
        decay[:, n_enc:] = 1 - (torch.tensor(lr_d, dtype=dtype) * torch.tensor(wd, dtype=dtype))[:, None]
    m = torch.zeros_like(flat)
    v = torch.zeros_like(flat)
    flat.requires_grad_(True)

    rec_steps, tr_acc, te_acc, all_acc, losses = [], [], [], [], []
    for step in range(cfg.steps + 1):
        logits = forward(model, views(flat))
        per_pair = torch.nn.functional.binary_cross_entropy_with_logits(logits, y, reduction="none")
        loss = (per_pair * w_train).sum(1)
        if step % cfg.eval_every == 0 or step == cfg.steps:
            with torch.no_grad():
                correct = ((logits > 0).to(dtype) == y).to(dtype)
                rec_steps.append(step)
                tr_acc.append((correct * w_train).sum(1))
                te_acc.append((correct * test).sum(1) / n_test)
                all_acc.append(correct.mean(1))
                losses.append(loss.detach())
        if step == cfg.steps:
            break
        (grad,) = torch.autograd.grad(loss.sum(), flat)
        t = step + 1
        with torch.no_grad():  # torch.optim.AdamW's update, per-run lr columns
            if decay is not None:
                flat.mul_(decay)
            m.lerp_(grad, 1 - cfg.beta1)
            v.mul_(cfg.beta2).addcmul_(grad, grad, value=1 - cfg.beta2)
            denom = (v.sqrt() / math.sqrt(1 - cfg.beta2**t)).add_(cfg.eps)
            flat.addcdiv_(m * lr, denom, value=-1 / (1 - cfg.beta1**t))

    stack = lambda xs: torch.stack(xs, 1).double().numpy()
    return RelationHistory(
        steps=np.array(rec_steps), train_acc=stack(tr_acc), test_acc=stack(te_acc), all_acc=stack(all_acc),
        train_loss=stack(losses), final_params=[p.detach().clone() for p in views(flat)] if keep_final_params else None,
    )



def _train_until_decided(
    model: RelationModelConfig,
    labels: np.ndarray,
    masks: np.ndarray,
    *,
    lr_enc: Sequence[float],
    lr_dec: Sequence[float],
    wd_dec: Sequence[float],
    init_seeds: Sequence[int],
    cfg: RelationTrainConfig = RelationTrainConfig(),
    threshold: float = 0.9,
    stop: bool = True,
    record: bool = False,
) -> DecidedRuns:
    """The training of :func:`repro.data.relations.train_relations` (same initialization, loss and AdamW update,
    full batch), with a hand-written backward pass, for the phase diagrams of Figs. 5–6.

    It returns what the phase rule of Table 4 needs: per run, the first evaluation steps at which training
    and test accuracy exceed ``threshold``. Three things make it several times cheaper than the general
    trainer, none of which changes what a run computes:

    * the gradient step forwards only each run's training pairs (the test pairs are forwarded at the
      evaluation steps, every ``cfg.eval_every`` steps); the first layer of the concatenation model is
      E_i W_a + E_j W_b + b, so it is built from two (n, width) tables instead of an (n², 2d) input;
    * tanh z is evaluated as 2·sigmoid(2z) − 1 (the same function; PyTorch's vectorized sigmoid is several
      times faster than its tanh on CPU), and the backward pass is the chain rule, layer by layer;
    * with ``stop`` (the default), a run leaves the batch at the evaluation at which both accuracies have
      crossed the threshold: its phase (comprehension or grokking) is then decided, since the rule only
      reads the two first crossings. Runs are independent, so the others continue unchanged.

    ``tests/test_baek2024_geneft.py`` checks it against ``train_relations`` (autograd) in float64.
    """
    check_choice("mode", model.mode, ("concat",))
    check_int("hidden_layers", model.hidden_layers, minimum=1)
    check_real("threshold", threshold)
    labels, masks, per_run = check_relation_runs(model, labels, masks, lr_enc, lr_dec, wd_dec, init_seeds)
    n, d, width, depth = model.n, model.d_embed, model.width, model.hidden_layers
    n_runs = labels.shape[0]
    n_train = masks.sum(1)
    dtype = torch.float32 if cfg.dtype == "float32" else torch.float64

    init = init_params(model, init_seeds, dtype)  # [E, W_1, b_1, ..., W_out, b_out], as train_relations
    sizes = [math.prod(p.shape[1:]) for p in init]
    bounds = np.cumsum([0] + sizes)
    shapes = [p.shape[1:] for p in init]
    flat = torch.cat([p.reshape(n_runs, -1) for p in init], 1)
    n_enc = sizes[0]
    lr = torch.cat([torch.tensor(per_run["lr_enc"], dtype=dtype)[:, None].expand(-1, n_enc),
                    torch.tensor(per_run["lr_dec"], dtype=dtype)[:, None].expand(-1, flat.shape[1] - n_enc)], 1)
    decay = None
    if any(per_run["wd_dec"]):  # AdamW's decoupled decay, decoder only
        decay = torch.ones_like(flat)
        decay[:, n_enc:] = 1 - (torch.tensor(per_run["lr_dec"], dtype=dtype)
                                * torch.tensor(per_run["wd_dec"], dtype=dtype))[:, None]
    m = torch.zeros_like(flat)
    v = torch.zeros_like(flat)

    # each run's training pairs (ascending), padded with weight-0 pairs to the largest training set
    k_max = int(n_train.max())
    order = np.argsort(~masks, axis=1, kind="stable")[:, :k_max]
    in_train = np.take_along_axis(masks, order, 1)
    state = {
        "pair": torch.as_tensor(order),  # pair index i·n + j (relations.forward)
        "i": torch.as_tensor(order // n),
        "j": torch.as_tensor(order % n),
        "weight": torch.as_tensor(in_train / n_train[:, None], dtype=dtype),  # the loss is the mean over training pairs
        "y_train": torch.as_tensor(np.take_along_axis(labels, order, 1), dtype=dtype),
        "y": torch.as_tensor(labels, dtype=torch.bool),
        "train": torch.as_tensor(masks),
        "flat": flat, "m": m, "v": v, "lr": lr, "decay": decay,
        "runs": torch.arange(n_runs),
    }
    storage = [torch.empty(n_runs * k_max * width, dtype=dtype) for _ in range(depth + 2)]  # activations, dZ, dH
    spread = torch.zeros(n_runs * n * n, width, dtype=dtype)  # the first layer's dZ spread over all n² pairs

    def views(buffer):
        return [buffer[:, a:b].view(buffer.shape[0], *s) for a, b, s in zip(bounds[:-1], bounds[1:], shapes)]

    def sigmoid_tanh_(z2):
        """tanh z from 2z, in place: 2 sigmoid(2z) − 1."""
        return torch.sigmoid(z2, out=z2).mul_(2).sub_(1)

    def forward(params, rows, hidden):
        """Logits (R, K): of every pair (rows None, K = n²) or of the pairs whose flat row indices
        ``rows = (r·n + i, r·n + j)`` (each (R·K,)) are given; fills ``hidden`` (or new tensors) with each
        layer's tanh."""
        emb, w_in, b_in = params[0], params[1], params[2]
        runs = emb.shape[0]
        tab_i = torch.bmm(emb, w_in[:, :d]).mul_(2)  # (R, n, width)
        tab_j = torch.bmm(emb, w_in[:, d:]).mul_(2)
        if rows is None:  # 2 z_1 of pair (i, j), row-major (relations.forward)
            h = torch.add(tab_i[:, :, None, :], tab_j[:, None, :, :]).view(runs, n * n, width)
        else:
            h = torch.index_select(tab_i.view(-1, width), 0, rows[0], out=hidden[0].view(-1, width)).view(runs, -1, width)
            h.add_(torch.index_select(tab_j.view(-1, width), 0, rows[1]).view(runs, -1, width))
        h.add_(b_in[:, None, :], alpha=2)
        sigmoid_tanh_(h)
        for layer in range(1, depth):
            h = torch.baddbmm(params[2 + 2 * layer].unsqueeze(1), h, params[1 + 2 * layer], beta=2, alpha=2,
                              out=hidden[layer])  # 2 z
            sigmoid_tanh_(h)
        # the output layer as (1, width) @ (width, K): a matrix-vector product is much faster this way round
        return torch.baddbmm(params[2 + 2 * depth].unsqueeze(-1), params[1 + 2 * depth].transpose(1, 2),
                             h.transpose(1, 2)).squeeze(1)

    eval_steps = [s for s in range(cfg.steps + 1) if s % cfg.eval_every == 0 or s == cfg.steps]
    first_train = np.full(n_runs, -1)
    first_test = np.full(n_runs, -1)
    last_test = np.zeros(n_runs)
    stopped_at = np.full(n_runs, cfg.steps)
    hist = np.full((2, n_runs, len(eval_steps)), np.nan) if record else None
    n_test = np.maximum(n * n - n_train, 1)
    t_eval = 0
    for step in range(cfg.steps + 1):
        active = state["runs"].numpy()
        params = views(state["flat"])
        if step == eval_steps[t_eval]:
            logits = forward(params, None, [None] * depth)
            correct = (logits > 0) == state["y"]
            tr = (correct & state["train"]).sum(1).numpy() / n_train[active]
            te = (correct & ~state["train"]).sum(1).numpy() / n_test[active]
            first_train[active] = np.where((first_train[active] < 0) & (tr > threshold), step, first_train[active])
            first_test[active] = np.where((first_test[active] < 0) & (te > threshold), step, first_test[active])
            last_test[active] = te
            stopped_at[active] = step
            if record:
                hist[0, active, t_eval], hist[1, active, t_eval] = tr, te
            t_eval += 1
            if step == cfg.steps:
                break
            decided = (first_train[active] >= 0) & (first_test[active] >= 0)
            if stop and decided.any():
                keep = torch.as_tensor(~decided)
                state = {key: None if value is None else value[keep] for key, value in state.items()}
                spread.zero_()  # the training rows moved
                if len(state["runs"]) == 0:
                    break
                active = state["runs"].numpy()
                params = views(state["flat"])
        runs = len(active)
        hidden = [s[: runs * k_max * width].view(runs, k_max, width) for s in storage[:depth]]
        dz = storage[depth][: runs * k_max * width].view(runs, k_max, width)
        dh = storage[depth + 1][: runs * k_max * width].view(runs, k_max, width)
        offset = torch.arange(runs)[:, None] * n
        rows = ((state["i"] + offset).view(-1), (state["j"] + offset).view(-1))
        logits = forward(params, rows, hidden)
        grad = torch.empty_like(state["flat"])
        grads = views(grad)
        g = torch.sigmoid(logits).sub_(state["y_train"]).mul_(state["weight"])  # d loss / d logit, BCE with logits
        grads[1 + 2 * depth].copy_(torch.bmm(g.unsqueeze(1), hidden[depth - 1]).transpose(1, 2))  # (1, K) @ (K, width)
        torch.sum(g, 1, keepdim=True, out=grads[2 + 2 * depth])
        torch.mul(g.unsqueeze(-1), params[1 + 2 * depth].transpose(1, 2), out=dh)
        torch.ops.aten.tanh_backward.grad_input(dh, hidden[depth - 1], grad_input=dz)  # dh (1 − tanh²)
        for layer in range(depth - 1, 0, -1):
            torch.bmm(hidden[layer - 1].transpose(1, 2), dz, out=grads[1 + 2 * layer])
            torch.sum(dz, 1, out=grads[2 + 2 * layer])
            torch.bmm(dz, params[1 + 2 * layer].transpose(1, 2), out=dh)
            torch.ops.aten.tanh_backward.grad_input(dh, hidden[layer - 1], grad_input=dz)
        torch.sum(dz, 1, out=grads[2])
        # d loss / d (E_i W_a) and d (E_j W_b), per element: dZ spread over all n² pairs, then summed over j and
        # over i (the buffer is zero off the training rows, which are distinct; the same rows are overwritten
        # every step until the batch shrinks)
        d_all = spread[: runs * n * n].index_copy_(0, (state["pair"] + offset * n).view(-1),
                                                   dz.view(-1, width)).view(runs, n, n, width)
        d_p, d_q = d_all.sum(2), d_all.sum(1)
        emb, w_in = params[0], params[1]
        grads[1][:, :d] = torch.bmm(emb.transpose(1, 2), d_p)
        grads[1][:, d:] = torch.bmm(emb.transpose(1, 2), d_q)
        torch.bmm(d_p, w_in[:, :d].transpose(1, 2), out=grads[0])
        grads[0].add_(torch.bmm(d_q, w_in[:, d:].transpose(1, 2)))
        t = step + 1  # torch.optim.AdamW's update with per-run lr columns, as train_relations
        flat_, m_, v_ = state["flat"], state["m"], state["v"]
        if state["decay"] is not None:
            flat_.mul_(state["decay"])
        m_.lerp_(grad, 1 - cfg.beta1)
        v_.mul_(cfg.beta2).addcmul_(grad, grad, value=1 - cfg.beta2)
        denom = (v_.sqrt() / math.sqrt(1 - cfg.beta2**t)).add_(cfg.eps)
        flat_.addcdiv_(m_ * state["lr"], denom, value=-1 / (1 - cfg.beta1**t))

    return DecidedRuns(np.array(eval_steps), first_train, first_test, last_test, stopped_at,
                       hist[0] if record else None, hist[1] if record else None)


train_relations = _train_relations  # the old public entry points (their single-thread wrappers aside)
train_until_decided = _train_until_decided

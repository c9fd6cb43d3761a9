"""Batched training with the weight norm held fixed: Omnigrok's projected optimizer (spec §2, §6.1).

Omnigrok (Liu, Michaud, Tegmark, ICLR 2023, §2) studies the loss restricted to the sphere
‖θ‖₂ = w, with θ *all* parameters of one network as one vector: "we perform the constrained
minimization by rescaling the model weights back to their original norm after each unconstrained
optimization step". :func:`train_norm` does exactly that, for R runs at once: the optimizer step of
:mod:`repro.train` (AdamW or SGD, per-run learning rates and decays), then, for the runs marked
``constrained``, :func:`project_to_norm` multiplies run r's parameters by w_r / ‖θ_r‖, where w_r is the
norm of run r's *initial* parameters (the default init times Omnigrok's α). Unconstrained runs train
normally, so a constrained and a free run can share one batched program.

:func:`repro.train.train` has the same projection (``TrainConfig.fixed_norm``, a per-run field) and the
chapter's modular-addition runs use it, with the trainer's fast backward pass. This loop remains for the
teacher-student and image experiments, which need ``mse_threshold`` accuracy; folding that into
:func:`repro.train.train` would retire it. It reuses the trainer's flat parameter buffer, losses and
:class:`~repro.train.History`.

Accuracy: ``data.accuracy`` as in the trainer, or — for regression tasks such as the teacher-student
toy (spec §6.2b) — ``mse_threshold=θ``: a sample counts as correct when its MSE is below θ.
Used by the chapter ``liu2023_omnigrok``.
"""
from __future__ import annotations

import math
import os
import sys
from typing import Mapping, Sequence

import numpy as np
import torch

from .models import build_model
from .tasks import TaskData
from .train import (FlatParams, History, TrainConfig, join_blocks, per_run_values, per_sample_correct,
                    per_sample_loss, project_to_norm, run_blocks)
from .validation import check_real


class _FlatOptimizer:
    """AdamW (torch.optim.AdamW semantics, decoupled decay) or SGD (L2 decay, optional momentum) on the
    whole ``(R, P)`` buffer, with per-run, per-group learning rates and decays as ``(R, P)`` tensors.

    Kept here rather than borrowed from :mod:`repro.train`, whose internals are being optimized; the
    update rules are the same (``tests/test_omnigrok.py`` checks them against torch.optim).
    """

    def __init__(self, params: FlatParams, cfg: TrainConfig, values: dict[str, list]):
        flat = params.flat
        R, P = flat.shape
        is_repr = torch.zeros(P, dtype=torch.bool, device=flat.device)
        groups = {s.name: s.group for s in params.specs}
        for name, (a, b, _) in params.offsets.items():
            is_repr[a:b] = groups[name] == "repr"

        def per_entry(repr_key, dec_key):
            col = lambda key: torch.as_tensor(values[key], dtype=flat.dtype, device=flat.device)[:, None]
            return torch.where(is_repr[None, :], col(repr_key), col(dec_key))

        self.lr = per_entry("lr_repr", "lr_dec")
        self.wd = per_entry("wd_repr", "wd_dec")
        self.kind = cfg.optimizer
        self.beta1, self.beta2, self.eps, self.momentum = cfg.beta1, cfg.beta2, cfg.eps, cfg.momentum
        self.m = torch.zeros_like(flat)
        self.v = torch.zeros_like(flat) if self.kind == "adamw" else None
        self.t = 0

    @torch.no_grad()
    def step(self, param: torch.Tensor, grad: torch.Tensor) -> None:
        self.t += 1
        if self.kind == "sgd":
            d = grad + self.wd * param
            if self.momentum:
                d = self.m.mul_(self.momentum).add_(d) if self.t > 1 else self.m.copy_(d)
            param.sub_(self.lr * d)
            return
        param.mul_(1 - self.lr * self.wd)  # decoupled decay first, as torch.optim.AdamW
        self.m.lerp_(grad, 1 - self.beta1)
        self.v.mul_(self.beta2).addcmul_(grad, grad, value=1 - self.beta2)
        denom = (self.v / (1 - self.beta2**self.t)).sqrt_().add_(self.eps)
        param.addcdiv_(self.m * self.lr, denom, value=-1.0 / (1 - self.beta1**self.t))


def _masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return (values * mask).sum(-1) / mask.sum(-1).clamp(min=1).to(values.dtype)




def train_norm(
    model_config,
    data: TaskData,
    cfg: TrainConfig,
    runs: Mapping[str, Sequence] | None = None,
    *,
    constrained: bool | Sequence[bool] = True,
    mse_threshold: float | None = None,
    keep_final_params: bool = False,
    progress: bool | None = None,
    desc: str = "norm-constrained training",
) -> History:
    """Train R runs; runs with ``constrained`` True keep their initial weight norm after every step.

    Arguments as :func:`repro.train.train` (``runs`` varies any of its per-run fields). Records
    ``train_loss``, ``val_loss``, ``weight_norm`` and accuracies at every ``cfg.eval_every`` steps.
    """
    model = build_model(model_config)
    n_runs, values = per_run_values(cfg, runs)
    if isinstance(constrained, bool):
        constrained = [constrained] * n_runs
    constrained = [bool(c) for c in constrained]
    if len(constrained) != n_runs:
        raise ValueError(f"constrained has {len(constrained)} entries; it needs one per run ({n_runs}).")
    if mse_threshold is not None:
        check_real("mse_threshold", mse_threshold, positive=True)
        if data.loss != "mse":
            raise ValueError("mse_threshold is only allowed with an MSE task (data.loss='mse').")
    device = cfg.torch_device
    data = data.to(device=device, dtype=cfg.torch_dtype)
    bar = None
    if progress if progress is not None else os.environ.get("REPRO_PROGRESS", "1") != "0":
        from tqdm import tqdm

        bar = tqdm(total=cfg.steps * n_runs, desc=desc, unit="run-step", unit_scale=True, file=sys.stderr, mininterval=1.0)
    # As repro.train.train: on the CPU, one block of runs per thread, each single-threaded.
    workers = torch.get_num_threads() if device.type == "cpu" else 1
    size = -(-n_runs // workers)
    blocks = [slice(a, min(a + size, n_runs)) for a in range(0, n_runs, size)]

    def run_block(block: slice) -> History:
        return _train_norm_block(model, data, cfg, {k: v[block] for k, v in values.items()}, constrained[block],
                                 mse_threshold, keep_final_params, bar)

    parts = run_blocks(run_block, blocks, len(blocks))
    if bar is not None:
        bar.close()
    return join_blocks(parts, dict(values, constrained=constrained))


def _train_norm_block(model, data: TaskData, cfg: TrainConfig, values: dict[str, list], constrained: list[bool],
                      mse_threshold, keep_final_params: bool, bar) -> History:
    """Train one block of runs (all of :func:`train_norm` but the blocking)."""
    n_runs = len(values["init_seed"])
    device, dtype = cfg.torch_device, cfg.torch_dtype
    params = FlatParams(model, values, dtype, device)
    optimizer = _FlatOptimizer(params, cfg, values)
    flat = params.flat
    target = flat.norm(dim=1).clone()  # w = ||theta_0||: the default init times alpha (spec §2)
    mask = torch.as_tensor(constrained, device=device)

    train_mask, val_mask = (m.expand(n_runs, -1) for m in data.masks())
    train_index = torch.as_tensor(data.train_idx, device=device)
    n_train = len(data.train_idx)
    minibatch = cfg.batch_size is not None and cfg.batch_size < n_train
    if minibatch:
        samplers = [torch.Generator().manual_seed(int(s)) for s in values["init_seed"]]
        batches_per_epoch = math.ceil(n_train / cfg.batch_size)

    record_steps, records = [], []

    def evaluate(step: int, out: torch.Tensor) -> None:
        loss = per_sample_loss(out, data).double()
        row = {
            "train_loss": _masked_mean(loss, train_mask),
            "val_loss": _masked_mean(loss, val_mask),
            "weight_norm": flat.norm(dim=1).double(),
        }
        if mse_threshold is not None:
            correct = (loss < mse_threshold).double()
        elif data.accuracy != "none":
            correct = per_sample_correct(out, data).double()
        else:
            correct = None
        if correct is not None:
            row["train_acc"] = _masked_mean(correct, train_mask)
            row["val_acc"] = _masked_mean(correct, val_mask)
        records.append(row)
        record_steps.append(step)

    grad_flat = torch.empty_like(flat)
    offsets = list(params.offsets.values())
    train_inputs = data.inputs[train_index]
    for step in range(cfg.steps + 1):
        if step % cfg.eval_every == 0 or step == cfg.steps:
            with torch.no_grad():
                evaluate(step, model.forward(params.views(flat), data.inputs))
        if step == cfg.steps:
            break
        views = {k: v.detach().requires_grad_() for k, v in params.views(flat).items()}
        if minibatch:
            k = step % batches_per_epoch
            if k == 0:
                order = torch.stack([torch.randperm(n_train, generator=g) for g in samplers]).to(device)
                epoch_index = train_index[order]  # (R, n_train) sample ids
            idx = epoch_index[:, k * cfg.batch_size : (k + 1) * cfg.batch_size]
            out = model.forward(views, data.inputs[idx])
            objective = per_sample_loss(out, data, idx).mean(-1).sum()
        else:
            out = model.forward(views, train_inputs)
            idx = train_index.expand(n_runs, -1)
            objective = per_sample_loss(out, data, idx).mean(-1).sum()
        grads = torch.autograd.grad(objective, list(views.values()), allow_unused=True)
        for (a, b, _), g in zip(offsets, grads):
            if g is None:
                grad_flat[:, a:b].zero_()
            else:
                grad_flat[:, a:b].copy_(g.reshape(n_runs, b - a))
        optimizer.step(flat, grad_flat)
        project_to_norm(flat, target, mask)  # Omnigrok: back onto the sphere after every step
        if bar is not None:
            bar.update(n_runs)
    metrics = {k: torch.stack([r[k] for r in records], dim=1).cpu().double().numpy() for k in records[0]}
    final = {k: v.detach().cpu().double().numpy() for k, v in params.views().items()} if keep_final_params else {}
    return History(steps=np.asarray(record_steps, dtype=np.int64), metrics=metrics, final_params=final, run_values=values)

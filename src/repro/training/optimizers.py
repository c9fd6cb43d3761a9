"""The optimizers of the batched trainer: one update of every run's ``(R, P)`` parameters per step, with per-run,
per-group learning rates and decays. Each has ``step(param, grads, lr_factor)``, ``state()`` / ``load_state()``
(a checkpoint's ``optimizer/`` arrays) and ``select(keep, values)`` (runs that stop early leave), and says whether
it is ``scale_free`` (it ignores a positive per-run factor on the gradient)."""
from __future__ import annotations

import math
from typing import Mapping

import torch

from repro.training.config import TrainConfig
from repro.training.params import FlatParams


def fused_adamw_available(device: torch.device) -> bool:
    """Whether PyTorch's fused AdamW kernel (the private one behind ``torch.optim.AdamW(fused=True)``) runs here;
    where it does not, :class:`AdamW` takes its elementwise update (the same update)."""
    return hasattr(torch, "_fused_adamw_") and device.type in ("cpu", "cuda")


def fused_adamw(params, grads, exp_avgs, exp_avg_sqs, step_counts, *, lr: float, beta1: float, beta2: float,
                weight_decay: float, eps: float) -> None:
    """The one call of the private ``torch._fused_adamw_`` (lists of tensors, updated in place)."""
    torch._fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, [], step_counts, lr=lr, beta1=beta1, beta2=beta2,
                        weight_decay=weight_decay, eps=eps, amsgrad=False, maximize=False)


class AdamW:
    """torch.optim.AdamW's update (decoupled weight decay), batched with per-run, per-group lr and decay.

    On CPU and CUDA the update runs through PyTorch's fused AdamW kernel (the one behind
    ``torch.optim.AdamW(fused=True)``): one pass over parameters, gradients and moments instead of
    about nine elementwise passes. The kernel takes one scalar lr and weight decay per call, so runs
    are grouped by their (lr, weight decay) pair — a 10 x 10 grid makes about a hundred calls per step
    on lists of contiguous per-run slices, which costs far less than the passes it saves.
    ``fused=False`` keeps the whole-buffer elementwise version (tests compare both with torch.optim).
    """

    scale_free = False

    def __init__(self, flat: FlatParams, cfg: TrainConfig, values: dict[str, list], fused: bool | None = None):
        self.flat = flat
        self.lr = flat.per_group(values["lr_repr"], values["lr_dec"])
        self.wd = flat.per_group(values["wd_repr"], values["wd_dec"])
        self.decay = [None if not bool((w != 0).any()) else 1 - lr * w for lr, w in zip(self.lr, self.wd)]
        self.m = torch.zeros_like(flat.flat)
        self.v = torch.zeros_like(flat.flat)
        self.beta1, self.beta2, self.eps = cfg.beta1, cfg.beta2, cfg.eps
        self.t = 0
        self.fused = fused_adamw_available(flat.flat.device) if fused is None else fused
        self.step_count = torch.zeros((), dtype=torch.float32, device=flat.flat.device)
        self._build(values)

    def _build(self, values):
        if self.fused:
            self._build_fused_calls(values)
        else:
            self.buf = torch.empty_like(self.flat.flat)
            self.grad_flat = torch.empty_like(self.flat.flat)

    def select(self, keep: torch.Tensor, values: dict[str, list]) -> None:
        """Keep the state of the runs ``keep`` (bool (R,)) only, after ``flat.flat`` was cut to them (runs that
        stopped early); ``values``: the kept runs' per-run values."""
        self.lr = tuple(lr[keep] for lr in self.lr)
        self.wd = tuple(wd[keep] for wd in self.wd)
        self.decay = [None if d is None else d[keep] for d in self.decay]
        self.m, self.v = self.m[keep], self.v[keep]
        self._build(values)

    def _build_fused_calls(self, values):
        group_values = {"repr": (values["lr_repr"], values["wd_repr"]), "dec": (values["lr_dec"], values["wd_dec"])}
        calls: dict[tuple, list[tuple[int, int]]] = {}
        for k, spec_group in enumerate(self.flat.param_groups):
            lrs, wds = group_values[spec_group]
            for r in range(self.flat.flat.shape[0]):
                calls.setdefault((float(lrs[r]), float(wds[r])), []).append((r, k))
        bounds = list(self.flat.offsets.values())
        slices = lambda t: [[t[r, bounds[k][0] : bounds[k][1]] for (r, k) in members] for members in calls.values()]
        self.calls = list(calls.keys())
        self.members = list(calls.values())
        self.param_lists, self.m_lists, self.v_lists = slices(self.flat.flat), slices(self.m), slices(self.v)

    def state(self) -> dict[str, torch.Tensor]:
        """What a checkpoint keeps (both step counters: the fused kernel reads one, the elementwise update the other)."""
        return {"m": self.m, "v": self.v, "t": torch.tensor(self.t), "step_count": self.step_count}

    @torch.no_grad()
    def load_state(self, state: Mapping[str, torch.Tensor]) -> None:
        """Restore :meth:`state` in place (the fused calls hold slices of ``m`` and ``v``)."""
        self.m.copy_(state["m"])
        self.v.copy_(state["v"])
        self.t = int(state["t"])
        self.step_count.copy_(state["step_count"])

    @torch.no_grad()
    def step(self, param: torch.Tensor, grads: list[torch.Tensor], lr_factor: float = 1.0) -> None:
        """Update ``param`` (R, P) given each parameter's gradient, ``grads[k]`` of shape (R, n_k); ``lr_factor``
        scales every learning rate (and so the decoupled decay lr·λ) for this update only (:func:`lr_multiplier`)."""
        if self.fused:
            self.step_count += 1  # the kernel reads the step (as torch.optim increments it before the call)
            # each gradient's per-run rows by one unbind, not one select per (run, tensor)
            rows = [g.unbind(0) for g in grads]
            for (lr, wd), members, ps, ms, vs in zip(self.calls, self.members, self.param_lists, self.m_lists, self.v_lists):
                gs = [rows[k][r] for (r, k) in members]
                fused_adamw(ps, gs, ms, vs, [self.step_count] * len(ps), lr=lr * lr_factor, beta1=self.beta1,
                            beta2=self.beta2, weight_decay=wd, eps=self.eps)
            return
        grad = self.flat.gather(grads, self.grad_flat)
        self.t += 1
        bc1 = 1 - self.beta1**self.t
        bc2_sqrt = math.sqrt(1 - self.beta2**self.t)
        self.m.lerp_(grad, 1 - self.beta1)
        self.v.mul_(self.beta2).addcmul_(grad, grad, value=1 - self.beta2)
        denom = torch.sqrt(self.v, out=self.buf).div_(bc2_sqrt).add_(self.eps)
        split = self.flat.groups
        for p, m, d, lr, wd, decay in zip(split(param), split(self.m), split(denom), self.lr, self.wd, self.decay):
            if p.shape[1] == 0:
                continue
            if lr_factor != 1.0:  # this update's lr, and its decay 1 - lr·λ
                lr = lr * lr_factor
                decay = None if decay is None else 1 - lr * wd
            if decay is not None:
                p.mul_(decay)
            # lr · m / denom in this order, as the GenEFT chapters' own AdamW did before it moved here: their
            # float32 runs then keep their bits (tests/test_trainer_relations.py)
            p.addcdiv_(m * lr, d, value=-1.0 / bc1)


class SGD:
    """Plain (full-batch: gradient descent) SGD with L2 weight decay and optional momentum, like torch.optim.SGD."""

    scale_free = False

    def __init__(self, flat: FlatParams, cfg: TrainConfig, values: dict[str, list], fused: bool | None = None):
        # fused: accepted as AdamW's; there is no fused SGD kernel to choose
        self.flat = flat
        self.lr = flat.per_group(values["lr_repr"], values["lr_dec"])
        self.wd = flat.per_group(values["wd_repr"], values["wd_dec"])
        self.momentum = cfg.momentum
        self.buf = None
        self.grad_flat = torch.empty_like(flat.flat)

    def select(self, keep: torch.Tensor, values: dict[str, list]) -> None:
        """Keep the state of the runs ``keep`` (bool (R,)) only (see :meth:`AdamW.select`)."""
        self.lr = tuple(lr[keep] for lr in self.lr)
        self.wd = tuple(wd[keep] for wd in self.wd)
        self.buf = None if self.buf is None else self.buf[keep]
        self.grad_flat = torch.empty_like(self.flat.flat)

    def state(self) -> dict[str, torch.Tensor]:
        """What a checkpoint keeps: the momentum buffer, once there is one."""
        return {} if self.buf is None else {"buf": self.buf}

    def load_state(self, state: Mapping[str, torch.Tensor]) -> None:
        self.buf = state["buf"].clone() if "buf" in state else None

    @torch.no_grad()
    def step(self, param: torch.Tensor, grads: list[torch.Tensor], lr_factor: float = 1.0) -> None:
        split = self.flat.groups
        d = self.flat.gather(grads, self.grad_flat)
        for dd, p, wd in zip(split(d), split(param), self.wd):
            dd.addcmul_(p, wd)
        if self.momentum:
            self.buf = d.clone() if self.buf is None else self.buf.mul_(self.momentum).add_(d)
            d = self.buf
        for p, dd, lr in zip(split(param), split(d), self.lr):
            p.addcmul_(dd, lr, value=-lr_factor)


class GD:
    """Plain gradient descent θ ← θ − lr·g with per-run, per-group lr, no momentum or weight decay (Mohamadi et
    al. 2024, App. A.1: full-batch GD). "sgd" with momentum 0 and no decay is the same update through extra
    passes; this is the literal one."""

    scale_free = False  # the step scales with the gradient

    def __init__(self, flat: FlatParams, cfg: TrainConfig, values: dict[str, list], fused: bool | None = None):
        # fused: accepted as AdamW's; there is no fused kernel to choose
        self.flat = flat
        self.lr = dict(zip(("repr", "dec"), flat.per_group(values["lr_repr"], values["lr_dec"])))

    def select(self, keep: torch.Tensor, values: dict[str, list]) -> None:
        """Keep the runs ``keep`` (bool (R,)) only (see :meth:`AdamW.select`)."""
        self.lr = {group: lr[keep] for group, lr in self.lr.items()}

    def state(self) -> dict[str, torch.Tensor]:
        return {}  # no state beyond the parameters

    def load_state(self, state: Mapping[str, torch.Tensor]) -> None:
        pass

    @torch.no_grad()
    def step(self, param: torch.Tensor, grads: list[torch.Tensor], lr_factor: float = 1.0) -> None:
        for (a, b, _), g, group in zip(self.flat.offsets.values(), grads, self.flat.param_groups):
            lr = self.lr[group] if lr_factor == 1.0 else self.lr[group] * lr_factor
            param[:, a:b].sub_(lr * g)


class NormalizedGD(GD):
    """Normalized gradient descent θ ← θ − lr·g/‖g‖₂ per run, the norm over all of the run's parameters
    (Mohamadi et al. 2024, App. A.1; App. A.2 trains classification with lr 10): every run moves Euclidean
    length lr, or stays where its gradient is exactly zero. The step ignores the gradient's scale, so it
    takes a gradient source's gradient up to a positive per-run factor (see :class:`repro.models.fastgrad.QuadraticGradient`)."""

    scale_free = True

    @torch.no_grad()
    def step(self, param: torch.Tensor, grads: list[torch.Tensor], lr_factor: float = 1.0) -> None:
        norm = torch.sqrt(sum((g ** 2).sum(1) for g in grads))
        safe = torch.where(norm > 0, norm, 1.0)
        for (a, b, _), g, group in zip(self.flat.offsets.values(), grads, self.flat.param_groups):
            lr = self.lr[group] if lr_factor == 1.0 else self.lr[group] * lr_factor
            factor = torch.where(norm > 0, lr[:, 0] / safe, 0.0)
            param[:, a:b].sub_(factor[:, None] * g)


OPTIMIZER_CLASSES = {"adamw": AdamW, "sgd": SGD, "gd": GD, "normalized_gd": NormalizedGD}

"""The batched trainer: R independent runs as one tensor program.

All parameters of all runs live in one flat buffer of shape ``(R, P)``; each model parameter is a view
``(R, *shape)`` into it. Gradients therefore land in one ``(R, P)`` tensor and the optimizer update is a
handful of whole-buffer elementwise ops with per-run (and per-group) learning rates and weight decays —
no Python loop over runs or parameters. Runs stay independent: the objective is the sum of per-run
losses, so run r's gradient depends on run r alone.

What may differ between runs (:data:`PER_RUN_FIELDS`): learning rates and weight decays of the
representation and decoder groups, the two init-scale multipliers, the init seed, the dropout rate, and
the training split (per-run boolean masks over a shared dataset).

Full batch: one forward pass over *all* samples per step gives the training loss (masked) and, at
evaluation steps, every metric of the current parameters at no extra cost (the official toy code logs
pre-step losses the same way: grokking-squared toy/train_add.py). Minibatch: per-run shuffled epochs, evaluation by a separate
no-grad pass every ``eval_every`` steps. ``history[t]`` always describes the parameters after t updates.
"""
from __future__ import annotations

import bisect
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from repro.core.cpurand import keep_mask
from repro.core.crossings import first_step
from repro.core.devices import DTYPES, check_device, resolve_device, resolve_dtype
from repro.core.kernels import init_nudge
from repro.core.portable import ConfigRepr
from repro.core.validation import check_choice, check_int, check_open_unit, check_real
from repro.data.tasks import TaskData
from repro.models import fastgrad
from repro.models.networks import BatchedModel, QuadraticNet, build_model

if TYPE_CHECKING:
    from repro.training.checkpoint import Checkpointer

PER_RUN_FIELDS = ("lr_repr", "lr_dec", "wd_repr", "wd_dec", "init_scale", "repr_init_scale", "init_seed", "fixed_norm",
                  "dropout")
OPTIMIZERS = ("adamw", "sgd", "gd", "normalized_gd")


@dataclass(frozen=True, repr=False)
class TrainConfig(ConfigRepr):
    """How to train. Defaults are neutral; each chapter's config sets its paper's values."""

    steps: int = 1000
    # "adamw" (decoupled decay, torch.optim.AdamW semantics), "sgd" (plain GD/SGD, L2 decay), "gd" (θ − lr·g, no
    # decay or momentum) or "normalized_gd" (θ − lr·g/‖g‖₂ per run: Mohamadi et al. 2024, App. A.1/A.2)
    optimizer: str = "adamw"
    lr_repr: float = 1e-3  # representation (embeddings / first layer)
    lr_dec: float = 1e-3  # decoder (everything else)
    wd_repr: float = 0.0
    wd_dec: float = 0.0
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    momentum: float = 0.0  # sgd only
    # Linear learning-rate warm-up, the same for every run: update k (counting from 0) uses lr·min(1, k/warmup_steps),
    # so update 0 moves nothing but Adam's moments. This is openai/grok training.py's LambdaLR (warmup_steps 10,
    # stepped after each update; Power et al. 2022 App. A.1: "linear learning rate warmup over the first 10 updates").
    # Weight decay scales with it, as torch.optim.AdamW's decay lr·λ does under a scheduler. 0: no warm-up.
    warmup_steps: int = 0
    # Step decay, the same for every run of a batch: each run's learning rate is multiplied by lr_decay_factor at every
    # update index in lr_decay_steps (updates count from 0), a MultiStepLR with those milestones, on top of the
    # warm-up; decoupled weight decay scales with it. The official Omnigrok landscape notebook
    # (mod-addition/landscape/addition-landscape.ipynb) multiplies Adam's lr by 0.2 when (epoch + 1) % 5000 == 0,
    # before that epoch's update: lr_decay_steps = (4999, 9999, 14999). (): no decay.
    lr_decay_steps: tuple = ()
    lr_decay_factor: float = 1.0
    init_scale: float = 1.0  # multiplier on the decoder's default init (Omnigrok's alpha)
    repr_init_scale: float = 1.0  # scale of the representation's init
    init_seed: int = 0
    batch_size: int | None = None  # None: full batch
    # Extra loss embed_l1 * mean|E| on the embedding table "embed" (per run; not in the logged losses). The
    # official S3 notebook of Liu et al. 2022 trains with 1e-3 (grokking-squared toy/Figure5d_permutation.ipynb); 0 everywhere else.
    embed_l1: float = 0.0
    # Omnigrok's constrained training (Liu, Michaud, Tegmark 2023, §2): after every optimizer step, rescale
    # the run's whole parameter vector back to its initial L2 norm (the init times alpha).
    fixed_norm: bool = False
    # Dropout rate at the model's dropout sites during training steps (models with ``dropout_sites`` only:
    # EncoderTransformer). Evaluations never drop (as module.eval()). Run r's masks come from its own
    # generator seeded by init_seed + DROPOUT_SEED_OFFSET, so they do not depend on the other runs.
    dropout: float = 0.0
    # Mohamadi et al. 2024's ℓ∞ penalty linf_reg·‖θ‖∞ on each run's whole parameter vector (Eq. 2.2's
    # regularizer; App. A: λ = 1e-4 for regression, 1e-20 for classification), by the subgradient
    # jax.grad takes of max|θ| (repro.models.fastgrad.linf_subgradient). Not in the logged losses.
    linf_reg: float = 0.0
    # True: weigh linf_reg against the data gradient as the underflow-safe cross-entropy gradient
    # (repro.models.fastgrad.QuadraticGradient: largest wrong-class logit weight 1) scales it, not against the true
    # gradient (repro.experiments.mohamadi2024_why_grok's default recipe, see ClassificationConfig.exact_regularizer). normalized_gd only.
    linf_relative: bool = False
    eval_every: int = 1
    dtype: str = "float32"
    device: str = "auto"  # "auto" = cuda when present, else cpu

    def __post_init__(self):
        check_int("steps", self.steps, minimum=1)
        check_choice("optimizer", self.optimizer, OPTIMIZERS)
        for name in ("lr_repr", "lr_dec"):
            check_real(name, getattr(self, name), positive=True)
        for name in ("wd_repr", "wd_dec", "eps", "momentum", "embed_l1", "linf_reg"):
            check_real(name, getattr(self, name), nonnegative=True)
        check_open_unit("beta1", self.beta1)
        check_open_unit("beta2", self.beta2)
        check_real("init_scale", self.init_scale, positive=True)
        check_real("repr_init_scale", self.repr_init_scale, positive=True)
        check_int("init_seed", self.init_seed, minimum=0)
        check_int("warmup_steps", self.warmup_steps, minimum=0)
        if not isinstance(self.lr_decay_steps, tuple):
            raise ValueError(f"lr_decay_steps={self.lr_decay_steps!r} is not allowed: it must be a tuple of update indices.")
        for k in self.lr_decay_steps:
            check_int("lr_decay_steps", k, minimum=0)
        if list(self.lr_decay_steps) != sorted(set(self.lr_decay_steps)):
            raise ValueError(f"lr_decay_steps={self.lr_decay_steps!r} is not allowed: the update indices must be strictly "
                             "increasing.")
        check_real("lr_decay_factor", self.lr_decay_factor, positive=True)
        if self.batch_size is not None:
            check_int("batch_size", self.batch_size, minimum=1)
        check_int("eval_every", self.eval_every, minimum=1)
        check_real("dropout", self.dropout, nonnegative=True)
        if self.dropout >= 1:
            raise ValueError(f"dropout={self.dropout!r} is not allowed: it must be a rate in [0, 1).")
        check_choice("linf_relative", self.linf_relative, (True, False))
        if self.linf_relative and self.optimizer != "normalized_gd":
            raise ValueError(f"linf_relative=True is not allowed with optimizer={self.optimizer!r}: only normalized_gd "
                             "ignores the scale of the data gradient; use linf_relative=False.")
        if self.optimizer in ("gd", "normalized_gd") and (self.momentum or self.wd_repr or self.wd_dec):
            raise ValueError(f"optimizer={self.optimizer!r} has no momentum or weight decay: momentum, wd_repr and "
                             "wd_dec must be 0 (use 'sgd' for them).")
        if not isinstance(self.fixed_norm, (bool, np.bool_)):
            raise ValueError(f"fixed_norm={self.fixed_norm!r} is not allowed: it must be True or False.")
        check_choice("dtype", self.dtype, tuple(DTYPES))
        check_device(self.device)

    @property
    def torch_dtype(self) -> torch.dtype:
        return resolve_dtype(self.dtype)

    @property
    def torch_device(self) -> torch.device:
        return resolve_device(self.device)


def lr_multiplier(cfg: TrainConfig, step: int) -> float:
    """The multiplier on every run's learning rate at update ``step`` (counting from 0): the linear warm-up of
    :attr:`TrainConfig.warmup_steps` (then 1), times :attr:`TrainConfig.lr_decay_factor` to the number of
    :attr:`TrainConfig.lr_decay_steps` at or before ``step``."""
    warm = 1.0 if step >= cfg.warmup_steps else step / cfg.warmup_steps
    decays = bisect.bisect_right(cfg.lr_decay_steps, step)
    return warm if decays == 0 else warm * cfg.lr_decay_factor ** decays


def per_run_values(cfg: TrainConfig, runs: Mapping[str, Sequence] | None) -> tuple[int, dict[str, list]]:
    """Expand per-run overrides into full per-run lists (every field of :data:`PER_RUN_FIELDS`)."""
    runs = dict(runs or {})
    unknown = set(runs) - set(PER_RUN_FIELDS)
    if unknown:
        raise ValueError(
            f"runs has fields {sorted(unknown)} that cannot vary per run; allowed: {', '.join(PER_RUN_FIELDS)}."
        )
    lengths = {len(v) for v in runs.values()}
    if len(lengths) > 1:
        raise ValueError(f"runs: every per-run list must have the same length; got lengths {sorted(lengths)}.")
    n_runs = lengths.pop() if lengths else 1
    if n_runs < 1:
        raise ValueError("runs: per-run lists must not be empty.")
    values = {name: list(runs.get(name, [getattr(cfg, name)] * n_runs)) for name in PER_RUN_FIELDS}
    for name, vals in values.items():  # validate each run's value through the config itself
        for v in vals:
            TrainConfig(**{**{f.name: getattr(cfg, f.name) for f in fields(cfg)}, name: v})
    return n_runs, values


@torch.no_grad()
def project_to_norm(flat: torch.Tensor, target: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Rescale each row of ``flat`` (R, P) in place to the L2 norm ``target`` (R,); rows with
    ``mask`` False are left alone. Returns ``flat``. A zero row cannot be rescaled and raises."""
    norm = flat.norm(dim=1)
    if bool((norm == 0).any()):
        raise ValueError("project_to_norm: a run has all-zero parameters; its direction is undefined.")
    factor = target.to(flat.dtype) / norm
    if mask is not None:
        factor = torch.where(mask, factor, torch.ones_like(factor))
    flat.mul_(factor[:, None])
    return flat


class FlatParams:
    """All runs' parameters in one ``(R, P)`` buffer, with named ``(R, *shape)`` views.

    Parameters of the representation group come first, so each group is one contiguous column
    block ``[0, n_repr)`` / ``[n_repr, P)`` and per-run group values broadcast as ``(R, 1)`` columns.
    Initial values are still drawn in the model's declaration order (the official RNG order).
    """

    def __init__(self, model: BatchedModel, values: dict[str, list], dtype, device,
                 given: Mapping[str, torch.Tensor] | None = None):
        specs_by_run = [
            model.param_specs(init_scale=float(values["init_scale"][r]), repr_init_scale=float(values["repr_init_scale"][r]))
            for r in range(len(values["init_seed"]))
        ]
        self.specs = specs_by_run[0]
        layout = [s for s in self.specs if s.group == "repr"] + [s for s in self.specs if s.group != "repr"]
        self.offsets = {}
        offset = 0
        for s in layout:
            n = math.prod(s.shape)
            self.offsets[s.name] = (offset, offset + n, s.shape)
            offset += n
        self.n_params = offset
        self.n_repr = sum(math.prod(s.shape) for s in layout if s.group == "repr")
        self.param_groups = ["repr" if s.group == "repr" else "dec" for s in layout]  # in offsets order
        self.flat = torch.empty(len(specs_by_run), self.n_params, dtype=dtype, device=device)
        for r, specs in enumerate(specs_by_run):
            gen = torch.Generator().manual_seed(int(values["init_seed"][r]))
            for s in specs:  # draw in declaration order, store in group order
                a, b, _ = self.offsets[s.name]
                self.flat[r, a:b] = s.init(s.shape, gen).reshape(-1).to(device=device, dtype=dtype)
        # Given initial values (R, *shape) replace the draws after all of them, so the parameters that are
        # not given keep the values their seed draws (used to start from another code's initial state,
        # e.g. repro.experiments.liu2022_phase_diagrams_s3_official).
        for name, value in (given or {}).items():
            a, b, _ = self.offsets[name]
            self.flat[:, a:b] = value.reshape(self.flat.shape[0], -1).to(device=device, dtype=dtype)

    def views(self, flat: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
        flat = self.flat if flat is None else flat
        return {name: flat[:, a:b].view(flat.shape[0], *shape) for name, (a, b, shape) in self.offsets.items()}

    def gather(self, grads: list[torch.Tensor], out: torch.Tensor) -> torch.Tensor:
        """Copy per-parameter tensors ``(R, n_k)`` (offsets order; None = zero) into one ``(R, P)`` buffer."""
        for (a, b, _), g in zip(self.offsets.values(), grads):
            if g is None:
                out[:, a:b].zero_()
            else:
                out[:, a:b].copy_(g)
        return out

    def groups(self, flat: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The (R, n_repr) and (R, P - n_repr) column blocks of a flat tensor."""
        return flat[:, : self.n_repr], flat[:, self.n_repr :]

    def per_group(self, repr_values: Sequence[float], dec_values: Sequence[float]) -> tuple[torch.Tensor, torch.Tensor]:
        """Per-run values of each group as ``(R, 1)`` columns (broadcast over that group's block)."""
        as_col = lambda v: torch.as_tensor(v, dtype=self.flat.dtype, device=self.flat.device)[:, None]
        return as_col(repr_values), as_col(dec_values)


class AdamW:
    """torch.optim.AdamW's update (decoupled weight decay), batched with per-run, per-group lr and decay.

    On CPU and CUDA the update runs through PyTorch's fused AdamW kernel (the one behind
    ``torch.optim.AdamW(fused=True)``): one pass over parameters, gradients and moments instead of
    about nine elementwise passes. The kernel takes one scalar lr and weight decay per call, so runs
    are grouped by their (lr, weight decay) pair — a 10 x 10 grid makes about a hundred calls per step
    on lists of contiguous per-run slices, which costs far less than the passes it saves.
    ``fused=False`` keeps the whole-buffer elementwise version (tests compare both with torch.optim).
    """

    def __init__(self, flat: FlatParams, cfg: TrainConfig, values: dict[str, list], fused: bool | None = None):
        self.flat = flat
        self.lr = flat.per_group(values["lr_repr"], values["lr_dec"])
        self.wd = flat.per_group(values["wd_repr"], values["wd_dec"])
        self.decay = [None if not bool((w != 0).any()) else 1 - lr * w for lr, w in zip(self.lr, self.wd)]
        self.m = torch.zeros_like(flat.flat)
        self.v = torch.zeros_like(flat.flat)
        self.beta1, self.beta2, self.eps = cfg.beta1, cfg.beta2, cfg.eps
        self.t = 0
        self.fused = hasattr(torch, "_fused_adamw_") and flat.flat.device.type in ("cpu", "cuda") if fused is None else fused
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
            # each gradient's per-run rows by one unbind, not one select per (run, tensor): a 10 x 10 grid's ~350
            # selects cost 4 % of a toy-sweep step
            rows = [g.unbind(0) for g in grads]
            for (lr, wd), members, ps, ms, vs in zip(self.calls, self.members, self.param_lists, self.m_lists, self.v_lists):
                gs = [rows[k][r] for (r, k) in members]
                torch._fused_adamw_(ps, gs, ms, vs, [], [self.step_count] * len(ps), lr=lr * lr_factor,
                                    beta1=self.beta1, beta2=self.beta2, weight_decay=wd, eps=self.eps, amsgrad=False,
                                    maximize=False)
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


_OPTIMIZER_CLASSES = {"adamw": AdamW, "sgd": SGD, "gd": GD, "normalized_gd": NormalizedGD}

DROPOUT_SEED_OFFSET = 2**32  # run r's dropout stream: seed init_seed + offset, apart from its init draws


class Dropout:
    """Inverted dropout with a per-run rate, as ``torch.nn.functional.dropout`` in training: each unit is
    zeroed with probability ``rate[r]`` and the survivors are scaled by ``1 / (1 - rate[r])``. A run with
    rate 0 keeps every unit, bit for bit.

    A run's masks must not depend on which other runs share its block. Each run therefore draws from its
    own generator (a loop over runs per site), and when ``rows`` is set -- (R, K): the original sample index of
    each row that run r forwards in a full-batch step (its own training set, :class:`_RunRows`) -- it draws a
    mask for every one of the ``n_samples`` samples and keeps its rows, so the mask of a sample does not
    depend on which rows are forwarded."""

    def __init__(self, rates: Sequence[float], seeds: Sequence[int], device, dtype, n_samples: int | None = None):
        self.rate = torch.as_tensor([float(r) for r in rates], dtype=dtype, device=device)
        self.scale = 1.0 / (1.0 - self.rate)
        self.generators = [torch.Generator(device=device).manual_seed(int(s) + DROPOUT_SEED_OFFSET) for s in seeds]
        self.n_samples = n_samples
        self.rows: torch.Tensor | None = None

    def __call__(self, h: torch.Tensor) -> torch.Tensor:
        u = torch.empty_like(h)
        shape = (-1,) + (1,) * (h.dim() - 1)
        # rows (R, K): run r forwards the samples rows[r]; each sample's mask is drawn whatever the rows
        draw = (self.n_samples,) + tuple(h.shape[2:]) if self.rows is not None else tuple(h.shape[1:])
        if h.device.type == "cpu" and h.dtype in (torch.float32, torch.float64):
            # the same masks as torch.rand(...) >= rate below, drawn from the same generators' streams by NumPy's
            # faster twister (repro.core.cpurand); drawing masks was about a sixth of a paper-scale step of Liu et
            # al.'s model
            for r, g in enumerate(self.generators):
                u[r].copy_(keep_mask(draw, g, h.dtype, float(self.rate[r]), None if self.rows is None else self.rows[r]))
            return h * u.mul_(self.scale.view(shape))
        for r, g in enumerate(self.generators):
            if self.rows is None:
                torch.rand(draw, generator=g, device=h.device, dtype=h.dtype, out=u[r])
            else:
                torch.index_select(torch.rand(draw, generator=g, device=h.device, dtype=h.dtype), 0, self.rows[r], out=u[r])
        # the mask, in place: 1 where kept, 0 where dropped, times 1 / (1 - rate) (bit for bit h * keep * scale)
        return h * u.ge_(self.rate.view(shape)).mul_(self.scale.view(shape))

    def state(self) -> dict[str, np.ndarray]:
        """Each run's generator state (R, L) as a checkpoint keeps it: the rest of the run's masks."""
        return {"dropout/generators": torch.stack([g.get_state() for g in self.generators]).numpy()}

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        saved = state["dropout/generators"]
        now = self.generators[0].get_state()
        if saved.shape != (len(self.generators), now.numel()):
            raise ValueError(f"the checkpoint's dropout generators have states of shape {saved.shape}; this run's "
                             f"{self.generators[0].device.type} generators need {(len(self.generators), now.numel())}: "
                             "resume on the device type the run started on.")
        for g, st in zip(self.generators, saved):
            g.set_state(torch.from_numpy(st.copy()))



@dataclass
class History:
    """Per-run training curves: arrays of shape ``(R, T)`` at the evaluation ``steps`` (T,)."""

    steps: np.ndarray
    metrics: dict[str, np.ndarray]
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    final_params: dict[str, np.ndarray] = field(default_factory=dict)
    run_values: dict[str, list] = field(default_factory=dict)
    # the steps of an ``extra`` entry that the callback returned at some evaluation steps only (a snapshot every
    # few hundred steps): ``extra[k]`` is then (R, len(extra_steps[k]), ...); entries recorded at every step are absent
    extra_steps: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def n_runs(self) -> int:
        return next(iter(self.metrics.values())).shape[0]

    def __getitem__(self, key: str) -> np.ndarray:
        if key in self.metrics:
            return self.metrics[key]
        if key in self.extra:
            return self.extra[key]
        raise KeyError(f"history has no metric {key!r}; it has {sorted(self.metrics) + sorted(self.extra)}.")

    def first_step(self, key: str, threshold: float, *, above: bool = True) -> np.ndarray:
        """Per run, the first evaluation step where ``key`` reaches ``threshold`` (>=, or <= with
        ``above=False``); -1 where it never does."""
        return first_step(self.steps, self[key], threshold, above=above)

    def run(self, r: int) -> "History":
        """The history of run r alone (as a one-run History)."""
        return History(
            steps=self.steps,
            metrics={k: v[r : r + 1] for k, v in self.metrics.items()},
            extra={k: v[r : r + 1] for k, v in self.extra.items()},
            final_params={k: v[r : r + 1] for k, v in self.final_params.items()},
            run_values={k: v[r : r + 1] for k, v in self.run_values.items()},
            extra_steps=self.extra_steps,
        )


def progress_enabled(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return os.environ.get("REPRO_PROGRESS", "1") != "0"


def sample_labels(data: TaskData, idx: torch.Tensor | None = None) -> torch.Tensor:
    """The labels of every sample, (N,) or per run (R, N), or of the samples ``idx`` (R, B) of each run."""
    if idx is None:
        return data.labels
    return data.labels.gather(1, idx) if data.per_run_labels else data.labels[idx]


def sample_targets(data: TaskData, idx: torch.Tensor | None = None) -> torch.Tensor | None:
    """The regression targets of every sample, (N, k) or per run (R, N, k), or of the samples ``idx`` (R, B) of
    each run (R, B, k); None for a task without targets."""
    if data.targets is None or idx is None:
        return data.targets
    if data.per_run_targets:
        return data.targets.gather(1, idx.unsqueeze(-1).expand(-1, -1, data.targets.shape[-1]))
    return data.targets[idx]


def per_sample_loss(out: torch.Tensor, data: TaskData, idx: torch.Tensor | None = None) -> torch.Tensor:
    """(R, n) loss of each sample: cross-entropy, MSE averaged over output dims (as toy/train_add.py's mean over
    batch and dims), or binary cross-entropy on the one logit ``out[..., 0]`` (the sigmoid output's, computed
    from the logit as ``binary_cross_entropy_with_logits``: GenEFT, Baek, Liu & Tegmark 2024 §2).

    ``out`` covers every sample (n = N), or the minibatch ``idx`` (R, B) when given. With ``ce_tokens`` it is
    (R, n, T, C), the logits of each sample's T target tokens, and the loss is the cross-entropy averaged over them
    (the mean over a batch is then openai/grok's mean over its batch and target tokens: every sample has T).
    """
    if data.loss == "ce_tokens":
        R, n, T, C = out.shape
        tokens = sample_targets(data, idx).expand(R, n, T)
        return F.cross_entropy(out.reshape(R * n * T, C), tokens.reshape(-1), reduction="none").view(R, n, T).mean(-1)
    labels = sample_labels(data, idx).expand(out.shape[0], -1)
    if data.loss == "ce":
        R, n, C = out.shape
        return F.cross_entropy(out.reshape(R * n, C), labels.reshape(-1), reduction="none").view(R, n)
    if data.loss == "bce":
        return F.binary_cross_entropy_with_logits(out[..., 0], labels.to(out.dtype), reduction="none")
    return (out - sample_targets(data, idx)).pow(2).mean(-1)


def per_sample_correct(out: torch.Tensor, data: TaskData, labels: torch.Tensor | None = None) -> torch.Tensor:
    """(R, N) bool: argmax prediction, or nearest regression template (official toy code), is right."""
    if data.accuracy == "all_tokens":  # out (R, N, T, C): every target token's argmax right
        return (out.argmax(-1) == data.targets).all(-1)
    labels = data.labels if labels is None else labels
    if data.accuracy == "argmax":
        return out.argmax(-1) == labels
    if data.accuracy == "binary":  # the one logit's sign: sigmoid > 1/2 predicts 1
        return (out[..., 0] > 0) == labels.bool()
    if data.accuracy == "nearest_template":
        t = data.templates  # (C, k), or (R, C, k) per run
        # argmin_c |o - t_c|^2 = argmin_c (|t_c|^2 - 2 o.t_c)
        score = t.pow(2).sum(-1).unsqueeze(-2) - 2 * out @ t.transpose(-1, -2)
        return score.argmin(-1) == labels
    return torch.zeros(out.shape[:2], dtype=torch.bool, device=out.device)


def _masked_mean(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    count = mask.sum(-1).to(values.dtype)
    return torch.where(count > 0, (values * mask).sum(-1) / count.clamp(min=1), torch.full_like(count, float("nan")))


BLOCK_BYTES = 256 * 1024**2  # cap on a block's hot data (parameters, gradients, Adam moments, activations)
# A run above this trains in a block of its own: batching such runs did not pay on the CPU. On the Intel Xeon of the
# README's table, idle, one thread, three seeds in blocks of one against the blocks the byte cap alone gives (3, and
# 2 + 1): Liu et al.'s encoder (72 MiB a run) 248 against 269 ms per run-step, Power et al.'s decoder (116 MiB) 52
# against 56. The batched products alone were slower per run than one run's (matmul-only bound, Liu: 156 against
# 135 ms). Smaller runs keep the byte cap (nothing was measured between 1 and 72 MiB a run).
LARGE_RUN_BYTES = 64 * 1024**2


def default_block_runs(model: BatchedModel, n_samples: int, itemsize: int, n_runs: int, workers: int) -> int:
    """Runs per block on the CPU: the runs split evenly over the workers, one block each, and further only
    where a block's hot data would exceed :data:`BLOCK_BYTES`; a run above :data:`LARGE_RUN_BYTES` alone. Larger blocks won on the toy benchmark
    (100 runs, 2 workers: blocks of 10 / 25 / 50 ran at 3.1k / 3.6k / 3.8k run-steps/s): a block that
    fits in the last-level cache did not pay for its extra per-step overhead."""
    width = max((max(s.shape) for s in model.param_specs()), default=1)
    per_run = itemsize * (4 * model.n_params() + 6 * n_samples * width)
    max_block = 1 if per_run > LARGE_RUN_BYTES else max(1, BLOCK_BYTES // per_run)
    n_blocks = max(min(workers, n_runs), math.ceil(n_runs / max_block))
    n_blocks = min(n_runs, math.ceil(n_blocks / workers) * workers)
    return math.ceil(n_runs / n_blocks)


@dataclass(frozen=True, repr=False)
class Performance(ConfigRepr):
    """How :func:`train` runs, never what it computes: the histories do not depend on these fields
    (``tests/test_fastgrad.py`` trains the same runs every way and compares).

    block_runs, workers: runs are independent, so on the CPU they train in blocks of ``block_runs``
        (default: what fits in cache, :func:`default_block_runs`), ``workers`` blocks at a time on their
        own threads (default: ``torch.get_num_threads()``, each block then single-threaded). On CUDA all
        runs form one block.
    fast_grad: use the hand-written backward pass of :mod:`repro.models.fastgrad` (default: whenever it
        supports the model and loss; otherwise autograd). ``True`` where unsupported is an error.
    background_evaluation: on the CPU, evaluate on a thread of its own while the block trains on (default: where
        a worker would otherwise idle, a single block on two or more workers, without ``until``). The evaluation
        reads a copy of the parameters of its step and is the same single-threaded forward, so the bits do not
        change. Only where the evaluation is a forward of its own (dropout, minibatches or a per-run-rows gradient);
        where it rides on the training forward it stays there.
    fused_optimizer: AdamW through PyTorch's fused kernel (default: where it exists, on CPU and CUDA; see
        :class:`AdamW`) or as whole-buffer elementwise ops (False). For many small runs (hundreds of runs
        of a thousand parameters) the elementwise update is the faster one: the fused kernel pays per tensor.
    """

    block_runs: int | None = None
    workers: int | None = None
    fast_grad: bool | None = None
    fused_optimizer: bool | None = None
    background_evaluation: bool | None = None

    def __post_init__(self):
        for name in ("block_runs", "workers"):
            if getattr(self, name) is not None:
                check_int(name, getattr(self, name), minimum=1)
        for name in ("fast_grad", "fused_optimizer", "background_evaluation"):
            if getattr(self, name) not in (None, True, False):
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: use None (automatic), True or False.")


def train(
    model_config,
    data: TaskData,
    cfg: TrainConfig,
    runs: Mapping[str, Sequence] | None = None,
    *,
    train_mask: torch.Tensor | None = None,
    val_mask: torch.Tensor | None = None,
    callback: Callable[[int, dict[str, torch.Tensor]], dict[str, torch.Tensor]] | None = None,
    keep_final_params: bool = False,
    mse_threshold: float | None = None,
    init_params: Mapping[str, torch.Tensor] | None = None,
    until: Callable[[np.ndarray, dict[str, np.ndarray]], np.ndarray] | None = None,
    performance: Performance | None = None,
    progress: bool | None = None,
    desc: str = "training",
    eval_steps: Sequence[int] | None = None,
    checkpoint: Checkpointer | None = None,
    batch_schedule: torch.Tensor | None = None,
) -> History:
    """Train R runs together and return their histories.

    What is trained:

    model_config: an ``EmbedMLPConfig``, ``TransformerConfig``, ``EncoderTransformerConfig``, ``TwoLayerConfig``,
        ``MLPConfig`` or ``RelationModelConfig``.
    data: the dataset with its default split (``data.train_idx`` / ``data.val_idx``); its labels are shared
        (N,) or one row per run (R, N).
    cfg: shared training settings; ``runs`` overrides any of :data:`PER_RUN_FIELDS` per run.
    train_mask, val_mask: optional ``(R, N)`` boolean masks replacing the default split per run.
    callback: called at every evaluation step with the parameter views ``(R, ...)``; returns a dict of
        ``(R, ...)`` tensors recorded into ``history.extra`` (e.g. embedding snapshots, RQI). An entry it returns
        at some steps only (a snapshot every 500 steps) is recorded at those (``history.extra_steps``), which keeps
        a long run's history and checkpoint small.
    keep_final_params: keep every run's final parameters in ``history.final_params``.
    mse_threshold: for regression tasks without classes (Omnigrok's teacher-student toy), a sample
        counts as correct when its MSE is below this value; default: ``data.accuracy``.
    init_params: initial values of some parameters, by name, of per-run shape (shared by every run) or
        ``(R, *shape)``; they replace the seeded draws of those parameters (the others keep theirs). For
        starting from another code's initial state (:mod:`repro.experiments.liu2022_phase_diagrams_s3_official`).
    batch_schedule: ``(R, >= cfg.steps, cfg.batch_size)`` sample indices: step k trains run r on the samples
        ``batch_schedule[r, k]`` (its own training samples, each larger than the batch) instead of the per-run
        shuffled epochs, for another code's draws (the official toy code's: :func:`repro.data.tasks.toy_runs`).
    eval_steps: evaluate (metrics and ``callback``) at these steps instead of every ``cfg.eval_every``, for
        recorders on another grid than the metrics (the eNTK of :mod:`repro.experiments.mohamadi2024_why_grok`); the final
        parameters (step ``cfg.steps``) are always evaluated.
    until: stops runs early. At every evaluation step before the last, after recording it, ``until(steps,
        metrics)`` gets the evaluation steps so far (T,) and every metric so far as ``(R_block, T)`` float64
        arrays of the runs of one block (see :class:`Performance`; nan once a run has stopped), and returns a
        bool array (R_block,): the runs to stop now. A stopped run takes no further step and leaves the batch
        (the others continue exactly as without it); its later history entries are nan and its final
        parameters are those at its stop. It must decide from the history alone (blocks call it separately).
        Full batch without dropout only.

    How it runs (never changes the result):

    performance: blocks, threads and the gradient path (:class:`Performance`).
    progress: show a tqdm bar over run-steps on stderr, with the rate and the time left (default: unless
        ``REPRO_PROGRESS=0``).
    desc: the progress bar's label.
    checkpoint: a :class:`repro.training.checkpoint.Checkpointer` (made by the results store for a stored run,
        issue 32): the run resumes from its saved state and saves its state every ``checkpoint.every_s`` seconds.
        The resumed run equals the uninterrupted one bit for bit; ``callback`` must then keep no state of its
        own. With ``until`` the checkpoint also keeps which runs had stopped (and the parameters they stopped at).
    """
    performance = Performance() if performance is None else performance
    model = build_model(model_config)
    n_runs, values = per_run_values(cfg, runs)
    device, dtype = cfg.torch_device, cfg.torch_dtype
    data = data.to(device=device, dtype=dtype)
    if cfg.embed_l1 and "embed" not in {spec.name for spec in model.param_specs()}:
        raise ValueError(f"embed_l1={cfg.embed_l1} is not allowed for {type(model).__name__}: it penalizes the "
                         "embedding table 'embed', which this model does not have; use embed_l1=0.")
    train_mask, val_mask = _run_masks(data, n_runs, train_mask, val_mask, device)
    if data.per_run is not None and data.per_run != n_runs:
        raise ValueError(f"data has per-run labels or targets (one per run) for {data.per_run} runs; this call trains "
                         f"{n_runs} runs.")
    if batch_schedule is not None:
        batch_schedule = _check_batch_schedule(batch_schedule, cfg, n_runs, train_mask)
    if until is not None and (cfg.batch_size is not None or any(values["dropout"])):
        raise ValueError("until is only allowed with full-batch training without dropout: use batch_size=None and "
                         "dropout=0.")
    if mse_threshold is not None:
        check_real("mse_threshold", mse_threshold, positive=True)
        if data.loss != "mse":
            raise ValueError(f"mse_threshold={mse_threshold} is only allowed with an MSE task; this task's loss is {data.loss!r}.")
    fast_grad = _resolve_fast_grad(model, data.loss, performance.fast_grad)
    eval_steps = _check_gradient_source_options(model, cfg, fast_grad, eval_steps)
    if any(values["dropout"]) and not getattr(model, "dropout_sites", ()):
        raise ValueError(f"dropout={max(values['dropout'])} is not allowed for {type(model).__name__}: it has no "
                         "dropout sites; models with dropout: EncoderTransformer. Use dropout=0.")
    given = _given_params(model, init_params, n_runs)

    workers = performance.workers
    if workers is None:
        workers = torch.get_num_threads() if device.type == "cpu" else 1
    block_runs = performance.block_runs
    if block_runs is None:
        block_runs = n_runs if device.type != "cpu" else default_block_runs(model, data.n_samples, torch.finfo(dtype).bits // 8, n_runs, workers)
    blocks = [slice(a, min(a + block_runs, n_runs)) for a in range(0, n_runs, block_runs)]
    if checkpoint is not None:  # a resumed run keeps the blocks its checkpoint was saved in
        blocks = [slice(a, b) for a, b in checkpoint.begin(n_runs, cfg.steps, [(b.start, b.stop) for b in blocks])]
    block_index = {(b.start, b.stop): i for i, b in enumerate(blocks)}
    background = performance.background_evaluation
    if background is None:  # a worker would idle: one block on two or more (one seed on the CI's two cores)
        background = device.type == "cpu" and until is None and 2 * len(blocks) <= workers
    elif background and (device.type != "cpu" or until is not None):
        raise ValueError("background_evaluation=True is only allowed on the CPU and without until (runs that stop "
                         "early need their evaluation before the next step); use None or False.")
    workers = min(workers, len(blocks))

    bar = None
    if progress_enabled(progress):
        from tqdm import tqdm

        # the run-steps a resumed run has done count from the start, as the updates of _train_block would have
        # counted them; tqdm's rate (and so the time left) counts only this process's updates
        update_every = max(1, cfg.steps // 200)
        done = 0 if checkpoint is None else sum(
            (int(state["step"]) // update_every) * update_every * (b.stop - b.start)
            for b in blocks if (state := checkpoint.restored(block_index[(b.start, b.stop)])) is not None)
        bar = tqdm(total=cfg.steps * n_runs, initial=done, desc=desc, unit="run-step", unit_scale=True,
                   file=sys.stderr, mininterval=1.0,
                   bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed} elapsed, {remaining} left, {rate_fmt}]")

    def run_block(block: slice) -> History:
        i = block_index[(block.start, block.stop)]
        block_values = {k: v[block] for k, v in values.items()}
        saved = None if checkpoint is None else checkpoint.restored(i)
        if saved is not None and bool(saved["done"]):  # a block that finished before the run was interrupted
            return _history_from_state(saved, block_values)
        block_data = data.select_runs(block)
        history = _train_block(model, block_data, cfg, block_values, train_mask[block],
                               val_mask[block], callback, keep_final_params, bar, fast_grad, mse_threshold,
                               {k: v[block] for k, v in given.items()}, eval_steps, until, performance.fused_optimizer,
                               checkpoint, i, None if batch_schedule is None else batch_schedule[block], background)
        if checkpoint is not None and checkpoint.wants_done_blocks():
            checkpoint.save(i, cfg.steps, _history_state(history), done=True)
        return history

    parts = run_blocks(run_block, blocks, workers)
    if bar is not None:
        bar.update(bar.total - bar.n)
        bar.close()
    return join_blocks(parts, values)


def _given_params(model: BatchedModel, init_params, n_runs: int) -> dict[str, torch.Tensor]:
    """``init_params`` checked against the model's parameters and broadcast to ``(R, *shape)``, on the CPU in
    their own dtype (:class:`FlatParams` casts them to the training dtype)."""
    shapes = {s.name: s.shape for s in model.param_specs()}
    out = {}
    for name, value in (init_params or {}).items():
        if name not in shapes:
            raise ValueError(f"init_params has {name!r}, which is not a parameter of {type(model).__name__}; "
                             f"allowed: {', '.join(shapes)}.")
        value = torch.as_tensor(value).detach().cpu()
        if tuple(value.shape) == tuple(shapes[name]):
            value = value.expand(n_runs, *shapes[name])
        if tuple(value.shape) != (n_runs, *shapes[name]):
            raise ValueError(f"init_params[{name!r}] has shape {tuple(value.shape)}; allowed: {tuple(shapes[name])} "
                             f"(shared by every run) or {(n_runs, *shapes[name])} (one per run).")
        out[name] = value
    return out


def _run_masks(data: TaskData, n_runs: int, train_mask, val_mask, device) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-run (R, N) train / validation masks: the given ones (validated) or the data's default split."""
    default_train, default_val = data.masks()
    train_mask = default_train.expand(n_runs, -1) if train_mask is None else train_mask.to(device)
    val_mask = default_val.expand(n_runs, -1) if val_mask is None else val_mask.to(device)
    for name, mask in (("train_mask", train_mask), ("val_mask", val_mask)):
        if tuple(mask.shape) != (n_runs, data.n_samples) or mask.dtype != torch.bool:
            raise ValueError(f"{name} must be a bool tensor of shape ({n_runs}, {data.n_samples}); got {tuple(mask.shape)} {mask.dtype}.")
    if (train_mask.sum(-1) == 0).any():
        raise ValueError("train_mask leaves some run with an empty training split.")
    return train_mask, val_mask


def _resolve_fast_grad(model, loss: str, fast_grad: bool | None) -> bool:
    supported = fastgrad.supports(model, loss)
    if fast_grad is None:
        return supported
    if fast_grad and not supported:
        raise ValueError(f"fast_grad=True is not allowed for {type(model).__name__} with loss {loss!r}: "
                         f"repro.models.fastgrad supports {fastgrad.SUPPORTED}; use fast_grad=None or False.")
    return fast_grad


def _check_gradient_source_options(model, cfg: TrainConfig, fast_grad: bool, eval_steps) -> frozenset[int] | None:
    """Validate what :class:`repro.models.fastgrad.QuadraticGradient` and the eNTK recorders of Mohamadi et al. 2024
    need; returns ``eval_steps`` as a set (None: every ``cfg.eval_every``)."""
    quadratic = fast_grad and isinstance(model, QuadraticNet)
    if quadratic and cfg.batch_size is not None:
        raise ValueError(f"batch_size={cfg.batch_size} is not allowed with QuadraticNet's hand-written gradient "
                         "(full batch only); use batch_size=None or Performance(fast_grad=False).")
    if cfg.linf_relative and not quadratic:
        raise ValueError("linf_relative=True is not allowed here: it weighs the ℓ∞ term against the underflow-safe "
                         "cross-entropy gradient of repro.models.fastgrad.QuadraticGradient (QuadraticNetConfig, loss 'ce', "
                         "fast_grad not False); use linf_relative=False.")
    if eval_steps is None:
        return None
    for s in eval_steps:
        check_int("eval_steps", s, minimum=0)
        if s > cfg.steps:
            raise ValueError(f"eval_steps has {s}; allowed: steps in [0, steps={cfg.steps}].")
    return frozenset(int(s) for s in eval_steps)


def run_blocks(run_block, blocks: list[slice], workers: int) -> list[History]:
    """``run_block`` on every block of runs, ``workers`` at a time on their own threads, each block
    single-threaded -- also when there is only one block. Two intra-op threads on one block sum in
    another order than one thread (and were measured to differ run to run), so a run's bits would
    depend on the caller's ``torch.get_num_threads()``: a sweep chunk recomputed on a Dask worker
    with another thread count would then differ from the same chunk trained in-process."""
    threads_before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        if workers == 1 or len(blocks) == 1:
            return [run_block(b) for b in blocks]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(run_block, blocks))
    finally:
        torch.set_num_threads(threads_before)


def join_blocks(parts: list[History], run_values: dict) -> History:
    """One :class:`History` from the blocks' histories, runs in block order."""
    join = lambda key: {k: np.concatenate([getattr(h, key)[k] for h in parts], axis=0) for k in getattr(parts[0], key)}
    return History(steps=parts[0].steps, metrics=join("metrics"), extra=join("extra"), final_params=join("final_params"),
                   run_values=run_values, extra_steps=parts[0].extra_steps)


class _Recorder:
    """The evaluations of one block: losses and accuracies over each run's train / validation split,
    weight norms, and whatever the callback returns, at every evaluation step.

    With ``until`` some runs stop early; the recorder then sees the ``active`` runs only and stores nan for
    the stopped ones."""

    def __init__(self, data: TaskData, flat: torch.Tensor, train_mask, val_mask, callback, mse_threshold):
        self.data, self.flat, self.train_mask, self.val_mask = data, flat, train_mask, val_mask
        self.callback, self.mse_threshold = callback, mse_threshold
        self.steps, self.rows, self.extras = [], [], []
        self.n_runs = flat.shape[0]
        self.active: torch.Tensor | None = None  # block indices of the runs still training (None: all)

    def _full(self, values: torch.Tensor) -> torch.Tensor:
        """``values`` (R_active, ...) spread over the block's runs, nan for the stopped ones."""
        if self.active is None:
            return values
        if not values.is_floating_point():
            raise ValueError(f"with until, a callback must return floating-point tensors (nan marks a stopped run); "
                             f"got {values.dtype}.")
        full = torch.full((self.n_runs, *values.shape[1:]), float("nan"), dtype=values.dtype, device=values.device)
        full[self.active] = values
        return full

    def select(self, keep: torch.Tensor, flat: torch.Tensor, data: TaskData, train_mask, val_mask) -> None:
        """Keep recording only the runs ``keep`` (bool over the active runs), now at ``flat``."""
        active = torch.arange(self.n_runs, device=keep.device) if self.active is None else self.active
        self.active = active[keep]
        self.flat, self.data, self.train_mask, self.val_mask = flat, data, train_mask, val_mask

    def pad(self, schedule: np.ndarray) -> None:
        """nan rows for the evaluation steps of ``schedule`` after the last recorded one (every run stopped)."""
        for step in schedule[len(self.steps):]:
            self.rows.append({k: torch.full_like(v, float("nan")) for k, v in self.rows[-1].items()})
            if self.extras:  # the entries recorded at every step so far; a sparse one has no row to pad
                dense = self._dense_keys()
                self.extras.append({k: torch.full_like(v, float("nan")) for k, v in self.extras[-1].items() if k in dense})
            self.steps.append(int(step))

    def _dense_keys(self) -> set[str]:
        """The callback's entries recorded at every evaluation step so far."""
        return set.intersection(*(set(e) for e in self.extras)) if self.extras else set()

    def _extra_columns(self) -> dict[str, tuple[np.ndarray, list[torch.Tensor]]]:
        """Per callback entry: the indices of the evaluation steps that recorded it, and its rows there."""
        columns: dict[str, tuple[list[int], list[torch.Tensor]]] = {}
        for t, entry in enumerate(self.extras):
            for k, v in entry.items():
                columns.setdefault(k, ([], []))
                columns[k][0].append(t)
                columns[k][1].append(v)
        return {k: (np.asarray(index, dtype=np.int64), rows) for k, (index, rows) in columns.items()}

    def metrics_so_far(self) -> dict[str, np.ndarray]:
        """Every recorded metric as (R, T) float64 arrays (nan where a run had stopped)."""
        return {k: torch.stack([r[k] for r in self.rows], dim=1).cpu().numpy() for k in self.rows[0]}

    @torch.no_grad()
    def __call__(self, step: int, out: torch.Tensor, views, flat: torch.Tensor | None = None) -> None:
        """Record the metrics of the outputs ``out`` over *all* samples, at parameters ``views`` (the views of
        ``flat``; default: of the block's live buffer)."""
        data = self.data
        # metrics in float64: 9/10 correct must read as exactly 0.9 for threshold tests
        loss = per_sample_loss(out, data).double()
        if self.mse_threshold is not None:
            correct = (loss < self.mse_threshold).double()
        else:
            correct = per_sample_correct(out, data).double()
        row = {
            "train_loss": _masked_mean(loss, self.train_mask),
            "val_loss": _masked_mean(loss, self.val_mask),
            "weight_norm": (self.flat if flat is None else flat).norm(dim=1).double(),  # native dtype: no (R, P) copy
        }
        if data.accuracy != "none" or self.mse_threshold is not None:
            row["train_acc"] = _masked_mean(correct, self.train_mask)
            row["val_acc"] = _masked_mean(correct, self.val_mask)
        self.rows.append({k: self._full(v) for k, v in row.items()})
        self.steps.append(step)
        if self.callback is not None:
            self.extras.append({k: self._full(v.detach().clone()) for k, v in self.callback(step, views).items()})

    def state(self) -> dict[str, np.ndarray]:
        """The records so far, in their own dtypes, as a checkpoint keeps them."""
        out = {"record/steps": np.asarray(self.steps, dtype=np.int64)}
        if self.rows:
            out.update({"record/metric/" + k: torch.stack([r[k] for r in self.rows], dim=1).cpu().numpy()
                        for k in self.rows[0]})
        for k, (index, rows) in self._extra_columns().items():
            out["record/extra/" + k] = torch.stack(rows, dim=1).cpu().numpy()
            if len(index) < len(self.steps):  # a sparse entry: the evaluation steps (by index) that recorded it
                out["record/extra_index/" + k] = index
        return out

    def load_state(self, state: Mapping[str, np.ndarray], device) -> None:
        """Continue from :meth:`state`: the restored rows stack to the same bits as the recorded ones."""
        self.steps = [int(s) for s in state["record/steps"]]

        def rows(prefix):
            columns = {k[len(prefix):]: torch.from_numpy(v).to(device) for k, v in state.items() if k.startswith(prefix)}
            out = [{} for _ in self.steps]
            for k, v in columns.items():
                index = state.get("record/extra_index/" + k) if prefix == "record/extra/" else None
                for j, t in enumerate(range(len(self.steps)) if index is None else index):
                    out[int(t)][k] = v[:, j]
            # one dict per recorded step even where a step recorded no extra, so that the steps recorded after
            # the resume keep their place (an entry's steps are found by position)
            return out

        self.rows, self.extras = rows("record/metric/"), rows("record/extra/")

    def history(self, final_params: dict, values: dict) -> History:
        to_numpy = lambda rows: torch.stack(rows, dim=1).cpu().double().numpy()
        steps = np.asarray(self.steps, dtype=np.int64)
        columns = self._extra_columns()
        return History(steps=steps, metrics={k: to_numpy([r[k] for r in self.rows]) for k in self.rows[0]},
                       extra={k: to_numpy(rows) for k, (_, rows) in columns.items()}, final_params=final_params,
                       run_values=values,
                       extra_steps={k: steps[index] for k, (index, _) in columns.items() if len(index) < len(steps)})


class _Minibatches:
    """Per-run shuffled epochs over each run's own training set (a generator per run, seeded by its
    init seed): ``indices(step)`` is the (R, batch_size) sample index of that step's batch."""

    def __init__(self, train_mask: torch.Tensor, batch_size: int, seeds, device):
        n_train = train_mask.sum(-1)
        if not bool((n_train == n_train[0]).all()):
            raise ValueError("batch_size with per-run masks needs the same number of training samples in every run.")
        self.n_train, self.batch_size, self.device = int(n_train[0]), batch_size, device
        self.train_index = torch.stack([torch.nonzero(m).squeeze(1) for m in train_mask])  # (R, n_train)
        self.samplers = [torch.Generator().manual_seed(int(s)) for s in seeds]
        self.per_epoch = math.ceil(self.n_train / batch_size)
        self.epoch_index = None

    def indices(self, step: int) -> torch.Tensor:
        k = step % self.per_epoch
        if k == 0:
            order = torch.stack([torch.randperm(self.n_train, generator=g) for g in self.samplers]).to(self.device)
            self.epoch_index = torch.gather(self.train_index, 1, order)
        return self.epoch_index[:, k * self.batch_size : (k + 1) * self.batch_size]

    def state(self) -> dict[str, np.ndarray]:
        """The samplers' states and the current epoch's order: the data order of the rest of the run."""
        out = {"minibatch/samplers": torch.stack([g.get_state() for g in self.samplers]).numpy()}
        if self.epoch_index is not None:
            out["minibatch/epoch_index"] = self.epoch_index.cpu().numpy()
        return out

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        for g, st in zip(self.samplers, state["minibatch/samplers"]):
            g.set_state(torch.from_numpy(st.copy()))
        if "minibatch/epoch_index" in state:
            self.epoch_index = torch.from_numpy(state["minibatch/epoch_index"]).to(self.device)


class _ScheduledBatches:
    """Minibatches given in advance (``train``'s ``batch_schedule``): ``indices(step)`` is the (R, batch_size)
    sample index of that step's batch. The schedule is an argument of the run, so a checkpoint keeps no state."""

    def __init__(self, schedule: torch.Tensor, device):
        self.schedule, self.device = schedule, device

    def indices(self, step: int) -> torch.Tensor:
        return self.schedule[:, step].to(device=self.device, dtype=torch.int64)

    def state(self) -> dict[str, np.ndarray]:
        return {}

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        pass


def _check_batch_schedule(schedule, cfg: TrainConfig, n_runs: int, train_mask: torch.Tensor) -> torch.Tensor:
    """``train``'s ``batch_schedule``, checked: its shape, that it names each run's own training samples, and that
    every run's training set is larger than the batch (a run that trains on all of it needs no schedule)."""
    schedule = torch.as_tensor(schedule)
    if schedule.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"batch_schedule must hold integer sample indices; got {schedule.dtype}.")
    if cfg.batch_size is None:
        raise ValueError("batch_schedule needs cfg.batch_size: set it to the schedule's batch size "
                         f"({schedule.shape[-1] if schedule.dim() == 3 else '?'}).")
    want = (n_runs, cfg.steps, cfg.batch_size)
    if schedule.dim() != 3 or schedule.shape[0] != n_runs or schedule.shape[1] < cfg.steps or schedule.shape[2] != cfg.batch_size:
        raise ValueError(f"batch_schedule has shape {tuple(schedule.shape)}; allowed: (runs, >= steps, batch_size) = "
                         f"{want}.")
    schedule = schedule[:, :cfg.steps]
    n_train = train_mask.sum(-1).cpu()
    if bool((n_train <= cfg.batch_size).any()):
        raise ValueError(f"batch_schedule with batch_size={cfg.batch_size} needs every run's training set larger than "
                         f"the batch; the smallest has {int(n_train.min())} samples (train it full batch, without a schedule).")
    if int(schedule.min()) < 0 or int(schedule.max()) >= train_mask.shape[1]:
        raise ValueError(f"batch_schedule has sample indices outside 0..{train_mask.shape[1] - 1}.")
    own = train_mask.cpu().gather(1, schedule.reshape(n_runs, -1).long())
    if not bool(own.all()):
        raise ValueError("batch_schedule names samples outside their run's training set (train_mask).")
    return schedule


def _add_embed_l1_gradient(grads: dict[str, torch.Tensor], views, embed_l1: float) -> None:
    """The gradient of ``embed_l1 * mean|E|`` (per run) added to the embedding's gradient:
    ``embed_l1 * sign(E) / size``, 0 at 0 as autograd's."""
    e = views["embed"]
    grads["embed"].add_(torch.sign(e), alpha=embed_l1 / e[0].numel())


def _add_linf_gradient(grads: dict[str, torch.Tensor], views, lam: float, log_scale: torch.Tensor | None,
                       relative: bool) -> None:
    """The gradient of ``lam * ‖θ‖∞`` (per run, all parameters; Mohamadi et al. 2024, Eq. 2.2) added to the data
    gradient ``grads``. With ``log_scale`` the data gradient is exp(log_scale)·grads (an underflow-safe gradient
    source; scale-free optimizer only), and the exact sum is taken rescaled by exp(−log_scale): grads +
    lam·exp(−log_scale)·∂‖θ‖∞, the exponent capped at 600 so that it cannot overflow. ``relative``: weigh
    ``lam`` against ``grads`` as they are (log_scale taken as 0)."""
    reg = fastgrad.linf_subgradient(list(views.values()))
    if log_scale is None:
        coef = lam
    else:
        exponent = math.log(lam) - (torch.zeros_like(log_scale) if relative else log_scale)
        coef = torch.exp(torch.clamp(exponent, max=600.0))
    for (name, g), r in zip(grads.items(), reg):
        grads[name] = g + (coef if log_scale is None else coef.view((-1,) + (1,) * (g.dim() - 1))) * r


def _fast_gradients(grad_fn, model, data: TaskData, views, batch, train_w, n_rows: int, record) -> dict:
    """Gradients by the hand-written backward pass; records the evaluation when ``record`` is given."""
    if batch is not None:
        x = data.inputs[batch]
        out, cache = grad_fn.forward(views, x)
        weights = torch.full(batch.shape, 1.0 / batch.shape[1], dtype=train_w.dtype, device=train_w.device)
        dout = grad_fn.output_gradient(out, sample_targets(data, batch),
                                       sample_labels(data, batch), weights, data.loss)
        if record is not None:
            record(forward_all(model, views, data.inputs), views)
    else:
        # Rows [0, n_rows) carry loss weight (see _used_rows_first): a step that does not evaluate forwards
        # and backpropagates only those.
        x = data.inputs if record is not None else data.inputs[:n_rows]
        out, cache = grad_fn.forward(views, x)
        if record is not None:
            record(out, views)
        dout = grad_fn.output_gradient(out[:, :n_rows], None if data.targets is None else data.targets[..., :n_rows, :],
                                       data.labels[..., :n_rows], train_w[:, :n_rows], data.loss)
    return grad_fn.backward(views, x, cache, dout)


EVAL_CHUNK_ROWS = 1024  # rows per forward of an evaluation on the CPU (forward_all)


def forward_all(model: BatchedModel, views, inputs: torch.Tensor) -> torch.Tensor:
    """The outputs ``(R, N, ...)`` over all ``N`` samples of ``inputs`` (shared by the runs, samples first), for
    an evaluation (no gradient). On the CPU a large set is forwarded in chunks of :data:`EVAL_CHUNK_ROWS` rows:
    each sample's output depends on its own row alone, and a chunk's activations stay in cache and reuse their
    memory instead of faulting in fresh pages (Power et al.'s decoder, 2 runs on all 9312 pairs, one thread of an
    Intel Xeon: 746 ms at once, 549 ms in chunks of 1024, the same bits; chunks of 512 to 2048 did as well). On
    a GPU one forward is the fast one."""
    n = inputs.shape[0]
    if inputs.device.type != "cpu" or n <= 2 * EVAL_CHUNK_ROWS:
        return model.forward(views, inputs)
    return torch.cat([model.forward(views, inputs[i:i + EVAL_CHUNK_ROWS]) for i in range(0, n, EVAL_CHUNK_ROWS)],
                     dim=1)


def _autograd_gradients(model, data: TaskData, views, batch, train_w, record, dropout=None,
                        rows: "_RunRows | None" = None) -> dict:
    """Gradients by autograd, on leaves that alias the flat buffer (autograd then returns one gradient per
    parameter instead of building zero-filled (R, P) slice gradients of a flat leaf, which cost most of a
    step); records the evaluation when ``record`` is given. With ``dropout`` the training forward drops
    units and covers each run's own training rows (``rows``, full batch) or minibatch; the evaluation is then
    a separate forward without dropout."""
    leaves = {k: v.detach().requires_grad_() for k, v in views.items()}
    if dropout is not None:
        if batch is not None:
            out = model.forward(leaves, data.inputs[batch], dropout=dropout)
            objective = per_sample_loss(out, data, batch).mean(-1).sum()
        else:
            out = model.forward(leaves, rows.inputs, dropout=dropout)
            objective = (per_sample_loss(out, data, rows.index) * rows.weight).sum()
        if record is not None:
            with torch.no_grad():
                record(forward_all(model, leaves, data.inputs), leaves)
    elif batch is not None:
        out = model.forward(leaves, data.inputs[batch])
        objective = per_sample_loss(out, data, batch).mean(-1).sum()
        if record is not None:
            with torch.no_grad():
                record(forward_all(model, leaves, data.inputs), leaves)
    else:
        out = model.forward(leaves, data.inputs)
        objective = (per_sample_loss(out, data) * train_w).sum()
        if record is not None:
            record(out.detach(), leaves)
    grads = torch.autograd.grad(objective, list(leaves.values()), allow_unused=True)
    return {k: torch.zeros_like(v) if g is None else g for (k, v), g in zip(leaves.items(), grads)}


def _used_rows_first(data: TaskData, train_mask, val_mask, train_w):
    """Reorder samples so that rows carrying loss weight in some run come first; returns the reordered
    data, masks, weights, the number of such rows (the backward pass always stops at them) and the
    original index of each reordered row."""
    used = train_mask.any(0)
    order = torch.cat([torch.nonzero(used).squeeze(1), torch.nonzero(~used).squeeze(1)])
    data = replace(data, inputs=data.inputs[order], labels=data.labels[..., order],
                   targets=None if data.targets is None else data.targets[..., order, :])
    return data, train_mask[:, order], val_mask[:, order], train_w[:, order], int(used.sum()), order


class _RunRows:
    """Full batch, each run forwarding its own training rows (for gradients that ask for it,
    ``grad_fn.per_run_rows``): run r's training samples in ascending order, padded with zero-weight samples of
    its own to the largest training set, as inputs (R, K, ...), labels (R, K) and loss weights (R, K)."""

    def __init__(self, data: TaskData, train_mask: torch.Tensor, train_w: torch.Tensor):
        k_max = int(train_mask.sum(-1).max())
        # a stable sort of "not in training" puts each run's training rows first, in ascending order
        self.index = torch.sort((~train_mask).to(torch.int8), dim=1, stable=True).indices[:, :k_max]
        self.weight = train_w.gather(1, self.index)
        self._gather(data)

    def _gather(self, data: TaskData) -> None:
        self.inputs = data.inputs[self.index]
        self.labels = sample_labels(data, self.index)
        self.targets = sample_targets(data, self.index)
        self.loss = data.loss

    def select(self, keep: torch.Tensor, data: TaskData) -> None:
        """Keep the runs ``keep`` only; ``data``: the data of the kept runs."""
        self.index, self.weight = self.index[keep], self.weight[keep]
        self._gather(data)

    def gradients(self, grad_fn, views) -> dict:
        out, cache = grad_fn.forward(views, self.inputs)
        dout = grad_fn.output_gradient(out, self.targets, self.labels, self.weight, self.loss)
        return grad_fn.backward(views, self.inputs, cache, dout)


class _BackgroundEvaluations:
    """Evaluations on a thread of their own, in step order, each on a copy of the parameters of its step, while
    the block's thread trains on: on a machine where a worker would otherwise idle (one seed on two cores) the
    evaluation's forward over all samples leaves the training's critical path. The forward and the recorder are
    the ones the block would run itself, single-threaded, on the same values, so the records are the same bits;
    :meth:`wait` and :meth:`close` re-raise an evaluation's error in the block's thread."""

    def __init__(self, recorder: "_Recorder", params: FlatParams, evaluate):
        self.recorder, self.params, self.evaluate = recorder, params, evaluate
        self.pool = ThreadPoolExecutor(max_workers=1)  # one thread: the records stay in step order
        self.pending: list = []

    def submit(self, step: int, flat: torch.Tensor) -> None:
        copy = flat.detach().clone()
        self.pending.append(self.pool.submit(self._record, step, copy))

    def _record(self, step: int, flat: torch.Tensor) -> None:
        with torch.no_grad():  # grad mode is per thread
            views = self.params.views(flat)
            self.recorder(step, self.evaluate(views), views, flat)

    def wait(self) -> None:
        done, self.pending = self.pending, []
        for future in done:
            future.result()

    def close(self) -> None:
        try:
            self.wait()
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)


def evaluation_steps(cfg: TrainConfig, eval_steps=None) -> np.ndarray:
    """The steps :func:`train` evaluates at: every ``eval_every`` steps from 0 (or the given ``eval_steps``),
    and the last step."""
    due = (lambda s: s % cfg.eval_every == 0) if eval_steps is None else (lambda s: s in eval_steps)
    return np.asarray([s for s in range(cfg.steps) if due(s)] + [cfg.steps], dtype=np.int64)


def _stopping(until, recorder: "_Recorder") -> np.ndarray | None:
    """Which active runs ``until`` stops after this evaluation (bool (R_active,)), or None when none."""
    metrics = recorder.metrics_so_far()
    stop = np.asarray(until(np.asarray(recorder.steps, dtype=np.int64), metrics))
    if stop.shape != (recorder.n_runs,) or stop.dtype != bool:
        raise ValueError(f"until must return a bool array of shape ({recorder.n_runs},) (one per run of the block); "
                         f"got {stop.dtype} {stop.shape}.")
    if recorder.active is not None:
        stop = stop[recorder.active.cpu().numpy()]
    return stop if stop.any() else None


class _StateParts:
    """Everything of one block that the rest of its run depends on, to save in a checkpoint and restore from it
    (issue 32): parameters, optimizer state, the initial norms of ``fixed_norm`` runs, the minibatch samplers and
    dropout generators, and the records so far. Everything else of the block is rebuilt identically from the
    run's arguments."""

    def __init__(self, params: FlatParams, optimizer, norm_target, batches, dropout, recorder: "_Recorder"):
        self.params, self.optimizer, self.norm_target = params, optimizer, norm_target
        self.batches, self.dropout, self.recorder = batches, dropout, recorder
        self.extra_state = None  # with until: the stopped runs (see _train_block)

    def state(self) -> dict[str, np.ndarray]:
        out = {"params": self.params.flat.detach().cpu().numpy()}
        if self.extra_state is not None:
            out.update(self.extra_state())
        out.update({f"optimizer/{k}": v.detach().cpu().numpy() for k, v in self.optimizer.state().items()})
        if self.norm_target is not None:
            out["norm_target"] = self.norm_target.cpu().numpy()
        for part in (self.batches, self.dropout, self.recorder):
            if part is not None:
                out.update(part.state())
        return out

    @torch.no_grad()
    def load(self, state: Mapping[str, np.ndarray], device) -> int:
        """Restore :meth:`state` (in place, where other objects hold views); returns the step it was taken at."""
        flat = self.params.flat
        if tuple(state["params"].shape) != tuple(flat.shape) or state["params"].dtype != torch.empty(0, dtype=flat.dtype).numpy().dtype:
            raise ValueError(f"the checkpoint's parameters are {state['params'].dtype} {state['params'].shape}; this block "
                             f"trains {flat.dtype} {tuple(flat.shape)}: the checkpoint is of another run.")
        flat.copy_(torch.from_numpy(state["params"]))
        prefix = "optimizer/"
        self.optimizer.load_state({k[len(prefix):]: torch.from_numpy(v).to(device) for k, v in state.items()
                                   if k.startswith(prefix)})
        if self.norm_target is not None:
            self.norm_target.copy_(torch.from_numpy(state["norm_target"]))
        for part in (self.batches, self.dropout):
            if part is not None:
                part.load_state(state)
        self.recorder.load_state(state, device)
        return int(state["step"])


def _history_state(history: History) -> dict[str, np.ndarray]:
    """A finished block's history as checkpoint arrays (its run values are rebuilt from the run's arguments)."""
    out = {"history/steps": history.steps}
    for part in ("metrics", "extra", "final_params", "extra_steps"):
        out.update({f"history/{part}/{k}": v for k, v in getattr(history, part).items()})
    return out


def _history_from_state(state: Mapping[str, np.ndarray], run_values: dict) -> History:
    part = lambda name: {k[len(f"history/{name}/"):]: v for k, v in state.items() if k.startswith(f"history/{name}/")}
    return History(steps=state["history/steps"], metrics=part("metrics"), extra=part("extra"),
                   final_params=part("final_params"), run_values=run_values, extra_steps=part("extra_steps"))


def _train_block(model, data: TaskData, cfg: TrainConfig, values: dict[str, list], train_mask: torch.Tensor,
                 val_mask: torch.Tensor, callback, keep_final_params: bool, bar, fast_grad: bool,
                 mse_threshold: float | None = None, given: Mapping[str, torch.Tensor] | None = None,
                 eval_steps: frozenset[int] | None = None, until=None, fused_optimizer: bool | None = None,
                 checkpoint: Checkpointer | None = None, block_index: int = 0,
                 batch_schedule: torch.Tensor | None = None, background: bool = False) -> History:
    """Train one block of runs (all of :func:`train` but the blocking).

    Each step: pick the batch (all of each run's training set, or its minibatch), compute the gradients
    (hand-written or autograd; the evaluation rides on the same forward pass where it can), add the
    gradient terms, take the optimizer step, then the post-step hook (``fixed_norm``). A gradient source
    that returns its gradient up to a per-run factor (:class:`repro.models.fastgrad.QuadraticGradient`) gives the
    optimizer the true gradient unless the optimizer is scale-free. With ``until``, an evaluation step first
    evaluates, then lets the runs that ``until`` stops leave the block.

    With ``checkpoint`` (a :class:`repro.training.checkpoint.Checkpointer`; block ``block_index`` of its run) the
    block starts from its saved state, if any, and saves its state before the steps the checkpointer says are due.

    With ``background`` an evaluation that is a forward of its own runs on a second thread, on a copy of the
    parameters of its step, while the block trains on (:class:`_BackgroundEvaluations`).
    """
    n_runs = len(values["init_seed"])
    values_all = values  # the history reports every run's values, also of runs that stop early
    device, dtype = cfg.torch_device, cfg.torch_dtype
    params = FlatParams(model, values, dtype, device, given)
    nudge = init_nudge()
    if nudge:  # REPRO_NUDGE: another machine's rounding, simulated on this one (repro.core.kernels)
        with torch.no_grad():
            params.flat.mul_(1 + nudge)
    optimizer = _OPTIMIZER_CLASSES[cfg.optimizer](params, cfg, values, fused=fused_optimizer)
    n_train = train_mask.sum(-1)
    train_w = train_mask.to(dtype) / n_train[:, None].to(dtype)  # per-run mean over its own training set

    minibatch = cfg.batch_size is not None and cfg.batch_size < int(n_train.min())
    if batch_schedule is not None:
        batches = _ScheduledBatches(batch_schedule, device)
    else:
        batches = _Minibatches(train_mask, cfg.batch_size, values["init_seed"], device) if minibatch else None
    dropout = Dropout(values["dropout"], values["init_seed"], device, dtype, data.n_samples) if any(values["dropout"]) else None
    # the gradient source: autograd, or a hand-written one (QuadraticGradient returns a scaled gradient and
    # records its own forward; RelationGradient forwards each run's own rows: _RunRows)
    quadratic = fastgrad.QuadraticGradient(model, data.inputs) if fast_grad and isinstance(model, QuadraticNet) else None
    grad_fn = fastgrad.gradient(model, data.loss) if fast_grad and quadratic is None else None
    run_rows = _RunRows(data, train_mask, train_w) if grad_fn is not None and grad_fn.per_run_rows and not minibatch else None
    # autograd with dropout, full batch: each run forwards its own training rows (not the union of the block's
    # training sets, which costs a run up to 1 / train_fraction times more), and draws its masks for them
    drop_rows = _RunRows(data, train_mask, train_w) if dropout is not None and grad_fn is None and not minibatch else None
    if drop_rows is not None:
        dropout.rows = drop_rows.index
    n_rows = data.n_samples
    if fast_grad and quadratic is None and not minibatch and run_rows is None:
        data, train_mask, val_mask, train_w, n_rows, order = _used_rows_first(data, train_mask, val_mask, train_w)

    def evaluate(views) -> torch.Tensor:
        """Outputs over all samples, for an evaluation separate from the gradient's forward pass."""
        if run_rows is not None:  # the same forward as the gradient's (for the hand-written one: its own)
            return grad_fn.forward(views, data.inputs)[0]
        return forward_all(model, views, data.inputs)

    flat = params.flat
    recorder = _Recorder(data, flat, train_mask, val_mask, callback, mse_threshold)
    fixed = torch.as_tensor([bool(v) for v in values["fixed_norm"]], device=device)
    norm_target = flat.norm(dim=1).clone() if bool(fixed.any()) else None  # the initial norms
    final = flat.detach().clone() if until is not None and keep_final_params else None  # rows of stopped runs

    def leave(stop: np.ndarray) -> None:
        """The runs ``stop`` (bool over the active runs) leave the block: every per-run state keeps the others."""
        nonlocal values, flat, train_w, train_mask, val_mask, data, norm_target, fixed, n_runs
        keep = torch.as_tensor(~stop, device=device)
        if final is not None:
            final[recorder.active if recorder.active is not None else slice(None)] = flat
        values = {k: [v for v, kept in zip(vals, keep.tolist()) if kept] for k, vals in values.items()}
        flat = params.flat = flat[keep].contiguous()
        optimizer.select(keep, values)
        train_w, train_mask, val_mask = train_w[keep], train_mask[keep], val_mask[keep]
        data = data.select_runs(keep)
        if run_rows is not None:
            run_rows.select(keep, data)
        if norm_target is not None:
            norm_target, fixed = norm_target[keep], fixed[keep]
        recorder.select(keep, flat, data, train_mask, val_mask)
        n_runs = int(keep.sum())
        parts.norm_target = norm_target  # what a later checkpoint saves: the runs still training

    def gradients(views, batch, record) -> tuple[dict, torch.Tensor | None]:
        """The data gradient from the block's source, and its per-run log scale (None: unscaled)."""
        if quadratic is not None:
            with torch.no_grad():
                grads, log_scale = quadratic(views, data.inputs, sample_labels(data), train_mask, record)
            if getattr(optimizer, "scale_free", False):
                return grads, log_scale
            scale = torch.exp(log_scale)
            return {k: scale.view((-1,) + (1,) * (g.dim() - 1)) * g for k, g in grads.items()}, None
        if run_rows is not None:
            with torch.no_grad():
                return run_rows.gradients(grad_fn, views), None
        if grad_fn is not None:
            with torch.no_grad():
                return _fast_gradients(grad_fn, model, data, views, batch, train_w, n_rows, record), None
        return _autograd_gradients(model, data, views, batch, train_w, record, dropout, drop_rows), None

    # an evaluation rides on the gradient's forward pass, except where runs may stop (until) or the
    # gradient forwards each run's own rows (run_rows): there it is a forward of its own, first
    separate_evaluation = until is not None or run_rows is not None
    # the evaluations that are a forward of their own (not riding on the training forward) may run in the background
    own_forward = separate_evaluation or (grad_fn is None and quadratic is None and (dropout is not None or minibatch
                                                                                     or batch_schedule is not None))
    later = _BackgroundEvaluations(recorder, params, evaluate) if background and own_forward and until is None else None
    update_every = max(1, cfg.steps // 200)
    parts = _StateParts(params, optimizer, norm_target, batches, dropout, recorder)
    if until is not None:  # which runs have stopped, and (keep_final_params) the parameters they stopped at
        def until_state() -> dict[str, np.ndarray]:
            active = recorder.active.cpu().numpy() if recorder.active is not None else np.arange(recorder.n_runs)
            out = {"until/active": active.astype(np.int64)}
            if final is not None:
                out["until/final"] = final.detach().cpu().numpy()
            return out
        parts.extra_state = until_state
    restored = checkpoint.restored(block_index) if checkpoint is not None else None
    if restored is not None and until is not None:
        # the runs that had stopped leave first, so that every per-run state has the checkpoint's rows
        if "until/active" not in restored:
            raise ValueError("the checkpoint was saved without until; resume it without until.")
        stopped = ~np.isin(np.arange(n_runs), restored["until/active"])
        if stopped.any():
            leave(stopped)
        if final is not None:
            final.copy_(torch.from_numpy(restored["until/final"]))
    elif restored is not None and "until/active" in restored:
        raise ValueError("the checkpoint was saved with until (some runs may have stopped); resume it with until.")
    start = 0 if restored is None else parts.load(restored, device)
    if restored is not None:
        checkpoint.release(block_index)
    for step in range(start, cfg.steps):
        if checkpoint is not None and checkpoint.due(block_index, step):
            if later is not None:
                later.wait()  # the state saved holds every evaluation before this step
            checkpoint.save(block_index, step, parts.state())
        due = step % cfg.eval_every == 0 if eval_steps is None else step in eval_steps  # (evaluation_steps)
        record = (lambda out, views, step=step: recorder(step, out, views)) if due else None
        if record is not None and later is not None:
            later.submit(step, flat)
            record = None
        if record is not None and separate_evaluation:
            views = params.views(flat)
            with torch.no_grad():
                record(evaluate(views), views)
            record = None
            stop = _stopping(until, recorder) if until is not None else None
            if stop is not None:
                leave(stop)
                if n_runs == 0:
                    break
        batch = batches.indices(step) if batches is not None else None
        views = params.views(flat)
        grads, log_scale = gradients(views, batch, record)
        # gradient terms, not in the logged losses
        if cfg.embed_l1:
            _add_embed_l1_gradient(grads, views, cfg.embed_l1)
        if cfg.linf_reg:
            with torch.no_grad():
                _add_linf_gradient(grads, views, cfg.linf_reg, log_scale, cfg.linf_relative)
        optimizer.step(flat, [grads[name].reshape(n_runs, -1) for name in params.offsets], lr_multiplier(cfg, step))
        if norm_target is not None:  # the post-step hook: fixed_norm
            project_to_norm(flat, norm_target, fixed)
        if bar is not None and (step + 1) % update_every == 0:
            bar.update(update_every * n_runs)
    if later is not None:
        later.close()
    if n_runs:
        views = params.views(flat)  # the final parameters are evaluated too
        with torch.no_grad():
            recorder(cfg.steps, evaluate(views), views)
    else:  # every run stopped: the rest of the schedule is nan, as for any stopped run
        recorder.pad(evaluation_steps(cfg, eval_steps))

    if final is not None:
        final[recorder.active if recorder.active is not None else slice(None)] = flat
        final = {name: v.detach().cpu().double().numpy() for name, v in params.views(final).items()}
    elif keep_final_params:
        final = {k: v.detach().cpu().double().numpy() for k, v in params.views().items()}
    else:
        final = {}
    return recorder.history(final, values_all)

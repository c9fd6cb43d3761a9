"""What a step adds around the optimizer: gradient terms (regularizers, not in the logged losses), post-step hooks
and the learning-rate schedule. A regularizer (:class:`Regularizer`) has ``add(grads, views, log_scale)``; a
post-step hook is called with the ``(R, P)`` parameters after each update; both have ``select(keep)`` for runs that
stop early, and a hook with state has ``state()`` / ``load_state()`` (checkpoint arrays).

A paper's own term is a :class:`Regularizer` subclass passed to :func:`repro.training.trainer.train` as a
component (:class:`LinfPenalty`: Mohamadi et al. 2024); its own schedule likewise (:class:`StepDecay`: the
Omnigrok landscape notebook)."""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import torch

from repro.core.validation import check_choice, check_int, check_real
from repro.models import fastgrad
from repro.training.params import rescale_rows

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



class Regularizer:
    """A gradient term: ``add(grads, views, log_scale)`` adds it to the data gradient ``grads`` (name -> ``(R, *shape)``)
    of the parameters ``views``; ``log_scale`` is None, or the log of the factor by which an underflow-safe gradient
    source scaled ``grads`` down. ``active`` False: the term is zero and is not added."""

    active = True

    def add(self, grads, views, log_scale) -> None:
        raise NotImplementedError

    def select(self, keep: torch.Tensor) -> None:
        """Narrow any per-run state to the runs ``keep`` (early stopping); a stateless term has none."""


class EmbedL1(Regularizer):
    """``embed_l1 * mean|E|`` on the embedding table ``embed`` (Liu et al. 2022's S3 notebook)."""

    def __init__(self, weight: float):
        self.weight = weight

    def add(self, grads, views, log_scale) -> None:
        _add_embed_l1_gradient(grads, views, self.weight)


@dataclass(frozen=True)
class LinfPenalty(Regularizer):
    """Mohamadi et al. 2024's ``lam * ‖θ‖∞`` on each run's whole parameter vector (Eq. 2.2's regularizer; App. A:
    λ = 1e-4 for regression, 1e-20 for classification), by the subgradient ``jax.grad`` takes of max|θ|
    (:func:`repro.models.fastgrad.linf_subgradient`); not in the logged losses. ``relative``: weigh ``lam`` against
    the data gradient as the underflow-safe cross-entropy gradient (:class:`repro.models.fastgrad.QuadraticGradient`:
    largest wrong-class logit weight 1) returns it, not against the true gradient (the default recipe of
    :mod:`repro.experiments.mohamadi2024_why_grok`, see ``ClassificationConfig.exact_regularizer``); normalized GD
    only, which ignores the data gradient's scale. ``lam`` 0: no term."""

    lam: float
    relative: bool = False

    def __post_init__(self):
        check_real("lam", self.lam, nonnegative=True)
        check_choice("relative", self.relative, (True, False))

    @property
    def active(self) -> bool:
        return self.lam > 0

    @torch.no_grad()
    def add(self, grads, views, log_scale) -> None:
        _add_linf_gradient(grads, views, self.lam, log_scale, self.relative)


@dataclass(frozen=True)
class StepDecay:
    """Step decay, the same for every run of a call: each run's learning rate is multiplied by ``factor`` at every
    update index in ``steps`` (updates count from 0), a MultiStepLR with those milestones, on top of the warm-up;
    decoupled weight decay scales with it. The official Omnigrok landscape notebook
    (mod-addition/landscape/addition-landscape.ipynb) multiplies Adam's lr by 0.2 when (epoch + 1) % 5000 == 0,
    before that epoch's update: ``StepDecay((4999, 9999, 14999), 0.2)``. ``steps`` (): no decay."""

    steps: tuple = ()
    factor: float = 1.0

    def __post_init__(self):
        if not isinstance(self.steps, tuple):
            raise ValueError(f"steps={self.steps!r} is not allowed: it must be a tuple of update indices.")
        for k in self.steps:
            check_int("steps", k, minimum=0)
        if list(self.steps) != sorted(set(self.steps)):
            raise ValueError(f"steps={self.steps!r} is not allowed: the update indices must be strictly increasing.")
        check_real("factor", self.factor, positive=True)


class FixedNorm:
    """Omnigrok's constrained training (Liu, Michaud, Tegmark 2023, §2): after every update, the runs ``fixed``
    (bool (R,)) are rescaled to their initial L2 norms (taken from ``flat`` now)."""

    def __init__(self, flat: torch.Tensor, fixed: torch.Tensor):
        self.target, self.fixed = flat.norm(dim=1).clone(), fixed
        if bool((self.target[fixed] == 0).any()):
            raise ValueError("fixed_norm: a run has all-zero initial parameters; its direction is undefined.")
        # a row that reaches zero cannot be rescaled; noted on the device (a check every step would wait for the
        # host) and raised by check() when the block ends
        self.zero = torch.zeros_like(fixed)

    def __call__(self, flat: torch.Tensor) -> None:
        norm = flat.norm(dim=1)
        self.zero |= (norm == 0) & self.fixed
        rescale_rows(flat, self.target, norm, self.fixed)

    def check(self) -> None:
        """Raise if a held run's parameters reached zero at some update (its rows are nan since)."""
        if bool(self.zero.any()):
            raise ValueError("fixed_norm: a run's parameters reached all zeros during training; its direction was "
                             "undefined, and it could not be rescaled to its norm.")

    def select(self, keep: torch.Tensor) -> None:
        self.target, self.fixed, self.zero = self.target[keep], self.fixed[keep], self.zero[keep]

    def state(self) -> dict[str, np.ndarray]:
        return {"norm_target": self.target.cpu().numpy()}

    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        self.target.copy_(torch.from_numpy(state["norm_target"]))


class LRSchedule:
    """The multiplier on every run's learning rate at update ``step`` (counting from 0): a linear warm-up over
    ``warmup_steps`` updates (update 0 moves nothing but Adam's moments: openai/grok's LambdaLR), times ``factor``
    to the number of ``decay_steps`` at or before ``step`` (a MultiStepLR). Decoupled weight decay scales with it."""

    def __init__(self, warmup_steps: int = 0, decay_steps: Sequence[int] = (), factor: float = 1.0):
        self.warmup_steps, self.decay_steps, self.factor = warmup_steps, tuple(decay_steps), factor

    def __call__(self, step: int) -> float:
        warm = 1.0 if step >= self.warmup_steps else step / self.warmup_steps
        decays = bisect.bisect_right(self.decay_steps, step)
        return warm if decays == 0 else warm * self.factor ** decays


def lr_multiplier(cfg, step: int, decay: StepDecay | None = None) -> float:
    """:class:`LRSchedule` of a :class:`repro.training.config.TrainConfig` (and its ``decay``) at update ``step``."""
    decay = StepDecay() if decay is None else decay
    return LRSchedule(cfg.warmup_steps, decay.steps, decay.factor)(step)

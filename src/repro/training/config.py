"""What every training run has: :class:`TrainConfig` (optimizer, rates, decays, steps, dtype, device) and the
per-run overrides of :data:`PER_RUN_FIELDS`."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Mapping, Sequence

import numpy as np
import torch

from repro.core.devices import DTYPES, check_device, resolve_device, resolve_dtype
from repro.core.portable import ConfigRepr
from repro.core.validation import check_choice, check_int, check_open_unit, check_real

PER_RUN_FIELDS = ("lr_repr", "lr_dec", "wd_repr", "wd_dec", "init_scale", "repr_init_scale", "init_seed", "fixed_norm",
                  "dropout")
OPTIMIZERS = ("adamw", "sgd", "gd", "normalized_gd")


@dataclass(frozen=True, repr=False)
class TrainConfig(ConfigRepr):
    """How to train. Defaults are neutral; each chapter's config sets its paper's values. What one paper alone
    needs (a step decay, the ℓ∞ penalty, early stopping, ...) is a component of
    :func:`repro.training.trainer.train`, not a field here."""

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
    eval_every: int = 1
    dtype: str = "float32"
    device: str = "auto"  # "auto" = cuda when present, else cpu

    def __post_init__(self):
        check_int("steps", self.steps, minimum=1)
        check_choice("optimizer", self.optimizer, OPTIMIZERS)
        for name in ("lr_repr", "lr_dec"):
            check_real(name, getattr(self, name), positive=True)
        for name in ("wd_repr", "wd_dec", "eps", "momentum", "embed_l1"):
            check_real(name, getattr(self, name), nonnegative=True)
        check_open_unit("beta1", self.beta1)
        check_open_unit("beta2", self.beta2)
        check_real("init_scale", self.init_scale, positive=True)
        check_real("repr_init_scale", self.repr_init_scale, positive=True)
        check_int("init_seed", self.init_seed, minimum=0)
        check_int("warmup_steps", self.warmup_steps, minimum=0)
        if self.batch_size is not None:
            check_int("batch_size", self.batch_size, minimum=1)
        check_int("eval_every", self.eval_every, minimum=1)
        check_real("dropout", self.dropout, nonnegative=True)
        if self.dropout >= 1:
            raise ValueError(f"dropout={self.dropout!r} is not allowed: it must be a rate in [0, 1).")
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



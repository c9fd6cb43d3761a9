"""Binary relations as data, and the GenEFT encoder–decoder, batched over a leading run axis.

Baek, Liu & Tegmark 2024 (GenEFT, arXiv 2402.05916 v1), §2 and Table 1: a relation R on n elements is
the n×n 0/1 matrix R_ij = R(x_i, x_j); every one of the n² ordered pairs (diagonal included) is a
sample, and a random subset of them is the training set. The model embeds each element in R^d
(the "repons"), combines the two embeddings of a pair (concatenation, difference or element-wise
squared difference), decodes them with a tanh MLP and a sigmoid, and trains with binary
cross-entropy. Used by the chapters ``book/baek2024_geneft_information``
and ``book/baek2024_geneft_dynamics``.

Everything here is batched: parameters carry a leading run axis R, and each run has its own
relation, training mask, learning rates, weight decay and initialization seed, so a phase diagram
over (encoder lr × decoder lr) trains as one tensor program.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch

from .crossings import first_step
from .kernels import single_thread
from .portable import ConfigRepr
from .validation import check_choice, check_fraction, check_int, check_real

RELATIONS = ("mod3", "mod5", "greater_than", "bipartite")
MODES = ("concat", "difference", "squared_difference")


def bipartite_side(n: int) -> np.ndarray:
    """Membership in S for the complete bipartite relation: S = the even elements.

    Which S the paper uses is unstated (Table 1 only names it); our choice. |S| = n/2 (15 of 30) is the
    only size consistent with its guessing probability p* = 1/2 (§3), and the even numbers are one such S.
    """
    return np.arange(n) % 2 == 0


def relation_matrix(name: str, n: int = 30) -> np.ndarray:
    """The n×n 0/1 matrix R_ij = R(i, j) of a Table-1 relation on the elements 0, …, n−1."""
    check_choice("relation", name, RELATIONS)
    check_int("n", n, minimum=2)
    x = np.arange(n)
    if name == "mod3":
        m = x[:, None] % 3 == x[None, :] % 3
    elif name == "mod5":
        m = x[:, None] % 5 == x[None, :] % 5
    elif name == "greater_than":  # Table 1 defines it literally as x < y
        m = x[:, None] < x[None, :]
    else:
        s = bipartite_side(n)
        m = s[:, None] != s[None, :]
    return m.astype(np.int8)


def train_mask(n_pairs: int, fraction: float, data_seed: int) -> np.ndarray:
    """A uniformly random training subset of round(fraction·n_pairs) of the n_pairs cells (bool mask)."""
    check_real("fraction", fraction)
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction={fraction!r} is not allowed: fraction must be in [0, 1].")
    check_int("data_seed", data_seed, minimum=0)
    m = int(round(fraction * n_pairs))
    order = np.random.default_rng(data_seed).permutation(n_pairs)
    mask = np.zeros(n_pairs, dtype=bool)
    mask[order[:m]] = True
    return mask


@dataclass(frozen=True, repr=False)
class RelationModelConfig(ConfigRepr):
    """The GenEFT encoder–decoder (paper §2 and §3 "three modes"; defaults from Table 3)."""

    n: int = 30  # paper §2: n = 30 elements
    d_embed: int = 2  # Table 3: embedding space dimension 2
    hidden_layers: int = 3  # Table 3 "decoder depth 3", read as n_h = 3 hidden layers (Fig. 3's n_h; our reading)
    width: int = 50  # Table 3: decoder width 50
    mode: str = "concat"  # §3: mode 1 (concatenation) is the default

    def __post_init__(self):
        check_int("n", self.n, minimum=2)
        check_int("d_embed", self.d_embed, minimum=1)
        check_int("hidden_layers", self.hidden_layers, minimum=0)
        check_int("width", self.width, minimum=1)
        check_choice("mode", self.mode, MODES)

    @property
    def decoder_input(self) -> int:
        return 2 * self.d_embed if self.mode == "concat" else self.d_embed

    def layer_shapes(self) -> list[tuple[int, int]]:
        dims = [self.decoder_input] + [self.width] * self.hidden_layers + [1]
        return list(zip(dims[:-1], dims[1:]))

    def label(self) -> str:
        return f"n_h={self.hidden_layers}, w={self.width}, {self.mode}, d={self.d_embed}"


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


@dataclass(frozen=True, repr=False)
class RelationTrainConfig(ConfigRepr):
    """Optimization settings shared by all runs of one batched program (paper Table 3; the optimizer, loss and
    batch are unstated in the paper: our choice)."""

    steps: int = 100_000  # Table 4: phases are judged within 10^5 steps
    eval_every: int = 100
    beta1: float = 0.9  # Adam defaults (the optimizer is unstated in the paper; our choice)
    beta2: float = 0.999
    eps: float = 1e-8
    dtype: str = "float32"

    def __post_init__(self):
        check_int("steps", self.steps, minimum=1)
        check_int("eval_every", self.eval_every, minimum=1)
        check_choice("dtype", self.dtype, ("float32", "float64"))
        for name in ("beta1", "beta2"):
            if not 0 <= getattr(self, name) < 1:
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: {name} must be in [0, 1).")
        check_real("eps", self.eps, positive=True)


@dataclass
class RelationHistory:
    steps: np.ndarray  # (T,) evaluation steps
    train_acc: np.ndarray  # (R, T)
    test_acc: np.ndarray  # (R, T)
    all_acc: np.ndarray  # (R, T): accuracy over all n² pairs (paper Fig. 3)
    train_loss: np.ndarray  # (R, T)
    final_params: list[torch.Tensor] | None = None

    def first_step(self, key: str, threshold: float) -> np.ndarray:
        """Per run, the first evaluation step at which ``key`` > threshold (−1: never)."""
        return first_step(self.steps, getattr(self, key), threshold, strict=True)


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


def train_relations(*args, **kwargs) -> "RelationHistory":
    """Train R networks at once (see :func:`_train_relations`), on one torch thread."""
    with single_thread():
        return _train_relations(*args, **kwargs)


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

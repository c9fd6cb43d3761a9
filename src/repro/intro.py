"""The opening chapter, "What is grokking?": the phenomenon of Power et al. (2022) on modular addition.

Config defaults are Power et al.'s setting (arXiv 2201.02177, §3 and App. A.1: a 2-layer decoder-only
transformer, width 128, 4 heads, AdamW lr 1e-3, weight decay 1, betas (0.9, 0.98), batch 512, p = 97,
half the table for training, 10^5 steps). ``for_scale()`` shrinks it for a laptop CPU: an
embeddings + MLP model (the sum of the two token embeddings into a one-hidden-layer ReLU MLP, the
toy architecture of Liu et al. 2022) on the unordered pairs of p = 31, full batch, which groks in a few
thousand steps.
Used by ``book/intro_grokking.ipynb``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import matplotlib.pyplot as plt
import numpy as np

from .portable import ConfigRepr
from .metrics import circle_order, grokking_delay, pca
from .models import EmbedMLPConfig, TransformerConfig
from .plotting import plot_training_curves
from .scale import by_scale
from .tasks import BinaryOpTask, Split, build_task_data
from .train import History, TrainConfig, train
from .validation import check_choice, check_fraction, check_int, check_real


@dataclass(frozen=True, repr=False)
class IntroConfig(ConfigRepr):
    p: int = 97  # Power et al. Fig. 1: modular arithmetic mod 97
    train_fraction: float = 0.5  # Power et al. Fig. 1 uses 50 % of the table
    # Power et al. train on ordered pairs. The CPU model sums the two embeddings, so it is symmetric by
    # construction: with ordered pairs, the mirror (b, a) of every training pair would be answered for
    # free in validation (we measured ~46 % validation accuracy the moment training fits). It trains on
    # unordered pairs instead, so validation measures generalization only.
    ordered_pairs: bool = True
    data_seed: int = 0
    init_seed: int = 0
    model: str = "transformer"  # Power et al.: decoder-only transformer; "embed_mlp" for the CPU scale
    d_model: int = 128  # Power et al. App. A.1: width 128 (embedding width for embed_mlp)
    n_layers: int = 2  # Power et al. App. A.1
    n_heads: int = 4  # Power et al. App. A.1
    d_mlp: int = 512  # 4 x width, the standard transformer ratio (hidden width for embed_mlp)
    lr: float = 1e-3  # Power et al. App. A.1
    weight_decay: float = 1.0  # Power et al. App. A.1 (AdamW, applied to all weights)
    beta2: float = 0.98  # Power et al. App. A.1: betas (0.9, 0.98)
    batch_size: int | None = 512  # Power et al. App. A.1; None = full batch
    steps: int = 100_000  # Power et al.: optimization budget 10^5 steps
    eval_every: int = 100
    threshold: float = 0.99  # "fits" / "generalizes" = 99 % accuracy (issue spec of this chapter)
    dtype: str = "float32"

    def __post_init__(self):
        check_choice("model", self.model, ("transformer", "embed_mlp"))
        BinaryOpTask("modular_addition", self.p)  # validates p (prime)
        check_fraction("train_fraction", self.train_fraction)
        for name in ("d_model", "n_layers", "n_heads", "d_mlp", "steps", "eval_every"):
            check_int(name, getattr(self, name), minimum=1)
        check_real("lr", self.lr, positive=True)
        check_real("weight_decay", self.weight_decay, nonnegative=True)
        check_fraction("threshold", self.threshold)

    @classmethod
    def for_scale(cls) -> "IntroConfig":
        """Paper scale: the defaults. Book scale: ~1 min on 2 CPU cores. Smoke: seconds."""
        book = cls(p=31, train_fraction=0.7, ordered_pairs=False, model="embed_mlp", d_model=32, d_mlp=128, lr=3e-3,
                   batch_size=None, steps=5000, eval_every=10)
        return by_scale(book=book, paper=cls(), smoke=replace(book, steps=300, eval_every=10))

    def task_data(self):
        return build_task_data(BinaryOpTask("modular_addition", self.p, ordered=self.ordered_pairs),
                               Split(train_fraction=self.train_fraction, data_seed=self.data_seed))

    def model_config(self):
        if self.model == "embed_mlp":
            return EmbedMLPConfig(n_symbols=self.p, d_embed=self.d_model, hidden=(self.d_mlp,), d_out=self.p,
                                  activation="relu", combine="sum", embed_init="normal")
        return TransformerConfig(d_vocab=self.p + 1, n_ctx=3, d_model=self.d_model, n_heads=self.n_heads,
                                 d_head=self.d_model // self.n_heads, d_mlp=self.d_mlp, n_layers=self.n_layers,
                                 d_vocab_out=self.p, act_fn="relu", normalization_type="LN")

    def train_config(self):
        return TrainConfig(steps=self.steps, optimizer="adamw", lr_repr=self.lr, lr_dec=self.lr,
                           wd_repr=self.weight_decay, wd_dec=self.weight_decay, beta2=self.beta2,
                           batch_size=self.batch_size, eval_every=self.eval_every, init_seed=self.init_seed,
                           dtype=self.dtype)


@dataclass
class IntroResult:
    config: IntroConfig
    history: History
    embeddings: np.ndarray  # (T, p, d): token embeddings at every evaluation step
    train_step: int  # first step with train accuracy >= threshold (-1: never)
    val_step: int

    @property
    def delay(self) -> float:
        return grokking_delay(self.train_step, self.val_step)

    def embeddings_at(self, step: int) -> np.ndarray:
        k = int(np.searchsorted(self.history.steps, step))
        return self.embeddings[min(k, len(self.embeddings) - 1)]

    def circle(self, step: int) -> tuple[int, float]:
        """(k, fit) of the ordered-circle test on the first two principal components at ``step``."""
        proj, _ = pca(self.embeddings_at(step))
        return circle_order(proj[:, :2], self.config.p)


def run_intro(cfg: IntroConfig, progress: bool | None = None) -> IntroResult:
    """Train one network on modular addition and record its token embeddings along the way."""
    data = cfg.task_data()
    if cfg.model == "transformer":  # inputs "a b =": the '=' token is index p
        import torch

        data.inputs = torch.cat([data.inputs, torch.full((data.n_samples, 1), cfg.p)], dim=1)
    embed_name = "embed" if cfg.model == "embed_mlp" else "W_E"

    def record_embeddings(step, params):
        return {"embeddings": params[embed_name][:, : cfg.p]}

    history = train(cfg.model_config(), data, cfg.train_config(), callback=record_embeddings, progress=progress,
                    desc="grokking")
    train_step = int(history.first_step("train_acc", cfg.threshold)[0])
    val_step = int(history.first_step("val_acc", cfg.threshold)[0])
    return IntroResult(cfg, history, history.extra["embeddings"][0], train_step, val_step)


def plot_intro(result: IntroResult):
    """Left: accuracy vs step (log axis). Right: token embeddings on their first two principal components
    at initialization and at the end of training, each point labelled by its token."""
    h, cfg = result.history, result.config
    fig = plt.figure(figsize=(11.5, 3.8))
    grid = fig.add_gridspec(1, 3, width_ratios=[1.5, 1, 1])
    ax = fig.add_subplot(grid[0])
    pct = f"{100 * cfg.threshold:g} %"
    plot_training_curves(h.steps, {"train": h["train_acc"][0], "validation": h["val_acc"][0]}, ax=ax,
                         markers={f"train {pct}": result.train_step, f"val {pct}": result.val_step},
                         title=f"(a + b) mod {cfg.p}: {100 * cfg.train_fraction:g} % of pairs in training")
    for k, (step, title) in enumerate([(0, "at initialization"), (int(h.steps[-1]), f"after {int(h.steps[-1])} steps")]):
        ax2 = fig.add_subplot(grid[k + 1])
        proj, ratios = pca(result.embeddings_at(step))
        ax2.scatter(proj[:, 0], proj[:, 1], c=np.arange(cfg.p), cmap="twilight", s=30)
        for token in range(cfg.p):
            ax2.annotate(str(token), proj[token, :2], fontsize=7, ha="center", va="bottom")
        ax2.set_title(f"embeddings {title}")
        ax2.set_xlabel(f"PC1 ({100 * ratios[0]:.0f} % of variance)")
        ax2.set_ylabel(f"PC2 ({100 * ratios[1]:.0f} % of variance)")
        ax2.set_aspect("equal", adjustable="datalim")
    fig.tight_layout()
    return fig

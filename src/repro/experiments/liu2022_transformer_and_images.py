"""Beyond the toy model: Liu et al. 2022 Fig. 7 (transformer on modular addition) and Fig. 8 (images).

* :class:`TransformerGrokConfig` / :func:`run_transformer` — the official transformer
  (:class:`repro.models.networks.EncoderTransformer`: pre-LayerNorm encoder layers, no mask, no positions, dropout,
  concatenated readout) on (a + b) mod p trained with separate optimizer groups for the embeddings (lr 1e-3,
  no decay) and the rest ("decoder": lr 2e-4, weight decay 1), as in the Fig. 1 / Fig. 7 runs (official
  ejmichaud/grokking-squared, prototype branch: scripts/pizza_plot.py, phasegrok/). It records the token
  embeddings along training and reports the PCA effective dimension e^S (§4.2, Fig. 7) at every logged step.
  Several seeds train together (leading run axis; each run has its own split and init).
  :func:`run_dropout_sweep` is Fig. 7 (centre): time to generalize against the dropout rate, every rate and
  seed in one batched program. The paper-scale config also carries the Fig. 7 (right) phase-diagram grid
  (decoder lr x decoder wd), run by :func:`run_transformer_phase_diagram`; :func:`projected_cpu_hours`
  prices each panel at the paper's settings from a measured step.
* :class:`ImageGrokConfig` / :func:`run_image_phase_diagram` — an MLP on 1,000 images with every
  parameter's initialization multiplied by alpha = 8, MSE on one-hot targets (App. J; the values of the
  KindXiaoming/Omnigrok notebook mnist/grokking/mnist-grokking.ipynb: the code of the later Omnigrok paper, since
  this paper's repository, grokking-squared, has no image experiment).
  The grid is last-layer ("decoder") learning rate x weight decay of the whole model; the grokking
  curve of Fig. 8(a) is the cell at the paper's lr 1e-3. The book default is scikit-learn's 8x8 digits,
  a **substitute dataset** (our choice: MNIST cannot be downloaded here); the paper scale reads MNIST IDX
  files from ``REPRO_MNIST_DIR``.

Used by ``book/liu2022_transformer_and_images.ipynb``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace

import numpy as np
import torch

from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_fraction, check_int, check_open_unit, check_real
from repro.data.datasets import image_task_data
from repro.data.tasks import BinaryOpTask, Split, TaskData, build_task_data
from repro.metrics.phases import PhaseExample, PhaseRule, classify_history, example_runs
from repro.metrics.representation import circle_order, explained_variance_entropy, pca, snapshot_at
from repro.models.networks import EncoderTransformerConfig, MLPConfig
from repro.training.store import (ResultsStore, add_checkpoint_option, checkpoint_every_s, history_from_arrays,
                                  history_to_arrays, store_parser)
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.sweep import expand_grid, split_masks
from repro.training.trainer import History, Performance, Record, TrainConfig, train


def _check_values(name: str, values, *, positive: bool):
    if not isinstance(values, tuple) or len(values) == 0:
        raise ValueError(f"{name}={values!r} is not allowed: it must be a non-empty tuple of numbers.")
    for v in values:
        check_real(name, v, positive=positive, nonnegative=not positive)


# --------------------------------------------------------------------------------------------------
# Fig. 7: transformer on modular addition


@dataclass(frozen=True, repr=False)
class TransformerGrokConfig(ConfigRepr):
    p: int = 59  # official pizza_plot.py run: p = m = 59 for Figs 1 and 7 (§4.2 says 53)
    train_fraction: float = 0.8  # official pizza_plot.py: split_ratio 0.8 of all p^2 ordered pairs
    d_model: int = 256  # 256-d embeddings (§4.2; latent_dim 256)
    n_heads: int = 1  # nn.TransformerEncoderLayer(nhead=1) (official phasegrok/models.py)
    dropout: float = 0.05  # dropout 0.05 (official pizza_plot.py), in every nn.TransformerEncoderLayer
    d_mlp: int = 128  # decoder_width (FFN dim) 128 (official pizza_plot.py)
    # decoder_depth default 2 (official phasegrok/config.py from 2022-05-09, f614ecb, prototype branch; the paper's
    # depth is unstated). The Fig. 1 run (pizza_plot.py: "modular-addition59-deep/0427-1456") predates the argument:
    # its printed Namespace has no depth, the committed code of 2022-04-20 (3c862e7) stacks one layer, and "-deep" suggests a local variant with more.
    n_layers: int = 2
    lr_repr: float = 1e-3  # lr_rep (official pizza_plot.py)
    lr_dec: float = 2e-4  # lr_decoder (official pizza_plot.py)
    wd_dec: float = 1.0  # decoder weight_decay 1.0 (official pizza_plot.py)
    wd_repr: float = 0.0  # "zero weight decay" on embeddings (§4.2; the official code gets AdamW's default 0.01)
    # AdamW's second-moment decay: torch's default betas (0.9, 0.999), since the official optimizer passes none
    # (official scripts/transformer_grokking.py: AdamW with two parameter groups, only lr and weight_decay set)
    beta2: float = 0.999
    steps: int = 20_000  # 20,000 steps (official pizza_plot.py)
    eval_every: int = 20  # embeddings logged every 20 steps (official pizza_plot.py)
    n_seeds: int = 100  # Fig. 7 left: "evaluated over 100 seeds"
    first_seed: int = 1  # seed 1 (official pizza_plot.py); seeds first_seed, first_seed + 1, ...
    # memorization / generalization steps: acc > 99 % (official scripts/plot_generalization_time.py)
    threshold: float = 0.99
    # Fig. 7 centre: generalization time vs dropout (official phasegrok/definitions.py,
    # scripts/plot_generalization_time.py): dropout in linspace(0, 0.5, 10), seeds {1, 2, 3}, <= 10^5 epochs
    dropout_values: tuple[float, ...] = tuple(float(v) for v in np.linspace(0, 0.5, 10))
    dropout_seeds: tuple[int, ...] = (1, 2, 3)
    dropout_steps: int = 100_000
    # Fig. 7 right: decoder lr x decoder wd (official phasegrok/definitions.py)
    phase_lr_dec_values: tuple[float, ...] = tuple(float(v) for v in 10 ** np.linspace(-9, -1, 15))
    phase_wd_values: tuple[float, ...] = tuple(float(v) for v in np.exp(np.linspace(-4, 3, 19)))
    phase_steps: int = 100_000  # 10^5 epochs (full batch: steps)
    phase_threshold: float = 0.95  # unstated in the paper (App. J's "instead of 95 %" suggests it); our choice
    phase_gap: int = 1000  # Table 1

    def __post_init__(self):
        BinaryOpTask("modular_addition", self.p)  # p must be prime
        check_fraction("train_fraction", self.train_fraction)
        for name in ("d_model", "n_heads", "d_mlp", "n_layers", "steps", "eval_every", "n_seeds", "phase_steps",
                     "dropout_steps"):
            check_int(name, getattr(self, name), minimum=1)
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model={self.d_model} is not allowed: it must be divisible by n_heads={self.n_heads}.")
        for name in ("lr_repr", "lr_dec"):
            check_real(name, getattr(self, name), positive=True)
        for name in ("wd_repr", "wd_dec"):
            check_real(name, getattr(self, name), nonnegative=True)
        check_open_unit("beta2", self.beta2)
        check_real("dropout", self.dropout, nonnegative=True)
        if self.dropout >= 1:
            raise ValueError(f"dropout={self.dropout} is not allowed: it must be a rate in [0, 1).")
        _check_values("dropout_values", self.dropout_values, positive=False)
        if max(self.dropout_values) >= 1:
            raise ValueError(f"dropout_values={self.dropout_values} is not allowed: every rate must be in [0, 1).")
        if not isinstance(self.dropout_seeds, tuple) or not self.dropout_seeds:
            raise ValueError(f"dropout_seeds={self.dropout_seeds!r} is not allowed: it must be a non-empty tuple of seeds.")
        for seed in self.dropout_seeds:
            check_int("dropout_seeds", seed, minimum=0)
        check_int("first_seed", self.first_seed, minimum=0)
        check_fraction("threshold", self.threshold)
        check_fraction("phase_threshold", self.phase_threshold)
        check_int("phase_gap", self.phase_gap, minimum=0)
        _check_values("phase_lr_dec_values", self.phase_lr_dec_values, positive=True)
        _check_values("phase_wd_values", self.phase_wd_values, positive=False)

    @classmethod
    def book(cls) -> "TransformerGrokConfig":
        """Book scale: p = 31, a 1-layer width-48 transformer, both lrs x 5 (time compression), 2,000 steps, 5
        seeds; everything else the paper's (dropout 0.05, decoder wd 1)."""
        return cls(p=31, d_model=48, d_mlp=96, n_layers=1, lr_repr=5e-3, lr_dec=1e-3, steps=2000, n_seeds=5)

    @classmethod
    def for_scale(cls) -> "TransformerGrokConfig":
        """Paper: the defaults. Book: :meth:`book`."""
        book = cls.book()
        smoke = replace(book, p=11, d_model=16, d_mlp=32, steps=60, eval_every=10, n_seeds=2)
        return by_scale(book=book, paper=cls(), smoke=smoke)

    @property
    def seeds(self) -> list[int]:
        return list(range(self.first_seed, self.first_seed + self.n_seeds))

    def task_data(self) -> TaskData:
        return build_task_data(BinaryOpTask("modular_addition", self.p),
                               Split(train_fraction=self.train_fraction, data_seed=self.first_seed))

    def model_config(self) -> EncoderTransformerConfig:
        # Inputs are the two tokens (a, b), no operation token (§4.2: "we do not encode the operation symbols").
        return EncoderTransformerConfig(d_vocab=self.p, n_ctx=2, d_model=self.d_model, n_heads=self.n_heads,
                                        d_mlp=self.d_mlp, n_layers=self.n_layers, d_vocab_out=self.p)

    def train_config(self, steps: int | None = None) -> TrainConfig:
        return TrainConfig(steps=self.steps if steps is None else steps, lr_repr=self.lr_repr, lr_dec=self.lr_dec,
                           wd_repr=self.wd_repr, wd_dec=self.wd_dec, beta2=self.beta2, eval_every=self.eval_every,
                           init_seed=self.first_seed, dropout=self.dropout)


def standardize_tokens(embeddings: np.ndarray) -> np.ndarray:
    """Each token's row of ``embeddings`` (p, d) minus its mean over the d dims, over its std (``standardize`` of
    the official scripts/pizza_plot.py, applied before the PCA of Fig. 1 and of e^S)."""
    x = np.asarray(embeddings, dtype=np.float64)
    return (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)


def standardized_effective_dimension(embeddings: np.ndarray) -> float:
    """e^S of the PCA of token embeddings (p, d), each token's row standardized first (:func:`standardize_tokens`;
    S as in §4.2)."""
    return float(np.exp(explained_variance_entropy(pca(standardize_tokens(embeddings))[1])))


def effective_dimension_ceiling(p: int, d: int) -> int:
    """The largest e^S a PCA of p token embeddings of d dims can have: the centred (p, d) matrix has rank at most
    min(p - 1, d), and e^S is at most the number of non-zero variances (all equal). Standardizing each token's row
    first (:func:`standardize_tokens`) keeps the bound."""
    check_int("p", p, minimum=2)
    check_int("d", d, minimum=1)
    return min(p - 1, d)


def effective_dimension_readings(result: "TransformerResult", run: int = 0) -> dict:
    """e^S of one run at its embedding snapshots read both ways: ``plain`` (the PCA of the raw embeddings, as the
    official Fig. 7 notebook computes it: plotting_nbs/EntropyAndTraining.ipynb, sklearn's PCA() on the embedding
    matrix and the entropy of its explained-variance ratios; :func:`repro.metrics.representation.effective_dimension`)
    and ``standardized`` (each token's row standardized first: :func:`standardized_effective_dimension`, what the
    book's runs log at every step). With the ceiling (:func:`effective_dimension_ceiling`), each reading's rise (peak
    over the snapshots / step 0) and end (last / peak), and the largest rise the ceiling allows from each start."""
    from repro.metrics.representation import effective_dimension

    cfg = result.config
    steps = np.asarray(result.history.steps if result.embedding_steps is None else result.embedding_steps)
    emb = np.asarray(result.embeddings[run], dtype=np.float64)
    out = {"steps": steps, "ceiling": effective_dimension_ceiling(cfg.p, cfg.d_model)}
    for name, f in (("plain", effective_dimension), ("standardized", standardized_effective_dimension)):
        e = np.array([f(x) for x in emb])
        out[name] = e
        out[f"{name}_rise"] = float(e.max() / e[0])
        out[f"{name}_end"] = float(e[-1] / e.max())
        out[f"{name}_max_rise"] = float(out["ceiling"] / e[0])
    return out


def fourier_circle(embeddings: np.ndarray, p: int) -> tuple[int, float]:
    """The embeddings' strongest Fourier frequency k and how well they form an ordered circle in its plane.

    The discrete Fourier transform along the token axis, F_k = Σ_s E_s e^{-2πiks/p} (a d-vector), puts the
    variance of a frequency-k circle in the plane spanned by Re F_k and Im F_k. We take the non-zero k
    (1 <= k <= p // 2) with the largest |F_k|, project the centred embeddings onto that plane and score
    them with :func:`repro.metrics.representation.circle_order` (1 = tokens exactly at angles 2πks/p). Unlike PC1-PC2,
    this does not mix two frequencies that carry equal variance.
    """
    x = np.asarray(embeddings, dtype=np.float64)
    x = x - x.mean(axis=0, keepdims=True)
    f = np.fft.fft(x, axis=0)  # (p, d)
    ks = np.arange(1, p // 2 + 1)
    k = int(ks[np.argmax(np.linalg.norm(f[ks], axis=1))])
    basis, _ = np.linalg.qr(np.stack([f[k].real, f[k].imag], axis=1))  # (d, 2) orthonormal
    return k, circle_order(x @ basis, p)[1]


def fourier_variance_shares(embeddings: np.ndarray, p: int) -> np.ndarray:
    """Share of the centred embeddings' variance carried by each frequency k = 1 .. p // 2 (Parseval over
    the token axis; k and p - k are one real frequency). One dominant share means one circle dominates
    PC1-PC2; many comparable shares mean PCA mixes several circles."""
    x = np.asarray(embeddings, dtype=np.float64)
    x = x - x.mean(axis=0, keepdims=True)
    power = (np.abs(np.fft.fft(x, axis=0)) ** 2).sum(axis=1)  # (p,)
    ks = np.arange(1, p // 2 + 1)
    shares = power[ks] + np.where(2 * ks != p, power[(p - ks) % p], 0.0)
    return shares / power[1:].sum()


@dataclass
class TransformerResult:
    config: TransformerGrokConfig
    history: History
    embeddings: np.ndarray  # (R, T', p, d_model) token embedding snapshots
    effective_dim: np.ndarray  # (R, T) e^S at every logged step
    embedding_steps: np.ndarray | None = None  # (T',) steps of the snapshots; None: every logged step

    def embeddings_at(self, step: int, run: int = 0) -> np.ndarray:
        """Run ``run``'s embeddings at ``step``, or the first snapshot after it (the last one past the end)."""
        steps = self.history.steps if self.embedding_steps is None else self.embedding_steps
        return snapshot_at(self.embeddings[run], steps, step)

    def steps_to(self, key: str) -> np.ndarray:
        """Per seed, the first logged step with ``key`` (train_acc / val_acc) >= threshold (-1: never)."""
        return self.history.first_step(key, self.config.threshold)

    def circle_fit(self, run: int = 0, step_index: int = -1) -> tuple[int, float]:
        """Ordered-circle fit (k, fit) of the embeddings on their first two PCs (metrics.circle_order)."""
        proj, _ = pca(self.embeddings[run, step_index])
        return circle_order(proj[:, :2], self.config.p)

    def fourier_circle_fit(self, run: int = 0, step_index: int = -1) -> tuple[int, float]:
        """(k, fit) of :func:`fourier_circle` at one snapshot."""
        return fourier_circle(self.embeddings[run, step_index], self.config.p)


def run_transformer(cfg: TransformerGrokConfig, progress: bool | None = None, checkpoint=None,
                    snapshot_every: int | None = None) -> TransformerResult:
    """Train ``n_seeds`` transformers together (each with its own split and init) and track e^S at every logged
    step (resumable with a stored run's ``checkpoint``: :func:`main`). ``snapshot_every``: keep the embeddings
    every that many steps (and at the last) instead of at every logged step, so that a 20,000-step run's history
    and checkpoint stay a few MB (e^S is computed at every logged step either way, from the same embeddings)."""
    if snapshot_every is not None:
        check_int("snapshot_every", snapshot_every, minimum=1)
    data = cfg.task_data()
    seeds = cfg.seeds
    train_mask, val_mask = split_masks(data, [cfg.train_fraction] * len(seeds), seeds)

    def record(step, params):
        embed = params["embed"]
        dims = [standardized_effective_dimension(e) for e in embed.detach().cpu().double().numpy()]
        out = {"effective_dim": torch.tensor(dims, dtype=torch.float64)}
        if snapshot_every is None or step % snapshot_every == 0 or step == cfg.steps:
            out["embeddings"] = embed
        return out

    history = train(cfg.model_config(), data, cfg.train_config(), runs={"init_seed": seeds},
                    split=(train_mask, val_mask), record=Record(callback=record),
                    performance=Performance(progress=progress, desc="transformer", checkpoint=checkpoint))
    emb = history.extra.pop("embeddings")
    dims = history.extra.pop("effective_dim")
    return TransformerResult(cfg, history, emb, dims, embedding_steps=history.extra_steps.pop("embeddings", None))


def transformer_to_arrays(result: TransformerResult, every: int = 500) -> dict[str, np.ndarray]:
    """Curves, e^S at every logged step, and embedding snapshots every ``every`` steps (plus the last), for
    the results store."""
    from repro.training.store import history_to_arrays

    arrays = {k: v for k, v in history_to_arrays(result.history).items() if not k.startswith(("param/", "extra/"))}
    steps = result.history.steps if result.embedding_steps is None else result.embedding_steps
    keep = np.flatnonzero((steps % every == 0) | (np.arange(len(steps)) == len(steps) - 1))
    arrays["effective_dim"] = result.effective_dim
    arrays["embedding_steps"] = steps[keep]
    arrays["embeddings"] = result.embeddings[:, keep].astype(np.float32)
    return arrays


def transformer_from_arrays(cfg: TransformerGrokConfig, arrays: dict[str, np.ndarray]) -> TransformerResult:
    """The :class:`TransformerResult` of :func:`transformer_to_arrays`."""
    from repro.training.store import required_arrays

    names = ("effective_dim", "embedding_steps", "embeddings")
    required_arrays(arrays, ("steps",) + names, "stored transformer run")
    history = history_from_arrays({k: v for k, v in arrays.items() if k not in names})
    return TransformerResult(cfg, history, arrays["embeddings"].astype(np.float64), arrays["effective_dim"],
                             embedding_steps=arrays["embedding_steps"])


def stored_transformer_config() -> TransformerGrokConfig:
    """Fig. 1 / Fig. 7 (left) at the paper's settings for one seed: the official pizza_plot.py run (p = 59,
    2 layers of width 256, dropout 0.05, seed 1), 6,000 of its 20,000 steps, float32. About 0.45 s a step on
    one core: 45 minutes."""
    return replace(TransformerGrokConfig(), n_seeds=1, steps=6000)


def stored_transformer_configs() -> list[TransformerGrokConfig]:
    """The stored paper-setting runs: seed 1 (:func:`stored_transformer_config`), then seeds 2 and 3 (two runs
    on two cores, about an hour). A seed's run depends on its seed alone, so the parts are one 3-seed run made
    in two pieces (:func:`join_transformer_results`)."""
    first = stored_transformer_config()
    return [first, replace(first, first_seed=2, n_seeds=2)]


def fig1_numbers(result: TransformerResult, run: int = 0) -> dict[str, float]:
    """What Fig. 1 and Fig. 7 (left) say about one run, as numbers: the first logged steps with train / validation
    accuracy >= the config's threshold and validation at 100 % (-1: never), the gap between the 99 % steps (a run
    that never generalizes counts the rest of the run), the final accuracies, e^S at step 0, its peak and step,
    and at the end, the ratios the claims use (peak / start, end / peak), the PC1-PC2 ordered-circle fit of the last
    snapshot, and its strongest Fourier frequency's circle fit and variance share."""
    h, cfg = result.history, result.config
    ed = np.asarray(result.effective_dim[run], dtype=np.float64)
    mem, gen = int(result.steps_to("train_acc")[run]), int(result.steps_to("val_acc")[run])
    peak = int(np.argmax(ed))
    return {
        "train_step": mem, "val_step": gen, "val_100_step": int(h.first_step("val_acc", 1.0)[run]),
        "gap": (gen if gen >= 0 else int(h.steps[-1])) - mem,
        "final_train_acc": float(h["train_acc"][run, -1]), "final_val_acc": float(h["val_acc"][run, -1]),
        "ed_start": float(ed[0]), "ed_peak": float(ed[peak]), "ed_peak_step": int(h.steps[peak]), "ed_end": float(ed[-1]),
        "rise": float(ed[peak] / ed[0]), "end_over_peak": float(ed[-1] / ed[peak]),
        "circle_fit": float(result.circle_fit(run)[1]), "fourier_fit": float(result.fourier_circle_fit(run)[1]),
        "fourier_share": float(fourier_variance_shares(result.embeddings[run, -1], cfg.p).max()),
    }


def full_transformer_config() -> TransformerGrokConfig:
    """Fig. 1 at the paper's settings: the official pizza_plot.py run (seed 1, p = 59, 2 layers of width 256,
    dropout 0.05) for all its 20,000 steps, float32. About 0.5 s a step on one core: close to 3 hours, in
    segments (:func:`main` resumes it from its checkpoint)."""
    return replace(TransformerGrokConfig(), n_seeds=1)


FULL_SNAPSHOT_EVERY = 500  # embeddings kept every 500 steps (as transformer_to_arrays stores them): a small checkpoint


def join_transformer_results(parts: list[TransformerResult]) -> TransformerResult:
    """One result from runs of consecutive seeds (the parts' seeds in order, same steps and snapshots)."""
    from repro.training.trainer import join_blocks

    first = parts[0]
    seeds = [s for part in parts for s in part.config.seeds]
    if seeds != list(range(seeds[0], seeds[0] + len(seeds))):
        raise ValueError(f"parts must hold consecutive seeds in order; got seeds {seeds}.")
    for part in parts[1:]:
        if replace(part.config, first_seed=first.config.first_seed, n_seeds=first.config.n_seeds) != first.config:
            raise ValueError("parts must differ in their seeds only.")
        if not np.array_equal(part.history.steps, first.history.steps) or not np.array_equal(
                np.asarray(part.embedding_steps), np.asarray(first.embedding_steps)):
            raise ValueError("parts must share their logged steps and snapshot steps.")
    run_values = {k: [v for part in parts for v in part.history.run_values[k]] for k in first.history.run_values}
    history = join_blocks([part.history for part in parts], run_values)
    return TransformerResult(replace(first.config, n_seeds=len(seeds)), history,
                             np.concatenate([part.embeddings for part in parts]),
                             np.concatenate([part.effective_dim for part in parts]), first.embedding_steps)


def stored_transformer(cfg: TransformerGrokConfig, root, label: str = "transformer") -> tuple[TransformerResult, dict] | None:
    """The stored transformer run for exactly ``cfg`` under ``root`` and its manifest, or None (``label``:
    "transformer" for the 6,000-step runs, "transformer-20k" for :func:`full_transformer_config`)."""
    check_choice("label", label, ("transformer", "transformer-20k"))
    return ResultsStore(root).load_result(cfg, label, lambda arrays: transformer_from_arrays(cfg, arrays))


@dataclass
class DropoutResult:
    """Fig. 7 (centre): one run per (dropout rate, seed)."""

    config: TransformerGrokConfig
    history: History  # runs in the order rate-major: (rate 0, seed 0), (rate 0, seed 1), ...

    def steps_to(self, key: str) -> np.ndarray:
        """(n_rates, n_seeds) first logged step with ``key`` >= threshold (-1: never within the steps)."""
        shape = (len(self.config.dropout_values), len(self.config.dropout_seeds))
        return self.history.first_step(key, self.config.threshold).reshape(shape)

    def median_steps_to(self, key: str) -> np.ndarray:
        """(n_rates,) median over seeds, counting a run that never reaches the threshold as +inf (so the
        median is inf when most seeds never do)."""
        steps = self.steps_to(key).astype(float)
        return np.median(np.where(steps < 0, np.inf, steps), axis=1)


def run_dropout_sweep(cfg: TransformerGrokConfig, progress: bool | None = None, checkpoint=None) -> DropoutResult:
    """Fig. 7 (centre): every dropout rate x seed as one batched program of ``dropout_steps`` steps. Each seed
    has its own split (data seed) and init; the rates share them, so a rate's effect is read seed by seed.
    ``checkpoint``: a stored run's (:func:`main`), which makes it resumable."""
    data = cfg.task_data()
    rates = [float(r) for r in cfg.dropout_values for _ in cfg.dropout_seeds]
    seeds = [int(s) for _ in cfg.dropout_values for s in cfg.dropout_seeds]
    train_mask, val_mask = split_masks(data, [cfg.train_fraction] * len(seeds), seeds)
    history = train(cfg.model_config(), data, cfg.train_config(cfg.dropout_steps),
                    runs={"init_seed": seeds, "dropout": rates}, split=(train_mask, val_mask),
                    performance=Performance(progress=progress, desc="dropout sweep", checkpoint=checkpoint))
    return DropoutResult(cfg, history)


def stored_dropout_config() -> TransformerGrokConfig:
    """Fig. 7 (centre) with the book's transformer (p = 31, 1 layer of width 48, both learning rates x5) over
    the paper's grid: dropout in linspace(0, 0.5, 10), seeds {1, 2, 3} (official phasegrok/definitions.py),
    5,000 steps (2.5 times the book's Fig. 7 left run), float32. 30 runs: about 45 minutes on two shared cores."""
    return replace(TransformerGrokConfig.book(), dropout_steps=5000)


# The official Fig. 7 (centre) sweep (grokking-squared, prototype branch, from 2022-05-09 on, before the paper): the
# snakefile's rule with_dropout calls scripts/transformer_grokking.py with --dropout, --seed, --log 10, --epochs 100000
# and --stop_early only, so every other setting is phasegrok/config.py's default.
OFFICIAL_SWEEP_SOURCE = "prototype:snakefile rule with_dropout (only --dropout and --seed) on phasegrok/config.py's defaults"


def official_dropout_reference() -> TransformerGrokConfig:
    """The settings of the official dropout sweep (Fig. 7 centre), as a :class:`TransformerGrokConfig`: p = m = 53
    (config.py --p, --m), 256-d embeddings (--latent_dim), two encoder layers (--decoder_depth 2) of feed-forward width
    256 (--decoder_width), both learning rates 1e-3 (--lr_rep, --lr_decoder), decoder weight decay 0 (--weight_decay),
    the embedding group with AdamW's default weight decay 0.01 (it sets none), full batch (--batch_size -1), split 0.8;
    the rates linspace(0, 0.5, 10) and seeds 1-3 (phasegrok/definitions.py), up to 10^5 epochs (full batch: steps),
    stopped early once test accuracy passes 0.999."""
    return replace(TransformerGrokConfig(), p=53, d_mlp=256, n_layers=2, lr_repr=1e-3, lr_dec=1e-3, wd_dec=0.0,
                   wd_repr=0.01)


# The four of the official ten rates kept by the reduced sweep: linspace(0, 0.5, 10)[[0, 3, 6, 9]] = 0, 1/6, 1/3, 1/2
OFFICIAL_BASE_RATE_INDICES = (0, 3, 6, 9)


def official_base_dropout_config() -> TransformerGrokConfig:
    """Fig. 7 (centre) on the official sweep's base (:func:`official_dropout_reference`: equal learning rates, no
    decoder weight decay, embedding weight decay 0.01, feed-forward width = model width), reduced to fit a CPU: the
    book's transformer size (p = 31, 1 layer of width 48, FFN 48), both learning rates x5 (5e-3: the book's time
    compression), four of the ten rates (:data:`OFFICIAL_BASE_RATE_INDICES`), two fresh seeds (11, 12) and 6,000
    steps (30,000 of the official rates' steps), float32. 8 runs: about 8 minutes on one core."""
    rates = tuple(official_dropout_reference().dropout_values[i] for i in OFFICIAL_BASE_RATE_INDICES)
    return replace(TransformerGrokConfig.book(), lr_repr=5e-3, lr_dec=5e-3, wd_dec=0.0, wd_repr=0.01, d_mlp=48,
                   dropout_values=rates, dropout_seeds=(11, 12), dropout_steps=6000)


def dropout_sweep_numbers(result: DropoutResult) -> dict:
    """What Fig. 7 (centre) says about a sweep, per seed: the best positive rate (the shortest median time to the
    validation threshold, a run that never reaches it counting as infinitely slow); each seed's time to it at that
    rate over its time without dropout (``time_ratio``), and its train-to-validation gap at that rate over its gap
    without dropout (``gap_ratio``). A run that never reaches a threshold is counted at the end of the run
    (``dropout_steps``): that shortens the time and the gap without dropout, so both ratios are upper bounds when
    the run without dropout never generalizes (and the time ratio is 1 when neither does); a run that never fits
    its training set has the whole run as its gap."""
    cfg = result.config
    if len(cfg.dropout_values) < 2 or cfg.dropout_values[0] != 0:
        raise ValueError(f"dropout_values={cfg.dropout_values} is not allowed here: the first rate must be 0 and at "
                         "least one positive rate must follow.")
    end = float(cfg.dropout_steps)
    train = result.steps_to("train_acc").astype(float)
    val = result.steps_to("val_acc").astype(float)
    t_train = np.where(train < 0, end, train)
    t_val = np.where(val < 0, end, val)
    best = 1 + int(np.argmin(result.median_steps_to("val_acc")[1:]))
    # at least one step, as the official script's max(1, .); a run that never fits its training set: the whole run
    gap = np.where(train < 0, end, np.maximum(t_val - np.minimum(t_train, t_val), 1.0))
    return {"best": best, "best_rate": float(cfg.dropout_values[best]), "time_ratio": t_val[best] / t_val[0],
            "gap_ratio": gap[best] / gap[0], "val_steps": val, "train_steps": train, "gap": gap,
            "never_at_zero": bool((val[0] < 0).all())}


def dropout_to_arrays(result: DropoutResult) -> dict[str, np.ndarray]:
    from repro.training.store import history_to_arrays

    return {k: v for k, v in history_to_arrays(result.history).items() if not k.startswith(("param/", "extra/"))}


def stored_dropout(cfg: TransformerGrokConfig, root, label: str = "dropout") -> tuple[DropoutResult, dict] | None:
    """The stored dropout sweep for exactly ``cfg`` under ``root`` and its manifest, or None (``label``: "dropout"
    for :func:`stored_dropout_config`, "dropout-official-base" for :func:`official_base_dropout_config`)."""
    check_choice("label", label, ("dropout", "dropout-official-base"))
    return ResultsStore(root).load_result(cfg, label, lambda arrays: DropoutResult(cfg, history_from_arrays(arrays)))


def paper_run_steps(cfg: TransformerGrokConfig) -> dict[str, int]:
    """Run-steps of each Fig. 7 panel at ``cfg``'s settings (no early stopping: an upper bound)."""
    return {"Fig. 7 left": cfg.n_seeds * cfg.steps,
            "Fig. 7 centre": len(cfg.dropout_values) * len(cfg.dropout_seeds) * cfg.dropout_steps,
            "Fig. 7 right": len(cfg.phase_lr_dec_values) * len(cfg.phase_wd_values) * cfg.phase_steps}


def projected_cpu_hours(cfg: TransformerGrokConfig, seconds_per_run_step: float) -> dict[str, float]:
    """Hours each Fig. 7 panel of ``cfg`` needs at a measured ``seconds_per_run_step`` (e.g. a stored run's wall
    time over its run-steps: one core, evaluations included)."""
    return {panel: n * seconds_per_run_step / 3600 for panel, n in paper_run_steps(cfg).items()}


def run_transformer_phase_diagram(cfg: TransformerGrokConfig, progress: bool | None = None):
    """Fig. 7 (right): phases over decoder lr x decoder wd (one seed; meant for a GPU). Returns
    (phases (n_wd, n_lr), History)."""
    axes = {"wd_dec": list(cfg.phase_wd_values), "lr_dec": list(cfg.phase_lr_dec_values)}
    grid = expand_grid(axes)
    tc = replace(cfg.train_config(cfg.phase_steps), eval_every=10)
    history = train(cfg.model_config(), cfg.task_data(), tc, runs=grid,
                    performance=Performance(progress=progress, desc="transformer phases"))
    rule = PhaseRule(cfg.phase_threshold, cfg.phase_threshold, cfg.phase_gap, cfg.phase_steps)
    return classify_history(history, rule).reshape(len(cfg.phase_wd_values), len(cfg.phase_lr_dec_values)), history


# --------------------------------------------------------------------------------------------------
# Fig. 8: images with a large initialization

IMAGE_BOOK_SEEDS = 1  # initializations per cell at book scale (each seed of the grid costs ~2 CPU-minutes)


@dataclass(frozen=True, repr=False)
class ImageGrokConfig(ConfigRepr):
    source: str = "mnist"  # App. J: MNIST; book: "digits" (scikit-learn 8x8, a substitute dataset)
    path: str | None = None  # MNIST IDX directory (paper scale: env REPRO_MNIST_DIR)
    n_train: int = 1000  # App. J: training set reduced to 1k samples
    n_test: int | None = None  # None: every test image
    alpha: float = 8.0  # init x alpha on every parameter (App. J: alpha > 1; 8 in mnist-grokking.ipynb)
    hidden: tuple[int, ...] = (200, 200)  # depth-3 width-200 ReLU MLP (App. J)
    lr_repr: float = 1e-3  # AdamW lr 1e-3 for the layers before the last (mnist-grokking.ipynb)
    curve_lr_dec: float = 1e-3  # Fig. 8(a): the same lr 1e-3 on the last layer
    curve_wd: float = 0.01  # Fig. 8(a): AdamW wd 0.01 (mnist-grokking.ipynb)
    batch_size: int = 200  # mnist-grokking.ipynb
    steps: int = 100_000  # 10^5 steps
    eval_every: int = 100
    data_seed: int = 0  # 0: the first n_train images, as the official Subset(train, range(1000))
    init_seed: int = 0  # seed 0 (mnist-grokking.ipynb)
    n_seeds: int = 1  # initializations per cell: init seeds init_seed, init_seed + 1, ... (same images)
    # Fig. 8(b) grid: unstated in the paper; our choice
    lr_dec_values: tuple[float, ...] = tuple(float(v) for v in 10 ** np.linspace(-5, -2, 7))
    wd_values: tuple[float, ...] = (0.0, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0)
    train_threshold: float = 0.9  # unstated for Fig. 8 (App. J gives only validation 60 %); Table 1's 90 %
    val_threshold: float = 0.6  # App. J: "a threshold of 60 % here for validation accuracy"
    gap: int = 1000  # Table 1
    dtype: str = "float64"  # mnist-grokking.ipynb runs in float64

    def __post_init__(self):
        from repro.data.datasets import SOURCES

        check_choice("source", self.source, SOURCES)
        check_int("n_train", self.n_train, minimum=1)
        if self.n_test is not None:
            check_int("n_test", self.n_test, minimum=1)
        check_real("alpha", self.alpha, positive=True)
        for name in ("lr_repr", "curve_lr_dec"):
            check_real(name, getattr(self, name), positive=True)
        check_real("curve_wd", self.curve_wd, nonnegative=True)
        for name in ("batch_size", "steps", "eval_every"):
            check_int(name, getattr(self, name), minimum=1)
        check_int("data_seed", self.data_seed, minimum=0)
        check_int("init_seed", self.init_seed, minimum=0)
        check_int("n_seeds", self.n_seeds, minimum=1)
        _check_values("lr_dec_values", self.lr_dec_values, positive=True)
        _check_values("wd_values", self.wd_values, positive=False)
        check_fraction("train_threshold", self.train_threshold)
        check_fraction("val_threshold", self.val_threshold)
        check_int("gap", self.gap, minimum=0)
        check_choice("dtype", self.dtype, ("float32", "float64"))

    @classmethod
    def for_scale(cls) -> "ImageGrokConfig":
        """Paper: MNIST from ``REPRO_MNIST_DIR``. Book: the 8x8 digits substitute, 3,000 steps, weight
        decays raised so that the slow weight-norm decay (time ~ ln(alpha) / (lr wd)) fits the budget."""
        lrs = tuple(float(v) for v in 10 ** np.linspace(-4, -2, 5))
        # Fig. 8(a) at book scale: the cell lr 10^-2.5, wd 0.1 (at the paper's lr 1e-3 the delay does not
        # fit in 3,000 steps; the chapter says so)
        book = cls(source="digits", steps=3000, eval_every=50, curve_lr_dec=lrs[3], curve_wd=0.1, dtype="float32",
                   gap=300, lr_dec_values=lrs, wd_values=(0.0, 0.03, 0.1, 0.3, 1.0), n_seeds=IMAGE_BOOK_SEEDS)
        smoke = replace(book, steps=40, eval_every=10, gap=10, lr_dec_values=lrs[3:], wd_values=(0.0, 0.1), n_seeds=2)
        return by_scale(book=book, paper=cls(path=os.environ.get("REPRO_MNIST_DIR")), smoke=smoke)

    @property
    def label(self) -> str:
        return "MNIST" if self.source == "mnist" else "8x8 digits (substitute dataset)" if self.source == "digits" \
            else "IDX images (substitute dataset)"

    def task_data(self) -> TaskData:
        return image_task_data(self.source, None if self.source == "digits" else self.path, n_train=self.n_train,
                               n_test=self.n_test, data_seed=self.data_seed, loss="mse")

    def model_config(self, data: TaskData) -> MLPConfig:
        # MLPConfig: the last layer is the "dec" group (the paper's "decoder" in Fig. 8b)
        return MLPConfig(d_in=int(data.inputs.shape[1]), hidden=self.hidden, d_out=10, activation="relu")

    @property
    def seeds(self) -> list[int]:
        return list(range(self.init_seed, self.init_seed + self.n_seeds))

    def grid(self) -> dict[str, list]:
        """Per-run values of one seed: every (wd, lr_dec) of the grid, plus the Fig. 8(a) cell when it is
        not on it."""
        cells = [(w, lr) for w in self.wd_values for lr in self.lr_dec_values]
        if (self.curve_wd, self.curve_lr_dec) not in cells:
            cells.append((self.curve_wd, self.curve_lr_dec))
        return {"wd": [w for w, _ in cells], "lr_dec": [lr for _, lr in cells]}

    def runs(self) -> dict[str, list]:
        """Per-run values of the whole batch: the grid of :meth:`grid` once per seed (seed-major)."""
        g = self.grid()
        n = len(g["wd"])
        return {"wd": g["wd"] * self.n_seeds, "lr_dec": g["lr_dec"] * self.n_seeds,
                "init_seed": [s for s in self.seeds for _ in range(n)]}

    def train_config(self) -> TrainConfig:
        return TrainConfig(steps=self.steps, lr_repr=self.lr_repr, init_scale=self.alpha, repr_init_scale=self.alpha,
                           batch_size=self.batch_size, eval_every=self.eval_every, init_seed=self.init_seed,
                           dtype=self.dtype)

    def rule(self) -> PhaseRule:
        return PhaseRule(self.train_threshold, self.val_threshold, self.gap, self.steps)


@dataclass
class ImageResult:
    config: ImageGrokConfig
    history: History  # seed-major: per seed, one run per grid cell (and the Fig. 8a cell last if off the grid)
    seed_phases: np.ndarray  # (S, n_wd, n_lr)

    def __post_init__(self):
        self.seed_phases = np.asarray(self.seed_phases, dtype=object)
        if self.seed_phases.ndim == 2:
            self.seed_phases = self.seed_phases[None]

    @property
    def phases(self) -> np.ndarray:
        """(n_wd, n_lr): the majority phase of each cell over seeds (ties: the fixed order of PHASES)."""
        from repro.experiments.liu2022_phase_diagrams import majority_phase

        return majority_phase(self.seed_phases)

    def curve_run(self) -> int:
        """Index of the Fig. 8(a) cell within one seed's block of runs."""
        c = self.config
        g = c.grid()
        return next(r for r, (w, lr) in enumerate(zip(g["wd"], g["lr_dec"])) if w == c.curve_wd and lr == c.curve_lr_dec)

    def curve_runs(self) -> list[int]:
        """Indices (into the history) of the Fig. 8(a) cell of every seed."""
        n = len(self.config.grid()["wd"])
        return [s * n + self.curve_run() for s in range(self.config.n_seeds)]

    def examples(self) -> dict[str, PhaseExample]:
        """For each phase the map shows, one run in it (:func:`repro.metrics.phases.example_runs`) and its curves."""
        c = self.config
        n_grid, n_lr = len(c.grid()["wd"]), len(c.lr_dec_values)
        h = self.history
        return {phase: PhaseExample(phase, {"last-layer lr": c.lr_dec_values[ix], "wd": c.wd_values[iy]},
                                    c.seeds[s], np.asarray(h.steps), h["train_acc"][s * n_grid + iy * n_lr + ix],
                                    h["val_acc"][s * n_grid + iy * n_lr + ix])
                for phase, (s, iy, ix) in example_runs(self.seed_phases).items()}

    def cell_steps(self, key: str, threshold: float) -> np.ndarray:
        """(S, n_wd, n_lr): the first step at which ``key`` reaches ``threshold`` (-1: never)."""
        c = self.config
        n_grid, n_cells = len(c.grid()["wd"]), len(c.wd_values) * len(c.lr_dec_values)
        steps = self.history.first_step(key, threshold).reshape(c.n_seeds, n_grid)[:, :n_cells]
        return steps.reshape(c.n_seeds, len(c.wd_values), len(c.lr_dec_values))


def run_image_phase_diagram(cfg: ImageGrokConfig, progress: bool | None = None, checkpoint=None) -> ImageResult:
    """Train every (seed, weight decay, last-layer lr) cell together; "model weight decay" applies to all
    layers. Seeds share the images; each has its own initialization and minibatch order. ``checkpoint``: a stored
    run's (:func:`main`), which makes it resumable."""
    data = cfg.task_data()
    r = cfg.runs()
    runs = {"lr_dec": r["lr_dec"], "wd_dec": r["wd"], "wd_repr": r["wd"], "init_seed": r["init_seed"]}
    history = train(cfg.model_config(data), data, cfg.train_config(), runs=runs,
                    performance=Performance(progress=progress, desc="images", checkpoint=checkpoint))
    n_grid, n_cells = len(cfg.grid()["wd"]), len(cfg.wd_values) * len(cfg.lr_dec_values)
    phases = classify_history(history, cfg.rule()).reshape(cfg.n_seeds, n_grid)[:, :n_cells]
    return ImageResult(cfg, history, phases.reshape(cfg.n_seeds, len(cfg.wd_values), len(cfg.lr_dec_values)))


def stored_curve_config() -> ImageGrokConfig:
    """Fig. 8(a) at the paper's rates on the substitute 8x8 digits: the curve cell only (last-layer lr 1e-3 and
    weight decay 0.01, the Omnigrok notebook's, α = 8, batch 200), five inits, 50 000 steps (half the paper's
    10^5), float32 (stored: loaded, not recomputed, on other machines)."""
    return replace(ImageGrokConfig(), source="digits", path=None, wd_values=(0.01,), lr_dec_values=(1e-3,), n_seeds=5,
                   steps=50_000, eval_every=100, dtype="float32")


def stored_images(cfg: ImageGrokConfig, root) -> tuple[ImageResult, dict] | None:
    """The stored image run for exactly ``cfg`` under ``root`` (its curves) and its manifest, or None."""
    stored = ResultsStore(root).load_if_stored(cfg, "images")
    if stored is None:
        return None
    history = history_from_arrays(stored[0])
    n_grid, n_cells = len(cfg.grid()["wd"]), len(cfg.wd_values) * len(cfg.lr_dec_values)
    phases = classify_history(history, cfg.rule()).reshape(cfg.n_seeds, n_grid)[:, :n_cells]
    return ImageResult(cfg, history, phases.reshape(cfg.n_seeds, len(cfg.wd_values), len(cfg.lr_dec_values))), stored[1]


STORED_RUNS = ("images", "transformer", "dropout", "transformer-20k", "dropout-official-base")


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2022_transformer_and_images", rows=(
    StoredRun("Fig. 8(a) at the paper's rates on the substitute 8×8 digits (lr 1e-3, wd 0.01, α = 8, 5 seeds × 5·10⁴ "
              "steps)", "--runs images", ("images",)),
    StoredRun("Figs 1 and 7 (left) at the paper's settings: the official transformer (p = 59, 2 layers of width 256, "
              "dropout 0.05), seeds 1–3, 6,000 steps", "--runs transformer", ("transformer",), "TransformerGrokConfig"),
    StoredRun("Fig. 1's run for all its 20,000 steps: the official seed 1, e^S every 20 steps and the embeddings every 500 "
              "(an 8 MB checkpoint); claims registered before the run; resumable", "--runs transformer-20k",
              ("transformer-20k",)),
    StoredRun("Fig. 7 (centre) at the Fig. 1 base (decoder wd 1, decoder lr 1/5 of the embeddings'): the paper's 10 "
              "dropout rates × 3 seeds with the book's transformer, 5,000 steps", "--runs dropout", ("dropout",)),
    StoredRun("Fig. 7 (centre) at the official sweep's base (equal learning rates, no decoder weight decay), reduced: the "
              "book's transformer, rates 0, 1/6, 1/3, 1/2, fresh seeds 11 and 12, 6,000 steps; claims registered before "
              "the run", "--runs dropout-official-base", ("dropout-official-base",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2022_transformer_and_images --store book/_results [--runs images transformer dropout]``: train and
    store (curves, not weights, with provenance) :func:`stored_curve_config` (Fig. 8a: 5 seeds x 50 000 steps,
    about 6 minutes on one core) and :func:`stored_transformer_config` (Figs 1 and 7 left at the paper's
    settings, seed 1, then seeds 2 and 3, 6,000 steps: about 45 minutes on one core per seed) and :func:`stored_dropout_config` (Fig. 7
    centre with the book's transformer, 30 runs x 5,000 steps: about 45 minutes on two shared cores), and with
    ``--runs transformer-20k`` :func:`full_transformer_config` (Fig. 1's run for all its 20,000 steps: about 3 hours
    on one core, resumed from its checkpoint when interrupted), and with ``--runs dropout-official-base``
    :func:`official_base_dropout_config` (Fig. 7 centre on the official sweep's base, reduced: 8 runs x 6,000 steps,
    about 8 minutes on one core). A run already stored is not recomputed."""
    parser = store_parser("repro.experiments.liu2022_transformer_and_images", main.__doc__)
    parser.add_argument("--runs", nargs="+", choices=STORED_RUNS, default=list(STORED_RUNS),
                        help="which stored runs to make (default: all)")
    add_checkpoint_option(parser)
    args = parser.parse_args(argv)
    every_s = checkpoint_every_s(args)  # every stored run here resumes from its last checkpoint
    store = ResultsStore(args.store)
    if "images" in args.runs:
        cfg = stored_curve_config()

        def compute_images(checkpoint):
            arrays = history_to_arrays(run_image_phase_diagram(cfg, progress=True, checkpoint=checkpoint).history)
            return {k: v for k, v in arrays.items() if not k.startswith("param/")}

        store.get_or_compute(cfg, compute_images, label="images", checkpoint_every_s=every_s)
    if "transformer" in args.runs:
        for tcfg in stored_transformer_configs():
            store.get_or_compute(tcfg, lambda checkpoint: transformer_to_arrays(
                run_transformer(tcfg, progress=True, checkpoint=checkpoint)), label="transformer", checkpoint_every_s=every_s)
    if "transformer-20k" in args.runs:
        fcfg = full_transformer_config()
        store.get_or_compute(fcfg, lambda checkpoint: transformer_to_arrays(
            run_transformer(fcfg, progress=True, checkpoint=checkpoint, snapshot_every=FULL_SNAPSHOT_EVERY),
            every=FULL_SNAPSHOT_EVERY), label="transformer-20k", checkpoint_every_s=every_s)
    if "dropout" in args.runs:
        dcfg = stored_dropout_config()
        store.get_or_compute(dcfg, lambda checkpoint: dropout_to_arrays(run_dropout_sweep(dcfg, progress=True,
                                                                                          checkpoint=checkpoint)),
                             label="dropout", checkpoint_every_s=every_s)
    if "dropout-official-base" in args.runs:
        ocfg = official_base_dropout_config()
        store.get_or_compute(ocfg, lambda checkpoint: dropout_to_arrays(run_dropout_sweep(ocfg, progress=True,
                                                                                          checkpoint=checkpoint)),
                             label="dropout-official-base", checkpoint_every_s=every_s)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())

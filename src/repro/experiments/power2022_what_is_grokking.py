"""The opening chapter, "What is grokking?": the phenomenon of Power et al. (2022) on modular addition.

Config defaults are Power et al.'s setting (arXiv 2201.02177, §3 and App. A.1: a 2-layer decoder-only
transformer, width 128, 4 heads, AdamW lr 1e-3, weight decay 1, betas (0.9, 0.98), batch 512, p = 97,
half the table for training, 10^5 steps). ``for_scale()`` shrinks it for a laptop CPU: an
embeddings + MLP model (the sum of the two token embeddings into a one-hidden-layer ReLU MLP, the
toy architecture of Liu et al. 2022) on the unordered pairs of p = 31, full batch, which groks in a few
thousand steps.
Used by ``book/power2022_what_is_grokking.ipynb``. Book scale trains 32 seeds in one batched call; the
chapter's claims are statistics over them (:class:`SeedSummary`).

``model="grok_transformer"`` is openai/grok's own transformer on openai/grok's data pipeline (post-LayerNorm,
sinusoidal positions, no biases, its 239-token vocabulary, sequences ``<eos> a / b = c`` and its split:
:mod:`repro.models.grok_transformer`, :func:`repro.data.tasks.build_grok_task_data`); :func:`fig1_config` trains it
as Fig. 1 was trained (10^6 steps of Adam without weight decay).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from repro.core.portable import ConfigRepr, seed_median
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_fraction, check_int, check_real
from repro.data.tasks import GROK_FIRST_NUMBER, GROK_MODULUS, BinaryOpTask, Split, build_grok_task_data, build_task_data
from repro.metrics.bootstrap import resample_spread, seed_draws
from repro.metrics.representation import circle_order, grokking_delay, pca, snapshot_at
from repro.models.grok_transformer import GrokTransformerConfig
from repro.models.networks import EmbedMLPConfig, TransformerConfig
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.trainer import History, Performance, Record, TrainConfig, train


@dataclass(frozen=True, repr=False)
class IntroConfig(ConfigRepr):
    # Power et al. Fig. 1 (caption): "the binary operation of division mod 97"; "modular_addition" for the CPU scale
    operation: str = "modular_division"
    p: int = 97  # Power et al. Fig. 1: modular arithmetic mod 97
    train_fraction: float = 0.5  # Power et al. Fig. 1 uses 50 % of the table
    # Power et al. train on ordered pairs. The CPU model sums the two embeddings, so it is symmetric by
    # construction: with ordered pairs, the mirror (b, a) of every training pair would be answered for
    # free in validation (we measured ~46 % validation accuracy the moment training fits). It trains on
    # unordered pairs instead, so validation measures generalization only.
    ordered_pairs: bool = True
    data_seed: int = 0  # unstated (the official code shuffles with its own seed)
    init_seed: int = 0  # seeds init_seed, init_seed + 1, ... (one batched run each)
    n_seeds: int = 1  # Power et al. Fig. 1 shows one run; book scale trains 32 seeds and reports medians
    # Power et al.: decoder-only transformer ("transformer": the book's pre-LN one; "grok_transformer": openai/grok's
    # own, on its tokens and split); "embed_mlp" for the CPU scale
    model: str = "transformer"
    d_model: int = 128  # Power et al. App. A.1: width 128 (embedding width for embed_mlp)
    n_layers: int = 2  # Power et al. App. A.1
    n_heads: int = 4  # Power et al. App. A.1
    d_mlp: int = 512  # 4 x width, the standard transformer ratio (hidden width for embed_mlp)
    lr: float = 1e-3  # Power et al. App. A.1
    # App. A.1.2, for Fig. 1: "used Adam optimizer with no weight decay" (App. A.1's AdamW weight decay 1 is "for most
    # experiments"; openai/grok training.py's default is also --weight_decay 0)
    weight_decay: float = 0.0
    beta2: float = 0.98  # Power et al. App. A.1: betas (0.9, 0.98)
    warmup_steps: int = 10  # Power et al. App. A.1: linear warm-up over the first 10 updates (openai/grok training.py)
    batch_size: int | None = 512  # Power et al. App. A.1; None = full batch
    steps: int = 1_000_000  # App. A.1.2, for Fig. 1: "we increased the optimization budget to 10^6" (10^5 elsewhere)
    eval_every: int = 100  # unstated (official training.py: a geometric schedule of epochs)
    threshold: float = 0.99  # "fits" / "generalizes" = 99 % accuracy (Power et al. §3.1.1, Fig. 1 center)
    dtype: str = "float32"

    def __post_init__(self):
        check_choice("model", self.model, ("transformer", "embed_mlp", "grok_transformer"))
        check_choice("operation", self.operation, ("modular_addition", "modular_division"))
        BinaryOpTask(self.operation, self.p, ordered=self.ordered_pairs)  # validates p (prime) and ordered_pairs
        if self.model == "grok_transformer" and (self.p != GROK_MODULUS or not self.ordered_pairs):
            raise ValueError(f"model='grok_transformer' is openai/grok's encoding, whose numbers are mod {GROK_MODULUS} "
                             f"on ordered pairs; got p={self.p}, ordered_pairs={self.ordered_pairs}.")
        check_fraction("train_fraction", self.train_fraction)
        for name in ("d_model", "n_layers", "n_heads", "d_mlp", "steps", "eval_every", "n_seeds"):
            check_int(name, getattr(self, name), minimum=1)
        check_int("warmup_steps", self.warmup_steps, minimum=0)
        check_real("lr", self.lr, positive=True)
        check_real("weight_decay", self.weight_decay, nonnegative=True)
        check_fraction("threshold", self.threshold)

    @classmethod
    def for_scale(cls) -> "IntroConfig":
        """Paper scale: the defaults. Book scale: ~1 min on 2 CPU cores. Smoke: seconds."""
        book = cls(operation="modular_addition", p=31, train_fraction=0.7, ordered_pairs=False, model="embed_mlp",
                   d_model=32, d_mlp=128, lr=3e-3, weight_decay=1.0, warmup_steps=0, batch_size=None, steps=5000,
                   eval_every=10, n_seeds=32)
        return by_scale(book=book, paper=cls(), smoke=replace(book, steps=300, eval_every=10, n_seeds=2))

    @property
    def seeds(self) -> list[int]:
        return [self.init_seed + i for i in range(self.n_seeds)]

    @property
    def records_embeddings(self) -> bool:
        """Whether a run keeps its embeddings at every evaluation. The ordered-circle test (Liu et al. 2022, Fig. 1)
        is about addition, whose circle follows the symbols' order; division runs keep none, which also keeps their
        checkpoints small (10^3 evaluations of a 97 x 128 table per seed would be ~100 MB)."""
        return self.operation == "modular_addition"

    def task(self) -> BinaryOpTask:
        return BinaryOpTask(self.operation, self.p, ordered=self.ordered_pairs)

    def task_data(self):
        if self.model == "grok_transformer":  # openai/grok's tokens, sequences and split (its data seed 0)
            return build_grok_task_data(BinaryOpTask(self.operation, self.p, ordered=True), self.train_fraction,
                                        self.data_seed)
        return build_task_data(BinaryOpTask(self.operation, self.p, ordered=self.ordered_pairs),
                               Split(train_fraction=self.train_fraction, data_seed=self.data_seed))

    def model_config(self):
        if self.model == "grok_transformer":
            return GrokTransformerConfig(d_model=self.d_model, n_heads=self.n_heads, n_layers=self.n_layers,
                                         d_mlp=self.d_mlp)
        if self.model == "embed_mlp":
            return EmbedMLPConfig(n_symbols=self.p, d_embed=self.d_model, hidden=(self.d_mlp,), d_out=self.p,
                                  activation="relu", combine="sum", embed_init="normal")
        return TransformerConfig(d_vocab=self.p + 1, n_ctx=3, d_model=self.d_model, n_heads=self.n_heads,
                                 d_head=self.d_model // self.n_heads, d_mlp=self.d_mlp, n_layers=self.n_layers,
                                 d_vocab_out=self.p, act_fn="relu", normalization_type="LN")

    def train_config(self):
        return TrainConfig(steps=self.steps, optimizer="adamw", lr_repr=self.lr, lr_dec=self.lr,
                           wd_repr=self.weight_decay, wd_dec=self.weight_decay, beta2=self.beta2,
                           warmup_steps=self.warmup_steps,
                           batch_size=self.batch_size, eval_every=self.eval_every, init_seed=self.init_seed,
                           dtype=self.dtype)


@dataclass
class IntroResult:
    """Every seed of one batched training run (run r = seed ``config.seeds[r]``)."""

    config: IntroConfig
    history: History  # R runs
    embeddings: np.ndarray | None  # (R, T, p, d): token embeddings of every run at every evaluation step (addition only)
    train_steps: np.ndarray  # (R,) first step with train accuracy >= threshold (-1: never)
    val_steps: np.ndarray  # (R,)
    embedding_steps: np.ndarray | None = None  # (T,) steps of the snapshots; None: every evaluation step

    @property
    def n_runs(self) -> int:
        return len(self.train_steps)

    @property
    def delays(self) -> np.ndarray:
        """(R,) steps to the validation threshold / steps to the training threshold (nan: never)."""
        return np.array([grokking_delay(int(t), int(v)) for t, v in zip(self.train_steps, self.val_steps)])

    def embeddings_at(self, step: int, run: int = 0) -> np.ndarray:
        """Run ``run``'s embeddings at ``step``, or the first snapshot after it (the last one past the end)."""
        steps = self.history.steps if self.embedding_steps is None else self.embedding_steps
        return snapshot_at(self.embeddings[run], steps, step)

    def circle(self, step: int, run: int = 0) -> tuple[int, float]:
        """(k, fit) of the ordered-circle test on the first two principal components at ``step``."""
        proj, _ = pca(self.embeddings_at(step, run))
        return circle_order(proj[:, :2], self.config.p)

    def circle_fits(self, step: int) -> np.ndarray:
        """(R,) ordered-circle fit of every run at ``step`` (plane of PC1 and PC2); nan without embeddings (division)."""
        if self.embeddings is None:
            return np.full(self.n_runs, np.nan)
        return np.array([self.circle(step, r)[1] for r in range(self.n_runs)])

    def summary(self, circle_bound: float = 0.9) -> "SeedSummary":
        return summarize_seeds(self.train_steps, self.val_steps, self.history["val_acc"][:, -1],
                               self.circle_fits(int(self.history.steps[-1])), self.circle_fits(0), circle_bound)


@dataclass
class SeedSummary:
    """The chapter's statistics over seeds. Seeds that never reach a threshold count as +inf in the
    step medians (:func:`repro.core.portable.seed_median`) and as nan delays (excluded by ``median_delay``
    only if every seed has one; otherwise the median is taken with never = +inf)."""

    n: int
    train_steps: np.ndarray
    val_steps: np.ndarray
    delays: np.ndarray
    final_val_acc: np.ndarray
    fit_end: np.ndarray
    fit_init: np.ndarray
    circle_bound: float

    @property
    def median_train_step(self) -> float:
        return seed_median(self.train_steps)

    @property
    def median_val_step(self) -> float:
        return seed_median(self.val_steps)

    @property
    def median_delay(self) -> float:
        """Median over seeds of the delay; a seed that never fits or never generalizes counts as 0 (no
        grokking delay shown), so it pulls the median down, never up."""
        return float(np.median(np.nan_to_num(self.delays, nan=0.0)))

    @property
    def median_final_val_acc(self) -> float:
        return float(np.median(self.final_val_acc))

    @property
    def min_final_val_acc(self) -> float:
        return float(np.min(self.final_val_acc))

    @property
    def n_circle(self) -> int:
        """Seeds whose PC1-PC2 embeddings fit an ordered circle at the end (fit >= circle_bound)."""
        return int(np.sum(self.fit_end >= self.circle_bound))

    @property
    def share_circle(self) -> float:
        return self.n_circle / self.n


def summarize_seeds(train_steps, val_steps, final_val_acc, fit_end, fit_init, circle_bound: float = 0.9) -> SeedSummary:
    """Collect per-seed values (one entry per seed, same order) into a :class:`SeedSummary`."""
    arrays = [np.asarray(a, dtype=float).ravel() for a in (train_steps, val_steps, final_val_acc, fit_end, fit_init)]
    n = arrays[0].size
    if n == 0 or any(a.size != n for a in arrays):
        raise ValueError(f"summarize_seeds: every argument needs one value per seed; got sizes {[a.size for a in arrays]}.")
    check_fraction("circle_bound", circle_bound)
    delays = np.array([grokking_delay(int(t), int(v)) for t, v in zip(arrays[0], arrays[1])])
    return SeedSummary(n, arrays[0], arrays[1], delays, arrays[2], arrays[3], arrays[4], circle_bound)


def median_standard_error(values, *, never: float | None = None, n_boot: int = 2000, seed: int = 0) -> float:
    """Bootstrap standard error of the median over seeds (:mod:`repro.metrics.bootstrap`: ``n_boot`` resamples of
    the seeds from a fixed generator). With ``never`` given, entries equal to it count as +inf (a seed that never
    reached the threshold); a resample whose median is infinite is left out of the spread. NaN when nothing
    measures a spread."""
    v = np.asarray(values, dtype=float).ravel()
    if v.size == 0:
        raise ValueError("median_standard_error: values is empty; give one value per seed.")
    if never is not None:
        v = np.where(v == never, np.inf, v)
    spread = resample_spread(np.median(v[seed_draws(v.size, n_boot, seed)], axis=1))
    return float("nan") if spread is None else spread


def run_intro(cfg: IntroConfig, progress: bool | None = None, checkpoint=None) -> IntroResult:
    """Train ``cfg.n_seeds`` networks on ``cfg.operation`` in one batched call (one run per init seed); on addition,
    record their token embeddings along the way. ``checkpoint``: a stored run's
    :class:`repro.training.checkpoint.Checkpointer` (:func:`main`), which makes it resumable."""
    data = cfg.task_data()
    if cfg.model == "transformer":  # inputs "a b =": the '=' token is index p
        import torch

        data.inputs = torch.cat([data.inputs, torch.full((data.n_samples, 1), cfg.p)], dim=1)
    embed_name = "embed" if cfg.model == "embed_mlp" else "W_E"
    first = GROK_FIRST_NUMBER if cfg.model == "grok_transformer" else 0  # the rows of the numbers 0..p-1

    def record_embeddings(step, params):
        return {"embeddings": params[embed_name][:, first : first + cfg.p]}

    callback = record_embeddings if cfg.records_embeddings else None
    history = train(cfg.model_config(), data, cfg.train_config(), runs={"init_seed": cfg.seeds},
                    record=Record(callback=callback),
                    performance=Performance(progress=progress, desc=f"grokking ({cfg.operation})",
                                            checkpoint=checkpoint))
    train_steps = history.first_step("train_acc", cfg.threshold)
    val_steps = history.first_step("val_acc", cfg.threshold)
    embeddings = np.asarray(history.extra["embeddings"]) if callback is not None else None
    return IntroResult(cfg, history, embeddings, train_steps, val_steps)


@dataclass
class Fig1Statistics:
    """Per-seed statistics of Fig. 1 (left) for a run of :class:`IntroResult`, one value per seed (nan where a
    seed never reaches what the statistic needs). Medians over seeds are what the chapter's claims judge."""

    final_train_acc: np.ndarray  # (R,) training accuracy at the last evaluation
    final_val_acc: np.ndarray  # (R,)
    val_acc_later: np.ndarray  # (R,) validation accuracy at the first evaluation at or after `later` x the fitting step
    log10_delay: np.ndarray  # (R,) log10(steps to the validation threshold / steps to the training threshold); inf: never
    share_dips: np.ndarray  # (R,) share of evaluations from generalization on with validation below `dip`
    later: float
    dip: float

    def median(self, name: str) -> float:
        """The median over seeds of ``name`` (a seed without a value counts as +inf, so the median is +inf, or
        nan for the shares, when half the seeds or more have none)."""
        values = getattr(self, name)
        if name == "share_dips":
            return float(np.median(values)) if np.isfinite(values).all() else float("nan")
        return float(np.median(np.where(np.isnan(values), np.inf, values)))


def fig1_statistics(result: IntroResult, later: float = 10.0, dip: float = 0.9) -> Fig1Statistics:
    """What Fig. 1 (left) shows, per seed: both curves end at 100 %; validation is still at chance ``later`` times
    after the step at which training reaches the threshold; the delay to the validation threshold; and how often
    validation falls below ``dip`` once it has generalized (Fig. 1: never)."""
    check_real("later", later, positive=True)
    check_fraction("dip", dip)
    h = result.history
    steps, val = h.steps, h["val_acc"]
    val_later, delay, dips = [], [], []
    for r, (fit, gen) in enumerate(zip(result.train_steps, result.val_steps)):
        at = int(np.searchsorted(steps, later * fit)) if fit >= 0 else len(steps)
        val_later.append(float(val[r, at]) if at < len(steps) else float("nan"))
        d = grokking_delay(int(fit), int(gen))
        delay.append(float(np.log10(d)) if np.isfinite(d) and d > 0 else (float("inf") if d == float("inf") else float("nan")))
        after = steps >= gen if gen >= 0 else np.zeros(len(steps), bool)
        dips.append(float(np.mean(val[r, after] < dip)) if after.any() else float("nan"))
    return Fig1Statistics(h["train_acc"][:, -1].astype(float), val[:, -1].astype(float), np.array(val_later),
                          np.array(delay), np.array(dips), later, dip)


def stored_paper_config() -> IntroConfig:
    """Power et al.'s transformer and optimizer on modular *addition* (not Fig. 1's division), no warm-up, one
    seed, AdamW with App. A.1's weight decay 1, trained for 3·10^4 steps (App. A.1's budget is 10^5): the budget that fits about 45 minutes of one CPU core
    (~11 steps/s). The first stored run of this chapter, kept beside the division runs. Stored: loaded, not
    recomputed."""
    return replace(IntroConfig(), operation="modular_addition", weight_decay=1.0, warmup_steps=0, steps=30_000,
                   eval_every=100)


def division_config(weight_decay: float) -> IntroConfig:
    """Power et al.'s Fig. 1 as published: division x/y mod 97 on half of the 97·96 equations, their transformer,
    AdamW (lr 1e-3, betas (0.9, 0.98)) with the 10-update linear warm-up, batch 512, 10^5 steps; two init seeds.
    ``weight_decay``: 1 (Power et al. App. A.1, "for most experiments") or 0 (openai/grok training.py's default
    ``--weight_decay 0``). Both were stored before App. A.1.2's sentence on Fig. 1 (Adam, no weight decay, 10^6
    updates: :func:`fig1_config`) was found; the run with 0 has Fig. 1's optimizer at a tenth of its budget."""
    return replace(IntroConfig(), weight_decay=weight_decay, steps=100_000, n_seeds=2, eval_every=100)


def fig1_config() -> IntroConfig:
    """Power et al.'s Fig. 1 as it was made: division x/y mod 97 on 50 % of the 97·96 = 9312 equations (Fig. 1
    caption), openai/grok's transformer on openai/grok's tokens and split (``model="grok_transformer"``: 2 layers, width
    128, 4 heads, FFN 512), Adam without weight decay for 10^6 updates (App. A.1.2: "For the experiments reported in
    Section 3.1 we increased the optimization budget to 10^6, and used Adam optimizer with no weight decay", as quoted
    from the paper in Sea-Snell/grokking issue #4; openai/grok training.py's default is also --weight_decay 0), lr
    1e-3 with the linear warm-up over the first 10 updates, betas (0.9, 0.98), eps 1e-8, batch 512 (min(512,
    ceil(4656 / 2)): data.py calculate_batchsize). Two seeds (init seeds 0 and 1, one batched run) so that the
    claims have a seed spread to be decided by (the paper shows one run); evaluated every 100 steps.

    What still differs from openai/grok (commit 3d64b1d):

    * random numbers: the official default ``--random_seed -1`` seeds nothing, so no official run has a seed to match.
      Our init is what ``torch.manual_seed(0)`` and then building the official module would draw (same distributions,
      same order, equal up to float32 rounding: ``tests/test_grok_transformer.py``); the minibatches are shuffled epochs as the official iterator's (10 batches an epoch, the last of
      48 equations), but drawn from a generator of their own (seeded with the init seed), where the official
      ``torch.randperm`` draws from the global generator after the init;
    * the training curve: ours is the accuracy and loss over the whole training set at each evaluation step, with the
      parameters of that step (the official ``full_train_acc``); the official ``train_accuracy`` averages each
      epoch's minibatches as they were trained, each before its own update;
    * the evaluation schedule: every 100 updates; the official code evaluates at epochs that grow by 2 % (every
      epoch of 10 updates at first; near 10^6 updates, 10^5 epochs, every ~2,000 epochs);
    * numerics: our batched float32 kernels (PyTorch's fused AdamW, our attention and loss reductions) against
      PyTorch Lightning's loop over nn.Modules and its CustomAdamW; the same functions, other rounding. The loss is
      each equation's mean over its two target tokens, averaged over the batch: the official mean over the batch's
      tokens, summed in another order;
    * nothing of what the official code adds and the defaults turn off is here: dropout (--dropout 0), weight noise
      (--weight_noise 0), the annealed learning rate (off unless --anneal_lr), the noise and weight-decay forms of
      CustomAdamW (--noise_factor 0; weight decay 0 makes every form inert).

    Stored as ``power2022-fig1``: resumable, about 10^6 / (steps per second) of one CPU core."""
    return replace(IntroConfig(), model="grok_transformer", weight_decay=0.0, steps=1_000_000, eval_every=100,
                   n_seeds=2)


# the stored runs of this chapter: ``--run`` name -> (results-store label, config)
STORED_RUNS = {
    "addition": ("power2022", stored_paper_config),
    "division-wd1": ("power2022-division-wd1", lambda: division_config(1.0)),
    "division-wd0": ("power2022-division-wd0", lambda: division_config(0.0)),
    "fig1": ("power2022-fig1", fig1_config),
}


def stored_run(name: str) -> tuple[str, IntroConfig]:
    """(label, config) of the stored run ``name`` (a key of :data:`STORED_RUNS`)."""
    check_choice("run", name, tuple(STORED_RUNS))
    label, make = STORED_RUNS[name]
    return label, make()


def _snapshot_indices(steps: np.ndarray, n: int = 16) -> np.ndarray:
    """Indices of about ``n`` evaluation steps spread evenly in log(step), always with the first and last:
    the embedding snapshots a stored run keeps (all of them would be ~15 MB at paper scale)."""
    targets = np.geomspace(max(int(steps[1]), 1), int(steps[-1]), n - 1) if len(steps) > 1 else []
    picked = {0, len(steps) - 1} | {int(np.argmin(np.abs(steps - t))) for t in targets}
    return np.array(sorted(picked), dtype=np.int64)


def intro_to_arrays(result: IntroResult) -> dict[str, np.ndarray]:
    """The curves of every run and a log-spaced subset of its embedding snapshots, for the results store."""
    from repro.training.store import history_to_arrays

    arrays = {k: v for k, v in history_to_arrays(result.history).items() if not k.startswith(("param/", "extra/"))}
    if result.embeddings is not None:
        keep = _snapshot_indices(result.history.steps)
        arrays["embedding_steps"] = result.history.steps[keep]
        arrays["embeddings"] = result.embeddings[:, keep]
    return arrays


def intro_from_arrays(cfg: IntroConfig, arrays: dict[str, np.ndarray]) -> IntroResult:
    """The :class:`IntroResult` of :func:`intro_to_arrays` (the thresholds' first steps recomputed)."""
    from repro.training.store import history_from_arrays, required_arrays

    snapshots = ("embedding_steps", "embeddings") if cfg.records_embeddings else ()
    required_arrays(arrays, ("steps", *snapshots), "stored opening-chapter run")
    history = history_from_arrays({k: v for k, v in arrays.items() if k not in ("embedding_steps", "embeddings")})
    return IntroResult(cfg, history, arrays.get("embeddings"), history.first_step("train_acc", cfg.threshold),
                       history.first_step("val_acc", cfg.threshold), embedding_steps=arrays.get("embedding_steps"))


def stored_intro(cfg: IntroConfig, root, label: str = "power2022") -> tuple[IntroResult, dict] | None:
    """The stored run for exactly ``cfg`` under ``root`` (results-store ``label``) and its manifest, or None."""
    from repro.training.store import ResultsStore

    return ResultsStore(root).load_result(cfg, label, lambda arrays: intro_from_arrays(cfg, arrays))


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="power2022_what_is_grokking", rows=(
    StoredRun("Power et al.'s transformer and optimizer on modular addition (2-layer transformer, p = 97, half the ordered "
              "pairs, AdamW lr 1e-3, wd 1, β₂ 0.98, batch 512, no warm-up), one seed, 3·10⁴ steps", "--run addition",
              ("power2022",)),
    StoredRun("Fig. 1 as published: division x/y mod 97 (half of the 97·96 equations), the same transformer and optimizer "
              "with the 10-update warm-up, 10⁵ steps, seeds 0 and 1, weight decay 1; claims registered before the run; "
              "resumable", "--run division-wd1", ("power2022-division-wd1",)),
    StoredRun("the same at weight decay 0", "--run division-wd0", ("power2022-division-wd0",)),
    StoredRun("Fig. 1 as it was made: openai/grok's transformer, Adam without weight decay, 10⁶ steps, two seeds; claims "
              "registered before the run; resumable, its checkpoint committed", "--run fig1", ("power2022-fig1",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.power2022_what_is_grokking --store book/_results --run NAME``: train one stored
    run of this chapter and store its curves (and, on addition, embedding snapshots) with provenance.
    ``division-wd1`` / ``division-wd0``: Fig. 1 as published with weight decay 1 / 0 (two seeds, 10^5 steps;
    about 4.5 hours on one core each). ``addition``: their transformer on addition (one seed, 3·10^4 steps;
    about 45 minutes). ``fig1``: Fig. 1 as it was made (:func:`fig1_config`: openai/grok's transformer, Adam without
    weight decay, 10^6 steps, one seed; many hours on one core). Resumable: run the same command again after an
    interruption."""
    from repro.training.store import ResultsStore, add_checkpoint_option, checkpoint_every_s, store_parser

    parser = store_parser("repro.experiments.power2022_what_is_grokking", main.__doc__)
    parser.add_argument("--run", required=True, choices=tuple(STORED_RUNS), help="which stored run to train")
    add_checkpoint_option(parser)
    args = parser.parse_args(argv)
    label, cfg = stored_run(args.run)
    # resumable: an interrupted run continues from its last checkpoint when the command is run again
    ResultsStore(args.store).get_or_compute(
        cfg, lambda checkpoint: intro_to_arrays(run_intro(cfg, progress=True, checkpoint=checkpoint)),
        label=label, checkpoint_every_s=checkpoint_every_s(args))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())

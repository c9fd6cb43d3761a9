"""Omnigrok (Liu, Michaud, Tegmark, ICLR 2023) as shown in Z. Liu's 2023 talk: the LU mechanism.

Experiments of the chapter ``book/liu2023_omnigrok`` (Omnigrok §2–§5), each a frozen config whose defaults are
the paper's (or its official notebooks', KindXiaoming/Omnigrok) and whose ``for_scale()`` gives the book-scale
variant:

* :class:`TeacherStudentConfig` — 5-100-100-5 tanh teacher and student (Omnigrok §3, Fig. 2): the reduced
  landscape at fixed weight norm (:func:`run_landscape`) and grokking with a large init vs weight
  decay γ (:func:`run_teacher_student_grokking`).
* :class:`ImageConfig` — the MNIST MLP (784-200-200-10, MSE on one-hot; Omnigrok §4, Fig. 3), run on the
  offline substitute (scikit-learn digits) at book scale.
* :class:`ModularConfig` — modular addition: the weight norm of a free run with weight decay vs a run
  held at a fixed norm (Omnigrok §5.1, Fig. 7). Paper scale is the talk's p = 113 transformer; book
  scale the opening chapter's embeddings + MLP on p = 31, a stand-in.

All training goes through :func:`repro.training.trainer.train` (batched runs; ``fixed_norm`` projects a run back onto
its initial-norm sphere after every step, ``mse_threshold`` scores the teacher-student regression); the
full-batch MLP runs go through :func:`train_heldout_in_callback`, which trains on the training rows only and
evaluates the held-out rows at the evaluation steps (the same history, several times faster).
Equations: :mod:`repro.theory.omnigrok`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace

import numpy as np
import torch

from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_choice, check_fraction, check_int, check_real
from repro.data.datasets import image_task_data
from repro.data.tasks import BinaryOpTask, Split, TaskData, build_task_data
from repro.models.networks import EmbedMLPConfig, MLPConfig, TransformerConfig, build_model
from repro.theory.omnigrok import loglog_slope
from repro.training.store import (ResultsStore, add_checkpoint_option, checkpoint_every_s, history_from_arrays,
                                  history_to_arrays, store_parser)
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.trainer import (FlatParams, History, Performance, Record, TrainConfig, per_run_values,
                                    per_sample_correct, per_sample_loss, train)


def _alphas(lo: float, hi: float, n: int) -> tuple[float, ...]:
    return tuple(float(a) for a in 10 ** np.linspace(lo, hi, n))


def _seeds(first: int, n: int) -> list[int]:
    return [first + i for i in range(n)]


def median_steps(steps, never: int = -1) -> np.ndarray:
    """Median over seeds (axis 0) of first-crossing steps ``(S, K)``; a seed that never got there counts
    as +inf, and a median that is +inf (half or more of the seeds never) is returned as ``never``."""
    v = np.asarray(steps, dtype=float)
    med = np.median(np.where(v == never, np.inf, v), axis=0)
    return np.where(np.isfinite(med), med, never)


def seed_fraction(flags) -> float:
    """Fraction of seeds (entries) for which a per-seed verdict holds."""
    v = np.asarray(flags, dtype=bool).ravel()
    if v.size == 0:
        raise ValueError("seed_fraction: flags is empty; give one verdict per seed.")
    return float(v.mean())


def seed_slopes(result: "GrokResult") -> np.ndarray:
    """One log-log slope of steps-to-test vs gamma per seed (over that seed's sweep runs that
    generalized; nan with fewer than two)."""
    if result.seed_test_steps is None:
        return np.asarray([result.slope()[0]])
    g = np.asarray(result.gammas[: result.n_sweep], dtype=float)
    out = []
    for row in result.seed_test_steps[:, : result.n_sweep]:
        ok = row > 0
        out.append(loglog_slope(g[ok], row[ok].astype(float))[0] if ok.sum() >= 2 else float("nan"))
    return np.asarray(out)


def _check_positive_tuple(name, values):
    if not isinstance(values, tuple) or not values:
        raise ValueError(f"{name}={values!r} is not allowed: {name} must be a non-empty tuple of numbers > 0.")
    for v in values:
        check_real(name, v, positive=True)


def split_heldout(data: TaskData) -> tuple[TaskData, TaskData]:
    """The training rows and the held-out (validation) rows of ``data`` as two datasets, each with every
    row in its ``train_idx`` (the held-out one only ever evaluated). Rows keep their order in ``data``
    (sorted indices), so minibatches drawn over the training rows are the ones :func:`repro.training.trainer.train`
    draws over the full data. Raises if ``data`` has no held-out rows."""
    tr, va = np.sort(np.asarray(data.train_idx)), np.sort(np.asarray(data.val_idx))
    if len(va) == 0:
        raise ValueError("split_heldout: data.val_idx is empty; give a dataset with held-out (validation) rows.")

    def rows(idx, val_idx):
        t = torch.as_tensor(idx, dtype=torch.int64)
        return replace(data, inputs=data.inputs[t], labels=data.labels[t],
                       targets=None if data.targets is None else data.targets[t],
                       train_idx=np.arange(len(idx)), val_idx=val_idx, meta=dict(data.meta))

    return rows(tr, np.zeros(0, dtype=np.int64)), rows(va, np.zeros(0, dtype=np.int64))


def train_heldout_in_callback(model_config, data: TaskData, cfg: TrainConfig, runs=None, *,
                              mse_threshold: float | None = None, progress=None, desc: str = "training",
                              checkpoint=None, performance=None, components=()) -> History:
    """:func:`repro.training.trainer.train` on ``data``'s training rows only, the held-out rows evaluated at every
    evaluation step by a callback; returns the same history as ``train(model_config, data, ...)`` (up to
    float rounding): ``val_loss`` / ``val_acc`` per run and evaluation.

    Why: full-batch training of an :class:`MLPConfig` (autograd path) forwards and backpropagates every row
    of ``data`` at every step, held-out rows included (with zero loss weight). For the digits landscape
    (200 training, 1597 held-out images) that is 9x the work of a step; here the held-out rows cost a
    forward pass at the evaluation steps only. ``checkpoint``: as :class:`repro.training.trainer.Performance`'s (the
    callback keeps no state, so a resumed run is the same); ``performance``: as ``train``'s (how it runs, never what
    it computes); ``components``: as ``train``'s."""
    train_rows, held = split_heldout(data)
    held = held.to(device=cfg.torch_device, dtype=cfg.torch_dtype)
    model = build_model(model_config)

    def evaluate(step, views):
        with torch.no_grad():
            d = held
            out = model.forward(views, d.inputs)
            loss = per_sample_loss(out, d).double()
            correct = (loss < mse_threshold) if mse_threshold is not None else per_sample_correct(out, d)
            return {"val_loss": loss.mean(-1), "val_acc": correct.double().mean(-1)}

    h = train(model_config, train_rows, cfg, runs=runs, record=Record(callback=evaluate, mse_threshold=mse_threshold),
              components=components, performance=(performance or Performance()).but(progress=progress, desc=desc, checkpoint=checkpoint))
    metrics = dict(h.metrics)
    metrics["val_loss"] = h.extra["val_loss"]
    if "train_acc" in metrics:
        metrics["val_acc"] = h.extra["val_acc"]
    else:
        metrics.pop("val_acc", None)
    return History(steps=h.steps, metrics=metrics, extra={}, final_params=h.final_params, run_values=h.run_values)


# Seeds at book scale (one batched call per experiment; the chapter reports medians over them).
TS_BOOK_SEEDS = 5
IMAGE_BOOK_SEEDS = 5
MOD_BOOK_SEEDS = 5

# --------------------------------------------------------------------------------------------------
# Teacher-student (Omnigrok §3, Fig. 2; official teacher-student/ notebooks)


@dataclass(frozen=True, repr=False)
class TeacherStudentConfig(ConfigRepr):
    width: int = 100  # §3: 5-100-100-5 tanh MLPs
    d: int = 5  # input and output dimension
    n_train: int = 100  # §3: N_train = N_test = 100
    n_test: int = 100
    teacher_seed: int = 0  # §3: teacher at the standard init (alpha = 1); seed 0 as in the official notebooks
    # §3: "different seeds" (which ones is unstated; our choice); students use student_seed, student_seed + 1, ...
    student_seed: int = 1
    n_seeds: int = 1  # the paper trains one student; book scale trains several and reports medians
    data_seed: int = 0  # x ~ N(0, I_5)
    # (a) landscape, Fig. 2(a) (official teacher-student-landscape.ipynb): alpha in 10^linspace(-1, 1, 11), Adam lr
    # 3e-4 (§3), no decay, 10^4 steps (the notebook's; §3 says 10^5)
    alphas: tuple[float, ...] = _alphas(-1, 1, 11)
    landscape_lr: float = 3e-4
    landscape_steps: int = 10_000
    # (b, c) grokking, §3 and Fig. 2(b, c): alpha = 2 student, AdamW lr 3e-4, 10^5 steps, fine gamma sweep
    # in [0.03, 1]
    grok_alpha: float = 2.0
    gammas: tuple[float, ...] = _alphas(np.log10(0.03), 0.0, 8)
    control_alpha: float = 0.5  # §3, Fig. 2(b): alpha = 0.5 generalizes fast for every gamma
    grok_lr: float = 3e-4
    grok_steps: int = 100_000
    mse_threshold: float = 0.01  # §3: theta = 0.01 (official regression_grokking.ipynb: 0.001)
    level: float = 0.95  # §3, Fig. 2(c): steps to 95 % train / test accuracy
    eval_every: int = 100

    def __post_init__(self):
        for name in ("width", "d", "n_train", "n_test", "landscape_steps", "grok_steps", "eval_every", "n_seeds"):
            check_int(name, getattr(self, name), minimum=1)
        for name in ("teacher_seed", "student_seed", "data_seed"):
            check_int(name, getattr(self, name), minimum=0)
        _check_positive_tuple("alphas", self.alphas)
        _check_positive_tuple("gammas", self.gammas)
        for name in ("landscape_lr", "grok_alpha", "control_alpha", "grok_lr", "mse_threshold"):
            check_real(name, getattr(self, name), positive=True)
        check_fraction("level", self.level)

    @classmethod
    def book(cls) -> "TeacherStudentConfig":
        """The book-scale config (whatever ``REPRO_SCALE`` is): what :meth:`for_scale` gives at ``book``."""
        # Book: a larger lr shortens both phases (the landscape converges in 1.5k steps at lr 2e-3; the
        # grokking time ~ ln(w0/wc)/(lr*gamma) falls 3x with lr 1e-3 and gamma in [0.1, 0.8]).
        # 2500 grokking steps: in a side run every seed reached 95 % test at every gamma of the sweep by
        # step 2k (gamma = 0.1 the last), so each seed's 1/gamma slope is fitted on all four gammas, with a
        # margin for float rounding.
        return cls(landscape_lr=2e-3, landscape_steps=1500, gammas=(0.1, 0.2, 0.4, 0.8), grok_lr=1e-3,
                   grok_steps=2500, eval_every=10, n_seeds=TS_BOOK_SEEDS)

    @classmethod
    def for_scale(cls) -> "TeacherStudentConfig":
        book = cls.book()
        smoke = replace(book, alphas=_alphas(-1, 1, 3), landscape_steps=50, gammas=(0.4, 0.8), grok_steps=60, n_seeds=2)
        return by_scale(book=book, paper=cls(), smoke=smoke)

    @property
    def seeds(self) -> list[int]:
        return _seeds(self.student_seed, self.n_seeds)

    def model_config(self) -> MLPConfig:
        return MLPConfig(d_in=self.d, hidden=(self.width, self.width), d_out=self.d, activation="tanh")

    def task_data(self) -> TaskData:
        """x ~ N(0, I) (train then test), y = teacher(x) with the teacher at PyTorch's default init."""
        model = build_model(self.model_config())
        _, values = per_run_values(TrainConfig(init_seed=self.teacher_seed), None)
        teacher = FlatParams(model, values, torch.float32, "cpu")
        gen = torch.Generator().manual_seed(self.data_seed)
        n = self.n_train + self.n_test
        x = torch.randn(n, self.d, generator=gen)
        with torch.no_grad():
            y = model.forward(teacher.views(), x)[0]
        return TaskData(inputs=x, labels=torch.zeros(n, dtype=torch.int64), n_classes=1,
                        train_idx=np.arange(self.n_train), val_idx=np.arange(self.n_train, n), loss="mse",
                        targets=y, accuracy="none", meta={"task": "teacher-student"})


@dataclass
class LandscapeResult:
    """The reduced landscape; with several seeds the 1-D curves are medians over seeds (per alpha) and
    the ``seed_*`` arrays hold every seed, shape ``(S, A)``."""

    alphas: np.ndarray
    train_loss: np.ndarray  # reduced l~_train(alpha) at the end of constrained training (median over seeds)
    test_loss: np.ndarray
    train_acc: np.ndarray | None = None
    test_acc: np.ndarray | None = None
    history: History | None = None  # runs seed-major: run s * A + a
    seed_train_loss: np.ndarray | None = None  # (S, A)
    seed_test_loss: np.ndarray | None = None
    seed_train_acc: np.ndarray | None = None
    seed_test_acc: np.ndarray | None = None

    def seed_values(self, key: str, eval_index: int = -1) -> np.ndarray:
        """``(S, A)``: metric ``key`` of ``history`` (e.g. ``"train_loss"``) at evaluation ``eval_index``
        (default: the last) for every seed and alpha."""
        if self.history is None:
            raise ValueError("seed_values needs the landscape's history; this result was built without one.")
        return self.history[key][:, eval_index].reshape(-1, len(self.alphas))

    def lower_arm(self, eval_index: int = -1) -> np.ndarray:
        """``(S,)``: log10 of the largest train loss over the norms alpha >= 1 (the L's lower arm, which the
        official table gives as about 0) for every seed at evaluation ``eval_index``."""
        return np.log10(self.seed_values("train_loss", eval_index)[:, np.asarray(self.alphas) >= 1.0].max(axis=1))


def run_landscape(model_config, data: TaskData, alphas, cfg: TrainConfig, progress=None,
                  seeds=None, components=()) -> LandscapeResult:
    """Reduced landscape (B eq. 1): one norm-constrained run per alpha and seed (all parameters x alpha,
    norm held at that value), all batched; returns the final train and test loss (and accuracy) per
    alpha, as medians over ``seeds`` (default: ``cfg.init_seed`` alone). ``components``: as ``train``'s."""
    alphas = [float(a) for a in alphas]
    seeds = [cfg.init_seed] if seeds is None else [int(s) for s in seeds]
    n_a, n_s = len(alphas), len(seeds)
    h = train_heldout_in_callback(model_config, data, cfg, runs={
        "init_scale": alphas * n_s, "repr_init_scale": alphas * n_s, "init_seed": [s for s in seeds for _ in alphas],
        "fixed_norm": [True] * (n_a * n_s)}, progress=progress, desc="landscape", components=components)
    return landscape_result(alphas, n_s, h)


def landscape_result(alphas, n_seeds: int, h: History) -> LandscapeResult:
    """:func:`run_landscape`'s result from its history (runs seed-major), e.g. a stored one."""
    alphas = [float(a) for a in alphas]
    n_a, n_s = len(alphas), n_seeds
    acc = "train_acc" in h.metrics

    def per_seed(key):
        return h[key][:, -1].reshape(n_s, n_a)

    tl, vl = per_seed("train_loss"), per_seed("val_loss")
    ta, va = (per_seed("train_acc"), per_seed("val_acc")) if acc else (None, None)
    med = lambda x: None if x is None else np.median(x, axis=0)  # noqa: E731
    return LandscapeResult(np.asarray(alphas), med(tl), med(vl), med(ta), med(va), h, tl, vl, ta, va)


def teacher_student_landscape(cfg: TeacherStudentConfig, progress=None) -> LandscapeResult:
    # evaluated at the start, half way and at the end: the half-way point tells whether the reduced losses
    # have converged
    tc = TrainConfig(steps=cfg.landscape_steps, optimizer="adamw", lr_repr=cfg.landscape_lr, lr_dec=cfg.landscape_lr,
                     init_seed=cfg.student_seed, eval_every=max(1, cfg.landscape_steps // 2))
    return run_landscape(cfg.model_config(), cfg.task_data(), cfg.alphas, tc, progress, seeds=cfg.seeds)


@dataclass
class GrokResult:
    """Runs are K settings (``alphas[k]``, ``gammas[k]``) times S seeds, seed-major in ``history``
    (run ``s * K + k``, see :meth:`run`). ``train_steps`` / ``test_steps`` are per setting, the median
    over seeds (-1 where half or more of the seeds never got there); ``seed_*_steps`` are ``(S, K)``."""

    alphas: list
    gammas: list
    history: History
    train_steps: np.ndarray  # first step with train acc >= level (-1: never), median over seeds
    test_steps: np.ndarray
    n_sweep: int  # the first n_sweep settings are the gamma sweep at grok_alpha
    seed_train_steps: np.ndarray | None = None  # (S, K)
    seed_test_steps: np.ndarray | None = None

    def run(self, k: int, seed_index: int = 0) -> int:
        """Index into ``history`` of setting k for the seed_index-th seed."""
        return seed_index * len(self.alphas) + k

    def runs_of(self, k: int) -> list[int]:
        """Indices into ``history`` of setting k for every seed."""
        n_seeds = 1 if self.seed_test_steps is None else self.seed_test_steps.shape[0]
        return [self.run(k, s) for s in range(n_seeds)]

    def slope(self) -> tuple[float, float]:
        """Log-log slope of steps-to-test vs gamma over the sweep runs that generalized."""
        g = np.asarray(self.gammas[: self.n_sweep])
        t = self.test_steps[: self.n_sweep]
        ok = t > 0
        return loglog_slope(g[ok], t[ok])


def run_teacher_student_grokking(cfg: TeacherStudentConfig, progress=None) -> GrokResult:
    """Unconstrained AdamW: the gamma sweep at alpha = grok_alpha, then (grok_alpha, gamma = 0) and
    (control_alpha, gamma = 0) as controls (Omnigrok §3, Fig. 2(b, c)), for every student seed; all runs in one
    batch."""
    gammas = list(cfg.gammas) + [0.0, 0.0]
    alphas = [cfg.grok_alpha] * (len(cfg.gammas) + 1) + [cfg.control_alpha]
    seeds, k = cfg.seeds, len(gammas)
    tc = TrainConfig(steps=cfg.grok_steps, optimizer="adamw", lr_repr=cfg.grok_lr, lr_dec=cfg.grok_lr,
                     init_seed=cfg.student_seed, eval_every=cfg.eval_every)
    h = train_heldout_in_callback(cfg.model_config(), cfg.task_data(), tc,
                                  runs={"init_scale": alphas * len(seeds), "repr_init_scale": alphas * len(seeds),
                                        "wd_repr": gammas * len(seeds), "wd_dec": gammas * len(seeds),
                                        "init_seed": [s for s in seeds for _ in range(k)]},
                                  mse_threshold=cfg.mse_threshold, progress=progress, desc="teacher-student")
    return grok_result(cfg, h)


def grok_result(cfg: TeacherStudentConfig, h: History) -> GrokResult:
    """:func:`run_teacher_student_grokking`'s result from its history, e.g. a stored one."""
    gammas = list(cfg.gammas) + [0.0, 0.0]
    alphas = [cfg.grok_alpha] * (len(cfg.gammas) + 1) + [cfg.control_alpha]
    seeds, k = cfg.seeds, len(gammas)
    tr = h.first_step("train_acc", cfg.level).reshape(len(seeds), k)
    te = h.first_step("val_acc", cfg.level).reshape(len(seeds), k)
    return GrokResult(alphas, gammas, h, median_steps(tr), median_steps(te), len(cfg.gammas), tr, te)


# --------------------------------------------------------------------------------------------------
# Image classification (MNIST, or the offline digits substitute; Omnigrok §4, Fig. 3 and App. A)


@dataclass(frozen=True, repr=False)
class ImageConfig(ConfigRepr):
    source: str = "mnist"  # §4: MNIST; book scale: scikit-learn's 8x8 digits, an offline substitute (our choice)
    path: str | None = None  # directory with the four MNIST IDX files (paper scale)
    n_train: int = 1000  # §4: N = 1000 (official mnist-grokking.ipynb: the first 1000 training images)
    n_test: int | None = None  # all test images
    hidden: tuple[int, ...] = (200, 200)  # §4, App. A: depth-3 width-200 ReLU MLP (784-200-200-10)
    alpha: float = 8.0  # official mnist-grokking.ipynb: alpha = 8 (§4 says alpha > 1)
    lr: float = 1e-3  # App. A: AdamW lr 1e-3
    weight_decay: float = 0.01  # official mnist-grokking.ipynb
    batch_size: int | None = 200  # App. A
    steps: int = 100_000  # official mnist-grokking.ipynb
    dtype: str = "float64"  # official mnist-grokking.ipynb
    init_seed: int = 0  # official mnist-grokking.ipynb: seed 0; runs use seeds init_seed, init_seed + 1, ...
    n_seeds: int = 1  # the paper shows one run; book scale trains several and reports medians
    data_seed: int = 0  # 0 = the first n_train images, as the official Subset(train, range(1000))
    eval_every: int = 500
    # landscape, Fig. 3(a, b) (official mnist-landscape.ipynb): alpha in 10^linspace(-1, 1, 21), AdamW lr 1e-3 wd 0,
    # batch 100, 10^4 steps
    landscape_alphas: tuple[float, ...] = _alphas(-1, 1, 21)
    landscape_n_train: int = 1000  # one of the paper's 28 sizes (its grid spans 10 to 60000)
    landscape_lr: float = 1e-3
    landscape_batch_size: int | None = 100
    landscape_steps: int = 10_000

    def __post_init__(self):
        check_choice("source", self.source, ("digits", "mnist", "idx"))
        for name in ("n_train", "steps", "eval_every", "landscape_n_train", "landscape_steps", "n_seeds"):
            check_int(name, getattr(self, name), minimum=1)
        for name in ("alpha", "lr", "landscape_lr"):
            check_real(name, getattr(self, name), positive=True)
        check_real("weight_decay", self.weight_decay, nonnegative=True)
        _check_positive_tuple("landscape_alphas", self.landscape_alphas)
        check_choice("dtype", self.dtype, ("float32", "float64"))

    @classmethod
    def for_scale(cls) -> "ImageConfig":
        # Book: 8x8 digits (a substitute dataset); decay raised 30x so that ln(w0/wc)/(lr*gamma) fits in
        # 3k steps; the landscape on 200 images, full batch, 7 alphas.
        book = cls(source="digits", weight_decay=0.3, steps=3000, dtype="float32", eval_every=50,
                   landscape_alphas=_alphas(-1, 1, 7), landscape_n_train=200, landscape_lr=3e-3,
                   landscape_batch_size=None, landscape_steps=500, n_seeds=IMAGE_BOOK_SEEDS)
        smoke = replace(book, steps=40, eval_every=10, landscape_alphas=_alphas(-1, 1, 3), landscape_steps=20, n_seeds=2)
        return by_scale(book=book, paper=cls(path=os.environ.get("REPRO_MNIST_DIR")), smoke=smoke)

    def task_data(self, n_train: int | None = None) -> TaskData:
        return image_task_data(self.source, None if self.source == "digits" else self.path,
                               n_train=self.n_train if n_train is None else n_train, n_test=self.n_test,
                               data_seed=self.data_seed, loss="mse")

    def model_config(self, data: TaskData) -> MLPConfig:
        return MLPConfig(d_in=int(data.inputs.shape[1]), hidden=self.hidden, d_out=10, activation="relu")

    @property
    def seeds(self) -> list[int]:
        return _seeds(self.init_seed, self.n_seeds)

    @property
    def label(self) -> str:
        return {"digits": "8x8 digits (substitute dataset)", "idx": "IDX images (substitute dataset)", "mnist": "MNIST"}[self.source]


def image_landscape(cfg: ImageConfig, progress=None) -> LandscapeResult:
    data = cfg.task_data(cfg.landscape_n_train)
    tc = TrainConfig(steps=cfg.landscape_steps, lr_repr=cfg.landscape_lr, lr_dec=cfg.landscape_lr,
                     batch_size=cfg.landscape_batch_size, init_seed=cfg.init_seed, dtype=cfg.dtype,
                     eval_every=cfg.landscape_steps)
    return run_landscape(cfg.model_config(data), data, cfg.landscape_alphas, tc, progress, seeds=cfg.seeds)


def run_image_grokking(cfg: ImageConfig, progress=None) -> History:
    """Free AdamW runs at init alpha (all parameters x alpha), MSE on one-hot targets (Omnigrok §4), one
    per seed in ``cfg.seeds`` (run r = seed ``cfg.seeds[r]``), batched."""
    data = cfg.task_data()
    tc = TrainConfig(steps=cfg.steps, lr_repr=cfg.lr, lr_dec=cfg.lr, wd_repr=cfg.weight_decay, wd_dec=cfg.weight_decay,
                     init_scale=cfg.alpha, repr_init_scale=cfg.alpha, batch_size=cfg.batch_size,
                     init_seed=cfg.init_seed, dtype=cfg.dtype, eval_every=cfg.eval_every)
    return train(cfg.model_config(data), data, tc, runs={"init_seed": cfg.seeds},
                 performance=Performance(progress=progress, desc="image grokking"))


# --------------------------------------------------------------------------------------------------
# Modular addition (Omnigrok §5.1, Fig. 7; official mod-addition/grokking notebook)


@dataclass(frozen=True, repr=False)
class ModularConfig(ConfigRepr):
    """Modular addition, the talk's two runs (Omnigrok Fig. 7): (a) a free run from the standard init with
    weight decay and (b) a run started at ``constrained_alpha`` x the init and held at that norm (wd 0)."""

    p: int = 113  # official notebook (Omnigrok mod-addition/grokking): p = 113
    train_fraction: float = 0.3  # official notebook: 3830 of 12 769 pairs
    ordered_pairs: bool = True  # all 12 769 ordered pairs
    data_seed: int = 42  # official notebook (our split follows repro.data.tasks' RNG order, not torch.random_split)
    init_seed: int = 0  # runs use seeds init_seed, init_seed + 1, ...
    n_seeds: int = 1  # the talk shows one run per setting; book scale trains several, reports medians
    model: str = "transformer"  # official notebook: Nanda's 1 layer, d_model 128, 4 heads, d_mlp 512, no LayerNorm
    # official notebook: Nanda's init (TransformerConfig.init = "nanda"); "transformer_lens" for the first stored runs
    transformer_init: str = "nanda"
    lr: float = 1e-3  # official notebook
    beta2: float = 0.98  # official notebook: betas (0.9, 0.98)
    weight_decay: float = 1.0  # run (a): free, wd 1
    free_alpha: float = 1.0  # run (a) starts at the standard init
    constrained_alpha: float = 0.8  # run (b): alpha = 0.8, wd 0, norm held fixed
    steps: int = 15_000  # official notebook
    eval_every: int = 50
    level: float = 0.95
    dtype: str = "float64"  # official notebook

    def __post_init__(self):
        BinaryOpTask("modular_addition", self.p)
        check_fraction("train_fraction", self.train_fraction)
        check_choice("model", self.model, ("transformer", "embed_mlp"))
        check_choice("transformer_init", self.transformer_init, ("nanda", "transformer_lens"))
        for name in ("steps", "eval_every", "n_seeds"):
            check_int(name, getattr(self, name), minimum=1)
        for name in ("lr", "free_alpha", "constrained_alpha"):
            check_real(name, getattr(self, name), positive=True)
        check_real("weight_decay", self.weight_decay, nonnegative=True)
        check_fraction("level", self.level)

    @classmethod
    def for_scale(cls) -> "ModularConfig":
        # Book: the embeddings + MLP model of the opening chapter (p = 31, unordered pairs, 70 %, lr 3e-3,
        # betas (0.9, 0.98)); a transformer needs hours of CPU. The fixed norm, 1.1 x the initial norm, is
        # where the free run ends after grokking (its final norm / initial norm); in a short exploration
        # alpha <= 0.7 did not generalize in 3k steps, 1.0 and 1.25 were slower and >= 1.5 failed. 6k
        # steps, evaluated every 20: in 10k-step runs every seed of both settings reached 95 % validation by
        # about 4.6k and the free run's norm had settled by 4k (its final / peak and final / initial ratios
        # moved by < 0.01 from 6k to 10k).
        book = cls(p=31, train_fraction=0.7, ordered_pairs=False, data_seed=0, model="embed_mlp", lr=3e-3,
                   constrained_alpha=1.1, steps=6000, eval_every=20, dtype="float32", n_seeds=MOD_BOOK_SEEDS)
        return by_scale(book=book, paper=cls(), smoke=replace(book, steps=40, n_seeds=2))

    @property
    def seeds(self) -> list[int]:
        return _seeds(self.init_seed, self.n_seeds)

    def run_labels(self) -> list[str]:
        """One label per setting, in the order of :func:`run_modular`'s history."""
        return [f"free, alpha {self.free_alpha:g}, wd {self.weight_decay:g}",
                f"norm held at alpha {self.constrained_alpha:g}, wd 0"]

    def task_data(self) -> TaskData:
        data = build_task_data(BinaryOpTask("modular_addition", self.p, ordered=self.ordered_pairs),
                               Split(train_fraction=self.train_fraction, data_seed=self.data_seed))
        if self.model == "transformer":  # inputs "a b =": the '=' token is index p
            data.inputs = torch.cat([data.inputs, torch.full((data.n_samples, 1), self.p)], dim=1)
        return data

    def model_config(self):
        if self.model == "embed_mlp":  # the opening chapter's book-scale model (repro.experiments.power2022_what_is_grokking)
            return EmbedMLPConfig(n_symbols=self.p, d_embed=32, hidden=(128,), d_out=self.p, activation="relu",
                                  combine="sum", embed_init="normal")
        return TransformerConfig(d_vocab=self.p + 1, n_ctx=3, d_model=128, n_heads=4, d_head=32, d_mlp=512,
                                 n_layers=1, d_vocab_out=self.p, act_fn="relu", normalization_type=None,
                                 initializer_range=None, init=self.transformer_init)


@dataclass
class ModularResult:
    """The two settings (free, fixed norm; ``labels``) times S seeds, seed-major in ``history`` (run
    ``s * K + k``, :meth:`run`). ``train_steps`` / ``test_steps`` are per setting, the median over seeds
    (-1 where half or more of the seeds never got there); ``seed_*_steps`` are ``(S, K)``."""

    history: History
    labels: list[str]
    train_steps: np.ndarray  # first step at >= level train accuracy (-1: never), median over seeds
    test_steps: np.ndarray  # first step at >= level validation accuracy (-1: never), median over seeds
    seed_train_steps: np.ndarray | None = None  # (S, K)
    seed_test_steps: np.ndarray | None = None

    FREE, CONSTRAINED = 0, 1

    @property
    def n_seeds(self) -> int:
        return 1 if self.seed_test_steps is None else int(self.seed_test_steps.shape[0])

    def run(self, k: int, seed_index: int = 0) -> int:
        """Index into ``history`` of setting k for the seed_index-th seed."""
        return seed_index * len(self.labels) + k

    def runs_of(self, k: int) -> list[int]:
        return [self.run(k, s) for s in range(self.n_seeds)]

    def seed_delays(self, k: int) -> np.ndarray:
        """Per seed, steps from ``level`` train accuracy to ``level`` validation accuracy in setting k
        (the grokking delay); +inf for a seed that never reaches either."""
        tr = np.atleast_2d(self.seed_train_steps if self.seed_train_steps is not None else self.train_steps)[:, k]
        te = np.atleast_2d(self.seed_test_steps if self.seed_test_steps is not None else self.test_steps)[:, k]
        return np.where((tr >= 0) & (te >= 0), te - tr, np.inf).astype(float)

    def delay_ratio(self) -> float:
        """Median delay of the fixed-norm run / median delay of the free run (the talk: fixing the norm
        "almost eliminates grokking", a ratio near 0). nan if the free run's median delay is 0 or never."""
        free = float(np.median(self.seed_delays(self.FREE)))
        fixed = float(np.median(self.seed_delays(self.CONSTRAINED)))
        if not np.isfinite(free) or free <= 0:
            return float("nan")
        return fixed / free

    def loss_spikes(self, k: int | None = None, level: float = 0.95, factor: float = 10.0) -> list[np.ndarray]:
        """Per seed of setting k (default: the free run), the evaluation steps after the run first reaches ``level``
        validation accuracy at which the training loss jumps by more than ``factor`` since the previous evaluation
        (the float32 spikes after grokking that make a one-step snapshot of the norm noisy)."""
        k = self.FREE if k is None else k
        steps = np.asarray(self.history.steps)
        out = []
        for r in self.runs_of(k):
            loss = np.log10(np.asarray(self.history["train_loss"][r], dtype=float))
            val = np.asarray(self.history["val_acc"][r], dtype=float)
            reached = val >= level
            if not reached.any():
                out.append(np.array([], dtype=int))
                continue
            jump = np.flatnonzero((np.diff(loss) > np.log10(factor)) & (steps[1:] > steps[np.argmax(reached)])) + 1
            out.append(steps[jump])
        return out

    def norm_window(self, last_steps: int, k: int | None = None) -> np.ndarray:
        """``(S, 2)``: per seed of setting k (default: the free run), the smallest and largest weight norm / initial
        norm over the evaluations in the last ``last_steps`` steps: how far a one-step snapshot could move."""
        check_int("last_steps", last_steps, minimum=1)
        k = self.FREE if k is None else k
        steps = np.asarray(self.history.steps)
        w = np.asarray(self.history["weight_norm"][self.runs_of(k)], dtype=float)
        ratio = w[:, steps >= steps[-1] - last_steps] / w[:, :1]
        return np.stack([ratio.min(axis=1), ratio.max(axis=1)], axis=1)

    def norm_stats(self, k: int | None = None) -> dict[str, np.ndarray]:
        """Per seed of setting k (default: the free run), from its weight-norm curve: ``peak`` (max / initial),
        ``final`` (last / initial), ``fall`` (last / max) and ``val_at_peak`` (validation accuracy at the
        evaluation where the norm peaks)."""
        k = self.FREE if k is None else k
        r = self.runs_of(k)
        w = np.asarray(self.history["weight_norm"][r], dtype=float)
        i_peak = w.argmax(axis=1)
        val = np.asarray(self.history["val_acc"][r], dtype=float)
        return {"peak": w.max(axis=1) / w[:, 0], "final": w[:, -1] / w[:, 0], "fall": w[:, -1] / w.max(axis=1),
                "val_at_peak": val[np.arange(len(r)), i_peak]}


def run_modular(cfg: ModularConfig, progress=None, checkpoint=None) -> ModularResult:
    """Both settings of ``cfg.run_labels()`` for every seed of ``cfg.seeds``, in one batched call (resumable with a
    stored run's ``checkpoint``: :func:`main`)."""
    alphas = [cfg.free_alpha, cfg.constrained_alpha]
    wd = [cfg.weight_decay, 0.0]
    fixed = [False, True]
    seeds, k = cfg.seeds, len(alphas)
    tc = TrainConfig(steps=cfg.steps, lr_repr=cfg.lr, lr_dec=cfg.lr, beta2=cfg.beta2, init_seed=cfg.init_seed,
                     eval_every=cfg.eval_every, dtype=cfg.dtype)
    runs = {"init_scale": alphas * len(seeds), "repr_init_scale": alphas * len(seeds),
            "wd_repr": wd * len(seeds), "wd_dec": wd * len(seeds), "fixed_norm": fixed * len(seeds),
            "init_seed": [s for s in seeds for _ in range(k)]}
    # The embeddings + MLP model trains through repro.training.trainer.train's hand-written backward pass, which already
    # skips held-out rows. The transformer takes the autograd path, which would forward and backpropagate
    # all p^2 pairs at every step (3.3x the work at train fraction 0.3): train it on the training rows only
    # and evaluate the held-out rows at the evaluation steps.
    if cfg.model == "transformer":
        h = train_heldout_in_callback(cfg.model_config(), cfg.task_data(), tc, runs=runs, progress=progress,
                                      desc="modular addition", checkpoint=checkpoint)
    else:
        h = train(cfg.model_config(), cfg.task_data(), tc, runs=runs,
                  performance=Performance(progress=progress, desc="modular addition", checkpoint=checkpoint))
    return modular_result(cfg, h)


def modular_result(cfg: ModularConfig, h: History) -> ModularResult:
    """The :class:`ModularResult` of ``cfg``'s runs from their training history."""
    n_seeds, k = len(cfg.seeds), len(cfg.run_labels())
    tr = h.first_step("train_acc", cfg.level).reshape(n_seeds, k)
    te = h.first_step("val_acc", cfg.level).reshape(n_seeds, k)
    return ModularResult(h, cfg.run_labels(), median_steps(tr), median_steps(te), tr, te)


# The talk's transformer (Omnigrok Fig. 7, official mod-addition/grokking notebook), stored.
MODULAR_STORE_LABEL = "omnigrok-modular-transformer"
OFFICIAL_STORE_LABEL = "omnigrok-modular-p113"


def stored_modular_config() -> ModularConfig:
    """The first stored transformer runs: the official notebook's model, optimizer and split fraction at p = 59
    instead of 113, TransformerLens' init instead of the notebook's, in float32 instead of float64, 2 seeds,
    24 000 steps instead of 15 000. Why: on 2 CPU cores a float32 step of both settings costs about 0.30 s at
    p = 113 (training rows only; 15 000 steps = 75 min per seed) and float64 is 2.6x slower; p = 59 (1 044
    training pairs) costs 0.075 s. With fewer training pairs grokking comes later, so the runs go 1.6x past the
    notebook's 15 000 steps (the figure marks 15 000). The init was not the notebook's when they were made."""
    return ModularConfig(p=59, n_seeds=2, steps=24_000, dtype="float32", transformer_init="transformer_lens")


def official_modular_config() -> ModularConfig:
    """The talk's Fig. 7 at the official notebook's settings: p = 113, its model with its init (Nanda et al.'s
    transformer), split fraction, optimizer, 15 000 steps and both settings; float32 (the notebook: float64),
    two seeds, evaluated every 30 steps (the notebook's free run; its held run logs every 10). Float64 measured on
    one core (2026-12-02, :func:`run_modular` for 10 and 60 steps, one seed, both settings): 0.86 s a step against
    0.34 s in float32, so one float64 seed of the free run alone would take about 15,000 x 0.43 s = 1.8 hours."""
    return ModularConfig(n_seeds=2, dtype="float32", eval_every=30)


# Teacher-student (Omnigrok §3, Fig. 2) at the paper's and the official notebooks' settings, stored.
TS_LANDSCAPE_LABEL = "omnigrok-ts-landscape"
TS_GROK_LABEL = "omnigrok-ts-grokking"
TS_LANDSCAPE_EVAL = 10_000  # the official landscape notebook's whole budget: its table is read here


def stored_ts_config() -> TeacherStudentConfig:
    """Teacher-student at the settings of §3 and the official notebooks (:class:`TeacherStudentConfig`'s
    defaults: Adam / AdamW at lr 3e-4, the 11 norms of the landscape notebook, alpha = 2 against 8 decays in
    [0.03, 1] and both gamma = 0 controls, 10^5 grokking steps), three student seeds, and the landscape trained
    for §3's 10^5 steps, recorded every 10^4 (the notebook's budget) so both budgets come from one run. Our
    teacher and data draws are not the notebook's (see the chapter's setup table)."""
    return TeacherStudentConfig(n_seeds=3, landscape_steps=100_000)


def run_ts_landscape_stored(cfg: TeacherStudentConfig, progress=None) -> LandscapeResult:
    """:func:`teacher_student_landscape` evaluated every :data:`TS_LANDSCAPE_EVAL` steps."""
    tc = TrainConfig(steps=cfg.landscape_steps, optimizer="adamw", lr_repr=cfg.landscape_lr, lr_dec=cfg.landscape_lr,
                     init_seed=cfg.student_seed, eval_every=min(TS_LANDSCAPE_EVAL, cfg.landscape_steps))
    return run_landscape(cfg.model_config(), cfg.task_data(), cfg.alphas, tc, progress, seeds=cfg.seeds)


def stored_ts(cfg: TeacherStudentConfig, root) -> tuple[LandscapeResult, GrokResult, list[dict]] | None:
    """The stored landscape and grokking runs for exactly ``cfg`` under ``root`` and their two manifests, or
    None until both are stored."""
    store = ResultsStore(root)
    land, grok = store.load_if_stored(cfg, TS_LANDSCAPE_LABEL), store.load_if_stored(cfg, TS_GROK_LABEL)
    if land is None or grok is None:
        return None
    return (landscape_result(cfg.alphas, cfg.n_seeds, history_from_arrays(land[0])),
            grok_result(cfg, history_from_arrays(grok[0])), [land[1], grok[1]])


TS_SEEDS_LABEL = "omnigrok-ts-landscape-seeds"


def stored_ts_seeds_config() -> TeacherStudentConfig:
    """Six more student seeds (4-9) for the stored landscape of :func:`stored_ts_config`, the same teacher, data,
    norms, rate and 10^5 steps: the L's lower arm (its floor) differs by about a decade from seed to seed, so three
    seeds left its claims fragile. Only the landscape is run (``--run ts-seeds``); the chapter joins its seeds to
    the three of the first run."""
    return replace(stored_ts_config(), student_seed=4, n_seeds=6)


def stored_ts_landscape_seeds(root) -> tuple[LandscapeResult, dict] | None:
    """The landscape of :func:`stored_ts_seeds_config` under ``root`` and its manifest, or None until it is stored."""
    cfg = stored_ts_seeds_config()
    stored = ResultsStore(root).load_if_stored(cfg, TS_SEEDS_LABEL)
    if stored is None:
        return None
    return landscape_result(cfg.alphas, cfg.n_seeds, history_from_arrays(stored[0])), stored[1]


LOWER_ARM_LABEL = "omnigrok-ts-lower-arm"


def lower_arm_config() -> TeacherStudentConfig:
    """The L's lower arm at the official landscape notebook's settings (:func:`stored_ts_config`'s teacher, data,
    norms and lr 3e-4) for the notebook's own budget, 10^4 steps, with nine students that no run of the chapter
    used (seeds 2000-2008; the stored runs used 1-9, the book scale 1-5 and 1000-1004). Why: the first lower-arm
    claims compared with "below 1e-6", a misreading of the notebook's printed table (for alpha >= 1 it prints up to
    1e-6 at its last line and up to 4e-6 in its second half); the corrected comparisons were registered before this
    run, after the runs with students 1-9 had been seen."""
    return replace(stored_ts_config(), student_seed=2000, n_seeds=9, landscape_steps=TS_LANDSCAPE_EVAL)


def stored_ts_lower_arm(root) -> tuple[LandscapeResult, dict] | None:
    """The landscape of :func:`lower_arm_config` under ``root`` and its manifest, or None until it is stored."""
    cfg = lower_arm_config()
    stored = ResultsStore(root).load_if_stored(cfg, LOWER_ARM_LABEL)
    if stored is None:
        return None
    return landscape_result(cfg.alphas, cfg.n_seeds, history_from_arrays(stored[0])), stored[1]


def ts_book_statistics(cfg: TeacherStudentConfig, land: LandscapeResult | None = None,
                       grok: GrokResult | None = None) -> dict[str, tuple[float, np.ndarray | None]]:
    """The statistics the chapter claims on the book-scale teacher-student runs, as ``name -> (value, per-seed
    values)`` (``None``: no per-seed values), from the landscape ``land`` and/or the grokking runs ``grok`` of
    ``cfg`` (either may be omitted: the chapter computes the landscape's before the grokking runs are trained).
    One function for the live runs and their stored confirmation with fresh seeds (:func:`confirmation_config`),
    so that both are read the same way. Each value is the median of its per-seed values unless said otherwise.

    Landscape (per seed, from the final evaluation): ``ratio`` (test loss at alpha = 1 / the seed's best grid
    point), ``rise`` / ``rise10`` (decades of test loss from alpha = 1 to 3.98 / 10), ``fall01`` (from alpha = 0.1
    down to 1), ``top`` (log10 train MSE at alpha = 0.1, the L's upper arm), ``knee`` (at alpha = 0.25), ``floor``
    (log10 of the largest train MSE for alpha >= 1), ``top_drift`` (|change of ``top`` since the half-way
    evaluation|) and ``top_spread`` (the range of ``top`` over seeds; no per-seed values).
    Grokking: ``slope`` (per-seed log-log slopes of steps-to-test vs gamma), ``never`` (the fraction of seeds in
    which alpha = grok_alpha without decay reaches ``level`` test accuracy; per seed 1.0 or 0.0),
    ``plateau_acc`` (that run's final test accuracy), ``plateau_drift`` / ``sweep_drift`` (decades of test loss
    over the second half of the run without decay / at the sweep's first gamma) and ``ctrl_lag`` (the
    control_alpha run's steps from ``level`` train to ``level`` test accuracy; +inf for a seed that never
    generalizes)."""
    if land is None and grok is None:
        raise ValueError("ts_book_statistics: give land= (a landscape), grok= (grokking runs) or both.")
    out: dict[str, tuple[float, np.ndarray | None]] = {}

    def median(name, seeds):
        seeds = np.asarray(seeds, dtype=float)
        out[name] = (float(np.median(seeds)), seeds)

    if land is not None:
        a = np.asarray(land.alphas, dtype=float)
        i1 = int(np.argmin(abs(np.log10(a))))  # alpha = 1
        i4 = int(np.argmin(abs(a - 3.98)))  # the paper's alpha = 3.98 grid point
        i10, i025 = int(np.argmin(abs(a - 10.0))), int(np.argmin(abs(a - 0.251)))  # the official grid's 10 and 0.25
        s_tr, s_te = land.seed_train_loss, land.seed_test_loss
        seed_top = np.log10(s_tr[:, 0])
        median("ratio", s_te[:, i1] / s_te.min(axis=1))
        median("rise", np.log10(s_te[:, i4] / s_te[:, i1]))
        median("rise10", np.log10(s_te[:, i10] / s_te[:, i1]))
        median("fall01", np.log10(s_te[:, 0] / s_te[:, i1]))
        median("top", seed_top)
        median("knee", np.log10(s_tr[:, i025]))
        median("floor", np.log10(s_tr[:, a >= 1.0].max(axis=1)))
        median("top_drift", np.abs(seed_top - np.log10(land.seed_values("train_loss", -2)[:, 0])))
        out["top_spread"] = (float(np.ptp(seed_top)), None)
    if grok is not None:
        h, n_sw = grok.history, grok.n_sweep
        i_half = int(np.searchsorted(h.steps, cfg.grok_steps // 2))

        def second_half_decades(k):
            v = h["val_loss"][grok.runs_of(k)]
            return np.log10(v[:, -1] / v[:, i_half])

        median("slope", seed_slopes(grok))
        never = grok.seed_test_steps[:, n_sw] > 0  # per seed: grok_alpha, gamma = 0 reaches level test accuracy
        out["never"] = (seed_fraction(never), never.astype(float))
        median("plateau_acc", h["val_acc"][grok.runs_of(n_sw)][:, -1])
        median("plateau_drift", second_half_decades(n_sw))
        median("sweep_drift", second_half_decades(0))
        ctrl_tr, ctrl_te = grok.seed_train_steps[:, n_sw + 1], grok.seed_test_steps[:, n_sw + 1]
        median("ctrl_lag", np.where(ctrl_te > 0, ctrl_te - ctrl_tr, np.inf))
    return out


CONFIRM_LABEL = "omnigrok-confirm"


def confirmation_config() -> TeacherStudentConfig:
    """The book-scale teacher-student config (:meth:`TeacherStudentConfig.book`) with fresh student seeds 1000-1004.

    Why: the chapter's book-scale comparisons on the landscape and the grokking runs are trained live with
    students 1-5, which ran before their criteria were registered, so they are exploratory and decide no paper
    claim. Their copies registered for the stored run :data:`CONFIRM_LABEL` (sealed when it starts) judge the same
    statistics (:func:`ts_book_statistics`) on five students that no run of the chapter used (the live runs: 1-5;
    the stored runs at the official settings: 1-3 and 4-9); the teacher (seed 0), the data, the norms, rates,
    decays and steps are the book scale's."""
    return replace(TeacherStudentConfig.book(), student_seed=1000)


def confirmation_to_arrays(land: LandscapeResult, grok: GrokResult) -> dict[str, np.ndarray]:
    """The landscape's and the grokking runs' histories as one store entry (keys ``landscape/...``, ``grokking/...``)."""
    arrays = {f"landscape/{k}": v for k, v in history_to_arrays(land.history).items()}
    arrays.update({f"grokking/{k}": v for k, v in history_to_arrays(grok.history).items()})
    return arrays


def confirmation_from_arrays(cfg: TeacherStudentConfig, arrays: dict[str, np.ndarray]
                             ) -> tuple[LandscapeResult, GrokResult]:
    """:func:`confirmation_to_arrays`'s inverse: the landscape and grokking results of ``cfg``."""
    def part(prefix):
        return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}

    return (landscape_result(cfg.alphas, cfg.n_seeds, history_from_arrays(part("landscape/"))),
            grok_result(cfg, history_from_arrays(part("grokking/"))))


def run_confirmation(cfg: TeacherStudentConfig, progress=None) -> tuple[LandscapeResult, GrokResult]:
    """The chapter's two book-scale teacher-student experiments for ``cfg``: the landscape, then the grokking runs."""
    return teacher_student_landscape(cfg, progress), run_teacher_student_grokking(cfg, progress)


def stored_confirmation(root) -> tuple[LandscapeResult, GrokResult, dict] | None:
    """The stored confirmation (:func:`confirmation_config`, label :data:`CONFIRM_LABEL`) under ``root``: its
    landscape, grokking runs and manifest, or None until it is stored."""
    cfg = confirmation_config()
    stored = ResultsStore(root).load_if_stored(cfg, CONFIRM_LABEL)
    return None if stored is None else (*confirmation_from_arrays(cfg, stored[0]), stored[1])


# --run name -> (results-store label, config)
STORED_RUNS = {"p59": (MODULAR_STORE_LABEL, stored_modular_config),
               "p113": (OFFICIAL_STORE_LABEL, official_modular_config)}


def stored_modular(cfg: ModularConfig, root, label: str = MODULAR_STORE_LABEL) -> tuple[ModularResult, dict] | None:
    """The runs stored for exactly ``cfg`` under ``root`` (a :class:`repro.training.store.ResultsStore` folder) with
    their provenance manifest, or None when none is stored. The store verifies config and content."""
    stored = ResultsStore(root).load_if_stored(cfg, label)
    return None if stored is None else (modular_result(cfg, history_from_arrays(stored[0])), stored[1])


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2023_omnigrok", rows=(
    StoredRun("teacher–student at §3's and the official notebooks' settings (lr 3·10⁻⁴; landscape 11 norms × 3 seeds, "
              "10⁵ steps read at 10⁴ and 10⁵; grokking α = 2 against 8 decays and both controls × 3 seeds, 10⁵ steps); "
              "claims registered before the run", "--run ts", ("omnigrok-ts-landscape", "omnigrok-ts-grokking")),
    StoredRun("six more student seeds (4–9) of that landscape (same teacher, data, 11 norms), joined to its three; claims "
              "registered before the run", "--run ts-seeds", ("omnigrok-ts-landscape-seeds",)),
    StoredRun("the talk's Fig. 7 transformer, p = 59, TransformerLens' init (free and fixed-norm runs, 2 seeds, 24,000 "
              "steps, float32)", "", ("omnigrok-modular-transformer",)),
    StoredRun("the talk's Fig. 7 at the notebook's settings: p = 113, the notebook's init, 15,000 steps, 2 seeds, float32; "
              "claims registered before the run; resumable", "--run p113", ("omnigrok-modular-p113",)),
    StoredRun("the book-scale teacher–student runs on fresh student seeds; claims registered before the run",
              "--run confirm", ("omnigrok-confirm",)),
    StoredRun("the lower arm of L: nine fresh students (seeds 2000–2008) of the teacher–student landscape at α ≥ 1, 10⁴ "
              "steps; claims registered before the run", "--run lower-arm", ("omnigrok-ts-lower-arm",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2023_omnigrok --store book/_results [--run p59|p113|ts]``: train the talk's
    transformer runs (both settings, 2 seeds) and store them with provenance for the chapter. ``p59`` (default):
    :func:`stored_modular_config`, about an hour on 2 CPU cores; ``p113``: :func:`official_modular_config`, about
    2.5 hours. Resumable: run the same command again after an interruption. ``ts``: the teacher-student landscape
    and grokking runs of :func:`stored_ts_config` (two stored entries). ``confirm``: the book-scale teacher-student
    landscape and grokking runs with fresh seeds, :func:`confirmation_config` (one entry, a few minutes on one
    core)."""
    parser = store_parser("repro.experiments.liu2023_omnigrok", main.__doc__)
    parser.add_argument("--run", choices=(*STORED_RUNS, "ts", "ts-seeds", "lower-arm", "confirm"), default="p59",
                        help="which stored runs (default p59; ts: teacher-student, stored_ts_config; ts-seeds: six "
                             "more seeds of its landscape, stored_ts_seeds_config; lower-arm: nine fresh students "
                             "of that landscape for 10^4 steps, lower_arm_config; confirm: the book-scale "
                             "teacher-student runs with fresh seeds, confirmation_config)")
    parser.add_argument("--recompute", action="store_true", help="recompute even when a result is stored")
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    add_checkpoint_option(parser)
    args = parser.parse_args(argv)
    if args.run == "ts":
        cfg, store = stored_ts_config(), ResultsStore(args.store)
        for label, run in ((TS_LANDSCAPE_LABEL, run_ts_landscape_stored), (TS_GROK_LABEL, run_teacher_student_grokking)):
            _, manifest = store.get_or_compute(
                cfg, lambda run=run: history_to_arrays(run(cfg, progress=args.progress).history), label=label,
                recompute=args.recompute)
            print(f"stored at {store.path(cfg, label)} ({manifest['wall_time_s']} s)")
        return 0
    if args.run == "confirm":
        cfg, store = confirmation_config(), ResultsStore(args.store)
        _, manifest = store.get_or_compute(
            cfg, lambda: confirmation_to_arrays(*run_confirmation(cfg, progress=args.progress)), label=CONFIRM_LABEL,
            recompute=args.recompute)
        print(f"stored at {store.path(cfg, CONFIRM_LABEL)} ({manifest['wall_time_s']} s)")
        return 0
    if args.run in ("ts-seeds", "lower-arm"):
        make, label = ((stored_ts_seeds_config, TS_SEEDS_LABEL) if args.run == "ts-seeds"
                       else (lower_arm_config, LOWER_ARM_LABEL))
        cfg, store = make(), ResultsStore(args.store)
        _, manifest = store.get_or_compute(
            cfg, lambda: history_to_arrays(run_ts_landscape_stored(cfg, progress=args.progress).history),
            label=label, recompute=args.recompute)
        print(f"stored at {store.path(cfg, label)} ({manifest['wall_time_s']} s)")
        return 0
    label, make = STORED_RUNS[args.run]
    cfg, store = make(), ResultsStore(args.store)
    # resumable: an interrupted run continues from its last checkpoint when the command is run again
    _, manifest = store.get_or_compute(
        cfg, lambda checkpoint: history_to_arrays(run_modular(cfg, progress=args.progress, checkpoint=checkpoint).history),
        label=label, recompute=args.recompute, checkpoint_every_s=checkpoint_every_s(args))
    print(f"stored at {store.path(cfg, label)} ({manifest['wall_time_s']} s)")
    return 0


# --------------------------------------------------------------------------------------------------
# Figures


if __name__ == "__main__":
    raise SystemExit(main())

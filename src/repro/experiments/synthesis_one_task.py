"""The synthesis chapter, "One task, five theories" (``book/synthesis_one_task.ipynb``): every theory's prediction
judged on one set of grokking runs.

One task (modular addition, the task of Power et al. 2022 Fig. 1's family), one model family (two token embeddings
summed into a one-hidden-layer ReLU MLP: the toy model of Liu et al. 2022 §2 in the form of the opening chapter's
CPU scale), and one batched program over the knobs the theories speak about, in three slices:

* ``fraction`` — the training fraction (Liu et al. 2022 §3.2's critical fraction; Rubin et al.'s transition);
* ``norm`` — the initial weight norm α, free or held fixed (Omnigrok §2-3; Mohamadi et al.'s kernel regime);
* ``rates`` — the embedding and decoder learning rates η_enc, η_dec (GenEFT §5; Liu et al. 2022 §4).

Config defaults are the paper-scale sweep (p = 97 as in Power et al. Fig. 1, App. A.1's AdamW lr 1e-3, weight decay
1, β₂ 0.98; every other value is this chapter's choice and says so); ``for_scale()`` gives the book's p = 31 sweep.
Every run of all three slices trains in ONE :func:`repro.training.trainer.train` call: per-run init seeds, init
scales, fixed norms and learning rates, and per-run training masks for the fractions.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import torch

from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_fraction, check_int, check_prime, check_real
from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.metrics.representation import fourier_concentration
from repro.models.networks import EmbedMLPConfig, build_model
from repro.training.recorder import EvalSteps
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.sweep import split_masks
from repro.training.trainer import Performance, Record, TrainConfig, train

SLICES = ("fraction", "norm", "rates")
SPLIT_SEED_OFFSET = 1000  # run with init seed s draws its training set with seed 1000 + s


@dataclass(frozen=True, repr=False)
class SynthesisConfig(ConfigRepr):
    p: int = 97  # Power et al. 2022 Fig. 1: arithmetic mod 97 (the book scale takes 31)
    d_embed: int = 32  # ours (the opening chapter's CPU model); Liu et al. 2022's toy embeds in 1 dimension
    hidden: int = 128  # ours, as d_embed
    lr: float = 1e-3  # Power et al. App. A.1: AdamW, lr 1e-3
    weight_decay: float = 1.0  # Power et al. App. A.1: weight decay 1
    beta2: float = 0.98  # Power et al. App. A.1: betas (0.9, 0.98)
    steps: int = 30_000  # ours: ten times the book's, for a rate ten times smaller
    eval_every: int = 100  # ours
    # ours: the embeddings' Fourier concentration and the eNTK at the evaluations on multiples of this many steps
    snapshot_every: int = 1000
    threshold: float = 0.99  # "fits" / "generalizes" at 99 % accuracy (Power et al. §3.1.1)
    base_fraction: float = 0.5  # Power et al. Fig. 1: half the table trains (the norm and rate slices)
    fractions: tuple[float, ...] = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)  # ours: around the transition
    free_alphas: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)  # Omnigrok's α: every initial weight times α
    fixed_alphas: tuple[float, ...] = (0.5, 0.7, 1.0, 1.4, 2.0, 4.0)  # α of the runs whose norm is held (Omnigrok §2)
    rate_factors: tuple[float, ...] = (0.3, 1.0, 3.0)  # η_enc and η_dec of the rate slice, in units of lr
    seeds_fraction: int = 8
    seeds_norm: int = 6
    seeds_rates: int = 4
    first_seed: int = 100  # fresh seeds for the stored runs: the book's live run starts at 0
    ntk_points: int = 16  # pairs of the table the eNTK is taken on, drawn once with ntk_seed
    ntk_seed: int = 0

    def __post_init__(self):
        check_prime("p", self.p)
        for name in ("d_embed", "hidden", "steps", "eval_every", "snapshot_every", "ntk_points"):
            check_int(name, getattr(self, name), minimum=1)
        for name in ("seeds_fraction", "seeds_norm", "seeds_rates", "first_seed", "ntk_seed"):
            check_int(name, getattr(self, name), minimum=0)
        check_real("lr", self.lr, positive=True)
        check_real("weight_decay", self.weight_decay, nonnegative=True)
        check_fraction("threshold", self.threshold)
        check_fraction("base_fraction", self.base_fraction)
        for name in ("fractions", "free_alphas", "fixed_alphas", "rate_factors"):
            values = getattr(self, name)
            if not isinstance(values, tuple) or not values or any(not v > 0 for v in values):
                raise ValueError(f"{name}={values!r} is not allowed: a non-empty tuple of positive numbers.")
        for f in self.fractions:
            check_fraction("fractions", f)
        if self.ntk_points > self.n_pairs:
            raise ValueError(f"ntk_points={self.ntk_points} is not allowed: at most the {self.n_pairs} pairs of the table.")

    @classmethod
    def for_scale(cls) -> "SynthesisConfig":
        """Paper scale: the defaults. Book scale: p = 31 at lr 1e-2, ~4 min on one core. Smoke: seconds."""
        book = book_config()
        smoke = replace(book, p=7, steps=60, eval_every=10, snapshot_every=20, seeds_fraction=2, seeds_norm=2,
                        seeds_rates=1, fractions=(0.5, 0.8), free_alphas=(1.0, 2.0), fixed_alphas=(0.5, 1.0, 2.0),
                        rate_factors=(1.0, 3.0), ntk_points=4)
        return by_scale(book=book, paper=cls(), smoke=smoke)

    def live(self) -> "SynthesisConfig":
        """The chapter's own run: the same sweep on the seeds 0, 1, … (fewer of them), exploratory."""
        return replace(self, first_seed=0, seeds_fraction=min(self.seeds_fraction, 3),
                       seeds_norm=min(self.seeds_norm, 2), seeds_rates=min(self.seeds_rates, 2))

    @property
    def n_pairs(self) -> int:
        return self.p * (self.p + 1) // 2

    def task_data(self):
        return build_task_data(BinaryOpTask("modular_addition", self.p, ordered=False), Split(train_fraction=0.5))

    def model_config(self) -> EmbedMLPConfig:
        return EmbedMLPConfig(n_symbols=self.p, d_embed=self.d_embed, hidden=(self.hidden,), d_out=self.p,
                              activation="relu", combine="sum", embed_init="normal")

    def train_config(self) -> TrainConfig:
        return TrainConfig(steps=self.steps, optimizer="adamw", lr_repr=self.lr, lr_dec=self.lr,
                           wd_repr=self.weight_decay, wd_dec=self.weight_decay, beta2=self.beta2,
                           eval_every=self.eval_every, init_seed=self.first_seed)


@dataclass(frozen=True)
class RunSpec:
    """One run of the sweep: its slice and its knobs."""

    slice: str
    seed: int
    train_fraction: float
    alpha: float = 1.0
    fixed_norm: bool = False
    lr_enc: float = 1.0  # in units of the config's lr
    lr_dec: float = 1.0


def run_specs(cfg: SynthesisConfig) -> list[RunSpec]:
    """Every run of the three slices, each slice on its own seeds (so that no two runs share an init)."""
    specs, seed = [], cfg.first_seed
    for f in cfg.fractions:
        specs += [RunSpec("fraction", seed + s, f) for s in range(cfg.seeds_fraction)]
        seed += cfg.seeds_fraction
    for fixed, alphas in ((False, cfg.free_alphas), (True, cfg.fixed_alphas)):
        for a in alphas:
            specs += [RunSpec("norm", seed + s, cfg.base_fraction, a, fixed) for s in range(cfg.seeds_norm)]
            seed += cfg.seeds_norm
    for e in cfg.rate_factors:
        for d in cfg.rate_factors:
            specs += [RunSpec("rates", seed + s, cfg.base_fraction, lr_enc=e, lr_dec=d) for s in range(cfg.seeds_rates)]
            seed += cfg.seeds_rates
    return specs


def per_run(cfg: SynthesisConfig, specs: list[RunSpec]) -> tuple[dict[str, list], torch.Tensor]:
    """The trainer's per-run overrides and the (R, N) training masks of these runs."""
    runs = {"init_seed": [s.seed for s in specs], "init_scale": [s.alpha for s in specs],
            "repr_init_scale": [s.alpha for s in specs], "fixed_norm": [s.fixed_norm for s in specs],
            "lr_repr": [cfg.lr * s.lr_enc for s in specs], "lr_dec": [cfg.lr * s.lr_dec for s in specs]}
    train_mask, _ = split_masks(cfg.task_data(), [s.train_fraction for s in specs],
                                [SPLIT_SEED_OFFSET + s.seed for s in specs])
    return runs, train_mask


def ntk_indices(cfg: SynthesisConfig) -> np.ndarray:
    """The pairs of the table the eNTK is taken on (drawn once, the same for every run)."""
    return np.sort(np.random.RandomState(cfg.ntk_seed).choice(cfg.n_pairs, cfg.ntk_points, replace=False))


def snapshot_recorder(cfg: SynthesisConfig, model, ntk_x: torch.Tensor):
    """The callback of :func:`run`: at every evaluation of the first ``snapshot_every`` steps (where the runs fit),
    then every ``snapshot_every`` steps, each run's embedding Fourier concentration and
    its eNTK on ``ntk_x`` (the first logit's, as Mohamadi et al. Fig. 1, left). It keeps no state (resumable)."""
    from torch.func import vmap

    from repro.theory.mohamadi2024 import empirical_ntk

    def one_run(params: dict, x: torch.Tensor) -> torch.Tensor:
        return model.forward({k: v[None] for k, v in params.items()}, x)[0]

    def record(step, views):
        if step % cfg.snapshot_every and step > cfg.snapshot_every:
            return {}
        embed = views["embed"].detach()
        x = ntk_x.to(embed.device)
        # every run's kernel in one vmapped call: no Python loop over the runs (on a GPU, one launch sequence)
        kernels = vmap(lambda params: empirical_ntk(one_run, params, x))({k: v.detach() for k, v in views.items()})
        fourier = torch.as_tensor(fourier_concentration(embed.double().cpu().numpy()))
        return {"fourier": fourier, "ntk": kernels.double()}

    return record


@dataclass
class SynthesisResult:
    """Every run of the sweep: (R, T) curves at ``steps`` and (R, S) snapshots at ``snapshot_steps``."""

    config: SynthesisConfig
    specs: list[RunSpec]
    steps: np.ndarray
    train_acc: np.ndarray
    val_acc: np.ndarray
    weight_norm: np.ndarray
    snapshot_steps: np.ndarray
    fourier: np.ndarray  # (R, S) the embeddings' Fourier concentration
    ntk_change: np.ndarray  # (R, S) ‖Θ̂_t − Θ̂_0‖_F, raw (Mohamadi et al. Fig. 1, left)
    ntk_norm: np.ndarray  # (R, S) ‖Θ̂_t‖_F: the kernel's own size, which weight decay shrinks

    @property
    def fit_step(self) -> np.ndarray:
        from repro.core.crossings import first_step

        return first_step(self.steps, self.train_acc, self.config.threshold)

    @property
    def generalize_step(self) -> np.ndarray:
        from repro.core.crossings import first_step

        return first_step(self.steps, self.val_acc, self.config.threshold)

    def where(self, **knobs) -> np.ndarray:
        """Indices of the runs whose knobs have these values (``slice="norm", fixed_norm=True``)."""
        unknown = sorted(set(knobs) - set(RunSpec.__dataclass_fields__))
        if unknown:
            raise ValueError(f"{unknown} are not fields of a run; allowed: {', '.join(RunSpec.__dataclass_fields__)}.")
        return np.asarray([r for r, s in enumerate(self.specs) if all(getattr(s, k) == v for k, v in knobs.items())],
                          dtype=int)


def run(cfg: SynthesisConfig, progress: bool | None = None, checkpoint=None, block_runs: int | None = None) -> SynthesisResult:
    """Train every run of :func:`run_specs` in one batched call, recording curves and snapshots. ``block_runs``: runs
    per block on the CPU (:class:`~repro.training.trainer.Performance`): other blocks round the float32 products
    differently (in the last bits), so a stored sweep is trained, and rerun, with the blocks of its command."""
    specs = run_specs(cfg)
    data = cfg.task_data()
    model = build_model(cfg.model_config())
    runs, train_mask = per_run(cfg, specs)
    ntk_x = data.inputs[torch.as_tensor(ntk_indices(cfg))]
    history = train(cfg.model_config(), data, cfg.train_config(), runs=runs, split=(train_mask, ~train_mask),
                    record=Record(callback=snapshot_recorder(cfg, model, ntk_x)),
                    performance=Performance(block_runs=block_runs, progress=progress, desc="one task, five theories",
                                            checkpoint=checkpoint))
    kernels = history.extra["ntk"]
    change = np.linalg.norm((kernels - kernels[:, :1]).reshape(*kernels.shape[:2], -1), axis=-1)
    size = np.linalg.norm(kernels.reshape(*kernels.shape[:2], -1), axis=-1)
    snapshot_steps = history.extra_steps.get("fourier", history.steps)  # absent when every evaluation snapshots
    return SynthesisResult(cfg, specs, history.steps, history["train_acc"], history["val_acc"],
                           history["weight_norm"], snapshot_steps, history.extra["fourier"], change, size)


ARRAYS = ("steps", "train_acc", "val_acc", "weight_norm", "snapshot_steps", "fourier", "ntk_change", "ntk_norm")


def result_to_arrays(result: SynthesisResult) -> dict[str, np.ndarray]:
    arrays = {name: np.asarray(getattr(result, name)) for name in ARRAYS}
    for name in ("train_acc", "val_acc", "weight_norm", "fourier"):
        arrays[name] = arrays[name].astype(np.float32)  # what the claims read, at a tenth of the store's size
    return arrays


def result_from_arrays(cfg: SynthesisConfig, arrays: dict[str, np.ndarray]) -> SynthesisResult:
    from repro.training.store import required_arrays

    a = required_arrays(arrays, ARRAYS, "stored synthesis sweep")
    planned = run_specs(cfg)
    if a["train_acc"].shape[0] != len(planned):
        raise ValueError(f"stored synthesis sweep has {a['train_acc'].shape[0]} runs; this config has {len(planned)}.")
    return SynthesisResult(cfg, planned, **{k: np.asarray(a[k], dtype=np.float64) if k != "steps" and k != "snapshot_steps"
                                           else np.asarray(a[k]) for k in ARRAYS})


LABEL = "synthesis"
CONFIRM_LABEL = "synthesis-confirm"


def stored_result(cfg: SynthesisConfig, root, label: str = LABEL) -> tuple[SynthesisResult, dict] | None:
    """The stored sweep for exactly ``cfg`` under ``root`` (results-store ``label``) and its manifest, or None."""
    from repro.training.store import ResultsStore

    return ResultsStore(root).load_result(cfg, label, lambda arrays: result_from_arrays(cfg, arrays))


def book_config() -> SynthesisConfig:
    """The book scale: p = 31 at lr 1e-2 and 70 % of the table, which grok within 3,000 full-batch steps."""
    return SynthesisConfig(p=31, lr=1e-2, steps=3000, eval_every=20, snapshot_every=100, base_fraction=0.7)


def confirm_config(cfg: SynthesisConfig) -> SynthesisConfig:
    """The second sweep: the same on fresh seeds (from 1000), for the predictions registered after the first was
    seen (an independent reading's)."""
    return replace(cfg, first_seed=1000)


# The paper-scale sweep (about 12 core-hours) trains in blocks of this many runs, one after another on one thread: a
# checkpoint then holds one block's parameters and Adam moments (about 3 MB at p = 97), small enough to commit between
# sittings, and the finished blocks keep only their histories. The checkpoint keeps the blocks, so a resumed sweep
# equals an uninterrupted one bit for bit.
PAPER_BLOCK_RUNS = 12

# --run NAME -> its config and its results-store label
STORED_RUNS = {"book": (book_config, LABEL), "confirm": (lambda: confirm_config(book_config()), CONFIRM_LABEL),
               "paper": (SynthesisConfig, LABEL)}


def main(argv=None) -> int:
    """``python -m repro.experiments.synthesis_one_task --store book/_results --run book|paper``: train the stored
    sweep (fresh seeds 100, 101, …; its claims registered and sealed before it starts) and store it with provenance.
    ``book``: p = 31, about 8 minutes on one thread; ``confirm``: the same on seeds 1000, 1001, …; ``paper``: p = 97,
    about 12 core-hours (the cost table). Resumable."""
    from repro.training.store import ResultsStore, add_checkpoint_option, checkpoint_every_s, store_parser

    parser = store_parser("repro.experiments.synthesis_one_task", main.__doc__)
    parser.add_argument("--run", required=True, choices=tuple(STORED_RUNS), help="which stored sweep to train")
    add_checkpoint_option(parser)
    args = parser.parse_args(argv)
    make, label = STORED_RUNS[args.run]
    cfg = make()
    ResultsStore(args.store).get_or_compute(
        cfg, lambda checkpoint: result_to_arrays(run(cfg, progress=True, checkpoint=checkpoint,
                                                     block_runs=PAPER_BLOCK_RUNS if args.run == "paper" else None)),
        label=label, checkpoint_every_s=checkpoint_every_s(args))
    return 0


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="synthesis_one_task", rows=(
    StoredRun("the book-scale sweep on fresh seeds: p = 31, 70 % of the table (the norm and rate slices), AdamW lr "
              "1e-2, wd 1, 3,000 full-batch steps; 144 runs in one batched call; claims registered before the run",
              "--run book", (LABEL,), config_fields=(("p", 31),)),
    StoredRun("the same sweep on fresh seeds (1000, 1001, …), for the four predictions registered after an independent "
              "reading of the first; claims registered before the run", "--run confirm", (CONFIRM_LABEL,)),
    StoredRun("the paper-scale sweep: p = 97, half the table (the norm and rate slices), AdamW lr 1e-3, wd 1, 30,000 "
              "full-batch steps; the same 144 runs on the same seeds, in blocks of 12 (committable checkpoints); "
              "T01-T10 sealed before it started", "--run paper", (LABEL,), config_fields=(("p", 97),)),
))


if __name__ == "__main__":
    import sys

    sys.exit(main())

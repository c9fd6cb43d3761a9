"""Appendix H of Liu et al. 2022: the permutation group S3 (Figs 17 and 18).

Used by ``book/liu2022_effective_theory``. Each of the 6 elements of S3 gets a learnable 3x3 matrix; the
decoder (tanh 9-200-200-30, MSE on random 30-d templates) reads the product E_a E_b, so a faithful matrix
representation of the group generalizes by construction (App. H.1). The runs follow the official notebook
``toy/Figure5d_permutation.ipynb`` of ejmichaud/grokking-squared (its Fig. 6(d) model): latent init
U[-0.05, 0.05], AdamW with lr 1e-3 and no decay on the matrices, the extra loss 1e-3 mean|E|, RQI on
RMS-normalised matrices with tolerance 0.5. The generalised parallelograms and the RQI live in
:mod:`repro.theory.liu2022`.

Like the fraction sweep of the addition toy (:mod:`repro.experiments.liu2022_critical_data`), every (training
count, seed) pair trains in one batched program. Two random-number orders (``S3Config.rng_order``):
"shared_templates", the book's first order (the seed draws the split and our trainer's initialization, the templates
are shared), and "official", the notebook's: run (count, seed) draws its templates and split from
``np.random.seed(seed)`` (:func:`repro.data.tasks.toy_runs`) and its initial decoder and matrices from
``torch.manual_seed(seed)`` in the notebook's order, unused encoder included
(:func:`repro.experiments.liu2022_phase_diagrams_s3_official.official_init_params`), so it starts where the
notebook's run of that seed with that many training samples starts.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import torch

from repro.core.crossings import first_step
from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_int, check_real
from repro.data.tasks import BinaryOpTask, Split, build_task_data, toy_runs
from repro.metrics.representation import pca
from repro.models.networks import EmbedMLPConfig
from repro.theory import liu2022 as theory
from repro.training.store import ResultsStore, required_arrays, result_arrays, store_parser
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.sweep import split_masks
from repro.training.trainer import InitialParams, Performance, Record, TrainConfig, train

N_SAMPLES = 36  # 6 x 6 ordered pairs of S3 elements (App. H.2)
RNG_ORDERS = ("shared_templates", "official")


@dataclass(frozen=True, repr=False)
class S3Config(ConfigRepr):
    """Fig. 18's fraction sweep. Defaults are the paper's / official notebook's values."""

    train_counts: tuple[int, ...] = (6, 9, 12, 15, 18, 21, 24, 27, 30, 33)  # unstated in the paper; our choice
    seeds: tuple[int, ...] = tuple(range(11))  # App. H.2: "we run 11 random seeds"
    steps: int = 10_000  # unstated in the paper; our choice
    lr_repr: float = 1e-3  # official notebook: eta1 = 1e-3, wd1 = 0 on the matrices
    lr_dec: float = 1e-4  # unstated for Fig. 18; our choice (comprehension at wd 0 in the official Fig. 6(d) map)
    wd_dec: float = 0.0
    init_scale: float = 0.1  # official notebook: (rand(6, 9) - 1/2) * 0.1
    embed_l1: float = 1e-3  # official notebook: lamb * mean|latent|, lamb = 1e-3 (not in the paper)
    template_seed: int = 0  # official notebook: seed 0 (templates N(0, 1), 6 x 30)
    rqi_delta: float = 0.5  # official notebook: mean((E_aE_b - E_cE_d)^2) < 0.5 on RMS-normalised matrices
    rqi_threshold: float = 0.95  # App. H.2 / official notebook: steps to RQI > 0.95
    eval_every: int = 1  # the official notebook evaluates every step
    # "shared_templates": the order of the book-scale sweep and of the first stored sweep (which is why it stays the
    # default: their stored results keep their meaning); "official": each run is the notebook's run of its seed
    rng_order: str = "shared_templates"
    # seeds are grouped into consecutive sets of this size for the spread of r_c over seed sets (App. H.2 runs 11
    # seeds per fraction: one set of 11 is one paper-sized Fig. 18); 0: one set of all seeds
    seed_set_size: int = 0

    def __post_init__(self):
        if self.rng_order not in RNG_ORDERS:
            raise ValueError(f"rng_order={self.rng_order!r} is not allowed: choose among {', '.join(RNG_ORDERS)}.")
        check_int("seed_set_size", self.seed_set_size, minimum=0)
        if self.seed_set_size and len(self.seeds) % self.seed_set_size:
            raise ValueError(f"seed_set_size={self.seed_set_size} must divide the number of seeds ({len(self.seeds)}).")
        if not self.train_counts or any(not isinstance(n, int) or not 1 <= n < N_SAMPLES for n in self.train_counts):
            raise ValueError(f"train_counts={self.train_counts!r} is not allowed: each must be an int in 1..{N_SAMPLES - 1}.")
        if not self.seeds:
            raise ValueError("seeds must not be empty.")
        for s in self.seeds:
            check_int("seeds", s, minimum=0)
        for name in ("steps", "eval_every"):
            check_int(name, getattr(self, name), minimum=1)
        for name in ("lr_repr", "lr_dec", "init_scale", "rqi_delta"):
            check_real(name, getattr(self, name), positive=True)
        for name in ("wd_dec", "embed_l1"):
            check_real(name, getattr(self, name), nonnegative=True)
        check_int("template_seed", self.template_seed, minimum=0)
        check_real("rqi_threshold", self.rqi_threshold, positive=True)

    @classmethod
    def for_scale(cls) -> "S3Config":
        # Book scale: 5 fractions x 8 seeds for 3000 steps, and the matrices' lr x3 so that the L1 term
        # and the parallelogram structure settle within that budget (at lr 1e-3 and 2000-6000 steps the
        # successes were the same seeds, later). Metrics every 50 steps.
        book = cls(train_counts=(12, 18, 24, 30, 33), seeds=tuple(range(8)), steps=3000, lr_repr=3e-3, eval_every=50)
        smoke = cls(train_counts=(18, 30), seeds=(0, 1), steps=200, lr_repr=3e-3, eval_every=50)
        return by_scale(book=book, paper=cls(), smoke=smoke)

    def model_config(self) -> EmbedMLPConfig:
        return EmbedMLPConfig(n_symbols=6, d_embed=9, combine="matmul", d_out=30)

    def train_config(self) -> TrainConfig:
        return TrainConfig(steps=self.steps, lr_repr=self.lr_repr, lr_dec=self.lr_dec, wd_dec=self.wd_dec,
                           repr_init_scale=self.init_scale, embed_l1=self.embed_l1, eval_every=self.eval_every)


@dataclass
class S3Sweep:
    """One network per (training count, seed): RQI, accuracies and the final matrices."""

    config: S3Config
    counts: np.ndarray  # (R,)
    seeds: np.ndarray  # (R,)
    final_rqi: np.ndarray  # (R,)
    rqi_step: np.ndarray  # (R,) first evaluation step with RQI > threshold; -1 if never
    accuracy: np.ndarray  # (R,) final accuracy on all 36 samples
    val_accuracy: np.ndarray  # (R,) final accuracy on the held-out samples
    predicted_accuracy: np.ndarray  # (R,) Acc-hat of the final matrices
    embeddings: np.ndarray  # (R, 6, 9) final matrices, flattened

    ARRAYS = ("counts", "seeds", "final_rqi", "rqi_step", "accuracy", "val_accuracy", "predicted_accuracy", "embeddings")

    @property
    def fractions(self) -> np.ndarray:
        return self.counts / N_SAMPLES

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The numeric results, for :class:`repro.training.store.ResultsStore`."""
        return result_arrays(self, self.ARRAYS)

    @classmethod
    def from_arrays(cls, config: S3Config, arrays: dict[str, np.ndarray]) -> "S3Sweep":
        return cls(config=config, **required_arrays(arrays, cls.ARRAYS, "stored S3 sweep"))

    def best_rqi(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted counts, highest final RQI over seeds) — Fig. 18a's blue line."""
        u = np.unique(self.counts)
        return u, np.array([self.final_rqi[self.counts == n].max() for n in u])

    def fastest_rqi_step(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted counts, fewest steps to RQI > threshold over seeds, -1 if none) — Fig. 18b's blue line."""
        u, out = np.unique(self.counts), []
        for n in u:
            s = self.rqi_step[self.counts == n]
            out.append(s[s >= 0].min() if (s >= 0).any() else -1)
        return u, np.asarray(out)

    def critical_fraction(self) -> float:
        """The smallest training fraction at which some seed reaches RQI > threshold within the budget
        (Fig. 18b's transition); nan if none does."""
        u, fastest = self.fastest_rqi_step()
        ok = fastest >= 0
        return float(u[ok].min() / N_SAMPLES) if ok.any() else float("nan")

    def critical_fraction_by_set(self) -> np.ndarray:
        """:meth:`critical_fraction` of each consecutive set of ``config.seed_set_size`` seeds (the seeds in the
        config's order; one set of all seeds when the size is 0): how much r_c moves from one paper-sized set of seeds
        to another. nan for a set in which no seed reaches the threshold."""
        seeds = list(self.config.seeds)
        size = self.config.seed_set_size or len(seeds)
        out = []
        for k in range(0, len(seeds), size):
            keep = np.isin(self.seeds, seeds[k : k + size])
            ok = keep & (self.rqi_step >= 0)
            out.append(float(self.counts[ok].min() / N_SAMPLES) if ok.any() else float("nan"))
        return np.asarray(out)

    def best_run(self) -> int:
        """The run with the highest final RQI (ties: fewer training samples first, then the lower seed)."""
        order = np.lexsort((self.seeds, self.counts, -self.final_rqi))
        return int(order[0])


def hexagon_shape(embeddings, components: tuple[int, int] = (0, 2)) -> tuple[float, float]:
    """How close the six matrices, projected on two principal components (default PC1 and PC3, the plane
    of Fig. 17), are to a regular hexagon around their centre: (largest deviation of the six angular gaps
    from 60 degrees, in degrees; smallest over largest distance from the centre). A regular hexagon
    gives (0, 1)."""
    proj, _ = pca(np.asarray(embeddings, dtype=np.float64).reshape(6, -1))
    pts = proj[:, list(components)]
    angles = np.sort(np.arctan2(pts[:, 1], pts[:, 0]))
    gaps = np.degrees(np.diff(np.r_[angles, angles[0] + 2 * np.pi]))
    radii = np.linalg.norm(pts, axis=1)
    return float(np.abs(gaps - 60).max()), float(radii.min() / radii.max())


def run_s3_sweep(cfg: S3Config, progress: bool | None = None) -> S3Sweep:
    """Train every (count, seed) pair as one batched program. The RQI is computed at every evaluation
    step from the current matrices (not stored: at the paper's settings that history would be 10^6
    matrices); the final matrices are kept."""
    counts = [n for n in cfg.train_counts for _ in cfg.seeds]
    seeds = [s for _ in cfg.train_counts for s in cfg.seeds]
    init = None
    if cfg.rng_order == "official":
        # imported here: that module is the Fig. 6(d) experiment's, and only this order needs its initial draws
        from repro.experiments.liu2022_phase_diagrams_s3_official import official_init_params

        # the notebook trains full batch: its per-step permutation of the training rows only reorders a sum
        runs = toy_runs(BinaryOpTask("s3"), counts, seeds, target_dim=cfg.model_config().d_out)
        data, train_mask = runs.data, runs.train_mask
        val_mask = ~train_mask
        per_run = [official_init_params(s) for s in sorted(set(seeds))]
        by_seed = dict(zip(sorted(set(seeds)), per_run))
        init = {name: torch.stack([by_seed[s][name] for s in seeds]) for name in per_run[0]}
    else:
        data = build_task_data(BinaryOpTask("s3"), Split(train_count=24, data_seed=cfg.template_seed),
                               target="regression")
        train_mask, val_mask = split_masks(data, [n / N_SAMPLES for n in counts], seeds)
    if not (train_mask.sum(1).numpy() == np.asarray(counts)).all():
        raise RuntimeError("split_masks did not draw the requested training counts.")
    rqi_of = lambda step, params: {"rqi": torch.as_tensor(theory.s3_rqi(params["embed"].detach().double().cpu().numpy(),
                                                                      None, cfg.rqi_delta))}
    history = train(cfg.model_config(), data, cfg.train_config(), runs={"init_seed": seeds},
                    split=(train_mask, val_mask), record=Record(callback=rqi_of, keep_final_params=True),
                    components=(InitialParams(init),),
                    performance=Performance(progress=progress, desc="S3 fraction sweep"))
    rqi = history.extra["rqi"]  # (R, T)
    emb = history.final_params["embed"].reshape(len(counts), 6, 9)
    n_train = np.asarray(counts)
    acc = (history["train_acc"][:, -1] * n_train + history["val_acc"][:, -1] * (N_SAMPLES - n_train)) / N_SAMPLES
    inputs = data.inputs.numpy()
    acc_hat = np.array([theory.s3_predicted_accuracy(emb[r], inputs[train_mask[r].numpy()].tolist(), cfg.rqi_delta)
                        for r in range(len(counts))])
    return S3Sweep(config=cfg, counts=n_train, seeds=np.asarray(seeds), final_rqi=rqi[:, -1],
                   rqi_step=first_step(history.steps, rqi, cfg.rqi_threshold, strict=True),
                   accuracy=acc, val_accuracy=history["val_acc"][:, -1], predicted_accuracy=acc_hat, embeddings=emb)


SWEEP_LABEL = "s3-sweep"  # the stored sweep in the shared-templates order
OFFICIAL_ORDER_LABEL = "s3-official-order"  # the stored seed sets in the notebook's order


def official_order_config() -> S3Config:
    """Fig. 18 from the notebook's starts, four paper-sized sets of 11 seeds (seeds 0-43): the spread of r_c over seed
    sets. Metrics every 10 steps (the notebook: every step), which rounds a step to RQI > 0.95 up to a multiple of 10
    and does not change whether a run reaches it within the budget, all that r_c reads."""
    return S3Config(seeds=tuple(range(44)), seed_set_size=11, rng_order="official", eval_every=10)


def label_of(cfg: S3Config) -> str:
    return OFFICIAL_ORDER_LABEL if cfg.rng_order == "official" else SWEEP_LABEL


def stored_s3_sweep(cfg: S3Config, root) -> tuple[S3Sweep, dict] | None:
    """The sweep stored for exactly ``cfg`` under ``root`` (a :class:`repro.training.store.ResultsStore` folder) and
    its provenance manifest, or None when none is stored. The store verifies config and content."""
    return ResultsStore(root).load_result(cfg, label_of(cfg), lambda arrays: S3Sweep.from_arrays(cfg, arrays))


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2022_effective_theory", rows=(
    StoredRun("S3 fraction sweep (App. H: 110 runs × 10⁴ steps)", "", ("s3-sweep",)),
    StoredRun("Fig. 18 from the official notebook's starts (each run drawn as `toy/Figure5d_permutation.ipynb` draws its "
              "seed's run): 10 fractions × seeds 0–43 in four sets of 11, 10⁴ steps; claims registered before the run",
              "--official-order", ("s3-official-order",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2022_effective_theory_s3 --store book/_results``: run the paper-scale sweep (10
    counts x 11 seeds x 10^4 steps = 1.1 x 10^6 run-steps, 16 min) and store it with provenance for the chapter;
    ``--official-order``: the four seed sets from the notebook's starts (:func:`official_order_config`, 4.4 x 10^6
    run-steps, about an hour on one core)."""
    parser = store_parser("repro.experiments.liu2022_effective_theory_s3", main.__doc__)
    parser.add_argument("--official-order", action="store_true",
                        help="the notebook's random-number order, seeds 0-43 in four sets of 11 (official_order_config)")
    args = parser.parse_args(argv)
    cfg = official_order_config() if args.official_order else S3Config()
    ResultsStore(args.store).get_or_compute(cfg, lambda: run_s3_sweep(cfg).to_arrays(), label=label_of(cfg))
    return 0


if __name__ == "__main__":
    sys.exit(main())

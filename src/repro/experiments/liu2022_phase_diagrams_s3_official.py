"""The official initial state of Liu et al. 2022's S3 toy (Fig. 6(d), App. H), seed by seed, in our layout.

The official S3 runs (ejmichaud/grokking-squared, ``toy/Figure5d_permutation.ipynb``, function ``train``)
draw their random numbers in this order, for a seed s:

1. ``np.random.seed(s)`` and ``torch.manual_seed(s)``.
2. numpy: the regression templates, N(0, 1) of shape (6, 30) (float64, then cast to float32).
3. numpy: the 24 training samples, ``choice(36, 24, replace=False)`` over the ordered pairs (a, b) in
   row-major order; the 12 others validate (in a Python set's iteration order, which only permutes the
   terms of a mean; ours are ascending).
4. torch: the model ``AE`` is built, its encoder first: an MLP 1 -> 200 -> 200 -> 9 that the S3 runs
   never use (the matrices are a free parameter, not the encoder's output), whose three ``nn.Linear``
   layers still consume the generator; then the decoder 9 -> 200 -> 200 -> 30. Each ``nn.Linear``
   draws its weight (out, in) by ``kaiming_uniform_(a=sqrt(5))``, then its bias U(-1/sqrt(fan_in), ...).
5. torch: the matrices ("latent"), ``(rand(6, 9) - 1/2) * 0.1``.
6. numpy, at every step: a permutation of the 24 training rows. The batch is the whole training set,
   so the permutation changes only the order of a float32 sum, and it is not reproduced here.

Steps 2-3 are what :func:`repro.data.tasks.build_task_data` draws (one ``RandomState(s)``: templates, then the
split), so the official data come from our own data path. Steps 4-5 differ from our trainer's draws
(:class:`repro.training.trainer.FlatParams` draws the embeddings first, then the decoder, from a generator of its
own): same distributions, other numbers. :func:`official_s3_state` redraws them in the official order,
and :func:`train_official_s3` hands them to :func:`repro.training.trainer.train` (its ``init_params``), so a cell of
Fig. 6(d) can start exactly where the official run started.

The rest of the official training matches ``ToyPhaseConfig.paper("d")``: MSE to the templates averaged
over samples and the 30 dimensions, plus ``1e-3 * mean|latent|`` over the 54 matrix entries; two AdamW
optimizers (decoupled decay): the matrices at lr 1e-3 without decay, the decoder at the cell's lr and
weight decay; full batch; float32; accuracy by the nearest template after every step. The notebook as
committed sweeps 10 decoder lrs for 10^4 steps, while the paper's data file (``phase_diagram_plot/
data_perm_r.h5``, :func:`repro.experiments.liu2022_phase_diagrams.official_map`) has 16 lrs: it came from another run, with another
grid and possibly another revision of the notebook. Used to decide whether our S3 phase map's missing
comprehension is a bug or the seed (issue item "Fig. 6d and Fig. 18 (S3): bug or seed luck"). Used by
``book/liu2022_phase_diagrams`` (the stored seed-luck run).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import torch

from repro.core.portable import ConfigRepr
from repro.core.validation import check_int, check_real
from repro.data.tasks import TaskData
from repro.experiments.liu2022_phase_diagrams import (_OFFICIAL_Y, _PAPER_LRS, FULL_ROWS_PER_PART, PhaseDiagram,
                                                      ToyPhaseConfig, diagram_to_arrays, official_map,
                                                      stored_parts)
from repro.metrics.phases import PHASES, PhaseRule, classify_history
from repro.training.store import ResultsStore, required_arrays, store_parser
from repro.training.stored_runs import StoredRun, StoredRunTable
from repro.training.trainer import History, InitialParams, Performance, train

N_ELEMENTS = 6  # |S3|
MATRIX_ENTRIES = 9  # each element is a learnable 3 x 3 matrix ("latent_dim = p**2")
ENCODER_WIDTHS = (1, 200, 200, MATRIX_ENTRIES)  # the notebook's unused encoder NET(input_dim=1, latent_dim, w=200)
DECODER_WIDTHS = (MATRIX_ENTRIES, 200, 200, 30)  # its decoder NET(latent_dim, output_dim=30, w=200)
LATENT_INIT_SCALE = 0.1  # init_scale in the notebook: (rand - 1/2) * 0.1


@dataclass
class OfficialS3State:
    """The official run's data and initial parameters for one seed, in our model's parameter layout.

    ``params``: ``embed`` (6, 9), and ``W{k}`` (fan_in, fan_out) / ``b{k}`` (fan_out,) for the decoder's
    three layers (our :class:`repro.models.networks.EmbedMLP` stores ``x @ W``, nn.Linear stores the transpose).
    """

    seed: int
    data: TaskData
    params: dict[str, torch.Tensor]

    @property
    def train_idx(self) -> np.ndarray:
        return self.data.train_idx

    @property
    def val_idx(self) -> np.ndarray:
        return self.data.val_idx

    @property
    def templates(self) -> torch.Tensor:
        return self.data.templates


def _linear_draws(fan_in: int, fan_out: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Weight (fan_out, fan_in) and bias of one ``nn.Linear``, drawn as its ``reset_parameters`` draws them
    (same init calls, on ``gen`` instead of the global generator)."""
    weight = torch.empty(fan_out, fan_in)
    torch.nn.init.kaiming_uniform_(weight, a=math.sqrt(5), generator=gen)
    bound = 1 / math.sqrt(fan_in)
    bias = torch.empty(fan_out)
    torch.nn.init.uniform_(bias, -bound, bound, generator=gen)
    return weight, bias


def official_init_params(seed: int = 0) -> dict[str, torch.Tensor]:
    """The official initial matrices and decoder of seed ``seed`` (steps 4-5 of the module docstring), float32."""
    check_int("seed", seed, minimum=0)
    gen = torch.Generator().manual_seed(seed)
    for fan_in, fan_out in zip(ENCODER_WIDTHS[:-1], ENCODER_WIDTHS[1:]):
        _linear_draws(fan_in, fan_out, gen)  # the unused encoder: drawn only to advance the generator
    params = {}
    for k, (fan_in, fan_out) in enumerate(zip(DECODER_WIDTHS[:-1], DECODER_WIDTHS[1:])):
        weight, bias = _linear_draws(fan_in, fan_out, gen)
        params[f"W{k}"], params[f"b{k}"] = weight.T.contiguous(), bias
    params["embed"] = (torch.rand(N_ELEMENTS, MATRIX_ENTRIES, generator=gen) - 0.5) * LATENT_INIT_SCALE
    return {name: params[name] for name in ("embed", "W0", "b0", "W1", "b1", "W2", "b2")}


def official_s3_state(seed: int = 0) -> OfficialS3State:
    """Split, templates (steps 2-3, our own data path with data seed ``seed``) and initial parameters
    (steps 4-5) of the official S3 run with seed ``seed``."""
    check_int("seed", seed, minimum=0)
    data = replace(ToyPhaseConfig.paper("d"), seed=seed).task_data()
    return OfficialS3State(seed=seed, data=data, params=official_init_params(seed))


def train_official_s3(lr_dec_values, wd_dec_values, *, seed: int = 0, steps: int = 100_000, eval_every: int = 10,
                      official_init: bool = True, embed_l1: float = 1e-3, progress: bool | None = None) -> History:
    """Train the Fig. 6(d) cells (``lr_dec_values[i]``, ``wd_dec_values[i]``), one run each, from the official
    initial state of ``seed`` (``official_init=False``: from our trainer's own draws with init seed ``seed``,
    i.e. ``ToyPhaseConfig.paper("d")``), with everything else as in ``ToyPhaseConfig.paper("d")``.

    The official code reads the accuracies after every step; ``eval_every`` = 10 moves a first step by < 10,
    against the comprehension gap of 1000. ``embed_l1``: the notebook's 1e-3 (0 switches the L1 term off).
    """
    lrs, wds = list(lr_dec_values), list(wd_dec_values)
    if not lrs or len(lrs) != len(wds):
        raise ValueError(f"lr_dec_values and wd_dec_values must be non-empty and of equal length; got {len(lrs)} "
                         f"and {len(wds)}.")
    for v in lrs:
        check_real("lr_dec_values", v, positive=True)
    for v in wds:
        check_real("wd_dec_values", v, nonnegative=True)
    check_int("steps", steps, minimum=1)
    if official_init not in (True, False):
        raise ValueError(f"official_init={official_init!r} is not allowed: use True or False.")
    panel = replace(ToyPhaseConfig.paper("d"), seed=seed, steps=steps, eval_every=eval_every, embed_l1=embed_l1)
    state = official_s3_state(seed)
    init = state.params if official_init else None
    return train(panel.model_config(), state.data, panel.train_config(), runs={"lr_dec": lrs, "wd_dec": wds},
                 components=(InitialParams(init),),
                 performance=Performance(progress=progress, desc="official S3 cells"))


def phases_of(history: History, steps: int, gap: int = 1000) -> np.ndarray:
    """Each run's phase by the paper's rule (Table 1: 90 % train and validation accuracy, comprehension when
    validation follows training by < ``gap`` steps), crossings counted below ``steps``."""
    return classify_history(history, PhaseRule(0.9, 0.9, gap=gap, budget=steps))


def train_init_seeds(seeds, lr_dec: float, wd_dec: float, *, steps: int, official_init: bool, eval_every: int = 10,
                     embed_l1: float = 1e-3, progress: bool | None = None) -> History:
    """One Fig. 6(d) cell trained from many starts, one run per init seed in ``seeds``, all on the official
    seed-0 split and templates: drawn in the official order (``official_init``) or by our trainer."""
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must not be empty.")
    panel = replace(ToyPhaseConfig.paper("d"), steps=steps, eval_every=eval_every, embed_l1=embed_l1)
    init = None
    if official_init:
        per_seed = [official_init_params(s) for s in seeds]
        init = {name: torch.stack([p[name] for p in per_seed]) for name in per_seed[0]}
    n = len(seeds)
    return train(panel.model_config(), panel.task_data(), panel.train_config(),
                 runs={"init_seed": seeds, "lr_dec": [lr_dec] * n, "wd_dec": [wd_dec] * n},
                 components=(InitialParams(init),), performance=Performance(progress=progress, desc="S3 starts"))


@dataclass(frozen=True, repr=False)
class SeedLuckConfig(ConfigRepr):
    """The two runs that decide Fig. 6(d)'s missing comprehension (stored: ``python -m repro.experiments.liu2022_phase_diagrams_s3_official
    --store book/_results``). Cells: the official seed-0 start at official columns 0, 3, 6, 9 (decoder lr 1e-5 ...
    6.3e-4) and rows wd 0, 1, 3, where the official map comprehends at the three slowest; starts: one cell
    where it comprehends, from ``seeds`` starts drawn both ways."""

    cell_lr_dec: tuple[float, ...] = tuple(_PAPER_LRS[i] for i in (0, 3, 6, 9))  # official columns 0, 3, 6, 9
    cell_wd_dec: tuple[float, ...] = (0.0, 1.0, 3.0)  # official rows 0, 1, 3
    cell_steps: int = 100_000  # the paper's budget (App. A, Table 1)
    start_lr_dec: float = _PAPER_LRS[6]  # 1.6e-4: official map comprehends in rows wd 0-30
    start_wd_dec: float = 0.0
    seeds: tuple[int, ...] = tuple(range(40))
    # comprehension = validation within 1000 steps of training; the official start fits by step ~250 here, so
    # 1500 steps decide it for any start that fits by step 500 (a later fit is counted as not comprehending)
    start_steps: int = 1500
    eval_every: int = 10  # the official code reads every step; moves a first step by < 10 against a gap of 1000
    embed_l1: float = 1e-3  # the notebook's lamb * mean|latent|

    def __post_init__(self):
        for name in ("cell_lr_dec", "cell_wd_dec", "seeds"):
            if not isinstance(getattr(self, name), tuple) or not getattr(self, name):
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: it must be a non-empty tuple.")
        for v in self.cell_lr_dec:
            check_real("cell_lr_dec", v, positive=True)
        for v in self.cell_wd_dec:
            check_real("cell_wd_dec", v, nonnegative=True)
        check_real("start_lr_dec", self.start_lr_dec, positive=True)
        check_real("start_wd_dec", self.start_wd_dec, nonnegative=True)
        for s in self.seeds:
            check_int("seeds", s, minimum=0)
        for name in ("cell_steps", "start_steps", "eval_every"):
            check_int(name, getattr(self, name), minimum=1)
        check_real("embed_l1", self.embed_l1, nonnegative=True)

    @property
    def cells(self) -> list[tuple[float, float]]:
        """(wd, lr) of every cell, row by row."""
        return [(wd, lr) for wd in self.cell_wd_dec for lr in self.cell_lr_dec]

    def official_letters(self) -> np.ndarray:
        """(rows, columns): the official phase at each cell."""
        off = official_map("d")
        return np.array([[off.at(lr, wd, log_y=False) for lr in self.cell_lr_dec] for wd in self.cell_wd_dec],
                        dtype=object)


@dataclass
class SeedLuckResult:
    config: SeedLuckConfig
    cell_phases: np.ndarray  # (rows, columns) from the official seed-0 start
    cell_train_steps: np.ndarray  # first steps to 90 % (-1: never)
    cell_val_steps: np.ndarray
    cell_max_val_acc: np.ndarray
    start_phases_official: np.ndarray  # (S,) the start cell from each seed, official draw order
    start_phases_ours: np.ndarray  # (S,) our trainer's draws

    def comprehension_share(self, official: bool) -> float:
        phases = self.start_phases_official if official else self.start_phases_ours
        return float(np.mean(phases == "comprehension"))

    def comprehending_seeds(self, official: bool) -> list[int]:
        phases = self.start_phases_official if official else self.start_phases_ours
        return [s for s, ph in zip(self.config.seeds, phases) if ph == "comprehension"]

    ARRAYS = ("cell_train_steps", "cell_val_steps", "cell_max_val_acc")

    def to_arrays(self) -> dict[str, np.ndarray]:
        code = np.vectorize(PHASES.index, otypes=[np.int64])
        arrays = {name: np.asarray(getattr(self, name)) for name in self.ARRAYS}
        arrays.update(cell_phases=code(self.cell_phases), start_phases_official=code(self.start_phases_official),
                      start_phases_ours=code(self.start_phases_ours))
        return arrays

    @classmethod
    def from_arrays(cls, cfg: SeedLuckConfig, arrays: dict[str, np.ndarray]) -> "SeedLuckResult":
        names = cls.ARRAYS + ("cell_phases", "start_phases_official", "start_phases_ours")
        a = required_arrays(arrays, names, "stored S3 seed-luck run")
        phase = np.asarray(PHASES, dtype=object)
        return cls(cfg, phase[a["cell_phases"]], a["cell_train_steps"], a["cell_val_steps"], a["cell_max_val_acc"],
                   phase[a["start_phases_official"]], phase[a["start_phases_ours"]])


def run_seed_luck(cfg: SeedLuckConfig, progress: bool | None = None) -> SeedLuckResult:
    """Both runs of ``cfg``: the official seed-0 start at every cell, and the start cell from every seed both ways."""
    wds, lrs = zip(*cfg.cells)
    h = train_official_s3(lrs, wds, seed=0, steps=cfg.cell_steps, eval_every=cfg.eval_every, embed_l1=cfg.embed_l1,
                          progress=progress)
    shape = (len(cfg.cell_wd_dec), len(cfg.cell_lr_dec))
    cells = phases_of(h, cfg.cell_steps).reshape(shape)
    starts = {}
    for official in (True, False):
        hs = train_init_seeds(cfg.seeds, cfg.start_lr_dec, cfg.start_wd_dec, steps=cfg.start_steps, official_init=official,
                              eval_every=cfg.eval_every, embed_l1=cfg.embed_l1, progress=progress)
        starts[official] = phases_of(hs, cfg.start_steps)
    return SeedLuckResult(cfg, cells, h.first_step("train_acc", 0.9).reshape(shape),
                          h.first_step("val_acc", 0.9).reshape(shape), h["val_acc"].max(axis=1).reshape(shape),
                          starts[True], starts[False])


SEED_LUCK_LABEL = "liu2022-s3-seed-luck"


def stored_seed_luck(cfg: SeedLuckConfig, root) -> tuple[SeedLuckResult, dict] | None:
    """The stored run for exactly ``cfg`` under ``root`` and its manifest, or None."""
    return ResultsStore(root).load_result(cfg, SEED_LUCK_LABEL, lambda arrays: SeedLuckResult.from_arrays(cfg, arrays))


@dataclass(frozen=True, repr=False)
class OfficialStartGridConfig(ConfigRepr):
    """Fig. 6(d) on the official grid (or some of its rows), every cell trained from the official notebook's
    start of seed ``seed`` (:func:`official_s3_state`: its split, templates, decoder and matrices), everything else
    as ``ToyPhaseConfig.paper("d")``: the run the paper's data file would hold if it came from the notebook."""

    wd_dec_values: tuple[float, ...] = _OFFICIAL_Y["d"]  # rows: decoder weight decay (official data_perm_r.h5)
    lr_dec_values: tuple[float, ...] = _PAPER_LRS  # columns: decoder lr 10^linspace(-5, -2, 16)
    seed: int = 0  # the notebook's seed (and the official map's)
    steps: int = 100_000  # the paper's budget (App. A, Table 1)
    eval_every: int = 10  # the official code reads every step; moves a first step by < 10 against a gap of 1000
    embed_l1: float = 1e-3  # the notebook's lamb * mean|latent|
    gap: int = 1000  # Table 1

    def __post_init__(self):
        for name in ("wd_dec_values", "lr_dec_values"):
            if not isinstance(getattr(self, name), tuple) or not getattr(self, name):
                raise ValueError(f"{name}={getattr(self, name)!r} is not allowed: it must be a non-empty tuple.")
        for v in self.wd_dec_values:
            check_real("wd_dec_values", v, nonnegative=True)
        for v in self.lr_dec_values:
            check_real("lr_dec_values", v, positive=True)
        check_int("seed", self.seed, minimum=0)
        for name in ("steps", "eval_every"):
            check_int(name, getattr(self, name), minimum=1)
        check_real("embed_l1", self.embed_l1, nonnegative=True)
        check_int("gap", self.gap, minimum=0)

    def panel_config(self) -> ToyPhaseConfig:
        """The same cells as a :class:`ToyPhaseConfig` (for the official map beside ours: :class:`PhaseDiagram`)."""
        return replace(ToyPhaseConfig.paper("d"), y_values=self.wd_dec_values, lr_dec_values=self.lr_dec_values,
                       seed=self.seed, steps=self.steps, eval_every=self.eval_every, embed_l1=self.embed_l1,
                       gap=self.gap)

    def parts(self, rows_per_part: int = FULL_ROWS_PER_PART) -> list["OfficialStartGridConfig"]:
        """This grid in blocks of ``rows_per_part`` rows, trained and stored one by one (as :func:`full_grid_parts`)."""
        check_int("rows_per_part", rows_per_part, minimum=1)
        ys = self.wd_dec_values
        return [replace(self, wd_dec_values=ys[i:i + rows_per_part]) for i in range(0, len(ys), rows_per_part)]


OFFICIAL_START_GRID_LABEL = "liu2022-fig6d-full-official-start"


def run_official_start_grid(cfg: OfficialStartGridConfig, progress: bool | None = None) -> PhaseDiagram:
    """Every cell of ``cfg`` from the official start (:func:`train_official_s3`), classified by Table 1."""
    wds = [wd for wd in cfg.wd_dec_values for _ in cfg.lr_dec_values]
    lrs = [lr for _ in cfg.wd_dec_values for lr in cfg.lr_dec_values]
    h = train_official_s3(lrs, wds, seed=cfg.seed, steps=cfg.steps, eval_every=cfg.eval_every, embed_l1=cfg.embed_l1,
                          progress=progress)
    shape = (1, len(cfg.wd_dec_values), len(cfg.lr_dec_values))
    rule = PhaseRule(0.9, 0.9, gap=cfg.gap, budget=cfg.steps)

    def first(key):  # the crossings the rule counts (before the budget), -1: never
        steps = h.first_step(key, rule.train_threshold)
        return np.where(steps < cfg.steps, steps, -1).reshape(shape)

    return PhaseDiagram(cfg.panel_config(), classify_history(h, rule).reshape(shape), first("train_acc"),
                        first("val_acc"))


def stored_official_start_grid(root, cfg: OfficialStartGridConfig | None = None
                               ) -> tuple[PhaseDiagram, list[dict]] | None:
    """The official-start map of ``cfg`` (default: the whole official grid) from its stored parts and their
    manifests, or None while any part is missing."""
    cfg = OfficialStartGridConfig() if cfg is None else cfg
    return stored_parts(root, OFFICIAL_START_GRID_LABEL, cfg.panel_config(), cfg.parts(),
                        panel_config=lambda part: part.panel_config())


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="liu2022_phase_diagrams", rows=(
    StoredRun("Fig. 6(d), bug or seed: the official S3 notebook's seed-0 start at 12 cells × 10⁵ steps, and one cell from "
              "40 starts drawn the notebook's way and ours (1,500 steps)", "", ("liu2022-s3-seed-luck",)),
    StoredRun("Fig. 6(d) from the official notebook's seed-0 start on the whole grid, in 6 parts", "--full-grid",
              ("liu2022-fig6d-full-official-start",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.liu2022_phase_diagrams_s3_official --store book/_results [--full-grid]``: run
    :class:`SeedLuckConfig` (12 cells x 10^5 steps from the official seed-0 start, and 2 x 40 starts x 1,500 steps;
    about 15 minutes on one core) and store it with provenance; with ``--full-grid``, Fig. 6(d)'s whole official grid
    from the official start instead (:class:`OfficialStartGridConfig`, 176 cells x 10^5 steps in parts of two rows;
    a rerun trains only the missing parts)."""
    parser = store_parser("repro.experiments.liu2022_phase_diagrams_s3_official", main.__doc__)
    parser.add_argument("--full-grid", action="store_true",
                        help="Fig. 6(d)'s official grid from the official start, part by part")
    args = parser.parse_args(argv)
    store = ResultsStore(args.store)
    if args.full_grid:
        parts = OfficialStartGridConfig().parts()
        for k, part in enumerate(parts):
            print(f"Fig. 6(d) from the official start, part {k + 1}/{len(parts)}: rows {part.wd_dec_values}", flush=True)
            store.get_or_compute(part, lambda part=part: diagram_to_arrays(run_official_start_grid(part, progress=True)),
                                 label=OFFICIAL_START_GRID_LABEL)
        return 0
    cfg = SeedLuckConfig()
    store.get_or_compute(cfg, lambda: run_seed_luck(cfg, progress=True).to_arrays(), label=SEED_LUCK_LABEL)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())

# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version,-jupytext.text_representation.format_version
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The four learning phases of the toy model
#
# **The claim** (Liu et al. 2022, *Towards Understanding Grokking: An Effective Theory of
# Representation Learning*, §4.1 and Fig. 6). Grokking is one of four ways training can end. Train
# the toy model for many settings of the optimizer and sort each run by whether and when it reaches
# 90 % training and validation accuracy (App. A, Table 1):
#
# | phase | train ≥ 90 % | val ≥ 90 % | val step − train step |
# |---|---|---|---|
# | comprehension | yes | yes | < 10³ steps |
# | grokking | yes | yes | ≥ 10³ steps |
# | memorization | yes | no | – |
# | confusion | no | no | – |
#
# The phase is decided by a competition between representation learning and decoder learning.
# (a) Over representation lr × decoder lr, a fast decoder with slow representation learning
# memorizes, and comprehension needs the representation to learn faster than the decoder, but not
# too much faster. (b)–(d) Over decoder lr × decoder weight decay, for addition (regression and
# classification) and for the permutation group S3: (i) all four phases appear; (ii) the top right
# (fast decoder, little decay) memorizes; (iii) the bottom right (fast decoder, strong decay) is
# confused; (iv) grokking is sandwiched between comprehension and memorization.
#
# **What we run.** All four panels of Fig. 6, each as one batched sweep of the toy model
# (1-D embeddings summed, or 3×3 matrices multiplied for S3, into a tanh 200-200 decoder), compared
# cell by cell with the official phase maps derived from the paper's data files
# (ejmichaud/grokking-squared, `phase_diagram_plot/*.h5`).
#
# **What we don't, at book scale.** The paper's grids (169–176 cells) at $10^5$ steps each take
# hours on a CPU. The book runs 6 × 6 cells of each official grid with time compressed five-fold
# (explained below), i.e. the equivalent of $1.5\cdot 10^4$ of the paper's steps. The compression is
# an approximation that Adam breaks at large learning rates, and the budget is shorter than the
# paper's, so the maps reproduce most of the layout the paper describes but not the official maps
# cell by cell: the ledger at the end records both. The same 6 × 6 cells at the paper's settings
# (uncompressed, $10^5$ steps) were run once and stored; a section below shows them, and another asks
# whether the S3 panel's missing comprehension is a bug or the seed. The paper scale
# (`REPRO_SCALE=paper`) runs the full official grids with the same code; that has not been run. The
# transformer (Fig. 7) and image (Fig. 8) diagrams are in the next chapter.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from myst_nb import glue

from repro.book.claims import ClaimBook
from repro.core.scale import current_scale
from repro.experiments.liu2022_phase_diagrams import (OFFICIAL_COUNTS, PANELS, ToyPhaseConfig, corner_fraction,
                                                      generalizing_fraction_fast_decoder, official_map, phase_letters,
                                                      run_phase_diagram, sandwich_columns, stored_uncompressed)
from repro.experiments.liu2022_phase_diagrams_s3_official import SeedLuckConfig, stored_seed_luck
from repro.plotting.liu2022_phase_diagrams import plot_phase_diagrams
from repro.plotting.shared import use_style
from repro.training.store import load_stored, provenance_line, require_stored

use_style()
claims = ClaimBook("liu2022_phase_diagrams")

# %% [markdown]
# ## Configuration
#
# `ToyPhaseConfig.paper(panel)` holds the official grid of each panel, as stored in the paper's data
# files (ejmichaud/grokking-squared, `phase_diagram_plot/*.h5`: decoder lr $10^{-5}\ldots10^{-2}$; the
# second axis is the representation lr in (a) and the decoder weight decay in (b)–(d)), its seed (58
# for regression in `phase_diagram_plot/phase_diagram.ipynb`, 6 for classification in
# `phase_diagram-classification.ipynb`, 0 for S3 in `toy/Figure5d_permutation.ipynb`; every cell of a
# panel shares it), the embedding lr $10^{-3}$ (§4.1) and the budget of $10^5$ steps (App. A, Table 1).
#
# **Time compression at book scale.** Adam moves each weight by about its learning rate per step,
# so multiplying every learning rate by $k$ and dividing the number of steps by $k$ follows roughly
# the same path. AdamW's decoupled decay multiplies the weights by $1 - \mathrm{lr}\cdot\mathrm{wd}$
# per step, so it is compressed the same way and the weight-decay axis keeps its values.
# `ToyPhaseConfig.book(panel)` uses $k = 5$: 3,000 steps, comprehension gap 200 steps, every learning
# rate ×5. Axes and tables below show paper-equivalent learning rates (actual ÷ 5), so each book cell
# sits on a cell of the official grid. The equivalence is only approximate: Adam's step is not
# exactly proportional to its learning rate once the rate is large (at the largest book rate,
# $5\cdot10^{-2}$, the runs become unstable), so the compressed maps are not the paper's maps at
# $1.5\cdot10^4$ steps; the ledger's deviations say where this shows.
#
# **Seeds.** The official maps use one seed per panel, and so does the book (`ToyPhaseConfig.n_seeds`
# trains more initializations of every cell in the same batched sweep, but each seed of the four panels
# costs about 3 CPU-minutes, and the chapter's budget is 4 minutes). A cell near a phase boundary
# changes phase with the last bits of float32 rounding (we saw cells flip between CPU kernel sets), so
# one map is partly noise: the chapter therefore prints no cell-by-cell letters and states its claims
# as verdicts per seed (below); the maps themselves are in the figure.

# %%
configs = {panel: ToyPhaseConfig.for_scale(panel) for panel in PANELS}
print(f"scale: {current_scale()}")
for panel, cfg in configs.items():
    lrs = ", ".join(f"{lr:.1e}" for lr in cfg.lr_dec_values)
    ys = ", ".join(f"{y:.2g}" for y in cfg.y_values)
    print(f"({panel}) {cfg.operation} {cfg.target}, seed {cfg.seed} (init seeds {', '.join(map(str, cfg.init_seeds))}), "
          f"{cfg.steps:,} steps at lr x{cfg.time_scale:g}, gap {cfg.gap}\n"
          f"    decoder lr (paper-equivalent): {lrs}\n    {cfg.y_label}: {ys}")

# %% [markdown]
# ## Sanity check: the official maps
#
# The official phase maps are stored in the package as letters (C, G, M, X), derived from the paper's
# data files (ejmichaud/grokking-squared, `phase_diagram_plot/data_add_r_reprlr.h5`, `data_add_r.h5`,
# `data_add_c.h5`, `data_perm_r.h5`: steps to 90 % train and validation accuracy per cell) with the
# official classification rule of `phase_diagram_plot/simple_phase_diagram.ipynb`. Their phase counts
# must equal those of the data files, and two anchor cells must read right: in (b), decoder lr
# $10^{-4}$ at weight decay 0 comprehends (train 1650 / val 2076 steps in `data_add_r.h5`) and
# $10^{-5}$ groks (14 262 / 21 295).

# %%
for panel in PANELS:
    off = official_map(panel)
    counts = {p: int((off.phases == p).sum()) for p in OFFICIAL_COUNTS[panel]}
    assert counts == OFFICIAL_COUNTS[panel], panel
    print(f"official ({panel}): {off.phases.shape[0]} x {off.phases.shape[1]} cells, {counts}")
b = official_map("b")
assert b.at(1e-4, 0.0, log_y=False) == "comprehension" and b.at(1e-5, 0.0, log_y=False) == "grokking"

# %% [markdown]
# ## Run
#
# Each panel is one call: the whole grid (times the seeds) trains as one batched program (a leading
# run axis on every weight), and each (seed, cell) is classified by the rule of Table 1.

# %%
diagrams = {panel: run_phase_diagram(cfg) for panel, cfg in configs.items()}

# %% [markdown]
# ## Figure 6
#
# ```{glue:figure} fig_phases
# :name: fig-liu-phases
#
# **Top:** our phase maps (green comprehension, yellow grokking, purple memorization, black
# confusion), decoder learning rate on the x axis (with several seeds: each cell's majority phase,
# marked "k/S" where only k of S seeds agree); the title gives the fraction of (seed, cell) pairs with
# the official phase. (a) representation learning rate
# on the y axis, increasing upward; (b)–(d) decoder weight decay, increasing downward as in the paper.
# **Bottom:** the official maps from the paper's data. Look for memorization at the top right,
# confusion at the bottom right, and grokking between comprehension and memorization.
# ```

# %%
fig = plot_phase_diagrams(diagrams, official=True)
glue("fig_phases", fig, display=False)

# %% [markdown]
# ## The layout claims of §4.1
#
# Each claim is checked on each seed's map; ours is the fraction of the seeds in which it holds
# (with the book's one seed: 1 or 0), and the reference is 1, the statement holding in the paper's
# map, with a tolerance of 0.5: it must hold in at least half of the seeds, i.e. in the median seed.
# With one seed per cell, as in the official sweeps, these are verdicts on one map, and the book
# cannot say how often another seed would change them. The value is shown to 0.5, so it changes
# only when a seed's own verdict changes, not when a boundary cell flips. The bounds inside each
# claim are ours (the paper states the layout in words); the corner blocks are the right half of the
# decoder-lr columns and the lowest (top right) or highest (bottom right) third of the weight-decay
# rows, at least two rows, and the same function applied to the official maps gives the values
# quoted in the sources.
#
# 1. **(a) A fast decoder does not generalize** (§4.1: "a fast decoder coupled with slow
#    representation learning (bottom right) lead to memorization"; official data: none of the 109
#    cells with decoder lr ≥ representation lr generalizes). The fraction of those cells that reach
#    comprehension or grokking, pooled over the seeds, is 0 (shown to 0.05).
# 2. **(a) The slowest decoder with the fastest representation groks rather than comprehends**
#    (§4.1: "an extremely slow decoder coupled with fast representation learning (top left) will
#    generalize in the end, [but] the generalization time is long"). The top-left cell is grokking.
# 3. **(b)–(d) All four phases appear** (§4.1 (i)): the map has all 4 phases.
# 4. **(b)–(d) The top right memorizes** (§4.1 (ii)): memorization is at least half of the top-right
#    block (official: 0.97, 0.59, 0.94).
# 5. **(b)–(d) The bottom right is confused** (§4.1 (iii)): the fraction of confusion in the
#    bottom-right block exceeds that in the top-right block by at least one cell in six (0.17;
#    official: 0.72, 0.28, 0.22).
# 6. **(b)–(d) Grokking is sandwiched between comprehension and memorization** (§4.1 (iv)): at
#    least one decoder-lr column reads comprehension → grokking → memorization with increasing weight
#    decay (official: 4, 12 and 8 of 16 columns). In (d) this fails, and it is recorded below as a
#    deviation.

# %%
def per_seed(values):
    """The per-seed values behind a claim, for its margin; None with one seed (the book's), where no seed spread
    can be measured."""
    values = np.asarray(values, dtype=float)
    return values if values.size > 1 else None


def seed_verdicts(diagram, statistic, holds) -> np.ndarray:
    """Each seed's map's 0/1 verdict on ``holds(statistic(phases, y_values))``; their mean is the fraction of seeds."""
    return diagram.per_seed(lambda p, y: bool(holds(statistic(p, y))))


def holds_in_seeds(name: str, verdicts, source: str, *, against: str = "paper"):
    """A layout statement checked seed by seed (``verdicts``: 0/1 per seed): reproduced when it holds in at least
    half of the seeds."""
    return claims.check(name, float(np.mean(verdicts)), 1.0, kind="reproduction", comparison="abs", tolerance=0.5,
                        resolution=0.5, against=against, source=source, seeds=per_seed(verdicts))


a = diagrams["a"]
cfg_a = a.config
fast_gen_seeds = a.per_seed(lambda p, y: generalizing_fraction_fast_decoder(p, cfg_a.lr_dec_values, y))
fast_gen = float(np.mean(fast_gen_seeds))
claims.check("(a) fraction of cells with decoder lr >= representation lr that generalize (all seeds)", fast_gen, 0.0,
             kind="reproduction", comparison="abs", tolerance=0.0, resolution=0.05, seeds=per_seed(fast_gen_seeds),
             source="§4.1, Fig. 6a (fast decoder, slow representation: memorization); official data: 0 of 109 cells")
top = list(cfg_a.y_values).index(max(cfg_a.y_values))
holds_in_seeds("(a) slowest decoder, fastest representation groks: fraction of seeds",
               seed_verdicts(a, lambda p, y: p[top, 0] == "grokking", bool),
               "§4.1, Fig. 6a (top left generalizes, late)")
sandwich_d = np.zeros(1)
for panel in "bcd":
    d = diagrams[panel]
    off = official_map(panel)
    holds_in_seeds(f"({panel}) all four phases present: fraction of seeds",
                   seed_verdicts(d, lambda p, y: len({str(v) for v in p.ravel()}), lambda n: n == 4),
                   f"§4.1 (i), Fig. 6{panel}")
    holds_in_seeds(f"({panel}) top-right block at least half memorization: fraction of seeds",
                   seed_verdicts(d, lambda p, y: corner_fraction(p, y, "memorization", "top_right"), lambda v: v >= 0.5),
                   f"§4.1 (ii), Fig. 6{panel}; official map: "
                   f"{corner_fraction(off.phases, off.y_values, 'memorization', 'top_right'):.2f} of the block")
    off_excess = (corner_fraction(off.phases, off.y_values, "confusion", "bottom_right")
                  - corner_fraction(off.phases, off.y_values, "confusion", "top_right"))
    holds_in_seeds(f"({panel}) confusion bottom right minus top right >= 1/6: fraction of seeds",
                   seed_verdicts(d, lambda p, y: corner_fraction(p, y, "confusion", "bottom_right")
                                 - corner_fraction(p, y, "confusion", "top_right"), lambda v: v >= 1 / 6 - 1e-9),
                   f"§4.1 (iii), Fig. 6{panel}; official map: excess {off_excess:.2f}")
    name = f"({panel}) a comprehension -> grokking -> memorization column: fraction of seeds"
    source = f"§4.1 (iv), Fig. 6{panel}; official map: {sandwich_columns(off.phases, off.y_values)} of 16 columns"
    verdicts = seed_verdicts(d, sandwich_columns, lambda n: n >= 1)
    if panel != "d":
        holds_in_seeds(name, verdicts, source)
    else:
        sandwich_d = verdicts

# %% [markdown]
# ## What does not match
#
# Four things do not reproduce, and each is recorded as a *deviation*: the paper's value, ours, and
# the band in which we would call it reproduced. A deviation does not stop the chapter, but it fails
# the chapter if ours moves into that band, so the ledger cannot go stale.
#
# - **Cell by cell.** Where the official phase is unambiguous (the nearest official cell has the same
#   phase as its four neighbours, so a boundary shifted by one official grid step cannot change it),
#   a reproduction should give the official phase. We would call a panel reproduced cell by cell if at
#   least 90 % of those (seed, cell) pairs had it (one stray cell in ten for the seed; the tolerance
#   was set after the maps were seen). Cells next to an official boundary are left out: there the
#   official map itself is one seed's draw. No panel reaches 0.9.
# - **(a) Confusion at the fastest decoder.** The official map of (a) has no confusion at all (0 of
#   169 cells); ours is confused in the last decoder-lr column (paper-equivalent $10^{-2}$, actual
#   $5\cdot10^{-2}$), where Adam no longer follows the compressed path.
#
# The fractions of cells come from this machine's live run (shown to 0.25); the verdicts use the exact
# values, far from their bands.
# - **(d) No sandwich and almost no comprehension.** The official S3 map comprehends over a wide
#   range of slow decoder learning rates and has 8 columns with comprehension → grokking →
#   memorization; ours memorizes there.

# %%
time_compression = ("the book map runs 3,000 steps with every learning rate x5 (1.5e4 paper-equivalent steps of the "
                    "paper's 1e5); Adam does not follow the compressed path at large rates, so the compression is not "
                    "equivalent to the paper's run (the uncompressed 1e5-step maps are in the next section); one seed "
                    "per cell, so this is one map's verdict")
why_cells = {
    "a": "the interior mismatches are mostly the last decoder-lr column (confused, official memorization)",
    "b": "our slowest decoder (lr 1e-5) memorizes or is confused where the official runs grok after 1.5e4-1e5 "
         "steps, and confusion reaches lower weight decay than in the official map",
    "c": "strong weight decay (wd >= 8) fails to fit the training set within our budget (confusion) where the "
         "official runs grok; the official sweep also divided the cross-entropy by its 19 classes "
         "(phase_diagram-classification.ipynb), ours is the standard cross-entropy",
    "d": "our S3 runs memorize at decoder lr 1e-5 to 1e-3 where the official map comprehends; the split and "
         "templates are the official ones, but the initial matrices and decoder come from our trainer's draws, and "
         "only about one start in five comprehends there (the seed-luck section below); the book map also omits "
         "the notebook's loss term 1e-3 mean|E|",
}
for panel in PANELS:
    d = diagrams[panel]
    inside = ~d.official_boundary()
    n_inside = int(inside.sum())
    claims.check(f"({panel}) cells with the official phase, away from official phase boundaries", d.interior_agreement(),
                 1.0, kind="deviation", comparison="abs", tolerance=0.1, resolution=0.25, against="official code",
                 set_after=True, seeds=per_seed((d.seed_phases == d.official_phases()[None])[:, inside].mean(axis=1)),
                 source=f"Fig. 6{panel} data (grokking-squared phase_diagram_plot/*.h5), at the {n_inside} of our "
                        f"{d.seed_phases[0].size} cells whose official phase is unambiguous",
                 evidence=f"{why_cells[panel]}; {time_compression}")
claims.check("(a) fraction of cells confused", float((a.seed_phases == "confusion").mean()), 0.0, kind="deviation",
             comparison="abs", tolerance=0.05, resolution=0.25, against="official code",
             seeds=per_seed((a.seed_phases == "confusion").mean(axis=(1, 2))),
             source="Fig. 6a data (data_add_r_reprlr.h5): 0 of 169 cells confused, every run fits its training set",
             evidence="the last decoder-lr column (paper-equivalent 1e-2, actual 5e-2) is confused, where the "
                      f"official runs memorize: Adam at that rate is unstable; {time_compression}")
d = diagrams["d"]
off_d = official_map("d")
claims.check("(d) a comprehension -> grokking -> memorization column: fraction of seeds", float(np.mean(sandwich_d)),
             1.0, kind="deviation", comparison="abs", tolerance=0.5, resolution=0.5, seeds=per_seed(sandwich_d),
             source=f"§4.1 (iv), Fig. 6d; official map: {sandwich_columns(off_d.phases, off_d.y_values)} of 16 columns",
             evidence="our S3 map has (almost) no comprehension, so no column can read comprehension -> grokking -> "
                      f"memorization; {why_cells['d']}; {time_compression}")
_ = claims.check("(d) fraction of cells that comprehend", float((d.seed_phases == "comprehension").mean()),
                 round(float((d.official_phases() == "comprehension").mean()), 2), kind="deviation", comparison="abs",
                 tolerance=0.2, resolution=0.25, against="official code", set_after=True,
                 seeds=per_seed((d.seed_phases == "comprehension").mean(axis=(1, 2))),
                 source="Fig. 6d data (data_perm_r.h5) at our 36 cells; band: the comprehension region's boundary cells",
                 evidence=f"{why_cells['d']}; {time_compression}")

# %% [markdown]
# A cell-by-cell table of one seed's letters would change with the CPU's rounding, so the
# cell-by-cell comparison is the figure: its titles give each panel's fraction of (seed, cell) pairs
# with the official phase over all cells, boundary cells included.
#
# ## The same cells at the paper's settings (stored)
#
# Are the mismatches above the price of the time compression and the short budget, or do they survive
# at the paper's settings? `uncompressed_config(panel)` keeps the book's 6 × 6 cells of a panel (every
# one of them is a cell of the official grid) and runs them as the paper did: the official learning
# rates, $10^5$ steps, the comprehension gap of $10^3$ steps and the official seed. Accuracies are read
# every 10 steps (the official code reads every step; this moves a first step by less than 10, against
# a gap of 1000), and (d) keeps the official notebook's loss term $10^{-3}\cdot\mathrm{mean}|E|$. The four
# panels took {glue:text}`fig6_stored_minutes` minutes on two shared CPU cores and are stored
# (`python -m repro.experiments.liu2022_phase_diagrams --store book/_results` recomputes them); the chapter loads them, so the
# maps and letters below are the same on every machine.
#
# The claims are the layout claims of §4.1 and the cell-by-cell comparison, on these maps, with the
# bands used above, fixed before these runs were made: each layout statement must hold in the map (one
# seed, so 1 or 0); at least 90 % of the unambiguous cells must have the official phase; (a) has no
# confusion (at most 0.05 of the cells); in (d) the share of comprehending cells is within 0.2 of the
# official map's at the same cells.

# %%
stored_maps, stored_minutes = {}, 0.0
for panel in PANELS:
    stored_maps[panel], stored_manifest = require_stored(
        stored_uncompressed(panel, "_results"), f"uncompressed Fig. 6({panel}) map",
        "python -m repro.experiments.liu2022_phase_diagrams --store book/_results", "about an hour on two cores")
    print(f"({panel}) {provenance_line(stored_manifest)}, {stored_manifest['wall_time_s'] / 60:.0f} min")
    stored_minutes += stored_manifest["wall_time_s"] / 60
glue("fig6_stored_minutes", f"{stored_minutes:.0f}", display=False)
# Stored maps are loaded, not recomputed: their letters are the same on every machine.
for panel, sm in stored_maps.items():
    print(f"\n({panel}) {sm.config.y_label} (rows) x decoder lr {', '.join(f'{v:.1e}' for v in sm.config.lr_dec_values)}; "
          f"ours | official")
    for y, ours_row, off_row in zip(sm.config.y_values, phase_letters(sm.phases), phase_letters(sm.official_phases())):
        print(f"  {y:8.2g}  {ours_row}  |  {off_row}")
    print(f"  cells with the official phase: {sm.agreement():.2f} of all, {sm.interior_agreement():.2f} of the "
          f"{int((~sm.official_boundary()).sum())} away from official boundaries")

# %% [markdown]
# ```{glue:figure} fig_phases_stored
# :name: fig-liu-phases-stored
#
# **Top:** the book's cells of every panel at the paper's settings ($10^5$ steps, no time
# compression, the official seed), colours as in the first figure; the title gives the fraction of
# cells with the official phase. **Bottom:** the official maps.
# ```

# %%
fig_stored = plot_phase_diagrams(stored_maps, official=True)
glue("fig_phases_stored", fig_stored, display=False)

# %%
PAPER = "paper settings, 1e5 steps: "
# What the stored runs showed (their bands were fixed before they were run; see above).
STORED_KINDS = {
    "(a) fraction of cells with decoder lr >= representation lr that generalize": "reproduction",
    "(a) slowest decoder, fastest representation groks": "reproduction",
    "(a) fraction of cells confused": "reproduction",
    "(a) cells with the official phase, away from official phase boundaries": "reproduction",
    "(b) all four phases present": "reproduction",
    "(b) top-right block at least half memorization": "reproduction",
    "(b) confusion bottom right minus top right >= 1/6": "reproduction",
    "(b) a comprehension -> grokking -> memorization column": "deviation",
    "(b) cells with the official phase, away from official phase boundaries": "deviation",
    "(c) all four phases present": "reproduction",
    "(c) top-right block at least half memorization": "reproduction",
    "(c) confusion bottom right minus top right >= 1/6": "reproduction",
    "(c) a comprehension -> grokking -> memorization column": "reproduction",
    "(c) cells with the official phase, away from official phase boundaries": "deviation",
    "(d) all four phases present": "deviation",
    "(d) top-right block at least half memorization": "reproduction",
    "(d) confusion bottom right minus top right >= 1/6": "reproduction",
    "(d) a comprehension -> grokking -> memorization column": "deviation",
    "(d) cells with the official phase, away from official phase boundaries": "deviation",
    "(d) fraction of cells that comprehend": "deviation",
}
STORED_WHY = {
    "a": "uncompressed, every unambiguous cell has the official phase, with no confusion: the book map's confused "
         "column was the time compression",
    "b": "all four phases, memorization top right and confusion bottom right reproduce; at 1e5 steps the strongly "
         "decayed slow-decoder cells grok where the official map memorizes, so no column ends in memorization",
    "c": "all four phases, both corners and the sandwich reproduce; cell by cell the strongly decayed rows differ",
    "d": "memorization top right and confusion bottom right reproduce; from our trainer's seed-0 start no cell comprehends (official: 14 of our 36), so neither all four phases nor the sandwich appear",
}
STORED_CELLS_WHY = {
    "b": "at the strongest weight decay (10) the slow-decoder cells grok late where the official map memorizes, "
         "and the fastest decoder at weight decay 6 groks where it is confused",
    "c": "they lie at strong weight decay (>= 8), where single cells comprehend or fail to fit where the official "
         "runs grok; the official sweep also divided the cross-entropy by its 19 classes "
         "(phase_diagram-classification.ipynb), ours is the standard cross-entropy",
    "d": "our seed-0 start memorizes or groks where the official start comprehends; the next section shows that the start decides it",
}
NO_COMPREHENSION = ("from our trainer's seed-0 start (the notebook's split and templates, our draws for the matrices "
                    "and decoder) no S3 cell comprehends; the next section shows that the start decides it")
LATE_GROKKING = ("at 1e5 steps the cells with the strongest weight decay and a slow decoder grok late (validation "
                 "90 % at steps {}) where the official map memorizes")


def stored_claim(name: str, ours: float, reference: float, *, tolerance: float, source: str, against: str = "paper",
                 evidence: str = ""):
    """A claim on the stored maps: its band as above; its kind (what the stored run showed) from STORED_KINDS."""
    return claims.check(PAPER + name, ours, reference, kind=STORED_KINDS[name], comparison="abs", tolerance=tolerance,
                        resolution=0.01, against=against, source=source, live=False,
                        evidence=evidence if STORED_KINDS[name] == "deviation" else "")


sa = stored_maps["a"]
stored_claim("(a) fraction of cells with decoder lr >= representation lr that generalize",
             generalizing_fraction_fast_decoder(sa.phases, sa.config.lr_dec_values, sa.config.y_values), 0.0,
             tolerance=0.0, source="§4.1, Fig. 6a; official data: 0 of 109 cells")
stored_claim("(a) slowest decoder, fastest representation groks",
             float(sa.phases[list(sa.config.y_values).index(max(sa.config.y_values)), 0] == "grokking"), 1.0,
             tolerance=0.5, source="§4.1, Fig. 6a (top left generalizes, late)")
stored_claim("(a) fraction of cells confused", float((sa.phases == "confusion").mean()), 0.0, tolerance=0.05,
             against="official code", source="Fig. 6a data (data_add_r_reprlr.h5): 0 of 169 cells confused")
for panel in "bcd":
    sm, off = stored_maps[panel], official_map(panel)
    y = sm.config.y_values
    stored_claim(f"({panel}) all four phases present", float(len({str(v) for v in sm.phases.ravel()}) == 4), 1.0,
                 tolerance=0.5, source=f"§4.1 (i), Fig. 6{panel}", evidence=NO_COMPREHENSION)
    stored_claim(f"({panel}) top-right block at least half memorization",
                 float(corner_fraction(sm.phases, y, "memorization", "top_right") >= 0.5), 1.0, tolerance=0.5,
                 source=f"§4.1 (ii), Fig. 6{panel}")
    stored_claim(f"({panel}) confusion bottom right minus top right >= 1/6",
                 float(corner_fraction(sm.phases, y, "confusion", "bottom_right")
                       - corner_fraction(sm.phases, y, "confusion", "top_right") >= 1 / 6 - 1e-9), 1.0, tolerance=0.5,
                 source=f"§4.1 (iii), Fig. 6{panel}")
    stored_claim(f"({panel}) a comprehension -> grokking -> memorization column", float(sandwich_columns(sm.phases, y) >= 1),
                 1.0, tolerance=0.5, source=f"§4.1 (iv), Fig. 6{panel}; official map: "
                                            f"{sandwich_columns(off.phases, off.y_values)} of 16 columns",
                 evidence=NO_COMPREHENSION if panel == "d" else
                 LATE_GROKKING.format(", ".join(str(int(v)) for v in sm.val_steps[0][-1] if v >= 0))
                 + ", so the column that comprehends at little decay ends in grokking, not memorization")
for panel, sm in stored_maps.items():
    stored_claim(f"({panel}) cells with the official phase, away from official phase boundaries",
                 sm.interior_agreement(), 1.0, tolerance=0.1, against="official code",
                 source=f"Fig. 6{panel} data (grokking-squared phase_diagram_plot/*.h5), at the "
                        f"{int((~sm.official_boundary()).sum())} of our 36 cells whose official phase is unambiguous",
                 evidence=f"{int(((sm.phases != sm.official_phases()) & ~sm.official_boundary()).sum())} of the "
                          f"{int((~sm.official_boundary()).sum())} unambiguous cells differ; " + STORED_CELLS_WHY.get(panel, ""))

sd = stored_maps["d"]
_ = stored_claim("(d) fraction of cells that comprehend", float((sd.phases == "comprehension").mean()),
                 round(float((sd.official_phases() == "comprehension").mean()), 2), tolerance=0.2,
                 against="official code", source="Fig. 6d data (data_perm_r.h5) at our 36 cells",
                 evidence="from our trainer's seed-0 start (the notebook's split and templates, our draws for the "
                          "matrices and decoder) the S3 runs memorize where the official map comprehends; see the "
                          "next section for the official start")

# %% [markdown]
# ## Fig. 6(d): a bug or the seed?
#
# Neither map of (d), compressed or not, comprehends where the official one does. Is our S3 code
# wrong, or is the official map one lucky start? The official notebook
# (`toy/Figure5d_permutation.ipynb`) draws, for seed $s$: the templates and the 24/12 split from
# numpy (our data path draws the same, bit for bit), then from torch an encoder that the S3 runs
# never use, the decoder, and last the matrices. Our trainer draws the matrices first and has no
# encoder: the same distributions, other numbers. `repro.experiments.liu2022_phase_diagrams_s3_official` redraws the notebook's
# start in our parameter layout (a unit test re-enacts the notebook's draws with torch's own
# `nn.Linear` and checks it value for value) and hands it to our trainer. Two runs decide it, stored
# (`python -m repro.experiments.liu2022_phase_diagrams_s3_official --store book/_results`, {glue:text}`luck_minutes` minutes):
#
# 1. **The official start.** The official seed-0 start, with the paper's settings and the notebook's L1
#    term, at 12 cells of the official grid: weight decay 0, 1 and 3, decoder lr $10^{-5}$, $4\cdot10^{-5}$,
#    $1.6\cdot10^{-4}$ and $6.3\cdot10^{-4}$ (official columns 0, 3, 6 and 9), $10^5$ steps.
# 2. **Many starts.** One cell where the official map comprehends (weight decay 0, decoder lr
#    $1.6\cdot10^{-4}$), from 40 starts drawn the notebook's way and 40 drawn ours, 1,500 steps each (every
#    start that fits does so by step 500 here, so comprehension, validation within $10^3$ steps of
#    training, is decided by then).

# %%
luck_cfg = SeedLuckConfig()
luck, luck_manifest = load_stored(stored_seed_luck(luck_cfg, "_results"), "S3 seed-luck run",
                                  "python -m repro.experiments.liu2022_phase_diagrams_s3_official --store book/_results", "about 15 minutes on one core",
                                  glue_minutes="luck_minutes")
official_letters = luck_cfg.official_letters()
# A stored run is loaded, not recomputed: the same letters and steps on every machine.
print("official seed-0 start, 1e5 steps: ours | official (train step / val step to 90 %)")
for i, wd in enumerate(luck_cfg.cell_wd_dec):
    cells = [f"lr {lr:.1e}: {luck.cell_phases[i, j][0].upper()} | {official_letters[i, j][0].upper()} "
             f"({luck.cell_train_steps[i, j]} / {luck.cell_val_steps[i, j] if luck.cell_val_steps[i, j] >= 0 else 'never'})"
             for j, lr in enumerate(luck_cfg.cell_lr_dec)]
    print(f"  wd {wd:g}:  " + ";  ".join(cells))
official_c = official_letters == "comprehension"
cells_c = int(np.sum(luck.cell_phases[official_c] == "comprehension"))
share_off, share_ours = luck.comprehension_share(True), luck.comprehension_share(False)
n_starts = len(luck_cfg.seeds)
pooled = (share_off + share_ours) / 2
two_se = 2 * np.sqrt(2 * pooled * (1 - pooled) / n_starts)  # two standard errors of a difference of two shares
print(f"cells where the official map comprehends: {int(official_c.sum())}; ours from the official start comprehends at {cells_c}")
print(f"starts that comprehend at wd {luck_cfg.start_wd_dec:g}, lr {luck_cfg.start_lr_dec:.1e}: official draw order "
      f"{round(share_off * n_starts)} of {n_starts} (seeds {luck.comprehending_seeds(True)}), ours "
      f"{round(share_ours * n_starts)} of {n_starts} (seeds {luck.comprehending_seeds(False)})")
glue("luck_cells_c", f"{cells_c}", display=False)
glue("luck_share_official", f"{round(share_off * n_starts)}", display=False)
glue("luck_share_ours", f"{round(share_ours * n_starts)}", display=False)

# %% [markdown]
# The claims: from the official start, the official map's comprehension cells should comprehend (the
# chapter's cell band, at least 90 % of them; a deviation where they do not), and the two draw orders
# should comprehend equally often, within two standard errors of a difference of two shares of 40 (a
# bound of this book, chosen after a first exploratory run had shown the shares). Together they say
# whether the difference is in the code or in the start.

# %%
claims.check("official seed-0 start: the cells at decoder lr 4e-5 and 1.6e-4 have the official phase",
             float(np.mean(luck.cell_phases[:, 1:3] == official_letters[:, 1:3])), 1.0, kind="reproduction",
             comparison="abs", tolerance=0.1, resolution=0.01, against="official code", set_after=True, live=False,
             source="Fig. 6d data (data_perm_r.h5): comprehension at official columns 3 and 6 in rows wd 0, 1, 3 "
                    "(the two columns picked after the run; the claim below takes all of them)")
claims.check("official seed-0 start: share of the official comprehension cells (9 of 12) that comprehend",
             cells_c / int(official_c.sum()), 1.0, kind="deviation", comparison="abs", tolerance=0.1, resolution=0.01,
             against="official code", live=False,
             source="Fig. 6d data (data_perm_r.h5) at 12 cells (wd 0, 1, 3 x official lr columns 0, 3, 6, 9)",
             evidence="from the notebook's own seed-0 start our code comprehends at decoder lr 4e-5 and 1.6e-4 in all "
                      "three rows (the official letters), but memorizes at 1e-5 (validation never reaches 90 % in 1e5 "
                      "steps), and comprehends at 6.3e-4 where the official map memorizes or groks; the notebook "
                      "as committed sweeps 10 lrs for 1e4 steps, so the official data file came from another run "
                      "(and float32 sums in another order)")
claims.check("comprehending share of 40 starts, our draw order minus the notebook's", share_ours - share_off, 0.0,
             kind="check", against="book bound", comparison="abs", tolerance=float(two_se), resolution=0.025,
             set_after=True, live=False,
             source="this chapter's bound: two standard errors of a difference of two shares of 40")
_ = claims.check("share of 40 notebook-order starts that comprehend where the official map does", share_off, 1.0,
                 kind="deviation", comparison="abs", tolerance=0.5, resolution=0.05, set_after=True, live=False,
                 source="Fig. 6d data (data_perm_r.h5): comprehension at wd 0, lr 1.6e-4, from one start (seed 0); "
                        "band: the official map's start is typical if at least half of the starts comprehend",
                 evidence="only a minority of starts, drawn either way, comprehends at this cell: the official map's "
                          "wide comprehension region shows one favourable start, not what a typical start does")

# %% [markdown]
# ## Paper versus ours
#
# At book scale, every panel of Fig. 6 reproduces the layout the paper describes in §4.1 except the
# S3 panel's sandwich, and no panel reproduces the official map cell by cell. The rows marked
# "paper settings" judge the stored uncompressed maps, and "official start" the S3 runs from
# the notebook's own seed-0 start: {glue:text}`ledger_tally`.

# %%
claims.figure("liu2022", "Fig. 6a", "partial", scale="book",
              claims=["(a) fraction of cells with decoder lr >= representation lr that generalize (all seeds)",
                      "(a) slowest decoder, fastest representation groks: fraction of seeds",
                      "(a) cells with the official phase, away from official phase boundaries",
                      "(a) fraction of cells confused"],
              why="a fast decoder memorizes and the slowest decoder groks, as in the paper; the fastest decoder "
                  "column is confused (Adam at lr x5), and the map misses the official one cell by cell")
for panel in "bc":
    claims.figure("liu2022", f"Fig. 6{panel}", "partial", scale="book",
                  claims=[f"({panel}) all four phases present: fraction of seeds",
                          f"({panel}) top-right block at least half memorization: fraction of seeds",
                          f"({panel}) confusion bottom right minus top right >= 1/6: fraction of seeds",
                          f"({panel}) a comprehension -> grokking -> memorization column: fraction of seeds",
                          f"({panel}) cells with the official phase, away from official phase boundaries"],
                  why="all four phases, memorization top right, confusion bottom right and the sandwich appear; "
                      "cell by cell the compressed 3,000-step map misses the official one")
claims.figure("liu2022", "Fig. 6d", "partial", scale="book",
              claims=["(d) all four phases present: fraction of seeds",
                      "(d) top-right block at least half memorization: fraction of seeds",
                      "(d) confusion bottom right minus top right >= 1/6: fraction of seeds",
                      "(d) a comprehension -> grokking -> memorization column: fraction of seeds",
                      "(d) fraction of cells that comprehend",
                      "(d) cells with the official phase, away from official phase boundaries"],
              why="the corners (memorization top right, confusion bottom right) reproduce; the wide comprehension "
                  "region of the official S3 map, and with it the sandwich, does not")
for panel in stored_maps:  # each verdict follows from the kinds STORED_KINDS gave its claims after the runs
    claims.figure_from("liu2022", f"Fig. 6{panel} (paper settings)", f"{PAPER}({panel})", scale="paper (CPU, stored)",
                       why=STORED_WHY[panel])
claims.figure("liu2022", "Fig. 6d (official start)", "partial", scale="paper (CPU, stored)",
              claims=["official seed-0 start: the cells at decoder lr 4e-5 and 1.6e-4 have the official phase",
                      "official seed-0 start: share of the official comprehension cells (9 of 12) that comprehend",
                      "comprehending share of 40 starts, our draw order minus the notebook's",
                      "share of 40 notebook-order starts that comprehend where the official map does"],
              why="from the notebook's own start our code comprehends where the official map does at two of three "
                  "slow decoder rates, and both draw orders comprehend equally rarely: the official S3 map shows one "
                  "favourable start, not a bug")
glue("ledger_tally", claims.tally(), display=False)

# %%
claims.ledger()

# %% [markdown]
# ### Deviations and what they mean
#
# - **Time compression and budget.** The book runs $1.5\cdot10^4$ paper-equivalent steps, not
#   $10^5$. Runs that the paper saw generalize (or fit) between $1.5\cdot10^4$ and $10^5$ steps end
#   as memorization (or confusion) here. This is why the slowest decoder (lr $10^{-5}$) memorizes
#   in (b), where the official run groks at step 21 295, and why strong weight decay in (c) (wd ≥ 8
#   at slow decoder lr) fails to fit the training set within our budget (confusion), where the
#   official runs grok. The stored uncompressed maps confirm it: at the paper's $10^5$ steps the slow
#   decoders of (b) grok, and (a) matches the official map at every unambiguous cell.
# - **At the paper's settings, (b) and (c) still differ cell by cell** at the strongest weight decays
#   (the stored maps' deviations above): single cells grok, comprehend or fail to fit where the
#   official one-seed maps memorize or grok. The uncompressed (d) map still has no comprehension: it
#   starts from our trainer's seed-0 draws, not the notebook's. These are one map each, like the
#   official ones, and a cell's phase there depends on its start (the S3 runs above show how much),
#   so they do not say which map is typical.
# - **Adam at large learning rates.** The compression assumes Adam follows gradient flow. At the
#   largest book learning rates ($5\cdot10^{-2}$, i.e. paper-equivalent $10^{-2}$) it does not:
#   the runs become unstable and several cells that memorize in the paper are confused here, e.g.
#   in the last column of (a) (see the figure), where the paper has no confusion at all.
# - **S3 (panel d) is not reproduced cell by cell.** With the paper's own learning rates (no
#   compression) and 3,000 steps, our S3 runs at decoder lr $10^{-5}$–$10^{-3}$ memorize (validation
#   never reaches 90 %), where the official map shows comprehension. Our S3 model follows the official
#   notebook `toy/Figure5d_permutation.ipynb` (3×3 matrices, init scale 0.1, product $E_aE_b$ into the
#   tanh decoder, 24/12 split) but omits its extra loss term $10^{-3}\cdot\mathrm{mean}|E|$, which the
#   paper does not mention. Under Adam that small term dominates the embeddings' normalized update once
#   the training loss is near zero, so it plausibly drives the S3 embeddings to a structured
#   representation. The trainer has it (`TrainConfig.embed_l1`), and a book-scale run of panel (d)
#   with it (one seed, an exploratory run not repeated here) gave a few grokking cells but still no
#   comprehension, so it does not bring the official map back at this budget; the map above is without
#   it (the stored maps keep it). What decides it is the start: the split and templates are the
#   notebook's, bit for bit, but the notebook draws its initial matrices and decoder in another order
#   (an unused encoder first). From the official seed-0 start our code comprehends at
#   {glue:text}`luck_cells_c` of the 9 cells where the official map comprehends, and at the cell
#   tested, {glue:text}`luck_share_official` of 40 starts drawn the notebook's way and
#   {glue:text}`luck_share_ours` drawn ours comprehend (see "Fig. 6(d): a bug or the seed?"): the
#   official map shows one favourable start, and a one-seed map shows comprehension or memorization
#   depending on its seed.
# - **Classification loss (c).** The official sweep (`phase_diagram-classification.ipynb`) used
#   cross-entropy divided by the 19 classes; we use the standard cross-entropy. Adam's update is
#   invariant to a constant factor on the loss (up to $\epsilon$), so this should not move the
#   boundaries.
# - **Coarse grids.** 36 cells per panel instead of 169–176; phase boundaries are located to within
#   one cell (a factor of 4 in learning rate).

# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: -user_expressions
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
# Representation Learning*, §4.1 and Fig. 6; [arXiv 2205.10343](https://arxiv.org/abs/2205.10343), official code [ejmichaud/grokking-squared](https://github.com/ejmichaud/grokking-squared)). Grokking is one of four ways training can end. Train
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

# %% [markdown]
# % generated: claims-summary
#
# **Liu et al. 2022 (effective theory), claim by claim** — 11 paper claims: 1 reproduced, 1 not reproduced (rate 1/2); 6 inconclusive, 3 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ⏳ not tested | — | “We find representation learning to occur only in a “Goldilocks zone” (including comprehension and grokking) between memorization and confusion.” | Fig. 6a, Fig. 6b, Fig. 6c, Fig. 6d |
# | **C2** | ✅ reproduced | T51: 1.00 vs official code 1 ± 0.1 | “we show how the competition between representation learning and decoder learning (which depend on both learning rate and weight decay, among other …” | Fig. 6a |
# | **C3** | ❔ inconclusive | T21: 0.00 vs paper 0 ± 0 | “As expected, a fast decoder coupled with slow representation learning (bottom right) lead to memorization.” | Fig. 6a |
# | **C4** | ❔ inconclusive | T22: 1.00 vs paper 1 ± 0.5 | “In the opposite extreme, although an extremely slow decoder coupled with fast representation learning (top left) will generalize in the end, the …” | Fig. 6a |
# | **C5** | ⏳ not tested | — | “The ideal phase (comprehension) requires representation learning to be faster, but not too much, than the decoder.” | Fig. 6a |
# | **C6** | ⏳ not tested | — | “The decoder plays the role of an environment exerting external forces on the embeddings. If the magnitude of the external forces are small/large one …” | Fig. 6a |
# | **C7** | ❌ not reproduced | T61: 0.80 vs official code 1 ± 0.1 | “We fix the embedding learning rate to be … and sweep instead decoder weight decay in Figure 6 (b)(c)(d). The phase diagrams correspond to addition …” | Fig. 6b, Fig. 6c, Fig. 6d |
# | **C8** | ❔ inconclusive | T24: 1.00 vs paper 1 ± 0.5 | “Common phenomena emerge from these different tasks: (i) they all include four phases;” | Fig. 6b, Fig. 6c, Fig. 6d |
# | **C9** | ❔ inconclusive | T25: 1.00 vs paper 1 ± 0.5 | “(ii) The top right corner (a fast and capable decoder) is the memorization phase;” | Fig. 6b, Fig. 6c, Fig. 6d |
# | **C10** | ❔ inconclusive | T26: 1.00 vs paper 1 ± 0.5 | “(iii) the bottom right corner (a fast and simple decoder) is the confusion phase;” | Fig. 6b, Fig. 6c, Fig. 6d |
# | **C11** | ❔ inconclusive | T27: 0.00 vs paper 1 ± 0.5 | “(iv) grokking is sandwiched between comprehension and memorization, which seems to imply that it is an undesirable phase that stems from improperly …” | Fig. 6b, Fig. 6c, Fig. 6d |
#
# The deciding test is the one the verdict rests on (a decided disagreement first); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
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
# cell by cell: the ledger at the end records both. The same 6 × 6 cells uncompressed, at the official
# learning rates and $10^5$ steps, were run once and stored (36 of the official 169–176 cells, and not
# the official notebooks' random draws: see the setup tables); a section below shows them, and another
# asks whether the S3 panel's missing comprehension is a bug or the seed. The paper scale
# (`REPRO_SCALE=paper`) runs the full official grids with the same code; that has not been run. The
# transformer (Fig. 7) and image (Fig. 8) diagrams are in the next chapter.

# %% tags=["hide-input"]
import math
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from IPython.display import display
from repro.core.prose import glue
from repro.metrics.phases import PHASES

from repro.book.claims import ClaimBook, fraction_standard_error
from repro.core.scale import current_scale
from repro.experiments.liu2022_phase_diagrams import (OFFICIAL_COUNTS, PANELS, ToyPhaseConfig, corner_fraction,
                                                      diagram_map, generalizing_fraction_fast_decoder, layout_counts,
                                                      official_map, official_rerun_map, phase_letters,
                                                      run_phase_diagram, sandwich_columns, shared_cell_agreement,
                                                      shared_cell_kappa, shifted_kappa, shuffled_kappas,
                                                      stored_full_grid, stored_uncompressed, with_columns_reversed)
from repro.experiments.liu2022_phase_diagrams_s3_official import (SeedLuckConfig, stored_official_start_grid,
                                                                 stored_seed_luck)
from repro.experiments.liu2022_phase_diagrams_setup import official_start_setup_table, phase_setup_table
from repro.plotting.liu2022_phase_diagrams import plot_phase_diagrams, plot_phase_examples
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
# The seed is the official one, but not its random numbers: the notebooks draw numbers that the runs never
# use (input templates; an encoder) before the split and the start, while our data path and trainer draw in
# `toy/train_add.py`'s order, so seed 58's split, targets and start are not the official map's (in (d) the
# split and templates are, bit for bit, and the start is not). The setup tables below list this with every
# other difference from the official sweeps.
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

# %% tags=["hide-input"]
configs = {panel: ToyPhaseConfig.for_scale(panel) for panel in PANELS}
print(f"scale: {current_scale()}")
for panel, cfg in configs.items():
    lrs = ", ".join(f"{lr:.1e}" for lr in cfg.lr_dec_values)
    ys = ", ".join(f"{y:.2g}" for y in cfg.y_values)
    print(f"({panel}) {cfg.operation} {cfg.target}, seed {cfg.seed} (init seeds {', '.join(map(str, cfg.init_seeds))}), "
          f"{cfg.steps:,} steps at lr x{cfg.time_scale:g}, gap {cfg.gap}\n"
          f"    decoder lr (paper-equivalent): {lrs}\n    {cfg.y_label}: {ys}")

for panel, cfg in configs.items():
    display(phase_setup_table(f"Fig. 6({panel}), book-scale map", panel, cfg))

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
# ```{figure} _figures/liu2022_phase_diagrams/fig_phases.png
# :name: fig-liu-phases
#
# **Liu et al. 2022, Fig. 6 (ours, book scale).** **Top:** our phase maps (green comprehension, yellow grokking, purple memorization, black
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
# ### What each phase looks like
#
# ```{figure} _figures/liu2022_phase_diagrams/fig_phase_examples.png
# :name: fig-liu-phase-examples
#
# One run of each phase from our maps above (rows: panels a–d; columns: comprehension, grokking, memorization,
# confusion, each frame in the phase's map colour), taken from the cell where most seeds share that phase. Blue:
# training accuracy; red: validation accuracy; dotted: Table 1's 90 % threshold. Comprehension reaches both
# within $10^3$ paper steps of each other; grokking reaches validation more than $10^3$ steps after training;
# memorization fits the training set only; confusion fits neither within the budget.
# ```

# %%
glue("fig_phase_examples", plot_phase_examples(diagrams), display=False)

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
#    representation learning (bottom right) lead to memorization"; official data: none of the
#    {eval}`glued.fast_cells` cells with decoder lr ≥ representation lr generalizes). The fraction of those cells
#    that reach comprehension or grokking, pooled over the seeds, is 0 (shown to 0.05).
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
#
# These are statements of shape (the paper states the layout in words), so the registry files them as form
# *shape*; the bounds inside them (a half, one cell in six, one column) are ours.

# %% tags=["hide-input"]
def seed_verdicts(diagram, statistic, holds) -> np.ndarray:
    """Each seed's map's 0/1 verdict on ``holds(statistic(phases, y_values))``; their mean is the fraction of seeds."""
    return diagram.per_seed(lambda p, y: bool(holds(statistic(p, y))))


def holds_in_seeds(name: str, verdicts):
    """A layout statement checked seed by seed (``verdicts``: 0/1 per seed); the registry's entry ``name`` says what
    it is compared with (1 ± 0.5: it holds in at least half of the seeds)."""
    return claims.check(name, float(np.mean(verdicts)), seeds=verdicts)


a = diagrams["a"]
cfg_a = a.config
off_a = official_map("a")
fast_cells = int((np.asarray(off_a.x_values)[None, :] >= np.asarray(off_a.y_values)[:, None] * (1 - 1e-9)).sum())
off_fast_gen = generalizing_fraction_fast_decoder(off_a.phases, off_a.x_values, off_a.y_values)
print(f"official (a): {fast_cells} of {off_a.phases.size} cells have decoder lr >= representation lr; "
      f"{off_fast_gen:.2f} of them generalize")
glue("fast_cells", str(fast_cells), display=False)
fast_gen_seeds = a.per_seed(lambda p, y: generalizing_fraction_fast_decoder(p, cfg_a.lr_dec_values, y))
fast_gen = float(np.mean(fast_gen_seeds))
claims.check("(a) fraction of cells with decoder lr >= representation lr that generalize (all seeds)", fast_gen,
             reference=off_fast_gen, seeds=fast_gen_seeds)
top = list(cfg_a.y_values).index(max(cfg_a.y_values))
holds_in_seeds("(a) slowest decoder, fastest representation groks: fraction of seeds",
               seed_verdicts(a, lambda p, y: p[top, 0] == "grokking", bool))
sandwich_d = np.zeros(1)
for panel in "bcd":
    d = diagrams[panel]
    holds_in_seeds(f"({panel}) all four phases present: fraction of seeds",
                   seed_verdicts(d, lambda p, y: len({str(v) for v in p.ravel()}), lambda n: n == 4))
    holds_in_seeds(f"({panel}) top-right block at least half memorization: fraction of seeds",
                   seed_verdicts(d, lambda p, y: corner_fraction(p, y, "memorization", "top_right"), lambda v: v >= 0.5))
    holds_in_seeds(f"({panel}) confusion bottom right minus top right >= 1/6: fraction of seeds",
                   seed_verdicts(d, lambda p, y: corner_fraction(p, y, "confusion", "bottom_right")
                                 - corner_fraction(p, y, "confusion", "top_right"), lambda v: v >= 1 / 6 - 1e-9))
    name = f"({panel}) a comprehension -> grokking -> memorization column: fraction of seeds"
    verdicts = seed_verdicts(d, sandwich_columns, lambda n: n >= 1)
    if panel != "d":
        holds_in_seeds(name, verdicts)
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

# %% tags=["hide-input"]
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
    claims.check(f"({panel}) cells with the official phase, away from official phase boundaries",
                 d.interior_agreement(), seeds=(d.seed_phases == d.official_phases()[None])[:, inside].mean(axis=1),
                 evidence=f"{why_cells[panel]}; {time_compression}")
claims.check("(a) fraction of cells confused", float((a.seed_phases == "confusion").mean()),
             reference=float((off_a.phases == "confusion").mean()), seeds=(a.seed_phases == "confusion").mean(axis=(1, 2)),
             evidence="the last decoder-lr column (paper-equivalent 1e-2, actual 5e-2) is confused, where the "
                      f"official runs memorize: Adam at that rate is unstable; {time_compression}")
d = diagrams["d"]
claims.check("(d) a comprehension -> grokking -> memorization column: fraction of seeds", float(np.mean(sandwich_d)),
             seeds=sandwich_d,
             evidence="our S3 map has (almost) no comprehension, so no column can read comprehension -> grokking -> "
                      f"memorization; {why_cells['d']}; {time_compression}")
_ = claims.check("(d) fraction of cells that comprehend", float((d.seed_phases == "comprehension").mean()),
                 reference=round(float((d.official_phases() == "comprehension").mean()), 2),
                 seeds=(d.seed_phases == "comprehension").mean(axis=(1, 2)),
                 evidence=f"{why_cells['d']}; {time_compression}")

# %% [markdown]
# A cell-by-cell table of one seed's letters would change with the CPU's rounding, so the
# cell-by-cell comparison is the figure: its titles give each panel's fraction of (seed, cell) pairs
# with the official phase over all cells, boundary cells included.
#
# ## The same cells uncompressed, at the official rates and budget (stored)
#
# Are the mismatches above the price of the time compression and the short budget, or do they survive
# at the official learning rates and budget? `uncompressed_config(panel)` keeps the book's 6 × 6 cells of a
# panel (every one of them is a cell of the official grid, which has 13 × 13 or 16 × 11) and runs them as
# the paper did: the official learning rates, $10^5$ steps, the comprehension gap of $10^3$ steps and the
# official seed, though not the notebooks' random draws (the setup tables). Accuracies are read
# every 10 steps (the official code reads every step; this moves a first step by less than 10, against
# a gap of 1000), and (d) keeps the official notebook's loss term $10^{-3}\cdot\mathrm{mean}|E|$. The four
# panels took {eval}`glued.fig6_stored_minutes` minutes on two shared CPU cores and are stored
# (`python -m repro.experiments.liu2022_phase_diagrams --store book/_results` recomputes them); the chapter loads them, so the
# maps and letters below are the same on every machine. They are 36 of the official 169–176 cells per
# panel, so they test the layout and the cells they share with the official maps, not the full maps.
#
# The claims are the layout claims of §4.1 and the cell-by-cell comparison, on these maps, with the
# bands used above: each layout statement must hold in the map (one seed, so 1 or 0); at least 90 % of the
# unambiguous cells must have the official phase; (a) has no confusion (at most 0.05 of the cells); in (d)
# the share of comprehending cells is within 0.2 of the official map's at the same cells. The bands were
# the book's before these runs, but which of them would be reproductions and which deviations was decided
# after the maps were seen, and the runs predate sealed claims: every claim on them is marked †. Two
# claims per panel (b)–(d) were added on 2026-11-25, after the maps were seen, to compare numbers rather
# than verdicts: the memorization share of the top-right block and the confusion excess of the bottom
# right, ours against the official map's at the same 36 cells, within one cell of the six-cell block.

# %%
stored_maps, stored_manifests, stored_minutes = {}, {}, 0.0
for panel in PANELS:
    stored_maps[panel], stored_manifests[panel] = require_stored(
        stored_uncompressed(panel, "_results"), f"uncompressed Fig. 6({panel}) map",
        "python -m repro.experiments.liu2022_phase_diagrams --store book/_results", "about an hour on two cores")
    print(f"({panel}) {provenance_line(stored_manifests[panel])}, {stored_manifests[panel]['wall_time_s'] / 60:.0f} min")
    stored_minutes += stored_manifests[panel]["wall_time_s"] / 60
glue("fig6_stored_minutes", f"{stored_minutes:.0f}", display=False)
for panel, sm in stored_maps.items():
    display(phase_setup_table(f"Fig. 6({panel}), stored uncompressed map", panel, sm.config))
# Stored maps are loaded, not recomputed: their letters are the same on every machine.
for panel, sm in stored_maps.items():
    print(f"\n({panel}) {sm.config.y_label} (rows) x decoder lr {', '.join(f'{v:.1e}' for v in sm.config.lr_dec_values)}; "
          f"ours | official")
    for y, ours_row, off_row in zip(sm.config.y_values, phase_letters(sm.phases), phase_letters(sm.official_phases())):
        print(f"  {y:8.2g}  {ours_row}  |  {off_row}")
    print(f"  cells with the official phase: {sm.agreement():.2f} of all, {sm.interior_agreement():.2f} of the "
          f"{int((~sm.official_boundary()).sum())} away from official boundaries")

# %% [markdown]
# ```{figure} _figures/liu2022_phase_diagrams/fig_phases_stored.png
# :name: fig-liu-phases-stored
#
# **Top:** the book's 36 cells of every panel uncompressed ($10^5$ steps at the official learning rates, the
# official seed but our draws), colours as in the first figure; the title gives the fraction of
# cells with the official phase. **Bottom:** the official maps.
# ```

# %%
fig_stored = plot_phase_diagrams(stored_maps, official=True)
glue("fig_phases_stored", fig_stored, display=False)

# %% tags=["hide-input"]
PAPER = "uncompressed, 1e5 steps: "
STORED_WHY = {
    "a": "uncompressed, every unambiguous cell of our 36 has the official phase, with no confusion: the book map's "
         "confused column was the time compression",
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
    "d": "our seed-0 start memorizes or groks where the official map comprehends; the next section runs the notebook's own start",
}
NO_COMPREHENSION = ("from our trainer's seed-0 start (the notebook's split and templates, our draws for the matrices "
                    "and decoder) no S3 cell comprehends; the next section runs the notebook's own start")
LATE_GROKKING = ("at 1e5 steps the cells with the strongest weight decay and a slow decoder grok late (validation "
                 "90 % at steps {}) where the official map memorizes")
SETUP = ("; 36 of the official cells, seed 58/6/0 but our draws of split, targets and start (a-c) or start (d), see "
         "the setup table")


def stored_claim(name: str, ours: float, *, reference: float | None = None, evidence: str = ""):
    """A claim on panel ``name[1]``'s stored map: what it compares with is the registry's entry ``PAPER + name``;
    ``evidence`` is kept for a deviation only."""
    full = PAPER + name
    deviation = claims.registry[full].kind == "deviation"
    return claims.check(full, ours, reference=reference, live=False, run=stored_manifests[name[1]],
                        evidence=evidence + SETUP if deviation else "")


sa = stored_maps["a"]
stored_claim("(a) fraction of cells with decoder lr >= representation lr that generalize",
             generalizing_fraction_fast_decoder(sa.phases, sa.config.lr_dec_values, sa.config.y_values),
             reference=off_fast_gen)
stored_claim("(a) slowest decoder, fastest representation groks",
             float(sa.phases[list(sa.config.y_values).index(max(sa.config.y_values)), 0] == "grokking"))
stored_claim("(a) fraction of cells confused", float((sa.phases == "confusion").mean()),
             reference=float((off_a.phases == "confusion").mean()))
for panel in "bcd":
    sm = stored_maps[panel]
    y, off36 = sm.config.y_values, sm.official_phases()
    stored_claim(f"({panel}) all four phases present", float(len({str(v) for v in sm.phases.ravel()}) == 4),
                 evidence=NO_COMPREHENSION)
    stored_claim(f"({panel}) top-right block at least half memorization",
                 float(corner_fraction(sm.phases, y, "memorization", "top_right") >= 0.5))
    stored_claim(f"({panel}) confusion bottom right minus top right >= 1/6",
                 float(corner_fraction(sm.phases, y, "confusion", "bottom_right")
                       - corner_fraction(sm.phases, y, "confusion", "top_right") >= 1 / 6 - 1e-9))
    stored_claim(f"({panel}) a comprehension -> grokking -> memorization column", float(sandwich_columns(sm.phases, y) >= 1),
                 evidence=NO_COMPREHENSION if panel == "d" else
                 LATE_GROKKING.format(", ".join(str(int(v)) for v in sm.val_steps[0][-1] if v >= 0))
                 + ", so the column that comprehends at little decay ends in grokking, not memorization")
    # Numbers, not verdicts (added 2026-11-25): ours against the official map's at the same 36 cells.
    stored_claim(f"({panel}) memorization share of the top-right block, against the official map at our cells",
                 corner_fraction(sm.phases, y, "memorization", "top_right"),
                 reference=corner_fraction(off36, y, "memorization", "top_right"))
    stored_claim(f"({panel}) confusion excess bottom right over top right, against the official map at our cells",
                 corner_fraction(sm.phases, y, "confusion", "bottom_right") - corner_fraction(sm.phases, y, "confusion", "top_right"),
                 reference=corner_fraction(off36, y, "confusion", "bottom_right") - corner_fraction(off36, y, "confusion", "top_right"))
for panel, sm in stored_maps.items():
    stored_claim(f"({panel}) cells with the official phase, away from official phase boundaries", sm.interior_agreement(),
                 evidence=f"{int(((sm.phases != sm.official_phases()) & ~sm.official_boundary()).sum())} of the "
                          f"{int((~sm.official_boundary()).sum())} unambiguous cells differ; " + STORED_CELLS_WHY.get(panel, ""))

sd = stored_maps["d"]
_ = stored_claim("(d) fraction of cells that comprehend", float((sd.phases == "comprehension").mean()),
                 reference=round(float((sd.official_phases() == "comprehension").mean()), 2),
                 evidence="from our trainer's seed-0 start (the notebook's split and templates, our draws for the "
                          "matrices and decoder) the S3 runs memorize where the official map comprehends; see the "
                          "next section for the official start")

# %% [markdown]
# ## The whole official grid (stored)
#
# The 36 cells above are about a fifth of each official map. `full_grid_config(panel)` runs every cell of the
# official grid (13 × 13 in (a), 11 × 16 in (b)–(d)) at the same settings as the uncompressed maps: the official
# learning rates and seed, $10^5$ steps, the gap of $10^3$ steps, accuracies read every 10 steps, our draws of the
# split, targets and start. A map costs about two core-hours, so it is trained and stored in parts of two official
# rows each (`python -m repro.experiments.liu2022_phase_diagrams --store book/_results --full` trains the parts not
# yet stored). The claims on these maps were registered on 2026-11-28, before any part ran, and each part sealed
# them: every cell with an unambiguous official phase should have it (the band of the 36-cell maps, 0.1), and each
# phase's share of the map should be within 0.1 of the official map's share (a boundary moved by one official grid
# step moves 1/16 to 1/13 of the cells). Which of them were registered as reproductions and which as deviations
# was set from what the 36-cell maps gave under the same bands; where the whole map gives the other kind (in (b)
# the grokking and memorization shares, in (c) the grokking, memorization and confusion shares, in (d) the
# confusion share), the kind is re-labelled by an amendment that leaves the criterion unchanged (the ledger shows
# it). A panel joins this section when all its parts are stored; all four are: {eval}`glued.full_panels`.

# %%
full_maps, full_manifests = {}, {}


def print_parts(prefix, manifests):
    """A whole-grid map's stored parts: how many, their minutes in all, and where they ran."""
    minutes = sum(m["wall_time_s"] for m in manifests) / 60
    print(f"{prefix}all {len(manifests)} parts stored, {minutes:.0f} min in all; "
          + "; ".join(sorted({provenance_line(m) for m in manifests})))


for panel in PANELS:
    stored = stored_full_grid(panel, "_results")
    if stored is None:  # judged once all its parts are stored (the README's table of stored runs gives the progress)
        continue
    full_maps[panel], full_manifests[panel] = stored
    print_parts(f"({panel}) ", full_manifests[panel])
glue("full_panels", ", ".join(f"({p})" for p in full_maps) or "none", display=False)


def print_full_map(title, fm, cmp):
    """A whole-grid map beside the official one, row by row, and how far they agree."""
    print(f"\n{title} {fm.config.y_label} (rows) x decoder lr {fm.config.lr_dec_values[0]:.0e} ... "
          f"{fm.config.lr_dec_values[-1]:.0e} ({len(fm.config.lr_dec_values)} columns); ours | official")
    for y, ours_row, off_row in zip(fm.config.y_values, phase_letters(fm.phases), phase_letters(cmp.official)):
        print(f"  {y:8.2g}  {ours_row}  |  {off_row}")
    print(f"  cells with the official phase: {cmp.agreement:.2f} of all, {cmp.interior_agreement:.2f} of the "
          f"{cmp.interior_cells} away from official boundaries")
    for phase in PHASES:
        ours_n, off_n = cmp.counts[phase]
        print(f"  share in {phase}: ours {ours_n / cmp.n_cells:.3f}, official {off_n / cmp.n_cells:.3f}")


full_cmp = {panel: fm.comparison() for panel, fm in full_maps.items()}  # printed here, judged below
for panel, fm in full_maps.items():
    print_full_map(f"({panel})", fm, full_cmp[panel])

# %% [markdown]
# ```{figure} _figures/liu2022_phase_diagrams/fig_phases_full.png
# :name: fig-liu-phases-full
#
# **Top:** every cell of the official grid, trained at the paper's settings ($10^5$ steps, official learning rates
# and seed, our draws), for the panels whose parts are all stored; colours as in the first figure, and the title
# gives the fraction of cells with the official phase. **Bottom:** the official maps. Compare where each phase
# sits, and where the boundaries between them run, rather than single cells: one seed decides each cell.
# ```

# %%
fig_full = plot_phase_diagrams(full_maps, official=True)
glue("fig_phases_full", fig_full, display=False)

# %% tags=["hide-input"]
FULL = "full grid, 1e5 steps: "
FULL_WHY = {
    "b": "at the strongest weight decays (8-10) the slow-decoder cells grok late where the official map memorizes",
    "c": "where the official map groks (decoder weight decay 6-16), scattered cells of ours comprehend (generalize "
         "within 1e3 steps of fitting) or memorize instead, most of them at weight decay 10-14",
    "d": "where the official map comprehends (the slow decoders at weight decay 0-50) ours memorizes, or groks at the "
         "slowest decoder; its few comprehension cells sit at the fastest decoders, where the official map memorizes",
}
FULL_SETUP = "; the official 11 x 16 or 13 x 13 grid, seed 58/6/0 but our draws of split, targets and start"


def check_full_map(prefix, cmp, run, why, setup):
    """The sealed claims on one whole-grid map (``prefix``: the claims' common start, up to the panel): the
    agreement away from official boundaries and each phase's share; a deviation's evidence quotes the counts."""
    name = f"{prefix} cells with the official phase, away from official phase boundaries"
    # each cell is its own one-seed run: a fraction of cells has at most the binomial seed standard error
    agree_se = fraction_standard_error(cmp.interior_cells - cmp.interior_differ, cmp.interior_cells)
    claims.check(name, cmp.interior_agreement, live=False, run=run, spread=agree_se,
                 evidence=f"{cmp.interior_differ} of the {cmp.interior_cells} unambiguous cells differ; " + why + setup
                 if claims.registry[name].kind == "deviation" else "")
    for phase in PHASES:
        name = f"{prefix} share of cells in {phase}, ours minus the official map's"
        ours_n, off_n = cmp.counts[phase]
        claims.check(name, cmp.share_difference(phase), live=False, run=run,
                     spread=fraction_standard_error(int(ours_n), int(cmp.n_cells)),
                     evidence=f"{ours_n} of {cmp.n_cells} cells against the official {off_n}" + setup
                     if claims.registry[name].kind == "deviation" else "")


for panel, cmp in full_cmp.items():
    check_full_map(f"{FULL}({panel})", cmp, full_manifests[panel], FULL_WHY.get(panel, ""), FULL_SETUP)
for panel in "ad":  # the panels whose deviations bullets quote it
    glue(f"full_{panel}_interior", f"{full_cmp[panel].interior_agreement:.0%}" if panel in full_cmp
         else "(not yet stored)", display=False)

# %% [markdown]
# ### Beyond phase shares: chance-corrected agreement, and the four statements of §4.1
#
# A phase share says how much of the map is in a phase, not where: a map whose cells were shuffled at random keeps
# every share, so it passes every share comparison above while its layout has nothing to do with the official one.
# Beside the shares, each whole map is therefore compared by **Cohen's kappa** (Cohen 1960;
# `repro.metrics.agreement`), $\kappa = (p_o - p_e)/(1 - p_e)$: $p_o$ is the share of cells with the official phase,
# $p_e = \sum_k a_k b_k$ the share that the two maps' phase shares $a_k$, $b_k$ give by chance. A shuffled layout has
# $\kappa \approx 0$, identical maps 1; its standard error is the large-sample one of Fleiss, Cohen & Everitt (1969),
# a bound for one map as the binomial one is for a share. **The band** is the paper's grid resolution, as for the
# shares: the official map against itself with every boundary moved one official grid step along the decoder-lr
# axis has $\kappa$ = {eval}`glued.kappa_shift` (official data only), so a reproduction needs $\kappa \ge 0.7$.
# The official code is no better measure of the paper's precision: its committed re-run of (d) is at chance against
# the paper's file (the re-run section below).
#
# The paper's four statements on these panels, quoted (§4.1, "Universality of phase diagrams"): "(i) they all
# include four phases; (ii) The top right corner (a fast and capable decoder) is the memorization phase; (iii) the
# bottom right corner (a fast and simple decoder) is the confusion phase; (iv) grokking is sandwiched between
# comprehension and memorization". Each is read on each whole map as a number, with the bounds of the 36-cell maps
# (ours): (i) the rarest phase has at least one cell; (ii) at least half of the top-right block memorizes; (iii) the
# bottom-right block's confusion share exceeds the top-right block's by at least 1/6; (iv) at least one decoder-lr
# column reads comprehension → grokking → memorization with increasing weight decay; each share's error is the
# binomial bound over its cells. These entries, and the kappas, were registered on 2026-12-02, before any kappa or
# statement was computed on a stored whole grid but after the grids' agreement and shares had been seen; the
# stored runs did not seal them, so by the book's rules (`repro.book.verdicts`) they are exploratory (†) and decide
# no verdict. A later stored run under the same labels (fresh seeds) would seal them when it starts.

# %% tags=["hide-input"]
shift = {panel: shifted_kappa(official_map(panel)) for panel in PANELS}
print("official map against itself one grid step along the decoder lr: kappa "
      + ", ".join(f"({p}) {k.kappa:.2f}" for p, k in shift.items()))
glue("kappa_shift", ", ".join(f"{k.kappa:.2f} ({p})" for p, k in shift.items()), display=False)
shuffled = {p: shuffled_kappas(official_map(p).phases, official_map(p).phases, n_shuffles=200, seed=0) for p in PANELS}
for p, ks in shuffled.items():
    print(f"({p}) 200 shuffles of the official map: every share difference 0, kappa {ks.mean():+.3f} (sd {ks.std():.3f})")
_ = claims.check("official maps (a)-(d) with their cells shuffled at random (200 shuffles each): largest |mean "
                 "Cohen's kappa| against the unshuffled map", max(abs(float(ks.mean())) for ks in shuffled.values()),
                 live=False)

# %% tags=["hide-input"]
KAPPA = "Cohen's kappa against the official map over all cells"
LAYOUT = {"(i)": "share of cells in the rarest phase (all four phases present: at least one cell)",
          "(ii)": "memorization share of the top-right block (at least half)",
          "(iii)": "confusion share of the bottom-right block minus the top-right block (at least 1/6)",
          "(iv)": "share of decoder-lr columns reading comprehension -> grokking -> memorization with increasing "
                  "weight decay (at least one)"}


def check_kappa(name, k, run, why):
    """A whole map's kappa against the official map (registry entry ``name``), with its standard error."""
    deviation = claims.registry[name].kind == "deviation"
    return claims.check(name, k.kappa, live=False, run=run, spread=k.standard_error,
                        evidence=f"kappa {k.kappa:.2f} ± {k.standard_error:.2f}: {k.observed:.2f} of the {k.n} cells "
                                 f"agree, where the two maps' phase shares give {k.chance:.2f} by chance; {why}"
                        if deviation else "")


def check_layout(prefix, phases, y_values, run, why, tag_why=None):
    """§4.1 (i)-(iv) on one whole map (:func:`layout_counts`): a share, or a difference of two, with binomial errors;
    a deviation's evidence is ``tag_why[tag]`` where given, else ``why``."""
    for tag, counts in layout_counts(phases, y_values).items():
        name, shares = f"{prefix} {LAYOUT[tag]}", [k / n for k, n in counts]
        claims.check(name, shares[0] - sum(shares[1:]), live=False, run=run,
                     reference=1 / counts[0][1] if claims.registry[name].computed else None,
                     spread=math.hypot(*(fraction_standard_error(k, n) for k, n in counts)),
                     evidence=" minus ".join(f"{k} of {n}" for k, n in counts)
                     + (f" {tag_why[tag]}" if tag in (tag_why or {}) else f"; {why}")
                     if claims.registry[name].kind == "deviation" else "")


# %%
LAYOUT_WHY = {  # what a whole map shows where a statement misses (written from the maps)
    "b": {"(iv)": "columns read comprehension -> grokking -> memorization: where the official map's columns end "
                  "in memorization at the strongest weight decays (8-10), ours keep grokking (official: 4 of 16)"},
    "d": {"(iv)": "columns read comprehension -> grokking -> memorization: ours comprehends at 3 cells only, at "
                  "the fastest decoders, none followed by grokking and then memorization at stronger decay "
                  "(official: 8 of 16)"}}
full_kappa = {}
for panel, fm in full_maps.items():
    k = full_kappa[panel] = fm.kappa()
    print(f"({panel}) kappa {k.kappa:.2f} ± {k.standard_error:.2f} (cells agreeing {k.observed:.2f}, by chance {k.chance:.2f})")
    check_kappa(f"{FULL}({panel}) {KAPPA}", k, full_manifests[panel], FULL_WHY.get(panel, "") + FULL_SETUP)
    if panel != "a":
        check_layout(f"{FULL}({panel})", fm.phases, fm.config.y_values, full_manifests[panel], FULL_WHY[panel] + FULL_SETUP,
                     LAYOUT_WHY.get(panel))
glue("kappa_full", ", ".join(f"{k.kappa:.2f} ± {k.standard_error:.2f} ({p})" for p, k in full_kappa.items()),
     display=False)

# %% [markdown]
# ## Fig. 6(d): a bug or the seed?
#
# Neither map of (d), compressed or not, comprehends where the official one does. Is our S3 code
# wrong, or does the official map need a lucky start? The official notebook
# (`toy/Figure5d_permutation.ipynb`) draws, for seed $s$: the templates and the 24/12 split from
# numpy (our data path draws the same, bit for bit), then from torch an encoder that the S3 runs
# never use, the decoder, and last the matrices. Our trainer draws the matrices first and has no
# encoder: the same distributions, other numbers. `repro.experiments.liu2022_phase_diagrams_s3_official` redraws the notebook's
# start in our parameter layout (a unit test re-enacts the notebook's draws with torch's own
# `nn.Linear` and checks it value for value) and hands it to our trainer. Two runs decide it, stored
# (`python -m repro.experiments.liu2022_phase_diagrams_s3_official --store book/_results`, {eval}`glued.luck_minutes` minutes):
#
# 1. **The official start.** The official seed-0 start, with the official learning rates and budget and the notebook's L1
#    term, at 12 cells of the official grid: weight decay 0, 1 and 3, decoder lr $10^{-5}$, $4\cdot10^{-5}$,
#    $1.6\cdot10^{-4}$ and $6.3\cdot10^{-4}$ (official columns 0, 3, 6 and 9), $10^5$ steps.
# 2. **Many starts.** One cell where the official map comprehends (weight decay 0, decoder lr
#    $1.6\cdot10^{-4}$), from 40 starts drawn the notebook's way and 40 drawn ours, 1,500 steps each (every
#    start that fits does so by step 500 here, so comprehension, validation within $10^3$ steps of
#    training, is decided by then).

# %% tags=["hide-input"]
luck_cfg = SeedLuckConfig()
luck, luck_manifest = load_stored(stored_seed_luck(luck_cfg, "_results"), "S3 seed-luck run",
                                  "python -m repro.experiments.liu2022_phase_diagrams_s3_official --store book/_results", "about 15 minutes on one core",
                                  glue_minutes="luck_minutes")
official_letters = luck_cfg.official_letters()
display(official_start_setup_table(luck_cfg))
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
# whether the difference is in the code or in the start. The first claim is a *selection*: the two columns
# where the official start matches were picked after the run (the second claim takes all the comprehension
# cells). All four are marked †: the run predates sealed claims.

# %% tags=["hide-input"]
claims.check("official seed-0 start: the cells at decoder lr 4e-5 and 1.6e-4 have the official phase",
             float(np.mean(luck.cell_phases[:, 1:3] == official_letters[:, 1:3])), live=False, run=luck_manifest)
claims.check("official seed-0 start: share of the official comprehension cells (9 of 12) that comprehend",
             cells_c / int(official_c.sum()), live=False, run=luck_manifest,
             evidence="from the notebook's own seed-0 start our code comprehends at decoder lr 4e-5 and 1.6e-4 in all "
                      "three rows (the official letters), but memorizes at 1e-5 (validation never reaches 90 % in 1e5 "
                      "steps), and comprehends at 6.3e-4 where the official map memorizes or groks; the notebook "
                      "as committed sweeps 10 lrs for 1e4 steps, so the official data file came from another run "
                      "(and float32 sums in another order)")
claims.check("comprehending share of 40 starts, our draw order minus the notebook's", share_ours - share_off,
             live=False, run=luck_manifest)
_ = claims.check("share of 40 notebook-order starts that comprehend where the official map does", share_off,
                 live=False, run=luck_manifest,
                 evidence="only a minority of starts, drawn either way, comprehends at this cell; the notebook's own "
                          "seed-0 start does not give the paper's map either (the re-run comparison below)")

# %% [markdown]
# ### The whole (d) grid from the official start (stored)
#
# The same official seed-0 start, trained at every cell of the official (d) grid (11 weight decays × 16 decoder
# learning rates, $10^5$ steps, the notebook's L1 term): does the official map's wide comprehension region come
# back when only the start is the official one? It is stored in six parts of two rows
# (`python -m repro.experiments.liu2022_phase_diagrams_s3_official --store book/_results --full-grid`, about 45
# minutes per part on one core beside another job). Its claims were registered on 2026-11-28, before any part ran,
# with the bands of the whole grids above; from the 12 cells of the run above, the agreement away from boundaries
# and the comprehension share were registered as expected to miss (deviations). The map is judged here once all
# six parts are stored (the README's table of stored runs gives the progress); it is {eval}`glued.official_start_full`.

# %%
OFFICIAL_START = "full grid from the official start, 1e5 steps: (d)"
official_start = stored_official_start_grid("_results")
glue("official_start_full", "stored and judged below" if official_start else "not yet complete", display=False)
if official_start is not None:
    start_map, start_manifests = official_start
    start_cmp = start_map.comparison()
    print_parts("", start_manifests)
    print_full_map("(d) from the official seed-0 start:", start_map, start_cmp)

# %%
# What the whole official-start map shows, for the deviations' evidence and the ledger, written from the map (judged
# only when all its parts are stored).
OFFICIAL_START_WHY = ("from the notebook's own start ours comprehends at almost every decoder lr from the fourth "
                      "column up at weight decay 0-30, where the official map memorizes or groks at the fast decoders, "
                      "and memorizes at the three slowest decoders, where the official map comprehends")
OFFICIAL_START_FIGURE_WHY = ("the official start brings comprehension back, on more cells than the official map, but "
                             "not in its place: ours memorizes at the slowest decoders where the official map "
                             "comprehends, and comprehends at the fast decoders where it memorizes or groks; the "
                             "grokking and confusion shares are the official ones within the band, kappa is at "
                             "chance, and the top right comprehends rather than memorizes")
if official_start is not None:
    START_SETUP = "; the official 11 x 16 grid from the notebook's seed-0 start (its draws, redrawn in its order)"
    check_full_map(OFFICIAL_START, start_cmp, start_manifests, OFFICIAL_START_WHY, START_SETUP)
    start_kappa = start_map.kappa()
    print(f"kappa against the official map {start_kappa.kappa:.2f} ± {start_kappa.standard_error:.2f} (cells agreeing "
          f"{start_kappa.observed:.2f}, by chance {start_kappa.chance:.2f})")
    check_kappa(f"{OFFICIAL_START} {KAPPA}", start_kappa, start_manifests, OFFICIAL_START_WHY + START_SETUP)
    check_layout(OFFICIAL_START, start_map.phases, start_map.config.y_values, start_manifests,
                 OFFICIAL_START_WHY + START_SETUP,
                 {"(ii)": "cells of the top-right block memorize: from the notebook's start ours comprehends at the fast "
                          "decoders under weak weight decay, where the official map memorizes (official: 30 of 32)"})
glue("official_start_interior", f"{start_cmp.interior_agreement:.0%}" if official_start else "(not yet stored)",
     display=False)
glue("kappa_start", f"{start_kappa.kappa:.2f} ± {start_kappa.standard_error:.2f}" if official_start
     else "(not yet stored)", display=False)

# %% [markdown]
# **Does the official code give the paper's map?** The official repository commits a re-run of its own S3
# notebook (`toy/results/fig5d`: seed 0, ten decoder learning rates, $10^4$ steps). At the 44 cells it shares with
# the paper's data file (four decoder rates, eleven weight decays), the two agree at {eval}`glued.rerun_same`
# cells, $\kappa$ = {eval}`glued.rerun_kappa`: no better than chance. The notebook draws that re-run with the
# decoder-rate axis reversed (`plt.imshow(RGB[:,::-1])` under ticks that still read $10^{-5}$ to $10^{-2}$ left to
# right), which makes its picture look like the paper's: reversed, it agrees with the paper's file at
# {eval}`glued.rerun_reversed` cells. Our whole grid from the notebook's seed-0 start, read as a run of the
# re-run's $10^4$ steps would have ended, has the re-run's phase at {eval}`glued.start_vs_rerun` of the shared
# cells: from the same start our code gives the official code's own output. Last, if the paper's file carried the
# same reversal, its columns reversed would be that map at $10^5$ steps. Reversed, it scores $\kappa$ =
# {eval}`glued.reversed_vs_start` against that map, closer than unreversed ({eval}`glued.kappa_start`) but short
# of the band: the reversal alone does not make the paper's file the committed notebook's output. So the
# committed official code, ours with it, does not give the paper's (d) map from the notebook's seed; which run
# did is not in the repository.

# %% tags=["hide-input"]
rerun, official_d = official_rerun_map(), official_map("d")
rerun_same, rerun_n = shared_cell_agreement(official_d, rerun)
claims.check("Fig. 6(d), the official code's committed re-run against the paper's data file: share of the 44 "
             "shared cells with the same phase", rerun_same / rerun_n, live=False,
             evidence=f"{rerun_same} of {rerun_n} shared cells agree; the re-run comprehends at the fast decoders, "
                      "where the paper's map memorizes")
k_rerun = shared_cell_kappa(official_d, rerun)
claims.check("Fig. 6(d), the official code's committed re-run against the paper's data file: Cohen's kappa over the "
             "44 shared cells", k_rerun.kappa, live=False,
             evidence=f"kappa {k_rerun.kappa:.2f} ± {k_rerun.standard_error:.2f}: {rerun_same} of {rerun_n} cells "
                      f"agree, where the two maps' shares give {k_rerun.chance * rerun_n:.1f} by chance")
reversed_same = shared_cell_agreement(official_d, with_columns_reversed(rerun))
glue("rerun_same", f"{rerun_same} of {rerun_n}", display=False)
glue("rerun_kappa", f"{k_rerun.kappa:.2f} ± {k_rerun.standard_error:.2f}", display=False)
glue("rerun_reversed", f"{reversed_same[0]} of {reversed_same[1]} (kappa "
     f"{shared_cell_kappa(official_d, with_columns_reversed(rerun)).kappa:.2f})", display=False)
print(f"re-run against the paper's file: {rerun_same} of {rerun_n} cells, kappa {k_rerun.kappa:.2f}; reversed: "
      f"{reversed_same[0]} of {reversed_same[1]}")

# %% tags=["hide-input"]
RERUN_STEPS = 10_000  # toy/results/fig5d: the notebook's 1e4 steps
if official_start is not None:
    start_1e4 = diagram_map(start_map, budget=RERUN_STEPS)
    same_1e4 = shared_cell_agreement(start_1e4, rerun)
    k_start = shared_cell_kappa(start_1e4, rerun)
    print(f"official start read at {RERUN_STEPS:,} steps against the re-run: {same_1e4[0]} of {same_1e4[1]} cells, "
          f"kappa {k_start.kappa:.2f}")
    claims.check("Fig. 6(d), our full grid from the official start read at the re-run's 1e4 steps against the official "
                 "code's committed re-run: Cohen's kappa over the 44 shared cells", k_start.kappa, live=False,
                 run=start_manifests, spread=k_start.standard_error)
    k_rev = shared_cell_kappa(with_columns_reversed(official_d), diagram_map(start_map))
    print(f"the paper's file reversed against the official-start grid: kappa {k_rev.kappa:.2f} ± {k_rev.standard_error:.2f}")
    check_kappa("Fig. 6(d), the paper's data file with its decoder-lr axis reversed against our full grid from the "
                "official start: Cohen's kappa over all cells", k_rev, start_manifests,
                "the reversal does not turn the paper's file into the official code's map from its seed-0 start")
glue("start_vs_rerun", f"{same_1e4[0]} of {same_1e4[1]} (kappa {k_start.kappa:.2f})" if official_start
     else "(not yet stored)", display=False)
glue("reversed_vs_start", f"{k_rev.kappa:.2f} ± {k_rev.standard_error:.2f}" if official_start else "(not yet stored)",
     display=False)

# %% [markdown]
# ## Paper versus ours
#
# The paper's claims on the phase diagrams, numbered and quoted, each with one verdict by the book's decision
# rules (stated under the table): {eval}`glued.ledger_tally`. Only the whole official grids' claims that were
# sealed before their runs, and comparisons of official files with each other, can decide a claim; the book-scale
# maps (live), the stored uncompressed maps (†: they predate sealed claims) and the kappas and §4.1 statements on
# the whole grids (†: registered after those runs) are exploratory. With one seed per cell, as in the official sweeps, a fraction of cells
# takes the binomial bound on its seed standard error (each cell is its own run).

# %% tags=["hide-input", "hide-output"]
claims.figure("liu2022", "Fig. 6a", scale="book",
              claims=["(a) fraction of cells with decoder lr >= representation lr that generalize (all seeds)",
                      "(a) slowest decoder, fastest representation groks: fraction of seeds",
                      "(a) cells with the official phase, away from official phase boundaries",
                      "(a) fraction of cells confused"],
              why="a fast decoder memorizes and the slowest decoder groks, as in the paper; the fastest decoder "
                  "column is confused (Adam at lr x5), and the map misses the official one cell by cell")
for panel in "bc":
    claims.figure("liu2022", f"Fig. 6{panel}", scale="book",
                  claims=[f"({panel}) all four phases present: fraction of seeds",
                          f"({panel}) top-right block at least half memorization: fraction of seeds",
                          f"({panel}) confusion bottom right minus top right >= 1/6: fraction of seeds",
                          f"({panel}) a comprehension -> grokking -> memorization column: fraction of seeds",
                          f"({panel}) cells with the official phase, away from official phase boundaries"],
                  why="all four phases, memorization top right, confusion bottom right and the sandwich appear; "
                      "cell by cell the compressed 3,000-step map misses the official one")
claims.figure("liu2022", "Fig. 6d", scale="book",
              claims=["(d) all four phases present: fraction of seeds",
                      "(d) top-right block at least half memorization: fraction of seeds",
                      "(d) confusion bottom right minus top right >= 1/6: fraction of seeds",
                      "(d) a comprehension -> grokking -> memorization column: fraction of seeds",
                      "(d) fraction of cells that comprehend",
                      "(d) cells with the official phase, away from official phase boundaries"],
              why="the corners (memorization top right, confusion bottom right) reproduce; the wide comprehension "
                  "region of the official S3 map, and with it the sandwich, does not")
for panel in stored_maps:  # the verdict its claims support (all †: the stored runs predate sealed claims)
    claims.figure_from("liu2022", f"Fig. 6{panel} (uncompressed, 36 cells)", f"{PAPER}({panel})",
                       scale="paper (CPU, stored)",
                       why=STORED_WHY[panel] + "; 36 of the official cells, our draws of the seed; † : the stored run "
                                               "predates sealed claims")
FULL_FIGURE_WHY = {
    "a": "every phase sits where the official map has it (grokking at the slow decoders, comprehension beside it at "
         "the fast representation rates, memorization elsewhere, no confusion) and takes its official share within "
         "the band; cell by cell, most rows' boundaries sit one grid step toward the slower decoders (fewer grokking "
         "cells), and at representation lr 10^-4 to 10^-4.25 ours memorizes where the official map groks or "
         "comprehends; kappa is within the band",
    "b": "every phase sits where the official map has it and takes its official share of the map within the band; "
         "cell by cell the strongest weight decays differ (slow decoders grok where the official map memorizes), so "
         "kappa falls short of the band and no column reads comprehension -> grokking -> memorization",
    "c": "memorization at fast decoders and confusion at the strongest weight decays sit where the official map has "
         "them, and three of the four phase shares are within the band; the grokking region is thinned by scattered "
         "cells that comprehend or memorize, so its share misses and kappa falls short of the band; the four "
         "statements of §4.1 hold",
    "d": "memorization at the fast decoders and confusion at the strongest weight decay sit where the official map has "
         "them, and the grokking and confusion shares are within the band; the official map's comprehension region "
         "(the slow decoders at weight decay 0-50) is missing: ours memorizes there, and its grokking cells sit at "
         "the slowest and the fastest decoder and scattered at weight decay 10-100 rather than on the official "
         "boundary: kappa is at chance, and there is no sandwich",
}
for panel in full_maps:  # the verdict its claims support
    claims.figure_from("liu2022", f"Fig. 6{panel} (full grid)", f"{FULL}({panel})", scale="paper (CPU, stored)",
                       why=FULL_FIGURE_WHY[panel] + "; the official grid at the paper's settings, our draws of the seed")
if official_start is not None:  # the verdict its sealed claims support
    claims.figure_from("liu2022", "Fig. 6d (full grid, official start)", OFFICIAL_START, scale="paper (CPU, stored)",
                       why=OFFICIAL_START_FIGURE_WHY + "; the official grid at the paper's settings from the notebook's "
                                                       "seed-0 start")
claims.figure("liu2022", "Fig. 6d (official start)", scale="paper (CPU, stored)",
              claims=["official seed-0 start: the cells at decoder lr 4e-5 and 1.6e-4 have the official phase",
                      "official seed-0 start: share of the official comprehension cells (9 of 12) that comprehend",
                      "comprehending share of 40 starts, our draw order minus the notebook's",
                      "share of 40 notebook-order starts that comprehend where the official map does"],
              why="from the notebook's own start our code comprehends where the official map does at two of three "
                  "slow decoder rates (a selection), and both draw orders comprehend equally rarely at the cell "
                  "tested; from that start the whole grid gives the official code's own re-run, not the paper's map, "
                  "so no start shown explains the paper's map; † : the stored run predates sealed claims")
glue("ledger_tally", claims.tally(), display=False)

# %% tags=["hide-input", "hide-output"]
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
#   decoders of (b) grok, and (a) matches the official map at every unambiguous cell of our 36.
# - **Uncompressed, (b) and (c) still differ cell by cell** at the strongest weight decays
#   (the stored maps' deviations above): single cells grok, comprehend or fail to fit where the
#   official one-seed maps memorize or grok. The uncompressed (d) map still has no comprehension: it
#   starts from our trainer's seed-0 draws, not the notebook's. These are one map each, like the
#   official ones, and a cell's phase there depends on its start (the S3 runs above show how much),
#   so they do not say which map is typical.
# - **The whole official grid of (b)** (see {ref}`the whole-grid figure <fig-liu-phases-full>`): every phase takes its official share of the
#   map within the registered band, and the cells that differ from the official phase lie where the 36-cell map
#   put them: at the strongest weight decays, slow decoders grok late where the official map memorizes. The
#   36-cell map had put the grokking and memorization shares outside the band; the whole map does not, so those
#   misses came from which cells the 36 were.
# - **The whole official grid of (c)** (see {ref}`the whole-grid figure <fig-liu-phases-full>`): memorization sits at fast decoders and weak
#   decoder weight decay, and confusion at the strongest weight decays, as in the official map (ours also puts
#   confusion at the slowest decoders there); the comprehension, memorization and confusion shares are within the
#   band. The grokking region is thinner: where the official map groks, at decoder weight decay 6–16, scattered
#   cells of ours comprehend (generalize within $10^3$ steps of fitting) or memorize instead, so the grokking share
#   misses the band. The 36-cell map had put the memorization and confusion shares outside the band and the
#   grokking share inside; the whole map gives the reverse, so 36 cells of one seed each do not settle a share to
#   within 0.1.
# - **The whole official grid of (a)** (see {ref}`the whole-grid figure <fig-liu-phases-full>`): the one panel
#   whose whole map meets every registered claim. Away from official phase boundaries,
#   {eval}`glued.full_a_interior` of the cells have the official phase, and each phase's share is within the band.
#   Where ours differs, it is at a boundary: in most rows the boundaries sit one grid step toward the slower
#   decoders, so ours has fewer grokking cells, and at representation lr $10^{-4}$ and $10^{-4.25}$ ours memorizes
#   where the official map groks or comprehends. The 36-cell map had agreed at every unambiguous cell; the whole
#   map keeps that.
# - **The whole (d) grid from the official start** (the section "The whole (d) grid from the official start"): the
#   notebook's own seed-0 start brings comprehension back, on more cells than the official map has, but not in its
#   place. At weight decay up to 30 ours memorizes at the three slowest decoders, where the official map
#   comprehends, and comprehends at the faster decoders, where the official map memorizes or groks. Away from
#   official boundaries {eval}`glued.official_start_interior` of the cells have the official phase; the grokking and
#   confusion shares are within the band, the comprehension and memorization shares are not. The memorization share
#   had been registered as expected within the band; its kind is re-labelled by an amendment, criterion unchanged.
#   So the official start brings comprehension into a (d) map, but not the official map's layout; it does give the
#   official notebook's committed re-run ({eval}`glued.start_vs_rerun` of the shared cells at its $10^4$ steps). The
#   official data file came from another run than the notebook as committed; what in that run placed the region is
#   not known.
# - **The whole official grid of (d)** (see {ref}`the whole-grid figure <fig-liu-phases-full>`): from our draws of
#   the seed-0 start, the official map's comprehension region is missing. Where the official map comprehends, at
#   the slow decoders and weight decay up to 50, ours memorizes, or groks at the slowest decoder; ours comprehends
#   at a handful of cells, all at the fastest decoders. Memorization at the fast decoders and confusion at weight
#   decay 200 sit where the official map has them, and the grokking and confusion shares are within the band,
#   though ours groks at the slowest decoder, at the fastest decoder under weak weight decay and at scattered
#   cells of weight decay 10–100 rather than on the official boundary. Away from official boundaries
#   {eval}`glued.full_d_interior` of the cells have the official phase. The confusion share had been registered as
#   a deviation from the 36-cell map; ours is confused on the whole last row, which puts the share within the
#   band, so its kind is re-labelled by an amendment, criterion unchanged. Beside the official-start map above
#   (one start of each kind): from our draws this map all but never comprehends, from the notebook's start it
#   comprehends on more cells than the official map. So the start decides whether the map comprehends (the 40
#   starts above found such starts rare in both draw orders), and our code is not what differs: from the notebook's
#   start it gives the official code's own re-run ({eval}`glued.start_vs_rerun` of the shared cells). Neither start
#   puts the region where the paper's map has it.
# - **Chance-corrected, the whole maps** (the section "Beyond phase shares"). Cohen's $\kappa$ of each whole map
#   against the official one is {eval}`glued.kappa_full`, and {eval}`glued.kappa_start` for (d) from the official
#   start; a reproduction needs 0.7, what a map with every boundary one grid step off scores. Only (a) reaches it.
#   (b) and (c) fall short although their phase shares are mostly within the band, and both (d) maps are at chance,
#   so their grokking and confusion shares within the band say how much of each phase there is, not where it is.
#   Of §4.1's four statements, (i)–(iii) hold on the whole maps of (b), (c) and (d); (iv), the sandwich, holds in
#   (c) only: in (b) the columns that end in memorization in the official map keep grokking, and (d) comprehends at
#   a few cells only. From the official start (iv) holds and (ii) does not: the top right comprehends. All of these
#   were registered after the maps had been seen and are exploratory (†); they decide no verdict.
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
#   {eval}`glued.luck_cells_c` of the 9 cells where the official map comprehends, and at the cell
#   tested, {eval}`glued.luck_share_official` of 40 starts drawn the notebook's way and
#   {eval}`glued.luck_share_ours` drawn ours comprehend (see "Fig. 6(d): a bug or the seed?"), so a one-seed map
#   shows comprehension or memorization depending on its seed. But the paper's map is not one start of the
#   committed code: from the notebook's own seed-0 start our code gives the official code's committed re-run at
#   {eval}`glued.start_vs_rerun` of the cells they share, and that re-run agrees with the paper's data file no
#   better than chance ($\kappa$ = {eval}`glued.rerun_kappa`). The paper's file came from another run (another
#   revision, setting or start) that the repository does not hold; nothing here shows that a favourable start of
#   this code gives it.
# - **Classification loss (c).** The official sweep (`phase_diagram-classification.ipynb`) used
#   cross-entropy divided by the 19 classes; we use the standard cross-entropy. Adam's update is
#   invariant to a constant factor on the loss (up to $\epsilon$), so this should not move the
#   boundaries.
# - **Coarse grids.** 36 cells per panel instead of 169–176; phase boundaries are located to within
#   one cell (a factor of 4 in learning rate). The stored uncompressed maps have the same 36 cells, not the
#   official 13 × 13 or 16 × 11 grids.
# - **The seed's random numbers.** Every map uses the official seed of its panel, but our data path and
#   trainer draw the split, the targets and the start in `toy/train_add.py`'s order, while the phase-diagram
#   notebooks first draw numbers their runs never use (input templates, an encoder). So in (a)–(c) the
#   split, the targets and the start are not the official map's, and in (d) the start is not; since a
#   cell's phase near a boundary depends on the start (the S3 runs show how much), a one-seed map cannot
#   match the official one cell by cell there, whatever the code.

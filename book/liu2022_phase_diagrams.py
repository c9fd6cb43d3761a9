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
# **What we reproduce.** All four panels of Fig. 6, each as one batched sweep of the toy model
# (1-D embeddings summed, or 3×3 matrices multiplied for S3, into a tanh 200-200 decoder), compared
# cell by cell with the official phase maps derived from the paper's data files (ejmichaud/grokking-squared,
# `phase_diagram_plot/*.h5`).
#
# **What we don't, at book scale.** The paper's grids (169–176 cells) at $10^5$ steps each take
# hours on a CPU. The book runs 6 × 6 cells of each official grid with time compressed five-fold
# (explained below), i.e. the equivalent of $1.5\cdot 10^4$ of the paper's steps. The paper scale
# (`REPRO_SCALE=paper`) runs the official grids with the same code; no GPU was available for this
# edition, so it has not been run. The transformer (Fig. 7) and image (Fig. 8) diagrams are in the
# next chapter.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from myst_nb import glue

from repro.claims import ClaimBook
from repro.liu_phases import (OFFICIAL_COUNTS, PANELS, ToyPhaseConfig, corner_fraction,
                              generalizing_fraction_fast_decoder, official_map, plot_phase_diagrams,
                              run_phase_diagram, sandwich_columns, seed_fraction)
from repro.portable import approx
from repro.plotting import use_style
from repro.scale import current_scale

use_style()
claims = ClaimBook("liu2022_phase_diagrams")

# %% [markdown]
# ## Configuration
#
# `ToyPhaseConfig.paper(panel)` holds the official grid of each panel (decoder lr
# $10^{-5}\ldots10^{-2}$; the second axis is the representation lr in (a) and the decoder weight
# decay in (b)–(d)), its seed (58 for regression, 6 for classification, 0 for S3; every cell of a
# panel shares it), the embedding lr $10^{-3}$ and the budget of $10^5$ steps.
#
# **Time compression at book scale.** Adam moves each weight by about its learning rate per step,
# so multiplying every learning rate by $k$ and dividing the number of steps by $k$ follows roughly
# the same path. AdamW's decoupled decay multiplies the weights by $1 - \mathrm{lr}\cdot\mathrm{wd}$
# per step, so it is compressed the same way and the weight-decay axis keeps its values.
# `ToyPhaseConfig.book(panel)` uses $k = 5$: 3,000 steps, comprehension gap 200 steps, every learning
# rate ×5. Axes and tables below show paper-equivalent learning rates (actual ÷ 5), so each book cell
# sits on a cell of the official grid.
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
# The official phase maps are stored in the package as letters (C, G, M, X), transcribed from the
# spec. Their phase counts must equal the counts the spec lists for the paper's data, and the
# spec's anchor cells must read right: in (b), decoder lr $10^{-4}$ at weight decay 0 comprehends
# (train 1650 / val 2076 steps) and $10^{-5}$ groks (14 262 / 21 295).

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
# ## Paper versus ours
#
# Each claim is checked on each seed's map, and the table gives the fraction of the seeds in which
# it holds (with the book's one seed: 1 or 0). A claim must hold in at least half of the seeds
# (≥ 0.5), except claim 1, which must hold in every seed. The value is shown to 0.5, so it changes
# only when a seed's own verdict changes, not when a boundary cell flips. The bounds inside each claim
# are the paper's. The
# corner blocks are the right half of the decoder-lr columns and the lowest (top right) or highest
# (bottom right) third of the weight-decay rows, at least two rows; the same function applied to the
# official maps gives the values quoted in the sources.
#
# 1. **(a) A fast decoder does not generalize** (§4.1; official data: none of the cells with decoder
#    lr ≥ representation lr generalizes). Bound: the fraction of those cells that reach comprehension
#    or grokking is 0, pooled over the seeds (shown to 0.05).
# 2. **(a) The slowest decoder with the fastest representation groks rather than comprehends**
#    (§4.1: "an extremely slow decoder coupled with fast representation learning (top left) will
#    generalize in the end, [but] the generalization time is long"). The top-left cell is grokking.
# 3. **(b)–(d) All four phases appear** (§4.1 (i)): the map has all 4 phases.
# 4. **(b)–(d) The top right memorizes** (§4.1 (ii)): memorization is at least half of the top-right
#    block (official: 0.97, 0.59, 0.94).
# 5. **(b)–(d) The bottom right is confused** (§4.1 (iii)): the fraction of confusion in the
#    bottom-right block exceeds that in the top-right block by at least one cell in six (0.17;
#    official: 0.72, 0.28, 0.22).
# 6. **(b), (c) Grokking is sandwiched between comprehension and memorization** (§4.1 (iv)): at
#    least one decoder-lr column reads comprehension → grokking → memorization with increasing weight
#    decay (official: 4 and 12 of 16 columns). Our S3 panel (d) does **not** reproduce this (see
#    below and the deviations); we print it instead of checking it.

# %%
a = diagrams["a"]
cfg_a = a.config
fast_gen = float(np.mean(a.per_seed(lambda p, y: generalizing_fraction_fast_decoder(p, cfg_a.lr_dec_values, y))))
claims.check("(a) fraction of cells with decoder lr >= representation lr that generalize (all seeds)", fast_gen, 0.0,
             comparison="<=", resolution=0.05, source="Liu et al. 2022 §4.1, Fig. 6a; official data: 0 of 109")
top = list(cfg_a.y_values).index(max(cfg_a.y_values))
claims.check("(a) slowest decoder, fastest representation groks: fraction of seeds",
             seed_fraction(a, lambda p, y: p[top, 0] == "grokking", bool), 0.5, comparison=">=", resolution=0.5,
             source="Liu et al. 2022 §4.1, Fig. 6a (top left generalizes late)")
for panel in "bcd":
    d = diagrams[panel]
    off = official_map(panel)
    claims.check(f"({panel}) all four phases present: fraction of seeds",
                 seed_fraction(d, lambda p, y: len({str(v) for v in p.ravel()}), lambda n: n == 4), 0.5,
                 comparison=">=", resolution=0.5, source=f"Liu et al. 2022 §4.1 (i), Fig. 6{panel}")
    claims.check(f"({panel}) top-right block at least half memorization: fraction of seeds",
                 seed_fraction(d, lambda p, y: corner_fraction(p, y, "memorization", "top_right"), lambda v: v >= 0.5),
                 0.5, comparison=">=", resolution=0.5,
                 source=f"§4.1 (ii); official {corner_fraction(off.phases, off.y_values, 'memorization', 'top_right'):.2f}")
    off_excess = (corner_fraction(off.phases, off.y_values, "confusion", "bottom_right")
                  - corner_fraction(off.phases, off.y_values, "confusion", "top_right"))
    claims.check(f"({panel}) confusion bottom right minus top right >= 1/6: fraction of seeds",
                 seed_fraction(d, lambda p, y: corner_fraction(p, y, "confusion", "bottom_right")
                               - corner_fraction(p, y, "confusion", "top_right"), lambda v: v >= 1 / 6 - 1e-9),
                 0.5, comparison=">=", resolution=0.5, source=f"§4.1 (iii); official {off_excess:.2f}")
    if panel != "d":
        claims.check(f"({panel}) a comprehension -> grokking -> memorization column: fraction of seeds",
                     seed_fraction(d, sandwich_columns, lambda n: n >= 1), 0.5, comparison=">=", resolution=0.5,
                     source=f"§4.1 (iv); official {sandwich_columns(off.phases, off.y_values)} of 16 columns")
print(claims.table())

# %% [markdown]
# ## What does not match
#
# The S3 panel's layout, and the cell-by-cell agreement of (c) and (d):

# %%
d = diagrams["d"]
off_d = official_map("d")
sandwich_d = seed_fraction(d, sandwich_columns, lambda n: n >= 1)
print(f"(d) fraction of seeds with a comprehension -> grokking -> memorization column: ours {approx(sandwich_d, 0.5)}; "
      f"official map: {sandwich_columns(off_d.phases, off_d.y_values)} of 16 columns")
few_c = bool(np.all(d.per_seed(lambda p, y: (p == "comprehension").mean()) <= 0.1))
print(f"(d) at most 10 % of the cells comprehend, in every seed: {few_c}; "
      f"official at the same cells: {(d.official_phases() == 'comprehension').mean():.2f}")
low = all(diagrams[panel].agreement() < 0.5 for panel in "cd")
print(f"(c), (d): fewer than half of the (seed, cell) pairs have the official phase: {low}")

# %% [markdown]
# A cell-by-cell table of one seed's letters would change with the CPU's rounding, so the
# cell-by-cell comparison is the figure: its titles give each panel's fraction of (seed, cell) pairs
# with the official phase.

# %% [markdown]
# ## Deviations and what they mean
#
# - **Time compression and budget.** The book runs $1.5\cdot10^4$ paper-equivalent steps, not
#   $10^5$. Runs that the paper saw generalize (or fit) between $1.5\cdot10^4$ and $10^5$ steps end
#   as memorization (or confusion) here. This is why the slowest decoder (lr $10^{-5}$) memorizes
#   in (b), where the official run groks at step 21 295, and why strong weight decay in (c) (wd ≥ 8
#   at slow decoder lr) fails to fit the training set within our budget (confusion), where the
#   official runs grok.
# - **Adam at large learning rates.** The compression assumes Adam follows gradient flow. At the
#   largest book learning rates ($5\cdot10^{-2}$, i.e. paper-equivalent $10^{-2}$) it does not:
#   the runs become unstable and several cells that memorize in the paper are confused here, e.g.
#   in the last column of (a) (see the figure), where the paper has no confusion at all.
# - **S3 (panel d) is not reproduced.** With the paper's own learning rates (no compression) and
#   3,000 steps, our S3 runs at decoder lr $10^{-5}$–$10^{-3}$ memorize (validation never reaches
#   90 %), where the official map shows comprehension. Our S3 model follows the spec (3×3 matrices,
#   init scale 0.1, product $E_aE_b$ into the tanh decoder, 24/12 split) but omits the official
#   notebook's extra loss term $10^{-3}\cdot\mathrm{mean}|E|$ (spec §7 #10). Under Adam that small term
#   dominates the embeddings' normalized update once the training loss is near zero, so it plausibly
#   drives the S3 embeddings to a structured representation. The trainer now has it
#   (`TrainConfig.embed_l1`), and a book-scale run of panel (d) with it (one seed, an exploratory run
#   not repeated here) gave a few grokking cells but still no comprehension, so it does not bring the
#   official map back at this budget; the map above is without it (paper scale keeps it). Our split and
#   templates also come from the addition task's RNG order, not the permutation notebook's. That
#   matters more than it seems. The App. H section of the effective-theory chapter trains 8 seeds at
#   24 of 36 samples, and only a minority of them find the representation. A one-seed map like the
#   official one therefore shows comprehension or memorization depending on its seed's split and
#   initialization.
# - **Classification loss (c).** The official sweep used cross-entropy divided by the 19 classes
#   (spec §7 #7); we use the standard cross-entropy. Adam's update is invariant to a constant factor
#   on the loss (up to $\epsilon$), so this should not move the boundaries.
# - **Coarse grids.** 36 cells per panel instead of 169–176; phase boundaries are located to within
#   one cell (a factor of 4 in learning rate).

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
# # GenEFT, part 1: how much data, and how complex a decoder
#
# **The claims** (Baek, Liu & Tegmark 2024, *GenEFT: Understanding statics and dynamics of model
# generalization via effective theory*, [arXiv 2402.05916](https://arxiv.org/abs/2402.05916) v1, §2–4). A network learns a binary
# relation $R$ on $n = 30$ elements — an $n\times n$ 0/1 matrix — from a random subset of its
# $n^2 = 900$ entries.
#
# 1. *Critical data size.* If the relation takes $b$ bits to describe (Table 2), each sample gives at
#    most one bit, and a balls-in-buckets count (Eq. 1–3) predicts the training fraction $p_c$ needed
#    for accuracy $\alpha$. Eq. 4 turns it into an accuracy bound $f_{UB}$, which roughly agrees with a
#    Monte-Carlo "theoretical maximum" (Fig. 2).
# 2. *Induction gap.* Networks need more data than the bound; the gap shrinks when the architecture
#    carries the right inductive bias (Fig. 3).
# 3. *Goldilocks decoder.* Test accuracy peaks at intermediate decoder depth: too shallow gives
#    confusion, too deep gives memorization (Fig. 4).
#
# The dynamics half of the paper (repons, learning-rate phase diagrams) is the next page,
# `baek2024_geneft_dynamics`.

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Baek et al. 2024, Fig. 2 (ours)](#fig-geneft-bound).
#
# **Baek, Liu & Tegmark 2024 (GenEFT), claim by claim** — 12 paper claims: 4 reproduced, 1 not reproduced (rate 4/5); 3 inconclusive, 4 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ⏳ not tested | not tested: the chapter evaluates Eq. 3 with Table 2's b (T01-T04, checks of our own evaluation) and draws … | “To fully generalize and figure out precisely which graph in its class we are dealing with, we therefore need at least b training data samples, since …” | Table 2, Eq. 3, Fig. 2, Fig. 3 |
# | **C2** | ✅ reproduced | T09: 0.16 vs paper <= 0.2 | “The dashed and solid curves in Figure 2 show rough agreement between this approximation and the more exact Monte Carlo calculation for the inferrable …” | Fig. 2, Eq. 4 |
# | **C3** | ⏳ not tested | not tested: the chapter's Monte Carlo estimates the posterior guessing accuracy and argues (deviations … | “For an equivalence relation with k classes, p* = 1/k. For a complete bipartite graph, p* = 1/2, since there are only two clusters that each element …” | Fig. 2, Eq. 4 |
# | **C4** | ⏳ not tested | not tested: the chapter prints each network's mean gap to the Monte-Carlo bound (0.01-0.26) but registers no … | “In Figure 3, we see that the neural generalization curves roughly track our theoretical prediction, with a slightly delayed rise, presumably for the …” | Fig. 3 |
# | **C5** | ✅ reproduced | T43: 0.09 vs paper >= 0 | “Figure 3 illustrates that the inductive gap decreases when it is simplified by including more inductive bias in the model.” | Fig. 3a, Fig. 3b |
# | **C6** | ❔ inconclusive | T46: 0.06 vs paper >= 0 | “Indeed, Figure 3(a) shows that the inductive gap is the smallest for a network in mode 3 with 0 hidden layers.” | Fig. 3a |
# | **C7** | ✅ reproduced | T44: 0.04 vs paper >= 0 | “Indeed, Figure 3(b) shows that the inductive gap is the smallest for a network in mode 2 with 0 hidden layers.” | Fig. 3b |
# | **C8** | ❔ inconclusive | T36: 1.00 vs paper >= 0.95 | “All cases reveal the existence of a [Goldilocks zone] (i.e. sweet spot) where generalization occurs, degrading on both sides.” | Fig. 4 |
# | **C9** | ✅ reproduced | T47: 0.70 vs paper <= 0.9 | “When the decoder is too simple, it lacks the ability to correctly decode learned embeddings, thus failing to provide any useful gradient information …” | Fig. 4 |
# | **C10** | ❌ not reproduced | T41: 0.02 vs paper >= 0.05 | “When the decoder is too complex, it is able to correctly decode even random and extremely inconvenient encodings, again failing to provide any useful …” | Fig. 4 |
# | **C11** | ⏳ not tested | not tested: no comparison of where greater-than's zone lies against the other relations' is registered | “We see that the Goldilocks zone for learning greater-than relation is slightly off compared to the other three relations.” | Fig. 4 |
# | **C12** | ❔ inconclusive | T42: 0.90 vs paper >= 0.9 | “Since most of the samples can be easily guessed from a few other samples, the test accuracy does not easily go below 90%.” | Fig. 4 |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What we run.** Eq. 1–4 with Table 2's $b$; the Monte-Carlo bound for all four relations,
# computed as the Bayes-optimal accuracy of a learner that knows the relation's class; Fig. 3 for
# mod 3 and greater-than with three architectures; Fig. 4 for the four relations. The verdict on each
# figure is in *Paper versus ours*; how each claim behind it is checked, and the claim tables, are in the
# last section, *Evidence*.
#
# **What we leave out at book scale.** The paper's $10^5$-step budget, except at Fig. 4's peak and deep end
# (stored sweeps: $2\cdot10^4$ steps at every depth, $10^5$ at depths 1–3 and 6–12), its default 3×50 decoder in Fig. 3 and Table 3's learning rate there, more seeds and finer
# grids. All of these are in the paper-scale configs (`REPRO_SCALE=paper`), which run the same code; they
# were not run for this edition (no GPU). Each experiment prints its settings beside the paper's in a setup
# table, every difference with its reason.

# %% tags=["hide-input"]
import warnings
from dataclasses import replace

warnings.filterwarnings("ignore", category=UserWarning)

from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.book.readouts import baek2024_geneft_information as readout
from repro.core.scale import current_scale
from repro.experiments.baek2024_geneft import (DEEP_DEPTHS, BoundConfig, DataSizeConfig, DepthConfig,
                                               deep_depth_config, run_bound, run_data_size, run_depth,
                                               stored_depth_config)
from repro.experiments.baek2024_geneft_information_setup import (bound_setup_table, data_size_setup_table,
                                                                 deep_depth_setup_table, live_depth_setup_table,
                                                                 stored_depth_setup_table)
from repro.plotting.baek2024_geneft import plot_bound, plot_data_size, plot_depth
from repro.plotting.shared import use_style

use_style()
claims = ClaimBook("baek2024_geneft_information")
print(f"scale: {current_scale()}")

# %% [markdown]
# ## The relations as data
#
# Table 1's four relations on the integers $0,\dots,29$: $x \equiv y \pmod 3$, $x \equiv y \pmod 5$,
# greater-than (Table 1 defines it literally as $x < y$), and the complete bipartite graph, where
# $(x, y) \in R$ iff exactly one of $x, y$ lies in $S$. The paper does not say which $S$; we take the
# even numbers ($|S| = 15$), the only size consistent with its guessing probability $p_* = 1/2$.
# Sanity check: the number of related pairs of each matrix against its definition.

# %%
readout.report_relations()

# %% [markdown]
# ## The static theory: Eq. 1–4
#
# With $b$ description bits and $m$ samples thrown at random into $b$ buckets, the expected fraction
# of non-empty buckets is $f(m) = 1 - (1 - 1/b)^m$ (Eq. 2). Setting $f(N p_c) = \alpha$ with $N = n^2$
# gives the critical fraction (Eq. 3)
#
# $$p_c = \frac{1}{N}\,\frac{\log_2(1-\alpha)}{\log_2(1 - 1/b)},$$
#
# and guessing the rest with success $\max(p_*, 1-p_*)$ gives $f_{UB} = f + \max(p_*, 1-p_*)(1-f)$
# (Eq. 4). Table 2's $b$: $n\log_2 k$ for the equivalences, $\log_2 n!$ for the total order (the
# exact count; the paper's Stirling form $n\log_2(n/2)$ gives 117 instead of 108 bits), $n$ for the
# complete bipartite graph.

# %%
p_c = readout.report_critical_fractions(alpha=0.9)

# %% [markdown]
# ## Fig. 2: the Monte-Carlo bound beside Eq. 4
#
# The paper's solid curves count the pairs a learner can infer from the training pairs using the
# relation's properties, and score $\max(p_*, 1-p_*)$ on the rest, with $p_*$ from a Monte Carlo over
# all class members compatible with the data (§3, steps (a) and (b)). We compute exactly this as a
# Bayes posterior under a uniform prior on the class (code in `repro.metrics.relation_inference`): Gibbs
# sampling over $k$-colourings for mod $k$, a Markov chain over linear extensions for greater-than,
# and an exact formula for the bipartite graph. The unit tests check the samplers against brute-force
# enumeration of all consistent relations on 6 elements.

# %% tags=["hide-input"]
bound_cfg = BoundConfig.for_scale()
bound_setup_table(bound_cfg)

# %%
bound = run_bound(bound_cfg)
fig2 = plot_bound(bound)
glue("fig_bound", fig2, display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_information/fig_bound.png
# :name: fig-geneft-bound
#
# **Baek et al. 2024, Fig. 2 (ours).** Upper bound on accuracy over all 900 pairs against the training fraction. Solid with error bars:
# Bayes-optimal Monte Carlo (mean ± std over random training sets). Dotted: Eq. 4 with Table 2's $b$.
# The Monte-Carlo curves start *below* Eq. 4 (correlated samples carry less than a bit each), cross
# it and saturate earlier (the posterior sharpens the guesses). Greater-than saturates slowest.
# ```

# %%
fig2_stats = readout.report_bound_gaps(bound, bound_cfg)

# %% [markdown]
# ## Fig. 3: networks against the bound
#
# The network embeds each element in $\mathbb{R}^d$, combines the two embeddings of a pair
# (concatenation, difference, or element-wise squared difference), decodes them with a tanh MLP and
# a sigmoid, and trains on binary cross-entropy with Adam. The accuracy is over all 900 pairs, as in
# the paper, so it is directly comparable with the bound. The architectures: a generic one (one
# hidden layer of width 10, concatenation, $d = 2$) and the paper's inductive-bias choices with no
# hidden layer — squared difference for mod 3 (equal iff the embeddings coincide), difference for
# greater-than (the sign of $E_x - E_y$) — at $d = 2$ and $d = 1$. Every point is trained with three
# seeds (each its own training set and initialization); each architecture trains as one batched
# program over relations, fractions and seeds.

# %% tags=["hide-input"]
size_cfg = DataSizeConfig.for_scale()
data_size_setup_table(size_cfg)

# %%
sizes = run_data_size(size_cfg)
fig3 = plot_data_size(sizes, bound)
glue("fig_data_size", fig3, display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_information/fig_data_size.png
# :name: fig-geneft-data-size
#
# **Baek et al. 2024, Fig. 3 (ours).** Accuracy over all pairs against the training fraction for (a) mod 3 and (b) greater-than (median
# over three seeds, shaded: middle half, thin: each seed). Black: the Monte-Carlo bound of Fig. 2. Dashed grey: the transition scale $b/n^2$. The networks rise
# later than the bound (the induction gap); the inductive-bias architectures at $d = 2$ (no hidden layer,
# squared difference / difference) follow it more closely than the generic concatenation network, and so
# does the difference network at $d = 1$ on greater-than; on mod 3 the $d = 1$ network gets stuck in some
# seeds (*Paper versus ours*).
# ```

# %%
fig3_stats = readout.report_induction_gaps(sizes, size_cfg, fig2_stats)

# %% [markdown]
# ## Fig. 4: the Goldilocks decoder
#
# Decoder width 10 and training fraction 0.6 (the caption's values); depth $n_h$ = number of hidden
# layers. All four relations and five seeds (each its own training set and initialization) of one
# depth train as one batched program. These runs train in float64: a deep decoder's run is chaotic,
# and in float32 the last-bit differences between CPU vector kernels already changed which seeds of
# the deepest decoder memorize (and the median test accuracy there by 0.1).

# %% tags=["hide-input"]
depth_cfg = DepthConfig.for_scale()
live_depth_setup_table(depth_cfg)

# %%
depth = run_depth(depth_cfg)
fig4 = plot_depth(depth)
glue("fig_depth", fig4, display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_information/fig_depth.png
# :name: fig-geneft-depth
#
# **Baek et al. 2024, Fig. 4 (ours, book scale).** Left: test accuracy against decoder depth (median over five seeds, shaded: middle half, thin: each
# seed), the paper's Fig. 4. Right: the
# training accuracy of the same runs. At depth 0 the linear decoder cannot express mod 3, mod 5 or the
# bipartite relation, and even training accuracy stays low (confusion). At depth 8 test accuracy drops,
# the degradation of Fig. 4, but within 3,000 steps not every seed has fitted its training pairs there, so
# it is not yet memorization in Table 4's sense (high training, low test accuracy). Greater-than stays near or above 0.9 in the median; single deep seeds fall lower.
# Dotted green: the paper's §4 "≈90 %" for greater-than.
# ```

# %%
depth_table = readout.report_depth_table(depth, depth_cfg)

# %% [markdown]
# ### Fig. 4 trained to fit (stored)
#
# After 3 000 steps some deep decoders have not fitted their training pairs, and a test accuracy read there
# is neither memorization nor generalization. The stored sweep `stored_depth_config()` trains every depth from
# 0 to 10, all four relations and five seeds, for 20 000 Adam steps (float32; {eval}`glued.depth_minutes`
# minutes on one core; `python -m repro.experiments.baek2024_geneft --store book/_results` recomputes it). A seed enters a
# memorization or generalization statement only if it has fitted its training pairs (training accuracy
# ≥ 0.99); the table counts them. How
# its claims are judged, and why they are marked †, is under *Evidence*.

# %% tags=["hide-input"]
sdepth_cfg = stored_depth_config()
stored_depth_setup_table(sdepth_cfg)

# %%
stored_depth = readout.report_stored_depth(sdepth_cfg)
fig4_stored = plot_depth(stored_depth.result)
glue("fig_depth_stored", fig4_stored, display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_information/fig_depth_stored.png
# :name: fig-geneft-depth-stored
#
# The stored sweep: Fig. 4 after 20 000 steps, every depth from 0 to 10 (medians over five seeds, shaded:
# middle half, thin: each seed; all seeds, fitted or not). Left: test accuracy (dotted green: §4's ≈ 90 % for
# greater-than); right: training accuracy.
# ```
#
# With 20 000 steps most decoders fit their training pairs (the counts are in the table), and the shape of
# Fig. 4 holds on the fitted seeds alone: confusion at depth 0, a peak at depths 1–3, and a lower test
# accuracy for the deepest decoders. The deepest decoders still fit slowly: at depth 10 the fitted seeds
# number {eval}`glued.deep_fitted` of five, so the memorization claims there rest on few seeds, and
# {eval}`glued.deep_one_seed` (the run below goes to the paper's horizon, $10^5$ steps, with ten seeds).
# {eval}`glued.bip_deep_text`
# Greater-than, read on fitted seeds only, stays at or above {eval}`glued.gt_stored_low` at every depth after
# 20 000 steps; at the paper's horizon (next section) its fitted seeds' lowest median sits just below 90 %, so
# whether "does not easily go below 90 %" holds is not decided by these runs (*Paper versus ours*).

# %% [markdown]
# ### Fig. 4's deep end at the paper's horizon (stored, $10^5$ steps)
#
# At 20 000 steps the deepest decoders rest on few fitted seeds. This stored run trains the peak (depths 1–3)
# and the deep end (depths 6, 8, 10, 12) for $10^5$ Adam steps, Table 4's horizon, with ten seeds per depth
# (float32; {eval}`glued.deep_minutes` minutes on one core; each depth is its own stored entry, and
# `python -m repro.experiments.baek2024_geneft --store book/_results --only depth-deep` recomputes them). Its
# claims were registered and sealed before it started (they are listed under *Evidence*).

# %% tags=["hide-input"]
deep_cfg = replace(deep_depth_config(DEEP_DEPTHS[0]), depths=DEEP_DEPTHS)
deep_depth_setup_table(deep_cfg)

# %%
deep = readout.report_deep_depths(deep_cfg)
fig4_deep = plot_depth(deep.result)
glue("fig_depth_deep", fig4_deep, display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_information/fig_depth_deep.png
# :name: fig-geneft-depth-deep
#
# Fig. 4 at the paper's horizon: $10^5$ steps, depths 1–3 and 6–12, ten seeds per depth (medians over all ten,
# shaded: middle half, thin: each seed, fitted or not). Left: test accuracy (dotted green: §4's ≈ 90 % for
# greater-than); right: training accuracy.
# ```
#
# {eval}`glued.deep_text`

# %% [markdown]
# ## Paper versus ours
#
# The paper's claims on GenEFT Figs 2–4: {eval}`glued.ledger_tally`. The Monte Carlo and
# Eq. 4 differ by at most {eval}`glued.worst_gap` ({eval}`glued.worst_gap_where`). The mean induction gap
# of the generic network is {eval}`glued.gap_mod3` on mod 3 and {eval}`glued.gap_gt` on greater-than; the
# inductive-bias networks ($d = 2$, no hidden layer) reduce it to {eval}`glued.gap_mod3_bias` and
# {eval}`glued.gap_gt_bias`. With $d = 1$ the gaps are {eval}`glued.gap_mod3_d1` (mod 3) and
# {eval}`glued.gap_gt_d1` (greater-than).
#
# ### Deviations and what they mean
#
# - **Mode 3 in one dimension gets stuck on mod 3** (the Fig. 3 deviation). The paper finds the
#   smallest induction gap for "mode 3 with 0 hidden layers" without stating the embedding dimension.
#   With $d = 1$, {eval}`glued.d1_stuck` seeds of our network stay near the all-"unrelated" baseline
#   over the whole table, training pairs included: on a line, repons of one class cannot pass through
#   repons of another to meet, so a wrong interleaving of the clusters is a local minimum, and whether
#   a seed escapes is decided by its initialization (each seed keeps its initialization at every
#   fraction). With $d = 2$ they can go around each other, and this network follows the bound closely.
#   For greater-than, the one-dimensional difference network works, as the paper's argument (order the
#   repons on a line) suggests. The stored confirmation with three fresh seeds (under *Evidence*) finds fewer
#   stuck seeds: there the generic network's mean gap exceeds this one's, by less than two seed standard
#   errors, so the claim is inconclusive. How often a seed gets stuck is undetermined, and the account above
#   (repons cannot pass each other on a line) is a hypothesis that fits the stuck seeds, not a tested one.
# - **Greater-than with deep decoders: undecided live and stored.** The paper says greater-than's test
#   accuracy "does not easily go below 90 %" at any depth, because most pairs are implied by a few
#   others. At book scale its lowest median test accuracy is {eval}`glued.gt_low` (depth
#   {eval}`glued.gt_low_depth`, median training accuracy {eval}`glued.gt_low_train`), right at the
#   paper's 90 %, while single deep seeds that have not fitted their training pairs in 3,000 steps fall
#   well below it (thin lines in the figure). A verdict at the paper's 0.9 would be decided by which
#   seed lands where, so this is neither a reproduction nor a deviation: we check the median at 0.85,
#   a bound loosened after the result was seen (marked † in the ledger). The stored runs do not settle it
#   either. Trained for 20 000 steps and read on fitted seeds only, greater-than stays at or above
#   {eval}`glued.gt_stored_low` at every depth (a reproduction claim at 0.9, † because the run predates sealed
#   claims). At the paper's horizon of $10^5$ steps, in the run whose claims were sealed before it started,
#   the fitted seeds' lowest median falls just below 0.9, within two seed standard errors of it, and over all
#   seeds, fitted or not, the deepest decoders sit a little lower still: inconclusive, not a reproduction.
# - **Where Eq. 4 is furthest off.** With no data at all, Eq. 4 gives greater-than $2/3$ (from
#   $p_* = 1/3$), but a learner with no observation can only guess each off-diagonal pair at 1/2; the
#   paper's three-element argument already assumes one observed comparison. The Monte Carlo therefore
#   starts near {eval}`glued.mc_gt0` and overtakes Eq. 4 almost at once. For the bipartite graph at small
#   fractions, samples are highly redundant and carry far less than one bit each, so the Monte Carlo
#   lags Eq. 4.
# - **Greater-than's $b$.** Table 2's exact $\log_2 n! = 107.7$ bits rather than its Stirling form
#   $n \log_2(n/2) = 117.2$; the Stirling form moves $p_c$ from 0.274 to 0.299.
# - **The Monte Carlo is a Bayes posterior.** "Directly inferable" pairs are those forced by the class
#   properties; other pairs are scored by their posterior under a uniform prior on the class (uniform
#   over $k$-labellings for mod $k$, over linear extensions for greater-than, over sides $S$ for the
#   bipartite graph). This is our reading of the paper's two-step recipe (§3). At book scale the
#   greater-than chain runs $3\cdot10^3$ sweeps with 100 chains; estimating $\max(P, 1-P)$ from finite
#   samples biases undetermined pairs slightly upwards (at fraction 0 by {eval}`glued.mc_gt0_bias` over the
#   exact $0.5 + 0.5 \cdot 30/900$, the diagonal being known).
# - **Book-scale training.** Fig. 3 uses 2,000 full-batch Adam steps at learning rate
#   $3\cdot10^{-3}$ (paper: $10^{-3}$, budget unstated, we assume $10^5$) and three seeds (training set
#   and initialization) per fraction; the paper's default 3×50 decoder is in the paper-scale config
#   only. Fig. 4 uses 3,000 steps at the paper's $10^{-3}$, depths {0, 1, 2, 3, 5, 8} and five seeds, in
#   float64. Longer training can turn slow runs into late generalization (grokking), so the
#   memorization side of the Goldilocks zone may move deeper at the paper's budget.
# - **Decoder depth** is read as the number of hidden layers $n_h$, the symbol of Fig. 3's legend; the
#   paper's "depth 3" (Table 3) could also mean three linear layers.

# %% [markdown]
# ## Evidence
#
# What follows is how each claim is checked (its kind, reference, tolerance and resolution), the stored run that
# confirms the live comparisons with fresh seeds, and the claim tables with every test and its margin. The verdicts in
# the summary at the top follow from these tables by the decision rules on the reproduction-status page.

# %% [markdown]
# ### How each claim is checked
#
# Each claim below has a kind: a *reproduction* compares ours with a statement of the paper and must
# agree; a *deviation* records where ours does not, with the paper's value beside ours; a *check* is
# internal consistency and never counts as a reproduction. What each claim compares with (reference,
# tolerance, form, where in the paper) is registered in `book/_registry/baek2024_geneft_information.toml`; a
# claim whose criterion was changed after its result, or that judges a stored run which did not seal it when it
# started (the stored depth sweep predates sealing), is marked †. The paper prints no numbers for Figs. 2–4,
# so every reproduction here is a shape (a direction or an ordering, with a bound of ours) or a selection (the
# best depth).
#
# - **Eq. 3** (checks). The paper prints the formula, not the numbers, so $p_c$ at $\alpha = 0.9$ is
#   checked against an independent evaluation of Eq. 3 with Table 2's $b$ (four digits; tolerance the
#   rounding, $5\cdot10^{-4}$).
# - **Fig. 2.** The paper's one statement is that Eq. 4 and the Monte Carlo agree "roughly" (§3); it
#   gives no number, and we fixed 0.2 as the meaning of "rough" before running (reproduction). Its
#   figure did not survive, so the Monte Carlo at fraction 0.10 is checked against an independent
#   implementation of the same recipe (bipartite 1.00, mod 3 0.977, mod 5 0.915, greater-than 0.892;
#   tolerance 0.03, the spread between random training sets and sampler starts there).
# - **Fig. 3.** The paper: inductive bias in the architecture reduces the induction gap, and the gap is
#   smallest for mode 3 (mod 3) and mode 2 (greater-than) with no hidden layer (§3). The paper's
#   statement is one-sided, and so are the claims: the mean gap of the generic network minus that of
#   the inductive-bias network is $\geq 0$, for the $d = 2$ networks (Table 3's default dimension)
#   and for $d = 1$ (the one-dimensional picture of §3). That no network beats the Bayes-optimal bound
#   by more than its spread between training sets (0.05) is a property of the bound, so it is a check.
# - **Fig. 4.** The paper: confusion for too simple a decoder ("not even the training accuracy becoming
#   good"), generalization in between, degradation for too complex a decoder (§4). For mod 3, mod 5 and
#   the bipartite graph, medians over five seeds: depth-0 training accuracy $\leq 0.9$ (Table 4's
#   training threshold), best test accuracy over depths $\geq 0.95$ (stricter than Table 4's 0.9),
#   and at least 0.05 test accuracy lost at the deepest decoder. Greater-than "does not easily go below
#   90 %" (§4): see *Paper versus ours* above for why this is only a check live. The stored sweep applies the same
#   criteria to the seeds that fitted their training pairs (†: the run predates sealed claims); at its deepest
#   decoder they are few (counts above). Its criteria are the live sweep's, and greater-than is held to
#   the paper's own 90 % (not the live sweep's loosened 0.85); the run predates sealed claims, so nothing in the
#   repository shows that these criteria were fixed before it, and the ledger marks its claims †.
# - **Fig. 4 at the paper's horizon** (the stored $10^5$-step run). Its claims were registered and sealed before
#   it started: at least five fitted seeds at every deep depth (a check on the run itself); on the fitted seeds,
#   a peak of at least 0.95 at depths 1–3 and a loss of at least 0.05 at depth 12 for mod 3, mod 5 and
#   bipartite; greater-than at or above 0.9 at every depth.
#
# Network values are medians over seeds, or means over seeds and fractions for the induction gaps,
# shown at 0.01 (gaps), 0.05 (medians of depth 0–5) or 0.1 (the losses at depth 8, whose runs are the
# most chaotic) — coarser than the change one run landing elsewhere makes, finer than the seed spread.

# %% tags=["hide-input", "hide-output"]
readout.record_static_checks(claims, p_c, fig2_stats)
comparisons = readout.record_live_comparisons(claims, fig3_stats, depth_table)
stored_names = readout.record_stored_depth(claims, stored_depth)
deep_end = readout.record_deep_end(claims, deep)
readout.glue_deep_text(deep, deep_end)
readout.glue_prose_values(fig3_stats, depth_table, stored_depth, comparisons=comparisons, end=deep_end)
readout.record_figures(claims, fig2=fig2_stats, fig3=fig3_stats, live=depth_table, stored=stored_depth,
                       stored_names=stored_names, end=deep_end)

# %% [markdown]
# #### The live comparisons, confirmed with fresh seeds (stored)
#
# The Fig. 3 and Fig. 4 comparisons above are trained live and were seen before they were registered, so they
# are exploratory and decide no paper claim. Their copies (the same criteria, registered before the run and sealed
# when it started) judge a stored run of the same book-scale configs with fresh seeds, none used by the chapter's
# other runs (Fig. 3: data seeds 1000–1002; Fig. 4: 1010–1014; each its own training set and initialization), read
# by the same statistics (`book_statistics`). The run reproduces with
# `python -m repro.experiments.baek2024_geneft --store book/_results --only confirm` (a few minutes on one core).

# %% tags=["hide-input", "hide-output"]
readout.record_confirmation(claims, fig3_stats)

# %% [markdown]
# ### The claim tables
#
# Every registered test, claim by claim: ours against the reference, its margin in seed standard errors, and the
# verdict with its reason (the tally is quoted in *Paper versus ours*).

# %% tags=["hide-input", "hide-output"]
claims.ledger()

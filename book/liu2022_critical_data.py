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
# # Towards understanding grokking (II): critical data and the grokking rate
#
# **The claims** (Liu et al. 2022, §3; [arXiv 2205.10343](https://arxiv.org/abs/2205.10343), official code [ejmichaud/grokking-squared](https://github.com/ejmichaud/grokking-squared)). In the toy addition model of the previous
# chapter, (i) the accuracy a network reaches is the accuracy its *representation* supports: count the
# parallelograms $E_i + E_j = E_m + E_n$ it has learned, deduce which unseen samples they answer, and
# you predict its accuracy (Fig. 3); (ii) there is a *critical training fraction* $r_c \approx 0.4$:
# below it, the training set's parallelogram equations almost never pin the embeddings to a line,
# and networks fail to find the linear representation; above it they do, faster with more data
# (Fig. 4a, b); (iii) the effective theory's *grokking rate* $\lambda_3$ is zero below $r_c$ and grows
# with data above it, and the predicted grokking time $n_h \propto 1/\lambda_3$ follows the network's
# trend (Fig. 5).

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Liu et al. 2022, Fig. 4(a, b) (ours)](#fig-liu-critical).
#
# **Liu et al. 2022 (effective theory), claim by claim** — 7 paper claims: 4 reproduced, 1 not reproduced (rate 4/5); 2 inconclusive, 0 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ❔ inconclusive | T27: 0.06 vs paper 0 ± 0.05 | “In Figure 3, we see that the predicted [accuracy Acc-hat] aligns well with the true accuracy [Acc], establishing good evidence that structured …” | Fig. 3c |
# | **C2** | ✅ reproduced | T20: 1.00 vs official code 1 ± 0.1 | “Figure 3 (a)(b) show [Acc and Acc-hat] as a function of training set ratio, with each dot corresponding to a different random seed.” | Fig. 3a |
# | **C3** | ✅ reproduced | T07: 0.409 vs paper 0.4 ± 0.03 | “As shown in Figure 4 (a), our effective theory predicts that the probability that the training set implies a unique linear structure (which would …” | Fig. 4a, Fig. 5a |
# | **C4** | ❔ inconclusive | T22: 0.35 vs official code 0.416667 ± 0.3 | “Empirical results from training different models are shown in Figure 4 (b).” | Fig. 4b |
# | **C5** | ❌ not reproduced | T25: 0.73 vs paper 0.4 ± 0.1 | “The number of steps to reach [RQI > 0.95] is seen to have a phase transition at [r_c = 0.4], agreeing with the proposed effective theory and with the …” | Fig. 4b |
# | **C6** | ✅ reproduced | T11: 1 vs paper >= 1 | “(ii) When data size is above the threshold, [λ3] (on average) is an increasing function of data size. This implies that grokking time decreases as …” | Fig. 5a |
# | **C7** | ✅ reproduced | T28: -0.6 vs paper <= 0 | “The theory agrees qualitatively with neural networks, showing the trend of decreasing grokking steps as increasing data size. The quantitative …” | Fig. 5b |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What we reproduce here.** Fig. 4(a) and Fig. 5(a) exactly in kind (linear algebra over thousands of
# random training sets); Figs 3, 4(b) and 5(b) from a batched sweep of trained networks over ten
# training fractions with five seeds each; and Fig. 4(b) once more at the official driver's sizes and steps
# (sizes 5…54, $10^4$ steps) with ten seeds per size, from stored runs that
# `python -m repro.experiments.liu2022_critical_data --store book/_results` recomputes (about
# {eval}`glued.p4b_minutes` minutes on two CPU cores). The run in the official random-number order, which repeats
# every official run, puts the networks' transition, where half of the seeds find the linear representation, at
# {eval}`glued.o4b_transition`, not at the paper's $r_c = 0.4$ (the official data's three seeds cross there too),
# while the first networks find it nearer $r_c$ (at {eval}`glued.o4b_onset`).
#
# **What we leave out.** The paper's number of seeds is not stated (its Fig. 3 shows more than three
# per fraction; the official driver ran three). Book scale runs five seeds for 3000 steps
# (official: $10^4$ for Fig. 4b); the stored runs cover Fig. 4(b) at the official sizes and steps, and Fig. 3's
# accuracies run by run, not Fig. 5(b). The book-scale sweep and the second stored run draw every run in the
# official random-number order, so that our seed $s$ is the official run of seed $s$; the first stored run was
# drawn in the book's earlier order (shared templates, full batch) and compares with the official data as
# shares (its section, and how every claim is checked, are in the Evidence section at the end). Appendix H ($S_3$)
# is discussed in the previous chapter.

# %% tags=["hide-input"]
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

from repro.book.claims import ClaimBook
from repro.book.readouts import liu2022_critical_data as readout
from repro.core.prose import glue
from repro.experiments.liu2022_critical_data import (ToyConfig, linear_structure, official_comparison,
                                                     run_fraction_sweep)
from repro.plotting.liu2022_critical_data import (plot_accuracy_vs_predicted, plot_critical_fraction,
                                                  plot_grokking_rate, plot_official_comparison, plot_stored_fig4b)
from repro.plotting.shared import use_style

use_style()
claims = ClaimBook("liu2022_critical_data")

# %% [markdown]
# ## Configuration
#
# The toy model and optimizers are those of the previous chapter (paper §2; official `toy/train_add.py`). Every network of the
# sweep draws its 30-d regression templates, its training split, its minibatches and its initialization from its
# seed in the official code's order, so it is the official run of that seed. The paper states neither the
# seeds nor the steps of Figs 3–5, so the tables below set each experiment beside the official code that made
# the figures' data (`toy/produce_figure_data.py`, which calls `toy/train_add.py`, and
# `phase_diagram_plot/effective_linear_eq.ipynb`), every difference with its reason.

# %% tags=["hide-input"]
cfg = ToyConfig.for_scale()
readout.report_config(cfg)
cfg

# %% [markdown]
# ## Theory first: when do the training parallelograms force a line? (Fig. 4a, Fig. 5a)
#
# For a training set $D$, the parallelogram equations $A_D E = 0$ (eq. 7) always leave two free
# directions, translation and scale. If they leave no more (nullity 2), the only representation with
# zero effective loss is the line $E_k = a + kb$, which generalizes perfectly. We draw random training
# sets of every size and record whether the nullity is 2, and the grokking rate $\lambda_3$ (the
# smallest non-trivial eigenvalue of $A_D^\top A_D$). No training is involved.
#
# **Sanity check.** With the whole table, the parallelogram equations leave only translation and scale free,
# so the spectrum of $A^\top A$ starts with two zeros; the next eigenvalue, $\lambda_3$ of the full table, is 30.

# %%
stats = linear_structure(cfg)
full = stats.rates[-1]
print(f"full table: lambda_3 = {full.mean():.2f} (expect 30)")
assert abs(full.mean() - 30) < 1e-6
rc = readout.report_critical_fraction(stats)

# %% [markdown]
# ## Run: networks across training fractions
#
# One batched program trains the (fraction, seed) runs that use their whole training set each step, and a second
# one the runs at 50 and 54 samples, which draw 45 of them per step as the official code does; both record the
# embeddings every 10 steps. From
# them we compute, per run: the final accuracy on the whole table (Acc), the accuracy predicted from
# the final representation (Acc-hat, eq. 13), the first step with RQI $> 0.95$, and the theory's
# $n_h = p/(2\lambda_3\eta)$ for that run's training set.

# %%
sweep = run_fraction_sweep(cfg)
readout.report_success(sweep, cfg)

# %% [markdown]
# ## Figure 3: accuracy follows the representation
#
# ```{figure} _figures/liu2022_critical_data/fig_acc.png
# :name: fig-liu-acc
#
# **Liu et al. 2022, Fig. 3 (ours).** **(a)** Final accuracy on the whole table against the training fraction, one dot per seed; the red
# dashed diagonal is what pure memorization of the training set gives. **(b)** The same for the
# accuracy predicted from the learned parallelograms (Acc-hat). **(c)** Acc against Acc-hat, coloured by training
# fraction. Below the largest fractions the dots lie on the diagonal; at the largest (yellow), Acc-hat is about 1
# while Acc stays lower, below the memorization line of (a): those minibatched runs have not yet fitted their whole
# training set within the 3000 steps, though their representation already answers it.
# ```

# %%
fig = plot_accuracy_vs_predicted(sweep)
glue("fig_acc", fig, display=False)
readout.report_accuracy_gap(sweep)

# %% [markdown]
# ## Figure 4: the critical training fraction
#
# ```{figure} _figures/liu2022_critical_data/fig_critical.png
# :name: fig-liu-critical
#
# **Liu et al. 2022, Fig. 4(a, b) (ours).** **(a)** Probability that a random training set of a given fraction determines a unique linear
# structure (nullity 2), from the linear algebra alone; it jumps from 0 to 1 around the dashed line (our 50 %
# crossing $r_c$; dotted: the threshold "around 0.4" of the paper's §3.2, in both panels).
# **(b)** Steps until the network's representation has RQI $> 0.95$, one dot per seed (crosses: not
# within the budget), with the median over seeds (a failed seed counts as the budget). Below the
# critical fraction no network finds the line. Above it, more networks find it as data grow, and the median
# leaves the budget only well above $r_c$; the networks that do find the line take about the same time at every
# fraction: more data makes success likelier here, not faster.
# ```

# %%
fig = plot_critical_fraction(stats, sweep)
glue("fig_critical", fig, display=False)

# %% [markdown]
# ## Figs 3 and 4(b) run by run: the official random-number order (stored)
#
# **The claim.** The first stored run at the official driver's sizes and steps (in the Evidence section at the end)
# compares
# shares with the official data, because its seed $s$ is not the official run of seed $s$.
# In the official code's order it is: `toy/train_add.py` seeds NumPy with the run's seed, draws the regression
# templates, then the training subset, then at every step the minibatch (a random 45 of the training set, which
# at 46 samples or fewer is the whole set in a new order), and seeds PyTorch with the same seed for the
# embeddings and the decoder. Drawn in that order (`rng_order="official"`, the default since this run), each of
# our runs should *be* the official run of its size and seed, and repeat its outcome: the step at which RQI
# first exceeds 0.95 (the official `toy/results/fig4`, $10^4$ steps) and the accuracy after 5000 steps (the
# official `toy/results/fig3`), for the 33 runs of sizes 5–54 and seeds 0–2 that the official repository
# stores.
#
# **Scope.** The same sizes, ten seeds per size and $10^4$ steps as the first stored run, every step evaluated
# (`python -m repro.experiments.liu2022_critical_data --store book/_results`; its eight claims were registered
# before it ran, and the run sealed them; what is compared, and the tolerances, are in the Evidence section). The
# official step counts the loop's index of the update after which
# RQI first exceeds 0.95 (9999: never); ours counts updates, so ours is compared one lower.

# %% tags=["hide-input"]
o4b, manifest_o4b = readout.load_official_order()

# %%
comp = official_comparison(o4b)
readout.report_official_comparison(comp)
fig = plot_official_comparison(comp)
glue("fig_official_order", fig, display=False)

# %% [markdown]
# ```{figure} _figures/liu2022_critical_data/fig_official_order.png
# :name: fig-liu-official-order
#
# The stored sweep in the official random-number order against the official runs of the same size and seed
# (sizes 5–54, seeds 0–2, coloured by size). **(a)** Steps until RQI $> 0.95$ (a run that never gets there
# within $10^4$ steps is drawn at $10^4$); **(b)** samples right (of 55) after 5000 steps. On the dashed
# diagonal, our run repeats the official one.
# ```

# %% [markdown]
# **What the official order shows.** {eval}`glued.o4b_identical`: ours repeats the official outcome in
# {eval}`glued.o4b_outcome` runs and the accuracy after 5000 steps to the sample in {eval}`glued.o4b_acc`, and over
# the {eval}`glued.o4b_both` runs that both find the line the median $|\log_{10}|$ of the step ratio is
# {eval}`glued.o4b_medlog`. So the official Fig. 3 and Fig. 4(b) data are what this code computes for the same
# seeds, on this machine's CPU (another CPU rounds float32 differently and may part a run that hesitates at a
# saddle from the official one, which the tolerances in the Evidence section allow). With ten seeds per size in
# this order (the shares are tabled in the Evidence section),
# {eval}`glued.o4b_high` networks find the line at 45 samples or more, {eval}`glued.o4b_mid` at 25–40, and
# {eval}`glued.o4b_low` below fraction 0.4. The first size with a success is {eval}`glued.o4b_onset`, near the
# paper's $r_c$; the transition, where half of the seeds find the line from there on, is at
# {eval}`glued.o4b_transition`, {eval}`glued.o4b_vs_official`. So the paper's $r_c = 0.4$ marks where networks
# *start* to find the line; at 0.4 the official code's own networks mostly do not. The paper's caption reads
# Fig. 4(b) by its median over seeds (the blue line), and that is the reading registered: on it the phase
# transition at $r_c$ (C5) is not reproduced. On the onset reading $r_c$ agrees, but by less than one seed
# standard error, so it cannot decide the claim either way.

# %% [markdown]
# ## Figure 5: the grokking rate, and the network against the theory
#
# ```{figure} _figures/liu2022_critical_data/fig_rate.png
# :name: fig-liu-rate
#
# **Liu et al. 2022, Fig. 5 (ours).** **(a)** $\lambda_3$ of $A_D^\top A_D$ for 50 random training sets per size (grey) and the mean
# over all sets (blue): zero below the critical fraction (dashed; dotted: §3.2's "around 0.4"), growing with data
# above it. **(b)** Per
# network of the sweep: steps to RQI $> 0.95$ (red) and the theory's $n_h = p/(2\lambda_3\eta)$
# for its training set (blue squares; none where $\lambda_3 = 0$). We leave out eq. (5)'s
# $1/|P_0(D)|$ factor, which would lift every blue square by its training set's number of parallelograms
# (tens; App. F says the factor only rescales time, and the official integrator leaves it out). What to see: the
# blue squares fall steeply with data, the red dots of the networks that find the line hardly move. The registered
# trend test (Spearman over all networks, a failed run counted as the budget) also counts the rising share of
# successes, so its agreement (C7) says less than the figure's picture of the successful runs alone.
# ```

# %%
fig = plot_grokking_rate(stats, sweep)
glue("fig_rate", fig, display=False)
rate = readout.report_rate(sweep)

# %% [markdown]
# The linear algebra puts the critical fraction at {eval}`glued.rc`; trained networks at book scale mostly
# agree: below it {eval}`glued.low_found` find the line, and above it the steps to a
# linear representation fall with data (Spearman correlation {eval}`glued.rho_nn`). At the official driver's
# sizes and steps (stored, ten seeds, the official random-number order) the first networks find the line at
# {eval}`glued.o4b_onset`, but half of them only from {eval}`glued.o4b_transition` on.
#
# ## Paper versus ours
#
# Each of the paper's claims has one verdict, stated in the summary at the top; the claim tables it follows from
# are in the Evidence section at the end.
#
# In all, this chapter's paper claims: {eval}`glued.ledger_tally`.
#
# ### Deviations and what they mean
#
# - **Networks below the critical fraction.** The paper's Fig. 4(b) and the official data (three seeds) show no
#   network below $r_c$ finding the line. In the official random-number order, neither do ours: the book-scale
#   sweep has {eval}`glued.low_found` and the stored ten-seed run {eval}`glued.o4b_low`. In the book's earlier
#   order (shared templates, full batch) the stored ten-seed run had {eval}`glued.p4b_low_found` (at
#   {eval}`glued.p4b_low_sizes`), which the linear algebra allows (Fig. 4a gives a random training set of those
#   sizes a small chance to pin the line). So "no network below $r_c$" holds for the official draws and for
#   most others; which rare seeds find the line depends on the draws, not on the mechanism.
# - **Where the networks' transition lies.** In the first stored run at the official sizes and steps
#   (the book's earlier random-number order; its section is in the Evidence), half of the seeds
#   reach RQI $> 0.95$ only from fraction {eval}`glued.p4b_transition` on (seed bootstrap:
#   {eval}`glued.p4b_boot_range`), not at the paper's $r_c = 0.4$; the official data (three seeds) cross
#   half at {eval}`glued.p4b_official_transition`. What sits at $r_c$ is the onset: the first networks find
#   the line at fraction {eval}`glued.p4b_onset`. Between onset and transition the training set already
#   determines the line, and the networks that miss it keep part of the parallelograms; some
#   initializations miss it much more often than others. In the official random-number order (the second
#   stored run), which repeats every official run, the transition is at {eval}`glued.o4b_transition` and the
#   onset at {eval}`glued.o4b_onset`: the gap between them is the official code's own behaviour over ten seeds,
#   not a difference of ours. The paper does not say how many seeds its figure used.
# - **Seeds, steps and sizes.** Book scale: sizes 10–54 in steps of 5, five seeds, 3000 steps,
#   evaluation every 10 steps (threshold steps round up to a multiple of 10). The official Fig. 4(b)
#   data ran $10^4$ steps; a run that would find the line between steps 3000 and $10^4$ (the official
#   data have one at 2553 steps with 25 samples) counts here as a failure. The stored run has the
#   official sizes 5–54, $10^4$ steps and evaluation at every step, with ten seeds per size (official:
#   three), and the same code. The second stored run re-judges Fig. 3 run by run at the official 5000 steps;
#   the book's Fig. 3 comes from the 3000-step book sweep, and Fig. 5(b) is not re-judged on the stored runs.
# - **Shared targets.** The official code draws new regression targets for every seed. The book-scale sweep
#   and the second stored run do the same; the first stored run, in the book's earlier order, shares one set of
#   targets across its runs.
# - **Fig. 4(a) by sampling.** We sample 2000 random training sets per size (the official notebook:
#   $10^4$; paper scale: $10^4$) rather than enumerate all $\binom{55}{n}$ subsets.
# - **Normalisation of $n_h$.** As in the previous chapter, $n_h = p/(2\lambda_3\eta)$ without eq. (5)'s
#   $1/|P_0(D)|$ factor, with $\eta$ the embeddings' learning rate (App. F: the factor only rescales
#   time). The network uses Adam, the theory plain gradient flow, so only the trend and the order of
#   magnitude can agree.

# %% [markdown]
# ## Evidence
#
# What follows is how each claim is checked: the criteria and tolerances, the first stored run at the official
# sizes and steps (superseded by the run in the official order), the shares of the official-order run, the
# registered claims and the claim tables. The verdicts in the summary at the top follow from these tables by the
# decision rules on the reproduction-status page.

# %% [markdown]
# ### Fig. 4(b) at the official driver's sizes and steps, in the book's earlier random-number order (stored)
#
# The book-scale sweep in the body has five seeds and 3000 steps, too few to say where the networks' transition
# lies or whether a network below $r_c$ can find the line. The official Fig. 4(b) driver
# (`toy/produce_figure_data.py`) trains the sizes 5, 10, …, 50, 54 for $10^4$ steps, evaluating every
# step; we run the same with ten seeds per size (the driver ran three; the paper does not say how many)
# and the same code as above: 110 networks, $1.1 \times 10^6$ run-steps. That takes tens of minutes on
# two CPU cores, so it does not run with the book: `python -m repro.experiments.liu2022_critical_data --store
# book/_results` runs it and stores the result with its provenance, and this section reads it back (the
# store refuses an entry whose config or content does not match). The second stored run, in the official random-number
# order (the body's section "Figs 3 and 4(b) run by run"), supersedes this one.
#
# **What we compare.** These tolerances were written into the chapter before the run, except the onset's (see
# its claim); but the run was stored before the registry sealed claims, so nothing stored with it can show
# that, and the ledger marks every claim on it as set after its result (†).
#
# - *The networks' transition*: the smallest training size from which on at least half of the seeds reach
#   RQI $> 0.95$ within the budget, at that size and at every larger one (where Fig. 4b's median line turns
#   finite and stays so). The paper puts it at $r_c = 0.4$. Our grid has a step of 5/55 ≈ 0.09, and with ten
#   seeds the share at one size has a binomial standard error of up to 0.16, enough to move a 50 % crossing
#   by one grid step; we accept $0.4 \pm 0.1$, that is either of the two sizes that bracket 0.4 (20/55 and
#   25/55).
# - *No network below $r_c$* (fractions $< 0.4$, sizes 5–20; the official data: none of 12): the share is 0,
#   with no tolerance.
# - *Networks well above $r_c$* (sizes $\ge 45$; official data 9 of 9): $1 \pm 1/3$, as at book scale
#   (nine successes in nine are consistent with a true share down to about 0.7).
# - *Near the transition* (sizes 25–40; official data 5 of 12): the share agrees with the official one within
#   0.3, about two standard errors of the difference of a 12-run and a 40-run share.
# - *Faster with more data* above $r_c$: Spearman correlation of size and steps (failed runs counted as the
#   budget) over sizes $\ge 22$ is negative.

# %% tags=["hide-input"]
p4b = readout.report_stored_fig4b(rc)
fig = plot_stored_fig4b(p4b.sweep, stats, p4b.transition)
glue("fig_critical_stored", fig, display=False)
readout.report_stored_fig4b_spread(p4b, stats)

# %% tags=["hide-input"]
readout.record_stored_fig4b(claims, p4b, stats)

# %% [markdown]
# ```{figure} _figures/liu2022_critical_data/fig_critical_stored.png
# :name: fig-liu-critical-stored
#
# Fig. 4(b) at the official driver's sizes and steps with ten seeds per size (stored run). **(a)** Share of seeds
# whose representation reaches RQI $> 0.95$ within $10^4$ steps (red, with a 95 % Wilson band for ten
# seeds), the official data's share over three seeds (open squares) and Fig. 4(a)'s probability that the
# training set pins the line (blue). Dashed: Fig. 4(a)'s $r_c$; dotted red: the networks' transition (half of
# the seeds from there on); dotted black: the paper's §3.2 threshold, "around 0.4". **(b)** Steps to RQI
# $> 0.95$ per seed (crosses: never), with the median over
# seeds (a failed seed counts as the budget).
# ```
#
# **What the stored run finds.** The first networks find the line at {eval}`glued.p4b_onset_n` (fraction
# {eval}`glued.p4b_onset`), where the paper puts $r_c$; but the median line of Fig. 4(b) turns finite, and stays
# so, only from {eval}`glued.p4b_transition_n` (fraction {eval}`glued.p4b_transition`) on. A bootstrap over the ten
# seeds puts that transition between {eval}`glued.p4b_boot_range` (90 %); only {eval}`glued.p4b_boot_near` % of
# resamples put it within $0.4 \pm 0.1$. The official data, with three seeds, cross half at
# {eval}`glued.p4b_official_transition`, later still, so this is not a difference between our code and the
# official one: the paper's "transition at $r_c = 0.4$" describes where networks *start* to find the line,
# not where most of them do. Between the two, the linear algebra already pins the line (Fig. 4a is near 1
# from 30/55 on: {eval}`glued.p4b_punique30` there), yet many networks stop with only part of the parallelograms
# and an accuracy that their representation predicts. The failures are spread unevenly over the
# initializations: two of the ten seeds account for {eval}`glued.p4b_fail_top2` failures at 25 samples or
# more, while {eval}`glued.p4b_fail_none` seeds never fail there. Below $r_c$,
# {eval}`glued.p4b_low_found` networks find the line (at {eval}`glued.p4b_low_sizes`); the paper shows none, so in
# this order it is a deviation, a rare one (the official order, in the body, has none). Well above $r_c$
# {eval}`glued.p4b_high`
# networks find it (official: 9 of 9), at 25–40 samples {eval}`glued.p4b_mid` (official: 5 of 12), and the
# steps fall with data (Spearman {eval}`glued.p4b_rho`). The failures at 45 samples or more
# ({eval}`glued.p4b_high_fail`) are not explained. Chance can account for the gap to the official 9 of 9: at our
# failure rate, nine runs would all succeed with probability {eval}`glued.p4b_all_nine`. Two differences of setup
# remain in this run: at 50 and 54 samples the official code draws a random 45 samples per step where this run
# trains on the full batch (at 45 samples both use the full batch), and its seed $s$ trains on another split and
# other targets than the official seed $s$ (see the setup table). The run in the official random-number order (in
# the body) removes both; its criteria and shares follow.

# %% [markdown]
# ### The official random-number order: what is compared, and the shares (stored)
#
# The criteria of the run shown in the body's section "Figs 3 and 4(b) run by run", and its Fig. 4(b) shares.
#
# **What we compare** (tolerances fixed before the run):
#
# - *Run by run*: the share of the 33 official runs whose outcome (RQI $> 0.95$ within $10^4$ steps or not)
#   ours repeats, $1 \pm 0.1$ (at most three may differ); over the runs that both reach it, the median
#   $|\log_{10}(\text{ours}/\text{official})|$ of the steps, $0 \pm 0.05$ (12 %); and the share whose accuracy after
#   5000 steps ours repeats to the sample, $1 \pm 0.1$. Float32 arithmetic on another machine rounds the last
#   bits differently, so a run that hesitates at a saddle may part from the official one; these tolerances say
#   how many may.
# - *Fig. 4(b) again, in this order*: the same share and transition claims as above.

# %%
official = readout.report_official_shares(o4b, manifest_o4b, p4b.off_transition_n)

# %% tags=["hide-input"]
readout.record_official_runs(claims, comp, manifest_o4b)

# %% tags=["hide-input"]
readout.record_official_shares(claims, official, p4b.off_transition_n)

# %% [markdown]
# ### Claims: what is checked, and against what
#
# Each claim has a *kind*: a **reproduction** compares ours with the paper (or its official code) and
# must agree; a **deviation** records a disagreement with the paper's number beside ours; a **check** is
# internal consistency and never counts as a reproduction. How each tolerance is chosen:
#
# 1. **Critical fraction** (§3.2 on Fig. 4a: "a phase transition around $r_c = 0.4$"; reproduction): the
#    50 % crossing of P(unique) within $\pm 0.03$, about two training samples; sampling noise at book
#    scale (2000 sets per size) moves it by less than 0.01.
# 2. **P(unique) at 22/55** ($= 0.40$; reproduction against the official code): the official notebook
#    `phase_diagram_plot/effective_linear_eq.ipynb` prints `i=22, success=4270`: 0.427 of $10^4$ random sets
#    (the registry first read 0.41; amended 2026-12-02, so the claim is marked †);
#    $\pm 0.04$ is four standard errors at 2000 sets.
# 3. **Mean $\lambda_3$** at 30/55 and 45/55 (checks): 2.35 and 13.4 from an independent implementation
#    of the official notebook's computation (the mean of the third-smallest eigenvalue of
#    $A_D^\top A_D$), $\pm 10\,\%$ (the spread of sampled sets gives a standard error of the mean below
#    3 %). The same computation done twice agrees by construction, so these are checks of our code, not
#    reproductions. $\lambda_3$ **rises with data** (§3 on Fig. 5a; reproduction): the mean increases
#    from every size to the next above 22.
# 4. **Acc ≈ Acc-hat** (Fig. 3c, dots on the diagonal; reproduction): mean $|$Acc − Acc-hat$|$ is
#    $0 \pm 0.05$, the precision to which a dot can be read off the plot's diagonal.
# 5. **No network below $r_c$ finds the line** (Fig. 4b; in the official data no seed does at
#    $\le 20$ samples): the share of networks at fractions $< 0.4$ reaching RQI $> 0.95$ is 0 in the
#    paper, and "none" admits no tolerance. In the book's earlier random-number order some networks below 0.4
#    did find the line, so this claim was registered as a deviation; in the official order the book-scale sweep
#    has {eval}`glued.low_found`, and the claim is now judged as a reproduction (an amendment says so). Five
#    seeds are few for this; the stored ten-seed runs above weigh in.
# 6. **Networks well above $r_c$ do** (Fig. 4b, official data: all 9 runs at 45–54 samples; reproduction
#    against the official code): the share at $\ge 45$ samples is $1 \pm 1/3$; with three seeds per size
#    the official share is itself uncertain by about that much.
# 7. **Grokking steps fall with data above $r_c$** (Fig. 4b's median line; §3 "grokking time
#    decreases as training data size becomes larger"; reproduction of a statement about a sign, so
#    one-sided): Spearman correlation between training size and steps to RQI $> 0.95$ (failed runs
#    counted as the budget) over sizes $\ge 22$ is negative.
# 8. **Network and theory agree** (Fig. 5b; §3.2: "the theory agrees qualitatively with neural networks,
#    showing the trend of decreasing grokking steps"): $n_h$ also falls with data (Spearman correlation
#    with size negative; a reproduction of that trend). The median ratio of network steps to $n_h$ is 1
#    within a factor 3, i.e. $\log_{10}$ of it is $0 \pm 0.48$: the paper states no number, so this window is
#    our own reading of "qualitatively" and, since 2026-11-25, a **check**, not a reproduction (it was
#    registered as one before).
# 9. **Network steps scale with $n_h$** (the theory's time scale; a check: the slope of 1 is our own reading of
#    the theory, re-filed 2026-12-02 from a reproduction against the paper): if the network's
#    steps were proportional to $n_h$, their log–log slope would be 1. We accept $1 \pm 0.5$, our own bound,
#    registered on 2026-11-26 knowing that the book-scale sweep in the earlier random-number order gave 0.31.
#    Ours: {eval}`glued.ratio_slope`. The paper's "quantitative differences" allow a failure here; the claim
#    records whether the theory's time scale, and not only its trend, carries over.
#
# Claims 4–9 are statistics over all trained networks (five seeds per fraction, one batched sweep), not
# properties of one trajectory; a single seed's crossing step moves with the last bit of the CPU's
# arithmetic, the pooled statistic much less. Their values come from this machine's live run (shown at
# 0.01 for accuracy gaps, 0.05 for shares, 0.1 for the log ratio and for a rank correlation); the claim,
# judged on the exact value, is the test, and the ledger gives its margin over the networks' spread. The
# claims on the stored runs (above) compare stored numbers, the same on every machine; those on the first are
# marked † because that run predates sealed claims, those on the second were sealed when it started.

# %% tags=["hide-input", "hide-output"]
book_stats = readout.record_theory_and_gap(claims, stats, sweep, rc)

# %% tags=["hide-input", "hide-output"]
readout.record_book_fig4b(claims, stats=stats, sweep=sweep, book_stats=book_stats, rate=rate)

# %% [markdown]
# **Confirmation on fresh seeds.** The two comparisons above on the live book-scale sweep, Acc against Acc-hat
# (Fig. 3c) and the networks' steps falling with data (Fig. 4b, 5b), were seen before they were registered, so
# they are exploratory and decide no paper claim. Their copies with the same criteria (T27, T28) were registered
# and committed before the same sweep ran on five seeds never run before (1000–1004; sizes, steps and random-number
# order as above), stored and sealed when it started: `python -m repro.experiments.liu2022_critical_data --store
# book/_results --run confirm` (about a minute on one core). The cell below judges that run with the same statistics
# (`book_statistics`: the gap's per-seed means, the Spearman correlation's bootstrap over whole seeds). The steps
# still fall with data. The gap does not confirm: it comes out at 0.06, outside $0 \pm 0.05$, because after 3000
# steps the networks at 50 and 54 samples (trained on minibatches of 45) answer fewer samples than their
# representation supports (one seed by about 0.5); the stored ten-seed run at $10^4$ steps has no such lag. So T27
# is re-labelled a deviation by its outcome (criterion unchanged), and with a margin under two seed standard errors
# it decides nothing.

# %% tags=["hide-input", "hide-output"]
readout.record_confirmation(claims)

# %% [markdown]
# ### The claim tables
#
# The paper's claims, numbered and quoted, each with one verdict that follows from its tests by the book's
# decision rules (registered once, stated under the table). The figure rows below the claims are the
# evidence: each names the paper claims its comparisons bear on.

# %% tags=["hide-input", "hide-output"]
readout.record_book_figures(claims, stats=stats, sweep=sweep, rc=rc, book_stats=book_stats, rate=rate)
readout.record_stored_figures(claims, p4b=p4b, official=official, comp=comp)
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

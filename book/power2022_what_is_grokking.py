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
# # What is grokking?
#
# **The claim** (Power et al. 2022, *Grokking: generalization beyond overfitting on small algorithmic
# datasets*, [arXiv 2201.02177](https://arxiv.org/abs/2201.02177); official code [openai/grok](https://github.com/openai/grok)). Train a network on part of a binary-operation table, such as
# $(a + b) \bmod p$, and it fits the training pairs early: training accuracy reaches 100 %, while
# validation accuracy stays near chance. With enough patience, validation accuracy
# later climbs to 100 % as well, long after the training set was fitted. Power et al. called this
# delayed generalization *grokking*. Liu et al. (2022, Fig. 1) then showed that the moment of
# generalization is the moment the token embeddings organize into a structured representation: for
# modular addition, an ordered circle.

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Power et al. 2022, Fig. 1 (left), and Liu et al. 2022, Fig. 1 (ours, book scale)](#fig-grokking).
#
# **Power et al. 2022 (grokking), claim by claim** — 6 paper claims: 0 reproduced, 0 not reproduced; 0 inconclusive, 6 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ⏳ not tested | its tests T27 have no result yet (their stored run is not finished, or not run) | “We train on the binary operation of division mod 97 with 50% of the data in the training set. … Training accuracy becomes close to perfect at < 10^3 …” | Fig. 1 left |
# | **C2** | ⏳ not tested | its tests T28 have no result yet (their stored run is not finished, or not run) | “but it takes close to 10^6 steps for validation accuracy to reach that level” | Fig. 1 left |
# | **C3** | ⏳ not tested | its tests T29 have no result yet (their stored run is not finished, or not run) | “and we see very little evidence of any generalization until 10^5 steps” | Fig. 1 left |
# | **C4** | ⏳ not tested | not run: the chapter leaves out Power et al.'s sweeps over training fractions (its 'What we leave out') | “Training time required to reach 99% validation accuracy increases rapidly as the training data fraction decreases.” | Fig. 1 center |
# | **C5** | ⏳ not tested | shown live at book scale (toy embedding-sum MLP, addition, p = 31; delay about 30x) and in part with Power et … | “We show that, long after severely overfitting, validation accuracy sometimes suddenly begins to increase from chance level toward perfect …” | Fig. 1 left |
# | **C6** | ⏳ not tested | no registered comparison times the onset (the first rise above chance) against the fitting step: T18/T23 … | “There we see that validation accuracy starts increasing beyond chance level only after 1000 times more optimization steps than are required for …” | Fig. 1 left |
#
# **Liu et al. 2022 (effective theory), claim by claim** — 2 paper claims: 0 reproduced, 0 not reproduced; 0 inconclusive, 2 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C7** | ⏳ not tested | T09 bounds the PC1-PC2 circle fit at initialization of the toy MLP (a book bound); nothing registers the fit … | “Early on, the model is able to perfectly fit the training set while having no generalization. We study the embeddings at different training times and …” | Fig. 1 |
# | **C8** | ⏳ not tested | other models than Liu et al.'s Fig. 1 transformer (p = 59): the toy MLP at p = 31 (best seed 1.0, median 0.9 … | “Eventually, validation accuracy starts to increase, and perfect generalization coincides with the PCA projecting the embeddings into a circle in 2D.” | Fig. 1 |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What we reproduce here.** The phenomenon, live on two CPU cores in a few minutes. Modular
# addition, AdamW with weight decay, training and validation accuracy against step on a log axis,
# and the embeddings' first two principal components before and after grokking. We train 32 networks
# that differ only in their random initialization (seeds), all in one batched call, and check the
# claims of Power et al.'s Fig. 1 and of Liu et al.'s Fig. 1 as statistics over the seeds. Where ours
# differs from the paper (the length of the delay, how often the circle is clean), the chapter records the
# deviation with the paper's number beside ours.
#
# **What we leave out.** Power et al.'s sweeps over operations, training fractions and optimizers,
# and their transformer at book scale: it trains at about 11 steps per second on one CPU core, so the
# live run uses a smaller model and p = 31. Stored runs, made with the same code, go further: a transformer
# of their size (the book's pre-LN model, not `openai/grok`'s) with AdamW on modular *addition*, without the
# warm-up, for $3\cdot10^4$ steps (superseded; in the Evidence section at the end); the same model on
# Fig. 1's task, modular *division* $x/y \bmod 97$ with the warm-up, for $10^5$ steps (a tenth of Fig. 1's budget)
# with weight decay 1 and 0;
# and Fig. 1 as it was made, `openai/grok`'s transformer with Adam and no weight decay for $10^6$ steps (in
# progress). Their setup tables list every difference.
# This chapter's live section is written for the book scale only: its sanity check and its circle claims
# assume the small model on addition, so `REPRO_SCALE=paper` does not run it (the stored runs are the
# paper scale).

# %% tags=["hide-input"]
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

from repro.book.claims import ClaimBook
from repro.book.readouts import power2022_what_is_grokking as readout
from repro.core.prose import glue
from repro.core.scale import current_scale
from repro.experiments.power2022_what_is_grokking import IntroConfig, run_intro
from repro.experiments.power2022_what_is_grokking_setup import live_setup_table
from repro.plotting.power2022_what_is_grokking import plot_fig1_as_published, plot_intro
from repro.plotting.shared import use_style

use_style()
claims = ClaimBook("power2022_what_is_grokking")

# %% [markdown]
# ## Configuration
#
# The defaults of `IntroConfig` are Power et al.'s values for Fig. 1 (their App. A.1 and A.1.2): a 2-layer
# transformer, width 128, 4 heads, Adam with learning rate $10^{-3}$, $\beta_2 = 0.98$ and no weight decay,
# minibatches of 512, $p = 97$, half the table for training, the 10-update warm-up and $10^6$ steps. What the config does not
# hold (the transformer's details, the loss, the split's shuffle) is listed in the table below. At book
# scale, `IntroConfig.for_scale()` swaps in a network that groks on a CPU. It is the toy architecture of
# Liu et al. 2022: token embeddings (32-d) are summed and decoded by a one-hidden-layer ReLU MLP (128
# units). It trains full batch with AdamW (learning rate $3\cdot 10^{-3}$, weight decay 1 on every
# weight) on 70 % of the unordered pairs of $\mathbb{Z}_{31}$. It trains `n_seeds` = 32 initializations
# at once. The setup table prints every setting beside Power et al.'s, with the reason for each
# difference.

# %% tags=["hide-input"]
cfg = IntroConfig.for_scale()
print(f"scale: {current_scale()}")
live_setup_table(cfg)

# %% [markdown]
# ## Sanity check: the task and chance level
#
# The table of $(a+b) \bmod 31$ over unordered pairs has $31 \cdot 32 / 2 = 496$ entries. An
# untrained network should be right about once in 31 guesses. The first point of the training run
# (step 0) must sit at chance, so we check that it is within $\pm 0.05$ of $1/31 \approx 0.03$.

# %%
data = cfg.task_data()
print(f"pairs: {data.n_samples}, training: {len(data.train_idx)}, validation: {len(data.val_idx)}")
assert data.n_samples == cfg.task().n_samples, "the table does not hold every equation of the task"

# %% [markdown]
# ## Run
#
# One call trains all 32 networks (one per seed) and records their token embeddings at every
# evaluation step (every 10 steps).
#
# **Why seeds.** Float32 training is chaotic: a change in the last bit of one vectorized kernel (the
# same code on a CPU with other vector instructions) grows into a different trajectory, and the step
# at which one network generalizes moves by hundreds of steps. A single run's numbers are therefore
# a property of rounding as much as of the science. We report medians over the seeds, rounded to a
# resolution that the spread over seeds justifies, and we state each claim about the median.

# %%
result = run_intro(cfg)
readout.check_chance(result, cfg)

# %% [markdown]
# ## Figure: fitting first, generalizing much later
#
# ```{figure} _figures/power2022_what_is_grokking/fig_grokking.png
# :name: fig-grokking
#
# **Power et al. 2022, Fig. 1 (left), and Liu et al. 2022, Fig. 1 (ours, book scale).** **Left:** accuracy against optimization step (log axis), every seed faintly, the median over seeds
# thickly and the inter-quartile band shaded. Training accuracy (blue) reaches 99 % within the first
# {eval}`glued.train_bound` steps in every seed, while validation accuracy (red) stays low. Validation
# then rises to 99 % more than an order of magnitude later; the dashed lines mark the median crossings.
# **Right:** the 31 token embeddings of one seed (the one with the best final circle fit) projected on
# their first two principal components, at initialization (a random cloud) and after training. After
# grokking, the tokens lie on a circle, ordered: symbol $s$ sits at an angle of about $2\pi k s/31$ for a
# fixed step $k$, the Fourier structure that modular addition needs.
# ```

# %%
fig = plot_intro(result)
glue("fig_grokking", fig, display=False)

# %% [markdown]
# Over the {eval}`glued.n_seeds` seeds, training accuracy crossed 99 % within {eval}`glued.train_bound`
# steps in every seed, with validation accuracy at that moment at {eval}`glued.val_at_fit` (median), and
# validation accuracy reached 99 % a median ≈ {eval}`glued.delay` times later. After training, the best
# seed's embeddings fit an ordered circle on PC1–PC2 with score ≈ {eval}`glued.fit_best`, the median
# seed's with ≈ {eval}`glued.fit_end`.

# %% [markdown]
# ## Fig. 1's task at a tenth of its budget: division, with the warm-up, 10⁵ steps (stored)
#
# **The claim** (Fig. 1, left). On $x / y \bmod 97$ with half of the $97 \cdot 96$ equations in training,
# Power et al.'s transformer fits the training set long before it generalizes: validation accuracy stays at
# chance while training accuracy reaches 100 % (before $10^3$ steps), and it takes "close to $10^6$ steps" for
# validation to reach that level, with "very little evidence of any generalization until $10^5$ steps" (the
# caption). These runs stop at $10^5$ steps, a tenth of that budget, on the book's pre-LN transformer (not
# `openai/grok`'s post-LN one): they are context for Fig. 1's claims, not tests of them.
#
# **Scope.** Their transformer's size, AdamW with their constants and the linear warm-up over the first 10
# updates, minibatches of 512, $10^5$ steps, two init seeds (0 and 1) on one split (data seed 0). Fig. 1 itself
# was made with Adam and no weight decay for $10^6$ steps: App. A.1.2, "For the experiments reported in Section 3.1 we increased the optimization budget to $10^6$, and used Adam optimizer with no weight decay" (as quoted from the paper in
# Sea-Snell/grokking issue #4; `openai/grok`'s `training.py` also defaults to weight decay 0). These runs were
# stored before that sentence was found, with App. A.1's weight decay 1 ("for most experiments") and with 0:
# the run with 0 has Fig. 1's optimizer at a tenth of its budget, the run with 1 is another setting. Two
# stored runs (`python -m repro.experiments.power2022_what_is_grokking --store
# book/_results --run division-wd1`, and `--run division-wd0`; about 3 hours each on one CPU core,
# resumable).

# %%
division, division_progress = readout.load_division_runs()

# %% tags=["hide-input"]
readout.report_division_setup(division)
if division:
    fig_div = plot_fig1_as_published(readout.division_panels(division))
    glue("fig_power_division", fig_div, display=False)
readout.report_unfinished_division(division, division_progress)

# %% [markdown]
# ```{figure} _figures/power2022_what_is_grokking/fig_power_division.png
# :name: fig-power-division
#
# Fig. 1's task (left panel) at 10⁵ steps, stored: division mod 97, half of the equations in training, Power et al.'s
# transformer and optimizer with the warm-up, $10^5$ steps. One panel per weight decay; training (blue) and
# validation (red) accuracy of seed 0 (solid) and seed 1 (dotted) against step on a log axis, chance
# dotted grey, and seed 0's first steps at 99 % dashed. Fig. 1 shows validation at chance until long after
# training reaches 100 %, then rising to 100 %.
# ```

# %% [markdown]
# **What the stored runs show.** Fig. 1's task at 10⁵ steps: {eval}`glued.division_summary`. With weight decay 1
# (not Fig. 1's setting) the run generalizes about 6 times after it fits, not about $10^3$ times, and then keeps
# falling out of its solution. With 0 it fits early and stays near chance to the end of its $10^5$ steps, as
# Fig. 1 does up to $10^5$; whether it then generalizes is what the $10^6$-step run below tests.

# %% [markdown]
# ## Fig. 1 as made: `openai/grok`'s transformer, Adam, $10^6$ steps (stored, in progress)
#
# The run that tests Fig. 1's caption is the official code's setup: `openai/grok`'s transformer (post-LN blocks,
# fixed sinusoidal positions, bias-free linear layers, PyTorch's default initialization, its 239-token vocabulary
# and output head), its tokens and split, the loss and accuracy on the tokens after "=", Adam without weight decay
# (App. A.1.2, quoted above, and `openai/grok`'s default), the warm-up, minibatches of 512, $10^6$ steps, two
# seeds, one after the other (seed 1 starts when seed 0 has finished). Its three claims were registered before
# it started: training accuracy at 99 % by step $10^3$; validation at 99 % within half a decade of $10^6$ steps;
# validation within 0.05 of chance before step $10^5$ (each the median of the two seeds). It takes days of one
# CPU core (the running page gives the hours spent so far) and resumes where it stopped (`python -m
# repro.experiments.power2022_what_is_grokking --store book/_results --run fig1`). Its segments have run on CPUs
# with different vector kernels (AVX-512 and AVX2, named in its provenance); float32 trajectories depend on them,
# so the stored run is one trajectory of this setup, not a bit-exact replay on another machine. Until it is
# finished, Fig. 1's claims are not tested. The differences that remain
# from `openai/grok` are listed in `repro.experiments.power2022_what_is_grokking.fig1_config`.

# %%
readout.report_fig1_run()

# %% [markdown]
# ## The four phases, and where this book goes next
#
# Grokking is not the only way training can end. Liu et al. (2022) sort runs into four phases by
# whether and when they fit and generalize:
#
# - **comprehension**: both happen quickly;
# - **grokking**: generalization comes long after fitting;
# - **memorization**: the network fits but never generalizes;
# - **confusion**: the network does not even fit.
#
# Which phase a run lands in depends on how fast the representation learns compared with how fast
# the decoder can memorize: learning rates, weight decay, initialization scale and the amount of
# data. The chapters that follow explain that competition from several angles:
#
# - **Towards understanding grokking**: an effective theory of representation learning predicts the
#   critical training fraction and maps the four phases.
# - **Omnigrok**: grokking as a weight-norm story (the "LU" loss landscape).
# - **Droplets of good representations**: grokking as a first-order phase transition in two-layer
#   networks.
# - **GenEFT**: information theory for the critical data size, and interacting "repons".
# - **Why do you grok?**: kernel lower bounds, and escaping the kernel regime.
#
# ## Paper versus ours

# %% [markdown]
# In all, this chapter's paper claims: {eval}`glued.ledger_tally`. The claim tables behind these verdicts,
# with every test, are in the Evidence section at the end.
#
# ### Deviations and what they mean
#
# - **Model and size, hence the delay.** We do not run Power et al.'s transformer at book scale. The
#   embedding-sum MLP groks in a few thousand steps on $p = 31$, which a CPU can afford, and it shows the
#   same phenomenon. The delay is shorter than Power et al.'s: their model, $p = 97$, lower learning rate
#   and minibatches stretch it to about $10^3\times$, ours is ≈ {eval}`glued.delay`$\times$
#   ($\log_{10}$ ≈ {eval}`glued.log_delay`, against 3). A transformer of their size with AdamW (the book's pre-LN model) on addition
#   does not bring the delay back either: the stored run (in the Evidence section) fits at step
#   {eval}`glued.power_fit` and generalizes at step {eval}`glued.power_gen`, {eval}`glued.power_delay`$\times$
#   later. That run is not their Fig. 1's setting:
#   Fig. 1 shows division, with a 10-step warm-up, trained with Adam and no weight decay for $10^6$ steps
#   (App. A.1.2). Fig. 1's task at a tenth of its
#   budget is stored for each weight decay (above): {eval}`glued.division_summary`.
# - **Instability of the transformer of their size on addition.** From step {eval}`glued.power_first_dip` on, the stored run repeatedly
#   falls out of its solution (validation below 90 % at {eval}`glued.power_dips` evaluations) and recovers; by the last
#   step its PC1–PC2 plane mixes frequencies, so the clean circle it had after generalization is gone
#   there. This run has no warm-up: the 10-step linear learning-rate warm-up of their App. A.1 came to our
#   trainer after it was stored. The division runs have it, and with weight decay 1 they fall out of their
#   solution in the same way (above): on division, at least, the warm-up does not prevent it.
# - **Unordered pairs.** A model that adds the two embeddings cannot tell $(a, b)$ from $(b, a)$.
#   Trained on ordered pairs, it answers the mirror image of every training pair correctly for
#   free: with half of the ordered table in training, about half of the validation pairs have their
#   mirror image in the training set, so validation accuracy would jump to about 50 % the moment
#   training fits, which would blur the delay. At book scale we therefore split the unordered pairs, so
#   validation accuracy counts only genuine generalization. This costs data: the unordered table has
#   half as many entries, so we train on 70 % of it rather than 50 %.
# - **The circle is one frequency among several, and PCA can mix them.** After grokking, this model
#   spreads its embedding variance over several Fourier frequencies, each a circle in its own plane,
#   with nearly equal variance per component. When PC1–PC2 pick out one frequency cleanly, the fit is
#   close to 1; when two frequencies with near-equal variance swap into the top two components, PCA
#   mixes them and the fit drops well below 0.9, although each frequency is still a perfect circle in
#   its own plane. Which of the two happens in a given seed depends on floating-point details: the same
#   seed can give a clean circle with one CPU's vector kernels and a mixed one with another's (we saw
#   this when validating the chapter on AVX2, AVX-512 and scalar kernels). So the median seed's fit,
#   ≈ {eval}`glued.fit_end` at the resolution its spread allows, sits at the 0.9 of a clean circle rather
#   than above it, and a claim of $\ge 0.9$ for the median seed would pass or fail with the rounding of
#   the CPU's kernels. What is stable is the share of seeds with a clean circle, ≈
#   {eval}`glued.share_circle`, and that is the deviation recorded in the claims (item 5, in the Evidence section).
#   The best plane among the top four principal components does not rescue the clean circle either (we tried it:
#   its median fit also sat at 0.9), because with near-equal variances PCA may rotate the frequencies' planes into
#   each other. Liu et al.'s transformer (Fig. 1) concentrates on fewer frequencies, which makes its circle more
#   robust; the transformer chapter tests it there.

# %% [markdown]
# ## Evidence
#
# What follows is how each claim of this chapter is checked (criteria, resolutions and tolerances), the per-seed
# table, the stored run on addition that the division runs supersede, and the claim tables with every test. The
# verdicts in the summary at the top follow from these by the decision rules on the reproduction-status page.

# %% [markdown]
# ### Claims: what is checked, and against what
#
# Every claim is about the 32 seeds together: a median, a share of seeds, or (at initialization, where
# no training has happened) the worst seed. Each has a *kind*: a **reproduction** compares ours with a
# number the paper gives or shows and must agree; a **deviation** records where ours does not agree,
# with the paper's number beside ours; a **check** holds a bound this book chose and never counts as a
# reproduction. The claim tables at the end of this section collect them per figure.
#
# Power et al., Fig. 1 (left panel: accuracy against optimization step for modular division mod 97 with
# half the table in training; the book trains addition, see the setup table):
#
# 1. **Training fits, validation reaches 100 %** (reproductions). The medians over seeds of the final
#    training and validation accuracy are $1.00 \pm 0.01$: both curves of their Fig. 1 end at 100 %.
# 2. **While training fits, validation stays at chance** (reproduction). At the first evaluation at
#    which a seed's training accuracy reaches 99 %, its validation accuracy is at chance, $1/p$, within
#    $\pm 0.05$ (the same band as the sanity check at step 0; median over seeds). Ours sits at or below
#    chance.
# 3. **The delay** (a check and a deviation). A check that the delay is real at book scale: the median
#    seed reaches 99 % validation at least ten times later than 99 % training (a bound this book
#    chose; a seed that never fits or never generalizes counts as a delay of 0). Power et al.'s delay is
#    about three orders of magnitude, read off the log-step axis of their Fig. 1. We would call
#    $\log_{10}(\text{delay})$ within one decade of 3 a reproduction; ours is far shorter (a deviation:
#    a smaller model, a smaller $p$ and a larger learning rate, see Paper versus ours).
#
# Liu et al. 2022, Fig. 1 and §4.2 ("perfect generalization coincides with the PCA projecting the
# embeddings into a circle in 2D"). The fit $|\langle e^{i(\theta_s - 2\pi k s/p)}\rangle_s|$ of the
# embeddings' angles on PC1–PC2 to $2\pi k s/p$ for the best $k$ is 1 for a perfectly ordered circle; we
# call a fit of at least 0.9 a clean circle. Random points are not at 0: the best of the 30 possible $k$
# scores {eval}`glued.fit_init_median` by chance for 31 points (the median seed at initialization).
#
# 4. **Some seed shows the clean circle** (reproduction): the best seed's fit is $1.0 \pm 0.1$, as in
#    the single run of Liu et al.'s Fig. 1.
# 5. **Every generalizing run shows it** (deviation): the paper states it without qualification, so
#    the share of seeds with a clean circle would be 1; we would call a share of at least 0.75 a
#    reproduction. That band was set after an earlier version of this chapter had seen the fits.
# 6. **More order than at initialization** (checks, bounds of this book): at initialization the largest
#    fit over seeds stays below 0.7; after training the median seed's fit is above 0.7. The second bound
#    was chosen after seeing the fits: an earlier, single-seed version of this chapter claimed the clean
#    circle ($\ge 0.9$) for the median seed, which over seeds does not hold (item 5).
#
# **Resolutions.** Each median is printed at a grid step of about three or more times its standard
# error over seeds (a bootstrap over the 32 seeds; the per-seed cell below prints them): accuracies at
# 0.05, the median delay at 10 and its $\log_{10}$ at 0.5, the best seed's circle fit at 0.05, the median circle fit
# at 0.3 (the fits are bimodal, clean circles near 1 and mixed ones near 0.6, so their median is
# uncertain by several hundredths), the share of clean circles at 0.5 (the count of clean circles moves by
# a few seeds between CPU kernel sets). The fit at initialization does
# not depend on training and is shown at 0.01.

# %% tags=["hide-input", "hide-output"]
stats = readout.record_fig1(claims, result, cfg)

# %% [markdown]
# ### Per seed
#
# The table below lists every seed. Its numbers belong to one trajectory each, and the last bits of
# floating point move them (this cell is therefore not compared when the book is validated on another
# machine; the claims above check what matters in it: the medians).

# %% tags=["nbval-skip", "hide-input", "hide-output"]
readout.report_seeds(stats, cfg)

# %% [markdown]
# In this build, the median seed reached 99 % validation accuracy at step {eval}`glued.val_step_exact`,
# {eval}`glued.n_val_never` seeds did not reach it within the budget, and {eval}`glued.n_circle` seeds end
# with a circle fit of at least 0.9 (the median fit is {eval}`glued.fit_end_exact`).

# %% [markdown]
# ### Power et al.'s transformer and optimizer, on addition (stored; superseded by the division runs)
#
# The book-scale model above is not Power et al.'s. This run uses their transformer's size and their
# App. A.1's optimizer: a 2-layer transformer (width 128, 4 heads, LayerNorm), the ordered
# pairs of $p = 97$ with half of them in training, AdamW (learning rate $10^{-3}$, weight decay 1,
# $\beta_2 = 0.98$), minibatches of 512. It is **not** their Fig. 1's setting: it trains modular addition
# where Fig. 1 shows division, with App. A.1's weight decay where Fig. 1 has none, no warm-up, $3\cdot10^4$ of
# Fig. 1's $10^6$ steps, and its
# transformer differs in details (the setup table below lists every difference). On one CPU core it trains
# at about 11 steps per second, so we ran one seed (init seed 0, data seed 0) for
# {eval}`glued.power_minutes` minutes, and stored its curves and sixteen snapshots of its embeddings, spread
# evenly in log(step) (`python -m repro.experiments.power2022_what_is_grokking --store book/_results --run addition`
# recomputes it). The chapter loads the run, so its numbers are the same on every machine. It is the same
# code as the live run above, with another config.
#
# The claims are those of the book-scale run, with the same bands: training and validation accuracy end at
# $1.00 \pm 0.01$; validation is at chance ($1/97 \pm 0.05$) when training first reaches 99 %; $\log_{10}$
# of the delay is within one decade of 3; the ordered-circle fit of the final embeddings on PC1–PC2 is
# $1.0 \pm 0.1$ (Liu et al.'s Fig. 1 is a transformer too). The run was stored before claims were sealed
# in a registry when a run starts, so nothing shows that these bands were fixed before it: every claim on
# it is marked † (set after its result). A further claim, added after the run was seen, records how often
# validation falls out of its solution after generalizing (Fig. 1 shows it staying at 100 %). One seed
# gives one verdict each; how often another seed would change them is not known. The figure shows the
# embeddings at the snapshot after generalization with the best circle fit (a choice made after seeing
# the run, for the reason given in the deviations under Paper versus ours).

# %% tags=["hide-input"]
power = readout.report_addition_run()

# %% [markdown]
# ```{figure} _figures/power2022_what_is_grokking/fig_power_stored.png
# :name: fig-power-stored
#
# Power et al.'s transformer and optimizer on modular addition (not Fig. 1's division), one seed, stored. **Left:** training (blue, hidden under red where both are
# at 1) and validation (red) accuracy against step (log axis); the dashed lines mark the first steps at
# 99 %. From step {eval}`glued.power_first_dip` on, the run falls out of its solution again and again,
# and recovers. **Right:** the
# 97 token embeddings (128-d) on their first two principal components at initialization and at the
# snapshot after generalization with the best circle fit (step {eval}`glued.power_best_step`).
# ```

# %%
fig_power = plot_intro(power.result, run=0, step=power.best_step)
glue("fig_power_stored", fig_power, display=False)
glue("power_best_step", f"{power.best_step:,}", display=False)

# %% tags=["hide-input"]
readout.record_addition_run(claims, power)

# %% [markdown]
# ### Fig. 1's task at 10⁵ steps: the claims
#
# Each of the two division runs (weight decay 1 and 0) has five claims, registered before the runs started:
# final training and validation accuracy $1.00 \pm 0.01$; validation accuracy at the first evaluation at or
# after ten times the step at which training reaches 99 % within 0.05 of chance; $\log_{10}$ of the delay
# within one decade of 3; and at most one evaluation in fifty below 90 % once validation has reached 99 %.
# Each is judged on the median of the two seeds. The claims registered for them before they started carry
# "as published" in their names; that is a misnomer kept because a sealed claim's name is part of its seal.

# %% tags=["hide-input"]
division_claims = readout.record_division_runs(claims, division)
readout.glue_division_summary(division, division_progress)

# %% [markdown]
# ### The claim tables
#
# The paper's claims, numbered and quoted, each with one verdict that follows from its tests by the book's
# decision rules (registered once, stated under the table). The figure rows below the claims are the
# evidence: each names the paper claims its comparisons bear on.

# %% tags=["hide-input", "hide-output"]
readout.record_paper_versus_ours(claims, stats=stats, power=power, division_claims=division_claims,
                                 division_progress=division_progress)
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

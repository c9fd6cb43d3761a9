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
# # Towards understanding grokking (I): representations and the effective theory
#
# **The claim** (Liu, Kitouni, Nolte, Michaud, Tegmark, Williams 2022, *Towards Understanding
# Grokking: An Effective Theory of Representation Learning*, NeurIPS, [arXiv 2205.10343](https://arxiv.org/abs/2205.10343); official code [ejmichaud/grokking-squared](https://github.com/ejmichaud/grokking-squared)). In a toy
# model that learns addition, the network generalizes exactly when its symbol embeddings arrange
# into a structured representation: for addition, the embeddings lie on a line, so every
# "parallelogram" $E_i + E_j = E_m + E_n$ with $i + j = m + n$ holds. The representation's dynamics
# can be described by an *effective theory* that ignores the decoder: gradient flow on an effective
# loss that penalises broken parallelograms. This theory predicts how long the network needs to find
# the linear structure, in units of a time scale $n_h = 1/(\lambda_3\eta)$ set by the training data.

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Liu et al. 2022, Fig. 2 at the official setting (ours, stored, $2\cdot10^4$ steps)](#fig-liu-fig2).
#
# **Liu et al. 2022 (effective theory), claim by claim** — 10 paper claims: 0 reproduced, 1 not reproduced (rate 0/1); 6 inconclusive, 3 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ❔ inconclusive | T28: 0.92 vs paper >= 0.9 | “We can see that generalization appears to be linked to the emergence of highly-structured embeddings in Figure 2. In particular, Figure 2 (a, b) …” | Fig. 2a, Fig. 2b |
# | **C2** | ⏳ not tested | not tested at the paper's setting: the stored modular runs borrow the addition run's hyperparameters, because … | “…and (c, d) shows a circle in toy modular addition. … if we have a decoder like in Figure 2 (d) then the distance between distinct representations …” | Fig. 2c, Fig. 2d |
# | **C3** | ⏳ not tested | a proof (App. F); the chapter does not test the conservation of C and Z0 itself. T11 (a check of our … | “Note that the embeddings do not collapse to the trivial solution unless initialized as such, because two conserved quantities exist, as proven in …” | Eq. 6 |
# | **C4** | ❔ inconclusive | T35: 1.00 vs paper >= 0.95 | “Figure 4 (c)(d) show the trajectories obtained from the effective theory and from neural network training, respectively. The 1D neural representation …” | Fig. 4c, Fig. 4d |
# | **C5** | ❌ not reproduced | T10: 6.5 vs paper 3 ± 50 % | “it takes about … steps for two trajectories to converge to the linear structure. The quantitative differences might be due to the absence of the …” | Fig. 4c, Fig. 4d |
# | **C6** | ⏳ not tested | an algebraic argument; the chapter restates it and does not test it (no comparison counts deductions) | “That is, for non-Abelian groups, three parallelograms are needed to deduce a new parallelogram.” | Fig. 16 |
# | **C7** | ❔ inconclusive | T26 †: 0.00 vs paper 1 ± 0.25 | “We show the first three principal components of these group elements in Figure 17. On the plane of … the six points are organized as a hexagon.” | Fig. 17 |
# | **C8** | ❔ inconclusive | T34: 1.00 vs paper 1 ± 0.05 | “In Figure 18 (a), we show RQI as a function of training data fraction. For each training data fraction, we run 11 random seeds (shown as scatter …” | Fig. 18a |
# | **C9** | ❔ inconclusive | T32: 0.58 vs paper 0.5 ± 0.0833333 | “In Figure 18 (b), we whow the steps to reach … as a function of training data fraction, and find a phase transition at … The blue line corresponds to …” | Fig. 18b |
# | **C10** | ❔ inconclusive | T25 †: 0.00 vs paper <= 0.0277778 | “The real accuracy is shown in Figure 18 (c), while the predicted accuracy (calculated from RQI) is shown in Figure 18 (d). Their comparison is shown …” | Fig. 18c, Fig. 18d, Fig. 18e |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **The toy model** (paper §2, official code `toy/train_add.py`). Symbols $0..9$; a sample is an
# unordered pair $(i, j)$ labelled $i + j$, so the table has 55 samples; 45 train, 10 validate. Each
# symbol has a learnable 1-D embedding $E_k$; the decoder, a tanh MLP 1-200-200-30, maps
# $E_i + E_j$ to a fixed random 30-d target vector of the class $i + j$ (MSE; the prediction is
# the nearest target). Adam trains the embeddings (learning rate $\eta = 10^{-3}$), AdamW the decoder
# ($10^{-4}$, no weight decay), full batch.
#
# **What we reproduce here.** Fig. 4(c, d): the effective theory's trajectories against the
# network's, and the paper's "about $3 n_h$ steps" to the linear structure. Over random starts it holds
# for the network and, in the median, for both integrators of the theory (as printed and as the official
# code integrates it), each timed in its own $n_h$; from the paper's own start, though, both integrators
# need about twice that. Fig. 2 at the official 2-D settings (p = 11, ReLU decoder 2-128-128, decoder
# weight decay 5, $2\cdot10^4$ steps; stored runs) except three details our trainer cannot express (the
# embeddings' init `randn + 1`, the decoder input $(E_i + E_j)/2$, no ReLU after the decoder's second
# layer): the generalizing representations of Fig. 2(b) and 2(c, d) are not reproduced at that setting;
# the memorizing one of Fig. 2(a) shows, in kind, on the toy decoder's 2-D twin of the reference run. The
# parallelogram count $|P_0| = 70$ is checked. The critical training fraction, Fig. 3 (accuracy against
# the accuracy predicted from the representation) and Fig. 5 are in the companion chapter, *Towards
# understanding grokking (II): critical data*.
#
# **What we leave out.** The exact official initialization and decoder of Fig. 2: the trainer cannot
# express three details of the official notebooks (see the Fig. 2 section). The four-phase diagrams
# (Figs 6–8) are in a separate chapter. Appendix H (the permutation group $S_3$, Figs 17 and 18) closes
# this chapter. Its critical fraction comes out higher than the paper's, at book scale and in a stored
# paper-scale run (the paper's seed count and the official notebook's rates, with fractions, steps and a
# decoder rate the paper leaves open); see that section.

# %% tags=["hide-input"]
import warnings
from dataclasses import replace

warnings.filterwarnings("ignore", category=UserWarning)

from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.book.readouts import liu2022_effective_theory as readout
from repro.book.readouts import liu2022_effective_theory_s3 as readout_s3
from repro.core.scale import by_scale, current_scale
from repro.experiments.liu2022_critical_data import ToyConfig, run_reference, run_seed_spread
from repro.experiments.liu2022_effective_theory import Fig2Config, initial_embeddings, integrate_from_starts
from repro.experiments.liu2022_effective_theory_s3 import S3Config, run_s3_sweep
from repro.experiments.liu2022_effective_theory_setup import (fig2_setup_table, reference_setup_table, s3_setup_table,
                                                              twin_2d_setup_table)
from repro.plotting.liu2022_critical_data import plot_embedding_comparison, plot_seed_spread, plot_trajectories
from repro.plotting.liu2022_effective_theory import plot_fig2, plot_fig2_curves, plot_integrators
from repro.plotting.liu2022_effective_theory_s3 import plot_s3
from repro.plotting.shared import use_style

use_style()
claims = ClaimBook("liu2022_effective_theory")

# %% [markdown]
# ## Configuration
#
# `ToyConfig`'s defaults are the paper's (§2) and the official code's values (`toy/train_add.py`). The reference run
# is the official default: data seed 58 for the split and the targets, init seed 58, 45 training
# samples, 5000 steps, and it runs all 5000 at book scale too. The spread over init seeds (below) stops at
# `reference_steps` = 2000 at book scale (all the dynamics of interest happen before step 1600). Metrics
# are evaluated every 10 steps (threshold steps are therefore rounded up to a multiple of 10). The setup
# table prints every setting this chapter's Fig. 4 runs use beside the official one, with the reason for
# each difference.

# %% tags=["hide-input"]
cfg = ToyConfig.for_scale()
ref_cfg = replace(cfg, reference_steps=by_scale(book=ToyConfig().reference_steps, paper=ToyConfig().reference_steps,
                                                smoke=cfg.reference_steps))
STARTS = by_scale(book=tuple(range(100)), paper=tuple(range(100)), smoke=(58, 0, 1, 2))  # effective-theory starts
print(f"scale: {current_scale()}; the reference run trains {ref_cfg.reference_steps} steps, the seed spread "
      f"{cfg.reference_steps}")
reference_setup_table(ref_cfg, cfg, STARTS)

# %% [markdown]
# ## Sanity check: the parallelogram set
#
# The permissible parallelograms $P_0$ (eq. 1) are the pairs of distinct samples with the same sum,
# e.g. $(0, 4)$ and $(2, 2)$ give $E_0 + E_4 = 2E_2$. For $p = 10$ there are 70: the official code
# (`toy/train_add.py`) divides its parallelogram count by 70 to get the RQI. A linear
# representation $E_k = a + kb$ has all of them, so its representation quality index
# $\mathrm{RQI} = |P(R)|/|P_0|$ (eq. 3) is 1.

# %% tags=["hide-input"]
readout.check_parallelogram_count(claims, cfg)

# %% [markdown]
# ## Run: the reference network and its effective theory
#
# One call trains the network, records its embeddings at every step, and integrates the effective
# theory (eq. 4–5) from the same initial embeddings. The effective loss is
# $\ell_\mathrm{eff} = \ell_0/Z_0$ with $\ell_0 = \sum_{P_0(D)} |E_i + E_j - E_m - E_n|^2$ over the
# parallelograms of the *training* set and $Z_0 = \sum_k |E_k|^2$; we take Euler steps with the
# embeddings' learning rate $\eta$. Its time scale is $n_h = 1/(\lambda_H \eta)$ with
# $\lambda_H = 2\lambda_3/p$ the smallest non-trivial eigenvalue of its Hessian
# (eq. 8–9; $\lambda_3$ is that of $A_D^\top A_D$, $A_D$ one row per training parallelogram).
# We leave out the paper's literal $1/|P_0(D)|$ factor in $\ell_0$: it would stretch $n_h$
# {eval}`glued.p0d_count`-fold ($|P_0(D)|$ of this training set), to about {eval}`glued.n_h_literal` steps
# for a network that groks in about a thousand (App. F says the factor only rescales
# time; the official integrator in `toy/train_add.py` leaves it out).

# %%
ref = run_reference(ref_cfg)
readout.report_reference_theory(ref, cfg)

# %% [markdown]
# ## Figure 4(c, d): effective theory against the network
#
# ```{figure} _figures/liu2022_effective_theory/fig_trajectories.png
# :name: fig-liu-trajectories
#
# **Liu et al. 2022, Fig. 4(c, d) (ours).** The ten 1-D embeddings $E_0..E_9$ (normalised to zero mean and unit variance) against optimization
# step, labelled at both ends. **Left:** the effective theory, Euler steps on $\ell_0/Z_0$ with the
# training set's parallelograms. **Right:** the network. Both start from the same random
# embeddings and end on the evenly spaced ladder $E_k = a + kb$, in the order of the symbols. The
# dashed line is $3 n_h$. The theory moves on straighter paths: it has no decoder pulling the
# embeddings around.
# ```

# %%
fig = plot_trajectories(ref)
glue("fig_trajectories", fig, display=False)

# %% [markdown]
# **The claim** (§3.2, text next to Fig. 4c, d): "it takes about $3 n_h$ steps for [the effective and
# the network] trajectories to converge to the linear structure". We measure convergence as the first
# step with RQI $> 0.95$, in units of $n_h$. "About 3" is read as $3 \pm 50\,\%$: the paper gives no
# more digits.
#
# **Each trajectory in its own $n_h$.** $n_h = p/(2\lambda_3\eta)$ is set by $\lambda_3$, the smallest
# non-trivial eigenvalue of $A^\top A$ for the parallelograms that drive the dynamics. Three trajectories
# reach the linear structure, and each has its own:
#
# - **the network**, which sees the training set $D$: the training set's $n_h$ = {eval}`glued.n_h` steps
#   ($\lambda_3$ = {eval}`glued.lambda3`);
# - **eq. (5) as printed**, $\ell_0$ summed over the training set's parallelograms $P_0(D)$ (the variant
#   plotted above): the same $n_h$;
# - **the official integrator** (`toy/train_add.py`), which drew the paper's Fig. 4(c): it sums $\ell_0$
#   over *all* 70 parallelograms of the table, so it is blind to the data, and its own time unit is the
#   full table's $n_h$ = {eval}`glued.n_h_full` steps ($\lambda_3 = 30$).
#
# **Over starts.** How long a trajectory takes depends on where it starts, so we integrate both forms of
# the theory from {eval}`glued.n_starts` random initial embeddings (init seeds 0 to
# {eval}`glued.last_start`, drawn exactly as the trainer draws them, with no training needed) and train the
# network from {eval}`glued.n_spread` of them (one batched run, {eval}`glued.spread_steps_budget` steps; the
# reference split, so $n_h$ is the same for all). Steps to RQI $> 0.95$, in each trajectory's own $n_h$:
#
# - eq. (5): {eval}`glued.eff_train_spread`, 10 % to 90 % of the starts within {eval}`glued.eff_train_range`;
# - the official integrator: {eval}`glued.eff_all_spread`, 10 % to 90 % within {eval}`glued.eff_all_range`;
# - the network: steps {eval}`glued.spread_steps`, a median of {eval}`glued.net_ratio` $n_h$.
#
# The three medians are "about 3", and these are the reproductions (registered in the Evidence section). The spread
# is not small: one start in ten needs more than {eval}`glued.eff_train_p90` $n_h$ under eq. (5).
#
# **The paper's own start.** The run of Fig. 4(c, d) starts from init seed 58. From there the network
# reaches the linear structure at step {eval}`glued.rqi_step` ({eval}`glued.net_ref_ratio` $n_h$), but eq. (5)
# needs {eval}`glued.eff_ref_ratio` $n_h$ (step {eval}`glued.eff_current_step`; slower than
# {eval}`glued.eff_ref_slower` of the {eval}`glued.n_starts` starts), and the official integrator
# {eval}`glued.eff_all_ref_own` of its own $n_h$ (step {eval}`glued.eff_all_ref_step`). Timed in the
# *training set's* $n_h$, the official integrator's crossing is {eval}`glued.eff_all_ref_train` $n_h$:
# "about 3". That is the only unit in which the paper's statement holds for its own Fig. 4(c), and it
# times an integrator that never sees the training set in the training set's unit. We record both.
#
# **Why the count depends on the start.** Near the linear structure every non-trivial mode of the theory
# decays at least as fast as $e^{-t/n_h}$, so the number of $n_h$ to the RQI tolerance grows with the
# logarithm of the start's weight in the slowest modes, which varies from start to start. The gap between
# the paper's start and the median is not the integrator's $Z_0$. The official integrator keeps $Z_0$ frozen at its initial value; ours uses the
# current value, so each Euler step is the exact gradient of $\ell_0/Z_0$. Since $Z_0$ is conserved by
# the flow (eq. 6), the two differ only by Euler error: from the paper's start, eq. (5) with a frozen
# $Z_0$ crosses at step {eval}`glued.eff_frozen_step`, against {eval}`glued.eff_current_step` with the current
# one (every step resolved; a check, bound 2 %). An earlier version of this chapter blamed the gap on
# $Z_0$; this check rules that out.

# %%
spread = run_seed_spread(replace(ref, config=cfg))  # the network from the spread seeds, cfg.reference_steps each
starts = integrate_from_starts(initial_embeddings(cfg.model_config(), STARTS)[..., 0], ref.train_pairs, cfg.p,
                               lr=cfg.lr_repr, steps=cfg.effective_steps, record_every=cfg.eval_every, seeds=STARTS,
                               delta=cfg.rqi_delta, threshold=cfg.rqi_threshold)
fig4 = readout.fig4_timing(cfg=cfg, ref=ref, spread=spread, starts=starts, seeds=STARTS)
readout.report_fig4_timing(fig4)

# %% [markdown]
# ```{figure} _figures/liu2022_effective_theory/fig_integrators.png
# :name: fig-liu-integrators
#
# Both integrators and the network on one axis, each in its own $n_h$. **(a)** RQI against steps$/n_h$:
# eq. (5) (blue; the training set's $n_h$) and the official integrator (green; the full table's $n_h$),
# median over the {eval}`glued.n_starts` starts with the 10–90 % band, the paper's start dashed; the
# network (red; the training set's $n_h$), median over {eval}`glued.n_spread` init seeds. **(b)** Every
# start's steps to RQI $> 0.95$ in its own $n_h$, the paper's start ringed. Grey: "about 3", $3 \pm 50\,\%$.
# ```

# %%
fig = plot_integrators(starts, spread.steps, spread.rqi_curves, spread.rqi_step, ref.n_h, cfg.reference_seed,
                       threshold=cfg.rqi_threshold)
glue("fig_integrators", fig, display=False)

# %% [markdown]
# ## Figure 2(a) with the toy decoder: the reference run's 2-D twin memorizes
#
# Fig. 2 of the paper shows 2-D embeddings: when the network generalizes, the embeddings form
# parallelograms (addition) or a circle (modular addition); when it memorizes, they do not. Before the
# official 2-D setting (next section), the reference run itself shows the contrast. Trained with 1-D
# embeddings it generalizes; trained with 2-D embeddings and everything else equal, it memorizes: the
# official code reports test accuracy 0.5 and RQI 0.4 for that run after 5000 steps (`toy/train_add.py`
# with `d_in = 2`, seed 58). The extra dimension gives the decoder room to separate the training sums
# without lining the embeddings up. So panel (a) below is Fig. 2(a) in kind (the toy decoder, not the
# official notebook's ReLU decoder); panel (b) is the 1-D reference run, not a panel of Fig. 2. The figure
# shows the reference init seed; the claims (in the Evidence section, with the twin's setup table) are checked
# on the medians over the {eval}`glued.n_spread` init seeds of the batched runs above (the 2-D twin is trained
# from the same seeds, for the same {eval}`glued.spread_steps_budget` steps, in one more batched call).
#
# ```{figure} _figures/liu2022_effective_theory/fig_embeddings.png
# :name: fig-liu-embeddings
#
# **Liu et al. 2022, Fig. 2(a) (ours, toy decoder).** **(a)** The ten 2-D embeddings (black, labelled) after {eval}`glued.spread_steps_budget` steps, the 55
# sums $E_i + E_j$ the decoder sees (grey), and the class the trained decoder assigns to each point of the
# plane (colour). The embeddings form no parallelograms (RQI in the title), and validation accuracy stays
# low. **(b)** The 1-D embeddings of the reference run at step {eval}`glued.ref_steps`, its full official
# length: an evenly spaced ladder (RQI {eval}`glued.ref_rqi`), with {eval}`glued.ref_val_correct` of the 10
# validation samples answered correctly (the official run answers all 10 at that step).
# ```

# %% [markdown]
# ```{figure} _figures/liu2022_effective_theory/fig_spread.png
# :name: fig-liu-spread
#
# The reference setting over init seeds. **(a)** RQI of the 1-D embeddings against step: every seed
# faintly, the median and the quartile band thickly; dashed: $3 n_h$, solid: the median step to
# RQI $> 0.95$. **(b)** Every seed's final validation accuracy against its final RQI, 1-D (circles) and
# 2-D (squares) embeddings.
# ```

# %% [markdown]
# ## Figure 2 at the official 2-D settings, as our trainer runs them (stored)
#
# **The claim** (§3, Fig. 2). With 2-D embeddings of $p = 11$ symbols, generalization goes with
# structure: in toy addition the embeddings of a network that generalizes form parallelograms (b), those of
# one that memorizes do not (a); in toy modular addition a generalizing network's embeddings form a circle
# and its decoder cuts the plane into "pizza slices" (c, d; §3 and the limitations paragraph). The colours
# of Fig. 2 are the decoder's most probable class at each point of embedding space.
#
# **The official setting** (notebooks `plotting_nbs/VisualizingAddition.ipynb` and `VisualizingModular.ipynb`,
# prototype branch). Embeddings `torch.randn(11, 2) + 1` (init seed 0, "0 is a great seed"), AdamW with
# lr $10^{-3}$ and no decay; a ReLU decoder 2-128-128-$C$ with AdamW, lr $9\cdot10^{-5}$, weight decay 5;
# $2\cdot10^4$ full-batch steps on the data seed 0 split (80 %, plus samples 0 and 1 forced into training).
# Addition uses ordered pairs (121 samples, 21 classes), MSE on one-hot targets and the decoder input
# $(E_i + E_j)/2$; modular addition unordered pairs (66 samples, 11 classes), cross-entropy and
# $E_i + E_j$. The hyperparameters of the generalizing modular run are not in the repository; we use the
# addition run's. `Fig2Config`'s defaults are these values, but for the init seeds (8 of them; the
# notebooks train seed 0).
#
# **What we run.** The official setting, including its three unusual details: the $+1$ of the embedding
# init, the input scale $1/2$ and the missing ReLU after the decoder's second layer (the notebook's list
# comprehension drops it) are options of the book's model (`EmbedMLPConfig.embed_mean`, `input_scale`,
# `activate_last_hidden`). The modular runs borrow the addition run's hyperparameters (see below). A unit
# test checks our data, split and training steps against a plain-PyTorch transcription of the official
# cell, and the setup tables below print the official values beside ours. We train {eval}`glued.fig2_n_seeds` init seeds of each task in one batched call (the notebooks show
# one). That is {eval}`glued.fig2_run_steps` run-steps, minutes on a CPU, so the chapter loads the result
# from the store; `python -m repro.experiments.liu2022_effective_theory --store book/_results` recomputes it with the same code.
#
# **Which validation samples test generalization.** With ordered pairs, the mirror $(j, i)$ of a training
# pair $(i, j)$ lands in the validation set, and a decoder that reads $E_i + E_j$ answers it exactly as it
# answers $(i, j)$. Of the {eval}`glued.fig2_n_val` validation samples of the addition split,
# {eval}`glued.fig2_n_mirror` are such mirrors; only the other {eval}`glued.fig2_n_unseen` test
# generalization. We report the official validation accuracy and the accuracy on these *unseen* samples
# (for modular addition, with unordered pairs, the two are the same).

# %% tags=["hide-input"]
fig2_cfgs = {op: Fig2Config(operation=op) for op in ("addition", "modular_addition")}
for c in fig2_cfgs.values():
    print(fig2_setup_table(c))

# %%
fig2 = readout.load_fig2(fig2_cfgs)

# %% [markdown]
# Per seed, the final accuracies on the training set, the official validation split and its unseen
# samples, and the structure of the final embeddings: for addition the RQI over the
# {eval}`glued.fig2_n_p0` parallelograms of the unordered $p = 11$ table (eq. 3), for modular addition how round the embeddings are around
# their centroid (circularity, $1 - \mathrm{std}(r)/\mathrm{mean}(r)$) and how well their angles follow a
# cyclic order $2\pi k s/p$ (fit 1: exactly). The stored arrays are the same on every machine, so these
# numbers are printed at two decimals.
#
# ```{figure} _figures/liu2022_effective_theory/fig_fig2.png
# :name: fig-liu-fig2
#
# **Liu et al. 2022, Fig. 2 at the official setting (ours, stored, $2\cdot10^4$ steps).** Each panel: the
# final embeddings (black, labelled), the midpoints $(E_i + E_j)/2$ of the training samples (blue) and
# of the unseen validation samples (red crosses), and the decoder's class at every point of the plane
# (colour; a sample is answered with the colour under its midpoint). **(a)** The addition seed with the
# fewest parallelograms; **(b)** the one with the most; **(c)** the modular seed with the lowest validation
# accuracy; **(d)** the one with the highest. Seeds, accuracies and structure measures are in the titles.
# ```
#
# ```{figure} _figures/liu2022_effective_theory/fig_fig2_curves.png
# :name: fig-liu-fig2-curves
#
# Training accuracy (blue) and accuracy on the unseen validation samples (red) of every seed against step.
# ```

# %%
if fig2.stored:
    glue("fig_fig2", plot_fig2(readout.fig2_panels(fig2)), display=False)
    glue("fig_fig2_curves", plot_fig2_curves(fig2.add_run, fig2.mod_run), display=False)
else:
    for key in ("fig_fig2", "fig_fig2_curves"):
        glue(key, "not stored", display=False)
readout.report_fig2_structure(fig2)

# %% [markdown]
# **What we find.** At the official setting, {eval}`glued.fig2_add_memo` of the
# addition seeds and {eval}`glued.fig2_mod_memo` of the modular ones end in the memorization phase of
# Table 1 (training accuracy $\ge 0.9$, validation accuracy below it), the phase of Fig. 2(a) and (c). Parallelograms do form in places: {eval}`glued.fig2_add_parallelogram_seeds`
# of the addition seeds reach RQI $\ge 0.5$ (the best, seed {eval}`glued.fig2_add_rqi_seed`, RQI
# {eval}`glued.fig2_best_add_rqi`), yet that seed answers {eval}`glued.fig2_add_rqi_unseen` of the unseen
# samples. The modular embeddings lie roughly on a ring, in a cyclic order only in the best seeds, and the
# decoders' class maps are only partly angular sectors: on rays from the centroid (0.2 to 1 times
# the embeddings' mean radius), {eval}`glued.fig2_purity_d` of the points share their ray's majority class
# for panel (d) and {eval}`glued.fig2_purity_c` for panel (c), where pure "pizza slices" would give 1. Far
# from the origin any ReLU decoder's map is made of sectors (the network is piecewise linear, and its
# biases stop mattering), so sectors at large radius say nothing about generalization. The official
# notebook picked its seed ("0 is a great seed"). Our seed 0 is drawn as the notebook draws it (embeddings
# first, then the decoder's layers; a unit test replays the notebook's training cell with it step by
# step), so its row above is the notebook's run as far as the code can tell.

# %% [markdown]
# ## Appendix H: the permutation group $S_3$ (Figs 17 and 18)
#
# **The claim** (App. H). The story is not special to addition. For a non-abelian group, give each
# element a learnable *matrix* $E_a$ and feed the product $E_a E_b$ to the decoder. A faithful matrix
# representation of the group then generalizes by construction, and a "generalised parallelogram" is a
# pair of samples with $E_a E_b \approx E_c E_d$ (three of them are needed to deduce a new one, against
# two for addition). For $S_3$ (6 elements, 36 ordered samples, 3×3 matrices), the paper reports:
# (a) the RQI of the best of 11 seeds rises to 1 with the training fraction; (b) the steps to
# RQI $> 0.95$ show a transition at $r_c \approx 0.5$; (e) $\widehat{\mathrm{Acc}} \le \mathrm{Acc}$, so the
# network generalizes beyond what the parallelograms explain; and Fig. 17, the six matrices on their
# first and third principal components, form a hexagon.
#
# **Setup** (official notebook `toy/Figure5d_permutation.ipynb`). Matrices start in
# $U[-0.05, 0.05]$ and train with AdamW (lr $10^{-3}$, no decay) and an extra loss
# $10^{-3}\cdot\mathrm{mean}|E|$. The decoder is tanh 9-200-200-30 with AdamW (lr $10^{-4}$, no decay). The
# loss is MSE on random 30-d templates, and the RQI is computed on matrices normalised by their RMS,
# with tolerance 0.5. Each seed draws its own split and initialization. The paper does not give its
# fractions or its decoder settings for Fig. 18. We use 5 fractions × 8 seeds and 3000 steps at book
# scale, with the matrices' learning rate ×3 ($3\cdot10^{-3}$). The paper scale (`REPRO_SCALE=paper`) uses
# 10 fractions × 11 seeds and $10^4$ steps at the official notebook's rates for the matrices, with our
# decoder rate. All runs train in one batched call. The setup table lists every setting beside the
# paper's and the official notebook's, and what they leave open.

# %% tags=["hide-input"]
s3cfg = S3Config.for_scale()
s3_setup_table("Fig. 18 (App. H): the paper and the official notebook against ours", s3cfg)

# %%
s3 = run_s3_sweep(s3cfg)
glue("fig_s3", plot_s3(s3), display=False)
readout_s3.report_s3_counts(s3)

# %% [markdown]
# ```{figure} _figures/liu2022_effective_theory/fig_s3.png
# :name: fig-liu-s3
#
# **Liu et al. 2022, App. H, Figs 17–18 (ours, book scale).** $S_3$ at book scale. **(a)** Final RQI of each seed (red) and the best seed (blue) against the
# training fraction (dotted: 0.95). **(b)** Steps to RQI $> 0.95$ (crosses: never within the budget),
# with the fastest seed in blue. **(e)** The network's accuracy on all 36 samples against the accuracy
# predicted from its matrices, coloured by training fraction; every point lies on or above the
# diagonal. **Right:** Fig. 17, the six matrices of the best run on PC1 and PC3.
# ```

# %% [markdown]
# **What we find.** The generalized parallelograms form once enough data is seen. Acc-hat stays a
# lower bound of Acc, as the paper says. But the transition sits higher than the paper's: the smallest
# fraction at which some seed reaches RQI $> 0.95$ is {eval}`glued.s3_rc`, not 0.5.
#
# The hexagon is real but fragile: only {eval}`glued.s3_hexagons` of the {eval}`glued.s3_solved` runs that
# reach RQI $> 0.95$ show it on PC1–PC3. The reason is Schur's orthogonality relations. For matrices that
# are exactly a faithful orthogonal representation of $S_3$ (the 3-d permutation representation is the
# trivial plus the 2-d standard one), the six centred, flattened matrices have the same variance in all
# four directions of the standard block. PCA then has no preferred plane. Our solved runs come close: a
# median of {eval}`glued.s3_top4` of the variance lies in the top four components, the first of them
# carrying only about {eval}`glued.s3_pc1` of it. Which plane carries PC1 and PC3, and so whether the six
# points look like a hexagon there, is decided by small deviations from an exact representation.

# %% [markdown]
# ### At the paper scale (stored)
#
# The paper-scale sweep has 10 fractions × 11 seeds × $10^4$ steps (the paper's seed count; fractions and
# steps are ours) at the official notebook's rates and our decoder rate, about
# $10^6$ run-steps. That is minutes on a CPU, so it does not run with the book. The command
# `python -m repro.experiments.liu2022_effective_theory_s3 --store book/_results` runs it with the same code and stores the result with
# its provenance. The chapter reads it from the store, which refuses an entry whose config or content
# does not match. The setup table lists what the paper leaves open and what we chose.

# %%
s3_paper = readout_s3.report_s3_paper()

# %% [markdown]
# At the paper scale the transition is at {eval}`glued.s3_paper_rc`, the same as at book scale and outside our
# tolerance around 0.5 (one step of the grid, 3/36). So more seeds, the official matrix rate and a $10^4$-step
# budget do not close the gap: **the critical fraction of Fig. 18 is not reproduced** (see Deviations). The other
# findings of Fig. 18 hold at this scale: the best seed's RQI reaches 1, and Acc-hat stays below Acc. The solved
# runs carry their variance in four comparable components, and only {eval}`glued.s3_paper_hexagons` of the
# {eval}`glued.s3_paper_solved` solved runs form a hexagon on PC1–PC3.

# %% [markdown]
# ### Fig. 18 from the notebook's own starts, over four sets of seeds
#
# The stored sweep above draws its splits and initializations from our own random streams, and one set of
# 11 seeds gives one number for $r_c$. Since a single lucky seed decides $r_c$, we also ran Fig. 18 the way
# the official notebook draws each run: for seed $s$, `np.random.seed(s)` draws the templates and the split,
# and `torch.manual_seed(s)` draws the (unused) encoder, the decoder and the matrices, in that order. Run
# (fraction, seed $s$) then starts exactly where the notebook's run of seed $s$ with that many training
# samples starts (tested bit for bit against the Fig. 6(d) official start). We ran seeds 0–43 as four
# paper-sized sets of 11 and read $r_c$ in each set.

# %%
s3_official = readout_s3.report_s3_official()

# %% [markdown]
# From the notebook's own starts, the four sets of 11 seeds put the transition at {eval}`glued.s3_official_sets`:
# median {eval}`glued.s3_official_median`, range {eval}`glued.s3_official_range`. So $r_c$ depends on which 11 seeds
# are drawn by more than one step of the grid, and the stored sweep's value in our own random order lies inside
# that spread. The median is within one step of the paper's 0.5, exactly at the edge of the registered tolerance;
# it is a reproduction, but a fragile one (margin 0), because $r_c$ lives on a grid of 3/36. The spread is the
# finding: one paper-sized set of seeds cannot pin $r_c$ to better than about two grid steps. The other panels
# hold here too: the best seed reaches RQI 1 at the largest fraction.

# %% [markdown]
# ## Paper versus ours
#
# Fig. 2(b) and 2(c, d) are judged on the stored runs at the official 2-D setting as our trainer runs it (three
# details differ, see the setup tables), Fig. 2(a) on the toy decoder's 2-D twin. Fig. 18 is judged on the two
# stored paper-scale sweeps, in our random order and from the notebook's starts; Fig. 17 on the book scale and the
# first stored sweep (a hexagon at book scale, none among the stored runs).

# %% [markdown]
# In all, this chapter's paper claims: {eval}`glued.ledger_tally`. The claim tables behind these verdicts,
# with every test, are in the Evidence section at the end.
#
# ### Deviations and what they mean
#
# - **Normalisation of the effective loss.** Eq. (5) divides $\ell_0$ by $|P_0(D)|$. With that factor
#   the predicted time scale is $|P_0(D)|$ = {eval}`glued.p0d_count` times longer than the network's. We
#   drop it, as the official integrator does, and use $n_h = p/(2\lambda_3\eta)$: the normalised
#   embeddings have $Z_0 = p$, and $\partial^2\ell_0 = 2A_D^\top A_D$.
# - **Which parallelograms drive the theory, and "about $3 n_h$".** The official integrator
#   (`toy/train_add.py`) sums $\ell_0$ over *all* 70 parallelograms, not over the training set's, which
#   makes the theory blind to the data; eq. (5) as printed sums over $P_0(D)$, and we plot that variant in
#   Fig. 4(c). Timed each in its own $n_h$ (the training set's, {eval}`glued.n_h` steps, for eq. (5) and the
#   network; the full table's, {eval}`glued.n_h_full` steps, for the official integrator), the medians over
#   {eval}`glued.n_starts` starts are "about 3". From the paper's own start (seed 58) both integrators need
#   about twice that ({eval}`glued.eff_ref_ratio` and {eval}`glued.eff_all_ref_own`); the official
#   integrator's crossing is "about 3" ({eval}`glued.eff_all_ref_train`) only when it is counted in the
#   training set's $n_h$, a unit that does not set its dynamics. Because every non-trivial mode decays at
#   least as fast as $e^{-t/n_h}$, the count of $n_h$ grows with the start's weight in the slowest modes and
#   with the RQI tolerance: "about 3" describes typical random starts, not the theory alone (10–90 % of the
#   starts: {eval}`glued.eff_train_range` for eq. (5)). An earlier version of this chapter blamed the paper's
#   start's slowness on the integrator's $Z_0$: freezing $Z_0$ moves the crossing from step
#   {eval}`glued.eff_current_step` to {eval}`glued.eff_frozen_step` only, so $Z_0$ is not the cause.
#   `effective_trajectories(rows="all")` gives the official variant.
# - **RQI tolerance.** Like the official code, a parallelogram counts when the mean squared
#   deviation of the normalised embeddings is below 0.01 (the paper writes $|\cdot| \le \delta$,
#   $\delta = 0.01$).
# - **Fig. 2 at the official setting.** The stored runs use every value of the official notebooks,
#   including the `randn + 1` init, the decoder input $(E_i + E_j)/2$ (addition) and the missing ReLU
#   between the decoder's second and third linear layers, but for the init seeds: 8 of them, where the
#   notebooks train seed 0, "a great seed". The modular runs use the addition run's hyperparameters (the
#   generalizing modular run's are not published). Not tried: other decoder rates or weight decays, and more
#   than {eval}`glued.fig2_n_seeds` seeds. The official
#   addition split is over ordered pairs: {eval}`glued.fig2_n_mirror` of its {eval}`glued.fig2_n_val`
#   validation samples are mirrors of training pairs, which a decoder of $E_i + E_j$ answers for free; we
#   report the accuracy on the other {eval}`glued.fig2_n_unseen` as well.
# - **Fig. 2(a) with the toy decoder.** The 2-D twin of the reference run memorizes, as the official
#   `toy/train_add.py` run with `d_in = 2` does; it is Fig. 2(a) in kind, on the toy decoder.
# - **Book scale.** The reference run trains its full {eval}`glued.ref_steps` steps; the init-seed spread
#   of the network stops at {eval}`glued.spread_steps_budget` (every threshold step of its claims comes
#   earlier), and the effective theory runs {eval}`glued.eff_steps_budget` Euler steps from each start. The
#   paper scale (`REPRO_SCALE=paper`) runs the spread for 5000 steps with the same code; it was not run for
#   this edition (no GPU is needed, but nothing changes either). Fig. 2 at the official settings is stored
#   at the paper's $2\cdot10^4$ steps.
# - **Appendix H ($S_3$): the critical fraction depends on the seeds drawn.** The paper's transition is at
#   $r_c \approx 0.5$. In our own random order it is at {eval}`glued.s3_rc` at book scale and
#   {eval}`glued.s3_paper_rc` at the paper scale (11 seeds, $10^4$ steps and the official matrix rate, as
#   stored). From the notebook's own starts, four sets of 11 seeds give {eval}`glued.s3_official_sets`
#   (median {eval}`glued.s3_official_median`): the paper's value is one of them, and so is a value near ours.
#   Below the transition no seed finds the representation, and even above it only a minority of seeds do, so
#   $r_c$, the smallest fraction at which *some* seed succeeds, rests on one lucky seed. The paper gives
#   neither its fractions nor its decoder settings for Fig. 18. We use the decoder rate that comprehends
#   in the official Fig. 6(d) map (lr $10^{-4}$, no decay); a different decoder rate or weight decay may
#   move the transition, and we did not sweep them.
# - **Appendix H: the hexagon.** See the section above: four equal principal variances make the
#   PC1–PC3 plane a matter of chance, so the hexagon shows in some solved runs and not in others.

# %% [markdown]
# ## Evidence
#
# What follows is how each claim of this chapter is checked: the reference run against the official printout,
# the criteria, resolutions and tolerances of every figure's claims, the confirmation on fresh seeds, and the
# claim tables with every test. The verdicts in the summary at the top follow from these by the decision rules
# on the reproduction-status page.

# %% [markdown]
# ### The reference run against the official printout
#
# **A known answer.** The official code prints, for this exact run, training accuracy $\ge 90\%$ at
# step 1130, validation accuracy at 1530 and RQI $> 0.95$ at 800 (the official notebook
# `toy/Figure4cd.ipynb`; an independent replication, `Mabdel-03/9.520-The-Geometry-of-Grok`, got the same). Our trainer follows the official random-number order, so
# it should land on the same steps. We allow $\pm 20$ steps: the official log records training
# accuracy one step later than ours, and float rounding on another CPU can move a threshold crossing
# by a few steps. This is a comparison of one trajectory, seed by seed, with the official code, so our
# steps are shown on a grid of 50 steps (the verdict uses the exact step): ours are
# {eval}`glued.train_step`, {eval}`glued.val_step` and {eval}`glued.rqi_step`.

# %% tags=["hide-input"]
readout.record_reference_steps(claims, ref)

# %% [markdown]
# ### Fig. 4(c, d): the timing claims
#
# The comparisons of the timing above: the medians over init seeds and over starts, and the paper's start, each
# against "about 3" ($3 \pm 50\,\%$), and the frozen-$Z_0$ check (bound 2 %).
#
# Ratios are shown at a resolution of 0.1 $n_h$. The effective theory is float64 numpy from initial
# embeddings drawn before any float32 arithmetic, so its numbers are the same on every CPU.

# %% tags=["hide-input"]
readout.record_fig4_timing(claims, fig4)

# %% [markdown]
# ### Fig. 2(a) with the toy decoder: the twin's setup and claims
#
# The 2-D twin's setup against the official 2-D run, the reference run's final numbers against the official
# printout, and the claims on the medians over the init seeds.

# %% tags=["hide-input"]
print(twin_2d_setup_table(cfg))
glue("fig_embeddings", plot_embedding_comparison(spread.comparison), display=False)
glue("fig_spread", plot_seed_spread(spread), display=False)
readout.record_final_embeddings(claims, spread, ref_cfg)

# %% [markdown]
# **Claims** (§3.1: generalization goes with parallelograms), each on the median over the init seeds.
# The generalization and memorization thresholds are the paper's (App. A, Table 1: validation accuracy
# above 90 %, as the official code counts it, $\ge 0.9$); these statements are one-sided in the paper
# itself.
#
# - The 1-D network generalizes (validation accuracy $\ge 0.9$) with RQI $> 0.95$, the paper's
#   threshold for the linear structure (Fig. 4b). These are the network trajectories of Fig. 4(d). Both
#   are thresholds the paper defines (form *threshold*); the reference run's own final validation accuracy
#   and RQI (above) are compared with the official printout's numbers.
# - The 2-D one memorizes (Fig. 2a): validation accuracy stays below 0.9, i.e. at most 0.8 with ten
#   validation samples: Table 1's definition of not generalizing, so a *threshold* claim. It forms few
#   parallelograms: RQI $\le 0.5$ is a bound of this book (the
#   paper shows a picture, the official 2-D run has RQI 0.4 after 5000 steps, ours stop at the spread's
#   budget), so it is a check.
#
# Validation accuracy comes in steps of 0.1 (ten validation samples) and is shown at that step; RQI is
# shown at 0.05, well inside the distance of the medians from their bounds.

# %% tags=["hide-input"]
readout.record_seed_medians(claims, spread)

# %% [markdown]
# ### Confirmation on fresh seeds (stored)
#
# The comparisons above were trained live, and their seeds ran before the registry existed, so they are
# exploratory: they never decide a paper claim. The final-RQI comparison is registered once more, unchanged, for a
# stored run of the same book-scale spread from nine init seeds that no run had used (1000–1008;
# `confirmation_config`), committed before that run and sealed when it started. `python -m
# repro.experiments.liu2022_effective_theory --store book/_results --run confirm` reproduces it (the 1-D batched
# call only, seconds on one core). The reference run's comparisons (threshold steps, final accuracy and RQI) are
# not copied: they compare seed 58's trajectory with the official printout of seed 58, which a fresh seed does not
# test, and a stored run of one seed measures no spread.

# %% tags=["hide-input"]
readout.record_confirmation(claims)

# %% [markdown]
# ### Fig. 2 at the official 2-D settings: the claims
#
# **Claims**, on the best of the {eval}`glued.fig2_n_seeds` seeds, since the paper shows one hand-picked
# run. Generalization is validation accuracy $\ge 0.9$ (App. A, Table 1, as the official code counts it).
#
# These four claims were registered as reproductions before the official-setting runs started; the ledger
# shows which of them the runs contradict (a deviation whose criterion was fixed before its run).
#
# 1. Addition generalizes (Fig. 2b): best validation accuracy {eval}`glued.fig2_best_add_val` (median
#    {eval}`glued.fig2_add_val_median`), and on the unseen samples {eval}`glued.fig2_best_add_unseen`.
# 2. Modular addition generalizes (Fig. 2d): best validation accuracy {eval}`glued.fig2_best_mod_val`
#    (median {eval}`glued.fig2_mod_val_median`).
# 3. Its embeddings form an ordered circle (Fig. 2c, d): we call a representation one when the angular fit
#    of a cyclic order is at least 0.95 (symbols within about half a slot of $2\pi k s/p$), a threshold we
#    chose after seeing earlier runs of a variant of this setting (randn init, input $E_i + E_j$, a ReLU
#    after both hidden layers) and registered before these. The best fit is {eval}`glued.fig2_best_mod_fit`
#    (best circularity {eval}`glued.fig2_best_mod_circ`).

# %% tags=["hide-input"]
readout.record_fig2(claims, fig2)

# %% [markdown]
# ### Appendix H: the claims
#
# #### Book scale
#
# **Claims.**
# 1. At the largest fraction the best seed reaches RQI $1.0 \pm 0.05$ (Fig. 18a: the best RQI rises to
#    1; a reproduction of form *selection*, since it takes the best seed).
# 2. The transition of Fig. 18(b), the smallest fraction at which some seed reaches RQI $> 0.95$, is at
#    $r_c \approx 0.5$. We would call it reproduced within one step of the paper-scale fraction grid,
#    $\pm 3/36$, a tolerance this chapter set before the paper-scale sweep was run (the registry did not
#    exist then, so nothing seals it, and the claim on the stored sweep is marked †). It is not (a
#    deviation).
# 3. $\widehat{\mathrm{Acc}} \le \mathrm{Acc}$ for every run, within one sample (1/36) (Fig. 18e; the
#    paper's statement is itself one-sided; reproduction).
# 4. Fig. 17 shows a hexagon on PC1–PC3. For Fig. 17 we count the solved runs (final RQI $> 0.95$)
#    whose six matrices form a hexagon there. Our test for a hexagon: every angular gap around the centre
#    within 15° of 60°, and the nearest point at least 0.75 of the farthest one's distance (tolerances of
#    ours; the paper only shows the picture). Some solved run shows it (a reproduction of form
#    *selection*: the paper shows one run, and we pick any run that shows it).
# 5. Our addition, for Fig. 17: the solved runs' six matrices lie in four dimensions, with at least 95 %
#    of their variance in the top four principal components (median over the solved runs). Schur's
#    orthogonality relations predict this for a faithful representation (see the Appendix H section above),
#    so this is a check against our derivation.
#
# The $S_3$ runs are computed live, in float64: their numbers are this machine's, and the claims below
# are the test.

# %% tags=["hide-input"]
s3_book = readout_s3.record_s3_book(claims, s3)

# %% [markdown]
# #### At the paper scale (stored)
#
# We compare the stored sweep's transition with the paper's $r_c \approx 0.5$; before running it we set the
# tolerance at one step of the fraction grid (3/36), but the sweep predates sealed claims, so every claim on
# it is marked † (set after its result). The paper draws Fig. 17 from one run; we count how many of the
# stored solved runs form the hexagon, and would call it reproduced if at least three quarters did (a band
# set after the book-scale runs had been seen).

# %% tags=["hide-input"]
readout_s3.record_s3_paper(claims, s3_paper)  # the spreads resample the stored sweep's seeds

# %% [markdown]
# #### From the notebook's own starts
#
# **Claims, registered before this run** (the ledger marks a claim † if it was not):
# 1. The median of the four sets' $r_c$ is within one grid step ($\pm 3/36$) of the paper's 0.5
#    (reproduction).
# 2. The four sets' $r_c$ lie within one grid step of each other (a bound of ours: if $r_c$ belongs to
#    the setup rather than to the seeds drawn, paper-sized sets agree that closely).
# 3. The best seed's RQI at the largest fraction is $1.0 \pm 0.05$ (reproduction of form *selection*).

# %% tags=["hide-input"]
readout_s3.record_s3_official(claims, s3_official)  # the range's spread resamples seeds within each set

# %% [markdown]
# ### The claim tables
#
# The paper's claims, numbered and quoted, each with one verdict that follows from its tests by the book's
# decision rules (registered once, stated under the table). The figure rows below the claims are the
# evidence: each names the paper claims its comparisons bear on.

# %% tags=["hide-input", "hide-output"]
readout.record_fig2_rows(claims, spread, fig2)
readout.record_fig4_row(claims, fig4)
readout_s3.record_appendix_h_rows(claims, book=s3_book, paper=s3_paper, official=s3_official)
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

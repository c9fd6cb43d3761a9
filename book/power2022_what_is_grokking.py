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
# # What is grokking?
#
# **The claim** (Power et al. 2022, *Grokking: generalization beyond overfitting on small algorithmic
# datasets*, arXiv 2201.02177). Train a network on part of a binary-operation table, such as
# $(a + b) \bmod p$, and it fits the training pairs early: training accuracy reaches 100 %, while
# validation accuracy stays near chance. With weight decay and enough patience, validation accuracy
# later climbs to 100 % as well, long after the training set was fitted. Power et al. called this
# delayed generalization *grokking*. Liu et al. (2022, Fig. 1) then showed that the moment of
# generalization is the moment the token embeddings organize into a structured representation: for
# modular addition, an ordered circle.
#
# **What we reproduce here.** The phenomenon, live on two CPU cores in a few minutes. Modular
# addition, AdamW with weight decay, training and validation accuracy against step on a log axis,
# and the embeddings' first two principal components before and after grokking. We train 32 networks
# that differ only in their random initialization (seeds), all in one batched call, and check two
# claims from Power et al. and one from Liu et al. as statistics over the seeds.
#
# **What we leave out.** Power et al.'s sweeps over operations, training fractions and optimizers,
# and their transformer at book scale. A transformer needs hours of CPU time to grok mod 97. The
# book scale therefore uses a smaller model and p = 31. The paper scale (`REPRO_SCALE=paper`) is
# Power et al.'s transformer setting, with the same code; see the deviations at the end.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from myst_nb import glue

from repro.claims import ClaimBook
from repro.intro import IntroConfig, median_standard_error, plot_intro, run_intro
from repro.plotting import use_style
from repro.portable import approx
from repro.scale import current_scale

use_style()
claims = ClaimBook("power2022_what_is_grokking")

# %% [markdown]
# ## Configuration
#
# The defaults of `IntroConfig` are Power et al.'s values: a 2-layer transformer, width 128, AdamW
# with learning rate $10^{-3}$, weight decay 1, $\beta_2 = 0.98$, $p = 97$, half the table for
# training, and $10^5$ steps. At book scale, `IntroConfig.for_scale()` swaps in a network that groks
# on a CPU. It is the toy architecture of Liu et al. 2022: token embeddings (32-d) are summed and
# decoded by a one-hidden-layer ReLU MLP (128 units). It trains full batch with AdamW (learning
# rate $3\cdot 10^{-3}$, weight decay 1 on every weight) on 70 % of the unordered pairs of
# $\mathbb{Z}_{31}$. It trains `n_seeds` = 32 initializations at once.

# %%
cfg = IntroConfig.for_scale()
print(f"scale: {current_scale()}")
cfg

# %% [markdown]
# ## Sanity check: the task and chance level
#
# The table of $(a+b) \bmod 31$ over unordered pairs has $31 \cdot 32 / 2 = 496$ entries. An
# untrained network should be right about once in 31 guesses. The first point of the training run
# (step 0) must sit at chance, so we check that it is within $\pm 0.05$ of $1/31 \approx 0.03$.

# %%
data = cfg.task_data()
print(f"pairs: {data.n_samples}, training: {len(data.train_idx)}, validation: {len(data.val_idx)}")
assert data.n_samples == cfg.p * (cfg.p + 1) // 2

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
history = result.history
chance_ok = bool(np.all(abs(history["val_acc"][:, 0] - 1 / cfg.p) < 0.05))
print(f"validation accuracy at step 0 is at chance (1/{cfg.p} ± 0.05) for all {result.n_runs} seeds: {chance_ok}")
assert chance_ok

# %% [markdown]
# ## Figure: fitting first, generalizing much later
#
# ```{glue:figure} fig_grokking
# :name: fig-grokking
#
# **Left:** accuracy against optimization step (log axis), every seed faintly, the median over seeds
# thickly and the inter-quartile band shaded. Training accuracy (blue) reaches 99 % within the first
# {glue:text}`train_bound` steps in every seed, while validation accuracy (red) stays low. Validation
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
# ## Paper versus ours
#
# Each claim is checked by code and fails the chapter when it does not hold. Every claim is about
# the 32 seeds together: a median, or (at initialization, where no training has happened) the worst
# seed.
#
# 1. **Delayed generalization** (Power et al., Fig. 1). In the median seed, validation accuracy reaches
#    99 % at least ten times later than training accuracy does. In their Fig. 1 the gap is about
#    $10^3\times$ with $10^5$ steps at $p = 97$. Our small model groks far sooner, so we ask for the
#    issue's bound of 10. A seed that never fits or never generalizes counts as a delay of 0.
# 2. **Generalization is complete** (Power et al., Fig. 1). The median seed's final validation
#    accuracy is at least 99 %.
# 3. **Ordered structure after grokking** (Liu et al. 2022, Fig. 1, read off the plot). The angles
#    of the embeddings on PC1–PC2 follow $2\pi k s / p$ for some $k$; the fit
#    $|\langle e^{i(\theta_s - 2\pi k s/p)}\rangle_s|$ is 1 for a perfectly ordered circle. Random
#    points are not at 0: the best of the 30 possible $k$ scores about 0.45 by chance for 31 points. At
#    initialization the fit stays below 0.7 in every seed: no circle yet. After grokking we check that
#    the median seed's fit is **above 0.7**, beyond anything seen at initialization. This is weaker than
#    the clean circle (fit $\ge 0.9$) that Liu et al.'s figure shows and that an earlier, single-seed
#    version of this chapter claimed: over seeds, the median fit sits at 0.9 rather than clearly above it,
#    so that claim became a measured statement in the deviations.
#
# **Resolutions.** Each median is printed at a grid step of about three or more times its standard
# error over seeds (a bootstrap over the 32 seeds; the per-seed cell below prints them): the median
# delay at 10, the median accuracy at 0.05 and the median circle fit at 0.3 (the fits are bimodal, clean
# circles near 1 and mixed ones near 0.6, so their median is uncertain by several hundredths). The median
# step to 99 % validation is uncertain by a few hundred steps and sits near a round number, so it is
# given only in the per-seed cell. The fit at initialization does not depend on training and is shown
# at 0.01.

# %%
stats = result.summary(circle_bound=0.9)
claims.check("grokking delay, median over seeds: steps to 99% val / steps to 99% train", stats.median_delay, 10,
             comparison=">=", resolution=10,
             source="Power et al. 2022, Fig. 1 (delay ~10^3 at p=97); bound set by this chapter's issue")
claims.check("final validation accuracy, median over seeds", stats.median_final_val_acc, 0.99, comparison=">=",
             resolution=0.05, source="Power et al. 2022, Fig. 1 (validation reaches ~100 %)")
claims.check("ordered-circle fit of PC1-PC2 embeddings after grokking, median over seeds", np.median(stats.fit_end),
             0.7, comparison=">=", resolution=0.3,
             source="Liu et al. 2022, Fig. 1 (ordered circle after generalization, read off the plot); "
                    "bound: above the largest fit at initialization")
claims.check("ordered-circle fit at initialization, largest over seeds", np.max(stats.fit_init), 0.7,
             comparison="<=", resolution=0.01,
             source="Liu et al. 2022, Fig. 1 (no structure at initialization, read off the plot)")
train_bound = 100 * int(np.ceil(np.max(np.where(stats.train_steps < 0, np.inf, stats.train_steps)) / 100))
glue("train_bound", f"{train_bound:,}", display=False)
glue("n_seeds", f"{stats.n}", display=False)
glue("delay", approx(stats.median_delay, 10), display=False)
glue("fit_end", approx(np.median(stats.fit_end), 0.3), display=False)
print(claims.table())

# %% [markdown]
# Over the {glue:text}`n_seeds` seeds, training accuracy crossed 99 % within {glue:text}`train_bound`
# steps in every seed, and validation accuracy reached 99 % a median ≈ {glue:text}`delay` times later. After training, the median seed's embeddings fit an ordered
# circle on PC1–PC2 with score ≈ {glue:text}`fit_end`.
#
# The table below lists every seed. Its numbers belong to one trajectory each, and the last bits of
# floating point move them (this cell is therefore not compared when the book is validated on another
# machine; the claims above check what matters in it: the medians).

# %% tags=["nbval-skip"]
print("seed  steps to 99 % train  steps to 99 % val  final val acc  circle fit (end)  circle fit (init)")
for seed, tr, va, acc, fe, fi in zip(cfg.seeds, stats.train_steps, stats.val_steps, stats.final_val_acc,
                                     stats.fit_end, stats.fit_init):
    print(f"{seed:4d}  {int(tr):19d}  {int(va) if va >= 0 else 'never':>17}  {acc:13.3f}  {fe:16.2f}  {fi:17.2f}")
print("bootstrap standard error of the median over seeds: "
      f"step to 99 % val {median_standard_error(stats.val_steps, never=-1):.0f}, "
      f"delay {median_standard_error(np.nan_to_num(stats.delays, nan=0.0)):.1f}, "
      f"circle fit {median_standard_error(stats.fit_end):.3f}, final val acc {median_standard_error(stats.final_val_acc):.4f}")
glue("n_circle", f"{stats.n_circle} of {stats.n}", display=False)
glue("fit_end_exact", f"{np.median(stats.fit_end):.3f}", display=False)
glue("val_step_exact", f"{stats.median_val_step:,.0f}", display=False)
glue("n_val_never", f"{int(np.sum(stats.val_steps < 0))}", display=False)

# %% [markdown]
# In this build, the median seed reached 99 % validation accuracy at step {glue:text}`val_step_exact`,
# {glue:text}`n_val_never` seeds did not reach it within the budget, and {glue:text}`n_circle` seeds end
# with a circle fit of at least 0.9.
#
# ## Deviations and what they mean
#
# - **Model and size.** We do not run Power et al.'s transformer at book scale. The embedding-sum
#   MLP groks in a few thousand steps on $p = 31$, which a CPU can afford, and it shows the same
#   phenomenon. The delay is shorter than Power et al.'s: their $10^5$-step budget and lower
#   learning rate stretch it to about $10^3\times$. The paper-scale config keeps their transformer
#   and settings. It was not run for this edition of the chapter, because no GPU was available.
# - **Unordered pairs.** A model that adds the two embeddings cannot tell $(a, b)$ from $(b, a)$.
#   Trained on ordered pairs, it answers the mirror image of every training pair correctly for
#   free: with half of the ordered table in training, about half of the validation pairs have their
#   mirror image in the training set, so validation accuracy would jump to about 50 % the moment
#   training fits, which would blur the delay. At book scale we therefore split the unordered pairs, so validation accuracy counts
#   only genuine generalization. This costs data: the unordered table has half as many entries, so
#   we train on 70 % of it rather than 50 %.
# - **The circle is one frequency among several, and PCA can mix them; a claim about every seed
#   would fail.** After grokking, this model spreads its embedding variance over several Fourier
#   frequencies, each a circle in its own plane, with nearly equal variance per component. When
#   PC1–PC2 pick out one frequency cleanly, the fit is close to 1; when two frequencies with
#   near-equal variance swap into the top two components, PCA mixes them and the fit drops well below
#   0.9, although each frequency is still a perfect circle in its own plane. Which of the two happens
#   in a given seed depends on floating-point details: the same seed can give a clean circle with one
#   CPU's vector kernels and a mixed one with another's (we saw this when validating the chapter on
#   AVX2, AVX-512 and scalar kernels). **Measured, instead of the claimed clean circle:** the median
#   seed's PC1–PC2 fit is ≈ {glue:text}`fit_end` at the resolution its spread over seeds allows
#   ({glue:text}`fit_end_exact` in this build), at the 0.9 that a clean circle on PC1–PC2 (Liu et al.,
#   Fig. 1) would need, not clearly above it: a claim of $\ge 0.9$ would pass or fail with the rounding of
#   the CPU's kernels. {glue:text}`n_circle` seeds reach 0.9 in this build. The claim above therefore
#   only asks for more order than at initialization. The best plane among the top four principal
#   components does not rescue the clean circle either (we tried it: its median fit also sat at 0.9),
#   because with near-equal variances PCA may rotate the frequencies' planes into each other. Liu et al.'s
#   transformer (Fig. 1) concentrates on fewer frequencies, which makes its circle more robust.
#
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

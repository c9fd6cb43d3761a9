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
# **What we reproduce here.** The phenomenon, live on two CPU cores in about a minute. Modular
# addition, AdamW with weight decay, training and validation accuracy against step on a log axis,
# and the embeddings' first two principal components before and after grokking. We check two
# claims from Power et al. and one from Liu et al.
#
# **What we leave out.** Power et al.'s sweeps over operations, training fractions and optimizers,
# and their transformer at book scale. A transformer needs hours of CPU time to grok mod 97. The
# book scale therefore uses a smaller model and p = 31. The paper scale (`REPRO_SCALE=paper`) is
# Power et al.'s transformer setting, with the same code; see the deviations at the end.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

from myst_nb import glue

from repro.claims import ClaimBook
from repro.intro import IntroConfig, plot_intro, run_intro
from repro.plotting import use_style
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
# $\mathbb{Z}_{31}$.

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
# One call trains the network and records its token embeddings at every evaluation step (every 10
# steps).

# %%
result = run_intro(cfg)
history = result.history
chance_ok = abs(history["val_acc"][0, 0] - 1 / cfg.p) < 0.05
print(f"validation accuracy at step 0 is at chance (1/{cfg.p} ± 0.05): {chance_ok}")
assert chance_ok

# %% [markdown]
# ## Figure: fitting first, generalizing much later
#
# ```{glue:figure} fig_grokking
# :name: fig-grokking
#
# **Left:** accuracy against optimization step (log axis). Training accuracy (blue) reaches 99 %
# within the first hundred steps, while validation accuracy (red) stays low. Validation then rises to
# 99 % more than an order of magnitude later; the dashed lines mark both crossings. **Right:** the 31
# token embeddings projected on their first two principal components, at initialization (a random
# cloud) and after training. After grokking, the tokens lie on a circle, ordered: symbol $s$ sits at an
# angle of about $2\pi k s/31$ for a fixed step $k$, the Fourier structure that modular addition needs.
# ```

# %%
fig = plot_intro(result)
glue("fig_grokking", fig, display=False)

# %% [markdown]
# ## Paper versus ours
#
# Each claim is checked by code and fails the chapter when it does not hold.
#
# 1. **Delayed generalization** (Power et al., Fig. 1). Validation accuracy reaches 99 % at least ten
#    times later than training accuracy does. In their Fig. 1 the gap is about $10^3\times$ with
#    $10^5$ steps at $p = 97$. Our small model groks far sooner, so we ask for the bound of 10.
# 2. **Generalization is complete** (Power et al., Fig. 1). Final validation accuracy is at least 99 %.
# 3. **An ordered circle after grokking** (Liu et al. 2022, Fig. 1, read off the plot). The angles
#    of the embeddings on PC1–PC2 follow $2\pi k s / p$ for some $k$, with fit
#    $|\langle e^{i(\theta_s - 2\pi k s/p)}\rangle_s| \ge 0.9$ (1 = perfectly ordered). At
#    initialization the same fit stays below 0.7: no circle yet. Random points are not at 0: the best
#    of the 30 possible $k$ scores about 0.45 by chance for 31 points, so 0.7 leaves a clear margin
#    from both ends.

# %%
final_step = int(history.steps[-1])
k_end, fit_end = result.circle(final_step)
k_init, fit_init = result.circle(0)
claims.check("grokking delay: steps to 99% val / steps to 99% train", result.delay, 10, comparison=">=",
             source="Power et al. 2022, Fig. 1 (delay ~10^3 at p=97); bound set by this chapter's issue")
claims.check("final validation accuracy", history["val_acc"][0, -1], 0.99, comparison=">=",
             source="Power et al. 2022, Fig. 1 (validation reaches ~100 %)")
claims.check("ordered-circle fit of PC1-PC2 embeddings after grokking", fit_end, 0.9, comparison=">=",
             source="Liu et al. 2022, Fig. 1 (ordered circle after generalization, read off the plot)")
claims.check("ordered-circle fit at initialization", fit_init, 0.7, comparison="<=",
             source="Liu et al. 2022, Fig. 1 (no structure at initialization, read off the plot)")
glue("train_step", f"{result.train_step:,}", display=False)
glue("val_step", f"{result.val_step:,}", display=False)
glue("delay", f"{result.delay:.0f}", display=False)
glue("fit_end", f"{fit_end:.2f}", display=False)
print(claims.table())

# %% [markdown]
# In this run, training accuracy crossed 99 % at step {glue:text}`train_step` and validation
# accuracy at step {glue:text}`val_step`, a delay of {glue:text}`delay`×. After training, the
# embeddings fit an ordered circle with score {glue:text}`fit_end`.
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
#   free. We measured about 46 % validation accuracy at the moment training fits, which would blur
#   the delay. At book scale we therefore split the unordered pairs, so validation accuracy counts
#   only genuine generalization. This costs data: the unordered table has half as many entries, so
#   we train on 70 % of it rather than 50 %.
# - **The circle is one frequency among several, and PCA can mix them.** After grokking, this
#   model spreads its embedding variance over several Fourier frequencies, each a circle in its own
#   plane, with nearly equal variance (about 7 % per component here). At the end of this run
#   (5,000 steps), PC1–PC2 pick out one frequency cleanly and the circle claim passes (fit
#   {glue:text}`fit_end`). The margin depends on floating-point details, though. With an earlier
#   version of our trainer (autograd's backward pass instead of the hand-written one, identical up
#   to float32 rounding), the same run scored 0.91 at 5,000 steps and 0.66 at 8,000 steps: two
#   frequencies with near-equal variance swapped into the top two components and PCA mixed them,
#   although each frequency was still a perfect circle in its own plane. With the current trainer
#   we measured 0.94 at both 5,000 and 8,000 steps. We report the run as configured rather than
#   tune the claim away.
#   Liu et al.'s transformer (Fig. 1) concentrates on fewer frequencies, which makes its circle more
#   robust.
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

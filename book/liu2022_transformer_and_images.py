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
# # Beyond the toy model: a transformer and an image classifier
#
# **The claims** (Liu et al. 2022, §4.2, Fig. 7 and App. J, Fig. 8).
#
# 1. A transformer trained on modular addition, with its embeddings learning faster than the rest
#    of the network (embedding lr $10^{-3}$ without weight decay; "decoder" lr $2\cdot10^{-4}$ with
#    weight decay 1), fits its training set, then generalizes, and its token embeddings end on a
#    circle (Fig. 1). The PCA explained-variance entropy of the embeddings, shown as the effective
#    dimension $e^S$, rises until generalization and then drops: a low-dimensional structure is
#    found (Fig. 7, left).
# 2. Grokking is not special to algorithmic data. An MLP on 1,000 MNIST images whose initial
#    weights are multiplied by $\alpha = 8$ fits the training set quickly and generalizes much later
#    (Fig. 8a). Over last-layer ("decoder") learning rate × weight decay, there is confusion at high
#    lr and high decay, comprehension next to it, grokking as decay and lr decrease, and memorization
#    at low decay (Fig. 8b).
#
# **What we reproduce at book scale.** Claim 1 with a small transformer (1 layer, width 48) on
# $p = 31$, five seeds, learning rates ×5 (the time compression of the previous chapter), 1,200 steps.
# Claim 2 on scikit-learn's bundled 8×8 digits, a **substitute dataset** (no download is possible
# at run time), with a 5 × 5 grid and 3,000 steps.
#
# **Seeds.** Training is chaotic: the last bits of float32 rounding, which differ between CPU kernel
# sets, move a single run's step counts and can flip a cell near a phase boundary. Every claim below is
# therefore checked seed by seed and must hold for the median seed (at least half of the seeds), and the
# numbers are shown at resolutions the seeds' spread justifies.
#
# **What we don't.** The transformer phase diagram of Fig. 7 (right; 285 runs of up to $10^5$ steps)
# and the dropout sweep (Fig. 7, centre) need a GPU. `REPRO_SCALE=paper` runs the paper's settings
# (p = 59, 256-d embeddings, 100 seeds, 20,000 steps; MNIST from `REPRO_MNIST_DIR`, $10^5$ steps, a 7 × 8
# grid) and `run_transformer_phase_diagram` runs the Fig. 7 (right) grid with the same code; none of
# it was run for this edition, because no GPU was available.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from myst_nb import glue

from repro.claims import ClaimBook
from repro.liu_transformer_images import (ImageGrokConfig, TransformerGrokConfig, fourier_variance_shares, plot_images,
                                          plot_transformer, run_image_phase_diagram, run_transformer)
from repro.portable import approx, seed_median
from repro.plotting import use_style
from repro.scale import current_scale

use_style()
claims = ClaimBook("liu2022_transformer_and_images")

# %% [markdown]
# ## Configuration
#
# `TransformerGrokConfig` defaults are the official Fig. 1 / Fig. 7 run: $p = 59$, 80 % of the
# $p^2$ ordered pairs for training, 256-d embeddings, two pre-LayerNorm blocks with one head and
# feed-forward width 128, AdamW with the two parameter groups above, 20,000 full-batch steps,
# embeddings logged every 20 steps. The book scale keeps the two groups and their ratio but
# shrinks the model and the vocabulary.

# %%
tcfg = TransformerGrokConfig.for_scale()
print(f"scale: {current_scale()}")
print(f"p = {tcfg.p}, train fraction {tcfg.train_fraction:g}, width {tcfg.d_model}, layers {tcfg.n_layers}, "
      f"heads {tcfg.n_heads}, MLP {tcfg.d_mlp}\nlr: embeddings {tcfg.lr_repr:g} (wd {tcfg.wd_repr:g}), "
      f"decoder {tcfg.lr_dec:g} (wd {tcfg.wd_dec:g}); {tcfg.steps:,} steps; seeds {tcfg.seeds}")

# %% [markdown]
# ## Sanity check: chance level
#
# At step 0 both accuracies must be near chance, $1/p$ (within ±0.05).

# %%
result = run_transformer(tcfg)
h = result.history
chance_ok = bool(np.all(np.abs(h["val_acc"][:, 0] - 1 / tcfg.p) < 0.05))
print(f"validation accuracy at step 0 is at chance (1/{tcfg.p} ± 0.05) for every seed: {chance_ok}")
assert chance_ok

# %% [markdown]
# ## Figure 7 (left) and the circle of Fig. 1
#
# ```{glue:figure} fig_transformer
# :name: fig-liu-transformer
#
# **Left:** training (blue) and validation (red) accuracy, log step axis. **Centre:** the effective dimension $e^S$ of the token embeddings' PCA (each token's
# embedding standardized first, as the official code does); dashed
# lines mark where each seed's training (blue) and validation (red) accuracy cross 99 %. Thick lines
# are medians over the five seeds, bands the middle half, thin lines single seeds. **Right:**
# the final embeddings of the first seed on their first two principal components, coloured and
# labelled by token.
# ```

# %%
fig = plot_transformer(result)
glue("fig_transformer", fig, display=False)

# %% [markdown]
# ## Transformer: paper versus ours
#
# Each claim is a statement about the median seed of the five. One of them generalizes only around
# the last steps, so whether its final validation accuracy is above 99 % depends on the CPU's rounding;
# the claims are built so that this seed cannot flip them.
#
# 1. **Generalization** (Fig. 1: 100 % validation accuracy). The median over seeds of the final
#    validation accuracy is at least 99 % (shown to 0.05).
# 2. **Delayed generalization** (Fig. 7, left: memorization and generalization steps are far apart).
#    Validation accuracy crosses 99 % at least 200 steps after training accuracy does (Table 1's
#    grokking gap of $10^3$ steps, divided by the time compression 5), in at least half of the seeds
#    that generalize; the table gives that fraction (to 0.2).
# 3. **The effective dimension drops once a structure is found** (Fig. 7, left, read off the plot:
#    "drops sharply"). The final $e^S$ is at most 0.9 of its maximum over training (a 10 % drop is
#    well outside the wiggle of $e^S$ before generalization; figure, centre), in at least half of the
#    seeds; the table gives the fraction of seeds (to 0.2).

# %%
mem = result.steps_to("train_acc")
gen = result.steps_to("val_acc")
ed = result.effective_dim
n_seeds = len(tcfg.seeds)
final_val = h["val_acc"][:, -1]
claims.check("transformer: final validation accuracy, median over seeds", float(np.median(final_val)), 0.99,
             comparison=">=", resolution=0.05, source="Liu et al. 2022 Fig. 1 / Fig. 7 (100 % validation accuracy)")
generalized = (mem >= 0) & (gen >= 0)
delay = gen[generalized] - mem[generalized]
claims.check("transformer: val 99% at least 200 steps after train 99%: fraction of generalizing seeds",
             float(np.mean(delay >= 200)) if delay.size else 0.0, 0.5, comparison=">=", resolution=0.2,
             source="Fig. 7 left; Table 1 grokking gap 10^3 steps / time compression 5")
ratio = ed[:, -1] / ed.max(axis=1)
claims.check("transformer: final e^S <= 0.9 max e^S: fraction of seeds", float(np.mean(ratio <= 0.9)), 0.5,
             comparison=">=", resolution=0.2, source="Fig. 7 left, read off the plot (e^S drops after generalization)")
glue("gen_median", approx(seed_median(gen), 500), display=False)
glue("ed_drop", approx(float(np.median(ratio)), 0.25), display=False)
glue("ed_start", approx(float(np.median(ed[:, 0])), 1), display=False)
print(claims.table())

# %% [markdown]
# Validation accuracy crossed 99 % at step {glue:text}`gen_median` (median of the five seeds, to 500
# steps), long after training accuracy (figure, left). The effective dimension ends at about
# {glue:text}`ed_drop` of its maximum (median, to 0.25).
#
# **Is there a circle?** The issue asks whether the embeddings form a circle, as in Fig. 1. We score
# the first two principal components with the ordered-circle test of the opening chapter (fit 1 =
# tokens at angles $2\pi k s/p$; random points score about 0.45 for 31 tokens), and, for the
# strongest Fourier frequency of each seed's embeddings, the same test in that frequency's plane:

# %%
fits = np.array([[result.circle_fit(run, 0)[1], result.circle_fit(run)[1], result.fourier_circle_fit(run)[1],
                  fourier_variance_shares(result.embeddings[run, -1], tcfg.p).max()] for run in range(n_seeds)])
print(f"PC1-PC2 circle fit >= 0.9, fraction of seeds: at step 0 {approx(np.mean(fits[:, 0] >= 0.9), 0.2)}, "
      f"after training {approx(np.mean(fits[:, 1] >= 0.9), 0.2)}")
print(f"after training, circle fit in the plane of the strongest frequency, median over seeds: "
      f"{approx(float(np.median(fits[:, 2])), 0.1)}")
print(f"after training, no single frequency carries more than 30 % of the variance, in every seed: "
      f"{bool(np.all(fits[:, 3] <= 0.3))}")

# %% [markdown]
# At book scale the answer is **no** on PC1–PC2: in most seeds the fit stays below the 0.9 that the
# opening chapter's embedding model reaches. The Fourier analysis shows why. Each frequency the network uses
# *is* a clean circle in its own Fourier plane, but no frequency dominates: the top frequencies carry
# comparable shares of the variance, so PC1 and PC2 mix several circles. We do not claim the circle on
# PC1–PC2; see the deviations.
#
# ## Figure 8: grokking on images with a large initialization
#
# `ImageGrokConfig` defaults are App. J's setting: the first 1,000 MNIST training images, a
# 784-200-200-10 ReLU MLP whose default initialization is multiplied by $\alpha = 8$ (every
# parameter), MSE against one-hot targets, AdamW with lr $10^{-3}$, batch 200, $10^5$ steps, a
# validation threshold of 60 %. Fig. 8(b) varies the last layer's learning rate and the weight
# decay of the whole model; its grid is not given in the paper, so the paper scale uses the spec's
# proposal. At book scale: the **substitute dataset** (scikit-learn's 8×8 digits: 1,000 training
# and 797 test images, 64 inputs), 3,000 steps, a 5 × 5 grid with weight decays up to 1 (the time
# a large-norm network needs to decay scales as $1/(\mathrm{lr}\cdot\mathrm{wd})$, Omnigrok), a
# comprehension gap of 300 steps. One initialization per cell (`ImageGrokConfig.n_seeds` trains more in
# the same batched call, but each seed of the grid costs about 2 CPU-minutes and the chapter's budget is
# 4 minutes), so the image claims are verdicts per seed: the table gives the fraction of seeds in which
# each holds.

# %%
icfg = ImageGrokConfig.for_scale()
images = run_image_phase_diagram(icfg)
print(f"{icfg.label}: alpha {icfg.alpha:g}, {icfg.n_train} training images, {icfg.steps:,} steps, batch {icfg.batch_size}")
print("last-layer lr:", ", ".join(f"{lr:.1e}" for lr in icfg.lr_dec_values))
print("weight decay: ", ", ".join(f"{w:g}" for w in icfg.wd_values))
print(f"init seeds {icfg.seeds}: {images.history['train_acc'].shape[0]} runs")

# %% [markdown]
# ```{glue:figure} fig_images
# :name: fig-liu-images
#
# **Left (a):** training (blue) and validation (red) accuracy of one cell of the grid (8×8 digits,
# a substitute dataset for MNIST); dotted lines at the 90 % and 60 % thresholds. **Right (b):** the
# phase of every cell (with several seeds: the majority, "k/S" where only k of S agree), last-layer
# learning rate
# on the x axis and weight decay of the whole model increasing downward (green comprehension, yellow
# grokking, purple memorization, black confusion). Look for grokking between memorization (less
# decay) and comprehension (more decay).
# ```

# %%
fig = plot_images(images)
glue("fig_images", fig, display=False)

# %% [markdown]
# ## Images: paper versus ours
#
# 1. **Grokking lies between memorization and comprehension** (App. J: "a 'comprehension' phase
#    bordering [confusion], a 'grokking' phase as one decreases weight decay and decoder learning
#    rate, and a 'memorization' phase at low weight decay"). At least one learning-rate column reads
#    comprehension → grokking → memorization as the weight decay decreases, in at least half of the
#    seeds' maps (the table gives the fraction of seeds, to 0.5).
# 2. **Without weight decay there is no generalization** (App. J: memorization at low weight decay).
#    None of the cells at weight decay 0 reaches 60 % validation accuracy, in any seed (fraction of
#    (seed, cell) pairs, to 0.05).
# 3. **Enough weight decay removes the delay** (App. J: "with sufficient regularization, we can again
#    'de-grok' learning"). Every cell at the largest weight decay generalizes (comprehension or
#    grokking), in every seed: fraction 1 (to 0.05).

# %%
wds = np.asarray(icfg.wd_values)
from repro.liu_phases import sandwich_columns

claims.check("images: a memorization -> grokking -> comprehension column as wd grows: fraction of seeds",
             float(np.mean([sandwich_columns(p, -wds) >= 1 for p in images.seed_phases])), 0.5, comparison=">=",
             resolution=0.5, source="Liu et al. 2022 App. J, Fig. 8b (phase layout described in the text)")
gen_any = images.cell_steps("val_acc", icfg.val_threshold)  # (seeds, wd, lr)
claims.check("images: fraction of wd = 0 cells reaching 60% validation accuracy (all seeds)",
             float((gen_any[:, wds == 0] >= 0).mean()), 0.0, comparison="<=", resolution=0.05,
             source="App. J, Fig. 8b (memorization at low weight decay)")
top = images.seed_phases[:, int(np.argmax(wds))]
claims.check("images: fraction of largest-wd cells that generalize (all seeds)",
             float(np.isin(top, ["comprehension", "grokking"]).mean()), 1.0, comparison=">=", resolution=0.05,
             source="App. J, Fig. 8b ('with sufficient regularization, we can again de-grok')")
print(claims.table())

# %% [markdown]
# ## Deviations and what they mean
#
# - **Transformer architecture.** The official model is PyTorch's `nn.TransformerEncoderLayer`
#   (pre-LayerNorm, no causal mask, no positional encoding) whose two output positions are
#   concatenated into a linear head (spec §4 Fig. 1, §7 #14), with dropout 0.05. We use the book's
#   shared transformer (`repro.models.Transformer`, TransformerLens layout): pre-LayerNorm, learned
#   positional embeddings (trained with the embeddings' learning rate), a causal mask, and the
#   logits read at the second position, which attends to both tokens. There is no dropout. The
#   shared trainer has no dropout and the shared model no concatenating head; both would be small
#   additions to `repro.models`.
# - **Transformer size.** At book scale: $p = 31$, width 48, one layer and both learning rates ×5,
#   for 1,200 steps, so that five seeds train in about a minute on a CPU. Generalization comes
#   several times later than memorization (figure, left).
# - **No circle in PC1–PC2 at book scale.** Our small transformer generalizes, and every frequency it
#   uses is a circle in its own Fourier plane. But it spreads its variance over several frequencies of
#   comparable weight instead of putting its tokens on one dominant circle, so the PC1–PC2 picture of
#   Fig. 1 is not reproduced here. We searched for a book-scale setting that concentrates the
#   spectrum: more steps, embedding weight decay 0.1–3, learning rates, width 24–128, two layers, and
#   p = 23. Within the time budget, the settings that concentrate it (embedding decay, longer training
#   at these learning rates) also make training unstable: validation accuracy collapses after
#   generalizing in some seeds. A circle then shows in some seeds and snapshots but not in others. The
#   stable settings keep a flat spectrum. A steadier optimizer does not change this. With AdamW
#   $\beta_2 = 0.98$ or 0.99 (`TransformerGrokConfig.beta2`; the paper uses torch's 0.999), the fast
#   runs still collapse. At halved learning rates they are stable, but no frequency dominates the
#   spectrum and only a minority of seeds reach a PC1–PC2 fit of 0.9 (exploratory runs, not repeated
#   here). Untested: the
#   paper's own architecture (a concatenating head, no positional embedding). The paper-scale config
#   (256-d, p = 59, 20,000 steps) is the one to test the claim; it needs a GPU.
# - **$e^S$ does not rise first.** Fig. 7 shows $e^S$ rising until generalization. Our randomly
#   initialized 48-d embeddings of 31 tokens start near the maximum possible dimension (about
#   {glue:text}`ed_start` of at most 30, the median at step 0), so there is little room to rise; we
#   see it flat until generalization, then falling (figure, centre). We check only the drop.
# - **Images: a substitute dataset and a short budget.** The 8×8 digits are easier and smaller than
#   MNIST, and 3,000 steps are 3 % of the paper's budget. At weight decay 0 the $\alpha = 8$ network
#   does not even reach 90 % training accuracy in time (confusion at small learning rates), whereas
#   the paper sees memorization there after $10^5$ steps. At the paper's lr $10^{-3}$ and wd 0.01
#   the delayed generalization needs far more than our 3,000 steps on digits (an exploratory longer
#   run, not repeated here, saw test accuracy still climbing after $10^4$ steps), so panel (a) shows
#   the grid's cell at last-layer lr $10^{-2.5}$, wd 0.1 instead. The paper's confusion at high
#   learning rate *and* high decay does not appear in our grid: there, every cell generalizes
#   (claim 3).

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
#    found (Fig. 7, left). Dropout in the decoder shortens the delay until it vanishes (Fig. 7,
#    centre), and over decoder lr × decoder weight decay some weight decay helps generalization
#    (Fig. 7, right).
# 2. Grokking is not special to algorithmic data. An MLP on 1,000 MNIST images whose initial
#    weights are multiplied by $\alpha = 8$ fits the training set quickly and generalizes much later
#    (Fig. 8a). Over last-layer ("decoder") learning rate × weight decay, there is confusion at high
#    lr and high decay, comprehension next to it, grokking as decay and lr decrease, and memorization
#    at low decay and low lr (Fig. 8b).
#
# **What we reproduce at book scale.** Fig. 7 (left) with a small transformer (1 layer, width 48) on
# $p = 31$, five seeds, learning rates ×5 (the time compression of the previous chapter), 2,000
# steps. Fig. 8 on scikit-learn's bundled 8×8 digits, a **substitute dataset** (no download is
# possible at run time), with a 5 × 5 grid and 3,000 steps.
#
# **Seeds.** Training is chaotic: the last bits of float32 rounding, which differ between CPU kernel
# sets, move a single run's step counts and can flip a cell near a phase boundary. Every transformer
# claim below is therefore a statement about the median seed of five (it must hold in at least half
# of the seeds), and the numbers are shown at resolutions the seeds' spread justifies. The image grid
# has one seed per cell, so its claims are that one map's verdicts.
#
# **What we don't.** The transformer phase diagram of Fig. 7 (right; 285 runs of up to $10^5$ steps)
# and the dropout sweep of Fig. 7 (centre) are not run: the first is GPU-scale, and the second needs
# dropout, which the book's transformer and trainer do not have. `REPRO_SCALE=paper` runs the paper's
# settings (p = 59, 256-d embeddings, 100 seeds, 20,000 steps; MNIST from `REPRO_MNIST_DIR`, $10^5$
# steps, a 7 × 8 grid) and `run_transformer_phase_diagram` runs the Fig. 7 (right) grid with the
# same code; none of it was run for this edition.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from myst_nb import glue

from repro.claims import ClaimBook
from repro.liu_phases import corner_fraction, sandwich_columns
from repro.liu_transformer_images import (ImageGrokConfig, TransformerGrokConfig, fourier_variance_shares, plot_image_curve,
                                          plot_images, plot_transformer, run_image_phase_diagram, run_transformer,
                                          stored_curve_config, stored_images)
from repro.portable import approx, seed_median
from repro.plotting import use_style
from repro.scale import current_scale
from repro.store import provenance_line, require_stored

use_style()
claims = ClaimBook("liu2022_transformer_and_images")


def holds_in_seeds(name: str, fraction: float, source: str, **kw):
    """A statement checked seed by seed: the paper's runs show it (reference 1); reproduced when it holds in at
    least half of our seeds (tolerance 0.5). Shown to 0.5, so one seed changing its verdict does not move it."""
    kind = kw.pop("kind", "reproduction")
    return claims.check(name, fraction, 1.0, kind=kind, comparison="abs", tolerance=0.5, resolution=0.5,
                        source=source, **kw)


# %% [markdown]
# ## Configuration
#
# `TransformerGrokConfig` defaults are the official Fig. 1 / Fig. 7 run (grokking-squared, prototype
# branch: the run configuration printed by `scripts/pizza_plot.py`, the sweep ranges of
# `phasegrok/definitions.py`): $p = 59$, 80 % of the $p^2$ ordered pairs for training, 256-d
# embeddings, two pre-LayerNorm blocks with one head and feed-forward width 128, AdamW with the two
# parameter groups above, 20,000 full-batch steps, embeddings logged every 20 steps. The book scale
# keeps the two groups and their ratio but shrinks the model and the vocabulary.

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
# **Left:** training (blue) and validation (red) accuracy, log step axis. **Centre:** the effective
# dimension $e^S$ of the token embeddings' PCA (each token's embedding standardized first, as the
# official code does); dashed lines mark where each seed's training (blue) and validation (red)
# accuracy cross 99 %. Thick lines are medians over the five seeds, bands the middle half, thin lines
# single seeds. **Right:** the final embeddings of the first seed on their first two principal
# components, coloured and labelled by token.
# ```

# %%
fig = plot_transformer(result)
glue("fig_transformer", fig, display=False)

# %% [markdown]
# ## Transformer: the claims of Fig. 7 (left)
#
# Each claim is a statement about the median seed of the five: ours is the fraction of the seeds in
# which it holds, the reference is 1 (the paper's runs show it), and the tolerance 0.5 asks that it hold
# in at least half of the seeds.
#
# 1. **Generalization** (Fig. 1 and Fig. 7, left: every run generalizes, to 100 % validation
#    accuracy). Validation accuracy reaches 99 % (the threshold of the official Fig. 7 code) within
#    the budget.
# 2. **Delayed generalization** (§4.2: "early on, the model is able to perfectly fit the training
#    set while having no generalization"; Fig. 7, left). Validation accuracy crosses 99 % at least
#    200 steps after training accuracy does (Table 1's grokking gap of $10^3$ steps, divided by the
#    time compression 5), in the seeds that generalize.
# 3. **The effective dimension drops once a structure is found** (§4.2: the entropy "decreases
#    drastically afterwards"; Fig. 7, left). The final $e^S$ is at most 0.9 of its maximum over
#    training (a 10 % drop is well outside the wiggle of $e^S$ before generalization; figure, centre).
# 4. **The effective dimension rises until generalization** (§4.2: "the entropy increases up to
#    generalization time"). This one does **not** reproduce and is recorded as a deviation: the
#    median seed's peak $e^S$ is within a few per cent of its value at step 0. We would call it
#    reproduced at a rise of at least 10 %, the size of the drop claim 3 asks for (a band chosen
#    after seeing the result).

# %%
mem = result.steps_to("train_acc")
gen = result.steps_to("val_acc")
ed = result.effective_dim
n_seeds = len(tcfg.seeds)
generalized = (mem >= 0) & (gen >= 0)
holds_in_seeds("transformer: validation accuracy reaches 99%: fraction of seeds", float(np.mean(gen >= 0)),
               "Fig. 1 (100 % validation accuracy) and Fig. 7 left (a generalization step in every run)")
delay = gen[generalized] - mem[generalized]
holds_in_seeds("transformer: val 99% at least 200 steps after train 99%: fraction of generalizing seeds",
               float(np.mean(delay >= 200)) if delay.size else 0.0,
               "§4.2 and Fig. 7 left (fit first, generalize later); Table 1 grokking gap 10^3 steps / time compression 5")
ratio = ed[:, -1] / ed.max(axis=1)
holds_in_seeds("transformer: final e^S <= 0.9 max e^S: fraction of seeds", float(np.mean(ratio <= 0.9)),
               "§4.2 and Fig. 7 left (the entropy decreases drastically after generalization)")
rise = ed.max(axis=1) / ed[:, 0]
claims.check("transformer: peak e^S over e^S at step 0, median over seeds", float(np.median(rise)), 1.1,
             kind="deviation", comparison=">=", resolution=0.1, set_after=True,
             source="§4.2 and Fig. 7 left (the entropy increases up to generalization time); band: a rise of 10 %",
             evidence="our randomly initialized 48-d embeddings of 31 tokens start near the largest e^S they can have "
                      "(at most 30), so e^S stays flat until generalization and then falls; the paper's 256-d embeddings "
                      "of 59 tokens (Fig. 7) were not run (paper scale); book scale: 1 layer, width 48, learning rates "
                      "x5, 2,000 steps, 5 seeds")
glue("gen_median", approx(seed_median(gen), 500), display=False)
glue("val_final", approx(float(np.median(h["val_acc"][:, -1])), 0.05), display=False)
glue("ed_drop", approx(float(np.median(ratio)), 0.2), display=False)
glue("ed_start", approx(float(np.median(ed[:, 0])), 1), display=False)

# %% [markdown]
# Validation accuracy crossed 99 % at step {glue:text}`gen_median` (median of the five seeds, to 500
# steps), long after training accuracy (figure, left). At learning rates ×5 the runs are not stable
# after generalizing: validation accuracy collapses and recovers (figure, left), so the last logged
# value of a seed depends on where a collapse falls; the median seed's last value is
# {glue:text}`val_final` (to 0.05). Claim 1 is therefore about reaching 99 %, not about the last
# step. The effective dimension ends at about {glue:text}`ed_drop` of its maximum (median, to 0.2).
#
# **Is there a circle?** Fig. 1 shows the embeddings on an ordered circle in their first two
# principal components after generalization. We score the first two principal components with the
# ordered-circle test of the opening chapter (fit 1 = tokens at angles $2\pi k s/p$; random points
# score about 0.45 for 31 tokens), and, for the strongest Fourier frequency of each seed's
# embeddings, the same test in that frequency's plane. A clean circle scores at least 0.9, as the
# opening chapter's embedding model does; Fig. 1's circle is such a one, so we would call it
# reproduced at a median fit within 0.1 of 1.

# %%
fits = np.array([[result.circle_fit(run, 0)[1], result.circle_fit(run)[1], result.fourier_circle_fit(run)[1],
                  fourier_variance_shares(result.embeddings[run, -1], tcfg.p).max()] for run in range(n_seeds)])
print(f"PC1-PC2 circle fit, median over seeds: at step 0 {approx(float(np.median(fits[:, 0])), 0.25)}, "
      f"after training {approx(float(np.median(fits[:, 1])), 0.25)}")
print(f"after training, circle fit in the plane of the strongest frequency, median over seeds, at least 0.75: "
      f"{bool(np.median(fits[:, 2]) >= 0.75)}")
print(f"after training, the largest share of the variance carried by one frequency, median over seeds: "
      f"{approx(float(np.median(fits[:, 3])), 0.1)}")
_ = claims.check("transformer: PC1-PC2 circle fit after training, median over seeds", float(np.median(fits[:, 1])), 1.0,
                 kind="deviation", comparison="abs", tolerance=0.1, resolution=0.25,
                 source="Fig. 1, read off the plot (tokens on an ordered circle in PC1-PC2 after generalization)",
                 evidence="each frequency our small transformer uses is a clean circle in its own Fourier plane, but "
                          "several frequencies carry comparable variance, so PC1-PC2 mixes circles; settings that "
                          "concentrate the spectrum at book scale (embedding weight decay, longer training) make "
                          "training collapse; the paper's architecture (concatenating head, no positions) at p = 59, "
                          "256-d, 2e4 steps was not run (paper scale)")

# %% [markdown]
# At book scale the answer is **no** on PC1–PC2: the median fit stays far below the 0.9 of a clean
# circle. The Fourier analysis shows why. The strongest frequency the network uses *is* close to a
# circle in its own Fourier plane (less clean in the seeds caught in a collapse at the last step), but
# no frequency dominates: the top frequencies carry comparable shares of the variance, so PC1 and PC2
# mix several circles. The opening chapter shows Fig. 1's circle for its
# embedding model; this deviation is listed among the claims below, outside the figure ledger.
#
# ## Figure 8: grokking on images with a large initialization
#
# `ImageGrokConfig` defaults are App. J's setting, with the values of the official notebook
# (KindXiaoming/Omnigrok, `mnist/grokking/mnist-grokking.ipynb`): the first 1,000 MNIST training
# images, a 784-200-200-10 ReLU MLP whose default initialization is multiplied by $\alpha = 8$
# (every parameter), MSE against one-hot targets, AdamW with lr $10^{-3}$ and weight decay 0.01,
# batch 200, $10^5$ steps, a validation threshold of 60 % (App. J). Fig. 8(b) varies the last
# layer's learning rate and the weight decay of the whole model; the paper does not give its grid,
# so the paper scale uses a grid around the notebook's setting (last-layer lr $10^{-5}\ldots10^{-2}$,
# weight decay 0 to 1). At book scale: the **substitute dataset** (scikit-learn's 8×8 digits: 1,000
# training and 797 test images, 64 inputs), 3,000 steps, a 5 × 5 grid with weight decays up to 1 (the
# time a large-norm network needs to decay scales as $1/(\mathrm{lr}\cdot\mathrm{wd})$, Omnigrok), a
# comprehension gap of 300 steps. One initialization per cell (`ImageGrokConfig.n_seeds` trains more
# in the same batched call, but each seed of the grid costs about 2 CPU-minutes and the chapter's
# budget is 4 minutes), so the image claims are verdicts on one map: the table gives the fraction
# of seeds (1 or 0) in which each holds.

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
# learning rate on the x axis and weight decay of the whole model increasing downward (green
# comprehension, yellow grokking, purple memorization, black confusion). The paper has grokking
# between memorization (less decay) and comprehension (more decay), memorization in the top left and
# confusion in the bottom right.
# ```

# %%
fig = plot_images(images)
glue("fig_images", fig, display=False)

# %% [markdown]
# ## Images: the claims of Fig. 8
#
# App. J describes Fig. 8(b) in words: "a 'confusion' phase in the bottom right (high learning rate
# and high weight decay), a 'comprehension' phase bordering it, a 'grokking' phase as one decreases
# weight decay and decoder learning rate, and a 'memorization' phase at low weight decay and low
# learning rate". Each statement is checked on each seed's map (reference 1, tolerance 0.5, as for
# the transformer). The corner blocks are those of the previous chapter: the highest or lowest third
# of the weight-decay rows (two rows) and the right or left half of the learning-rate columns.
#
# 1. **Grokking lies between memorization and comprehension.** At least one learning-rate column
#    reads comprehension → grokking → memorization as the weight decay decreases.
# 2. **Enough weight decay removes the delay** ("with sufficient regularization, we can again
#    'de-grok' learning"). At least half of the cells at the largest weight decay comprehend.
# 3. **Memorization at low weight decay and low learning rate.** At least half of the top-left block
#    memorizes. This does **not** reproduce (a deviation): at book scale the $\alpha = 8$ network
#    does not even fit its training set there.
# 4. **Confusion at high learning rate and high weight decay.** At least one cell in six of the
#    bottom-right block is confused. This does **not** reproduce (a deviation): every cell there
#    generalizes.
# 5. **Fig. 8(a): the training set is fitted long before the validation set.** Table 1 calls a run
#    grokking when validation accuracy reaches its threshold at least $10^3$ steps after training
#    accuracy does. In the cell the figure shows, the delay is far shorter (shown to 500 steps), and
#    the training set is not fitted quickly either: a deviation.

# %%
wds = np.asarray(icfg.wd_values)
top_wd = int(np.argmax(wds))
seed_maps = images.seed_phases  # (seeds, wd, lr)
holds_in_seeds("images: a memorization -> grokking -> comprehension column as wd grows: fraction of seeds",
               float(np.mean([sandwich_columns(p, -wds) >= 1 for p in seed_maps])),
               "App. J, Fig. 8b (grokking as one decreases weight decay from comprehension)")
holds_in_seeds("images: largest weight decay at least half comprehension: fraction of seeds",
               float(np.mean([(p[top_wd] == "comprehension").mean() >= 0.5 for p in seed_maps])),
               "App. J, Fig. 8b ('with sufficient regularization, we can again de-grok learning')")
budget = (f"substitute dataset (8x8 digits, 1,000 training images) and {icfg.steps:,} steps, 3 % of the paper's "
          "1e5; one seed per cell; MNIST at the paper's budget was not run")
holds_in_seeds("images: low-wd, low-lr block at least half memorization: fraction of seeds",
               float(np.mean([corner_fraction(p, wds, "memorization", "top_left") >= 0.5 for p in seed_maps])),
               "App. J, Fig. 8b (memorization at low weight decay and low learning rate)", kind="deviation",
               evidence="at weight decay <= 0.03 and last-layer lr <= 1e-3 the alpha = 8 network does not reach 90 % "
                        "training accuracy within the budget (confusion), where the paper's 1e5 steps fit it; "
                        + budget)
holds_in_seeds("images: high-wd, high-lr block at least 1/6 confusion: fraction of seeds",
               float(np.mean([corner_fraction(p, wds, "confusion", "bottom_right") >= 1 / 6 - 1e-9 for p in seed_maps])),
               "App. J, Fig. 8b (confusion in the bottom right: high learning rate and high weight decay)",
               kind="deviation",
               evidence="every cell at weight decay >= 0.3 and last-layer lr >= 1e-3 generalizes (comprehension); our "
                        "largest weight decay is 1 and the paper's grid is not given, so its confusion may lie beyond "
                        "our grid; " + budget)
runs = images.curve_runs()
fit_step = images.history.first_step("train_acc", icfg.train_threshold)[runs]
val_step = images.history.first_step("val_acc", icfg.val_threshold)[runs]
gap = np.where((fit_step >= 0) & (val_step >= 0), val_step - fit_step, -1)  # -1: no delay to speak of
_ = claims.check("images: Fig. 8a cell, val 60% step minus train 90% step, median over seeds", float(np.median(gap)),
                 1000.0,
                 kind="deviation", comparison=">=", resolution=500,
                 source="App. J and Fig. 8a (train fits fast, validation improves much later); Table 1 grokking gap "
                        "10^3 steps",
                 evidence=f"the cell shown (last-layer lr {icfg.curve_lr_dec:.1e}, wd {icfg.curve_wd:g}) fits its training "
                          "set slowly and generalizes right after; at the paper's lr 1e-3 and wd 0.01 the digits need "
                          "far more than 3,000 steps (an exploratory longer run, not repeated here, saw test accuracy "
                          "still climbing after 1e4 steps), so the book cannot show that cell; " + budget)

# %% [markdown]
# ### Fig. 8(a) at the paper's rates (stored)
#
# The live cell runs at raised rates because the paper's do not fit in 3,000 steps. The stored run
# `stored_curve_config()` trains the paper's cell itself on the same substitute digits: last-layer learning
# rate $10^{-3}$ and weight decay 0.01 (the official notebook's), $\alpha = 8$, batch 200, five
# initializations, 50,000 steps, half the paper's budget ({glue:text}`img_minutes` minutes on one core;
# `python -m repro.liu_transformer_images --store book/_results` recomputes it). The criterion is the one above,
# fixed before this run: Table 1's grokking gap of $10^3$ steps between 90 % training and 60 % validation
# accuracy (App. J's threshold).

# %%
img_cfg = stored_curve_config()
simg, img_manifest = require_stored(stored_images(img_cfg, "_results"), "Fig. 8(a) run",
                                    "python -m repro.liu_transformer_images --store book/_results",
                                    "a few minutes on one core")
print(provenance_line(img_manifest))
glue("img_minutes", f"{img_manifest['wall_time_s'] / 60:.0f}", display=False)
s_runs = simg.curve_runs()
s_fit = simg.history.first_step("train_acc", img_cfg.train_threshold)[s_runs]
s_val = simg.history.first_step("val_acc", img_cfg.val_threshold)[s_runs]
s_gap = np.where((s_fit >= 0) & (s_val >= 0), s_val - s_fit, -1)
s_final = simg.history["val_acc"][s_runs, -1]
# A stored run is loaded, not recomputed: the same numbers on every machine.
print(f"{img_cfg.label}, last-layer lr {img_cfg.curve_lr_dec:g}, wd {img_cfg.curve_wd:g}, {img_cfg.n_seeds} seeds, "
      f"{img_cfg.steps:,} steps: train 90 % at steps {', '.join(str(int(x)) for x in s_fit)}; validation 60 % at "
      f"{', '.join(str(int(x)) for x in s_val)}; final validation accuracy {', '.join(f'{x:.2f}' for x in s_final)}")
print(f"phase by Table 1's rule, per seed: {', '.join(simg.seed_phases.ravel())}")
for key, val in {"img_fit": np.median(s_fit), "img_val": np.median(s_val), "img_gap": np.median(s_gap)}.items():
    glue(key, f"{int(val):,}", display=False)
glue("img_final", f"{np.median(s_final):.2f}", display=False)
fig_img_stored = plot_image_curve(simg)
glue("fig_images_stored", fig_img_stored, display=False)
_ = claims.check("images (stored, paper's rates): val 60% step minus train 90% step, median over seeds",
                 float(np.median(s_gap)), 1000.0, kind="reproduction", comparison=">=", resolution=100,
                 source="App. J and Fig. 8a (train fits fast, validation improves much later); Table 1 grokking gap "
                        "10^3 steps")
_ = claims.check("images (stored, paper's rates): seeds in the grokking phase (Table 1), fraction",
                 float(np.mean(simg.seed_phases.ravel() == "grokking")), 1.0, kind="reproduction", tolerance=0.2,
                 resolution=0.2, source="App. J and Fig. 8a: the cell shown groks")

# %% [markdown]
# ```{glue:figure} fig_images_stored
# :name: fig-liu-images-stored
# Fig. 8(a) at the paper's rates (stored; substitute 8×8 digits, five seeds: each faintly, the median thick,
# the middle half shaded; dotted: the 90 % and 60 % thresholds). Training accuracy reaches 90 % early; validation
# accuracy climbs slowly for tens of thousands of steps afterwards.
# ```
#
# At the paper's rates the substitute digits grok: the training set reaches 90 % at step
# ≈ {glue:text}`img_fit` and the validation set 60 % at step ≈ {glue:text}`img_val` (medians), a gap of
# {glue:text}`img_gap` steps, far beyond Table 1's $10^3$; validation accuracy ends at {glue:text}`img_final`.
# Fig. 8(a)'s delay is there; the live cell's missing delay was the price of its raised rates.

# %% [markdown]
# ## Paper versus ours
#
# {glue:text}`ledger_tally`. The transformer reproduces the delay and the fall of $e^S$ but not its
# rise; the dropout sweep and the transformer phase diagram were not run. On the substitute digits the
# phase diagram has grokking between memorization and comprehension, as in the paper, but its corners
# differ. The grokking curve of Fig. 8(a) shows no delay at the book's raised rates, but the stored run at the
# paper's rates groks.

# %%
claims.figure("liu2022", "Fig. 7 left", "partial", scale="book",
              claims=["transformer: validation accuracy reaches 99%: fraction of seeds",
                      "transformer: val 99% at least 200 steps after train 99%: fraction of generalizing seeds",
                      "transformer: final e^S <= 0.9 max e^S: fraction of seeds",
                      "transformer: peak e^S over e^S at step 0, median over seeds"],
              why="a small transformer (p = 31, width 48, lr x5, 5 seeds) fits first, generalizes later and its e^S "
                  "falls after generalizing; e^S does not rise first")
claims.figure("liu2022", "Fig. 7 centre", "not run at this scale", scale="book",
              why="dropout is in neither the book's transformer nor its trainer; the paper's sweep is 10 dropout rates "
                  "x 3 seeds x up to 1e5 steps of the p = 59 transformer, GPU scale")
claims.figure("liu2022", "Fig. 7 right", "not run at this scale", scale="book",
              why="285 runs (15 decoder lr x 19 decoder wd) of up to 1e5 steps of the p = 59 transformer, GPU scale; "
                  "run_transformer_phase_diagram runs it at REPRO_SCALE=paper, not run for this edition")
claims.figure("liu2022", "Fig. 8a", "reproduced", scale="paper (CPU, stored)",
              claims=["images (stored, paper's rates): val 60% step minus train 90% step, median over seeds",
                      "images (stored, paper's rates): seeds in the grokking phase (Table 1), fraction"],
              why=f"at the paper's cell (lr 1e-3, wd 0.01, alpha 8) on the substitute 8x8 digits, {img_cfg.steps:,} steps, "
                  f"{img_cfg.n_seeds} seeds: validation reaches 60 % {int(np.median(s_gap)):,} steps after training "
                  "reaches 90 % (median); the live book cell at raised rates shows no delay (a deviation of that "
                  "stand-in); MNIST itself was not run")
claims.figure("liu2022", "Fig. 8b", "partial", scale="book",
              claims=["images: a memorization -> grokking -> comprehension column as wd grows: fraction of seeds",
                      "images: largest weight decay at least half comprehension: fraction of seeds",
                      "images: low-wd, low-lr block at least half memorization: fraction of seeds",
                      "images: high-wd, high-lr block at least 1/6 confusion: fraction of seeds"],
              why="grokking sits between memorization and comprehension and strong decay comprehends, as in the paper; "
                  "the low-decay corner is confused instead of memorizing and there is no confusion at high lr and decay")
glue("ledger_tally", claims.tally(), display=False)

# %%
claims.ledger()

# %% [markdown]
# ### Deviations and what they mean
#
# - **Transformer architecture.** The official model is PyTorch's `nn.TransformerEncoderLayer`
#   (pre-LayerNorm, no causal mask, no positional encoding) whose two output positions are
#   concatenated into a linear head (grokking-squared, prototype branch, `phasegrok/models.py`:
#   `Decoder(concat=True)`; §4.2: "the outputs from the last layer are concatenated"), with dropout
#   0.05. We use the book's shared transformer (`repro.models.Transformer`, TransformerLens layout):
#   pre-LayerNorm, learned positional embeddings (trained with the embeddings' learning rate), a
#   causal mask, and the logits read at the second position, which attends to both tokens. There is
#   no dropout. The shared trainer has no dropout and the shared model no concatenating head; both
#   would be small additions to `repro.models`, and dropout is what Fig. 7 (centre) needs.
# - **Transformer size.** At book scale: $p = 31$, width 48, one layer and both learning rates ×5,
#   for 2,000 steps, so that five seeds train in about a minute on a CPU. Generalization comes
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
#   $\beta_2 = 0.98$ or 0.99 (`TransformerGrokConfig.beta2`; the official optimizer uses torch's
#   default 0.999), the fast runs still collapse. At halved learning rates they are stable, but no
#   frequency dominates the spectrum and only a minority of seeds reach a PC1–PC2 fit of 0.9
#   (exploratory runs, not repeated here). Untested: the paper's own architecture (a concatenating
#   head, no positional embedding). The paper-scale config (256-d, p = 59, 20,000 steps) is the one to
#   test the claim.
# - **$e^S$ does not rise first.** Fig. 7 shows $e^S$ rising until generalization. Our randomly
#   initialized 48-d embeddings of 31 tokens start near the maximum possible dimension (about
#   {glue:text}`ed_start` of at most 30, the median at step 0), so there is little room to rise; we
#   see it flat until generalization, then falling (figure, centre).
# - **Images: a substitute dataset and a short budget.** The 8×8 digits are easier and smaller than
#   MNIST, and 3,000 steps are 3 % of the paper's budget. At weight decay 0 the $\alpha = 8$ network
#   does not even reach 90 % training accuracy in time at small learning rates (confusion), whereas
#   the paper sees memorization there after $10^5$ steps. At the paper's lr $10^{-3}$ and wd 0.01
#   the delayed generalization needs far more than our 3,000 steps on digits, so panel (a) shows the
#   grid's cell at last-layer lr $10^{-2.5}$, wd 0.1 instead, and there the delay is gone. The paper's
#   confusion at high learning rate *and* high decay does not appear in our grid.

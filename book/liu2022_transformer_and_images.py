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
# # Beyond the toy model: a transformer and an image classifier
#
# **The claims** (Liu et al. 2022, §4.2, Fig. 7 and App. J, Fig. 8; [arXiv 2205.10343](https://arxiv.org/abs/2205.10343), official code [ejmichaud/grokking-squared](https://github.com/ejmichaud/grokking-squared)).
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

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Liu et al. 2022, Fig. 7 (left), the paper's model for all 20,000 steps (ours, stored)](#fig-liu-fig7-full).
#
# **Liu et al. 2022 (effective theory), claim by claim** — 12 paper claims: 0 reproduced, 1 not reproduced (rate 0/1); 3 inconclusive, 8 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ⏳ not tested | not run: every transformer run here slows and decays the decoder (lr 2e-4 against the embeddings' 1e-3 … | “Training both the encoder and the decoder with the same optimizer (i.e., with the same hyperparameters) leads to the grokking phenomenon.” | Fig. 7 right |
# | **C2** | ❔ inconclusive | T20: 4,460 vs paper >= 1000 | “Early on, the model is able to perfectly fit the training set while having no generalization.” | Fig. 1, Fig. 7 left |
# | **C3** | ⏳ not tested | no registered comparison: the chapter plots the 20,000-step run's embeddings at initialization and at step … | “We study the embeddings at different training times and find that neither PCA (shown in Figure 1) nor t-SNE (not shown here) reveal any structure.” | Fig. 1 |
# | **C4** | ❔ inconclusive | T21: 0.92 vs paper >= 0.9 | “Eventually, validation accuracy starts to increase, and perfect generalization coincides with the PCA projecting the embeddings into a circle in 2D.” | Fig. 1 |
# | **C5** | ⏳ not tested | no comparison can decide it: e^S is bounded by the rank of the centred embeddings, min(p - 1, d) = 58 for the … | “As seen in Figure 7, the entropy increases up to generalization time …” | Fig. 7 left |
# | **C6** | ❔ inconclusive | T22: 0.67 vs paper <= 0.9 | “… then decreases drastically afterwards which would be consistent with the conjecture that generalization occurs when a low-dimensional structure is …” | Fig. 7 left |
# | **C7** | ⏳ not tested | not run: the chapter does not project the initial embeddings onto the final principal axes (App. K) | “Some of the structure required for generalization exists before training hinting at a connection with the Lottery Ticket Hypothesis.” | Fig. 21, Fig. 22 |
# | **C8** | ⏳ not tested | not run: the decoder lr x decoder weight decay grid (285 runs of up to 10^5 steps, priced in the chapter at … | “Contrary to the toy model, a certain amount of weight decay proves beneficial to generalization and speeds it up significantly.” | Fig. 7 right |
# | **C9** | ❌ not reproduced | T25: 1.00 vs paper <= 0.5 | “With a significant dropout rate, the generalization time can be brought down to under … steps and the grokking phenomenon vanishes completely.” | Fig. 7 centre |
# | **C10** | ⏳ not tested | a substitute dataset (scikit-learn's 8x8 digits, not MNIST) at the paper's cell, 5·10^4 of 10^5 steps: the … | “With this setup, we find that the network quickly fits the train set, and then much later in training validation accuracy improves, as shown in …” | Fig. 8a |
# | **C11** | ⏳ not tested | live at book scale on the substitute digits (5 x 5 grid, 3,000 of 10^5 steps, one seed per cell); MNIST's … | “We observe a “confusion”phase in the bottom right (high learning rate and high weight decay), a “comprehension” phase bordering it, a “grokking” …” | Fig. 8b |
# | **C12** | ⏳ not tested | live at book scale on the substitute digits (the largest weight decay comprehends); MNIST not run | “This phase diagram demonstrates that with sufficient regularization, we can again “de-grok” learning.” | Fig. 8b |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What we reproduce at book scale.** Fig. 7 (left) with the paper's transformer architecture (the
# official code's: pre-LayerNorm encoder layers without mask or positions, a concatenating head,
# dropout 0.05), made small (1 layer, width 48) on $p = 31$, five seeds, learning rates ×5 (the
# time compression of the previous chapter), 2,000 steps. Fig. 8 on scikit-learn's bundled 8×8
# digits, a **substitute dataset** (no download is possible at run time), with a 5 × 5 grid and
# 3,000 steps.
#
# **Stored runs.** Figs 1 and 7 (left) with the paper's model and learning rates (p = 59, two 256-wide
# layers) for {eval}`glued.tf_n_seeds` seeds, but only 6,000 of the paper's 20,000 steps, and the official Fig. 1 run
# (seed 1) for all 20,000; Fig. 7 (centre), the
# dropout sweep, on the official sweep's base (equal learning rates, no decoder weight decay) with the book's
# transformer, four of the ten rates, two seeds and 6,000 steps, and (context) over the ten rates and three seeds
# on the Fig. 1 base; Fig. 8 (a) at the paper's rates on the substitute digits. They are loaded, not recomputed, and each section names the one
# command that recomputes it. Every experiment prints a setup table beside the official code's, with every
# difference and its reason.
#
# **Seeds.** Training is chaotic: the last bits of float32 rounding, which differ between CPU kernel
# sets, move a single run's step counts and can flip a cell near a phase boundary. Every transformer
# claim below is therefore a statement about the median seed of five (it must hold in at least half
# of the seeds), and the numbers are shown at resolutions the seeds' spread justifies. The image grid
# has one seed per cell, so its claims are that one map's verdicts.
#
# **What we don't.** The transformer phase diagram of Fig. 7 (right; 285 runs of up to $10^5$ steps)
# is not run, and the paper's 100 seeds of Fig. 7 (left) and its dropout sweep at the official size
# ($p = 53$, width 256, 30 runs of up to $10^5$ steps) are not either: priced from the stored run's own speed below, they need hundreds to thousands of
# CPU-hours. `REPRO_SCALE=paper` runs the paper's settings (p = 59, 256-d embeddings, 100 seeds,
# 20,000 steps; MNIST from `REPRO_MNIST_DIR`, $10^5$ steps, a 7 × 8 grid),
# `run_dropout_sweep(official_dropout_reference())` and `run_transformer_phase_diagram` run Fig. 7 (centre,
# right) with the same code.

# %% tags=["hide-input"]
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

from repro.book.claims import ClaimBook
from repro.book.readouts import liu2022_transformer_and_images as readout
from repro.book.readouts import liu2022_transformer_and_images_stored as readout_stored
from repro.core.prose import glue
from repro.experiments.liu2022_transformer_and_images import (ImageGrokConfig, TransformerGrokConfig,
                                                              run_image_phase_diagram, run_transformer)
from repro.plotting.liu2022_transformer_and_images import (plot_dropout_sweep, plot_fig1, plot_image_curve,
                                                           plot_image_examples, plot_images, plot_transformer)
from repro.plotting.shared import use_style

use_style()
claims = ClaimBook("liu2022_transformer_and_images")

# %% [markdown]
# ## Configuration
#
# `TransformerGrokConfig` defaults are the official Fig. 1 / Fig. 7 run (grokking-squared, prototype
# branch: the run configuration printed by `scripts/pizza_plot.py`, the sweep ranges of
# `phasegrok/definitions.py`): $p = 59$, 80 % of the $p^2$ ordered pairs for training, 256-d
# embeddings, two pre-LayerNorm blocks with one head and feed-forward width 128, dropout 0.05, AdamW
# with the two parameter groups above, 20,000 full-batch steps, embeddings logged every 20 steps. The
# model is `repro.models.networks.EncoderTransformer`: PyTorch's `nn.TransformerEncoderLayer` stack of the
# official `phasegrok/models.py` (`Decoder(concat=True)`), with no attention mask and no positional
# encoding, the two positions' outputs concatenated into a linear head; its initial weights equal the
# official module's, drawn from the same seed, and its forward pass equals the official module's
# (both tested). Dropout acts where `nn.TransformerEncoderLayer` applies it: on the attention
# probabilities, the attention output, the MLP's hidden units and the MLP output; accuracies are
# always measured without it. The book scale keeps the two groups and their ratio but shrinks the
# model and the vocabulary; the setup table lists every setting beside the official run's, each difference
# with its reason.

# %% tags=["hide-input"]
tcfg = TransformerGrokConfig.for_scale()
readout.report_transformer_setup(tcfg)

# %% [markdown]
# ## Sanity check: chance level
#
# At step 0 validation accuracy must be near chance, $1/p$ (within ±0.05), in every seed: the held-out pairs
# are what the run is judged on.

# %%
result = run_transformer(tcfg)
readout.check_chance(result, tcfg)

# %% [markdown]
# ## Figure 7 (left) and the circle of Fig. 1
#
# ```{figure} _figures/liu2022_transformer_and_images/fig_transformer.png
# :name: fig-liu-transformer
#
# **Liu et al. 2022, Fig. 7 (left) and Fig. 1 (ours, book scale).** **Left:** training (blue) and validation (red) accuracy, log step axis. **Centre:** the effective
# dimension $e^S$ of the token embeddings' PCA (each token's embedding standardized first, as the
# official Fig. 1 script `pizza_plot.py` does before its PCA; the official Fig. 7 notebook takes the PCA of the
# raw embeddings, and the difference is measured on the stored 20,000-step run below); dashed lines mark where each seed's training (blue) and validation (red)
# accuracy cross 99 %. Thick lines are medians over the five seeds, bands the middle half, thin lines
# single seeds. **Right:** the final embeddings of the first seed on their first two principal
# components, coloured and labelled by token.
# ```

# %%
fig = plot_transformer(result)
glue("fig_transformer", fig, display=False)

# %% [markdown]
# Validation accuracy crossed 99 % at step {eval}`glued.gen_median` (median of the five seeds, to 500
# steps), long after training accuracy (figure, left); the median seed's last validation accuracy is
# {eval}`glued.val_final` (to 0.05). The effective dimension ends at about {eval}`glued.ed_drop` of its
# maximum (median, to 0.2). Whether the embeddings form Fig. 1's circle differs from seed to seed at
# this size (figure, right, shows the first seed); the verdict on the circle comes from the paper's
# model below, where the stored runs give the same answer on every machine.

# %% [markdown]
# ## Figures 1 and 7 (left) with the paper's model for all 20,000 steps (stored)
#
# `full_transformer_config()` is the official Fig. 1 run for the paper's whole budget: seed 1, the model and
# rates of the configuration above, float32, 20,000 full-batch steps. The embeddings are kept every 500 steps (the official script
# plots steps 0, 1,000 and 20,000) and $e^S$ at every logged step. It took {eval}`glued.full_minutes` minutes on
# one core in {eval}`glued.full_segments` sittings (a run resumes from its checkpoint bit for bit);
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs transformer-20k`
# recomputes it.

# %%
ftf, full_manifest = readout_stored.load_full_run()
fn, circle = readout_stored.report_full_run(ftf)
glue("fig_fig1_full", plot_fig1(ftf), display=False)
glue("fig_fig7_full", plot_transformer(ftf), display=False)

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_fig1_full.png
# :name: fig-liu-fig1-full
#
# Fig. 1 as the official script draws it, from the stored 20,000-step run: the token embeddings on their first
# two principal components (each token's row standardized first, as `pizza_plot.py` does) at initialization,
# at step 1,000 and at step 20,000, with the accuracies at each; right, the accuracies over training, the three
# steps dotted. Tokens are coloured by their value mod p: a circle in the order of the colours is the paper's
# "representation learning".
# ```
#
# ```{figure} _figures/liu2022_transformer_and_images/fig_fig7_full.png
# :name: fig-liu-fig7-full
#
# **Liu et al. 2022, Fig. 7 (left), the paper's model for all 20,000 steps (ours, stored).** The run's accuracies and the effective dimension $e^S$ of the embeddings, with the 99 %
# crossings, and the final embeddings on their first two principal components (not standardized).
# ```
#
# Seed 1 fits its training set (99 %) by step {eval}`glued.full_mem`, reaches 99 % validation accuracy at step
# {eval}`glued.full_gen` and 100 % at step {eval}`glued.full_val100`, against the "about 3,700" reported for this
# run (within the registered factor of 2), and is still at {eval}`glued.full_final` at step 20,000: a gap of
# {eval}`glued.full_gap` steps, grokking by Table 1's rule. The effective dimension starts at
# {eval}`glued.full_ed0` of at most 58, rises by {eval}`glued.full_rise` to a peak at step
# {eval}`glued.full_edpeak_step`, before generalization, and then falls to {eval}`glued.full_end` of its peak at
# step 20,000: at a steady pace in steps, which on Fig. 7's logarithmic step axis (as in ours) is the sharp drop the
# paper shows. The
# 14,000 steps beyond the 6,000-step runs (in the Evidence section) give what 6,000 could not: the drop of $e^S$ passes the registered 10 %, and
# the final embeddings lie on an ordered circle on PC1–PC2 (fit {eval}`glued.full_circle`, the registered line
# being 0.9). That circle is not a steady end state, though. The network uses one frequency from generalization
# on ({eval}`glued.full_freqs`), an almost perfect circle in its own plane (fit {eval}`glued.full_fourier` at the
# end) that carries only {eval}`glued.full_share` of the embeddings' variance by step 20,000; the rest is what
# remains of the random initialization. So what PC1–PC2 show drifts: the fit was {eval}`glued.full_circle_6k`
# at step 6,000, fell to {eval}`glued.full_circle_min` at step {eval}`glued.full_circle_min_step` and rose
# again by the end. With one seed, the circle claim passes by less than these swings. The rise of $e^S$ before
# generalization stays as small as registered (a deviation).

# %% [markdown]
# ## Figure 7 (centre): dropout and the length of the plateau (stored)
#
# Fig. 7 (centre) plots the time to generalize against the decoder's dropout rate: "with a significant
# dropout rate, the generalization time can be brought down to under $10^3$ steps and the grokking
# phenomenon vanishes completely" (§4.2). The official sweep trains ten rates, `linspace(0, 0.5, 10)`,
# for seeds 1, 2, 3 (`phasegrok/definitions.py`). Its rule `with_dropout` (`prototype:snakefile`) passes
# only `--dropout` and `--seed` (with `--epochs 100000 --stop_early`) to `scripts/transformer_grokking.py`,
# so every other setting is `phasegrok/config.py`'s default, not the Fig. 1 run's: $p = m = 53$, both
# learning rates $10^{-3}$, decoder weight decay 0 (the embedding group at AdamW's default 0.01),
# feed-forward width 256, two layers. That is the base §4.2 says groks ("training both the encoder and the
# decoder with the same optimizer … leads to the grokking phenomenon"); the Fig. 1 base, with its slow,
# decayed decoder, is the one it calls already de-grokked. `official_dropout_reference()` holds these
# settings, and the setup tables in the Evidence section compare with them.
#
# ### On the official sweep's base, reduced (stored)
#
# At the official size the sweep is 30 runs of up to $10^5$ steps, far beyond a CPU (see the cost table
# in the Evidence section). `official_base_dropout_config()` keeps the sweep's base (equal learning rates, no decoder weight
# decay, embedding weight decay 0.01, feed-forward width equal to the model width) and shrinks the rest to
# fit ten CPU-minutes: the book's transformer ($p = 31$, one layer of width 48), both learning rates ×5
# ($5\cdot10^{-3}$, the book's time compression), four of the ten rates (0, 1/6, 1/3, 1/2), two fresh seeds
# (11, 12) and 6,000 steps, 30,000 at the official rates ({eval}`glued.odrop_minutes` minutes on one core;
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs dropout-official-base`
# recomputes it). Its two claims, that dropout shortens the plateau and that the delay
# vanishes, are stated with their criteria in the Evidence section.

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_dropout_official.png
# :name: fig-liu-dropout-official
#
# Fig. 7 (centre) on the official sweep's base, reduced (stored): steps to 99 % training (blue) and validation
# (red) accuracy against the dropout rate, each seed a dot, the median of the two seeds a line; runs that never
# reach 99 % sit on the dotted line at the end of training.
# ```
#
# **Neither claim reproduces on the reduced official base.** Without dropout the network fits its training set
# within 60 steps and never generalizes (validation accuracy {eval}`glued.odrop_final0` at step 6,000, median).
# Dropout changes that: at rate {eval}`glued.odrop_best`, the best, validation accuracy climbs to
# {eval}`glued.odrop_final_best`, but no run at any rate reaches 99 % within 6,000 steps, 30 times the
# paper's "under $10^3$" at its learning rates (÷ 5 for ours). By the registered rule the time ratio is then 1
# in both seeds, and the gap ratio {eval}`glued.odrop_gap`: a seed spread of zero, so the verdict is decided,
# for this reduced model (width 48 against 256, one layer against two, $p = 31$ against 53) and budget.
# At rates 1/3 and 1/2 the fit itself slows or fails. Whether the official-size model behaves as Fig. 7
# (centre) says needs the sweep at its size (priced in the Evidence section).

# %% [markdown]
# ## Figure 8: grokking on images with a large initialization
#
# `ImageGrokConfig` defaults are App. J's setting, with the values of the MNIST notebook of the Omnigrok
# repository (KindXiaoming/Omnigrok, `mnist/grokking/mnist-grokking.ipynb`). That repository is the code of a
# later paper (Liu, Michaud & Tegmark 2023, Omnigrok); this paper's own repository, grokking-squared, holds no
# image experiment, so the notebook is the closest official code, not Fig. 8's own. It takes the first 1,000 MNIST training
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

# %% tags=["hide-input"]
icfg = ImageGrokConfig.for_scale()
readout.report_image_setup(icfg)
images = run_image_phase_diagram(icfg)
readout.report_image_grid(images, icfg)

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_images.png
# :name: fig-liu-images
#
# **Liu et al. 2022, Fig. 8 (ours, book scale).** **Left (a):** training (blue) and validation (red) accuracy of one cell of the grid (8×8 digits,
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

# %%
glue("fig_image_examples", plot_image_examples(images), display=False)

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_image_examples.png
# :name: fig-liu-image-examples
#
# **Beside Fig. 8(b): one run of each phase** that is some cell's majority in the map (from the cell deepest inside
# that phase's region):
# training (blue) and validation (red) accuracy against step, with the 90 % training and 60 % validation
# thresholds dotted in the same colours.
# ```

# %% [markdown]
# ### Fig. 8(a) at the paper's rates (stored)
#
# The live cell runs at raised rates because the paper's do not fit in 3,000 steps. The stored run
# `stored_curve_config()` trains the paper's cell itself on the same substitute digits: last-layer learning
# rate $10^{-3}$ and weight decay 0.01 (the Omnigrok notebook's), $\alpha = 8$, batch 200, five
# initializations, 50,000 steps, half the paper's budget ({eval}`glued.img_minutes` minutes on one core;
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results` recomputes it).

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_images_stored.png
# :name: fig-liu-images-stored
# Fig. 8(a) at the paper's rates (stored; substitute 8×8 digits, five seeds: each faintly, the median thick,
# the middle half shaded; dotted: the 90 % and 60 % thresholds). Training accuracy reaches 90 % early; validation
# accuracy climbs slowly for tens of thousands of steps afterwards.
# ```
#
# At the paper's rates the substitute digits grok: the training set reaches 90 % at step
# ≈ {eval}`glued.img_fit` and the validation set 60 % at step ≈ {eval}`glued.img_val` (medians), a gap of
# {eval}`glued.img_gap` steps, far beyond Table 1's $10^3$; validation accuracy ends at {eval}`glued.img_final`.
# Fig. 8(a)'s delay is there; the live cell's missing delay was the price of its raised rates.

# %% [markdown]
# ## Paper versus ours
#
# {eval}`glued.ledger_tally`. The official transformer, small or at the paper's size and rates, fits first and
# generalizes much later, as Fig. 7 (left) shows, and its $e^S$ barely rises before generalizing. Run for all
# 20,000 steps (the official seed only; claims sealed before the run), the paper's model reaches 100 % validation
# accuracy within a factor of 2 of the step reported for Fig. 1, its $e^S$ falls steadily after generalizing, and
# its embeddings end on an ordered circle, by a margin smaller than the fit's swings along the way. The 6,000-step
# runs stop before the fall of $e^S$ and the circle; their claims are marked † (the runs predate sealed claims),
# so they are exploratory and decide nothing. On the official sweep's base, reduced to the book's transformer,
# dropout lifts validation accuracy far above the no-dropout run's but brings no run to 99 % within 6,000 steps,
# so it neither shortens the time to generalize nor removes the delay there (a sealed deviation); on the Fig. 1
# base (context) it does not either. The
# transformer phase diagram was not run: it is priced in the Evidence section. On the substitute digits the
# phase diagram has grokking between memorization and comprehension, as in the paper, but its corners
# differ. The grokking curve of Fig. 8(a) shows no delay at the book's raised rates, but the stored run at the
# paper's rates groks. The claim tables behind these verdicts are in the Evidence section at the end.

# %% [markdown]
# ### Deviations and what they mean
#
# - **Transformer architecture: now the official one.** Earlier editions used the book's shared
#   decoder-only transformer (causal mask, learned positions, no dropout) and found no circle at book
#   scale. `repro.models.networks.EncoderTransformer` is the official model (see the configuration), and the
#   trainer has per-run dropout, so Fig. 7 (centre) can be run. Accuracies are measured without
#   dropout; the official script logs its training accuracy in training mode, with dropout on.
# - **Transformer size.** At book scale: $p = 31$, width 48, one layer and both learning rates ×5,
#   for 2,000 steps, so that five seeds train in about a minute on a CPU. Generalization comes
#   several times later than memorization (figure, left). The paper's model and rates are
#   {eval}`glued.tf_n_seeds` stored seeds of 6,000 steps and one of 20,000 (the official Fig. 1 run's seed), not
#   100 seeds of 20,000 (the cost table in the Evidence section says why).
# - **Depth.** Ours has two layers, `decoder_depth`'s default in the official code from 9 May 2022. The Fig. 1
#   run (27 April 2022, named "modular-addition59-deep") predates that argument, and the official code of
#   20 April stacks one layer, so the depth of the paper's runs is not recorded.
# - **$e^S$ does not rise first at book scale.** Fig. 7 shows $e^S$ rising until generalization. Our
#   randomly initialized 48-d embeddings of 31 tokens start near the maximum possible dimension
#   (about {eval}`glued.ed_start` of at most 30, the median at step 0), so there is little room to
#   rise; we see it nearly flat until generalization, then falling (figure, centre).
# - **Dropout sweep: base and size.** The official sweep ran `phasegrok/config.py`'s defaults ($p = 53$, equal
#   learning rates $10^{-3}$, decoder weight decay 0, FFN 256), not the Fig. 1 run's base. The stored sweep on
#   that base is reduced to the book's time-compressed transformer ($p = 31$, one layer of width 48), four rates,
#   two seeds and 6,000 steps, so its step counts are not the paper's and its verdict is that reduced model's;
#   the earlier sweep on the Fig. 1 base (decoder lr 1/5, weight decay 1) is context. The official-size sweep
#   (30 runs of up to $10^5$ steps) is priced in the Evidence section.
# - **Images: a substitute dataset and a short budget.** The 8×8 digits are easier and smaller than
#   MNIST, and 3,000 steps are 3 % of the paper's budget. At weight decay 0 the $\alpha = 8$ network
#   does not even reach 90 % training accuracy in time at small learning rates (confusion), whereas
#   the paper sees memorization there after $10^5$ steps. At the paper's lr $10^{-3}$ and wd 0.01
#   the delayed generalization needs far more than our 3,000 steps on digits, so panel (a) shows the
#   grid's cell at last-layer lr $10^{-2.5}$, wd 0.1 instead, and there the delay is gone. The paper's
#   confusion at high learning rate *and* high decay does not appear in our grid.

# %% [markdown]
# ## Evidence
#
# What follows is how each claim of this chapter is checked: the criteria, resolutions and tolerances of every
# comparison, the stored runs' setup tables, per-seed tables and provenance, the runs a later one supersedes (the
# 6,000-step runs of the paper's model, the dropout sweep on the Fig. 1 base), the cost of the paper's Fig. 7, and
# the claim tables. The verdicts in the summary at the top follow from these by the decision rules on the
# reproduction-status page.

# %% [markdown]
# ### Transformer: the claims of Fig. 7 (left)
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
#    generalization time"). This one does **not** reproduce at book scale and is recorded as a
#    deviation: the median seed's peak $e^S$ is within a few per cent of its value at step 0. We would
#    call it reproduced at a rise of at least 10 %, the size of the drop claim 3 asks for (a band
#    chosen after seeing the result). The band sits at the edge of what is possible: $e^S$ can never exceed
#    the rank of the centred embeddings, $\min(p - 1, d) = 30$ here, so from its start it can rise by at most
#    {eval}`glued.ed_max_rise`.

# %% tags=["hide-input"]
readout.record_fig7_left(claims, result, tcfg)

# %% [markdown]
# ### Figures 1 and 7 (left) with the paper's model and rates, 6,000 steps (stored)
#
# The 20,000-step run of seed 1 in the body supersedes these runs; they stay here for their three seeds and
# for the speed that prices Fig. 7 below.
#
# `stored_transformer_configs()` are the official Fig. 1 run and two more seeds: $p = 59$, two
# 256-wide layers with one head and feed-forward width 128, dropout 0.05, embeddings at lr
# $10^{-3}$ without decay, the rest at lr $2\cdot10^{-4}$ with weight decay 1, seeds 1 (the official
# run's), 2 and 3, 80 % of the pairs for training, full batch. Each seed trains **6,000 of the official
# 20,000 steps**, so these are the paper's settings except the budget (and the seeds:
# {eval}`glued.tf_n_seeds` of Fig. 7's 100; the setup table lists every difference); seed 1 took {eval}`glued.tf_minutes` minutes on one core; `python -m
# repro.experiments.liu2022_transformer_and_images --store book/_results --runs transformer` recomputes them. The claims
# are those of the book-scale run, about the median of the three seeds, with the paper's own numbers:
# the grokking gap is Table 1's $10^3$ steps (no time compression), and the circle is scored as in the
# opening chapter, where a clean circle has a PC1–PC2 fit of at least 0.9. These bands were fixed
# before the runs; each claim's kind (reproduction or deviation) was declared after them, and the runs
# predate sealed claims, so every claim on them is marked †.

# %%
stf, tf_parts = readout_stored.load_stored_transformer()
tf_numbers = readout_stored.report_stored_transformer(stf)
glue("fig_transformer_stored", plot_transformer(stf), display=False)

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_transformer_stored.png
# :name: fig-liu-transformer-stored
#
# Figs 1 and 7 (left) with the paper's model and rates (stored; seeds 1–3, 6,000 of the paper's 20,000
# steps). Panels as in the book-scale figure: accuracies and the effective dimension $e^S$ (each seed
# thin, the median thick) with each seed's 99 % crossings, and seed 1's final embeddings on their
# first two principal
# components.
# ```
#
# With the paper's model and rates the network fits its training set by step {eval}`glued.tf_mem` and reaches
# 99 % validation accuracy at step {eval}`glued.tf_gen` (medians of the three seeds): a delay of
# {eval}`glued.tf_gap` steps, grokking by Table 1's rule, and the median seed ends at
# {eval}`glued.tf_final` validation accuracy. The embeddings are another matter. Their effective
# dimension starts at {eval}`glued.tf_ed0` (of at most 58), rises by only {eval}`glued.tf_rise` and
# by the end has come back down to {eval}`glued.tf_end` of its peak (medians), still falling. The
# PC1–PC2 circle fit climbs from generalization on and ends at a median of {eval}`glued.tf_circle`;
# {eval}`glued.tf_circle_n` of the three seeds end above the 0.9 of a clean circle. The reason is
# visible in the Fourier spectrum: the frequency the network uses
# is an almost perfect circle in its own plane (fit {eval}`glued.tf_fourier`), but it carries only
# {eval}`glued.tf_share` of the embeddings' variance. The rest is the random N(0, 1) initialization
# of 256 dimensions, which the embeddings' learning rate, without weight decay, has not yet worn
# away after 6,000 steps. The paper's curves run to 20,000 steps; these stop at 6,000 (the cost of
# three seeds on one core), so seed 1 was also run for all 20,000 (the stored run in the body).
#
# The claims, bands as fixed above; their kinds (what the run showed) were declared after the runs, which the
# registry records as amendments.

# %% tags=["hide-input"]
# each record_* returns the reason its "Paper versus ours" row gives, by figure
row_why = readout_stored.record_stored_transformer(claims, tf_numbers, cfg=stf.config, parts=tf_parts)

# %% [markdown]
# ### Figures 1 and 7 (left) for all 20,000 steps: the sealed claims
#
# The 20,000-step run's six claims were registered and sealed before it started: the step at which validation
# accuracy reaches 100 %, against the step of about 3,700 that a coauthor reports for this run (a factor of 2
# either way); Table 1's gap of $10^3$ steps; perfect generalization at the end (within 1 %); the clean circle
# of the 6,000-step claims (a PC1–PC2 fit of at least 0.9); and $e^S$ rising by 10 % and then falling by 10 %,
# the rise registered as a deviation because the first 6,000 steps of the same seed had shown less. It is one
# seed: the 6,000-step runs above show how much three seeds differ.

# %% tags=["hide-input"]
row_why |= readout_stored.record_full_run(claims, fn, circle, run=full_manifest)

# %% [markdown]
# #### How high $e^S$ can rise, and the two ways to read it
#
# $e^S$ counts how many directions the token embeddings spread over, and it can never exceed the rank of the
# centred $p \times d$ embedding matrix, $\min(p - 1, d)$: 58 for 59 tokens in 256 dimensions (all 58 variances
# equal). A random N(0, 1) start already fills most of that, and the registered 10 % rise asks for almost all of
# the rest. Our runs log $e^S$ after standardizing each token's row, as the official Fig. 1 script does before
# its PCA; the official Fig. 7 notebook (`plotting_nbs/EntropyAndTraining.ipynb`) takes sklearn's PCA of the raw
# embeddings. Both readings on the stored embeddings (kept every 500 steps):

# %%
readout_stored.report_effective_dimension_readings(ftf, stf, fn)

# %% [markdown]
# From its start at {eval}`glued.full_ed0`, $e^S$ can rise by at most {eval}`glued.es_max_rise` before it hits the
# ceiling of {eval}`glued.es_ceiling`: the registered rise of 10 % needs $e^S \geq$ {eval}`glued.es_need`, 99 % of
# the ceiling, a spectrum with almost every one of the 58 directions equally strong. That band was set without
# the ceiling in view. It cannot tell a rise the paper's figure shows from none, so the sealed comparison is kept
# as it stands, as context, and the paper's claim that the entropy rises is left untested (registry: C5). The
# reading does not matter for this: on the stored embeddings the official notebook's plain PCA gives a rise of
# {eval}`glued.es_plain_rise` against {eval}`glued.es_std_rise` for the standardized rows, and an end at
# {eval}`glued.es_plain_end` of the peak against {eval}`glued.es_std_end` (every 500 steps; the logged
# standardized curve, every 20 steps, peaks slightly higher).

# %% [markdown]
# ### Figure 7 (centre) on the official sweep's base, reduced: the claims (stored)
#
# The reduced sweep's two claims were registered and sealed before it started; an exploratory pilot
# (seed 101, 3,000 steps) had been seen: without dropout validation accuracy stayed at 0.07, at rate 0.33
# it reached 0.46. A seed shares its split and initial weights across the rates, so each rate is read seed
# by seed:
#
# 1. **Dropout shortens the plateau.** Per seed, the steps to 99 % validation accuracy at the rate with
#    the shortest median time, over those without dropout, at most 0.5 (the paper's curve falls by about
#    an order of magnitude). A run that never reaches 99 % counts at the end of the run, so the ratio is
#    1 when neither run does.
# 2. **The delay vanishes.** Per seed, the gap between 99 % training and 99 % validation accuracy at that
#    rate, over the gap without dropout, at most 0.2.
#
# The stored entry was made from a clean checkout (commit `6c766c8`, which holds the registration of
# `0faa6fb`); a first run from a worktree with an uncommitted addition the run never calls gave the same
# arrays, bit for bit.

# %% tags=["hide-input"]
odrop, odrop_manifest = readout_stored.load_official_dropout()
osweep = readout_stored.report_official_dropout(odrop)
glue("fig_dropout_official", plot_dropout_sweep(odrop), display=False)
row_why |= readout_stored.record_official_dropout(claims, osweep, run=odrop_manifest)

# %% [markdown]
# #### On the Fig. 1 base (context, stored)
#
# Before the official sweep's settings were read, the book ran the sweep on the Fig. 1 base (decoder lr
# 1/5 of the embeddings', decoder weight decay 1), which the paper calls already de-grokked:
# `stored_dropout_config()` trains the official ten rates and three seeds with the book's transformer (the
# run above: $p = 31$, width 48, learning rates ×5) for 5,000 steps, all 30 runs in one batched program
# ({eval}`glued.drop_minutes` minutes on two cores shared with other runs;
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs dropout` recomputes
# it). It is not the paper's setting, so its rows are context, not a test of the paper's claim. Its two
# claims, bands fixed before the run:
#
# 1. **Dropout shortens the plateau.** At the rate with the shortest median time to 99 % validation
#    accuracy, that time is at most half the time without dropout (a run that never generalizes
#    counts as infinitely slow). The paper's curve falls by about an order of magnitude.
# 2. **With enough dropout the delay vanishes.** At that rate, the median gap between 99 % training
#    and 99 % validation accuracy is at most 200 steps, Table 1's $10^3$ divided by the time
#    compression 5. The paper's "under $10^3$ steps" is an absolute time at the paper's learning
#    rates, which the time-compressed book model cannot be compared with; the gap can.

# %% tags=["hide-input"]
sdrop, drop_manifest = readout_stored.load_fig1_base_dropout()
dsweep = readout_stored.report_fig1_base_dropout(sdrop)
glue("fig_dropout", plot_dropout_sweep(sdrop), display=False)
row_why |= readout_stored.record_fig1_base_dropout(claims, dsweep, run=drop_manifest)

# %% [markdown]
# ```{figure} _figures/liu2022_transformer_and_images/fig_dropout.png
# :name: fig-liu-dropout
#
# Fig. 7 (centre) with the book's transformer (stored): steps to 99 % training (blue) and validation (red)
# accuracy against the dropout rate, each seed a dot, the median of the three seeds a line; runs that
# never reach 99 % sit on the dotted line at the end of training.
# ```
#
# **On the Fig. 1 base neither claim holds either** (context: not the paper's setting). The best dropout rate,
# {eval}`glued.drop_best`, reaches 99 % validation accuracy in {eval}`glued.drop_ratio` of the median
# time without dropout, not in half of it, and its training-to-validation gap is still
# {eval}`glued.drop_gap` steps (median): the delay shrinks a little and stays. Larger rates slow the
# fit itself, and from rate {eval}`glued.drop_never` on no seed generalizes within the run. At this size
# dropout is a mild help at small rates and a hindrance at large ones on a base that already generalizes;
# on the official base (above) it is what lets the network generalize at all, but not to 99 % in the budget.

# %% [markdown]
# ### What the paper's Fig. 7 would cost here
#
# The stored 6,000-step runs above measured the speed of the paper's transformer on this book's machine: seed 1's
# wall time over its steps (one core, evaluations included, while other runs shared the machine, so
# an idle core is somewhat faster). At that speed, each panel of Fig. 7 at the paper's settings
# (`TransformerGrokConfig()`; no early stopping, so an upper bound) would take. Fig. 7 (centre) is priced at
# this model's speed: the official sweep's model (`official_dropout_reference()`) has 19 % fewer pairs ($p = 53$)
# and twice the feed-forward width, so its cost per step is of the same order, not measured.

# %%
row_why |= readout_stored.report_fig7_cost(tf_parts, stf.config)

# %% [markdown]
# ### Images: the claims of Fig. 8
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

# %% tags=["hide-input"]
readout.record_fig8(claims, images, icfg)

# %% [markdown]
# ### Fig. 8(a) at the paper's rates: the stored run's claim
#
# The stored run's criterion is the one above (claim 5),
# fixed before this run: Table 1's grokking gap of $10^3$ steps between 90 % training and 60 % validation
# accuracy (App. J's threshold).

# %% tags=["hide-input"]
simg, img_manifest = readout_stored.load_stored_fig8a()
readout_stored.report_stored_fig8a(simg)
glue("fig_images_stored", plot_image_curve(simg), display=False)
row_why |= readout_stored.record_stored_fig8a(claims, simg, run=img_manifest)

# %% [markdown]
# ### Claim tables
#
# The chapter's figure rows and claim tables: every comparison with its kind, reference, margin and outcome, from
# which the verdicts of "Paper versus ours" and of the summary at the top are judged.

# %% tags=["hide-input", "hide-output"]
readout.record_figure_rows(claims, row_why)

# %% tags=["hide-input", "hide-output"]
claims.ledger()

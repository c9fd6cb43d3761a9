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
# **Liu et al. 2022 (effective theory), claim by claim** — 12 paper claims: 0 reproduced, 1 not reproduced (rate 0/1); 3 inconclusive, 8 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ⏳ not tested | — | “Training both the encoder and the decoder with the same optimizer (i.e., with the same hyperparameters) leads to the grokking phenomenon.” | Fig. 7 right |
# | **C2** | ❔ inconclusive | T20: 4,460 vs paper >= 1000 | “Early on, the model is able to perfectly fit the training set while having no generalization.” | Fig. 1, Fig. 7 left |
# | **C3** | ⏳ not tested | — | “We study the embeddings at different training times and find that neither PCA (shown in Figure 1) nor t-SNE (not shown here) reveal any structure.” | Fig. 1 |
# | **C4** | ❔ inconclusive | T21: 0.92 vs paper >= 0.9 | “Eventually, validation accuracy starts to increase, and perfect generalization coincides with the PCA projecting the embeddings into a circle in 2D.” | Fig. 1 |
# | **C5** | ⏳ not tested | — | “As seen in Figure 7, the entropy increases up to generalization time …” | Fig. 7 left |
# | **C6** | ❔ inconclusive | T22: 0.67 vs paper <= 0.9 | “… then decreases drastically afterwards which would be consistent with the conjecture that generalization occurs when a low-dimensional structure is …” | Fig. 7 left |
# | **C7** | ⏳ not tested | — | “Some of the structure required for generalization exists before training hinting at a connection with the Lottery Ticket Hypothesis.” | Fig. 21, Fig. 22 |
# | **C8** | ⏳ not tested | — | “Contrary to the toy model, a certain amount of weight decay proves beneficial to generalization and speeds it up significantly.” | Fig. 7 right |
# | **C9** | ❌ not reproduced | T25: 1.00 vs paper <= 0.5 | “With a significant dropout rate, the generalization time can be brought down to under … steps and the grokking phenomenon vanishes completely.” | Fig. 7 centre |
# | **C10** | ⏳ not tested | — | “With this setup, we find that the network quickly fits the train set, and then much later in training validation accuracy improves, as shown in …” | Fig. 8a |
# | **C11** | ⏳ not tested | — | “We observe a “confusion”phase in the bottom right (high learning rate and high weight decay), a “comprehension” phase bordering it, a “grokking” …” | Fig. 8b |
# | **C12** | ⏳ not tested | — | “This phase diagram demonstrates that with sufficient regularization, we can again “de-grok” learning.” | Fig. 8b |
#
# The deciding test is the one the verdict rests on (a decided disagreement first); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
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

import numpy as np
from IPython.display import display
from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.core.portable import seed_median, trained
from repro.core.scale import current_scale
from repro.experiments.liu2022_phase_diagrams import corner_fraction, sandwich_columns
from repro.experiments.liu2022_transformer_and_images import (ImageGrokConfig, TransformerGrokConfig,
                                                              projected_cpu_hours,
                                                              run_image_phase_diagram, run_transformer,
                                                              stored_curve_config, join_transformer_results,
                                                              stored_dropout, stored_dropout_config, stored_images,
                                                              stored_transformer, stored_transformer_configs,
                                                              fig1_numbers, full_transformer_config,
                                                              dropout_sweep_numbers, official_base_dropout_config,
                                                              effective_dimension_readings,
                                                              effective_dimension_ceiling)
from repro.experiments.liu2022_transformer_and_images_setup import (book_transformer_setup_table,
                                                                    fig1_base_dropout_setup_table,
                                                                    full_transformer_setup_table,
                                                                    image_grid_setup_table,
                                                                    official_dropout_setup_table,
                                                                    stored_image_setup_table,
                                                                    stored_transformer_setup_table)
from repro.plotting.liu2022_transformer_and_images import (plot_dropout_sweep, plot_fig1, plot_image_curve,
                                                           plot_images, plot_transformer)
from repro.plotting.shared import use_style
from repro.training.store import load_stored, stored_minutes

use_style()
claims = ClaimBook("liu2022_transformer_and_images")


def holds_in_seeds(name: str, verdicts, *, evidence: str = ""):
    """A statement checked seed by seed (``verdicts``: 0/1 per seed): the registry's entry ``name`` compares the
    fraction of seeds in which it holds with 1 ± 0.5 (it must hold in at least half of them), shown to 0.5, so one
    seed changing its verdict does not move it; ``evidence`` for a deviation."""
    verdicts = np.asarray(verdicts, dtype=float)
    return claims.check(name, float(np.mean(verdicts)) if verdicts.size else 0.0, seeds=verdicts, evidence=evidence)


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
print(f"scale: {current_scale()}")
display(book_transformer_setup_table(tcfg))

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
#    generalization time"). This one does **not** reproduce at book scale and is recorded as a
#    deviation: the median seed's peak $e^S$ is within a few per cent of its value at step 0. We would
#    call it reproduced at a rise of at least 10 %, the size of the drop claim 3 asks for (a band
#    chosen after seeing the result). The band sits at the edge of what is possible: $e^S$ can never exceed
#    the rank of the centred embeddings, $\min(p - 1, d) = 30$ here, so from its start it can rise by at most
#    {eval}`glued.ed_max_rise`.

# %% tags=["hide-input"]
mem = result.steps_to("train_acc")
gen = result.steps_to("val_acc")
ed = result.effective_dim
generalized = (mem >= 0) & (gen >= 0)
holds_in_seeds("transformer: validation accuracy reaches 99%: fraction of seeds", gen >= 0)
delay = gen[generalized] - mem[generalized]
holds_in_seeds("transformer: val 99% at least 200 steps after train 99%: fraction of generalizing seeds", delay >= 200)
ratio = ed[:, -1] / ed.max(axis=1)
holds_in_seeds("transformer: final e^S <= 0.9 max e^S: fraction of seeds", ratio <= 0.9)
rise = ed.max(axis=1) / ed[:, 0]
claims.check("transformer: peak e^S over e^S at step 0, median over seeds", float(np.median(rise)), seeds=rise,
             evidence="the randomly initialized 48-d embeddings of 31 tokens start near the largest e^S they can have "
                      "(at most 30), so e^S barely rises before generalization and then falls; book scale: 1 layer, "
                      "width 48, learning rates x5, 2,000 steps, 5 seeds; the stored runs with the paper's model "
                      "below test the claim on the paper's 256-d embeddings of 59 tokens")
glue("gen_median", trained(seed_median(gen), 500), display=False)
glue("val_final", trained(float(np.median(h["val_acc"][:, -1])), 0.05), display=False)
glue("ed_drop", trained(float(np.median(ratio)), 0.2), display=False)
glue("ed_start", trained(float(np.median(ed[:, 0])), 1), display=False)
glue("ed_max_rise", f"{effective_dimension_ceiling(tcfg.p, tcfg.d_model) / np.median(ed[:, 0]):.2f}x", display=False)

# %% [markdown]
# Validation accuracy crossed 99 % at step {eval}`glued.gen_median` (median of the five seeds, to 500
# steps), long after training accuracy (figure, left); the median seed's last validation accuracy is
# {eval}`glued.val_final` (to 0.05). The effective dimension ends at about {eval}`glued.ed_drop` of its
# maximum (median, to 0.2). Whether the embeddings form Fig. 1's circle differs from seed to seed at
# this size (figure, right, shows the first seed); the verdict on the circle comes from the paper's
# model below, where the stored runs give the same answer on every machine.
#
# ## Figures 1 and 7 (left) with the paper's model and rates, 6,000 steps (stored)
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
tf_parts = [load_stored(stored_transformer(c, "_results"), f"Fig. 1 / Fig. 7 (left) run with the paper's model, "
                         f"seeds {c.seeds}", "python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs transformer",
                         "about 45 minutes on one core per seed") for c in stored_transformer_configs()]
stf = join_transformer_results([part for part, _ in tf_parts])
tf_cfg = stf.config
(tf_first, tf_manifest), = tf_parts[:1]  # the seed-1 part ran alone on one core: its speed prices Fig. 7
glue("tf_minutes", stored_minutes(tf_manifest), display=False)  # after all the parts' provenance lines
glue("tf_n_seeds", f"{tf_cfg.n_seeds}", display=False)
display(stored_transformer_setup_table(tf_cfg))
tf_numbers = [fig1_numbers(stf, run=r) for r in range(tf_cfg.n_seeds)]  # what Figs 1 and 7 (left) say, per seed


def per_seed(key: str) -> np.ndarray:
    return np.array([n[key] for n in tf_numbers])


s_mem, s_gen, s_gap = per_seed("train_step"), per_seed("val_step"), per_seed("gap")
s_circle, s_fourier, s_share = per_seed("circle_fit"), per_seed("fourier_fit"), per_seed("fourier_share")
print(f"p = {tf_cfg.p}, width {tf_cfg.d_model}, {tf_cfg.n_layers} layers, dropout {tf_cfg.dropout:g}, "
      f"{tf_cfg.steps:,} steps")
for seed, n in zip(tf_cfg.seeds, tf_numbers):
    print(f"seed {seed}: train 99 % at step {n['train_step']}, validation 99 % at step {n['val_step']} (-1: never); "
          f"final train / validation accuracy {n['final_train_acc']:.3f} / {n['final_val_acc']:.3f}; "
          f"e^S {n['ed_start']:.1f} at step 0, peak {n['ed_peak']:.1f} at step {n['ed_peak_step']}, "
          f"{n['ed_end']:.1f} at the end; final PC1-PC2 circle fit {n['circle_fit']:.2f}, largest Fourier share "
          f"{n['fourier_share']:.2f}")
fig_tf = plot_transformer(stf)
glue("fig_transformer_stored", fig_tf, display=False)

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
# three seeds on one core), so the next section runs seed 1 for all 20,000.
#
# The claims, bands as fixed above; their kinds (what the run showed) were declared after the runs, which the
# registry records as amendments.

# %% tags=["hide-input"]
PAPER_MODEL = "paper's model and rates, 6,000 steps (stored): "
OLD_DROPOUT = "dropout sweep at the Fig. 1 base (decoder wd 1, decoder lr 1/5 of the embeddings'), book transformer (stored): "
DROPOUT_SCALE = ("the book's transformer (p = 31, 1 layer of width 48, learning rates x5), 3 seeds, 5,000 steps; the "
                 "paper's p = 59 transformer at its rates was not run (30 runs of up to 1e5 steps, priced below)")
STORED_EVIDENCE = {}  # per deviation, written beside the numbers it cites (below)
STORED_WHY = {}  # one line per ledger row, likewise


def glue_fig1(prefix: str, n: dict) -> None:
    """Glue, as ``{prefix}_<name>``, what :func:`fig1_numbers` says about a run (or their medians over seeds)."""
    for name, key in (("mem", "train_step"), ("gen", "val_step"), ("gap", "gap")):
        glue(f"{prefix}_{name}", f"{n[key]:,.0f}", display=False)
    glue(f"{prefix}_final", f"{n['final_val_acc']:.3f}", display=False)
    glue(f"{prefix}_ed0", f"{n['ed_start']:.0f}", display=False)
    glue(f"{prefix}_rise", f"{n['rise'] - 1:.0%}", display=False)
    glue(f"{prefix}_end", f"{n['end_over_peak']:.2f}", display=False)
    glue(f"{prefix}_circle", f"{n['circle_fit']:.2f}", display=False)
    glue(f"{prefix}_fourier", f"{n['fourier_fit']:.2f}", display=False)
    glue(f"{prefix}_share", f"{n['fourier_share']:.0%}", display=False)


def stored_claim(name, ours, *, run):
    """A claim on a stored run (``run``: its manifest): the registry's entry ``name`` says what it compares with;
    a deviation takes its evidence from STORED_EVIDENCE."""
    deviation = claims.registry[name].kind == "deviation"
    return claims.check(name, ours, evidence=STORED_EVIDENCE[name] if deviation else "", live=False, run=run)


# medians over seeds; a first step that was never reached counts as never (seed_median), a gap as the rest of the run
glue_fig1("tf", {key: seed_median(per_seed(key)) if key.endswith("step") else float(np.median(per_seed(key)))
                 for key in tf_numbers[0]})
glue("tf_circle_n", f"{int((s_circle >= 0.9).sum())}", display=False)
STORED_EVIDENCE.update({
    PAPER_MODEL + "final e^S over peak e^S, median over seeds":
        f"e^S falls only to {np.median(per_seed('end_over_peak')):.2f} of its peak by step {tf_cfg.steps:,}, still "
        "falling: the random N(0, 1) init of the 256-d embeddings dominates their variance; 3 seeds, 6,000 of the "
        "paper's 20,000 steps",
    PAPER_MODEL + "peak e^S over e^S at step 0, median over seeds":
        f"e^S rises by {np.median(per_seed('rise')) - 1:.0%} before generalization: it starts at "
        f"{np.median(per_seed('ed_start')):.0f} of at most {tf_cfg.p - 1}, near its ceiling; 3 seeds, 6,000 of 20,000 steps",
    PAPER_MODEL + "PC1-PC2 ordered-circle fit of the final embeddings, median over seeds":
        f"the fit climbs after generalization and ends at {np.median(s_circle):.2f}; the network's frequency is a circle "
        f"(fit {np.median(s_fourier):.2f} in its Fourier plane) carrying {np.median(s_share):.0%} of the variance, the "
        "rest being the untouched random init; 3 seeds, 6,000 of 20,000 steps",
})
STORED_WHY.update({
    "Fig. 7 left": f"the paper's transformer and rates ({tf_cfg.n_seeds} seeds, {tf_cfg.steps:,} of 20,000 steps) fit "
                   f"first and generalize {np.median(s_gap):,.0f} steps later, but e^S barely rises and has fallen only "
                   "slightly by the end",
    "Fig. 1": "after generalizing the embeddings move toward an ordered circle but are not yet one on PC1-PC2 at step "
              f"{tf_cfg.steps:,} of 20,000 (median fit {np.median(s_circle):.2f}, {int((s_circle >= 0.9).sum())} of "
              f"{tf_cfg.n_seeds} seeds above 0.9); † : the stored runs predate sealed claims",
})
# The joined run has two stored parts (seed 1; seeds 2 and 3): a claim on the median over seeds names both.
tf_manifests = [m for _, m in tf_parts]
stored_claim(PAPER_MODEL + "validation accuracy reaches 99%: fraction of seeds", float(np.mean(s_gen >= 0)),
             run=tf_manifests)
stored_claim(PAPER_MODEL + "val 99% step minus train 99% step, median over seeds", float(np.median(s_gap)),
             run=tf_manifests)
stored_claim(PAPER_MODEL + "final e^S over peak e^S, median over seeds",
             float(np.median(per_seed('end_over_peak'))), run=tf_manifests)
stored_claim(PAPER_MODEL + "peak e^S over e^S at step 0, median over seeds",
             float(np.median(per_seed('rise'))), run=tf_manifests)
_ = stored_claim(PAPER_MODEL + "PC1-PC2 ordered-circle fit of the final embeddings, median over seeds",
                 float(np.median(s_circle)), run=tf_manifests)

# %% [markdown]
# ## Figures 1 and 7 (left) with the paper's model for all 20,000 steps (stored)
#
# `full_transformer_config()` is the official Fig. 1 run for the paper's whole budget: seed 1, the model and
# rates above, float32, 20,000 full-batch steps. The embeddings are kept every 500 steps (the official script
# plots steps 0, 1,000 and 20,000) and $e^S$ at every logged step. It took {eval}`glued.full_minutes` minutes on
# one core in {eval}`glued.full_segments` sittings (a run resumes from its checkpoint bit for bit);
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs transformer-20k`
# recomputes it. Its six claims were registered and sealed before it started: the step at which validation
# accuracy reaches 100 %, against the step of about 3,700 that a coauthor reports for this run (a factor of 2
# either way); Table 1's gap of $10^3$ steps; perfect generalization at the end (within 1 %); the clean circle
# of the 6,000-step claims (a PC1–PC2 fit of at least 0.9); and $e^S$ rising by 10 % and then falling by 10 %,
# the rise registered as a deviation because the first 6,000 steps of the same seed had shown less. It is one
# seed: the section above shows how much three seeds differ.

# %%
full_cfg = full_transformer_config()
ftf, full_manifest = load_stored(stored_transformer(full_cfg, "_results", label="transformer-20k"),
                                 "Fig. 1 run with the paper's model, all 20,000 steps",
                                 "python -m repro.experiments.liu2022_transformer_and_images --store book/_results "
                                 "--runs transformer-20k", "about 3 hours on one core", glue_minutes="full_minutes")
glue("full_segments", f"{len(full_manifest['segments'])}", display=False)
display(full_transformer_setup_table(full_cfg))
fn = fig1_numbers(ftf)
print(f"seed {full_cfg.first_seed}: train 99 % at step {fn['train_step']:,}, validation 99 % at step {fn['val_step']:,}, "
      f"validation 100 % at step {fn['val_100_step']:,} (-1: never); gap {fn['gap']:,} steps")
print(f"final train / validation accuracy {fn['final_train_acc']:.3f} / {fn['final_val_acc']:.3f}")
print(f"e^S {fn['ed_start']:.1f} at step 0, peak {fn['ed_peak']:.1f} at step {fn['ed_peak_step']:,}, "
      f"{fn['ed_end']:.1f} at step {full_cfg.steps:,}")
print(f"PC1-PC2 circle fit at step {full_cfg.steps:,}: {fn['circle_fit']:.2f}; the strongest Fourier frequency's "
      f"circle fit {fn['fourier_fit']:.2f}, carrying {fn['fourier_share']:.0%} of the variance")
# the circle over the run: PC1-PC2 fit and strongest frequency (k and p - k are one circle) at each snapshot
snap = np.asarray(ftf.embedding_steps)
fits = np.array([ftf.circle_fit(0, i)[1] for i in range(snap.size)])
freqs = np.array([min(k, full_cfg.p - k) for k, _ in (ftf.fourier_circle_fit(0, i) for i in range(snap.size))])
print("step, PC1-PC2 circle fit, strongest frequency:",
      "; ".join(f"{s:,} {f:.2f} {k}" for s, f, k in zip(snap[::4], fits[::4], freqs[::4])))
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
# Fig. 7 (left) for the same run: accuracies and the effective dimension $e^S$ of the embeddings, with the 99 %
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
# 14,000 steps beyond the runs above give what 6,000 could not: the drop of $e^S$ passes the registered 10 %, and
# the final embeddings lie on an ordered circle on PC1–PC2 (fit {eval}`glued.full_circle`, the registered line
# being 0.9). That circle is not a steady end state, though. The network uses one frequency from generalization
# on ({eval}`glued.full_freqs`), an almost perfect circle in its own plane (fit {eval}`glued.full_fourier` at the
# end) that carries only {eval}`glued.full_share` of the embeddings' variance by step 20,000; the rest is what
# remains of the random initialization. So what PC1–PC2 show drifts: the fit was {eval}`glued.full_circle_6k`
# at step 6,000, fell to {eval}`glued.full_circle_min` at step {eval}`glued.full_circle_min_step` and rose
# again by the end. With one seed, the circle claim passes by less than these swings. The rise of $e^S$ before
# generalization stays as small as registered (a deviation).

# %%
FULL = "paper's model and rates, 20,000 steps, seed 1 (stored): "
after = snap >= fn["val_step"]
i_min = int(np.argmin(np.where(after, fits, np.inf)))
glue_fig1("full", fn)
for key, value in {"full_val100": fn["val_100_step"], "full_edpeak_step": fn["ed_peak_step"],
                   "full_circle_min_step": snap[i_min]}.items():
    glue(key, f"{value:,}", display=False)
glue("full_circle_6k", f"{fits[snap == 6000][0]:.2f}", display=False)
glue("full_circle_min", f"{fits[i_min]:.2f}", display=False)
glue("full_freqs", "frequency " + " and ".join(str(k) for k in np.unique(freqs[after])) + f" of {full_cfg.p}",
     display=False)
STORED_EVIDENCE.update({
    FULL + "peak e^S over e^S at step 0":
        f"e^S starts at {fn['ed_start']:.1f} of at most {full_cfg.p - 1} and peaks at {fn['ed_peak']:.1f} at step "
        f"{fn['ed_peak_step']:,}: the random N(0, 1) 256-d init leaves little room to rise (at most "
        f"{(full_cfg.p - 1) / fn['ed_start']:.3f}x, so the band asks for 99 % of the ceiling); seed 1, 20,000 steps",
})
stored_claim(FULL + "log10 of the step of 100% validation accuracy",
             float(np.log10(fn["val_100_step"])) if fn["val_100_step"] > 0 else float("inf"), run=full_manifest)
stored_claim(FULL + "val 99% step minus train 99% step", float(fn["gap"]), run=full_manifest)
stored_claim(FULL + "validation accuracy at step 20,000", fn["final_val_acc"], run=full_manifest)
stored_claim(FULL + "PC1-PC2 ordered-circle fit at step 20,000", fn["circle_fit"], run=full_manifest)
stored_claim(FULL + "e^S at step 20,000 over peak e^S", fn["end_over_peak"], run=full_manifest)
_ = stored_claim(FULL + "peak e^S over e^S at step 0", fn["rise"], run=full_manifest)
STORED_WHY.update({
    "Fig. 1 (20,000 steps)": f"seed 1 reaches 100 % validation accuracy at step {fn['val_100_step']:,} (a coauthor reports "
                             f"about 3,700), ends at {fn['final_val_acc']:.3f}, and its final embeddings' PC1-PC2 circle "
                             f"fit is {fn['circle_fit']:.2f} (0.9: a clean circle) after swinging down to "
                             f"{fits[i_min]:.2f} since generalizing; Fig. 1 is this one run",
    "Fig. 7 left (20,000 steps)": f"seed 1 generalizes {fn['gap']:,} steps after fitting; e^S rises by "
                                  f"{fn['rise'] - 1:.0%} to step {fn['ed_peak_step']:,} and ends at "
                                  f"{fn['end_over_peak']:.2f} of its peak; one seed of Fig. 7's 100",
})

# %% [markdown]
# ### How high $e^S$ can rise, and the two ways to read it
#
# $e^S$ counts how many directions the token embeddings spread over, and it can never exceed the rank of the
# centred $p \times d$ embedding matrix, $\min(p - 1, d)$: 58 for 59 tokens in 256 dimensions (all 58 variances
# equal). A random N(0, 1) start already fills most of that, and the registered 10 % rise asks for almost all of
# the rest. Our runs log $e^S$ after standardizing each token's row, as the official Fig. 1 script does before
# its PCA; the official Fig. 7 notebook (`plotting_nbs/EntropyAndTraining.ipynb`) takes sklearn's PCA of the raw
# embeddings. Both readings on the stored embeddings (kept every 500 steps):

# %%
ceiling = effective_dimension_ceiling(full_cfg.p, full_cfg.d_model)
print(f"ceiling min(p - 1, d) = {ceiling}; logged (standardized) e^S at step 0: {fn['ed_start']:.2f}, so the rise is "
      f"at most {ceiling / fn['ed_start']:.3f}; a rise of 10 % needs e^S >= {1.1 * fn['ed_start']:.2f} of {ceiling}")
readings = {"20,000-step run, seed 1": effective_dimension_readings(ftf)}
readings.update({f"6,000-step run, seed {s}": effective_dimension_readings(stf, i) for i, s in enumerate(tf_cfg.seeds)})
for what, r in readings.items():
    print(f"{what}: plain PCA (official Fig. 7) e^S {r['plain'][0]:.2f} at step 0, rise {r['plain_rise']:.3f} "
          f"(at most {r['plain_max_rise']:.3f}), end / peak {r['plain_end']:.3f}; standardized rise "
          f"{r['standardized_rise']:.3f} (at most {r['standardized_max_rise']:.3f}), end / peak {r['standardized_end']:.3f}")
r20 = readings["20,000-step run, seed 1"]
for key, val in {"es_ceiling": f"{ceiling}", "es_need": f"{1.1 * fn['ed_start']:.1f}",
                 "es_max_rise": f"{ceiling / fn['ed_start']:.3f}", "es_plain_rise": f"{r20['plain_rise']:.3f}",
                 "es_std_rise": f"{r20['standardized_rise']:.3f}", "es_plain_end": f"{r20['plain_end']:.2f}",
                 "es_std_end": f"{r20['standardized_end']:.2f}"}.items():
    glue(key, val, display=False)

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
# settings, and the setup tables below compare with them.
#
# ### On the official sweep's base, reduced (stored)
#
# At the official size the sweep is 30 runs of up to $10^5$ steps, far beyond a CPU (see the cost table
# below). `official_base_dropout_config()` keeps the sweep's base (equal learning rates, no decoder weight
# decay, embedding weight decay 0.01, feed-forward width equal to the model width) and shrinks the rest to
# fit ten CPU-minutes: the book's transformer ($p = 31$, one layer of width 48), both learning rates ×5
# ($5\cdot10^{-3}$, the book's time compression), four of the ten rates (0, 1/6, 1/3, 1/2), two fresh seeds
# (11, 12) and 6,000 steps, 30,000 at the official rates ({eval}`glued.odrop_minutes` minutes on one core;
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs dropout-official-base`
# recomputes it). Its two claims were registered and sealed before it started; an exploratory pilot
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
o_cfg = official_base_dropout_config()
odrop, odrop_manifest = load_stored(stored_dropout(o_cfg, "_results", label="dropout-official-base"),
                                    "Fig. 7 (centre) on the official sweep's base, reduced",
                                    "python -m repro.experiments.liu2022_transformer_and_images --store book/_results "
                                    "--runs dropout-official-base", "about 8 minutes on one core",
                                    glue_minutes="odrop_minutes")
display(official_dropout_setup_table(o_cfg))
on = dropout_sweep_numbers(odrop)
o_final = odrop.history["val_acc"][:, -1].reshape(len(o_cfg.dropout_values), -1)
for rate, tr, va, fin in zip(o_cfg.dropout_values, on["train_steps"], on["val_steps"], o_final):
    print(f"  dropout {rate:.2f}: steps to 99 % train {' '.join(f'{int(x):>5}' for x in tr)}, validation "
          f"{' '.join(f'{int(x):>5}' for x in va)} (-1: never); validation accuracy at step "
          f"{o_cfg.dropout_steps:,}: {' '.join(f'{x:.2f}' for x in fin)}")
print(f"best rate {on['best_rate']:.2f}: per seed, time ratio {', '.join(f'{x:.2f}' for x in on['time_ratio'])}; "
      f"gap ratio {', '.join(f'{x:.2f}' for x in on['gap_ratio'])}")
glue("fig_dropout_official", plot_dropout_sweep(odrop), display=False)
for key, val in {"odrop_best": f"{on['best_rate']:.2f}", "odrop_final0": f"{np.median(o_final[0]):.2f}",
                 "odrop_final_best": f"{np.median(o_final[on['best']]):.2f}",
                 "odrop_gap": f"{np.median(on['gap_ratio']):.2f}"}.items():
    glue(key, val, display=False)
OFFICIAL = "dropout sweep at the official base (equal lrs, no decoder wd), reduced (stored): "
ODROP_EVIDENCE = (f"no run reaches 99 % validation accuracy within {o_cfg.dropout_steps:,} steps; at the best rate "
                  f"{on['best_rate']:.2f} validation ends at {np.median(o_final[on['best']]):.2f}, without dropout at "
                  f"{np.median(o_final[0]):.2f}; reduced: p = {o_cfg.p}, 1 layer of width {o_cfg.d_model}, lrs x5, "
                  f"{len(o_cfg.dropout_values)} rates, {len(o_cfg.dropout_seeds)} seeds")
for name, key in (("steps to val 99% at the best rate over those without dropout", "time_ratio"),
                  ("train-to-validation gap at the best rate over that without dropout", "gap_ratio")):
    _ = claims.check(OFFICIAL + name + ", median over seeds", float(np.median(on[key])), seeds=on[key],
                     statistic="median", live=False, run=odrop_manifest, evidence=ODROP_EVIDENCE)

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
# (centre) says needs the sweep at its size (priced below).
#
# ### On the Fig. 1 base (context, stored)
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

# %%
d_cfg = stored_dropout_config()
sdrop, drop_manifest = load_stored(stored_dropout(d_cfg, "_results"), "Fig. 7 (centre) dropout sweep",
                                   "python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs dropout",
                                   "about 45 minutes on two cores", glue_minutes="drop_minutes")
display(fig1_base_dropout_setup_table(d_cfg))
d_train, d_val = sdrop.steps_to("train_acc"), sdrop.steps_to("val_acc")
print(f"{len(d_cfg.dropout_values)} dropout rates x seeds {list(d_cfg.dropout_seeds)}, {d_cfg.dropout_steps:,} steps; "
      "steps to 99 % (train / validation, -1: never):")
for rate, tr, va in zip(d_cfg.dropout_values, d_train, d_val):
    print(f"  dropout {rate:.2f}: train {' '.join(f'{int(x):>5}' for x in tr)}   validation {' '.join(f'{int(x):>5}' for x in va)}")
med_val = sdrop.median_steps_to("val_acc")
best = 1 + int(np.argmin(med_val[1:]))  # the best positive rate
speedup = 0.0 if np.isinf(med_val[0]) and np.isfinite(med_val[best]) else float(med_val[best] / med_val[0])
gaps = np.where((d_train[best] >= 0) & (d_val[best] >= 0), d_val[best] - d_train[best], np.inf)
best_gap = float(np.median(gaps))
print(f"best rate {d_cfg.dropout_values[best]:.2f}: median steps to 99 % validation {med_val[best]:g} "
      f"(dropout 0: {med_val[0]:g}); median train-to-validation gap there {best_gap:g} steps")
fig_drop = plot_dropout_sweep(sdrop)
glue("fig_dropout", fig_drop, display=False)
never = [rate for rate, va in zip(d_cfg.dropout_values, d_val) if (va < 0).all()]
STORED_EVIDENCE.update({
    OLD_DROPOUT + "median steps to val 99% at the best rate over that without dropout":
        f"the best rate ({d_cfg.dropout_values[best]:.2f}) takes {med_val[best] / med_val[0]:.2f} of the median time "
        "without dropout to reach 99 % validation accuracy; higher rates slow the fit, and from rate "
        f"{min(never, default=float('nan')):.2f} no seed reaches 99 % validation accuracy within the run; " + DROPOUT_SCALE,
    OLD_DROPOUT + "median train-to-validation gap at the best rate":
        f"at the best rate validation reaches 99 % a median {best_gap:,.0f} steps after training does: the delay "
        "shrinks little and does not vanish; " + DROPOUT_SCALE,
})
STORED_WHY["Fig. 7 centre"] = (
    "on the Fig. 1 base (not the official sweep's), over the ten rates and three seeds with the book's transformer, "
    "the best rate reaches "
    f"99 % validation in {med_val[best] / med_val[0]:.2f} of the time without dropout and the delay stays; strong "
    "dropout stops generalization; † : the stored run predates sealed claims")
glue("drop_best", f"{d_cfg.dropout_values[best]:.2f}", display=False)
glue("drop_ratio", f"{med_val[best] / med_val[0]:.2f}", display=False)
glue("drop_gap", f"{best_gap:,.0f}", display=False)
glue("drop_never", f"{min(never, default=float('nan')):.2f}", display=False)
# a median of runs that never generalize is unknown but beyond the run: bound the ratio and the gap by the budget
if np.isfinite(med_val[0]):
    speedup = float(med_val[best] / med_val[0])
else:
    speedup = float(min(med_val[best], d_cfg.dropout_steps) / d_cfg.dropout_steps)  # an upper bound
stored_claim(OLD_DROPOUT + "median steps to val 99% at the best rate over that without dropout", speedup,
             run=drop_manifest)
_ = stored_claim(OLD_DROPOUT + "median train-to-validation gap at the best rate",
                 float(min(best_gap, d_cfg.dropout_steps)), run=drop_manifest)

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
# ## What the paper's Fig. 7 would cost here
#
# The stored run above measured the speed of the paper's transformer on this book's machine: seed 1's
# wall time over its steps (one core, evaluations included, while other runs shared the machine, so
# an idle core is somewhat faster). At that speed, each panel of Fig. 7 at the paper's settings
# (`TransformerGrokConfig()`; no early stopping, so an upper bound) would take. Fig. 7 (centre) is priced at
# this model's speed: the official sweep's model (`official_dropout_reference()`) has 19 % fewer pairs ($p = 53$)
# and twice the feed-forward width, so its cost per step is of the same order, not measured.

# %%
paper_tf = TransformerGrokConfig()
sec_per_run_step = tf_manifest["wall_time_s"] / (tf_first.config.steps * tf_first.config.n_seeds)
print(f"measured: {sec_per_run_step:.2f} s per run-step of the p = {tf_cfg.p} transformer on one core")
for panel, hours in projected_cpu_hours(paper_tf, sec_per_run_step).items():
    print(f"  {panel}: {hours:,.0f} CPU-hours")

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
display(image_grid_setup_table(icfg))
images = run_image_phase_diagram(icfg)
print(f"{icfg.label}: alpha {icfg.alpha:g}, {icfg.n_train} training images, {icfg.steps:,} steps, batch {icfg.batch_size}")
print("last-layer lr:", ", ".join(f"{lr:.1e}" for lr in icfg.lr_dec_values))
print("weight decay: ", ", ".join(f"{w:g}" for w in icfg.wd_values))
print(f"init seeds {icfg.seeds}: {images.history['train_acc'].shape[0]} runs")

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

# %% tags=["hide-input"]
wds = np.asarray(icfg.wd_values)
top_wd = int(np.argmax(wds))
seed_maps = images.seed_phases  # (seeds, wd, lr)
holds_in_seeds("images: a memorization -> grokking -> comprehension column as wd grows: fraction of seeds",
               [sandwich_columns(p, -wds) >= 1 for p in seed_maps])
holds_in_seeds("images: largest weight decay at least half comprehension: fraction of seeds",
               [(p[top_wd] == "comprehension").mean() >= 0.5 for p in seed_maps])
budget = (f"substitute dataset (8x8 digits, 1,000 training images) and {icfg.steps:,} steps, 3 % of the paper's "
          "1e5; one seed per cell; MNIST at the paper's budget was not run")
holds_in_seeds("images: low-wd, low-lr block at least half memorization: fraction of seeds",
               [corner_fraction(p, wds, "memorization", "top_left") >= 0.5 for p in seed_maps],
               evidence="at weight decay <= 0.03 and last-layer lr <= 1e-3 the alpha = 8 network does not reach 90 % "
                        "training accuracy within the budget (confusion), where the paper's 1e5 steps fit it; "
                        + budget)
holds_in_seeds("images: high-wd, high-lr block at least 1/6 confusion: fraction of seeds",
               [corner_fraction(p, wds, "confusion", "bottom_right") >= 1 / 6 - 1e-9 for p in seed_maps],
               evidence="every cell at weight decay >= 0.3 and last-layer lr >= 1e-3 generalizes (comprehension); our "
                        "largest weight decay is 1 and the paper's grid is not given, so its confusion may lie beyond "
                        "our grid; " + budget)
runs = images.curve_runs()
fit_step = images.history.first_step("train_acc", icfg.train_threshold)[runs]
val_step = images.history.first_step("val_acc", icfg.val_threshold)[runs]
gap = np.where((fit_step >= 0) & (val_step >= 0), val_step - fit_step, -1)  # -1: no delay to speak of
_ = claims.check("images: Fig. 8a cell, val 60% step minus train 90% step, median over seeds", float(np.median(gap)),
                 seeds=gap,
                 evidence=f"the cell shown (last-layer lr {icfg.curve_lr_dec:.1e}, wd {icfg.curve_wd:g}) fits its training "
                          "set slowly and generalizes right after; at the paper's lr 1e-3 and wd 0.01 the digits need "
                          "far more than 3,000 steps (an exploratory longer run, not repeated here, saw test accuracy "
                          "still climbing after 1e4 steps), so the book cannot show that cell; " + budget)

# %% [markdown]
# ### Fig. 8(a) at the paper's rates (stored)
#
# The live cell runs at raised rates because the paper's do not fit in 3,000 steps. The stored run
# `stored_curve_config()` trains the paper's cell itself on the same substitute digits: last-layer learning
# rate $10^{-3}$ and weight decay 0.01 (the Omnigrok notebook's), $\alpha = 8$, batch 200, five
# initializations, 50,000 steps, half the paper's budget ({eval}`glued.img_minutes` minutes on one core;
# `python -m repro.experiments.liu2022_transformer_and_images --store book/_results` recomputes it). The criterion is the one above,
# fixed before this run: Table 1's grokking gap of $10^3$ steps between 90 % training and 60 % validation
# accuracy (App. J's threshold).

# %% tags=["hide-input"]
img_cfg = stored_curve_config()
simg, img_manifest = load_stored(stored_images(img_cfg, "_results"), "Fig. 8(a) run",
                                 "python -m repro.experiments.liu2022_transformer_and_images --store book/_results --runs images",
                                 "a few minutes on one core", glue_minutes="img_minutes")
display(stored_image_setup_table(img_cfg))
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
                 float(np.median(s_gap)), live=False, run=img_manifest)
_ = claims.check("images (stored, paper's rates): seeds in the grokking phase (Table 1), fraction",
                 float(np.mean(simg.seed_phases.ravel() == "grokking")), live=False, run=img_manifest)

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
# transformer phase diagram was not run: it is priced above. On the substitute digits the
# phase diagram has grokking between memorization and comprehension, as in the paper, but its corners
# differ. The grokking curve of Fig. 8(a) shows no delay at the book's raised rates, but the stored run at the
# paper's rates groks.

# %% tags=["hide-input", "hide-output"]
claims.figure("liu2022", "Fig. 7 left", scale="book",
              claims=["transformer: validation accuracy reaches 99%: fraction of seeds",
                      "transformer: val 99% at least 200 steps after train 99%: fraction of generalizing seeds",
                      "transformer: final e^S <= 0.9 max e^S: fraction of seeds",
                      "transformer: peak e^S over e^S at step 0, median over seeds"],
              why="the official architecture made small (p = 31, width 48, lr x5, 5 seeds) fits first, generalizes "
                  "later and its e^S falls after generalizing; e^S barely rises first")

# The stored runs' verdicts are the ones their claims support. The 6,000-step runs predate sealed claims (†);
# the 20,000-step run's claims were sealed before it started.
short = claims.named(PAPER_MODEL)
claims.figure("liu2022", "Figs 1 and 7 left (paper's model, 3 seeds, 6,000 steps)",
              scale="paper (CPU, stored)", claims=short, why=STORED_WHY["Fig. 7 left"] + "; " + STORED_WHY["Fig. 1"])
full_fig1 = [FULL + n for n in ("log10 of the step of 100% validation accuracy", "validation accuracy at step 20,000",
                                "PC1-PC2 ordered-circle fit at step 20,000")]
full_fig7 = [FULL + n for n in ("val 99% step minus train 99% step", "e^S at step 20,000 over peak e^S",
                                "peak e^S over e^S at step 0")]
claims.figure("liu2022", "Fig. 1 (paper's model, 20,000 steps)", scale="paper (CPU, stored)",
              claims=full_fig1, why=STORED_WHY["Fig. 1 (20,000 steps)"])
claims.figure("liu2022", "Fig. 7 left (paper's model, 20,000 steps, seed 1)",
              scale="paper (CPU, stored)", claims=full_fig7, why=STORED_WHY["Fig. 7 left (20,000 steps)"])
claims.figure_from("liu2022", "Fig. 7 centre (official sweep's base, reduced)", OFFICIAL, scale="book",
                   why=f"equal learning rates, no decoder weight decay (the official sweep's base) on the book's transformer, "
                       f"{len(o_cfg.dropout_values)} rates x {len(o_cfg.dropout_seeds)} seeds, {o_cfg.dropout_steps:,} "
                       f"steps: dropout lifts final validation accuracy from {np.median(o_final[0]):.2f} to "
                       f"{np.median(o_final[on['best']]):.2f} but no run reaches 99 %, so neither the time nor the gap falls")
claims.figure_from("liu2022", "Fig. 7 centre (Fig. 1 base, context)", OLD_DROPOUT, scale="book",
                   why=STORED_WHY["Fig. 7 centre"])
hours = projected_cpu_hours(paper_tf, sec_per_run_step)
claims.figure("liu2022", "Fig. 7 right", scale="book",
              why=f"285 runs (15 decoder lr x 19 decoder wd) of up to 1e5 steps of the p = 59 transformer: about "
                  f"{hours['Fig. 7 right']:,.0f} CPU-hours at the stored run's speed; run_transformer_phase_diagram "
                  "runs it at REPRO_SCALE=paper, not run for this edition")
fig8a = ["images (stored, paper's rates): val 60% step minus train 90% step, median over seeds",
         "images (stored, paper's rates): seeds in the grokking phase (Table 1), fraction"]
claims.figure("liu2022", "Fig. 8a", scale="paper (CPU, stored)", claims=fig8a,
              why=f"at the paper's cell (lr 1e-3, wd 0.01, alpha 8) on the substitute 8x8 digits, {img_cfg.steps:,} steps, "
                  f"{img_cfg.n_seeds} seeds: validation reaches 60 % {int(np.median(s_gap)):,} steps after training "
                  "reaches 90 % (median), grokking by Table 1's definition (a threshold claim); † : the stored run "
                  "predates sealed claims; the live book cell at raised rates shows no delay (a deviation of that "
                  "stand-in); MNIST itself was not run")
claims.figure("liu2022", "Fig. 8b", scale="book",
              claims=["images: a memorization -> grokking -> comprehension column as wd grows: fraction of seeds",
                      "images: largest weight decay at least half comprehension: fraction of seeds",
                      "images: low-wd, low-lr block at least half memorization: fraction of seeds",
                      "images: high-wd, high-lr block at least 1/6 confusion: fraction of seeds"],
              why="grokking sits between memorization and comprehension and strong decay comprehends, as in the paper; "
                  "the low-decay corner is confused instead of memorizing and there is no confusion at high lr and decay")
glue("ledger_tally", claims.tally(), display=False)

# %% tags=["hide-input", "hide-output"]
claims.ledger()

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
#   100 seeds of 20,000 (the cost table above says why).
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
#   (30 runs of up to $10^5$ steps) is priced above.
# - **Images: a substitute dataset and a short budget.** The 8×8 digits are easier and smaller than
#   MNIST, and 3,000 steps are 3 % of the paper's budget. At weight decay 0 the $\alpha = 8$ network
#   does not even reach 90 % training accuracy in time at small learning rates (confusion), whereas
#   the paper sees memorization there after $10^5$ steps. At the paper's lr $10^{-3}$ and wd 0.01
#   the delayed generalization needs far more than our 3,000 steps on digits, so panel (a) shows the
#   grid's cell at last-layer lr $10^{-2.5}$, wd 0.1 instead, and there the delay is gone. The paper's
#   confusion at high learning rate *and* high decay does not appear in our grid.

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
# # Omnigrok: grokking as a weight-norm story (the LU mechanism)
#
# **The claim** (Liu, Michaud & Tegmark, *Omnigrok: Grokking Beyond Algorithmic Data*, ICLR 2023, as
# presented in Z. Liu's 2023 talk; [arXiv 2210.01117](https://arxiv.org/abs/2210.01117), official code
# [KindXiaoming/Omnigrok](https://github.com/KindXiaoming/Omnigrok)). Restrict the training loss to a sphere of fixed weight norm
# $\|\theta\|_2 = w$ and minimize it there. The resulting *reduced* training loss
# $\tilde\ell_{\rm train}(w)$ is **L-shaped** (high below a critical norm $w_c$, about zero above it),
# while the reduced test loss $\tilde\ell_{\rm test}(w)$ is **U-shaped**, lowest in a "Goldilocks" shell
# near $w_c$. A network initialized at a large norm fits the training data at once, then generalizes
# only when weight decay has shrunk it back to $w_c$. Above $w_c$ the loss gradient vanishes, so
# $dw/dt = -\gamma w - \partial\tilde\ell_{\rm train}/\partial w$ becomes $dw/dt=-\gamma w$ and the time to
# grok is $t \approx \ln(w_0/w_c)/\gamma \propto 1/\gamma$. Holding the norm at a good value removes the delay.

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Liu, Michaud & Tegmark 2023, Fig. 7 (ours)](#fig-omnigrok-mod).
#
# **Liu, Michaud & Tegmark 2023 (Omnigrok), claim by claim** — 17 paper claims: 4 reproduced, 0 not reproduced (rate 4/4); 7 inconclusive, 6 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ✅ reproduced | T57: -0.9 vs paper -1 ± 0.2 | “$$\frac{dw}{dt} = -\gamma w$$ … $$t(w_0 \rightarrow w_c) = \log\left(\frac{w_0}{w_c}\right) / \gamma \propto \gamma^{-1}$$” | Fig. 1b, Fig. 2c |
# | **C2** | ⏳ not tested | no comparison tests the stated direction: T23 (book scale, live, †) and T47 (stored, the notebook's training … | “In Section 5, we argue for algorithmic datasets because (shown in Figure 6(d)) … w_{c}({\rm bad\ representation})>w_{c}({\rm good\ representation}) …” | Eq. 2, Fig. 6d |
# | **C3** | ✅ reproduced | T53: 5.00 vs official code 5.09 ± 0.5 | “As shown in Figure 2(a), $\tilde{l}_{\rm test}(\alpha)$ first decreases and then increases as $\alpha$ increases, displaying a U-shape with a minimum …” | Fig. 2a |
# | **C4** | ❔ inconclusive | T56: -2.25 vs official code -2.854 ± 0.5 | “By contrast, $\tilde{l}_{\rm train}(\alpha)$ decreases when $\alpha<1$ and remains flat near zero when $\alpha\geq 1$, forming an L-shape.” | Fig. 2a |
# | **C5** | ❔ inconclusive | T59: 0.00 vs paper <= 0 | “Large initialization runs (top) depended on weight decay: no regularization fails to generalize, small regularization generalizes slowly (grokking) …” | Fig. 2b |
# | **C6** | ✅ reproduced | T70: 0 vs paper 0 ± 100 | “As shown in Figure 2(b) (bottom), small initialization runs always generalize fast regardless of regularization.” | Fig. 2b |
# | **C7** | ⏳ not tested | no registered comparison: the chapter states it in a figure caption (book scale) and plots it for the stored … | “As shown in Figure 2(c), the time (number of steps) to reach 95% training accuracy is independent of weight decay $\gamma$” | Fig. 2c |
# | **C8** | ⏳ not tested | MNIST, IMDb and QM9 are downloads not available here; the 8x8-digits substitute (Fig. 3) is shown without a … | “But on standard datasets we induce grokking by manually increasing initialisation scale.” | Fig. 3, Fig. 4, Fig. 5 |
# | **C9** | ❔ inconclusive | T50: 0.00 vs paper <= 0.02 | “(a) Training loss splits the plane into two regions: large loss small $w$ (fast dynamics) and small loss large $w$ (slow dynamics).” | Fig. 6a |
# | **C10** | ⏳ not tested | no comparison of the stated contrast: T24/T48 (best test loss at m = 0.2 at least 2x that at m = 0) and … | “Moreover, while the training loss depends weakly on $m$, the test loss depends strongly on $m$.” | Fig. 6a, Fig. 6b |
# | **C11** | ⏳ not tested | the grokking time along the path is not run; the γ arrow is tested only in the teacher-student toy (T57); the … | “$$t = \frac{L + h \tan \theta}{\gamma}$$ … \nearrow data size $\uparrow \rightarrow \theta \downarrow \rightarrow t \downarrow$ \searrow …” | Fig. 6f |
# | **C12** | ❔ inconclusive | T39: 0.85 vs official code 0.71 ± 0.08 | “(a) Weight norm, train accuracy, and test accuracy over time, initialized and trained normally. Weight norm first increases, and is highest during …” | Fig. 7a |
# | **C13** | ✅ reproduced | T40: 2.18 vs official code 2.16 ± 0.25 | “For algorithmic datasets, standard initialisation is sufficient to produce grokking.” | Fig. 7a |
# | **C14** | ❔ inconclusive | T77 †: -0.14 vs paper >= 0 | “In Figure 6(e), we show the contours (training loss = 0.02) for different training sizes (25, 35, 45, 55). The contours of training size 45 and 55 …” | Fig. 6e |
# | **C15** | ❔ inconclusive | T44: 2.68 vs official code 2.41 ± 0.25 | “(b) Constrained optimization at constant weight norm $(\alpha=0.8)$ largely eliminates grokking, with test and train accuracy improving concurrently.” | Fig. 7b |
# | **C16** | ⏳ not tested | not implemented: the MNIST (w, m) landscape needs MNIST | “(1) The training and test losses behave similarly; (2) Both training and test losses depend very weakly on $m$. This implies that the raw image …” | Fig. 8 |
# | **C17** | ❔ inconclusive | T44: 2.68 vs official code 2.41 ± 0.25 | “2. Since we can induce grokking on standard datasets, we you remove grokking from algorithmic datasets? … Remove grokking by small & constrained scale” | Fig. 7b |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What we test** (book scale, a few minutes on a CPU): the reduced landscape of the teacher–student
# toy (Omnigrok Fig. 2a); teacher–student grokking with a large initialization and the $1/\gamma$ law
# (Fig. 2b, c), and both again at the official settings from a stored run, with the time law itself; the landscape and grokking of an image MLP initialized at $\alpha = 8$ (Fig. 3) on an
# offline **substitute dataset** (scikit-learn's 8×8 digits, not MNIST), shown without a claim; and the
# weight norm during grokking of modular addition, free and held fixed (Fig. 7), on a **stand-in
# model** (the opening chapter's embeddings + MLP on $p = 31$), where holding the norm fixed does *not*
# remove the delay: a deviation, recorded as such; beside it, the talk's own model, Nanda's one-layer
# transformer, with the official notebook's optimizer and split fraction but at $p = 59$ and with another
# initialization (TransformerLens' std $0.8/\sqrt{d_{\rm model}}$ everywhere, plus trained zero biases), stored
# (section 4b, in the Evidence section); and the two-dimensional (norm, representation messiness) landscape of the backup slides
# (Fig. 6), with ReLU and a constant learning rate where the official notebook uses LeakyReLU and a decayed one.
# Each experiment prints its setup beside the paper's and the official code's, every difference with its reason.
#
# **What we leave out.** IMDb and QM9 (Figs. 4, 5: downloads), the MNIST (norm, messiness) landscape of
# the backup slides (Fig. 8), the data-size axis of the MNIST landscape, the time law
# $t = (L + h\tan\theta)/\gamma$ of the backup slide "Algorithmic: data size/weight decay dependence" as a run
# along its path (its angle $\theta$ over four data sizes is measured, stored, in section 5c), and, live, the transformer at the talk's $p = 113$ with the official initialization: the paper-scale setting of the
# same code (`REPRO_SCALE=paper`) needs hours of two CPU cores per seed (the README's paper-scale table), so the
# stored runs of section 4b use $p = 59$, and they were trained before the difference of initialization was
# found; section 4c shows stored runs at $p = 113$ with the notebook's initialization.

# %% tags=["hide-input"]
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import matplotlib.pyplot as plt
import numpy as np
from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.book.readouts import liu2023_omnigrok as readout
from repro.book.readouts import liu2023_omnigrok_stored as readout_stored
from repro.book.readouts import liu2023_omnigrok_stored_ts as readout_ts
from repro.core.scale import current_scale
from repro.experiments.liu2023_omnigrok import (ImageConfig, ModularConfig, TeacherStudentConfig, image_landscape,
                                                run_image_grokking, run_modular, run_teacher_student_grokking,
                                                teacher_student_landscape)
from repro.experiments.liu2023_omnigrok_messiness import MessinessConfig, run_messiness
from repro.plotting.liu2023_omnigrok import (legend_above, plot_gamma_scaling, plot_grokking, plot_landscape,
                                             plot_modular)
from repro.plotting.liu2023_omnigrok_messiness import plot_data_size, plot_messiness
from repro.plotting.shared import use_style

use_style()
claims = ClaimBook("liu2023_omnigrok")
print(f"scale: {current_scale()}")

# %% [markdown]
# ## Configuration
#
# Each experiment has a config whose defaults are meant to be the paper's settings (the official Omnigrok
# notebooks, `KindXiaoming/Omnigrok`); `for_scale()` swaps in the book-scale values. Book scale
# shortens training by raising learning rates and weight decays; by the theory this rescales times by
# $1/(\eta\gamma)$ and leaves the shapes alone. The tables below set each experiment beside the paper's and
# the official code's settings, including what the configs do not hold (initializations, optimizers, random
# draws); every difference carries its reason. The stored transformer runs get their own tables in sections 4b and 4c (in the Evidence section).
#
# **Seeds.** Float32 training is chaotic: the last bit of a vectorized kernel (the same code on a CPU
# with other vector instructions) grows into a different trajectory. Every experiment below therefore
# trains five student / network initializations in the same batched call, and every number we print or
# claim is a median over them, rounded to a resolution that their spread justifies (stated at each
# claim).

# %% tags=["hide-input"]
ts_cfg = TeacherStudentConfig.for_scale()
img_cfg = ImageConfig.for_scale()
mod_cfg = ModularConfig.for_scale()
wm_cfg = MessinessConfig.for_scale()
readout.report_setup(ts_cfg=ts_cfg, img_cfg=img_cfg, mod_cfg=mod_cfg, wm_cfg=wm_cfg)

# %% [markdown]
# ## 1. Teacher–student: the reduced landscape
#
# A 5-100-100-5 tanh teacher at PyTorch's default initialization labels 100 training and 100 test
# inputs $x\sim\mathcal N(0, I_5)$. A student of the same shape starts from the default initialization
# times $\alpha$ and trains with Adam while every step is followed by a rescaling back to its initial
# norm (the paper's projected training). One run per $\alpha$ and student seed, all batched together;
# the curves are medians over the seeds.

# %%
ts_land = teacher_student_landscape(ts_cfg)
fig_ts_land, ax = plt.subplots(figsize=(5, 3.6))
plot_landscape(ts_land, ax=ax, title=f"teacher-student, norm held fixed (median of {ts_cfg.n_seeds} seeds)")
for row_tr, row_te in zip(ts_land.seed_train_loss, ts_land.seed_test_loss):  # every seed faintly
    ax.loglog(ts_land.alphas, np.maximum(row_tr, 1e-12), color="C0", alpha=0.25, lw=0.6)
    ax.loglog(ts_land.alphas, row_te, color="C1", alpha=0.25, lw=0.6)
ax.axvline(1.0, color="grey", lw=0.8, ls=":")
glue("fig_ts_land", fig_ts_land, display=False)
plt.close(fig_ts_land)

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_ts_land.png
# **Liu, Michaud & Tegmark 2023, Fig. 2(a) (ours).** Reduced train and test MSE of the student against its norm scale $\alpha$ (log–log; the median over
# seeds thick, every seed faint). Training loss falls by orders of magnitude once $\alpha \gtrsim 0.6$
# (the L); test loss is lowest near $\alpha = 1$, the teacher's own scale, and rises by orders of
# magnitude at large $\alpha$ (the U).
# ```

# %%
# Per-seed statistics (one value per student seed) and their median over seeds (ts_book_statistics: the same
# function reads the stored confirmation with fresh seeds at the end of section 2).
ts_stats = readout.report_ts_landscape(ts_cfg, ts_land)

# %% [markdown]
# ## 2. Teacher–student: grokking and the $1/\gamma$ law
#
# Now the norm is free. A student at $\alpha = 2$ trains with AdamW for a sweep of weight decays
# $\gamma$; two controls have $\gamma = 0$ at $\alpha = 2$ and at $\alpha = 0.5$. "Accuracy" is the fraction of
# samples with MSE below $\theta = 0.01$ (the paper's threshold).

# %%
ts_grok = run_teacher_student_grokking(ts_cfg)
h = ts_grok.history
n_sw = len(ts_cfg.gammas)
fig_ts_grok, axes = plt.subplots(1, 3, figsize=(12.5, 3.6))
for r, ax in zip([n_sw, 0], axes[:2]):
    rr = ts_grok.runs_of(r)
    plot_grokking(h.steps, {"train": h["train_acc"][rr], "test": h["val_acc"][rr]}, norm=h["weight_norm"][rr], ax=ax,
                  title=f"alpha = {ts_grok.alphas[r]:g}, gamma = {ts_grok.gammas[r]:g} ({ts_cfg.n_seeds} seeds)")
plot_gamma_scaling(ts_grok, ax=axes[2], inverse_guide=True)
axes[2].set_title("steps to 95 % accuracy (alpha = 2)")
fig_ts_grok.tight_layout()
legend_above(fig_ts_grok, axes[:2])
glue("fig_ts_grok", fig_ts_grok, display=False)
plt.close(fig_ts_grok)
readout.report_ts_grokking(ts_cfg, ts_grok, ts_stats)  # adds the grokking runs' statistics to ts_stats

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_ts_grok.png
# **Liu, Michaud & Tegmark 2023, Fig. 2(b, c) (ours).** Left: the large student ($\alpha=2$) without weight decay fits the training set at once and never
# generalizes, its norm (dashed, right axis) stays put. Middle: with $\gamma = 0.1$ the norm decays and
# test accuracy follows, late. Right: steps to 95 % train accuracy do not depend on $\gamma$; steps to
# 95 % test accuracy fall as a power law of slope {eval}`glued.ts_slope` (the theory: −1). Thick: median
# over seeds; faint: every seed. Grey dashed: slope −1 (the talk's $t \propto \gamma^{-1}$) through the median
# at the middle $\gamma$.
# ```

# %% [markdown]
# ### Teacher–student at the official settings (stored, claims sealed before the run)
#
# The book-scale runs above use a 7× larger learning rate for the landscape and about 3× for grokking, so that
# they fit in minutes; the L's lower arm then stops at Adam's floor. The stored run `stored_ts_config()` uses the
# settings of §3 and the official notebooks: Adam / AdamW at $3\cdot10^{-4}$; the notebook's 11 norms; the
# landscape trained for §3's $10^5$ steps and read also at the notebook's $10^4$, the budget of its table; and
# $\alpha = 2$ against 8 decays in $[0.03, 1]$ plus both $\gamma = 0$ controls for $10^5$ steps. Three student seeds
# (the paper shows one). It took {eval}`glued.tss_minutes` minutes on one core;
# `python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts` recomputes it. For the time law we read $w_0/w_c = 2$: the
# student starts at twice the teacher's scale and generalizes near it (the U's minimum). Its nine claims, registered before
# it started, are stated in the Evidence section.

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_tss.png
# Teacher–student at the official settings (stored, three seeds). Left: the reduced landscape after $10^5$
# projected Adam steps at lr $3\cdot10^{-4}$: train loss (L) and test loss (U) against the norm scale $\alpha$.
# Right: steps to 95 % train and test accuracy of the $\alpha = 2$ student against the weight decay, with the
# fitted power law and the talk's time law $\ln 2/(\mathrm{lr}\,\gamma)$ (dashed).
# ```
#
# **The landscape.** After the notebook's $10^4$ steps the U's arms and the L's upper arm match the official table
# two-sided: the test loss rises {eval}`glued.tss_rise10` decades from $\alpha = 1$ to 10 (table 5.09) and falls
# {eval}`glued.tss_fall01` from $\alpha = 0.1$ to 1 (2.31); the train loss at $\alpha = 0.1$ is
# $10^{x}$ with $x$ = {eval}`glued.tss_top` (−1.85). The knee at $\alpha = 0.25$ is $10^{x}$ with
# $x$ = {eval}`glued.tss_knee`, on the edge of our ±0.5 decades around −2.85 (its seeds agree to a hundredth, so
# this is the teacher and data draw, not noise). The L's lower arm, the largest train loss for $\alpha \ge 1$, is
# $10^{x}$ with $x$ = {eval}`glued.tss_floor4` after $10^4$ steps and {eval}`glued.tss_floor5` after $10^5$. The
# two claims registered on it before the run asked for less than $10^{-6}$, our misreading of the notebook's table
# as "≈ 0". The official log itself prints up to $4\cdot10^{-6}$ for $\alpha \ge 1$ after step 5,000. They came
# out as deviations from that bound and are now checks against it; the comparison with the printed table is in the
# Evidence section. Runs at large $\alpha$ reach $10^{-13}$ and then rise again under constant-rate Adam, so a longer budget
# does not deepen the L.
#
# **The time law.** The $1/\gamma$ law holds at the official rate: the slope is {eval}`glued.tss_slope` (−1 ± 0.2),
# steeper than at book scale because the fitting time (a few hundred steps) is now a small share. The time law
# with our reading $w_0/w_c = 2$ does not: the students reach 95 % test accuracy $10^{x}$ times
# $\ln 2/(\mathrm{lr}\,\gamma)$ steps with $x$ = {eval}`glued.tss_law`, at every decay. The decay time is right
# but the constant is not. The runs generalize once AdamW's decay has shrunk the weights by only about
# {eval}`glued.tss_implied`×, that is, near $\alpha \approx$ {eval}`glued.tss_alpha_c` rather than at the
# teacher's scale. The landscape agrees: its test loss is already small at $\alpha = 1.6$, and our 95 % criterion
# only asks each test sample's error to be below 0.01. So $w_c$ is where the test loss meets the accuracy threshold,
# not the U's minimum. That explanation came after the run; the registered claim stays a deviation. Without weight
# decay no seed generalizes in $10^5$ steps, as in Fig. 2b.

# %% [markdown]
# ## 3. An image classifier: landscape and grokking (substitute dataset)
#
# The MNIST network of the paper (three ReLU layers of width 200, MSE against one-hot labels) on
# scikit-learn's 8×8 handwritten digits, a **substitute dataset**: MNIST cannot be downloaded here.
# Left: the reduced landscape on {eval}`glued.img_land_n` training images (norm held fixed, full batch,
# {eval}`glued.img_land_steps` steps). Right: 1000 training images, initialization $\alpha = 8$, AdamW with
# batch 200; weight decay 0.3 instead of 0.01 so that the slow norm decay fits in {eval}`glued.img_steps`
# steps. Both over the same seeds (median thick, every seed
# faint or as a quartile band).

# %%
img_land = image_landscape(img_cfg)
img_h = run_image_grokking(img_cfg)
fig_img, axes = plt.subplots(1, 2, figsize=(11, 3.8))
axes[0].semilogx(img_land.alphas, 1 - img_land.train_acc, "o-", label="train error (L)")
axes[0].semilogx(img_land.alphas, 1 - img_land.test_acc, "s-", label="test error (U)")
for row_tr, row_te in zip(img_land.seed_train_acc, img_land.seed_test_acc):  # every seed faintly
    axes[0].semilogx(img_land.alphas, 1 - row_tr, color="C0", alpha=0.25, lw=0.6)
    axes[0].semilogx(img_land.alphas, 1 - row_te, color="C1", alpha=0.25, lw=0.6)
axes[0].set_xlabel(r"norm scale $\alpha$")
axes[0].set_ylabel("error")
axes[0].set_title(f"{img_cfg.label}: norm held fixed")
axes[0].legend()
plot_grokking(img_h.steps, {"train": img_h["train_acc"], "test": img_h["val_acc"]}, norm=img_h["weight_norm"],
              ax=axes[1], title=f"{img_cfg.label}, alpha = {img_cfg.alpha:g}")
fig_img.tight_layout()
glue("fig_img", fig_img, display=False)
plt.close(fig_img)
readout.report_image(img_h)

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_img.png
# **Liu, Michaud & Tegmark 2023, Fig. 3 (ours, 8×8 digits for MNIST).** Substitute dataset (8×8 digits). Left: at fixed norm, training error is about zero for
# $\alpha \gtrsim 0.5$ while test error is lowest near $\alpha = 1$ and climbs at large $\alpha$ (at
# $\alpha = 10$ the {eval}`glued.img_land_steps` constrained steps do not even fit the training set). Right: from $\alpha = 8$,
# test accuracy lags training accuracy while weight decay pulls the norm (dashed) down.
# ```
#
# The lag on digits is much milder than the paper's MNIST curve (train 100 % early, test 89 % only at
# $10^5$ steps): test accuracy is already {eval}`glued.img_val_at_fit` when training accuracy reaches
# 95 % and ends at {eval}`glued.img_val_final` (medians over seeds, shown to 0.1). A substitute dataset
# cannot reproduce an MNIST figure, so we record no claim for this panel; Fig. 3 is marked as not run in
# the ledger below.

# %% [markdown]
# ## 4. Modular addition: the weight norm during grokking, and a fixed norm
#
# The talk's Fig. 7 trains Nanda's one-layer transformer on $(a+b) \bmod 113$ twice: **(a)** free, from the
# standard initialization, AdamW with weight decay 1 — the norm rises while the model overfits, peaks,
# and falls below its initial value as test accuracy reaches 100 %; **(b)** started at $0.8\times$ the
# initial norm and held there (weight decay 0) — train and test accuracy rise together, which "almost
# eliminates grokking" (slide "Remove grokking by small & constrained scale").
#
# Book scale runs the same two settings on a **stand-in**: the embeddings + MLP model of the opening
# chapter on $(a+b) \bmod 31$ (70 % of the unordered pairs), {eval}`glued.mod_n_seeds` seeds of each,
# {eval}`glued.mod_steps` steps, batched. The fixed norm is $1.1\times$ the initial norm, the norm at which the free run ends
# after grokking, i.e. its good shell; in a short exploration with the same code, $0.3$–$0.7\times$ did
# not generalize in 3 000 steps, $1.0\times$ and $1.25\times$ were slower than $1.1\times$, and
# $\ge 1.5\times$ failed.

# %%
mod = run_modular(mod_cfg)
fig_mod = plot_modular(mod, title_prefix=f"mod {mod_cfg.p}: ")
glue("fig_mod", fig_mod, display=False)
plt.close(fig_mod)
mod_stats = readout.report_modular(mod_cfg, mod)

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_mod.png
# :name: fig-omnigrok-mod
#
# **Liu, Michaud & Tegmark 2023, Fig. 7 (ours).** Left: the free run (a). It memorizes within a hundred steps; its weight norm (dashed) stays near its
# initial value during the memorization plateau, rises while validation accuracy climbs, peaks, and
# settles above its initial value. Middle: run (b), held at $1.1\times$ the initial norm: it fits at once
# and generalizes about as late as the free run. Right: validation accuracy of both runs on one axis
# (dotted lines: the median step at which each reaches 95 % training accuracy). Median over seeds,
# quartile band shaded.
# ```
#
# What the stand-in reproduces: the free run's norm rises and falls around grokking, by a peak of
# {eval}`glued.mod_peak` times the initial norm and a fall to {eval}`glued.mod_fall` of the peak (medians
# over seeds, shown to 0.1; the bounds, a rise and a fall of at least 5 %, clear the norm's few-percent
# wiggle during memorization and were set after seeing the runs). What it does not:
#
# * the norm ends at {eval}`glued.mod_final` times its initial value, above it, where the talk's
#   transformer ends below it; and the rise happens while the model generalizes rather than during the
#   memorization plateau (see the figure);
# * **holding the norm fixed does not remove the delay.** The median delay from 95 % train to 95 %
#   validation accuracy of run (b) is about {eval}`glued.mod_delay_ratio` times that of run (a) (shown to
#   the nearest integer: per-seed step counts move by hundreds with the last bits of the arithmetic, and
#   a seed that never reaches 95 % counts as never). In this model the delay after fitting at the standard
#   initialization is not a norm effect, so fixing the norm cannot remove it. We read the talk's "almost
#   eliminates" as a delay ratio of at most 1/4; that band was chosen after seeing ours, which lies far
#   outside any band below 1.
#
# The earlier edition of this chapter compared the fixed-norm run instead with free runs started at
# $5\times$ the initial norm, which it beat; that comparison was ours, not the talk's, and its verdict
# depended on the CPU's floating-point kernels, so it is gone. Whether the talk's claim holds needs its
# transformer: section 4c (and, at $p = 59$ with another initialization, section 4b in the Evidence section).

# %% [markdown]
# ### 4c. Fig. 7 at the notebook's own settings: $p = 113$ and its initialization (stored)
#
# **The claim.** The official notebook's free run (weight decay 1) starts at a weight norm of about 42.9, rises
# to about 1.42 times that while it fits (95 % training accuracy near step 145), then falls to about 0.71 of its
# start by step 15,000 as validation accuracy reaches 95 % near step 7,500; held at $0.8\times$ its initial
# norm with no weight decay, it fits near step 258 and generalizes near step 280 (read off the notebook's
# stored figures).
#
# **Scope.** The notebook's model with its initialization (`init="nanda"`), split fraction, optimizer, both
# settings and 15,000 steps at $p = 113$, in float32 (the notebook: float64), two seeds, evaluated every 30
# steps (`python -m repro.experiments.liu2023_omnigrok --store book/_results --run p113`, about 2.5 hours on
# two CPU cores, resumable). Its ten two-sided claims were registered before the run started.

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_tr113.png
# The talk's Fig. 7 at the notebook's own settings ($p = 113$, its initialization; two seeds, median line,
# quartile band). Left: the free run; its weight norm (dashed, right axis) should rise while it memorizes and
# fall below its start as validation accuracy climbs. Middle: the run held at $0.8\times$ its initial norm,
# where training and validation accuracy should rise together. Right: validation accuracy of both.
# ```
#
# {eval}`glued.p113_text` The claims in the Evidence section compare each number with the notebook's,
# two-sided, with tolerances registered before the run.
#
# **The talk's headline.** "Remove grokking by small & constrained scale": held at $0.8\times$ its initial norm, the
# delay from 95 % training to 95 % validation accuracy is {eval}`glued.p113_ratio` times the free run's (medians).
# That is far under the bound of 1/4 that sections 4 and 4b use. This comparison was registered on 2026-12-02,
# after the run's steps had been read, so it is a re-reading (†). The held run's own steps against the notebook's
# are the sealed claims above.
#
# **Float32 and the final norm.** After grokking the free runs' training loss spikes by more than tenfold within one
# evaluation, {eval}`glued.p113_spike_n` times in the two seeds, about every {eval}`glued.p113_spike_gap` steps
# (median gap). Each spike moves the weight norm, so the final norm is a snapshot of a curve that moves: over the last
# 2,000 steps the norm over its initial value ranges {eval}`glued.p113_window` (seeds 0 and 1), against the
# notebook's 0.71 at step 15,000. Whether float64, the notebook's dtype, removes the spikes is not tested. We
# measured one step of both settings for one seed on one core at 0.86 s in float64 against 0.34 s in float32
# (`run_modular`, 10 and 60 steps, 2026-12-02). One float64 seed of the free run alone would then take about
# 15,000 × 0.43 s ≈ 1.8 hours, far past the few minutes a check here can use.

# %% [markdown]
# ## 5. The $(w, m)$ landscape of the backup slides
#
# The talk's backup slides ("Algorithmic: Landscape analysis", Fig. 6) separate the two things a
# network learns during grokking: the decoder's weight norm $w$ and the quality of the representation.
# Frozen 2-d embeddings of $p = 10$ symbols interpolate between a clean line and random points,
# $R = m R_{\rm random} + (1-m) R_{\rm linear}$, with $m$ the *representation messiness*; a
# 2-200-200-30 decoder reads $R_i + R_j$ and learns, from 45 of the 55 unordered pairs, the template of
# $(i+j) \bmod 10$, its norm held at $\alpha$ times its initial norm. The slide's point (Omnigrok Eq. 2):
# a messy representation forces the decoder to fit the training pairs one by one, so it needs a larger
# norm to fit them, $w_c(\text{bad}) > w_c(\text{good})$, and it generalizes worse.
#
# Data and grids follow the official notebook (`mod-addition/landscape/addition-landscape.ipynb`); the
# optimizer follows the paper's description (Adam, lr $10^{-3}$, ReLU); the notebook's own training (LeakyReLU,
# Adam at $10^{-2}$ decayed ×0.2 every 5,000 steps, 15,000 steps) is a stored run (section 5b). Book scale: 5 messiness values × 8 norms × {eval}`glued.wm_n_seeds` decoder
# initializations, {eval}`glued.wm_steps` full-batch steps (paper: $10^4$, on a 21 × 21 grid).

# %%
wm = run_messiness(wm_cfg)
fig_wm = plot_messiness(wm)
glue("fig_wm", fig_wm, display=False)
plt.close(fig_wm)
wm_stats = readout.report_messiness(wm_cfg, wm)

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_wm.png
# The reduced landscape over the decoder norm $w$ (as $\alpha$ times the standard initialization) and the
# representation messiness $m$, medians over decoder initializations. Left: log training loss, with
# $w_c(m)$ (white), the norm at which the training loss first reaches 0.02 (the official notebook's
# contour). Middle: log test loss. Right: test loss against the norm, one curve per $m$, coloured by $m$ (the colour bar).
# What to see: $w_c$
# moves to larger norms as the representation gets messier, and the test loss at its best norm rises.
# ```
#
# Omnigrok Eq. 2 holds in this model: the decoder fits the training pairs from $w_c \approx$
# {eval}`glued.wm_wc0` at $m = 0$ but only from {eval}`glued.wm_wc1` at $m = 0.2$ (ratio
# {eval}`glued.wm_wc_ratio`), and the best test loss over norms is {eval}`glued.wm_test_ratio` times larger
# with the messy representation. At $m = 0$ the test loss is U-shaped in $w$ (both ends
# {eval}`glued.wm_u_rise` times its minimum or more), Omnigrok's "Goldilocks zone" in this model. What does
# not match: the slide's training loss is flat near zero above $w_c$ (the L), ours rises again at large
# norms ({eval}`glued.wm_big_train` at the largest norm, $m = 0$): at a fixed norm, Adam's constant steps
# move a large-norm network slowly, and {eval}`glued.wm_steps` steps at lr $10^{-3}$ do not fit it (the
# notebook trains 15,000 steps at lr $10^{-2}$, decayed). The bounds of this grid's claims (in the Evidence section: a ratio of at least 1.2 for
# $w_c$, 2 for the test loss, 1.5 for the U) were set after seeing a first run of it.

# %% [markdown]
# ### 5b. The $(w, m)$ landscape with the notebook's own training (stored)
#
# The same data and grid as the notebook's figure (21 messiness values × 20 norms, norm 0 left out), trained
# as the notebook trains: LeakyReLU(0.2), Adam at $10^{-2}$ with betas (0.9, 0.99), the rate multiplied by 0.2
# every 5,000 updates, 15,000 full-batch steps, one decoder initialization
# (`MessinessConfig.official()`; `python -m repro.experiments.liu2023_omnigrok_messiness --store book/_results`,
# about an hour on one core). Its four claims (the book-scale bounds, and the L's lower arm below the fit level)
# were registered before the run. Left out: the notebook's norm counts the first layer twice (a plain norm here),
# and its random draws are not reproduced bit for bit.

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_wm_official.png
# The $(w, m)$ landscape trained as the official notebook trains (LeakyReLU, Adam $10^{-2}$ decayed ×0.2 every
# 5,000 steps, 15,000 steps), panels as in the figure above. What to see: whether the training loss stays near
# zero above $w_c$ (the slide's L) once the network is trained as the notebook trains it.
# ```
#
# Trained as the notebook trains, the L's lower arm is there: at $m = 0$ the training loss at the largest norm is
# {eval}`glued.wmo_big_train`, below the fit level, so the rise of section 5 was the book's constant-rate
# Adam, not the landscape. The other three features point the way the slides do but are weaker than with the
# book's training, and each misses the bound registered before the run (deviations): $w_c$ grows from
# {eval}`glued.wmo_wc0` at $m = 0$ to {eval}`glued.wmo_wc1` at $m = 0.2$ (ratio {eval}`glued.wmo_wc_ratio`,
# bound 1.2); the best test loss over norms is {eval}`glued.wmo_test_ratio` times larger at $m = 0.2$
# (bound 2); and the U at $m = 0$ rises to {eval}`glued.wmo_u_left` times its minimum at the smallest norm but
# only {eval}`glued.wmo_u_right` times at the largest (bound 1.5). The run has one initialization, as the
# notebook's figure does, so these ratios carry no seed spread.

# %% [markdown]
# ### 5c. Data size and the angle $\theta$ (backup slide, stored)
#
# The backup slide "Algorithmic: data size/weight decay dependence" writes the grokking time as
# $t = (L + h\tan\theta)/\gamma$, with two arrows: more data gives a smaller $\theta$ and so a shorter $t$, and a
# larger $\gamma$ a shorter $t$. The official notebook behind it (`plot-addition-data-dependence.ipynb`) draws the
# picture on the $(w, m)$ landscape, with log(weight norm) across and representation quality up: the network
# starts memorized at a large norm and a middling representation, weight decay shrinks $\log w$ at speed $\gamma$
# until the training-loss contour, and the run then slides along the contour, at speed $\gamma\cos\theta$, to the
# generalizing corner. Adding the two legs gives the slide's formula, with $L$ and $h$ the norm and
# representation distances from start to end and $\theta$ the contour's angle to the log-norm axis. The notebook
# draws the training loss $= 0.02$ contour for four training-set sizes.
#
# We train the same landscapes (the notebook's training of section 5b on its fine window, messiness 0 to 0.1 and
# $\alpha$ from 2.5 to 4, on a coarser grid) and read $\theta$ from the contour's slope $d\ln w_c/dm$: $\tan\theta$ is
# proportional to its inverse, so a smaller $\theta$ is a steeper slope
# (`python -m repro.experiments.liu2023_omnigrok_messiness --store book/_results --data-size 25 35 45 54`,
# {eval}`glued.ds_minutes` minutes on one core in all). What the paper states (§5.1, Fig. 6e) is one pair:
# $\theta_{55} < \theta_{45}$, a steeper slope at 55 pairs than at 45. The $\gamma$ arrow is the $1/\gamma$ law of section 2. The time law
# itself, a run along the path, is not run.

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_wm_data_size_notebook.png
# The backup slide's data-size picture in the notebook's norm window ($\alpha$ from 2.5 to 4), from stored runs.
# Left: where the training loss crosses 0.02 ($w_c$) at each messiness, for each training-set size, with its
# least-squares line (norm on a log axis). Right: the line's slope $d\ln w_c/dm$ against the size, with its
# standard error. What to see: whether the contour steepens (a smaller $\theta$) at every larger size, as the
# slide's arrow says.
# ```
#
# ```{figure} _figures/liu2023_omnigrok/fig_wm_data_size_wide.png
# The same in the wider window ($\alpha$ from 1 to 4, same step), run after the first run found the 25-pair
# contour left of the notebook's window. Panels as above.
# ```
#
# In the notebook's window the contour slopes are {eval}`glued.ds_slopes_notebook`; between consecutive sizes
# they change by {eval}`glued.ds_steps_notebook`: {eval}`glued.ds_verdict_notebook`. In the wide window the slopes
# are {eval}`glued.ds_slopes_wide`, the steps {eval}`glued.ds_steps_wide`: {eval}`glued.ds_verdict_wide`. With one
# initialization, as the notebook's, the standard errors come from the straight-line fit over the messiness
# values, not from seeds; the norm grid's step (0.15 in $\alpha$) limits how finely each $w_c$ is placed.
#
# **The paper's pair.** From 45 to 54 pairs the slope changes by {eval}`glued.ds_raw_pair` on the raw maps and by
# {eval}`glued.ds_smooth_pair` on the maps smoothed as the official plot's; the smoothing moves no size's slope by more
# than {eval}`glued.ds_shift_pair`. Both readings put $\theta_{54}$ at or above $\theta_{45}$, within one line-fit
# standard error. With one initialization and runs seen before the comparison, this decides nothing.

# %% [markdown]
# ## Paper versus ours
#
# The claims of the Omnigrok figures the talk shows, numbered and quoted, each with one verdict by the book's
# decision rules (stated under the claim tables in the Evidence section): {eval}`glued.ledger_tally`. Claims whose data need a download (MNIST,
# IMDb, QM9), or whose experiments were not run here, are not tested.

# %% [markdown]
# ## Deviations
#
# * **Modular addition: a live stand-in, the talk's model stored.** The live run is the opening chapter's
#   embeddings + MLP on $p = 31$: its norm rises during generalization rather than memorization and
#   settles above its initial value, and holding the norm fixed does not shorten the delay. The talk's
#   own architecture and optimizer, Nanda's one-layer transformer, shows both (section 4b, in the Evidence section), at $p = 59$
#   instead of 113, in float32 instead of float64, with two seeds and 24,000 steps instead of 15,000, and with
#   the book's initialization instead of the notebook's (next item). The stand-in's deviations are a property
#   of that model, not of the talk's claim.
# * **The transformer's initialization.** The book's transformer draws every weight with std
#   $0.8/\sqrt{d_{\rm model}}$ (TransformerLens) and trains zero-initialized attention and unembedding biases; the
#   official notebook draws with std $1/\sqrt{d_{\rm model}}$ ($W_U$: $1/\sqrt{d_{\rm vocab}}$) and has neither bias.
#   The stored runs start at {eval}`glued.tr_w0` the official initialization's norm, and the held run sits at
#   {eval}`glued.tr_w0_fixed` of it instead of $0.8\times$. Against the official run's plotted numbers the stored
#   runs deviate in {eval}`glued.tr_n_dev` of {eval}`glued.tr_n_value` two-sided claims (section 4b); which part is the initialization and which
#   $p = 59$ is not measured.
# * **The notebook's own settings (section 4c).** {eval}`glued.p113_deviation`
# * **Shorter training, larger rates.** Teacher–student: {eval}`glued.ts_land_steps` landscape steps at lr
#   $2\cdot10^{-3}$ (official code: $10^4$ at $3\cdot10^{-4}$); grokking {eval}`glued.ts_grok_steps` steps
#   with lr $10^{-3}$ and $\gamma\in[0.1, 0.8]$ (paper: lr $3\cdot10^{-4}$, $\gamma\in[0.03,1]$, $10^5$
#   steps). This keeps the $1/\gamma$ slope at {eval}`glued.ts_slope` instead of −1. The L's lower arm stays at a
#   few $10^{-6}$ as in the official log (up to $4\cdot10^{-6}$ for $\alpha \ge 1$ after step 5,000); the
#   chapter's first reading of that table as "≈ 0" was wrong, and its five claims against "below $10^{-6}$" are now
#   checks against that bound of ours.
# * **Image data is a substitute** (8×8 digits, 64 inputs, 1000 train / 797 test), with weight decay 0.3
#   instead of 0.01 and {eval}`glued.img_steps` instead of $10^5$ steps; the landscape uses
#   {eval}`glued.img_land_n` training images, {eval}`glued.img_land_steps` full-batch steps and
#   {eval}`glued.img_n_alphas` values of $\alpha$ (paper: MNIST, 21 values, 28 data sizes, $10^4$ steps, best-over-training
#   metrics). The paper scale reads real MNIST IDX files from `REPRO_MNIST_DIR`.
# * **The $(w, m)$ landscape** follows the official notebook's data (mod-10 templates, a noisy line, uniform
#   random points, seed 58; drawn with numpy in the notebook's order, not with its torch generator) but the
#   paper's ReLU and Adam at lr $10^{-3}$ (the notebook: LeakyReLU(0.2), lr $10^{-2}$ decayed ×0.2 every
#   5,000 steps; section 5b runs that training); the grid is 5 × 8 instead of 21 × 21 (paper scale: the full
#   grid, $10^4$ steps). The
#   notebook's norm counts the first layer's weight twice (its `L2` helper starts from it and then adds it
#   again); we hold the plain L2 norm of the decoder.
# * **The data-size slide (section 5c).** In the widened window the fit contour at $m = 0$ sits at
#   $w_c =$ {eval}`glued.ds_wc0_wide` for the four sizes, and its slope in messiness: {eval}`glued.ds_verdict_wide`;
#   in the notebook's window {eval}`glued.ds_verdict_notebook`.
#   Our runs differ from the notebook's in the draws (not reproduced bit for bit), the norm held (a plain norm
#   where the notebook counts the first layer twice, so the same $\alpha$ is another norm) and a coarser grid. The
#   loss read is the same, the last step's (the notebook's `trainbest` files hold it, not the best). The notebook's
#   contours come from a smoothed, upsampled map; smoothing ours the same way moves no slope by more than
#   {eval}`glued.ds_shift_pair`. Which of the other differences, if any, makes the notebook's contours tilt with size
#   is not measured. The paper states only $\theta_{55} < \theta_{45}$; our rise at every size is a bound of ours.
# * **Projection after the step.** We rescale after every optimizer step, as the paper says (Omnigrok §2);
#   the official teacher–student notebook rescales between the forward and the backward pass.

# %% [markdown]
# ## Evidence
#
# What follows is how each claim of this chapter is checked: the criteria, resolutions and tolerances of every
# comparison, the confirmations on fresh seeds, the stored runs' setup tables, per-seed tables and provenance, the
# $p = 59$ transformer runs that section 4c supersedes (section 4b), and the claim tables. The verdicts in the summary
# at the top follow from these by the decision rules on the reproduction-status page.

# %% [markdown]
# ### Sanity check: the norm dynamics on a known answer
#
# A check of the theory itself, without a network. We integrate $dw/dt = -\gamma w - \partial\tilde\ell/\partial w$
# with a model L curve ($\tilde\ell = (1-w/w_c)^2$ below $w_c$, zero above) from $w_0 = 4 w_c$. The time
# to reach $w_c$ must equal $\ln(w_0/w_c)/\gamma$ (to the Euler step, $10^{-3}$), and halving $\gamma$ must
# double it. These are checks of our integrator against the talk's closed form, not reproductions.

# %% tags=["hide-input"]
readout.check_norm_dynamics(claims)

# %% [markdown]
# ### 1. Teacher–student landscape: the comparisons
#
# The reference values are the official landscape notebook's output (`KindXiaoming/Omnigrok`,
# `teacher-student/landscape`), the table behind Omnigrok Fig. 2a: test MSE minimal at $\alpha = 1$
# ($7.8\cdot10^{-5}$, with $8.6\cdot10^{-5}$ at the neighbour $\alpha = 0.63$), $1.6\cdot10^{-2}$ at $\alpha = 0.1$, 0.43 at
# $\alpha = 3.98$ and 9.6 at $\alpha = 10$; train MSE $1.4\cdot10^{-2}$ at $\alpha = 0.1$, $1.4\cdot10^{-3}$ at
# $\alpha = 0.25$ and $10^{-6}$ at $\alpha = 0.63$. For $\alpha \ge 1$ the notebook's log (printed every 200 steps,
# six decimals) is not "≈ 0": at $\alpha = 1.58$ it prints $10^{-6}$ at its last line (step 9,800) and up to
# $4\cdot10^{-6}$ after step 5,000 (step 6,400); only $\alpha \ge 2.5$ print 0. Our teacher and data are drawn with
# our own generator, not the notebook's (see the setup table), so we compare ratios and logarithms, not the losses'
# scale.
#
# * **U, minimum.** In the official table the neighbour $\alpha = 0.63$ is within 10 % of the minimum,
#   and on our grid the two are as close, so we test that $\alpha = 1$ is within a factor 1.5 of the best
#   grid point (median over seeds). We show it to 0.5: the median moves between 1.0 and 1.1 with the last
#   bits of the arithmetic, because the two grid points are nearly tied.
# * **U, rise** to $\alpha = 3.98$: {eval}`glued.ts_rise` decades here against 3.7; we allow ±0.5 decades
#   since our run is {eval}`glued.ts_land_steps` steps at a larger learning rate instead of $10^4$. The per-seed rises spread by
#   about 0.1 decade, so we show the median to 0.25.
# * **U, both arms against the official numbers** (two claims registered on 2026-11-25, before the chapter was next
#   run, with the same ±0.5 decades): the rise from $\alpha = 1$ to 10, {eval}`glued.ts_rise10` decades against the
#   table's 5.09, and the fall from $\alpha = 0.1$ to 1, {eval}`glued.ts_fall01` decades against 2.31.
# * **L, the knee** (registered likewise): the train MSE at $\alpha = 0.25$, where the official L bends, is
#   $10^{x}$ with $x =$ {eval}`glued.ts_knee` against the table's $-2.85$ (±0.5 decades).
# * **L, upper arm**: the train MSE at $\alpha = 0.1$, $10^{x}$ with $x =$ {eval}`glued.ts_top` against
#   the table's $-1.85$; we allow ±0.2 decades (this tolerance was set after seeing the result). The
#   plateau is a converged value, not a snapshot of a run still descending: two checks below require
#   that it moved by at most 0.05 decades over the second half of the run and that the seeds agree to
#   within 0.05 decades. Our distance from the official value, about {eval}`glued.ts_top_gap` decades
#   (shown to 0.1), is then well inside the tolerance, not at its edge; it is not noise but the teacher
#   and data draw, which are ours and not the official notebook's.
# * **L, lower arm**: the largest train MSE for $\alpha \ge 1$ is $10^{x}$ with $x \approx$
#   {eval}`glued.ts_floor` (median over seeds, shown to half a decade). The runs near $\alpha = 1$ stop at a few
#   $10^{-6}$, a floor of Adam at a constant rate, and the runs at $\alpha \ge 4$ reach $10^{-10}$, as in the
#   official log, whose $\alpha = 1.58$ run prints up to $4\cdot10^{-6}$ ($10^{-5.40}$) late in its run. The claim
#   registered here read the table as "≈ 0" and asked for less than $10^{-6}$, which the official run itself does
#   not meet. It stays in the ledger, re-filed as a check against that bound of ours. Against the printed
#   $4\cdot10^{-6}$ the lower arm is compared at the official settings (section 2, stored).

# %% tags=["hide-input"]
readout.record_ts_landscape(claims, ts_stats, ts_cfg)

# %% [markdown]
# ### 2. Teacher–student grokking: the comparisons
#
# The slope is fitted per seed and we claim its median over seeds against the talk's $t \propto 1/\gamma$,
# with ±0.3: our slope is shallower than −1 because the fitting time (tens of steps, independent of
# $\gamma$) adds to the decay time. The per-seed slopes spread by about 0.15, so we show the median to
# 0.2. The two controls are per-seed verdicts: the fraction of seeds in which $\alpha = 2$ without decay
# reaches 95 % test accuracy (none, in the paper; here within the book's {eval}`glued.ts_grok_steps`
# steps), and the median over seeds of the $\alpha = 0.5$ control's delay from 95 % train to 95 % test
# accuracy, which the paper shows as zero; we allow 100 steps (ten evaluations, against a delay of
# hundreds of steps at $\alpha=2$).
#
# **The plateau.** "Never generalizes" is a statement about a plateau: after fitting, the test accuracy
# of $\alpha = 2$ without decay stops rising below the 95 % bar. A fraction of seeds that is exactly zero
# sits at the edge of its tolerance (one seed crossing would break it), so we also claim the plateau
# itself. Its level: the final test accuracy (median over seeds) is at most the paper's 95 % bar; ours is
# {eval}`glued.ts_plateau_acc`, shown to 0.25 because the seeds' plateaus differ and a finer grid would
# let the shown median depend on the CPU's rounding. Its flatness: the test loss changes by at most 0.1
# decades over the second half of the run; ours {eval}`glued.ts_plateau_drift` (median over seeds, shown
# to 0.1), while the smallest decay of the sweep, $\gamma = 0.1$, falls by {eval}`glued.ts_sweep_drift`
# decades over the same steps, so the bound separates a plateau from grokking in progress (this
# tolerance was set after seeing side runs).

# %% tags=["hide-input"]
readout.record_ts_grokking(claims, ts_stats)

# %% [markdown]
# #### The book-scale comparisons again, on fresh seeds (stored, sealed before the run)
#
# The landscape's and the grokking runs' comparisons above are trained live with students 1-5, which ran before
# their criteria were registered: they are exploratory and decide no paper claim. Six of them (the L's upper arm
# and knee, and the four of Fig. 2b) were registered again on 2026-12-02 (T66-T71), with the same criteria, for a
# run of the same book-scale experiments with five students that no run of this chapter used (seeds 1000-1004,
# `confirmation_config()`; the teacher, data and settings are those above), stored and sealed when it started.
# The same function (`ts_book_statistics`) reads their statistics here. `python -m repro.experiments.liu2023_omnigrok
# --store book/_results --run confirm` recomputes it (under a minute on one core).

# %% tags=["hide-input"]
readout_ts.record_confirmation(claims)

# %% [markdown]
# #### Teacher–student at the official settings: setup, tables and claims (stored)
#
# The stored run at the official settings (section 2). Nine claims were
# registered before it started. Against the notebook's table: the L's lower arm below $10^{-6}$ at both budgets, and
# the U's arms, the L's knee and its upper arm at $10^4$ steps, with the book scale's tolerances. Against the talk:
# the $1/\gamma$ slope to ±0.2; the time law itself, $t = \ln(w_0/w_c)/(\mathrm{lr}\,\gamma)$ steps, with AdamW's
# decoupled decay; and no generalization at $\alpha = 2$ without decay. For the time law, with the reading $w_0/w_c = 2$ of
# section 2, we allow a factor 2 either way in the steps.

# %% tags=["hide-input"]
tss = readout_ts.report_stored_ts()
fig_tss, axes = plt.subplots(1, 2, figsize=(11, 3.8))
plot_landscape(tss.land, ax=axes[0], title=f"landscape after {tss.cfg.landscape_steps:,} steps (median of 3 seeds)")
axes[0].axvline(1.0, color="grey", lw=0.8, ls=":")
plot_gamma_scaling(tss.grok, ax=axes[1])
axes[1].loglog(tss.gammas, tss.law, "--", color="C3", label="ln 2 / (lr γ): the talk's time law")
axes[1].legend(fontsize=8)
axes[1].set_title(f"steps to 95 % accuracy (alpha = 2, lr {tss.cfg.grok_lr:g})")
fig_tss.tight_layout()
glue("fig_tss", fig_tss, display=False)
plt.close(fig_tss)
readout_ts.record_stored_ts(claims, tss)

# %% [markdown]
# #### The L's lower arm on nine seeds (stored)
#
# The floor differs by about a decade from seed to seed (which $\alpha$ sits on Adam's floor changes), so on three
# seeds its claims were fragile. The stored run `stored_ts_seeds_config()` trains six more students (seeds 4–9)
# on the same teacher, data, norms, rate and budget ({eval}`glued.tsm_minutes` minutes on one core;
# `python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts-seeds` recomputes it). Its two
# claims, the same criterion on the nine seeds joined, were registered before it started, but after the three
# seeds above had been seen, so they are registered as deviations and carry † (the first run did not seal them).

# %% tags=["hide-input"]
nine = readout_ts.record_nine_seed_floor(claims, tss)

# %% [markdown]
# On nine seeds the L's lower arm sits at $10^{x}$ with $x$ = {eval}`glued.tss9_floor4` after $10^4$ steps and
# {eval}`glued.tss9_floor5` after $10^5$ (medians; the per-seed values are printed above). These claims asked for
# "below $10^{-6}$", our misreading of the table, and are now checks against that bound. Read against what the
# official log prints, at most $4\cdot10^{-6}$ ($10^{-5.40}$) for $\alpha \ge 1$ after step 5,000, the same nine
# students are compared again in two claims registered on 2026-12-02, after these values had been seen. They are
# re-readings (†) and decide nothing.

# %% [markdown]
# #### The L's lower arm against the official log, on fresh students (stored, sealed before the run)
#
# Nine students that no run of the chapter used (seeds 2000–2008, `lower_arm_config()`) train on the same teacher,
# data, norms and rate for the notebook's $10^4$ steps ({eval}`glued.tsl_minutes` minutes on one core;
# `python -m repro.experiments.liu2023_omnigrok --store book/_results --run lower-arm`). Two claims were sealed when
# the run started. (i) The largest train loss for $\alpha \ge 1$ is at most the official log's $4\cdot10^{-6}$
# (median over students). (ii) It is at most $10^{-5}$, the offset the official plot adds to the training loss
# before drawing it on a log axis, so that Fig. 2a draws as flat any loss below it. Level (ii) was chosen after
# students 1–9 had been seen.

# %% tags=["hide-input"]
fresh = readout_ts.record_fresh_students(claims, tss, nine)

# %% [markdown]
# On the fresh students the lower arm sits at $10^{x}$ with $x$ = {eval}`glued.tsl_floor` (median; per student
# above), against the official log's $10^{-5.40}$ and the plot's $10^{-5}$. The verdicts of both claims, with their
# margins in seed standard errors, are in the claim tables below.

# %% [markdown]
# ### 4. Modular addition: the claims
#
# The stand-in's claims of section 4 (the free run's norm peak, fall and final norm, and the held run's delay ratio),
# with the bounds stated there.

# %% tags=["hide-input"]
readout.record_modular(claims, mod_cfg, mod_stats)

# %% [markdown]
# #### 4b. The talk's transformer, at $p = 59$ and with another initialization (stored)
#
# Section 4c, at the notebook's own settings, supersedes these runs; they stay here as the first runs
# of the talk's model.
#
# The model of the talk's Fig. 7 is the official notebook's (`mod-addition/grokking`): Nanda's one-layer
# transformer (d_model 128, 4 heads, d_mlp 512, ReLU, no LayerNorm, learned positions, causal
# attention, untied unembedding) on the sequence "$a\ b\ =$", trained full batch on 30 % of all ordered
# pairs with AdamW (lr $10^{-3}$, $\beta = (0.9, 0.98)$): **(a)** free, weight decay 1; **(b)** started at
# $0.8\times$ the standard initialization and held at that norm, weight decay 0. Our stored runs have the
# notebook's architecture, optimizer, split fraction and the two settings, **except**: $p = 59$ instead of 113,
# float32 instead of float64, two initializations of each, {eval}`glued.tr_steps` steps (the notebook: 15,000; with
# fewer training pairs grokking comes later), and **the initialization**: the book's transformer draws every
# weight with TransformerLens' std $0.8/\sqrt{d_{\rm model}}$ and carries trained, zero-initialized attention and
# unembedding biases, where the notebook draws $W_E, W_{\rm pos}, W_{Q,K,V,O}, W_{\rm in}, W_{\rm out}$ with std
# $1/\sqrt{d_{\rm model}}$, $W_U$ with $1/\sqrt{d_{\rm vocab}}$, and has no attention or unembedding biases. Our free
# runs therefore start at {eval}`glued.tr_w0` of the official initialization's norm at the same $p$, and run (b) is
# held at {eval}`glued.tr_w0_fixed` of it, not at $0.8\times$. The table below lists every difference. The runs were
# trained before this was found. The notebook's initialization is now an option of the book's transformer
# (`init="nanda"`, the default of `ModularConfig`), and the runs at the notebook's own settings, $p = 113$ with that
# initialization (`--run p113`, about 2.5 hours on two cores), have their claims registered (section 4c).
# `python -m repro.experiments.liu2023_omnigrok --store book/_results` recomputes the stored runs shown here
# ({eval}`glued.tr_wall` minutes on two CPU cores).

# %% tags=["hide-input"]
tr = readout_stored.load_transformer()
fig_tr = plot_modular(tr.result, title_prefix=f"transformer, mod {tr.cfg.p}: ")
glue("fig_tr", fig_tr, display=False)
plt.close(fig_tr)
tr_stats = readout_stored.report_transformer(tr)

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_tr.png
# The talk's Fig. 7 with its own architecture and optimizer, at $p = 59$ and with the book's initialization (two
# seeds; median line, quartile band). Left: the free run (a) fits its training pairs within a few hundred steps;
# its weight norm (dashed, right axis) rises while it memorizes, peaks, and falls below its initial value as
# validation accuracy climbs to 100 %, more than ten thousand steps later. Middle: run (b), held at $0.8\times$
# its initial norm with no weight decay: training and validation accuracy rise together. Right: validation
# accuracy of both on one axis (dotted: the median step at which each reaches 95 % training accuracy).
# ```
#
# The talk's qualitative claims hold in these runs. The free run's norm rises to {eval}`glued.tr_peak` times its
# initial value (the official run, read off its plot: 1.43) while validation accuracy is still at chance
# ({eval}`glued.tr_val_at_peak` at the peak), then falls to {eval}`glued.tr_final` times it as the model
# generalizes; the delay from 95 % train to 95 % validation accuracy is {eval}`glued.tr_delay_free` steps (median
# of two seeds). Held at $0.8\times$ its initial norm, the same model generalizes {eval}`glued.tr_delay_fixed`
# steps after fitting: a delay ratio of {eval}`glued.tr_ratio`, far inside the bound of 1/4 that section 4 reads
# "almost eliminates grokking" as.
#
# Against the official run's numbers (read off the notebook's plots, $p = 113$), this model does not match:
# it starts at {eval}`glued.tr_w0` the official initialization's norm; its norm ends at {eval}`glued.tr_final`
# of its start, not 0.71; its delay is {eval}`glued.tr_delay_free` steps against about 6,800; held at a fixed
# norm it needs {eval}`glued.tr_fit_fixed` steps to fit against about 255, and its validation accuracy levels off
# near {eval}`glued.tr_val_fixed` instead of reaching 100 %. Only the free run's steps to fit
# ({eval}`glued.tr_fit_free`, official 150) and its norm's peak agree. Which of these differences come from
# $p = 59$ (fewer training pairs) and which from the initialization (run (b) held at {eval}`glued.tr_w0_fixed` of
# the official norm, a smaller ball, which the notebook warns fits worse) is not measured. The stand-in of
# section 4 misled on the mechanism: there the delay after fitting is not a norm effect; in the transformer it is.
#
# Every claim on these runs is marked † in the ledger: the runs were stored before claims were sealed, and the
# two-sided claims against the official plots were registered after their numbers were read.

# %% tags=["hide-input"]
readout_stored.record_transformer(claims, tr, tr_stats)

# %% [markdown]
# #### 4c. Fig. 7 at the notebook's own settings: the stored run's setup table and claims
#
# The ten two-sided claims of section 4c, registered before the run started.

# %% tags=["hide-input"]
p113 = readout_stored.load_p113()
if p113.result is not None:
    fig_113 = plot_modular(p113.result, title_prefix=f"transformer, mod {p113.cfg.p}: ")
    glue("fig_tr113", fig_113, display=False)
    plt.close(fig_113)
p113_rows = readout_stored.record_p113(claims, p113)

# %% [markdown]
# ### 5. The $(w, m)$ landscape: the claims
#
# The book-scale grid's claims, with the bounds stated in section 5.

# %% tags=["hide-input"]
readout.record_messiness(claims, wm_cfg, wm=wm, wm_stats=wm_stats)

# %% [markdown]
# #### 5b. The notebook's own training: the stored run's setup table and claims
#
# The four claims of section 5b, registered before the run.

# %% tags=["hide-input"]
wmo = readout_stored.load_wm_official()
if wmo.result is not None:
    fig_wmo = plot_messiness(wmo.result)
    glue("fig_wm_official", fig_wmo, display=False)
    plt.close(fig_wmo)
wmo_rows = readout_stored.record_wm_official(claims, wmo)

# %% [markdown]
# #### 5c. Data size and the angle $\theta$: the stored runs and their claims
#
# The paper states one pair, $\theta_{55} < \theta_{45}$ (section 5c). The two claims registered before the runs ask
# for more: a rise of the slope at every larger size. That is our reading of the slide's arrow, a bound of ours, so
# they are checks. The paper's pair was registered on 2026-12-02, after the runs had been seen. Its two readings are
# re-readings (†): on the raw maps, and on the maps smoothed as the official plot smooths its own before drawing
# the contours (`blurred_like_notebook`).

# %% tags=["hide-input"]
ds = readout_stored.start_data_size()
for window in readout_stored.DS_WINDOWS:
    runs = readout_stored.load_data_size(ds, window)  # None while a size of this window is not stored
    if runs is not None:
        fig_ds = plot_data_size(runs)
        glue(f"fig_wm_data_size_{window}", fig_ds, display=False)
        plt.close(fig_ds)
        readout_stored.record_data_size(claims, ds, window=window, runs=runs)
readout_stored.glue_data_size(ds)

# %% [markdown]
# ### Claim tables
#
# The chapter's figure rows and claim tables: every comparison with its kind, reference, margin and outcome, from
# which the verdicts of "Paper versus ours" and of the summary at the top are judged.

# %% tags=["hide-input", "hide-output"]
readout.record_ts_figures(claims, ts_stats, ts_cfg)
readout_ts.record_stored_ts_figures(claims, tss=tss, nine=nine, fresh=fresh)
readout.record_other_figures(claims, tr.w0_ratio)
readout_stored.record_stored_landscape_figures(claims, wmo=wmo_rows, ds=ds, p113=p113_rows)
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

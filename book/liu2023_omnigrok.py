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
# **Liu, Michaud & Tegmark 2023 (Omnigrok), claim by claim** — 17 paper claims: 4 reproduced, 0 not reproduced (rate 4/4); 7 inconclusive, 6 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ✅ reproduced | T57: -0.9 vs paper -1 ± 0.2 | “$$\frac{dw}{dt} = -\gamma w$$ … $$t(w_0 \rightarrow w_c) = \log\left(\frac{w_0}{w_c}\right) / \gamma \propto \gamma^{-1}$$” | Fig. 1b, Fig. 2c |
# | **C2** | ⏳ not tested | — | “In Section 5, we argue for algorithmic datasets because (shown in Figure 6(d)) … w_{c}({\rm bad\ representation})>w_{c}({\rm good\ representation}) …” | Eq. 2, Fig. 6d |
# | **C3** | ✅ reproduced | T53: 5.00 vs official code 5.09 ± 0.5 | “As shown in Figure 2(a), $\tilde{l}_{\rm test}(\alpha)$ first decreases and then increases as $\alpha$ increases, displaying a U-shape with a minimum …” | Fig. 2a |
# | **C4** | ❔ inconclusive | T56: -2.25 vs official code -2.854 ± 0.5 | “By contrast, $\tilde{l}_{\rm train}(\alpha)$ decreases when $\alpha<1$ and remains flat near zero when $\alpha\geq 1$, forming an L-shape.” | Fig. 2a |
# | **C5** | ❔ inconclusive | T59: 0.00 vs paper <= 0 | “Large initialization runs (top) depended on weight decay: no regularization fails to generalize, small regularization generalizes slowly (grokking) …” | Fig. 2b |
# | **C6** | ✅ reproduced | T70: 0 vs paper 0 ± 100 | “As shown in Figure 2(b) (bottom), small initialization runs always generalize fast regardless of regularization.” | Fig. 2b |
# | **C7** | ⏳ not tested | — | “As shown in Figure 2(c), the time (number of steps) to reach 95% training accuracy is independent of weight decay $\gamma$” | Fig. 2c |
# | **C8** | ⏳ not tested | — | “But on standard datasets we induce grokking by manually increasing initialisation scale.” | Fig. 3, Fig. 4, Fig. 5 |
# | **C9** | ❔ inconclusive | T50: 0.00 vs paper <= 0.02 | “(a) Training loss splits the plane into two regions: large loss small $w$ (fast dynamics) and small loss large $w$ (slow dynamics).” | Fig. 6a |
# | **C10** | ⏳ not tested | — | “Moreover, while the training loss depends weakly on $m$, the test loss depends strongly on $m$.” | Fig. 6a, Fig. 6b |
# | **C11** | ⏳ not tested | — | “$$t = \frac{L + h \tan \theta}{\gamma}$$ … \nearrow data size $\uparrow \rightarrow \theta \downarrow \rightarrow t \downarrow$ \searrow …” | Fig. 6f |
# | **C12** | ❔ inconclusive | T39: 0.85 vs official code 0.71 ± 0.08 | “(a) Weight norm, train accuracy, and test accuracy over time, initialized and trained normally. Weight norm first increases, and is highest during …” | Fig. 7a |
# | **C13** | ✅ reproduced | T40: 2.18 vs official code 2.16 ± 0.25 | “For algorithmic datasets, standard initialisation is sufficient to produce grokking.” | Fig. 7a |
# | **C14** | ❔ inconclusive | T77: -0.14 vs paper >= 0 | “In Figure 6(e), we show the contours (training loss = 0.02) for different training sizes (25, 35, 45, 55). The contours of training size 45 and 55 …” | Fig. 6e |
# | **C15** | ❔ inconclusive | T44: 2.68 vs official code 2.41 ± 0.25 | “(b) Constrained optimization at constant weight norm $(\alpha=0.8)$ largely eliminates grokking, with test and train accuracy improving concurrently.” | Fig. 7b |
# | **C16** | ⏳ not tested | — | “(1) The training and test losses behave similarly; (2) Both training and test losses depend very weakly on $m$. This implies that the raw image …” | Fig. 8 |
# | **C17** | ❔ inconclusive | T44: 2.68 vs official code 2.41 ± 0.25 | “2. Since we can induce grokking on standard datasets, we you remove grokking from algorithmic datasets? … Remove grokking by small & constrained scale” | Fig. 7b |
#
# The deciding test is the one the verdict rests on (a decided disagreement first); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
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
# (section 4b); and the two-dimensional (norm, representation messiness) landscape of the backup slides
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
from IPython.display import display
from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.core.portable import approx, trained
from repro.core.scale import current_scale
from repro.experiments.liu2023_omnigrok import (OFFICIAL_STORE_LABEL, ImageConfig, ModularConfig, TeacherStudentConfig,
                                                confirmation_config, image_landscape, official_modular_config,
                                                run_image_grokking, run_modular, run_teacher_student_grokking,
                                                seed_slopes, stored_confirmation, stored_modular,
                                                stored_modular_config, stored_ts, stored_ts_config,
                                                stored_ts_landscape_seeds, stored_ts_lower_arm,
                                                teacher_student_landscape, ts_book_statistics)
from repro.experiments.liu2023_omnigrok_messiness import (DATA_SIZES, WM_OFFICIAL_LABEL, WM_SIZE_LABEL,
                                                          WM_SIZE_WIDE_LABEL, MessinessConfig,
                                                          blurred_like_notebook, contour_slope, run_messiness,
                                                          stored_data_sizes, stored_messiness)
from repro.experiments.liu2023_omnigrok_setup import (data_size_setup_table, image_setup_table, messiness_setup_table,
                                                      official_init_norm, official_messiness_setup_table,
                                                      p113_setup_table, standin_setup_table,
                                                      stored_teacher_student_setup_table,
                                                      stored_transformer_setup_table,
                                                      teacher_student_setup_table)
from repro.plotting.liu2023_omnigrok import plot_gamma_scaling, plot_grokking, plot_landscape, plot_modular
from repro.plotting.liu2023_omnigrok_messiness import plot_data_size, plot_messiness
from repro.plotting.shared import use_style
from repro.theory.omnigrok import integrate_norm_dynamics, time_to_grok
from repro.training.store import ResultsStore, load_stored, provenance_line, require_stored

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
# draws); every difference carries its reason. The stored transformer runs get their own table in section 4b.
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
for name, value in (("ts_land_steps", ts_cfg.landscape_steps), ("ts_grok_steps", ts_cfg.grok_steps),
                    ("img_steps", img_cfg.steps), ("img_land_steps", img_cfg.landscape_steps),
                    ("img_land_n", img_cfg.landscape_n_train), ("img_n_alphas", len(img_cfg.landscape_alphas)),
                    ("mod_steps", mod_cfg.steps), ("wm_steps", wm_cfg.steps), ("wm_n_seeds", len(wm_cfg.seeds))):
    glue(name, f"{value:,}", display=False)
display(teacher_student_setup_table(ts_cfg))
display(image_setup_table(img_cfg))
display(standin_setup_table(mod_cfg))
display(messiness_setup_table(wm_cfg))

# %% [markdown]
# ## Sanity check: the norm dynamics on a known answer
#
# Before training networks, the theory itself. We integrate $dw/dt = -\gamma w - \partial\tilde\ell/\partial w$
# with a model L curve ($\tilde\ell = (1-w/w_c)^2$ below $w_c$, zero above) from $w_0 = 4 w_c$. The time
# to reach $w_c$ must equal $\ln(w_0/w_c)/\gamma$ (to the Euler step, $10^{-3}$), and halving $\gamma$ must
# double it. These are checks of our integrator against the talk's closed form, not reproductions.

# %% tags=["hide-input"]
for gamma in (0.5, 0.25):
    t, w = integrate_norm_dynamics(w0=4.0, gamma=gamma, t_max=20.0, n_steps=20_000, w_c=1.0)
    t_hit = t[np.argmax(w <= 1.0)]
    print(f"gamma = {gamma}: integrated t = {t_hit:.2f}, ln(w0/wc)/gamma = {time_to_grok(4.0, 1.0, gamma):.2f}")
    claims.check(f"LU dynamics, gamma={gamma}: integrated time to w_c", t_hit,
                 reference=time_to_grok(4.0, 1.0, gamma), live=False)

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
ts_stats = ts_book_statistics(ts_cfg, land=ts_land)
(best_ratio, seed_ratio), (rise, seed_rise), (top, seed_top), (floor, seed_floor) = (
    ts_stats[k] for k in ("ratio", "rise", "top", "floor"))
(rise10, seed_rise10), (fall01, seed_fall01), (knee, seed_knee) = (ts_stats[k] for k in ("rise10", "fall01", "knee"))
# the L's plateau at alpha = 0.1: its change over the second half of the run, and its spread over seeds
(top_drift, seed_top_drift), (top_spread, _) = ts_stats["top_drift"], ts_stats["top_spread"]
RES_RATIO, RES_RISE, RES_TOP, RES_FLOOR = 0.5, 0.25, 0.1, 0.5  # resolutions of what we show (see the text below)
glue("ts_rise", trained(rise, RES_RISE), display=False)
glue("ts_top", trained(top, RES_TOP), display=False)
glue("ts_top_gap", trained(abs(top - np.log10(1.4e-2)), RES_TOP), display=False)
glue("ts_floor", trained(floor, RES_FLOOR), display=False)
for name, value in (("ts_rise10", rise10), ("ts_fall01", fall01), ("ts_knee", knee)):
    glue(name, trained(value, RES_RISE), display=False)
print(f"test loss at alpha = 1 / best test loss on the grid, median of {len(seed_ratio)} seeds: {trained(best_ratio, RES_RATIO)}")
print(f"log10 test-loss rise from alpha = 1 to 3.98, median: {trained(rise, RES_RISE)} decades (official table: 3.7)")
print(f"log10 test-loss rise from alpha = 1 to 10, median: {trained(rise10, RES_RISE)} decades (official table: 5.09)")
print(f"log10 test-loss fall from alpha = 0.1 to 1, median: {trained(fall01, RES_RISE)} decades (official table: 2.31)")
print(f"log10 train MSE at alpha = 0.1, median: {trained(top, RES_TOP)} (official table: log10 1.4e-2 = -1.85)")
print(f"log10 train MSE at alpha = 0.25, median: {trained(knee, RES_RISE)} (official table: log10 1.4e-3 = -2.85)")
print(f"log10 largest train MSE for alpha >= 1, median: {trained(floor, RES_FLOOR)} (official log: 1e-6 at its last "
      f"line, at most 4e-6 = 10^{np.log10(4e-6):.2f} after step 5,000)")

# %% [markdown]
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
claims.check("TS: test loss at alpha=1 / grid minimum (median over seeds)", best_ratio, seeds=seed_ratio)
claims.check("TS: log10 test-loss rise alpha 1 -> 3.98 (median over seeds)", rise, seeds=seed_rise)
claims.check("TS: log10 test-loss rise alpha 1 -> 10 (median over seeds)", rise10, seeds=seed_rise10)
claims.check("TS: log10 test-loss fall alpha 0.1 -> 1 (median over seeds)", fall01, seeds=seed_fall01)
claims.check("TS: log10 train MSE at alpha=0.25, the L's knee (median over seeds)", knee, seeds=seed_knee)
claims.check("TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)", top,
             reference=np.log10(1.4e-2), seeds=seed_top)
claims.check("TS: the L's plateau has converged: |change of log10 train MSE at alpha=0.1 over the second half| "
             "(median over seeds)", top_drift, seeds=seed_top_drift)
claims.check("TS: the L's plateau, spread of log10 train MSE at alpha=0.1 over seeds", top_spread)
_ = claims.check("TS: log10 largest train MSE for alpha>=1, the L's lower arm (median over seeds)", floor,
             seeds=seed_floor,
             evidence=f"{ts_cfg.landscape_steps:,} constrained Adam steps at lr {ts_cfg.landscape_lr:g} (official: 1e4 at "
                      "3e-4): the runs near alpha = 1 "
                      "stop at a floor of Adam at a constant, 7x larger lr, while the alpha >= 4 runs go orders of "
                      "magnitude lower; five student seeds. Training 1e4 steps at the official lr does not fit the "
                      "chapter's time budget. The bound 1e-6 came from misreading the official log (see the text).")

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
ts_stats.update(ts_book_statistics(ts_cfg, grok=ts_grok))  # the grokking runs' statistics (the function above)
slope, slopes = ts_stats["slope"]  # the median of one log-log slope per seed
RES_SLOPE, RES_TS_STEPS = 0.2, 100
fig_ts_grok, axes = plt.subplots(1, 3, figsize=(14, 3.8))
for r, ax in zip([n_sw, 0], axes[:2]):
    rr = ts_grok.runs_of(r)
    plot_grokking(h.steps, {"train": h["train_acc"][rr], "test": h["val_acc"][rr]}, norm=h["weight_norm"][rr], ax=ax,
                  title=f"alpha = {ts_grok.alphas[r]:g}, gamma = {ts_grok.gammas[r]:g} ({ts_cfg.n_seeds} seeds)")
plot_gamma_scaling(ts_grok, ax=axes[2])
axes[2].set_title("steps to 95 % accuracy (alpha = 2)")
fig_ts_grok.tight_layout()
glue("fig_ts_grok", fig_ts_grok, display=False)
plt.close(fig_ts_grok)
glue("ts_slope", trained(slope, RES_SLOPE), display=False)
# Per seed: whether alpha = 2, gamma = 0 reaches 95 % test (1.0) or not; the control's steps from fitting to
# generalizing; the plateau of alpha = 2 without decay (its final test accuracy, and the change of its test loss
# over the second half of the run, in decades); the same change for the smallest gamma of the sweep, for contrast.
(never_frac, never_seeds), (ctrl_lag_med, ctrl_lag) = ts_stats["never"], ts_stats["ctrl_lag"]
(plateau_acc, plateau_acc_seeds) = ts_stats["plateau_acc"]
(plateau_drift, plateau_drift_seeds) = ts_stats["plateau_drift"]
sweep_drift = ts_stats["sweep_drift"][0]
RES_PLATEAU_ACC, RES_DRIFT = 0.25, 0.1
glue("ts_plateau_acc", trained(plateau_acc, RES_PLATEAU_ACC), display=False)
glue("ts_plateau_drift", trained(plateau_drift, RES_DRIFT), display=False)
glue("ts_sweep_drift", trained(sweep_drift, RES_DRIFT), display=False)
print(f"alpha  gamma  seeds reaching 95 % test  (of {ts_cfg.n_seeds})")
for k, (al, g) in enumerate(zip(ts_grok.alphas, ts_grok.gammas)):
    print(f"{al:5.1f}  {g:5.2f}  {trained(int((ts_grok.seed_test_steps[:, k] > 0).sum()))}")
print(f"log-log slope of steps-to-test vs gamma, median of per-seed slopes: {trained(slope, RES_SLOPE)}")
print(f"alpha = 2, gamma = 0: final test accuracy, median: {trained(plateau_acc, RES_PLATEAU_ACC)}; change of log10 "
      f"test loss over the second half: {trained(plateau_drift, RES_DRIFT)} (gamma = {ts_cfg.gammas[0]:g}: "
      f"{trained(sweep_drift, RES_DRIFT)})")

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_ts_grok.png
# **Liu, Michaud & Tegmark 2023, Fig. 2(b, c) (ours).** Left: the large student ($\alpha=2$) without weight decay fits the training set at once and never
# generalizes, its norm (dashed, right axis) stays put. Middle: with $\gamma = 0.1$ the norm decays and
# test accuracy follows, late. Right: steps to 95 % train accuracy do not depend on $\gamma$; steps to
# 95 % test accuracy fall as a power law of slope {eval}`glued.ts_slope` (the theory: −1). Thick: median
# over seeds; faint: every seed.
# ```
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
claims.check("TS: steps-to-test vs gamma, log-log slope (median of per-seed slopes)", slope, seeds=slopes)
claims.check("TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test", never_frac, seeds=never_seeds)
claims.check("TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)", plateau_acc,
             seeds=plateau_acc_seeds)
claims.check("TS: alpha=2, gamma=0: change of log10 test loss over the second half (median over seeds)",
             plateau_drift, seeds=plateau_drift_seeds)
_ = claims.check("TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)", ctrl_lag_med, seeds=ctrl_lag)

# %% [markdown]
# ### The book-scale comparisons again, on fresh seeds (stored, sealed before the run)
#
# The landscape's and the grokking runs' comparisons above are trained live with students 1-5, which ran before
# their criteria were registered: they are exploratory and decide no paper claim. Six of them (the L's upper arm
# and knee, and the four of Fig. 2b) were registered again on 2026-12-02 (T66-T71), with the same criteria, for a
# run of the same book-scale experiments with five students that no run of this chapter used (seeds 1000-1004,
# `confirmation_config()`; the teacher, data and settings are those above), stored and sealed when it started.
# The same function (`ts_book_statistics`) reads their statistics here. `python -m repro.experiments.liu2023_omnigrok
# --store book/_results --run confirm` recomputes it (under a minute on one core).

# %% tags=["hide-input"]
CONFIRM = "confirmation (fresh seeds, stored): "
conf = stored_confirmation("_results")
if conf is None:
    print("the stored confirmation is missing: run `python -m repro.experiments.liu2023_omnigrok --store "
          "book/_results --run confirm` from the repository root (under a minute on one core)")
else:
    conf_land, conf_grok, conf_man = conf
    print(f"{conf_man['label']}: {provenance_line(conf_man)}, {conf_man['wall_time_s'] / 60:.1f} min")
    conf_stats = ts_book_statistics(confirmation_config(), land=conf_land, grok=conf_grok)
    for key, name in (("top", "TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)"),
                      ("knee", "TS: log10 train MSE at alpha=0.25, the L's knee (median over seeds)"),
                      ("never", "TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test"),
                      ("plateau_acc", "TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)"),
                      ("plateau_drift", "TS: alpha=2, gamma=0: change of log10 test loss over the second half "
                                        "(median over seeds)"),
                      ("ctrl_lag", "TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)")):
        value, seeds = conf_stats[key]
        print(f"{name}: {value:.3g} (seeds " + ", ".join(f"{v:.3g}" for v in seeds) + ")")
        claims.check(CONFIRM + name, value, live=False, run=conf_man, seeds=seeds,
                     statistic="mean" if key == "never" else "median")

# %% [markdown]
# ### Teacher–student at the official settings (stored, claims sealed before the run)
#
# The book-scale runs above use a 7× larger learning rate for the landscape and about 3× for grokking, so that
# they fit in minutes; the L's lower arm then stops at Adam's floor. The stored run `stored_ts_config()` uses the
# settings of §3 and the official notebooks: Adam / AdamW at $3\cdot10^{-4}$; the notebook's 11 norms; the
# landscape trained for §3's $10^5$ steps and read also at the notebook's $10^4$, the budget of its table; and
# $\alpha = 2$ against 8 decays in $[0.03, 1]$ plus both $\gamma = 0$ controls for $10^5$ steps. Three student seeds
# (the paper shows one). It took {eval}`glued.tss_minutes` minutes on one core;
# `python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts` recomputes it. Nine claims were
# registered before it started. Against the notebook's table: the L's lower arm below $10^{-6}$ at both budgets, and
# the U's arms, the L's knee and its upper arm at $10^4$ steps, with the book scale's tolerances. Against the talk:
# the $1/\gamma$ slope to ±0.2; the time law itself, $t = \ln(w_0/w_c)/(\mathrm{lr}\,\gamma)$ steps, with AdamW's
# decoupled decay; and no generalization at $\alpha = 2$ without decay. For the time law we read $w_0/w_c = 2$: the
# student starts at twice the teacher's scale and generalizes near it (the U's minimum). We allow a factor 2 either
# way in the steps.

# %% tags=["hide-input"]
tss_cfg = stored_ts_config()
tss_land, tss_grok, tss_mans = require_stored(
    stored_ts(tss_cfg, "_results"), "teacher-student run",
    "python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts", "about 20 minutes on one core")
for m in tss_mans:
    print(f"{m['label']}: {provenance_line(m)}, {m['wall_time_s'] / 60:.0f} min")
glue("tss_minutes", f"{sum(m['wall_time_s'] for m in tss_mans) / 60:.0f}", display=False)
display(stored_teacher_student_setup_table(tss_cfg))
ta = tss_land.alphas
j4 = int(np.flatnonzero(tss_land.history.steps == 10_000)[0])  # the notebook's budget
t_i1, t_i10 = int(np.argmin(abs(np.log10(ta)))), int(np.argmin(abs(ta - 10.0)))
t_i025 = int(np.argmin(abs(ta - 0.251)))
tr4, te4 = tss_land.seed_values("train_loss", j4), tss_land.seed_values("val_loss", j4)
tss_seed = {"floor4": tss_land.lower_arm(j4), "floor5": tss_land.lower_arm(-1),
            "rise10": np.log10(te4[:, t_i10] / te4[:, t_i1]), "fall01": np.log10(te4[:, 0] / te4[:, t_i1]),
            "top": np.log10(tr4[:, 0]), "knee": np.log10(tr4[:, t_i025])}
tss = {k: float(np.median(v)) for k, v in tss_seed.items()}
for k, label in (("floor4", "log10 largest train MSE for alpha >= 1 after 10^4 steps (official log: at most -5.40)"),
                 ("floor5", "the same after 10^5 steps"),
                 ("rise10", "log10 test-loss rise alpha 1 -> 10 after 10^4 steps (table: 5.09)"),
                 ("fall01", "log10 test-loss fall alpha 0.1 -> 1 after 10^4 steps (table: 2.31)"),
                 ("top", "log10 train MSE at alpha = 0.1 after 10^4 steps (table: -1.85)"),
                 ("knee", "log10 train MSE at alpha = 0.25 after 10^4 steps (table: -2.85)")):
    print(f"{label}: median {tss[k]:.2f}; seeds " + ", ".join(f"{v:.2f}" for v in tss_seed[k]))
n_tsw = tss_grok.n_sweep
tss_slopes = seed_slopes(tss_grok)
tss_slope = float(np.median(tss_slopes))
tss_g = np.asarray(tss_grok.gammas[:n_tsw])
tss_t = tss_grok.seed_test_steps[:, :n_tsw].astype(float)
tss_law = np.log(2) / (tss_cfg.grok_lr * tss_g)  # steps from alpha = 2 down to alpha = 1 under AdamW's decay
tss_ratio = np.log10(np.where(tss_t > 0, tss_t, np.inf) / tss_law)  # never generalized: +inf (censored)
tss_ratio_med = float(np.median(tss_ratio))
tss_never = tss_grok.seed_test_steps[:, n_tsw] > 0
print("gamma:                 " + "  ".join(f"{g:7.3f}" for g in tss_g))
print("ln 2 / (lr gamma):     " + "  ".join(f"{t:7.0f}" for t in tss_law))
for s, row in enumerate(tss_grok.seed_test_steps[:, :n_tsw]):
    print(f"seed {s}: steps to 95 % test " + "  ".join(f"{t:7d}" for t in row))
print(f"log-log slope, median of per-seed slopes: {tss_slope:.2f} (seeds " + ", ".join(f"{v:.2f}" for v in tss_slopes)
      + ")")
print(f"log10 (steps to 95 % test) / (ln 2 / (lr gamma)): median over gammas and seeds {tss_ratio_med:.2f}")
print(f"alpha = 2, gamma = 0: seeds reaching 95 % test in {tss_cfg.grok_steps:,} steps: {int(tss_never.sum())} of "
      f"{len(tss_never)}")
for k in tss:
    glue(f"tss_{k}", f"{tss[k]:.2f}", display=False)
glue("tss_slope", f"{tss_slope:.2f}", display=False)
glue("tss_law", f"{tss_ratio_med:.2f}", display=False)
fig_tss, axes = plt.subplots(1, 2, figsize=(11, 3.8))
plot_landscape(tss_land, ax=axes[0], title=f"landscape after {tss_cfg.landscape_steps:,} steps (median of 3 seeds)")
axes[0].axvline(1.0, color="grey", lw=0.8, ls=":")
plot_gamma_scaling(tss_grok, ax=axes[1])
axes[1].loglog(tss_g, tss_law, "--", color="C3", label="ln 2 / (lr γ): the talk's time law")
axes[1].legend(fontsize=8)
axes[1].set_title(f"steps to 95 % accuracy (alpha = 2, lr {tss_cfg.grok_lr:g})")
fig_tss.tight_layout()
glue("fig_tss", fig_tss, display=False)
plt.close(fig_tss)
TSS = "TS (stored, official settings): "
tss_seeds_text = {k: ", ".join(f"{v:.2f}" for v in vals) for k, vals in tss_seed.items()}
tss_evidence = {  # what a deviation quotes
    "floor4": f"after the notebook's 10^4 steps at lr 3e-4 the largest train MSE for alpha >= 1 is 10^{tss['floor4']:.2f} "
              f"(seeds {tss_seeds_text['floor4']}), not below 10^-6, a bound the official log does not meet either "
              "(it prints up to 4e-6 for alpha >= 1 after step 5,000)",
    "floor5": f"after 10^5 steps it is 10^{tss['floor5']:.2f} (seeds {tss_seeds_text['floor5']}): runs at large alpha "
              "that had gone far lower rise again under constant-rate Adam",
    "knee": f"the knee is at 10^{tss['knee']:.2f} (seeds {tss_seeds_text['knee']}), at the edge of ±0.5 decades from "
            "the table's -2.85; our teacher and data are not the notebook's"}
for k, name in (("floor4", "log10 largest train MSE for alpha>=1 after 10^4 steps, the L's lower arm (median over seeds)"),
                ("floor5", "log10 largest train MSE for alpha>=1 after 10^5 steps, the L's lower arm (median over seeds)"),
                ("rise10", "log10 test-loss rise alpha 1 -> 10 after 10^4 steps (median over seeds)"),
                ("fall01", "log10 test-loss fall alpha 0.1 -> 1 after 10^4 steps (median over seeds)"),
                ("top", "log10 train MSE at alpha=0.1 after 10^4 steps, the L's upper arm (median over seeds)"),
                ("knee", "log10 train MSE at alpha=0.25 after 10^4 steps, the L's knee (median over seeds)")):
    claims.check(TSS + name, tss[k], live=False, run=tss_mans[0], seeds=tss_seed[k], statistic="median",
                 evidence=tss_evidence.get(k, ""))
claims.check(TSS + "steps-to-test vs gamma, log-log slope (median of per-seed slopes)", tss_slope, live=False,
             run=tss_mans[1], seeds=tss_slopes, statistic="median")
tss_implied = 2 ** (10 ** tss_ratio_med)  # the w0/wc that would make the law hold
glue("tss_implied", f"{tss_implied:.1f}", display=False)
glue("tss_alpha_c", f"{2 / tss_implied:.1f}", display=False)
claims.check(TSS + "log10 of the steps to 95 % test over ln(2)/(lr gamma), median over the gamma sweep and seeds",
             tss_ratio_med, live=False, run=tss_mans[1],
             evidence=f"the students reach 95 % test accuracy 10^{tss_ratio_med:.2f} times ln(2)/(lr gamma) steps, "
                      f"at every gamma and seed (log10 ratios {np.nanmin(tss_ratio):.2f} to {np.nanmax(tss_ratio):.2f}), "
                      f"while the slope is {tss_slope:.2f}: the decay time holds, but they generalize once the norm has "
                      f"fallen by {tss_implied:.1f}x, not 2x (reading the time law with w0/wc = 2 was ours)")
_ = claims.check(TSS + "alpha=2, gamma=0: fraction of seeds reaching 95 % test in 10^5 steps", float(tss_never.mean()),
             live=False, run=tss_mans[1])

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
# out as deviations from that bound and are now checks against it; the comparison with the printed table follows
# below. Runs at large $\alpha$ reach $10^{-13}$ and then rise again under constant-rate Adam, so a longer budget
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
# ### The L's lower arm on nine seeds (stored)
#
# The floor differs by about a decade from seed to seed (which $\alpha$ sits on Adam's floor changes), so on three
# seeds its claims were fragile. The stored run `stored_ts_seeds_config()` trains six more students (seeds 4–9)
# on the same teacher, data, norms, rate and budget ({eval}`glued.tsm_minutes` minutes on one core;
# `python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts-seeds` recomputes it). Its two
# claims, the same criterion on the nine seeds joined, were registered before it started, but after the three
# seeds above had been seen, so they are registered as deviations and carry † (the first run did not seal them).

# %% tags=["hide-input"]
tsm = stored_ts_landscape_seeds("_results")
TSS9 = "TS (stored, official settings, 9 seeds): "
tss9_names = {k: TSS9 + f"log10 largest train MSE for alpha>=1 after 10^{e} steps, the L's lower arm (median over seeds)"
              for k, e in (("floor4", 4), ("floor5", 5))}
tss9 = {}
if tsm is None:
    print("The six-seed landscape is not stored yet (the command above computes it); its claims are not judged.")
    glue("tsm_minutes", "(not stored yet)", display=False)
    for k in tss9_names:
        glue(f"tss9_{k}", "(not stored yet)", display=False)
else:
    tsm_land, tsm_man = load_stored(tsm, "six-seed teacher-student landscape",
                                    "python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts-seeds",
                                    "about 20 minutes on one core", glue_minutes="tsm_minutes")
    jm4 = int(np.flatnonzero(tsm_land.history.steps == 10_000)[0])
    more = {"floor4": tsm_land.lower_arm(jm4), "floor5": tsm_land.lower_arm(-1)}
    for k, after in (("floor4", "10^4"), ("floor5", "10^5")):
        vals = np.concatenate([tss_seed[k], more[k]])  # students 1-3, then 4-9
        tss9[k] = float(np.median(vals))
        print(f"log10 largest train MSE for alpha >= 1 after {after} steps: median of 9 seeds {tss9[k]:.2f}; seeds 1-9 "
              + ", ".join(f"{v:.2f}" for v in vals) + f"; seeds below -6: {int((vals <= -6).sum())} of 9")
        glue(f"tss9_{k}", f"{tss9[k]:.2f}", display=False)
        claims.check(tss9_names[k], tss9[k], live=False, run=[tss_mans[0], tsm_man], seeds=vals, statistic="median",
                     evidence=f"after {after} steps at lr 3e-4 the largest train MSE for alpha >= 1 is "
                              f"10^{tss9[k]:.2f} (median of nine students; seeds " + ", ".join(f"{v:.2f}" for v in vals)
                              + "), not below 10^-6; our teacher and data are not the notebook's")

# %% [markdown]
# On nine seeds the L's lower arm sits at $10^{x}$ with $x$ = {eval}`glued.tss9_floor4` after $10^4$ steps and
# {eval}`glued.tss9_floor5` after $10^5$ (medians; the per-seed values are printed above). These claims asked for
# "below $10^{-6}$", our misreading of the table, and are now checks against that bound. Read against what the
# official log prints, at most $4\cdot10^{-6}$ ($10^{-5.40}$) for $\alpha \ge 1$ after step 5,000, the same nine
# students are compared again in two claims registered on 2026-12-02, after these values had been seen. They are
# re-readings (†) and decide nothing.
#
# ### The L's lower arm against the official log, on fresh students (stored, sealed before the run)
#
# Nine students that no run of the chapter used (seeds 2000–2008, `lower_arm_config()`) train on the same teacher,
# data, norms and rate for the notebook's $10^4$ steps ({eval}`glued.tsl_minutes` minutes on one core;
# `python -m repro.experiments.liu2023_omnigrok --store book/_results --run lower-arm`). Two claims were sealed when
# the run started. (i) The largest train loss for $\alpha \ge 1$ is at most the official log's $4\cdot10^{-6}$
# (median over students). (ii) It is at most $10^{-5}$, the offset the official plot adds to the training loss
# before drawing it on a log axis, so that Fig. 2a draws as flat any loss below it. Level (ii) was chosen after
# students 1–9 had been seen.

# %% tags=["hide-input"]
for k, after in (("floor4", "10^4"), ("floor5", "10^5")):
    if tsm is not None:
        claims.check(TSS9 + f"log10 largest train MSE for alpha>=1 after {after} steps against the official log's largest "
                     "late value 4e-6 (median over seeds)", tss9[k], live=False, run=[tss_mans[0], tsm_man],
                     seeds=np.concatenate([tss_seed[k], more[k]]), statistic="median")
tsl = stored_ts_lower_arm("_results")
TSL = "TS (stored, fresh students 2000-2008): log10 largest train MSE for alpha>=1 after 10^4 steps"
tsl_names = [TSL + " against the official log's largest late value 4e-6 (median over seeds)",
             TSL + ", below the 1e-5 the official plot adds (median over seeds)"]
if tsl is None:
    print("The fresh-student landscape is not stored yet (the command above computes it); its claims are not judged.")
    for key in ("tsl_minutes", "tsl_floor"):
        glue(key, "(not stored yet)", display=False)
else:
    tsl_land, tsl_man = load_stored(tsl, "fresh-student teacher-student landscape",
                                    "python -m repro.experiments.liu2023_omnigrok --store book/_results --run lower-arm",
                                    "about 4 minutes on one core", glue_minutes="tsl_minutes")
    tsl_seeds = tsl_land.lower_arm(-1)
    tsl_med = float(np.median(tsl_seeds))
    print(f"log10 largest train MSE for alpha >= 1 after 10^4 steps: median of 9 students {tsl_med:.2f}; students "
          "2000-2008 " + ", ".join(f"{v:.2f}" for v in tsl_seeds) + f"; above 4e-6: {int((tsl_seeds > np.log10(4e-6)).sum())}"
          f" of 9; above 1e-5: {int((tsl_seeds > -5).sum())} of 9")
    glue("tsl_floor", f"{tsl_med:.2f}", display=False)
    for name in tsl_names:  # sealed when the run started
        claims.check(name, tsl_med, live=False, run=tsl_man, seeds=tsl_seeds, statistic="median",
                     evidence="students 2000-2008: " + ", ".join(f"{v:.2f}" for v in tsl_seeds))

# %% [markdown]
# On the fresh students the lower arm sits at $10^{x}$ with $x$ = {eval}`glued.tsl_floor` (median; per student
# above), against the official log's $10^{-5.40}$ and the plot's $10^{-5}$. The verdicts of both claims, with their
# margins in seed standard errors, are in *Paper versus ours*.

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
k_fit = np.argmax(img_h["train_acc"] >= 0.95, axis=1)  # per seed: first evaluation at 95 % train accuracy
val_at_fit = img_h["val_acc"][np.arange(len(k_fit)), k_fit]
RES_IMG_ACC = 0.1
glue("img_val_at_fit", trained(np.median(val_at_fit), RES_IMG_ACC), display=False)
glue("img_val_final", trained(np.median(img_h["val_acc"][:, -1]), RES_IMG_ACC), display=False)
print(f"test accuracy when train accuracy first reaches 95 %, median: {trained(np.median(val_at_fit), RES_IMG_ACC)}")
print(f"final test accuracy, median: {trained(np.median(img_h['val_acc'][:, -1]), RES_IMG_ACC)}")

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
glue("mod_n_seeds", str(mod_cfg.n_seeds), display=False)
ns = mod.norm_stats()  # the free run, per seed
peak, fall, final = (float(np.median(ns[key])) for key in ("peak", "fall", "final"))
delay_ratio = mod.delay_ratio()
RES_NORM, RES_DELAY = 0.1, 1.0
for name, value in (("mod_peak", peak), ("mod_fall", fall), ("mod_final", final)):
    glue(name, trained(value, RES_NORM), display=False)
glue("mod_delay_ratio", trained(delay_ratio, RES_DELAY), display=False)
print(f"free run, norm peak / initial, final / peak, final / initial (medians of {mod.n_seeds} seeds): "
      f"{trained(peak, RES_NORM)}, {trained(fall, RES_NORM)}, {trained(final, RES_NORM)}")
print(f"median delay 95 % train -> 95 % validation, fixed norm / free: {trained(delay_ratio, RES_DELAY)}")

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_mod.png
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
# transformer: section 4b.

# %% tags=["hide-input"]
claims.check("Mod: free run, norm peak / initial norm (median over seeds)", peak, seeds=ns["peak"])
claims.check("Mod: free run, final norm / peak norm (median over seeds)", fall, seeds=ns["fall"])
claims.check("Mod: free run, final norm / initial norm (median over seeds)", final, seeds=ns["final"],
             evidence=f"p = 31 embeddings + MLP stand-in (not the talk's p = 113 transformer), AdamW wd 1, "
                      f"{mod_cfg.steps:,} steps, {mod_cfg.n_seeds} seeds: the norm settles above its initial value "
                      "after grokking and stays there (the fixed-norm run is held at that final norm).")
_ = claims.check("Mod: median delay 95 % train -> 95 % val, fixed norm / free", delay_ratio,
             evidence=f"p = 31 embeddings + MLP stand-in, {mod_cfg.n_seeds} seeds per run; norm held at 1.1x the "
                      "initial norm (the free run's final norm), wd 0. Held at 0.3-0.7x the model does not "
                      "generalize in 3k steps, at 1.0x and 1.25x it is slower, at >= 1.5x it fails. The talk's "
                      "transformer is the stored run of section 4b (p = 59, another init).")

# %% [markdown]
# ### 4b. The talk's transformer, at $p = 59$ and with another initialization (stored)
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
tr_cfg = stored_modular_config()
glue("tr_steps", f"{tr_cfg.steps:,}", display=False)
tr, tr_manifest = load_stored(stored_modular(tr_cfg, "_results"), "transformer runs",
                              "python -m repro.experiments.liu2023_omnigrok --store book/_results", "about 85 minutes on two CPU cores")
glue("tr_wall", approx(tr_manifest["wall_time_s"] / 60, 10), display=False)
# The runs are loaded, not re-trained, so these numbers do not depend on this machine's arithmetic; steps are
# shown at the evaluation interval (every 50 steps), ratios to 0.01.
w_norm = np.asarray(tr.history["weight_norm"], dtype=float)
tr_w0 = float(np.median(w_norm[tr.runs_of(tr.FREE), 0]))
tr_w0_fixed = float(np.median(w_norm[tr.runs_of(tr.CONSTRAINED), 0]))
norm_official = official_init_norm(tr_cfg.model_config())
tr_w0_ratio, tr_w0_fixed_ratio = tr_w0 / norm_official, tr_w0_fixed / norm_official
glue("tr_w0", f"{tr_w0_ratio:.2f}×", display=False)
glue("tr_w0_fixed", f"{tr_w0_fixed_ratio:.2f}×", display=False)
display(stored_transformer_setup_table(tr_cfg, tr_w0, tr_w0_fixed))
fig_tr = plot_modular(tr, title_prefix=f"transformer, mod {tr_cfg.p}: ")
glue("fig_tr", fig_tr, display=False)
plt.close(fig_tr)
tr_ns = tr.norm_stats()  # the free run, per seed
tr_peak, tr_final, tr_val_at_peak = (float(np.median(tr_ns[k])) for k in ("peak", "final", "val_at_peak"))
tr_delay_free = float(np.median(tr.seed_delays(tr.FREE)))
tr_delay_fixed = float(np.median(tr.seed_delays(tr.CONSTRAINED)))
tr_ratio = tr.delay_ratio()
tr_fit_free = float(np.median(tr.seed_train_steps[:, tr.FREE]))
tr_fit_fixed = float(np.median(tr.seed_train_steps[:, tr.CONSTRAINED]))
final_val = tr.history["val_acc"][:, -1]
tr_val_free = float(np.median(final_val[tr.runs_of(tr.FREE)]))
tr_val_fixed = float(np.median(final_val[tr.runs_of(tr.CONSTRAINED)]))
for k, label in ((tr.FREE, "free"), (tr.CONSTRAINED, "fixed norm")):
    print(f"{label:>10}: 95 % train at steps {tr.seed_train_steps[:, k].tolist()}, 95 % validation at "
          f"{tr.seed_test_steps[:, k].tolist()} (per seed)")
print(f"median delay, free: {tr_delay_free:,.0f} steps (official, p = 113: about 6,800); fixed norm: "
      f"{tr_delay_fixed:,.0f} steps; ratio {tr_ratio:.3f}")
print(f"free run's norm, medians: initial {tr_w0:.1f} (official init at p = {tr_cfg.p}: {norm_official:.1f}), "
      f"peak / initial {tr_peak:.2f} (official: 1.43), final / initial {tr_final:.2f} (official: 0.71), validation "
      f"accuracy at the peak {tr_val_at_peak:.2f}")
print(f"final validation accuracy, medians: free {tr_val_free:.3f}, fixed norm {tr_val_fixed:.3f} (official: 1.00 both)")
for name, value in (("tr_delay_free", f"{tr_delay_free:,.0f}"), ("tr_delay_fixed", f"{tr_delay_fixed:,.0f}"),
                    ("tr_ratio", f"{tr_ratio:.3f}"), ("tr_peak", f"{tr_peak:.2f}"), ("tr_final", f"{tr_final:.2f}"),
                    ("tr_val_at_peak", f"{tr_val_at_peak:.2f}"), ("tr_val_fixed", f"{tr_val_fixed:.2f}"),
                    ("tr_fit_free", f"{tr_fit_free:,.0f}"), ("tr_fit_fixed", f"{tr_fit_fixed:,.0f}")):
    glue(name, value, display=False)

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
claims.check("Mod transformer: median delay 95 % train -> 95 % val, fixed norm / free", tr_ratio, live=False,
             run=tr_manifest)
claims.check("Mod transformer: free run, norm peak / initial norm (median over seeds)", tr_peak, live=False,
             run=tr_manifest)
claims.check("Mod transformer: free run, validation accuracy at the norm's peak (median)", tr_val_at_peak, live=False,
             run=tr_manifest)
claims.check("Mod transformer: free run, final norm / initial norm (median over seeds)", tr_final, live=False,
             run=tr_manifest)
claims.check("Mod transformer: free run, final validation accuracy (median)", tr_val_free, live=False, run=tr_manifest)
# two-sided, against the official run's numbers (registered after they were read: †)
TR_DIFF = (f"stored runs at p = {tr_cfg.p} (1,044 training pairs; the notebook: p = 113, 3,830), float32, 2 seeds, "
           f"the book's init (std 0.8/sqrt(d_model) everywhere plus trained zero attention and unembedding biases): "
           f"free runs start at {tr_w0_ratio:.2f}x the official init's norm, run (b) at {tr_w0_fixed_ratio:.2f}x")
claims.check("Mod transformer: free run, initial weight norm / the official init's expected norm at the same p",
             tr_w0_ratio, live=False, run=tr_manifest,
             evidence=f"initial norm {tr_w0:.1f} against the official init's {norm_official:.1f} at p = {tr_cfg.p}: the "
                      "book's transformer uses TransformerLens' init; the stored runs were keyed before this was found")
claims.check("Mod transformer: free run, norm peak / initial norm, against the official run (median over seeds)",
             tr_peak, live=False, run=tr_manifest)
claims.check("Mod transformer: free run, final norm / initial norm, against the official run (median over seeds)",
             tr_final, live=False, run=tr_manifest,
             evidence=f"{TR_DIFF}. The norm ends at {tr_final:.2f}x its start after {tr_cfg.steps:,} steps, above the "
                      "official 0.71; not separated whether p or the init causes it.")
claims.check("Mod transformer: free run, steps to 95 % train accuracy (median over seeds)", tr_fit_free, live=False,
             run=tr_manifest)
claims.check("Mod transformer: free run, steps from 95 % train to 95 % validation (median over seeds)",
             tr_delay_free, live=False, run=tr_manifest,
             evidence=f"{TR_DIFF}. Fewer training pairs delay grokking (the notebook's p = 113 groks at about 6,900 "
                      "steps); not separated from the init.")
claims.check("Mod transformer: fixed-norm run, steps to 95 % train accuracy (median over seeds)", tr_fit_fixed,
             live=False, run=tr_manifest,
             evidence=f"{TR_DIFF}. Held at a smaller norm than the notebook's, the model fits more slowly (the notebook: "
                      "'dropping alpha too low prevents the network from even fitting the train set').")
claims.check("Mod transformer: fixed-norm run, final validation accuracy (median over seeds)", tr_val_fixed,
             live=False, run=tr_manifest,
             evidence=f"{TR_DIFF}. Validation accuracy levels off near {tr_val_fixed:.3f} instead of reaching 1.00.")
tr_two_sided = [c for c in claims.claims if c.name.startswith("Mod transformer: ") and c.form == "value"]
glue("tr_n_value", str(len(tr_two_sided)), display=False)
glue("tr_n_dev", str(sum(c.kind == "deviation" for c in tr_two_sided)), display=False)

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

# %% tags=["hide-input"]
p113_cfg = official_modular_config()
p113_progress = ResultsStore("_results").progress(p113_cfg, OFFICIAL_STORE_LABEL)
print(f"p113: {p113_progress}")
p113 = stored_modular(p113_cfg, "_results", OFFICIAL_STORE_LABEL)
P113 = "Fig. 7 at the notebook's settings (p = 113, stored): "
p113_claims = []
if p113 is not None:
    t113, m113 = p113
    print(provenance_line(m113))
    display(p113_setup_table(p113_cfg))
    fig_113 = plot_modular(t113, title_prefix=f"transformer, mod {p113_cfg.p}: ")
    glue("fig_tr113", fig_113, display=False)
    plt.close(fig_113)
    ns113 = t113.norm_stats()
    w113 = np.asarray(t113.history["weight_norm"], dtype=float)
    fin113 = t113.history["train_acc"][:, -1], t113.history["val_acc"][:, -1]

    def log_steps(steps):
        """log10 of each seed's step (inf for a seed that never gets there)."""
        steps = np.asarray(steps, dtype=float)
        return np.where(steps > 0, np.log10(np.maximum(steps, 1)), np.inf)

    free, held = t113.runs_of(t113.FREE), t113.runs_of(t113.CONSTRAINED)
    values = {
        "free run: initial weight norm, median over seeds": w113[free, 0],
        "free run: peak weight norm / initial, median over seeds": ns113["peak"],
        "free run: final weight norm / initial (step 15,000), median over seeds": ns113["final"],
        "free run: log10 of the steps to 95 % training accuracy, median over seeds":
            log_steps(t113.seed_train_steps[:, t113.FREE]),
        "free run: log10 of the steps to 95 % validation accuracy, median over seeds":
            log_steps(t113.seed_test_steps[:, t113.FREE]),
        "free run: final training accuracy, median over seeds": fin113[0][free],
        "free run: final validation accuracy, median over seeds": fin113[1][free],
        "norm held at 0.8x: log10 of the steps to 95 % training accuracy, median over seeds":
            log_steps(t113.seed_train_steps[:, t113.CONSTRAINED]),
        "norm held at 0.8x: log10 of the steps to 95 % validation accuracy, median over seeds":
            log_steps(t113.seed_test_steps[:, t113.CONSTRAINED]),
        "norm held at 0.8x: final validation accuracy, median over seeds": fin113[1][held],
    }
    for name, per_seed in values.items():
        claims.check(P113 + name, float(np.median(per_seed)), live=False, run=m113, seeds=per_seed,
                     evidence=f"seeds {list(p113_cfg.seeds)}: " + ", ".join(f"{v:.3g}" for v in per_seed))
        p113_claims.append(P113 + name)
    p113_ratio = t113.delay_ratio()  # the talk's headline: held delay / free delay (medians over seeds)
    claims.check(P113 + "median delay 95 % train -> 95 % val, norm held at 0.8x / free", p113_ratio, live=False,
                 run=m113, evidence="delays per seed (steps): free " + ", ".join(
                     f"{d:.0f}" for d in t113.seed_delays(t113.FREE)) + "; held " + ", ".join(
                     f"{d:.0f}" for d in t113.seed_delays(t113.CONSTRAINED)))
    p113_claims.append(P113 + "median delay 95 % train -> 95 % val, norm held at 0.8x / free")
    spikes, window = t113.loss_spikes(), t113.norm_window(2_000)  # float32 spikes after grokking; the last 2,000 steps
    gaps = np.concatenate([np.diff(sp) for sp in spikes])
    for s_i, (sp, (lo, hi)) in enumerate(zip(spikes, window)):
        print(f"seed {p113_cfg.seeds[s_i]}: training-loss spikes (x10 in one evaluation) after grokking at steps "
              f"{', '.join(map(str, sp))}; weight norm / initial over the last 2,000 steps {lo:.2f} to {hi:.2f}")
    glue("p113_spike_gap", f"{np.median(gaps):,.0f}" if gaps.size else "(none)", display=False)
    glue("p113_spike_n", f"{sum(len(sp) for sp in spikes)}", display=False)
    glue("p113_window", " and ".join(f"{lo:.2f} to {hi:.2f}" for lo, hi in window), display=False)
    glue("p113_ratio", f"{p113_ratio:.3f}", display=False)
    # ours beside the notebook's (the registered references), for the prose below
    ref = {name: claims.registry.entries[P113 + name].reference for name in values}
    med = {name: float(np.median(v)) for name, v in values.items()}
    k = list(values)
    steps_text = lambda name: f"{10 ** med[name]:,.0f}" if np.isfinite(med[name]) else "never"
    glue("p113_text", (
        f"With the notebook's model and initialization the free runs start at weight norm {approx(med[k[0]], 0.1)} "
        f"(the notebook: {ref[k[0]]:g}), rise to {approx(med[k[1]], 0.01)} times that while they fit (notebook "
        f"{ref[k[1]]:g}) and end at {approx(med[k[2]], 0.01)} of their start (notebook {ref[k[2]]:g}). They reach 95 % "
        f"training accuracy at step {steps_text(k[3])} and 95 % validation accuracy at step {steps_text(k[4])} "
        f"(medians; the notebook: about {10 ** ref[k[3]]:,.0f} and {10 ** ref[k[4]]:,.0f}), and end at training and "
        f"validation accuracy {approx(med[k[5]], 0.01)} and {approx(med[k[6]], 0.01)}. Held at 0.8 times their "
        f"initial norm they fit at step {steps_text(k[7])} and generalize at step {steps_text(k[8])} (the notebook: "
        f"about {10 ** ref[k[7]]:,.0f} and {10 ** ref[k[8]]:,.0f}), ending at validation accuracy "
        f"{approx(med[k[9]], 0.01)}."), display=False)
    failed = [c.name[len(P113):] for c in claims.claims if c.name in p113_claims and c.kind == "deviation"]
    glue("p113_deviation", (
        f"At $p = 113$ with the notebook's initialization, {len(values) - len(failed)} of the {len(values)} two-sided "
        "claims against the notebook's run hold; " + (f"{len(failed)} do not: " + "; ".join(failed) + ". "
        if failed else "none fails. ") + "Float32 instead of float64, our split and initialization draws instead of "
        "the notebook's torch seed, and two seeds instead of one are the differences left (setup table, section 4c)."),
        display=False)
else:
    print("Fig. 7 at the notebook's settings is not judged in this build: its stored runs are "
          f"{p113_progress} (the command above runs or resumes them).")
    glue("fig_tr113", "(the stored runs are not finished)", display=False)
    glue("p113_text", "The stored runs are not finished.", display=False)
    glue("p113_deviation", "The stored runs are not finished; nothing is judged at $p = 113$ yet.", display=False)
    for key in ("p113_spike_gap", "p113_spike_n", "p113_window", "p113_ratio"):
        glue(key, "(not stored yet)", display=False)

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_tr113.png
# The talk's Fig. 7 at the notebook's own settings ($p = 113$, its initialization; two seeds, median line,
# quartile band). Left: the free run; its weight norm (dashed, right axis) should rise while it memorizes and
# fall below its start as validation accuracy climbs. Middle: the run held at $0.8\times$ its initial norm,
# where training and validation accuracy should rise together. Right: validation accuracy of both.
# ```
#
# {eval}`glued.p113_text` The claims in *Paper versus ours* compare each number with the notebook's,
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
RES_WM = 0.1
wc_seeds = wm.critical_alpha()
wc = np.median(np.where(np.isnan(wc_seeds), np.inf, wc_seeds), axis=0)  # never fitted: inf
wc_ratio = wc[-1] / wc[0]
best_test = wm.median("test_loss").min(axis=1)  # per messiness, the best norm
test_ratio = best_test[-1] / best_test[0]
u_test = wm.median("test_loss")[0]
u_rise = min(u_test[0], u_test[-1]) / u_test.min()
big_w_train = wm.median("train_loss")[0, -1]
for name, value in (("wm_wc0", wc[0]), ("wm_wc1", wc[-1]), ("wm_wc_ratio", wc_ratio), ("wm_test_ratio", test_ratio),
                    ("wm_u_rise", u_rise)):
    glue(name, trained(value, RES_WM), display=False)
glue("wm_big_train", trained(big_w_train, digits=1), display=False)
# only the two ends of the messiness axis are printed: in between, a seed's training loss can end right at the
# fit level at large norms, so whether it counts as fitted there depends on the last bits of the arithmetic
print(f"w_c (alpha where the training loss reaches {wm_cfg.fit_level:g}), medians over seeds: "
      f"{trained(wc[0], RES_WM)} at m = 0, {trained(wc[-1], RES_WM)} at m = {wm_cfg.messiness[-1]:g}")
print(f"best test loss over norms, m = {wm_cfg.messiness[-1]:g} / m = 0: {trained(test_ratio, RES_WM)}")
print(f"m = 0: test loss at the smallest and largest norm / its minimum, the smaller: {trained(u_rise, RES_WM)}")
print(f"m = 0: training loss at the largest norm: {trained(big_w_train, digits=1)}")

# %% [markdown]
# ```{figure} _figures/liu2023_omnigrok/fig_wm.png
# The reduced landscape over the decoder norm $w$ (as $\alpha$ times the standard initialization) and the
# representation messiness $m$, medians over decoder initializations. Left: log training loss, with
# $w_c(m)$ (white), the norm at which the training loss first reaches 0.02 (the official notebook's
# contour). Middle: log test loss. Right: test loss against the norm, one curve per $m$. What to see: $w_c$
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
# notebook trains 15,000 steps at lr $10^{-2}$, decayed). The bounds below (a ratio of at least 1.2 for
# $w_c$, 2 for the test loss, 1.5 for the U) were set after seeing a first run of this grid.

# %% tags=["hide-input"]
claims.check("WM: w_c at m = 0.2 / w_c at m = 0 (median over seeds)", wc_ratio)
claims.check("WM: best test loss over norms, m = 0.2 / m = 0 (median over seeds)", test_ratio)
claims.check("WM: m = 0, test loss at the grid's ends / its minimum (the U)", u_rise)
_ = claims.check("WM: m = 0, training loss at the largest norm (the L's lower arm)", big_w_train,
             reference=wm_cfg.fit_level, seeds=wm.train_loss[:, 0, -1],
             evidence=f"{wm_cfg.steps:,} full-batch Adam steps at lr 1e-3 (the official notebook: 15,000 at 1e-2, decayed "
                      "x0.2 every 5,000): at a fixed large norm Adam's steps move the network slowly, so the training "
                      "loss rises again towards the largest norms instead of staying at ~0.")

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

# %% tags=["hide-input"]
wm_off_cfg = MessinessConfig.official()
wm_off_progress = ResultsStore("_results").progress(wm_off_cfg, WM_OFFICIAL_LABEL)
wm_off = stored_messiness(wm_off_cfg, "_results")
WMO = "stored (official training): WM: "
wm_off_claims = []
if wm_off is not None:
    wmo, wmo_manifest = wm_off
    print(provenance_line(wmo_manifest))
    display(official_messiness_setup_table(wm_off_cfg))
    fig_wmo = plot_messiness(wmo)
    glue("fig_wm_official", fig_wmo, display=False)
    plt.close(fig_wmo)
    wco_seeds = wmo.critical_alpha()
    wco = np.median(np.where(np.isnan(wco_seeds), np.inf, wco_seeds), axis=0)  # never fitted: inf
    wmo_test = wmo.median("test_loss")
    wmo_values = {
        "w_c at m = 0.2 / w_c at m = 0": wco[-1] / wco[0],
        "best test loss over norms, m = 0.2 / m = 0": wmo_test[-1].min() / wmo_test[0].min(),
        "m = 0, test loss at the grid's ends / its minimum (the U)": min(wmo_test[0, 0], wmo_test[0, -1]) / wmo_test[0].min(),
        "m = 0, training loss at the largest norm (the L's lower arm)": float(wmo.median("train_loss")[0, -1]),
    }
    print(f"w_c: {approx(wco[0], 0.1)} at m = 0, {approx(wco[-1], 0.1)} at m = {wm_off_cfg.messiness[-1]:g}")
    for name, value in wmo_values.items():
        print(f"{name}: {approx(value, 0.01)}")
        claims.check(WMO + name, value, live=False, run=wmo_manifest,
                     evidence=f"the notebook's training, stored: one initialization, {wm_off_cfg.steps:,} steps")
        wm_off_claims.append(WMO + name)
    # A stored run is loaded, not recomputed: these numbers are the same on every machine.
    wmo_text = {"wmo_wc0": approx(wco[0], 0.1), "wmo_wc1": approx(wco[-1], 0.1),
                "wmo_wc_ratio": approx(wmo_values["w_c at m = 0.2 / w_c at m = 0"], 0.01),
                "wmo_test_ratio": approx(wmo_values["best test loss over norms, m = 0.2 / m = 0"], 0.01),
                "wmo_u_left": approx(wmo_test[0, 0] / wmo_test[0].min(), 0.01),
                "wmo_u_right": approx(wmo_test[0, -1] / wmo_test[0].min(), 0.01),
                "wmo_big_train": f"{float(wmo.median('train_loss')[0, -1]):.0e}"}
else:
    print(f"The (w, m) landscape with the notebook's training is not judged in this build: its stored run is "
          f"{wm_off_progress} (the command above runs it).")
    glue("fig_wm_official", "(the stored run is not finished)", display=False)
    wmo_text = {k: "(not stored yet)" for k in ("wmo_wc0", "wmo_wc1", "wmo_wc_ratio", "wmo_test_ratio", "wmo_u_left",
                                                "wmo_u_right", "wmo_big_train")}
for key, text in wmo_text.items():
    glue(key, text, display=False)

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
# $\theta_{55} < \theta_{45}$, a steeper slope at 55 pairs than at 45. The two claims registered before the runs ask
# for more: a rise of the slope at every larger size. That is our reading of the slide's arrow, a bound of ours, so
# they are checks. The paper's pair was registered on 2026-12-02, after the runs had been seen. Its two readings are
# re-readings (†): on the raw maps, and on the maps smoothed as the official plot smooths its own before drawing
# the contours (`blurred_like_notebook`). The $\gamma$ arrow is the $1/\gamma$ law of section 2. The time law
# itself, a run along the path, is not run.

# %% tags=["hide-input"]
ds_cfg = MessinessConfig.data_size(DATA_SIZES[0])
display(data_size_setup_table(ds_cfg))
# Two stored runs: the notebook's norm window, and the same landscapes with the window widened down to alpha = 1
# (registered after the first run showed the 25-pair contour left of the notebook's window).
DS_WINDOWS = {"notebook": (False, "stored (data size): WM: ", WM_SIZE_LABEL),
              "wide": (True, "stored (data size, wide window): WM: ", WM_SIZE_WIDE_LABEL)}
ds_claims, ds_text, ds_minutes, ds_progress = {}, {}, [], {}
for window, (wide, prefix, label) in DS_WINDOWS.items():
    stored_ds = stored_data_sizes("_results", wide=wide)
    if len(stored_ds) < len(DATA_SIZES):
        ds_progress[window] = ", ".join(
            f"{n}: {ResultsStore('_results').progress(MessinessConfig.data_size_wide(n) if wide else MessinessConfig.data_size(n), label)}"
            for n in DATA_SIZES)
        print(f"The data-size landscapes ({window} window) are not judged in this build; stored runs per size: "
              f"{ds_progress[window]} (the command above runs them{', with --wide' if wide else ''}).")
        glue(f"fig_wm_data_size_{window}", "(the stored runs are not finished)", display=False)
        ds_text[window] = {k: "(not stored yet)" for k in ("slopes", "steps", "verdict", "wc0")}
        continue
    ds = {n: r for n, (r, _) in sorted(stored_ds.items())}
    manifests = [man for _, man in stored_ds.values()]
    ds_minutes += [man["wall_time_s"] for man in manifests]
    a_lo, a_hi = ds[DATA_SIZES[0]].config.alphas[0], ds[DATA_SIZES[0]].config.alphas[-1]
    print(f"{window} window (alpha {a_lo:g} to {a_hi:g}): " + provenance_line(manifests[0]))
    fig_ds = plot_data_size(ds)
    glue(f"fig_wm_data_size_{window}", fig_ds, display=False)
    plt.close(fig_ds)
    slopes = {n: contour_slope(r) for n, r in ds.items()}

    def wc0_text(r):  # w_c at m = 0, or the window edge it lies beyond
        if (r.train_loss[:, 0, 0] <= r.config.fit_level).any():
            return f"<= {r.config.alphas[0]:g}"
        wc0 = float(np.median(r.critical_alpha(), axis=0)[0])
        return f"{wc0:.2f}" if np.isfinite(wc0) else f"> {r.config.alphas[-1]:g}"

    for n, cs in slopes.items():
        print(f"  {n:>2} training pairs: contour slope d ln(w_c)/dm = {cs.slope:.2f} ± {cs.se:.2f} ({cs.rows} of "
              f"{len(ds_cfg.messiness)} messiness values inside the window); w_c at m = 0: {wc0_text(ds[n])}")
    # every consecutive pair must rise: a size whose slope cannot be read leaves the claim unjudgeable (nan), not
    # quietly dropped
    steps = [slopes[b].slope - slopes[a].slope for a, b in zip(DATA_SIZES, DATA_SIZES[1:])]
    # each step's distance from 0 in units of its two slopes' standard errors (one initialization: no seed spread)
    zs = [d / np.hypot(slopes[a].se, slopes[b].se) for d, a, b in zip(steps, DATA_SIZES, DATA_SIZES[1:])]
    step_text = "; ".join(f"{a} to {b}: " + (f"{d:+.2f} ({z:+.1f} standard errors)" if np.isfinite(d)
                                              else "not readable (a slope is missing)")
                          for a, b, d, z in zip(DATA_SIZES, DATA_SIZES[1:], steps, zs))
    print(f"  slope increases between consecutive sizes: {step_text}")
    setting = (f"stored: the notebook's training, one decoder initialization, {len(ds_cfg.messiness)} messiness values "
               f"x {len(ds[DATA_SIZES[0]].config.alphas)} norms from {a_lo:g} to {a_hi:g}")
    claims.check(prefix + "slope of the fit-level contour d ln(alpha_c)/dm, smallest increase between consecutive "
                 "sizes (25, 35, 45, 54)", float(np.min(steps)), live=False, run=manifests,
                 evidence=f"{setting}; slopes " + ", ".join(f"{n}: {cs.slope:.2f} ± {cs.se:.2f} ({cs.rows} rows)"
                                                            for n, cs in slopes.items()) + f"; increases {step_text}")
    claims.check(prefix + "messiness values with the contour inside the norm window, fewest over the four sizes",
                 float(min(cs.rows for cs in slopes.values())), live=False, run=manifests,
                 evidence=f"{setting}; rows with a crossing inside the window: "
                          + ", ".join(f"{n}: {cs.rows}" for n, cs in slopes.items()))
    if window == "notebook":  # the paper's own pair, theta_55 < theta_45 (54 pairs here), raw and smoothed
        smooth = {n: contour_slope(blurred_like_notebook(r)) for n, r in ds.items()}
        print("  smoothed as the official plot: " + ", ".join(f"{n}: {cs.slope:.2f} ± {cs.se:.2f}"
                                                             for n, cs in smooth.items()))
        for name, sl in (("stored (data size): WM: ", slopes), ("stored (data size, maps smoothed as the official "
                                                                "plot): WM: ", smooth)):
            claims.check(name + "contour slope d ln(alpha_c)/dm at 54 pairs minus at 45 pairs (theta_55 < theta_45: "
                         ">= 0)", sl[54].slope - sl[45].slope, live=False, run=[stored_ds[45][1], stored_ds[54][1]],
                         evidence=f"slopes 45: {sl[45].slope:.2f} ± {sl[45].se:.2f}, 54: {sl[54].slope:.2f} ± "
                                  f"{sl[54].se:.2f} (one initialization; line-fit errors, not seeds)")
        ds_text["pair"] = {"raw": f"{slopes[54].slope - slopes[45].slope:+.2f}",
                           "smooth": f"{smooth[54].slope - smooth[45].slope:+.2f}",
                           "shift": f"{max(abs(smooth[n].slope - slopes[n].slope) for n in ds if np.isfinite(slopes[n].slope)):.2f}"}
    ds_claims[window] = claims.named(prefix)
    rises = [a for a, d in zip(DATA_SIZES, steps) if d >= 0]
    ds_text[window] = {"slopes": ", ".join(f"{cs.slope:.2f} ± {cs.se:.2f} ({n} pairs)" if cs.rows >= 2
                                            else f"not readable ({n} pairs: {cs.rows} rows inside)"
                                            for n, cs in slopes.items()),
                       "steps": step_text,
                       "wc0": ", ".join(f"{wc0_text(r)} ({n} pairs)" for n, r in ds.items()),
                       "verdict": ("the slope rises at every larger size, as the slide says" if len(rises) == len(steps)
                                   else f"the slope rises at {len(rises)} of the {len(steps)} steps between sizes, "
                                        "so the slide's arrow is not reproduced here")}
glue("ds_minutes", f"{sum(ds_minutes) / 60:.0f}" if ds_minutes else "(not stored yet)", display=False)
ds_text.setdefault("pair", {"raw": "(not stored yet)", "smooth": "(not stored yet)", "shift": "(not stored yet)"})
for window, texts in ds_text.items():
    for key, text in texts.items():
        glue(f"ds_{key}_{window}", text, display=False)

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
# decision rules (stated under the table): {eval}`glued.ledger_tally`. Claims whose data need a download (MNIST,
# IMDb, QM9), or whose experiments were not run here, are not tested.

# %% tags=["hide-input", "hide-output"]
claims.figure("liu2023", "Fig. 2a", claims=[
    "TS: test loss at alpha=1 / grid minimum (median over seeds)",
    "TS: log10 test-loss rise alpha 1 -> 3.98 (median over seeds)",
    "TS: log10 test-loss rise alpha 1 -> 10 (median over seeds)",
    "TS: log10 test-loss fall alpha 0.1 -> 1 (median over seeds)",
    "TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)",
    "TS: log10 train MSE at alpha=0.25, the L's knee (median over seeds)",
    "TS: log10 largest train MSE for alpha>=1, the L's lower arm (median over seeds)",
    "TS: the L's plateau has converged: |change of log10 train MSE at alpha=0.1 over the second half| "
    "(median over seeds)",
    "TS: the L's plateau, spread of log10 train MSE at alpha=0.1 over seeds"],
    why="the U (minimum at alpha = 1; its left arm from alpha = 0.1 and its rises to alpha = 4 and 10) and the L's "
        "converged plateau and its knee at alpha = 0.25 match the official table, two-sided; the L's lower arm "
        f"(10^{trained(floor, RES_FLOOR)} in {ts_cfg.landscape_steps:,} book-scale steps) is within the official log's 4e-6 for "
        "alpha >= 1; it is above 1e-6, the bound of ours that misread the table as ≈ 0")
claims.figure("liu2023", "Fig. 2b", claims=[
    "TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test",
    "TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)",
    "TS: alpha=2, gamma=0: change of log10 test loss over the second half (median over seeds)",
    "TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)"],
    why="alpha = 2 without decay never generalizes (within the book's steps): its test accuracy plateaus below "
        "95 % and stays flat; alpha = 0.5 generalizes as soon as it fits")
claims.figure("liu2023", "Fig. 2c", claims=[
    "TS: steps-to-test vs gamma, log-log slope (median of per-seed slopes)"],
    why="steps to 95 % test fall as a power of gamma with slope within 0.3 of -1; steps to train do not depend on gamma")
tss_2a = [TSS + n for n in (
    "log10 largest train MSE for alpha>=1 after 10^4 steps, the L's lower arm (median over seeds)",
    "log10 largest train MSE for alpha>=1 after 10^5 steps, the L's lower arm (median over seeds)",
    "log10 test-loss rise alpha 1 -> 10 after 10^4 steps (median over seeds)",
    "log10 test-loss fall alpha 0.1 -> 1 after 10^4 steps (median over seeds)",
    "log10 train MSE at alpha=0.1 after 10^4 steps, the L's upper arm (median over seeds)",
    "log10 train MSE at alpha=0.25 after 10^4 steps, the L's knee (median over seeds)")]
tss_2a += list(tss9_names.values()) if tss9 else []  # the nine-seed floors, once stored
tss_2a += [TSS9 + f"log10 largest train MSE for alpha>=1 after 10^{e} steps against the official log's largest late "
           "value 4e-6 (median over seeds)" for e in (4, 5)] if tss9 else []
tss_2a += tsl_names if tsl is not None else []  # the fresh students, once stored
claims.figure("liu2023", "Fig. 2a (official settings, stored)", scale="paper (CPU, stored)",
              claims=tss_2a,
              why=f"lr 3e-4, the notebook's 11 norms, 10^4 and 10^5 projected Adam steps, three seeds, claims sealed "
                  f"before the run: the L's lower arm reaches 10^{tss['floor4']:.1f} after 10^4 steps and "
                  f"10^{tss['floor5']:.1f} after 10^5 (the official log: up to 4e-6 for alpha >= 1; our first "
                  "bound, 1e-6, misread it and is now a check)"
                  + (f"; on nine seeds 10^{tss9['floor4']:.1f} and 10^{tss9['floor5']:.1f}" if tss9 else "")
                  + (f"; on nine fresh students, sealed, 10^{float(np.median(tsl_seeds)):.2f} after 10^4"
                     if tsl is not None else ""))
tss_2bc = [TSS + n for n in ("steps-to-test vs gamma, log-log slope (median of per-seed slopes)",
                             "log10 of the steps to 95 % test over ln(2)/(lr gamma), median over the gamma sweep and "
                             "seeds", "alpha=2, gamma=0: fraction of seeds reaching 95 % test in 10^5 steps")]
claims.figure("liu2023", "Fig. 2b-c (official settings, stored)", scale="paper (CPU, stored)",
              claims=tss_2bc,
              why=f"AdamW at lr 3e-4 for 10^5 steps, alpha = 2 against 8 decays, three seeds, claims sealed before the "
                  f"run: slope {tss_slope:.2f}; the steps to 95 % test sit at 10^{tss_ratio_med:.2f} times the talk's "
                  f"ln(w0/wc)/(lr gamma) with w0/wc = 2 (median); without decay {int(tss_never.sum())} of "
                  f"{len(tss_never)} seeds generalize")
claims.figure("liu2023", "Fig. 3", claims=[],
              why="needs MNIST (REPRO_MNIST_DIR, paper scale); the 8x8-digits substitute is shown without a claim "
                  "and has a much milder lag")
claims.figure("liu2023", "Fig. 4", claims=[],
              why="IMDb + LSTM: the data set is a download, not available here")
claims.figure("liu2023", "Fig. 5", claims=[],
              why="QM9 + graph convolutional network: the data set is a download, not available here")
claims.figure("liu2023", "Fig. 6", claims=[
    "WM: w_c at m = 0.2 / w_c at m = 0 (median over seeds)",
    "WM: best test loss over norms, m = 0.2 / m = 0 (median over seeds)",
    "WM: m = 0, test loss at the grid's ends / its minimum (the U)",
    "WM: m = 0, training loss at the largest norm (the L's lower arm)"],
    why="a messier representation needs a larger decoder norm to fit (Eq. 2) and generalizes worse, and the test "
        "loss is U-shaped in w (bounds set after a first run: †); the training loss rises again at large norms in "
        "the book's short runs with ReLU and a constant Adam rate (the notebook: LeakyReLU, a decayed rate); the "
        "data-size/weight-decay slide is the row 'Fig. 6 data size (backup slide)'")
claims.figure("liu2023", "Fig. 7", scale="paper (CPU, stored)", claims=claims.named("Mod transformer: "),
    why="† : the stored runs predate sealed claims, and the two-sided claims were registered after the official "
        "plots were read. With the talk's architecture and optimizer (p = 59 instead of 113, float32, 2 seeds, the "
        f"book's init at {tr_w0_ratio:.2f}x the official norm) the norm rises while the model memorizes, peaks as high as the "
        "official run's and ends below its start, and holding the norm fixed cuts the delay to under 1 % of the "
        "free run's; but the norm ends higher, grokking comes later, and the held run fits more slowly and levels "
        "off below 100 % (deviations against the official run); the book-scale p = 31 stand-in (section 4) shows "
        "neither the norm's fall below its start nor the effect of fixing it (its deviations stay in the claims above)")
claims.figure("liu2023", "Fig. 8", claims=[],
              why="the MNIST (norm, messiness) landscape of the backup slides needs MNIST and is not implemented")
if wm_off_claims:
    claims.figure("liu2023", "Fig. 6 (notebook's training)", scale="paper (CPU, stored)",
                  claims=wm_off_claims,
                  why="the notebook's grid and training (LeakyReLU, Adam 1e-2 decayed, 15,000 steps), one "
                      "initialization; four claims registered before the run: the training loss stays near zero at "
                      f"large norms (the L, {wmo_text['wmo_big_train']}), while the w_c ratio "
                      f"({wmo_text['wmo_wc_ratio']}), the test-loss ratio ({wmo_text['wmo_test_ratio']}) and the "
                      f"U's right arm ({wmo_text['wmo_u_right']}) point the slides' way but miss their bounds")
else:
    claims.figure("liu2023", "Fig. 6 (notebook's training)", scale="paper (CPU, stored)",
                  why=f"the stored run is {wm_off_progress}; its command runs it")
if len(ds_claims) == len(DS_WINDOWS):
    ds_all = [name for names in ds_claims.values() for name in names] + claims.named(
        "stored (data size, maps smoothed as the official plot): ")
    claims.figure("liu2023", "Fig. 6 data size (backup slide)", scale="paper (CPU, stored)",
                  claims=ds_all,
                  why="the notebook's training on its fine window (6 x 11 of its 21 x 21 grid) and on a window widened "
                      "to alpha = 1, sizes 25, 35, 45, 54, one initialization; the angle theta of the 0.02 "
                      "training-loss contour read as 1 / its slope d ln w_c/dm, claims registered before each run: "
                      f"notebook's window {ds_text['notebook']['slopes']}; wide window {ds_text['wide']['slopes']}; "
                      f"the paper's pair theta_55 < theta_45 reads {ds_text['pair']['raw']} (raw) and "
                      f"{ds_text['pair']['smooth']} (smoothed as the official plot), re-readings (†); "
                      "the time law t = (L + h tan theta)/gamma itself is not run")
else:
    claims.figure("liu2023", "Fig. 6 data size (backup slide)", scale="paper (CPU, stored)",
                  why="the stored runs are not all there (" + "; ".join(f"{w} window: {p}" for w, p in ds_progress.items())
                      + "); the command in section 5c runs them")
if p113_claims:
    claims.figure("liu2023", "Fig. 7 (notebook's settings, p = 113)",
                  scale="paper (CPU, stored)", claims=p113_claims,
                  why="the notebook's model, init, optimizer and 15,000 steps at p = 113, float32, two seeds; ten "
                      "two-sided claims against the notebook's figures, registered before the run: the start, peak, "
                      "fitting and grokking steps and final accuracies match; the free run's norm ends higher than "
                      "the notebook's, and the held run fits and generalizes later (deviations); the talk's headline, "
                      f"held delay / free delay {p113_ratio:.3f}, is a re-reading (†)")
else:
    claims.figure("liu2023", "Fig. 7 (notebook's settings, p = 113)",
                  scale="paper (CPU, stored)", why=f"the stored run is {p113_progress}; its command runs it")
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

# %% [markdown]
# ## Deviations
#
# * **Modular addition: a live stand-in, the talk's model stored.** The live run is the opening chapter's
#   embeddings + MLP on $p = 31$: its norm rises during generalization rather than memorization and
#   settles above its initial value, and holding the norm fixed does not shorten the delay. The talk's
#   own architecture and optimizer, Nanda's one-layer transformer, shows both (section 4b), at $p = 59$
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

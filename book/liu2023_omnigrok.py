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
# # Omnigrok: grokking as a weight-norm story (the LU mechanism)
#
# **The claim** (Liu, Michaud & Tegmark, *Omnigrok: Grokking Beyond Algorithmic Data*, ICLR 2023, as
# presented in Z. Liu's 2023 talk). Restrict the training loss to a sphere of fixed weight norm
# $\|\theta\|_2 = w$ and minimize it there. The resulting *reduced* training loss
# $\tilde\ell_{\rm train}(w)$ is **L-shaped** (high below a critical norm $w_c$, about zero above it),
# while the reduced test loss $\tilde\ell_{\rm test}(w)$ is **U-shaped**, lowest in a "Goldilocks" shell
# near $w_c$. A network initialized at a large norm fits the training data at once, then generalizes
# only when weight decay has shrunk it back to $w_c$. Above $w_c$ the loss gradient vanishes, so
# $dw/dt = -\gamma w - \partial\tilde\ell_{\rm train}/\partial w$ becomes $dw/dt=-\gamma w$ and the time to
# grok is $t \approx \ln(w_0/w_c)/\gamma \propto 1/\gamma$. Holding the norm at a good value removes the delay.
#
# **What we test** (book scale, a few minutes on a CPU): the reduced landscape of the teacher–student
# toy (Omnigrok Fig. 2a); teacher–student grokking with a large initialization and the $1/\gamma$ law
# (Fig. 2b, c); the landscape and grokking of an image MLP initialized at $\alpha = 8$ (Fig. 3) on an
# offline **substitute dataset** (scikit-learn's 8×8 digits, not MNIST), shown without a claim; and the
# weight norm during grokking of modular addition, free and held fixed (Fig. 7), on a **stand-in
# model** (the opening chapter's embeddings + MLP on $p = 31$), where holding the norm fixed does *not*
# remove the delay: a deviation, recorded as such.
#
# **What we leave out.** IMDb and QM9 (Figs. 4, 5: downloads), the two-dimensional (norm, messiness)
# landscapes of the backup slides (Figs. 6, 8), the data-size axis of the MNIST landscape, and the
# talk's $p=113$ transformer for Fig. 7. The transformer is the paper-scale setting of the same code
# (`REPRO_SCALE=paper`); at about $1.5\cdot10^{10}$ FLOP per full-batch step it is of order an hour per
# run on two CPU cores, and it was not run for this edition.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.claims import ClaimBook
from repro.omnigrok import (ImageConfig, ModularConfig, TeacherStudentConfig, image_landscape, plot_gamma_scaling,
                            plot_grokking, plot_landscape, plot_modular, run_image_grokking, run_modular,
                            run_teacher_student_grokking, seed_fraction, seed_slopes, teacher_student_landscape)
from repro.plotting import use_style
from repro.portable import approx
from repro.scale import current_scale
from repro.theory.omnigrok import integrate_norm_dynamics, time_to_grok

use_style()
claims = ClaimBook("liu2023_omnigrok")
print(f"scale: {current_scale()}")

# %% [markdown]
# ## Configuration
#
# Each experiment has a config whose defaults are the paper's settings (the official Omnigrok
# notebooks, `KindXiaoming/Omnigrok`); `for_scale()` swaps in the book-scale values. Book scale
# shortens training by raising learning rates and weight decays; by the theory this rescales times by
# $1/(\eta\gamma)$ and leaves the shapes alone.
#
# **Seeds.** Float32 training is chaotic: the last bit of a vectorized kernel (the same code on a CPU
# with other vector instructions) grows into a different trajectory. Every experiment below therefore
# trains five student / network initializations in the same batched call, and every number we print or
# claim is a median over them, rounded to a resolution that their spread justifies (stated at each
# claim).

# %%
ts_cfg = TeacherStudentConfig.for_scale()
img_cfg = ImageConfig.for_scale()
mod_cfg = ModularConfig.for_scale()
for name, value in (("ts_land_steps", ts_cfg.landscape_steps), ("ts_grok_steps", ts_cfg.grok_steps),
                    ("img_steps", img_cfg.steps), ("img_land_steps", img_cfg.landscape_steps),
                    ("img_land_n", img_cfg.landscape_n_train), ("img_n_alphas", len(img_cfg.landscape_alphas)),
                    ("mod_steps", mod_cfg.steps)):
    glue(name, f"{value:,}", display=False)
ts_cfg

# %% [markdown]
# ## Sanity check: the norm dynamics on a known answer
#
# Before training networks, the theory itself. We integrate $dw/dt = -\gamma w - \partial\tilde\ell/\partial w$
# with a model L curve ($\tilde\ell = (1-w/w_c)^2$ below $w_c$, zero above) from $w_0 = 4 w_c$. The time
# to reach $w_c$ must equal $\ln(w_0/w_c)/\gamma$ (to the Euler step, $10^{-3}$), and halving $\gamma$ must
# double it. These are checks of our integrator against the talk's closed form, not reproductions.

# %%
for gamma in (0.5, 0.25):
    t, w = integrate_norm_dynamics(w0=4.0, gamma=gamma, t_max=20.0, n_steps=20_000, w_c=1.0)
    t_hit = t[np.argmax(w <= 1.0)]
    print(f"gamma = {gamma}: integrated t = {t_hit:.2f}, ln(w0/wc)/gamma = {time_to_grok(4.0, 1.0, gamma):.2f}")
    claims.check(f"LU dynamics, gamma={gamma}: integrated time to w_c", t_hit, time_to_grok(4.0, 1.0, gamma),
                 kind="check", against="derivation", tolerance=0.01, resolution=0.01,
                 source="talk, 'LU mechanism': t(w0 -> wc) = ln(w0/wc)/gamma (Euler step 1e-3)")

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
# ```{glue:figure} fig_ts_land
# Reduced train and test MSE of the student against its norm scale $\alpha$ (log–log; the median over
# seeds thick, every seed faint). Training loss falls by orders of magnitude once $\alpha \gtrsim 0.6$
# (the L); test loss is lowest near $\alpha = 1$, the teacher's own scale, and rises by orders of
# magnitude at large $\alpha$ (the U).
# ```

# %%
a = ts_land.alphas
i1 = int(np.argmin(abs(np.log10(a))))  # alpha = 1
i4 = int(np.argmin(abs(a - 3.98)))  # the paper's alpha = 3.98 grid point
# Per-seed statistics (one value per student seed), then their median over seeds.
S_tr, S_te = ts_land.seed_train_loss, ts_land.seed_test_loss
seed_ratio = S_te[:, i1] / S_te.min(axis=1)  # test loss at alpha = 1 / the seed's best grid point
seed_rise = np.log10(S_te[:, i4] / S_te[:, i1])  # decades from alpha = 1 to 3.98
seed_top = np.log10(S_tr[:, 0])  # the L's upper arm: train MSE at alpha = 0.1
seed_floor = np.log10(S_tr[:, a >= 1.0].max(axis=1))  # the L's lower arm: largest train MSE for alpha >= 1
best_ratio, rise, top, floor = (float(np.median(v)) for v in (seed_ratio, seed_rise, seed_top, seed_floor))
# the L's plateau at alpha = 0.1: its change over the second half of the run, and its spread over seeds
top_drift = float(np.median(np.abs(seed_top - np.log10(ts_land.seed_values("train_loss", -2)[:, 0]))))
top_spread = float(np.ptp(seed_top))
RES_RATIO, RES_RISE, RES_TOP, RES_FLOOR = 0.5, 0.25, 0.1, 0.5  # resolutions of what we show (see the text below)
glue("ts_rise", approx(rise, RES_RISE), display=False)
glue("ts_top", approx(top, RES_TOP), display=False)
glue("ts_top_gap", approx(abs(top - np.log10(1.4e-2)), RES_TOP), display=False)
glue("ts_floor", approx(floor, RES_FLOOR), display=False)
print(f"test loss at alpha = 1 / best test loss on the grid, median of {len(seed_ratio)} seeds: {approx(best_ratio, RES_RATIO)}")
print(f"log10 test-loss rise from alpha = 1 to 3.98, median: {approx(rise, RES_RISE)} decades (official table: 3.7)")
print(f"log10 train MSE at alpha = 0.1, median: {approx(top, RES_TOP)} (official table: log10 1.4e-2 = -1.85)")
print(f"log10 largest train MSE for alpha >= 1, median: {approx(floor, RES_FLOOR)} (official table: below -6)")

# %% [markdown]
# The reference values are the official landscape notebook's output (`KindXiaoming/Omnigrok`,
# `teacher-student/landscape`), the table behind Omnigrok Fig. 2a: test MSE minimal at $\alpha = 1$
# ($7.8\cdot10^{-5}$, with $8.6\cdot10^{-5}$ at the neighbour $\alpha = 0.63$), 0.43 at $\alpha = 3.98$; train MSE
# $1.4\cdot10^{-2}$ at $\alpha = 0.1$, $10^{-6}$ at $\alpha = 0.63$ and "≈ 0" above.
#
# * **U, minimum.** In the official table the neighbour $\alpha = 0.63$ is within 10 % of the minimum,
#   and on our grid the two are as close, so we test that $\alpha = 1$ is within a factor 1.5 of the best
#   grid point (median over seeds). We show it to 0.5: the median moves between 1.0 and 1.1 with the last
#   bits of the arithmetic, because the two grid points are nearly tied.
# * **U, rise** to $\alpha = 3.98$: {glue:text}`ts_rise` decades here against 3.7; we allow ±0.5 decades
#   since our run is {glue:text}`ts_land_steps` steps at a larger learning rate instead of $10^4$. The per-seed rises spread by
#   about 0.1 decade, so we show the median to 0.25.
# * **L, upper arm**: the train MSE at $\alpha = 0.1$, $10^{x}$ with $x =$ {glue:text}`ts_top` against
#   the table's $-1.85$; we allow ±0.2 decades (this tolerance was set after seeing the result). The
#   plateau is a converged value, not a snapshot of a run still descending: two checks below require
#   that it moved by at most 0.05 decades over the second half of the run and that the seeds agree to
#   within 0.05 decades. Our distance from the official value, about {glue:text}`ts_top_gap` decades
#   (shown to 0.1), is then well inside the tolerance, not at its edge; it is not noise but the teacher
#   and data draw, which are ours and not the official notebook's.
# * **L, lower arm**: the largest train MSE for $\alpha \ge 1$ is $10^{x}$ with $x \approx$
#   {glue:text}`ts_floor` (median over seeds, shown to half a decade), not "≈ 0" (below $10^{-6}$). The
#   runs near $\alpha = 1$ stop at a few $10^{-6}$, a floor set by Adam at a constant learning rate 7×
#   the official one; the runs at $\alpha \ge 4$ reach $10^{-10}$. The L is there, four decades deep, but
#   not as deep as in the paper: a deviation.

# %%
claims.check("TS: test loss at alpha=1 / grid minimum (median over seeds)", best_ratio, 1.0, kind="reproduction",
             against="official code", tolerance=0.5, resolution=RES_RATIO,
             source="Omnigrok Fig. 2a; official landscape notebook table: minimum at alpha = 1 (7.8e-5)")
claims.check("TS: log10 test-loss rise alpha 1 -> 3.98 (median over seeds)", rise, 3.7, kind="reproduction",
             against="official code", tolerance=0.5, resolution=RES_RISE,
             source="Omnigrok Fig. 2a; official landscape notebook table: 0.43 vs 7.8e-5")
claims.check("TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)", top, np.log10(1.4e-2),
             kind="reproduction", against="official code", tolerance=0.2, resolution=RES_TOP, set_after=True,
             source="Omnigrok Fig. 2a; official landscape notebook table: train MSE 1.4e-2 at alpha = 0.1")
claims.check("TS: the L's plateau has converged: |change of log10 train MSE at alpha=0.1 over the second half| "
             "(median over seeds)", top_drift, 0.05, kind="check", against="book bound", comparison="<=",
             resolution=0.05, source="a converged reduced loss (B eq. 1 minimizes on the sphere); bound chosen by us")
claims.check("TS: the L's plateau, spread of log10 train MSE at alpha=0.1 over seeds", top_spread, 0.05, kind="check",
             against="book bound", comparison="<=", resolution=0.05,
             source="the resolution (0.1) at which the plateau is shown; bound chosen by us")
claims.check("TS: log10 largest train MSE for alpha>=1, the L's lower arm (median over seeds)", floor, -6.0,
             kind="deviation", against="official code", comparison="<=", resolution=RES_FLOOR,
             source="Omnigrok Fig. 2a; official landscape notebook table: train MSE 1e-6 at alpha = 0.63, ≈ 0 above",
             evidence=f"{ts_cfg.landscape_steps:,} constrained Adam steps at lr {ts_cfg.landscape_lr:g} (official: 1e4 at "
                      "3e-4): the runs near alpha = 1 "
                      "stop at a floor of Adam at a constant, 7x larger lr, while the alpha >= 4 runs go orders of "
                      "magnitude lower; five student seeds. Training 1e4 steps at the official lr does not fit the "
                      "chapter's time budget.")

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
slopes = seed_slopes(ts_grok)  # one log-log slope per seed
slope = float(np.median(slopes))
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
glue("ts_slope", approx(slope, RES_SLOPE), display=False)
never_frac = seed_fraction(ts_grok.seed_test_steps[:, n_sw] > 0)  # alpha = 2, gamma = 0 reaches 95 % test
ctrl_tr, ctrl_te = ts_grok.seed_train_steps[:, n_sw + 1], ts_grok.seed_test_steps[:, n_sw + 1]
ctrl_lag = np.where(ctrl_te > 0, ctrl_te - ctrl_tr, np.inf)  # control: steps from fitting to generalizing
# The plateau of alpha = 2 without decay: its final test accuracy, and the change of its test loss over the
# second half of the run (in decades), per seed; the same change for the smallest gamma of the sweep, for contrast.
i_half = int(np.searchsorted(h.steps, ts_cfg.grok_steps // 2))


def second_half_decades(k):
    v = h["val_loss"][ts_grok.runs_of(k)]
    return np.log10(v[:, -1] / v[:, i_half])


plateau_acc = float(np.median(h["val_acc"][ts_grok.runs_of(n_sw)][:, -1]))
plateau_drift = float(np.median(second_half_decades(n_sw)))
sweep_drift = float(np.median(second_half_decades(0)))
RES_PLATEAU_ACC, RES_DRIFT = 0.25, 0.1
glue("ts_plateau_acc", approx(plateau_acc, RES_PLATEAU_ACC), display=False)
glue("ts_plateau_drift", approx(plateau_drift, RES_DRIFT), display=False)
glue("ts_sweep_drift", approx(sweep_drift, RES_DRIFT), display=False)
print(f"alpha  gamma  seeds reaching 95 % test  (of {ts_cfg.n_seeds})")
for k, (al, g) in enumerate(zip(ts_grok.alphas, ts_grok.gammas)):
    print(f"{al:5.1f}  {g:5.2f}  {int((ts_grok.seed_test_steps[:, k] > 0).sum()):d}")
print(f"log-log slope of steps-to-test vs gamma, median of per-seed slopes: {approx(slope, RES_SLOPE)}")
print(f"alpha = 2, gamma = 0: final test accuracy, median: {approx(plateau_acc, RES_PLATEAU_ACC)}; change of log10 "
      f"test loss over the second half: {approx(plateau_drift, RES_DRIFT)} (gamma = {ts_cfg.gammas[0]:g}: "
      f"{approx(sweep_drift, RES_DRIFT)})")

# %% [markdown]
# ```{glue:figure} fig_ts_grok
# Left: the large student ($\alpha=2$) without weight decay fits the training set at once and never
# generalizes, its norm (dashed, right axis) stays put. Middle: with $\gamma = 0.1$ the norm decays and
# test accuracy follows, late. Right: steps to 95 % train accuracy do not depend on $\gamma$; steps to
# 95 % test accuracy fall as a power law of slope {glue:text}`ts_slope` (the theory: −1). Thick: median
# over seeds; faint: every seed.
# ```
#
# The slope is fitted per seed and we claim its median over seeds against the talk's $t \propto 1/\gamma$,
# with ±0.3: our slope is shallower than −1 because the fitting time (tens of steps, independent of
# $\gamma$) adds to the decay time. The per-seed slopes spread by about 0.15, so we show the median to
# 0.2. The two controls are per-seed verdicts: the fraction of seeds in which $\alpha = 2$ without decay
# reaches 95 % test accuracy (none, in the paper; here within the book's {glue:text}`ts_grok_steps`
# steps), and the median over seeds of the $\alpha = 0.5$ control's delay from 95 % train to 95 % test
# accuracy, which the paper shows as zero; we allow 100 steps (ten evaluations, against a delay of
# hundreds of steps at $\alpha=2$).
#
# **The plateau.** "Never generalizes" is a statement about a plateau: after fitting, the test accuracy
# of $\alpha = 2$ without decay stops rising below the 95 % bar. A fraction of seeds that is exactly zero
# sits at the edge of its tolerance (one seed crossing would break it), so we also claim the plateau
# itself. Its level: the final test accuracy (median over seeds) is at most the paper's 95 % bar; ours is
# {glue:text}`ts_plateau_acc`, shown to 0.25 because the seeds' plateaus differ and a finer grid would
# let the shown median depend on the CPU's rounding. Its flatness: the test loss changes by at most 0.1
# decades over the second half of the run; ours {glue:text}`ts_plateau_drift` (median over seeds, shown
# to 0.1), while the smallest decay of the sweep, $\gamma = 0.1$, falls by {glue:text}`ts_sweep_drift`
# decades over the same steps, so the bound separates a plateau from grokking in progress (this
# tolerance was set after seeing side runs).

# %%
claims.check("TS: steps-to-test vs gamma, log-log slope (median of per-seed slopes)", slope, -1.0,
             kind="reproduction", tolerance=0.3, resolution=RES_SLOPE,
             source="Omnigrok Fig. 2c; talk, 'LU mechanism': t = ln(w0/wc)/gamma ∝ 1/gamma")
claims.check("TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test", never_frac, 0.0, kind="reproduction",
             tolerance=0.0, resolution=1 / ts_cfg.n_seeds, source="Omnigrok Fig. 2b: no regularization never generalizes")
claims.check("TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)", plateau_acc, 0.95,
             kind="reproduction", comparison="<=", resolution=RES_PLATEAU_ACC,
             source="Omnigrok Fig. 2b: without regularization the test accuracy stays below the 95 % bar")
claims.check("TS: alpha=2, gamma=0: change of log10 test loss over the second half (median over seeds)",
             plateau_drift, 0.0, kind="reproduction", tolerance=0.1, resolution=RES_DRIFT, set_after=True,
             source="Omnigrok Fig. 2b: without regularization the test curve is flat after fitting (read off)")
claims.check("TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)", float(np.median(ctrl_lag)), 0.0,
             kind="reproduction", tolerance=100, resolution=RES_TS_STEPS,
             source="Omnigrok Fig. 2b: alpha = 0.5 generalizes as fast as it fits")

# %% [markdown]
# ## 3. An image classifier: landscape and grokking (substitute dataset)
#
# The MNIST network of the paper (three ReLU layers of width 200, MSE against one-hot labels) on
# scikit-learn's 8×8 handwritten digits, a **substitute dataset**: MNIST cannot be downloaded here.
# Left: the reduced landscape on {glue:text}`img_land_n` training images (norm held fixed, full batch,
# {glue:text}`img_land_steps` steps). Right: 1000 training images, initialization $\alpha = 8$, AdamW with
# batch 200; weight decay 0.3 instead of 0.01 so that the slow norm decay fits in {glue:text}`img_steps`
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
glue("img_val_at_fit", approx(np.median(val_at_fit), RES_IMG_ACC), display=False)
glue("img_val_final", approx(np.median(img_h["val_acc"][:, -1]), RES_IMG_ACC), display=False)
print(f"test accuracy when train accuracy first reaches 95 %, median: {approx(np.median(val_at_fit), RES_IMG_ACC)}")
print(f"final test accuracy, median: {approx(np.median(img_h['val_acc'][:, -1]), RES_IMG_ACC)}")

# %% [markdown]
# ```{glue:figure} fig_img
# Substitute dataset (8×8 digits). Left: at fixed norm, training error is about zero for
# $\alpha \gtrsim 0.5$ while test error is lowest near $\alpha = 1$ and climbs at large $\alpha$ (at
# $\alpha = 10$ the {glue:text}`img_land_steps` constrained steps do not even fit the training set). Right: from $\alpha = 8$,
# test accuracy lags training accuracy while weight decay pulls the norm (dashed) down.
# ```
#
# The lag on digits is much milder than the paper's MNIST curve (train 100 % early, test 89 % only at
# $10^5$ steps): test accuracy is already {glue:text}`img_val_at_fit` when training accuracy reaches
# 95 % and ends at {glue:text}`img_val_final` (medians over seeds, shown to 0.1). A substitute dataset
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
# chapter on $(a+b) \bmod 31$ (70 % of the unordered pairs), {glue:text}`mod_n_seeds` seeds of each,
# {glue:text}`mod_steps` steps, batched. The fixed norm is $1.1\times$ the initial norm, the norm at which the free run ends
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
    glue(name, approx(value, RES_NORM), display=False)
glue("mod_delay_ratio", approx(delay_ratio, RES_DELAY), display=False)
print(f"free run, norm peak / initial, final / peak, final / initial (medians of {mod.n_seeds} seeds): "
      f"{approx(peak, RES_NORM)}, {approx(fall, RES_NORM)}, {approx(final, RES_NORM)}")
print(f"median delay 95 % train -> 95 % validation, fixed norm / free: {approx(delay_ratio, RES_DELAY)}")

# %% [markdown]
# ```{glue:figure} fig_mod
# Left: the free run (a). It memorizes within a hundred steps; its weight norm (dashed) stays near its
# initial value during the memorization plateau, rises while validation accuracy climbs, peaks, and
# settles above its initial value. Middle: run (b), held at $1.1\times$ the initial norm: it fits at once
# and generalizes about as late as the free run. Right: validation accuracy of both runs on one axis
# (dotted lines: the median step at which each reaches 95 % training accuracy). Median over seeds,
# quartile band shaded.
# ```
#
# What the stand-in reproduces: the free run's norm rises and falls around grokking, by a peak of
# {glue:text}`mod_peak` times the initial norm and a fall to {glue:text}`mod_fall` of the peak (medians
# over seeds, shown to 0.1; the bounds, a rise and a fall of at least 5 %, clear the norm's few-percent
# wiggle during memorization and were set after seeing the runs). What it does not:
#
# * the norm ends at {glue:text}`mod_final` times its initial value, above it, where the talk's
#   transformer ends below it; and the rise happens while the model generalizes rather than during the
#   memorization plateau (see the figure);
# * **holding the norm fixed does not remove the delay.** The median delay from 95 % train to 95 %
#   validation accuracy of run (b) is about {glue:text}`mod_delay_ratio` times that of run (a) (shown to
#   the nearest integer: per-seed step counts move by hundreds with the last bits of the arithmetic, and
#   a seed that never reaches 95 % counts as never). In this model the delay after fitting at the standard
#   initialization is not a norm effect, so fixing the norm cannot remove it. We read the talk's "almost
#   eliminates" as a delay ratio of at most 1/4; that band was chosen after seeing ours, which lies far
#   outside any band below 1.
#
# The earlier edition of this chapter compared the fixed-norm run instead with free runs started at
# $5\times$ the initial norm, which it beat; that comparison was ours, not the talk's, and its verdict
# depended on the CPU's floating-point kernels, so it is gone. Whether the talk's claim holds needs its
# transformer (paper scale).

# %%
claims.check("Mod: free run, norm peak / initial norm (median over seeds)", peak, 1.05, kind="reproduction",
             comparison=">=", resolution=RES_NORM, set_after=True,
             source="Omnigrok Fig. 7a: the weight norm rises (a rise of >= 5 %, above the memorization wiggle)")
claims.check("Mod: free run, final norm / peak norm (median over seeds)", fall, 0.95, kind="reproduction",
             comparison="<=", resolution=RES_NORM, set_after=True,
             source="Omnigrok Fig. 7a: the norm falls when the model generalizes (a fall of >= 5 %)")
claims.check("Mod: free run, final norm / initial norm (median over seeds)", final, 1.0, kind="deviation",
             comparison="<=", resolution=RES_NORM,
             source="Omnigrok Fig. 7a, read off: the norm ends below its initial value as test accuracy reaches 100 %",
             evidence=f"p = 31 embeddings + MLP stand-in (not the talk's p = 113 transformer), AdamW wd 1, "
                      f"{mod_cfg.steps:,} steps, {mod_cfg.n_seeds} seeds: the norm settles above its initial value "
                      "after grokking and stays there (the fixed-norm run is held at that final norm).")
claims.check("Mod: median delay 95 % train -> 95 % val, fixed norm / free", delay_ratio, 0.25, kind="deviation",
             comparison="<=", resolution=RES_DELAY, set_after=True,
             source="talk, 'Remove grokking by small & constrained scale'; Omnigrok Fig. 7b: the fixed norm "
                    "'almost eliminates grokking' (read as a delay ratio <= 1/4)",
             evidence=f"p = 31 embeddings + MLP stand-in, {mod_cfg.n_seeds} seeds per run; norm held at 1.1x the "
                      "initial norm (the free run's final norm), wd 0. Held at 0.3-0.7x the model does not "
                      "generalize in 3k steps, at 1.0x and 1.25x it is slower, at >= 1.5x it fails. The talk's "
                      "p = 113 transformer (0.8x) was not run: it is the paper-scale setting.")

# %% [markdown]
# ## Paper versus ours
#
# The ledger of the Omnigrok figures the talk shows: {glue:text}`ledger_tally`. The schematic of the LU
# mechanism (Fig. 1) is tested through Fig. 2a and the norm-dynamics checks above; figures whose data
# need a download (MNIST, IMDb, QM9) or whose experiments were not run here are marked as not run.

# %%
claims.figure("liu2023", "Fig. 2a", "partial", claims=[
    "TS: test loss at alpha=1 / grid minimum (median over seeds)",
    "TS: log10 test-loss rise alpha 1 -> 3.98 (median over seeds)",
    "TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)",
    "TS: log10 largest train MSE for alpha>=1, the L's lower arm (median over seeds)",
    "TS: the L's plateau has converged: |change of log10 train MSE at alpha=0.1 over the second half| "
    "(median over seeds)",
    "TS: the L's plateau, spread of log10 train MSE at alpha=0.1 over seeds"],
    why="the U (minimum at alpha = 1, the rise to alpha = 4) and the L's converged plateau match the official "
        f"table; the L's lower arm stops above the official ≈ 0 (below 1e-6) in {ts_cfg.landscape_steps:,} "
        "book-scale steps")
claims.figure("liu2023", "Fig. 2b", "reproduced", claims=[
    "TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test",
    "TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)",
    "TS: alpha=2, gamma=0: change of log10 test loss over the second half (median over seeds)",
    "TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)"],
    why="alpha = 2 without decay never generalizes (within the book's steps): its test accuracy plateaus below "
        "95 % and stays flat; alpha = 0.5 generalizes as soon as it fits")
claims.figure("liu2023", "Fig. 2c", "reproduced", claims=[
    "TS: steps-to-test vs gamma, log-log slope (median of per-seed slopes)"],
    why="steps to 95 % test fall as a power of gamma with slope within 0.3 of -1; steps to train do not depend on gamma")
claims.figure("liu2023", "Fig. 3", "not run at this scale", claims=[],
              why="needs MNIST (REPRO_MNIST_DIR, paper scale); the 8x8-digits substitute is shown without a claim "
                  "and has a much milder lag")
claims.figure("liu2023", "Fig. 4", "not run at this scale", claims=[],
              why="IMDb + LSTM: the data set is a download, not available here")
claims.figure("liu2023", "Fig. 5", "not run at this scale", claims=[],
              why="QM9 + graph convolutional network: the data set is a download, not available here")
claims.figure("liu2023", "Fig. 6", "not run at this scale", claims=[],
              why="the (norm, messiness) landscape of the backup slides is not implemented in this book")
claims.figure("liu2023", "Fig. 7", "partial", claims=[
    "Mod: free run, norm peak / initial norm (median over seeds)",
    "Mod: free run, final norm / peak norm (median over seeds)",
    "Mod: free run, final norm / initial norm (median over seeds)",
    "Mod: median delay 95 % train -> 95 % val, fixed norm / free"],
    why="on a p = 31 embeddings + MLP stand-in the free run's norm rises and falls around grokking, but ends above "
        "its initial value, and a fixed norm does not shorten the delay; the talk's p = 113 transformer is not run")
claims.figure("liu2023", "Fig. 8", "not run at this scale", claims=[],
              why="the MNIST (norm, messiness) landscape of the backup slides needs MNIST and is not implemented")
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

# %% [markdown]
# ## Deviations
#
# * **Modular addition is a stand-in.** The talk's Fig. 7 is Nanda's one-layer transformer on $p = 113$;
#   ours is the opening chapter's embeddings + MLP on $p = 31$. Its norm rises during generalization
#   rather than memorization and settles above its initial value, and holding the norm fixed does not
#   shorten the delay (the evidence above). Whether the transformer behaves as the talk says is the
#   paper-scale question this edition leaves open.
# * **Shorter training, larger rates.** Teacher–student: {glue:text}`ts_land_steps` landscape steps at lr
#   $2\cdot10^{-3}$ (official code: $10^4$ at $3\cdot10^{-4}$); grokking {glue:text}`ts_grok_steps` steps
#   with lr $10^{-3}$ and $\gamma\in[0.1, 0.8]$ (paper: lr $3\cdot10^{-4}$, $\gamma\in[0.03,1]$, $10^5$
#   steps). This is what keeps the L's lower arm at a few
#   $10^{-6}$ and the $1/\gamma$ slope at {glue:text}`ts_slope` instead of −1.
# * **Image data is a substitute** (8×8 digits, 64 inputs, 1000 train / 797 test), with weight decay 0.3
#   instead of 0.01 and {glue:text}`img_steps` instead of $10^5$ steps; the landscape uses
#   {glue:text}`img_land_n` training images, {glue:text}`img_land_steps` full-batch steps and
#   {glue:text}`img_n_alphas` values of $\alpha$ (paper: MNIST, 21 values, 28 data sizes, $10^4$ steps, best-over-training
#   metrics). The paper scale reads real MNIST IDX files from `REPRO_MNIST_DIR`.
# * **Projection after the step.** We rescale after every optimizer step, as the paper says (Omnigrok §2);
#   the official teacher–student notebook rescales between the forward and the backward pass.

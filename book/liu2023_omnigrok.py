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
# remove the delay: a deviation, recorded as such; beside it, the talk's own model, Nanda's one-layer
# transformer, trained at the official settings on $p = 59$ and stored (section 4b); and the
# two-dimensional (norm, representation messiness) landscape of the backup slides (Fig. 6).
#
# **What we leave out.** IMDb and QM9 (Figs. 4, 5: downloads), the MNIST (norm, messiness) landscape of
# the backup slides (Fig. 8), the data-size axis of the MNIST landscape, and the transformer at the
# talk's $p = 113$: the paper-scale setting of the same code (`REPRO_SCALE=paper`) needs hours of two CPU
# cores per seed (the README's paper-scale table), so the stored runs use $p = 59$.

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import matplotlib.pyplot as plt
import numpy as np
from myst_nb import glue

from repro.book.claims import ClaimBook
from repro.core.portable import approx, trained
from repro.core.scale import current_scale
from repro.experiments.liu2023_omnigrok import (ImageConfig, ModularConfig, TeacherStudentConfig, image_landscape,
                                                run_image_grokking, run_modular, run_teacher_student_grokking,
                                                seed_fraction, seed_slopes, stored_modular, stored_modular_config,
                                                teacher_student_landscape)
from repro.experiments.liu2023_omnigrok_messiness import MessinessConfig, run_messiness
from repro.plotting.liu2023_omnigrok import plot_gamma_scaling, plot_grokking, plot_landscape, plot_modular
from repro.plotting.liu2023_omnigrok_messiness import plot_messiness
from repro.plotting.shared import use_style
from repro.theory.omnigrok import integrate_norm_dynamics, time_to_grok
from repro.training.store import load_stored

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
wm_cfg = MessinessConfig.for_scale()
for name, value in (("ts_land_steps", ts_cfg.landscape_steps), ("ts_grok_steps", ts_cfg.grok_steps),
                    ("img_steps", img_cfg.steps), ("img_land_steps", img_cfg.landscape_steps),
                    ("img_land_n", img_cfg.landscape_n_train), ("img_n_alphas", len(img_cfg.landscape_alphas)),
                    ("mod_steps", mod_cfg.steps), ("wm_steps", wm_cfg.steps), ("wm_n_seeds", len(wm_cfg.seeds))):
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
                 kind="check", against="derivation", tolerance=0.01, resolution=0.01, live=False,
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
seed_top_drift = np.abs(seed_top - np.log10(ts_land.seed_values("train_loss", -2)[:, 0]))
top_drift = float(np.median(seed_top_drift))
top_spread = float(np.ptp(seed_top))
RES_RATIO, RES_RISE, RES_TOP, RES_FLOOR = 0.5, 0.25, 0.1, 0.5  # resolutions of what we show (see the text below)
glue("ts_rise", trained(rise, RES_RISE), display=False)
glue("ts_top", trained(top, RES_TOP), display=False)
glue("ts_top_gap", trained(abs(top - np.log10(1.4e-2)), RES_TOP), display=False)
glue("ts_floor", trained(floor, RES_FLOOR), display=False)
print(f"test loss at alpha = 1 / best test loss on the grid, median of {len(seed_ratio)} seeds: {trained(best_ratio, RES_RATIO)}")
print(f"log10 test-loss rise from alpha = 1 to 3.98, median: {trained(rise, RES_RISE)} decades (official table: 3.7)")
print(f"log10 train MSE at alpha = 0.1, median: {trained(top, RES_TOP)} (official table: log10 1.4e-2 = -1.85)")
print(f"log10 largest train MSE for alpha >= 1, median: {trained(floor, RES_FLOOR)} (official table: below -6)")

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
             against="official code", tolerance=0.5, resolution=RES_RATIO, seeds=seed_ratio,
             source="Omnigrok Fig. 2a; official landscape notebook table: minimum at alpha = 1 (7.8e-5)")
claims.check("TS: log10 test-loss rise alpha 1 -> 3.98 (median over seeds)", rise, 3.7, kind="reproduction",
             against="official code", tolerance=0.5, resolution=RES_RISE, seeds=seed_rise,
             source="Omnigrok Fig. 2a; official landscape notebook table: 0.43 vs 7.8e-5")
claims.check("TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)", top, np.log10(1.4e-2),
             kind="reproduction", against="official code", tolerance=0.2, resolution=RES_TOP, set_after=True,
             seeds=seed_top,
             source="Omnigrok Fig. 2a; official landscape notebook table: train MSE 1.4e-2 at alpha = 0.1")
claims.check("TS: the L's plateau has converged: |change of log10 train MSE at alpha=0.1 over the second half| "
             "(median over seeds)", top_drift, 0.05, kind="check", against="book bound", comparison="<=",
             resolution=0.05, seeds=seed_top_drift,
             source="a converged reduced loss (B eq. 1 minimizes on the sphere); bound chosen by us")
claims.check("TS: the L's plateau, spread of log10 train MSE at alpha=0.1 over seeds", top_spread, 0.05, kind="check",
             against="book bound", comparison="<=", resolution=0.05,
             source="the resolution (0.1) at which the plateau is shown; bound chosen by us")
claims.check("TS: log10 largest train MSE for alpha>=1, the L's lower arm (median over seeds)", floor, -6.0,
             kind="deviation", against="official code", comparison="<=", resolution=RES_FLOOR, seeds=seed_floor,
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
glue("ts_slope", trained(slope, RES_SLOPE), display=False)
never_seeds = ts_grok.seed_test_steps[:, n_sw] > 0  # per seed: alpha = 2, gamma = 0 reaches 95 % test
never_frac = seed_fraction(never_seeds)  # alpha = 2, gamma = 0 reaches 95 % test
ctrl_tr, ctrl_te = ts_grok.seed_train_steps[:, n_sw + 1], ts_grok.seed_test_steps[:, n_sw + 1]
ctrl_lag = np.where(ctrl_te > 0, ctrl_te - ctrl_tr, np.inf)  # control: steps from fitting to generalizing
# The plateau of alpha = 2 without decay: its final test accuracy, and the change of its test loss over the
# second half of the run (in decades), per seed; the same change for the smallest gamma of the sweep, for contrast.
i_half = int(np.searchsorted(h.steps, ts_cfg.grok_steps // 2))


def second_half_decades(k):
    v = h["val_loss"][ts_grok.runs_of(k)]
    return np.log10(v[:, -1] / v[:, i_half])


plateau_acc_seeds = h["val_acc"][ts_grok.runs_of(n_sw)][:, -1]
plateau_drift_seeds = second_half_decades(n_sw)
plateau_acc = float(np.median(plateau_acc_seeds))
plateau_drift = float(np.median(plateau_drift_seeds))
sweep_drift = float(np.median(second_half_decades(0)))
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
             kind="reproduction", tolerance=0.3, resolution=RES_SLOPE, seeds=slopes,
             source="Omnigrok Fig. 2c; talk, 'LU mechanism': t = ln(w0/wc)/gamma ∝ 1/gamma")
claims.check("TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test", never_frac, 0.0, kind="reproduction",
             tolerance=0.0, resolution=1 / ts_cfg.n_seeds, seeds=never_seeds.astype(float), source="Omnigrok Fig. 2b: no regularization never generalizes")
claims.check("TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)", plateau_acc, 0.95,
             kind="reproduction", comparison="<=", resolution=RES_PLATEAU_ACC, seeds=plateau_acc_seeds,
             source="Omnigrok Fig. 2b: without regularization the test accuracy stays below the 95 % bar")
claims.check("TS: alpha=2, gamma=0: change of log10 test loss over the second half (median over seeds)",
             plateau_drift, 0.0, kind="reproduction", tolerance=0.1, resolution=RES_DRIFT, set_after=True,
             seeds=plateau_drift_seeds,
             source="Omnigrok Fig. 2b: without regularization the test curve is flat after fitting (read off)")
claims.check("TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)", float(np.median(ctrl_lag)), 0.0,
             kind="reproduction", tolerance=100, resolution=RES_TS_STEPS, seeds=ctrl_lag,
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
glue("img_val_at_fit", trained(np.median(val_at_fit), RES_IMG_ACC), display=False)
glue("img_val_final", trained(np.median(img_h["val_acc"][:, -1]), RES_IMG_ACC), display=False)
print(f"test accuracy when train accuracy first reaches 95 %, median: {trained(np.median(val_at_fit), RES_IMG_ACC)}")
print(f"final test accuracy, median: {trained(np.median(img_h['val_acc'][:, -1]), RES_IMG_ACC)}")

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
    glue(name, trained(value, RES_NORM), display=False)
glue("mod_delay_ratio", trained(delay_ratio, RES_DELAY), display=False)
print(f"free run, norm peak / initial, final / peak, final / initial (medians of {mod.n_seeds} seeds): "
      f"{trained(peak, RES_NORM)}, {trained(fall, RES_NORM)}, {trained(final, RES_NORM)}")
print(f"median delay 95 % train -> 95 % validation, fixed norm / free: {trained(delay_ratio, RES_DELAY)}")

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
# transformer: section 4b.

# %%
claims.check("Mod: free run, norm peak / initial norm (median over seeds)", peak, 1.05, kind="reproduction",
             comparison=">=", resolution=RES_NORM, set_after=True, seeds=ns["peak"],
             source="Omnigrok Fig. 7a: the weight norm rises (a rise of >= 5 %, above the memorization wiggle)")
claims.check("Mod: free run, final norm / peak norm (median over seeds)", fall, 0.95, kind="reproduction",
             comparison="<=", resolution=RES_NORM, set_after=True, seeds=ns["fall"],
             source="Omnigrok Fig. 7a: the norm falls when the model generalizes (a fall of >= 5 %)")
claims.check("Mod: free run, final norm / initial norm (median over seeds)", final, 1.0, kind="deviation",
             comparison="<=", resolution=RES_NORM, seeds=ns["final"],
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
# ### 4b. The talk's transformer, at the official settings (stored)
#
# The model of the talk's Fig. 7 is the official notebook's (`mod-addition/grokking`): Nanda's one-layer
# transformer (d_model 128, 4 heads, d_mlp 512, ReLU, no LayerNorm, learned positions, causal
# attention, untied unembedding) on the sequence "$a\ b\ =$", trained full batch on 30 % of all ordered
# pairs with AdamW (lr $10^{-3}$, $\beta = (0.9, 0.98)$): **(a)** free, weight decay 1; **(b)** started at
# $0.8\times$ the standard initialization and held at that norm, weight decay 0. We run the same code at
# $p = 59$ instead of 113 and in float32 instead of float64, two initializations of each, for
# {glue:text}`tr_steps` steps (the notebook: 15,000; with fewer training pairs grokking comes later), and
# store the runs; the chapter loads them. `python -m repro.experiments.liu2023_omnigrok --store book/_results` recomputes
# them ({glue:text}`tr_wall` minutes on two CPU cores).

# %%
tr_cfg = stored_modular_config()
glue("tr_steps", f"{tr_cfg.steps:,}", display=False)
tr, tr_manifest = load_stored(stored_modular(tr_cfg, "_results"), "transformer runs",
                              "python -m repro.experiments.liu2023_omnigrok --store book/_results", "about 85 minutes on two CPU cores")
glue("tr_wall", approx(tr_manifest["wall_time_s"] / 60, 10), display=False)
fig_tr = plot_modular(tr, title_prefix=f"transformer, mod {tr_cfg.p}: ")
glue("fig_tr", fig_tr, display=False)
plt.close(fig_tr)
# The runs are loaded, not re-trained, so these numbers do not depend on this machine's arithmetic; steps are
# shown at the evaluation interval (every 50 steps), ratios to 0.01.
tr_ns = tr.norm_stats()  # the free run, per seed
tr_peak, tr_final, tr_val_at_peak = (float(np.median(tr_ns[k])) for k in ("peak", "final", "val_at_peak"))
tr_delay_free = float(np.median(tr.seed_delays(tr.FREE)))
tr_delay_fixed = float(np.median(tr.seed_delays(tr.CONSTRAINED)))
tr_ratio = tr.delay_ratio()
final_val = tr.history["val_acc"][:, -1]
tr_val_free = float(np.median(final_val[tr.runs_of(tr.FREE)]))
tr_val_fixed = float(np.median(final_val[tr.runs_of(tr.CONSTRAINED)]))
for k, label in ((tr.FREE, "free"), (tr.CONSTRAINED, "fixed norm")):
    print(f"{label:>10}: 95 % train at steps {tr.seed_train_steps[:, k].tolist()}, 95 % validation at "
          f"{tr.seed_test_steps[:, k].tolist()} (per seed)")
print(f"median delay, free: {tr_delay_free:,.0f} steps; fixed norm: {tr_delay_fixed:,.0f} steps; ratio {tr_ratio:.3f}")
print(f"free run's norm, medians: peak / initial {tr_peak:.2f}, final / initial {tr_final:.2f}, validation accuracy "
      f"at the peak {tr_val_at_peak:.2f}")
print(f"final validation accuracy, medians: free {tr_val_free:.3f}, fixed norm {tr_val_fixed:.3f}")
for name, value in (("tr_delay_free", f"{tr_delay_free:,.0f}"), ("tr_delay_fixed", f"{tr_delay_fixed:,.0f}"),
                    ("tr_ratio", f"{tr_ratio:.3f}"), ("tr_peak", f"{tr_peak:.2f}"), ("tr_final", f"{tr_final:.2f}"),
                    ("tr_val_at_peak", f"{tr_val_at_peak:.2f}"), ("tr_val_fixed", f"{tr_val_fixed:.2f}")):
    glue(name, value, display=False)

# %% [markdown]
# ```{glue:figure} fig_tr
# The talk's Fig. 7 with its own model, at $p = 59$ (two seeds; median line, quartile band). Left: the free
# run (a) fits its training pairs within a few hundred steps; its weight norm (dashed, right axis) rises
# while it memorizes, peaks, and falls below its initial value as validation accuracy climbs to 100 %, more
# than ten thousand steps later. Middle: run (b), held at $0.8\times$ the initial norm with no weight
# decay: training and validation accuracy rise together. Right: validation accuracy of both on one axis
# (dotted: the median step at which each reaches 95 % training accuracy).
# ```
#
# With the talk's own model, the talk's claims hold. The free run's norm rises to {glue:text}`tr_peak`
# times its initial value while validation accuracy is still at chance ({glue:text}`tr_val_at_peak` at the
# peak), then falls to {glue:text}`tr_final` times it as the model generalizes; the delay from 95 % train
# to 95 % validation accuracy is {glue:text}`tr_delay_free` steps (median of two seeds). Held at
# $0.8\times$ the initial norm, the same model generalizes {glue:text}`tr_delay_fixed` steps after fitting:
# a delay ratio of {glue:text}`tr_ratio`, far inside the bound of 1/4 we set for "almost eliminates
# grokking" before this run. One difference from the talk's picture: the fixed-norm run's validation
# accuracy levels off near {glue:text}`tr_val_fixed` instead of reaching 100 %, so its 95 % crossing is
# close to its plateau. The stand-in of section 4 therefore misled: there the delay after fitting is not a
# norm effect, in the transformer it is.

# %%
TR_SRC = "talk's Fig. 7 / Omnigrok Fig. 7 (official notebook's transformer, here p = 59, stored)"
claims.check("Mod transformer: median delay 95 % train -> 95 % val, fixed norm / free", tr_ratio, 0.25,
             kind="reproduction", comparison="<=", resolution=0.001, live=False,
             source="talk, 'Remove grokking by small & constrained scale': the fixed norm 'almost eliminates grokking' "
                    "(read as a delay ratio <= 1/4, the bound of section 4)")
claims.check("Mod transformer: free run, norm peak / initial norm (median over seeds)", tr_peak, 1.05,
             kind="reproduction", comparison=">=", resolution=0.01, live=False,
             source=TR_SRC + ": the weight norm rises")
claims.check("Mod transformer: free run, validation accuracy at the norm's peak (median)", tr_val_at_peak, 0.5,
             kind="reproduction", comparison="<=", resolution=0.01, live=False,
             source=TR_SRC + ": the norm rises while the model overfits (it peaks before it generalizes)")
claims.check("Mod transformer: free run, final norm / initial norm (median over seeds)", tr_final, 1.0,
             kind="reproduction", comparison="<=", resolution=0.01, live=False,
             source=TR_SRC + ", read off: the norm ends below its initial value as test accuracy reaches 100 %")
claims.check("Mod transformer: free run, final validation accuracy (median)", tr_val_free, 0.99,
             kind="reproduction", comparison=">=", resolution=0.001, live=False,
             source=TR_SRC + ": test accuracy reaches 100 %")

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
# optimizer follows the paper's description (Adam, lr $10^{-3}$), because our trainer has no
# learning-rate schedule. Book scale: 5 messiness values × 8 norms × {glue:text}`wm_n_seeds` decoder
# initializations, {glue:text}`wm_steps` full-batch steps (paper: $10^4$, on a 21 × 21 grid).

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
# ```{glue:figure} fig_wm
# The reduced landscape over the decoder norm $w$ (as $\alpha$ times the standard initialization) and the
# representation messiness $m$, medians over decoder initializations. Left: log training loss, with
# $w_c(m)$ (white), the norm at which the training loss first reaches 0.02 (the official notebook's
# contour). Middle: log test loss. Right: test loss against the norm, one curve per $m$. What to see: $w_c$
# moves to larger norms as the representation gets messier, and the test loss at its best norm rises.
# ```
#
# Omnigrok Eq. 2 is reproduced: the decoder fits the training pairs from $w_c \approx$
# {glue:text}`wm_wc0` at $m = 0$ but only from {glue:text}`wm_wc1` at $m = 0.2$ (ratio
# {glue:text}`wm_wc_ratio`), and the best test loss over norms is {glue:text}`wm_test_ratio` times larger
# with the messy representation. At $m = 0$ the test loss is U-shaped in $w$ (both ends
# {glue:text}`wm_u_rise` times its minimum or more), Omnigrok's "Goldilocks zone" in this model. What does
# not match: the slide's training loss is flat near zero above $w_c$ (the L), ours rises again at large
# norms ({glue:text}`wm_big_train` at the largest norm, $m = 0$): at a fixed norm, Adam's constant steps
# move a large-norm network slowly, and {glue:text}`wm_steps` steps at lr $10^{-3}$ do not fit it (the
# notebook trains 15,000 steps at lr $10^{-2}$, decayed). The bounds below (a ratio of at least 1.2 for
# $w_c$, 2 for the test loss, 1.5 for the U) were set after seeing a first run of this grid.

# %%
claims.check("WM: w_c at m = 0.2 / w_c at m = 0 (median over seeds)", wc_ratio, 1.2, kind="reproduction",
             comparison=">=", resolution=RES_WM, set_after=True,
             source="Omnigrok Eq. 2 and backup slide 'Algorithmic: Landscape analysis': w_c(bad representation) > "
                    "w_c(good representation)")
claims.check("WM: best test loss over norms, m = 0.2 / m = 0 (median over seeds)", test_ratio, 2.0,
             kind="reproduction", comparison=">=", resolution=RES_WM, set_after=True,
             source="Omnigrok backup slides: a messy representation generalizes worse at every norm")
claims.check("WM: m = 0, test loss at the grid's ends / its minimum (the U)", u_rise, 1.5, kind="reproduction",
             comparison=">=", resolution=RES_WM, set_after=True,
             source="Omnigrok §3 (Fig. 2a) and backup slide: the reduced test loss is U-shaped in w")
claims.check("WM: m = 0, training loss at the largest norm (the L's lower arm)", big_w_train, wm_cfg.fit_level,
             kind="deviation", comparison="<=", resolution=0.01, seeds=wm.train_loss[:, 0, -1],
             source="Omnigrok backup slide: the reduced training loss is L-shaped, near 0 for every w > w_c",
             evidence=f"{wm_cfg.steps:,} full-batch Adam steps at lr 1e-3 (the official notebook: 15,000 at 1e-2, decayed "
                      "x0.2 every 5,000): at a fixed large norm Adam's steps move the network slowly, so the training "
                      "loss rises again towards the largest norms instead of staying at ~0.")

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
claims.figure("liu2023", "Fig. 6", "partial", claims=[
    "WM: w_c at m = 0.2 / w_c at m = 0 (median over seeds)",
    "WM: best test loss over norms, m = 0.2 / m = 0 (median over seeds)",
    "WM: m = 0, test loss at the grid's ends / its minimum (the U)",
    "WM: m = 0, training loss at the largest norm (the L's lower arm)"],
    why="a messier representation needs a larger decoder norm to fit (Eq. 2) and generalizes worse, and the test "
        "loss is U-shaped in w; the training loss rises again at large norms in the book's short Adam runs")
claims.figure("liu2023", "Fig. 7", "reproduced", scale="paper (CPU, stored)", claims=[
    "Mod transformer: median delay 95 % train -> 95 % val, fixed norm / free",
    "Mod transformer: free run, norm peak / initial norm (median over seeds)",
    "Mod transformer: free run, validation accuracy at the norm's peak (median)",
    "Mod transformer: free run, final norm / initial norm (median over seeds)",
    "Mod transformer: free run, final validation accuracy (median)"],
    why="with the talk's transformer (p = 59 instead of 113, float32, 2 seeds) the norm rises while the model "
        "memorizes and ends below its initial value as it generalizes, and holding the norm fixed cuts the delay to "
        "under 1 % of the free run's; the book-scale p = 31 embeddings + MLP stand-in (section 4) does not show "
        "either (its two deviations stay in the claims above)")
claims.figure("liu2023", "Fig. 8", "not run at this scale", claims=[],
              why="the MNIST (norm, messiness) landscape of the backup slides needs MNIST and is not implemented")
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

# %% [markdown]
# ## Deviations
#
# * **Modular addition: a live stand-in, the talk's model stored.** The live run is the opening chapter's
#   embeddings + MLP on $p = 31$: its norm rises during generalization rather than memorization and
#   settles above its initial value, and holding the norm fixed does not shorten the delay. The talk's
#   own model, Nanda's one-layer transformer at the official settings, reproduces both (section 4b), at
#   $p = 59$ instead of 113, in float32 instead of float64, with two seeds and 24,000 steps instead of
#   15,000 (with fewer training pairs it groks later). The stand-in's deviations are a property of that
#   model, not of the talk's claim.
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
# * **The $(w, m)$ landscape** follows the official notebook's data (mod-10 templates, a noisy line, uniform
#   random points, seed 58; drawn with numpy in the notebook's order, not with its torch generator) but the
#   paper's ReLU and Adam at lr $10^{-3}$ (the notebook: LeakyReLU(0.2), lr $10^{-2}$ decayed ×0.2 every
#   5,000 steps); the grid is 5 × 8 instead of 21 × 21 (paper scale: the full grid, $10^4$ steps). The
#   notebook's norm counts the first layer's weight twice (its `L2` helper starts from it and then adds it
#   again); we hold the plain L2 norm of the decoder.
# * **Projection after the step.** We rescale after every optimizer step, as the paper says (Omnigrok §2);
#   the official teacher–student notebook rescales between the forward and the backward pass.

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
# # GenEFT, part 2: interacting repons and the learning-rate phase diagram
#
# **The claims** (Baek, Liu & Tegmark 2024, arXiv 2402.05916 v1, §5 and App. C–D). Treat each learned
# embedding as a particle, a "repon". Two repons that should end up together (same class), under a
# locally linear decoder $D(x) = Ax + b$ and gradient flow with decoder learning rate $\eta_A$ and
# encoder learning rate $\eta_x$, obey (Eq. 7–9)
#
# $$\frac{da_2}{dt} = -2\eta_A c^2 a_2, \qquad \frac{dc}{dt} = -\eta_x a_2^2 c,$$
#
# where $c$ is half their separation and $a_2$ the decoder's strength along it. The quantity
# $C = a_2^2/(2\eta_A) - c^2/\eta_x$ is conserved (Eq. 10): if $C > 0$ the repons collide
# (representation learning, generalization), if $C < 0$ the decoder dies first (memorization). For
# Gaussian initial conditions the collision probability is (Eq. 11)
#
# $$p_r = \frac{2}{\pi}\arctan\!\Big(\frac{\sigma_a}{\sigma_c}\sqrt{\frac{\eta_x}{2\eta_A}}\Big).$$
#
# The paper then reads its phase diagrams over encoder × decoder learning rate (Fig. 5) as showing a
# generalization/memorization boundary of **slope −1** at a task-independent intercept, with the rule
# of thumb $\eta_{enc}\eta_{dec} \lesssim 10^{-7}$; and the boundary as independent of decoder weight
# decay (Fig. 6).
#
# **A tension we test rather than assume.** Eq. 11 depends on the learning rates only through the
# *ratio* $\eta_x/\eta_A$. Its iso-probability lines are $\eta_{enc}/\eta_{dec} = $ const, which have
# slope **+1** in the $(\log\eta_{dec}, \log\eta_{enc})$ plane, not −1. So we measure the boundary's
# slope, with its fit uncertainty, and compare it with both.
#
# **What we reproduce at book scale.** The repon ODE and Eq. 11 exactly; Fig. 5 for the three
# relations on a 6×6 grid; Fig. 6 for mod 3. **What we leave out:** the paper's $10^5$-step budget,
# its decoder width 50 in the phase diagrams, and its grid down to $10^{-6}$ — all in the paper-scale
# configs (`REPRO_SCALE=paper`), same code, not run for this edition (no GPU).

# %%
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from myst_nb import glue

from repro.claims import ClaimBook
from repro.geneft import (LABELS, PhaseConfig, ReponConfig, fit_boundary, memorization_onset, plot_phases, plot_repons,
                          run_phases)
from repro.plotting import use_style
from repro.portable import approx, describe_seeds
from repro.scale import current_scale
from repro.theory.baek2024 import (conserved_quantity, integrate_repons, repon_fixed_point, repon_probability,
                                   repon_probability_monte_carlo)

use_style()
claims = ClaimBook("baek2024_geneft_dynamics")
print(f"scale: {current_scale()}")

# %% [markdown]
# ## The repon ODE, integrated
#
# We integrate Eq. 9 with scipy's LSODA from four initial conditions ($\eta_x = 10^{-3}$,
# $\eta_A = 2\cdot10^{-3}$) and compare the end points with the fixed points that Eq. 10 predicts:
# $(\pm\sqrt{2\eta_A C}, 0)$ for $C > 0$ and $(0, \pm\sqrt{-\eta_x C})$ for $C < 0$.

# %%
rcfg = ReponConfig()
trajectories = [integrate_repons(a0, c0, rcfg.eta_x, rcfg.eta_A, rcfg.t_max) for a0, c0 in rcfg.starts]
drift = 0.0
end_error = 0.0
for (a0, c0), (t, a, c) in zip(rcfg.starts, trajectories):
    C = conserved_quantity(a, c, rcfg.eta_x, rcfg.eta_A)
    drift = max(drift, float(np.abs(C - C[0]).max() / abs(C[0])))
    a_inf, c_inf = repon_fixed_point(a0, c0, rcfg.eta_x, rcfg.eta_A)
    end_error = max(end_error, abs(a[-1] - a_inf), abs(c[-1] - c_inf))
    outcome = "collision (generalization)" if C[0] > 0 else "no collision (memorization)"
    show = lambda x: f"{round(float(x), 3) + 0.0:.3f}"  # + 0.0 turns a rounded -0.0 into 0.0
    print(f"start (a2, c) = ({a0:.2f}, {c0:.2f}): C = {C[0]:+.0f}, predicted end ({show(a_inf)}, {show(c_inf)}), "
          f"integrated end ({show(a[-1])}, {show(c[-1])}): {outcome}")

# %% [markdown]
# ## Eq. 11 against a Monte Carlo of initial conditions
#
# Draw $a_2(0) \sim N(0, 1)$ and $c(0) \sim N(0, 1)$ and count how often $C > 0$.

# %%
p_theory = [repon_probability(r, 1.0) for r in rcfg.ratios]
p_mc = [repon_probability_monte_carlo(r, 1.0, samples=rcfg.samples, seed=rcfg.seed + i)
        for i, r in enumerate(rcfg.ratios)]
z = max(abs(m - p) / np.sqrt(p * (1 - p) / rcfg.samples) for p, m in zip(p_theory, p_mc))
for r, p, m in zip(rcfg.ratios, p_theory, p_mc):
    print(f"eta_x/eta_A = {r:>6g}: Eq. 11 {p:.3f}, Monte Carlo {m:.3f}")
fig_r = plot_repons(rcfg, trajectories, p_theory, p_mc)
glue("fig_repons", fig_r, display=False)

# %% [markdown]
# ```{glue:figure} fig_repons
# :name: fig-geneft-repons
#
# Left: trajectories of Eq. 9 in the $(a_2, c)$ plane (dots: start, stars: end). Each moves on its
# hyperbola $C = $ const; green ones ($C > 0$) reach $c = 0$ (the repons collide), purple ones
# ($C < 0$) reach $a_2 = 0$ (the decoder stops pulling). Black: the separatrix $C = 0$. Right: the
# probability of collision against the learning-rate ratio, Eq. 11 and Monte Carlo.
# ```

# %% [markdown]
# ## Fig. 5: encoder × decoder learning rate
#
# The encoder–decoder network of part 1 (concatenation, $d = 2$, three tanh hidden layers), trained
# full batch with Adam on 75 % of the pairs. Phases follow Table 4: train and test accuracy above 0.9
# within the budget, and generalization if test follows train within $10^3$ steps. A single run's
# phase at a cell near the boundary is decided by chance (and by the last bits of floating point), so
# every cell is trained with three seeds — each seed its own training split and its own initialization,
# shared across that seed's grid — and the boundary is fitted to the clean boundary columns of all
# seeds together. All three relations, three seeds and 36 cells (324 runs) train as one batched program.

# %%
cfg5 = PhaseConfig.fig5()
cfg5

# %%
fig5_result = run_phases(cfg5)
fit = fit_boundary(fig5_result)
n_seeds = len(cfg5.seeds)
fig5 = plot_phases(fig5_result, fit)
glue("fig_phases_lr", fig5, display=False)

# %% [markdown]
# ```{glue:figure} fig_phases_lr
# :name: fig-geneft-phases-lr
#
# Phases over decoder learning rate (x) and encoder learning rate (y), both log10, for (a) mod 3,
# (b) greater-than, (c) complete bipartite. Colour: the phase most of the three seeds show
# (green: generalization; yellow/orange: grokking; purple: memorization; grey: confusion); the label
# in each cell: how many seeds generalize there. White dots: the generalization/memorization boundary
# of each clean column (larger: more seeds put it there); dashed: the common-slope fit over all seeds.
# Generalization needs the encoder learning rate to keep up with the decoder's — a boundary rising to
# the right, not falling.
# ```

# %%
SLOPE_RES = 0.1  # the pooled slope, to 0.1 (one flipped boundary cell moves it by a few hundredths)
SEED_SLOPE_RES = 0.2  # a single seed's slope rests on a dozen boundary points: to 0.2
INTERCEPT_RES = 0.25  # intercepts: a boundary point is only known to half a grid step (0.25 decades)
SIGMA_RES = 10  # distance from -1 in standard errors: only "far more than 3" matters
print(f"boundary slope d log(eta_enc*) / d log(eta_dec), pooled over {n_seeds} seeds: {approx(fit.slope, SLOPE_RES)}")
print(f"the same fit on each seed alone: slope {describe_seeds(fit.seed_slopes, SEED_SLOPE_RES)}")
for rel, b in fit.intercepts.items():
    print(f"{LABELS[rel]:>13}: intercept {approx(b, INTERCEPT_RES)}")
spread = max(fit.intercepts.values()) - min(fit.intercepts.values())
SPREAD_RES = 0.5  # the spread: half the claim's 1-decade bound (finer grids flip with one boundary cell)
sigma_from_minus1 = abs(fit.slope + 1) / fit.slope_err
rows, cols = np.meshgrid(cfg5.row_values, cfg5.lr_dec, indexing="ij")
# generalizing runs (all tasks and seeds) whose product eta_enc * eta_dec exceeds the paper's 1e-7
violations = sum(int((fig5_result.generalized(r) & (rows * cols > 1e-7)).sum()) for r in cfg5.relations)
generalizing = sum(int(fig5_result.generalized(r).sum()) for r in cfg5.relations)
print(f"distance from the paper's slope -1: {approx(sigma_from_minus1, SIGMA_RES)} standard errors (to 10)")
print(f"intercept spread across tasks: {approx(spread, SPREAD_RES)} decades")
print(f"share of generalizing runs (all tasks and seeds) with eta_enc * eta_dec > 1e-7: "
      f"{approx(violations / max(generalizing, 1), 0.1)}")
glue("slope", approx(fit.slope, SLOPE_RES), display=False)
glue("seed_slopes", describe_seeds(fit.seed_slopes, SEED_SLOPE_RES), display=False)
glue("sigma_m1", approx(sigma_from_minus1, SIGMA_RES), display=False)
glue("spread", approx(spread, SPREAD_RES), display=False)
glue("n_seeds", f"{n_seeds}", display=False)

# %% [markdown]
# ## Fig. 6: decoder weight decay × decoder learning rate
#
# Encoder learning rate fixed; the question is whether the memorization boundary (in decoder learning
# rate) moves with decoder weight decay. Eq. 11 has no weight decay in it, so the paper expects a
# vertical boundary.

# %%
cfg6 = PhaseConfig.fig6()
fig6_result = run_phases(cfg6)
fig6 = plot_phases(fig6_result)
glue("fig_phases_wd", fig6, display=False)

# per seed and weight-decay row: log10 of the smallest decoder lr that memorizes (nan: none); a row's onset
# is the median over seeds, with a seed that never memorizes counted as "later than any" (+inf)
onsets = {rel: memorization_onset(fig6_result, rel) for rel in cfg6.relations}
median_onsets = {rel: np.median(np.where(np.isnan(on), np.inf, on), axis=0) for rel, on in onsets.items()}
for rel, on in onsets.items():
    print(f"{LABELS[rel]:>13}, memorization onset log10 eta_dec (median over {on.shape[0]} seeds):")
    for w, m, row in zip(cfg6.row_values, median_onsets[rel], on.T):
        print(f"    wd_dec = {w:<5g}: " + ("none" if not np.isfinite(m) else approx(m, 0.5)))

# %% [markdown]
# ```{glue:figure} fig_phases_wd
# :name: fig-geneft-phases-wd
#
# Phases over decoder learning rate (x) and decoder weight decay (y; the bottom row is zero weight
# decay) for mod 3 at a fixed encoder learning rate. Colours as in Fig. 5.
# ```

# %% [markdown]
# ## Paper versus ours
#
# Statements about the trained networks are statistics over the three seeds (five would exceed the
# chapter's CPU budget): the boundary fit pools their clean columns, and each value is shown at a
# resolution coarser than the change one flipped cell makes and no finer than the seed spread printed
# above (0.1 for the pooled slope, 0.2 for a single seed's slope, a half grid step of 0.25 decades for
# intercepts, 0.5 decades, half the claim's bound, for their spread across tasks and for the Fig. 6
# onsets).
#
# 1. **$C$ is conserved** (Eq. 10): relative drift along the integrated trajectories ≤ $10^{-6}$
#    (the integrator's tolerance is $10^{-10}$), and the end points match Eq. 10's fixed points
#    within $2\cdot10^{-3}$ (the trajectories are still converging at $t_{max}$).
# 2. **Eq. 11 matches the Monte Carlo** within sampling error: largest deviation ≤ 4 binomial standard
#    errors over the ten ratios.
# 3. **The sign of the Fig. 5 boundary.** Eq. 11 depends on $\eta_{enc}/\eta_{dec}$ only, so the
#    boundary should rise (slope +1). We check that the slope fitted to all seeds is positive, and
#    that the median of the per-seed slopes is too.
# 4. **The paper's slope −1 is contradicted**: the fitted slope lies at least 3 standard errors from
#    −1. This check passes when our measurement *disagrees* with the paper's text, and we say so.
# 5. **Same intercept across tasks** (§5): the per-task intercepts of the common-slope fit lie within
#    one decade of each other (two grid steps).
#
# The paper's Fig. 6 statement (the boundary does not move with decoder weight decay) is no longer a
# check here: over seeds it does not hold at book scale (see the deviations).

# %%
claims.check("relative drift of C along the repon ODE", drift, 1e-6, comparison="<=",
             source="Eq. 10: dC/dt = 0")
claims.check("ODE end point vs Eq. 10 fixed point (max abs error)", end_error, 2e-3, comparison="<=",
             source="Eq. 10: a2* = sqrt(2 eta_A C) or c* = sqrt(-eta_x C)")
claims.check("p_r: Eq. 11 vs Monte Carlo (max deviation in standard errors)", z, 4.0, comparison="<=",
             source="Eq. 11")
claims.check("Fig. 5 boundary slope (sign agrees with Eq. 11's ratio rule)", fit.slope, 0.0, comparison=">=",
             source="Eq. 11: p_r depends on eta_enc/eta_dec only (iso-lines of slope +1)", resolution=SLOPE_RES)
claims.check("Fig. 5 median per-seed boundary slope (sign)", float(np.nanmedian(fit.seed_slopes)), 0.0,
             comparison=">=", source="Eq. 11: p_r depends on eta_enc/eta_dec only (iso-lines of slope +1)",
             resolution=SLOPE_RES)
claims.check("Fig. 5 boundary slope: distance from the paper's -1 in standard errors", sigma_from_minus1, 3.0,
             comparison=">=", source="§5 and Fig. 5 caption: 'slope -1' (this check asserts the contradiction)",
             resolution=SIGMA_RES)
claims.check("Fig. 5 intercept spread across tasks (decades)", spread, 1.0, comparison="<=",
             source="§5: 'the phase boundary appears approximately at the same intercept'", resolution=SPREAD_RES)
# Fig. 6 (boundary independent of weight decay): with one seed this was a passing check (spread <= 0.5
# decades); over three seeds it does not hold, so it is a measured statement in the deviations below.
finite = [x for m in median_onsets.values() for x in m if np.isfinite(x)]
onset_spread = max(finite) - min(finite) if finite else float("nan")
glue("onset_spread", approx(onset_spread, 0.5), display=False)
glue("onset_rows", "; ".join(f"weight decay {w:g}: " + ("none" if not np.isfinite(m) else approx(m, 0.5))
                             for w, m in zip(cfg6.row_values, median_onsets["mod3"])), display=False)
glue("onset_verdict", "more than" if onset_spread > 0.5 else "within", display=False)
no_mem = [w for w, m in zip(cfg6.row_values, median_onsets["mod3"]) if not np.isfinite(m)]
glue("wd_no_mem", ("With decoder weight decay " + ", ".join(f"{w:g}" for w in no_mem) + " most seeds memorize at no "
                   "decoder learning rate of this row.") if no_mem else "Every weight-decay row memorizes at some "
     "decoder learning rate in most seeds.", display=False)
print(claims.table())

# %% [markdown]
# The measured boundary slope is {glue:text}`slope` (common slope over the three tasks and the
# {glue:text}`n_seeds` seeds); fitted on each seed alone, it is {glue:text}`seed_slopes`. It is about
# {glue:text}`sigma_m1` standard errors (standard error from the fit and from the half-step resolution
# of the grid) from the paper's −1. The per-task intercepts differ by {glue:text}`spread` decades. In
# Fig. 6 the decoder learning rate at which mod 3 starts to memorize (median over seeds) moves by
# {glue:text}`onset_spread` decades across weight decays.
#
# ## Deviations and what they mean
#
# - **The slope is positive, not −1.** Our phase diagrams show generalization when the encoder
#   learning rate is large enough *relative to* the decoder's: the boundary rises to the right. That
#   is the sign Eq. 11 predicts (it depends on $\eta_{enc}/\eta_{dec}$ only), and the opposite of the
#   paper's text. A product rule $\eta_{enc}\eta_{dec} \lesssim 10^{-7}$ is also not what we see:
#   most generalizing cells of every seed have products far above $10^{-7}$ (printed above), though our budget is
#   shorter than the paper's $10^5$ steps, which shifts any budget-dependent boundary. We cannot see
#   the paper's figure (only its text survives), so we cannot tell whether its axes are labelled as
#   we read them; with the axes swapped, a ratio rule would still have slope +1. The spec's
#   independent scratch run (width 50, 6,000 steps) also found a ratio rule.
# - **Slope below 1.** Our fitted slope is positive but shallower than Eq. 11's +1 (per-seed slopes
#   above). Eq. 11 is a two-repon, linear-decoder, gradient-flow model; the network is
#   trained with Adam, whose per-parameter normalization makes the effective step sizes depend on
#   gradient scales, not only on the nominal learning rates, and memorization competes with
#   many repon pairs at once. We report the number rather than bend it to a theory.
# - **Book-scale settings.** Decoder width 20 instead of 50 (2.6× cheaper; in a width-50 check on
#   mod 3 the boundary columns agreed within one grid step), 1,500 full-batch Adam steps instead of $10^5$, a 6×6 grid from $10^{-4}$ to
#   $3\cdot10^{-2}$ (paper range unstated; spec proposes $10^{-6}$ to $10^{-1}$). Learning rates below
#   about $10^{-4}$ do not move parameters enough in 1,500 steps, so the grid starts there. The
#   paper-scale config keeps width 50, $10^5$ steps and the wide grid.
# - **Fig. 6** at book scale is mod 3 only, with the encoder learning rate raised from the caption's
#   $10^{-5}$ to $3\cdot10^{-4}$: at $10^{-5}$ the embeddings barely move within 1,500 steps and
#   every cell is confusion or memorization. {glue:text}`wd_no_mem`
# - **Fig. 6: the onset of memorization over seeds.** The caption says the boundary does not depend on
#   decoder weight decay. With a single seed (this page's earlier edition) the onset sat at the same
#   decoder learning rate in every row that memorized, and we checked a spread of at most one grid
#   step (0.5 decades). Over three seeds the median onset per row is {glue:text}`onset_rows` (log10
#   $\eta_{dec}$): a spread of {glue:text}`onset_spread` decades, {glue:text}`onset_verdict` one grid
#   step. At book scale (1,500 steps, width 20, raised encoder learning rate) we therefore do not
#   reproduce the caption's independence; whether the paper's $10^5$-step budget restores it is left
#   to the paper-scale config.
# - **Phase rule.** Table 4's thresholds (0.9) and gap ($10^3$ steps) are kept at book scale; with a
#   1,500-step budget, "grokking" (test crossing 0.9 more than $10^3$ steps after train) is rare.
# - **Optimizer and loss.** The paper does not name them; we use Adam (decoupled decay on the decoder)
#   and binary cross-entropy, as proposed in the spec (G.3).

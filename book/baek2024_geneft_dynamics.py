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
# # GenEFT, part 2: interacting repons and the learning-rate phase diagram
#
# **The claims** (Baek, Liu & Tegmark 2024, [arXiv 2402.05916](https://arxiv.org/abs/2402.05916) v1, §5 and App. C–D). Treat each learned
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

# %% [markdown]
# % generated: claims-summary
#
# **Baek, Liu & Tegmark 2024 (GenEFT), claim by claim** — 9 paper claims: 0 reproduced, 3 not reproduced (rate 0/3); 4 inconclusive, 2 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ⏳ not tested | — | “Eq. (7) has simple asymptotics: (i) If A is constant or η_A = 0, two repons will eventually collide, i.e., r → 0. (ii) In the opposite limit, if r is …” | Eq. 7, App. C |
# | **C2** | ⏳ not tested | — | “It is easy to check Eq. (7) has a solution of the following form: … Substituting this into Eq. (7) and defining a2(t) ≡ a(t)+b(t) gives the …” | Eq. 8, Eq. 9 |
# | **C3** | ❔ inconclusive | T01: 3.87e-10 vs paper <= 1e-06 | “Interestingly, there is a conserved quantity C ≡ a2²/(2η_A) − c²/η_x, because dC/dt = 0.” | Eq. 10 |
# | **C4** | ❔ inconclusive | T02: 6.21e-11 vs paper <= 0.002 | “If C > 0, c* → 0 and a2* → ±√(2η_A C), resulting in repon collision (generalization). If C < 0, c* → ±√(−η_x C) and a2* → 0, leading to no collision …” | Eq. 10 |
# | **C5** | ❔ inconclusive | T03: 1.95 vs paper <= 4 | “When the initial conditions a2(0) and c(0) are drawn from a normal distribution with width σ_a and σ_c respectively, the probability of …” | Eq. 11 |
# | **C6** | ❌ not reproduced | T16: 0.6 vs paper -1 ± 0.5 | “Generalization can be interpreted as the probability of representation learning in Eq.(11) exceeding a certain threshold. Hence, in a phase diagram …” | Fig. 5a, Fig. 5b, Fig. 5c |
# | **C7** | ❔ inconclusive | T22: 0.5 vs paper <= 1 | “Moreover, the phase boundary appears approximately at the same intercept, which also matches the prediction of Eq. 11 that the probability of …” | Fig. 5a, Fig. 5b, Fig. 5c |
# | **C8** | ❌ not reproduced | T24: 0.7 vs paper 0 ± 0.25 | “As a rule of thumb, we see that generalization requires that the learning rate product η_enc η_dec ≲ 10^−7.” | Fig. 5 |
# | **C9** | ❌ not reproduced | T26: 4.25 vs paper 0 ± 0.5 | “All figures indicate that the memorization-generalization boundary is independent of the weight decay, which is consistent with the result of …” | Fig. 6a, Fig. 6b, Fig. 6c |
#
# The deciding test is the one the verdict rests on (a decided disagreement first); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **A tension we test rather than assume.** Eq. 11 depends on the learning rates only through the
# *ratio* $\eta_x/\eta_A$. Its iso-probability lines are $\eta_{enc}/\eta_{dec} = $ const, which have
# slope **+1** in the $(\log\eta_{dec}, \log\eta_{enc})$ plane, not −1. So we measure the boundary's
# slope, with its fit uncertainty, and compare it with both.
#
# **What we run.** The repon ODE and Eq. 11 exactly; Fig. 5 for the three relations on a 6×6 grid (live,
# book scale) and, stored, in the paper's regime: the paper's width 50, a grid four decades wide and
# $2\cdot10^4$ steps, under Adam and under plain gradient descent (Eq. 11 is a gradient-flow result); Fig. 6
# for mod 3 (live) and for all three relations over seven weight decays (stored twice: at the book's width and
# twice the live budget, and at the paper's width 50 for $2\cdot10^4$ steps). **What we leave out:** the paper's
# $10^5$-step budget, the width 50 in the live diagrams, and Fig. 6's encoder learning rate $10^{-5}$ (ours is
# $3\cdot10^{-4}$). The paper-scale configs
# (`REPRO_SCALE=paper`) keep the same code at the paper's width and budget. Each
# experiment's settings are printed beside the paper's in a setup table. The verdict on each figure, and
# the claims behind it, are in the last section, *Paper versus ours*.

# %% tags=["hide-input"]
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

from dataclasses import replace

import numpy as np
from IPython.display import display
from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.core.portable import approx, describe_seeds, trained
from repro.core.scale import current_scale
from repro.experiments.baek2024_geneft import (FIG5_SEEDS, LABELS, PhaseConfig, ReponConfig, fit_boundary, product_rule,
                                               decay_reach, fit_boundary_logistic, intercept_spread_standard_error,
                                               invert_encoder_axis, merge_seeds,
                                               onsets, run_phases, stored_fig5, stored_fig5_config, stored_fig6_config,
                                               stored_fig6_wide, stored_fig6_wide_config, stored_phases)
from repro.experiments.baek2024_geneft_dynamics_setup import (OPT_NAMES, fig5_setup_table, fig5_stored_setup_table,
                                                              fig6_setup_table, fig6_stored_setup_table,
                                                              fig6_wide_setup_table)
from repro.plotting.baek2024_geneft import plot_phases, plot_repons
from repro.plotting.shared import use_style
from repro.theory.baek2024 import (conserved_quantity, integrate_repons, repon_fixed_point, repon_probability,
                                   repon_probability_monte_carlo)
from repro.training.store import load_stored

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
# ```{figure} _figures/baek2024_geneft_dynamics/fig_repons.png
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
# Since the phase rule reads only the first steps at which train and test accuracy cross 0.9, a run whose
# two crossings are both in has its phase decided, and it leaves the batch there; the others run the full
# budget.

# %%
cfg5 = PhaseConfig.fig5()
fig5_setup_table(cfg5)

# %%
fig5_result = run_phases(cfg5)
fit = fit_boundary(fig5_result)
n_seeds = len(cfg5.seeds)
fig5 = plot_phases(fig5_result, fit)
glue("fig_phases_lr", fig5, display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_lr.png
# :name: fig-geneft-phases-lr
#
# **Baek et al. 2024, Fig. 5 (ours, book scale).** Phases over decoder learning rate (x) and encoder learning rate (y), both log10, for (a) mod 3,
# (b) greater-than, (c) complete bipartite. Colour: the phase most of the three seeds show
# (green: generalization; yellow/orange: grokking; purple: memorization; grey: confusion); the label
# in each cell: how many seeds generalize there. White dots: the generalization/memorization boundary
# of each clean column (larger: more seeds put it there); dashed: the common-slope fit over all seeds.
# At this budget, generalization needs the encoder learning rate to keep up with the decoder's — a
# boundary rising to the right, not falling.
# ```

# %%
SLOPE_RES = 0.1  # the pooled slope, to 0.1 (one flipped boundary cell moves it by a few hundredths)
SEED_SLOPE_RES = 0.1  # a single seed's slope: slopes of quantized boundaries are simple fractions (0.5, 0.625),
# which sit on the edges of a 0.2 or 0.25 grid
INTERCEPT_RES = 0.5  # intercepts: boundary points are quantized to the half-decade grid
SPREAD_RES = 0.5  # the spread: half the claim's 1-decade bound (finer grids flip with one boundary cell)
print(f"boundary slope d log(eta_enc*) / d log(eta_dec), pooled over {n_seeds} seeds: {trained(fit.slope, SLOPE_RES)} "
      f"(standard error {trained(fit.slope_err, 0.1)})")
print(f"the same fit on each seed alone: slope {describe_seeds(fit.seed_slopes, SEED_SLOPE_RES)}")
# The seed-to-seed part of the slope's uncertainty: the pooled fit on seeds resampled with replacement (fixed
# generator). Shown at 0.1, like the slope.
boot_err = float(np.nanstd(fit.boot_slopes))
print(f"standard deviation of the pooled slope over {len(fit.boot_slopes)} resamplings of the seeds: {trained(boot_err, 0.1)}")
glue("boot_err", trained(boot_err, 0.1), display=False)
for rel, b in fit.intercepts.items():
    print(f"{LABELS[rel]:>13}: intercept {trained(b, INTERCEPT_RES)}")
spread = max(fit.intercepts.values()) - min(fit.intercepts.values())
rows, cols = np.meshgrid(cfg5.row_values, cfg5.lr_dec, indexing="ij")
# the paper's rule of thumb eta_enc * eta_dec <~ 1e-7: the share of generalizing runs (all tasks and seeds) that
# break it, per seed too (the seed spread behind the claim's margin), and its low-rate regime
rule = product_rule(fig5_result)
product_share, seed_product_share = rule.share_above, rule.seed_share_above
print(f"intercept spread across tasks: {trained(spread, SPREAD_RES)} decades")
print(f"share of generalizing runs (all tasks and seeds) with eta_enc * eta_dec > 1e-7: {trained(product_share, 0.1)}")
# The paper's low-rate regime: the grid cells whose product is at most 1e-7 (its corner), and how many of their
# runs are still undecided (confusion) at this budget.
print(f"cells with eta_enc * eta_dec <= 1e-7: {int(rule.low.sum())} of {rule.low.size}; of their {rule.low_runs} runs "
      f"(all tasks and seeds), {trained(rule.low_confused, 1)} are still confused at {cfg5.steps:,} steps and "
      f"{trained(rule.low_generalized, 1)} generalize")
# The orientation of every column that holds both phases and no confusion, whatever its order: ours (memorization
# below, generalization above, the only kind fit_boundary reads) or the paper's (generalization at the lower
# encoder rates, memorization above), or mixed (neither order holds).
orient = {"ours": 0, "paper's": 0, "mixed": 0}
for r in cfg5.relations:
    for col in np.moveaxis(fig5_result.phases[r], 2, 1).reshape(-1, len(cfg5.row_values)):
        gen, mem = np.isin(col, ("comprehension", "grokking")), col == "memorization"
        if not gen.any() or not mem.any() or (col == "confusion").any():
            continue
        k, m = int(np.argmax(gen)), int(np.argmax(mem))
        orient["ours" if gen[k:].all() and mem[:k].all() else "paper's" if mem[m:].all() and gen[:m].all()
               else "mixed"] += 1
print("columns with both phases and no confusion, by order (encoder lr ascending): "
      + ", ".join(f"{k} {trained(v, 1)}" for k, v in orient.items()))
glue("low_cells", f"{int(rule.low.sum())}", display=False)
glue("low_runs", f"{rule.low_runs}", display=False)
glue("low_confused", trained(rule.low_confused, 1), display=False)
glue("low_generalized", trained(rule.low_generalized, 1), display=False)
glue("orient_ours", trained(orient["ours"], 1), display=False)
orient_paper = orient["paper's"]
# whether the top row (the largest encoder lr) generalizes in every column of every task and seed: then no column
# can show the paper's order (memorization above generalization) at any longer budget, since a run that
# generalizes stays so
top_generalizes = all(fig5_result.generalized(r)[:, -1, :].all() for r in cfg5.relations)
glue("top_rows_text", trained(
    "The grid's top row generalizes in every column, task and seed, and a run that generalizes stays so at a longer "
    "budget, so within the grid the paper's order cannot appear at any budget" if top_generalizes else
    "The grid's top row does not generalize in every column, so the paper's order could still appear within the "
    "grid at a longer budget"), display=False)
glue("orient_paper", trained(orient_paper, 1), display=False)
glue("orient_mixed", trained(orient["mixed"], 1), display=False)
glue("slope", trained(fit.slope, SLOPE_RES), display=False)
glue("slope_err", trained(fit.slope_err, 0.1), display=False)
glue("seed_slopes", describe_seeds(fit.seed_slopes, SEED_SLOPE_RES), display=False)
glue("spread", trained(spread, SPREAD_RES), display=False)
glue("product_share", trained(product_share, 0.1), display=False)
glue("n_seeds", f"{n_seeds}", display=False)

# %% [markdown]
# ### Fig. 5 in the paper's regime (stored)
#
# The live diagram cannot decide the paper's claim: its grid only touches the low-rate regime where the
# paper's rule places generalization, its budget leaves that corner undecided, its fit reads only clean
# columns, and Adam is not the gradient flow Eq. 11 is derived for. The stored runs change each of these.
# They use the paper's width 50 and a budget of $2\cdot10^4$ steps (a fifth of Table 4's $10^5$; a run whose
# phase is decided stops early), with three seeds. They run two optimizers: Adam with both rates from
# $10^{-5}$ to $10^{-1}$, and plain gradient descent from $10^{-3}$ to $10^{1}$. The gradient-descent grid
# sits two decades higher because a gradient step is the gradient's size times the rate, where Adam's is
# about the rate itself; a short pilot (2,000 steps, width 20, not stored) left gradient descent at rates up
# to $10^{-1}$ almost entirely undecided. The stored run shows how much of its grid is decided.
#
# The boundary is fitted to every decided run: a logistic model of generalized against memorized in
# $(\log_{10}\eta_{dec}, \log_{10}\eta_{enc})$, with one common direction and one offset per task
# (`fit_boundary_logistic`). A boundary that falls to the right, with generalization at low rates as in the
# paper, fits as well as one that rises, and a vertical one gives an infinite slope. Confused runs (no phase
# within the budget) are left out and counted. The claims on these runs were registered, with their
# tolerances, before the runs started, and each run's manifest seals them. Each seed is its own stored entry:
# `python -m repro.experiments.baek2024_geneft --store book/_results --only fig5-adam` (and `fig5-gd`)
# recomputes them (minutes on one core, all seeds: Adam {eval}`glued.s5_minutes_adam`, gradient descent
# {eval}`glued.s5_minutes_gd`). Until every seed of an optimizer is stored, its diagram is not judged.

# %%
FIG5_OPTIMIZERS = ("adam", "gd")
for opt in FIG5_OPTIMIZERS:
    display(fig5_stored_setup_table(replace(stored_fig5_config(opt), seeds=FIG5_SEEDS)))

# %%
s5, s5_fit, s5_manifests, s5_missing = {}, {}, {}, {}
for opt in FIG5_OPTIMIZERS:
    # judged only once every seed is stored (the claims were registered for the three together)
    found = {sd: stored_fig5(opt, sd, "_results") for sd in FIG5_SEEDS}
    missing = [sd for sd, entry in found.items() if entry is None]
    if missing:
        s5_missing[opt] = f"seeds {', '.join(map(str, missing))} of {len(FIG5_SEEDS)} not stored yet"
        print(f"Fig. 5 ({OPT_NAMES[opt]}) is not judged in this build: {s5_missing[opt]} (the command above computes them).")
        glue(f"s5_minutes_{opt}", "(not stored yet)", display=False)
        continue
    loaded = [load_stored(found[sd], f"Fig. 5 run ({OPT_NAMES[opt]}, seed {sd})",
                          f"python -m repro.experiments.baek2024_geneft --store book/_results --only fig5-{opt} "
                          f"--seeds {sd}", "about an hour on one core") for sd in FIG5_SEEDS]
    s5[opt], s5_manifests[opt] = merge_seeds([r for r, _ in loaded]), [m for _, m in loaded]
    glue(f"s5_minutes_{opt}", f"{sum(m['wall_time_s'] for m in s5_manifests[opt]) / 60:.0f}", display=False)
    s5_fit[opt] = fit_boundary_logistic(s5[opt])
STORED5 = [opt for opt in FIG5_OPTIMIZERS if opt in s5]
for opt in FIG5_OPTIMIZERS:
    if opt not in s5:
        glue(f"s5_text_{opt}", f"Under {OPT_NAMES[opt]} the stored runs are not finished ({s5_missing[opt]}).",
             display=False)
        glue(f"fig_phases_lr_{opt}", "(the stored runs are not finished)", display=False)
        for key in ("slope", "boot", "spread", "side", "decided_share", "small_decided", "low_decided",
                    "low_generalized", "product_share"):
            glue(f"s5_{key}_{opt}", "(not stored yet)", display=False)

# %% [markdown]
# What each stored grid shows: the fitted boundary's slope (pooled over tasks and seeds; per seed; and its
# spread over resampled seeds), its side, the per-task intercepts, and how much of the grid is decided.

# %%
S5_SLOPE_RES = 0.1
s5_stats = {}
for opt in STORED5:
    res, f = s5[opt], s5_fit[opt]
    c = res.config
    rows5, cols5 = np.meshgrid(c.row_values, c.lr_dec, indexing="ij")
    n_runs = len(c.relations) * len(c.seeds) * rows5.size
    st = {"boot": float(np.nanstd(f.boot_slopes)), "decided_share": f.decided / n_runs,
          "spread": max(f.intercepts.values()) - min(f.intercepts.values())}
    # Adam: the paper's rule of thumb and its low-rate regime (product at most 1e-7)
    rule5 = product_rule(res)
    st.update(product_share=rule5.share_above, seed_product_share=rule5.seed_share_above,
              low_cells=int(rule5.low.sum()), low_decided=rule5.low_decided, seed_low_decided=rule5.seed_low_decided,
              low_generalized=rule5.low_generalized_share)
    ph_all = np.stack([res.phases[r] for r in c.relations])
    # the rates at or below 1e-1 on both axes (the Adam grid's range): how much of it gradient descent decides
    small = (rows5 <= 0.1 * (1 + 1e-9)) & (cols5 <= 0.1 * (1 + 1e-9))
    st["small_decided"] = float((ph_all[:, :, small] != "confusion").mean())
    st["seed_decided"] = (ph_all != "confusion").mean(axis=(0, 2, 3))
    s5_stats[opt] = st
    print(f"{OPT_NAMES[opt]} ({len(c.seeds)} seeds, {c.steps:,} steps, rates {c.row_values[0]:g} to {c.row_values[-1]:g}):")
    print(f"    boundary slope d log(eta_enc) / d log(eta_dec): {approx(f.slope, S5_SLOPE_RES)}; per seed "
          + ", ".join(approx(v, S5_SLOPE_RES) for v in f.seed_slopes)
          + f"; standard deviation over {len(f.boot_slopes)} resamplings of the seeds {approx(st['boot'], 0.01)}")
    print(f"    generalization lies {'above' if f.generalize_above else 'below'} the boundary (at "
          f"{'larger' if f.generalize_above else 'smaller'} encoder rates)")
    print("    intercepts (log10 eta_enc at eta_dec = 1): " + ", ".join(f"{LABELS[r]} {approx(b, 0.1)}"
                                                                         for r, b in f.intercepts.items())
          + f"; spread {approx(st['spread'], 0.1)} decades")
    print(f"    decided runs {f.decided:,} of {n_runs:,} ({approx(st['decided_share'], 0.01)}); confused "
          f"{f.confused:,}; decided runs on the wrong side of the fitted boundary {f.misclassified:,}")
    if opt == "gd":
        print(f"    rates both <= 1e-1 (the Adam grid's range): share decided {approx(st['small_decided'], 0.01)}")
    if opt == "adam":
        print(f"    cells with eta_enc*eta_dec <= 1e-7: {st['low_cells']} of {rows5.size}; share of their runs decided "
              f"{approx(st['low_decided'], 0.01)}, generalized {approx(st['low_generalized'], 0.01)}")
        print(f"    share of generalizing runs with eta_enc*eta_dec > 1e-7: {approx(st['product_share'], 0.01)}")
    glue(f"fig_phases_lr_{opt}", plot_phases(res, logistic=f, product_rule=1e-7 if opt == "adam" else None),
         display=False)
    for key in ("decided_share", "small_decided", "low_decided", "low_generalized", "product_share"):
        glue(f"s5_{key}_{opt}", approx(st[key], 0.01) if np.isfinite(st[key]) else "n/a", display=False)
    glue(f"s5_slope_{opt}", approx(f.slope, S5_SLOPE_RES), display=False)
    glue(f"s5_boot_{opt}", approx(st["boot"], 0.01), display=False)
    glue(f"s5_spread_{opt}", approx(st["spread"], 0.1), display=False)
    glue(f"s5_side_{opt}", "above" if f.generalize_above else "below", display=False)
    text = (f"Under {OPT_NAMES[opt]} ({c.steps:,} steps, rates {c.row_values[0]:g} to {c.row_values[-1]:g}), "
            f"{approx(st['decided_share'], 0.01)} of the runs are decided"
            + (f", {approx(st['low_decided'], 0.01)} of those in the paper's low-rate regime" if opt == "adam" else "")
            + f"; the boundary fitted to every decided run {'rises' if f.slope > 0 else 'falls'} with slope "
            f"{approx(f.slope, S5_SLOPE_RES)} (spread over resampled seeds {approx(st['boot'], 0.01)}), generalization "
            f"{'above' if f.generalize_above else 'below'} it")
    if opt == "adam":
        text += (f"; the paper's low-rate regime generalizes in {approx(st['low_generalized'], 0.01)} of its runs, and "
                 f"{approx(st['product_share'], 0.01)} of the generalizing runs break the product rule")
    glue(f"s5_text_{opt}", text + ".", display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_lr_adam.png
# :name: fig-geneft-phases-lr-adam
#
# The stored Fig. 5 under Adam: phases over decoder (x) and encoder (y) learning rate, both log10, for
# (a) mod 3, (b) greater-than, (c) complete bipartite, at the paper's width 50 and $2\cdot10^4$ steps. Colour:
# the phase most of the three seeds show; label: how many seeds generalize. White line: the boundary fitted to
# every decided run (slope in the legend). Dotted: the paper's rule $\eta_{enc}\eta_{dec} = 10^{-7}$, below
# which it places generalization.
# ```
#
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_lr_gd.png
# :name: fig-geneft-phases-lr-gd
#
# The same under plain gradient descent, on rates two decades higher ($10^{-3}$ to $10^{1}$). Colours, labels
# and the fitted boundary as above.
# ```

# %% [markdown]
# ### Fig. 5 with the encoder-rate axis read the other way
#
# Only the paper's text reaches us, not its figure, so its tick labels cannot be read. The text names the axes
# ("a function of the encoder learning rate $\eta_{enc}$ and decoder learning rate $\eta_{dec}$", §5 and the
# Fig. 5 caption) but not their direction. Suppose the encoder axis ran opposite to its labels, as in a matrix drawn
# top-down and read bottom-up. Reading our stored maps that way reverses their encoder rows
# (`invert_encoder_axis`): on an evenly spaced grid, $\log\eta_{enc} \to \log\eta_{min} + \log\eta_{max} -
# \log\eta_{enc}$. A boundary of slope $s$ then reads as $-s$, and a ratio rule $\eta_{enc}/\eta_{dec} \gtrsim k$
# reads as a product rule $\eta_{enc}\eta_{dec} \lesssim \eta_{min}\eta_{max}/k$. On the Adam grid
# ($10^{-5}$ to $10^{-1}$), the inverted product $\leq 10^{-7}$ is the upright $\eta_{enc}/\eta_{dec} \geq 10$. Both
# readings use the same fit and the same share. We registered the inverted comparisons (T30–T32) after the
# stored maps and their upright results had been seen. They re-read stored arrays, deterministically, but the
# runs did not seal them, so they are marked † and decide nothing.

# %% tags=["hide-input"]
s5_inv_text = {}
for opt in STORED5:
    inv = invert_encoder_axis(s5[opt])
    f_inv, up = fit_boundary_logistic(inv), s5_fit[opt]
    text = (f"{OPT_NAMES[opt]}: boundary slope upright {approx(up.slope, S5_SLOPE_RES)}, encoder axis inverted "
            f"{approx(f_inv.slope, S5_SLOPE_RES)} (per seed " + ", ".join(approx(v, S5_SLOPE_RES) for v in f_inv.seed_slopes)
            + f"), generalization {'above' if f_inv.generalize_above else 'below'} the inverted boundary")
    name = f"stored ({opt}), encoder-rate axis inverted: Fig. 5 boundary slope (logistic fit)"
    claims.check(name, f_inv.slope, seeds=f_inv.seed_slopes, live=False, run=s5_manifests[opt],
                 evidence=f"the stored map of T{16 if opt == 'adam' else 20} with its encoder rows reversed: {text}")
    if opt == "adam":
        r_up, r_inv = product_rule(s5[opt]), product_rule(inv)
        text += (f"; generalizing runs with eta_enc*eta_dec > 1e-7: upright {approx(r_up.share_above, 0.01)}, inverted "
                 f"{approx(r_inv.share_above, 0.01)} (per seed " + ", ".join(approx(v, 0.01) for v in r_inv.seed_share_above)
                 + f"); the {int(r_inv.low.sum())} inverted cells at or below 1e-7 generalize in "
                 f"{approx(r_inv.low_generalized_share, 0.01)} of their runs")
        claims.check("stored (adam), encoder-rate axis inverted: Fig. 5 share of generalizing runs with "
                     "eta_enc*eta_dec > 1e-7", r_inv.share_above, seeds=r_inv.seed_share_above, live=False,
                     run=s5_manifests[opt], evidence=f"the stored map of T24 with its encoder rows reversed: {text}")
        glue("fig_phases_lr_adam_inverted", plot_phases(inv, logistic=f_inv, product_rule=1e-7), display=False)
    s5_inv_text[opt] = text
    print(text)
for opt in FIG5_OPTIMIZERS:
    glue(f"s5_inv_text_{opt}", s5_inv_text.get(opt, f"{OPT_NAMES[opt]}: the stored runs are not finished"), display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_lr_adam_inverted.png
# :name: fig-geneft-phases-lr-adam-inverted
#
# The stored Fig. 5 under Adam, read with the encoder-rate axis inverted: the map of the figure above with its rows
# in reverse order, labels unchanged. White line: the same logistic fit on the inverted map; dotted: the paper's
# rule $\eta_{enc}\eta_{dec} = 10^{-7}$ in the inverted labels.
# ```
#
# Read inverted, the boundary falls, with generalization below it, as the paper says: {eval}`glued.s5_inv_text_adam`.
# {eval}`glued.s5_inv_text_gd`. Both inverted slopes lie within ±0.5 of the paper's −1. The product rule still
# fails: generalization fills the inverted low-rate corner but does not stop at $10^{-7}$, because where an inverted
# ratio rule turns into a product rule depends on the grid's ends. So which way does the paper's axis run? Its text
# does not say. It states the rule in rates ("generalization requires that the learning rate product
# $\eta_{enc}\eta_{dec} \lesssim 10^{-7}$"), and Eq. 11, the paper's own theory, depends on $\eta_x/\eta_A$ only,
# which gives slope +1 upright. So the chapter keeps the upright reading, the axes as the text labels them, for
# the verdicts. The inverted reading is shown beside it as context: the verdicts on C6 and C8 do not change. It is
# a way in which the paper's figure and our runs could agree; it is not a reproduction.

# %% [markdown]
# ## Fig. 6: decoder weight decay × decoder learning rate
#
# Encoder learning rate fixed; the question is whether the memorization boundary (in decoder learning
# rate) moves with decoder weight decay. Eq. 11 has no weight decay in it, so the paper expects a
# vertical boundary.

# %%
cfg6 = PhaseConfig.fig6()
fig6_setup_table(cfg6)

# %%
fig6_result = run_phases(cfg6)
fig6 = plot_phases(fig6_result)
glue("fig_phases_wd", fig6, display=False)

# per seed and weight-decay row: log10 of the smallest decoder lr that memorizes (nan: none); a row's onset
# is the median over seeds, with a seed that never memorizes counted as "later than any" (onsets)
fig6_onsets = {rel: onsets(fig6_result, rel) for rel in cfg6.relations}
for rel, on in fig6_onsets.items():
    print(f"{LABELS[rel]:>13}, memorization onset log10 eta_dec (median over {on.per_seed.shape[0]} seeds):")
    for w, m in zip(cfg6.row_values, on.median):
        print(f"    wd_dec = {w:<5g}: " + trained("none" if not np.isfinite(m) else approx(m, 0.5)))

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_wd.png
# :name: fig-geneft-phases-wd
#
# **Baek et al. 2024, Fig. 6 (ours, book scale).** Phases over decoder learning rate (x) and decoder weight decay (y; the bottom row is zero weight
# decay) for mod 3 at a fixed encoder learning rate. Colours as in Fig. 5.
# ```

# %% [markdown]
# ### Fig. 6 for all three tasks (stored)
#
# The live diagram covers mod 3 and four weight decays. The stored run `stored_fig6_config()` covers the
# three tasks of Fig. 6 (a)-(c) and seven weight-decay rows (0 and $10^{-4}$ to 10, the paper-scale config's
# range; the paper does not state its own), on the same decoder learning rates and encoder learning rate, with
# three seeds and 3 000 steps, twice the live budget ({eval}`glued.fig6_minutes` minutes on one core;
# `python -m repro.experiments.baek2024_geneft --store book/_results --only fig6` recomputes it). Each row's memorization onset
# is read as in the live run.

# %%
s6_cfg = stored_fig6_config()
fig6_stored_setup_table(s6_cfg)

# %%
s6, s6_manifest = load_stored(stored_phases(s6_cfg, "_results"), "Fig. 6 run",
                              "python -m repro.experiments.baek2024_geneft --store book/_results --only fig6", "a few minutes on one core",
                              glue_minutes="fig6_minutes")
s6_onsets, s6_spread, s6_spread_small = {}, {}, {}
small = np.asarray(s6_cfg.row_values) <= 1e-2  # the rows up to weight decay 1e-2
# A stored run is loaded, not recomputed: the same phases on every machine.
for rel in s6_cfg.relations:
    on = s6_onsets[rel] = onsets(s6, rel)
    s6_spread[rel], s6_spread_small[rel] = on.spread(), on.spread(small)
    print(f"{LABELS[rel]:>13}: memorization onset log10 eta_dec per weight decay (median of {on.per_seed.shape[0]} seeds): "
          + "; ".join(f"{w:g}: " + ("none" if not np.isfinite(m) else f"{m:.1f}")
                      for w, m in zip(s6_cfg.row_values, on.median)))
fig6s = plot_phases(s6)
glue("fig_phases_wd_stored", fig6s, display=False)
glue("s6_small_max", f"{max(s6_spread_small.values()):.1f}", display=False)
# The budget: mod 3's onset in the rows both runs share, at 1,500 steps (live) and 3,000 (stored), same rates
if "mod3" in cfg6.relations and cfg6.lr_enc == s6_cfg.lr_enc and cfg6.lr_dec == s6_cfg.lr_dec:
    for w, m in zip(cfg6.row_values, fig6_onsets["mod3"].median):
        if w in s6_cfg.row_values:
            m6 = s6_onsets["mod3"].median[list(s6_cfg.row_values).index(w)]
            print(f"mod 3, weight decay {w:g}: onset at {cfg6.steps:,} steps (live) "
                  + trained("none" if not np.isfinite(m) else approx(m, 0.5))
                  + f", at {s6_cfg.steps:,} steps (stored) " + ("none" if not np.isfinite(m6) else f"{m6:.1f}"))

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_wd_stored.png
# :name: fig-geneft-phases-wd-stored
#
# The stored Fig. 6: phases over decoder learning rate (x) and decoder weight decay (y; bottom row zero) for
# (a) mod 3, (b) greater-than, (c) complete bipartite. Colours and labels as in Fig. 5.
# ```
#
# For weight decays up to $10^{-2}$ the memorization onset is the same in every row, for each task (spread
# at most {eval}`glued.s6_small_max` decades): there the boundary does not depend on weight decay, as the
# caption says. At the largest weight decays it does: memorization disappears from the grid (and at 10 the
# networks no longer learn at all, confusion), so over the whole range the boundary moves, in every task.
# The cut at $10^{-2}$ was chosen after seeing this run, so the rows below it are a subset we selected, and
# the claims on them are marked as such (and †). Both diagrams are read at encoder learning rate
# $3\cdot10^{-4}$, not the caption's $10^{-5}$, and the onset itself moves with the budget (the lines above
# compare mod 3 at 1,500 and 3,000 steps).

# %% [markdown]
# ### Fig. 6 at the paper's width (stored)
#
# Both diagrams above keep the book's width 20 and a decoder grid that starts at $10^{-4}$. This stored run
# is the paper's model (Table 3: width 50, three hidden layers) over every weight-decay row and decoder
# learning rates $10^{-5}$ to $10^{-1}$ in half decades, three seeds, for $2\cdot10^4$ Adam steps (a fifth of
# Table 4's $10^5$; a run whose phase is decided stops early). The encoder rate stays $3\cdot10^{-4}$: at the
# caption's $10^{-5}$ the stored Fig. 5 under Adam memorizes at nearly every decoder rate (the line printed
# below), so there would be no onset to read. The claims on this run (the onset spread over all weight decays
# per task, with one grid step of tolerance, and the share of decided runs) were registered, with their
# tolerances, before the runs started, and each seed's manifest seals them; no rows are cut. Each seed is its
# own stored entry: `python -m repro.experiments.baek2024_geneft --store book/_results --only fig6-wide`
# recomputes them ({eval}`glued.s6w_minutes` minutes on one core, all seeds). Until every seed is stored,
# the run is not judged.

# %%
display(fig6_wide_setup_table(replace(stored_fig6_wide_config(), seeds=FIG5_SEEDS)))

# %%
found6w = {sd: stored_fig6_wide(sd, "_results") for sd in FIG5_SEEDS}
missing6w = [sd for sd, entry in found6w.items() if entry is None]
s6w = None
if "adam" in s5:  # the caption's encoder rate in the stored Fig. 5: how much of its row memorizes
    r5 = s5["adam"]
    i5 = int(np.argmin(np.abs(np.log10(r5.config.row_values) + 5)))
    mem5 = np.mean([(r5.phases[r][:, i5] == "memorization").mean() for r in r5.config.relations])
    print(f"stored Fig. 5 (Adam), encoder lr {r5.config.row_values[i5]:.0e}: share of runs that memorize, over "
          f"the {len(r5.config.lr_dec)} decoder rates, 3 tasks and {len(r5.config.seeds)} seeds: {mem5:.2f}")
if missing6w:
    s6w_missing = f"seeds {', '.join(map(str, missing6w))} of {len(FIG5_SEEDS)} not stored yet"
    print(f"Fig. 6 at the paper's width is not judged in this build: {s6w_missing} (the command above computes them).")
    glue("s6w_minutes", "(not stored yet)", display=False)
else:
    loaded6w = [load_stored(found6w[sd], f"Fig. 6 run (paper's width, seed {sd})",
                            f"python -m repro.experiments.baek2024_geneft --store book/_results --only fig6-wide "
                            f"--seeds {sd}", "about 50 minutes on one core") for sd in FIG5_SEEDS]
    s6w, s6w_manifests = merge_seeds([r for r, _ in loaded6w]), [m for _, m in loaded6w]
    glue("s6w_minutes", f"{sum(m['wall_time_s'] for m in s6w_manifests) / 60:.0f}", display=False)

# %% [markdown]
# Each row's memorization onset (log10 of the smallest decoder rate that memorizes; median over seeds, a row
# whose median never memorizes counted half a grid step beyond the grid), its spread over the rows per task,
# the same per seed, and the share of runs decided within the budget.

# %%
s6w_spread, s6w_seed_spread, s6w_onsets = {}, {}, {}
if s6w is not None:
    c6w = s6w.config
    for rel in c6w.relations:
        on = s6w_onsets[rel] = onsets(s6w, rel)
        s6w_spread[rel], s6w_seed_spread[rel] = on.spread(), on.seed_spread
        print(f"{LABELS[rel]:>13}: onset log10 eta_dec per weight decay (median of {on.per_seed.shape[0]} seeds): "
              + "; ".join(f"{w:g}: " + ("none" if not np.isfinite(m) else f"{m:.1f}")
                          for w, m in zip(c6w.row_values, on.median))
              + f"; spread {s6w_spread[rel]:.2f} decades (per seed "
              + ", ".join(f"{v:.2f}" for v in s6w_seed_spread[rel]) + ")")
    ph6w = np.stack([s6w.phases[r] for r in c6w.relations])  # (tasks, seeds, rows, cols)
    s6w_decided = float((ph6w != "confusion").mean())
    s6w_seed_decided = (ph6w != "confusion").mean(axis=(0, 2, 3))
    counts6w = {p: int((ph6w == p).sum()) for p in ("comprehension", "grokking", "memorization", "confusion")}
    print(f"decided within {c6w.steps:,} steps: {s6w_decided:.2f} of {ph6w.size} runs (per seed "
          + ", ".join(f"{v:.2f}" for v in s6w_seed_decided) + "); phases: "
          + ", ".join(f"{p} {n}" for p, n in counts6w.items()))
    glue("fig_phases_wd_wide", plot_phases(s6w), display=False)
    glue("s6w_spreads", ", ".join(f"{LABELS[r]} {v:.2f}" for r, v in s6w_spread.items()), display=False)
    glue("s6w_decided", f"{s6w_decided:.2f}", display=False)
    # not claims (the cut at 1e-2 comes from the book-width run above): the rows up to 1e-2, and where memorization
    # leaves the grid
    small6w = np.asarray(c6w.row_values) <= 1e-2
    glue("s6w_small_max", f"{max(on.spread(small6w) for on in s6w_onsets.values()):.1f}", display=False)
    # the largest seed-to-seed range of one row's onset, over the rows where at least two seeds memorize
    gaps6w = [float(np.ptp(col[np.isfinite(col)])) for on in s6w_onsets.values()
              for col in on.per_seed.T if np.isfinite(col).sum() >= 2]
    glue("s6w_seed_gap", f"{max(gaps6w):.1f}" if gaps6w else "n/a", display=False)
    glue("s6w_none_text", "; ".join(f"{LABELS[rel]} " + ", ".join(f"{w:g}" for w, v in zip(c6w.row_values, m)
                                                                  if not np.isfinite(v))
                                     for rel, m in ((r, on.median) for r, on in s6w_onsets.items())), display=False)
else:
    glue("fig_phases_wd_wide", "(the stored runs are not finished)", display=False)
    glue("s6w_spreads", "(not stored yet)", display=False)
    glue("s6w_decided", "(not stored yet)", display=False)
    glue("s6w_small_max", "(not stored yet)", display=False)
    glue("s6w_none_text", "(not stored yet)", display=False)
    glue("s6w_seed_gap", "(not stored yet)", display=False)

# %% [markdown]
# ```{figure} _figures/baek2024_geneft_dynamics/fig_phases_wd_wide.png
# :name: fig-geneft-phases-wd-wide
#
# Fig. 6 at the paper's width 50 (stored, $2\cdot10^4$ Adam steps, encoder rate $3\cdot10^{-4}$): phases over
# decoder learning rate (x, log10) and decoder weight decay (y; bottom row zero) for (a) mod 3, (b)
# greater-than, (c) complete bipartite. Colour: the phase most of the three seeds show; label: how many seeds
# generalize. A boundary independent of weight decay is a vertical edge between the memorization cells and
# the rest.
# ```
#
# The onset spreads over all seven weight decays are {eval}`glued.s6w_spreads` decades (one grid step is 0.5),
# and {eval}`glued.s6w_decided` of the runs are decided within the budget, so the spreads are read on a decided
# grid. At the paper's width, as at the book's, the boundary does not stay put across the whole range: the median
# seed memorizes at no decoder rate of the grid with weight decay {eval}`glued.s6w_none_text` (large decay
# removes memorization). Up to weight decay $10^{-2}$ the median onset moves by at most {eval}`glued.s6w_small_max` decades per task; that
# range was chosen from the book-width run, not registered for this one, so it is a reading, not a claim. The
# three registered reproductions (spread within one grid step over every weight decay) fail, and are recorded
# as deviations with their criteria unchanged. The seeds also disagree with each other by up to
# {eval}`glued.s6w_seed_gap` decades in one row's onset (the per-seed values above), so a single-seed diagram
# would not settle the caption either way.

# %% [markdown]
# ### What decoupled weight decay does by construction
#
# The paper names no optimizer and does not say how its weight decay enters the update. Table 3 lists "Weight
# Decay 0"; App. D, Fig. 6 has "the decoder's weight decay $wd_{dec}$". Either decoupled decay (AdamW) or an L2 term
# in the loss (coupled) fits that text. Ours is decoupled: torch's AdamW multiplies every decoder parameter by
# $(1 - \eta_{dec}\,wd)$ before each Adam step, so over a budget of $T$ steps the decay alone leaves a fraction
# $(1 - \eta_{dec}\,wd)^T \approx e^{-\eta_{dec} wd T}$ of it (`decay_reach`; a memorizing run never stops early).
# The Adam step gives back at most about $\eta_{dec}$ per weight, whatever the gradient's size. Holding a weight
# $|\theta|$ against the decay takes a normalized gradient of $wd\,|\theta|$, and Adam's is at most about 1. So the
# data gradient can hold weights up to about $1/wd$ (10 at $wd = 0.1$, 1 at 1, 0.1 at 10), at any $\eta_{dec}$. The
# product $\eta_{dec}\,wd\,T$ says whether the decay has had the time. The zero-decay row memorizes from its onset
# $\eta_{on}$ upwards. At decay $wd$ its onset cell shrinks by $e^{-\eta_{on} wd T}$, which is $1/e$ at
# $wd_c = 1/(\eta_{on}T)$. So the argument puts the decay that removes memorization from the grid near $wd_c$, and
# this threshold moves with the budget. At Table 4's $10^5$ steps, any onset above $10^{-4}$ gives $wd_c < 0.1$.
# So under decoupled decay, weight decays of 0.1 and more remove memorization by construction: a boundary that
# does not depend on weight decay cannot be expected over the caption's range.

# %%
reach_hits, reach_all = 0, 0
for title, res in (("book's width, 3,000 steps", s6), ("paper's width, 2·10^4 steps", s6w)):
    if res is None:
        continue
    c = res.config
    for rel in c.relations:
        d = decay_reach(res, rel)
        reach_hits, reach_all = reach_hits + d.brackets, reach_all + 1
        print(f"{title}, {LABELS[rel]}: zero-decay onset 10^{d.onset:.1f}, so wd_c = 1/(eta_on*T) = "
              f"{d.critical_wd:.2g}; the median row memorizes up to wd {d.last_memorizing:g} and not at "
              f"{d.first_without:g}: wd_c {'inside' if d.brackets else 'outside'} that interval")
    for w in (0.1, 1.0):
        i = list(c.row_values).index(w)
        print(f"    {title}: shrink factor (1 - eta_dec*wd)^T at wd {w:g}, eta_dec " + ", ".join(
            f"{lr:.0e}: {f:.1e}" for lr, f in zip(c.lr_dec, d.shrink[i])) + f"; weights held up to 1/wd = {d.weight_bound[i]:g}")
glue("reach_hits", f"{reach_hits} of {reach_all}", display=False)

# %% [markdown]
# The critical decay $wd_c$ falls between the last weight decay whose median row memorizes and the first whose
# row does not in {eval}`glued.reach_hits` task-and-run pairs. The exception, bipartite at the paper's width, keeps
# memorizing (in fewer seeds) one row past $wd_c$. So the stored Fig. 6 boundary moves where the decay's own
# arithmetic says it must. The confusion at decay 10 and large rates fits the same arithmetic: there the decay
# shrinks the decoder by far more than the fit can restore. The argument does not explain why mod 3 at the
# paper's width memorizes at the smallest decoder rate with decay 10. We read the threshold
# $\eta_{dec}\,wd\,T = 1$, an order-one constant, off maps we had already seen. This is a check of our own
# argument; it decides nothing.
#
# **The coupled (L2) reading is not run.** With an L2 term in the loss, Adam divides the decay's gradient
# $wd\,\theta$ by $\sqrt{\hat v}$ along with the data gradient. Where that term dominates, a weight moves about
# $\eta_{dec}$ per step towards zero, whatever $wd$ is, and the decay acts only where $wd\,|\theta|$ outweighs the
# data gradient. The relation runs do not train that: they offer AdamW (decoupled) and plain gradient descent, with
# no decay. A coupled run would need a gradient term of its own, a `repro.training.hooks.Regularizer` adding
# $l2_{dec}\,\theta_{dec}$ per run to the decoder's gradient before the optimizer step (as `LinfPenalty` adds
# Mohamadi et al.'s term), and `RelationTrainConfig` / `train_relation_runs` passing it to the trainer. For plain
# gradient descent the two readings coincide ($\theta \leftarrow \theta - \eta(g + wd\,\theta)$). That run would
# need only the trainer's existing `"sgd"` optimizer (L2 decay, momentum 0) exposed in `RELATION_OPTIMIZERS`, and it
# obeys the same arithmetic $e^{-\eta_{dec} wd T}$.

# %% [markdown]
# ## Paper versus ours
#
# Each claim has a kind: a *reproduction* compares ours with a statement of the paper and must agree; a
# *deviation* records where ours does not, with the paper's value beside ours and the evidence; a
# *check* is internal consistency and never counts as a reproduction. What each claim compares with
# (reference, tolerance, where in the paper) is registered in `book/_registry/baek2024_geneft_dynamics.toml`;
# a claim whose criterion was changed after its result, or that judges a stored run which did not seal it
# when it started, is marked †. Statements about trained networks are statistics over the three seeds
# (five would exceed the chapter's CPU budget): the boundary fit pools their clean columns, and each value
# is shown at a resolution coarser than the change one flipped cell makes (0.1 for slopes and the
# product-rule share, half a decade for intercepts, their spread and the Fig. 6 onsets).
#
# - **Eq. 10–11** (checks of the paper's equations against our integrator and a Monte Carlo): $C$ is
#   conserved along the integrated trajectories (relative drift $\leq 10^{-6}$; the integrator's
#   tolerance is $10^{-10}$), the end points match Eq. 10's fixed points within $2\cdot10^{-3}$ (the
#   trajectories are still converging at $t_{max}$), and Eq. 11 matches the Monte Carlo within 4
#   binomial standard errors over the ten ratios.
# - **The sign of the Fig. 5 boundary** (checks against this page's reading of Eq. 11, which depends on
#   $\eta_{enc}/\eta_{dec}$ only, so iso-probability lines have slope +1): the pooled slope and the
#   median per-seed slope are positive.
# - **Fig. 5, the paper's slope −1** (deviation, a value the paper states). We would call a fitted slope
#   within ±0.5 of −1 a reproduction: on a grid of half-decade steps spanning 2.5 decades, that separates
#   "falling at about 45°" from flat or rising. What it measures is narrower than the paper's claim: the
#   boundary between our memorization band and the generalization above it, at 1,500 Adam steps on
#   $10^{-4}$–$3\cdot10^{-2}$. The fit reads only columns with memorization below and generalization above
#   (the paper's order, generalization below and memorization above, would be skipped; the count of each
#   order is printed above), and the paper's low-rate regime is the grid's corner, only partly decided at this
#   budget. So the deviation says that the boundary we can see rises; it does not test the paper's regime.
# - **Fig. 5, the product rule $\eta_{enc}\eta_{dec} \lesssim 10^{-7}$** (deviation; the paper states a bound,
#   so this is a shape claim): the share of generalizing runs whose product exceeds $10^{-7}$. The paper's
#   rule puts it at 0; as a rule of thumb we would accept up to a quarter (for a share, $0 \pm 0.25$ is the
#   bound share $\leq 0.25$). Unlike the slope, this does not hang on the budget: a generalizing run stays
#   so, and the printed lower bound says what the share would be if every undecided low-rate run generalized.
# - **Fig. 5, the same intercept for all tasks** (reproduction, shape, §5): the per-task intercepts of the
#   common-slope fit lie within one decade (two grid steps) of each other — the intercepts of our rising
#   boundary, not of the paper's.
# - **Fig. 5 in the paper's regime (stored, Adam and gradient descent)**, each claim registered before its
#   run: the slope of the boundary fitted to every decided run, two-sided against the paper's −1 (±0.5,
#   reproduction) and against Eq. 11's +1 (±0.5, a check of this page's reading); the spread of the per-task
#   intercepts (at most one decade, reproduction); the share of runs decided within $2\cdot10^4$ steps (at least
#   three quarters, a check: the fit must read a decided grid). Under Adam also the product rule (as above,
#   reproduction) and the share decided in the paper's low-rate regime, product $\leq 10^{-7}$ (at least 90 %, a
#   check). A reproduction that fails is relabelled a deviation by an amendment that keeps its criterion.
#   The same slope and product-rule comparisons are read on the same maps with the encoder-rate axis inverted
#   (registered after the maps were seen, so †: context that decides nothing).
# - **Fig. 6, the boundary does not depend on decoder weight decay** (deviation, shape): the spread across
#   weight-decay rows of the decoder learning rate at which mod 3 starts to memorize (median over
#   seeds; a row where most seeds never memorize counts as half a step beyond the grid, a lower bound).
#   We would call a spread of at most one grid step (0.5 decades) a reproduction. The stored run applies
#   the same test to all three tasks over seven weight decays (deviations), and to the rows with weight
#   decay up to $10^{-2}$ (reproductions of form *selection*: that range was cut after seeing the run, so
#   they are † twice over: exploratory, deciding nothing). All Fig. 6 runs use encoder learning rate
#   $3\cdot10^{-4}$, not the caption's $10^{-5}$.

# %% tags=["hide-input", "hide-output"]
claims.check("relative drift of C along the repon ODE", drift, live=False)
claims.check("ODE end point vs Eq. 10 fixed point (max abs error)", end_error, live=False)
claims.check("p_r: Eq. 11 vs Monte Carlo (max deviation in standard errors)", z, live=False)
claims.check("Fig. 5 boundary slope (sign agrees with Eq. 11's ratio rule)", fit.slope,
             spread=boot_err if np.isfinite(boot_err) else None)
claims.check("Fig. 5 median per-seed boundary slope (sign)", float(np.nanmedian(fit.seed_slopes)),
             seeds=fit.seed_slopes)
claims.check("Fig. 5 generalization/memorization boundary slope", fit.slope,
             spread=boot_err if np.isfinite(boot_err) else None,
             evidence=f"Fitted with one common slope to the clean boundary columns of {n_seeds} seeds (each its own "
             f"training split and one initialization shared across its grid, so one initialization per cell and "
             f"seed), 3 tasks, a 6x6 grid of half-decade steps from 1e-4 to 3e-2, {cfg5.steps:,} Adam steps (paper "
             f"1e5, optimizer unstated; Eq. 11 is a gradient-flow result), width {cfg5.width} (paper 50). Slope "
             f"{trained(fit.slope, SLOPE_RES)} with standard error {trained(fit.slope_err, 0.1)}; that error treats "
             f"the pooled boundary points as independent and is the larger of their residual scatter and the grid's "
             f"quantization, so it understates correlated errors; the seeds alone give "
             f"{describe_seeds(fit.seed_slopes, SEED_SLOPE_RES)}, and resampling the seeds moves the pooled slope by "
             f"{trained(boot_err, 0.1)} (standard deviation). Positive, as Eq. 11's ratio rule predicts. Limits: the "
             f"fit reads only columns with memorization below and generalization above (columns by order: ours "
             f"{trained(orient['ours'], 1)}, the paper's {trained(orient_paper, 1)}, "
             f"mixed {trained(orient['mixed'], 1)}); the cells with product <= 1e-7, where the paper's rule places "
             f"generalization, are {int(rule.low.sum())} of {rule.low.size} and {trained(rule.low_confused, 1)} of their {rule.low_runs} "
             f"runs are still confused at this budget; the memorization onset moves with the budget (Fig. 6 below: "
             f"mod 3 at 1,500 and 3,000 steps). The paper's regime is not tested.")
# The share's lower bound at any longer budget: a generalizing run stays so, a new generalizer above 1e-7 raises
# the share, so the least it can become is with every not-yet-generalized low-product run generalizing.
share_floor = rule.above / max(rule.generalizing + rule.low_runs - rule.low_generalized, 1)
print(f"product-rule share if every low-product run that has not generalized did so at a longer budget: at least "
      f"{trained(share_floor, 0.1)}")
glue("share_floor", trained(share_floor, 0.1), display=False)
claims.check("Fig. 5 share of generalizing runs with eta_enc*eta_dec > 1e-7", product_share, seeds=seed_product_share,
             evidence=f"A share of {trained(product_share, 0.1)} of the generalizing runs (3 tasks, {n_seeds} seeds, 36 "
             f"cells each) have a product above 1e-7; our grid reaches products down to 1e-8. A run classified as "
             f"generalizing within {cfg5.steps:,} steps stays so at a longer budget (both first crossings are already "
             f"in), and if every low-product run that has not generalized did so at a longer budget the share would "
             f"still be at least {trained(share_floor, 0.1)}: the short budget does not explain it. The paper's own "
             f"defaults (Table 3: both learning rates 1e-3, product 1e-6) generalize in its Figs 3-4.")
claims.check("Fig. 5 intercept spread across tasks (decades)", spread)
# Fig. 6: a row whose median onset is "none" counts half a grid step beyond the largest decoder lr (a lower
# bound); the same spread per seed gives its margin (onsets)
onset_spread = fig6_onsets["mod3"].spread()
seed_onset_spread = fig6_onsets["mod3"].seed_spread
row_text = "; ".join(f"weight decay {w:g}: " + trained("none" if not np.isfinite(m) else approx(m, 0.5))
                     for w, m in zip(cfg6.row_values, fig6_onsets["mod3"].median))
claims.check("Fig. 6 memorization onset spread across decoder weight decays, mod 3 (decades)", onset_spread,
             seeds=seed_onset_spread,
             evidence=f"Median over {len(cfg6.seeds)} seeds of log10 of the smallest decoder lr that memorizes, per row: "
             f"{row_text}. Mod 3 only, encoder lr {cfg6.lr_enc:g} (caption 1e-5: at 1e-5 the embeddings barely move "
             f"within {cfg6.steps:,} steps), width {cfg6.width}, {cfg6.steps:,} Adam steps (paper 1e5). With one seed "
             f"an earlier edition found the onset the same in every row; over seeds it is not.")
s6_names = []
for rel in s6_cfg.relations:
    name_all = f"stored: Fig. 6 memorization onset spread across all weight decays, {LABELS[rel]} (decades)"
    claims.check(name_all, s6_spread[rel], live=False, run=s6_manifest, spread=s6_onsets[rel].spread_standard_error(),
                 evidence=f"stored: {len(s6_cfg.seeds)} seeds, weight decays {s6_cfg.row_values}, encoder lr "
                          f"{s6_cfg.lr_enc:g} (caption 1e-5), width {s6_cfg.width}, {s6_cfg.steps:,} Adam steps: the "
                          "onset is constant up to weight decay 1e-2, and memorization vanishes from the grid at the "
                          "largest weight decays")
    name_small = f"stored: Fig. 6 memorization onset spread across weight decays ≤ 1e-2, {LABELS[rel]} (decades)"
    claims.check(name_small, s6_spread_small[rel], spread=s6_onsets[rel].spread_standard_error(small), live=False,
                 run=s6_manifest)
    s6_names.append((name_all, name_small))
glue("onset_spread", trained(onset_spread, 0.5), display=False)
# The paper's width, every weight decay (claims registered and sealed before the runs)
S6W = "stored (paper's width, 2·10^4 steps): "
s6w_names = [f"{S6W}Fig. 6 memorization onset spread across all weight decays, {LABELS[rel]} (decades)"
             for rel in stored_fig6_wide_config().relations] + [f"{S6W}Fig. 6 share of runs decided within the budget"]
if s6w is not None:
    setting6w = (f"stored: {len(c6w.seeds)} seeds, width {c6w.width}, weight decays {c6w.row_values}, decoder lr "
                 f"{c6w.lr_dec[0]:.0e} to {c6w.lr_dec[-1]:.0e} in half decades, encoder lr {c6w.lr_enc:g} (caption "
                 f"1e-5), {c6w.steps:,} Adam steps (Table 4: 1e5)")
    for rel, name in zip(c6w.relations, s6w_names):
        claims.check(name, s6w_spread[rel], live=False, run=s6w_manifests, spread=s6w_onsets[rel].spread_standard_error(),
                     evidence=f"{setting6w}: onset spread {s6w_spread[rel]:.2f} decades over every weight decay (per "
                     "seed " + ", ".join(f"{v:.2f}" for v in s6w_seed_spread[rel]) + ")")
    claims.check(s6w_names[-1], s6w_decided, seeds=s6w_seed_decided, live=False, run=s6w_manifests,
                 evidence=f"{setting6w}: {s6w_decided:.2f} of the runs decided")
glue("onset_rows", row_text, display=False)
no_mem = [w for w, m in zip(cfg6.row_values, fig6_onsets["mod3"].median) if not np.isfinite(m)]
glue("wd_no_mem", trained(("With decoder weight decay " + ", ".join(f"{w:g}" for w in no_mem) + " most seeds memorize "
                           "at no decoder learning rate of this row.") if no_mem else "Every weight-decay row memorizes at "
                          "some decoder learning rate in most seeds."), display=False)

# The stored Fig. 5 in the paper's regime (claims registered and sealed before the runs)
s5_names = {}
for opt in STORED5:
    f, st, man, c = s5_fit[opt], s5_stats[opt], s5_manifests[opt], s5[opt].config
    setting = (f"stored: {len(c.seeds)} seeds, 3 tasks, width {c.width}, {c.steps:,} steps of {OPT_NAMES[opt]}, both rates "
               f"{c.row_values[0]:g} to {c.row_values[-1]:g} in half decades; {f.decided:,} decided runs fitted "
               f"({f.confused:,} confused left out), one common direction and one offset per task")
    slope_text = (f"slope {approx(f.slope, S5_SLOPE_RES)} (per seed " + ", ".join(approx(v, S5_SLOPE_RES) for v in f.seed_slopes)
                  + f"; resampled seeds: standard deviation {approx(st['boot'], 0.01)}), generalization "
                  f"{'above' if f.generalize_above else 'below'} the boundary")
    names = [f"stored ({opt}): Fig. 5 boundary slope, every decided run (logistic fit)",
             f"stored ({opt}): Fig. 5 boundary slope vs Eq. 11's ratio rule (+1)",
             f"stored ({opt}): Fig. 5 intercept spread across tasks (decades)",
             f"stored ({opt}): share of runs decided within the budget"]
    claims.check(names[0], f.slope, seeds=f.seed_slopes, live=False, run=man, evidence=f"{setting}: {slope_text}.")
    claims.check(names[1], f.slope, seeds=f.seed_slopes, live=False, run=man, evidence=f"{setting}: {slope_text}.")
    claims.check(names[2], st["spread"], live=False, run=man, spread=intercept_spread_standard_error(s5[opt]),
                 evidence=f"{setting}: intercepts " + ", ".join(f"{LABELS[r]} {approx(b, 0.1)}" for r, b in f.intercepts.items()))
    claims.check(names[3], st["decided_share"], seeds=st["seed_decided"], live=False, run=man,
                 evidence=f"{setting}: {approx(st['decided_share'], 0.01)} of the runs decided")
    if opt == "adam":
        names += ["stored (adam): Fig. 5 share of generalizing runs with eta_enc*eta_dec > 1e-7",
                  "stored (adam): share of runs decided in the cells with eta_enc*eta_dec <= 1e-7"]
        claims.check(names[4], st["product_share"], seeds=st["seed_product_share"], live=False, run=man,
                     evidence=f"{setting}: {approx(st['product_share'], 0.01)} of the generalizing runs have a product "
                     f"above 1e-7; the {st['low_cells']} cells at or below it generalize in "
                     f"{approx(st['low_generalized'], 0.01)} of their runs")
        claims.check(names[5], st["low_decided"], seeds=st["seed_low_decided"], live=False, run=man,
                     evidence=f"{setting}: {approx(st['low_decided'], 0.01)} of the runs in the {st['low_cells']} cells "
                     "with product <= 1e-7 decided")
    s5_names[opt] = names
fig5_names = ["Fig. 5 intercept spread across tasks (decades)", "Fig. 5 generalization/memorization boundary slope",
              "Fig. 5 share of generalizing runs with eta_enc*eta_dec > 1e-7",
              "Fig. 5 boundary slope (sign agrees with Eq. 11's ratio rule)", "Fig. 5 median per-seed boundary slope (sign)"]
claims.figure("baek2024", "Fig. 5", claims=fig5_names,
              why=f"Generalizing runs break the product rule at any budget (a share of {trained(product_share, 0.1)}), "
              f"and the boundary we can see, between a memorization band and generalization above it, sits at about "
              f"the same intercept for all three tasks but rises (slope {trained(fit.slope, SLOPE_RES)}, the sign of "
              f"Eq. 11's ratio rule), not -1. That slope is of our budget ({cfg5.steps:,} Adam steps, not 1e5 and not "
              f"gradient flow) and grid: the paper's low-rate regime is only the grid's corner, partly undecided, so the "
              f"slope -1 is not tested here where the paper places it (the stored rows 'paper's regime' test it).")
fig6a_names = ["Fig. 6 memorization onset spread across decoder weight decays, mod 3 (decades)", *s6_names[0]]
claims.figure("baek2024", "Fig. 6a", claims=fig6a_names,
              why=f"Only through a selection: the mod 3 onset is the same for weight decays up to 1e-2 (stored, "
              f"{len(s6_cfg.seeds)} seeds, {s6_cfg.steps:,} steps), a range cut after the run (†); over every weight "
              f"decay run, large ones remove memorization and the boundary moves (stored; live: "
              f"{trained(onset_spread, 0.5)} decades). Encoder lr 3e-4, not the caption's 1e-5. At the paper's width, "
              f"with claims sealed before the run, the boundary moves too (row 'Fig. 6 (paper's width, stored)').")
fig6bc_names = [*s6_names[1], *s6_names[2]]
claims.figure("baek2024", "Fig. 6b-c", claims=fig6bc_names,
              why="Greater-than and bipartite (stored): as for mod 3, the onset holds only through the rows with weight decay "
                  "up to 1e-2, a range cut after the run (†); over every weight decay run the boundary moves. Encoder "
                  "lr 3e-4, not the caption's 1e-5. At the paper's width, with claims sealed before the run, the "
                  "boundary moves too (row 'Fig. 6 (paper's width, stored)').")
if s6w is None:
    claims.figure("baek2024", "Fig. 6 (paper's width, stored)", scale="paper (CPU, stored)",
                  why=f"the stored run: {s6w_missing}; its command computes them")
else:
    claims.figure("baek2024", "Fig. 6 (paper's width, stored)", scale="paper (CPU, stored)",
                  claims=s6w_names,
                  why=f"Stored at the paper's width {c6w.width}, every weight decay from 0 to 10, decoder lr "
                  f"{c6w.lr_dec[0]:.0e} to {c6w.lr_dec[-1]:.0e}, {c6w.steps:,} Adam steps (Table 4: 1e5), 3 seeds; "
                  f"{s6w_decided:.2f} of the runs decided. Onset spread over the weight decays: "
                  + ", ".join(f"{LABELS[r]} {v:.2f}" for r, v in s6w_spread.items())
                  + " decades (one grid step 0.5). Encoder lr 3e-4, not the caption's 1e-5.")
if STORED5:
    claims.figure("baek2024", "Fig. 5 (paper's regime, encoder axis inverted)", scale="paper (CPU, stored)",
                  claims=[n for opt in STORED5 for n in claims.named(f"stored ({opt}), encoder-rate axis inverted")],
                  why="The stored maps re-read with their encoder rows reversed (context, †: registered after the maps "
                  "were seen): " + "; ".join(s5_inv_text.values()) + ". The paper's text does not say which way its "
                  "axis runs; the verdicts read it upright.")
for opt in FIG5_OPTIMIZERS:
    if opt not in s5:
        claims.figure("baek2024", f"Fig. 5 (paper's regime, {OPT_NAMES[opt]})",
                      scale="paper (CPU, stored)", why=f"the stored run: {s5_missing[opt]}; its command computes them")
        continue
    f, st, c = s5_fit[opt], s5_stats[opt], s5[opt].config
    claims.figure("baek2024", f"Fig. 5 (paper's regime, {OPT_NAMES[opt]})",
                  scale="paper (CPU, stored)", claims=s5_names[opt],
                  why=f"Stored at the paper's width {c.width}, {c.steps:,} steps of {OPT_NAMES[opt]} (Table 4: 1e5), rates "
                  f"{c.row_values[0]:g} to {c.row_values[-1]:g}, 3 seeds; {approx(st['decided_share'], 0.01)} of the runs "
                  f"decided. The boundary fitted to every decided run has slope {approx(f.slope, S5_SLOPE_RES)} (the "
                  f"paper's -1; Eq. 11's ratio rule +1), generalization {'above' if f.generalize_above else 'below'} "
                  f"it; its intercepts spread {approx(st['spread'], 0.1)} decades over the tasks"
                  + (f"; {approx(st['product_share'], 0.01)} of the generalizing runs break the product rule."
                     if opt == "adam" else "."))
glue("ledger_tally", claims.tally(), display=False)

# %% tags=["hide-input", "hide-output"]
claims.ledger()

# %% [markdown]
# The paper's claims on GenEFT Figs 5–6: {eval}`glued.ledger_tally`. The measured boundary
# slope is {eval}`glued.slope` ± {eval}`glued.slope_err` (common slope over the three tasks and the
# {eval}`glued.n_seeds` seeds; the error counts the scatter of the boundary points and the grid); fitted on each
# seed alone, it is {eval}`glued.seed_slopes`, and resampling the seeds moves the pooled slope by
# {eval}`glued.boot_err` (standard deviation). The per-task
# intercepts differ by {eval}`glued.spread` decades. A share of {eval}`glued.product_share` of the
# generalizing runs break the product rule (at least {eval}`glued.share_floor` at any longer budget). In Fig. 6
# the decoder learning rate at which mod 3 starts to memorize (median over seeds) moves by
# {eval}`glued.onset_spread` decades across weight decays.
#
# ## Deviations and what they mean
#
# - **The boundary we see rises, not falls.** Our phase diagrams show generalization when the encoder
#   learning rate is large enough *relative to* the decoder's: the boundary rises to the right. That
#   is the sign Eq. 11 predicts (it depends on $\eta_{enc}/\eta_{dec}$ only), and the opposite of the
#   paper's text. We cannot see the paper's figure (only its text survives), so we cannot tell whether
#   its axes are labelled as we read them. With the axes swapped, a ratio rule would still have slope
#   +1; with the encoder axis inverted, it would have slope −1. The stored maps read that way are shown
#   above ({eval}`glued.s5_inv_text_adam`), but they are context, not the verdict. The standard error of the
#   slope treats the pooled boundary points as independent; the per-seed slopes show the seed spread directly.
# - **What the slope can and cannot show.** Of the columns holding both phases and no confusion,
#   {eval}`glued.orient_ours` have memorization below and generalization above (the order the fit reads),
#   {eval}`glued.orient_paper` the paper's order and {eval}`glued.orient_mixed` neither.
#   {eval}`glued.top_rows_text`; beyond it, the paper's order could appear as a second boundary below our
#   memorization band, in the low-rate regime. That regime is the grid's corner:
#   {eval}`glued.low_cells` cells have $\eta_{enc}\eta_{dec} \leq 10^{-7}$, and of their
#   {eval}`glued.low_runs` runs {eval}`glued.low_confused` are still confused at 1,500 steps
#   ({eval}`glued.low_generalized` generalize). The slope's size also moves with the budget: mod 3's
#   memorization onset differs between the live Fig. 6 (1,500 steps) and the stored one (3,000 steps), at
#   the same rates. The stored runs of the next item make the decided test.
# - **The paper's regime, stored.** {eval}`glued.s5_text_adam` {eval}`glued.s5_text_gd` These runs use the
#   paper's width, a wider grid and a longer budget. Their fit reads every decided run in
#   either orientation, so it would find a falling boundary, with generalization at low rates, if the runs
#   had one.
# - **Slope below 1 under Adam.** The live fitted slope is positive but shallower than Eq. 11's +1 (per-seed
#   slopes above), and so is the stored one under Adam ({eval}`glued.s5_slope_adam`). Eq. 11 is a two-repon,
#   linear-decoder, gradient-flow model; Adam's per-parameter normalization makes the effective step sizes
#   depend on gradient scales, not only on the nominal learning rates, and memorization competes with many
#   repon pairs at once. Under plain gradient descent, the discrete form of the gradient flow Eq. 11 is derived
#   for, the stored boundary's slope is {eval}`glued.s5_slope_gd`. We report the numbers rather than bend them
#   to a theory.
# - **Book-scale settings** (the setup tables list every one). Decoder width 20 instead of 50 (2.6× cheaper),
#   1,500 full-batch Adam steps instead of $10^5$, a 6×6 grid from $10^{-4}$ to $3\cdot10^{-2}$ (the paper's
#   range is unstated). Learning rates below about $10^{-4}$ do not move parameters enough in 1,500 steps, so
#   the grid starts there. Three seeds per cell. The paper-scale config keeps width 50, $10^5$ steps and a
#   grid from $10^{-6}$ to $10^{-1}$.
# - **Fig. 6** live is mod 3 only, and every Fig. 6 run (live and stored) raises the encoder learning rate
#   from the caption's $10^{-5}$ to $3\cdot10^{-4}$: at $10^{-5}$ the embeddings barely move within 1,500
#   steps and every cell is confusion or memorization. {eval}`glued.wd_no_mem` The median onset per row is
#   {eval}`glued.onset_rows` (log10 $\eta_{dec}$). At the paper's width 50 and $2\cdot10^4$ steps (stored, its
#   claims sealed before the run) the onset still moves across the whole range ({eval}`glued.s6w_spreads`
#   decades over the seven weight decays): the paper's width and a longer budget do not restore the caption's
#   independence. Whether Table 4's $10^5$ steps at the caption's encoder rate $10^{-5}$ would is not tested
#   (at $10^{-5}$ the stored Fig. 5 shows memorization nearly everywhere); the independence we do see (weight
#   decays up to $10^{-2}$) is on a range chosen after the book-width run. Under our decoupled decay the
#   movement is expected: the decay shrinks the decoder by $(1-\eta_{dec}wd)^T$, and memorization leaves a row
#   near $wd_c = 1/(\eta_{on}T)$, as the stored maps show ({eval}`glued.reach_hits` task-and-run pairs). The
#   coupled (L2) reading, which the paper's text allows as well, is not run, because it needs a change to the
#   trainer.
# - **Phase rule.** Table 4's thresholds (0.9) and gap ($10^3$ steps) are kept at book scale; with a
#   1,500-step budget, "grokking" (test crossing 0.9 more than $10^3$ steps after train) is rare.
# - **Optimizer and loss.** The paper does not name them; we use Adam (decoupled decay on the decoder)
#   and binary cross-entropy on the sigmoid output. Eq. 11 is derived for gradient flow, which Adam is not.

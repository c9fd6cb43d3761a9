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
# # Towards understanding grokking (II): critical data and the grokking rate
#
# **The claims** (Liu et al. 2022, arXiv 2205.10343, §3). In the toy addition model of the previous
# chapter, (i) the accuracy a network reaches is the accuracy its *representation* supports: count the
# parallelograms $E_i + E_j = E_m + E_n$ it has learned, deduce which unseen samples they answer, and
# you predict its accuracy (Fig. 3); (ii) there is a *critical training fraction* $r_c \approx 0.4$:
# below it, the training set's parallelogram equations almost never pin the embeddings to a line,
# and networks fail to find the linear representation; above it they do, faster with more data
# (Fig. 4a, b); (iii) the effective theory's *grokking rate* $\lambda_3$ is zero below $r_c$ and grows
# with data above it, and the predicted grokking time $n_h \propto 1/\lambda_3$ follows the network's
# trend (Fig. 5).
#
# **What we reproduce here.** Fig. 4(a) and Fig. 5(a) exactly in kind (linear algebra over thousands of
# random training sets); Figs 3, 4(b) and 5(b) from a batched sweep of trained networks over ten
# training fractions with five seeds each.
#
# **What we leave out.** The paper's number of seeds is not stated (its Fig. 3 shows more than three
# per fraction; the official driver ran three). Book scale runs five seeds for 3000 steps
# (official: $10^4$ for Fig. 4b); `REPRO_SCALE=paper` runs ten seeds, $10^4$ steps and every size
# 5…54 with the same code. Appendix H ($S_3$) is discussed in the previous chapter.

# %%
import warnings

import numpy as np

warnings.filterwarnings("ignore", category=UserWarning)

from myst_nb import glue
from scipy.stats import spearmanr

from repro.claims import ClaimBook
from repro.liu2022_representations import (ToyConfig, linear_structure, plot_accuracy_vs_predicted,
                                           plot_critical_fraction, plot_grokking_rate, run_fraction_sweep)
from repro.plotting import use_style
from repro.portable import approx
from repro.scale import current_scale

use_style()
claims = ClaimBook("liu2022_critical_data")

# %% [markdown]
# ## Configuration
#
# The toy model and optimizers are those of the previous chapter (spec §3). Every network of the
# sweep draws its training split from its seed and its initialization from the same seed, as the
# official code does; the 30-d regression targets are shared.

# %%
cfg = ToyConfig.for_scale()
print(f"scale: {current_scale()}")
cfg

# %% [markdown]
# ## Theory first: when do the training parallelograms force a line? (Fig. 4a, Fig. 5a)
#
# For a training set $D$, the parallelogram equations $A_D E = 0$ (eq. 7) always leave two free
# directions, translation and scale. If they leave no more (nullity 2), the only representation with
# zero effective loss is the line $E_k = a + kb$, which generalizes perfectly. We draw random training
# sets of every size and record whether the nullity is 2, and the grokking rate $\lambda_3$ (the
# smallest non-trivial eigenvalue of $A_D^\top A_D$). No training is involved.
#
# **Sanity check.** With the whole table, the spectrum of $A^\top A$ is known (spec §5): two zeros, then 30.

# %%
stats = linear_structure(cfg)
rc = stats.critical_fraction()
full = stats.rates[-1]
print(f"full table: lambda_3 = {full.mean():.2f} (expect 30)")
assert abs(full.mean() - 30) < 1e-6
k22, k45, k30 = 21, 44, 29  # index of sizes 22, 45 and 30 (sizes run 1..55)
print(f"P(unique) at 22/55 = {stats.p_unique[k22]:.2f}; 50 % crossing at fraction {rc:.2f}")
print(f"mean lambda_3: at 30/55 {stats.rates[k30].mean():.1f}, at 45/55 {stats.rates[k45].mean():.1f}")
glue("rc", f"{rc:.2f}", display=False)

# %% [markdown]
# ## Run: networks across training fractions
#
# One batched program trains all (fraction, seed) runs and records the embeddings every 10 steps. From
# them we compute, per run: the final accuracy on the whole table (Acc), the accuracy predicted from
# the final representation (Acc-hat, eq. 13), the first step with RQI $> 0.95$, and the theory's
# $n_h = p/(2\lambda_3\eta)$ for that run's training set.

# %%
sweep = run_fraction_sweep(cfg)
counts, success = sweep.success_rate()
n_seeds = len(cfg.seeds)
for n, s in zip(counts, success):
    print(f"{n:2d}/55 (fraction {n / 55:.2f}): {round(s * n_seeds)} of {n_seeds} seeds reach RQI > 0.95")

# %% [markdown]
# ## Figure 3: accuracy follows the representation
#
# ```{glue:figure} fig_acc
# :name: fig-liu-acc
#
# **(a)** Final accuracy on the whole table against the training fraction, one dot per seed; the red
# dashed diagonal is what pure memorization of the training set gives. **(b)** The same for the
# accuracy predicted from the learned parallelograms (Acc-hat). **(c)** Acc against Acc-hat: the dots
# lie on the diagonal, coloured by training fraction.
# ```

# %%
fig = plot_accuracy_vs_predicted(sweep)
glue("fig_acc", fig, display=False)
gap = np.abs(sweep.accuracy - sweep.predicted_accuracy)
print(f"|Acc - Acc-hat| over {gap.size} networks: mean {approx(gap.mean(), 0.01)}, median {approx(np.median(gap), 0.01)}")

# %% [markdown]
# ## Figure 4: the critical training fraction
#
# ```{glue:figure} fig_critical
# :name: fig-liu-critical
#
# **(a)** Probability that a random training set of a given fraction determines a unique linear
# structure (nullity 2), from the linear algebra alone; it jumps from 0 to 1 around the dashed line.
# **(b)** Steps until the network's representation has RQI $> 0.95$, one dot per seed (crosses: not
# within the budget), with the median over seeds (a failed seed counts as the budget). Below the
# critical fraction no network finds the line; above it, the time falls with more data.
# ```

# %%
fig = plot_critical_fraction(stats, sweep)
glue("fig_critical", fig, display=False)

# %% [markdown]
# ## Figure 5: the grokking rate, and the network against the theory
#
# ```{glue:figure} fig_rate
# :name: fig-liu-rate
#
# **(a)** $\lambda_3$ of $A_D^\top A_D$ for 50 random training sets per size (grey) and the mean
# over all sets (blue): zero below the critical fraction, growing with data above it. **(b)** Per
# network of the sweep: steps to RQI $> 0.95$ (red) and the theory's $n_h = p/(2\lambda_3\eta)$
# for its training set (blue squares; none where $\lambda_3 = 0$). We leave out eq. (5)'s
# $1/|P_0(D)|$ factor, which would lift every blue square about forty-fold (spec §1.3).
# ```

# %%
fig = plot_grokking_rate(stats, sweep)
glue("fig_rate", fig, display=False)
ok = (sweep.rqi_step > 0) & np.isfinite(sweep.theory_steps)
ratio = np.median(sweep.rqi_step[ok] / sweep.theory_steps[ok])
print(f"median (network steps / theory n_h) over the runs that reach RQI > 0.95: {approx(ratio, digits=1)}")

# %% [markdown]
# ## Paper versus ours
#
# How each check and tolerance is chosen:
#
# 1. **Critical fraction** (Fig. 4a caption: "phase transition around $r_c = 0.4$"): the 50 % crossing
#    of P(unique) within $\pm 0.03$, about two training samples; sampling noise at book scale
#    (2000 sets per size) moves it by less than 0.01.
# 2. **P(unique) at 22/55** ($= 0.40$): 0.41 in the official notebook's $10^4$ sets per size (spec §4);
#    $\pm 0.04$ is four standard errors at 2000 sets.
# 3. **Mean $\lambda_3$** at 30/55 and 45/55: 2.35 and 13.4 from the official computation (spec §5,
#    Fig. 5a), $\pm 10\,\%$ (the spread of sampled sets gives a standard error of the mean below 3 %).
#    $\lambda_3$ **rises with data**: the mean increases from every size to the next above 22.
# 4. **Acc ≈ Acc-hat** (Fig. 3c, dots on the diagonal; the official data agree to within about 0.02
#    except at the largest fraction, spec §4): mean $|$Acc − Acc-hat$|$ $\le 0.05$.
# 5. **No network below $r_c$ finds the line** (Fig. 4b; in the official data no seed does at
#    $\le 20$ samples): success rate at fractions $< 0.4$ is 0. With five seeds this does not hold
#    (see Deviations), so it is stated there as a measurement, not checked.
# 6. **Most networks well above $r_c$ do** (Fig. 4b, official data: all 9 runs at 45–54 samples):
#    success rate at $\ge 45$ samples at least $2/3$.
# 7. **Grokking steps fall with data above $r_c$** (Fig. 4b's median line; §3 "grokking time
#    decreases as training data size becomes larger"): Spearman correlation between training size and
#    steps to RQI $> 0.95$ (failed runs counted as the budget) over sizes $\ge 22$ is negative.
# 8. **Network and theory agree qualitatively** (Fig. 5b): the median ratio of network steps to
#    $n_h$ is within a factor 3 of 1 ($|\log_{10}| \le 0.48$), and $n_h$ also falls with data
#    (Spearman correlation with size negative).
#
# Claims 4–8 are statistics over all trained networks (five seeds per fraction, one batched run), not
# properties of one trajectory; a single seed's crossing step moves with the last bit of the CPU's
# arithmetic, the pooled statistic much less. Their values are shown at a resolution (0.01 for accuracy
# gaps, 0.05 for shares, 0.1 for the log ratio and for a rank correlation) well inside each claim's
# distance from its bound; the verdict uses the exact value.

# %%
frac = sweep.fractions
above = sweep.counts >= 22
capped = np.where(sweep.rqi_step >= 0, sweep.rqi_step, sweep.steps)
rho_nn = spearmanr(sweep.counts[above], capped[above]).statistic
finite = np.isfinite(sweep.theory_steps) & above
rho_th = spearmanr(sweep.counts[finite], sweep.theory_steps[finite]).statistic
means = stats.rates.mean(axis=1)
rising = float(np.all(np.diff(means[21:]) > 0))
glue("rho_nn", approx(rho_nn, 0.1), display=False)

claims.check("critical fraction: 50 % crossing of P(unique linear structure)", rc, 0.4, tolerance=0.03,
             source="Fig. 4(a) caption: transition around r_c = 0.4")
claims.check("P(unique linear structure) at 22/55 samples", stats.p_unique[k22], 0.41, tolerance=0.04,
             source="official effective_linear_eq.ipynb, 10^4 sets per size (spec §4, Fig. 4a)")
claims.check("mean lambda_3 at 30/55 samples", stats.rates[k30].mean(), 2.35, tolerance=0.1, comparison="rel",
             source="Fig. 5(a); official computation (spec §5)")
claims.check("mean lambda_3 at 45/55 samples", stats.rates[k45].mean(), 13.4, tolerance=0.1, comparison="rel",
             source="Fig. 5(a); official computation (spec §5)")
claims.check("lambda_3 rises with data above 22 samples (1 = every step up)", rising, 1.0, comparison=">=",
             source="§3 text on Fig. 5(a): lambda_3 increases with data size")
claims.check("mean |Acc - Acc-hat| over the sweep", gap.mean(), 0.05, comparison="<=", resolution=0.01,
             source="Fig. 3(c): Acc and Acc-hat on the diagonal (official data within ~0.02, spec §4)")
# Claim 5 does not hold over five seeds (see Deviations): a measured statement instead of a check.
low = sweep.fractions < 0.4
low_sizes = [int(n) for n, s in zip(counts, success) if n / 55 < 0.4 and s > 0]
glue("low_found", f"{int((sweep.rqi_step[low] >= 0).sum())} of {int(low.sum())}", display=False)
glue("low_sizes", ", ".join(f"{n}/55" for n in low_sizes) or "none", display=False)
glue("low_p_unique", ", ".join(f"{stats.p_unique[n - 1]:.2f}" for n in low_sizes) or "n/a", display=False)
claims.check("share of networks reaching RQI > 0.95 at >= 45 samples", success[counts >= 45].mean(), 2 / 3,
             comparison=">=", resolution=0.05, source="Fig. 4(b); official data: 9 of 9 (spec §4)")
claims.check("Spearman(size, network steps to RQI > 0.95) above 22 samples", rho_nn, 0.0, comparison="<=",
             resolution=0.1, source="Fig. 4(b) median line; §3: grokking time decreases with data")
claims.check("Spearman(size, theory n_h) above 22 samples", rho_th, 0.0, comparison="<=",
             source="Fig. 5(b): theory steps decrease with data")
claims.check("|log10 median(network steps / n_h)|", abs(np.log10(ratio)), 0.48, comparison="<=", resolution=0.1,
             source="Fig. 5(b): theory and networks agree qualitatively (read as within a factor 3)")
print(claims.table())

# %% [markdown]
# The linear algebra puts the critical fraction at {glue:text}`rc`; trained networks mostly agree: below
# it only {glue:text}`low_found` find the line (see Deviations), and above it the steps to a linear
# representation fall with data (Spearman correlation {glue:text}`rho_nn`).
#
# ## Deviations and what they mean
#
# - **Networks below the critical fraction (claim 5).** Over five seeds, {glue:text}`low_found`
#   networks at fractions below 0.4 reach RQI $> 0.95$ within the budget (at {glue:text}`low_sizes`),
#   where the paper's Fig. 4(b) and the official data (three seeds) show none. This is what the linear
#   algebra allows: at those sizes a random training set pins the line with probability
#   {glue:text}`low_p_unique` (Fig. 4a), so "no network below $r_c$" holds only for most seeds, not
#   for all of them.
# - **Seeds, steps and sizes.** Book scale: sizes 10–54 in steps of 5, five seeds, 3000 steps,
#   evaluation every 10 steps (threshold steps round up to a multiple of 10). The official Fig. 4(b)
#   data ran $10^4$ steps; a run that would find the line between steps 3000 and $10^4$ (the official
#   data have one at 2553 steps with 25 samples) counts here as a failure. The paper scale runs the
#   official sizes, ten seeds and $10^4$ steps with the same code; it was not run for this edition.
# - **Shared targets.** The official code draws new regression targets for every seed; our batched
#   sweep shares one set of targets across runs and varies the split and the initialization.
# - **Fig. 4(a) by sampling.** We sample 2000 random training sets per size (the official notebook:
#   $10^4$; paper scale: $10^4$) rather than enumerate all $\binom{55}{n}$ subsets.
# - **Normalisation of $n_h$.** As in the previous chapter, $n_h = p/(2\lambda_3\eta)$ without eq. (5)'s
#   $1/|P_0(D)|$ factor, with $\eta$ the embeddings' learning rate (spec §1.3). The network uses Adam,
#   the theory plain gradient flow, so only the trend and the order of magnitude can agree.

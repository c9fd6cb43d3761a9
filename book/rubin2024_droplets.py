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
# # Droplets of good representations: grokking as a first-order phase transition
#
# **The claim** (Rubin, Seroussi & Ringel 2024, *Droplets of good representations: grokking as a first
# order phase transition in two layer networks*, [arXiv 2310.03789](https://arxiv.org/abs/2310.03789); ICLR 2024 as *Grokking as a first
# order phase transition in two layer networks*). Treat a trained two-layer network as a
# Bayesian posterior, sampled by Langevin dynamics at temperature (noise) $\sigma^2$. In the
# mean-field limit every hidden neuron then feels the same *single-neuron action* $S[w]$, shaped by the
# part of the target the network has not learned yet. While the noise is large, $S$ has one minimum at
# $w \cdot w^* = 0$: the network is a kernel machine with enhanced fluctuations (the *GFL* phase) and
# learns only what a Gaussian process can. Lowering $\sigma^2$ (more effective data $n/\sigma^2$), a
# **second minimum** appears far from the origin, at $w \cdot w^* \approx 1$: a few neurons condense
# into the teacher direction, the "droplets of good representations". That is a first-order
# transition, like water condensing. Across the *mixed* phase (GMFL-I) the droplets coexist with the
# old phase; where they take over (GMFL-II), the network has "grokked".

# %% [markdown]
# % generated: claims-summary
#
# **Rubin, Seroussi & Ringel 2024 (droplets), claim by claim** — 13 paper claims: 5 reproduced, 0 not reproduced (rate 5/5); 6 inconclusive, 2 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ❔ inconclusive | T46: 0.65 vs paper <= 0.5 | “Our mean-field decoupling amounts to replacing … by its average under the action one gets from making this replacement. The justification for this …” | Fig. 1, Fig. 2 |
# | **C2** | ✅ reproduced | T10: 0.951 vs paper 1 ± 0.15 | “This also reveals the source of potential phase transitions. Indeed at large …, the saddles with the lowest action dominate the weights’ probability. …” | Fig. 1 |
# | **C3** | ✅ reproduced | T01: 0.179 vs paper 0.18 ± 0.005 | “We define the transition to this phase as the point at which the new saddle reaches a non-negligible value defined here as … (solid black line). …” | Fig. 1, Fig. 2 |
# | **C4** | ❔ inconclusive | T28: 0 vs paper <= 2 | “Increasing the effective amount of data by decreasing …, initially only changes the Gaussian fluctuations of the weights along the teacher direction …” | Fig. 1 |
# | **C5** | ❔ inconclusive | T49: 8 vs paper >= 3 | “By lowering … further, new distinct saddle points appear and become more probable, thereby marking the beginning of the mixed Gaussian phase, GMFL-I.” | Fig. 1 |
# | **C6** | ❔ inconclusive | T29: 0.30 vs paper <= 0.5 | “To validate the theoretical model, we trained multiple ensembles of networks with different initialization seeds and compared their weight …” | Fig. 1 |
# | **C7** | ❔ inconclusive | T46: 0.65 vs paper <= 0.5 | “Turning to the outputs of the network, Fig. 2 shows the overlap of the network’s output with the linear (left) and cubic (right) teacher components … …” | Fig. 2 |
# | **C8** | ⏳ not tested | — | “Notably, an FCN NNGP kernel induces a uniform prior over cubic polynomials (i.e. all hyper-spherical harmonics). As there are … of those it requires …” | Fig. 2 |
# | **C9** | ❔ inconclusive | T17: 1 vs paper 1 ± 0 | “Conveniently, at any point prior to the phase transition, the resulting equation for … is trivial. … In this region, … stays constant at its infinite …” | Fig. 3 |
# | **C10** | ✅ reproduced | T14: 3.12 vs paper <= 5 | “Staring at large … (and solving for … numerically), the … saddles are exponentially suppressed in …, yet nonetheless become more probable as … …” | Fig. 3 |
# | **C11** | ✅ reproduced | T15: 0.176 vs paper 0.175 ± 0.002 | “Had we zoomed in further, we would see a very minor change to these saddle’s height throughout the mixed phase, as they go from being above the … …” | Fig. 3 |
# | **C12** | ✅ reproduced | T16: -0.746 vs paper -0.7 ± 0.05 | “Notably …, which measures here the test-RSME, goes from … at the beginning of GMFL-I to … at its end. Over this small interval of … we observe a … …” | Fig. 3 |
# | **C13** | ⏳ not tested | — | “Our analytical results are consistent with the experiments carried out in Ref. Gromov (2023). Indeed as we enter GMFL-I, weights sampled near the … …” | v1 §3.2.2, last paragraph (v3 §3.2.1) |
#
# The deciding test is the one the verdict rests on (a decided disagreement first); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What we reproduce here.**
# - *Teacher–student* (erf student, target $H_1 + \epsilon H_3$): the self-consistent adaptive-kernel
#   theory, the action with its second minimum, the critical noise both in the paper's simplified
#   theory and in a corrected one, and the learned linear and cubic components against $\sigma^2$
#   (the theory lines of v1 Figs. 1–2).
# - *Modular addition* (square activation, $P = 401$): the per-Fourier-mode action, its closed-form
#   saddles, both phase boundaries and the discrepancy across the mixed phase (v3 Fig. 3; v1 Fig. 3 shows the action).
#
# **What we check, not reproduce.** Ensembles of erf networks sampled by Langevin dynamics, batched over
# the ensemble, in the *infinite-data* (population-loss, equivalent-kernel) limit, which is the limit the
# theory itself describes. Their weight histograms show the droplet minimum appear below the transition
# and not above it, and their learned components follow the corrected theory. That tests the mean-field
# theory against the exact posterior of the same limit: a check of the theory, not a reproduction of the
# paper's experiments.
#
# **The paper's experiments, at three of its sizes.** The paper's experimental points are
# *finite-data* ensembles: each network trained on its own $n$ samples, at four sizes
# $\beta = \alpha \in \{1/8, 1/2, 1, 2\}$ of its scaling family. We run the same experiment at
# $\beta = 1/8$ and $1/2$ ($d = 53$ and 106), with fewer networks and steps than the paper's
# 200 networks × 360k epochs, and compare its histograms and learned components with the theory at the
# same sizes. The runs take {eval}`glued.fin_wall` minutes on a CPU, so they are stored and the chapter
# reads them. At the paper's base size $\beta = 1$ ($d = 150$) a stored run at four noise levels around the
# two critical points asks which one the networks follow.
#
# **What we leave out.** The finite-data ensembles at $\beta = 2$ ($d = 212$), and the v3-only appendix on time-dependent grokking (v3 Figs. 4–6),
# whose paper-scale configs are built and dry-run by the test suite but whose runs would take thousands of
# CPU core-hours (the README's paper-scale table).
#
# **Versions.** The formulas were stripped from the v1 text (arXiv 2310.03789v1); the equations used here are
# those of v3 (arXiv 2310.03789v3, the ICLR camera-ready, whose source is complete), with its typos fixed where
# noted. Every section, claim, equation and appendix number below names its version. Equation numbers are v1's,
# with v3's where they differ; figure numbers are v1's (v1 Figs. 1, 2, 3 are v3 Figs. 2a–b, 2c, 3). The sections
# that matter: the teacher–student theory is v1 §3.1–3.1.1 / v3 §3.1, its experiments v1 §3.1.2 / v3 §3.1.1,
# the modular theory v1 §3.2 / v3 §3.2 with its numbers in v1 §3.2.2 / v3 §3.2.1. The numbered claims
# (Claims I–IV) exist only in v3, once for each model (§3.1 and §3.2); the numbers $u_c \approx 30.2$, 0.227,
# 0.175 and $-0.7$ are printed only in v3, the v1 text has them stripped.

# %% tags=["hide-input"]
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
from IPython.display import display
from repro.core.prose import glue
from repro.book.claims import ClaimBook
from repro.core.portable import approx, trained
from repro.core.scale import current_scale
from repro.experiments.rubin2024_droplets import (FINITE_BETAS, DropletsConfig, FiniteEnsemble, beta_label,
                                                  component_stats, droplet_fraction, droplet_significance,
                                                  finite_data_config, finite_theory_curves, follow_index_with_se,
                                                  histogram_deviation, langevin_teacher, load_finite, run_experiments,
                                                  run_theory, second_minimum, step_difference, stored_beta1,
                                                  stored_half_step, dataset_units, droplet_fraction_units, half_z,
                                                  finite_spreads, beta1_spreads, step_spreads)
from repro.experiments.rubin2024_droplets_setup import (beta1_setup_table, finite_setup_table,
                                                        infinite_data_setup_table, modular_setup_table,
                                                        teacher_setup_table)
from repro.plotting.rubin2024_droplets import (plot_components, plot_finite_components, plot_finite_histograms,
                                               plot_histograms, plot_landau, plot_modular, plot_step_bias)
from repro.plotting.shared import use_style
from repro.theory.rubin2024 import erf_kernel, hermite_projections, sweep_self_consistent
from repro.training.store import provenance_line, require_stored, stored_minutes
use_style()
claims = ClaimBook("rubin2024_droplets")

# %% [markdown]
# ## Configuration
#
# `DropletsConfig` holds the paper's settings: the teacher–student base scale of v3 App. C
# ($d = 150$, $N = 700$ hidden units, $n = 3000$ samples, $\sigma_w^2 = 0.5$, total readout variance
# $\sigma_a^2 = 8/700$, $\epsilon = -0.3$), the modular model of v3 Fig. 3 ($P = 401$, $N = 1000$,
# $\sigma_a^2 = 0.002/N$, sextic weight decay $\gamma = 10^{-4}$), and the Langevin protocol. The
# theory costs seconds at every scale. Only the Langevin ensembles shrink at book scale: the
# infinite-data posterior at $\beta = 1/8$ of v3 Table 1 ($d = 53$, $N = 88$, $n = 375$,
# $\sigma_a^2 = (8/700)/\sqrt{1/8}$). This scaling keeps the two numbers the theory depends on, the
# interaction $u = n^2\sigma_a^2/(\sigma^4 d N)$ and the kernel signal-to-noise
# $g = n\sigma_a^2/(\sigma^2 d)$, at their base values, so only finite-$d$ effects change. The tables below set
# each computation beside the paper's settings, every difference with its reason.

# %% tags=["hide-input"]
cfg = DropletsConfig.for_scale()
lv_cfg = cfg.langevin
print(f"scale: {current_scale()}")
print(f"Langevin: d={lv_cfg.d}, N={lv_cfg.N}, n={lv_cfg.n}, likelihood={lv_cfg.likelihood}, "
      f"sigma^2 in {lv_cfg.sigma2s}, {lv_cfg.n_nets} networks x {lv_cfg.steps} steps per sigma^2")
display(teacher_setup_table(cfg))
display(modular_setup_table(cfg))
display(infinite_data_setup_table(lv_cfg))

# %% [markdown]
# ## Sanity check: the integrals every formula rests on
#
# The theory needs two Gaussian integrals of the erf activation: the arcsine kernel
# $\langle \mathrm{erf}(w\cdot x)\,\mathrm{erf}(w'\cdot x)\rangle$ and the projections of
# $\mathrm{erf}(w \cdot x)$ on the normalized Hermite polynomials of the teacher direction (v1 App. A.4).
# We compare both with a Monte Carlo average over $2\cdot 10^5$ Gaussian inputs, with the standard
# Monte Carlo error of $\pm 0.01$ (about 3 standard errors).

# %%
rng = np.random.default_rng(0)
x = rng.standard_normal((200_000, 6))
w1, w2 = np.array([0.9, 0.3, -0.2, 0.1, 0.4, 0.0]), np.array([0.2, -0.5, 0.3, 0.6, 0.0, 0.1])
from scipy.special import erf

mc_kernel = np.mean(erf(x @ w1) * erf(x @ w2))
A1, A3 = hermite_projections(w1[0], w1 @ w1)
z = x[:, 0]
mc_A1, mc_A3 = np.mean(z * erf(x @ w1)), np.mean((z**3 - 3 * z) / np.sqrt(6) * erf(x @ w1))
ok = (abs(erf_kernel(w1, w2) - mc_kernel) < 0.01) and abs(A1 - mc_A1) < 0.01 and abs(A3 - mc_A3) < 0.01
print(f"arcsine kernel and Hermite projections agree with Monte Carlo within 0.01: {ok}")
assert ok

# %% [markdown]
# ## Theory: teacher–student
#
# The data enter the single-neuron action only through the *discrepancy*
# $\sigma^2 \bar t = b\,H_1 + c\,H_3$ (v1 Eq. 12), the part of the target the mean predictor misses;
# $1-b$ and $\epsilon - c$ are the learned linear and cubic components. Along the teacher direction,
# with $q = w\cdot w^*$, the action per input dimension is (v1 Eq. 14 / v3 Eq. 13)
#
# $$ s(q) = \frac{q^2}{2\sigma_w^2} - \frac{2u}{\pi}\,\frac{q^2}{D}\Big(b - \frac{2c\,q^2}{D}\Big)^2,
# \qquad D = 1 + 2|w|^2, $$
#
# and $p(q) \propto e^{-d\,s(q)}$. The paper freezes the orthogonal norm $|w_\perp|^2$ at its prior mean
# $\sigma_w^2$. That is right near $q = 0$ but not at a droplet: a neuron aligned with the teacher
# shrinks its orthogonal part (to about half its prior value, which the Langevin runs below confirm), which lowers
# its action. We therefore also marginalize $|w_\perp|^2$ (the "corrected theory", our derivation). $b$ and
# $c$ are solved self-consistently with the kernel the neurons produce (v1 Eqs. 8–9, v3 App. A.3 with
# two typos fixed: $4/\pi$, not $2/\pi$, in $\tilde Q_{11}$, and $(I + \tfrac{n}{\sigma^2}\tilde Q)^{-1}y$).
# Everything below, including the $d\to\infty$ transition and finite-$d$ quadratures, is computed now.

# %%
theory = run_theory(cfg)
cp, cc = theory.crit_paper, theory.crit_corrected
print(f"paper's theory:    sigma_c^2 = {cp.sigma2:.3f}  (u_c = {cp.u:.1f}; the paper: 0.18, u_c = 30.2)")
print(f"corrected theory:  sigma_c^2 = {cc.sigma2:.3f}  (u_c = {cc.u:.1f})")
glue("sc_paper", f"{cp.sigma2:.3f}", display=False)
glue("uc_paper", f"{cp.u:.1f}", display=False)
glue("sc_corr", f"{cc.sigma2:.3f}", display=False)
glue("uc_corr", f"{cc.u:.1f}", display=False)
glue("q_c_paper", f"{cp.q_star:.2f}", display=False)
glue("uc_gap", f"{100 * (cp.u / 30.2 - 1):.1f}", display=False)
glue("q_c_corr", f"{cc.q_star:.2f}", display=False)

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_landau.png
# :name: fig-landau
#
# The Landau picture. The single-neuron action along the teacher direction, per input dimension and
# relative to $q = 0$, at the discrepancy $b$ of the kernel (GFL) phase ($d \to \infty$). **Left:** the
# paper's action with $|w_\perp|^2$ frozen; a second minimum touches zero at $\sigma^2 \approx$
# {eval}`glued.sc_paper`. **Right:** with $|w_\perp|^2$ at its saddle the droplet minimum is deeper and
# touches zero earlier, at $\sigma^2 \approx$ {eval}`glued.sc_corr`. Below these values the kernel phase is only metastable.
# ```

# %%
glue("fig_landau", plot_landau(cfg, theory), display=False)

# %% [markdown]
# ### Checks of the teacher–student theory
#
# 1. **Critical point, paper's theory** (a reproduction). v3 §3.1 (Claim I) quotes $u_c \approx 30.2$, and
#    v3 §3.1.1 places the sharp transition "around $\sigma^2 = 0.18$" (v1 §3.1.2 only marks the transition in its
#    figure). For $\sigma_c^2$ the paper gives two digits, so we allow $\pm 0.005$ in $\sigma^2$
#    ($\pm 5.6\,\%$ in $u \propto \sigma^{-4}$). This needs the $4/\pi$ fix: with the printed $2/\pi$ the
#    transition moves to $u_c = 23$. The finer number, $u_c \approx 30.2$, is compared two-sided to the digit the
#    paper gives ($\pm 0.1$): our solution of the same equations gives {eval}`glued.uc_paper`, {eval}`glued.uc_gap` % higher, a
#    deviation (registered after the value was known, so marked †). The paper solves its equations by expanding
#    the action to second order around its minima (v3 App. A.3); we integrate exactly, which may account for it.
# 2. **Critical point, corrected theory** (a deviation from the paper's 0.18, and a check of our solver
#    against an independent solution of the same equations, $\sigma_c^2 = 0.217$ to three digits).
# 3. **The GFL discrepancy** $b(\sigma^2)$ in the $d \to \infty$ kernel phase, and 4. **the learned cubic
#    in the paper's theory** ($d = 10^4$ stands in for $d \to \infty$) at $\sigma^2 = 0.15$ and 0.10: checks
#    of our solver against an independent solution of v3 App. A.3's equations (with the $4/\pi$ fix), to
#    four digits; the paper only plots these curves.
# 5. **Where the droplets sit.** v3 §3.1 (Claim IV) says that exactly at the transition three saddles appear,
#    two of them "roughly at $\Phi = \pm|w_*|^2 = \pm 1$". At the paper's own transition ($d \to \infty$) its
#    action puts the droplet saddle at $q^* =$ {eval}`glued.q_c_paper` (the corrected action: {eval}`glued.q_c_corr`).
#    Read with the $\pm 0.15$ we use for "roughly $\pm 1$" everywhere else, that is a deviation (registered after
#    the value was known: †).
# 6. **The droplet minimum at $d = 150$ after the transition** (v1 Fig. 1 / v3 Fig. 2b's theory at the
#    paper's size, at $\sigma^2 = 0.10$: our choice, the panel's $\sigma^2$ is not stated; v3 §3.1.1: "the theory predicts a finite probability for $\Phi \approx 1$"): at
#    $\sigma^2 = 0.10$ the paper's theory has a second minimum of $-\log p(q)$ at $q = 1 \pm 0.15$ (a
#    reproduction), and its profile at $q = 0.9$ and 1.0 (4.40 and 4.43 nats above $q = 0$) agrees with the
#    independent solution to two decimals (checks). This is the curve the paper draws, but not where it vouches
#    for it: v1 §3.1.2 warns that past the transition "the theoretical models are no longer accurate", because
#    the network then also learns the higher Hermite components the ansatz leaves out. The droplet moves out from
#    $q^* =$ {eval}`glued.q_c_paper` at the transition towards 1 as $\sigma^2$ falls; at 0.10 this claim reproduces
#    the paper's curve, not a prediction the paper stands behind.

# %% tags=["hide-input"]
claims.check("teacher-student sigma_c^2, paper's 1-D theory", cp.sigma2, live=False)
claims.check("teacher-student u_c, paper's 1-D theory", cp.u, live=False,
             evidence=f"our exact quadrature of the paper's equations (v3 Eq. 13, App. A.3 with the 4/pi fix) gives "
                      f"u_c = {cp.u:.2f} (sigma_c^2 = {cp.sigma2:.4f}) against the paper's 30.2; the paper expands the "
                      "action to second order around its minima (v3 App. A.3). The coarser sigma_c^2 agrees.")
claims.check("teacher-student droplet saddle position q* at the paper's transition (d -> infinity), paper's theory",
             cp.q_star, live=False,
             evidence=f"at the paper's transition (d -> infinity, sigma_c^2 = {cp.sigma2:.3f}) its action (v3 Eq. 13) has "
                      f"its droplet saddle at q* = {cp.q_star:.2f} (the corrected action: {cc.q_star:.2f} at its own "
                      "transition); it moves towards 1 only below the transition (0.10: the next claims)")
claims.check("teacher-student sigma_c^2, corrected 2-D theory (solver)", cc.sigma2, live=False)
claims.check("teacher-student sigma_c^2 of the corrected theory vs the paper's", cc.sigma2, live=False,
             evidence="the paper's action (v1 Eq. 14) freezes |w_perp|^2 at its prior mean; at a droplet the "
                      "orthogonal norm shrinks, and marginalizing it moves the d -> infinity transition from "
                      f"{cp.sigma2:.3f} (the paper's equations, reproduced above) to {cc.sigma2:.3f}. The "
                      "infinite-data Langevin ensembles at d = 53 side with the corrected theory (checks below); "
                      "the finite-data ensembles at beta = 1/2 (d = 106) show the droplet minimum at sigma^2 = 0.15, "
                      "as the corrected theory does and the paper's does not; at beta = 1/8 finite-n losses put "
                      "their cubic near the paper's theory (below). beta = 1 is judged in its own section below; "
                      "beta = 2 was not run.")
for s2, b_ref in ((0.30, 0.4747), (0.25, 0.4016), (0.20, 0.3252), (0.18, 0.2940)):
    claims.check(f"GFL linear discrepancy b at sigma^2={s2:.2f}", theory.gfl_table[s2][0], reference=b_ref,
                 live=False)
sharp = {round(s.sigma2, 3): s for s in theory.sharp_1d}
for s2, cubic_ref in ((0.15, -0.0189), (0.10, -0.0544)):
    claims.check(f"learned cubic eps-c at sigma^2={s2:.2f}, paper's theory, d=1e4", sharp[s2].learned_cubic,
                 reference=cubic_ref, live=False)
prof = theory.profile_d150
mask = (prof.q > 0.5) & (prof.q < 1.5)
k = np.argmin(-prof.log_p[mask])
q_drop, h_drop = prof.q[mask][k], prof.log_p[0] - prof.log_p[mask][k]
claims.check("d=150, sigma^2=0.10: droplet minimum position q*, paper's theory", q_drop, live=False)
for q_tab, nats_ref in ((0.9, 4.40), (1.0, 4.43)):
    claims.check(f"d=150, sigma^2=0.10: -log p(q={q_tab}) - (-log p(0)), paper's theory (nats)",
                 prof.log_p[0] - np.interp(q_tab, prof.q, prof.log_p), reference=nats_ref, live=False)
glue("b_nngp_018", f"{theory.gfl_table[0.18][1]:.2f}", display=False)
glue("b_gfl_018", f"{theory.gfl_table[0.18][0]:.2f}", display=False)
glue("dq2_018", f"{theory.gfl_table[0.18][2]:.1f}", display=False)
glue("q_drop", f"{q_drop:.2f}", display=False)
glue("h_drop", f"{h_drop:.1f}", display=False)

# %% [markdown]
# Feature learning is already visible in the kernel phase: at $\sigma^2 = 0.18$ the GFL discrepancy is
# $b =$ {eval}`glued.b_gfl_018`, against {eval}`glued.b_nngp_018` for the NNGP (a Gaussian process with
# the untrained kernel), because the fluctuations along the teacher grow from $d\langle q^2\rangle = 0.5$
# (prior) to {eval}`glued.dq2_018`. At $d = 150$ and $\sigma^2 = 0.10$ the paper's theory puts the droplet
# minimum at $q =$ {eval}`glued.q_drop`, {eval}`glued.h_drop` nats above the origin.
#
# ## Theory: modular addition
#
# With all $P^2$ pairs as data, a square activation and the sextic weight decay
# $\Gamma = \sum_k P\frac{\gamma}{6}(|w_k|^6 + |v_k|^6)$, every Fourier mode $k$ of a neuron decouples
# (v1 §3.2.2 Eq. 19 / v3 §3.2 Eq. 16). Along $|w_k|^2 = |v_k|^2 = x$ the action per $P$ is
# $s(x) = x - U x^2 + \tfrac{\gamma}{3}x^3$ with $U = u a^2$, $u = 2\sigma_a^2P^2/(N\sigma^4)$, and $a$
# the discrepancy ($\sigma^2\bar t = a\,y$; $|a|$ is the test-RMSE proxy). Its saddles are
# $x_\pm = (U \pm \sqrt{U^2-\gamma})/\gamma$ (the roots of v3 App. B.4 Eq. 39 = v1 Eqs. 43–44, printed unnumbered after it, with two typos fixed: the coefficient
# $8\sigma_a^2a^2P/(N\sigma^4)$ is $4\sigma_a^2a^2P^2/(N\sigma^4)$, and $\epsilon$ is $\gamma$),
# and $a = -\sigma^2/(\lambda(a) + \sigma^2)$ closes the loop, with the paper's droplet eigenvalue
# $\lambda = \sigma_a^2\langle\Phi\Psi\rangle$ (v3 App. B.3, Eq. 38 for $a$). The boundaries have closed forms
# (derived from v3 App. B.4 Eqs. 39–42 = v1 Eqs. 43–46): the droplet becomes degenerate with the origin at $U^* = 2\sqrt{\gamma/3}$, which fixes
# $\sigma^2_{c1}$; inside the mixed phase $|a|$ is pinned to $\sqrt{U^*/u} \propto \sigma^2$ until the
# droplets saturate the eigenvalue at $\sigma^2_{c2}$.

# %%
bd = theory.modular_bounds
print(f"GMFL-I onset sigma_c1^2 = {bd.sigma2_c1:.4f}, GMFL-II onset sigma_c2^2 = {bd.sigma2_c2:.4f}, "
      f"a at GMFL-II onset = {bd.a_c2:.3f}")

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_modular.png
# :name: fig-modular
#
# Modular addition ($P = 401$). **Left:** the action of one Fourier mode against its power $x$, with the
# self-consistent discrepancy at each $\sigma^2$. In the GFL phase the droplet minimum near
# $x \approx 170$ lies far above the origin (or does not exist); through the mixed phase GMFL-I it stays
# within a few nats of zero (inset: its height $P\,s(x_+)$ in nats, from about +9 to −8); in GMFL-II it is
# far below. **Right:** the target component the mean predictor has learned, $1 - |a|$, and the
# test-RMSE proxy $|a|$. Both have kinks at the two boundaries (grey lines): $|a|$ falls linearly across the
# mixed phase.
# ```

# %%
glue("fig_modular", plot_modular(cfg, theory), display=False)

# %% [markdown]
# ### Checks of the modular theory
#
# The paper's text says the mixed phase starts "at around $\sigma^2 \approx 0.227$", where the droplet
# saddles "come within $O(1)$" of the origin, and ends at $\approx 0.175$; $a$ goes from $-1$ to
# $\approx -0.7$, a 30 % drop of the discrepancy (v3 §3.2.1 and Fig. 3; v1 §3.2.2 says the same with the numbers
# stripped). Our sharp ($P \to \infty$)
# onset is $\sigma^2_{c1} =$ {eval}`glued.s2_c1`, not 0.227. The two are readings of the same curve: at
# finite $P$ the droplet's weight $4e^{-P s(x_+)}$ grows smoothly, and "within $O(1)$" is a matter of
# choice. At $\sigma^2 = 0.227$ the droplet saddle sits {eval}`glued.nats_0227` nats above the origin and
# carries {eval}`glued.p_0227` % of the probability; at the sharp onset it sits {eval}`glued.nats_c1` nats
# above. We therefore (a) check the closed-form onset against an independent evaluation, and (b)
# reproduce the paper's statement that at 0.227 the droplet saddle is within $O(1)$ nats, which we read as at most 5 nats (a droplet weight of at least 2.7 %). The GMFL-II boundary is
# compared with $\pm 0.002$: the paper reads it from a plot, and the droplet weight itself goes from
# {eval}`glued.p_0180` to {eval}`glued.p_0176` between $\sigma^2 = 0.180$ and 0.176. The discrepancy at the end
# of the mixed phase gets the paper's one significant digit ($\pm 0.05$).
#
# **The eigenvalue's normalization.** These numbers need the paper's droplet eigenvalue
# $\lambda = \sigma_a^2\langle\Phi\Psi\rangle$. The eigenvalue of the $P^2\times P^2$ kernel matrix on the
# target is $4P^2$ times larger (under the prior, $\langle\Phi\Psi\rangle = P^{-2}$ while the Gaussian-process
# kernel's eigenvalue on a Fourier mode is $4\sigma_a^2$; `tests/test_theory_rubin2024.py` checks it by brute force).
# With the exact eigenvalue the mixed phase starts at the same $\sigma^2_{c1}$ and $|a|$ is pinned the same
# way, but a tiny droplet fraction already saturates the eigenvalue, so the droplets never take over:
# at $\sigma^2 = 0.15$ their weight per mode is {eval}`glued.p_exact_015` instead of about 1, and GMFL-II
# (the paper's "≈ 0.175") does not exist at these parameters. We register that as a deviation.

# %% tags=["hide-input"]
by_s2 = {round(m.sigma2, 3): m for m in theory.modular_curve}
exact_by_s2 = {round(m.sigma2, 3): m for m in theory.modular_exact_curve}
claims.check("modular GMFL-I onset sigma_c1^2 (closed form, P -> inf)", bd.sigma2_c1, live=False)
claims.check("modular: droplet-saddle height P s(x+) at the paper's onset 0.227 (nats)", by_s2[0.227].saddle_nats,
             live=False)
claims.check("modular GMFL-II onset sigma_c2^2", bd.sigma2_c2, live=False)
claims.check("modular discrepancy a at the end of GMFL-I", bd.a_c2, live=False)
mixed = [m for m in theory.modular_curve if bd.sigma2_c2 <= m.sigma2 <= bd.sigma2_c1]
falling = np.all(np.diff([abs(m.a) for m in mixed]) < 0)  # theory_curve runs from large to small sigma^2
claims.check("modular: |a| falls monotonically across GMFL-I (1 = yes)", float(falling), live=False)
claims.check("modular: droplet weight per mode at sigma^2=0.15, exact kernel eigenvalue",
             exact_by_s2[0.15].droplet_probability, live=False,
             evidence="the paper's numbers follow from its eigenvalue sigma_a^2 <Phi Psi> (reproduced above); the exact "
                      "eigenvalue of the kernel matrix is 4 P^2 times larger (checked by brute force in the tests), "
                      "and with it the droplet weight that saturates the eigenvalue stays tiny at every sigma^2 < "
                      "sigma_c1^2: GMFL-II is never reached at P = 401, N = 1000, gamma = 1e-4. No network was "
                      "trained on modular addition, here or in the paper.")
drop = 100 * (1 - abs(bd.a_c2))
glue("s2_c1", f"{bd.sigma2_c1:.3f}", display=False)
glue("nats_0227", f"{by_s2[0.227].saddle_nats:.0f}", display=False)
glue("p_0227", f"{100 * by_s2[0.227].droplet_probability:.0f}", display=False)
glue("nats_c1", f"{by_s2[round(bd.sigma2_c1, 3)].saddle_nats:.0f}", display=False)
glue("p_0180", f"{by_s2[0.18].droplet_probability:.2f}", display=False)
glue("p_0176", f"{by_s2[0.176].droplet_probability:.4f}", display=False)
glue("p_exact_015", f"{exact_by_s2[0.15].droplet_probability:.0e}", display=False)
glue("onset_k1", f"{theory.modular_onsets[1.0]:.3f}", display=False)
glue("onset_k5", f"{theory.modular_onsets[5.0]:.3f}", display=False)
glue("drop", f"{drop:.0f}", display=False)
glue("a_c2", f"{bd.a_c2:.3f}", display=False)
glue("s2_c2", f"{bd.sigma2_c2:.3f}", display=False)

# %% [markdown]
# Reading "within $O(1)$" as 1 nat would put the onset at $\sigma^2 =$ {eval}`glued.onset_k1`, as 5 nats at
# {eval}`glued.onset_k5`; the paper's 0.227 lies between. Across the mixed phase $|a|$ falls by
# {eval}`glued.drop` %, the paper's "30 %" to its one digit.
#
# ### The mode count: $k$ and $P-k$ are one complex mode
#
# The sum in v3 Eq. 16 (v1 Eq. 19) runs over $k = 1, \dots, P-1$, and the weights are real, so
# $w_{P-k} = \bar w_k$ (v1 App. B.2): the indices $k$ and $P-k$ are one complex variable, and its action is
# $2S_k$, not $S_k$. That is the count the action itself fixes: under the prior ($w_n \sim N(0, 1)$)
# $\langle|w_k|^2\rangle = 1/P$, which the free part of $2S_k$, $e^{-P|w_k|^2}$, gives and that of $S_k$ alone
# ($2/P$) does not (`tests/test_theory_rubin2024.py` checks both identities). The paper's droplet weight
# $4e^{-S_k}$ (v3 Eq. 41, v1 Eq. 45) should then read $4e^{-2S_k}$. Doubling the height at the paper's $a$ would
# put the droplet {eval}`glued.mc_doubled` nats above the origin at $\sigma^2 = 0.227$, beyond our 5-nat reading
# of "within $O(1)$". But $a$ is solved self-consistently: with that exponent the GPR equation (v3 Eq. 38)
# returns $a =$ {eval}`glued.mc_a_doubled`, not {eval}`glued.mc_a_printed`, so it is no solution. Solved
# again, $a$ moves by {eval}`glued.mc_da`: the GPR equation fixes the droplet's probability, hence the
# weight's exponent, and the per-index height $S_k$ halves instead. The stated numbers, 0.227 (within a few
# nats), 0.175 and $-0.7$, come out the same under both counts to four digits, so they cannot tell the two
# apart; the derivation decides for $2S_k$, and the "≤ 5 nats" claim holds under either.

# %% tags=["hide-input"]
mc = theory.mode_count_0227
for label, sol in (("as printed, S_k per index k", mc.as_printed), ("each complex mode once, 2 S_k", mc.once)):
    print(f"{label:31s}: a = {sol.a:.5f}, S_k = {sol.saddle_nats:.2f} nats, exponent of the droplet weight = "
          f"{sol.weight_nats:.2f} nats, droplet probability {sol.droplet_probability:.3f}")
print(f"large-P closed form of the exponent (either count): {mc.closed_form_nats:.2f} nats")
print(f"2 S_k at the printed a: {mc.doubled_at_printed_a:.2f} nats; the GPR equation then returns "
      f"a = {mc.a_implied_by_doubled:.4f} (not a solution)")
print(f"a at the end of GMFL-I: {bd.a_c2:.4f} (closed form), {theory.a_end_once:.4f} (2 S_k, P = 401)")
claims.check("modular, k and P-k counted as one complex mode (weight 4e^{-2S_k}): droplet-saddle exponent 2P s(x+) at "
             "the paper's onset 0.227 (nats)", mc.once.weight_nats, live=False)
claims.check("modular, k and P-k counted as one complex mode: discrepancy a at the end of GMFL-I (self-consistent at "
             "sigma_c2^2, P = 401)", theory.a_end_once, live=False)
glue("mc_doubled", f"{mc.doubled_at_printed_a:.1f}", display=False)
glue("mc_a_doubled", f"{mc.a_implied_by_doubled:.3f}", display=False)
glue("mc_a_printed", f"{mc.as_printed.a:.3f}", display=False)
glue("mc_da", f"{abs(mc.once.a - mc.as_printed.a):.0e}", display=False)

# %% [markdown]
# ## Experiments: Langevin ensembles of erf networks in the infinite-data limit
#
# Each network samples the posterior $p(W, a \mid D) \propto e^{-L/\sigma^2}\,\text{prior}$ by
# Langevin dynamics with noise $\sqrt{2\eta\sigma^2}$ (v3 Eq. 6 prints $2\sigma$, a typo: only
# $\sqrt 2\sigma$ gives the stated posterior), in standardized coordinates where the prior is
# $N(0, 1)$ and a step of 0.05 is stable. All networks at all $\sigma^2$ run as one batched tensor
# program (`repro.training.langevin.run_langevin`). The likelihood is the **infinite-data limit** the theory
# describes, $\frac{n}{2\sigma^2}\mathbb E_x(f-y)^2$ (our derivation: closed form for erf networks), not
# the paper's finite data sets: what follows tests the mean-field theory against the exact posterior of
# its own limit, at the paper's smallest size ($\beta = 1/8$ of v3 Table 1: $d = 53$, $N = 88$, with $u$ and
# $g$ at their base values). We record $|w\cdot w^*|$ for every neuron after a 25 % burn-in and the
# learned components (exact projections of $f$ on $H_1$ and $H_3$).

# %%
exp = run_experiments(cfg)
lv = exp.langevin
halves = np.abs(lv.half_cubic[0] - lv.half_cubic[1]).mean(1).max()
print(f"first vs second half of the samples: learned cubic differs by < 0.003: {trained(str(halves < 0.003))}")

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_histograms.png
# :name: fig-histograms
#
# The panel type of v1 Fig. 1 at $d = 53$, in the infinite-data limit: the negative log-probability of each
# neuron's overlap with the teacher, pooled over neurons, networks and samples (crosses; error bars from 4
# disjoint groups of networks), against the corrected theory (red) and the paper's theory (blue, dashed) at
# the same size. Above the transition ($\sigma^2 = 0.25$) it rises monotonically. At $\sigma^2 = 0.10$ a
# second minimum, the droplet, sits near $|q| \approx 1$.
# ```

# %%
glue("fig_histograms", plot_histograms(exp), display=False)

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_components.png
# :name: fig-components
#
# The layout of v1 Fig. 2: the learned linear (left) and cubic (right) components of the mean predictor
# against the noise. Lines: the paper's theory (dashed blue, $d = 10^4$), the corrected theory ($d = 2000$,
# red; thick pale red at the ensembles' $d = 53$). Crosses: infinite-data Langevin ensembles at $d = 53$
# (mean ± standard error over networks), not the paper's finite-data experiments. Vertical lines:
# $\sigma_c^2$ of the paper's theory (solid) and of the corrected one (dash-dotted). The cubic component,
# out of reach of the NNGP (which would need $n \sim d^3/6$ samples), starts being learned at the transition.
# ```

# %%
glue("fig_components", plot_components(cfg, theory, exp), display=False)

# %% [markdown]
# ### Checks of the theory against the infinite-data ensembles
#
# All of these are checks (the ensembles and the theory describe the same limit), none a reproduction:
#
# 1. **A droplet minimum below the transition**: at $\sigma^2 = 0.10$, $-\log p(|q|)$ has an interior
#    minimum where the theory puts it after the transition, at $\Phi \approx 1$ (v3 §3.1.1; we allow $\pm 0.15$,
#    1.5 bins),
#    separated by a barrier of at least 0.5 nats (a bound of ours; the bins' errors are about 0.05 nats).
# 2. **None above it**: at $\sigma^2 = 0.25$ the curve rises monotonically, so the depth is at most 0.1
#    nats (twice the bin error).
# 3. **The learned cubic follows the corrected theory**: the ratio of the ensembles' $\epsilon - c$ to the
#    corrected theory's at $d = 53$ is 1 within 10 %, at $\sigma^2 = 0.15$ and 0.10. The standard error
#    of the ensemble mean is at most {eval}`glued.cubic_sem` % of it; the 10 % allows for the mean-field
#    decoupling's finite-$N$ error ($N = 88$), which is amplified in the small cubic component.
# 4. **...and not the paper's**: the corrected theory's error is smaller than that of the paper's
#    frozen-norm theory (ratio of absolute errors below 1).
#
# The numbers come from the live Langevin runs; the verdicts use the exact values, and the claims with
# their tolerances are the test. The table shows them at resolutions set by their errors: depths at 0.1
# nats (bin errors about 0.05 nats), the position at 0.05 (half a bin), the cubic ratio at 0.05 (half its
# 10 % tolerance) and the error ratio at 0.1.

# %% tags=["hide-input"]
centres = 0.5 * (lv.edges[:-1] + lv.edges[1:])
s_low, s_high = lv.sigma2s.index(0.10), lv.sigma2s.index(0.25)
q_low, depth_low = second_minimum(lv.neg_log_p(s_low), centres)
_, depth_high = second_minimum(lv.neg_log_p(s_high), centres)
depth_low_se = droplet_significance(lv, s_low)["error"]  # the same depth over five subsets of networks
claims.check("Langevin (infinite data) d=53, sigma^2=0.10: droplet minimum position |q|", q_low)
claims.check("Langevin (infinite data) d=53, sigma^2=0.10: droplet barrier depth (nats)", depth_low,
             spread=depth_low_se)
claims.check("Langevin (infinite data) d=53, sigma^2=0.25: second-minimum depth (nats)", depth_high)
for s2 in (0.15, 0.10):
    s = lv.sigma2s.index(s2)
    ours = lv.learned_cubic[s].mean()
    t2, t1 = exp.theory_2d[s].learned_cubic, exp.theory_1d[s].learned_cubic
    claims.check(f"Langevin (infinite data)/corrected-theory learned cubic at sigma^2={s2:.2f}", ours / t2,
                 seeds=lv.learned_cubic[s] / t2)
    claims.check(f"error ratio corrected/paper theory, learned cubic, sigma^2={s2:.2f}",
                 abs(ours - t2) / abs(ours - t1))
r_drop = lv.mean_r(s_low)[(centres > 0.8) & (centres < 1.1)].mean()
sem = max(lv.learned_cubic[lv.sigma2s.index(s2)].std(ddof=1) / np.sqrt(lv.config.n_nets)
          / abs(lv.learned_cubic[lv.sigma2s.index(s2)].mean()) for s2 in (0.15, 0.10))
glue("cubic_sem", trained(100 * sem, digits=1), display=False)
s15 = lv.sigma2s.index(0.15)
# the paper's theory at the ensembles' own size (d = 53), not at d = 1e4: the comparison at equal d
glue("cubic_vs_paper", trained(lv.learned_cubic[s15].mean() / exp.theory_1d[s15].learned_cubic, digits=1),
     display=False)
glue("linear_gap", trained(100 * (1 - lv.learned_linear[s_low].mean() / exp.theory_2d[s_low].learned_linear), 0.5),
     display=False)
glue("cubic_gap", trained(100 * (1 - lv.learned_cubic[s_low].mean() / exp.theory_2d[s_low].learned_cubic), 1),
     display=False)
glue("q_low", trained(q_low, 0.05), display=False)
glue("depth_low", trained(depth_low, 0.1), display=False)
glue("r_drop", trained(r_drop, 0.1), display=False)

# %% [markdown]
# In the ensembles at $\sigma^2 = 0.10$ the droplet minimum sits at $|q| \approx$ {eval}`glued.q_low`,
# {eval}`glued.depth_low` nats below the barrier that separates it from the kernel phase. Droplet
# neurons carry an orthogonal norm $\langle|w_\perp|^2\rangle \approx$ {eval}`glued.r_drop`, less than half
# of the prior's 0.5: the norm the paper's theory freezes is not frozen.

# %% [markdown]
# ## Experiments: the paper's finite-data ensembles at $\beta = 1/8$ and $1/2$ (stored)
#
# The paper's experimental points come from networks trained on finite data sets (v3 App. C): at each size
# of the family $\alpha = \beta$ of v3 Table 1, 50 data sets of $n$ Gaussian inputs with at least 4
# networks each, 360k epochs of Langevin training, at $\sigma^2 \in \{0.10, 0.15, 0.20, 0.25, 0.30\}$. We
# run the same experiment with the sampler above, now with the paper's sum over the $n$ training points,
# at the paper's two smallest sizes:
#
# - $\beta = 1/8$: $d = 53$, $N = 88$, $n = 375$, all five $\sigma^2$, 50 data sets × 2 networks;
# - $\beta = 1/2$: $d = 106$, $N = 350$, $n = 1500$, $\sigma^2 \in \{0.25, 0.15, 0.10\}$ (before, near and
#   after the transition), 10 data sets × 1 network.
#
# Both run 4000 Langevin steps ($h = 0.05$ in standardized coordinates, 25 % burn-in), in place of the
# paper's 360k epochs at a learning rate of $2\cdot10^{-3}$ whose time unit is not ours: what matters is
# that the ensembles reach equilibrium, which we check by comparing the two halves of the recorded
# samples. Together they took {eval}`glued.fin_wall` minutes on a shared CPU core, too long for the book.
# The command `python -m repro.experiments.rubin2024_droplets --store book/_results` runs them with the same code and stores
# the result with its provenance; the chapter reads it from the store, which refuses an entry whose config or
# content does not match.
#
# The statistics follow the paper's construction, with standard errors for its error bars. Histograms pool
# all neurons, networks and recorded samples, folded onto $|w\cdot w^*|$ (the law is symmetric; the paper
# histograms $w\cdot w^*$); their error bars come from five disjoint subsets of networks (the networks of one
# data set stay in one subset), as the standard deviation over subsets divided by $\sqrt 5$. The learned
# components are the projections of each network's output on $H_1$ and $H_3$, averaged over the run, then
# over the networks of a data set and over data sets; their error is the standard deviation over data sets
# divided by the square root of their number. v3 App. C normalizes differently: the histograms' standard
# deviation "by the square root of the number of samples per ensemble", the components' "by the number of
# ensembles"; ours are the standard errors of a mean, which the significances below need. (The paper projects
# on 3000 test points; ours are exact Gaussian averages.)

# %% tags=["hide-input"]
finite = load_finite("_results")
have_finite = all(b in finite for b in FINITE_BETAS)
if not have_finite:
    print("Stored finite-data ensembles are missing: run `python -m repro.experiments.rubin2024_droplets --store book/_results`.")
for beta, fe in finite.items():
    c, m = fe.langevin.config, fe.manifest
    print(f"beta = {beta_label(beta)}: d={c.d}, N={c.N}, n={c.n}, sigma_a^2={c.sigma_a2:.4f}, sigma^2 in {c.sigma2s}, "
          f"{c.n_datasets} data sets, {c.nets_per_dataset} network(s) each, {c.steps} steps "
          f"(stored {m['created'][:10]}, {m['device']}, {m['wall_time_s'] / 60:.0f} min)")
glue("fin_wall", approx(sum(fe.manifest["wall_time_s"] for fe in finite.values()) / 60, 5), display=False)
for beta, fe in finite.items():
    display(finite_setup_table(beta, fe.langevin.config))


for beta, fe in finite.items():
    lv_f = fe.langevin
    ok = max(half_z(lv_f, "learned_linear"), half_z(lv_f, "learned_cubic")) < 3
    print(f"beta = {beta_label(beta)}: first vs second half of the samples agree within 3 standard errors: {ok}")
    lin, lin_se = component_stats(lv_f, "learned_linear")
    cub, cub_se = component_stats(lv_f, "learned_cubic")
    for s, s2 in enumerate(lv_f.sigma2s):
        t1, t2 = fe.theory_1d[s], fe.theory_2d[s]
        print(f"  sigma^2 = {s2:.2f}: learned linear {lin[s]:.3f} ± {lin_se[s]:.3f} (theory: paper's "
              f"{t1.learned_linear:.3f}, corrected {t2.learned_linear:.3f}); learned cubic {cub[s]:.4f} ± "
              f"{cub_se[s]:.4f} (paper's {t1.learned_cubic:.4f}, corrected {t2.learned_cubic:.4f})")

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_finite_histograms.png
# :name: fig-finite-histograms
#
# v1 Fig. 1 / v3 Fig. 2(a, b) with the paper's finite-data protocol: the negative log-probability of each
# neuron's overlap with the teacher at $\beta = 1/8$ (orange, $d = 53$) and $\beta = 1/2$ (blue,
# $d = 106$), with error bars from five subsets of networks, against the paper's theory (solid) and the
# corrected one (dashed) at the same sizes. Before the transition ($\sigma^2 = 0.25$) the curves rise
# monotonically; after it ($\sigma^2 = 0.10$) a second minimum, the droplet, appears near $|q| \approx 1$.
# ```

# %%
if have_finite:
    glue("fig_finite_histograms", plot_finite_histograms(finite), display=False)
    finite_curves = finite_theory_curves(finite, cfg.curve_sigma2s)

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_finite_components.png
# :name: fig-finite-components
#
# v1 Fig. 2 / v3 Fig. 2(c) with the paper's finite-data protocol: the learned linear (left) and cubic
# (right) components of the mean predictor against the noise, averaged over data sets (± standard error),
# at $\beta = 1/8$ (orange) and $1/2$ (blue), with the paper's theory (solid) and the corrected one
# (dashed) at the same sizes. Grey crosses: the infinite-data ensembles at $d = 53$ from above. Vertical
# lines: $\sigma_c^2$ of the paper's theory (solid) and of the corrected one (dash-dotted), $d \to \infty$.
# ```

# %%
if have_finite:
    glue("fig_finite_components", plot_finite_components(theory, finite, finite_curves, exp), display=False)

# %% [markdown]
# ### The paper's experimental claims at $\beta = 1/8$ and $1/2$
#
# We wrote these comparisons and their tolerances before looking at the stored runs. The runs were stored before
# the registry sealed claims, so nothing in the repository can show that order: the ledger marks every claim on
# them † (set after its result): exploratory results, which decide no verdict.
#
# 1. **Droplets after the transition** (v3 §3.1.1 and Fig. 2b: "a finite probability for
#    $\Phi \approx 1$"): at $\sigma^2 = 0.10$, $-\log p(|q|)$ has an interior minimum at $|q| = 1 \pm 0.15$,
#    deeper below its barrier than 3 standard errors (the depth's error from the five subsets).
# 2. **None before it** (v3 §3.1, Claim IV: below $u_c$ "the only saddle is that at $\Phi = 0$"; Fig. 2a): at $\sigma^2 = 0.25$ no interior minimum deeper than 2 standard errors.
# 3. **Agreement with the theory before the transition** (v3 §3.1.1: "all graphs show a good agreement
#    with theory as one scales up $\alpha = \beta$ before the transition"): at $\sigma^2 = 0.25$ the
#    histogram stays within 0.5 nats of the paper's theory at the same size, over the bins where the theory
#    is below 5 nats (a tenth of that range), and the largest difference is smaller at $\beta = 1/2$ than at
#    $1/8$.
#    The learned linear component at $\sigma^2 = 0.25$ (and 0.30 at $\beta = 1/8$) is within 5 % of the
#    paper's theory at the same size: the infinite-data ensembles show a finite-$N$ error of a few per cent,
#    and a finite-$n$ renormalization of the noise by the $d$ linear modes of the kernel adds an estimated
#    1–2 % at $\beta = 1/8$.
# 4. **The cubic component starts to be learned as $\sigma^2$ falls** (v3 §3.1.1, Fig. 2c): at
#    $\beta = 1/8$, $|\epsilon - c|$ grows at every step down the five noise levels.
# 5. **The transition sharpens as $\beta$ grows** (v3 §3.1.1: "as we increase $\alpha = \beta$ a sharp phase
#    transition develops"): the ratio of the learned cubic after and before the transition,
#    $(\epsilon - c)_{0.10} / (\epsilon - c)_{0.25}$, is larger at $\beta = 1/2$ than at $1/8$ (as both theories
#    predict at these sizes).
# 6. **Finite data learns less than infinite data** (a check of ours: the finite sum adds the other kernel
#    modes to the effective noise): at $\beta = 1/8$, $\sigma^2 = 0.15$ and 0.10, the learned cubic is at most
#    that of the infinite-data ensembles at the same size.

# %% tags=["hide-input"]
def finite_name(beta, what):
    return f"finite data beta={beta_label(beta)} (d={finite_data_config(beta).d}): {what}"


if have_finite:
    hist_dev, spreads = {}, finite_spreads(finite)  # seed errors: a bootstrap over data sets (finite_spreads)
    for beta, fe in finite.items():
        lv_f = fe.langevin
        s_after, s_before = lv_f.sigma2s.index(0.10), lv_f.sigma2s.index(0.25)
        after, before = droplet_significance(lv_f, s_after), droplet_significance(lv_f, s_before)
        hist_dev[beta] = histogram_deviation(lv_f, s_before, fe.theory_1d[s_before])
        print(f"beta = {beta_label(beta)}: sigma^2 = 0.10: droplet minimum at |q| = {approx(after['position'], 0.05)}, "
              f"{approx(after['depth'], 0.1)} nats below the barrier ({approx(after['z'], 1)} standard errors); "
              f"sigma^2 = 0.25: deepest interior dip {approx(before['z'], 1)} standard errors, largest distance "
              f"from the paper's theory {approx(hist_dev[beta], 0.05)} nats")
        for what, value, key in (
                ("sigma^2=0.10, droplet minimum position |q|", after["position"], "position"),
                ("sigma^2=0.10, droplet depth / its standard error", after["z"], "depth z"),
                ("sigma^2=0.25, deepest interior dip / its standard error", before["z"], "dip z"),
                ("sigma^2=0.25, max |-log p - paper's theory| below 5 nats", hist_dev[beta], "distance")):
            claims.check(finite_name(beta, what), value, live=False, run=fe.manifest, spread=spreads[beta, key])
    # a ratio of the two stored ensembles (label droplets-finite) judges both
    claims.check("finite data: histogram distance to the paper's theory at sigma^2=0.25, beta=1/2 over beta=1/8",
                 hist_dev[1 / 2] / hist_dev[1 / 8], live=False, run=[finite[1 / 2].manifest, finite[1 / 8].manifest],
                 spread=spreads["distance ratio"])

# %% tags=["hide-input"]
if have_finite:
    f8, f2 = finite[1 / 8], finite[1 / 2]
    cub8, _ = component_stats(f8.langevin, "learned_cubic")
    steps_up = int(np.sum(np.diff(np.abs(cub8)) > 0))  # the noise grid runs from 0.30 down to 0.10
    claims.check("finite data beta=1/8: steps down the noise grid at which |eps - c| grows (of 4)", steps_up,
                 live=False, run=f8.manifest)

    def cubic_contrast(fe):
        cub, _ = component_stats(fe.langevin, "learned_cubic")
        s2s = fe.langevin.sigma2s
        return cub[s2s.index(0.10)] / cub[s2s.index(0.25)]

    contrast = {beta: cubic_contrast(fe) for beta, fe in finite.items()}
    theory_contrast = {beta: fe.theory_1d[fe.langevin.sigma2s.index(0.10)].learned_cubic
                       / fe.theory_1d[fe.langevin.sigma2s.index(0.25)].learned_cubic for beta, fe in finite.items()}
    claims.check("finite data: cubic contrast (eps-c at 0.10 over 0.25), beta=1/2 over beta=1/8",
                 contrast[1 / 2] / contrast[1 / 8], live=False, run=[f2.manifest, f8.manifest],
                 spread=spreads["cubic contrast ratio"])

# %% tags=["hide-input"]
if have_finite:
    linear_ratio, linear_seeds = {}, {}
    for beta, s2 in ((1 / 8, 0.30), (1 / 8, 0.25), (1 / 2, 0.25)):
        fe = finite[beta]
        s = fe.langevin.sigma2s.index(s2)
        lin, _ = component_stats(fe.langevin, "learned_linear")
        linear_ratio[beta, s2] = lin[s] / fe.theory_1d[s].learned_linear
        # the ratio's per-seed values: one per data set, whose mean it is
        linear_seeds[beta, s2] = fe.langevin.dataset_means("learned_linear")[s] / fe.theory_1d[s].learned_linear
    ek_linear_ratio = (lv.learned_linear[lv.sigma2s.index(0.25)].mean()
                       / exp.theory_1d[lv.sigma2s.index(0.25)].learned_linear)
    for s2 in (0.30, 0.25):
        claims.check(finite_name(1 / 8, f"learned linear / paper's theory at sigma^2={s2:.2f}"),
                     linear_ratio[1 / 8, s2], live=False, run=f8.manifest, seeds=linear_seeds[1 / 8, s2],
                     evidence=f"with n = 375 samples the finite-data ensembles learn "
                              f"{100 * (1 - linear_ratio[1 / 8, s2]):.1f} % less of the linear component than the "
                              "paper's theory at the same size, while the infinite-data ensembles at the same d and "
                              f"N come within {trained(100 * abs(1 - ek_linear_ratio), 1)} % of it (sigma^2 = 0.25): a "
                              "finite-n effect, which the paper's scaling controls by sqrt(beta)/alpha (2.8 at "
                              "beta = 1/8, v3 App. A.1). At beta = 1/2 the gap is "
                              f"{100 * (1 - linear_ratio[1 / 2, 0.25]):.1f} %, inside the tolerance. Not run: "
                              "beta = 2.")
    claims.check(finite_name(1 / 2, "learned linear / paper's theory at sigma^2=0.25"), linear_ratio[1 / 2, 0.25],
                 live=False, run=f2.manifest, seeds=linear_seeds[1 / 2, 0.25])

# %% tags=["hide-input"]
if have_finite:
    ek_ratio = {}
    for s2 in (0.15, 0.10):
        ek_cubic = lv.learned_cubic[lv.sigma2s.index(s2)]  # live: one value per infinite-data network
        ek_ratio[s2] = cub8[f8.langevin.sigma2s.index(s2)] / ek_cubic.mean()
        # its spread: the live denominator's standard error over networks (the stored numerator is fixed)
        ek_spread = ek_ratio[s2] * ek_cubic.std(ddof=1) / np.sqrt(len(ek_cubic)) / abs(ek_cubic.mean())
        claims.check(f"finite/infinite data learned cubic, beta=1/8, sigma^2={s2:.2f}", ek_ratio[s2],
                     spread=ek_spread, run=f8.manifest)
    # beyond what was fixed in advance: at beta = 1/2, sigma^2 = 0.15 (below the corrected theory's transition,
    # above the paper's at d -> infinity) which theory does the histogram follow?
    s15 = f2.langevin.sigma2s.index(0.15)
    mid = droplet_significance(f2.langevin, s15)
    dev15 = {name: histogram_deviation(f2.langevin, s15, sol)
             for name, sol in (("paper", f2.theory_1d[s15]), ("corrected", f2.theory_2d[s15]))}
    claims.check("finite data beta=1/2, sigma^2=0.15: histogram distance, corrected over paper's theory",
                 dev15["corrected"] / dev15["paper"], live=False, run=f2.manifest,
                 spread=spreads["corrected over paper at 0.15"])
    cub_vs_paper8 = [c / t.learned_cubic for c, t in zip(cub8, f8.theory_1d)]

# %%
if have_finite:
    glue("fin_gap8", approx(100 * (1 - linear_ratio[1 / 8, 0.25]), 0.5), display=False)
    glue("fin_gap2", approx(100 * (1 - linear_ratio[1 / 2, 0.25]), 0.5), display=False)
    glue("fin_ek_lin", trained(100 * abs(1 - ek_linear_ratio), 0.5), display=False)
    glue("fin_cub_lo", approx(min(cub_vs_paper8), 0.05), display=False)
    glue("fin_cub_hi", approx(max(cub_vs_paper8), 0.05), display=False)
    glue("fin_ek_cub", trained(ek_ratio[0.15], 0.05), display=False)
    glue("fin_contrast8", approx(contrast[1 / 8], 0.1), display=False)
    glue("fin_contrast2", approx(contrast[1 / 2], 0.1), display=False)
    glue("fin_contrast_ratio", approx(contrast[1 / 2] / contrast[1 / 8], 0.05), display=False)
    glue("fin_contrast_theory", approx(theory_contrast[1 / 2] / theory_contrast[1 / 8], 0.05), display=False)
    glue("fin_z15", approx(mid["z"], 1), display=False)
    glue("fin_q15", approx(mid["position"], 0.05), display=False)
    glue("fin_dev15_paper", approx(dev15["paper"], 0.05), display=False)
    glue("fin_dev15_corr", approx(dev15["corrected"], 0.05), display=False)
    for beta, key in ((1 / 8, "8"), (1 / 2, "2")):
        lv_f = finite[beta].langevin
        after = droplet_significance(lv_f, lv_f.sigma2s.index(0.10))
        glue(f"fin_q{key}", approx(after["position"], 0.05), display=False)
        glue(f"fin_depth{key}", approx(after["depth"], 0.1), display=False)
        glue(f"fin_hist{key}", approx(hist_dev[beta], 0.05), display=False)
    print(f"learned cubic over the paper's theory at beta = 1/8: {approx(min(cub_vs_paper8), 0.05)} to "
          f"{approx(max(cub_vs_paper8), 0.05)}; cubic contrast 0.10/0.25: {approx(contrast[1 / 8], 0.1)} (beta = 1/8), "
          f"{approx(contrast[1 / 2], 0.1)} (beta = 1/2); beta = 1/2, sigma^2 = 0.15: interior minimum at "
          f"|q| = {approx(mid['position'], 0.05)}, {approx(mid['z'], 1)} standard errors deep")

# %% [markdown]
# **What the finite-data ensembles show.** All the comparisons written in advance hold but one. After the
# transition ($\sigma^2 = 0.10$) both sizes have the droplet minimum: at $|q| \approx$ {eval}`glued.fin_q8`,
# {eval}`glued.fin_depth8` nats below its barrier, at $\beta = 1/8$, and at $|q| \approx$ {eval}`glued.fin_q2`,
# {eval}`glued.fin_depth2` nats deep, at $\beta = 1/2$. Before it ($\sigma^2 = 0.25$) the histograms rise
# monotonically and stay within {eval}`glued.fin_hist8` nats ($\beta = 1/8$) and {eval}`glued.fin_hist2` nats
# ($\beta = 1/2$) of the paper's theory: closer at the larger size, as the paper reports. The cubic component
# grows at every step down in noise. Its contrast between $\sigma^2 = 0.10$ and 0.25 grows from
# {eval}`glued.fin_contrast8` at $\beta = 1/8$ to {eval}`glued.fin_contrast2` at $\beta = 1/2$, a factor
# {eval}`glued.fin_contrast_ratio` (the paper's theory at the same sizes: {eval}`glued.fin_contrast_theory`), so
# the transition sharpens with size. The exception is the linear component at $\beta = 1/8$: it lies
# {eval}`glued.fin_gap8` % below the paper's theory at $\sigma^2 = 0.25$, outside our 5 %. The infinite-data
# ensembles at the same size come within {eval}`glued.fin_ek_lin` %, and at $\beta = 1/2$ the gap is
# {eval}`glued.fin_gap2` %. It is a finite-$n$ effect and shrinks with $\beta$, as the paper's scaling
# implies; we register it as a deviation at $\beta = 1/8$.
#
# Two findings we had not planned to test:
#
# - At $\beta = 1/8$ the finite-data cubic is {eval}`glued.fin_cub_lo` to {eval}`glued.fin_cub_hi` times the
#   paper's theory at all five noise levels. The infinite-data ensembles instead follow the corrected
#   theory, and the finite-data ones learn only {eval}`glued.fin_ek_cub` of their cubic at $\sigma^2 = 0.15$.
#   At this size, the feature learning lost to finite $n$ happens to offset the error of the frozen norm.
# - At $\beta = 1/2$, where finite-$n$ effects are smaller, $\sigma^2 = 0.15$ already shows a droplet minimum
#   at $|q| \approx$ {eval}`glued.fin_q15`, {eval}`glued.fin_z15` standard errors deep. The corrected theory at
#   this size has it; the paper's only flattens. The histogram lies within {eval}`glued.fin_dev15_corr` nats
#   of the corrected theory, against {eval}`glued.fin_dev15_paper` nats of the paper's. The two theories'
#   $d \to \infty$ transitions ({eval}`glued.sc_corr` and {eval}`glued.sc_paper`) bracket this point, and the
#   larger ensemble sides with the corrected one.

# %% [markdown]
# ### The paper's base size, $\beta = 1$ (stored, claims sealed before the run)
#
# At $d = 53$ and 106 nothing separates the paper's critical noise ($\sigma_c^2 = 0.18$) from the corrected
# theory's (0.217): finite-size effects smear both transitions over the whole noise range. At the paper's base
# size ($d = 150$, $N = 700$, $n = 3000$) the two theories, each evaluated at $d = 150$, disagree by a factor of
# about two in the learned cubic between and just below the two critical points, and by about three in the
# fraction of neurons in the droplet, $P(|q| > 0.5)$, at $\sigma^2 = 0.20$. The stored run
# (`python -m repro.experiments.rubin2024_droplets --store book/_results --beta 1`,
# {eval}`glued.b1_minutes` minutes on one core) trains 10 networks (one per data set) at $\sigma^2 = 0.24$
# (above both critical points), 0.20 (between them), 0.17 and 0.14 (below both), 4000 Langevin steps as at the
# smaller sizes. Its claims were registered and sealed before it started. Each places ours between the two
# theories on a log scale, $\lambda = \log(\text{ours}/\text{paper's}) / \log(\text{corrected}/\text{paper's})$:
# 0 at the paper's theory, 1 at the corrected one. The paper's side holds if $\lambda \le 0.5$. The same
# $\lambda$ on the smaller ensembles, where the theories differ much less, is printed beside it as a calibration
# of how far finite $n$ alone moves it.

# %% tags=["hide-input"]
lv1, man1 = require_stored(stored_beta1("_results"), "beta = 1 ensembles",
                           "python -m repro.experiments.rubin2024_droplets --store book/_results --beta 1",
                           "about 40 minutes on one core")
print(provenance_line(man1))
glue("b1_minutes", f"{man1['wall_time_s'] / 60:.0f}", display=False)
c1 = lv1.config
ts1 = langevin_teacher(c1)
fe1 = FiniteEnsemble(1.0, lv1, man1, sweep_self_consistent(ts1, list(c1.sigma2s)),
                     sweep_self_consistent(ts1, list(c1.sigma2s), two_d=True, nq=601, nr=160))
display(beta1_setup_table(c1))


# %%
lam = follow_index_with_se  # lambda and its standard error
halves1 = max(half_z(lv1, "learned_linear"), half_z(lv1, "learned_cubic"))
print(f"beta = 1: first vs second half of the samples, largest |z| of the learned components: {approx(halves1, 0.1)}")
cub1, cub1_se = component_stats(lv1, "learned_cubic")
b1 = {}
for s, s2 in enumerate(c1.sigma2s):
    t1, t2 = fe1.theory_1d[s], fe1.theory_2d[s]
    frac, frac_se = droplet_fraction(lv1, s)
    b1[s2] = {"cubic": lam(cub1[s], cub1_se[s], t1.learned_cubic, t2.learned_cubic),
              "fraction": lam(frac, frac_se, t1.droplet_fraction, t2.droplet_fraction),
              "minimum": droplet_significance(lv1, s),
              "evidence": {  # what a deviation quotes: ours against both theories at d = 150
                  "cubic": f"learned cubic {cub1[s]:.4f} ± {cub1_se[s]:.4f} against {t1.learned_cubic:.4f} (the paper's "
                           f"theory) and {t2.learned_cubic:.4f} (corrected)",
                  "fraction": f"P(|q| > 0.5) {frac:.4f} ± {frac_se:.4f} against {t1.droplet_fraction:.4f} (the paper's "
                              f"theory) and {t2.droplet_fraction:.4f} (corrected)"}}
    print(f"sigma^2 = {s2:.2f}: learned cubic {cub1[s]:.4f} ± {cub1_se[s]:.4f} (paper's {t1.learned_cubic:.4f}, "
          f"corrected {t2.learned_cubic:.4f}; lambda {b1[s2]['cubic'][0]:.2f} ± {b1[s2]['cubic'][1]:.2f}); "
          f"P(|q| > 0.5) {frac:.4f} ± {frac_se:.4f} (paper's {t1.droplet_fraction:.4f}, corrected "
          f"{t2.droplet_fraction:.4f}; lambda {b1[s2]['fraction'][0]:.2f} ± {b1[s2]['fraction'][1]:.2f}); interior "
          f"minimum at |q| = {b1[s2]['minimum']['position']:.2f}, {b1[s2]['minimum']['z']:.1f} standard errors deep")
print("calibration, the same lambda at the smaller sizes:")
calibration = []
for beta, fe in finite.items():
    cub_f, cub_f_se = component_stats(fe.langevin, "learned_cubic")
    for s, s2 in enumerate(fe.langevin.sigma2s):
        t1, t2 = fe.theory_1d[s], fe.theory_2d[s]
        frac, frac_se = droplet_fraction(fe.langevin, s)
        calibration.append(lam(cub_f[s], cub_f_se[s], t1.learned_cubic, t2.learned_cubic)[0])
        print(f"  beta = {beta_label(beta)}, sigma^2 = {s2:.2f}: cubic lambda "
              f"{lam(cub_f[s], cub_f_se[s], t1.learned_cubic, t2.learned_cubic)[0]:.2f}, droplet-fraction lambda "
              f"{lam(frac, frac_se, t1.droplet_fraction, t2.droplet_fraction)[0]:.2f}")
glue("fig_beta1_histograms", plot_finite_histograms({1.0: fe1}, sigma2s=c1.sigma2s), display=False)

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_beta1_histograms.png
# :name: fig-beta1-histograms
#
# v3 Fig. 2(a, b) at the paper's base size $\beta = 1$ ($d = 150$): the negative log-probability of each
# neuron's overlap with the teacher over 10 networks (error bars from five subsets of networks) at four noise
# levels around the two critical points, against the paper's theory (solid) and the corrected one (dashed),
# both at $d = 150$. The corrected theory has the droplet minimum from $\sigma^2 \approx 0.19$ down; the paper's
# only near 0.14.
# ```
#
# {eval}`glued.b1_text`

# %% tags=["hide-input"]
B1 = "finite data beta=1 (d=150): "
spreads1 = beta1_spreads(lv1)  # seed errors of the checks without one: a bootstrap over the 10 networks
claims.check(B1 + "first vs second half of the samples, largest |z| of the learned components", halves1,
             live=False, run=man1, spread=spreads1["halves"])
calibration_text = (f"; on the smaller ensembles (beta = 1/8, 1/2) the cubic's lambda ran from {min(calibration):.2f} to "
                    f"{max(calibration):.2f}, where the two theories differ far less")
for s2 in (0.20, 0.17):
    value, se = b1[s2]["cubic"]
    claims.check(B1 + f"sigma^2={s2:.2f}, learned cubic, position between the theories (0 = paper's, 1 = corrected)",
                 value, live=False, run=man1, spread=se,
                 evidence=f"at sigma^2 = {s2:.2f}, d = 150: {b1[s2]['evidence']['cubic']}, lambda = {value:.2f} ± "
                          f"{se:.2f}: the networks learn more of the cubic than the paper's theory allows, as the "
                          f"corrected theory (transition at 0.217) predicts{calibration_text}")
value, se = b1[0.20]["fraction"]
claims.check(B1 + "sigma^2=0.20, droplet fraction P(|q|>0.5), position between the theories (0 = paper's, "
             "1 = corrected)", value, live=False, run=man1, spread=se,
             evidence=f"at sigma^2 = 0.20, d = 150: {b1[0.20]['evidence']['fraction']}, lambda = {value:.2f} ± "
                      f"{se:.2f}: more neurons sit in the droplet than the paper's theory allows before its transition")
_ = claims.check(B1 + "sigma^2=0.14, droplet depth / its standard error", b1[0.14]["minimum"]["z"], live=False, run=man1,
             spread=spreads1["depth z 0.14"])  # z's own seed error, not 1 (significance_spread)

# %%
glue("b1_text", "At σ² = 0.20, between the two critical points, the learned cubic sits at λ = "
     f"{b1[0.20]['cubic'][0]:.2f} ± {b1[0.20]['cubic'][1]:.2f} and the droplet fraction at λ = "
     f"{b1[0.20]['fraction'][0]:.2f} ± {b1[0.20]['fraction'][1]:.2f}; at 0.17 the cubic is at "
     f"{b1[0.17]['cubic'][0]:.2f} ± {b1[0.17]['cubic'][1]:.2f} (0: the paper's theory at d = 150, 1: the corrected "
     f"one). At 0.14 the droplet minimum lies at |q| = {b1[0.14]['minimum']['position']:.2f}, "
     f"{b1[0.14]['minimum']['z']:.1f} standard errors deep. "
     + ("All three lie past halfway towards the corrected theory, so the sealed reproductions (the paper's side) are "
        "recorded as deviations; their margins, in standard errors, are in the ledger. At 0.17 the histogram already "
        f"dips by {b1[0.17]['minimum']['z']:.1f} standard errors, a minimum only the corrected theory has at this "
        "size. The calibration above shows how far finite n alone moves lambda at the smaller sizes, where the two "
        "theories are close: this run is evidence for the corrected critical noise (0.217) over the paper's 0.18, "
        "from 10 networks and 4000 steps, not a proof. "
        if min(b1[0.20]["cubic"][0], b1[0.20]["fraction"][0], b1[0.17]["cubic"][0]) > 0.5 else
        "They do not all fall on one side of halfway, so this run does not decide between the two critical points. ")
     + "The ledger row \"Figs. 1–2 (experiments, β = 1)\" judges them.", display=False)

# %% [markdown]
# ### The Langevin step's bias (stored, claims sealed before the run)
#
# Our sampler is the unadjusted Langevin algorithm at step $h = 0.05$ in standardized coordinates. Its
# stationary law is not the posterior: on the unit-curvature prior alone it inflates the variance by
# $1/(1 - h/2) - 1 = 2.6\,\%$, and more where the likelihood is stiffer, by an amount no formula gives us. The
# bias is first order in $h$, so halving the step measures it: if a statistic reads $m(h) = m_0 + b\,h$, then
# $m(h) - m(h/2) = b\,h/2$, and twice the difference estimates the bias of the stored runs. The stored run
# `half_step_config()` repeats the $\beta = 1/8$ ensembles (same data sets, networks and seeds) at $h = 0.025$
# for twice the steps, recorded half as often (the same Langevin time and the same number of samples), at
# $\sigma^2 = 0.20$ and $0.10$, around and below the transition. It took {eval}`glued.hs_minutes` minutes on one
# core; `python -m repro.experiments.rubin2024_droplets --store book/_results --half-step` recomputes it. The two
# steps ran on the same data sets, so each difference is taken data set by data set (group by group of networks
# for the droplet fraction), and its standard error is that of the paired differences: the data sets' own
# spread, shared by both, cancels. (We first divided by the two ensembles' standard errors as if they were
# independent, which inflates the error many times over; the paired error makes the checks stricter.) Four checks
# were registered before it started: the learned components and the droplet fraction differ between the two
# steps by at most 3 standard errors, the cubic's first-order bias is within 10 % of its value, and the new
# ensembles are in equilibrium.

# %%
hs_res, hs_man = require_stored(stored_half_step("_results"), "half-step run",
                                "python -m repro.experiments.rubin2024_droplets --store book/_results --half-step",
                                "about 5 minutes on one core")
print(provenance_line(hs_man))
glue("hs_minutes", stored_minutes(hs_man), display=False)
hs_coarse = finite[1 / 8].langevin

# Paired by data set (components) and by group of networks (droplet fraction): both steps ran on the same data sets,
# whose spread would otherwise swamp the difference.
hs_stats = {"learned linear": step_difference(hs_coarse, hs_res, dataset_units("learned_linear")),
            "learned cubic": step_difference(hs_coarse, hs_res, dataset_units("learned_cubic")),
            "P(|q| > 0.5)": step_difference(hs_coarse, hs_res, droplet_fraction_units)}
for what, per in hs_stats.items():
    for s2, r in per.items():
        print(f"sigma^2 = {s2:.2f}, {what}: h = 0.05 {r['coarse']:.4f}, h = 0.025 {r['fine']:.4f}, difference "
              f"{r['diff']:+.4f} ± {r['se']:.4f} (z = {r['z']:+.1f}); first-order bias at h = 0.05: "
              f"{r['bias']:+.4f} ± {r['bias_se']:.4f} ({100 * r['bias'] / r['fine']:+.1f} % of the value)")
hs_halves = max(half_z(hs_res, "learned_linear"), half_z(hs_res, "learned_cubic"))
print(f"h = 0.025: first vs second half of the samples, largest |z| of the learned components: {approx(hs_halves, 0.1)}")

# %% tags=["hide-input"]
hs_spreads = step_spreads(hs_coarse, hs_res)  # the checks' seed errors: a bootstrap over data sets, paired
hs_z_comp = max(abs(r["z"]) for what in ("learned linear", "learned cubic") for r in hs_stats[what].values())
hs_z_frac = max(abs(r["z"]) for r in hs_stats["P(|q| > 0.5)"].values())
hs_cub = hs_stats["learned cubic"][0.10]
hs_rel, hs_rel_se = hs_cub["bias"] / hs_cub["fine"], abs(hs_cub["bias_se"] / hs_cub["fine"])
HS = "Langevin step, beta=1/8 (d=53): "
hs_comp_rel = max(abs(r["bias"] / r["fine"]) for what in ("learned linear", "learned cubic")
                  for r in hs_stats[what].values())
claims.check(HS + "largest |z| of h = 0.05 minus h = 0.025 over the learned linear and cubic components at "
             "sigma^2 = 0.20, 0.10", hs_z_comp, live=False, run=hs_man, spread=hs_spreads["components"],
             evidence=f"paired by data set, the two steps differ by up to {hs_z_comp:.1f} standard errors in the "
                      f"learned components: the step's bias is resolved, and at most {100 * hs_comp_rel:.1f} % of a "
                      "component's value")
claims.check(HS + "largest |z| of h = 0.05 minus h = 0.025 of the droplet fraction P(|q| > 0.5) at sigma^2 = 0.20, "
             "0.10", hs_z_frac, live=False, run=hs_man, spread=hs_spreads["fraction"])
claims.check(HS + "first-order bias of the learned cubic at h = 0.05, 2(c(h) − c(h/2)) / c(h/2), at sigma^2 = 0.10",
             hs_rel, live=False, run=hs_man, spread=hs_rel_se)
_ = claims.check("Langevin step, beta=1/8 (d=53), h = 0.025: first vs second half of the samples, largest |z| of the "
             "learned components", hs_halves, live=False, run=hs_man, spread=hs_spreads["halves"])

# %%
glue("hs_rel", f"{100 * hs_rel:+.1f}", display=False)
glue("hs_rel_se", f"{100 * hs_rel_se:.1f}", display=False)
glue("hs_z_comp", f"{hs_z_comp:.1f}", display=False)
glue("hs_z_frac", f"{hs_z_frac:.1f}", display=False)
glue("hs_comp_rel", f"{100 * hs_comp_rel:.1f}", display=False)
hs_lin_rel = max(abs(r["bias"] / r["fine"]) for r in hs_stats["learned linear"].values())
glue("hs_lin_rel", f"{100 * hs_lin_rel:.1f}", display=False)
glue("fig_step_bias", plot_step_bias(hs_stats), display=False)

# %% [markdown]
# ```{figure} _figures/rubin2024_droplets/fig_step_bias.png
# :name: fig-step-bias
#
# The Langevin step's first-order bias at $\beta = 1/8$: twice the paired difference between the stored runs at
# $h = 0.05$ and $h = 0.025$ (same data sets and seeds), as a percentage of the $h = 0.025$ value, for the two
# learned components and the droplet fraction, at two noise levels; bars are 95 % (1.96 paired standard errors).
# A bar that misses zero is a resolved bias; its height says how large it is.
# ```
#
# The step's bias is resolved but small. Paired data set by data set, the two steps differ by up to
# {eval}`glued.hs_z_comp` standard errors in the learned components, so the registered check (at most 3) fails
# and is recorded as a deviation from our own bound. In size, the first-order bias of the stored $h = 0.05$ runs
# is at most {eval}`glued.hs_lin_rel` % of the learned linear component and {eval}`glued.hs_comp_rel` % of either
# component; for the cubic at $\sigma^2 = 0.10$ it is {eval}`glued.hs_rel` ± {eval}`glued.hs_rel_se` %, inside
# the 10 % we allowed. The droplet fraction does not resolve it ({eval}`glued.hs_z_frac` standard errors at most).
# The differences the chapter's claims judge are far larger: at $\beta = 1$ the two theories' learned cubics
# differ by a factor of about two. No verdict in this chapter hangs on the step size. We measured it at
# $\beta = 1/8$ only; at larger $\beta$ the likelihood is stiffer and the bias could be larger.

# %% [markdown]
# ## Paper versus ours
#
# The ledger for the droplets paper, in v1's figure numbering: {eval}`glued.ledger_tally`. Each of v1 Figs.
# 1 and 2 is split into its theory lines, which we reproduce from the paper's equations, and its
# experimental points, which we judge on our finite-data ensembles at the paper's two smallest sizes
# ($\beta = 1/8$ and 1/2, stored) and, in their own row, at its base size $\beta = 1$ (stored, claims sealed
# before the run). The infinite-data ensembles stand beside them as checks of the theory.

# %% tags=["hide-input", "hide-output"]
claims.figure("rubin2024", "Fig. 1 (theory)", claims=[
    "d=150, sigma^2=0.10: droplet minimum position q*, paper's theory",
    "d=150, sigma^2=0.10: -log p(q=0.9) - (-log p(0)), paper's theory (nats)",
    "d=150, sigma^2=0.10: -log p(q=1.0) - (-log p(0)), paper's theory (nats)",
    "teacher-student droplet saddle position q* at the paper's transition (d -> infinity), paper's theory"],
    why="at the paper's size d = 150 and sigma^2 = 0.10 its action (v1 Eq. 14 / v3 Eq. 13, self-consistent b, c) has "
        "the droplet minimum at q ≈ 1, as v3 Fig. 2b draws it after the transition, but there v1 §3.1.2 says the theory is no longer "
        f"accurate; at the transition, where v3 Claim IV puts the saddles roughly at ±1, they sit at {cp.q_star:.2f} (†)")
claims.figure("rubin2024", "Fig. 2 (theory)", claims=[
    "teacher-student sigma_c^2, paper's 1-D theory",
    "teacher-student u_c, paper's 1-D theory",
    "teacher-student sigma_c^2 of the corrected theory vs the paper's",
    "teacher-student sigma_c^2, corrected 2-D theory (solver)",
    "GFL linear discrepancy b at sigma^2=0.30", "GFL linear discrepancy b at sigma^2=0.25",
    "GFL linear discrepancy b at sigma^2=0.20", "GFL linear discrepancy b at sigma^2=0.18",
    "learned cubic eps-c at sigma^2=0.15, paper's theory, d=1e4",
    "learned cubic eps-c at sigma^2=0.10, paper's theory, d=1e4"],
    why="the paper's equations give its critical noise (≈ 0.18) and the cubic's onset there, but u_c "
        f"{100 * (cp.u / 30.2 - 1):.1f} % above its 30.2 (†); with the orthogonal norm marginalized, which the infinite-data ensembles follow, the "
        "transition moves to 0.217")
ek_hist_checks = ["Langevin (infinite data) d=53, sigma^2=0.10: droplet minimum position |q|",
                  "Langevin (infinite data) d=53, sigma^2=0.10: droplet barrier depth (nats)",
                  "Langevin (infinite data) d=53, sigma^2=0.25: second-minimum depth (nats)"]
ek_component_checks = ["Langevin (infinite data)/corrected-theory learned cubic at sigma^2=0.15",
                       "error ratio corrected/paper theory, learned cubic, sigma^2=0.15",
                       "Langevin (infinite data)/corrected-theory learned cubic at sigma^2=0.10",
                       "error ratio corrected/paper theory, learned cubic, sigma^2=0.10"]
if have_finite:
    claims.figure("rubin2024", "Fig. 1 (experiments)", scale="paper (CPU, stored)", claims=[
        finite_name(b, what) for b in FINITE_BETAS for what in (
            "sigma^2=0.10, droplet minimum position |q|", "sigma^2=0.10, droplet depth / its standard error",
            "sigma^2=0.25, deepest interior dip / its standard error",
            "sigma^2=0.25, max |-log p - paper's theory| below 5 nats")] + [
        "finite data: histogram distance to the paper's theory at sigma^2=0.25, beta=1/2 over beta=1/8",
        "finite data beta=1/2, sigma^2=0.15: histogram distance, corrected over paper's theory"] + ek_hist_checks
        + [HS + "largest |z| of h = 0.05 minus h = 0.025 of the droplet fraction P(|q| > 0.5) at sigma^2 = 0.20, 0.10"],
        why="† : the stored runs predate sealed claims. Finite-data ensembles at the paper's two smallest sizes "
            "(beta = 1/8, 1/2; fewer networks and steps): droplets at |q| ≈ 1 after the transition, none before, "
            "agreement with the theory improving with beta; beta = 1 in its own row, beta = 2 not run")
    claims.figure("rubin2024", "Fig. 2 (experiments)", scale="paper (CPU, stored)", claims=[
        "finite data beta=1/8: steps down the noise grid at which |eps - c| grows (of 4)",
        "finite data: cubic contrast (eps-c at 0.10 over 0.25), beta=1/2 over beta=1/8",
        finite_name(1 / 2, "learned linear / paper's theory at sigma^2=0.25"),
        finite_name(1 / 8, "learned linear / paper's theory at sigma^2=0.30"),
        finite_name(1 / 8, "learned linear / paper's theory at sigma^2=0.25"),
        "finite/infinite data learned cubic, beta=1/8, sigma^2=0.15",
        "finite/infinite data learned cubic, beta=1/8, sigma^2=0.10"] + ek_component_checks + [
        HS + "largest |z| of h = 0.05 minus h = 0.025 over the learned linear and cubic components at sigma^2 = 0.20, "
        "0.10", HS + "first-order bias of the learned cubic at h = 0.05, 2(c(h) − c(h/2)) / c(h/2), at sigma^2 = 0.10",
        "Langevin step, beta=1/8 (d=53), h = 0.025: first vs second half of the samples, largest |z| of the learned "
        "components"],
        why="† : the stored runs predate sealed claims. At beta = 1/8 and 1/2 the cubic is learned below the "
            "transition and the transition sharpens with beta; the linear component is within 5 % of the theory at "
            "beta = 1/2 but not at 1/8 (finite n)")
else:
    for fig, checks in (("Fig. 1 (experiments)", ek_hist_checks), ("Fig. 2 (experiments)", ek_component_checks)):
        claims.figure("rubin2024", fig, claims=checks,
                      why="the finite-data ensembles are not stored; infinite-data ensembles at d = 53 check the "
                          "theory only")
claims.figure("rubin2024", "Fig. 3", claims=[
    "modular: droplet-saddle height P s(x+) at the paper's onset 0.227 (nats)",
    "modular, k and P-k counted as one complex mode (weight 4e^{-2S_k}): droplet-saddle exponent 2P s(x+) at the "
    "paper's onset 0.227 (nats)",
    "modular, k and P-k counted as one complex mode: discrepancy a at the end of GMFL-I (self-consistent at "
    "sigma_c2^2, P = 401)",
    "modular GMFL-II onset sigma_c2^2", "modular discrepancy a at the end of GMFL-I",
    "modular GMFL-I onset sigma_c1^2 (closed form, P -> inf)",
    "modular: |a| falls monotonically across GMFL-I (1 = yes)",
    "modular: droplet weight per mode at sigma^2=0.15, exact kernel eigenvalue"],
    why="with the paper's eigenvalue normalization its boundaries and discrepancy follow to the digits it gives; "
        "with the exact kernel eigenvalue GMFL-II is never reached")
claims.figure("rubin2024", "Fig. 4 (v3 App. D)", claims=[],
              why="-log p(w·w*) at N = 2800, 1400, 700 (n = 600, 50 networks, 7·10⁶ epochs): the paper-scale "
                  "configs exist (repro.experiments.rubin2024_droplets.time_dependent_config); their projected cost, thousands of CPU "
                  "core-hours or hours of one GPU, is in the README (python -m repro.book.paper_scale --chapter "
                  "rubin2024_droplets); no reduced run was attempted, as the effect develops over millions of epochs")
for fig, what in (("Fig. 5 (v3 App. D)", "train and test loss over 7·10⁶ epochs"),
                  ("Fig. 6 (v3 App. D)", "output projections on H1 and H3 over training")):
    claims.figure("rubin2024", fig, claims=[],
                  why=f"v3's time-dependent grokking ({what}) needs the App. D runs of Fig. 4 and a recorder of the "
                      "loss over time, which the sampler does not have")
claims.figure_from("rubin2024", "Figs. 1–2 (experiments, β = 1)", B1, scale="paper (CPU, stored)", why=(
    f"The paper's base size (d = 150, 10 networks, sealed claims): between the two critical points (sigma^2 = 0.20) "
    f"the learned cubic is at lambda = {b1[0.20]['cubic'][0]:.2f} and the droplet fraction at "
    f"{b1[0.20]['fraction'][0]:.2f} (0: the paper's theory, 1: the corrected one)"))
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

# %% [markdown]
# ## Deviations and what they mean
#
# - **The paper's theory freezes $|w_\perp|^2$; that shifts the teacher–student transition.** With the
#   orthogonal norm marginalized the $d \to \infty$ transition is at $\sigma^2_c =$ {eval}`glued.sc_corr`
#   ($u_c =$ {eval}`glued.uc_corr`), not {eval}`glued.sc_paper` ($u_c =$ {eval}`glued.uc_paper`). The
#   infinite-data ensembles side with the corrected theory: their droplet neurons shrink $|w_\perp|^2$ well
#   below its prior value, their histograms follow the red curves, and their cubic component is
#   {eval}`glued.cubic_vs_paper` times the paper's theory's at the same $d = 53$ at $\sigma^2 = 0.15$. We report
#   both critical points. The paper's own number ($\approx 0.18$) is reproduced by its own equations once the
#   $4/\pi$ typo in $\tilde Q_{11}$ is fixed; its finer $u_c \approx 30.2$ is not: we get {eval}`glued.uc_paper`.
# - **Where the droplets appear.** v3 Claim IV puts the new saddles "roughly at $\pm 1$" at the transition; the
#   paper's own action has them at {eval}`glued.q_c_paper` there, and reaches $q \approx 1$ only well below it
#   ($\sigma^2 = 0.10$), where v1 §3.1.2 says the theory is no longer accurate.
# - **Modular boundaries.** The paper's 0.227 is where the droplet saddle comes within a few nats of the
#   origin at $P = 401$; the sharp large-$P$ boundary is {eval}`glued.s2_c1`. Its "≈ 0.175" and "−1 → −0.7
#   (30 %)" match our {eval}`glued.s2_c2` and −1 → {eval}`glued.a_c2` ({eval}`glued.drop` %) to the digits it
#   gives, in the paper's normalization of the eigenvalue, and under either count of the conjugate modes
#   $k$, $P-k$ (the weight's exponent is fixed by the GPR equation; only the per-index $S_k$ halves); with the
#   exact eigenvalue GMFL-II disappears (the deviation above). No network was trained on modular addition, in the paper or here.
# - **Finite data, at three of the four sizes.** The paper's experimental points are finite-data
#   ensembles (v3 App. C: 50 data sets × at least 4 networks, 360k epochs, at $\beta = \alpha \in \{1/8, 1/2, 1, 2\}$),
#   with finite-$n$ corrections controlled by $\sqrt\beta/\alpha$ (v3 App. A.1), largest at the smallest
#   size. We ran $\beta = 1/8$ (50 data sets × 2 networks) and $1/2$ (10 data sets × 1 network, three noise
#   levels), 4000 steps each. Their histograms show the droplets and the improving agreement with
#   theory, and their cubic component shows the onset and the sharpening with $\beta$ (claims marked †: the runs
#   were stored before claims were sealed, so they are exploratory). At
#   $\beta = 1/8$ finite $n$ costs {eval}`glued.fin_gap8` % of the linear component against the paper's
#   theory at $\sigma^2 = 0.25$ (a deviation beyond our 5 %), and {eval}`glued.fin_gap2` % at $\beta = 1/2$.
#   At these sizes the transition is still a crossover: the cubic is learned a little well above
#   $\sigma_c^2$. Its sharpening is visible between the two sizes. At the base size $\beta = 1$ (10 networks,
#   four noise levels, 4000 steps) the learned cubic and the droplet fraction between and just below the two
#   critical points lie nearer the corrected theory than the paper's (the sealed reproductions became
#   deviations), but with a tenth of the paper's networks and a calibration at the smaller sizes that scatters by
#   tenths; $\beta = 2$ was not run.
# - **The sampler's step.** Our unadjusted Langevin step $h = 0.05$ (in standardized coordinates) inflates the
#   prior's variance by 2.6 % ($1/(1 - h/2)$), more where the likelihood is stiffer. Halving it at $\beta = 1/8$
#   resolves the bias on the learned components ({eval}`glued.hs_z_comp` standard errors, a deviation from the
#   check we registered) but bounds its size: at most {eval}`glued.hs_comp_rel` % of a component, and not
#   resolved in the droplet fraction. Larger $\beta$, with a stiffer likelihood, was not measured.
# - **Residual mean-field error.** At $N = 88$ the ensembles' learned linear component is about
#   {eval}`glued.linear_gap` % below the corrected theory and the cubic about {eval}`glued.cubic_gap` % below at
#   $\sigma^2 = 0.10$; the mean-field decoupling is exact only as $N \to \infty$.
# - **Definition of "non-negligible".** The v1 text (§3.1.2) defines the teacher–student transition by a
#   threshold on the droplet saddle whose value was stripped; we use the $d \to \infty$ definition, for
#   which every threshold gives the same $\sigma_c^2$ (as the paper remarks).

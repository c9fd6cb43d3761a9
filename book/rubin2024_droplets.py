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
# **The figure that shows it:** [Rubin et al. 2024, Fig. 2 in the v1 layout (ours)](#fig-components).
#
# **Rubin, Seroussi & Ringel 2024 (droplets), claim by claim** — 13 paper claims: 5 reproduced, 0 not reproduced (rate 5/5); 6 inconclusive, 2 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ❔ inconclusive | T46: 0.65 vs paper <= 0.5 | “Our mean-field decoupling amounts to replacing … by its average under the action one gets from making this replacement. The justification for this …” | Fig. 1, Fig. 2 |
# | **C2** | ✅ reproduced | T10: 0.951 vs paper 1 ± 0.15 | “This also reveals the source of potential phase transitions. Indeed at large …, the saddles with the lowest action dominate the weights’ probability. …” | Fig. 1 |
# | **C3** | ✅ reproduced | T01: 0.179 vs paper 0.18 ± 0.005 | “We define the transition to this phase as the point at which the new saddle reaches a non-negligible value defined here as … (solid black line). …” | Fig. 1, Fig. 2 |
# | **C4** | ❔ inconclusive | T28 †: 0 vs paper <= 2 | “Increasing the effective amount of data by decreasing …, initially only changes the Gaussian fluctuations of the weights along the teacher direction …” | Fig. 1 |
# | **C5** | ❔ inconclusive | T49: 8 vs paper >= 3 | “By lowering … further, new distinct saddle points appear and become more probable, thereby marking the beginning of the mixed Gaussian phase, GMFL-I.” | Fig. 1 |
# | **C6** | ❔ inconclusive | T48: 0.78 vs derivation <= 0.5 | “To validate the theoretical model, we trained multiple ensembles of networks with different initialization seeds and compared their weight …” | Fig. 1 |
# | **C7** | ❔ inconclusive | T46: 0.65 vs paper <= 0.5 | “Turning to the outputs of the network, Fig. 2 shows the overlap of the network’s output with the linear (left) and cubic (right) teacher components … …” | Fig. 2 |
# | **C8** | ⏳ not tested | not tested: no registered comparison sets the learned cubic at n = 3000 (or n = 375 at beta = 1/8) against … | “Notably, an FCN NNGP kernel induces a uniform prior over cubic polynomials (i.e. all hyper-spherical harmonics). As there are … of those it requires …” | Fig. 2 |
# | **C9** | ❔ inconclusive | T17: 1 vs paper 1 ± 0 | “Conveniently, at any point prior to the phase transition, the resulting equation for … is trivial. … In this region, … stays constant at its infinite …” | Fig. 3 |
# | **C10** | ✅ reproduced | T14: 3.12 vs paper <= 5 | “Staring at large … (and solving for … numerically), the … saddles are exponentially suppressed in …, yet nonetheless become more probable as … …” | Fig. 3 |
# | **C11** | ✅ reproduced | T15: 0.176 vs paper 0.175 ± 0.002 | “Had we zoomed in further, we would see a very minor change to these saddle’s height throughout the mixed phase, as they go from being above the … …” | Fig. 3 |
# | **C12** | ✅ reproduced | T16: -0.746 vs paper -0.7 ± 0.05 | “Notably …, which measures here the test-RSME, goes from … at the beginning of GMFL-I to … at its end. Over this small interval of … we observe a … …” | Fig. 3 |
# | **C13** | ⏳ not tested | not tested: no network was trained on modular addition, here or in the paper; the chapter derives the cosine … | “Our analytical results are consistent with the experiments carried out in Ref. Gromov (2023). Indeed as we enter GMFL-I, weights sampled near the … …” | v1 §3.2.2, last paragraph (v3 §3.2.1) |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
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

from repro.book.claims import ClaimBook
from repro.book.readouts import rubin2024_droplets as readout
from repro.book.readouts import rubin2024_droplets_stored as readout_stored
from repro.core.prose import glue
from repro.experiments.rubin2024_droplets import (DropletsConfig, finite_theory_curves, load_finite, run_experiments,
                                                  run_theory)
from repro.plotting.rubin2024_droplets import (plot_components, plot_finite_components, plot_finite_histograms,
                                               plot_histograms, plot_landau, plot_modular, plot_step_bias)
from repro.plotting.shared import use_style
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
readout.report_config(cfg)

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
readout.report_critical_points(theory)

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
readout.report_modular_bounds(theory)

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
# **The eigenvalue's normalization.** The boundaries above need the paper's droplet eigenvalue
# $\lambda = \sigma_a^2\langle\Phi\Psi\rangle$. The eigenvalue of the $P^2\times P^2$ kernel matrix on the
# target is $4P^2$ times larger (under the prior, $\langle\Phi\Psi\rangle = P^{-2}$ while the Gaussian-process
# kernel's eigenvalue on a Fourier mode is $4\sigma_a^2$; `tests/test_theory_rubin2024.py` checks it by brute force).
# With the exact eigenvalue the mixed phase starts at the same $\sigma^2_{c1}$ and $|a|$ is pinned the same
# way, but a tiny droplet fraction already saturates the eigenvalue, so the droplets never take over:
# at $\sigma^2 = 0.15$ their weight per mode is {eval}`glued.p_exact_015` instead of about 1, and GMFL-II
# (the paper's "≈ 0.175") does not exist at these parameters. We register that as a deviation.

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
readout.report_live_halves(exp)

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
# **Rubin et al. 2024, Fig. 2 in the v1 layout (ours).** The learned linear (left) and cubic (right) components of the mean predictor
# against the noise. Lines: the paper's theory (dashed blue, $d = 10^4$), the corrected theory ($d = 2000$,
# red; thick pale red at the ensembles' $d = 53$). Crosses: infinite-data Langevin ensembles at $d = 53$
# (mean ± standard error over networks), not the paper's finite-data experiments. Vertical lines:
# $\sigma_c^2$ of the paper's theory (solid) and of the corrected one (dash-dotted). The cubic component,
# out of reach of the NNGP (which would need $n \sim d^3/6$ samples), starts being learned at the transition.
# ```

# %%
glue("fig_components", plot_components(cfg, theory, exp), display=False)

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
have_finite = readout_stored.report_finite(finite)

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
# **What the finite-data ensembles show.** All the comparisons written in advance (listed under
# *Evidence*) hold but one. After the
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
fe1 = readout_stored.load_beta1("_results")

# %%
halves1 = readout_stored.report_halves(fe1.langevin, "beta = 1")
b1 = readout_stored.report_beta1(fe1)
calibration = readout_stored.report_calibration(finite)
glue("fig_beta1_histograms", plot_finite_histograms({1.0: fe1}, sigma2s=fe1.langevin.config.sigma2s), display=False)

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

# %%
readout_stored.glue_beta1_text(b1)

# %% [markdown]
# ## Paper versus ours
#
# The ledger for the droplets paper, in v1's figure numbering: {eval}`glued.ledger_tally`. Each of v1 Figs.
# 1 and 2 is split into its theory lines, which we reproduce from the paper's equations, and its
# experimental points, which we judge on our finite-data ensembles at the paper's two smallest sizes
# ($\beta = 1/8$ and 1/2, stored) and, in their own row, at its base size $\beta = 1$ (stored, claims sealed
# before the run). The infinite-data ensembles stand beside them as checks of the theory. The ledger's tables, and how
# each claim is checked, are in *Evidence* at the end.

# %% [markdown]
# ### Deviations and what they mean
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
#   exact eigenvalue GMFL-II disappears (the eigenvalue's normalization, above). No network was trained on modular addition, in the paper or here.
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

# %% [markdown]
# ## Evidence
#
# What follows is how each claim is checked: the sanity check of the integrals, the checks of both theories and of the
# infinite-data ensembles, the claims on the stored finite-data runs, the measurement of the sampler's step bias, each
# with its reference, tolerance and resolution, and then the claim tables. The verdicts in the summary at the top follow
# from these tables by the decision rules on the reproduction-status page.

# %% [markdown]
# ### Sanity check: the integrals every formula rests on
#
# The theory needs two Gaussian integrals of the erf activation: the arcsine kernel
# $\langle \mathrm{erf}(w\cdot x)\,\mathrm{erf}(w'\cdot x)\rangle$ and the projections of
# $\mathrm{erf}(w \cdot x)$ on the normalized Hermite polynomials of the teacher direction (v1 App. A.4).
# We compare both with a Monte Carlo average over $2\cdot 10^5$ Gaussian inputs, with the standard
# Monte Carlo error of $\pm 0.01$ (about 3 standard errors).

# %%
readout.check_erf_integrals()

# %% [markdown]
# ### The theory's checks
#
# The theory lines of v1 Figs. 1–3 against the paper's numbers and against an independent solution of the same
# equations.

# %% [markdown]
# #### Checks of the teacher–student theory
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
readout.record_critical_points(claims, theory)
readout.record_teacher_curves(claims, theory)

# %% [markdown]
# #### Checks of the modular theory
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

# %% tags=["hide-input"]
readout.record_modular_theory(claims, theory)

# %% [markdown]
# Reading "within $O(1)$" as 1 nat would put the onset at $\sigma^2 =$ {eval}`glued.onset_k1`, as 5 nats at
# {eval}`glued.onset_k5`; the paper's 0.227 lies between. Across the mixed phase $|a|$ falls by
# {eval}`glued.drop` %, the paper's "30 %" to its one digit.
#
# #### The mode count: $k$ and $P-k$ are one complex mode
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
readout.record_mode_count(claims, theory)

# %% [markdown]
# ### The experiments' checks
#
# The Langevin ensembles: the infinite-data ones against the theory, the paper's finite-data experiment at three of its
# sizes, and the sampler's step.

# %% [markdown]
# #### Checks of the theory against the infinite-data ensembles
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
readout.record_infinite_data(claims, exp)

# %% [markdown]
# #### The paper's experimental claims at $\beta = 1/8$ and $1/2$
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
if have_finite:
    hist_dev, spreads = readout_stored.record_finite_histograms(claims, finite)

# %% tags=["hide-input"]
if have_finite:
    contrast, theory_contrast = readout_stored.record_cubic_onset(claims, finite, spreads)

# %% tags=["hide-input"]
if have_finite:
    linear_ratio, ek_linear_ratio = readout_stored.record_linear_component(claims, finite, exp)

# %% tags=["hide-input"]
if have_finite:
    ek_ratio = readout_stored.record_finite_over_infinite(claims, finite, exp)
    mid, dev15 = readout_stored.record_which_theory_at_015(claims, finite, spreads)

# %%
if have_finite:
    readout_stored.report_finite_findings(finite, hist_dev=hist_dev, contrast=contrast, theory_contrast=theory_contrast,
                                          linear_ratio=linear_ratio, ek_linear_ratio=ek_linear_ratio,
                                          ek_ratio=ek_ratio, mid=mid, dev15=dev15)

# %% [markdown]
# #### The base size, $\beta = 1$: its sealed claims
#
# The stored run at $\beta = 1$ (above, with its $\lambda$ and the calibration) is judged here by the claims registered and
# sealed before it ran: its two halves of samples agree (equilibrium); the learned cubic at $\sigma^2 = 0.20$ and 0.17 and
# the droplet fraction at 0.20 lie on the paper's side, $\lambda \le 0.5$; and the depth of the droplet minimum at
# $\sigma^2 = 0.14$, in standard errors.

# %% tags=["hide-input"]
readout_stored.record_beta1(claims, fe1, b1=b1, halves=halves1, calibration=calibration)

# %% [markdown]
# #### The Langevin step's bias (stored, claims sealed before the run)
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
hs_res, hs_man = readout_stored.load_half_step("_results")
hs_coarse = finite[1 / 8].langevin
hs_stats = readout_stored.report_step_difference(hs_coarse, hs_res)
hs_halves = readout_stored.report_halves(hs_res, "h = 0.025")

# %% tags=["hide-input"]
hs = readout_stored.record_step_bias(claims, hs_stats, hs_coarse=hs_coarse, hs_res=hs_res, hs_man=hs_man,
                                     hs_halves=hs_halves)

# %%
readout_stored.glue_step_bias(hs_stats, hs)
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
# ### The claim tables
#
# Every registered test, claim by claim: ours against the reference, its margin in seed standard errors, and the
# verdict with its reason (the tally is quoted in *Paper versus ours*).

# %% tags=["hide-input", "hide-output"]
readout.record_theory_rows(claims, theory)
readout.record_experiment_rows(claims, have_finite)
readout.record_modular_row(claims)
readout.record_unrun_rows(claims)
readout.record_beta1_row(claims, b1)
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

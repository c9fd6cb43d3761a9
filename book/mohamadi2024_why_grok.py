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
# # Why do you grok? Kernels cannot, rich networks can
#
# **The claim** (Mohamadi, Li, Wu & Sutherland 2024, *Why Do You Grok? A Theoretical Analysis of Grokking
# Modular Addition*, ICML 2024, [arXiv 2407.12332](https://arxiv.org/abs/2407.12332)). Take the two-layer network with quadratic activation
# and no biases, $f(\theta; (e_a, e_b)) = V\,(W (e_a, e_b))^{\odot 2}$ with $W \in \mathbb{R}^{h\times 2p}$ and
# $V \in \mathbb{R}^{p\times h}$ (Eq. 2.1). The paper argues that grokking is the switch from a *kernel*
# regime to a *rich* regime:
#
# 1. Early in training the network behaves like its empirical neural tangent kernel (eNTK), and that
#    kernel can already interpolate the training set once $h \gtrsim n/p$ (Thm 3.1).
# 2. No permutation-equivariant kernel method, and the eNTK at init is one, generalizes on modular
#    addition without a constant fraction of all the data (Thm 3.4 for regression, Thm 4.3 for
#    classification).
# 3. Networks with a small $\ell_\infty$ norm, or a large normalized margin, do generalize from
#    $\tilde O(p^2)$ regression triples or $\tilde O(p^{5/3})$ classification pairs (Thms 3.6 and 4.5). Such
#    networks exist: an explicit Fourier network with $\|\theta\|_\infty = 1$ solves the task exactly for
#    every $p$ (Prop. 3.8, App. F).
# 4. So gradient descent first fits the training set kernel-like, and generalizes only once its eNTK
#    has moved far away (Figs 1, 2 and 5). A smaller initialization shrinks the gap between fitting and
#    generalizing (Figs 1 and 2).

# %% [markdown]
# % generated: claims-summary
#
# **The figure that shows it:** [Mohamadi et al. 2024, Fig. 1 (ours, book scale)](#fig-mohamadi-class).
#
# **Mohamadi et al. 2024 (Why do you grok?), claim by claim** — 17 paper claims: 5 reproduced, 0 not reproduced (rate 5/5); 6 inconclusive, 6 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ❔ inconclusive | T06 †: 1 vs paper >= 1 | “Our first result shows that kernel regression with the empirical neural tangent kernel of our quadratic network achieves zero training loss if the …” | Thm 3.1 |
# | **C2** | ⏳ not tested | not tested: the chapter neither trains a network on a permuted dataset nor checks the equivariance of its … | “Training a two-layer neural network with quadratic activations … initialized with random i.i.d. parameters using gradient-based update rules (such as …” | Thm 3.3, Prop. 4.2 |
# | **C3** | ✅ reproduced | T65: 0.68 vs paper >= 0.5 | “any such kernel predictor needs at least …, or equivalently …, to generalize on the modular addition task; otherwise it cannot do substantially …” | Thm 3.4 |
# | **C4** | ⏳ not tested | not tested: only m = 3 (Thm 3.4) is run | “Consider the problem of learning modular addition over …-summands with a training set of size … using a permutation equivariant kernel method … the …” | Thm 3.5 |
# | **C5** | ⏳ not tested | not tested: no interpolator with near-minimal ‖θ‖∞ at h ≥ 8p is built from a training set and evaluated (the … | “We further establish that if the network manages to achieve zero training error with small …, it will generalize with only a … portion of the overall …” | Thm 3.6, Prop. 3.7 |
# | **C6** | ✅ reproduced | T01: 1 vs paper 1 ± 0 | “The main difficulty is a manual Fourier-based construction of a zero-loss solution with … and … norm at most one; … because our model is …” | Prop. 3.8 |
# | **C7** | ❔ inconclusive | T53: 0.10 vs paper 1 ± 0.05 | “We also prove that such networks exist (Proposition 3.8), and demonstrate that gradient descent can find them with a small amount of explicit …” | Fig. 3 left, Fig. 2 left |
# | **C8** | ⏳ not tested | not tested: ‖θ‖∞ after grokking needs regression runs that grok at several p; none does (C7) | “In Figure 3, we empirically evaluate the … norm of weights learned by running gradient descent on the regression task, with varying …, and a very …” | Fig. 3 right |
# | **C9** | ❔ inconclusive | T55: never reached vs paper <= 0 | “Figure 2 confirms that in our setting: using a very small weight initialization can substantially mitigate the grokking effect by preventing the …” | Fig. 2 left |
# | **C10** | ⏳ not tested | not tested: the stored regression runs record the eNTK on 1,000 triples (not 20,000) every 20,000 steps … | “We see that the change in empirical NTK is orders of magnitude larger after overfitting the training set, implying that most feature learning happens …” | Fig. 2 right |
# | **C11** | ✅ reproduced | T67: 0.63 vs paper >= 0.5 | “The following theorem establishes that any such kernel learning algorithm needs at least …, or equivalently …, to generalize on the modular addition …” | Thm 4.3 |
# | **C12** | ⏳ not tested | not tested: the theorem bounds the error of interpolators with normalized ℓ∞ margin Ω(p); the trained … | “In other words, any interpolating solution with approximately maximal normalized …-margin, … has a sample complexity of …, since Proposition 3.8 …” | Thm 4.5, Thm 4.6 |
# | **C13** | ✅ reproduced | T61: 1.00 vs paper 1 ± 0.01 | “Theorem 4.5 confirms and explains previous observations [41, 15, 37, 27, e.g.] on the minimum threshold for the fraction of data used to achieve …” | Fig. 1 right, Fig. 4 left |
# | **C14** | ❔ inconclusive | T21: 0.5 vs paper <= 1 | “Figure 4 empirically evaluates the … norm of the learned weights through gradient descent on the classification task, with tiny … regularization …” | Fig. 4 right |
# | **C15** | ✅ reproduced | T50: 5.5 vs paper >= 1 | “Similar to the regression setting, Figure 1 presents empirical evidence on the impact of kernel regime on the poor generalization capabilities in the …” | Fig. 1 left |
# | **C16** | ❔ inconclusive | T17 †: 1 vs paper 0 ± 0.5 | “Through changing the scale of initialization, in Figure 1 we demonstrate that by decreasing the scale of initialization in the classification task …” | Fig. 1 middle |
# | **C17** | ❔ inconclusive | T32 †: 0.00 vs paper 1 ± 0.1 | “Figure 5 suggests that, similarly to the two-layer network, grokking in the original Transformer studied by [41] might be explainable through the …” | Fig. 5 |
#
# The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
# % end generated

# %% [markdown]
# **What this chapter reproduces.** The Fourier construction for every $p$ from 2 to 13; the eNTK
# interpolation threshold (rank against width: singular below Thm 3.1's $n/(3p)$, full rank from our sharper
# $n/(3p-2)$ on); Thms 3.4 and 4.3 as the bounds they are: the best predictor in the span of the eNTK, the
# expected NTK or the pNTK at init stays at half the zero predictor's population loss or above wherever App. D's
# explicit bound says so, and its average over permuted tasks obeys that bound; the pNTK kernel classifier against a
# trained network *on the same split*; normalized-GD classification with the paper's recipe, which fits
# first and generalizes later at $n = 2p^{5/3}$ for every $p$ tried (Figs 1 and 4), with a critical size that
# grows more slowly than Thm 4.5's upper bound $p^{5/3}$ (a stored sweep); and the late generalization of the
# one-layer transformer of Fig. 5 (under AdamW, not the paper's GD).
#
# **What it does not reproduce, or cannot decide.** Every known non-reproduction is a registered *deviation*,
# discussed in "Paper versus ours" (the claim tables are in the *Evidence* section at the end of the chapter):
#
# * *The kernel reading of Figs 1 and 5.* The raw eNTK change does grow by orders of magnitude after
#   fitting, as Fig. 1 (left) plots it, and the ledger counts that as reproduced (C15). Our check finds the
#   growth of $\|\theta\|$ explains it: the eNTK of this 3-homogeneous network scales like $\|\theta\|^4$.
#   Measured scale-free (a metric of ours, so a check, not a verdict), the kernel moves about as much before
#   fitting as after, for the two-layer network and for the transformer. For the two-layer network this is
#   partly our setup: with PyTorch's default init the weights start at a norm below one normalized step, so no
#   kernel regime is possible (section 4).
# * *The init-scale effect (Figs 1 and 2).* We ran the $\alpha$ sweep, and from PyTorch's init a smaller $\alpha$
#   does not shrink the gap between fitting and generalizing: normalized GD with step length 10 erases the init
#   scale within the first steps. From the NTK parametrization's larger start a smaller $\alpha$ does fit the
#   training set with more test accuracy, as §4.2 says, but that reading was registered after the stored run was
#   seen, and the time to final generalization gets longer (section 4).
# * *Regression grokking (Figs 2 and 3).* The paper trains $5\cdot 10^4$ to $2\cdot 10^5$ GD steps at learning
#   rate 1, $p = 47$, from He et al.'s init. A stored run at $p = 11$ with the same budget in learning rate ×
#   steps (learning rate 0.3, PyTorch's default init) memorizes at every init scale; its accuracy ends far below
#   the paper's 100 % (section 7). So do stored runs at the paper's learning rate 1, at $p = 11$ and $23$ for
#   $2\cdot 10^5$ steps, in the NTK parametrization of the first author's public code, where learning rate 1
#   trains (section 8), and at Fig. 2's own $p = 47$ with App. A.1 as printed, from PyTorch's init and from He
#   et al.'s normal init (the end of section 8): every run fits its training set except those at $p = 23$,
#   $\alpha = 0.01$, which never leave the origin, and none generalizes. The verdicts on Figs 2 and 3 (C7, C9) stay
#   inconclusive, not "not reproduced": the runs at the paper's $p = 47$ have one seed per init. A positive
#   control with a penalty 100 times App. A.1's, strong enough to bring $\|\theta\|_\infty$ down to the Fourier
#   construction's level within its budget, memorizes too.
#
# Fig. 5's transformer also trains with AdamW at book scale, not with the paper's GD (Section 5).
# `REPRO_SCALE=paper` runs the config defaults with the same code: the paper's settings except the init and the
# other differences each experiment's setup table lists. No GPU was available to run them for this chapter.

# %% tags=["hide-input"]
import warnings
warnings.filterwarnings("ignore", category=UserWarning)
import torch
from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.book.readouts import mohamadi2024_why_grok as readout
from repro.book.readouts import mohamadi2024_why_grok_ledger as readout_ledger
from repro.book.readouts import mohamadi2024_why_grok_regression as readout_reg
from repro.book.readouts import mohamadi2024_why_grok_stored as readout_stored
from repro.book.readouts import mohamadi2024_why_grok_transformer as readout_tf
from repro.experiments import mohamadi2024_why_grok as mw
from repro.plotting.mohamadi2024_why_grok import (plot_classification, plot_init_scale_gd, plot_kernel_regime,
                                                  plot_ntk_classification, plot_regression, plot_regression_accuracy,
                                                  plot_transformer)
from repro.plotting.mohamadi2024_why_grok_sample import plot_norm_margin, plot_sample_complexity, plot_settled_budget
from repro.plotting.shared import use_style
# One thread: every computation here is many small tensor ops, which two threads on a shared 2-core machine
# only slow down (the eNTK rank sweep took 100× more CPU time on two threads under load than on one).
torch.set_num_threads(1)
use_style()
claims = ClaimBook("mohamadi2024_why_grok")
cfg = mw.WhyGrokConfig.for_scale()
readout.report_scales(cfg)

# %% [markdown]
# ## The configuration
#
# `WhyGrokConfig` holds every experiment; its defaults are meant to be the paper's settings (App. A): regression with
# full-batch GD at learning rate 1, $\lambda = 10^{-4}$ on $\|\theta\|_\infty$, $n = 2p^{2.25}$, $h = 4p$,
# $p = 47$; classification with normalized GD of step length 10, $\lambda = 10^{-20}$, $n = 2p^{5/3}$ and
# $h = 8p$; the transformer of Fig. 5 with full-batch GD at learning rate 0.25 and $n = 2p^{5/3}$. The init
# is stated twice, differently: App. A.1 and A.2 say the networks are "initialized according to [19]" (He et
# al.'s normal init), while the caption of Fig. 1 says "default PyTorch initialization [19]", and Thm 3.1
# remarks that uniform init is PyTorch's default. The two-layer networks here start from PyTorch's
# `nn.Linear` default, $W \sim U(\pm 1/\sqrt{2p})$, $V \sim U(\pm 1/\sqrt h)$, times a scale $\alpha$. He's init
# draws each layer $\sqrt 6$ times wider, so the 3-homogeneous output would start up to $6^{3/2} \approx 15$
# times larger. Where the paper gives no value (the list of $p$, the
# $\alpha$ values, the width of Figs 1 and 4, the transformer's architecture), the config makes a choice
# and says so in a comment: $h = 8p$ for classification, as Thm 4.5 requires, $h = 4p$ for regression, as
# in Fig. 3, and Nanda et al.'s transformer. The book scale keeps every recipe except the transformer's
# optimizer (Section 5), and shrinks $p$, widths and the number of steps.
#
# Each experiment prints a setup table, folded below: every setting beside the paper's, and the reason for each
# difference.
# Two config defaults are not the paper's: the init (above), and the weighing of the $\lambda = 10^{-20}$
# penalty under normalized GD (`exact_regularizer`, see Deviations). The stored runs print their own tables
# where they are loaded.

# %% tags=["hide-input", "hide-output"]
norms = readout.report_setup_tables(cfg)

# %% [markdown]
# ## 1. A known answer: the Fourier network (App. F)
#
# Neuron $8k + i$ of the construction uses frequency $k$: its first-layer row is
# $(\cos\theta^k_a \pm \cos\theta^k_b)$, $(\sin \pm \sin)$, $(\sin \pm \cos)$ or $(\cos \pm \sin)$ with
# $\theta^k_j = 2\pi k j/p$, and the second layer combines the squares into
# $\sum_k \cos(2\pi k (a+b-q)/p) = p\,\mathbf 1(a+b \equiv q)$. Printed literally, F.2 gives $4p\,\mathbf 1$;
# dividing $V$ by 4 yields the regression target exactly, with $\|\theta\|_\infty = 1$ at $h = 8p$. For
# odd $p$ the halved version keeps half of the frequencies plus one constant neuron ($4p - 3$ neurons).
# Copying every neuron $r$ times and scaling the copies by $r^{-1/3}$ leaves the function unchanged
# (3-homogeneity) and gives $\|\theta\|_\infty = r^{-1/3}$ (Prop. 3.8).
#
# What is tested here is that the paper's construction classifies every pair correctly, which it would not
# if one of its equations were wrong (the halved version fails for even $p$, for instance). The norm
# $\|\theta\|_\infty = r^{-1/3}$ holds by construction (the entries are cosines, sines and their quarters),
# so it is recorded as a check of our implementation, not as a reproduction.

# %%
rows, dup = readout.report_construction(cfg)

# %% tags=["hide-input"]
readout.record_construction(claims, rows, dup)

# %% [markdown]
# ## 2. The kernel regime: the eNTK interpolates once $h(3p-2) \ge n$ (Thm 3.1)
#
# The regression eNTK has the closed form (App. B, Eq. B.1/B.2, with $z_k = Q_{ka} + R_{kb}$)
#
# $$K_\theta(x, x') = \sum_k \Big[\mathbf 1(c=c')\, z_k^2 z_k'^2 + 4 V_{ck} V_{c'k}\, z_k z_k'\,\big(\mathbf 1(a=a') + \mathbf 1(b=b')\big)\Big],$$
#
# which the tests check against autograd Jacobians. Each neuron contributes gradients in $3p$
# directions (Prop. B.6: rank $\le 3ph$), two of which are null on every input: shifting $Q_k$ by $t\mathbf 1$
# and $R_k$ by $-t\mathbf 1$ leaves every $z_k$ unchanged, and so does rescaling the neuron's two layers
# against each other. So the rank is at most $\min(n, h(3p-2))$. The kernel interpolates any labels iff
# $K \succ 0$ (Lemma B.1), so eNTK regression fits the training set exactly once $h \ge n/(3p-2)$, if the
# random init attains the bound. Thm 3.1 says the eNTK cannot interpolate below $h = n/(3p)$ and does at
# $h = \tilde\Theta(n/p)$; its sufficient width $36\rho_c\log(n/\delta)$ is far larger.

# %% tags=["hide-input"]
rank = mw.entk_rank_sweep(cfg.rank_p, cfg.rank_n, cfg.rank_widths, cfg.seed)
readout.record_entk_rank(claims, rank)

# %% [markdown]
# At $p$ = 11 with $n$ = 665 triples our threshold is $h$ = {eval}`glued.rank_threshold`, and Thm 3.1's lower
# bound is $n/(3p)$ = {eval}`glued.rank_lower`. What the paper states is the bracket: the eNTK is singular at
# every width tried below $n/(3p)$ ($h$ = {eval}`glued.rank_below`), as the theorem's converse requires, and it
# interpolates at a width of order $n/p$, far below the theorem's sufficient width. The measured rank equals
# $\min(n, h(3p-2))$ at every width tried; that sharp threshold is our derivation, so the ledger counts it as a
# check, and only the bracket as a reproduction of Thm 3.1. That claim was written after this sweep had been
# seen, so the ledger marks it †.
#
# ## 3. Kernels do not generalize (Thm 3.4)
#
# The eNTK at init, used with the initial network as the prior mean, is what gradient descent on the
# linearized network converges to (App. B.1). It is permutation-equivariant, so Thm 3.4 applies:
# for $n < Cp^3$ its expected test loss is at least half the zero predictor's. We also try the
# *expected* NTK over the init (Prop. B.3), a deterministic equivariant kernel. Losses are relative to
# the zero predictor on the same test triples; 1 means "no better than predicting 0".

# %% tags=["hide-input"]
ksweep = mw.kernel_regression_sweep(cfg.kernel_ps, cfg.kernel_fractions, cfg.kernel_width_factor, cfg.seed)
readout.report_kernel_sweep(ksweep)
fig_kernel = plot_kernel_regime(rank, ksweep)
glue("fig_kernel", fig_kernel, display=False)
readout.record_kernel_sweep(claims, ksweep)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_kernel.png
# :name: fig-mohamadi-kernel
# Left: the eNTK's rank against width. It follows $\min(n, h(3p-2))$ exactly, so the kernel becomes
# invertible, and eNTK regression interpolates, at $h = n/(3p-2)$. Right: eNTK-at-init (solid) and
# expected-NTK (dashed) kernel regression, test loss relative to the zero predictor, against the
# training fraction. Every point lies above 1 (black line). The dotted line at 1/2 is Thm 3.4's level; App. D's
# explicit bound on the best predictor in the kernel's span falls below it at large fractions (the section below
# checks the theorem as that bound).
# ```
#
# The smallest relative test loss over all $p$, fractions and both kernels is {eval}`glued.kernel_min`:
# the ridgeless predictors never beat predicting zero. That margin is not the theorem's. Ridgeless regression
# interpolates the training triples with whatever coefficients it takes, and on the test triples its predictions
# blow up above the zero predictor's; a better kernel predictor exists in the same span. Thm 3.4 (formal version
# Thm D.1, App. D.2) bounds *every* predictor $\sum_t \lambda_t K(x_t, \cdot)$ in the span of the kernel's columns
# at the training triples, and its population loss, over all $p^3$ triples.
#
# ### The bound as a bound: the best predictor in the kernel's span (App. D)
#
# The best predictor in the span is the orthogonal projection of the target onto it (`th.best_in_span_loss`; the
# only regularization is the numerical rank, singular values below $10^{-10}$ of the largest counting as zero). App. D
# averages it over the permuted tasks $\Psi_\sigma(a, b, c) = \mathbf 1(\sigma_1(a) + \sigma_2(b) \equiv \sigma_3(c))$, to
# which an equivariant kernel is blind, and proves for every $n$-dimensional span (Lemmas D.4 and D.7)
#
# $$\mathbb E_\sigma \min_\lambda \Big\|\sum_t \lambda_t K(x_t, \cdot) - \Psi_\sigma\Big\|^2 \ge p^2\Big(1 - \frac1p - \frac{n}{p^3}\, e^{2/(p-1)}\Big),$$
#
# where $p^2$ is the zero predictor's loss (our text copy of the paper lost its formulas; the unit tests check this
# form against the exact spectrum of $\mathbb E_\sigma \Psi_\sigma\Psi_\sigma^\top$). We compute the left side exactly
# (`th.expected_best_in_span_loss`: no sampling of $\sigma$), and, for the task itself ($\sigma$ the identity),
# the best predictor in the span of the eNTK at init and of the expected NTK, on the splits of the sweep above.
# Two comparisons were registered before this cell first ran: the permuted average must obey the bound (a check of
# our computation against App. D), and where the bound is at least 1/2 the best predictor on the task itself must
# stay at half the zero predictor's loss or above (Thm 3.4, deterministic). The same for the classifier's pNTK at init,
# whose matrix kernel $\mathrm{pNTK}\otimes I_p$ spans $n_{\rm pairs}\cdot p$ dimensions (Thm D.2), at pair fractions
# 0.1, 0.2 and 0.4 of $p = 23$, where the bound is at least 1/2.

# %% tags=["hide-input"]
span = mw.kernel_span_sweep(cfg.kernel_ps, cfg.kernel_fractions, cfg.kernel_width_factor, cfg.seed)
span_stats = readout.record_kernel_span(claims, span)

# %% tags=["hide-input"]
cspan = mw.pntk_span_sweep(cfg.grok_p, mw.SPAN_PAIR_FRACTIONS, 8 * cfg.grok_p, cfg.seed)
cspan_stats = readout.record_pntk_span(claims, cspan)

# %% [markdown]
# Where App. D's bound reaches 1/2 (the $(p, \text{fraction})$ pairs {eval}`glued.span_inside`), the best predictor
# in either kernel's span keeps at least {eval}`glued.span_min` of the zero predictor's population loss on the task
# itself: Thm 3.4, read as the bound it is. Averaged over the permuted tasks, the best-in-span loss exceeds App. D's
# bound everywhere, by {eval}`glued.span_slack` at least (a check of our computation; at large fractions the bound
# is negative and says nothing). For the pNTK classifier at $p = 23$ the best predictor in its span keeps at least
# {eval}`glued.cspan_min` of the zero predictor's loss at pair fractions up to 0.4 (Thm 4.3), and the permuted
# average clears the bound by {eval}`glued.cspan_slack` at least. The ridgeless losses above 1 are blow-up; the
# span limit itself is this table.

# %% [markdown]
# ## 4. Classification: fitting first, generalizing later under normalized GD (Figs 1 and 4)
#
# Normalized GD with step length 10 on cross-entropy (App. A.2). Every run of one $p$, covering the
# $\alpha$ values and the sample sizes, trains as one batched tensor program. With a 3-homogeneous
# network the logits grow like $\|\theta\|^3$, and within a few hundred steps the softmax is one-hot to
# float64 precision, so the naive gradient $P - Y$ is exactly zero and the normalized step is $0/0$. The
# step therefore uses underflow-safe logit weights: per run, $\exp(\log P - \max\log P)$ on the wrong
# classes, which equals the true gradient up to a positive factor that normalization removes
# (`th.safe_cross_entropy_weights`). We record the first-logit eNTK $\hat\Theta_t$ on the training pairs,
# the kernel of Fig. 1 (left).
#
# Normalized GD is chaotic: a change in the last bit of the init, or of a CPU's vector kernels, moves the
# step at which the last training pair flips by about a hundred steps. Every setting at $n = 2p^{5/3}$
# therefore runs with five seeds (each its own init and training split, as more runs of the same batch),
# the smaller sample sizes with three, and the chapter reports how many seeds satisfy each statement and
# medians over seeds, never one trajectory's numbers.

# %%
results = {p: mw.train_classification(cfg.classification_config(p)) for p in sorted(set(cfg.sample_ps) | {cfg.grok_p})}
main = results[cfg.grok_p]
cls = readout.report_classification(main)

# %% [markdown]
# In every seed the training set is fitted within a few hundred steps, and the test accuracy passes 99 %
# some hundreds of steps later (left panel of the figure below): the train–test gap of Fig. 1 (middle).
#
# **The kernel side, on the same split.** The pNTK at the same init (the $\sum_c f_c/\sqrt p$ kernel of
# ref. [32], shared by all outputs), with the initial network as prior mean, regressed on the one-hot
# targets of the very training pairs the network above learned from. At this split ($n$ beyond the $n \ll Cp^2$
# that Thm 4.3 assumes) the theorem does not bound it; we compare its accuracy with the trained network's, which
# the paper leaves open.

# %% tags=["hide-input"]
readout.record_kernel_classifier(claims, main, cls)

# %% [markdown]
# The kernel predictor scores {eval}`glued.kernel_acc` test accuracy, against a chance level of
# {eval}`glued.chance`, and its squared test loss is {eval}`glued.kernel_loss` times the zero predictor's.
# The network trained on the same pairs reaches {eval}`glued.trained_acc` (median of
# {eval}`glued.n_seeds` seeds).
#
# ### The eNTK through training (Fig. 1, left)
#
# Fig. 1 (left) plots the raw change $\|\hat\Theta_t - \hat\Theta_0\|_F$: negligible until the training set is
# fitted, then growing by orders of magnitude. We see the same raw curve. But this network is
# 3-homogeneous, so its eNTK is 4-homogeneous: $\hat\Theta(s\theta) = s^4\hat\Theta(\theta)$. Normalized GD moves
# $\theta$ by 10 every step, so $\|\theta\|_2$ grows several-fold between fitting and the end of training, and the
# kernel's entries grow with its fourth power whether or not the kernel changes *shape*. We therefore also
# measure the change of the kernel scaled to unit norm, $\bar\Theta = \hat\Theta/\|\hat\Theta\|_F$:
# $\|\bar\Theta_{\rm fit} - \bar\Theta_0\|_F$ before fitting against $\max_{t \ge {\rm fit}}\|\bar\Theta_t - \bar\Theta_{\rm fit}\|_F$
# after it. It equals $\sqrt{2(1 - \cos)}$ of the angle between the two kernels, and norm growth does not
# move it.

# %% tags=["hide-input"]
readout.record_entk_change(claims, main, cls, norms)

# %% [markdown]
# The raw change grows by orders of magnitude after fitting in every seed, as in Fig. 1 (left), and the
# growth of $\|\theta\|_2^4$ from fitting to the end accounts for that ratio within a factor of ten. Before
# fitting, the raw change is already more than a hundred times $\|\hat\Theta_0\|_F$, which is only
# {eval}`glued.ntk_norm0`. Scaled to unit norm, the kernel moves about as much before fitting as after:
# the median ratio after/before is ≈ {eval}`glued.shape_ratio`, where the paper's reading, a kernel that
# stands still until the training set is fitted and then moves a lot, would need a ratio of ten or more.
# The network does leave its initial kernel, and the kernel keeps turning while the test accuracy climbs,
# but at book scale it left during fitting, not after. This is a registered deviation in the ledger.
#
# **Our setup rules the kernel regime out.** With PyTorch's default init the weights start at
# $\|\theta_0\|_2 \approx$ {eval}`glued.theta0_l2` ($p = 23$, $h = 8p$), less than the length of a single normalized
# step, 10. After the first step $\theta$ is mostly that step and hardly the init, so a kernel regime, a network
# that stays close to its initial parameters relative to their size, is impossible by construction with this
# init and this optimizer. He et al.'s normal init, which App. A.2 cites, starts at $\approx$
# {eval}`glued.theta0_he`, and the NTK parametrization of the first author's public code
# (`mohamad-amin/tracked-grok-v2`, `GromovMLP`: $N(0, 1)$ weights scaled by $1/\sqrt{\text{fan-in}}$ in the forward
# pass) at $\approx$ {eval}`glued.theta0_ntk`. We did not run either. The deviation therefore belongs to our setup;
# it is not evidence against the paper's Fig. 1 (left).
#
# ### The init scale (Fig. 1, middle)
#
# The paper multiplies $\theta_0$ by $\alpha$ and reports that a smaller $\alpha$ shrinks the gap between
# fitting and generalizing, "to the point of completely eliminating" it. We ran $\alpha \in \{1, 0.3, 0.1\}$
# at $n = 2p^{5/3}$, five seeds each, and compare the mean number of steps from fitting to 99 % test
# accuracy.

# %% tags=["hide-input"]
init = readout.record_init_scale(claims, main, cls)

# %% [markdown]
# After {eval}`glued.first_step` steps every $\alpha$ has the same $\|\theta\|_2$, and the gap at
# $\alpha$ = {eval}`glued.a_min` is ≈ {eval}`glued.gap_ratio` times the gap at $\alpha = 1$. With a fixed
# step length of 10, the initial scale is forgotten within the first steps, so this design cannot show the
# paper's $\alpha$ effect; the paper shows it for regression at $p = 47$ (Fig. 2; section 8 runs it) and for
# classification at an unstated $p$. Plain GD, whose steps scale with the gradient, keeps
# $\alpha$ meaningful: the stored run below.

# %% [markdown]
# ### The init scale under plain GD (stored)
#
# To give $\alpha$ a chance, the stored run `mw.gd_init_scale_config()` trains the same networks with plain
# full-batch GD on the mean cross-entropy (plus the $10^{-20}\|\theta\|_\infty$ term), whose steps scale with
# the gradient: $p = 23$, $n = 2p^{5/3}$, $\alpha \in \{1, 0.3, 0.1, 0.03\}$, four seeds each (init and split),
# learning rate 3 (at 10 some small-$\alpha$ runs diverged in our trials), 20 000 steps. Besides the test
# accuracy we track the accuracy on the test pairs whose mirror $(b, a)$ is not a training pair either: the pairs are ordered, and a network that has only
# learned $a + b = b + a$ answers the others.

# %% tags=["hide-input"]
gdi = readout_stored.record_gd_init_scale(claims)
fig_gdi = plot_init_scale_gd(gdi.res)
glue("fig_gdi", fig_gdi, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_gdi.png
# :name: fig-mohamadi-init-scale-gd
# The init scale under plain GD (stored; medians over four seeds, bands: range). Left: train (dashed) and test
# (solid) accuracy against the step, log axis, one colour per $\alpha$. Right: the accuracy on the test pairs
# whose mirror is unseen too. The smaller $\alpha$, the later the training set is fitted; every smaller
# $\alpha$ fits it with more test accuracy than $\alpha = 1$, and then the curves flatten.
# ```
#
# Under plain GD the init scale matters, in the paper's direction: at the step the training set is fitted, the
# test accuracy at $\alpha$ = {eval}`glued.gdi_alpha_lo` exceeds that at $\alpha = 1$ by
# {eval}`glued.gdi_gain` (medians), and at the end of the run the medians are {eval}`glued.gdi_end_lo` against
# {eval}`glued.gdi_end_hi`. The unmirrored pairs rise with the others, so this is modular structure, not only
# $a + b = b + a$. But no $\alpha$ generalizes: on the unmirrored pairs the smallest $\alpha$ ends at
# {eval}`glued.gdi_unm_lo`, and no run reaches 90 % test accuracy. Once the cross-entropy is small its gradient
# is too, and GD's steps shrink with it; normalized GD, which keeps taking steps of length 10, is what drives
# the runs of section 4 to 100 %, and it forgets $\alpha$. Neither optimizer shows the paper's complete picture,
# a small $\alpha$ that removes the gap, at this scale (the ledger's claim on Fig. 1, middle, says what decides it).

# %% [markdown]
# ### From a start far above one normalized step (stored)
#
# From PyTorch's init the weights start at $\|\theta_0\|_2 \approx$ {eval}`glued.ntk_norm_pytorch`, less than one
# normalized step of 10, so the first step already leaves any kernel regime, and $\alpha$ is forgotten at once.
# The first author's public code writes the network in the NTK parametrization (section 8 explains it), whose
# $\mathcal N(0, 1)$ parameters start at $\|\theta_0\|_2 \approx \sqrt{3ph}$ = {eval}`glued.ntk_norm_ntk` at
# $p = 23$, $h = 8p$: eleven steps from the origin. The stored run `mw.ntk_classification_config()` trains the
# paper's recipe (normalized GD, step length 10, $\lambda = 10^{-20}$, $n = 2p^{5/3}$) in that parametrization at
# $p = 23$, $\alpha \in \{1, 0.3, 0.1\}$, four seeds each (init and split), for $10^4$ steps, recording the
# accuracies and the first-logit eNTK on the training pairs every 10 steps.

# %% tags=["hide-input"]
ncs = readout_stored.report_ntk_classification()
fig_nc = plot_ntk_classification(ncs.res)
glue("fig_nc", fig_nc, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_nc.png
# :name: fig-mohamadi-ntk-class
# Normalized GD from a start far above one step (stored; NTK parametrization, $p = 23$; medians over four seeds,
# bands: range; dotted lines: each $\alpha$'s median fitting step). Left: train (dashed) and test (solid) accuracy
# (Fig. 1, middle). Middle: the raw change of the first-logit eNTK, log axis (Fig. 1, left). Right: its scale-free
# distance from the start.
# ```

# %% tags=["hide-input"]
ntk_class = readout_stored.record_ntk_classification(claims, ncs)

# %% [markdown]
# From this start the picture is Fig. 1's in part. Every run fits its training set within
# {eval}`glued.nc_fit_max` steps, and at $\alpha = 1$ the test accuracy reaches 99 % only later (steps
# {eval}`glued.nc_gen_a1`) and ends at {eval}`glued.nc_acc_a1` (median): fitting first, generalizing later. The raw
# eNTK change grows by {eval}`glued.nc_decades` decades after the fit, as Fig. 1 (left) plots it. Scale-free, though,
# the kernel has moved before the fit: its distance from the start at the fit is {eval}`glued.nc_ratio` of its
# final value (median). The raw growth is mostly the growth of $\|\theta\|$, as in section 4: the kernel scales
# like $\|\theta\|^4$, and the norm's growth after the fit alone accounts for {eval}`glued.nc_norm_decades` decades
# (median). A start of eleven normalized steps does not make the fit a kernel-regime one.
#
# The init scale acts as the paper states it, read at the fit. §4.2 says that a smaller $\alpha$ makes "the gap
# between overfitting and generalization" smaller: when the training set is fitted, the test accuracy is
# {eval}`glued.nc_fit_lo` at $\alpha = 0.1$ against {eval}`glued.nc_fit_hi` at $\alpha = 1$ (medians; a difference
# of {eval}`glued.nc_fit_gain`). That comparison was registered after these stored arrays had been seen, so the
# ledger marks it †. The time to final generalization goes the other way, as §6 says it does ("doing so actually
# slows down the time to final generalization"): {eval}`glued.nc_gen_lo` runs at $\alpha = 0.1$ reach 99 % within
# $10^4$ steps, and the median gap from the fit to 99 % is {eval}`glued.nc_gap_diff` steps longer than at
# $\alpha = 1$. That reading measures the time to final generalization, not the gap at the fit, so the ledger keeps
# it as context. In this parametrization the step length 10 is small against the start, so $\alpha$ does survive
# the first steps.

# %% [markdown]
# ### Sample complexity (Fig. 1, right, and Fig. 4)
#
# Thm 4.5 says $\tilde O(p^{5/3})$ pairs suffice for networks with a large normalized $\ell_\infty$ margin. We
# train at $n = c\,p^{5/3}$ for $c \in \{0.5, 1, 2\}$ and every $p$ of the config.

# %% tags=["hide-input"]
readout.record_sample_sizes(claims, results, cfg)
fig_class = plot_classification(results, cfg)
glue("fig_class", fig_class, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_class.png
# :name: fig-mohamadi-class
# **Mohamadi et al. 2024, Fig. 1 (ours, book scale).** Classification with normalized GD. Left: train (dashed) and test (solid) accuracy at $n = 2p^{5/3}$ for
# several init scales $\alpha$. The training set is fitted within a few hundred steps, and the test accuracy
# follows later, for every $\alpha$ alike. Middle: the first-logit eNTK's raw change
# $\|\hat\Theta_t - \hat\Theta_0\|_F$ (log axis, red) keeps growing by orders of magnitude after the training set
# is fitted (dashed line), while the test accuracy (blue) climbs; most of that growth is the growth of
# $\|\theta\|^4$ (see the text). Right: final test accuracy against $n/p^{5/3}$. At $c = 2$ every $p$
# generalizes; at $c \le 1$ the networks memorize.
# ```
#
# At $c = 2$ every $p$ generalizes, as in Fig. 1 (right) and Fig. 4; at $c \le 1$ no seed does. Three
# values of $p$ cannot tell $p^{5/3}$ from $p^2$ or from a constant fraction of the data, so this is the
# figures' statement at $c = 2$, not a measured exponent. After the same number of normalized steps,
# $\|\theta\|_\infty$ does not grow with $p$ (at the largest $p$ it is ≈ {eval}`glued.linf_ratio` times its
# value at the smallest), as Fig. 4 (right) reports. That is a weak test: normalized GD fixes
# $\|\theta\|_2$ by the number of steps, whatever $p$ is. The scale-free normalized margin
# $q_{\min}/\|\theta\|_\infty^3$, which Thm 4.5 needs to be of order $p$ (the construction reaches $p$), falls
# relative to $p$ as $p$ grows at this step count: these networks are not near the max-margin solution the
# theory analyses.

# %% [markdown]
# ### Sample complexity against $p$ (stored)
#
# Three values of $p$ at three coefficients cannot measure an exponent. The stored run
# `mws.SampleComplexityConfig()` trains the same recipe (normalized GD, step length 10, $h = 8p$, $\alpha = 1$)
# at nine primes from 11 to 41, on a grid of training sizes $n = c\,p^{5/3}$ with $c$ from 0.5 to 3.4 in
# factors of $2^{1/4}$ (only $n < p^2$), three seeds each (init and training split), for 1 500 steps. For each
# $p$ we find the *critical size* $n^*$ where the seed-mean final test accuracy crosses 1/2 (interpolated in
# $\log n$ between grid points), and fit $n^* \propto p^k$. A bootstrap over seeds (each $p$'s seeds resampled
# with replacement) gives the exponent's uncertainty.
#
# What the paper states is a bound, not an exponent. Thm 4.5 says that $\tilde O(p^{5/3})$ pairs *suffice* for
# interpolators with a normalized $\ell_\infty$ margin of order $p$, and its experiments train at
# $n = 2p^{5/3}$ (App. A.2); it never fits an exponent. A kernel method needs $\Omega(p^2)$ (Thm 4.3), and so
# does any rule that needs a constant fraction of the pairs. The claims are therefore bounds: $k \le 5/3$ (the
# upper bound holds), the bootstrap's 97.5th percentile below 2 (the networks beat the kernel rate), and every
# $p$ generalizing at $n = 2p^{5/3}$.

# %% tags=["hide-input"]
scs = readout_stored.record_sample_complexity(claims)
fig_sc = plot_sample_complexity(scs.res)
glue("fig_sc", fig_sc, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_sc.png
# :name: fig-mohamadi-sample-complexity
# Sample complexity against $p$ (stored; normalized GD, three seeds per point). Left and middle: the seed-mean
# final test accuracy against $n/p^{5/3}$ and against the fraction of pairs $n/p^2$, one line per $p$
# (dark: small $p$, light: large). Against the fraction, the curves move left as $p$ grows: the network needs a
# shrinking share of the pairs. Right: the critical size $n^*$ (mean accuracy 1/2) against $p$, log-log, with
# the fitted line and reference slopes 5/3 and 2 through its middle.
# ```
#
# The transition is sharp at every $p$: from memorization (test accuracy near 0) to generalization
# (near 1) within a few grid steps in $n$. The critical size grows like $p^k$ with
# $k$ = {eval}`glued.k_fit` (95 % bootstrap interval over seeds {eval}`glued.k_lo` to {eval}`glued.k_hi`; the
# interval covers the seed noise, not the choice of $p$ range or budget). That is below Thm 4.5's upper bound
# $5/3$, as the bound allows, and clearly below the kernel methods' 2, so the needed fraction of all pairs falls
# with $p$: from {eval}`glued.sc_frac_lo` at $p$ = 11 to {eval}`glued.sc_frac_hi` at $p$ = 41.
#
# The number itself should not be read as this recipe's exponent. It depends on the range and on the budget:
# $n^*/p^{5/3}$ levels off at ≈ {eval}`glued.sc_level` for $p \ge 23$ (a fit over those $p$ alone gives
# $k$ = {eval}`glued.sc_k_late`), and at the largest $p$ the runs near the threshold are still improving when the
# budget ends: $n^*$ at $p = 41$ falls from {eval}`glued.sc_n0` after {eval}`glued.sc_t0` steps to
# {eval}`glued.sc_n1` after 1 500, and the fitted $k$ from {eval}`glued.sc_k0` to {eval}`glued.k_fit`. A longer
# budget would likely lower $n^*$ at large $p$ further. What the run shows holds at each of the three budgets
# above: the fitted $k$ stays below 5/3.
#
# **Norm and margin against $p$ (Figs 3-4, right).** The same runs give the weights' $\ell_\infty$ norm and the
# normalized margin $q_{\min}/\|\theta\|_\infty^3$ at $n = 2p^{5/3}$ after the same number of steps.

# %% tags=["hide-input"]
fig_nm = plot_norm_margin(scs.res)
glue("fig_norm_margin", fig_nm, display=False)
readout_stored.record_norm_margin(claims, scs)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_norm_margin.png
# :name: fig-mohamadi-norm-margin
# Figs 3-4 (right) from the stored runs at $n = 2p^{5/3}$ after the same number of normalized GD steps (median,
# bars: range over seeds). Left: $\|\theta\|_\infty$ falls with $p$. Right: the normalized margin (log axis),
# against the Fourier construction's $p$ (dashed).
# ```
#
# $\|\theta\|_\infty$ does not grow with $p$: it falls from {eval}`glued.sc_linf_lo` at $p$ = 11 to
# {eval}`glued.sc_linf_hi` at $p$ = 41, as Fig. 4 (right) reports, though under normalized GD the step count,
# not $p$, sets the scale. The normalized margin tells more: it falls from {eval}`glued.sc_margin_lo` to
# {eval}`glued.sc_margin_hi` as $p$ grows, while the construction's margin is $p$ itself. The networks that
# generalize here at $n = 2p^{5/3}$ are far from the margin $\Omega(p)$ on which Thm 4.5's bound rests, and the
# gap widens with $p$: at this budget the bound's mechanism is not what we observe, although the bound holds.

# %% [markdown]
# ### Settled budgets at $p$ = 37–53 (stored)
#
# At $p \ge 37$ the 1 500-step run's $n^*$ was still falling when the budget ended, so the exponent above mixes
# settled and unsettled critical sizes. The stored run `mws.budget_config()` trains the same recipe at
# $p$ = 37, 41, 47 and 53 for 4 000 normalized steps, recording the test accuracy every 100, so $n^*$ after
# 1 000, 2 000 and 4 000 steps comes from the same runs. The sizes are $n = c\,p^{5/3}$ for $c = 2^{k/4}$ from
# $1/\sqrt 2$ to 2 (App. A.2's $n = 2p^{5/3}$ is the top of the grid), three seeds each.

# %% tags=["hide-input"]
bud = readout_stored.report_settled_budget(scs)
glue("fig_settled", plot_settled_budget(bud.res, bud.settled), display=False)
readout_stored.record_settled_budget(claims, scs, bud)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_settled.png
# :name: fig-mohamadi-settled-budget
# Sample complexity at settled budgets (stored; normalized GD, three seeds per point). Left: the critical size
# $n^*$ of $p$ = 37–53 in units of $p^{5/3}$ against the budget it is read at, with App. A.2's $n = 2p^{5/3}$
# (dashed): a line that flattens is a settled $n^*$. Right: the settled $n^*$ against $p$ on log axes ($p \le 31$
# after 1 500 steps, $p \ge 37$ after 4 000), the fitted line, and the slopes 5/3 and 2 through its middle.
# ```
#
# Doubling the budget from 2 000 to 4 000 steps moves $n^*$ at $p$ = 37–53 by at most {eval}`glued.bud_shift`
# in $\log_2$, and from 750 to 1 500 steps at $p \le 31$ by at most {eval}`glued.bud_sc_shift`. One step of the
# size grid is 0.25, so by the criterion we registered, the critical sizes are settled. They are not frozen:
# {eval}`glued.bud_trend` (left panel). At App. A.2's $n = 2p^{5/3}$ every $p$ up to 53 generalizes (lowest
# median test accuracy {eval}`glued.bud_c2`), so the paper's "$2p^{5/3}$ samples suffice" holds over the whole
# range we can train.
#
# Over the settled critical sizes the exponent is $k$ = {eval}`glued.bud_k` (95 % over seeds
# {eval}`glued.bud_k_lo` to {eval}`glued.bud_k_hi`). That is below Thm 4.5's upper bound 5/3, as the bound
# allows, and well below the kernel methods' 2: the registered claims hold. But the number flatters the
# networks. $n^*/p^{5/3}$ falls from small to large $p$ (finite-size curvature), and the fit joins two budgets,
# 1 500 steps up to $p$ = 31 and 4 000 beyond, which puts a step down between $p$ = 31 and 37. The four largest
# $p$ at one budget tell the cleaner story: after 4 000 steps $n^* \propto p^k$ with $k$ =
# {eval}`glued.bud_k_common` (95 % over seeds {eval}`glued.bud_k_common_lo` to {eval}`glued.bud_k_common_hi`),
# and {eval}`glued.bud_k_common_vs`; after 1 000 and 2 000 steps the same fit gives more than 5/3 (printed
# above). At the largest $p$ we can train, the critical size grows about as fast as the bound allows, not
# slower. This is consistent with Thm 4.5, which bounds the sample complexity from above. It does not show that
# the networks beat $p^{5/3}$. With more steps the critical sizes keep falling, so a fit at the paper's $10^5$
# steps could come out different. The paper fits no exponent.

# %% [markdown]
# ## 5. The transformer of Fig. 5
#
# The paper's last experiment (Fig. 5, App. A.3) trains a one-layer transformer on modular addition with
# full-batch GD at learning rate 0.25 and $n = 2p^{5/3}$ training pairs. It reports the pattern of Section 4:
# the eNTK barely moves until the training set is fitted and moves a lot afterwards, while the test
# accuracy rises. The paper does not describe the architecture. `TransformerGrokConfig` uses the setting of
# Nanda et al. (the transformer whose grokking the paper sets out to explain, its ref. [37]): input
# sequence $[a, b, =]$ over ordered pairs, logits read at "=", $d_\text{model} = 128$, 4 heads,
# $d_\text{mlp} = 512$, ReLU and no LayerNorm. Its defaults are the paper scale: $p = 113$ and GD at
# learning rate 0.25.
#
# The book scale shrinks this to $p = 23$ ($n$ = 372 of 529 pairs), $d_\text{model} = 64$,
# $d_\text{mlp} = 256$ and 1 200 steps. It also changes the optimizer. In short CPU runs, plain GD at
# learning rate 0.25 either fitted the training set and then stayed at the memorizing solution, or had not
# fitted it yet (see Deviations). The book therefore trains with AdamW (learning rate $3\cdot 10^{-3}$,
# weight decay 1, betas (0.9, 0.98)), the usual grokking recipe. We record the first-logit eNTK, as in
# Section 4, by automatic differentiation (`th.empirical_ntk`), on 128 fixed random pairs from both the
# training and the test set, every 50 steps.
#
# One caveat: the pairs are ordered. For most test pairs $(a, b)$ the mirror $(b, a)$ is a training pair,
# and a network that has learned $a + b = b + a$ answers those without knowing modular addition. We
# therefore also track the accuracy on the test pairs whose mirror is unseen too.

# %% tags=["hide-input"]
tfs_mixed = mw.run_transformer_seeds(cfg.transformer, cfg.transformer_seeds)  # one train() call, seeds as runs
# The paper's eNTK is on the training set (App. B): keep the training pairs among the recorded ones (kernels kept live)
tfs = [t.on_training_pairs() for t in tfs_mixed]
readout_tf.record_transformer(claims, tfs, tfs_mixed, cfg)
fig_tf = plot_transformer(tfs)
glue("fig_transformer", fig_tf, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_transformer.png
# :name: fig-mohamadi-transformer
# **Mohamadi et al. 2024, Fig. 5 (ours, book scale).** The one-layer transformer at book scale (AdamW; the paper uses GD), every seed faintly, the median
# thick and the range shaded; the eNTK on the training pairs. Left: train and test accuracy, and the accuracy on test pairs whose mirror
# is unseen too. The training set is fitted within the first hundred steps (dashed vertical line: the
# median step), and the test accuracy reaches 90 % and more hundreds of steps later. Middle: the test
# loss falls only long after the training loss. Right: the first-logit eNTK's change $\|K_t - K_0\|_F$ (log
# axis, red) and the median scale-free distance $1 - \cos(K_t, K_0)$ (grey, right axis). Unlike in Fig. 5,
# much of the raw change happens while the training set is being fitted.
# ```
#
# The grokking half of Fig. 5 is there. When the training set is fitted, the network answers the mirrored
# test pairs and none of the others. It learns modular addition hundreds of steps later, with the training
# accuracy at 100 % all along.
#
# The kernel half is not. Under AdamW the first-logit eNTK moves by more than ten times $\|K_0\|_F$
# *while* the training set is fitted, and afterwards not ten times more (the seed counts above). Scaled
# to unit norm, the kernel moves about as much after fitting as before: the median ratio is
# ≈ {eval}`glued.tf_shape_ratio`. That kernel is the paper's, on training pairs: the
# {eval}`glued.tf_n_train_pairs` training pairs among the 128 pairs the run records; on all 128, train and test mixed,
# the ratio is ≈ {eval}`glued.tf_ratio_mixed`. Adam moves every coordinate by about its learning rate per step, whatever
# the gradient's size, so it does not train in the kernel regime, and this run cannot test the paper's
# claim, which is about GD. The stored GD run below tests it.

# %% [markdown]
# ### The paper's optimizer: GD (stored)
#
# The run that decides Fig. 5 trains the same network with the paper's optimizer: full-batch GD at learning
# rate 0.25, no weight decay (App. A.3), for 20 000 steps, three inits, the eNTK on the same 128 pairs every
# 100 steps (`mw.gd_transformer_config()`, float32). GD fits the training set early in this run (below), so
# most of the run comes after fitting, where Fig. 5 places the kernel's movement and the generalization. It is
# stored.
#
# **Not the paper's kernel.** This run records the eNTK on 128 pairs drawn from all $p^2$, training and test pairs
# mixed, and stores only the Gram matrix of those kernels, so it cannot be restricted to the training pairs on which
# the paper defines the eNTK (App. B), as the live runs above are. Recomputing it with the kernels kept would take
# about 15 minutes of one core, beyond this revision's budget. On the live AdamW runs the unit-norm ratio is
# ≈ {eval}`glued.tf_shape_ratio` on the training pairs and ≈ {eval}`glued.tf_ratio_mixed` on all pairs, mixed (one
# significant digit: the live runs' seeds scatter at the next); the GD claims below read the mixed kernel.

# %% tags=["hide-input"]
gtf = readout_tf.record_gd_transformer(claims)
fig_tf_gd = plot_transformer(gtf.runs)
glue("fig_transformer_gd", fig_tf_gd, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_transformer_gd.png
# :name: fig-mohamadi-transformer-gd
# The stored GD run (the paper's optimizer; three seeds, median thick, range shaded). Left: the training set
# is fitted early (dashed line), and the test accuracy stops at the share of test pairs whose mirror
# is a training pair; on the pairs whose mirror is unseen too (green) it stays near chance. Middle: the training
# loss keeps falling and the test loss rises: memorization. Right: the eNTK's raw change (red) and its
# scale-free distance to $K_0$ (grey) grow while the training set is being fitted and then level off.
# ```
#
# Under GD the picture is the reverse of Fig. 5. The network fits its training set at step
# ≈ {eval}`glued.gtf_fit` (median). By then its first-logit eNTK has turned by {eval}`glued.gtf_before` in unit
# norm, and its raw change is {eval}`glued.gtf_raw` times $\|K_0\|_F$: the fit is not a kernel-regime fit. After
# fitting, the kernel moves by at most {eval}`glued.gtf_after` more, and nothing else happens: the test accuracy
# stays at {eval}`glued.gtf_test`, the mirrored pairs, and on the pairs whose mirror is unseen too the network
# ends at {eval}`glued.gtf_unm`, near chance. With the cross-entropy of the training set falling towards zero,
# GD's steps shrink with the gradient, and within 20 000 steps it does not leave the memorizing solution. At
# this size, the transformer of Fig. 5 does not grok with GD; AdamW (above) is what makes it grok here. The
# paper's run ($p$ and the number of steps unstated) is `TransformerGrokConfig()` at `REPRO_SCALE=paper`
# ($p = 113$, $10^5$ steps; a GPU).

# %% [markdown]
# ## 6. Regression with GD: what book scale shows
#
# The paper's regression recipe: full-batch GD at learning rate 1 on the square loss against
# $p\,\mathbf 1(a+b\equiv c)$, with $\lambda = 10^{-4}$ on $\|\theta\|_\infty$ and $n = 2p^{2.25}$ triples. The
# book runs $p = 11$ ($n$ = 440, a third of all triples) for 3 000 steps. At $p = 11$, $h = 44$, GD at
# learning rate 1 sits at the edge of stability, and $\alpha = 1$ diverged, so the book uses
# $\alpha \le 0.5$; some inits diverge even so, and the chapter counts them. We track the regression eNTK on
# 1 000 random triples.

# %% tags=["hide-input"]
reg = mw.train_regression(cfg.regression)
readout_reg.record_live_regression(claims, reg, cfg)
fig_reg = plot_regression(reg)
glue("fig_reg", fig_reg, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_reg.png
# :name: fig-mohamadi-reg
# Regression with GD at book scale (medians over the runs that stay finite; bands: range). Left: training
# loss (dashed) falls by orders of magnitude, while test loss (solid) rises above the zero predictor's: the
# network memorizes. Right: $\|\theta\|_\infty$ (solid) rises as the training set is fitted and then decays
# slowly under the $\lambda = 10^{-4}$ penalty. The kernel distance (dotted) moves away from 0 during fitting.
# ```
#
# After 3 000 steps every finite run has driven its training loss far below the zero predictor's (the
# smallest $\alpha$ is the slowest), while its test loss is ≈ {eval}`glued.reg_test` times the zero
# predictor's (median), and its argmax accuracy over all pairs ≈ {eval}`glued.reg_acc`. That is memorization, not
# yet grokking. The $\ell_\infty$ penalty shrinks
# $\|\theta\|_\infty$ by at most $\lambda\eta = 10^{-4}$ per step. Reaching the construction's norm level
# (about 1) from where fitting leaves it (right panel) takes on the order of $10^4$ to $10^5$ steps, which
# is the paper's budget: section 7 runs it.

# %% [markdown]
# ## 7. Regression at the paper's budget, not at its settings (stored)
#
# Section 6 stops after 3 000 steps. The run that decides Figs 2 and 3 at this scale is longer, and it is stored:
# `mw.grokking_regression_config()` trains $p = 11$ ($h = 44$, $n = 440$) with the paper's loss and penalty
# ($\lambda = 10^{-4}$ on $\|\theta\|_\infty$) at $\alpha \in \{1, 0.1, 0.03, 0.01\}$ (1 and the small scales of
# §3.2; Fig. 2's values are not given), three init seeds each, in one batched program. At $p = 11$ GD at
# learning rate 1 diverges at $\alpha = 1$ (section 6), so the run uses learning rate 0.3, the largest we found
# stable for every init, for $4\cdot 10^5$ steps: a gradient-flow time (learning rate × steps) of
# $1.2\cdot 10^5$, inside the paper's $5\cdot 10^4$ to $2\cdot 10^5$ steps at learning rate 1 (App. A.1). The
# penalty can then lower $\|\theta\|_\infty$ by up to 12, far more than fitting raises it.
#
# The budget is the paper's; the settings are not. Fig. 2 runs $p = 47$ at learning rate 1 from He et al.'s
# init (App. A.1 cites [19]); this run is $p = 11$ at learning rate 0.3 from PyTorch's default init, whose
# 3-homogeneous output starts up to 15 times smaller than He's (the setup table below). And Fig. 2 plots
# accuracy, where the claims written before the run judge the test loss; the run records the accuracy too, and
# the claims now report it.

# %% tags=["hide-input"]
stored = readout_reg.report_stored_regression()
fig_reg_stored = plot_regression(stored.res)
glue("fig_reg_stored", fig_reg_stored, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_reg_stored.png
# :name: fig-mohamadi-reg-stored
# The stored regression run ($p = 11$, $4\cdot 10^5$ GD steps at learning rate 0.3; medians over the runs that
# stay finite, bands: range). Left: training (dashed) and test (solid) loss relative to the zero predictor.
# Right: $\|\theta\|_\infty$ (solid) and the scale-free eNTK distance $1-\cos(K_t, K_0)$ (dotted).
# ```

# %% tags=["hide-input"]
stored_stats = readout_reg.record_stored_regression(claims, stored)

# %% [markdown]
# At the paper's budget, measured in gradient-flow time, regression at $p = 11$ still does not grok:
# {eval}`glued.reg_s_generalized` runs reach a test loss below half the zero predictor's. In the quantity Fig. 2
# plots, the argmax accuracy ends between {eval}`glued.reg_s_acc_lo` and {eval}`glued.reg_s_acc_hi` over every
# $\alpha$ and seed ({eval}`glued.reg_s_acc_a1` at $\alpha = 1$, median), above chance ({eval}`glued.reg_chance`)
# and far below the 100 % of the paper's test curves. At $\alpha = 1$ the
# test loss ends at {eval}`glued.reg_s_test_a1` times the zero predictor's (median), falling by only
# {eval}`glued.reg_s_drop` over the second half of the run, while $\|\theta\|_\infty$ has come down to
# {eval}`glued.reg_s_linf`. A smaller init does not help here: at $\alpha =$ {eval}`glued.reg_s_alpha_small` the
# runs fit the training set later (median step {eval}`glued.reg_s_fit_small`), but they fit it, and their
# test loss ends higher, {eval}`glued.reg_s_test_small` times the zero predictor's. No run groks at this scale;
# it is not the paper's setting, so it does not decide Fig. 2 (C7, C9). What this run cannot tell: whether $p = 11$ is too small for the
# paper's $n = 2p^{2.25}$ to leave the kernel regime within the budget, whether grokking needs a larger $p$
# or more steps, or whether it needs the paper's learning rate and init; the weight norm is still falling at
# the end. Section 8 runs the paper's learning rate, and at its end the paper's own $p = 47$, from PyTorch's init
# and from He et al.'s normal init.

# %% [markdown]
# ## 8. Regression at the paper's learning rate, in the first author's parametrization (stored)
#
# Section 7 had to lower the learning rate, because GD at learning rate 1 diverges at $p = 11$ from PyTorch's init
# (section 6). Eq. 2.1 does not say how the network is parametrized, and the first author's public code
# (`mohamad-amin/tracked-grok-v2`, `models/simple.py`, class `GromovMLP`) writes this very network in the NTK
# parametrization: the parameters are $\tilde W, \tilde V$ with $\mathcal N(0, 1)$ entries, and the layers use
# $W = \tilde W/\sqrt{2p}$, $V = \tilde V/\sqrt h$. At init the function has the law of Eq. 2.1 under
# $\mathcal N(0, 1/\text{fan-in})$ weights, but GD on $(\tilde W, \tilde V)$ divides each layer's effective
# learning rate by its fan-in, and $\|\theta\|_2$ starts at $\sqrt{3ph}$ instead of about 1. In this
# parametrization learning rate 1 trains, so `mw.paper_regression_config(p)` runs App. A.1's recipe as written:
# GD at learning rate 1, $\lambda = 10^{-4}$ on $\|\theta\|_\infty$ (of $\tilde W, \tilde V$), $n = 2p^{2.25}$,
# $h = 4p$, $2\cdot 10^5$ steps (App. A.1's longest budget), at $p = 11$ and $23$, with
# $\alpha \in \{1, 0.1, 0.01\}$ and three init seeds each. Fig. 2 is $p = 47$.

# %% tags=["hide-input"]
ntk = readout_reg.report_paper_lr_regression()
fig_reg_ntk = plot_regression_accuracy([ntk.runs[p_] for p_ in mw.PAPER_REGRESSION_PS])
glue("fig_reg_ntk", fig_reg_ntk, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_reg_ntk.png
# :name: fig-mohamadi-reg-ntk
# Regression at the paper's learning rate in the NTK parametrization (stored; medians over three seeds, bands:
# range). Left panels: training-triple accuracy (dashed) and argmax accuracy over all $p^2$ pairs (solid) per
# $\alpha$, chance dotted; the training-triple accuracy starts at $1 - 1/p$, the zero predictor's. Fig. 2 (left)
# shows the test curve rising to 100 % after the training curve. Right:
# $\|\theta\|_\infty$ of the parameters (solid: the smaller $p$, dashed: the larger).
# ```

# %% tags=["hide-input"]
ntk_acc = readout_reg.record_paper_lr_regression(claims, ntk)

# %% [markdown]
# With the paper's learning rate, penalty and budget, and the public code's parametrization, regression still
# memorizes: {eval}`glued.ntk_generalized` runs reach 95 % argmax accuracy, and at $\alpha = 1$ the accuracy ends at
# {eval}`glued.ntk_acc` (medians), where Fig. 2's test curves reach 100 %. Every $\alpha = 1$ run fits its training
# set within a few thousand steps, and $\|\theta\|_\infty$ then falls slowly under the penalty without the test
# accuracy moving. Smaller $\alpha$ fits later and, within this budget, ends no better. So the failure of
# section 7 was not only its learning rate or parametrization: at $p \le 23$ and $2\cdot 10^5$ steps, neither
# setting groks. What this leaves open is $p = 47$ (Fig. 2's), where $n/p^2 = 2p^{0.25}$ is larger, and a longer
# budget, over which the slow fall of $\|\theta\|_\infty$ might still end in generalization.

# %% [markdown]
# ### Fig. 2 at its own $p = 47$, as printed (stored)
#
# At $p = 47$ GD at learning rate 1 stays finite in Eq. 2.1's standard parametrization, so
# `mw.fig2_regression_config()` runs App. A.1 as printed at Fig. 2's own $p$: PyTorch's default init (Fig. 1's
# caption), learning rate 1, $\lambda = 10^{-4}$, $n = 2p^{2.25}$ = 11 568 triples, $h = 4p$, $2\cdot 10^5$ steps,
# $\alpha \in \{1, 0.1\}$, one seed each.

# %% tags=["hide-input"]
p47 = readout_reg.record_fig2(claims, "p47")
fig_p47 = plot_regression_accuracy([p47.res])
glue("fig_p47", fig_p47, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_p47.png
# :name: fig-mohamadi-p47
# Fig. 2 at $p = 47$ as printed (stored; one seed per $\alpha$). Left: training-triple accuracy (dashed; it starts
# at $1 - 1/p$, the zero predictor's) and argmax accuracy over all pairs (solid), chance dotted. Right: $\|\theta\|_\infty$.
# ```
#
# At Fig. 2's own $p$ and recipe the result is the same: the $\alpha = 1$ run fits its training set by step
# {eval}`glued.p47_fit`, and after $2\cdot 10^5$ steps its argmax accuracy is {eval}`glued.p47_acc`, while
# $\|\theta\|_\infty$ falls from {eval}`glued.p47_linf`. Neither $\alpha$ generalizes within the paper's longest
# budget.

# %% [markdown]
# ### Fig. 2 at $p = 47$ from He et al.'s init (stored)
#
# App. A.1 says the networks are "initialized according to [19]", He et al.'s paper, whose normal init draws
# each weight from $N(0, 2/\text{fan-in})$; the run above follows Fig. 1's caption instead ("default PyTorch
# initialization [19]"). He's init draws each layer $\sqrt 6$ times wider, so the 3-homogeneous output starts
# about 15 times larger, and a start that large could change what GD at learning rate 1 does. At $p = 11$ GD at
# learning rate 1 diverges from it; at $p = 47$ it stays finite, so `mw.fig2_he_regression_config()` runs the
# same recipe as above from He's init (`parametrization="standard_he"`; nothing else changed).

# %% tags=["hide-input"]
p47he = readout_reg.record_fig2(claims, "p47he")
fig_p47he = plot_regression_accuracy([p47.res, p47he.res])
glue("fig_p47he", fig_p47he, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_p47he.png
# :name: fig-mohamadi-p47he
# Fig. 2 at $p = 47$ from PyTorch's init (left, the run above) and from He et al.'s init (middle; stored, one seed
# per $\alpha$). Dashed: training-triple accuracy (it starts at $1 - 1/p$, the zero predictor's); solid: argmax
# accuracy over all pairs; chance dotted. Right: $\|\theta\|_\infty$ (solid: PyTorch's init; dashed: He's).
# ```
#
# From He's init the result is the same as from PyTorch's: the $\alpha = 1$ run fits its training set by step
# {eval}`glued.p47he_fit` and ends at argmax accuracy {eval}`glued.p47he_acc` after $2\cdot 10^5$ steps, while
# $\|\theta\|_\infty$ falls from {eval}`glued.p47he_linf`. The larger start does not change what GD at learning
# rate 1 does here: it memorizes within a few thousand steps, and the $\ell_\infty$ penalty has not undone that
# by the end of the paper's longest budget.

# %% [markdown]
# ### A positive control: a penalty that can act within the budget (stored)
#
# None of the regression runs above gives the $\ell_\infty$ mechanism the time it needs: the penalty lowers
# $\|\theta\|_\infty$ by at most $\eta\lambda$ per step, and the stored runs fall far slower than that (about
# $2\cdot 10^{-6}$ per step at $p = 11$ and learning rate 0.3, below $10^{-5}$ at $p = 47$ and learning rate 1),
# while the Fourier construction's level is $\|\theta\|_\infty = 1$ (the halved network of App. F fits in
# $h = 4p$): at $p = 11$ the stored run ends at 1.4-1.5 after $4\cdot 10^5$ steps. So a failure to generalize there says
# nothing about whether the mechanism works in our code. The control `mw.control_regression_config()` makes the
# penalty strong enough to act: $p = 11$, $n = 2p^{2.25}$, $h = 4p$, $\alpha = 1$, learning rate 0.3,
# $\lambda = 10^{-2}$ (100 times App. A.1's), $5\cdot 10^4$ steps, so $\eta\lambda\cdot$steps $= 150$; three fresh
# seeds on a fresh split.

# %% tags=["hide-input"]
ctl = readout_reg.record_control(claims)

# %% [markdown]
# The control fails, and that is informative. The penalty acts: $\|\theta\|_\infty$ falls by
# {eval}`glued.ctl_rate` per step on average, to {eval}`glued.ctl_linf` (median), the construction's level, and the
# training set stays fitted. But the network does not generalize: its argmax accuracy over all pairs ends at
# {eval}`glued.ctl_acc` and its test loss at {eval}`glued.ctl_test` times the zero predictor's (medians). Both
# registered expectations are contradicted, so the claim tables list them as deviations from our bound. Reaching the
# construction's norm is not enough at this $p$ and $n$: $\|\theta\|_\infty \approx 1$ is where the construction
# sits on *all* triples, and an interpolator of 440 of them may have a smaller one, which is what Thm 3.6's
# near-minimal premise asks for. Whether GD gets there with more steps or a stronger penalty is not measured here. So the slow
# fall of $\|\theta\|_\infty$ at App. A.1's $\lambda$ is not the only reason the runs above memorize.

# %% [markdown]
# ## Paper versus ours
#
# In all, this chapter's paper claims (figures and theorems): {eval}`glued.ledger_tally`.
# {eval}`glued.n_after` of its {eval}`glued.n_claims` claims are marked † (set after their result):
# {eval}`glued.n_after_stored` judge stored runs that predate sealed registries; the others carry an amendment,
# listed in the claim tables with its original value and reason. How each
# claim is checked, and the claim tables with every test, are in the *Evidence* section at the end.
#
# ### Deviations and notes
#
# * **Regression grokking and the init-scale effect (Figs 2 and 3): no run groks; undecided.** The verdicts (C7,
#   C9) stay inconclusive because the runs at Fig. 2's own $p = 47$ have one seed per init. The stored run of
#   section 7 trains $p = 11$ for the paper's budget in learning rate × steps (learning rate 0.3, since
#   learning rate 1 diverges at $\alpha = 1$ for $p = 11$) from PyTorch's default init: every run memorizes,
#   none generalizes, its accuracy ends far below 100 %, and the smallest $\alpha$ ends with the highest test
#   loss. At the paper's learning rate 1 and budget, in the first author's NTK parametrization, $p = 11$ and
#   $23$ memorize too (section 8). At Fig. 2's own $p = 47$, with App. A.1 as printed (standard
#   parametrization, learning rate 1, $2\cdot 10^5$ steps, one seed per $\alpha$), the runs from PyTorch's
#   init and from He et al.'s normal init both fit within a few thousand steps and end near chance (argmax
#   accuracy {eval}`glued.p47_acc` and {eval}`glued.p47he_acc`). What the paper did differently is not in its
#   text: it trains in JAX, and its precision, Fig. 2's width and its regression accuracy are not stated. The eNTK of
#   these runs is recorded on 1 000 triples, not Fig. 2's 20 000 (a GPU's memory). Fig. 3
#   ($\|\theta\|_\infty$ after grokking against $p$) needs grokking first. The paper-scale classification
#   sweep goes up to $p = 97$ with $10^5$ steps.
# * **The transformer of Fig. 5 trains live with AdamW; GD is the stored run.** The paper (App. A.3) uses
#   full-batch GD at learning rate 0.25, $\lambda = 10^{-20}$ on $\|\theta\|_\infty$ and $n = 2p^{5/3}$; it gives
#   neither $p$, the architecture nor the number of steps. `TransformerGrokConfig()` (`REPRO_SCALE=paper`) runs GD
#   at learning rate 0.25 on $p = 113$ ($n$ = 5 282) with Nanda et al.'s architecture for $10^5$ steps, recording
#   the eNTK every 500 steps; we had no GPU and did not run it. The stored GD run of section 5 uses the book's
#   network ($p = 23$, $d_\text{model} = 64$, $d_\text{mlp} = 256$, TransformerLens' init) for
#   {eval}`glued.tfgd_steps` steps: it fits the training set, keeps the memorizing solution and never answers the
#   pairs whose mirror is unseen, and its kernel moves during fitting. Whether a larger $p$, the paper's unstated
#   init (we tried $N(0, 1/d_\text{model})$ and an approximation of PyTorch's default for up to 1 000 steps: both
#   fitted and stopped there, and the latter diverged at $d_\text{model} = 128$) or many more steps would grok
#   is open. The live run uses AdamW (learning rate $3\cdot 10^{-3}$, weight decay 1, betas (0.9, 0.98): Nanda et
#   al.'s recipe with a 3× larger learning rate, for speed), which reproduces late generalization, but not a
#   kernel that stands still until fitting.
# * **Transformer details.** The $\ell_\infty$ term of App. A.3 is not applied. `repro.training.trainer` has no such term,
#   and at $10^{-20}$ it is a no-op in float32 anyway: it changes a gradient entry only where that entry is
#   below about $10^{-13}$. The init is TransformerLens' $N(0, (0.8/\sqrt{d_\text{model}})^2)$ for every
#   weight, not the unstated "default PyTorch initialization (migrated to JAX)" of an unstated model. The
#   transformer's eNTK is that of the first logit, as in Fig. 1 (left), recorded on 128 random pairs; the live runs
#   read it on the training pairs among them (the paper's training-set eNTK), the stored GD run on all 128, train
#   and test mixed (its stored Gram matrix cannot be restricted). The pairs are
#   ordered, as in the paper ($N = p^2$). AdamW here is sensitive to rounding: in float32 the step at which
#   the test accuracy reaches 90 % moves by tens of steps between one and two threads, and it moves by
#   hundreds between seeds (left panel of the figure). The book scale therefore trains in float64, runs
#   three seeds, and prints seed counts and medians only. The paper scale keeps float32.
# * **The $\lambda = 10^{-20}$ penalty under normalized GD.** Weighing the penalty's subgradient exactly
#   against the true cross-entropy gradient makes it dominate once the gradient falls below $10^{-20}$, which
#   takes a few hundred steps. From then on each normalized step only flips the arg-max entry by $\pm 10$,
#   and training stalls. In float32, which the paper's JAX code presumably used, the softmax gradient
#   underflows even earlier. We add the penalty to the underflow-safe data direction instead, whose largest
#   logit weight is 1, so it stays negligible, as a penalty of $10^{-20}$ is meant to be.
#   `ClassificationConfig(exact_regularizer=True)` runs the literal variant.
# * **Widths, $p$ lists and $\alpha$ values** of Figs 1, 2 and 4 are not stated in the paper; we use
#   $h = 8p$ (classification, the width Thms 4.5 and 3.8 assume) and $h = 4p$ (regression, as in Fig. 3).
# * **The kernel of the classification comparison** is the pNTK, not the full $p\times p$-matrix-valued
#   eNTK, to keep the solve at $n\times n$. Thm 4.3 is an $\ell_2$ statement; the accuracy below chance is
#   our own check.

# %% [markdown]
# ## Evidence
#
# What follows is the verification behind the verdicts: the criteria registered for each stored run and where
# the runs come from, the tolerances and resolutions, the claims set after their result, and the claim tables
# with every test. The verdicts in the summary at the top follow from these tables by the decision rules on the
# reproduction-status page.
#
# ### The stored runs: criteria and provenance
#
# Each stored run prints, where it is loaded, the machine, torch version and commit that produced it (the
# `stored run:` lines above), and its setup table.
#
# - **The init scale under plain GD (section 4).** `python -m repro.experiments.mohamadi2024_why_grok --store
#   book/_results --only gd-init-scale` recomputes it ({eval}`glued.gdi_minutes` minutes on one core). The
#   criteria, written before the run (which predates sealed registries, so the ledger marks its claims †): Fig.
#   1 (middle) reproduces if the smallest $\alpha$ generalizes (final accuracy on the unmirrored test pairs
#   within 0.1 of 100 %), and the direction of the effect reproduces if the smallest $\alpha$'s test accuracy at
#   the step it fits the training set exceeds $\alpha = 1$'s by at least 0.1 (medians over seeds).
# - **From a start far above one normalized step (section 4).** Its four claims were registered before it ran,
#   after a 3 000-step pilot with two seeds: at $\alpha = 1$ the test accuracy ends at 100 % (Fig. 1, middle);
#   the scale-free eNTK distance at the fit is at most half of its final value, and the raw change grows by at
#   least a decade after the fit (Fig. 1, left: "negligibly changed before fitting ... then changes
#   drastically"; both bounds are ours, and the scale-free metric too, so since 2026-12-03 that one is filed as a
#   check); and the gap from fit to 99 % test accuracy is no longer at $\alpha =
#   0.1$ than at $\alpha = 1$ (Fig. 1, middle: a smaller $\alpha$ mitigates grokking).
# - **Sample complexity against $p$ (section 4).** Before the run we had registered the first claim, $k \le
#   5/3$, as "$k$ within 0.3 of 5/3", which treated the bound as a prediction; the registry keeps that original
#   and its amendment, and the ledger marks the claim †, as it marks every claim on this run, which predates
#   sealed registries. The run took {eval}`glued.sc_minutes` minutes on one core; `python -m
#   repro.experiments.mohamadi2024_why_grok_sample --store book/_results` recomputes it.
# - **Settled budgets at $p$ = 37–53 (section 4).** Five claims were registered before this run started and
#   sealed by it. Two are ours: a critical size counts as *settled* when doubling the budget moves it by less
#   than one step of the size grid ($|\Delta \log_2 n^*| \le 1/4$), judged at 2 000 → 4 000 steps for $p \ge 37$
#   and at 750 → 1 500 steps for the $p \le 31$ of the first run (registered before that number was computed).
#   Three are the paper's, as bounds: every $p$ generalizes at $n = 2p^{5/3}$ (Fig. 1 right, Fig. 4 left; median
#   accuracy within 0.01 of 1), the exponent of $n^* \propto p^k$ over the settled critical sizes ($p \le 31$ at
#   1 500 steps, $p \ge 37$ at 4 000) is at most 5/3 (Thm 4.5), and the bootstrap's 97.5th percentile stays
#   below the kernel methods' 2 (Thm 4.3). Each $p$ is stored on its own; they took
#   {eval}`glued.bud_minutes_each` minutes ($p$ = 37, 41, 47, 53; {eval}`glued.bud_minutes` in all, two at a
#   time on the 2-core machine).
# - **The transformer under GD (section 5).** It is stored; the chapter loads it, and `python -m
#   repro.experiments.mohamadi2024_why_grok --store book/_results --only transformer-gd` recomputes it
#   ({eval}`glued.tfgd_minutes` minutes on one core). The claims use the criteria of the AdamW run, written
#   before this run (which predates sealed registries, so the ledger marks its claims †): the kernel's change is
#   *negligible* before fitting if its unit-norm distance $\|\bar K_{\rm fit} - \bar K_0\|_F$ is at most 0.1
#   ($\cos \ge 0.995$), and Fig. 5's pattern needs the unit-norm change after fitting to be at least ten times
#   the change before.
# - **Regression at the paper's budget (section 7).** The criterion was written before looking (the run predates
#   sealed registries, so the ledger marks its claims †): a run *generalizes* when its test loss falls below
#   half the zero predictor's (the level Thm 3.4 shows no kernel method reaches, section 3), and it has *fitted*
#   the training set when its training loss is below 1 % of the zero predictor's. For the accuracy, which the
#   paper does not define for regression, we use the argmax $\arg\max_c f_c(a, b)$ over all $p^2$ pairs, against
#   the 100 % that Fig. 2's test curves reach. The run took {eval}`glued.reg_stored_minutes` minutes on one CPU
#   core; the chapter loads it, and `python -m repro.experiments.mohamadi2024_why_grok --store book/_results`
#   recomputes it.
# - **Regression at the paper's learning rate (section 8).** Its claims were registered before the run started
#   and sealed by it: the training set is fitted at $\alpha = 1$, the argmax accuracy over all pairs ends at $1
#   \pm 0.05$ (Fig. 2's test curves reach 100 %), and it gets there at least twice as late as the fit (the
#   grokking delay; "twice" is our bound). We had seen one pilot before registering: one seed at $p = 11$ for
#   $10^5$ steps, which fitted and did not generalize. The delay claim is judged only when an $\alpha = 1$ run
#   reaches 95 %: a run that never does has no delay to compare.
# - **Fig. 2 at $p = 47$, as printed (section 8).** Its four claims were registered before it started, in two
#   segments: the $\alpha = 1$ run fits, its argmax accuracy ends at $1 \pm 0.05$, the delay is at least a
#   factor 2, and the gap is no longer at $\alpha = 0.1$ (the last two judged only when the runs generalize).
# - **Fig. 2 at $p = 47$ from He et al.'s init (section 8).** Its four claims, the same criteria as above, were
#   registered before it started.
# - **The positive control (section 8).** Its two criteria (ours: final argmax accuracy over all pairs at least
#   0.9, test loss at most half the zero predictor's) were registered before it ran, which took
#   {eval}`glued.ctl_minutes` minutes on one core.
#
# ### Tolerances and resolutions
#
# The construction is exact up to float64 rounding ($\sim 10^{-14}$), and the check uses $10^{-9}$. The rank
# test counts eigenvalues above $10^{-10}\lambda_{\max}$; where there is a gap between singular and invertible
# kernels, $\lambda_{\min}/\lambda_{\max}$ jumps from below $10^{-15}$ to above $10^{-6}$. The kernel losses
# come from float64 linear algebra at init, without training. The claims on trained networks are medians or seed
# fractions over five seeds for the two-layer networks at $n = 2p^{5/3}$ (inits and training splits) and three
# for the transformer (inits), because single trained runs are chaotic: a change in the last bit of a CPU's
# vector kernel moves their fitting steps and final ratios. Accuracies near 1 are shown at 0.01; the two
# scale-free eNTK ratios, which vary between seeds by tenths and must exceed 10 to reproduce the paper, at 1;
# the $\alpha$ gap ratio, whose seeds scatter by about a quarter, at 1. The tolerance of the seed fractions
# (0.2) lets one seed in five miss.
#
# ### Claims set after their result (†)
#
# The claims on the stored runs made before their registry entries existed (the claim tables mark each; those
# registered before their run started, such as the Fig. 1 init-scale and p = 47 runs', are sealed and carry no †).
# Besides, by amendment: the $\alpha$
# gap ratio's band (a gap halved at $\alpha = 0.1$, chosen after exploratory three-seed runs had shown ratios
# near 1); the factor of ten within which norm growth must explain the raw eNTK ratio (chosen after seeing that
# it explains it more closely than that); Thm 4.5's exponent, first registered as a window of ±0.3 around 5/3
# and now the bound $k \le 5/3$ the theorem states; Thm 3.1's comparison with our own threshold, re-kinded as a
# check; and two claims written after their result had been seen: Thm 3.1's bound (singular below $n/(3p)$) and
# the stored regression run's accuracy.

# %% [markdown]
# ### The claim tables
#
# The paper's claims, numbered and quoted, each with one verdict that follows from its tests by the book's
# decision rules (registered once, stated under the table). The figure rows below the claims are the
# evidence: each names the paper claims its comparisons bear on.

# %% tags=["hide-input", "hide-output"]
readout_ledger.record_theorem_rows(claims, span=span_stats, cspan=cspan, cspan_stats=cspan_stats, cls=cls)
readout_ledger.record_fig1_rows(claims, cls=cls, norms=norms, ntk_class=ntk_class, init=init, gdi=gdi)
readout_ledger.record_fig1_right_rows(claims, results=results, scs=scs, bud=bud)
readout_ledger.record_fig2_3_rows(claims, cfg=cfg, stored=stored, stored_stats=stored_stats, ntk_acc=ntk_acc,
                                  p47=p47, p47he=p47he, ctl=ctl)
readout_ledger.record_fig4_5_rows(claims, cfg=cfg, results=results, scs=scs, tfs=tfs, gtf=gtf)
readout_ledger.glue_ledger_counts(claims)
claims.ledger()

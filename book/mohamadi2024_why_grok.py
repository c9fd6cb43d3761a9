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
# **Mohamadi et al. 2024 (Why do you grok?), claim by claim** — 17 paper claims: 4 reproduced, 1 not reproduced (rate 4/5); 6 inconclusive, 6 not tested.
#
# | claim | our verdict | deciding test: ours vs the reference | the paper says | where |
# | --- | --- | --- | --- | --- |
# | **C1** | ❔ inconclusive | T06: 1 vs paper >= 1 | “Our first result shows that kernel regression with the empirical neural tangent kernel of our quadratic network achieves zero training loss if the …” | Thm 3.1 |
# | **C2** | ⏳ not tested | — | “Training a two-layer neural network with quadratic activations … initialized with random i.i.d. parameters using gradient-based update rules (such as …” | Thm 3.3, Prop. 4.2 |
# | **C3** | ✅ reproduced | T65: 0.68 vs paper >= 0.5 | “any such kernel predictor needs at least …, or equivalently …, to generalize on the modular addition task; otherwise it cannot do substantially …” | Thm 3.4 |
# | **C4** | ⏳ not tested | — | “Consider the problem of learning modular addition over …-summands with a training set of size … using a permutation equivariant kernel method … the …” | Thm 3.5 |
# | **C5** | ⏳ not tested | — | “We further establish that if the network manages to achieve zero training error with small …, it will generalize with only a … portion of the overall …” | Thm 3.6, Prop. 3.7 |
# | **C6** | ✅ reproduced | T01: 1 vs paper 1 ± 0 | “The main difficulty is a manual Fourier-based construction of a zero-loss solution with … and … norm at most one; … because our model is …” | Prop. 3.8 |
# | **C7** | ❔ inconclusive | T53: 0.10 vs paper 1 ± 0.05 | “We also prove that such networks exist (Proposition 3.8), and demonstrate that gradient descent can find them with a small amount of explicit …” | Fig. 3 left, Fig. 2 left |
# | **C8** | ⏳ not tested | — | “In Figure 3, we empirically evaluate the … norm of weights learned by running gradient descent on the regression task, with varying …, and a very …” | Fig. 3 right |
# | **C9** | ❔ inconclusive | T55: never reached vs paper <= 0 | “Figure 2 confirms that in our setting: using a very small weight initialization can substantially mitigate the grokking effect by preventing the …” | Fig. 2 left |
# | **C10** | ⏳ not tested | — | “We see that the change in empirical NTK is orders of magnitude larger after overfitting the training set, implying that most feature learning happens …” | Fig. 2 right |
# | **C11** | ✅ reproduced | T67: 0.63 vs paper >= 0.5 | “The following theorem establishes that any such kernel learning algorithm needs at least …, or equivalently …, to generalize on the modular addition …” | Thm 4.3 |
# | **C12** | ⏳ not tested | — | “In other words, any interpolating solution with approximately maximal normalized …-margin, … has a sample complexity of …, since Proposition 3.8 …” | Thm 4.5, Thm 4.6 |
# | **C13** | ✅ reproduced | T61: 1.00 vs paper 1 ± 0.01 | “Theorem 4.5 confirms and explains previous observations [41, 15, 37, 27, e.g.] on the minimum threshold for the fraction of data used to achieve …” | Fig. 1 right, Fig. 4 left |
# | **C14** | ❔ inconclusive | T21: 0.5 vs paper <= 1 | “Figure 4 empirically evaluates the … norm of the learned weights through gradient descent on the classification task, with tiny … regularization …” | Fig. 4 right |
# | **C15** | ❌ not reproduced | T49: 0.76 vs paper <= 0.5 | “Similar to the regression setting, Figure 1 presents empirical evidence on the impact of kernel regime on the poor generalization capabilities in the …” | Fig. 1 left |
# | **C16** | ❔ inconclusive | T17: 1 vs paper 0 ± 0.5 | “Through changing the scale of initialization, in Figure 1 we demonstrate that by decreasing the scale of initialization in the classification task …” | Fig. 1 middle |
# | **C17** | ❔ inconclusive | T31: 1.00 vs paper 1 ± 0.01 | “Figure 5 suggests that, similarly to the two-layer network, grokking in the original Transformer studied by [41] might be explainable through the …” | Fig. 5 |
#
# The deciding test is the one the verdict rests on (a decided disagreement first); every test, its margin in seed standard errors and the verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the reproduction-status page.
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
# **What it does not reproduce.** Every known non-reproduction is a registered *deviation* in the
# ledger at the end of the chapter ("Paper versus ours"):
#
# * *The kernel half of Figs 1 and 5.* The raw eNTK change does grow by orders of magnitude after
#   fitting, as in Fig. 1 (left), but the growth of $\|\theta\|$ explains it: the eNTK of this
#   3-homogeneous network scales like $\|\theta\|^4$. Measured scale-free, the kernel moves about as much
#   before fitting as after, for the two-layer network and for the transformer. For the two-layer network this
#   is partly our setup: with PyTorch's default init the weights start at a norm below one normalized step,
#   so no kernel regime is possible (section 4).
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
#   et al.'s normal init (the end of section 8): every run fits its training set and none generalizes. A positive
#   control with a penalty 100 times App. A.1's, strong enough to bring $\|\theta\|_\infty$ down to the Fourier
#   construction's level within its budget, memorizes too.
#
# Fig. 5's transformer also trains with AdamW at book scale, not with the paper's GD (Section 5).
# `REPRO_SCALE=paper` runs the config defaults with the same code: the paper's settings except the init and the
# other differences each experiment's setup table lists. No GPU was available to run them for this chapter.

# %% tags=["hide-input"]
import math
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
import torch
from repro.core.prose import glue

from repro.book.claims import ClaimBook
from repro.core.portable import approx, trained
from repro.core.scale import current_scale
from repro.experiments import mohamadi2024_why_grok as mw
from repro.experiments import mohamadi2024_why_grok_sample as mws
from repro.experiments.mohamadi2024_why_grok_setup import (budget_setup_table, classification_setup_table,
                                                           fig2_setup_table, gd_init_scale_setup_table,
                                                           gd_transformer_setup_table,
                                                           ntk_classification_setup_table,
                                                           paper_lr_regression_setup_table, regression_setup_table,
                                                           sample_complexity_setup_table, start_norms,
                                                           stored_regression_setup_table, theorem_setup_table,
                                                           transformer_setup_table)
from repro.plotting.mohamadi2024_why_grok import (plot_classification, plot_init_scale_gd, plot_kernel_regime,
                                                  plot_ntk_classification, plot_regression, plot_regression_accuracy,
                                                  plot_transformer)
from repro.plotting.mohamadi2024_why_grok_sample import plot_norm_margin, plot_sample_complexity, plot_settled_budget
from repro.plotting.shared import use_style
from repro.theory import mohamadi2024 as th
from repro.training.store import load_stored, provenance_line, require_stored

# One thread: every computation here is many small tensor ops, which two threads on a shared 2-core machine
# only slow down (the eNTK rank sweep took 100× more CPU time on two threads under load than on one).
torch.set_num_threads(1)
use_style()
claims = ClaimBook("mohamadi2024_why_grok")
cfg = mw.WhyGrokConfig.for_scale()
print(f"scale: {current_scale()}")
n_sample = len(cfg.seeds if cfg.sample_seeds is None else cfg.sample_seeds)
print(f"classification: grok_p = {cfg.grok_p}, sample_ps = {cfg.sample_ps}, {cfg.class_steps} normalized GD steps, "
      f"{len(cfg.seeds)} seeds at n = 2p^(5/3), {n_sample} at the other n")
tc = cfg.transformer
print(f"transformer: p = {tc.p}, n = {tc.n_train}, d_model = {tc.d_model}, d_mlp = {tc.d_mlp}, "
      f"{tc.steps} {'AdamW' if tc.optimizer == 'adamw' else 'GD'} steps at lr {tc.lr:g}, seeds {cfg.transformer_seeds}")
print(f"regression: p = {cfg.regression.p}, h = {cfg.regression.width}, n = {cfg.regression.n_train}, "
      f"{cfg.regression.steps} GD steps, alphas = {cfg.regression.init_scales}, seeds {cfg.regression.seeds}")


def count(flags, live: bool = True) -> str:
    """'k of S seeds': how many seeds satisfy a statement. ``live``: the flags come out of a training run in this
    chapter, so k is marked as a trained number (the number of seeds S is the config's); False for a stored run."""
    flags = np.asarray(flags, dtype=bool)
    k = int(flags.sum())
    return f"{trained(k) if live else k} of {flags.size} seeds"

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
# Each experiment prints a setup table: every setting beside the paper's, and the reason for each difference.
# Two config defaults are not the paper's: the init (above), and the weighing of the $\lambda = 10^{-20}$
# penalty under normalized GD (`exact_regularizer`, see Deviations). The stored runs print their own tables
# where they are loaded.

# %% tags=["hide-input"]
ccfg = cfg.classification_config(cfg.grok_p)
norms = start_norms(cfg.grok_p, ccfg.width)
print(theorem_setup_table(cfg))
print()
print(classification_setup_table(cfg))
print()
print(transformer_setup_table(cfg))
print()
print(regression_setup_table(cfg))

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
rows = mw.construction_table(cfg.construction_ps)
dup = mw.construction_table([cfg.construction_ps[-1]], cfg.duplication_rs)
print("  p  version  width  max|f - p·1|<1e-9  accuracy  ‖θ‖∞  margin/p")
for r in rows:
    print(f"{r['p']:3d}  {'halved' if r['halved'] else 'full  '}  {r['width']:5d}  {str(r['max_error'] < 1e-9):>17}"
          f"  {r['accuracy']:8.2f}  {r['linf']:.2f}  {r['margin'] / r['p']:.2f}")
print(f"duplication at p = {dup[0]['p']} (full version):")
for r in dup:
    if not r["halved"]:
        print(f"  r = {r['r']}: width {r['width']}, ‖θ‖∞ = {r['linf']:.3f} (r^(-1/3) = {r['r'] ** (-1 / 3):.3f}), "
              f"max|f - p·1| < 1e-9: {r['max_error'] < 1e-9}")

# %% tags=["hide-input"]
full = [r for r in rows + dup if not r["halved"]]
# Rounded up to a power of ten: the float64 rounding error itself (~1e-14) differs between BLAS builds.
max_error = 10.0 ** math.ceil(math.log10(max(r["max_error"] for r in rows + dup)))
claims.check("Fourier construction: accuracy over all p² pairs, every p from 2 to 13",
             min(r["accuracy"] for r in rows), live=False)
claims.check("Fourier construction (V/4): max |f − p·1| over all pairs and p (rounded up to 10^k)", max_error,
             live=False)
_ = claims.check("Fourier construction: worst |‖θ‖∞ − r^(−1/3)| over p and r ∈ {1, 2, 4, 8} copies",
             max(abs(r["linf"] - r["r"] ** (-1 / 3)) for r in full), live=False)

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
mismatch = int(np.sum((rank["rank"] < rank["n"]) != (rank["widths"] * (3 * rank["p"] - 2) < rank["n"])))
for h, rk, bd in zip(rank["widths"], rank["rank"], rank["bound"]):
    print(f"h = {h:3d}: rank {rk:4d}, min(n, h(3p-2)) = {bd:4d}, singular: {rk < rank['n']}")
glue("rank_threshold", f"{rank['n'] / (3 * rank['p'] - 2):.1f}", display=False)
glue("rank_lower", f"{rank['n'] / (3 * rank['p']):.1f}", display=False)
claims.check("eNTK rank: largest |rank − min(n, h(3p−2))| over widths",
             int(np.abs(rank["rank"] - rank["bound"]).max()), live=False)
claims.check("widths where 'eNTK singular' ≠ 'h(3p−2) < n'", mismatch, live=False)
below = rank["widths"] < rank["n"] / (3 * rank["p"])  # Thm 3.1's converse: no interpolation below h = n/(3p)
glue("rank_below", ", ".join(str(h) for h in rank["widths"][below]), display=False)
_ = claims.check("eNTK singular at every tested width below Thm 3.1's n/(3p): fraction of those widths",
             float(np.mean(rank["rank"][below] < rank["n"])), live=False)

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
print("relative test loss (eNTK at init / expected NTK)")
print("   p  " + "  ".join(f"frac {f:.1f}  " for f in ksweep["fractions"]))
for i, p in enumerate(ksweep["ps"]):
    print(f"{p:4d}  " + "  ".join(f"{e:4.1f} / {x:4.1f}" for e, x in zip(ksweep["empirical"][i], ksweep["expected"][i])))
fig_kernel = plot_kernel_regime(rank, ksweep)
glue("fig_kernel", fig_kernel, display=False)
kernel_min = min(ksweep["empirical"].min(), ksweep["expected"].min())
glue("kernel_min", approx(kernel_min, 0.05), display=False)
# Kernel regression at init is float64 linear algebra without training: its losses move only in the last bits.
claims.check("ridgeless kernel regression: smallest relative test loss over p and fractions ≤ 0.9 (eNTK and expected NTK)",
             kernel_min, live=False)
_ = claims.check("ridgeless kernel regression: smallest relative test loss, against the zero predictor's 1", kernel_min, live=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_kernel.png
# :name: fig-mohamadi-kernel
# Left: the eNTK's rank against width. It follows $\min(n, h(3p-2))$ exactly, so the kernel becomes
# invertible, and eNTK regression interpolates, at $h = n/(3p-2)$. Right: eNTK-at-init (solid) and
# expected-NTK (dashed) kernel regression, test loss relative to the zero predictor, against the
# training fraction. Every point lies above 1 (black line), and so above Thm 3.4's bound of 1/2
# (dotted), even with 90 % of all triples in the training set.
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
print("population loss / zero predictor's: best in the eNTK's span / expected NTK's; averaged over permuted tasks; App. D bound")
for i, p in enumerate(span["ps"]):
    for j, f in enumerate(span["fractions"]):
        print(f"  p = {p:2d}, fraction {f:.1f}: {span['empirical'][i, j]:.3f} / {span['expected'][i, j]:.3f}; "
              f"{span['empirical_perm'][i, j]:.3f} / {span['expected_perm'][i, j]:.3f}; bound {span['bound'][i, j]:+.3f}")
inside = span["bound"] >= 0.5  # where App. D's explicit bound reaches Thm 3.4's 1/2
span_min = float(min(span["empirical"][inside].min(), span["expected"][inside].min()))
span_slack = float(min((span[k] - span["bound"]).min() for k in ("empirical_perm", "expected_perm")))
glue("span_min", f"{span_min:.2f}", display=False)
glue("span_slack", f"{span_slack:.2f}", display=False)
glue("span_inside", ", ".join(f"({p}, {f:.1f})" for p, f in zip(np.array(span["ps"])[np.where(inside)[0]],
                                                               span["fractions"][np.where(inside)[1]])), display=False)
# Closed forms and float64 projections at init, no training: the numbers move only in the last bits.
claims.check("best predictor in the kernel's span: smallest population loss / zero predictor's over p, both kernels "
             "and the fractions where App. D's bound is ≥ 1/2", span_min, live=False)
_ = claims.check("best predictor in the kernel's span averaged over the permuted tasks, minus App. D's bound: smallest "
             "over p, fractions and both kernels", span_slack, live=False)

# %% tags=["hide-input"]
cspan = mw.pntk_span_sweep(cfg.grok_p, mw.SPAN_PAIR_FRACTIONS, 8 * cfg.grok_p, cfg.seed)
for f, b_, e_, bd in zip(cspan["fractions"], cspan["best"], cspan["perm"], cspan["bound"]):
    print(f"pNTK at init, p = {cspan['p']}, h = 8p, pair fraction {f:.1f}: best in span {b_:.3f}; averaged over permuted "
          f"tasks {e_:.3f}; App. D bound {bd:+.3f}")
cspan_min = float(cspan["best"][cspan["bound"] >= 0.5].min())
cspan_slack = float((cspan["perm"] - cspan["bound"]).min())
glue("cspan_min", f"{cspan_min:.2f}", display=False)
glue("cspan_slack", f"{cspan_slack:.2f}", display=False)
claims.check("pNTK at init: best predictor in its span (pNTK ⊗ I_p), smallest population loss / zero predictor's over "
             "the pair fractions where App. D's bound is ≥ 1/2", cspan_min, live=False)
_ = claims.check("pNTK at init: best predictor in its span averaged over the permuted tasks, minus App. D's bound: "
             "smallest over the pair fractions", cspan_slack, live=False)

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
mc = main.config
runs = main.runs_of(2.0, 1.0)  # α = 1, c = 2: one run per seed, the eNTK recorded
fits = main.first_step("train", 1.0)[runs]  # first step with 100 % training accuracy
gens = main.first_step("test", 0.99)[runs]
print(f"p = {mc.p}, h = {mc.width}, {mc.steps} steps:")
for c_, a_ in dict.fromkeys(zip(mc.n_coeffs, mc.init_scales)):
    rows = main.runs_of(c_, a_)
    print(f"  c = {c_:.1f} (n = {th.classification_train_size(mc.p, c_)}), alpha = {a_:.1f}: train set fitted: "
          f"{count(main.train_acc[rows, -1] == 1.0)}; final test accuracy >= 0.99: {count(main.test_acc[rows, -1] >= 0.99)}"
          f", <= 0.1: {count(main.test_acc[rows, -1] <= 0.1)}")
fit_first = (fits > 0) & (fits < np.where(gens < 0, np.inf, gens))
print(f"alpha = 1, c = 2: fitted before test accuracy reached 99 %: {count(fit_first)}")

# %% [markdown]
# In every seed the training set is fitted within a few hundred steps, and the test accuracy passes 99 %
# some hundreds of steps later (left panel of the figure below): the train–test gap of Fig. 1 (middle).
#
# **The kernel side, on the same split.** The pNTK at the same init (the $\sum_c f_c/\sqrt p$ kernel of
# ref. [32], shared by all outputs), with the initial network as prior mean, regressed on the one-hot
# targets of the very training pairs the network above learned from. Thm 4.3 bounds its squared test loss
# from below by half the zero predictor's; the paper leaves the accuracy open.

# %% tags=["hide-input"]
kernel = np.array([mw.kernel_classifier_on_split(main, run=r) for r in runs])  # (seeds, 2): accuracy, loss
kernel_acc, kernel_loss = np.median(kernel, axis=0)
trained_acc = main.test_acc[runs, -1]
# The kernel predictor is not trained (float64 linear algebra at init): its numbers move only in the last bits.
print(f"pNTK kernel classifier on the same {mc.train_sizes()[0]} training pairs ({len(runs)} splits): median test "
      f"accuracy {approx(kernel_acc, 0.01)} (max {approx(kernel[:, 0].max(), 0.01)}; chance {1 / mc.p:.2f}), "
      f"test loss / zero predictor's {approx(kernel_loss, 0.1)} (median)")
print(f"trained network on the same splits: test accuracy >= 0.99: {count(trained_acc >= 0.99)}")
glue("kernel_acc", approx(kernel_acc, 0.01), display=False)
glue("chance", f"{1 / mc.p:.2f}", display=False)
glue("kernel_loss", approx(kernel_loss, 0.1), display=False)
glue("trained_acc", trained(np.median(trained_acc), 0.01), display=False)
glue("n_seeds", str(len(runs)), display=False)
claims.check(f"pNTK kernel classifier: test loss / zero predictor's (p = {mc.p}, n = 2p^(5/3)), median of {len(runs)} splits",
             kernel_loss, live=False)
claims.check(f"pNTK kernel classifier: test accuracy against chance 1/p, median of {len(runs)} splits", kernel_acc,
             reference=1 / mc.p, live=False)
# Trained accuracies are shown at 0.01: every seed ends at 1.00 or close; Fig. 1 and 4's test curves reach 100 %.
claims.check(f"trained network: final test accuracy on the same splits (p = {mc.p}), median of {len(runs)} seeds",
             np.median(trained_acc), seeds=trained_acc)
# A seed counts if its training set is fitted before its test accuracy reaches 99 %; the tolerance lets one
# seed in five miss (a seed that fits and generalizes within one evaluation interval).
_ = claims.check(f"fitted before the test accuracy reached 99 % (α = 1): fraction of {len(runs)} seeds",
             np.mean(fit_first), seeds=fit_first.astype(float))

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
raw_before, raw_after = np.array([main.ntk_ratio(r) for r in runs]).T  # raw after: a lower bound (triangle)
fit_eval = [int(np.searchsorted(main.steps, f)) for f in fits]
norm_growth = (main.l2[runs, -1] / main.l2[runs, fit_eval]) ** 4  # (‖θ_T‖₂ / ‖θ_fit‖₂)^4
shape = np.array([main.shape_change(r) for r in runs])  # (seeds, 2): unit-norm kernel change before, after
shape_ratio = shape[:, 1] / shape[:, 0]
explained = np.abs(np.log10((raw_after / raw_before) / norm_growth)) <= 1
print(f"raw eNTK change after fitting >= 10x the change up to fitting (Fig. 1 left's pattern): {count(raw_after >= 10 * raw_before)}")
print(f"raw eNTK change up to fitting >= 100 x ‖Θ̂_0‖_F: {count(raw_before >= 100 * main.ntk_norm0[runs])}")
print(f"norm growth (‖θ_T‖₂/‖θ_fit‖₂)^4 within a factor 10 of the raw after/before ratio: {count(explained)}")
print(f"unit-norm eNTK: change after fitting >= 10x the change up to fitting: {count(shape_ratio >= 10)}; "
      f"below twice it: {count(shape_ratio < 2)}")
glue("ntk_norm0", approx(np.median(main.ntk_norm0[runs]), digits=2), display=False)  # at init: no training
# ‖θ_0‖₂ at α = 1 (the init, not trained), against the closed forms of He's init and the NTK parametrization
glue("theta0_l2", approx(np.median(main.l2[runs, 0]), digits=1), display=False)
glue("theta0_he", f"{norms['He']:.0f}", display=False)
glue("theta0_ntk", f"{norms['NTK']:.0f}", display=False)
# Resolution 1: the ratio varies between seeds and CPUs by tenths, and the paper's reading needs ≥ 10.
glue("shape_ratio", trained(np.median(shape_ratio), 1), display=False)
# Counts over seeds: the raw ratio itself varies by factors of several between seeds (and between CPUs).
claims.check(f"raw eNTK change after fitting ≥ 10× the change up to fitting: fraction of {len(runs)} seeds",
             np.mean(raw_after >= 10 * raw_before), seeds=(raw_after >= 10 * raw_before).astype(float))
claims.check(f"raw after/before ratio within 10× of the norm growth (‖θ_T‖₂/‖θ_fit‖₂)^4: fraction of {len(runs)} seeds",
             np.mean(explained), seeds=explained.astype(float))
_ = claims.check(f"unit-norm eNTK change after fitting ÷ before fitting, median of {len(runs)} seeds",
             np.median(shape_ratio), seeds=shape_ratio,
             evidence=f"p = {mc.p}, h = 8p, normalized GD (App. A.2), {len(runs)} seeds: measured scale-free, the "
                      "kernel moves about as much before fitting as after; the raw Frobenius change does grow by "
                      "orders of magnitude after fitting, as plotted in the paper, but (‖θ_T‖/‖θ_fit‖)^4 accounts "
                      "for it. Paper-scale p and 10^5 steps not run.")

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
alphas = [a for i, a in enumerate(mc.init_scales) if mc.n_coeffs[i] == 2.0 and a not in mc.init_scales[:i]]
gap, first_norm, first_l2 = {}, {}, {}
for a_ in alphas:
    rows = main.runs_of(2.0, a_)
    f_, g_ = main.first_step("train", 1.0)[rows], main.first_step("test", 0.99)[rows]
    gap[a_] = np.where((f_ > 0) & (g_ > 0), g_ - f_, np.nan)
    first_l2[a_] = main.l2[rows, 1]  # ‖θ‖₂ at the first evaluation after init, per seed (runs are seed-major)
    first_norm[a_] = np.median(first_l2[a_])
    print(f"alpha = {a_:.1f}: ‖θ_0‖₂ ≈ {approx(np.median(main.l2[rows, 0]), digits=1)}; generalized (99 %) after fitting: "
          f"{count(g_ > np.maximum(f_, 0))}")
a_min = min(alphas)
gap_ratio = np.nanmean(gap[a_min]) / np.nanmean(gap[1.0])
norm_ratio = first_norm[a_min] / first_norm[1.0]
# Resolution 1: each seed's gap scatters by about ±25 %, so the ratio of two five-seed means moves by about 0.2.
glue("gap_ratio", trained(gap_ratio, 1), display=False)
glue("a_min", f"{a_min:g}", display=False)
glue("first_step", str(int(main.steps[1])), display=False)
claims.check(f"‖θ‖₂ after {int(main.steps[1])} steps, α = {a_min:g} over α = 1 (medians of {len(runs)} seeds)",
             norm_ratio, seeds=first_l2[a_min] / first_l2[1.0])
_ = claims.check(f"gap from fitting to 99 % test accuracy, α = {a_min:g} over α = 1 (means of {len(runs)} seeds)",
             gap_ratio, seeds=gap[a_min] / gap[1.0],
             evidence=f"p = {mc.p}, normalized GD with step length 10 (App. A.2), α ∈ {{1, 0.3, 0.1}}, {len(runs)} "
                      "seeds: the gap does not shrink with α; ‖θ‖₂ is the same for every α after the first steps, "
                      "so this optimizer erases the init scale (plain GD: the stored run below).")

# %% [markdown]
# After {eval}`glued.first_step` steps every $\alpha$ has the same $\|\theta\|_2$, and the gap at
# $\alpha$ = {eval}`glued.a_min` is ≈ {eval}`glued.gap_ratio` times the gap at $\alpha = 1$. With a fixed
# step length of 10, the initial scale is forgotten within the first steps, so this design cannot show the
# paper's $\alpha$ effect; the paper shows it for regression at $p = 47$ (Fig. 2) and for classification at an
# unstated $p$, neither of which we could run. Plain GD, whose steps scale with the gradient, keeps
# $\alpha$ meaningful: the stored run below.

# %% [markdown]
# ### The init scale under plain GD (stored)
#
# To give $\alpha$ a chance, the stored run `mw.gd_init_scale_config()` trains the same networks with plain
# full-batch GD on the mean cross-entropy (plus the $10^{-20}\|\theta\|_\infty$ term), whose steps scale with
# the gradient: $p = 23$, $n = 2p^{5/3}$, $\alpha \in \{1, 0.3, 0.1, 0.03\}$, four seeds each (init and split),
# learning rate 3 (at 10 some small-$\alpha$ runs diverged in our trials), 20 000 steps
# (`python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only gd-init-scale` recomputes it,
# {eval}`glued.gdi_minutes` minutes on one core). Besides the test accuracy we track the accuracy on the test
# pairs whose mirror $(b, a)$ is not a training pair either: the pairs are ordered, and a network that has only
# learned $a + b = b + a$ answers the others. The criteria, written before the run (which predates sealed
# registries, so the ledger marks its claims †): Fig. 1 (middle) reproduces if
# the smallest $\alpha$ generalizes (final accuracy on the unmirrored test pairs within 0.1 of 100 %), and the
# direction of the effect reproduces if the smallest $\alpha$'s test accuracy at the step it fits the
# training set exceeds $\alpha = 1$'s by at least 0.1 (medians over seeds).

# %% tags=["hide-input"]
gdi_cfg = mw.gd_init_scale_config()
gdi, gdi_manifest = load_stored(mw.stored_classification(gdi_cfg, "_results"), "plain-GD init-scale run",
                                "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only gd-init-scale",
                                "about 10 minutes", glue_minutes="gdi_minutes")
print(gd_init_scale_setup_table(gdi_cfg))
gdi_fit = gdi.first_step("train", 1.0)
gdi_k = np.array([int(np.searchsorted(gdi.steps, f)) if f >= 0 else -1 for f in gdi_fit])
gdi_finite = np.isfinite(gdi.l2[:, -1])
gdi_at_fit = np.array([gdi.test_acc[r, k] if k >= 0 else np.nan for r, k in enumerate(gdi_k)])
gdi_alphas = sorted(set(gdi_cfg.init_scales), reverse=True)
gdi_rows = {a: [r for r in range(gdi_cfg.n_runs) if gdi_cfg.init_scales[r] == a] for a in gdi_alphas}
# A stored run is loaded, not recomputed: these numbers are the same on every machine (shown at 0.01).
for a_, rows in gdi_rows.items():
    ok = [r for r in rows if gdi_finite[r] and gdi_fit[r] >= 0]
    print(f"alpha = {a_:g}: diverged {int((~gdi_finite[rows]).sum())}, fitted {int((gdi_fit[rows] >= 0).sum())} of "
          f"{len(rows)}; median fitting step {int(np.median(gdi_fit[ok])) if ok else 'n/a'}; median test accuracy at "
          f"fitting {np.nanmedian(gdi_at_fit[ok]) if ok else float('nan'):.2f}, at the end "
          f"{np.median(gdi.test_acc[ok, -1]) if ok else float('nan'):.2f}; unmirrored pairs at the end "
          f"{np.median(gdi.unmirrored_acc[ok, -1]) if ok else float('nan'):.2f}; reached 99 % test accuracy: "
          f"{int((gdi.first_step('test', 0.99)[rows] >= 0).sum())}")
a_lo = min(gdi_alphas)
lo_rows = [r for r in gdi_rows[a_lo] if gdi_finite[r] and gdi_fit[r] >= 0]
hi_rows = [r for r in gdi_rows[1.0] if gdi_finite[r] and gdi_fit[r] >= 0]
gdi_gain = float(np.median(gdi_at_fit[lo_rows]) - np.median(gdi_at_fit[hi_rows]))
gdi_unm_lo = float(np.median(gdi.unmirrored_acc[lo_rows, -1]))
for key, val in {"gdi_gain": gdi_gain, "gdi_unm_lo": gdi_unm_lo,
                 "gdi_end_hi": np.median(gdi.test_acc[hi_rows, -1]), "gdi_end_lo": np.median(gdi.test_acc[lo_rows, -1])}.items():
    glue(key, f"{val:.2f}", display=False)
glue("gdi_alpha_lo", f"{a_lo:g}", display=False)
fig_gdi = plot_init_scale_gd(gdi)
glue("fig_gdi", fig_gdi, display=False)
gdi_budget = (f"stored: p = {gdi_cfg.p}, h = 8p, n = 2p^(5/3), plain GD at lr {gdi_cfg.lr:g} for {gdi_cfg.steps:,} steps, "
              f"α ∈ {tuple(gdi_alphas)}, {len(gdi_rows[1.0])} seeds each")
claims.check(f"plain GD (stored): test accuracy when the training set is fitted, α = {a_lo:g} minus α = 1 (medians)",
             gdi_gain, live=False, run=gdi_manifest, spread=mw.median_difference_se(gdi_at_fit[lo_rows], gdi_at_fit[hi_rows]))
_ = claims.check(f"plain GD (stored): final accuracy on test pairs with unseen mirror, α = {a_lo:g}, median of "
             f"{len(lo_rows)} seeds", gdi_unm_lo, live=False, run=gdi_manifest, seeds=gdi.unmirrored_acc[lo_rows, -1],
             evidence=f"{gdi_budget}: every run fits its training set (the smaller α, the later) and none reaches "
                      "90 % test accuracy; once the training loss is small GD's steps shrink with it and the test "
                      "accuracy stops where it is")

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
#
# Its four claims were registered before it ran, after a 3 000-step pilot with two seeds: at $\alpha = 1$ the test
# accuracy ends at 100 % (Fig. 1, middle); the scale-free eNTK distance at the fit is at most half of its final
# value, and the raw change grows by at least a decade after the fit (Fig. 1, left: "negligibly changed before
# fitting ... then changes drastically"; both bounds are ours); and the gap from fit to 99 % test accuracy is no
# longer at $\alpha = 0.1$ than at $\alpha = 1$ (Fig. 1, middle: a smaller $\alpha$ mitigates grokking).

# %% tags=["hide-input"]
nc_cfg = mw.ntk_classification_config()
nc, nc_manifest = load_stored(mw.stored_classification(nc_cfg, "_results", "classification-ntk"),
                              "normalized-GD run in the NTK parametrization",
                              "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only classification-ntk",
                              "about 10 minutes", glue_minutes="nc_minutes")
nc_norms = start_norms(nc_cfg.p, nc_cfg.width)
glue("ntk_norm_pytorch", f"{nc_norms['PyTorch']:.0f}", display=False)
glue("ntk_norm_ntk", f"{nc_norms['NTK']:.0f}", display=False)
print(ntk_classification_setup_table(nc_cfg))
nc_fit = nc.first_step("train", 1.0)
nc_gen = nc.first_step("test", 0.99)
nc_col = {int(s_): i for i, s_ in enumerate(nc.ntk_steps)}
nc_rows = {a: [r for r in range(nc_cfg.n_runs) if nc_cfg.init_scales[r] == a] for a in mw.NTK_CLASS_SCALES}
# Stored runs are loaded, not recomputed: these numbers are the same on every machine.
for a_, rows in nc_rows.items():
    fr = [r for r in rows if nc_fit[r] >= 0]
    print(f"alpha = {a_:g}: fitted {len(fr)} of {len(rows)} (median step {int(np.median(nc_fit[fr])) if fr else 'n/a'}); "
          f"reached 99 % test accuracy: {int((nc_gen[rows] >= 0).sum())} (steps {', '.join(str(int(g)) for g in nc_gen[rows])}; "
          f"-1: never); final test accuracy {', '.join(f'{v:.2f}' for v in nc.test_acc[rows, -1])}; eNTK distance at the "
          f"fit → end: {np.median([nc.ntk_distance[r, nc_col[int(nc_fit[r])]] for r in fr]) if fr else float('nan'):.3f} → "
          f"{np.median(nc.ntk_distance[rows, -1]):.3f} (medians)")
fig_nc = plot_ntk_classification(nc)
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
a1_rows = [r for r in nc_rows[1.0] if nc_fit[r] >= 0]
nc_d_fit = np.array([nc.ntk_distance[r, nc_col[int(nc_fit[r])]] for r in a1_rows])
nc_c_fit = np.array([nc.ntk_change[r, nc_col[int(nc_fit[r])]] for r in a1_rows])
nc_ratio = float(np.median(nc_d_fit / nc.ntk_distance[a1_rows, -1]))
nc_decades = float(np.median(np.log10(nc.ntk_change[a1_rows, -1] / nc_c_fit)))
last = int(nc.steps[-1])


def nc_gap(rows):
    """Steps from the fit to 99 % test accuracy per run; a run that never reaches 99 % counts up to the last step."""
    return np.array([(nc_gen[r] if nc_gen[r] >= 0 else last) - nc_fit[r] for r in rows if nc_fit[r] >= 0])


nc_gap_diff = float(np.median(nc_gap(nc_rows[0.1])) - np.median(nc_gap(nc_rows[1.0])))
nc_budget = (f"stored: p = {nc_cfg.p}, h = 8p, n = 2p^(5/3), normalized GD (step {nc_cfg.lr:g}, λ = {nc_cfg.linf_reg:g}) "
             f"for {nc_cfg.steps:,} steps, NTK parametrization, α ∈ {mw.NTK_CLASS_SCALES}, {len(mw.NTK_CLASS_SEEDS)} seeds each")
nc_prefix = "normalized GD from a start far above one step (stored, NTK parametrization): "
claims.check(nc_prefix + "final test accuracy, median of the α = 1 runs", float(np.median(nc.test_acc[nc_rows[1.0], -1])),
             live=False, run=nc_manifest, seeds=nc.test_acc[nc_rows[1.0], -1], statistic="median",
             evidence=f"{nc_budget}: final test accuracies at α = 1: "
                      f"{', '.join(f'{v:.2f}' for v in nc.test_acc[nc_rows[1.0], -1])}")
claims.check(nc_prefix + "scale-free eNTK distance at the fit over the same at the end, median of the α = 1 runs",
             nc_ratio, live=False, run=nc_manifest, seeds=nc_d_fit / nc.ntk_distance[a1_rows, -1], statistic="median",
             evidence=f"{nc_budget}: 1 − cos(Θ̂, Θ̂_0) is {np.median(nc_d_fit):.3f} at the fit (median step "
                      f"{int(np.median(nc_fit[a1_rows]))}) and {np.median(nc.ntk_distance[a1_rows, -1]):.3f} at the end: "
                      "the kernel has made most of its move by the time the training set is fitted")
claims.check(nc_prefix + "log10 of ‖Θ̂_end − Θ̂_0‖_F over ‖Θ̂_fit − Θ̂_0‖_F, median of the α = 1 runs", nc_decades,
             live=False, run=nc_manifest, seeds=np.log10(nc.ntk_change[a1_rows, -1] / nc_c_fit), statistic="median",
             evidence=f"{nc_budget}: the raw change grows by {nc_decades:.2f} decades after the fit")
claims.check(nc_prefix + "steps from fit to 99 % test accuracy, α = 0.1 minus α = 1 (medians)", nc_gap_diff,
             live=False, run=nc_manifest, spread=mw.median_difference_se(nc_gap(nc_rows[0.1]), nc_gap(nc_rows[1.0])),
             evidence=f"{nc_budget}: median gap {np.median(nc_gap(nc_rows[0.1])):.0f} steps at α = 0.1 against "
                      f"{np.median(nc_gap(nc_rows[1.0])):.0f} at α = 1 (runs that never reach 99 % count to step {last:,})")
# Fig. 1 (middle) as the paper states it (§4.2): a smaller α makes "the gap between overfitting and generalization"
# smaller, i.e. the test accuracy at the step the training set is fitted is higher (registered after these arrays were
# seen: †; T18's criterion). The fit-to-99 % gap above measures the time to final generalization, which §6 says a
# smaller α lengthens: it stays as context.
nc_at_fit = {a: np.array([nc.test_acc[r, int(np.searchsorted(nc.steps, nc_fit[r]))] for r in rows if nc_fit[r] >= 0])
             for a, rows in nc_rows.items()}
nc_fit_gain = float(np.median(nc_at_fit[0.1]) - np.median(nc_at_fit[1.0]))
print(f"test accuracy at the fit: α = 0.1: {', '.join(f'{v:.2f}' for v in nc_at_fit[0.1])}; "
      f"α = 1: {', '.join(f'{v:.2f}' for v in nc_at_fit[1.0])}")
claims.check(nc_prefix + "test accuracy when the training set is fitted, α = 0.1 minus α = 1 (medians)", nc_fit_gain,
             live=False, run=nc_manifest, spread=mw.median_difference_se(nc_at_fit[0.1], nc_at_fit[1.0]),
             evidence=f"{nc_budget}: at the fit the test accuracy is {np.median(nc_at_fit[0.1]):.2f} at α = 0.1 against "
                      f"{np.median(nc_at_fit[1.0]):.2f} at α = 1 (medians), the paper's direction; the time to final "
                      "generalization is longer at α = 0.1 (context)")
glue("nc_fit_gain", f"{nc_fit_gain:.2f}", display=False)
glue("nc_fit_lo", f"{np.median(nc_at_fit[0.1]):.2f}", display=False)
glue("nc_fit_hi", f"{np.median(nc_at_fit[1.0]):.2f}", display=False)
glue("nc_ratio", f"{nc_ratio:.2f}", display=False)
glue("nc_decades", f"{nc_decades:.1f}", display=False)
glue("nc_gap_diff", f"{nc_gap_diff:,.0f}", display=False)
glue("nc_acc_a1", f"{np.median(nc.test_acc[nc_rows[1.0], -1]):.2f}", display=False)
# The first-logit eNTK of this 3-homogeneous network scales like ‖θ‖^4: the decades the norm's growth alone explains
nc_l2_fit = np.array([nc.l2[r, int(np.searchsorted(nc.steps, nc_fit[r]))] for r in a1_rows])
nc_norm_decades = float(np.median(4 * np.log10(nc.l2[a1_rows, -1] / nc_l2_fit)))
glue("nc_norm_decades", f"{nc_norm_decades:.1f}", display=False)
glue("nc_fit_max", f"{int(nc_fit.max())}", display=False)
glue("nc_gen_a1", ", ".join(f"{int(g):,}" for g in nc_gen[nc_rows[1.0]]), display=False)
glue("nc_gen_lo", f"{int((nc_gen[nc_rows[0.1]] >= 0).sum())} of {len(nc_rows[0.1])}", display=False)

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
print("final test accuracy (alpha = 1): seeds with >= 0.99 / seeds with <= 0.1 / seeds")
for p, res in sorted(results.items()):
    coeffs = sorted({c_ for c_, a_ in zip(res.config.n_coeffs, res.config.init_scales) if a_ == 1.0})
    parts = []
    for c_ in coeffs:
        final = res.test_acc[res.runs_of(c_, 1.0), -1]
        n_ = th.classification_train_size(p, c_)
        parts.append(f"c = {c_:.1f} (n = {n_}, {100 * n_ / p ** 2:.0f} % of pairs): "
                     f"{trained(int(np.sum(final >= 0.99)))} / {trained(int(np.sum(final <= 0.1)))} / {final.size}")
    print(f"  p = {p:3d}: " + ", ".join(parts))
at_two = {p: np.median(res.test_acc[res.runs_of(2.0, 1.0), -1]) for p, res in results.items()}
p_worst = min(at_two, key=at_two.get)  # the p whose median is the minimum: its seeds give the margin
claims.check(f"min over p ∈ {tuple(sorted(results))} of the median final test accuracy at n = 2p^(5/3)",
             min(at_two.values()), seeds=results[p_worst].test_acc[results[p_worst].runs_of(2.0, 1.0), -1])
# Fig. 4 (right): ‖θ‖∞ of the trained networks against p, here after the same number of normalized steps.
ps = sorted(results)
linf_p = {p: np.median(results[p].linf[results[p].runs_of(2.0, 1.0), -1]) for p in ps}
margin_p = {p: np.median(results[p].margin[results[p].runs_of(2.0, 1.0), -1]) / p for p in ps}
print(f"after {cfg.class_steps} steps at n = 2p^(5/3), medians over seeds: ‖θ‖∞ decreases with p: "
      f"{trained(str(all(linf_p[a] > linf_p[b] for a, b in zip(ps, ps[1:]))))}; normalized margin q_min/‖θ‖∞³ "
      f"divided by p decreases with p: {trained(str(all(margin_p[a] > margin_p[b] for a, b in zip(ps, ps[1:]))))}")
linf_ratio = linf_p[ps[-1]] / linf_p[ps[0]]
glue("linf_ratio", trained(linf_ratio, 0.5), display=False)
claims.check(f"‖θ‖∞ after {cfg.class_steps} steps, p = {ps[-1]} over p = {ps[0]} (medians)", linf_ratio,
             seeds=results[ps[-1]].linf[results[ps[-1]].runs_of(2.0, 1.0), -1]
                    / results[ps[0]].linf[results[ps[0]].runs_of(2.0, 1.0), -1])
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
# $p$ generalizing at $n = 2p^{5/3}$. Before the run we had registered the first as "$k$ within 0.3 of 5/3",
# which treated the bound as a prediction; the registry keeps that original and its amendment, and the ledger
# marks the claim †, as it marks every claim on this run, which predates sealed registries. The run took
# {eval}`glued.sc_minutes` minutes on one core; `python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results`
# recomputes it.

# %% tags=["hide-input"]
scfg = mws.SampleComplexityConfig()
sc, sc_manifest = load_stored(mws.stored_sample_complexity(scfg, "_results"), "sample-complexity run",
                              "python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results", "about 45 minutes on one core",
                              glue_minutes="sc_minutes")
print(sample_complexity_setup_table(scfg))
n_crit = mws.critical_sizes(sc)
k_fit = mws.fit_exponent(scfg.ps, n_crit)
k_boot = mws.bootstrap_exponent(sc)
k_lo, k_med, k_hi = np.nanpercentile(k_boot, [2.5, 50, 97.5])
# A stored run is loaded, not recomputed, and the bootstrap's generator is seeded: these numbers are the same on
# every machine. They print at the resolution the claims need (0.01 in an exponent, 3 digits in n*).
for p, n_ in zip(scfg.ps, n_crit):
    print(f"p = {p:2d}: n* = {n_:6.0f}  (n*/p^(5/3) = {n_ / p ** (5 / 3):.2f}, n*/p^2 = {n_ / p ** 2:.2f})")
print(f"fitted exponent k = {k_fit:.2f}; bootstrap over seeds: median {k_med:.2f}, 95 % interval [{k_lo:.2f}, {k_hi:.2f}]")
# The budget: n* and k from the test accuracy at earlier steps of the same runs.
budget_k = {}
for t in (scfg.steps // 2, 2 * scfg.steps // 3, scfg.steps):
    j = int(np.searchsorted(sc.steps, t))
    n_t = [mws.crossing(sc.n_values(p), sc.runs[p]["test_acc"][..., j].mean(axis=0)) for p in scfg.ps]
    budget_k[t] = (mws.fit_exponent(scfg.ps, n_t), n_t[-1])
    print(f"after {t:,} steps: n* at p = {scfg.ps[-1]} is {n_t[-1]:.0f}, fitted k = {budget_k[t][0]:.2f}")
late = np.array(scfg.ps) >= 23
k_late = mws.fit_exponent(np.array(scfg.ps)[late], n_crit[late])
print(f"n*/p^(5/3) for p >= 23: {', '.join(f'{x:.2f}' for x in n_crit[late] / np.array(scfg.ps)[late] ** (5 / 3))}; "
      f"fitted k over p >= 23 alone: {k_late:.2f}")
(t0, (k0, n0)), (t1, (k1, n1)) = list(budget_k.items())[0], list(budget_k.items())[-1]
glue("sc_t0", f"{t0:,}", display=False)
glue("sc_k0", f"{k0:.2f}", display=False)
glue("sc_n0", f"{n0:.0f}", display=False)
glue("sc_n1", f"{n1:.0f}", display=False)
glue("sc_k_late", f"{k_late:.2f}", display=False)
glue("sc_level", f"{np.median(n_crit[late] / np.array(scfg.ps)[late] ** (5 / 3)):.1f}", display=False)
c2_final = min(np.median(sc.final(p)[:, scfg.coeffs_at(p).index(2.0)]) for p in scfg.ps)
glue("k_fit", f"{k_fit:.2f}", display=False)
glue("k_lo", f"{k_lo:.2f}", display=False)
glue("sc_frac_lo", f"{n_crit[0] / scfg.ps[0] ** 2:.2f}", display=False)
glue("sc_frac_hi", f"{n_crit[-1] / scfg.ps[-1] ** 2:.2f}", display=False)
glue("k_hi", f"{k_hi:.2f}", display=False)
fig_sc = plot_sample_complexity(sc)
glue("fig_sc", fig_sc, display=False)
sc_budget = (f"stored: normalized GD (App. A.2), h = 8p, p = {scfg.ps[0]}-{scfg.ps[-1]} ({len(scfg.ps)} primes), "
             f"{len(scfg.n_coeffs)} sizes per p, {len(scfg.seeds)} seeds, {scfg.steps:,} steps")
claims.check(f"sample complexity (stored): fitted exponent k of n* ∝ p^k, p = {scfg.ps[0]}-{scfg.ps[-1]}", k_fit,
             live=False, run=sc_manifest, spread=float(np.nanstd(k_boot)))
claims.check("sample complexity (stored): 97.5th percentile of the seed-bootstrap exponent", k_hi, live=False,
             run=sc_manifest, spread=mws.exponent_percentile_se(97.5, sc))
_ = claims.check(f"sample complexity (stored): min over p of the median final test accuracy at n = 2p^(5/3)", c2_final,
             live=False, run=sc_manifest, spread=mws.seed_bootstrap_se(mws.min_median_at, sc))

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
fig_nm = plot_norm_margin(sc)
glue("fig_norm_margin", fig_nm, display=False)
j2 = {p: scfg.coeffs_at(p).index(2.0) for p in scfg.ps}
sc_linf = {p: float(np.median(sc.final(p, "linf")[:, j2[p]])) for p in scfg.ps}
sc_margin = {p: float(np.median(sc.final(p, "margin")[:, j2[p]])) for p in scfg.ps}
p_lo, p_hi = scfg.ps[0], scfg.ps[-1]
for p in (p_lo, p_hi):
    print(f"p = {p}: median ‖θ‖∞ {sc_linf[p]:.1f}, normalized margin {sc_margin[p]:.1f} (the construction's: {p})")
glue("sc_linf_lo", f"{sc_linf[p_lo]:.0f}", display=False)
glue("sc_linf_hi", f"{sc_linf[p_hi]:.0f}", display=False)
glue("sc_margin_lo", f"{sc_margin[p_lo]:.1f}", display=False)
glue("sc_margin_hi", f"{sc_margin[p_hi]:.1f}", display=False)
claims.check(f"‖θ‖∞ after {scfg.steps:,} normalized steps at n = 2p^(5/3) (stored): p = {p_hi} over p = {p_lo} (medians)",
             sc_linf[p_hi] / sc_linf[p_lo], live=False, run=sc_manifest,
             spread=mws.seed_bootstrap_se(lambda r: mws.median_at(r, p_hi, "linf") / mws.median_at(r, p_lo, "linf"), sc))
_ = claims.check(f"normalized margin at p = {p_hi} over the construction's margin p (stored, median)",
             sc_margin[p_hi] / p_hi, live=False, run=sc_manifest, seeds=sc.final(p_hi, "margin")[:, j2[p_hi]] / p_hi,
             statistic="median")

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
# $1/\sqrt 2$ to 2 (App. A.2's $n = 2p^{5/3}$ is the top of the grid), three seeds each. Each $p$ is stored on
# its own; they took {eval}`glued.bud_minutes_each` minutes ($p$ = 37, 41, 47, 53; {eval}`glued.bud_minutes` in
# all, two at a time on the 2-core machine).
#
# Five claims were registered before this run started and sealed by it. Two are ours: a critical size counts as
# *settled* when doubling the budget moves it by less than one step of the size grid ($|\Delta \log_2 n^*| \le
# 1/4$), judged at 2 000 → 4 000 steps for $p \ge 37$ and at 750 → 1 500 steps for the $p \le 31$ of the
# first run (registered before that number was computed). Three are the paper's, as bounds: every $p$
# generalizes at $n = 2p^{5/3}$ (Fig. 1 right, Fig. 4 left; median accuracy within 0.01 of 1), the exponent of
# $n^* \propto p^k$ over the settled critical sizes ($p \le 31$ at 1 500 steps, $p \ge 37$ at 4 000) is at
# most 5/3 (Thm 4.5), and the bootstrap's 97.5th percentile stays below the kernel methods' 2 (Thm 4.3).

# %% tags=["hide-input"]
bcfg = mws.budget_config()
budget_res, budget_manifests = require_stored(
    mws.stored_budget("_results"), "settled-budget run",
    "python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results --run budget",
    "about an hour per p on one core")
for line in sorted({provenance_line(m) for m in budget_manifests}):
    print(line)
glue("bud_minutes", f"{sum(m['wall_time_s'] for m in budget_manifests) / 60:.0f}", display=False)
glue("bud_minutes_each", ", ".join(f"{m['wall_time_s'] / 60:.0f}" for m in budget_manifests), display=False)
print(budget_setup_table(bcfg))
for t in (1000, 2000, 4000):
    n_t = mws.critical_sizes(budget_res, step=t)
    print(f"after {t:,} steps: n*/p^(5/3) = " + ", ".join(f"{n / p ** (5 / 3):.2f} (p = {p})"
                                                        for p, n in zip(bcfg.ps, n_t))
          + f"; exponent over p = {bcfg.ps[0]}-{bcfg.ps[-1]} alone: {mws.fit_exponent(bcfg.ps, n_t):.2f}")
# One budget for all four p: the exponent of the largest p, without the small-p curvature or a budget mix.
k_common = mws.fit_exponent(bcfg.ps, mws.critical_sizes(budget_res))
k_common_lo, k_common_hi = np.nanpercentile(mws.bootstrap_exponent(budget_res), [2.5, 97.5])
print(f"after {bcfg.steps:,} steps, p = {bcfg.ps[0]}-{bcfg.ps[-1]} alone: k = {k_common:.2f}, 95 % over seeds "
      f"[{k_common_lo:.2f}, {k_common_hi:.2f}]")
glue("bud_k_common", f"{k_common:.2f}", display=False)
glue("bud_k_common_lo", f"{k_common_lo:.2f}", display=False)
glue("bud_k_common_hi", f"{k_common_hi:.2f}", display=False)
glue("bud_k_common_vs", "5/3 lies inside that interval" if k_common_lo <= 5 / 3 <= k_common_hi else
     ("the interval lies below 5/3" if k_common_hi < 5 / 3 else "the interval lies above 5/3"), display=False)
bud_shift = mws.budget_shift(budget_res, 2000, 4000)
short_ps = np.array(scfg.ps) <= 31
sc_shift = mws.budget_shift(sc, 750, 1500)[short_ps]
print("log2 n*(4,000) − log2 n*(2,000): " + ", ".join(f"{x:+.2f}" for x in bud_shift))
print("log2 n*(1,500) − log2 n*(750) at p ≤ 31: " + ", ".join(f"{x:+.2f}" for x in sc_shift))
bud_c2 = {p: budget_res.final(p)[:, bcfg.coeffs_at(p).index(2.0)] for p in bcfg.ps}
print("test accuracy at n = 2p^(5/3) after 4,000 steps (per seed): "
      + "; ".join(f"p = {p}: " + ", ".join(f"{a:.3f}" for a in acc) for p, acc in bud_c2.items()))
settled = mws.settled_exponent(sc, budget_res)
s_lo, s_hi = np.nanpercentile(settled.k_boot, [2.5, 97.5])
print("settled n*/p^(5/3): " + ", ".join(f"{n / p ** (5 / 3):.2f} (p = {p}, {settled.steps[p]:,} steps)"
                                          for p, n in zip(settled.ps, settled.n_crit)))
print(f"settled exponent k = {settled.k:.2f}; bootstrap over seeds: 95 % interval [{s_lo:.2f}, {s_hi:.2f}], "
      f"standard deviation {np.nanstd(settled.k_boot):.2f}")
glue("bud_k", f"{settled.k:.2f}", display=False)
glue("bud_k_lo", f"{s_lo:.2f}", display=False)
glue("bud_k_hi", f"{s_hi:.2f}", display=False)
glue("bud_shift", f"{np.max(np.abs(bud_shift)):.2f}", display=False)
glue("bud_sc_shift", f"{np.max(np.abs(sc_shift)):.2f}", display=False)
glue("bud_c2", f"{min(np.median(a) for a in bud_c2.values()):.3f}", display=False)
glue("fig_settled", plot_settled_budget(budget_res, settled), display=False)
all_shifts = np.concatenate([bud_shift, sc_shift])
glue("bud_trend", "every one of them falls a little with each doubling" if np.all(all_shifts < 0) else
     "they move both ways with the budget", display=False)
bud_note = (f"stored: normalized GD (App. A.2), h = 8p, p = {bcfg.ps[0]}-{bcfg.ps[-1]}, {len(bcfg.n_coeffs)} sizes "
            f"per p, {len(bcfg.seeds)} seeds, {bcfg.steps:,} steps")
claims.check("sample complexity, longer budget (stored): largest |log2 n*(4,000 steps) − log2 n*(2,000 steps)| "
             "over p = 37-53", float(np.max(np.abs(bud_shift))), live=False, run=budget_manifests,
             spread=mws.seed_bootstrap_se(lambda r: np.max(np.abs(mws.budget_shift(r, 2000, 4000))), budget_res))
claims.check("sample complexity (stored): largest |log2 n*(1,500 steps) − log2 n*(750 steps)| over p = 11-31",
             float(np.max(np.abs(sc_shift))), live=False, run=sc_manifest,
             spread=mws.seed_bootstrap_se(lambda r: np.max(np.abs(mws.budget_shift(r, 750, 1500)[short_ps])), sc))
p_worst = min(bud_c2, key=lambda p: np.median(bud_c2[p]))
claims.check("sample complexity, longer budget (stored): min over p = 37-53 of the median test accuracy at "
             "n = 2p^(5/3) after 4,000 steps", float(np.median(bud_c2[p_worst])), live=False, run=budget_manifests,
             seeds=bud_c2[p_worst], statistic="median")
claims.check("sample complexity, settled budgets (stored): fitted exponent k of n* ∝ p^k, p = 11-31 at 1,500 steps "
             "and 37-53 at 4,000", settled.k, live=False, run=budget_manifests,
             spread=float(np.nanstd(settled.k_boot)))
_ = claims.check("sample complexity, settled budgets (stored): 97.5th percentile of the seed-bootstrap exponent", s_hi,
             live=False, run=budget_manifests, spread=mws.exponent_percentile_se(97.5, sc, budget_res))

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
# ## 5. A transformer shows the same pattern (Fig. 5)
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
tfit = np.array([t.first_step("train", 1.0) for t in tfs])  # first evaluation step with 100 % training accuracy
kf = [t.index(f) for t, f in zip(tfs, tfit)]
ntk_before = np.array([t.kernel_change()[k] for t, k in zip(tfs, kf)])  # ‖K_fit − K_0‖_F
ntk_after = np.array([t.kernel_change(f)[k:].max() for t, f, k in zip(tfs, tfit, kf)])  # max_t≥fit ‖K_t − K_fit‖_F
norm0 = np.array([t.ntk_norm0 for t in tfs])
gen90 = np.array([t.first_step("test", 0.9) for t in tfs])
gen90 = np.where(gen90 < 0, np.inf, gen90)
test_at_fit = np.array([t.test_acc[k] for t, k in zip(tfs, kf)])
unmirrored_at_fit = np.array([t.unmirrored_acc[k] for t, k in zip(tfs, kf)])
final_train, final_test = np.array([t.train_acc[-1] for t in tfs]), np.array([t.test_acc[-1] for t in tfs])
# The kernel scaled to unit norm, as in Section 4: ‖K̄_fit − K̄_0‖_F before, max_t≥fit ‖K̄_t − K̄_fit‖_F after.
unit = th.unit_kernel_distance
tf_shape_before = np.array([unit(t.kernel_distance()[k]) for t, k in zip(tfs, kf)])
tf_shape_after = np.array([unit(t.kernel_distance(f)[k:]).max() for t, f, k in zip(tfs, tfit, kf)])
tf_shape_ratio = tf_shape_after / tf_shape_before
tf_ratio_mixed = np.array([unit(t.kernel_distance(f)[k:]).max() / unit(t.kernel_distance()[k])
                           for t, f, k in zip(tfs_mixed, tfit, kf)])  # the same on the mixed pairs, for the disclosure
# The step at which the test accuracy climbs is sensitive to rounding (see Deviations): we count the seeds
# that satisfy statements with wide margins; the figure shows the curves of every seed.
print(f"p = {tfs[0].config.p}, {len(tfs)} seeds: training set fitted within 100 steps: {count((tfit > 0) & (tfit <= 100))}")
print(f"  at that step: test accuracy >= 0.5 (the mirrored pairs): {count(test_at_fit >= 0.5)}; accuracy on the "
      f"{tfs[0].n_unmirrored} pairs whose mirror is unseen too <= 0.1: {count(unmirrored_at_fit <= 0.1)}")
print(f"  test accuracy still below 90 % 500 steps after fitting: {count(gen90 - tfit >= 500)}")
print(f"  final train accuracy 1: {count(final_train == 1.0)}; final test accuracy, median: {trained(np.median(final_test), 0.01)}")
print(f"raw eNTK change up to fitting >= 10 x ‖K_0‖_F: {count(ntk_before >= 10 * norm0)}")
print(f"raw eNTK change after fitting, ‖K_t − K_fit‖_F, >= 10 x the change up to fitting (Fig. 5's pattern): "
      f"{count(ntk_after >= 10 * ntk_before)}")
print(f"unit-norm eNTK: change after fitting >= 10x the change up to fitting: {count(tf_shape_ratio >= 10)}; "
      f"below twice it: {count(tf_shape_ratio < 2)}")
print(f"eNTK on the {int(mw.ntk_train_mask(cfg.transformer).sum())} training pairs among the {cfg.transformer.ntk_points} "
      f"recorded; unit-norm ratio on all {cfg.transformer.ntk_points} (train and test mixed), median: {trained(np.median(tf_ratio_mixed), 1)}")
glue("tf_shape_ratio", trained(np.median(tf_shape_ratio), 1), display=False)
glue("tf_ratio_mixed", trained(np.median(tf_ratio_mixed), 1), display=False)
glue("tf_n_train_pairs", str(int(mw.ntk_train_mask(cfg.transformer).sum())), display=False)
fig_tf = plot_transformer(tfs)
glue("fig_transformer", fig_tf, display=False)
# Medians over seeds, shown at 0.01 (accuracies near 1) and at 0.05 for the unmirrored accuracy at fitting
# (a few percent per seed, against a threshold of 0.1).
claims.check(f"transformer (book: AdamW): final train accuracy, median of {len(tfs)} seeds", np.median(final_train),
             seeds=final_train)
claims.check(f"transformer: accuracy on test pairs with unseen mirror, when the train set is fitted, median of {len(tfs)} seeds",
             np.median(unmirrored_at_fit), seeds=unmirrored_at_fit)
claims.check(f"transformer: final test accuracy, median of {len(tfs)} seeds", np.median(final_test), seeds=final_test)
_ = claims.check(f"transformer: unit-norm eNTK change after fitting ÷ before fitting (eNTK on the training pairs), median of {len(tfs)} seeds",
             np.median(tf_shape_ratio), seeds=tf_shape_ratio,
             evidence=f"book scale: p = {tfs[0].config.p}, d_model {tfs[0].config.d_model}, AdamW (lr 3e-3, wd 1) "
                      f"instead of the paper's GD at lr 0.25, {len(tfs)} inits: the eNTK moves as much while the "
                      "training set is fitted as after, raw or scale-free. GD at lr 0.25 for up to 1,000 steps "
                      "(3 inits) fitted and then memorized; GD for 20,000 steps is the stored run below; p = 113 not run.")

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
# most of the run comes after fitting, where Fig. 5 places the kernel's movement and the generalization.
# It is stored; the chapter loads it, and
# `python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only transformer-gd` recomputes it
# ({eval}`glued.tfgd_minutes` minutes on one core). The claims use the criteria of the AdamW run, written before
# this run (which predates sealed registries, so the ledger marks its claims †): the kernel's change is *negligible* before fitting if its unit-norm distance
# $\|\bar K_{\rm fit} - \bar K_0\|_F$ is at most 0.1 ($\cos \ge 0.995$), and Fig. 5's pattern needs the
# unit-norm change after fitting to be at least ten times the change before.
#
# **Not the paper's kernel.** This run records the eNTK on 128 pairs drawn from all $p^2$, training and test pairs
# mixed, and stores only the Gram matrix of those kernels, so it cannot be restricted to the training pairs on which
# the paper defines the eNTK (App. B), as the live runs above are. Recomputing it with the kernels kept would take
# about 15 minutes of one core, beyond this revision's budget. On the live AdamW runs the restriction moves the
# unit-norm ratio from ≈ {eval}`glued.tf_ratio_mixed` (mixed) to ≈ {eval}`glued.tf_shape_ratio` (training pairs);
# the GD claims below read the mixed kernel.

# %% tags=["hide-input"]
gd_cfg = mw.gd_transformer_config()
gtfs, tf_manifest = load_stored(mw.stored_transformer(gd_cfg, mw.GD_TRANSFORMER_SEEDS, "_results"),
                                "GD transformer run", "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only transformer-gd",
                                "about 15 minutes", glue_minutes="tfgd_minutes")
print(gd_transformer_setup_table(gd_cfg))
g_fit = np.array([t.first_step("train", 1.0) for t in gtfs])
g_k = [t.index(f) for t, f in zip(gtfs, g_fit)]
g_before = np.array([unit(t.kernel_distance()[k]) for t, k in zip(gtfs, g_k)])
g_after = np.array([unit(t.kernel_distance(f)[k:]).max() for t, f, k in zip(gtfs, g_fit, g_k)])
g_raw = np.array([t.kernel_change()[k] / t.ntk_norm0 for t, k in zip(gtfs, g_k)])
g_unm = np.array([t.unmirrored_acc[-1] for t in gtfs])
g_test = np.array([t.test_acc[-1] for t in gtfs])
g_test_fit = np.array([t.test_acc[k] for t, k in zip(gtfs, g_k)])
g_train = np.array([t.train_acc[-1] for t in gtfs])
# A stored run is loaded, not recomputed: its numbers are the same on every machine.
print(f"p = {gd_cfg.p}, GD at lr {gd_cfg.lr:g}, {gd_cfg.steps:,} steps, {len(gtfs)} seeds: training set fitted at steps "
      f"{', '.join(str(int(f)) for f in g_fit)}; final train accuracy {', '.join(f'{x:.2f}' for x in g_train)}")
print(f"  test accuracy at fitting {', '.join(f'{x:.2f}' for x in g_test_fit)}, at the end {', '.join(f'{x:.2f}' for x in g_test)}; "
      f"on the {gtfs[0].n_unmirrored} test pairs whose mirror is unseen too, at the end: {', '.join(f'{x:.2f}' for x in g_unm)}")
print(f"  unit-norm eNTK change up to fitting {', '.join(f'{x:.2f}' for x in g_before)}; largest after fitting "
      f"{', '.join(f'{x:.2f}' for x in g_after)}; raw change up to fitting / ‖K_0‖_F {', '.join(f'{x:.0f}' for x in g_raw)}")
for key, val in {"gtf_before": np.median(g_before), "gtf_after": np.median(g_after), "gtf_unm": np.median(g_unm),
                 "gtf_test": np.median(g_test)}.items():
    glue(key, f"{val:.2f}", display=False)
glue("gtf_fit", f"{int(np.median(g_fit)):,}", display=False)
glue("tfgd_steps", f"{gd_cfg.steps:,}", display=False)
glue("gtf_raw", f"{np.median(g_raw):.0f}", display=False)
fig_tf_gd = plot_transformer(gtfs)
glue("fig_transformer_gd", fig_tf_gd, display=False)
gd_budget = (f"stored: p = {gd_cfg.p}, d_model {gd_cfg.d_model}, d_mlp {gd_cfg.d_mlp}, full-batch GD at lr {gd_cfg.lr:g} "
             f"(App. A.3), {gd_cfg.steps:,} steps, {len(gtfs)} inits")
claims.check(f"transformer (stored, GD): final train accuracy, median of {len(gtfs)} seeds", np.median(g_train),
             live=False, run=tf_manifest, seeds=g_train, statistic="median")
claims.check(f"transformer (stored, GD): final accuracy on test pairs with unseen mirror, median of {len(gtfs)} seeds",
             np.median(g_unm), live=False, run=tf_manifest, seeds=g_unm, statistic="median",
             evidence=f"{gd_budget}: the test accuracy stays where it was when the training set was fitted (the mirrored "
                      "pairs, learned as a + b = b + a); the pairs whose mirror is unseen stay near chance for the "
                      f"remaining {gd_cfg.steps - int(np.max(g_fit)):,} steps, while the training loss falls towards 0 and GD's steps shrink with it")
claims.check(f"transformer (stored, GD): unit-norm eNTK change up to fitting, median of {len(gtfs)} seeds",
             np.median(g_before), live=False, run=tf_manifest, seeds=g_before, statistic="median",
             evidence=f"{gd_budget}: by the step the training set is fitted the kernel has turned by "
                      f"{np.median(g_before):.2f} in unit norm (cos ≈ {1 - np.median(g_before) ** 2 / 2:.2f}) and its raw "
                      f"change is {np.median(g_raw):.0f}× ‖K_0‖_F: fitting happens outside the kernel regime")
_ = claims.check(f"transformer (stored, GD): unit-norm eNTK change after fitting ÷ before fitting, median of {len(gtfs)} seeds",
             np.median(g_after / g_before), live=False, run=tf_manifest, seeds=g_after / g_before, statistic="median",
             evidence=f"{gd_budget}: after fitting the kernel moves a fraction of what it moved while fitting, and "
                      "the network stays at its memorizing solution")

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
finite = np.isfinite(reg.test_loss[:, -1]) & np.isfinite(reg.train_loss[:, -1])
for alpha in cfg.regression.init_scales:
    r = [i for i, a in enumerate(cfg.regression.run_scales) if a == alpha]
    ok = finite[r]
    # "of the others": how many runs stayed finite is itself a training outcome, so the whole count is marked
    print(f"alpha = {alpha:.2f}: diverged: {count(~ok)}; of the others: train loss/p < 0.1: "
          f"{trained(count(reg.train_loss[r, -1][ok] < 0.1, live=False))}; test loss above the zero predictor's: "
          f"{trained(count(reg.test_loss[r, -1][ok] > 1, live=False))}; ‖θ‖∞ at the end below its peak: "
          f"{trained(count(reg.linf[r, -1][ok] < reg.linf[r][ok].max(axis=1), live=False))}")
reg_test = np.median(reg.test_loss[finite, -1])
glue("reg_test", trained(reg_test, 1), display=False)
# Fig. 2 plots accuracy: argmax_c f_c(a, b) over all p² pairs (the paper does not define it for regression)
print(f"argmax accuracy over all p² pairs at the end, median of the finite runs: "
      f"{trained(np.median(reg.pair_acc[finite, -1]), 0.05)} (chance 1/p = {1 / cfg.regression.p:.2f})")
glue("reg_acc", trained(np.median(reg.pair_acc[finite, -1]), 0.05), display=False)
fig_reg = plot_regression(reg)
glue("fig_reg", fig_reg, display=False)
claims.check("regression: fraction of GD runs (every α and seed) that stay finite", np.mean(finite),
             seeds=finite.astype(float))
# Resolution 1: the finite runs end between 2 and 2.5 times the zero predictor's loss.
# (how many runs stay finite is a training outcome, so the claim's name does not count them)
_ = claims.check("regression: final test loss / zero predictor's, median of the finite runs", reg_test,
             seeds=reg.test_loss[finite, -1],
             evidence=f"p = {cfg.regression.p}, h = 4p, n = 2p^2.25, GD at lr 1 with λ = 1e-4 (App. A.1), "
                      f"α ∈ {cfg.regression.init_scales}, {len(cfg.regression.seeds)} inits, "
                      f"{cfg.regression.steps} steps: the training set is fitted and the test loss rises above "
                      "the zero predictor's (memorization); the ℓ∞ penalty lowers ‖θ‖∞ by at most 1e-4 per step, "
                      "so grokking needs the paper's 5e4-2e5 steps: the stored runs of sections 7 and 8 take them.")

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
# penalty can then lower $\|\theta\|_\infty$ by up to 12, far more than fitting raises it. The run took
# {eval}`glued.reg_stored_minutes` minutes on one CPU core; the chapter loads it, and
# `python -m repro.experiments.mohamadi2024_why_grok --store book/_results` recomputes it.
#
# The budget is the paper's; the settings are not. Fig. 2 runs $p = 47$ at learning rate 1 from He et al.'s
# init (App. A.1 cites [19]); this run is $p = 11$ at learning rate 0.3 from PyTorch's default init, whose
# 3-homogeneous output starts up to 15 times smaller than He's (the setup table below). And Fig. 2 plots
# accuracy, where the claims written before the run judge the test loss; the run records the accuracy too, and
# the claims now report it.
#
# The criterion was written before looking (the run predates sealed registries, so the ledger marks its claims
# †): a run *generalizes* when its test loss falls below half the zero predictor's (the level Thm 3.4 shows no
# kernel method reaches, section 3), and it has *fitted* the training set when its training loss is below 1 % of
# the zero predictor's. For the accuracy, which the paper does not define for regression, we use the argmax
# $\arg\max_c f_c(a, b)$ over all $p^2$ pairs, against the 100 % that Fig. 2's test curves reach.

# %% tags=["hide-input"]
reg_cfg = mw.grokking_regression_config()
sreg, reg_manifest = load_stored(mw.stored_regression(reg_cfg, "_results"), "regression run",
                                 "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only regression",
                                 "about 50 minutes on one core", glue_minutes="reg_stored_minutes")
print(stored_regression_setup_table(reg_cfg))
s_finite = np.isfinite(sreg.test_loss[:, -1]) & np.isfinite(sreg.train_loss[:, -1])
s_fit = np.where(s_finite, sreg.first_step("train_loss", 0.01), -1)
s_gen = np.where(s_finite, sreg.first_step("test_loss", 0.5), -1)
for alpha in reg_cfg.init_scales:
    r = [i for i, a in enumerate(reg_cfg.run_scales) if a == alpha]
    ok = s_finite[r]
    print(f"alpha = {alpha:g}: diverged: {count(~ok, live=False)}; fitted: {count(s_fit[r] >= 0, live=False)}; generalized "
          f"(test loss < 1/2 zero predictor's): {count(s_gen[r] >= 0, live=False)}; median final test loss / zero "
          f"predictor's: {approx(np.median(sreg.test_loss[r, -1][ok]), 0.5) if ok.any() else 'n/a'}; "
          f"median final ‖θ‖∞: {approx(np.median(sreg.linf[r, -1][ok]), 0.5) if ok.any() else 'n/a'}; final argmax "
          f"accuracy over all pairs: {', '.join(f'{x:.2f}' for x in sreg.pair_acc[r, -1])}")
print(f"chance: 1/p = {1 / reg_cfg.p:.2f}")
fig_reg_stored = plot_regression(sreg)
glue("fig_reg_stored", fig_reg_stored, display=False)

# %% [markdown]
# ```{figure} _figures/mohamadi2024_why_grok/fig_reg_stored.png
# :name: fig-mohamadi-reg-stored
# The stored regression run ($p = 11$, $4\cdot 10^5$ GD steps at learning rate 0.3; medians over the runs that
# stay finite, bands: range). Left: training (dashed) and test (solid) loss relative to the zero predictor.
# Right: $\|\theta\|_\infty$ (solid) and the scale-free eNTK distance $1-\cos(K_t, K_0)$ (dotted).
# ```

# %% tags=["hide-input"]
# The stored run is loaded, not recomputed, so its numbers are the same on every machine; they print to two
# significant digits. "Generalized" is a test loss below half the zero predictor's, as defined above.
a_small = min(reg_cfg.init_scales)
runs_a1 = [i for i, a in enumerate(reg_cfg.run_scales) if a == 1.0]
runs_small = [i for i, a in enumerate(reg_cfg.run_scales) if a == a_small]
s_test_a1 = float(np.median(sreg.test_loss[runs_a1, -1]))
s_test_small = float(np.median(sreg.test_loss[runs_small, -1]))
half = int(np.searchsorted(sreg.steps, sreg.steps[-1] // 2))
s_test_drop = float(np.median(1 - sreg.test_loss[s_finite, -1] / sreg.test_loss[s_finite, half]))
s_linf_ratio = float(np.median(sreg.linf[runs_a1, -1] / sreg.linf[runs_a1].max(axis=1)))
glue("reg_s_test_a1", f"{s_test_a1:.2g}", display=False)
glue("reg_s_test_small", f"{s_test_small:.2g}", display=False)
glue("reg_s_alpha_small", f"{a_small:g}", display=False)
glue("reg_s_drop", f"{100 * s_test_drop:.0f} %", display=False)
glue("reg_s_linf", f"{np.median(sreg.linf[runs_a1, -1]):.2g}", display=False)
glue("reg_s_fit_small", f"{int(np.median(s_fit[runs_small])):,}", display=False)
glue("reg_s_generalized", f"{int((s_gen >= 0).sum())} of {len(s_gen)}", display=False)
s_acc_a1 = float(np.median(sreg.pair_acc[runs_a1, -1]))
glue("reg_s_acc_a1", f"{s_acc_a1:.2f}", display=False)
glue("reg_s_acc_lo", f"{sreg.pair_acc[s_finite, -1].min():.2f}", display=False)
glue("reg_s_acc_hi", f"{sreg.pair_acc[s_finite, -1].max():.2f}", display=False)
glue("reg_chance", f"{1 / reg_cfg.p:.2f}", display=False)
reg_budget = (f"p = {reg_cfg.p}, h = 4p, n = {reg_cfg.n_train}, GD at lr {reg_cfg.lr:g} for {reg_cfg.steps:,} steps "
              f"(lr × steps = {reg_cfg.lr * reg_cfg.steps:.2g}), λ = {reg_cfg.linf_reg:g}, {len(reg_cfg.seeds)} seeds per α")
claims.check("regression (stored): every run fits its training set (train loss < 1 % of the zero predictor's)",
             float(np.mean(s_fit >= 0)), live=False, run=reg_manifest, seeds=(s_fit >= 0).astype(float), statistic="mean")
claims.check("regression (stored): final test loss / zero predictor's, median of the α = 1 runs", s_test_a1,
             live=False, run=reg_manifest, seeds=sreg.test_loss[runs_a1, -1], statistic="median",
             evidence=f"{reg_budget}: every run fits its training set within {int(s_fit[runs_a1].max()):,} steps and "
                      f"none generalizes; the test loss falls by {100 * s_test_drop:.0f} % (median) over the second "
                      "half of the run, and ‖θ‖∞ decays slowly. Section 8 runs the paper's p = 47")
claims.check(f"regression (stored): final test loss / zero predictor's, median of the α = {a_small:g} runs",
             s_test_small, live=False, run=reg_manifest, seeds=sreg.test_loss[runs_small, -1], statistic="median",
             evidence=f"{reg_budget}: at α = {a_small:g} the training set is fitted later (median step "
                      f"{int(np.median(s_fit[runs_small])):,} against {int(np.median(s_fit[runs_a1])):,} at α = 1), but "
                      "fitted all the same, and the test loss ends higher than at α = 1: no α generalizes")
claims.check("regression (stored): final argmax accuracy over all p² pairs, median of the α = 1 runs", s_acc_a1,
             live=False, run=reg_manifest, seeds=sreg.pair_acc[runs_a1, -1], statistic="median",
             evidence=f"{reg_budget}, PyTorch's default init (the paper: p = 47, lr 1, He's init): the accuracy ends "
                      f"between {sreg.pair_acc[s_finite, -1].min():.2f} and {sreg.pair_acc[s_finite, -1].max():.2f} over "
                      f"every α and seed (chance {1 / reg_cfg.p:.2f}), where Fig. 2's test accuracy reaches 100 %")
_ = claims.check("regression (stored): ‖θ‖∞ at the end / its peak, median of the α = 1 runs", s_linf_ratio, live=False,
             run=reg_manifest, seeds=sreg.linf[runs_a1, -1] / sreg.linf[runs_a1].max(axis=1), statistic="median")

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
# test loss ends higher, {eval}`glued.reg_s_test_small` times the zero predictor's. The ledger records
# Fig. 2 as not reproduced at this scale. What this run cannot tell: whether $p = 11$ is too small for the
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
#
# Its claims were registered before the run started and sealed by it: the training set is fitted at $\alpha = 1$,
# the argmax accuracy over all pairs ends at $1 \pm 0.05$ (Fig. 2's test curves reach 100 %), and it gets there at
# least twice as late as the fit (the grokking delay; "twice" is our bound). We had seen one pilot before
# registering: one seed at $p = 11$ for $10^5$ steps, which fitted and did not generalize. The delay claim is
# judged only when an $\alpha = 1$ run reaches 95 %: a run that never does has no delay to compare.

# %% tags=["hide-input"]
ntk_runs, ntk_manifest = {}, {}
for p_ in mw.PAPER_REGRESSION_PS:
    ncfg = mw.paper_regression_config(p_)
    ntk_runs[p_], ntk_manifest[p_] = load_stored(mw.stored_regression(ncfg, "_results", "regression-ntk"),
                                  f"regression run at the paper's learning rate (p = {p_})",
                                  "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only regression-ntk",
                                  "about 40 minutes on one core for both p", glue_minutes=f"ntk_minutes_{p_}")
ncfg = mw.paper_regression_config(mw.PAPER_REGRESSION_PS[-1])
print(paper_lr_regression_setup_table(ncfg))
for p_, res in ntk_runs.items():
    rc = res.config
    fit_ = res.first_step("train_loss", 0.01)
    gen_ = res.first_step("pair_acc", 0.95)
    for alpha in rc.init_scales:
        r = [i for i, a in enumerate(rc.run_scales) if a == alpha]
        print(f"p = {p_}, alpha = {alpha:g}: fitted (train loss < 1 % of the zero predictor's): "
              f"{count(fit_[r] >= 0, live=False)}, median step of those "
              f"{f'{int(np.median(fit_[r][fit_[r] >= 0])):,}' if (fit_[r] >= 0).any() else 'n/a'}; 95 % argmax accuracy: "
              f"{count(gen_[r] >= 0, live=False)}; final argmax accuracy: {', '.join(f'{v:.2f}' for v in res.pair_acc[r, -1])} "
              f"(chance {1 / p_:.2f}); final test loss / zero predictor's: {approx(np.median(res.test_loss[r, -1]), 0.5)} "
              f"(median); ‖θ‖∞ peak → end: {approx(np.median(res.linf[r].max(axis=1)), 0.1)} → "
              f"{approx(np.median(res.linf[r, -1]), 0.1)} (medians)")
fig_reg_ntk = plot_regression_accuracy([ntk_runs[p_] for p_ in mw.PAPER_REGRESSION_PS])
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
# Stored runs are loaded, not recomputed: these numbers are the same on every machine.
for p_, res in ntk_runs.items():
    rc = res.config
    a1 = [i for i, a in enumerate(rc.run_scales) if a == 1.0]
    fit_ = res.first_step("train_loss", 0.01)[a1]
    gen_ = res.first_step("pair_acc", 0.95)[a1]
    acc_a1 = float(np.median(res.pair_acc[a1, -1]))
    budget = (f"p = {p_}, h = 4p, n = {rc.n_train}, GD at lr {rc.lr:g} for {rc.steps:,} steps, λ = {rc.linf_reg:g}, "
              f"NTK parametrization, α ∈ {rc.init_scales}, {len(rc.seeds)} seeds")
    prefix = f"regression at the paper's learning rate (stored, p = {p_}): "
    claims.check(prefix + "share of the α = 1 runs that fit their training set (train loss < 1 % of the zero "
                 "predictor's)", float(np.mean(fit_ >= 0)), live=False, run=ntk_manifest[p_],
                 seeds=(fit_ >= 0).astype(float), statistic="mean")
    claims.check(prefix + "final argmax accuracy over all p² pairs, median of the α = 1 runs", acc_a1, live=False,
                 run=ntk_manifest[p_], seeds=res.pair_acc[a1, -1], statistic="median",
                 evidence=f"{budget}: the α = 1 runs fit by step {int(fit_.max()):,} and end at argmax accuracy "
                          f"{', '.join(f'{v:.2f}' for v in res.pair_acc[a1, -1])} (chance {1 / p_:.2f}), "
                          f"with ‖θ‖∞ still falling ({np.median(res.linf[a1].max(axis=1)):.1f} → "
                          f"{np.median(res.linf[a1, -1]):.1f}); Fig. 2 (p = 47) reaches 100 %")
    if (gen_ >= 0).any() and (fit_ >= 0).all():
        delay = np.where(gen_ >= 0, np.log10(np.maximum(gen_, 1) / np.maximum(fit_, 1)), np.inf)
        claims.check(prefix + "log10 of (first step at 95 % argmax accuracy / first step with the training set "
                     "fitted), median of the α = 1 runs", float(np.median(delay)), live=False, run=ntk_manifest[p_])
    else:
        claims.unreached(prefix + "log10 of (first step at 95 % argmax accuracy / first step with the training set "
                         "fitted), median of the α = 1 runs", run=ntk_manifest[p_],
                         why=f"no α = 1 run reaches 95 % argmax accuracy within {rc.steps:,} steps ({budget})")
ntk_acc = {p_: float(np.median(res.pair_acc[[i for i, a in enumerate(res.config.run_scales) if a == 1.0], -1]))
           for p_, res in ntk_runs.items()}
glue("ntk_acc", "; ".join(f"{v:.2f} at p = {p_}" for p_, v in ntk_acc.items()), display=False)
glue("ntk_generalized", f"{sum(int((r.first_step('pair_acc', 0.95) >= 0).sum()) for r in ntk_runs.values())} of "
     f"{sum(len(r.config.run_scales) for r in ntk_runs.values())}", display=False)

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
# $\alpha \in \{1, 0.1\}$, one seed each. Its four claims were registered before it started, in two segments: the
# $\alpha = 1$ run fits, its argmax accuracy ends at $1 \pm 0.05$, the delay is at least a factor 2, and the gap is
# no longer at $\alpha = 0.1$ (the last two judged only when the runs generalize).

# %% tags=["hide-input"]
p47_cfg = mw.fig2_regression_config()
p47, p47_manifest = load_stored(mw.stored_regression(p47_cfg, "_results", "regression-p47"), "regression run at p = 47",
                                "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only regression-p47",
                                "about 50 minutes on one core", glue_minutes="p47_minutes")
print(fig2_setup_table(p47_cfg))


def judge_fig2_p47(res, manifest, prefix, key, init, norm_phrase):
    """Print a stored p = 47 regression run's outcome per α, check its four registered claims (the delay and α
    claims only when every run fits and reaches 95 %) and glue its numbers under ``key``; returns (fit, gen) steps.
    A stored run is loaded, not recomputed: these numbers are the same on every machine."""
    cfg = res.config
    fit, gen = res.first_step("train_loss", 0.01), res.first_step("pair_acc", 0.95)
    for r, alpha in enumerate(cfg.run_scales):
        print(f"alpha = {alpha:g}: fitted at step {int(fit[r]):,} (-1: never); 95 % argmax accuracy at step "
              f"{int(gen[r]):,} (-1: never); final argmax accuracy {res.pair_acc[r, -1]:.2f} (chance {1 / cfg.p:.2f}); "
              f"final test loss / zero predictor's {res.test_loss[r, -1]:.1f}; ‖θ‖∞ peak → end {res.linf[r].max():.1f} → "
              f"{res.linf[r, -1]:.1f}")
    claims.check(prefix + "the α = 1 run fits its training set (train loss < 1 % of the zero predictor's)",
                 float(fit[0] >= 0), live=False, run=manifest)
    claims.check(prefix + "final argmax accuracy over all p² pairs, α = 1", float(res.pair_acc[0, -1]), live=False,
                 run=manifest,
                 evidence=f"p = 47, h = 4p, n = {cfg.n_train}, GD at lr 1 for {cfg.steps:,} steps, λ = 1e-4, "
                          f"{init}: the α = 1 run fits by step {int(fit[0]):,} and ends at {res.pair_acc[0, -1]:.2f} "
                          f"(chance {1 / cfg.p:.2f}), with ‖θ‖∞ {norm_phrase} {res.linf[0].max():.1f} to {res.linf[0, -1]:.1f}")
    if (gen >= 0).all() and (fit >= 0).all():
        claims.check(prefix + "log10 of (first step at 95 % argmax accuracy / first step with the training set fitted), α = 1",
                     float(np.log10(gen[0] / max(fit[0], 1))), live=False, run=manifest)
        claims.check(prefix + "steps from fit to 95 % argmax accuracy, α = 0.1 minus α = 1",
                     float((gen[1] - fit[1]) - (gen[0] - fit[0])), live=False, run=manifest)
    else:
        for what in ("log10 of (first step at 95 % argmax accuracy / first step with the training set fitted), α = 1",
                     "steps from fit to 95 % argmax accuracy, α = 0.1 minus α = 1"):
            claims.unreached(prefix + what, run=manifest,
                             why=f"a run does not reach 95 % argmax accuracy within {cfg.steps:,} steps (first steps "
                                 f"at 95 %: {', '.join(str(int(g)) for g in gen)}; -1: never), so it has no delay")
    glue(f"{key}_acc", f"{res.pair_acc[0, -1]:.2f}", display=False)
    glue(f"{key}_fit", f"{int(fit[0]):,}", display=False)
    glue(f"{key}_linf", f"{res.linf[0].max():.1f} to {res.linf[0, -1]:.1f}", display=False)
    return fit, gen


P47 = "Fig. 2 at p = 47 (stored): "
p47_fit, p47_gen = judge_fig2_p47(p47, p47_manifest, P47, "p47", "PyTorch's init", "falling from")
fig_p47 = plot_regression_accuracy([p47])
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
# same recipe as above from He's init (`parametrization="standard_he"`; nothing else changed). Its four claims,
# the same criteria as above, were registered before it started.

# %% tags=["hide-input"]
he_cfg = mw.fig2_he_regression_config()
p47he, p47he_manifest = load_stored(mw.stored_regression(he_cfg, "_results", "regression-p47-he"),
                                    "regression run at p = 47 from He's init",
                                    "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only regression-p47-he",
                                    "about an hour on one core", glue_minutes="p47he_minutes")
print(fig2_setup_table(he_cfg))
P47HE = "Fig. 2 at p = 47 from He's init (stored): "
he_fit, he_gen = judge_fig2_p47(p47he, p47he_manifest, P47HE, "p47he", "He's init", "from a peak of")
fig_p47he = plot_regression_accuracy([p47, p47he])
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
# seeds on a fresh split. Its two criteria (ours: final argmax accuracy over all pairs at least 0.9, test loss at
# most half the zero predictor's) were registered before it ran, which took {eval}`glued.ctl_minutes` minutes on
# one core.

# %% tags=["hide-input"]
ctl_cfg = mw.control_regression_config()
ctl, ctl_manifest = load_stored(mw.stored_regression(ctl_cfg, "_results", "regression-control"), "ℓ∞ positive control",
                                "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only regression-control",
                                "about a minute on one core", glue_minutes="ctl_minutes")
ctl_rate = (ctl.linf[:, 1] - ctl.linf[:, -1]) / (ctl.steps[-1] - ctl.steps[1])
print(f"λ = {ctl_cfg.linf_reg:g}, lr {ctl_cfg.lr:g}, {ctl_cfg.steps:,} steps, seeds {ctl_cfg.init_seeds}: ‖θ‖∞ "
      f"{', '.join(f'{a:.2f} → {b:.2f}' for a, b in zip(ctl.linf[:, 1], ctl.linf[:, -1]))} (mean fall "
      f"{np.mean(ctl_rate):.1e} per step); final train loss / zero predictor's {np.median(ctl.train_loss[:, -1]):.0e}; "
      f"argmax accuracy {', '.join(f'{v:.2f}' for v in ctl.pair_acc[:, -1])}; test loss {', '.join(f'{v:.2f}' for v in ctl.test_loss[:, -1])}")
CTL = "ℓ∞ positive control (stored: p = 11, λ = 1e-2, lr 0.3, 5·10^4 GD steps): "
ctl_ev = (f"stored: λ 100× App. A.1's at p = 11: ‖θ‖∞ falls to {np.median(ctl.linf[:, -1]):.2f}, the training set is fitted, "
          "and the network still memorizes")
claims.check(CTL + "final argmax accuracy over all p² pairs, median of 3 seeds", float(np.median(ctl.pair_acc[:, -1])),
             live=False, run=ctl_manifest, seeds=ctl.pair_acc[:, -1], statistic="median", evidence=ctl_ev)
claims.check(CTL + "final test loss / zero predictor's, median of 3 seeds", float(np.median(ctl.test_loss[:, -1])),
             live=False, run=ctl_manifest, seeds=ctl.test_loss[:, -1], statistic="median", evidence=ctl_ev)
for key, val in {"ctl_linf": np.median(ctl.linf[:, -1]), "ctl_acc": np.median(ctl.pair_acc[:, -1]),
                 "ctl_test": np.median(ctl.test_loss[:, -1])}.items():
    glue(key, f"{val:.2f}", display=False)
glue("ctl_rate", f"{np.mean(ctl_rate):.0e}", display=False)

# %% [markdown]
# The control fails, and that is informative. The penalty acts: $\|\theta\|_\infty$ falls by
# {eval}`glued.ctl_rate` per step on average, to {eval}`glued.ctl_linf` (median), the construction's level, and the
# training set stays fitted. But the network does not generalize: its argmax accuracy over all pairs ends at
# {eval}`glued.ctl_acc` and its test loss at {eval}`glued.ctl_test` times the zero predictor's (medians). Both
# registered expectations are contradicted, so the ledger lists them as deviations from our bound. Reaching the
# construction's norm is not enough at this $p$ and $n$: $\|\theta\|_\infty \approx 1$ is where the construction
# sits on *all* triples, and an interpolator of 440 of them may have a smaller one, which is what Thm 3.6's
# near-minimal premise asks for. Whether GD gets there with more steps or a stronger penalty is not measured here. So the slow
# fall of $\|\theta\|_\infty$ at App. A.1's $\lambda$ is not the only reason the runs above memorize.

# %% [markdown]
# ## Paper versus ours
#
# The paper's claims, numbered and quoted, each with one verdict that follows from its tests by the book's
# decision rules (registered once, stated under the table). The figure rows below the claims are the
# evidence: each names the paper claims its comparisons bear on.

# %% tags=["hide-input", "hide-output"]
claims.figure("mohamadi2024", "Prop. 3.8 (App. F)", scale="book",
              claims=["Fourier construction: accuracy over all p² pairs, every p from 2 to 13",
                      "Fourier construction (V/4): max |f − p·1| over all pairs and p (rounded up to 10^k)",
                      "Fourier construction: worst |‖θ‖∞ − r^(−1/3)| over p and r ∈ {1, 2, 4, 8} copies"],
              why="the construction classifies every pair for p = 2-13 and interpolates exactly once V is divided "
                  "by 4 (Eq. F.2 as printed gives 4p·1); its norm holds by construction")
claims.figure("mohamadi2024", "Thm. 3.1", scale="book",
              claims=["eNTK singular at every tested width below Thm 3.1's n/(3p): fraction of those widths",
                      "widths where 'eNTK singular' ≠ 'h(3p−2) < n'",
                      "eNTK rank: largest |rank − min(n, h(3p−2))| over widths"],
              why="the eNTK is singular at every width below the theorem's n/(3p) and interpolates at h of order n/p "
                  "(p = 11, n = 665); the claim on the theorem's bound was registered after the sweep was seen (†), "
                  "and the sharp threshold n/(3p−2) it matches is our derivation (a check)")
claims.figure("mohamadi2024", "Thm. 3.3", scale="book",
              why="GD's permutation equivariance is proved (App. C) and holds by construction of an i.i.d. init and "
                  "gradient updates; the chapter does not test it numerically")
claims.figure("mohamadi2024", "Thm. 3.4", scale="book",
              claims=["ridgeless kernel regression: smallest relative test loss over p and fractions ≤ 0.9 (eNTK and expected NTK)",
                      "ridgeless kernel regression: smallest relative test loss, against the zero predictor's 1"],
              why="ridgeless eNTK-at-init and expected-NTK regression stay above the zero predictor's loss at every "
                  "fraction up to 0.9 (p = 7, 11), a margin set by ridgeless blow-up (context)")
claims.figure("mohamadi2024", "Thm. 3.4 (the span limit, App. D)", scale="book",
              claims=["best predictor in the kernel's span: smallest population loss / zero predictor's over p, both "
                      "kernels and the fractions where App. D's bound is ≥ 1/2",
                      "best predictor in the kernel's span averaged over the permuted tasks, minus App. D's bound: "
                      "smallest over p, fractions and both kernels"],
              why=f"the best predictor in the span keeps {span_min:.2f} of the zero predictor's population loss where "
                  f"App. D's bound is ≥ 1/2; averaged over permuted tasks it clears the bound by {span_slack:.2f}")
claims.figure("mohamadi2024", "Thm. 4.3 (the span limit, App. D)", scale="book",
              claims=["pNTK at init: best predictor in its span (pNTK ⊗ I_p), smallest population loss / zero "
                      "predictor's over the pair fractions where App. D's bound is ≥ 1/2",
                      "pNTK at init: best predictor in its span averaged over the permuted tasks, minus App. D's bound: "
                      "smallest over the pair fractions"],
              why=f"pNTK at init, p = {cspan['p']}, pair fractions {', '.join(f'{f:g}' for f in cspan['fractions'])}: the best "
                  f"predictor in its span keeps {cspan_min:.2f} of the zero predictor's loss; the permuted average "
                  f"clears App. D's bound by {cspan_slack:.2f}")
claims.figure("mohamadi2024", "Thm. 3.5", scale="book",
              why="the m-summand generalization of Thm 3.4 (Cor. D.8); only m = 3 (Thm 3.4) is tested")
claims.figure("mohamadi2024", "Thm. 3.6", scale="book",
              why="it bounds the loss of interpolators with near-minimal ‖θ‖∞ at h ≥ 8p; our regression runs use "
                  "Fig. 3's h = 4p and never reach such an interpolator (sections 6-7)")
claims.figure("mohamadi2024", "Thm. 4.3", scale="book",
              claims=[f"pNTK kernel classifier: test loss / zero predictor's (p = {mc.p}, n = 2p^(5/3)), median of {len(runs)} splits",
                      f"pNTK kernel classifier: test accuracy against chance 1/p, median of {len(runs)} splits"],
              why=f"on the very splits the trained networks generalize from (p = {mc.p}), the pNTK classifier's "
                  "loss is above the zero predictor's and its accuracy below chance")
claims.figure("mohamadi2024", "Fig. 1 left", scale="book",
              claims=[f"raw eNTK change after fitting ≥ 10× the change up to fitting: fraction of {len(runs)} seeds",
                      f"raw after/before ratio within 10× of the norm growth (‖θ_T‖₂/‖θ_fit‖₂)^4: fraction of {len(runs)} seeds",
                      f"unit-norm eNTK change after fitting ÷ before fitting, median of {len(runs)} seeds"],
              why="the raw eNTK change grows by orders of magnitude after fitting, as plotted, but ‖θ‖⁴ growth "
                  "explains it; scale-free, the kernel moves as much before fitting as after. With PyTorch's init "
                  f"(p = {mc.p}) ‖θ_0‖₂ ≈ {norms['PyTorch']:.0f} is below one normalized step (10), so our setup rules a kernel regime "
                  f"out; the first author's NTK parametrization (start ≈ {norms['NTK']:.0f}) is the next row; He's "
                  f"init (start ≈ {norms['He']:.0f}) was not run")
nc_left = [nc_prefix + "scale-free eNTK distance at the fit over the same at the end, median of the α = 1 runs",
           nc_prefix + "log10 of ‖Θ̂_end − Θ̂_0‖_F over ‖Θ̂_fit − Θ̂_0‖_F, median of the α = 1 runs"]
claims.figure("mohamadi2024", "Fig. 1 left (NTK parametrization)", scale="book", claims=nc_left,
              why=f"{nc_budget}: scale-free, the eNTK distance at the fit is {nc_ratio:.2f} of its final value; the raw "
                  f"change grows by {nc_decades:.1f} decades after the fit")
nc_middle = [nc_prefix + "final test accuracy, median of the α = 1 runs",
             nc_prefix + "test accuracy when the training set is fitted, α = 0.1 minus α = 1 (medians)",
             nc_prefix + "steps from fit to 99 % test accuracy, α = 0.1 minus α = 1 (medians)"]
claims.figure("mohamadi2024", "Fig. 1 middle (NTK parametrization)", scale="book",
              claims=nc_middle,
              why=f"{nc_budget}: final test accuracy {np.median(nc.test_acc[nc_rows[1.0], -1]):.2f} at α = 1 (median); "
                  f"at the fit the test accuracy is {nc_fit_gain:.2f} higher at α = 0.1 than at α = 1 (the paper's gap, †); "
                  f"the time from fit to 99 % is {nc_gap_diff:,.0f} steps longer (medians; §6: a smaller α slows final "
                  "generalization)")
claims.figure("mohamadi2024", "Fig. 1 middle", scale="book",
              claims=[f"trained network: final test accuracy on the same splits (p = {mc.p}), median of {len(runs)} seeds",
                      f"fitted before the test accuracy reached 99 % (α = 1): fraction of {len(runs)} seeds",
                      f"‖θ‖₂ after {int(main.steps[1])} steps, α = {a_min:g} over α = 1 (medians of {len(runs)} seeds)",
                      f"gap from fitting to 99 % test accuracy, α = {a_min:g} over α = 1 (means of {len(runs)} seeds)",
                      f"plain GD (stored): test accuracy when the training set is fitted, α = {a_lo:g} minus α = 1 (medians)",
                      f"plain GD (stored): final accuracy on test pairs with unseen mirror, α = {a_lo:g}, median of {len(lo_rows)} seeds"],
              why=f"fitting first and 100 % test accuracy later reproduce (normalized GD, p = {mc.p}), but its step "
                  "length erases α; under plain GD (stored) a smaller α fits with more test accuracy, as the paper "
                  "says, yet no α generalizes: GD stalls once the training loss is small")
claims.figure("mohamadi2024", "Fig. 1 right", scale="book",
              claims=[f"min over p ∈ {tuple(sorted(results))} of the median final test accuracy at n = 2p^(5/3)",
                      f"sample complexity (stored): fitted exponent k of n* ∝ p^k, p = {scfg.ps[0]}-{scfg.ps[-1]}",
                      "sample complexity (stored): 97.5th percentile of the seed-bootstrap exponent",
                      "sample complexity (stored): min over p of the median final test accuracy at n = 2p^(5/3)"],
              why=f"every p generalizes at n = 2p^(5/3); the stored sweep over p = {scfg.ps[0]}-{scfg.ps[-1]} measures "
                  f"n* ∝ p^{k_fit:.2f} (95 % over seeds: {k_lo:.2f}-{k_hi:.2f}): within Thm 4.5's upper bound 5/3 and "
                  "below the kernel rate 2 (†: the stored run predates sealed claims, and the bound was first "
                  "registered as a ±0.3 window); n* at large p still falls with the budget: the next row")
bud_claims = ["sample complexity, longer budget (stored): min over p = 37-53 of the median test accuracy at n = 2p^(5/3) "
              "after 4,000 steps",
              "sample complexity, settled budgets (stored): fitted exponent k of n* ∝ p^k, p = 11-31 at 1,500 steps and "
              "37-53 at 4,000",
              "sample complexity, settled budgets (stored): 97.5th percentile of the seed-bootstrap exponent",
              "sample complexity, longer budget (stored): largest |log2 n*(4,000 steps) − log2 n*(2,000 steps)| over "
              "p = 37-53",
              "sample complexity (stored): largest |log2 n*(1,500 steps) − log2 n*(750 steps)| over p = 11-31"]
claims.figure("mohamadi2024", "Fig. 1 right (settled budgets, p up to 53)",
              scale="paper (CPU, stored)", claims=bud_claims,
              why=f"claims sealed before the run: every p up to 53 generalizes at n = 2p^(5/3) after 4,000 steps; "
                  f"over critical sizes that move by less than a grid step when the budget doubles, n* ∝ "
                  f"p^{settled.k:.2f} (95 % over seeds {s_lo:.2f}-{s_hi:.2f}): within Thm 4.5's 5/3 and below the "
                  f"kernel rate 2. The four largest p at one budget give k = {k_common:.2f} ({k_common_lo:.2f}-"
                  f"{k_common_hi:.2f}): near the bound, not below it; n* still falls slowly with the budget")
claims.figure("mohamadi2024", "Fig. 2", scale="book",
              claims=["regression (stored): final argmax accuracy over all p² pairs, median of the α = 1 runs",
                      "regression (stored): final test loss / zero predictor's, median of the α = 1 runs",
                      f"regression (stored): final test loss / zero predictor's, median of the α = {a_small:g} runs",
                      "regression: final test loss / zero predictor's, median of the finite runs"],
              why=f"book scale ({cfg.regression.steps} steps) and the stored run at p = {reg_cfg.p}, {reg_cfg.steps:,} GD "
                  f"steps at lr {reg_cfg.lr:g} (the paper's budget in lr × steps, not its p = 47, lr 1 or He init), "
                  f"α ∈ {reg_cfg.init_scales}: every run memorizes; accuracy ends at {s_acc_a1:.2f} (α = 1, chance "
                  f"{1 / reg_cfg.p:.2f}) where Fig. 2 reaches 100 %; a smaller α fits later but ends with a higher "
                  "test loss")
ntk_row = [f"regression at the paper's learning rate (stored, p = {p_}): final argmax accuracy over all p² pairs, median "
           "of the α = 1 runs" for p_ in mw.PAPER_REGRESSION_PS]
ntk_row += [c.name for c in claims.claims if c.name.startswith("regression at the paper's learning rate")
            and "log10 of" in c.name]
claims.figure("mohamadi2024", "Fig. 2 (paper's learning rate, NTK parametrization)",
              scale="book", claims=ntk_row,
              why=f"stored: GD at lr 1, λ = 1e-4, {mw.paper_regression_config(11).steps:,} steps, n = 2p^2.25, h = 4p, in the "
                  f"first author's public parametrization, p = {' and '.join(map(str, mw.PAPER_REGRESSION_PS))} (not 47): "
                  f"every α = 1 run fits its training set (a reproduction, not listed: fitting is not the figure's "
                  f"claim) and the argmax accuracy ends at {'; '.join(f'{v:.2f} (p = {p_})' for p_, v in ntk_acc.items())} "
                  "where Fig. 2 reaches 100 %")
claims.figure("mohamadi2024", "Fig. 2 (p = 47, as printed)",
              scale="paper (CPU, stored)", claims=[P47 + "final argmax accuracy over all p² pairs, α = 1"],
              why=f"stored: App. A.1 as printed at p = 47 (standard parametrization, PyTorch's init, lr 1, 2e5 steps), "
                  f"α ∈ {p47_cfg.init_scales}, one seed each: the α = 1 run fits (a reproduction, not listed) and ends at "
                  f"argmax accuracy {p47.pair_acc[0, -1]:.2f} where Fig. 2 reaches 100 %")
claims.figure("mohamadi2024", "Fig. 2 (p = 47, He's init)",
              scale="paper (CPU, stored)", claims=[P47HE + "final argmax accuracy over all p² pairs, α = 1"],
              why=f"stored: App. A.1 at p = 47 from He et al.'s normal init (App. A.1's reference; lr 1, 2e5 steps), "
                  f"α ∈ {he_cfg.init_scales}, one seed each: the α = 1 run "
                  + (f"fits by step {int(he_fit[0]):,}" if he_fit[0] >= 0 else "never fits")
                  + f" and ends at argmax accuracy {p47he.pair_acc[0, -1]:.2f} where Fig. 2 reaches 100 %")
claims.figure("mohamadi2024", "Fig. 3", scale="book",
              why="needs regression grokking at several p (1e5 GD steps each); at p = 11 even the stored run at "
                  "the paper's budget memorizes (Fig. 2), so ‖θ‖∞ after grokking against p cannot be measured")
claims.figure("mohamadi2024", "Fig. 3 (ℓ∞ positive control)", scale="book",
              claims=[CTL + "final argmax accuracy over all p² pairs, median of 3 seeds",
                      CTL + "final test loss / zero predictor's, median of 3 seeds"],
              why=f"stored, registered before it ran: λ 100× App. A.1's at p = 11 lowers ‖θ‖∞ to "
                  f"{np.median(ctl.linf[:, -1]):.2f} within 5·10^4 steps, yet the argmax accuracy ends at "
                  f"{np.median(ctl.pair_acc[:, -1]):.2f}: the penalty acts, and GD still memorizes")
claims.figure("mohamadi2024", "Fig. 4", scale="book",
              claims=[f"min over p ∈ {tuple(sorted(results))} of the median final test accuracy at n = 2p^(5/3)",
                      f"‖θ‖∞ after {cfg.class_steps} steps, p = {ps[-1]} over p = {ps[0]} (medians)",
                      "sample complexity (stored): min over p of the median final test accuracy at n = 2p^(5/3)",
                      f"‖θ‖∞ after {scfg.steps:,} normalized steps at n = 2p^(5/3) (stored): p = {p_hi} over p = {p_lo} (medians)",
                      f"normalized margin at p = {p_hi} over the construction's margin p (stored, median)"],
              why=f"train then test accuracy reach 100 % for every p at n = 2p^(5/3) (p up to {p_hi}, stored); ‖θ‖∞ "
                  "does not grow with p (only a check: normalized GD sets the scale by the step count), and the "
                  "normalized margin falls with p, far below the Ω(p) the theory assumes")
claims.figure("mohamadi2024", "Fig. 5", scale="book",
              claims=[f"transformer (book: AdamW): final train accuracy, median of {len(tfs)} seeds",
                      f"transformer: accuracy on test pairs with unseen mirror, when the train set is fitted, median of {len(tfs)} seeds",
                      f"transformer: final test accuracy, median of {len(tfs)} seeds",
                      f"transformer: unit-norm eNTK change after fitting ÷ before fitting (eNTK on the training pairs), median of {len(tfs)} seeds",
                      f"transformer (stored, GD): final train accuracy, median of {len(gtfs)} seeds",
                      f"transformer (stored, GD): final accuracy on test pairs with unseen mirror, median of {len(gtfs)} seeds",
                      f"transformer (stored, GD): unit-norm eNTK change up to fitting, median of {len(gtfs)} seeds",
                      f"transformer (stored, GD): unit-norm eNTK change after fitting ÷ before fitting, median of {len(gtfs)} seeds"],
              why=f"late generalization reproduces with AdamW (p = 23); with the paper's GD (stored, {gd_cfg.steps:,} steps) "
                  "the same network fits, memorizes and does not grok, and under both optimizers the eNTK moves "
                  "while the training set is fitted, not after")
glue("ledger_tally", claims.tally(), display=False)
glue("n_after", str(sum(c.set_after for c in claims.claims)), display=False)
glue("n_claims", str(len(claims.claims)), display=False)
glue("n_after_stored", str(sum(c.set_after and bool(c.run) for c in claims.claims)), display=False)
claims.ledger()

# %% [markdown]
# In all, this chapter's paper claims (figures and theorems): {eval}`glued.ledger_tally`.
# {eval}`glued.n_after` of its {eval}`glued.n_claims` claims are marked † (set after their result):
# {eval}`glued.n_after_stored` judge stored runs that predate sealed registries; the others carry an amendment,
# listed in the ledger with its original value and reason.
#
# ### Deviations and notes
#
# * **Regression grokking and the init-scale effect (Figs 2 and 3) are not reproduced.** The stored run of
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
# * **Tolerances.** The construction is exact up to float64 rounding ($\sim 10^{-14}$), and the check uses
#   $10^{-9}$. The rank test counts eigenvalues above $10^{-10}\lambda_{\max}$; where there is a gap between
#   singular and invertible kernels, $\lambda_{\min}/\lambda_{\max}$ jumps from below $10^{-15}$ to above
#   $10^{-6}$. The kernel losses come from float64 linear algebra at init, without training. The claims on
#   trained networks are medians or seed fractions over five seeds for the two-layer networks at
#   $n = 2p^{5/3}$ (inits and training splits) and three for the transformer (inits), because single trained
#   runs are chaotic: a change in the last bit of a CPU's vector kernel moves their fitting steps and final
#   ratios. Accuracies near 1 are shown at 0.01; the two scale-free eNTK ratios, which vary between seeds by
#   tenths and must exceed 10 to reproduce the paper, at 1; the $\alpha$ gap ratio, whose seeds scatter
#   by about a quarter, at 1. The tolerance of the seed fractions (0.2) lets one seed in five miss.
# * **Claims set after their result (†).** Every claim on a stored run, because the runs predate sealed
#   registries. Besides, by amendment: the $\alpha$ gap ratio's band (a gap halved at $\alpha = 0.1$, chosen
#   after exploratory three-seed runs had shown ratios near 1); the factor of ten within which norm growth must
#   explain the raw eNTK ratio (chosen after seeing that it explains it more closely than that); Thm 4.5's
#   exponent, first registered as a window of ±0.3 around 5/3 and now the bound $k \le 5/3$ the theorem states;
#   Thm 3.1's comparison with our own threshold, re-kinded as a check; and two claims written after their result
#   had been seen: Thm 3.1's bound (singular below $n/(3p)$) and the stored regression run's accuracy.

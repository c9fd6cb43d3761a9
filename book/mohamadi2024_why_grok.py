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
# # Why do you grok? Kernels cannot, rich networks can
#
# **The claim** (Mohamadi, Li, Wu & Sutherland 2024, *Why Do You Grok? A Theoretical Analysis of Grokking
# Modular Addition*, ICML 2024, arXiv 2407.12332). Take the two-layer network with quadratic activation
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
#
# **What this chapter reproduces.** The Fourier construction for every $p$ from 2 to 13; the eNTK
# interpolation threshold (rank against width, Thm 3.1); the failure of eNTK and expected-NTK kernel
# regression at every training fraction up to 0.9 (Thm 3.4); the pNTK kernel classifier against a trained
# network *on the same split* (Thm 4.3); normalized-GD classification with the paper's recipe, which fits
# first and generalizes later at $n = 2p^{5/3}$ for every $p$ tried (Figs 1 and 4); and the late
# generalization of the one-layer transformer of Fig. 5.
#
# **What it does not reproduce.** Every known non-reproduction is a registered *deviation* in the
# ledger at the end of the chapter ("Paper versus ours"):
#
# * *The kernel half of Figs 1 and 5.* The raw eNTK change does grow by orders of magnitude after
#   fitting, as in Fig. 1 (left), but the growth of $\|\theta\|$ explains it: the eNTK of this
#   3-homogeneous network scales like $\|\theta\|^4$. Measured scale-free, the kernel moves about as much
#   before fitting as after, for the two-layer network and for the transformer.
# * *The init-scale effect (Figs 1 and 2).* We ran the $\alpha$ sweep, and a smaller $\alpha$ does not
#   shrink the gap between fitting and generalizing. Normalized GD with step length 10 erases the init
#   scale within the first steps, so this design cannot show the effect.
# * *Regression grokking (Figs 2 and 3).* The paper trains $5\cdot 10^4$ to $2\cdot 10^5$ GD steps at $p = 47$.
#   A stored run at $p = 11$ with the same budget (in learning rate × steps) memorizes at every init scale
#   and does not generalize (section 7); $p = 47$ was not run.
#
# Fig. 5's transformer also trains with AdamW at book scale, not with the paper's GD (Section 5).
# `REPRO_SCALE=paper` runs the paper's settings with the same code, but no GPU was available to run
# them for this chapter.

# %%
import math
import warnings

warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np
import torch
from myst_nb import glue

from repro.book.claims import ClaimBook
from repro.core.portable import approx, trained
from repro.core.scale import current_scale
from repro.experiments import mohamadi2024_why_grok as mw
from repro.experiments import mohamadi2024_why_grok_sample as mws
from repro.plotting.mohamadi2024_why_grok import (plot_classification, plot_init_scale_gd, plot_kernel_regime,
                                                  plot_regression, plot_transformer)
from repro.plotting.mohamadi2024_why_grok_sample import plot_norm_margin, plot_sample_complexity
from repro.plotting.shared import use_style
from repro.theory import mohamadi2024 as th
from repro.training.store import load_stored

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
# `WhyGrokConfig` holds every experiment; its defaults are the paper's settings (App. A): regression with
# full-batch GD at learning rate 1, $\lambda = 10^{-4}$ on $\|\theta\|_\infty$, $n = 2p^{2.25}$, $h = 4p$,
# $p = 47$; classification with normalized GD of step length 10, $\lambda = 10^{-20}$, $n = 2p^{5/3}$ and
# $h = 8p$; the transformer of Fig. 5 with full-batch GD at learning rate 0.25 and $n = 2p^{5/3}$. The
# two-layer networks start from PyTorch's default uniform init ("default PyTorch initialization", App. A and
# the caption of Fig. 1), times a scale $\alpha$. Where the paper gives no value (the list of $p$, the
# $\alpha$ values, the width of Figs 1 and 4, the transformer's architecture), the config makes a choice
# and says so in a comment: $h = 8p$ for classification, as Thm 4.5 requires, $h = 4p$ for regression, as
# in Fig. 3, and Nanda et al.'s transformer. The book scale keeps every recipe except the transformer's
# optimizer (Section 5), and shrinks $p$, widths and the number of steps.

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

# %%
full = [r for r in rows + dup if not r["halved"]]
# Rounded up to a power of ten: the float64 rounding error itself (~1e-14) differs between BLAS builds.
max_error = 10.0 ** math.ceil(math.log10(max(r["max_error"] for r in rows + dup)))
claims.check("Fourier construction: accuracy over all p² pairs, every p from 2 to 13", min(r["accuracy"] for r in rows),
             1.0, kind="reproduction", tolerance=0.0, live=False,
             source="App. F / Prop. 3.8: the construction solves modular addition exactly, on every pair")
claims.check("Fourier construction (V/4): max |f − p·1| over all pairs and p (rounded up to 10^k)", max_error, 1e-9,
             kind="check", against="book bound", comparison="<=", live=False,
             source="App. F, Eqs. F.1-F.2 with V divided by 4: zero regression loss; 1e-9 bounds float64 rounding")
claims.check("Fourier construction: worst |‖θ‖∞ − r^(−1/3)| over p and r ∈ {1, 2, 4, 8} copies",
             max(abs(r["linf"] - r["r"] ** (-1 / 3)) for r in full), 0.0, kind="check", against="paper", tolerance=1e-12,
             live=False,
             source="Prop. 3.8: min ‖θ‖∞ ≤ ⌊h/8p⌋^(−1/3), met with equality; true by construction (a check of our code)")

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

# %%
rank = mw.entk_rank_sweep(cfg.rank_p, cfg.rank_n, cfg.rank_widths, cfg.seed)
mismatch = int(np.sum((rank["rank"] < rank["n"]) != (rank["widths"] * (3 * rank["p"] - 2) < rank["n"])))
for h, rk, bd in zip(rank["widths"], rank["rank"], rank["bound"]):
    print(f"h = {h:3d}: rank {rk:4d}, min(n, h(3p-2)) = {bd:4d}, singular: {rk < rank['n']}")
glue("rank_threshold", f"{rank['n'] / (3 * rank['p'] - 2):.1f}", display=False)
glue("rank_lower", f"{rank['n'] / (3 * rank['p']):.1f}", display=False)
claims.check("eNTK rank: largest |rank − min(n, h(3p−2))| over widths", int(np.abs(rank["rank"] - rank["bound"]).max()),
             0, kind="check", against="derivation", tolerance=0, live=False,
             source="Prop. B.6 (rank ≤ 3ph) and the two null directions per neuron derived in Section 2")
claims.check("widths where 'eNTK singular' ≠ 'h(3p−2) < n'", mismatch, 0, kind="reproduction", tolerance=0, live=False,
             source="Thm 3.1: no interpolation below h = n/(3p), interpolation at h = Θ̃(n/p) "
                    "(the sharp threshold n/(3p−2) is derived in Section 2)")

# %% [markdown]
# At $p$ = 11 with $n$ = 665 triples the predicted threshold is $h$ = {glue:text}`rank_threshold`
# (Thm 3.1's lower bound: {glue:text}`rank_lower`). The measured rank equals $\min(n, h(3p-2))$ at every
# width tried: the kernel regime can fit the training set with a width of order $n/p$.
#
# ## 3. Kernels do not generalize (Thm 3.4)
#
# The eNTK at init, used with the initial network as the prior mean, is what gradient descent on the
# linearized network converges to (App. B.1). It is permutation-equivariant, so Thm 3.4 applies:
# for $n < Cp^3$ its expected test loss is at least half the zero predictor's. We also try the
# *expected* NTK over the init (Prop. B.3), a deterministic equivariant kernel. Losses are relative to
# the zero predictor on the same test triples; 1 means "no better than predicting 0".

# %%
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
claims.check("kernel regression: smallest relative test loss over p and fractions ≤ 0.9 (eNTK and expected NTK)",
             kernel_min, 0.5, kind="reproduction", comparison=">=", resolution=0.05, live=False,
             source="Thm 3.4: equivariant kernel methods have test loss ≥ 1/2 of the zero predictor's for n < Cp³")
claims.check("kernel regression: smallest relative test loss, against the zero predictor's 1", kernel_min, 1.0,
             kind="check", against="book bound", comparison=">=", resolution=0.05, live=False,
             source="our stronger reading of Thm 3.4's setting: no kernel predictor beats predicting 0")

# %% [markdown]
# ```{glue:figure} fig_kernel
# :name: fig-mohamadi-kernel
# Left: the eNTK's rank against width. It follows $\min(n, h(3p-2))$ exactly, so the kernel becomes
# invertible, and eNTK regression interpolates, at $h = n/(3p-2)$. Right: eNTK-at-init (solid) and
# expected-NTK (dashed) kernel regression, test loss relative to the zero predictor, against the
# training fraction. Every point lies above 1 (black line), and so above Thm 3.4's bound of 1/2
# (dotted), even with 90 % of all triples in the training set.
# ```
#
# The smallest relative test loss over all $p$, fractions and both kernels is {glue:text}`kernel_min`:
# the kernel predictors never beat predicting zero, which is more than Thm 3.4's bound of 1/2 asks.

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

# %%
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
             kernel_loss, 0.5, kind="reproduction", comparison=">=", resolution=0.1, live=False,
             source="Thm 4.3: equivariant kernel methods have test loss ≥ 1/2 of the zero predictor's for n < Cp²")
claims.check(f"pNTK kernel classifier: test accuracy against chance 1/p, median of {len(runs)} splits",
             kernel_acc, 1 / mc.p, kind="check", against="book bound", comparison="<=", resolution=0.01, live=False,
             source="our bound (Thm 4.3 is an ℓ2 statement and leaves accuracy open): no better than chance")
# Trained accuracies are shown at 0.01: every seed ends at 1.00 or close; Fig. 1 and 4's test curves reach 100 %.
claims.check(f"trained network: final test accuracy on the same splits (p = {mc.p}), median of {len(runs)} seeds",
             np.median(trained_acc), 1.0, kind="reproduction", tolerance=0.01, resolution=0.01, seeds=trained_acc,
             source="Fig. 1 (middle) and Fig. 4 (left): test accuracy reaches 100 %, read off the plots")
# A seed counts if its training set is fitted before its test accuracy reaches 99 %; the tolerance lets one
# seed in five miss (a seed that fits and generalizes within one evaluation interval).
claims.check(f"fitted before the test accuracy reached 99 % (α = 1): fraction of {len(runs)} seeds", np.mean(fit_first),
             1.0, kind="reproduction", tolerance=0.2, resolution=0.2, seeds=fit_first.astype(float),
             source="Fig. 1 (middle): the train curve reaches 100 % before the test curve")

# %% [markdown]
# The kernel predictor scores {glue:text}`kernel_acc` test accuracy, against a chance level of
# {glue:text}`chance`, and its squared test loss is {glue:text}`kernel_loss` times the zero predictor's.
# The network trained on the same pairs reaches {glue:text}`trained_acc` (median of
# {glue:text}`n_seeds` seeds).
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

# %%
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
# Resolution 1: the ratio varies between seeds and CPUs by tenths, and the paper's reading needs ≥ 10.
glue("shape_ratio", trained(np.median(shape_ratio), 1), display=False)
# Counts over seeds: the raw ratio itself varies by factors of several between seeds (and between CPUs).
claims.check(f"raw eNTK change after fitting ≥ 10× the change up to fitting: fraction of {len(runs)} seeds",
             np.mean(raw_after >= 10 * raw_before), 1.0, kind="check", against="paper", tolerance=0.2, resolution=0.2,
             seeds=(raw_after >= 10 * raw_before).astype(float),
             source="the raw Frobenius pattern Fig. 1 (left) plots; not a reproduction of a kernel regime: "
                    "norm growth alone produces it (next claim)")
claims.check(f"raw after/before ratio within 10× of the norm growth (‖θ_T‖₂/‖θ_fit‖₂)^4: fraction of {len(runs)} seeds",
             np.mean(explained), 1.0, kind="check", against="derivation", tolerance=0.2, resolution=0.2, set_after=True,
             seeds=explained.astype(float),
             source="Θ̂(sθ) = s⁴Θ̂(θ) for the 3-homogeneous net: the raw change grows like ‖θ‖⁴")
claims.check(f"unit-norm eNTK change after fitting ÷ before fitting, median of {len(runs)} seeds", np.median(shape_ratio),
             10.0, kind="deviation", comparison=">=", resolution=1, seeds=shape_ratio,
             source="Fig. 1 (left) and Sec. 3 on Fig. 2: the eNTK change is negligible until the training set is "
                    "fitted and orders of magnitude larger after (read: ≥ 10×)",
             evidence=f"p = {mc.p}, h = 8p, normalized GD (App. A.2), {len(runs)} seeds: measured scale-free, the "
                      "kernel moves about as much before fitting as after; the raw Frobenius change does grow by "
                      "orders of magnitude after fitting, as plotted in the paper, but (‖θ_T‖/‖θ_fit‖)^4 accounts "
                      "for it. Paper-scale p and 10^5 steps not run.")

# %% [markdown]
# The raw change grows by orders of magnitude after fitting in every seed, as in Fig. 1 (left), and the
# growth of $\|\theta\|_2^4$ from fitting to the end accounts for that ratio within a factor of ten. Before
# fitting, the raw change is already more than a hundred times $\|\hat\Theta_0\|_F$, which is only
# {glue:text}`ntk_norm0`. Scaled to unit norm, the kernel moves about as much before fitting as after:
# the median ratio after/before is ≈ {glue:text}`shape_ratio`, where the paper's reading, a kernel that
# stands still until the training set is fitted and then moves a lot, would need a ratio of ten or more.
# The network does leave its initial kernel, and the kernel keeps turning while the test accuracy climbs,
# but at book scale it left during fitting, not after. This is a registered deviation in the ledger.
#
# ### The init scale (Fig. 1, middle)
#
# The paper multiplies $\theta_0$ by $\alpha$ and reports that a smaller $\alpha$ shrinks the gap between
# fitting and generalizing, "to the point of completely eliminating" it. We ran $\alpha \in \{1, 0.3, 0.1\}$
# at $n = 2p^{5/3}$, five seeds each, and compare the mean number of steps from fitting to 99 % test
# accuracy.

# %%
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
claims.check(f"‖θ‖₂ after {int(main.steps[1])} steps, α = {a_min:g} over α = 1 (medians of {len(runs)} seeds)", norm_ratio,
             1.0, kind="check", against="derivation", tolerance=0.25, resolution=0.5,
             seeds=first_l2[a_min] / first_l2[1.0],  # per seed: the same seed's init and split at both α
             source="normalized GD moves θ by 10 per step, far more than ‖θ_0‖₂ (about 8α): the init scale is "
                    "forgotten within the first steps")
claims.check(f"gap from fitting to 99 % test accuracy, α = {a_min:g} over α = 1 (means of {len(runs)} seeds)", gap_ratio,
             0.0, kind="deviation", tolerance=0.5, resolution=1, set_after=True,
             # per seed (same init and split at both α; NaN: never generalized, dropped)
             seeds=gap[a_min] / gap[1.0] if np.isfinite(gap[a_min] / gap[1.0]).sum() >= 2 else None,
             source="Fig. 1 (middle) and Sec. 4: a smaller α mitigates grokking, up to eliminating the train–test "
                    "gap (0); we would call a gap halved at α = 0.1 reproduced",
             evidence=f"p = {mc.p}, normalized GD with step length 10 (App. A.2), α ∈ {{1, 0.3, 0.1}}, {len(runs)} "
                      "seeds: the gap does not shrink with α; ‖θ‖₂ is the same for every α after the first steps, "
                      "so this optimizer erases the init scale (plain GD: the stored run below).")

# %% [markdown]
# After {glue:text}`first_step` steps every $\alpha$ has the same $\|\theta\|_2$, and the gap at
# $\alpha$ = {glue:text}`a_min` is ≈ {glue:text}`gap_ratio` times the gap at $\alpha = 1$. With a fixed
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
# {glue:text}`gdi_minutes` minutes on one core). Besides the test accuracy we track the accuracy on the test
# pairs whose mirror $(b, a)$ is not a training pair either: the pairs are ordered, and a network that has only
# learned $a + b = b + a$ answers the others. The criteria, fixed before the run: Fig. 1 (middle) reproduces if
# the smallest $\alpha$ generalizes (final accuracy on the unmirrored test pairs within 0.1 of 100 %), and the
# direction of the effect reproduces if the smallest $\alpha$'s test accuracy at the step it fits the
# training set exceeds $\alpha = 1$'s by at least 0.1 (medians over seeds).

# %%
gdi_cfg = mw.gd_init_scale_config()
gdi, gdi_manifest = load_stored(mw.stored_classification(gdi_cfg, "_results"), "plain-GD init-scale run",
                                "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only gd-init-scale",
                                "about 10 minutes", glue_minutes="gdi_minutes")
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
             gdi_gain, 0.1, kind="reproduction", comparison=">=", resolution=0.01, live=False,
             source="Fig. 1 (middle) and §4: a smaller init scale keeps the network from overfitting in the kernel "
                    "regime (we read: at least 0.1 more test accuracy at the fitting step)")
claims.check(f"plain GD (stored): final accuracy on test pairs with unseen mirror, α = {a_lo:g}, median of "
             f"{len(lo_rows)} seeds", gdi_unm_lo, 1.0, kind="deviation", tolerance=0.1, resolution=0.01, live=False,
             source="Fig. 1 (middle) and §4: a small enough α eliminates the train-test gap (the network generalizes "
                    "as it fits)",
             evidence=f"{gdi_budget}: every run fits its training set (the smaller α, the later) and none reaches "
                      "90 % test accuracy; once the training loss is small GD's steps shrink with it and the test "
                      "accuracy stops where it is")

# %% [markdown]
# ```{glue:figure} fig_gdi
# :name: fig-mohamadi-init-scale-gd
# The init scale under plain GD (stored; medians over four seeds, bands: range). Left: train (dashed) and test
# (solid) accuracy against the step, log axis, one colour per $\alpha$. Right: the accuracy on the test pairs
# whose mirror is unseen too. The smaller $\alpha$, the later the training set is fitted; every smaller
# $\alpha$ fits it with more test accuracy than $\alpha = 1$, and then the curves flatten.
# ```
#
# Under plain GD the init scale matters, in the paper's direction: at the step the training set is fitted, the
# test accuracy at $\alpha$ = {glue:text}`gdi_alpha_lo` exceeds that at $\alpha = 1$ by
# {glue:text}`gdi_gain` (medians), and at the end of the run the medians are {glue:text}`gdi_end_lo` against
# {glue:text}`gdi_end_hi`. The unmirrored pairs rise with the others, so this is modular structure, not only
# $a + b = b + a$. But no $\alpha$ generalizes: on the unmirrored pairs the smallest $\alpha$ ends at
# {glue:text}`gdi_unm_lo`, and no run reaches 90 % test accuracy. Once the cross-entropy is small its gradient
# is too, and GD's steps shrink with it; normalized GD, which keeps taking steps of length 10, is what drives
# the runs of section 4 to 100 %, and it forgets $\alpha$. Neither optimizer shows the paper's complete picture,
# a small $\alpha$ that removes the gap, at this scale; the ledger records Fig. 1 (middle) as partial.

# %% [markdown]
# ### Sample complexity (Fig. 1, right, and Fig. 4)
#
# Thm 4.5 says $\tilde O(p^{5/3})$ pairs suffice for networks with a large normalized $\ell_\infty$ margin. We
# train at $n = c\,p^{5/3}$ for $c \in \{0.5, 1, 2\}$ and every $p$ of the config.

# %%
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
             min(at_two.values()), 1.0, kind="reproduction", tolerance=0.01, resolution=0.01,
             seeds=results[p_worst].test_acc[results[p_worst].runs_of(2.0, 1.0), -1],
             source="Fig. 1 (right) and Fig. 4 (left): every p generalizes at n = 2p^(5/3), read off the plots")
# Fig. 4 (right): ‖θ‖∞ of the trained networks against p, here after the same number of normalized steps.
ps = sorted(results)
linf_p = {p: np.median(results[p].linf[results[p].runs_of(2.0, 1.0), -1]) for p in ps}
margin_p = {p: np.median(results[p].margin[results[p].runs_of(2.0, 1.0), -1]) / p for p in ps}
print(f"after {cfg.class_steps} steps at n = 2p^(5/3), medians over seeds: ‖θ‖∞ decreases with p: "
      f"{trained(str(all(linf_p[a] > linf_p[b] for a, b in zip(ps, ps[1:]))))}; normalized margin q_min/‖θ‖∞³ "
      f"divided by p decreases with p: {trained(str(all(margin_p[a] > margin_p[b] for a, b in zip(ps, ps[1:]))))}")
linf_ratio = linf_p[ps[-1]] / linf_p[ps[0]]
glue("linf_ratio", trained(linf_ratio, 0.5), display=False)
claims.check(f"‖θ‖∞ after {cfg.class_steps} steps, p = {ps[-1]} over p = {ps[0]} (medians)", linf_ratio, 1.0,
             kind="check", against="paper", comparison="<=", resolution=0.5,
             seeds=(results[ps[-1]].linf[results[ps[-1]].runs_of(2.0, 1.0), -1]
                    / results[ps[0]].linf[results[ps[0]].runs_of(2.0, 1.0), -1]),  # per seed index
             source="Fig. 4 (right): the ℓ∞ norm does not grow with p; a check, since under normalized GD ‖θ‖₂ "
                    "is set by the number of steps, not by p")
fig_class = plot_classification(results, cfg)
glue("fig_class", fig_class, display=False)

# %% [markdown]
# ```{glue:figure} fig_class
# :name: fig-mohamadi-class
# Classification with normalized GD. Left: train (dashed) and test (solid) accuracy at $n = 2p^{5/3}$ for
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
# $\|\theta\|_\infty$ does not grow with $p$ (at the largest $p$ it is ≈ {glue:text}`linf_ratio` times its
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
# $\log n$ between grid points), and fit $n^* \propto p^k$. Thm 4.5 says $k \le 5/3$ up to log factors; a kernel
# method needs $k = 2$ (Thm 4.3); a constant fraction of the pairs is also $k = 2$. A bootstrap over seeds
# (each $p$'s seeds resampled with replacement) gives the exponent's uncertainty. Criterion and tolerance were
# fixed before the run: the exponent reproduces Thm 4.5 if it is within 0.3 of 5/3 (one power of $\log p$,
# which $\tilde O$ allows, tilts the slope by $1/\ln p$, 0.27 to 0.42 over this range), and the networks beat
# the kernel rate if the bootstrap's 97.5th percentile is below 2. The run took
# {glue:text}`sc_minutes` minutes on one core; `python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results`
# recomputes it.

# %%
scfg = mws.SampleComplexityConfig()
sc, sc_manifest = load_stored(mws.stored_sample_complexity(scfg, "_results"), "sample-complexity run",
                              "python -m repro.experiments.mohamadi2024_why_grok_sample --store book/_results", "about 45 minutes on one core",
                              glue_minutes="sc_minutes")
n_crit = mws.critical_sizes(sc)
k_fit = mws.fit_exponent(scfg.ps, n_crit)
k_boot = mws.bootstrap_exponent(sc)
k_lo, k_med, k_hi = np.nanpercentile(k_boot, [2.5, 50, 97.5])
# A stored run is loaded, not recomputed, and the bootstrap's generator is seeded: these numbers are the same on
# every machine. They print at the resolution the claims need (0.01 in an exponent, 3 digits in n*).
for p, n_ in zip(scfg.ps, n_crit):
    print(f"p = {p:2d}: n* = {n_:6.0f}  (n*/p^(5/3) = {n_ / p ** (5 / 3):.2f}, n*/p^2 = {n_ / p ** 2:.2f})")
print(f"fitted exponent k = {k_fit:.2f}; bootstrap over seeds: median {k_med:.2f}, 95 % interval [{k_lo:.2f}, {k_hi:.2f}]")
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
claims.check(f"sample complexity (stored): fitted exponent k of n* ∝ p^k, p = {scfg.ps[0]}-{scfg.ps[-1]}", k_fit, 5 / 3,
             kind="reproduction", tolerance=0.3, resolution=0.01, live=False,
             source="Thm 4.5, Figs 1 (right) and 4: Õ(p^(5/3)) pairs suffice; tolerance 0.3, set before the run: one "
                    "power of log p, which Õ allows, tilts the fitted slope by 1/ln p (0.27-0.42 here)")
claims.check("sample complexity (stored): 97.5th percentile of the seed-bootstrap exponent", k_hi, 2.0,
             kind="reproduction", comparison="<=", resolution=0.01, live=False,
             source="Thms 4.3 and 4.5: the network needs fewer pairs than kernel methods' Ω(p²) (exponent 2)")
claims.check(f"sample complexity (stored): min over p of the median final test accuracy at n = 2p^(5/3)", c2_final, 1.0,
             kind="reproduction", tolerance=0.01, resolution=0.01, live=False,
             source="Fig. 1 (right) and Fig. 4 (left): every p generalizes at n = 2p^(5/3), read off the plots")

# %% [markdown]
# ```{glue:figure} fig_sc
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
# $k$ = {glue:text}`k_fit` (95 % bootstrap interval over seeds {glue:text}`k_lo` to {glue:text}`k_hi`; the
# interval covers the seed noise, not the choice of $p$ range or budget). That is at most Thm 4.5's $5/3$,
# within the tolerance fixed before the run, and clearly below the kernel methods' 2, so the needed fraction of
# all pairs falls with $p$: from {glue:text}`sc_frac_lo` at $p$ = 11 to {glue:text}`sc_frac_hi` at $p$ = 41. The paper's bound is an upper bound, and a measured exponent below it does not
# contradict it.
#
# **Norm and margin against $p$ (Figs 3-4, right).** The same runs give the weights' $\ell_\infty$ norm and the
# normalized margin $q_{\min}/\|\theta\|_\infty^3$ at $n = 2p^{5/3}$ after the same number of steps.

# %%
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
             sc_linf[p_hi] / sc_linf[p_lo], 1.0, kind="check", against="paper", comparison="<=", resolution=0.01, live=False,
             source="Fig. 4 (right): the ℓ∞ norm does not grow with p; only a check, since under normalized GD the "
                    "norm is set by the number of steps")
claims.check(f"normalized margin at p = {p_hi} over the construction's margin p (stored, median)", sc_margin[p_hi] / p_hi,
             1.0, kind="check", against="derivation", comparison="<=", resolution=0.01, live=False,
             source="App. F: the Fourier construction reaches normalized margin p; Thm 4.5's bound assumes Ω(p)")

# %% [markdown]
# ```{glue:figure} fig_norm_margin
# :name: fig-mohamadi-norm-margin
# Figs 3-4 (right) from the stored runs at $n = 2p^{5/3}$ after the same number of normalized GD steps (median,
# bars: range over seeds). Left: $\|\theta\|_\infty$ falls with $p$. Right: the normalized margin (log axis),
# against the Fourier construction's $p$ (dashed).
# ```
#
# $\|\theta\|_\infty$ does not grow with $p$: it falls from {glue:text}`sc_linf_lo` at $p$ = 11 to
# {glue:text}`sc_linf_hi` at $p$ = 41, as Fig. 4 (right) reports, though under normalized GD the step count,
# not $p$, sets the scale. The normalized margin tells more: it falls from {glue:text}`sc_margin_lo` to
# {glue:text}`sc_margin_hi` as $p$ grows, while the construction's margin is $p$ itself. The networks that
# generalize here at $n = 2p^{5/3}$ are far from the margin $\Omega(p)$ on which Thm 4.5's bound rests, and the
# gap widens with $p$: at this budget the bound's mechanism is not what we observe, although its exponent holds.

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

# %%
tfs = mw.run_transformer_seeds(cfg.transformer, cfg.transformer_seeds)  # one train() call, seeds as runs
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
glue("tf_shape_ratio", trained(np.median(tf_shape_ratio), 1), display=False)
fig_tf = plot_transformer(tfs)
glue("fig_transformer", fig_tf, display=False)
# Medians over seeds, shown at 0.01 (accuracies near 1) and at 0.05 for the unmirrored accuracy at fitting
# (a few percent per seed, against a threshold of 0.1).
claims.check(f"transformer (book: AdamW): final train accuracy, median of {len(tfs)} seeds", np.median(final_train),
             1.0, kind="reproduction", tolerance=0.01, resolution=0.01, seeds=final_train,
             source="Fig. 5: the training set is fitted (train accuracy 100 %)")
claims.check(f"transformer: accuracy on test pairs with unseen mirror, when the train set is fitted, median of {len(tfs)} seeds",
             np.median(unmirrored_at_fit), 0.1, kind="reproduction", comparison="<=", resolution=0.05, seeds=unmirrored_at_fit,
             source="Fig. 5: test accuracy rises only after the training set is fitted (threshold 0.1 ours; chance 1/p)")
claims.check(f"transformer: final test accuracy, median of {len(tfs)} seeds", np.median(final_test), 1.0,
             kind="reproduction", tolerance=0.1, resolution=0.01, seeds=final_test,
             source="Fig. 5: the transformer generalizes eventually (test accuracy near 100 %; tolerance ours)")
claims.check(f"transformer: unit-norm eNTK change after fitting ÷ before fitting, median of {len(tfs)} seeds",
             np.median(tf_shape_ratio), 10.0, kind="deviation", comparison=">=", resolution=1, seeds=tf_shape_ratio,
             source="Fig. 5: the eNTK change is negligible until the training set is fitted and large after (read: ≥ 10×)",
             evidence=f"book scale: p = {tfs[0].config.p}, d_model {tfs[0].config.d_model}, AdamW (lr 3e-3, wd 1) "
                      f"instead of the paper's GD at lr 0.25, {len(tfs)} inits: the eNTK moves as much while the "
                      "training set is fitted as after, raw or scale-free. GD at lr 0.25 for up to 1,000 steps "
                      "(3 inits) fitted and then memorized; GD for 20,000 steps is the stored run below; p = 113 not run.")

# %% [markdown]
# ```{glue:figure} fig_transformer
# :name: fig-mohamadi-transformer
# The one-layer transformer at book scale (AdamW; the paper uses GD), every seed faintly, the median
# thick and the range shaded. Left: train and test accuracy, and the accuracy on test pairs whose mirror
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
# ≈ {glue:text}`tf_shape_ratio`. Adam moves every coordinate by about its learning rate per step, whatever
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
# ({glue:text}`tfgd_minutes` minutes on one core). The claims use the criteria of the AdamW run, fixed before
# this run: the kernel's change is *negligible* before fitting if its unit-norm distance
# $\|\bar K_{\rm fit} - \bar K_0\|_F$ is at most 0.1 ($\cos \ge 0.995$), and Fig. 5's pattern needs the
# unit-norm change after fitting to be at least ten times the change before.

# %%
gd_cfg = mw.gd_transformer_config()
gtfs, tf_manifest = load_stored(mw.stored_transformer(gd_cfg, mw.GD_TRANSFORMER_SEEDS, "_results"),
                                "GD transformer run", "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only transformer-gd",
                                "about 15 minutes", glue_minutes="tfgd_minutes")
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
claims.check(f"transformer (stored, GD): final train accuracy, median of {len(gtfs)} seeds", np.median(g_train), 1.0,
             kind="reproduction", tolerance=0.01, resolution=0.01, live=False,
             source="Fig. 5: the training set is fitted (train accuracy 100 %)")
claims.check(f"transformer (stored, GD): final accuracy on test pairs with unseen mirror, median of {len(gtfs)} seeds",
             np.median(g_unm), 1.0, kind="deviation", tolerance=0.1, resolution=0.01, live=False,
             source="Fig. 5: the transformer trained with GD generalizes eventually (test accuracy near 100 %)",
             evidence=f"{gd_budget}: the test accuracy stays where it was when the training set was fitted (the mirrored "
                      "pairs, learned as a + b = b + a); the pairs whose mirror is unseen stay near chance for the "
                      f"remaining {gd_cfg.steps - int(np.max(g_fit)):,} steps, while the training loss falls towards 0 and GD's steps shrink with it")
claims.check(f"transformer (stored, GD): unit-norm eNTK change up to fitting, median of {len(gtfs)} seeds",
             np.median(g_before), 0.1, kind="deviation", comparison="<=", resolution=0.01, live=False,
             source="Fig. 5: the eNTK change up to fitting is negligible (we read: unit-norm change ≤ 0.1, cos ≥ 0.995)",
             evidence=f"{gd_budget}: by the step the training set is fitted the kernel has turned by "
                      f"{np.median(g_before):.2f} in unit norm (cos ≈ {1 - np.median(g_before) ** 2 / 2:.2f}) and its raw "
                      f"change is {np.median(g_raw):.0f}× ‖K_0‖_F: fitting happens outside the kernel regime")
claims.check(f"transformer (stored, GD): unit-norm eNTK change after fitting ÷ before fitting, median of {len(gtfs)} seeds",
             np.median(g_after / g_before), 10.0, kind="deviation", comparison=">=", resolution=0.01, live=False,
             source="Fig. 5: the eNTK change is negligible until the training set is fitted and large after (read: ≥ 10×)",
             evidence=f"{gd_budget}: after fitting the kernel moves a fraction of what it moved while fitting, and "
                      "the network stays at its memorizing solution")

# %% [markdown]
# ```{glue:figure} fig_transformer_gd
# :name: fig-mohamadi-transformer-gd
# The stored GD run (the paper's optimizer; three seeds, median thick, range shaded). Left: the training set
# is fitted early (dashed line), and the test accuracy stops at the share of test pairs whose mirror
# is a training pair; on the pairs whose mirror is unseen too (green) it stays near chance. Middle: the training
# loss keeps falling and the test loss rises: memorization. Right: the eNTK's raw change (red) and its
# scale-free distance to $K_0$ (grey) grow while the training set is being fitted and then level off.
# ```
#
# Under GD the picture is the reverse of Fig. 5. The network fits its training set at step
# ≈ {glue:text}`gtf_fit` (median). By then its first-logit eNTK has turned by {glue:text}`gtf_before` in unit
# norm, and its raw change is {glue:text}`gtf_raw` times $\|K_0\|_F$: the fit is not a kernel-regime fit. After
# fitting, the kernel moves by at most {glue:text}`gtf_after` more, and nothing else happens: the test accuracy
# stays at {glue:text}`gtf_test`, the mirrored pairs, and on the pairs whose mirror is unseen too the network
# ends at {glue:text}`gtf_unm`, near chance. With the cross-entropy of the training set falling towards zero,
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

# %%
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
fig_reg = plot_regression(reg)
glue("fig_reg", fig_reg, display=False)
claims.check("regression: fraction of GD runs (every α and seed) that stay finite", np.mean(finite), 0.5,
             kind="check", against="book bound", comparison=">=", resolution=0.1, seeds=finite.astype(float),
             source="our bound: enough runs survive the edge of stability for the next claim to mean something")
# Resolution 1: the finite runs end between 2 and 2.5 times the zero predictor's loss.
# (how many runs stay finite is a training outcome, so the claim's name does not count them)
claims.check("regression: final test loss / zero predictor's, median of the finite runs",
             reg_test, 0.0, kind="deviation", tolerance=0.5, resolution=1, seeds=reg.test_loss[finite, -1],
             source="Figs 2-3 and Thm 3.6: after grokking the test loss is far below the zero predictor's "
                    "(≈ 0; we would call < 1/2, Thm 3.4's kernel bound, reproduced)",
             evidence=f"p = {cfg.regression.p}, h = 4p, n = 2p^2.25, GD at lr 1 with λ = 1e-4 (App. A.1), "
                      f"α ∈ {cfg.regression.init_scales}, {len(cfg.regression.seeds)} inits, "
                      f"{cfg.regression.steps} steps: the training set is fitted and the test loss rises above "
                      "the zero predictor's (memorization); the ℓ∞ penalty lowers ‖θ‖∞ by at most 1e-4 per step, "
                      "so grokking needs the paper's 5e4-2e5 steps (p = 47), which were not run.")

# %% [markdown]
# ```{glue:figure} fig_reg
# :name: fig-mohamadi-reg
# Regression with GD at book scale (medians over the runs that stay finite; bands: range). Left: training
# loss (dashed) falls by orders of magnitude, while test loss (solid) rises above the zero predictor's: the
# network memorizes. Right: $\|\theta\|_\infty$ (solid) rises as the training set is fitted and then decays
# slowly under the $\lambda = 10^{-4}$ penalty. The kernel distance (dotted) moves away from 0 during fitting.
# ```
#
# After 3 000 steps every finite run has driven its training loss far below the zero predictor's (the
# smallest $\alpha$ is the slowest), while its test loss is ≈ {glue:text}`reg_test` times the zero
# predictor's (median). That is memorization, not yet grokking. The $\ell_\infty$ penalty shrinks
# $\|\theta\|_\infty$ by at most $\lambda\eta = 10^{-4}$ per step. Reaching the construction's norm level
# (about 1) from where fitting leaves it (right panel) takes on the order of $10^4$ to $10^5$ steps, which
# is the paper's budget: section 7 runs it.

# %% [markdown]
# ## 7. Regression at the paper's budget (stored)
#
# Section 6 stops after 3 000 steps. The run that decides Figs 2 and 3 is longer, and it is stored:
# `mw.grokking_regression_config()` trains $p = 11$ ($h = 44$, $n = 440$) with the paper's loss and penalty
# ($\lambda = 10^{-4}$ on $\|\theta\|_\infty$) at $\alpha \in \{1, 0.1, 0.03, 0.01\}$ (1 and the small scales of
# §3.2; Fig. 2's values are not given), three init seeds each, in one batched program. At $p = 11$ GD at
# learning rate 1 diverges at $\alpha = 1$ (section 6), so the run uses learning rate 0.3, the largest we found
# stable for every init, for $4\cdot 10^5$ steps: a gradient-flow time (learning rate × steps) of
# $1.2\cdot 10^5$, inside the paper's $5\cdot 10^4$ to $2\cdot 10^5$ steps at learning rate 1 (App. A.1). The
# penalty can then lower $\|\theta\|_\infty$ by up to 12, far more than fitting raises it. The run took
# {glue:text}`reg_stored_minutes` minutes on one CPU core; the chapter loads it, and
# `python -m repro.experiments.mohamadi2024_why_grok --store book/_results` recomputes it.
#
# The criterion is fixed before looking: a run *generalizes* when its test loss falls below half the zero
# predictor's (the level Thm 3.4 shows no kernel method reaches, section 2), and it has *fitted* the training
# set when its training loss is below 1 % of the zero predictor's.

# %%
reg_cfg = mw.grokking_regression_config()
sreg, reg_manifest = load_stored(mw.stored_regression(reg_cfg, "_results"), "regression run",
                                 "python -m repro.experiments.mohamadi2024_why_grok --store book/_results --only regression",
                                 "about 50 minutes on one core", glue_minutes="reg_stored_minutes")
s_finite = np.isfinite(sreg.test_loss[:, -1]) & np.isfinite(sreg.train_loss[:, -1])
s_fit = np.where(s_finite, sreg.first_step("train_loss", 0.01), -1)
s_gen = np.where(s_finite, sreg.first_step("test_loss", 0.5), -1)
for alpha in reg_cfg.init_scales:
    r = [i for i, a in enumerate(reg_cfg.run_scales) if a == alpha]
    ok = s_finite[r]
    print(f"alpha = {alpha:g}: diverged: {count(~ok, live=False)}; fitted: {count(s_fit[r] >= 0, live=False)}; generalized "
          f"(test loss < 1/2 zero predictor's): {count(s_gen[r] >= 0, live=False)}; median final test loss / zero "
          f"predictor's: {approx(np.median(sreg.test_loss[r, -1][ok]), 0.5) if ok.any() else 'n/a'}; "
          f"median final ‖θ‖∞: {approx(np.median(sreg.linf[r, -1][ok]), 0.5) if ok.any() else 'n/a'}")
fig_reg_stored = plot_regression(sreg)
glue("fig_reg_stored", fig_reg_stored, display=False)

# %% [markdown]
# ```{glue:figure} fig_reg_stored
# :name: fig-mohamadi-reg-stored
# The stored regression run ($p = 11$, $4\cdot 10^5$ GD steps at learning rate 0.3; medians over the runs that
# stay finite, bands: range). Left: training (dashed) and test (solid) loss relative to the zero predictor.
# Right: $\|\theta\|_\infty$ (solid) and the scale-free eNTK distance $1-\cos(K_t, K_0)$ (dotted).
# ```

# %%
# The stored run is loaded, not recomputed, so its numbers are the same on every machine; they print to two
# significant digits. Tolerances as in section 6: "generalized" is a test loss below half the zero predictor's.
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
reg_budget = (f"p = {reg_cfg.p}, h = 4p, n = {reg_cfg.n_train}, GD at lr {reg_cfg.lr:g} for {reg_cfg.steps:,} steps "
              f"(lr × steps = {reg_cfg.lr * reg_cfg.steps:.2g}), λ = {reg_cfg.linf_reg:g}, {len(reg_cfg.seeds)} seeds per α")
claims.check("regression (stored): every run fits its training set (train loss < 1 % of the zero predictor's)",
             float(np.mean(s_fit >= 0)), 1.0, kind="check", against="book bound", comparison=">=", live=False,
             source="our bound: the runs are past the kernel-regime fit, so a late generalization would be grokking")
claims.check("regression (stored): final test loss / zero predictor's, median of the α = 1 runs", s_test_a1, 0.0,
             kind="deviation", tolerance=0.5, resolution=0.1, live=False,
             source="Figs 2-3 and Thm 3.6: GD with the ℓ∞ penalty ends far below the zero predictor's test loss "
                    "(we call < 1/2, the level Thm 3.4 denies kernel methods)",
             evidence=f"{reg_budget}: every run fits its training set within {int(s_fit[runs_a1].max()):,} steps and "
                      f"none generalizes; the test loss falls by {100 * s_test_drop:.0f} % (median) over the second "
                      "half of the run, and ‖θ‖∞ decays slowly. The paper's p = 47 (32 core-hours) was not run")
claims.check(f"regression (stored): final test loss / zero predictor's, median of the α = {a_small:g} runs",
             s_test_small, 0.0, kind="deviation", tolerance=0.5, resolution=0.1, live=False,
             source="§3.2 on Fig. 2: a very small init keeps the network from overfitting in the kernel regime and "
                    "substantially mitigates grokking",
             evidence=f"{reg_budget}: at α = {a_small:g} the training set is fitted later (median step "
                      f"{int(np.median(s_fit[runs_small])):,} against {int(np.median(s_fit[runs_a1])):,} at α = 1), but "
                      "fitted all the same, and the test loss ends higher than at α = 1: no α generalizes")
claims.check("regression (stored): ‖θ‖∞ at the end / its peak, median of the α = 1 runs", s_linf_ratio, 0.95,
             kind="check", against="derivation", comparison="<=", resolution=0.01, set_after=True, live=False,
             source="the ℓ∞ penalty lowers ‖θ‖∞ once the data gradient is small (App. A.1's regularizer at work)")

# %% [markdown]
# At the paper's budget, measured in gradient-flow time, regression at $p = 11$ still does not grok:
# {glue:text}`reg_s_generalized` runs reach a test loss below half the zero predictor's. At $\alpha = 1$ the
# test loss ends at {glue:text}`reg_s_test_a1` times the zero predictor's (median), falling by only
# {glue:text}`reg_s_drop` over the second half of the run, while $\|\theta\|_\infty$ has come down to
# {glue:text}`reg_s_linf`. A smaller init does not help here: at $\alpha =$ {glue:text}`reg_s_alpha_small` the
# runs fit the training set later (median step {glue:text}`reg_s_fit_small`), but they fit it, and their
# test loss ends higher, {glue:text}`reg_s_test_small` times the zero predictor's. The ledger records
# Fig. 2 as not reproduced at this scale. What this run cannot tell: whether $p = 11$ is too small for the
# paper's $n = 2p^{2.25}$ to leave the kernel regime within the budget, or whether grokking needs a larger $p$
# or more steps; the paper's own $p = 47$ costs about 32 core-hours on a CPU (README table) and was not run.

# %% [markdown]
# ## Paper versus ours
#
# One verdict per figure of the paper, and per theorem this chapter tests, from the claims above. A
# *partial* verdict rests on at least one reproduction and at least one registered deviation; checks
# (internal consistency, bounds of our own) never count as reproductions.

# %%
claims.figure("mohamadi2024", "Prop. 3.8 (App. F)", "reproduced", scale="book",
              claims=["Fourier construction: accuracy over all p² pairs, every p from 2 to 13",
                      "Fourier construction (V/4): max |f − p·1| over all pairs and p (rounded up to 10^k)",
                      "Fourier construction: worst |‖θ‖∞ − r^(−1/3)| over p and r ∈ {1, 2, 4, 8} copies"],
              why="the construction classifies every pair for p = 2-13 and interpolates exactly once V is divided "
                  "by 4 (Eq. F.2 as printed gives 4p·1); its norm holds by construction")
claims.figure("mohamadi2024", "Thm. 3.1", "reproduced", scale="book",
              claims=["widths where 'eNTK singular' ≠ 'h(3p−2) < n'",
                      "eNTK rank: largest |rank − min(n, h(3p−2))| over widths"],
              why="the eNTK at the paper's init interpolates from h = n/(3p−2) on, i.e. at h = Θ̃(n/p), and is "
                  "singular below (p = 11, n = 665)")
claims.figure("mohamadi2024", "Thm. 3.4", "reproduced", scale="book",
              claims=["kernel regression: smallest relative test loss over p and fractions ≤ 0.9 (eNTK and expected NTK)",
                      "kernel regression: smallest relative test loss, against the zero predictor's 1"],
              why="eNTK-at-init and expected-NTK regression stay above 1/2 of the zero predictor's loss at every "
                  "fraction up to 0.9 (p = 7, 11); in fact above 1")
claims.figure("mohamadi2024", "Thm. 4.3", "reproduced", scale="book",
              claims=[f"pNTK kernel classifier: test loss / zero predictor's (p = {mc.p}, n = 2p^(5/3)), median of {len(runs)} splits",
                      f"pNTK kernel classifier: test accuracy against chance 1/p, median of {len(runs)} splits"],
              why=f"on the very splits the trained networks generalize from (p = {mc.p}), the pNTK classifier's "
                  "loss is above the zero predictor's and its accuracy below chance")
claims.figure("mohamadi2024", "Fig. 1 left", "not reproduced", scale="book",
              claims=[f"raw eNTK change after fitting ≥ 10× the change up to fitting: fraction of {len(runs)} seeds",
                      f"raw after/before ratio within 10× of the norm growth (‖θ_T‖₂/‖θ_fit‖₂)^4: fraction of {len(runs)} seeds",
                      f"unit-norm eNTK change after fitting ÷ before fitting, median of {len(runs)} seeds"],
              why="the raw eNTK change grows by orders of magnitude after fitting, as plotted, but ‖θ‖⁴ growth "
                  "explains it; scale-free, the kernel moves as much before fitting as after")
claims.figure("mohamadi2024", "Fig. 1 middle", "partial", scale="book",
              claims=[f"trained network: final test accuracy on the same splits (p = {mc.p}), median of {len(runs)} seeds",
                      f"fitted before the test accuracy reached 99 % (α = 1): fraction of {len(runs)} seeds",
                      f"‖θ‖₂ after {int(main.steps[1])} steps, α = {a_min:g} over α = 1 (medians of {len(runs)} seeds)",
                      f"gap from fitting to 99 % test accuracy, α = {a_min:g} over α = 1 (means of {len(runs)} seeds)",
                      f"plain GD (stored): test accuracy when the training set is fitted, α = {a_lo:g} minus α = 1 (medians)",
                      f"plain GD (stored): final accuracy on test pairs with unseen mirror, α = {a_lo:g}, median of {len(lo_rows)} seeds"],
              why=f"fitting first and 100 % test accuracy later reproduce (normalized GD, p = {mc.p}), but its step "
                  "length erases α; under plain GD (stored) a smaller α fits with more test accuracy, as the paper "
                  "says, yet no α generalizes: GD stalls once the training loss is small")
claims.figure("mohamadi2024", "Fig. 1 right", "reproduced", scale="book",
              claims=[f"min over p ∈ {tuple(sorted(results))} of the median final test accuracy at n = 2p^(5/3)",
                      f"sample complexity (stored): fitted exponent k of n* ∝ p^k, p = {scfg.ps[0]}-{scfg.ps[-1]}",
                      "sample complexity (stored): 97.5th percentile of the seed-bootstrap exponent",
                      "sample complexity (stored): min over p of the median final test accuracy at n = 2p^(5/3)"],
              why=f"every p generalizes at n = 2p^(5/3); the stored sweep over p = {scfg.ps[0]}-{scfg.ps[-1]} measures "
                  f"n* ∝ p^{k_fit:.2f} (95 % over seeds: {k_lo:.2f}-{k_hi:.2f}): at most 5/3, below the kernel rate 2")
claims.figure("mohamadi2024", "Fig. 2", "not reproduced", scale="paper (CPU, stored)",
              claims=["regression (stored): final test loss / zero predictor's, median of the α = 1 runs",
                      f"regression (stored): final test loss / zero predictor's, median of the α = {a_small:g} runs",
                      "regression: final test loss / zero predictor's, median of the finite runs"],
              why=f"book scale ({cfg.regression.steps} steps) and the stored run at p = {reg_cfg.p}, {reg_cfg.steps:,} GD steps at lr {reg_cfg.lr:g} (the paper's budget in lr × steps), "
                  f"α ∈ {reg_cfg.init_scales}: every run memorizes and none generalizes; a smaller α fits later "
                  "but ends with a higher test loss")
claims.figure("mohamadi2024", "Fig. 3", "not run at this scale", scale="book",
              why="needs regression grokking at several p (1e5 GD steps each); at p = 11 even the stored run at "
                  "the paper's budget memorizes (Fig. 2), so ‖θ‖∞ after grokking against p cannot be measured")
claims.figure("mohamadi2024", "Fig. 4", "reproduced", scale="book",
              claims=[f"min over p ∈ {tuple(sorted(results))} of the median final test accuracy at n = 2p^(5/3)",
                      f"‖θ‖∞ after {cfg.class_steps} steps, p = {ps[-1]} over p = {ps[0]} (medians)",
                      "sample complexity (stored): min over p of the median final test accuracy at n = 2p^(5/3)",
                      f"‖θ‖∞ after {scfg.steps:,} normalized steps at n = 2p^(5/3) (stored): p = {p_hi} over p = {p_lo} (medians)",
                      f"normalized margin at p = {p_hi} over the construction's margin p (stored, median)"],
              why=f"train then test accuracy reach 100 % for every p at n = 2p^(5/3) (p up to {p_hi}, stored); ‖θ‖∞ "
                  "does not grow with p (only a check: normalized GD sets the scale by the step count), and the "
                  "normalized margin falls with p, far below the Ω(p) the theory assumes")
claims.figure("mohamadi2024", "Fig. 5", "partial", scale="book",
              claims=[f"transformer (book: AdamW): final train accuracy, median of {len(tfs)} seeds",
                      f"transformer: accuracy on test pairs with unseen mirror, when the train set is fitted, median of {len(tfs)} seeds",
                      f"transformer: final test accuracy, median of {len(tfs)} seeds",
                      f"transformer: unit-norm eNTK change after fitting ÷ before fitting, median of {len(tfs)} seeds",
                      f"transformer (stored, GD): final train accuracy, median of {len(gtfs)} seeds",
                      f"transformer (stored, GD): final accuracy on test pairs with unseen mirror, median of {len(gtfs)} seeds",
                      f"transformer (stored, GD): unit-norm eNTK change up to fitting, median of {len(gtfs)} seeds",
                      f"transformer (stored, GD): unit-norm eNTK change after fitting ÷ before fitting, median of {len(gtfs)} seeds"],
              why=f"late generalization reproduces with AdamW (p = 23); with the paper's GD (stored, {gd_cfg.steps:,} steps) "
                  "the same network fits, memorizes and does not grok, and under both optimizers the eNTK moves "
                  "while the training set is fitted, not after")
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

# %% [markdown]
# In all, this chapter's verdicts on the paper's figures and theorems: {glue:text}`ledger_tally`.
#
# ### Deviations and notes
#
# * **Regression grokking and the init-scale effect (Figs 2 and 3) are not reproduced at $p = 11$.** The
#   stored run of section 7 trains for the paper's budget in learning rate × steps (learning rate 0.3, since
#   learning rate 1 diverges at $\alpha = 1$ for $p = 11$): every run memorizes, none generalizes, and the
#   smallest $\alpha$ ends with the highest test loss. The paper's own setting, $p = 47$
#   (`REPRO_SCALE=paper`: `RegressionConfig()` defaults, $h = 4p$, $n = 11\,568$, eNTK on 20 000 triples), costs
#   about 32 CPU core-hours and was not run; a GPU makes it minutes. Fig. 3 ($\|\theta\|_\infty$ after grokking
#   against $p$) needs grokking first. Likewise, the paper-scale classification sweep goes up to $p = 97$ with
#   $10^5$ steps.
# * **The transformer of Fig. 5 trains live with AdamW; GD is the stored run.** The paper (App. A.3) uses
#   full-batch GD at learning rate 0.25, $\lambda = 10^{-20}$ on $\|\theta\|_\infty$ and $n = 2p^{5/3}$; it gives
#   neither $p$, the architecture nor the number of steps. `TransformerGrokConfig()` (`REPRO_SCALE=paper`) runs GD
#   at learning rate 0.25 on $p = 113$ ($n$ = 5 282) with Nanda et al.'s architecture for $10^5$ steps, recording
#   the eNTK every 500 steps; we had no GPU and did not run it. The stored GD run of section 5 uses the book's
#   network ($p = 23$, $d_\text{model} = 64$, $d_\text{mlp} = 256$, TransformerLens' init) for
#   {glue:text}`tfgd_steps` steps: it fits the training set, keeps the memorizing solution and never answers the
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
#   transformer's eNTK is that of the first logit, as in Fig. 1 (left), on 128 random pairs. The pairs are
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
#   by about a quarter, at 1. The tolerance of the seed fractions (0.2) lets one seed in five miss. Two
#   bands were set after we had seen first results (marked † in the ledger): the $\alpha$ gap ratio's band
#   (a gap halved at $\alpha = 0.1$, chosen after exploratory three-seed runs had shown ratios near 1), and
#   the factor of ten within which norm growth must explain the raw eNTK ratio (chosen after seeing that it
#   explains it more closely than that).

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
# # Towards understanding grokking (I): representations and the effective theory
#
# **The claim** (Liu, Kitouni, Nolte, Michaud, Tegmark, Williams 2022, *Towards Understanding
# Grokking: An Effective Theory of Representation Learning*, NeurIPS, arXiv 2205.10343). In a toy
# model that learns addition, the network generalizes exactly when its symbol embeddings arrange
# into a structured representation: for addition, the embeddings lie on a line, so every
# "parallelogram" $E_i + E_j = E_m + E_n$ with $i + j = m + n$ holds. The representation's dynamics
# can be described by an *effective theory* that ignores the decoder: gradient flow on an effective
# loss that penalises broken parallelograms. This theory predicts how long the network needs to find
# the linear structure, in units of a time scale $n_h = 1/(\lambda_3\eta)$ set by the training data.
#
# **The toy model** (paper §2, official code `toy/train_add.py`). Symbols $0..9$; a sample is an
# unordered pair $(i, j)$ labelled $i + j$, so the table has 55 samples; 45 train, 10 validate. Each
# symbol has a learnable 1-D embedding $E_k$; the decoder, a tanh MLP 1-200-200-30, maps
# $E_i + E_j$ to a fixed random 30-d target vector of the class $i + j$ (MSE; the prediction is
# the nearest target). Adam trains the embeddings (learning rate $\eta = 10^{-3}$), AdamW the decoder
# ($10^{-4}$, no weight decay), full batch.
#
# **What we reproduce here.** Fig. 4(c, d): the effective theory's trajectories against the
# network's, both converging to the linear structure in about $3 n_h$ steps; Fig. 2 for addition,
# in the scoped form explained below; the parallelogram count $|P_0| = 70$. The critical training
# fraction, Fig. 3 (accuracy against the accuracy predicted from the representation) and Fig. 5 are
# in the companion chapter, *Towards understanding grokking (II): critical data*.
#
# **What we leave out.** Fig. 2's modular-addition circle, and the 2-D addition run that
# *generalizes*: the paper's setting (ReLU decoder, decoder weight decay 5, $2\cdot10^4$ steps) does not
# fit a CPU budget next to the rest, and the toy decoder with 2-D embeddings memorized at every
# setting we tried in a few thousand steps (see Deviations). The four-phase diagrams (Figs 6–8) are
# in a separate chapter. Appendix H (the permutation group $S_3$, Figs 17 and 18) closes this chapter.
# Its critical fraction comes out higher than the paper's; see that section.

# %%
import warnings

import numpy as np

warnings.filterwarnings("ignore", category=UserWarning)

from myst_nb import glue

from repro.claims import ClaimBook
from repro.liu2022_representations import (ToyConfig, plot_embedding_comparison, plot_seed_spread, plot_trajectories,
                                           run_reference, run_seed_spread)
from repro.liu_s3 import S3Config, hexagon_shape, plot_s3, run_s3_sweep, stored_s3_sweep
from repro.metrics import pca
from repro.plotting import use_style
from repro.portable import approx, describe_seeds, seed_median
from repro.scale import current_scale
from repro.theory import liu2022 as theory

use_style()
claims = ClaimBook("liu2022_effective_theory")

# %% [markdown]
# ## Configuration
#
# `ToyConfig`'s defaults are the paper's and the official code's values (spec §3). The reference run
# is the official default: data seed 58 for the split and the targets, init seed 58, 45 training
# samples, 5000 steps. At book scale we stop it at 2000 steps (all the dynamics of interest happen
# before step 1600), and evaluate every 10 steps (threshold steps are therefore rounded up to a
# multiple of 10).

# %%
cfg = ToyConfig.for_scale()
print(f"scale: {current_scale()}")
cfg

# %% [markdown]
# ## Sanity check: the parallelogram set
#
# The permissible parallelograms $P_0$ (eq. 1) are the pairs of distinct samples with the same sum,
# e.g. $(0, 4)$ and $(2, 2)$ give $E_0 + E_4 = 2E_2$. For $p = 10$ there are 70 (spec §11). A linear
# representation $E_k = a + kb$ has all of them, so its representation quality index
# $\mathrm{RQI} = |P(R)|/|P_0|$ (eq. 3) is 1.

# %%
P0 = theory.parallelograms(theory.all_pairs(cfg.p), cfg.p)
rqi_line = theory.rqi(2.0 + 0.3 * np.arange(cfg.p), None, cfg.p)
print(f"|D0| = {len(theory.all_pairs(cfg.p))}, |P0| = {len(P0)}, RQI of a line = {rqi_line:.2f}")
claims.check("|P0|: parallelograms of the full p = 10 table", len(P0), 70, tolerance=0,
             source="spec §1.2 / §11 (eq. 1, p = 10)")
assert rqi_line == 1.0

# %% [markdown]
# ## Run: the reference network and its effective theory
#
# One call trains the network, records its embeddings at every step, and integrates the effective
# theory (eq. 4–5) from the same initial embeddings. The effective loss is
# $\ell_\mathrm{eff} = \ell_0/Z_0$ with $\ell_0 = \sum_{P_0(D)} |E_i + E_j - E_m - E_n|^2$ over the
# parallelograms of the *training* set and $Z_0 = \sum_k |E_k|^2$; we take Euler steps with the
# embeddings' learning rate $\eta$. Its time scale is $n_h = 1/(\lambda_H \eta)$ with
# $\lambda_H = 2\lambda_3/p$ the smallest non-trivial eigenvalue of its Hessian
# (eq. 8–9; $\lambda_3$ is that of $A_D^\top A_D$, $A_D$ one row per training parallelogram).
# We leave out the paper's literal $1/|P_0(D)|$ factor in $\ell_0$: it would stretch $n_h$ forty-fold,
# to about $1.7\cdot10^4$ steps for a network that groks in $10^3$ (spec §1.3).

# %%
ref = run_reference(cfg)
# The effective theory is float64 numpy from the network's initial embeddings (drawn before any float32
# arithmetic), so its numbers are the same on every CPU; they are printed in full.
glue("eff_step", f"{ref.effective_rqi_step}", display=False)
glue("lambda3", f"{ref.grokking_rate:.1f}", display=False)
glue("n_h", f"{ref.n_h:.0f}", display=False)
print(f"theory: lambda_3 = {ref.grokking_rate:.1f}, n_h = {ref.n_h:.0f} steps, "
      f"effective RQI > 0.95 at step {ref.effective_rqi_step}")

# %% [markdown]
# **A known answer.** The official code prints, for this exact run, training accuracy $\ge 90\%$ at
# step 1130, validation accuracy at 1530 and RQI $> 0.95$ at 800 (spec §3, `toy/Figure4cd.ipynb`;
# an independent replication got the same). Our trainer follows the official random-number order, so
# it should land on the same steps. We allow $\pm 20$ steps: the official log records training
# accuracy one step later than ours, and float rounding on another CPU can move a threshold crossing
# by a few steps. This is a comparison of one trajectory, seed by seed, with the official code, so our
# steps are shown on a grid of 50 steps (the verdict uses the exact step): ours are
# {glue:text}`train_step`, {glue:text}`val_step` and {glue:text}`rqi_step`.

# %%
src_ref = "official toy/Figure4cd.ipynb printout for seed 58, 45/10 (spec §3)"
REF_RES = 50  # display grid of the reference run's threshold steps (tolerance ± 20; evaluations every 10 steps)
for key, label, ours, official in (("train_step", "train acc >= 0.9", ref.train_step, 1130),
                                   ("val_step", "val acc >= 0.9", ref.val_step, 1530),
                                   ("rqi_step", "RQI > 0.95", ref.rqi_step, 800)):
    glue(key, approx(ours, REF_RES), display=False)
    claims.check(f"reference run: step of {label}", ours, official, tolerance=20, source=src_ref, resolution=REF_RES)
    print(f"reference run, {label}: step ≈ {approx(ours, REF_RES)} (official {official}; within ± 20: "
          f"{'yes' if abs(ours - official) <= 20 else 'NO'})")

# %% [markdown]
# ## Figure 4(c, d): effective theory against the network
#
# ```{glue:figure} fig_trajectories
# :name: fig-liu-trajectories
#
# The ten 1-D embeddings $E_0..E_9$ (normalised to zero mean and unit variance) against optimization
# step, labelled at both ends. **Left:** the effective theory, Euler steps on $\ell_0/Z_0$ with the
# training set's parallelograms. **Right:** the network. Both start from the same random
# embeddings and end on the evenly spaced ladder $E_k = a + kb$, in the order of the symbols. The
# dashed line is $3 n_h$. The theory moves on straighter paths: it has no decoder pulling the
# embeddings around.
# ```

# %%
fig = plot_trajectories(ref)
glue("fig_trajectories", fig, display=False)

# %% [markdown]
# **The claim** (§3.2, text next to Fig. 4c, d): "it takes about $3 n_h$ steps for [the effective and
# the network] trajectories to converge to the linear structure". We measure convergence as the first
# step with RQI $> 0.95$ and express it in units of $n_h$ (here $\lambda_3$ = {glue:text}`lambda3`,
# $n_h$ = {glue:text}`n_h` steps). "About 3" is read as $3 \pm 50\,\%$: the paper gives no more digits.
# The paper's Fig. 4(c) was made by the official integrator, which sums $\ell_0$ over all 70
# parallelograms (spec §7 row 1); that variant converges at step {glue:text}`eff_all_step`, and the
# claim is checked on it. The variant of eq. (5) with only the training set's parallelograms, plotted
# above, is slower: step {glue:text}`eff_step` ({glue:text}`eff_ratio` $n_h$), outside "about 3" (see
# Deviations).
#
# For the network, one trajectory's crossing step is one draw from a chaotic process, so the claim is
# checked on the median over {glue:text}`n_spread` init seeds of the same training set (the reference
# split, so $n_h$ is the same for all; one batched run). Their crossing steps are
# {glue:text}`spread_steps`, i.e. a median of {glue:text}`net_ratio` $n_h$; the claim's tolerance
# ($\pm 1.5\,n_h$) is several times that spread, and we show the ratio at a resolution of 0.1 $n_h$.

# %%
src_3nh = "§3.2 text beside Fig. 4(c, d): 'about 3 n_h steps' (read as 3 ± 50 %)"
glue("eff_all_step", f"{ref.effective_all_rqi_step}", display=False)
glue("eff_ratio", f"{ref.effective_rqi_step / ref.n_h:.1f}", display=False)
# Z0's Euler drift (Deviations): the official integrator's frozen Z0 against our current Z0, all of P0.
for frozen in (True, False):
    t = theory.effective_trajectories(ref.embeddings[:1], [ref.train_pairs], cfg.p, lr=cfg.lr_repr,
                                      steps=cfg.effective_steps, record_every=cfg.effective_steps, rows="all",
                                      freeze_z0=frozen)
    z = (t.embeddings[0] ** 2).sum(axis=(1, 2))
    glue("z0_drift_frozen" if frozen else "z0_drift_current", f"{100 * abs(z[-1] / z[0] - 1):.1f} %", display=False)
glue("eff_steps", f"{cfg.effective_steps}", display=False)
spread = run_seed_spread(ref)
SPREAD_RES = 100  # display grid of the seeds' crossing steps: the claim's tolerance is ± 1.5 n_h, about ± 600 steps
RQI_RES = 0.05  # display grid of final RQIs (Fig. 2 claims' bounds are 0.95 and 0.5)
net_ratio = seed_median(spread.rqi_step) / ref.n_h
glue("n_spread", str(len(spread.seeds)), display=False)
glue("spread_steps", describe_seeds(spread.rqi_step, SPREAD_RES), display=False)
glue("net_ratio", approx(net_ratio, 0.1), display=False)
print(f"steps to RQI > 0.95 in units of n_h: network (median of {len(spread.seeds)} init seeds) {approx(net_ratio, 0.1)}, "
      f"official integrator (all of P0) {ref.effective_all_rqi_step / ref.n_h:.1f}, "
      f"eq. (5) with P0(D) {ref.effective_rqi_step / ref.n_h:.1f}")
print(f"network steps to RQI > 0.95 over init seeds: {describe_seeds(spread.rqi_step, SPREAD_RES)}")
claims.check("effective theory (official integrator): steps to RQI > 0.95 / n_h", ref.effective_all_rqi_step / ref.n_h,
             3.0, tolerance=0.5, comparison="rel", source=src_3nh)
_ = claims.check("network, median over init seeds: steps to RQI > 0.95 / n_h", net_ratio, 3.0, tolerance=0.5,
                 comparison="rel", source=src_3nh, resolution=0.1)

# %% [markdown]
# ## Figure 2 (addition, scoped): a generalizing and a memorizing representation
#
# Fig. 2 of the paper shows 2-D embeddings of toy addition: when the network generalizes, the
# embeddings form parallelograms; when it memorizes, they do not. We show the contrast with the
# reference run itself. Trained with 1-D embeddings it generalizes; trained with 2-D embeddings and
# everything else equal, it memorizes: the official code reports test accuracy 0.5 and RQI 0.4 for
# that run after 5000 steps (spec §3). The extra dimension gives the decoder room to separate the
# training sums without lining the embeddings up. The figure shows the reference init seed; the claims
# are checked on the medians over the {glue:text}`n_spread` init seeds of the batched runs above
# (the 2-D twin is trained from the same seeds in one more batched call).
#
# ```{glue:figure} fig_embeddings
# :name: fig-liu-embeddings
#
# **(a)** The ten 2-D embeddings (black, labelled) after training, the 55 sums $E_i + E_j$ the
# decoder sees (grey), and the class the trained decoder assigns to each point of the plane (colour).
# The embeddings form no parallelograms (RQI in the title), and validation accuracy stays low.
# **(b)** The 1-D embeddings of the reference run: an evenly spaced ladder, every parallelogram
# holds, and all validation samples are answered correctly.
# ```

# %%
comp = spread.comparison
fig = plot_embedding_comparison(comp)
glue("fig_embeddings", fig, display=False)
fig = plot_seed_spread(spread)
glue("fig_spread", fig, display=False)
for d in (1, 2):
    print(f"{d}-D embeddings, final validation accuracy {describe_seeds(spread.val_acc[d], 0.1)}")
    print(f"{d}-D embeddings, final RQI {describe_seeds(spread.rqi[d], RQI_RES)}")

# %% [markdown]
# ```{glue:figure} fig_spread
# :name: fig-liu-spread
#
# The reference setting over init seeds. **(a)** RQI of the 1-D embeddings against step: every seed
# faintly, the median and the quartile band thickly; dashed: $3 n_h$, solid: the median step to
# RQI $> 0.95$. **(b)** Every seed's final validation accuracy against its final RQI, 1-D (circles) and
# 2-D (squares) embeddings.
# ```
#
# **Claims** (Fig. 2 and §3.1: generalization goes with parallelograms), each on the median over the
# init seeds. The 1-D network generalizes (validation accuracy $\ge 0.9$, the paper's threshold) with
# RQI $\ge 0.95$; the 2-D one does not (validation accuracy $\le 0.6$, the official run's 0.5 plus one
# validation sample) and has RQI $\le 0.5$ (official 0.4, plus a margin of 0.1 for our shorter run).
# Validation accuracy comes in steps of 0.1 (ten validation samples) and is shown at that step; RQI is
# shown at 0.05, well inside the distance of the medians from their bounds.

# %%
src_fig2 = "Fig. 2(b) / Fig. 4(d): generalization (Table 1's 90 % threshold)"
claims.check("1-D embeddings, median over init seeds: final validation accuracy", np.median(spread.val_acc[1]), 0.9,
             comparison=">=", source=src_fig2, resolution=0.1)
claims.check("1-D embeddings, median over init seeds: final RQI", np.median(spread.rqi[1]), 0.95, comparison=">=",
             source="Fig. 2(b): parallelograms when generalizing", resolution=RQI_RES)
claims.check("2-D embeddings, median over init seeds: final validation accuracy", np.median(spread.val_acc[2]), 0.6,
             comparison="<=", source="Fig. 2(a): memorization; official d_in = 2 run has test acc 0.5 (spec §3)",
             resolution=0.1)
_ = claims.check("2-D embeddings, median over init seeds: final RQI", np.median(spread.rqi[2]), 0.5, comparison="<=",
                 source="Fig. 2(a): no parallelograms; official d_in = 2 run has RQI 0.4 (spec §3)", resolution=RQI_RES)

# %% [markdown]
# ## Appendix H: the permutation group $S_3$ (Figs 17 and 18)
#
# **The claim** (App. H). The story is not special to addition. For a non-abelian group, give each
# element a learnable *matrix* $E_a$ and feed the product $E_a E_b$ to the decoder. A faithful matrix
# representation of the group then generalizes by construction, and a "generalised parallelogram" is a
# pair of samples with $E_a E_b pprox E_c E_d$ (three of them are needed to deduce a new one, against
# two for addition). For $S_3$ (6 elements, 36 ordered samples, 3×3 matrices), the paper reports:
# (a) the RQI of the best of 11 seeds rises to 1 with the training fraction; (b) the steps to
# RQI $> 0.95$ show a transition at $r_c pprox 0.5$; (e) $\widehat{\mathrm{Acc}} \le \mathrm{Acc}$, so the
# network generalizes beyond what the parallelograms explain; and Fig. 17, the six matrices on their
# first and third principal components, form a hexagon.
#
# **Setup** (official notebook `toy/Figure5d_permutation.ipynb`, spec §7 #10). Matrices start in
# $U[-0.05, 0.05]$ and train with AdamW (lr $10^{-3}$, no decay) and an extra loss
# $10^{-3}\cdot\mathrm{mean}|E|$. The decoder is tanh 9-200-200-30 with AdamW (lr $10^{-4}$, no decay). The
# loss is MSE on random 30-d templates, and the RQI is computed on matrices normalised by their RMS,
# with tolerance 0.5. Each seed draws its own split and initialization. The paper does not give its
# fractions or its decoder settings for Fig. 18. We use 5 fractions × 8 seeds and 3000 steps at book
# scale, with the matrices' learning rate ×3 ($3\cdot10^{-3}$). The paper scale (`REPRO_SCALE=paper`) uses
# 10 fractions × 11 seeds and $10^4$ steps at the official rates. All runs train in one batched call.

# %%
s3cfg = S3Config.for_scale()
s3cfg

# %%
s3 = run_s3_sweep(s3cfg)
fig = plot_s3(s3)
glue("fig_s3", fig, display=False)
for n in np.unique(s3.counts):
    print(f"{n:2d}/36 = {n / 36:.2f}: seeds with final RQI > 0.95: "
          f"{int((s3.final_rqi[s3.counts == n] > s3cfg.rqi_threshold).sum())} of {len(s3cfg.seeds)}")

# %% [markdown]
# ```{glue:figure} fig_s3
# :name: fig-liu-s3
#
# $S_3$ at book scale. **(a)** Final RQI of each seed (red) and the best seed (blue) against the
# training fraction (dotted: 0.95). **(b)** Steps to RQI $> 0.95$ (crosses: never within the budget),
# with the fastest seed in blue. **(e)** The network's accuracy on all 36 samples against the accuracy
# predicted from its matrices, coloured by training fraction; every point lies on or above the
# diagonal. **Right:** Fig. 17, the six matrices of the best run on PC1 and PC3.
# ```
#
# **Claims.**
# 1. At the largest fraction the best seed reaches RQI $\ge 0.95$ (Fig. 18a).
# 2. Below the paper's $r_c = 0.5$ no seed reaches RQI $> 0.95$ (Fig. 18b).
# 3. $\widehat{\mathrm{Acc}} \le \mathrm{Acc}$ for every run, within one sample (1/36) (Fig. 18e).
# 4. Our addition, for Fig. 17: the solved runs' six matrices lie in four dimensions, with at least 95 %
#    of their variance in the top four principal components (median over the solved runs). Schur's orthogonality relations predict
#    this for a faithful representation (see below).
#
# For Fig. 17 itself, we count the solved runs (final RQI $> 0.95$) whose six matrices form a hexagon on
# PC1–PC3. Our test for a hexagon: every angular gap around the centre within 15° of 60°, and the nearest
# point at least 0.75 of the farthest one's distance. These tolerances are ours; the paper only shows the
# picture.

# %%
last = s3.counts == s3.counts.max()
below = s3.fractions < 0.5
claims.check("S3: best-seed final RQI at the largest fraction", s3.final_rqi[last].max(), 0.95, comparison=">=",
             source="App. H, Fig. 18a (best RQI ~ 1 at large fractions)", resolution=0.05)
claims.check("S3: seeds reaching RQI > 0.95 below fraction 0.5", int((s3.rqi_step[below] >= 0).sum()), 0,
             tolerance=0, source="App. H, Fig. 18b (transition at r_c ~ 0.5)", resolution=1)
claims.check("S3: max over runs of Acc-hat - Acc", float((s3.predicted_accuracy - s3.accuracy).max()), 1 / 36,
             comparison="<=", source="App. H, Fig. 18e (Acc-hat is a lower bound of Acc)", resolution=0.01)
solved = np.nonzero(s3.final_rqi > s3cfg.rqi_threshold)[0]
ratios = np.array([pca(s3.embeddings[r])[1][:4] for r in solved]).reshape(-1, 4)  # (solved runs, 4) variance ratios
top4 = np.median(ratios.sum(axis=1))
claims.check("S3: solved runs (median), variance in the top four principal components", top4, 0.95,
             comparison=">=", resolution=0.05,
             source="ours: Schur orthogonality for a faithful orthogonal representation (Fig. 17's setting)")
n_hex = sum(g <= 15 and q >= 0.75 for g, q in (hexagon_shape(s3.embeddings[r]) for r in solved))
glue("s3_rc", f"{s3.critical_fraction():.2f}", display=False)
glue("s3_solved", str(len(solved)), display=False)
glue("s3_hexagons", str(n_hex), display=False)
glue("s3_top4", approx(top4, 0.05), display=False)
glue("s3_pc1", approx(np.median(ratios[:, 0]), 0.1), display=False)
print(f"critical fraction (smallest with a seed at RQI > 0.95): {s3.critical_fraction():.2f}; "
      f"runs with final RQI > 0.95: {len(solved)}, of which hexagons on PC1-PC3: {n_hex}")
print(f"solved runs, variance in the top four principal components: {describe_seeds(ratios.sum(axis=1), 0.05)}; "
      f"in the first: {describe_seeds(ratios[:, 0], 0.1)}")

# %% [markdown]
# **What we find.** The generalized parallelograms form once enough data is seen. Acc-hat stays a
# lower bound of Acc, as the paper says. But the transition sits higher than the paper's: the smallest
# fraction at which some seed reaches RQI $> 0.95$ is {glue:text}`s3_rc`, not 0.5.
#
# The hexagon is real but fragile: only {glue:text}`s3_hexagons` of the {glue:text}`s3_solved` runs that
# reach RQI $> 0.95$ show it on PC1–PC3. The reason is Schur's orthogonality relations. For matrices that are exactly a faithful orthogonal representation of $S_3$
# (the 3-d permutation representation is the trivial plus the 2-d standard one), the six centred,
# flattened matrices have the same variance in all four directions of the standard block. PCA then has
# no preferred plane. Our solved runs come close: a median of {glue:text}`s3_top4` of the variance lies in
# the top four components, the first of them carrying only about {glue:text}`s3_pc1` of it. Which plane carries PC1 and PC3, and so whether the six points look like a
# hexagon there, is decided by small deviations from an exact representation.

# %% [markdown]
# ### At the paper's settings (stored)
#
# The paper-scale sweep has 10 fractions × 11 seeds × $10^4$ steps at the official rates, about
# $10^6$ run-steps. That is minutes on a CPU, so it does not run with the book. The command
# `python -m repro.liu_s3 --store book/_results` runs it with the same code and stores the result with
# its provenance. The chapter reads it from the store, which refuses an entry whose config or content
# does not match. We compare its transition with the paper's $r_c \approx 0.5$; before running it we
# set the tolerance at one step of the fraction grid (3/36).

# %%
stored = stored_s3_sweep(S3Config(), "_results")
if stored is None:
    print("No stored paper-scale S3 sweep: run `python -m repro.liu_s3 --store book/_results` to add it.")
    for name in ("s3_paper_rc", "s3_paper_solved", "s3_paper_hexagons"):
        glue(name, "n/a (not stored)", display=False)
else:
    paper_s3, manifest = stored
    print(f"stored sweep: {manifest['device']}, torch {manifest['torch_version']}, commit {manifest['git_commit'][:10]}")
    counts, best = paper_s3.best_rqi()
    _, fastest = paper_s3.fastest_rqi_step()
    for n, b, f in zip(counts, best, fastest):
        print(f"{n:2d}/36 = {n / 36:.2f}: best final RQI {b:.2f}; seeds with RQI > 0.95: "
              f"{int((paper_s3.rqi_step[paper_s3.counts == n] >= 0).sum())} of {len(paper_s3.config.seeds)}; "
              f"fastest {f if f >= 0 else 'never'}")
    paper_solved = np.nonzero(paper_s3.final_rqi > paper_s3.config.rqi_threshold)[0]
    paper_hex = sum(g <= 15 and q >= 0.75 for g, q in (hexagon_shape(paper_s3.embeddings[r]) for r in paper_solved))
    paper_top4 = pca(paper_s3.embeddings[paper_s3.best_run()])[1][:4].sum()
    print(f"critical fraction: {paper_s3.critical_fraction():.2f}; "
          f"max Acc-hat - Acc: {(paper_s3.predicted_accuracy - paper_s3.accuracy).max():.3f}; "
          f"solved runs: {len(paper_solved)}, hexagons on PC1-PC3: {paper_hex}; "
          f"best run's variance in the top four PCs: {paper_top4:.2f}")
    glue("s3_paper_rc", f"{paper_s3.critical_fraction():.2f}", display=False)
    glue("s3_paper_solved", str(len(paper_solved)), display=False)
    glue("s3_paper_hexagons", str(paper_hex), display=False)
    claims.check("S3 (paper scale, stored): best run, variance in the top four principal components", paper_top4, 0.95,
                 comparison=">=", source="ours: Schur orthogonality for a faithful orthogonal representation")
    claims.check("S3 (paper scale, stored): max over runs of Acc-hat - Acc",
                 float((paper_s3.predicted_accuracy - paper_s3.accuracy).max()), 1 / 36, comparison="<=",
                 source="App. H, Fig. 18e (Acc-hat is a lower bound of Acc)")

# %% [markdown]
# At the paper's settings the transition is at {glue:text}`s3_paper_rc`, the same as at book scale and
# outside our tolerance around 0.5. So more seeds, the official rates and a $10^4$-step budget do not
# close the gap: **the critical fraction of Fig. 18 is not reproduced** (see Deviations). The other
# findings hold at this scale. Acc-hat stays below Acc, and the solved runs carry their variance in four
# comparable components. Only {glue:text}`s3_paper_hexagons` of the {glue:text}`s3_paper_solved` solved
# runs form a hexagon on PC1–PC3.

# %% [markdown]
# ## Paper versus ours

# %%
print(claims.table())

# %% [markdown]
# ## Deviations and what they mean
#
# - **Normalisation of the effective loss.** Eq. (5) divides $\ell_0$ by $|P_0(D)|$. With that factor
#   the predicted time scale is $|P_0(D)| \approx 40$ times longer than the network's. We drop it,
#   as the official integrator does, and use $n_h = p/(2\lambda_3\eta)$: the normalised embeddings
#   have $Z_0 = p$, and $\partial^2\ell_0 = 2A_D^\top A_D$.
# - **Which parallelograms drive the theory, and "about $3 n_h$".** The official integrator sums
#   $\ell_0$ over *all* 70 parallelograms, not over the training set's (spec §7 row 1), which makes
#   the theory blind to the data; it is the variant that converges in about $3 n_h$, as the paper
#   says. Eq. (5) as printed sums over $P_0(D)$; we plot that variant in Fig. 4(c), and it needs about
#   more than twice as long as "about $3 n_h$" to reach RQI $> 0.95$ (the spec's replication, with the official
#   frozen $Z_0$, got $2.8 n_h$; our current-$Z_0$ integrator is slower). Its slowest mode decays as
#   $e^{-t/n_h}$ by construction, so the count of $n_h$ it needs depends on how far the start is
#   from a line and on the RQI tolerance; "about 3" is not a property of the theory alone.
#   `effective_trajectories(rows="all")` gives the official variant.
# - **$Z_0$ in the integrator.** The official integrator freezes $Z_0$ at its initial value. Then any
#   Euler drift of $\sum_k E_k^2$ feeds back on itself: from the reference run's start, over
#   {glue:text}`eff_steps` steps on all of $P_0$, $\sum_k E_k^2$ drifts by {glue:text}`z0_drift_frozen`.
#   We use the current $Z_0$, which makes each step the exact gradient of $\ell_0/Z_0$; its drift is
#   {glue:text}`z0_drift_current`.
# - **RQI tolerance.** Like the official code, a parallelogram counts when the mean squared
#   deviation of the normalised embeddings is below 0.01 (the paper writes $|\cdot| \le \delta$,
#   $\delta = 0.01$).
# - **Fig. 2 is scoped down.** The paper's Fig. 2 uses 2-D embeddings for both panels, a ReLU decoder
#   with weight decay 5 and $2\cdot10^4$ steps, and adds modular addition (a circle). With the toy
#   decoder and 2-D embeddings, none of the 12 settings we tried (decoder learning rate $3\cdot10^{-5}$
#   to $10^{-3}$, decoder weight decay 0–5, embedding learning rate up to $3\cdot10^{-2}$, uniform or
#   Gaussian initialization, 4000 steps, addition and modular addition mod 11) generalized (exploratory
#   runs, not part of this chapter). We therefore show generalization with the 1-D reference run and
#   memorization with its 2-D twin, and do not claim the modular circle here. The opening chapter
#   shows a circle for modular addition.
# - **Book scale.** The reference run stops at 2000 of its 5000 steps; nothing after step 1600 enters
#   a claim. The paper scale (`REPRO_SCALE=paper`) runs the full 5000 steps with the same code; it was
#   not run for this edition (no GPU is needed, but nothing changes either).
# - **Appendix H ($S_3$): the critical fraction is not reproduced.** The paper's transition is at
#   $r_c \approx 0.5$. Ours is at {glue:text}`s3_rc` at book scale and {glue:text}`s3_paper_rc` at the
#   paper's settings: 11 seeds, $10^4$ steps and the official rates, as stored. Below the transition
#   no seed finds the representation, and even above it only a minority of seeds do. The paper gives
#   neither its fractions nor its decoder settings for Fig. 18. We use the decoder rate that
#   comprehends in the official Fig. 6(d) map (lr $10^{-4}$, no decay). A different decoder rate or
#   weight decay may move the transition; we did not sweep them. Our split and initialization also
#   come from our own random streams, not the notebook's. Since Fig. 18 reports the best seed, a lucky
#   draw matters.
# - **Appendix H: the hexagon.** See the section above: four equal principal variances make the
#   PC1–PC3 plane a matter of chance, so the hexagon shows in some solved runs and not in others.

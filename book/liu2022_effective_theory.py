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
# network's, and the paper's "about $3 n_h$ steps" to the linear structure, which holds over random starts
# for the network and for the theory (as printed and as the official code integrates it), though one start
# takes much longer; Fig. 2(a), a 2-D representation that
# memorizes; the parallelogram count $|P_0| = 70$. The critical training
# fraction, Fig. 3 (accuracy against the accuracy predicted from the representation) and Fig. 5 are
# in the companion chapter, *Towards understanding grokking (II): critical data*.
#
# **What we leave out.** Fig. 2's modular-addition circle (c, d), and the 2-D addition run that
# *generalizes* (b): the official setting of those panels (ReLU decoder 2-128-128, decoder weight decay 5,
# $2\cdot10^4$ steps, in the official notebooks `VisualizingAddition.ipynb` and `VisualizingModular.ipynb`)
# was not run for this edition, and the toy decoder with 2-D embeddings memorized at every setting we
# tried in a few thousand steps (see Deviations). The ledger marks those panels as not run. The
# four-phase diagrams (Figs 6–8) are in a separate chapter. Appendix H (the permutation group $S_3$,
# Figs 17 and 18) closes this chapter. Its critical fraction comes out higher than the paper's, at book
# scale and in a stored run at the paper's settings; see that section.

# %%
import warnings

import numpy as np

warnings.filterwarnings("ignore", category=UserWarning)

from myst_nb import glue

from repro.claims import ClaimBook
from repro.liu2022_representations import (ToyConfig, effective_rqi_steps, plot_embedding_comparison, plot_seed_spread,
                                           plot_trajectories, run_reference, run_seed_spread)
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
# `ToyConfig`'s defaults are the paper's (§2) and the official code's values (`toy/train_add.py`). The reference run
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
# e.g. $(0, 4)$ and $(2, 2)$ give $E_0 + E_4 = 2E_2$. For $p = 10$ there are 70: the official code
# (`toy/train_add.py`) divides its parallelogram count by 70 to get the RQI. A linear
# representation $E_k = a + kb$ has all of them, so its representation quality index
# $\mathrm{RQI} = |P(R)|/|P_0|$ (eq. 3) is 1.

# %%
P0 = theory.parallelograms(theory.all_pairs(cfg.p), cfg.p)
rqi_line = theory.rqi(2.0 + 0.3 * np.arange(cfg.p), None, cfg.p)
print(f"|D0| = {len(theory.all_pairs(cfg.p))}, |P0| = {len(P0)}, RQI of a line = {rqi_line:.2f}")
claims.check("|P0|: parallelograms of the full p = 10 table", len(P0), 70, kind="check", against="official code",
             tolerance=0, source="official toy/train_add.py: RQI = count / 70 (eq. 1, p = 10)")
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
# We leave out the paper's literal $1/|P_0(D)|$ factor in $\ell_0$: it would stretch $n_h$
# {glue:text}`p0d_count`-fold ($|P_0(D)|$ of this training set), to about {glue:text}`n_h_literal` steps
# for a network that groks in about a thousand (App. F says the factor only rescales
# time; the official integrator in `toy/train_add.py` leaves it out).

# %%
ref = run_reference(cfg)
# The effective theory is float64 numpy from the network's initial embeddings (drawn before any float32
# arithmetic), so its numbers are the same on every CPU; they are printed in full.
glue("lambda3", f"{ref.grokking_rate:.1f}", display=False)
glue("n_h", f"{ref.n_h:.0f}", display=False)
p0d = len(theory.parallelograms(ref.train_pairs, cfg.p))
glue("p0d_count", str(p0d), display=False)
glue("n_h_literal", approx(p0d * ref.n_h, digits=2), display=False)
print(f"theory: lambda_3 = {ref.grokking_rate:.1f}, n_h = {ref.n_h:.0f} steps, "
      f"effective RQI > 0.95 at step {ref.effective_rqi_step}")

# %% [markdown]
# **A known answer.** The official code prints, for this exact run, training accuracy $\ge 90\%$ at
# step 1130, validation accuracy at 1530 and RQI $> 0.95$ at 800 (the official notebook
# `toy/Figure4cd.ipynb`; an independent replication, `Mabdel-03/9.520-The-Geometry-of-Grok`, got the same). Our trainer follows the official random-number order, so
# it should land on the same steps. We allow $\pm 20$ steps: the official log records training
# accuracy one step later than ours, and float rounding on another CPU can move a threshold crossing
# by a few steps. This is a comparison of one trajectory, seed by seed, with the official code, so our
# steps are shown on a grid of 50 steps (the verdict uses the exact step): ours are
# {glue:text}`train_step`, {glue:text}`val_step` and {glue:text}`rqi_step`.

# %%
src_ref = "official toy/Figure4cd.ipynb printout for seed 58, 45/10"
REF_RES = 50  # display grid of the reference run's threshold steps (tolerance ± 20; evaluations every 10 steps)
for key, label, ours, official in (("train_step", "train acc >= 0.9", ref.train_step, 1130),
                                   ("val_step", "val acc >= 0.9", ref.val_step, 1530),
                                   ("rqi_step", "RQI > 0.95", ref.rqi_step, 800)):
    glue(key, approx(ours, REF_RES), display=False)
    claims.check(f"reference run: step of {label}", ours, official, kind="reproduction", against="official code",
                 tolerance=20, source=src_ref, resolution=REF_RES)
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
# step with RQI $> 0.95$ and express it in units of the training set's $n_h$ (here $\lambda_3$ =
# {glue:text}`lambda3`, $n_h$ = {glue:text}`n_h` steps). "About 3" is read as $3 \pm 50\,\%$: the paper
# gives no more digits.
#
# One trajectory's crossing step depends on where it starts, so every claim below is the median over
# the {glue:text}`n_spread` init seeds of the same training set (the reference split, so $n_h$ is the same
# for all; one batched run). The effective theory is integrated from each seed's initial embeddings in
# two variants:
#
# - **eq. (5) as printed**, with only the training set's parallelograms $P_0(D)$ (the variant plotted
#   above): {glue:text}`eff_train_spread`;
# - **the official integrator** (`toy/train_add.py`), which made the paper's Fig. 4(c): it sums $\ell_0$
#   over *all* 70 parallelograms of the table, not the training set's, and so is blind to the data. Timed
#   in the training set's $n_h$, as the paper does: {glue:text}`eff_all_spread`.
#
# The network's crossing steps are {glue:text}`spread_steps`, a median of {glue:text}`net_ratio` $n_h$.
# All three medians are "about 3" (reproductions; the tolerance, $\pm 1.5\,n_h$, is wider than the
# spread of the network's medians, but not than the spread of the effective theory over starts). The
# count of $n_h$ depends on the start: the slowest mode decays as $e^{-t/n_h}$, so the time to the RQI
# tolerance grows with the start's distance from a line. The reference start, the one plotted above, is
# {glue:text}`eff_ref_rank` of the {glue:text}`n_spread` for eq. (5): {glue:text}`eff_ref_ratio` $n_h$ (step
# {glue:text}`eff_current_step`). Ratios are shown at a resolution of 0.1 $n_h$. The effective theory is
# float64 numpy from the networks' initial embeddings (drawn before any float32 arithmetic).
#
# **$Z_0$ in the integrator.** The official integrator keeps $Z_0$ frozen at its initial value; ours
# uses the current value, which makes each Euler step the exact gradient of $\ell_0/Z_0$. Since $Z_0$ is
# conserved by the flow (eq. 6), the two differ only by Euler error. From the reference start, eq. (5)
# with a frozen $Z_0$ crosses RQI $> 0.95$ at step {glue:text}`eff_frozen_step` against
# {glue:text}`eff_current_step` with the current $Z_0$ (resolved to one step; a check, below 2 % of the step
# count): the choice does not matter for any claim here.

# %%
src_3nh = "§3.2 text beside Fig. 4(c, d): 'about 3 n_h steps' (read as 3 ± 50 %)"
spread = run_seed_spread(ref)
SPREAD_RES = 100  # display grid of the seeds' crossing steps: the claim's tolerance is ± 1.5 n_h, about ± 600 steps
RQI_RES = 0.05  # display grid of final RQIs
eff_train = effective_rqi_steps(cfg, spread.initial, ref.train_pairs, rows="train")
eff_all = effective_rqi_steps(cfg, spread.initial, ref.train_pairs, rows="all")
net_ratio = seed_median(spread.rqi_step) / ref.n_h
eff_ratio = seed_median(eff_train) / ref.n_h
eff_all_ratio = seed_median(eff_all) / ref.n_h
n_h_full = theory.theory_grokking_steps(theory.grokking_rate(theory.all_pairs(cfg.p), cfg.p), cfg.p, cfg.lr_repr)
# Z0: frozen (official) against current (ours), eq. (5) from the reference start, every step resolved
z_steps = {frozen: int(effective_rqi_steps(cfg, ref.embeddings[:1], ref.train_pairs, freeze_z0=frozen,
                                            record_every=1)[0]) for frozen in (True, False)}
glue("eff_frozen_step", f"{z_steps[True]:,}", display=False)
glue("eff_current_step", f"{z_steps[False]:,}", display=False)
glue("eff_ref_ratio", approx(z_steps[False] / ref.n_h, 0.1), display=False)
glue("n_spread", str(len(spread.seeds)), display=False)
glue("spread_steps", describe_seeds(spread.rqi_step, SPREAD_RES), display=False)
glue("net_ratio", approx(net_ratio, 0.1), display=False)
glue("eff_ratio", approx(eff_ratio, 0.1), display=False)
glue("eff_all_ratio", approx(eff_all_ratio, 0.1), display=False)
glue("eff_train_spread", describe_seeds(np.where(eff_train >= 0, eff_train / ref.n_h, -1), 0.1, unit="n_h"),
     display=False)
glue("eff_all_spread", describe_seeds(np.where(eff_all >= 0, eff_all / ref.n_h, -1), 0.1, unit="n_h"), display=False)
n_slower = int(np.sum(np.where(eff_train >= 0, eff_train, np.inf) > z_steps[False]))
glue("eff_ref_rank", "the slowest" if n_slower == 0 else f"faster than {n_slower}", display=False)
glue("n_h_full", f"{n_h_full:.0f}", display=False)
glue("eff_all_own", approx(seed_median(eff_all) / n_h_full, 0.1), display=False)
print(f"steps to RQI > 0.95 in units of n_h = {ref.n_h:.0f} (median over {len(spread.seeds)} init seeds): "
      f"network {approx(net_ratio, 0.1)}, official integrator (all of P0) {approx(eff_all_ratio, 0.1)}, "
      f"eq. (5) with P0(D) {approx(eff_ratio, 0.1)}")
print(f"network steps to RQI > 0.95 over init seeds: {describe_seeds(spread.rqi_step, SPREAD_RES)}")
print(f"eq. (5) with P0(D), in n_h: {describe_seeds(np.where(eff_train >= 0, eff_train / ref.n_h, -1), 0.1)}")
print(f"official integrator, in n_h: {describe_seeds(np.where(eff_all >= 0, eff_all / ref.n_h, -1), 0.1)}")
print(f"eq. (5) from the reference start: frozen Z0 step {z_steps[True]}, current Z0 step {z_steps[False]}")
claims.check("network, median over init seeds: steps to RQI > 0.95 / n_h", net_ratio, 3.0, kind="reproduction",
             tolerance=0.5, comparison="rel", source=src_3nh, resolution=0.1)
claims.check("official integrator (all of P0), median over init seeds: steps to RQI > 0.95 / n_h", eff_all_ratio,
             3.0, kind="reproduction", tolerance=0.5, comparison="rel", resolution=0.1,
             source=src_3nh + "; Fig. 4(c) was made by the official integrator (toy/train_add.py), timed in the "
                               "training set's n_h as the paper does")
claims.check("eq. (5) as printed (P0(D)), median over init seeds: steps to RQI > 0.95 / n_h", eff_ratio, 3.0,
             kind="reproduction", tolerance=0.5, comparison="rel", resolution=0.1, source=src_3nh)
_ = claims.check("eq. (5), reference start: frozen-Z0 crossing step / current-Z0 crossing step", z_steps[True] /
                 z_steps[False], 1.0, kind="check", against="derivation", tolerance=0.02, comparison="abs",
                 resolution=0.01, source="eq. (6): Z0 is conserved by the flow, so freezing it changes only the "
                                         "Euler error (bound: 2 %)")

# %% [markdown]
# ## Figure 2 (addition, scoped): a memorizing representation, and the generalizing one in 1-D
#
# Fig. 2 of the paper shows 2-D embeddings of toy addition: when the network generalizes (b), the
# embeddings form parallelograms; when it memorizes (a), they do not. We show the contrast with the
# reference run itself. Trained with 1-D embeddings it generalizes; trained with 2-D embeddings and
# everything else equal, it memorizes: the official code reports test accuracy 0.5 and RQI 0.4 for that
# run after 5000 steps (`toy/train_add.py` with `d_in = 2`, seed 58). The extra dimension gives the
# decoder room to separate the training sums without lining the embeddings up. So panel (a) below is
# Fig. 2(a) in kind (our toy decoder, not the official notebook's deeper ReLU decoder), while panel (b)
# stands in for Fig. 2(b) with a 1-D representation: the paper's 2-D *generalizing* parallelograms are
# not run here. The figure shows the reference init seed; the claims are checked on the medians over
# the {glue:text}`n_spread` init seeds of the batched runs above (the 2-D twin is trained from the same
# seeds in one more batched call).
#
# ```{glue:figure} fig_embeddings
# :name: fig-liu-embeddings
#
# **(a)** The ten 2-D embeddings (black, labelled) after training, the 55 sums $E_i + E_j$ the
# decoder sees (grey), and the class the trained decoder assigns to each point of the plane (colour).
# The embeddings form no parallelograms (RQI in the title), and validation accuracy stays low.
# **(b)** The 1-D embeddings of the reference run at step {glue:text}`ref_steps`: an evenly spaced
# ladder (RQI {glue:text}`ref_rqi`), and {glue:text}`ref_val_correct` of the 10 validation samples are
# answered correctly (the official run, at 5000 steps, answers all 10).
# ```

# %%
comp = spread.comparison
fig = plot_embedding_comparison(comp)
glue("fig_embeddings", fig, display=False)
fig = plot_seed_spread(spread)
glue("fig_spread", fig, display=False)
glue("ref_steps", f"{cfg.reference_steps:,}", display=False)
glue("ref_rqi", f"{comp.rqi[1]:.2f}", display=False)
glue("ref_val_correct", f"{round(10 * comp.val_acc[1])}", display=False)
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
# **Claims** (§3.1: generalization goes with parallelograms), each on the median over the init seeds.
# The generalization and memorization thresholds are the paper's (App. A, Table 1: validation accuracy
# above 90 %, as the official code counts it, $\ge 0.9$); these statements are one-sided in the paper
# itself.
#
# - The 1-D network generalizes (validation accuracy $\ge 0.9$) with RQI $> 0.95$, the paper's
#   threshold for the linear structure (Fig. 4b). These are the network trajectories of Fig. 4(d).
# - The 2-D one memorizes (Fig. 2a): validation accuracy stays below 0.9, i.e. at most 0.8 with ten
#   validation samples. It forms few parallelograms: RQI $\le 0.5$ is a bound of this book (the paper
#   shows a picture, the official 2-D run has RQI 0.4), so it is a check.
#
# Validation accuracy comes in steps of 0.1 (ten validation samples) and is shown at that step; RQI is
# shown at 0.05, well inside the distance of the medians from their bounds.

# %%
src_t1 = "App. A, Table 1: generalization = validation accuracy above 90 % (official code: >= 0.9)"
claims.check("1-D embeddings, median over init seeds: final validation accuracy", np.median(spread.val_acc[1]), 0.9,
             kind="reproduction", comparison=">=", source=src_t1 + "; Fig. 4(d): the network generalizes",
             resolution=0.1)
claims.check("1-D embeddings, median over init seeds: final RQI", np.median(spread.rqi[1]), 0.95,
             kind="reproduction", comparison=">=", resolution=RQI_RES,
             source="Fig. 4(d) / §3.2: the network converges to the linear structure (RQI > 0.95, Fig. 4b's threshold)")
claims.check("2-D embeddings, median over init seeds: final validation accuracy", np.median(spread.val_acc[2]), 0.8,
             kind="reproduction", comparison="<=", resolution=0.1,
             source="Fig. 2(a): memorization, i.e. validation accuracy never above 90 % (Table 1; 0.8 with 10 samples)")
_ = claims.check("2-D embeddings, median over init seeds: final RQI", np.median(spread.rqi[2]), 0.5, kind="check",
                 against="book bound", comparison="<=", resolution=RQI_RES,
                 source="this book's bound for Fig. 2(a)'s 'no parallelograms' (official d_in = 2 run: RQI 0.4)")

# %% [markdown]
# ## Appendix H: the permutation group $S_3$ (Figs 17 and 18)
#
# **The claim** (App. H). The story is not special to addition. For a non-abelian group, give each
# element a learnable *matrix* $E_a$ and feed the product $E_a E_b$ to the decoder. A faithful matrix
# representation of the group then generalizes by construction, and a "generalised parallelogram" is a
# pair of samples with $E_a E_b \approx E_c E_d$ (three of them are needed to deduce a new one, against
# two for addition). For $S_3$ (6 elements, 36 ordered samples, 3×3 matrices), the paper reports:
# (a) the RQI of the best of 11 seeds rises to 1 with the training fraction; (b) the steps to
# RQI $> 0.95$ show a transition at $r_c \approx 0.5$; (e) $\widehat{\mathrm{Acc}} \le \mathrm{Acc}$, so the
# network generalizes beyond what the parallelograms explain; and Fig. 17, the six matrices on their
# first and third principal components, form a hexagon.
#
# **Setup** (official notebook `toy/Figure5d_permutation.ipynb`). Matrices start in
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
# 1. At the largest fraction the best seed reaches RQI $1.0 \pm 0.05$ (Fig. 18a: the best RQI rises to
#    1; reproduction).
# 2. The transition of Fig. 18(b), the smallest fraction at which some seed reaches RQI $> 0.95$, is at
#    $r_c \approx 0.5$. We would call it reproduced within one step of the paper-scale fraction grid,
#    $\pm 3/36$, a tolerance set before the paper-scale sweep was run. It is not (a deviation).
# 3. $\widehat{\mathrm{Acc}} \le \mathrm{Acc}$ for every run, within one sample (1/36) (Fig. 18e; the
#    paper's statement is itself one-sided; reproduction).
# 4. Fig. 17 shows a hexagon on PC1–PC3. For Fig. 17 we count the solved runs (final RQI $> 0.95$)
#    whose six matrices form a hexagon there. Our test for a hexagon: every angular gap around the centre
#    within 15° of 60°, and the nearest point at least 0.75 of the farthest one's distance (tolerances of
#    ours; the paper only shows the picture). Some solved run shows it (reproduction; the paper shows one
#    run).
# 5. Our addition, for Fig. 17: the solved runs' six matrices lie in four dimensions, with at least 95 %
#    of their variance in the top four principal components (median over the solved runs). Schur's
#    orthogonality relations predict this for a faithful representation (see below), so this is a check
#    against our derivation.
#
# The $S_3$ runs are computed in float64 and their outcomes (which runs solve, their shapes) do not
# move between CPU kernel sets.

# %%
last = s3.counts == s3.counts.max()
s3_rc_src = "App. H, Fig. 18(b): transition at r_c ~ 0.5; within one step (3/36) of the paper-scale grid counts"
claims.check("S3: best-seed final RQI at the largest fraction", s3.final_rqi[last].max(), 1.0, kind="reproduction",
             tolerance=0.05, source="App. H, Fig. 18(a): the best seed's RQI rises to 1", resolution=0.05)
claims.check("S3: critical fraction (smallest with a seed at RQI > 0.95)", s3.critical_fraction(), 0.5,
             kind="deviation", tolerance=3 / 36, resolution=0.01, source=s3_rc_src,
             evidence=f"book scale, {len(s3cfg.train_counts)} fractions x {len(s3cfg.seeds)} seeds x "
                      f"{s3cfg.steps} steps, matrices' lr x3: no seed reaches RQI > 0.95 below "
                      f"{s3.critical_fraction():.2f}; the stored paper-scale sweep agrees (below)")
claims.check("S3: max over runs of Acc-hat - Acc", float((s3.predicted_accuracy - s3.accuracy).max()), 1 / 36,
             kind="reproduction", comparison="<=", source="App. H, Fig. 18(e): Acc-hat is a lower bound of Acc",
             resolution=0.01)
solved = np.nonzero(s3.final_rqi > s3cfg.rqi_threshold)[0]
ratios = np.array([pca(s3.embeddings[r])[1][:4] for r in solved]).reshape(-1, 4)  # (solved runs, 4) variance ratios
top4 = np.median(ratios.sum(axis=1))
n_hex = sum(g <= 15 and q >= 0.75 for g, q in (hexagon_shape(s3.embeddings[r]) for r in solved))
claims.check("S3: solved runs forming a hexagon on PC1-PC3", n_hex, 1, kind="reproduction", comparison=">=",
             resolution=1, source="App. H, Fig. 17: the six matrices form a hexagon on PC1-PC3 (one run shown); "
                                  "hexagon test: ours")
claims.check("S3: solved runs (median), variance in the top four principal components", top4, 0.95, kind="check",
             against="derivation", comparison=">=", resolution=0.01,
             source="Schur orthogonality for a faithful orthogonal representation (Fig. 17's setting)")
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
# reach RQI $> 0.95$ show it on PC1–PC3. The reason is Schur's orthogonality relations. For matrices that
# are exactly a faithful orthogonal representation of $S_3$ (the 3-d permutation representation is the
# trivial plus the 2-d standard one), the six centred, flattened matrices have the same variance in all
# four directions of the standard block. PCA then has no preferred plane. Our solved runs come close: a
# median of {glue:text}`s3_top4` of the variance lies in the top four components, the first of them
# carrying only about {glue:text}`s3_pc1` of it. Which plane carries PC1 and PC3, and so whether the six
# points look like a hexagon there, is decided by small deviations from an exact representation.

# %% [markdown]
# ### At the paper's settings (stored)
#
# The paper-scale sweep has 10 fractions × 11 seeds × $10^4$ steps at the official rates, about
# $10^6$ run-steps. That is minutes on a CPU, so it does not run with the book. The command
# `python -m repro.liu_s3 --store book/_results` runs it with the same code and stores the result with
# its provenance. The chapter reads it from the store, which refuses an entry whose config or content
# does not match. We compare its transition with the paper's $r_c \approx 0.5$; before running it we
# set the tolerance at one step of the fraction grid (3/36). The paper draws Fig. 17 from one run; we
# count how many of the stored solved runs form the hexagon, and would call it reproduced if at least
# three quarters did (a band set after the book-scale runs had been seen).

# %%
stored = stored_s3_sweep(S3Config(), "_results")
if stored is None:
    print("No stored paper-scale S3 sweep: run `python -m repro.liu_s3 --store book/_results` to add it.")
    for name in ("s3_paper_rc", "s3_paper_solved", "s3_paper_hexagons"):
        glue(name, "n/a (not stored)", display=False)
    stored_claims = []
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
    paper_last = paper_s3.counts == paper_s3.counts.max()
    print(f"critical fraction: {paper_s3.critical_fraction():.2f}; "
          f"max Acc-hat - Acc: {(paper_s3.predicted_accuracy - paper_s3.accuracy).max():.3f}; "
          f"solved runs: {len(paper_solved)}, hexagons on PC1-PC3: {paper_hex}; "
          f"best run's variance in the top four PCs: {paper_top4:.2f}")
    glue("s3_paper_rc", f"{paper_s3.critical_fraction():.2f}", display=False)
    glue("s3_paper_solved", str(len(paper_solved)), display=False)
    glue("s3_paper_hexagons", str(paper_hex), display=False)
    claims.check("S3 (paper scale, stored): best-seed final RQI at the largest fraction",
                 paper_s3.final_rqi[paper_last].max(), 1.0, kind="reproduction", tolerance=0.05, resolution=0.05,
                 source="App. H, Fig. 18(a): the best seed's RQI rises to 1")
    claims.check("S3 (paper scale, stored): critical fraction (smallest with a seed at RQI > 0.95)",
                 paper_s3.critical_fraction(), 0.5, kind="deviation", tolerance=3 / 36, resolution=0.01,
                 source=s3_rc_src,
                 evidence=f"{len(paper_s3.config.train_counts)} fractions x {len(paper_s3.config.seeds)} seeds x "
                          f"{paper_s3.config.steps} steps at the official rates (decoder lr 1e-4, no decay, as in the "
                          "comprehending corner of the official Fig. 6(d) map): no seed reaches RQI > 0.95 below "
                          f"{paper_s3.critical_fraction():.2f}. Not tried: other decoder rates or weight decays, the "
                          "official notebook's random-number order for splits and inits")
    claims.check("S3 (paper scale, stored): max over runs of Acc-hat - Acc",
                 float((paper_s3.predicted_accuracy - paper_s3.accuracy).max()), 1 / 36, kind="reproduction",
                 comparison="<=", resolution=0.01, source="App. H, Fig. 18(e): Acc-hat is a lower bound of Acc")
    claims.check("S3 (paper scale, stored): share of solved runs forming a hexagon on PC1-PC3",
                 paper_hex / max(len(paper_solved), 1), 1.0, kind="deviation", tolerance=0.25, resolution=0.05,
                 set_after=True, source="App. H, Fig. 17: the six matrices form a hexagon on PC1-PC3 (stated without "
                                        "qualification); hexagon test: ours",
                 evidence=f"{paper_hex} of {len(paper_solved)} stored solved runs pass the hexagon test: their "
                          "variance is spread over four near-equal principal components (Schur orthogonality), so "
                          "the PC1-PC3 plane is a matter of small deviations from an exact representation")
    claims.check("S3 (paper scale, stored): best run, variance in the top four principal components", paper_top4,
                 0.95, kind="check", against="derivation", comparison=">=", resolution=0.01,
                 source="Schur orthogonality for a faithful orthogonal representation")
    stored_claims = ["S3 (paper scale, stored): best-seed final RQI at the largest fraction",
                     "S3 (paper scale, stored): critical fraction (smallest with a seed at RQI > 0.95)",
                     "S3 (paper scale, stored): max over runs of Acc-hat - Acc"]

# %% [markdown]
# At the paper's settings the transition is at {glue:text}`s3_paper_rc`, the same as at book scale and
# outside our tolerance around 0.5. So more seeds, the official rates and a $10^4$-step budget do not
# close the gap: **the critical fraction of Fig. 18 is not reproduced** (see Deviations). The other
# findings of Fig. 18 hold at this scale: the best seed's RQI reaches 1, and Acc-hat stays below Acc.
# The solved runs carry their variance in four comparable components, and only
# {glue:text}`s3_paper_hexagons` of the {glue:text}`s3_paper_solved` solved runs form a hexagon on PC1–PC3.

# %% [markdown]
# ## Paper versus ours
#
# One verdict per figure of Liu et al. (2022) that this chapter shows. A *partial* verdict has at least
# one reproduction and at least one deviation; *not run at this scale* means the paper's setting for
# that panel was not run. Fig. 18 is judged on the stored paper-scale sweep (and the book-scale sweep
# agrees with it); Fig. 17 on both (a hexagon at book scale, none among the stored runs).

# %%
claims.figure("liu2022", "Fig. 2a", "reproduced", scale="book",
              claims=["2-D embeddings, median over init seeds: final validation accuracy",
                      "2-D embeddings, median over init seeds: final RQI"],
              why="2-D embeddings on the toy decoder memorize without parallelograms (median of "
                  f"{len(spread.seeds)} seeds); in kind: our decoder, not the official notebook's ReLU decoder")
claims.figure("liu2022", "Fig. 2b", "not run at this scale", scale="book",
              why="the 2-D generalizing parallelograms need the official setting (ReLU 2-128-128, decoder wd 5, "
                  "2e4 steps), not run; the toy decoder in 2-D memorized at every setting tried; 1-D stands in")
claims.figure("liu2022", "Fig. 2c-d", "not run at this scale", scale="book",
              why="the modular-addition circle and the decoder's 'pizza' map (official 2-D setting, 2e4 steps) "
                  "were not run; the opening chapter shows a circle on another model")
claims.figure("liu2022", "Fig. 4c-d", "reproduced", scale="book",
              claims=["reference run: step of train acc >= 0.9", "reference run: step of val acc >= 0.9",
                      "reference run: step of RQI > 0.95",
                      "network, median over init seeds: steps to RQI > 0.95 / n_h",
                      "official integrator (all of P0), median over init seeds: steps to RQI > 0.95 / n_h",
                      "eq. (5) as printed (P0(D)), median over init seeds: steps to RQI > 0.95 / n_h",
                      "eq. (5), reference start: frozen-Z0 crossing step / current-Z0 crossing step",
                      "1-D embeddings, median over init seeds: final validation accuracy",
                      "1-D embeddings, median over init seeds: final RQI"],
              why=f"the network matches the official run step by step; medians over {len(spread.seeds)} starts: "
                  f"network ≈ {approx(net_ratio, 0.1)} n_h, eq. (5) ≈ {approx(eff_ratio, 0.1)}, official integrator "
                  f"≈ {approx(eff_all_ratio, 0.1)}: 'about 3'; one start (the plotted one) takes "
                  f"≈ {approx(z_steps[False] / ref.n_h, 0.1)}")
if stored is not None:
    claims.figure("liu2022", "Fig. 17 (App. H)", "partial", scale="paper (CPU, stored)",
                  claims=["S3: solved runs forming a hexagon on PC1-PC3",
                          "S3 (paper scale, stored): share of solved runs forming a hexagon on PC1-PC3",
                          "S3: solved runs (median), variance in the top four principal components",
                          "S3 (paper scale, stored): best run, variance in the top four principal components"],
                  why=f"a hexagon in {n_hex} of {len(solved)} solved book-scale runs, {paper_hex} of "
                      f"{len(paper_solved)} stored paper-scale runs: four near-equal principal variances "
                      "(Schur) leave the PC1-PC3 plane to chance")
    claims.figure("liu2022", "Fig. 18 (App. H)", "partial", scale="paper (CPU, stored)",
                  claims=stored_claims + ["S3: best-seed final RQI at the largest fraction",
                                          "S3: critical fraction (smallest with a seed at RQI > 0.95)",
                                          "S3: max over runs of Acc-hat - Acc"],
                  why=f"best RQI reaches 1 and Acc-hat <= Acc hold; the transition is at "
                      f"{paper_s3.critical_fraction():.2f}, not 0.5 (paper scale, 11 seeds, 1e4 steps; book scale agrees)")
glue("ledger_tally", claims.tally(), display=False)
claims.ledger()

# %% [markdown]
# In all, this chapter's figures: {glue:text}`ledger_tally`.
#
# ### Deviations and what they mean
#
# - **Normalisation of the effective loss.** Eq. (5) divides $\ell_0$ by $|P_0(D)|$. With that factor
#   the predicted time scale is $|P_0(D)|$ = {glue:text}`p0d_count` times longer than the network's. We
#   drop it, as the official integrator does, and use $n_h = p/(2\lambda_3\eta)$: the normalised
#   embeddings have $Z_0 = p$, and $\partial^2\ell_0 = 2A_D^\top A_D$.
# - **Which parallelograms drive the theory, and "about $3 n_h$".** The official integrator
#   (`toy/train_add.py`) sums $\ell_0$ over *all* 70 parallelograms, not over the training set's, which
#   makes the theory blind to the data; eq. (5) as printed sums over $P_0(D)$, and we plot that variant in
#   Fig. 4(c). Over the {glue:text}`n_spread` starts, both reach RQI $> 0.95$ in "about 3" of the training
#   set's $n_h$ (medians). The official integrator's own time unit would be the
#   full table's $n_h$, {glue:text}`n_h_full` steps ($\lambda_3 = 30$); in that unit it needs
#   {glue:text}`eff_all_own`. An earlier version of this chapter checked one start only, the reference
#   one, where eq. (5) needs {glue:text}`eff_ref_ratio` $n_h$, and blamed the gap on the integrator's
#   $Z_0$; the gap is the start ({glue:text}`eff_ref_rank` of the {glue:text}`n_spread`), and freezing $Z_0$ moves the
#   crossing from step {glue:text}`eff_current_step` to {glue:text}`eff_frozen_step` only. Because the
#   slowest mode decays as $e^{-t/n_h}$, the number of $n_h$ depends on how far the start is from a line
#   and on the RQI tolerance: "about 3" describes typical random starts, not the theory alone.
#   `effective_trajectories(rows="all")` gives the official variant.
# - **RQI tolerance.** Like the official code, a parallelogram counts when the mean squared
#   deviation of the normalised embeddings is below 0.01 (the paper writes $|\cdot| \le \delta$,
#   $\delta = 0.01$).
# - **Fig. 2 is scoped down.** The paper's Fig. 2 uses 2-D embeddings for both panels, a ReLU decoder
#   with weight decay 5 and $2\cdot10^4$ steps, and adds modular addition (a circle). With the toy
#   decoder and 2-D embeddings, none of the 12 settings we tried (decoder learning rate $3\cdot10^{-5}$
#   to $10^{-3}$, decoder weight decay 0–5, embedding learning rate up to $3\cdot10^{-2}$, uniform or
#   Gaussian initialization, 4000 steps, addition and modular addition mod 11) generalized (exploratory
#   runs, not part of this chapter). We therefore show generalization with the 1-D reference run and
#   memorization with its 2-D twin, and do not claim the 2-D parallelograms or the modular circle here:
#   the ledger marks Fig. 2(b) and 2(c, d) as not run. The opening chapter shows a circle for modular
#   addition on another model.
# - **Book scale.** The reference run stops at {glue:text}`ref_steps` of its 5000 steps; every threshold
#   step of its claims comes earlier. The paper scale (`REPRO_SCALE=paper`) runs the full 5000 steps with
#   the same code; it was not run for this edition (no GPU is needed, but nothing changes either).
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

"""The "Paper versus ours" rows of ``book/mohamadi2024_why_grok``: one ``claims.figure`` row per theorem and figure
of the paper, naming the claims registered above that bear on it and saying why in one sentence, in the order the
ledger lists them, and the counts the chapter's last paragraph quotes.
"""
from __future__ import annotations

import numpy as np

from repro.book.readouts.mohamadi2024_why_grok_regression import CTL, P47, P47HE
from repro.book.readouts.mohamadi2024_why_grok_stored import NC_PREFIX as nc_prefix
from repro.core.prose import glue
from repro.experiments import mohamadi2024_why_grok as mw



def record_theorem_rows(claims, *, span, cspan, cspan_stats, cls) -> None:
    """Registers the rows of Prop. 3.8 and Thms 3.1-4.3 (the construction, the eNTK rank and the kernel bounds)."""
    span_min, span_slack = span.span_min, span.span_slack
    cspan_min, cspan_slack = cspan_stats.cspan_min, cspan_stats.cspan_slack
    mc, runs = cls.mc, cls.runs
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


def record_fig1_rows(claims, *, cls, norms, ntk_class, init, gdi) -> None:
    """Registers the rows of Fig. 1 left and middle (live normalized GD, the NTK parametrization, plain GD)."""
    mc, runs, a_min, first_step = cls.mc, cls.runs, init.a_min, init.first_step
    nc_budget, nc_ratio, nc_decades = ntk_class.budget, ntk_class.ratio, ntk_class.decades
    nc_fit_gain, nc_gap_diff, acc_a1 = ntk_class.fit_gain, ntk_class.gap_diff, ntk_class.acc_a1
    a_lo, lo_rows = gdi.a_lo, gdi.lo_rows
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
                  why=f"{nc_budget}: final test accuracy {acc_a1:.2f} at α = 1 (median); "
                      f"at the fit the test accuracy is {nc_fit_gain:.2f} higher at α = 0.1 than at α = 1 (the paper's gap, †); "
                      f"the time from fit to 99 % is {nc_gap_diff:,.0f} steps longer (medians; §6: a smaller α slows final "
                      "generalization)")
    claims.figure("mohamadi2024", "Fig. 1 middle", scale="book",
                  claims=[f"trained network: final test accuracy on the same splits (p = {mc.p}), median of {len(runs)} seeds",
                          f"fitted before the test accuracy reached 99 % (α = 1): fraction of {len(runs)} seeds",
                          f"‖θ‖₂ after {first_step} steps, α = {a_min:g} over α = 1 (medians of {len(runs)} seeds)",
                          f"gap from fitting to 99 % test accuracy, α = {a_min:g} over α = 1 (means of {len(runs)} seeds)",
                          f"plain GD (stored): test accuracy when the training set is fitted, α = {a_lo:g} minus α = 1 (medians)",
                          f"plain GD (stored): final accuracy on test pairs with unseen mirror, α = {a_lo:g}, median of {len(lo_rows)} seeds"],
                  why=f"fitting first and 100 % test accuracy later reproduce (normalized GD, p = {mc.p}), but its step "
                      "length erases α; under plain GD (stored) a smaller α fits with more test accuracy, as the paper "
                      "says, yet no α generalizes: GD stalls once the training loss is small")


def record_fig1_right_rows(claims, *, results, scs, bud) -> None:
    """Registers the rows of Fig. 1 right: the live sizes, the stored sweep over p and the settled budgets."""
    scfg, k_fit, k_lo, k_hi = scs.cfg, scs.k_fit, scs.k_lo, scs.k_hi
    settled, s_lo, s_hi = bud.settled, bud.s_lo, bud.s_hi
    k_common, k_common_lo, k_common_hi = bud.k_common, bud.k_common_lo, bud.k_common_hi
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


def record_fig2_3_rows(claims, *, cfg, stored, stored_stats, ntk_acc, p47, p47he, ctl) -> None:
    """Registers the rows of Figs 2 and 3: the stored regression runs and the ℓ∞ positive control."""
    reg_cfg, a_small, s_acc_a1 = stored.cfg, stored_stats.a_small, stored_stats.acc_a1
    p47_cfg, he_cfg, he_fit = p47.cfg, p47he.cfg, p47he.fit
    p47, p47he, ctl = p47.res, p47he.res, ctl.res
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


def record_fig4_5_rows(claims, *, cfg, results, scs, tfs, gtf) -> None:
    """Registers the rows of Fig. 4 (norm and margin against p) and Fig. 5 (the transformer)."""
    ps, scfg = sorted(results), scs.cfg
    p_lo, p_hi = scfg.ps[0], scfg.ps[-1]
    gtfs, gd_cfg = gtf.runs, gtf.cfg
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


def glue_ledger_counts(claims) -> None:
    """Glues the ledger's tally and the number of claims set after their result (†), of all and of stored runs."""
    glue("ledger_tally", claims.tally(), display=False)
    glue("n_after", str(sum(c.set_after for c in claims.claims)), display=False)
    glue("n_claims", str(len(claims.claims)), display=False)
    glue("n_after_stored", str(sum(c.set_after and bool(c.run) for c in claims.claims)), display=False)

"""The claims and figure rows ``book/baek2024_geneft_dynamics`` registers (GenEFT part 2: Eq. 10–11, Figs. 5–6),
with the evidence and reasons they carry, from what :mod:`repro.book.readouts.baek2024_geneft_dynamics` read off the
runs. Every call is made with the arguments, and in the order, the chapter's ledger was written with.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from repro.book.readouts.baek2024_geneft_dynamics import FIG5_OPTIMIZERS, S5_SLOPE_RES, SEED_SLOPE_RES, SLOPE_RES
from repro.core.portable import approx, describe_seeds, trained
from repro.core.prose import glue
from repro.experiments.baek2024_geneft import (LABELS, fit_boundary_logistic, intercept_spread_standard_error,
                                               invert_encoder_axis, product_rule, stored_fig6_wide_config)
from repro.experiments.baek2024_geneft_dynamics_setup import OPT_NAMES

S6W = "stored (paper's width, 2·10^4 steps): "


def record_inverted_axis(claims, s5) -> SimpleNamespace:
    """Registers the stored Fig. 5 slope (and, Adam, product-rule share) read with the encoder axis inverted; prints
    and glues each reading; returns the inverted maps and fits (for the figure) and the texts."""
    s5_inv_text, maps, fits = {}, {}, {}
    for opt in s5.stored:
        inv = invert_encoder_axis(s5.results[opt])
        f_inv, up = fit_boundary_logistic(inv), s5.fits[opt]
        maps[opt], fits[opt] = inv, f_inv
        text = (f"{OPT_NAMES[opt]}: boundary slope upright {approx(up.slope, S5_SLOPE_RES)}, encoder axis inverted "
                f"{approx(f_inv.slope, S5_SLOPE_RES)} (per seed "
                + ", ".join(approx(v, S5_SLOPE_RES) for v in f_inv.seed_slopes)
                + f"), generalization {'above' if f_inv.generalize_above else 'below'} the inverted boundary")
        name = f"stored ({opt}), encoder-rate axis inverted: Fig. 5 boundary slope (logistic fit)"
        claims.check(name, f_inv.slope, seeds=f_inv.seed_slopes, live=False, run=s5.manifests[opt],
                     evidence=f"the stored map of T{16 if opt == 'adam' else 20} with its encoder rows reversed: {text}")
        if opt == "adam":
            r_up, r_inv = product_rule(s5.results[opt]), product_rule(inv)
            text += (f"; generalizing runs with eta_enc*eta_dec > 1e-7: upright {approx(r_up.share_above, 0.01)}, "
                     f"inverted {approx(r_inv.share_above, 0.01)} (per seed "
                     + ", ".join(approx(v, 0.01) for v in r_inv.seed_share_above)
                     + f"); the {int(r_inv.low.sum())} inverted cells at or below 1e-7 generalize in "
                     f"{approx(r_inv.low_generalized_share, 0.01)} of their runs")
            claims.check("stored (adam), encoder-rate axis inverted: Fig. 5 share of generalizing runs with "
                         "eta_enc*eta_dec > 1e-7", r_inv.share_above, seeds=r_inv.seed_share_above, live=False,
                         run=s5.manifests[opt], evidence=f"the stored map of T24 with its encoder rows reversed: {text}")
        s5_inv_text[opt] = text
        print(text)
    for opt in FIG5_OPTIMIZERS:
        glue(f"s5_inv_text_{opt}", s5_inv_text.get(opt, f"{OPT_NAMES[opt]}: the stored runs are not finished"),
             display=False)
    return SimpleNamespace(texts=s5_inv_text, maps=maps, fits=fits)


def record_repon_checks(claims, repons, eq11) -> None:
    """Registers the checks of Eq. 10 (C conserved, end points at the fixed points) and Eq. 11 against its Monte Carlo."""
    claims.check("relative drift of C along the repon ODE", repons.drift, live=False)
    claims.check("ODE end point vs Eq. 10 fixed point (max abs error)", repons.end_error, live=False)
    claims.check("p_r: Eq. 11 vs Monte Carlo (max deviation in standard errors)", eq11.z, live=False)


def record_fig5_live(claims, live5) -> None:
    """Registers the live Fig. 5's slope, product-rule share and intercept spread; prints and glues the share's floor."""
    fit, cfg5, boot_err, rule, n_seeds = live5.fit, live5.cfg, live5.boot_err, live5.rule, live5.n_seeds
    orient, orient_paper = live5.orient, live5.orient["paper's"]
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
                 f"the pooled boundary points as independent and is the larger of their residual scatter and the "
                 f"grid's quantization, so it understates correlated errors; the seeds alone give "
                 f"{describe_seeds(fit.seed_slopes, SEED_SLOPE_RES)}, and resampling the seeds moves the pooled slope "
                 f"by {trained(boot_err, 0.1)} (standard deviation). Positive, as Eq. 11's ratio rule predicts. Limits: "
                 f"the fit reads only columns with memorization below and generalization above (columns by order: ours "
                 f"{trained(orient['ours'], 1)}, the paper's {trained(orient_paper, 1)}, "
                 f"mixed {trained(orient['mixed'], 1)}); the cells with product <= 1e-7, where the paper's rule places "
                 f"generalization, are {int(rule.low.sum())} of {rule.low.size} and {trained(rule.low_confused, 1)} of "
                 f"their {rule.low_runs} runs are still confused at this budget; the memorization onset moves with the "
                 f"budget (Fig. 6 below: mod 3 at 1,500 and 3,000 steps). The paper's regime is not tested.")
    # The share's lower bound at any longer budget: a generalizing run stays so, a new generalizer above 1e-7 raises
    # the share, so the least it can become is with every not-yet-generalized low-product run generalizing.
    share_floor = rule.above / max(rule.generalizing + rule.low_runs - rule.low_generalized, 1)
    print(f"product-rule share if every low-product run that has not generalized did so at a longer budget: at least "
          f"{trained(share_floor, 0.1)}")
    glue("share_floor", trained(share_floor, 0.1), display=False)
    claims.check("Fig. 5 share of generalizing runs with eta_enc*eta_dec > 1e-7", live5.product_share,
                 seeds=live5.seed_product_share,
                 evidence=f"A share of {trained(live5.product_share, 0.1)} of the generalizing runs (3 tasks, {n_seeds} "
                 f"seeds, 36 cells each) have a product above 1e-7; our grid reaches products down to 1e-8. A run "
                 f"classified as generalizing within {cfg5.steps:,} steps stays so at a longer budget (both first "
                 f"crossings are already in), and if every low-product run that has not generalized did so at a longer "
                 f"budget the share would still be at least {trained(share_floor, 0.1)}: the short budget does not "
                 f"explain it. The paper's own defaults (Table 3: both learning rates 1e-3, product 1e-6) generalize in "
                 f"its Figs 3-4.")
    claims.check("Fig. 5 intercept spread across tasks (decades)", live5.spread)


def record_fig6(claims, fig6_onsets, *, cfg6, s6) -> SimpleNamespace:
    """Registers the live mod 3 and the stored three-task Fig. 6 onset spreads; glues onset_spread."""
    # Fig. 6: a row whose median onset is "none" counts half a grid step beyond the largest decoder lr (a lower
    # bound); the same spread per seed gives its margin (onsets)
    onset_spread = fig6_onsets["mod3"].spread()
    seed_onset_spread = fig6_onsets["mod3"].seed_spread
    row_text = "; ".join(f"weight decay {w:g}: " + trained("none" if not np.isfinite(m) else approx(m, 0.5))
                         for w, m in zip(cfg6.row_values, fig6_onsets["mod3"].median))
    claims.check("Fig. 6 memorization onset spread across decoder weight decays, mod 3 (decades)", onset_spread,
                 seeds=seed_onset_spread,
                 evidence=f"Median over {len(cfg6.seeds)} seeds of log10 of the smallest decoder lr that memorizes, per "
                 f"row: {row_text}. Mod 3 only, encoder lr {cfg6.lr_enc:g} (caption 1e-5: at 1e-5 the embeddings barely "
                 f"move within {cfg6.steps:,} steps), width {cfg6.width}, {cfg6.steps:,} Adam steps (paper 1e5). With "
                 f"one seed an earlier edition found the onset the same in every row; over seeds it is not.")
    s6_cfg, s6_names = s6.cfg, []
    for rel in s6_cfg.relations:
        name_all = f"stored: Fig. 6 memorization onset spread across all weight decays, {LABELS[rel]} (decades)"
        claims.check(name_all, s6.spread[rel], live=False, run=s6.manifest,
                     spread=s6.onsets[rel].spread_standard_error(),
                     evidence=f"stored: {len(s6_cfg.seeds)} seeds, weight decays {s6_cfg.row_values}, encoder lr "
                              f"{s6_cfg.lr_enc:g} (caption 1e-5), width {s6_cfg.width}, {s6_cfg.steps:,} Adam steps: "
                              "the onset is constant up to weight decay 1e-2, and memorization vanishes from the grid "
                              "at the largest weight decays")
        name_small = f"stored: Fig. 6 memorization onset spread across weight decays ≤ 1e-2, {LABELS[rel]} (decades)"
        claims.check(name_small, s6.spread_small[rel], spread=s6.onsets[rel].spread_standard_error(s6.small),
                     live=False, run=s6.manifest)
        s6_names.append((name_all, name_small))
    glue("onset_spread", trained(onset_spread, 0.5), display=False)
    return SimpleNamespace(onset_spread=onset_spread, row_text=row_text, s6_names=s6_names)


def record_fig6_wide(claims, s6w) -> list[str]:
    """Registers the paper-width Fig. 6's onset spreads and share decided (sealed by its runs); returns their names."""
    s6w_names = [f"{S6W}Fig. 6 memorization onset spread across all weight decays, {LABELS[rel]} (decades)"
                 for rel in stored_fig6_wide_config().relations] + [f"{S6W}Fig. 6 share of runs decided within the budget"]
    if s6w.result is not None:
        c6w = s6w.cfg
        setting6w = (f"stored: {len(c6w.seeds)} seeds, width {c6w.width}, weight decays {c6w.row_values}, decoder lr "
                     f"{c6w.lr_dec[0]:.0e} to {c6w.lr_dec[-1]:.0e} in half decades, encoder lr {c6w.lr_enc:g} (caption "
                     f"1e-5), {c6w.steps:,} Adam steps (Table 4: 1e5)")
        for rel, name in zip(c6w.relations, s6w_names):
            claims.check(name, s6w.spread[rel], live=False, run=s6w.manifests,
                         spread=s6w.onsets[rel].spread_standard_error(),
                         evidence=f"{setting6w}: onset spread {s6w.spread[rel]:.2f} decades over every weight decay "
                         "(per seed " + ", ".join(f"{v:.2f}" for v in s6w.seed_spread[rel]) + ")")
        claims.check(s6w_names[-1], s6w.decided, seeds=s6w.seed_decided, live=False, run=s6w.manifests,
                     evidence=f"{setting6w}: {s6w.decided:.2f} of the runs decided")
    return s6w_names


def glue_fig6_rows(fig6, fig6_onsets, cfg6) -> None:
    """Glues the live mod 3 onset per weight-decay row and the sentence on rows that never memorize."""
    glue("onset_rows", fig6.row_text, display=False)
    no_mem = [w for w, m in zip(cfg6.row_values, fig6_onsets["mod3"].median) if not np.isfinite(m)]
    glue("wd_no_mem", trained(("With decoder weight decay " + ", ".join(f"{w:g}" for w in no_mem) + " most seeds "
                               "memorize at no decoder learning rate of this row.") if no_mem else "Every weight-decay "
                              "row memorizes at some decoder learning rate in most seeds."), display=False)


def record_stored_fig5(claims, s5, s5_stats) -> dict[str, list[str]]:
    """Registers each stored paper-regime Fig. 5's slope, intercept spread, shares decided and (Adam) product rule."""
    s5_names = {}
    for opt in s5.stored:
        f, st, man, c = s5.fits[opt], s5_stats[opt], s5.manifests[opt], s5.results[opt].config
        setting = (f"stored: {len(c.seeds)} seeds, 3 tasks, width {c.width}, {c.steps:,} steps of {OPT_NAMES[opt]}, "
                   f"both rates {c.row_values[0]:g} to {c.row_values[-1]:g} in half decades; {f.decided:,} decided "
                   f"runs fitted ({f.confused:,} confused left out), one common direction and one offset per task")
        slope_text = (f"slope {approx(f.slope, S5_SLOPE_RES)} (per seed "
                      + ", ".join(approx(v, S5_SLOPE_RES) for v in f.seed_slopes)
                      + f"; resampled seeds: standard deviation {approx(st['boot'], 0.01)}), generalization "
                      f"{'above' if f.generalize_above else 'below'} the boundary")
        names = [f"stored ({opt}): Fig. 5 boundary slope, every decided run (logistic fit)",
                 f"stored ({opt}): Fig. 5 boundary slope vs Eq. 11's ratio rule (+1)",
                 f"stored ({opt}): Fig. 5 intercept spread across tasks (decades)",
                 f"stored ({opt}): share of runs decided within the budget"]
        claims.check(names[0], f.slope, seeds=f.seed_slopes, live=False, run=man, evidence=f"{setting}: {slope_text}.")
        claims.check(names[1], f.slope, seeds=f.seed_slopes, live=False, run=man, evidence=f"{setting}: {slope_text}.")
        claims.check(names[2], st["spread"], live=False, run=man, spread=intercept_spread_standard_error(s5.results[opt]),
                     evidence=f"{setting}: intercepts " + ", ".join(f"{LABELS[r]} {approx(b, 0.1)}"
                                                                   for r, b in f.intercepts.items()))
        claims.check(names[3], st["decided_share"], seeds=st["seed_decided"], live=False, run=man,
                     evidence=f"{setting}: {approx(st['decided_share'], 0.01)} of the runs decided")
        if opt == "adam":
            names += ["stored (adam): Fig. 5 share of generalizing runs with eta_enc*eta_dec > 1e-7",
                      "stored (adam): share of runs decided in the cells with eta_enc*eta_dec <= 1e-7"]
            claims.check(names[4], st["product_share"], seeds=st["seed_product_share"], live=False, run=man,
                         evidence=f"{setting}: {approx(st['product_share'], 0.01)} of the generalizing runs have a "
                         f"product above 1e-7; the {st['low_cells']} cells at or below it generalize in "
                         f"{approx(st['low_generalized'], 0.01)} of their runs")
            claims.check(names[5], st["low_decided"], seeds=st["seed_low_decided"], live=False, run=man,
                         evidence=f"{setting}: {approx(st['low_decided'], 0.01)} of the runs in the {st['low_cells']} "
                         "cells with product <= 1e-7 decided")
        s5_names[opt] = names
    return s5_names


def record_live_figures(claims, live5, fig6, *, s6, s6w, s6w_names) -> None:
    """Registers the figure rows of Figs. 5, 6a, 6b-c and Fig. 6 at the paper's width, each with its verdict's reason."""
    fit, cfg5, s6_cfg, s6_names = live5.fit, live5.cfg, s6.cfg, fig6.s6_names
    fig5_names = ["Fig. 5 intercept spread across tasks (decades)", "Fig. 5 generalization/memorization boundary slope",
                  "Fig. 5 share of generalizing runs with eta_enc*eta_dec > 1e-7",
                  "Fig. 5 boundary slope (sign agrees with Eq. 11's ratio rule)",
                  "Fig. 5 median per-seed boundary slope (sign)"]
    claims.figure("baek2024", "Fig. 5", claims=fig5_names,
                  why=f"Generalizing runs break the product rule at any budget (a share of "
                  f"{trained(live5.product_share, 0.1)}), and the boundary we can see, between a memorization band and "
                  f"generalization above it, sits at about the same intercept for all three tasks but rises (slope "
                  f"{trained(fit.slope, SLOPE_RES)}, the sign of Eq. 11's ratio rule), not -1. That slope is of our "
                  f"budget ({cfg5.steps:,} Adam steps, not 1e5 and not gradient flow) and grid: the paper's low-rate "
                  f"regime is only the grid's corner, partly undecided, so the slope -1 is not tested here where the "
                  f"paper places it (the stored rows 'paper's regime' test it).")
    fig6a_names = ["Fig. 6 memorization onset spread across decoder weight decays, mod 3 (decades)", *s6_names[0]]
    claims.figure("baek2024", "Fig. 6a", claims=fig6a_names,
                  why=f"Only through a selection: the mod 3 onset is the same for weight decays up to 1e-2 (stored, "
                  f"{len(s6_cfg.seeds)} seeds, {s6_cfg.steps:,} steps), a range cut after the run (†); over every weight "
                  f"decay run, large ones remove memorization and the boundary moves (stored; live: "
                  f"{trained(fig6.onset_spread, 0.5)} decades). Encoder lr 3e-4, not the caption's 1e-5. At the paper's "
                  f"width, with claims sealed before the run, the boundary moves too (row 'Fig. 6 (paper's width, "
                  f"stored)').")
    fig6bc_names = [*s6_names[1], *s6_names[2]]
    claims.figure("baek2024", "Fig. 6b-c", claims=fig6bc_names,
                  why="Greater-than and bipartite (stored): as for mod 3, the onset holds only through the rows with "
                      "weight decay up to 1e-2, a range cut after the run (†); over every weight decay run the boundary "
                      "moves. Encoder lr 3e-4, not the caption's 1e-5. At the paper's width, with claims sealed before "
                      "the run, the boundary moves too (row 'Fig. 6 (paper's width, stored)').")
    if s6w.result is None:
        claims.figure("baek2024", "Fig. 6 (paper's width, stored)", scale="paper (CPU, stored)",
                      why=f"the stored run: {s6w.missing}; its command computes them")
    else:
        c6w = s6w.cfg
        claims.figure("baek2024", "Fig. 6 (paper's width, stored)", scale="paper (CPU, stored)",
                      claims=s6w_names,
                      why=f"Stored at the paper's width {c6w.width}, every weight decay from 0 to 10, decoder lr "
                      f"{c6w.lr_dec[0]:.0e} to {c6w.lr_dec[-1]:.0e}, {c6w.steps:,} Adam steps (Table 4: 1e5), 3 seeds; "
                      f"{s6w.decided:.2f} of the runs decided. Onset spread over the weight decays: "
                      + ", ".join(f"{LABELS[r]} {v:.2f}" for r, v in s6w.spread.items())
                      + " decades (one grid step 0.5). Encoder lr 3e-4, not the caption's 1e-5.")


def record_stored_fig5_figures(claims, s5, s5_stats, *, s5_names, inverted) -> None:
    """Registers the figure rows of the stored Fig. 5, read inverted and per optimizer in the paper's regime."""
    if s5.stored:
        claims.figure("baek2024", "Fig. 5 (paper's regime, encoder axis inverted)", scale="paper (CPU, stored)",
                      claims=[n for opt in s5.stored for n in claims.named(f"stored ({opt}), encoder-rate axis inverted")],
                      why="The stored maps re-read with their encoder rows reversed (context, †: registered after the "
                      "maps were seen): " + "; ".join(inverted.texts.values()) + ". The paper's text does not say which "
                      "way its axis runs; the verdicts read it upright.")
    for opt in FIG5_OPTIMIZERS:
        if opt not in s5.results:
            claims.figure("baek2024", f"Fig. 5 (paper's regime, {OPT_NAMES[opt]})",
                          scale="paper (CPU, stored)", why=f"the stored run: {s5.missing[opt]}; its command computes them")
            continue
        f, st, c = s5.fits[opt], s5_stats[opt], s5.results[opt].config
        claims.figure("baek2024", f"Fig. 5 (paper's regime, {OPT_NAMES[opt]})",
                      scale="paper (CPU, stored)", claims=s5_names[opt],
                      why=f"Stored at the paper's width {c.width}, {c.steps:,} steps of {OPT_NAMES[opt]} (Table 4: 1e5), "
                      f"rates {c.row_values[0]:g} to {c.row_values[-1]:g}, 3 seeds; {approx(st['decided_share'], 0.01)} "
                      f"of the runs decided. The boundary fitted to every decided run has slope "
                      f"{approx(f.slope, S5_SLOPE_RES)} (the paper's -1; Eq. 11's ratio rule +1), generalization "
                      f"{'above' if f.generalize_above else 'below'} it; its intercepts spread "
                      f"{approx(st['spread'], 0.1)} decades over the tasks"
                      + (f"; {approx(st['product_share'], 0.01)} of the generalizing runs break the product rule."
                         if opt == "adam" else "."))

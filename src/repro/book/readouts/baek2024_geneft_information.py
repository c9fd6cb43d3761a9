"""What ``book/baek2024_geneft_information`` reads off its runs (GenEFT part 1: Eq. 1–4, Figs. 2–4): the tables it
prints, the values it glues into its prose, and the claims and figure rows it registers. The runs themselves and
their statistics live in :mod:`repro.experiments.baek2024_geneft`; this module only reads them.
"""
from __future__ import annotations

import warnings
from types import SimpleNamespace

import numpy as np

from repro.book.claims import seed_standard_error
from repro.core.portable import approx, describe_seeds, trained
from repro.core.prose import glue
from repro.data.relations import RELATIONS, relation_matrix
from repro.experiments.baek2024_geneft import (CONFIRM_PREFIX, DEEP_DEPTHS, LABELS, book_statistics,
                                               confirmation_config, fewest_fitted_standard_error, induction_gap,
                                               induction_gap_seeds, stored_confirmation, stored_deep_depths,
                                               stored_depth)
from repro.theory.baek2024 import GUESS_PROBABILITY, critical_fraction, description_length
from repro.training.store import load_stored, provenance_line, require_stored

GAP_RES = 0.01  # a mean over 3 seeds x 7 fractions: one run that lands elsewhere moves it by well under 0.01
SEED_RES = 0.05  # single-seed values (the quartiles of the seed spread): one run moves them by a few hundredths
# The table: medians over seeds of the live runs, shown to 0.1; the claims below use the exact medians and
# show them at 0.05.
TABLE_RES = 0.1
CONFUSED = ("mod3", "mod5", "bipartite")  # the relations a linear decoder cannot express (Fig. 4's confusion)
DEEP = "deep decoders (stored, 10^5 steps): "
D1_MOD3 = "induction gap: generic minus inductive-bias network (d=1), mod 3"
# Independent evaluations the checks compare with: Eq. 3 to four digits, and the Monte Carlo at fraction 0.10
INDEP_PC = {"mod3": 0.1204, "mod5": 0.1769, "greater_than": 0.2743, "bipartite": 0.0755}
INDEP_MC10 = {"mod3": 0.977, "mod5": 0.915, "greater_than": 0.892, "bipartite": 1.0}


def report_relations() -> None:
    """Prints each relation's count of related pairs and whether it is symmetric; asserts the counts."""
    expected = {"mod3": 300, "mod5": 180, "greater_than": 435, "bipartite": 450}
    for rel in RELATIONS:
        m = relation_matrix(rel)
        print(f"{LABELS[rel]:>13}: {m.sum()} of 900 pairs related, symmetric: {bool((m == m.T).all())}")
        assert m.sum() == expected[rel]


def report_critical_fractions(alpha: float = 0.9) -> dict[str, float]:
    """Prints Table 2's b, b/n^2, Eq. 3's p_c at ``alpha`` and p* per relation; returns p_c by relation."""
    p_c = {rel: critical_fraction(description_length(rel), 30, alpha) for rel in RELATIONS}
    for rel in RELATIONS:
        b = description_length(rel)
        print(f"{LABELS[rel]:>13}: b = {b:6.1f} bits, b/n^2 = {b / 900:.3f}, p_c(alpha=0.9) = {p_c[rel]:.3f}, "
              f"p* = {GUESS_PROBABILITY[rel]:.2f}")
    return p_c


def report_bound_gaps(bound, bound_cfg) -> SimpleNamespace:
    """Prints Fig. 2's largest |MC - Eq. 4| per relation and the MC bound at 0.10; glues the worst gap and mc_gt0."""
    rows = []
    for rel in RELATIONS:
        frac, gap = bound.largest_gap(rel)
        rows.append((rel, frac, gap))
        print(f"{LABELS[rel]:>13}: largest |MC - Eq. 4| = {abs(gap):.2f} at fraction {frac:.2f}")
    worst = max(rows, key=lambda r: abs(r[2]))
    glue("worst_gap", f"{abs(worst[2]):.2f}", display=False)
    glue("worst_gap_where", f"{LABELS[worst[0]]} at fraction {worst[1]:.2f}", display=False)
    k10 = bound_cfg.fractions.index(0.1)
    mc10 = {rel: bound.mc_mean(rel)[k10] for rel in RELATIONS}
    print("MC bound at fraction 0.10: " + ", ".join(f"{LABELS[r]} {mc10[r]:.2f}" for r in RELATIONS))
    mc_gt0 = float(bound.mc_mean("greater_than")[bound_cfg.fractions.index(0.0)])
    glue("mc_gt0", approx(mc_gt0, 0.01), display=False)
    glue("mc_gt0_bias", approx(mc_gt0 - (0.5 + 0.5 * 30 / 900), 0.005), display=False)
    return SimpleNamespace(bound=bound, cfg=bound_cfg, worst=worst, mc10=mc10)


def report_induction_gaps(sizes, size_cfg, fig2) -> SimpleNamespace:
    """Prints Fig. 3's induction gap per relation and architecture and the stuck d = 1 seeds; returns them."""
    bound, bound_cfg = fig2.bound, fig2.cfg
    gaps = {(rel, a): induction_gap(sizes, bound, rel, a) for rel in size_cfg.relations
            for a in range(len(size_cfg.architectures))}
    for (rel, a), g in gaps.items():
        per_seed = induction_gap_seeds(sizes, bound, rel, a)
        print(f"{LABELS[rel]:>13} | {sizes.labels[rel, a]:<35} | mean gap to the bound {trained(g, GAP_RES)}; "
              f"per seed {describe_seeds(per_seed, SEED_RES)}")
    # per (relation, architecture): (fractions, seeds) network accuracy minus the bound; the claim takes the largest
    # seed mean, and the seeds of that cell give its margin
    over_bound = {(rel, a): sizes.accuracy[rel, a]
                  - np.interp(size_cfg.fractions, bound_cfg.fractions, bound.mc_mean(rel))[:, None]
                  for rel in size_cfg.relations for a in range(len(size_cfg.architectures))}
    excess_cell, excess_k = max(((key, int(d.mean(1).argmax())) for key, d in over_bound.items()),
                                key=lambda kk: over_bound[kk[0]][kk[1]].mean())
    # the d = 1 mode-3 network on mod 3: seeds still below 0.9 over all pairs at the largest training fraction
    # (the all-"unrelated" baseline is 600/900 = 0.67); each seed is one training set and one initialization
    bias_arch = size_cfg.architectures.index((0, 1, None, 2))  # no hidden layer, the relation's mode, d = 2
    d1_arch = size_cfg.architectures.index((0, 1, None, 1))  # the same at d = 1
    d1_final = sizes.accuracy["mod3", d1_arch][-1]
    d1_stuck = int((d1_final < 0.9).sum())
    print(f"mod 3, {sizes.labels['mod3', d1_arch]}: {trained(d1_stuck)} of {len(d1_final)} seeds below 0.9 over all "
          f"pairs at fraction {size_cfg.fractions[-1]}")
    return SimpleNamespace(sizes=sizes, cfg=size_cfg, bound=bound, gaps=gaps,
                           excess=float(over_bound[excess_cell][excess_k].mean()),
                           excess_seeds=over_bound[excess_cell][excess_k], bias_arch=bias_arch, d1_arch=d1_arch,
                           d1_final=d1_final, d1_stuck=d1_stuck)


def report_depth_table(depth, depth_cfg) -> SimpleNamespace:
    """Prints the live Fig. 4's median test and training accuracy per relation and depth; returns the medians."""
    test = np.median(depth.test_acc, axis=2)
    train = np.median(depth.train_acc, axis=2)
    print("median over seeds, depths " + ", ".join(str(d) for d in depth_cfg.depths))
    for i, rel in enumerate(depth_cfg.relations):
        print(f"{LABELS[rel]:>13}: test " + " ".join(trained(x, TABLE_RES) for x in test[i]) + " | train "
              + " ".join(trained(x, TABLE_RES) for x in train[i]))
    return SimpleNamespace(result=depth, cfg=depth_cfg, test=test, train=train)


def report_stored_depth(sdepth_cfg) -> SimpleNamespace:
    """Loads the stored 20 000-step depth sweep, prints its fitted-seed table, glues its deep-end sentences."""
    sdepth, manifest = load_stored(stored_depth(sdepth_cfg, "_results"), "depth sweep",
                                   "python -m repro.experiments.baek2024_geneft --store book/_results --only depth",
                                   "about 15 minutes on one core", glue_minutes="depth_minutes")
    fitted = sdepth.train_acc >= 0.99  # (relations, depths, seeds)
    fit_test = np.where(fitted, sdepth.test_acc, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # depths where no seed fitted: NaN
        fit_median = np.nanmedian(fit_test, axis=2)  # (relations, depths): median test accuracy of the fitted seeds
    # A stored run is loaded, not recomputed: the same numbers on every machine (shown at 0.01).
    print("median test accuracy of the seeds that fitted (count of 5) per depth "
          + ", ".join(str(d) for d in sdepth_cfg.depths))
    for i, rel in enumerate(sdepth_cfg.relations):
        print(f"{LABELS[rel]:>13}: " + "  ".join("  -  (0)" if not fitted[i, k].any()
                                               else f"{fit_median[i, k]:.2f} ({int(fitted[i, k].sum())})"
                                               for k in range(len(sdepth_cfg.depths))))
        print(f"{'':>13}  median training accuracy (all seeds): "
              + " ".join(f"{x:.2f}" for x in np.median(sdepth.train_acc[i], axis=1)))
    # How many fitted seeds the deep end rests on, and bipartite's loss one step shallower (depth 8)
    k8 = sdepth_cfg.depths.index(8)
    i_bip = sdepth_cfg.relations.index("bipartite")
    n_deep_bip = int(fitted[i_bip, -1].sum())
    one_seed = [LABELS[r] for r in CONFUSED if fitted[sdepth_cfg.relations.index(r), -1].sum() == 1]
    glue("deep_one_seed", (" and ".join(one_seed) + (" rest" if len(one_seed) > 1 else " rests") + " on a single seed")
         if one_seed else "none rests on a single seed", display=False)
    glue("bip_deep_text", f"At depth 8, one step shallower, the bipartite graph's {int(fitted[i_bip, k8].sum())} "
         f"fitted seeds lose {np.nanmax(fit_median[i_bip]) - fit_median[i_bip, k8]:.2f} of test accuracy (the claims "
         f"ask for 0.05), so its \"too deep memorizes\" rests on the {n_deep_bip} fitted "
         f"seed{'s' if n_deep_bip != 1 else ''} at depth {sdepth_cfg.depths[-1]}.", display=False)
    return SimpleNamespace(result=sdepth, manifest=manifest, cfg=sdepth_cfg, fitted=fitted, fit_test=fit_test,
                           fit_median=fit_median, k8=k8, i_bip=i_bip)


def report_deep_depths(deep_cfg) -> SimpleNamespace:
    """Loads the stored 10^5-step deep-decoder run, prints its provenance and fitted-seed table, glues its minutes."""
    deep_res, manifests = require_stored(
        stored_deep_depths("_results"), "deep-decoder run (every depth of it)",
        "python -m repro.experiments.baek2024_geneft --store book/_results --only depth-deep",
        "about 80 minutes on one core")
    for line in sorted({provenance_line(m) for m in manifests}):
        print(line)
    glue("deep_minutes", f"{sum(m['wall_time_s'] for m in manifests) / 60:.0f}", display=False)
    fitted = deep_res.train_acc >= 0.99  # (relations, depths, seeds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a depth where no seed fitted: NaN
        median = np.nanmedian(np.where(fitted, deep_res.test_acc, np.nan), axis=2)
    # A stored run is loaded, not recomputed: the same numbers on every machine (shown at 0.01).
    print("median test accuracy of the seeds that fitted (count of 10) per depth " + ", ".join(map(str, DEEP_DEPTHS)))
    for i, rel in enumerate(deep_cfg.relations):
        print(f"{LABELS[rel]:>13}: " + " ".join(f"{x:.2f} ({n})" for x, n in zip(median[i], fitted[i].sum(axis=1))))
    return SimpleNamespace(result=deep_res, manifests=manifests, cfg=deep_cfg, fitted=fitted, median=median)


def record_static_checks(claims, p_c, fig2) -> None:
    """Registers the checks of Eq. 3's p_c, the MC bound at fraction 0.10 and Fig. 2's largest |MC - Eq. 4|."""
    for rel in RELATIONS:
        claims.check(f"p_c at alpha=0.9, {LABELS[rel]}", p_c[rel], reference=INDEP_PC[rel], live=False)
    for rel in RELATIONS:
        claims.check(f"MC bound at fraction 0.10, {LABELS[rel]}", fig2.mc10[rel], reference=INDEP_MC10[rel],
                     live=False)
    claims.check("largest |MC bound - Eq. 4| over relations and fractions", abs(fig2.worst[2]), live=False,
                 spread=fig2.bound.largest_gap_standard_error())


def record_live_comparisons(claims, fig3, live) -> SimpleNamespace:
    """Registers the live Fig. 3 induction-gap and excess claims and the live Fig. 4 depth claims."""
    size_cfg, depth_cfg, depth, test = fig3.cfg, live.cfg, live.result, live.test
    # the statistics of the live Fig. 3-4 comparisons: name -> (ours, per-seed values); the stored confirmation
    # reads its run with the same function
    live_stats = book_statistics(fig3.sizes, depth, fig3.bound)
    for name, (ours, per_seed) in live_stats.items():
        if name.startswith("induction gap") and name != D1_MOD3:
            claims.check(name, ours, seeds=per_seed)
    claims.check(D1_MOD3, live_stats[D1_MOD3][0], seeds=live_stats[D1_MOD3][1],
                 evidence=f"The squared-difference network with no hidden layer at d = 1 stays near the all-unrelated "
                 f"baseline in {trained(fig3.d1_stuck)} of {len(fig3.d1_final)} seeds (each its own training set and "
                 f"initialization, the same initialization at all {len(size_cfg.fractions)} fractions), so its mean gap "
                 f"exceeds the generic network's; the seed that escapes follows the bound. At d = 2 (Table 3's default) "
                 f"the same network reproduces. Book scale: {size_cfg.steps:,} Adam steps at lr {size_cfg.lr:g}; more "
                 f"seeds and the paper's budget not run.")
    claims.check("largest excess of a network over the MC bound", fig3.excess, seeds=fig3.excess_seeds)
    deep = len(depth_cfg.depths) - 1
    for rel in CONFUSED:
        i = depth_cfg.relations.index(rel)
        name = f"depth 0 training accuracy, {LABELS[rel]} (confusion)"
        claims.check(name, live_stats[name][0], seeds=live_stats[name][1])
        k_best = int(test[i].argmax())
        claims.check(f"best test accuracy over depths, {LABELS[rel]}", test[i].max(), seeds=depth.test_acc[i, k_best])
        claims.check(f"test accuracy lost at depth {depth_cfg.depths[deep]}, {LABELS[rel]} (memorization)",
                     test[i].max() - test[i, deep], seeds=depth.test_acc[i, k_best] - depth.test_acc[i, deep])
    i = depth_cfg.relations.index("greater_than")
    k_low = int(test[i].argmin())
    claims.check("lowest median test accuracy over depths, greater-than", test[i].min(),
                 seeds=depth.test_acc[i, k_low])
    return SimpleNamespace(deep=deep, k_low=k_low)


def _fitted_standard_error(values):
    """The median's seed standard error of the fitted seeds' values (NaN where fewer than two seeds fitted)."""
    return seed_standard_error(values, "median") if np.isfinite(values).sum() >= 2 else np.nan


def record_stored_depth(claims, stored) -> list[str]:
    """Registers the stored 20 000-step sweep's Fig. 4 claims on the fitted seeds; glues gt_stored_low."""
    sdepth, cfg, fit_test, fit_median = stored.result, stored.cfg, stored.fit_test, stored.fit_median
    deepest = len(cfg.depths) - 1
    stored_names = []
    for rel in CONFUSED:
        i_s = cfg.relations.index(rel)
        k_b = int(np.nanargmax(fit_median[i_s]))  # the best depth: its fitted seeds and the deepest's give the spreads
        best = fit_median[i_s, k_b]
        names = (f"stored: depth 0 training accuracy, {LABELS[rel]} (confusion)",
                 f"stored: best median test accuracy of the fitted seeds over depths, {LABELS[rel]}",
                 f"stored: test accuracy lost at depth {cfg.depths[deepest]} by the fitted seeds, {LABELS[rel]}")
        claims.check(names[0], float(np.median(sdepth.train_acc[i_s, 0])), seeds=sdepth.train_acc[i_s, 0],
                     statistic="median", live=False, run=stored.manifest)
        claims.check(names[1], best, seeds=fit_test[i_s, k_b], statistic="median", live=False, run=stored.manifest)
        # nan: one seed fitted
        loss_se = np.hypot(_fitted_standard_error(fit_test[i_s, k_b]), _fitted_standard_error(fit_test[i_s, deepest]))
        claims.check(names[2], best - fit_median[i_s, deepest], spread=loss_se if np.isfinite(loss_se) else None,
                     live=False, run=stored.manifest)
        stored_names += list(names)
    i_gt = cfg.relations.index("greater_than")
    gt_name = "stored: lowest median test accuracy of the fitted seeds over depths, greater-than"
    claims.check(gt_name, np.nanmin(fit_median[i_gt]), seeds=fit_test[i_gt, int(np.nanargmin(fit_median[i_gt]))],
                 statistic="median", live=False, run=stored.manifest)
    stored_names.append(gt_name)
    glue("gt_stored_low", f"{np.nanmin(fit_median[i_gt]):.2f}", display=False)
    return stored_names


def record_deep_end(claims, deep) -> SimpleNamespace:
    """Registers the 10^5-step deep end's claims on the fitted seeds (sealed by the run); returns what they read."""
    cfg, res, fitted, median = deep.cfg, deep.result, deep.fitted, deep.median
    k_peak = [DEEP_DEPTHS.index(d) for d in (1, 2, 3)]
    k_deep = [k for k, d in enumerate(DEEP_DEPTHS) if d >= 6]
    k12 = DEEP_DEPTHS.index(12)

    def fit_seeds(i, k):
        """The fitted seeds' test accuracies at relation ``i``, depth ``k``."""
        return res.test_acc[i, k][fitted[i, k]]

    fewest = int(fitted[:, k_deep].sum(axis=2).min())
    claims.check(DEEP + "fewest seeds that fitted their training pairs, over depths 6-12 and the four relations",
                 fewest, live=False, run=deep.manifests, spread=fewest_fitted_standard_error(fitted[:, k_deep]))
    deep_peak, deep_loss = {}, {}
    for rel in CONFUSED:
        i = cfg.relations.index(rel)
        kb = k_peak[int(np.nanargmax(median[i, k_peak]))]
        deep_peak[rel], deep_loss[rel] = float(median[i, kb]), float(median[i, kb] - median[i, k12])
        se_peak = seed_standard_error(fit_seeds(i, kb), "median")
        claims.check(DEEP + f"best median test accuracy of the fitted seeds over depths 1-3, {LABELS[rel]}",
                     deep_peak[rel], live=False, run=deep.manifests, spread=se_peak)
        n_fit12 = int(fitted[i, k12].sum())
        claims.check(DEEP + "test accuracy lost at depth 12 by the fitted seeds against the best of depths 1-3, "
                     f"{LABELS[rel]}", deep_loss[rel], live=False, run=deep.manifests,
                     spread=float(np.hypot(se_peak, seed_standard_error(fit_seeds(i, k12), "median"))),
                     evidence=f"after 10^5 steps the {n_fit12} seeds of ten that fitted at depth 12 reach a median "
                              f"test accuracy of {median[i, k12]:.2f}, against {deep_peak[rel]:.2f} at the best of "
                              f"depths 1-3; the other seeds have not fitted (median training accuracy "
                              f"{np.median(res.train_acc[i, k12]):.2f}): a deep decoder here mostly fails to fit "
                              "rather than memorizes")
    i_gt = cfg.relations.index("greater_than")
    k_gt = int(np.nanargmin(median[i_gt]))
    claims.check(DEEP + "lowest median test accuracy of the fitted seeds over depths, greater-than",
                 float(median[i_gt, k_gt]), live=False, run=deep.manifests,
                 spread=seed_standard_error(fit_seeds(i_gt, k_gt), "median"),
                 evidence=f"at depth {DEEP_DEPTHS[k_gt]} the {int(fitted[i_gt, k_gt].sum())} fitted seeds reach a "
                          f"median test accuracy of {median[i_gt, k_gt]:.3f}, just below the paper's 90 %; the "
                          "20,000-step sweep above stays above it")
    return SimpleNamespace(fewest=fewest, peak=deep_peak, loss=deep_loss, gt_low=float(median[i_gt, k_gt]),
                           gt_low_depth=DEEP_DEPTHS[k_gt], k12=k12)


def glue_deep_text(deep, end) -> None:
    """Glues deep_text: the deep end's fitted-seed counts, peaks, losses and greater-than's low point."""
    cfg, k12, deep_peak, deep_loss = deep.cfg, end.k12, end.peak, end.loss
    n12 = {r: int(deep.fitted[cfg.relations.index(r), k12].sum()) for r in cfg.relations}
    unfit12 = [LABELS[r] for r in cfg.relations if 2 * n12[r] < len(cfg.data_seeds)]  # fewer than half fitted
    glue("deep_text", "At depth 12 the seeds that fitted their training pairs number " + ", ".join(
        f"{LABELS[r]} {n12[r]}" for r in cfg.relations) + f" of ten (the fewest at any depth from 6 to 12: "
        f"{end.fewest}; the check registered before the run asked for five, and was lowered after it, †). "
        "On the fitted seeds, the best median test accuracy at depths 1–3 is " + ", ".join(
        f"{LABELS[r]} {deep_peak[r]:.2f}" for r in deep_peak) + ", and depth 12 loses " + ", ".join(
        f"{deep_loss[r]:.2f} ({LABELS[r]})" for r in deep_loss) + f" of it; greater-than's lowest median is "
        f"{end.gt_low:.3f} (depth {end.gt_low_depth}). The ledger row \"Fig. 4 (deep end, 10^5 steps)\" "
        "judges them." + (f" At depth 12 most {', '.join(unfit12[:-1]) + ' and ' * (len(unfit12) > 1) + unfit12[-1]} "
                          "decoders have not fitted their training pairs at the paper's horizon, so \"too deep "
                          "memorizes\" rests there on the few seeds that did." if unfit12 else ""),
        display=False)


def glue_prose_values(fig3, live, stored, *, comparisons, end) -> None:
    """Glues the prose's fitted-seed counts, live greater-than low point, induction gaps and stuck d = 1 seeds."""
    scfg, deepest = stored.cfg, len(stored.cfg.depths) - 1
    glue("deep_fitted", ", ".join(f"{LABELS[r]} {int(stored.fitted[scfg.relations.index(r), deepest].sum())}"
                                  for r in scfg.relations), display=False)
    i, k_low = live.cfg.relations.index("greater_than"), comparisons.k_low
    glue("gt_low", trained(live.test[i].min(), SEED_RES), display=False)
    glue("gt_low_depth", trained(live.cfg.depths[k_low]), display=False)
    glue("gt_low_train", trained(live.train[i, k_low], SEED_RES), display=False)
    b, d1 = fig3.bias_arch, fig3.d1_arch
    for key, (rel, a) in {"gap_mod3": ("mod3", 0), "gap_mod3_bias": ("mod3", b), "gap_gt": ("greater_than", 0),
                          "gap_gt_bias": ("greater_than", b), "gap_mod3_d1": ("mod3", d1),
                          "gap_gt_d1": ("greater_than", d1)}.items():
        glue(key, trained(fig3.gaps[rel, a], GAP_RES), display=False)
    glue("d1_stuck", f"{trained(fig3.d1_stuck)} of {len(fig3.d1_final)}", display=False)


def record_figures(claims, *, fig2, fig3, live, stored, stored_names, end) -> None:
    """Registers the figure rows of Figs. 2, 3, 4 and Fig. 4's deep end, each with its verdict's reason."""
    depth_cfg, scfg, deep = live.cfg, stored.cfg, len(live.cfg.depths) - 1
    fitted, fit_median, i_bip, k8 = stored.fitted, stored.fit_median, stored.i_bip, stored.k8
    claims.figure("baek2024", "Fig. 2", claims=[
        "largest |MC bound - Eq. 4| over relations and fractions"] + [f"MC bound at fraction 0.10, {LABELS[r]}"
                                                                      for r in RELATIONS],
        why=f"Eq. 4 and the Bayes-optimal Monte Carlo agree within {approx(abs(fig2.worst[2]), 0.01)} for all four "
        "relations ('rough agreement'); the Monte Carlo starts below Eq. 4 and saturates earlier. The paper prints no "
        "values.")
    claims.figure("baek2024", "Fig. 3", claims=[
        f"induction gap: generic minus inductive-bias network (d=2), {LABELS[r]}" for r in fig3.cfg.relations] + [
        "induction gap: generic minus inductive-bias network (d=1), greater-than",
        "induction gap: generic minus inductive-bias network (d=1), mod 3",
        "largest excess of a network over the MC bound"],
        why=f"Inductive bias shrinks the induction gap at d = 2 on both relations and at d = 1 on greater-than; the "
        f"d = 1 mode-3 network stays stuck on mod 3 in {trained(fig3.d1_stuck)} of {len(fig3.d1_final)} live seeds "
        "(fewer in the fresh-seed confirmation: how often is undetermined).")
    claims.figure("baek2024", "Fig. 4", claims=[
        f"{what}, {LABELS[r]}{tag}" for r in CONFUSED for what, tag in (
            ("depth 0 training accuracy", " (confusion)"), ("best test accuracy over depths", ""),
            (f"test accuracy lost at depth {depth_cfg.depths[deep]}", " (memorization)"))] + [
        "lowest median test accuracy over depths, greater-than"] + stored_names,
        why="Confusion at depth 0, a Goldilocks peak and a loss at the deepest decoder for mod 3, mod 5 and bipartite, "
        f"live ({depth_cfg.steps:,} steps, some deep seeds not yet fitted) and in the stored sweep ({scfg.steps:,} "
        f"steps, †: it predates sealed claims), where only seeds that fitted their training pairs count: at depth "
        f"{scfg.depths[-1]} they number " + ", ".join(
            f"{LABELS[r]} {int(fitted[scfg.relations.index(r), -1].sum())}" for r in CONFUSED)
        + f" of 5, and bipartite's fitted seeds at depth 8 lose "
        f"{np.nanmax(fit_median[i_bip]) - fit_median[i_bip, k8]:.2f}. At 20,000 steps greater-than's fitted "
        "seeds stay above 90 % at every depth; at 10^5 steps (the row below) their lowest median is just under it.")
    claims.figure_from("baek2024", "Fig. 4 (deep end, 10^5 steps)", DEEP, why=(
        f"Stored, sealed before the run: ten seeds per depth at the paper's horizon; at least {end.fewest} fitted at "
        "every depth from 6 to 12 (five were aimed for: that check was lowered after the run, †); on the fitted seeds, "
        "depth 12 loses " + ", ".join(f"{end.loss[r]:.2f} ({LABELS[r]})" for r in end.loss)
        + " against the peak at depths 1-3, and greater-than's "
        f"lowest median is {end.gt_low:.3f}."))


def record_confirmation(claims, fig3) -> None:
    """Loads the stored fresh-seed confirmation run, registers its sealed copies of the live claims, glues the tally."""
    conf, conf_manifest = load_stored(stored_confirmation("_results", confirmation_config()), "confirmation",
                                      "python -m repro.experiments.baek2024_geneft --store book/_results --only confirm",
                                      "a few minutes on one core")
    conf_d1 = conf.sizes.accuracy["mod3", fig3.d1_arch][-1]  # the d = 1 mode-3 network, largest fraction, per seed
    conf_stuck = f"{trained(int((conf_d1 < 0.9).sum()))} of {len(conf_d1)}"
    for name, (ours, per_seed) in book_statistics(conf.sizes, conf.depth, fig3.bound).items():
        claims.check(CONFIRM_PREFIX + name, ours, seeds=per_seed, live=False, run=conf_manifest)
    claims.figure_from("baek2024", "Figs. 3-4 (live comparisons, fresh seeds, stored)", CONFIRM_PREFIX, why=(
        f"the live Fig. 3-4 comparisons rerun with fresh seeds, sealed before the run; the d = 1 mode-3 network ends "
        f"below 0.9 over all pairs at fraction {fig3.cfg.fractions[-1]} in {conf_stuck} seeds (live: "
        f"{trained(fig3.d1_stuck)} of {len(fig3.d1_final)})"))
    glue("ledger_tally", claims.tally(), display=False)

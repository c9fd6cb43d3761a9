"""What ``book/liu2023_omnigrok`` reads off its stored teacher–student runs: the confirmation of the book-scale
comparisons on fresh seeds, and the runs at the official settings (three seeds, six more, nine fresh students); the
claims it registers on them, what it prints, what it glues into the prose, and their "Paper versus ours" rows. The
live runs are read in :mod:`repro.book.readouts.liu2023_omnigrok`, the other stored runs in
:mod:`repro.book.readouts.liu2023_omnigrok_stored`.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from IPython.display import display

from repro.book.readouts.liu2023_omnigrok import seeds_text
from repro.core.prose import glue
from repro.experiments.liu2023_omnigrok import (confirmation_config, seed_slopes, stored_confirmation, stored_ts,
                                                stored_ts_config, stored_ts_landscape_seeds, stored_ts_lower_arm,
                                                ts_book_statistics)
from repro.experiments.liu2023_omnigrok_setup import stored_teacher_student_setup_table
from repro.training.store import load_stored, provenance_line, require_stored

# the prefixes of the stored teacher–student runs' claim names
CONFIRM = "confirmation (fresh seeds, stored): "
TSS = "TS (stored, official settings): "
TSS9 = "TS (stored, official settings, 9 seeds): "
TSL = "TS (stored, fresh students 2000-2008): log10 largest train MSE for alpha>=1 after 10^4 steps"


# ---------------------------------------------------------------------------- teacher–student, stored confirmation

def record_confirmation(claims) -> None:
    """Prints and registers the six book-scale comparisons again on the stored run with fresh seeds (1000-1004)."""
    conf = stored_confirmation("_results")
    if conf is None:
        print("the stored confirmation is missing: run `python -m repro.experiments.liu2023_omnigrok --store "
              "book/_results --run confirm` from the repository root (under a minute on one core)")
        return
    conf_land, conf_grok, conf_man = conf
    print(f"{conf_man['label']}: {provenance_line(conf_man)}, {conf_man['wall_time_s'] / 60:.1f} min")
    conf_stats = ts_book_statistics(confirmation_config(), land=conf_land, grok=conf_grok)
    for key, name in (("top", "TS: log10 train MSE at alpha=0.1, the L's upper arm (median over seeds)"),
                      ("knee", "TS: log10 train MSE at alpha=0.25, the L's knee (median over seeds)"),
                      ("never", "TS: alpha=2, gamma=0: fraction of seeds reaching 95 % test"),
                      ("plateau_acc", "TS: alpha=2, gamma=0: final test accuracy, the plateau (median over seeds)"),
                      ("plateau_drift", "TS: alpha=2, gamma=0: change of log10 test loss over the second half "
                                        "(median over seeds)"),
                      ("ctrl_lag", "TS: alpha=0.5 control, steps from 95 % train to 95 % test (median)")):
        value, seeds = conf_stats[key]
        print(f"{name}: {value:.3g} (seeds " + ", ".join(f"{v:.3g}" for v in seeds) + ")")
        claims.check(CONFIRM + name, value, live=False, run=conf_man, seeds=seeds,
                     statistic="mean" if key == "never" else "median")


# ------------------------------------------------------------------------- teacher–student, official settings

def report_stored_ts() -> SimpleNamespace:
    """Loads the official-settings teacher–student run; prints, shows and glues its statistics; returns them."""
    cfg = stored_ts_config()
    land, grok, mans = require_stored(
        stored_ts(cfg, "_results"), "teacher-student run",
        "python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts", "about 20 minutes on one core")
    for m in mans:
        print(f"{m['label']}: {provenance_line(m)}, {m['wall_time_s'] / 60:.0f} min")
    glue("tss_minutes", f"{sum(m['wall_time_s'] for m in mans) / 60:.0f}", display=False)
    display(stored_teacher_student_setup_table(cfg))
    ta = land.alphas
    j4 = int(np.flatnonzero(land.history.steps == 10_000)[0])  # the notebook's budget
    t_i1, t_i10 = int(np.argmin(abs(np.log10(ta)))), int(np.argmin(abs(ta - 10.0)))
    t_i025 = int(np.argmin(abs(ta - 0.251)))
    tr4, te4 = land.seed_values("train_loss", j4), land.seed_values("val_loss", j4)
    seed = {"floor4": land.lower_arm(j4), "floor5": land.lower_arm(-1),
            "rise10": np.log10(te4[:, t_i10] / te4[:, t_i1]), "fall01": np.log10(te4[:, 0] / te4[:, t_i1]),
            "top": np.log10(tr4[:, 0]), "knee": np.log10(tr4[:, t_i025])}
    tss = {k: float(np.median(v)) for k, v in seed.items()}
    for k, label in (("floor4", "log10 largest train MSE for alpha >= 1 after 10^4 steps (official log: at most -5.40)"),
                     ("floor5", "the same after 10^5 steps"),
                     ("rise10", "log10 test-loss rise alpha 1 -> 10 after 10^4 steps (table: 5.09)"),
                     ("fall01", "log10 test-loss fall alpha 0.1 -> 1 after 10^4 steps (table: 2.31)"),
                     ("top", "log10 train MSE at alpha = 0.1 after 10^4 steps (table: -1.85)"),
                     ("knee", "log10 train MSE at alpha = 0.25 after 10^4 steps (table: -2.85)")):
        print(f"{label}: median {tss[k]:.2f}; seeds " + seeds_text(seed[k]))
    n_tsw = grok.n_sweep
    slopes = seed_slopes(grok)
    slope = float(np.median(slopes))
    gammas = np.asarray(grok.gammas[:n_tsw])
    steps = grok.seed_test_steps[:, :n_tsw].astype(float)
    law = np.log(2) / (cfg.grok_lr * gammas)  # steps from alpha = 2 down to alpha = 1 under AdamW's decay
    ratio = np.log10(np.where(steps > 0, steps, np.inf) / law)  # never generalized: +inf (censored)
    ratio_med = float(np.median(ratio))
    never = grok.seed_test_steps[:, n_tsw] > 0
    print("gamma:                 " + "  ".join(f"{g:7.3f}" for g in gammas))
    print("ln 2 / (lr gamma):     " + "  ".join(f"{t:7.0f}" for t in law))
    for s, row in enumerate(grok.seed_test_steps[:, :n_tsw]):
        print(f"seed {s}: steps to 95 % test " + "  ".join(f"{t:7d}" for t in row))
    print(f"log-log slope, median of per-seed slopes: {slope:.2f} (seeds " + seeds_text(slopes) + ")")
    print(f"log10 (steps to 95 % test) / (ln 2 / (lr gamma)): median over gammas and seeds {ratio_med:.2f}")
    print(f"alpha = 2, gamma = 0: seeds reaching 95 % test in {cfg.grok_steps:,} steps: {int(never.sum())} of "
          f"{len(never)}")
    for k in tss:
        glue(f"tss_{k}", f"{tss[k]:.2f}", display=False)
    glue("tss_slope", f"{slope:.2f}", display=False)
    glue("tss_law", f"{ratio_med:.2f}", display=False)
    return SimpleNamespace(cfg=cfg, land=land, grok=grok, mans=mans, seed=seed, tss=tss, slopes=slopes, slope=slope,
                           gammas=gammas, law=law, ratio=ratio, ratio_med=ratio_med, never=never)


def record_stored_ts(claims, tss: SimpleNamespace) -> None:
    """Registers the official-settings claims (table, slope, time law, no decay); glues the implied norm fall."""
    med, seed = tss.tss, tss.seed
    tss_seeds_text = {k: seeds_text(vals) for k, vals in seed.items()}
    tss_evidence = {  # what a deviation quotes
        "floor4": f"after the notebook's 10^4 steps at lr 3e-4 the largest train MSE for alpha >= 1 is 10^{med['floor4']:.2f} "
                  f"(seeds {tss_seeds_text['floor4']}), not below 10^-6, a bound the official log does not meet either "
                  "(it prints up to 4e-6 for alpha >= 1 after step 5,000)",
        "floor5": f"after 10^5 steps it is 10^{med['floor5']:.2f} (seeds {tss_seeds_text['floor5']}): runs at large alpha "
                  "that had gone far lower rise again under constant-rate Adam",
        "knee": f"the knee is at 10^{med['knee']:.2f} (seeds {tss_seeds_text['knee']}), at the edge of ±0.5 decades from "
                "the table's -2.85; our teacher and data are not the notebook's"}
    for k, name in (("floor4", "log10 largest train MSE for alpha>=1 after 10^4 steps, the L's lower arm (median over seeds)"),
                    ("floor5", "log10 largest train MSE for alpha>=1 after 10^5 steps, the L's lower arm (median over seeds)"),
                    ("rise10", "log10 test-loss rise alpha 1 -> 10 after 10^4 steps (median over seeds)"),
                    ("fall01", "log10 test-loss fall alpha 0.1 -> 1 after 10^4 steps (median over seeds)"),
                    ("top", "log10 train MSE at alpha=0.1 after 10^4 steps, the L's upper arm (median over seeds)"),
                    ("knee", "log10 train MSE at alpha=0.25 after 10^4 steps, the L's knee (median over seeds)")):
        claims.check(TSS + name, med[k], live=False, run=tss.mans[0], seeds=seed[k], statistic="median",
                     evidence=tss_evidence.get(k, ""))
    claims.check(TSS + "steps-to-test vs gamma, log-log slope (median of per-seed slopes)", tss.slope, live=False,
                 run=tss.mans[1], seeds=tss.slopes, statistic="median")
    tss_implied = 2 ** (10 ** tss.ratio_med)  # the w0/wc that would make the law hold
    glue("tss_implied", f"{tss_implied:.1f}", display=False)
    glue("tss_alpha_c", f"{2 / tss_implied:.1f}", display=False)
    claims.check(TSS + "log10 of the steps to 95 % test over ln(2)/(lr gamma), median over the gamma sweep and seeds",
                 tss.ratio_med, live=False, run=tss.mans[1],
                 evidence=f"the students reach 95 % test accuracy 10^{tss.ratio_med:.2f} times ln(2)/(lr gamma) steps, "
                          f"at every gamma and seed (log10 ratios {np.nanmin(tss.ratio):.2f} to {np.nanmax(tss.ratio):.2f}), "
                          f"while the slope is {tss.slope:.2f}: the decay time holds, but they generalize once the norm has "
                          f"fallen by {tss_implied:.1f}x, not 2x (reading the time law with w0/wc = 2 was ours)")
    claims.check(TSS + "alpha=2, gamma=0: fraction of seeds reaching 95 % test in 10^5 steps", float(tss.never.mean()),
                 live=False, run=tss.mans[1])


def record_nine_seed_floor(claims, tss: SimpleNamespace) -> SimpleNamespace:
    """Prints, glues and registers the L's lower arm on nine seeds; returns medians, names and the run."""
    tsm = stored_ts_landscape_seeds("_results")
    names = {k: TSS9 + f"log10 largest train MSE for alpha>=1 after 10^{e} steps, the L's lower arm (median over seeds)"
             for k, e in (("floor4", 4), ("floor5", 5))}
    nine = SimpleNamespace(stored=tsm, names=names, values={}, seeds={}, man=None)
    if tsm is None:
        print("The six-seed landscape is not stored yet (the command above computes it); its claims are not judged.")
        glue("tsm_minutes", "(not stored yet)", display=False)
        for k in names:
            glue(f"tss9_{k}", "(not stored yet)", display=False)
        return nine
    tsm_land, nine.man = load_stored(tsm, "six-seed teacher-student landscape",
                                     "python -m repro.experiments.liu2023_omnigrok --store book/_results --run ts-seeds",
                                     "about 20 minutes on one core", glue_minutes="tsm_minutes")
    jm4 = int(np.flatnonzero(tsm_land.history.steps == 10_000)[0])
    more = {"floor4": tsm_land.lower_arm(jm4), "floor5": tsm_land.lower_arm(-1)}
    for k, after in (("floor4", "10^4"), ("floor5", "10^5")):
        vals = nine.seeds[k] = np.concatenate([tss.seed[k], more[k]])  # students 1-3, then 4-9
        nine.values[k] = float(np.median(vals))
        print(f"log10 largest train MSE for alpha >= 1 after {after} steps: median of 9 seeds {nine.values[k]:.2f}; "
              "seeds 1-9 " + seeds_text(vals) + f"; seeds below -6: {int((vals <= -6).sum())} of 9")
        glue(f"tss9_{k}", f"{nine.values[k]:.2f}", display=False)
        claims.check(names[k], nine.values[k], live=False, run=[tss.mans[0], nine.man], seeds=vals, statistic="median",
                     evidence=f"after {after} steps at lr 3e-4 the largest train MSE for alpha >= 1 is "
                              f"10^{nine.values[k]:.2f} (median of nine students; seeds " + seeds_text(vals)
                              + "), not below 10^-6; our teacher and data are not the notebook's")
    return nine


def record_fresh_students(claims, tss: SimpleNamespace, nine: SimpleNamespace) -> SimpleNamespace:
    """Registers nine seeds against 4e-6 and the fresh students 2000-2008; returns their names and values."""
    for k, after in (("floor4", "10^4"), ("floor5", "10^5")):
        if nine.stored is not None:
            claims.check(TSS9 + f"log10 largest train MSE for alpha>=1 after {after} steps against the official log's largest "
                         "late value 4e-6 (median over seeds)", nine.values[k], live=False, run=[tss.mans[0], nine.man],
                         seeds=nine.seeds[k], statistic="median")
    tsl = stored_ts_lower_arm("_results")
    fresh = SimpleNamespace(stored=tsl, seeds=None,
                            names=[TSL + " against the official log's largest late value 4e-6 (median over seeds)",
                                   TSL + ", below the 1e-5 the official plot adds (median over seeds)"])
    if tsl is None:
        print("The fresh-student landscape is not stored yet (the command above computes it); its claims are not judged.")
        for key in ("tsl_minutes", "tsl_floor"):
            glue(key, "(not stored yet)", display=False)
        return fresh
    tsl_land, tsl_man = load_stored(tsl, "fresh-student teacher-student landscape",
                                    "python -m repro.experiments.liu2023_omnigrok --store book/_results --run lower-arm",
                                    "about 4 minutes on one core", glue_minutes="tsl_minutes")
    tsl_seeds = fresh.seeds = tsl_land.lower_arm(-1)
    tsl_med = float(np.median(tsl_seeds))
    print(f"log10 largest train MSE for alpha >= 1 after 10^4 steps: median of 9 students {tsl_med:.2f}; students "
          "2000-2008 " + seeds_text(tsl_seeds) + f"; above 4e-6: {int((tsl_seeds > np.log10(4e-6)).sum())}"
          f" of 9; above 1e-5: {int((tsl_seeds > -5).sum())} of 9")
    glue("tsl_floor", f"{tsl_med:.2f}", display=False)
    for name in fresh.names:  # sealed when the run started
        claims.check(name, tsl_med, live=False, run=tsl_man, seeds=tsl_seeds, statistic="median",
                     evidence="students 2000-2008: " + seeds_text(tsl_seeds))
    return fresh


def record_stored_ts_figures(claims, *, tss: SimpleNamespace, nine: SimpleNamespace, fresh: SimpleNamespace) -> None:
    """Registers the figure rows of the teacher–student runs at the official settings: Fig. 2a and Fig. 2b-c."""
    tss_2a = [TSS + n for n in (
        "log10 largest train MSE for alpha>=1 after 10^4 steps, the L's lower arm (median over seeds)",
        "log10 largest train MSE for alpha>=1 after 10^5 steps, the L's lower arm (median over seeds)",
        "log10 test-loss rise alpha 1 -> 10 after 10^4 steps (median over seeds)",
        "log10 test-loss fall alpha 0.1 -> 1 after 10^4 steps (median over seeds)",
        "log10 train MSE at alpha=0.1 after 10^4 steps, the L's upper arm (median over seeds)",
        "log10 train MSE at alpha=0.25 after 10^4 steps, the L's knee (median over seeds)")]
    tss9 = nine.values
    tss_2a += list(nine.names.values()) if tss9 else []  # the nine-seed floors, once stored
    tss_2a += [TSS9 + f"log10 largest train MSE for alpha>=1 after 10^{e} steps against the official log's largest late "
               "value 4e-6 (median over seeds)" for e in (4, 5)] if tss9 else []
    tss_2a += fresh.names if fresh.stored is not None else []  # the fresh students, once stored
    claims.figure("liu2023", "Fig. 2a (official settings, stored)", scale="paper (CPU, stored)",
                  claims=tss_2a,
                  why=f"lr 3e-4, the notebook's 11 norms, 10^4 and 10^5 projected Adam steps, three seeds, claims sealed "
                      f"before the run: the L's lower arm reaches 10^{tss.tss['floor4']:.1f} after 10^4 steps and "
                      f"10^{tss.tss['floor5']:.1f} after 10^5 (the official log: up to 4e-6 for alpha >= 1; our first "
                      "bound, 1e-6, misread it and is now a check)"
                      + (f"; on nine seeds 10^{tss9['floor4']:.1f} and 10^{tss9['floor5']:.1f}" if tss9 else "")
                      + (f"; on nine fresh students, sealed, 10^{float(np.median(fresh.seeds)):.2f} after 10^4"
                         if fresh.stored is not None else ""))
    tss_2bc = [TSS + n for n in ("steps-to-test vs gamma, log-log slope (median of per-seed slopes)",
                                 "log10 of the steps to 95 % test over ln(2)/(lr gamma), median over the gamma sweep and "
                                 "seeds", "alpha=2, gamma=0: fraction of seeds reaching 95 % test in 10^5 steps")]
    claims.figure("liu2023", "Fig. 2b-c (official settings, stored)", scale="paper (CPU, stored)",
                  claims=tss_2bc,
                  why=f"AdamW at lr 3e-4 for 10^5 steps, alpha = 2 against 8 decays, three seeds, claims sealed before the "
                      f"run: slope {tss.slope:.2f}; the steps to 95 % test sit at 10^{tss.ratio_med:.2f} times the talk's "
                      f"ln(w0/wc)/(lr gamma) with w0/wc = 2 (median); without decay {int(tss.never.sum())} of "
                      f"{len(tss.never)} seeds generalize")

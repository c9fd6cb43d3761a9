"""What ``book/liu2022_effective_theory`` reads off its runs: the parallelogram count, the reference run against the
official printout, the effective theory's timing over starts (Fig. 4c, d), the 1-D and 2-D init-seed spreads and
their stored confirmation, Fig. 2 at the official 2-D setting (stored), and the "Paper versus ours" rows of Figs 2
and 4. Appendix H (the group S3) is read in :mod:`repro.book.readouts.liu2022_effective_theory_s3`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from repro.core.portable import approx, describe_seeds, seed_median, trained
from repro.core.prose import glue
from repro.experiments.liu2022_critical_data import effective_rqi_steps
from repro.experiments.liu2022_effective_theory import (CONFIRM_PREFIX, SPREAD_NAMES, fig2_data, pizza_purity,
                                                        reached_quantiles, spread_statistics, stored_confirmation,
                                                        stored_fig2, unseen_validation)
from repro.theory import liu2022 as theory

REF_RES = 50  # display grid of the reference run's threshold steps (tolerance ± 20; evaluations every 10 steps)
SPREAD_RES = 100  # display grid of the seeds' crossing steps: the claim's tolerance is ± 1.5 n_h, about ± 600 steps
RQI_RES = 0.05  # display grid of final RQIs


def check_parallelogram_count(claims, cfg) -> None:
    """Prints |D0|, |P0| and the RQI of a line, and registers the |P0| = 70 check."""
    P0 = theory.parallelograms(theory.unordered_pairs(cfg.p), cfg.p)
    rqi_line = theory.rqi(2.0 + 0.3 * np.arange(cfg.p), None, cfg.p)
    print(f"|D0| = {len(theory.unordered_pairs(cfg.p))}, |P0| = {len(P0)}, RQI of a line = {rqi_line:.2f}")
    claims.check("|P0|: parallelograms of the full p = 10 table", len(P0), live=False)
    assert rqi_line == 1.0


def report_reference_theory(ref, cfg) -> None:
    """Glues the reference split's lambda_3, n_h and |P0(D)| (and n_h with the literal 1/|P0(D)|), and prints them."""
    # The effective theory is float64 numpy from the network's initial embeddings (drawn before any float32
    # arithmetic), so its numbers are the same on every CPU; they are printed in full.
    glue("lambda3", f"{ref.grokking_rate:.1f}", display=False)
    glue("n_h", f"{ref.n_h:.0f}", display=False)
    p0d = len(theory.parallelograms(ref.train_pairs, cfg.p))
    glue("p0d_count", str(p0d), display=False)
    glue("n_h_literal", approx(p0d * ref.n_h, digits=2), display=False)
    print(f"theory: lambda_3 = {ref.grokking_rate:.1f}, n_h = {ref.n_h:.0f} steps, "
          f"effective RQI > 0.95 at step {ref.effective_rqi_step}")


def record_reference_steps(claims, ref) -> None:
    """Registers, glues and prints the reference run's three threshold steps against the official printout."""
    for key, label, ours, official in (("train_step", "train acc >= 0.9", ref.train_step, 1130),
                                       ("val_step", "val acc >= 0.9", ref.val_step, 1530),
                                       ("rqi_step", "RQI > 0.95", ref.rqi_step, 800)):
        glue(key, trained(ours, REF_RES), display=False)
        claims.check(f"reference run: step of {label}", ours, reference=official)
        print(f"reference run, {label}: step ≈ {trained(ours, REF_RES)} (official {official}; within ± 20: "
              f"{'yes' if abs(ours - official) <= 20 else 'NO'})")


@dataclass
class Fig4Timing:
    """Steps to RQI > 0.95 of the network and both integrators, each in its own n_h (Fig. 4c, d)."""
    cfg: object  # ToyConfig of the spread
    ref: object  # the reference run
    spread: object  # the network over init seeds
    starts: object  # IntegratorSpread: both integrators over the random starts
    seeds: tuple  # the starts' init seeds
    r_train: np.ndarray  # eq. (5) per start, in the training set's n_h
    r_all: np.ndarray  # official integrator per start, in its own n_h
    i_ref: int  # index of the paper's start among the starts
    net_ratio: float
    eff_ratio: float
    eff_all_ratio: float
    z_steps: dict  # frozen Z0 (True) / current Z0 (False) -> eq. (5)'s crossing step from the reference start
    eff_all_ref: int  # official integrator's crossing step from the reference start


def fig4_timing(*, cfg, ref, spread, starts, seeds) -> Fig4Timing:
    """The medians and the paper's start's crossings of the network and both integrators (registers nothing)."""
    r_train, r_all = starts.ratio("train"), starts.ratio("all")
    i_ref = seeds.index(cfg.reference_seed)
    # Z0: frozen (official) against current (ours), eq. (5) from the reference start, every step resolved
    z_steps = {frozen: int(effective_rqi_steps(cfg, ref.embeddings[:1], ref.train_pairs, freeze_z0=frozen,
                                                record_every=1)[0]) for frozen in (True, False)}
    return Fig4Timing(cfg=cfg, ref=ref, spread=spread, starts=starts, seeds=seeds, r_train=r_train, r_all=r_all,
                      i_ref=i_ref, net_ratio=seed_median(spread.rqi_step) / ref.n_h, eff_ratio=seed_median(r_train),
                      eff_all_ratio=seed_median(r_all), z_steps=z_steps, eff_all_ref=int(starts.crossing["all"][i_ref]))


def report_fig4_timing(t: Fig4Timing) -> None:
    """Glues the prose's timing values of Fig. 4(c, d) and prints the medians and the paper's start."""
    cfg, ref, spread, starts, STARTS = t.cfg, t.ref, t.spread, t.starts, t.seeds
    r_train, r_all, i_ref, z_steps, eff_all_ref = t.r_train, t.r_all, t.i_ref, t.z_steps, t.eff_all_ref
    for key, value in (("n_starts", str(len(STARTS))), ("last_start", str(max(STARTS))), ("n_spread", str(len(spread.seeds))),
                       ("spread_steps_budget", f"{cfg.reference_steps:,}"), ("n_h_full", f"{starts.n_h['all']:.0f}"),
                       ("eff_train_spread", describe_seeds(r_train, 0.1, unit="n_h", live=False)),
                       ("eff_all_spread", describe_seeds(r_all, 0.1, unit="n_h", live=False)),
                       ("eff_train_range", "–".join(approx(q, 0.1) for q in reached_quantiles(r_train, [0.1, 0.9]))),
                       ("eff_all_range", "–".join(approx(q, 0.1) for q in reached_quantiles(r_all, [0.1, 0.9]))),
                       ("eff_train_p90", approx(reached_quantiles(r_train, 0.9), 0.1)),
                       ("spread_steps", describe_seeds(spread.rqi_step, SPREAD_RES)),
                       ("net_ratio", trained(t.net_ratio, 0.1)),
                       ("net_ref_ratio", trained(ref.rqi_step / ref.n_h, 0.1)),
                       ("eff_frozen_step", f"{z_steps[True]:,}"), ("eff_current_step", f"{z_steps[False]:,}"),
                       ("eff_ref_ratio", approx(z_steps[False] / ref.n_h, 0.1)),
                       ("eff_ref_slower", f"{int(np.sum((r_train >= 0) & (r_train < r_train[i_ref])))}"),
                       ("eff_all_ref_step", f"{eff_all_ref:,}"), ("eff_all_ref_own", approx(r_all[i_ref], 0.1)),
                       ("eff_all_ref_train", approx(eff_all_ref / ref.n_h, 0.1)),
                       ("eff_steps_budget", f"{cfg.effective_steps:,}")):
        glue(key, value, display=False)
    print(f"n_h: training set {ref.n_h:.0f} steps (network, eq. 5), full table {starts.n_h['all']:.0f} steps "
          "(official integrator)")
    print(f"steps to RQI > 0.95 in own n_h, medians: network {trained(t.net_ratio, 0.1)} ({len(spread.seeds)} seeds), "
          f"eq. (5) {approx(t.eff_ratio, 0.1)}, official integrator {approx(t.eff_all_ratio, 0.1)} ({len(STARTS)} starts)")
    print(f"network steps to RQI > 0.95 over init seeds: {describe_seeds(spread.rqi_step, SPREAD_RES)}")
    print(f"eq. (5) with P0(D), in n_h: {describe_seeds(r_train, 0.1, live=False)}")
    print(f"official integrator, in its own n_h: {describe_seeds(r_all, 0.1, live=False)}")
    print(f"the paper's start (seed {cfg.reference_seed}): network {trained(ref.rqi_step / ref.n_h, 0.1)} n_h; eq. (5) "
          f"{approx(z_steps[False] / ref.n_h, 0.1)} n_h (frozen Z0 step {z_steps[True]}, current Z0 step {z_steps[False]}); "
          f"official integrator {approx(r_all[i_ref], 0.1)} own n_h = {approx(eff_all_ref / ref.n_h, 0.1)} training-set n_h")


def record_fig4_timing(claims, t: Fig4Timing) -> None:
    """Registers the "about 3 n_h" claims: medians over seeds and starts, the paper's start, frozen against current Z0."""
    cfg, ref, spread, starts = t.cfg, t.ref, t.spread, t.starts
    r_train, r_all, i_ref, z_steps, eff_all_ref = t.r_train, t.r_all, t.i_ref, t.z_steps, t.eff_all_ref
    claims.check("network, median over init seeds: steps to RQI > 0.95 / n_h", t.net_ratio,
                 seeds=np.where(spread.rqi_step >= 0, spread.rqi_step / ref.n_h, np.nan))  # seeds that never cross: left out
    per_start = lambda r: dict(seeds=np.where(r >= 0, r, np.nan), statistic="median")  # the spread over the random starts
    claims.check("eq. (5) as printed (P0(D)), median over starts: steps to RQI > 0.95 / n_h", t.eff_ratio, live=False,
                 **per_start(r_train))
    claims.check("official integrator (all of P0), median over starts: steps to RQI > 0.95 / its own n_h",
                 t.eff_all_ratio, live=False, **per_start(r_all))
    claims.check("official integrator, the paper's start: steps to RQI > 0.95 / the training set's n_h",
                 eff_all_ref / ref.n_h, live=False)
    claims.check("official integrator, the paper's start: steps to RQI > 0.95 / its own n_h", r_all[i_ref], live=False,
                 evidence=f"the trajectory of Fig. 4(c) (seed {cfg.reference_seed}, all 70 parallelograms) crosses at step "
                          f"{eff_all_ref}, {approx(r_all[i_ref], 0.1)} of the full table's n_h = {starts.n_h['all']:.0f}; "
                          f"the median start needs {approx(t.eff_all_ratio, 0.1)}: the paper's start is a slow one")
    claims.check("eq. (5) as printed, the paper's start: steps to RQI > 0.95 / n_h", z_steps[False] / ref.n_h, live=False,
                 evidence=f"from seed {cfg.reference_seed} eq. (5) crosses at step {z_steps[False]} (every step resolved), "
                          f"{approx(z_steps[False] / ref.n_h, 0.1)} n_h; the median of {len(t.seeds)} starts is "
                          f"{approx(t.eff_ratio, 0.1)}; freezing Z0 moves the crossing by {abs(z_steps[True] - z_steps[False])} steps")
    claims.check("eq. (5), reference start: frozen-Z0 crossing step / current-Z0 crossing step", z_steps[True] /
                 z_steps[False], live=False)


def record_final_embeddings(claims, spread, ref_cfg) -> None:
    """Glues, prints and registers the reference run's final accuracy and RQI; prints the 1-D and 2-D seed spreads."""
    comp = spread.comparison
    glue("ref_steps", f"{ref_cfg.reference_steps:,}", display=False)
    glue("ref_rqi", trained(comp.rqi[1], 0.01), display=False)
    glue("ref_val_correct", trained(round(10 * comp.val_acc[1])), display=False)
    print(f"reference run at step {ref_cfg.reference_steps}: {trained(round(10 * comp.val_acc[1]))} of 10 validation "
          f"samples answered, RQI {trained(comp.rqi[1], 0.01)}")
    claims.check("reference run: final validation accuracy (step 5000)", comp.val_acc[1])
    claims.check("reference run: final RQI (step 5000)", comp.rqi[1])
    for d in (1, 2):
        print(f"{d}-D embeddings, final validation accuracy {describe_seeds(spread.val_acc[d], 0.1)}")
        print(f"{d}-D embeddings, final RQI {describe_seeds(spread.rqi[d], RQI_RES)}")


def record_seed_medians(claims, spread) -> None:
    """Registers the medians over init seeds: the 1-D network generalizes with RQI > 0.95, the 2-D one memorizes."""
    for name, (ours, per_seed) in spread_statistics(spread.val_acc[1], spread.rqi[1]).items():  # the 1-D medians
        claims.check(name, ours, seeds=per_seed)
    claims.check("2-D embeddings, median over init seeds: final validation accuracy", np.median(spread.val_acc[2]),
                 seeds=spread.val_acc[2])
    claims.check("2-D embeddings, median over init seeds: final RQI", np.median(spread.rqi[2]), seeds=spread.rqi[2])


def record_confirmation(claims) -> None:
    """Loads the stored confirmation on fresh seeds, prints its final RQI and registers it (or says how to store it)."""
    confirm = stored_confirmation("_results")
    if confirm is None:
        print("No stored confirmation: run `python -m repro.experiments.liu2022_effective_theory --store book/_results "
              "--run confirm` to add it.")
    else:
        conf, conf_manifest = confirm
        rqi_name = SPREAD_NAMES["rqi"]
        ours, per_seed = conf.statistics()[rqi_name]
        print(f"confirmation, init seeds {conf.seeds.min()}–{conf.seeds.max()}: final RQI "
              f"{describe_seeds(per_seed, RQI_RES, live=False)}")
        claims.check(CONFIRM_PREFIX + rqi_name, ours, live=False, run=conf_manifest, seeds=per_seed)


@dataclass
class Fig2Readout:
    """Fig. 2 at the official 2-D setting: the addition split's counts and, when stored, both runs and their picks."""
    cfgs: dict  # operation -> Fig2Config
    data_add: object  # the addition task's data (official split)
    n_unseen: int  # validation samples of the addition split whose mirror is not trained
    stored: bool = False
    add_run: object = None
    mod_run: object = None
    add_manifest: dict | None = None
    mod_manifest: dict | None = None
    circ: np.ndarray | None = None  # per modular seed: circularity, cyclic-order step, its fit
    order_k: np.ndarray | None = None
    order_fit: np.ndarray | None = None
    rqi_add: np.ndarray | None = None  # per addition seed: final RQI
    val_mod: np.ndarray | None = None  # per modular seed: final validation accuracy
    picks: tuple = ()  # panels (a)-(d): fewest/most parallelograms, lowest/highest modular validation accuracy
    best: dict | None = None  # the best seed's values the claims compare


def load_fig2(cfgs) -> Fig2Readout:
    """Glues the addition split's counts, loads the stored Fig. 2 runs, prints each seed's accuracies and structure."""
    fig2_data_add = fig2_data(cfgs["addition"])
    n_unseen = len(unseen_validation(fig2_data_add))
    glue("fig2_n_val", str(len(fig2_data_add.val_idx)), display=False)
    glue("fig2_n_mirror", str(len(fig2_data_add.val_idx) - n_unseen), display=False)
    glue("fig2_n_unseen", str(n_unseen), display=False)
    glue("fig2_n_seeds", str(len(cfgs["addition"].seeds)), display=False)
    glue("fig2_n_p0", str(len(theory.parallelograms(theory.unordered_pairs(cfgs["addition"].p), cfgs["addition"].p))),
         display=False)
    glue("fig2_run_steps", approx(sum(len(c.seeds) * c.steps for c in cfgs.values()), digits=2), display=False)
    out = Fig2Readout(cfgs=cfgs, data_add=fig2_data_add, n_unseen=n_unseen)
    fig2 = {op: stored_fig2(c, "_results") for op, c in cfgs.items()}
    if not all(v is not None for v in fig2.values()):
        print("No stored Fig. 2 runs: run `python -m repro.experiments.liu2022_effective_theory --store book/_results` to add them.")
        return out
    add_run, mod_run = fig2["addition"][0], fig2["modular_addition"][0]
    print(f"stored runs: {fig2['addition'][1]['device']}, torch {fig2['addition'][1]['torch_version']}, "
          f"commit {fig2['addition'][1]['git_commit'][:10]}")
    circ, order_k, order_fit = mod_run.circle()
    for name, run, structure in (("addition", add_run, [f"RQI {q:.2f}" for q in add_run.rqi()]),
                                 ("modular addition", mod_run,
                                  [f"circularity {c:.2f}, cyclic order step {k} fit {f:.2f}"
                                   for c, k, f in zip(circ, order_k, order_fit)])):
        print(f"{name}, step {run.steps[-1]}:")
        for r, seed in enumerate(run.seeds):
            print(f"  seed {seed}: train {run.final('train_acc')[r]:.2f}, validation {run.final('val_acc')[r]:.2f}, "
                  f"unseen {run.final('unseen_acc')[r]:.2f}; {structure[r]}")
    rqi_add, val_mod = add_run.rqi(), mod_run.final("val_acc")
    picks = (int(np.argmin(rqi_add)), int(np.argmax(rqi_add)), int(np.argmin(val_mod)), int(np.argmax(val_mod)))
    best = {"add_val": add_run.final("val_acc").max(), "add_unseen": add_run.final("unseen_acc").max(),
            "add_rqi": rqi_add.max(), "mod_val": val_mod.max(), "mod_fit": order_fit.max(), "mod_circ": circ.max()}
    return Fig2Readout(cfgs=cfgs, data_add=fig2_data_add, n_unseen=n_unseen, stored=True, add_run=add_run,
                       mod_run=mod_run, add_manifest=fig2["addition"][1], mod_manifest=fig2["modular_addition"][1],
                       circ=circ, order_k=order_k, order_fit=order_fit, rqi_add=rqi_add, val_mod=val_mod, picks=picks,
                       best=best)


def fig2_panels(fig2: Fig2Readout) -> list:
    """The four panels of Fig. 2 as (title, run, seed index), for :func:`plot_fig2`."""
    i_a, i_b, i_c, i_d = fig2.picks
    return [("(a) addition: fewest parallelograms", fig2.add_run, i_a), ("(b) addition: most parallelograms", fig2.add_run, i_b),
            ("(c) modular: lowest validation acc", fig2.mod_run, i_c), ("(d) modular: highest validation acc", fig2.mod_run, i_d)]


def report_fig2_structure(fig2: Fig2Readout) -> None:
    """Glues the best seeds' values, the memorizing seeds and the decoders' 'pizza' purity, and prints the purity."""
    if not fig2.stored:
        for key in ("add_val", "add_unseen", "add_rqi", "mod_val", "mod_fit", "mod_circ"):
            glue(f"fig2_best_{key}", "n/a (not stored)", display=False)
        for key in ("fig2_add_rqi_seed", "fig2_add_rqi_unseen", "fig2_add_val_median", "fig2_mod_val_median",
                    "fig2_add_parallelogram_seeds", "fig2_purity_c", "fig2_purity_d", "fig2_add_memo", "fig2_mod_memo"):
            glue(key, "n/a (not stored)", display=False)
        return
    add_run, mod_run, rqi_add = fig2.add_run, fig2.mod_run, fig2.rqi_add
    _, i_b, i_c, i_d = fig2.picks
    purity = {key: pizza_purity(mod_run, i) for key, i in (("c", i_c), ("d", i_d))}
    for key, value in fig2.best.items():  # the cyclic-order fit at 3 decimals: its threshold is 0.95
        glue(f"fig2_best_{key}", f"{value:.3f}" if key == "mod_fit" else f"{value:.2f}", display=False)
    glue("fig2_add_rqi_seed", str(add_run.seeds[i_b]), display=False)
    glue("fig2_add_rqi_unseen", f"{add_run.final('unseen_acc')[i_b]:.2f}", display=False)
    glue("fig2_add_val_median", f"{np.median(add_run.final('val_acc')):.2f}", display=False)
    glue("fig2_mod_val_median", f"{np.median(fig2.val_mod):.2f}", display=False)
    glue("fig2_add_parallelogram_seeds", str(int((rqi_add >= 0.5).sum())), display=False)
    for key, run in (("add", add_run), ("mod", mod_run)):
        memo = int(((run.final("train_acc") >= 0.9) & (run.final("val_acc") < 0.9)).sum())
        glue(f"fig2_{key}_memo", f"{memo} of {len(run.seeds)}", display=False)
    glue("fig2_purity_c", approx(purity["c"], 0.05), display=False)
    glue("fig2_purity_d", approx(purity["d"], 0.05), display=False)
    print(f"decoder class map as angular sectors ('pizza' purity, on rays from the centroid): seed "
          f"{mod_run.seeds[i_c]} {approx(purity['c'], 0.05)}, seed {mod_run.seeds[i_d]} {approx(purity['d'], 0.05)}")


def record_fig2(claims, fig2: Fig2Readout) -> None:
    """Registers the four Fig. 2 claims on the best stored seed (nothing when the runs are not stored)."""
    if not fig2.stored:
        return
    add_run, fig2_best, n_unseen, n_val = fig2.add_run, fig2.best, fig2.n_unseen, len(fig2.data_add.val_idx)
    evid = (f"{len(add_run.seeds)} init seeds each at the official setting (randn + 1 init, the notebooks' decoder "
            "input and decoder, data split, rates, 2e4 steps); not run: other decoder rates or decays")
    claims.check("Fig. 2 addition (official 2-D setting, stored), best seed: final validation accuracy",
                 fig2_best["add_val"], live=False, run=fig2.add_manifest,
                 evidence=evid + f"; {n_val - n_unseen} of the {n_val} "
                                 "validation samples are mirrors of training pairs")
    claims.check("Fig. 2 addition (official 2-D setting, stored), best seed: accuracy on unseen validation samples",
                 fig2_best["add_unseen"], live=False, run=fig2.add_manifest,
                 evidence=evid + f"; the {n_unseen} unseen samples are the only ones a symmetric decoder input "
                                 "does not give away")
    claims.check("Fig. 2 modular addition (official 2-D setting, stored), best seed: final validation accuracy",
                 fig2_best["mod_val"], live=False, run=fig2.mod_manifest,
                 evidence=evid + "; the hyperparameters of the official generalizing modular run are not in the "
                                 "repository (we use the addition run's)")
    claims.check("Fig. 2 modular addition (official 2-D setting, stored), best seed: fit of a cyclic order",
                 fig2_best["mod_fit"], live=False, run=fig2.mod_manifest,
                 evidence=evid + f"; no seed generalizes; the best cyclic-order fit is {fig2_best['mod_fit']:.3f}")


def record_fig2_rows(claims, spread, fig2: Fig2Readout) -> None:
    """Registers the figure rows of Fig. 2a (toy decoder, live) and Fig. 2b, 2c-d (official setting, stored)."""
    fig2a = ["2-D embeddings, median over init seeds: final validation accuracy",
             "2-D embeddings, median over init seeds: final RQI"]
    claims.figure("liu2022", "Fig. 2a", scale="book", claims=fig2a,
                  why="2-D embeddings on the toy decoder memorize without parallelograms (median of "
                      f"{len(spread.seeds)} seeds): Table 1's threshold, a definition, is the evidence; in kind: the "
                      "toy decoder, not the official notebook's ReLU decoder")
    if fig2.stored:
        add_run, mod_run, fig2_best, rqi_add = fig2.add_run, fig2.mod_run, fig2.best, fig2.rqi_add
        fig2b = ["Fig. 2 addition (official 2-D setting, stored), best seed: final validation accuracy",
                 "Fig. 2 addition (official 2-D setting, stored), best seed: accuracy on unseen validation samples"]
        claims.figure("liu2022", "Fig. 2b", scale="paper (CPU, stored)", claims=fig2b,
                      why=f"official setting, {len(add_run.seeds)} seeds x 2e4 steps: best validation accuracy "
                          f"{fig2_best['add_val']:.2f}, {fig2_best['add_unseen']:.2f} on the samples whose mirror is not trained; "
                          f"parallelograms (RQI >= 0.5) in {int((rqi_add >= 0.5).sum())} seed(s) without generalization")
        fig2cd = ["Fig. 2 modular addition (official 2-D setting, stored), best seed: final validation accuracy",
                  "Fig. 2 modular addition (official 2-D setting, stored), best seed: fit of a cyclic order"]
        claims.figure("liu2022", "Fig. 2c-d", scale="paper (CPU, stored)", claims=fig2cd,
                      why=f"the addition run's official setting on modular addition (the generalizing run's is not "
                          f"published), {len(mod_run.seeds)} seeds x 2e4 steps: no seed generalizes (best validation "
                          f"accuracy {fig2_best['mod_val']:.2f}), best cyclic-order fit {fig2_best['mod_fit']:.3f}, "
                          "decoder maps only partly sectors")
    else:
        claims.figure("liu2022", "Fig. 2b", scale="book",
                      why="the official 2-D setting is stored, not live: run python -m repro.experiments.liu2022_effective_theory --store book/_results")
        claims.figure("liu2022", "Fig. 2c-d", scale="book",
                      why="the official 2-D setting is stored, not live: run python -m repro.experiments.liu2022_effective_theory --store book/_results")


def record_fig4_row(claims, t: Fig4Timing) -> None:
    """Registers the figure row of Fig. 4c-d: the reference run, the medians in own n_h and the paper's start."""
    ref, z_steps = t.ref, t.z_steps
    fig4cd = ["reference run: step of train acc >= 0.9", "reference run: step of val acc >= 0.9",
              "reference run: step of RQI > 0.95", "reference run: final validation accuracy (step 5000)",
              "reference run: final RQI (step 5000)",
              "network, median over init seeds: steps to RQI > 0.95 / n_h",
              "eq. (5) as printed (P0(D)), median over starts: steps to RQI > 0.95 / n_h",
              "official integrator (all of P0), median over starts: steps to RQI > 0.95 / its own n_h",
              "official integrator, the paper's start: steps to RQI > 0.95 / the training set's n_h",
              "official integrator, the paper's start: steps to RQI > 0.95 / its own n_h",
              "eq. (5) as printed, the paper's start: steps to RQI > 0.95 / n_h",
              "eq. (5), reference start: frozen-Z0 crossing step / current-Z0 crossing step",
              "1-D embeddings, median over init seeds: final validation accuracy",
              "1-D embeddings, median over init seeds: final RQI"]
    claims.figure("liu2022", "Fig. 4c-d", scale="book", claims=fig4cd,
                  why=f"the network matches the official run step by step; medians in each one's own n_h: network "
                      f"{trained(t.net_ratio, 0.1)}, eq. (5) {approx(t.eff_ratio, 0.1)}, official integrator "
                      f"{approx(t.eff_all_ratio, 0.1)} ({len(t.seeds)} starts): 'about 3'; from the paper's start the "
                      f"integrators need {approx(z_steps[False] / ref.n_h, 0.1)} and {approx(t.r_all[t.i_ref], 0.1)} "
                      f"(about 3 only in the training set's n_h, {approx(t.eff_all_ref / ref.n_h, 0.1)})")

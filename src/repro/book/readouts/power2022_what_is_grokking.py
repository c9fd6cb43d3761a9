"""What ``book/power2022_what_is_grokking`` reads off its runs: the chance check and the Fig. 1 statistics of the live
book-scale seeds, the stored run of Power et al.'s transformer on addition, the stored division runs at 10^5 steps,
the progress of the Fig. 1 run, and the "Paper versus ours" figure rows; the claims each registers, what it prints
and what it glues into the prose.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from repro.core.portable import trained
from repro.core.prose import glue, glue_all
from repro.experiments.power2022_what_is_grokking import (IntroResult, fig1_statistics, median_standard_error,
                                                          stored_intro, stored_paper_config, stored_run)
from repro.experiments.power2022_what_is_grokking_setup import addition_setup_table, division_setup_table
from repro.training.store import ResultsStore, load_stored, provenance_line

# the prefix of the stored addition run's claim names
PS = "their transformer on addition (stored): "
DIVISION_RUNS = ("division-wd1", "division-wd0")
# the division runs' claims (sealed before the runs started), each the median over seeds of a Fig1Statistics field
DIV_STATS = {"final training accuracy, median over seeds": "final_train_acc",
             "validation accuracy at the first evaluation at or after 10x the step training reaches 99 %, median "
             "over seeds": "val_acc_later",
             "log10 of the grokking delay (steps to 99 % validation / steps to 99 % training), median over seeds":
                 "log10_delay",
             "final validation accuracy, median over seeds": "final_val_acc",
             "share of evaluations after generalization with validation below 90 %, median over seeds": "share_dips"}


# --------------------------------------------------------------------------------------- the live run, book scale

def check_chance(result: IntroResult, cfg) -> None:
    """Prints (and asserts) that every seed's validation accuracy at step 0 is at chance, 1/p ± 0.05."""
    chance_ok = bool(np.all(abs(result.history["val_acc"][:, 0] - 1 / cfg.p) < 0.05))
    print(f"validation accuracy at step 0 is at chance (1/{cfg.p} ± 0.05) for all {result.n_runs} seeds: {chance_ok}")
    assert chance_ok


@dataclass
class Fig1Readout:
    """The live run's statistics over seeds behind the Fig. 1 claims (beside ``result.summary()``)."""

    train_final: np.ndarray  # (R,) final training accuracy
    val_at_fit: np.ndarray  # (R,) validation accuracy when training first reaches 99 % (nan: never fits)
    log_delay: float  # log10 of the median delay
    se_train: float  # bootstrap standard errors of the medians over seeds: the spread behind each margin
    se_val: float
    se_val_at_fit: float
    se_delay: float
    se_fit: float
    se_log_delay: float


def fig1_readout(result: IntroResult, stats) -> Fig1Readout:
    """The per-seed values and the standard errors of the medians that the Fig. 1 claims judge."""
    history = result.history
    train_final = history["train_acc"][:, -1]
    # validation accuracy at each seed's first evaluation with training accuracy >= 99 % (every seed fits)
    fit_index = np.array([int(np.searchsorted(history.steps, t)) if t >= 0 else -1 for t in stats.train_steps])
    val_at_fit = np.array([history["val_acc"][r, k] if k >= 0 else np.nan for r, k in enumerate(fit_index)])
    log_delay = np.log10(max(stats.median_delay, 1e-9))
    delays0 = np.nan_to_num(stats.delays, nan=0.0)  # per seed; a seed that never fits or generalizes counts as 0
    return Fig1Readout(train_final, val_at_fit, log_delay,
                       se_train=median_standard_error(train_final),
                       se_val=median_standard_error(stats.final_val_acc),
                       se_val_at_fit=median_standard_error(val_at_fit[np.isfinite(val_at_fit)]),
                       se_delay=median_standard_error(delays0), se_fit=median_standard_error(stats.fit_end),
                       se_log_delay=median_standard_error(np.log10(np.maximum(delays0, 1e-9))))


def check_fig1_claims(claims, stats, fr: Fig1Readout, cfg) -> None:
    """Registers the live run's claims on Power et al.'s Fig. 1 (accuracies, delay) and Liu et al.'s (circle)."""
    claims.check("final training accuracy, median over seeds", np.median(fr.train_final), spread=fr.se_train)
    claims.check("final validation accuracy, median over seeds", stats.median_final_val_acc, spread=fr.se_val)
    claims.check("validation accuracy when training first reaches 99 %, median over seeds",
                 np.nanmedian(fr.val_at_fit), reference=1 / cfg.p, spread=fr.se_val_at_fit)  # chance for this modulus
    claims.check("grokking delay, median over seeds: steps to 99% val / steps to 99% train", stats.median_delay,
                 spread=fr.se_delay)
    claims.check("log10 of the median grokking delay", fr.log_delay, spread=fr.se_log_delay,
                 evidence=f"book scale: an embedding-sum MLP on the unordered pairs of p = {cfg.p} (AdamW lr 3e-3, wd "
                          f"1, full batch), {stats.n} seeds, median delay ≈ {trained(stats.median_delay, 10)}; Power "
                          "et al.: a 2-layer transformer at p = 97, lr 1e-3, batch 512, on division; with their "
                          "transformer and optimizer on addition (stored run below) the delay is short too")
    claims.check("ordered-circle fit of PC1-PC2 embeddings after training, best seed", np.max(stats.fit_end))
    claims.check("share of seeds with a clean circle (PC1-PC2 fit >= 0.9) after training", stats.share_circle,
                 seeds=(stats.fit_end >= 0.9).astype(float),
                 evidence=f"about {trained(stats.share_circle, 0.5)} of the {stats.n} seeds reach a fit of 0.9 (the "
                          "count moves by a few seeds between CPU kernel sets); in the others PC1-PC2 mix two "
                          "Fourier frequencies of near-equal variance (each a clean circle in its own plane); the "
                          "best plane among the top four PCs does not rescue them. Toy embedding-sum MLP, not Liu "
                          "et al.'s transformer, which concentrates on fewer frequencies")
    claims.check("ordered-circle fit of PC1-PC2 embeddings after training, median over seeds",
                 np.median(stats.fit_end), spread=fr.se_fit)
    claims.check("ordered-circle fit at initialization, largest over seeds", np.max(stats.fit_init))


def report_fig1(stats, fr: Fig1Readout, cfg) -> None:
    """Glues the live run's medians for the prose and prints them at the resolutions their spread allows."""
    train_bound = 100 * int(np.ceil(np.max(np.where(stats.train_steps < 0, np.inf, stats.train_steps)) / 100))
    glue_all({"train_bound": trained(train_bound), "n_seeds": f"{stats.n}",
              "delay": trained(stats.median_delay, 10), "log_delay": trained(fr.log_delay, 0.5),
              "val_at_fit": trained(np.nanmedian(fr.val_at_fit), 0.05),
              "fit_end": trained(np.median(stats.fit_end), 0.3), "fit_best": trained(np.max(stats.fit_end), 0.05),
              "share_circle": trained(stats.share_circle, 0.5),
              "fit_init_median": trained(np.median(stats.fit_init), 0.1)})
    print(f"median over {stats.n} seeds: final train acc ≈ {trained(np.median(fr.train_final), 0.05)}, "
          f"final val acc ≈ {trained(stats.median_final_val_acc, 0.05)}, "
          f"val acc when train reaches 99 % ≈ {trained(np.nanmedian(fr.val_at_fit), 0.05)} (chance {1 / cfg.p:.3f})")
    print(f"median delay ≈ {trained(stats.median_delay, 10)} (log10 ≈ {trained(fr.log_delay, 0.5)}; Power et al. ≈ 3)")
    print(f"circle fit after training: best seed ≈ {trained(np.max(stats.fit_end), 0.05)}, median ≈ "
          f"{trained(np.median(stats.fit_end), 0.3)}, share of seeds with a clean circle ≈ "
          f"{trained(stats.share_circle, 0.5)}")


def record_fig1(claims, result: IntroResult, cfg):
    """Registers the live run's Fig. 1 claims, glues the prose's medians and prints them; returns the seed summary."""
    stats = result.summary(circle_bound=0.9)
    fr = fig1_readout(result, stats)
    check_fig1_claims(claims, stats, fr, cfg)
    report_fig1(stats, fr, cfg)
    return stats


def report_seeds(stats, cfg) -> None:
    """Prints every seed's crossings and circle fits and the medians' standard errors; glues this build's counts."""
    # the bootstraps run before the table prints, so that the whole table reaches the notebook as one stream
    se_text = ("bootstrap standard error of the median over seeds: "
               f"step to 99 % val {median_standard_error(stats.val_steps, never=-1):.0f}, "
               f"delay {median_standard_error(np.nan_to_num(stats.delays, nan=0.0)):.1f}, "
               f"circle fit {median_standard_error(stats.fit_end):.3f}, "
               f"final val acc {median_standard_error(stats.final_val_acc):.4f}")
    print("seed  steps to 99 % train  steps to 99 % val  final val acc  circle fit (end)  circle fit (init)")
    for seed, tr, va, acc, fe, fi in zip(cfg.seeds, stats.train_steps, stats.val_steps, stats.final_val_acc,
                                         stats.fit_end, stats.fit_init):
        print(f"{seed:4d}  {int(tr):19d}  {int(va) if va >= 0 else 'never':>17}  {acc:13.3f}  {fe:16.2f}  {fi:17.2f}")
    print(se_text)
    glue_all({"n_circle": f"{trained(stats.n_circle)} of {stats.n}",
              "fit_end_exact": trained(np.median(stats.fit_end), 0.001),
              "val_step_exact": trained(stats.median_val_step, 1),
              "n_val_never": trained(int(np.sum(stats.val_steps < 0)))})


# ----------------------------------------------------------------- stored: Power et al.'s transformer on addition

@dataclass
class AdditionRun:
    """The stored run of Power et al.'s transformer and optimizer on addition (one seed), and what is read off it."""

    config: object
    result: IntroResult
    manifest: dict
    fit: int  # first step with training accuracy >= 99 %
    gen: int  # first step with validation accuracy >= 99 % (-1: never)
    val_at_fit: float
    end: int  # the last step
    circle_k: int
    circle: float  # ordered-circle fit at the last step
    circle0: float  # ... at initialization
    fits: dict  # step -> circle fit, at the snapshots after generalization
    best_step: int  # the snapshot after generalization with the best fit
    after_gen: np.ndarray  # (T,) evaluations from generalization on
    dips: np.ndarray  # steps after generalization with validation < 90 %

    @property
    def first_dip(self) -> int:
        """The first step after generalization with validation below 90 % (the last step if none)."""
        return int(self.dips[0]) if len(self.dips) else self.end


def read_addition_run(pcfg, prun: IntroResult, pmanifest: dict) -> AdditionRun:
    """The crossings, circle fits and falls out of the solution of the stored addition run."""
    ph = prun.history
    p_fit, p_gen = int(prun.train_steps[0]), int(prun.val_steps[0])
    p_val_at_fit = float(ph["val_acc"][0, int(np.searchsorted(ph.steps, p_fit))]) if p_fit >= 0 else float("nan")
    p_end = int(ph.steps[-1])
    p_circle_k, p_circle = prun.circle(p_end)
    _, p_circle0 = prun.circle(0)
    p_after = [int(t) for t in prun.embedding_steps if p_gen >= 0 and t >= p_gen]  # snapshots after generalization
    p_fits = {t: prun.circle(t)[1] for t in p_after}
    p_best_step = max(p_fits, key=p_fits.get) if p_fits else p_end
    after_gen = (ph.steps >= p_gen) if p_gen >= 0 else np.zeros(len(ph.steps), bool)
    p_dips = ph.steps[after_gen & (ph["val_acc"][0] < 0.9)]  # evaluations after generalization with validation < 90 %
    return AdditionRun(pcfg, prun, pmanifest, p_fit, p_gen, p_val_at_fit, p_end, p_circle_k, p_circle, p_circle0,
                       p_fits, p_best_step, after_gen, p_dips)


def report_addition_run() -> AdditionRun:
    """Loads the stored addition run, prints its provenance, setup and readings, and glues them for the prose."""
    pcfg = stored_paper_config()
    prun, pmanifest = load_stored(stored_intro(pcfg, "_results"), "Power et al. run",
                                  "python -m repro.experiments.power2022_what_is_grokking --store book/_results --run "
                                  "addition", "about 45 minutes on one core", glue_minutes="power_minutes")
    # read before printing, so that the setup table and the readings reach the notebook as one stream
    run = read_addition_run(pcfg, prun, pmanifest)
    print(addition_setup_table(pcfg))
    ph = prun.history
    # A stored run is loaded, not recomputed: these numbers are the same on every machine.
    print(f"p = {pcfg.p}, {pcfg.steps:,} steps: training reaches 99 % at step {run.fit}, validation "
          f"{'at step ' + str(run.gen) if run.gen >= 0 else 'never'}; validation accuracy when training first "
          f"reaches 99 %: {run.val_at_fit:.3f} (chance {1 / pcfg.p:.3f})")
    print(f"final accuracy: train {ph['train_acc'][0, -1]:.3f}, validation {ph['val_acc'][0, -1]:.3f}; "
          f"ordered-circle fit on PC1-PC2: {run.circle0:.2f} at initialization, {run.circle:.2f} "
          f"(k = {run.circle_k}) at step {run.end:,}")
    print("circle fit at the snapshots after generalization: "
          + ", ".join(f"{t:,}: {f:.2f}" for t, f in run.fits.items()))
    print(f"after generalization, validation falls below 90 % at {len(run.dips)} of {int(run.after_gen.sum())} "
          f"evaluations (every 100 steps), the first at step {run.first_dip:,}")
    glue_all({"power_fit": f"{run.fit:,}", "power_gen": f"{run.gen:,}", "power_delay": f"{run.gen / run.fit:.1f}",
              "power_dips": f"{len(run.dips)} of {int(run.after_gen.sum())}",
              "power_first_dip": f"{run.first_dip:,}"})
    return run


def record_addition_run(claims, run: AdditionRun) -> None:
    """Registers the stored addition run's claims (all † : the run predates sealed claims)."""
    ph, pmanifest, p_fit, p_gen = run.result.history, run.manifest, run.fit, run.gen
    claims.check(PS + "final training accuracy", ph["train_acc"][0, -1], live=False, run=pmanifest)
    claims.check(PS + "final validation accuracy", ph["val_acc"][0, -1], live=False, run=pmanifest)
    claims.check(PS + "validation accuracy when training first reaches 99 %", run.val_at_fit,
                 reference=1 / run.config.p, live=False, run=pmanifest,
                 evidence=f"at step {p_fit}, when training first reaches 99 %, validation is already at "
                          f"{run.val_at_fit:.2f}, {run.val_at_fit * run.config.p:.0f} times chance: this transformer "
                          "starts to generalize while it fits")
    claims.check(PS + "log10 of the grokking delay", np.log10(p_gen / p_fit), live=False, run=pmanifest,
                 evidence=f"99 % training at step {p_fit}, 99 % validation at step {p_gen}: a delay of "
                          f"{p_gen / p_fit:.1f}x with the paper's optimizer, transformer size and p (one seed), on "
                          "addition, without the warm-up; their Fig. 1 shows division, with a warm-up: the stored "
                          "division runs below")
    n_after = int(run.after_gen.sum())
    claims.check(PS + "share of evaluations after generalization with validation below 90 %",
                 len(run.dips) / max(n_after, 1), live=False, run=pmanifest,
                 evidence=f"validation falls below 90 % at {len(run.dips)} of {n_after} evaluations after it "
                          f"first reaches 99 %, the first at step {run.first_dip:,}, and "
                          "recovers each time (one seed, addition, no warm-up)")
    claims.check(PS + "ordered-circle fit of PC1-PC2 embeddings at the last step", run.circle, live=False,
                 run=pmanifest,
                 evidence=f"the fit is {max(run.fits.values()):.2f} at the best snapshot after generalization but "
                          f"{run.circle:.2f} at step {run.end:,}: after the run's repeated falls out of its solution "
                          f"(from step {run.first_dip:,}) PC1-PC2 no longer isolate one frequency")
    claims.check(PS + "best ordered-circle fit over the snapshots after generalization", max(run.fits.values()),
                 live=False, run=pmanifest)


# ------------------------------------------------------------------------- stored: division at 10^5 steps

def load_division_runs() -> tuple[dict, dict]:
    """Prints each stored division run's progress; returns the finished ones ``{name: (cfg, result, manifest)}``
    and every run's progress ``{name: text}``."""
    division, division_progress = {}, {}
    for name in DIVISION_RUNS:  # every run is read before anything prints: the lines reach the notebook as one stream
        label, dcfg = stored_run(name)
        division_progress[name] = ResultsStore("_results").progress(dcfg, label)
        stored = stored_intro(dcfg, "_results", label)
        if stored is not None:
            division[name] = (dcfg, *stored)
    for name in DIVISION_RUNS:
        print(f"{name}: {division_progress[name]}")
    return division, division_progress


def report_division_setup(division: dict) -> None:
    """Prints each finished division run's provenance and its setup table."""
    for name, (dcfg, dres, dmanifest) in division.items():
        print(provenance_line(dmanifest))
        print(division_setup_table(name, dcfg))


def division_panels(division: dict) -> dict:
    """The division runs for Fig. 1's plot, one panel per weight decay."""
    return {f"weight decay {c.weight_decay:g}": r for c, r, _ in division.values()}


def report_unfinished_division(division: dict, division_progress: dict) -> None:
    """Prints which division runs are not shown (and glues a placeholder figure when none is finished)."""
    if not division:
        print("Fig. 1's task at 10⁵ steps is not judged in this build: its stored runs are not finished (the commands "
              "above resume them).")
        glue("fig_power_division", "(the stored runs are not finished)", display=False)
    for name in division_progress.keys() - division.keys():
        print(f"{name} is not shown: the stored run is {division_progress[name]} (its command above resumes it).")


def record_division_runs(claims, division: dict) -> dict:
    """Registers the division runs' sealed claims (medians over seeds); returns each run's claim names."""
    division_claims = {}
    for name, (dcfg, dres, dmanifest) in division.items():
        st = fig1_statistics(dres)
        prefix = f"Fig. 1 as published, weight decay {dcfg.weight_decay:g} (stored): "
        division_claims[name] = []
        for claim_name, field in DIV_STATS.items():
            values = getattr(st, field)
            if field == "share_dips" and not np.isfinite(values).any():
                # the share is over the evaluations after validation reaches 99 %: with no seed there, nothing to judge
                claims.unreached(prefix + claim_name, run=dmanifest,
                                 why=f"no seed reaches 99 % validation accuracy within {dcfg.steps:,} steps")
                division_claims[name].append(prefix + claim_name)
                continue
            extra = {"reference": 1 / dcfg.p} if field == "val_acc_later" else {}
            claims.check(prefix + claim_name, st.median(field), live=False, run=dmanifest, seeds=values,
                         evidence=f"seeds {dcfg.seeds}: " + ", ".join(f"{v:.3g}" for v in values), **extra)
            division_claims[name].append(prefix + claim_name)
    return division_claims


def division_summary(name: str, division: dict, division_progress: dict) -> str:
    """One sentence on a division run: what its seeds did, or how far it has got."""
    wd = stored_run(name)[1].weight_decay
    if name not in division:
        return f"with weight decay {wd:g}, the stored run is {division_progress[name]}"
    dcfg, dres, _ = division[name]
    st = fig1_statistics(dres)
    fits = " and ".join(f"{int(v):,}" for v in dres.train_steps)
    gens = [int(v) for v in dres.val_steps]
    val_end = " and ".join(f"{v:.2f}" for v in st.final_val_acc)
    if all(g < 0 for g in gens):
        return (f"with weight decay {wd:g}, training reaches 99 % at steps {fits} (seeds {dcfg.seeds[0]} and "
                f"{dcfg.seeds[1]}), but neither seed reaches 99 % validation accuracy within {dcfg.steps:,} steps: "
                f"validation ends at {val_end}")
    dips = " and ".join("n/a" if not np.isfinite(v) else f"{100 * v:.0f} %" for v in st.share_dips)
    return (f"with weight decay {wd:g}, training reaches 99 % at steps {fits} and validation at steps "
            + " and ".join("never" if g < 0 else f"{g:,}" for g in gens) + f" (seeds {dcfg.seeds[0]} and {dcfg.seeds[1]}); "
            f"after that, validation repeatedly falls below 90 % (at {dips} of the evaluations) and climbs back; it "
            f"ends at {val_end}")


def glue_division_summary(division: dict, division_progress: dict) -> None:
    """Glues the prose's sentence on both division runs."""
    glue("division_summary", "; ".join(division_summary(n, division, division_progress) for n in DIVISION_RUNS),
         display=False)


# ------------------------------------------------------------------------- stored: Fig. 1 as made, and the ledger

def report_fig1_run() -> None:
    """Prints how far the stored run of Fig. 1 as made has got, and its config."""
    fig1_label, fig1_cfg = stored_run("fig1")
    print(f"fig1 ({fig1_label}): {ResultsStore('_results').progress(fig1_cfg, fig1_label)}")
    print(fig1_cfg)


def record_paper_versus_ours(claims, *, stats, power: AdditionRun, division_claims: dict,
                             division_progress: dict) -> None:
    """Registers the figure rows of "Paper versus ours": the live run, the stored addition run, the division runs."""
    power_book = ["final training accuracy, median over seeds", "final validation accuracy, median over seeds",
                  "validation accuracy when training first reaches 99 %, median over seeds",
                  "grokking delay, median over seeds: steps to 99% val / steps to 99% train",
                  "log10 of the median grokking delay"]
    liu_book = ["ordered-circle fit of PC1-PC2 embeddings after training, best seed",
                "share of seeds with a clean circle (PC1-PC2 fit >= 0.9) after training",
                "ordered-circle fit of PC1-PC2 embeddings after training, median over seeds",
                "ordered-circle fit at initialization, largest over seeds"]
    claims.figure("power2022", "Fig. 1", scale="book", claims=power_book,
                  why=f"on addition with the book's small model (Fig. 1 is division): fitting first with validation "
                      f"at chance, then 100 % validation (median of {stats.n} seeds) reproduce; the delay is ≈ "
                      f"{trained(stats.median_delay, 10)}x on the book's small model, not about 10^3x (their "
                      "transformer and optimizer on addition: the stored run below)")
    claims.figure("liu2022", "Fig. 1", scale="book",
                  claims=liu_book,
                  why="on the toy embedding-sum MLP (not the paper's transformer): a clean ordered circle on PC1-PC2 "
                      f"in the best seed (a selection), but only in about {trained(stats.share_circle, 0.5)} of the "
                      "seeds (a deviation)")
    power_stored = [PS + "final training accuracy", PS + "final validation accuracy",
                    PS + "validation accuracy when training first reaches 99 %", PS + "log10 of the grokking delay",
                    PS + "share of evaluations after generalization with validation below 90 %"]
    claims.figure("power2022", "Fig. 1 (their transformer on addition)",
                  scale="paper (CPU, stored)", claims=power_stored,
                  why="not Fig. 1's setting: addition, not division; no warm-up; one seed, 3e4 of 1e5 steps. † (the "
                      "stored run predates sealed claims): the reproductions are the final accuracies alone; it "
                      f"generalizes only {power.gen / power.fit:.0f}x after fitting (not ~10^3x), is above chance "
                      "when it fits, and falls out of its solution again and again afterwards")
    liu_stored = [PS + "ordered-circle fit of PC1-PC2 embeddings at the last step",
                  PS + "best ordered-circle fit over the snapshots after generalization"]
    claims.figure("liu2022", "Fig. 1 (Power et al.'s transformer on addition)",
                  scale="paper (CPU, stored)", claims=liu_stored,
                  why="† (the stored run predates sealed claims): a clean ordered circle on PC1-PC2 after "
                      "generalization at the best snapshot (a selection), lost at the last step after the run's late "
                      "instabilities")
    for name in DIVISION_RUNS:
        wd = stored_run(name)[1].weight_decay
        if name in division_claims:
            claims.figure("power2022", f"Fig. 1 (division, weight decay {wd:g}, 10^5 steps)",
                          scale="paper (CPU, stored)", claims=division_claims[name],
                          why=f"division mod 97, warm-up, 1e5 steps, two seeds, weight decay {wd:g}; claims "
                              "registered before the run")
        else:
            claims.figure("power2022", f"Fig. 1 (division, weight decay {wd:g}, 10^5 steps)",
                          scale="paper (CPU, stored)",
                          why=f"the stored run {name} is {division_progress[name]}; its command resumes it")

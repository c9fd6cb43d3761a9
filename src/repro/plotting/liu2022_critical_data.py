"""Figures of the chapters ``book/liu2022_critical_data`` and ``book/liu2022_effective_theory``; the runs
they show are made by :mod:`repro.experiments.liu2022_critical_data`."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from repro.experiments.liu2022_critical_data import (EmbeddingComparison, FractionSweep, OFFICIAL_FIG4B_SEEDS,
                                                     OfficialComparison,
                                                     OFFICIAL_FIG4B_SUCCESSES, ReferenceRun, SeedSpread,
                                                     binomial_interval)
from repro.plotting.shared import TRAIN_COLOR, VAL_COLOR, seed_jitter
from repro.theory import liu2022 as theory

PAPER_THRESHOLD = 0.4  # §3.2: "When the data fraction is below some threshold (around 0.4)"


def _mark_paper_threshold(ax):
    """The paper's stated threshold beside our r_c (dotted, thin: a reference, not a result)."""
    ax.axvline(PAPER_THRESHOLD, ls=":", color="k", lw=1, label=f"paper §3.2: ≈ {PAPER_THRESHOLD:g}")


def plot_accuracy_vs_predicted(sweep: FractionSweep):
    """Fig. 3: (a) Acc and (b) Acc-hat vs training fraction; (c) Acc against Acc-hat."""
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    x = seed_jitter(sweep.fractions, sweep.seeds, 0.02)
    for ax, values, label in ((axes[0], sweep.accuracy, "accuracy Acc"), (axes[1], sweep.predicted_accuracy,
                                                                          "predicted accuracy Acc-hat")):
        ax.scatter(x, values, s=18, color=TRAIN_COLOR if ax is axes[0] else VAL_COLOR, alpha=0.8)
        ax.plot([0, 1], [0, 1], "--", color="red", lw=1, label="memorization only (y = x)")
        ax.set_xlabel("training fraction")
        ax.set_ylabel(label)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.05)
        ax.legend(loc="lower right")
    axes[0].set_title("(a) accuracy on the whole table")
    axes[1].set_title("(b) accuracy predicted from the representation")
    ax = axes[2]
    sc = ax.scatter(sweep.predicted_accuracy, sweep.accuracy, c=sweep.fractions, cmap="viridis", s=18, vmin=0, vmax=1)
    ax.plot([0, 1], [0, 1], "--", color="red", lw=1)
    fig.colorbar(sc, ax=ax, label="training fraction")
    ax.set_xlabel("predicted accuracy Acc-hat")
    ax.set_ylabel("accuracy Acc")
    ax.set_title("(c) Acc against Acc-hat")
    fig.tight_layout()
    return fig


def plot_critical_fraction(stats: theory.LinearStructureStats, sweep: FractionSweep):
    """Fig. 4a (theory: P(unique linear structure)) and 4b (network: steps to RQI > 0.95)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    rc = stats.critical_fraction()
    ax = axes[0]
    ax.plot(stats.fractions, stats.p_unique, "o-", ms=3, color=TRAIN_COLOR)
    ax.axvline(rc, ls="--", color="0.4", lw=1)
    ax.annotate(f"50 % at {rc:.2f}", (rc, 0.5), xytext=(6, 0), textcoords="offset points", fontsize=9, va="center")
    _mark_paper_threshold(ax)
    ax.legend(loc="lower right", fontsize=9)
    ax.set_xlabel("training fraction")
    ax.set_ylabel("P(unique linear structure)")
    ax.set_title(f"(a) theory: nullity = 2, {stats.rates.shape[1]} random sets per size")
    ax = axes[1]
    ok = sweep.rqi_step >= 0
    x = seed_jitter(sweep.fractions, sweep.seeds, 0.02)
    ax.scatter(x[ok], sweep.rqi_step[ok], s=18, color=VAL_COLOR, label="one seed")
    ax.scatter(x[~ok], np.full((~ok).sum(), sweep.steps), s=22, marker="x", color="0.3",
               label=f"never within {sweep.steps} steps")
    u, med = sweep.median_steps()
    ax.plot(u / sweep.config.n_total, med, "-", color=TRAIN_COLOR, lw=1.8, label="median over seeds")
    ax.axvline(rc, ls="--", color="0.4", lw=1)
    _mark_paper_threshold(ax)
    ax.set_yscale("log")
    ax.set_xlabel("training fraction")
    ax.set_ylabel(f"steps to RQI > {sweep.config.rqi_threshold}")
    ax.set_title("(b) networks: time to a linear representation")
    ax.set_xlim(0, 1)
    ax.legend(loc="upper right", fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_stored_fig4b(sweep: FractionSweep, stats: theory.LinearStructureStats, transition: float):
    """Fig. 4(b) at the paper's settings: (a) share of seeds reaching RQI > threshold per training size with a
    95 % binomial band, the official data (three seeds) and Fig. 4(a)'s P(unique linear structure);
    (b) steps to RQI > threshold per seed with the median over seeds (a failed seed counts as the budget).
    Both mark Fig. 4(a)'s 50 % crossing r_c and the networks' transition fraction ``transition``."""
    cfg = sweep.config
    rc = stats.critical_fraction()
    counts, share = sweep.success_rate()
    n_seeds = len(cfg.seeds)
    lo, hi = binomial_interval(np.round(share * n_seeds), n_seeds)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    ax = axes[0]
    f = counts / cfg.n_total
    ax.fill_between(f, lo, hi, color=VAL_COLOR, alpha=0.2, lw=0, label="95 % binomial band")
    ax.plot(f, share, "o-", color=VAL_COLOR, ms=4, label=f"networks, {n_seeds} seeds (ours)")
    off = np.array(sorted(OFFICIAL_FIG4B_SUCCESSES))
    ax.plot(off / cfg.n_total, [OFFICIAL_FIG4B_SUCCESSES[n] / OFFICIAL_FIG4B_SEEDS for n in off], "s", ms=5,
            mfc="none", color="0.2", label=f"official data, {OFFICIAL_FIG4B_SEEDS} seeds")
    ax.plot(stats.fractions, stats.p_unique, "-", color=TRAIN_COLOR, lw=1.2, alpha=0.8,
            label="Fig. 4(a): P(unique linear structure)")
    ax.axvline(rc, ls="--", color="0.4", lw=1)
    _mark_paper_threshold(ax)
    if np.isfinite(transition):
        ax.axvline(transition, ls=":", color=VAL_COLOR, lw=1.2)
    ax.set_xlabel("training fraction")
    ax.set_ylabel(f"share reaching RQI > {cfg.rqi_threshold}")
    ax.set_title(f"(a) success within {sweep.steps} steps (dashed: r_c)")
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.03, 1.03)
    ax.legend(loc="upper left", fontsize=7)
    ax = axes[1]
    ok = sweep.rqi_step >= 0
    x = seed_jitter(sweep.fractions, sweep.seeds, 0.02)
    ax.scatter(x[ok], sweep.rqi_step[ok], s=14, color=VAL_COLOR, alpha=0.8, label="one seed")
    ax.scatter(x[~ok], np.full((~ok).sum(), sweep.steps), s=18, marker="x", color="0.3",
               label=f"never within {sweep.steps} steps")
    u, med = sweep.median_steps()
    ax.plot(u / cfg.n_total, med, "-", color=TRAIN_COLOR, lw=1.8, label="median over seeds")
    ax.axvline(rc, ls="--", color="0.4", lw=1)
    _mark_paper_threshold(ax)
    if np.isfinite(transition):
        ax.axvline(transition, ls=":", color=VAL_COLOR, lw=1.2)
    ax.set_yscale("log")
    ax.set_xlabel("training fraction")
    ax.set_ylabel(f"steps to RQI > {cfg.rqi_threshold}")
    ax.set_title("(b) time to a linear representation (Fig. 4b)")
    ax.set_xlim(0, 1)
    ax.legend(loc="lower left", fontsize=7)
    fig.tight_layout()
    return fig


def plot_trajectories(ref: ReferenceRun):
    """Fig. 4c (effective theory) and 4d (network) trajectories of the normalised 1-D embeddings."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.0), sharey=True)
    p = ref.config.p
    colors = plt.cm.viridis(np.linspace(0, 1, p))
    nn = theory.normalize_embeddings(ref.embeddings[..., None])[..., 0]  # (T, p), normalised over symbols
    eff = ref.effective.embeddings[0, :, :, 0] * np.sqrt(p / (p - 1))  # population -> unbiased std, like nn
    for ax, steps, traj, title in ((axes[0], ref.effective.steps, eff, "(c) effective theory"),
                                   (axes[1], ref.history.steps, nn, "(d) neural network")):
        # the overall sign of a 1-D representation is arbitrary; orient both so that E_9 > E_0 at the end
        sign = np.sign(traj[-1, -1] - traj[-1, 0]) or 1.0
        for k in range(p):
            ax.plot(steps, sign * traj[:, k], color=colors[k], lw=1.3)
            ax.annotate(str(k), (steps[-1], sign * traj[-1, k]), xytext=(3, 0), textcoords="offset points",
                        fontsize=7, va="center", color=colors[k])
            ax.annotate(str(k), (steps[0], sign * traj[0, k]), xytext=(-8, 0), textcoords="offset points",
                        fontsize=7, va="center", color=colors[k])
        ax.axvline(3 * ref.n_h, ls="--", color="0.4", lw=1)
        ax.annotate("3 n_h", (3 * ref.n_h, 0.02), xycoords=("data", "axes fraction"), rotation=90, fontsize=9,
                    ha="right", va="bottom", color="0.3")
        ax.set_xlabel("step")
        ax.set_title(title)
    axes[0].set_ylabel("normalized embedding E_k")
    fig.tight_layout()
    return fig


def plot_grokking_rate(stats: theory.LinearStructureStats, sweep: FractionSweep):
    """Fig. 5a: lambda_3 vs training fraction; 5b: network steps to RQI > 0.95 against the theory's n_h."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    ax = axes[0]
    rng = np.random.default_rng(0)
    n_show = min(50, stats.rates.shape[1])
    for k, f in enumerate(stats.fractions):
        sample = stats.rates[k, :n_show]
        ax.scatter(f + 0.004 * rng.standard_normal(n_show), sample, s=3, color="0.6", alpha=0.5)
    ax.plot(stats.fractions, stats.rates.mean(axis=1), "-", color=TRAIN_COLOR, lw=1.8, label="mean over sets")
    ax.axvline(stats.critical_fraction(), ls="--", color="0.4", lw=1)
    _mark_paper_threshold(ax)
    ax.set_xlabel("training fraction")
    ax.set_ylabel("grokking rate λ3 of A_D^T A_D")
    ax.set_title("(a) grokking rate")
    ax.legend(loc="upper left")
    ax = axes[1]
    ok = (sweep.rqi_step >= 0) & np.isfinite(sweep.theory_steps)
    x = seed_jitter(sweep.fractions, sweep.seeds, 0.02)
    ax.scatter(x[ok], sweep.rqi_step[ok], s=18, color=VAL_COLOR, label="network: steps to RQI > 0.95")
    finite = np.isfinite(sweep.theory_steps)
    ax.scatter(x[finite], sweep.theory_steps[finite], s=18, marker="s", facecolors="none", edgecolors=TRAIN_COLOR,
               label="theory: n_h = p / (2 λ3 η)")
    ax.set_yscale("log")
    ax.set_xlabel("training fraction")
    ax.set_ylabel("steps")
    ax.set_title("(b) grokking steps: network vs theory")
    ax.set_xlim(0, 1)
    ax.legend(loc="upper right", fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_embedding_comparison(comp: EmbeddingComparison):
    """Fig. 2 (scoped): 2-D embeddings that memorize vs 1-D embeddings that generalize, same data and seed."""
    p = comp.config.p
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.3, 1]})
    ax = axes[0]
    xs, ys, classes = comp.class_map
    ax.pcolormesh(xs, ys, classes, cmap="tab20", shading="nearest", alpha=0.35, vmin=0, vmax=19)
    e = comp.embeddings[2]
    sums = e[:, None, :] + e[None, :, :]
    ax.scatter(sums[..., 0].ravel(), sums[..., 1].ravel(), s=4, color="0.5", label="E_i + E_j")
    ax.scatter(e[:, 0], e[:, 1], s=30, color="k", label="E_k")
    for k in range(p):
        ax.annotate(str(k), e[k], xytext=(3, 3), textcoords="offset points", fontsize=9)
    ax.set_title(f"(a) 2-D embeddings: memorization\nval acc {comp.val_acc[2]:.1f}, RQI {comp.rqi[2]:.2f}")
    ax.set_xlabel("embedding dim 1 (colour: decoder's class)")
    ax.set_ylabel("embedding dim 2")
    ax.legend(loc="upper left", fontsize=9.5)
    ax = axes[1]
    e1 = theory.normalize_embeddings(comp.embeddings[1])[:, 0]
    ax.scatter(np.arange(p), e1, s=30, color="k")
    fit = np.polyfit(np.arange(p), e1, 1)
    ax.plot(np.arange(p), np.polyval(fit, np.arange(p)), "--", color=VAL_COLOR, lw=1, label="linear fit a + k b")
    ax.set_title(f"(b) 1-D embeddings: generalization\nval acc {comp.val_acc[1]:.1f}, RQI {comp.rqi[1]:.2f}")
    ax.set_xlabel("symbol k")
    ax.set_ylabel("normalized embedding E_k")
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig


def plot_seed_spread(spread: SeedSpread):
    """The reference setting over init seeds: (a) RQI of the 1-D embeddings against step (every seed
    faintly, median and quartile band), with the median step to RQI > threshold in units of n_h;
    (b) final validation accuracy and RQI of every seed, 1-D against 2-D embeddings."""
    from repro.core.portable import seed_median
    from repro.plotting.shared import plot_seed_band

    cfg = spread.config
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    ax = axes[0]
    plot_seed_band(ax, spread.steps, spread.rqi_curves, label="1-D network RQI", color=TRAIN_COLOR)
    ax.axhline(cfg.rqi_threshold, ls=":", color="0.4", lw=1)
    ax.axvline(3 * spread.n_h, ls="--", color="0.4", lw=1)
    ax.annotate("3 n_h", (3 * spread.n_h, 0.02), xycoords=("data", "axes fraction"), rotation=90, fontsize=9,
                ha="right", va="bottom", color="0.3")
    med = seed_median(spread.rqi_step)
    if np.isfinite(med):
        ax.axvline(med, ls="-", color=VAL_COLOR, lw=1, label=f"median step to RQI > {cfg.rqi_threshold}")
    ax.set_xlabel("step")
    ax.set_ylabel("RQI")
    ax.set_title(f"(a) 1-D embeddings, {len(spread.seeds)} init seeds, seed-{cfg.reference_seed} split")
    ax.legend(loc="lower right", fontsize=9.5)
    ax = axes[1]
    for d, marker, color in ((1, "o", TRAIN_COLOR), (2, "s", VAL_COLOR)):
        jitter = seed_jitter(np.zeros(len(spread.seeds)), spread.seeds, 0.02)
        ax.scatter(spread.val_acc[d] + jitter, spread.rqi[d], s=24, marker=marker, color=color, alpha=0.7,
                   label=f"{d}-D embeddings")
    ax.axvline(0.9, ls=":", color="0.4", lw=1)
    ax.axhline(cfg.rqi_threshold, ls=":", color="0.4", lw=1)
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel(f"final validation accuracy (step {cfg.reference_steps})")
    ax.set_ylabel("final RQI")
    ax.set_title("(b) every seed: generalization goes with parallelograms")
    ax.legend(loc="upper left", fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_official_comparison(comp: OfficialComparison, never_at: int = 10_000):
    """Our runs against the official runs of the same (size, seed): (a) steps to RQI > 0.95 (a run that never
    gets there is drawn at ``never_at``); (b) samples right after Fig. 3's 5000 steps. Points on the diagonal are
    runs that repeat the official one."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    ax = axes[0]
    off = np.where(comp.official_step >= 0, comp.official_step, never_at)
    ours = np.where(comp.our_step >= 0, comp.our_step, never_at)
    sizes = np.unique(comp.counts)
    cmap = plt.get_cmap("viridis")
    for i, n in enumerate(sizes):
        at = comp.counts == n
        ax.scatter(off[at], ours[at], s=28, color=cmap(i / max(1, len(sizes) - 1)), alpha=0.85, label=f"{n}/55")
    lim = (300, never_at * 1.5)
    ax.plot(lim, lim, "--", color="0.5", lw=1)
    ax.axhline(never_at, color="0.8", lw=0.8, zorder=0)
    ax.axvline(never_at, color="0.8", lw=0.8, zorder=0)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.set_xlabel("official run: steps to RQI > 0.95")
    ax.set_ylabel("ours, same size and seed")
    ax.set_title(f"(a) Fig. 4(b) run by run (at {never_at:,}: never)")
    ax.legend(title="training size", fontsize=7, title_fontsize=7, loc="upper left", ncol=2)
    ax = axes[1]
    for i, n in enumerate(sizes):
        at = comp.counts == n
        ax.scatter(comp.official_correct[at], comp.our_correct[at], s=28, color=cmap(i / max(1, len(sizes) - 1)),
                   alpha=0.85)
    ax.plot((0, 55), (0, 55), "--", color="0.5", lw=1)
    ax.set_xlim(0, 56)
    ax.set_ylim(0, 56)
    ax.set_xlabel("official run: samples right after 5000 steps (of 55)")
    ax.set_ylabel("ours, same size and seed")
    ax.set_title("(b) Fig. 3's accuracy run by run")
    fig.tight_layout()
    return fig

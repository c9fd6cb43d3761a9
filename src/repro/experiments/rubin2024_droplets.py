"""Run and plot helpers of the chapter "Droplets of good representations" (Rubin, Seroussi & Ringel
2024, arXiv 2310.03789), ``book/rubin2024_droplets.ipynb``.

The equations live in :mod:`repro.theory.rubin2024`, the Langevin sampler in :mod:`repro.training.langevin`;
this module wires them to the chapter's config (:class:`DropletsConfig`), computes every number the
chapter shows (:func:`run_theory`, :func:`run_experiments`) and draws its figures.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, replace

import numpy as np

from repro.core.portable import ConfigRepr
from repro.core.scale import by_scale
from repro.core.validation import check_int
from repro.metrics.bootstrap import group_draws, resample_spread, seed_draws
from repro.theory.rubin2024 import (Modular, TeacherStudent, binned_neg_log_p, critical_point, gfl_b, gfl_curvature,
                                    mode_count_readings, modular_boundaries, modular_onset, modular_solve, nngp_b,
                                    sweep_self_consistent)
from repro.training.langevin import LangevinConfig, LangevinResult, run_langevin
from repro.training.store import ResultsStore, store_parser
from repro.training.stored_runs import StoredRun, StoredRunTable


@dataclass(frozen=True, repr=False)
class DropletsConfig(ConfigRepr):
    """Everything the chapter computes. Defaults: the paper's settings (v3 App. C, Fig. 3)."""

    teacher: TeacherStudent = TeacherStudent()  # v3 App. C base scale: d=150, N=700, n=3000, eps=-0.3
    modular: Modular = Modular()  # v3 Fig. 3: P=401, N=1000, sigma_a^2=0.002/N, gamma=1e-4
    langevin: LangevinConfig = LangevinConfig()  # v3 App. C protocol (finite data, 200 nets x 360k steps)
    # sigma^2 grid of the theory curves (v3 App. C: sigma^2 in {0.1, 0.15, 0.2, 0.25, 0.3})
    curve_sigma2s: tuple[float, ...] = tuple(np.round(np.arange(0.30, 0.0999, -0.01), 3).tolist())
    d_sharp: int = 10_000  # stand-in for d -> infinity in the paper's 1-D theory
    d_sharp_2d: int = 2000  # the corrected theory's large-d curve
    landau_sigma2s: tuple[float, ...] = (0.25, 0.217, 0.179, 0.15)  # action curves of the Landau figure
    modular_sigma2s: tuple[float, ...] = (0.30, 0.25, 0.236, 0.21, 0.19, 0.176, 0.15, 0.10)  # v3 Fig. 3a

    def __post_init__(self):
        check_int("d_sharp", self.d_sharp, minimum=1)
        check_int("d_sharp_2d", self.d_sharp_2d, minimum=1)

    @classmethod
    def for_scale(cls) -> "DropletsConfig":
        """The theory is cheap at every scale; only the Langevin ensembles change (see
        :meth:`repro.training.langevin.LangevinConfig.for_scale`)."""
        base = cls()
        # Smoke: nine sigma^2 of the book curve, with the 0.15 and 0.10 the chapter reads. The self-consistent
        # solutions are continued from one sigma^2 to the next; 0.15 -> 0.10 in one step does not converge.
        return replace(base, langevin=LangevinConfig.for_scale(),
                       curve_sigma2s=by_scale(book=base.curve_sigma2s, paper=base.curve_sigma2s,
                                              smoke=(0.30, 0.25, 0.20, 0.17, 0.15, 0.13, 0.12, 0.11, 0.10)))

    @property
    def langevin_theory(self) -> TeacherStudent:
        """The theory at the Langevin ensembles' sizes (same u and g as the paper's base scale)."""
        return langevin_teacher(self.langevin)


@dataclass
class TheoryResult:
    crit_paper: object  # CriticalPoint, frozen-r action (v1 Eq. 14)
    crit_corrected: object  # CriticalPoint, r marginalized (the corrected theory)
    gfl_table: dict  # sigma^2 -> (b_GFL, b_NNGP, d<q^2>)
    sharp_1d: list  # SelfConsistent along curve_sigma2s at d_sharp (paper's theory)
    sharp_2d: list  # SelfConsistent along curve_sigma2s at d_sharp_2d (corrected)
    finite_1d: list  # at the Langevin d along curve_sigma2s
    finite_2d: list
    # paper's 1-D theory at d = 150, sigma^2 = 0.10 (our choice after the transition: v1 Fig. 1 / v3 Fig. 2b do not
    # state their sigma^2)
    profile_d150: object
    modular_bounds: object
    modular_curve: list  # ModularSolution along a fine sigma^2 grid
    modular_onsets: dict  # kappa -> onset sigma^2
    modular_exact_curve: list = None  # ModularSolution along the same grid with the exact kernel eigenvalue
    # the droplet saddle at the paper's onset 0.227 with both mode counts (ModeCountReadings), and a at the end of
    # GMFL-I (the closed-form sigma_c2^2) with each complex mode (k, P-k) counted once
    mode_count_0227: object = None
    a_end_once: float = float("nan")


def run_theory(cfg: DropletsConfig) -> TheoryResult:
    ts = cfg.teacher
    crit_paper = critical_point(ts)
    crit_corr = critical_point(ts, relaxed=True)
    table = {}
    for s2 in (0.30, 0.25, 0.20, 0.18):
        u, g = float(ts.u(s2)), float(ts.g(s2))
        b = gfl_b(u, g, ts.sigma_w2)
        table[s2] = (b, float(nngp_b(g, ts.sigma_w2)), 1 / gfl_curvature(b, u, ts.sigma_w2))
    curve = list(cfg.curve_sigma2s)
    sharp_1d = sweep_self_consistent(ts.at_dimension(cfg.d_sharp), curve, nq=20_001)
    coarse = curve[::2]
    sharp_2d = sweep_self_consistent(ts.at_dimension(cfg.d_sharp_2d), coarse, two_d=True, nq=1201, nr=240)
    lt = cfg.langevin_theory
    finite_1d = sweep_self_consistent(lt, curve)
    finite_2d = sweep_self_consistent(lt, curve, two_d=True, nq=601, nr=160)
    profile = sweep_self_consistent(ts, [0.30, 0.20, 0.15, 0.12, 0.10])[-1]
    mod = cfg.modular
    grid = np.round(np.arange(0.300, 0.0995, -0.001), 4)
    mcurve = [modular_solve(mod, float(s)) for s in grid]
    onsets = {k: modular_onset(mod, k) for k in (1.0, 5.0)}
    exact = replace(mod, exact_eigenvalue=True)
    mexact = [modular_solve(exact, float(s)) for s in grid]
    bounds = modular_boundaries(mod)
    a_end_once = modular_solve(replace(mod, conjugates_once=True), bounds.sigma2_c2).a
    return TheoryResult(crit_paper, crit_corr, table, sharp_1d, sharp_2d, finite_1d, finite_2d, profile,
                        bounds, mcurve, onsets, mexact, mode_count_readings(mod, 0.227), a_end_once)


def second_minimum(neg_log_p: np.ndarray, centres: np.ndarray, q_from: float = 0.3):
    """Position and depth of an interior minimum of -log p(|q|) beyond ``q_from``: the bin k that lies
    deepest below the highest bin between ``q_from`` and k (the barrier), its position refined by a
    parabola through k and its neighbours. Depth 0 when the curve rises monotonically."""
    ok = np.isfinite(neg_log_p) & (centres > q_from)
    idx = np.nonzero(ok)[0]
    vals = neg_log_p[idx]
    depths = np.maximum.accumulate(vals) - vals  # barrier (running max) above each bin
    j = int(np.argmax(depths))
    k = idx[j]
    depth = float(depths[j])
    if depth <= 0 or k + 1 >= len(neg_log_p) or not np.isfinite(neg_log_p[k + 1]):
        return float(centres[k]), max(depth, 0.0)
    f0, f1, f2 = neg_log_p[k - 1:k + 2]
    h = centres[1] - centres[0]
    shift = 0.5 * h * (f0 - f2) / (f0 - 2 * f1 + f2)
    return float(centres[k] + shift), depth


@dataclass
class ExperimentResult:
    langevin: LangevinResult
    theory_1d: list  # SelfConsistent at the Langevin d, one per Langevin sigma^2
    theory_2d: list


def run_experiments(cfg: DropletsConfig) -> ExperimentResult:
    lv = run_langevin(cfg.langevin)
    s2 = list(cfg.langevin.sigma2s)
    lt = cfg.langevin_theory
    return ExperimentResult(lv, sweep_self_consistent(lt, s2),
                            sweep_self_consistent(lt, s2, two_d=True, nq=601, nr=160))


# ------------------------------------------------------------------------ finite-data ensembles (stored)

FINITE_LABEL = "droplets-finite"
FINITE_BETAS = (1 / 8, 1 / 2)


# beta = 1 (d = 150, N = 700, n = 3000: the base size of v3 §3.1.1 and App. C Eq. 43): the noise levels around the
# two critical points, the paper's sigma_c^2 = 0.18 and the corrected 0.217 (d -> inf); at 0.20 the two theories
# disagree on the phase
BETA1_LABEL = "droplets-finite-beta1"
BETA1_SIGMA2S = (0.24, 0.20, 0.17, 0.14)


def beta1_config() -> LangevinConfig:
    """The finite-data protocol at the paper's base size, beta = alpha = 1 (v3 Table 1, App. C: d = 150, N = 700,
    n = 3000), at :data:`BETA1_SIGMA2S`: above both critical points (0.24), between them (0.20), below both
    (0.17, 0.14). 10 data sets x 1 network (the paper: 50 x 4; each network has 700 neurons, which the histograms
    pool) and 4000 steps as at the smaller sizes (about 40 minutes on one core); its equilibrium is checked by the two
    halves of the recorded samples."""
    return LangevinConfig.finite_data(1.0, sigma2s=BETA1_SIGMA2S, n_nets=10, nets_per_dataset=1, steps=4000,
                                      dtype="float32")


def stored_beta1(root) -> tuple[LangevinResult, dict] | None:
    """The stored beta = 1 ensembles (:func:`beta1_config`) and their manifest, or None when not stored."""
    cfg = beta1_config()
    return ResultsStore(root).load_result(cfg, BETA1_LABEL, lambda arrays: LangevinResult.from_arrays(cfg, arrays))


# The Langevin step's bias: beta = 1/8's ensembles again at half the step, around and below the transition
HALF_STEP_LABEL = "droplets-finite-half-step"
HALF_STEP_SIGMA2S = (0.20, 0.10)


def half_step_config() -> LangevinConfig:
    """:func:`finite_data_config` at beta = 1/8 with half the Langevin step (h = 0.025), twice the steps and twice
    the thinning (so the same stretch of Langevin time and the same number of recorded samples), at
    :data:`HALF_STEP_SIGMA2S`, on the same data sets and seeds. The unadjusted Langevin sampler's bias is first
    order in h, so twice the difference of an ensemble statistic between h = 0.05 and 0.025 estimates the bias of
    the stored h = 0.05 runs (:func:`step_difference`). About 5 minutes on one core."""
    base = finite_data_config(1 / 8)
    return replace(base, sigma2s=HALF_STEP_SIGMA2S, step_size=base.step_size / 2, steps=2 * base.steps,
                   record_every=2 * base.record_every)


def stored_half_step(root) -> tuple[LangevinResult, dict] | None:
    """The stored half-step ensembles (:func:`half_step_config`) and their manifest, or None when not stored."""
    cfg = half_step_config()
    return ResultsStore(root).load_result(cfg, HALF_STEP_LABEL,
                                          lambda arrays: LangevinResult.from_arrays(cfg, arrays))


def step_difference(coarse: LangevinResult, fine: LangevinResult, units) -> dict:
    """Per sigma^2 of ``fine`` (which ``coarse`` must also hold): the difference coarse − fine of a statistic,
    paired unit by unit. ``units(result, s)`` gives the statistic's per-unit values at noise index ``s``, the same
    units in both ensembles (the data sets of :func:`dataset_units`, the groups of networks of
    :func:`droplet_fraction_units`): :func:`half_step_config` reruns the same data sets, whose spread is shared by
    both steps and cancels in the paired difference. Returns each ensemble's mean, the difference, its standard
    error (std of the per-unit differences / sqrt(units)), z, and the first-order estimate of the coarse step's
    bias, twice the difference when the fine step is half the coarse one."""
    ratio = coarse.config.step_size / fine.config.step_size
    if not np.isclose(ratio, 2.0):
        raise ValueError(f"step_difference needs a fine step half the coarse one; got {coarse.config.step_size:g} and "
                         f"{fine.config.step_size:g}.")
    out = {}
    for j, s2 in enumerate(fine.config.sigma2s):
        where = [i for i, c in enumerate(coarse.config.sigma2s) if np.isclose(c, s2)]
        if not where:
            raise ValueError(f"sigma^2 = {s2:g} of the fine ensemble is not in the coarse one {coarse.config.sigma2s}.")
        uc, uf = np.asarray(units(coarse, where[0]), float), np.asarray(units(fine, j), float)
        if uc.shape != uf.shape or uc.ndim != 1 or uc.size < 2:
            raise ValueError(f"step_difference needs the same two or more units in both ensembles; got {uc.shape} "
                             f"and {uf.shape}.")
        d = uc - uf
        se = float(d.std(ddof=1) / np.sqrt(d.size))
        diff = float(d.mean())
        out[s2] = {"coarse": float(uc.mean()), "fine": float(uf.mean()), "diff": diff, "se": se, "z": diff / se,
                   "bias": 2 * diff, "bias_se": 2 * se}
    return out


def dataset_units(attr: str):
    """``units`` for :func:`step_difference`: a learned component averaged over the networks of each data set."""
    return lambda lv, s: lv.dataset_means(attr)[s]


def droplet_fraction(lv: LangevinResult, s: int, q0: float = 0.5, n_subsets: int = 5) -> tuple[float, float]:
    """P(|q| > q0) over every neuron, network and recorded sample at noise index ``s`` (the theory's
    ``SelfConsistent.droplet_fraction``), and its standard error from ``n_subsets`` disjoint groups of networks
    (std / sqrt(n_subsets), as the histograms' error bars). ``q0`` must be a bin edge of the histogram."""
    sub = droplet_fraction_units(lv, s, q0, n_subsets)  # checks q0
    counts = lv.counts[s]  # (networks, bins)
    beyond = lv.edges[:-1] >= q0 - 1e-12
    return float(counts[:, beyond].sum() / counts.sum()), float(sub.std(ddof=1) / np.sqrt(n_subsets))


def droplet_fraction_units(lv: LangevinResult, s: int, q0: float = 0.5, n_subsets: int = 5) -> np.ndarray:
    """P(|q| > q0) in each of ``n_subsets`` disjoint groups of consecutive networks (the units of
    :func:`droplet_fraction`'s standard error, and of :func:`step_difference`). ``q0`` must be a bin edge."""
    edges = lv.edges
    if not np.any(np.isclose(edges, q0)):
        raise ValueError(f"q0={q0!r} is not allowed: it must be a bin edge of the histogram ({edges[1] - edges[0]:g} "
                         "wide).")
    beyond = edges[:-1] >= q0 - 1e-12
    counts = lv.counts[s]
    parts = np.array_split(np.arange(counts.shape[0]), n_subsets)
    return np.array([counts[p][:, beyond].sum() / counts[p].sum() for p in parts])


def follow_index(ours: float, paper: float, corrected: float) -> float:
    """Where ``ours`` lies between two theory values on a log scale: 0 at the paper's theory, 1 at the corrected
    one (log(ours / paper) / log(corrected / paper)); both theories' values must differ and share ours' sign."""
    if not (ours * paper > 0 and paper * corrected > 0) or paper == corrected:
        raise ValueError(f"follow_index needs values of one sign and two different theories: ours={ours!r}, "
                         f"paper={paper!r}, corrected={corrected!r}.")
    return float(np.log(ours / paper) / np.log(corrected / paper))


def follow_index_se(ours: float, ours_se: float, paper: float, corrected: float) -> float:
    """The standard error of :func:`follow_index` from ours' standard error (the theories are exact numbers)."""
    return float(ours_se / abs(ours) / abs(np.log(corrected / paper)))


def follow_index_with_se(ours: float, ours_se: float, paper: float, corrected: float) -> tuple[float, float]:
    """:func:`follow_index` and its standard error (:func:`follow_index_se`), the pair a chapter reports."""
    return follow_index(ours, paper, corrected), follow_index_se(ours, ours_se, paper, corrected)


def finite_data_config(beta: float) -> LangevinConfig:
    """The stored finite-data ensembles: the paper's experiment (v3 App. C: n samples per data set, several
    networks per data set, sigma^2 driving the transition) at beta = alpha = 1/8 and 1/2 of v3 Table 1,
    shrunk to fit a 2-core CPU. beta = 1/8 (d = 53, N = 88, n = 375): all five sigma^2 of v3 App. C,
    50 data sets x 2 networks (the paper: 50 x 4). beta = 1/2 (d = 106, N = 350, n = 1500): sigma^2 = 0.25,
    0.15, 0.10 (before, near and after the transition), 10 data sets x 1 network. Both 4000 Langevin steps
    (h = 0.05 in standardized coordinates, 25 % burn-in) in place of the paper's 360k epochs at lr 2e-3,
    whose time unit is not that of our sampler: what matters is equilibrium, checked by comparing the two
    halves of the recorded samples."""
    if beta == 1 / 8:
        return LangevinConfig.finite_data(beta, sigma2s=(0.30, 0.25, 0.20, 0.15, 0.10), n_nets=100,
                                          nets_per_dataset=2, steps=4000, dtype="float32")
    if beta == 1 / 2:
        return LangevinConfig.finite_data(beta, sigma2s=(0.25, 0.15, 0.10), n_nets=10, nets_per_dataset=1,
                                          steps=4000, dtype="float32")
    raise ValueError(f"beta={beta!r} is not allowed: the stored finite-data ensembles have beta in {FINITE_BETAS} "
                     "(the base size beta = 1 is beta1_config()).")


# v3 App. D, "time-dependent grokking" (Figs 4-6): the paper-scale configs, not run here (see the chapter's ledger)
TIME_DEPENDENT_WIDTHS = (2800, 1400, 700)  # v3 App. D: N = 2800 (before), 1400 (just after), 700 (GMFL-I)


def time_dependent_config(N: int) -> LangevinConfig:
    """v3 App. D at width N: n = 600 training points, d = 150, eps = -1.2, sigma^2 = 0.05, sigma_a^2 = 0.011,
    sigma_w^2 = 0.5, 50 networks, 7e6 full-batch epochs (App. D; the transition is driven by decreasing N).
    Our readings: one data set per network (App. D does not say how the 50 networks share data) and our
    sampler's step h = 0.05 in standardized coordinates counted as one epoch (App. D's learning rate is not
    given). :func:`repro.training.langevin.run_langevin` records the |w.w*| histograms of Fig. 4 and the learned
    components; the loss curves of Fig. 5 and the projections over time of Fig. 6 would need a recorder of
    train and test loss over time, which it does not have. ``python -m repro.book.paper_scale --chapter
    rubin2024_droplets`` projects the cost."""
    if N not in TIME_DEPENDENT_WIDTHS:
        raise ValueError(f"N={N!r} is not allowed: v3 App. D has widths N in {TIME_DEPENDENT_WIDTHS}.")
    return LangevinConfig(d=150, N=N, n=600, sigma_w2=0.5, sigma_a2=0.011, eps=-1.2, sigma2s=(0.05,), n_nets=50,
                          nets_per_dataset=1, steps=7_000_000, likelihood="finite")


def stored_finite_ensembles(cfg: LangevinConfig, root) -> tuple[LangevinResult, dict] | None:
    """The finite-data ensembles stored for exactly ``cfg`` under ``root`` (a :class:`repro.training.store.ResultsStore`
    folder) with their provenance manifest, or None when none is stored. The store verifies config and content."""
    return ResultsStore(root).load_result(cfg, FINITE_LABEL, lambda arrays: LangevinResult.from_arrays(cfg, arrays))


def langevin_teacher(c: LangevinConfig) -> TeacherStudent:
    """The theory at a Langevin ensemble's sizes."""
    return TeacherStudent(d=c.d, N=c.N, n=c.n, sigma_w2=c.sigma_w2, sigma_a2=c.sigma_a2, eps=c.eps)


@dataclass
class FiniteEnsemble:
    """One stored finite-data ensemble with the theory (both versions) at its size."""

    beta: float
    langevin: LangevinResult
    manifest: dict
    theory_1d: list  # SelfConsistent at the ensemble's d, one per ensemble sigma^2 (the paper's theory)
    theory_2d: list  # the corrected theory, same points


def load_finite(root, betas=FINITE_BETAS) -> dict:
    """beta -> :class:`FiniteEnsemble` for every stored finite-data ensemble under ``root`` (missing ones are
    left out), with the self-consistent theory at its size and noise levels."""
    out = {}
    for beta in betas:
        cfg = finite_data_config(beta)
        stored = stored_finite_ensembles(cfg, root)
        if stored is None:
            continue
        lv, manifest = stored
        ts, s2 = langevin_teacher(cfg), list(cfg.sigma2s)
        out[beta] = FiniteEnsemble(beta, lv, manifest, sweep_self_consistent(ts, s2),
                                   sweep_self_consistent(ts, s2, two_d=True, nq=601, nr=160))
    return out


def component_stats(lv: LangevinResult, attr: str) -> tuple[np.ndarray, np.ndarray]:
    """(mean, standard error) per sigma^2 of a learned component: averaged over data sets, error = std over
    data sets / sqrt(#data sets), the standard error of the mean (v3 App. C averages over the data sets too, but divides
    the std "by the number of ensembles")."""
    per = lv.dataset_means(attr)
    k = per.shape[1]
    se = per.std(axis=1, ddof=1) / np.sqrt(k) if k > 1 else np.full(per.shape[0], np.nan)
    return per.mean(axis=1), se


def half_z(lv: LangevinResult, attr: str) -> float:
    """Largest |z| over sigma^2 of the change of a learned component between the first and second half of the
    recorded samples (an equilibration check: an ensemble still drifting differs between its halves). Per
    network, second half minus first; z = their mean / (their std / sqrt(networks)). ``attr`` is
    ``"learned_linear"`` or ``"learned_cubic"``."""
    halves = {"learned_linear": lv.half_linear, "learned_cubic": lv.half_cubic}
    if attr not in halves:
        raise ValueError(f"attr={attr!r} is not allowed: choose 'learned_linear' or 'learned_cubic'.")
    diff = np.asarray(halves[attr][1], float) - np.asarray(halves[attr][0], float)  # (S, networks)
    if diff.ndim != 2 or diff.shape[1] < 2:
        raise ValueError(f"half_z needs two or more networks per sigma^2; got halves of shape {diff.shape}.")
    return float(np.max(np.abs(diff.mean(1) / (diff.std(1, ddof=1) / np.sqrt(diff.shape[1])))))


def droplet_significance(lv: LangevinResult, s: int, q_from: float = 0.3, n_subsets: int = 5) -> dict:
    """The deepest interior minimum of -log p(|q|) beyond ``q_from`` (see :func:`second_minimum`) and its
    significance: the depth below the barrier, its standard error from ``n_subsets`` disjoint groups of
    networks (v3 App. C: five subsets; groups keep the networks of a data set together when the data
    sets divide evenly), and z = depth / error. z = 0 when the curve rises monotonically."""
    edges = lv.edges
    centres = 0.5 * (edges[:-1] + edges[1:])
    curve = lv.neg_log_p(s)
    position, depth = second_minimum(curve, centres, q_from)
    ok = np.isfinite(curve) & (centres > q_from)
    idx = np.nonzero(ok)[0]
    vals = curve[idx]
    run = np.maximum.accumulate(vals)
    j = int(np.argmax(run - vals))
    k_min = idx[j]
    k_bar = idx[int(np.argmax(vals[:j + 1]))]
    if depth <= 0:
        return {"position": position, "depth": 0.0, "error": float("nan"), "z": 0.0}
    parts = np.array_split(np.arange(lv.counts.shape[1]), n_subsets)
    sub = np.array([lv.neg_log_p(s, p) for p in parts])
    d_sub = sub[:, k_bar] - sub[:, k_min]
    error = float(d_sub.std(ddof=1) / np.sqrt(n_subsets)) if np.all(np.isfinite(d_sub)) else float("inf")
    return {"position": position, "depth": float(depth), "error": error, "z": float(depth / error)}


def histogram_deviation(lv: LangevinResult, s: int, sol, max_nats: float = 5.0) -> float:
    """Largest |-log p| difference (nats) between the ensembles' histogram and a theory's over the bins
    where the theory lies within ``max_nats`` of the first bin (inf if such a bin was never visited)."""
    theory = binned_neg_log_p(sol, lv.edges)
    ours = lv.neg_log_p(s)
    mask = theory <= max_nats
    with np.errstate(invalid="ignore"):
        return float(np.max(np.abs(ours[mask] - theory[mask])))


# ------------------------------------------------------------- seed spread of the stored ensembles' statistics

SPREAD_RESAMPLES = 1000  # bootstrap draws of bootstrap_se


def resample_datasets(lv: LangevinResult, datasets) -> LangevinResult:
    """``lv`` with its networks replaced by those of the data sets ``datasets`` (indices; repeats allowed), in that
    order, each data set's networks kept together: one draw of :func:`bootstrap_se`. Every data set must be full."""
    cfg = lv.config
    if cfg.n_nets % cfg.nets_per_dataset:
        raise ValueError(f"resample_datasets needs full data sets; {cfg.n_nets} networks in data sets of "
                         f"{cfg.nets_per_dataset}.")
    ds = cfg.dataset_of_net
    nets = np.concatenate([np.nonzero(ds == k)[0] for k in np.asarray(datasets, dtype=int)])
    halves = {k: None if getattr(lv, k) is None else getattr(lv, k)[:, :, nets] for k in ("half_linear", "half_cubic")}
    return LangevinResult(replace(cfg, n_nets=len(nets)), lv.edges, lv.counts[:, nets], lv.r_sums[:, nets],
                          lv.learned_linear[:, nets], lv.learned_cubic[:, nets], **halves)


def bootstrap_se(statistic, *ensembles: LangevinResult, paired: bool = False, n_resamples: int = SPREAD_RESAMPLES,
                 seed: int = 0) -> float | None:
    """The seed standard error of ``statistic(*ensembles)``, a number read off stored ensembles whose error no
    formula gives (a position or depth of the pooled histogram, a significance, a ratio of two ensembles): the data
    sets of each ensemble (its independent draws: the networks of one data set share its samples, and each network
    its seed) are resampled with replacement (:func:`resample_datasets`), each ensemble apart
    (:func:`repro.metrics.bootstrap.group_draws`), the statistic recomputed, and the error read off the resampled
    values by :func:`repro.metrics.bootstrap.resample_spread`. ``paired``: the ensembles ran on the same data sets
    (the half-step run), so one draw of data sets (:func:`repro.metrics.bootstrap.seed_draws`) serves them all. A
    fixed generator: the same ensembles give the same error. Every resampled value must be finite."""
    check_int("n_resamples", n_resamples, minimum=2)
    sizes = [lv.config.n_datasets for lv in ensembles]
    if paired and len(set(sizes)) != 1:
        raise ValueError(f"paired ensembles must have the same data sets; got {sorted(set(sizes))} data sets.")
    draws = [seed_draws(sizes[0], n_resamples, seed)] * len(ensembles) if paired else \
        group_draws(sizes, n_resamples, seed)
    values = np.array([statistic(*(resample_datasets(lv, d) for lv, d in zip(ensembles, picks)))
                       for picks in zip(*draws)], dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"bootstrap_se: {int(np.sum(~np.isfinite(values)))} of {len(values)} resampled values are "
                         "not finite; the statistic has no bootstrap error.")
    return resample_spread(values)


def significance_spread(lv: LangevinResult, s: int, key: str = "z") -> float:
    """The bootstrap seed error (:func:`bootstrap_se`) of ``droplet_significance(lv, s)[key]``: the interior minimum's
    ``"position"``, ``"depth"`` or significance ``"z"``. The significance's own error is not 1: its denominator,
    the spread of five subsets (4 degrees of freedom), is itself uncertain, so z scatters over seeds like a noncentral
    t with 4 degrees of freedom."""
    return bootstrap_se(lambda r: droplet_significance(r, s)[key], lv)


def largest_half_z(lv: LangevinResult) -> float:
    """The larger :func:`half_z` of the learned linear and cubic components (the equilibration checks)."""
    return max(half_z(lv, "learned_linear"), half_z(lv, "learned_cubic"))


def finite_spreads(finite: dict) -> dict:
    """The bootstrap seed errors (:func:`bootstrap_se`) of the chapter's readings of the stored ensembles at
    beta = 1/8 and 1/2 (:func:`load_finite`). Per beta: ``(beta, "position")`` and ``(beta, "depth z")`` of the
    droplet minimum at sigma^2 = 0.10, ``(beta, "dip z")`` at 0.25 (:func:`significance_spread`), and
    ``(beta, "distance")``, the histogram's from the paper's theory at 0.25 (:func:`histogram_deviation`). Of both
    sizes, resampled independently: ``"distance ratio"`` (beta = 1/2 over 1/8) and ``"cubic contrast ratio"`` (the
    learned cubic at 0.10 over 0.25, beta = 1/2 over 1/8). At beta = 1/2: ``"corrected over paper at 0.15"``, the
    histogram's distance from the corrected theory over that from the paper's."""
    out, dist = {}, {}
    for beta, fe in finite.items():
        a, b = fe.langevin.sigma2s.index(0.10), fe.langevin.sigma2s.index(0.25)
        out[beta, "position"] = significance_spread(fe.langevin, a, "position")
        out[beta, "depth z"] = significance_spread(fe.langevin, a)
        out[beta, "dip z"] = significance_spread(fe.langevin, b)
        dist[beta] = lambda lv, b=b, sol=fe.theory_1d[b]: histogram_deviation(lv, b, sol)
        out[beta, "distance"] = bootstrap_se(dist[beta], fe.langevin)

    def contrast(lv):
        cub = component_stats(lv, "learned_cubic")[0]
        return cub[lv.sigma2s.index(0.10)] / cub[lv.sigma2s.index(0.25)]

    f8, f2 = finite[1 / 8], finite[1 / 2]
    out["distance ratio"] = bootstrap_se(lambda l2, l8: dist[1 / 2](l2) / dist[1 / 8](l8), f2.langevin, f8.langevin)
    out["cubic contrast ratio"] = bootstrap_se(lambda l2, l8: contrast(l2) / contrast(l8), f2.langevin, f8.langevin)
    s = f2.langevin.sigma2s.index(0.15)
    out["corrected over paper at 0.15"] = bootstrap_se(
        lambda lv: histogram_deviation(lv, s, f2.theory_2d[s]) / histogram_deviation(lv, s, f2.theory_1d[s]),
        f2.langevin)
    return out


def beta1_spreads(lv: LangevinResult) -> dict:
    """The bootstrap seed errors (:func:`bootstrap_se`, over the 10 networks, one per data set) of the checks on the
    stored beta = 1 ensembles (:func:`stored_beta1`): ``"halves"``, :func:`largest_half_z`, and ``"depth z 0.14"``,
    the droplet minimum's significance at sigma^2 = 0.14 (:func:`significance_spread`)."""
    return {"halves": bootstrap_se(largest_half_z, lv),
            "depth z 0.14": significance_spread(lv, lv.sigma2s.index(0.14))}


def step_spreads(coarse: LangevinResult, fine: LangevinResult) -> dict:
    """The bootstrap seed errors (:func:`bootstrap_se`) of the half-step checks: ``"components"``, the largest |z| of
    :func:`step_difference` over the learned linear and cubic components, and ``"fraction"``, over the droplet
    fraction (:func:`droplet_fraction_units`), both resampled by data set jointly in the two ensembles (they ran on
    the same data sets); ``"halves"``, :func:`largest_half_z` of ``fine``."""
    def largest(units):
        return lambda c, f: max(abs(r["z"]) for u in units for r in step_difference(c, f, u).values())

    components = (dataset_units("learned_linear"), dataset_units("learned_cubic"))
    return {"components": bootstrap_se(largest(components), coarse, fine, paired=True),
            "fraction": bootstrap_se(largest((droplet_fraction_units,)), coarse, fine, paired=True),
            "halves": bootstrap_se(largest_half_z, fine)}


# the stored runs of book/_results that this command line computes (book/running.md's table, repro.book.pages)
STORED_RUN_TABLE = StoredRunTable(chapter="rubin2024_droplets", rows=(
    StoredRun("finite-data Langevin ensembles at β = α = 1/8 (50 data sets × 2 networks) and 1/2 (10 × 1), 4000 steps", "",
              ("droplets-finite",)),
    StoredRun("finite-data Langevin ensembles at the base size β = α = 1 (d = 150; 10 data sets × 1 network; σ² = 0.24, "
              "0.20, 0.17, 0.14 around both critical points), 4000 steps; claims registered before the run", "--beta 1",
              ("droplets-finite-beta1",)),
    StoredRun("the Langevin step's bias: β = α = 1/8 again at half the step (h = 0.025, 8000 steps, σ² = 0.20 and 0.10, "
              "same data and seeds); claims registered before the run", "--half-step", ("droplets-finite-half-step",)),
))


def main(argv=None) -> int:
    """``python -m repro.experiments.rubin2024_droplets --store book/_results``: run the finite-data Langevin ensembles at
    beta = 1/8 and 1/2 (:func:`finite_data_config`; about an hour on one busy CPU core) and store them with
    provenance for the chapter."""
    parser = store_parser("repro.experiments.rubin2024_droplets", main.__doc__)
    parser.add_argument("--beta", type=float, nargs="+", default=list(FINITE_BETAS),
                        help="sizes of the (alpha = beta) family to run (default: 0.125 0.5; 1: the base size at "
                             "the noise levels around both critical points, beta1_config)")
    parser.add_argument("--half-step", action="store_true",
                        help="instead: beta = 1/8 at half the Langevin step (half_step_config, about 5 minutes)")
    parser.add_argument("--recompute", action="store_true", help="recompute even when a result is stored")
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    args = parser.parse_args(argv)
    store = ResultsStore(args.store)
    if args.half_step:
        cfg = half_step_config()
        _, manifest = store.get_or_compute(cfg, lambda: run_langevin(cfg, progress=args.progress).to_arrays(),
                                           label=HALF_STEP_LABEL, recompute=args.recompute)
        print(f"half step: stored at {store.path(cfg, HALF_STEP_LABEL)} ({manifest['wall_time_s']} s)")
        return 0
    for beta in args.beta:
        cfg, label = (beta1_config(), BETA1_LABEL) if beta == 1 else (finite_data_config(beta), FINITE_LABEL)
        _, manifest = store.get_or_compute(cfg, lambda: run_langevin(cfg, progress=args.progress).to_arrays(),
                                           label=label, recompute=args.recompute)
        print(f"beta = {beta:g}: stored at {store.path(cfg, label)} ({manifest['wall_time_s']} s)")
    return 0


# ------------------------------------------------------------------------------------------- figures

SIGMA_COLORS = {0.30: "#4c72b0", 0.25: "#55a868", 0.20: "#c44e52", 0.15: "#8172b2", 0.12: "#ccb974",
                0.10: "#64b5cd"}


BETA_COLORS = {1 / 8: "#dd8452", 1 / 2: "#4c72b0", 1.0: "#55a868", 2.0: "#c44e52"}


def beta_label(beta: float) -> str:
    """'1/8', '1/2', '1', '2' for the sizes of v3 Table 1's family."""
    from fractions import Fraction

    return str(Fraction(beta).limit_denominator(64))


def finite_theory_curves(finite: dict, sigma2s) -> dict:
    """beta -> (paper's theory, corrected theory) along ``sigma2s`` at each stored ensemble's size."""
    out = {}
    for beta, fe in finite.items():
        ts = langevin_teacher(fe.langevin.config)
        out[beta] = (sweep_self_consistent(ts, list(sigma2s)),
                     sweep_self_consistent(ts, list(sigma2s)[::2], two_d=True, nq=601, nr=160))
    return out


if __name__ == "__main__":
    sys.exit(main())

"""The setup tables of ``book/rubin2024_droplets``: the theory's and the Langevin ensembles' setup beside the
paper's (v3 §3.1, Fig. 3, App. C and Table 1), the paper's side as data with its source (the class defaults of
the theory's configs, :meth:`repro.training.langevin.LangevinConfig.finite_data` for the protocol at each size,
and the rows below), ours read from the config, every difference with its reason
(:func:`repro.core.portable.setup_table` refuses an undisclosed one).
"""
from __future__ import annotations

from repro.core.portable import SetupTable, setup_table
from repro.experiments.rubin2024_droplets import DropletsConfig, beta_label
from repro.theory.rubin2024 import Modular, TeacherStudent
from repro.training.langevin import LangevinConfig

THEORY_NAMES = ("paper (v3)", "ours")
PROTOCOL_NAMES = ("paper (v3 App. C, Table 1)", "ours")
# settings of the sampler that its config holds but the paper does not state, or states in other units: rows of
# their own below
SAMPLER_FIELDS = ("step_size", "burn_in", "record_every", "q_bin_width", "q_max", "data_seed", "init_seed",
                  "device", "cpu_threads")
LANGEVIN_FIELDS = [f for f in LangevinConfig.__dataclass_fields__ if f not in SAMPLER_FIELDS]
DTYPE_REASON = "the paper does not state it; float32 for speed"
STEPS_REASON = "our sampler's steps, not the paper's epochs (see the sampler row); equilibrium checked below"
SUBSET_ERRORS = "|w·w*| pooled over the networks; error from 5 subsets of networks"


def sampler_rows(c: LangevinConfig, error_bars: str) -> list[tuple[str, str, str, str]]:
    """The sampler's settings beside the paper's (v3 Eq. 6 and App. C)."""
    bias = 100 * (1 / (1 - c.step_size / 2) - 1)  # Euler-Maruyama on a unit-curvature prior: variance 1/(1 - h/2)
    return [("sampler", "Langevin dynamics (v3 Eq. 6), lr 2e-3, 360k epochs",
             f"unadjusted Langevin in standardized coordinates, h = {c.step_size:g}, {c.steps:,} steps, "
             f"{100 * c.burn_in:.0f} % burn-in",
             "the paper's lr has another time unit; equilibrium is checked by comparing the two halves of the samples. "
             f"The step inflates the prior's variance by {bias:.1f} % (1/(1 - h/2)), more where the likelihood is "
             "stiffer; the half-step run (below) measures the bias on the learned components and the droplets"),
            ("noise amplitude", "2 sigma xi (as printed in v3 Eq. 6)", "sqrt(2) sigma xi (temperature sigma^2)",
             "a typo in v3 Eq. 6: only sqrt(2) sigma gives the posterior the paper states"),
            ("seeds", "50 data-draw and initialization seeds (values not given)",
             f"data seed {c.data_seed}, init seed {c.init_seed} of our generator", "the paper's seeds are not given"),
            ("histograms and error bars", "w·w* pooled over the 200 networks; error: std over 5 subsets divided by "
             "the square root of the samples per ensemble (v3 App. C)", error_bars,
             "we fold the symmetric law onto |w·w*| and divide the subsets' std by √(number of subsets), the "
             "standard error a significance needs" + ("" if "over the 200" in error_bars else "; fewer networks"))]


def teacher_setup_table(cfg: DropletsConfig) -> SetupTable:
    """The teacher-student theory's setup beside the paper's base scale (v3 §3.1.1 and App. C)."""
    return setup_table("Theory: the teacher-student base scale (v3 §3.1.1 and App. C)", TeacherStudent(), cfg.teacher,
                       names=THEORY_NAMES,
                       extra=[("d -> infinity", "saddle point, d -> infinity (v3 §3.1, App. A.1)",
                               f"critical points at d -> infinity; curves of the paper's theory at d = {cfg.d_sharp:,}",
                               "a large d stands in for the limit on the curves"),
                              ("kernel element Q11 (v3 App. A.3)", "2/pi, as printed", "4/pi",
                               "a typo: with 2/pi the transition moves to u_c = 23 (see the checks)")])


def modular_setup_table(cfg: DropletsConfig) -> SetupTable:
    """The modular-addition theory's setup beside the paper's (v3 Fig. 3)."""
    return setup_table("Theory: modular addition (v3 Fig. 3)", Modular(), cfg.modular, names=THEORY_NAMES)


def infinite_data_setup_table(lv_cfg: LangevinConfig) -> SetupTable:
    """The infinite-data Langevin ensembles (checks of the theory) beside the paper's protocol at beta = 1/8."""
    return setup_table("Infinite-data Langevin ensembles (checks of the theory), against the paper's protocol at "
                       "beta = 1/8", LangevinConfig.finite_data(1 / 8), lv_cfg, fields=LANGEVIN_FIELDS,
                       names=PROTOCOL_NAMES,
                       reasons_if_differs={
                           "likelihood": "the infinite-data (equivalent-kernel) limit the theory describes: these "
                                         "runs check the theory, they do not reproduce the paper's experiment",
                           "sigma2s": "four noise levels around the transition",
                           "n_nets": "a book-scale ensemble", "steps": "book scale: minutes of one core",
                           "dtype": DTYPE_REASON},
                       extra=sampler_rows(lv_cfg, "|w·w*| pooled over the networks; error from 4 disjoint groups"))


def finite_setup_table(beta: float, c: LangevinConfig) -> SetupTable:
    """The stored finite-data ensembles at beta = 1/8 or 1/2 beside the paper's protocol at that size."""
    return setup_table(
        f"Finite-data ensembles at beta = {beta_label(beta)} (stored), against the paper's protocol at that size",
        LangevinConfig.finite_data(beta), c, fields=LANGEVIN_FIELDS, names=PROTOCOL_NAMES,
        reasons_if_differs={
            "sigma2s": ("the same five levels, from high to low noise"
                        if set(c.sigma2s) == set(LangevinConfig().sigma2s)
                        else "before, near and after the transition only (CPU budget)"),
            "n_nets": f"{c.n_datasets} data sets x {c.nets_per_dataset} network(s): the CPU budget",
            "nets_per_dataset": "fewer networks per data set (the CPU budget)",
            "steps": STEPS_REASON, "dtype": DTYPE_REASON},
        extra=sampler_rows(c, SUBSET_ERRORS) + [
            ("sizes of the family", "beta = alpha in {1/8, 1/2, 1, 2} (d = 53, 106, 150, 212)",
             "beta = 1/8 and 1/2 here; beta = 1 below", "beta = 2 not run; beta = 1 (stored, below) at the noise "
             "levels that separate the paper's sigma_c^2 = 0.18 from the corrected 0.217"),
            ("test projections", "outputs projected on H1, H3 at 3000 test points (v3 §3.1.1)",
             "exact Gaussian averages of the projections", "no sampling error")])


def beta1_setup_table(c1: LangevinConfig) -> SetupTable:
    """The stored ensembles at the paper's base size, beta = 1, beside the paper's protocol at that size."""
    return setup_table(
        "Finite-data ensembles at beta = 1 (stored), against the paper's protocol at that size",
        LangevinConfig.finite_data(1.0), c1, fields=LANGEVIN_FIELDS, names=PROTOCOL_NAMES,
        reasons_if_differs={
            "sigma2s": "around the two critical points (0.18 and 0.217): above, between and below them",
            "n_nets": f"{c1.n_datasets} data sets x {c1.nets_per_dataset} network: the CPU budget",
            "nets_per_dataset": "one network per data set (the CPU budget)",
            "steps": STEPS_REASON, "dtype": DTYPE_REASON},
        extra=sampler_rows(c1, SUBSET_ERRORS))

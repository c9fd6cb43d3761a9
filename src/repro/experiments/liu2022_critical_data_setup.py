"""The setup tables of ``book/liu2022_critical_data``: each sweep's setup beside the official driver's
(toy/produce_figure_data.py, phase_diagram_plot/effective_linear_eq.ipynb), the official side as data, ours read
from the config, every difference with its reason (:func:`repro.core.portable.setup_table` refuses an undisclosed
one).
"""
from __future__ import annotations

from dataclasses import replace

from repro.core.portable import SetupTable, setup_table
from repro.experiments.liu2022_critical_data import ToyConfig


# The official Fig. 3/4(b) driver: sizes 5-54, seeds 0-2, 10^4 steps (Fig. 3: 5000), every step logged.
OFFICIAL_DRIVER = replace(ToyConfig(), seeds=(0, 1, 2))
SWEEP_FIELDS = ("p", "d_embed", "hidden", "d_out", "lr_repr", "lr_dec", "wd_dec", "train_counts", "seeds",
                "sweep_steps", "eval_every", "rqi_delta", "rqi_threshold")
SWEEP_REASONS = {
    "train_counts": "book scale: the ten sizes from 10 on (5/55 never finds the line, in the official data or ours)",
    "seeds": "more seeds than the official three (the paper does not state its number), to measure shares",
    "sweep_steps": "book scale: 3000 steps keep the chapter within minutes; the stored run below has 10^4",
    "eval_every": "book scale: RQI every 10 steps (a crossing step rounds up to a multiple of 10)",
}


def order_rows(ours):
    """The random-number order of a sweep beside the official code's (rng_order)."""
    if ours.rng_order == "official":
        return [
            ("regression templates", "N(0, 1), drawn per seed from np.random.seed(s)",
             "N(0, 1), drawn per seed from np.random.seed(s)", ""),
            ("split of seed s (RNG order)", "np.random.seed(s): templates first, then choice(55, n)",
             "np.random.seed(s): templates first, then choice(55, n)", ""),
            ("batch", "min(45, n) samples without replacement per step: a random 45 of 50 or 54",
             "min(45, n): at 50 and 54 the official draws from the same RandomState; below, the whole set",
             "below 46 samples the official draw only permutes the summands of the mean loss"),
        ]
    return [
        ("regression templates", "N(0, 1), drawn per seed from np.random.seed(s)",
         f"N(0, 1), one set shared by all runs (seed {ours.template_seed})",
         "the book's earlier order (rng_order='shared_templates'): one table of targets for every run"),
        ("split of seed s (RNG order)", "np.random.seed(s): templates first, then choice(55, n)",
         "RandomState(s).choice(55, n), no templates drawn before it",
         "not the official order: seed s has another training set than the official seed s (its init is the "
         "official one), so runs compare with the official data as shares, not seed by seed"),
        ("batch", "min(45, n) samples without replacement per step: a random 45 of 50 or 54",
         "full batch at every size", "the earlier order trained every run full batch; differs at 50 and 54 "
         "samples only"),
    ]


def sweep_extra(ours):
    """The settings of a fraction sweep that its config does not hold, beside the official driver's."""
    return [
        ("task", "a + b, p = 10, 55 unordered pairs", "a + b, p = 10, 55 unordered pairs", ""),
        ("model and init", "E ~ U(-1/2, 1/2); tanh 1-200-200-30, nn.Linear init",
         "E ~ U(-1/2, 1/2); tanh 1-200-200-30, nn.Linear init", ""),
        ("optimizer", "AdamW(E, 1e-3, wd 0); AdamW(decoder, 1e-4, wd 0), betas (0.9, 0.999), eps 1e-8",
         "AdamW(E, 1e-3, wd 0); AdamW(decoder, 1e-4, wd 0), betas (0.9, 0.999), eps 1e-8", ""),
        *(order_rows(ours)),
        ("dtype", "float32", "float32", ""),
        ("steps of Fig. 3 (Acc, Acc-hat)", "5000 (train_many_fig3)", f"{ours.sweep_steps:,}",
         "one sweep serves Figs 3, 4(b) and 5(b)"),
    ]


def sweep_setup_table(title: str, ours: ToyConfig) -> SetupTable:
    """A fraction sweep's setup beside the official driver's (toy/produce_figure_data.py), every difference with
    its reason."""
    return setup_table(title, OFFICIAL_DRIVER, ours, fields=SWEEP_FIELDS, reasons_if_differs=SWEEP_REASONS,
                       extra=sweep_extra(ours), names=("official code", "ours"))


def random_sets_setup_table(cfg: ToyConfig) -> SetupTable:
    """Figs 4(a) and 5(a)'s random training sets beside the official notebook's (effective_linear_eq.ipynb)."""
    return setup_table("Figs 4(a), 5(a): random training sets", ToyConfig(), cfg, fields=("p", "n_random_sets"),
                       reasons_if_differs={"n_random_sets": "book scale: 2000 random sets per size (standard error of "
                                                            "P(unique) <= 0.011)"},
                       extra=[("sizes", "1-55", "1-55", ""),
                              ("statistics", "share with nullity 2; mean eigh(A_D^T A_D)[2]",
                               "share with nullity 2; mean eigh(A_D^T A_D)[2]", "")],
                       names=("official code", "ours"))

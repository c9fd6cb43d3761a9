"""Mohamadi et al. 2024's two training loops on the batched trainer reproduce the loops they replaced.

``tests/oracles/mohamadi_loops.py`` keeps the former hand-written loops of ``repro.mohamadi2024`` verbatim;
every array the results record (accuracies, losses, norms, margins, eNTK changes and distances, final
weights) must agree in float64 to 1e-10 relative, on small configs covering both loops, several runs with
different init scales and seeds, each optimizer, and the ℓ∞ regularizer on and off.
"""
import dataclasses

import numpy as np
import pytest

from repro import mohamadi2024 as mw
from oracles import mohamadi_loops as oracle

RTOL, ATOL = 1e-10, 1e-12


def assert_same(new, old):
    assert type(new) is type(old)
    for f in dataclasses.fields(old):
        if f.name == "config":
            continue
        a, b = getattr(new, f.name), getattr(old, f.name)
        if b is None:
            assert a is None, f.name
            continue
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, f"{f.name}: shape {a.shape} != {b.shape}"
        if a.dtype == bool or np.issubdtype(b.dtype, np.integer):
            np.testing.assert_array_equal(a, b, err_msg=f.name)
        else:
            np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=f.name)


CLASSIFICATION = dict(p=7, width_factor=2, n_coeffs=(1.0, 1.5, 1.2), init_scales=(1.0, 0.3, 0.5), data_seeds=(0, 1, 2),
                      init_seeds=(3, 4, 5))


@pytest.mark.parametrize("changes", [
    dict(),  # normalized GD, λ = 1e-20 (the chapter's recipe), eNTK of two runs on the eval grid
    dict(linf_reg=0.0, ntk_every=6, ntk_runs=None),  # no regularizer; eNTK steps off the eval grid
    dict(linf_reg=1e-3),  # a regularizer strong enough to steer
    dict(linf_reg=1e-3, exact_regularizer=True),
    dict(optimizer="gd", lr=3.0, linf_reg=1e-3),
    dict(optimizer="gd", lr=3.0, linf_reg=0.0, ntk_every=0),
], ids=["normalized", "no-reg-offgrid-ntk", "normalized-reg", "exact-reg", "gd-reg", "gd-no-reg"])
def test_classification_matches_the_former_loop(changes):
    cfg = mw.ClassificationConfig(**{**CLASSIFICATION, "steps": 300, "eval_every": 4, "ntk_every": 8,
                                     "ntk_runs": (0, 2), **changes})
    assert_same(mw.train_classification(cfg), oracle._train_classification(cfg))


@pytest.mark.parametrize("changes", [
    dict(),  # λ = 1e-4 (App. A.1), eNTK on the eval grid
    dict(linf_reg=0.0, ntk_every=7),  # no regularizer; eNTK steps off the eval grid
    dict(linf_reg=1e-2, lr=0.5),
], ids=["reg", "no-reg-offgrid-ntk", "strong-reg"])
def test_regression_matches_the_former_loop(changes):
    cfg = mw.RegressionConfig(**{**dict(p=5, init_scales=(0.5, 0.25, 1.0), init_seeds=(0, 1), steps=60, eval_every=5,
                                        ntk_points=40, ntk_every=10, device="cpu"), **changes})
    assert_same(mw.train_regression(cfg), oracle._train_regression(cfg))

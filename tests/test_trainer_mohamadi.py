"""Mohamadi et al. 2024's two training loops on the batched trainer reproduce the loops they replaced.

``tests/oracles/mohamadi_loops.py`` keeps the former hand-written loops of ``repro.experiments.mohamadi2024_why_grok`` verbatim;
every array the results record (accuracies, losses, norms, margins, eNTK changes and distances, final
weights) must agree in float64 to 1e-10 relative, on small configs covering both loops, several runs with
different init scales and seeds, each optimizer, and the ℓ∞ regularizer on and off. Then the trainer's pieces
for them: QuadraticNet's init, normalized GD, the hand-written gradient against autograd, eval_steps, and
the errors for bad options.
"""
import dataclasses
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.data.tasks import TaskData
from repro.experiments import mohamadi2024_why_grok as mw
from repro.models.networks import QuadraticNetConfig, build_model
from repro.theory import mohamadi2024 as th
from repro.training import trainer as tr
from oracles import mohamadi_loops as oracle

RTOL, ATOL = 1e-10, 1e-12


def assert_same(new, old, rtol=RTOL):
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
            np.testing.assert_allclose(a, b, rtol=rtol, atol=ATOL, equal_nan=True, err_msg=f.name)


CLASSIFICATION = dict(p=7, width_factor=2, n_coeffs=(1.0, 1.5, 1.2), init_scales=(1.0, 0.3, 0.5), data_seeds=(0, 1, 2),
                      init_seeds=(3, 4, 5))


@pytest.mark.slow
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
    # 1e-9: QuadraticNet reads the triples off the full output grid (one matmul) where the former loop summed
    # each triple's h terms; the α = 1 runs diverge at lr 1 (p = 5), and their 1e90 losses carry that rounding
    # difference at a few 1e-10 relative.
    assert_same(mw.train_regression(cfg), oracle._train_regression(cfg), rtol=1e-9)


# --------------------------------------------------------------------------------------------------
# The trainer's pieces for these loops


def _pair_data(p):
    a, b = (torch.as_tensor(v) for v in th.ordered_pairs(p))
    return TaskData(inputs=torch.stack([a, b], 1), labels=(a + b) % p, n_classes=p, train_idx=np.arange(0, p * p, 2),
                    val_idx=np.arange(1, p * p, 2))


def test_quadratic_net_initializes_as_init_runs():
    seeds, scales = [0, 5, 7], [1.0, 0.3, 0.01]
    W, V = mw.init_runs(5, 6, seeds, scales)
    values = {"init_scale": scales, "repr_init_scale": scales, "init_seed": seeds}
    views = tr.FlatParams(build_model(QuadraticNetConfig(p=5, width=6)), values, torch.float64, "cpu").views()
    assert torch.equal(views["W"], W) and torch.equal(views["V"], V)


def test_normalized_gd_step_has_length_lr():
    """Every run moves Euclidean length lr (its own), a run with a zero gradient does not move (no 0/0)."""
    model = build_model(QuadraticNetConfig(p=5, width=4))
    values = {"init_scale": [1.0] * 3, "repr_init_scale": [1.0] * 3, "init_seed": [0, 1, 2], "lr_repr": [10.0, 3.0, 10.0],
              "lr_dec": [10.0, 3.0, 10.0]}
    flat = tr.FlatParams(model, values, torch.float64, "cpu")
    opt = tr.NormalizedGD(flat, tr.TrainConfig(optimizer="normalized_gd"), values)
    torch.manual_seed(0)
    grads = [torch.randn(3, b - a, dtype=torch.float64) for a, b, _ in flat.offsets.values()]
    for g in grads:
        g[2] = 0
    before = flat.flat.clone()
    opt.step(flat.flat, grads)
    moved = (flat.flat - before).norm(dim=1)
    assert torch.allclose(moved, torch.tensor([10.0, 3.0, 0.0], dtype=torch.float64), atol=1e-12)


def test_hand_written_and_autograd_gradients_train_alike():
    """Performance.fast_grad does not change what normalized GD with the exact ℓ∞ term computes (before the
    softmax saturates, where autograd's gradient would underflow to zero)."""
    p = 5
    cfg = tr.TrainConfig(steps=20, optimizer="normalized_gd", lr_repr=1.0, lr_dec=1.0, eval_every=5,
                         dtype="float64", device="cpu")
    runs = {"init_seed": [0, 1], "init_scale": [1.0, 0.5], "repr_init_scale": [1.0, 0.5]}
    out = [tr.train(QuadraticNetConfig(p=p, width=6), _pair_data(p), cfg, runs,
                    record=tr.Record(keep_final_params=True), components=(tr.LinfPenalty(1e-2),),
                    performance=tr.Performance(fast_grad=fast, progress=False)) for fast in (True, False)]
    for k in ("W", "V"):
        np.testing.assert_allclose(out[0].final_params[k], out[1].final_params[k], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(out[0]["train_loss"], out[1]["train_loss"], rtol=1e-9)


def test_eval_steps_replace_the_eval_grid():
    cfg = tr.TrainConfig(steps=12, optimizer="gd", lr_repr=0.1, lr_dec=0.1, eval_every=5, dtype="float64", device="cpu")
    seen = []
    h = tr.train(QuadraticNetConfig(p=5, width=4), _pair_data(5), cfg,
                 record=tr.Record(callback=lambda step, views: seen.append(step) or {"x": views["W"][:, 0, 0]}),
                 components=(tr.EvalSteps([0, 3, 7]),), performance=tr.Performance(progress=False))
    assert list(h.steps) == [0, 3, 7, 12] and seen == [0, 3, 7, 12] and h["x"].shape == (1, 4)
    with pytest.raises(ValueError, match="eval_steps"):
        tr.train(QuadraticNetConfig(p=5, width=4), _pair_data(5), cfg, components=(tr.EvalSteps([13]),),
                 performance=tr.Performance(progress=False))


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="momentum"):
        tr.TrainConfig(optimizer="gd", momentum=0.9)
    with pytest.raises(ValueError, match="wd_dec"):
        tr.TrainConfig(optimizer="normalized_gd", wd_dec=1.0)
    relative = tr.LinfPenalty(1e-3, relative=True)
    with pytest.raises(ValueError, match="relative=True.*optimizer='gd'"):
        tr.train(QuadraticNetConfig(p=5, width=4), _pair_data(5), tr.TrainConfig(steps=2, optimizer="gd", device="cpu"),
                 components=(relative,), performance=tr.Performance(progress=False))
    with pytest.raises(ValueError, match="lam"):
        tr.LinfPenalty(-1.0)
    with pytest.raises(ValueError, match="relative"):
        tr.LinfPenalty(1e-3, relative="yes")
    cfg = tr.TrainConfig(steps=2, optimizer="normalized_gd", dtype="float64", device="cpu")
    with pytest.raises(ValueError, match="relative=True"):  # no underflow-safe gradient under autograd
        tr.train(QuadraticNetConfig(p=5, width=4), _pair_data(5), cfg, components=(relative,),
                 performance=tr.Performance(fast_grad=False, progress=False))
    with pytest.raises(ValueError, match="batch_size"):
        tr.train(QuadraticNetConfig(p=5, width=4), _pair_data(5), replace(cfg, batch_size=4), components=(relative,),
                 performance=tr.Performance(progress=False))
    model = build_model(QuadraticNetConfig(p=5, width=4))
    params = {"W": torch.zeros(1, 4, 10), "V": torch.zeros(1, 5, 4)}
    with pytest.raises(ValueError, match="columns"):
        model.forward(params, torch.zeros(3, 4, dtype=torch.long))

"""The NTK parametrization of Mohamadi et al.'s quadratic network (``QuadraticNetConfig.parametrization="ntk"``, the
first author's public code) against autograd oracles written from its definition: W = W̃/√(2p), V = Ṽ/√h with
W̃, Ṽ ~ N(0, 1), and every gradient, kernel and penalty taken in (W̃, Ṽ)."""
import math

import numpy as np
import pytest
import torch

from repro.experiments import mohamadi2024_why_grok as mw
from repro.models import fastgrad
from repro.models.networks import QuadraticNetConfig, build_model
from repro.theory import mohamadi2024 as th
from repro.training import trainer as tr

P, H = 5, 6


def _ntk_outputs(Wt, Vt, a, b, p=P, h=H):
    """The definition, written out: f = (1/√h) Ṽ ((1/√(2p)) W̃ (e_a, e_b))^2, all p logits (n, p)."""
    z = (Wt[:, a] + Wt[:, p + b]) / math.sqrt(2 * p)
    return (Vt @ z ** 2).T / math.sqrt(h)


def test_config_rejects_unknown_parametrization():
    with pytest.raises(ValueError, match="parametrization"):
        QuadraticNetConfig(p=5, width=6, parametrization="mup")
    with pytest.raises(ValueError, match="parametrization"):
        mw.RegressionConfig(parametrization="NTK")
    with pytest.raises(ValueError, match="parametrization"):
        mw.ClassificationConfig(parametrization="")
    assert QuadraticNetConfig(p=5, width=6).multipliers == (1.0, 1.0)
    assert QuadraticNetConfig(p=5, width=6, parametrization="ntk").multipliers == (1 / math.sqrt(10), 1 / math.sqrt(6))


def test_ntk_init_is_standard_normal_and_matches_init_runs():
    seeds, scales = [0, 5, 7], [1.0, 0.3, 0.01]
    cfg = QuadraticNetConfig(p=P, width=H, parametrization="ntk")
    values = {"init_scale": scales, "repr_init_scale": scales, "init_seed": seeds}
    views = tr.FlatParams(build_model(cfg), values, torch.float64, "cpu").views()
    W, V = mw.init_runs(P, H, seeds, scales, parametrization="ntk")
    assert torch.equal(views["W"], W) and torch.equal(views["V"], V)
    g = torch.Generator().manual_seed(5)
    assert torch.equal(W[1], 0.3 * torch.randn(H, 2 * P, generator=g, dtype=torch.float64))
    # a large draw is N(0, 1): ‖θ‖ ≈ √(3ph), the start the NTK parametrization is chosen for
    Wb, Vb = mw.init_runs(23, 184, [0], [1.0], parametrization="ntk")
    norm = math.sqrt(float(Wb.square().sum() + Vb.square().sum()))
    assert abs(norm / math.sqrt(3 * 23 * 184) - 1) < 0.02


def test_ntk_forward_is_the_definition_on_pairs_and_triples():
    model = build_model(QuadraticNetConfig(p=P, width=H, parametrization="ntk"))
    W, V = mw.init_runs(P, H, [0, 1], [1.0, 0.5], parametrization="ntk")
    a, b = (torch.as_tensor(v) for v in th.ordered_pairs(P))
    out = model.forward({"W": W, "V": V}, torch.stack([a, b], 1))
    for r in range(2):
        assert torch.allclose(out[r], _ntk_outputs(W[r], V[r], a, b), rtol=1e-13, atol=1e-13)
    x = torch.as_tensor(th.all_triples(P)[::7])
    g = model.forward({"W": W, "V": V}, x)[..., 0]
    full = torch.stack([_ntk_outputs(W[r], V[r], x[:, 0], x[:, 1]) for r in range(2)])
    assert torch.allclose(g, full.gather(2, x[:, 2].expand(2, -1)[..., None])[..., 0], rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("grid", [True, False], ids=["all-pairs-grid", "pair-subset"])
def test_ntk_hand_written_gradient_matches_autograd(grid):
    """QuadraticGradient's chain rule to (W̃, Ṽ): exp(log_scale)·grads is autograd's gradient of each run's mean
    cross-entropy of the definition's logits."""
    model = build_model(QuadraticNetConfig(p=P, width=H, parametrization="ntk"))
    W, V = mw.init_runs(P, H, [0, 1], [1.0, 0.5], parametrization="ntk")
    a, b = (torch.as_tensor(v) for v in th.ordered_pairs(P))
    x = torch.stack([a, b], 1)
    if not grid:
        x = x[torch.randperm(P * P, generator=torch.Generator().manual_seed(0))[:15]]
    labels = x.sum(1) % P
    mask = torch.rand(2, len(x), generator=torch.Generator().manual_seed(1)) < 0.6
    grads, log_scale = fastgrad.QuadraticGradient(model, x)({"W": W, "V": V}, x, labels, mask)
    Wg, Vg = W.clone().requires_grad_(True), V.clone().requires_grad_(True)
    logits = torch.stack([_ntk_outputs(Wg[r], Vg[r], x[:, 0], x[:, 1]) for r in range(2)])
    ce = torch.nn.functional.cross_entropy(logits.reshape(-1, P), labels.repeat(2), reduction="none").view(2, -1)
    gW, gV = torch.autograd.grad(((ce * mask).sum(1) / mask.sum(1)).sum(), [Wg, Vg])
    scale = torch.exp(log_scale).view(-1, 1, 1)
    assert torch.allclose(scale * grads["W"], gW, atol=1e-12) and torch.allclose(scale * grads["V"], gV, atol=1e-12)


def test_ntk_kernels_with_multipliers_match_autograd():
    """The closed-form eNTKs at Eq. 2.1's weights with the multipliers are the NTK in (W̃, Ṽ) (autograd)."""
    cfg = QuadraticNetConfig(p=P, width=H, parametrization="ntk")
    m_w, m_v = cfg.multipliers
    W, V = (t[0] for t in mw.init_runs(P, H, [3], [1.0], parametrization="ntk"))
    rng = np.random.default_rng(0)
    xs = torch.as_tensor(rng.integers(0, P, size=(10, 3)))
    xs[1, :2] = xs[0, :2]
    theta = torch.cat([W.reshape(-1), V.reshape(-1)])

    def g(t, x):
        Wt, Vt = t[: H * 2 * P].view(H, 2 * P), t[H * 2 * P:].view(P, H)
        return _ntk_outputs(Wt, Vt, x[:1], x[1:2])[0, x[2]]

    J = torch.stack([torch.autograd.functional.jacobian(lambda t: g(t, x), theta) for x in xs])
    K = th.entk_regression_kernel(W * m_w, V * m_v, xs, multipliers=cfg.multipliers)
    assert torch.allclose(K, J @ J.T, rtol=1e-12, atol=1e-12)
    a, b = xs[:, 0], xs[:, 1]
    J1 = torch.autograd.functional.jacobian(lambda t: _ntk_outputs(t[: H * 2 * P].view(H, 2 * P),
                                                                   t[H * 2 * P:].view(P, H), a, b)[:, 0], theta)
    K1 = th.entk_logit_kernel(W * m_w, V * m_v, a, b, multipliers=cfg.multipliers)
    assert torch.allclose(K1, J1 @ J1.T, rtol=1e-12, atol=1e-12)


def test_ntk_regression_gd_step_matches_autograd():
    """train_regression under the NTK parametrization: one GD step is θ̃ − lr·∇(mean square loss + λ‖θ̃‖∞) of the
    definition, and the recorded ‖θ‖∞ is the parameters'."""
    cfg = mw.RegressionConfig(p=P, init_scales=(1.0, 0.5), init_seeds=(0,), lr=0.3, linf_reg=1e-2, steps=1, eval_every=1,
                              ntk_points=20, ntk_every=1, device="cpu", parametrization="ntk")
    W, V = mw.init_runs(P, cfg.width, cfg.run_seeds, cfg.run_scales, parametrization="ntk")
    train_x, _ = cfg.split()
    x = torch.as_tensor(train_x)
    y = th.regression_targets(x, P)
    Wg, Vg = W.clone().requires_grad_(True), V.clone().requires_grad_(True)
    losses = []
    for r in range(2):
        out = _ntk_outputs(Wg[r], Vg[r], x[:, 0], x[:, 1], h=cfg.width)
        g = out.gather(1, x[:, 2:3])[:, 0]
        linf = torch.maximum(Wg[r].abs().max(), Vg[r].abs().max())
        losses.append((g - y).square().mean() + cfg.linf_reg * linf)
    gW, gV = torch.autograd.grad(sum(losses), [Wg, Vg])
    W1, V1 = W - cfg.lr * gW, V - cfg.lr * gV
    res = mw.train_regression(cfg)
    np.testing.assert_allclose(res.linf[:, 0], torch.maximum(W.abs().amax((1, 2)), V.abs().amax((1, 2))).numpy(), rtol=1e-14)
    np.testing.assert_allclose(res.linf[:, 1], torch.maximum(W1.abs().amax((1, 2)), V1.abs().amax((1, 2))).numpy(),
                               rtol=1e-12)
    train_loss = [float((_ntk_outputs(W1[r], V1[r], x[:, 0], x[:, 1], h=cfg.width).gather(1, x[:, 2:3])[:, 0] - y)
                        .square().mean()) / P for r in range(2)]
    np.testing.assert_allclose(res.train_loss[:, 1], train_loss, rtol=1e-10)
    assert np.all(np.abs(res.ntk_distance[:, 0]) < 1e-12) and np.all(res.ntk_distance[:, 1] > 1e-9)


def test_stored_ntk_configs_are_the_paper_recipe_in_the_ntk_parametrization():
    for p in mw.PAPER_REGRESSION_PS:
        c = mw.paper_regression_config(p)
        assert (c.parametrization, c.lr, c.linf_reg, c.n_exponent, c.width_factor) == ("ntk", 1.0, 1e-4, 2.25, 4)
        assert c.steps == 200_000
    with pytest.raises(ValueError, match="p"):
        mw.paper_regression_config(13)
    c = mw.ntk_classification_config()
    assert (c.parametrization, c.optimizer, c.lr, c.linf_reg, c.width_factor) == ("ntk", "normalized", 10.0, 1e-20, 8)
    assert set(c.n_coeffs) == {2.0} and c.n_runs == len(mw.NTK_CLASS_SCALES) * len(mw.NTK_CLASS_SEEDS)


def test_kernel_classifier_on_split_refuses_the_ntk_parametrization():
    cfg = mw.ClassificationConfig(p=11, steps=2, eval_every=1, parametrization="ntk")
    with pytest.raises(ValueError, match="parametrization"):
        mw.kernel_classifier_on_split(mw.train_classification(cfg))


def test_classification_with_entk_round_trips_its_kernel_records(tmp_path):
    """A stored run that tracks the eNTK keeps its kernel records (the figures and claims of Fig. 1 left need them);
    one that does not keeps only the curves."""
    from repro.training.store import ResultsStore

    cfg = mw.ClassificationConfig(p=7, n_coeffs=(1.0, 1.5), init_scales=(1.0, 0.3), data_seeds=(0, 1), init_seeds=(0, 1),
                                  steps=20, eval_every=5, ntk_every=5, parametrization="ntk")
    res = mw.train_classification(cfg)
    ResultsStore(tmp_path).get_or_compute(cfg, lambda: res.to_arrays(), label="classification-ntk")
    loaded, _ = mw.stored_classification(cfg, tmp_path, "classification-ntk")
    for name in mw.ClassificationResult.CURVES + mw.ClassificationResult.KERNEL:
        np.testing.assert_array_equal(getattr(loaded, name), getattr(res, name), err_msg=name)
    assert loaded.ntk_steps.dtype.kind == "i" and loaded.ntk_fit_step.dtype.kind == "i"
    plain = mw.ClassificationConfig(p=7, n_coeffs=(1.0,), steps=5, eval_every=5)
    assert set(mw.train_classification(plain).to_arrays()) == set(mw.ClassificationResult.CURVES)

"""Tests of repro.theory.mohamadi2024 and repro.experiments.mohamadi2024_why_grok (chapter "Why do you grok?")."""
import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.core.devices import resolve_device
from repro.experiments import mohamadi2024_why_grok as mw
from repro.models import fastgrad
from repro.models.networks import QuadraticNetConfig, build_model
from repro.plotting.mohamadi2024_why_grok import plot_transformer
from repro.theory import mohamadi2024 as th
from repro.training.store import ResultsStore


def _net_output(theta, p, h, x):
    """g(θ; (a, b, c)) for one triple, θ flattened as (W, V): the autograd oracle."""
    W = theta[: h * 2 * p].view(h, 2 * p)
    V = theta[h * 2 * p:].view(p, h)
    z = W[:, x[0]] + W[:, p + x[1]]
    return (V[x[2]] * z ** 2).sum()


def _jacobian(W, V, xs):
    p, h = V.shape
    theta = torch.cat([W.reshape(-1), V.reshape(-1)])
    return torch.stack([torch.autograd.functional.jacobian(lambda t: _net_output(t, p, h, x), theta) for x in xs])


def test_regression_entk_matches_autograd():
    p, h = 5, 6
    W, V = th.pytorch_default_init(p, h, seed=3)
    rng = np.random.default_rng(0)
    xs = rng.integers(0, p, size=(12, 3))
    xs[1, :2] = xs[0, :2]  # make sure shared a, b and c occur
    xs[2, 2] = xs[0, 2]
    J = _jacobian(W, V, xs)
    K = th.entk_regression_kernel(W, V, xs)
    assert torch.allclose(K, J @ J.T, rtol=1e-12, atol=1e-12)
    K_cross = th.entk_regression_kernel(W, V, xs[:4], xs[4:])
    assert torch.allclose(K_cross, J[:4] @ J[4:].T, rtol=1e-12, atol=1e-12)


def test_logit_and_pseudo_ntk_match_autograd():
    p, h = 5, 7
    W, V = th.pytorch_default_init(p, h, seed=1)
    a = np.array([0, 0, 1, 4, 2, 3])
    b = np.array([1, 2, 1, 4, 2, 0])
    theta = torch.cat([W.reshape(-1), V.reshape(-1)]).requires_grad_(True)

    def outputs(t):
        Wt, Vt = t[: h * 2 * p].view(h, 2 * p), t[h * 2 * p:].view(p, h)
        z = Wt[:, a] + Wt[:, p + b]
        return (Vt @ z ** 2).T  # (n, p)

    J = torch.autograd.functional.jacobian(outputs, theta)  # (n, p, P)
    first = J[:, 0]
    assert torch.allclose(th.entk_logit_kernel(W, V, a, b), first @ first.T, rtol=1e-12, atol=1e-12)
    pseudo = J.sum(1) / math.sqrt(p)
    assert torch.allclose(th.pntk_kernel(W, V, a, b), pseudo @ pseudo.T, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("p", range(3, 14))
def test_fourier_construction_is_exact(p):
    a, b = th.ordered_pairs(p)
    target = p * (np.arange(p)[None, :] == ((a + b) % p)[:, None])
    versions = [False, True] if p % 2 else [False]
    for halved in versions:
        W, V = th.fourier_construction(p, halved=halved)
        h = 4 * p - 3 if halved else 8 * p
        assert W.shape == (h, 2 * p) and V.shape == (p, h)
        # the API contract, literally: V (W x)^2 = p·onehot((a + b) mod p) for x = concat(onehot a, onehot b)
        x = np.concatenate([np.eye(p)[a], np.eye(p)[b]], axis=1).T  # (2p, p^2)
        assert np.abs(V @ (W @ x) ** 2 - target.T).max() < 1e-9
        assert th.linf_norm(W, V) == pytest.approx(1.0, abs=1e-12)
        assert th.normalized_margin(W, V, a, b, (a + b) % p) == pytest.approx(p, rel=1e-9)


def test_halved_construction_needs_odd_p():
    with pytest.raises(ValueError, match="halved"):
        th.fourier_construction(8, halved=True)
    with pytest.raises(ValueError, match="p"):
        th.fourier_construction(1)


def test_duplication_keeps_function_and_shrinks_norm():
    p = 7
    W, V = th.fourier_construction(p)
    a, b = th.ordered_pairs(p)
    for r in (2, 8):
        W2, V2 = th.duplicate_neurons(W, V, r)
        assert W2.shape == (8 * p * r, 2 * p)
        assert np.abs(th.quadratic_net(W2, V2, a, b) - th.quadratic_net(W, V, a, b)).max() < 1e-10
        assert th.linf_norm(W2, V2) == pytest.approx(r ** (-1 / 3), rel=1e-12)


@pytest.mark.parametrize("n", [60, 110])
def test_entk_singular_iff_width_times_3p_minus_2_below_n(n):
    p = 5  # per-neuron rank 3p - 2 = 13
    x = th.all_triples(p)[np.random.default_rng(n).permutation(p ** 3)[:n]]
    for h in range(2, 14):
        W, V = th.pytorch_default_init(p, h, seed=h)
        ev = torch.linalg.eigvalsh(th.entk_regression_kernel(W, V, x))
        rank = int((ev > 1e-10 * ev[-1]).sum())
        assert rank == th.entk_rank_bound(p, h, n)
        assert (rank < n) == (h * (3 * p - 2) < n)


def test_expected_entk_matches_monte_carlo():
    p, h = 3, 400
    x = th.all_triples(p)[[0, 1, 3, 4, 13, 26]]
    mc = sum(th.entk_regression_kernel(*th.pytorch_default_init(p, h, seed=s), x) for s in range(200)) / 200
    var_w, var_v = 1 / (3 * 2 * p), 1 / (3 * h)
    expected = th.expected_entk_regression(x, x, h, var_w, 9 / 5, var_v)
    assert torch.allclose(mc, expected, rtol=0.05, atol=0.02 * float(expected.max()))


def test_normalized_gd_training_step_length():
    cfg = mw.ClassificationConfig(p=5, width_factor=2, n_coeffs=(1.0,), steps=1, eval_every=1)
    W0, V0 = mw.init_runs(5, 10, [0], [1.0])
    res = mw.train_classification(cfg)
    dist = math.sqrt(((res.final_W - W0.numpy()) ** 2).sum() + ((res.final_V - V0.numpy()) ** 2).sum())
    assert dist == pytest.approx(cfg.lr, rel=1e-12)


def test_safe_cross_entropy_weights():
    torch.manual_seed(1)
    logits = torch.randn(2, 6, 4, dtype=torch.float64, requires_grad=True)
    labels = torch.tensor([0, 1, 2, 3, 0, 1])
    mask = torch.tensor([[1, 1, 1, 1, 0, 0], [1, 0, 1, 0, 1, 1]], dtype=torch.bool)
    G, log_scale = th.safe_cross_entropy_weights(logits.detach(), labels, mask)
    for r in range(2):
        ce = torch.nn.functional.cross_entropy(logits[r][mask[r]], labels[mask[r]])
        (true,) = torch.autograd.grad(ce, logits)
        assert torch.allclose(torch.exp(log_scale[r]) * G[r], true[r], atol=1e-14)
    # far in the underflow regime the naive softmax gradient is exactly zero; the safe weights are not
    big = 1e4 * torch.nn.functional.one_hot(labels, 4).double()[None]
    naive = torch.softmax(big, -1) - torch.nn.functional.one_hot(labels, 4)
    assert float(naive.abs().max()) == 0.0
    G, _ = th.safe_cross_entropy_weights(big + 0.1 * torch.randn_like(big), labels)
    assert float(G.abs().max()) >= 1.0 and torch.isfinite(G).all()


@pytest.mark.parametrize("grid", [True, False], ids=["all-pairs-grid", "pair-subset"])
def test_quadratic_gradient_matches_autograd(grid):
    """repro.models.fastgrad.QuadraticGradient: exp(log_scale)·grads is autograd's gradient of each run's mean
    cross-entropy on its training pairs, on the p^2 grid (reductions) and on other pairs (one-hot matmuls)."""
    p, h = 5, 6
    model = build_model(QuadraticNetConfig(p=p, width=h))
    W, V = mw.init_runs(p, h, [0, 1], [1.0, 0.5])
    a, b = (torch.as_tensor(v) for v in th.ordered_pairs(p))
    x = torch.stack([a, b], 1) if grid else torch.stack([a, b], 1)[torch.randperm(p * p, generator=torch.Generator().manual_seed(0))[:15]]
    labels = x.sum(1) % p
    mask = torch.rand(2, len(x), generator=torch.Generator().manual_seed(1)) < 0.6
    seen = []
    grads, log_scale = fastgrad.QuadraticGradient(model, x)({"W": W, "V": V}, x, labels, mask,
                                                            lambda out, params: seen.append(out))
    Wg, Vg = W.clone().requires_grad_(True), V.clone().requires_grad_(True)
    logits = mw.forward_pairs(Wg, Vg, x[:, 0], x[:, 1])
    assert torch.equal(seen[0], logits.detach())
    ce = torch.nn.functional.cross_entropy(logits.reshape(-1, p), labels.repeat(2), reduction="none").view(2, -1)
    gW, gV = torch.autograd.grad(((ce * mask).sum(1) / mask.sum(1)).sum(), [Wg, Vg])
    scale = torch.exp(log_scale).view(-1, 1, 1)
    assert torch.allclose(scale * grads["W"], gW, atol=1e-12) and torch.allclose(scale * grads["V"], gV, atol=1e-12)


def test_classification_records_the_kernel_from_fitting_on():
    c = mw.ClassificationConfig(p=11, n_coeffs=(2.0, 2.0), init_scales=(1.0, 1.0), data_seeds=(0, 1), init_seeds=(0, 1),
                                steps=60, eval_every=5, ntk_every=5, ntk_runs=(0,))
    res = mw.train_classification(c)
    fit = res.ntk_fit_step[0]
    assert fit == res.first_step("train", 1.0)[0] > 0 and res.ntk_fit_step[1] == -1  # run 1: no eNTK recorded
    k = int(np.searchsorted(res.ntk_steps, fit))
    assert np.isnan(res.ntk_fit_distance[0, :k]).all() and abs(res.ntk_fit_distance[0, k]) < 1e-12
    before, after = res.shape_change(0)
    assert before == pytest.approx(np.sqrt(2 * res.ntk_distance[0, k])) and 0 <= after <= 2
    assert np.isnan(res.shape_change(1)).all()
    assert res.l2.shape == res.linf.shape and np.all(res.l2 >= res.linf)
    assert np.allclose(res.ntk_norm[0, 0], res.ntk_norm0[0])


def test_sample_seeds_thin_the_other_sample_sizes():
    cfg = mw.WhyGrokConfig(grok_p=11, sample_ps=(11, 13), n_coeffs=(1.0, 2.0), init_scales=(1.0, 0.3), seeds=(0, 1, 2),
                           sample_seeds=(0,))
    c = cfg.classification_config(11)
    assert list(zip(c.n_coeffs, c.init_scales, c.init_seeds)) == [
        (2.0, 1.0, 0), (2.0, 0.3, 0), (1.0, 1.0, 0), (2.0, 1.0, 1), (2.0, 0.3, 1), (2.0, 1.0, 2), (2.0, 0.3, 2)]
    c13 = cfg.classification_config(13)
    assert list(zip(c13.n_coeffs, c13.init_seeds)) == [(1.0, 0), (2.0, 0), (2.0, 1), (2.0, 2)]
    with pytest.raises(ValueError, match="sample_seeds"):
        mw.WhyGrokConfig(seeds=(0, 1), sample_seeds=(2,))


def test_linf_subgradient_splits_ties():
    W = torch.tensor([[[1.0, -3.0], [3.0, 0.5]]], dtype=torch.float64)
    V = torch.tensor([[[-3.0, 1.0]]], dtype=torch.float64)
    gW, gV = th.linf_subgradient([W, V])
    assert torch.equal(gW, torch.tensor([[[0.0, -1 / 3], [1 / 3, 0.0]]], dtype=torch.float64))
    assert torch.equal(gV, torch.tensor([[[-1 / 3, 0.0]]], dtype=torch.float64))


def test_kernel_predictor_is_no_better_than_zero():
    p = 5
    x = th.all_triples(p)
    idx = np.random.default_rng(0).permutation(p ** 3)
    rel = th.entk_regression(p, 4 * p, x[idx[:60]], x[idx[60:]], seed=0)
    assert rel > 0.5  # Thm 3.4's bound; the zero predictor scores exactly 1
    with pytest.raises(ValueError, match="kernel"):
        th.entk_regression(p, 4 * p, x[:5], x[5:], seed=0, kernel="gaussian")


def test_regression_training_smoke():
    cfg = mw.RegressionConfig(p=5, init_scales=(0.5, 0.25), steps=20, eval_every=10, ntk_points=30, ntk_every=10)
    res = mw.train_regression(cfg)
    assert res.train_loss.shape == (2, 3) and res.ntk_change.shape == (2, 3)
    assert np.all(res.train_loss[:, -1] < res.train_loss[:, 0])
    assert res.test_loss[0, 0] == pytest.approx(1.0, abs=0.05)  # tiny init ≈ the zero predictor


def test_regression_seeds_are_runs():
    one = mw.train_regression(mw.RegressionConfig(p=5, init_scales=(0.5,), steps=10, eval_every=5, ntk_points=30,
                                                  ntk_every=5, init_seed=1))
    cfg = mw.RegressionConfig(p=5, init_scales=(0.5, 0.25), init_seeds=(0, 1), steps=10, eval_every=5, ntk_points=30,
                              ntk_every=5)
    assert cfg.run_scales == (0.5, 0.5, 0.25, 0.25) and cfg.run_seeds == (0, 1, 0, 1)
    res = mw.train_regression(cfg)
    assert res.train_loss.shape == (4, 3)
    # run 1 (α = 0.5, seed 1) of the batch is the lone run with init_seed 1
    assert np.allclose(res.train_loss[1], one.train_loss[0], rtol=1e-10)
    with pytest.raises(ValueError, match="init_seeds"):
        mw.RegressionConfig(init_seeds=(0, 0))


def test_regression_store_round_trip_and_first_step(tmp_path):
    cfg = mw.RegressionConfig(p=5, init_scales=(0.5, 0.25), steps=20, eval_every=10, ntk_points=30, ntk_every=10)
    assert mw.stored_regression(cfg, tmp_path) is None
    res = mw.train_regression(cfg)
    from repro.training.store import ResultsStore, StoreMismatch
    ResultsStore(tmp_path).save(cfg, res.to_arrays(), label="regression")
    back, manifest = mw.stored_regression(cfg, tmp_path)
    for name in mw.RegressionResult.ARRAYS:
        assert np.array_equal(getattr(back, name), getattr(res, name), equal_nan=True)
    assert "git_commit" in manifest
    # first_step: losses at or below the threshold, accuracies at or above it; -1 where never
    assert (back.first_step("train_loss", np.inf) == 0).all() and (back.first_step("test_loss", -1.0) == -1).all()
    assert (back.first_step("pair_acc", 0.0) == 0).all()
    # the decisive run's config is valid and is what the CLI stores
    big = mw.grokking_regression_config()
    assert big.lr * big.steps >= 5e4 and big.linf_reg == 1e-4 and len(big.run_scales) == 12


def test_classification_seeds_and_ntk_runs():
    cfg = mw.WhyGrokConfig(grok_p=11, sample_ps=(11,), n_coeffs=(1.0, 2.0), init_scales=(1.0, 0.3), class_steps=3,
                           class_eval_every=1, ntk_every=1, seeds=(0, 1))
    c = cfg.classification_config(11)
    # seed-major: (c, α) = (2, 1), (2, 0.3), (1, 1) for seed 0, then for seed 1
    assert c.n_coeffs == (2.0, 2.0, 1.0) * 2 and c.init_scales == (1.0, 0.3, 1.0) * 2
    assert c.init_seeds == c.data_seeds == (0, 0, 0, 1, 1, 1)
    assert c.ntk_runs == (0, 3)
    res = mw.train_classification(c)
    assert res.runs_of(2.0, 1.0) == [0, 3] and res.runs_of(1.0, 1.0) == [2, 5]
    assert np.isfinite(res.ntk_change[[0, 3]]).all() and np.isnan(res.ntk_change[[1, 2, 4, 5]]).all()
    assert np.isfinite(res.ntk_norm0[[0, 3]]).all() and np.isnan(res.ntk_norm0[1])
    before, after = res.ntk_ratio(0)
    assert before >= 0 and np.isfinite(after)
    with pytest.raises(ValueError, match="seeds"):
        mw.WhyGrokConfig(seeds=())
    with pytest.raises(ValueError, match="ntk_runs"):
        mw.ClassificationConfig(p=5, n_coeffs=(1.0,), ntk_runs=(1,))


@pytest.mark.slow
def test_transformer_seeds_are_runs_of_one_call(monkeypatch):
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    cfg = mw.TransformerGrokConfig.for_scale()
    both = mw.run_transformer_seeds(cfg, (0, 1), progress=False)
    alone = mw.run_transformer(cfg, progress=False)  # init_seed 0
    assert [r.config.init_seed for r in both] == [0, 1]
    if resolve_device("auto").type == "cpu":  # the same bits on a CPU
        assert np.array_equal(both[0].kernels, alone.kernels) and np.array_equal(both[0].test_acc, alone.test_acc)
    else:  # a GPU's matrix kernels depend on the batch's shape: the same run to float64 rounding
        np.testing.assert_allclose(both[0].kernels, alone.kernels, rtol=1e-9)
        np.testing.assert_array_equal(both[0].test_acc, alone.test_acc)
    assert not np.array_equal(both[0].kernels, both[1].kernels)
    fig = plot_transformer(both)
    assert len(fig.axes) >= 3


def test_configs_reject_bad_input():
    with pytest.raises(ValueError, match="p"):
        mw.ClassificationConfig(p=12)
    with pytest.raises(ValueError, match="init_scales"):
        mw.ClassificationConfig(p=11, n_coeffs=(1.0, 2.0))
    with pytest.raises(ValueError, match="n_coeffs"):
        mw.ClassificationConfig(p=5, n_coeffs=(5.0,))
    with pytest.raises(ValueError, match="linf_reg"):
        mw.RegressionConfig(linf_reg=-1.0)
    with pytest.raises(ValueError, match="device"):
        mw.RegressionConfig(device="tpu")


# --------------------------------------------------------------------------------------------------
# Fig. 5: the transformer and the autograd eNTK


def _tiny_transformer(p=5, seed=0):
    from repro.models.networks import TransformerConfig, build_model
    from repro.training.trainer import FlatParams, TrainConfig, per_run_values

    model = build_model(TransformerConfig(d_vocab=p + 1, n_ctx=3, d_model=8, n_heads=2, d_head=4, d_mlp=16,
                                          d_vocab_out=p))
    _, values = per_run_values(TrainConfig(init_seed=seed), None)
    params = {k: v[0].clone() for k, v in FlatParams(model, values, torch.float64, torch.device("cpu")).views().items()}
    forward = lambda ps, x: model.forward({k: v[None] for k, v in ps.items()}, x)[0]
    return forward, params


def _brute_force_ntk(forward, params, x, pick):
    """Per-input, per-parameter autograd loop: J_i = ∂ s(θ; x_i)/∂θ over every tensor, K = J Jᵀ."""
    rows = []
    for xi in x:
        ps = {k: v.clone().requires_grad_(True) for k, v in params.items()}
        s = pick(forward(ps, xi[None])[0])
        grads = torch.autograd.grad(s, list(ps.values()), allow_unused=True)
        rows.append(torch.cat([(torch.zeros_like(v) if g is None else g).reshape(-1)
                               for g, v in zip(grads, ps.values())]))
    J = torch.stack(rows)
    return J @ J.T


@pytest.mark.parametrize("output", ["first", "pntk", 3])
def test_empirical_ntk_matches_brute_force_on_a_transformer(output):
    p = 5
    forward, params = _tiny_transformer(p)
    a, b = th.ordered_pairs(p)
    x = torch.as_tensor(np.stack([a, b, np.full_like(a, p)], 1))[::3]  # 9 sequences [a, b, =]
    pick = {"first": lambda o: o[0], "pntk": lambda o: o.sum() / math.sqrt(p), 3: lambda o: o[3]}[output]
    K = th.empirical_ntk(forward, params, x, output=output)
    assert K.shape == (len(x), len(x)) and K.dtype == torch.float64
    assert torch.allclose(K, _brute_force_ntk(forward, params, x, pick), rtol=1e-10, atol=1e-12)


def test_empirical_ntk_matches_the_quadratic_closed_forms():
    p, h = 5, 7
    W, V = th.pytorch_default_init(p, h, seed=2)
    a, b = np.array([0, 0, 1, 4, 2]), np.array([1, 2, 1, 4, 0])

    def forward(ps, x):
        z = ps["W"][:, x[:, 0]] + ps["W"][:, p + x[:, 1]]
        return (ps["V"] @ z ** 2).T

    x = torch.as_tensor(np.stack([a, b], 1))
    assert torch.allclose(th.empirical_ntk(forward, {"W": W, "V": V}, x), th.entk_logit_kernel(W, V, a, b), rtol=1e-12)
    assert torch.allclose(th.empirical_ntk(forward, {"W": W, "V": V}, x, "pntk"), th.pntk_kernel(W, V, a, b), rtol=1e-12)
    with pytest.raises(ValueError, match="output"):
        th.empirical_ntk(forward, {"W": W, "V": V}, x, output="last")


def test_transformer_config_defaults_and_validation():
    c = mw.TransformerGrokConfig()
    assert (c.p, c.n_train, c.d_model, c.n_heads, c.d_mlp, c.optimizer, c.lr, c.linf_reg) == \
        (113, 5282, 128, 4, 512, "sgd", 0.25, 1e-20)
    assert c.train_config().optimizer == "sgd" and c.train_config().wd_dec == 0.0
    with pytest.raises(ValueError, match="linf_reg"):
        mw.TransformerGrokConfig(linf_reg=1e-4)
    with pytest.raises(ValueError, match="n_coeff"):
        mw.TransformerGrokConfig(p=7)  # 2·7^(5/3) = 51 > 49 pairs
    with pytest.raises(ValueError, match="n_heads"):
        mw.TransformerGrokConfig(d_model=30, n_heads=4)
    with pytest.raises(ValueError, match="optimizer"):
        mw.TransformerGrokConfig(optimizer="adam")


def test_run_transformer_smoke(monkeypatch):
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    cfg = mw.TransformerGrokConfig.for_scale()
    res = mw.run_transformer(cfg, progress=False)
    T = cfg.steps // cfg.eval_every + 1
    assert res.steps.tolist() == list(range(0, cfg.steps + 1, cfg.eval_every))
    assert res.kernels.shape == (T, cfg.ntk_points, cfg.ntk_points)
    assert np.allclose(res.kernels, res.kernels.transpose(0, 2, 1), rtol=1e-5, atol=1e-5 * res.ntk_norm0)
    assert res.kernel_change()[0] == 0 and res.kernel_change()[-1] > 0
    assert res.kernel_distance()[0] == pytest.approx(0, abs=1e-6)
    assert res.train_acc.shape == res.test_acc.shape == res.unmirrored_acc.shape == (T,)
    # the train split really has n = 2p^(5/3) pairs, and the eNTK pairs are fixed by ntk_seed
    data = cfg.task_data()
    assert len(data.train_idx) == cfg.n_train and data.inputs.shape == (cfg.p ** 2, 3)
    assert bool((data.inputs[:, 2] == cfg.p).all())


def test_classification_plain_gd_step_matches_autograd():
    """optimizer="gd": one step is θ − lr·∇(mean CE on each run's training pairs + λ‖θ‖∞), per run (autograd oracle)."""
    cfg = mw.ClassificationConfig(p=5, n_coeffs=(1.0, 1.0), init_scales=(1.0, 0.5), data_seeds=(0, 1),
                                  init_seeds=(0, 1), lr=0.5, linf_reg=1e-3, steps=1, eval_every=1, optimizer="gd")
    W, V = mw.init_runs(5, cfg.width, cfg.init_seeds, cfg.init_scales)
    masks = cfg.train_masks()
    a, b = (torch.as_tensor(v) for v in th.ordered_pairs(5))
    labels = (a + b) % 5
    Wg, Vg = W.clone().requires_grad_(True), V.clone().requires_grad_(True)
    logits = mw.forward_pairs(Wg, Vg, a, b)
    ce = torch.nn.functional.cross_entropy(logits.reshape(-1, 5), labels.repeat(2), reduction="none").view(2, -1)
    linf = torch.maximum(Wg.abs().amax((1, 2)), Vg.abs().amax((1, 2)))
    loss = ((ce * masks).sum(1) / masks.sum(1) + cfg.linf_reg * linf).sum()
    gW, gV = torch.autograd.grad(loss, [Wg, Vg])
    res = mw.train_classification(cfg)
    assert np.allclose(res.final_W, (W - cfg.lr * gW).numpy(), rtol=0, atol=1e-14)
    assert np.allclose(res.final_V, (V - cfg.lr * gV).numpy(), rtol=0, atol=1e-14)
    with pytest.raises(ValueError, match="optimizer"):
        mw.ClassificationConfig(optimizer="adam")


def test_transformer_gram_matches_kernels_and_round_trips_through_the_store(monkeypatch, tmp_path):
    """The Gram matrix ⟨K_t, K_s⟩ gives the same kernel change and distance as the kernels (oracle: the
    kernels themselves and th.kernel_distance), and a stored run loads back equal, seed by seed."""
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    cfg = mw.TransformerGrokConfig.for_scale()
    runs = mw.run_transformer_seeds(cfg, (0, 1), progress=False)
    r = runs[0]
    start = int(r.steps[2])
    direct = np.linalg.norm(r.kernels - r.kernels[2], axis=(1, 2))
    assert np.allclose(r.kernel_change(start), direct, rtol=1e-9, atol=1e-9 * direct.max())
    oracle = [th.kernel_distance(torch.as_tensor(r.kernels[2]), torch.as_tensor(k)) for k in r.kernels]
    assert np.allclose(r.kernel_distance(start), oracle, atol=1e-12)
    assert r.ntk_norm0 == pytest.approx(float(np.linalg.norm(r.kernels[0])))
    ResultsStore(tmp_path).get_or_compute(mw._transformer_store_config(cfg, (0, 1)),
                                          lambda: mw._compute_transformer(cfg, (0, 1)), label="transformer")
    loaded, manifest = mw.stored_transformer(cfg, (0, 1), tmp_path)
    assert [x.config.init_seed for x in loaded] == [0, 1] and manifest["wall_time_s"] >= 0
    for got, want in zip(loaded, runs):
        assert got.kernels is None and got.n_unmirrored == want.n_unmirrored
        for name in mw.TransformerResult.ARRAYS:
            assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert mw.stored_transformer(cfg, (0, 2), tmp_path) is None


def test_classification_unmirrored_accuracy_and_store_round_trip(tmp_path):
    """unmirrored_acc at the last step equals the final weights' accuracy on the test pairs whose mirror is
    untrained too (brute force over the p^2 pairs), and the curves round-trip through the store."""
    p = 7
    cfg = mw.ClassificationConfig(p=p, n_coeffs=(1.0, 1.5), init_scales=(1.0, 0.3), data_seeds=(0, 1),
                                  init_seeds=(0, 1), lr=3.0, steps=30, eval_every=10, optimizer="gd")
    res = mw.train_classification(cfg)
    for r in range(cfg.n_runs):
        W, V = (torch.as_tensor(x[r]).double() for x in (res.final_W, res.final_V))
        trained = res.masks[r].reshape(p, p)
        hits = []
        for a in range(p):
            for b in range(p):
                if not trained[a, b] and not trained[b, a]:
                    x = torch.zeros(2 * p, dtype=torch.float64)
                    x[a], x[p + b] = 1, 1
                    hits.append(int((V @ (W @ x) ** 2).argmax()) == (a + b) % p)
        assert hits and res.unmirrored_acc[r, -1] == pytest.approx(np.mean(hits))
    ResultsStore(tmp_path).get_or_compute(cfg, lambda: res.to_arrays(), label="classification")
    loaded, _ = mw.stored_classification(cfg, tmp_path)
    for name in mw.ClassificationResult.CURVES:
        assert np.array_equal(getattr(loaded, name), getattr(res, name)), name
    assert np.array_equal(loaded.first_step("test", 0.5), res.first_step("test", 0.5))
    assert mw.stored_classification(replace(cfg, steps=31), tmp_path) is None


def test_unit_kernel_distance_is_the_distance_of_unit_norm_kernels():
    g = torch.Generator().manual_seed(0)
    K0, Kt = torch.randn(6, 6, generator=g, dtype=torch.float64), torch.randn(6, 6, generator=g, dtype=torch.float64)
    direct = torch.linalg.norm(Kt / torch.linalg.norm(Kt) - K0 / torch.linalg.norm(K0))
    assert th.unit_kernel_distance(th.kernel_distance(K0, Kt)) == pytest.approx(float(direct), rel=1e-12)
    assert th.unit_kernel_distance(np.array([-1e-17, 0.0, 2.0])).tolist() == [0.0, 0.0, 2.0]

"""Tests of repro.training.langevin, the Langevin ensemble sampler of the droplets chapter (Rubin, Seroussi & Ringel 2024):
gradients against autograd and Monte Carlo, ULA against its closed-form stationary law, and the recorded
statistics (histograms, data-set means, store form) by hand."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.training.langevin import LangevinConfig, finite_loss_grads, population_loss_grads, run_langevin, ula_update

# ---------------------------------------------------------------- Langevin sampler


def test_population_gradients_match_autograd_and_monte_carlo():
    torch.manual_seed(0)
    W = (torch.randn(2, 6, 4, dtype=torch.float64) * 0.5).requires_grad_()
    a = torch.randn(2, 6, dtype=torch.float64).requires_grad_()
    loss, gW, ga = population_loss_grads(W.detach(), a.detach(), -0.3)
    population_loss_grads(W, a, -0.3)[0].sum().backward()
    assert torch.allclose(gW, W.grad, atol=1e-10) and torch.allclose(ga, a.grad, atol=1e-10)
    x = torch.randn(400_000, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    z = x[:, 0]
    f = torch.erf(x @ W.detach()[1].T) @ a.detach()[1]
    mc = ((f - (z - 0.3 * (z**3 - 3 * z))) ** 2).mean()
    assert float(loss[1]) + 1 + 6 * 0.09 == pytest.approx(float(mc), rel=5e-3)


def test_finite_gradients_match_autograd():
    torch.manual_seed(0)
    W = (torch.randn(2, 5, 4, dtype=torch.float64) * 0.5).requires_grad_()
    a = torch.randn(2, 5, dtype=torch.float64).requires_grad_()
    X, y = torch.randn(2, 7, 4, dtype=torch.float64), torch.randn(2, 7, dtype=torch.float64)
    _, gW, ga = finite_loss_grads(W.detach(), a.detach(), X, y)
    finite_loss_grads(W, a, X, y)[0].sum().backward()
    assert torch.allclose(gW, W.grad, atol=1e-10) and torch.allclose(ga, a.grad, atol=1e-10)


def test_ula_stationary_variance_is_closed_form():
    # U = lambda theta^2 / 2: ULA's stationary variance is 1 / (lambda (1 - h lambda / 2)), not 1/lambda
    lam = torch.tensor([0.5, 1.0, 4.0], dtype=torch.float64)[:, None]
    h, gen = 0.2, torch.Generator().manual_seed(0)
    theta = torch.zeros(3, 5_000, dtype=torch.float64)
    acc = torch.zeros_like(lam[:, 0])
    for t in range(400):
        theta = ula_update(theta, lam * theta, h, gen)
        if t >= 100:
            acc += (theta**2).mean(1)
    var = acc / 300
    expected = 1 / (lam[:, 0] * (1 - h * lam[:, 0] / 2))
    assert torch.allclose(var, expected, rtol=0.02)
    assert not torch.allclose(var, 1 / lam[:, 0], rtol=0.02)  # the test can tell the two apart


@pytest.mark.parametrize("likelihood", ["population", "finite"])
def test_network_sampler_reaches_prior_when_data_term_vanishes(likelihood):
    # huge sigma^2: the posterior is the prior, N(0, sigma_w^2/d) per input weight; in standardized
    # coordinates ULA at step h has variance 1/(1 - h/2), and q = w.w* has variance sigma_w^2/d times it
    cfg = LangevinConfig(d=8, N=20, n=10, sigma2s=(1e9,), n_nets=4, steps=600, step_size=0.2, burn_in=0.25,
                         record_every=5, likelihood=likelihood, q_max=3.0, q_bin_width=0.05)
    res = run_langevin(cfg)
    centres = 0.5 * (res.edges[:-1] + res.edges[1:])
    c = res.counts[0].sum(0)
    var_q = float((c * centres**2).sum() / c.sum())
    expected = cfg.sigma_w2 / cfg.d / (1 - cfg.step_size / 2)
    assert var_q == pytest.approx(expected, rel=0.08)
    r = np.nansum(res.r_sums[0].sum(0)) / c.sum()
    assert r == pytest.approx((cfg.d - 1) * expected, rel=0.05)


def test_sampler_shows_droplets_below_transition_smoke():
    # u and g near the paper's base values (u ~ 1/sigma^4, g ~ 0.23/sigma^2) at a tiny size
    cfg = LangevinConfig(d=20, N=30, n=150, sigma_a2=0.03,
                         sigma2s=(0.3, 0.1), n_nets=2, steps=400, likelihood="population", record_every=5)
    res = run_langevin(cfg)
    # lower noise = more data: more of the target is learned, and neurons align more with the teacher
    assert res.learned_linear[1].mean() > res.learned_linear[0].mean()
    frac = res.counts[:, :, 5:].sum((1, 2)) / res.counts.sum((1, 2))
    assert frac[1] > frac[0]


def test_langevin_config_errors_name_the_parameter():
    with pytest.raises(ValueError, match="likelihood"):
        LangevinConfig(likelihood="batch")
    with pytest.raises(ValueError, match="step_size"):
        LangevinConfig(step_size=2.0)
    with pytest.raises(ValueError, match="sigma2s"):
        LangevinConfig(sigma2s=())


# ---------------------------------------------------------------- recorded statistics and their store form


def _synthetic_result(counts, r_sums, nets_per_dataset=1):
    from repro.training.langevin import LangevinResult

    S, R, nb = counts.shape
    cfg = LangevinConfig(sigma2s=tuple(0.3 - 0.1 * s for s in range(S)), n_nets=R, nets_per_dataset=nets_per_dataset,
                         q_max=nb * 0.5, q_bin_width=0.5)
    learned = np.arange(S * R, dtype=float).reshape(S, R)
    return LangevinResult(cfg, cfg.edges, counts, r_sums, learned, -learned, np.stack([learned, learned]),
                          np.stack([-learned, -learned]))


def test_histogram_statistics_by_hand():
    counts = np.array([[[4, 2, 0, 2], [4, 6, 0, 2]]], dtype=float)  # one sigma^2, two networks, four |q| bins
    r_sums = np.array([[[8, 4, 0, 1], [0, 8, 0, 3]]], dtype=float)
    res = _synthetic_result(counts, r_sums)
    # pooled counts 8, 8, 0, 4 of 20: -log p relative to the first bin
    np.testing.assert_allclose(res.neg_log_p(0), [0.0, 0.0, np.inf, np.log(2)])
    np.testing.assert_allclose(res.neg_log_p(0, nets=[0]), [0.0, np.log(2), np.inf, np.log(2)])
    np.testing.assert_allclose(res.mean_r(0), [1.0, 1.5, np.nan, 1.0])  # r sums / counts, NaN where empty
    err = res.neg_log_p_error(0)  # two subsets (one network each): std / sqrt(2) where both are finite
    assert err[0] == 0.0 and err[1] == pytest.approx(np.std([np.log(2), np.log(4 / 6)], ddof=1) / np.sqrt(2))
    assert np.isinf(err[2])


def test_dataset_means_and_store_round_trip():
    counts = np.ones((2, 5, 4))
    res = _synthetic_result(counts, counts, nets_per_dataset=2)
    assert res.config.n_datasets == 3 and res.config.dataset_of_net.tolist() == [0, 0, 1, 1, 2]
    np.testing.assert_allclose(res.dataset_means("learned_linear"), [[0.5, 2.5, 4.0], [5.5, 7.5, 9.0]])
    from repro.training.langevin import LangevinResult

    back = LangevinResult.from_arrays(res.config, res.to_arrays())
    for name in LangevinResult.ARRAYS:
        np.testing.assert_array_equal(getattr(back, name), getattr(res, name))
    with pytest.raises(ValueError, match="counts of shape"):
        LangevinResult.from_arrays(replace(res.config, n_nets=4), res.to_arrays())


def test_finite_data_sizes_follow_table_1():
    base = LangevinConfig()
    c = LangevinConfig.finite_data(0.25, n_nets=8)
    assert (c.N, c.d, c.n) == (round(base.N / 4), round(base.d / 2), round(base.n / 4))
    assert c.sigma_a2 == pytest.approx(base.sigma_a2 * 2) and c.likelihood == "finite" and c.n_nets == 8
    assert c.sigma2s == base.sigma2s
    with pytest.raises(ValueError, match="beta"):
        LangevinConfig.finite_data(0.0)

"""Tests for the finite-data Langevin ensembles of the droplets chapter (Rubin, Seroussi & Ringel 2024):
the data-set sharing of repro.training.langevin, the blocked finite-data gradients, the results-store round trip
and CLI of repro.experiments.rubin2024_droplets, and the statistics the chapter draws from the stored ensembles."""
import math

import numpy as np
import pytest
import torch

from repro.experiments import rubin2024_droplets as droplets
from repro.experiments.rubin2024_droplets import (FINITE_LABEL, beta_label, component_stats, droplet_significance,
                                                  finite_data_config, histogram_deviation, langevin_teacher,
                                                  stored_finite_ensembles)
from repro.theory.rubin2024 import TeacherStudent, self_consistent
from repro.training.langevin import (LangevinConfig, LangevinResult, _chunked_finite_grads, finite_loss_grads,
                                     run_langevin, teacher_data)
from repro.training.store import ResultsStore, StoreMismatch


def tiny_finite(**kw) -> LangevinConfig:
    base = dict(d=6, N=10, n=40, sigma2s=(0.3, 0.1), n_nets=4, nets_per_dataset=2, steps=60, record_every=5)
    base.update(kw)
    return LangevinConfig.finite_data(1 / 8, **base)


# ---------------------------------------------------------------- configs and data


def test_finite_data_sizes_follow_the_alpha_beta_family():
    for beta, (N, d, n) in ((1 / 8, (88, 53, 375)), (1 / 2, (350, 106, 1500)), (1.0, (700, 150, 3000))):
        c = LangevinConfig.finite_data(beta)
        assert (c.N, c.d, c.n, c.likelihood) == (N, d, n, "finite")
        assert c.sigma_a2 == pytest.approx((8 / 700) / math.sqrt(beta))
        # u and g (what the theory depends on) stay at the base scale's values up to the rounding of d, N
        base, ts = TeacherStudent(), langevin_teacher(c)
        assert ts.u(0.2) == pytest.approx(base.u(0.2), rel=0.01)
        assert ts.g(0.2) == pytest.approx(base.g(0.2), rel=0.01)
    assert finite_data_config(1 / 8).n_datasets == 50 and finite_data_config(1 / 2).n_datasets == 10
    assert [beta_label(b) for b in (1 / 8, 1 / 2, 1.0, 2.0)] == ["1/8", "1/2", "1", "2"]
    with pytest.raises(ValueError, match="beta"):
        finite_data_config(1.0)
    with pytest.raises(ValueError, match="beta"):
        LangevinConfig.finite_data(-1.0)
    with pytest.raises(ValueError, match="nets_per_dataset"):
        LangevinConfig(nets_per_dataset=0)


def test_networks_share_data_sets_as_configured():
    cfg = tiny_finite(n_nets=5, nets_per_dataset=2, sigma2s=(0.3, 0.2, 0.1))
    assert cfg.n_datasets == 3 and list(cfg.dataset_of_net) == [0, 0, 1, 1, 2]
    X, y = teacher_data(cfg)
    assert X.shape == (15, cfg.n, cfg.d) and y.shape == (15, cfg.n)
    assert torch.equal(X[0], X[1]) and not torch.equal(X[1], X[2]) and torch.equal(X[2], X[3])
    assert torch.equal(X[0], X[5]) and torch.equal(X[4], X[14])  # the same data sets at every sigma^2
    z = X[..., 0]
    assert torch.allclose(y, z + cfg.eps * (z**3 - 3 * z))  # v1/v3 Eq. 1, no label noise


# ---------------------------------------------------------------- finite-data gradients


def test_blocked_gradients_equal_unblocked_and_autograd():
    gen = torch.Generator().manual_seed(0)
    W = torch.randn(7, 9, 5, generator=gen, dtype=torch.float64) * 0.4
    a = torch.randn(7, 9, generator=gen, dtype=torch.float64) * 0.3
    X, y = torch.randn(7, 11, 5, generator=gen, dtype=torch.float64), torch.randn(7, 11, generator=gen,
                                                                                  dtype=torch.float64)
    _, gW, ga = finite_loss_grads(W, a, X, y)  # the in-place path (no autograd)
    for chunk in (1, 3, 7, 100):
        bW, ba = _chunked_finite_grads(W, a, X, y, chunk)
        assert torch.allclose(bW, gW, rtol=1e-13, atol=1e-15) and torch.allclose(ba, ga, rtol=1e-13, atol=1e-15)
    Wr, ar = W.clone().requires_grad_(), a.clone().requires_grad_()
    finite_loss_grads(Wr, ar, X, y)[0].sum().backward()
    assert torch.allclose(gW, Wr.grad, atol=1e-12) and torch.allclose(ga, ar.grad, atol=1e-12)


@pytest.mark.slow
def test_finite_data_tends_to_the_population_posterior_for_large_n():
    """With n >> N d the data sum approaches n E_x: the two likelihoods give the same learned linear part."""
    common = dict(d=4, N=12, n=3000, sigma_a2=0.05, sigma2s=(15.0,), n_nets=4, nets_per_dataset=1, steps=300,
                  record_every=5, burn_in=0.2)
    fin = run_langevin(LangevinConfig(likelihood="finite", **common))
    pop = run_langevin(LangevinConfig(likelihood="population", **common))
    a, b = fin.learned_linear.mean(), pop.learned_linear.mean()
    assert a > 0.1 and b > 0.1  # the data term matters at this sigma^2 ...
    assert a == pytest.approx(b, rel=0.05)  # ... and the two likelihoods agree on it (n = 3000 >> N d = 48)


# ---------------------------------------------------------------- store and CLI


def test_store_round_trip(tmp_path):
    cfg = tiny_finite()
    assert stored_finite_ensembles(cfg, tmp_path) is None
    res = run_langevin(cfg)
    ResultsStore(tmp_path).save(cfg, res.to_arrays(), label=FINITE_LABEL)
    back, manifest = stored_finite_ensembles(cfg, tmp_path)
    for name in LangevinResult.ARRAYS:
        assert np.array_equal(getattr(back, name), getattr(res, name)), name
    assert manifest["key"] and back.config == cfg
    assert stored_finite_ensembles(tiny_finite(steps=70), tmp_path) is None  # another config: not served
    npz = ResultsStore(tmp_path).path(cfg, FINITE_LABEL) / "arrays.npz"
    npz.write_bytes(npz.read_bytes()[:-8] + b"tampered")
    with pytest.raises(StoreMismatch):
        stored_finite_ensembles(cfg, tmp_path)


def test_from_arrays_refuses_wrong_shapes():
    cfg = tiny_finite()
    arrays = run_langevin(cfg).to_arrays()
    with pytest.raises(ValueError, match="counts"):
        LangevinResult.from_arrays(tiny_finite(n_nets=6), arrays)
    arrays.pop("half_cubic")
    with pytest.raises(ValueError, match="half_cubic"):
        LangevinResult.from_arrays(cfg, arrays)


def test_cli_stores_and_then_serves(tmp_path, monkeypatch, capsys):
    cfg = tiny_finite()
    monkeypatch.setattr(droplets, "finite_data_config", lambda beta: cfg)
    assert droplets.main(["--store", str(tmp_path), "--beta", "0.125"]) == 0
    manifest_path = ResultsStore(tmp_path).path(cfg, FINITE_LABEL) / "manifest.json"
    first = manifest_path.read_text()
    assert droplets.main(["--store", str(tmp_path), "--beta", "0.125"]) == 0  # served, not recomputed
    assert manifest_path.read_text() == first
    assert "stored at" in capsys.readouterr().out


# ---------------------------------------------------------------- statistics of the chapter


def fake_result(counts, cfg=None, linear=None, cubic=None) -> LangevinResult:
    cfg = cfg or LangevinConfig(sigma2s=(0.1,), n_nets=counts.shape[1], nets_per_dataset=1, q_max=1.6)
    S, R = counts.shape[:2]
    lin = np.zeros((S, R)) if linear is None else linear
    cub = np.zeros((S, R)) if cubic is None else cubic
    return LangevinResult(cfg, cfg.edges, counts, counts * 0.3, lin, cub, np.stack([lin, lin]), np.stack([cub, cub]))


def test_droplet_significance_finds_a_planted_second_minimum():
    nb = 16
    centres = (np.arange(nb) + 0.5) * 0.1
    curve = 3 * centres**2 - 2.5 * np.exp(-((centres - 1.0) / 0.12) ** 2)  # a dip at |q| = 1
    rng = np.random.default_rng(0)
    counts = rng.poisson(2e5 * np.exp(-curve), size=(1, 10, nb)).astype(float)
    out = droplet_significance(fake_result(counts), 0)
    assert out["position"] == pytest.approx(1.0, abs=0.08)
    assert out["depth"] > 0.5 and out["z"] > 5
    flat = rng.poisson(2e5 * np.exp(-3 * centres**2), size=(1, 10, nb)).astype(float)
    none = droplet_significance(fake_result(flat), 0)
    assert none["z"] < 3


def test_component_stats_average_over_data_sets():
    cfg = LangevinConfig(sigma2s=(0.2,), n_nets=4, nets_per_dataset=2)
    cubic = np.array([[1.0, 3.0, 5.0, 7.0]])  # data-set means 2 and 6
    res = fake_result(np.ones((1, 4, len(cfg.edges) - 1)), cfg=cfg, cubic=cubic)
    mean, se = component_stats(res, "learned_cubic")
    assert mean[0] == pytest.approx(4.0) and se[0] == pytest.approx(np.std([2, 6], ddof=1) / np.sqrt(2))


def test_histogram_deviation_is_zero_against_its_own_theory():
    ts = TeacherStudent().with_scale(1 / 8)
    sol = self_consistent(ts, 0.2)
    cfg = LangevinConfig(sigma2s=(0.2,), n_nets=1, nets_per_dataset=1)
    from repro.theory.rubin2024 import binned_neg_log_p

    mass = np.exp(-binned_neg_log_p(sol, cfg.edges))
    res = fake_result(mass[None, None, :] * 1e6, cfg=cfg)
    assert histogram_deviation(res, 0, sol) == pytest.approx(0, abs=1e-9)
    res.counts[0, 0, 3] *= np.e  # one bin off by one nat
    assert histogram_deviation(res, 0, sol) == pytest.approx(1, abs=1e-9)


def test_time_dependent_configs_follow_app_d():
    """v3 App. D: n = 600, d = 150, eps = -1.2, sigma^2 = 0.05, sigma_a^2 = 0.011, 50 networks, 7e6 epochs,
    one config per width; any other width is refused by name."""
    for N in droplets.TIME_DEPENDENT_WIDTHS:
        c = droplets.time_dependent_config(N)
        assert (c.N, c.n, c.d, c.eps, c.sigma2s, c.sigma_a2, c.sigma_w2) == (N, 600, 150, -1.2, (0.05,), 0.011, 0.5)
        assert (c.n_nets, c.steps, c.likelihood) == (50, 7_000_000, "finite")
    assert droplets.TIME_DEPENDENT_WIDTHS == (2800, 1400, 700)
    with pytest.raises(ValueError, match="N=1000 is not allowed"):
        droplets.time_dependent_config(1000)


def test_droplet_fraction_counts_the_bins_beyond_q0_with_a_subset_error():
    nb = 16
    counts = np.zeros((1, 10, nb))
    counts[0, :, :5] = 9.0  # |q| < 0.5
    counts[0, :, 5:] = 1.0 / 11  # 11 bins beyond: one count per network
    counts[0, :5, 5:] *= 2  # half the networks have twice as many
    frac, se = droplets.droplet_fraction(fake_result(counts), 0)
    assert frac == pytest.approx(15 / (15 + 450))
    sub = [2 / 47, 2 / 47, 1.5 / 46.5, 1 / 46, 1 / 46]  # five subsets of two networks
    assert se == pytest.approx(np.std(sub, ddof=1) / np.sqrt(5))
    with pytest.raises(ValueError, match="q0=0.55 is not allowed: it must be a bin edge"):
        droplets.droplet_fraction(fake_result(counts), 0, q0=0.55)


def test_follow_index_places_ours_between_the_theories_on_a_log_scale():
    assert droplets.follow_index(0.003, 0.003, 0.009) == pytest.approx(0.0)
    assert droplets.follow_index(0.009, 0.003, 0.009) == pytest.approx(1.0)
    assert droplets.follow_index(math.sqrt(0.003 * 0.009), 0.003, 0.009) == pytest.approx(0.5)
    assert droplets.follow_index(-0.02, -0.01, -0.04) == pytest.approx(0.5)  # negative components too
    with pytest.raises(ValueError, match="one sign"):
        droplets.follow_index(0.01, -0.01, -0.02)


def test_beta1_is_the_base_size_around_both_critical_points():
    cfg = droplets.beta1_config()
    assert (cfg.d, cfg.N, cfg.n) == (150, 700, 3000) and cfg.likelihood == "finite"
    assert max(cfg.sigma2s) > 0.217 and min(cfg.sigma2s) < 0.18
    assert any(0.18 < s < 0.217 for s in cfg.sigma2s)  # between the two critical points
    assert droplets.stored_beta1("/nonexistent-store") is None


def test_follow_index_error_is_the_relative_error_over_the_log_gap():
    se = droplets.follow_index_se(0.006, 0.0006, 0.003, 0.009)
    assert se == pytest.approx(0.1 / math.log(3))
    assert droplets.follow_index_with_se(0.006, 0.0006, 0.003, 0.009) == (
        droplets.follow_index(0.006, 0.003, 0.009), se)
    with pytest.raises(ValueError, match="beta1_config"):
        droplets.finite_data_config(1.0)


def test_half_step_config_covers_the_same_langevin_time_with_the_same_samples():
    base, half = finite_data_config(1 / 8), droplets.half_step_config()
    assert half.step_size == base.step_size / 2 and half.steps * half.step_size == base.steps * base.step_size
    assert half.steps // half.record_every == base.steps // base.record_every
    assert (half.d, half.N, half.n, half.n_nets, half.data_seed, half.init_seed) == (
        base.d, base.N, base.n, base.n_nets, base.data_seed, base.init_seed)
    assert set(half.sigma2s) <= set(base.sigma2s)
    assert droplets.stored_half_step("/nonexistent-store") is None


def test_step_difference_pairs_units_and_doubles_the_difference_for_the_bias():
    """Units share a large spread (the data sets) in both ensembles: the paired standard error sees only the
    spread of the differences; the bias estimate is twice the difference."""
    from types import SimpleNamespace

    shared = np.array([0.0, 1.0, -1.0, 2.0])  # per data set, the same in both ensembles
    coarse = SimpleNamespace(config=SimpleNamespace(step_size=0.05, sigma2s=(0.30, 0.20, 0.10)))
    fine = SimpleNamespace(config=SimpleNamespace(step_size=0.025, sigma2s=(0.20, 0.10)))
    noise = {id(coarse): np.array([0.01, -0.01, 0.01, -0.01]), id(fine): np.zeros(4)}
    units = lambda lv, s: lv.config.sigma2s[s] + 4 * lv.config.step_size + shared + noise[id(lv)]  # bias 4 h
    out = droplets.step_difference(coarse, fine, units)
    assert sorted(out) == [0.10, 0.20]
    for s2 in (0.10, 0.20):
        r = out[s2]
        assert r["diff"] == pytest.approx(0.1) and r["bias"] == pytest.approx(4 * 0.05)  # the coarse step's bias
        assert r["se"] == pytest.approx(np.std([0.01, -0.01, 0.01, -0.01], ddof=1) / 2)
        assert r["z"] == pytest.approx(0.1 / r["se"])
        assert r["fine"] == pytest.approx(s2 + 0.1 + shared.mean())
    with pytest.raises(ValueError, match="half the coarse"):
        droplets.step_difference(coarse, coarse, units)
    with pytest.raises(ValueError, match="not in the coarse"):
        droplets.step_difference(SimpleNamespace(config=SimpleNamespace(step_size=0.05, sigma2s=(0.30,))), fine, units)
    with pytest.raises(ValueError, match="same two or more units"):
        droplets.step_difference(coarse, fine, lambda lv, s: np.zeros(3 if lv is coarse else 4))


def test_half_z_is_the_largest_paired_z_between_the_sample_halves():
    """Oracle: z by hand for each sigma^2; the largest |z| is returned; a bad attr is named."""
    from types import SimpleNamespace

    first = np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0]])  # (S=2, networks=4)
    second = first + np.array([[0.1, 0.3, 0.1, 0.3], [-0.5, -0.4, -0.6, -0.5]])
    lv = SimpleNamespace(half_linear=np.stack([first, second]), half_cubic=np.stack([first, first + 0.01 * np.arange(4)]))
    z = [abs(d.mean() / (d.std(ddof=1) / 2)) for d in (second - first)]
    assert droplets.half_z(lv, "learned_linear") == pytest.approx(max(z))
    d = 0.01 * np.arange(4)
    assert droplets.half_z(lv, "learned_cubic") == pytest.approx(d.mean() / (d.std(ddof=1) / 2))
    with pytest.raises(ValueError, match="attr='cubic'"):
        droplets.half_z(lv, "cubic")


def test_plot_step_bias_draws_one_point_per_statistic_and_noise_level():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from repro.plotting.rubin2024_droplets import plot_step_bias

    row = {"coarse": 1.02, "fine": 1.0, "diff": 0.01, "se": 0.002, "z": 5.0, "bias": 0.02, "bias_se": 0.004}
    stats = {"learned linear": {0.20: row, 0.10: row}, "learned cubic": {0.20: row, 0.10: row}}
    fig = plot_step_bias(stats)
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel() and len(ax.get_legend().get_texts()) == 2
    assert [t.get_text() for t in ax.get_xticklabels()] == ["learned linear", "learned cubic"]
    ys = np.concatenate([line.get_ydata() for line in ax.lines if len(line.get_ydata()) == 2 and line.get_marker() == "o"])
    assert np.allclose(ys, 2.0)  # 100 * bias / fine
    plt.close("all")

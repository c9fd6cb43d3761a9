"""Tests of the (w, m) landscape of Omnigrok's backup slides (repro.experiments.liu2023_omnigrok_messiness)."""
from dataclasses import replace

import numpy as np
import pytest

from repro.experiments.liu2023_omnigrok_messiness import MessinessConfig, MessinessResult, run_messiness


def test_config_defaults_follow_the_official_notebook_and_validate():
    c = MessinessConfig()
    assert (c.p, c.n_train, c.data_seed, c.d_out, c.hidden) == (10, 45, 58, 30, (200, 200))
    assert len(c.messiness) == 21 and c.messiness[0] == 0 and c.messiness[-1] == 0.2
    assert len(c.alphas) == 20 and c.alphas[-1] == 9
    with pytest.raises(ValueError, match="n_train=55 is not allowed"):
        MessinessConfig(n_train=55)
    with pytest.raises(ValueError, match="messiness"):
        MessinessConfig(messiness=(0.2, 0.0))
    with pytest.raises(ValueError, match="every alpha must be > 0"):
        MessinessConfig(alphas=(0.0, 1.0))
    with pytest.raises(ValueError, match="activation"):
        MessinessConfig(activation="leaky")


def test_representations_interpolate_line_and_random_points():
    c = MessinessConfig()
    line, random, templates, train, test = c.representations()
    assert line.shape == random.shape == (10, 2) and templates.shape == (10, 30)
    np.testing.assert_allclose(line[:, 0], np.linspace(-1, 1, 10))
    assert np.abs(line[:, 1]).max() <= c.line_noise and np.abs(random).max() <= 1
    assert len(train) == 45 and len(test) == 10 and not set(train) & set(test)
    for m in (0.0, 0.3):
        d = c.task_data(m)
        rep = m * random + (1 - m) * line
        i, j = np.triu_indices(10)
        np.testing.assert_allclose(d.inputs.numpy(), (rep[i] + rep[j]).astype(np.float32), rtol=1e-6)
        np.testing.assert_array_equal(d.labels.numpy(), (i + j) % 10)
        np.testing.assert_allclose(d.targets.numpy(), templates[(i + j) % 10].astype(np.float32))


def test_critical_alpha_interpolates_the_fit_level():
    c = replace(MessinessConfig(), messiness=(0.0, 0.1), alphas=(1.0, 2.0, 3.0), fit_level=0.01)
    loss = np.array([[[1.0, 0.1, 0.001], [1.0, 0.01, 0.001]], [[0.001, 0.001, 0.001], [1.0, 1.0, 1.0]]])
    r = MessinessResult(c, loss, loss, loss, loss)
    wc = r.critical_alpha()
    np.testing.assert_allclose(wc[0], [2.5, 2.0])  # halfway in log loss between 0.1 and 0.001; exactly on the level
    assert wc[1, 0] == 1.0 and np.isnan(wc[1, 1])  # fitted from the first norm; never fitted


def test_smoke_run_shapes():
    c = replace(MessinessConfig(), messiness=(0.0, 0.2), alphas=(1.0, 3.0), steps=5, seeds=(0, 1))
    r = run_messiness(c, progress=False)
    for key in ("train_loss", "test_loss", "train_acc", "test_acc"):
        assert getattr(r, key).shape == (2, 2, 2)
    assert np.isfinite(r.train_loss).all() and r.median("test_loss").shape == (2, 2)


def test_official_training_is_the_notebooks_and_round_trips_through_the_store(tmp_path):
    """MessinessConfig.official(): addition-landscape.ipynb's LeakyReLU(0.2), Adam lr 1e-2 betas (0.9, 0.99), x0.2
    when (epoch + 1) % 5000 == 0 and 15,000 epochs, on the grid of plot-addition-landscape.ipynb."""
    from repro.experiments.liu2023_omnigrok_messiness import stored_messiness
    from repro.training.store import ResultsStore

    c = MessinessConfig.official()
    assert (c.activation, c.lr, c.beta2, c.lr_decay_factor, c.steps) == ("leaky_relu_0.2", 1e-2, 0.99, 0.2, 15_000)
    assert c.lr_decay_steps == tuple(e for e in range(c.steps) if (e + 1) % 5000 == 0)
    assert c.messiness == MessinessConfig().messiness and c.alphas == MessinessConfig().alphas
    tc = c.train_config()
    assert (tc.beta2, tc.wd_dec, c.step_decay().steps, c.step_decay().factor) == (0.99, 0.0, (4999, 9999, 14999), 0.2)
    with pytest.raises(ValueError, match="lr_decay_steps"):
        replace(c, lr_decay_steps=(9999, 4999))
    small = replace(c, messiness=(0.0, 0.2), alphas=(1.0, 3.0), steps=6, lr_decay_steps=(2, 4))
    r = run_messiness(small, progress=False)
    ResultsStore(tmp_path).get_or_compute(small, r.to_arrays, label="wm")
    back, manifest = stored_messiness(small, tmp_path, label="wm")
    for key in MessinessResult.KEYS:
        np.testing.assert_array_equal(getattr(back, key), getattr(r, key))
    assert stored_messiness(replace(small, steps=7), tmp_path, label="wm") is None


def test_data_size_config_is_the_notebooks_fine_window_at_each_size():
    """plot-addition-data-dependence.ipynb: messiness linspace(0, 0.1, 21), alpha linspace(2.5, 4.0, 21), sizes
    25/35/45/"55" (54: 55 leaves no test pair), the official training; here every 4th messiness, every 2nd alpha."""
    from repro.experiments.liu2023_omnigrok_messiness import DATA_SIZES

    assert DATA_SIZES == (25, 35, 45, 54)
    c = MessinessConfig.data_size(25)
    official = MessinessConfig.official()
    assert c.n_train == 25 and (c.activation, c.lr, c.beta2, c.steps, c.lr_decay_steps) == (
        official.activation, official.lr, official.beta2, official.steps, official.lr_decay_steps)
    np.testing.assert_allclose(c.messiness, np.linspace(0, 0.1, 21)[::4], atol=1e-12)
    np.testing.assert_allclose(c.alphas, np.linspace(2.5, 4.0, 21)[::2], atol=1e-12)
    assert len(c.messiness) == 6 and len(c.alphas) == 11
    with pytest.raises(ValueError, match="n_train=55 is not allowed"):
        MessinessConfig.data_size(55)


def _line_landscape(slope, intercept, messiness, alphas, fit_level=0.02, seeds=1):
    """Training losses whose fit-level crossing lies at ln alpha_c = intercept + slope * m: the loss is
    fit_level * (alpha_c / alpha)^3; critical_alpha interpolates linearly in alpha, so the grid is fine enough
    that the interpolation error is far below the tolerances."""
    c = replace(MessinessConfig(), messiness=tuple(messiness), alphas=tuple(alphas), fit_level=fit_level,
                seeds=tuple(range(seeds)))
    a = np.asarray(alphas)[None, :]
    wc = np.exp(intercept + slope * np.asarray(messiness))[:, None]
    loss = np.broadcast_to(fit_level * (wc / a) ** 3, (seeds, len(messiness), len(alphas))).copy()
    return MessinessResult(c, loss, loss.copy(), loss.copy(), loss.copy())


def test_contour_slope_recovers_a_known_line_and_leaves_out_the_edges():
    from repro.experiments.liu2023_omnigrok_messiness import contour_slope

    m = np.linspace(0, 0.1, 6)
    alphas = np.linspace(2.0, 5.0, 3001)
    cs = contour_slope(_line_landscape(2.0, np.log(2.8), m, alphas, seeds=2))
    assert cs.rows == 6 and abs(cs.slope - 2.0) < 1e-3 and cs.se < 1e-3
    # a row fitted already at the window's first norm (alpha_c is the window's edge, a bound) and a row never
    # fitted are left out
    r2 = _line_landscape(2.0, np.log(2.8), m, alphas)
    r2.train_loss[0, 0] = 1e-4
    r2.train_loss[0, -1] = 1.0
    cs2 = contour_slope(r2)
    assert cs2.rows == 4 and abs(cs2.slope - 2.0) < 1e-3
    # more norm needed per unit of messiness: a larger slope (a smaller theta)
    assert contour_slope(_line_landscape(4.0, np.log(2.6), m, alphas)).slope > cs.slope
    # two rows: a slope without a standard error; one row: no slope
    r3 = _line_landscape(2.0, np.log(2.8), m[:2], alphas)
    cs3 = contour_slope(r3)
    assert cs3.rows == 2 and np.isnan(cs3.se) and abs(cs3.slope - 2.0) < 1e-3
    r3.train_loss[0, 1] = 1.0
    assert np.isnan(contour_slope(r3).slope) and contour_slope(r3).rows == 1


def test_data_size_command_stores_each_size_under_its_label(tmp_path, monkeypatch):
    import repro.experiments.liu2023_omnigrok_messiness as mod

    calls = []

    def fake_run(cfg, progress=None):
        calls.append(cfg.n_train)
        shape = (len(cfg.seeds), len(cfg.messiness), len(cfg.alphas))
        return MessinessResult(cfg, *(np.full(shape, 0.5) for _ in range(4)))

    monkeypatch.setattr(mod, "run_messiness", fake_run)
    assert mod.main(["--store", str(tmp_path), "--data-size", "25", "35"]) == 0
    assert calls == [25, 35]
    stored = mod.stored_data_sizes(tmp_path)
    assert sorted(stored) == [25, 35] and stored[25][0].train_loss.shape == (1, 6, 11)
    assert stored[25][1]["label"] == stored[35][1]["label"] == mod.WM_SIZE_LABEL
    with pytest.raises(ValueError, match="n_train=60 is not allowed"):
        mod.main(["--store", str(tmp_path), "--data-size", "60"])


def test_wide_window_extends_the_norms_down_to_one_with_the_same_step(tmp_path, monkeypatch):
    import repro.experiments.liu2023_omnigrok_messiness as mod

    c, w = MessinessConfig.data_size(25), MessinessConfig.data_size_wide(25)
    assert w.messiness == c.messiness and w.n_train == 25 and len(w.alphas) == 21
    assert w.alphas[0] == 1.0 and w.alphas[-1] == 4.0
    np.testing.assert_allclose(np.diff(w.alphas), 0.15, atol=1e-9)
    assert set(c.alphas) <= set(w.alphas)  # the notebook-window grid is part of the wide one
    monkeypatch.setattr(mod, "run_messiness", lambda cfg, progress=None: MessinessResult(
        cfg, *(np.full((len(cfg.seeds), len(cfg.messiness), len(cfg.alphas)), 0.5) for _ in range(4))))
    assert mod.main(["--store", str(tmp_path), "--data-size", "35", "--wide"]) == 0
    assert sorted(mod.stored_data_sizes(tmp_path, wide=True)) == [35] and not mod.stored_data_sizes(tmp_path)
    assert mod.stored_data_sizes(tmp_path, wide=True)[35][1]["label"] == mod.WM_SIZE_WIDE_LABEL
    with pytest.raises(SystemExit):
        mod.main(["--store", str(tmp_path), "--wide"])


def test_blurred_like_notebook_smooths_the_training_map_in_notebook_cells():
    """A unit spike on the map spreads as scipy's Gaussian with sigma = one notebook cell in this grid's units
    (oracle: gaussian_filter called by hand); the other maps are untouched; uneven grids are refused."""
    from scipy.ndimage import gaussian_filter

    from repro.experiments.liu2023_omnigrok_messiness import NOTEBOOK_FINE_STEP, blurred_like_notebook

    cfg = MessinessConfig(messiness=tuple(np.round(np.linspace(0, 0.1, 6), 4).tolist()),
                          alphas=tuple(np.round(np.linspace(2.5, 4.0, 11), 4).tolist()))
    train = np.zeros((1, 6, 11))
    train[0, 3, 5] = 1.0
    res = MessinessResult(cfg, train, np.ones_like(train), np.zeros_like(train), np.zeros_like(train))
    out = blurred_like_notebook(res)
    sigma = (0.0, NOTEBOOK_FINE_STEP[0] / 0.02, NOTEBOOK_FINE_STEP[1] / 0.15)  # (0, 0.25, 0.5) of our cells
    np.testing.assert_allclose(out.train_loss, gaussian_filter(train, sigma=sigma))
    assert out.train_loss.sum() == pytest.approx(1.0) and out.train_loss[0, 3, 5] < 1.0
    np.testing.assert_array_equal(out.test_loss, res.test_loss)
    np.testing.assert_array_equal(res.train_loss, train)  # the input is not changed
    uneven = replace(cfg, alphas=(2.5, 2.6, 4.0))
    bad = MessinessResult(uneven, np.zeros((1, 6, 3)), np.zeros((1, 6, 3)), np.zeros((1, 6, 3)), np.zeros((1, 6, 3)))
    with pytest.raises(ValueError, match="equally spaced"):
        blurred_like_notebook(bad)

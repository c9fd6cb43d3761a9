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
    assert (tc.beta2, tc.lr_decay_steps, tc.lr_decay_factor, tc.wd_dec) == (0.99, (4999, 9999, 14999), 0.2, 0.0)
    with pytest.raises(ValueError, match="lr_decay_steps"):
        replace(c, lr_decay_steps=(9999, 4999))
    small = replace(c, messiness=(0.0, 0.2), alphas=(1.0, 3.0), steps=6, lr_decay_steps=(2, 4))
    r = run_messiness(small, progress=False)
    ResultsStore(tmp_path).get_or_compute(small, r.to_arrays, label="wm")
    back, manifest = stored_messiness(small, tmp_path, label="wm")
    for key in MessinessResult.KEYS:
        np.testing.assert_array_equal(getattr(back, key), getattr(r, key))
    assert stored_messiness(replace(small, steps=7), tmp_path, label="wm") is None

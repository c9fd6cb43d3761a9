"""Tests of repro.theory.omnigrok (Liu, Michaud & Tegmark 2023): the weight-norm dynamics and time to grok."""
import numpy as np
import pytest

from repro.theory.omnigrok import integrate_norm_dynamics, loglog_slope, norm_decay, time_to_grok

@pytest.mark.slow
def test_time_to_grok_matches_integrated_dynamics():
    for gamma in (0.2, 0.4):
        t, w = integrate_norm_dynamics(3.0, gamma, t_max=20.0, n_steps=40_000, w_c=1.0)
        t_hit = t[np.argmax(w <= 1.0)]
        assert abs(t_hit - time_to_grok(3.0, 1.0, gamma)) < 2e-3
    assert time_to_grok(1.0, 2.0, 0.1) == 0.0 and time_to_grok(2.0, 1.0, 0.0) == float("inf")
    assert time_to_grok(2.0, 1.0, 0.5, lr=1e-3) == pytest.approx(np.log(2) / 5e-4)
    np.testing.assert_allclose(norm_decay(2.0, 0.5, [0.0, 2.0]), [2.0, 2.0 * np.exp(-1.0)])


def test_loglog_slope():
    g = np.array([0.1, 0.2, 0.4, 0.8])
    slope, intercept = loglog_slope(g, 7.0 / g)
    assert slope == pytest.approx(-1.0) and np.exp(intercept) == pytest.approx(7.0)
    with pytest.raises(ValueError):
        loglog_slope(g, -g)

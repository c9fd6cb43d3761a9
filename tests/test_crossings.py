"""The one first-crossing helper (repro.core.crossings) against a brute-force loop."""
import numpy as np
import pytest

from repro.core.crossings import first_hit, first_step


def brute(steps, row, threshold, above, strict):
    for s, v in zip(steps, row):
        if np.isnan(v):
            continue
        if (v > threshold if strict else v >= threshold) if above else (v < threshold if strict else v <= threshold):
            return s
    return -1


@pytest.mark.parametrize("above", [True, False])
@pytest.mark.parametrize("strict", [True, False])
def test_first_step_matches_a_loop(above, strict):
    rng = np.random.RandomState(0)
    steps = np.arange(0, 200, 10)
    values = np.round(rng.rand(3, 4, len(steps)), 1)  # ties with the threshold on purpose
    values[0, 0, 5] = np.nan
    got = first_step(steps, values, 0.8 if above else 0.2, above=above, strict=strict)
    assert got.shape == (3, 4) and got.dtype == np.int64
    for idx in np.ndindex(3, 4):
        assert got[idx] == brute(steps, values[idx], 0.8 if above else 0.2, above, strict)


def test_first_hit_and_errors():
    np.testing.assert_array_equal(first_hit([5, 6, 7], [[False, True, True], [False, False, False]]), [6, -1])
    with pytest.raises(ValueError, match="steps axis"):
        first_step(np.arange(3), np.zeros((2, 4)), 0.5)

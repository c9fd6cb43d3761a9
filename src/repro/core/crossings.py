"""The first step at which a recorded series crosses a threshold: the one implementation behind every
"steps to 95 % accuracy", "first step with RQI > 0.95" and "first step with test loss <= x" in the book,
and :func:`crossing`, where an interpolated curve reaches a level (a critical fraction or size)
(core layer: numpy only, so trainers and results of every layer can use it)."""
from __future__ import annotations

import numpy as np


def first_step(steps, values, threshold: float, *, above: bool = True, strict: bool = False) -> np.ndarray:
    """Per row of ``values`` (..., T), the first entry of ``steps`` (T,) at which the series reaches
    ``threshold``: ``>=`` (``>`` with ``strict``) when ``above``, ``<=`` (``<``) otherwise; -1 where it
    never does. A NaN (a diverged run) never counts as reached. Returns int64 of shape ``values.shape[:-1]``."""
    steps = np.asarray(steps)
    values = np.asarray(values)
    if steps.ndim != 1 or values.shape[-1:] != steps.shape:
        raise ValueError(f"values must end in the steps axis: steps {steps.shape}, values {values.shape}.")
    with np.errstate(invalid="ignore"):
        if above:
            hit = values > threshold if strict else values >= threshold
        else:
            hit = values < threshold if strict else values <= threshold
    return first_hit(steps, hit)


def first_hit(steps, hit) -> np.ndarray:
    """Per row of the boolean ``hit`` (..., T), the first entry of ``steps`` where it is True; -1 where never."""
    steps, hit = np.asarray(steps), np.asarray(hit, dtype=bool)
    return np.where(hit.any(axis=-1), steps[hit.argmax(axis=-1)], -1).astype(np.int64)


def crossing(x, y, level: float) -> float:
    """First x at which the curve y(x) reaches ``level`` (``>=``), interpolating linearly between the grid
    points around it; x[0] when y starts at or above it, nan if it never reaches it."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    above = np.nonzero(y >= level)[0]
    if len(above) == 0:
        return float("nan")
    k = above[0]
    if k == 0:
        return float(x[0])
    return float(x[k - 1] + (level - y[k - 1]) * (x[k] - x[k - 1]) / (y[k] - y[k - 1]))

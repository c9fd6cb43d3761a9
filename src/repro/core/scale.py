"""One switch that sizes every chapter: ``REPRO_SCALE`` = ``book`` | ``paper`` | ``smoke``.

* ``book`` (default): what a chapter runs live on a 2-core laptop CPU within its 4-minute budget.
* ``paper``: the paper's own settings (grids, steps, widths); meant for a GPU.
* ``smoke``: the smallest sizes that still exercise every code path (unit tests, quick checks).

Chapters never branch on the scale themselves: they build configs with :func:`by_scale`, so the
same functions run at every scale and only the numbers change.
"""
from __future__ import annotations

import os
from typing import TypeVar

SCALES = ("book", "paper", "smoke")
T = TypeVar("T")


def current_scale() -> str:
    """The active scale, read from the environment each call (so tests can monkeypatch it)."""
    scale = os.environ.get("REPRO_SCALE", "book").strip().lower() or "book"
    if scale not in SCALES:
        raise ValueError(
            f"REPRO_SCALE={scale!r} is not allowed: REPRO_SCALE must be one of {', '.join(SCALES)}."
        )
    return scale


def by_scale(*, book: T, paper: T, smoke: T | None = None) -> T:
    """Pick the value for the active scale; ``smoke`` falls back to ``book`` when not given."""
    scale = current_scale()
    if scale == "paper":
        return paper
    if scale == "smoke" and smoke is not None:
        return smoke
    return book

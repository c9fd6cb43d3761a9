"""Input checks shared by every config: each failure names the parameter and what is allowed.

Configs call these from ``__post_init__`` so a bad value fails where it is written, not deep inside
a training loop. Nothing is clamped or coerced silently.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from numbers import Integral, Real


def _fail(name: str, value, allowed: str) -> None:
    raise ValueError(f"{name}={value!r} is not allowed: {name} must be {allowed}.")


def check_int(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, Integral):
        _fail(name, value, "an integer")
    if minimum is not None and value < minimum:
        _fail(name, value, f"an integer >= {minimum}")
    if maximum is not None and value > maximum:
        _fail(name, value, f"an integer <= {maximum}")


def check_real(name: str, value, *, positive: bool = False, nonnegative: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(float(value)):
        _fail(name, value, "a finite real number")
    if positive and not value > 0:
        _fail(name, value, "a finite number > 0")
    if nonnegative and not value >= 0:
        _fail(name, value, "a finite number >= 0")


def check_fraction(name: str, value) -> None:
    """A fraction of a dataset: in (0, 1]."""
    check_real(name, value)
    if not 0 < value <= 1:
        _fail(name, value, "a fraction in (0, 1]")


def check_open_unit(name: str, value) -> None:
    """Coefficients such as Adam's betas: in [0, 1)."""
    check_real(name, value)
    if not 0 <= value < 1:
        _fail(name, value, "a number in [0, 1)")


def check_choice(name: str, value, allowed: Iterable) -> None:
    allowed = tuple(allowed)
    if value not in allowed:
        _fail(name, value, "one of " + ", ".join(repr(a) for a in allowed))


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    return all(n % k for k in range(2, int(math.isqrt(n)) + 1))


def check_prime(name: str, value) -> None:
    check_int(name, value, minimum=2)
    if not is_prime(value):
        _fail(name, value, "a prime number (e.g. 7, 11, 59, 97, 113)")

"""Tests of repro.core.validation: each check accepts what it allows and refuses the rest with a message that names
the parameter, the value and what is allowed; nothing is coerced (a bool is no integer, a NaN no real)."""
import math

import pytest

from repro.core.validation import (check_choice, check_fraction, check_int, check_open_unit, check_prime, check_real,
                                   is_prime)


def test_is_prime():
    assert [n for n in range(20) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19]
    assert is_prime(97) and is_prime(113) and not is_prime(91) and not is_prime(-7)


def refused(check, name, value, *args, allowed, **kwargs):
    with pytest.raises(ValueError) as err:
        check(name, value, *args, **kwargs)
    assert str(err.value) == f"{name}={value!r} is not allowed: {name} must be {allowed}."


def test_check_int():
    check_int("steps", 3, minimum=1, maximum=3)
    check_int("steps", __import__("numpy").int64(5))
    refused(check_int, "steps", True, allowed="an integer")
    refused(check_int, "steps", 2.0, allowed="an integer")
    refused(check_int, "steps", 0, minimum=1, allowed="an integer >= 1")
    refused(check_int, "steps", 4, maximum=3, allowed="an integer <= 3")


def test_check_real():
    check_real("lr", 1e-3, positive=True)
    check_real("wd", 0, nonnegative=True)
    check_real("x", -2.5)
    for bad in (math.nan, math.inf, "0.1", False):
        refused(check_real, "lr", bad, allowed="a finite real number")
    refused(check_real, "lr", 0.0, positive=True, allowed="a finite number > 0")
    refused(check_real, "wd", -1e-9, nonnegative=True, allowed="a finite number >= 0")


def test_check_fraction_and_open_unit():
    check_fraction("train_fraction", 1)
    check_fraction("train_fraction", 0.5)
    for bad in (0, 1.01, -0.5):
        refused(check_fraction, "train_fraction", bad, allowed="a fraction in (0, 1]")
    check_open_unit("beta1", 0)
    check_open_unit("beta1", 0.999)
    for bad in (1, 1.5, -0.1):
        refused(check_open_unit, "beta1", bad, allowed="a number in [0, 1)")


def test_check_choice_and_prime():
    check_choice("operation", "x+y", ["x+y", "x-y"])
    refused(check_choice, "operation", "x*y", ["x+y", "x-y"], allowed="one of 'x+y', 'x-y'")
    check_prime("p", 59)
    refused(check_prime, "p", 1, allowed="an integer >= 2")
    refused(check_prime, "p", 57, allowed="a prime number (e.g. 7, 11, 59, 97, 113)")
    refused(check_prime, "p", 59.0, allowed="an integer")

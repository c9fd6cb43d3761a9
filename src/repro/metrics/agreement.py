"""Chance-corrected agreement between two maps of labels: Cohen's kappa with its large-sample standard error.

The share of cells on which two phase maps agree, and the difference of their phase shares, both reward a map that
merely has the right amount of each phase: a map whose cells are shuffled at random keeps every phase share exactly
and still agrees with the reference on ``p_e = sum_k a_k b_k`` of the cells by chance (``a_k``, ``b_k``: the two
maps' shares of label ``k``). Cohen's kappa (Cohen 1960, *Educ. Psychol. Meas.* 20, 37) removes that part,

    kappa = (p_o - p_e) / (1 - p_e),

with ``p_o`` the observed share of cells with the same label: 1 for identical maps, about 0 for a layout that is
unrelated to the reference whatever its shares, negative for one that puts labels where the reference does not.

Its standard error is the large-sample (non-null) one of Fleiss, Cohen & Everitt (1969, *Psychol. Bull.* 72, 323;
Fleiss, Levin & Paik, *Statistical Methods for Rates and Proportions*, 3rd ed., §18.1), for cells drawn independently
from a joint distribution ``p_ij`` (rows: map ``a``; columns: map ``b``)::

    var = [ sum_i p_ii ((1 - p_e) - (p_i. + p_.i)(1 - p_o))^2
            + (1 - p_o)^2 sum_{i != j} p_ij (p_.i + p_j.)^2
            - (p_o p_e - 2 p_e + p_o)^2 ] / (N (1 - p_e)^4).

Neighbouring cells of a phase map are not independent draws (a boundary runs through several), so this error is the
binomial-like bound of one map, as :func:`repro.book.claims.fraction_standard_error` is for a share of cells.
Used by ``book/liu2022_phase_diagrams`` (Fig. 6: ours against the official maps, and the official re-run against the
paper's data file).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Kappa:
    """Cohen's kappa of two label maps over ``n`` shared cells: ``observed`` (p_o), ``chance`` (p_e), ``kappa`` and
    its large-sample ``standard_error``."""

    kappa: float
    standard_error: float
    observed: float
    chance: float
    n: int


def _labels(name: str, values) -> np.ndarray:
    arr = np.asarray(values, dtype=object).ravel()
    if arr.size == 0:
        raise ValueError(f"{name} is empty: kappa needs at least one cell.")
    if any(v is None for v in arr):
        raise ValueError(f"{name} has missing labels (None); pass mask= to leave cells out.")
    return arr


def cohen_kappa(a, b, *, mask=None, categories=None) -> Kappa:
    """Cohen's kappa between the label maps ``a`` and ``b`` (same shape), over the cells where ``mask`` (same shape,
    bool; default all) is true. ``categories``: the labels that may occur (default: those that do); a label of
    either map outside them is an error. Raises ValueError where kappa is undefined: no cells, or both maps one and
    the same label everywhere (p_e = 1)."""
    a_arr, b_arr = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"the two maps have shapes {a_arr.shape} and {b_arr.shape}: kappa compares the same cells.")
    if mask is not None:
        m = np.asarray(mask)
        if m.shape != a_arr.shape or m.dtype != bool:
            raise ValueError(f"mask must be a bool array of the maps' shape {a_arr.shape}, got {m.dtype} {m.shape}.")
        a_arr, b_arr = a_arr[m], b_arr[m]
    x, y = _labels("a", a_arr), _labels("b", b_arr)
    seen = sorted({*map(str, x), *map(str, y)})
    cats = list(seen if categories is None else categories)
    unknown = sorted(set(seen) - set(map(str, cats)))
    if unknown:
        raise ValueError(f"labels {unknown} are not among the categories {cats}.")
    index = {c: k for k, c in enumerate(map(str, cats))}
    n, k = x.size, len(cats)
    table = np.zeros((k, k))
    np.add.at(table, ([index[str(v)] for v in x], [index[str(v)] for v in y]), 1.0)
    p = table / n
    rows, cols = p.sum(axis=1), p.sum(axis=0)  # p_i. (map a), p_.j (map b)
    p_o, p_e = float(np.trace(p)), float(rows @ cols)
    if p_e >= 1 - 1e-12:
        raise ValueError("kappa is undefined: both maps carry one and the same label on every cell (p_e = 1).")
    kappa = (p_o - p_e) / (1 - p_e)
    diag = np.diag(p)
    term1 = float(np.sum(diag * ((1 - p_e) - (rows + cols) * (1 - p_o)) ** 2))
    weights = (cols[:, None] + rows[None, :]) ** 2  # (p_.i + p_j.)^2 for the cell (i, j)
    off = p * weights
    term2 = (1 - p_o) ** 2 * float(off.sum() - np.trace(off))
    term3 = (p_o * p_e - 2 * p_e + p_o) ** 2
    var = max(term1 + term2 - term3, 0.0) / (n * (1 - p_e) ** 4)
    return Kappa(float(kappa), math.sqrt(var), p_o, p_e, int(n))

"""Binary relations as data (Baek, Liu & Tegmark 2024, GenEFT, arXiv 2402.05916 v1, §2 and Table 1).

A relation R on n elements is the n×n 0/1 matrix R_ij = R(x_i, x_j); every one of the n² ordered pairs
(diagonal included) is a sample, and a random subset of them is the training set. Used by the chapters
``book/baek2024_geneft_information`` and ``book/baek2024_geneft_dynamics``. The encoder–decoder that
learns them is :class:`repro.models.networks.RelationModel`; it trains through
:mod:`repro.training.relation_runs`.
"""
from __future__ import annotations

import numpy as np
import torch

from repro.core.validation import check_choice, check_int, check_real

RELATIONS = ("mod3", "mod5", "greater_than", "bipartite")


def bipartite_side(n: int) -> np.ndarray:
    """Membership in S for the complete bipartite relation: S = the even elements.

    Which S the paper uses is unstated (Table 1 only names it); our choice. |S| = n/2 (15 of 30) is the
    only size consistent with its guessing probability p* = 1/2 (§3), and the even numbers are one such S.
    """
    return np.arange(n) % 2 == 0


def relation_matrix(name: str, n: int = 30) -> np.ndarray:
    """The n×n 0/1 matrix R_ij = R(i, j) of a Table-1 relation on the elements 0, …, n−1."""
    check_choice("relation", name, RELATIONS)
    check_int("n", n, minimum=2)
    x = np.arange(n)
    if name == "mod3":
        m = x[:, None] % 3 == x[None, :] % 3
    elif name == "mod5":
        m = x[:, None] % 5 == x[None, :] % 5
    elif name == "greater_than":  # Table 1 defines it literally as x < y
        m = x[:, None] < x[None, :]
    else:
        s = bipartite_side(n)
        m = s[:, None] != s[None, :]
    return m.astype(np.int8)


def train_mask(n_pairs: int, fraction: float, data_seed: int) -> np.ndarray:
    """A uniformly random training subset of round(fraction·n_pairs) of the n_pairs cells (bool mask)."""
    check_real("fraction", fraction)
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction={fraction!r} is not allowed: fraction must be in [0, 1].")
    check_int("data_seed", data_seed, minimum=0)
    m = int(round(fraction * n_pairs))
    order = np.random.default_rng(data_seed).permutation(n_pairs)
    mask = np.zeros(n_pairs, dtype=bool)
    mask[order[:m]] = True
    return mask


def all_pairs(n: int) -> torch.Tensor:
    """The n² ordered pairs (i, j) as (n², 2) element indices, row-major (pair index i·n + j)."""
    idx = torch.arange(n)
    return torch.stack([idx.repeat_interleave(n), idx.repeat(n)], 1)

















"""Binary-operation tables over a finite set of symbols, their train/validation splits and targets.

Used by every chapter that trains on algorithmic data:

* ``addition`` — i + j over {0..p-1}, by default with **unordered** pairs (i <= j), labels 0..2p-2. This is
  the toy setting of Liu et al. 2022 (§2; p = 10 gives |D0| = 55 samples; the official toy code, ejmichaud/grokking-squared toy/train_add.py).
* ``modular_addition`` — (a + b) mod p, p prime, by default over **ordered** pairs (Power et al. 2022;
  p**2 samples); ``ordered=False`` gives the p(p+1)/2 unordered pairs.
* ``modular_division`` — a / b = a·b⁻¹ mod p over the ordered pairs with b ≠ 0, p prime: the task of Power et
  al.'s Fig. 1 (p(p - 1) samples; openai/grok data.py, operator "/").
* ``s3`` — composition in the permutation group S3 (App. H of Liu et al.; 36 ordered samples).

The random draws follow the official toy code's order (toy/train_add.py: seed, templates, split, embeddings, decoder): one
``numpy.random.RandomState(data_seed)`` first draws the regression templates (if any), then the
training subset. With the same seed this reproduces the official splits exactly.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import torch

from repro.core.validation import check_choice, check_fraction, check_int, check_prime

OPERATIONS = ("addition", "modular_addition", "modular_division", "s3")
TARGETS = ("classification", "regression")
LOSSES = ("ce", "mse", "bce")
_DEFAULT_P = {"addition": 10, "modular_addition": 97, "modular_division": 97, "s3": 6}
S3_ELEMENTS = tuple(itertools.permutations(range(3)))


@dataclass(frozen=True)
class BinaryOpTask:
    """Which table to build. ``p`` defaults per operation (10, 97, and 6 = |S3|)."""

    operation: str = "modular_addition"
    p: int | None = None
    # Ordered pairs (a, b) and (b, a) are separate samples. Default: unordered for addition (the toy
    # setting), ordered for modular addition and S3. A model that is symmetric by construction (the sum
    # E_a + E_b) should train on unordered pairs, or the mirror of every training pair leaks into validation.
    ordered: bool | None = None

    def __post_init__(self):
        check_choice("operation", self.operation, OPERATIONS)
        if self.p is None:
            object.__setattr__(self, "p", _DEFAULT_P[self.operation])
        if self.ordered is None:
            object.__setattr__(self, "ordered", self.operation != "addition")
        check_choice("ordered", self.ordered, (True, False))
        if self.operation in ("s3", "modular_division") and not self.ordered:
            raise ValueError(f"ordered=False is not allowed for operation={self.operation!r}: it is not commutative.")
        if self.operation in ("modular_addition", "modular_division"):
            check_prime("p", self.p)
        elif self.operation == "addition":
            check_int("p", self.p, minimum=2)
        elif self.p != 6:
            raise ValueError(f"p={self.p!r} is not allowed for operation='s3': S3 has exactly 6 elements (p=6).")

    @property
    def n_symbols(self) -> int:
        return self.p

    @property
    def n_classes(self) -> int:
        return 2 * self.p - 1 if self.operation == "addition" else self.p

    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """All samples: ``inputs`` (N, 2) int64 symbol pairs and ``labels`` (N,) int64 results."""
        p = self.p
        if self.operation in ("addition", "modular_addition"):
            if self.ordered:
                pairs = [(a, b) for a in range(p) for b in range(p)]
            else:
                pairs = [(i, j) for i in range(p) for j in range(i, p)]  # official order (toy/train_add.py)
            modulus = p if self.operation == "modular_addition" else 2 * p
            labels = [(a + b) % modulus for a, b in pairs]
        elif self.operation == "modular_division":
            # x / y = x · y^(p-2) mod p (Fermat) for y ≠ 0: the p(p - 1) equations of Power et al.'s Fig. 1
            # (openai/grok data.py writes each as (y·c) / y = c; the same set of equations)
            pairs = [(a, b) for a in range(p) for b in range(1, p)]
            labels = [a * pow(b, p - 2, p) % p for a, b in pairs]
        else:
            pairs = [(a, b) for a in range(6) for b in range(6)]
            # official permutation notebook: out = perm2[perm1], i.e. (b ∘ a)(k) = b[a[k]]
            index = {perm: k for k, perm in enumerate(S3_ELEMENTS)}
            labels = [index[tuple(S3_ELEMENTS[b][S3_ELEMENTS[a][k]] for k in range(3))] for a, b in pairs]
        return np.asarray(pairs, dtype=np.int64), np.asarray(labels, dtype=np.int64)


@dataclass(frozen=True)
class Split:
    """How many samples train: give exactly one of ``train_fraction`` or ``train_count``.

    ``data_seed`` seeds the split (and the regression templates), separately from the init seed.
    """

    train_fraction: float | None = None
    train_count: int | None = None
    data_seed: int = 0

    def __post_init__(self):
        if (self.train_fraction is None) == (self.train_count is None):
            raise ValueError(
                "Split needs exactly one of train_fraction (in (0, 1]) or train_count (>= 1); "
                f"got train_fraction={self.train_fraction!r}, train_count={self.train_count!r}."
            )
        if self.train_fraction is not None:
            check_fraction("train_fraction", self.train_fraction)
        else:
            check_int("train_count", self.train_count, minimum=1)
        check_int("data_seed", self.data_seed, minimum=0)

    def n_train(self, n_total: int) -> int:
        if self.train_count is not None:
            if self.train_count > n_total:
                raise ValueError(f"train_count={self.train_count} is not allowed: the dataset has only {n_total} samples.")
            k = self.train_count
        else:
            k = int(round(self.train_fraction * n_total))
        if k < 1:
            raise ValueError(
                f"train_fraction={self.train_fraction} is not allowed: it leaves an empty training split "
                f"of {n_total} samples; use a fraction >= {1 / n_total:.3g}."
            )
        if k == n_total and self.train_fraction != 1.0:
            raise ValueError(
                f"train_count={k} leaves an empty validation split of {n_total} samples; "
                "ask for train_fraction=1.0 explicitly to train on everything."
            )
        return k


@dataclass
class TaskData:
    """A dataset on one device: every sample, its split, and (for regression) its targets.

    ``targets`` are what the loss compares with: class labels for ``classification`` and one fixed
    random template vector per class (N(0, 1), toy/train_add.py) for ``regression``; accuracy for regression is
    the nearest template, as in the official toy code.
    """

    inputs: torch.Tensor  # (N, ...) model inputs
    # (N,) int64 class of each sample; or (R, N), one row per run, when each run of a batched training has its
    # own labels on the same inputs (the GenEFT chapters train several relations on the same pairs at once)
    labels: torch.Tensor
    n_classes: int
    train_idx: np.ndarray
    val_idx: np.ndarray
    loss: str = "ce"  # "ce" (softmax cross-entropy), "mse" or "bce" (binary cross-entropy on one logit, labels 0/1)
    targets: torch.Tensor | None = None  # (N, k) float for mse
    templates: torch.Tensor | None = None  # (C, k) when accuracy is by nearest template
    accuracy: str = "argmax"  # "argmax" | "nearest_template" | "binary" (logit > 0 predicts 1) | "none"
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        check_choice("loss", self.loss, LOSSES)
        check_choice("accuracy", self.accuracy, ("argmax", "nearest_template", "binary", "none"))
        if self.loss == "mse" and self.targets is None:
            raise ValueError("targets must be given when loss='mse'.")
        if self.labels.dim() not in (1, 2):
            raise ValueError(f"labels must have shape (N,) or (R, N) (one row per run); got {tuple(self.labels.shape)}.")
        if self.loss == "bce" and not bool(((self.labels == 0) | (self.labels == 1)).all()):
            raise ValueError("labels must be 0/1 when loss='bce'.")
        if len(self.train_idx) == 0:
            raise ValueError("train_idx is empty: a training split needs at least one sample.")

    @property
    def n_samples(self) -> int:
        return int(self.labels.shape[-1])

    @property
    def per_run_labels(self) -> bool:
        """Whether ``labels`` has one row per run, (R, N)."""
        return self.labels.dim() == 2

    def masks(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Boolean (N,) masks of the training and validation samples."""
        train = torch.zeros(self.n_samples, dtype=torch.bool, device=self.labels.device)
        val = torch.zeros_like(train)
        train[torch.as_tensor(self.train_idx, device=train.device)] = True
        val[torch.as_tensor(self.val_idx, device=train.device)] = True
        return train, val

    def to(self, device=None, dtype=None) -> "TaskData":
        def move(t):
            if t is None:
                return None
            if t.is_floating_point() and dtype is not None:
                return t.to(device=device, dtype=dtype)
            return t.to(device=device)

        return TaskData(
            inputs=move(self.inputs), labels=move(self.labels), n_classes=self.n_classes,
            train_idx=self.train_idx, val_idx=self.val_idx, loss=self.loss, targets=move(self.targets),
            templates=move(self.templates), accuracy=self.accuracy, meta=dict(self.meta),
        )


def make_split(n_total: int, split: Split, rng: np.random.RandomState | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Training and validation indices (sorted validation; training in draw order, like the official code)."""
    rng = np.random.RandomState(split.data_seed) if rng is None else rng
    k = split.n_train(n_total)
    train = rng.choice(n_total, k, replace=False).astype(np.int64)
    val = np.setdiff1d(np.arange(n_total, dtype=np.int64), train)
    return train, val


def build_task_data(
    task: BinaryOpTask,
    split: Split,
    *,
    target: str = "classification",
    target_dim: int = 30,
) -> TaskData:
    """Inputs, labels, split and targets of a binary-operation table (the RNG order of toy/train_add.py)."""
    check_choice("target", target, TARGETS)
    check_int("target_dim", target_dim, minimum=1)
    inputs, labels = task.table()
    rng = np.random.RandomState(split.data_seed)
    templates = None
    if target == "regression":
        templates = torch.as_tensor(rng.normal(0.0, 1.0, (task.n_classes, target_dim)), dtype=torch.float32)
    train_idx, val_idx = make_split(len(labels), split, rng)
    labels_t = torch.as_tensor(labels)
    return TaskData(
        inputs=torch.as_tensor(inputs),
        labels=labels_t,
        n_classes=task.n_classes,
        train_idx=train_idx,
        val_idx=val_idx,
        loss="mse" if target == "regression" else "ce",
        targets=None if templates is None else templates[labels_t],
        templates=templates,
        accuracy="nearest_template" if target == "regression" else "argmax",
        meta={"operation": task.operation, "p": task.p, "target": target, "data_seed": split.data_seed},
    )

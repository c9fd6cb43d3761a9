"""Binary-operation tables over a finite set of symbols, their train/validation splits and targets.

Used by every chapter that trains on algorithmic data:

* ``addition`` — i + j over {0..p-1}, by default with **unordered** pairs (i <= j), labels 0..2p-2. This is
  the toy setting of Liu et al. 2022 (§2; p = 10 gives |D0| = 55 samples; the official toy code, ejmichaud/grokking-squared toy/train_add.py).
* ``modular_addition`` — (a + b) mod p, p prime, by default over **ordered** pairs (Power et al. 2022;
  p**2 samples); ``ordered=False`` gives the p(p+1)/2 unordered pairs.
* ``modular_division`` — a / b = a·b⁻¹ mod p over the ordered pairs with b ≠ 0, p prime: the task of Power et
  al.'s Fig. 1 (p(p - 1) samples; openai/grok data.py, operator "/").
* ``s3`` — composition in the permutation group S3 (App. H of Liu et al.; 36 ordered samples).

:func:`build_grok_task_data` encodes modular addition or division as openai/grok's data pipeline does (commit
3d64b1d, grok/data.py): its token ids, its sequences ``<eos> a op b = c`` with targets ``c <eos>``, and its split.

The random draws follow the official toy code's order (toy/train_add.py: seed, templates, split, embeddings, decoder): one
``numpy.random.RandomState(data_seed)`` first draws the regression templates (if any), then the
training subset. With the same seed this reproduces the official splits exactly.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

import numpy as np
import torch

from repro.core.validation import check_choice, check_fraction, check_int, check_prime

OPERATIONS = ("addition", "modular_addition", "modular_division", "s3")
TARGETS = ("classification", "regression")
# "ce_tokens": softmax cross-entropy on several tokens per sample (targets (N, T) token ids), averaged over them
LOSSES = ("ce", "mse", "bce", "ce_tokens")
# "all_tokens": a sample is right when the argmax of every one of its target tokens is (openai/grok training.py
# _accuracy: the minimum over the tokens after "=" of "prediction == target")
ACCURACIES = ("argmax", "nearest_template", "binary", "all_tokens", "none")
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

    @property
    def n_samples(self) -> int:
        """How many equations :meth:`table` holds, counted in closed form (a check on the table): p² ordered pairs,
        p(p + 1)/2 unordered ones, p(p - 1) for division (no division by 0), 36 for S3."""
        p = self.p
        if self.operation == "modular_division":
            return p * (p - 1)
        if self.operation == "s3":
            return 36
        return p * p if self.ordered else p * (p + 1) // 2

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
    # "ce" (softmax cross-entropy), "mse", "bce" (binary cross-entropy on one logit, labels 0/1) or "ce_tokens"
    # (cross-entropy on each of a sample's target tokens, averaged over them; the outputs are (R, N, T, C))
    loss: str = "ce"
    # (N, k) float for mse; or (R, N, k), one table per run, when each run draws its own templates (the official toy
    # code draws them from the run's seed: toy_runs); (N, T) int64 token ids for ce_tokens
    targets: torch.Tensor | None = None
    templates: torch.Tensor | None = None  # (C, k) when accuracy is by nearest template; (R, C, k) with per-run targets
    # "argmax" | "nearest_template" | "binary" (logit > 0 predicts 1) | "all_tokens" (every target token's argmax
    # is right) | "none"
    accuracy: str = "argmax"
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        check_choice("loss", self.loss, LOSSES)
        check_choice("accuracy", self.accuracy, ACCURACIES)
        if self.loss in ("mse", "ce_tokens") and self.targets is None:
            raise ValueError(f"targets must be given when loss={self.loss!r}.")
        if (self.loss == "ce_tokens" or self.accuracy == "all_tokens") and (
                self.targets is None or self.targets.dtype != torch.int64):
            raise ValueError("loss='ce_tokens' and accuracy='all_tokens' need targets of int64 token ids, (N, T) or "
                             "(R, N, T).")
        if self.labels.dim() not in (1, 2):
            raise ValueError(f"labels must have shape (N,) or (R, N) (one row per run); got {tuple(self.labels.shape)}.")
        if self.loss == "bce" and not bool(((self.labels == 0) | (self.labels == 1)).all()):
            raise ValueError("labels must be 0/1 when loss='bce'.")
        if len(self.train_idx) == 0:
            raise ValueError("train_idx is empty: a training split needs at least one sample.")
        if self.targets is not None and self.targets.dim() not in (2, 3):
            raise ValueError(f"targets must have shape (N, k) or (R, N, k) (one table per run); got {tuple(self.targets.shape)}.")
        if self.templates is not None and self.targets is not None and self.templates.dim() != self.targets.dim():
            raise ValueError(f"templates {tuple(self.templates.shape)} and targets {tuple(self.targets.shape)} must both be "
                             "shared ((C, k) and (N, k)) or both per run ((R, C, k) and (R, N, k)).")
        rows = {t.shape[0] for t, per_run in ((self.labels, self.per_run_labels), (self.targets, self.per_run_targets),
                                             (self.templates, self.per_run_targets)) if per_run and t is not None}
        if len(rows) > 1:
            raise ValueError(f"the per-run labels, targets and templates have different numbers of runs: {sorted(rows)}.")

    @property
    def n_samples(self) -> int:
        return int(self.labels.shape[-1])

    @property
    def per_run_labels(self) -> bool:
        """Whether ``labels`` has one row per run, (R, N)."""
        return self.labels.dim() == 2

    @property
    def per_run_targets(self) -> bool:
        """Whether ``targets`` (and ``templates``) have one table per run, (R, N, k)."""
        return self.targets is not None and self.targets.dim() == 3

    @property
    def per_run(self) -> int | None:
        """The number of runs the per-run labels or targets are for; None when everything is shared."""
        if self.per_run_labels:
            return int(self.labels.shape[0])
        return int(self.targets.shape[0]) if self.per_run_targets else None

    def select_runs(self, index) -> "TaskData":
        """The data of the runs ``index`` (a slice, bool mask or index tensor over the runs): per-run rows kept,
        shared fields as they are."""
        out = self
        if self.per_run_labels:
            out = replace(out, labels=self.labels[index])
        if self.per_run_targets:
            out = replace(out, targets=self.targets[index],
                          templates=None if self.templates is None else self.templates[index])
        return out

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


# openai/grok's vocabulary (grok/data.py ArithmeticTokenizer.get_tokens, commit 3d64b1d): "<|eos|>" (id 0), "="
# (id 1), the names of its 20 operators in sorted order (ids 2-21), the numbers 0-96 (ids 22-118), then the 120
# permutations of range(5) (ids 119-238): 239 tokens in all, one output logit each.
GROK_VOCAB = 239
GROK_EOS, GROK_EQ = 0, 1
GROK_FIRST_NUMBER = 22
GROK_MODULUS = 97  # data.py: MODULUS = 97, NUMS = range(97); its numbers and equations are mod 97 only
# The operators' ids: "+" and "/" are the 5th and 9th of the sorted operator names ("(x._value//y)...", "*", "**2+",
# "**3+", "+", "+*", "+-", "-", "/", ...)
GROK_OPERATOR = {"modular_addition": 6, "modular_division": 10}
GROK_TARGETS = 2  # the tokens after "=" in the target sequence: c and the closing <|eos|> (training.py _step)


def grok_official_order(task: BinaryOpTask) -> np.ndarray:
    """For each equation in the order openai/grok's data.py enumerates them, its index in :meth:`BinaryOpTask.table`.

    Addition: (a, b) over itertools.product(range(97), repeat=2), the table's own order. Division: the code
    enumerates (c, y) the same way, skips y = 0 and writes the equation (y·c mod 97) / y = c, so equation k is
    x / y with x = y·c; the table holds it at x·96 + (y - 1)."""
    _check_grok_task(task)
    p = task.p
    if task.operation == "modular_addition":
        return np.arange(p * p, dtype=np.int64)
    c, y = np.divmod(np.arange(p * (p - 1), dtype=np.int64), p - 1)
    y = y + 1
    return (y * c % p) * (p - 1) + (y - 1)


def grok_split(task: BinaryOpTask, train_fraction: float, data_seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """openai/grok's split (data.py ``ArithmeticDataset.splits`` and ``make_data``): the equations in the code's order,
    shuffled by ``np.random.RandomState(seed).shuffle`` (the code's seed is 0, not a command-line option), the
    first ``round(N * train_fraction)`` for training. Returns (train, validation) indices into the table, training in
    the shuffled order, validation sorted. (``shuffle`` on the code's list of strings and on an index array makes the
    same swaps: both draw one bounded integer per position, from the last down.)"""
    check_fraction("train_fraction", train_fraction)
    check_int("data_seed", data_seed, minimum=0)
    order = grok_official_order(task)
    perm = np.arange(len(order))
    np.random.RandomState(data_seed).shuffle(perm)
    n_train = round(len(order) * train_fraction)
    if not 1 <= n_train < len(order):
        raise ValueError(f"train_fraction={train_fraction} leaves an empty training or validation split of {len(order)} "
                         "equations.")
    train = order[perm[:n_train]]
    return train, np.sort(order[perm[n_train:]])


def grok_sequences(task: BinaryOpTask) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Every equation of the table as openai/grok feeds it to its transformer: the inputs ``<eos> a op b = c`` (the
    code's ``text``, the equation ``<eos> a op b = c <eos>`` without its last token), (N, 6) token ids; the targets
    ``c <eos>``, (N, 2): the tokens after "=" of the code's ``target`` (the sequence shifted by one), the only ones its
    loss and accuracy read; and the labels c (N,)."""
    _check_grok_task(task)
    pairs, labels = task.table()
    n = len(labels)
    number = lambda v: torch.as_tensor(v + GROK_FIRST_NUMBER)
    full = lambda value: torch.full((n,), value, dtype=torch.int64)
    inputs = torch.stack([full(GROK_EOS), number(pairs[:, 0]), full(GROK_OPERATOR[task.operation]), number(pairs[:, 1]),
                          full(GROK_EQ), number(labels)], dim=1)
    targets = torch.stack([number(labels), full(GROK_EOS)], dim=1)
    return inputs, targets, torch.as_tensor(labels)


def build_grok_task_data(task: BinaryOpTask, train_fraction: float, data_seed: int = 0) -> TaskData:
    """The table as openai/grok trains on it (:func:`grok_sequences`, :func:`grok_split`), with its loss
    (cross-entropy on the two target tokens, ``ce_tokens``) and accuracy (both right, ``all_tokens``)."""
    inputs, targets, labels = grok_sequences(task)
    train_idx, val_idx = grok_split(task, train_fraction, data_seed)
    return TaskData(inputs=inputs, labels=labels, n_classes=GROK_VOCAB, train_idx=train_idx, val_idx=val_idx,
                    loss="ce_tokens", targets=targets, accuracy="all_tokens",
                    meta={"operation": task.operation, "p": task.p, "target": "openai/grok tokens",
                          "data_seed": data_seed})


def _check_grok_task(task: BinaryOpTask) -> None:
    if task.operation not in GROK_OPERATOR or task.p != GROK_MODULUS or not task.ordered:
        raise ValueError(f"openai/grok's encoding has {', '.join(GROK_OPERATOR)} on the ordered pairs mod "
                         f"{GROK_MODULUS} only; got operation={task.operation!r}, p={task.p}, ordered={task.ordered}.")


@dataclass(frozen=True)
class ToyRuns:
    """Runs drawn in the official toy code's random-number order (:func:`toy_runs`)."""

    data: TaskData  # per-run targets (R, N, k) and templates (R, C, k)
    train_mask: torch.Tensor  # (R, N) bool
    # (R, steps, B) int32 sample index of each step's minibatch (each run's own training samples), or None when every
    # run trains on its whole training set
    batches: torch.Tensor | None


def toy_runs(task: BinaryOpTask, counts, seeds, *, target_dim: int = 30, batch_size: int | None = None,
             steps: int = 0) -> ToyRuns:
    """Regression runs that are the official toy code's runs of the same seeds (toy/train_add.py, called by
    toy/produce_figure_data.py with ``train_num`` = count and ``seed``): run r seeds one
    ``numpy.random.RandomState(seeds[r])`` (the code's ``np.random.seed(seed)``), which draws, in this order,
    the templates ``normal(0, 1, (C, target_dim))``, the training subset ``choice(N, counts[r], replace=False)``
    and then, at every step, the minibatch ``choice(counts[r], B, replace=False)`` of positions in that subset,
    B = min(batch_size, counts[r]) (the code lowers a batch larger than the training set to it).

    A run whose minibatch is its whole training set trains full batch: its draws only permute the summands of
    the mean loss, so they are not made. Runs that minibatch must all have the same B; their schedules come back
    as ``batches``. The initialization (``torch.manual_seed(seed)``, embeddings, then the decoder) is the
    trainer's, from the same seed as ``init_seed``.
    """
    counts, seeds = [int(n) for n in counts], [int(s) for s in seeds]
    if len(counts) != len(seeds) or not counts:
        raise ValueError(f"counts ({len(counts)}) and seeds ({len(seeds)}) must be non-empty and of equal length.")
    check_int("target_dim", target_dim, minimum=1)
    check_int("steps", steps, minimum=0)
    if batch_size is not None:
        check_int("batch_size", batch_size, minimum=1)
    inputs, labels = task.table()
    n_total = len(labels)
    minibatch = [batch_size is not None and n > batch_size for n in counts]
    if any(minibatch) and not all(minibatch):
        raise ValueError(f"batch_size={batch_size}: the counts {sorted(set(counts))} mix runs that minibatch "
                         f"(count > {batch_size}) with runs that train full batch; call toy_runs once for each group.")
    if any(minibatch) and steps < 1:
        raise ValueError("steps must be >= 1 when the runs minibatch: it is the length of their schedules.")
    templates, train_mask, batches = [], torch.zeros(len(counts), n_total, dtype=torch.bool), []
    first_split = None
    for r, (n, seed) in enumerate(zip(counts, seeds)):
        check_int("counts", n, minimum=1, maximum=n_total - 1)
        check_int("seeds", seed, minimum=0)
        rng = np.random.RandomState(seed)
        templates.append(rng.normal(0.0, 1.0, (task.n_classes, target_dim)))
        train_idx = rng.choice(n_total, n, replace=False).astype(np.int64)
        train_mask[r, torch.as_tensor(train_idx)] = True
        if first_split is None:
            first_split = train_idx
        if minibatch[r]:
            batches.append(np.stack([train_idx[rng.choice(n, batch_size, replace=False)] for _ in range(steps)]))
    templates_t = torch.as_tensor(np.stack(templates), dtype=torch.float32)  # the code's torch.float templates
    labels_t = torch.as_tensor(labels)
    data = TaskData(inputs=torch.as_tensor(inputs), labels=labels_t, n_classes=task.n_classes,
                    train_idx=first_split, val_idx=np.setdiff1d(np.arange(n_total), first_split), loss="mse",
                    targets=templates_t[:, labels_t], templates=templates_t, accuracy="nearest_template",
                    meta={"operation": task.operation, "p": task.p, "target": "regression", "rng": "official toy order"})
    return ToyRuns(data=data, train_mask=train_mask,
                   batches=torch.as_tensor(np.stack(batches), dtype=torch.int32) if batches else None)

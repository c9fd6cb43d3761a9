"""Effective theory of representation learning, Liu et al. 2022 ("Towards Understanding Grokking", NeurIPS).

Equation numbers are the paper's (arXiv 2205.10343 v2); "official code" is ejmichaud/grokking-squared
(``toy/train_add.py`` unless named). Used by the chapters
``book/liu2022_effective_theory`` (Figs 2, 4c-d, App. H) and ``book/liu2022_critical_data`` (Figs 3, 4a-b, 5).

Setting: the toy addition task over symbols {0, ..., p-1}. A sample is an **unordered** pair (i, j) with
``0 <= i <= j < p`` whose label is i + j, so the full table D0 has p(p+1)/2 samples (55 for p = 10). A
representation is one embedding E_k per symbol, an array of shape (p,) or (p, d).

* :func:`parallelograms` — the permissible parallelogram set P0(D) of eq. (1): pairs of distinct samples
  of D with the same sum. |P0(D0)| = 70 for p = 10.
* :func:`rqi` — representation quality index, eq. (3); :func:`predicted_accuracy` — Acc-hat, eqs (12)-(13).
* :func:`unique_linear_structure`, :func:`nullity` — whether the parallelogram equations A(P0(D)) of eq. (7)
  pin the embeddings down to E_k = a + k b (nullity 2).
* :func:`grokking_rate` — lambda_3 of eq. (9); :func:`theory_grokking_steps` — n_h = 1/(lambda_3 eta).
* :func:`effective_loss`, :func:`effective_trajectories` — the effective loss l_eff = l0 / Z0 of eq. (5)
  and its gradient flow, eq. (4), integrated by Euler steps.
* :func:`linear_structure_statistics` — P(unique) and lambda_3 over random training sets (Figs 4a, 5a).
* :func:`s3_parallelograms`, :func:`s3_rqi` — the generalised parallelograms of App. H (eq. 28) for S3.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from repro.core.crossings import crossing
from repro.core.validation import check_int, check_real

# Eigenvalues of the integer Gram matrix A^T A below this count as zero. The official code uses the
# same absolute tolerance (toy/train_add.py, "dof"); the unit tests check it against exact rational rank.
ZERO_EIGENVALUE_TOL = 1e-8


# --------------------------------------------------------------------------------------------------
# Samples and parallelograms


def unordered_pairs(p: int) -> list[tuple[int, int]]:
    """The full table D0: every unordered pair (i, j), 0 <= i <= j < p, in the official order (toy/train_add.py)."""
    check_int("p", p, minimum=2)
    return [(i, j) for i in range(p) for j in range(i, p)]


def _as_pairs(train, p: int) -> np.ndarray:
    """Validate ``train`` as distinct unordered pairs of symbols < p; returned sorted, shape (n, 2)."""
    check_int("p", p, minimum=2)
    arr = np.asarray(list(train) if not isinstance(train, np.ndarray) else train, dtype=np.int64)
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"train must be a list of pairs (i, j); got an array of shape {arr.shape}.")
    if arr.min() < 0 or arr.max() >= p:
        raise ValueError(f"train has symbols outside 0..{p - 1}: every pair (i, j) needs 0 <= i, j < p={p}.")
    if (arr[:, 0] > arr[:, 1]).any():
        raise ValueError("train must hold unordered pairs written (i, j) with i <= j (addition is commutative).")
    uniq = np.unique(arr, axis=0)
    if len(uniq) != len(arr):
        raise ValueError("train has repeated pairs: each sample may appear once.")
    return uniq


def parallelograms(train, p: int) -> np.ndarray:
    """The permissible parallelogram set P0(D) of eq. (1), as an (n, 4) int array of rows (i, j, m, n).

    Each row pairs two distinct samples (i, j), (m, n) of ``train`` with i + j = m + n; each unordered pair
    of samples appears once (the sample listed first comes first in sorted order). A pair may repeat a
    symbol: (0, 4) and (2, 2) give E_0 + E_4 = 2 E_2. For the full p = 10 table, n = 70 (the official RQI
    also divides by 70).
    """
    pairs = _as_pairs(train, p)
    by_sum: dict[int, list[tuple[int, int]]] = {}
    for i, j in pairs.tolist():
        by_sum.setdefault(i + j, []).append((i, j))
    rows = [(*a, *b) for s in sorted(by_sum) for a, b in itertools.combinations(by_sum[s], 2)]
    return np.asarray(rows, dtype=np.int64).reshape(-1, 4)


def parallelogram_matrix(quads: np.ndarray, p: int) -> np.ndarray:
    """The coefficient matrix A of the linear system (7): one row e_i + e_j - e_m - e_n per parallelogram."""
    quads = np.asarray(quads, dtype=np.int64).reshape(-1, 4)
    a = np.zeros((len(quads), p))
    rows = np.arange(len(quads))
    for col, sign in zip(range(4), (1.0, 1.0, -1.0, -1.0)):
        np.add.at(a, (rows, quads[:, col]), sign)
    return a


def gram_matrix(train, p: int) -> np.ndarray:
    """A^T A for the parallelograms of ``train`` (a (p, p) integer-valued float matrix)."""
    a = parallelogram_matrix(parallelograms(train, p), p)
    return a.T @ a


def _eigenvalues(gram: np.ndarray) -> np.ndarray:
    return np.linalg.eigvalsh(gram)  # ascending, batched over leading axes


def nullity(train, p: int) -> int:
    """Nullity n0 of A(P0(D)) (eq. 7): the number of free directions the parallelogram equations leave.

    Always >= 2 (translation E_k -> E_k + c and the linear mode E_k -> E_k + c k solve every equation).
    """
    return int((_eigenvalues(gram_matrix(train, p)) < ZERO_EIGENVALUE_TOL).sum())


def unique_linear_structure(train, p: int) -> bool:
    """True iff the training set forces E_k = a + k b, i.e. nullity(A(P0(D))) == 2 (eq. 7, Fig. 4a)."""
    return nullity(train, p) == 2


def grokking_rate(train, p: int) -> float:
    """lambda_3: the smallest non-trivial eigenvalue of A^T A, A the rows of P0(D) (eq. 9, Fig. 5a).

    Relation to the paper's Hessian (eq. 8): with l0 = sum over P0(D) of |E_i + E_j - E_m - E_n|^2 (no
    1/|P0(D)| factor), d^2 l0 / dE dE = 2 A^T A, so H = 2 A^T A / Z0 and near the linear structure each
    non-trivial mode decays as exp(-2 lambda_3 t / Z0). The first two eigenvalues (translation and scale)
    are always 0; when the data do not fix a unique linear structure lambda_3 is 0 as well (no grokking).
    This is the number the official notebook averages (``eigh(A_D^T A_D)[2]`` in
    phase_diagram_plot/effective_linear_eq.ipynb; Fig. 5a).
    """
    return float(_eigenvalues(gram_matrix(train, p))[2])


def theory_grokking_steps(rate: float | np.ndarray, p: int, lr: float):
    """Predicted grokking time in optimizer steps, n_h = 1 / (lambda_H eta) (eq. 9), per lambda_3 = ``rate``.

    Normalisation (our reading of eqs. 5, 8, 9; the official notebook uses the raw A_D^T A_D): the
    Hessian's eigenvalue is lambda_H = 2 lambda_3 / Z0 with Z0 = sum_k |E_k|^2 = p for embeddings normalised
    to zero mean and unit (population) variance, so n_h = p / (2 lambda_3 eta). The paper's literal l0 also
    divides by |P0(D)| (e.g. 42 at 45/55), which would stretch n_h by that factor, to ~10^4 steps where the
    network groks in ~10^3: that factor cannot match and is left out. Returns inf where lambda_3 is
    (numerically) zero.
    """
    check_real("lr", lr, positive=True)
    rate = np.asarray(rate, dtype=np.float64)
    with np.errstate(divide="ignore"):
        steps = np.where(rate > ZERO_EIGENVALUE_TOL, p / (2 * np.maximum(rate, ZERO_EIGENVALUE_TOL) * lr), np.inf)
    return float(steps) if steps.ndim == 0 else steps


# --------------------------------------------------------------------------------------------------
# Representation quality (eq. 3) and predicted accuracy (App. D, eqs 12-13)


def normalize_embeddings(embeddings: np.ndarray, ddof: int = 1) -> np.ndarray:
    """(E - mean) / std over symbols, per embedding dimension (official code: unbiased std; the paper's σ_t
    lacks the square root).

    Accepts (..., p) for 1-D embeddings or (..., p, d)."""
    e = np.asarray(embeddings, dtype=np.float64)
    axis = -1 if e.ndim == 1 else -2
    centred = e - e.mean(axis=axis, keepdims=True)
    std = centred.std(axis=axis, ddof=ddof, keepdims=True)
    return centred / np.where(std > 0, std, 1.0)


def _as_embeddings(embeddings, p: int) -> np.ndarray:
    e = np.asarray(embeddings, dtype=np.float64)
    if e.ndim == 1:
        e = e[:, None]
    if e.shape[-2] != p:
        raise ValueError(f"embeddings must have shape (..., p={p}, d); got {e.shape}.")
    return e


def parallelogram_deviation(embeddings, quads: np.ndarray) -> np.ndarray:
    """mean over embedding dims of (E_i + E_j - E_m - E_n)^2 for each row of ``quads``: (..., n_quads)."""
    e = np.asarray(embeddings, dtype=np.float64)
    q = np.asarray(quads, dtype=np.int64).reshape(-1, 4)
    diff = e[..., q[:, 0], :] + e[..., q[:, 1], :] - e[..., q[:, 2], :] - e[..., q[:, 3], :]
    return (diff**2).mean(axis=-1)


def rqi(embeddings, train=None, p: int | None = None, delta: float = 0.01, normalize: bool = True):
    """Representation quality index RQI(R) = |P(R, delta)| / |P0| (eqs 2-3).

    ``embeddings``: (p,), (p, d), or batched (..., p, d). ``train``: the samples whose parallelograms are
    counted; Eq. 3 uses the full table, which ``train=None`` (or ``unordered_pairs(p)``) selects. A parallelogram
    (i, j, m, n) is present when mean_d (E_i + E_j - E_m - E_n)^2 < ``delta`` on embeddings normalised per
    dimension (the official code's test; the paper, App. E, writes |.| <= delta with delta =
    0.01 on unnormalised ones). A linear representation E_k = a + k b has RQI = 1; a random one ~ 0.
    Returns a float, or an array over the leading (batch) axes.
    """
    if p is None:
        p = np.asarray(embeddings).shape[0 if np.asarray(embeddings).ndim == 1 else -2]
    check_real("delta", delta, positive=True)
    e = _as_embeddings(embeddings, p)
    quads = parallelograms(unordered_pairs(p) if train is None else train, p)
    if len(quads) == 0:
        raise ValueError("train has no parallelograms, so RQI (a fraction of them) is undefined.")
    if normalize:
        e = normalize_embeddings(e)
    value = (parallelogram_deviation(e, quads) < delta).mean(axis=-1)
    return float(value) if np.ndim(value) == 0 else value


def present_parallelograms(embeddings, p: int, delta: float = 0.01, normalize: bool = True) -> np.ndarray:
    """The rows of P0 (full table) present in the representation, P(R, delta) of eq. (2): (n, 4)."""
    e = _as_embeddings(embeddings, p)
    if e.ndim != 2:
        raise ValueError(f"present_parallelograms takes one representation (p, d); got shape {e.shape}.")
    quads = parallelograms(unordered_pairs(p), p)
    if normalize:
        e = normalize_embeddings(e)
    return quads[parallelogram_deviation(e, quads) < delta]


def predicted_accuracy(embeddings, train, p: int, delta: float = 0.01, normalize: bool = True) -> float:
    """Acc-hat = |D-bar(D, P(R))| / |D0| (eq. 13), the accuracy the representation alone supports.

    D-bar (eq. 12) adds to the training set D every sample (i, j) that forms a present parallelogram
    (i, j, m, n) in P(R) with a training sample (m, n): if the decoder fits Y_{m+n} at E_m + E_n, it also
    answers E_i + E_j = E_m + E_n correctly (eq. 11). One deduction step, as in the paper and the code.
    It counts the whole table, training samples included.
    """
    pairs = _as_pairs(train, p)
    known = {tuple(s) for s in pairs.tolist()}
    augmented = set(known)
    for i, j, m, n in present_parallelograms(embeddings, p, delta, normalize).tolist():
        if (m, n) in known:
            augmented.add((i, j))
        if (i, j) in known:
            augmented.add((m, n))
    return len(augmented) / len(unordered_pairs(p))


# --------------------------------------------------------------------------------------------------
# Effective theory: loss (eq. 5) and its gradient flow (eq. 4)


def effective_loss(embeddings, train, p: int, *, per_parallelogram: bool = False) -> float:
    """l_eff = l0 / Z0 (eq. 5), l0 = sum over P0(D) of |E_i + E_j - E_m - E_n|^2, Z0 = sum_k |E_k - mean|^2.

    ``per_parallelogram=True`` divides l0 by |P0(D)| as the paper's eq. (5) prints; the default follows
    the official integrator and the normalisation of :func:`theory_grokking_steps`.
    """
    e = _as_embeddings(embeddings, p)
    e = e - e.mean(axis=-2, keepdims=True)
    quads = parallelograms(train, p)
    l0 = parallelogram_deviation(e, quads).sum(axis=-1) * e.shape[-1]
    if per_parallelogram and len(quads):
        l0 = l0 / len(quads)
    z0 = (e**2).sum(axis=(-2, -1))
    out = l0 / z0
    return float(out) if np.ndim(out) == 0 else out


@dataclass
class EffectiveTrajectory:
    """Normalised embeddings along the effective-theory flow: ``embeddings`` (R, T, p, d) at ``steps`` (T,)."""

    steps: np.ndarray
    embeddings: np.ndarray
    loss: np.ndarray  # (R, T) l0 / Z0


def effective_trajectories(initial, trains: Sequence, p: int, *, lr: float, steps: int, record_every: int = 1,
                           rows: str = "train", freeze_z0: bool = False) -> EffectiveTrajectory:
    """Euler steps of the gradient flow dE/dt = -d l_eff / dE (eq. 4) for R representations at once.

    ``initial``: (R, p) or (R, p, d) starting embeddings (normalised here to zero mean, unit population
    variance, so Z0 = p d); ``trains``: R training sets. ``rows='train'`` sums l0 over P0(D) (the paper's
    eq. 5); ``rows='all'`` over the full P0, as the official integrator does (toy/train_add.py - it makes the
    theory blind to the data). With G = A^T A the update is the gradient step on l0 / Z0 (as in the official
    integrator): E <- E + lr (2 l0 / Z0^2 E - 2 / Z0 G E). Z0 and sum_k E_k are conserved by the flow (eq. 6).
    ``freeze_z0=True`` keeps Z0 at its initial value in the update, as the official integrator does (for
    measuring the Euler drift of sum |E|^2 that this feeds back on).
    """
    check_int("steps", steps, minimum=1)
    check_int("record_every", record_every, minimum=1)
    check_real("lr", lr, positive=True)
    if rows not in ("train", "all"):
        raise ValueError(f"rows={rows!r} is not allowed: rows must be 'train' or 'all'.")
    e = np.asarray(initial, dtype=np.float64)
    if e.ndim == 2:
        e = e[..., None]
    if e.ndim != 3 or e.shape[1] != p:
        raise ValueError(f"initial must have shape (R, p={p}) or (R, p, d); got {np.shape(initial)}.")
    if len(trains) != e.shape[0]:
        raise ValueError(f"trains has {len(trains)} training sets for {e.shape[0]} initial representations.")
    e = normalize_embeddings(e, ddof=0)
    full = gram_matrix(unordered_pairs(p), p)
    gram = np.stack([full if rows == "all" else gram_matrix(t, p) for t in trains])  # (R, p, p)
    rec_steps, rec_e, rec_loss = [], [], []
    for step in range(steps + 1):
        ge = gram @ e
        l0 = (e * ge).sum(axis=(1, 2))[:, None, None]
        # Z0 of the current state: the official integrator freezes it at the start, but then any Euler
        # drift of sum |E|^2 feeds back on itself (freeze_z0=True measures it); with the current value
        # the update is the exact gradient of l0 / Z0 and the drift stays O(lr^2).
        z0_now = (e**2).sum(axis=(1, 2))[:, None, None]
        if step == 0:
            z0_start = z0_now
        z0 = z0_start if freeze_z0 else z0_now
        if step % record_every == 0 or step == steps:
            rec_steps.append(step)
            rec_e.append(e.copy())
            rec_loss.append((l0 / z0_now)[:, 0, 0])
        if step == steps:
            break
        e = e + lr * (2 * l0 / z0**2 * e - 2 / z0 * ge)
    return EffectiveTrajectory(np.asarray(rec_steps), np.stack(rec_e, axis=1), np.stack(rec_loss, axis=1))


# --------------------------------------------------------------------------------------------------
# Random training sets: the critical fraction (Fig. 4a) and the grokking rate (Fig. 5a)


@dataclass
class LinearStructureStats:
    """Per training-set size: P(unique linear structure) and lambda_3 of every sampled set."""

    sizes: np.ndarray  # (S,) number of training samples
    n_total: int  # |D0|
    p_unique: np.ndarray  # (S,)
    rates: np.ndarray  # (S, n_sets) lambda_3 of each sampled set

    @property
    def fractions(self) -> np.ndarray:
        return self.sizes / self.n_total

    def critical_fraction(self, level: float = 0.5) -> float:
        """Training fraction where P(unique) first reaches ``level`` (linear interpolation between sizes)."""
        return crossing(self.fractions, self.p_unique, level)


def linear_structure_statistics(p: int, sizes: Sequence[int], n_sets: int, seed: int = 0) -> LinearStructureStats:
    """Sample ``n_sets`` random training sets of each size; per set, the nullity test and lambda_3.

    The Gram matrix of a set is A0^T diag(w) A0 with A0 the full table's parallelogram rows and w_q = 1
    when both samples of row q are in the set, so all sets of a size are one batched eigendecomposition.
    """
    check_int("n_sets", n_sets, minimum=1)
    check_int("seed", seed, minimum=0)
    samples = unordered_pairs(p)
    n_total = len(samples)
    for n in sizes:
        check_int("sizes", n, minimum=0, maximum=n_total)
    index = {s: k for k, s in enumerate(samples)}
    quads = parallelograms(samples, p)
    a0 = parallelogram_matrix(quads, p)
    first = np.array([index[(i, j)] for i, j in quads[:, :2].tolist()])
    second = np.array([index[(m, n)] for m, n in quads[:, 2:].tolist()])
    rng = np.random.default_rng(seed)
    p_unique, rates = [], []
    for n in sizes:
        member = np.zeros((n_sets, n_total), dtype=bool)
        order = rng.random((n_sets, n_total)).argsort(axis=1)[:, :n]  # a uniform random n-subset per row
        np.put_along_axis(member, order, True, axis=1)
        weight = (member[:, first] & member[:, second]).astype(np.float64)  # (n_sets, n_quads)
        gram = np.einsum("sq,qi,qj->sij", weight, a0, a0)
        eig = _eigenvalues(gram)
        p_unique.append(((eig < ZERO_EIGENVALUE_TOL).sum(axis=1) == 2).mean())
        rates.append(eig[:, 2])
    return LinearStructureStats(np.asarray(sizes), n_total, np.asarray(p_unique), np.asarray(rates))


# --------------------------------------------------------------------------------------------------
# S3: generalised parallelograms (App. H, eq. 28)


def s3_parallelograms(train: Sequence[tuple[int, int]] | None = None) -> np.ndarray:
    """Pairs of distinct ordered samples (a, b), (c, d) of S3 with a*b = c*d: rows (a, b, c, d).

    Group elements are indexed as in :mod:`repro.data.tasks` (product ``b[a[k]]``). The full table of 36
    samples has 6 samples per product, hence 6 * C(6, 2) = 90 rows (as in the official
    toy/Figure5d_permutation.ipynb).
    """
    from repro.data.tasks import BinaryOpTask

    inputs, labels = BinaryOpTask("s3").table()
    product = {tuple(x): int(y) for x, y in zip(inputs.tolist(), labels.tolist())}
    samples = sorted(product) if train is None else sorted({tuple(int(v) for v in s) for s in train})
    for s in samples:
        if s not in product:
            raise ValueError(f"train has {s!r}, which is not a pair of S3 element indices 0..5.")
    by_out: dict[int, list[tuple[int, int]]] = {}
    for s in samples:
        by_out.setdefault(product[s], []).append(s)
    rows = [(*a, *b) for out in sorted(by_out) for a, b in itertools.combinations(by_out[out], 2)]
    return np.asarray(rows, dtype=np.int64).reshape(-1, 4)


def s3_rqi(embeddings, train=None, delta: float = 0.5, per_parallelogram: bool = False):
    """RQI for S3 (App. H): the fraction of rows of :func:`s3_parallelograms` with E_a E_b ~ E_c E_d.

    ``embeddings``: (..., 6, 9) flattened 3x3 matrices or (..., 6, 3, 3). As in the official notebook
    (toy/Figure5d_permutation.ipynb), they are first divided by their global RMS, and a generalised parallelogram
    counts when mean over the 9 entries of (E_a E_b - E_c E_d)^2 < ``delta`` = 0.5.
    ``per_parallelogram=True`` returns which rows are present instead of their fraction.
    """
    check_real("delta", delta, positive=True)
    e = np.asarray(embeddings, dtype=np.float64)
    if e.shape[-1] == 9:
        e = e.reshape(*e.shape[:-1], 3, 3)
    if e.shape[-3:] != (6, 3, 3):
        raise ValueError(f"embeddings must have shape (..., 6, 9) or (..., 6, 3, 3); got {np.shape(embeddings)}.")
    rms = np.sqrt((e**2).mean(axis=(-3, -2, -1), keepdims=True))
    e = e / np.where(rms > 0, rms, 1.0)
    q = s3_parallelograms(train)
    lhs = e[..., q[:, 0], :, :] @ e[..., q[:, 1], :, :]
    rhs = e[..., q[:, 2], :, :] @ e[..., q[:, 3], :, :]
    present = ((lhs - rhs) ** 2).mean(axis=(-2, -1)) < delta
    if per_parallelogram:  # (..., n_rows) booleans, rows as in s3_parallelograms(train)
        return present
    value = present.mean(axis=-1)
    return float(value) if np.ndim(value) == 0 else value


def s3_predicted_accuracy(embeddings, train, delta: float = 0.5) -> float:
    """Acc-hat for S3 (App. H, Fig. 18d): |D-bar| / 36, the S3 analogue of :func:`predicted_accuracy`.

    D-bar adds to the training samples every sample (a, b) that forms a present generalised parallelogram
    (E_a E_b ~ E_c E_d, as in :func:`s3_rqi`) with a training sample (c, d) — the official notebook's
    ``Dbar_id`` (``toy/Figure5d_permutation.ipynb``). Used by ``book/liu2022_effective_theory`` (App. H).
    """
    e = np.asarray(embeddings, dtype=np.float64)
    if e.shape not in ((6, 9), (6, 3, 3)):
        raise ValueError(f"embeddings must have shape (6, 9) or (6, 3, 3); got {e.shape}.")
    known = {tuple(int(v) for v in s) for s in train}
    for s in known:
        if len(s) != 2 or not all(0 <= v < 6 for v in s):
            raise ValueError(f"train has {s!r}, which is not a pair of S3 element indices 0..5.")
    rows = s3_parallelograms()
    present = np.asarray(s3_rqi(e[None], None, delta, per_parallelogram=True))[0]
    augmented = set(known)
    for (a, b, c, d), ok in zip(rows.tolist(), present):
        if ok and (c, d) in known:
            augmented.add((a, b))
        if ok and (a, b) in known:
            augmented.add((c, d))
    return len(augmented) / 36

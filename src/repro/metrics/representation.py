"""Measurements on trained models shared across chapters.

* PCA of an embedding matrix: principal components, explained-variance ratios, the entropy
  S = -Σ σ_i log σ_i of those ratios and the effective dimension e^S (Liu et al. 2022, §4.2 / Fig. 7;
  Liu et al. 2022 §4.2; official: grokking-squared prototype branch, plotting_nbs/EntropyAndTraining.ipynb). Used by the opening chapter (the circle after grokking) and the effective-theory chapter.
* Circle-ness of a 2-D point cloud (how evenly points spread around a circle), for the opening chapter.
* Grokking delay from threshold steps.
* The snapshot of a quantity logged along training at (or just after) a given step.
"""
from __future__ import annotations

import numpy as np


def pca(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PCA of the rows of ``matrix`` (n_points, dim): (projections onto all components, variance ratios).

    Rows are centred; the components are the right singular vectors, ordered by variance. The sign of
    each component is fixed so that its largest-magnitude loading is positive (deterministic plots).
    """
    x = np.asarray(matrix, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 2:
        raise ValueError(f"matrix must be 2-D with at least 2 rows; got shape {x.shape}.")
    x = x - x.mean(axis=0, keepdims=True)
    u, s, vt = np.linalg.svd(x, full_matrices=False)
    signs = np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(axis=1)])
    signs[signs == 0] = 1
    vt = vt * signs[:, None]
    var = s**2
    total = var.sum()
    ratios = var / total if total > 0 else np.zeros_like(var)
    return x @ vt.T, ratios


def explained_variance_entropy(ratios: np.ndarray) -> float:
    """S = -Σ σ_i log σ_i over the explained-variance ratios (natural log; zero ratios contribute 0)."""
    r = np.asarray(ratios, dtype=np.float64)
    r = r[r > 0]
    return float(-(r * np.log(r)).sum())


def effective_dimension(matrix: np.ndarray) -> float:
    """e^S of the embedding PCA (Liu et al. 2022, Fig. 7 left)."""
    return float(np.exp(explained_variance_entropy(pca(matrix)[1])))


def circularity(points: np.ndarray) -> float:
    """How well 2-D points lie on one circle around their centroid: 1 - std(radius)/mean(radius).

    1 for points exactly on a circle; small or negative for a blob.
    """
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f"points must have shape (n, 2); got {pts.shape}.")
    radius = np.linalg.norm(pts - pts.mean(axis=0), axis=1)
    mean = radius.mean()
    return float(1 - radius.std() / mean) if mean > 0 else 0.0


def circle_order(points: np.ndarray, p: int) -> tuple[int, float]:
    """The step k such that symbol s sits at angle ≈ 2π k s / p on the circle, and how well it fits.

    Returns (k, fit) where fit = |mean_s exp(i(θ_s - 2π k s/p))| ∈ [0, 1]; fit ≈ 1 means the embeddings are
    an ordered circle (consecutive symbols a fixed angle apart), as after grokking modular addition.
    """
    pts = np.asarray(points, dtype=np.float64)
    centred = pts - pts.mean(axis=0)
    theta = np.arctan2(centred[:, 1], centred[:, 0])
    s = np.arange(p)
    best = (0, 0.0)
    for k in range(1, p):
        fit = float(np.abs(np.exp(1j * (theta - 2 * np.pi * k * s / p)).mean()))
        if fit > best[1]:
            best = (k, fit)
    return best


def grokking_delay(train_step: int, val_step: int) -> float:
    """Steps to the validation threshold divided by steps to the training threshold (inf if training
    reached it at step 0; nan if either never did)."""
    if train_step < 0 or val_step < 0:
        return float("nan")
    if train_step == 0:
        return float("inf")
    return val_step / train_step


def snapshot_at(snapshots: np.ndarray, steps: np.ndarray, step: int) -> np.ndarray:
    """The snapshot logged at ``step``, or the first one after it; the last one for a step past the end.

    ``snapshots``: (T, ...) values logged at the increasing ``steps`` (T,), e.g. one run's token embeddings.
    Taking the next snapshot rather than the nearest means a figure "at step s" never shows an earlier state.
    """
    steps = np.asarray(steps)
    if steps.ndim != 1 or len(steps) != len(snapshots) or len(steps) == 0:
        raise ValueError(f"steps (shape {steps.shape}) must be 1-D with one step per snapshot: snapshots has "
                         f"{len(snapshots)} along its first axis (at least one).")
    return snapshots[min(int(np.searchsorted(steps, step)), len(steps) - 1)]


def fourier_concentration(embeddings) -> np.ndarray:
    """How much of an embedding table's variation one frequency carries: the largest share, over the frequencies
    k = 1 … ⌊p/2⌋ of the symbol axis, of the centred table's power Σ_d |F_k|² (F the discrete Fourier transform
    over the p symbols). An ordered circle E_s = (cos 2πks/p, sin 2πks/p) gives 1; i.i.d. random rows give about
    the largest of ⌊p/2⌋ equal shares plus their fluctuation (≈ 0.09 for p = 31, d = 32). It is the circle of
    Liu et al. 2022's Fig. 1 (and the Fourier features of modular addition) as one number, batched.

    ``embeddings``: (..., p, d). Returns (...,) in [0, 1] (float64)."""
    e = np.asarray(embeddings, dtype=np.float64)
    if e.ndim < 2 or e.shape[-2] < 3:
        raise ValueError(f"embeddings of shape {e.shape} are not allowed: (..., p, d) with p >= 3 symbols.")
    e = e - e.mean(axis=-2, keepdims=True)
    power = (np.abs(np.fft.rfft(e, axis=-2)[..., 1:, :]) ** 2).sum(axis=-1)  # (..., ⌊p/2⌋)
    if e.shape[-2] % 2 == 0:
        power[..., -1] /= 2  # the Nyquist frequency appears once in the full spectrum, the others twice
    total = power.sum(axis=-1)
    return np.where(total > 0, power.max(axis=-1) / np.where(total > 0, total, 1.0), 0.0)

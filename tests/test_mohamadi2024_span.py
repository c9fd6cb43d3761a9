"""The span limit of App. D (issue 62): the permuted-task covariance, the best predictor in a span and the bound."""
import itertools
import math

import numpy as np
import pytest
import torch

from repro.theory import mohamadi2024 as th


def brute_covariance(p):
    """E_σ Ψ_σ Ψ_σ^T over every triple of permutations (σ_1, σ_2, σ_3), on the p^3 triples."""
    x = th.all_triples(p)
    perms = [np.array(s) for s in itertools.permutations(range(p))]
    S = np.zeros((p ** 3, p ** 3))
    for s1, s2, s3 in itertools.product(perms, repeat=3):
        psi = ((s1[x[:, 0]] + s2[x[:, 1]]) % p == s3[x[:, 2]]).astype(float)
        S += np.outer(psi, psi)
    return S / len(perms) ** 3


def dense_covariance(p):
    return th.apply_permuted_task_covariance(np.eye(p ** 3), p)


@pytest.mark.parametrize("p", [3, 4])
def test_covariance_matches_brute_force(p):
    assert np.allclose(dense_covariance(p), brute_covariance(p), atol=1e-12)


def test_covariance_trace_is_zero_predictor_loss():
    p = 5
    assert math.isclose(np.trace(dense_covariance(p)), p ** 2)  # ‖Ψ‖² = p² ones among p³ triples


@pytest.mark.parametrize("p", [5, 7])
def test_bound_holds_for_the_best_possible_subspace(p):
    """The tightest n-dimensional span (Σ's top-n eigenvectors) still obeys App. D's bound, for every n."""
    lam = np.sort(np.linalg.eigvalsh(dense_covariance(p)))[::-1]
    for n in range(0, p ** 3 + 1, 7):
        exact = 1 - lam[:n].sum() / p ** 2
        assert exact >= th.kernel_span_bound(p, n) - 1e-12


def test_expected_loss_of_random_and_full_spans():
    p = 5
    rng = np.random.default_rng(0)
    F = rng.normal(size=(p ** 3, 40))
    e = th.expected_best_in_span_loss(F, p)
    U = th.span_basis(F)
    assert math.isclose(e, 1 - np.trace(U.T @ dense_covariance(p) @ U) / p ** 2, rel_tol=1e-10)
    assert e >= th.kernel_span_bound(p, 40)
    assert abs(th.expected_best_in_span_loss(np.eye(p ** 3), p)) < 1e-10  # everything in the span: loss 0


def test_best_in_span_is_a_projection():
    rng = np.random.default_rng(1)
    F = rng.normal(size=(30, 5))
    y = rng.normal(size=30)
    coef, *_ = np.linalg.lstsq(F, y, rcond=None)
    assert math.isclose(th.best_in_span_loss(F, y), ((F @ coef - y) ** 2).sum() / (y ** 2).sum(), rel_tol=1e-10)
    assert th.best_in_span_loss(F, F[:, 0] * 2) < 1e-20  # a target in the span
    # rank-deficient features: the duplicated column adds nothing
    assert math.isclose(th.best_in_span_loss(np.hstack([F, F[:, :1]]), y), th.best_in_span_loss(F, y), rel_tol=1e-10)


def test_pair_version_equals_the_triple_version_of_the_kronecker_span():
    p = 5
    rng = np.random.default_rng(2)
    Fp = rng.normal(size=(p * p, 6))
    # V ⊗ R^p on triples (a, b, c): row (a, b, c) of column (t, c') is Fp[(a, b), t] · 1(c = c')
    F3 = np.einsum("qt,cd->qctd", Fp, np.eye(p)).reshape(p ** 3, 6 * p)
    assert math.isclose(th.expected_best_in_span_loss_pairs(Fp, p), th.expected_best_in_span_loss(F3, p), rel_tol=1e-10)


def test_kernel_features_and_bound_values():
    p = 5
    x = th.all_triples(p)
    train = x[np.random.default_rng(0).permutation(p ** 3)[:20]]
    F = th.span_features_regression(p, 4 * p, train, seed=0)
    assert F.shape == (p ** 3, 20)
    W, V = th.pytorch_default_init(p, 4 * p, 0)
    idx = torch.as_tensor(x)
    assert torch.allclose(F, th.entk_regression_kernel(W, V, idx, torch.as_tensor(train)))
    assert F.shape == th.span_features_regression(p, 4 * p, train, 0, kernel="expected").shape
    assert th.span_features_pntk(p, 8 * p, np.array([[0, 1], [2, 3]]), 0).shape == (p * p, 2)
    assert math.isclose(th.kernel_span_bound(11, 133), 1 - 1 / 11 - 133 / 1331 * math.exp(0.2))
    assert th.kernel_span_bound(11, 1331) < 0  # vacuous with every triple


def test_bad_input():
    with pytest.raises(ValueError):
        th.kernel_span_bound(1, 3)
    with pytest.raises(ValueError):
        th.span_basis(np.zeros((4, 0)))
    with pytest.raises(ValueError):
        th.expected_best_in_span_loss(np.ones((10, 2)), 3)
    with pytest.raises(ValueError):
        th.span_features_regression(3, 12, np.zeros((1, 3), dtype=int), 0, kernel="mean")


def test_sweeps_shapes_and_bound():
    from repro.experiments import mohamadi2024_why_grok as mw
    sw = mw.kernel_span_sweep([5], [0.2, 0.6], 4)
    assert sw["empirical"].shape == (1, 2)
    assert np.all(sw["empirical_perm"] >= sw["bound"]) and np.all(sw["expected_perm"] >= sw["bound"])
    cl = mw.pntk_span_sweep(5, [0.2, 0.6], 40)
    assert np.all(cl["perm"] >= cl["bound"]) and cl["best"].shape == (2,)


def test_transformer_kernel_on_training_pairs():
    from dataclasses import replace
    from repro.experiments import mohamadi2024_why_grok as mw
    cfg = replace(mw.TransformerGrokConfig(), p=11, ntk_points=40)
    m = mw.ntk_train_mask(cfg)
    idx = mw.ntk_indices(cfg)
    train = set(np.asarray(cfg.task_data().train_idx).tolist())
    assert m.tolist() == [int(i) in train for i in idx] and 0 < m.sum() < len(m)
    K = np.random.default_rng(0).normal(size=(3, 40, 40))
    res = mw.TransformerResult(config=cfg, steps=np.arange(3), train_acc=np.zeros(3), test_acc=np.zeros(3),
                               unmirrored_acc=np.zeros(3), train_loss=np.zeros(3), test_loss=np.zeros(3),
                               gram=mw.kernel_gram(K), kernels=K)
    sub = res.on_training_pairs()
    assert np.allclose(sub.gram, mw.kernel_gram(K[:, m][:, :, m])) and sub.kernels.shape == (3, m.sum(), m.sum())
    with pytest.raises(ValueError):
        replace(res, kernels=None).on_training_pairs()

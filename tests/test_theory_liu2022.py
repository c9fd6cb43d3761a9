"""Tests of repro.theory.liu2022 (effective theory of Liu et al. 2022) against brute force and exact algebra."""
import itertools
from dataclasses import replace

import numpy as np
import pytest
import sympy
import torch

from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.theory import liu2022 as L


def brute_parallelograms(train):
    """Every unordered pair of distinct samples with equal sums, by exhaustive search over 4-tuples."""
    found = set()
    for a in train:
        for b in train:
            if a != b and sum(a) == sum(b):
                found.add(frozenset([tuple(a), tuple(b)]))
    return found


def dense_matrix(quads, p):
    """A built entry by entry with Python loops (an independent construction of eq. 7's matrix)."""
    rows = []
    for i, j, m, n in quads:
        row = [0] * p
        row[i] += 1
        row[j] += 1
        row[m] -= 1
        row[n] -= 1
        rows.append(row)
    return rows


def exact_nullity(train, p):
    quads = L.parallelograms(train, p).tolist()
    if not quads:
        return p
    return p - sympy.Matrix(dense_matrix(quads, p)).rank()


def random_sets(p, n_sets, seed):
    rng = np.random.default_rng(seed)
    pairs = L.unordered_pairs(p)
    for _ in range(n_sets):
        k = int(rng.integers(1, len(pairs) + 1))
        yield [pairs[i] for i in sorted(rng.choice(len(pairs), k, replace=False))]


# ---------------------------------------------------------------------------- parallelograms


def test_full_p10_table_has_70_parallelograms():
    assert len(L.unordered_pairs(10)) == 55
    assert len(L.parallelograms(L.unordered_pairs(10), 10)) == 70


@pytest.mark.parametrize("p", [3, 4, 5, 7])
def test_parallelograms_match_exhaustive_search(p):
    for train in random_sets(p, 20, seed=p):
        quads = L.parallelograms(train, p)
        got = {frozenset([(i, j), (m, n)]) for i, j, m, n in quads.tolist()}
        assert len(got) == len(quads)  # each unordered pair of samples once
        assert got == brute_parallelograms(train)
        assert all(i + j == m + n for i, j, m, n in quads.tolist())


def test_p4_example_of_appendix_e():
    # eqs (18)-(21): P0 = {E0+E2=2E1, E0+E3=E1+E2, E1+E3=2E2}; the 6-sample set implies all of them
    full = {frozenset(map(tuple, [q[:2], q[2:]])) for q in L.parallelograms(L.unordered_pairs(4), 4).tolist()}
    assert full == {frozenset([(0, 2), (1, 1)]), frozenset([(0, 3), (1, 2)]), frozenset([(1, 3), (2, 2)])}
    d = [(0, 2), (1, 1), (0, 3), (1, 2), (1, 3), (2, 2)]
    assert len(L.parallelograms(d, 4)) == 3
    assert L.unique_linear_structure(d, 4)


def test_bad_pairs_raise_clear_errors():
    with pytest.raises(ValueError, match="i <= j"):
        L.parallelograms([(3, 1)], 5)
    with pytest.raises(ValueError, match="outside"):
        L.parallelograms([(0, 5)], 5)
    with pytest.raises(ValueError, match="repeated"):
        L.parallelograms([(0, 1), (0, 1)], 5)
    with pytest.raises(ValueError, match="p="):
        L.parallelograms([(0, 1)], 1)


# ---------------------------------------------------------------------------- nullity and lambda_3


@pytest.mark.parametrize("p", [4, 5, 6])
def test_nullity_matches_exact_rational_rank(p):
    for train in random_sets(p, 25, seed=10 + p):
        assert L.nullity(train, p) == exact_nullity(train, p)
        assert L.unique_linear_structure(train, p) == (exact_nullity(train, p) == 2)


def test_unique_structure_means_the_null_space_is_translation_and_scale():
    # exhaustive over every training set of p = 4 (2^10 sets): nullity 2 <=> null space = span(1, k)
    p = 4
    pairs = L.unordered_pairs(p)
    linear = sympy.Matrix([[1] * p, list(range(p))]).T
    for mask in range(1 << len(pairs)):
        train = [s for b, s in enumerate(pairs) if mask >> b & 1]
        quads = L.parallelograms(train, p).tolist()
        unique = L.unique_linear_structure(train, p)
        if not quads:
            assert not unique
            continue
        a = sympy.Matrix(dense_matrix(quads, p))
        assert a * linear == sympy.zeros(len(quads), 2)  # the trivial modes always solve eq. (7)
        assert unique == (len(a.nullspace()) == 2)


def test_grokking_rate_is_third_smallest_squared_singular_value():
    for p in (5, 8, 10):
        for train in random_sets(p, 15, seed=100 + p):
            quads = L.parallelograms(train, p).tolist()
            a = np.array(dense_matrix(quads, p), dtype=float).reshape(-1, p)
            sv = np.linalg.svd(a, compute_uv=False) if len(quads) else np.zeros(0)
            sq = np.sort(np.concatenate([sv**2, np.zeros(p - len(sv))]))  # rank-deficient: zeros
            assert L.grokking_rate(train, p) == pytest.approx(sq[2], abs=1e-9)


def test_gram_is_half_the_autograd_hessian_of_l0():
    # eq. (8): d^2 l0 / dE dE = 2 A^T A for l0 = sum over P0(D) |E_i + E_j - E_m - E_n|^2
    p = 7
    train = next(random_sets(p, 1, seed=3))
    quads = torch.as_tensor(L.parallelograms(train, p))

    def l0(e):
        return ((e[quads[:, 0]] + e[quads[:, 1]] - e[quads[:, 2]] - e[quads[:, 3]]) ** 2).sum()

    hess = torch.autograd.functional.hessian(l0, torch.randn(p, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(hess, 2 * L.gram_matrix(train, p), atol=1e-12)


def test_reference_values_of_lambda3():
    # our independent computation: full-data spectrum {0, 0, 30, ...} (Fig. 5a at fraction 1); the official default
    # split (toy/train_add.py, seed 58, 45/55) -> lambda_3 = 12.43, n_h = p / (2 lambda_3 eta) = 402
    assert L.grokking_rate(L.unordered_pairs(10), 10) == pytest.approx(30.0, abs=1e-9)
    data = build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")
    train = [tuple(x) for x in data.inputs[torch.as_tensor(data.train_idx)].tolist()]
    rate = L.grokking_rate(train, 10)
    assert rate == pytest.approx(12.43, abs=0.01)
    assert L.theory_grokking_steps(rate, 10, 1e-3) == pytest.approx(402, abs=1)
    assert L.theory_grokking_steps(0.0, 10, 1e-3) == float("inf")


def test_linear_structure_statistics_agree_with_single_set_functions():
    stats = L.linear_structure_statistics(6, [3, 8, 14, 21], n_sets=40, seed=1)
    assert stats.rates.shape == (4, 40)
    assert stats.p_unique[-1] == 1.0 and stats.p_unique[0] == 0.0  # full table is unique; 3 samples never
    assert np.all(np.diff(stats.p_unique) >= 0)
    # the batched statistics over all 21 sets of size 20 of p = 6 equal the per-set functions
    pairs = L.unordered_pairs(6)
    stats = L.linear_structure_statistics(6, [20], n_sets=300, seed=2)
    per_set = [[s for s in pairs if s != left_out] for left_out in pairs]
    rates = sorted({round(L.grokking_rate(t, 6), 9) for t in per_set})
    assert set(np.round(stats.rates[0], 9)) <= set(rates)
    assert stats.p_unique[0] == 1.0 and all(L.unique_linear_structure(t, 6) for t in per_set)
    with pytest.raises(ValueError, match="sizes"):
        L.linear_structure_statistics(6, [22], n_sets=5)


def test_crossing_interpolates_linearly():
    assert L.crossing([0.1, 0.2, 0.3], [0.0, 0.4, 0.8], 0.5) == pytest.approx(0.225)
    assert np.isnan(L.crossing([0.1, 0.2], [0.0, 0.1], 0.5))


# ---------------------------------------------------------------------------- RQI and Acc-hat


def test_rqi_of_linear_embedding_is_one_and_of_random_is_small():
    p = 10
    assert L.rqi(3.0 + 0.7 * np.arange(p), None, p, 0.01) == 1.0
    assert L.rqi(np.outer(np.arange(p), [1.0, -2.0]) + 5, L.unordered_pairs(p), p, 0.01) == 1.0  # 2-D line
    rng = np.random.default_rng(0)
    assert np.mean([L.rqi(rng.standard_normal(p), None, p, 0.01) for _ in range(50)]) < 0.1


def test_rqi_counts_parallelograms_like_brute_force():
    p = 8
    rng = np.random.default_rng(5)
    e = np.arange(p, dtype=float)
    e[[2, 5]] += rng.normal(0, 1, 2)  # break every parallelogram that involves symbols 2 or 5
    quads = L.parallelograms(L.unordered_pairs(p), p).tolist()
    norm = (e - e.mean()) / e.std(ddof=1)
    present = sum(abs(norm[i] + norm[j] - norm[m] - norm[n]) ** 2 < 0.01 for i, j, m, n in quads)
    assert L.rqi(e, None, p, 0.01) == pytest.approx(present / len(quads))
    assert L.rqi(e, None, p, 0.01) < 1
    # batched input gives one value per representation
    batch = np.stack([np.arange(p, dtype=float), e])[..., None]
    np.testing.assert_allclose(L.rqi(batch, None, p, 0.01), [1.0, present / len(quads)])


def test_predicted_accuracy_matches_brute_force_deduction():
    p = 10
    pairs = L.unordered_pairs(p)
    rng = np.random.default_rng(2)
    e = np.arange(p, dtype=float)
    e[7] += 0.9  # a partly broken line
    present = {frozenset([(i, j), (m, n)]) for i, j, m, n in L.present_parallelograms(e, p).tolist()}
    for _ in range(10):
        train = [pairs[i] for i in sorted(rng.choice(len(pairs), 20, replace=False))]
        deduced = set(train) | {s for s in pairs for t in train if frozenset([s, t]) in present}
        assert L.predicted_accuracy(e, train, p) == pytest.approx(len(deduced) / len(pairs))
    # a linear representation answers every sample whose sum occurs in training
    train = [(0, 0), (0, 9), (9, 9)]
    sums = {0, 9, 18}
    assert L.predicted_accuracy(np.arange(p, dtype=float), train, p) == pytest.approx(
        sum(i + j in sums for i, j in pairs) / len(pairs))


# ---------------------------------------------------------------------------- effective theory


def test_effective_loss_is_invariant_to_affine_maps_and_zero_on_a_line():
    p = 9
    train = L.unordered_pairs(p)[::2]
    e = np.random.default_rng(1).standard_normal(p)
    assert L.effective_loss(3.0 * e - 2.0, train, p) == pytest.approx(L.effective_loss(e, train, p))
    assert L.effective_loss(np.arange(p, dtype=float), train, p) == pytest.approx(0.0, abs=1e-20)
    n = len(L.parallelograms(train, p))
    assert L.effective_loss(e, train, p, per_parallelogram=True) == pytest.approx(L.effective_loss(e, train, p) / n)


def test_effective_step_is_gradient_descent_on_l0_over_z0():
    p = 10
    train = [s for k, s in enumerate(L.unordered_pairs(p)) if k % 3]
    e0 = np.random.default_rng(4).standard_normal((1, p))
    traj = L.effective_trajectories(e0, [train], p, lr=1e-3, steps=1)
    start = torch.tensor(traj.embeddings[0, 0, :, 0], requires_grad=True)
    quads = torch.as_tensor(L.parallelograms(train, p))
    z0 = (start.detach() ** 2).sum()
    loss = ((start[quads[:, 0]] + start[quads[:, 1]] - start[quads[:, 2]] - start[quads[:, 3]]) ** 2).sum() / (
        start**2).sum()
    loss.backward()
    expected = start.detach() - 1e-3 * start.grad
    np.testing.assert_allclose(traj.embeddings[0, 1, :, 0], expected.numpy(), atol=1e-12)
    assert float(z0) == pytest.approx(p)  # normalised start: Z0 = p


def test_effective_flow_conserves_z0_and_sum_and_reaches_the_line():
    p = 10
    train = L.unordered_pairs(p)
    e0 = np.random.default_rng(7).standard_normal((2, p))
    traj = L.effective_trajectories(e0, [train, train], p, lr=1e-3, steps=3000, record_every=100)
    e = traj.embeddings[..., 0]  # (R, T, p)
    np.testing.assert_allclose((e**2).sum(-1), p, rtol=1e-2)  # eq. (6); Euler drift is O(lr^2) per step
    np.testing.assert_allclose(e.sum(-1), 0, atol=1e-9)
    assert np.all(L.rqi(traj.embeddings[:, -1], None, p) == 1.0)
    assert np.all(np.diff(traj.loss, axis=1) <= 1e-12)  # gradient flow never increases the loss
    with pytest.raises(ValueError, match="rows"):
        L.effective_trajectories(e0, [train, train], p, lr=1e-3, steps=1, rows="some")


# ---------------------------------------------------------------------------- S3


def test_s3_parallelograms_and_rqi_of_a_faithful_representation():
    assert len(L.s3_parallelograms()) == 90
    inputs, labels = BinaryOpTask("s3").table()
    out = {tuple(x): y for x, y in zip(inputs.tolist(), labels.tolist())}
    assert all(out[(a, b)] == out[(c, d)] for a, b, c, d in L.s3_parallelograms().tolist())
    from repro.data.tasks import S3_ELEMENTS

    perm = np.zeros((6, 3, 3))
    for g, s in enumerate(S3_ELEMENTS):
        perm[g, np.arange(3), list(s)] = 1.0  # P_g[k, g(k)] = 1: P_a P_b = P_(b o a), the table's product
    assert L.s3_rqi(perm) == 1.0
    assert L.s3_rqi(perm.reshape(6, 9) * 3.0) == 1.0  # global scale does not matter
    rng = np.random.default_rng(0)
    assert L.s3_rqi(rng.standard_normal((6, 9))) < 0.5
    with pytest.raises(ValueError, match="shape"):
        L.s3_rqi(rng.standard_normal((5, 9)))


def test_frozen_z0_starts_like_the_current_z0_and_drifts_more():
    p = 10
    rng = np.random.default_rng(3)
    pairs = L.unordered_pairs(p)
    train = [pairs[i] for i in rng.choice(len(pairs), 45, replace=False)]
    e0 = rng.uniform(-1, 1, (1, p))
    cur = L.effective_trajectories(e0, [train], p, lr=1e-3, steps=2000, record_every=1000)
    frz = L.effective_trajectories(e0, [train], p, lr=1e-3, steps=2000, record_every=1000, freeze_z0=True)
    np.testing.assert_allclose(cur.embeddings[:, 0], frz.embeddings[:, 0])
    drift = lambda t: abs((t.embeddings[0, -1] ** 2).sum() / (t.embeddings[0, 0] ** 2).sum() - 1)
    assert drift(frz) > drift(cur)


def test_seed_spread_trains_every_init_seed_in_both_dimensions():
    from repro.experiments.liu2022_critical_data import ToyConfig, run_reference, run_seed_spread

    cfg = ToyConfig(reference_steps=20, effective_steps=20, eval_every=10, spread_seeds=(58, 1, 2))
    ref = run_reference(cfg, progress=False)
    spread = run_seed_spread(ref, grid=8, progress=False)
    assert spread.rqi_curves.shape == (3, len(spread.steps))
    assert spread.rqi_step.shape == (3,) and spread.val_acc[2].shape == (3,) and spread.rqi[2].shape == (3,)
    assert spread.comparison.embeddings[2].shape == (cfg.p, 2)
    assert spread.comparison.class_map[2].shape == (8, 8)
    assert spread.comparison.val_acc[2] == spread.val_acc[2][0]  # the figure's 2-D run is the reference init seed
    assert spread.initial.shape == (3, cfg.p)
    np.testing.assert_allclose(spread.initial[0], ref.embeddings[0], rtol=1e-6)  # seed 58 starts where the reference does


def test_effective_rqi_steps_agree_with_the_reference_run_and_resolve_every_step():
    from repro.experiments.liu2022_critical_data import ToyConfig, effective_rqi_steps, run_reference

    cfg = ToyConfig(reference_steps=10, effective_steps=3000, eval_every=10)
    ref = run_reference(cfg, progress=False)
    start = ref.embeddings[:1]
    assert effective_rqi_steps(cfg, start, ref.train_pairs)[0] == ref.effective_rqi_step
    assert effective_rqi_steps(cfg, start, ref.train_pairs, rows="all")[0] == ref.effective_all_rqi_step
    fine = effective_rqi_steps(cfg, start, ref.train_pairs, rows="all", record_every=1)[0]
    assert ref.effective_all_rqi_step - 10 < fine <= ref.effective_all_rqi_step
    assert effective_rqi_steps(replace(cfg, effective_steps=5), start, ref.train_pairs)[0] == -1

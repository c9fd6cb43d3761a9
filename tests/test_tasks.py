import itertools

import numpy as np
import pytest

from repro.data.tasks import BinaryOpTask, Split, build_task_data, make_split


def test_addition_unordered_has_55_samples_for_p10():
    inputs, labels = BinaryOpTask("addition", 10).table()
    assert inputs.shape == (55, 2) and labels.shape == (55,)
    assert (inputs[:, 0] <= inputs[:, 1]).all()
    assert (labels == inputs.sum(1)).all()
    assert BinaryOpTask("addition", 10).n_classes == 19


def test_modular_addition_ordered_table_matches_brute_force():
    p = 7
    inputs, labels = BinaryOpTask("modular_addition", p).table()
    assert len(inputs) == p * p
    brute = {(a, b): (a + b) % p for a in range(p) for b in range(p)}
    assert all(brute[tuple(x)] == y for x, y in zip(inputs, labels))


def test_modular_addition_unordered():
    inputs, labels = BinaryOpTask("modular_addition", 7, ordered=False).table()
    assert len(inputs) == 7 * 8 // 2
    assert (labels == inputs.sum(1) % 7).all()


def test_modular_division_is_the_official_equation_set():
    # openai/grok data.py, operator "/": for c and b != 0 it writes the equation (b·c mod p) / b = c
    p = 7
    inputs, labels = BinaryOpTask("modular_division", p).table()
    official = {((b * c) % p, b): c for c in range(p) for b in range(1, p)}
    assert len(inputs) == len(official) == p * (p - 1)
    assert {tuple(x): int(y) for x, y in zip(inputs, labels)} == official
    assert BinaryOpTask("modular_division", p).n_classes == p


def test_s3_is_the_permutation_group():
    task = BinaryOpTask("s3")
    inputs, labels = task.table()
    assert len(inputs) == 36 and task.n_classes == 6
    perms = list(itertools.permutations(range(3)))
    table = labels.reshape(6, 6)
    # closure and a latin square (group): each result once per row and column
    assert all(sorted(row) == list(range(6)) for row in table)
    assert all(sorted(col) == list(range(6)) for col in table.T)
    # non-abelian
    assert (table != table.T).any()
    # associativity via the composition itself: (b ∘ a)(k) = b[a[k]]
    for (a, b), c in zip(inputs, labels):
        assert perms[c] == tuple(perms[b][perms[a][k]] for k in range(3))


@pytest.mark.parametrize("kwargs, match", [
    (dict(operation="modular_addition", p=10), "prime"),
    (dict(operation="addition", p=1), "p=1"),
    (dict(operation="division", p=7), "operation"),
    (dict(operation="s3", p=5), "exactly 6"),
    (dict(operation="s3", ordered=False), "commutative"),
    (dict(operation="modular_division", ordered=False), "commutative"),
    (dict(operation="modular_division", p=9), "prime"),
])
def test_bad_task_raises_naming_parameter(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BinaryOpTask(**kwargs)


@pytest.mark.parametrize("kwargs, match", [
    (dict(train_fraction=0.0), "train_fraction"),
    (dict(train_fraction=1.5), "train_fraction"),
    (dict(train_fraction=-0.1), "train_fraction"),
    (dict(), "exactly one"),
    (dict(train_fraction=0.5, train_count=3), "exactly one"),
    (dict(train_count=0), "train_count"),
])
def test_bad_split_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Split(**kwargs)


def test_split_sizes_and_disjointness():
    train, val = make_split(55, Split(train_count=45, data_seed=58))
    assert len(train) == 45 and len(val) == 10
    assert set(train).isdisjoint(val) and set(train) | set(val) == set(range(55))
    train2, _ = make_split(55, Split(train_count=45, data_seed=58))
    assert (train == train2).all()
    train3, _ = make_split(55, Split(train_count=45, data_seed=59))
    assert not (train == train3).all()


def test_split_by_fraction_rounds_and_rejects_empty():
    train, val = make_split(100, Split(train_fraction=0.3))
    assert len(train) == 30 and len(val) == 70
    with pytest.raises(ValueError, match="empty training split"):
        make_split(10, Split(train_fraction=0.01))
    with pytest.raises(ValueError, match="empty validation split"):
        make_split(10, Split(train_count=10))
    train, val = make_split(10, Split(train_fraction=1.0))
    assert len(train) == 10 and len(val) == 0
    with pytest.raises(ValueError, match="only 10 samples"):
        make_split(10, Split(train_count=11))


def test_official_rng_order_templates_then_split():
    """toy/train_add.py: np.random.seed(seed); templates = normal(0, 1, (2p-1, 30)); train = choice(55, 45)."""
    data = build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")
    rng = np.random.RandomState(58)
    templates = rng.normal(0, 1, (19, 30))
    train = rng.choice(55, 45, replace=False)
    assert np.allclose(data.templates.numpy(), templates, atol=1e-6)
    assert (data.train_idx == train).all()
    assert data.targets.shape == (55, 30) and data.loss == "mse" and data.accuracy == "nearest_template"


def test_classification_data():
    data = build_task_data(BinaryOpTask("modular_addition", 5), Split(train_fraction=0.6, data_seed=1))
    assert data.loss == "ce" and data.targets is None and data.n_classes == 5
    train, val = data.masks()
    assert int(train.sum()) == 15 and int(val.sum()) == 10 and not (train & val).any()


@pytest.mark.parametrize("operation,p,ordered", [("addition", 10, False), ("addition", 10, True),
                                                 ("modular_addition", 31, False), ("modular_addition", 31, True),
                                                 ("modular_division", 13, True), ("s3", 6, True)])
def test_closed_form_count_matches_the_table(operation, p, ordered):
    task = BinaryOpTask(operation, p, ordered=ordered)
    assert task.n_samples == len(task.table()[0])

"""Tests of repro.metrics.relation_inference (GenEFT, Baek, Liu & Tegmark 2024 §3): Bayes-optimal inference of a relation
from observed cells, against brute-force enumeration."""
import itertools

import numpy as np
import pytest

from repro.data.relations import bipartite_side
from repro.metrics.relation_inference import (bipartite_posterior, equivalence_posterior, order_posterior,
                                              transitive_closure)

# ------------------------------------------------------------------ Monte-Carlo inference vs brute force


def _observed(n, count, seed):
    rng = np.random.default_rng(seed)
    mask = np.zeros(n * n, dtype=bool)
    mask[rng.choice(n * n, count, replace=False)] = True
    return mask.reshape(n, n)


def _brute_posterior(relation, observed, candidates):
    """Exact posterior: average of all candidate relations that agree with every observed cell."""
    ok = [c for c in candidates if np.array_equal(c[observed], relation[observed])]
    assert ok, "the truth itself must be consistent"
    return np.mean(ok, axis=0)


def _accuracy(p):
    return np.maximum(p, 1 - p).mean()


@pytest.mark.parametrize("k,seed,count", [(3, 0, 6), (3, 1, 10), (2, 2, 8)])
def test_equivalence_posterior_matches_enumeration(k, seed, count):
    n = 6
    x = np.arange(n)
    relation = (x[:, None] % k == x[None, :] % k).astype(np.int8)
    obs = _observed(n, count, seed)
    cands = [(np.array(f)[:, None] == np.array(f)[None, :]).astype(float)
             for f in itertools.product(range(k), repeat=n)]
    exact = _brute_posterior(relation, obs, cands)
    post = equivalence_posterior(relation, obs, k, chains=400, sweeps=150, seed=seed)
    assert np.abs(post.probability[0] - exact).max() < 0.05
    assert abs(post.accuracy[0] - _accuracy(exact)) < 0.01
    forced = (exact == 0) | (exact == 1)
    # the rule-based 'directly inferable' cells (paper §3 step a) are forced; with k = 2 the posterior
    # can force more (x != y and y != z imply x == z), which the accuracy still accounts for
    assert not (post.inferable[0] & ~forced).any()
    if k == 3:
        assert post.inferable[0].sum() >= 0.9 * forced.sum()


@pytest.mark.parametrize("seed,count", [(0, 5), (1, 9), (2, 14)])
def test_order_posterior_matches_enumeration(seed, count):
    n = 6
    x = np.arange(n)
    relation = (x[:, None] < x[None, :]).astype(np.int8)
    obs = _observed(n, count, seed)
    cands = []
    for perm in itertools.permutations(range(n)):
        rank = np.argsort(perm)
        cands.append((rank[:, None] < rank[None, :]).astype(float))
    exact = _brute_posterior(relation, obs, cands)
    post = order_posterior(relation, obs, chains=400, sweeps=400, record_every=2, seed=seed)
    assert np.abs(post.probability[0] - exact).max() < 0.05
    assert abs(post.accuracy[0] - _accuracy(exact)) < 0.01
    forced = (exact == 0) | (exact == 1)
    assert np.array_equal(post.inferable[0], forced)


@pytest.mark.parametrize("seed,count", [(0, 4), (1, 8), (2, 12)])
def test_bipartite_posterior_is_exact(seed, count):
    n = 6
    s = bipartite_side(n)
    relation = (s[:, None] != s[None, :]).astype(np.int8)
    obs = _observed(n, count, seed)
    cands = [(np.array(f)[:, None] != np.array(f)[None, :]).astype(float) for f in itertools.product((0, 1), repeat=n)]
    exact = _brute_posterior(relation, obs, cands)
    post = bipartite_posterior(relation, obs)
    np.testing.assert_allclose(post.probability[0], exact, atol=1e-12)


def test_transitive_closure_of_a_chain():
    before = np.zeros((1, 4, 4), dtype=bool)
    before[0, 0, 1] = before[0, 1, 2] = before[0, 2, 3] = True
    assert transitive_closure(before)[0].sum() == 6


def test_inconsistent_observations_are_rejected():
    relation = np.array([[0, 1], [1, 0]], dtype=np.int8)  # 0 < 1 and 1 < 0: not an order
    with pytest.raises(ValueError, match="inconsistent"):
        order_posterior(relation, np.ones((2, 2), dtype=bool), chains=2, sweeps=4)


def test_relation_posterior_dispatches_by_name_and_checks_input():
    from repro.data.relations import relation_matrix
    from repro.metrics.relation_inference import relation_posterior

    obs = np.stack([_observed(6, 10, 0), _observed(6, 0, 1)])  # two training sets at once; the second empty
    post = relation_posterior("bipartite", obs, n=6)
    np.testing.assert_array_equal(post.probability, bipartite_posterior(relation_matrix("bipartite", 6), obs).probability)
    assert post.probability.shape == post.inferable.shape == (2, 6, 6)
    # Posterior's summaries by hand: accuracy is the mean of max(p, 1 - p), inferable the share of forced cells
    np.testing.assert_allclose(post.accuracy, np.maximum(post.probability, 1 - post.probability).mean(axis=(1, 2)))
    np.testing.assert_allclose(post.inferable_fraction, post.inferable.mean(axis=(1, 2)))
    assert post.accuracy[0] > post.accuracy[1]  # observations help
    eq = relation_posterior("mod3", obs[:1], n=6, chains=20, sweeps=6)
    assert eq.probability.shape == (1, 6, 6) and np.all((eq.probability >= 0) & (eq.probability <= 1))
    with pytest.raises(ValueError, match="relation"):
        relation_posterior("mod7", obs, n=6)
    with pytest.raises(ValueError, match=r"observed \(S, n, n\)"):
        bipartite_posterior(relation_matrix("bipartite", 6), np.ones((2, 5, 5), dtype=bool))
    with pytest.raises(ValueError, match="k"):
        equivalence_posterior(relation_matrix("mod3", 6), obs, 1)

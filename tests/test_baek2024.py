"""GenEFT (Baek, Liu & Tegmark 2024): relations, Bayes-optimal inference, theory and the batched model."""
import itertools
import math

import numpy as np
import pytest
import torch

from repro.relation_inference import bipartite_posterior, equivalence_posterior, order_posterior, transitive_closure
from repro.relations import (RelationModelConfig, RelationTrainConfig, bipartite_side, forward, init_params,
                             relation_matrix, train_mask, train_relations)
from repro.theory.baek2024 import (accuracy_upper_bound, conserved_quantity, critical_fraction, description_length,
                                   inferable_fraction, integrate_repons, monte_carlo_upper_bound, repon_fixed_point,
                                   repon_probability, repon_probability_monte_carlo)

# ------------------------------------------------------------------ relations against their definitions


@pytest.mark.parametrize("n", [7, 30])
def test_relation_matrices_match_table_1(n):
    s = bipartite_side(n)
    for name, rule in [("mod3", lambda x, y: x % 3 == y % 3), ("mod5", lambda x, y: x % 5 == y % 5),
                       ("greater_than", lambda x, y: x < y), ("bipartite", lambda x, y: s[x] != s[y])]:
        m = relation_matrix(name, n)
        assert m.shape == (n, n) and m.dtype == np.int8
        for x in range(n):
            for y in range(n):
                assert m[x, y] == int(rule(x, y)), (name, x, y)


def test_relation_counts_for_n30():
    assert relation_matrix("mod3").sum() == 300
    assert relation_matrix("mod5").sum() == 180
    assert relation_matrix("greater_than").sum() == 435
    assert relation_matrix("bipartite").sum() == 450  # |S| = 15


def test_relation_and_split_validation():
    with pytest.raises(ValueError, match="relation"):
        relation_matrix("mod7")
    with pytest.raises(ValueError, match="fraction"):
        train_mask(900, 1.5, 0)
    m = train_mask(900, 0.6, 3)
    assert m.sum() == 540 and np.array_equal(m, train_mask(900, 0.6, 3))
    assert not np.array_equal(m, train_mask(900, 0.6, 4))


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


def test_monte_carlo_upper_bound_limits():
    acc, inf = monte_carlo_upper_bound("bipartite", [0.0, 1.0], data_seeds=[0])
    assert acc[1, 0] == 1.0 and inf[1, 0] == 1.0
    assert acc[0, 0] == pytest.approx(0.5 + 0.5 / 30)  # only the diagonal is known with no data


# ------------------------------------------------------------------ static theory


def test_description_lengths_table_2():
    assert description_length("mod3") == pytest.approx(30 * math.log2(3))
    assert description_length("mod5") == pytest.approx(30 * math.log2(5))
    assert description_length("greater_than") == pytest.approx(math.log2(math.factorial(30)))
    assert description_length("bipartite") == 30


def test_critical_fraction_solves_eq_2():
    for b in (30.0, 47.5, 107.7):
        pc = critical_fraction(b, 30, 0.9)
        assert inferable_fraction(900 * pc, b) == pytest.approx(0.9)
    # Eq. 3 with Table 2's b = 30 log2 3 (our calculation)
    assert critical_fraction(description_length("mod3"), 30, 0.9) == pytest.approx(0.1204, abs=1e-4)
    with pytest.raises(ValueError, match="alpha"):
        critical_fraction(30, 30, 1.0)


def test_accuracy_upper_bound_limits():
    assert accuracy_upper_bound(0, 47.5, 1 / 3) == pytest.approx(2 / 3)
    assert accuracy_upper_bound(1e6, 47.5, 1 / 3) == pytest.approx(1.0)
    assert accuracy_upper_bound(90, 30, 0.5) == pytest.approx(0.9763, abs=1e-4)  # Eq. 4 (our calculation)
    with pytest.raises(ValueError, match="p_star"):
        accuracy_upper_bound(1, 30, 1.5)


# ------------------------------------------------------------------ repon theory


@pytest.mark.parametrize("a2,c", [(1.0, 0.3), (1.0, 0.55), (-0.7, 0.2)])
def test_conserved_quantity_along_the_ode(a2, c):
    eta_x, eta_A = 1e-3, 2e-3
    t, a, cc = integrate_repons(a2, c, eta_x, eta_A, t_max=2e5)
    C = conserved_quantity(a, cc, eta_x, eta_A)
    assert np.abs(C - C[0]).max() < 1e-6 * max(1.0, abs(C[0]))
    a_inf, c_inf = repon_fixed_point(a2, c, eta_x, eta_A)
    assert a[-1] == pytest.approx(a_inf, abs=2e-3) and cc[-1] == pytest.approx(c_inf, abs=2e-3)


def test_repon_fixed_point_examples():  # our Euler integration of Eq. 9
    assert repon_fixed_point(1.0, 0.3, 1e-3, 2e-3) == pytest.approx((0.8, 0.0), abs=1e-3)
    assert repon_fixed_point(1.0, 0.55, 1e-3, 2e-3) == pytest.approx((0.0, 0.229), abs=1e-3)


def test_repon_probability_eq_11():
    assert repon_probability(2.0, 1.0) == pytest.approx(0.5)
    assert repon_probability(1e-3, 1e-3) == pytest.approx(0.392, abs=1e-3)
    assert repon_probability(2e-5, 1e-5) == pytest.approx(repon_probability(2.0, 1.0))  # ratio only
    mc = repon_probability_monte_carlo(1e-3, 1e-2, sigma_a=2.0, samples=200_000)
    assert mc == pytest.approx(repon_probability(1e-3, 1e-2, sigma_a=2.0), abs=0.005)
    with pytest.raises(ValueError, match="eta_x"):
        repon_probability(0.0, 1.0)


# ------------------------------------------------------------------ model


def test_forward_matches_an_unbatched_reference():
    cfg = RelationModelConfig(n=5, d_embed=2, hidden_layers=2, width=4, mode="concat")
    params = init_params(cfg, [3, 4], dtype=torch.float64)
    out = forward(cfg, params)
    r = 1
    E = params[0][r]
    for i in range(5):
        for j in range(5):
            h = torch.cat([E[i], E[j]])
            h = torch.tanh(h @ params[1][r] + params[2][r])
            h = torch.tanh(h @ params[3][r] + params[4][r])
            h = h @ params[5][r] + params[6][r]
            assert out[r, i * 5 + j].item() == pytest.approx(h.item())


@pytest.mark.parametrize("mode,expected", [("difference", lambda a, b: a - b), ("squared_difference", lambda a, b: (a - b) ** 2)])
def test_combination_modes(mode, expected):
    cfg = RelationModelConfig(n=4, d_embed=3, hidden_layers=0, width=1, mode=mode)
    params = init_params(cfg, [0], dtype=torch.float64)
    E, W, b = params[0][0], params[1][0], params[2][0]
    out = forward(cfg, params)[0]
    assert out[1 * 4 + 2].item() == pytest.approx((expected(E[1], E[2]) @ W + b).item())


def test_batched_runs_are_independent_and_learn():
    model = RelationModelConfig(n=12, d_embed=1, hidden_layers=0, mode="squared_difference")
    lab = relation_matrix("mod3", 12).ravel()
    masks = np.stack([train_mask(144, 0.6, 0)] * 2)
    cfg = RelationTrainConfig(steps=300, eval_every=50)
    both = train_relations(model, np.stack([lab, lab]), masks, lr_enc=[3e-2, 1e-3], lr_dec=[3e-2, 1e-3],
                           wd_dec=[0, 0], init_seeds=[0, 0], cfg=cfg)
    alone = train_relations(model, lab[None], masks[:1], lr_enc=[1e-3], lr_dec=[1e-3], wd_dec=[0],
                            init_seeds=[0], cfg=cfg)
    np.testing.assert_allclose(both.train_loss[1], alone.train_loss[0], rtol=1e-5)
    assert both.train_loss[0, -1] < 0.5 * both.train_loss[0, 0]


def test_train_relations_validation():
    model = RelationModelConfig(n=4)
    lab = relation_matrix("mod3", 4).ravel()[None]
    with pytest.raises(ValueError, match="lr_enc"):
        train_relations(model, lab, np.ones_like(lab, dtype=bool), lr_enc=[-1.0], lr_dec=[1e-3], wd_dec=[0],
                        init_seeds=[0], cfg=RelationTrainConfig(steps=1))
    with pytest.raises(ValueError, match="mode"):
        RelationModelConfig(mode="sum")


# ------------------------------------------------------------------ phase diagrams over seeds (repro.geneft)


def _synthetic_phases(boundaries):
    """A Fig. 5 PhaseResult whose seed k generalizes at encoder-lr row >= boundaries[k][column] (else memorizes)."""
    from repro.geneft import PhaseConfig, PhaseResult

    grid = tuple(10.0 ** np.arange(-4, -1.4, 0.5))
    cfg = PhaseConfig(row_values=grid, lr_dec=grid, relations=("mod3",), seeds=tuple(range(len(boundaries))), steps=10)
    ph = np.empty((len(boundaries), 6, 6), dtype=object)
    for k, cols in enumerate(boundaries):
        for j, first in enumerate(cols):
            ph[k, :, j] = ["memorization" if i < first else "comprehension" for i in range(6)]
    return PhaseResult(cfg, {"mod3": ph}, {"mod3": np.zeros((len(boundaries), 6, 6))})


def test_fit_boundary_pools_seeds_and_fits_each_seed():
    from repro.geneft import fit_boundary

    # seed 0: boundary rises one row per column (slope 1); seed 1: the same, one row higher from column 3
    result = _synthetic_phases([[0, 1, 2, 3, 4, 5], [0, 1, 2, 4, 5, 6]])
    fit = fit_boundary(result)
    # column 0 of both seeds and the last column of seed 1 have one phase only: not clean
    np.testing.assert_array_equal(fit.seed_columns, [5, 4])
    assert fit.seed_slopes[0] == pytest.approx(1.0)
    assert fit.seed_slopes[1] > 1.0
    assert fit.seed_slopes[0] < fit.slope < fit.seed_slopes[1]
    assert len(fit.points["mod3"][0]) == 9
    # the seed bootstrap: every resampling lies between the two seeds' own slopes, and it spreads
    assert np.all((fit.boot_slopes >= fit.seed_slopes[0] - 1e-9) & (fit.boot_slopes <= fit.seed_slopes[1] + 1e-9))
    assert np.std(fit.boot_slopes) > 0
    same = fit_boundary(_synthetic_phases([[0, 1, 2, 3, 4, 5]] * 3))
    np.testing.assert_allclose(same.boot_slopes, same.slope)  # identical seeds: no seed spread


def test_majority_phase_fraction_and_memorization_onset():
    from repro.geneft import memorization_onset

    result = _synthetic_phases([[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [6, 6, 6, 6, 6, 6]])
    assert result.majority_phase("mod3")[2, 1] == "comprehension"
    assert result.majority_phase("mod3")[0, 3] == "memorization"
    assert result.generalized_fraction("mod3")[2, 1] == pytest.approx(2 / 3)
    onset = memorization_onset(result, "mod3")
    assert onset.shape == (3, 6)
    assert np.isnan(onset[0, 5])  # the top row of seed 0 never memorizes
    assert onset[2, 0] == pytest.approx(-4.0)

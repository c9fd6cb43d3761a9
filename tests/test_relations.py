"""Tests of repro.data.relations (GenEFT, Baek, Liu & Tegmark 2024): the relations of Table 1, the train split and the
batched encoder-decoder."""
import numpy as np
import pytest
import torch

from repro.data.relations import bipartite_side, relation_matrix, train_mask
from repro.models.networks import RelationModelConfig
from repro.training.relation_runs import RelationTrainConfig, forward, init_params, train_relations

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

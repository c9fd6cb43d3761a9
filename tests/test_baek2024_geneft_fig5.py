"""GenEFT Fig. 5 in the paper's regime (repro.experiments.baek2024_geneft): plain gradient descent for the
relation runs (against a torch-autograd loop), the boundary fitted to every decided run (against boundaries
drawn by hand), merging per-seed stored entries, and the stored configs' validation."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.data.relations import relation_matrix, train_mask
from repro.experiments.baek2024_geneft import (FIG5_SEEDS, PhaseConfig, PhaseResult, fig5_label, product_rule,
                                               fit_boundary_logistic, merge_seeds, run_phases, stored_fig5_config,
                                               train_until_decided)
from repro.models.networks import RelationModel, RelationModelConfig
from repro.training.relation_runs import (RelationTrainConfig, forward, init_params, train_relation_runs,
                                          train_relations)


def _autograd_gd(model, labels, mask, lr_enc, lr_dec, seed, steps):
    """θ ← θ − η·∇L by torch autograd, L the mean binary cross-entropy over the training pairs; the
    embeddings at lr_enc, the rest at lr_dec."""
    params = [p.clone().requires_grad_(True) for p in init_params(model, [seed], torch.float64)]
    specs = RelationModel(model).param_specs()
    y = torch.as_tensor(labels, dtype=torch.float64)
    m = torch.as_tensor(mask)
    for _ in range(steps):
        logits = forward(model, params)[0]
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits[m], y[m])
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g, s in zip(params, grads, specs):
                p -= (lr_enc if s.group == "repr" else lr_dec) * g
    return [p.detach()[0] for p in params]


@pytest.mark.parametrize("fast_grad", [False, True])
def test_gd_equals_an_autograd_loop_in_float64(fast_grad):
    model = RelationModelConfig(n=7, width=5, hidden_layers=2)
    rels = ("mod3", "bipartite")
    labels = np.stack([relation_matrix(r, 7).ravel() for r in rels])
    masks = np.stack([train_mask(49, 0.75, k) for k in range(2)])
    lr_enc, lr_dec, seeds = [0.3, 1.0], [0.5, 0.2], [2, 5]
    cfg = RelationTrainConfig(steps=40, eval_every=10, dtype="float64", optimizer="gd")
    h = train_relation_runs(model, labels, masks, lr_enc=lr_enc, lr_dec=lr_dec, wd_dec=[0.0, 0.0], init_seeds=seeds,
                            cfg=cfg, keep_final_params=True, fast_grad=fast_grad)
    specs = RelationModel(model).param_specs()
    for r in range(2):
        ref = _autograd_gd(model, labels[r], masks[r], lr_enc[r], lr_dec[r], seeds[r], 40)
        for s, want in zip(specs, ref):
            np.testing.assert_allclose(np.asarray(h.final_params[s.name][r]), want.numpy(), rtol=0, atol=1e-12)
    # and it trains: the loss falls
    assert (h["train_loss"][:, -1] < h["train_loss"][:, 0]).all()


def test_gd_refuses_weight_decay_and_unknown_optimizers():
    model = RelationModelConfig(n=5, width=3, hidden_layers=1)
    labels = relation_matrix("mod3", 5).ravel()[None]
    masks = train_mask(25, 0.75, 0)[None]
    with pytest.raises(ValueError, match="wd_dec must be 0 with optimizer='gd'"):
        train_relations(model, labels, masks, lr_enc=[0.1], lr_dec=[0.1], wd_dec=[0.1], init_seeds=[0],
                        cfg=RelationTrainConfig(steps=2, optimizer="gd"))
    with pytest.raises(ValueError, match="optimizer"):
        RelationTrainConfig(optimizer="sgd")
    with pytest.raises(ValueError, match="optimizer"):
        PhaseConfig(optimizer="lbfgs")
    with pytest.raises(ValueError, match="no weight decay"):
        PhaseConfig(rows="wd_dec", optimizer="gd")


def _synthetic(rule, seeds=2, confuse=None):
    """A Fig. 5 result whose phases follow ``rule(log10 η_dec, log10 η_enc, task) -> generalized`` (else
    memorization); ``confuse(x, y)``: cells left confused."""
    grid = tuple(10.0 ** np.arange(-5, -0.9, 0.5))
    cfg = PhaseConfig(row_values=grid, lr_dec=grid, seeds=tuple(range(seeds)), width=4)
    ys, xs = np.meshgrid(np.log10(grid), np.log10(grid), indexing="ij")
    phases, test = {}, {}
    for t, rel in enumerate(cfg.relations):
        ph = np.where(rule(xs, ys, t), "comprehension", "memorization").astype(object)
        if confuse is not None:
            ph[confuse(xs, ys)] = "confusion"
        phases[rel] = np.stack([ph] * seeds)
        test[rel] = np.zeros((seeds,) + ph.shape)
    return PhaseResult(cfg, phases, test)


def test_logistic_fit_finds_a_falling_boundary_and_its_side():
    # the paper's pattern: generalization at low rates, below the line log η_enc = −log η_dec − 7 + shift(task)
    res = _synthetic(lambda x, y, t: y < -x - 7.0 + 0.5 * t)
    fit = fit_boundary_logistic(res)
    assert fit.slope == pytest.approx(-1.0, abs=0.15)
    assert not fit.generalize_above and fit.misclassified == 0 and fit.confused == 0
    assert fit.decided == 3 * 2 * 81
    # intercepts (at η_dec = 1) near −7, −6.5, −6: the grid's half-decade steps place them within a step
    for t, rel in enumerate(res.config.relations):
        assert fit.intercepts[rel] == pytest.approx(-7.0 + 0.5 * t, abs=0.5)
    assert np.allclose(fit.seed_slopes, fit.slope) and np.allclose(fit.boot_slopes, fit.slope)


def test_logistic_fit_finds_a_rising_boundary_and_leaves_confusion_out():
    # our reading of Eq. 11: generalization when η_enc keeps up with η_dec; the lowest corner undecided
    corner = lambda x, y: (x < -4.2) & (y < -4.2)
    res = _synthetic(lambda x, y, t: y > x - 0.25, confuse=corner)
    fit = fit_boundary_logistic(res)
    assert fit.slope == pytest.approx(1.0, abs=0.15) and fit.generalize_above
    n_corner = int(corner(*np.meshgrid(np.log10(res.config.lr_dec), np.log10(res.config.row_values))).sum())
    assert fit.confused == 3 * 2 * n_corner and fit.decided == 3 * 2 * (81 - n_corner)


def test_logistic_fit_sees_a_vertical_boundary_as_steep():
    res = _synthetic(lambda x, y, t: x < -3.25)  # memorization from η_dec > 10^-3.25 on, whatever η_enc
    assert abs(fit_boundary_logistic(res).slope) > 5


def test_logistic_fit_refuses_a_grid_without_a_boundary():
    with pytest.raises(ValueError, match="no boundary"):
        fit_boundary_logistic(_synthetic(lambda x, y, t: np.ones_like(x, dtype=bool)))


def test_merge_seeds_and_the_stored_configs():
    grid = (1e-3, 1e-2)
    one = [run_phases(replace(PhaseConfig(), relations=("mod3",), row_values=grid, lr_dec=grid, width=4, steps=20,
                                      eval_every=10, seeds=(sd,))) for sd in (0, 1)]
    both = run_phases(replace(one[0].config, seeds=(0, 1)))
    merged = merge_seeds(one)
    assert merged.config == both.config
    np.testing.assert_array_equal(merged.phases["mod3"], both.phases["mod3"])
    with pytest.raises(ValueError, match="more than their seeds"):
        merge_seeds([one[0], run_phases(replace(one[1].config, steps=30))])
    for opt in ("adam", "gd"):
        cfgs = [stored_fig5_config(opt, sd) for sd in FIG5_SEEDS]
        assert all(c.width == 50 and c.hidden_layers == 3 and c.fraction == 0.75 and c.steps == 20_000 for c in cfgs)
        assert [c.seeds for c in cfgs] == [(sd,) for sd in FIG5_SEEDS] and all(c.optimizer == opt for c in cfgs)
        assert len(cfgs[0].row_values) == 9 and cfgs[0].row_values == cfgs[0].lr_dec
    assert min(stored_fig5_config("adam").row_values) == pytest.approx(1e-5)
    assert max(stored_fig5_config("gd").row_values) == pytest.approx(10.0)
    assert fig5_label("gd") == "geneft-fig5-gd"
    with pytest.raises(ValueError, match="optimizer"):
        stored_fig5_config("sgd")


@pytest.mark.slow
def test_train_until_decided_with_gd_stops_decided_runs():
    model = RelationModelConfig(width=10, hidden_layers=2)
    labels = np.stack([relation_matrix("mod3", model.n).ravel()] * 2)
    masks = np.stack([train_mask(model.n**2, 0.75, 0)] * 2)
    h = train_until_decided(model, labels, masks, lr_enc=[3.0, 1e-4], lr_dec=[1.0, 1e-4], wd_dec=[0.0, 0.0],
                            init_seeds=[0, 0], cfg=RelationTrainConfig(steps=1000, eval_every=50, optimizer="gd"))
    # the fast run generalizes and stops where its phase is decided; the slow one runs to the budget undecided
    assert 0 < h.first_train[0] == h.first_test[0] == h.stopped_at[0] < 1000
    assert h.stopped_at[1] == 1000 and h.first_train[1] == h.first_test[1] == -1


def test_product_rule_counts_by_brute_force():
    """product_rule's counts against a loop over every run; a product equal to 1e-7 up to rounding is inside."""
    res = _synthetic(lambda x, y, t: x + y <= -7 + 0.5 * t, seeds=3, confuse=lambda x, y: (x < -4) & (y < -4))
    res.phases["bipartite"][1, 3, 2] = "grokking"  # one seed differs
    rule = product_rule(res)
    c = res.config
    gen = above = low_runs = low_conf = low_gen = 0
    seed_above, seed_gen = np.zeros(3), np.zeros(3)
    for rel in c.relations:
        for s in range(3):
            for i, e in enumerate(c.row_values):
                for j, d in enumerate(c.lr_dec):
                    ph = res.phases[rel][s, i, j]
                    g = ph in ("comprehension", "grokking")
                    inside = round(np.log10(e) + np.log10(d), 6) <= -7
                    gen += g
                    seed_gen[s] += g
                    above += g and not inside
                    seed_above[s] += g and not inside
                    low_runs += inside
                    low_conf += inside and ph == "confusion"
                    low_gen += inside and g
    assert (rule.generalizing, rule.above, rule.low_runs, rule.low_confused, rule.low_generalized) == \
           (gen, above, low_runs, low_conf, low_gen)
    np.testing.assert_allclose(rule.seed_share_above, seed_above / seed_gen)
    assert rule.share_above == pytest.approx(above / gen)
    assert rule.low_decided == pytest.approx(1 - low_conf / low_runs)
    assert rule.low[3, 5] == (c.row_values[3] * c.lr_dec[5] <= 1e-7 * (1 + 1e-9))
    with pytest.raises(ValueError, match="rows='lr_enc'"):
        product_rule(PhaseResult(PhaseConfig(rows="wd_dec", row_values=(0.0, 1e-3)), {}, {}))


def test_fig6_wide_config():
    """Fig. 6 at the paper's width over every weight-decay row: one entry per seed, the onset's grid as Fig. 5's."""
    from repro.experiments.baek2024_geneft import stored_fig6_wide_config

    c = stored_fig6_wide_config(2)
    assert (c.rows, c.width, c.hidden_layers, c.steps, c.seeds, c.optimizer) == ("wd_dec", 50, 3, 20_000, (2,), "adam")
    assert c.row_values == (0.0, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)
    assert c.lr_dec == stored_fig5_config("adam", 0).lr_dec and c.lr_enc == 3e-4
    with pytest.raises(ValueError, match="seed"):
        stored_fig6_wide_config(-1)


def test_invert_encoder_axis_negates_the_slope_and_turns_a_ratio_rule_into_a_product_rule():
    """Reversing the encoder rows of a ratio-rule map (η_enc ≥ η_dec) gives a falling boundary and a product rule:
    on the grid 1e-5 … 1e-1, η_enc ≥ η_dec reads as η_enc·η_dec ≤ 1e-6."""
    from repro.experiments.baek2024_geneft import invert_encoder_axis

    res = _synthetic(lambda x, y, t: y >= x - 1e-9, seeds=2)
    inv = invert_encoder_axis(res)
    up, down = fit_boundary_logistic(res), fit_boundary_logistic(inv)
    assert down.slope == pytest.approx(-up.slope, abs=1e-6) and up.generalize_above and not down.generalize_above
    assert product_rule(inv, 1e-6).share_above == 0 and product_rule(res, 1e-6).share_above == pytest.approx(20 / 45)
    np.testing.assert_array_equal(invert_encoder_axis(inv).phases["mod3"], res.phases["mod3"])
    assert inv.phases["mod3"][0, 0, 0] == res.phases["mod3"][0, -1, 0]
    with pytest.raises(ValueError, match="rows='lr_enc'"):
        invert_encoder_axis(PhaseResult(PhaseConfig(rows="wd_dec", row_values=(0.0, 1e-3)), {}, {}))
    uneven = PhaseResult(replace(res.config, row_values=(1e-5, 1e-4, 1e-2)), {}, {})
    with pytest.raises(ValueError, match="evenly spaced"):
        invert_encoder_axis(uneven)


def test_decay_efolds_and_decay_reach_on_a_hand_made_fig6_map():
    from repro.experiments.baek2024_geneft import decay_efolds, decay_reach

    cfg = PhaseConfig(rows="wd_dec", row_values=(0.0, 1e-2, 1e-1, 1.0), lr_dec=(1e-4, 1e-3, 1e-2, 1e-1), lr_enc=3e-4,
                      steps=1000, seeds=(0, 1, 2), width=4)
    n = decay_efolds(cfg)
    assert n[0].tolist() == [0, 0, 0, 0]
    assert n[2, 1] == pytest.approx(-1000 * np.log(1 - 1e-4)) and n[3, 3] == pytest.approx(-1000 * np.log(0.9))
    assert np.isinf(decay_efolds(replace(cfg, row_values=(0.0, 10.0), lr_dec=(0.1, 0.2)))[1]).all()
    # memorization from 1e-3 on at decays 0 and 1e-2, none from 0.1 on: the critical decay 1/(1e-3 * 1000) = 1
    # lies outside (1e-2, 0.1]
    row_mem = np.array(["comprehension", "memorization", "memorization", "memorization"], dtype=object)
    row_gen = np.array(["comprehension"] * 4, dtype=object)
    ph = np.stack([np.stack([row_mem, row_mem, row_gen, row_gen])] * 3)
    res = PhaseResult(cfg, {r: ph for r in cfg.relations}, {r: np.zeros(ph.shape) for r in cfg.relations})
    d = decay_reach(res, "mod3")
    assert d.onset == pytest.approx(-3.0) and d.critical_wd == pytest.approx(1.0)
    assert (d.last_memorizing, d.first_without, d.brackets) == (1e-2, 0.1, False)
    np.testing.assert_allclose(d.shrink, np.exp(-n))
    assert np.isinf(d.weight_bound[0]) and d.weight_bound[2] == pytest.approx(10)
    res2 = replace(res, config=replace(cfg, steps=100))  # critical decay 10: still outside
    assert decay_reach(res2, "mod3").critical_wd == pytest.approx(10.0)
    with pytest.raises(ValueError, match="first row"):
        decay_reach(PhaseResult(replace(cfg, row_values=(1e-3, 1e-2, 1e-1, 1.0)), res.phases, res.test_acc), "mod3")

"""The GenEFT training (repro.training.relation_runs.train_relations,
repro.experiments.baek2024_geneft.train_until_decided) through the one batched trainer, against the two loops
it replaced (tests/oracles/geneft_loops.py, copied verbatim before they were deleted)."""
import numpy as np
import pytest
import torch

from oracles import geneft_loops as old
from repro.data.relations import all_pairs, relation_matrix, train_mask
from repro.experiments.baek2024_geneft import train_until_decided
from repro.models.fastgrad import RelationGradient
from repro.models.networks import RelationModel, RelationModelConfig, build_model
from repro.training.relation_runs import RelationTrainConfig, init_params, relation_task_data, train_relations
from repro.training.trainer import Performance, Record, TrainConfig, Until, train

RELS = ("mod3", "greater_than", "bipartite", "mod5")


def _runs(n=8, runs=6, fractions=(0.75, 0.5)):
    """Runs with different relations, training sets (of unequal sizes), learning rates, decays and seeds."""
    labels = np.stack([relation_matrix(RELS[r % len(RELS)], n).ravel() for r in range(runs)])
    masks = np.stack([train_mask(n * n, fractions[r % len(fractions)], r) for r in range(runs)])
    rng = np.random.default_rng(0)
    kwargs = dict(lr_enc=10.0 ** rng.uniform(-2.5, -1.5, runs), lr_dec=10.0 ** rng.uniform(-2.5, -1.5, runs),
                  wd_dec=np.where(np.arange(runs) % 2 == 0, 0.0, 0.5), init_seeds=[3, 1, 4, 1, 5, 9][:runs])
    return labels, masks, kwargs


def test_model_initializes_as_the_old_init_params():
    cfg = RelationModelConfig(n=7, d_embed=3, hidden_layers=2, width=5)
    for dtype in (torch.float32, torch.float64):
        got = init_params(cfg, [0, 7, 7], dtype)
        ref = old.init_params(cfg, [0, 7, 7], dtype)
        assert all(torch.equal(a, b) for a, b in zip(got, ref))
    # and so does the trainer's flat buffer (every step-0 parameter, through keep_final_params after one step
    # at a vanishing rate would not be exact: compare the draws FlatParams makes instead)
    from repro.training.trainer import FlatParams, per_run_values
    model = build_model(cfg)
    assert isinstance(model, RelationModel)
    _, values = per_run_values(TrainConfig(), {"init_seed": [0, 7, 7]})
    views = FlatParams(model, values, torch.float32, "cpu").views()
    ref = old.init_params(cfg, [0, 7, 7], torch.float32)
    assert all(torch.equal(views[s.name], r) for s, r in zip(model.param_specs(), ref))


@pytest.mark.parametrize("mode", ["concat", "difference", "squared_difference"])
def test_forward_equals_the_old_forward(mode):
    cfg = RelationModelConfig(n=6, d_embed=2, hidden_layers=2, width=4, mode=mode)
    params = old.init_params(cfg, [1, 2], torch.float64)
    model = RelationModel(cfg)
    named = {s.name: p for s, p in zip(model.param_specs(), params)}
    assert torch.equal(model.forward(named, all_pairs(6))[..., 0], old.forward(cfg, params))


@pytest.mark.slow
@pytest.mark.parametrize("mode,hidden_layers", [("concat", 2), ("concat", 0), ("difference", 1),
                                                ("squared_difference", 2)])
def test_train_relations_equals_the_old_loop_in_float64(mode, hidden_layers):
    model = RelationModelConfig(n=8, width=6, hidden_layers=hidden_layers, mode=mode)
    labels, masks, kwargs = _runs()
    cfg = RelationTrainConfig(steps=120, eval_every=10, dtype="float64")
    got = train_relations(model, labels, masks, cfg=cfg, keep_final_params=True, **kwargs)
    ref = old.train_relations(model, labels, masks, cfg=cfg, keep_final_params=True, **kwargs)
    np.testing.assert_array_equal(got.steps, ref.steps)
    for key in ("train_acc", "test_acc", "all_acc", "train_loss"):
        np.testing.assert_allclose(getattr(got, key), getattr(ref, key), rtol=0, atol=1e-10, err_msg=key)
    for a, b in zip(got.final_params, ref.final_params):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=0, atol=1e-10)
    assert (ref.train_loss[:, -1] < ref.train_loss[:, 0]).all()  # the runs do train


@pytest.mark.parametrize("mode", ["concat", "squared_difference"])
def test_train_relations_keeps_the_float32_bits(mode):
    """The same operations in the same order as the old loop: the float32 runs of the chapters are unchanged."""
    model = RelationModelConfig(n=8, width=6, hidden_layers=2, mode=mode)
    labels, masks, kwargs = _runs()
    cfg = RelationTrainConfig(steps=60, eval_every=20)
    got = train_relations(model, labels, masks, cfg=cfg, keep_final_params=True, **kwargs)
    ref = old.train_relations(model, labels, masks, cfg=cfg, keep_final_params=True, **kwargs)
    for a, b in zip(got.final_params, ref.final_params):
        assert torch.equal(a, b)
    np.testing.assert_array_equal(got.all_acc, ref.all_acc)
    np.testing.assert_array_equal(got.test_acc.astype(np.float32), ref.test_acc.astype(np.float32))


@pytest.mark.parametrize("stop", [False, True])
def test_train_until_decided_equals_the_old_loop_in_float64(stop):
    model = RelationModelConfig(n=8, width=6, hidden_layers=2)
    labels, masks, kwargs = _runs()
    cfg = RelationTrainConfig(steps=120, eval_every=10, dtype="float64")
    got = train_until_decided(model, labels, masks, cfg=cfg, stop=stop, record=True, **kwargs)
    ref = old.train_until_decided(model, labels, masks, cfg=cfg, stop=stop, record=True, **kwargs)
    for key in ("steps", "first_train", "first_test", "stopped_at"):
        np.testing.assert_array_equal(getattr(got, key), getattr(ref, key), err_msg=key)
    for key in ("test_acc", "train_acc_history", "test_acc_history"):
        np.testing.assert_allclose(getattr(got, key), getattr(ref, key), rtol=0, atol=1e-10, err_msg=key)
    if stop:  # the test exercises runs that stop early and runs that train to the end
        assert (got.stopped_at < cfg.steps).any() and (got.stopped_at == cfg.steps).any()
        assert np.isnan(got.test_acc_history).any()


def test_train_until_decided_keeps_the_float32_bits():
    model = RelationModelConfig(n=8, width=5, hidden_layers=3)
    labels, masks, kwargs = _runs(fractions=(0.75,))
    cfg = RelationTrainConfig(steps=150, eval_every=10)
    got = train_until_decided(model, labels, masks, cfg=cfg, record=True, **kwargs)
    ref = old.train_until_decided(model, labels, masks, cfg=cfg, record=True, **kwargs)
    for key in ("first_train", "first_test", "stopped_at", "test_acc", "train_acc_history", "test_acc_history"):
        np.testing.assert_array_equal(getattr(got, key), getattr(ref, key), err_msg=key)


def test_every_run_stopping_pads_the_history_with_nan():
    model = RelationModelConfig(n=8, width=6, hidden_layers=2)
    labels, masks, kwargs = _runs(runs=2)
    cfg = RelationTrainConfig(steps=50, eval_every=10, dtype="float64")
    got = train_until_decided(model, labels, masks, cfg=cfg, threshold=-1.0, record=True, **kwargs)
    ref = old.train_until_decided(model, labels, masks, cfg=cfg, threshold=-1.0, record=True, **kwargs)
    np.testing.assert_array_equal(got.stopped_at, [0, 0])
    np.testing.assert_array_equal(got.steps, ref.steps)
    assert np.isnan(got.train_acc_history[:, 1:]).all()
    np.testing.assert_allclose(got.test_acc, ref.test_acc, rtol=0, atol=1e-12)


def test_a_stopped_run_keeps_its_parameters_at_the_stop():
    """train(until=...): the final parameters of a run that stopped at step s are those of the same run trained
    for s steps, and the other runs are those of a training without it."""
    cfg_model = RelationModelConfig(n=6, width=4, hidden_layers=1)
    labels, masks, _ = _runs(n=6, runs=3, fractions=(0.75,))
    data = relation_task_data(cfg_model, labels)
    tm = torch.as_tensor(masks)
    tcfg = TrainConfig(steps=40, eval_every=10, lr_repr=1e-2, lr_dec=1e-2, dtype="float64", device="cpu")
    runs = {"init_seed": [0, 1, 2], "wd_dec": [0.0, 0.1, 0.0]}
    stop_run1_at_20 = lambda steps, metrics: np.array([False, steps[-1] >= 20, False])
    got = train(cfg_model, data, tcfg, runs, split=(tm, ~tm), record=Record(keep_final_params=True),  # one block:
                components=(Until(stop_run1_at_20),), performance=Performance(workers=1, progress=False))  # 3 runs
    full = train(cfg_model, data, tcfg, runs, split=(tm, ~tm), record=Record(keep_final_params=True),
                 performance=Performance(progress=False))
    short = train(cfg_model, data, TrainConfig(**{**tcfg.__dict__, "steps": 20}), runs, split=(tm, ~tm),
                  record=Record(keep_final_params=True), performance=Performance(progress=False))
    assert np.isnan(got["train_loss"][1, 3:]).all() and not np.isnan(got["train_loss"][1, :3]).any()
    for name in got.final_params:
        np.testing.assert_allclose(got.final_params[name][[0, 2]], full.final_params[name][[0, 2]], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got.final_params[name][1], short.final_params[name][1], rtol=0, atol=1e-12)


def test_hand_written_gradient_matches_autograd():
    cfg = RelationModelConfig(n=6, d_embed=2, hidden_layers=3, width=5)
    model = RelationModel(cfg)
    params = dict(zip([s.name for s in model.param_specs()], old.init_params(cfg, [0, 1], torch.float64)))
    labels = torch.as_tensor(np.stack([relation_matrix("mod3", 6).ravel(), relation_matrix("bipartite", 6).ravel()]))
    pairs = all_pairs(6)
    x = torch.stack([pairs[torch.randperm(36, generator=torch.Generator().manual_seed(r))[:20]] for r in range(2)])
    y = labels.gather(1, x[..., 0] * 6 + x[..., 1])
    w = torch.rand(2, 20, dtype=torch.float64, generator=torch.Generator().manual_seed(5))
    leaves = {k: v.clone().requires_grad_() for k, v in params.items()}
    loss = (torch.nn.functional.binary_cross_entropy_with_logits(model.forward(leaves, x)[..., 0], y.double(),
                                                                 reduction="none") * w).sum()
    ref = dict(zip(leaves, torch.autograd.grad(loss, list(leaves.values()))))
    fast = RelationGradient(model)
    for inputs in (x, x):  # twice: the second call reuses the buffers
        out, cache = fast.forward(params, inputs)
        grads = fast.backward(params, inputs, cache, fast.output_gradient(out, None, y, w, "bce"))
        for name, g in ref.items():
            np.testing.assert_allclose(grads[name].reshape(g.shape).numpy(), g.numpy(), rtol=1e-10, atol=1e-12, err_msg=name)


def test_validation():
    cfg_model = RelationModelConfig(n=6, width=4, hidden_layers=1)
    labels, masks, _ = _runs(n=6, runs=3, fractions=(0.75,))
    data = relation_task_data(cfg_model, labels)
    tm = torch.as_tensor(masks)
    tcfg = TrainConfig(steps=2, device="cpu")
    with pytest.raises(ValueError, match="one per run"):
        train(cfg_model, data, tcfg, {"init_seed": [0, 1]}, split=(tm[:2], ~tm[:2]),
              performance=Performance(progress=False))
    with pytest.raises(ValueError, match="until"):
        train(cfg_model, data, TrainConfig(steps=2, device="cpu", batch_size=4), {"init_seed": [0, 1, 2]},
              split=(tm, ~tm), components=(Until(lambda s, m: np.zeros(3, bool)),),
              performance=Performance(progress=False))
    with pytest.raises(ValueError, match="until must return"):
        train(cfg_model, data, tcfg, {"init_seed": [0, 1, 2]}, split=(tm, ~tm),
              components=(Until(lambda s, m: np.zeros(len(s) + 5, bool)),), performance=Performance(progress=False))
    with pytest.raises(ValueError, match="0/1"):
        relation_task_data(cfg_model, labels * 2)
    with pytest.raises(ValueError, match="fast_grad"):
        train(RelationModelConfig(n=6, mode="difference"), data, tcfg, {"init_seed": [0, 1, 2]}, split=(tm, ~tm),
              performance=Performance(fast_grad=True, progress=False))

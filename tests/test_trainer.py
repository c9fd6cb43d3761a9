from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.data.tasks import BinaryOpTask, Split, TaskData, build_task_data
from repro.models.networks import EmbedMLPConfig, MLPConfig, TwoLayerConfig
from repro.training.trainer import (History, Performance, Record, StepDecay, TrainConfig, Until, project_to_norm,
                                    train)

TOY = EmbedMLPConfig(n_symbols=10, d_embed=1, hidden=(16, 16), d_out=30)


def _toy_data(seed=58):
    return build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=seed), target="regression")


def _torch_reference(model_cfg, data, cfg, optimizer_cls, **opt_kwargs):
    """The same toy model as nn.Modules trained with torch.optim: the oracle for the batched trainer. A warm-up
    runs through LambdaLR stepped after each update, as openai/grok training.py does."""
    torch.manual_seed(cfg.init_seed)
    embed = torch.nn.Parameter(((torch.rand(10, 1) - 0.5) * cfg.repr_init_scale).double())
    dims = (1, *model_cfg.hidden, model_cfg.d_out)
    layers = [torch.nn.Linear(a, b).double() for a, b in zip(dims[:-1], dims[1:])]
    dec = [p for layer in layers for p in layer.parameters()]
    opt_r = optimizer_cls([embed], lr=cfg.lr_repr, weight_decay=cfg.wd_repr, **opt_kwargs)
    opt_d = optimizer_cls(dec, lr=cfg.lr_dec, weight_decay=cfg.wd_dec, **opt_kwargs)
    warm = lambda s: min(1.0, s / cfg.warmup_steps) if cfg.warmup_steps else 1.0
    schedulers = [torch.optim.lr_scheduler.LambdaLR(opt, warm) for opt in (opt_r, opt_d)]
    x, y = data.inputs[data.train_idx], data.targets[data.train_idx].double()
    losses = []
    for _ in range(cfg.steps):
        h = embed[x[:, 0]] + embed[x[:, 1]]
        for k, layer in enumerate(layers):
            h = layer(h)
            if k < len(layers) - 1:
                h = torch.tanh(h)
        loss = (h - y).pow(2).mean()
        losses.append(loss.item())
        opt_r.zero_grad(); opt_d.zero_grad()
        loss.backward()
        opt_r.step(); opt_d.step()
        for scheduler in schedulers:
            scheduler.step()
    return np.array(losses), embed.detach().numpy()


@pytest.mark.parametrize("optimizer", ["adamw", "sgd"])
def test_matches_torch_optim_oracle(optimizer):
    data = _toy_data()
    cfg = TrainConfig(steps=40, optimizer=optimizer, lr_repr=3e-3, lr_dec=1e-2, wd_repr=0.1, wd_dec=0.5,
                      init_seed=58, dtype="float64", device="cpu")
    hist = train(TOY, data, cfg, record=Record(keep_final_params=True), performance=Performance(progress=False))
    if optimizer == "adamw":
        ref_losses, ref_embed = _torch_reference(TOY, data, cfg, torch.optim.AdamW, betas=(0.9, 0.999), eps=1e-8)
    else:
        ref_losses, ref_embed = _torch_reference(TOY, data, cfg, torch.optim.SGD)
    np.testing.assert_allclose(hist["train_loss"][0, :-1], ref_losses, rtol=1e-9)
    np.testing.assert_allclose(hist.final_params["embed"][0], ref_embed, rtol=1e-8)


@pytest.mark.parametrize("optimizer, fused", [("adamw", True), ("adamw", False), ("sgd", None)])
def test_warmup_matches_torch_lambda_lr(optimizer, fused):
    """warmup_steps = 5: update k uses lr·min(1, k/5), weight decay included, as torch.optim under LambdaLR."""
    data = _toy_data()
    cfg = TrainConfig(steps=30, optimizer=optimizer, lr_repr=3e-3, lr_dec=1e-2, wd_repr=0.1, wd_dec=0.5,
                      init_seed=58, warmup_steps=5, dtype="float64", device="cpu")
    hist = train(TOY, data, cfg, record=Record(keep_final_params=True),
                 performance=Performance(fused_optimizer=fused, progress=False))
    kwargs = dict(betas=(0.9, 0.999), eps=1e-8) if optimizer == "adamw" else {}
    ref_losses, ref_embed = _torch_reference(TOY, data, cfg, torch.optim.AdamW if optimizer == "adamw" else torch.optim.SGD,
                                             **kwargs)
    np.testing.assert_allclose(hist["train_loss"][0, :-1], ref_losses, rtol=1e-9)
    np.testing.assert_allclose(hist.final_params["embed"][0], ref_embed, rtol=1e-8)
    # update 0 has lr 0: the loss after it equals the initial loss; without warm-up it does not
    assert hist["train_loss"][0, 1] == hist["train_loss"][0, 0]
    plain = train(TOY, data, replace(cfg, warmup_steps=0),
                  performance=Performance(fused_optimizer=fused, progress=False))
    assert plain["train_loss"][0, 1] != plain["train_loss"][0, 0]
    with pytest.raises(ValueError, match="warmup_steps"):
        replace(cfg, warmup_steps=-1)


def test_batched_runs_equal_runs_one_by_one():
    """K runs trained together match the same runs trained alone (float64, rel diff <= 1e-6)."""
    data = _toy_data()
    base = TrainConfig(steps=60, lr_repr=1e-3, lr_dec=1e-3, dtype="float64", device="cpu", eval_every=5)
    runs = {"lr_dec": [1e-4, 1e-3, 3e-3], "wd_dec": [0.0, 1.0, 5.0], "init_seed": [1, 2, 3], "lr_repr": [1e-3, 3e-3, 1e-2]}
    batched = train(TOY, data, base, runs=runs, performance=Performance(progress=False))
    for r in range(3):
        single_cfg = TrainConfig(**{**base.__dict__, **{k: v[r] for k, v in runs.items()}})
        single = train(TOY, data, single_cfg, performance=Performance(progress=False))
        for key in ("train_loss", "val_loss", "train_acc", "val_acc", "weight_norm"):
            np.testing.assert_allclose(batched[key][r], single[key][0], rtol=1e-6, atol=1e-12)


def test_per_run_masks_train_on_their_own_split():
    data = _toy_data()
    a, _ = data.masks()
    b = torch.zeros_like(a)
    b[:20] = True
    masks = torch.stack([a, b])
    cfg = TrainConfig(steps=5, dtype="float64", device="cpu")
    hist = train(TOY, data, cfg, runs={"init_seed": [0, 0]}, split=(masks, ~masks),
                 performance=Performance(progress=False))
    assert not np.allclose(hist["train_loss"][0], hist["train_loss"][1])
    with pytest.raises(ValueError, match="train_mask"):
        train(TOY, data, cfg, runs={"init_seed": [0, 0]}, split=(masks[:1], None),
              performance=Performance(progress=False))


def test_minibatch_and_eval_every():
    data = build_task_data(BinaryOpTask("modular_addition", 11), Split(train_fraction=0.5, data_seed=0))
    model = EmbedMLPConfig(n_symbols=11, d_embed=8, hidden=(32,), d_out=11, activation="relu")
    cfg = TrainConfig(steps=50, batch_size=16, eval_every=10, lr_repr=1e-2, lr_dec=1e-2, device="cpu")
    hist = train(model, data, cfg, runs={"init_seed": [0, 1]}, performance=Performance(progress=False))
    assert list(hist.steps) == [0, 10, 20, 30, 40, 50]
    assert hist["train_loss"].shape == (2, 6)
    assert hist["train_loss"][:, -1].max() < hist["train_loss"][:, 0].min()


def test_training_reduces_loss_and_reaches_accuracy():
    data = _toy_data()
    cfg = TrainConfig(steps=400, lr_repr=1e-2, lr_dec=3e-3, init_seed=58, device="cpu", eval_every=10)
    hist = train(EmbedMLPConfig(hidden=(64, 64)), data, cfg, performance=Performance(progress=False))
    assert hist["train_loss"][0, -1] < 0.1 * hist["train_loss"][0, 0]
    assert hist["train_acc"][0, -1] == 1.0


def test_first_step_thresholds():
    h = History(steps=np.array([0, 10, 20, 30]),
                metrics={"acc": np.array([[0.0, 0.5, 0.9, 1.0], [0.0, 0.1, 0.2, 0.3]])})
    assert list(h.first_step("acc", 0.9)) == [20, -1]
    assert list(h.first_step("acc", 0.05, above=False)) == [0, 0]
    with pytest.raises(KeyError, match="no metric"):
        h["nope"]


def test_callback_records_extras():
    data = _toy_data()
    cfg = TrainConfig(steps=20, eval_every=10, device="cpu")
    hist = train(TOY, data, cfg, runs={"init_seed": [0, 1]},
                 record=Record(callback=lambda step, p: {"emb": p["embed"]}), performance=Performance(progress=False))
    assert hist.extra["emb"].shape == (2, 3, 10, 1)


def test_two_layer_regression_without_accuracy():
    from repro.data.tasks import TaskData

    x = torch.randn(40, 3, generator=torch.Generator().manual_seed(0))
    y = x[:, :1] ** 3
    data = TaskData(inputs=x, labels=torch.zeros(40, dtype=torch.long), n_classes=1, train_idx=np.arange(30),
                    val_idx=np.arange(30, 40), loss="mse", targets=y, accuracy="none")
    hist = train(TwoLayerConfig(d_in=3, width=32, activation="erf"), data,
                 TrainConfig(steps=200, lr_repr=1e-2, lr_dec=1e-2, device="cpu"),
                 performance=Performance(progress=False))
    assert "train_acc" not in hist.metrics and hist["train_loss"][0, -1] < hist["train_loss"][0, 0]


@pytest.mark.parametrize("optimizer, fused", [("adamw", True), ("adamw", False), ("sgd", None)])
def test_step_decay_matches_the_official_notebooks_manual_decay(optimizer, fused):
    """StepDecay((4, 9, 14), 0.2): the official Omnigrok landscape notebook's decay, which multiplies
    the lr by 0.2 when (epoch + 1) % 5 == 0 (there: 5000), before that epoch's update; weight decay included."""
    data = _toy_data()
    cfg = TrainConfig(steps=17, optimizer=optimizer, lr_repr=3e-3, lr_dec=1e-2, wd_repr=0.1, wd_dec=0.5, init_seed=58,
                      dtype="float64", device="cpu")
    hist = train(TOY, data, cfg, record=Record(keep_final_params=True), components=(StepDecay((4, 9, 14), 0.2),),
                 performance=Performance(fused_optimizer=fused, progress=False))
    torch.manual_seed(cfg.init_seed)
    embed = torch.nn.Parameter(((torch.rand(10, 1) - 0.5) * cfg.repr_init_scale).double())
    dims = (1, *TOY.hidden, TOY.d_out)
    layers = [torch.nn.Linear(a, b).double() for a, b in zip(dims[:-1], dims[1:])]
    cls, kwargs = (torch.optim.AdamW, dict(betas=(0.9, 0.999), eps=1e-8)) if optimizer == "adamw" else (torch.optim.SGD, {})
    opts = [cls([embed], lr=cfg.lr_repr, weight_decay=cfg.wd_repr, **kwargs),
            cls([p for layer in layers for p in layer.parameters()], lr=cfg.lr_dec, weight_decay=cfg.wd_dec, **kwargs)]
    x, y = data.inputs[data.train_idx], data.targets[data.train_idx].double()
    losses = []
    for epoch in range(cfg.steps):
        if (epoch + 1) % 5 == 0:  # the notebook's decay, before the update
            for opt in opts:
                opt.param_groups[0]["lr"] *= 0.2
        h = embed[x[:, 0]] + embed[x[:, 1]]
        for k, layer in enumerate(layers):
            h = torch.tanh(layer(h)) if k < len(layers) - 1 else layer(h)
        loss = (h - y).pow(2).mean()
        losses.append(loss.item())
        for opt in opts:
            opt.zero_grad()
        loss.backward()
        for opt in opts:
            opt.step()
    np.testing.assert_allclose(hist["train_loss"][0, :-1], losses, rtol=1e-9)
    np.testing.assert_allclose(hist.final_params["embed"][0], embed.detach().numpy(), rtol=1e-8)
    # and the decay matters: without it the run differs after update 4
    plain = train(TOY, data, cfg, components=(StepDecay(),),
                  performance=Performance(fused_optimizer=fused, progress=False))
    np.testing.assert_array_equal(plain["train_loss"][0, :5], hist["train_loss"][0, :5])
    assert plain["train_loss"][0, 6] != hist["train_loss"][0, 6]


@pytest.mark.parametrize("kwargs, match", [
    (dict(steps=(5, 5)), "strictly increasing"),
    (dict(steps=(9, 4)), "strictly increasing"),
    (dict(steps=[4]), "tuple"),
    (dict(steps=(-1,)), "steps"),
    (dict(factor=0.0), "factor"),
])
def test_bad_step_decay_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        StepDecay(**kwargs)


@pytest.mark.parametrize("kwargs, match", [
    (dict(lr_dec=0.0), "lr_dec"),
    (dict(lr_repr=-1e-3), "lr_repr"),
    (dict(steps=0), "steps"),
    (dict(optimizer="lbfgs"), "optimizer"),
    (dict(beta2=1.0), "beta2"),
    (dict(dtype="float16"), "dtype"),
    (dict(wd_dec=-1.0), "wd_dec"),
    (dict(batch_size=0), "batch_size"),
])
def test_bad_train_config_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        TrainConfig(**kwargs)


def test_bad_per_run_values_raise():
    data = _toy_data()
    with pytest.raises(ValueError, match="cannot vary per run"):
        train(TOY, data, TrainConfig(steps=1), runs={"steps": [1, 2]}, performance=Performance(progress=False))
    with pytest.raises(ValueError, match="same length"):
        train(TOY, data, TrainConfig(steps=1), runs={"lr_dec": [1e-3], "wd_dec": [0, 1]},
              performance=Performance(progress=False))
    with pytest.raises(ValueError, match="lr_dec"):
        train(TOY, data, TrainConfig(steps=1), runs={"lr_dec": [1e-3, 0.0]}, performance=Performance(progress=False))


@pytest.mark.slow
def test_reproduces_official_toy_reference_run():
    """grokking-squared toy/train_add.py: the official toy run (seed 58, 45/10, 1-D, Adam 1e-3 on embeddings, AdamW 1e-4
    decoder, tanh 1-200-200-30, MSE on N(0,1) templates) reaches train acc >= 0.9 at iteration 1130 (logged
    after that iteration's update, i.e. after 1131 updates: our step 1131) and test acc >= 0.9 at 1530
    (logged before the update, i.e. our step 1530)."""
    data = _toy_data(58)
    cfg = TrainConfig(steps=1600, lr_repr=1e-3, lr_dec=1e-4, init_seed=58, device="cpu")
    hist = train(EmbedMLPConfig(), data, cfg, performance=Performance(progress=False))
    assert int(hist.first_step("train_acc", 0.9)[0]) == 1131
    assert int(hist.first_step("val_acc", 0.9)[0]) == 1530


def _encoder_setup(p=11):
    from repro.models.networks import EncoderTransformerConfig

    data = build_task_data(BinaryOpTask("modular_addition", p), Split(train_fraction=0.8, data_seed=1))
    model = EncoderTransformerConfig(d_vocab=p, d_vocab_out=p, d_model=8, n_heads=2, d_mlp=8, n_layers=1)
    return model, data, TrainConfig(steps=12, lr_repr=1e-3, lr_dec=1e-3, wd_dec=1.0, eval_every=4, dtype="float64")


def test_dropout_runs_are_independent_of_their_block_and_rate_zero_is_no_dropout():
    """Runs with their own splits: a block forwards the union of its runs' training rows, so a run's dropout
    masks must not depend on that union (they are drawn per sample)."""
    from repro.training.sweep import split_masks

    model, data, tc = _encoder_setup()
    seeds = [0, 0, 1]
    masks = split_masks(data, [0.8] * 3, seeds)
    alone = train(model, data, tc, split=(masks[0][:1], masks[1][:1]), performance=Performance(progress=False))
    mixed = train(model, data, tc, runs={"dropout": [0.0, 0.4, 0.4], "init_seed": seeds}, split=(masks[0], masks[1]),
                  performance=Performance(progress=False))
    single = train(model, data, tc, runs={"dropout": [0.4], "init_seed": [1]}, split=(masks[0][2:], masks[1][2:]),
                   performance=Performance(progress=False))
    blocked = train(model, data, tc, runs={"dropout": [0.0, 0.4, 0.4], "init_seed": seeds}, split=(masks[0], masks[1]),
                    performance=Performance(block_runs=1, workers=1, progress=False))
    assert not bool((masks[0][0] == masks[0][2]).all())  # the splits differ
    for key in ("train_loss", "val_loss", "train_acc"):
        np.testing.assert_allclose(mixed[key][0], alone[key][0], rtol=1e-10)  # rate 0: no dropout
        np.testing.assert_allclose(mixed[key][2], single[key][0], rtol=1e-12)  # own generator per run
        np.testing.assert_allclose(mixed[key], blocked[key], rtol=1e-12)  # batched matmuls round per R
    assert not np.allclose(mixed["train_loss"][1], mixed["train_loss"][0])  # dropout changes training


def test_dropout_gradient_is_the_masked_networks_gradient():
    """One AdamW step with dropout equals the step on the autograd gradient of the same network with the
    same masks drawn by hand (AdamW's first update is lr * g / (|g| + eps), wd 0)."""
    from repro.models.networks import build_model
    from repro.training.trainer import Dropout, FlatParams, per_run_values

    model_cfg, data, tc = _encoder_setup()
    # on the CPU, where the hand-built step below runs: AdamW's first update lr * g / (|g| + eps) turns a
    # last-bit difference in a near-zero gradient into a step of 2 lr, so the two sides must share a device
    tc = replace(tc, steps=1, wd_dec=0.0, dropout=0.5, device="cpu")
    h = train(model_cfg, data, tc, record=Record(keep_final_params=True), performance=Performance(progress=False))
    model = build_model(model_cfg)
    _, values = per_run_values(tc, None)
    leaves = {k: v.detach().clone().requires_grad_()
              for k, v in FlatParams(model, values, torch.float64, torch.device("cpu")).views().items()}
    drop = Dropout([0.5], [tc.init_seed], torch.device("cpu"), torch.float64, data.n_samples)
    train_rows = torch.nonzero(data.masks()[0]).squeeze(1)  # the trainer forwards the training rows in order
    drop.rows = train_rows[None]  # (one run) and draws each sample's mask by its index
    out = model.forward(leaves, data.inputs[train_rows], dropout=drop)
    loss = torch.nn.functional.cross_entropy(out[0], data.labels[train_rows])
    grads = torch.autograd.grad(loss, list(leaves.values()), allow_unused=True)
    for (name, start), g in zip(leaves.items(), grads):
        g = torch.zeros_like(start) if g is None else g
        expected = start - tc.lr_dec * g / (g.abs() + tc.eps)  # lr_repr == lr_dec here
        np.testing.assert_allclose(h.final_params[name], expected.detach().numpy(), rtol=0, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("setting", ["dropout", "minibatch"])
def test_background_evaluation_records_the_same_bits(setting, monkeypatch):
    """An evaluation on its own thread (Performance.background_evaluation) reads a copy of its step's parameters:
    metrics, callback snapshots and final parameters equal those of the evaluation in the block's thread."""
    from repro.training import trainer as trainer_module

    submitted = []
    submit = trainer_module._BackgroundEvaluations.submit
    monkeypatch.setattr(trainer_module._BackgroundEvaluations, "submit",
                        lambda self, step, flat: (submitted.append(step), submit(self, step, flat)))
    model, data, tc = _encoder_setup()
    tc = replace(tc, dtype="float32", steps=13, eval_every=3)
    runs = {"init_seed": [0, 1], "dropout": [0.3, 0.1]}
    if setting == "minibatch":
        tc, runs = replace(tc, batch_size=16), {"init_seed": [0, 1]}
    record = lambda step, params: {"embed": params["embed"], "norm": params["embed"].norm(dim=(1, 2))}
    got = {flag: train(model, data, tc, runs=runs, record=Record(callback=record, keep_final_params=True),
                       performance=Performance(background_evaluation=flag, block_runs=2, progress=False))
           for flag in (False, True)}
    for part in ("metrics", "extra", "final_params"):
        a, b = getattr(got[False], part), getattr(got[True], part)
        assert a.keys() == b.keys()
        for key in a:
            assert np.array_equal(a[key], b[key], equal_nan=True), (part, key)
    np.testing.assert_array_equal(got[False].steps, got[True].steps)
    assert submitted == [0, 3, 6, 9, 12]  # every evaluation but the final one went to the background thread


def test_background_evaluation_is_refused_with_until():
    model, data, tc = _encoder_setup()
    with pytest.raises(ValueError, match="background_evaluation=True"):
        train(model, data, replace(tc, device="cpu"), components=(Until(lambda steps, metrics: np.zeros(1, bool)),),
              performance=Performance(background_evaluation=True, progress=False))


def test_dropout_mask_rate_and_scale():
    from repro.training.trainer import Dropout

    drop = Dropout([0.0, 0.25, 0.5], [0, 1, 2], torch.device("cpu"), torch.float64)
    out = drop(torch.ones(3, 200, 100))
    assert torch.equal(out[0], torch.ones(200, 100))
    for r, rate in ((1, 0.25), (2, 0.5)):
        kept = out[r] != 0
        assert abs(kept.double().mean().item() - (1 - rate)) < 0.01
        assert torch.allclose(out[r][kept], torch.full_like(out[r][kept], 1 / (1 - rate)))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_dropout_on_the_cpu_keeps_torch_rand_masks(dtype):
    """The CPU's masks (drawn through repro.core.cpurand) are torch.rand(...) >= rate from each run's generator, as
    the runs stored before that change drew them, with and without per-run rows, and the generators end alike."""
    from repro.core.cpurand import SMALLEST
    from repro.training.trainer import DROPOUT_SEED_OFFSET, Dropout

    rates, seeds, n = [0.0, 0.05, 0.5], [3, 4, 5], 40
    assert 30 * 2 * 1024 >= SMALLEST  # each run's draw takes the NumPy path
    rows = torch.stack([torch.randperm(n, generator=torch.Generator().manual_seed(r))[:30] for r in range(3)])
    for with_rows in (False, True):
        drop = Dropout(rates, seeds, torch.device("cpu"), dtype, n if with_rows else None)
        drop.rows = rows if with_rows else None
        h = torch.randn(3, 30, 2, 1024, dtype=dtype)
        gens = [torch.Generator().manual_seed(s + DROPOUT_SEED_OFFSET) for s in seeds]
        for _ in range(2):  # twice: the second mask continues each stream
            out = drop(h)
            for r, g in enumerate(gens):
                u = torch.rand((n, 2, 1024) if with_rows else (30, 2, 1024), generator=g, dtype=dtype)
                u = u[rows[r]] if with_rows else u
                want = h[r] * (u >= torch.tensor(rates[r], dtype=dtype)).to(dtype).mul_(drop.scale[r])
                assert torch.equal(out[r], want)
        assert all(torch.equal(a.get_state(), b.get_state()) for a, b in zip(drop.generators, gens))


def test_dropout_needs_a_model_with_dropout_sites_and_a_rate_below_one():
    data = build_task_data(BinaryOpTask("modular_addition", 5), Split(train_fraction=0.8, data_seed=0))
    with pytest.raises(ValueError, match="dropout=0.2 is not allowed for EmbedMLP"):
        train(EmbedMLPConfig(n_symbols=5, d_out=5), data, TrainConfig(steps=2, dropout=0.2),
              performance=Performance(progress=False))
    with pytest.raises(ValueError, match="dropout"):
        TrainConfig(dropout=1.0)
    with pytest.raises(ValueError, match="dropout"):
        TrainConfig(dropout=-0.1)


# ---------------------------------------------------------------- norm-constrained training (fixed_norm, Omnigrok)


def test_project_to_norm_stays_on_sphere():
    flat = torch.randn(3, 50, dtype=torch.float64) * torch.tensor([[0.1], [1.0], [30.0]], dtype=torch.float64)
    target = torch.tensor([2.0, 5.0, 0.3], dtype=torch.float64)
    project_to_norm(flat, target, torch.tensor([True, False, True]))
    norms = flat.norm(dim=1)
    assert abs(float(norms[0]) - 2.0) < 1e-6 and abs(float(norms[2]) - 0.3) < 1e-6
    assert abs(float(norms[1]) - 5.0) > 1e-3  # the unconstrained run is untouched
    with pytest.raises(ValueError, match="zero"):
        project_to_norm(torch.zeros(1, 4), torch.ones(1))


def _regression_data(n=40, d=3):
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, d, generator=gen)
    y = torch.sin(x[:, :2])
    return TaskData(inputs=x, labels=torch.zeros(n, dtype=torch.int64), n_classes=1, train_idx=np.arange(n // 2),
                    val_idx=np.arange(n // 2, n), loss="mse", targets=y, accuracy="none")


@pytest.mark.parametrize("batch_size", [None, 7])
def test_constrained_training_keeps_the_initial_norm(batch_size):
    cfg = TrainConfig(steps=30, lr_repr=1e-2, lr_dec=1e-2, wd_repr=0.5, wd_dec=0.5, eval_every=1, batch_size=batch_size,
                      dtype="float64")
    model = MLPConfig(d_in=3, hidden=(8, 8), d_out=2, activation="tanh")
    h = train(model, _regression_data(), cfg, runs={"init_scale": [0.5, 3.0, 3.0], "repr_init_scale": [0.5, 3.0, 3.0],
                                             "fixed_norm": [True, True, False]}, record=Record(mse_threshold=0.01),
              performance=Performance(progress=False))
    w = h["weight_norm"]
    assert np.abs(w[:2] - w[:2, :1]).max() < 1e-6 * w[:2, :1].max()  # on the sphere at every step
    assert w[2, -1] < 0.9 * w[2, 0]  # the free run with weight decay shrinks
    assert h["train_loss"][0, -1] < h["train_loss"][0, 0]  # and constrained training still learns
    assert set(h.metrics) >= {"train_acc", "val_acc"}


def test_mse_threshold_accuracy_and_its_validation():
    cfg = TrainConfig(steps=3, dtype="float64")
    model = MLPConfig(d_in=3, hidden=(4,), d_out=2)
    h = train(model, _regression_data(), cfg, record=Record(mse_threshold=1e9),  # every sample under the threshold
              performance=Performance(progress=False))
    assert (h["train_acc"] == 1).all() and (h["val_acc"] == 1).all()
    h = train(model, _regression_data(), cfg, record=Record(mse_threshold=1e-12),
              performance=Performance(progress=False))
    assert (h["train_acc"] == 0).all()
    with pytest.raises(ValueError, match="mse_threshold"):
        train(model, _regression_data(), cfg, record=Record(mse_threshold=-1.0),
              performance=Performance(progress=False))
    ce = replace(_regression_data(), loss="ce", targets=None, n_classes=2)
    with pytest.raises(ValueError, match="mse_threshold"):
        train(model, ce, cfg, record=Record(mse_threshold=0.1), performance=Performance(progress=False))


def test_fixed_norm_training_is_reproducible_and_independent_of_threads():
    """Blocks of runs on single-threaded workers: the same bits call after call (two intra-op threads did
    not give that); another thread count changes the blocking, and with it float rounding, only."""
    from repro.data.tasks import BinaryOpTask, Split, build_task_data
    from repro.models.networks import EmbedMLPConfig

    data = build_task_data(BinaryOpTask("modular_addition", 7), Split(train_fraction=0.6, data_seed=0))
    mc = EmbedMLPConfig(n_symbols=7, d_embed=8, hidden=(16,), d_out=7, activation="relu", combine="sum")
    cfg = TrainConfig(steps=30, lr_repr=1e-2, lr_dec=1e-2, wd_repr=0.5, wd_dec=0.5, eval_every=5)
    runs = {"init_seed": [0, 1, 2], "init_scale": [1.0, 2.0, 1.5], "repr_init_scale": [1.0, 2.0, 1.5]}
    before = torch.get_num_threads()
    try:
        out = []
        for threads in (2, 2, 1):
            torch.set_num_threads(threads)
            out.append(train(mc, data, cfg, runs={**runs, "fixed_norm": [False, True, False]},
                             performance=Performance(progress=False)))
    finally:
        torch.set_num_threads(before)
    for k in out[0].metrics:
        np.testing.assert_array_equal(out[1][k], out[0][k])
        np.testing.assert_allclose(out[2][k], out[0][k], rtol=1e-5, atol=1e-6)
    assert torch.get_num_threads() == before
    np.testing.assert_allclose(out[0]["weight_norm"][1], out[0]["weight_norm"][1][0], rtol=1e-6)  # held on its sphere


def test_repro_nudge_scales_the_initial_parameters(monkeypatch):
    """REPRO_NUDGE (repro.core.kernels.init_nudge) multiplies every initial parameter by 1 + nudge: the step-0
    weight norm grows by exactly that factor, and nothing else about the run changes."""
    data = _toy_data()
    cfg = TrainConfig(steps=5, lr_repr=1e-3, lr_dec=1e-3, dtype="float64", device="cpu", eval_every=5)
    monkeypatch.delenv("REPRO_NUDGE", raising=False)
    plain = train(TOY, data, cfg, performance=Performance(progress=False))
    monkeypatch.setenv("REPRO_NUDGE", "1e-6")
    nudged = train(TOY, data, cfg, performance=Performance(progress=False))
    np.testing.assert_allclose(nudged["weight_norm"][0, 0], plain["weight_norm"][0, 0] * (1 + 1e-6), rtol=1e-12)
    assert not np.array_equal(nudged["train_loss"], plain["train_loss"])


def test_forward_all_chunks_an_evaluation_without_changing_its_outputs():
    """An evaluation over more than 2 x EVAL_CHUNK_ROWS samples is forwarded in chunks on the CPU: each
    sample's output is its own row's (the decoder's causal attention mixes positions, never samples)."""
    from repro.models.networks import TransformerConfig, build_model
    from repro.training.trainer import EVAL_CHUNK_ROWS, forward_all

    model = build_model(TransformerConfig(d_vocab=8, n_ctx=3, d_model=8, n_heads=2, d_head=4, d_mlp=16, n_layers=2,
                                          d_vocab_out=7))
    gen = torch.Generator().manual_seed(0)
    params = {s.name: torch.randn(2, *s.shape, generator=gen, dtype=torch.float64) * 0.3 for s in model.param_specs()}
    x = torch.randint(0, 8, (2 * EVAL_CHUNK_ROWS + 77, 3), generator=gen)
    with torch.no_grad():
        whole, chunked = model.forward(params, x), forward_all(model, params, x)
        small = forward_all(model, params, x[:100])
    assert chunked.shape == whole.shape == (2, x.shape[0], 7)
    torch.testing.assert_close(chunked, whole, rtol=1e-13, atol=0)  # products over other row counts: last bits
    assert torch.equal(small, model.forward(params, x[:100]))  # a small set is one forward

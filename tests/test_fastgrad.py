"""The hand-written backward pass and the blocked/threaded trainer against autograd and plain runs."""
import numpy as np
import pytest
import torch

from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models import fastgrad
from repro.models.networks import EmbedMLPConfig, TransformerConfig, build_model
from repro.training.trainer import FlatParams, Performance, Record, TrainConfig, per_run_values, per_sample_loss, train


def _setup(model_cfg, target, seed=3, runs=3):
    task = BinaryOpTask("addition", 7)
    data = build_task_data(task, Split(train_fraction=0.6, data_seed=seed), target=target, target_dim=5)
    data = data.to(dtype=torch.float64)
    model = build_model(model_cfg)
    _, values = per_run_values(TrainConfig(), {"init_seed": list(range(runs))})
    return model, data, FlatParams(model, values, torch.float64, torch.device("cpu"))


@pytest.mark.parametrize("activation", ["tanh", "relu"])
@pytest.mark.parametrize("combine", ["sum", "concat"])
@pytest.mark.parametrize("target", ["regression", "classification"])
@pytest.mark.parametrize("official_fig2", [False, True])
def test_gradient_matches_autograd(activation, combine, target, official_fig2):
    d_out = 5 if target == "regression" else 13
    # official_fig2: the options of the official Fig. 2 notebooks (mean input, +1 init, no activation after the
    # last hidden layer)
    extra = dict(embed_mean=1.0, input_scale=0.5, activate_last_hidden=False) if official_fig2 else {}
    cfg = EmbedMLPConfig(n_symbols=7, d_embed=2, hidden=(9, 8), d_out=d_out, activation=activation, combine=combine,
                         **extra)
    model, data, flat = _setup(cfg, target)
    R = flat.flat.shape[0]
    weights = torch.rand(R, data.n_samples, dtype=torch.float64)
    leaves = {k: v.detach().clone().requires_grad_() for k, v in flat.views().items()}
    grad_fn = fastgrad.MLPGradient(model)
    views = flat.views()
    n = 20  # only the first n rows carry weight: the backward pass must stop there
    weights[:, n:] = 0
    objective = (per_sample_loss(model.forward(leaves, data.inputs), data) * weights).sum()
    expected = dict(zip(leaves, torch.autograd.grad(objective, list(leaves.values()))))
    out, cache = grad_fn.forward(views, data.inputs)
    dout = grad_fn.output_gradient(out[:, :n], None if data.targets is None else data.targets[:n], data.labels[:n],
                                   weights[:, :n], data.loss)
    got = grad_fn.backward(views, data.inputs, cache, dout)
    assert set(got) == set(expected)
    for name in expected:
        torch.testing.assert_close(got[name], expected[name], rtol=1e-10, atol=1e-12, msg=name)


def test_minibatch_gradient_matches_autograd():
    cfg = EmbedMLPConfig(n_symbols=7, d_embed=1, hidden=(6,), d_out=5)
    model, data, flat = _setup(cfg, "regression")
    idx = torch.randint(0, data.n_samples, (3, 4), generator=torch.Generator().manual_seed(0))
    leaves = {k: v.detach().clone().requires_grad_() for k, v in flat.views().items()}
    objective = per_sample_loss(model.forward(leaves, data.inputs[idx]), data, idx).mean(-1).sum()
    expected = dict(zip(leaves, torch.autograd.grad(objective, list(leaves.values()))))
    grad_fn = fastgrad.MLPGradient(model)
    out, cache = grad_fn.forward(flat.views(), data.inputs[idx])
    dout = grad_fn.output_gradient(out, data.targets[idx], data.labels[idx], torch.full(idx.shape, 0.25, dtype=torch.float64), "mse")
    got = grad_fn.backward(flat.views(), data.inputs[idx], cache, dout)
    for name in expected:
        torch.testing.assert_close(got[name], expected[name], rtol=1e-10, atol=1e-12, msg=name)


def test_supports_only_what_it_implements():
    assert fastgrad.supports(build_model(EmbedMLPConfig()), "mse")
    assert not fastgrad.supports(build_model(EmbedMLPConfig(activation="gelu")), "mse")
    assert not fastgrad.supports(build_model(TransformerConfig()), "ce")
    with pytest.raises(ValueError, match="fast_grad=True is not allowed"):
        data = build_task_data(BinaryOpTask("addition", 5), Split(train_fraction=0.5, data_seed=0))
        train(EmbedMLPConfig(n_symbols=5, activation="gelu", d_out=9), data, TrainConfig(steps=1),
              performance=Performance(fast_grad=True, progress=False))


def _runs():
    return {"lr_dec": [1e-3, 3e-3, 1e-2, 3e-3, 1e-3], "wd_dec": [0.0, 1.0, 0.5, 0.0, 2.0], "init_seed": [1, 2, 3, 4, 5]}


@pytest.mark.slow
@pytest.mark.parametrize("optimizer", ["adamw", "sgd"])
def test_fast_path_blocks_and_threads_do_not_change_results(optimizer):
    """Autograd vs hand-written backward, one block vs blocks of 2 on 2 threads, fused vs eager AdamW:
    the same trajectories (float64)."""
    data = build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")
    cfg = TrainConfig(steps=30, optimizer=optimizer, lr_repr=3e-3, wd_repr=0.1, dtype="float64", device="cpu", eval_every=3)
    model = EmbedMLPConfig(hidden=(16, 16))
    reference = train(model, data, cfg, runs=_runs(), record=Record(keep_final_params=True),
                      performance=Performance(fast_grad=False, block_runs=5, workers=1, progress=False))
    variants = [dict(fast_grad=True, block_runs=5, workers=1), dict(fast_grad=True, block_runs=2, workers=2),
                dict(fast_grad=False, block_runs=1, workers=2)]
    for kwargs in variants:
        got = train(model, data, cfg, runs=_runs(), record=Record(keep_final_params=True),
                    performance=Performance(**kwargs, progress=False))
        for key in ("train_loss", "val_loss", "val_acc", "weight_norm"):
            np.testing.assert_allclose(got[key], reference[key], rtol=1e-9, atol=1e-12, err_msg=f"{key} {kwargs}")
        for name, value in reference.final_params.items():
            np.testing.assert_allclose(got.final_params[name], value, rtol=1e-9, atol=1e-12, err_msg=f"{name} {kwargs}")


def test_fused_adamw_matches_elementwise_adamw():
    from repro.training import trainer as train_module

    data = build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")
    cfg = TrainConfig(steps=25, lr_repr=3e-3, wd_repr=0.1, dtype="float64", device="cpu")
    fused = train(EmbedMLPConfig(hidden=(16, 16)), data, cfg, runs=_runs(), record=Record(keep_final_params=True),
                  performance=Performance(progress=False))
    original = train_module.AdamW.__init__.__defaults__
    train_module.AdamW.__init__.__defaults__ = (False,)
    try:
        eager = train(EmbedMLPConfig(hidden=(16, 16)), data, cfg, runs=_runs(), record=Record(keep_final_params=True),
                      performance=Performance(progress=False))
    finally:
        train_module.AdamW.__init__.__defaults__ = original
    for name, value in eager.final_params.items():
        np.testing.assert_allclose(fused.final_params[name], value, rtol=1e-9, atol=1e-12, err_msg=name)


def test_default_blocks_cover_the_workers_within_the_byte_cap():
    from repro.training.trainer import BLOCK_BYTES, default_block_runs

    model = build_model(EmbedMLPConfig())  # 46k parameters: ~1 MB of hot state per run in float32
    assert default_block_runs(model, 55, 4, 100, 2) == 50  # one block per worker
    assert default_block_runs(model, 55, 4, 1, 2) == 1
    assert default_block_runs(model, 55, 4, 3, 2) == 2
    big = default_block_runs(model, 55, 4, 10_000, 2)  # capped: a block stays within BLOCK_BYTES
    assert 4 * (4 * model.n_params()) * big <= BLOCK_BYTES and big < 5_000


def test_default_blocks_give_a_large_run_its_own_block():
    """Liu et al.'s paper-scale encoder (about 72 MiB of hot data a run) trains one run per block on the CPU, at
    one thread and at two: batching such runs was slower per run (LARGE_RUN_BYTES's comment gives the measurement).
    A run just below the threshold keeps the byte cap's blocks."""
    from repro.experiments.liu2022_transformer_and_images import TransformerGrokConfig
    from repro.training.trainer import default_block_runs

    cfg = TransformerGrokConfig()
    model, n = build_model(cfg.model_config()), cfg.task_data().n_samples
    assert [default_block_runs(model, n, 4, 3, workers) for workers in (1, 2)] == [1, 1]
    toy = build_model(EmbedMLPConfig(hidden=(1000, 1000)))  # about 16 MiB a run: batched as before
    assert default_block_runs(toy, 55, 4, 6, 1) == 6


def test_embed_l1_fast_path_matches_autograd_and_is_validated():
    """The L1 penalty on the embeddings (Liu et al. 2022's S3 notebook) gives the same run on both paths."""
    data = build_task_data(BinaryOpTask("addition", 7), Split(train_fraction=0.6, data_seed=1), target="regression",
                           target_dim=5)
    cfg = EmbedMLPConfig(n_symbols=7, d_embed=2, hidden=(9,), d_out=5, activation="tanh", combine="sum")
    tc = TrainConfig(steps=25, lr_repr=1e-2, lr_dec=1e-2, embed_l1=0.05, eval_every=5, dtype="float64", optimizer="sgd")
    fast = train(cfg, data, tc, runs={"init_seed": [0, 1]}, record=Record(keep_final_params=True),
                 performance=Performance(fast_grad=True, progress=False))
    slow = train(cfg, data, tc, runs={"init_seed": [0, 1]}, record=Record(keep_final_params=True),
                 performance=Performance(fast_grad=False, progress=False))
    plain = train(cfg, data, TrainConfig(**{**tc.__dict__, "embed_l1": 0.0}), runs={"init_seed": [0, 1]},
                  record=Record(keep_final_params=True), performance=Performance(fast_grad=True, progress=False))
    np.testing.assert_allclose(fast.final_params["embed"], slow.final_params["embed"], rtol=1e-10, atol=1e-12)
    # the penalty pulls the embeddings towards 0
    assert np.abs(fast.final_params["embed"]).mean() < np.abs(plain.final_params["embed"]).mean()
    with pytest.raises(ValueError, match="embed_l1"):
        TrainConfig(embed_l1=-1.0)
    tcfg = TransformerConfig(d_vocab=8, n_ctx=3, d_model=8, n_heads=2, d_head=4, d_mlp=16, n_layers=1, d_vocab_out=7)
    with pytest.raises(ValueError, match="embed_l1"):
        train(tcfg, data, TrainConfig(steps=1, embed_l1=1e-3), performance=Performance(progress=False))


def test_performance_knobs_are_validated():
    with pytest.raises(ValueError, match="block_runs"):
        Performance(block_runs=0)
    with pytest.raises(ValueError, match="workers"):
        Performance(workers=0)
    with pytest.raises(ValueError, match="fast_grad"):
        Performance(fast_grad="yes")


def test_a_run_does_not_depend_on_the_callers_thread_count():
    """One run is one block; it trains single-threaded whatever torch.get_num_threads() says, so a sweep
    chunk gives the same bits in-process and on a Dask worker with another thread count."""
    data = build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")
    cfg = TrainConfig(steps=40, lr_repr=3e-3, dtype="float64", device="cpu", eval_every=4)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        two = train(EmbedMLPConfig(hidden=(64, 64)), data, cfg, record=Record(keep_final_params=True),
                    performance=Performance(progress=False))
        torch.set_num_threads(1)
        one = train(EmbedMLPConfig(hidden=(64, 64)), data, cfg, record=Record(keep_final_params=True),
                    performance=Performance(progress=False))
    finally:
        torch.set_num_threads(before)
    assert torch.get_num_threads() == before
    for name, value in one.final_params.items():
        np.testing.assert_array_equal(two.final_params[name], value, err_msg=name)


def test_official_fig2_options_in_the_forward_pass():
    """embed_mean, input_scale and activate_last_hidden against a literal nn.Module-style forward."""
    cfg = EmbedMLPConfig(n_symbols=7, d_embed=2, hidden=(9, 8), d_out=5, activation="relu", embed_init="normal",
                         embed_mean=1.0, input_scale=0.5, activate_last_hidden=False)
    model, data, flat = _setup(cfg, "regression", runs=1)
    plain, _, plain_flat = _setup(EmbedMLPConfig(n_symbols=7, d_embed=2, hidden=(9, 8), d_out=5, activation="relu",
                                                 embed_init="normal"), "regression", runs=1)
    v, pv = flat.views(), plain_flat.views()
    assert torch.equal(v["embed"], (pv["embed"].float() + 1.0).double())  # the same float32 draws, shifted by 1
    x = data.inputs
    e = v["embed"][0]
    h = (e[x[:, 0]] + e[x[:, 1]]) / 2
    h = torch.relu(h @ v["W0"][0] + v["b0"][0])
    h = h @ v["W1"][0] + v["b1"][0]  # no ReLU after the last hidden layer
    out = h @ v["W2"][0] + v["b2"][0]
    torch.testing.assert_close(model.forward(v, x)[0], out, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="input_scale"):
        EmbedMLPConfig(input_scale=0.0)
    with pytest.raises(ValueError, match="activate_last_hidden"):
        EmbedMLPConfig(activate_last_hidden=1)

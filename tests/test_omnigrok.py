"""Tests of the Omnigrok chapter's code: IDX/dataset loaders, MLPConfig, the norm-constrained trainer
and the LU theory (repro.datasets, repro.models.MLP, repro.train's fixed_norm, repro.theory.omnigrok)."""
import gzip
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.datasets import image_task_data, read_idx, write_idx
from repro.models import MLPConfig, build_model
from repro.tasks import TaskData
from repro.theory.omnigrok import integrate_norm_dynamics, loglog_slope, norm_decay, time_to_grok
from repro.train import FlatParams, TrainConfig, per_run_values, project_to_norm, train

# ---------------------------------------------------------------- IDX and datasets


@pytest.mark.parametrize("suffix", ["", ".gz"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_idx_roundtrip(tmp_path, suffix, dtype):
    arr = (np.arange(2 * 3 * 4) % 250).astype(dtype).reshape(2, 3, 4)
    path = tmp_path / f"x-idx3{suffix}"
    write_idx(path, arr)
    out = read_idx(path)
    assert out.dtype == arr.dtype and out.shape == arr.shape
    np.testing.assert_array_equal(out, arr)
    assert not list(tmp_path.glob("*.tmp"))  # atomic write left no temp file


def test_idx_bytes_match_the_format(tmp_path):
    path = tmp_path / "labels"
    write_idx(path, np.array([7, 2, 1], dtype=np.uint8))
    assert path.read_bytes() == bytes([0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1])


def test_idx_bad_files(tmp_path):
    bad = tmp_path / "bad"
    bad.write_bytes(bytes([1, 2, 8, 1, 0, 0, 0, 1, 5]))
    with pytest.raises(ValueError, match="magic"):
        read_idx(bad)
    short = tmp_path / "short"
    short.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 5, 1, 2]))
    with pytest.raises(ValueError, match="truncated"):
        read_idx(short)
    code = tmp_path / "code"
    code.write_bytes(bytes([0, 0, 0x42, 1, 0, 0, 0, 1, 5]))
    with pytest.raises(ValueError, match="type code"):
        read_idx(code)
    with pytest.raises(FileNotFoundError, match="path="):
        read_idx(tmp_path / "missing")
    with pytest.raises(ValueError, match="dtype"):
        write_idx(tmp_path / "c", np.zeros(3, dtype=np.complex64))


def _mnist_dir(tmp_path, n_train=20, n_test=8, gz=True):
    rng = np.random.RandomState(0)
    suffix = ".gz" if gz else ""
    write_idx(tmp_path / f"train-images-idx3-ubyte{suffix}", rng.randint(0, 256, (n_train, 4, 4)).astype(np.uint8))
    write_idx(tmp_path / f"train-labels-idx1-ubyte{suffix}", (np.arange(n_train) % 10).astype(np.uint8))
    write_idx(tmp_path / f"t10k-images-idx3-ubyte{suffix}", rng.randint(0, 256, (n_test, 4, 4)).astype(np.uint8))
    write_idx(tmp_path / f"t10k-labels-idx1-ubyte{suffix}", (np.arange(n_test) % 10).astype(np.uint8))
    return tmp_path


@pytest.mark.parametrize("source", ["mnist", "idx"])
def test_image_task_data_from_idx(tmp_path, source):
    d = image_task_data(source, _mnist_dir(tmp_path), n_train=10, n_test=None)
    assert d.inputs.shape == (18, 16) and d.inputs.dtype == torch.float32
    assert 0 <= float(d.inputs.min()) and float(d.inputs.max()) <= 1
    np.testing.assert_array_equal(d.train_idx, np.arange(10))
    np.testing.assert_array_equal(d.val_idx, np.arange(10, 18))
    # data_seed 0: the first n_train images, as the official Subset(train, range(1000))
    raw = read_idx(tmp_path / "train-images-idx3-ubyte.gz")
    np.testing.assert_allclose(d.inputs[:10].numpy(), raw[:10].reshape(10, -1) / 255.0, rtol=1e-6)
    assert d.targets.shape == (18, 10) and torch.equal(d.targets.argmax(1), d.labels)
    assert image_task_data(source, tmp_path, n_train=5, loss="ce").targets is None


def test_image_task_data_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="path="):
        image_task_data("mnist", tmp_path, n_train=5)
    with pytest.raises(ValueError, match="path=None"):
        image_task_data("mnist", None)
    with pytest.raises(ValueError, match="source"):
        image_task_data("cifar")
    with pytest.raises(ValueError, match="n_train"):
        image_task_data("mnist", _mnist_dir(tmp_path), n_train=21)
    with pytest.raises(ValueError, match="loss"):
        image_task_data("digits", loss="bce")


def test_digits_substitute_shapes_and_determinism():
    d = image_task_data("digits", n_train=1000)
    assert d.inputs.shape == (1797, 64) and d.n_classes == 10
    assert len(d.train_idx) == 1000 and len(d.val_idx) == 797
    assert float(d.inputs.max()) == 1.0 and float(d.inputs.min()) == 0.0
    assert d.meta["substitute"] is True
    again = image_task_data("digits", n_train=1000)
    assert torch.equal(d.inputs, again.inputs) and torch.equal(d.labels, again.labels)
    a = image_task_data("digits", n_train=100, n_test=50, data_seed=3)
    b = image_task_data("digits", n_train=100, n_test=50, data_seed=3)
    c = image_task_data("digits", n_train=100, n_test=50, data_seed=4)
    assert torch.equal(a.inputs, b.inputs) and not torch.equal(a.inputs, c.inputs)
    assert a.inputs.shape == (150, 64)


# ---------------------------------------------------------------- MLPConfig


def test_mlp_matches_torch_sequential_init_and_forward():
    cfg = MLPConfig(d_in=7, hidden=(11, 5), d_out=3)
    torch.manual_seed(4)
    net = torch.nn.Sequential(torch.nn.Linear(7, 11), torch.nn.ReLU(), torch.nn.Linear(11, 5), torch.nn.ReLU(),
                              torch.nn.Linear(5, 3))
    _, values = per_run_values(TrainConfig(init_seed=4), None)
    params = FlatParams(build_model(cfg), values, torch.float32, "cpu")
    v = params.views()
    for k in range(3):
        torch.testing.assert_close(v[f"W{k}"][0], net[2 * k].weight.T)
        torch.testing.assert_close(v[f"b{k}"][0], net[2 * k].bias)
    x = torch.randn(6, 7)
    torch.testing.assert_close(build_model(cfg).forward(v, x)[0], net(x))
    torch.testing.assert_close(build_model(cfg).forward(v, x[None])[0], net(x))  # per-run inputs


def test_mlp_groups_scales_and_validation():
    model = build_model(MLPConfig(d_in=4, hidden=(3,), d_out=2, bias=False))
    specs = model.param_specs(init_scale=2.0, repr_init_scale=0.5)
    assert [(s.name, s.group) for s in specs] == [("W0", "repr"), ("W1", "dec")]
    gen = torch.Generator().manual_seed(0)
    w0 = specs[0].init(specs[0].shape, gen)
    assert float(w0.abs().max()) <= 0.5 / 2.0 + 1e-7  # U(-1/sqrt(4), 1/sqrt(4)) x 0.5
    assert model.n_params() == 4 * 3 + 3 * 2
    for bad in (dict(d_in=0), dict(d_in=3, hidden=[200]), dict(d_in=3, activation="sigmoid"), dict(d_in=3, bias=1)):
        with pytest.raises(ValueError):
            MLPConfig(**bad)


# ---------------------------------------------------------------- norm-constrained training


def test_project_to_norm_stays_on_sphere():
    flat = torch.randn(3, 50, dtype=torch.float64) * torch.tensor([[0.1], [1.0], [30.0]], dtype=torch.float64)
    target = torch.tensor([2.0, 5.0, 0.3], dtype=torch.float64)
    project_to_norm(flat, target, torch.tensor([True, False, True]))
    norms = flat.norm(dim=1)
    assert abs(float(norms[0]) - 2.0) < 1e-6 and abs(float(norms[2]) - 0.3) < 1e-6
    assert abs(float(norms[1]) - 5.0) > 1e-3  # the unconstrained run is untouched
    with pytest.raises(ValueError, match="zero"):
        project_to_norm(torch.zeros(1, 4), torch.ones(1))


def _toy_data(n=40, d=3):
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
    h = train(model, _toy_data(), cfg, runs={"init_scale": [0.5, 3.0, 3.0], "repr_init_scale": [0.5, 3.0, 3.0],
                                             "fixed_norm": [True, True, False]}, mse_threshold=0.01, progress=False)
    w = h["weight_norm"]
    assert np.abs(w[:2] - w[:2, :1]).max() < 1e-6 * w[:2, :1].max()  # on the sphere at every step
    assert w[2, -1] < 0.9 * w[2, 0]  # the free run with weight decay shrinks
    assert h["train_loss"][0, -1] < h["train_loss"][0, 0]  # and constrained training still learns
    assert set(h.metrics) >= {"train_acc", "val_acc"}


def test_mse_threshold_accuracy_and_its_validation():
    cfg = TrainConfig(steps=3, dtype="float64")
    model = MLPConfig(d_in=3, hidden=(4,), d_out=2)
    h = train(model, _toy_data(), cfg, mse_threshold=1e9, progress=False)  # every sample under the threshold
    assert (h["train_acc"] == 1).all() and (h["val_acc"] == 1).all()
    h = train(model, _toy_data(), cfg, mse_threshold=1e-12, progress=False)
    assert (h["train_acc"] == 0).all()
    with pytest.raises(ValueError, match="mse_threshold"):
        train(model, _toy_data(), cfg, mse_threshold=-1.0, progress=False)
    ce = replace(_toy_data(), loss="ce", targets=None, n_classes=2)
    with pytest.raises(ValueError, match="mse_threshold"):
        train(model, ce, cfg, mse_threshold=0.1, progress=False)


# ---------------------------------------------------------------- theory


def test_time_to_grok_matches_integrated_dynamics():
    for gamma in (0.2, 0.4):
        t, w = integrate_norm_dynamics(3.0, gamma, t_max=20.0, n_steps=40_000, w_c=1.0)
        t_hit = t[np.argmax(w <= 1.0)]
        assert abs(t_hit - time_to_grok(3.0, 1.0, gamma)) < 2e-3
    assert time_to_grok(1.0, 2.0, 0.1) == 0.0 and time_to_grok(2.0, 1.0, 0.0) == float("inf")
    assert time_to_grok(2.0, 1.0, 0.5, lr=1e-3) == pytest.approx(np.log(2) / 5e-4)
    np.testing.assert_allclose(norm_decay(2.0, 0.5, [0.0, 2.0]), [2.0, 2.0 * np.exp(-1.0)])


def test_loglog_slope():
    g = np.array([0.1, 0.2, 0.4, 0.8])
    slope, intercept = loglog_slope(g, 7.0 / g)
    assert slope == pytest.approx(-1.0) and np.exp(intercept) == pytest.approx(7.0)
    with pytest.raises(ValueError):
        loglog_slope(g, -g)


def test_modular_config_labels_and_validation():
    from repro.omnigrok import ModularConfig

    cfg = ModularConfig()
    assert cfg.run_labels() == ["free, alpha 1, wd 1", "norm held at alpha 0.8, wd 0"]
    with pytest.raises(ValueError, match="constrained_alpha"):
        ModularConfig(constrained_alpha=0.0)


def test_modular_delays_ratio_and_norm_stats():
    from repro.omnigrok import ModularResult, median_steps
    from repro.train import History

    steps = np.arange(0, 50, 10)
    # two seeds x (free, fixed); seed-major runs: s0 free, s0 fixed, s1 free, s1 fixed
    norm = np.array([[1, 2, 3, 2, 1.5], [2, 2, 2, 2, 2], [1, 1.5, 2, 1, 0.5], [2, 2, 2, 2, 2]], dtype=float)
    val = np.array([[0, 0, 0.5, 1, 1], [0, 0, 0, 1, 1], [0, 0.2, 0.9, 1, 1], [0, 1, 1, 1, 1]], dtype=float)
    h = History(steps=steps, metrics={"weight_norm": norm, "val_acc": val})
    tr = np.array([[10, 10], [10, 10]])
    te = np.array([[30, 30], [30, -1]])
    res = ModularResult(h, ["free", "fixed"], median_steps(tr), median_steps(te), tr, te)
    assert res.seed_delays(0).tolist() == [20.0, 20.0]
    assert res.seed_delays(1)[0] == 20.0 and np.isinf(res.seed_delays(1)[1])
    assert np.isinf(res.delay_ratio())  # the fixed-norm median is never (one of two seeds)
    te[1, 1] = 20
    assert res.delay_ratio() == pytest.approx(15.0 / 20.0)
    st = res.norm_stats()
    np.testing.assert_allclose(st["peak"], [3.0, 2.0])
    np.testing.assert_allclose(st["final"], [1.5, 0.5])
    np.testing.assert_allclose(st["fall"], [0.5, 0.25])
    np.testing.assert_allclose(st["val_at_peak"], [0.5, 0.9])
    np.testing.assert_allclose(res.norm_stats(1)["peak"], [1.0, 1.0])


def test_fixed_norm_training_is_reproducible_and_independent_of_threads():
    """Blocks of runs on single-threaded workers: the same bits call after call (two intra-op threads did
    not give that); another thread count changes the blocking, and with it float rounding, only."""
    from repro.models import EmbedMLPConfig
    from repro.tasks import BinaryOpTask, Split, build_task_data

    data = build_task_data(BinaryOpTask("modular_addition", 7), Split(train_fraction=0.6, data_seed=0))
    mc = EmbedMLPConfig(n_symbols=7, d_embed=8, hidden=(16,), d_out=7, activation="relu", combine="sum")
    cfg = TrainConfig(steps=30, lr_repr=1e-2, lr_dec=1e-2, wd_repr=0.5, wd_dec=0.5, eval_every=5)
    runs = {"init_seed": [0, 1, 2], "init_scale": [1.0, 2.0, 1.5], "repr_init_scale": [1.0, 2.0, 1.5]}
    before = torch.get_num_threads()
    try:
        out = []
        for threads in (2, 2, 1):
            torch.set_num_threads(threads)
            out.append(train(mc, data, cfg, runs={**runs, "fixed_norm": [False, True, False]}, progress=False))
    finally:
        torch.set_num_threads(before)
    for k in out[0].metrics:
        np.testing.assert_array_equal(out[1][k], out[0][k])
        np.testing.assert_allclose(out[2][k], out[0][k], rtol=1e-5, atol=1e-6)
    assert torch.get_num_threads() == before
    np.testing.assert_allclose(out[0]["weight_norm"][1], out[0]["weight_norm"][1][0], rtol=1e-6)  # held on its sphere


def test_median_steps_seed_fraction_and_per_seed_slopes():
    from repro.omnigrok import GrokResult, median_steps, seed_fraction, seed_slopes
    from repro.train import History

    steps = np.array([[10, -1, 40], [20, -1, -1], [30, 5, -1]])
    assert median_steps(steps).tolist() == [20, -1, -1]
    assert seed_fraction([True, False, True, True]) == 0.75
    with pytest.raises(ValueError, match="empty"):
        seed_fraction([])
    g = [0.1, 0.2, 0.4, 0.0]
    seed_te = np.array([[800, 400, 200, -1], [1600, 800, 400, -1], [900, -1, -1, -1]])
    res = GrokResult([2.0] * 4, g, History(steps=np.arange(2), metrics={}), median_steps(seed_te), median_steps(seed_te), 3,
                     seed_te, seed_te)
    s = seed_slopes(res)
    assert np.allclose(s[:2], -1.0) and np.isnan(s[2])


# ---------------------------------------------------------------- held-out rows evaluated in a callback


def test_split_heldout_rows_and_errors():
    from repro.omnigrok import split_heldout

    data = _toy_data(n=10)
    tr, held = split_heldout(data)
    assert tr.n_samples == 5 and held.n_samples == 5
    torch.testing.assert_close(tr.inputs, data.inputs[:5])
    torch.testing.assert_close(held.targets, data.targets[5:])
    assert len(tr.val_idx) == 0 and len(held.val_idx) == 0
    np.testing.assert_array_equal(held.train_idx, np.arange(5))
    with pytest.raises(ValueError, match="val_idx"):
        split_heldout(replace(data, val_idx=np.zeros(0, dtype=np.int64)))


@pytest.mark.parametrize("batch_size", [None, 7])
def test_heldout_in_callback_matches_train(batch_size):
    """The same history as training on all rows (float64: up to the summation order of the evaluation),
    also with minibatches over a training split given in shuffled order."""
    from repro.omnigrok import train_heldout_in_callback

    data = _toy_data()
    perm = np.random.RandomState(0).permutation(40)
    data = replace(data, train_idx=perm[:20], val_idx=np.sort(perm[20:]))
    model = MLPConfig(d_in=3, hidden=(8, 8), d_out=2, activation="tanh")
    cfg = TrainConfig(steps=20, lr_repr=1e-2, lr_dec=1e-2, eval_every=5, batch_size=batch_size, dtype="float64")
    runs = {"init_scale": [0.5, 2.0], "repr_init_scale": [0.5, 2.0], "wd_repr": [0.0, 0.3], "wd_dec": [0.0, 0.3],
            "fixed_norm": [True, False], "init_seed": [0, 1]}
    a = train(model, data, cfg, runs=runs, mse_threshold=0.05, progress=False)
    b = train_heldout_in_callback(model, data, cfg, runs=runs, mse_threshold=0.05, progress=False)
    assert set(a.metrics) == set(b.metrics) and not b.extra
    np.testing.assert_array_equal(a.steps, b.steps)
    for k in a.metrics:
        np.testing.assert_allclose(b[k], a[k], rtol=1e-9, atol=1e-12, err_msg=k)


def test_landscape_seed_values_and_half_way_evaluation():
    from repro.omnigrok import TeacherStudentConfig, teacher_student_landscape

    cfg = TeacherStudentConfig(width=8, alphas=(0.5, 2.0), landscape_steps=6, n_seeds=2)
    res = teacher_student_landscape(cfg, progress=False)
    np.testing.assert_array_equal(res.history.steps, [0, 3, 6])  # start, half way, end
    np.testing.assert_array_equal(res.seed_values("train_loss"), res.seed_train_loss)
    assert res.seed_values("val_loss", -2).shape == (2, 2)
    assert np.isfinite(res.seed_test_loss).all()


def test_transformer_modular_trains_on_training_rows_and_stores(tmp_path, monkeypatch):
    """run_modular with the transformer trains on the training pairs only (train_heldout_in_callback); its
    history equals repro.train.train's on all pairs in float64, and a stored run loads back (through the
    results store) to the same delays."""
    import repro.omnigrok as og
    from repro.store import ResultsStore, history_to_arrays

    cfg = og.ModularConfig(p=7, steps=6, eval_every=2, n_seeds=2, dtype="float64")
    res = og.run_modular(cfg, progress=False)
    direct = train(cfg.model_config(), cfg.task_data(),
                   TrainConfig(steps=6, lr_repr=cfg.lr, lr_dec=cfg.lr, beta2=cfg.beta2, eval_every=2, dtype="float64"),
                   runs={"init_scale": [1.0, 0.8] * 2, "repr_init_scale": [1.0, 0.8] * 2, "wd_repr": [1.0, 0.0] * 2,
                         "wd_dec": [1.0, 0.0] * 2, "fixed_norm": [False, True] * 2, "init_seed": [0, 0, 1, 1]},
                   progress=False)
    for k in ("train_loss", "val_loss", "train_acc", "val_acc", "weight_norm"):
        np.testing.assert_allclose(res.history[k], direct[k], rtol=1e-9, atol=1e-12, err_msg=k)
    assert og.stored_modular(cfg, tmp_path) is None
    ResultsStore(tmp_path).save(cfg, history_to_arrays(res.history), label=og.MODULAR_STORE_LABEL)
    loaded, manifest = og.stored_modular(cfg, tmp_path)
    np.testing.assert_array_equal(loaded.seed_test_steps, res.seed_test_steps)
    np.testing.assert_array_equal(loaded.history["weight_norm"], res.history["weight_norm"])
    assert "git_commit" in manifest
    c = og.stored_modular_config()
    assert (c.model, c.model_config().d_mlp, c.train_fraction, c.lr, c.weight_decay, c.constrained_alpha) == \
        ("transformer", 512, 0.3, 1e-3, 1.0, 0.8)

"""Tests of repro.experiments.liu2023_omnigrok, the experiments of the Omnigrok chapter (Liu, Michaud & Tegmark 2023): the modular
runs with the weight norm held or free, their delays and norm statistics, the held-out rows evaluated in a callback,
the teacher-student landscape and the results store."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.data.tasks import TaskData
from repro.models.networks import MLPConfig
from repro.training.trainer import Performance, Record, TrainConfig, train

def test_modular_config_labels_and_validation():
    from repro.experiments.liu2023_omnigrok import ModularConfig

    cfg = ModularConfig()
    assert cfg.run_labels() == ["free, alpha 1, wd 1", "norm held at alpha 0.8, wd 0"]
    with pytest.raises(ValueError, match="constrained_alpha"):
        ModularConfig(constrained_alpha=0.0)


def test_modular_delays_ratio_and_norm_stats():
    from repro.experiments.liu2023_omnigrok import ModularResult, median_steps
    from repro.training.trainer import History

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


def test_median_steps_seed_fraction_and_per_seed_slopes():
    from repro.experiments.liu2023_omnigrok import GrokResult, median_steps, seed_fraction, seed_slopes
    from repro.training.trainer import History

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


def _toy_data(n=40, d=3):
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, d, generator=gen)
    y = torch.sin(x[:, :2])
    return TaskData(inputs=x, labels=torch.zeros(n, dtype=torch.int64), n_classes=1, train_idx=np.arange(n // 2),
                    val_idx=np.arange(n // 2, n), loss="mse", targets=y, accuracy="none")


# ---------------------------------------------------------------- held-out rows evaluated in a callback


def test_split_heldout_rows_and_errors():
    from repro.experiments.liu2023_omnigrok import split_heldout

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
    from repro.experiments.liu2023_omnigrok import train_heldout_in_callback

    data = _toy_data()
    perm = np.random.RandomState(0).permutation(40)
    data = replace(data, train_idx=perm[:20], val_idx=np.sort(perm[20:]))
    model = MLPConfig(d_in=3, hidden=(8, 8), d_out=2, activation="tanh")
    cfg = TrainConfig(steps=20, lr_repr=1e-2, lr_dec=1e-2, eval_every=5, batch_size=batch_size, dtype="float64")
    runs = {"init_scale": [0.5, 2.0], "repr_init_scale": [0.5, 2.0], "wd_repr": [0.0, 0.3], "wd_dec": [0.0, 0.3],
            "fixed_norm": [True, False], "init_seed": [0, 1]}
    a = train(model, data, cfg, runs=runs, record=Record(mse_threshold=0.05), performance=Performance(progress=False))
    b = train_heldout_in_callback(model, data, cfg, runs=runs, mse_threshold=0.05, progress=False)
    assert set(a.metrics) == set(b.metrics) and not b.extra
    np.testing.assert_array_equal(a.steps, b.steps)
    for k in a.metrics:
        np.testing.assert_allclose(b[k], a[k], rtol=1e-9, atol=1e-12, err_msg=k)


def test_landscape_seed_values_and_half_way_evaluation():
    from repro.experiments.liu2023_omnigrok import TeacherStudentConfig, teacher_student_landscape

    cfg = TeacherStudentConfig(width=8, alphas=(0.5, 2.0), landscape_steps=6, n_seeds=2)
    res = teacher_student_landscape(cfg, progress=False)
    np.testing.assert_array_equal(res.history.steps, [0, 3, 6])  # start, half way, end
    np.testing.assert_array_equal(res.seed_values("train_loss"), res.seed_train_loss)
    assert res.seed_values("val_loss", -2).shape == (2, 2)
    assert np.isfinite(res.seed_test_loss).all()


def test_transformer_modular_trains_on_training_rows_and_stores(tmp_path, monkeypatch):
    """run_modular with the transformer trains on the training pairs only (train_heldout_in_callback); its
    history equals repro.training.trainer.train's on all pairs in float64, and a stored run loads back (through the
    results store) to the same delays."""
    import repro.experiments.liu2023_omnigrok as og
    from repro.training.store import ResultsStore, history_to_arrays

    cfg = og.ModularConfig(p=7, steps=6, eval_every=2, n_seeds=2, dtype="float64")
    res = og.run_modular(cfg, progress=False)
    direct = train(cfg.model_config(), cfg.task_data(),
                   TrainConfig(steps=6, lr_repr=cfg.lr, lr_dec=cfg.lr, beta2=cfg.beta2, eval_every=2, dtype="float64"),
                   runs={"init_scale": [1.0, 0.8] * 2, "repr_init_scale": [1.0, 0.8] * 2, "wd_repr": [1.0, 0.0] * 2,
                         "wd_dec": [1.0, 0.0] * 2, "fixed_norm": [False, True] * 2, "init_seed": [0, 0, 1, 1]},
                   performance=Performance(progress=False))
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


def test_the_notebooks_settings_are_a_stored_run_and_the_first_runs_keep_their_init():
    from repro.experiments.liu2023_omnigrok import STORED_RUNS, official_modular_config, stored_modular_config

    official = official_modular_config()
    assert (official.p, official.transformer_init, official.steps, official.train_fraction, official.lr,
            official.weight_decay, official.constrained_alpha) == (113, "nanda", 15_000, 0.3, 1e-3, 1.0, 0.8)
    assert official.model_config().init == "nanda" and not official.model_config().biases
    assert stored_modular_config().model_config().init == "transformer_lens"
    assert set(STORED_RUNS) == {"p59", "p113"}
    with pytest.raises(ValueError, match="transformer_init"):
        replace(official, transformer_init="xavier")


def test_stored_teacher_student_round_trip(tmp_path, monkeypatch):
    """The CLI's ts run stores the landscape and the grokking history; stored_ts rebuilds both results, equal to
    a direct run; None until both entries are stored."""
    from repro.experiments import liu2023_omnigrok as om

    real = om.stored_ts_config()
    assert real.landscape_steps == 100_000 and real.grok_steps == 100_000 and real.landscape_lr == real.grok_lr == 3e-4
    small = om.TeacherStudentConfig(width=8, alphas=(0.5, 1.0, 2.0), landscape_steps=30, gammas=(0.5, 1.0),
                                    grok_steps=30, eval_every=10, n_seeds=2)
    assert om.stored_ts(small, tmp_path) is None
    monkeypatch.setattr(om, "stored_ts_config", lambda: small)
    assert om.main(["--store", str(tmp_path), "--run", "ts"]) == 0
    land, grok, manifests = om.stored_ts(small, tmp_path)
    assert [m["label"] for m in manifests] == [om.TS_LANDSCAPE_LABEL, om.TS_GROK_LABEL]
    direct = om.run_teacher_student_grokking(small)
    np.testing.assert_array_equal(grok.seed_test_steps, direct.seed_test_steps)
    np.testing.assert_array_equal(grok.history["val_loss"], direct.history["val_loss"])
    assert land.seed_train_loss.shape == (2, 3) and land.history.steps[-1] == 30


def test_stored_ts_seeds_adds_disjoint_students_of_the_same_landscape(tmp_path, monkeypatch):
    """The six-seed landscape differs from stored_ts_config only in its students (4-9, none shared), so its runs
    join the first three; the CLI's ts-seeds run stores the landscape alone, equal to a direct run."""
    from dataclasses import replace

    from repro.experiments import liu2023_omnigrok as om

    first, more = om.stored_ts_config(), om.stored_ts_seeds_config()
    assert replace(more, student_seed=first.student_seed, n_seeds=first.n_seeds) == first
    assert not set(first.seeds) & set(more.seeds) and len(first.seeds) + len(more.seeds) == 9
    small = om.TeacherStudentConfig(width=8, alphas=(0.5, 1.0, 2.0), landscape_steps=30, n_seeds=2, student_seed=4)
    assert om.stored_ts_landscape_seeds(tmp_path) is None
    monkeypatch.setattr(om, "stored_ts_seeds_config", lambda: small)
    assert om.main(["--store", str(tmp_path), "--run", "ts-seeds"]) == 0
    land, manifest = om.stored_ts_landscape_seeds(tmp_path)
    assert manifest["label"] == om.TS_SEEDS_LABEL
    direct = om.run_ts_landscape_stored(small)
    np.testing.assert_array_equal(land.seed_train_loss, direct.seed_train_loss)


def test_lower_arm_is_the_largest_train_loss_over_alphas_at_least_one():
    """Oracle: log10 of the per-seed maximum over the alpha >= 1 columns, written out by hand."""
    from repro.experiments.liu2023_omnigrok import LandscapeResult

    alphas = np.array([0.5, 1.0, 2.0])
    train = np.array([[[9.0, 1e-3], [8.0, 1e-5], [7.0, 1e-4]],  # seed 0: (alphas, evaluations)
                      [[9.0, 1e-2], [8.0, 1e-6], [7.0, 1e-7]]]).reshape(6, 2)  # seed 1
    land = LandscapeResult(alphas, None, None, None, None, {"train_loss": train}, None, None, None, None)
    np.testing.assert_allclose(land.lower_arm(), [-4.0, -6.0])
    np.testing.assert_allclose(land.lower_arm(0), np.log10([8.0, 8.0]))


def test_confirmation_config_is_the_book_scale_with_fresh_students():
    """The confirmation differs from the book scale only in its students, none of which the chapter's runs used
    (book scale 1-5, the stored official-settings runs 1-3 and 4-9)."""
    from repro.experiments import liu2023_omnigrok as om

    book, conf = om.TeacherStudentConfig.book(), om.confirmation_config()
    assert replace(conf, student_seed=book.student_seed) == book and conf.n_seeds == book.n_seeds == 5
    used = set(book.seeds) | set(om.stored_ts_config().seeds) | set(om.stored_ts_seeds_config().seeds)
    assert conf.seeds == [1000, 1001, 1002, 1003, 1004] and not used & set(conf.seeds)


def test_ts_book_statistics_and_the_stored_confirmation_round_trip(tmp_path, monkeypatch):
    """ts_book_statistics gives the medians of its per-seed values (oracle: the landscape's columns and the runs'
    first steps read by hand); the CLI's confirm run stores both experiments in one entry that loads back to the
    same statistics."""
    from repro.experiments import liu2023_omnigrok as om

    small = om.TeacherStudentConfig(width=8, alphas=(0.1, 0.251, 1.0, 3.98, 10.0), landscape_steps=20,
                                    gammas=(0.5, 1.0), grok_steps=30, eval_every=10, n_seeds=3, student_seed=1000)
    land, grok = om.run_confirmation(small)
    stats = om.ts_book_statistics(small, land=land, grok=grok)
    s_tr, s_te = land.seed_train_loss, land.seed_test_loss
    np.testing.assert_allclose(stats["knee"][1], np.log10(s_tr[:, 1]))
    np.testing.assert_allclose(stats["rise"][1], np.log10(s_te[:, 3] / s_te[:, 2]))
    np.testing.assert_allclose(stats["floor"][1], np.log10(s_tr[:, 2:].max(axis=1)))
    never = (grok.seed_test_steps[:, 2] > 0).astype(float)
    assert stats["never"][0] == never.mean()
    np.testing.assert_array_equal(stats["never"][1], never)
    tr, te = grok.seed_train_steps[:, 3], grok.seed_test_steps[:, 3]
    np.testing.assert_array_equal(stats["ctrl_lag"][1], np.where(te > 0, te - tr, np.inf))
    for k, (value, seeds) in stats.items():
        if seeds is not None and k != "never":
            np.testing.assert_equal(value, float(np.median(seeds)), err_msg=k)  # nan-aware
    assert stats["top_spread"] == (float(np.ptp(stats["top"][1])), None)
    assert set(om.ts_book_statistics(small, land=land)) == {"ratio", "rise", "rise10", "fall01", "top", "knee",
                                                             "floor", "top_drift", "top_spread"}
    with pytest.raises(ValueError, match="land="):
        om.ts_book_statistics(small)
    monkeypatch.setattr(om, "confirmation_config", lambda: small)
    assert om.stored_confirmation(tmp_path) is None
    assert om.main(["--store", str(tmp_path), "--run", "confirm"]) == 0
    land2, grok2, manifest = om.stored_confirmation(tmp_path)
    assert manifest["label"] == om.CONFIRM_LABEL == "omnigrok-confirm"
    stored = om.ts_book_statistics(small, land=land2, grok=grok2)
    for k in stats:
        np.testing.assert_array_equal(stored[k][0], stats[k][0], err_msg=k)


def test_loss_spikes_after_grokking_and_the_final_norm_window():
    """Oracle: the spikes and the norm window written out by hand on a three-run history (seed-major, two settings)."""
    from repro.experiments.liu2023_omnigrok import ModularResult, median_steps
    from repro.training.trainer import History

    steps = np.arange(0, 80, 10)
    # seed 0 free: fits, groks at step 30, spikes x100 at 50 (and x100 at 10, before grokking: not counted)
    loss = np.array([[1, 100, 1e-2, 1e-3, 1e-3, 1e-1, 1e-3, 1e-3],
                     [1, 1e-1, 1e-2, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3],
                     [1, 1e-1, 1e-2, 1e-3, 1e-2, 1e-3, 1e-3, 1e-1],  # seed 1 free: x10 jumps only, then x100 at 70
                     [1, 1e-1, 1e-2, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3]])
    val = np.array([[0, 0, 0, 1, 1, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1],
                    [0, 0, 0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1]], dtype=float)
    norm = np.array([[2, 3, 3, 2, 1.8, 1.6, 1.4, 1.5], [2] * 8, [4, 5, 5, 4, 3, 2, 3, 2.4], [2] * 8], dtype=float)
    h = History(steps=steps, metrics={"train_loss": loss, "val_acc": val, "weight_norm": norm})
    st = np.zeros((2, 2), dtype=int)
    res = ModularResult(h, ["free", "fixed"], median_steps(st), median_steps(st), st, st)
    spikes = res.loss_spikes()
    assert spikes[0].tolist() == [50] and spikes[1].tolist() == [70]
    assert res.loss_spikes(factor=5)[1].tolist() == [70]  # step 40's x10 jump comes before seed 1 groks (50)
    np.testing.assert_allclose(res.norm_window(20), [[0.7, 0.8], [0.5, 0.75]])  # steps 50-70 / the initial norm
    with pytest.raises(ValueError, match="last_steps"):
        res.norm_window(0)


def test_lower_arm_config_has_fresh_students_at_the_notebooks_budget():
    from repro.experiments import liu2023_omnigrok as om

    cfg = om.lower_arm_config()
    assert replace(cfg, student_seed=1, n_seeds=3, landscape_steps=100_000) == om.stored_ts_config()
    assert cfg.landscape_steps == om.TS_LANDSCAPE_EVAL == 10_000 and cfg.seeds == list(range(2000, 2009))
    book = om.TeacherStudentConfig.book()
    used = (set(book.seeds) | set(om.stored_ts_config().seeds) | set(om.stored_ts_seeds_config().seeds)
            | set(om.confirmation_config().seeds))
    assert not used & set(cfg.seeds)

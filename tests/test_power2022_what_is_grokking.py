"""The opening chapter's seed aggregation (repro.experiments.power2022_what_is_grokking): statistics over seeds, no training here
except one smoke-sized batched run."""
import math

import numpy as np
import pytest

from repro.experiments.power2022_what_is_grokking import IntroConfig, median_standard_error, summarize_seeds


def test_summarize_seeds_medians_and_never():
    s = summarize_seeds(train_steps=[70, 80, 80, 70, -1], val_steps=[2000, 3000, -1, 2500, -1],
                        final_val_acc=[1.0, 1.0, 0.98, 0.993, 0.5], fit_end=[0.95, 0.6, 0.99, 0.91, 0.3],
                        fit_init=[0.4, 0.45, 0.38, 0.41, 0.39])
    assert s.n == 5
    assert s.median_train_step == 80  # never (-1) counts as +inf: sorted 70, 70, 80, 80, inf
    assert s.median_val_step == 3000  # 2000, 2500, 3000, inf, inf
    # delays: 2000/70, 3000/80, nan, 2500/70, nan -> nan counts as 0
    assert s.median_delay == pytest.approx(2000 / 70)
    assert s.median_final_val_acc == pytest.approx(0.993)  # 0.5, 0.98, 0.993, 1, 1
    assert s.min_final_val_acc == 0.5
    assert s.n_circle == 3 and s.share_circle == pytest.approx(0.6)


def test_summarize_seeds_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="one value per seed"):
        summarize_seeds([70, 80], [2000], [1.0, 1.0], [0.9, 0.9], [0.4, 0.4])
    with pytest.raises(ValueError, match="one value per seed"):
        summarize_seeds([], [], [], [], [])


def test_median_standard_error():
    assert median_standard_error([5.0] * 8) == 0.0
    rng = np.random.default_rng(1)
    wide, narrow = rng.normal(0, 10, 32), rng.normal(0, 1, 32)
    assert median_standard_error(wide) > 3 * median_standard_error(narrow)
    # deterministic (fixed RNG seed)
    assert median_standard_error(wide) == median_standard_error(wide)
    # 'never' entries count as +inf; all-never resamples are left out
    assert math.isfinite(median_standard_error([100, 200, -1, 150], never=-1))
    with pytest.raises(ValueError, match="empty"):
        median_standard_error([])


def test_config_seeds():
    cfg = IntroConfig(p=31, model="embed_mlp", init_seed=3, n_seeds=4)
    assert cfg.seeds == [3, 4, 5, 6]
    with pytest.raises(ValueError):
        IntroConfig(n_seeds=0)


def test_run_intro_batched_seeds_smoke():
    from repro.experiments.power2022_what_is_grokking import run_intro

    cfg = IntroConfig(operation="modular_addition", p=7, train_fraction=0.7, ordered_pairs=False, model="embed_mlp", d_model=8, d_mlp=16, lr=3e-3,
                      batch_size=None, steps=20, eval_every=10, n_seeds=3)
    result = run_intro(cfg, progress=False)
    assert result.embeddings.shape == (3, 3, 7, 8)  # (runs, evaluations at 0/10/20, p, d)
    assert result.train_steps.shape == (3,) and result.val_steps.shape == (3,)
    # different seeds start from different embeddings
    assert not np.allclose(result.embeddings_at(0, 0), result.embeddings_at(0, 1))
    s = result.summary()
    assert s.n == 3 and s.fit_init.shape == (3,)


def test_snapshot_indices_keep_first_and_last_spread_in_log_step():
    from repro.experiments.power2022_what_is_grokking import _snapshot_indices

    steps = np.arange(0, 30_001, 100)
    keep = _snapshot_indices(steps, n=16)
    assert keep[0] == 0 and keep[-1] == len(steps) - 1 and np.all(np.diff(keep) > 0)
    assert len(keep) <= 16
    kept = steps[keep][1:]
    assert np.sum(kept < 1000) >= 4  # log spacing: several snapshots in the first 1,000 steps


def test_stored_intro_round_trip(tmp_path):
    from dataclasses import replace

    from repro.experiments.power2022_what_is_grokking import intro_from_arrays, intro_to_arrays, run_intro
    from repro.training.store import ResultsStore

    cfg = replace(IntroConfig(), operation="modular_addition", p=11, d_model=16, n_heads=2, d_mlp=32, batch_size=32,
                  steps=40, eval_every=5)
    result = run_intro(cfg, progress=False)
    store = ResultsStore(tmp_path)
    arrays, _ = store.get_or_compute(cfg, lambda: intro_to_arrays(result), label="power2022")
    back = intro_from_arrays(cfg, arrays)
    assert np.array_equal(back.history["val_acc"], result.history["val_acc"])
    assert np.array_equal(back.train_steps, result.train_steps) and np.array_equal(back.val_steps, result.val_steps)
    for step in (0, 40):  # snapshots kept at both ends
        assert np.array_equal(back.embeddings_at(step), result.embeddings_at(step))
    assert back.circle(40) == result.circle(40)
    with pytest.raises(ValueError, match="lacks arrays"):
        intro_from_arrays(cfg, {"steps": arrays["steps"]})


def test_division_runs_keep_no_embeddings_and_judge_seeds_without_circles(tmp_path):
    from dataclasses import replace

    from repro.experiments.power2022_what_is_grokking import intro_from_arrays, intro_to_arrays, run_intro

    cfg = replace(IntroConfig(), p=11, d_model=16, n_heads=2, d_mlp=32, batch_size=32, steps=20, eval_every=5,
                  n_seeds=2)
    result = run_intro(cfg, progress=False)
    assert result.embeddings is None
    arrays = intro_to_arrays(result)
    assert "embeddings" not in arrays
    back = intro_from_arrays(cfg, arrays)
    assert np.array_equal(back.history["train_acc"], result.history["train_acc"])
    s = back.summary()
    assert s.n == 2 and np.isnan(s.fit_end).all() and s.n_circle == 0


def test_defaults_are_fig1_as_published():  # App. A.1.2: Adam without weight decay, 10^6 updates
    cfg = IntroConfig()
    assert (cfg.operation, cfg.p, cfg.train_fraction, cfg.weight_decay, cfg.steps, cfg.lr, cfg.batch_size) == (
        "modular_division", 97, 0.5, 0.0, 1_000_000, 1e-3, 512)


def test_division_config_is_fig1_task_at_a_tenth_of_its_budget():
    from repro.experiments.power2022_what_is_grokking import STORED_RUNS, stored_run

    label, cfg = stored_run("division-wd1")
    assert label == "power2022-division-wd1"
    assert (cfg.operation, cfg.p, cfg.train_fraction, cfg.warmup_steps, cfg.steps, cfg.batch_size, cfg.weight_decay) == (
        "modular_division", 97, 0.5, 10, 100_000, 512, 1.0)
    assert stored_run("division-wd0")[1].weight_decay == 0.0
    assert stored_run("addition")[1].operation == "modular_addition"
    data = cfg.task_data()
    assert data.n_samples == 97 * 96 and int(data.masks()[0].sum()) == 97 * 96 // 2
    with pytest.raises(ValueError, match="run"):
        stored_run("division")
    assert set(STORED_RUNS) == {"addition", "division-wd1", "division-wd0", "fig1"}


def test_fig1_statistics_against_a_hand_made_history():
    from repro.experiments.power2022_what_is_grokking import IntroResult, fig1_statistics
    from repro.training.trainer import History

    steps = np.arange(0, 1001, 100)
    train = np.array([[0, .5, .99, 1, 1, 1, 1, 1, 1, 1, 1],   # fits at 200
                      [0, .1, .2, .3, .4, .5, .6, .7, .8, .9, .95]])  # never fits
    val = np.array([[.01, .01, .01, .02, .5, .995, .99, .8, .99, 1, 1],  # generalizes at 500, one dip below 0.9
                    [.01] * 11])
    h = History(steps=steps, metrics={"train_acc": train, "val_acc": val})
    result = IntroResult(IntroConfig(n_seeds=2), h, None, h.first_step("train_acc", 0.99), h.first_step("val_acc", 0.99))
    s = fig1_statistics(result, later=2.0)
    assert list(s.final_train_acc) == [1.0, 0.95] and list(s.final_val_acc) == [1.0, 0.01]
    assert s.val_acc_later[0] == 0.5 and np.isnan(s.val_acc_later[1])  # at step 400 = 2 x 200
    assert s.log10_delay[0] == pytest.approx(np.log10(500 / 200)) and np.isnan(s.log10_delay[1])
    assert s.share_dips[0] == pytest.approx(1 / 6) and np.isnan(s.share_dips[1])  # steps 500..1000: one of six
    # a seed without a value counts as never: with one of two seeds never, the median is +inf (or nan for shares)
    assert s.median("log10_delay") == np.inf and np.isnan(s.median("share_dips"))
    assert s.median("final_train_acc") == pytest.approx(0.975)
    with pytest.raises(ValueError, match="later"):
        fig1_statistics(result, later=0)


def test_plot_fig1_as_published_draws_one_panel_per_run():
    import matplotlib

    matplotlib.use("Agg")
    from dataclasses import replace

    from repro.experiments.power2022_what_is_grokking import run_intro
    from repro.plotting.power2022_what_is_grokking import plot_fig1_as_published

    cfg = replace(IntroConfig(), p=11, d_model=16, n_heads=2, d_mlp=32, batch_size=32, steps=20, eval_every=5,
                  n_seeds=2, weight_decay=1.0)
    fig = plot_fig1_as_published({"weight decay 1": run_intro(cfg, progress=False),
                                  "weight decay 0": run_intro(replace(cfg, weight_decay=0.0), progress=False)})
    assert [ax.get_title() for ax in fig.axes] == ["weight decay 1", "weight decay 0"]
    assert all(ax.get_xscale() == "log" and ax.get_xlabel() for ax in fig.axes)

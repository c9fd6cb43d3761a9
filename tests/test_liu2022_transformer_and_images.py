import numpy as np
import pytest


def test_stored_image_curve_round_trips(tmp_path):
    from dataclasses import replace

    from repro.experiments.liu2022_transformer_and_images import (run_image_phase_diagram, stored_curve_config,
                                                                  stored_images)
    from repro.plotting.liu2022_transformer_and_images import plot_image_curve
    from repro.training.store import ResultsStore, history_to_arrays

    cfg = replace(stored_curve_config(), n_seeds=2, steps=30, eval_every=10, n_train=100, n_test=50)
    res = run_image_phase_diagram(cfg, progress=False)
    ResultsStore(tmp_path).get_or_compute(
        cfg, lambda: {k: v for k, v in history_to_arrays(res.history).items() if not k.startswith("param/")},
        label="images")
    loaded, _ = stored_images(cfg, tmp_path)
    assert (loaded.history["val_acc"] == res.history["val_acc"]).all()
    assert (loaded.seed_phases == res.seed_phases).all() and loaded.curve_runs() == res.curve_runs()
    assert len(plot_image_curve(loaded).axes) == 1


def _tiny_transformer(**over):
    from dataclasses import replace

    from repro.experiments.liu2022_transformer_and_images import TransformerGrokConfig

    return replace(TransformerGrokConfig.book(), **{**dict(p=11, d_model=8, d_mlp=8, steps=30, eval_every=10, n_seeds=2),
                                                    **over})


def test_transformer_config_is_the_official_architecture_and_validates_dropout():
    from repro.experiments.liu2022_transformer_and_images import TransformerGrokConfig
    from repro.models.networks import EncoderTransformerConfig

    cfg = TransformerGrokConfig()
    m = cfg.model_config()
    assert isinstance(m, EncoderTransformerConfig)
    assert (m.d_vocab, m.d_model, m.n_heads, m.d_mlp, m.n_layers, m.n_ctx) == (59, 256, 1, 128, 2, 2)
    assert cfg.train_config().dropout == cfg.dropout == 0.05
    assert len(cfg.dropout_values) == 10 and cfg.dropout_values[0] == 0 and cfg.dropout_values[-1] == 0.5
    for bad, match in ((dict(dropout=1.0), "dropout"), (dict(dropout_values=(0.0, 1.2)), "dropout_values"),
                       (dict(dropout_seeds=()), "dropout_seeds"), (dict(dropout_steps=0), "dropout_steps")):
        with pytest.raises(ValueError, match=match):
            TransformerGrokConfig(**bad)


@pytest.mark.slow
def test_stored_transformer_round_trips(tmp_path):
    from repro.experiments.liu2022_transformer_and_images import (run_transformer, stored_transformer,
                                                                  transformer_to_arrays)
    from repro.plotting.liu2022_transformer_and_images import plot_transformer
    from repro.training.store import ResultsStore

    cfg = _tiny_transformer()
    res = run_transformer(cfg, progress=False)
    ResultsStore(tmp_path).get_or_compute(cfg, lambda: transformer_to_arrays(res, every=20), label="transformer")
    loaded, _ = stored_transformer(cfg, tmp_path)
    assert (loaded.effective_dim == res.effective_dim).all()
    assert list(loaded.embedding_steps) == [0, 20, 30]  # every 20 steps and the last
    np.testing.assert_allclose(loaded.embeddings[:, -1], res.embeddings[:, -1], rtol=1e-6)  # stored as float32
    np.testing.assert_allclose(loaded.embeddings_at(25), res.embeddings[0, -1], rtol=1e-6)  # the first one after
    assert loaded.circle_fit()[1] == pytest.approx(res.circle_fit()[1], abs=1e-5)
    plot_transformer(loaded)


def test_dropout_sweep_layout_medians_and_round_trip(tmp_path):
    from repro.experiments.liu2022_transformer_and_images import (DropoutResult, dropout_to_arrays, run_dropout_sweep,
                                                                  stored_dropout)
    from repro.plotting.liu2022_transformer_and_images import plot_dropout_sweep
    from repro.training.store import ResultsStore

    cfg = _tiny_transformer(dropout_values=(0.0, 0.3), dropout_seeds=(1, 2, 3), dropout_steps=20)
    res = run_dropout_sweep(cfg, progress=False)
    assert list(res.history.run_values["dropout"]) == [0.0, 0.0, 0.0, 0.3, 0.3, 0.3]  # rate-major
    assert list(res.history.run_values["init_seed"]) == [1, 2, 3, 1, 2, 3]
    assert res.steps_to("val_acc").shape == (2, 3)
    ResultsStore(tmp_path).get_or_compute(cfg, lambda: dropout_to_arrays(res), label="dropout")
    loaded, _ = stored_dropout(cfg, tmp_path)
    assert (loaded.steps_to("train_acc") == res.steps_to("train_acc")).all()
    plot_dropout_sweep(loaded)
    # medians count a run that never reaches the threshold as infinitely slow
    fake = DropoutResult(cfg, res.history)
    fake.steps_to = lambda key: np.array([[100, -1, -1], [50, 70, -1]])
    assert list(fake.median_steps_to("val_acc")) == [np.inf, 70.0]


def test_official_dropout_sweep_settings_and_numbers():
    from dataclasses import replace

    from repro.experiments.liu2022_transformer_and_images import (DropoutResult, dropout_sweep_numbers,
                                                                  official_base_dropout_config,
                                                                  official_dropout_reference)

    ref = official_dropout_reference()  # phasegrok/config.py's defaults, which the snakefile's with_dropout runs
    assert (ref.p, ref.d_model, ref.d_mlp, ref.n_layers) == (53, 256, 256, 2)
    assert (ref.lr_repr, ref.lr_dec, ref.wd_dec, ref.wd_repr) == (1e-3, 1e-3, 0.0, 0.01)
    assert len(ref.dropout_values) == 10 and ref.dropout_seeds == (1, 2, 3) and ref.dropout_steps == 100_000
    cfg = official_base_dropout_config()
    assert cfg.lr_repr == cfg.lr_dec and cfg.wd_dec == 0 and cfg.wd_repr == ref.wd_repr and cfg.d_mlp == cfg.d_model
    assert cfg.dropout_values == pytest.approx((0.0, 1 / 6, 1 / 3, 0.5))
    assert not set(cfg.dropout_seeds) & {1, 2, 3}  # fresh seeds
    fake = DropoutResult(cfg, None)
    # rows: rates 0, 1/6, 1/3, 1/2; columns: seeds. Rate 0 never generalizes: counted at the end (6,000)
    val = np.array([[-1, -1], [3000, 1500], [1200, 600], [-1, 900]])
    train = np.array([[60, 40], [200, 100], [1000, 500], [-1, 800]])
    fake.steps_to = lambda key: val if key == "val_acc" else train
    n = dropout_sweep_numbers(fake)
    assert n["best"] == 2 and n["best_rate"] == pytest.approx(1 / 3) and n["never_at_zero"]
    np.testing.assert_allclose(n["time_ratio"], [1200 / 6000, 600 / 6000])
    np.testing.assert_allclose(n["gap_ratio"], [200 / 5940, 100 / 5960])
    assert n["gap"][3, 0] == 6000  # never fitted: the whole run
    with pytest.raises(ValueError, match="first rate must be 0"):
        dropout_sweep_numbers(DropoutResult(replace(cfg, dropout_values=(0.1, 0.2)), None))


def test_effective_dimension_ceiling_and_both_readings():
    from repro.experiments.liu2022_transformer_and_images import (TransformerGrokConfig, TransformerResult,
                                                                  effective_dimension_ceiling,
                                                                  effective_dimension_readings)
    from repro.metrics.representation import effective_dimension

    assert effective_dimension_ceiling(59, 256) == 58 and effective_dimension_ceiling(31, 8) == 8
    with pytest.raises(ValueError):
        effective_dimension_ceiling(1, 4)
    cfg = TransformerGrokConfig.book()  # p = 31, d = 48
    rng = np.random.default_rng(0)
    iso = rng.normal(size=(cfg.p, cfg.d_model))
    low = rng.normal(size=(cfg.p, 2)) @ rng.normal(size=(2, cfg.d_model)) + 0.01 * iso
    res = TransformerResult(cfg, None, np.stack([iso, low])[None], np.zeros((1, 2)), embedding_steps=np.array([0, 10]))
    r = effective_dimension_readings(res)
    assert r["ceiling"] == 30 and r["plain"][0] == pytest.approx(effective_dimension(iso))
    assert (r["plain"] <= 30 + 1e-9).all() and (r["standardized"] <= 30 + 1e-9).all()
    assert r["plain_rise"] == 1.0 and r["plain_end"] < 0.2  # the low-rank end: a drop
    assert r["plain_max_rise"] == pytest.approx(30 / r["plain"][0])


def test_projected_cpu_hours_counts_every_run_step():
    from repro.experiments.liu2022_transformer_and_images import (TransformerGrokConfig, paper_run_steps,
                                                                  projected_cpu_hours)

    cfg = TransformerGrokConfig()
    steps = paper_run_steps(cfg)
    assert steps == {"Fig. 7 left": 100 * 20_000, "Fig. 7 centre": 10 * 3 * 100_000, "Fig. 7 right": 15 * 19 * 100_000}
    assert projected_cpu_hours(cfg, 0.36)["Fig. 7 left"] == 100 * 20_000 * 0.36 / 3600


@pytest.mark.slow
def test_join_transformer_results_equals_one_run_of_all_seeds():
    from dataclasses import replace

    from repro.experiments.liu2022_transformer_and_images import join_transformer_results, run_transformer

    cfg = replace(_tiny_transformer(), n_seeds=3, first_seed=1)
    whole = run_transformer(cfg, progress=False)
    parts = [run_transformer(replace(cfg, n_seeds=1), progress=False),
             run_transformer(replace(cfg, first_seed=2, n_seeds=2), progress=False)]
    joined = join_transformer_results(parts)
    assert joined.config == cfg
    np.testing.assert_allclose(joined.history["val_loss"], whole.history["val_loss"], rtol=1e-5)
    np.testing.assert_allclose(joined.effective_dim, whole.effective_dim, rtol=1e-4)
    assert list(joined.history.run_values["init_seed"]) == [1, 2, 3]
    with pytest.raises(ValueError, match="consecutive seeds"):
        join_transformer_results(parts[::-1])


@pytest.mark.slow
def test_sparse_embedding_snapshots_keep_every_e_s_and_the_snapshots_bits(tmp_path):
    """``snapshot_every`` keeps the embeddings every that many steps (and the last) and changes nothing else:
    e^S at every logged step and the kept snapshots are the bits of the run that keeps every snapshot."""
    from repro.experiments.liu2022_transformer_and_images import run_transformer, transformer_to_arrays

    cfg = _tiny_transformer(steps=35)
    dense = run_transformer(cfg, progress=False)
    sparse = run_transformer(cfg, progress=False, snapshot_every=20)
    assert sparse.effective_dim.tobytes() == dense.effective_dim.tobytes()
    assert list(sparse.embedding_steps) == [0, 20, 35] and dense.embedding_steps is None
    assert sparse.embeddings.tobytes() == dense.embeddings[:, [0, 2, 4]].tobytes()
    assert sparse.embeddings_at(25).tobytes() == dense.embeddings_at(35).tobytes()  # the first snapshot after 25
    a, b = transformer_to_arrays(sparse, every=20), transformer_to_arrays(dense, every=20)
    assert sorted(a) == sorted(b) and all(a[k].tobytes() == b[k].tobytes() for k in a)
    with pytest.raises(ValueError, match="snapshot_every"):
        run_transformer(cfg, progress=False, snapshot_every=0)


@pytest.mark.slow
def test_fig1_plot_shows_three_snapshots_and_refuses_a_step_without_one():
    from repro.experiments.liu2022_transformer_and_images import run_transformer
    from repro.plotting.liu2022_transformer_and_images import plot_fig1

    res = run_transformer(_tiny_transformer(steps=35), progress=False, snapshot_every=20)
    fig = plot_fig1(res, steps=(0, 20, None))
    assert len(fig.axes) == 4 and "35 iterations" in fig.axes[2].get_title()
    assert fig.axes[3].get_xlabel() and fig.axes[3].get_ylabel() == "accuracy"
    with pytest.raises(ValueError, match="snapshot steps"):
        plot_fig1(res, steps=(0, 10, None))


def test_fig1_numbers_agree_with_the_history_they_summarize():
    from repro.experiments.liu2022_transformer_and_images import fig1_numbers, run_transformer, stored_transformer

    res = run_transformer(_tiny_transformer(steps=40, lr_repr=3e-2, lr_dec=1e-2, n_seeds=1), progress=False,
                          snapshot_every=20)
    n = fig1_numbers(res)
    h, ed = res.history, res.effective_dim[0]
    assert n["train_step"] == res.steps_to("train_acc")[0] and n["val_step"] == res.steps_to("val_acc")[0]
    assert n["final_val_acc"] == h["val_acc"][0, -1] and n["ed_start"] == ed[0] and n["ed_end"] == ed[-1]
    assert n["ed_peak"] == ed.max() and n["rise"] == ed.max() / ed[0] and n["end_over_peak"] == ed[-1] / ed.max()
    assert n["circle_fit"] == res.circle_fit(0)[1] and 0 < n["fourier_share"] <= 1
    expected_gap = (n["val_step"] if n["val_step"] >= 0 else 40) - n["train_step"]
    assert n["gap"] == expected_gap
    with pytest.raises(ValueError, match="label"):
        stored_transformer(res.config, "unused", label="transformer-6k")

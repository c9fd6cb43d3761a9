

def test_stored_image_curve_round_trips(tmp_path):
    from dataclasses import replace

    from repro.liu_transformer_images import (plot_image_curve, run_image_phase_diagram, stored_curve_config,
                                              stored_images)
    from repro.store import ResultsStore, history_to_arrays

    cfg = replace(stored_curve_config(), n_seeds=2, steps=30, eval_every=10, n_train=100, n_test=50)
    res = run_image_phase_diagram(cfg, progress=False)
    ResultsStore(tmp_path).get_or_compute(
        cfg, lambda: {k: v for k, v in history_to_arrays(res.history).items() if not k.startswith("param/")},
        label="images")
    loaded, _ = stored_images(cfg, tmp_path)
    assert (loaded.history["val_acc"] == res.history["val_acc"]).all()
    assert (loaded.seed_phases == res.seed_phases).all() and loaded.curve_runs() == res.curve_runs()
    assert len(plot_image_curve(loaded).axes) == 1

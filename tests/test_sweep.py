import numpy as np
import pytest

from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models.networks import EmbedMLPConfig
from repro.training.store import ResultsStore
from repro.training.sweep import bytes_per_run, expand_grid, sweep
from repro.training.trainer import Performance, TrainConfig, train

MODEL = EmbedMLPConfig(hidden=(16, 16))
CFG = TrainConfig(steps=30, lr_repr=1e-2, dtype="float64", device="cpu", eval_every=5)


def _data():
    return build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")


def test_expand_grid_is_cartesian_last_axis_fastest():
    runs = expand_grid({"lr_dec": [1, 2], "wd_dec": [0, 5, 9]})
    assert runs["lr_dec"] == [1, 1, 1, 2, 2, 2] and runs["wd_dec"] == [0, 5, 9, 0, 5, 9]
    with pytest.raises(ValueError, match="steps"):
        expand_grid({"steps": [1]})
    with pytest.raises(ValueError, match="empty"):
        expand_grid({"lr_dec": []})


def test_sweep_equals_individual_runs_and_chunking_is_transparent():
    data = _data()
    axes = {"lr_dec": [1e-3, 1e-2], "wd_dec": [0.0, 2.0]}
    whole = sweep(MODEL, data, CFG, axes, progress=False)
    chunked = sweep(MODEL, data, CFG, axes, chunk_size=3, progress=False)
    assert whole.n_chunks == 1 and chunked.n_chunks == 2
    np.testing.assert_allclose(whole.history["train_loss"], chunked.history["train_loss"], rtol=1e-10)
    single = train(MODEL, data, TrainConfig(**{**CFG.__dict__, "lr_dec": 1e-2, "wd_dec": 2.0}),
                   performance=Performance(progress=False))
    np.testing.assert_allclose(whole.history["train_loss"][3], single["train_loss"][0], rtol=1e-6)
    assert whole.first_steps("train_acc", 0.5).shape == (2, 2)


def test_memory_budget_sets_chunks():
    data = _data()
    per_run = bytes_per_run(MODEL, data, CFG)
    result = sweep(MODEL, data, CFG, {"lr_dec": [1e-3, 2e-3, 3e-3, 4e-3, 5e-3]}, memory_budget_bytes=2 * per_run,
                   progress=False)
    assert result.n_chunks == 3
    with pytest.raises(ValueError, match="chunk_size"):
        sweep(MODEL, data, CFG, {"lr_dec": [1e-3]}, chunk_size=0, progress=False)


def test_resume_loads_finished_chunks(tmp_path, monkeypatch):
    data = _data()
    store = ResultsStore(tmp_path)
    axes = {"lr_dec": [1e-3, 2e-3, 3e-3, 4e-3]}
    import repro.training.sweep as sweep_module

    calls = []
    real_train = sweep_module.train

    def interrupted_train(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the sweep is interrupted during its second chunk
        return real_train(*args, **kwargs)

    monkeypatch.setattr(sweep_module, "train", interrupted_train)
    with pytest.raises(KeyboardInterrupt):
        sweep(MODEL, data, CFG, axes, chunk_size=2, store=store, progress=False)
    monkeypatch.setattr(sweep_module, "train", real_train)
    resumed = sweep(MODEL, data, CFG, axes, chunk_size=2, store=store, progress=False)
    assert resumed.chunks_from_store == 1  # chunk 1 came from the store, only chunk 2 was trained
    fresh = sweep(MODEL, data, CFG, axes, chunk_size=2, progress=False)
    np.testing.assert_allclose(resumed.history["train_loss"], fresh.history["train_loss"], rtol=1e-12)


def test_per_run_training_fraction_masks():
    data = _data()
    result = sweep(MODEL, data, CFG, {"train_fraction": [0.3, 0.8], "data_seed": [0, 1]}, progress=False)
    assert result.shape == (2, 2)
    assert result.history["train_loss"].shape[0] == 4

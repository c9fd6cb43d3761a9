"""Resumable stored runs (issue 32): a run interrupted at an arbitrary step and resumed from its checkpoint equals
the uninterrupted run bit for bit (every recorded array and the final parameters, float64 and float32, full batch
and minibatches with dropout); a checkpoint is never served as a result; the finished entry lists its segments."""
import json
from itertools import count

import numpy as np
import pytest
import torch

from repro.book.runs import format_runs, list_runs, main as runs_main
from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models.networks import EmbedMLPConfig, EncoderTransformerConfig
from repro.training.checkpoint import Checkpointer, reached_step, read_checkpoint
from repro.training.store import ResultsStore, StoreMismatch, UnfinishedRun, history_to_arrays
from repro.training.trainer import Performance, Record, TrainConfig, Until, train

TOY = EmbedMLPConfig(n_symbols=10, d_embed=1, hidden=(16, 16), d_out=30)


class Interrupt(Exception):
    """Stands for whatever stops a process mid-run (Ctrl-C, a wall-time limit, a sleeping laptop)."""


def _toy_data():
    return build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")


def _encoder_setup():
    data = build_task_data(BinaryOpTask("modular_addition", 11), Split(train_fraction=0.8, data_seed=1))
    model = EncoderTransformerConfig(d_vocab=11, d_vocab_out=11, d_model=8, n_heads=2, d_mlp=8, n_layers=1)
    return model, data


def _snapshot(step, views):
    """A callback whose records go into history.extra (a few parameters of every run)."""
    return {"first_params": next(iter(views.values())).reshape(next(iter(views.values())).shape[0], -1)[:, :3].clone()}


def _raising(stop_at: int, on_call: int | None = None):
    """:func:`_snapshot`, raising :class:`Interrupt` at step ``stop_at`` (every time, or on its ``on_call``-th visit)."""
    visits = count(1)

    def callback(step, views):
        if step == stop_at and (on_call is None or next(visits) == on_call):
            raise Interrupt(f"stopped at step {step}")
        return _snapshot(step, views)

    return callback


def _assert_identical(a, b):
    np.testing.assert_array_equal(a.steps, b.steps)
    for part in ("metrics", "extra", "final_params"):
        x, y = getattr(a, part), getattr(b, part)
        assert sorted(x) == sorted(y), part
        for k in x:
            assert x[k].dtype == y[k].dtype and x[k].shape == y[k].shape, (part, k)
            assert x[k].tobytes() == y[k].tobytes(), f"{part}/{k} differs"  # bit for bit (nan included)
    assert a.run_values == b.run_values


def _interrupt_and_resume(tmp_path, model, data, cfg, save_at, stop_at, on_call=None, runs=None, split=None,
                          components=(), performance=None):
    """The uninterrupted run, and the same run interrupted at ``stop_at`` after a checkpoint at ``save_at``, then
    resumed by a fresh Checkpointer (as a new process would); returns both histories and the resuming checkpointer."""
    performance = (Performance() if performance is None else performance).but(progress=False)
    run = lambda callback, checkpoint=None: train(
        model, data, cfg, runs, split=split, record=Record(callback=callback, keep_final_params=True),
        components=components, performance=performance.but(checkpoint=checkpoint))
    reference = run(_snapshot)
    folder = tmp_path / "run.partial"
    with pytest.raises(Interrupt):
        run(_raising(stop_at, on_call), Checkpointer(folder, at_steps=[save_at]))
    assert read_checkpoint(folder) is not None
    resume = Checkpointer(folder)
    resumed = run(_snapshot, resume)
    return reference, resumed, resume


@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("blocks", [None, Performance(block_runs=1, workers=2)], ids=["one-block", "two-blocks"])
def test_full_batch_run_resumes_bit_for_bit(tmp_path, dtype, blocks):
    cfg = TrainConfig(steps=40, lr_repr=1e-2, lr_dec=3e-3, wd_dec=0.1, dtype=dtype, device="cpu")
    reference, resumed, resume = _interrupt_and_resume(tmp_path, TOY, _toy_data(), cfg, save_at=13, stop_at=21,
                                                       runs={"init_seed": [0, 1]}, performance=blocks)
    _assert_identical(reference, resumed)
    assert reference.final_params["embed"].shape == (2, 10, 1)
    assert resume.current_segment()["from_step"] == 13


@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("background", [False, True], ids=["in-block", "background-evaluation"])
def test_minibatch_run_with_dropout_resumes_bit_for_bit(tmp_path, dtype, background):
    """Data order and dropout masks continue where they stopped: the checkpoint (step 9) falls mid-epoch (96
    training samples in batches of 16: 6 steps an epoch), the interruption at step 14 in the next epoch. With the
    evaluations on their own thread the checkpoint still holds every evaluation before its step."""
    model, data = _encoder_setup()
    cfg = TrainConfig(steps=20, batch_size=16, eval_every=2, lr_repr=1e-3, lr_dec=1e-3, wd_dec=1.0, dtype=dtype,
                      device="cpu")
    reference, resumed, _ = _interrupt_and_resume(tmp_path, model, data, cfg, save_at=9, stop_at=14,
                                                  runs={"init_seed": [0, 1], "dropout": [0.3, 0.1]},
                                                  performance=Performance(background_evaluation=background))
    _assert_identical(reference, resumed)
    assert not np.array_equal(reference["train_loss"][0], reference["train_loss"][1])


def test_full_batch_dropout_and_sgd_momentum_with_fixed_norm_resume_bit_for_bit(tmp_path):
    model, data = _encoder_setup()
    cfg = TrainConfig(steps=16, dropout=0.2, dtype="float64", device="cpu")
    _assert_identical(*_interrupt_and_resume(tmp_path / "dropout", model, data, cfg, save_at=5, stop_at=11)[:2])
    cfg = TrainConfig(steps=30, optimizer="sgd", momentum=0.9, lr_repr=1e-2, lr_dec=1e-2, fixed_norm=True,
                      init_scale=2.0, dtype="float32", device="cpu")
    _assert_identical(*_interrupt_and_resume(tmp_path / "sgd", TOY, _toy_data(), cfg, save_at=7, stop_at=19)[:2])


def test_a_block_that_finished_is_not_trained_again(tmp_path):
    """Blocks one after the other: the first finishes (and is saved as finished), the second is interrupted."""
    cfg = TrainConfig(steps=30, lr_repr=1e-2, lr_dec=3e-3, dtype="float64", device="cpu")
    reference, resumed, resume = _interrupt_and_resume(
        tmp_path, TOY, _toy_data(), cfg, save_at=10, stop_at=15, on_call=2, runs={"init_seed": [3, 4]},
        performance=Performance(block_runs=1, workers=1))
    _assert_identical(reference, resumed)
    assert resume.previous["block_done"] == [True, False] and resume.previous["block_steps"] == [30, 10]
    assert reached_step(resume.previous) == 10
    # the segments say what each block did, also where "the step every block has reached" cannot
    first, last = resume.segments(finished=True)
    assert (first["block_steps_from"], first["block_steps_to"]) == ([0, 0], [30, 10])
    assert (last["block_steps_from"], last["block_steps_to"]) == ([30, 10], [30, 30])


def _relation_setup():
    """Five GenEFT runs (mod 3) at encoder rates from fast to slow: with until = decided(0.9) in float64, run 0
    stops at step 400, run 1 at step 500, and the others train to the end (600)."""
    from repro.data.relations import relation_matrix, train_mask
    from repro.models.networks import RelationModelConfig
    from repro.training.relation_runs import relation_task_data

    model = RelationModelConfig(width=10, hidden_layers=2)
    labels = np.stack([relation_matrix("mod3", model.n).ravel()] * 5)
    mask = torch.as_tensor(np.stack([train_mask(model.n**2, 0.75, 0)] * 5))
    runs = {"lr_repr": [3e-2, 1e-2, 3e-3, 1e-3, 1e-4], "lr_dec": [1e-3] * 5, "init_seed": [0] * 5}
    return model, relation_task_data(model, labels), runs, mask


@pytest.mark.slow
@pytest.mark.parametrize("save_at, stop_at", [(450, 550), (200, 525)], ids=["after-a-stop", "before-any-stop"])
@pytest.mark.parametrize("fast_grad", [False, True])
def test_a_run_with_until_resumes_bit_for_bit(tmp_path, save_at, stop_at, fast_grad):
    """Runs that stop early (until) resume too: the checkpoint keeps which runs had stopped and the parameters
    they stopped at, so the resumed run equals the uninterrupted one, whether a run stopped before the
    checkpoint, between it and the interruption, or not at all."""
    from repro.experiments.baek2024_geneft import decided

    model, data, runs, mask = _relation_setup()
    cfg = TrainConfig(steps=600, eval_every=25, dtype="float64", device="cpu")
    reference, resumed, _ = _interrupt_and_resume(
        tmp_path, model, data, cfg, save_at=save_at, stop_at=stop_at, runs=runs, split=(mask, ~mask),
        components=(Until(decided(0.9)),), performance=Performance(fast_grad=fast_grad, fused_optimizer=False))
    _assert_identical(reference, resumed)
    stops = np.isnan(reference["train_acc"]).argmax(1)  # first nan evaluation per run (0: never stopped)
    steps = reference.steps
    assert steps[stops[0]] == 425 and steps[stops[1]] == 525 and (stops[2:] == 0).all()
    with pytest.raises(ValueError, match="resume it with until"):
        folder = tmp_path / "again.partial"
        with pytest.raises(Interrupt):
            train(model, data, cfg, runs=runs, split=(mask, ~mask), record=Record(callback=_raising(stop_at)),
                  components=(Until(decided(0.9)),),
                  performance=Performance(progress=False, checkpoint=Checkpointer(folder, at_steps=[save_at])))
        train(model, data, cfg, runs=runs, split=(mask, ~mask), record=Record(callback=_snapshot),
              performance=Performance(progress=False, checkpoint=Checkpointer(folder)))


def test_checkpoint_refuses_bad_settings():
    with pytest.raises(ValueError, match="every_s"):
        Checkpointer("unused", every_s=-1)
    with pytest.raises(ValueError, match="at_steps"):
        Checkpointer("unused", at_steps=[0])


def test_checkpoint_of_another_shape_is_refused(tmp_path):
    cfg = TrainConfig(steps=20, dtype="float64", device="cpu")
    with pytest.raises(Interrupt):
        train(TOY, _toy_data(), cfg, record=Record(callback=_raising(8)),
              performance=Performance(progress=False, checkpoint=Checkpointer(tmp_path, at_steps=[4])))
    with pytest.raises(ValueError, match="1 runs and 20 steps; this train\\(\\) call has 1 runs and 30 steps"):
        train(TOY, _toy_data(), TrainConfig(steps=30, dtype="float64", device="cpu"),
              performance=Performance(progress=False, checkpoint=Checkpointer(tmp_path)))


def test_every_s_saves_by_the_clock(tmp_path):
    """every_s=0: a save before every step, each replacing the last (one file per block, no older copies)."""
    cfg = TrainConfig(steps=12, dtype="float32", device="cpu")
    with pytest.raises(Interrupt):
        train(TOY, _toy_data(), cfg, record=Record(callback=_raising(7)),
              performance=Performance(progress=False, checkpoint=Checkpointer(tmp_path, every_s=0)))
    assert reached_step(read_checkpoint(tmp_path)) == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == ["block-0.npz", "checkpoint.json"]


def test_progress_bar_shows_the_rate_and_the_time_left(capsys):
    train(TOY, _toy_data(), TrainConfig(steps=20, device="cpu"), performance=Performance(progress=True))
    err = capsys.readouterr().err
    assert "left" in err and "run-step/s" in err


def _stored_run(cfg, stop_at=None):
    """The compute of a resumable stored run (a chapter's main passes its checkpoint on to train the same way)."""
    def compute(checkpoint):
        callback = _snapshot if stop_at is None else _raising(stop_at)
        return history_to_arrays(train(TOY, _toy_data(), cfg, runs={"init_seed": [0, 1]},
                                       record=Record(callback=callback, keep_final_params=True),
                                       performance=Performance(progress=False, checkpoint=checkpoint)))
    return compute


def test_store_resumes_a_run_refuses_its_checkpoint_and_records_the_segments(tmp_path):
    store = ResultsStore(tmp_path / "results", registry=tmp_path / "no-registry")
    seals = count(1)
    store.seal = lambda label: {"label": label, "n": next(seals)}  # which segment's seal the entry keeps
    cfg = TrainConfig(steps=40, lr_repr=1e-2, lr_dec=3e-3, dtype="float32", device="cpu")
    config = {"train": cfg, "seeds": [0, 1]}

    with pytest.raises(Interrupt):  # every_s=0: the checkpoint holds every step before the interruption
        store.get_or_compute(config, _stored_run(cfg, stop_at=17), label="toy", checkpoint_every_s=0)
    partial = store.partial_path(config, "toy")
    assert partial.name == store.path(config, "toy").name + ".partial"
    assert not store.has(config, "toy") and store.load_if_stored(config, "toy") is None
    with pytest.raises(UnfinishedRun, match="reached step 17 of 40 \\(1 segment"):
        store.load(config, "toy")
    [info] = list_runs(store.root)
    assert (info.finished, info.step, info.steps, info.segments) == (False, 17, 40, 1)
    assert info.remaining_s is not None and info.remaining_s > 0
    assert "step 17 of 40 (42%)" in format_runs([info]) and "left (projected)" in format_runs([info])

    # a checkpoint of another config is refused like a stored entry of another config
    other = {"train": cfg, "seeds": [0, 2]}
    partial.rename(store.partial_path(other, "toy"))
    with pytest.raises(StoreMismatch, match=r"checkpoint.s config differs .*seeds\[1\] \(stored 1, requested 2\)"):
        store.get_or_compute(other, _stored_run(cfg), label="toy")
    store.partial_path(other, "toy").rename(partial)

    arrays, manifest = store.get_or_compute(config, _stored_run(cfg), label="toy")
    assert not partial.exists()  # replaced by the finished entry
    reference = history_to_arrays(train(TOY, _toy_data(), cfg, runs={"init_seed": [0, 1]},
                                        record=Record(callback=_snapshot, keep_final_params=True),
                                        performance=Performance(progress=False)))
    assert sorted(arrays) == sorted(reference)
    for k in reference:
        assert arrays[k].tobytes() == np.asarray(reference[k]).tobytes(), k
    segments = manifest["segments"]
    assert [(s["from_step"], s["to_step"]) for s in segments] == [(0, 17), (17, 40)]
    assert {"git_commit", "host", "device", "kernels", "wall_time_s", "started"} <= set(segments[0])
    assert manifest["sealed"] == {"label": "toy", "n": 1}  # the first segment's seal, kept through the checkpoint
    assert manifest["wall_time_s"] == pytest.approx(sum(s["wall_time_s"] for s in segments), abs=0.01)
    assert json.loads((store.path(config, "toy") / "manifest.json").read_text())["segments"] == segments

    finished = list_runs(store.root)
    assert [(r.finished, r.steps, r.segments) for r in finished] == [(True, 40, 2)]


def test_runs_command_lists_the_store(tmp_path, capsys):
    store = ResultsStore(tmp_path, registry=tmp_path / "no-registry")
    store.save({"a": 1}, {"x": np.arange(3)}, label="old", sealed={})
    assert runs_main(["--store", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "finished    old-" in out and "1 finished, 0 unfinished" in out
    with pytest.raises(FileNotFoundError, match="store="):
        list_runs(tmp_path / "missing")


def _stop_after_checkpoint(monkeypatch, at_step: int):
    """Checkpointer.save saves, then stops the process (Interrupt) right after the checkpoint at ``at_step``;
    returns the real save, to put back before the rerun."""
    real_save = Checkpointer.save

    def save_then_stop(self, block, step, arrays, **kw):
        real_save(self, block, step, arrays, **kw)
        if step == at_step:
            raise Interrupt(f"the process stops after its checkpoint at step {at_step}")

    monkeypatch.setattr(Checkpointer, "save", save_then_stop)
    return real_save


@pytest.mark.slow
def test_a_chapters_stored_run_resumes_through_its_command(tmp_path, monkeypatch):
    """``python -m repro.experiments.power2022_what_is_grokking --store DIR --run division-wd1`` (at a tiny config:
    division with the warm-up), stopped right after its checkpoint at step 15 and run again, stores what one
    uninterrupted run stores, in two segments."""
    from dataclasses import replace

    from repro.experiments import power2022_what_is_grokking as power
    from repro.experiments.power2022_what_is_grokking import IntroConfig, intro_to_arrays, run_intro

    cfg = replace(IntroConfig(), p=11, d_model=16, n_heads=2, d_mlp=32, batch_size=32, steps=40, eval_every=5,
                  n_seeds=2)
    assert cfg.operation == "modular_division" and cfg.warmup_steps == 10
    monkeypatch.setitem(power.STORED_RUNS, "division-wd1", ("power2022-division-wd1", lambda: cfg))
    real_save = _stop_after_checkpoint(monkeypatch, 15)
    # a checkpoint before every step
    command = ["--store", str(tmp_path), "--run", "division-wd1", "--checkpoint-minutes", "1e-9"]
    with pytest.raises(Interrupt):
        power.main(command)
    with pytest.raises(UnfinishedRun, match="step 15 of 40"):
        ResultsStore(tmp_path).load(cfg, "power2022-division-wd1")
    assert ResultsStore(tmp_path).progress(cfg, "power2022-division-wd1") == "unfinished: step 15 of 40 (1 segment(s))"
    assert ResultsStore(tmp_path).progress(replace(cfg, steps=41), "power2022-division-wd1") == "not started"
    monkeypatch.setattr(Checkpointer, "save", real_save)
    assert power.main(command) == 0
    assert ResultsStore(tmp_path).progress(cfg, "power2022-division-wd1") == "stored"
    arrays, manifest = ResultsStore(tmp_path).load(cfg, "power2022-division-wd1")
    expected = intro_to_arrays(run_intro(cfg, progress=False))
    assert sorted(arrays) == sorted(expected)
    for k in expected:
        assert arrays[k].tobytes() == np.asarray(expected[k]).tobytes(), k
    assert [(s["from_step"], s["to_step"]) for s in manifest["segments"]] == [(0, 15), (15, 40)]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []


@pytest.mark.slow
def test_the_image_run_resumes_through_its_command(tmp_path, monkeypatch):
    """``python -m repro.experiments.liu2022_transformer_and_images --runs images`` (tiny config), stopped after its
    checkpoint at step 20 and run again, stores what one uninterrupted run stores (minibatches, several seeds)."""
    from dataclasses import replace

    from repro.experiments import liu2022_transformer_and_images as liu
    from repro.training.store import history_to_arrays

    cfg = replace(liu.stored_curve_config(), n_seeds=2, steps=40, eval_every=10, n_train=100, n_test=50)
    monkeypatch.setattr(liu, "stored_curve_config", lambda: cfg)
    real_save = _stop_after_checkpoint(monkeypatch, 20)
    command = ["--store", str(tmp_path), "--runs", "images", "--checkpoint-minutes", "1e-9"]
    with pytest.raises(Interrupt):
        liu.main(command)
    monkeypatch.setattr(Checkpointer, "save", real_save)
    assert liu.main(command) == 0
    arrays, manifest = ResultsStore(tmp_path).load(cfg, "images")
    expected = {k: v for k, v in history_to_arrays(liu.run_image_phase_diagram(cfg, progress=False).history).items()
                if not k.startswith("param/")}
    assert sorted(arrays) == sorted(expected)
    for k in expected:
        assert arrays[k].tobytes() == np.asarray(expected[k]).tobytes(), k
    assert [(s["from_step"], s["to_step"]) for s in manifest["segments"]] == [(0, 20), (20, 40)]


def _sparse_snapshot(step, views):
    """A callback with one entry at every evaluation step and one every 10 steps (a snapshot)."""
    out = _snapshot(step, views)
    if step % 10 == 0:
        out["snapshot"] = next(iter(views.values())).reshape(out["first_params"].shape[0], -1)[:, :5].clone()
    return out


@pytest.mark.parametrize("blocks", [None, Performance(block_runs=1, workers=2)], ids=["one-block", "two-blocks"])
def test_a_callback_entry_kept_at_some_steps_is_recorded_there_and_resumes(tmp_path, blocks):
    """An entry the callback returns at some evaluation steps only is recorded at those steps
    (``History.extra_steps``), round-trips through the store's arrays, and resumes bit for bit from a checkpoint
    taken between two of its steps; the dense entries are as without it."""
    from repro.training.store import history_from_arrays, history_to_arrays

    cfg = TrainConfig(steps=34, eval_every=2, lr_repr=1e-2, lr_dec=3e-3, wd_dec=0.1, device="cpu")
    performance = (Performance() if blocks is None else blocks).but(progress=False)
    run = lambda callback, checkpoint=None: train(TOY, _toy_data(), cfg, {"init_seed": [0, 1]},
                                                  record=Record(callback=callback, keep_final_params=True),
                                                  performance=performance.but(checkpoint=checkpoint))
    dense = run(_snapshot)
    reference = run(_sparse_snapshot)
    np.testing.assert_array_equal(reference.extra_steps["snapshot"], [0, 10, 20, 30])  # 34, the last, is not a tenth
    assert "first_params" not in reference.extra_steps and reference.extra["snapshot"].shape == (2, 4, 5)
    assert reference.extra["first_params"].tobytes() == dense.extra["first_params"].tobytes()
    np.testing.assert_array_equal(reference.extra["snapshot"][:, :, :3], dense.extra["first_params"][:, [0, 5, 10, 15]])
    back = history_from_arrays(history_to_arrays(reference))
    np.testing.assert_array_equal(back.extra_steps["snapshot"], reference.extra_steps["snapshot"])

    folder = tmp_path / "run.partial"

    def raising(step, views):
        if step == 24:
            raise Interrupt("stopped")
        return _sparse_snapshot(step, views)

    with pytest.raises(Interrupt):
        run(raising, Checkpointer(folder, at_steps=[15]))
    resumed = run(_sparse_snapshot, Checkpointer(folder))
    _assert_identical(reference, resumed)
    np.testing.assert_array_equal(resumed.extra_steps["snapshot"], reference.extra_steps["snapshot"])


def test_a_callback_that_records_nothing_before_the_checkpoint_resumes_in_place(tmp_path):
    """Steps that recorded no extra still hold their place: an entry first returned after the resume is filed at
    its own steps."""
    def late(step, views):
        return {} if step < 20 else {"late": next(iter(views.values())).reshape(2, -1)[:, :2].clone()}

    def raising(step, views):
        if step == 24:
            raise Interrupt("stopped")
        return late(step, views)

    cfg = TrainConfig(steps=30, eval_every=2, lr_repr=1e-2, lr_dec=3e-3, wd_dec=0.1, device="cpu")
    run = lambda callback, checkpoint=None: train(TOY, _toy_data(), cfg, {"init_seed": [0, 1]},
                                                  record=Record(callback=callback),
                                                  performance=Performance(progress=False, checkpoint=checkpoint))
    reference = run(late)
    np.testing.assert_array_equal(reference.extra_steps["late"], np.arange(20, 31, 2))
    folder = tmp_path / "run.partial"
    with pytest.raises(Interrupt):
        run(raising, Checkpointer(folder, at_steps=[15]))
    resumed = run(late, Checkpointer(folder))
    _assert_identical(reference, resumed)
    np.testing.assert_array_equal(resumed.extra_steps["late"], reference.extra_steps["late"])

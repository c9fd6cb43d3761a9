"""The trainer's component API (issue 65): train() takes its paper-specific parts as components, each once; the
store keys of training configs are as before the split."""
import numpy as np
import pytest

from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models.networks import EmbedMLPConfig
from repro.training.store import config_key
from repro.training.sweep import train_key
from repro.training.trainer import (EvalSteps, LinfPenalty, Performance, Record, Regularizer, StepDecay, TrainConfig,
                                    Until, train)

TOY = EmbedMLPConfig(n_symbols=10, d_embed=1, hidden=(8,), d_out=30)


def _data():
    return build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=0), target="regression")


def test_train_keys_are_those_of_the_stored_runs():
    """The keys of sweep chunks, which hash the training config, did not move when the step decay and the ℓ∞
    penalty left TrainConfig for components (the values: config_key of TrainConfig before, 2026-12-01)."""
    assert config_key(train_key(TrainConfig())) == "ad016b5c84bc6047"
    assert config_key(train_key(TrainConfig(), (LinfPenalty(1e-4), StepDecay((3, 5), 0.2)))) == "bc5a4df8daf382aa"


def test_a_regularizer_is_a_plug_in():
    """A new gradient term is a Regularizer subclass passed as a component: here a constant pull that, added to
    the gradient of plain GD, moves every parameter by lr·c per step beyond the data gradient's move."""
    class Pull(Regularizer):
        def add(self, grads, views, log_scale):
            for name in grads:
                grads[name] = grads[name] + 0.5

    cfg = TrainConfig(steps=3, optimizer="gd", lr_repr=0.1, lr_dec=0.1, eval_every=3, device="cpu", dtype="float64")
    quiet = Performance(progress=False)
    plain = train(TOY, _data(), cfg, record=Record(keep_final_params=True), performance=quiet)
    pulled = train(TOY, _data(), cfg, record=Record(keep_final_params=True), components=(Pull(),), performance=quiet)
    moved = plain.final_params["embed"] - pulled.final_params["embed"]
    assert np.all(moved > 0.1) and np.all(moved < 0.3)  # 3 steps x 0.1 x 0.5, less the data gradient's response
    with pytest.raises(ValueError, match="two Pull"):
        train(TOY, _data(), cfg, components=(Pull(), Pull()), performance=quiet)


def test_components_are_checked():
    cfg = TrainConfig(steps=4, device="cpu")
    with pytest.raises(ValueError, match="allowed: Until"):
        train(TOY, _data(), cfg, components=(object(),), performance=Performance(progress=False))
    with pytest.raises(ValueError, match="two EvalSteps"):
        train(TOY, _data(), cfg, components=(EvalSteps([0]), EvalSteps([1])), performance=Performance(progress=False))
    with pytest.raises(ValueError, match="progress"):
        Performance(progress="yes")


def test_a_component_of_none_is_no_component():
    cfg = TrainConfig(steps=6, eval_every=2, device="cpu", dtype="float64")
    quiet = Performance(progress=False)
    plain = train(TOY, _data(), cfg, record=Record(keep_final_params=True), performance=quiet)
    same = train(TOY, _data(), cfg, record=Record(keep_final_params=True), components=(Until(None), EvalSteps(None)),
                 performance=quiet.but(desc="again"))
    np.testing.assert_array_equal(plain.steps, same.steps)
    for k in plain.metrics:
        assert plain.metrics[k].tobytes() == same.metrics[k].tobytes()
    assert plain.final_params["embed"].tobytes() == same.final_params["embed"].tobytes()

"""The trainer's component API (issue 65): train() takes its paper-specific parts as components, each once; the
store keys of training configs are as before the split."""
import numpy as np
import pytest

from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models.networks import EmbedMLPConfig
from repro.training.store import config_key
from repro.training.trainer import EvalSteps, Performance, Record, TrainConfig, Until, train

TOY = EmbedMLPConfig(n_symbols=10, d_embed=1, hidden=(8,), d_out=30)


def _data():
    return build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=0), target="regression")


def test_train_config_keys_are_those_of_the_stored_runs():
    """TrainConfig's fields (and so the keys of sweep chunks, which hash it) did not move in the split."""
    assert config_key(TrainConfig()) == "ad016b5c84bc6047"
    assert config_key(TrainConfig(linf_reg=1e-4, lr_decay_steps=(3, 5), lr_decay_factor=0.2)) == "bc5a4df8daf382aa"


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

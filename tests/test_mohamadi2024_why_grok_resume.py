"""The stored regression runs of the chapter "Why do you grok?" resume through their command: stopped right after a
checkpoint and run again, they store what one uninterrupted run stores (the eNTK at init included: the recorder
takes K_0 from the init, not from its first call)."""
import numpy as np
import pytest

from repro.experiments import mohamadi2024_why_grok as mw
from repro.training.checkpoint import Checkpointer
from repro.training.store import ResultsStore, UnfinishedRun


class Interrupt(Exception):
    """Stands for whatever stops a process mid-run."""


@pytest.mark.slow
@pytest.mark.parametrize("parametrization", ["standard", "ntk"])
def test_regression_resumes_through_its_command(tmp_path, monkeypatch, parametrization):
    cfg = mw.RegressionConfig(p=5, init_scales=(0.5, 0.1), init_seeds=(0, 1), lr=0.3, steps=40, eval_every=5,
                              ntk_points=30, ntk_every=10, device="cpu", parametrization=parametrization)
    monkeypatch.setattr(mw, "fig2_regression_config", lambda: cfg)
    real_save = Checkpointer.save

    def save_then_stop(self, block, step, arrays, **kw):
        real_save(self, block, step, arrays, **kw)
        if step == 15:
            raise Interrupt("the process stops after its checkpoint at step 15")

    monkeypatch.setattr(Checkpointer, "save", save_then_stop)
    command = ["--store", str(tmp_path), "--only", "regression-p47", "--checkpoint-minutes", "1e-9"]
    with pytest.raises(Interrupt):
        mw.main(command)
    with pytest.raises(UnfinishedRun, match="step 15 of 40"):
        ResultsStore(tmp_path).load(cfg, "regression-p47")
    monkeypatch.setattr(Checkpointer, "save", real_save)
    assert mw.main(command) == 0
    stored, manifest = mw.stored_regression(cfg, tmp_path, "regression-p47")
    expected = mw.train_regression(cfg)
    for name in mw.RegressionResult.ARRAYS:
        a, b = np.asarray(getattr(stored, name)), np.asarray(getattr(expected, name))
        assert a.tobytes() == b.tobytes(), name
    assert [(s["from_step"], s["to_step"]) for s in manifest["segments"]] == [(0, 15), (15, 40)]

"""repro.training.sweep on a Dask cluster (the optional ``cluster`` extra): a LocalCluster of 2 worker processes
gives the same histories as the in-process sweep, writes every chunk to the store, survives a killed
worker, and a sweep interrupted on the cluster resumes in-process with only the missing chunks."""
import json
import os
import signal
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from repro.book.sweep_cli import connect
from repro.data.tasks import BinaryOpTask, Split, build_task_data
from repro.models.networks import EmbedMLPConfig
from repro.training.store import ResultsStore
from repro.training.sweep import check_client, sweep
from repro.training.trainer import TrainConfig

MODEL = EmbedMLPConfig(hidden=(32, 32))
AXES = {"lr_dec": [1e-3, 2e-3, 3e-3, 4e-3], "wd_dec": [0.0, 1.0]}


def _data():
    return build_task_data(BinaryOpTask("addition", 10), Split(train_count=45, data_seed=58), target="regression")


def _cfg(steps):
    return TrainConfig(steps=steps, lr_repr=1e-2, dtype="float64", device="cpu", eval_every=10)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster:
        yield cluster


def _entries(root):
    return sorted(p.name for p in root.glob("grid-*") if (p / "manifest.json").exists())


def _assert_same(a, b):
    for key in a.history.metrics:
        x, y = a.history.metrics[key], b.history.metrics[key]
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-300, err_msg=key)


@pytest.mark.slow
def test_distributed_sweep_equals_in_process_and_stores_every_chunk(cluster, tmp_path):
    data, cfg = _data(), _cfg(60)
    local = sweep(MODEL, data, cfg, AXES, chunk_size=2, progress=False)
    with distributed.Client(cluster) as client:
        remote = sweep(MODEL, data, cfg, AXES, chunk_size=2, store=ResultsStore(tmp_path), label="grid",
                       progress=False, client=client)
    assert remote.n_chunks == 4 and remote.chunks_from_store == 0
    _assert_same(local, remote)
    assert len(_entries(tmp_path)) == 4
    # a second distributed call serves every chunk from the store
    with distributed.Client(cluster) as client:
        again = sweep(MODEL, data, cfg, AXES, chunk_size=2, store=ResultsStore(tmp_path), label="grid",
                      progress=False, client=client)
    assert again.chunks_from_store == 4
    _assert_same(local, again)


def _checkpointed_chunk(root, below: int):
    """(worker address, step) of a chunk that a worker is training and has checkpointed at a step in [1, below)."""
    for folder in root.glob("grid-*.partial"):
        try:
            state = json.loads((folder / "checkpoint.json").read_text())
        except (OSError, ValueError):  # not written yet, or just finished and removed
            continue
        step = min(state["block_steps"])
        if 1 <= step < below:
            return state["segments"][-1]["dask_worker"], step
    return None


@pytest.mark.slow
def test_killed_worker_and_resume_on_a_laptop(tmp_path):
    data, cfg = _data(), _cfg(1000)  # chunks long enough to kill a worker in the middle
    reference = sweep(MODEL, data, cfg, AXES, chunk_size=1, progress=False)
    store = ResultsStore(tmp_path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        box = {}
        # chunks checkpoint every 20 ms (issue 32), so the killed worker's chunk has a checkpoint to resume from
        thread = threading.Thread(target=lambda: box.setdefault("result", sweep(
            MODEL, data, cfg, AXES, chunk_size=1, store=store, label="grid", progress=False, client=client,
            checkpoint_every_s=0.02)))
        thread.start()
        deadline = time.monotonic() + 120
        while (found := _checkpointed_chunk(tmp_path, below=500)) is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert found is not None, "no chunk was checkpointed mid-run"
        worker, step_at_kill = found
        done_at_kill = len(_entries(tmp_path))
        os.kill(pids[worker], signal.SIGKILL)  # a worker dies mid-chunk; its nanny restarts it
        thread.join(timeout=300)
    assert done_at_kill < 8, "the worker must be killed while chunks were still training"
    result = box["result"]
    _assert_same(reference, result)  # Dask recomputed the lost chunk: the sweep completed, same numbers
    assert len(_entries(tmp_path)) == 8 and not list(tmp_path.glob("*.partial"))
    # the lost chunk resumed from its checkpoint (at or after the step seen before the kill), not from step 0
    segments = [json.loads((tmp_path / name / "manifest.json").read_text())["segments"] for name in _entries(tmp_path)]
    resumed = [s for s in segments if len(s) > 1]
    assert len(resumed) == 1 and resumed[0][0]["dask_worker"] == worker
    assert resumed[0][1]["from_step"] == resumed[0][0]["to_step"] >= step_at_kill and resumed[0][-1]["to_step"] == 1000
    # an interrupted sweep: remove some chunks as if the cluster had gone down, then resume in-process
    for name in _entries(tmp_path)[:3]:
        for f in (tmp_path / name).iterdir():
            f.unlink()
        (tmp_path / name).rmdir()
    resumed = sweep(MODEL, data, cfg, AXES, chunk_size=1, store=store, label="grid", progress=False)
    assert resumed.chunks_from_store == 5  # only the 3 missing chunks were trained
    _assert_same(reference, resumed)


@pytest.mark.slow
def test_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="could not reach the Dask scheduler at tcp://127.0.0.1:9"):
        connect("tcp://127.0.0.1:9", timeout=2)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as empty, \
            distributed.Client(empty) as client:
        with pytest.raises(ValueError, match="has no workers"):
            check_client(client)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as one, \
            distributed.Client(one) as client:
        with pytest.raises(ValueError, match="not writable by every Dask worker"):
            check_client(client, ResultsStore(blocker / "store"))


@pytest.mark.slow
def test_sweep_cli_runs_a_chapter_sweep_on_a_local_cluster(tmp_path, capsys, monkeypatch):
    from repro.book.sweep_cli import main

    monkeypatch.setenv("REPRO_PROGRESS", "0")
    monkeypatch.setenv("REPRO_SCALE", "book")  # main() sets REPRO_SCALE; monkeypatch restores it afterwards
    assert main(["liu2022_fig6a", "--local", "2", "--store", str(tmp_path), "--scale", "smoke"]) == 0
    assert "phase counts" in capsys.readouterr().out
    assert list(tmp_path.glob("liu2022_fig6a-*/manifest.json"))
    with pytest.raises(SystemExit):  # argparse error naming the unreachable scheduler
        main(["liu2022_fig6a", "--scheduler", "tcp://127.0.0.1:9", "--store", str(tmp_path)])
    assert "could not reach the Dask scheduler" in capsys.readouterr().err

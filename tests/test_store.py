import json
import os
from dataclasses import dataclass

import numpy as np
import pytest

from repro.training.store import ResultsStore, StoreMismatch, config_key, history_from_arrays, history_to_arrays
from repro.training.trainer import History, TrainConfig


@dataclass(frozen=True)
class Cfg:
    lr: float = 1e-3
    steps: int = 10
    grid: tuple = (1, 2)


def test_roundtrip_with_manifest(tmp_path):
    store = ResultsStore(tmp_path)
    arrays = {"x": np.arange(5.0), "y": np.eye(2)}
    folder = store.save(Cfg(), arrays, label="toy", wall_time_s=1.5)
    loaded, manifest = store.load(Cfg(), label="toy")
    assert np.array_equal(loaded["x"], arrays["x"]) and np.array_equal(loaded["y"], arrays["y"])
    for key in ("package_version", "git_commit", "git_dirty", "torch_version", "device", "wall_time_s", "arrays_sha256",
                "schema"):
        assert key in manifest
    from repro.core import envlock

    # the environment the run was made in: the lock's digest, and whether this environment matched it
    assert manifest["environment"] == envlock.stamp()
    assert manifest["environment"]["lock"] == envlock.digest(envlock.read_lock())
    assert json.loads((folder / "config.json").read_text())["config"]["lr"] == 1e-3
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_key_depends_on_config():
    assert config_key(Cfg()) == config_key(Cfg())
    assert config_key(Cfg()) != config_key(Cfg(lr=2e-3))
    assert config_key(TrainConfig()) != config_key(TrainConfig(steps=2))


def test_mismatched_config_is_refused(tmp_path):
    store = ResultsStore(tmp_path)
    folder = store.save(Cfg(), {"x": np.zeros(2)})
    # Tamper: the entry's stored config no longer matches the key it is filed under.
    cfg_file = folder / "config.json"
    data = json.loads(cfg_file.read_text())
    data["config"]["lr"] = 5.0
    cfg_file.write_text(json.dumps(data))
    with pytest.raises(StoreMismatch, match="config.lr"):
        store.load(Cfg())


def test_corrupted_arrays_are_refused(tmp_path):
    store = ResultsStore(tmp_path)
    folder = store.save(Cfg(), {"x": np.zeros(3)})
    (folder / "arrays.npz").write_bytes(b"garbage")
    with pytest.raises(StoreMismatch, match="hash"):
        store.load(Cfg())


def test_missing_entry(tmp_path):
    with pytest.raises(FileNotFoundError):
        ResultsStore(tmp_path).load(Cfg())


def test_object_arrays_are_rejected(tmp_path):
    with pytest.raises(TypeError, match="pickles"):
        ResultsStore(tmp_path).save(Cfg(), {"x": np.array([{"a": 1}], dtype=object)})


def test_atomic_write_leaves_nothing_on_failure(tmp_path, monkeypatch):
    store = ResultsStore(tmp_path)
    real_rename = os.rename

    def broken_rename(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "rename", broken_rename)
    with pytest.raises(OSError):
        store.save(Cfg(), {"x": np.zeros(2)})
    monkeypatch.setattr(os, "rename", real_rename)
    assert list(tmp_path.iterdir()) == []
    assert not store.has(Cfg())


def test_get_or_compute_computes_once(tmp_path):
    store = ResultsStore(tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return {"x": np.ones(2)}

    store.get_or_compute(Cfg(), compute)
    arrays, _ = store.get_or_compute(Cfg(), compute)
    assert len(calls) == 1 and arrays["x"].sum() == 2


def test_history_roundtrip(tmp_path):
    h = History(steps=np.array([0, 5]), metrics={"train_acc": np.array([[0.1, 0.9]])},
                extra={"emb": np.zeros((1, 2, 3))}, run_values={"lr_dec": [1e-3], "init_seed": [4]})
    store = ResultsStore(tmp_path)
    store.save(Cfg(), history_to_arrays(h))
    back = history_from_arrays(store.load(Cfg())[0])
    assert np.array_equal(back["train_acc"], h["train_acc"]) and back.run_values["init_seed"] == [4]


def test_require_stored_names_the_command(tmp_path):
    from repro.training.store import provenance_line, require_stored

    with pytest.raises(FileNotFoundError, match=r"stored Fig\. 9 run is missing: run `python -m repro.x --store d`"):
        require_stored(None, "Fig. 9 run", "python -m repro.x --store d", "a minute")
    store = ResultsStore(tmp_path)
    _, manifest = store.get_or_compute(Cfg(), lambda: {"a": np.arange(3)})
    pair = require_stored((1, manifest), "Fig. 9 run", "cmd", "a minute")
    assert pair[0] == 1
    line = provenance_line(manifest)
    assert line.startswith("stored run: ") and f"torch {manifest['torch_version']}" in line
    assert line.endswith(f"commit {manifest['git_commit'][:10]}")


def test_load_stored_prints_provenance_then_glues_the_minutes(tmp_path, monkeypatch, capsys):
    import myst_nb

    from repro.training.store import load_stored, provenance_line, stored_minutes

    glued = []
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.append((name, value, display)))
    store = ResultsStore(tmp_path)
    _, manifest = store.get_or_compute(Cfg(), lambda: {"a": np.arange(3)})
    manifest = dict(manifest, wall_time_s=2700.0)
    result, back = load_stored((7, manifest), "Fig. 9 run", "cmd", "a minute", glue_minutes="fig9_minutes")
    assert (result, back) == (7, manifest)
    assert capsys.readouterr().out == provenance_line(manifest) + "\n"
    assert glued == [("fig9_minutes", "45", False)] and stored_minutes(manifest) == "45"
    load_stored((7, manifest), "Fig. 9 run", "cmd", "a minute")  # no glue asked for: none made
    assert len(glued) == 1
    with pytest.raises(FileNotFoundError, match=r"stored Fig\. 9 run is missing: run `cmd`"):
        load_stored(None, "Fig. 9 run", "cmd", "a minute", glue_minutes="fig9_minutes")
    with pytest.raises(ValueError, match="glue_minutes=''"):
        load_stored((7, manifest), "Fig. 9 run", "cmd", "a minute", glue_minutes="")


def test_store_parser_requires_the_store_folder(capsys):
    from repro.training.store import store_parser

    parser = store_parser("repro.example", "An example.")
    parser.add_argument("--only", choices=("a", "b"))
    args = parser.parse_args(["--store", "book/_results", "--only", "a"])
    assert (args.store, args.only) == ("book/_results", "a")
    with pytest.raises(SystemExit):
        parser.parse_args([])
    assert "--store" in capsys.readouterr().err and parser.prog == "python -m repro.example"


def test_config_key_does_not_depend_on_the_last_bits_of_a_computed_grid(tmp_path):
    """``10 ** np.linspace`` gives 1e-05 on one CPU and 9.999999999999999e-06 on another: one experiment, one key."""
    from repro.training.store import ResultsStore, config_key

    assert config_key({"lr": [1e-05, 0.1]}) == config_key({"lr": [9.999999999999999e-06, 0.1]})
    assert config_key({"lr": 1e-05}) != config_key({"lr": 1.0001e-05})  # a different experiment stays different
    store = ResultsStore(tmp_path)
    store.save({"lr": 9.999999999999999e-06}, {"x": np.arange(3)})
    arrays, _ = store.load({"lr": 1e-05})
    np.testing.assert_array_equal(arrays["x"], np.arange(3))


def test_rekey_moves_an_entry_to_the_key_of_its_config_with_new_fields(tmp_path):
    import dataclasses
    import json

    from repro.training.store import ResultsStore, StoreMismatch

    @dataclasses.dataclass(frozen=True)
    class Old:
        a: int = 1

    @dataclasses.dataclass(frozen=True)
    class Old2:  # the same class after it gained field b (canonical names the class: rename for the test)
        a: int = 1
        b: str = "new"

    store = ResultsStore(tmp_path)
    folder = store.save(Old(), {"x": np.arange(3)}, label="run")
    cfg = json.loads((folder / "config.json").read_text())
    cfg["config"]["__class__"] = "Old2"  # as if the class had always been called so
    (folder / "config.json").write_text(json.dumps(cfg))
    old_key = folder.name.split("-")[-1]
    with pytest.raises(StoreMismatch, match="added value"):
        store.rekey(Old2(b="other"), "run", old_key, {"b": "old"}, "test")
    with pytest.raises(StoreMismatch, match="another config"):
        store.rekey(Old2(a=2, b="old"), "run", old_key, {"b": "old"}, "test")
    new = store.rekey(Old2(b="old"), "run", old_key, {"b": "old"}, "fields added")
    assert not folder.exists()
    arrays, manifest = store.load(Old2(b="old"), "run")
    assert arrays["x"].tolist() == [0, 1, 2]
    assert manifest["rekeyed"]["from_key"] == old_key and manifest["rekeyed"]["fields_added"] == {"b": "old"}
    assert new == store.path(Old2(b="old"), "run")

"""Tests of repro.core.files: atomic writes (a reader sees the old file or the new one, never half of one) and
deterministic JSON."""
import json
import os

import pytest

from repro.core import files
from repro.core.files import write_bytes_atomic, write_json_atomic


def test_write_bytes_creates_folders_and_replaces_without_leftovers(tmp_path):
    path = tmp_path / "a" / "b" / "data.bin"
    write_bytes_atomic(path, b"first")
    assert path.read_bytes() == b"first"
    write_bytes_atomic(str(path), b"second, longer")  # str paths too
    assert path.read_bytes() == b"second, longer"
    assert sorted(p.name for p in path.parent.iterdir()) == ["data.bin"]  # no temp file left


def test_a_failed_write_keeps_the_old_file_and_removes_the_temp(tmp_path, monkeypatch):
    path = tmp_path / "data.bin"
    write_bytes_atomic(path, b"old")

    def fail(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_bytes_atomic(path, b"new")
    monkeypatch.undo()
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["data.bin"]


def test_a_failed_write_of_a_new_file_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", lambda src, dst: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):  # BaseException too: an interrupted write cleans up
        write_bytes_atomic(tmp_path / "new.bin", b"x")
    monkeypatch.undo()
    assert not os.listdir(tmp_path)


def test_json_is_deterministic_and_round_trips(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    payload = {"z": [1, 2.5, None], "a": {"y": "é", "b": True}}
    write_json_atomic(a, payload)
    write_json_atomic(b, dict(reversed(list(payload.items()))))  # insertion order does not matter
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text()
    assert text.endswith("}\n") and text.index('"a"') < text.index('"z"')  # sorted keys, final newline
    assert json.loads(text) == payload
    with pytest.raises(TypeError):  # not JSON: nothing is written
        write_json_atomic(tmp_path / "c.json", {"x": object()})
    assert not (tmp_path / "c.json").exists()

"""Atomic file writes (a reader never sees half a file), and the paper data shipped with the package
(core layer: no repro imports)."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` via a temp file in the same folder and ``os.replace``: readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json_atomic(path: str | os.PathLike, payload) -> None:
    """Write JSON deterministically (sorted keys, fixed indent), atomically."""
    write_bytes_atomic(path, (json.dumps(payload, indent=2, sort_keys=True) + "\n").encode())


def write_notebook_atomic(path: str | os.PathLike, nb) -> None:
    """Write a notebook as ``nbformat.write`` would (its text and a final newline), atomically."""
    import nbformat

    text = nbformat.writes(nb)
    write_bytes_atomic(path, (text if text.endswith("\n") else text + "\n").encode("utf8"))


DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "official"  # the data layer's files (a path, not an import)
# What every data file must say about where its numbers come from (``commit`` may be null when unknown).
PROVENANCE_KEYS = ("what", "repository", "files", "commit", "derived")


def load_paper_data(name: str):
    """The ``data`` of ``repro/data/official/<name>.json``: paper or official-code data (e.g. official phase maps),
    kept as files with a provenance header rather than as code literals. Raises if the file is missing
    or its header lacks a field of :data:`PROVENANCE_KEYS`."""
    available = sorted(p.stem for p in DATA_DIR.glob("*.json"))
    if name not in available:
        raise ValueError(f"name={name!r} is not allowed: name must be one of {', '.join(available)}.")
    with open(DATA_DIR / f"{name}.json") as f:
        doc = json.load(f)
    provenance = doc.get("provenance", {})
    missing = [k for k in PROVENANCE_KEYS if k not in provenance or (k != "commit" and not provenance[k])]
    if missing or "data" not in doc:
        raise ValueError(f"data file {name}.json must have 'data' and a 'provenance' header with "
                         f"{', '.join(PROVENANCE_KEYS)}; it lacks {missing + ([] if 'data' in doc else ['data'])}.")
    return doc["data"]

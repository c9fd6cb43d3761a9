"""Atomic file writes: a reader never sees half a file (core layer: no repro imports)."""
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

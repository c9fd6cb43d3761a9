"""Where tensors live and in what precision: the one resolution of the configs' ``device`` field ("auto",
"cpu" or "cuda") and ``dtype`` field ("float32" or "float64")."""
from __future__ import annotations

import torch

from repro.core.validation import check_choice

DEVICES = ("auto", "cpu", "cuda")
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def check_device(name: str, field: str = "device") -> None:
    """Raise a ValueError naming ``field`` unless ``name`` is one of :data:`DEVICES` and usable here."""
    check_choice(field, name, DEVICES)
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"{field}='cuda' is not allowed here: no CUDA device is available; use 'auto' or 'cpu'.")


def resolve_device(name: str) -> torch.device:
    """The torch device for ``name``: "auto" is CUDA when present, else the CPU."""
    check_device(name)
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def resolve_dtype(name: str, field: str = "dtype") -> torch.dtype:
    """The torch dtype for ``name`` ("float32" or "float64"); anything else is a ValueError naming ``field``."""
    check_choice(field, name, tuple(DTYPES))
    return DTYPES[name]

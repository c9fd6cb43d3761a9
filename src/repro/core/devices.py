"""Where tensors live and in what precision: the one resolution of the configs' ``device`` field ("auto",
"cpu" or "cuda") and ``dtype`` field ("float32" or "float64")."""
from __future__ import annotations

import os

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
    device = torch.device(("cuda" if torch.cuda.is_available() else "cpu") if name == "auto" else name)
    if device.type == "cuda":
        reproducible_cuda()
    return device


def reproducible_cuda() -> None:
    """Same config, same seeds, same bits on one GPU, as on a CPU: a stored run's one-line command must give
    back its numbers. By default CUDA sums gradients of gathers (embeddings, indexed rows) with atomic adds in
    whatever order the threads arrive, so two calls differ in the last bits (measured on an H100: a 30-step
    float64 run differed by 4e-8 between calls), and a chaotic run then drifts apart. PyTorch's deterministic
    mode swaps in the ordered kernels; cuBLAS needs a fixed workspace for the same (set before its first use:
    every trainer resolves its device before it allocates). ``warn_only``: an operation with no deterministic
    kernel warns instead of failing. The mode is process-wide and stays on; it is set only when a config
    resolves to CUDA, so CPU runs never see it."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    if not torch.are_deterministic_algorithms_enabled():
        torch.use_deterministic_algorithms(True, warn_only=True)


def resolve_dtype(name: str, field: str = "dtype") -> torch.dtype:
    """The torch dtype for ``name`` ("float32" or "float64"); anything else is a ValueError naming ``field``."""
    check_choice(field, name, tuple(DTYPES))
    return DTYPES[name]

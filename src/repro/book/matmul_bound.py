"""How fast a training step could possibly be: the matrix products it performs, recorded and replayed alone.

A step of a dense model is a list of matrix products plus everything else (activations, normalization, softmax,
dropout, the optimizer, metrics). :func:`record_matmuls` runs a function under a
:class:`~torch.utils._python_dispatch.TorchDispatchMode` and keeps every product it performs, forward and backward
(``mm``, ``addmm``, ``bmm``, ``baddbmm`` with their shapes, strides and scalars, as the kernels receive them after
autograd and ``nn.Linear`` have been decomposed). :func:`replay_seconds` runs exactly those products again, on
fresh tensors of the same layouts and nothing else. No implementation that performs these products can take less
time than their replay on the same machine and thread count: that is the matmul-only bound of the benchmarks
(``python -m repro.book.bench``), and the fraction of it a trainer achieves says how much is left to gain by
making everything else cheaper.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import torch
from torch.utils._python_dispatch import TorchDispatchMode

_PRODUCTS = {
    torch.ops.aten.mm.default: "mm",
    torch.ops.aten.addmm.default: "addmm",
    torch.ops.aten.bmm.default: "bmm",
    torch.ops.aten.baddbmm.default: "baddbmm",
}


@dataclass(frozen=True)
class Product:
    """One recorded product: the aten op, its tensor arguments' (shape, stride, dtype) and its other arguments."""

    op: object
    tensors: tuple  # ((shape, stride, dtype) | None for a non-tensor positional argument, ...)
    scalars: tuple  # the non-tensor positional arguments, in place
    kwargs: tuple  # sorted (name, value) pairs: beta, alpha

    @property
    def flops(self) -> int:
        """2 m k n per product (times the batch for bmm/baddbmm); the bias add of addmm/baddbmm is not counted."""
        name = _PRODUCTS[self.op]
        a, b = _operands(self)
        if name in ("mm", "addmm"):
            return 2 * a[0] * a[1] * b[1]
        return 2 * a[0] * a[1] * a[2] * b[2]


def _operands(p: Product) -> tuple[tuple, tuple]:
    """The two factors' shapes (addmm/baddbmm: the last two tensor arguments; mm/bmm: both)."""
    shapes = [spec[0] for spec in p.tensors if spec is not None]
    return shapes[-2], shapes[-1]


class _Recorder(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.products: list[Product] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in _PRODUCTS:
            tensors = tuple((tuple(a.shape), tuple(a.stride()), a.dtype) if isinstance(a, torch.Tensor) else None
                            for a in args)
            scalars = tuple(None if isinstance(a, torch.Tensor) else a for a in args)
            self.products.append(Product(func, tensors, scalars, tuple(sorted(kwargs.items()))))
        return func(*args, **kwargs)


def record_matmuls(fn) -> list[Product]:
    """Run ``fn()`` and return every matrix product it performed, in order (on this thread: a trainer that hands blocks
    of runs to worker threads must be recorded with one worker)."""
    recorder = _Recorder()
    with recorder:
        fn()
    return recorder.products


def total_flops(products: list[Product]) -> int:
    return sum(p.flops for p in products)


def _fresh(spec, device) -> torch.Tensor:
    """Random values in the recorded layout (a broadcast bias keeps its zero strides: one storage element per value)."""
    shape, stride, dtype = spec
    size = 1 + sum((n - 1) * s for n, s in zip(shape, stride)) if all(shape) else 0
    return torch.randn(size, dtype=dtype, device=device).as_strided(shape, stride)


def replay_seconds(products: list[Product], device: torch.device | str = "cpu", repeats: int = 3,
                   min_seconds: float = 0.5) -> float:
    """Best wall time of performing ``products`` once each, on fresh random tensors of the recorded layouts and with the
    recorded scalars (so each product takes the same kernel path), and nothing else; the best of ``repeats`` rounds of at
    least ``min_seconds`` each, because on a shared machine noise only adds time."""
    device = torch.device(device)
    # products of the same layout share their inputs, so that a long step's list does not hold every activation at
    # once; sharing can only help the replay (warm caches), so the bound stays a bound
    fresh: dict[tuple, torch.Tensor] = {}
    calls = []
    for p in products:
        for spec in p.tensors:
            if spec is not None and spec not in fresh:
                fresh[spec] = _fresh(spec, device)
        args = [fresh[spec] if spec is not None else scalar for spec, scalar in zip(p.tensors, p.scalars)]
        calls.append((p.op, args, dict(p.kwargs)))
    sync = (lambda: torch.cuda.synchronize(device)) if device.type == "cuda" else (lambda: None)

    def once():
        for op, args, kwargs in calls:
            op(*args, **kwargs)

    once()  # warm-up
    best = float("inf")
    for _ in range(repeats):
        n, start = 0, time.perf_counter()
        sync()
        while True:
            once()
            n += 1
            sync()
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        best = min(best, elapsed / n)
    return best


def matmul_gflops(n: int = 2048, min_seconds: float = 2.0, dtype=torch.float32) -> float:
    """This machine's dense matmul rate: the best of repeated n x n products over at least ``min_seconds``.
    The best, not the mean, because the rate is a ceiling; repeating for seconds, not a fixed count,
    because on a shared virtual machine single products were seen to vary by 2x."""
    a = torch.randn(n, n, dtype=dtype)
    b = torch.randn(n, n, dtype=dtype)
    a @ b  # warm-up
    best = float("inf")
    start = time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2 * n**3 / best / 1e9

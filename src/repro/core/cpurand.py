"""Dropout keep-masks drawn from a torch CPU generator's own stream, faster than ``torch.rand``.

``torch.rand(shape, generator=g)`` on the CPU takes one output of ``g``'s Mersenne twister (MT19937) per
float32 element, ``(x & (2**24 - 1)) * 2**-24``, and two per float64 element, ``((x1 << 32 | x2) & (2**53 - 1))
* 2**-53``, in one serial loop (ATen's ``uniform_real_distribution``). NumPy's :class:`numpy.random.MT19937`
is the same twister; loaded with the generator's 624-word state it gives the same outputs faster: 1.78 million
of them (one dropout site of Liu et al.'s paper-scale step) in 5.3 ms against 6.4 ms through ``torch.rand``, best
of 30 on one thread of the Intel Xeon of the benchmark page (book/benchmarks.md), and the mask's comparison and row selection
then run on integers.

:func:`keep_mask` therefore gives, bit for bit, ``torch.rand(shape, generator=g, dtype=dtype) >= rate`` and
leaves ``g`` in the state ``torch.rand`` would: the masks and everything drawn after them are unchanged, which
the dropout runs stored with earlier code and the checkpoints (``Dropout.state``) rely on. The comparison is
made on the integers, ``x >= ceil(rate * 2**24)``, which equals the float comparison because ``x * 2**-24`` is
exact. ``tests/test_cpurand.py`` checks the bits and the generator state against ``torch.rand`` itself.
"""
from __future__ import annotations

import ctypes
import functools
import math
import threading
import warnings

import numpy as np
import torch

_STATE_WORDS = 624  # MT19937's state: 624 32-bit words
# CPUGeneratorImplState (ATen/CPUGeneratorImpl.cpp): uint64 seed, int32 left, int32 seeded, uint64 next,
# then the 624 words stored as uint64, then the normal-sampler cache this module leaves as it is.
_LEFT, _NEXT, _WORDS = 8, 16, 24
_BITS = {torch.float32: 24, torch.float64: 53}  # the mantissa bits torch.rand keeps (numeric_limits<T>::digits)
_NUMPY = {torch.float32: np.float32, torch.float64: np.float64}
SMALLEST = 32768  # below this many values torch.rand is as quick: the state's round trip costs about 8 microseconds


_local = threading.local()


def _twister() -> tuple[np.random.MT19937, np.ndarray]:
    """This thread's NumPy twister and a view of its C state (NumPy's ``mt19937_state``: 624 words, then the
    position). Made once per thread (training blocks run on threads): a new twister seeds itself from the OS, and
    its ``state`` property, a dict, took about 70 microseconds to read and write where the view takes one."""
    if not hasattr(_local, "mt"):
        mt = np.random.MT19937(0)
        _local.mt = mt, np.ctypeslib.as_array((ctypes.c_uint32 * (_STATE_WORDS + 1)).from_address(mt.ctypes.state_address))
    return _local.mt


def _load(generator: torch.Generator) -> tuple[np.ndarray, np.random.MT19937]:
    state = generator.get_state().numpy().copy()
    left = int(state[_LEFT:_LEFT + 4].view("<i4")[0])
    mt, view = _twister()
    view[:_STATE_WORDS] = state[_WORDS:_WORDS + 8 * _STATE_WORDS].view("<u8")
    # ATen counts down `left` (1 just after seeding: twist before the next output); NumPy counts up `pos`
    # (624: twist before the next output). After a twist and k outputs, left = 625 - k and pos = k.
    view[_STATE_WORDS] = 625 - left
    return state, mt


def _store(generator: torch.Generator, state: np.ndarray) -> None:
    _, view = _twister()
    pos = int(view[_STATE_WORDS])
    state[_LEFT:_LEFT + 4].view("<i4")[0] = 625 - pos
    state[_NEXT:_NEXT + 8].view("<u8")[0] = pos
    state[_WORDS:_WORDS + 8 * _STATE_WORDS].view("<u8")[:] = view[:_STATE_WORDS]
    generator.set_state(torch.from_numpy(state))


@functools.cache
def _agrees() -> bool:
    """Whether this process's NumPy and torch give the same stream (checked once): the NumPy draw relies on
    ATen's generator-state layout and on NumPy's twister struct, neither of them a public interface. Where they
    differ, every mask is drawn by ``torch.rand`` itself, slower and with a warning, never with other bits."""
    for dtype in _BITS:
        for skip in (0, 700):
            ours, theirs = torch.Generator().manual_seed(1), torch.Generator().manual_seed(1)
            torch.rand(skip, generator=ours), torch.rand(skip, generator=theirs)
            keep = _numpy_keep((2 * SMALLEST,), ours, dtype, 0.5, None)
            want = torch.rand(2 * SMALLEST, generator=theirs, dtype=dtype) >= 0.5
            if not (torch.equal(keep, want) and torch.equal(ours.get_state(), theirs.get_state())):
                warnings.warn("repro.core.cpurand: NumPy's MT19937 does not reproduce torch.rand in this environment; "
                              "dropout masks are drawn by torch.rand (the same masks, more slowly).", RuntimeWarning)
                return False
    return True


def keep_mask(shape: tuple[int, ...], generator: torch.Generator, dtype: torch.dtype, rate: float,
              rows: torch.Tensor | None = None) -> torch.Tensor:
    """``torch.rand(shape, generator=generator, dtype=dtype) >= rate`` as a bool tensor, bit for bit, with
    ``generator`` advanced exactly as that call advances it; with ``rows``, only those indices of the first
    axis (``torch.index_select(..., 0, rows)``). ``generator`` must be a CPU generator; ``dtype`` float32 or
    float64 (the dtypes ``torch.rand`` draws this way); ``rate`` is compared as a value of ``dtype``."""
    if generator.device.type != "cpu":
        raise ValueError(f"generator is on {generator.device}; keep_mask reproduces the CPU generator's stream only.")
    if dtype not in _BITS:
        raise ValueError(f"dtype={dtype} is not allowed: keep_mask draws float32 or float64, as torch.rand does.")
    n = math.prod(shape)
    if n < SMALLEST or not _agrees():
        u = torch.rand(shape, generator=generator, dtype=dtype)
        keep = u >= torch.tensor(rate, dtype=dtype)
        return keep if rows is None else keep.index_select(0, rows)
    return _numpy_keep(shape, generator, dtype, rate, rows)


def _numpy_keep(shape, generator, dtype, rate, rows) -> torch.Tensor:
    n, bits = math.prod(shape), _BITS[dtype]
    # torch.rand's value is k * 2**-bits with integer k; k * 2**-bits >= rate exactly when k >= ceil(rate * 2**bits)
    # (the rate as a value of dtype, and the product exact: a power-of-two scaling).
    # (the rate rounded to dtype by NumPy: the same rounding as torch's, without a tensor to read back)
    threshold = math.ceil(float(np.asarray(rate, dtype=_NUMPY[dtype])) * 2.0 ** bits)
    state, twister = _load(generator)
    draws = 1 if dtype == torch.float32 else 2  # random64 takes two outputs, the first the high word
    x = np.random.Generator(twister).integers(0, 2**32, size=draws * n, dtype=np.uint32)
    if draws == 2:  # a little-endian uint64 view of (x1, x2) holds x2 << 32 | x1: swap the halves back
        x = x.view("<u8")
        x = (x << np.uint64(32)) | (x >> np.uint64(32))
    x = x.reshape(shape[0], -1)
    if rows is not None:
        x = x[rows.numpy()]
    np.bitwise_and(x, x.dtype.type(2**bits - 1), out=x)
    keep = x >= x.dtype.type(threshold)
    _store(generator, state)
    out_shape = shape if rows is None else (len(rows),) + tuple(shape[1:])
    return torch.from_numpy(keep).view(out_shape)

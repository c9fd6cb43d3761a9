"""Which PyTorch CPU kernel set runs here, which other one to validate the stored outputs with, and a
one-thread context for programs of many small ops.

PyTorch picks its vectorised CPU kernels (``tanh``, ``exp``, reductions, the Adam update) by instruction
set at start-up; ``ATEN_CPU_CAPABILITY`` forces a lower one. The test command (``bash scripts/test.sh``) re-executes the
book under a second kernel set so that the stored outputs are shown not to depend on one CPU's rounding:

    python -m repro.core.kernels native   # e.g. AVX512
    python -m repro.core.kernels other    # e.g. avx2 (empty when no other set exists, e.g. a plain CPU)

Another machine on this one: ``REPRO_NUDGE=1e-6`` multiplies every initial parameter of the trainer and of the
Langevin sampler by ``1 + 1e-6`` (about ten float32 units in the last place), which is what a different CPU's
rounding does to a chaotic run after a few steps. ``scripts/portability.sh`` runs the book so (configuration
``nudge``): any number a chapter shows unmarked that changes is a number that would change on another CPU.
"""
from __future__ import annotations

import contextlib
import math
import os
import sys

NUDGE_ENV = "REPRO_NUDGE"
MAX_NUDGE = 1e-3

# The next lower kernel set for each native one (values accepted by ATEN_CPU_CAPABILITY). An AVX-512
# machine validates with the AVX2 kernels (the most common CPU among readers); everything else with
# the scalar "default" kernels, which differ from every vectorised set.
OTHER = {"AVX512": "avx2", "AVX512_VNNI": "avx2", "AVX2": "default", "SVE256": "default", "SVE": "default",
         "ZVECTOR": "default", "VSX": "default"}


@contextlib.contextmanager
def single_thread():
    """Run torch on one thread, restoring the previous setting afterwards.

    These programs are many small ops (30 embeddings, widths 1–50). With two threads on a shared
    2-core machine, the threads mostly wait for each other: we measured a 12× slower wall clock for
    a width-10 batch than with one thread, and no gain on an idle machine.
    """
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def init_nudge() -> float:
    """The relative change ``REPRO_NUDGE`` asks for in every initial parameter (0.0 when unset or empty)."""
    raw = os.environ.get(NUDGE_ENV, "").strip()
    if not raw:
        return 0.0
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and abs(value) <= MAX_NUDGE):
        raise ValueError(f"{NUDGE_ENV}={raw!r} is not allowed: it must be a number with |x| <= {MAX_NUDGE:g} "
                         "(e.g. 1e-6), or unset.")
    return value


def native_capability() -> str:
    """The kernel set this process runs (after any ``ATEN_CPU_CAPABILITY`` override)."""
    import torch

    return torch.backends.cpu.get_cpu_capability()


def other_capability(native: str) -> str:
    """An ``ATEN_CPU_CAPABILITY`` value whose kernels differ from ``native``; "" when there is none."""
    if native.upper() in ("DEFAULT", "NO AVX"):
        return ""
    return OTHER.get(native.upper(), "default")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv not in (["native"], ["other"]):
        print("usage: python -m repro.core.kernels native|other", file=sys.stderr)
        return 2
    if os.environ.get("ATEN_CPU_CAPABILITY"):
        print("ATEN_CPU_CAPABILITY is set: unset it to ask for the native kernel set", file=sys.stderr)
        return 2
    native = native_capability()
    print(native if argv[0] == "native" else other_capability(native))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How many operations a paper-scale step dispatches, and how often it waits for the host.

A GPU step costs at least its kernel launches, and a host synchronisation (``.item()``, ``.tolist()``,
``.cpu()``, ``nonzero``, a tensor's truth value) stalls the queue until the device catches up. Neither
shows in a CPU timing, but both can be counted on a CPU: :class:`DispatchCounter` counts every aten
operation dispatched on the calling thread and every call that forces a host round trip.
:func:`count_step` turns two dry runs of :mod:`repro.book.paper_scale` into counts per training step
(every evaluation off) and per evaluation, at a given size of the seed axis; run at two sizes, a step
whose work is batched over the runs dispatches the same number of operations at both.

    python -m repro.book.bench dispatch              # every paper-scale experiment, at 2 and 8 seeds
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.utils._python_dispatch import TorchDispatchMode

# aten operations whose result size or value the host must read before it can go on
SYNC_OPS = frozenset({"aten._local_scalar_dense", "aten.nonzero", "aten.masked_select", "aten.unique_dim",
                      "aten._unique2", "aten.unique_consecutive", "aten.equal", "aten.is_nonzero",
                      "aten.repeat_interleave"})
# Tensor methods that hand values to the host without dispatching an aten operation on a CPU tensor (``item``
# and a tensor's truth value dispatch ``_local_scalar_dense``, counted above); on a GPU each one waits for it.
# ``numpy`` is not among them: it refuses a GPU tensor, so only CPU-only code calls it, after a counted ``cpu``.
SYNC_METHODS = ("tolist", "cpu")


class DispatchCounter(TorchDispatchMode):
    """Counts aten operations (``ops``) and host synchronisations (``syncs``: :data:`SYNC_OPS` dispatched and
    :data:`SYNC_METHODS` called on tensors) while active. Like every dispatch mode it sees only the
    calling thread, so run what it counts single-threaded."""

    def __init__(self):
        super().__init__()
        self.ops = 0
        self.syncs = 0
        self._patched = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops += 1
        if str(func.overloadpacket) in SYNC_OPS:
            self.syncs += 1
        return func(*args, **(kwargs or {}))

    def _count_method(self, name):
        original = getattr(torch.Tensor, name)
        counter = self

        def counted(tensor, *args, **kwargs):
            counter.syncs += 1
            return original(tensor, *args, **kwargs)

        setattr(torch.Tensor, name, counted)
        self._patched.append((name, original))

    def __enter__(self):
        for name in SYNC_METHODS:
            self._count_method(name)
        return super().__enter__()

    def __exit__(self, *exc):
        for name, original in reversed(self._patched):
            setattr(torch.Tensor, name, original)
        self._patched.clear()
        return super().__exit__(*exc)


@dataclass(frozen=True)
class StepCounts:
    """Operations and host synchronisations per training step and per evaluation, at ``seeds`` seeds."""

    seeds: int | None  # the max_seeds asked for
    runs_factor: float  # how many more runs than at one seed (repro.book.paper_scale.seed_factor)
    ops_per_step: float
    syncs_per_step: float
    ops_per_evaluation: float
    syncs_per_evaluation: float


def _counted(exp, steps: int, max_seeds: int | None, every) -> tuple[int, int]:
    from repro.book.paper_scale import shrink

    cfg = shrink(exp.build(), steps, max_seeds, every)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the trainer's worker threads would escape a dispatch mode
    try:
        with DispatchCounter() as counter:
            exp.run(cfg)
    finally:
        torch.set_num_threads(threads)
    return counter.ops, counter.syncs


def count_step(exp, max_seeds: int | None, short: int = 2, long: int = 4) -> StepCounts:
    """Counts per training step (every cadence off) and per evaluation (the ``eval_every``-like cadences at 1,
    less the training step), each the difference of two dry runs ``long - short`` steps apart (call inside
    :func:`repro.book.paper_scale.paper_scale_env`)."""
    from repro.book.paper_scale import OFF, _switchable, cadences, seed_factor, shrink

    # a cadence the config will not switch off stays at 1, as in repro.book.paper_scale.project
    off = {k: OFF for k in cadences(exp.build()) if _switchable(exp, k, long)}
    n = long - short
    _counted(exp, short, max_seeds, off)  # warm-up, discarded: first calls pay one-off checks (cached afterwards)
    (a_ops, a_syncs), (b_ops, b_syncs) = (_counted(exp, s, max_seeds, off) for s in (short, long))
    (c_ops, c_syncs), (d_ops, d_syncs) = (_counted(exp, s, max_seeds, 1) for s in (short, long))
    step_ops, step_syncs = (b_ops - a_ops) / n, (b_syncs - a_syncs) / n
    runs = seed_factor(shrink(exp.build(), short, max_seeds), shrink(exp.build(), short, 1))
    return StepCounts(max_seeds, runs, step_ops, step_syncs, (d_ops - c_ops) / n - step_ops, (d_syncs - c_syncs) / n - step_syncs)


def dispatch_table(rows: list[tuple[str, str, StepCounts, StepCounts]]) -> str:
    """A Markdown table: per experiment, operations and host synchronisations per training step and per
    evaluation at two sizes of the seed axis, and whether the step's operation count grows with it."""
    lines = ["| chapter | experiment | runs (x one seed) | ops / step | syncs / step | ops / evaluation | syncs / evaluation "
             "| step ops grow with seeds |", "|---|---|---|---|---|---|---|---|"]
    for chapter, name, a, b in rows:
        pair = lambda f, g=a, h=b: f"{getattr(g, f):,.0f} / {getattr(h, f):,.0f}"
        grows = ("yes" if b.ops_per_step > a.ops_per_step else "no") if b.runs_factor > a.runs_factor else "one size only"
        lines.append(f"| `{chapter}` | {name} | {a.runs_factor:g} / {b.runs_factor:g} | {pair('ops_per_step')} | {pair('syncs_per_step')} | "
                     f"{pair('ops_per_evaluation')} | {pair('syncs_per_evaluation')} | {grows} |")
    return "\n".join(lines)


def _provenance() -> str:
    """When, where and at which commit: "2026-12-04, AMD EPYC, torch 2.13.0+cpu, code of abc1234"."""
    import datetime
    import subprocess

    from repro.book.paper_scale import cpu_name

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return f"{datetime.date.today().isoformat()}, {cpu_name()}, torch {torch.__version__}, code of {commit}"


def dated_page(table: str, seeds: tuple[int, int] = (2, 8)) -> str:
    """``table`` (:func:`dispatch_table`) under a line saying when, where and at which commit it was counted: the file
    ``book/running.md`` shows (:data:`repro.book.pages.DISPATCH_CPU_FILE`)."""
    return (f"Counted on the CPU, one thread ({_provenance()}), every paper-scale experiment at {seeds[0]} and "
            f"{seeds[1]} seeds (`python -m repro.book.bench dispatch --out book/_data/dispatch_cpu.md`):\n\n"
            + table + "\n")


def recount_page(page: str, chapter: str, table: str) -> str:
    """``page`` (:func:`dated_page`) with ``chapter``'s rows replaced by those of ``table`` (its new counts), and a line
    under the first saying when they were re-counted (``--chapter C --out F``)."""
    head, _, old = page.partition("\n\n")
    rows = lambda text: [line for line in text.strip().splitlines() if line.startswith("| `")]
    new = rows(table)
    if not new or any(not line.startswith(f"| `{chapter}` |") for line in new):
        raise ValueError(f"chapter={chapter!r}: the new table has no rows of that chapter only.")
    kept = iter(new)
    lines = [next(kept, None) if line.startswith(f"| `{chapter}` |") else line for line in old.strip().splitlines()]
    if None in lines or next(kept, None) is not None:
        raise ValueError(f"chapter={chapter!r}: its experiments differ from the dated table's; count every experiment.")
    note = f"The rows of `{chapter}` re-counted ({_provenance()}, `--chapter {chapter}`)."
    return head + "\n\n" + note + "\n\n" + "\n".join(lines) + "\n"


def main(chapter: str | None = None, seeds: tuple[int, int] = (2, 8), out=None, path=None) -> str:
    """Counts for every paper-scale experiment (or one chapter's) at two seed-axis sizes; prints the table, and with
    ``path`` also writes it there, dated (:func:`dated_page`), or with ``chapter`` replaces that chapter's rows of the
    dated table there (:func:`recount_page`)."""
    import sys
    from pathlib import Path

    from repro.book.paper_scale import experiments, paper_scale_env

    if path is not None and chapter is not None and not Path(path).exists():
        raise ValueError(f"path={str(path)!r} does not exist: count every experiment (no chapter) to write it first.")
    rows = []
    with paper_scale_env():
        exps = experiments(chapter)
        for k, exp in enumerate(exps, 1):
            print(f"[{k}/{len(exps)}] {exp.chapter}: {exp.name}", file=sys.stderr, flush=True)
            rows.append((exp.chapter, exp.name, *(count_step(exp, s) for s in seeds)))
    table = dispatch_table(rows)
    print(table, file=out or sys.stdout)
    if path is not None:
        from repro.core.files import write_bytes_atomic

        page = dated_page(table, seeds) if chapter is None else recount_page(Path(path).read_text("utf8"), chapter, table)
        write_bytes_atomic(path, page.encode("utf8"))
    return table

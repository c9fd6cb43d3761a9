"""The book's reference pages, their tables generated from data (issue 63, item 4):

    python -m repro.book.pages            # rewrite the generated tables of book/running.md
    python -m repro.book.pages --check    # exit 1, naming the page, if a committed table differs

A page keeps its prose by hand; each generated table sits between the MyST comment lines ``% generated: NAME``
and ``% end generated``, and this module rewrites only what lies between them. ``tests/test_pages.py`` fails when
a committed page differs from what this module generates, so a table can go stale in neither direction.

* ``stored-runs`` — one table per experiment module: every stored run of the book, the command that computes it,
  and what the results store records about it (entries, wall time summed over entries, segments, dates, machine),
  read from each entry's ``manifest.json`` (or, for an unfinished run, its checkpoint). The rows live in the
  experiment modules: each module that stores runs defines ``STORED_RUN_TABLE`` (its chapter and its
  :class:`~repro.training.stored_runs.StoredRun` rows) beside its command line, and :data:`STORED_RUNS` collects
  them in book order (:func:`stored_run_tables`); the test checks that every entry of ``book/_results`` is one
  row's and that every row's options are its module's.
* ``paper-scale`` — the dated CPU table that ``python -m repro.book.paper_scale --out`` wrote to
  :data:`PAPER_SCALE_CPU_FILE` (every paper-scale experiment at its paper's cadence), then the older GPU record
  :data:`PAPER_SCALE_GPU` (not re-measured here).
* ``dispatch`` — the dated table that ``python -m repro.book.bench dispatch --out`` wrote to :data:`DISPATCH_CPU_FILE`:
  aten operations and host synchronisations per training step and per evaluation of every paper-scale experiment.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import json
import pkgutil
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from repro.core.prose import table_cell
from repro.training.stored_runs import StoredRun, StoredRunTable

ROOT = Path(__file__).resolve().parents[3]
BOOK = ROOT / "book"
PAGES = ("running.md",)  # the pages with generated tables


@functools.cache
def stored_run_tables() -> dict[str, tuple[str, tuple[StoredRun, ...]]]:
    """Experiment module -> (its chapter, its stored runs), in book order: the ``STORED_RUN_TABLE`` (a
    :class:`~repro.training.stored_runs.StoredRunTable`) of every module of ``repro.experiments`` that defines one,
    ordered by its chapter's place in ``book/_chapters.toml``, then by the module's name. It imports every
    experiment module (seconds), so it runs on the first use of :data:`STORED_RUNS`, and once."""
    import repro.experiments
    from repro.book.manifest import stems

    order = {stem: i for i, stem in enumerate(stems())}
    tables = []
    for info in pkgutil.iter_modules(repro.experiments.__path__):
        table = getattr(importlib.import_module(f"repro.experiments.{info.name}"), "STORED_RUN_TABLE", None)
        if table is None:
            continue
        if not isinstance(table, StoredRunTable):
            raise TypeError(f"repro.experiments.{info.name}.STORED_RUN_TABLE is not a StoredRunTable")
        if table.chapter not in order:
            raise ValueError(f"repro.experiments.{info.name}.STORED_RUN_TABLE: chapter {table.chapter!r} is not one "
                             f"of book/_chapters.toml")
        tables.append((order[table.chapter], info.name, table))
    return {name: (table.chapter, table.rows) for _, name, table in sorted(tables, key=lambda t: t[:2])}


def __getattr__(name: str):
    # STORED_RUNS (experiment module -> (its chapter, its stored runs)) is collected on first use
    if name == "STORED_RUNS":
        return stored_run_tables()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ``python -m repro.book.paper_scale --out`` writes its dated table here: the CPU cost at each config's own cadence
PAPER_SCALE_CPU_FILE = BOOK / "_data" / "paper_scale_cpu.md"
DISPATCH_CPU_FILE = BOOK / "_data" / "dispatch_cpu.md"
# experiment name -> (GPU s / step, projected GPU hours): one NVIDIA H100 80GB, 2026-11-26 (see the page)
PAPER_SCALE_GPU = {
    "phase diagram, Fig. 6(b)": ("0.0896", "2.5 h"),
    "transformer on p = 59 (Fig. 7)": ("0.0431", "14 min"),
    "dropout sweep on p = 59 (Fig. 7 centre)": ("0.0415", "1.2 h"),
    "modular addition, free and fixed norm (Fig. 7)": ("0.00745", "2 min"),
    "(w, m) landscape of the backup slides (Fig. 6)": ("0.164", "27 min"),
    "time-dependent grokking, N = 2800 (v3 App. D, Fig. 4)": ("0.225", "438 h"),
    "data-size sweep (Fig. 2-3)": ("0.213", "5.9 h"),
    "learning-rate phase diagram (Fig. 5)": ("2.98", "82.7 h"),
    "weight-decay phase diagram (Fig. 6)": ("1.26", "35.0 h"),
    "classification at the largest p (Fig. 4)": ("2.01", "55.9 h"),
    "transformer, GD (Fig. 5)": ("0.0244", "41 min"),
}


@dataclass(frozen=True)
class Entry:
    """One entry of a results store, as far as the tables need it."""

    folder: str
    label: str
    config_class: str  # "" when the top-level config has none
    finished: bool
    wall_time_s: float
    segments: int
    dates: tuple[str, ...]  # the days (UTC) its segments were written
    device: str
    step: tuple[int, ...] = ()  # an unfinished run: the step each block of runs reached (of ``steps``)
    steps: int | None = None
    config: dict = field(default_factory=dict, compare=False)  # the top-level config (config.json)


def _config(folder: Path) -> dict:
    """The entry's top-level config as its ``config.json`` holds it (``{}`` where there is none)."""
    path = folder / "config.json"
    config = json.loads(path.read_text()).get("config", {}) if path.exists() else {}
    return config if isinstance(config, dict) else {}


def store_entries(root: str | Path = BOOK / "_results") -> list[Entry]:
    """Every finished entry and unfinished run (checkpoint folder) of the store folder ``root``."""
    from repro.book.runs import list_runs

    root = Path(root)
    out = []
    for run in list_runs(root):
        folder = root / run.name
        config = _config(folder)
        if run.finished:
            manifest = json.loads((folder / "manifest.json").read_text())
            segments = manifest.get("segments") or [manifest]
            dates = tuple(sorted({str(s.get("started") or s.get("created") or manifest["created"])[:10]
                                  for s in segments} | {manifest["created"][:10]}))
            out.append(Entry(run.name, run.label, config.get("__class__", ""), True, run.wall_time_s or 0.0,
                             run.segments, dates, run.device, config=config))
        else:
            state = json.loads((folder / "checkpoint.json").read_text())
            out.append(Entry(run.name, run.label, config.get("__class__", ""), False, run.wall_time_s or 0.0,
                             run.segments, (str(state.get("updated", ""))[:10],), run.device,
                             tuple(int(s) for s in state.get("block_steps", [run.step or 0])), run.steps, config))
    return out


def entries_of(row: StoredRun, entries: list[Entry]) -> list[Entry]:
    """The entries that are ``row``'s: its labels, its config class where it names one, and its config fields."""
    return [e for e in entries if e.label in row.labels
            and (row.config_class is None or e.config_class == row.config_class)
            and all(e.config.get(k) == v for k, v in row.config_fields)]


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _days(dates) -> str:
    days = sorted(set(dates))
    return days[0] if len(days) == 1 else f"{days[0]} – {days[-1]}"


def _reached(step: tuple[int, ...], steps: int) -> str:
    """Where an unfinished run's blocks are: "at step 5 of 10", "blocks of runs at steps 5 and 0 of 10", or for more
    than two blocks "12 blocks of runs of 30,000 steps: 2 done, 1 at step 11,249, 9 not started"."""
    if len(step) == 1:
        return f"at step {step[0]:,} of {steps:,}"
    if len(step) == 2:
        return f"blocks of runs at steps {step[0]:,} and {step[1]:,} of {steps:,}"
    started = [s for s in step if 0 < s < steps]
    parts = [f"{sum(s >= steps for s in step)} done"] if any(s >= steps for s in step) else []
    if started:
        parts.append(f"{len(started)} at step{'s' if len(started) > 1 else ''} {', '.join(f'{s:,}' for s in started)}")
    if 0 in step:
        parts.append(f"{step.count(0)} not started")
    return f"{len(step)} blocks of runs of {steps:,} steps: " + ", ".join(parts)


def stored_run_cells(row: StoredRun, entries: list[Entry]) -> tuple[str, str, str]:
    """``(entries, wall time, stored)`` of one row, from its entries' manifests and checkpoints."""
    mine = entries_of(row, entries)
    if not mine:
        return "none", "", "not stored"
    done = [e for e in mine if e.finished]
    segments = sum(e.segments for e in done)
    parts = [f"{len(done)}" + (f" ({segments} segments)" if segments > len(done) else "")] if done else []
    wall = [_duration(sum(e.wall_time_s for e in done))] if done else []
    stored = [_days(d for e in done for d in e.dates)] if done else []
    for e in mine:
        if not e.finished:
            reached = _reached(e.step, e.steps) if e.steps else "no complete checkpoint"
            parts.append(f"1 unfinished ({reached})")
            wall.append(f"{_duration(e.wall_time_s)} so far")
            stored.append(f"checkpoint of {e.dates[0]}")
    return "; ".join(parts), "; ".join(wall), "; ".join(stored)


def stored_runs_tables(root: str | Path = BOOK / "_results") -> str:
    """One Markdown table per experiment module: its stored runs, their options and what the store records."""
    entries = store_entries(root)
    devices = sorted({e.device for e in entries if e.device})
    out = [f"Machines the entries record: {', '.join(f'`{d}`' for d in devices)}.", ""]
    for module, (chapter, rows) in stored_run_tables().items():
        out += [f"**`repro.experiments.{module}`** (chapter `{chapter}`): "
                f"`python -m repro.experiments.{module} --store book/_results` and the options below.", "",
                "| stored run | options | entries | wall time | stored |", "|---|---|---|---:|---|"]
        for row in rows:
            n, wall, stored = stored_run_cells(row, entries)
            options = f"`{row.options}`" if row.options else "(none)"
            out.append(f"| {table_cell(row.what)} | {options} | {n} | {wall} | {stored} |")
        out.append("")
    return "\n".join(out).rstrip("\n")


def paper_scale_table() -> str:
    """The dated CPU table of ``python -m repro.book.paper_scale --out`` (every experiment, at its paper cadence), then
    the older H100 record beside the registry's experiments and their paper steps."""
    from repro.book.paper_scale import experiments, paper_scale_env

    if not PAPER_SCALE_CPU_FILE.exists():
        raise FileNotFoundError(f"{PAPER_SCALE_CPU_FILE} is missing: make it with "
                                f"`python -m repro.book.paper_scale --out {PAPER_SCALE_CPU_FILE.relative_to(ROOT)}`.")
    rows = ["| chapter | experiment | paper steps | H100 s / step (measured) | projected H100 hours |",
            "|---|---|---:|---:|---:|"]
    with paper_scale_env():
        for exp in experiments():
            if exp.name in PAPER_SCALE_GPU:
                gpu_s, gpu_h = PAPER_SCALE_GPU[exp.name]
                rows.append(f"| `{exp.chapter}` | {exp.name} | {exp.paper_steps(exp.build()):,} | {gpu_s} | {gpu_h} |")
    return (PAPER_SCALE_CPU_FILE.read_text().rstrip("\n") + "\n\nOn one NVIDIA H100 80GB, 2026-11-26 (torch 2.11.0+cu130, "
            "deterministic mode, 4 seeds per dry run, `--steps 2 4`), measured before the projection charged evaluations at "
            "their cadence: each step then included an evaluation, so these are upper bounds where a config evaluates "
            "less often than every step:\n\n" + "\n".join(rows))


def dispatch_page() -> str:
    """The dated table of ``python -m repro.book.bench dispatch --out`` (:mod:`repro.book.dispatch`)."""
    if not DISPATCH_CPU_FILE.exists():
        raise FileNotFoundError(f"{DISPATCH_CPU_FILE} is missing: make it with "
                                f"`python -m repro.book.bench dispatch --out {DISPATCH_CPU_FILE.relative_to(ROOT)}`.")
    return DISPATCH_CPU_FILE.read_text(encoding="utf8").rstrip("\n")


GENERATORS = {"stored-runs": stored_runs_tables, "paper-scale": paper_scale_table, "dispatch": dispatch_page}
BLOCK = re.compile(r"^% generated: (?P<name>[a-z-]+)\n(?P<body>.*?)^% end generated\n", re.MULTILINE | re.DOTALL)


def render(text: str) -> str:
    """``text`` with the body of every generated block replaced by what its generator gives now."""
    def fill(m: re.Match) -> str:
        name = m["name"]
        if name not in GENERATORS:
            raise ValueError(f"generated block {name!r} is not one of {', '.join(GENERATORS)}.")
        return f"% generated: {name}\n\n{GENERATORS[name]()}\n\n% end generated\n"  # blank lines: blocks of their own

    return BLOCK.sub(fill, text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.pages", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page's tables are stale")
    args = parser.parse_args(argv)
    stale = []
    for name in PAGES:
        path = BOOK / name
        text = path.read_text(encoding="utf8")
        new = render(text)
        if new != text:
            stale.append(name)
            if not args.check:
                path.write_text(new, encoding="utf8")
    verb = "stale" if args.check else "rewritten"
    print(f"{verb}: {', '.join(stale)}" if stale else "every generated table is current")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

"""The stored and unfinished runs of a results store, with the step each unfinished run reached and its time left
(issue 32, item 3):

    python -m repro.book.runs                        # book/_results
    python -m repro.book.runs --store /scratch/results

A finished entry is a folder ``<label>-<key>/`` with a ``manifest.json``; an unfinished run is the checkpoint folder
``<label>-<key>.partial/`` of a resumable run (:mod:`repro.training.checkpoint`). The time left is projected from
the speed of the run's segments so far (steps covered / wall time), so it holds for a rerun on the same machine.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from repro.training.checkpoint import PARTIAL_SUFFIX, projected_remaining_s, reached_step, read_checkpoint


@dataclass(frozen=True)
class RunInfo:
    """One run of a store: finished (``step == steps`` where known) or unfinished (``remaining_s``: projected)."""

    name: str  # the folder, <label>-<key>[.partial]
    label: str
    finished: bool
    step: int | None = None
    steps: int | None = None
    segments: int = 1
    wall_time_s: float | None = None
    remaining_s: float | None = None
    device: str = ""


def _label_of(name: str) -> str:
    return name.rsplit("-", 1)[0]


def list_runs(root: str | Path) -> list[RunInfo]:
    """Every run in the store folder ``root``: unfinished ones first, then finished ones, each by folder name."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"store={str(root)!r} is not a folder: give a results-store folder, e.g. book/_results.")
    unfinished, finished = [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if folder.name.endswith(PARTIAL_SUFFIX):
            name = folder.name[: -len(PARTIAL_SUFFIX)]
            try:
                state = read_checkpoint(folder)
            except ValueError as exc:  # another checkpoint schema, or a damaged file: say so, list the rest
                unfinished.append(RunInfo(name=folder.name, label=_label_of(name), finished=False, device=str(exc)))
                continue
            if state is None:  # stopped before its first checkpoint was complete: it restarts from step 0
                unfinished.append(RunInfo(name=folder.name, label=_label_of(name), finished=False, step=0, segments=0))
                continue
            segments = state.get("segments", [])
            unfinished.append(RunInfo(
                name=folder.name, label=state.get("label") or _label_of(name), finished=False,
                step=reached_step(state), steps=int(state["steps"]), segments=len(segments),
                wall_time_s=sum(s.get("wall_time_s") or 0.0 for s in segments),
                remaining_s=projected_remaining_s(state), device=segments[-1].get("device", "") if segments else ""))
        elif (folder / "manifest.json").exists():
            manifest = json.loads((folder / "manifest.json").read_text())
            segments = manifest.get("segments")
            steps = segments[-1].get("to_step") if segments else None
            finished.append(RunInfo(
                name=folder.name, label=manifest.get("label") or _label_of(folder.name), finished=True,
                step=steps, steps=steps, segments=len(segments) if segments else 1,
                wall_time_s=manifest.get("wall_time_s"), device=manifest.get("device", "")))
    return unfinished + finished


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def format_runs(runs: list[RunInfo]) -> str:
    """The table :func:`main` prints: one line per run."""
    if not runs:
        return "no stored or unfinished runs."
    lines = []
    for r in runs:
        if r.finished:
            steps = f"{r.steps} steps, " if r.steps is not None else ""  # entries from before issue 32: not known
            lines.append(f"finished    {r.name}  {steps}{_duration(r.wall_time_s)}, {r.segments} segment(s), {r.device}")
        elif r.step is None:
            lines.append(f"unfinished  {r.name}  unreadable checkpoint: {r.device}")
        elif r.steps is None:
            lines.append(f"unfinished  {r.name}  no complete checkpoint yet (a rerun starts from step 0)")
        else:
            share = f" ({100 * r.step / r.steps:.0f}%)" if r.steps else ""
            lines.append(f"unfinished  {r.name}  step {r.step} of {r.steps}{share}, {_duration(r.wall_time_s)} in "
                         f"{r.segments} segment(s), {_duration(r.remaining_s)} left (projected), last on {r.device}")
    n_open = sum(not r.finished for r in runs)
    lines.append(f"{len(runs) - n_open} finished, {n_open} unfinished (rerun an unfinished run's command to resume it).")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.runs",
                                     description="Stored and unfinished runs of a results store (step reached, time left).")
    parser.add_argument("--store", default="book/_results", help="results-store folder (default: book/_results)")
    args = parser.parse_args(argv)
    print(format_runs(list_runs(args.store)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The shape of each chapter (issue 63's acceptance): its non-blank lines, the share of them that is code, and its
longest code cell. A chapter should read as a lecture: code at most ``MAX_CODE_SHARE`` of its lines, no code cell
longer than ``MAX_CELL_LINES`` lines.

    python -m repro.book.shape            # the table, one row per chapter
    python -m repro.book.shape --check    # exit 1 naming each chapter over a limit
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from repro.book.manifest import BOOK, load

MAX_CELL_LINES = 25
MAX_CODE_SHARE = 0.35


@dataclass(frozen=True)
class Shape:
    stem: str
    lines: int  # non-blank lines of markdown and code cells
    code_lines: int  # non-blank lines of code cells
    longest_cell: int  # lines of the longest code cell, blank lines included

    @property
    def code_share(self) -> float:
        return self.code_lines / self.lines if self.lines else 0.0

    def problems(self) -> list[str]:
        out = []
        if self.longest_cell > MAX_CELL_LINES:
            out.append(f"longest code cell {self.longest_cell} lines > {MAX_CELL_LINES}")
        if self.code_share > MAX_CODE_SHARE:
            out.append(f"code share {self.code_share:.0%} > {MAX_CODE_SHARE:.0%}")
        return out


def measure(notebook: Path) -> Shape:
    """The shape of one chapter, read from its ``.ipynb`` (the cells the reader sees)."""
    cells = json.loads(notebook.read_text(encoding="utf8"))["cells"]
    lines = code = longest = 0
    for cell in cells:
        source = "".join(cell["source"]).splitlines()
        filled = sum(1 for line in source if line.strip())
        lines += filled
        if cell["cell_type"] == "code":
            code += filled
            longest = max(longest, len(source))
    return Shape(notebook.stem, lines, code, longest)


def chapters() -> list[Shape]:
    return [measure(BOOK / f"{c.stem}.ipynb") for c in load()[1]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a chapter is over a limit")
    args = parser.parse_args(argv)
    shapes = chapters()
    print("| chapter | non-blank lines | code share | longest code cell |\n| --- | --- | --- | --- |")
    for s in shapes:
        print(f"| {s.stem} | {s.lines} | {s.code_share:.0%} | {s.longest_cell} |")
    over = [f"{s.stem}: {'; '.join(s.problems())}" for s in shapes if s.problems()]
    if args.check and over:
        print("\n".join(over), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

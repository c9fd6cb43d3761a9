"""The book's chapters, read from ``book/_chapters.toml`` (issue 63, item 5): the one list that the table of contents,
CI's second floating-point pass, the smoke tests and the chapter template use.

    python -m repro.book.manifest toc            # rewrite _toc.yml from the manifest
    python -m repro.book.manifest toc --check    # exit 1 if the committed _toc.yml differs
    python -m repro.book.manifest pass2 1        # the notebooks of half 1 of CI's second pass (then the status page)
"""
from __future__ import annotations

import argparse
import difflib
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from repro.core.registry import PAPERS

ROOT = Path(__file__).resolve().parents[3]
BOOK = ROOT / "book"
MANIFEST = BOOK / "_chapters.toml"
TOC = ROOT / "_toc.yml"  # book/_toc.yml links to it
HALVES = (1, 2)
# A part that is no single paper's: the synthesis chapter judges every theory's predictions on one set of runs
SYNTHESIS = "synthesis"
FRONT = "intro"
BACK = (("Reproduction status", ("status",)),
        ("Using and extending the book", ("running", "portability", "benchmarks", "developing")))


class ManifestError(ValueError):
    """``book/_chapters.toml`` names an unknown paper or half, or a chapter twice."""


@dataclass(frozen=True)
class Chapter:
    stem: str
    paper: str  # a key of PAPERS, or SYNTHESIS
    pass2: int  # one of HALVES
    headline: str = ""  # the :name: of the chapter's figure that shows its main finding (linked from the summary box)

    def __post_init__(self):
        allowed = [*PAPERS, SYNTHESIS]
        if self.paper not in allowed:
            close = difflib.get_close_matches(self.paper, allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ManifestError(f"chapter {self.stem!r}: paper={self.paper!r} is not one of "
                                f"{', '.join(allowed)}{hint}")
        if self.pass2 not in HALVES:
            raise ManifestError(f"chapter {self.stem!r}: pass2={self.pass2!r} is not one of {HALVES}")


def load(path: Path = MANIFEST) -> tuple[dict[str, str], tuple[Chapter, ...]]:
    """The manifest's part captions (paper key -> caption) and its chapters, in book order."""
    data = tomllib.loads(path.read_text(encoding="utf8"))
    parts = dict(data.get("parts", {}))
    chapters = tuple(Chapter(**c) for c in data.get("chapter", []))
    stems = [c.stem for c in chapters]
    if len(set(stems)) != len(stems):
        raise ManifestError(f"{path.name}: a chapter is listed twice: {sorted(s for s in stems if stems.count(s) > 1)}")
    unsafe = sorted(caption for caption in parts.values() if ": " in caption or "#" in caption)
    if unsafe:  # the table of contents is YAML, where ": " and "#" in a plain caption break the file
        raise ManifestError(f"{path.name}: captions {unsafe} are not allowed: no ': ' or '#' in a part's caption")
    missing = sorted({c.paper for c in chapters} - set(parts))
    if missing:
        raise ManifestError(f"{path.name}: no [parts] caption for paper(s) {', '.join(missing)}")
    return parts, chapters


def stems(path: Path = MANIFEST) -> list[str]:
    return [c.stem for c in load(path)[1]]


def synthesis_stems(path: Path = MANIFEST) -> list[str]:
    """The chapters of the synthesis part (no single paper's): the status page gives each its own row."""
    return [c.stem for c in load(path)[1] if c.paper == SYNTHESIS]


def toc_yaml(path: Path = MANIFEST) -> str:
    """The table of contents: the introduction, one part per paper (in the order its first chapter comes), then the
    reproduction status and the reference pages."""
    parts, chapters = load(path)
    groups: dict[str, list[str]] = {}
    for c in chapters:
        groups.setdefault(c.paper, []).append(c.stem)
    lines = ["# Generated from book/_chapters.toml by `python -m repro.book.manifest toc`; do not edit.",
             "# Paths are relative to book/ (book/_toc.yml is a symlink to this file).",
             "format: jb-book", f"root: {FRONT}", "parts:"]
    sections = [(parts[paper], files) for paper, files in groups.items()] + [(cap, list(f)) for cap, f in BACK]
    for caption, files in sections:
        lines += [f"  - caption: {caption}", "    chapters:", *(f"      - file: {f}" for f in files)]
    return "\n".join(lines) + "\n"


def pass2(half: int, path: Path = MANIFEST) -> list[str]:
    """The notebooks CI's second pass re-executes on half ``half`` of its runs, the status page last."""
    if half not in HALVES:
        raise ManifestError(f"half={half!r} is not one of {HALVES}")
    return [f"book/{c.stem}.ipynb" for c in load(path)[1] if c.pass2 == half] + ["book/status.ipynb"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.manifest", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    toc = sub.add_parser("toc", help="rewrite _toc.yml from the manifest")
    toc.add_argument("--check", action="store_true", help="write nothing; exit 1 if _toc.yml is stale")
    half = sub.add_parser("pass2", help="print the notebooks of one half of CI's second pass")
    half.add_argument("half", type=int, choices=HALVES)
    args = parser.parse_args(argv)
    if args.command == "pass2":
        print(" ".join(pass2(args.half)))
        return 0
    new = toc_yaml()
    if TOC.read_text(encoding="utf8") == new:
        print("_toc.yml is current")
        return 0
    if args.check:
        print("_toc.yml is stale: run `python -m repro.book.manifest toc`")
        return 1
    from repro.core.files import write_bytes_atomic

    write_bytes_atomic(TOC, new.encode("utf8"))
    print("_toc.yml rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())

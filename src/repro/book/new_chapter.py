"""Start a chapter from the template (issue 63, item 5):

    python -m repro.book.new_chapter liu2022_new_part --paper liu2022 --title "A new part" [--run]

writes ``book/<stem>.py`` and its ``.ipynb`` (the chapter's shape: question, generated summary box, theory, setup,
run, figure, paper versus ours, evidence), ``book/_registry/<stem>.toml`` (one check and one paper claim, not
tested), ``repro.experiments.<stem>`` (a config whose defaults are the paper's values) and ``repro.plotting.<stem>``,
adds the chapter to ``book/_chapters.toml`` and regenerates ``_toc.yml``. ``--run`` executes the new chapter and
stores its outputs (:mod:`repro.book.refresh`). The template runs as it is; CONTRIBUTING.md says what to replace.
"""
from __future__ import annotations

import argparse
import datetime
import re
import sys
from pathlib import Path
from string import Template

from repro.book import manifest
from repro.core.files import write_bytes_atomic, write_notebook_atomic
from repro.core.registry import PAPER_ARXIV, PAPERS

TEMPLATE = Path(__file__).resolve().parent / "template"
ROOT = Path(__file__).resolve().parents[3]
STEM = re.compile(r"[a-z]+20[0-9]{2}_[a-z0-9_]+")
# template file -> where it goes, relative to the repository root
FILES = {"chapter.py.tmpl": "book/{stem}.py", "registry.toml.tmpl": "book/_registry/{stem}.toml",
         "experiment.py.tmpl": "src/repro/experiments/{stem}.py", "plotting.py.tmpl": "src/repro/plotting/{stem}.py"}


def check_stem(stem: str, paper: str, root: Path) -> None:
    if paper not in PAPERS:  # the template cites one paper (the synthesis part is written by hand)
        manifest.Chapter(stem, paper, manifest.HALVES[0])  # refuses an unknown paper, naming the closest key
        raise ValueError(f"paper={paper!r} is not allowed: the template starts a chapter of one paper, one of "
                         f"{', '.join(PAPERS)}.")
    if not STEM.fullmatch(stem) or not stem.startswith(paper):
        raise ValueError(f"stem={stem!r} is not allowed: the paper's key, then the part in lower case with "
                         f"underscores, e.g. {paper}_new_part")
    taken = [rel.format(stem=stem) for rel in FILES.values() if (root / rel.format(stem=stem)).exists()]
    if taken:
        raise ValueError(f"stem={stem!r} is taken: {', '.join(taken)} exist")


def create(stem: str, paper: str, title: str, root: Path = ROOT) -> list[Path]:
    """Write the new chapter's files under ``root`` (module docstring); returns them."""
    import jupytext

    from repro.book.summary import fill_notebook

    check_stem(stem, paper, root)
    values = dict(stem=stem, paper=paper, title=title, citation=PAPERS[paper], arxiv=PAPER_ARXIV[paper],
                  today=datetime.date.today().isoformat())
    written = []
    for name, rel in FILES.items():
        path = root / rel.format(stem=stem)
        write_bytes_atomic(path, Template((TEMPLATE / name).read_text(encoding="utf8")).substitute(values).encode())
        written.append(path)
    chapters = root / "book" / "_chapters.toml"
    halves = [c.pass2 for c in manifest.load(chapters)[1]]
    half = min(manifest.HALVES, key=halves.count)  # the half with fewer chapters
    text = chapters.read_text(encoding="utf8").rstrip("\n")
    write_bytes_atomic(chapters, f'{text}\n\n[[chapter]]\nstem = "{stem}"\npaper = "{paper}"\npass2 = {half}\n'.encode())
    write_bytes_atomic(root / "_toc.yml", manifest.toc_yaml(chapters).encode())
    nb = jupytext.read(root / "book" / f"{stem}.py")
    fill_notebook(nb, stem, root / "book")
    ipynb = root / "book" / f"{stem}.ipynb"
    write_notebook_atomic(ipynb, nb)
    jupytext.write(nb, root / "book" / f"{stem}.py", fmt="py:percent")
    return [*written, ipynb, chapters, root / "_toc.yml"]


NEXT = """Next:
  1. Replace the template's question, config, experiment and figure with the paper's (CONTRIBUTING.md).
  2. Register the comparisons that test each paper claim in book/_registry/{stem}.toml before their runs.
  3. Add test_{stem} to tests/test_smoke.py (every chapter's code path at smoke scale).
  4. python -m repro.book.refresh book/{stem}.ipynb, then pytest --nbval book/{stem}.ipynb."""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.new_chapter", description=__doc__.splitlines()[0])
    parser.add_argument("stem", help="the chapter's file stem: the paper's key, then the part (liu2022_new_part)")
    parser.add_argument("--paper", required=True, help=f"one of {', '.join(PAPERS)}")
    parser.add_argument("--title", required=True, help="the chapter's title")
    parser.add_argument("--run", action="store_true", help="execute the new chapter and store its outputs")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)  # the tests' scratch copy
    args = parser.parse_args(argv)
    try:
        paths = create(args.stem, args.paper, args.title, args.root)
    except ValueError as e:
        parser.error(str(e))
    print("written:\n" + "\n".join(f"  {p.relative_to(args.root)}" for p in paths))
    if args.run:
        from repro.book.refresh import main as refresh

        refresh([str(args.root / "book" / f"{args.stem}.ipynb")])
    print(NEXT.format(stem=args.stem))
    return 0


if __name__ == "__main__":
    sys.exit(main())

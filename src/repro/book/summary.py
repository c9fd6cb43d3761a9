"""The box at the top of each chapter: the paper's claims with our verdicts, one line each, generated from the
chapter's committed ledger (``book/_claims/<chapter>.json``) and registry (issue 63, item 1):

    python -m repro.book.summary            # rewrite every chapter's box (its .ipynb and its .py)
    python -m repro.book.summary --check    # exit 1, naming the chapter, if a committed box differs

The box is a Markdown cell of its own, between the MyST comment lines ``% generated: claims-summary`` and
``% end generated``: plain Markdown, so that it reads the same in the built book and in JupyterLab (a ``{glue}``
directive does not render there). ``tests/test_summary.py`` fails when a chapter lacks its box or when a box differs
from what its ledger gives, so a verdict the chapter's last refresh changed cannot stay unannounced at its top.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import nbformat

from repro.book import manifest
from repro.book.ledger import Claim
from repro.book.verdicts import MARKS, Judgement, chapter_judgements, results_by_id, tally_line
from repro.core.files import write_bytes_atomic, write_notebook_atomic
from repro.core.portable import strip_trained
from repro.core.prose import table_cell
from repro.core.registry import PAPERS, Registry

BOOK = Path(__file__).resolve().parents[3] / "book"
START, END = "% generated: claims-summary", "% end generated"
QUOTE_CHARS = 150  # a longer quote is cut at a word, so that each claim stays one line
WHY_CHARS = 110  # likewise the reason a claim is not tested
BLOCK = re.compile(re.escape(START) + r"\n.*?^" + re.escape(END) + r"$", re.MULTILINE | re.DOTALL)


def short_quote(quote: str, limit: int = QUOTE_CHARS) -> str:
    """``quote`` cut at the last word boundary before ``limit`` characters, with an ellipsis; never inside a
    ``$...$`` or ``$$...$$`` formula (the cut moves before the formula's opening delimiter)."""
    quote = " ".join(quote.split())
    if len(quote) <= limit:
        return quote
    cut = quote[:limit].rsplit(" ", 1)[0]
    delimiters = list(re.finditer(r"\$\$|\$", cut))
    if len(delimiters) % 2:
        cut = cut[:delimiters[-1].start()].rstrip()
    return cut.rstrip(",;:") + " …"


def deciding_test(j: Judgement) -> str | None:
    """The id of the test the verdict rests on: a decided disagreement ("not reproduced"), a decided agreement
    ("reproduced"), the undecided confirmatory test that holds the verdict back ("inconclusive"); else the first
    test, or None for a claim with no result."""
    first = {"not reproduced": [t for t in j.tests if t.decided and not t.agrees],
             "reproduced": [t for t in j.tests if t.decided and t.agrees],
             # undecided confirmatory tests hold the verdict back; else (only exploratory tests) a disagreement
             # says more than an agreement
             "inconclusive": [t for t in j.tests if t.cls == "confirmatory" and not t.decided]
             + [t for t in j.tests if not t.agrees]}.get(j.verdict, [])
    return next((t.id for t in [*first, *j.tests]), None)


def ours_against(claim: Claim | None) -> str:
    """'T25: 0.73 vs paper 0.4 ± 0.1': one comparison's value beside its reference and band."""
    if claim is None:
        return "—"
    dagger = " †" if claim.set_after else ""  # set after its result: exploratory, never deciding
    return f"{claim.id}{dagger}: {strip_trained(claim.ours_text())} vs {claim.against} {claim.describe()}"


def _row(j: Judgement, results: dict[str, Claim]) -> str:
    where = ", ".join(j.claim.figures) or j.claim.locator.split(";")[0]
    result = results.get(deciding_test(j))
    # a claim without a result says why (its stored run is not finished, or where the book leaves it out)
    tested = ours_against(result) if result is not None or j.verdict != "not tested" else short_quote(j.why, WHY_CHARS)
    return (f"| **{j.claim.id}** | {MARKS[j.verdict]} {j.verdict} | {table_cell(tested)} "
            f"| “{table_cell(short_quote(j.claim.quote))}” | {table_cell(where)} |")


FIGURE = re.compile(r"```\{figure\}[^\n]*\n((?::[a-z]+:[^\n]*\n)*)\n?(.*?)```", re.DOTALL)


def figure_title(nb, label: str) -> str:
    """The caption's bold title of the figure named ``label`` in ``nb`` (else its first sentence)."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for options, caption in FIGURE.findall(cell.source):
            if f":name: {label}\n" in options:
                bold = re.match(r"\*\*(.+?)\*\*", caption.strip())
                return bold.group(1).rstrip(".") if bold else short_quote(caption.split(". ")[0], 120)
    raise ValueError(f"the manifest's headline {label!r} names no figure of this chapter (no ':name: {label}')")


def headline_line(chapter: str, book: Path) -> list[str]:
    """The box's link to the chapter's headline figure (book/_chapters.toml), or nothing where it names none."""
    path = book / "_chapters.toml"
    if not path.is_file():
        return []
    label = next((c.headline for c in manifest.load(path)[1] if c.stem == chapter), "")
    if not label:
        return []
    nb = nbformat.read(book / f"{chapter}.ipynb", as_version=4)
    return [f"**The figure that shows it:** [{figure_title(nb, label)}](#{label}).", ""]


def summary_markdown(chapter: str, book: Path = BOOK) -> str:
    """The box's Markdown for ``chapter``: the link to its headline figure, a tally per paper, then one table row per
    paper claim."""
    ledger_path = book / "_claims" / f"{chapter}.json"
    ledger = json.loads(ledger_path.read_text(encoding="utf8")) if ledger_path.is_file() else {"claims": []}
    judgements = chapter_judgements(chapter, registry_dir=book / "_registry", ledger=ledger)
    results = results_by_id(ledger, Registry.load(chapter, book / "_registry"))
    parts = [START, "", *headline_line(chapter, book)]
    for key, title in PAPERS.items():
        mine = [j for j in judgements if j.claim.paper == key]
        if not mine:
            continue
        parts += [f"**{title}, claim by claim** — {tally_line(mine)}.", "",
                  "| claim | our verdict | deciding test: ours vs the reference | the paper says | where |",
                  "| --- | --- | --- | --- | --- |", *(_row(j, results) for j in mine), ""]
    if not any(p.startswith("| **C") for p in parts):
        parts += ["No paper claims are registered for this chapter.", ""]
    parts += ["The deciding test is the one the verdict rests on (a decided disagreement first; † marks one set after its "
              "result, which is exploratory and decides nothing); every test, its margin in seed standard errors and the "
              "verdict's reason are in the claim tables at the end of the chapter, and the decision rules are on the "
              "reproduction-status page.", END]
    return "\n".join(parts)


def chapters(book: Path = BOOK) -> list[str]:
    """The chapters with a claim registry (``book/_registry/<chapter>.toml``) and a notebook."""
    return sorted(p.stem for p in (book / "_registry").glob("*.toml") if (book / f"{p.stem}.ipynb").is_file())


def fill_notebook(nb, chapter: str, book: Path = BOOK) -> bool:
    """Put ``chapter``'s box into ``nb`` (in place): rewrite the markdown cell that holds it, or, where none does,
    add it as a cell after the chapter's opening cell. True if ``nb`` changed."""
    box = summary_markdown(chapter, book)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and START in cell.source:
            new = BLOCK.sub(lambda _: box, cell.source, count=1)
            changed, cell.source = new != cell.source, new
            return changed
    opening = next(i for i, c in enumerate(nb.cells) if c.cell_type == "markdown")
    cell = nbformat.v4.new_markdown_cell(box)
    cell.id = "claims-summary"  # not nbformat's random id: the stored bytes stay the same from run to run
    nb.cells.insert(opening + 1, cell)
    return True


def _commented(markdown: str) -> str:
    return "\n".join(f"# {line}" if line else "#" for line in markdown.split("\n"))


PY_BLOCK = re.compile(r"^# " + re.escape(START) + r"\n.*?^# " + re.escape(END) + r"$", re.MULTILINE | re.DOTALL)


def fill_text(text: str, chapter: str, book: Path = BOOK) -> str:
    """The chapter's ``py:percent`` text with its box rewritten (or added as a cell after the opening one)."""
    box = _commented(summary_markdown(chapter, book))
    if PY_BLOCK.search(text):
        return PY_BLOCK.sub(lambda _: box, text, count=1)
    first = text.index("# %% [markdown]")
    after = text.index("\n# %%", first + 1)
    return f"{text[:after]}\n# %% [markdown]\n{box}\n{text[after:]}"


def stale(chapter: str, book: Path = BOOK, write: bool = False) -> list[Path]:
    """The files of ``chapter`` (its .ipynb and .py) whose box differs from what its ledger gives; rewritten
    (atomically) when ``write``."""

    out = []
    ipynb, py = book / f"{chapter}.ipynb", book / f"{chapter}.py"
    nb = nbformat.read(ipynb, as_version=4)
    if fill_notebook(nb, chapter, book):
        out.append(ipynb)
        if write:
            write_notebook_atomic(ipynb, nb)
    if py.is_file():
        text = py.read_text(encoding="utf8")
        new = fill_text(text, chapter, book)
        if new != text:
            out.append(py)
            if write:
                write_bytes_atomic(py, new.encode("utf8"))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.summary", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a chapter's box is stale")
    parser.add_argument("chapter", nargs="*", help=f"chapters (default: all of {', '.join(chapters())})")
    args = parser.parse_args(argv)
    known = chapters()
    for name in args.chapter:
        if name not in known:
            parser.error(f"chapter {name!r} is not one of {', '.join(known)}")
    found = [p for name in (args.chapter or known) for p in stale(name, write=not args.check)]
    verb = "stale" if args.check else "rewritten"
    print(f"{verb}: {', '.join(p.name for p in found)}" if found else "every chapter's summary box is current")
    return 1 if found and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

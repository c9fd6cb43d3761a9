"""The paper's claims with our verdicts, one line each, from a chapter's ledger: the content of the summary box a
chapter is to open with (issue 63). Not shown by any chapter yet: a ``{glue}`` directive renders in the built book
but not in JupyterLab, so the box is to be written into the chapter's opening as generated Markdown instead."""
from __future__ import annotations

import html
import re
from pathlib import Path

from repro.book.verdicts import MARKS, chapter_judgements, tally_line
from repro.core.registry import PAPERS

QUOTE_CHARS = 150  # a quote longer than this is cut at a word, so that each claim stays one line


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


class ClaimsSummary:
    """A chapter's paper claims and their verdicts (``data``: the ledger, :meth:`ClaimBook.to_dict`; ``registry``:
    the chapter's registry folder): a tally per paper, then one row per claim — id, verdict, the paper's words
    (shortened) and where they are. The full quotes, tests and reasons are in the chapter's ledger at its end."""

    def __init__(self, data: dict, registry: str | Path):
        self.judgements = chapter_judgements(data["chapter"], registry_dir=registry, ledger=data)

    def _papers(self):
        for key, title in PAPERS.items():
            mine = [j for j in self.judgements if j.claim.paper == key]
            if mine:
                yield title, mine

    def _repr_html_(self) -> str:
        parts = []
        for title, mine in self._papers():
            rows = "".join(
                f"<tr><td><b>{j.claim.id}</b></td><td style='white-space:nowrap'>{MARKS[j.verdict]} {j.verdict}</td>"
                f"<td><i>“{html.escape(short_quote(j.claim.quote))}”</i> <small>({html.escape(j.claim.locator)})"
                "</small></td></tr>" for j in mine)
            parts.append(f"<p><b>{html.escape(title)}</b>: {html.escape(tally_line(mine))}.</p>"
                         f"<table style='font-size:90%'><tbody>{rows}</tbody></table>")
        return "".join(parts) or "<p>No paper claims are registered for this chapter.</p>"

    def __repr__(self) -> str:
        lines = []
        for title, mine in self._papers():
            lines.append(f"{title}: {tally_line(mine)}")
            lines += [f"  {j.claim.id} [{j.verdict}] {short_quote(j.claim.quote, 80)} ({j.claim.locator})"
                      for j in mine]
        return "\n".join(lines) or "No paper claims are registered for this chapter."

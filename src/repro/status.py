"""The book's reproduction-status page: every chapter's claims in one table (``book/status.ipynb``)."""
from __future__ import annotations

import html

from .claims import Claim, load_all_claims


def claims_table_html(directory: str = "_claims") -> str:
    """An HTML table of all claims in ``directory``, one row per claim, grouped by chapter."""
    chapters = load_all_claims(directory)
    rows = []
    n_pass = n_total = 0
    for chapter in chapters:
        for c in chapter["claims"]:
            claim = Claim(**c)
            n_total += 1
            n_pass += claim.passed
            rows.append(
                "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
                    chapter["chapter"], claim.name, claim.ours_text(), claim.describe(), claim.source,
                    "✅ pass" if claim.passed else "❌ FAIL")) + "</tr>"
            )
    head = "".join(f"<th>{h}</th>" for h in ("chapter", "claim", "ours", "paper", "source", "result"))
    summary = f"<p><b>{n_pass} of {n_total} claims pass</b> across {len(chapters)} chapter(s).</p>"
    return summary + f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"

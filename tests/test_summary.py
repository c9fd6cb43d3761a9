"""The claims summary at a chapter's top (repro.book.summary): one line per paper claim, its verdict computed."""
import json
from pathlib import Path

from repro.book.summary import ClaimsSummary, short_quote

BOOK = Path(__file__).resolve().parents[1] / "book"


def test_short_quote_cuts_at_a_word():
    assert short_quote("a b c", 10) == "a b c"
    assert short_quote("alpha beta, gamma delta", 12) == "alpha beta …"
    assert short_quote("  spread\n over   lines ") == "spread over lines"
    assert short_quote("the norm $w = w_c$ and then $t = \\log w_0 / w_c$ decays", 36) == "the norm $w = w_c$ and then …"
    assert short_quote("see $$a + b$$ here", 9) == "see …"


def test_summary_lists_every_paper_claim_once_with_its_verdict():
    ledger = json.loads((BOOK / "_claims" / "power2022_what_is_grokking.json").read_text(encoding="utf8"))
    summary = ClaimsSummary(ledger, BOOK / "_registry")
    lines = [line for line in repr(summary).splitlines() if line.startswith("  C")]
    ids = [line.split()[0] for line in lines]
    assert ids == [j.claim.id for j in summary.judgements] and len(set(ids)) == len(ids) > 0
    html = summary._repr_html_()
    for j in summary.judgements:
        assert f"<b>{j.claim.id}</b>" in html and j.verdict in html

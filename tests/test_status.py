"""Tests of repro.book.status: the tally line, the figure and claims tables, a chapter's ledger view and the book's
status page, rendered from claims files."""
import html

import pytest

from repro.book.claims import PAPERS, ClaimBook, load_all_claims
from repro.book.status import LedgerView, book_order, claims_table, figure_table, scorecard_html

def test_scorecard_groups_by_paper_in_book_order(tmp_path):
    toc = tmp_path / "_toc.yml"
    toc.write_text("root: intro\nparts:\n  - chapters:\n      - file: two\n      - file: one\n")
    claims_dir = tmp_path / "_claims"
    one = ClaimBook("one", claims_dir, registry=None)
    one.check("alpha", 1.0, 1.0, kind="reproduction", tolerance=0.1, source="eq. 1")
    one.figure("mohamadi2024", "Fig. 1", claims=["alpha"], why="w1")
    two = ClaimBook("two", claims_dir, registry=None)
    two.check("beta", 5.0, 4.0, kind="deviation", tolerance=0.5, source="Fig. 3", evidence="e")
    two.figure("liu2022", "Fig. 3", claims=["beta"], why="w2")
    assert book_order(toc) == ["two", "one"]
    html = scorecard_html(claims_dir, toc)
    assert html.index(PAPERS["liu2022"]) < html.index(PAPERS["mohamadi2024"])
    assert 'href="two.html#paper-versus-ours"' in html and "<details>" in html
    assert "1 reproductions, 1 registered deviations, 0 consistency checks" in html



def _chapter(tmp_path, name="ch"):
    book = ClaimBook(name, tmp_path, registry=None)
    book.check("a < b & c", 1.0, 1.0, kind="reproduction", tolerance=0.1, source="Eq. <1>")
    book.check("gap", 5.0, 4.0, kind="deviation", tolerance=0.5, source="Fig. 3", evidence="seeds <differ>",
               set_after=True)
    book.figure("liu2022", "Fig. 3", claims=["a < b & c", "gap"], why="shape & value")
    return load_all_claims(tmp_path)[0]


def test_tables_escape_text_and_mark_outcomes(tmp_path):
    data = _chapter(tmp_path)
    view = LedgerView(data)
    table = claims_table(view.claims)
    assert table.count("<tr>") == 1 + 2  # header and one row per claim
    assert "a &lt; b &amp; c" in table and "Eq. &lt;1&gt;" in table and "<1>" not in table
    assert "<i>evidence:</i> seeds &lt;differ&gt;" in table  # a deviation shows its evidence
    assert "&nbsp;†" in table  # the tolerance was set after the result
    assert "✅ agrees" in table and "❌ deviates" in table
    figs = figure_table(view.figures)
    assert figs.count("<tr>") == 2 and "shape &amp; value" in figs and "chapter</th>" not in figs
    linked = figure_table([dict(f, chapter="ch") for f in view.figures], {"ch": "ch.html#x"})
    assert '<a href="ch.html#x">ch</a>' in linked


def test_ledger_view_text_and_html_list_the_same(tmp_path):
    view = LedgerView(_chapter(tmp_path))
    text = repr(view).splitlines()
    assert text[0] == f"{PAPERS['liu2022']} Fig. 3: — (book)"  # a figure row shows its paper claims' verdicts
    assert len(text) == 1 + 2 + 1 and text[2].startswith("[deviation] gap: ours")
    assert text[3].startswith("fragile claims (margin < 2 standard errors):")
    page = view._repr_html_()
    assert "<b>Every comparison</b> (2)" in page and "partial" not in page


def test_book_order_reads_file_entries(tmp_path):
    toc = tmp_path / "_toc.yml"
    toc.write_text("format: jb-book\nroot: intro\nparts:\n  - caption: A\n    chapters:\n"
                   "      - file: b_chapter\n      - file: a_chapter\n  - chapters:\n      - file: status\n")
    assert book_order(toc) == ["b_chapter", "a_chapter", "status"]  # root is not a file: entry


def test_scorecard_names_claims_that_did_not_come_out(tmp_path):
    toc = tmp_path / "_toc.yml"
    toc.write_text("parts:\n  - chapters:\n      - file: ch\n")
    book = ClaimBook("ch", tmp_path / "_claims", registry=None)
    book.check("ok", 1.0, 1.0, kind="reproduction", tolerance=0.1, source="s")
    book.figure("liu2022", "Fig. 1", claims=["ok"], why="w")
    assert "all came out as registered." in scorecard_html(tmp_path / "_claims", toc)
    path = tmp_path / "_claims" / "ch.json"
    path.write_text(path.read_text().replace('"passed": true', '"passed": false'))
    page = scorecard_html(tmp_path / "_claims", toc)
    assert "1 did NOT come out as registered: ch: ok." in page


def test_fragile_claims_are_listed_in_one_marked_span(tmp_path):
    from repro.book.claims import ClaimBook
    from repro.book.status import fragility_html, fragility_text
    from repro.core.portable import TRAINED_MARK

    book = ClaimBook("ch", tmp_path, registry=None)
    book.check("close", 0.9, 0.88, kind="reproduction", comparison=">=", source="s", seeds=[0.85, 0.9, 0.95, 0.9])
    book.check("firm", 0.9, 0.5, kind="reproduction", comparison=">=", source="s", seeds=[0.85, 0.9, 0.95, 0.9])
    book.check("single run", 0.9, 0.5, kind="reproduction", comparison=">=", source="s")
    page = fragility_html(book.claims)
    assert page.count(TRAINED_MARK) == 2 and "close (1.0; no reason given)" in page and "firm" not in page.split("without")[0]
    assert "1 of 3 (single run)" in page
    assert fragility_text(book.claims).count(TRAINED_MARK) == 2


def test_figure_rows_show_fragile_claims_in_a_fixed_shape_and_no_verdict_of_their_own(tmp_path):
    from repro.book.claims import ClaimBook
    from repro.core.portable import TRAINED_MARK

    book = ClaimBook("ch", tmp_path, registry=None)
    book.check("close", 0.9, 0.88, kind="reproduction", comparison=">=", source="s", seeds=[0.85, 0.9, 0.95, 0.9])
    book.check("late", 1.0, 1.0, kind="reproduction", tolerance=0.1, source="s", set_after=True)
    book.figure("liu2022", "Fig. 1", claims=["close"], why="w")
    book.figure("liu2022", "Fig. 2", claims=["late"], why="only a tolerance set after the result")
    page = book.ledger()._repr_html_()
    assert "strongest evidence" not in page and "only a tolerance set after the result" in page
    # Both rows carry a fragile list, one marked span each, whichever claims are fragile on this machine.
    assert page.count("<i>fragile:</i> " + TRAINED_MARK) == 2
    assert "† set after:" in page


def test_the_page_opens_with_one_row_per_paper_and_the_books_total():
    """The overview counts each paper's claims by verdict and links its arXiv page and its chapters."""
    import json
    import re
    from pathlib import Path

    from repro.book.status import overview_table
    from repro.book.verdicts import chapter_judgements

    book = Path(__file__).resolve().parents[1] / "book"
    judged = {stem: chapter_judgements(stem, registry_dir=book / "_registry",
                                       ledger=json.loads((book / "_claims" / f"{stem}.json").read_text()))
              for stem in ("power2022_what_is_grokking", "liu2023_omnigrok")}
    html = overview_table(judged, {s: f"{s}.html#x" for s in judged})
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert len(rows) == 5  # header; Power; Liu et al. 2022 (the opening chapter's C7-C8); Omnigrok; the book
    assert "arxiv.org/abs/2201.02177" in html and 'href="liu2023_omnigrok.html"' in html
    total = sum(len(js) for js in judged.values())
    assert f"<b>{total}</b>" in rows[-1]


def test_the_synthesis_chapter_has_its_own_row_and_stays_out_of_the_papers_rows():
    """The synthesis chapter judges every theory's predictions on one sweep: the status page gives it a row and a
    section of its own, and the papers' rows count only the chapters that test a paper in its own setting."""
    from pathlib import Path

    from repro.book.manifest import synthesis_stems

    book = Path(__file__).resolve().parents[1] / "book"
    assert synthesis_stems() == ["synthesis_one_task"]
    page = scorecard_html(book / "_claims", book.parent / "_toc.yml", book / "_registry")
    overview = page[: page.index("</table>")]
    assert "every theory on one task (synthesis)" in overview
    assert overview.count('href="synthesis_one_task.html"') == 1  # its own row only, in no paper's chapters cell
    assert "<h3>Every theory on one task (synthesis_one_task)</h3>" in page

"""The chapters' opening summary boxes (repro.book.summary): present in every chapter, current with the committed
ledgers, and moved by a verdict that changes."""
import json
import shutil

import nbformat
import pytest

from repro.core.prose import table_cell

from repro.book import summary
from repro.book.summary import BOOK, chapters, fill_notebook, fill_text, short_quote, stale, summary_markdown

CHAPTERS = chapters()


def test_every_chapter_with_a_registry_is_listed():
    assert len(CHAPTERS) == len(list((BOOK / "_registry").glob("*.toml"))) >= 10


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_committed_box_is_what_the_ledger_gives(chapter):
    assert stale(chapter) == [], f"run `python -m repro.book.summary {chapter}`"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_box_comes_right_after_the_opening_cell(chapter):
    nb = nbformat.read(BOOK / f"{chapter}.ipynb", as_version=4)
    assert nb.cells[0].source.startswith("# ") and summary.START in nb.cells[1].source
    assert nb.cells[1].id == "claims-summary"


def _book_copy(tmp_path, chapter):
    for folder in ("_claims", "_registry"):
        (tmp_path / folder).mkdir()
    shutil.copy(BOOK / "_claims" / f"{chapter}.json", tmp_path / "_claims")
    shutil.copy(BOOK / "_registry" / f"{chapter}.toml", tmp_path / "_registry")
    return tmp_path


def test_a_verdict_that_changes_changes_the_box(tmp_path):
    chapter = "liu2022_critical_data"
    book = _book_copy(tmp_path, chapter)
    before = summary_markdown(chapter, book)
    assert "✅ reproduced" in before
    ledger = json.loads((book / "_claims" / f"{chapter}.json").read_text())
    ledger["claims"] = []  # no results: every claim becomes "not tested"
    (book / "_claims" / f"{chapter}.json").write_text(json.dumps(ledger))
    after = summary_markdown(chapter, book)
    assert "✅" not in after and after.count("⏳ not tested") == before.count("| **C")


def test_a_chapter_without_a_box_gets_one_after_its_opening():
    chapter = "liu2022_critical_data"
    text = (BOOK / f"{chapter}.py").read_text()
    bare = summary.PY_BLOCK.sub("", text)
    assert summary.START not in bare
    filled = fill_text(bare, chapter)
    assert filled.index(summary.START) < filled.index("**What we reproduce here.**")
    nb = nbformat.read(BOOK / f"{chapter}.ipynb", as_version=4)
    del nb.cells[1]
    assert fill_notebook(nb, chapter) and summary.START in nb.cells[1].source
    assert not fill_notebook(nb, chapter)  # the second time there is nothing to change


def test_a_quote_is_cut_at_a_word_and_never_inside_a_formula():
    assert short_quote("a b c", 10) == "a b c"
    assert short_quote("alpha beta gamma delta", 12) == "alpha beta …"
    cut = short_quote("the rate is $\\lambda_3 = 1 / n$ here", 20)
    assert cut == "the rate is …"


def test_a_misspelt_chapter_is_refused(capsys):
    with pytest.raises(SystemExit):
        summary.main(["--check", "liu2022_critical"])
    assert "is not one of" in capsys.readouterr().err


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_each_row_shows_the_test_its_verdict_rests_on(chapter):
    """A tested claim's row names one of its own tests with ours and the reference; an untested one says why not."""
    from repro.book.verdicts import chapter_judgements

    rows = {line.split("|")[1].strip(" *"): line.split("|")[3].strip()
            for line in summary_markdown(chapter).splitlines() if line.startswith("| **")}
    for j in chapter_judgements(chapter, BOOK / "_claims", BOOK / "_registry"):
        shown = rows[j.claim.id]
        test_id = shown.split(":")[0].removesuffix(" †")
        if j.verdict == "not tested":
            assert " vs " not in shown and shown.rstrip(" …") in table_cell(j.why), (j.claim.id, shown)
        else:
            assert test_id in {t.id for t in j.tests} and " vs " in shown, (j.claim.id, shown)
            if j.verdict == "not reproduced":  # the disagreement that decides it, not an agreeing test
                assert any(t.id == test_id and t.decided and not t.agrees for t in j.tests)

import json

import pytest

from repro.claims import ClaimBook, ClaimFailed, evaluate, load_all_claims
from repro.status import claims_table_html


def test_passing_claims_are_written(tmp_path):
    book = ClaimBook("ch", tmp_path)
    book.check("a", 1.004, 1.0, tolerance=0.01, source="eq. 3")
    book.check("b", 12.0, 10.0, comparison=">=", source="Fig. 1")
    book.check("c", 0.5, 0.55, tolerance=0.1, comparison="rel", source="Table 2")
    data = json.loads((tmp_path / "ch.json").read_text())
    assert data["chapter"] == "ch"
    assert [c["name"] for c in data["claims"]] == ["a", "b", "c"]
    assert all(c["passed"] for c in data["claims"])
    assert set(data["claims"][0]) >= {"name", "ours", "paper", "tolerance", "source", "passed"}


def test_failing_claim_raises_and_is_recorded(tmp_path):
    book = ClaimBook("ch", tmp_path)
    with pytest.raises(ClaimFailed, match="claim 'x' failed"):
        book.check("x", 2.0, 1.0, tolerance=0.5, source="Fig. 2")
    data = json.loads((tmp_path / "ch.json").read_text())
    assert data["claims"][0]["passed"] is False
    with pytest.raises(ClaimFailed):
        book.check("y", 9.0, 10.0, comparison=">=", source="Fig. 1")
    with pytest.raises(ClaimFailed):
        book.check("nan", float("nan"), 1.0, tolerance=1.0, source="Fig. 1")


@pytest.mark.parametrize("ours, paper, tol, cmp, expected", [
    (1.0, 1.0, 0.0, "abs", True), (1.1, 1.0, 0.05, "abs", False), (105, 100, 0.05, "rel", True),
    (106, 100, 0.05, "rel", False), (3, 3, None, ">=", True), (3, 3, None, "<=", True), (4, 3, None, "<=", False),
])
def test_evaluate(ours, paper, tol, cmp, expected):
    assert evaluate(ours, paper, tol, cmp) is expected


def test_bad_claim_inputs(tmp_path):
    book = ClaimBook("ch", tmp_path)
    with pytest.raises(ValueError, match="comparison"):
        book.check("a", 1, 1, tolerance=0.1, comparison="~", source="x")
    with pytest.raises(ValueError, match="tolerance"):
        book.check("a", 1, 1, source="x")
    with pytest.raises(ValueError, match="source"):
        book.check("a", 1, 1, tolerance=0.1, source="")
    with pytest.raises(ValueError, match="chapter"):
        ClaimBook("a/b", tmp_path)


def test_status_table_lists_every_claim(tmp_path):
    ClaimBook("one", tmp_path).check("alpha", 1.0, 1.0, tolerance=0.1, source="eq. 1")
    two = ClaimBook("two", tmp_path)
    two.check("beta", 5.0, 4.0, comparison=">=", source="Fig. 3")
    assert [c["chapter"] for c in load_all_claims(tmp_path)] == ["one", "two"]
    html = claims_table_html(str(tmp_path))
    assert "alpha" in html and "beta" in html and "2 of 2 claims pass" in html


def test_committed_claim_files_all_pass():
    """The book's own claims files: every recorded claim passed (a failed one must not be committed)."""
    from pathlib import Path

    directory = Path(__file__).resolve().parents[1] / "book" / "_claims"
    chapters = load_all_claims(directory)
    assert chapters, "book/_claims is empty"
    for chapter in chapters:
        for c in chapter["claims"]:
            assert c["passed"], f"{chapter['chapter']}: claim {c['name']!r} is recorded as failed"

"""Every chapter notebook has its py:percent pair, and the two hold the same cells (no timestamps involved)."""
from pathlib import Path

import jupytext
import nbformat
import pytest
from jupytext.compare import compare_notebooks

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(p for p in BOOK.glob("*.ipynb"))


def test_book_has_notebooks():
    assert NOTEBOOKS, "no chapter notebooks found in book/"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_pair_in_sync(path):
    pair = path.with_suffix(".py")
    assert pair.exists(), f"{path.name} has no py:percent pair {pair.name}; run `jupytext --set-formats ipynb,py:percent {path}`"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # the stored inline-expression values live in the .ipynb only (cell_metadata_filter)
        cell.metadata.pop("user_expressions", None)
    text_nb = jupytext.read(pair, fmt="py:percent")
    compare_notebooks(text_nb, nb, fmt="py:percent", allow_expected_differences=True, compare_outputs=False)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_outputs_are_clean(path):
    """Stored outputs carry no errors, no progress bars and no timing metadata."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        assert "execution" not in cell.get("metadata", {}), f"{path.name}: timing metadata; refresh with python -m repro.book.refresh"
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name}: a stored error output"
            assert not (out.get("output_type") == "stream" and out.get("name") == "stderr"), f"{path.name}: stderr stored"

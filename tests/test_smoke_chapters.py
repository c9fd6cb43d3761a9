"""Every chapter executes end to end at ``REPRO_SCALE=smoke``: the smallest sizes, every code path, no verdicts
(claims are recorded but never raise there). Each runs in a scratch copy of ``book/``, so nothing it writes (its
ledger, a stored result at smoke size) reaches the book."""
import os
import shutil
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
CHAPTERS = sorted(p.stem for p in BOOK.glob("*.ipynb") if p.stem != "status")
IGNORE = shutil.ignore_patterns("_build", "_figures", "__pycache__", ".ipynb_checkpoints")


@pytest.fixture(scope="module")
def scratch_book(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("smoke") / "book"
    shutil.copytree(BOOK, target, ignore=IGNORE, symlinks=True)
    return target


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_runs_at_smoke_scale(chapter, scratch_book, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("REPRO_SCALE", "smoke")
    monkeypatch.setenv("REPRO_PROGRESS", "0")
    path = scratch_book / f"{chapter}.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(scratch_book)}}).execute()
    assert (scratch_book / "_claims" / "smoke" / f"{chapter}.json").exists() or "ClaimBook" not in path.read_text()
    assert os.environ["REPRO_SCALE"] == "smoke"

"""The book's generated reference pages (repro.book.pages): each committed page equals what its data generate, every
stored run of book/_results is one row's, and every row's options are its module's."""
import ast
import re
from pathlib import Path

import pytest

from repro.book import pages
from repro.book.paper_scale import experiments

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.parametrize("name", pages.PAGES)
def test_committed_page_is_what_its_data_generate(name):
    text = (ROOT / "book" / name).read_text(encoding="utf8")
    assert pages.BLOCK.search(text), f"book/{name} has no generated block"
    assert pages.render(text) == text, f"book/{name} is stale: run python -m repro.book.pages"


def test_every_stored_entry_is_one_rows_and_every_row_has_entries():
    entries = pages.store_entries(ROOT / "book" / "_results")
    rows = [row for _, (_, rs) in pages.STORED_RUNS.items() for row in rs]
    claimed = {}
    for row in rows:
        mine = pages.entries_of(row, entries)
        assert mine, f"no stored entry for the row {row.what[:60]!r} (labels {row.labels})"
        for e in mine:
            claimed.setdefault(e.folder, []).append(row.what[:40])
    for e in entries:
        assert len(claimed.get(e.folder, [])) == 1, f"{e.folder}: rows {claimed.get(e.folder, [])}"


def _without_stored_run_table(source: str) -> str:
    """``source`` less its ``STORED_RUN_TABLE`` assignment, whose rows would otherwise name their own options."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "STORED_RUN_TABLE" for t in node.targets):
            return source.replace(ast.get_source_segment(source, node), "")
    raise AssertionError("no STORED_RUN_TABLE assignment")


@pytest.mark.parametrize("module", list(pages.STORED_RUNS))
def test_rows_name_their_modules_options_and_chapters(module):
    source = _without_stored_run_table(
        (ROOT / "src" / "repro" / "experiments" / f"{module}.py").read_text(encoding="utf8"))
    chapter, rows = pages.STORED_RUNS[module]
    assert (ROOT / "book" / f"{chapter}.py").exists(), chapter
    for row in rows:
        for token in row.options.split():
            if token.startswith("--"):
                assert f'"{token}"' in source, f"{module} has no option {token}"
            elif not re.fullmatch(r"[0-9]+", token):
                assert f'"{token}"' in source, f"{module}: {token!r} is not one of its choices"


def test_measurements_name_registered_experiments():
    names = {e.name for e in experiments()}
    assert set(pages.PAPER_SCALE_GPU) <= names, sorted(set(pages.PAPER_SCALE_GPU) - names)
    table = pages.PAPER_SCALE_CPU_FILE.read_text(encoding="utf8")
    measured = {line.split(" | ")[1] for line in table.splitlines() if line.startswith("| `")}
    assert measured == names, sorted(measured ^ names)  # every experiment measured, none that no longer exists


def test_render_refuses_an_unknown_block():
    with pytest.raises(ValueError, match="not one of"):
        pages.render("% generated: nonsense\n% end generated\n")


def test_an_unfinished_runs_blocks_read_in_words():
    assert pages._reached((5,), 10) == "at step 5 of 10"
    assert pages._reached((5, 0), 10) == "blocks of runs at steps 5 and 0 of 10"
    assert pages._reached((10, 10, 7, 3, 0), 10) == "5 blocks of runs of 10 steps: 2 done, 2 at steps 7, 3, 1 not started"

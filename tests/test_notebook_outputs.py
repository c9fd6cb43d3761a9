"""What the stored chapter outputs show a reader: every figure once, and no object reprs in place of results.

A figure glued for the prose (``repro.core.prose.glue(..., display=False)``) is shown where the prose places it;
if the cell also displayed it (the inline backend shows every open figure at a cell's end) the page showed it
twice. A ``Claim(...)`` or ``FigureRow(...)`` repr is a registration call's return value leaking into a cell's
output."""
import json
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
REPR = re.compile(r"^(Claim|FigureRow|FigureVerdict|ClaimBook)\(")


def _code_cells(path):
    return [c for c in json.loads(path.read_text(encoding="utf8"))["cells"] if c["cell_type"] == "code"]


def _glued_image(output) -> bool:
    return "scrapbook" in output.get("metadata", {}) and any("image/" in k for k in output.get("data", {}))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_glued_figure_is_shown_once(path):
    twice = []
    for k, cell in enumerate(_code_cells(path)):
        outputs = cell.get("outputs", [])
        shown = [o for o in outputs if "scrapbook" not in o.get("metadata", {})
                 and any(m.startswith("image/") for m in o.get("data", {}))]
        if shown and any(_glued_image(o) for o in outputs):
            twice.append(f"code cell {k}: {''.join(cell['source'])[:60]!r}")
    assert not twice, f"{path.name}: cells that glue a figure and also display one:\n" + "\n".join(twice)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_registration_repr_in_outputs(path):
    leaks = []
    for k, cell in enumerate(_code_cells(path)):
        for o in cell.get("outputs", []):
            text = o.get("data", {}).get("text/plain", o.get("text", ""))
            text = "".join(text) if isinstance(text, list) else text
            if REPR.match(text.strip()):
                leaks.append(f"code cell {k}: {text.strip()[:60]!r}")
    assert not leaks, f"{path.name}: outputs that are a registration call's repr:\n" + "\n".join(leaks)



VERIFY = re.compile(r"claims\.(check|figure|unreached)\(|figure_from\(|[(,] *claims\b")


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.stem != "status"], ids=lambda p: p.name)
def test_verification_is_one_click_away(path):
    """A cell that registers a claim or a figure row shows its output but folds its code in the built book
    (MyST-NB's ``hide-input``); the ledger tables under "Paper versus ours" fold their output too."""
    cells = json.loads(path.read_text(encoding="utf8"))["cells"]
    section, open_code, open_tables = "", [], []
    for k, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            section = next((l for l in reversed(source.splitlines()) if l.startswith("## ")), section)
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        if VERIFY.search(source) and "hide-input" not in tags:
            open_code.append(f"cell {k}: {source[:50]!r}")
        if section.startswith("## Paper versus ours") and "hide-output" not in tags:
            open_tables.append(f"cell {k}: {source[:50]!r}")
    assert not open_code, f"{path.name}: registration code shown unfolded:\n" + "\n".join(open_code)
    assert not open_tables, f"{path.name}: ledger tables shown unfolded:\n" + "\n".join(open_tables)

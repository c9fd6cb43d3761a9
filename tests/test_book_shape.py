"""Every chapter reads as a lecture (issue 63): code at most ``MAX_CODE_SHARE`` of its lines, no code cell longer
than ``MAX_CELL_LINES`` lines (``python -m repro.book.shape`` prints the table)."""
import json

import pytest

from repro.book import shape


@pytest.mark.parametrize("chapter", shape.chapters(), ids=lambda s: s.stem)
def test_chapter_within_the_lecture_limits(chapter):
    assert not chapter.problems(), f"{chapter.stem}: {'; '.join(chapter.problems())}"


def test_the_limits_are_enforced(tmp_path):
    long_cell = {"cell_type": "code", "source": ["x = 1\n"] * (shape.MAX_CELL_LINES + 1), "metadata": {},
                 "outputs": [], "execution_count": None}
    prose = {"cell_type": "markdown", "source": ["text\n"], "metadata": {}}
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps({"cells": [prose, long_cell]}))
    problems = shape.measure(path).problems()
    assert any("longest code cell" in p for p in problems) and any("code share" in p for p in problems)


# A figure is shown at the page's width (about 800 px): one wider than about 13 in at the house style's 120 dpi (legends
# outside the axes included) would shrink its 12-13 pt labels below about 10 px there.
MAX_FIGURE_PX = 13 * 120 + 40


def _png_width(data: str) -> int:
    import base64
    import struct

    head = base64.b64decode(data[:64])
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">I", head[16:20])[0]


@pytest.mark.parametrize("chapter", shape.chapters(), ids=lambda s: s.stem)
def test_stored_figures_fit_the_page(chapter):
    import nbformat

    nb = nbformat.read(shape.BOOK / f"{chapter.stem}.ipynb", as_version=4)
    pngs = [(i, data) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for out in cell.get("outputs", []) for key, data in out.get("data", {}).items()
            if key.endswith("image/png")]  # shown, or glued (application/papermill.record/image/png)
    assert pngs or chapter.stem == "status", f"{chapter.stem}: no stored figure found"
    wide = [(i, w) for i, data in pngs for w in [_png_width(data)] if w > MAX_FIGURE_PX]
    assert not wide, f"{chapter.stem}: figures wider than {MAX_FIGURE_PX} px (cell, width): {wide}"

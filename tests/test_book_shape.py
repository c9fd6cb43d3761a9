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

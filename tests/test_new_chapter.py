"""The chapter template (python -m repro.book.new_chapter): a chapter made from it, in a scratch copy of the
repository, executes, is stored, passes nbval, and opens with its generated summary box; bad names are refused."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from repro.book import manifest, summary
from repro.book.new_chapter import create

ROOT = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns("__pycache__", "*.egg-info")


@pytest.fixture
def scratch(tmp_path) -> Path:
    """The package, the pytest settings and the book's manifest, conftest and (empty) registry, in ``tmp_path``."""
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=IGNORE)
    for name in ("pyproject.toml", "nbval_sanitize.cfg", "_toc.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "book" / "_registry").mkdir(parents=True)
    for name in ("conftest.py", "_chapters.toml"):
        shutil.copy(ROOT / "book" / name, tmp_path / "book" / name)
    return tmp_path


def _run(args, root: Path):
    env = dict(os.environ, PYTHONPATH=str(root / "src"), REPRO_PROGRESS="0")
    env.pop("REPRO_SCALE", None)
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_chapter_from_the_template_runs_and_passes_nbval(scratch):
    made = _run(["-m", "repro.book.new_chapter", "liu2022_new_part", "--paper", "liu2022", "--title", "A new part",
                 "--run"], scratch)
    assert made.returncode == 0, made.stderr[-2000:]
    assert "liu2022_new_part" in manifest.stems(scratch / "book" / "_chapters.toml")
    assert "file: liu2022_new_part" in (scratch / "_toc.yml").read_text()
    nb = nbformat.read(scratch / "book" / "liu2022_new_part.ipynb", as_version=4)
    assert summary.START in nb.cells[1].source and "⏳ not tested" in nb.cells[1].source
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert any("1 of 3 settings differ" in str(o) for o in outputs)  # the setup table, read from the config
    assert (scratch / "book" / "_claims" / "liu2022_new_part.json").is_file()
    checked = _run(["-m", "pytest", "-q", "--nbval", "book/liu2022_new_part.ipynb"], scratch)
    assert checked.returncode == 0 and " passed" in checked.stdout, checked.stdout[-2000:]


def test_a_misspelt_paper_or_a_taken_stem_is_refused(tmp_path):
    with pytest.raises(ValueError, match="did you mean 'mohamadi2024'"):
        create("mohamadi2024_x", "mohamadi2042", "x", tmp_path)
    with pytest.raises(ValueError, match="stem='Liu2022-X' is not allowed"):
        create("Liu2022-X", "liu2022", "x", tmp_path)
    with pytest.raises(ValueError, match="is taken: book/liu2022_critical_data.py"):
        create("liu2022_critical_data", "liu2022", "x", ROOT)

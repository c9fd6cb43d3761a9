"""repro.core.prose: glued values for the prose of both renderers, and the figures the chapters show."""
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from repro.core import prose

BOOK = Path(__file__).resolve().parents[1] / "book"
PNG = b"\x89PNG\r\n\x1a\n-not-a-real-image"


def glued(name, text=None, png=None):
    data = {}
    if text is not None:
        data[prose.GLUE_TEXT] = text
    if png is not None:
        import base64

        data[prose.GLUE_PNG] = base64.b64encode(png).decode()
    return new_output("display_data", data=data, metadata={"scrapbook": {"name": name, "mime_prefix": prose.GLUE_PREFIX}})


def notebook(markdown, outputs):
    return new_notebook(cells=[new_markdown_cell(m) for m in markdown] + [new_code_cell("x", outputs=outputs)])


def test_plain_text_reads_values_as_glue_text_shows_them():
    assert prose.plain_text("'\\u2060100\\u2060'") == "\u2060100\u2060"  # a string's repr, escapes included
    assert prose.plain_text("3.5") == "3.5" and prose.plain_text("not a literal") == "not a literal"
    assert repr(prose.ProseText("x")) == "'x'"  # repr is a str's; IPython shows it bare (_repr_pretty_)


def test_user_expressions_hold_each_cells_values_in_jupyterlab_myst_format():
    nb = notebook(["a {eval}`glued.n` and {eval}`glued.n`, {eval}`glued.t`", "no expression"],
                  [glued("n", "'12'"), glued("t", "'\\u20600.5\\u2060'")])
    nb.cells[1].metadata["user_expressions"] = [{"expression": "stale"}]
    assert prose.add_user_expressions(nb) == 2
    first = nb.cells[0].metadata["user_expressions"]
    assert [e["expression"] for e in first] == ["glued.n", "glued.t"]
    assert first[0]["result"] == {"status": "ok", "data": {"text/plain": "12"}, "metadata": {}}
    assert first[1]["result"]["data"]["text/plain"] == "\u20600.5\u2060"
    assert "user_expressions" not in nb.cells[1].metadata
    with pytest.raises(ValueError, match="glues no text named 'missing'"):
        prose.add_user_expressions(notebook(["{eval}`glued.missing`"], []))


def test_export_figures_writes_what_the_markdown_shows(tmp_path):
    md = ["```{figure} _figures/ch/fig_a.png\n:name: a\n\ncaption\n```", "```{figure} _figures/ch/fig_b.png\n```"]
    nb = notebook(md, [glued("fig_a", png=PNG), glued("fig_b", text="'not stored yet'"), glued("fig_c", png=PNG)])
    stale = tmp_path / "_figures" / "ch" / "old.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"x")
    written = prose.export_figures(nb, tmp_path / "ch.ipynb")
    assert sorted(p.name for p in written) == ["fig_a.png", "fig_b.png"]  # fig_c is glued but not shown
    assert (tmp_path / "_figures/ch/fig_a.png").read_bytes() == PNG
    assert (tmp_path / "_figures/ch/fig_b.png").read_bytes().startswith(b"\x89PNG")  # the text, drawn
    assert not stale.exists()
    with pytest.raises(ValueError, match="shows its own figures"):
        prose.export_figures(nb, tmp_path / "other.ipynb")
    with pytest.raises(ValueError, match="never glues"):
        prose.export_figures(notebook(md[:1], []), tmp_path / "ch.ipynb")


def test_glue_outside_a_kernel_only_glues(capsys):
    pytest.importorskip("myst_nb")
    prose.glue("n", "12")  # no IPython shell: nothing to set, nothing raised
    with pytest.raises(ValueError, match="identifier"):
        prose.glue("not an identifier", 1)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(BOOK.glob("*.ipynb")), ids=lambda p: p.stem)
def test_committed_chapters_carry_current_prose_values_and_their_figures(path, tmp_path):
    """Every chapter's stored inline-expression values are the ones its stored outputs give (what `python -m
    repro.book.refresh --no-execute` writes), and every figure it shows is glued."""
    nb = nbformat.read(path, as_version=4)
    before = nbformat.writes(nb)
    prose.add_user_expressions(nb)
    assert nbformat.writes(nb) == before, f"{path.name}: run python -m repro.book.refresh --no-execute {path}"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "{glue:" not in text, f"{path.name}: write {{eval}}`glued.KEY` and ```{{figure}} _figures/..., not glue roles"
    copy = tmp_path / path.name
    prose.export_figures(nb, copy)  # raises if a figure is not glued or names another chapter

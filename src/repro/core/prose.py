"""Numbers in a chapter's prose that read the same in the built book and in JupyterLab (core layer: imports
only repro.core; myst_nb, IPython and matplotlib are imported only when used).

A chapter writes a computed number into its text as the MyST inline expression ``{eval}`glued.KEY``` and
computes it with :func:`glue` (``glue("KEY", value, display=False)``). One value, three readers:

* **Jupyter Book** (myst-nb, stored outputs, no kernel): :func:`glue` stores the value as myst-nb's glue does,
  and the book's Sphinx extension ``book/_ext/prose_eval.py`` renders ``{eval}`glued.KEY``` as
  ``{glue:text}`KEY``` would.
* **JupyterLab with jupyterlab-myst, before anything runs**: the stored notebook carries each markdown cell's
  expressions and their values in the cell's ``user_expressions`` metadata (the format jupyterlab-myst reads),
  written from the glued outputs by :func:`add_user_expressions` (``python -m repro.book.refresh`` does it
  after every execution).
* **JupyterLab after the chapter runs**: :func:`glue` also sets ``glued.KEY`` in the kernel, so
  jupyterlab-myst evaluates the same expression when the markdown cell is rendered again.

Everything lives under the one name ``glued`` in the kernel, so no glued key can overwrite a chapter's own
variable.

Figures work the same way: a chapter glues a figure (``glue("fig_x", fig)``) and its markdown shows it with
MyST's ``figure`` directive on ``_figures/<chapter>/fig_x.png``, which both renderers understand.
:func:`export_figures` writes those files from the stored outputs (the book's Sphinx extension before every
build, ``python -m repro.book.refresh`` after every execution, ``scripts/setup.sh`` for a fresh clone); they are
derived files, not committed.
"""
from __future__ import annotations

import ast
import base64
import io
import re
from pathlib import Path
from typing import Any

GLUED = "glued"
# {eval}`glued.KEY` in a markdown cell: the only inline expression the chapters use
EXPRESSION = re.compile(r"\{eval\}`(" + GLUED + r"\.([A-Za-z_][A-Za-z0-9_]*))`")
GLUE_PREFIX = "application/papermill.record/"  # how myst-nb marks a glued output's mime types (display=False)
GLUE_TEXT = GLUE_PREFIX + "text/plain"
GLUE_PNG = GLUE_PREFIX + "image/png"
FIGURES = "_figures"  # beside the chapters: _figures/<chapter>/<key>.png
# ```{figure} _figures/<chapter>/<key>.png in a markdown cell
FIGURE = re.compile(r"```\{figure\} " + FIGURES + r"/([^/\s]+)/([A-Za-z_][A-Za-z0-9_]*)\.png")


class ProseText(str):
    """A glued value's text: IPython shows it bare (no quotes), as ``{glue:text}`` renders it."""

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(str(self))


class Glued:
    """The kernel's ``glued`` namespace: one attribute per glued key."""

    def __repr__(self) -> str:
        return f"glued({', '.join(sorted(vars(self)))})"


def plain_text(text: str) -> str:
    """A glued value's text/plain as ``{glue:text}`` shows it: a Python literal (a string's repr, quotes and
    escapes included) evaluated, anything else as it is (myst-nb's ``format_plain_text``)."""
    try:
        return str(ast.literal_eval(text))
    except (SyntaxError, ValueError):
        return text


def table_cell(text: str) -> str:
    """``text`` safe inside one cell of a Markdown table (a ``|`` would end the cell)."""
    return str(text).replace("|", "\\|")


def glue(name: str, value: Any, display: bool = True) -> None:
    """myst-nb's ``glue(name, value, display)`` (the stored output is exactly myst-nb's), and ``glued.<name>`` in the
    kernel for JupyterLab's inline expressions. ``name`` must be a Python identifier. A matplotlib figure glued with
    ``display=False`` is closed, so that the inline backend does not show it a second time at the cell's end (the
    page shows it where the prose places it)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"glue name {name!r} is not allowed: it must be a Python identifier ({{eval}}`glued.NAME` "
                         "reads it in JupyterLab).")
    from myst_nb import glue as myst_glue

    myst_glue(name, value, display=display)
    if not display and type(value).__module__.startswith("matplotlib"):
        import matplotlib.pyplot as plt
        from matplotlib.figure import Figure

        if isinstance(value, Figure):
            plt.close(value)
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - myst_nb depends on IPython
        return
    shell = get_ipython()
    if shell is None:
        return
    holder = shell.user_ns.get(GLUED)
    if holder is None:
        holder = shell.user_ns[GLUED] = Glued()
    elif not isinstance(holder, Glued):
        raise ValueError(f"the chapter defines its own variable {GLUED!r}: rename it, the prose reads glued values "
                         f"from {GLUED}.KEY.")
    if isinstance(value, (str, int, float)):
        from IPython.core.formatters import format_display_data

        setattr(holder, name, ProseText(plain_text(format_display_data(value)[0]["text/plain"])))
    else:  # a figure or table: the object itself (an inline expression of it renders it)
        setattr(holder, name, value)


def glue_all(values: dict[str, Any]) -> None:
    """Glues each ``name: value`` for the prose, in order, without displaying it."""
    for name, value in values.items():
        glue(name, value, display=False)

def _glued(nb, mime: str) -> dict[str, str]:
    """Every glued output's ``mime`` data in a notebook's stored outputs (displayed or not), by glue name."""
    found = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            scrapbook = output.get("metadata", {}).get("scrapbook", {})
            data = output.get("data", {}).get(scrapbook.get("mime_prefix", "") + mime)
            if "name" in scrapbook and data is not None:
                found[scrapbook["name"]] = data if isinstance(data, str) else "".join(data)
    return found


def glued_text(nb) -> dict[str, str]:
    """Every value glued in a notebook's stored outputs, as the text ``{glue:text}`` shows."""
    return {name: plain_text(text) for name, text in _glued(nb, "text/plain").items()}


def add_user_expressions(nb) -> int:
    """Write each markdown cell's ``{eval}`glued.KEY``` expressions and their stored values into the cell's
    ``user_expressions`` metadata (jupyterlab-myst's format), and remove it from cells without any. Returns how
    many expressions were written; raises if an expression names a key the notebook never glues."""
    values = glued_text(nb)
    written = 0
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        expressions = []
        for expression, key in EXPRESSION.findall(cell.source):
            if key not in values:
                raise ValueError(f"markdown cell reads {expression!r}, but the notebook glues no text named {key!r}.")
            if expression not in [e["expression"] for e in expressions]:
                expressions.append({"expression": expression,
                                    "result": {"status": "ok", "data": {"text/plain": values[key]}, "metadata": {}}})
        if expressions:
            cell.metadata["user_expressions"] = expressions
            written += len(expressions)
        else:
            cell.metadata.pop("user_expressions", None)
    return written


def glued_png(nb) -> dict[str, bytes]:
    """Every figure glued in a notebook's stored outputs, as PNG bytes."""
    return {name: base64.b64decode(data) for name, data in _glued(nb, "image/png").items()}


def _text_png(text: str) -> bytes:
    """A small PNG that says ``text``: what a figure directive shows where the chapter glued text instead of a
    figure (a stored run that is not there yet)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 0.8))
    fig.text(0.5, 0.5, text, ha="center", va="center", fontsize=11, color="0.3")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return buffer.getvalue()


def export_figures(nb, notebook_path) -> list[Path]:
    """Write every figure the notebook's markdown shows (``_figures/<chapter>/<key>.png``, beside the notebook)
    from its stored glue outputs, and remove the folder's other PNG files. Files are rewritten only when their bytes
    change. Raises if a directive names another chapter's folder or a key the notebook never glues."""
    from repro.core.files import write_bytes_atomic

    notebook_path = Path(notebook_path)
    stem = notebook_path.stem
    folder = notebook_path.parent / FIGURES / stem
    images, texts = glued_png(nb), glued_text(nb)
    wanted: dict[str, bytes] = {}
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for chapter, key in FIGURE.findall(cell.source):
            if chapter != stem:
                raise ValueError(f"{notebook_path}: a figure directive shows {FIGURES}/{chapter}/{key}.png; a chapter "
                                 f"shows its own figures, {FIGURES}/{stem}/<key>.png.")
            if key in images:
                wanted[key] = images[key]
            elif key in texts:
                wanted[key] = _text_png(texts[key])
            else:
                raise ValueError(f"{notebook_path}: a figure directive shows {key!r}, which the notebook never glues.")
    written = []
    if wanted or folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
        for key, data in wanted.items():
            path = folder / f"{key}.png"
            if not path.exists() or path.read_bytes() != data:
                write_bytes_atomic(path, data)
            written.append(path)
        for stale in folder.glob("*.png"):
            if stale.stem not in wanted:
                stale.unlink()
    return written

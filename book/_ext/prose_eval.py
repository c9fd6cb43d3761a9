"""Sphinx extension of this book: ``{eval}`glued.KEY``` renders as ``{glue:text}`KEY```, and the figures the chapters
show (``_figures/<chapter>/<key>.png``) are exported from their stored outputs before every build
(repro.core.prose).

The chapters write computed numbers as MyST inline expressions, which jupyterlab-myst renders in JupyterLab;
the book is built from stored outputs without a kernel, so here the expression is read from the glued value
instead of being evaluated. Loaded after myst-nb (a local extension), it replaces myst-nb's kernel-only
``eval`` role.
"""
from myst_nb.ext.glue.roles import PasteTextRole
from myst_nb.ext.glue.utils import glue_warning

PREFIX = "glued."


class GluedTextRole(PasteTextRole):
    """``{eval}`glued.KEY``` -> the text glued as KEY (anything else is a warning, so a build with -W fails)."""

    def run(self):
        if not self.text.startswith(PREFIX):
            return [], [glue_warning(f"{{eval}}`{self.text}`: this book's inline expressions read glued values, "
                                     f"written {PREFIX}KEY", self.document, self.line)]
        self.text = self.text[len(PREFIX):]
        return super().run()


def export_all_figures(app):
    """Every chapter's figures from its stored outputs (derived files: a build never shows stale ones)."""
    from pathlib import Path

    import nbformat

    from repro.core.prose import export_figures

    for path in sorted(Path(app.srcdir).glob("*.ipynb")):
        export_figures(nbformat.read(path, as_version=4), path)


def setup(app):
    app.add_role("eval", GluedTextRole(), override=True)
    app.connect("builder-inited", export_all_figures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

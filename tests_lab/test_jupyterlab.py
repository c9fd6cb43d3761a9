"""Two chapters opened in JupyterLab (with jupyterlab-myst) in headless Chromium read as the built book does: the
numbers in the prose are numbers, the figures are figures with their captions, and no MyST source shows.

Needs the ``lab`` and ``browser`` extras (``pip install -e '.[lab,browser]'``) and Chromium (Debian: ``apt-get
install chromium``; or set ``CHROMIUM`` to a Chromium or Chrome binary). Skipped, saying why, without them. Run
with ``python -m pytest tests_lab`` (``scripts/test.sh`` does); ``LAB_SCREENSHOTS=DIR`` keeps a screenshot of
each chapter.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from repro.core.prose import EXPRESSION, FIGURE, export_figures, glued_text

BOOK = Path(__file__).resolve().parents[1] / "book"
CHAPTERS = ("liu2022_critical_data", "power2022_what_is_grokking")
RAW = ("{eval}", "{glue:", "```{", ":::{", "Unknown Directive", "Unknown Role",
       "% generated", "| --- |")  # the last two: the summary box's comment lines and an unrendered table
TOKEN = "repro-lab-test"

playwright = pytest.importorskip("playwright.sync_api", reason="the browser extra is not installed (pip install -e '.[browser]')")
pytest.importorskip("jupyterlab", reason="the lab extra is not installed (pip install -e '.[lab]')")
pytest.importorskip("jupyterlab_myst", reason="the lab extra is not installed (pip install -e '.[lab]')")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("no Chromium (apt-get install chromium, or set CHROMIUM)", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of the two chapters (and their exported figures), every cell rendered (no
    windowing), on loopback with a token."""
    root = tmp_path_factory.mktemp("lab")
    for stem in CHAPTERS:
        shutil.copy(BOOK / f"{stem}.ipynb", root)
        export_figures(nbformat.read(root / f"{stem}.ipynb", as_version=4), root / f"{stem}.ipynb")
    settings = root / ".settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    port = _free_port()
    log = open(root / "lab.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={port}",
         f"--ServerApp.token={TOKEN}", f"--ServerApp.root_dir={root}",
         f"--LabApp.user_settings_dir={root / '.settings'}", f"--LabApp.workspaces_dir={root / '.workspaces'}"],
        stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"JupyterLab exited: {(root / 'lab.log').read_text()[-2000:]}")
                time.sleep(0.5)
        else:
            raise RuntimeError(f"JupyterLab did not start: {(root / 'lab.log').read_text()[-2000:]}")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        yield b
        b.close()


def _expected(stem: str) -> tuple[list[str], int]:
    """The stored values of every inline expression in the chapter's prose, and how many figures it shows."""
    nb = nbformat.read(BOOK / f"{stem}.ipynb", as_version=4)
    values = glued_text(nb)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    return [values[key] for _, key in EXPRESSION.findall(markdown)], len(FIGURE.findall(markdown))


@pytest.mark.parametrize("stem", CHAPTERS)
def test_a_chapter_reads_in_jupyterlab_as_in_the_book(lab, browser, stem):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    # a workspace of its own, reset: only this chapter is open (no tab restored from another test)
    page.goto(f"{lab}/lab/workspaces/{stem}/tree/{stem}.ipynb?token={TOKEN}&reset")
    page.wait_for_selector(".jp-MarkdownCell .myst", timeout=120_000)
    values, n_figures = _expected(stem)
    assert values and n_figures, f"{stem}: the chapter shows no inline expression or figure; pick another chapter"
    notebook = page.locator(".jp-NotebookPanel-notebook")
    # every figure directive rendered as a figure whose image loaded from the exported file
    deadline = time.monotonic() + 60
    while True:
        loaded = page.eval_on_selector_all(".jp-MarkdownCell figure img", "els => els.filter(e => e.naturalWidth > 0).length")
        if loaded >= n_figures or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    text = notebook.inner_text()
    if os.environ.get("LAB_SCREENSHOTS"):
        Path(os.environ["LAB_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(os.environ["LAB_SCREENSHOTS"]) / f"{stem}.png"))
    markdown = "\n".join(page.locator(".jp-MarkdownCell .myst").all_inner_texts())
    page.close()
    for raw in RAW:
        assert raw not in markdown, f"{stem}: JupyterLab shows {raw!r} in the prose (MyST source, not rendered)"
    assert "claim by claim" in markdown, f"{stem}: the opening summary box is not shown"
    missing = [v for v in values if v not in markdown]
    assert not missing, f"{stem}: prose values not shown in JupyterLab: {missing[:5]}"
    assert loaded >= n_figures, f"{stem}: {loaded} of {n_figures} figures rendered in JupyterLab"
    assert text  # the notebook panel rendered at all

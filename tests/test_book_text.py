"""The chapters' text: no control characters (a lost ``\\a`` of ``\\approx`` becomes a BEL, a ``\\t`` of
``\\tilde`` a TAB, and both render as garbage), no citation of the private reproduction notes, and no
reference to a chapter that does not exist."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CHAPTER_SOURCES = sorted(BOOK.glob("*.py")) + sorted(BOOK.glob("*.md"))
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # everything below space except \n; TAB included


@pytest.mark.parametrize("path", CHAPTER_SOURCES + [ROOT / "README.md"], ids=lambda p: p.name)
def test_no_control_characters(path):
    for n, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        m = CONTROL.search(line)
        assert m is None, f"{path.name}:{n}: control character {m.group()!r} in {line.strip()[:80]!r}"


@pytest.mark.parametrize("path", sorted(BOOK.glob("*.py")), ids=lambda p: p.name)
def test_chapters_cite_sources_readers_have(path):
    """Readers have the papers and the official code, not this project's private notes ("the spec")."""
    for n, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        assert not re.search(r"\bspecs?\b", line, re.IGNORECASE), f"{path.name}:{n}: cites the spec: {line.strip()[:100]!r}"


def test_chapter_references_exist():
    """Every ``book/<stem>`` named in code, tests, chapters or the README is a chapter of the book."""
    pattern = re.compile(r"book/([A-Za-z0-9_]+)")
    allowed = {"_claims", "_results", "_build", "_toc", "_config", "conftest"}
    files = [*ROOT.glob("src/repro/**/*.py"), *ROOT.glob("tests/*.py"), *BOOK.glob("*.py"), ROOT / "README.md"]
    stale = []
    for path in files:
        for stem in pattern.findall(path.read_text(encoding="utf8")):
            if stem not in allowed and not any((BOOK / f"{stem}{ext}").exists() for ext in (".py", ".ipynb", ".md")):
                stale.append(f"{path.relative_to(ROOT)}: book/{stem}")
    assert not stale, "references to chapters that do not exist:\n" + "\n".join(stale)

"""The chapters' text: no control characters (a lost ``\\a`` of ``\\approx`` becomes a BEL, a ``\\t`` of
``\\tilde`` a TAB, and both render as garbage), no citation of the private reproduction notes (in the chapters
nor in the package's comments and strings), no reference to a chapter or test file that does not exist, and
every module's docstring naming the chapters it serves (the rule is in :func:`test_modules_name_their_chapters`)."""
import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from repro.core.registry import PAPER_ARXIV

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
    allowed = {"_claims", "_registry", "_results", "_build", "_toc", "_config", "conftest", "_ext", "_figures",
               "_chapters", "_data", "liu2022_new_part"}  # the manifest; generated pages' data; the template test's scratch chapter
    files = [*ROOT.glob("src/repro/**/*.py"), *ROOT.glob("tests/*.py"), *BOOK.glob("*.py"), ROOT / "README.md"]
    stale = []
    for path in files:
        for stem in pattern.findall(path.read_text(encoding="utf8")):
            if stem not in allowed and not any((BOOK / f"{stem}{ext}").exists() for ext in (".py", ".ipynb", ".md")):
                stale.append(f"{path.relative_to(ROOT)}: book/{stem}")
    assert not stale, "references to chapters that do not exist:\n" + "\n".join(stale)


SPEC = re.compile(r"\bspecs?\b", re.IGNORECASE)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((ROOT / "src" / "repro").rglob("*.py")) + [ROOT / "README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_package_cites_sources_readers_have(path):
    """As for the chapters: docstrings, comments and messages cite the paper or the official code, never the
    private notes. Code names are free (``param_specs``): only comments and string literals are read."""
    text = path.read_text(encoding="utf8")
    if path.suffix == ".md":
        hits = [(n, line) for n, line in enumerate(text.splitlines(), 1) if SPEC.search(line)]
    else:
        hits = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(text).readline)
                if tok.type in (tokenize.COMMENT, tokenize.STRING) and SPEC.search(tok.string)]
    assert not hits, f"{path.name}: cites the spec: {[(n, s.strip()[:80]) for n, s in hits]}"


def test_test_file_references_exist():
    """Every ``tests/test_<name>.py`` named in code, tests, chapters or the README exists (test files follow
    the modules and get renamed with them)."""
    pattern = re.compile(r"tests/(test_[A-Za-z0-9_]+\.py)")
    files = [*ROOT.glob("src/repro/**/*.py"), *ROOT.glob("tests/*.py"), *BOOK.glob("*.py"), ROOT / "README.md"]
    stale = [f"{path.relative_to(ROOT)}: tests/{name}" for path in files
             for name in pattern.findall(path.read_text(encoding="utf8")) if not (ROOT / "tests" / name).exists()]
    assert not stale, "references to test files that do not exist:\n" + "\n".join(stale)


SRC = ROOT / "src"
SHARED = 3  # a module serving this many chapters or more is a shared utility


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")


MODULE_PATHS = {_module_name(p): p for p in sorted((SRC / "repro").rglob("*.py"))}


def _imported_modules(source: str, package: str) -> set[str]:
    """The package's modules that ``source`` imports anywhere (absolute or relative to ``package``)."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names = [module] + [f"{module}.{a.name}" for a in node.names]  # "from repro import geneft" too
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out |= {n for n in names if n in MODULE_PATHS}
    return out


def _chapter_users() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Per module: the chapters importing it directly, and those using it directly or through other modules."""
    graph = {m: _imported_modules(p.read_text(encoding="utf8"), m if p.name == "__init__.py" else m.rsplit(".", 1)[0])
             for m, p in MODULE_PATHS.items()}
    direct = {m: set() for m in MODULE_PATHS}
    through = {m: set() for m in MODULE_PATHS}
    for chapter in BOOK.glob("*.py"):
        if chapter.stem == "conftest":
            continue
        todo = list(_imported_modules(chapter.read_text(encoding="utf8"), "repro"))
        for m in todo:
            direct[m].add(chapter.stem)
        seen = set()
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                through[m].add(chapter.stem)
                todo += graph[m]
    return direct, through


@pytest.mark.slow
def test_modules_name_their_chapters():
    """The rule: a module's docstring names, as ``book/<stem>``, every chapter that imports it, and only
    chapters that use it (directly or through other modules of the package); a module that a chapter uses
    only through other modules names at least one. Exempt: shared utilities, which serve three or more
    chapters (the trainer, the store, the claims), and the command-line tools no chapter uses (``bench``,
    ``paper_scale``, ``refresh``, ``sweep_cli``). Package ``__init__`` files describe their package."""
    direct, through = _chapter_users()
    problems = []
    for m, path in MODULE_PATHS.items():
        if path.name == "__init__.py" or len(through[m]) >= SHARED or not through[m]:
            continue
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf8"))) or ""
        named = set(re.findall(r"book/([A-Za-z0-9_]+)", doc))
        if not named:
            problems.append(f"{m}: names no chapter; it serves {sorted(through[m])}")
        if direct[m] - named:
            problems.append(f"{m}: does not name {sorted(direct[m] - named)}, which import it")
        wrong = {n for n in named if n not in through[m] and (BOOK / f"{n}.py").exists()}
        if wrong:
            problems.append(f"{m}: names {sorted(wrong)}, which do not use it")
    assert not problems, "module docstrings and the chapters they serve:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", [p for p in sorted(BOOK.glob("*.py")) if p.stem not in ("conftest", "status")],
                         ids=lambda p: p.name)
def test_chapters_link_their_paper(path):
    """A chapter's opening cell links its paper on arXiv (and the official code where the chapter uses it)."""
    text = path.read_text(encoding="utf8")
    start = text.index("# %% [markdown]")
    opening = text[start:text.index("# %%", start + 5)]
    ids = re.findall(r"\]\(https://arxiv\.org/abs/(\d{4}\.\d{5})\)", opening)
    assert ids, f"{path.name}: no arXiv link in its opening"
    assert set(ids) <= set(PAPER_ARXIV.values()), f"{path.name}: arXiv ids {ids} are not the registry's PAPER_ARXIV"

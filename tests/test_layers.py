"""The package's layers import downward only: core -> data -> models -> training -> metrics -> theory ->
experiments / plotting -> book tooling (the developers' guide). The layers are the sub-packages of
``src/repro``: a module's layer is its package's, so a new module takes the layer of the folder it is
put in, and no import (top-level or inside a function) may reach a higher layer."""
import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "repro"

LAYERS = {
    "__init__": 0,
    "core": 0,  # validation, scale, portable printing, files, kernels and threads, devices, crossings
    "data": 1,  # tasks, image data sets, relations
    "models": 2,  # batched networks and their hand-written gradients
    "training": 3,  # the trainer, sweeps, the Langevin sampler, the results store
    "metrics": 4,  # what is measured on trained networks and data
    "theory": 5,  # each paper's equations
    "experiments": 6,  # one module per chapter
    "plotting": 6,  # house style and shared panels
    "book": 7,  # claims, status, refresh, paper-scale dry runs, cluster CLI, benchmarks
}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def layer_of(module: str) -> int:
    return LAYERS[module.split(".")[0]]


def repro_imports(name: str, source: str) -> set[str]:
    """Modules of the package imported anywhere in module ``name``'s ``source`` (relative or absolute)."""
    package = name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                parts = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "repro":
                parts = node.module.split(".")[1:]
            else:
                continue
            # "from repro.core import scale" imports module core.scale; "from repro.core.scale import f" a name
            for alias in node.names:
                sub = ".".join(parts + [alias.name])
                out.add(sub if SRC.joinpath(*sub.split(".")).with_suffix(".py").exists() else ".".join(parts))
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".", 1)[1] for a in node.names if a.name.startswith("repro."))
    return {m or "__init__" for m in out}


MODULES = sorted(module_name(p) for p in SRC.rglob("*.py"))


def test_every_module_is_in_a_layer_package():
    loose = [m for m in MODULES if m.split(".")[0] not in LAYERS]
    assert not loose, f"put these modules into a layer package ({', '.join(LAYERS)}): {loose}"
    assert not [m for m in MODULES if "." not in m and m != "__init__"], "no module outside the layer packages"


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_imports_go_downward(module):
    path = SRC.joinpath(*module.split(".")).with_suffix(".py")
    upward = sorted(m for m in repro_imports(module, path.read_text()) if layer_of(m) > layer_of(module))
    assert not upward, f"repro.{module} (layer {layer_of(module)}) imports higher layers: " + ", ".join(
        f"{m} (layer {layer_of(m)})" for m in upward)


def test_the_checker_sees_every_import_form():
    source = ("from repro.data.tasks import TaskData\nfrom repro.plotting import shared\nimport repro.book.claims\n"
              "from repro.training.store import x\ndef f():\n    from repro.theory import liu2022\n"
              "    from repro.metrics.phases import PHASES\n    from repro import __version__\n")
    assert repro_imports("metrics.representation", source) == {
        "data.tasks", "plotting.shared", "book.claims", "training.store", "theory.liu2022", "metrics.phases", "__init__"}
    upward = [m for m in repro_imports("metrics.representation", source) if layer_of(m) > layer_of("metrics.x")]
    assert sorted(upward) == ["book.claims", "plotting.shared", "theory.liu2022"]
    assert repro_imports("theory.omnigrok", "from ..data.tasks import a\nfrom ..core import validation\n") == {
        "data.tasks", "core.validation"}


# Test files about the whole repository rather than one module.
REPOSITORY_TESTS = ("book_text", "layers", "notebook_outputs", "notebook_pairs", "smoke", "smoke_chapters", "ci_scripts")


def test_test_files_follow_the_modules():
    """``tests/test_<name>.py`` tests one module, ``<name>`` being its name (``trainer``), its path below the
    package with ``_`` for ``.`` (``theory_baek2024``, ``plotting_shared``), either followed by a topic
    (``trainer_relations``); or it is one of the repository-wide files. A module renamed or removed takes
    its test file's name along."""
    names = {m.removesuffix(".__init__") for m in MODULES if m != "__init__"}
    stems = names | {n.replace(".", "_") for n in names} | {n.rsplit(".", 1)[-1] for n in names}
    orphans = [p.name for p in sorted((SRC.parents[1] / "tests").glob("test_*.py"))
               if p.stem[5:] not in REPOSITORY_TESTS and not any(p.stem[5:] == s or p.stem[5:].startswith(s + "_")
                                                                 for s in stems)]
    assert not orphans, f"test files that name no module of src/repro: {orphans}"


def test_no_module_imports_itself_through_others():
    """No import cycle anywhere in the package (imports inside functions included): e.g. the claims recorder
    imports the ledger, the verdicts and the status page, none of which imports it back."""
    graph = {m: {d for d in repro_imports(m, SRC.joinpath(*m.split(".")).with_suffix(".py").read_text()) if d in MODULES}
             for m in MODULES}
    done, path = set(), []

    def visit(m):
        if m in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(m):] + [m]))
        if m in done:
            return
        path.append(m)
        for d in sorted(graph[m]):
            visit(d)
        path.pop()
        done.add(m)

    for m in MODULES:
        visit(m)


def test_readouts_are_read_by_chapters_only():
    """``repro.book.readouts`` holds what each chapter reads off its runs: the top of the package, which only the
    chapters import."""
    def source(m):
        return (SRC / Path(*m.split("."))).with_suffix(".py").read_text(encoding="utf8")
    readers = [m for m in MODULES if not m.startswith("book.readouts")
               and any(i.startswith("book.readouts") for i in repro_imports(m, source(m)))]
    assert not readers, f"only chapters import repro.book.readouts; these modules do: {readers}"

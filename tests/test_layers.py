"""The package's layers import downward only: core -> data -> models -> training -> metrics -> theory ->
experiments / plotting -> book tooling (the developers' guide). Every module of ``src/repro`` must be
placed in a layer here, so a new module forces a decision, and no import (top-level or inside a
function) may reach a higher layer."""
import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "repro"

LAYERS = {
    0: ("__init__", "validation", "portable", "scale", "kernels", "files", "crossings", "devices"),  # core
    1: ("tasks", "datasets"),  # data
    2: ("models", "fastgrad"),  # models and their hand-written gradients
    3: ("train", "relations", "langevin", "store"),  # trainers; the store rebuilds a training History
    4: ("metrics", "phases", "relation_inference"),  # what is measured on trained networks and data
    5: ("theory.__init__", "theory.liu2022", "theory.omnigrok", "theory.rubin2024", "theory.baek2024",
        "theory.mohamadi2024"),  # each paper's equations
    6: ("plotting", "sweep", "intro", "liu2022_fig2", "liu2022_representations", "liu_phases", "liu_s3",
        "liu_s3_official", "liu_transformer_images", "omnigrok", "omnigrok_messiness", "droplets", "geneft",
        "mohamadi2024", "mohamadi2024_sample"),
    7: ("claims", "status", "refresh", "paper_scale", "sweep_cli", "bench"),  # book tooling
}
LAYER_OF = {name: layer for layer, names in LAYERS.items() for name in names}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


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
            for alias in node.names:  # "from .theory import liu2022" imports a module; "from .tasks import X" a name
                sub = ".".join(parts + [alias.name])
                out.add(sub if sub in LAYER_OF else ".".join(parts))
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".", 1)[1] for a in node.names if a.name.startswith("repro."))
    # a name imported from a package ("from . import __version__", "from .theory import x") comes from its __init__
    return {(m + ".__init__").lstrip(".") if (m + ".__init__").lstrip(".") in LAYER_OF else m for m in out}


MODULES = sorted(module_name(p) for p in SRC.rglob("*.py"))


def test_every_module_has_a_layer():
    missing = [m for m in MODULES if m not in LAYER_OF]
    assert not missing, f"place these modules in a layer of tests/test_layers.py: {missing}"
    stale = [m for m in LAYER_OF if m not in MODULES]
    assert not stale, f"these layered modules no longer exist: {stale}"


@pytest.mark.parametrize("module", MODULES)
def test_imports_go_downward(module):
    path = SRC.joinpath(*module.split(".")).with_suffix(".py")
    upward = sorted(m for m in repro_imports(module, path.read_text()) if LAYER_OF.get(m, -1) > LAYER_OF[module])
    assert not upward, f"repro.{module} (layer {LAYER_OF[module]}) imports higher layers: " + ", ".join(
        f"{m} (layer {LAYER_OF[m]})" for m in upward)


def test_the_checker_sees_every_import_form():
    source = ("from .tasks import TaskData\nfrom . import plotting\nimport repro.claims\nfrom repro.store import x\n"
              "def f():\n    from .theory import liu2022\n    from .phases import PHASES\n")
    assert repro_imports("theory.omnigrok", "from ..tasks import a\nfrom ..validation import b\n") == {"tasks", "validation"}
    assert repro_imports("metrics", source) == {"tasks", "plotting", "claims", "store", "theory.liu2022", "phases"}
    upward = [m for m in repro_imports("metrics", source) if LAYER_OF[m] > LAYER_OF["metrics"]]
    assert sorted(upward) == ["claims", "plotting", "theory.liu2022"]


# Test files about the whole repository rather than one module.
REPOSITORY_TESTS = ("book_text", "layers", "notebook_pairs", "smoke")


def test_test_files_follow_the_modules():
    """``tests/test_<name>.py`` tests one module, ``<name>`` being its name (``train``), its path below the
    package with ``_`` for ``.`` (``theory_baek2024``), either followed by a topic (``train_relations``);
    or it is one of the repository-wide files. A module renamed or removed takes its test file's name along."""
    names = {m.removesuffix(".__init__") for m in MODULES if m != "__init__"}
    stems = names | {n.replace(".", "_") for n in names} | {n.rsplit(".", 1)[-1] for n in names}
    orphans = [p.name for p in sorted((SRC.parents[1] / "tests").glob("test_*.py"))
               if p.stem[5:] not in REPOSITORY_TESTS and not any(p.stem[5:] == s or p.stem[5:].startswith(s + "_")
                                                                 for s in stems)]
    assert not orphans, f"test files that name no module of src/repro: {orphans}"

"""Seals verified against git: every stored run's sealed claims were committed before the run started, and a
hand-edited seal is caught (on a scratch repository)."""
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from repro.book.seals import audit, history_available
from repro.core.registry import Registry, seal_for, to_toml
from repro.training.store import DIGEST_FIELD, ResultsStore, digest_problem, entry_digest

ROOT = Path(__file__).resolve().parents[1]


def git(repo, *args):
    out = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def register(repo, tolerance, message):
    entry = {"id": "T01", "name": "final accuracy", "kind": "reproduction", "form": "value", "against": "paper",
             "reference": 1.0, "comparison": "abs", "tolerance": tolerance, "locator": "Fig. 1",
             "source": "ends at 100 %", "registered": "2026-12-02", "runs": ["fig1"]}
    (repo / "book" / "_registry" / "ch.toml").write_text(to_toml("ch", [entry]))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def rewrite(folder, **changes):
    """Edit a stored manifest as a hand would; ``digest=True`` also rewrites its digest (a careful forger)."""
    redigest = changes.pop("digest", False)
    path = folder / "manifest.json"
    manifest = dict(json.loads(path.read_text()), **changes)
    if redigest:
        manifest[DIGEST_FIELD] = entry_digest(manifest, (folder / "config.json").read_text())
    path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


@pytest.fixture
def scratch(tmp_path):
    """A scratch repository with a registry committed, then a run of it stored from that commit."""
    repo = tmp_path / "repo"
    (repo / "book" / "_registry").mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.org")
    git(repo, "config", "user.name", "test")
    start = register(repo, 0.01, "register the claim")
    store = ResultsStore(repo / "book" / "_results", registry=repo / "book" / "_registry")
    folder = store.save({"a": 1}, {"x": np.arange(3.0)}, label="fig1", sealed=store.seal("fig1"))
    rewrite(folder, git_commit=start, digest=True)  # the run started from the registering commit
    return repo, folder


def test_a_run_sealed_after_its_claims_were_committed_passes(scratch):
    repo, folder = scratch
    assert audit(repo / "book" / "_results", repo) == (1, [])


def test_a_hand_edited_seal_is_caught(scratch):
    repo, folder = scratch
    register(repo, 0.5, "loosen the claim after the run")  # a later commit loosens the criterion
    loosened = seal_for("fig1", repo / "book" / "_registry")["claims"]
    sealed = json.loads((folder / "manifest.json").read_text())["sealed"]

    rewrite(folder, sealed=dict(sealed, claims=loosened))  # the seal rewritten, the digest forgotten
    _, problems = audit(repo / "book" / "_results", repo)
    assert any("edited after the entry was written" in p.why for p in problems)
    assert any("not an ancestor of the commit the run started from" in p.why for p in problems)

    rewrite(folder, digest=True)  # the digest rewritten too: the git history still tells
    _, problems = audit(repo / "book" / "_results", repo)
    assert [p.why.split(",")[0] for p in problems] == [f"registered at {git(repo, 'rev-parse', 'HEAD')[:10]}"]

    rewrite(folder, sealed=dict(sealed, claims={"ch/final accuracy": "0123456789abcdef"}), digest=True)
    _, problems = audit(repo / "book" / "_results", repo)
    assert ["registers this claim with seal 0123456789abcdef" in p.why for p in problems] == [True]


def test_edited_arrays_are_caught(scratch):
    _, folder = scratch
    (folder / "arrays.npz").write_bytes((folder / "arrays.npz").read_bytes() + b"\0")
    assert "arrays.npz does not match" in digest_problem(folder)


@pytest.mark.slow
def test_every_stored_run_sealed_only_claims_committed_before_it_started():
    why = history_available(ROOT)
    if why:
        pytest.skip(f"the seal audit reads the git history: {why}")
    n, problems = audit(ROOT / "book" / "_results", ROOT)
    assert n > 0
    assert not problems, "\n".join(map(str, problems))
    assert all(Registry.load(p.stem, ROOT / "book" / "_registry") for p in (ROOT / "book" / "_registry").glob("*.toml"))

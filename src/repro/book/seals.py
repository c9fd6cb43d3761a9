"""Seals that can be verified against git: a stored run's seal of a claim holds only if the claim's criterion, as
sealed, was committed before the run started.

A stored run's manifest records, when the run starts, the seal (:meth:`repro.core.registry.Entry.seal`) of every
registered claim that judges it, and the commit the run started from (its first segment's ``git_commit``). The
audit (:func:`audit`) checks, for every sealed claim of every stored run:

* the *registering commit* — the first commit at which the chapter's registry holds an entry of that name whose seal
  equals the manifest's — exists, so the seal is the registry entry at that commit (a seal typed into a manifest
  matches no commit);
* that commit is an ancestor of (or is) the run's first commit, so the criterion was fixed before the run;
* the entry's files match its digest (:func:`repro.training.store.digest_problem`), so neither the manifest nor the
  arrays were edited after the entry was written.

Loosening a sealed claim and rewriting the seal in the manifest fails twice: the digest, and the registering commit
of the loosened criterion, which comes after the run.
"""
from __future__ import annotations

import json
import subprocess
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from repro.core.registry import RegistryError, _entry
from repro.training.store import digest_problem


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)


def history_available(repo: str | Path) -> str | None:
    """Why the audit cannot read the repository's history here (None when it can): not a git work tree, or a
    shallow clone (the commits before its tip are missing)."""
    repo = Path(repo)
    if _git(repo, "rev-parse", "--is-inside-work-tree").stdout.strip() != "true":
        return f"{repo} is not a git work tree"
    if _git(repo, "rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        return f"{repo} is a shallow clone: its history before the tip is missing (git fetch --unshallow)"
    return None


def _seals_of(text: str) -> dict[str, set[str]]:
    """name -> the seals of the entries of that name in one version of a registry file (entries that do not parse
    with today's rules are skipped: their seals are then found in no commit, and the audit says so)."""
    out: dict[str, set[str]] = {}
    for i, d in enumerate(tomllib.loads(text).get("claims", [])):
        try:
            e = _entry(dict(d, id=d.get("id", "T00")), f"claim {i}")
        except RegistryError:
            continue
        out.setdefault(e.name, set()).add(e.seal())
    return out


@lru_cache(maxsize=None)
def _history(repo: str, path: str) -> tuple[tuple[str, dict], ...]:
    """(commit, name -> seals) for every commit that changed ``path``, oldest first."""
    log = _git(Path(repo), "log", "--reverse", "--format=%H", "--", path).stdout.split()
    out = []
    for commit in log:
        shown = _git(Path(repo), "show", f"{commit}:{path}")
        if shown.returncode == 0:
            out.append((commit, _seals_of(shown.stdout)))
    return tuple(out)


def registering_commit(repo: str | Path, registry_path: str, name: str, seal: str) -> str | None:
    """The first commit whose version of ``registry_path`` (relative to ``repo``) registers ``name`` with ``seal``."""
    for commit, seals in _history(str(Path(repo).resolve()), registry_path):
        if seal in seals.get(name, ()):
            return commit
    return None


def first_commit(manifest: dict) -> str:
    """The commit the run started from: its first segment's, or the manifest's for a run in one piece."""
    segments = manifest.get("segments") or []
    return (segments[0] if segments else manifest).get("git_commit", "")


@dataclass(frozen=True)
class SealProblem:
    run: str  # the stored entry's folder name
    claim: str  # "<chapter>/<name>", or "" for the entry as a whole
    why: str

    def __str__(self) -> str:
        return f"{self.run}: {self.claim + ': ' if self.claim else ''}{self.why}"


def audit_run(folder: Path, repo: Path, registry_rel: str) -> list[SealProblem]:
    """The problems of one stored entry's seals (module docstring); ``registry_rel``: the registry folder relative
    to ``repo``."""
    problems = []
    digest = digest_problem(folder)
    if digest:
        problems.append(SealProblem(folder.name, "", digest))
    manifest = json.loads((folder / "manifest.json").read_text())
    claims = (manifest.get("sealed") or {}).get("claims", {})
    start = first_commit(manifest)
    for key, seal in sorted(claims.items()):
        chapter, name = key.split("/", 1)
        commit = registering_commit(repo, f"{registry_rel}/{chapter}.toml", name, seal)
        if commit is None:
            problems.append(SealProblem(folder.name, key, f"no commit of {registry_rel}/{chapter}.toml registers "
                                        f"this claim with seal {seal}"))
        elif not start or _git(repo, "merge-base", "--is-ancestor", commit, start).returncode != 0:
            problems.append(SealProblem(folder.name, key, f"registered at {commit[:10]}, which is not an ancestor of "
                                        f"the commit the run started from ({start[:10] or 'none recorded'})"))
    return problems


def audit(results: str | Path, repo: str | Path, registry_rel: str = "book/_registry") -> tuple[int, list[SealProblem]]:
    """(sealed claims audited, problems) over every stored entry under ``results``."""
    repo = Path(repo)
    n, problems = 0, []
    for manifest in sorted(Path(results).glob("*/manifest.json")):
        n += len((json.loads(manifest.read_text()).get("sealed") or {}).get("claims", {}))
        problems += audit_run(manifest.parent, repo, registry_rel)
    return n, problems

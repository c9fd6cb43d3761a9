"""A results store for expensive runs (paper-scale sweeps, GPU results committed to the book).

Each entry is a folder ``<root>/<label>-<key>/`` where ``key`` hashes the canonical JSON of the config
together with :data:`SCHEMA_VERSION`. It holds

* ``config.json`` — the full config the arrays were computed from;
* ``arrays.npz`` — the numeric results (loaded with ``allow_pickle=False``: nothing loads pickles);
* ``manifest.json`` — ``entry_sha256`` (:func:`entry_digest`: a hash over the rest of the manifest, the config and
  the arrays' hash, so that a hand edit of a seal, a provenance field or the arrays is caught when the entry is
  loaded and by the book's seal test) and provenance: package version, git commit (and whether tracked files differed from it),
  torch version, the environment (``environment``: the digest of ``requirements.lock`` and how the running
  environment differed from it, :func:`repro.core.envlock.stamp`; absent in entries made before the lock), device,
  wall time, the SHA-256 of ``arrays.npz``, and ``sealed``: the registered claims that
  judge runs of this label, sealed when the run started (:func:`repro.core.registry.seal_for`; the registry
  is ``<root>/../_registry``, e.g. ``book/_registry`` beside ``book/_results``).

Loading re-checks the stored config against the requested one and the file hash against the
manifest, and refuses a mismatch. Entries are written to a temporary folder and renamed into place,
so an interrupted write never leaves a half entry behind.

A run whose ``compute`` takes a ``checkpoint`` argument is resumable (issue 32): it checkpoints into
``<root>/<label>-<key>.partial/`` (:mod:`repro.training.checkpoint`), a rerun resumes from there, and the
finished entry's manifest lists the run's ``segments`` (one per process that trained part of it). A checkpoint
is never served as a result: :meth:`ResultsStore.load` refuses it, naming the step it reached.
"""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import io
import json
import math
import os
import platform
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from repro import __version__
from repro.core.envlock import stamp as environment_stamp
from repro.core.kernels import native_capability
from repro.core.registry import seal_for
from repro.training.checkpoint import (DEFAULT_EVERY_S, PARTIAL_SUFFIX, Checkpointer, projected_remaining_s,
                                       reached_step, read_checkpoint)

SCHEMA_VERSION = 1


class StoreMismatch(ValueError):
    """A stored entry does not match what was asked for (config, schema or content hash)."""


class UnfinishedRun(FileNotFoundError):
    """The config has no finished entry, only the checkpoint of an unfinished run (never served as a result)."""


DIGEST_FIELD = "entry_sha256"


def entry_digest(manifest: dict, config_text: str) -> str:
    """The SHA-256 over an entry's manifest (without its own digest field; it includes the arrays' SHA-256) and
    its ``config.json`` text: what :data:`DIGEST_FIELD` records."""
    body = json.dumps({k: v for k, v in manifest.items() if k != DIGEST_FIELD}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256((body + "\n" + config_text).encode()).hexdigest()


def digest_problem(folder: str | os.PathLike) -> str | None:
    """Why a stored entry's files do not match its recorded digest (None when they do)."""
    folder = Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    if DIGEST_FIELD not in manifest:
        return f"{folder.name}: its manifest records no {DIGEST_FIELD}"
    if entry_digest(manifest, (folder / "config.json").read_text()) != manifest[DIGEST_FIELD]:
        return f"{folder.name}: manifest or config edited after the entry was written ({DIGEST_FIELD} differs)"
    if hashlib.sha256((folder / "arrays.npz").read_bytes()).hexdigest() != manifest.get("arrays_sha256"):
        return f"{folder.name}: arrays.npz does not match the hash in its manifest"
    return None


CONFIG_DIGITS = 12  # significant digits of a config float that identify it (see canonical)


def _portable_float(x: float) -> float:
    """``x`` at :data:`CONFIG_DIGITS` significant digits. A grid computed as ``10 ** np.linspace(-6, -2, 9)`` gives
    ``1e-05`` on one CPU and ``9.999999999999999e-06`` on another (numpy's vectorised ``power`` differs in the last
    bit by instruction set), so a key that hashed every bit would name a stored run differently on each machine."""
    return float(f"{x:.{CONFIG_DIGITS}g}") if np.isfinite(x) else float(x)


def canonical(config) -> object:
    """A JSON-ready form of a config: dataclasses to dicts (with their class name), tuples to lists, floats at
    :data:`CONFIG_DIGITS` significant digits (two configs that agree to that many digits are one experiment)."""
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        out = {"__class__": type(config).__name__}
        out.update({f.name: canonical(getattr(config, f.name)) for f in dataclasses.fields(config)})
        return out
    if isinstance(config, dict):
        return {str(k): canonical(v) for k, v in sorted(config.items(), key=lambda kv: str(kv[0]))}
    if isinstance(config, (list, tuple)):
        return [canonical(v) for v in config]
    if isinstance(config, (np.integer,)):
        return int(config)
    if isinstance(config, (np.floating, float)) and not isinstance(config, bool):
        return _portable_float(float(config))
    if isinstance(config, np.ndarray):
        return canonical(config.tolist())
    if config is None or isinstance(config, (bool, int, float, str)):
        return config
    raise TypeError(f"cannot store a config value of type {type(config).__name__}: use dataclasses, dicts, lists and scalars.")


def config_json(config) -> str:
    return json.dumps({"schema": SCHEMA_VERSION, "config": canonical(config)}, sort_keys=True, separators=(",", ":"))


def config_key(config) -> str:
    return hashlib.sha256(config_json(config).encode()).hexdigest()[:16]


def _git_commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _git_dirty() -> bool | None:
    """Whether tracked files differ from the commit (the stored run's code is then not exactly the commit's);
    None outside a git checkout."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True,
                             timeout=5, cwd=Path(__file__).resolve().parent)
        return bool(out.stdout.strip()) if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def _device_name() -> str:
    if torch.cuda.is_available():
        return torch.cuda.get_device_name(0)
    return f"cpu ({platform.machine()}, {os.cpu_count()} cores)"


def segment_provenance() -> dict:
    """What one segment of a resumable run records about the process that trained it (issue 32: commit, machine,
    kernel set): a run computed in pieces says where each piece ran."""
    return {"git_commit": _git_commit(), "git_dirty": _git_dirty(), "host": platform.node(), "device": _device_name(),
            "kernels": native_capability(), "torch_version": torch.__version__, "package_version": __version__,
            "environment": environment_stamp()}


def takes_checkpoint(compute: Callable) -> bool:
    """Whether ``compute`` accepts a ``checkpoint`` argument (then :meth:`ResultsStore.get_or_compute` resumes it)."""
    try:
        return "checkpoint" in inspect.signature(compute).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return False


class ResultsStore:
    def __init__(self, root: str | os.PathLike, registry: str | os.PathLike | None = None):
        self.root = Path(root)
        # The claims registry whose entries a run seals when it starts: by default the one beside the store.
        self.registry = Path(registry) if registry is not None else self.root.parent / "_registry"

    def seal(self, label: str) -> dict:
        """The seal a run of ``label`` records in its manifest: the registered claims that will judge it, now."""
        return dict(seal_for(label, self.registry), at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))

    def path(self, config, label: str = "run") -> Path:
        if not label or any(c in label for c in "/\\ "):
            raise ValueError(f"label={label!r} is not allowed: use letters, digits, '-' and '_'.")
        return self.root / f"{label}-{config_key(config)}"

    def has(self, config, label: str = "run") -> bool:
        return (self.path(config, label) / "manifest.json").exists()

    def partial_path(self, config, label: str = "run") -> Path:
        """The checkpoint folder of an unfinished run of ``config``, beside its entry's folder."""
        folder = self.path(config, label)
        return folder.with_name(folder.name + PARTIAL_SUFFIX)

    def _check_config(self, folder: Path, config, what: str) -> None:
        """Refuse ``folder`` unless its ``config.json`` is ``config``'s (as :func:`canonical` writes it now)."""
        stored = canonical(json.loads((folder / "config.json").read_text()))
        wanted = json.loads(config_json(config))
        if stored != wanted:
            diff = _first_difference(stored, wanted)
            raise StoreMismatch(f"{folder}: {what} config differs from the requested one at {diff}; refusing to serve it.")

    def checkpointer(self, config, label: str = "run", *, every_s: float = DEFAULT_EVERY_S, at_steps=(),
                     fresh: bool = False, sealed: dict | None = None, provenance: dict | None = None) -> Checkpointer:
        """The :class:`Checkpointer` of the run of ``config``: it resumes the checkpoint in :meth:`partial_path` when
        there is one (refused, like a stored entry, when its config differs), else starts a fresh run sealed now
        (or with ``sealed``, a seal taken earlier: a sweep's). ``fresh``: delete any checkpoint first (the run
        restarts from step 0). ``provenance``: more to record in this process's segment (e.g. its Dask worker)."""
        folder = self.partial_path(config, label)
        if fresh and folder.exists():
            shutil.rmtree(folder)
        if (folder / "config.json").exists():
            self._check_config(folder, config, "the checkpoint's")
        resuming = read_checkpoint(folder) is not None
        return Checkpointer(folder, config_text=json.dumps(json.loads(config_json(config)), indent=2, sort_keys=True) + "\n",
                            label=label, sealed=None if resuming else sealed if sealed is not None else self.seal(label),
                            provenance=dict(segment_provenance(), **(provenance or {})), every_s=every_s,
                            at_steps=at_steps)

    def save(self, config, arrays: dict[str, np.ndarray], *, label: str = "run", wall_time_s: float | None = None,
             extra_manifest: dict | None = None, sealed: dict | None = None) -> Path:
        """Store ``arrays`` for ``config`` atomically; returns the entry's folder. ``sealed``: the :meth:`seal` taken
        when the run started (None: taken now, after the run, and every claim it covers will say so)."""
        final = self.path(config, label)
        self.root.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **{k: np.asarray(v) for k, v in arrays.items()})
        blob = buffer.getvalue()
        for k, v in arrays.items():
            if np.asarray(v).dtype == object:
                raise TypeError(f"array {k!r} has dtype object; only numeric arrays are stored (no pickles).")
        manifest = {
            "schema": SCHEMA_VERSION,
            "key": config_key(config),
            "package_version": __version__,
            "git_commit": _git_commit(),
            "git_dirty": _git_dirty(),
            "torch_version": torch.__version__,
            "environment": environment_stamp(),
            "device": _device_name(),
            "wall_time_s": None if wall_time_s is None else round(float(wall_time_s), 3),
            "arrays_sha256": hashlib.sha256(blob).hexdigest(),
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "label": label,
            "sealed": sealed if sealed is not None else dict(self.seal(label), after_run=True),
        }
        manifest.update(extra_manifest or {})
        self._write_entry(final, config, blob, manifest)
        return final

    def _write_entry(self, final: Path, config, blob: bytes, manifest: dict) -> None:
        """Write an entry's three files into a temporary folder and rename it to ``final`` (replacing an older entry
        for the same key): readers never see half an entry."""
        tmp = Path(tempfile.mkdtemp(dir=self.root, prefix=".tmp-"))
        try:
            config_text = json.dumps(json.loads(config_json(config)), indent=2, sort_keys=True) + "\n"
            manifest = dict(manifest, **{DIGEST_FIELD: entry_digest(manifest, config_text)})
            (tmp / "config.json").write_text(config_text)
            (tmp / "arrays.npz").write_bytes(blob)
            (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
            if final.exists():
                shutil.rmtree(final)
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    def progress(self, config, label: str = "run") -> str:
        """Where the run of ``config`` stands, as a line for a chapter: "stored", "unfinished: step X of N (k
        segment(s))" from its checkpoint, or "not started"."""
        if self.has(config, label):
            return "stored"
        state = read_checkpoint(self.partial_path(config, label))
        if state is None:
            return "not started"
        blocks = [int(x) for x in state.get("block_steps") or []]
        # runs trained one block after another reach different steps: say where each block is
        where = (f"step {reached_step(state):,}" if len(set(blocks)) <= 1
                 else f"blocks of runs at steps {', '.join(f'{x:,}' for x in blocks)}")
        return f"unfinished: {where} of {int(state['steps']):,} ({len(state['segments'])} segment(s))"

    def rekey(self, config, label: str, old_key: str, added: dict, why: str) -> Path:
        """Move the entry stored as ``<label>-<old_key>`` to ``config``'s key after the config class gained the fields
        ``added`` (name -> the value that reproduces what the entry was computed with). Refused unless the old
        ``config.json`` is exactly ``config`` without those fields and ``config`` holds those values; the arrays are
        not touched (their hash is re-checked) and the manifest records ``rekeyed`` (old key, fields, date, why; an
        earlier ``rekeyed`` record moves to the list ``rekeyed_earlier``)."""
        old = self.root / f"{label}-{old_key}"
        if not (old / "manifest.json").exists():
            raise FileNotFoundError(f"no stored entry {old} to rekey.")
        now = canonical(config)
        for name, value in added.items():
            if name not in now or now[name] != canonical(value):
                raise StoreMismatch(f"rekey: config field {name!r} is {now.get(name)!r}, not the added value {value!r}.")
        stored = json.loads((old / "config.json").read_text())["config"]
        if stored != {k: v for k, v in now.items() if k not in added}:
            diff = sorted(k for k in set(stored) | set(now) if k not in added and stored.get(k) != now.get(k))
            raise StoreMismatch(f"rekey: {old} was computed with another config (fields {diff} differ).")
        manifest = json.loads((old / "manifest.json").read_text())
        blob = (old / "arrays.npz").read_bytes()
        if hashlib.sha256(blob).hexdigest() != manifest.get("arrays_sha256"):
            raise StoreMismatch(f"{old}: arrays.npz does not match the hash in its manifest (corrupted or edited).")
        if "rekeyed" in manifest:  # an entry rekeyed before keeps that record too
            manifest.setdefault("rekeyed_earlier", []).append(manifest.pop("rekeyed"))
        manifest["rekeyed"] = {"from_key": old_key, "fields_added": {k: canonical(v) for k, v in added.items()},
                               "date": time.strftime("%Y-%m-%d", time.gmtime()), "why": why}
        manifest["key"] = config_key(config)
        final = self.path(config, label)
        self._write_entry(final, config, blob, manifest)
        shutil.rmtree(old)
        return final

    def load(self, config, label: str = "run") -> tuple[dict[str, np.ndarray], dict]:
        """The arrays and manifest stored for ``config``; raises StoreMismatch if anything disagrees."""
        folder = self.path(config, label)
        if not (folder / "manifest.json").exists():
            unfinished = read_checkpoint(self.partial_path(config, label))
            if unfinished is not None:
                raise UnfinishedRun(_unfinished_message(folder, self.partial_path(config, label), unfinished))
            raise FileNotFoundError(f"no stored result for this config at {folder}.")
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest.setdefault("label", label)  # entries stored before manifests named their label
        if manifest.get("schema") != SCHEMA_VERSION:
            raise StoreMismatch(f"{folder}: schema {manifest.get('schema')} != current {SCHEMA_VERSION}; recompute.")
        self._check_config(folder, config, "stored")
        problem = digest_problem(folder) if DIGEST_FIELD in manifest else None
        if problem:
            raise StoreMismatch(f"{problem}: the entry was edited by hand; recompute it.")
        blob = (folder / "arrays.npz").read_bytes()
        if hashlib.sha256(blob).hexdigest() != manifest.get("arrays_sha256"):
            raise StoreMismatch(f"{folder}: arrays.npz does not match the hash in its manifest (corrupted or edited).")
        with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
        return arrays, manifest

    def load_if_stored(self, config, label: str = "run") -> tuple[dict[str, np.ndarray], dict] | None:
        """:meth:`load` the entry for ``config``, or None when none is stored (a stored entry that does not
        match still raises)."""
        return self.load(config, label) if self.has(config, label) else None

    def load_result(self, config, label: str, from_arrays: Callable[[dict[str, np.ndarray]], object]):
        """``(from_arrays(arrays), manifest)`` for the entry stored for ``config``, or None when none is stored:
        the body of every chapter's ``stored_*`` loader (a stored entry that does not match still raises)."""
        stored = self.load_if_stored(config, label)
        return None if stored is None else (from_arrays(stored[0]), stored[1])

    def get_or_compute(self, config, compute: Callable[..., dict[str, np.ndarray]], *, label: str = "run",
                       recompute: bool = False, checkpoint_every_s: float = DEFAULT_EVERY_S
                       ) -> tuple[dict[str, np.ndarray], dict]:
        """Serve the stored result for ``config``, or compute, store and serve it.

        A ``compute`` that takes a ``checkpoint`` argument is a resumable run (issue 32): it gets this run's
        :meth:`checkpointer` (saving every ``checkpoint_every_s`` seconds) to pass to :func:`repro.training.trainer.train`,
        resumes from the run's checkpoint when one is there, and its finished entry records every ``segments`` and
        the seal taken when its first segment started; the checkpoint is then removed. ``recompute`` discards a
        checkpoint too."""
        if not recompute and self.has(config, label):
            return self.load(config, label)
        if takes_checkpoint(compute):
            checkpoint = self.checkpointer(config, label, every_s=checkpoint_every_s, fresh=recompute)
            arrays = compute(checkpoint=checkpoint)
            self.save(config, arrays, label=label, wall_time_s=checkpoint.wall_time_s(), sealed=checkpoint.sealed,
                      extra_manifest={"segments": checkpoint.segments(finished=True)})
            checkpoint.remove()  # only once the finished entry is in place
            return self.load(config, label)
        sealed = self.seal(label)  # before the run: the claims registered now are the ones that judge it
        start = time.perf_counter()
        arrays = compute()
        self.save(config, arrays, label=label, wall_time_s=time.perf_counter() - start, sealed=sealed)
        if self.partial_path(config, label).exists():  # a checkpoint of this config can never be resumed now
            shutil.rmtree(self.partial_path(config, label))
        return self.load(config, label)


def _unfinished_message(folder: Path, partial: Path, state: dict) -> str:
    """Why an unfinished run is not served: the step its checkpoint reached, and how to finish it."""
    left = projected_remaining_s(state)
    pace = "" if left is None else f", about {left / 60:.0f} min left at its speed so far"
    return (f"no finished result for this config at {folder}: the run is unfinished, its checkpoint {partial} reached "
            f"step {reached_step(state)} of {state['steps']} ({len(state['segments'])} segment(s){pace}). A checkpoint is "
            "never served as a result: rerun the run's command to resume it.")


def _first_difference(a, b, path="config") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k, "<missing>") != b.get(k, "<missing>"):
                return _first_difference(a.get(k, "<missing>"), b.get(k, "<missing>"), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path} (stored {a!r}, requested {b!r})"


def result_arrays(result, names) -> dict[str, np.ndarray]:
    """The fields ``names`` of a result object as arrays, for :meth:`ResultsStore.save`."""
    return {name: np.asarray(getattr(result, name)) for name in names}


def required_arrays(arrays: dict[str, np.ndarray], names, what: str) -> dict[str, np.ndarray]:
    """``arrays`` restricted to ``names``; raises naming ``what`` (e.g. "stored S3 sweep") and the missing ones."""
    missing = set(names) - set(arrays)
    if missing:
        raise ValueError(f"{what} lacks arrays {sorted(missing)}.")
    return {name: arrays[name] for name in names}


def store_parser(module: str, description: str | None):
    """The command line of a chapter's stored run, ``python -m <module> --store FOLDER``: an argparse parser
    with the required ``--store`` option (add a module's own options to it)."""
    import argparse

    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    parser.add_argument("--store", required=True, help="results-store folder, e.g. book/_results")
    return parser


def add_checkpoint_option(parser) -> None:
    """The ``--checkpoint-minutes`` option of a resumable stored run's command (issue 32): how often it saves its
    checkpoint; pass ``checkpoint_every_s(args)`` to :meth:`ResultsStore.get_or_compute`."""
    import argparse

    def minutes(text: str) -> float:
        value = float(text)
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"--checkpoint-minutes={text!r} is not allowed: give minutes > 0, e.g. 10.")
        return value

    parser.add_argument("--checkpoint-minutes", type=minutes, default=DEFAULT_EVERY_S / 60, metavar="MIN",
                        help=f"save a checkpoint every MIN minutes; rerunning the command resumes from the last one "
                             f"(default {DEFAULT_EVERY_S / 60:g})")


def checkpoint_every_s(args) -> float:
    """Seconds between checkpoints from the parsed :func:`add_checkpoint_option`."""
    return 60.0 * args.checkpoint_minutes


def require_stored(stored, what: str, command: str, cost: str):
    """The ``(result, manifest)`` pair a ``stored_*`` loader returned, or a FileNotFoundError that names the
    command recomputing it: how a chapter loads a stored run (``what``: e.g. "Fig. 6 run"; ``cost``: e.g.
    "a few minutes on one core")."""
    if stored is None:
        raise FileNotFoundError(f"the stored {what} is missing: run `{command}` from the repository root ({cost}).")
    return stored


def provenance_line(manifest: dict) -> str:
    """One line saying where a stored run was computed: machine, torch version and commit."""
    return f"stored run: {manifest['device']}, torch {manifest['torch_version']}, commit {manifest['git_commit'][:10]}"


def stored_minutes(manifest: dict) -> str:
    """A stored run's wall time in whole minutes, as text for a chapter's prose (e.g. "45")."""
    return f"{manifest['wall_time_s'] / 60:.0f}"


def load_stored(stored, what: str, command: str, cost: str, *, glue_minutes: str | None = None):
    """How a chapter opens a stored run: :func:`require_stored`, then print its :func:`provenance_line`, then (if
    ``glue_minutes`` names a glue key) glue its :func:`stored_minutes` for the prose. Returns ``(result, manifest)``.

    The print comes before the glue, the order the chapters always used, so their stored outputs do not change.
    """
    if glue_minutes is not None and (not isinstance(glue_minutes, str) or not glue_minutes):
        raise ValueError(f"glue_minutes={glue_minutes!r} is not allowed: it must be a non-empty glue key such as "
                         "'fig6_minutes', or None for no glue.")
    result, manifest = require_stored(stored, what, command, cost)
    print(provenance_line(manifest))
    if glue_minutes is not None:
        # Imported here: myst_nb comes with the book's dev extra, and only a chapter asks for glue.
        from repro.core.prose import glue

        glue(glue_minutes, stored_minutes(manifest), display=False)
    return result, manifest


def history_to_arrays(history) -> dict[str, np.ndarray]:
    """Flatten a :class:`repro.training.trainer.History` into named numeric arrays for the store."""
    arrays = {"steps": history.steps}
    arrays.update({f"metric/{k}": v for k, v in history.metrics.items()})
    arrays.update({f"extra/{k}": v for k, v in history.extra.items()})
    arrays.update({f"param/{k}": v for k, v in history.final_params.items()})
    arrays.update({f"run/{k}": np.asarray(v, dtype=np.float64) for k, v in history.run_values.items()})
    arrays.update({f"extra_steps/{k}": v for k, v in history.extra_steps.items()})
    return arrays


def history_from_arrays(arrays: dict[str, np.ndarray]):
    from repro.training.trainer import History

    def part(prefix):
        return {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}

    runs = {k: v.tolist() for k, v in part("run/").items()}
    if "init_seed" in runs:
        runs["init_seed"] = [int(s) for s in runs["init_seed"]]
    return History(steps=arrays["steps"], metrics=part("metric/"), extra=part("extra/"),
                   final_params=part("param/"), run_values=runs, extra_steps=part("extra_steps/"))

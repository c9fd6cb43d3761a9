"""The locked environment: ``requirements.lock`` at the repository root pins every package (with hashes) that the
stored outputs and stored runs are validated with; this module compares the running environment with it.

    python -m repro.core.envlock check            # exit 1, listing each difference, when this environment differs
    REPRO_KEEP_TORCH=1 python -m repro.core.envlock check   # a GPU machine's own torch 2.13 build (and its CUDA
                                                  # packages) kept beside the rest of the lock
    python -m repro.core.envlock digest           # the lock's digest, as stored in manifests and notebooks
    python -m repro.core.envlock extras           # installed packages the lock does not list (setup removes them)
    python src/repro/core/envlock.py without torch > lock.txt   # the lock less one package (stdlib only: runs
                                                  # before the package is installed; e.g. a CUDA torch kept)

The digest hashes the sorted ``name==version`` pins only (not the hashes or comments), so two locks that pin the
same versions have the same digest. Stored runs record :func:`stamp` in their manifest and notebooks record the
digest in their metadata (``metadata.repro.env_lock``), so a failing comparison can say "environment differs"
instead of leaving a changed digit unexplained (``book/conftest.py``).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import re
import sys
from pathlib import Path

LOCK_NAME = "requirements.lock"
# pip installs the lock and is not pinned by it; the project itself is installed from the checkout.
NOT_LOCKED = ("pip", "repro")
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]*?))?\s*\\?$")
KEEP_TORCH_ENV = "REPRO_KEEP_TORCH"


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares it (``Jinja2`` and ``jinja2``, ``ruamel_yaml`` and ``ruamel-yaml``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def default_lock() -> Path:
    """``requirements.lock`` of the checkout this package is imported from (src/repro/core -> the root)."""
    return Path(__file__).resolve().parents[3] / LOCK_NAME


def read_lock(path: Path | str | None = None) -> dict[str, str]:
    """The lock's pins, ``{normalized name: version}``; a FileNotFoundError names the file when it is missing."""
    path = Path(path) if path is not None else default_lock()
    if not path.is_file():
        raise FileNotFoundError(f"no lock file at {path}: run from a checkout of the repository (see book/developing.md, "
                                "'The locked environment').")
    pins = {}
    for line in path.read_text().splitlines():
        match = _PIN.match(line.strip())
        if match and _applies(match.group(3)):
            pins[normalize(match.group(1))] = match.group(2)
    if not pins:
        raise ValueError(f"{path} pins no package (expected lines such as 'numpy==2.4.6 \\').")
    return pins


def _applies(marker: str | None) -> bool:
    """Whether a pin's environment marker (``python_version < "3.12"``) holds here; True without one. packaging is
    imported only for a marker: the lock's text is read before anything is installed."""
    if not marker:
        return True
    from packaging.markers import Marker

    return Marker(marker).evaluate()


def digest(pins: dict[str, str]) -> str:
    """16 hex digits of the SHA-256 of the sorted ``name==version`` lines."""
    text = "\n".join(f"{name}=={pins[name]}" for name in sorted(pins))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def installed() -> dict[str, str]:
    """``{normalized name: version}`` of every distribution this interpreter sees, less :data:`NOT_LOCKED`."""
    found = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and normalize(name) not in NOT_LOCKED:
            found[normalize(name)] = dist.version
    return found


def differences(locked: dict[str, str], present: dict[str, str], ignore=()) -> list[str]:
    """One line per package whose installed version is not the locked one (missing, extra or another version)."""
    skip = {normalize(n) for n in ignore}
    lines = []
    for name in sorted((set(locked) | set(present)) - skip):
        want, have = locked.get(name), present.get(name)
        if want == have:
            continue
        if have is None:
            lines.append(f"{name}: locked {want}, not installed")
        elif want is None:
            lines.append(f"{name}: installed {have}, not in the lock")
        else:
            lines.append(f"{name}: locked {want}, installed {have}")
    return lines


def without(text: str, names) -> str:
    """The lock's text less the pins of ``names`` (each pin with its hash and comment lines)."""
    drop = {normalize(n) for n in names}
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        match = _PIN.match(line)
        if match:
            skipping = normalize(match.group(1)) in drop
        elif line.strip() and not line[0].isspace():
            skipping = False
        if not skipping:
            out.append(line)
    return "".join(out)


def stamp(lock: Path | str | None = None) -> dict:
    """What a manifest records of the environment: the lock's digest and how this environment differs from it."""
    try:
        pins = read_lock(lock)
    except (FileNotFoundError, ValueError) as err:
        return {"lock": None, "why": str(err)}
    diffs = differences(pins, installed())
    return {"lock": digest(pins), "matches_lock": not diffs, "differs": diffs[:20]}


def explain(stored: dict, here: dict) -> str:
    """Why a failing notebook cell may be the environment's doing: ``stored`` is the notebook's recorded
    :func:`stamp` (``metadata.repro.environment``), ``here`` this environment's; "" when the two are one."""
    lines = []
    if not stored.get("lock"):
        lines.append("the stored outputs record no environment (made before requirements.lock)")
    elif stored["lock"] != here.get("lock"):
        lines.append(f"the stored outputs were made or validated with lock {stored['lock']}, this checkout's lock is "
                     f"{here.get('lock')}")
    elif not stored.get("matches_lock", True):
        lines.append("the stored outputs were made in an environment that differed from their lock: "
                     + "; ".join(stored.get("differs", [])))
    if here.get("lock") is None:
        lines.append(f"no lock to compare with: {here.get('why')}")
    elif not here["matches_lock"]:
        lines.append("this environment differs from requirements.lock: " + "; ".join(here["differs"]))
    if not lines:
        return ""
    return ("environment differs: " + "; ".join(lines)
            + ". Install the lock with `bash scripts/setup.sh` (or compare with `python -m repro.core.envlock check`).")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.core.envlock", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["check", "digest", "extras", "without"])
    parser.add_argument("names", nargs="*", help="for 'without': the packages to leave out")
    parser.add_argument("--lock", default=None, help=f"the lock file (default: the checkout's {LOCK_NAME})")
    parser.add_argument("--ignore", action="append", default=[], metavar="NAME",
                        help="a package not to compare (repeatable), e.g. torch on a GPU machine")
    parser.add_argument("--locked-only", action="store_true",
                        help="compare only the packages the lock pins (a kept CUDA torch brings packages of its own)")
    args = parser.parse_args(argv)
    lock = Path(args.lock) if args.lock else default_lock()
    if args.command == "without":
        if not args.names:
            parser.error("'without' needs the names of the packages to leave out, e.g. `without torch`")
        sys.stdout.write(without(lock.read_text(), args.names))
        return 0
    pins = read_lock(lock)
    if args.command == "extras":
        skip = {normalize(n) for n in args.ignore}
        print("\n".join(sorted(set(installed()) - set(pins) - skip)))
        return 0
    if args.command == "digest":
        print(digest(pins))
        return 0
    present = installed()
    keep_torch = os.environ.get(KEEP_TORCH_ENV, "")
    if keep_torch not in ("", "1"):
        parser.error(f"{KEEP_TORCH_ENV}={keep_torch!r} is not allowed: 1 (keep the installed torch) or unset")
    if keep_torch:  # a GPU machine's own torch build, with its CUDA packages: the rest must be the lock's
        wanted = pins.get("torch", "").split("+")[0]
        have = present.get("torch")
        if have is None or have.split("+")[0] != wanted:
            print(f"{KEEP_TORCH_ENV}=1 keeps the installed torch, which must be {wanted} (any build): "
                  f"{'none is installed' if have is None else f'found {have}'}; install torch=={wanted} first.",
                  file=sys.stderr)
            return 1
        args.ignore.append("torch")
        args.locked_only = True
    if args.locked_only:
        present = {name: version for name, version in present.items() if name in pins}
    diffs = differences(pins, present, args.ignore)
    if diffs:
        print(f"environment differs from {lock} (lock {digest(pins)}) in {len(diffs)} package(s):", file=sys.stderr)
        for line in diffs:
            print(f"  {line}", file=sys.stderr)
        print("install the lock with `bash scripts/setup.sh`, or update it on purpose with `bash scripts/lock.sh`.",
              file=sys.stderr)
        return 1
    ignored = f", {', '.join(args.ignore)} not compared" if args.ignore else ""
    ignored += ", packages it does not pin not compared" if args.locked_only else ""
    print(f"environment matches {lock.name}: {len(pins)} packages, lock {digest(pins)}{ignored}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

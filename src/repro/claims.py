"""Claims: each chapter checks the paper's statements against numbers it computed.

A claim is a name, our value, the paper's value, a tolerance and a source ("eq. 3", "Fig. 4a, read
off the plot"). :meth:`ClaimBook.check` records it to ``book/_claims/<chapter>.json`` and **raises
:class:`ClaimFailed` when our value is outside the tolerance**, so the chapter — and nbval — fails.
The status page of the book tabulates every chapter's file.

Comparisons:

* ``"abs"``:  |ours - paper| <= tolerance
* ``"rel"``:  |ours - paper| <= tolerance * |paper|
* ``">="`` / ``"<="``: ours >= paper (or <=); the paper value is the bound, tolerance is unused.

Portability: the verdict is computed from the exact value, but what is stored and printed is ours at the
claim's ``resolution`` (a grid step; by default 3 significant digits), chosen from the tolerance and the
seed spread, so the committed outputs do not depend on one CPU's floating-point rounding.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from .portable import approx, round_sig, round_to

COMPARISONS = ("abs", "rel", ">=", "<=")


class ClaimFailed(AssertionError):
    """A reproduced number fell outside the paper's value and its stated tolerance."""


@dataclass(frozen=True)
class Claim:
    name: str
    ours: float
    paper: float
    tolerance: float | None
    source: str
    comparison: str = "abs"
    passed: bool = False
    resolution: float | None = None  # grid step ours is shown at; None: 3 significant digits

    def ours_text(self) -> str:
        return approx(self.ours, self.resolution) if self.resolution else approx(self.ours, digits=3)

    def __repr__(self) -> str:
        verdict = "holds" if self.passed else "FAILS"
        return f"Claim({self.name!r}: ours {self.ours_text()}, paper {self.describe()}; {verdict})"

    def describe(self) -> str:
        return f"{self.paper:g} ± {self.tolerance:g}" if self.comparison == "abs" else (
            f"{self.paper:g} ± {100 * self.tolerance:g} %" if self.comparison == "rel" else f"{self.comparison} {self.paper:g}"
        )


def evaluate(ours: float, paper: float, tolerance: float | None, comparison: str) -> bool:
    if comparison not in COMPARISONS:
        raise ValueError(f"comparison={comparison!r} is not allowed: comparison must be one of {', '.join(COMPARISONS)}.")
    if ours is None or not math.isfinite(ours):
        return False
    if comparison == ">=":
        return ours >= paper
    if comparison == "<=":
        return ours <= paper
    if tolerance is None or not tolerance >= 0:
        raise ValueError(f"tolerance={tolerance!r} is not allowed for comparison={comparison!r}: it must be a number >= 0.")
    bound = tolerance if comparison == "abs" else tolerance * abs(paper)
    return abs(ours - paper) <= bound


class ClaimBook:
    """The claims of one chapter, written to ``<directory>/<chapter>.json`` after every check.

    ``digits``: significant digits kept for our values in the file when a claim gives no ``resolution``,
    so the committed JSON does not churn with the last bits of floating point between machines.
    """

    def __init__(self, chapter: str, directory: str | os.PathLike = "_claims", digits: int = 3):
        if not chapter or any(c in chapter for c in "/\\"):
            raise ValueError(f"chapter={chapter!r} is not allowed: chapter must be a plain file stem like 'intro_grokking'.")
        self.chapter = chapter
        self.path = Path(directory) / f"{chapter}.json"
        self.digits = digits
        self.claims: list[Claim] = []

    def check(self, name: str, ours: float, paper: float, *, tolerance: float | None = None, source: str,
              comparison: str = "abs", resolution: float | None = None) -> Claim:
        """Record a claim and raise :class:`ClaimFailed` if it does not hold.

        ``resolution``: the grid step at which ours is stored and shown (e.g. 100 for a step count whose
        tolerance is several hundred steps); the verdict always uses the exact value.
        """
        if not source:
            raise ValueError("source must say where the paper's value comes from, e.g. 'Fig. 4a, read off the plot'.")
        ours = float(ours)
        passed = evaluate(ours, float(paper), tolerance, comparison)
        shown = round_to(ours, resolution) if resolution is not None else round_sig(ours, self.digits)
        claim = Claim(name, shown, float(paper), tolerance, source, comparison, passed, resolution)
        self.claims = [c for c in self.claims if c.name != name] + [claim]
        self.write()
        if not passed:
            raise ClaimFailed(f"claim {name!r} failed: ours = {ours:.6g}, paper {claim.describe()} ({source}).")
        return claim

    def to_dict(self) -> dict:
        return {"chapter": self.chapter, "claims": [asdict(c) for c in self.claims]}

    def write(self) -> None:
        write_json_atomic(self.path, self.to_dict())

    def table(self):
        """A small text table for the chapter (values shown to the stored precision)."""
        rows = [("claim", "ours", "paper", "source", "pass")]
        rows += [(c.name, c.ours_text(), c.describe(), c.source, "yes" if c.passed else "NO") for c in self.claims]
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` via a temp file in the same folder and ``os.replace``: readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json_atomic(path: str | os.PathLike, payload) -> None:
    """Write JSON deterministically (sorted keys, fixed indent), atomically."""
    write_bytes_atomic(path, (json.dumps(payload, indent=2, sort_keys=True) + "\n").encode())


def load_all_claims(directory: str | os.PathLike = "_claims") -> list[dict]:
    """Every chapter's claims file, sorted by chapter name."""
    out = []
    for path in sorted(Path(directory).glob("*.json")):
        with open(path) as f:
            out.append(json.load(f))
    return out

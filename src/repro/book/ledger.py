"""What a chapter's ledger holds: a claim (one registered comparison, as it came out), a figure row, and the
arithmetic behind both (the comparison, the margin in seed standard errors). :mod:`repro.book.claims` records
them (:class:`repro.book.claims.ClaimBook`), :mod:`repro.book.verdicts` judges the paper's claims on them and
:mod:`repro.book.status` renders them; this module imports none of those.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from repro.core.portable import approx, mark_trained
from repro.core.registry import COMPARISONS
from repro.metrics.bootstrap import BOOTSTRAP_RESAMPLES, fraction_standard_error, resample_spread, seed_draws

SCALES = ("book", "paper (CPU, stored)", "paper (GPU, stored)")


FRAGILE_MARGIN = 2.0  # standard errors between ours and its nearest threshold below which a claim is fragile



def _amendment_dict(amendment) -> dict:
    """An amendment as the ledger records it (``outcome`` only where it is true: ledgers written before it existed
    stay as they were)."""
    d = asdict(amendment)
    for flag in ("outcome", "demotes"):
        if not d[flag]:
            del d[flag]
    return d


class ClaimFailed(AssertionError):
    """A claim did not come out as registered: a reproduction or check outside its tolerance, or a
    deviation that now agrees with the paper (re-judge it)."""


@dataclass(frozen=True)
class Claim:
    name: str
    ours: float
    paper: float  # the reference value: the paper's, unless `against` says otherwise
    tolerance: float | None
    source: str
    comparison: str = "abs"
    passed: bool = False  # came out as registered (a deviation: ours outside the paper's tolerance)
    resolution: float | None = None  # grid step ours is shown at; None: 3 significant digits
    kind: str = "reproduction"
    against: str = "paper"
    agrees: bool = False  # ours within the reference's tolerance
    set_after: bool = False  # tolerance chosen after the result was seen
    evidence: str = ""  # deviations: why ours differs, what was tried
    live: bool = True  # ours comes out of a training run on this machine: shown marked, not byte-compared
    margin: float | None = None  # distance from ours to the nearest threshold, in seed standard errors
    spread: float | None = None  # the seed-to-seed standard error behind the margin
    if_fragile: str = ""  # why more seeds would not (or could not, in the chapter's budget) lift a low margin
    form: str = ""  # value | shape | threshold | selection (repro.core.registry)
    locator: str = ""  # where the reference is: section, figure, caption, equation, official file
    set_after_why: str = ""  # why the claim is set after its result (†): an amendment, or a run that did not seal it
    registered: bool = False  # read from the chapter's registry (False: written inline, e.g. in a unit test)
    amendments: tuple = ()  # the registry's amendments of this claim, as dicts (field, original, date, why, restates, outcome)
    run: str = ""  # the stored runs it judges: their store folders, "<label>-<key>", comma-separated
    id: str = ""  # the registry entry's stable id (T01, ...); "" for a claim written inline
    reached: bool = True  # False: the run never reached what the claim reads (a threshold within its budget)

    def ours_text(self) -> str:
        if not self.reached:
            return "never reached"
        text = approx(self.ours, self.resolution) if self.resolution else approx(self.ours, digits=3)
        return mark_trained(text) if self.live else text

    def fragile(self) -> bool:
        """Whether another machine or seed draw can plausibly flip this claim's outcome: a margin below
        :data:`FRAGILE_MARGIN` standard errors."""
        return self.margin is not None and self.margin < FRAGILE_MARGIN

    def margin_text(self) -> str:
        """The margin as shown: '—' for a claim that is not on a live run and has none, 'not measured' for a
        live one without it, '∞' when every seed gave the same value; live margins are marked."""
        if self.margin is None:
            return "not measured" if self.live else "—"
        text = "∞" if math.isinf(self.margin) else approx(self.margin, 0.1)
        return mark_trained(text) if self.live else text

    def __repr__(self) -> str:
        verdict = {True: "as registered", False: "NOT as registered"}[self.passed]
        return f"Claim({self.kind} {self.name!r}: ours {self.ours_text()}, {self.against} {self.describe()}; {verdict})"

    def describe(self) -> str:
        if self.comparison == "abs":
            return f"{self.paper:g} ± {self.tolerance:g}"
        if self.comparison == "rel":
            return f"{self.paper:g} ± {100 * self.tolerance:g} %"
        return f"{self.comparison} {self.paper:g}"

    def outcome(self) -> str:
        """One word for the ledger: what this claim's comparison found."""
        if not self.reached:
            return "never reached"
        if not self.passed:
            return "FAILS" if self.kind != "deviation" else "DEVIATION GONE"
        return {"reproduction": "agrees", "deviation": "deviates", "check": "holds"}[self.kind]

    @classmethod
    def from_dict(cls, d: dict) -> "Claim":
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in d.items() if k in known}
        if "amendments" in d:
            d["amendments"] = tuple(d["amendments"])
        return cls(**d)


@dataclass(frozen=True)
class FigureRow:
    """One figure row: the comparisons that show a figure (table, theorem) of a paper, at one scale."""
    paper: str  # a key of PAPERS
    figure: str  # "Fig. 2", "Fig. 6c", "Table 1", "Thm. 3.1"
    scale: str  # one of SCALES
    claims: tuple[str, ...]
    why: str

    def to_dict(self) -> dict:
        d = asdict(self)
        d["claims"] = list(self.claims)
        return d


def evaluate(ours: float, paper: float, tolerance: float | None, comparison: str) -> bool:
    """Whether ours agrees with the reference under ``comparison`` (NaN / inf never agree)."""
    if comparison not in COMPARISONS:
        raise ValueError(f"comparison={comparison!r} is not allowed: comparison must be one of {', '.join(COMPARISONS)}.")
    if ours is None or not math.isfinite(ours):
        return False
    if comparison == ">=":
        return ours >= paper or _at_edge(ours, paper)
    if comparison == "<=":
        return ours <= paper or _at_edge(ours, paper)
    if tolerance is None or not tolerance >= 0:
        raise ValueError(f"tolerance={tolerance!r} is not allowed for comparison={comparison!r}: it must be a number >= 0.")
    bound = tolerance if comparison == "abs" else tolerance * abs(paper)
    return abs(ours - paper) <= bound or _at_edge(abs(ours - paper), bound)


def _at_edge(value: float, edge: float) -> bool:
    """Whether ``value`` is the edge itself up to float rounding. Every comparison includes its edge, and a value on a
    grid can land exactly there (r_c = 21/36 against 0.5 +- 3/36): in floating point 21/36 - 0.5 exceeds 3/36 by
    4e-17, so the verdict would hang on the last bit of a subtraction rather than on the result."""
    return math.isclose(value, edge, rel_tol=1e-12, abs_tol=1e-15)


def margin_of(ours: float, paper: float, tolerance: float | None, comparison: str, spread: float) -> float:
    """Distance from ``ours`` to the nearest edge of the comparison (``paper`` ± tolerance, or the bound
    ``paper`` for ``>=``/``<=``), in units of ``spread`` (a standard error > 0; 0 gives inf: every seed gave the
    same value). Inside or outside does not matter: a deviation's margin is its distance beyond the edge."""
    if not (isinstance(spread, (int, float)) and math.isfinite(spread) and spread >= 0):
        raise ValueError(f"spread={spread!r} is not allowed: spread must be a finite standard error >= 0.")
    if ours is None or not math.isfinite(ours):
        return math.inf if math.isinf(ours or 0.0) else math.nan
    if comparison in (">=", "<="):
        edges = [paper]
    else:
        half = tolerance if comparison == "abs" else tolerance * abs(paper)
        edges = [paper - half, paper + half]
    distance = min(abs(ours - e) for e in edges)
    if spread == 0:
        return math.inf if distance > 0 else 0.0
    return distance / spread


STATISTICS = ("mean", "median")


def seed_standard_error(seeds, statistic: str = "mean") -> float:
    """The seed-to-seed standard error of a statistic over seeds, from one value per seed (NaN seeds dropped; at
    least two must remain): the mean's, std (ddof 1) / √n; or the median's, from :data:`BOOTSTRAP_RESAMPLES`
    resamplings of the seeds with replacement (:func:`repro.metrics.bootstrap.seed_draws`, a fixed generator, so
    the same values give the same error), read off the resampled medians by
    :func:`repro.metrics.bootstrap.resample_spread`: the larger of their standard deviation and half the width of
    their central 68 %."""
    if statistic not in STATISTICS:
        raise ValueError(f"statistic={statistic!r} is not allowed: statistic must be one of {', '.join(STATISTICS)}.")
    v = np.asarray([float(x) for x in seeds], dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2:
        raise ValueError(f"seeds={list(seeds)!r}: a seed standard error needs at least two finite per-seed values.")
    if statistic == "mean":
        return float(v.std(ddof=1) / math.sqrt(v.size))
    return resample_spread(np.median(v[seed_draws(v.size, BOOTSTRAP_RESAMPLES, seed=0)], axis=1))


def _finite_count(seeds) -> int:
    return int(np.isfinite(np.asarray([float(x) for x in np.ravel(seeds)], dtype=float)).sum())


def statistic_of(ours: float, seeds) -> str:
    """Which statistic of the per-seed values ``ours`` is: "median" when it equals their median (NaN seeds dropped),
    else "mean" (a mean, a fraction of seeds, or a transformed statistic whose scale the mean's error gives)."""
    v = np.asarray([float(x) for x in seeds], dtype=float)
    v = v[np.isfinite(v)]
    if v.size and math.isfinite(ours) and math.isclose(ours, float(np.median(v)), rel_tol=1e-9, abs_tol=1e-12) \
            and not math.isclose(ours, float(v.mean()), rel_tol=1e-9, abs_tol=1e-12):
        return "median"
    return "mean"


def load_all_claims(directory: str | os.PathLike = "_claims") -> list[dict]:
    """Every chapter's claims file, sorted by chapter name (``figures`` defaults to an empty list)."""
    out = []
    for path in sorted(Path(directory).glob("*.json")):
        with open(path) as f:
            data = json.load(f)
        data.setdefault("figures", [])
        out.append(data)
    return out

"""Claims and the figure ledger: each chapter compares its numbers with the paper's, and says per figure
what was reproduced.

**A claim** is a name, our value, a reference value with a tolerance, what that reference is, and a
*kind* that registers what we expect:

* ``"reproduction"`` — ours against a number or statement **of the paper** (``against="paper"``) or of
  its official code (``against="official code"``). Expected to agree: if it does not,
  :meth:`ClaimBook.check` raises :class:`ClaimFailed` and the chapter (and nbval) fails.
* ``"deviation"`` — a registered non-reproduction: the paper's value, ours, and the ``evidence``.
  Expected to *disagree*: it does not stop the chapter, but if ours moves inside the paper's tolerance
  the deviation has silently disappeared, and :meth:`ClaimBook.check` raises so that the ledger is
  re-judged. The ledger can go stale in neither direction.
* ``"check"`` — internal consistency (an integrator against its closed form, an oracle, a construction,
  a bound this book chose). Expected to hold, raises otherwise, and never counts as a reproduction.

``against`` says what the reference is: ``"paper"`` (the ``source`` then cites figure / equation /
text, or "read off Fig. N"), ``"official code"``, ``"derivation"`` (a result derived in this book) or
``"book bound"`` (a threshold this book chose). ``set_after=True`` says the tolerance was set after the
result was seen; the ledger marks it.

Comparisons:

* ``"abs"``:  |ours - reference| <= tolerance
* ``"rel"``:  |ours - reference| <= tolerance * |reference|
* ``">="`` / ``"<="``: ours >= reference (or <=); the reference is the bound, tolerance is unused.

**Figure rows.** :meth:`ClaimBook.figure` records, for one figure (table, theorem) of a paper, the scale it was
judged at, the comparisons that show it and one line on what they show. A row has no verdict of its own: verdicts
belong to the paper's claims (:mod:`repro.book.verdicts`), and the ledger shows, per row, the verdicts of the paper
claims its comparisons bear on.

Portability: a verdict is computed from the exact value; what is stored and printed is ours at the
claim's ``resolution`` (a grid step; by default 3 significant digits). A claim on a live training run
(``live=True``, the default) shows ours marked (:func:`repro.core.portable.trained`): nbval does not
byte-compare it, because another CPU gives another trajectory; the claim's outcome is compared, and the
claim itself is the test. Claims on closed forms, stored results or official data say ``live=False`` and
their values stay byte-compared.

**Margins.** A verdict on trained networks must not hang on the last bits of one machine. A claim given the
per-seed values behind ours (``seeds=``) or their standard error (``spread=``) records its ``margin``: the
distance from ours to the nearest edge of its comparison (reference ± tolerance, or the bound), in units of
the seed-to-seed standard error. A claim whose margin is below :data:`FRAGILE_MARGIN` is *fragile*: another
CPU, or another draw of seeds, can flip it. Chapters' ledgers and the status page list fragile claims, and
live claims whose margin was not measured.
"""
from __future__ import annotations

import json
import math
import os

import numpy as np
from dataclasses import asdict, dataclass, fields
from collections.abc import Mapping, Sequence
from pathlib import Path

from repro.core.files import write_json_atomic
from repro.core.portable import TRAINED_MARK, approx, mark_trained, round_sig, round_to
from repro.core.registry import (AGAINST, COMPARISONS, FORMS, KINDS, PAPERS, UNRECORDED, Amendment, Entry, Registry,
                                 RegistryError, _entry, sealed_by)
from repro.core.scale import current_scale
from repro.metrics.bootstrap import BOOTSTRAP_RESAMPLES, resample_spread, seed_draws
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
class FigureVerdict:
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


def fraction_standard_error(k: int, n: int) -> float:
    """The seed standard error of a fraction ``k / n`` over ``n`` independent one-seed runs (the cells of a phase map,
    each trained from its own seed): at most sqrt(f (1 - f) / n), since the variance of a sum of independent
    Bernoulli outcomes, sum p_i (1 - p_i), is at most n p (1 - p) at their mean p; with f = (k + 1) / (n + 2) so that
    0 or n hits do not claim certainty."""
    if not (isinstance(n, (int, np.integer)) and n >= 1 and isinstance(k, (int, np.integer)) and 0 <= k <= n):
        raise ValueError(f"k={k!r}, n={n!r} are not allowed: counts with 0 <= k <= n and n >= 1.")
    f = (k + 1) / (n + 2)
    return math.sqrt(f * (1 - f) / n)


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


def _manifests(name: str, run) -> list[dict]:
    """``run=`` as a list of manifests: None, one manifest, or a non-empty sequence of them."""
    if run is None:
        return []
    if isinstance(run, Mapping):
        return [dict(run)]
    if isinstance(run, Sequence) and not isinstance(run, str) and run and all(isinstance(m, Mapping) for m in run):
        return [dict(m) for m in run]
    raise TypeError(f"claim {name!r}: run= takes a stored run's manifest (a dict) or a non-empty list of them, "
                    f"not {type(run).__name__}.")


class ClaimBook:
    """The claims (comparisons) and figure rows of one chapter, written to ``<directory>/<chapter>.json`` after
    every call.

    ``digits``: significant digits kept for our values in the file when a claim gives no ``resolution``,
    so the committed JSON does not churn with the last bits of floating point between machines.
    ``registry``: the folder of the claims registry (:mod:`repro.core.registry`) holding ``<chapter>.toml``, a
    loaded :class:`~repro.core.registry.Registry`, or None for a book whose claims are written inline (tests).
    """

    def __init__(self, chapter: str, directory: str | os.PathLike = "_claims", digits: int = 3,
                 registry: str | os.PathLike | Registry | None = "_registry"):
        if not chapter or any(c in chapter for c in "/\\"):
            raise ValueError(f"chapter={chapter!r} is not allowed: chapter must be a plain file stem like 'intro_grokking'.")
        self.chapter = chapter
        self.registry = (registry if isinstance(registry, Registry) or registry is None
                         else Registry.load(chapter, registry))
        self.path = Path(directory) / f"{chapter}.json"
        self.digits = digits
        self.claims: list[Claim] = []
        self.figures: list[FigureVerdict] = []

    def _inline_entry(self, name: str, paper, kw: dict) -> Entry:
        """A claim written in the call (a book without a registry: unit tests, scratch work), validated by the
        registry's own rules; ``set_after=True`` becomes an amendment whose original nobody recorded."""
        if paper is None:
            raise ValueError(f"claim {name!r}: without a registry, give the reference value (paper=).")
        kind = kw.get("kind")
        if kind not in KINDS:
            raise ValueError(f"kind={kind!r} is not allowed: kind must be one of {', '.join(KINDS)}.")
        against = kw.get("against", "paper")
        if against not in AGAINST:
            raise ValueError(f"against={against!r} is not allowed: against must be one of {', '.join(AGAINST)}.")
        if not kw.get("source"):
            raise ValueError("source must say where the reference value comes from, e.g. 'Fig. 4a, read off the plot'.")
        if kind == "reproduction" and against not in ("paper", "official code"):
            raise ValueError(f"a reproduction compares with the paper or its official code, not against={against!r}: "
                             "use kind='check' for a derivation or a bound this book chose.")
        comparison = kw.get("comparison", "abs")
        if comparison not in COMPARISONS:
            raise ValueError(f"comparison={comparison!r} is not allowed: comparison must be one of "
                             f"{', '.join(COMPARISONS)}.")
        tolerance = kw.get("tolerance")
        if comparison in ("abs", "rel") and (tolerance is None or not tolerance >= 0):
            raise ValueError(f"tolerance={tolerance!r} is not allowed for comparison={comparison!r}: it must be a "
                             "number >= 0.")
        d = {"id": "T00", "name": name, "kind": kind, "against": against, "reference": float(paper), "comparison": comparison,
             "tolerance": None if comparison in (">=", "<=") else float(tolerance), "source": kw["source"],
             "form": kw.get("form") or ("value" if comparison in ("abs", "rel") else "shape"),
             "locator": kw.get("locator") or kw["source"], "registered": "inline",
             "resolution": kw.get("resolution"), "if_fragile": kw.get("if_fragile", "")}
        if kw.get("set_after"):
            d["amendments"] = [{"field": "tolerance", "original": UNRECORDED, "date": "inline",
                                "why": "set after the result was seen"}]
        try:
            return _entry({k: v for k, v in d.items() if v is not None}, f"chapter {self.chapter!r}")
        except RegistryError as e:
            raise ValueError(str(e)) from None

    def check(self, name: str, ours: float, paper: float | None = None, *, reference: float | None = None,
              evidence: str = "", live: bool = True, seeds=None, spread: float | None = None,
              statistic: str | None = None, run: dict | Sequence[dict] | None = None, reached: bool = True,
              **inline) -> Claim:
        """Record a claim; raise :class:`ClaimFailed` if it does not come out as its ``kind`` registers.

        What the claim compares with comes from the chapter's registry entry ``name``
        (:mod:`repro.core.registry`): kind, form, reference, comparison, tolerance, locator, source, resolution
        (the grid ours is shown at; the verdict uses the exact value) and ``if_fragile``. The call gives only
        what the run produced:

        ``reference``: the value the chapter computes for a registered ``"computed: ..."`` reference (official
        data, a closed form), or, for a registered number, the same number recomputed (they must agree).
        ``evidence``: for a deviation, what differs and what was tried (it may quote the run's numbers).
        ``live``: ours comes out of a training run in this chapter (True, the default) or is the same on every
        machine (False: a closed form, a stored result, official data); see the module docstring.
        ``seeds`` (the per-seed values behind ours) or ``spread`` (its standard error, e.g. a bootstrap
        spread): give one to record the claim's margin in standard errors. With ``seeds``, ``statistic`` says
        whether ours is their "mean" or "median" (:func:`seed_standard_error`); by default it is read off the
        values (:func:`statistic_of`). Fewer than two finite per-seed values (a single-seed run, or every seed
        but one diverged) measure no spread: the claim records no margin, and a live one is listed as not
        measured.
        ``run``: the manifest of the stored run this claim judges (entries that register ``runs``), or a list of
        manifests when ours joins several stored runs (seeds stored apart, two ensembles compared). The claim is
        set after its result (†) when any of those runs did not seal its entry, or when the entry was amended.

        A book without a registry (``ClaimBook(..., registry=None)``) takes the criterion inline instead:
        ``paper`` and ``kind``, ``tolerance``, ``source``, ``comparison``, ``against``, ``form``, ``locator``,
        ``resolution``, ``set_after``, ``if_fragile`` as keywords.
        """
        allowed_inline = {"kind", "tolerance", "source", "comparison", "resolution", "against", "set_after",
                          "if_fragile", "form", "locator"}
        unknown = sorted(set(inline) - allowed_inline)
        if unknown:
            raise TypeError(f"check() got unexpected keyword arguments {unknown}.")
        scaled = None  # the registry entry of a book-scale name matched at another scale (Registry.scaled)
        if self.registry is not None:
            if paper is not None or inline:
                given = (["paper"] if paper is not None else []) + sorted(inline)
                raise ValueError(f"claim {name!r}: {', '.join(given)} live in the registry "
                                 f"({self.registry.path}), not in the call: one source of truth.")
            if name not in self.registry and current_scale() != "book":
                # Names that count seeds or sizes change with the scale; the registry holds the book's names.
                scaled = self.registry.scaled(name)
            entry = scaled or self.registry[name]
        else:
            entry = self._inline_entry(name, paper, inline)
        if entry.kind == "deviation" and not evidence:
            raise ValueError("a deviation needs evidence: say what differs and what was tried.")
        if seeds is not None and spread is not None:
            raise ValueError("give seeds= (per-seed values) or spread= (their standard error), not both.")
        if entry.computed:
            if reference is None:
                raise ValueError(f"claim {name!r}: its registered reference is {entry.reference!r}; pass reference=.")
            ref = float(reference)
        else:
            ref = float(entry.reference)
            if reference is not None and not math.isclose(float(reference), ref, rel_tol=1e-9, abs_tol=1e-12):
                raise RegistryError(f"claim {name!r}: the registry's reference is {ref!r}, the chapter computes "
                                    f"{float(reference)!r}; correct one of them (an amendment, if the registry).")
        restated = [a for a in entry.amendments if a.field == "reference"][-1:]
        if restated and restated[0].restates and current_scale() == "book" and scaled is None:
            # a number rewritten as its rule must give the number back where it was registered (the book scale)
            if not math.isclose(ref, float(restated[0].original), rel_tol=1e-9, abs_tol=1e-12):
                raise RegistryError(f"claim {name!r}: the restated reference {entry.reference!r} computes {ref!r} "
                                    f"at the book scale, but the number it restates was {restated[0].original!r}: "
                                    "that changes the criterion (an amendment without restates).")
        why_after = [f"{a.field} amended {a.date} (was {a.original!r}): {a.why}" for a in entry.amendments
                     if a.field in ("kind", "form", "against", "reference", "comparison", "tolerance")
                     and not (a.restates or a.outcome or a.demotes)]
        if scaled is not None:
            why_after.append(f"registered for the book scale as {scaled.name!r}")
        manifests = _manifests(name, run)
        if entry.runs:
            if not manifests:
                raise ValueError(f"claim {name!r} judges stored runs {list(entry.runs)}: pass run=<its manifest> "
                                 "(or a list of the manifests it joins).")
            for m in manifests:
                if m.get("label") not in (None, *entry.runs):
                    raise RegistryError(f"claim {name!r} judges runs {list(entry.runs)}, not a run labelled "
                                        f"{m.get('label')!r}.")
            # a claim on several stored runs is fixed before its result only if every one of them sealed it
            for m in manifests:
                why = sealed_by(entry, self.chapter, m)
                if why:
                    why_after.append(why if len(manifests) == 1 else f"{m.get('label', '?')}-{m.get('key', '?')}: {why}")
        elif manifests:
            raise RegistryError(f"claim {name!r} is not registered as judging a stored run: add the run's label "
                                "to its runs.")
        if TRAINED_MARK in entry.if_fragile:
            raise ValueError("if_fragile is written before the run: it must not contain trained (marked) numbers.")
        ours = float(ours)
        if not reached and (math.isfinite(ours) or seeds is not None or spread is not None):
            raise ValueError(f"claim {name!r}: a claim whose run never reached it has no value (ours=nan) and no spread.")
        agrees = evaluate(ours, ref, entry.tolerance, entry.comparison) if reached else False
        # never reached is a result, not a failure: the ledger shows it, and no verdict is decided on it
        passed = ((not agrees) if entry.kind == "deviation" else agrees) if reached else True
        resolution = entry.resolution
        shown = round_to(ours, resolution) if resolution is not None else round_sig(ours, self.digits)
        if statistic is not None and seeds is None:
            raise ValueError("statistic= says which statistic of seeds= ours is; give it only with seeds=.")
        if seeds is not None and _finite_count(seeds) >= 2:
            spread = seed_standard_error(seeds, statistic or statistic_of(ours, seeds))
        margin = None
        if spread is not None:
            margin = margin_of(ours, ref, entry.tolerance, entry.comparison, float(spread))
            margin = margin if not math.isfinite(margin) else round(margin, 2)
            spread = round_sig(float(spread), 3)
        claim = Claim(name, shown, ref, entry.tolerance, entry.source, entry.comparison, passed, resolution,
                      entry.kind, entry.against, agrees, bool(why_after), evidence, bool(live), margin, spread,
                      entry.if_fragile, entry.form, entry.locator, "; ".join(why_after), self.registry is not None,
                      tuple(_amendment_dict(a) for a in entry.amendments),
                      ", ".join(f"{m.get('label', '?')}-{m.get('key', '?')}" for m in manifests),
                      entry.id if self.registry is not None else "", reached)
        self.claims = [c for c in self.claims if c.name != name] + [claim]
        self.write()
        if not passed:
            if entry.kind == "deviation":
                raise ClaimFailed(f"deviation {name!r} disappeared: ours = {ours:.6g} now agrees with the paper "
                                  f"({claim.describe()}, {entry.source}); re-judge it as a reproduction and update the "
                                  "registry (an amendment).")
            raise ClaimFailed(f"claim {name!r} failed: ours = {ours:.6g}, {entry.against} {claim.describe()} "
                              f"({entry.source}).")
        return claim

    def unreached(self, name: str, why: str, **kwargs) -> Claim:
        """Record that the run(s) behind claim ``name`` never reached what it reads (a threshold within the run's
        budget): a result, shown in the ledger, on which no verdict is decided. ``why`` says what the run did."""
        if not why:
            raise ValueError("why must say what the run did instead (e.g. its best value and its budget).")
        return self.check(name, math.nan, evidence=why, reached=False, live=kwargs.pop("live", False), **kwargs)

    def figure(self, paper: str, figure: str, *, scale: str = "book", claims: list[str] | tuple = (),
               why: str) -> FigureVerdict:
        """Record one figure row of ``paper`` (a key of :data:`PAPERS`): the comparisons already checked in this
        chapter that show the figure at ``scale``, and ``why``, one line on what they show. The row has no verdict:
        the ledger shows the verdicts of the paper claims its comparisons bear on."""
        if paper not in PAPERS:
            raise ValueError(f"paper={paper!r} is not allowed: paper must be one of {', '.join(PAPERS)}.")
        if scale not in SCALES:
            raise ValueError(f"scale={scale!r} is not allowed: scale must be one of {', '.join(SCALES)}.")
        if not figure or not why:
            raise ValueError("figure and why must be non-empty: name the figure and say in one line what it shows.")
        known = {c.name for c in self.claims}
        missing = [n for n in claims if n not in known]
        if missing:
            raise ValueError(f"claims={missing!r} are not claims of chapter {self.chapter!r}: check them before the figure.")
        entry = FigureVerdict(paper, figure, scale, tuple(claims), why)
        self.figures = [f for f in self.figures if (f.paper, f.figure) != (paper, figure)] + [entry]
        self.write()
        return entry

    def named(self, prefix: str) -> list[str]:
        """The names of the claims checked so far that start with ``prefix``, in the order they were checked
        (a figure row over one run's claims: ``claims=book.named("stored run: ")``)."""
        names = [c.name for c in self.claims if c.name.startswith(prefix)]
        if not names:
            raise ValueError(f"prefix={prefix!r} names no claim of chapter {self.chapter!r}; its claims: "
                             f"{', '.join(c.name for c in self.claims) or 'none yet'}.")
        return names

    def figure_from(self, paper: str, figure: str, prefix: str, *, scale: str = "book", why: str) -> FigureVerdict:
        """Record a figure row whose comparisons are all those named ``prefix...`` (:meth:`named`)."""
        return self.figure(paper, figure, scale=scale, claims=self.named(prefix), why=why)

    def to_dict(self) -> dict:
        return {"chapter": self.chapter, "claims": [asdict(c) for c in self.claims],
                "figures": [f.to_dict() for f in self.figures]}

    def write(self) -> None:
        write_json_atomic(self.path, self.to_dict())

    def fragile(self) -> list[Claim]:
        """The claims whose margin is below :data:`FRAGILE_MARGIN` seed standard errors."""
        return [c for c in self.claims if c.fragile()]

    def table(self) -> str:
        """A small text table of the claims (values shown to the stored precision)."""
        rows = [("claim", "kind", "ours", "reference", "against", "margin", "outcome")]
        rows += [(c.name, c.kind, c.ours_text(), c.describe(), c.against, c.margin_text(), c.outcome())
                 for c in self.claims]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows)

    def ledger(self):
        """The chapter's "Paper versus ours" section: its figure ledger and its claims, as HTML tables."""
        from repro.book.status import LedgerView

        return LedgerView(self.to_dict(), None if self.registry is None else self.registry.path.parent)

    def tally(self) -> str:
        """One line on the chapter's paper claims, e.g. '6 paper claims: 2 reproduced, 1 not reproduced (rate 2/3);
        2 inconclusive, 1 not tested' (for glue in prose; :mod:`repro.book.verdicts`)."""
        from repro.book.verdicts import chapter_judgements, tally_line

        if self.registry is None:
            raise ValueError("tally() judges the registry's paper claims: this book has no registry.")
        return tally_line(chapter_judgements(self.chapter, registry_dir=self.registry.path.parent,
                                             ledger=self.to_dict()))


def load_all_claims(directory: str | os.PathLike = "_claims") -> list[dict]:
    """Every chapter's claims file, sorted by chapter name (``figures`` defaults to an empty list)."""
    out = []
    for path in sorted(Path(directory).glob("*.json")):
        with open(path) as f:
            data = json.load(f)
        data.setdefault("figures", [])
        out.append(data)
    return out

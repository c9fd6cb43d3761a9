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

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path


from repro.book.ledger import (FRAGILE_MARGIN, SCALES, Claim, ClaimFailed, FigureRow, _amendment_dict, _finite_count,
                               evaluate, fraction_standard_error, load_all_claims, margin_of, seed_standard_error,
                               statistic_of)
from repro.book.status import LedgerView
from repro.book.verdicts import chapter_judgements, tally_line
from repro.core.files import write_json_atomic
from repro.core.portable import TRAINED_MARK, round_sig, round_to
from repro.core.registry import (AGAINST, COMPARISONS, KINDS, PAPERS, UNRECORDED, Entry, Registry,
                                 RegistryError, _entry, sealed_by)
from repro.core.scale import current_scale

# the ledger's names, importable from here as chapters always have
__all__ = ["ClaimBook", "Claim", "ClaimFailed", "FigureRow", "FRAGILE_MARGIN", "SCALES", "PAPERS", "evaluate",
           "fraction_standard_error", "load_all_claims", "margin_of", "seed_standard_error", "statistic_of"]


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
        # another scale's ledger goes beside the book's, never over it: _claims/paper/<chapter>.json
        scale = current_scale()
        self.path = Path(directory) / ("" if scale == "book" else scale) / f"{chapter}.json"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.digits = digits
        self.claims: list[Claim] = []
        self.figures: list[FigureRow] = []

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
                if scaled is None and current_scale() == "smoke":  # a smoke-sized name no entry matches: not judged
                    return Claim(name, float(ours), math.nan, None, "smoke scale: no registered claim of this name",
                                 kind="check")
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
            if reference is not None and not math.isclose(float(reference), ref, rel_tol=1e-9, abs_tol=1e-12) \
                    and current_scale() != "smoke":  # a reference computed from smoke-sized data need not match
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
        if spread is not None and not math.isfinite(float(spread)) and current_scale() == "smoke":
            spread = None  # a spread over a handful of smoke-sized seeds can be infinite: nothing is judged there
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
        if not passed and current_scale() != "smoke":  # smoke scale checks code paths, not verdicts
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
               why: str) -> None:
        """Record one figure row of ``paper`` (a key of :data:`PAPERS`): the comparisons already checked in this
        chapter that show the figure at ``scale``, and ``why``, one line on what they show. The row has no verdict:
        the ledger shows the verdicts of the paper claims its comparisons bear on. It returns nothing, so that a
        chapter cell ending with it shows no repr (``self.figures[-1]`` is the row)."""
        if paper not in PAPERS:
            raise ValueError(f"paper={paper!r} is not allowed: paper must be one of {', '.join(PAPERS)}.")
        if scale not in SCALES:
            raise ValueError(f"scale={scale!r} is not allowed: scale must be one of {', '.join(SCALES)}.")
        if not figure or not why:
            raise ValueError("figure and why must be non-empty: name the figure and say in one line what it shows.")
        known = {c.name for c in self.claims}
        missing = [n for n in claims if n not in known]
        if missing and current_scale() == "smoke":  # smoke-sized names that no registered claim has: not judged
            claims, missing = [n for n in claims if n in known], []
        if missing:
            raise ValueError(f"claims={missing!r} are not claims of chapter {self.chapter!r}: check them before the figure.")
        entry = FigureRow(paper, figure, scale, tuple(claims), why)
        self.figures = [f for f in self.figures if (f.paper, f.figure) != (paper, figure)] + [entry]
        self.write()

    def named(self, prefix: str) -> list[str]:
        """The names of the claims checked so far that start with ``prefix``, in the order they were checked
        (a figure row over one run's claims: ``claims=book.named("stored run: ")``)."""
        names = [c.name for c in self.claims if c.name.startswith(prefix)]
        if not names:
            raise ValueError(f"prefix={prefix!r} names no claim of chapter {self.chapter!r}; its claims: "
                             f"{', '.join(c.name for c in self.claims) or 'none yet'}.")
        return names

    def figure_from(self, paper: str, figure: str, prefix: str, *, scale: str = "book", why: str) -> None:
        """Record a figure row whose comparisons are all those named ``prefix...`` (:meth:`named`)."""
        self.figure(paper, figure, scale=scale, claims=self.named(prefix), why=why)

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
        return LedgerView(self.to_dict(), None if self.registry is None else self.registry.path.parent)

    def tally(self) -> str:
        """One line on the chapter's paper claims, e.g. '6 paper claims: 2 reproduced, 1 not reproduced (rate 2/3);
        2 inconclusive, 1 not tested' (for glue in prose; :mod:`repro.book.verdicts`)."""
        if self.registry is None:
            raise ValueError("tally() judges the registry's paper claims: this book has no registry.")
        return tally_line(chapter_judgements(self.chapter, registry_dir=self.registry.path.parent,
                                             ledger=self.to_dict()))



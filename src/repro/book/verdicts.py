"""One verdict per paper claim, by decision rules registered once for the whole book.

Each chapter's registry lists the paper's own claims (``[[paper_claims]]``: id, quote, locator, figures) and, for
each, the registered comparisons that *test* it at the paper's setting and those that give *context* (another
scale or setting, or a check of ours). A paper claim's verdict follows from its tests' results in the chapter's
ledger (``book/_claims/<chapter>.json``) by the rules below; nobody types a verdict.

**What a test's result is worth** (:func:`classify`):

* ``check`` — a comparison with our own derivation or a criterion we constructed (``against`` derivation or book
  bound), or a best-of selection (form ``selection``): it never decides a paper claim.
* ``exploratory`` — a result that was seen before its criterion was registered: trained live in the chapter (book
  scale; live runs seal nothing, and the chapter's seeds ran before the registry existed), or set after its result
  (†: an amended criterion, or a stored run that did not seal it). It is shown, labelled so, and never decides.
* ``confirmatory`` — a stored run that sealed the comparison before it started, or a result computed in the chapter
  that is not a training run (not live: a closed form, official data, or a computation from random draws such as a
  Monte Carlo, which then gives its spread) whose criterion was not amended.

A confirmatory result is **decided** when it is deterministic (no spread: a closed form, official data) or its margin — the distance from ours to the nearest
edge of the band (reference ± the tolerance, set by the paper's stated precision), in seed standard errors — is at
least :data:`RULES` ``.min_margin`` (every seed equal counts as infinite); otherwise it is *undecided*. The seed
standard error is measured over the seeds behind ours (:func:`repro.book.claims.seed_standard_error`), or, for a
fraction over the cells of a one-seed-per-cell map (each cell its own independent run), bounded by the binomial
error (:func:`repro.book.claims.fraction_standard_error`). A stored run of one seed measures no spread: undecided.

**A paper claim's verdict** (:func:`judge`):

* *not tested* — no test has a result;
* *not reproduced* — a decided test has ours outside the band;
* *reproduced* — at least one decided test agrees, none disagrees and none is undecided;
* *inconclusive* — otherwise (only exploratory, undecided or check results).

The verdict names what it judged: the ``against`` of its deciding tests (the paper's text or figure, the official
code). Headline counts are per paper claim; inconclusive and not tested are reported apart and are outside the
denominator of the reproduction rate (:func:`tally`).
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from repro.book.ledger import Claim, load_all_claims
from repro.core.registry import PAPERS, PaperClaim, Registry, RegistryError


@dataclass(frozen=True)
class DecisionRules:
    registered: str = "2026-12-02"  # the date these rules were fixed, before any paper claim was judged by them
    min_margin: float = 2.0  # seed standard errors between ours and the band's nearest edge for a decided result


RULES = DecisionRules()
VERDICTS = ("reproduced", "not reproduced", "inconclusive", "not tested")
MARKS = {"reproduced": "✅", "not reproduced": "❌", "inconclusive": "❔", "not tested": "⏳"}
CLASSES = ("confirmatory", "exploratory", "check")
JUDGED = {"paper": "paper", "official code": "official code"}


@dataclass(frozen=True)
class TestResult:
    id: str
    name: str
    cls: str  # one of CLASSES
    agrees: bool  # ours inside the band
    decided: bool
    why: str  # one line: why this class, and why (un)decided

    @property
    def outcome(self) -> str:
        if self.cls != "confirmatory":
            return f"{self.cls}: {'agrees' if self.agrees else 'disagrees'}"
        if not self.decided:
            return "undecided"
        return "agrees" if self.agrees else "disagrees"


def classify(claim: Claim, rules: DecisionRules = RULES) -> TestResult:
    """What ``claim`` (one comparison's result in a chapter's ledger) is worth as evidence (module docstring)."""
    def result(cls, decided, why):
        return TestResult(claim.id, claim.name, cls, bool(claim.agrees), decided, why)

    if claim.kind == "check" or claim.against in ("derivation", "book bound"):
        return result("check", False, f"a check against {claim.against}: never decides a paper claim")
    if claim.form == "selection":
        return result("check", False, "a selection (best-of runs or a chosen subset): never decides a paper claim")
    if claim.live:
        return result("exploratory", False, "trained live at book scale: seen before it was registered")
    if claim.set_after:
        return result("exploratory", False, f"set after its result (†): {claim.set_after_why or 'amended'}")
    if not claim.reached:
        return result("confirmatory", False, "its run never reached what it reads within its budget: no value")
    what = "a sealed stored run" if claim.run else "a computation from random draws"
    if not claim.run and claim.margin is None:
        return result("confirmatory", True, "deterministic (a closed form or official data), criterion not amended")
    if claim.margin is None:
        return result("confirmatory", False, "a sealed stored run without a measured seed spread")
    if math.isnan(claim.margin) or claim.margin < rules.min_margin:
        return result("confirmatory", False, f"{what}, margin {claim.margin:g} < {rules.min_margin:g} seed standard "
                                             "errors")
    return result("confirmatory", True, f"{what}, margin {claim.margin:g} seed standard errors")


@dataclass(frozen=True)
class Judgement:
    claim: PaperClaim
    verdict: str  # one of VERDICTS
    tests: tuple[TestResult, ...]
    context: tuple[TestResult, ...]
    judged: tuple[str, ...]  # what the deciding tests compared with: "paper", "official code"
    why: str


def judge(claim: PaperClaim, results: dict[str, Claim], entries_against: dict[str, str],
          rules: DecisionRules = RULES) -> Judgement:
    """The verdict on ``claim`` from the chapter's ledger ``results`` (comparison id -> its result);
    ``entries_against``: comparison id -> what its registry entry compares with."""
    tests = tuple(classify(results[i], rules) for i in claim.tests if i in results)
    context = tuple(classify(results[i], rules) for i in claim.context if i in results)
    decided = [t for t in tests if t.decided]
    against = lambda ts: tuple(sorted({JUDGED.get(entries_against[t.id], entries_against[t.id]) for t in ts}))
    if not tests:
        missing = [i for i in claim.tests if i not in results]
        why = (f"its tests {', '.join(missing)} have no result yet (their stored run is not finished, or not run)"
               if missing else claim.scope or "no registered comparison tests it")
        return Judgement(claim, "not tested", tests, context, (), why)
    disagree = [t for t in decided if not t.agrees]
    if disagree:
        return Judgement(claim, "not reproduced", tests, context, against(disagree),
                         f"{', '.join(t.id for t in disagree)}: ours outside the paper's band, decided")
    undecided = [t for t in tests if t.cls == "confirmatory" and not t.decided]
    if decided and not undecided:
        return Judgement(claim, "reproduced", tests, context, against(decided),
                         f"{', '.join(t.id for t in decided)}: inside the band, decided; no test against it")
    if undecided:
        why = "; ".join(f"{t.id}: {t.why}" for t in undecided)
    else:
        kinds = sorted({t.cls for t in tests})
        why = f"its tests are {' and '.join(kinds)} only: nothing confirmatory decides it"
    return Judgement(claim, "inconclusive", tests, context, against(decided), why)


def results_by_id(ledger: dict, registry: Registry) -> dict[str, Claim]:
    """The ledger's comparison results keyed by their registry id (joined by name for ledgers written before ids).
    What a comparison counts as (kind, against, form) is read from the registry as it is now: a comparison re-filed
    as a check since its chapter last ran counts as one."""
    out = {}
    for d in ledger.get("claims", []):
        cid = d.get("id") or (registry.entries[d["name"]].id if d["name"] in registry else "")
        if cid in registry.by_id:
            e = registry.by_id[cid]
            out[cid] = Claim.from_dict(dict(d, id=cid, kind=e.kind, against=e.against, form=e.form))
    return out


def chapter_judgements(chapter: str, claims_dir: str | Path = "_claims", registry_dir: str | Path = "_registry",
                       ledger: dict | None = None) -> list[Judgement]:
    """Every paper claim of ``chapter`` with its verdict, in registry order."""
    registry = Registry.load(chapter, registry_dir)
    if ledger is None:
        path = Path(claims_dir) / f"{chapter}.json"
        import json

        ledger = json.loads(path.read_text()) if path.is_file() else {"claims": []}
    results = results_by_id(ledger, registry)
    against = {i: e.against for i, e in registry.by_id.items()}
    return [judge(c, results, against) for c in registry.paper_claims.values()]


def tally(judgements: list[Judgement]) -> dict:
    """Counts per verdict and the reproduction rate: reproduced / (reproduced + not reproduced), None if neither."""
    counts = {v: sum(j.verdict == v for j in judgements) for v in VERDICTS}
    decided = counts["reproduced"] + counts["not reproduced"]
    return dict(counts, claims=len(judgements), rate=counts["reproduced"] / decided if decided else None)


def tally_line(judgements: list[Judgement]) -> str:
    """'9 paper claims: 3 reproduced, 1 not reproduced (rate 3/4); 4 inconclusive, 1 not tested'."""
    t = tally(judgements)
    decided = t["reproduced"] + t["not reproduced"]
    rate = f" (rate {t['reproduced']}/{decided})" if decided else ""
    return (f"{t['claims']} paper claim{'s' if t['claims'] != 1 else ''}: {t['reproduced']} reproduced, "
            f"{t['not reproduced']} not reproduced{rate}; {t['inconclusive']} inconclusive, "
            f"{t['not tested']} not tested")


def describe(j: Judgement) -> str:
    """A plain-text block for one paper claim: id, verdict, quote, and each test's worth."""
    lines = [f"{j.claim.id} [{j.verdict}] {j.claim.locator}: \"{j.claim.quote}\"", f"    why: {j.why}"]
    lines += [f"    test {t.id} {t.outcome} — {t.why}" for t in j.tests]
    lines += [f"    context {t.id} {t.outcome} — {t.why}" for t in j.context]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.verdicts",
                                     description="Print each paper claim of a chapter with its computed verdict.")
    parser.add_argument("chapters", nargs="*", help="chapter stems (default: every chapter with a registry)")
    parser.add_argument("--book", default="book", help="the book folder (holding _claims and _registry)")
    args = parser.parse_args(argv)
    book = Path(args.book)
    chapters = args.chapters or sorted(p.stem for p in (book / "_registry").glob("*.toml"))
    everything = []
    for chapter in chapters:
        try:
            judgements = chapter_judgements(chapter, book / "_claims", book / "_registry")
        except RegistryError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        everything += judgements
        print(f"== {chapter}: {tally_line(judgements)}")
        for j in judgements:
            print(describe(j))
    if len(chapters) > 1:
        print(f"== the book: {tally_line(everything)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

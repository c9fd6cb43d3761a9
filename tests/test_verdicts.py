"""One verdict per paper claim, by rules registered once: the rules on made-up results, and the book's own verdicts
re-derived from its ledgers, registries and stored manifests (a decided verdict never rests on a check, a selection,
an exploratory or unsealed result, or a margin below the rule)."""
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from repro.book.claims import Claim
from repro.book.verdicts import RULES, chapter_judgements, classify, judge, tally, tally_line
from repro.core.registry import PaperClaim, Registry, sealed_by

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CHAPTERS = sorted(p.stem for p in (BOOK / "_registry").glob("*.toml"))


def result(cid="T01", **kw):
    d = dict(name=f"claim {cid}", ours=1.0, paper=1.0, tolerance=0.1, source="s", passed=True, kind="reproduction",
             against="paper", agrees=True, live=False, form="value", run="fig1-abc", margin=5.0, id=cid)
    d.update(kw)
    return Claim(**d)


def claim(tests=("T01",), context=()):
    return PaperClaim("C1", "liu2022", "a quote", "Fig. 1", ("Fig. 1",), tuple(tests), tuple(context))


def verdict(*results, context=()):
    by_id = {r.id: r for r in results + tuple(context)}
    pc = claim([r.id for r in results], [r.id for r in context])
    return judge(pc, by_id, {i: r.against for i, r in by_id.items()})


@pytest.mark.parametrize("kw, cls, decided", [
    ({}, "confirmatory", True),
    (dict(kind="check", against="derivation"), "check", False),
    (dict(kind="deviation", against="book bound"), "check", False),
    (dict(form="selection"), "check", False),
    (dict(live=True), "exploratory", False),
    (dict(set_after=True, set_after_why="tolerance amended"), "exploratory", False),
    (dict(margin=1.9), "confirmatory", False),
    (dict(margin=RULES.min_margin), "confirmatory", True),
    (dict(margin=None), "confirmatory", False),
    (dict(margin=math.inf), "confirmatory", True),
    (dict(run="", margin=None), "confirmatory", True),  # deterministic: a closed form or official data
    (dict(run="", margin=1.0), "confirmatory", False),  # a Monte Carlo whose spread covers the band's edge
    (dict(run="", margin=3.0), "confirmatory", True),
])
def test_what_a_result_is_worth(kw, cls, decided):
    t = classify(result(**kw))
    assert (t.cls, t.decided) == (cls, decided), t.why


def test_verdicts_follow_the_rules():
    agree, disagree = result("T01"), result("T02", agrees=False, passed=False, kind="deviation")
    assert verdict(agree).verdict == "reproduced"
    assert verdict(agree, disagree).verdict == "not reproduced"
    assert verdict(agree, result("T03", margin=0.5)).verdict == "inconclusive"  # one part is undecided
    assert verdict(result("T01", live=True)).verdict == "inconclusive"  # exploratory only
    assert verdict(result("T01", kind="check", against="derivation")).verdict == "inconclusive"
    assert verdict(agree, result("T03", live=True, agrees=False)).verdict == "reproduced"  # exploratory never decides
    # context never decides, whatever it found
    assert verdict(agree, context=(result("T09", agrees=False),)).verdict == "reproduced"
    missing = judge(claim(["T01"]), {}, {})
    assert missing.verdict == "not tested" and "T01" in missing.why
    assert judge(claim([]), {}, {}).verdict == "not tested"
    assert verdict(result("T01", against="official code")).judged == ("official code",)


def test_tally_keeps_inconclusive_and_not_tested_out_of_the_rate():
    js = [verdict(result("T01")), verdict(result("T01", live=True)), judge(claim([]), {}, {}),
          verdict(result("T01", agrees=False))]
    t = tally(js)
    assert (t["reproduced"], t["not reproduced"], t["inconclusive"], t["not tested"], t["rate"]) == (1, 1, 1, 1, 0.5)
    assert tally_line(js) == "4 paper claims: 1 reproduced, 1 not reproduced (rate 1/2); 1 inconclusive, 1 not tested"


def _manifest(folder: str) -> dict:
    return json.loads((BOOK / "_results" / folder / "manifest.json").read_text())


def _independently_decided(chapter: str, registry: Registry, row: dict) -> bool:
    """Whether a ledger row can decide a paper claim, re-derived from the raw files: a comparison with the paper or
    the official code (not a check, not a selection), not live, its criterion not amended, every stored run it
    judges sealed it, and (on a stored run) a margin of at least the rule."""
    entry = registry.by_id[row["id"]] if row.get("id") else registry.entries[row["name"]]
    if entry.kind == "check" or entry.against not in ("paper", "official code") or entry.form == "selection":
        return False
    if row["live"] or entry.amended:
        return False
    runs = [r.strip() for r in row.get("run", "").split(",") if r.strip()]
    if any(sealed_by(entry, chapter, _manifest(r)) for r in runs):
        return False
    if not runs and row["margin"] is None:
        return True  # deterministic: a closed form or official data
    return row["margin"] is not None and row["margin"] >= RULES.min_margin


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_decided_verdicts_rest_only_on_confirmatory_results(chapter):
    registry = Registry.load(chapter, BOOK / "_registry")
    ledger = json.loads((BOOK / "_claims" / f"{chapter}.json").read_text())
    rows = {(r.get("id") or registry.entries[r["name"]].id): r for r in ledger["claims"] if r["name"] in registry}
    for j in chapter_judgements(chapter, BOOK / "_claims", BOOK / "_registry"):
        decided = [rows[i] for i in j.claim.tests if i in rows and _independently_decided(chapter, registry, rows[i])]
        assert {t.id for t in j.tests if t.decided} == {registry.entries[r["name"]].id for r in decided}, j.claim.id
        if j.verdict == "reproduced":
            assert decided and all(r["agrees"] for r in decided), j.claim.id
        elif j.verdict == "not reproduced":
            assert any(not r["agrees"] for r in decided), j.claim.id
        for t in j.context:
            assert t.id not in j.claim.tests


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_paper_claim_is_quoted_and_its_tests_have_results(chapter):
    registry = Registry.load(chapter, BOOK / "_registry")
    assert registry.paper_claims, f"{chapter}: no paper claims registered"
    ledger = json.loads((BOOK / "_claims" / f"{chapter}.json").read_text())
    have = {registry.entries[r["name"]].id for r in ledger["claims"] if r["name"] in registry}
    finished = {p.name.rsplit("-", 1)[0] for p in (BOOK / "_results").iterdir() if (p / "manifest.json").is_file()}
    pending = {e.id for e in registry.entries.values() if e.runs and not set(e.runs) & finished}
    for c in registry.paper_claims.values():
        assert len(c.quote) >= 10 and c.locator and c.registered
        missing = sorted(set(c.tests + c.context) - have - pending)  # a run not finished has no result yet
        assert not missing, f"{chapter} {c.id}: comparisons {missing} have no result in the ledger"


def test_a_claim_whose_run_never_reached_it_is_a_result_that_decides_nothing(tmp_path):
    from repro.book.claims import ClaimBook

    book = ClaimBook("ch", tmp_path, registry=None)
    c = book.unreached("delay", "no seed reaches 99 % within 1,000 steps", kind="reproduction", paper=3.0,
                       tolerance=0.5, source="Fig. 1")
    assert c.outcome() == "never reached" and c.ours_text() == "never reached" and c.passed and not c.agrees
    t = classify(replace(c, id="T01", run="fig1-abc"))
    assert t.cls == "confirmatory" and not t.decided
    assert json.loads((tmp_path / "ch.json").read_text())["claims"][0]["reached"] is False
    with pytest.raises(ValueError, match="has no value"):
        book.check("delay", 1.0, reached=False, kind="reproduction", paper=3.0, tolerance=0.5, source="Fig. 1")


def test_a_fraction_of_independent_cells_has_at_most_the_binomial_error():
    import numpy as np

    from repro.book.claims import fraction_standard_error

    rng = np.random.default_rng(0)
    p = rng.uniform(0, 1, size=60)  # each cell's own chance of agreeing
    draws = rng.uniform(size=(4000, 60)) < p
    fractions = draws.mean(axis=1)
    assert fractions.std() <= fraction_standard_error(int(round(p.mean() * 60)), 60) * 1.05
    assert fraction_standard_error(0, 10) > 0 and fraction_standard_error(10, 10) > 0
    with pytest.raises(ValueError, match="0 <= k <= n"):
        fraction_standard_error(11, 10)

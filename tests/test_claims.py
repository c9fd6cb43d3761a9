import json
from pathlib import Path

import numpy as np
import pytest

from repro.book.claims import ClaimBook, ClaimFailed, evaluate, load_all_claims
from repro.book.status import book_order

BOOK = Path(__file__).resolve().parents[1] / "book"


def test_reproductions_are_written(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    book.check("a", 1.004, 1.0, kind="reproduction", tolerance=0.01, source="eq. 3")
    book.check("b", 12.0, 10.0, kind="check", against="book bound", comparison=">=", source="our bound")
    book.check("c", 0.5, 0.55, kind="reproduction", against="official code", tolerance=0.1, comparison="rel",
               source="Table 2")
    data = json.loads((tmp_path / "ch.json").read_text())
    assert data["chapter"] == "ch" and data["figures"] == []
    assert [c["name"] for c in data["claims"]] == ["a", "b", "c"]
    assert all(c["passed"] and c["agrees"] for c in data["claims"])
    assert [c["kind"] for c in data["claims"]] == ["reproduction", "check", "reproduction"]
    assert set(data["claims"][0]) >= {"name", "ours", "paper", "tolerance", "source", "passed", "kind", "against",
                                      "set_after", "evidence"}


def test_failing_reproduction_raises_and_is_recorded(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    with pytest.raises(ClaimFailed, match="claim 'x' failed"):
        book.check("x", 2.0, 1.0, kind="reproduction", tolerance=0.5, source="Fig. 2")
    data = json.loads((tmp_path / "ch.json").read_text())
    assert data["claims"][0]["passed"] is False
    with pytest.raises(ClaimFailed):
        book.check("y", 9.0, 10.0, kind="check", against="derivation", comparison=">=", source="eq. 1")
    with pytest.raises(ClaimFailed):
        book.check("nan", float("nan"), 1.0, kind="reproduction", tolerance=1.0, source="Fig. 1")


def test_deviation_stands_while_ours_disagrees_and_fails_when_it_disappears(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    c = book.check("slope", 0.63, -1.0, kind="deviation", tolerance=0.3, source="Fig. 5",
                   evidence="3 inits; the boundary bends the other way")
    assert c.passed and not c.agrees and c.outcome() == "deviates"
    # The same deviation with ours inside the paper's tolerance: the ledger would be stale, so it raises.
    with pytest.raises(ClaimFailed, match="deviation 'slope' disappeared"):
        book.check("slope", -0.9, -1.0, kind="deviation", tolerance=0.3, source="Fig. 5", evidence="x")
    # A NaN never agrees, so a deviation measured as NaN still stands (and says so through ours).
    assert book.check("n", float("nan"), 1.0, kind="deviation", tolerance=0.1, source="s", evidence="e").passed


def test_bad_claim_inputs(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    with pytest.raises(ValueError, match="comparison"):
        book.check("a", 1, 1, kind="reproduction", tolerance=0.1, comparison="~", source="x")
    with pytest.raises(ValueError, match="tolerance"):
        book.check("a", 1, 1, kind="reproduction", source="x")
    with pytest.raises(ValueError, match="source"):
        book.check("a", 1, 1, kind="reproduction", tolerance=0.1, source="")
    with pytest.raises(ValueError, match="kind"):
        book.check("a", 1, 1, kind="vibes", tolerance=0.1, source="x")
    with pytest.raises(ValueError, match="kind=None"):
        book.check("a", 1, 1, tolerance=0.1, source="x")  # kind is required: every claim is classified
    with pytest.raises(ValueError, match="against"):
        book.check("a", 1, 1, kind="check", against="spec", tolerance=0.1, source="x")
    with pytest.raises(ValueError, match="reproduction compares with the paper"):
        book.check("a", 1, 1, kind="reproduction", against="book bound", tolerance=0.1, source="x")
    with pytest.raises(ValueError, match="evidence"):
        book.check("a", 2, 1, kind="deviation", tolerance=0.1, source="x")
    with pytest.raises(ValueError, match="chapter"):
        ClaimBook("a/b", tmp_path, registry=None)


@pytest.mark.parametrize("ours, paper, tol, cmp, expected", [
    (1.0, 1.0, 0.0, "abs", True), (1.1, 1.0, 0.05, "abs", False), (105, 100, 0.05, "rel", True),
    (106, 100, 0.05, "rel", False), (3, 3, None, ">=", True), (3, 3, None, "<=", True), (4, 3, None, "<=", False),
])
def test_evaluate(ours, paper, tol, cmp, expected):
    assert evaluate(ours, paper, tol, cmp) is expected


def test_figure_from_names_the_rows_comparisons_by_prefix(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    for i in range(2):
        book.check(f"run: {i}", 1.0, 1.0, kind="reproduction", tolerance=0.1, source="Fig. 1")
    assert book.figure_from("liu2022", "Fig. 1", "run: ", scale="paper (CPU, stored)", why="what the run showed") is None
    entry = book.figures[-1]
    assert (entry.claims, entry.scale) == (("run: 0", "run: 1"), "paper (CPU, stored)")
    with pytest.raises(ValueError, match="prefix='x'"):
        book.figure_from("liu2022", "Fig. 1", "x", why="w")


def test_figure_ledger(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    book.check("r", 1.0, 1.0, kind="reproduction", tolerance=0.1, source="Fig. 1")
    book.check("d", 5.0, 1.0, kind="deviation", tolerance=0.1, source="Fig. 2", evidence="e")
    book.figure("liu2022", "Fig. 1", claims=["r"], why="the curve matches")
    book.figure("liu2022", "Fig. 2", claims=["r", "d"], why="shape yes, value no")
    book.figure("liu2022", "Fig. 8", scale="book", why="needs MNIST")
    with pytest.raises(ValueError, match="not claims of chapter"):
        book.figure("liu2022", "Fig. 3", claims=["nope"], why="x")
    with pytest.raises(ValueError, match="paper"):
        book.figure("liu2099", "Fig. 3", claims=["r"], why="x")
    with pytest.raises(TypeError):
        book.figure("liu2022", "Fig. 3", "reproduced", claims=["r"], why="x")  # a row takes no verdict
    with pytest.raises(ValueError, match="scale"):
        book.figure("liu2022", "Fig. 3", scale="huge", claims=["r"], why="x")
    data = json.loads((tmp_path / "ch.json").read_text())
    assert [f["figure"] for f in data["figures"]] == ["Fig. 1", "Fig. 2", "Fig. 8"]
    assert data["figures"][1] == {"paper": "liu2022", "figure": "Fig. 2", "scale": "book", "claims": ["r", "d"],
                                  "why": "shape yes, value no"}
    with pytest.raises(ValueError, match="no registry"):
        book.tally()  # the tally is over the registry's paper claims (repro.book.verdicts)
    view = book.ledger()
    html = view._repr_html_()
    assert "<table" in html and "Fig. 2" in html and "deviates" in html and "evidence" in html
    assert "Fig. 2: — (book)" in repr(view)  # no paper claims here: a figure row has no verdict of its own


def test_committed_ledger_is_consistent():
    """The book's own claims files: every claim came out as registered, is read from the chapter's registry with a
    form and a locator, and is set after its result (†) unless its run sealed it; every chapter records figure rows,
    which name only its comparisons."""
    from repro.book.claims import Claim
    from repro.core.registry import Registry, sealed_by

    chapters = load_all_claims(BOOK / "_claims")
    assert chapters, "book/_claims is empty"
    toc = book_order(BOOK / "_toc.yml")
    for chapter in chapters:
        stem = chapter["chapter"]
        assert stem in toc, f"{stem}: a claims file for a chapter not in the book"
        registry = Registry.load(stem, BOOK / "_registry")
        claims = {c["name"]: Claim.from_dict(c) for c in chapter["claims"]}
        for c in claims.values():
            assert c.passed, f"{stem}: claim {c.name!r} did not come out as registered"
            assert c.registered and c.form and c.locator, f"{stem}: claim {c.name!r} is not read from the registry"
            entry = registry[c.name]
            unsealed = None
            if entry.runs:  # a claim on a stored run: sealed by that run, or †
                assert c.run, f"{stem}: claim {c.name!r} judges stored runs but names none"
                runs = c.run.split(", ")  # a claim on several joined runs names each one
                whys = [sealed_by(entry, stem, json.loads((BOOK / "_results" / r / "manifest.json").read_text()))
                        for r in runs]
                unsealed = next((w for w in whys if w), None)
            assert c.set_after == (entry.amended or unsealed is not None), f"{stem}: {c.name!r}"
        assert chapter["figures"], f"{stem}: no figure row recorded"
        for f in chapter["figures"]:
            assert all(n in claims for n in f["claims"]), f"{stem} {f['figure']}: unknown claim"
            assert "verdict" not in f, f"{stem} {f['figure']}: a figure row has no verdict of its own"


def test_named_lists_claims_by_prefix_in_order(tmp_path):
    book = ClaimBook("chapter", directory=tmp_path, registry=None)
    for name in ("run A: x", "run B: y", "run A: z"):
        book.check(name, 1, 1, kind="reproduction", tolerance=0.1, source="Fig. 1")
    assert book.named("run A: ") == ["run A: x", "run A: z"]
    with pytest.raises(ValueError, match="prefix='run C'"):
        book.named("run C")


def test_margin_counts_standard_errors_to_the_nearest_edge(tmp_path):
    from repro.book.claims import margin_of, seed_standard_error

    assert margin_of(1.0, 1.0, 0.5, "abs", 0.1) == pytest.approx(5.0)  # 0.5 to either edge
    assert margin_of(1.4, 1.0, 0.5, "abs", 0.1) == pytest.approx(1.0)  # 0.1 inside the upper edge
    assert margin_of(1.7, 1.0, 0.5, "abs", 0.1) == pytest.approx(2.0)  # a deviation: 0.2 beyond it
    assert margin_of(110, 100, 0.2, "rel", 5) == pytest.approx(2.0)  # edges 80 and 120
    assert margin_of(0.9, 0.5, None, ">=", 0.2) == pytest.approx(2.0)
    assert margin_of(0.9, 0.5, None, ">=", 0.0) == float("inf")  # every seed gave the same value
    assert seed_standard_error([1.0, 2.0, 3.0, float("nan")]) == pytest.approx(1 / 3 ** 0.5)
    with pytest.raises(ValueError, match="two"):
        seed_standard_error([1.0])
    with pytest.raises(ValueError, match="spread"):
        margin_of(1.0, 1.0, 0.1, "abs", -1.0)


def test_claims_record_margins_and_list_the_fragile_ones(tmp_path):
    book = ClaimBook("ch", tmp_path, registry=None)
    # Per-seed values with standard error 0.0204: 0.9 sits 0.02 above the bound 0.88, about one standard error.
    seeds = [0.85, 0.9, 0.95, 0.9]
    firm = book.check("firm", 0.9, 0.5, kind="reproduction", comparison=">=", source="Fig. 1", seeds=seeds)
    close = book.check("close", 0.9, 0.88, kind="reproduction", comparison=">=", source="Fig. 1", seeds=seeds)
    plain = book.check("theory", 1.0, 1.0, kind="check", against="derivation", tolerance=1e-6, source="Eq. 3",
                       live=False)
    assert not firm.fragile() and close.fragile() and close.margin == pytest.approx(0.98, abs=0.01)
    assert [c.name for c in book.fragile()] == ["close"]
    assert plain.margin is None and plain.margin_text() == "—" and not plain.fragile()
    unmeasured = book.check("unmeasured", 0.9, 0.5, kind="reproduction", comparison=">=", source="Fig. 1")
    assert unmeasured.margin_text() == "not measured"
    data = json.loads((tmp_path / "ch.json").read_text())
    assert [c["live"] for c in data["claims"]] == [True, True, False, True]
    with pytest.raises(ValueError, match="not both"):
        book.check("x", 0.9, 0.5, kind="reproduction", comparison=">=", source="s", seeds=seeds, spread=0.1)


def test_a_median_gets_the_median_standard_error(tmp_path):
    """Two outlying seeds inflate the mean's error, not the median's: 1.0 as the median of thirteen 1s and two low
    seeds is far from a bound at 0.95, and the margin says so. With seven 1s and the same two low seeds, 3 % of
    the resampled medians fall to a low seed; the median's error (repro.metrics.bootstrap.resample_spread) counts
    them, and is then about the mean's."""
    from repro.book.claims import seed_standard_error, statistic_of

    few = [1, 1, 0.057, 1, 1, 1, 1, 1, 0.40]
    assert seed_standard_error(few, "median") == pytest.approx(seed_standard_error(few, "mean"), rel=0.1)
    seeds = [1, 1, 0.057, 1, 1, 1, 1, 1, 0.40, 1, 1, 1, 1, 1, 1]
    assert statistic_of(1.0, seeds) == "median" and statistic_of(float(np.mean(seeds)), seeds) == "mean"
    assert seed_standard_error(seeds, "median") < 0.05 < seed_standard_error(seeds, "mean")
    assert seed_standard_error(seeds, "median") == seed_standard_error(seeds, "median")  # a fixed generator
    book = ClaimBook("ch", tmp_path, registry=None)
    median = book.check("rqi", 1.0, 0.95, kind="reproduction", comparison=">=", source="s", seeds=seeds)
    mean = book.check("rqi as a mean", 1.0, 0.95, kind="reproduction", comparison=">=", source="s", seeds=seeds,
                      statistic="mean")
    assert median.margin > 2 > mean.margin
    with pytest.raises(ValueError, match="statistic"):
        book.check("x", 1.0, 0.95, kind="reproduction", comparison=">=", source="s", statistic="mode", seeds=seeds)
    with pytest.raises(ValueError, match="only with seeds"):
        book.check("x", 1.0, 0.95, kind="reproduction", comparison=">=", source="s", statistic="median")


def test_too_few_seeds_record_no_margin_and_fragile_claims_say_why(tmp_path):
    from repro.book.status import fragility_text
    from repro.core.portable import mark_trained

    book = ClaimBook("ch", tmp_path, registry=None)
    one = book.check("one seed", 0.9, 0.5, kind="reproduction", comparison=">=", source="Fig. 1", seeds=[0.9])
    nan = book.check("one finite seed", 0.9, 0.5, kind="reproduction", comparison=">=", source="Fig. 1",
                     seeds=[0.9, float("nan")])
    assert one.margin is None and nan.margin is None and one.margin_text() == "not measured"
    close = book.check("close", 0.9, 0.88, kind="reproduction", comparison=">=", source="Fig. 1",
                       seeds=[0.85, 0.9, 0.95, 0.9], if_fragile="steps of 0.1")
    bare = book.check("bare", 0.9, 0.88, kind="reproduction", comparison=">=", source="Fig. 1",
                      seeds=[0.85, 0.9, 0.95, 0.9])
    assert close.fragile() and bare.fragile()
    text = fragility_text(book.claims)
    assert "left so: steps of 0.1" in text and "bare (" in text and "no reason given" in text
    with pytest.raises(ValueError, match="if_fragile"):
        book.check("x", 0.9, 0.5, kind="reproduction", comparison=">=", source="s", if_fragile=mark_trained("3"))


def test_an_edge_value_on_a_grid_counts_as_at_the_edge():
    """21/36 is exactly one grid step of 3/36 from 0.5, but in floating point 21/36 - 0.5 exceeds 3/36 by 4e-17: the
    verdict must not hang on that bit. Values clearly past an edge still fail."""
    from repro.book.claims import evaluate

    assert 21 / 36 - 0.5 > 3 / 36  # the float artefact this guards against
    assert evaluate(21 / 36, 0.5, 3 / 36, "abs") and evaluate(15 / 36, 0.5, 3 / 36, "abs")
    assert not evaluate(21 / 36 + 1e-9, 0.5, 3 / 36, "abs")
    assert evaluate(0.1 + 0.2, 0.3, None, "<=") and not evaluate(0.3 + 1e-9, 0.3, None, "<=")
    assert evaluate(1.2 * 3 / 3, 1.2, None, ">=") and not evaluate(1.2 - 1e-9, 1.2, None, ">=")
    assert evaluate(1.1 * 1.1, 1.0, 0.21, "rel") and not evaluate(1.2101, 1.0, 0.21, "rel")

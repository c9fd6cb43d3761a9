"""The claims registry: entries validated, seals that change with the criterion, runs that seal their claims when
they start, and claims set after their result (†) derived from the files."""
import json

import numpy as np
import pytest

from repro.book.claims import ClaimBook, ClaimFailed
from repro.core.registry import Registry, RegistryError, seal_for, sealed_by, to_toml
from repro.training.store import ResultsStore


def entry(**kw):
    d = {"id": "T01", "name": "rqi", "kind": "reproduction", "form": "value", "against": "paper", "reference": 1.0,
         "comparison": "abs", "tolerance": 0.05, "locator": "Fig. 4b", "source": "RQI reaches 1",
         "registered": "2026-11-25"}
    d.update(kw)
    return d


def write(tmp_path, entries, chapter="ch"):
    folder = tmp_path / "_registry"
    folder.mkdir(exist_ok=True)
    entries = [dict(e, id=f"T{i + 1:02d}") for i, e in enumerate(entries)]  # ids are unique in a registry
    (folder / f"{chapter}.toml").write_text(to_toml(chapter, entries, header="test registry"))
    return folder


def test_registry_reads_back_what_it_writes(tmp_path):
    amended = entry(name="gap", comparison=">=", tolerance=None, form="shape", reference=0.0,
                    amendments=[{"field": "reference", "original": 0.1, "date": "2026-11-26", "why": "typo"}])
    reg = Registry.load("ch", write(tmp_path, [entry(runs=["sweep"]), amended]))
    assert reg["rqi"].tolerance == 0.05 and reg["rqi"].runs == ("sweep",) and not reg["rqi"].amended
    assert reg["gap"].amended and reg["gap"].tolerance is None
    assert reg.seals("sweep") == {"ch/rqi": reg["rqi"].seal()}
    with pytest.raises(RegistryError, match="not registered.*close: \\['rqi'\\]"):
        reg["rqj"]


@pytest.mark.parametrize("bad, message", [
    (dict(form="vibes"), "form='vibes' is not allowed"),
    (dict(comparison=">=", tolerance=None), "form 'value' .* needs a two-sided comparison"),
    (dict(comparison=">="), "is a bound: give no tolerance"),
    (dict(tolerance=None), "needs tolerance"),
    (dict(kind="reproduction", against="book bound"), "a reproduction compares with the paper"),
    (dict(reference="about one"), "computed: "),
    (dict(locator=""), "'locator' is missing"),
])
def test_registry_refuses_malformed_entries(tmp_path, bad, message):
    with pytest.raises(RegistryError, match=message):
        Registry.load("ch", write(tmp_path, [entry(**bad)]))


def test_registry_refuses_unknown_fields_and_duplicates(tmp_path):
    folder = write(tmp_path, [entry()])
    path = folder / "ch.toml"
    path.write_text(path.read_text() + 'colour = "red"\n')
    with pytest.raises(RegistryError, match="unknown fields"):
        Registry.load("ch", folder)
    write(tmp_path, [entry(), entry()])
    with pytest.raises(RegistryError, match="registered twice"):
        Registry.load("ch", folder)


def test_seal_covers_the_criterion_not_the_wording():
    from repro.core.registry import _entry

    base = _entry(entry(), "t")
    assert _entry(entry(source="reworded"), "t").seal() == base.seal()
    assert _entry(entry(locator="Fig. 4(b)"), "t").seal() == base.seal()
    for change in (dict(tolerance=0.1), dict(reference=0.9), dict(form="threshold", comparison=">=", tolerance=None)):
        assert _entry(entry(**change), "t").seal() != base.seal(), change


def test_a_stored_run_seals_its_claims_when_it_starts(tmp_path):
    folder = write(tmp_path, [entry(runs=["sweep"]), entry(name="other", runs=["elsewhere"])])
    store = ResultsStore(tmp_path / "_results")
    assert store.registry == folder

    def compute():  # the registry changes while the run computes: the seal is the one from the start
        write(tmp_path, [entry(runs=["sweep"], tolerance=0.5)])
        return {"x": np.arange(3.0)}

    _, manifest = store.get_or_compute({"a": 1}, compute, label="sweep")
    assert manifest["label"] == "sweep" and set(manifest["sealed"]["claims"]) == {"ch/rqi"}
    reg_now = Registry.load("ch", folder)
    assert sealed_by(reg_now["rqi"], "ch", manifest) == "the claim's criterion changed after the run started"
    assert seal_for("sweep", tmp_path / "nowhere")["claims"] == {}


def test_claims_on_stored_runs_are_set_after_unless_sealed(tmp_path):
    folder = write(tmp_path, [entry(runs=["sweep"]), entry(name="later", runs=["sweep"])])
    store = ResultsStore(tmp_path / "_results")
    _, manifest = store.get_or_compute({"a": 1}, lambda: {"x": np.arange(3.0)}, label="sweep")
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    sealed = book.check("rqi", 1.0, run=manifest, live=False)
    assert not sealed.set_after and sealed.run.startswith("sweep-")
    # A claim registered after the run started is set after its result, and says why.
    write(tmp_path, [entry(runs=["sweep"]), entry(name="later", runs=["sweep"]),
                     entry(name="added", runs=["sweep"])])
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    added = book.check("added", 1.0, run=manifest, live=False)
    assert added.set_after and "not registered when the run started" in added.set_after_why
    old = dict(manifest)
    old.pop("sealed")
    assert book.check("rqi", 1.0, run=old, live=False).set_after  # stored before seals existed
    with pytest.raises(ValueError, match="pass run="):
        book.check("rqi", 1.0)
    with pytest.raises(RegistryError, match="not a run labelled 'other'"):
        book.check("rqi", 1.0, run=dict(manifest, label="other"))


def test_a_claim_on_joined_runs_is_fixed_only_if_every_run_sealed_it(tmp_path):
    folder = write(tmp_path, [entry(runs=["seed1", "seed2"])])
    store = ResultsStore(tmp_path / "_results")
    _, m1 = store.get_or_compute({"seed": 1}, lambda: {"x": np.arange(3.0)}, label="seed1")
    _, m2 = store.get_or_compute({"seed": 2}, lambda: {"x": np.arange(3.0)}, label="seed2")
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    both = book.check("rqi", 1.0, run=[m1, m2], live=False)
    assert not both.set_after and both.run == f"seed1-{m1['key']}, seed2-{m2['key']}"
    old = dict(m2)
    old.pop("sealed")  # one of the two was stored before seals: the joined claim is †, and says which share
    one_old = book.check("rqi", 1.0, run=[m1, old], live=False)
    assert one_old.set_after and one_old.set_after_why.startswith(f"seed2-{m2['key']}: ")
    assert "predates sealed registries" in one_old.set_after_why and "seed1" not in one_old.set_after_why
    with pytest.raises(RegistryError, match="not a run labelled 'other'"):
        book.check("rqi", 1.0, run=[m1, dict(m2, label="other")], live=False)
    for bad in ([], "seed1", [m1, "seed2"]):
        with pytest.raises((TypeError, ValueError), match="run="):
            book.check("rqi", 1.0, run=bad, live=False)


def test_a_number_restated_as_its_rule_is_not_an_amended_criterion(tmp_path, monkeypatch):
    restated = dict(reference="computed: chance, 1/p", amendments=[
        dict(field="reference", original=1 / 31, date="2026-11-26", why="the rule behind the number", restates=True)])
    folder = write(tmp_path, [entry(**restated)])
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    monkeypatch.setenv("REPRO_SCALE", "book")
    claim = book.check("rqi", 1 / 31, reference=1 / 31)
    assert not claim.set_after and not Registry.load("ch", folder)["rqi"].amended
    with pytest.raises(RegistryError, match="changes the criterion"):  # the rule must give the number back
        book.check("rqi", 1 / 29, reference=1 / 29)
    monkeypatch.setenv("REPRO_SCALE", "paper")  # at another scale the rule gives another number, as it should
    assert not book.check("rqi", 1 / 97, reference=1 / 97).set_after
    for bad in (dict(field="tolerance", original=0.1), dict(field="reference", original="unrecorded")):
        write(tmp_path, [entry(reference="computed: chance", amendments=[
            dict(bad, date="2026-11-26", why="x", restates=True)])])
        with pytest.raises(RegistryError, match="restates=true"):
            Registry.load("ch", folder)


def test_a_kind_relabelled_to_its_sealed_outcome_is_not_set_after(tmp_path):
    """A reproduction registered before its run, which the run contradicts under the unchanged criterion, becomes a
    deviation (outcome = true): the run's seal still covers it, so the claim is not set after its result."""
    from repro.core.registry import seal_for

    folder = write(tmp_path, [entry(runs=["sweep"])])
    manifest = {"label": "sweep", "key": "k", "created": "now", "sealed": seal_for("sweep", folder)}
    flipped = dict(kind="deviation", amendments=[dict(field="kind", original="reproduction", date="2026-11-26",
                                                     why="the run missed the registered band", outcome=True)])
    write(tmp_path, [entry(runs=["sweep"], **flipped)])
    reg = Registry.load("ch", folder)
    assert not reg["rqi"].amended and manifest["sealed"]["claims"]["ch/rqi"] == reg["rqi"].seal()
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    claim = book.check("rqi", 0.8, run=manifest, live=False, evidence="missed")
    assert claim.kind == "deviation" and not claim.set_after
    assert json.loads((tmp_path / "_claims" / "ch.json").read_text())["claims"][0]["amendments"][0]["outcome"] is True
    with pytest.raises(ClaimFailed, match="disappeared"):  # it must come out as its new kind
        book.check("rqi", 1.0, run=manifest, live=False, evidence="x")
    # the criterion itself changed as well: set after
    write(tmp_path, [entry(runs=["sweep"], tolerance=0.5, **flipped)])
    assert ClaimBook("ch", tmp_path / "_claims", registry=folder).check("rqi", 0.4, run=manifest, live=False,
                                                                         evidence="x").set_after
    for bad in (dict(field="tolerance", original=0.1), dict(field="kind", original="check")):
        write(tmp_path, [entry(kind="deviation", amendments=[dict(bad, date="2026-11-26", why="x", outcome=True)])])
        with pytest.raises(RegistryError, match="outcome=true"):
            Registry.load("ch", folder)
    # a check against a bound of ours that the run contradicts becomes a deviation from that bound, not set after
    failed = dict(kind="deviation", against="book bound", amendments=[dict(
        field="kind", original="check", date="2026-11-26", why="the run resolved what we bounded", outcome=True)])
    write(tmp_path, [entry(runs=["sweep"], kind="check", against="book bound")])
    sealed = {"label": "sweep", "key": "k", "created": "now", "sealed": seal_for("sweep", folder)}
    write(tmp_path, [entry(runs=["sweep"], **failed)])
    claim = ClaimBook("ch", tmp_path / "_claims", registry=folder).check("rqi", 0.8, run=sealed, live=False,
                                                                          evidence="resolved")
    assert claim.kind == "deviation" and not claim.set_after
    write(tmp_path, [entry(kind="deviation", against="derivation", amendments=failed["amendments"])])
    with pytest.raises(RegistryError, match="outcome=true"):  # an identity that fails is a bug, not a finding
        Registry.load("ch", folder)


def test_a_registered_book_takes_no_criterion_in_the_call(tmp_path):
    folder = write(tmp_path, [
        entry(),
        entry(name="theory", kind="check", against="derivation", reference="computed: eq. 5 at the run's sizes"),
        entry(name="typo", comparison=">=", tolerance=None, form="shape",
              amendments=[{"field": "reference", "original": 2.0, "date": "2026-11-26", "why": "misread the axis"}]),
    ])
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    with pytest.raises(ValueError, match="live in the registry"):
        book.check("rqi", 1.0, 1.0, kind="reproduction")
    assert not book.check("rqi", 1.02).set_after
    with pytest.raises(RegistryError, match="the chapter computes"):
        book.check("rqi", 1.0, reference=0.9)
    with pytest.raises(ValueError, match="pass reference="):
        book.check("theory", 1.0)
    assert book.check("theory", 1.0, reference=1.01).paper == 1.01
    typo = book.check("typo", 1.5)
    assert typo.set_after and "reference amended 2026-11-26 (was 2.0): misread the axis" in typo.set_after_why
    data = json.loads((tmp_path / "_claims" / "ch.json").read_text())
    assert [c["form"] for c in data["claims"]] == ["value", "value", "shape"]
    with pytest.raises(RegistryError, match="no registry"):
        ClaimBook("missing", tmp_path / "_claims", registry=folder)


def test_a_claim_named_after_its_sizes_finds_its_entry_at_another_scale(tmp_path, monkeypatch):
    folder = write(tmp_path, [entry(name="gap at alpha = 0.1 (means of 5 seeds)"),
                              entry(name="rqi at 3 sizes"), entry(name="rqi at 4 sizes")])
    reg = Registry.load("ch", folder)
    assert reg.scaled("gap at alpha = 0.1 (means of 20 seeds)").name == "gap at alpha = 0.1 (means of 5 seeds)"
    assert reg.scaled("rqi at 9 sizes") is None  # two entries match: ambiguous
    book = ClaimBook("ch", tmp_path / "_claims", registry=folder)
    with pytest.raises(RegistryError, match="not registered"):
        book.check("gap at alpha = 0.1 (means of 20 seeds)", 1.0)
    monkeypatch.setenv("REPRO_SCALE", "paper")
    c = book.check("gap at alpha = 0.1 (means of 20 seeds)", 1.0)
    assert c.set_after and "registered for the book scale" in c.set_after_why

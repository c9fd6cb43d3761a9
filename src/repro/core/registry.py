"""The claims registry: what each chapter's claims compare with, fixed in a file before the runs they judge
(core layer: no repro imports).

A chapter's claims live in ``book/_registry/<chapter>.toml``, one ``[[claims]]`` table per claim:

* ``name`` — the claim as the ledger names it;
* ``kind`` — ``reproduction`` | ``deviation`` | ``check`` (see :mod:`repro.book.claims`);
* ``form`` — what the source states: ``value`` (a number: the comparison is two-sided), ``shape`` (a direction,
  an ordering or a shape: one-sided allowed), ``threshold`` (a definition, such as Table 1's 90 %), or
  ``selection`` (best-of runs, or a subset we chose);
* ``against`` — ``paper`` | ``official code`` | ``derivation`` | ``book bound``;
* ``reference`` — the number compared with, or the string ``"computed: <how>"`` when the chapter computes it
  (then it passes ``reference=`` and the registry seals the description, not the number);
* ``comparison`` (``abs`` | ``rel`` | ``>=`` | ``<=``) and ``tolerance`` (for ``abs``/``rel``);
* ``locator`` — where the reference is: a section, figure, caption, equation or official file;
* ``source`` — one line on what the reference says;
* ``resolution`` — the grid ours is shown at (optional); ``if_fragile`` — why a low margin is left (optional);
* ``runs`` — the results-store labels of the stored runs this claim judges (empty: a live run or a closed form);
* ``registered`` — the date the entry was written;
* ``[[claims.amendments]]`` — each later change of a criterion field: ``field``, ``original``, ``date``, ``why``;
  optionally ``restates = true`` for a registered number rewritten as the ``"computed: <how>"`` rule it came from
  (chance ``1/p`` written as the book scale's ``1/31``), so that another scale can be judged: that changes no
  criterion where the entry was registered, and :class:`repro.book.claims.ClaimBook` verifies it (the rule must
  give back the original number at the registered scale), so it does not mark the claim †; or ``outcome = true``
  on a ``kind`` amendment: a claim registered before its run as a reproduction that the run contradicts (or a
  deviation it confirms) is re-labelled with the kind its result has under the unchanged criterion; so is a check
  against a book bound (an expectation of ours on a run, not an identity) that its run contradicts: a deviation
  from our bound. The kind is
  what was expected, not the criterion, so this does not mark the claim † either: the seal keeps covering the
  kind registered before the run, and the claim must come out as its new kind.

**Seals.** A stored run's manifest records, when the run starts, the :meth:`Entry.seal` of every entry whose
``runs`` names the run's label (:func:`seal_for`). A claim on a stored run that the run did not seal (its entry
did not exist at launch, or changed since) is *set after the run* (†), and so is any claim whose entry carries
an amendment of its criterion. Nobody types †: it follows from the files.
"""
from __future__ import annotations

import difflib
import hashlib
import json
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("reproduction", "deviation", "check")
FORMS = ("value", "shape", "threshold", "selection")
AGAINST = ("paper", "official code", "derivation", "book bound")
COMPARISONS = ("abs", "rel", ">=", "<=")
CRITERION = ("kind", "form", "against", "reference", "comparison", "tolerance")  # what a seal covers
FIELDS = ("id", "name", *CRITERION, "locator", "source", "resolution", "if_fragile", "runs", "registered", "amendments")
AMENDMENT_FIELDS = ("field", "original", "date", "why")
AMENDMENT_OPTIONAL = ("restates", "outcome", "demotes")
DEMOTED_TO = ("derivation", "book bound")  # where a comparison re-filed as a check (``demotes``) points
TEST_ID = re.compile(r"T[0-9]{2,3}")  # a registered comparison's id: T01, T02, ... (stable; names are for display)
CLAIM_ID = re.compile(r"C[0-9]{1,2}")  # a paper claim's id: C1, C2, ...
# The papers the book reproduces, in book order: key -> how the ledger names it.
PAPERS = {
    "power2022": "Power et al. 2022 (grokking)",
    "liu2022": "Liu et al. 2022 (effective theory)",
    "liu2023": "Liu, Michaud & Tegmark 2023 (Omnigrok)",
    "rubin2024": "Rubin, Seroussi & Ringel 2024 (droplets)",
    "baek2024": "Baek, Liu & Tegmark 2024 (GenEFT)",
    "mohamadi2024": "Mohamadi et al. 2024 (Why do you grok?)",
}
PAPER_ARXIV = {  # each paper's arXiv identifier (the README's and the chapters' links)
    "power2022": "2201.02177", "liu2022": "2205.10343", "liu2023": "2210.01117", "rubin2024": "2310.03789",
    "baek2024": "2402.05916", "mohamadi2024": "2407.12332",
}
PAPER_CLAIM_FIELDS = ("id", "paper", "quote", "locator", "figures", "tests", "context", "scope", "note", "registered")
COMPUTED = "computed: "  # a reference the chapter computes (official data, a closed form) starts with this
UNRECORDED = "unrecorded"  # an amendment's original value that nobody wrote down (set after, before the registry)


class RegistryError(ValueError):
    """A registry file is malformed, or a chapter asks for a claim it does not register."""


@dataclass(frozen=True)
class Amendment:
    field: str
    original: object  # the value before the change (UNRECORDED if nobody wrote it down)
    date: str
    why: str
    restates: bool = False  # a registered number rewritten as its computed rule: the criterion is unchanged
    outcome: bool = False  # a kind re-labelled to what the run gave under the unchanged criterion
    demotes: bool = False  # a comparison re-filed as a check: its reference is the book's criterion, not the paper's


@dataclass(frozen=True)
class Entry:
    id: str
    name: str
    kind: str
    form: str
    against: str
    reference: float | str  # a number, or "computed: <how>"
    comparison: str
    tolerance: float | None
    locator: str
    source: str
    resolution: float | None = None
    if_fragile: str = ""
    runs: tuple[str, ...] = ()
    registered: str = ""
    amendments: tuple[Amendment, ...] = field(default=())

    @property
    def computed(self) -> bool:
        return isinstance(self.reference, str)

    @property
    def amended(self) -> bool:
        """Whether a criterion field was changed after registration (the claim is then set after its result)."""
        return any(a.field in CRITERION and not (a.restates or a.outcome or a.demotes) for a in self.amendments)

    def criterion(self) -> dict:
        """The name and criterion a seal covers, with the kind registered before any ``outcome`` re-labelling."""
        out = {"name": self.name, **{k: getattr(self, k) for k in CRITERION}}
        relabelled = [a for a in self.amendments if a.outcome]
        if relabelled:
            out["kind"] = relabelled[0].original
        for a in self.amendments:  # a re-filing as a check changes what the claim counts as, not what it compares
            if a.demotes:
                out[a.field] = a.original
        return out

    def seal(self) -> str:
        """A hash of the name and the criterion: what a run's manifest records when the run starts."""
        blob = json.dumps(self.criterion(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _number(value, where: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RegistryError(f"{where}: {what}={value!r} is not allowed: {what} must be a number.")
    return float(value)


def _entry(d: dict, where: str) -> Entry:
    unknown = sorted(set(d) - set(FIELDS))
    if unknown:
        raise RegistryError(f"{where}: unknown fields {unknown}; allowed: {', '.join(FIELDS)}.")
    for key in ("id", "name", "kind", "form", "against", "reference", "comparison", "locator", "source", "registered"):
        if key not in d or d[key] in ("", None):
            raise RegistryError(f"{where}: field {key!r} is missing; every claim registers {key}.")
    where = f"{where} ({d['name']!r})"
    if not isinstance(d["id"], str) or not TEST_ID.fullmatch(d["id"]):
        raise RegistryError(f"{where}: id={d['id']!r} is not allowed: a comparison's id is 'T' and two or three "
                            "digits (T01), stable once given.")
    for key, allowed in (("kind", KINDS), ("form", FORMS), ("against", AGAINST), ("comparison", COMPARISONS)):
        if d[key] not in allowed:
            raise RegistryError(f"{where}: {key}={d[key]!r} is not allowed: {key} must be one of {', '.join(allowed)}.")
    reference = d["reference"]
    if isinstance(reference, str):
        if not reference.startswith(COMPUTED) or len(reference) <= len(COMPUTED):
            raise RegistryError(f"{where}: reference={reference!r} is not allowed: a number, or "
                                f"'{COMPUTED}<how the chapter computes it>'.")
    else:
        reference = _number(reference, where, "reference")
    tolerance = d.get("tolerance")
    if d["comparison"] in ("abs", "rel"):
        if tolerance is None or _number(tolerance, where, "tolerance") < 0:
            raise RegistryError(f"{where}: comparison={d['comparison']!r} needs tolerance >= 0.")
        tolerance = float(tolerance)
    elif tolerance is not None:
        raise RegistryError(f"{where}: comparison={d['comparison']!r} is a bound: give no tolerance.")
    if d["kind"] == "reproduction" and d["against"] not in ("paper", "official code"):
        raise RegistryError(f"{where}: a reproduction compares with the paper or the official code, not "
                            f"against={d['against']!r}: register it as a check.")
    if d["form"] == "value" and d["comparison"] not in ("abs", "rel"):
        raise RegistryError(f"{where}: form 'value' (the source states a number) needs a two-sided comparison "
                            f"(abs or rel), not {d['comparison']!r}; a one-sided bound is form 'shape' or 'threshold'.")
    amendments = []
    for i, a in enumerate(d.get("amendments", [])):
        if not set(AMENDMENT_FIELDS) <= set(a) <= set(AMENDMENT_FIELDS + AMENDMENT_OPTIONAL):
            raise RegistryError(f"{where}: amendment {i} must have the fields {', '.join(AMENDMENT_FIELDS)} "
                                f"(and optionally {', '.join(AMENDMENT_OPTIONAL)}).")
        if a["field"] not in FIELDS:
            raise RegistryError(f"{where}: amendment {i} changes field {a['field']!r}, which claims do not have.")
        restates = a.get("restates", False)
        if not isinstance(restates, bool):
            raise RegistryError(f"{where}: amendment {i}: restates must be true or false.")
        if restates and not (a["field"] == "reference" and isinstance(reference, str)
                             and isinstance(a["original"], (int, float)) and not isinstance(a["original"], bool)):
            raise RegistryError(f"{where}: amendment {i}: restates=true is for a registered number (original) "
                                f"rewritten as the '{COMPUTED}<how>' rule it came from (field 'reference').")
        outcome = a.get("outcome", False)
        if not isinstance(outcome, bool):
            raise RegistryError(f"{where}: amendment {i}: outcome must be true or false.")
        # A check against a bound of ours on a run (not an identity) can be contradicted by the run: a finding,
        # re-labelled a deviation from that bound. Checks against a derivation stay checks: failing one is a bug.
        relabel = (a["field"] == "kind" and a["original"] in ("reproduction", "deviation")
                   and d["kind"] in ("reproduction", "deviation") and a["original"] != d["kind"])
        failed_bound = (a["field"] == "kind" and a["original"] == "check" and d["kind"] == "deviation"
                        and d.get("against") == "book bound")
        if outcome and not (relabel or failed_bound):
            raise RegistryError(f"{where}: amendment {i}: outcome=true is for a kind re-labelled between 'reproduction' "
                                f"and 'deviation' (field 'kind', original the other one of the two), or a check "
                                f"against a book bound that its run contradicts (kind 'deviation', original 'check').")
        demotes = a.get("demotes", False)
        if not isinstance(demotes, bool):
            raise RegistryError(f"{where}: amendment {i}: demotes must be true or false.")
        # A comparison whose reference turns out to be the book's own criterion is re-filed against that criterion:
        # field 'against' (a deviation stays a deviation, from our bound); a reproduction also becomes a check.
        if demotes and not (d["against"] in DEMOTED_TO and (
                (a["field"] == "against" and a["original"] in ("paper", "official code"))
                or (a["field"] == "kind" and a["original"] == "reproduction" and d["kind"] == "check"))):
            raise RegistryError(f"{where}: amendment {i}: demotes=true re-files a comparison with the paper or the "
                                f"official code against the book's own criterion (against one of "
                                f"{', '.join(DEMOTED_TO)}): field 'against' (original paper or official code), and for "
                                "a reproduction also field 'kind' (original reproduction, now check).")
        amendments.append(Amendment(a["field"], a["original"], str(a["date"]), a["why"], restates, outcome, demotes))
    runs = d.get("runs", [])
    if not isinstance(runs, list) or not all(isinstance(r, str) and r for r in runs):
        raise RegistryError(f"{where}: runs must be a list of results-store labels.")
    resolution = d.get("resolution")
    return Entry(d["id"], d["name"], d["kind"], d["form"], d["against"], reference, d["comparison"], tolerance, d["locator"],
                 d["source"], None if resolution is None else _number(resolution, where, "resolution"),
                 d.get("if_fragile", ""), tuple(runs), str(d["registered"]), tuple(amendments))


@dataclass(frozen=True)
class PaperClaim:
    """One claim of the paper, quoted: what the chapter's comparisons test (``tests``) or illuminate (``context``).
    Its verdict is computed from their results by :mod:`repro.book.verdicts`; nobody types it."""
    id: str
    paper: str  # a key of PAPERS
    quote: str  # the paper's words
    locator: str  # section, figure, equation, theorem
    figures: tuple[str, ...]
    tests: tuple[str, ...]  # comparison ids that test the claim at the paper's setting (or with measured differences)
    context: tuple[str, ...] = ()  # comparison ids at other settings, or checks: shown, never deciding
    scope: str = ""  # what the tests cover against the claim, or why it is not tested
    note: str = ""  # one line the ledger shows, e.g. why the answer moved from the old figure verdict
    registered: str = ""


def _ids(value, where: str, what: str, pattern) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) and pattern.fullmatch(x) for x in value):
        raise RegistryError(f"{where}: {what}={value!r} is not allowed: a list of ids like {pattern.pattern}.")
    if len(set(value)) != len(value):
        raise RegistryError(f"{where}: {what} lists an id twice: {value!r}.")
    return tuple(value)


def _paper_claim(d: dict, where: str, tests: set[str]) -> PaperClaim:
    unknown = sorted(set(d) - set(PAPER_CLAIM_FIELDS))
    if unknown:
        raise RegistryError(f"{where}: unknown fields {unknown}; allowed: {', '.join(PAPER_CLAIM_FIELDS)}.")
    for key in ("id", "paper", "quote", "locator", "registered"):
        if not isinstance(d.get(key), str) or not d[key].strip():
            raise RegistryError(f"{where}: field {key!r} is missing; every paper claim registers {key}.")
    if not CLAIM_ID.fullmatch(d["id"]):
        raise RegistryError(f"{where}: id={d['id']!r} is not allowed: a paper claim's id is 'C' and a number (C1).")
    where = f"{where} ({d['id']})"
    if d["paper"] not in PAPERS:
        close = difflib.get_close_matches(d["paper"], list(PAPERS), n=1)
        raise RegistryError(f"{where}: paper={d['paper']!r} is not allowed: one of {', '.join(PAPERS)}"
                            + (f" (did you mean {close[0]!r}?)" if close else "") + ".")
    figures = d.get("figures", [])
    if not isinstance(figures, list) or not all(isinstance(f, str) and f for f in figures):
        raise RegistryError(f"{where}: figures must be a list of the paper's figure, table or theorem labels.")
    listed = _ids(d.get("tests", []), where, "tests", TEST_ID)
    context = _ids(d.get("context", []), where, "context", TEST_ID)
    unknown_ids = sorted(set(listed + context) - tests)
    if unknown_ids:
        raise RegistryError(f"{where}: {unknown_ids} are not comparison ids of this registry.")
    both = sorted(set(listed) & set(context))
    if both:
        raise RegistryError(f"{where}: {both} are listed both as tests and as context: one or the other.")
    for key in ("scope", "note"):
        if not isinstance(d.get(key, ""), str):
            raise RegistryError(f"{where}: {key} must be a string.")
    return PaperClaim(d["id"], d["paper"], d["quote"].strip(), d["locator"], tuple(figures), listed, context,
                      d.get("scope", ""), d.get("note", ""), d["registered"])


class Registry:
    """One chapter's registered claims (``<directory>/<chapter>.toml``)."""

    def __init__(self, chapter: str, entries: list[Entry], path: Path | None = None,
                 paper_claims: list[PaperClaim] = ()):
        self.chapter = chapter
        self.path = path
        self.entries: dict[str, Entry] = {}
        self.by_id: dict[str, Entry] = {}
        for e in entries:
            if e.name in self.entries:
                raise RegistryError(f"{path or chapter}: claim {e.name!r} is registered twice.")
            if e.id in self.by_id:
                raise RegistryError(f"{path or chapter}: id {e.id!r} is given to {self.by_id[e.id].name!r} and "
                                    f"{e.name!r}: ids are unique.")
            self.entries[e.name] = e
            self.by_id[e.id] = e
        self.paper_claims: dict[str, PaperClaim] = {}
        for c in paper_claims:
            if c.id in self.paper_claims:
                raise RegistryError(f"{path or chapter}: paper claim {c.id} is registered twice.")
            self.paper_claims[c.id] = c

    @classmethod
    def load(cls, chapter: str, directory: str | os.PathLike = "_registry") -> "Registry":
        path = Path(directory) / f"{chapter}.toml"
        if not path.is_file():
            raise RegistryError(f"chapter {chapter!r} has no registry at {path}: register its claims there first "
                                "(see repro.core.registry).")
        with open(path, "rb") as f:
            data = tomllib.load(f)
        if data.get("chapter") != chapter:
            raise RegistryError(f"{path}: chapter = {data.get('chapter')!r}, expected {chapter!r}.")
        unknown = sorted(set(data) - {"chapter", "claims", "paper_claims"})
        if unknown:
            raise RegistryError(f"{path}: unknown top-level keys {unknown}; allowed: chapter, claims, paper_claims.")
        entries = [_entry(d, f"{path} claim {i}") for i, d in enumerate(data.get("claims", []))]
        ids = {e.id for e in entries}
        paper = [_paper_claim(d, f"{path} paper claim {i}", ids) for i, d in enumerate(data.get("paper_claims", []))]
        return cls(chapter, entries, path, paper)

    def __getitem__(self, name: str) -> Entry:
        if name not in self.entries:
            close = difflib.get_close_matches(name, list(self.entries), n=3, cutoff=0.6)
            hint = f"; close: {close}" if close else ""
            raise RegistryError(f"claim {name!r} is not registered in {self.path or self.chapter}{hint}. Register it "
                                "(with the date) before the run it judges.")
        return self.entries[name]

    def scaled(self, name: str) -> Entry | None:
        """The one entry whose name equals ``name`` up to its numbers (a claim named after its seed count or sizes,
        checked at another scale), or None if none or several do."""
        import re

        number = r"[0-9][0-9,.eE+−-]*"
        pattern = re.sub(r"[0-9][0-9,.eE+−-]*", lambda m: number, re.escape(name).replace(r"\-", "-"))
        hits = [e for n, e in self.entries.items() if re.fullmatch(pattern, n)]
        return hits[0] if len(hits) == 1 else None

    def __contains__(self, name: str) -> bool:
        return name in self.entries

    def seals(self, label: str) -> dict[str, str]:
        """``{"<chapter>/<name>": seal}`` for every entry that judges runs stored under ``label``."""
        return {f"{self.chapter}/{e.name}": e.seal() for e in self.entries.values() if label in e.runs}


def seal_for(label: str, directory: str | os.PathLike) -> dict:
    """What a stored run's manifest records when it starts: the seals of every registered claim, in every chapter's
    registry under ``directory``, that judges runs stored under ``label``. No registry folder gives an empty seal
    (a store outside the book); its claims, if any, will be set after the run."""
    directory = Path(directory)
    claims: dict[str, str] = {}
    if directory.is_dir():
        for path in sorted(directory.glob("*.toml")):
            claims.update(Registry.load(path.stem, directory).seals(label))
    return {"label": label, "registry": str(directory), "claims": claims}


def sealed_by(entry: Entry, chapter: str, manifest: dict) -> str | None:
    """Why a stored run (its ``manifest``) does not seal ``entry`` — None when it does."""
    seal = (manifest.get("sealed") or {}).get("claims", {})
    key = f"{chapter}/{entry.name}"
    if not manifest.get("sealed"):
        return f"the run (stored {manifest.get('created', '?')}) predates sealed registries"
    if key not in seal:
        return f"the claim was not registered when the run started ({manifest.get('created', '?')})"
    if seal[key] != entry.seal():
        return "the claim's criterion changed after the run started"
    return None


# -- writing (used to create a registry from a chapter's ledger; hand edits are the normal way after that) ----------


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return repr(float(v))
    if isinstance(v, float):
        return "inf" if v == math.inf else "-inf" if v == -math.inf else "nan" if math.isnan(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def to_toml(chapter: str, entries: list[dict], header: str = "") -> str:
    """A registry file for ``entries`` (dicts with :data:`FIELDS`), readable and diff-friendly."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [f"chapter = {_toml_value(chapter)}", ""]
    for d in entries:
        lines.append("[[claims]]")
        for key in FIELDS:
            if key == "amendments" or d.get(key) in (None, "", [], ()):
                continue
            lines.append(f"{key} = {_toml_value(d[key])}")
        for a in d.get("amendments", []):
            lines.append("  [[claims.amendments]]")
            lines += [f"  {k} = {_toml_value(a[k])}" for k in AMENDMENT_FIELDS + AMENDMENT_OPTIONAL if k in a]
        lines.append("")
    text = "\n".join(lines)
    tomllib.loads(text)  # what we write must read back
    return text

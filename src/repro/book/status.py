"""The reproduction ledger as a reader sees it: each chapter's "Paper versus ours" section and the
book's status page (``book/status.ipynb``), both rendered from the chapters' claims files by the
functions here.

* :class:`LedgerView` — one chapter's ledger: the paper's claims with their verdicts
  (:mod:`repro.book.verdicts`), the figure rows as evidence, every comparison (HTML; plain text for nbval);
* :func:`scorecard_html` — the status page: per paper in book order its claims' tally and table, linking to each
  chapter's section, then its figure rows and every chapter's comparisons, collapsed.
"""
from __future__ import annotations

import html
from collections import Counter
from pathlib import Path

from repro.book.ledger import FRAGILE_MARGIN, Claim, load_all_claims
from repro.book.manifest import synthesis_stems
from repro.core.registry import PAPER_ARXIV, PAPERS
from repro.book.verdicts import MARKS, RULES, Judgement, TestResult, chapter_judgements, tally, tally_line
from repro.core.portable import mark_trained, strip_trained

SECTION_ANCHOR = "paper-versus-ours"  # the id Jupyter Book gives the heading "Paper versus ours"

_TABLE = '<table style="width:100%;table-layout:auto;border-collapse:collapse">'
_CELL = 'style="white-space:normal;overflow-wrap:anywhere;vertical-align:top;text-align:left;padding:2px 6px"'
_KIND_NOTE = ("<p><small>Kinds: <b>reproduction</b> compares ours with the paper (or its official code) and "
              "must agree; <b>deviation</b> records a registered disagreement with the paper, and fails the chapter "
              "if it silently disappears; <b>check</b> is internal consistency and never counts as a reproduction. "
              "<b>Form</b> says what the source states: a <i>value</i> (compared two-sided), a <i>shape</i> (a "
              "direction or ordering), a <i>threshold</i> (a definition such as Table 1's) or a <i>selection</i> (a "
              "best-of or a chosen subset). Every criterion is registered (book/_registry) before the runs it judges; "
              "† marks a claim set after its result: its entry was amended since, or the stored run it judges did not "
              "seal it when it started. A figure is <i>reproduced</i> only on a value or shape reproduction against "
              "the paper or its official code, not †, with no deviation. <b>Margin</b>: the distance from ours to the nearest "
              "threshold of its comparison, in seed-to-seed standard errors; below "
              f"{FRAGILE_MARGIN:g} the claim is <i>fragile</i> (another CPU or seed draw can flip it). Numbers from "
              "live training runs differ in their last digits from machine to machine; their claims, not their "
              "digits, are what the book's tests check.</small></p>")


def _row(cells, tag="td") -> str:
    return "<tr>" + "".join(f"<{tag} {_CELL}>{c}</{tag}>" for c in cells) + "</tr>"


def _claim_cells(c: Claim) -> list[str]:
    ref = html.escape(c.describe()) + ("&nbsp;†" if c.set_after else "")
    if c.form:
        ref += f"<br><small>{html.escape(c.form)}</small>"
    where = f" ({c.locator})" if c.locator and c.locator != c.source else ""
    source = html.escape(f"{c.against}{where}: {c.source}")
    if c.set_after_why:
        source += f"<br><i>† set after:</i> {html.escape(c.set_after_why)}"
    if (c.kind == "deviation" or not c.reached) and c.evidence:
        source += f"<br><i>evidence:</i> {html.escape(c.evidence)}"
    mark = {"agrees": "✅", "holds": "✔️", "deviates": "❌", "never reached": "⏳"}.get(c.outcome(), "‼️")
    return [html.escape(c.name), c.kind, html.escape(c.ours_text()), ref, source, html.escape(c.margin_text()),
            f"{mark} {c.outcome()}"]


def claims_table(claims: list[Claim]) -> str:
    head = _row(["claim", "kind", "ours", "reference", "reference is", "margin", "outcome"], "th")
    return _TABLE + f"<thead>{head}</thead><tbody>{''.join(_row(_claim_cells(c)) for c in claims)}</tbody></table>"


def claim_summary(figure: dict, judgements: list[Judgement], ids: dict[str, str]) -> str:
    """The verdicts of the paper claims a figure row's comparisons test or illuminate, e.g. 'C1 ✅ C3 ❔' ('—': none);
    ``ids``: comparison name -> id."""
    mine = {ids.get(n) for n in figure["claims"]} - {None}
    hits = [j for j in judgements if mine & set(j.claim.tests + j.claim.context)]
    return " ".join(f"{j.claim.id} {MARKS[j.verdict]}" for j in hits) or "—"


def figure_table(figures: list[dict], link: dict[str, str] | None = None) -> str:
    """The figure rows as evidence: each with the verdicts of the paper claims its comparisons bear on
    (``paper claims``, filled by the caller), never a verdict of its own; ``link`` maps a figure's chapter to the URL
    of its section (status page)."""
    cols = ["paper figure", "paper claims", "scale", "why", "comparisons"] + (["chapter"] if link else [])
    rows = []
    for f in figures:
        cells = [html.escape(f["figure"]), html.escape(f.get("paper claims", "—")), html.escape(f["scale"]),
                 html.escape(f["why"]), html.escape("; ".join(f["claims"])) or "—"]
        if "fragile" in f:  # always shown, so the cell keeps its shape whichever claims are fragile on this machine
            cells[-1] += f"<br><i>fragile:</i> {html.escape(f['fragile'])}"
        if link:
            cells.append(f'<a href="{link[f["chapter"]]}">{html.escape(f["chapter"])}</a>')
        rows.append(_row(cells))
    return _TABLE + f"<thead>{_row(cols, 'th')}</thead><tbody>{''.join(rows)}</tbody></table>"


def _test_text(t: TestResult) -> str:
    """'T03 agrees' — an exploratory or check outcome is marked: it comes from this machine's live run."""
    text = f"{t.id} {t.outcome}"
    return mark_trained(text) if t.cls != "confirmatory" else text


def paper_claims_table(judgements: list[Judgement], link: str | None = None) -> str:
    """The paper's claims: id, quote and locator, verdict and what it judged, why, and the comparisons behind it."""
    head = _row(["claim", "the paper says", "verdict", "why", "tests · context"] + (["chapter"] if link else []), "th")
    rows = []
    for j in judgements:
        c = j.claim
        said = (f"<i>“{html.escape(c.quote)}”</i><br><small>{html.escape(c.locator)}"
                + (f"; {html.escape(', '.join(c.figures))}" if c.figures else "") + "</small>")
        verdict = f"{MARKS[j.verdict]} {j.verdict}" + (
            f"<br><small>judged against: {html.escape(', '.join(j.judged))}</small>" if j.judged else "")
        why = html.escape(j.why) + "".join(f"<br><small>{html.escape(x)}</small>" for x in (c.scope, c.note) if x)
        evidence = html.escape("; ".join(map(_test_text, j.tests)) or "—")
        if j.context:
            evidence += "<br><small>context: " + html.escape("; ".join(map(_test_text, j.context))) + "</small>"
        cells = [f"<b>{c.id}</b>", said, verdict, why, evidence]
        if link:
            cells.append(f'<a href="{link}">{html.escape(link.split(".html")[0])}</a>')
        rows.append(_row(cells))
    return _TABLE + f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


_RULES_NOTE = ("<p><small><b>How a verdict is decided</b> (rules registered once, {date}): a paper claim is "
               "<i>reproduced</i> when at least one of its tests is decided and agrees, and none disagrees or is "
               "undecided; <i>not reproduced</i> when a decided test has ours outside the paper's band; "
               "<i>inconclusive</i> otherwise; <i>not tested</i> without a result. A test is decided only on "
               "confirmatory evidence — a stored run that sealed its criterion before it started, with ours at least "
               "{margin:g} seed standard errors from the band's edge, or a deterministic result — never on a check "
               "of ours, a best-of selection, or an exploratory result (trained live in the chapter, or set after "
               "its result †). Context comparisons (another scale or setting) are shown, never decide.</small></p>")


def rules_note() -> str:
    return _RULES_NOTE.format(date=RULES.registered, margin=RULES.min_margin)


def _with_summaries(figures: list[dict], judgements: list[Judgement], claims: list[Claim]) -> list[dict]:
    ids = {c.name: c.id for c in claims if c.id}
    return [dict(f, **{"paper claims": claim_summary(f, judgements, ids)}) for f in figures]


class LedgerView:
    """One chapter's ledger, displayed as HTML: the paper's claims with their verdicts, then the figure rows as
    evidence, then every comparison; its plain-text form lists the same. ``registry``: the chapter's registry folder
    (its paper claims are judged on ``data``)."""

    def __init__(self, data: dict, registry: str | Path | None = None):
        self.data = data
        self.claims = [Claim.from_dict(c) for c in data["claims"]]
        self.judgements = (chapter_judgements(data["chapter"], registry_dir=registry, ledger=data)
                           if registry is not None else [])
        self.figures = _with_summaries(with_fragile(data.get("figures", []), self.claims), self.judgements,
                                       self.claims)

    def _repr_html_(self) -> str:
        parts = []
        for key in PAPERS:
            mine = [j for j in self.judgements if j.claim.paper == key]
            if mine:
                parts.append(f"<p><b>{html.escape(PAPERS[key])}</b>: {tally_line(mine)}.</p>"
                             + paper_claims_table(mine))
        if self.figures:
            parts.append("<p><b>Figures</b>: which paper claims each figure's comparisons bear on.</p>"
                         + figure_table(self.figures))
        parts.append(f"<details><summary><b>Every comparison</b> ({len(self.claims)})</summary>"
                     + claims_table(self.claims) + "</details>")
        parts.append(f"<p>{fragility_html(self.claims)}</p>" + rules_note() + _KIND_NOTE)
        return "".join(parts)

    def __repr__(self) -> str:
        lines = [f"{j.claim.id} [{j.verdict}] {j.claim.locator}" for j in self.judgements]
        lines += [f"{PAPERS[f['paper']]} {f['figure']}: {f['paper claims']} ({f['scale']})" for f in self.figures]
        lines += [f"[{c.kind}] {c.name}: ours {c.ours_text()}, {c.against} {c.describe()} -> {c.outcome()}"
                  for c in self.claims]
        lines.append(fragility_text(self.claims))
        return "\n".join(lines)


def _fragility(claims: list[Claim]) -> tuple[list[Claim], list[Claim]]:
    """(fragile claims, live claims whose margin was not measured), among those that came out as registered."""
    fragile = [c for c in claims if c.fragile()]
    unmeasured = [c for c in claims if c.live and c.margin is None]
    return fragile, unmeasured


def _fragile_entry(c: Claim) -> str:
    """'name (margin; left so: why)': a fragile claim as the lists show it, unmarked (the list is one marked span)."""
    why = f"left so: {c.if_fragile}" if c.if_fragile else "no reason given"
    return f"{c.name} ({strip_trained(c.margin_text())}; {why})"


def fragility_text(claims: list[Claim]) -> str:
    """One line: which claims are fragile (margin below FRAGILE_MARGIN standard errors) and how many live claims
    have no measured margin. Which live claims are fragile depends on this machine's trajectories, so the
    list is marked as a trained result (:func:`repro.core.portable.mark_trained`); the count of live claims
    without a margin is the same everywhere."""
    fragile, unmeasured = _fragility(claims)
    names = "; ".join(_fragile_entry(c) for c in fragile) if fragile else "none"
    return (f"fragile claims (margin < {FRAGILE_MARGIN:g} standard errors): {mark_trained(names)}. "
            f"Live claims without a measured margin: {len(unmeasured)} of {sum(c.live for c in claims)}.")


def fragility_html(claims: list[Claim]) -> str:
    fragile, unmeasured = _fragility(claims)
    # One marked span for the whole list (which claims are fragile depends on this machine's trajectories), so
    # each claim's own margin goes in unmarked (marked spans do not nest).
    names = "; ".join(_fragile_entry(c) for c in fragile) if fragile else "none"
    return (f"<b>Fragile claims</b> (margin below {FRAGILE_MARGIN:g} seed standard errors): "
            f"{html.escape(mark_trained(names))}. <b>Live claims without a measured margin</b>: "
            f"{len(unmeasured)} of {sum(c.live for c in claims)}"
            + (f" ({html.escape('; '.join(c.name for c in unmeasured))})" if unmeasured else "") + ".")


def with_fragile(figures: list[dict], claims: list[Claim]) -> list[dict]:
    """The figures, each with ``fragile``: its fragile claims' names, one marked span ('none' if none), since which
    claims are fragile depends on this machine's trajectories."""
    fragile = {c.name for c in claims if c.fragile()}
    return [dict(f, fragile=mark_trained("; ".join(n for n in f["claims"] if n in fragile) or "none"))
            for f in figures]


def book_order(toc: str | Path) -> list[str]:
    """Chapter stems in the order of ``_toc.yml`` (``file:`` entries)."""
    stems = []
    for line in Path(toc).read_text().splitlines():
        line = line.strip()
        if line.startswith("- file:") or line.startswith("file:"):
            stems.append(line.split(":", 1)[1].strip())
    return stems


def overview_table(judged: dict[str, list[Judgement]], link: dict[str, str], synthesis: tuple[str, ...] = ()) -> str:
    """The page's opening: one row per paper (its arXiv link, the chapters that test it in its own setting, its claims
    and verdict counts), one row per synthesis chapter (every theory's predictions on one set of runs), and a row for
    the whole book."""
    head = _row(["paper", "chapters", "claims"] + [f"{MARKS[v]} {v}" for v in MARKS], "th")
    rows = []
    for key, name in PAPERS.items():
        mine = [(stem, j) for stem, js in judged.items() if stem not in synthesis for j in js if j.claim.paper == key]
        if not mine:
            continue
        paper = f'<a href="https://arxiv.org/abs/{PAPER_ARXIV[key]}">{html.escape(name)}</a>'
        chapters = ", ".join(f'<a href="{link[s].split("#")[0]}">{html.escape(s)}</a>'
                             for s in dict.fromkeys(s for s, _ in mine))
        counts = tally([j for _, j in mine])
        rows.append(_row([paper, chapters, str(counts["claims"])] + [str(counts[v]) for v in MARKS]))
    for stem in synthesis:
        if judged.get(stem):
            counts = tally(judged[stem])
            cell = f'<a href="{link[stem].split("#")[0]}">{html.escape(stem)}</a>'
            rows.append(_row(["<i>every theory on one task (synthesis)</i>", cell, str(counts["claims"])]
                             + [str(counts[v]) for v in MARKS]))
    book = tally([j for js in judged.values() for j in js])
    rows.append(_row(["<b>the book</b>", "", f"<b>{book['claims']}</b>"] + [f"<b>{book[v]}</b>" for v in MARKS]))
    return _TABLE + f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def scorecard_html(directory: str | Path = "_claims", toc: str | Path = "_toc.yml",
                   registry: str | Path = "_registry") -> str:
    """The status page: per paper (book order) its claims with their verdicts, then its figure rows as evidence,
    then every chapter's comparisons."""
    chapters = load_all_claims(directory)
    order = book_order(toc)
    rank = {stem: i for i, stem in enumerate(order)}
    chapters.sort(key=lambda ch: rank.get(ch["chapter"], len(order)))
    link = {ch["chapter"]: f"{ch['chapter']}.html#{SECTION_ANCHOR}" for ch in chapters}
    by_chapter = {ch["chapter"]: [Claim.from_dict(c) for c in ch["claims"]] for ch in chapters}
    judged = {ch["chapter"]: chapter_judgements(ch["chapter"], registry_dir=registry, ledger=ch)
              if (Path(registry) / f"{ch['chapter']}.toml").is_file() else [] for ch in chapters}
    figures = [dict(f, chapter=ch["chapter"]) for ch in chapters
               for f in _with_summaries(with_fragile(ch["figures"], by_chapter[ch["chapter"]]), judged[ch["chapter"]],
                                        by_chapter[ch["chapter"]])]
    everything = [j for js in judged.values() for j in js]
    synthesis = tuple(synthesis_stems())
    out = [overview_table(judged, link, synthesis), f"<p><b>The whole book</b>: {tally_line(everything)}.</p>"]
    for key, name in PAPERS.items():
        mine = [(stem, j) for stem, js in judged.items() if stem not in synthesis for j in js if j.claim.paper == key]
        figs = [f for f in figures if f["paper"] == key]
        if not (mine or figs):
            continue
        out.append(f"<h3>{html.escape(name)}</h3><p><b>{tally_line([j for _, j in mine])}</b>.</p>")
        for stem in dict.fromkeys(stem for stem, _ in mine):
            out.append(paper_claims_table([j for s, j in mine if s == stem], link[stem]))
        if figs:
            out.append("<details><summary>Figures as evidence</summary>" + figure_table(figs, link) + "</details>")
    for stem in synthesis:
        if judged.get(stem):
            out.append(f"<h3>Every theory on one task ({html.escape(stem)})</h3>"
                       f"<p><b>{tally_line(judged[stem])}</b>: predictions carried to one modular-addition sweep, "
                       "judged there; the papers' own settings are judged in their chapters above.</p>")
            out.append(paper_claims_table(judged[stem], link[stem]))
    claims = [(stem, c) for stem, cl in by_chapter.items() for c in cl]
    kinds = Counter(c.kind for _, c in claims)
    off = [(ch, c) for ch, c in claims if not c.passed]
    summary = (f"{len(claims)} claims: {kinds['reproduction']} reproductions, {kinds['deviation']} registered "
               f"deviations, {kinds['check']} consistency checks; "
               + ("all came out as registered." if not off else f"{len(off)} did NOT come out as registered: "
                  + ", ".join(html.escape(f"{ch}: {c.name}") for ch, c in off) + "."))
    out.append(f"<h3>Every claim</h3><p>{summary}</p>")
    for stem, cl in by_chapter.items():
        out.append(f"<details><summary>{html.escape(stem)} ({len(cl)} claims)</summary>"
                   + claims_table(cl) + "</details>")
    fragile = sum(c.fragile() for _, c in claims)
    unmeasured = sum(c.live and c.margin is None for _, c in claims)
    out.append(f"<h3>Fragile claims</h3><p>{mark_trained(str(fragile))} fragile claims; {unmeasured} of "
               f"{sum(c.live for _, c in claims)} claims on live runs without a measured margin.</p>")
    for stem, cl in by_chapter.items():
        out.append(f"<p>{html.escape(stem)}: {fragility_html(cl)}</p>")
    out.append(rules_note() + _KIND_NOTE)
    return "".join(out)

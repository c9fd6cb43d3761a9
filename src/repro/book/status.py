"""The reproduction ledger as a reader sees it: each chapter's "Paper versus ours" section and the
book's status page (``book/status.ipynb``), both rendered from the chapters' claims files by the
functions here.

* :func:`tally_text` — "4 figures reproduced, 5 partial, 2 not reproduced, 1 not run at this scale";
* :class:`LedgerView` — one chapter's figure ledger and claims, as HTML tables (plain text for nbval);
* :func:`scorecard_html` — the status page: per paper in book order a tally line, then its figure table
  linking to each chapter's section, then every chapter's claims, collapsed.
"""
from __future__ import annotations

import html
from collections import Counter
from pathlib import Path

from repro.book.claims import FRAGILE_MARGIN, PAPERS, VERDICT_MARKS, VERDICTS, Claim, load_all_claims
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


def tally_text(figures: list[dict]) -> str:
    """'2 figures reproduced, 1 partial, 1 not reproduced, 1 not run at this scale' (verdicts in fixed order)."""
    counts = Counter(f["verdict"] for f in figures)
    present = [v for v in VERDICTS if counts[v]]
    if not present:
        return "no figure judged"
    first = present[0]
    parts = [f"{counts[first]} figure{'s' if counts[first] != 1 else ''} {first}"]
    parts += [f"{counts[v]} {v}" for v in present[1:]]
    return ", ".join(parts)


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
    if c.kind == "deviation" and c.evidence:
        source += f"<br><i>evidence:</i> {html.escape(c.evidence)}"
    mark = {"agrees": "✅", "holds": "✔️", "deviates": "❌"}.get(c.outcome(), "‼️")
    return [html.escape(c.name), c.kind, html.escape(c.ours_text()), ref, source, html.escape(c.margin_text()),
            f"{mark} {c.outcome()}"]


def claims_table(claims: list[Claim]) -> str:
    head = _row(["claim", "kind", "ours", "reference", "reference is", "margin", "outcome"], "th")
    return _TABLE + f"<thead>{head}</thead><tbody>{''.join(_row(_claim_cells(c)) for c in claims)}</tbody></table>"


def figure_table(figures: list[dict], link: dict[str, str] | None = None) -> str:
    """Figures as a table; ``link`` maps a figure's chapter to the URL of its section (status page)."""
    cols = ["paper figure", "verdict", "scale", "strongest evidence", "why", "claims"] + (["chapter"] if link else [])
    rows = []
    for f in figures:
        cells = [html.escape(f["figure"]), f"{VERDICT_MARKS[f['verdict']]} {f['verdict']}", html.escape(f["scale"]),
                 html.escape(f.get("evidence") or "—"), html.escape(f["why"]),
                 html.escape("; ".join(f["claims"])) or "—"]
        if "fragile" in f:  # always shown, so the cell keeps its shape whichever claims are fragile on this machine
            cells[-1] += f"<br><i>fragile:</i> {html.escape(f['fragile'])}"
        if link:
            cells.append(f'<a href="{link[f["chapter"]]}">{html.escape(f["chapter"])}</a>')
        rows.append(_row(cells))
    return _TABLE + f"<thead>{_row(cols, 'th')}</thead><tbody>{''.join(rows)}</tbody></table>"


class LedgerView:
    """One chapter's ledger, displayed as HTML (figures, then claims); its plain-text form lists the same."""

    def __init__(self, data: dict):
        self.data = data
        self.claims = [Claim.from_dict(c) for c in data["claims"]]
        self.figures = with_fragile(data.get("figures", []), self.claims)

    def _repr_html_(self) -> str:
        by_paper = {}
        for f in self.figures:
            by_paper.setdefault(f["paper"], []).append(f)
        parts = []
        for key, figs in sorted(by_paper.items(), key=lambda kv: list(PAPERS).index(kv[0])):
            parts.append(f"<p><b>{html.escape(PAPERS[key])}</b>: {tally_text(figs)}.</p>" + figure_table(figs))
        parts.append(f"<p><b>Claims</b> ({len(self.claims)})</p>" + claims_table(self.claims))
        parts.append(f"<p>{fragility_html(self.claims)}</p>" + _KIND_NOTE)
        return "".join(parts)

    def __repr__(self) -> str:
        lines = [f"{PAPERS[f['paper']]} {f['figure']}: {f['verdict']} ({f['scale']})" for f in self.figures]
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


def scorecard_html(directory: str | Path = "_claims", toc: str | Path = "_toc.yml") -> str:
    """The status page: per paper (book order) a tally and its figure table, then every chapter's claims."""
    chapters = load_all_claims(directory)
    order = book_order(toc)
    rank = {stem: i for i, stem in enumerate(order)}
    chapters.sort(key=lambda ch: rank.get(ch["chapter"], len(order)))
    link = {ch["chapter"]: f"{ch['chapter']}.html#{SECTION_ANCHOR}" for ch in chapters}
    by_chapter = {ch["chapter"]: [Claim.from_dict(c) for c in ch["claims"]] for ch in chapters}
    figures = [dict(f, chapter=ch["chapter"]) for ch in chapters
               for f in with_fragile(ch["figures"], by_chapter[ch["chapter"]])]
    out = []
    out.append("<p><b>The whole book</b>: " + tally_text(figures) + f" ({len(figures)} paper figures judged).</p>")
    for key, name in PAPERS.items():
        figs = [f for f in figures if f["paper"] == key]
        if not figs:
            continue
        out.append(f"<h3>{html.escape(name)}</h3><p><b>{tally_text(figs)}</b>.</p>" + figure_table(figs, link))
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
    out.append(_KIND_NOTE)
    return "".join(out)

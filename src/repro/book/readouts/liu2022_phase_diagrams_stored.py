"""What ``book/liu2022_phase_diagrams`` reads off its stored maps of Fig. 6 at the paper's settings: the 36-cell
uncompressed maps and the whole official grids, their claims (layout, cell by cell, phase shares, Cohen's kappa and
§4.1's four statements), and their "Paper versus ours" figure rows. The whole-map checks here are also applied to
the (d) grid from the official start, in :mod:`repro.book.readouts.liu2022_phase_diagrams_s3`.
"""
from __future__ import annotations

import math

from IPython.display import display

from repro.book.claims import fraction_standard_error
from repro.book.readouts.liu2022_phase_diagrams import official_fast_decoder_generalization
from repro.core.prose import glue
from repro.experiments.liu2022_phase_diagrams import (PANELS, corner_fraction, generalizing_fraction_fast_decoder,
                                                      layout_counts, official_map, phase_letters, sandwich_columns,
                                                      shifted_kappa, shuffled_kappas, stored_full_grid,
                                                      stored_uncompressed)
from repro.experiments.liu2022_phase_diagrams_setup import phase_setup_table
from repro.metrics.phases import PHASES
from repro.training.store import provenance_line, require_stored

PAPER = "uncompressed, 1e5 steps: "
STORED_WHY = {
    "a": "uncompressed, every unambiguous cell of our 36 has the official phase, with no confusion: the book map's "
         "confused column was the time compression",
    "b": "all four phases, memorization top right and confusion bottom right reproduce; at 1e5 steps the strongly "
         "decayed slow-decoder cells grok where the official map memorizes, so no column ends in memorization",
    "c": "all four phases, both corners and the sandwich reproduce; cell by cell the strongly decayed rows differ",
    "d": "memorization top right and confusion bottom right reproduce; from our trainer's seed-0 start no cell comprehends (official: 14 of our 36), so neither all four phases nor the sandwich appear",
}
STORED_CELLS_WHY = {
    "b": "at the strongest weight decay (10) the slow-decoder cells grok late where the official map memorizes, "
         "and the fastest decoder at weight decay 6 groks where it is confused",
    "c": "they lie at strong weight decay (>= 8), where single cells comprehend or fail to fit where the official "
         "runs grok; the official sweep also divided the cross-entropy by its 19 classes "
         "(phase_diagram-classification.ipynb), ours is the standard cross-entropy",
    "d": "our seed-0 start memorizes or groks where the official map comprehends; the next section runs the notebook's own start",
}
NO_COMPREHENSION = ("from our trainer's seed-0 start (the notebook's split and templates, our draws for the matrices "
                    "and decoder) no S3 cell comprehends; the next section runs the notebook's own start")
LATE_GROKKING = ("at 1e5 steps the cells with the strongest weight decay and a slow decoder grok late (validation "
                 "90 % at steps {}) where the official map memorizes")
SETUP = ("; 36 of the official cells, seed 58/6/0 but our draws of split, targets and start (a-c) or start (d), see "
         "the setup table")

FULL = "full grid, 1e5 steps: "
FULL_WHY = {
    "b": "at the strongest weight decays (8-10) the slow-decoder cells grok late where the official map memorizes",
    "c": "where the official map groks (decoder weight decay 6-16), scattered cells of ours comprehend (generalize "
         "within 1e3 steps of fitting) or memorize instead, most of them at weight decay 10-14",
    "d": "where the official map comprehends (the slow decoders at weight decay 0-50) ours memorizes, or groks at the "
         "slowest decoder; its few comprehension cells sit at the fastest decoders, where the official map memorizes",
}
FULL_SETUP = "; the official 11 x 16 or 13 x 13 grid, seed 58/6/0 but our draws of split, targets and start"
FULL_FIGURE_WHY = {
    "a": "every phase sits where the official map has it (grokking at the slow decoders, comprehension beside it at "
         "the fast representation rates, memorization elsewhere, no confusion) and takes its official share within "
         "the band; cell by cell, most rows' boundaries sit one grid step toward the slower decoders (fewer grokking "
         "cells), and at representation lr 10^-4 to 10^-4.25 ours memorizes where the official map groks or "
         "comprehends; kappa is within the band",
    "b": "every phase sits where the official map has it and takes its official share of the map within the band; "
         "cell by cell the strongest weight decays differ (slow decoders grok where the official map memorizes), so "
         "kappa falls short of the band and no column reads comprehension -> grokking -> memorization",
    "c": "memorization at fast decoders and confusion at the strongest weight decays sit where the official map has "
         "them, and three of the four phase shares are within the band; the grokking region is thinned by scattered "
         "cells that comprehend or memorize, so its share misses and kappa falls short of the band; the four "
         "statements of §4.1 hold",
    "d": "memorization at the fast decoders and confusion at the strongest weight decay sit where the official map has "
         "them, and the grokking and confusion shares are within the band; the official map's comprehension region "
         "(the slow decoders at weight decay 0-50) is missing: ours memorizes there, and its grokking cells sit at "
         "the slowest and the fastest decoder and scattered at weight decay 10-100 rather than on the official "
         "boundary: kappa is at chance, and there is no sandwich",
}
KAPPA = "Cohen's kappa against the official map over all cells"
LAYOUT = {"(i)": "share of cells in the rarest phase (all four phases present: at least one cell)",
          "(ii)": "memorization share of the top-right block (at least half)",
          "(iii)": "confusion share of the bottom-right block minus the top-right block (at least 1/6)",
          "(iv)": "share of decoder-lr columns reading comprehension -> grokking -> memorization with increasing "
                  "weight decay (at least one)"}
LAYOUT_WHY = {  # what a whole map shows where a statement misses (written from the maps)
    "b": {"(iv)": "columns read comprehension -> grokking -> memorization: where the official map's columns end "
                  "in memorization at the strongest weight decays (8-10), ours keep grokking (official: 4 of 16)"},
    "d": {"(iv)": "columns read comprehension -> grokking -> memorization: ours comprehends at 3 cells only, at "
                  "the fastest decoders, none followed by grokking and then memorization at stronger decay "
                  "(official: 8 of 16)"}}


def load_stored_maps():
    """Loads the four stored uncompressed maps, prints where and how long each ran, glues their minutes and shows
    their setup tables; returns ``(maps, manifests)`` by panel."""
    stored_maps, stored_manifests, stored_minutes = {}, {}, 0.0
    for panel in PANELS:
        stored_maps[panel], stored_manifests[panel] = require_stored(
            stored_uncompressed(panel, "_results"), f"uncompressed Fig. 6({panel}) map",
            "python -m repro.experiments.liu2022_phase_diagrams --store book/_results", "about an hour on two cores")
        print(f"({panel}) {provenance_line(stored_manifests[panel])}, {stored_manifests[panel]['wall_time_s'] / 60:.0f} min")
        stored_minutes += stored_manifests[panel]["wall_time_s"] / 60
    glue("fig6_stored_minutes", f"{stored_minutes:.0f}", display=False)
    for panel, sm in stored_maps.items():
        display(phase_setup_table(f"Fig. 6({panel}), stored uncompressed map", panel, sm.config))
    return stored_maps, stored_manifests


def print_stored_maps(stored_maps) -> None:
    """Prints each stored map's letters beside the official map's, row by row, and how far they agree."""
    # Stored maps are loaded, not recomputed: their letters are the same on every machine.
    for panel, sm in stored_maps.items():
        print(f"\n({panel}) {sm.config.y_label} (rows) x decoder lr {', '.join(f'{v:.1e}' for v in sm.config.lr_dec_values)}; "
              f"ours | official")
        for y, ours_row, off_row in zip(sm.config.y_values, phase_letters(sm.phases), phase_letters(sm.official_phases())):
            print(f"  {y:8.2g}  {ours_row}  |  {off_row}")
        print(f"  cells with the official phase: {sm.agreement():.2f} of all, {sm.interior_agreement():.2f} of the "
              f"{int((~sm.official_boundary()).sum())} away from official boundaries")


def stored_claim(claims, manifests, name: str, ours: float, *, reference: float | None = None, evidence: str = ""):
    """A claim on panel ``name[1]``'s stored map: what it compares with is the registry's entry ``PAPER + name``;
    ``evidence`` is kept for a deviation only."""
    full = PAPER + name
    deviation = claims.registry[full].kind == "deviation"
    return claims.check(full, ours, reference=reference, live=False, run=manifests[name[1]],
                        evidence=evidence + SETUP if deviation else "")


def record_stored_maps(claims, stored_maps, stored_manifests) -> None:
    """Registers the claims on the stored uncompressed maps: (a)'s layout, (b)-(d)'s §4.1 statements and corner
    numbers, each panel's cells away from official boundaries, and (d)'s comprehension share."""
    sa, off_a = stored_maps["a"], official_map("a")
    m = stored_manifests
    stored_claim(claims, m, "(a) fraction of cells with decoder lr >= representation lr that generalize",
                 generalizing_fraction_fast_decoder(sa.phases, sa.config.lr_dec_values, sa.config.y_values),
                 reference=official_fast_decoder_generalization())
    stored_claim(claims, m, "(a) slowest decoder, fastest representation groks",
                 float(sa.phases[list(sa.config.y_values).index(max(sa.config.y_values)), 0] == "grokking"))
    stored_claim(claims, m, "(a) fraction of cells confused", float((sa.phases == "confusion").mean()),
                 reference=float((off_a.phases == "confusion").mean()))
    for panel in "bcd":
        record_stored_layout(claims, stored_maps[panel], panel=panel, manifests=m)
    for panel, sm in stored_maps.items():
        stored_claim(claims, m, f"({panel}) cells with the official phase, away from official phase boundaries",
                     sm.interior_agreement(),
                     evidence=f"{int(((sm.phases != sm.official_phases()) & ~sm.official_boundary()).sum())} of the "
                              f"{int((~sm.official_boundary()).sum())} unambiguous cells differ; "
                              + STORED_CELLS_WHY.get(panel, ""))

    sd = stored_maps["d"]
    stored_claim(claims, m, "(d) fraction of cells that comprehend", float((sd.phases == "comprehension").mean()),
                 reference=round(float((sd.official_phases() == "comprehension").mean()), 2),
                 evidence="from our trainer's seed-0 start (the notebook's split and templates, our draws for the "
                          "matrices and decoder) the S3 runs memorize where the official map comprehends; see the "
                          "next section for the official start")


def record_stored_layout(claims, sm, *, panel, manifests) -> None:
    """Registers §4.1 (i)-(iv) on one stored (b)-(d) map as verdicts, and its two corners as numbers."""
    y, off36 = sm.config.y_values, sm.official_phases()
    stored_claim(claims, manifests, f"({panel}) all four phases present",
                 float(len({str(v) for v in sm.phases.ravel()}) == 4), evidence=NO_COMPREHENSION)
    stored_claim(claims, manifests, f"({panel}) top-right block at least half memorization",
                 float(corner_fraction(sm.phases, y, "memorization", "top_right") >= 0.5))
    stored_claim(claims, manifests, f"({panel}) confusion bottom right minus top right >= 1/6",
                 float(corner_fraction(sm.phases, y, "confusion", "bottom_right")
                       - corner_fraction(sm.phases, y, "confusion", "top_right") >= 1 / 6 - 1e-9))
    stored_claim(claims, manifests, f"({panel}) a comprehension -> grokking -> memorization column",
                 float(sandwich_columns(sm.phases, y) >= 1),
                 evidence=NO_COMPREHENSION if panel == "d" else
                 LATE_GROKKING.format(", ".join(str(int(v)) for v in sm.val_steps[0][-1] if v >= 0))
                 + ", so the column that comprehends at little decay ends in grokking, not memorization")
    # Numbers, not verdicts (added 2026-11-25): ours against the official map's at the same 36 cells.
    stored_claim(claims, manifests,
                 f"({panel}) memorization share of the top-right block, against the official map at our cells",
                 corner_fraction(sm.phases, y, "memorization", "top_right"),
                 reference=corner_fraction(off36, y, "memorization", "top_right"))
    stored_claim(claims, manifests,
                 f"({panel}) confusion excess bottom right over top right, against the official map at our cells",
                 corner_fraction(sm.phases, y, "confusion", "bottom_right")
                 - corner_fraction(sm.phases, y, "confusion", "top_right"),
                 reference=corner_fraction(off36, y, "confusion", "bottom_right")
                 - corner_fraction(off36, y, "confusion", "top_right"))


def print_parts(prefix, manifests):
    """A whole-grid map's stored parts: how many, their minutes in all, and where they ran."""
    minutes = sum(m["wall_time_s"] for m in manifests) / 60
    print(f"{prefix}all {len(manifests)} parts stored, {minutes:.0f} min in all; "
          + "; ".join(sorted({provenance_line(m) for m in manifests})))


def print_full_map(title, fm, cmp):
    """A whole-grid map beside the official one, row by row, and how far they agree."""
    print(f"\n{title} {fm.config.y_label} (rows) x decoder lr {fm.config.lr_dec_values[0]:.0e} ... "
          f"{fm.config.lr_dec_values[-1]:.0e} ({len(fm.config.lr_dec_values)} columns); ours | official")
    for y, ours_row, off_row in zip(fm.config.y_values, phase_letters(fm.phases), phase_letters(cmp.official)):
        print(f"  {y:8.2g}  {ours_row}  |  {off_row}")
    print(f"  cells with the official phase: {cmp.agreement:.2f} of all, {cmp.interior_agreement:.2f} of the "
          f"{cmp.interior_cells} away from official boundaries")
    for phase in PHASES:
        ours_n, off_n = cmp.counts[phase]
        print(f"  share in {phase}: ours {ours_n / cmp.n_cells:.3f}, official {off_n / cmp.n_cells:.3f}")


def load_full_maps():
    """Loads the panels whose whole-grid parts are all stored, prints their parts and glues which panels they are;
    returns ``(maps, manifests)`` by panel."""
    full_maps, full_manifests = {}, {}
    for panel in PANELS:
        stored = stored_full_grid(panel, "_results")
        if stored is None:  # judged once all its parts are stored (the README's table of stored runs gives the progress)
            continue
        full_maps[panel], full_manifests[panel] = stored
        print_parts(f"({panel}) ", full_manifests[panel])
    glue("full_panels", ", ".join(f"({p})" for p in full_maps) or "none", display=False)
    return full_maps, full_manifests


def report_full_maps(full_maps) -> dict:
    """Prints each whole-grid map beside the official one; returns each panel's comparison (judged later)."""
    full_cmp = {panel: fm.comparison() for panel, fm in full_maps.items()}
    for panel, fm in full_maps.items():
        print_full_map(f"({panel})", fm, full_cmp[panel])
    return full_cmp


def check_full_map(claims, prefix, cmp, *, run, why, setup):
    """The sealed claims on one whole-grid map (``prefix``: the claims' common start, up to the panel): the
    agreement away from official boundaries and each phase's share; a deviation's evidence quotes the counts."""
    name = f"{prefix} cells with the official phase, away from official phase boundaries"
    # each cell is its own one-seed run: a fraction of cells has at most the binomial seed standard error
    agree_se = fraction_standard_error(cmp.interior_cells - cmp.interior_differ, cmp.interior_cells)
    claims.check(name, cmp.interior_agreement, live=False, run=run, spread=agree_se,
                 evidence=f"{cmp.interior_differ} of the {cmp.interior_cells} unambiguous cells differ; " + why + setup
                 if claims.registry[name].kind == "deviation" else "")
    for phase in PHASES:
        name = f"{prefix} share of cells in {phase}, ours minus the official map's"
        ours_n, off_n = cmp.counts[phase]
        claims.check(name, cmp.share_difference(phase), live=False, run=run,
                     spread=fraction_standard_error(int(ours_n), int(cmp.n_cells)),
                     evidence=f"{ours_n} of {cmp.n_cells} cells against the official {off_n}" + setup
                     if claims.registry[name].kind == "deviation" else "")


def record_full_maps(claims, full_cmp, full_manifests) -> None:
    """Registers each whole grid's sealed claims and glues (a)'s and (d)'s agreement away from boundaries."""
    for panel, cmp in full_cmp.items():
        check_full_map(claims, f"{FULL}({panel})", cmp, run=full_manifests[panel], why=FULL_WHY.get(panel, ""),
                       setup=FULL_SETUP)
    for panel in "ad":  # the panels whose deviations bullets quote it
        glue(f"full_{panel}_interior", f"{full_cmp[panel].interior_agreement:.0%}" if panel in full_cmp
             else "(not yet stored)", display=False)


def report_kappa_band(claims) -> None:
    """Prints and glues the official maps' kappa against themselves shifted one grid step (the band), and registers
    that shuffled maps score kappa near 0."""
    shift = {panel: shifted_kappa(official_map(panel)) for panel in PANELS}
    print("official map against itself one grid step along the decoder lr: kappa "
          + ", ".join(f"({p}) {k.kappa:.2f}" for p, k in shift.items()))
    glue("kappa_shift", ", ".join(f"{k.kappa:.2f} ({p})" for p, k in shift.items()), display=False)
    shuffled = {p: shuffled_kappas(official_map(p).phases, official_map(p).phases, n_shuffles=200, seed=0)
                for p in PANELS}
    for p, ks in shuffled.items():
        print(f"({p}) 200 shuffles of the official map: every share difference 0, kappa {ks.mean():+.3f} "
              f"(sd {ks.std():.3f})")
    claims.check("official maps (a)-(d) with their cells shuffled at random (200 shuffles each): largest |mean "
                 "Cohen's kappa| against the unshuffled map", max(abs(float(ks.mean())) for ks in shuffled.values()),
                 live=False)


def check_kappa(claims, name, k, *, run, why):
    """A whole map's kappa against the official map (registry entry ``name``), with its standard error."""
    deviation = claims.registry[name].kind == "deviation"
    return claims.check(name, k.kappa, live=False, run=run, spread=k.standard_error,
                        evidence=f"kappa {k.kappa:.2f} ± {k.standard_error:.2f}: {k.observed:.2f} of the {k.n} cells "
                                 f"agree, where the two maps' phase shares give {k.chance:.2f} by chance; {why}"
                        if deviation else "")


def check_layout(claims, prefix, phases, *, y_values, run, why, tag_why=None):
    """§4.1 (i)-(iv) on one whole map (:func:`layout_counts`): a share, or a difference of two, with binomial errors;
    a deviation's evidence is ``tag_why[tag]`` where given, else ``why``."""
    for tag, counts in layout_counts(phases, y_values).items():
        name, shares = f"{prefix} {LAYOUT[tag]}", [k / n for k, n in counts]
        claims.check(name, shares[0] - sum(shares[1:]), live=False, run=run,
                     reference=1 / counts[0][1] if claims.registry[name].computed else None,
                     spread=math.hypot(*(fraction_standard_error(k, n) for k, n in counts)),
                     evidence=" minus ".join(f"{k} of {n}" for k, n in counts)
                     + (f" {tag_why[tag]}" if tag in (tag_why or {}) else f"; {why}")
                     if claims.registry[name].kind == "deviation" else "")


def record_full_kappas(claims, full_maps, full_manifests) -> None:
    """Prints and registers each whole map's kappa, and §4.1 (i)-(iv) on (b)-(d); glues the kappas."""
    full_kappa = {}
    for panel, fm in full_maps.items():
        k = full_kappa[panel] = fm.kappa()
        print(f"({panel}) kappa {k.kappa:.2f} ± {k.standard_error:.2f} (cells agreeing {k.observed:.2f}, by chance "
              f"{k.chance:.2f})")
        check_kappa(claims, f"{FULL}({panel}) {KAPPA}", k, run=full_manifests[panel],
                    why=FULL_WHY.get(panel, "") + FULL_SETUP)
        if panel != "a":
            check_layout(claims, f"{FULL}({panel})", fm.phases, y_values=fm.config.y_values, run=full_manifests[panel],
                         why=FULL_WHY[panel] + FULL_SETUP, tag_why=LAYOUT_WHY.get(panel))
    glue("kappa_full", ", ".join(f"{k.kappa:.2f} ± {k.standard_error:.2f} ({p})" for p, k in full_kappa.items()),
         display=False)


def record_stored_figure_rows(claims, stored_maps, full_maps) -> None:
    """Registers the "Paper versus ours" rows of the stored uncompressed maps and of the whole grids."""
    for panel in stored_maps:  # the verdict its claims support (all †: the stored runs predate sealed claims)
        claims.figure_from("liu2022", f"Fig. 6{panel} (uncompressed, 36 cells)", f"{PAPER}({panel})",
                           scale="paper (CPU, stored)",
                           why=STORED_WHY[panel] + "; 36 of the official cells, our draws of the seed; † : the stored "
                                                   "run predates sealed claims")
    for panel in full_maps:  # the verdict its claims support
        claims.figure_from("liu2022", f"Fig. 6{panel} (full grid)", f"{FULL}({panel})", scale="paper (CPU, stored)",
                           why=FULL_FIGURE_WHY[panel] + "; the official grid at the paper's settings, our draws of the "
                                                        "seed")

"""The book's reference pages, their tables generated from data (issue 63, item 4):

    python -m repro.book.pages            # rewrite the generated tables of book/running.md
    python -m repro.book.pages --check    # exit 1, naming the page, if a committed table differs

A page keeps its prose by hand; each generated table sits between the MyST comment lines ``% generated: NAME``
and ``% end generated``, and this module rewrites only what lies between them. ``tests/test_pages.py`` fails when
a committed page differs from what this module generates, so a table can go stale in neither direction.

* ``stored-runs`` — one table per experiment module: every stored run of the book, the command that computes it,
  and what the results store records about it (entries, wall time summed over entries, segments, dates, machine),
  read from each entry's ``manifest.json`` (or, for an unfinished run, its checkpoint). The rows are
  :data:`STORED_RUNS`; the test checks that every entry of ``book/_results`` is one row's and that every row's
  options are its module's.
* ``paper-scale`` — the dated CPU table that ``python -m repro.book.paper_scale --out`` wrote to
  :data:`PAPER_SCALE_CPU_FILE` (every paper-scale experiment at its paper's cadence), then the older GPU record
  :data:`PAPER_SCALE_GPU` (not re-measured here).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BOOK = ROOT / "book"
PAGES = ("running.md",)  # the pages with generated tables


@dataclass(frozen=True)
class StoredRun:
    """One stored run: what it is, the options that compute it (after ``--store book/_results``) and the
    results-store labels of its entries; ``config_class``, where two modules store under one label, is the
    ``__class__`` of the entries' top-level config (``""``: a config without one)."""

    what: str
    options: str
    labels: tuple[str, ...]
    config_class: str | None = None


R = StoredRun
# experiment module -> (its chapter, its stored runs), in book order
STORED_RUNS: dict[str, tuple[str, tuple[StoredRun, ...]]] = {
    "power2022_what_is_grokking": ("power2022_what_is_grokking", (
        R("Power et al.'s transformer and optimizer on modular addition (2-layer transformer, p = 97, half the ordered "
          "pairs, AdamW lr 1e-3, wd 1, β₂ 0.98, batch 512, no warm-up), one seed, 3·10⁴ steps", "--run addition",
          ("power2022",)),
        R("Fig. 1 as published: division x/y mod 97 (half of the 97·96 equations), the same transformer and optimizer "
          "with the 10-update warm-up, 10⁵ steps, seeds 0 and 1, weight decay 1; claims registered before the run; "
          "resumable", "--run division-wd1", ("power2022-division-wd1",)),
        R("the same at weight decay 0", "--run division-wd0", ("power2022-division-wd0",)),
        R("Fig. 1 as it was made: openai/grok's transformer, Adam without weight decay, 10⁶ steps, two seeds; claims "
          "registered before the run; resumable, its checkpoint committed", "--run fig1", ("power2022-fig1",)),
    )),
    "liu2022_effective_theory": ("liu2022_effective_theory", (
        R("Fig. 2 at the official 2-D settings, the notebooks' `randn + 1` init, (E_i + E_j)/2 input and decoder "
          "without the last ReLU (addition and modular addition, 8 seeds × 2·10⁴ steps)", "",
          ("liu2022-fig2-addition", "liu2022-fig2-modular_addition")),
        R("the book-scale seed spread on fresh init seeds; claims registered before the run", "--run confirm",
          ("effective-theory-confirm",)),
    )),
    "liu2022_effective_theory_s3": ("liu2022_effective_theory", (
        R("S3 fraction sweep (App. H: 110 runs × 10⁴ steps)", "", ("s3-sweep",)),
        R("Fig. 18 from the official notebook's starts (each run drawn as `toy/Figure5d_permutation.ipynb` draws its "
          "seed's run): 10 fractions × seeds 0–43 in four sets of 11, 10⁴ steps; claims registered before the run",
          "--official-order", ("s3-official-order",)),
    )),
    "liu2022_critical_data": ("liu2022_critical_data", (
        R("Figs 3 and 4(b) in the official random-number order: sizes 5–54, seeds 0–9, 10⁴ steps, each run's "
          "templates, split, minibatches and init drawn as `toy/train_add.py` draws them (seeds 0–2 are the official "
          "runs, compared run by run); claims registered before the run", "", ("fig4b-official-order",)),
        R("Fig. 4(b) at the official sizes and steps in the book's earlier order (shared templates, full batch; ten "
          "seeds)", "--order shared_templates", ("fig4b-sweep",)),
        R("the book-scale sweep on fresh seeds; claims registered before the run", "--run confirm",
          ("critical-data-confirm",)),
    )),
    "liu2022_phase_diagrams": ("liu2022_phase_diagrams", (
        R("Fig. 6 (a)–(d) uncompressed at the paper's settings: the book's 6 × 6 cells of each panel, 10⁵ steps, "
          "official seed (and in (d) the official L1 term); `--panels` picks some", "",
          tuple(f"liu2022-fig6{p}-uncompressed" for p in "abcd")),
        R("Fig. 6 (a)–(d) on the full official grids (13 × 13 in (a), 11 × 16 in (b)–(d)) at the paper's settings, "
          "accuracies every 10 steps, stored in parts of two official rows (a rerun trains only the missing parts); "
          "claims registered before the first part", "--full", tuple(f"liu2022-fig6{p}-full" for p in "abcd")),
    )),
    "liu2022_phase_diagrams_s3_official": ("liu2022_phase_diagrams", (
        R("Fig. 6(d), bug or seed: the official S3 notebook's seed-0 start at 12 cells × 10⁵ steps, and one cell from "
          "40 starts drawn the notebook's way and ours (1,500 steps)", "", ("liu2022-s3-seed-luck",)),
        R("Fig. 6(d) from the official notebook's seed-0 start on the whole grid, in 6 parts", "--full-grid",
          ("liu2022-fig6d-full-official-start",)),
    )),
    "liu2022_transformer_and_images": ("liu2022_transformer_and_images", (
        R("Fig. 8(a) at the paper's rates on the substitute 8×8 digits (lr 1e-3, wd 0.01, α = 8, 5 seeds × 5·10⁴ "
          "steps)", "--runs images", ("images",)),
        R("Figs 1 and 7 (left) at the paper's settings: the official transformer (p = 59, 2 layers of width 256, "
          "dropout 0.05), seeds 1–3, 6,000 steps", "--runs transformer", ("transformer",), "TransformerGrokConfig"),
        R("Fig. 1's run for all its 20,000 steps: the official seed 1, e^S every 20 steps and the embeddings every 500 "
          "(an 8 MB checkpoint); claims registered before the run; resumable", "--runs transformer-20k",
          ("transformer-20k",)),
        R("Fig. 7 (centre): the paper's 10 dropout rates × 3 seeds with the book's transformer, 5,000 steps",
          "--runs dropout", ("dropout",)),
    )),
    "liu2023_omnigrok": ("liu2023_omnigrok", (
        R("teacher–student at §3's and the official notebooks' settings (lr 3·10⁻⁴; landscape 11 norms × 3 seeds, "
          "10⁵ steps read at 10⁴ and 10⁵; grokking α = 2 against 8 decays and both controls × 3 seeds, 10⁵ steps); "
          "claims registered before the run", "--run ts", ("omnigrok-ts-landscape", "omnigrok-ts-grokking")),
        R("six more student seeds (4–9) of that landscape (same teacher, data, 11 norms), joined to its three; claims "
          "registered before the run", "--run ts-seeds", ("omnigrok-ts-landscape-seeds",)),
        R("the talk's Fig. 7 transformer, p = 59, TransformerLens' init (free and fixed-norm runs, 2 seeds, 24,000 "
          "steps, float32)", "", ("omnigrok-modular-transformer",)),
        R("the talk's Fig. 7 at the notebook's settings: p = 113, the notebook's init, 15,000 steps, 2 seeds, float32; "
          "claims registered before the run; resumable", "--run p113", ("omnigrok-modular-p113",)),
        R("the book-scale teacher–student runs on fresh student seeds; claims registered before the run",
          "--run confirm", ("omnigrok-confirm",)),
    )),
    "liu2023_omnigrok_messiness": ("liu2023_omnigrok", (
        R("the (w, m) landscape with the official notebook's training (LeakyReLU(0.2), Adam 10⁻² betas (0.9, 0.99) "
          "×0.2 every 5,000 updates, 15,000 steps; 21 × 20 grid, one initialization); claims registered before the "
          "run", "", ("omnigrok-wm-official",)),
        R("the backup slide \"Algorithmic: data size/weight decay dependence\": that landscape at 25, 35, 45 and 54 "
          "training pairs in the notebook's fine window (messiness 0–0.1, α 2.5–4.0; 6 × 11 points), one entry per "
          "size; claims registered before each run", "--data-size 25 35 45 54", ("omnigrok-wm-size",)),
        R("the same in a window widened to α = 1 (6 × 21 points)", "--data-size 25 35 45 54 --wide",
          ("omnigrok-wm-size-wide",)),
    )),
    "rubin2024_droplets": ("rubin2024_droplets", (
        R("finite-data Langevin ensembles at β = α = 1/8 (50 data sets × 2 networks) and 1/2 (10 × 1), 4000 steps", "",
          ("droplets-finite",)),
        R("finite-data Langevin ensembles at the base size β = α = 1 (d = 150; 10 data sets × 1 network; σ² = 0.24, "
          "0.20, 0.17, 0.14 around both critical points), 4000 steps; claims registered before the run", "--beta 1",
          ("droplets-finite-beta1",)),
        R("the Langevin step's bias: β = α = 1/8 again at half the step (h = 0.025, 8000 steps, σ² = 0.20 and 0.10, "
          "same data and seeds); claims registered before the run", "--half-step", ("droplets-finite-half-step",)),
    )),
    "baek2024_geneft": ("baek2024_geneft_information", (
        R("Fig. 4 trained to fit (depths 0–10, 4 relations × 5 seeds, 2·10⁴ steps, float32)", "--only depth",
          ("geneft-depth",)),
        R("Fig. 4's deep end at the paper's horizon (depths 1–3 and 6–12, 4 relations × 10 seeds, 10⁵ steps, float32; "
          "one resumable entry per depth, `--depths` picks some); claims registered before the run",
          "--only depth-deep", ("geneft-depth-deep",)),
        R("the book-scale Figs 3–4 statistics on fresh seeds; claims registered before the run", "--only confirm",
          ("geneft-information-confirm",)),
        R("Fig. 6 for all three relations and every weight-decay row (7 × 6 cells × 3 seeds, 3 000 steps; chapter "
          "`baek2024_geneft_dynamics`)", "--only fig6", ("geneft-phases",)),
        R("Fig. 6 at the paper's width over every weight-decay row (3 relations × 7 weight decays × 9 decoder rates, "
          "encoder 3·10⁻⁴, 2·10⁴ steps, a run stops once decided; one resumable entry per seed, `--seeds` picks some; "
          "chapter `baek2024_geneft_dynamics`); claims registered before the run", "--only fig6-wide",
          ("geneft-fig6-wide",)),
        R("Fig. 5 in the paper's regime under Adam: width 50, three relations × 81 cells (both rates 10⁻⁵–10⁻¹) × 3 "
          "seeds, 2·10⁴ steps (a run stops once its phase is decided), one entry per seed (chapter "
          "`baek2024_geneft_dynamics`); claims registered before the runs", "--only fig5-adam", ("geneft-fig5-adam",)),
        R("the same under plain gradient descent (both rates 10⁻³–10¹)", "--only fig5-gd", ("geneft-fig5-gd",)),
    )),
    "mohamadi2024_why_grok": ("mohamadi2024_why_grok", (
        R("regression of Figs 2–3 at the paper's budget (p = 11, 4·10⁵ GD steps, 4 α × 3 seeds)", "--only regression",
          ("regression",)),
        R("Fig. 2 at the paper's learning rate 1, NTK parametrization of the first author's code (p = 11 and 23, "
          "3 α × 3 seeds, 2·10⁵ GD steps)", "--only regression-ntk", ("regression-ntk",)),
        R("Fig. 2 at its own p = 47 with App. A.1 as printed (standard parametrization, PyTorch's init, GD at lr 1, "
          "λ = 1e-4, α ∈ {1, 0.1}, one seed, 2·10⁵ steps); claims registered before the run; resumable",
          "--only regression-p47", ("regression-p47",)),
        R("Fig. 2 at p = 47 from He et al.'s normal init (App. A.1's reference [19]; otherwise as above); claims "
          "registered before the run; resumable", "--only regression-p47-he", ("regression-p47-he",)),
        R("Fig. 1 (left, middle) under normalized GD in the NTK parametrization (p = 23, α ∈ {1, 0.3, 0.1} × 4 seeds, "
          "10⁴ steps, eNTK every 10 steps)", "--only classification-ntk", ("classification-ntk",)),
        R("Fig. 1 (middle) under plain GD (p = 23, α ∈ {1, 0.3, 0.1, 0.03} × 4 seeds, 2·10⁴ steps)",
          "--only gd-init-scale", ("classification",)),
        R("Fig. 5 with the paper's GD (p = 23 book-scale transformer, 3 seeds × 2·10⁴ steps, float32)",
          "--only transformer-gd", ("transformer",), ""),
    )),
    "mohamadi2024_why_grok_sample": ("mohamadi2024_why_grok", (
        R("sample complexity against p (normalized GD, p = 11–41, 12 sizes × 3 seeds, 1 500 steps)", "",
          ("sample-complexity",)),
        R("sample complexity at settled budgets (p = 37, 41, 47, 53; 7 sizes × 3 seeds; 4 000 steps, n* read after "
          "1 000, 2 000 and 4 000), one entry per p (`--ps` picks some); claims registered before the run",
          "--run budget", ("sample-complexity-budget",)),
    )),
}
del R


# ``python -m repro.book.paper_scale --out`` writes its dated table here: the CPU cost at each config's own cadence
PAPER_SCALE_CPU_FILE = BOOK / "_data" / "paper_scale_cpu.md"
# experiment name -> (GPU s / step, projected GPU hours): one NVIDIA H100 80GB, 2026-11-26 (see the page)
PAPER_SCALE_GPU = {
    "phase diagram, Fig. 6(b)": ("0.0896", "2.5 h"),
    "transformer on p = 59 (Fig. 7)": ("0.0431", "14 min"),
    "dropout sweep on p = 59 (Fig. 7 centre)": ("0.0415", "1.2 h"),
    "modular addition, free and fixed norm (Fig. 7)": ("0.00745", "2 min"),
    "(w, m) landscape of the backup slides (Fig. 6)": ("0.164", "27 min"),
    "time-dependent grokking, N = 2800 (v3 App. D, Fig. 4)": ("0.225", "438 h"),
    "data-size sweep (Fig. 2-3)": ("0.213", "5.9 h"),
    "learning-rate phase diagram (Fig. 5)": ("2.98", "82.7 h"),
    "weight-decay phase diagram (Fig. 6)": ("1.26", "35.0 h"),
    "classification at the largest p (Fig. 4)": ("2.01", "55.9 h"),
    "transformer, GD (Fig. 5)": ("0.0244", "41 min"),
}


@dataclass(frozen=True)
class Entry:
    """One entry of a results store, as far as the tables need it."""

    folder: str
    label: str
    config_class: str  # "" when the top-level config has none
    finished: bool
    wall_time_s: float
    segments: int
    dates: tuple[str, ...]  # the days (UTC) its segments were written
    device: str
    step: tuple[int, ...] = ()  # an unfinished run: the step each block of runs reached (of ``steps``)
    steps: int | None = None


def _config_class(folder: Path, name: str) -> str:
    path = folder / name
    if not path.exists():
        return ""
    config = json.loads(path.read_text()).get("config", {})
    return config.get("__class__", "") if isinstance(config, dict) else ""


def store_entries(root: str | Path = BOOK / "_results") -> list[Entry]:
    """Every finished entry and unfinished run (checkpoint folder) of the store folder ``root``."""
    from repro.book.runs import list_runs

    root = Path(root)
    out = []
    for run in list_runs(root):
        folder = root / run.name
        if run.finished:
            manifest = json.loads((folder / "manifest.json").read_text())
            segments = manifest.get("segments") or [manifest]
            dates = tuple(sorted({str(s.get("started") or s.get("created") or manifest["created"])[:10]
                                  for s in segments} | {manifest["created"][:10]}))
            out.append(Entry(run.name, run.label, _config_class(folder, "config.json"), True, run.wall_time_s or 0.0,
                             run.segments, dates, run.device))
        else:
            state = json.loads((folder / "checkpoint.json").read_text())
            out.append(Entry(run.name, run.label, _config_class(folder, "config.json"), False, run.wall_time_s or 0.0,
                             run.segments, (str(state.get("updated", ""))[:10],), run.device,
                             tuple(int(s) for s in state.get("block_steps", [run.step or 0])), run.steps))
    return out


def entries_of(row: StoredRun, entries: list[Entry]) -> list[Entry]:
    """The entries that are ``row``'s: its labels, and its config class where it names one."""
    return [e for e in entries if e.label in row.labels
            and (row.config_class is None or e.config_class == row.config_class)]


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _days(dates) -> str:
    days = sorted(set(dates))
    return days[0] if len(days) == 1 else f"{days[0]} – {days[-1]}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def stored_run_cells(row: StoredRun, entries: list[Entry]) -> tuple[str, str, str]:
    """``(entries, wall time, stored)`` of one row, from its entries' manifests and checkpoints."""
    mine = entries_of(row, entries)
    if not mine:
        return "none", "", "not stored"
    done = [e for e in mine if e.finished]
    segments = sum(e.segments for e in done)
    parts = [f"{len(done)}" + (f" ({segments} segments)" if segments > len(done) else "")] if done else []
    wall = [_duration(sum(e.wall_time_s for e in done))] if done else []
    stored = [_days(d for e in done for d in e.dates)] if done else []
    for e in mine:
        if not e.finished:
            steps = " and ".join(f"{s:,}" for s in e.step)
            reached = (f"blocks of runs at steps {steps} of {e.steps:,}" if len(e.step) > 1 else
                       f"at step {steps} of {e.steps:,}") if e.steps else "no complete checkpoint"
            parts.append(f"1 unfinished ({reached})")
            wall.append(f"{_duration(e.wall_time_s)} so far")
            stored.append(f"checkpoint of {e.dates[0]}")
    return "; ".join(parts), "; ".join(wall), "; ".join(stored)


def stored_runs_tables(root: str | Path = BOOK / "_results") -> str:
    """One Markdown table per experiment module: its stored runs, their options and what the store records."""
    entries = store_entries(root)
    devices = sorted({e.device for e in entries if e.device})
    out = [f"Machines the entries record: {', '.join(f'`{d}`' for d in devices)}.", ""]
    for module, (chapter, rows) in STORED_RUNS.items():
        out += [f"**`repro.experiments.{module}`** (chapter `{chapter}`): "
                f"`python -m repro.experiments.{module} --store book/_results` and the options below.", "",
                "| stored run | options | entries | wall time | stored |", "|---|---|---|---:|---|"]
        for row in rows:
            n, wall, stored = stored_run_cells(row, entries)
            options = f"`{row.options}`" if row.options else "(none)"
            out.append(f"| {_cell(row.what)} | {options} | {n} | {wall} | {stored} |")
        out.append("")
    return "\n".join(out).rstrip("\n")


def paper_scale_table() -> str:
    """The dated CPU table of ``python -m repro.book.paper_scale --out`` (every experiment, at its paper cadence), then
    the older H100 record beside the registry's experiments and their paper steps."""
    from repro.book.paper_scale import experiments, paper_scale_env

    if not PAPER_SCALE_CPU_FILE.exists():
        raise FileNotFoundError(f"{PAPER_SCALE_CPU_FILE} is missing: make it with "
                                f"`python -m repro.book.paper_scale --out {PAPER_SCALE_CPU_FILE.relative_to(ROOT)}`.")
    rows = ["| chapter | experiment | paper steps | H100 s / step (measured) | projected H100 hours |",
            "|---|---|---:|---:|---:|"]
    with paper_scale_env():
        for exp in experiments():
            if exp.name in PAPER_SCALE_GPU:
                gpu_s, gpu_h = PAPER_SCALE_GPU[exp.name]
                rows.append(f"| `{exp.chapter}` | {exp.name} | {exp.paper_steps(exp.build()):,} | {gpu_s} | {gpu_h} |")
    return (PAPER_SCALE_CPU_FILE.read_text().rstrip("\n") + "\n\nOn one NVIDIA H100 80GB, 2026-11-26 (torch 2.11.0+cu130, "
            "deterministic mode, 4 seeds per dry run, `--steps 2 4`), measured before the projection charged evaluations at "
            "their cadence: each step then included an evaluation, so these are upper bounds where a config evaluates "
            "less often than every step:\n\n" + "\n".join(rows))


GENERATORS = {"stored-runs": stored_runs_tables, "paper-scale": paper_scale_table}
BLOCK = re.compile(r"^% generated: (?P<name>[a-z-]+)\n(?P<body>.*?)^% end generated\n", re.MULTILINE | re.DOTALL)


def render(text: str) -> str:
    """``text`` with the body of every generated block replaced by what its generator gives now."""
    def fill(m: re.Match) -> str:
        name = m["name"]
        if name not in GENERATORS:
            raise ValueError(f"generated block {name!r} is not one of {', '.join(GENERATORS)}.")
        return f"% generated: {name}\n\n{GENERATORS[name]()}\n\n% end generated\n"  # blank lines: blocks of their own

    return BLOCK.sub(fill, text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.pages", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page's tables are stale")
    args = parser.parse_args(argv)
    stale = []
    for name in PAGES:
        path = BOOK / name
        text = path.read_text(encoding="utf8")
        new = render(text)
        if new != text:
            stale.append(name)
            if not args.check:
                path.write_text(new, encoding="utf8")
    verb = "stale" if args.check else "rewritten"
    print(f"{verb}: {', '.join(stale)}" if stale else "every generated table is current")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

"""Every chapter's paper-scale experiments: a dry run at paper shapes, and the projected cost of the real run.

``REPRO_SCALE=paper`` switches every chapter to its paper's settings (grids, widths, p, steps) with the same
functions. Those runs are too long for a laptop, so this module proves the switch works without paying
for it: each paper-scale experiment is built from the chapter's own config (``X.for_scale()`` under
``REPRO_SCALE=paper``), every training length in it is cut to a few steps (:func:`shrink`), and the
experiment's own run function executes at the paper's shapes. A step's cost is the difference of two
dry runs of different lengths, in CPU core-seconds (process time summed over threads, so the figure
holds on a busy machine; divide by the cores for wall time, assuming they are all used); the difference
cancels data building and set-up. The training step is timed with every evaluation switched off, and
each kind of evaluation (each ``*_every`` field) on its own at every step; the projection adds each
evaluation's cost divided by the paper's cadence for it, so a config that evaluates every 1,000 steps is
not charged an evaluation per step. The FLOPs of a step are counted the same way with
:class:`torch.utils.flop_counter.FlopCounterMode`. The projection is that per-step cost times the
paper's number of steps.

    python -m repro.book.paper_scale                 # the table of projected paper-scale costs (a few minutes)
    python -m repro.book.paper_scale --chapter power2022_what_is_grokking

``tests/test_paper_scale.py`` runs every dry run for two steps.

The H100 column is an estimate from the FLOP count, not a measurement: FLOPs at a sustained 25 TFLOP/s
(about 40 % of the H100's 67 TFLOP/s float32 / FP64-tensor peak), with a floor of 1 ms per step for
kernel launches (these models are small, so most paper runs are launch-bound on a GPU).
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import os
import struct
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

H100_FLOPS = 25e12  # sustained FLOP/s assumed for the estimate (see the module docstring)
H100_STEP_FLOOR_S = 1e-3  # launch-bound floor per step


# Evaluation-sample sizes capped in every dry run (not training shapes): Mohamadi et al.'s eNTK on 20,000
# triples needs a 20,000 x P Jacobian per run (about 22 GB for Fig. 2's four runs in float64), which a GPU
# holds but a 24 GB CPU machine does not. It is computed every 10^4 steps, so the projected cost per
# step does not depend on it.
EVAL_CAPS = {"ntk_points": 1000}
SEED_FIELDS = ("seeds", "dropout_seeds")  # per-run tuples (init_seeds, data_seeds) stay: they must match other per-run fields


OFF = 10**9  # a cadence no dry run reaches: the evaluation it paces runs only where every run evaluates (start, end)


def _is_cadence(name: str) -> bool:
    return name.endswith("_every")


def cadences(cfg, prefix: str = "") -> dict[str, int]:
    """The positive ``*_every`` fields of a (possibly nested) config, by dotted path: how often, in steps, the
    paper's run pays for each kind of evaluation (``eval_every``, ``ntk_every``, ``record_every``, ...)."""
    found = {}
    for f in dataclasses.fields(cfg):
        value = getattr(cfg, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            found.update(cadences(value, f"{prefix}{f.name}."))
        elif _is_cadence(f.name) and isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value > 0:
            found[prefix + f.name] = int(value)
    return found


def shrink(cfg, steps: int, max_seeds: int | None = None, every: int | dict[str, int] = 1, _prefix: str = ""):
    """A copy of a (possibly nested) config dataclass with every training length cut to ``steps``:
    fields named ``steps`` or ``*_steps`` become ``steps``; positive ``*_every`` fields (the cadences, see
    :func:`cadences`) become ``every`` — one value for all, or a dict by dotted path (missing paths: 1);
    ``gap`` fields (a phase criterion, not a cadence) become 1; and a ``device`` field naming CUDA becomes
    ``"cpu"`` unless CUDA is present. With ``max_seeds``, the seed axis (``n_seeds``, ``n_nets`` and the
    ``seeds`` tuples) is cut to that many: the runs of a batch are independent copies, so fewer of them
    still exercise every paper shape. Evaluation samples listed in :data:`EVAL_CAPS` are capped. Model and
    data shapes are untouched."""
    if not dataclasses.is_dataclass(cfg) or isinstance(cfg, type):
        raise ValueError(f"shrink: cfg must be a config dataclass instance, got {type(cfg).__name__}.")
    changes = {}
    for f in dataclasses.fields(cfg):
        value = getattr(cfg, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes[f.name] = shrink(value, steps, max_seeds, every, f"{_prefix}{f.name}.")
        elif max_seeds is not None and f.name in ("n_seeds", "n_nets") and isinstance(value, int) and value > max_seeds:
            changes[f.name] = max_seeds
        elif max_seeds is not None and f.name in SEED_FIELDS and isinstance(value, tuple) and len(value) > max_seeds:
            changes[f.name] = value[:max_seeds]
        elif f.name in EVAL_CAPS and isinstance(value, int) and value > EVAL_CAPS[f.name]:
            changes[f.name] = EVAL_CAPS[f.name]
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            if f.name == "steps" or f.name.endswith("_steps"):
                changes[f.name] = steps
            elif _is_cadence(f.name) and value > 0:
                changes[f.name] = every.get(_prefix + f.name, 1) if isinstance(every, dict) else every
            elif f.name == "gap" and value > 0:
                changes[f.name] = 1
        elif f.name == "device" and value == "cuda":
            import torch

            changes[f.name] = "cuda" if torch.cuda.is_available() else "cpu"
    return dataclasses.replace(cfg, **changes)


@contextlib.contextmanager
def paper_scale_env(mnist_dir: str | None = None):
    """``REPRO_SCALE=paper`` for the duration, progress bars off, and ``REPRO_MNIST_DIR`` pointing at a
    directory of MNIST-shaped IDX files (made by :func:`write_fake_mnist` unless one is given or set)."""
    saved = {k: os.environ.get(k) for k in ("REPRO_SCALE", "REPRO_PROGRESS", "REPRO_MNIST_DIR")}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["REPRO_SCALE"] = "paper"
        os.environ["REPRO_PROGRESS"] = "0"
        if mnist_dir or not os.environ.get("REPRO_MNIST_DIR"):
            os.environ["REPRO_MNIST_DIR"] = mnist_dir or write_fake_mnist(tmp)
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def write_fake_mnist(directory: str, n_train: int = 2000, n_test: int = 1000, seed: int = 0) -> str:
    """Random images in MNIST's four IDX files (28x28 uint8, labels 0-9): MNIST's shapes for a dry run
    where the real files cannot be downloaded. Not a dataset: nothing is learned from it."""
    rng = np.random.RandomState(seed)
    d = Path(directory)
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images = rng.randint(0, 256, size=(n, 28, 28)).astype(np.uint8)
        labels = rng.randint(0, 10, size=n).astype(np.uint8)
        (d / f"{prefix}-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
        (d / f"{prefix}-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, n) + labels.tobytes())
    return str(d)


@dataclass(frozen=True)
class PaperExperiment:
    """One paper-scale experiment of a chapter: how to build its paper config, how to run it, and the
    config field that holds its number of training steps (for the projection)."""

    chapter: str
    name: str
    build: Callable[[], Any]  # called under REPRO_SCALE=paper
    run: Callable[[Any], Any]
    steps_field: str = "steps"

    def paper_steps(self, cfg) -> int:
        value = cfg
        for part in self.steps_field.split("."):
            value = getattr(value, part)
        return int(value)


def _registry() -> list[PaperExperiment]:
    # Imported here: this is book tooling, above every experiment module.
    from repro.experiments import baek2024_geneft as geneft
    from repro.experiments import liu2022_critical_data as rep
    from repro.experiments import liu2022_effective_theory_s3 as liu_s3
    from repro.experiments import liu2022_phase_diagrams as liu_phases
    from repro.experiments import liu2022_transformer_and_images as lti
    from repro.experiments import liu2023_omnigrok as omnigrok
    from repro.experiments import liu2023_omnigrok_messiness as omnigrok_messiness
    from repro.experiments import mohamadi2024_why_grok as mw
    from repro.experiments import power2022_what_is_grokking as intro
    from repro.experiments import rubin2024_droplets as droplets
    from repro.experiments import synthesis_one_task as synthesis
    from repro.training.langevin import run_langevin

    def why(build):
        return lambda: build(mw.WhyGrokConfig.for_scale())

    exps = [
        PaperExperiment("power2022_what_is_grokking", "Power et al. transformer, p = 97", intro.IntroConfig.for_scale,
                        intro.run_intro),
        PaperExperiment("liu2022_effective_theory", "toy model, reference run (Fig. 3-4)", rep.ToyConfig.for_scale,
                        rep.run_reference, "reference_steps"),
        PaperExperiment("liu2022_effective_theory", "S3 fraction sweep (App. H)", liu_s3.S3Config.for_scale,
                        liu_s3.run_s3_sweep),
        PaperExperiment("liu2022_critical_data", "toy model, training-size sweep (Fig. 4b)", rep.ToyConfig.for_scale,
                        rep.run_fraction_sweep, "sweep_steps"),
    ]
    exps += [PaperExperiment("liu2022_phase_diagrams", f"phase diagram, Fig. 6({panel})",
                             (lambda panel=panel: liu_phases.ToyPhaseConfig.for_scale(panel)), liu_phases.run_phase_diagram)
             for panel in liu_phases.PANELS]
    exps += [
        PaperExperiment("liu2022_transformer_and_images", "transformer on p = 59 (Fig. 7)",
                        lti.TransformerGrokConfig.for_scale, lti.run_transformer),
        PaperExperiment("liu2022_transformer_and_images", "dropout sweep on p = 59 (Fig. 7 centre)",
                        lti.TransformerGrokConfig.for_scale, lti.run_dropout_sweep, "dropout_steps"),
        PaperExperiment("liu2022_transformer_and_images", "MNIST phase diagram (Fig. 8b)", lti.ImageGrokConfig.for_scale,
                        lti.run_image_phase_diagram),
        PaperExperiment("liu2023_omnigrok", "teacher-student landscape (Fig. 2a)", omnigrok.TeacherStudentConfig.for_scale,
                        omnigrok.teacher_student_landscape, "landscape_steps"),
        PaperExperiment("liu2023_omnigrok", "teacher-student grokking (Fig. 2b-c)", omnigrok.TeacherStudentConfig.for_scale,
                        omnigrok.run_teacher_student_grokking, "grok_steps"),
        PaperExperiment("liu2023_omnigrok", "MNIST landscape (Fig. 3a)", omnigrok.ImageConfig.for_scale,
                        omnigrok.image_landscape, "landscape_steps"),
        PaperExperiment("liu2023_omnigrok", "MNIST grokking (Fig. 3)", omnigrok.ImageConfig.for_scale,
                        omnigrok.run_image_grokking),
        PaperExperiment("liu2023_omnigrok", "modular addition, free and fixed norm (Fig. 7)",
                        omnigrok.ModularConfig.for_scale, omnigrok.run_modular),
        PaperExperiment("liu2023_omnigrok", "(w, m) landscape of the backup slides (Fig. 6)",
                        omnigrok_messiness.MessinessConfig.for_scale, omnigrok_messiness.run_messiness),
        PaperExperiment("rubin2024_droplets", "Langevin ensembles (Fig. 2-3)", droplets.DropletsConfig.for_scale,
                        droplets.run_experiments, "langevin.steps"),
    ]
    exps += [PaperExperiment("rubin2024_droplets", f"time-dependent grokking, N = {N} (v3 App. D, Fig. 4)",
                             (lambda N=N: droplets.time_dependent_config(N)), run_langevin)
             for N in droplets.TIME_DEPENDENT_WIDTHS]
    exps += [
        PaperExperiment("baek2024_geneft_information", "data-size sweep (Fig. 2-3)", geneft.DataSizeConfig.for_scale,
                        geneft.run_data_size),
        PaperExperiment("baek2024_geneft_information", "depth sweep (Fig. 4)", geneft.DepthConfig.for_scale,
                        geneft.run_depth),
        PaperExperiment("baek2024_geneft_dynamics", "learning-rate phase diagram (Fig. 5)", geneft.PhaseConfig.fig5,
                        geneft.run_phases),
        PaperExperiment("baek2024_geneft_dynamics", "weight-decay phase diagram (Fig. 6)", geneft.PhaseConfig.fig6,
                        geneft.run_phases),
        PaperExperiment("mohamadi2024_why_grok", "classification, normalized GD at grok_p (Fig. 1)",
                        why(lambda c: c.classification_config(c.grok_p)), mw.train_classification),
        PaperExperiment("mohamadi2024_why_grok", "classification at the largest p (Fig. 4)",
                        why(lambda c: c.classification_config(max(c.sample_ps))), mw.train_classification),
        PaperExperiment("mohamadi2024_why_grok", "regression, GD with the l-inf penalty (Fig. 3)",
                        why(lambda c: c.regression), mw.train_regression),
        PaperExperiment("mohamadi2024_why_grok", "transformer, GD (Fig. 5)", why(lambda c: c.transformer),
                        mw.run_transformer),
        PaperExperiment("synthesis_one_task", "the three slices at p = 97 (144 runs)", synthesis.SynthesisConfig.for_scale,
                        synthesis.run),
    ]
    return exps


def experiments(chapter: str | None = None) -> list[PaperExperiment]:
    """The registry, optionally of one chapter (a clear error names the chapters that exist)."""
    exps = _registry()
    if chapter is None:
        return exps
    chapters = sorted({e.chapter for e in exps})
    if chapter not in chapters:
        raise ValueError(f"chapter={chapter!r} is not allowed: chapter must be one of {', '.join(chapters)}.")
    return [e for e in exps if e.chapter == chapter]


@dataclass(frozen=True)
class DryRun:
    experiment: PaperExperiment
    steps: int
    seconds: float  # CPU seconds, summed over threads
    flops: float
    result: Any
    wall_seconds: float = float("nan")  # wall clock, the GPU synchronized: the cost where the work is on a GPU


def dry_run(exp: PaperExperiment, steps: int = 2, *, count_flops: bool = False, max_seeds: int | None = None,
            every: int | dict[str, int] = 1) -> DryRun:
    """Run ``exp`` at paper shapes for ``steps`` training steps (call inside :func:`paper_scale_env`);
    ``max_seeds`` cuts the seed axis and ``every`` sets the cadences (see :func:`shrink`; the projection
    keeps every seed and the paper's cadences).

    ``count_flops``: count the matrix-product FLOPs with ``FlopCounterMode``. Its dispatch mode sees only
    the calling thread, so the run is then made single-threaded (the trainer's worker threads would
    escape the count); its time is not a fair timing.
    """
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    cfg = shrink(exp.build(), steps, max_seeds, every)
    threads = torch.get_num_threads()
    counter = FlopCounterMode(display=False) if count_flops else contextlib.nullcontext()
    if count_flops:
        torch.set_num_threads(1)
    sync = torch.cuda.synchronize if torch.cuda.is_available() else (lambda: None)
    try:
        sync()
        wall, start = time.perf_counter(), time.process_time()  # CPU time of every thread: honest on a busy machine
        with counter:
            result = exp.run(cfg)
        sync()
        seconds, wall = time.process_time() - start, time.perf_counter() - wall
    finally:
        torch.set_num_threads(threads)
    return DryRun(exp, steps, seconds, float(counter.get_total_flops()) if count_flops else float("nan"), result, wall)


@dataclass(frozen=True)
class StepCost:
    """What ``long - short`` more steps cost, per step: CPU core-seconds, FLOPs and (on a GPU) wall seconds."""

    seconds: float
    flops: float
    wall_seconds: float
    setup_seconds: float

    @staticmethod
    def between(a: DryRun, b: DryRun, fa: DryRun, fb: DryRun) -> "StepCost":
        n = b.steps - a.steps
        per = max(b.seconds - a.seconds, 0.0) / n
        return StepCost(per, max(fb.flops - fa.flops, 0.0) / n, max(b.wall_seconds - a.wall_seconds, 0.0) / n,
                        max(a.seconds - a.steps * per, 0.0))


def step_cost(exp: PaperExperiment, short: int, long: int, max_seeds: int | None, every) -> StepCost:
    """The cost of one step at the given cadences, from two dry runs of different lengths (and two counted
    ones for the FLOPs): the difference cancels data building and set-up."""
    runs = [dry_run(exp, n, max_seeds=max_seeds, every=every) for n in (short, long)]
    counted = [dry_run(exp, n, count_flops=True, max_seeds=max_seeds, every=every) for n in (short, long)]
    return StepCost.between(*runs, *counted)


@dataclass(frozen=True)
class Projection:
    experiment: PaperExperiment
    paper_steps: int
    seconds_per_step: float  # CPU core-seconds (summed over threads) of a step at the paper's cadences, this machine
    flops_per_step: float
    setup_seconds: float
    gpu_seconds_per_step: float = float("nan")  # wall clock per step on this machine's GPU; NaN without one
    train_seconds_per_step: float = float("nan")  # the training step alone (every evaluation off)
    evaluations: tuple = ()  # (cadence path, paper cadence, core-seconds per evaluation) per kind of evaluation
    basis: str = "measured"  # how the row was obtained: measured, or what was scaled or bounded

    @property
    def core_hours(self) -> float:
        return (self.setup_seconds + self.seconds_per_step * self.paper_steps) / 3600

    @property
    def gpu_hours(self) -> float:
        """The paper's steps at the measured GPU cost per step (setup not included); NaN without a GPU."""
        return self.gpu_seconds_per_step * self.paper_steps / 3600

    @property
    def h100_hours(self) -> float:
        per_step = max(self.flops_per_step / H100_FLOPS, H100_STEP_FLOOR_S)
        return per_step * self.paper_steps / 3600


def seed_factor(full, small) -> float:
    """How many times more runs ``full`` trains than ``small`` (its :func:`shrink` with ``max_seeds``):
    the product over seed-axis fields of their ratios. Runs are independent copies in one batch, so a
    step's cost scales with their number."""
    factor = 1.0
    for f in dataclasses.fields(full):
        a, b = getattr(full, f.name), getattr(small, f.name)
        if dataclasses.is_dataclass(a) and not isinstance(a, type):
            factor *= seed_factor(a, b)
        elif f.name in ("n_seeds", "n_nets") and isinstance(a, int):
            factor *= a / b
        elif f.name in SEED_FIELDS and isinstance(a, tuple) and len(b):
            factor *= len(a) / len(b)
    return factor


def _switchable(exp: PaperExperiment, path: str, steps: int) -> bool:
    """Whether the config accepts the cadence at ``path`` switched off (some validate it against the length)."""
    try:
        shrink(exp.build(), steps, every={**{k: 1 for k in cadences(exp.build())}, path: OFF})
    except ValueError:
        return False
    return True


def project(exp: PaperExperiment, short: int = 2, long: int = 6, max_seeds: int | None = 4) -> Projection:
    """The cost of the paper's run: a training step with every evaluation off, plus each kind of evaluation's
    cost (its dry run at cadence 1 minus the training step) divided by the paper's cadence for it.

    Each cost is the difference of two dry runs ``long - short`` steps apart. With ``max_seeds``, the dry
    runs train at most that many seeds (or networks) and the costs are scaled up by :func:`seed_factor`:
    the full seed axis of some paper runs (100 transformers, 250 Langevin networks) does not fit a
    laptop's memory even for one step. A cadence the config will not switch off (it checks it against the
    run's length) stays at 1 in the training step, which is then an upper bound, and the row says so."""
    full = exp.build()
    paper_steps = exp.paper_steps(full)
    factor = seed_factor(full, shrink(full, short, max_seeds)) if max_seeds else 1.0
    paper = cadences(full)
    off = {k: OFF for k in paper if _switchable(exp, k, long)}
    dry_run(exp, short, max_seeds=max_seeds)  # warm-up, discarded: first calls pay one-off costs (lazy init, caches)
    base = step_cost(exp, short, long, max_seeds, off)
    seconds, flops, wall = base.seconds, base.flops, base.wall_seconds
    evaluations = []
    for path in off:
        c = step_cost(exp, short, long, max_seeds, {**off, path: 1})
        per_eval = max(c.seconds - base.seconds, 0.0)
        evaluations.append((path, paper[path], factor * per_eval))
        seconds += per_eval / paper[path]
        flops += max(c.flops - base.flops, 0.0) / paper[path]
        wall += max(c.wall_seconds - base.wall_seconds, 0.0) / paper[path]
    basis = [f"seed axis scaled x{factor:g}"] if factor != 1 else []
    basis += [f"{k} at 1 (upper bound)" for k in paper if k not in off]
    # On a GPU the runs of a batch share its kernels, so the wall time is not scaled by the seed factor: a
    # step of the full batch costs at least what the cut batch's does (the column is then a lower bound).
    return Projection(exp, paper_steps, factor * seconds, factor * flops, base.setup_seconds,
                      wall if torch_cuda() else float("nan"), factor * base.seconds, tuple(evaluations),
                      "; ".join(basis) or "measured")


def torch_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def _hours(h: float) -> str:
    if h < 1 / 60:
        return f"{h * 3600:.0f} s"
    if h < 1:
        return f"{h * 60:.0f} min"
    return f"{h:,.1f} h"


def _evaluations(p: Projection) -> str:
    return ", ".join(f"{path.rsplit('.', 1)[-1]} {cost:.3g} s / {every:,}" for path, every, cost in p.evaluations) or "none"


def projection_table(projections: list[Projection]) -> str:
    """A Markdown table, one row per experiment: the training step, each evaluation at its paper cadence, and
    the step they make together, times the paper's steps (the table this command prints; book/running.md keeps
    the dated ones)."""
    gpu = any(math.isfinite(p.gpu_seconds_per_step) for p in projections)
    if gpu:  # measured on a GPU: its wall clock per step replaces the CPU columns (host time means little there)
        rows = ["| chapter | experiment | paper steps | GFLOP / step | GPU s / step (measured) | projected GPU hours "
                "| projected H100 (estimate) | basis |", "|---|---|---:|---:|---:|---:|---:|---|"]
    else:
        rows = ["| chapter | experiment | paper steps | GFLOP / step | CPU core-s / training step | evaluations "
                "(core-s each / every) | CPU core-s / step | projected CPU core-hours | projected H100 (estimate) "
                "| basis |", "|---|---|---:|---:|---:|---|---:|---:|---:|---|"]
    for p in projections:
        lead = f"| `{p.experiment.chapter}` | {p.experiment.name} | {p.paper_steps:,} | {p.flops_per_step / 1e9:,.2f} | "
        if gpu:
            rows.append(lead + f"{p.gpu_seconds_per_step:.3g} | {_hours(p.gpu_hours)} | {_hours(p.h100_hours)} | {p.basis} |")
        else:
            rows.append(lead + f"{p.train_seconds_per_step:.3g} | {_evaluations(p)} | {p.seconds_per_step:.3g} | "
                        f"{_hours(p.core_hours)} | {_hours(p.h100_hours)} | {p.basis} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.paper_scale", description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", help="only this chapter's experiments")
    parser.add_argument("--steps", type=int, nargs=2, default=(2, 6), metavar=("SHORT", "LONG"),
                        help="the two dry-run lengths whose difference gives the cost of a step (default 2 6)")
    parser.add_argument("--max-seeds", type=int, default=4,
                        help="seeds (networks) per dry run; the cost is scaled to the paper's count (default 4)")
    parser.add_argument("--out", type=Path, help="also write the table, with its date and machine, to this Markdown file")
    args = parser.parse_args(argv)
    if not 1 <= args.steps[0] < args.steps[1]:
        parser.error(f"--steps {args.steps[0]} {args.steps[1]}: need 1 <= SHORT < LONG")
    import torch

    with paper_scale_env():
        exps = experiments(args.chapter)
        projections = []
        for k, exp in enumerate(exps, 1):
            print(f"[{k}/{len(exps)}] {exp.chapter}: {exp.name}", file=sys.stderr, flush=True)
            projections.append(project(exp, *args.steps, max_seeds=args.max_seeds))
    where = (f"GPU: wall clock measured on this machine's {torch.cuda.get_device_name(0)}, the full seed axis a lower "
             "bound" if torch.cuda.is_available() else
             f"CPU: core-hours measured on this machine, {torch.get_num_threads()} threads")
    text = (f"Projected paper-scale cost, {time.strftime('%Y-%m-%d', time.gmtime())} ({where}, {cpu_name()}, torch "
            f"{torch.__version__}; H100: estimated from the FLOP count, see repro.book.paper_scale)\n\n"
            f"{projection_table(projections)}\n")
    print(text)
    if args.out:
        tmp = args.out.with_suffix(args.out.suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(args.out)  # atomic: a reader never sees half a table
    return 0


def cpu_name() -> str:
    """The CPU's model name (Linux), else the platform's processor string."""
    import platform

    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())

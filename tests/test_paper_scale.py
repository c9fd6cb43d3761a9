"""Every chapter's paper-scale experiments execute at the paper's shapes (``REPRO_SCALE=paper``), cut to
two training steps: the paper-scale switch is proven to run, not only to build configs."""

import math
from dataclasses import replace

import pytest
import torch

from repro.book import paper_scale as ps
from repro.experiments.mohamadi2024_why_grok import WhyGrokConfig
from repro.experiments.power2022_what_is_grokking import IntroConfig

EXPERIMENTS = ps.experiments()


def test_every_chapter_with_training_has_a_paper_scale_experiment():
    chapters = {e.chapter for e in EXPERIMENTS}
    assert chapters == {"power2022_what_is_grokking", "liu2022_effective_theory", "liu2022_critical_data",
                        "liu2022_phase_diagrams", "liu2022_transformer_and_images", "liu2023_omnigrok",
                        "rubin2024_droplets", "baek2024_geneft_information", "baek2024_geneft_dynamics",
                        "mohamadi2024_why_grok", "synthesis_one_task"}
    with pytest.raises(ValueError, match="chapter must be one of"):
        ps.experiments("no_such_chapter")


def test_shrink_cuts_lengths_only():
    paper = IntroConfig()
    small = ps.shrink(paper, 3)
    assert small.steps == 3 and small.eval_every == 1
    assert ps.shrink(paper, 3, every=ps.OFF).eval_every == ps.OFF
    assert ps.shrink(paper, 3, every={"eval_every": 7}).eval_every == 7
    assert (small.p, small.d_model, small.n_layers, small.batch_size) == (paper.p, paper.d_model, paper.n_layers,
                                                                          paper.batch_size)
    nested = ps.shrink(WhyGrokConfig(), 2)
    assert nested.class_steps == 2 and nested.regression.steps == 2 and nested.transformer.steps == 2
    assert nested.grok_p == WhyGrokConfig().grok_p
    from repro.experiments.liu2022_transformer_and_images import TransformerGrokConfig

    few = ps.shrink(TransformerGrokConfig(), 2, max_seeds=2)
    assert few.n_seeds == 2 and few.d_model == TransformerGrokConfig().d_model
    with pytest.raises(ValueError, match="config dataclass"):
        ps.shrink(IntroConfig, 2)


@pytest.mark.slow
@pytest.mark.parametrize("exp", EXPERIMENTS, ids=[f"{e.chapter}:{e.name}" for e in EXPERIMENTS])
def test_paper_scale_dry_run(exp):
    with ps.paper_scale_env():
        paper_cfg = exp.build()
        assert exp.paper_steps(paper_cfg) >= 1000  # the real config, not a book-scale one
        run = ps.dry_run(exp, steps=2, max_seeds=2)  # every paper shape; fewer copies of the batch axis
    assert run.result is not None and run.seconds >= 0


def test_cadences_are_found_by_dotted_path():
    why = WhyGrokConfig()
    found = ps.cadences(why)
    assert found["regression.eval_every"] == why.regression.eval_every
    assert all(v > 0 for v in found.values())
    assert "gap" not in found  # a phase criterion, not a cadence
    cut = ps.shrink(why, 2, every={"regression.eval_every": 5})
    assert cut.regression.eval_every == 5 and cut.transformer.eval_every == 1


def test_an_evaluation_is_charged_at_its_paper_cadence(monkeypatch):
    """The projection is training step + each evaluation's cost / its paper cadence: with a fake experiment
    whose dry run costs 1 s per step plus 10 s per evaluation, eval_every = 100 projects 1.1 s per step."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Fake:
        steps: int = 1000
        eval_every: int = 100

    exp = ps.PaperExperiment("fake", "fake", Fake, lambda cfg: None)

    def fake_dry_run(exp, steps, *, count_flops=False, max_seeds=None, every=1):
        cfg = ps.shrink(exp.build(), steps, max_seeds, every)
        evaluations = steps // cfg.eval_every + 1
        cost = 3.0 + steps + 10.0 * evaluations
        return ps.DryRun(exp, steps, cost, 2.0 * cost if count_flops else float("nan"), None, float("nan"))

    monkeypatch.setattr(ps, "dry_run", fake_dry_run)
    proj = ps.project(exp, 2, 6, max_seeds=None)
    assert proj.train_seconds_per_step == pytest.approx(1.0)
    assert proj.evaluations == (("eval_every", 100, pytest.approx(10.0)),)
    assert proj.seconds_per_step == pytest.approx(1.1)
    assert proj.basis == "measured"
    assert "eval_every 10 s / 100" in ps.projection_table([proj])


def test_projection_uses_two_lengths(monkeypatch):
    exp = next(e for e in EXPERIMENTS if e.chapter == "liu2022_effective_theory")
    with ps.paper_scale_env():
        proj = ps.project(exp, 1, 3)
    assert proj.paper_steps > 0
    assert proj.flops_per_step > 0 and proj.seconds_per_step >= 0
    table = ps.projection_table([proj])
    # measured on a GPU, the table's time columns are the GPU's wall clock instead of CPU core time
    assert "liu2022_effective_theory" in table
    assert ("projected GPU hours" if torch.cuda.is_available() else "core-hours") in table
    assert math.isnan(proj.gpu_seconds_per_step) == (not torch.cuda.is_available())


def test_a_gpu_measurement_replaces_the_cpu_columns():
    exp = next(e for e in EXPERIMENTS if e.chapter == "liu2022_effective_theory")
    proj = ps.Projection(exp, 10_000, 0.5, 2e9, 1.0, gpu_seconds_per_step=0.036, basis="measured")
    table = ps.projection_table([proj])
    assert "GPU s / step (measured)" in table and "core-hours" not in table
    assert "| 0.036 | 6 min |" in table  # 10,000 steps at 36 ms
    assert "core-hours" in ps.projection_table([replace(proj, gpu_seconds_per_step=float("nan"))])

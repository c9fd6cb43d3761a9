"""Fig. 4(b) fraction sweep: the results-store round trip, the CLI, and the transition count."""
from dataclasses import replace

import numpy as np
import pytest

from repro.experiments.liu2022_critical_data import (SWEEP_LABEL, FractionSweep, ToyConfig, main, paper_sweep_config,
                                                     run_fraction_sweep, stored_fraction_sweep, sweep_label)
from repro.training.store import ResultsStore, StoreMismatch


def tiny_config() -> ToyConfig:
    return replace(ToyConfig(), train_counts=(20, 45), seeds=(0, 1), sweep_steps=30, eval_every=10)


def test_paper_defaults_follow_the_official_fig4b_driver():
    """Official toy/produce_figure_data.py (train_many_fig4): sizes 5, 10, ..., 50, 54, 10^4 steps, every step
    evaluated; ten seeds (the driver ran three, the paper does not say)."""
    cfg = ToyConfig()
    assert cfg.train_counts == (5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 54)
    assert cfg.sweep_steps == 10_000 and cfg.eval_every == 1 and len(cfg.seeds) == 10
    assert cfg.rqi_threshold == 0.95


def test_store_round_trip_of_a_tiny_sweep(tmp_path):
    cfg = tiny_config()
    sweep = run_fraction_sweep(cfg, progress=False)
    assert stored_fraction_sweep(cfg, tmp_path) is None
    ResultsStore(tmp_path).save(cfg, sweep.to_arrays(), label=sweep_label(cfg))
    loaded, manifest = stored_fraction_sweep(cfg, tmp_path)
    assert manifest["key"] and loaded.steps == sweep.steps == cfg.sweep_steps
    for name in FractionSweep.ARRAYS + FractionSweep.OPTIONAL:
        assert np.array_equal(getattr(loaded, name), getattr(sweep, name)), name
    assert np.array_equal(loaded.success_rate()[1], sweep.success_rate()[1])
    # a different config is not served from this entry; a forged config file is refused
    assert stored_fraction_sweep(replace(cfg, seeds=(0, 1, 2)), tmp_path) is None
    folder = ResultsStore(tmp_path).path(cfg, sweep_label(cfg))
    text = (folder / "config.json").read_text().replace('"sweep_steps": 30', '"sweep_steps": 31')
    (folder / "config.json").write_text(text)
    with pytest.raises(StoreMismatch, match="sweep_steps"):
        stored_fraction_sweep(cfg, tmp_path)


def test_from_arrays_refuses_missing_or_misshapen_arrays():
    cfg = tiny_config()
    arrays = {name: np.zeros(4) for name in FractionSweep.ARRAYS}
    assert FractionSweep.from_arrays(cfg, arrays).steps == cfg.sweep_steps
    with pytest.raises(ValueError, match="lacks arrays"):
        FractionSweep.from_arrays(cfg, {"counts": np.zeros(4)})
    with pytest.raises(ValueError, match="shape"):
        FractionSweep.from_arrays(replace(cfg, seeds=(0, 1, 2)), arrays)


def test_transition_count_is_the_start_of_the_last_run_of_majorities():
    cfg = replace(tiny_config(), train_counts=(10, 20, 30, 40), seeds=(0, 1))
    steps = np.array([5, -1,  -1, -1,  5, 5,  -1, 5])  # shares 0.5, 0, 1, 0.5
    sweep = FractionSweep(cfg, counts=np.repeat([10, 20, 30, 40], 2), seeds=np.tile([0, 1], 4),
                          accuracy=np.zeros(8), predicted_accuracy=np.zeros(8), final_rqi=np.zeros(8),
                          rqi_step=steps, grokking_rate=np.zeros(8), theory_steps=np.zeros(8), steps=30)
    assert sweep.transition_count(0.5) == 30
    assert sweep.transition_count(1.0) == -1
    with pytest.raises(ValueError, match="share"):
        sweep.transition_count(0)


def test_cli_requires_a_store_folder():
    with pytest.raises(SystemExit):
        main([])


def test_wilson_interval_known_values():
    from repro.experiments.liu2022_critical_data import binomial_interval

    lo, hi = binomial_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)  # 1.96^2 / (10 + 1.96^2)
    lo, hi = binomial_interval(np.array([5]), np.array([10]))
    assert lo[0] == pytest.approx(1 - hi[0]) and lo[0] == pytest.approx(0.2366, abs=1e-4)
    with pytest.raises(ValueError, match="successes"):
        binomial_interval(11, 10)


def test_transition_size_and_its_bootstrap():
    from repro.experiments.liu2022_critical_data import transition_size

    assert transition_size([5, 10, 15], [0.6, 0.2, 0.5]) == 15
    assert transition_size([5, 10, 15], [0.6, 0.7, 0.5]) == 5
    with pytest.raises(ValueError, match="increasing"):
        transition_size([10, 5], [0.5, 0.5])
    cfg = replace(tiny_config(), train_counts=(10, 20), seeds=(0, 1, 2, 3))
    sweep = FractionSweep(cfg, counts=np.repeat([10, 20], 4), seeds=np.tile(np.arange(4), 2),
                          accuracy=np.zeros(8), predicted_accuracy=np.zeros(8), final_rqi=np.zeros(8),
                          rqi_step=np.array([-1, -1, -1, -1, 5, 5, 5, 5]), grokking_rate=np.zeros(8),
                          theory_steps=np.zeros(8), steps=30)
    boot = sweep.bootstrap_transition(n_boot=50)
    assert boot.shape == (50,) and (boot == 20).all()  # no resample can change an all-or-nothing count


def test_official_order_sweep_runs_are_the_official_runs_of_their_seeds():
    """rng_order='official': each (size, seed) run of the batched sweep is the run toy_runs draws for that seed alone
    (the minibatching sizes train in their own group), and the official data's steps convert to ours."""
    from repro.data.tasks import toy_runs
    from repro.experiments.liu2022_critical_data import official_comparison
    from repro.training.trainer import BatchSchedule, Performance, train

    cfg = replace(ToyConfig(), train_counts=(40, 50), seeds=(0, 1), sweep_steps=40, eval_every=10, fig3_steps=20)
    sweep = run_fraction_sweep(cfg, progress=False)
    assert sweep.counts.tolist() == [40, 40, 50, 50] and sweep.seeds.tolist() == [0, 1, 0, 1]
    runs = toy_runs(cfg.task(), (50,), (1,), batch_size=45, steps=40)
    alone = train(cfg.model_config(), runs.data, replace(cfg.train_config(40), batch_size=45, init_seed=1),
                  split=(runs.train_mask, ~runs.train_mask), components=(BatchSchedule(runs.batches),),
                  performance=Performance(progress=False))
    acc = (alone["train_acc"][0, -1] * 50 + alone["val_acc"][0, -1] * 5) / 55
    assert sweep.accuracy[3] == pytest.approx(acc, abs=1e-12)
    comparison = official_comparison(sweep)
    assert comparison.counts.tolist() == [40, 40, 50, 50]
    assert comparison.official_step.tolist() == [867, -1, 1011, 1272]  # 9999 (never) becomes -1
    assert comparison.official_correct.tolist() == [50, 43, 53, 53]
    with pytest.raises(ValueError, match="rng_order='official'"):
        official_comparison(replace(sweep, config=paper_sweep_config("shared_templates")))


def test_official_comparison_statistics():
    from repro.experiments.liu2022_critical_data import OfficialComparison

    c = OfficialComparison(counts=np.array([40, 45, 50, 54]), seeds=np.zeros(4, int),
                           official_step=np.array([100, -1, 1000, 50]), our_step=np.array([110, -1, 1000, -1]),
                           official_correct=np.array([50, 51, 52, 53]), our_correct=np.array([50, 51, 52, 54]))
    assert c.outcome_agreement == 0.75 and c.accuracy_agreement == 0.75
    assert c.median_abs_log_ratio == pytest.approx(np.median([np.log10(1.1), 0.0]))


def test_shared_templates_order_trains_full_batch():
    with pytest.raises(ValueError, match="batch_size=45 is not allowed"):
        replace(ToyConfig(), rng_order="shared_templates")
    with pytest.raises(ValueError, match="rng_order"):
        replace(ToyConfig(), rng_order="numpy")
    assert paper_sweep_config("shared_templates").batch_size is None


def test_onset_count_is_the_first_count_with_a_success():
    cfg = replace(ToyConfig(), train_counts=(10, 20, 30), seeds=(0, 1))
    steps = np.array([-1, -1, -1, 500, 800, -1])
    sweep = FractionSweep(config=cfg, counts=np.array([10, 10, 20, 20, 30, 30]), seeds=np.array([0, 1] * 3),
                          accuracy=np.zeros(6), predicted_accuracy=np.zeros(6), final_rqi=np.zeros(6), rqi_step=steps,
                          grokking_rate=np.zeros(6), theory_steps=np.zeros(6), steps=1000)
    assert sweep.onset_count() == 20
    assert replace(sweep, rqi_step=np.full(6, -1)).onset_count() == -1


def test_confirmation_config_is_the_book_sweep_on_fresh_seeds(monkeypatch):
    """The confirmation (T27, T28) is the live book-scale sweep with only its seeds replaced, by seeds that neither
    the book-scale sweep nor the stored paper-scale sweeps (seeds 0-9) ever ran."""
    from repro.experiments.liu2022_critical_data import CONFIRM_SEEDS, confirmation_config

    monkeypatch.setenv("REPRO_SCALE", "book")
    book, cfg = ToyConfig.for_scale(), confirmation_config()
    assert book == ToyConfig.book_config()
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    assert confirmation_config() == cfg  # whatever the active scale
    assert cfg == replace(book, seeds=CONFIRM_SEEDS) and len(cfg.seeds) == len(book.seeds)
    assert not set(cfg.seeds) & (set(book.seeds) | set(ToyConfig().seeds) | set(paper_sweep_config().seeds))


def test_confirmation_is_stored_under_its_own_label(tmp_path):
    from repro.experiments.liu2022_critical_data import CONFIRM_LABEL, confirmation_config, stored_confirmation

    cfg = confirmation_config()
    assert stored_confirmation(tmp_path) is None
    n = len(cfg.train_counts) * len(cfg.seeds)
    arrays = {name: np.arange(n, dtype=float) for name in FractionSweep.ARRAYS}
    ResultsStore(tmp_path).save(cfg, arrays, label=CONFIRM_LABEL)
    sweep, manifest = stored_confirmation(tmp_path)
    assert manifest["label"] == CONFIRM_LABEL and sweep.config == cfg and sweep.steps == cfg.sweep_steps
    assert np.array_equal(sweep.rqi_step, arrays["rqi_step"])
    with pytest.raises(SystemExit):
        main(["--store", str(tmp_path), "--run", "confirm", "--order", "shared_templates"])


def test_book_statistics_reads_the_gap_per_seed_and_the_spearman_with_a_seed_bootstrap():
    from scipy.stats import spearmanr

    from repro.book.claims import seed_standard_error
    from repro.experiments.liu2022_critical_data import ACC_GAP, STEPS_SPEARMAN, book_statistics

    cfg = replace(ToyConfig(), train_counts=(10, 25, 40), seeds=(3, 7))
    counts, seeds = np.repeat([10, 25, 40], 2), np.tile([3, 7], 3)
    acc = np.array([0.2, 0.3, 0.6, 0.9, 1.0, 1.0])
    hat = np.array([0.2, 0.1, 0.5, 0.9, 1.0, 0.8])  # gaps 0, .2, .1, 0, 0, .2: seed 3 -> 1/30, seed 7 -> 0.4/3
    steps = np.array([-1, -1, -1, 900, 400, 500])
    sweep = FractionSweep(cfg, counts=counts, seeds=seeds, accuracy=acc, predicted_accuracy=hat, final_rqi=np.zeros(6),
                          rqi_step=steps, grokking_rate=np.zeros(6), theory_steps=np.zeros(6), steps=1000)
    stats = book_statistics(sweep)
    assert set(stats) == {ACC_GAP, STEPS_SPEARMAN}
    gap = stats[ACC_GAP]
    assert gap["ours"] == pytest.approx(0.5 / 6) and gap["statistic"] == "mean"
    assert gap["seeds"] == pytest.approx([0.1 / 3, 0.4 / 3]) and np.mean(gap["seeds"]) == pytest.approx(gap["ours"])
    assert seed_standard_error(gap["seeds"]) > 0
    rho = stats[STEPS_SPEARMAN]
    keep = counts >= 22  # failed runs count as the budget
    assert rho["ours"] == pytest.approx(spearmanr(counts[keep], [1000, 900, 400, 500]).statistic)
    assert rho["spread"] is not None and rho["spread"] >= 0
    one_seed = replace(sweep, counts=counts[::2], seeds=seeds[::2], accuracy=acc[::2], predicted_accuracy=hat[::2],
                       rqi_step=steps[::2])
    assert book_statistics(one_seed)[STEPS_SPEARMAN]["spread"] is None  # one seed measures no spread
    with pytest.raises(ValueError, match="same number of runs"):
        book_statistics(replace(sweep, seeds=np.array([3, 3, 3, 7, 7, 3])))


def test_confirmation_claims_copy_the_live_criteria():
    """T27, T28 are T12, T15 with the same criterion, on the stored confirmation run; the paper claims list them."""
    from pathlib import Path

    from repro.core.registry import Registry
    from repro.experiments.liu2022_critical_data import ACC_GAP, CONFIRM_LABEL, CONFIRM_PREFIX, STEPS_SPEARMAN

    registry = Registry.load("liu2022_critical_data", Path(__file__).resolve().parents[1] / "book" / "_registry")
    for live, new, paper in (("T12", "T27", "C1"), ("T15", "T28", "C7")):
        a, b = registry.by_id[live], registry.by_id[new]
        assert b.name == CONFIRM_PREFIX + a.name and a.name in (ACC_GAP, STEPS_SPEARMAN)
        # the criterion as registered (a kind re-labelled by its outcome keeps the registered one in its seal)
        assert {k: v for k, v in a.criterion().items() if k != "name"} == {k: v for k, v in b.criterion().items()
                                                                            if k != "name"}
        for field in ("form", "against", "reference", "comparison", "tolerance", "locator", "source", "resolution"):
            assert getattr(a, field) == getattr(b, field), field
        assert b.runs == (CONFIRM_LABEL,) and not a.runs and not b.amended and all(m.outcome for m in b.amendments)
        assert {live, new} <= set(registry.paper_claims[paper].tests)

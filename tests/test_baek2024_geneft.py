"""The phase-diagram trainer of the GenEFT dynamics chapter (repro.experiments.baek2024_geneft.train_until_decided) against the
general autograd trainer (repro.training.relation_runs.train_relations)."""
from dataclasses import replace

import numpy as np
import pytest

from repro.data.relations import relation_matrix, train_mask
from repro.experiments.baek2024_geneft import PhaseConfig, run_phases, train_until_decided
from repro.models.networks import RelationModelConfig
from repro.training.relation_runs import RelationTrainConfig, train_relations


def _runs(n=8, runs=6, fractions=(0.75,)):
    rels = ("mod3", "greater_than", "bipartite")
    labels = np.stack([relation_matrix(rels[r % 3], n).ravel() for r in range(runs)])
    masks = np.stack([train_mask(n * n, fractions[r % len(fractions)], r) for r in range(runs)])
    rng = np.random.default_rng(0)
    kwargs = dict(lr_enc=10.0 ** rng.uniform(-2.5, -1.5, runs), lr_dec=10.0 ** rng.uniform(-2.5, -1.5, runs),
                  wd_dec=np.where(np.arange(runs) % 2 == 0, 0.0, 0.5), init_seeds=list(range(runs)))
    return labels, masks, kwargs


@pytest.mark.slow
@pytest.mark.parametrize("fractions", [(0.75,), (0.75, 0.5)])  # equal and unequal training sets (padding)
def test_matches_autograd_trainer_in_float64(fractions):
    model = RelationModelConfig(n=8, width=6, hidden_layers=2)
    labels, masks, kwargs = _runs(fractions=fractions)
    cfg = RelationTrainConfig(steps=120, eval_every=10, dtype="float64")
    ref = train_relations(model, labels, masks, cfg=cfg, **kwargs)
    full = train_until_decided(model, labels, masks, cfg=cfg, stop=False, record=True, **kwargs)
    np.testing.assert_array_equal(full.steps, ref.steps)
    np.testing.assert_allclose(full.train_acc_history, ref.train_acc, atol=1e-12)
    np.testing.assert_allclose(full.test_acc_history, ref.test_acc, atol=1e-12)
    np.testing.assert_array_equal(full.first_train, ref.first_step("train_acc", 0.9))
    np.testing.assert_array_equal(full.first_test, ref.first_step("test_acc", 0.9))
    np.testing.assert_allclose(full.test_acc, ref.test_acc[:, -1], atol=1e-12)
    # stopping decided runs changes nothing for the others, and nothing in what the phase rule reads
    stopped = train_until_decided(model, labels, masks, cfg=cfg, record=True, **kwargs)
    np.testing.assert_array_equal(stopped.first_train, full.first_train)
    np.testing.assert_array_equal(stopped.first_test, full.first_test)
    decided = (full.first_train >= 0) & (full.first_test >= 0)
    assert decided.any() and (~decided).any()  # the test exercises both kinds of run
    np.testing.assert_array_equal(stopped.stopped_at[decided],
                                  np.maximum(full.first_train, full.first_test)[decided])
    assert (stopped.stopped_at[~decided] == cfg.steps).all()
    ok = ~np.isnan(stopped.test_acc_history)
    np.testing.assert_array_equal(stopped.test_acc_history[ok], full.test_acc_history[ok])


def test_three_hidden_layers_and_float32_agree_with_autograd():
    model = RelationModelConfig(n=8, width=5, hidden_layers=3)
    labels, masks, kwargs = _runs()
    cfg = RelationTrainConfig(steps=40, eval_every=10)
    ref = train_relations(model, labels, masks, cfg=cfg, **kwargs)
    ours = train_until_decided(model, labels, masks, cfg=cfg, stop=False, record=True, **kwargs)
    # float32: the two differ by rounding, so at most a pair or two flips
    assert np.abs(ours.test_acc_history - ref.test_acc).max() <= 2 / masks.shape[1]


def test_validation():
    labels, masks, kwargs = _runs()
    cfg = RelationTrainConfig(steps=2)
    with pytest.raises(ValueError, match="mode"):
        train_until_decided(RelationModelConfig(n=8, mode="difference"), labels, masks, cfg=cfg, **kwargs)
    with pytest.raises(ValueError, match="hidden_layers"):
        train_until_decided(RelationModelConfig(n=8, hidden_layers=0), labels, masks, cfg=cfg, **kwargs)
    with pytest.raises(ValueError, match="lr_dec"):
        train_until_decided(RelationModelConfig(n=8), labels, masks, cfg=cfg, **{**kwargs, "lr_dec": [1e-3]})
    with pytest.raises(ValueError, match="masks"):
        train_until_decided(RelationModelConfig(n=8), labels, np.zeros_like(masks), cfg=cfg, **kwargs)


def test_run_phases_smoke():
    grid = (1e-3, 1e-2)
    cfg = PhaseConfig(row_values=grid, lr_dec=grid, relations=("mod3", "bipartite"), width=4, steps=30, eval_every=10,
                      seeds=(0, 1))
    result = run_phases(cfg)
    for rel in cfg.relations:
        assert result.phases[rel].shape == (2, 2, 2)
        assert set(result.phases[rel].ravel()) <= {"comprehension", "grokking", "memorization", "confusion"}
        assert result.test_acc[rel].shape == (2, 2, 2)
        # one example run per phase the map shows, really in that phase, with its curves
        assert set(result.examples[rel]) == set(result.majority_phase(rel).ravel())
        for phase, ex in result.examples[rel].items():
            s, iy, ix = cfg.seeds.index(ex.seed - cfg.init_seed), grid.index(ex.cell["enc. lr"]), grid.index(ex.cell["dec. lr"])
            assert result.phases[rel][s, iy, ix] == phase
            assert ex.train_acc.shape == ex.val_acc.shape == ex.steps.shape
    from repro.plotting.baek2024_geneft import plot_phase_curves

    assert len(plot_phase_curves(result).axes) == 4 * len(cfg.relations)


def test_depth_sweep_round_trips_through_the_store(tmp_path):
    from dataclasses import replace

    from repro.experiments.baek2024_geneft import DepthResult, run_depth, stored_depth, stored_depth_config
    from repro.training.store import ResultsStore

    cfg = replace(stored_depth_config(), depths=(0, 1), data_seeds=(0, 1), steps=20, eval_every=10)
    res = run_depth(cfg)
    ResultsStore(tmp_path).get_or_compute(cfg, res.to_arrays, label="geneft-depth")
    loaded, manifest = stored_depth(cfg, tmp_path)
    assert (loaded.test_acc == res.test_acc).all() and (loaded.train_acc == res.train_acc).all()
    assert stored_depth(replace(cfg, steps=21), tmp_path) is None
    with pytest.raises(ValueError, match="train_acc"):
        DepthResult.from_arrays(cfg, {"test_acc": res.test_acc})


def test_phase_diagram_round_trips_through_the_store(tmp_path):
    from dataclasses import replace

    from repro.experiments.baek2024_geneft import run_phases, stored_fig6_config, stored_phases
    from repro.training.store import ResultsStore

    cfg = replace(stored_fig6_config(), relations=("mod3", "bipartite"), row_values=(0.0, 1.0), lr_dec=(1e-3, 1e-2),
                  steps=30, eval_every=10, seeds=(0, 1))
    res = run_phases(cfg)
    ResultsStore(tmp_path).get_or_compute(cfg, res.to_arrays, label="geneft-phases")
    loaded, _ = stored_phases(cfg, tmp_path)
    for rel in cfg.relations:
        assert (loaded.phases[rel] == res.phases[rel]).all() and (loaded.test_acc[rel] == res.test_acc[rel]).all()
    assert stored_phases(replace(cfg, steps=31), tmp_path) is None


# ------------------------------------------------------------------ phase diagrams over seeds (repro.experiments.baek2024_geneft)


def _synthetic_phases(boundaries):
    """A Fig. 5 PhaseResult whose seed k generalizes at encoder-lr row >= boundaries[k][column] (else memorizes)."""
    from repro.experiments.baek2024_geneft import PhaseConfig, PhaseResult

    grid = tuple(10.0 ** np.arange(-4, -1.4, 0.5))
    cfg = PhaseConfig(row_values=grid, lr_dec=grid, relations=("mod3",), seeds=tuple(range(len(boundaries))), steps=10)
    ph = np.empty((len(boundaries), 6, 6), dtype=object)
    for k, cols in enumerate(boundaries):
        for j, first in enumerate(cols):
            ph[k, :, j] = ["memorization" if i < first else "comprehension" for i in range(6)]
    return PhaseResult(cfg, {"mod3": ph}, {"mod3": np.zeros((len(boundaries), 6, 6))})


def test_fit_boundary_pools_seeds_and_fits_each_seed():
    from repro.experiments.baek2024_geneft import fit_boundary

    # seed 0: boundary rises one row per column (slope 1); seed 1: the same, one row higher from column 3
    result = _synthetic_phases([[0, 1, 2, 3, 4, 5], [0, 1, 2, 4, 5, 6]])
    fit = fit_boundary(result)
    # column 0 of both seeds and the last column of seed 1 have one phase only: not clean
    np.testing.assert_array_equal(fit.seed_columns, [5, 4])
    assert fit.seed_slopes[0] == pytest.approx(1.0)
    assert fit.seed_slopes[1] > 1.0
    assert fit.seed_slopes[0] < fit.slope < fit.seed_slopes[1]
    assert len(fit.points["mod3"][0]) == 9
    # the seed bootstrap: every resampling lies between the two seeds' own slopes, and it spreads
    assert np.all((fit.boot_slopes >= fit.seed_slopes[0] - 1e-9) & (fit.boot_slopes <= fit.seed_slopes[1] + 1e-9))
    assert np.std(fit.boot_slopes) > 0
    same = fit_boundary(_synthetic_phases([[0, 1, 2, 3, 4, 5]] * 3))
    np.testing.assert_allclose(same.boot_slopes, same.slope)  # identical seeds: no seed spread


def test_majority_phase_fraction_and_memorization_onset():
    from repro.experiments.baek2024_geneft import memorization_onset

    result = _synthetic_phases([[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [6, 6, 6, 6, 6, 6]])
    assert result.majority_phase("mod3")[2, 1] == "comprehension"
    assert result.majority_phase("mod3")[0, 3] == "memorization"
    assert result.generalized_fraction("mod3")[2, 1] == pytest.approx(2 / 3)
    onset = memorization_onset(result, "mod3")
    assert onset.shape == (3, 6)
    assert np.isnan(onset[0, 5])  # the top row of seed 0 never memorizes
    assert onset[2, 0] == pytest.approx(-4.0)


def test_onsets_sit_on_the_grid_and_place_rows_without_one_beyond_it():
    """onsets: the one reading of Fig. 6's onsets, checked by hand on the synthetic diagram above: seeds 0 and 1
    memorize row i from column i + 1 (row 5 never), seed 2 memorizes every row from column 0 (log10 lr = -4)."""
    from repro.experiments.baek2024_geneft import onsets

    on = onsets(_synthetic_phases([[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], [6, 6, 6, 6, 6, 6]]), "mod3")
    # exactly on the half-decade grid (rounded): no last bit left from computing the powers of ten
    np.testing.assert_array_equal(on.per_seed[0], [-3.5, -3.0, -2.5, -2.0, -1.5, np.nan])
    np.testing.assert_array_equal(on.per_seed[2], [-4.0] * 6)
    np.testing.assert_array_equal(on.median, [-3.5, -3.0, -2.5, -2.0, -1.5, np.inf])  # row 5: two of three never
    assert on.beyond == -1.25  # half a grid step beyond the largest rate, 10^-1.5
    np.testing.assert_array_equal(on.rows, [-3.5, -3.0, -2.5, -2.0, -1.5, -1.25])
    assert on.spread() == 2.25 and on.spread([True, True, True, False, False, False]) == 1.0
    np.testing.assert_array_equal(on.seed_spread, [2.25, 2.25, 0.0])


def test_deep_depth_entries_checkpoint_and_join(tmp_path):
    """Fig. 4's deep end at the paper's horizon is stored one resumable entry per depth: a checkpointed depth run
    gives the very numbers of an uncheckpointed one; several depths (or depth 0) cannot share a checkpoint; the
    entries join only when every depth is stored."""
    from repro.experiments.baek2024_geneft import (DEEP_DEPTHS, DepthConfig, deep_depth_config, run_depth,
                                                   stored_deep_depths)
    from repro.training.checkpoint import Checkpointer

    cfg = DepthConfig(relations=("mod3",), depths=(2,), data_seeds=(0, 1), steps=40, eval_every=20, dtype="float64")
    plain = run_depth(cfg)
    saved = run_depth(cfg, checkpoint=Checkpointer(tmp_path / "d.partial", every_s=0))
    np.testing.assert_array_equal(plain.test_acc, saved.test_acc)
    np.testing.assert_array_equal(plain.train_acc, saved.train_acc)
    for bad in (replace(cfg, depths=(1, 2)), replace(cfg, depths=(0,))):
        with pytest.raises(ValueError, match="one depth >= 1"):
            run_depth(bad, checkpoint=Checkpointer(tmp_path / "x.partial"))
    assert stored_deep_depths(tmp_path) is None
    c = deep_depth_config(DEEP_DEPTHS[-1])
    assert (c.depths, c.steps, len(c.data_seeds)) == ((12,), 100_000, 10)
    with pytest.raises(ValueError, match="depth"):
        deep_depth_config(5)


# ------------------------------------------------------------------ the live comparisons' stored confirmation


def test_confirmation_config_is_the_book_scale_with_fresh_seeds(monkeypatch):
    from dataclasses import replace

    from repro.experiments.baek2024_geneft import DataSizeConfig, DepthConfig, confirmation_config

    monkeypatch.setenv("REPRO_SCALE", "smoke")  # the confirmation is the book scale whatever the scale
    cfg = confirmation_config()
    live = (DataSizeConfig.book_scale(), DepthConfig.book_scale())
    for ours, book in zip((cfg.sizes, cfg.depth), live):
        assert replace(ours, data_seeds=book.data_seeds) == book
        assert len(ours.data_seeds) == len(book.data_seeds)
        assert min(ours.data_seeds) >= 1000  # the chapter's runs use data seeds 0-9, initializations 0-10
    inits = [cfg.sizes.init_seed + s for s in cfg.sizes.data_seeds] + [cfg.depth.init_seed + s for s in cfg.depth.data_seeds]
    assert len(set(inits)) == len(inits) and min(inits) > 10


def test_confirmation_round_trips_and_gives_the_book_statistics(tmp_path):
    from repro.experiments.baek2024_geneft import (CONFIRM_LABEL, BoundConfig, BoundResult, ConfirmationConfig,
                                                   DataSizeConfig, DepthConfig, book_statistics, run_confirmation,
                                                   stored_confirmation)
    from repro.training.store import ResultsStore

    cfg = ConfirmationConfig(
        sizes=DataSizeConfig(fractions=(0.1, 0.5), architectures=((1, 4, "concat", 2), (0, 1, None, 2), (0, 1, None, 1)),
                             data_seeds=(1000, 1001), steps=10, eval_every=5),
        depth=DepthConfig(depths=(0, 1), data_seeds=(1010, 1011), steps=10, eval_every=5, dtype="float64"))
    res = run_confirmation(cfg)
    ResultsStore(tmp_path).get_or_compute(cfg, res.to_arrays, label=CONFIRM_LABEL)
    loaded, manifest = stored_confirmation(tmp_path, cfg)
    assert manifest["label"] == CONFIRM_LABEL and loaded.sizes.labels == res.sizes.labels
    for key, acc in res.sizes.accuracy.items():
        assert (loaded.sizes.accuracy[key] == acc).all()
    assert (loaded.depth.train_acc == res.depth.train_acc).all()
    assert stored_confirmation(tmp_path / "none", cfg) is None

    bcfg = BoundConfig(fractions=(0.0, 1.0), data_seeds=(0,))
    bound = BoundResult(bcfg, {r: np.array([[0.5], [1.0]]) for r in bcfg.relations}, {})
    stats = book_statistics(loaded.sizes, loaded.depth, bound)
    assert len(stats) == 7
    ours, per_seed = stats["induction gap: generic minus inductive-bias network (d=2), mod 3"]
    acc = loaded.sizes.accuracy
    np.testing.assert_allclose(per_seed, (acc["mod3", 1] - acc["mod3", 0]).mean(0), atol=1e-12)  # the bound cancels
    assert ours == pytest.approx(per_seed.mean())
    ours, per_seed = stats["depth 0 training accuracy, bipartite (confusion)"]
    assert (per_seed == loaded.depth.train_acc[3, 0]).all() and ours == np.median(per_seed)

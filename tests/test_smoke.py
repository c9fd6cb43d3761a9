"""Every chapter's live experiments at ``REPRO_SCALE=smoke``: one test per chapter (``book/<stem>.py``, the
status page excepted: it computes nothing), making the calls the chapter makes on its live runs (configs from
``for_scale()``, the run functions, the analysis and the plots of those runs), not the stored runs it loads.
Each checks the shapes the chapter indexes and that the numbers are finite where the chapter needs them to be.

The chapters' nbval runs check the book-scale numbers; this file checks, in about a minute, that a change to
``repro`` leaves every chapter's code path runnable (the smoke sizes are in each config's ``for_scale``)."""
import pytest
from dataclasses import replace

import matplotlib

matplotlib.use("Agg")  # no display: figures are built, not shown
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from repro.book.manifest import stems  # noqa: E402
from repro.core.scale import by_scale, current_scale  # noqa: E402

CHAPTERS = tuple(stems())  # book/_chapters.toml


@pytest.fixture(autouse=True)
def smoke(monkeypatch):
    monkeypatch.setenv("REPRO_SCALE", "smoke")
    monkeypatch.setenv("REPRO_PROGRESS", "0")
    monkeypatch.delenv("REPRO_MNIST_DIR", raising=False)  # smoke image runs use the bundled digits
    assert current_scale() == "smoke"
    yield
    plt.close("all")


def test_every_chapter_has_a_smoke_test():
    from pathlib import Path

    stems = {p.stem for p in (Path(__file__).resolve().parents[1] / "book").glob("*.py")} - {"conftest", "status"}
    assert stems == set(CHAPTERS)
    assert {f"test_{s}" for s in CHAPTERS} <= set(globals())


def _finite(*arrays):
    for a in arrays:
        assert np.all(np.isfinite(np.asarray(a, dtype=float))), a


def _steps(a, budget):
    """First-crossing steps: -1 (never) or within the training budget."""
    a = np.asarray(a)
    assert np.all((a == -1) | ((a >= 0) & (a <= budget))), a


def _accuracy(a):
    a = np.asarray(a, dtype=float)
    assert np.all((a >= 0) & (a <= 1)), a


@pytest.mark.slow
def test_power2022_what_is_grokking():
    from repro.experiments.power2022_what_is_grokking import IntroConfig, run_intro
    from repro.plotting.power2022_what_is_grokking import plot_intro

    cfg = IntroConfig.for_scale()
    data = cfg.task_data()
    assert data.n_samples == cfg.p * (cfg.p + 1) // 2
    result = run_intro(cfg)
    h = result.history
    n_evals = len(h.steps)
    assert h["val_acc"].shape == h["train_acc"].shape == (cfg.n_seeds, n_evals)
    _accuracy(h["val_acc"])
    assert result.embeddings.shape[:3] == (cfg.n_seeds, n_evals, cfg.p)
    stats = result.summary(circle_bound=0.9)
    assert stats.n == cfg.n_seeds and stats.fit_end.shape == (cfg.n_seeds,)
    _steps(stats.train_steps, cfg.steps)
    _steps(stats.val_steps, cfg.steps)
    _finite(stats.fit_end, stats.fit_init, stats.final_val_acc)
    plot_intro(result)


@pytest.mark.slow
def test_liu2022_effective_theory():
    from repro.experiments.liu2022_effective_theory import (Fig2Config, fig2_data, initial_embeddings,
                                                            integrate_from_starts, unseen_validation)
    from repro.plotting.liu2022_effective_theory import plot_integrators
    from repro.experiments.liu2022_critical_data import ToyConfig, effective_rqi_steps, run_reference, run_seed_spread
    from repro.plotting.liu2022_critical_data import plot_embedding_comparison, plot_seed_spread, plot_trajectories
    from repro.experiments.liu2022_effective_theory_s3 import S3Config, hexagon_shape, run_s3_sweep
    from repro.plotting.liu2022_effective_theory_s3 import plot_s3
    from repro.metrics.representation import pca
    from repro.theory import liu2022 as theory

    cfg = ToyConfig.for_scale()
    ref_cfg = replace(cfg, reference_steps=by_scale(book=ToyConfig().reference_steps, paper=ToyConfig().reference_steps,
                                                    smoke=cfg.reference_steps))
    assert theory.rqi(2.0 + 0.3 * np.arange(cfg.p), None, cfg.p) == 1.0
    ref = run_reference(ref_cfg)
    assert len(theory.parallelograms(ref.train_pairs, cfg.p)) > 0
    assert ref.rqi.shape == ref.effective_rqi.shape
    _finite(ref.rqi, ref.effective_rqi, ref.n_h)
    plot_trajectories(ref)
    spread = run_seed_spread(replace(ref, config=cfg))
    assert spread.rqi_curves.shape == (len(spread.seeds), len(spread.steps))
    starts_seeds = (58, 0, 1, 2)  # the chapter's smoke STARTS
    starts = integrate_from_starts(initial_embeddings(cfg.model_config(), starts_seeds)[..., 0], ref.train_pairs, cfg.p,
                                   lr=cfg.lr_repr, steps=cfg.effective_steps, record_every=cfg.eval_every,
                                   seeds=starts_seeds, delta=cfg.rqi_delta, threshold=cfg.rqi_threshold)
    assert starts.ratio("train").shape == starts.ratio("all").shape == (len(starts_seeds),)
    for frozen in (True, False):
        assert effective_rqi_steps(cfg, ref.embeddings[:1], ref.train_pairs, freeze_z0=frozen, record_every=1).shape == (1,)
    plot_integrators(starts, spread.steps, spread.rqi_curves, spread.rqi_step, ref.n_h, cfg.reference_seed,
                     threshold=cfg.rqi_threshold)
    plot_embedding_comparison(spread.comparison)
    plot_seed_spread(spread)
    add = Fig2Config(operation="addition")
    assert len(unseen_validation(fig2_data(add))) > 0
    s3cfg = S3Config.for_scale()
    s3 = run_s3_sweep(s3cfg)
    n = len(s3.counts)
    assert s3.final_rqi.shape == s3.accuracy.shape == (n,) and s3.embeddings.shape[0] == n
    _finite(s3.final_rqi, s3.predicted_accuracy)
    plot_s3(s3)
    assert pca(s3.embeddings[0])[1].shape[0] >= 4
    hexagon_shape(s3.embeddings[0])


@pytest.mark.slow
def test_liu2022_critical_data():
    from repro.experiments.liu2022_critical_data import ToyConfig, linear_structure, run_fraction_sweep
    from repro.plotting.liu2022_critical_data import (plot_accuracy_vs_predicted, plot_critical_fraction,
                                                      plot_grokking_rate)

    cfg = ToyConfig.for_scale()
    stats = linear_structure(cfg)
    assert stats.rates.shape == (stats.n_total, cfg.n_random_sets)
    assert 0 < stats.critical_fraction() < 1
    assert abs(stats.rates[-1].mean() - 30) < 1e-6  # the chapter's sanity check: all 55 pairs
    sweep = run_fraction_sweep(cfg)
    n_runs = len(cfg.train_counts) * len(cfg.seeds)
    assert sweep.accuracy.shape == sweep.predicted_accuracy.shape == sweep.rqi_step.shape == (n_runs,)
    counts, success = sweep.success_rate()
    assert len(counts) == len(success) == len(cfg.train_counts)
    _accuracy(sweep.accuracy)
    _steps(sweep.rqi_step, sweep.steps)
    plot_accuracy_vs_predicted(sweep)
    plot_critical_fraction(stats, sweep)
    plot_grokking_rate(stats, sweep)


@pytest.mark.slow
def test_liu2022_phase_diagrams():
    from repro.experiments.liu2022_phase_diagrams import (PANELS, ToyPhaseConfig, corner_fraction,
                                                          generalizing_fraction_fast_decoder, run_phase_diagram,
                                                          sandwich_columns, seed_fraction)
    from repro.plotting.liu2022_phase_diagrams import plot_phase_diagrams, plot_phase_examples
    from repro.metrics.phases import PHASES

    configs = {panel: ToyPhaseConfig.for_scale(panel) for panel in PANELS}
    diagrams = {panel: run_phase_diagram(cfg) for panel, cfg in configs.items()}
    for panel, d in diagrams.items():
        cfg = configs[panel]
        shape = (cfg.n_seeds, len(cfg.y_values), len(cfg.lr_dec_values))
        assert d.seed_phases.shape == d.train_steps.shape == d.val_steps.shape == shape
        assert set(d.seed_phases.ravel()) <= set(PHASES)
        _steps(d.train_steps, cfg.steps)
        _steps(d.val_steps, cfg.steps)
    plot_phase_diagrams(diagrams, official=True)
    for panel, d in diagrams.items():  # one example run per phase the map shows, really in that phase
        assert set(d.examples) == set(d.phases.ravel())  # the phases some cell has as its majority
        for phase, ex in d.examples.items():
            y = next(v for k, v in ex.cell.items() if k != "dec. lr")
            iy, ix = d.config.y_values.index(y), d.config.lr_dec_values.index(ex.cell["dec. lr"])
            assert d.seed_phases[d.config.init_seeds.index(ex.seed), iy, ix] == phase
            assert ex.train_acc.shape == ex.val_acc.shape == ex.steps.shape
    plot_phase_examples(diagrams)
    a = diagrams["a"]
    fast = a.per_seed(lambda p, y: generalizing_fraction_fast_decoder(p, a.config.lr_dec_values, y))
    assert len(fast) == a.config.n_seeds
    assert 0 <= seed_fraction(diagrams["d"], sandwich_columns, lambda n: n >= 1) <= 1
    assert 0 <= seed_fraction(diagrams["d"], lambda p, y: corner_fraction(p, y, "memorization", "top_right"),
                              lambda v: v >= 0.5) <= 1


@pytest.mark.slow
def test_liu2022_transformer_and_images():
    from repro.experiments.liu2022_phase_diagrams import corner_fraction, sandwich_columns
    from repro.experiments.liu2022_transformer_and_images import (ImageGrokConfig, TransformerGrokConfig,
                                                                  run_image_phase_diagram, run_transformer)
    from repro.plotting.liu2022_transformer_and_images import plot_image_examples, plot_images, plot_transformer

    tcfg = TransformerGrokConfig.for_scale()
    result = run_transformer(tcfg)
    n_evals = len(result.history.steps)
    assert result.history["val_acc"].shape == (tcfg.n_seeds, n_evals)
    assert result.effective_dim.shape == (tcfg.n_seeds, n_evals)
    _finite(result.effective_dim)
    _steps(result.steps_to("train_acc"), tcfg.steps)
    _steps(result.steps_to("val_acc"), tcfg.steps)
    plot_transformer(result)
    icfg = ImageGrokConfig.for_scale()
    images = run_image_phase_diagram(icfg)
    wds = np.asarray(icfg.wd_values)
    assert images.seed_phases.shape == (icfg.n_seeds, len(wds), len(icfg.lr_dec_values))
    for p in images.seed_phases:
        sandwich_columns(p, -wds)
        corner_fraction(p, wds, "memorization", "top_left")
    runs = images.curve_runs()
    assert images.history.first_step("train_acc", icfg.train_threshold)[runs].shape == (icfg.n_seeds,)
    plot_images(images)
    examples = images.examples()  # one run per phase the map shows, really in that phase
    assert set(examples) == set(images.phases.ravel())
    for phase, ex in examples.items():
        iy, ix = icfg.wd_values.index(ex.cell["wd"]), icfg.lr_dec_values.index(ex.cell["last-layer lr"])
        assert images.seed_phases[icfg.seeds.index(ex.seed), iy, ix] == phase
        assert np.array_equal(ex.val_acc, images.history["val_acc"][icfg.seeds.index(ex.seed) * len(icfg.grid()["wd"])
                                                                    + iy * len(icfg.lr_dec_values) + ix])
    plot_image_examples(images)


@pytest.mark.slow
def test_liu2023_omnigrok():
    from repro.experiments.liu2023_omnigrok import (ImageConfig, ModularConfig, TeacherStudentConfig, image_landscape,
                                                    run_image_grokking, run_modular, run_teacher_student_grokking,
                                                    seed_fraction, seed_slopes, teacher_student_landscape)
    from repro.plotting.liu2023_omnigrok import plot_gamma_scaling, plot_grokking, plot_landscape, plot_modular
    from repro.experiments.liu2023_omnigrok_messiness import MessinessConfig, run_messiness
    from repro.plotting.liu2023_omnigrok_messiness import plot_messiness

    ts_cfg, img_cfg = TeacherStudentConfig.for_scale(), ImageConfig.for_scale()
    mod_cfg, wm_cfg = ModularConfig.for_scale(), MessinessConfig.for_scale()
    ts_land = teacher_student_landscape(ts_cfg)
    assert ts_land.seed_test_loss.shape == (ts_cfg.n_seeds, len(ts_land.alphas))
    _finite(ts_land.seed_train_loss, ts_land.seed_test_loss)
    assert ts_land.seed_values("train_loss", -2).shape == ts_land.seed_train_loss.shape
    plot_landscape(ts_land, ax=plt.subplots()[1], title="smoke")
    ts_grok = run_teacher_student_grokking(ts_cfg)
    n_cells = len(ts_grok.alphas)
    assert ts_grok.seed_test_steps.shape == (ts_cfg.n_seeds, n_cells)
    assert seed_slopes(ts_grok).shape == (ts_cfg.n_seeds,)
    assert 0 <= seed_fraction(ts_grok.seed_test_steps[:, len(ts_cfg.gammas)] > 0) <= 1
    h = ts_grok.history
    rr = ts_grok.runs_of(0)
    _, axes = plt.subplots(1, 2)
    plot_grokking(h.steps, {"train": h["train_acc"][rr], "test": h["val_acc"][rr]}, norm=h["weight_norm"][rr], ax=axes[0],
                  title="smoke")
    plot_gamma_scaling(ts_grok, ax=axes[1])
    img_land = image_landscape(img_cfg)
    assert img_land.seed_test_acc.shape == (img_cfg.n_seeds, len(img_land.alphas))
    _accuracy(img_land.seed_test_acc)
    img_h = run_image_grokking(img_cfg)
    assert img_h["train_acc"].shape == img_h["weight_norm"].shape == (img_cfg.n_seeds, len(img_h.steps))
    _finite(img_h["weight_norm"])
    mod = run_modular(mod_cfg)
    assert mod.seed_test_steps.shape == (mod_cfg.n_seeds, 2)
    assert set(mod.norm_stats()) >= {"peak", "fall", "final"}
    mod.delay_ratio()
    plot_modular(mod, title_prefix="smoke: ")
    wm = run_messiness(wm_cfg)
    assert wm.median("test_loss").shape[0] == len(wm_cfg.messiness)
    assert wm.critical_alpha().shape[-1] == len(wm_cfg.messiness)
    plot_messiness(wm)
    # the data-size slide's figure, on two sizes of the book-scale landscape
    from repro.plotting.liu2023_omnigrok_messiness import plot_data_size

    plot_data_size({45: wm, 40: run_messiness(replace(wm_cfg, n_train=40, messiness=(0.0, 0.2), seeds=(0,)))})


@pytest.mark.slow
def test_rubin2024_droplets():
    from repro.experiments.rubin2024_droplets import DropletsConfig, run_experiments, run_theory, second_minimum
    from repro.plotting.rubin2024_droplets import plot_components, plot_histograms, plot_landau, plot_modular

    cfg = DropletsConfig.for_scale()
    theory = run_theory(cfg)
    assert [round(s.sigma2, 3) for s in theory.sharp_1d] == list(cfg.curve_sigma2s)
    sharp = {round(s.sigma2, 3): s for s in theory.sharp_1d}
    _finite(sharp[0.15].learned_cubic, sharp[0.10].learned_cubic)  # the values the chapter compares
    _finite(theory.profile_d150.log_p)
    assert len(theory.modular_curve) == len(theory.modular_exact_curve)
    _finite(theory.a_end_once, theory.mode_count_0227.once.weight_nats)  # the mode-count section
    plot_landau(cfg, theory)
    plot_modular(cfg, theory)
    exp = run_experiments(cfg)
    lv = exp.langevin
    n_s2, n_nets = len(lv.sigma2s), cfg.langevin.n_nets
    assert lv.learned_cubic.shape == (n_s2, n_nets) and len(exp.theory_1d) == len(exp.theory_2d) == n_s2
    _finite(lv.learned_cubic, lv.learned_linear)
    centres = 0.5 * (lv.edges[:-1] + lv.edges[1:])
    second_minimum(lv.neg_log_p(lv.sigma2s.index(0.10)), centres)
    assert lv.mean_r(0).shape == centres.shape
    plot_histograms(exp)
    plot_components(cfg, theory, exp)


@pytest.mark.slow
def test_baek2024_geneft_information():
    from repro.experiments.baek2024_geneft import (BoundConfig, DataSizeConfig, DepthConfig, induction_gap,
                                                   induction_gap_seeds, run_bound, run_data_size, run_depth)
    from repro.plotting.baek2024_geneft import plot_bound, plot_data_size, plot_depth
    from repro.data.relations import RELATIONS

    bound_cfg = BoundConfig.for_scale()
    bound = run_bound(bound_cfg)
    for rel in RELATIONS:
        assert bound.mc_mean(rel).shape == (len(bound_cfg.fractions),)
        _accuracy(bound.mc_mean(rel))
        bound.largest_gap(rel)
    plot_bound(bound)
    size_cfg = DataSizeConfig.for_scale()
    sizes = run_data_size(size_cfg)
    for rel in size_cfg.relations:
        for a in range(len(size_cfg.architectures)):
            acc = sizes.accuracy[rel, a]
            assert acc.shape[0] == len(size_cfg.fractions)
            _accuracy(acc)
            _finite(induction_gap(sizes, bound, rel, a), induction_gap_seeds(sizes, bound, rel, a))
    plot_data_size(sizes, bound)
    depth_cfg = DepthConfig.for_scale()
    depth = run_depth(depth_cfg)
    assert depth.test_acc.shape[:2] == depth.train_acc.shape[:2] == (len(depth_cfg.relations), len(depth_cfg.depths))
    _accuracy(depth.test_acc)
    plot_depth(depth)


@pytest.mark.slow
def test_baek2024_geneft_dynamics():
    from repro.experiments.baek2024_geneft import (PhaseConfig, ReponConfig, fit_boundary, memorization_onset,
                                                   run_phases)
    from repro.plotting.baek2024_geneft import plot_phases, plot_repons
    from repro.theory.baek2024 import (conserved_quantity, integrate_repons, repon_fixed_point, repon_probability,
                                       repon_probability_monte_carlo)

    rcfg = ReponConfig()  # theory only, the same at every scale
    trajectories = [integrate_repons(a0, c0, rcfg.eta_x, rcfg.eta_A, rcfg.t_max) for a0, c0 in rcfg.starts]
    for (a0, c0), (t, a, c) in zip(rcfg.starts, trajectories):
        _finite(conserved_quantity(a, c, rcfg.eta_x, rcfg.eta_A), repon_fixed_point(a0, c0, rcfg.eta_x, rcfg.eta_A))
    p_theory = [repon_probability(r, 1.0) for r in rcfg.ratios]
    p_mc = [repon_probability_monte_carlo(r, 1.0, samples=rcfg.samples, seed=rcfg.seed + i)
            for i, r in enumerate(rcfg.ratios)]
    plot_repons(rcfg, trajectories, p_theory, p_mc)
    cfg5 = PhaseConfig.fig5()
    fig5_result = run_phases(cfg5)
    shape = (len(cfg5.seeds), len(cfg5.row_values), len(cfg5.lr_dec))
    for rel in cfg5.relations:
        assert fig5_result.phases[rel].shape == fig5_result.test_acc[rel].shape == shape
        assert fig5_result.generalized(rel).shape == shape and fig5_result.generalized_fraction(rel).shape == shape[1:]
    fit = fit_boundary(fig5_result)
    assert fit.seed_slopes.shape == (len(cfg5.seeds),)
    plot_phases(fig5_result, fit)
    cfg6 = PhaseConfig.fig6()
    fig6_result = run_phases(cfg6)
    for rel in cfg6.relations:
        assert memorization_onset(fig6_result, rel).shape == (len(cfg6.seeds), len(cfg6.row_values))
    plot_phases(fig6_result)


@pytest.mark.slow
def test_mohamadi2024_why_grok():
    from repro.experiments import mohamadi2024_why_grok as mw
    from repro.plotting.mohamadi2024_why_grok import (plot_classification, plot_kernel_regime, plot_regression,
                                                      plot_transformer)
    from repro.theory import mohamadi2024 as th

    cfg = mw.WhyGrokConfig.for_scale()
    rows = mw.construction_table(cfg.construction_ps)
    dup = mw.construction_table([cfg.construction_ps[-1]], cfg.duplication_rs)
    _finite([r["max_error"] for r in rows + dup])
    rank = mw.entk_rank_sweep(cfg.rank_p, cfg.rank_n, cfg.rank_widths, cfg.seed)
    assert len(rank["rank"]) == len(rank["widths"]) == len(rank["bound"])
    ksweep = mw.kernel_regression_sweep(cfg.kernel_ps, cfg.kernel_fractions, cfg.kernel_width_factor, cfg.seed)
    _finite(ksweep["empirical"], ksweep["expected"])
    plot_kernel_regime(rank, ksweep)
    results = {p: mw.train_classification(cfg.classification_config(p)) for p in sorted(set(cfg.sample_ps) | {cfg.grok_p})}
    main = results[cfg.grok_p]
    runs = main.runs_of(2.0, 1.0)
    assert len(runs) == len(cfg.seeds)
    _steps(main.first_step("train", 1.0)[runs], cfg.class_steps)
    _accuracy(main.test_acc[runs, -1])
    for p, res in results.items():
        _finite(res.linf[res.runs_of(2.0, 1.0), -1], res.margin[res.runs_of(2.0, 1.0), -1])
        assert th.classification_train_size(p, 2.0) < p * p
    kernel = np.array([mw.kernel_classifier_on_split(main, run=r) for r in runs])
    assert kernel.shape == (len(runs), 2)
    _finite(kernel)
    plot_classification(results, cfg)
    tfs = mw.run_transformer_seeds(cfg.transformer, cfg.transformer_seeds)
    assert len(tfs) == len(cfg.transformer_seeds)
    for t in tfs:
        k = t.index(t.steps[-1])  # the chapter reads the kernel's change and distance at its fitting step
        _finite(t.kernel_change()[k], th.unit_kernel_distance(t.kernel_distance()[k]))
        _accuracy(t.test_acc)
    plot_transformer(tfs)
    reg = mw.train_regression(cfg.regression)
    assert reg.test_loss.shape[0] == reg.train_loss.shape[0] == len(cfg.regression.run_scales)
    finite = np.isfinite(reg.test_loss[:, -1]) & np.isfinite(reg.train_loss[:, -1])  # the chapter's mask:
    assert finite.any()  # large init scales may diverge, the chapter reports those runs as such
    plot_regression(reg)


@pytest.mark.slow
def test_synthesis_one_task():
    from repro.book.readouts.synthesis_one_task import measure_all
    from repro.experiments.synthesis_one_task import SynthesisConfig, run
    from repro.plotting.synthesis_one_task import plot_fraction_slice, plot_norm_slice, plot_rate_grid

    cfg = SynthesisConfig.for_scale()
    result = run(cfg.live())
    _accuracy(result.val_acc)
    _steps(result.fit_step, cfg.steps)
    _steps(result.generalize_step, cfg.steps)
    assert result.ntk_change.shape == result.fourier.shape == (len(result.specs), len(result.snapshot_steps))
    _finite(result.ntk_change, result.ntk_norm, result.fourier)
    assert set(measure_all(result)) == {f"T{k:02d}" for k in range(1, 15)}
    for plot in (plot_fraction_slice, plot_norm_slice, plot_rate_grid):
        plot(result)

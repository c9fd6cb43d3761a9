"""repro.experiments.mohamadi2024_why_grok_sample: the critical size, the exponent fit and its seed bootstrap, on synthetic data
with a known answer, and a tiny end-to-end run through the store."""
import numpy as np
import pytest

from repro.experiments import mohamadi2024_why_grok_sample as ms
from repro.training.store import ResultsStore


def test_crossing_interpolates_in_log_n():
    n = np.array([10.0, 20.0, 40.0])
    assert ms.crossing(n, [0.0, 0.25, 0.75]) == pytest.approx(np.sqrt(20 * 40))  # halfway in log n
    assert ms.crossing(n, [0.0, 0.5, 1.0]) == pytest.approx(20.0)
    assert np.isnan(ms.crossing(n, [0.0, 0.1, 0.2]))  # never crosses
    assert np.isnan(ms.crossing(n, [0.6, 0.9, 1.0]))  # already above at the smallest n: off the grid


def _synthetic(ps, k, seeds=3, jitter=0.0):
    """A result whose seed-mean accuracy steps from 0 to 1 at n* = 2 p^k (exactly on a fine grid)."""
    cfg = ms.SampleComplexityConfig(ps=ps, n_coeffs=tuple(np.round(0.5 * 2 ** (np.arange(12) / 4), 4)),
                                    seeds=tuple(range(seeds)), steps=1, eval_every=1)
    rng = np.random.default_rng(0)
    runs = {}
    for p in ps:
        C = len(cfg.coeffs_at(p))
        n = np.array([ms.th.classification_train_size(p, c) for c in cfg.coeffs_at(p)])
        acc = np.clip((np.log(n) - np.log(p ** k)) / 0.5 + 0.5, 0, 1)  # linear in log n around p^k
        per_seed = np.clip(acc[None] + jitter * rng.standard_normal((seeds, C)), 0, 1)
        runs[p] = {name: np.zeros((seeds, C, 2)) for name in ms.PER_P}
        runs[p]["test_acc"][..., -1] = per_seed
    return ms.SampleComplexityResult(config=cfg, steps=np.array([0, 1]), runs=runs)


def test_fit_recovers_a_known_exponent_and_identical_seeds_do_not_spread():
    res = _synthetic((11, 13, 17, 19, 23, 29, 31, 37, 41), k=1.6)
    crit = ms.critical_sizes(res)
    assert np.all(np.isfinite(crit))
    assert ms.fit_exponent(res.config.ps, crit) == pytest.approx(1.6, abs=1e-6)
    boot = ms.bootstrap_exponent(res, n_boot=20)
    np.testing.assert_allclose(boot, 1.6, atol=1e-6)
    noisy = ms.bootstrap_exponent(_synthetic((11, 17, 23, 31, 41), k=1.6, jitter=0.1), n_boot=50)
    assert np.nanstd(noisy) > 0


def test_store_round_trip_and_bad_input(tmp_path):
    cfg = ms.SampleComplexityConfig(ps=(5, 7), n_coeffs=(0.5, 1.0), seeds=(0,), steps=3, eval_every=1)
    ResultsStore(tmp_path).get_or_compute(cfg, lambda: ms.run_sample_complexity(cfg, progress=False).to_arrays(),
                                          label="sample-complexity")
    res, manifest = ms.stored_sample_complexity(cfg, tmp_path)
    assert res.final(7).shape == (1, 2) and manifest["wall_time_s"] >= 0
    assert ms.stored_sample_complexity(ms.SampleComplexityConfig(ps=(5,), n_coeffs=(0.5,), seeds=(0,), steps=3),
                                       tmp_path) is None
    with pytest.raises(ValueError, match="ps"):
        ms.SampleComplexityConfig(ps=(4,))
    with pytest.raises(ValueError, match="n_coeffs"):
        ms.SampleComplexityConfig(n_coeffs=(2.0, 1.0))
    with pytest.raises(ValueError, match="seeds"):
        ms.SampleComplexityConfig(seeds=())


def test_budget_shift_reads_n_star_at_each_recorded_step():
    """A result whose n* is 2p^1.8 after step 1 and 2p^1.6 after step 2: the shift is (1.6 − 1.8)·log2 p, and an
    unrecorded step is refused."""
    ps = (11, 23, 41)
    early, late = _synthetic(ps, k=1.8), _synthetic(ps, k=1.6)
    runs = {p: {name: np.stack([early.runs[p][name][..., -1], late.runs[p][name][..., -1]], axis=-1)
                for name in ms.PER_P} for p in ps}
    res = ms.SampleComplexityResult(config=late.config, steps=np.array([1, 2]), runs=runs)
    np.testing.assert_allclose(ms.critical_sizes(res, step=2), ms.critical_sizes(res))
    np.testing.assert_allclose(ms.critical_sizes(res, step=1), ms.critical_sizes(early))
    np.testing.assert_allclose(ms.budget_shift(res, 1, 2), (1.6 - 1.8) * np.log2(ps), atol=1e-9)
    with pytest.raises(ValueError, match="step=3 was not recorded"):
        res.at(11, 3)


def test_budget_config():
    cfg = ms.budget_config()
    assert cfg.ps == ms.BUDGET_PS and cfg.steps == 4000 and cfg.steps % cfg.eval_every == 0
    assert cfg.n_coeffs[0] == pytest.approx(2 ** -0.5, abs=1e-4) and cfg.n_coeffs[-1] == 2.0
    assert all(2.0 in cfg.coeffs_at(p) for p in cfg.ps)  # App. A.2's n = 2p^(5/3) is on the grid at every p


def test_budget_entries_are_one_per_p_and_join(tmp_path, monkeypatch):
    assert ms.budget_config(41).ps == (41,) and ms.budget_config(41).steps == ms.budget_config().steps
    with pytest.raises(ValueError, match="p"):
        ms.budget_config(43)
    # tiny stand-ins for the four entries: the join needs every p, and keeps each p's arrays
    small = {p: ms.replace(ms.budget_config(p), n_coeffs=(1.0, 2.0), seeds=(0,), steps=4, eval_every=2)
             for p in ms.BUDGET_PS}
    monkeypatch.setattr(ms, "budget_config", lambda p=None: small[p] if p else
                        ms.replace(small[ms.BUDGET_PS[0]], ps=ms.BUDGET_PS))
    store = ResultsStore(tmp_path)
    for p in ms.BUDGET_PS[:-1]:
        store.get_or_compute(small[p], lambda p=p: _fake_arrays(small[p]), label=ms.BUDGET_LABEL)
    assert ms.stored_budget(tmp_path) is None  # one p missing
    p = ms.BUDGET_PS[-1]
    store.get_or_compute(small[p], lambda: _fake_arrays(small[p]), label=ms.BUDGET_LABEL)
    joined, manifests = ms.stored_budget(tmp_path)
    assert joined.config.ps == ms.BUDGET_PS and len(manifests) == 4
    assert joined.runs[p]["test_acc"].shape == _fake_arrays(small[p])[f"p{p}_test_acc"].shape


def _fake_arrays(cfg):
    steps = np.arange(0, cfg.steps + 1, cfg.eval_every)
    out = {"steps": steps}
    for p in cfg.ps:
        shape = (len(cfg.seeds), len(cfg.coeffs_at(p)), len(steps))
        out.update({f"p{p}_{name}": np.full(shape, 0.5) for name in ms.PER_P})
    return out


def test_settled_exponent_takes_each_p_from_the_run_that_trained_it_longest():
    """p = 11, 23 from the short run (k = 1.6) and p = 41, 47 from the long run (n* = 2p^1.6 there too, the short
    run's p = 41 placed wrongly at p^1.9): the joined fit recovers 1.6 and ignores the short run's p = 41."""
    short = _synthetic((11, 23, 41), k=1.6)
    short.runs[41] = _synthetic((41,), k=1.9).runs[41]
    long = _synthetic((41, 47), k=1.6)
    long.steps = np.array([0, 4])
    joined = ms.settled_exponent(short, long, n_boot=10)
    assert joined.ps == (11, 23, 41, 47)
    assert joined.steps == {11: 1, 23: 1, 41: 4, 47: 4}
    assert joined.k == pytest.approx(1.6, abs=1e-6)
    np.testing.assert_allclose(joined.k_boot, 1.6, atol=1e-6)
    np.testing.assert_allclose(joined.n_crit, [ms.critical_sizes(short)[0], ms.critical_sizes(short)[1],
                                               *ms.critical_sizes(long)])


def test_plot_settled_budget_labels_both_budgets():
    import matplotlib

    matplotlib.use("Agg")
    from repro.plotting.mohamadi2024_why_grok_sample import plot_settled_budget

    short, long = _synthetic((11, 23, 41), k=1.6), _synthetic((41, 47), k=1.6)
    long.steps = np.array([0, 4])
    fig = plot_settled_budget(long, ms.settled_exponent(short, long, n_boot=5))
    labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert "$n^*$ after 1 steps" in labels and "$n^*$ after 4 steps" in labels and "fit: slope 1.60" in labels
    assert fig.axes[0].get_xlabel() == "budget (normalized GD steps)"

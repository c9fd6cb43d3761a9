"""The synthesis sweep (``book/synthesis_one_task``): its runs, its masks, its snapshots and the predictions' numbers,
on hand-made results where the answer is known."""
from dataclasses import replace

import numpy as np
import pytest

from repro.experiments import synthesis_one_task as syn
from repro.experiments import synthesis_one_task_predictions as pred
from repro.metrics.representation import fourier_concentration


def test_fourier_concentration_of_a_circle_and_of_noise():
    s = np.arange(31)
    circle = np.stack([np.cos(2 * np.pi * 5 * s / 31), np.sin(2 * np.pi * 5 * s / 31)], axis=1)
    assert fourier_concentration(circle) == pytest.approx(1.0)
    noise = fourier_concentration(np.random.default_rng(0).normal(size=(200, 31, 32)))
    assert 0.07 < noise.mean() < 0.11 and noise.shape == (200,)
    with pytest.raises(ValueError, match="p >= 3"):
        fourier_concentration(np.zeros((2, 4)))


def test_every_run_has_its_own_seed_and_its_slice_sizes():
    cfg = syn.book_config()
    specs = syn.run_specs(cfg)
    assert len({s.seed for s in specs}) == len(specs) == 6 * 8 + (4 + 6) * 6 + 9 * 4
    assert min(s.seed for s in specs) == cfg.first_seed
    assert len(syn.run_specs(cfg.live())) == 6 * 3 + (4 + 6) * 2 + 9 * 2


def test_masks_hold_each_runs_fraction():
    cfg = replace(syn.book_config(), seeds_norm=1, seeds_rates=1, seeds_fraction=1)
    specs = syn.run_specs(cfg)
    runs, masks = syn.per_run(cfg, specs)
    kept = masks.numpy().sum(1) / cfg.n_pairs
    assert np.allclose(kept, [s.train_fraction for s in specs], atol=1 / cfg.n_pairs)
    assert runs["lr_repr"][-1] == pytest.approx(cfg.lr * cfg.rate_factors[-1])


def test_bad_configs_name_the_parameter():
    with pytest.raises(ValueError, match="p"):
        syn.SynthesisConfig(p=32)
    with pytest.raises(ValueError, match="fractions"):
        syn.SynthesisConfig(fractions=())
    with pytest.raises(ValueError, match="ntk_points"):
        syn.SynthesisConfig(p=5, ntk_points=100)


def _result(specs, final_val, fit, gen, steps=1000):
    cfg = replace(syn.book_config(), steps=steps, eval_every=10)
    R, t = len(specs), np.arange(0, steps + 1, 10)
    val = np.zeros((R, len(t)))
    train = np.zeros((R, len(t)))
    for r in range(R):
        val[r, -1] = final_val[r]
        if fit[r] >= 0:
            train[r, t >= fit[r]] = 1.0
        if gen[r] >= 0:
            val[r, t >= gen[r]] = 1.0
    snaps = t[::10]
    ones = np.ones((R, len(snaps)))
    return syn.SynthesisResult(cfg, specs, t, train, val, ones, snaps, ones * 0.1, ones, ones)


def test_between_phases_counts_the_runs_in_the_band():
    specs = [syn.RunSpec("fraction", k, 0.5) for k in range(5)]
    r = _result(specs, [0.0, 0.5, 1.0, 0.25, 0.9], [-1] * 5, [-1] * 5)
    assert pred.between_phases(r).value == pytest.approx(2 / 5)


def test_a_run_that_never_generalizes_is_censored_not_dropped():
    specs = [syn.RunSpec("norm", k, 0.7, alpha=a) for k, a in enumerate((1.0, 2.0, 4.0))]
    r = _result(specs, [1, 1, 0], [20, 20, 20], [200, 500, -1])
    d = pred.delays(r, np.arange(3))
    assert list(d) == [180, 480, 1000 + 10 - 20]
    assert pred.alpha_correlation(r, "delay").value == pytest.approx(1.0)


def test_spearman_is_a_rank_correlation():
    x = np.array([1.0, 2, 3, 4])
    assert pred.spearman(x, x ** 3) == pytest.approx(1.0)
    assert pred.spearman(x, -x) == pytest.approx(-1.0)
    assert pred.spearman(x, np.ones(4)) == 0.0


def test_the_paper_runs_blocks_train_the_same_bits_as_one_block():
    # the paper-scale sweep trains in blocks of PAPER_BLOCK_RUNS runs so that its checkpoints can be committed; the
    # blocks change the float32 products' rounding only (in the last bits), and the same blocks the same bits
    cfg = replace(syn.book_config(), p=11, steps=30, eval_every=5, snapshot_every=10, seeds_fraction=1, seeds_norm=1,
                  seeds_rates=1, fractions=(0.5, 0.7), free_alphas=(1.0, 2.0), fixed_alphas=(1.0,), ntk_points=4)
    whole = syn.result_to_arrays(syn.run(cfg, progress=False))
    blocks = syn.result_to_arrays(syn.run(cfg, progress=False, block_runs=3))
    again = syn.result_to_arrays(syn.run(cfg, progress=False, block_runs=3))
    assert whole.keys() == blocks.keys() == again.keys()
    for name, array in whole.items():
        np.testing.assert_allclose(array, blocks[name], rtol=1e-5, atol=1e-6, err_msg=name)
        np.testing.assert_array_equal(blocks[name], again[name], err_msg=name)
    assert syn.PAPER_BLOCK_RUNS < len(syn.run_specs(syn.SynthesisConfig()))


def test_the_snapshot_takes_every_runs_kernel_in_one_call_as_run_by_run():
    import torch

    from repro.models.networks import build_model
    from repro.theory.mohamadi2024 import empirical_ntk
    from repro.training.config import per_run_values
    from repro.training.params import FlatParams

    cfg = replace(syn.book_config(), p=11, seeds_fraction=1, seeds_norm=1, seeds_rates=1, ntk_points=5)
    model = build_model(cfg.model_config())
    runs, _ = syn.per_run(cfg, syn.run_specs(cfg))
    n, values = per_run_values(cfg.train_config(), runs)
    views = FlatParams(model, values, torch.float64, torch.device("cpu")).views()
    x = cfg.task_data().inputs[torch.as_tensor(syn.ntk_indices(cfg))]
    got = syn.snapshot_recorder(cfg, model, x)(0, views)
    one_run = lambda params, xx: model.forward({k: v[None] for k, v in params.items()}, xx)[0]
    for r in range(n):
        expected = empirical_ntk(one_run, {k: v[r] for k, v in views.items()}, x)
        torch.testing.assert_close(got["ntk"][r], expected, rtol=1e-12, atol=1e-12)
    assert got["ntk"].shape == (n, 5, 5) and got["fourier"].shape == (n,)

"""The official S3 initial state (repro.experiments.liu2022_phase_diagrams_s3_official) against an independent, plain re-enactment of the
draws of ejmichaud/grokking-squared toy/Figure5d_permutation.ipynb (global numpy and torch generators,
nn.Linear modules built in the notebook's order)."""
import itertools

import numpy as np
import pytest
import torch
import torch.nn as nn

from repro.experiments.liu2022_phase_diagrams_s3_official import (official_init_params, official_s3_state,
                                                                  train_official_s3)
from repro.models.networks import EmbedMLPConfig
from repro.training.trainer import InitialParams, Performance, Record, TrainConfig, train


def notebook_draws(seed):
    """The notebook's draws with the global generators, in its order: templates, split, encoder, decoder,
    latent. The global states are restored afterwards."""
    np_state, torch_state = np.random.get_state(), torch.random.get_rng_state()
    try:
        np.random.seed(seed)
        torch.manual_seed(seed)
        templates = np.random.normal(0, 1, size=(6, 30))
        train_id = np.random.choice(36, 24, replace=False)
        test_id = np.array(list(set(np.arange(36)) - set(train_id)))
        encoder = [nn.Linear(1, 200), nn.Linear(200, 200), nn.Linear(200, 9)]
        decoder = [nn.Linear(9, 200), nn.Linear(200, 200), nn.Linear(200, 30)]
        latent = (torch.rand(6, 9) - 1 / 2) * 0.1
    finally:
        np.random.set_state(np_state)
        torch.random.set_rng_state(torch_state)
    assert len(encoder) == 3  # built only for their draws, as in the notebook
    return templates, train_id, test_id, decoder, latent


@pytest.mark.parametrize("seed", [0, 3])
def test_state_equals_the_notebooks_draws(seed):
    templates, train_id, test_id, decoder, latent = notebook_draws(seed)
    state = official_s3_state(seed)
    assert np.array_equal(state.train_idx, train_id)  # training rows in draw order
    assert np.array_equal(np.sort(state.val_idx), np.sort(test_id))  # the notebook's set order does not matter
    assert torch.equal(state.templates, torch.tensor(templates, dtype=torch.float))
    assert torch.equal(state.params["embed"], latent)
    for k, layer in enumerate(decoder):
        assert torch.equal(state.params[f"W{k}"], layer.weight.detach().T)
        assert torch.equal(state.params[f"b{k}"], layer.bias.detach())


def test_shapes_counts_and_labels():
    state = official_s3_state(0)
    assert len(state.train_idx) == 24 and len(state.val_idx) == 12
    assert sorted(np.r_[state.train_idx, state.val_idx].tolist()) == list(range(36))
    assert tuple(state.templates.shape) == (6, 30)
    shapes = {"embed": (6, 9), "W0": (9, 200), "b0": (200,), "W1": (200, 200), "b1": (200,), "W2": (200, 30),
              "b2": (30,)}
    assert {k: tuple(v.shape) for k, v in state.params.items()} == shapes
    assert all(v.dtype == torch.float32 for v in state.params.values())
    assert float(state.params["embed"].abs().max()) <= 0.05
    # labels: the notebook's composition p_out = p2[p1] over permutations in lexicographic order
    perms = list(itertools.permutations(range(3)))
    for n, (a, b) in enumerate(state.data.inputs.tolist()):
        out = tuple(perms[b][perms[a][k]] for k in range(3))
        assert int(state.data.labels[n]) == perms.index(out)
    assert torch.equal(state.data.targets, state.templates[state.data.labels])


def test_other_seeds_draw_other_states():
    a, b = official_init_params(0), official_init_params(1)
    assert not torch.equal(a["embed"], b["embed"]) and not torch.equal(a["W0"], b["W0"])


def test_trainer_starts_from_the_given_state():
    state = official_s3_state(0)
    # the callback's values are joined over the trainer's blocks of runs: (R, evaluations, *shape)
    grab = lambda step, views: {k: v.detach().clone() for k, v in views.items()}
    cfg = TrainConfig(steps=1, lr_dec=1e-4, repr_init_scale=0.1, embed_l1=1e-3)
    history = train(EmbedMLPConfig(n_symbols=6, d_embed=9, combine="matmul", d_out=30), state.data, cfg,
                    runs={"lr_dec": [1e-5, 1e-4]}, record=Record(callback=grab),
                    components=(InitialParams(state.params),), performance=Performance(progress=False))
    assert list(history.steps) == [0, 1]
    for name, value in state.params.items():
        assert np.array_equal(history.extra[name][:, 0], value.double().expand(2, *value.shape).numpy()), name


def test_official_cells_train_and_classify():
    history = train_official_s3([1e-3], [0.0], steps=20, eval_every=10, progress=False)
    assert history["train_acc"].shape == (1, 3)
    ours = train_official_s3([1e-3], [0.0], steps=20, eval_every=10, official_init=False, progress=False)
    assert not np.array_equal(history["train_loss"], ours["train_loss"])


def test_bad_input_is_named():
    state = official_s3_state(0)
    model = EmbedMLPConfig(n_symbols=6, d_embed=9, combine="matmul", d_out=30)
    cfg = TrainConfig(steps=1)
    with pytest.raises(ValueError, match="init_params has 'latent'"):
        train(model, state.data, cfg, components=(InitialParams({"latent": state.params["embed"]}),),
              performance=Performance(progress=False))
    with pytest.raises(ValueError, match=r"init_params\['embed'\] has shape \(9, 6\)"):
        train(model, state.data, cfg, components=(InitialParams({"embed": state.params["embed"].T}),),
              performance=Performance(progress=False))
    with pytest.raises(ValueError, match="seed"):
        official_s3_state(-1)
    with pytest.raises(ValueError, match="equal length"):
        train_official_s3([1e-3, 1e-4], [0.0], steps=1)
    with pytest.raises(ValueError, match="official_init"):
        train_official_s3([1e-3], [0.0], steps=1, official_init="yes")


@pytest.mark.slow
def test_seed_luck_round_trip_and_validation():
    from dataclasses import replace

    from repro.experiments.liu2022_phase_diagrams_s3_official import SeedLuckConfig, SeedLuckResult, run_seed_luck

    cfg = replace(SeedLuckConfig(), cell_lr_dec=(1.6e-4,), cell_wd_dec=(0.0,), cell_steps=400, seeds=(0, 1),
                  start_steps=400)
    assert cfg.official_letters().tolist() == [["comprehension"]]
    result = run_seed_luck(cfg, progress=False)
    back = SeedLuckResult.from_arrays(cfg, result.to_arrays())
    assert (back.cell_phases == result.cell_phases).all()
    assert (back.start_phases_official == result.start_phases_official).all()
    assert back.comprehension_share(True) == result.comprehension_share(True)
    # the official seed-0 start at this cell is the one of train_official_s3
    assert result.cell_train_steps[0, 0] == train_official_s3([1.6e-4], [0.0], steps=400).first_step("train_acc", 0.9)[0]
    with pytest.raises(ValueError, match="seeds"):
        replace(cfg, seeds=())
    with pytest.raises(ValueError, match="start_lr_dec"):
        replace(cfg, start_lr_dec=0.0)


@pytest.mark.slow
def test_official_start_grid_in_parts_is_the_grid_and_sits_on_the_official_map(tmp_path):
    from dataclasses import replace

    from repro.experiments.liu2022_phase_diagrams import full_grid_config, join_diagrams
    from repro.experiments.liu2022_phase_diagrams_s3_official import (OfficialStartGridConfig, run_official_start_grid,
                                                                      stored_official_start_grid)

    full = OfficialStartGridConfig()
    assert full.panel_config().y_values == full_grid_config("d").y_values
    assert full.panel_config().lr_dec_values == full_grid_config("d").lr_dec_values
    assert tuple(y for part in full.parts() for y in part.wd_dec_values) == full.wd_dec_values
    assert stored_official_start_grid(tmp_path) is None
    cfg = replace(full, wd_dec_values=(0.0, 1.0, 3.0), lr_dec_values=full.lr_dec_values[5:7], steps=300)
    whole = run_official_start_grid(cfg, progress=False)
    assert whole.seed_phases.shape == (1, 3, 2) and whole.official_phases().shape == (3, 2)
    joined = join_diagrams(cfg.panel_config(), [run_official_start_grid(part, progress=False) for part in cfg.parts()])
    assert (joined.seed_phases == whole.seed_phases).all()
    assert np.array_equal(joined.train_steps, whole.train_steps) and np.array_equal(joined.val_steps, whole.val_steps)
    # the official start fits these cells (decoder lr 1e-4 ... 1.6e-4) within a few hundred steps
    assert (whole.train_steps >= 0).all()
    for bad, match in ((dict(wd_dec_values=()), "wd_dec_values"), (dict(steps=0), "steps"), (dict(seed=-1), "seed")):
        with pytest.raises(ValueError, match=match):
            replace(full, **bad)

"""Fig. 2 of Liu et al. 2022 at the official 2-D settings (repro.experiments.liu2022_effective_theory): the config, the official split,
the data, a plain-PyTorch replica of the official notebook's training step, the decoder's class map, the store
round trip, and the Fig. 4(c, d) helpers (initial embeddings, both integrators)."""
import itertools
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.experiments.liu2022_critical_data import ToyConfig, effective_rqi_steps
from repro.experiments.liu2022_effective_theory import (Fig2Config, Fig2Run, decoder_classes, fig2_data,
                                                        initial_embeddings, integrate_from_starts, official_split,
                                                        pizza_purity, run_fig2, stored_fig2, unseen_validation,
                                                        STORE_LABEL)
from repro.theory import liu2022 as theory
from repro.training.store import ResultsStore
from repro.training.trainer import Performance, Record, TrainConfig, train

TINY = dict(seeds=(0, 3), steps=40, eval_every=10)


# ---------------------------------------------------------------------------- config


def test_defaults_are_the_official_values_and_the_model_runs_them():
    add = Fig2Config()
    assert (add.p, add.hidden, add.lr_repr, add.lr_dec, add.wd_dec, add.steps) == (11, (128, 128), 1e-3, 9e-5, 5.0, 20_000)
    assert (add.ordered, add.loss, add.input_scale, add.embed_mean) == (True, "mse", 0.5, 1.0)
    mod = Fig2Config(operation="modular_addition")
    assert (mod.ordered, mod.loss, mod.input_scale, mod.n_classes) == (False, "ce", 1.0, 11)
    mc = add.model_config()
    assert (mc.d_embed, mc.hidden, mc.d_out, mc.activation, mc.embed_init) == (2, (128, 128), 21, "relu", "normal")
    # the three official details of the notebooks: randn + 1, (E_i + E_j) / 2, no ReLU after the last hidden layer
    assert (mc.embed_mean, mc.input_scale, mc.activate_last_hidden) == (1.0, 0.5, False)
    assert Fig2Config.for_scale("addition") in (add, replace(add, seeds=(0, 1), steps=60, eval_every=20))


@pytest.mark.parametrize("bad, match", [
    (dict(operation="division"), "operation"),
    (dict(loss="hinge"), "loss"),
    (dict(train_fraction=1.0), "train_fraction"),
    (dict(train_fraction=0.0), "train_fraction"),
    (dict(seeds=()), "seeds"),
    (dict(seeds=(0, -1)), "seeds"),
    (dict(hidden=()), "hidden"),
    (dict(wd_dec=-1.0), "wd_dec"),
    (dict(operation="modular_addition", p=12), "p"),
])
def test_bad_config_values_raise_a_value_error_naming_the_field(bad, match):
    with pytest.raises(ValueError, match=match):
        Fig2Config(**bad)


# ---------------------------------------------------------------------------- data


def official_generate_data_split(p, seed, split_ratio, ignore_symmetric):
    """phasegrok/data_gen.py generate_data's split, transcribed (global numpy RNG, sets)."""
    pairs = (list(itertools.combinations_with_replacement(range(p), 2)) if ignore_symmetric
             else list(itertools.product(range(p), range(p))))
    np.random.seed(seed)
    total = len(pairs)
    train_id = np.random.choice(total, int(total * split_ratio), replace=False)
    train_id = set(train_id)
    train_id.add(0)
    train_id.add(1)
    test_id = set(range(total)) - set(train_id)
    return pairs, sorted(train_id), sorted(test_id)


@pytest.mark.parametrize("seed", [0, 1, 7])
@pytest.mark.parametrize("ignore_symmetric", [True, False])
def test_split_and_table_match_the_official_generate_data(seed, ignore_symmetric):
    op = "modular_addition" if ignore_symmetric else "addition"
    cfg = Fig2Config(operation=op, ordered=not ignore_symmetric, data_seed=seed)
    pairs, tr, te = official_generate_data_split(11, seed, 0.8, ignore_symmetric)
    data = fig2_data(cfg)
    assert data.inputs.tolist() == [list(x) for x in pairs]
    assert data.train_idx.tolist() == tr and data.val_idx.tolist() == te
    assert {0, 1} <= set(tr)
    modulus = 11 if op == "modular_addition" else 10**6
    assert data.labels.tolist() == [(a + b) % modulus for a, b in pairs]


def test_addition_targets_are_one_hot_and_modular_uses_cross_entropy():
    add = fig2_data(Fig2Config())
    assert add.loss == "mse" and add.targets.shape == (121, 21)
    assert torch.equal(add.targets.argmax(1), add.labels) and torch.all(add.targets.sum(1) == 1)
    mod = fig2_data(Fig2Config(operation="modular_addition"))
    assert mod.loss == "ce" and mod.targets is None and mod.n_samples == 66


def test_unseen_validation_drops_the_mirrors_of_training_pairs():
    data = fig2_data(Fig2Config())
    unseen = unseen_validation(data)
    train = {tuple(sorted(x)) for x in data.inputs[torch.as_tensor(data.train_idx)].tolist()}
    assert set(unseen) <= set(data.val_idx.tolist())
    assert all(tuple(sorted(data.inputs[k].tolist())) not in train for k in unseen)
    mirrored = set(data.val_idx.tolist()) - set(unseen.tolist())
    assert all(tuple(sorted(data.inputs[k].tolist())) in train for k in mirrored)
    mod = fig2_data(Fig2Config(operation="modular_addition"))
    assert unseen_validation(mod).tolist() == mod.val_idx.tolist()  # unordered pairs: no mirrors


def test_official_split_rejects_a_split_without_validation():
    with pytest.raises(ValueError, match="train_fraction"):
        official_split(3, 0.99, 0)


# ---------------------------------------------------------------------------- training


def replica_of_the_official_notebook(cfg: Fig2Config, seed: int) -> np.ndarray:
    """The official training cell (VisualizingAddition.ipynb) in plain PyTorch: randn + 1 init, a ReLU after every
    hidden layer but the last, input (E_i + E_j) / 2 for addition and E_i + E_j for modular addition; returns the
    final embeddings."""
    data = fig2_data(cfg)
    torch.manual_seed(seed)
    rep = (torch.randn(cfg.p, 2) + 1).requires_grad_()
    layers, width = [], 2
    for h in cfg.hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers = layers[:-1]  # the notebook's list comprehension drops the last ReLU
    model = torch.nn.Sequential(*layers, torch.nn.Linear(width, cfg.n_classes))
    opt = torch.optim.AdamW([{"params": (rep,), "lr": cfg.lr_repr, "weight_decay": cfg.wd_repr},
                             {"params": model.parameters(), "lr": cfg.lr_dec, "weight_decay": cfg.wd_dec}])
    idx = data.inputs[torch.as_tensor(data.train_idx)]
    target = data.labels[torch.as_tensor(data.train_idx)]
    for _ in range(cfg.steps):
        opt.zero_grad()
        pred = model(rep[idx].sum(1) / 2 if cfg.operation == "addition" else rep[idx].sum(1))
        if cfg.loss == "mse":
            loss = torch.nn.functional.mse_loss(pred, torch.nn.functional.one_hot(target, cfg.n_classes).float())
        else:
            loss = torch.nn.functional.cross_entropy(pred, target)
        loss.backward()
        opt.step()
    return rep.detach().double().numpy()


@pytest.fixture
def one_thread():
    """Small PyTorch ops on two threads of a busy machine spin for seconds; one thread is instant."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("operation", ["addition", "modular_addition"])
@pytest.mark.usefixtures("one_thread")
def test_trainer_follows_the_official_notebook_step_by_step(operation):
    cfg = replace(Fig2Config(operation=operation), seeds=(0, 5), steps=25, eval_every=25,
                  lr_repr=3e-2, lr_dec=3e-3)  # larger rates: 25 steps move the embeddings visibly
    run = run_fig2(cfg, progress=False)
    for r, seed in enumerate(cfg.seeds):
        want = replica_of_the_official_notebook(cfg, seed)
        assert np.abs(want - run.embeddings[r, 0]).max() > 0.1  # it moved
        np.testing.assert_allclose(run.final_embeddings[r], want, atol=2e-4)


@pytest.fixture(scope="module")
def tiny_runs():
    return {op: run_fig2(replace(Fig2Config(operation=op), **TINY), progress=False)
            for op in ("addition", "modular_addition")}


def test_run_records_curves_embeddings_and_the_final_decoder(tiny_runs):
    run = tiny_runs["addition"]
    assert run.steps.tolist() == [0, 10, 20, 30, 40]
    assert run.train_acc.shape == run.val_acc.shape == run.unseen_acc.shape == (2, 5)
    assert run.embeddings.shape == (2, 5, 11, 2)
    np.testing.assert_array_equal(run.embeddings[:, -1], run.final_embeddings)
    assert run.rqi().shape == (2,) and all(0 <= q <= 1 for q in run.rqi())
    circ, step, fit = tiny_runs["modular_addition"].circle()
    assert circ.shape == step.shape == fit.shape == (2,)


@pytest.mark.parametrize("operation", ["addition", "modular_addition"])
def test_class_map_at_a_samples_midpoint_is_the_networks_prediction(tiny_runs, operation):
    run = tiny_runs[operation]
    data = fig2_data(run.config)
    from repro.models.networks import build_model

    model = build_model(run.config.model_config())
    for r in range(len(run.seeds)):
        params = {k: torch.as_tensor(v[r:r + 1]) for k, v in run.params.items()}
        with torch.no_grad():
            predicted = model.forward(params, data.inputs)[0].argmax(-1).numpy()
        e = run.final_embeddings[r]
        mid = (e[data.inputs[:, 0].numpy()] + e[data.inputs[:, 1].numpy()]) / 2
        np.testing.assert_array_equal(decoder_classes(run, r, mid), predicted)
    assert 0 < pizza_purity(run, 0, n_angles=36, n_radii=5) <= 1


def test_store_round_trip(tmp_path, tiny_runs):
    run = tiny_runs["modular_addition"]
    assert stored_fig2(run.config, tmp_path) is None
    ResultsStore(tmp_path).save(run.config, run.to_arrays(), label=f"{STORE_LABEL}-{run.config.operation}")
    loaded, manifest = stored_fig2(run.config, tmp_path)
    assert manifest["arrays_sha256"]
    for name in Fig2Run.ARRAYS:
        np.testing.assert_array_equal(getattr(loaded, name), getattr(run, name))
    for k, v in run.params.items():
        np.testing.assert_array_equal(loaded.params[k], v)
    assert stored_fig2(replace(run.config, steps=41), tmp_path) is None
    with pytest.raises(ValueError, match="lacks"):
        Fig2Run.from_arrays(run.config, {"seeds": run.seeds})


# ---------------------------------------------------------------------------- Fig. 4(c, d) helpers


def test_initial_embeddings_are_the_trainers_step_zero_embeddings():
    cfg = ToyConfig()
    seeds = [58, 0, 3]
    from repro.data.tasks import BinaryOpTask, Split, build_task_data

    data = build_task_data(BinaryOpTask("addition", 10, ordered=False), Split(train_count=45, data_seed=58),
                           target="regression", target_dim=30)
    h = train(cfg.model_config(), data, TrainConfig(steps=1, eval_every=1), runs={"init_seed": seeds},
              record=Record(callback=lambda step, params: {"embed": params["embed"]}),
              performance=Performance(progress=False))
    np.testing.assert_array_equal(initial_embeddings(cfg.model_config(), seeds), h.extra["embed"][:, 0])


def test_both_integrators_cross_where_the_chapter_helper_says():
    cfg = replace(ToyConfig(), effective_steps=600, eval_every=5)
    from repro.data.tasks import BinaryOpTask, Split, build_task_data

    data = build_task_data(BinaryOpTask("addition", 10, ordered=False), Split(train_count=45, data_seed=58),
                           target="regression", target_dim=30)
    pairs = [tuple(x) for x in data.inputs[torch.as_tensor(data.train_idx)].tolist()]
    init = initial_embeddings(cfg.model_config(), [0, 1, 2])[..., 0]
    spread = integrate_from_starts(init, pairs, 10, lr=cfg.lr_repr, steps=cfg.effective_steps, record_every=5,
                                   seeds=[0, 1, 2])
    for rows in ("train", "all"):
        np.testing.assert_array_equal(spread.crossing[rows], effective_rqi_steps(cfg, init, pairs, rows=rows))
    assert spread.n_h["all"] == pytest.approx(10 / (2 * 30 * 1e-3))  # lambda_3 of the full p = 10 table is 30
    assert spread.n_h["train"] == pytest.approx(theory.theory_grokking_steps(theory.grokking_rate(pairs, 10), 10, 1e-3))
    r = spread.ratio("all")
    assert np.all((r == -1) | (r == spread.crossing["all"] / spread.n_h["all"]))


# ---------------------------------------------------------------------------- the seed spread's stored confirmation


def test_confirmation_config_is_the_book_spread_with_fresh_seeds(monkeypatch):
    from repro.experiments.liu2022_effective_theory import CONFIRM_SEEDS, confirmation_config

    monkeypatch.setenv("REPRO_SCALE", "smoke")  # the config is the book scale's whatever the scale
    cfg = confirmation_config()
    monkeypatch.setenv("REPRO_SCALE", "book")
    book = ToyConfig.for_scale()
    assert cfg == replace(book, spread_seeds=CONFIRM_SEEDS)
    assert len(cfg.spread_seeds) == len(book.spread_seeds) and not set(cfg.spread_seeds) & set(range(100))


def test_spread_confirmation_is_the_live_spreads_1d_half_and_round_trips(tmp_path):
    from repro.experiments.liu2022_critical_data import run_reference, run_seed_spread
    from repro.experiments.liu2022_effective_theory import (CONFIRM_LABEL, SPREAD_NAMES, SpreadConfirmation,
                                                            run_spread_confirmation, spread_statistics,
                                                            stored_confirmation)

    cfg = replace(ToyConfig(), reference_steps=20, effective_steps=20, eval_every=10, spread_seeds=(1000, 1001))
    live = run_seed_spread(run_reference(cfg, progress=False), grid=4, progress=False)
    conf = run_spread_confirmation(cfg, progress=False)
    np.testing.assert_array_equal(conf.rqi, live.rqi[1])
    np.testing.assert_array_equal(conf.val_acc, live.val_acc[1])
    np.testing.assert_array_equal(conf.rqi_step, live.rqi_step)
    stats = spread_statistics(live.val_acc[1], live.rqi[1])
    assert set(stats) == set(SPREAD_NAMES.values())
    assert stats[SPREAD_NAMES["rqi"]][0] == np.median(live.rqi[1])
    np.testing.assert_array_equal(stats[SPREAD_NAMES["rqi"]][1], live.rqi[1])
    assert conf.statistics()[SPREAD_NAMES["val_acc"]][0] == np.median(live.val_acc[1])

    assert stored_confirmation(tmp_path, cfg) is None
    ResultsStore(tmp_path).save(cfg, conf.to_arrays(), label=CONFIRM_LABEL)
    loaded, manifest = stored_confirmation(tmp_path, cfg)
    assert manifest["label"] == CONFIRM_LABEL
    for name in SpreadConfirmation.ARRAYS:
        np.testing.assert_array_equal(getattr(loaded, name), getattr(conf, name))
    with pytest.raises(ValueError, match="seeds"):
        SpreadConfirmation.from_arrays(replace(cfg, spread_seeds=(1000,)), conf.to_arrays())

"""Runs in the official toy code's random-number order (repro.data.tasks.toy_runs) and the trainer's support for
them: per-run regression templates and a given minibatch schedule."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from repro.data.tasks import BinaryOpTask, Split, TaskData, build_task_data, toy_runs
from repro.models.networks import EmbedMLPConfig
from repro.training.trainer import BatchSchedule, Performance, Record, TrainConfig, train

TASK = BinaryOpTask("addition", 10, ordered=False)
TOY = EmbedMLPConfig(n_symbols=10, d_embed=1, hidden=(16, 16), d_out=30)


def _official_draws(n, seed, batch, steps):
    """toy/train_add.py's draws, transcribed: np.random.seed(seed); y_templates = np.random.normal(0, 1, (2p-1, 30));
    train_id = np.random.choice(all_num, train_num, replace=False); each step
    choice = np.random.choice(np.arange(train_num), batch_size, replace=False) with batch_size = min(45, train_num)."""
    np.random.seed(seed)
    templates = np.random.normal(0, 1, size=(19, 30))
    train_id = np.random.choice(55, n, replace=False)
    b = min(batch, n)
    choices = [np.random.choice(np.arange(n), b, replace=False) for _ in range(steps)]
    return templates, train_id, [train_id[c] for c in choices]


@pytest.mark.parametrize("counts, seeds", [((30, 45, 20), (0, 1, 2)), ((50, 54), (2, 0))])
def test_toy_runs_are_the_official_draws(counts, seeds):
    runs = toy_runs(TASK, counts, seeds, batch_size=45, steps=7)
    for r, (n, s) in enumerate(zip(counts, seeds)):
        templates, train_id, batches = _official_draws(n, s, 45, 7)
        assert torch.equal(runs.data.templates[r], torch.as_tensor(templates, dtype=torch.float32))
        assert torch.equal(runs.train_mask[r], torch.isin(torch.arange(55), torch.as_tensor(train_id)))
        labels = runs.data.labels
        assert torch.equal(runs.data.targets[r], runs.data.templates[r][labels])
        if n > 45:
            assert np.array_equal(runs.batches[r].numpy(), np.stack(batches))
    if max(counts) <= 45:
        assert runs.batches is None
    # the same draws as the single-run builder (shared templates) of the same seed
    single = build_task_data(TASK, Split(train_count=counts[0], data_seed=seeds[0]), target="regression")
    assert torch.equal(single.templates, runs.data.templates[0])


def test_toy_runs_refuses_mixed_groups_and_bad_input():
    with pytest.raises(ValueError, match="mix runs that minibatch"):
        toy_runs(TASK, (30, 50), (0, 0), batch_size=45, steps=3)
    with pytest.raises(ValueError, match="equal length"):
        toy_runs(TASK, (30, 50), (0,))
    with pytest.raises(ValueError, match="counts"):
        toy_runs(TASK, (55,), (0,))
    with pytest.raises(ValueError, match="steps"):
        toy_runs(TASK, (50,), (0,), batch_size=45)


def _alone(runs: TaskData, r: int) -> TaskData:
    """Run r's data as a shared-template table (what the trainer trained before per-run templates)."""
    return replace(runs, targets=runs.targets[r], templates=runs.templates[r])


@pytest.mark.parametrize("fast_grad", [True, False])
def test_per_run_templates_equal_each_run_alone(fast_grad):
    runs = toy_runs(TASK, (30, 40, 45), (3, 1, 4))
    cfg = TrainConfig(steps=25, lr_repr=1e-2, lr_dec=1e-2, eval_every=5, dtype="float64", device="cpu")
    seeds = {"init_seed": [3, 1, 4]}
    perf = Performance(fast_grad=fast_grad)
    together = train(TOY, runs.data, cfg, seeds, split=(runs.train_mask, ~runs.train_mask),
                     record=Record(keep_final_params=True), performance=perf.but(progress=False))
    blocked = train(TOY, runs.data, cfg, seeds, split=(runs.train_mask, ~runs.train_mask),
                    performance=replace(perf, block_runs=1, workers=1).but(progress=False))
    for r in range(3):
        alone = train(TOY, _alone(runs.data, r), replace(cfg, init_seed=seeds["init_seed"][r]),
                      split=(runs.train_mask[r:r + 1], ~runs.train_mask[r:r + 1]),
                      record=Record(keep_final_params=True), performance=perf.but(progress=False))
        for key in ("train_loss", "val_loss", "train_acc", "val_acc"):
            np.testing.assert_allclose(together[key][r], alone[key][0], rtol=1e-10, err_msg=key)
            np.testing.assert_allclose(blocked[key][r], alone[key][0], rtol=1e-10, err_msg=key)
        np.testing.assert_allclose(together.final_params["embed"][r], alone.final_params["embed"][0], rtol=1e-9)
    # the templates differ between runs, and accuracy is judged on each run's own
    assert not torch.equal(runs.data.templates[0], runs.data.templates[1])


def test_per_run_templates_must_match_the_runs():
    runs = toy_runs(TASK, (30, 40), (0, 1))
    with pytest.raises(ValueError, match=r"one per run\) for 2 runs"):
        train(TOY, runs.data, TrainConfig(steps=1), {"init_seed": [0, 1, 2]}, performance=Performance(progress=False))
    with pytest.raises(ValueError, match="both be"):
        replace(runs.data, templates=runs.data.templates[0])


def _official_loop(data: TaskData, train_id, schedule, init: dict, cfg: TrainConfig, steps: int):
    """toy/train_add.py's training loop, transcribed (float64): AdamW on the embeddings and on the decoder, each
    step the MSE over the scheduled minibatch; returns the final embeddings and decoder weights."""
    embed = torch.nn.Parameter(torch.as_tensor(init["embed"][0]).clone())
    weights = [torch.nn.Parameter(torch.as_tensor(init[k][0]).clone()) for k in ("W0", "b0", "W1", "b1", "W2", "b2")]
    opt_r = torch.optim.AdamW([embed], lr=cfg.lr_repr, weight_decay=0.0)
    opt_d = torch.optim.AdamW(weights, lr=cfg.lr_dec, weight_decay=0.0, betas=(0.9, 0.999))
    for step in range(steps):
        idx = torch.as_tensor(schedule[step], dtype=torch.int64)
        x, y = data.inputs[idx], data.targets[idx]
        h = embed[x[:, 0]] + embed[x[:, 1]]
        for k in range(3):
            h = h @ weights[2 * k] + weights[2 * k + 1]
            if k < 2:
                h = torch.tanh(h)
        loss = ((h - y) ** 2).mean()
        opt_r.zero_grad(); opt_d.zero_grad()
        loss.backward()
        opt_r.step(); opt_d.step()
    return embed.detach().numpy(), weights[4].detach().numpy()


def test_a_scheduled_minibatch_run_is_the_official_loop():
    steps = 30
    runs = toy_runs(TASK, (50, 54), (0, 1), batch_size=45, steps=steps)
    cfg = TrainConfig(steps=steps, lr_repr=1e-3, lr_dec=1e-4, batch_size=45, eval_every=10, dtype="float64",
                      device="cpu")
    first = {}

    def record(step, params):
        if step == 0:
            first.update({k: v.detach().clone() for k, v in params.items()})
        return {}

    # one block, so that the callback sees both runs' initial parameters at once
    hist = train(TOY, runs.data, cfg, {"init_seed": [0, 1]}, split=(runs.train_mask, ~runs.train_mask),
                 record=Record(callback=record, keep_final_params=True), components=(BatchSchedule(runs.batches),),
                 performance=Performance(block_runs=2, workers=1, progress=False))
    for r in range(2):
        init = {k: v[r:r + 1] for k, v in first.items()}
        embed, w2 = _official_loop(_alone(runs.data, r).to(dtype=torch.float64), None, runs.batches[r].numpy(), init,
                                   cfg, steps)
        np.testing.assert_allclose(hist.final_params["embed"][r], embed, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(hist.final_params["W2"][r], w2, rtol=1e-9, atol=1e-12)
    # a schedule is not the trainer's own epochs
    own = train(TOY, _alone(runs.data, 0), replace(cfg, init_seed=0),
                split=(runs.train_mask[:1], ~runs.train_mask[:1]), record=Record(keep_final_params=True),
                performance=Performance(progress=False))
    assert not np.allclose(own.final_params["embed"][0], hist.final_params["embed"][0])


def test_bad_batch_schedules_raise():
    runs = toy_runs(TASK, (50, 54), (0, 1), batch_size=45, steps=5)
    kw = dict(split=(runs.train_mask, ~runs.train_mask), performance=Performance(progress=False))
    cfg = TrainConfig(steps=5, batch_size=45)
    with pytest.raises(ValueError, match="needs cfg.batch_size"):
        train(TOY, runs.data, replace(cfg, batch_size=None), {"init_seed": [0, 1]},
              components=(BatchSchedule(runs.batches),), **kw)
    with pytest.raises(ValueError, match="shape"):
        train(TOY, runs.data, replace(cfg, steps=6), {"init_seed": [0, 1]}, components=(BatchSchedule(runs.batches),),
              **kw)
    with pytest.raises(ValueError, match="outside their run's training set"):
        train(TOY, runs.data, cfg, {"init_seed": [0, 1]}, components=(BatchSchedule(runs.batches.flip(0)),), **kw)
    small = toy_runs(TASK, (40, 40), (0, 1))
    with pytest.raises(ValueError, match="larger than the batch"):
        train(TOY, small.data, replace(cfg, batch_size=40), {"init_seed": [0, 1]},
              split=(small.train_mask, ~small.train_mask),
              components=(BatchSchedule(runs.batches[:, :, :40].clamp(max=0)),),
              performance=Performance(progress=False))

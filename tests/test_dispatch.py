"""The dispatch counter counts aten operations and host synchronisations; per-step counts come from the
difference of two dry-run lengths, at two sizes of the seed axis."""
from dataclasses import dataclass

import torch

from repro.book import paper_scale as ps
from repro.book.dispatch import DispatchCounter, count_step, dispatch_table


def test_counter_counts_operations_and_host_round_trips():
    with DispatchCounter() as c:
        x = torch.ones(3)
        y = (x * 2).sum()
        y.item()  # _local_scalar_dense
        x.tolist()  # a Python round trip that dispatches nothing on a CPU tensor
    assert c.ops >= 3 and c.syncs == 2
    assert torch.Tensor.tolist.__name__ == "tolist"  # the methods are restored


@dataclass(frozen=True)
class Fake:
    steps: int = 100
    eval_every: int = 10
    n_seeds: int = 8
    per_seed_loop: bool = False


def fake_run(cfg):
    """A step of one batched op (or one op per seed), an item() per step, and an evaluation of 3 ops."""
    w = torch.zeros(cfg.n_seeds)
    for step in range(cfg.steps):
        if cfg.per_seed_loop:
            for k in range(cfg.n_seeds):
                w[k].add_(1.0)
        else:
            w.add_(1.0)
        float(w.sum())
        if step % cfg.eval_every == 0:
            w.mul(2).add(1).neg()
    return w


def test_step_counts_separate_training_from_evaluation():
    exp = ps.PaperExperiment("fake", "fake", Fake, fake_run)
    two, eight = count_step(exp, 2), count_step(exp, 8)
    assert (two.runs_factor, eight.runs_factor) == (2, 8)
    assert two.ops_per_step == eight.ops_per_step  # batched: independent of the number of runs
    assert two.syncs_per_step == 1 and two.ops_per_evaluation == 3 and two.syncs_per_evaluation == 0
    looped = ps.PaperExperiment("fake", "looped", lambda: Fake(per_seed_loop=True), fake_run)
    a, b = count_step(looped, 2), count_step(looped, 8)
    assert b.ops_per_step > a.ops_per_step
    table = dispatch_table([("fake", "fake", two, eight), ("fake", "looped", a, b)])
    assert "| no |" in table and "| yes |" in table

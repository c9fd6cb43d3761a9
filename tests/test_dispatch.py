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


def test_held_norm_and_safe_cross_entropy_do_not_wait_for_the_host():
    import pytest
    import torch

    from repro.book.dispatch import DispatchCounter
    from repro.models.fastgrad import safe_cross_entropy_weights
    from repro.training.hooks import FixedNorm

    flat = torch.randn(4, 30)
    hook = FixedNorm(flat, torch.tensor([True, False, True, True]))
    logits, labels, mask = torch.randn(4, 6, 5), torch.randint(0, 5, (6,)), torch.rand(4, 6) > 0.2
    with DispatchCounter() as counter:
        flat.add_(0.1)
        hook(flat)
        safe_cross_entropy_weights(logits, labels, mask)
    assert counter.syncs == 0 and counter.ops > 0
    torch.testing.assert_close(flat.norm(dim=1)[hook.fixed], hook.target[hook.fixed])
    hook.check()  # nothing reached zero
    flat[2] = 0.0  # a held run at zero cannot be rescaled: noted without a sync, raised when the block checks
    hook(flat)
    with pytest.raises(ValueError, match="fixed_norm: a run's parameters reached all zeros"):
        hook.check()


def test_a_chapters_recount_replaces_its_rows_only():
    import pytest

    from repro.book.dispatch import dated_page, recount_page

    head = "| chapter | experiment | ops / step |\n|---|---|---|"
    page = dated_page(head + "\n| `a` | one | 5 / 5 |\n| `b` | two | 7 / 9 |\n| `a` | three | 1 / 1 |")
    new = recount_page(page, "a", head + "\n| `a` | one | 4 / 4 |\n| `a` | three | 2 / 2 |")
    lines = new.splitlines()
    assert lines[0] == page.splitlines()[0] and "The rows of `a` re-counted (" in new
    assert [line for line in lines if line.startswith("| `")] == ["| `a` | one | 4 / 4 |", "| `b` | two | 7 / 9 |",
                                                                 "| `a` | three | 2 / 2 |"]
    with pytest.raises(ValueError, match="chapter='a'"):
        recount_page(page, "a", head + "\n| `a` | one | 4 / 4 |")  # one experiment missing
    with pytest.raises(ValueError, match="chapter='c'"):
        recount_page(page, "c", head + "\n| `a` | one | 4 / 4 |")

import numpy as np
import pytest

from repro.metrics.phases import PhaseRule, classify, classify_history, phase_counts
from repro.training.trainer import History


def test_classify_table_1():
    tr = np.array([100, 100, 100, -1, 500])
    te = np.array([500, 5000, -1, -1, 1500])
    assert list(classify(tr, te, gap=1000)) == ["comprehension", "grokking", "memorization", "confusion", "grokking"]
    assert phase_counts(classify(tr, te)) == {"comprehension": 1, "grokking": 2, "memorization": 1, "confusion": 1}


def test_classify_history_with_budget():
    h = History(steps=np.array([0, 100, 2000, 5000]),
                metrics={"train_acc": np.array([[0, 1, 1, 1], [0, 0, 0, 0.95]]),
                         "val_acc": np.array([[0, 0, 0, 1], [0, 0, 0, 0]])})
    assert list(classify_history(h)) == ["grokking", "memorization"]
    assert list(classify_history(h, PhaseRule(budget=3000))) == ["memorization", "confusion"]
    with pytest.raises(ValueError, match="val_threshold"):
        PhaseRule(val_threshold=1.5)


def test_example_runs_pick_the_deepest_majority_cell():
    from repro.metrics.phases import example_runs

    m, c, g = "memorization", "comprehension", "grokking"
    one = np.array([[m, m, m, c], [m, m, m, c], [m, m, m, c]], dtype=object)
    seeds = np.stack([one, one, one])
    seeds[1, 1, 1] = g  # a minority phase in one seed: no cell has it as its majority, so no example
    seeds[0, 0, 0] = c  # the corner loses its full share of memorization
    ex = example_runs(seeds)
    assert set(ex) == {m, c}
    assert ex[m] == (0, 1, 0)  # full share, and the farthest from the comprehension column among those (tie: first)
    assert ex[c][1:] == (0, 3) and ex[c][0] == 0
    with pytest.raises(ValueError, match="seeds, rows, columns"):
        example_runs(one)

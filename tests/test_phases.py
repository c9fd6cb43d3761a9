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

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

from repro.plotting.shared import PHASE_COLORS, plot_phase_diagram, plot_training_curves


def test_plots_have_labels():
    ax = plot_training_curves(np.arange(0, 100, 10), {"train": np.linspace(0, 1, 10), "validation": np.zeros((3, 10))},
                              markers={"fit": 20})
    assert ax.get_xscale() == "log" and ax.get_xlabel() and ax.get_ylabel()
    phases = np.array([["comprehension", "grokking"], ["memorization", "confusion"]])
    ax = plot_phase_diagram(phases, [1e-4, 1e-3], [0, 1], xlabel="decoder lr", ylabel="weight decay", logx=True)
    assert "decoder lr" in ax.get_xlabel() and len(ax.get_legend().get_texts()) == 4
    assert len(PHASE_COLORS) == 4
    with pytest.raises(ValueError, match="phases has shape"):
        plot_phase_diagram(phases, [1e-4], [0, 1], xlabel="x", ylabel="y")
    plt.close("all")

"""Figures of the chapter ``book/mohamadi2024_why_grok``; the runs they show are made by
:mod:`repro.experiments.mohamadi2024_why_grok`."""
from __future__ import annotations

import numpy as np

from repro.experiments.mohamadi2024_why_grok import ClassificationResult, RegressionResult, WhyGrokConfig
from repro.plotting.shared import plot_seed_band


def plot_kernel_regime(rank: dict, sweep: dict):
    """(a) eNTK rank against width with the bound min(n, h(3p−2)); (b) kernel predictors' relative test loss."""
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    p, n = rank["p"], rank["n"]
    ax1.plot(rank["widths"], rank["bound"], "-", color="0.5", label="min(n, h(3p−2))")
    ax1.plot(rank["widths"], rank["rank"], "o", label="measured rank")
    ax1.axvline(n / (3 * p - 2), ls="--", color="0.4", lw=1, label="h = n/(3p−2)")
    ax1.set_xlabel("width h")
    ax1.set_ylabel("rank of the eNTK")
    ax1.set_title(f"eNTK at init, p = {p}, n = {n} triples")
    ax1.legend()
    for i, p_ in enumerate(sweep["ps"]):
        line, = ax2.plot(sweep["fractions"], sweep["empirical"][i], "o-", label=f"eNTK at init, p = {p_}")
        ax2.plot(sweep["fractions"], sweep["expected"][i], "s--", color=line.get_color(), label=f"expected NTK, p = {p_}")
    ax2.axhline(1.0, color="k", lw=1, label="zero predictor")
    ax2.axhline(0.5, color="k", lw=1, ls=":", label="Thm 3.4 bound (1/2)")
    ax2.set_yscale("log")
    ax2.set_xlabel("training fraction n / p³")
    ax2.set_ylabel("test loss / zero predictor's")
    ax2.set_title("kernel regression (h = 4p)")
    ax2.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def plot_classification(results: dict, cfg: WhyGrokConfig):
    """(a) train (dashed, median) / test (solid: median, band and every seed) accuracy for each α at grok_p;
    (b) ‖Θ̂_t − Θ̂_0‖_F per seed and the median test accuracy; (c) final test accuracy against n / p^{5/3}
    (median over seeds, bars: full range)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.7))
    res = results[cfg.grok_p]
    c = res.config
    x = np.maximum(res.steps, 1)
    alphas = [a for i, a in enumerate(c.init_scales) if c.n_coeffs[i] == 2.0 and a not in c.init_scales[:i]]
    for k, alpha in enumerate(alphas):
        rows = res.runs_of(2.0, alpha)
        plot_seed_band(axes[0], x, res.test_acc[rows], label=f"α = {alpha:g} (test)", color=f"C{k}", band="range")
        axes[0].plot(x, np.median(res.train_acc[rows], axis=0), "--", color=f"C{k}", lw=1)
    axes[0].set_xscale("log")
    axes[0].set_xlabel("normalized GD step")
    axes[0].set_ylabel("accuracy (dashed: train, median)")
    axes[0].set_title(f"p = {c.p}, n = 2p^(5/3) = {c.train_sizes()[0]}")
    axes[0].legend(fontsize=7)
    ax = axes[1]
    main = res.runs_of(2.0, 1.0)
    for i, r in enumerate(main):
        ax.plot(np.maximum(res.ntk_steps, 1), np.maximum(res.ntk_change[r], 1e-12), "-", lw=1, alpha=0.6, color="C3",
                label="‖Θ̂_t − Θ̂_0‖_F (each seed)" if i == 0 else None)
    fits = res.first_step("train", 1.0)[main]
    if np.all(fits > 0):
        fit = float(np.median(fits))
        ax.axvline(fit, ls="--", color="0.4", lw=1)
        ax.annotate("train set fitted (median)", (fit, 0.03), xycoords=("data", "axes fraction"), rotation=90,
                    fontsize=9, ha="right", va="bottom")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("normalized GD step")
    ax.set_ylabel("first-logit eNTK change (Frobenius)")
    ax.set_title(f"eNTK on the training pairs (α = 1), ‖Θ̂_0‖_F ≈ {np.median(res.ntk_norm0[main]):.0f}")
    ax.legend(fontsize=7, loc="upper left")
    twin = ax.twinx()
    twin.plot(x, np.median(res.test_acc[main], axis=0), color="C0", lw=1, label="test accuracy (median)")
    twin.set_ylabel("test accuracy (median over seeds)", color="C0")
    twin.grid(False)
    for p, rp in sorted(results.items()):
        coeffs = sorted({rp.config.n_coeffs[r] for r in range(rp.config.n_runs) if rp.config.init_scales[r] == 1.0})
        final = [rp.test_acc[rp.runs_of(cf, 1.0), -1] for cf in coeffs]
        med = np.array([np.median(f) for f in final])
        err = np.array([med - [f.min() for f in final], [f.max() for f in final] - med])
        axes[2].errorbar(coeffs, med, yerr=err, fmt="o-", capsize=3, label=f"p = {p}")
    axes[2].axhline(1 / cfg.grok_p, color="0.5", lw=1, ls=":", label=f"chance (p = {cfg.grok_p})")
    axes[2].set_xscale("log")
    axes[2].set_xlabel("n / p^(5/3)")
    axes[2].set_ylabel(f"test accuracy after {cfg.class_steps} steps")
    axes[2].set_title(f"sample complexity (median of {len(cfg.seeds)} seeds, bars: range)")
    axes[2].legend(fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_init_scale_gd(res: ClassificationResult):
    """Fig. 1 (middle) under plain GD: per init scale α (colour), the median over the seeds that stay finite
    (band: range) of (left) train (dashed) and test (solid) accuracy and (right) the accuracy on test pairs whose
    mirror is untrained too, against the step (log axis)."""
    import matplotlib.pyplot as plt

    c = res.config
    finite = np.isfinite(res.l2[:, -1])
    x = res.steps[1:]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    for i, a in enumerate(sorted(set(c.init_scales), reverse=True)):
        rows = [r for r in range(c.n_runs) if c.init_scales[r] == a and finite[r]]
        if not rows:
            continue
        color = f"C{i}"
        plot_seed_band(axes[0], x, res.test_acc[rows, 1:], label=f"α = {a:g}, test", color=color, band="range",
                       every_seed=False)
        axes[0].plot(x, np.median(res.train_acc[rows, 1:], axis=0), "--", color=color, lw=1)
        plot_seed_band(axes[1], x, res.unmirrored_acc[rows, 1:], label=f"α = {a:g}", color=color, band="range",
                       every_seed=False)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel(f"plain GD step (lr {c.lr:g})")
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("accuracy (dashed: train, solid: test)")
    axes[0].set_title(f"p = {c.p}, h = {c.width}, n = 2p^(5/3)")
    axes[1].set_ylabel("accuracy, test pairs with unseen mirror")
    axes[1].set_title("pairs a network of a + b = b + a cannot answer")
    fig.tight_layout()
    return fig


def plot_regression(res: RegressionResult):
    """(a) train (dashed, median) and test (solid: median, band and every seed) loss relative to the zero
    predictor per α; (b) median ‖θ‖∞ and the median scale-free eNTK distance over training. Runs that
    diverged (non-finite at the end: GD at lr 1 sits at the edge of stability) are left out."""
    import matplotlib.pyplot as plt

    c = res.config
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
    x = np.maximum(res.steps, 1)
    finite = np.isfinite(res.test_loss[:, -1]) & np.isfinite(res.train_loss[:, -1])
    for k, alpha in enumerate(c.init_scales):
        rows = [r for r, a in enumerate(c.run_scales) if a == alpha and finite[r]]
        if not rows:
            continue
        color = f"C{k}"
        plot_seed_band(ax1, x, res.test_loss[rows], label=f"α = {alpha:g} (test)", color=color, band="range")
        ax1.plot(x, np.median(res.train_loss[rows], axis=0), "--", color=color, lw=1)
        plot_seed_band(ax2, x, res.linf[rows], label=f"‖θ‖∞, α = {alpha:g}", color=color, band="range",
                       every_seed=False)
        ax2.plot(np.maximum(res.ntk_steps, 1), np.median(res.ntk_distance[rows], axis=0), ":", marker="o", ms=3,
                 color=color)
    ax1.axhline(1.0, color="k", lw=1, label="zero predictor")
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlabel("GD step")
    ax1.set_ylabel("loss / zero predictor's (dashed: train)")
    ax1.set_title(f"regression, p = {c.p}, h = {c.width}, n = {c.n_train}")
    ax1.legend(fontsize=7)
    ax2.set_xscale("log")
    ax2.set_xlabel("GD step")
    ax2.set_ylabel("‖θ‖∞ (solid); eNTK distance (dotted)")
    ax2.set_title("ℓ∞ norm and kernel distance 1 − cos(K_t, K_0)")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def plot_ntk_classification(res: ClassificationResult):
    """Fig. 1 (left and middle) for a stored classification run in the NTK parametrization, per init scale α
    (colour; median over seeds, band: range): (a) train (dashed) and test (solid) accuracy; (b) the raw change
    of the first-logit eNTK ‖Θ̂_t − Θ̂_0‖_F (log axis); (c) its scale-free distance 1 − cos(Θ̂_t, Θ̂_0). A dotted
    vertical line marks each α's median step with 100 % training accuracy."""
    import matplotlib.pyplot as plt

    c = res.config
    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.6))
    x = np.maximum(res.steps, 1)
    xk = np.maximum(res.ntk_steps, 1)
    fit = res.first_step("train", 1.0)
    for i, a in enumerate(sorted(set(c.init_scales), reverse=True)):
        rows = [r for r in range(c.n_runs) if c.init_scales[r] == a]
        color = f"C{i}"
        plot_seed_band(axes[0], x, res.test_acc[rows], label=f"α = {a:g} (test)", color=color, band="range",
                       every_seed=False)
        axes[0].plot(x, np.median(res.train_acc[rows], axis=0), "--", color=color, lw=1)
        plot_seed_band(axes[1], xk[1:], res.ntk_change[rows, 1:], label=f"α = {a:g}", color=color, band="range",
                       every_seed=False)
        plot_seed_band(axes[2], xk[1:], res.ntk_distance[rows, 1:], label=f"α = {a:g}", color=color, band="range",
                       every_seed=False)
        fitted = fit[rows][fit[rows] >= 0]
        for ax in axes:
            if fitted.size:
                ax.axvline(max(float(np.median(fitted)), 1), color=color, ls=":", lw=1)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("normalized GD step")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("accuracy (dashed: train)")
    axes[0].set_title(f"p = {c.p}, h = {c.width}, n = 2p^(5/3)\n{c.parametrization} parametrization", fontsize=11)
    axes[1].set_yscale("log")
    axes[1].set_ylabel("‖Θ̂_t − Θ̂_0‖_F (first logit, training pairs)")
    axes[1].set_title("raw eNTK change")
    axes[2].set_ylabel("1 − cos(Θ̂_t, Θ̂_0)")
    axes[2].set_title("scale-free eNTK distance")
    fig.tight_layout()
    return fig


def plot_regression_accuracy(results: list[RegressionResult]):
    """Fig. 2 (left)'s quantity for each stored regression run, one panel per p: training accuracy on the
    training triples (|g − y| < p/2, dashed, median) and the argmax accuracy over all p^2 pairs (solid: median,
    range band, every seed) per α, with chance 1/p dotted; then ‖θ‖∞ (the parameters') per α and p."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results) + 1, figsize=(min(12.5, 4.2 * (len(results) + 1)), 3.6))
    for ax, res in zip(axes, results):
        c = res.config
        x = np.maximum(res.steps, 1)
        for k, alpha in enumerate(c.init_scales):
            rows = [r for r, a in enumerate(c.run_scales) if a == alpha]
            color = f"C{k}"
            plot_seed_band(ax, x, res.pair_acc[rows], label=f"α = {alpha:g}: pairs (argmax)", color=color, band="range")
            ax.plot(x, np.median(res.train_acc[rows], axis=0), "--", color=color, lw=1)
            axes[-1].plot(x, np.median(res.linf[rows], axis=0), color=color, ls="-" if c is results[0].config else "--",
                          label=f"p = {c.p}, α = {alpha:g}")
        ax.axhline(1 / c.p, color="k", lw=1, ls=":", label="chance 1/p")
        ax.set_xscale("log")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("GD step")
        ax.set_ylabel("accuracy (dashed: training triples)")
        ax.set_title(f"p = {c.p}, h = {c.width}, n = {c.n_train}\nlr {c.lr:g}, {c.parametrization}", fontsize=11)
        ax.legend(fontsize=7)
    axes[-1].set_xscale("log")
    axes[-1].set_xlabel("GD step")
    axes[-1].set_ylabel("‖θ‖∞ of the parameters (median)")
    axes[-1].set_title("ℓ∞ norm under λ = 1e-4")
    axes[-1].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def plot_transformer(res):
    """Fig. 5's three panels for one :class:`TransformerResult` or a list of them (one per seed; median, range
    band and every seed faintly): (a) train (dashed) and test (solid) accuracy, plus test pairs whose mirror is
    unseen (dotted); (b) train and test cross-entropy; (c) the eNTK's change ‖K_t − K_0‖_F (log axis) and its
    scale-free distance 1 − cos(K_t, K_0). A dashed line marks the (median) step at which the training set is
    fitted."""
    import matplotlib.pyplot as plt

    results = list(res) if isinstance(res, (list, tuple)) else [res]
    r0 = results[0]
    c = r0.config
    x = r0.steps
    stack = lambda f: np.stack([f(r) for r in results])
    fits = np.array([r.first_step("train", 1.0) for r in results])
    fit = float(np.median(fits)) if np.all(fits > 0) else -1
    step_label = f"{'AdamW' if c.optimizer == 'adamw' else 'GD'} step"
    fig, axes = plt.subplots(1, 3, figsize=(12.5, 3.7))
    ax = axes[0]
    plot_seed_band(ax, x, stack(lambda r: r.train_acc), label="train", color="C0", band="range", every_seed=False)
    plot_seed_band(ax, x, stack(lambda r: r.test_acc), label="test (all unseen pairs)", color="C1", band="range")
    plot_seed_band(ax, x, stack(lambda r: r.unmirrored_acc), label=f"test, mirror also unseen ({r0.n_unmirrored} pairs)",
                   color="C2", band="range")
    ax.set_xlabel(step_label)
    ax.set_ylabel("accuracy (fraction correct)")
    ax.set_title(f"p = {c.p}, n = 2p^(5/3) = {c.n_train} of {c.p ** 2} pairs")
    ax.legend(fontsize=7)
    ax = axes[1]
    plot_seed_band(ax, x, stack(lambda r: r.train_loss), label="train", color="C0", band="range")
    plot_seed_band(ax, x, stack(lambda r: r.test_loss), label="test", color="C1", band="range")
    ax.set_yscale("log")
    ax.set_xlabel(step_label)
    ax.set_ylabel("cross-entropy (nats)")
    ax.set_title(f"d_model = {c.d_model}, {c.n_heads} heads, d_mlp = {c.d_mlp}")
    ax.legend(fontsize=7)
    ax = axes[2]
    plot_seed_band(ax, x[1:], stack(lambda r: r.kernel_change()[1:]), label="‖K_t − K_0‖_F", color="C3", band="range")
    ax.set_yscale("log")
    ax.set_xlabel(step_label)
    ax.set_ylabel("eNTK change (Frobenius)")
    norm0 = np.median([r.ntk_norm0 for r in results])
    ax.set_title(f"{'first-logit eNTK' if c.ntk_output == 'first' else 'pNTK'} on {min(c.ntk_points, c.p ** 2)} pairs, "
                 f"‖K_0‖_F ≈ {norm0:.0f}", fontsize=10)
    twin = ax.twinx()
    twin.plot(x, np.median(stack(lambda r: r.kernel_distance()), axis=0), color="0.4", lw=1,
              label="1 − cos(K_t, K_0) (median)")
    twin.set_ylabel("kernel distance 1 − cos(K_t, K_0)")
    twin.set_ylim(0, 1)
    twin.grid(False)
    for a in axes:
        if fit > 0:
            a.axvline(fit, ls="--", color="0.4", lw=1)
    if fit > 0:
        axes[0].annotate("train set fitted", (fit, 0.3), rotation=90, fontsize=9, ha="right", va="center")
    lines = ax.get_legend_handles_labels()[0] + twin.get_legend_handles_labels()[0]
    ax.legend(lines, [line.get_label() for line in lines], fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig

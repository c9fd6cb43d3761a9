"""The setup tables of ``book/liu2023_omnigrok``: each experiment's setup beside Omnigrok's (Liu, Michaud, Tegmark,
ICLR 2023; Z. Liu's 2023 talk) and its official notebooks' (KindXiaoming/Omnigrok), the paper's side as data with
its source (the config classes' defaults, and below the settings they do not hold), ours read from the config,
every difference with its reason (:func:`repro.core.portable.setup_table` refuses an undisclosed one).
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from repro.core.portable import SetupTable, setup_table
from repro.experiments.liu2023_omnigrok import ImageConfig, ModularConfig, TeacherStudentConfig
from repro.experiments.liu2023_omnigrok_messiness import DATA_SIZES, MessinessConfig

if TYPE_CHECKING:
    from repro.models.networks import TransformerConfig

NAMES = ("paper / official code", "ours")
BUDGET = "book scale: a few minutes of two CPU cores"

# Teacher-student (paper §2-§3, Fig. 2; the official landscape and grokking notebooks)
TS_DRAWS = ("teacher, data, student draws",
            "torch.manual_seed(0): teacher, x_train, x_test; student torch.manual_seed(1)")
TS_THETA = ("accuracy threshold theta", "0.01 (paper §3; the official grokking notebook: 0.001)")
DTYPE_ROW = ("dtype", "float32", "float32", "")

# Modular addition (paper §5.1, Fig. 7; the official Nanda-transformer notebook)
MOD_EVAL = ("evaluation interval", "30 steps (free run), 10 (held norm)")
MOD_SPLIT = ("split", "torch random_split after torch.manual_seed(42)")
MOD_INIT_SEEDS = ("init seeds", "torch.manual_seed(42), one run per setting")
STANDIN_REASONS = {
    "p": "the stand-in of the opening chapter, which groks in minutes on a CPU",
    "train_fraction": "the opening chapter's split of the stand-in",
    "ordered_pairs": "the opening chapter's unordered pairs",
    "data_seed": "the opening chapter's split",
    "model": "embeddings + MLP stand-in (the transformer is the stored run of section 4b)",
    "lr": "the stand-in's rate", "constrained_alpha": "the stand-in's good shell: the free run's final norm "
    "(0.3-0.7x did not generalize in 3,000 steps)", "steps": BUDGET, "dtype": "float32 for speed",
    "n_seeds": "several initializations, medians reported"}

# The (w, m) landscape (backup slides, Fig. 6; official addition-landscape.ipynb; paper App. D)
WM_NAMES = ("official notebook (paper App. D)", "ours")
WM_NORM = ("norm held", "the notebook's L2 helper counts the first layer twice", "the plain L2 norm of the decoder")
WM_DRAWS = ("draws of R_linear, R_random, templates, split", "seed 58 (the notebook's generator)")


def official_init_norm(c: TransformerConfig) -> float:
    """The expected norm of the official notebook's initialization for the shapes of ``c``: W_E (d_vocab columns),
    W_pos, W_Q/K/V/O and W_in, W_out ~ N(0, 1/d_model), W_U ~ N(0, 1/d_vocab), zero MLP biases."""
    return float(np.sqrt(c.d_vocab + c.n_ctx + 4 * c.n_heads * c.d_head + 2 * c.d_mlp + c.d_model))


def teacher_student_setup_table(cfg: TeacherStudentConfig) -> SetupTable:
    """The live teacher-student runs (Fig. 2) beside the paper's and the official notebooks'."""
    return setup_table("Teacher-student (Fig. 2): landscape and grokking", TeacherStudentConfig(), cfg, names=NAMES,
                       reasons_if_differs={
                           "landscape_lr": "7x the official rate, so that the landscape converges in a book-scale run",
                           "landscape_steps": f"{BUDGET}; at 7x the rate (the L's lower arm stops higher: a deviation)",
                           "gammas": "four decays in [0.1, 0.8]: ln(w0/wc)/(lr gamma) fits the book-scale run",
                           "grok_lr": "about 3x the paper's rate: a shorter run (times scale as 1/(lr gamma))",
                           "grok_steps": BUDGET,
                           "eval_every": "a finer grid for the shorter run",
                           "n_seeds": "the paper shows one student; we train several and report medians"},
                       extra=[("optimizer", "landscape: Adam, no decay; grokking: AdamW (betas 0.9, 0.999)",
                               "landscape: Adam, no decay; grokking: AdamW (betas 0.9, 0.999)", ""),
                              ("projection (landscape)",
                               "paper §2: rescale to the norm after each step (the notebook: after the forward pass, "
                               "before the step)", "rescale to the norm after each step",
                               "the paper's order; the notebook's lags the rescale by one step"),
                              (*TS_DRAWS, "teacher at init seed 0 and students 1, 2, ... of our generator; x from "
                               "torch.Generator(0)", "the batched trainer draws every run's parameters with its own "
                               "generator: our teacher and data are not the official ones"),
                              (*TS_THETA, f"{cfg.mse_threshold:g}", "the paper's value"),
                              DTYPE_ROW])


def stored_teacher_student_setup_table(cfg: TeacherStudentConfig) -> SetupTable:
    """The stored teacher-student runs at the official settings beside the paper's and the official notebooks'."""
    return setup_table("Teacher-student at the official settings (stored)", TeacherStudentConfig(), cfg, names=NAMES,
                       reasons_if_differs={
                           "landscape_steps": "§3's 10^5 (the notebook: 10^4, read at step 10^4 of the same runs)",
                           "n_seeds": "the paper shows one student; three, medians reported"},
                       extra=[(*TS_DRAWS,
                               "teacher at init seed 0 and students 1-3 of our generator; x from torch.Generator(0)",
                               "the batched trainer draws every run's parameters with its own generator"),
                              (*TS_THETA, f"{cfg.mse_threshold:g}", "the paper's value"), DTYPE_ROW])


def image_setup_table(cfg: ImageConfig) -> SetupTable:
    """The image MLP (Fig. 3) beside the paper's MNIST runs and the official notebook's."""
    return setup_table("Image classifier (Fig. 3): landscape and grokking", ImageConfig(), cfg, names=NAMES,
                       reasons_if_differs={
                           "source": "MNIST cannot be downloaded here: scikit-learn's 8x8 digits, a substitute dataset "
                                     "(so Fig. 3 gets no claim)",
                           "weight_decay": "30x, so that the slow norm decay fits the book-scale run",
                           "steps": BUDGET, "dtype": "float32 for speed (the notebook: float64)",
                           "eval_every": "a finer grid for the shorter run",
                           "landscape_alphas": "7 of the 21 norms, over the same range",
                           "landscape_n_train": "one small size of the paper's 28",
                           "landscape_lr": "3x, for the short run",
                           "landscape_batch_size": "full batch on 200 images",
                           "landscape_steps": BUDGET, "n_seeds": "several initializations, medians reported"},
                       extra=[("model", "784-200-200-10 ReLU MLP, MSE on one-hot labels, AdamW",
                               f"{8 * 8 if cfg.source == 'digits' else 784}-200-200-10 ReLU MLP, MSE on one-hot "
                               "labels, AdamW", "the substitute's 8x8 inputs" if cfg.source == "digits" else "")])


def standin_setup_table(cfg: ModularConfig) -> SetupTable:
    """The live modular-addition stand-in (section 4) beside the talk's transformer and its official notebook."""
    return setup_table("Modular addition, the live stand-in (section 4)", ModularConfig(), cfg, names=NAMES,
                       fields=[f for f in ModularConfig.__dataclass_fields__
                               if f not in ("eval_every", "init_seed", "data_seed", "transformer_init")],
                       reasons_if_differs=STANDIN_REASONS,
                       extra=[(*MOD_EVAL, f"{cfg.eval_every} steps", "one grid for both settings"),
                              (*MOD_INIT_SEEDS, f"seeds {cfg.init_seed}-{cfg.init_seed + cfg.n_seeds - 1} of our "
                               "generator", "several seeds, batched")])


def transformer_row(m: TransformerConfig) -> tuple:
    """The transformer's shape beside the official notebook's (Nanda's one-layer model)."""
    ours = (f"{m.n_layers} layer, d_model {m.d_model}, {m.n_heads} heads x d_head {m.d_head}, "
            f"MLP {m.d_mlp} {m.act_fn.upper() if m.act_fn == 'relu' else m.act_fn}, "
            f"{'no LayerNorm' if m.normalization_type is None else 'LayerNorm'}, causal attention, inputs 'a b ='")
    return ("transformer", "1 layer, d_model 128, 4 heads x d_head 32, MLP 512 ReLU, no LayerNorm, causal attention, "
            "inputs 'a b ='", ours, "see the init and biases rows")


def logits_row(cfg: ModularConfig) -> tuple:
    """The official unembedding's extra '=' logit beside ours."""
    return ("output logits", f"p + 1 = {cfg.p + 1} (the unembedding includes '=')", f"p = {cfg.p}",
            "the '=' logit is never a label; it enters only the softmax's normalization")


def stored_transformer_setup_table(cfg: ModularConfig, w0_free: float, w0_held: float) -> SetupTable:
    """The stored transformer runs (Fig. 7, section 4b) beside the official notebook's; ``w0_free``, ``w0_held``:
    the stored runs' initial weight norms (medians over seeds), set beside the official init's expected norm."""
    norm = official_init_norm(cfg.model_config())
    norm_113 = official_init_norm(ModularConfig().model_config())
    return setup_table(
        "Fig. 7, the stored transformer runs", ModularConfig(), cfg, names=("official notebook", "ours (stored)"),
        fields=[f for f in ModularConfig.__dataclass_fields__ if f not in ("eval_every", "init_seed", "data_seed")],
        reasons={"p": "CPU budget: a float32 step costs 0.075 s at p = 59 against 0.30 s at p = 113 (2 cores)",
                 "n_seeds": "two initializations of each setting, medians reported",
                 "steps": "with 1,044 instead of 3,830 training pairs grokking comes later; the figure marks 15,000",
                 "dtype": "float64 is 2.6x slower on a CPU",
                 "transformer_init": "TransformerLens' init, the book transformer's only one when these runs were "
                                     "made; the init and biases rows below give both"},
        extra=[transformer_row(cfg.model_config()),
               ("init", "W_E, W_pos, W_Q/K/V/O, W_in, W_out ~ N(0, 1/d_model); W_U ~ N(0, 1/d_vocab)",
                "every weight ~ N(0, (0.8/√d_model)²) (TransformerLens' default)",
                "init='transformer_lens' (the notebook's is init='nanda'); found after the runs were stored; its "
                "effect on the curves is not measured"),
               ("biases", "b_in, b_out only (zero init)", "b_Q, b_K, b_V, b_O, b_in, b_out, b_U (zero init, trained, "
                "weight-decayed)", "TransformerLens' layout; zero at the start, so they add nothing to the initial "
                "norm"),
               logits_row(cfg),
               ("initial weight norm", f"{norm:.1f} at p = {cfg.p} (expected; {norm_113:.1f} at "
                "p = 113, where the notebook's plot starts at 42.9)",
                f"{w0_free:.1f} free ({w0_free / norm:.2f}x), {w0_held:.1f} held ({w0_held / norm:.2f}x, not 0.8x)",
                "follows from the init row: run (b) is held at a smaller norm than the notebook's"),
               (*MOD_SPLIT, f"repro.data.tasks' split, data seed {cfg.data_seed}", "another set of training pairs"),
               (*MOD_INIT_SEEDS, f"seeds {cfg.init_seed}-{cfg.init_seed + cfg.n_seeds - 1} of our generator",
                "two seeds, batched"),
               (*MOD_EVAL, f"{cfg.eval_every} steps", "one grid for both settings: steps are known to 50"),
               ("loss, accuracy", "cross-entropy and accuracy at the last position, full batch",
                "cross-entropy and accuracy at the last position, full batch", ""),
               ("norm projection", "after each step: every parameter x (initial norm / new norm)",
                "after each step: every parameter x (initial norm / new norm)", "")])


def p113_setup_table(cfg: ModularConfig) -> SetupTable:
    """The stored runs at the notebook's own settings (p = 113, its init; section 4c) beside the notebook's."""
    return setup_table(
        "Fig. 7 at the notebook's settings, stored", ModularConfig(), cfg, names=("official notebook", "ours (stored)"),
        fields=[f for f in ModularConfig.__dataclass_fields__ if f not in ("init_seed", "data_seed")],
        reasons={"n_seeds": "two initializations of each setting, medians reported",
                 "dtype": "float64 costs 2.6x float32's time a step on a CPU (see the text below the figure)",
                 "eval_every": "one grid for both settings (the notebook logs its held run every 10 steps)"},
        extra=[(*MOD_SPLIT, f"repro.data.tasks' split, data seed {cfg.data_seed}", "another set of training pairs"),
               (*MOD_INIT_SEEDS, f"seeds {cfg.init_seed}-{cfg.init_seed + cfg.n_seeds - 1} of our generator",
                "two seeds, batched"),
               logits_row(cfg)])


def messiness_setup_table(cfg: MessinessConfig) -> SetupTable:
    """The live (w, m) landscape (Fig. 6) beside the official notebook's and the paper's App. D."""
    return setup_table(
        "(w, m) landscape (Fig. 6)", MessinessConfig(), cfg, names=WM_NAMES,
        fields=[f for f in MessinessConfig.__dataclass_fields__
                if f not in ("activation", "lr", "steps", "beta2", "lr_decay_steps", "lr_decay_factor")],
        reasons_if_differs={"messiness": "5 of the 21 values, over the same range",
                            "alphas": "8 of the 20 norms, up to 7.2",
                            "seeds": "three decoder initializations, medians reported"},
        extra=[("activation", "LeakyReLU(0.2) (App. D: ReLU)", cfg.activation.replace("relu", "ReLU"),
                "the paper's App. D; the notebook's LeakyReLU runs in the stored landscape (section 5b)"),
               ("optimizer and schedule",
                "Adam lr 1e-2, betas (0.9, 0.99), lr x 0.2 every 5,000 steps (App. D: Adam lr 1e-3)",
                f"Adam lr {cfg.lr:g}, betas (0.9, 0.999), constant",
                "the paper's constant rate (App. D); the training loss then rises again at large norms (a "
                "deviation below); the notebook's rate and schedule run in the stored landscape (section 5b)"),
               ("steps", "15,000 (App. D: 10^4)", f"{cfg.steps:,}", BUDGET),
               (*WM_NORM, "a plain norm"),
               (*WM_DRAWS, f"seed {cfg.data_seed}, numpy in the notebook's order",
                "the notebook's draws are not reproduced bit for bit")])


def official_messiness_setup_table(cfg: MessinessConfig) -> SetupTable:
    """The stored (w, m) landscape with the notebook's training (section 5b) beside the notebook's and App. D."""
    return setup_table(
        "(w, m) landscape with the notebook's training, stored", MessinessConfig(), cfg,
        names=(WM_NAMES[0], "ours (stored)"),
        reasons={"activation": "the notebook's LeakyReLU(0.2) (App. D: ReLU)",
                 "lr": "the notebook's 1e-2 (App. D: 1e-3)", "beta2": "the notebook's 0.99",
                 "lr_decay_steps": "the notebook's x0.2 when (epoch + 1) % 5000 == 0",
                 "lr_decay_factor": "the notebook's 0.2", "steps": "the notebook's 15,000 (App. D: 10^4)"},
        extra=[(*WM_NORM, "a plain norm"),
               (*WM_DRAWS, f"seed {cfg.data_seed}, numpy in the notebook's order",
                "the notebook's draws are not reproduced bit for bit")])


def data_size_setup_table(cfg: MessinessConfig) -> SetupTable:
    """The stored landscapes over data size (section 5c) beside the official plot-addition-data-dependence
    notebook's: its fine window, messiness 0-0.1 and alpha 2.5-4 on a 21 x 21 grid."""
    official_window = replace(cfg, messiness=tuple(np.round(np.linspace(0, 0.1, 21), 4).tolist()),
                              alphas=tuple(np.round(np.linspace(2.5, 4.0, 21), 4).tolist()))
    return setup_table(
        "(w, m) landscapes over data size, stored", official_window, cfg, names=("official notebook", "ours (stored)"),
        fields=[f for f in MessinessConfig.__dataclass_fields__ if f != "n_train"],
        reasons={"messiness": "every 4th of the notebook's 21 values, to fit four sizes in a session",
                 "alphas": "every 2nd of the notebook's 21 values, to fit four sizes in a session (the "
                           "wide-window run: 1.0 to 4.0 in the same step)"},
        extra=[("training pairs (of 55)", "25, 35, 45, 55", ", ".join(map(str, DATA_SIZES)),
                "the landscape notebook's stored output shows its last run at train_num = 54, and 55 "
                "(every pair) leaves no test pair"),
               ("training loss read", "the last step's (its 'trainbest' files are written with loss_train, "
                "the last step's, not loss_train_best)", "after the last step", "same"),
               ("contour read", "the 0.02 contour of the map smoothed by a Gaussian (sigma one cell of its "
                "21 x 21 grid) and upsampled 10x bilinearly", "per messiness, the crossing of 0.02 on the raw "
                "map, log-linear in alpha; smoothed as the notebook's in the second reading",
                "measured below: the smoothing moves each slope by at most 0.09"),
               (*WM_NORM, "a plain norm (as section 5b)"),
               (*WM_DRAWS, f"seed {cfg.data_seed}, numpy in the notebook's order",
                "the notebook's draws are not reproduced bit for bit")])

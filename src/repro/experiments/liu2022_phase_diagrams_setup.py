"""The setup tables of ``book/liu2022_phase_diagrams``: each Fig. 6 map's setup beside the official sweep's (the data
files ``phase_diagram_plot/*.h5`` of ejmichaud/grokking-squared and the notebooks that draw them), the official side
as data (:meth:`ToyPhaseConfig.paper` and the rows below), ours read from the config, every difference with its
reason (:func:`repro.core.portable.setup_table` refuses an undisclosed one).
"""
from __future__ import annotations

from dataclasses import replace

from repro.core.portable import SetupTable, setup_table
from repro.experiments.liu2022_phase_diagrams import ToyPhaseConfig
from repro.experiments.liu2022_phase_diagrams_s3_official import SeedLuckConfig

PHASE_FIELDS = ("operation", "target", "n_train", "seed", "lr_repr", "repr_init_scale", "steps", "gap", "threshold",
                "time_scale", "eval_every", "embed_l1", "n_seeds")
PHASE_REASONS = {
    "steps": "book scale compresses time five-fold: 3,000 steps at 5x every learning rate, 1.5e4 paper-equivalent "
             "steps of the official 1e5",
    "gap": "Table 1's 10^3-step comprehension gap, compressed five-fold with the steps",
    "time_scale": "every learning rate x5 at book scale (see Time compression); Adam follows the compressed path only "
                  "approximately, and not at the largest rates",
    "eval_every": "accuracies read every 10 steps: a first step moves by < 10 against Table 1's gap of 10^3",
    "embed_l1": "the book-scale map omits the notebook's L1 term (the paper does not mention it); one exploratory run "
                "with it still had no comprehension",
    "n_seeds": "more initializations per cell (book scale trains one, as the official sweeps)",
}
# The data file of each panel and the committed notebook whose draws it follows
NOTEBOOKS = {"a": "data_add_r_reprlr.h5 (no committed notebook sweeps the embedding lr; draws as phase_diagram.ipynb)",
             "b": "data_add_r.h5 (phase_diagram.ipynb)", "c": "data_add_c.h5 (phase_diagram-classification.ipynb)",
             "d": "data_perm_r.h5 (toy/Figure5d_permutation.ipynb)"}
# toy/Figure5d_permutation.ipynb's draw order for a seed (see repro.experiments.liu2022_phase_diagrams_s3_official)
OFFICIAL_S3_DRAWS = "np.random: templates, split; torch: an unused encoder, the decoder, then the matrices"


def grid_text(cfg) -> str:
    """A panel's grid in one line: the number of cells, the decoder rates and the second axis."""
    y = (", ".join(f"{v:.1e}" for v in cfg.y_values) if cfg.panel == "a"
         else ", ".join(f"{v:g}" for v in cfg.y_values))
    return (f"{len(cfg.lr_dec_values)} x {len(cfg.y_values)} = {len(cfg.lr_dec_values) * len(cfg.y_values)} cells; "
            f"decoder lr {cfg.lr_dec_values[0]:.1e} to {cfg.lr_dec_values[-1]:.1e}; {cfg.y_label} {y}")


def model_text(c) -> str:
    """The network of a Fig. 6 config in words: its embeddings and its decoder's layer widths."""
    m = c.model_config()
    k = int(round(m.d_embed ** 0.5))
    embed = (f"{k}x{k} matrix embeddings of {m.n_symbols} elements, E_a E_b flattened" if m.combine == "matmul"
             else f"{m.d_embed}-D embeddings of {m.n_symbols} symbols, E_a + E_b")
    widths = "-".join(str(w) for w in (m.d_embed, *m.hidden, m.d_out))
    return f"{embed}; {widths} {m.activation} MLP"


def phase_extra(panel, ours) -> list:
    """The settings of a Fig. 6 sweep that its config does not hold, beside the official notebook's."""
    paper = ToyPhaseConfig.paper(panel)
    if panel == "d":
        draws = (OFFICIAL_S3_DRAWS,
                 "np.random: templates, split (the notebook's, bit for bit); torch: the matrices, then the decoder",
                 "our trainer's draw order: same distributions, another start (the seed-luck section below runs the "
                 "notebook's own start)")
    else:
        draws = (f"np.random: unused input templates, {'one-hot targets' if panel == 'c' else 'templates'}, split; "
                 "torch: an unused encoder, the decoder, then the embeddings",
                 f"np.random: {'' if panel == 'c' else 'templates, '}split; torch: the embeddings, then the decoder "
                 "(toy/train_add.py's order)",
                 f"our data path and trainer follow toy/train_add.py, so seed {ours.seed}'s split, targets and start "
                 f"are not the official map's; the notebook as committed also sweeps another grid than the data file, "
                 "so which revision made the data is not certain")
    grid_why = (f"book scale: {len(ours.lr_dec_values) * len(ours.y_values)} cells, each a cell of the official grid"
                if grid_text(paper) != grid_text(ours) else "")
    loss = ("cross-entropy / 19 (mean of -log softmax x one-hot over samples and classes)" if panel == "c"
            else "MSE to the templates" + (f" + {paper.embed_l1:g} mean|E|" if paper.embed_l1 else ""))
    ours_loss = ("cross-entropy (mean over samples)" if panel == "c"
                 else "MSE to the templates" + (f" + {ours.embed_l1:g} mean|E|" if ours.embed_l1 else ""))
    loss_why = ("Adam's update is invariant to a constant factor on the loss (up to eps): not run" if panel == "c"
                else "see embed_l1" if loss != ours_loss else "")
    return [
        ("code", NOTEBOOKS[panel], "repro.experiments.liu2022_phase_diagrams", "our batched trainer"),
        ("model", model_text(paper), model_text(ours),
         "" if model_text(paper) == model_text(ours) else "see the fields"),
        ("accuracy", "argmax over the 19 classes" if panel == "c" else "nearest template (toy/train_add.py)",
         "argmax over the 19 classes" if ours.target != "regression" else "nearest template (toy/train_add.py)", ""),
        ("grid", grid_text(paper), grid_text(ours), grid_why),
        ("split, targets and start of the seed", draws[0], draws[1], draws[2]),
        ("loss", loss, ours_loss, loss_why),
        ("optimizer", "AdamW(E, lr_repr, wd 0); AdamW(decoder, lr, wd)",
         "AdamW(E, lr_repr, wd 0); AdamW(decoder, lr, wd)", ""),
        ("batch, dtype", "full batch, float32", "full batch, float32", ""),
        ("phase rule", "Table 1: 90 % train / val, gap 10^3, budget 1e5",
         "Table 1: 90 % train / val, gap 10^3, budget 1e5" if ours.time_scale == 1
         else "Table 1 on the compressed clock", "" if ours.time_scale == 1 else "see steps"),
    ]


def phase_setup_table(title: str, panel: str, ours: ToyPhaseConfig) -> SetupTable:
    """A Fig. 6 map's setup beside the official sweep of its panel, every difference with its reason."""
    paper = ToyPhaseConfig.paper(panel)
    reasons = {k: why for k, why in PHASE_REASONS.items() if getattr(paper, k) != getattr(ours, k)}
    return setup_table(title, paper, ours, fields=PHASE_FIELDS, reasons=reasons, extra=phase_extra(panel, ours),
                       names=("official code", "ours"))


def official_start_setup_table(luck_cfg: SeedLuckConfig) -> SetupTable:
    """The stored seed-luck runs of Fig. 6(d) (run 1: the official start at 12 cells; run 2: many starts at one
    cell) beside the official notebook's sweep."""
    paper_d = ToyPhaseConfig.paper("d")
    # run 1 as a Fig. 6(d) config: the official one on the 12 cells, budget and L1 term of the seed-luck run
    luck_cells = replace(paper_d, lr_dec_values=luck_cfg.cell_lr_dec, y_values=luck_cfg.cell_wd_dec,
                         steps=luck_cfg.cell_steps, eval_every=luck_cfg.eval_every, embed_l1=luck_cfg.embed_l1)
    return setup_table("Fig. 6(d) from the official start (stored, run 1)", paper_d, luck_cells, fields=PHASE_FIELDS,
                       reasons_if_differs=PHASE_REASONS,
                       extra=[("grid", grid_text(paper_d), grid_text(luck_cells),
                               "12 cells chosen to span the official comprehension region at little decay"),
                              ("split, targets and start of the seed (the notebook's, redrawn in its order)",
                               OFFICIAL_S3_DRAWS, OFFICIAL_S3_DRAWS, ""),
                              *[r for r in phase_extra("d", luck_cells)
                                if r[0] in ("loss", "optimizer", "batch, dtype")],
                              ("run 2: starts", "seed 0 only", f"{len(luck_cfg.seeds)} seeds drawn the notebook's way "
                               f"and {len(luck_cfg.seeds)} drawn ours, at wd {luck_cfg.start_wd_dec:g}, decoder lr "
                               f"{luck_cfg.start_lr_dec:.1e}, {luck_cfg.start_steps:,} steps",
                               "how often a start comprehends there; 1,500 steps decide comprehension for any start "
                               "that fits by step 500")],
                       names=("official code", "ours"))

"""The setup tables of ``book/synthesis_one_task``: the sweep beside its paper-scale version, and each theory's own
setting beside this one (what the transfer changes)."""
from __future__ import annotations


from repro.core.portable import SetupTable, TextTable
from repro.core.portable import setup_table as _setup_table
from repro.experiments.synthesis_one_task import SynthesisConfig

REASONS = {
    "p": "31 at book scale: 496 pairs, so 144 runs train in minutes on one core (the paper scale takes Power et al.'s 97)",
    "lr": "10× the paper's, so that p = 31 groks within 3,000 full-batch steps",
    "steps": "3,000 at book scale: the delay at lr 1e-2 is 500-2,500 steps",
    "eval_every": "20 at book scale: the fits happen in the first 100 steps",
    "snapshot_every": "100 at book scale (30 snapshots per run)",
    "base_fraction": "0.7 at book scale: at 0.5, p = 31 does not generalize within 3,000 steps (the fraction slice shows it)",
}

_SAME = (("model", "embeddings summed into a 1-hidden-layer ReLU MLP"),
         ("initialization", "N(0, 1) embeddings; PyTorch's default Linear init; all times α"),
         ("optimizer", "AdamW (decoupled decay), full batch, no warm-up"),
         ("training pairs", "unordered pairs, each run its own split (seed 1000 + its init seed)"))
EXTRA = [(setting, value, value, "") for setting, value in _SAME]


def setup_table(cfg: SynthesisConfig) -> SetupTable:
    """The sweep's settings beside the paper-scale sweep's (the config's defaults), every difference with its reason."""
    return _setup_table("The sweep", SynthesisConfig(), cfg, reasons_if_differs=REASONS, extra=EXTRA,
                        names=("paper scale", "this run"))


# Each theory's setting in its paper, and what this chapter changes (the prediction is carried over, not reproduced).
TRANSFER = (
    ("Liu et al. 2022", "toy addition and modular addition; embeddings in 1-2 dimensions into an MLP; RQI counts "
     "parallelograms of ordinary addition", "modular addition, 32-d embeddings; structure as Fourier concentration, "
     "since RQI's parallelograms do not hold on a circle"),
    ("Omnigrok", "teacher-student MLPs, MNIST, a transformer on p = 113; α multiplies every weight; the norm held "
     "at α = 0.8 (Fig. 7b)", "α multiplies every weight; the norm held at six α's; weight decay 1 throughout"),
    ("Mohamadi et al.", "two-layer quadratic networks under normalized GD; the eNTK on training pairs",
     "ReLU MLP under AdamW with weight decay 1; the eNTK on 16 pairs drawn from the whole table"),
    ("GenEFT", "relation graphs on 30 elements; Adam rates 10^-6 to 10^-1", "modular addition; AdamW rates "
     "3·10^-3 to 3·10^-2 with weight decay 1, which scales with each rate (decoupled decay)"),
    ("Rubin et al.", "two-layer networks at a teacher's cubic target, sampled by Langevin dynamics (an ensemble at "
     "equilibrium)", "networks trained by AdamW for a fixed budget; the ensemble is the seeds"),
)


class TransferTable(TextTable):
    """Each theory's setting beside this chapter's: plain text for nbval, HTML in notebooks."""

    HEAD = ("theory", "the paper's setting", "here")

    def __init__(self):
        super().__init__(self.HEAD, TRANSFER)

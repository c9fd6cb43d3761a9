"""The official initial state of Liu et al. 2022's S3 toy (Fig. 6(d), App. H), seed by seed, in our layout.

The official S3 runs (ejmichaud/grokking-squared, ``toy/Figure5d_permutation.ipynb``, function ``train``)
draw their random numbers in this order, for a seed s:

1. ``np.random.seed(s)`` and ``torch.manual_seed(s)``.
2. numpy: the regression templates, N(0, 1) of shape (6, 30) (float64, then cast to float32).
3. numpy: the 24 training samples, ``choice(36, 24, replace=False)`` over the ordered pairs (a, b) in
   row-major order; the 12 others validate (in a Python set's iteration order, which only permutes the
   terms of a mean; ours are ascending).
4. torch: the model ``AE`` is built, its encoder first: an MLP 1 -> 200 -> 200 -> 9 that the S3 runs
   never use (the matrices are a free parameter, not the encoder's output), whose three ``nn.Linear``
   layers still consume the generator; then the decoder 9 -> 200 -> 200 -> 30. Each ``nn.Linear``
   draws its weight (out, in) by ``kaiming_uniform_(a=sqrt(5))``, then its bias U(-1/sqrt(fan_in), ...).
5. torch: the matrices ("latent"), ``(rand(6, 9) - 1/2) * 0.1``.
6. numpy, at every step: a permutation of the 24 training rows. The batch is the whole training set,
   so the permutation changes only the order of a float32 sum, and it is not reproduced here.

Steps 2-3 are what :func:`repro.tasks.build_task_data` draws (one ``RandomState(s)``: templates, then the
split), so the official data come from our own data path. Steps 4-5 differ from our trainer's draws
(:class:`repro.train.FlatParams` draws the embeddings first, then the decoder, from a generator of its
own): same distributions, other numbers. :func:`official_s3_state` redraws them in the official order,
and :func:`train_official_s3` hands them to :func:`repro.train.train` (its ``init_params``), so a cell of
Fig. 6(d) can start exactly where the official run started.

The rest of the official training matches ``ToyPhaseConfig.paper("d")``: MSE to the templates averaged
over samples and the 30 dimensions, plus ``1e-3 * mean|latent|`` over the 54 matrix entries; two AdamW
optimizers (decoupled decay): the matrices at lr 1e-3 without decay, the decoder at the cell's lr and
weight decay; full batch; float32; accuracy by the nearest template after every step. The notebook as
committed sweeps 10 decoder lrs for 10^4 steps, while the paper's data file (``phase_diagram_plot/
data_perm_r.h5``, :func:`repro.liu_phases.official_map`) has 16 lrs: it came from another run, with another
grid and possibly another revision of the notebook. Used to decide whether our S3 phase map's missing
comprehension is a bug or the seed (issue item "Fig. 6d and Fig. 18 (S3): bug or seed luck").
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import torch

from .liu_phases import ToyPhaseConfig
from .phases import PhaseRule, classify_history
from .tasks import TaskData
from .train import History, TrainConfig, train
from .validation import check_int, check_real

N_ELEMENTS = 6  # |S3|
MATRIX_ENTRIES = 9  # each element is a learnable 3 x 3 matrix ("latent_dim = p**2")
ENCODER_WIDTHS = (1, 200, 200, MATRIX_ENTRIES)  # the notebook's unused encoder NET(input_dim=1, latent_dim, w=200)
DECODER_WIDTHS = (MATRIX_ENTRIES, 200, 200, 30)  # its decoder NET(latent_dim, output_dim=30, w=200)
LATENT_INIT_SCALE = 0.1  # init_scale in the notebook: (rand - 1/2) * 0.1


@dataclass
class OfficialS3State:
    """The official run's data and initial parameters for one seed, in our model's parameter layout.

    ``params``: ``embed`` (6, 9), and ``W{k}`` (fan_in, fan_out) / ``b{k}`` (fan_out,) for the decoder's
    three layers (our :class:`repro.models.EmbedMLP` stores ``x @ W``, nn.Linear stores the transpose).
    """

    seed: int
    data: TaskData
    params: dict[str, torch.Tensor]

    @property
    def train_idx(self) -> np.ndarray:
        return self.data.train_idx

    @property
    def val_idx(self) -> np.ndarray:
        return self.data.val_idx

    @property
    def templates(self) -> torch.Tensor:
        return self.data.templates


def _linear_draws(fan_in: int, fan_out: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Weight (fan_out, fan_in) and bias of one ``nn.Linear``, drawn as its ``reset_parameters`` draws them
    (same init calls, on ``gen`` instead of the global generator)."""
    weight = torch.empty(fan_out, fan_in)
    torch.nn.init.kaiming_uniform_(weight, a=math.sqrt(5), generator=gen)
    bound = 1 / math.sqrt(fan_in)
    bias = torch.empty(fan_out)
    torch.nn.init.uniform_(bias, -bound, bound, generator=gen)
    return weight, bias


def official_init_params(seed: int = 0) -> dict[str, torch.Tensor]:
    """The official initial matrices and decoder of seed ``seed`` (steps 4-5 of the module docstring), float32."""
    check_int("seed", seed, minimum=0)
    gen = torch.Generator().manual_seed(seed)
    for fan_in, fan_out in zip(ENCODER_WIDTHS[:-1], ENCODER_WIDTHS[1:]):
        _linear_draws(fan_in, fan_out, gen)  # the unused encoder: drawn only to advance the generator
    params = {}
    for k, (fan_in, fan_out) in enumerate(zip(DECODER_WIDTHS[:-1], DECODER_WIDTHS[1:])):
        weight, bias = _linear_draws(fan_in, fan_out, gen)
        params[f"W{k}"], params[f"b{k}"] = weight.T.contiguous(), bias
    params["embed"] = (torch.rand(N_ELEMENTS, MATRIX_ENTRIES, generator=gen) - 0.5) * LATENT_INIT_SCALE
    return {name: params[name] for name in ("embed", "W0", "b0", "W1", "b1", "W2", "b2")}


def official_s3_state(seed: int = 0) -> OfficialS3State:
    """Split, templates (steps 2-3, our own data path with data seed ``seed``) and initial parameters
    (steps 4-5) of the official S3 run with seed ``seed``."""
    check_int("seed", seed, minimum=0)
    data = replace(ToyPhaseConfig.paper("d"), seed=seed).task_data()
    return OfficialS3State(seed=seed, data=data, params=official_init_params(seed))


def train_official_s3(lr_dec_values, wd_dec_values, *, seed: int = 0, steps: int = 100_000, eval_every: int = 10,
                      official_init: bool = True, embed_l1: float = 1e-3, progress: bool | None = None) -> History:
    """Train the Fig. 6(d) cells (``lr_dec_values[i]``, ``wd_dec_values[i]``), one run each, from the official
    initial state of ``seed`` (``official_init=False``: from our trainer's own draws with init seed ``seed``,
    i.e. ``ToyPhaseConfig.paper("d")``), with everything else as in ``ToyPhaseConfig.paper("d")``.

    The official code reads the accuracies after every step; ``eval_every`` = 10 moves a first step by < 10,
    against the comprehension gap of 1000. ``embed_l1``: the notebook's 1e-3 (0 switches the L1 term off).
    """
    lrs, wds = list(lr_dec_values), list(wd_dec_values)
    if not lrs or len(lrs) != len(wds):
        raise ValueError(f"lr_dec_values and wd_dec_values must be non-empty and of equal length; got {len(lrs)} "
                         f"and {len(wds)}.")
    for v in lrs:
        check_real("lr_dec_values", v, positive=True)
    for v in wds:
        check_real("wd_dec_values", v, nonnegative=True)
    check_int("steps", steps, minimum=1)
    if official_init not in (True, False):
        raise ValueError(f"official_init={official_init!r} is not allowed: use True or False.")
    panel = replace(ToyPhaseConfig.paper("d"), seed=seed, steps=steps, eval_every=eval_every, embed_l1=embed_l1)
    state = official_s3_state(seed)
    init = state.params if official_init else None
    return train(panel.model_config(), state.data, panel.train_config(), runs={"lr_dec": lrs, "wd_dec": wds},
                 init_params=init, progress=progress, desc="official S3 cells")


def phases_of(history: History, steps: int, gap: int = 1000) -> np.ndarray:
    """Each run's phase by the paper's rule (Table 1: 90 % train and validation accuracy, comprehension when
    validation follows training by < ``gap`` steps), crossings counted below ``steps``."""
    return classify_history(history, PhaseRule(0.9, 0.9, gap=gap, budget=steps))

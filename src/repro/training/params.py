"""All runs' parameters in one ``(R, P)`` buffer (:class:`FlatParams`) and the projection of ``fixed_norm``."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
import torch

from repro.models.networks import BatchedModel

@torch.no_grad()
def project_to_norm(flat: torch.Tensor, target: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Rescale each row of ``flat`` (R, P) in place to the L2 norm ``target`` (R,); rows with
    ``mask`` False are left alone. Returns ``flat``. A zero row cannot be rescaled and raises."""
    norm = flat.norm(dim=1)
    if bool((norm == 0).any()):
        raise ValueError("project_to_norm: a run has all-zero parameters; its direction is undefined.")
    return rescale_rows(flat, target, norm, mask)


@torch.no_grad()
def rescale_rows(flat: torch.Tensor, target: torch.Tensor, norm: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """:func:`project_to_norm` given the rows' norms, without its check (which reads a value on the host): a zero
    row becomes nan. Returns ``flat``."""
    factor = target.to(flat.dtype) / norm
    if mask is not None:
        factor = torch.where(mask, factor, torch.ones_like(factor))
    flat.mul_(factor[:, None])
    return flat


@dataclass(frozen=True)
class InitialParams:
    """A component: initial values of some parameters, by name, of per-run shape (shared by every run) or
    ``(R, *shape)``; they replace the seeded draws of those parameters (the others keep theirs). For starting from
    another code's initial state (:mod:`repro.experiments.liu2022_phase_diagrams_s3_official`)."""

    values: Mapping[str, torch.Tensor]


class FlatParams:
    """All runs' parameters in one ``(R, P)`` buffer, with named ``(R, *shape)`` views.

    Parameters of the representation group come first, so each group is one contiguous column
    block ``[0, n_repr)`` / ``[n_repr, P)`` and per-run group values broadcast as ``(R, 1)`` columns.
    Initial values are still drawn in the model's declaration order (the official RNG order).
    """

    def __init__(self, model: BatchedModel, values: dict[str, list], dtype, device,
                 given: Mapping[str, torch.Tensor] | None = None):
        specs_by_run = [
            model.param_specs(init_scale=float(values["init_scale"][r]), repr_init_scale=float(values["repr_init_scale"][r]))
            for r in range(len(values["init_seed"]))
        ]
        self.specs = specs_by_run[0]
        layout = [s for s in self.specs if s.group == "repr"] + [s for s in self.specs if s.group != "repr"]
        self.offsets = {}
        offset = 0
        for s in layout:
            n = math.prod(s.shape)
            self.offsets[s.name] = (offset, offset + n, s.shape)
            offset += n
        self.n_params = offset
        self.n_repr = sum(math.prod(s.shape) for s in layout if s.group == "repr")
        self.param_groups = ["repr" if s.group == "repr" else "dec" for s in layout]  # in offsets order
        self.flat = torch.empty(len(specs_by_run), self.n_params, dtype=dtype, device=device)
        for r, specs in enumerate(specs_by_run):
            gen = torch.Generator().manual_seed(int(values["init_seed"][r]))
            for s in specs:  # draw in declaration order, store in group order
                a, b, _ = self.offsets[s.name]
                self.flat[r, a:b] = s.init(s.shape, gen).reshape(-1).to(device=device, dtype=dtype)
        # Given initial values (R, *shape) replace the draws after all of them, so the parameters that are
        # not given keep the values their seed draws (used to start from another code's initial state,
        # e.g. repro.experiments.liu2022_phase_diagrams_s3_official).
        for name, value in (given or {}).items():
            a, b, _ = self.offsets[name]
            self.flat[:, a:b] = value.reshape(self.flat.shape[0], -1).to(device=device, dtype=dtype)

    def select(self, keep: torch.Tensor) -> None:
        """Keep the runs ``keep`` (bool (R,)) only: runs that stop early leave the buffer."""
        self.flat = self.flat[keep].contiguous()

    def state(self) -> dict[str, np.ndarray]:
        return {"params": self.flat.detach().cpu().numpy()}

    @torch.no_grad()
    def load_state(self, state: Mapping[str, np.ndarray]) -> None:
        """Restore :meth:`state` in place (the optimizer holds views of the buffer)."""
        flat = self.flat
        if tuple(state["params"].shape) != tuple(flat.shape) or state["params"].dtype != torch.empty(0, dtype=flat.dtype).numpy().dtype:
            raise ValueError(f"the checkpoint's parameters are {state['params'].dtype} {state['params'].shape}; this block "
                             f"trains {flat.dtype} {tuple(flat.shape)}: the checkpoint is of another run.")
        flat.copy_(torch.from_numpy(state["params"]))

    def views(self, flat: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
        flat = self.flat if flat is None else flat
        return {name: flat[:, a:b].view(flat.shape[0], *shape) for name, (a, b, shape) in self.offsets.items()}

    def gather(self, grads: list[torch.Tensor], out: torch.Tensor) -> torch.Tensor:
        """Copy per-parameter tensors ``(R, n_k)`` (offsets order; None = zero) into one ``(R, P)`` buffer."""
        for (a, b, _), g in zip(self.offsets.values(), grads):
            if g is None:
                out[:, a:b].zero_()
            else:
                out[:, a:b].copy_(g)
        return out

    def groups(self, flat: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The (R, n_repr) and (R, P - n_repr) column blocks of a flat tensor."""
        return flat[:, : self.n_repr], flat[:, self.n_repr :]

    def per_group(self, repr_values: Sequence[float], dec_values: Sequence[float]) -> tuple[torch.Tensor, torch.Tensor]:
        """Per-run values of each group as ``(R, 1)`` columns (broadcast over that group's block)."""
        as_col = lambda v: torch.as_tensor(v, dtype=self.flat.dtype, device=self.flat.device)[:, None]
        return as_col(repr_values), as_col(dec_values)



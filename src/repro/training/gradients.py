"""Gradient sources: where a step's data gradient comes from. Each is called as ``source(views, batch, record)``
and returns the per-parameter gradients and their per-run log scale (None: the true gradient); ``record``, when
given, takes the outputs over all samples for an evaluation that rides on the source's forward. ``evaluate(views)``
is an evaluation's forward of its own, ``own_forward`` says whether the source's evaluations need one, and
``select(keep)`` keeps the runs that go on training.

* :class:`QuadraticSource`: QuadraticNet's underflow-safe hand-written gradient, up to a per-run factor;
* :class:`RunRowsSource`: a hand-written gradient on each run's own training rows (full batch);
* :class:`FastSource`: a hand-written gradient on the block's rows or minibatch;
* :class:`AutogradSource`: autograd (with dropout, if any).
"""
from __future__ import annotations

from dataclasses import replace

import torch

from repro.data.tasks import TaskData
from repro.models import fastgrad
from repro.models.networks import QuadraticNet
from repro.training.losses import forward_all, per_sample_loss, sample_labels, sample_targets


def _fast_gradients(grad_fn, model, data: TaskData, views, batch, train_w, n_rows: int, record) -> dict:
    """Gradients by the hand-written backward pass; records the evaluation when ``record`` is given."""
    if batch is not None:
        x = data.inputs[batch]
        out, cache = grad_fn.forward(views, x)
        weights = torch.full(batch.shape, 1.0 / batch.shape[1], dtype=train_w.dtype, device=train_w.device)
        dout = grad_fn.output_gradient(out, sample_targets(data, batch),
                                       sample_labels(data, batch), weights, data.loss)
        if record is not None:
            record(forward_all(model, views, data.inputs), views)
    else:
        # Rows [0, n_rows) carry loss weight (see used_rows_first): a step that does not evaluate forwards
        # and backpropagates only those.
        x = data.inputs if record is not None else data.inputs[:n_rows]
        out, cache = grad_fn.forward(views, x)
        if record is not None:
            record(out, views)
        dout = grad_fn.output_gradient(out[:, :n_rows], None if data.targets is None else data.targets[..., :n_rows, :],
                                       data.labels[..., :n_rows], train_w[:, :n_rows], data.loss)
    return grad_fn.backward(views, x, cache, dout)



def _autograd_gradients(model, data: TaskData, views, batch, train_w, record, dropout=None,
                        rows: "RunRows | None" = None) -> dict:
    """Gradients by autograd, on leaves that alias the flat buffer (autograd then returns one gradient per
    parameter instead of building zero-filled (R, P) slice gradients of a flat leaf, which cost most of a
    step); records the evaluation when ``record`` is given. With ``dropout`` the training forward drops
    units and covers each run's own training rows (``rows``, full batch) or minibatch; the evaluation is then
    a separate forward without dropout."""
    leaves = {k: v.detach().requires_grad_() for k, v in views.items()}
    if dropout is not None:
        if batch is not None:
            out = model.forward(leaves, data.inputs[batch], dropout=dropout)
            objective = per_sample_loss(out, data, batch).mean(-1).sum()
        else:
            out = model.forward(leaves, rows.inputs, dropout=dropout)
            objective = (per_sample_loss(out, data, rows.index) * rows.weight).sum()
        if record is not None:
            with torch.no_grad():
                record(forward_all(model, leaves, data.inputs), leaves)
    elif batch is not None:
        out = model.forward(leaves, data.inputs[batch])
        objective = per_sample_loss(out, data, batch).mean(-1).sum()
        if record is not None:
            with torch.no_grad():
                record(forward_all(model, leaves, data.inputs), leaves)
    else:
        out = model.forward(leaves, data.inputs)
        objective = (per_sample_loss(out, data) * train_w).sum()
        if record is not None:
            record(out.detach(), leaves)
    grads = torch.autograd.grad(objective, list(leaves.values()), allow_unused=True)
    return {k: torch.zeros_like(v) if g is None else g for (k, v), g in zip(leaves.items(), grads)}


def used_rows_first(data: TaskData, train_mask, val_mask, train_w):
    """Reorder samples so that rows carrying loss weight in some run come first; returns the reordered
    data, masks, weights, the number of such rows (the backward pass always stops at them) and the
    original index of each reordered row."""
    used = train_mask.any(0)
    order = torch.cat([torch.nonzero(used).squeeze(1), torch.nonzero(~used).squeeze(1)])
    data = replace(data, inputs=data.inputs[order], labels=data.labels[..., order],
                   targets=None if data.targets is None else data.targets[..., order, :])
    return data, train_mask[:, order], val_mask[:, order], train_w[:, order], int(used.sum()), order


class RunRows:
    """Full batch, each run forwarding its own training rows (for gradients that ask for it,
    ``grad_fn.per_run_rows``): run r's training samples in ascending order, padded with zero-weight samples of
    its own to the largest training set, as inputs (R, K, ...), labels (R, K) and loss weights (R, K)."""

    def __init__(self, data: TaskData, train_mask: torch.Tensor, train_w: torch.Tensor):
        k_max = int(train_mask.sum(-1).max())
        # a stable sort of "not in training" puts each run's training rows first, in ascending order
        self.index = torch.sort((~train_mask).to(torch.int8), dim=1, stable=True).indices[:, :k_max]
        self.weight = train_w.gather(1, self.index)
        self._gather(data)

    def _gather(self, data: TaskData) -> None:
        self.inputs = data.inputs[self.index]
        self.labels = sample_labels(data, self.index)
        self.targets = sample_targets(data, self.index)
        self.loss = data.loss

    def select(self, keep: torch.Tensor, data: TaskData) -> None:
        """Keep the runs ``keep`` only; ``data``: the data of the kept runs."""
        self.index, self.weight = self.index[keep], self.weight[keep]
        self._gather(data)

    def gradients(self, grad_fn, views) -> dict:
        out, cache = grad_fn.forward(views, self.inputs)
        dout = grad_fn.output_gradient(out, self.targets, self.labels, self.weight, self.loss)
        return grad_fn.backward(views, self.inputs, cache, dout)



class _Source:
    """What every source shares: the block's data, training masks and per-run loss weights, cut by :meth:`select`."""

    own_forward = False
    separate_evaluation = False

    def __init__(self, model, data: TaskData, train_mask: torch.Tensor, train_w: torch.Tensor):
        self.model, self.data, self.train_mask, self.train_w = model, data, train_mask, train_w

    def select(self, keep: torch.Tensor) -> None:
        self.data = self.data.select_runs(keep)
        self.train_mask, self.train_w = self.train_mask[keep], self.train_w[keep]

    def evaluate(self, views) -> torch.Tensor:
        """Outputs over all samples, for an evaluation separate from the gradient's forward pass."""
        return forward_all(self.model, views, self.data.inputs)


class QuadraticSource(_Source):
    """:class:`repro.models.fastgrad.QuadraticGradient`: the gradient up to a per-run factor exp(log_scale), which a
    scale-free optimizer takes as it is; any other gets the true gradient."""

    def __init__(self, model, data, train_mask, train_w, scale_free: bool):
        super().__init__(model, data, train_mask, train_w)
        self.gradient, self.scale_free = fastgrad.QuadraticGradient(model, data.inputs), scale_free

    @torch.no_grad()
    def __call__(self, views, batch, record):
        data = self.data
        grads, log_scale = self.gradient(views, data.inputs, sample_labels(data), self.train_mask, record)
        if self.scale_free:
            return grads, log_scale
        scale = torch.exp(log_scale)
        return {k: scale.view((-1,) + (1,) * (g.dim() - 1)) * g for k, g in grads.items()}, None


class RunRowsSource(_Source):
    """A hand-written gradient that forwards each run's own training rows (``per_run_rows``); its evaluations are
    its own forward over all samples."""

    own_forward = True
    separate_evaluation = True  # the gradient's forward covers each run's training rows only

    def __init__(self, model, data, train_mask, train_w, grad_fn):
        super().__init__(model, data, train_mask, train_w)
        self.grad_fn, self.rows = grad_fn, RunRows(data, train_mask, train_w)

    def select(self, keep: torch.Tensor) -> None:
        super().select(keep)
        self.rows.select(keep, self.data)

    @torch.no_grad()
    def __call__(self, views, batch, record):
        return self.rows.gradients(self.grad_fn, views), None

    def evaluate(self, views) -> torch.Tensor:
        return self.grad_fn.forward(views, self.data.inputs)[0]


class FastSource(_Source):
    """A hand-written gradient (:func:`repro.models.fastgrad.gradient`) on the minibatch, or full batch on the rows
    that carry loss weight (``n_rows``, first: :func:`used_rows_first`)."""

    def __init__(self, model, data, train_mask, train_w, grad_fn, n_rows: int):
        super().__init__(model, data, train_mask, train_w)
        self.grad_fn, self.n_rows = grad_fn, n_rows

    @torch.no_grad()
    def __call__(self, views, batch, record):
        return _fast_gradients(self.grad_fn, self.model, self.data, views, batch, self.train_w, self.n_rows, record), None


class AutogradSource(_Source):
    """Autograd; with ``dropout`` the training forward drops units (full batch: on each run's own rows ``rows``)."""

    def __init__(self, model, data, train_mask, train_w, dropout=None, rows: RunRows | None = None, minibatch=False):
        super().__init__(model, data, train_mask, train_w)
        self.dropout, self.rows = dropout, rows
        self.own_forward = dropout is not None or minibatch

    def __call__(self, views, batch, record):
        return _autograd_gradients(self.model, self.data, views, batch, self.train_w, record, self.dropout,
                                   self.rows), None


def gradient_source(model, data: TaskData, train_mask, val_mask, dtype, fast_grad: bool, minibatch: bool, dropout,
                    scale_free: bool):
    """The block's gradient source, with the data and masks that it and the recorder see (a full-batch
    hand-written gradient on the block's rows puts the rows that carry loss weight first)."""
    train_w = train_mask.to(dtype) / train_mask.sum(-1)[:, None].to(dtype)  # per-run mean over its training set
    if fast_grad and isinstance(model, QuadraticNet):
        return QuadraticSource(model, data, train_mask, train_w, scale_free), data, train_mask, val_mask
    if fast_grad:
        grad_fn = fastgrad.gradient(model, data.loss)
        if grad_fn.per_run_rows and not minibatch:
            return RunRowsSource(model, data, train_mask, train_w, grad_fn), data, train_mask, val_mask
        n_rows = data.n_samples
        if not minibatch:
            data, train_mask, val_mask, train_w, n_rows, _ = used_rows_first(data, train_mask, val_mask, train_w)
        return FastSource(model, data, train_mask, train_w, grad_fn, n_rows), data, train_mask, val_mask
    # with dropout, full batch, each run forwards its own training rows (not the union of the block's training
    # sets, up to 1 / train_fraction times more) and draws its masks for them
    rows = RunRows(data, train_mask, train_w) if dropout is not None and not minibatch else None
    if rows is not None:
        dropout.rows = rows.index
    return AutogradSource(model, data, train_mask, train_w, dropout, rows, minibatch), data, train_mask, val_mask

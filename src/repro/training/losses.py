"""Per-sample losses and correctness of a batched model's outputs, and the forward over all samples of an
evaluation."""
from __future__ import annotations

import torch
import torch.nn.functional as F

from repro.data.tasks import TaskData
from repro.models.networks import BatchedModel

def sample_labels(data: TaskData, idx: torch.Tensor | None = None) -> torch.Tensor:
    """The labels of every sample, (N,) or per run (R, N), or of the samples ``idx`` (R, B) of each run."""
    if idx is None:
        return data.labels
    return data.labels.gather(1, idx) if data.per_run_labels else data.labels[idx]


def sample_targets(data: TaskData, idx: torch.Tensor | None = None) -> torch.Tensor | None:
    """The regression targets of every sample, (N, k) or per run (R, N, k), or of the samples ``idx`` (R, B) of
    each run (R, B, k); None for a task without targets."""
    if data.targets is None or idx is None:
        return data.targets
    if data.per_run_targets:
        return data.targets.gather(1, idx.unsqueeze(-1).expand(-1, -1, data.targets.shape[-1]))
    return data.targets[idx]


def per_sample_loss(out: torch.Tensor, data: TaskData, idx: torch.Tensor | None = None) -> torch.Tensor:
    """(R, n) loss of each sample: cross-entropy, MSE averaged over output dims (as toy/train_add.py's mean over
    batch and dims), or binary cross-entropy on the one logit ``out[..., 0]`` (the sigmoid output's, computed
    from the logit as ``binary_cross_entropy_with_logits``: GenEFT, Baek, Liu & Tegmark 2024 §2).

    ``out`` covers every sample (n = N), or the minibatch ``idx`` (R, B) when given. With ``ce_tokens`` it is
    (R, n, T, C), the logits of each sample's T target tokens, and the loss is the cross-entropy averaged over them
    (the mean over a batch is then openai/grok's mean over its batch and target tokens: every sample has T).
    """
    if data.loss == "ce_tokens":
        R, n, T, C = out.shape
        tokens = sample_targets(data, idx).expand(R, n, T)
        return F.cross_entropy(out.reshape(R * n * T, C), tokens.reshape(-1), reduction="none").view(R, n, T).mean(-1)
    labels = sample_labels(data, idx).expand(out.shape[0], -1)
    if data.loss == "ce":
        R, n, C = out.shape
        return F.cross_entropy(out.reshape(R * n, C), labels.reshape(-1), reduction="none").view(R, n)
    if data.loss == "bce":
        return F.binary_cross_entropy_with_logits(out[..., 0], labels.to(out.dtype), reduction="none")
    return (out - sample_targets(data, idx)).pow(2).mean(-1)


def per_sample_correct(out: torch.Tensor, data: TaskData, labels: torch.Tensor | None = None) -> torch.Tensor:
    """(R, N) bool: argmax prediction, or nearest regression template (official toy code), is right."""
    if data.accuracy == "all_tokens":  # out (R, N, T, C): every target token's argmax right
        return (out.argmax(-1) == data.targets).all(-1)
    labels = data.labels if labels is None else labels
    if data.accuracy == "argmax":
        return out.argmax(-1) == labels
    if data.accuracy == "binary":  # the one logit's sign: sigmoid > 1/2 predicts 1
        return (out[..., 0] > 0) == labels.bool()
    if data.accuracy == "nearest_template":
        t = data.templates  # (C, k), or (R, C, k) per run
        # argmin_c |o - t_c|^2 = argmin_c (|t_c|^2 - 2 o.t_c)
        score = t.pow(2).sum(-1).unsqueeze(-2) - 2 * out @ t.transpose(-1, -2)
        return score.argmin(-1) == labels
    return torch.zeros(out.shape[:2], dtype=torch.bool, device=out.device)


EVAL_CHUNK_ROWS = 1024  # rows per forward of an evaluation on the CPU (forward_all)


def forward_all(model: BatchedModel, views, inputs: torch.Tensor) -> torch.Tensor:
    """The outputs ``(R, N, ...)`` over all ``N`` samples of ``inputs`` (shared by the runs, samples first), for
    an evaluation (no gradient). On the CPU a large set is forwarded in chunks of :data:`EVAL_CHUNK_ROWS` rows:
    each sample's output depends on its own row alone (the same bits), and a chunk's activations stay in cache
    and reuse their memory instead of faulting in fresh pages (timings: book/benchmarks.md). On a GPU one forward
    is the fast one."""
    n = inputs.shape[0]
    if inputs.device.type != "cpu" or n <= 2 * EVAL_CHUNK_ROWS:
        return model.forward(views, inputs)
    return torch.cat([model.forward(views, inputs[i:i + EVAL_CHUNK_ROWS]) for i in range(0, n, EVAL_CHUNK_ROWS)],
                     dim=1)


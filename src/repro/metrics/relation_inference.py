"""The Bayes-optimal accuracy of GenEFT's Fig. 2: what a learner that *knows the relation's class* can
infer from a random set of observed pairs (Baek, Liu & Tegmark 2024, §3, "theoretical maximum
accuracy"; the samplers below are our choice). Used by ``repro.theory.baek2024`` and the chapter
``book/baek2024_geneft_information``.

For each relation class the posterior P_ij = Pr[R_ij = 1 | observations] is taken under the uniform
distribution over all class members consistent with the observations:

* equivalence with k classes (mod 3, mod 5): uniform over labellings of the n elements with k labels.
  Observed positives merge elements into components; observed negatives forbid two components from
  sharing a label, so the consistent labellings are the proper k-colourings of the component graph.
  Sampled by Gibbs sampling over component labels, many chains from random proper starts.
* strict total order (greater-than): uniform over the linear extensions of the partial order that the
  observed comparisons generate. Sampled by the adjacent-transposition chain (Bubley–Dyer), run as
  alternating odd/even sweeps of independent swaps — each sweep is a symmetric kernel, so the uniform
  distribution on linear extensions is stationary.
* complete bipartite (all 2-colourings S / S̄): exact. Observations are parity constraints; pairs
  inside one connected component of the observation graph are determined, and any other pair is
  exactly 1/2 because flipping a whole component is a symmetry.

The accuracy is the mean over all n² cells of max(P_ij, 1 − P_ij) (paper: "1 for each inferred
relation and max(p*, 1 − p*) for each non-inferred one, all divided by the total number of examples").
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from repro.core.kernels import single_thread
from repro.core.validation import check_choice, check_int
from repro.data.relations import RELATIONS, relation_matrix

EQUIVALENCE_CLASSES = {"mod3": 3, "mod5": 5}


@dataclass
class Posterior:
    probability: np.ndarray  # (S, n, n): Pr[R_ij = 1 | observations]
    inferable: np.ndarray  # (S, n, n) bool: cells forced by the observations and the class's properties

    @property
    def accuracy(self) -> np.ndarray:
        """(S,) Bayes-optimal accuracy over all n² cells."""
        p = self.probability
        return np.maximum(p, 1 - p).mean(axis=(1, 2))

    @property
    def inferable_fraction(self) -> np.ndarray:
        return self.inferable.mean(axis=(1, 2))


def _components(n: int, pairs) -> np.ndarray:
    """Connected-component id (dense, by smallest member) of each element under the given edges."""
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    roots = [find(a) for a in range(n)]
    dense = {r: i for i, r in enumerate(sorted(set(roots)))}
    return np.array([dense[r] for r in roots])


def _check_observed(relation: np.ndarray, observed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    relation = np.asarray(relation)
    observed = np.asarray(observed, dtype=bool)
    if observed.ndim == 2:
        observed = observed[None]
    if relation.ndim != 2 or relation.shape[0] != relation.shape[1] or observed.shape[1:] != relation.shape:
        raise ValueError(f"relation must be (n, n) and observed (S, n, n) or (n, n); got {relation.shape} and {observed.shape}.")
    return relation, observed


def equivalence_posterior(relation, observed, k: int, *, chains: int = 200, sweeps: int = 300,
                          seed: int = 0) -> Posterior:
    """Posterior of an equivalence relation with (at most) k labels, by batched Gibbs sampling.

    ``observed``: (S, n, n) or (n, n) bool masks of observed cells; the S training sets run together.
    The last two thirds of the sweeps are averaged (the first third is burn-in).
    """
    relation, observed = _check_observed(relation, observed)
    check_int("k", k, minimum=2)
    check_int("chains", chains, minimum=1)
    check_int("sweeps", sweeps, minimum=3)
    n = relation.shape[0]
    n_sets = observed.shape[0]
    gen = torch.Generator().manual_seed(seed)
    comp = np.zeros((n_sets, n), dtype=np.int64)
    adj = np.zeros((n_sets, n, n), dtype=bool)
    truth = np.zeros((n_sets, n), dtype=np.int64)  # a consistent labelling of the components
    true_label = _true_labels(relation, k)
    for s in range(n_sets):
        ii, jj = np.nonzero(observed[s])
        pos = [(i, j) for i, j in zip(ii, jj) if relation[i, j]]
        comp[s] = _components(n, pos)
        for i, j in zip(ii, jj):
            if not relation[i, j]:
                if comp[s, i] == comp[s, j]:
                    raise ValueError("observations are inconsistent with an equivalence relation.")
                adj[s, comp[s, i], comp[s, j]] = adj[s, comp[s, j], comp[s, i]] = True
        truth[s, comp[s]] = true_label
    n_comp = int(comp.max()) + 1

    adj_t = torch.as_tensor(adj[:, :n_comp, :n_comp], dtype=torch.float32)  # (S, c, c)
    labels = torch.full((n_sets, chains, n_comp), -1, dtype=torch.long)
    onehot = torch.zeros(n_sets, chains, n_comp, k)
    failed = torch.zeros(n_sets, chains, dtype=torch.bool)

    def update(c: int, start: bool) -> None:
        forbidden = torch.einsum("sj,scjk->sck", adj_t[:, c], onehot) > 0
        u = torch.rand(n_sets, chains, k, generator=gen).masked_fill(forbidden, -1.0)
        new = u.argmax(-1)
        if start:
            failed.logical_or_(forbidden.all(-1))
        labels[:, :, c] = new
        onehot[:, :, c] = torch.nn.functional.one_hot(new, k).float()

    for c in range(n_comp):  # random greedy proper colouring
        update(c, start=True)
    if failed.any():  # greedy got stuck: start those chains from the true colouring, labels permuted
        perm = torch.stack([torch.randperm(k, generator=gen) for _ in range(n_sets * chains)]).view(n_sets, chains, k)
        fallback = torch.gather(perm, 2, torch.as_tensor(truth[:, None, :n_comp]).expand(-1, chains, -1))
        labels = torch.where(failed[..., None], fallback, labels)
        onehot = torch.nn.functional.one_hot(labels, k).float()

    comp_t = torch.as_tensor(comp)[:, None, :].expand(-1, chains, -1)
    same = torch.zeros(n_sets, n, n, dtype=torch.float64)
    kept = 0
    for sweep in range(sweeps):
        for c in range(n_comp):
            update(c, start=False)
        if sweep >= sweeps // 3:
            elem = torch.gather(labels, 2, comp_t)
            same += (elem[:, :, :, None] == elem[:, :, None, :]).double().mean(1)
            kept += 1
    probability = (same / kept).numpy()
    inferable = (comp[:, :, None] == comp[:, None, :]) | np.take_along_axis(
        np.take_along_axis(adj, comp[:, :, None], axis=1), comp[:, None, :], axis=2)
    probability = np.where(inferable, relation[None].astype(float), probability)
    return Posterior(probability, inferable)


def _true_labels(relation: np.ndarray, k: int) -> np.ndarray:
    """Class index of every element of an equivalence relation (0, 1, … by first appearance)."""
    n = relation.shape[0]
    labels = -np.ones(n, dtype=np.int64)
    nxt = 0
    for i in range(n):
        if labels[i] < 0:
            labels[relation[i].astype(bool)] = nxt
            nxt += 1
    if nxt > k:
        raise ValueError(f"relation has {nxt} classes, more than k={k}.")
    return labels


def transitive_closure(before: np.ndarray) -> np.ndarray:
    """Boolean transitive closure (Floyd–Warshall) of (S, n, n) 'i precedes j' matrices."""
    reach = np.array(before, dtype=bool)
    for m in range(reach.shape[-1]):
        reach |= reach[:, :, m, None] & reach[:, None, m, :]
    return reach


def order_posterior(relation, observed, *, chains: int = 200, sweeps: int = 3000, record_every: int = 5,
                    seed: int = 0) -> Posterior:
    """Posterior of a strict total order R_ij = [i before j], uniform over linear extensions.

    Chains start from random linear extensions (Kahn's algorithm with random priorities); odd/even
    sweeps of adjacent swaps follow; the second half of the sweeps is averaged.
    """
    relation, observed = _check_observed(relation, observed)
    check_int("chains", chains, minimum=1)
    check_int("sweeps", sweeps, minimum=2)
    check_int("record_every", record_every, minimum=1)
    n = relation.shape[0]
    n_sets = observed.shape[0]
    off = observed & ~np.eye(n, dtype=bool)
    before = np.where(off, relation[None].astype(bool), False) | np.where(off, relation.T[None].astype(bool), False).transpose(0, 2, 1)
    closure = transitive_closure(before)
    if (closure & closure.transpose(0, 2, 1)).any():
        raise ValueError("observations are inconsistent with a strict total order.")
    gen = torch.Generator().manual_seed(seed)
    B = n_sets * chains
    clo = torch.as_tensor(closure).repeat_interleave(chains, 0)  # (B, n, n)

    # random start: repeatedly place the available element with the smallest random key
    key = torch.rand(B, n, generator=gen)
    placed = torch.zeros(B, n, dtype=torch.bool)
    perm = torch.zeros(B, n, dtype=torch.long)
    for pos in range(n):
        blocked = (clo & ~placed[:, :, None]).any(1)  # some unplaced predecessor
        k = key.masked_fill(blocked | placed, 2.0).argmin(1)
        perm[:, pos] = k
        placed[torch.arange(B), k] = True

    rows = torch.arange(B)[:, None]
    less = torch.zeros(n_sets, n, n, dtype=torch.float64)
    kept = 0
    ar = torch.arange(n).expand(B, n)
    for sweep in range(sweeps):
        j = torch.arange(sweep % 2, n - 1, 2)
        a, b = perm[:, j], perm[:, j + 1]
        free = ~(clo[rows, a, b] | clo[rows, b, a])
        swap = free & (torch.rand(a.shape, generator=gen) < 0.5)
        perm[:, j] = torch.where(swap, b, a)
        perm[:, j + 1] = torch.where(swap, a, b)
        if sweep >= sweeps // 2 and sweep % record_every == 0:
            rank = torch.empty_like(perm).scatter_(1, perm, ar)
            less += (rank[:, :, None] < rank[:, None, :]).view(n_sets, chains, n, n).double().mean(1)
            kept += 1
    probability = (less / kept).numpy()
    inferable = closure | closure.transpose(0, 2, 1) | np.eye(n, dtype=bool)[None]
    probability = np.where(inferable, relation[None].astype(float), probability)
    return Posterior(probability, inferable)


def bipartite_posterior(relation, observed) -> Posterior:
    """Exact posterior of a complete bipartite relation, uniform over all sides S (and S̄)."""
    relation, observed = _check_observed(relation, observed)
    n = relation.shape[0]
    n_sets = observed.shape[0]
    probability = np.full((n_sets, n, n), 0.5)
    inferable = np.zeros((n_sets, n, n), dtype=bool)
    for s in range(n_sets):
        ii, jj = np.nonzero(observed[s] & ~np.eye(n, dtype=bool))
        comp = _components(n, list(zip(ii, jj)))
        inferable[s] = comp[:, None] == comp[None, :]
    probability = np.where(inferable, relation[None].astype(float), probability)
    return Posterior(probability, inferable)


def relation_posterior(name: str, observed, *, n: int = 30, chains: int = 200, sweeps: int | None = None,
                       seed: int = 0) -> Posterior:
    """Posterior for a Table-1 relation on n elements given (S, n, n) observed masks."""
    check_choice("relation", name, RELATIONS)
    relation = relation_matrix(name, n)
    with single_thread():
        return _posterior(name, relation, observed, chains, sweeps, seed)


def _posterior(name, relation, observed, chains, sweeps, seed) -> Posterior:
    if name in EQUIVALENCE_CLASSES:
        return equivalence_posterior(relation, observed, EQUIVALENCE_CLASSES[name], chains=chains,
                                     sweeps=sweeps or 300, seed=seed)
    if name == "greater_than":
        return order_posterior(relation, observed, chains=chains, sweeps=sweeps or 3000, seed=seed)
    return bipartite_posterior(relation, observed)

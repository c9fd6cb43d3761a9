"""Run a chapter's paper-scale sweep on a Dask cluster: ``python -m repro.book.sweep_cli EXPERIMENT ...``.

    python -m repro.book.sweep_cli liu2022_fig6a --local 2 --store book/_results     # a LocalCluster, 2 processes
    python -m repro.book.sweep_cli liu2022_fig6c --scheduler tcp://10.0.0.5:8786 --store /shared/results

Each chunk of the sweep (see :func:`repro.training.sweep.sweep`) becomes one Dask task; workers write finished
chunks to the results store, which must be a folder every worker can write (on a cluster: a shared
file system). Rerunning the same command, on the cluster or on a laptop, trains only the chunks that
are not in the store yet. ``--scale`` picks the sizes (``paper`` by default; ``smoke`` for a quick try).
Needs the optional extra: ``pip install -e '.[cluster]'``.
"""
from __future__ import annotations

import argparse
import os
import sys

EXPERIMENTS = {f"liu2022_fig6{p}": f"Liu et al. 2022 Fig. 6({p}): the toy model's phase diagram" for p in "abcd"}


def connect(address: str, timeout: float = 10):
    """A ``dask.distributed.Client`` for the scheduler at ``address``, or a ValueError that says why not."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise ValueError("dask.distributed is not installed: pip install -e '.[cluster]'") from exc
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"could not reach the Dask scheduler at {address} within {timeout:g} s "
                         f"({type(exc).__name__}: {exc}); check the address and that the scheduler is running.") from exc


def local_client(n_workers: int):
    """A LocalCluster of ``n_workers`` single-threaded worker processes, and its client."""
    from distributed import Client, LocalCluster

    if n_workers < 1:
        raise ValueError(f"--local {n_workers} is not allowed: give at least 1 worker process.")
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None)
    return Client(cluster)


def run_experiment(name: str, client, store):
    """Run one experiment of :data:`EXPERIMENTS` at the current ``REPRO_SCALE`` through ``client``."""
    if name not in EXPERIMENTS:
        raise ValueError(f"experiment={name!r} is not allowed: experiment must be one of {', '.join(EXPERIMENTS)}.")
    from repro.experiments.liu2022_phase_diagrams import ToyPhaseConfig, run_phase_diagram

    cfg = ToyPhaseConfig.for_scale(name[-1])
    return run_phase_diagram(cfg, store=store, client=client)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.sweep_cli", description=__doc__.splitlines()[0])
    parser.add_argument("experiment", choices=sorted(EXPERIMENTS), help="which sweep")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786")
    where.add_argument("--local", type=int, metavar="N", help="start a LocalCluster with N single-threaded worker processes")
    parser.add_argument("--store", required=True, help="results-store folder, writable by every worker")
    parser.add_argument("--scale", choices=("paper", "book", "smoke"), default="paper")
    args = parser.parse_args(argv)
    os.environ["REPRO_SCALE"] = args.scale
    from collections import Counter

    from repro.training.store import ResultsStore

    try:
        client = connect(args.scheduler) if args.scheduler else local_client(args.local)
    except ValueError as exc:
        parser.error(str(exc))
    with client:
        try:
            diagram = run_experiment(args.experiment, client, ResultsStore(args.store))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    phases = diagram.phases if hasattr(diagram, "phases") else None
    if phases is not None:
        print(f"{args.experiment} ({args.scale} scale): phase counts {dict(Counter(map(str, phases.ravel())))}")
    print(f"chunks stored in {args.store}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

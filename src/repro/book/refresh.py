"""Re-execute chapters and store their outputs byte-stably: ``python -m repro.book.refresh book/*.ipynb``.

* Each notebook runs with nbclient in its own folder (as nbval does), with no per-cell timing
  metadata, so re-running an unchanged chapter rewrites the same bytes.
* The kernel gets ``REPRO_PROGRESS=0``: progress bars never reach stored outputs.
* The ``.py`` pair is synced first (jupytext: the text file wins when it is newer), so edit the
  ``.py`` in any editor and then refresh.
* Each markdown cell's inline expressions (``{eval}`glued.KEY```) get their stored values in the cell's
  ``user_expressions`` metadata, so JupyterLab (with jupyterlab-myst) shows the numbers before anything runs
  (:func:`repro.core.prose.add_user_expressions`), and the figures the chapter shows are exported to
  ``book/_figures/<chapter>/`` (:func:`repro.core.prose.export_figures`); ``--no-execute`` does just these two,
  from the stored outputs, without executing anything.
* Each executed notebook records the environment it ran in (``metadata.repro.environment``: the digest of
  ``requirements.lock`` and how this environment differed from it, :func:`repro.core.envlock.stamp`), so that
  nbval can tell "environment differs" from a broken chapter (``book/conftest.py``). ``--stamp-validated`` records
  the same without executing, for notebooks that have just passed ``pytest --nbval`` in this environment.
* Each chapter's opening summary box (its paper's claims with our verdicts) is rewritten from the ledger the run
  wrote (:mod:`repro.book.summary`), with ``--no-execute`` from the committed one.
* ``--check`` executes without writing and reports whether the stored outputs would change.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from repro.core.envlock import stamp
from repro.core.files import write_notebook_atomic
from repro.core.prose import add_user_expressions, export_figures


def record_environment(nb, how: str) -> None:
    """Record in ``nb``'s metadata the environment its outputs were ``how`` ("executed" or "validated") in."""
    nb.metadata.setdefault("repro", {})["environment"] = dict(stamp(), how=how)


def _sync_pair(path: Path) -> None:
    from jupytext.cli import jupytext as jupytext_cli

    pair = path.with_suffix(".py")
    if pair.exists():
        jupytext_cli(["--sync", "--quiet", str(pair)])
    else:
        jupytext_cli(["--set-formats", "ipynb,py:percent", "--quiet", str(path)])


def execute(path: Path, timeout: int = 1200):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    env_before = os.environ.get("REPRO_PROGRESS")
    os.environ["REPRO_PROGRESS"] = "0"  # inherited by the kernel
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute()
    finally:
        if env_before is None:
            os.environ.pop("REPRO_PROGRESS", None)
        else:
            os.environ["REPRO_PROGRESS"] = env_before
    for cell in nb.cells:  # nbclient leaves no timing, but strip anything a previous tool left
        cell.get("metadata", {}).pop("execution", None)
    add_user_expressions(nb)
    export_figures(nb, path)
    record_environment(nb, "executed")
    return nb


def _claims_snapshot(path: Path) -> tuple[Path, bytes | None]:
    """The chapter's claims file (``_claims/<stem>.json`` beside it, which its ClaimBook rewrites at every check) and
    its bytes now (None: there is none)."""
    claims = path.parent / "_claims" / f"{path.stem}.json"
    return claims, (claims.read_bytes() if claims.exists() else None)


def _restore(claims: Path, before: bytes | None) -> None:
    """Put the claims file back as :func:`_claims_snapshot` found it."""
    from repro.core.files import write_bytes_atomic

    if before is None:
        claims.unlink(missing_ok=True)
    elif not claims.exists() or claims.read_bytes() != before:
        write_bytes_atomic(claims, before)


def fill_summary(nb, path: Path) -> None:
    """Rewrite the chapter's opening summary box from its ledger (:mod:`repro.book.summary`), if it has a
    registry; the ``.py`` pair follows when the notebook is synced."""
    from repro.book.summary import chapters, fill_notebook

    if path.stem in chapters(path.parent):
        fill_notebook(nb, path.stem, path.parent)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m repro.book.refresh", description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path, help="chapter notebooks (.ipynb) to re-execute")
    parser.add_argument("--check", action="store_true", help="execute without writing; exit 1 if outputs would change")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds per cell (default 1200)")
    parser.add_argument("--no-execute", action="store_true",
                        help="execute nothing: only rewrite the markdown cells' inline-expression values and export the "
                             "figures, from the stored outputs")
    parser.add_argument("--stamp-validated", action="store_true",
                        help="execute nothing: record this environment in each notebook's metadata as the one its "
                             "stored outputs validated in (run right after `pytest --nbval` passed on them here)")
    args = parser.parse_args(argv)
    for path in args.notebooks:
        if path.suffix != ".ipynb" or not path.exists():
            parser.error(f"{path}: expected an existing .ipynb file")
    if args.stamp_validated:
        import nbformat

        for path in args.notebooks:
            nb = nbformat.read(path, as_version=4)
            record_environment(nb, "validated")
            write_notebook_atomic(path, nb)
            print(f"{path}: environment {nb.metadata['repro']['environment']['lock']} recorded")
        return 0
    if args.no_execute:
        import nbformat

        for path in args.notebooks:
            nb = nbformat.read(path, as_version=4)
            fill_summary(nb, path)
            n = add_user_expressions(nb)
            figures = export_figures(nb, path)
            new = nbformat.writes(nb) + "\n"
            if new != path.read_text():
                write_notebook_atomic(path, nb)
                _sync_pair(path)  # the summary box may have changed
            print(f"{path}: {n} inline expressions, {len(figures)} figures")
        return 0
    changed = 0
    for path in args.notebooks:
        if not args.check:
            _sync_pair(path)
        start = time.perf_counter()
        # A chapter rewrites its claims file as it runs: a run that fails part-way would leave the claims of half a
        # chapter beside the old notebook, and --check must not write at all. Either way the file is put back.
        claims, before = _claims_snapshot(path)
        try:
            nb = execute(path, args.timeout)
            fill_summary(nb, path)  # from the ledger the run just wrote
        except BaseException:
            _restore(claims, before)
            raise
        if args.check:
            _restore(claims, before)
        import nbformat

        new = nbformat.writes(nb) + "\n"
        old = path.read_text()
        status = "unchanged" if new == old else "changed"
        changed += new != old
        if not args.check and new != old:
            write_notebook_atomic(path, nb)
            _sync_pair(path)
        print(f"{path}: {status} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())

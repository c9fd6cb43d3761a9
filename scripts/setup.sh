#!/usr/bin/env bash
# Create or update the project's virtual environment in .venv (Python 3.11) with exactly requirements.lock: every
# package at its locked version, checked against the lock's hashes, nothing resolved now; packages the lock does
# not list are removed; then this package from the checkout, and a check that the environment equals the lock.
#   REPRO_ENV=active    install into the active environment instead of .venv (the conda route, book/developing.md)
#   REPRO_KEEP_TORCH=1  keep the torch 2.13 already installed (e.g. a CUDA build on a GPU machine): the rest of the lock
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
case "${REPRO_KEEP_TORCH:-}" in ""|1) ;; *) echo "REPRO_KEEP_TORCH=$REPRO_KEEP_TORCH is not allowed: 1 or unset"; exit 2 ;; esac
if [ "${REPRO_ENV:-venv}" = venv ]; then
    [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
    . .venv/bin/activate
elif [ "$REPRO_ENV" != active ]; then
    echo "REPRO_ENV=$REPRO_ENV is not allowed: use 'venv' (the default: .venv) or 'active'"; exit 2
elif [ -z "${VIRTUAL_ENV:-}" ] && { [ -z "${CONDA_PREFIX:-}" ] || [ "${CONDA_DEFAULT_ENV:-}" = base ]; }; then
    # setup removes every package the lock does not list: never from a base or system Python
    echo "REPRO_ENV=active needs an activated conda environment (not base) or virtualenv: none is active"; exit 2
fi
export PYTHONNOUSERSITE=1  # the user's ~/.local packages are neither compared with the lock nor removed
python -c 'import sys; sys.version_info[:2] == (3, 11) or print(f"warning: requirements.lock is resolved for Python 3.11, this is {sys.version.split()[0]}: some pins may have no wheel here")'
python -m pip install -q --upgrade pip
lock=requirements.lock
if [ "${REPRO_KEEP_TORCH:-}" = 1 ]; then
    lock=$(mktemp)
    trap 'rm -f "$lock"' EXIT
    python src/repro/core/envlock.py without torch > "$lock"
fi
if ! python -m pip install -q --require-hashes --no-deps -r "$lock"; then
    echo "setup failed: pip could not install requirements.lock as locked (the versions or hashes above)."
    echo "If it is torch 2.13.0+cpu, PyTorch's CPU build, that no index or wheel folder serves: add PyTorch's CPU wheel"
    echo "index to PIP_EXTRA_INDEX_URL, or on a GPU machine install torch 2.13.0 first and set REPRO_KEEP_TORCH=1."
    exit 1
fi
python -m pip install -q --no-deps --no-build-isolation -e .
extras=""  # with a kept torch its own packages (CUDA libraries) are not the lock's: none is removed then
[ "${REPRO_KEEP_TORCH:-}" = 1 ] || extras=$(python -m repro.core.envlock extras)
if [ -n "$extras" ]; then
    echo "removing packages the lock does not list: $(echo $extras)"
    python -m pip uninstall -q -y $extras
fi
python -m repro.core.envlock check  # with REPRO_KEEP_TORCH=1: torch 2.13 of any build, the rest as locked
# The figures the chapters show, exported from their stored outputs (book/_figures/, not committed), so that a
# chapter opened in JupyterLab shows them; nothing is executed and the notebooks stay as committed.
python -m repro.book.refresh --no-execute book/*.ipynb > /dev/null

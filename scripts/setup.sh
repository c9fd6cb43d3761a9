#!/usr/bin/env bash
# Create or update the project's virtual environment in .venv (Python 3.11+).
# torch is installed first and pinned: on Linux x86-64 the CPU wheel is picked where it is available
# locally; a bare `pip install` of an unpinned torch would pull a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q "torch==2.13.0"
python -m pip install -q -e ".[dev,cluster,lab,browser]"
# The figures the chapters show, exported from their stored outputs (book/_figures/, not committed), so that a
# chapter opened in JupyterLab shows them; nothing is executed and the notebooks stay as committed.
python -m repro.book.refresh --no-execute book/*.ipynb > /dev/null

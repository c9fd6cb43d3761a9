#!/usr/bin/env bash
# Set up .venv (if needed), then run every test: unit tests (incl. the notebook-pair sync check),
# every chapter re-executed under nbval (strict), and a warnings-as-errors book build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
python -m pytest -q tests/
python -m pytest -q --nbval book/
jupyter-book build -W --keep-going book/

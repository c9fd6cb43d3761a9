#!/usr/bin/env bash
# Set up .venv (if needed) and build the book to book/_build/html (outputs stored in the notebooks).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ "${REPRO_ENV:-venv}" != venv ] || . .venv/bin/activate  # REPRO_ENV=active: the active one (conda)
jupyter-book build book/
echo "Open book/_build/html/index.html"

#!/usr/bin/env bash
# Set up .venv (if needed) and build the book to book/_build/html (outputs stored in the notebooks).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
jupyter-book build book/
echo "Open book/_build/html/index.html"

#!/usr/bin/env bash
# Set up .venv (if needed), then run every test: unit tests (incl. the notebook-pair sync check and the
# paper-scale dry runs), every chapter re-executed under nbval (strict) twice -- once with this CPU's
# native PyTorch kernels and once with a different kernel set, against the same stored outputs, so a
# green run shows the outputs do not depend on one machine's floating-point rounding -- and a
# warnings-as-errors book build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
python -m pytest -q tests/
native=$(python -m repro.core.kernels native)
other=$(python -m repro.core.kernels other)
echo "nbval pass 1 of 2: native PyTorch CPU kernels ($native)"
python -m pytest -q --nbval book/
if [ -n "$other" ]; then
    echo "nbval pass 2 of 2: ATEN_CPU_CAPABILITY=$other (a kernel set other than the native $native)"
    ATEN_CPU_CAPABILITY="$other" python -m pytest -q --nbval book/
else
    echo "nbval pass 2 of 2 skipped: this CPU ($native) offers PyTorch no other kernel set"
fi
jupyter-book build -W --keep-going book/
# The built book must carry its own MathJax (opened from disk without a network it still renders math).
test -f book/_build/html/_static/mathjax/tex-chtml.js && grep -q '_static/mathjax/tex-chtml.js' book/_build/html/intro.html \
    || { echo "the built book does not serve MathJax locally (sphinx-mathjax-offline)"; exit 1; }
echo "book built with MathJax served locally"

#!/usr/bin/env bash
# Update requirements.lock, the one environment the stored outputs are validated with, from pyproject.toml's
# dependencies and the extras the README's commands install. Without arguments it keeps every pin the dependency
# ranges still allow and resolves only what changed; `--upgrade` (or `--upgrade-package NAME`) moves pins on
# purpose. Each pin carries the hashes of all its files on the index (torch: only the CPU wheel this machine's
# pip finds, 2.13.0+cpu for Linux x86-64 and Python 3.11).
# pip-tools runs from a venv of its own (.lock-tools/), so .venv is not touched. After an update: bash
# scripts/setup.sh, then re-validate (and if needed refresh) the stored outputs (book/developing.md: "The locked environment").
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .lock-tools/bin/pip-compile ] || { "$PYTHON" -m venv .lock-tools && .lock-tools/bin/python -m pip install -q "pip-tools==7.6.2"; }
CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh" .lock-tools/bin/pip-compile --quiet --extra dev,cluster,lab,browser \
    --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
    --output-file requirements.lock "$@" pyproject.toml
echo "requirements.lock: $(grep -c '==' requirements.lock) pins, digest $("$PYTHON" src/repro/core/envlock.py digest --lock requirements.lock)"

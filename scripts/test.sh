#!/usr/bin/env bash
# Set up .venv (if needed; exactly requirements.lock), then run every test: unit tests (incl. the notebook-pair sync
# check and the paper-scale dry runs); every chapter re-executed under nbval (strict) with this CPU's native
# floating-point path, then most chapters again with another PyTorch kernel set *and* a BLAS (MKL, oneDNN) held to
# an older instruction set, against the same stored outputs; the JupyterLab rendering test; a warnings-as-errors
# book build.
#
# nbval byte-compares what is exact on every machine (text, configs, closed forms, stored results); numbers that
# come out of live training runs are marked (repro.core.portable.trained) and replaced before the comparison
# (nbval_sanitize.cfg), and their claims (repro.book.claims) judge them. Every step runs even when an earlier one
# fails, so one run shows the whole picture; the exit status is non-zero if any step failed. Each step prints its
# time, and the script ends with the total.
#
# The tests and the chapters run on every core: one pytest-xdist worker per core, one thread per worker (the
# chapters' many small programs keep a core busier than two threads of one program do). A chapter is one unit
# (--dist loadscope: its cells run in order in one kernel). REPRO_JOBS=1 runs each step in one process on all
# threads. REPRO_DRY_RUN=1 prints each step's command instead of running it, and REPRO_DRY_FAIL=TEXT makes the dry
# run's commands that contain TEXT fail (tests/test_ci_scripts.py).
set -uo pipefail
cd "$(dirname "$0")/.."
total_start=$SECONDS
DRY=${REPRO_DRY_RUN:-}
export PYTHONNOUSERSITE=1  # the user's ~/.local packages are not the book's environment (scripts/setup.sh)
JOBS=${REPRO_JOBS:-$(nproc)}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "REPRO_JOBS=$JOBS is not allowed: a whole number >= 1 (default: the cores, $(nproc))"; exit 2; }
if [ -n "$DRY" ]; then
    echo "+ bash scripts/setup.sh"
else
    bash scripts/setup.sh || { echo "setup failed: .venv could not be created or updated"; exit 1; }
    echo "=== setup: done ($((SECONDS - total_start)) s)"
    [ "${REPRO_ENV:-venv}" != venv ] || . .venv/bin/activate  # REPRO_ENV=active: the active one (conda)
fi
parallel=()
one_thread=()
if [ "$JOBS" -gt 1 ]; then
    parallel=(-p xdist -n "$JOBS" --dist loadscope)
    one_thread=(OMP_NUM_THREADS=1 MKL_NUM_THREADS=1)
fi
# nbval re-executes the chapters, and each chapter rewrites its ledger book/_claims/<chapter>.json with this
# run's values; keep the committed ledgers (which match the committed outputs) and put them back on exit.
claims_backup=$(mktemp -d)
cp -p book/_claims/*.json "$claims_backup"/
trap 'cp -p "$claims_backup"/*.json book/_claims/ && rm -rf "$claims_backup"' EXIT

failed=()
step() {  # step "<name>" command...: run it, report with its time, remember a failure, go on
    local name=$1; shift
    echo "=== $name"
    local start=$SECONDS
    if "$@"; then
        [ -n "$DRY" ] || echo "=== $name: passed ($((SECONDS - start)) s)"
    else
        echo "=== $name: FAILED ($((SECONDS - start)) s)"
        failed+=("$name")
    fi
}
run() {  # run command...: run it (the dry run prints it instead, and fails it where REPRO_DRY_FAIL says)
    if [ -z "$DRY" ]; then "$@"; return; fi
    echo "+ $*"
    [ -z "${REPRO_DRY_FAIL:-}" ] || [[ "$*" != *"$REPRO_DRY_FAIL"* ]]
}
STATUS=book/status.ipynb
# nbval_pass VAR=VALUE... -- TARGET...: the chapters among the targets on every core, then the status page alone
# when it is a target (book/ included): it renders every chapter's ledger, which a running chapter rewrites claim
# by claim, so it must not run beside one. CI is unset for pytest here: with CI set, pytest does not truncate a
# failing comparison and its line-by-line diff of a long HTML output (the status page's tables) ran for over five
# minutes before reporting.
nbval_pass() {
    local envs=(-u CI -u BUILD_NUMBER) chapters=() status="" rc=0
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    for target in "$@"; do
        case "$target" in
            book/|book) chapters+=(book/ --ignore="$STATUS"); status=1 ;;
            "$STATUS") status=1 ;;
            *) chapters+=("$target") ;;
        esac
    done
    if [ ${#chapters[@]} -gt 0 ]; then
        run env "${envs[@]}" "${one_thread[@]}" python -m pytest -q "${parallel[@]}" --nbval "${chapters[@]}" || rc=1
    fi
    [ -z "$status" ] || run env "${envs[@]}" python -m pytest -q --nbval "$STATUS" || rc=1
    return $rc
}

step "environment equals requirements.lock" run python -m repro.core.envlock check
step "unit tests ($JOBS worker(s))" run env "${one_thread[@]}" python -m pytest -q "${parallel[@]}" tests/

native=$(python -m repro.core.kernels native) || failed+=("reading the CPU kernel set (python -m repro.core.kernels)")
other=$(python -m repro.core.kernels other) || failed+=("reading the other CPU kernel set (python -m repro.core.kernels)")
step "nbval pass 1 of 2: native floating-point path (PyTorch kernels $native, $JOBS worker(s))" \
    nbval_pass -- book/
# The second pass changes every floating-point path we can change on one machine: another ATen kernel set, MKL
# (the BLAS behind every matrix product) on its CPU-independent code path (MKL_CBWR=COMPATIBLE: on AMD CPUs MKL
# ignores MKL_ENABLE_INSTRUCTIONS, this it obeys), and oneDNN held to SSE4.1.
lower=(MKL_CBWR=COMPATIBLE DNNL_MAX_CPU_ISA=SSE41)
[ -n "$other" ] && lower+=(ATEN_CPU_CAPABILITY="$other")
# The second path runs about 1.4x slower than the first. Each CI run re-executes one half of the book there (the
# halves take about equal time; the status page follows either), alternating with the parity of the commit count, so
# two commits of opposite parity put every chapter through both paths, while every chapter runs under pass 1 on
# every run; scripts/portability.sh runs every chapter under every configuration. REPRO_PASS2=half1|half2 picks a half,
# REPRO_PASS2=all runs the whole book, REPRO_PASS2="book/a.ipynb ..." picks chapters.
# The halves are in book/_chapters.toml (each chapter's `pass2`), read by repro.book.manifest.
PASS2_HALF1=$(python -m repro.book.manifest pass2 1) || failed+=("reading the second pass's halves (book/_chapters.toml)")
PASS2_HALF2=$(python -m repro.book.manifest pass2 2) || failed+=("reading the second pass's halves (book/_chapters.toml)")
choice=${REPRO_PASS2:-default}
if [ "$choice" = default ]; then
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = false ]; then
        choice=half$(( $(git rev-list --count HEAD) % 2 + 1 ))
    else  # a shallow clone or no git: the commit's hash decides (its last hex digit), not a count that stays 1
        last=$(git rev-parse HEAD 2>/dev/null | tail -c 2)
        choice=half$(( 16#${last:-0} % 2 + 1 ))
    fi
fi
case "$choice" in
    all) pass2=(book/) ;;
    half1) read -r -d '' -a pass2 <<<"$PASS2_HALF1" ;;
    half2) read -r -d '' -a pass2 <<<"$PASS2_HALF2" ;;
    *) read -r -a pass2 <<<"$choice"; choice="chosen" ;;
esac
step "nbval pass 2 of 2: ${lower[*]} ($choice: ${#pass2[@]} targets, $JOBS worker(s))" \
    nbval_pass "${lower[@]}" -- "${pass2[@]}"

# Two chapters opened in JupyterLab in headless Chromium: prose numbers, figures and captions render, no MyST
# source shows (tests_lab/; skipped, saying why, where Chromium is missing: apt-get install chromium).
step "JupyterLab rendering (headless Chromium)" run python -m pytest -q -rs tests_lab

step "book build (-W)" run jupyter-book build -W --keep-going book/
# The built book must carry its own MathJax (opened from disk without a network it still renders math).
mathjax() {
    test -f book/_build/html/_static/mathjax/tex-chtml.js && grep -q '_static/mathjax/tex-chtml.js' book/_build/html/intro.html \
        || { echo "the built book does not serve MathJax locally (sphinx-mathjax-offline)"; return 1; }
}
step "MathJax served locally" run mathjax

echo "=== total: $((SECONDS - total_start)) s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED steps (${#failed[@]}):"
    printf '  - %s\n' "${failed[@]}"
    exit 1
fi
echo "all steps passed"

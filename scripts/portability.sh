#!/usr/bin/env bash
# The machine matrix: re-execute the book under nbval once per floating-point configuration this machine can
# produce, against the same stored outputs, and print one line per configuration. Run it before committing
# refreshed outputs; record the result in book/portability.md ("Record: CPUs").
#
#   bash scripts/portability.sh                       # every configuration, the whole book
#   bash scripts/portability.sh book/liu2023_omnigrok.ipynb        # some chapters
#   CONFIGS="native threads-1" bash scripts/portability.sh         # some configurations
#
# Configurations (those equal to the native path on this CPU are skipped and said so):
#   native        this CPU's own path: PyTorch's best kernel set, MKL/oneDNN choosing by CPU model, all threads
#   aten-avx2     ATEN_CPU_CAPABILITY=avx2 (PyTorch's AVX2 kernels; skipped where AVX2 is native)
#   aten-default  ATEN_CPU_CAPABILITY=default (the scalar kernels)
#   blas-avx2     MKL_ENABLE_INSTRUCTIONS=AVX2 DNNL_MAX_CPU_ISA=AVX2 (an Intel AVX-512 CPU only: MKL ignores
#                 MKL_ENABLE_INSTRUCTIONS on AMD CPUs, and where AVX2 is the best ISA it changes nothing)
#   blas-compat   MKL_CBWR=COMPATIBLE DNNL_MAX_CPU_ISA=SSE41 (MKL's CPU-independent code path: other results
#                 than its native path on every x86 CPU we tried, AMD included)
#   threads-1     OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 (other reduction splits than with every core)
#   nudge         REPRO_NUDGE=1e-6: every initial parameter times 1 + 1e-6 (repro.core.kernels.init_nudge), another
#                 machine's rounding simulated on this one; it changes every trajectory on every CPU, so an
#                 unmarked trained number cannot pass by luck
# A log per configuration goes to $LOGDIR (default /tmp/repro-portability).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || [ "${REPRO_ENV:-venv}" != venv ] || bash scripts/setup.sh
[ "${REPRO_ENV:-venv}" != venv ] || . .venv/bin/activate  # REPRO_ENV=active: the active one (conda)
python -m repro.core.envlock check || { echo "the environment is not requirements.lock's: run bash scripts/setup.sh"; exit 1; }
# nbval re-executes the chapters, and each chapter rewrites its ledger book/_claims/<chapter>.json with this
# run's values; keep the committed ledgers (which match the committed outputs) and put them back on exit.
claims_backup=$(mktemp -d)
cp -p book/_claims/*.json "$claims_backup"/
trap 'cp -p "$claims_backup"/*.json book/_claims/ && rm -rf "$claims_backup"' EXIT
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(book/)
LOGDIR=${LOGDIR:-/tmp/repro-portability}; mkdir -p "$LOGDIR"
native=$(python -m repro.core.kernels native)
declare -A ENV=(
    [native]=""
    [aten-avx2]="ATEN_CPU_CAPABILITY=avx2"
    [aten-default]="ATEN_CPU_CAPABILITY=default"
    [blas-avx2]="MKL_ENABLE_INSTRUCTIONS=AVX2 DNNL_MAX_CPU_ISA=AVX2"
    [blas-compat]="MKL_CBWR=COMPATIBLE DNNL_MAX_CPU_ISA=SSE41"
    [threads-1]="OMP_NUM_THREADS=1 MKL_NUM_THREADS=1"
    [nudge]="REPRO_NUDGE=1e-6"
)
CONFIGS=${CONFIGS:-"native aten-avx2 aten-default blas-avx2 blas-compat threads-1 nudge"}
has_avx512=$(grep -q -m1 avx512f /proc/cpuinfo && echo 1 || echo 0)
intel=$(grep -q -m1 GenuineIntel /proc/cpuinfo && echo 1 || echo 0)
summary=()
bad=0
for c in $CONFIGS; do
    [ -n "${ENV[$c]+x}" ] || { echo "CONFIGS: unknown configuration '$c'; allowed: ${!ENV[*]}"; exit 2; }
    if { [ "$c" = aten-avx2 ] || [ "$c" = blas-avx2 ]; } && [ "$has_avx512" = 0 ]; then
        summary+=("$c: skipped (AVX2 is this CPU's best instruction set: same as native)"); continue
    fi
    if [ "$c" = blas-avx2 ] && [ "$intel" = 0 ]; then
        summary+=("$c: skipped (not an Intel CPU: MKL ignores MKL_ENABLE_INSTRUCTIONS here)"); continue
    fi
    log="$LOGDIR/$c.log"
    start=$SECONDS
    # shellcheck disable=SC2086
    env ${ENV[$c]} python -m pytest -q --nbval "${targets[@]}" >"$log" 2>&1
    rc=$?
    line=$(grep -E '(passed|failed|error)' "$log" | tail -1)
    summary+=("$c (${ENV[$c]:-native: $native}): rc $rc, $line [$((SECONDS - start)) s]")
    [ $rc -eq 0 ] || bad=1
done
echo "portability matrix on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), torch kernels $native, $(nproc) cores:"
printf '  %s\n' "${summary[@]}"
exit $bad

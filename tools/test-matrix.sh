#!/usr/bin/env bash
# The test matrix: the Octave suite (tests/run_suite.m: every function's %! tests and the
# randomized differential test) once for each configuration a user can set, each row
# under a time limit, so that a hang fails its row instead of stalling the run.
#   tools/test-matrix.sh cpu|gpu SETUP
# SETUP: Octave code that makes gpuscan callable (pkg prefix and pkg load, or addpath).
#   cpu rows (CI, no GPU; the default configuration is run-tests.sh's own suite run): the
#     host chunk driver in chunks of 1000 elements (GPUSCAN_ALGORITHM=cpu
#     GPUSCAN_CHUNK_ELEMENTS=1000); and with every size through the CPU engine's threads
#     (GPUSCAN_CPU_PARALLEL_MIN=1): OMP_THREAD_LIMIT=1; OMP_DYNAMIC=true and 3 threads
#     (more than a 2-core machine has) with every core busy
#   gpu rows (a GPU machine): GPUSCAN_ENGINE=gpu, GPUSCAN_ENGINE=cpu, and every call of
#     the suite under each GPUSCAN_ALGORITHM (kogge-stone, brent-kung, decoupled, cub),
#     side by side (MATRIX_JOBS at a time, default 3); with MATRIX_ROWS=tuning instead
#     (or =all, both), the GPU engine forced under other architectures' tuning tables
#     (GPUSCAN_TUNING=sm_80, sm_75) and with the device's limits clamped to smaller GPUs'
#     (GPUSCAN_DEVICE_LIMITS=a100, rtx4090, t4: kernels/dispatch/device_limits.cuh)
# MATRIX_ONLY: the names of the rows to run (default: all of MATRIX_ROWS's).
# MATRIX_LIMIT: seconds a row may take (default 900).  GPUSCAN_DIFFERENTIAL_CASES: cases
# of the differential test in each row (run_suite's default where unset);
# GPUSCAN_SUITE_FUNCTIONS: the functions whose tests each row runs (default all).  Logs:
# $MATRIX_LOGS (default: a temporary folder), one file a row.  Exits 1 when a row fails.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:?cpu or gpu}
setup=${2:?Octave code that loads gpuscan}
limit=${MATRIX_LIMIT:-900}
logs=${MATRIX_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
octave="octave-cli --no-gui --norc --no-history --quiet"

# one row: its name, then the environment it runs under
run_row () {
  local name=$1; shift
  local start=$(date +%s) rc
  env "$@" timeout -s KILL "$limit" $octave --eval "$setup
    addpath ('$top/tests'); exit (! run_suite ());" > "$logs/$name.txt" 2>&1
  rc=$?
  local verdict=PASS
  [ $rc -eq 137 ] && verdict="KILLED after ${limit} s (a hang?)"
  [ $rc -ne 0 ] && [ $rc -ne 137 ] && verdict="FAIL (rc $rc)"
  printf "matrix %-28s %-12s %4d s  %s\n" "$name" "$verdict" $(( $(date +%s) - start )) \
    "$(grep -h '^differential: seed' "$logs/$name.txt" | tail -n 1)"
  [ $rc -eq 0 ] || { grep -h -B2 -A12 'FAIL\|failed' "$logs/$name.txt" | head -n 60; return 1; }
}

rc=0
if [ "$kind" = cpu ]; then
  cores=$(nproc)
  # (GPUSCAN_CPU_PARALLEL_MIN=1: every size through the CPU engine's threads)
  run_row host-chunks-1000 GPUSCAN_ALGORITHM=cpu GPUSCAN_CHUNK_ELEMENTS=1000 || rc=1
  run_row omp-thread-limit-1 OMP_THREAD_LIMIT=1 GPUSCAN_CPU_PARALLEL_MIN=1 || rc=1
  # a busy machine: every core spins while the row runs (ended with it)
  busy=()
  for ((i = 0; i < cores; i++)); do
    timeout "$limit" sh -c 'while :; do :; done' & busy+=($!)
  done
  run_row busy-omp-dynamic-3-threads OMP_DYNAMIC=true OMP_NUM_THREADS=3 GPUSCAN_CPU_PARALLEL_MIN=1 || rc=1
  kill "${busy[@]}" 2>/dev/null; wait "${busy[@]}" 2>/dev/null
else
  rows=()
  if [ "${MATRIX_ROWS:-algorithms}" != tuning ]; then
    rows+=("engine-gpu GPUSCAN_ENGINE=gpu" "engine-cpu GPUSCAN_ENGINE=cpu GPUSCAN_CPU_PARALLEL_MIN=1")
    for a in kogge-stone brent-kung decoupled cub; do
      rows+=("algorithm-$a GPUSCAN_ALGORITHM=$a")
    done
  fi
  if [ "${MATRIX_ROWS:-algorithms}" != algorithms ]; then
    for t in sm_80 sm_75; do rows+=("tuning-$t GPUSCAN_ENGINE=gpu GPUSCAN_TUNING=$t"); done
    for l in a100 rtx4090 t4; do rows+=("limits-$l GPUSCAN_ENGINE=gpu GPUSCAN_DEVICE_LIMITS=$l"); done
  fi
  jobs_max=${MATRIX_JOBS:-3}
  pids=()
  for row in "${rows[@]}"; do
    # MATRIX_ONLY: the rows of these names alone (e.g. "engine-gpu algorithm-decoupled")
    [ -n "${MATRIX_ONLY:-}" ] && [[ " $MATRIX_ONLY " != *" ${row%% *} "* ]] && continue
    # (a share of the cores each, so that the rows beside each other do not oversubscribe)
    run_row $row OMP_NUM_THREADS=$(( $(nproc) / jobs_max > 0 ? $(nproc) / jobs_max : 1 )) &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
  done
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
fi
[ $rc -eq 0 ] && echo "test matrix ($kind): all rows passed" || echo "test matrix ($kind): FAILED"
exit $rc

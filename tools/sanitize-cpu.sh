#!/usr/bin/env bash
# The CPU build under AddressSanitizer + UndefinedBehaviorSanitizer, then under valgrind
# memcheck; fails on any report.
#   asan: the whole Octave suite with the sanitizers.  Octave itself is not instrumented:
#     the runtimes are preloaded, so the interpreter allocates through ASan too, and
#     records a stack at every allocation: 2 frames (GPUSCAN_ASAN_FRAMES; a report
#     shows the faulting access's whole stack all the same).  Octave's frames have no
#     frame pointers, so deeper stacks are slow to take: `test gpuscan` took 810 s in
#     CI with 8 frames and 97 s here with 2 (2026-11-27).  The differential test runs 200
#     cases (GPUSCAN_DIFFERENTIAL_CASES) and starts no new case after 120 s
#     (GPUSCAN_DIFFERENTIAL_SECONDS): its reference loops run in the interpreter (40
#     cases took 15 to 423 s with 8 frames, 18 s with 2).  Tests that need more than 4 GB
#     (GPUSCAN_TEST_MAX_GB: the 2^31-element one) run in the other suite runs only.
#   valgrind: every operator and mode on small arrays, and device arrays on the host
#     stand-in (tests/sanity_calls.m).
#   tools/sanitize-cpu.sh [asan] [valgrind]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
steps=" ${*:-asan valgrind} "
cd "$top"
[ -x configure ] || autoreconf -fi >/dev/null
if [[ $steps == *" asan "* ]]; then
  b=$top/build-asan
  mkdir -p "$b" && cd "$b"
  san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
  "$top/configure" --without-cuda CFLAGS="$san" >/dev/null
  CXXFLAGS="$san" LDFLAGS="-fsanitize=address,undefined" make -j"$(nproc)" >make.log 2>&1 \
    || { tail -30 make.log; exit 1; }
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer: the Octave suite"
  LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
  ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0:malloc_context_size=${GPUSCAN_ASAN_FRAMES:-2} \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 GPUSCAN_HOST_ARRAYS=1 GPUSCAN_TEST_MAX_GB=4 \
  GPUSCAN_DIFFERENTIAL_CASES=${GPUSCAN_DIFFERENTIAL_CASES:-200} \
  GPUSCAN_DIFFERENTIAL_SECONDS=${GPUSCAN_DIFFERENTIAL_SECONDS:-120} \
    octave-cli --no-gui --norc --no-history --quiet --eval \
      "addpath ('$top/tests'); addpath ('$top/inst'); addpath ('$b/src'); exit (! run_suite ())"
  cd "$top"
fi
if [[ $steps == *" valgrind "* ]]; then
  b=$top/build-asan-free
  mkdir -p "$b" && cd "$b"
  "$top/configure" --without-cuda CFLAGS="-g -O1" >/dev/null
  make -j"$(nproc)" >make.log 2>&1 || { tail -30 make.log; exit 1; }
  echo "== valgrind memcheck: every operator and mode on small arrays, device arrays"
  OMP_NUM_THREADS=2 GPUSCAN_HOST_ARRAYS=1 valgrind --error-exitcode=3 --errors-for-leak-kinds=none --quiet \
    octave-cli --no-gui --norc --no-history --quiet --eval \
      "addpath ('$top/tests'); addpath ('$top/inst'); addpath ('$b/src'); exit (! sanity_calls ())"
  cd "$top"
fi
echo "sanitize-cpu: clean"

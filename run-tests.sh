#!/usr/bin/env bash
# gpuscan, second command: every test.  Builds the release tarball, runs `make check`
# (the operators' algebra on the host, the GPU self-test where a GPU is present, and the
# Octave suite on the build tree),
# then for a CUDA build (when nvcc is found) and a --without-cuda build: `pkg install`
# the tarball into a temporary prefix, `pkg load gpuscan`, `test gpuscan` (the CPU-only
# build with the host stand-in for device arrays, so that their tests run without a GPU)
# and the demo that setup.sh runs;
# for the --without-cuda build, the test matrix's CPU rows (tools/test-matrix.sh: the suite
# again with the host chunk driver, OMP_THREAD_LIMIT=1, and OMP_DYNAMIC=true with more
# threads than cores on a busy machine); every suite run under a time limit, so a hang fails;
# last, the CPU build under AddressSanitizer + UndefinedBehaviorSanitizer and under
# valgrind, and 60 s of fuzzing the gateway (libFuzzer).
set -euo pipefail
cd "$(dirname "$0")"
top=$(pwd)
bash tools/install-deps.sh
bash tools/build-tarball.sh build
start=$(date +%s)
make -C build -j"$(nproc)" all >build/make.log 2>&1 || { tail -n 60 build/make.log; exit 1; }
echo "gpuscan: built in $(( $(date +%s) - start )) s"
make -C build check
tarball=$(ls -t "$top"/build/gpuscan-*.tar.gz | head -n 1)
variants="--without-cuda"
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || [ -n "${CUDA_HOME:-}" ]; then
  variants="--with-cuda $variants"
fi
for flags in $variants; do
  prefix=$(mktemp -d)
  echo "== pkg install $(basename "$tarball") with $flags into $prefix"
  start=$(date +%s)
  host_arrays=0; [ "$flags" = --without-cuda ] && host_arrays=1
  pkg_setup="pkg ('prefix', '$prefix/share', '$prefix/lib');
    pkg ('local_list', '$prefix/local_list');
    pkg ('global_list', '$prefix/global_list');"
  GPUSCAN_HOST_ARRAYS=$host_arrays GPUSCAN_CONFIGURE_FLAGS=$flags timeout -s KILL 2400 \
    octave-cli --no-gui --norc --no-history --quiet --eval "
    $pkg_setup
    pkg ('install', '-local', '$tarball');
    pkg ('load', 'gpuscan');
    addpath ('$top/tests');
    ok = run_suite ();
    run ('$top/tools/demo.m');   # what setup.sh shows a new user
    exit (! ok);"
  echo "== $flags: pkg install + suite took $(( $(date +%s) - start )) s"
  if [ "$flags" = --without-cuda ]; then
    start=$(date +%s)
    GPUSCAN_HOST_ARRAYS=1 bash tools/test-matrix.sh cpu "$pkg_setup pkg ('load', 'gpuscan');"
    echo "== $flags: test matrix took $(( $(date +%s) - start )) s"
  fi
  rm -rf "$prefix"
done
bash tools/sanitize-cpu.sh
bash tools/fuzz.sh 60
echo "run-tests: all passed"

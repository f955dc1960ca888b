#!/usr/bin/env bash
# gpuscan's tests.
#   bash run-tests.sh          does it work here: build what setup.sh builds
#                              (tools/build-choice.sh), `make check`, `pkg install` of the
#                              release tarball and the suite on what was installed
#   bash run-tests.sh --full   everything (CI): both builds, --with-cuda (for sm_75, where
#                              nvcc is found) and --without-cuda, each installed and tested;
#                              the test matrix's CPU rows; the Octave version matrix (Debian's
#                              Octave 9 and 11 in chroots, tools/octave-versions.sh); the CPU
#                              build under ASan + UBSan and valgrind; 60 s of fuzzing
# Both first check the tree's rules (tools/check-tree.sh: layers, include cycles, ...).
# `make check` runs the operators' algebra on the host, the GPU self-test where a GPU is
# present, and the Octave suite on the build tree.  Every suite runs under a time limit,
# so a hang fails.
set -euo pipefail
cd "$(dirname "$0")"
top=$(pwd)
full=0
case "${1:-}" in
  --full) full=1 ;;
  "") ;;
  *) echo "usage: bash run-tests.sh [--full]" >&2; exit 2 ;;
esac
t0=$(date +%s)
elapsed () { echo "$(( $(date +%s) - t0 )) s"; }

bash tools/install-deps.sh $([ $full = 1 ] && echo --full)
bash tools/check-tree.sh
have_nvcc=0
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || [ -n "${CUDA_HOME:-}" ]; then
  have_nvcc=1
fi
have_gpu=0
nvidia-smi -L >/dev/null 2>&1 && have_gpu=1
if [ $full = 1 ]; then
  # the version matrix's chroots (made once a machine, outside the clone) come while the
  # builds compile: debootstrap and apt wait on the network, not the cores
  mkdir -p build
  for suite in trixie sid; do
    bash tools/octave-chroot.sh "$suite" >"build/chroot-$suite.log" 2>&1 &
  done
fi
choice=$(bash tools/build-choice.sh)
# the build tree: what setup.sh builds, but CPU-only where no GPU can test the CUDA engine
build_flags=$choice
[ $have_gpu = 1 ] || build_flags=--without-cuda
bash tools/build-tarball.sh build $build_flags
start=$(date +%s)
make -C build all >build/make.log 2>&1 || { tail -n 60 build/make.log; exit 1; }
echo "gpuscan: built ${build_flags:-with CUDA} in $(( $(date +%s) - start )) s"
host_arrays=$(( have_gpu ? 0 : 1 ))
GPUSCAN_HOST_ARRAYS=$host_arrays make -C build check
echo "== make check done at $(elapsed)"
tarball=$(ls -t "$top"/build/gpuscan-*.tar.gz | head -n 1)

# what setup.sh installs; with --full, both builds
variants=${choice:-default}
if [ $full = 1 ]; then
  variants=--without-cuda
  [ $have_nvcc = 1 ] && variants="--with-cuda $variants"
fi
for flags in $variants; do
  [ "$flags" = default ] && flags=
  # without a GPU, one architecture, the oldest of the portable list: the GPU machine's
  # checks compile sm_90, and the three-architecture build would take 22 of CI's minutes
  [ $full = 1 ] && [ $have_gpu = 0 ] && [ "$flags" = --with-cuda ] && flags="--with-cuda --with-cuda-arch=75"
  prefix=$(mktemp -d)
  echo "== pkg install $(basename "$tarball") with $flags into $prefix"
  start=$(date +%s)
  pkg_setup="pkg ('prefix', '$prefix/share', '$prefix/lib');
    pkg ('local_list', '$prefix/local_list');
    pkg ('global_list', '$prefix/global_list');"
  GPUSCAN_CONFIGURE_FLAGS=$flags timeout -s KILL 2400 \
    octave-cli --no-gui --norc --no-history --quiet --eval "
    $pkg_setup
    pkg ('install', '-local', '$tarball');
    pkg ('load', 'gpuscan');
    addpath ('$top/tests');
    ok = run_suite ();
    run ('$top/tools/demo.m');   # what setup.sh shows a new user
    exit (! ok);"
  echo "== $flags: pkg install + suite took $(( $(date +%s) - start )) s (at $(elapsed))"
  if [ $full = 1 ] && [ "$flags" = --without-cuda ]; then
    start=$(date +%s)
    GPUSCAN_HOST_ARRAYS=1 bash tools/test-matrix.sh cpu "$pkg_setup pkg ('load', 'gpuscan');"
    echo "== $flags: test matrix took $(( $(date +%s) - start )) s (at $(elapsed))"
  fi
  rm -rf "$prefix"
done
if [ $full = 1 ]; then
  wait   # (the chroots)
  start=$(date +%s)
  bash tools/octave-versions.sh "$tarball" trixie sid
  echo "== Octave version matrix took $(( $(date +%s) - start )) s (at $(elapsed))"
  bash tools/sanitize-cpu.sh
  echo "== sanitizers done at $(elapsed)"
  bash tools/fuzz.sh 60
fi
echo "run-tests: all passed in $(elapsed)$([ $full = 1 ] && echo ' (full)')"

#!/usr/bin/env bash
# gpuscan, first command: install what is missing (Octave, its -dev files, Autotools,
# gnuplot), build the package (tools/build-choice.sh: the CUDA engine for this machine's
# GPU where there are a GPU and nvcc, else the CPU engine only), install it into Octave
# with `pkg install`, then scan a large vector and compare with cumsum.
set -euo pipefail
cd "$(dirname "$0")"
start=$(date +%s)
bash tools/install-deps.sh
flags=$(bash tools/build-choice.sh)
bash tools/build-tarball.sh build $flags
tarball=$(ls -t build/gpuscan-*.tar.gz | head -n 1)
echo "gpuscan: pkg install $tarball"
GPUSCAN_CONFIGURE_FLAGS="$flags" octave-cli --no-gui --norc --no-history --quiet \
  --eval "pkg ('install', '$tarball')"
octave-cli --no-gui --norc --no-history --quiet --eval "pkg load gpuscan; run ('tools/demo.m')"
echo "gpuscan: installed in $(( $(date +%s) - start )) s; in Octave: pkg load gpuscan"

#!/usr/bin/env bash
# gpuscan, first command: install what is missing (Octave, its -dev files, Autotools,
# gnuplot), build the package (with the CUDA engine when nvcc is found), install it into
# Octave with `pkg install`, then scan a large vector and compare with cumsum.
set -euo pipefail
cd "$(dirname "$0")"
bash tools/install-deps.sh
bash tools/build-tarball.sh build
tarball=$(ls -t build/gpuscan-*.tar.gz | head -n 1)
echo "gpuscan: pkg install $tarball"
octave-cli --no-gui --norc --no-history --quiet --eval "pkg ('install', '$tarball')"
octave-cli --no-gui --norc --no-history --quiet --eval "pkg load gpuscan; run ('tools/demo.m')"

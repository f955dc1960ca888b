#!/usr/bin/env bash
# Build gpuscan out of tree in DIR (default build/), run nothing, and make the release
# tarball DIR/gpuscan-VERSION.tar.gz that `pkg install` accepts.  Extra arguments go to
# configure.  Prints the build time.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}; shift || true
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] && [ src/Makefile.in -nt src/Makefile.am ] \
  || autoreconf -fi >/dev/null
mkdir -p "$dir"
cd "$dir"
start=$(date +%s)
"$top/configure" --enable-maintainer-mode "$@" >configure.log || { cat configure.log; exit 1; }
grep '^configure: CUDA engine' configure.log || true
make -j"$(nproc)" >make.log 2>&1 || { tail -n 60 make.log; exit 1; }
echo "gpuscan: built in $(( $(date +%s) - start )) s"
make dist >/dev/null

#!/usr/bin/env bash
# Configure gpuscan out of tree in DIR (default build/) and make the release tarball
# DIR/gpuscan-VERSION.tar.gz that `pkg install` accepts (it compiles nothing: `pkg install`
# and `make check` do).  Extra arguments go to configure.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}; shift || true
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] && [ src/Makefile.in -nt src/Makefile.am ] \
  || autoreconf -fi 2>/dev/null
mkdir -p "$dir"
cd "$dir"
"$top/configure" --enable-maintainer-mode "$@" >configure.log || { cat configure.log; exit 1; }
grep '^configure: CUDA engine' configure.log || true
make dist >/dev/null

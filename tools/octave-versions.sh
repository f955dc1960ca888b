#!/usr/bin/env bash
# The Octave version matrix: the release tarball installed with `pkg install` (CPU engine)
# into other Debian releases' Octave, each in a chroot of its own (tools/octave-chroot.sh:
# trixie has Octave 9, sid Octave 11), then there: `test` of every function, the
# differential test and Octave's own cum* test blocks through gpuscan.
#   bash tools/octave-versions.sh TARBALL [SUITE...]   (default: trixie sid)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
suites=${*:-trixie sid}
fail=0
for suite in $suites; do
  start=$(date +%s)
  root=$(bash "$top/tools/octave-chroot.sh" "$suite")
  work=$root/mnt/gpuscan
  rm -rf "$work" && mkdir -p "$work/tests" "$work/tools" "$work/pkg"
  cp "$tarball" "$work/"
  cp "$top"/tests/*.m "$work/tests/"
  cp "$top/tools/demo.m" "$work/tools/"
  version=$(bash "$top/tools/octave-chroot.sh" "$suite" run octave-cli --version | sed -n '1s/.*version //p')
  echo "== Debian $suite, Octave $version: pkg install $(basename "$tarball") --without-cuda, suite"
  if bash "$top/tools/octave-chroot.sh" "$suite" run env GPUSCAN_CONFIGURE_FLAGS=--without-cuda \
       GPUSCAN_DIFFERENTIAL_CASES="${GPUSCAN_DIFFERENTIAL_CASES:-200}" \
       timeout -s KILL 2400 octave-cli --no-gui --norc --no-history --quiet --eval "
    pkg ('prefix', '/mnt/gpuscan/pkg/share', '/mnt/gpuscan/pkg/lib');
    pkg ('local_list', '/mnt/gpuscan/pkg/local_list');
    pkg ('global_list', '/mnt/gpuscan/pkg/global_list');
    pkg ('install', '-local', '/mnt/gpuscan/$(basename "$tarball")');
    pkg ('load', 'gpuscan');
    addpath ('/mnt/gpuscan/tests');
    ok = run_suite ();
    ok = octave_cum_tests () && ok;
    run ('/mnt/gpuscan/tools/demo.m');
    exit (! ok);"; then
    echo "== Octave $version: PASS ($(( $(date +%s) - start )) s)"
  else
    echo "== Octave $version: FAIL ($(( $(date +%s) - start )) s)"
    fail=1
  fi
done
exit $fail

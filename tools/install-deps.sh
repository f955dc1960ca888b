#!/usr/bin/env bash
# Install what building gpuscan needs on Debian/Ubuntu, only where missing: GNU Octave
# with its development files (mkoctfile), Autotools, a C compiler, gnuplot for headless
# plots; with --full, also what run-tests.sh --full runs (valgrind, clang, debootstrap).
set -euo pipefail
full=0
[ "${1:-}" = --full ] && full=1
need=()
command -v octave-cli >/dev/null || need+=(octave)
command -v mkoctfile  >/dev/null || need+=(liboctave-dev)
command -v autoreconf >/dev/null || need+=(autoconf)
command -v automake   >/dev/null || need+=(automake)
command -v make       >/dev/null || need+=(make)
command -v gcc        >/dev/null || need+=(gcc)
command -v gnuplot    >/dev/null || need+=(gnuplot-nox)
command -v makeinfo   >/dev/null || need+=(texinfo)
# `doc NAME` shows the package's Info manual through the info program
command -v info       >/dev/null || need+=(info)
# the font Octave's text renderer loads; without it no figure can be drawn or printed
[ -f /usr/share/fonts/opentype/freefont/FreeSans.otf ] || need+=(fonts-freefont-otf)
# Octave prints figures to PNG without a display through gnuplot and Ghostscript
command -v gs         >/dev/null || need+=(ghostscript)
if [ $full = 1 ]; then
  # the CPU build under valgrind, the gateway fuzzed with libFuzzer (clang's), the
  # Octave version matrix's chroots
  command -v valgrind    >/dev/null || need+=(valgrind)
  command -v clang++     >/dev/null || need+=(clang)
  command -v debootstrap >/dev/null || need+=(debootstrap)
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  if ! command -v apt-get >/dev/null || { [ -n "$sudo" ] && ! command -v sudo >/dev/null; }; then
    echo "gpuscan: missing ${need[*]} (Debian's names; octave and liboctave-dev: GNU Octave and its development files, with mkoctfile), and no apt-get${sudo:+ or sudo} here to install them: install them with this system's package manager, then run this again" >&2
    exit 1
  fi
  echo "gpuscan: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

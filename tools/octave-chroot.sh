#!/usr/bin/env bash
# Another Debian release's Octave, for the version matrix: a minimal chroot of SUITE
# (trixie: Octave 9, sid: Octave 11) with octave, its -dev files and a C/C++ toolchain,
# made once with debootstrap and reused (GPUSCAN_CHROOTS, default
# /var/tmp/gpuscan-chroots, outside the clone).
#   bash tools/octave-chroot.sh SUITE                 make it (where missing), print its path
#   bash tools/octave-chroot.sh SUITE run COMMAND...  run COMMAND inside it, as root
# Needs root and Debian's archive (deb.debian.org or GPUSCAN_DEBIAN_MIRROR).
set -euo pipefail
suite=${1:?usage: octave-chroot.sh SUITE [run COMMAND...]}
shift
root=${GPUSCAN_CHROOTS:-/var/tmp/gpuscan-chroots}/$suite
mirror=${GPUSCAN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" = 0 ] || { echo "octave-chroot.sh: needs root (debootstrap, chroot)" >&2; exit 1; }

mounted () { mountpoint -q "$root/$1"; }
enter () {
  for m in proc dev; do
    mounted $m || mount --bind /$m "$root/$m"
  done
  # (the chroot's /tmp is its own; the caller's files come in through /mnt/gpuscan)
  mkdir -p "$root/mnt/gpuscan"
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    ${OMP_NUM_THREADS:+OMP_NUM_THREADS=$OMP_NUM_THREADS} "$@"
}

if [ ! -e "$root/.gpuscan-ready" ]; then
  command -v debootstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  echo "octave-chroot: making $root (Debian $suite, a few minutes)" >&2
  rm -rf "$root"
  mkdir -p "$root"
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.log" 2>&1 \
    || { tail -n 20 "$root.log" >&2; exit 1; }
  echo "deb $mirror $suite main" > "$root/etc/apt/sources.list"
  enter apt-get -o Acquire::Check-Valid-Until=false update -qq >>"$root.log" 2>&1
  enter env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    octave octave-dev make gcc g++ texinfo xz-utils >>"$root.log" 2>&1 \
    || { tail -n 20 "$root.log" >&2; exit 1; }
  enter apt-get clean
  touch "$root/.gpuscan-ready"
fi
if [ "${1:-}" = run ]; then
  shift
  enter "$@"
else
  echo "$root"
fi

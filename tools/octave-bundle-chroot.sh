#!/usr/bin/env bash
# A newer Debian release's Octave (a chroot of tools/octave-chroot.sh: sid, Octave 11)
# packed for the GPU machine, whose C library is older than that Octave needs.
#   bash tools/octave-bundle-chroot.sh SUITE [OUT]     (default: .device/octave-SUITE.tar.xz)
# ../shared/tools/octave-bundle packs the chroot's Octave; this adds the chroot's own
# C library, loader and C++ runtime (sys/) and points every carried program and library
# at them (ELF interpreter and RPATH).  LD_LIBRARY_PATH stays unset, so the programs that
# Octave starts (the host's g++, nvcc, make) keep the host's C library.  The paths are
# absolute: unpack it as /tmp/octave, as tools/device-check.sh does.
set -euo pipefail
suite=${1:?usage: octave-bundle-chroot.sh SUITE [OUT]}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${2:-$top/.device/octave-$suite.tar.xz}")
home=/tmp/octave
root=$(bash "$top/tools/octave-chroot.sh" "$suite")
command -v patchelf >/dev/null || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq patchelf >/dev/null; }
cp "$top/../shared/tools/octave-bundle" "$root/mnt/gpuscan/octave-bundle"
bash "$top/tools/octave-chroot.sh" "$suite" run bash /mnt/gpuscan/octave-bundle /mnt/gpuscan/octave.tar.xz
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
tar -C "$stage" -xJf "$root/mnt/gpuscan/octave.tar.xz"
r=$stage/octave
libdir=$(ls -d "$r"/lib/x86_64-linux-gnu/octave/[0-9]*)
mkdir -p "$r/sys"
for lib in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libmvec.so.1 libstdc++.so.6 libgcc_s.so.1; do
  cp -L "$root/usr/lib/x86_64-linux-gnu/$lib" "$r/sys/"
done
# (octave-bundle's activate would hand libraries the host also has to the host's copies:
# with the chroot's C library every carried one is kept)
rpath=$home/sys:$home/deps:$home/lib/x86_64-linux-gnu:$home/${libdir#"$r"/}
find "$r" -path "$r/sys" -prune -o -type f -print | while read -r f; do
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
  # RPATH, not RUNPATH: it also holds for the libraries' own dependencies
  patchelf --force-rpath --set-rpath "$rpath" "$f"
  case $f in "$r"/bin/*) patchelf --set-interpreter "$home/sys/ld-linux-x86-64.so.2" "$f" ;; esac
done
ver=$(basename "$libdir")
# mkoctfile's flags without link-time optimisation, which Debian builds with: the other
# machine's compiler may lack it (no lto-wrapper); mkoctfile takes them from the environment
flags () {
  bash "$top/tools/octave-chroot.sh" "$suite" run mkoctfile -p "$1" \
    | sed -E 's/ ?-flto(=[a-z0-9]*)?//g; s/ ?-ffat-lto-objects//g; s/ ?-ffile-prefix-map=[^ ]*//g'
}
cat > "$r/activate" <<ACT
# source me: puts the bundled GNU Octave $ver (with its own C library) on PATH
[ "\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)" = $home ] || echo "activate: unpack this Octave as $home" >&2
export OCTAVE_HOME=$home
export PATH=$home/bin:\$PATH
export CFLAGS="$(flags CFLAGS)" CXXFLAGS="$(flags CXXFLAGS)" OCT_LINK_OPTS="$(flags OCT_LINK_OPTS)"
ACT
mkdir -p "$(dirname "$out")"
tar -C "$stage" -cJf "$out" octave
echo "octave-bundle-chroot: wrote $out ($(du -h "$out" | cut -f1)), GNU Octave $ver from Debian $suite"

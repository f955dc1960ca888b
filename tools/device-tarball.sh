#!/usr/bin/env bash
# The release tarball for tools/device-check.sh, .device/gpuscan-VERSION.tar.gz, with the
# kernels' objects for one GPU architecture (default 90) compiled here into its src/.
# On the lent H200 nvcc's many processes made the build 384-407 s of a call's 600; with
# the objects in the tarball, `make` there (device-check's build and `pkg install`) finds
# them newer than their sources and compiles only the host code.  Here, on 2 cores, about
# 6.5 minutes, at no device time; the objects of the tarball already there are kept where
# kernels/, the headers of src/base/ that they include and the architecture are unchanged.
# (A user's tarball is tools/build-tarball.sh's: no objects.)
#   tools/device-tarball.sh [ARCH]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-90}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$top/tools/build-tarball.sh" "$work/dist" --without-cuda > /dev/null
tarball=$(ls "$work"/dist/gpuscan-*.tar.gz)
name=$(basename "$tarball" .tar.gz)
tar -C "$work" -xzf "$tarball"
old=$top/.device/$name.tar.gz
# (the src/base headers that kernels/ includes)
same_base_headers () {
  for h in scan_desc.h double_double.h elementwise.h filter_desc.h block_scan_steps.h scan_trace.h; do
    cmp -s "$work/old/$name/src/base/$h" "$work/$name/src/base/$h" || return 1
  done
}
mkdir "$work/objects" "$work/old"
if [ -f "$old" ] && tar -C "$work/old" -xzf "$old" \
   && [ "$(cat "$work/old/$name/src/kernel-objects.arch" 2>/dev/null)" = "$arch" ] \
   && diff -rq "$work/old/$name/kernels" "$work/$name/kernels" > /dev/null \
   && same_base_headers; then
  kept="kept from the earlier tarball"
  cp -p "$work"/old/$name/src/*.o "$work/objects/"
else
  kept="compiled"
  ( cd "$work/objects" && "$work/$name/configure" --with-cuda-arch="$arch" > configure.log \
      && make -j"$(nproc)" -C src kernel-objects > make.log 2>&1 ) \
    || { tail -n 30 "$work/objects/src/make.log" "$work/objects/configure.log" 2>/dev/null; exit 1; }
  mv "$work"/objects/src/*.o "$work/objects/"
fi
cp "$work"/objects/*.o "$work/$name/src/"
touch "$work"/$name/src/*.o
echo "$arch" > "$work/$name/src/kernel-objects.arch"
mkdir -p "$top/.device"
rm -f "$top"/.device/gpuscan-*.tar.gz
tar -C "$work" -czf "$top/.device/$name.tar.gz" "$name"
echo "$top/.device/$name.tar.gz: $(ls "$work"/objects/*.o | wc -l) kernel objects for sm_$arch ($kept)"

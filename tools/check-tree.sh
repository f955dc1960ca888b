#!/usr/bin/env bash
# The tree's rules, checked (run-tests.sh runs this first):
#   no include cycle among the modules of src/ and kernels/ (a module: a file's name
#     without its extension, so that a header and its source are one);
#   each layer of src/ includes only itself and the layers below it, and so does each of
#     kernels/'s levels (CUB's: dispatch > agent > tuning > block > ops; the C interface
#     and the kernels' units at the top of kernels/, the auxiliary kernels beside them);
#   at most 3 sources loose at the top of src/;
#   no product file (src/, kernels/, inst/) includes bench/;
#   one file reads the environment: src/engine/settings.c (and the fault injection of
#     test builds, src/cuda/fault_injection.h, compiled into no release);
#   bench/results holds at most 25 files, README.md at most 200 lines.
# Prints each broken rule and exits 1 where one is broken.
set -uo pipefail
cd "$(dirname "$0")/.."
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "check-tree: not a git checkout: skipped"; exit 0; }
fail=0
broken () { echo "check-tree: $*"; fail=1; }

sources=$(git ls-files src kernels | grep -E '\.(c|cc|h|cu|cuh)$')
# "module dependency" pairs: what includes what, by module name (the first folder below
# src/ names the layer)
module () { local f=${1#src/}; f=${f%.*}; echo "$f"; }
edges=$(for f in $sources; do
  dir=$(dirname "$f")
  grep -oE '^#include "[^"]+"' "$f" | sed 's/#include "//; s/"$//' | while read -r inc; do
    for c in "$dir/$inc" "src/$inc" "kernels/$inc"; do
      if [ -f "$c" ]; then
        c=$(realpath --relative-to=. "$c")
        [ "$(module "$f")" != "$(module "$c")" ] && echo "$(module "$f") $(module "$c")"
        break
      fi
    done
  done
done | sort -u)
if ! echo "$edges" | tsort > /dev/null 2> /tmp/check-tree-tsort.$$; then
  broken "include cycle: $(grep -v 'input contains a loop' /tmp/check-tree-tsort.$$ | sed 's/^tsort: //' | tr '\n' ' ')"
fi
rm -f /tmp/check-tree-tsort.$$
# layers, top to bottom: a module may include its own layer and those after it (the
# kernels' levels are named k-FOLDER, k-top for the files at the top of kernels/)
layers="octave mex engine cpu cuda k-top k-auxiliary k-dispatch k-agent k-tuning k-block k-ops base"
rank () { local i=0 l; for l in $layers; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
layer () {
  case $1 in
    kernels/*/*) local r=${1#kernels/}; echo "k-${r%%/*}" ;;
    kernels/*) echo k-top ;;
    *) echo "${1%%/*}" ;;
  esac
}
while read -r from to; do
  [ -z "$from" ] && continue
  lf=$(layer "$from"); lt=$(layer "$to")
  rf=$(rank "$lf"); rt=$(rank "$lt")
  [ "$rf" -ge 0 ] && [ "$rt" -ge 0 ] || continue
  # (the auxiliary kernels implement the C interface, as the units at the top do)
  [ "$lf" = k-auxiliary ] && [ "$to" = kernels/scan_kernels ] && continue
  # (the CPU and CUDA engines are side by side: neither includes the other, and only the
  # CUDA engine calls the kernels)
  if [ "$rt" -lt "$rf" ] || { [ "$lf" != "$lt" ] && [ "$rt" = "$rf" ]; } \
     || { [ "$lf" = cpu ] && [ "$lt" = cuda ]; } || { [ "$lf" = cuda ] && [ "$lt" = cpu ]; } \
     || { [ "$lf" = cpu ] && [ "${lt#k-}" != "$lt" ]; }; then
    broken "$from includes $to, a layer above or beside it"
  fi
done <<< "$edges"
loose=$(git ls-files src | grep -E '^src/[^/]+\.(c|cc|cu)$' | wc -l)
[ "$loose" -le 3 ] || broken "$loose sources loose at the top of src/ (at most 3)"
if git grep -nE '#include[^"]*"[^"]*bench/' -- src kernels > /dev/null \
   || git grep -nE "(addpath|source|run) *\(.*bench" -- inst > /dev/null; then
  broken "a product file includes bench/: $(git grep -lE '#include[^"]*"[^"]*bench/' -- src kernels | tr '\n' ' ')"
fi
readers=$(git grep -lE '\bgetenv *\(' -- src kernels | grep -vxE 'src/engine/settings.c|src/cuda/fault_injection.h')
[ -z "$readers" ] || broken "the environment is read outside src/engine/settings.c: $(echo $readers)"
results=$(git ls-files bench/results | wc -l)
[ "$results" -le 25 ] || broken "bench/results holds $results files (at most 25)"
readme=$(wc -l < README.md)
[ "$readme" -le 200 ] || broken "README.md has $readme lines (at most 200)"
[ $fail = 0 ] && echo "check-tree: the tree keeps its rules ($(echo "$edges" | wc -l) includes between modules)"
exit $fail

#!/usr/bin/env bash
# Build the gateway's libFuzzer harness (tests/fuzz/fuzz_gateway.cc) with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, replay the regression inputs, then fuzz
# for a bounded time from the seed corpus.  Fails on any crash or sanitizer report.
#   tools/fuzz.sh [seconds]    (default 60)
set -euo pipefail
secs=${1:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
b=${FUZZ_BUILD:-/tmp/gpuscan-fuzz}
rm -rf "$b" && mkdir -p "$b/corpus"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -g -O1"
start=$(date +%s)
# the gateway includes headers that configure and make write (build_info.h, *_help.h)
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi >/dev/null)
mkdir -p "$b/build" && (cd "$b/build" && "$top/configure" --without-cuda >/dev/null \
  && make -C src gateway-headers >/dev/null)
inc="$(mkoctfile -p INCFLAGS) -I$top/src -I$b/build/src"
pids=
# the same sources as gpuscan.oct without CUDA: the lists in src/Makefile.am
am_list () { awk -v v="$1" '$1 == v && $2 == "=" { on = 1; $1 = $2 = "" }
  on { c = sub(/\\$/, ""); print; if (!c) exit }' "$top/src/Makefile.am"; }
for f in $(am_list base_sources) $(am_list cpu_sources) $(am_list engine_sources); do
  clang -std=gnu11 $san -fsanitize=fuzzer-no-link -Wno-unknown-pragmas -I"$top/src" \
    -c "$top/src/$f" -o "$b/$(basename "${f%.c}").o" & pids="$pids $!"
done
# (C++ objects named apart from C ones: octave/scan_request.cc beside engine/scan_request.c)
for f in $(am_list host_cxx_sources) $(for n in $(am_list gateway_names); do echo "octave/$n.cc"; done); do
  clang++ -std=gnu++17 $san -fsanitize=fuzzer-no-link $inc -I"$top/kernels" \
    -c "$top/src/$f" -o "$b/$(basename "${f%.cc}")_cc.o" & pids="$pids $!"
done
clang++ -std=gnu++17 $san -fsanitize=fuzzer $inc -c "$top/tests/fuzz/fuzz_gateway.cc" -o "$b/fuzz_gateway.o" & pids="$pids $!"
for p in $pids; do wait "$p"; done   # (a failed compile fails here)
clang++ $san -fsanitize=fuzzer "$b"/*.o -o "$b/fuzz_gateway" \
  -L"$(mkoctfile -p OCTLIBDIR)" -Wl,-rpath,"$(mkoctfile -p OCTLIBDIR)" $(mkoctfile -p OCTAVE_LIBS) -lm
echo "fuzz: harness built in $(( $(date +%s) - start )) s"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
# earlier crashes stay fixed
if ls "$top"/tests/fuzz/regressions/* > /dev/null 2>&1; then
  "$b/fuzz_gateway" "$top"/tests/fuzz/regressions/*
fi
cp "$top"/tests/fuzz/seeds/* "$b/corpus/"
# the whole log stays in $b/fuzz.log; a failure prints the sanitizer's report first
if ! "$b/fuzz_gateway" -max_total_time="$secs" -max_len=512 -timeout=20 -rss_limit_mb=4096 \
     -artifact_prefix="$b/" -print_final_stats=1 "$b/corpus" > "$b/fuzz.log" 2>&1; then
  grep -m 5 -A 12 "runtime error\|ERROR: \|==ERROR\|deadly signal" "$b/fuzz.log" || true
  tail -n 15 "$b/fuzz.log"
  exit 1
fi
tail -n 8 "$b/fuzz.log"
echo "fuzz: ${secs} s without a crash; corpus $(ls "$b/corpus" | wc -l) inputs"

#!/usr/bin/env bash
# Run on a GPU machine (the team's lent device): build the release tarball as a user
# would, run the kernel self-test, the benchmark, the Octave suite after `pkg install`,
# and compute-sanitizer.  Needs .device/octave.tar.xz (from ../shared/tools/octave-bundle)
# and .device/gpuscan-*.tar.gz (tools/device-tarball.sh: with the kernel objects built
# beforehand; or make dist).  Logs go to $OUT (or /tmp/out).
#   tools/device-check.sh [build] [selftest] [large] [bench] [transfers] [compact] [octave] [obench] [dbench]
#                         [pipeline] [chunk] [fault] [osanitize] [cpu2] [plot] [sanitize] [ncu] [variants]
#                         [matrix] [cumtests] [load] [cpuload] [tables] [repeat] [peers] [fbench]
# selftest: gpu_selftest, with GSK_SELFTEST_ARGS (e.g. --quick: the four benchmark types);
# fbench: bench/filter_bench.m (gpuscan_filter against filter: the CPU engine, and with
# the GPU 2^26 samples through its kernels);
# peers: bench/peers.py (PyTorch, CuPy and torchaudio beside gpu_bench's rows, each
# against its own copy);
# repeat: bench/repeat_bits.m (repeated GPU scans compared bit for bit, with and without
# "reproducible");
# tables: gpu_selftest with the GPU's own table, under each other tuning table
# (GPUSCAN_TUNING) and with the device's limits clamped to each smaller GPU's
# (GPUSCAN_DEVICE_LIMITS), side by side;
# cpuload: bench/cpu_load_bench.sh ("auto", and the CPU engine and the GPU forced);
# load: the size of gpuscan.oct and, in a fresh Octave three times, the first GPU calls
# (the driver loads, and unpacks, the kernels then); with .device/baseline.tar.gz, the
# same for that tree's build, made beside the main one (an A/B of two trees);
# cumtests: Octave's own cum* blocks (tests/octave_cum_tests.m) and large integer sums
# against this Octave's cumsum, the GPU engine and each GPU algorithm forced;
# matrix: the test matrix's GPU rows (tools/test-matrix.sh gpu: the suite with the GPU
# engine forced, the CPU engine forced, and each GPU algorithm forced for every call, each
# with GSK_MATRIX_CASES differential cases, 1000 unless set), logs in matrix-logs.tar.gz;
# transfers: host <-> device paths (gpu_bench --transfers);  compact: compaction kernel by
# kernel (gpu_bench --compact);  pipeline: the chunk pipeline
# against whole-array transfers (bench/pipeline_bench.m);  chunk: a 2^32 + 5 element
# array through the chunked path;  fault: a --enable-fault-injection build's suite;
# osanitize: device-array, compaction and trace tests under compute-sanitizer memcheck and
# synccheck, the trace tests under racecheck;
# dbench: the device-array benchmark (bench/device_bench.m);  cpu2: the end-to-end benchmark on two cores (taskset) with the CPU engine forced, as on a
# 2-core machine;  plot: gpuscan_bench over 2^10..2^28 with its PNG plot;  ncu: Nsight
# Compute sections of the tile kernels (gpu_bench --profile 24; GSK_NCU_CASES=indexed:
# [m, i] = cummax instead, =recurrence: recurrences);  variants: an A/B of
# the kernels' shapes and tables in one run (an experiment build: GSK_SHAPES_FROM and GSK_TABLES_FROM name bench/'s headers,
# bench/experiment_*.cuh): GSK_VARIANTS="name:-DGSK_NAME=v,-DGSK_NAME2=w ..." builds
# gpu_bench again from the tarball for each variant (the variants side by side),
# runs it after the main build's, and tabulates the decoupled rows' ratio to a copy and
# each run's copies of singles (2^10, 2^16, 2^24: unequal copies mark an uneven machine);
# a variant builds from .device/variant-<name>.tar.gz where that exists (an A/B of two
# trees, e.g. "base:" with main's tarball there);
# with GSK_VARIANTS_SELFTEST=1 each variant's gpu_selftest --quick runs before its bench.
# Times to plan a call's limit by (H200, 2026-11-29): build 62 s from the tarball of
# tools/device-tarball.sh, whose kernel objects are built beforehand (384-407 s from a
# plain tarball: nvcc's processes are slow there; pkg install beside it 56 s); selftest
# (the full gpu_selftest) over 400 s, --quick 35-48 s; sanitize ~330 s (racecheck --tiny
# 205 s of it); octave ~100 s after `pkg install`; bench ~20 s; peers ~30 s; fbench ~35
# s; ncu (GSK_NCU_CASES=filter) ~120 s; matrix ~390 s for the six rows side by side
# (MATRIX_JOBS=6) at 120 cases; variants ~30 s each with GSK_VARIANTS_SELFTEST.  A
# machine goes back 30 s after a call ends: a call chained at once finds the build (and
# the install) of the one before; a later one starts bare.
# The builds run side by side; everything that uses the GPU runs one after another, and the
# benchmarks after every build.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t0=$(date +%s)
# seconds from the start at the end of each step, in $OUT/timing.txt (what a call killed at
# its time limit got done, and how to split the next one)
step_done () { echo "$1: done $(( $(date +%s) - t0 )) s from the start" >> "$OUT/timing.txt"; }
steps=" ${*:-build selftest bench octave} "
# GSK_OCTAVE: the Octave bundle (default .device/octave.tar.xz; tools/octave-bundle-chroot.sh
# makes .device/octave-sid.tar.xz, Octave 11).  One already unpacked from the same bundle is
# reused: two instances of this script may run side by side
bundle=$top/${GSK_OCTAVE:-.device/octave.tar.xz}
if [ "$(cat /tmp/octave/.bundle 2>/dev/null)" != "$bundle" ]; then
  rm -rf /tmp/octave && tar -C /tmp -xJf "$bundle" && echo "$bundle" > /tmp/octave/.bundle
fi
source /tmp/octave/activate
tarball=$(ls "$top"/.device/gpuscan-*.tar.gz | head -n 1)
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
b=/tmp/gs-build
# (GSK_PKG_PREFIX: another install for a second instance beside this one, e.g. osanitize beside the matrix)
pkg_prefix=${GSK_PKG_PREFIX:-/tmp/opkg}; mkdir -p $pkg_prefix
pkg_setup="pkg ('prefix', '$pkg_prefix/share', '$pkg_prefix/lib'); pkg ('local_list', '$pkg_prefix/ll'); pkg ('global_list', '$pkg_prefix/gl');"
# Octave as the scripts run it (no history: where it cannot be saved, every exit printed an error)
octave="octave-cli --no-gui --norc --no-history --quiet"
rc=0
if [[ $steps =~ " "(octave|obench|fbench|dbench|pipeline|chunk|osanitize|cpu2|plot|matrix|cumtests|cpuload|repeat)" " ]]; then
  # (the same tarball already installed there by this Octave, in an earlier call on this
  # machine, is kept)
  installed="$(md5sum < "$tarball") $bundle"
  if [ "$(cat $pkg_prefix/.installed 2>/dev/null)" = "$installed" ]; then
    echo "pkg install: kept from an earlier call" > "$OUT/pkg-install.txt"
  else
    rm -f $pkg_prefix/.installed
    ( start=$(date +%s); $octave --eval "$pkg_setup pkg ('install', '-local', '$tarball');" \
        > "$OUT/pkg-install.txt" 2>&1; i_rc=$?
      echo "pkg install: rc=$i_rc $(( $(date +%s) - start )) s" >> "$OUT/pkg-install.txt"
      [ $i_rc = 0 ] && echo "$installed" > $pkg_prefix/.installed ) &
    install_pid=$!
  fi
fi
# the variants' builds start first, beside the main build
declare -A variant_pid
# (an experiment build names the headers that pass its shapes and tables in: bench/)
experiment_flags="-DGSK_SHAPES_FROM='<experiment_shapes.cuh>' -DGSK_TABLES_FROM='<experiment_tables.cuh>' -I$top/bench"
if [[ $steps == *" variants "* ]]; then
  for spec in ${GSK_VARIANTS:-}; do
    name=${spec%%:*}; flags=${spec#*:}; vb=/tmp/gs-variant-$name
    vtar=$tarball; [ -f "$top/.device/variant-$name.tar.gz" ] && vtar=$top/.device/variant-$name.tar.gz
    ( rm -rf $vb && mkdir -p $vb && tar -C $vb -xzf "$vtar" --strip-components=1 && cd $vb \
        && ./configure NVCCFLAGS="$experiment_flags ${flags//,/ }" > configure.log 2>&1 \
        && make -j"$(nproc)" -C src gpu_bench ${GSK_VARIANTS_SELFTEST:+gpu_selftest} > make.log 2>&1 ) &
    variant_pid[$name]=$!
  done
fi
# before the benchmarks, once: waits for the variants' builds (a benchmark beside a build
# timed small scans up to 2 us slower, commit 08ddd9d), and until the file
# $GSK_BENCH_AFTER exists where that is set (another run of this script beside this one,
# e.g. the matrix, touches it when it ends: the benchmarks then have the GPU alone)
variants_built=""; benchmarks_waited=""
wait_before_benchmarks () {
  [ -n "$benchmarks_waited" ] && return; benchmarks_waited=1
  while [ -n "${GSK_BENCH_AFTER:-}" ] && [ ! -e "$GSK_BENCH_AFTER" ]; do sleep 2; done
  for spec in ${GSK_VARIANTS:-}; do
    name=${spec%%:*}; vb=/tmp/gs-variant-$name
    if wait ${variant_pid[$name]}; then variants_built+=" $name"; else
      echo "variant $name (${spec#*:}): build failed"; tail -n 20 $vb/make.log $vb/configure.log; fi
  done
  [ -z "${GSK_VARIANTS:-}" ] || echo "variants built:$variants_built ($(( $(date +%s) - t0 )) s from the start)"
}
if [[ $steps == *" build "* ]]; then
  rm -rf $b && mkdir -p $b && tar -C $b -xzf "$tarball" --strip-components=1
  ( cd $b && start=$(date +%s) && ./configure > configure.log 2>&1 && make -j"$(nproc)" > make.log 2>&1 \
    && make -C src gpu_selftest gpu_bench >> make.log 2>&1 \
    && echo "build: $(( $(date +%s) - start )) s" ) || { tail -n 40 $b/make.log $b/configure.log; exit 1; }
  grep "CUDA engine" $b/configure.log
  step_done build
fi
# the steps that run the build's programs: a machine that went back lost its build, so
# they need `build` in the same call (else each would fail on its own, and some quietly)
if [[ $steps =~ " "(selftest|large|bench|ncu|compact|transfers|sanitize)" " ]] \
   && ! [[ -x $b/src/gpu_selftest && -x $b/src/gpu_bench ]]; then
  echo "no build in $b: run build in the same call"; rc=1
fi
lb=
if [[ $steps == *" load "* ]] && [ -f "$top/.device/baseline.tar.gz" ]; then
  lb=/tmp/gs-baseline
  ( rm -rf $lb && mkdir -p $lb && tar -C $lb -xzf "$top/.device/baseline.tar.gz" --strip-components=1 \
      && cd $lb && ./configure > configure.log 2>&1 && make -j"$(nproc)" > make.log 2>&1 ) &
  baseline_pid=$!
fi
if [[ $steps == *" fbench "* ]]; then
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      addpath ('$top/bench'); filter_bench ();" > "$OUT/filter-bench.txt" 2>&1
  cat "$OUT/filter-bench.txt"
  step_done fbench
fi
if [[ $steps == *" fault "* ]]; then
  fb=/tmp/gs-fault
  rm -rf $fb && mkdir -p $fb && tar -C $fb -xzf "$tarball" --strip-components=1
  ( cd $fb && ./configure --enable-fault-injection > configure.log 2>&1 && make -j"$(nproc)" > make.log 2>&1 ) \
    || { tail -n 40 $fb/make.log; exit 1; }
  step_done "fault build"
fi
if [[ $steps == *" selftest "* ]]; then
  $b/src/gpu_selftest ${GSK_SELFTEST_ARGS:-} 2>&1 | tee "$OUT/selftest.txt" | tail -25; rc=$((rc | PIPESTATUS[0]))
  step_done selftest
fi
if [[ $steps == *" tables "* ]]; then
  runs=("native")   # (the GPU's own table and limits)
  for t in sm_80 sm_86 sm_75 default; do runs+=("tuning-$t GPUSCAN_TUNING=$t"); done
  for l in a100 rtx4090 t4; do runs+=("limits-$l GPUSCAN_DEVICE_LIMITS=$l"); done
  pids=()
  for r in "${runs[@]}"; do
    set -- $r
    ( env "${@:2}" $b/src/gpu_selftest > "$OUT/selftest-$1.txt" 2>&1; echo "rc=$?" >> "$OUT/selftest-$1.txt" ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  for r in "${runs[@]}"; do
    set -- $r
    echo "selftest $1: $(sed -n 2p "$OUT/selftest-$1.txt") / $(tail -n 2 "$OUT/selftest-$1.txt" | tr '\n' ' ')"
    grep -q '^rc=0$' "$OUT/selftest-$1.txt" || rc=1
  done
  step_done tables
fi
if [[ $steps == *" large "* ]]; then
  $b/src/gpu_selftest --quick --large 2>&1 | tee "$OUT/selftest-large.txt" | tail -5
  step_done large
fi
if [[ $steps == *" bench "* ]]; then
  wait_before_benchmarks
  $b/src/gpu_bench 28 > "$OUT/bench.txt" 2>&1
  grep -E "vector +(single|double) +(16777216|268435456)|4096x4096|segmented|^filter" "$OUT/bench.txt"
  step_done bench
fi
if [[ $steps == *" peers "* ]]; then
  wait_before_benchmarks
  timeout -s KILL 240 python3 "$top/bench/peers.py" 26 > "$OUT/peers.txt" 2>&1
  cat "$OUT/peers.txt"
  step_done peers
fi
if [[ $steps == *" variants "* ]]; then
  wait_before_benchmarks
  # (the benchmarks one after another, none beside a build)
  # (without the build step, no main column: name a variant with no flags, "base:")
  names=""; files=""
  if [ -x $b/src/gpu_bench ] && [[ $steps == *" build "* ]]; then
    [ -s "$OUT/bench.txt" ] || $b/src/gpu_bench 28 > "$OUT/bench.txt" 2>&1
    names="main"; files="$OUT/bench.txt"
  fi
  for name in $variants_built; do
    if [ -n "${GSK_VARIANTS_SELFTEST:-}" ]; then
      /tmp/gs-variant-$name/src/gpu_selftest --quick > "$OUT/selftest-$name.txt" 2>&1
      echo "variant $name: gpu_selftest --quick rc=$? ($(tail -n 1 "$OUT/selftest-$name.txt"))"
    fi
    /tmp/gs-variant-$name/src/gpu_bench 28 > "$OUT/bench-$name.txt" 2>&1
    names+=" $name"; files+=" $OUT/bench-$name.txt"
  done
  echo "variants: ${GSK_VARIANTS:-(none)}" > "$OUT/variants.txt"
  # gpu_bench's rows: shape, type and n in the first 41 columns, the algorithm in the next 14
  awk -v names="$names" '
    # a value of this row key in column f; ord lists the keys in first-seen order (ord[0]: how many)
    function keep (key, ord, val, x) {
      if (! ((key, 0) in val)) { val[key, 0] = 1; ord[++ord[0]] = key }
      val[key, f] = x
    }
    function rows (ord, val,   r, i) {
      for (r = 1; r <= ord[0]; r++) {
        printf "%-41s", ord[r]
        for (i = 1; i <= k; i++) printf " %8s", ((ord[r], i) in val) ? val[ord[r], i] : "-"
        printf "\n"
      }
    }
    FNR == 1 { f++ }
    substr ($0, 43, 12) ~ /^decoupled / { split (substr ($0, 56), v); keep(substr ($0, 1, 41), order, ratio, v[3]) }
    # the copies of singles at three sizes: where they differ between the columns, the
    # machine ran unevenly (launch latency, clocks) and small sizes say little
    substr ($0, 43, 12) ~ /^copy / && $1 == "vector" && $2 == "single" && $3 ~ /^(1024|65536|16777216)$/ {
      split (substr ($0, 56), v); keep(substr ($0, 1, 41), corder, copy_us, v[1])
    }
    END {
      k = split (names, col); printf "%-41s", "decoupled, x copy"
      for (i = 1; i <= k; i++) printf " %8s", col[i]; printf "\n"
      rows(order, ratio)
      printf "%-41s\n", "copy, us (the same in every column on an even machine)"
      rows(corder, copy_us)
    }' $files >> "$OUT/variants.txt"
  grep -E "variants|x copy|copy, us|vector +(single|double|int32|int64) +(1024|65536|16777216|268435456)|4096x4096|segmented" "$OUT/variants.txt"
  step_done variants
fi
if [[ $steps == *" ncu "* ]]; then
  # the tile kernels of gpu_bench --profile 24 (vector, native int32, segmented, dim 2,
  # single vector, single dim 1, single segmented; GSK_NCU_CASES=indexed: [m, i] = cummax
  # of singles and doubles, with the memory workload's tables too: the values' tiles and
  # the positions' extremum_index_kernel; GSK_NCU_CASES=saturating: native int64 and int32
  # sums of data that saturates, decoupled then brent-kung, the hierarchy's tile_reduce_kernel too;
  # GSK_NCU_CASES=recurrence: double and single recurrences, a per element then one a;
  # GSK_NCU_CASES=filter: gpuscan_filter's kernels, one channel and 2^16 channels)
  ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
      --section InstructionStats --section SchedulerStats \
      ${GSK_NCU_CASES:+--section MemoryWorkloadAnalysis_Tables} \
      -k regex:'tile_scan_kernel|tile_reduce_kernel|lanes_tile_kernel|striped_scan_kernel|line_blocks_kernel|extremum_index_kernel|filter_' \
      $b/src/gpu_bench --profile 24 ${GSK_NCU_CASES:-} > "$OUT/ncu.txt" 2>&1
  echo "ncu: rc=$?"
  step_done ncu
fi
if [[ $steps == *" compact "* ]]; then
  $b/src/gpu_bench --compact 2>&1 | tee "$OUT/compact.txt"
  step_done compact
fi
if [[ $steps == *" transfers "* ]]; then
  $b/src/gpu_bench --transfers 2>&1 | tee "$OUT/transfers.txt"
  step_done transfers
fi
if [[ $steps == *" sanitize "* ]]; then
  for tool in memcheck synccheck; do
    compute-sanitizer --tool $tool --error-exitcode 3 $b/src/gpu_selftest --quick > "$OUT/sanitize-$tool.txt" 2>&1
    t_rc=$?; [[ $t_rc == 0 ]] || rc=1
    echo "compute-sanitizer $tool: rc=$t_rc $(tail -n 2 "$OUT/sanitize-$tool.txt" | tr '\n' ' ')"
  done
  timeout 400 compute-sanitizer --tool racecheck --error-exitcode 3 $b/src/gpu_selftest --tiny \
    > "$OUT/sanitize-racecheck.txt" 2>&1
  t_rc=$?; [[ $t_rc == 0 ]] || rc=1
  echo "compute-sanitizer racecheck (--tiny): rc=$t_rc $(tail -n 2 "$OUT/sanitize-racecheck.txt" | tr '\n' ' ')"
  step_done sanitize
fi
if [[ -n "${install_pid:-}" ]]; then wait $install_pid; tail -n 1 "$OUT/pkg-install.txt"; step_done "pkg install"; fi
if [[ $steps == *" octave "* ]]; then
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan'); gpuscan_info ();
      addpath ('$top/tests'); exit (! run_suite ());" > "$OUT/octave-suite.txt" 2>&1
  echo "octave suite rc=$?" >> "$OUT/octave-suite.txt"; tail -n 12 "$OUT/octave-suite.txt"
  step_done octave
fi
if [[ $steps == *" cumtests "* ]]; then
  # Octave's own cum* blocks, and integer sums of 2^22 + 3 elements against this Octave's
  # cumsum bit for bit (steps of intmax/50 that drift up: on Octave 11 they saturate, on
  # the saturating kernels), the GPU engine and each GPU algorithm forced
  for a in ENGINE=gpu ALGORITHM=decoupled ALGORITHM=kogge-stone ALGORITHM=brent-kung ALGORITHM=cub; do
    env GPUSCAN_${a%%=*}=${a#*=} GPUSCAN_ENGINE=${GPUSCAN_ENGINE:-gpu} timeout -s KILL 300 $octave --eval "$pkg_setup
        pkg ('load', 'gpuscan'); addpath ('$top/tests'); ok = octave_cum_tests ();
        for c = {'int8', 'uint8', 'int16', 'int32', 'uint32', 'int64'}
          x = cast ((rand (2^22 + 3, 1) - 0.45) * double (intmax (c{1})) / 50, c{1});
          ok = ok && isequal (gpuscan (x), cumsum (x)) && isequal (gpuscan (x, 'reverse'), cumsum (x, 'reverse'));
        end
        printf ('integer sums of 2^22 + 3 elements as cumsum: %d\\n', ok); exit (! ok);" \
      > "$OUT/cumtests-${a#*=}.txt" 2>&1
    t_rc=$?; [[ $t_rc == 0 ]] || rc=1
    echo "cum tests ${a#*=}: rc=$t_rc; $(grep -h 'octave_cum_tests:\|integer sums' "$OUT/cumtests-${a#*=}.txt" | tr '\n' ' ')"
  done
  step_done cumtests
fi
if [[ $steps == *" matrix "* ]]; then
  MATRIX_LOGS=/tmp/matrix GPUSCAN_DIFFERENTIAL_CASES=${GSK_MATRIX_CASES:-1000} \
    bash "$top/tools/test-matrix.sh" gpu "$pkg_setup pkg ('load', 'gpuscan');" 2>&1 | tee "$OUT/matrix.txt"
  rc=$((rc | PIPESTATUS[0]))
  tar -C /tmp -czf "$OUT/matrix-logs.tar.gz" matrix
  step_done matrix
fi
if [[ $steps == *" pipeline "* ]]; then
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      addpath ('$top/bench'); pipeline_bench ();" > "$OUT/pipeline-bench.txt" 2>&1
  cat "$OUT/pipeline-bench.txt"
  step_done pipeline
fi
if [[ $steps == *" repeat "* ]]; then
  timeout -s KILL 300 $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      addpath ('$top/bench'); repeat_bits (20);" 2>&1 | tee "$OUT/repeat-bits.txt"
  step_done repeat
fi
if [[ $steps == *" cpuload "* ]]; then
  # the CPU load benchmark on this host (0, 1 and every core busy): "auto" as a user calls
  # it, and the CPU engine and the GPU forced, in the same run
  bash "$top/bench/cpu_load_bench.sh" "$pkg_setup pkg ('load', 'gpuscan');" 2>&1 | tee "$OUT/cpu-load.txt"
  step_done cpuload
fi
if [[ $steps == *" obench "* ]]; then
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      addpath ('$top/bench'); octave_bench ();" > "$OUT/octave-bench.txt" 2>&1
  tail -n 30 "$OUT/octave-bench.txt"
  step_done obench
fi
if [[ $steps == *" fault "* ]]; then
  $octave --eval "addpath ('$top/tests'); addpath ('$fb/inst');
      addpath ('$fb/src'); disp (gpuscan_info ().fault_injection); exit (! run_suite ());" \
      > "$OUT/fault-suite.txt" 2>&1
  echo "fault-injection suite rc=$?" >> "$OUT/fault-suite.txt"; grep -E "passed|suite|rc=" "$OUT/fault-suite.txt"
  step_done fault
fi
if [[ $steps == *" load "* ]]; then
  [ -n "$lb" ] && { wait $baseline_pid || { echo "baseline build failed"; lb=; }; }
  for d in $b $lb; do
    ls -l $d/src/gpuscan.oct | tee -a "$OUT/load.txt"
    for k in 1 2 3; do
      $octave --eval "addpath ('$d/inst'); addpath ('$d/src'); x = rand (1e6, 1);
          t = tic; y = gpuscan (x, 'algorithm', 'decoupled'); t1 = toc (t);
          t = tic; y = gpuscan (x, 'max', 'algorithm', 'decoupled'); t2 = toc (t);
          t = tic; y = gpuscan (x, 'algorithm', 'decoupled'); t3 = toc (t);
          printf ('%s: first GPU sum %.1f ms, first max %.1f ms, the sum again %.1f ms\\n', '$d', 1e3 * [t1 t2 t3]);" \
        2>&1 | tee -a "$OUT/load.txt"
    done
  done
  step_done load
fi
if [[ $steps == *" chunk "* ]]; then
  GPUSCAN_CHUNK_ELEMENTS=$((1 << 30)) $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      x = int8 (mod (1:(2^32 + 5), 251) - 125); t = tic;
      [y, iy] = gpuscan (x, 'max', 'algorithm', 'decoupled'); tg = toc (t); t = tic;
      [r, ir] = gpuscan (x, 'max', 'algorithm', 'cpu'); tc = toc (t);
      printf ('chunked 2^32+5 int8 max (chunks of 2^30): %d, GPU %.1f s, CPU %.1f s\\n',
              isequal (y, r) && isequal (iy, ir), tg, tc);
      clear y iy r ir; s = gpuscan (x, 'native', 'algorithm', 'decoupled');
      printf ('chunked native sum: %d\\n', isequal (s, gpuscan (x, 'native', 'algorithm', 'cpu')));" \
      2>&1 | tee "$OUT/chunk.txt" | tail -n 5
  step_done chunk
fi
if [[ $steps == *" osanitize "* ]]; then
  for tool in memcheck synccheck; do
    GPUSCAN_ENGINE=gpu timeout 500 compute-sanitizer --tool $tool --error-exitcode 3 $octave --eval \
        "$pkg_setup pkg ('load', 'gpuscan'); addpath ('$top/tests');
         ok = test ('gpuscan_array') && test ('gpuscan_compact') && test ('existsOnGPU') ...
              && test ('gpuscan_trace') && sanity_calls (); exit (! ok);" \
        > "$OUT/osanitize-$tool.txt" 2>&1
    echo "compute-sanitizer $tool over the Octave device-array and trace tests and sanity_calls: rc=$?" | tee -a "$OUT/osanitize-$tool.txt"
    grep -E "ERROR SUMMARY|sanity_calls" "$OUT/osanitize-$tool.txt" | tail -2
  done
  # the trace kernel's shared memory between its barriers (racecheck: hazards)
  timeout 300 compute-sanitizer --tool racecheck --error-exitcode 3 $octave --eval \
      "$pkg_setup pkg ('load', 'gpuscan'); exit (! test ('gpuscan_trace'));" > "$OUT/osanitize-racecheck.txt" 2>&1
  echo "compute-sanitizer racecheck over the trace tests: rc=$?" | tee -a "$OUT/osanitize-racecheck.txt"
  grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$OUT/osanitize-racecheck.txt" | tail -2
  # leaving Octave with device arrays alive, and after clear gpuscan
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      d = gpuscan_array (rand (1e6, 1)); s = gpuscan (d); clear gpuscan; m = gpuscan (d, 'max');
      disp (gather (m)(end) == max (gather (d)));" > "$OUT/exit.txt" 2>&1
  echo "exit with live device arrays: rc=$? $(tr '\n' ' ' < "$OUT/exit.txt")"
  step_done osanitize
fi
if [[ $steps == *" dbench "* ]]; then
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      addpath ('$top/bench'); device_bench ();" > "$OUT/device-bench.txt" 2>&1
  tail -n 30 "$OUT/device-bench.txt"
  step_done dbench
fi
if [[ $steps == *" cpu2 "* ]]; then
  GPUSCAN_ENGINE=cpu OMP_NUM_THREADS=2 taskset -c 0,1 $octave --eval "$pkg_setup
      pkg ('load', 'gpuscan'); addpath ('$top/bench'); octave_bench ();" > "$OUT/octave-bench-2cores.txt" 2>&1
  head -n 12 "$OUT/octave-bench-2cores.txt"
  step_done cpu2
fi
if [[ $steps == *" plot "* ]]; then
  $octave --eval "$pkg_setup pkg ('load', 'gpuscan');
      gpuscan_bench ('sizes', 2 .^ (10:2:28), 'plot', '$OUT/gpuscan_bench.png');" > "$OUT/gpuscan-bench.txt" 2>&1
  tail -n 20 "$OUT/gpuscan-bench.txt"
  step_done plot
fi
exit $rc

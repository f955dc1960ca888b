#!/usr/bin/env bash
# The CPU engine against cumsum on an idle and a busy machine: bench/cpu_load.m under 0,
# 1 and (cores) busy background processes (spinning shell loops that this script starts
# and stops, each bounded by a timeout), once with the engine's threads and once with the
# CPU engine on one thread (OMP_NUM_THREADS=1).  Prints one table: the times in ms and
# gpuscan's speed-up over cumsum measured in the same run (> 1: gpuscan faster); where a
# GPU is usable, also the CPU engine and the GPU forced, in the same run as "auto", and
# "auto"'s time over the faster of the two (1.00x: "auto" chose the faster).
#   bench/cpu_load_bench.sh SETUP      SETUP: Octave code that makes gpuscan callable
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
setup=${1:-pkg load gpuscan;}
cores=$(nproc)
octave="octave-cli --no-gui --norc --no-history --quiet"
work=$(mktemp -d)
echo "# $(date -u +%Y-%m-%d) $(uname -m), $cores cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')"
for load in 0 1 "$cores"; do
  busy=()
  for ((i = 0; i < load; i++)); do
    timeout 1800 sh -c 'while :; do :; done' & busy+=($!)
  done
  $octave --eval "$setup addpath ('$top/bench'); cpu_load ();" > "$work/threads-$load.txt" 2>/dev/null
  OMP_NUM_THREADS=1 GPUSCAN_ENGINE=cpu $octave --eval "$setup addpath ('$top/bench'); cpu_load ();" \
    > "$work/one-$load.txt" 2>/dev/null
  [ ${#busy[@]} -gt 0 ] && { kill "${busy[@]}" 2>/dev/null; wait "${busy[@]}" 2>/dev/null; }
done
gpu=""; [ "$(awk '{ print NF; exit }' "$work/threads-0.txt")" = 6 ] && gpu=1
printf "%-5s %-12s %-7s %10s %10s %10s %8s %8s" busy case class cumsum gpuscan "1 thread" speed-up "1 thr"
[ -n "$gpu" ] && printf " %10s %10s %9s" "CPU engine" GPU "auto/best"
printf "\n"
for load in 0 1 "$cores"; do
  paste -d' ' "$work/threads-$load.txt" "$work/one-$load.txt" \
    | awk -v load="$load" '{ one = $(NF)
        printf "%-5s %-12s %-7s %10.3f %10.3f %10.3f %7.2fx %7.2fx", load, $1, $2, $3, $4, one, $3 / $4, $3 / one;
        if (NF == 10) { b = $5 < $6 ? $5 : $6; printf " %10.3f %10.3f %8.2fx", $5, $6, $4 / b }
        printf "\n" }'
done
rm -rf "$work"

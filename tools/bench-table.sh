#!/usr/bin/env bash
# README's GPU table from one gpu_bench output (bench/results/gpu_bench-*.txt): the decoupled
# time and its ratios to the copy and to CUB, and the classic algorithms' ratios to the copy,
# for the rows README quotes.   tools/bench-table.sh bench/results/gpu_bench-....txt
set -euo pipefail
awk '
  # gpu_bench rows: shape, type and n in the first 41 columns, then algorithm, us, GB/s, x copy, x cub
  NF >= 6 && substr ($0, 43, 1) != " " {
    key = substr ($0, 1, 41); gsub (/ +/, " ", key); sub (/ $/, "", key)
    split (substr ($0, 43), v); us[key, v[1]] = v[2]; xc[key, v[1]] = v[4]; xb[key, v[1]] = v[5]
  }
  function t (u) { return u >= 1000 ? sprintf ("%.2f ms", u / 1000) : u >= 20 ? sprintf ("%.0f us", u) : sprintf ("%.1f us", u) }
  # cub: 0 no CUB column, 1 the ratio, or the words after it; classic: the classic algorithms too
  function row (label, n, key, cub, classic) {
    if (! ((key, "decoupled") in us)) { print "no row: " key > "/dev/stderr"; exit 1 }
    printf "| %s | %s | %s | %s | %s | %s | %s |\n", label, n, t(us[key, "decoupled"]), xc[key, "decoupled"],
      cub == 0 ? "" : xb[key, "decoupled"] (cub == 1 ? "" : cub), classic ? xc[key, "kogge-stone"] : "", classic ? xc[key, "brent-kung"] : ""
  }
  END {
    print "| scan | n | decoupled | x copy | x CUB | kogge-stone x copy | brent-kung x copy |"
    print "| --- | --- | --- | --- | --- | --- | --- |"
    split ("16 24 26 28", p2)
    for (ty = 1; ty <= 2; ty++) {
      type = ty == 1 ? "double" : "single"
      for (i = 1; i <= 4; i++) row(type " sum", "2^" p2[i], "vector " type " " 2^p2[i], 1, p2[i] > 16)
    }
    row("single exclusive sum", "2^26", "vector exclusive single 67108864", 1, 0)
    row("double exclusive sum", "2^26", "vector exclusive double 67108864", 1, 0)
    split ("16 24 28", q); for (i = 1; i <= 3; i++) row("int32 native sum", "2^" q[i], "vector int32 " 2^q[i], " (CUB wraps)", 0)
    split ("16 22 24 26 28", q); for (i = 1; i <= 5; i++) row("int64 native sum", "2^" q[i], "vector int64 " 2^q[i], " (CUB wraps)", 0)
    row("int32 native sum that saturates", "2^24", "vector saturating int32 16777216", 0, 1)
    row("int64 native sum that saturates", "2^24", "vector saturating int64 16777216", 0, 1)
    for (ty = 1; ty <= 2; ty++) {
      type = ty == 1 ? "double" : "single"
      row(type ", 4096x4096 along dim 1 (line blocks)", "2^24", "4096x4096 dim 1 " type " 16777216", 0, 1)
      row(type ", 4096x4096 along dim 2 (lane vectors)", "2^24", "4096x4096 dim 2 " type " 16777216", 0, 1)
    }
    row("double, segmented (1-byte flags)", "2^26", "segmented (flags) double 67108864", 0, 1)
    row("single, segmented (1-byte flags)", "2^26", "segmented (flags) single 67108864", 0, 1)
  }' "$1"

// What the host decides at run time about the kernels, a table an architecture: the
// sizes from which a kernel applies, the look-back's pacing, the L2 prefetch, grid sizes.
// The CUDA engine's context (context.cuh) holds the table of the GPU it runs on
// (tuning_for: by compute capability; GPUSCAN_TUNING names another, for tests).  Each
// table says where each of its values comes from: only sm_90's were measured (H100,
// H200); the others take CUB's tuning of that architecture where CUB has one
// (cub/device/dispatch/tuning/tuning_scan.cuh, CCCL of CUDA 13.0), else sm_90's values,
// or the reason they differ.  The compiled shapes (items, threads) are tuning.cuh's.
#pragma once

#include <cstdio>
#include <cstring>

namespace gsk {

struct tuning
{
  const char *name;
  // The wide tiles (4- and 8-byte floating sums and products, native 8-byte integer sums)
  // and the striped tiles (4-byte sums and products) take the decoupled scans from this
  // many elements (tuning.cuh: wide_tile_shape)
  long long wide_tile_from;
  // batched lines (inner == 1) of a tile or more take a block each from this many lines:
  // enough blocks for every SM, with no look-back between them (line_blocks_kernel)
  long long line_blocks_min_lines;
  // pacing of the look-back (look_back.cuh), ns of __nanosleep: before a tile's first
  // poll, and between polls (CUB's sm_90 tuning: 1.2-1.3 us, then 0.6 us).  Only grids of
  // more tiles than the GPU holds at once wait, of states packed with their flags
  // (device_scan.cuh: launch_decoupled); in one round all tiles start together and a wait
  // only delays them (commit e31b0f4, paced from 2^21 elements: at 2^22, where the striped
  // 4-byte tiles fit the GPU at once, the pacing cost 0.03-0.12x a copy).  (H200,
  // decoupled, x copy at 2^28 / 2^24, single / double / int32 / int64 native: spinning
  // 1.21 / 1.24 / 1.23 / 1.29 and 1.25 / 1.28 / 1.29 / 1.36; 0.8 and 0.4 us 1.17 / 1.22 /
  // 1.19 / 1.25; 1.2 and 0.6 us 1.15 / 1.20 / 1.17 / 1.22 and 1.22 / 1.24 / 1.26 / 1.32,
  // as 2.0 and 0.6 us, 1.6 and 1.0 us, or 1.2 us and no delay between polls; 3.0 and 1.0
  // us 1.13 / 1.19 / 1.15 / 1.20 but 1.28 / 1.27 / 1.30 / 1.33.  Blocks of 128 threads
  // instead of 256 and CUB's 224 x 12 for 8-byte tiles were slower.)  Again with the L2
  // prefetch (commit 838999d, x copy at 2^24 / 2^28): 1200 ns single 1.11 / 1.09, double 1.16 /
  // 1.11; 700 ns 1.15 / 1.10, 1.19 / 1.12; 2000 ns 1.12 / 1.09, 1.17 / 1.11; segmented
  // singles 1.20-1.21 at all three (variants-look-back-wait-H200-2026-11-24.txt).  The first
  // round of such a grid waits too: without the wait, 2^24 double 1.17 -> 1.19, int32 1.17 ->
  // 1.20 (three runs each); 2400 or 3600 ns, or 1200 ns + 2-4 ns a tile, for the first round
  // alone: within the noise (commit 08ddd9d, variants-first-round-wait-*-H200-2026-11-25.txt).
  // The last round's tiles waiting 0 or 400 ns instead: within the noise too (commit e2825e7,
  // H200, 2^24-2^28; variants-last-round-wait-H200-2026-11-26.txt).
  unsigned look_back_wait_ns;
  unsigned look_back_poll_ns;
  // L2 prefetch of the decoupled tiles (tile_io.cuh: prefetch_tile) in grids of more tiles
  // than the GPU holds at once: each block asks for the input of the tile this many tiles
  // an SM after its own (0: none).  H200, x copy at 2^24 / 2^28, none against 1 / 2 / 3
  // tiles an SM: single 1.19 / 1.14 -> 1.18 / 1.11, 1.14 / 1.10, 1.19 / 1.11; double 1.25 /
  // 1.19 -> 1.20 / 1.14, 1.17 / 1.11, 1.18 / 1.11; int32 native 1.26 / 1.16 -> 1.19 / 1.09
  // at 2; int64 native 1.33 / 1.22 -> 1.27 / 1.16 at 2; segmented double 1.18 -> 1.12 at 2
  // (2^26).  Further ahead, the prefetched lines leave L2 before their tile loads them:
  // double at 2^28 took 1.31x at ~5 tiles an SM and 1.47x at 8 (65% and 100% of its
  // resident blocks; bench/results/variants-l2-prefetch-*).  Line blocks
  // asking for their own line's next tiles gained nothing (4096x4096 along dim 1); lane
  // tiles (dim 2) asking for a later lane tile, a bulk prefetch for each of its steps, lost
  // at 1, 2 and 4 tiles an SM (single 1.22 -> 1.28-1.31, double 1.07 -> 1.13-1.31;
  // variants-lane-prefetch-H200-*).  Commit e2825e7, H200: 3 tiles an SM again slower (single
  // 2^28 1.15 against 1.11), and an evict_last cache policy on the prefetch neither gained
  // at 2 nor let it reach further (3 / 4 tiles an SM 1.14 / 1.35;
  // variants-prefetch-evict-last-H200-2026-11-26.txt, branch exp/prefetch-evict-last).
  int l2_prefetch_tiles_per_sm;
  // native (saturating) sums of 4- and 8-byte integers take the wrapping fast path (and
  // the exact pass only where it left the range) from this many bytes: since the exact
  // pass waits on the device, at every size (H100, 2^16 elements against the exact scan
  // alone: int32 14.1 -> 10.3 us, int64 19.5 -> 11.5 us; in commit faf01f0, against the exact
  // scan as commits a227c87-ea10b3a sped it up: int32 11.0 -> 9.0, int64 16.2 -> 9.7, 2^20 48.0 -> 13.6;
  // bench/results/variants-fast-satsum-min-H100-2026-11-25.txt)
  long long fast_satsum_min_bytes;
  // lanes kernels (scans across contiguous vectors): the threads they aim to have in
  // flight, as a multiple of the threads the GPU holds at once (device_limits.cuh)
  int lanes_threads_per_resident;
  // grid-stride element-wise kernels (class conversion, head flags): blocks an SM at most
  int elementwise_blocks_per_sm;
  // a "reproducible" scan of one vector (no head flags) under "auto" takes the hierarchical Brent-Kung scan
  // (a fixed tree) from this many elements, below it the ordered look-back (look_back.cuh),
  // whose chain of prefixes costs more as the tiles grow many.  H200, x copy, ordered
  // look-back / Brent-Kung: double 2^20 2.19 / 2.82, 2^22 3.54 / 2.29, 2^26 4.16 / 1.69;
  // single 2^20 1.95 / 3.02, 2^22 2.63 / 2.59, 2^26 2.80 / 1.84 (commit e6c1217,
  // gpu_bench-reproducible-H200-2026-11-27-e6c1217.txt)
  long long reproducible_tree_from;
  // the same for states that do not travel packed with their look-back flags (16 bytes and
  // more: accurate sums' double-doubles, complex sums), whose ordered look-back waits on
  // a fenced store per tile.  H200, accurate sums, x copy, ordered look-back / Kogge-Stone
  // / Brent-Kung: double 2^17 3.54 / 4.70 / 5.21, 2^20 8.26 / 3.95 / 4.43, 2^26 14.98 /
  // 2.62 / 2.45; single 2^17 2.62 / 4.05 / 4.43, 2^20 6.13 / 3.63 / 3.96 (commit 0d12c2d):
  // from 2^19, between the two
  long long reproducible_unpacked_tree_from;
};

// sm_90 (H100, H200): measured, see each field's comment above
constexpr tuning tuning_sm90 = {
  "sm_90",
  1LL << 21,   // wide_tile_from: H200 single, 16 vs 24 items, 2^16 vs 2^24 (tuning.cuh)
  1024,        // line_blocks_min_lines: 132 SMs x 8 blocks
  1200, 600,   // look-back pacing: H200 2026-11-24/25, variants-look-back-wait-H200-*
  2,           // L2 prefetch: H200 2026-11-24/26, variants-l2-prefetch-*, variants-prefetch-evict-last-*
  0,           // fast native sums: H100 2026-11-25, variants-fast-satsum-min-H100-2026-11-25.txt
  2,           // lanes: H200, 4096x4096 along dim 2 (doc/performance.md)
  8,           // element-wise: 8 blocks an SM cover the GPU (not measured otherwise)
  1LL << 21,   // reproducible: H200 2026-11-27, gpu_bench-reproducible-H200-2026-11-27-e6c1217.txt
  1LL << 19 }; // reproducible, unpacked states: H200 2026-11-27, gpu_bench-accurate-H200-2026-11-27-0d12c2d.txt

// sm_80 (A100, A30): CUB's sm80_tuning of double sums for the pacing (fixed_delay_constructor_t
// <388, 1100>: 1100 ns, then 388); the rest sm_90's (not measured: no sm_80 GPU at hand)
constexpr tuning tuning_sm80 = {
  "sm_80", 1LL << 21, 1024,
  1100, 388,   // CUB sm80_tuning<double>
  0,           // the bulk L2 prefetch is sm_90's (tile_io.cuh: prefetch_l2)
  0, 2, 8, 1LL << 21, 1LL << 19 };

// sm_86, sm_87, sm_89 (RTX 30 and 40, Jetson Orin, L4, L40): CUB takes its sm_80 tuning
// for them (its policies chain to the newest one not above the GPU); the rest sm_90's
constexpr tuning tuning_sm86 = {
  "sm_86", 1LL << 21, 1024, 1100, 388, 0, 0, 2, 8, 1LL << 21, 1LL << 19 };

// sm_75 (T4, RTX 20): CUB's default pacing for primitive types (default_delay_constructor_t:
// fixed_delay_constructor_t<350, 450>); the rest sm_90's
constexpr tuning tuning_sm75 = {
  "sm_75", 1LL << 21, 1024, 450, 350, 0, 0, 2, 8, 1LL << 21, 1LL << 19 };

// any other GPU (newer than sm_90, running sm_90's PTX or code): sm_90's values
constexpr tuning tuning_default = {
  "default", 1LL << 21, 1024, 1200, 600, 2, 0, 2, 8, 1LL << 21, 1LL << 19 };

constexpr const tuning *tuning_tables[] = { &tuning_sm90, &tuning_sm80, &tuning_sm86,
                                            &tuning_sm75, &tuning_default };

// the table of a GPU of compute capability major.minor
inline const tuning *tuning_for (int major, int minor)
{
  return major == 9 ? &tuning_sm90
         : major == 8 && minor == 0 ? &tuning_sm80
         : major == 8 ? &tuning_sm86
         : major == 7 && minor == 5 ? &tuning_sm75
         : &tuning_default;
}

// the table of that name, or null
inline const tuning *tuning_named (const char *name)
{
  for (const tuning *t : tuning_tables)
    if (! strcmp (t->name, name))
      return t;
  return nullptr;
}

// the tables' names, ", " between them, into buf (for messages)
inline void tuning_table_names (char *buf, size_t size)
{
  size_t used = 0;
  for (const tuning *t : tuning_tables)
    used += snprintf (used < size ? buf + used : nullptr, used < size ? size - used : 0,
                     "%s%s", used ? ", " : "", t->name);
}

}  // namespace gsk

#ifdef GSK_EXPERIMENT
#include "../bench/experiment_tables.cuh"
#endif


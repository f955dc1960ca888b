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
  // elements from which the wide and striped tiles take the decoupled scans
  // (tuning.cuh: wide_tile_shape)
  long long wide_tile_from;
  // batched lines (inner == 1) from which each line takes a block of its own, with no
  // look-back (line_blocks_kernel): enough blocks for every SM
  long long line_blocks_min_lines;
  // the look-back's pacing (look_back.cuh), ns of __nanosleep: before a tile's first poll,
  // and between polls.  Only grids of more tiles than the GPU holds at once wait, and only
  // states packed with their flags (device_scan.cuh: settle_look_back)
  unsigned look_back_wait_ns;
  unsigned look_back_poll_ns;
  // the L2 prefetch of the decoupled tiles (tile_io.cuh: prefetch_tile) in such grids:
  // each block asks for the input of the tile this many tiles an SM after its own (0: none)
  int l2_prefetch_tiles_per_sm;
  // bytes from which native sums of 4- and 8-byte integers take the wrapping fast path,
  // with the exact pass only where it left the range
  long long fast_satsum_min_bytes;
  // lanes kernels: threads in flight, as a multiple of those the GPU holds at once
  int lanes_threads_per_resident;
  // grid-stride element-wise kernels (class conversion, head flags): blocks an SM at most
  int elementwise_blocks_per_sm;
  // elements from which a "reproducible" vector without head flags under "auto" takes the
  // hierarchical Brent-Kung scan (a fixed tree) instead of the ordered look-back
  long long reproducible_tree_from;
  // the same for states of more than 8 bytes (two status words, or unpacked): measured
  // where they did not travel packed
  long long reproducible_16b_tree_from;
};

// sm_90 (H100, H200): measured; doc/performance.md ("Tuning") has the runs
constexpr tuning tuning_sm90 = [] {
  tuning t {};
  t.name = "sm_90";
  t.wide_tile_from = 1LL << 21;           // H200: single 16 against 24 items
  t.line_blocks_min_lines = 1024;         // 132 SMs x 8 blocks
  t.look_back_wait_ns = 1200;             // H200 2026-11-24/25 (CUB's sm_90 values)
  t.look_back_poll_ns = 600;              // H200 2026-11-24/25
  t.l2_prefetch_tiles_per_sm = 2;         // H100, H200 2026-11-24/26
  t.fast_satsum_min_bytes = 0;            // H100 2026-11-25
  t.lanes_threads_per_resident = 2;       // H200, 4096x4096 along dim 2
  t.elementwise_blocks_per_sm = 8;        // not measured: 8 blocks an SM cover the GPU
  t.reproducible_tree_from = 1LL << 21;   // H200 2026-11-27
  t.reproducible_16b_tree_from = 1LL << 19;   // H200 2026-11-27
  return t;
} ();

// sm_80 (A100, A30): CUB's sm80_tuning of double sums for the pacing
// (fixed_delay_constructor_t<388, 1100>); the rest sm_90's (no sm_80 GPU measured)
constexpr tuning tuning_sm80 = [] {
  tuning t = tuning_sm90;
  t.name = "sm_80";
  t.look_back_wait_ns = 1100;             // CUB sm80_tuning<double>
  t.look_back_poll_ns = 388;              // CUB sm80_tuning<double>
  t.l2_prefetch_tiles_per_sm = 0;         // the bulk L2 prefetch is sm_90's (tile_io.cuh)
  return t;
} ();

// sm_86, sm_87, sm_89 (RTX 30 and 40, Jetson Orin, L4, L40): CUB takes its sm_80 tuning
// for them (its policies chain to the newest one not above the GPU)
constexpr tuning tuning_sm86 = [] {
  tuning t = tuning_sm80;
  t.name = "sm_86";
  return t;
} ();

// sm_75 (T4, RTX 20): CUB's default pacing for primitive types
// (default_delay_constructor_t: fixed_delay_constructor_t<350, 450>)
constexpr tuning tuning_sm75 = [] {
  tuning t = tuning_sm80;
  t.name = "sm_75";
  t.look_back_wait_ns = 450;              // CUB default_delay_constructor_t
  t.look_back_poll_ns = 350;              // CUB default_delay_constructor_t
  return t;
} ();

// any other GPU (newer than sm_90, running sm_90's PTX or code): sm_90's values
constexpr tuning tuning_default = [] {
  tuning t = tuning_sm90;
  t.name = "default";
  return t;
} ();

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

// An experiment build (tools/device-check.sh's variants) names, in GSK_TABLES_FROM, a
// header that defines experiment_table () (bench/experiment_tables.cuh)
#ifdef GSK_TABLES_FROM
#include GSK_TABLES_FROM
#endif


// The kernels' shapes: what the compiler must know (items and threads of each tile kernel,
// the rows of a striped tile, the launch bounds), apart from the algorithms.  One set for
// every architecture, measured on sm_90 (H100, H200; each value's provenance beside it):
// no other GPU was at hand to measure.  The launch bounds follow each compiled
// architecture's shared memory and threads an SM (arch_limits, below).  What the host
// decides at run time (sizes from which a kernel applies, the look-back's pacing, the L2
// prefetch, grid sizes) is in tuning_tables.cuh, a table an architecture, and the device's
// limits come from its properties (device_limits.cuh).
#pragma once

#include <type_traits>

namespace gsk {

// threads per block of every tile kernel
constexpr int block_threads = 256;

// The values an experiment may change (bench/experiment_shapes.cuh: only in builds with
// -DGSK_EXPERIMENT, e.g. tools/device-check.sh's variants)
struct shape_values
{
  // items per thread of a tile: enough bytes in flight per thread to cover memory latency,
  // few enough that the tile, its head flags and the block scan's buffers fit in 48 KiB of
  // static shared memory (the Kogge-Stone buffers hold two states per thread)
  // (measured on an H200, decoupled double sum at 2^24..2^26: 16 items 1.37-1.43x the copy
  // time, 8 items 1.70-1.82x)
  int items_8b = 16;   // 8-byte elements with states of up to 16 bytes (sums, products)
  // 4-byte elements (H200, decoupled single sum, us at 2^16 / x copy at 2^24 / at 2^28):
  // 12 items 9.1 / 1.58 / 1.58; 16 items 10.9 / 1.35 / 1.44; 24 items 12.3 / 1.39 / 1.29.
  // 24 wins for large arrays and loses the 2^16 target (<= 10 us): the decoupled scan
  // takes 16 below wide_tile_from elements and 24 from there (single sum and product, the
  // only 4-byte operators with states of up to 16 bytes: two more kernels).
  int items_4b = 16;   // 4-byte elements with states of up to 16 bytes
  int items_4b_large = 24;
  // 1- and 2-byte elements (their native sums, the only such operators with states of up
  // to 16 bytes; H200, saturating data, us at 2^16 / 2^24, int8 and int16: 16 items 6.6 /
  // 69.4, 5.9 / 58.6; 32 items 8.0 / 47.7, 7.2 / 44.6; 64 items 10.8 / 38.6, 9.7 / 43.3,
  // bench/results/native-narrow-sums-H200-2026-11-25.txt).  16: small arrays pay for more,
  // and the 1- and 2-byte unit's code grows with them.
  int items_narrow = 16;
  // 8-byte elements of large arrays (H100, decoupled sums, x copy at 2^24 / 2^26 / 2^28).
  // Plain loads, double, registers held to 32 so that shared memory alone sets the blocks
  // per SM: 12 items 1.137 / 1.096 / 1.094; 14 items 1.123 / 1.101 / 1.098; 16 items 1.149 /
  // 1.106 / 1.112 (6 blocks an SM); at 16 items and 40-43 registers 1.15-1.21.
  // Loads through cp.async (tile_io.cuh), double: 12 items, 8 blocks 1.12-1.13 / 1.095 /
  // 1.095; 14 items, 7 blocks 1.13-1.15 / 1.097 / 1.098.  The int64 wrapping sum of a
  // native sum spills under 32 registers: 12 items, 8 blocks or 14 items, 7 blocks 0.97-1.01x
  // CUB's int64 sum; 14 items and the compiler's registers 0.96-0.98x CUB (1.13 / 1.10 / 1.10)
  // With the look-back paced (below; H100, x CUB at 2^22 / 2^24 / 2^26 / 2^28): 12 items 0.99 /
  // 1.01 / 1.02 / 1.02, 14 items 1.01 / 1.00 / 1.00 / 1.01, 16 items 0.95 / 0.97 / 1.01 / 1.02.
  // With the L2 prefetch too (H200, int64 native, x CUB at 2^22 / 2^24 / 2^26 / 2^28): 12 items
  // 0.99 / 0.97 / 0.97 / 0.97, 14 items 1.00 / 0.96 / 0.95 / 0.94, 16 items 0.95 / 0.94 / 0.94 /
  // 0.94 (bench/results/variants-tuning-with-prefetch-H200-2026-11-24.txt); H100: 14 items 1.04 /
  // 0.97 / 0.97 / 0.97, 16 items 0.98 / 0.95 / 0.98 / 0.99 (variants-int64-items-prefetch-H100-*)
  int items_8b_large = 12;
  int items_8b_large_int = 16;
  // Elements with states of 17-32 bytes (max and min with the index: the value, its
  // position, the segment head).  H200, [m, i] = cummax of 2^26 doubles, x a copy of x and
  // y: 8 items 3.63, 12 items 2.90, 16 items 2.94 (and the hierarchical scans 5-8% faster at
  // 12 than at 8; bench/results/variants-indexed-items-H200-2026-11-23.txt); singles: 8 items
  // 5.75, 16 items 4.25, 24 items 4.29 (x a copy of x and y, 8 bytes an element: the index
  // adds 8 more; variants-indexed-items-single-H200-2026-11-23.txt)
  int items_8b_indexed = 12;
  int items_4b_indexed = 16;
  // 16-byte elements with states of up to 24 bytes (complex double sums and products, the
  // pairs (a, x) of double and complex single recurrences).  H200, decoupled at 2^26 (2^25
  // complex), x a copy of the bytes moved, 4 / 6 / 8 items: double recurrence 3.00 / 2.02 /
  // 2.18, complex double sum 2.35 / 1.73 / 1.85, complex single recurrence 4.16 / 2.83 /
  // 2.61 (bench/results/variants-items16-H200-2026-11-27-05f2bf2.txt)
  int items_16b = 6;
  // The index output of max and min from their values (extremum_index.cuh): items a
  // thread of the positions' tiles, and the elements from which scans take that way (below,
  // minmax_op's (value, index) states in one pass).  [m, i] = cummax, x a copy of x and y,
  // single / double at 2^24 and 2^26: H200 8 items 3.32 / 2.43, 3.43 / 2.33; 12 items 3.09 /
  // 2.35, 3.09 / 2.25; 16 items 3.08 / 2.34, 3.06 / 2.24 (24 need 50 KB of static shared
  // memory); one pass of minmax_op 4.25 / 2.84 at 2^26 (commit d45052e).  H100, 16 items against
  // one pass in the same run: 2^24 2.75 / 2.10 against 3.18 / 2.25, 2^26 2.63 / 2.05
  // against 3.23 / 2.19; at 2^16 and 2^20 within the noise of the run (16-18 us, 20-28 us).
  // (bench/results/variants-index-*-2026-11-24.txt)
  int index_items = 16;
  long long index_from_values_min = 0;
  // Items per thread of a native sum's exact pass (4- and 8-byte integers; the pass that
  // runs only where the wrapping sum left the range: one round of blocks that take the
  // tiles in order, tile_scan_kernel).  Its states (clamp map and head) take 24 (int32) and
  // 48 bytes (int64, in 128-bit arithmetic), so that a tile's block scan and look-back cost
  // far more than its loads: fewer, larger tiles.  int64 at 2^24, saturating data, H100:
  // 4 items (the staged tile's for such states) 892 us, 8 576, 16 414; brent-kung 541
  // (bench/results/variants-exact-items-H100-2026-11-25.txt).  16 is the most that static
  // shared memory holds for 8 bytes; int32, 16 / 24 / 32 items: 173 / 177 / 169 us.  An
  // exact pass's tiles may be no smaller than those whose status words the workspace holds
  // (plan::pass).
  int exact_items_8b = 16;
  int exact_items_4b = 16;
  // threads of a wide tile's block (CUB's sm_90 tuning: 128 for 4-byte sums, 224 for 8-byte)
  int wide_threads = 256;
  int wide_threads_int = 256;   // 8-byte integer sums
  // rows of the striped tile (striped_scan.cuh: 4-byte plain vectors from wide_tile_from
  // elements): 16 bytes a thread each, held in registers (H100, single sum, x copy at
  // 2^24 / 2^26 / 2^28: 12 rows 1.126 / 1.112 / 1.099; 8 rows 1.162 / 1.137 / 1.134;
  // the staged tile of 24 items 1.239 / 1.178 / 1.154 in the same run; int32 native sum
  // at 2^28: 12 rows 1.11, 10 rows 1.15, 8 rows 1.22, the staged tile 1.16)
  int striped_rows = 12;
  // threads of a striped tile's block: 128, six blocks an SM, tiles half as large as at 256
  // (three blocks an SM), so that a grid starts and ends in finer steps.  H200, commit e2825e7,
  // x copy at 2^24 / 2^28 in three runs: single 1.17-1.18 / 1.11 -> 1.14 / 1.11-1.12, int32
  // native 1.24-1.27 / 1.12 -> 1.17-1.20 / 1.12, segmented single (2^26) 1.15-1.16 -> 1.12;
  // doubles, int64 and the other kernels unchanged (variants-striped-threads-H200-2026-11-26.txt);
  // H100, one run: single 1.10 -> 1.05 at 2^24, int32 native 1.15 -> 1.10, segmented single
  // 1.08 -> 1.04 (variants-striped-threads-H100-2026-11-26.txt).  (Before the L2 prefetch,
  // 128 threads measured the same as 256; 384 threads, two blocks an SM, lost; 64 and 96
  // were not measured: their runs stopped at the workspace's sizing, since mended.)  The rows
  // above and below were chosen at 256 threads.
  int striped_threads = 128;
  // rows of the striped tiles of several lines or with head flags, whose states are
  // segmented (H100, single sum, x copy, segmented by 1-byte flags at 2^26 / 4096x4096 along
  // dim 1: 8 rows 1.15 / 1.17-1.19; 10 rows 1.13 / 1.15-1.18 (a spilled word); 12 rows
  // 1.18 / 1.24; the staged tile 1.27 / 1.28; H200, segmented at 2^26, rows without a
  // segment start scanned plainly: 8 rows 1.28, 10 rows 1.24, 12 rows 1.27; with the L2
  // prefetch and the flags gathered by a multiply, commit d45052e: 8 rows 1.23-1.25, 10 rows
  // 1.21, 12 rows 1.24, bench/results/variants-starts-gather-H200-2026-11-24.txt; with the
  // flags loaded first, commit 69d4d3c, 10 rows 1.15; in the standalone prototype of that tile,
  // 12 rows spilled under the 80 registers and took 1.21 against 1.13 for 10 rows,
  // segmented-flags-order-H200-2026-11-25.txt)
  int striped_rows_lines = 10;
  // lanes kernels (scans across contiguous vectors): aim for this many threads in flight,
  // and never cut a lane's run along the dimension shorter than min_chunk steps
  // (H200, 4096x4096 along dim 2, x copy, double / single; batch 8 unless said:
  // min chunk 64: 2.14 / 2.68 (batch 16: 2.05 / 2.25); 256: 1.72 / 2.27 (batch 16:
  // 1.75 / 2.25): longer chunks, fewer carries, fewer threads that stream better)
  long long lanes_min_chunk = 256;
  int lanes_batch = 8;
  // elements of lanes a thread of a lane tile holds: 128 bytes in flight (H100, 4096x4096
  // along dim 2, x copy: 16 steps of doubles 1.07, of singles 1.49)
  int lane_items_4b = 32;
  int lane_items_8b = 16;
  // Where the state is the element and inner a multiple of vec: vec neighbouring lanes
  // side by side, one 16-byte vector a step, vec_items elements a thread (vec_items / vec
  // steps).  H200, 4096x4096 along dim 2, x copy, the three algorithms (the same kernel):
  // doubles 1.11 -> 1.07 in vectors of 2 (32 items 1.41); singles one lane a thread 1.23-1.26,
  // in vectors of 4 at 32 items 1.24-1.28, at 64 items (16 steps; half the row tiles, so
  // half the look-backs a lane) 1.14
  int lane_vec_4b = 4;
  int lane_vec_items_4b = 64;
  int lane_vec_8b = 2;
  int lane_vec_items_8b = 16;
};

}  // namespace gsk

#ifdef GSK_EXPERIMENT
#include "../bench/experiment_shapes.cuh"
namespace gsk { constexpr shape_values shapes = experiment_shapes (); }
#else
namespace gsk { constexpr shape_values shapes = {}; }
#endif

namespace gsk {

// What the launch bounds assume of the architecture a device pass compiles for (the
// CUDA C++ Programming Guide's table of compute capabilities: shared memory an SM, the
// most resident threads an SM; 1 KiB reserved a block from sm_80).  In the host pass the
// bounds mean nothing; sm_90's values stand there.
struct arch_limits { int smem_per_sm; int smem_reserved_per_block; int threads_per_sm; };
constexpr arch_limits limits_of_arch (int arch)
{
  return arch >= 1000 ? arch_limits { 228 * 1024, 1024, 2048 }   // sm_100
         : arch >= 900 ? arch_limits { 228 * 1024, 1024, 2048 }  // sm_90
         : arch == 870 ? arch_limits { 164 * 1024, 1024, 2048 }  // sm_87
         : arch >= 860 ? arch_limits { 100 * 1024, 1024, 1536 }  // sm_86, sm_89
         : arch >= 800 ? arch_limits { 164 * 1024, 1024, 2048 }  // sm_80
         : arch_limits { 64 * 1024, 0, 1024 };                   // sm_75
}
#ifdef __CUDA_ARCH__
constexpr arch_limits compiled_arch = limits_of_arch (__CUDA_ARCH__);
#else
constexpr arch_limits compiled_arch = limits_of_arch (900);
#endif
// blocks of `threads` threads and `smem` bytes of shared memory an SM of the compiled
// architecture holds (at most `most`)
constexpr int blocks_fitting (int smem, int threads, int most = 1 << 30)
{
  const int per_block = smem + compiled_arch.smem_reserved_per_block;
  const int by_smem = per_block > 0 ? compiled_arch.smem_per_sm / per_block : 1 << 30;
  const int by_threads = compiled_arch.threads_per_sm / threads;
  const int n = by_smem < by_threads ? by_smem : by_threads;
  return n < most ? n : most;
}

constexpr int index_items = shapes.index_items;
constexpr long long index_from_values_min = shapes.index_from_values_min;
template <typename T, typename S>
struct tile_shape
{
  static constexpr int items = sizeof (T) >= 16 ? (sizeof (T) == 16 && sizeof (S) <= 24 ? shapes.items_16b : 4)
                               : sizeof (S) > 32 ? 4
                               : sizeof (S) > 16 ? (sizeof (T) >= 8 ? shapes.items_8b_indexed : shapes.items_4b_indexed)
                               : sizeof (T) >= 8 ? shapes.items_8b : sizeof (T) <= 2 ? shapes.items_narrow
                               : shapes.items_4b;
  static constexpr int size = block_threads * items;
};

template <typename T>
constexpr int exact_pass_items = sizeof (T) >= 8 ? shapes.exact_items_8b : shapes.exact_items_4b;

// The decoupled scan of large arrays of small elements with small states.  Blocks an SM
// the compiler must allow for with its registers: as many as fit the shared memory (8 of
// 4-byte and of 8-byte floating tiles: 32 registers a thread).  Left to itself it took
// 43-53 registers in some builds, and singles then ran 1.44x the copy time instead of
// 1.15x.  8-byte integer sums keep the compiler's choice (above).  (At small sizes, where
// few tiles are in flight, 32 registers slow the default tiles down: double 2^20 1.30x ->
// 1.76x.)  The size from which they apply: tuning_tables.cuh (wide_tile_from).
template <typename T, typename S>
struct wide_tile_shape
{
  // (1- and 2-byte elements: their native sums, the only such operators with small states,
  // keep the default tile, no second kernel)
  static constexpr bool wide = sizeof (T) >= 4 && sizeof (T) <= 8 && sizeof (S) <= 16;
  static constexpr bool integer_8byte = sizeof (T) == 8 && std::is_integral<T>::value;
  static constexpr int items = ! wide ? tile_shape<T, S>::items
                               : sizeof (T) != 8 ? shapes.items_4b_large
                               : integer_8byte ? shapes.items_8b_large_int : shapes.items_8b_large;
  static constexpr int threads = ! wide ? block_threads : integer_8byte ? shapes.wide_threads_int
                                 : shapes.wide_threads;
  static constexpr int size = threads * items;
  // registers held to as many blocks an SM as fit (8-byte integer sums: the compiler's)
  static constexpr bool bounded = wide && ! integer_8byte;
};

constexpr int striped_rows = shapes.striped_rows;
constexpr int striped_threads = shapes.striped_threads;
constexpr int striped_rows_lines = shapes.striped_rows_lines;
// blocks an SM its registers must allow for: 768 threads, 80 registers a thread (at 256
// threads a block, left to itself the compiler took 95, and two blocks an SM; native sums
// spill a little, and still win)
constexpr int striped_min_blocks = blocks_fitting (0, striped_threads, 3 * 256 / striped_threads);

// blocks an SM the line blocks' registers must allow for, for single sums and products:
// as many as their shared memory lets in (sm_90: 8 tiles of 4096) (left to itself the compiler
// took 63 registers, 4 blocks an SM; H200, 4096x4096 along dim 1: 1.23 -> 1.10x a device
// copy).  Doubles keep the compiler's 64 registers and 4 blocks: held to 6 blocks (40
// registers) they went 1.06 -> 1.10x.
template <typename T, typename S>
struct line_blocks_shape
{
  static constexpr bool bounded = std::is_floating_point<T>::value && sizeof (T) == 4
                                  && sizeof (S) <= 16;
};

// items per thread when scanning arrays of states (upper levels of the hierarchy)
constexpr int state_items = 4;

constexpr long long lanes_min_chunk = shapes.lanes_min_chunk;
// elements a lanes thread loads ahead before scanning them
constexpr int lanes_batch = shapes.lanes_batch;
// lane tiles (32 lanes a block) from this many lanes in a slice: narrower slices leave
// most of each warp idle and take the lane runs
constexpr long long lane_tiles_min_inner = 32;
template <typename T>
struct lane_tile_shape
{
  static constexpr int items = sizeof (T) >= 16 ? 8 : sizeof (T) >= 8 ? shapes.lane_items_8b : shapes.lane_items_4b;
  static constexpr int vec = sizeof (T) == 4 ? shapes.lane_vec_4b : sizeof (T) == 8 ? shapes.lane_vec_8b : 1;
  static constexpr int vec_items = sizeof (T) == 4 ? shapes.lane_vec_items_4b
                                   : sizeof (T) == 8 ? shapes.lane_vec_items_8b : items;
};

// stream compaction: elements per thread of a tile (tile = block_threads * compact_items)
constexpr int compact_items = 8;

}  // namespace gsk

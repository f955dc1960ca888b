// Tuning constants of the kernels, apart from the algorithms.
#pragma once

#include <type_traits>

namespace gsk {

// threads per block of every tile kernel
constexpr int block_threads = 256;

// items per thread of a tile: enough bytes in flight per thread to cover memory latency,
// few enough that the tile, its head flags and the block scan's buffers fit in 48 KiB of
// static shared memory (the Kogge-Stone buffers hold two states per thread)
// (measured on an H200, decoupled double sum at 2^24..2^26: 16 items 1.37-1.43x the copy
// time, 8 items 1.70-1.82x)
#ifndef GSK_ITEMS_8B
#define GSK_ITEMS_8B 16   // 8-byte elements with states of up to 16 bytes (sums, products)
#endif
// 4-byte elements (H200, decoupled single sum, us at 2^16 / x copy at 2^24 / at 2^28):
// 12 items 9.1 / 1.58 / 1.58; 16 items 10.9 / 1.35 / 1.44; 24 items 12.3 / 1.39 / 1.29.
// 24 wins for large arrays and loses the 2^16 target (<= 10 us): the decoupled scan
// takes 16 below wide_tile_from elements and 24 from there (single sum and product, the
// only 4-byte operators with states of up to 16 bytes: two more kernels).
#ifndef GSK_ITEMS_4B
#define GSK_ITEMS_4B 16   // 4-byte elements with states of up to 16 bytes
#endif
// 1- and 2-byte elements (their native sums, the only such operators with states of up
// to 16 bytes; H200, saturating data, us at 2^16 / 2^24, int8 and int16: 16 items 6.6 /
// 69.4, 5.9 / 58.6; 32 items 8.0 / 47.7, 7.2 / 44.6; 64 items 10.8 / 38.6, 9.7 / 43.3,
// bench/results/native-narrow-sums-H200-2026-11-25.txt).  16: small arrays pay for more,
// and the 1- and 2-byte unit's code grows with them.
#ifndef GSK_ITEMS_NARROW
#define GSK_ITEMS_NARROW 16
#endif
#ifndef GSK_ITEMS_4B_LARGE
#define GSK_ITEMS_4B_LARGE 24
#endif
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
#ifndef GSK_ITEMS_8B_LARGE
#define GSK_ITEMS_8B_LARGE 12
#endif
#ifndef GSK_ITEMS_8B_LARGE_INT
#define GSK_ITEMS_8B_LARGE_INT 16
#endif
// Elements with states of 17-32 bytes (max and min with the index: the value, its
// position, the segment head).  H200, [m, i] = cummax of 2^26 doubles, x a copy of x and
// y: 8 items 3.63, 12 items 2.90, 16 items 2.94 (and the hierarchical scans 5-8% faster at
// 12 than at 8; bench/results/variants-indexed-items-H200-2026-11-23.txt); singles: 8 items
// 5.75, 16 items 4.25, 24 items 4.29 (x a copy of x and y, 8 bytes an element: the index
// adds 8 more; variants-indexed-items-single-H200-2026-11-23.txt)
#ifndef GSK_ITEMS_8B_INDEXED
#define GSK_ITEMS_8B_INDEXED 12
#endif
#ifndef GSK_ITEMS_4B_INDEXED
#define GSK_ITEMS_4B_INDEXED 16
#endif
// The index output of max and min from their values (extremum_index.cuh): items a
// thread of the positions' tiles, and the elements from which scans take that way (below,
// minmax_op's (value, index) states in one pass).  [m, i] = cummax, x a copy of x and y,
// single / double at 2^24 and 2^26: H200 8 items 3.32 / 2.43, 3.43 / 2.33; 12 items 3.09 /
// 2.35, 3.09 / 2.25; 16 items 3.08 / 2.34, 3.06 / 2.24 (24 need 50 KB of static shared
// memory); one pass of minmax_op 4.25 / 2.84 at 2^26 (commit d45052e).  H100, 16 items against
// one pass in the same run: 2^24 2.75 / 2.10 against 3.18 / 2.25, 2^26 2.63 / 2.05
// against 3.23 / 2.19; at 2^16 and 2^20 within the noise of the run (16-18 us, 20-28 us).
// (bench/results/variants-index-*-2026-11-24.txt)
#ifndef GSK_INDEX_ITEMS
#define GSK_INDEX_ITEMS 16
#endif
constexpr int index_items = GSK_INDEX_ITEMS;
#ifndef GSK_INDEX_FROM_VALUES_MIN
#define GSK_INDEX_FROM_VALUES_MIN 0
#endif
constexpr long long index_from_values_min = GSK_INDEX_FROM_VALUES_MIN;
template <typename T, typename S>
struct tile_shape
{
  static constexpr int items = sizeof (T) >= 16 ? 4 : sizeof (S) > 32 ? 4
                               : sizeof (S) > 16 ? (sizeof (T) >= 8 ? GSK_ITEMS_8B_INDEXED : GSK_ITEMS_4B_INDEXED)
                               : sizeof (T) >= 8 ? GSK_ITEMS_8B : sizeof (T) <= 2 ? GSK_ITEMS_NARROW
                               : GSK_ITEMS_4B;
  static constexpr int size = block_threads * items;
  static constexpr int min_blocks = 0;   // (none: the compiler's choice of registers)
};

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
#ifndef GSK_EXACT_ITEMS_8B
#define GSK_EXACT_ITEMS_8B 16
#endif
#ifndef GSK_EXACT_ITEMS_4B
#define GSK_EXACT_ITEMS_4B 16
#endif
template <typename T>
constexpr int exact_pass_items = sizeof (T) >= 8 ? GSK_EXACT_ITEMS_8B : GSK_EXACT_ITEMS_4B;

// The decoupled scan of large arrays of small elements with small states.  Blocks an SM
// the compiler must allow for with its registers: as many as fit the shared memory (8 of
// 4-byte and of 8-byte floating tiles: 32 registers a thread).  Left to itself it took
// 43-53 registers in some builds, and singles then ran 1.44x the copy time instead of
// 1.15x.  8-byte integer sums keep the compiler's choice (above).  (At small sizes, where
// few tiles are in flight, 32 registers slow the default tiles down: double 2^20 1.30x ->
// 1.76x.)
constexpr long long wide_tile_from = 1LL << 21;
// threads of a wide tile's block (CUB's sm_90 tuning: 128 for 4-byte sums, 224 for 8-byte)
#ifndef GSK_WIDE_THREADS
#define GSK_WIDE_THREADS 256
#endif
#ifndef GSK_WIDE_THREADS_INT
#define GSK_WIDE_THREADS_INT 256   // 8-byte integer sums
#endif
// shared memory an SM and what the GPU reserves of it for each block (Hopper: 228 and 1
// KiB): with the threads, they bound the blocks an SM (launch.cuh: blocks_fitting)
constexpr int smem_per_sm = 228 * 1024;
constexpr int smem_reserved_per_block = 1024;
constexpr int threads_per_sm = 2048;
template <typename T, typename S>
struct wide_tile_shape
{
  // (1- and 2-byte elements: their native sums, the only such operators with small states,
  // keep the default tile, no second kernel)
  static constexpr bool wide = sizeof (T) >= 4 && sizeof (T) <= 8 && sizeof (S) <= 16;
  static constexpr bool integer_8byte = sizeof (T) == 8 && std::is_integral<T>::value;
  static constexpr int items = ! wide ? tile_shape<T, S>::items
                               : sizeof (T) != 8 ? GSK_ITEMS_4B_LARGE
                               : integer_8byte ? GSK_ITEMS_8B_LARGE_INT : GSK_ITEMS_8B_LARGE;
  static constexpr int threads = ! wide ? block_threads : integer_8byte ? GSK_WIDE_THREADS_INT
                                 : GSK_WIDE_THREADS;
  static constexpr int size = threads * items;
  // registers held to as many blocks an SM as fit (8-byte integer sums: the compiler's)
  static constexpr bool bounded = wide && ! integer_8byte;
};

// rows of the striped tile (striped_scan.cuh: 4-byte plain vectors from wide_tile_from
// elements): 16 bytes a thread each, held in registers (H100, single sum, x copy at
// 2^24 / 2^26 / 2^28: 12 rows 1.126 / 1.112 / 1.099; 8 rows 1.162 / 1.137 / 1.134;
// the staged tile of 24 items 1.239 / 1.178 / 1.154 in the same run; int32 native sum
// at 2^28: 12 rows 1.11, 10 rows 1.15, 8 rows 1.22, the staged tile 1.16)
#ifndef GSK_STRIPED_ROWS
#define GSK_STRIPED_ROWS 12
#endif
constexpr int striped_rows = GSK_STRIPED_ROWS;
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
#ifndef GSK_STRIPED_THREADS
#define GSK_STRIPED_THREADS 128
#endif
constexpr int striped_threads = GSK_STRIPED_THREADS;
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
#ifndef GSK_STRIPED_ROWS_LINES
#define GSK_STRIPED_ROWS_LINES 10
#endif
constexpr int striped_rows_lines = GSK_STRIPED_ROWS_LINES;
// blocks an SM its registers must allow for: 768 threads, 80 registers a thread (at 256
// threads a block, left to itself the compiler took 95, and two blocks an SM; native sums
// spill a little, and still win)
constexpr int striped_min_blocks = 3 * 256 / striped_threads;

// batched lines (inner == 1) of a tile or more take a block each from this many lines:
// enough blocks for every SM, with no look-back between them (line_blocks_kernel)
constexpr long long line_blocks_min_lines = 1024;
// blocks an SM the line blocks' registers must allow for, for single sums and products:
// as many as their shared memory lets in, 8 tiles of 4096 (left to itself the compiler
// took 63 registers, 4 blocks an SM; H200, 4096x4096 along dim 1: 1.23 -> 1.10x a device
// copy).  Doubles keep the compiler's 64 registers and 4 blocks: held to 6 blocks (40
// registers) they went 1.06 -> 1.10x.
template <typename T, typename S>
struct line_blocks_shape
{
  static constexpr int min_blocks = std::is_floating_point<T>::value && sizeof (T) == 4
                                    && sizeof (S) <= 16 ? 8 : 0;
};

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
#ifndef GSK_LOOK_BACK_WAIT_NS
#define GSK_LOOK_BACK_WAIT_NS 1200
#endif
#ifndef GSK_LOOK_BACK_POLL_NS
#define GSK_LOOK_BACK_POLL_NS 600
#endif
constexpr unsigned look_back_wait_ns = GSK_LOOK_BACK_WAIT_NS;
constexpr unsigned look_back_poll_ns = GSK_LOOK_BACK_POLL_NS;

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
#ifndef GSK_L2_PREFETCH_TILES_PER_SM
#define GSK_L2_PREFETCH_TILES_PER_SM 2
#endif
constexpr int l2_prefetch_tiles_per_sm = GSK_L2_PREFETCH_TILES_PER_SM;

// items per thread when scanning arrays of states (upper levels of the hierarchy)
constexpr int state_items = 4;

// lanes kernels (scans across contiguous vectors): aim for this many threads in flight,
// and never cut a lane's run along the dimension shorter than min_chunk steps
// (H200, 4096x4096 along dim 2, x copy, double / single; batch 8 unless said:
// min chunk 64: 2.14 / 2.68 (batch 16: 2.05 / 2.25); 256: 1.72 / 2.27 (batch 16:
// 1.75 / 2.25): longer chunks, fewer carries, fewer threads that stream better)
#ifndef GSK_LANES_MIN_CHUNK
#define GSK_LANES_MIN_CHUNK 256
#endif
#ifndef GSK_LANES_BATCH
#define GSK_LANES_BATCH 8
#endif
constexpr long long lanes_target_threads = 132LL * 2048 * 2;
constexpr long long lanes_min_chunk = GSK_LANES_MIN_CHUNK;
// elements a lanes thread loads ahead before scanning them
constexpr int lanes_batch = GSK_LANES_BATCH;
// lane tiles (32 lanes a block) from this many lanes in a slice: narrower slices leave
// most of each warp idle and take the lane runs
constexpr long long lane_tiles_min_inner = 32;
// elements of lanes a thread of a lane tile holds: 128 bytes in flight (H100, 4096x4096
// along dim 2, x copy: 16 steps of doubles 1.07, of singles 1.49)
#ifndef GSK_LANE_ITEMS_4B
#define GSK_LANE_ITEMS_4B 32
#endif
#ifndef GSK_LANE_ITEMS_8B
#define GSK_LANE_ITEMS_8B 16
#endif
// Where the state is the element and inner a multiple of vec: vec neighbouring lanes
// side by side, one 16-byte vector a step, vec_items elements a thread (vec_items / vec
// steps).  H200, 4096x4096 along dim 2, x copy, the three algorithms (the same kernel):
// doubles 1.11 -> 1.07 in vectors of 2 (32 items 1.41); singles one lane a thread 1.23-1.26,
// in vectors of 4 at 32 items 1.24-1.28, at 64 items (16 steps; half the row tiles, so
// half the look-backs a lane) 1.14
#ifndef GSK_LANE_VEC_4B
#define GSK_LANE_VEC_4B 4
#endif
#ifndef GSK_LANE_VEC_ITEMS_4B
#define GSK_LANE_VEC_ITEMS_4B 64
#endif
#ifndef GSK_LANE_VEC_8B
#define GSK_LANE_VEC_8B 2
#endif
#ifndef GSK_LANE_VEC_ITEMS_8B
#define GSK_LANE_VEC_ITEMS_8B 16
#endif
template <typename T>
struct lane_tile_shape
{
  static constexpr int items = sizeof (T) >= 16 ? 8 : sizeof (T) >= 8 ? GSK_LANE_ITEMS_8B : GSK_LANE_ITEMS_4B;
  static constexpr int vec = sizeof (T) == 4 ? GSK_LANE_VEC_4B : sizeof (T) == 8 ? GSK_LANE_VEC_8B : 1;
  static constexpr int vec_items = sizeof (T) == 4 ? GSK_LANE_VEC_ITEMS_4B
                                   : sizeof (T) == 8 ? GSK_LANE_VEC_ITEMS_8B : items;
};

}  // namespace gsk

namespace gsk {

// grid-stride element-wise kernels (class conversion, head flags): at most this many blocks
constexpr long long elementwise_max_blocks = 132LL * 8;

// native (saturating) sums of 4- and 8-byte integers take the wrapping fast path (and
// the exact pass only where it left the range) from this many bytes: since the exact
// pass waits on the device, at every size (H100, 2^16 elements against the exact scan
// alone: int32 14.1 -> 10.3 us, int64 19.5 -> 11.5 us; in commit faf01f0, against the exact
// scan as commits a227c87-ea10b3a sped it up: int32 11.0 -> 9.0, int64 16.2 -> 9.7, 2^20 48.0 -> 13.6;
// bench/results/variants-fast-satsum-min-H100-2026-11-25.txt)
#ifndef GSK_FAST_SATSUM_MIN_BYTES
#define GSK_FAST_SATSUM_MIN_BYTES 0
#endif
constexpr long long fast_satsum_min_bytes = GSK_FAST_SATSUM_MIN_BYTES;

// stream compaction: elements per thread of a tile (tile = block_threads * compact_items)
constexpr int compact_items = 8;

}  // namespace gsk

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

// The kernels' compiled shapes.  One line each says what the value is and where it was
// measured; doc/performance.md ("Tuning") has the runs that chose it.  An experiment
// build passes other values in (GSK_SHAPES_FROM, below).
struct shape_values
{
  // items a thread of a tile, by element and state size: bytes enough in flight, a tile
  // small enough for 48 KiB of static shared memory
  int items_8b = 16;             // 8-byte elements, states to 16 bytes: H200
  int items_4b = 16;             // 4-byte, below wide_tile_from elements: H200
  int items_4b_large = 24;       // 4-byte from wide_tile_from elements: H200
  int items_narrow = 16;         // 1- and 2-byte (native sums): H200 2026-11-25
  int items_8b_large = 12;       // 8-byte floats, from wide_tile_from: H100, H200 2026-11-24
  int items_8b_large_int = 16;   // 8-byte integer sums, from wide_tile_from: H200 2026-11-24
  int items_8b_indexed = 12;     // states of 17-32 bytes (max with the index): H200 2026-11-23
  int items_4b_indexed = 16;     // the same of 4-byte elements: H200 2026-11-23
  int items_16b = 6;             // 16-byte elements (complex doubles, recurrence pairs): H200 2026-11-27
  // the index output of max and min found from their values (extremum_index.cuh):
  // items a thread of the positions' tiles, and the size from which scans take that way
  int index_items = 16;          // H100, H200 2026-11-24
  long long index_from_values_min = 0;
  // items a thread of a native sum's exact pass (clamp-map states: fewer, larger tiles;
  // no smaller than the tiles whose status words the workspace holds, plan::pass)
  int exact_items_8b = 16;       // H100 2026-11-25
  int exact_items_4b = 16;       // H100 2026-11-25
  // threads of a wide tile's block (CUB's sm_90 tuning: 128 for 4-byte sums, 224 for 8-byte)
  int wide_threads = 256;        // H200
  int wide_threads_int = 256;    // 8-byte integer sums: H200
  // the striped register tiles (striped_scan.cuh: 4-byte plain vectors from
  // wide_tile_from elements): rows of 16 bytes a thread, and threads a block
  int striped_rows = 12;         // H100
  int striped_threads = 128;     // six blocks an SM: H100, H200 2026-11-26
  int striped_rows_lines = 10;   // several lines or head flags: H100, H200 2026-11-25
  int striped_rows_narrow = 8;   // 1- and 2-byte elements: no spill under the cap, sm_90 ptxas
  // lanes kernels (scans across contiguous vectors): no lane run cut shorter than
  // min_chunk steps; elements a thread loads ahead
  long long lanes_min_chunk = 256;   // H200
  int lanes_batch = 8;               // H200
  // elements a thread of a lane tile holds: 128 bytes in flight
  int lane_items_4b = 32;        // H100
  int lane_items_8b = 16;        // H100
  // where the state is the element: neighbouring lanes side by side in 16-byte vectors,
  // vec lanes a thread, vec_items elements a thread
  int lane_vec_4b = 4;           // H200 2026-11-24
  int lane_vec_items_4b = 64;    // H200 2026-11-24
  int lane_vec_8b = 2;           // H200 2026-11-24
  int lane_vec_items_8b = 16;    // H200 2026-11-24
};

}  // namespace gsk

// An experiment build (tools/device-check.sh's variants) names, in GSK_SHAPES_FROM, a
// header that defines experiment_shapes () (bench/experiment_shapes.cuh)
#ifdef GSK_SHAPES_FROM
#include GSK_SHAPES_FROM
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
constexpr int striped_rows_narrow = shapes.striped_rows_narrow;
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

// gpuscan_filter (auxiliary/filter.cu): the orders it runs (the CPU engine's unrolled
// ones), the steps of a block where few long channels run in blocks, the threads of its
// step kernel, the channels from which every channel runs whole, a thread each, and the
// threads and staged inputs of a block of its chains
constexpr int filter_max_order = 8;                  // cpu_tuning.h's FILTER_UNROLLED_ORDER
constexpr int filter_block_steps = 256;              // sm_90 estimate: 8 loads a lane in flight
constexpr int filter_threads = 128;                  // a 36 KB stage: 6 blocks an SM on sm_90
constexpr int filter_loads_in_flight = 16;           // of a lane's 32 a stage round: sm_90 estimate
constexpr long long filter_channels_min = 1 << 16;   // sm_90 estimate: 2^16 threads ~ 1/4 of 132 SMs
constexpr int filter_chain_threads = 256;            // 32 KB of inputs staged a round: sm_90 estimate
constexpr int filter_chain_stage = 512;

// "groups" of few labels (auxiliary/groups.cu): each warp runs a tile of its own, with a
// state for each label in shared memory, whose bytes bound the labels it takes; the
// warps of a block; the rounds of 32 elements a lane loads ahead; a tile's elements per
// label at least (the tiles' per-label totals then stay within 1/8 of x's elements),
// and at least label_tile_min
constexpr int label_states_bytes = 8192;       // sm_90 estimate: 7 blocks, 28 warps an SM
constexpr int label_warps = 4;
constexpr int label_rounds = 8;                // sm_90 estimate: 16 bytes of x and label a round
constexpr int label_tile_per_label = 8;
constexpr int label_tile_min = 2048;

}  // namespace gsk

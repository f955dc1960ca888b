// Device-wide scan strategies: kernels and the plan that launches them for one operator.
//   decoupled:   one pass; each tile publishes its aggregate, looks back over its
//                predecessors' published states for its prefix (Merrill & Garland 2016)
//   line blocks: the decoupled scan of many lines of a tile or more: a block a line, its
//                tiles in turn, no look-back
//   hierarchical (kogge-stone, brent-kung): reduce each tile, scan the tile totals
//                (recursively), scan each tile from its carry
//   lanes:       scans across contiguous vectors (inner > 1; lanes_scan.cuh)
// plan<Op> is instantiated once per operator, in the ops_*.cu units (see op_list.h),
// so that the build runs them in parallel.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <type_traits>

#include "agent/extremum_index.cuh"
#include "agent/lanes_scan.cuh"
#include "agent/look_back.cuh"
#include "agent/redo_gate.cuh"
#include "agent/striped_scan.cuh"
#include "agent/tile_io.cuh"
#include "agent/workspace.cuh"
#include "block/block_scan.cuh"
#include "dispatch/kernel_types.h"
#include "dispatch/launch.cuh"
#include "ops/scan_ops.cuh"
#include "tuning/tuning.cuh"

namespace gsk {

// The operators whose staged tiles read x in a narrower class (line_args: input): the
// sums into double of logical, integer and single input (Octave's cumsum of them), which
// would otherwise take a pass that converts x first.  Others compile no such loads.
template <typename Op> struct reads_narrow : std::false_type {};
template <> struct reads_narrow<sum_op<double>> : std::true_type {};

// the bytes of an element of x as Op's kernels read it (tile_io.cuh: input_bytes)
template <typename Op>
__device__ __forceinline__ int x_bytes (const line_args& g)
{
  typedef typename element_access<typename Op::elem>::out O;
  if constexpr (reads_narrow<Op>::value)
    return input_bytes<O> (g);
  return (int) sizeof (O);
}

// ---- a thread's run of ITEMS consecutive elements of a staged tile ----------------
// Most runs lie inside one line, without head flags, in a whole tile (a full one, or the
// partial last tile of a forward scan: tile_io::whole): those take a loop with nothing
// but the operator in it.  Runs of a whole tile with lines of ITEMS or more elements and
// full (staged) head flags or none have at most one line start inside them, at `cut`
// (ITEMS: none): those take a loop with a select per element; the rest (a reverse scan's
// partial tile, short lines, per-step flags) walks the lines element by element.
// (Asking per run whether it lies whole inside the tile, instead of per tile, took the
// native int64 sum's tile from 40 to 48 registers, 6 to 5 blocks an SM: 1.11 -> 1.14x a
// copy at 2^28, H100.)

// the segmented state of the run
template <typename Op, typename io, int ITEMS>
__device__ __forceinline__ seg<Op> fold_run (const line_args& g, const io& t,
                                             const typename io::storage& st,
                                             const uint8_t *h, int first)
{
  line_walker w (g, t.p0 + first);
  if (t.whole (g) && g.len >= ITEMS && (! g.heads || g.heads_full))
    {
      const int cut = (int) min ((int64_t) ITEMS, g.len - w.k);
      if (! g.heads && cut == ITEMS)
        {
          run_fold<Op> f;
#pragma unroll
          for (int i = 0; i < ITEMS; i++)
            {
              const int64_t k = w.k + i;
              f.step (st.v[io::pad (t.phys_whole (g, first + i))], g.reverse ? g.len - 1 - k : k);
            }
          return { f.state (), w.k == 0 };
        }
      seg<Op> run = { Op::identity (), w.k == 0 };
#pragma unroll
      for (int i = 0; i < ITEMS; i++)
        {
          const int ph = t.phys_whole (g, first + i);
          const int64_t k = i < cut ? w.k + i : w.k + i - g.len;
          const bool starts = i == cut || (g.heads && h[ph]);
          run = seg_combine<Op> (run, seg<Op> { Op::lift (st.v[io::pad (ph)],
                                                          g.reverse ? g.len - 1 - k : k), starts });
        }
      return run;
    }
  seg<Op> run = seg_identity<Op> ();
#pragma unroll
  for (int i = 0; i < ITEMS; i++, w.next ())
    if (first + i < t.cnt)
      {
        const int ph = t.phys (g, first + i);
        const uint8_t hb = g.heads && g.heads_full ? h[ph] : 0;
        run = seg_combine<Op> (run, seg<Op> { Op::lift (st.v[io::pad (ph)], w.kphys (g)),
                                              w.starts (g, hb) });
      }
  return run;
}

// scan the run from its prefix, writing outputs over the staged inputs (and indices);
// true when a step left the range of a checked sum
template <typename Op, typename io, int ITEMS>
__device__ __forceinline__ bool scan_run (const line_args& g, const io& t,
                                          typename io::storage& st, const uint8_t *h,
                                          double *ix_st, int first, const typename Op::A& prefix)
{
  typedef typename Op::elem T;
  typedef runner<Op> R;
  typename R::V value = R::start (prefix);
  bool left = false;
  line_walker w (g, t.p0 + first);
  // one element: emit and step in the order the mode asks for
  auto visit = [&] (int ph, int64_t kp) {
    T *slot = &st.v[io::pad (ph)];
    double *ix = ix_st ? ix_st + io::pad (ph) : nullptr;
    const T x = *slot;
    left |= leaves_range<R> (value, x);
    if (g.exclusive)
      {
        R::emit (exclusive_output<Op>::of (value), slot, ix);
        value = R::step (value, x, kp);
      }
    else
      {
        value = R::step (value, x, kp);
        R::emit (value, slot, ix);
      }
  };
  if (t.whole (g) && g.len >= ITEMS && (! g.heads || g.heads_full))
    {
      const int cut = (int) min ((int64_t) ITEMS, g.len - w.k);
      if (w.k == 0)
        value = R::reset ();
      if (! g.heads && cut == ITEMS)
        {
#pragma unroll
          for (int i = 0; i < ITEMS; i++)
            visit (t.phys_whole (g, first + i), g.reverse ? g.len - 1 - (w.k + i) : w.k + i);
          return left;
        }
#pragma unroll
      for (int i = 0; i < ITEMS; i++)
        {
          const int64_t k = i < cut ? w.k + i : w.k + i - g.len;
          const int ph = t.phys_whole (g, first + i);
          if (i == cut || (g.heads && h[ph]))
            value = R::reset ();
          visit (ph, g.reverse ? g.len - 1 - k : k);
        }
      return left;
    }
#pragma unroll
  for (int i = 0; i < ITEMS; i++, w.next ())
    if (first + i < t.cnt)
      {
        const int ph = t.phys (g, first + i);
        if (w.starts (g, g.heads && g.heads_full ? h[ph] : 0))
          value = R::reset ();
        visit (ph, w.kphys (g));
      }
  return left;
}

// ---- one tile ---------------------------------------------------------------------
// Each thread folds its run, the block scans the runs, the tile's prefix comes from its
// prefix source, then each thread scans its run again from its prefix.

// Shared memory of the staged tile kernels.
template <typename Op, template <typename, int> class BlockScan, int ITEMS, int THREADS = block_threads>
struct tile_storage
{
  typename tile_io<typename Op::elem, THREADS, ITEMS>::storage tile;
  typename BlockScan<Op, THREADS>::storage scan;
  seg<Op> prefix;
};

// Their dynamic shared memory (plan::staged_smem), only what the call has: without it
// more blocks fit an SM.  First the indices of max and min where they are asked for:
// staged so that they leave coalesced like the values (each thread storing its own run
// straight to memory, [m, i] = cummax of 2^26 singles took 8.4x a copy of x and y, H200),
// then full head flags.
template <typename Op, typename io>
struct staged_extras
{
  // (no index code in the other operators' kernels)
  static constexpr bool indexed = std::is_same<typename Op::A, value_index<typename Op::elem>>::value;
  double *ix;
  uint8_t *heads;
  __device__ __forceinline__ explicit staged_extras (const line_args& g)
  {
    extern __shared__ uint4 dynamic_words[];
    char *p = reinterpret_cast<char *> (dynamic_words);
    ix = indexed && g.ix ? reinterpret_cast<double *> (p) : nullptr;
    heads = reinterpret_cast<uint8_t *> (ix ? p + io::index_bytes : p);
  }
};

// Prefix sources: every thread calls one with the tile's total and gets the tile's
// exclusive prefix.  decoupled: prefix_by_look_back (look_back.cuh).
// hierarchical: the scanned tile totals
template <typename Op>
struct prefix_by_carries
{
  const seg<Op> *carries;
  __device__ __forceinline__ seg<Op> operator() (int64_t tile, const seg<Op>&, seg<Op>&) const
  { return carries[tile]; }
};

// line blocks: the total of the block's tiles so far, which every thread keeps
template <typename Op>
struct prefix_by_running_total
{
  seg<Op> running;
  __device__ __forceinline__ seg<Op> operator() (int64_t, const seg<Op>& total, seg<Op>&)
  {
    const seg<Op> p = running;
    running = seg_combine<Op> (running, total);
    return p;
  }
};

// the look-back's prefetch of a later tile's input (tile_io.cuh: prefetch_tile); other
// prefix sources wait on nothing
template <typename Prefix>
__device__ __forceinline__ void prefetch_ahead_of (const Prefix&, const line_args&, int64_t, int) {}
template <typename Op, bool ORDERED>
__device__ __forceinline__ void prefetch_ahead_of (const prefix_by_look_back<Op, ORDERED>& p, const line_args& g,
                                                   int64_t tile, int tile_elems)
{
  prefetch_tile (g, x_bytes<Op> (g), tile, tile_elems,
                 p.prefetch_ahead);
}

template <typename Op, template <typename, int> class BlockScan, int ITEMS, int THREADS, typename Prefix,
          bool NARROW = reads_narrow<Op>::value>
__device__ __forceinline__ void scan_tile (const line_args& g, int64_t tile,
                                           tile_storage<Op, BlockScan, ITEMS, THREADS>& st,
                                           Prefix& prefix_of)
{
  typedef seg<Op> S;
  typedef tile_io<typename Op::elem, THREADS, ITEMS, NARROW> io;
  const io t (g, tile);
  const staged_extras<Op, io> ex (g);
  t.load (st.tile, ex.heads, g);
  prefetch_ahead_of (prefix_of, g, tile, io::size);
  __syncthreads ();

  const int first = threadIdx.x * ITEMS;
  const S run = fold_run<Op, io, ITEMS> (g, t, st.tile, ex.heads, first);
  S excl, total;
  BlockScan<Op, THREADS>::scan (st.scan, run, excl, total);
  const S prefix = prefix_of (tile, total, st.prefix);
  note_redo (g.gate, scan_run<Op, io, ITEMS> (g, t, st.tile, ex.heads, ex.ix, first,
                                             seg_combine<Op> (prefix, excl).a));
  __syncthreads ();
  t.store (st.tile, g);
  if (ex.ix)
    t.store_index (ex.ix, g);
}

template <typename Op, template <typename, int> class BlockScan, typename Prefix,
          int ITEMS = tile_shape<typename Op::elem, seg<Op>>::items, bool TAKE_TILES = false,
          bool BOUNDED = false, int THREADS = block_threads>
__global__ void __launch_bounds__ (THREADS, BOUNDED ? blocks_fitting (sizeof (tile_storage<Op, BlockScan, ITEMS, THREADS>), THREADS) : 0)
tile_scan_kernel (line_args g, Prefix prefix_of)
{
  typedef tile_io<typename Op::elem, THREADS, ITEMS> io;
  __shared__ tile_storage<Op, BlockScan, ITEMS, THREADS> st;
  __shared__ int64_t next_tile_st;
  if (! begin_pass<runner<Op>> (g.gate))
    return;

  // TAKE_TILES (a gated exact pass): a small grid whose blocks take tiles in order from
  // a counter (so that a tile's predecessors always belong to running blocks); otherwise
  // block = tile, once
  const int64_t tiles = (g.n + io::size - 1) / io::size;
  for (int64_t tile = blockIdx.x;; )
    {
      if (TAKE_TILES)
        {
          __syncthreads ();   // the last tile is stored
          if (threadIdx.x == 0)
            next_tile_st = (int64_t) atomicAdd (g.gate.next_tile, 1ULL);
          __syncthreads ();
          tile = next_tile_st;
          if (tile >= tiles)
            return;
        }
      scan_tile (g, tile, st, prefix_of);
      if (! TAKE_TILES)
        return;
    }
}

// Line blocks: batched lines (inner == 1), block b scans line b whole, its tiles in
// order with the carry in registers.  No tile waits on another block's look-back, which
// costs the decoupled scan ~10% (H100) to ~20% (H200) of a copy's time.  They read x in
// the output's class, and gsk_reads_input leaves a narrower x to be converted first: with
// reads_narrow's loads the double sum's kernel spilled and ran 7% slower (H200, 4096x4096
// doubles along dim 1).
template <typename Op>
__global__ void __launch_bounds__ (block_threads,
                                   line_blocks_shape<typename Op::elem, seg<Op>>::bounded
                                   ? blocks_fitting (sizeof (tile_storage<Op, block_scan_shuffle, tile_shape<typename Op::elem, seg<Op>>::items>), block_threads)
                                   : 0)
line_blocks_kernel (line_args g)
{
  typedef typename Op::elem T;
  constexpr int ITEMS = tile_shape<T, seg<Op>>::items;
  typedef tile_io<T, block_threads, ITEMS> io;
  __shared__ tile_storage<Op, block_scan_shuffle, ITEMS> st;
  begin_pass<runner<Op>> (g.gate);   // (never an exact pass: the gate stays open)

  // the line as a scan of its own
  typedef typename element_access<T>::out O;
  const int64_t base = (int64_t) blockIdx.x * g.len;
  line_args l = g;
  l.x = static_cast<const O *> (g.x) + base;
  l.y = static_cast<O *> (g.y) + base;
  if (g.rec.coef && ! g.rec.coef_scalar)
    l.rec.coef = static_cast<const O *> (g.rec.coef) + base;
  l.ix = g.ix ? g.ix + base : nullptr;
  l.heads = g.heads && g.heads_full ? g.heads + base : g.heads;
  l.n = g.len;
  prefix_by_running_total<Op> prefix_of = { seg_identity<Op> () };
  for (int64_t tile = 0; tile * io::size < l.n; tile++)
    {
      if (tile)
        __syncthreads ();   // the last tile is stored
      scan_tile<Op, block_scan_shuffle, ITEMS, block_threads, prefix_by_running_total<Op>, false> (
        l, tile, st, prefix_of);
    }
}

// hierarchical, first phase: each tile's total
template <typename Op, template <typename, int> class BlockScan>
__global__ void __launch_bounds__ (block_threads)
tile_reduce_kernel (line_args g, seg<Op> *totals)
{
  typedef typename Op::elem T;
  typedef seg<Op> S;
  constexpr int ITEMS = tile_shape<T, S>::items;
  typedef tile_io<T, block_threads, ITEMS, reads_narrow<Op>::value> io;
  __shared__ tile_storage<Op, BlockScan, ITEMS> st;
  uint8_t *heads_st = staged_extras<Op, io> (g).heads;

  const io t (g, blockIdx.x);
  t.load (st.tile, heads_st, g);
  __syncthreads ();
  const S run = fold_run<Op, io, ITEMS> (g, t, st.tile, heads_st, threadIdx.x * ITEMS);
  S excl, total;
  BlockScan<Op, block_threads>::scan (st.scan, run, excl, total);
  if (threadIdx.x == 0)
    totals[blockIdx.x] = total;
}

// hierarchical, upper levels: arrays of states.  carries == nullptr: reduce each tile
// into out[]; otherwise scan each tile in place (exclusive) from carries[tile].
template <typename Op, template <typename, int> class BlockScan>
__global__ void __launch_bounds__ (block_threads)
state_tiles_kernel (seg<Op> *a, int64_t n, seg<Op> *out, const seg<Op> *carries)
{
  typedef seg<Op> S;
  typedef BlockScan<Op, block_threads> scan;
  __shared__ typename scan::storage scan_st;
  const int64_t first = ((int64_t) blockIdx.x * block_threads + threadIdx.x) * state_items;
  S run = seg_identity<Op> ();
  for (int i = 0; i < state_items; i++)
    if (first + i < n)
      run = seg_combine<Op> (run, a[first + i]);
  S excl, total;
  scan::scan (scan_st, run, excl, total);
  if (! carries)
    {
      if (threadIdx.x == 0)
        out[blockIdx.x] = total;
      return;
    }
  S state = seg_combine<Op> (carries[blockIdx.x], excl);
  for (int i = 0; i < state_items; i++)
    if (first + i < n)
      {
        const S v = a[first + i];
        a[first + i] = state;
        state = seg_combine<Op> (state, v);
      }
}

template <typename Op>
__global__ void identity_kernel (seg<Op> *p) { *p = seg_identity<Op> (); }

// ---- host side: the plans ---------------------------------------------------------
// states the hierarchy of tile totals over `tiles` tiles needs: every level, and the
// identity carry of the last one
inline size_t hierarchy_states (int64_t tiles)
{
  size_t total = 1;
  const int64_t per = (int64_t) block_threads * state_items;
  for (int64_t m = tiles; ; m = blocks_for (m, per))
    {
      total += m;
      if (m <= per)
        return total;
    }
}

// The kernels one pass of a scan can launch (device_scan.cuh: plan<Op>::choose picks one)
enum class pass_kernel
{
  lane_tiles_vec,            // across vectors: tiles of 32 lanes, vector loads, a look-back per lane
  lane_tiles,                // across vectors: tiles of 32 lanes, a look-back per lane
  lane_runs,                 // across vectors: a thread per lane (long lanes in chunks: reduce,
                             // carry, scan)
  hierarchical_kogge_stone,  // reduce tiles, scan the totals, scan tiles from them
  hierarchical_brent_kung,   // (the same with the Brent-Kung block scan)
  line_blocks,               // a block per line, in one pass
  striped,                   // decoupled look-back, tiles in registers
  striped_lines,             // (several lines or head flags)
  striped_exclusive,         // (exclusive)
  wide_tiles,                // decoupled look-back, wide staged tiles
  exact_tiles,               // a native sum's exact pass: one round of blocks takes the tiles
  tiles,                     // decoupled look-back, staged tiles
  extremum_index             // the positions of max and min, after their values
};

inline const char *pass_kernel_name (pass_kernel k)
{
  static constexpr const char *names[] = {
    "lane tiles (vector loads)", "lane tiles", "lane runs", "hierarchical (Kogge-Stone)",
    "hierarchical (Brent-Kung)", "line blocks", "striped tiles", "striped tiles (lines)",
    "striped tiles (exclusive)", "wide tiles", "exact tiles", "tiles", "extremum index" };
  return names[static_cast<int> (k)];
}

// The launch of one pass: what plan<Op>::choose decides, and what both the workspace's
// size and the launch read
struct pass_plan
{
  pass_kernel kernel;
  int threads;        // a block
  int64_t tile;       // elements a block scans (lane tiles: steps of 32 lanes)
  int64_t grid;       // blocks (the exact pass: at most those the GPU holds at once)
  size_t smem;        // dynamic shared memory a block
  int64_t slots;      // look-back status slots (0: none)
  size_t workspace;   // bytes of workspace
  bool ordered;       // the look-back folds the tiles in order ("reproducible")
  int64_t resident;   // blocks of the kernel the GPU holds at once (look-back kernels)
  look_back_pacing pace;    // the look-back's sleeps while it waits (zero: it spins)
  int64_t prefetch_tiles;   // tiles ahead the look-back prefetches into L2 (0: none)
};

// A look-back kernel's grid, pacing and prefetch, once p.grid and p.resident are known.
// The look-back is paced (tuning.cuh) where the tiles are more than the GPU holds at
// once (in one round all tiles start together, and a wait only delays them) and the
// states travel in one status word with their flags: max and min, whose states with the
// index did not then, ran slower paced (H200, 2^26, x copy: single 3.47 -> 3.55, double
// 2.98 -> 3.14; products 1.20 -> 1.15, 1.23 -> 1.19).  The exact pass of a native sum
// spins, in one round of blocks that take the tiles in order (tile_scan_kernel).
inline void settle_look_back (const gsk_context& c, pass_plan& p, bool one_word, bool exact)
{
  if (exact)
    {
      if (p.kernel == pass_kernel::exact_tiles)
        p.grid = std::min (p.grid, p.resident);
      return;
    }
  if (p.grid <= p.resident)
    return;
  if (one_word)
    p.pace = { c.tuning->look_back_wait_ns, c.tuning->look_back_poll_ns };
  p.prefetch_tiles = (int64_t) c.tuning->l2_prefetch_tiles_per_sm * c.limits.sms;
}

// Launches a look-back kernel as planned; an error where its shared memory is more than
// the device gives a block.  The exact pass's kernel behind the wrapping one is a
// dependent launch (launch_pass).
template <typename Look>
cudaError_t launch_look_back (const gsk_context& c, void (*kernel) (line_args, Look),
                              const pass_plan& p, const line_args& g, Look look, cudaStream_t s)
{
  if (! kernel || ! allow_dynamic_smem (c, kernel, p.smem))
    return cudaErrorInvalidConfiguration;
  look.pace = p.pace;
  look.prefetch_ahead = p.prefetch_tiles;
  if (p.kernel == pass_kernel::exact_tiles)
    launch_pass (c, kernel, p.grid, p.smem, s, g.gate, g, look);
  else
    kernel<<<p.grid, p.threads, p.smem, s>>> (g, look);
  return cudaSuccess;
}

// The operators the classic algorithms (Kogge-Stone, Brent-Kung) are built for: the
// ones they are compared and taught on, sums (native, "omitnan", "accurate") and max,
// and the floating sums and products "reproducible" runs them for (with logsumexp)
template <typename Op> struct classic_operator : std::false_type {};
template <typename T> struct classic_operator<sum_op<T>> : std::true_type {};
template <typename T> struct classic_operator<prod_op<T>> : std::true_type {};
template <typename O> struct classic_operator<omit_nan<O>> : classic_operator<O> {};
template <typename T> struct classic_operator<accurate_sum<T>> : std::true_type {};
template <typename T> struct classic_operator<satsum_op<T>> : std::true_type {};
template <typename T> struct classic_operator<minmax_op<T, true>> : std::true_type {};
template <typename T> struct classic_operator<lse_op<T>> : std::true_type {};

template <typename Op>
struct plan
{
  typedef typename Op::elem T;
  typedef seg<Op> S;
  static constexpr int64_t tile = tile_shape<T, S>::size;
  typedef wide_tile_shape<T, S> wide;
  // the tile size of the decoupled scan of n elements
  static int64_t decoupled_tile (const gsk_context& c, int64_t n)
  { return wide::items != tile_shape<T, S>::items && n >= c.tuning->wide_tile_from ? wide::size : tile; }
  // threads the lanes kernels aim to have in flight
  static int64_t lanes_target (const gsk_context& c)
  { return (int64_t) c.limits.sms * c.limits.threads_per_sm * c.tuning->lanes_threads_per_resident; }
  // lane tiles: elements a thread holds, steps of a tile
  static constexpr int lane_items = lane_tile_shape<T>::items;
  static constexpr int64_t lane_tile_rows = block_threads / 32 * lane_items;
  // lanes a thread of a lane tile takes side by side, where the state is the element
  // (no index), inner is a multiple of them and the arrays are 16-byte aligned; then
  // a thread holds lane_vec_items elements, and a tile has lane_vec_rows steps
  static constexpr int lane_vec = std::is_arithmetic<T>::value && std::is_same<typename Op::A, T>::value
                                  ? lane_tile_shape<T>::vec : 1;
  static constexpr int lane_vec_items = lane_tile_shape<T>::vec_items;
  static constexpr int64_t lane_vec_rows = block_threads / 32 * lane_vec_items;
  static bool lane_vectors_apply (const scan_desc *d)
  {
    return ! d->index && d->inner % lane_vec == 0 && vector_aligned (d->x, d->y);
  }
  // The classic algorithms are built for the sums, products and max of the 4- and
  // 8-byte real types only (classic_operator): each costs eight kernels per operator in
  // build time.  Others run the decoupled scan.
  static constexpr bool classic = (sizeof (T) == 4 || sizeof (T) == 8) && std::is_arithmetic<T>::value
                                 && classic_operator<Op>::value;
  // the wrapping sum that runs first where there is one (scan_ops.cuh), else void
  typedef typename fast_sum<Op>::type fast;
  static bool fast_applies (const gsk_context& c, const scan_desc *d, gsk_algorithm a)
  {
    return ! std::is_void<fast>::value && (d->inner > 1 || effective (a) == GSK_DECOUPLED)
           && scan_numel (d) * (long long) sizeof (T) >= c.tuning->fast_satsum_min_bytes;
  }
  // line blocks: lines of a tile or more, enough of them to fill the GPU with blocks.
  // A native sum's wrapping pass takes them, its exact pass the tiles (so an operator
  // with a wrapping pass never does)
  static constexpr bool line_blocks_serve = std::is_void<fast>::value;
  static bool line_blocks_apply (const gsk_context& c, const line_args& g)
  {
    const int64_t lines = g.n / g.len;
    return g.len >= tile && lines >= c.tuning->line_blocks_min_lines && lines <= INT32_MAX && ! g.gate.exact;
  }
  // dynamic shared memory of the staged tile kernels (staged_extras): the indices of max
  // and min, the head flags when full
  static size_t staged_smem (const line_args& g, int64_t tile_size = tile)
  {
    return (g.ix ? (size_t) (tile_size + tile_size / 32) * sizeof (double) : 0)
           + (g.heads && g.heads_full ? tile_size : 0);
  }

  // static and dynamic shared memory of the hierarchical scan's tile block, within what
  // the device gives a block
  static bool hierarchical_fits (const gsk_context& c, gsk_algorithm a, size_t smem)
  {
    if constexpr (classic)
      {
        constexpr size_t ks = sizeof (tile_storage<Op, block_scan_kogge_stone, tile_shape<T, S>::items>);
        constexpr size_t bk = sizeof (tile_storage<Op, block_scan_brent_kung, tile_shape<T, S>::items>);
        return (a == GSK_KOGGE_STONE ? ks : bk) + sizeof (int64_t) + smem <= c.limits.smem_per_block;
      }
    return false;
  }

  static gsk_algorithm effective (gsk_algorithm a)
  {
    return (a == GSK_KOGGE_STONE || a == GSK_BRENT_KUNG) && ! classic ? GSK_DECOUPLED : a;
  }

  // look-back status of `slots` tiles (or lanes of lane tiles) at the start of ws
  static tile_status<Op> status_in (void *ws, int64_t slots)
  {
    char *w = static_cast<char *> (ws);
    tile_status<Op> ts;
    const size_t flag_bytes = round_up (tile_status<Op>::flag_bytes (slots));
    ts.flags = reinterpret_cast<unsigned *> (w);
    ts.words = reinterpret_cast<uint4 *> (w);
    ts.aggregate = reinterpret_cast<S *> (w + flag_bytes);
    ts.inclusive = ts.aggregate + round_up (sizeof (S) * slots) / sizeof (S);
    return ts;
  }
  static size_t status_bytes (int64_t slots)
  {
    return round_up (tile_status<Op>::flag_bytes (slots))
           + (tile_status<Op>::packed ? 0 : 2 * round_up (sizeof (S) * slots));
  }
  static unsigned claim_status (gsk_context& c, void *ws, int64_t slots, cudaStream_t s)
  {
    return claim_workspace (c.workspace, ws, status_bytes (slots),
                            tile_status<Op>::packed ? layout_packed : layout_unpacked,
                            round_up (tile_status<Op>::flag_bytes (slots)), s);
  }
  static int64_t lane_groups (const scan_desc *d) { return (d->inner + 31) / 32 * d->outer; }
  static int64_t lane_row_tiles (const scan_desc *d, int64_t rows) { return blocks_for (d->len, rows); }

  // The index output of max and min through extremum_op: its values first, then their
  // positions (extremum_index.cuh), both passes' look-back in the same workspace
  static constexpr bool indexes_values = is_extremum<Op>::value;
  static constexpr int64_t index_tile = (int64_t) block_threads * index_items;
  static scan_desc values_of (const scan_desc *d)
  {
    scan_desc v = *d;
    v.index = nullptr;
    return v;
  }
  typedef plan<latest_op> positions;
  static pass_plan index_plan (const gsk_context& c, const scan_desc *d)
  {
    const line_args g = make_line_args (d);
    pass_plan p = {};
    p.kernel = pass_kernel::extremum_index;
    p.threads = block_threads;
    p.tile = index_tile;
    p.slots = p.grid = blocks_for (g.n, index_tile);
    p.smem = g.heads && g.heads_full ? index_tile : 0;
    p.workspace = positions::status_bytes (p.slots);
    if constexpr (indexes_values)   // (the plans of other operators instantiate no kernel)
      p.resident = resident_blocks (c, extremum_index_kernel<T, index_items>, p.threads, p.smem);
    settle_look_back (c, p, tile_status<latest_op>::words_per_slot == 1, false);
    return p;
  }
  static cudaError_t index_pass (gsk_context& c, const scan_desc *d, void *ws, cudaStream_t s)
  {
    if constexpr (indexes_values)   // (the plans of other operators instantiate no kernel)
      {
        line_args g = make_line_args (d);
        g.x = d->y;
        const pass_plan p = index_plan (c, d);
        const prefix_by_look_back<latest_op> look = { positions::status_in (ws, p.slots),
                                                      positions::claim_status (c, ws, p.slots, s), {} };
        const cudaError_t err = launch_look_back (c, extremum_index_kernel<T, index_items>, p, g, look, s);
        return err != cudaSuccess ? err : cudaGetLastError ();
      }
    return cudaErrorNotSupported;
  }

  // A reproducible scan whose results depend on the grouping folds the tiles in order
  // (the kernels with the ordered look-back, instantiated for those operators alone):
  // in_order calls f (std::true_type) for such a pass, else f (std::false_type)
  static bool ordered_look_back (const scan_desc *d)
  {
    return grouping_matters<Op>::value && d->reproducible;
  }
  template <typename F>
  static auto in_order (bool ordered, F f)
  {
    if constexpr (grouping_matters<Op>::value)
      if (ordered)
        return f (std::true_type {});
    return f (std::false_type {});
  }
  // the look-back kernel of a pass (null where the operator has none of that kind)
  template <bool O>
  using look_back_kernel = void (*) (line_args, prefix_by_look_back<Op, O>);
  template <bool O>
  static look_back_kernel<O> kernel_of (pass_kernel k)
  {
    switch (k)
      {
      case pass_kernel::striped_exclusive:
        if constexpr (striped_tile<Op>::serves_exclusive && ! inclusive_only<Op>::value)
          return striped_scan_kernel<Op, true, false, O>;
        break;
      case pass_kernel::striped_lines:
        if constexpr (striped_tile<Op, true>::serves)
          return striped_scan_kernel<Op, false, true, O>;
        break;
      case pass_kernel::striped:
        if constexpr (striped_tile<Op>::serves)
          return striped_scan_kernel<Op, false, false, O>;
        break;
      case pass_kernel::wide_tiles:
        if constexpr (wide::items != tile_shape<T, S>::items)
          return tile_scan_kernel<Op, block_scan_shuffle, prefix_by_look_back<Op, O>, wide::items, false,
                                  wide::bounded, wide::threads>;
        break;
      case pass_kernel::exact_tiles:
        if constexpr (! std::is_void<fast>::value && ! O)
          {
            static_assert (exact_pass_items<T> >= tile_shape<T, S>::items, "the status words cover the tiles");
            return tile_scan_kernel<Op, block_scan_shuffle, prefix_by_look_back<Op>, exact_pass_items<T>, true>;
          }
        break;
      case pass_kernel::tiles:
        return tile_scan_kernel<Op, block_scan_shuffle, prefix_by_look_back<Op, O>>;
      default:
        break;
      }
    return nullptr;
  }
  // p's look-back: in order or not, the blocks the GPU holds, pacing, prefetch
  static void plan_look_back (const gsk_context& c, const scan_desc *d, pass_plan& p, bool exact)
  {
    p.ordered = ordered_look_back (d) && p.kernel != pass_kernel::exact_tiles;
    p.resident = in_order (p.ordered, [&] (auto o) {
      return resident_blocks (c, kernel_of<o.value> (p.kernel), p.threads, p.smem);
    });
    settle_look_back (c, p, tile_status<Op>::words_per_slot == 1, exact);
  }

  // defined out of the class, so not inline: `extern template` then keeps the dispatch
  // unit from compiling the kernels again
  static size_t workspace (const gsk_context& c, const scan_desc *d, gsk_algorithm a);
  static cudaError_t run (gsk_context& c, const scan_desc *d, gsk_algorithm a, void *ws,
                          size_t ws_bytes, cudaStream_t s);
  // The one place that decides which kernel runs: the plan of one pass of d with this
  // operator (`exact`: a native sum's exact pass, after its wrapping one).  Each branch
  // says why it applies; the checks it calls (line_blocks_apply, striped_applies,
  // use_lane_tiles, ...) are the conditions a kernel needs.
  static pass_plan choose (const gsk_context& c, const scan_desc *d, gsk_algorithm a, bool exact)
  {
    pass_plan p = {};
    p.threads = block_threads;
    if (d->inner > 1)
      {
        if (use_lane_tiles (d, lanes_target (c)))   // lanes enough for tiles of 32, too few for a thread each
          {
            const bool vec = lane_vec > 1 && lane_vectors_apply (d);
            p.kernel = vec ? pass_kernel::lane_tiles_vec : pass_kernel::lane_tiles;
            p.tile = vec ? lane_vec_rows : lane_tile_rows;
            p.grid = lane_groups (d) * lane_row_tiles (d, p.tile);
            p.slots = p.grid * 32;
            p.workspace = status_bytes (p.slots);
            p.ordered = ordered_look_back (d);
            return p;
          }
        const lanes_args la = make_lanes_args (d, lanes_target (c));   // a thread a lane (and chunk of it)
        p.kernel = pass_kernel::lane_runs;
        p.grid = blocks_for (la.inner * la.outer * la.nchunks, block_threads);
        p.workspace = la.nchunks > 1 ? round_up (sizeof (S) * la.inner * la.outer * la.nchunks) : 0;
        return p;
      }
    const int64_t n = scan_numel (d);
    line_args g = make_line_args (d);
    g.gate.exact = exact;
    // asked for by name, where its block's shared memory fits the device (a T4's 64 KiB a
    // block does not hold the Kogge-Stone tile of [m, i] = cummax of doubles with its staged
    // indices, 41 + 28 KiB); else the decoupled scan's tiles, whose block scan keeps less
    if (classic && (a == GSK_KOGGE_STONE || a == GSK_BRENT_KUNG) && hierarchical_fits (c, a, staged_smem (g)))
      {
        p.kernel = a == GSK_KOGGE_STONE ? pass_kernel::hierarchical_kogge_stone
                                        : pass_kernel::hierarchical_brent_kung;
        p.tile = tile;
        p.grid = blocks_for (n, tile);
        p.smem = staged_smem (g);
        p.workspace = round_up (sizeof (S) * hierarchy_states (p.grid));
        return p;
      }
    if (line_blocks_serve && line_blocks_apply (c, g))   // lines long and many enough
      {
        p.kernel = pass_kernel::line_blocks;
        p.tile = g.len;
        p.grid = n / g.len;
        p.smem = staged_smem (g);
        return p;
      }
    if (striped_applies<Op> (g, c.tuning->wide_tile_from))   // vectors of small states, long enough, aligned
      {
        const bool lines = striped_lines (g);
        p.kernel = g.exclusive ? pass_kernel::striped_exclusive
                   : lines ? pass_kernel::striped_lines : pass_kernel::striped;
        p.threads = striped_threads;
        p.tile = lines ? striped_tile<Op, true>::size : striped_tile<Op>::size;
        p.slots = p.grid = blocks_for (n, p.tile);
      }
    else if (wide::items != tile_shape<T, S>::items && decoupled_tile (c, n) == wide::size)
      {   // long enough for the wide tiles
        p.kernel = pass_kernel::wide_tiles;
        p.threads = wide::threads;
        p.tile = wide::size;
        p.smem = staged_smem (g, wide::size);
        p.slots = p.grid = blocks_for (n, p.tile);
      }
    else if (! std::is_void<fast>::value && exact)
      {
        // one round of blocks on the GPU, which take the tiles (see tile_scan_kernel):
        // blocks of a second round would only find the gate closed, after the first
        // (H100, native int64 sum at 2^24, closed gate: 4 blocks an SM, 2 rounds, 5.8 us;
        // 2, one round, 4.5 us); the status words are the staged tiles' (fewer items)
        p.kernel = pass_kernel::exact_tiles;
        p.tile = (int64_t) block_threads * exact_pass_items<T>;
        p.smem = staged_smem (g, p.tile);
        p.grid = blocks_for (n, p.tile);   // (plan_look_back: at most the blocks the GPU holds)
        p.slots = blocks_for (n, tile);
      }
    else
      {
        p.kernel = pass_kernel::tiles;
        p.tile = tile;
        p.smem = staged_smem (g);
        p.slots = p.grid = blocks_for (n, tile);
      }
    p.workspace = status_bytes (p.slots);
    plan_look_back (c, d, p, exact);
    return p;
  }
  // what run launches for d, in words (GPUSCAN_PLAN shows it)
  static void describe (const gsk_context& c, const scan_desc *d, gsk_algorithm a, char *buf,
                        size_t size)
  {
    const auto text = [] (const char *what, const pass_plan& p, char *b, size_t n) {
      int k = snprintf (b, n, "%s%s: %lld blocks of %d threads, %lld %s a block, %zu B shared, "
                        "%zu B workspace", what, pass_kernel_name (p.kernel), (long long) p.grid,
                        p.threads, (long long) p.tile,
                        p.kernel == pass_kernel::lane_tiles || p.kernel == pass_kernel::lane_tiles_vec
                        ? "steps of 32 lanes" : "elements", p.smem, p.workspace);
      const auto more = [&] (auto... args) {
        if (k >= 0 && (size_t) k < n)
          k += snprintf (b + k, n - k, args...);
      };
      if (p.resident)
        more (", %lld resident", (long long) p.resident);
      if (p.ordered)
        more (", ordered look-back");
      if (p.pace.wait_ns || p.pace.poll_ns)
        more (", look-back paced (%u ns, then %u ns)", p.pace.wait_ns, p.pace.poll_ns);
      if (p.prefetch_tiles)
        more (", L2 prefetch %lld tiles ahead", (long long) p.prefetch_tiles);
      return k;
    };
    int k = 0;
    if constexpr (indexes_values)
      if (d->index)
        {
          const scan_desc values = values_of (d);
          k = text ("values by ", choose (c, &values, a, false), buf, size);
          if (k >= 0 && (size_t) k < size)
            text ("; positions by ", index_plan (c, d), buf + k, size - k);
          return;
        }
    bool exact = false;
    if constexpr (! std::is_void<fast>::value)
      if ((exact = fast_applies (c, d, a)))
        k = text ("wrapping pass by ", plan<fast>::choose (c, d, a, false), buf, size);
    if (k >= 0 && (size_t) k < size)
      text (exact ? "; exact pass (where the wrapping one left the range) by " : "",
            choose (c, d, a, exact), buf + k, size - k);
  }
  // one pass with this operator, as chosen (run: the fast pass first where it applies)
  static cudaError_t pass (gsk_context& c, const scan_desc *d, gsk_algorithm a, void *ws,
                           size_t ws_bytes, const redo_gate& gate, cudaStream_t s);

  // exclusive scan, in place, of m states in `a` (scratch after it)
  template <template <typename, int> class BlockScan>
  static void scan_states (S *a, int64_t m, S *scratch, cudaStream_t s)
  {
    const int64_t per = (int64_t) block_threads * state_items;
    const int64_t blocks = blocks_for (m, per);
    if (blocks == 1)
      {
        // one tile: its carry is the identity, kept in the scratch slot
        identity_kernel<Op><<<1, 1, 0, s>>> (scratch);
        state_tiles_kernel<Op, BlockScan><<<1, block_threads, 0, s>>> (a, m, nullptr, scratch);
        return;
      }
    state_tiles_kernel<Op, BlockScan><<<blocks, block_threads, 0, s>>> (a, m, scratch, nullptr);
    scan_states<BlockScan> (scratch, blocks, scratch + blocks, s);
    state_tiles_kernel<Op, BlockScan><<<blocks, block_threads, 0, s>>> (a, m, nullptr, scratch);
  }

  template <template <typename, int> class BlockScan>
  static cudaError_t hierarchical (gsk_context& c, const line_args& g, void *ws, cudaStream_t s)
  {
    const int64_t tiles = blocks_for (g.n, tile);
    S *totals = static_cast<S *> (ws);
    line_args totals_only = g;   // (no indices staged)
    totals_only.ix = nullptr;
    constexpr auto kernel = tile_scan_kernel<Op, BlockScan, prefix_by_carries<Op>>;
    if (! allow_dynamic_smem (c, tile_reduce_kernel<Op, BlockScan>, staged_smem (totals_only))
        || ! allow_dynamic_smem (c, kernel, staged_smem (g)))
      return cudaErrorInvalidConfiguration;
    tile_reduce_kernel<Op, BlockScan><<<tiles, block_threads, staged_smem (totals_only), s>>> (totals_only, totals);
    scan_states<BlockScan> (totals, tiles, totals + tiles, s);
    kernel<<<tiles, block_threads, staged_smem (g), s>>> (g, prefix_by_carries<Op> { totals });
    return cudaSuccess;
  }

  static void lanes (gsk_context& c, const scan_desc *d, const pass_plan& p, void *ws,
                     size_t ws_bytes, const redo_gate& gate, cudaStream_t s)
  {
    lanes_args la = make_lanes_args (d, lanes_target (c));
    la.gate = gate;
    const coef_args rec = make_coef_args (d);
    if (p.kernel == pass_kernel::lane_tiles_vec)
      {
        if constexpr (lane_vec > 1)
          in_order (p.ordered, [&] (auto o) {
            launch_pass (c, lanes_tile_kernel<Op, lane_vec_items / lane_vec, lane_vec, o.value>, p.grid,
                         0, s, gate, la, rec, status_in (ws, p.slots), claim_status (c, ws, p.slots, s),
                         lane_groups (d));
            return cudaSuccess;
          });
        return;
      }
    if (p.kernel == pass_kernel::lane_tiles)
      {
        in_order (p.ordered, [&] (auto o) {
          launch_pass (c, lanes_tile_kernel<Op, lane_items, 1, o.value>, p.grid, 0, s, gate, la, rec,
                       status_in (ws, p.slots), claim_status (c, ws, p.slots, s), lane_groups (d));
          return cudaSuccess;
        });
        return;
      }
    claim_workspace (c.workspace, ws, ws_bytes, layout_states, 0, s);
    const int64_t threads = la.inner * la.outer * la.nchunks;
    S *totals = la.nchunks > 1 ? static_cast<S *> (ws) : nullptr;
    if (totals)
      {
        launch_pass (c, lanes_reduce_kernel<Op>, blocks_for (threads, block_threads), 0, s, gate,
                     la, rec, totals, threads);
        launch_pass (c, lanes_carry_kernel<Op>, blocks_for (la.inner * la.outer, block_threads), 0,
                     s, gate, la, totals);
      }
    launch_pass (c, lanes_scan_kernel<Op>, blocks_for (threads, block_threads), 0, s, gate,
                 la, rec, (const S *) totals, threads);
  }
};

// the fast pass's workspace first, the exact pass's after it
template <typename Op>
size_t plan<Op>::workspace (const gsk_context& c, const scan_desc *d, gsk_algorithm a)
{
  if constexpr (indexes_values)
    if (d->index)
      {
        const scan_desc values = values_of (d);
        return std::max (choose (c, &values, a, false).workspace, index_plan (c, d).workspace);
      }
  bool exact = false;
  size_t bytes = 0;
  if constexpr (! std::is_void<fast>::value)
    if ((exact = fast_applies (c, d, a)))
      bytes = plan<fast>::choose (c, d, a, false).workspace;
  return bytes + choose (c, d, a, exact).workspace;
}

template <typename Op>
cudaError_t plan<Op>::run (gsk_context& c, const scan_desc *d, gsk_algorithm a, void *ws,
                           size_t ws_bytes, cudaStream_t s)
{
  redo_gate gate = {};
  if constexpr (indexes_values)
    if (d->index)
      {
        const scan_desc values = values_of (d);
        const cudaError_t err = pass (c, &values, a, ws, ws_bytes, gate, s);
        return err != cudaSuccess ? err : index_pass (c, d, ws, s);
      }
  if constexpr (! std::is_void<fast>::value)
    if (fast_applies (c, d, a))
      {
        // the wrapping sum, then the saturating scan, which only runs where a step of
        // the wrapping one left the range
        cudaError_t err = c.redo_word ? cudaSuccess
                                      : cudaGetSymbolAddress ((void **) &c.redo_word, redo_word);
        if (err == cudaSuccess && ! c.redo_next_tile)
          err = cudaGetSymbolAddress ((void **) &c.redo_next_tile, redo_next_tile);
        if (err != cudaSuccess)
          return err;
        gate = { c.redo_word, c.redo_next_tile, next_redo_mark (c), 0 };
        const size_t fast_bytes = plan<fast>::choose (c, d, a, false).workspace;
        if ((err = plan<fast>::pass (c, d, a, ws, fast_bytes, gate, s)) != cudaSuccess)
          return err;
        gate.exact = 1;
        ws = static_cast<char *> (ws) + fast_bytes;
        ws_bytes -= fast_bytes;
      }
  return pass (c, d, a, ws, ws_bytes, gate, s);
}

template <typename Op>
cudaError_t plan<Op>::pass (gsk_context& c, const scan_desc *d, gsk_algorithm a, void *ws,
                            size_t ws_bytes, const redo_gate& gate, cudaStream_t s)
{
  const pass_plan p = choose (c, d, a, gate.exact);
  if (p.workspace > ws_bytes)
    return cudaErrorInvalidValue;   // (the engine sizes it by workspace (), the same plan)
  if (d->inner > 1)
    {
      lanes (c, d, p, ws, ws_bytes, gate, s);
      return cudaGetLastError ();
    }
  line_args g = make_line_args (d);
  g.gate = gate;
  // the decoupled kernels' look-back status (o: ordered or not, in_order's tag)
  const auto look = [&] (auto o) {
    return prefix_by_look_back<Op, o.value> { status_in (ws, p.slots), claim_status (c, ws, p.slots, s), {} };
  };
  cudaError_t err = cudaSuccess;   // (a launch's shared memory more than a block gets)
  switch (p.kernel)
    {
    case pass_kernel::hierarchical_kogge_stone:
    case pass_kernel::hierarchical_brent_kung:
      if constexpr (classic)
        {
          claim_workspace (c.workspace, ws, ws_bytes, layout_states, 0, s);   // states, not flags
          err = p.kernel == pass_kernel::hierarchical_kogge_stone
                ? hierarchical<block_scan_kogge_stone> (c, g, ws, s)
                : hierarchical<block_scan_brent_kung> (c, g, ws, s);
        }
      break;
    case pass_kernel::line_blocks:
      if constexpr (line_blocks_serve)
        {
          if (! allow_dynamic_smem (c, line_blocks_kernel<Op>, p.smem))
            return cudaErrorInvalidConfiguration;
          line_blocks_kernel<Op><<<p.grid, p.threads, p.smem, s>>> (g);
        }
      break;
    default:   // the look-back kernels
      err = in_order (p.ordered, [&] (auto o) {
        return launch_look_back (c, kernel_of<o.value> (p.kernel), p, g, look (o), s);
      });
    }
  return err != cudaSuccess ? err : cudaGetLastError ();
}

}  // namespace gsk

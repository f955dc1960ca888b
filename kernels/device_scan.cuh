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
#include <type_traits>

#include "block_scan.cuh"
#include "extremum_index.cuh"
#include "lanes_scan.cuh"
#include "launch.cuh"
#include "look_back.cuh"
#include "redo_gate.cuh"
#include "scan_kernels.h"
#include "scan_ops.cuh"
#include "striped_scan.cuh"
#include "tile_io.cuh"
#include "tuning.cuh"
#include "workspace.cuh"

namespace gsk {

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
template <typename Op>
__device__ __forceinline__ void prefetch_ahead_of (const prefix_by_look_back<Op>& p, const line_args& g,
                                                   int64_t tile, int tile_elems)
{
  prefetch_tile (g, (int) sizeof (typename Op::elem), tile, tile_elems, p.prefetch_ahead);
}

template <typename Op, template <typename, int> class BlockScan, int ITEMS, int THREADS, typename Prefix>
__device__ __forceinline__ void scan_tile (const line_args& g, int64_t tile,
                                           tile_storage<Op, BlockScan, ITEMS, THREADS>& st,
                                           Prefix& prefix_of)
{
  typedef seg<Op> S;
  typedef tile_io<typename Op::elem, THREADS, ITEMS> io;
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
          int MIN_BLOCKS = 0, int THREADS = block_threads>
__global__ void __launch_bounds__ (THREADS, MIN_BLOCKS)
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
// costs the decoupled scan ~10% (H100) to ~20% (H200) of a copy's time.
template <typename Op>
__global__ void __launch_bounds__ (block_threads,
                                   line_blocks_shape<typename Op::elem, seg<Op>>::min_blocks)
line_blocks_kernel (line_args g)
{
  typedef typename Op::elem T;
  constexpr int ITEMS = tile_shape<T, seg<Op>>::items;
  typedef tile_io<T, block_threads, ITEMS> io;
  __shared__ tile_storage<Op, block_scan_shuffle, ITEMS> st;
  begin_pass<runner<Op>> (g.gate);   // (never an exact pass: the gate stays open)

  // the line as a scan of its own
  const int64_t base = (int64_t) blockIdx.x * g.len;
  line_args l = g;
  l.x = static_cast<const T *> (g.x) + base;
  l.y = static_cast<T *> (g.y) + base;
  l.ix = g.ix ? g.ix + base : nullptr;
  l.heads = g.heads && g.heads_full ? g.heads + base : g.heads;
  l.n = g.len;
  prefix_by_running_total<Op> prefix_of = { seg_identity<Op> () };
  for (int64_t tile = 0; tile * io::size < l.n; tile++)
    {
      if (tile)
        __syncthreads ();   // the last tile is stored
      scan_tile (l, tile, st, prefix_of);
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
  typedef tile_io<T, block_threads, ITEMS> io;
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

template <typename Op>
struct plan
{
  typedef typename Op::elem T;
  typedef seg<Op> S;
  static constexpr int64_t tile = tile_shape<T, S>::size;
  typedef wide_tile_shape<T, S> wide;
  // the tile size of the decoupled scan of n elements
  static int64_t decoupled_tile (int64_t n)
  { return wide::items != tile_shape<T, S>::items && n >= wide_tile_from ? wide::size : tile; }
  // the most tiles the decoupled scan of n elements takes: the striped kernel's tiles,
  // where it applies, may be smaller than the staged ones (with lines or head flags)
  static int64_t decoupled_tiles_max (int64_t n)
  {
    int64_t t = decoupled_tile (n);
    if (striped_tile<Op>::serves && n >= wide_tile_from)
      t = std::min<int64_t> ({ t, striped_tile<Op>::size, striped_tile<Op, true>::size });
    return blocks_for (n, t);
  }
  // blocks an SM the wide tile's registers must allow for (tuning.cuh)
  static constexpr int wide_min_blocks
    = wide::bounded ? blocks_fitting<tile_storage<Op, block_scan_shuffle, wide::items, wide::threads>> (wide::threads) : 0;
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
  // The classic algorithms are built for the 4- and 8-byte real types only: each
  // costs four kernels per operator in build time.  Others run the decoupled scan.
  static constexpr bool classic = (sizeof (T) == 4 || sizeof (T) == 8) && std::is_arithmetic<T>::value
                                 && ! std::is_same<Op, checked_sum_op<T>>::value
                                 && ! inclusive_only<Op>::value;
  // the wrapping sum that runs first where there is one (scan_ops.cuh), else void
  typedef typename fast_sum<Op>::type fast;
  static bool fast_applies (const scan_desc *d, gsk_algorithm a)
  {
    return ! std::is_void<fast>::value && (d->inner > 1 || effective (a) == GSK_DECOUPLED)
           && scan_numel (d) * (long long) sizeof (T) >= fast_satsum_min_bytes;
  }
  // line blocks: lines of a tile or more, enough of them to fill the GPU with blocks.
  // A native sum's wrapping pass takes them, its exact pass the tiles (so an operator
  // with a wrapping pass never does)
  static constexpr bool line_blocks_serve = std::is_void<fast>::value;
  static bool line_blocks_apply (const line_args& g)
  {
    const int64_t lines = g.n / g.len;
    return g.len >= tile && lines >= line_blocks_min_lines && lines <= INT32_MAX && ! g.gate.exact;
  }
  // dynamic shared memory of the staged tile kernels (staged_extras): the indices of max
  // and min, the head flags when full
  static size_t staged_smem (const line_args& g, int64_t tile_size = tile)
  {
    return (g.ix ? (size_t) (tile_size + tile_size / 32) * sizeof (double) : 0)
           + (g.heads && g.heads_full ? tile_size : 0);
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
  static unsigned claim_status (void *ws, int64_t slots, cudaStream_t s)
  {
    return claim_workspace (ws, status_bytes (slots),
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
  static size_t index_workspace (const scan_desc *d)
  { return plan<latest_op>::status_bytes (blocks_for (scan_numel (d), index_tile)); }
  static cudaError_t index_pass (const scan_desc *d, void *ws, cudaStream_t s)
  {
    if constexpr (indexes_values)   // (the plans of other operators instantiate no kernel)
      {
        typedef plan<latest_op> positions;
        line_args g = make_line_args (d);
        g.x = d->y;
        const int64_t tiles = blocks_for (g.n, index_tile);
        const prefix_by_look_back<latest_op> look = { positions::status_in (ws, tiles),
                                                      positions::claim_status (ws, tiles, s), {} };
        positions::template launch_decoupled<extremum_index_kernel<T, index_items>> (
          g, look, tiles, block_threads, g.heads && g.heads_full ? index_tile : 0, s);
        return cudaGetLastError ();
      }
    return cudaErrorNotSupported;
  }

  // defined out of the class, so not inline: `extern template` then keeps the dispatch
  // unit from compiling the kernels again
  static size_t workspace (const scan_desc *d, gsk_algorithm a);
  static cudaError_t run (const scan_desc *d, gsk_algorithm a, void *ws, size_t ws_bytes,
                          cudaStream_t s);
  // one pass with this operator (run: the fast pass first where it applies)
  static size_t pass_workspace (const scan_desc *d, gsk_algorithm a);
  static cudaError_t pass (const scan_desc *d, gsk_algorithm a, void *ws, size_t ws_bytes,
                           const redo_gate& gate, cudaStream_t s);

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
  static void hierarchical (const line_args& g, void *ws, cudaStream_t s)
  {
    const int64_t tiles = blocks_for (g.n, tile);
    S *totals = static_cast<S *> (ws);
    line_args totals_only = g;   // (no indices staged)
    totals_only.ix = nullptr;
    allow_dynamic_smem<tile_reduce_kernel<Op, BlockScan>> (staged_smem (totals_only));
    tile_reduce_kernel<Op, BlockScan><<<tiles, block_threads, staged_smem (totals_only), s>>> (totals_only, totals);
    scan_states<BlockScan> (totals, tiles, totals + tiles, s);
    constexpr auto kernel = tile_scan_kernel<Op, BlockScan, prefix_by_carries<Op>>;
    allow_dynamic_smem<kernel> (staged_smem (g));
    kernel<<<tiles, block_threads, staged_smem (g), s>>> (g, prefix_by_carries<Op> { totals });
  }

  // A decoupled tile kernel over `tiles` tiles.  Its look-back is paced (tuning.cuh) where
  // the tiles are more than the GPU holds at once (in one round all tiles start together,
  // and a wait only delays them) and the states travel packed with their flags: max and
  // min, whose states with the index are not, ran slower paced (H200, 2^26, x copy: single
  // 3.47 -> 3.55, double 2.98 -> 3.14; products 1.20 -> 1.15, 1.23 -> 1.19).  (The exact
  // pass of a native sum, whose few blocks take the tiles in order, spins.)
  template <auto Kernel>
  static void launch_decoupled (const line_args& g, prefix_by_look_back<Op> look, int64_t tiles,
                                int threads, size_t smem, cudaStream_t s)
  {
    const bool rounds = ! g.gate.exact && tiles > resident_blocks<Kernel> (threads, smem);
    if (rounds && tile_status<Op>::packed)
      look.pace = { look_back_wait_ns, look_back_poll_ns };
    if (rounds)
      look.prefetch_ahead = (int64_t) l2_prefetch_tiles_per_sm * sm_count ();
    allow_dynamic_smem<Kernel> (smem);
    Kernel<<<tiles, threads, smem, s>>> (g, look);
  }

  static void lanes (const scan_desc *d, void *ws, size_t ws_bytes, const redo_gate& gate,
                     cudaStream_t s)
  {
    lanes_args la = make_lanes_args (d);
    la.gate = gate;
    if (use_lane_tiles (d))
      {
        // a lane tile kernel over row tiles of `rows` steps
        const auto launch = [&] (auto kernel, int64_t rows) {
          const int64_t groups = lane_groups (d), tiles = groups * lane_row_tiles (d, rows), slots = tiles * 32;
          const unsigned epoch = claim_status (ws, slots, s);
          launch_pass (kernel, tiles, 0, s, gate, la, status_in (ws, slots), epoch, groups);
        };
        if constexpr (lane_vec > 1)
          if (lane_vectors_apply (d))
            {
              launch (lanes_tile_kernel<Op, lane_vec_items / lane_vec, lane_vec>, lane_vec_rows);
              return;
            }
        launch (lanes_tile_kernel<Op, lane_items, 1>, lane_tile_rows);
        return;
      }
    claim_workspace (ws, ws_bytes, layout_states, 0, s);
    const int64_t threads = la.inner * la.outer * la.nchunks;
    S *totals = la.nchunks > 1 ? static_cast<S *> (ws) : nullptr;
    if (totals)
      {
        launch_pass (lanes_reduce_kernel<Op>, blocks_for (threads, block_threads), 0, s, gate,
                     la, totals, threads);
        launch_pass (lanes_carry_kernel<Op>, blocks_for (la.inner * la.outer, block_threads), 0, s,
                     gate, la, totals);
      }
    launch_pass (lanes_scan_kernel<Op>, blocks_for (threads, block_threads), 0, s, gate,
                 la, (const S *) totals, threads);
  }
};

template <typename Op>
size_t plan<Op>::pass_workspace (const scan_desc *d, gsk_algorithm a)
{
  if (d->inner > 1)
    {
      if (use_lane_tiles (d))
        return status_bytes (lane_groups (d) * lane_row_tiles (d, std::min (lane_tile_rows, lane_vec_rows)) * 32);
      const lanes_args la = make_lanes_args (d);
      return la.nchunks > 1 ? round_up (sizeof (S) * la.inner * la.outer * la.nchunks) : 0;
    }
  const int64_t n = scan_numel (d);
  return effective (a) == GSK_DECOUPLED ? status_bytes (decoupled_tiles_max (n))
                                        : round_up (sizeof (S) * hierarchy_states (blocks_for (n, tile)));
}

// the fast pass's workspace first, the exact pass's after it
template <typename Op>
size_t plan<Op>::workspace (const scan_desc *d, gsk_algorithm a)
{
  if constexpr (indexes_values)
    if (d->index)
      {
        const scan_desc values = values_of (d);
        return std::max (pass_workspace (&values, a), index_workspace (d));
      }
  size_t bytes = pass_workspace (d, a);
  if constexpr (! std::is_void<fast>::value)
    if (fast_applies (d, a))
      bytes += plan<fast>::pass_workspace (d, a);
  return bytes;
}

template <typename Op>
cudaError_t plan<Op>::run (const scan_desc *d, gsk_algorithm a, void *ws, size_t ws_bytes,
                           cudaStream_t s)
{
  redo_gate gate = {};
  if constexpr (indexes_values)
    if (d->index)
      {
        const scan_desc values = values_of (d);
        const cudaError_t err = pass (&values, a, ws, ws_bytes, gate, s);
        return err != cudaSuccess ? err : index_pass (d, ws, s);
      }
  if constexpr (! std::is_void<fast>::value)
    if (fast_applies (d, a))
      {
        // the wrapping sum, then the saturating scan, which only runs where a step of
        // the wrapping one left the range
        static unsigned *word = nullptr;
        static unsigned long long *next_tile = nullptr;
        static unsigned context = 0;
        if (context != context_count ())
          {
            word = nullptr;
            next_tile = nullptr;
            context = context_count ();
          }
        cudaError_t err = word ? cudaSuccess : cudaGetSymbolAddress ((void **) &word, redo_word);
        if (err == cudaSuccess && ! next_tile)
          err = cudaGetSymbolAddress ((void **) &next_tile, redo_next_tile);
        if (err != cudaSuccess)
          return err;
        gate = { word, next_tile, next_redo_mark (), 0 };
        const size_t fast_bytes = plan<fast>::pass_workspace (d, a);
        if ((err = plan<fast>::pass (d, a, ws, fast_bytes, gate, s)) != cudaSuccess)
          return err;
        gate.exact = 1;
        ws = static_cast<char *> (ws) + fast_bytes;
        ws_bytes -= fast_bytes;
      }
  return pass (d, a, ws, ws_bytes, gate, s);
}

template <typename Op>
cudaError_t plan<Op>::pass (const scan_desc *d, gsk_algorithm a, void *ws, size_t ws_bytes,
                            const redo_gate& gate, cudaStream_t s)
{
  if (d->inner > 1)
    {
      lanes (d, ws, ws_bytes, gate, s);
      return cudaGetLastError ();
    }
  line_args g = make_line_args (d);
  g.gate = gate;
  if (effective (a) != GSK_DECOUPLED)
    claim_workspace (ws, ws_bytes, layout_states, 0, s);   // states, not flags
  switch (a)
    {
    case GSK_KOGGE_STONE:
      if constexpr (classic)
        {
          hierarchical<block_scan_kogge_stone> (g, ws, s);
          break;
        }
      [[fallthrough]];
    case GSK_BRENT_KUNG:
      if constexpr (classic)
        {
          if (a == GSK_BRENT_KUNG)
            {
              hierarchical<block_scan_brent_kung> (g, ws, s);
              break;
            }
        }
      [[fallthrough]];
    default:
      {
        if constexpr (line_blocks_serve)
          if (line_blocks_apply (g))
            {
              allow_dynamic_smem<line_blocks_kernel<Op>> (staged_smem (g));
              line_blocks_kernel<Op><<<g.n / g.len, block_threads, staged_smem (g), s>>> (g);
              break;
            }
        const bool striped = striped_applies<Op> (g);
        const bool lines = striped_lines (g);
        const int64_t tiles = blocks_for (g.n, ! striped ? decoupled_tile (g.n)
                                               : lines ? striped_tile<Op, true>::size : striped_tile<Op>::size);
        if (status_bytes (tiles) > ws_bytes)
          return cudaErrorInvalidValue;   // (the workspace is sized by decoupled_tiles_max)
        const prefix_by_look_back<Op> look = { status_in (ws, tiles), claim_status (ws, tiles, s), {} };
        if constexpr (striped_tile<Op>::serves)
          if (striped)
            {
              if constexpr (! inclusive_only<Op>::value)
                if (g.exclusive)
                  {
                    launch_decoupled<striped_scan_kernel<Op, true, false>> (g, look, tiles, striped_threads, 0, s);
                    break;
                  }
              if (lines)
                launch_decoupled<striped_scan_kernel<Op, false, true>> (g, look, tiles, striped_threads, 0, s);
              else
                launch_decoupled<striped_scan_kernel<Op, false, false>> (g, look, tiles, striped_threads, 0, s);
              break;
            }
        if constexpr (wide::items != tile_shape<T, S>::items)
          if (decoupled_tile (g.n) == wide::size)
            {
              launch_decoupled<tile_scan_kernel<Op, block_scan_shuffle, prefix_by_look_back<Op>, wide::items,
                                                false, wide_min_blocks, wide::threads>> (
                g, look, tiles, wide::threads, staged_smem (g, wide::size), s);
              break;
            }
        if constexpr (! std::is_void<fast>::value)
          if (gate.exact)
            {
              // one round of blocks on the GPU, which take the tiles (see tile_scan_kernel):
              // blocks of a second round would only find the gate closed, after the first
              // (H100, native int64 sum at 2^24, closed gate: 4 blocks an SM, 2 rounds,
              // 5.8 us; 2, one round, 4.5 us)
              constexpr int items = exact_pass_items<T>;
              static_assert (items >= tile_shape<T, S>::items, "the status words cover the tiles");
              constexpr auto kernel = tile_scan_kernel<Op, block_scan_shuffle, prefix_by_look_back<Op>,
                                                       items, true>;
              constexpr int64_t exact_tile = block_threads * items;
              const size_t smem = staged_smem (g, exact_tile);
              const int64_t exact_tiles = blocks_for (g.n, exact_tile);
              launch_pass (kernel, std::min<int64_t> (exact_tiles, resident_blocks<kernel> (block_threads, smem)),
                           smem, s, gate, g, look);
              break;
            }
        launch_decoupled<tile_scan_kernel<Op, block_scan_shuffle, prefix_by_look_back<Op>>> (
          g, look, tiles, block_threads, staged_smem (g), s);
      }
    }
  return cudaGetLastError ();
}

}  // namespace gsk

// The index output of max and min, found from their values after extremum_op's scan
// wrote them (inclusive scans of vectors and of batched lines, segmented or not).
// A later element replaces the running extremum only when strictly better, so the
// position reported at step k is the last step j <= k where the running value changed:
// a segment's first step, or m[j] != m[j - 1] with NaN runs counted as one value (a
// leading NaN run keeps its first position, though extremum_op steps from one NaN to the
// next).
// That is a max-scan of positions: its state is one int64, which travels packed with its
// look-back flag, where minmax_op's (value, index) states do not ([m, i] = cummax of
// 2^26 singles took 4.2x a copy of x and y through them on an H200; Nsight Compute on an
// H100: 150 instructions an element, half the warps' stalls at the barrier behind the
// look-back).
#pragma once

#include <cstdint>

#include "agent/look_back.cuh"
#include "agent/tile_io.cuh"
#include "block/block_scan.cuh"
#include "ops/scan_ops.cuh"
#include "tuning/tuning.cuh"

namespace gsk {

// the latest position of a change (INT64_MIN: none yet)
typedef extremum_op<int64_t, true> latest_op;

// does the running extremum change from a to b?
template <typename T>
__device__ __forceinline__ bool changes (T a, T b)
{
  return a != b && (a == a || b == b);   // (NaN to NaN: no)
}

// One tile: the values (the value pass's output, g.x here) come in staged, full head
// flags too (in dynamic shared memory, `io::size` bytes, where there are such flags);
// each thread notes the changes in its run of ITEMS as bits; the block scans the runs'
// latest changes, the tile's prefix comes from the look-back; then each thread writes
// its positions over the staged values, as doubles, and the tile stores them coalesced.
template <typename T, int ITEMS>
__global__ void __launch_bounds__ (block_threads)
extremum_index_kernel (line_args g, prefix_by_look_back<latest_op> prefix_of)
{
  typedef tile_io<T, block_threads, ITEMS> io;
  typedef seg<latest_op> S;
  typedef block_scan_shuffle<latest_op, block_threads> scan;
  __shared__ union
  {
    typename io::storage values;
    double ix[io::size + io::size / 32];
  } st;
  __shared__ typename scan::storage scan_st;
  __shared__ S prefix_st;
  __shared__ T before_st;   // the value before the tile in scan order

  extern __shared__ uint4 dynamic_words[];
  uint8_t *heads_st = reinterpret_cast<uint8_t *> (dynamic_words);

  const int64_t tile = blockIdx.x;
  const io t (g, tile);
  t.load (st.values, heads_st, g);
  prefetch_tile (g, (int) sizeof (T), tile, io::size, prefix_of.prefetch_ahead);
  if (threadIdx.x == 0 && t.p0 > 0)
    before_st = static_cast<const T *> (g.x)[g.reverse ? g.n - t.p0 : t.p0 - 1];
  __syncthreads ();

  const int first = threadIdx.x * ITEMS;
  const line_walker at_first (g, t.p0 + first);
  unsigned changed = 0;   // bit i: step first + i changes
  int last = -1;
  if (first < t.cnt)
    {
      line_walker w = at_first;
      T prev = first ? st.values.v[io::pad (t.phys (g, first - 1))] : before_st;
#pragma unroll
      for (int i = 0; i < ITEMS; i++, w.next ())
        if (first + i < t.cnt)
          {
            const int ph = t.phys (g, first + i);
            const T v = st.values.v[io::pad (ph)];
            if (w.starts (g, g.heads && g.heads_full ? heads_st[ph] : 0) || changes (prev, v))
              {
                changed |= 1u << i;
                last = i;
              }
            prev = v;
          }
    }
  S excl, total;
  scan::scan (scan_st, S { last >= 0 ? t.p0 + first + last : INT64_MIN, 0 }, excl, total);
  // (its barrier also ends every thread's reads of the staged values)
  const S prefix = prefix_of (tile, total, prefix_st);

  if (first < t.cnt)
    {
      int64_t latest = seg_combine<latest_op> (prefix, excl).a;
      line_walker w = at_first;
#pragma unroll
      for (int i = 0; i < ITEMS; i++, w.next ())
        if (first + i < t.cnt)
          {
            const int64_t p = t.p0 + first + i;
            if (changed >> i & 1)
              latest = p;
            const int64_t k = w.k - (p - latest);   // the change's step in the line (its segment's)
            st.ix[io::pad (t.phys (g, first + i))] = (double) ((g.reverse ? g.len - 1 - k : k) + 1);
          }
    }
  __syncthreads ();
  t.store_index (st.ix, g);
}

}  // namespace gsk

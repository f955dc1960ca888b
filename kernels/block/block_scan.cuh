// Warp and block scans of one segmented state per thread.  Every block scan gives each
// thread the exclusive prefix of the states before it and the block's total.
//   block_scan_shuffle:     warp shuffles, then a scan of the warp totals (production)
//   block_scan_kogge_stone: Kogge-Stone / Hillis-Steele, double-buffered shared memory
//   block_scan_brent_kung:  Brent-Kung reduction tree and reverse (distribution) tree,
//                           with the padding that keeps shared-memory banks apart
// (the steps of the last two: block_scan_steps.cuh)
#pragma once

#include "base/block_scan_steps.h"
#include "ops/scan_ops.cuh"

namespace gsk {

// shuffle any trivially copyable state, one 32-bit word at a time
template <typename S, typename Shuffle>
__device__ __forceinline__ S shfl_words (const S& v, Shuffle shuffle)
{
  constexpr int words = (sizeof (S) + 3) / 4;
  union { S s; int w[words]; } u;
  u.s = v;
#pragma unroll
  for (int i = 0; i < words; i++)
    u.w[i] = shuffle (u.w[i]);
  return u.s;
}

template <typename S>
__device__ __forceinline__ S shfl_up (const S& v, int delta)
{ return shfl_words (v, [=] (int w) { return __shfl_up_sync (0xffffffffu, w, delta); }); }

template <typename S>
__device__ __forceinline__ S shfl_down (const S& v, int delta)
{ return shfl_words (v, [=] (int w) { return __shfl_down_sync (0xffffffffu, w, delta); }); }

template <typename S>
__device__ __forceinline__ S shfl_idx (const S& v, int lane)
{ return shfl_words (v, [=] (int w) { return __shfl_sync (0xffffffffu, w, lane); }); }

// inclusive scan of v across the first WIDTH lanes of the warp, combine (earlier, later)
template <int WIDTH = 32, typename S, typename Combine>
__device__ __forceinline__ S warp_inclusive_scan (S v, Combine combine)
{
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < WIDTH; d <<= 1)
    {
      const S o = shfl_up (v, d);
      if (lane >= d)
        v = combine (o, v);
    }
  return v;
}

template <typename Op>
__device__ __forceinline__ seg<Op> warp_inclusive_scan (seg<Op> v)
{
  return warp_inclusive_scan (v, [] (const seg<Op>& a, const seg<Op>& b) { return seg_combine<Op> (a, b); });
}

template <typename Op, int BLOCK>
struct block_scan_shuffle
{
  static constexpr int warps = BLOCK / 32;
  struct storage { seg<Op> warp_incl[warps]; };

  static __device__ __forceinline__ void scan (storage& st, const seg<Op>& v,
                                               seg<Op>& excl, seg<Op>& total)
  {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const seg<Op> incl = warp_inclusive_scan<Op> (v);
    if (lane == 31)
      st.warp_incl[warp] = incl;
    __syncthreads ();
    if (warp == 0)
      {
        seg<Op> t = lane < warps ? st.warp_incl[lane] : seg_identity<Op> ();
        t = warp_inclusive_scan<Op> (t);
        if (lane < warps)
          st.warp_incl[lane] = t;
      }
    __syncthreads ();
    const seg<Op> before = shfl_up (incl, 1);
    excl = lane ? before : seg_identity<Op> ();
    if (warp)
      excl = seg_combine<Op> (st.warp_incl[warp - 1], excl);
    total = st.warp_incl[warps - 1];
    __syncthreads ();
  }
};

template <typename Op, int BLOCK>
struct block_scan_kogge_stone
{
  struct storage { seg<Op> buf[2][BLOCK]; };

  static __device__ __forceinline__ void scan (storage& st, const seg<Op>& v,
                                               seg<Op>& excl, seg<Op>& total)
  {
    const int t = threadIdx.x;
    int in = 0;
    st.buf[0][t] = v;
    __syncthreads ();
    for (int d = 1; d < BLOCK; d <<= 1)
      {
        kogge_stone_step::run (st.buf[in], st.buf[1 - in], t, d,
                               [] (const seg<Op>& a, const seg<Op>& b) { return seg_combine<Op> (a, b); });
        in = 1 - in;
        __syncthreads ();
      }
    excl = t ? st.buf[in][t - 1] : seg_identity<Op> ();
    total = st.buf[in][BLOCK - 1];
    __syncthreads ();
  }
};

template <typename Op, int BLOCK>
struct block_scan_brent_kung
{
  typedef brent_kung_step<true> step;
  struct storage { seg<Op> buf[BLOCK + BLOCK / 32]; };

  static __device__ __forceinline__ void scan (storage& st, const seg<Op>& v,
                                               seg<Op>& excl, seg<Op>& total)
  {
    const int t = threadIdx.x;
    const auto combine = [] (const seg<Op>& a, const seg<Op>& b) { return seg_combine<Op> (a, b); };
    st.buf[step::slot (t)] = v;
    __syncthreads ();
    for (int stride = 1; stride < BLOCK; stride <<= 1)   // reduction tree
      {
        step::up (st.buf, t, stride, BLOCK, combine);
        __syncthreads ();
      }
    for (int stride = BLOCK / 4; stride > 0; stride >>= 1)   // distribution tree
      {
        step::down (st.buf, t, stride, BLOCK, combine);
        __syncthreads ();
      }
    excl = t ? st.buf[step::slot (t - 1)] : seg_identity<Op> ();
    total = st.buf[step::slot (BLOCK - 1)];
    __syncthreads ();
  }
};

}  // namespace gsk

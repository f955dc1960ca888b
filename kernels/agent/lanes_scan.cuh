// Scans across contiguous vectors (inner > 1): the lane tiles and lane runs, and the
// host's description of their shape.  plan<Op> (device_scan.cuh) launches them.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>

#include "agent/look_back.cuh"
#include "agent/redo_gate.cuh"
#include "agent/tile_io.cuh"
#include "block/block_scan.cuh"
#include "ops/scan_ops.cuh"
#include "tuning/tuning.cuh"

namespace gsk {

// ---- the kernels ------------------------------------------------------------------
// Lane i of slice o is the line x[i + inner * (k + len * o)], k = 0 .. len - 1.
//   lane tiles:  32 neighbouring lanes x a row tile of steps a block, the tiles of one
//                lane group chained by a decoupled look-back per lane: one pass
//   lane runs:   one thread per lane (and chunk of steps), for lanes narrower than a
//                warp or so many lanes that each thread can walk a whole one; chunks
//                (when lanes are few) add a reduce pass and a carry pass
struct lanes_args
{
  const void *x;
  void *y;
  double *ix;
  const uint8_t *heads;
  int heads_full, reverse, exclusive;
  int64_t inner, len, outer, chunk, nchunks;
  redo_gate gate;
};
// (a recurrence's coefficients are a kernel parameter of their own, coef_args: the
// compiler keeps the members of a parameter struct of up to 128 bytes in registers; past
// that it read them from parameter memory again and again, and lane tiles of singles
// took 146 registers instead of 128, one block an SM: 2.5x a copy instead of 1.13, sm_90)
static_assert (sizeof (lanes_args) <= 128, "lanes_args fits the compiler's 128 bytes");

// does step kk (physical) of lane i in slice o start a segment?  k: its logical step
__device__ __forceinline__ bool lane_head (const lanes_args& a, int64_t i, int64_t o,
                                           int64_t k, int64_t kk)
{
  if (k == 0)
    return true;
  if (! a.heads)
    return false;
  const int64_t hk = a.reverse ? kk + 1 : kk;   // reverse: the flag after it
  return a.heads_full ? a.heads[i + a.inner * (hk + a.len * o)] : a.heads[hk];
}

// thread g -> lane i (fastest, so a warp reads consecutive addresses), chunk c, slice o
struct lane_pos
{
  int64_t i, c, o;
  __device__ __forceinline__ lane_pos (const lanes_args& a, int64_t g)
  {
    i = g % a.inner;
    const int64_t r = g / a.inner;
    c = r % a.nchunks;
    o = r / a.nchunks;
  }
};

// walks lane p's chunk in scan order, f (x, at, kk, head) for each element; loads a
// batch of elements ahead, so that a thread keeps several loads in flight
template <typename T, typename F>
__device__ __forceinline__ void lane_walk (const lanes_args& a, const coef_args& rec,
                                           const lane_pos& p, F f)
{
  const T *x = static_cast<const T *> (a.x);
  const int64_t k0 = p.c * a.chunk;
  const int64_t k1 = min (a.len, k0 + a.chunk);
  const int64_t step = a.reverse ? -a.inner : a.inner;
  int64_t at = p.i + a.inner * ((a.reverse ? a.len - 1 - k0 : k0) + a.len * p.o);
  for (int64_t k = k0; k < k1; k += lanes_batch)
    {
      T v[lanes_batch];
#pragma unroll
      for (int j = 0; j < lanes_batch; j++)
        if (k + j < k1)
          {
            if constexpr (element_access<T>::plain)
              v[j] = x[at + j * step];
            else
              v[j] = element_access<T>::load (a.x, rec, at + j * step);
          }
#pragma unroll
      for (int j = 0; j < lanes_batch; j++, at += step)
        if (k + j < k1)
          {
            const int64_t kk = a.reverse ? a.len - 1 - (k + j) : k + j;
            f (v[j], at, kk, lane_head (a, p.i, p.o, k + j, kk));
          }
    }
}

template <typename Op>
__device__ __forceinline__ seg<Op> lane_reduce (const lanes_args& a, const coef_args& rec,
                                                const lane_pos& p)
{
  typedef typename Op::elem T;
  seg<Op> state = seg_identity<Op> ();
  lane_walk<T> (a, rec, p, [&] (T x, int64_t, int64_t kk, bool head) {
    if (head)
      state = { Op::identity (), 1 };
    state.a = Op::combine (state.a, Op::lift (x, kk));
  });
  return state;
}

template <typename Op>
__device__ __forceinline__ bool lane_scan (const lanes_args& a, const coef_args& rec,
                                           const lane_pos& p, const seg<Op>& carry)
{
  typedef typename Op::elem T;
  typedef runner<Op> R;
  typedef element_access<T> E;
  typename E::out *y = static_cast<typename E::out *> (a.y);
  // the output of value v at position at (a recurrence's: through its map)
  auto put = [&] (const typename R::V& v, int64_t at, double *ix) {
    if constexpr (E::plain)
      R::emit (v, &y[at], ix);
    else
      {
        T map;
        R::emit (v, &map, ix);
        y[at] = E::output (map, rec);
      }
  };
  typename R::V value = R::start (carry.a);
  bool left = false;
  lane_walk<T> (a, rec, p, [&] (T x, int64_t at, int64_t kk, bool head) {
    if (head)
      value = R::reset ();
    double *ix = a.ix ? &a.ix[at] : nullptr;
    left |= leaves_range<R> (value, x);
    if (a.exclusive)
      put (exclusive_output<Op>::of (value), at, ix);
    value = R::step (value, x, kk);
    if (! a.exclusive)
      put (value, at, ix);
  });
  return left;
}

template <typename Op>
__global__ void __launch_bounds__ (block_threads)
lanes_reduce_kernel (lanes_args a, coef_args rec, seg<Op> *totals, int64_t threads)
{
  const int64_t g = (int64_t) blockIdx.x * block_threads + threadIdx.x;
  if (g < threads && ! gate_closed (a.gate))
    totals[g] = lane_reduce<Op> (a, rec, lane_pos (a, g));
}

// per lane, the chunks' totals become their exclusive prefixes (in place)
template <typename Op>
__global__ void __launch_bounds__ (block_threads)
lanes_carry_kernel (lanes_args a, seg<Op> *totals)
{
  const int64_t g = (int64_t) blockIdx.x * block_threads + threadIdx.x;
  if (g >= a.inner * a.outer || gate_closed (a.gate))
    return;
  const int64_t i = g % a.inner, o = g / a.inner;
  seg<Op> state = seg_identity<Op> ();
  for (int64_t c = 0; c < a.nchunks; c++)
    {
      seg<Op> *t = &totals[(o * a.nchunks + c) * a.inner + i];
      const seg<Op> v = *t;
      *t = state;
      state = seg_combine<Op> (state, v);
    }
}

template <typename Op>
__global__ void __launch_bounds__ (block_threads)
lanes_scan_kernel (lanes_args a, coef_args rec, const seg<Op> *carries, int64_t threads)
{
  const int64_t g = (int64_t) blockIdx.x * block_threads + threadIdx.x;
  if (g < threads && ! gate_closed (a.gate))
    note_redo (a.gate, lane_scan<Op> (a, rec, lane_pos (a, g),
                                      carries ? carries[g] : seg_identity<Op> ()));
}

// Block (group, row tile): group = 32 neighbouring lanes of one slice, row tile =
// 8 x VEC x ITEMS consecutive steps of them in scan order (plan::lane_tile_rows, or
// lane_vec_rows where VEC > 1).  A thread holds ITEMS steps of
// VEC neighbouring lanes (VEC > 1: one 16-byte vector a step), 32 / VEC threads of a
// warp side by side across the group and VEC runs of steps one below the other: a
// warp's loads are whole lines of 32 lanes.  (VEC = 1, singles along dim 2: a 4-byte
// load a thread a step, 128 bytes a warp.)  Warp w holds runs w * VEC .. w * VEC + VEC - 1.
template <typename T, int VEC>
union lane_vector
{
  typedef typename std::conditional<VEC * sizeof (T) == 16, uint4, T>::type whole_t;
  T e[VEC];
  whole_t whole;
};

template <typename Op, int ITEMS, int VEC, bool ORDERED = false>
__global__ void __launch_bounds__ (block_threads)
lanes_tile_kernel (lanes_args a, coef_args rec, tile_status<Op> ts, unsigned epoch, int64_t groups)
{
  typedef typename Op::elem T;
  typedef seg<Op> S;
  typedef runner<Op> R;
  typedef lane_vector<T, VEC> vec;
  typedef element_access<T> E;
  static_assert (VEC == 1 || VEC * sizeof (T) == 16, "one lane or one 16-byte vector a thread");
  constexpr int warps = block_threads / 32, across = 32 / VEC;
  __shared__ S warp_excl[warps][32];   // warp w's part of the tile, then its prefix in it
  __shared__ S lane_prefix[32];
  if (gate_closed (a.gate))
    return;

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int q = lane % across, r = lane / across;   // vector across the group, run down
  const int64_t group = blockIdx.x % groups, row_tile = blockIdx.x / groups;
  const int64_t groups_per_slice = (a.inner + 31) / 32;
  const int64_t o = group / groups_per_slice, i = group % groups_per_slice * 32 + q * VEC;
  const int64_t k0 = row_tile * (warps * VEC * ITEMS) + (warp * VEC + r) * ITEMS;
  // steps of this thread's run (none past the lane's end, none for lanes past the last:
  // VEC > 1 only where inner is a multiple of VEC, so a vector's lanes all exist or none)
  const int steps = i < a.inner ? (int) max ((int64_t) 0, min ((int64_t) ITEMS, a.len - k0)) : 0;
  const int64_t step = a.reverse ? -a.inner : a.inner;
  const int64_t at0 = i + a.inner * ((a.reverse ? a.len - 1 - k0 : k0) + a.len * o);
  const T *x = static_cast<const T *> (a.x) + at0;
  auto kphys = [&] (int j) { return a.reverse ? a.len - 1 - (k0 + j) : k0 + j; };
  // a head at step j of lane c's run (the lane's first step always is one)
  auto head = [&] (int j, int c) { return a.heads ? lane_head (a, i + c, o, k0 + j, kphys (j)) : k0 + j == 0; };

  vec v[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; j++)
    if (j < steps)
      {
        if constexpr (E::plain)
          v[j].whole = *reinterpret_cast<const typename vec::whole_t *> (x + j * step);
        else
          v[j].e[0] = E::load (a.x, rec, at0 + j * step);
      }
  S run[VEC];
#pragma unroll
  for (int c = 0; c < VEC; c++)
    {
      run[c] = seg_identity<Op> ();
#pragma unroll
      for (int j = 0; j < ITEMS; j++)
        if (j < steps)
          {
            if (head (j, c))
              run[c] = { Op::identity (), 1 };
            run[c].a = Op::combine (run[c].a, Op::lift (v[j].e[c], kphys (j)));
          }
    }
  // the warp's part of the tile, and (VEC > 1) each run's prefix in it from the runs
  // above it: run[] becomes exclusive in the warp
#pragma unroll
  for (int c = 0; c < VEC; c++)
    {
      S incl = run[c];
      if constexpr (VEC > 1)
        {
#pragma unroll
          for (int d = 1; d < VEC; d <<= 1)
            {
              const S above = shfl_up (incl, d * across);
              if (r >= d)
                incl = seg_combine<Op> (above, incl);
            }
          const S above = shfl_up (incl, across);
          run[c] = r ? above : seg_identity<Op> ();
        }
      if (r == VEC - 1)
        warp_excl[warp][q * VEC + c] = incl;
    }
  __syncthreads ();

  if (warp == 0)
    {
      S total = seg_identity<Op> ();
      for (int w = 0; w < warps; w++)
        {
          const S part = warp_excl[w][lane];
          warp_excl[w][lane] = total;
          total = seg_combine<Op> (total, part);
        }
      // every lane publishes, also those past the last one: no lane waits on a missing one
      const int64_t slot = (row_tile * groups + group) * 32 + lane;
      S prefix = seg_identity<Op> ();
      if (row_tile == 0)
        publish (ts, slot, epoch, tile_prefix, total);
      else
        {
          publish (ts, slot, epoch, tile_aggregate, total);
          prefix = lane_look_back<ORDERED> (ts, slot - groups * 32, groups * 32, epoch);
          publish (ts, slot, epoch, tile_prefix, seg_combine<Op> (prefix, total));
        }
      lane_prefix[lane] = prefix;
    }
  __syncthreads ();

  typename E::out *y = static_cast<typename E::out *> (a.y) + at0;
  double *ix = a.ix ? a.ix + at0 : nullptr;   // (VEC = 1 only)
  bool left = false;
#pragma unroll
  for (int c = 0; c < VEC; c++)
    {
      const int l = q * VEC + c;
      S prefix = seg_combine<Op> (lane_prefix[l], warp_excl[warp][l]);
      if constexpr (VEC > 1)
        prefix = seg_combine<Op> (prefix, run[c]);
      typename R::V value = R::start (prefix.a);
#pragma unroll
      for (int j = 0; j < ITEMS; j++)
        if (j < steps)
          {
            if (head (j, c))
              value = R::reset ();
            // (VEC > 1, and a recurrence's maps: in place, stored below)
            T *out;
            if constexpr (VEC > 1 || ! E::plain)
              out = &v[j].e[c];
            else
              out = y + j * step;
            double *ixj = ix ? ix + j * step : nullptr;
            const T xj = v[j].e[c];
            left |= leaves_range<R> (value, xj);
            if (a.exclusive)
              R::emit (exclusive_output<Op>::of (value), out, ixj);
            value = R::step (value, xj, kphys (j));
            if (! a.exclusive)
              R::emit (value, out, ixj);
          }
    }
  if constexpr (VEC > 1)
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      if (j < steps)
        *reinterpret_cast<typename vec::whole_t *> (y + j * step) = v[j].whole;
  if constexpr (! E::plain)
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      if (j < steps)
        y[j * step] = E::output (v[j].e[0], rec);
  note_redo (a.gate, left);
}

// ---- host side ------------------------------------------------------------------
// the lane runs' shape: lanes too few to fill the GPU are cut along the dimension into
// chunks (of at least lanes_min_chunk steps) that a reduce and a carry pass join; they aim
// at target_threads threads in flight (the plan's: tuning_tables.cuh)
inline lanes_args make_lanes_args (const scan_desc *d, int64_t target_threads)
{
  lanes_args a = { d->x, d->y, d->index, d->heads, d->heads_full, d->reverse, d->exclusive,
                   d->inner, d->len, d->outer, d->len, 1, redo_gate {} };
  const int64_t lanes = d->inner * d->outer;
  if (lanes < target_threads && d->len > 2 * lanes_min_chunk)
    {
      int64_t want = (target_threads + lanes - 1) / lanes;
      int64_t chunk = std::max<int64_t> (lanes_min_chunk, (d->len + want - 1) / want);
      a.chunk = chunk;
      a.nchunks = (d->len + chunk - 1) / chunk;
    }
  return a;
}

// lane tiles where a group of 32 lanes is mostly full and the lane runs would lack
// threads
inline bool use_lane_tiles (const scan_desc *d, int64_t target_threads)
{
  return d->inner >= lane_tiles_min_inner && d->inner * d->outer < target_threads;
}

}  // namespace gsk

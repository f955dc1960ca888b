// The steps of the classic block scans (kernels/block/block_scan.cuh): what thread t does in one step,
// and where in shared memory it reads and writes.  Host and device code: the kernels run
// a step in every thread between two barriers; the CPU engine's trace of them
// (src/cpu/cpu_trace.cc) runs each thread of a step in turn and records the array, the
// adds and the addresses, so that what a student sees is what the kernels do.
#pragma once

#ifndef __CUDACC__   // (host code: the qualifiers mean nothing)
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __forceinline__
#define __forceinline__ inline
#endif
#endif

namespace gsk {

// Kogge-Stone (Hillis-Steele), double-buffered: at distance d, thread t adds the element
// d places before its own, reading one buffer and writing the other (no thread
// overwrites what another still reads)
struct kogge_stone_step
{
  static __host__ __device__ __forceinline__ bool adds (int t, int d) { return t >= d; }
  template <typename S, typename Combine>
  static __host__ __device__ __forceinline__ void run (const S *in, S *out, int t, int d,
                                                       Combine combine)
  {
    S x = in[t];
    if (adds (t, d))
      x = combine (in[t - d], x);
    out[t] = x;
  }
};

// Brent-Kung, in place: a reduction tree (up, strides 1, 2, 4, ...) and a distribution
// tree (down, strides n/4, ..., 1).  At stride s thread t takes node i = (t + 1) 2s - 1:
// up, buf[i] += buf[i - s]; down, buf[i + s] += buf[i].  PADDED: one padding slot every
// 32 entries, so that the strided steps hit distinct shared-memory banks (GPU Gems 3,
// ch. 39, CONFLICT_FREE_OFFSET)
template <bool PADDED>
struct brent_kung_step
{
  static __host__ __device__ __forceinline__ int slot (int i) { return PADDED ? i + (i >> 5) : i; }
  static __host__ __device__ __forceinline__ int node (int t, int s) { return (t + 1) * 2 * s - 1; }
  static __host__ __device__ __forceinline__ bool adds_up (int t, int s, int n) { return node (t, s) < n; }
  static __host__ __device__ __forceinline__ bool adds_down (int t, int s, int n)
  { return node (t, s) + s < n; }
  template <typename S, typename Combine>
  static __host__ __device__ __forceinline__ void up (S *buf, int t, int s, int n, Combine combine)
  {
    const int i = node (t, s);
    if (adds_up (t, s, n))
      buf[slot (i)] = combine (buf[slot (i - s)], buf[slot (i)]);
  }
  template <typename S, typename Combine>
  static __host__ __device__ __forceinline__ void down (S *buf, int t, int s, int n, Combine combine)
  {
    const int i = node (t, s);
    if (adds_down (t, s, n))
      buf[slot (i + s)] = combine (buf[slot (i)], buf[slot (i + s)]);
  }
};

// Blelloch's exclusive scan (the lecture's work-efficient scan): Brent-Kung's up-sweep,
// the root cleared to the identity, then a down-sweep over strides n/2, ..., 1 in which
// node i = (t + 1) 2s - 1 hands its value (the prefix before its subtree) to its left
// child i - s and takes that prefix combined with the left child's old value (the left
// subtree's total).  gpuscan's kernels scan inclusively and have no Blelloch scan: only
// the trace runs this step.
template <bool PADDED>
struct blelloch_step : brent_kung_step<PADDED>
{
  typedef brent_kung_step<PADDED> tree;
  static __host__ __device__ __forceinline__ bool adds_down (int t, int s, int n)
  { return tree::node (t, s) < n; }
  template <typename S, typename Combine>
  static __host__ __device__ __forceinline__ void down (S *buf, int t, int s, int n, Combine combine)
  {
    const int i = tree::node (t, s);
    if (adds_down (t, s, n))
      {
        const S left = buf[tree::slot (i - s)];
        buf[tree::slot (i - s)] = buf[tree::slot (i)];
        buf[tree::slot (i)] = combine (buf[tree::slot (i)], left);
      }
  }
};

}  // namespace gsk

// Tiles of a batch of contiguous lines (inner == 1): n = len * outer elements in
// logical order p (forward, or from the end for a reverse scan).  A block stages its
// tile through shared memory with coalesced, striped loads, so that every thread then
// reads its own run of consecutive elements in logical order, in either direction.
#pragma once

#include <cstdint>

#include "agent/redo_gate.cuh"
#include "base/scan_desc.h"
#include "ops/scan_ops.cuh"

namespace gsk {

// A recurrence's second input and initial value (scan_desc: coef, coef_scalar, initial)
struct coef_args
{
  const void *coef;   // a(k), laid out as x, or one value for all; null: no recurrence
  int coef_scalar;
  double y0[2];       // (real, imaginary)
};

inline coef_args make_coef_args (const scan_desc *d)
{
  return { d->coef, d->coef_scalar, { d->initial[0], d->initial[1] } };
}

struct line_args
{
  const void *x;
  void *y;
  double *ix;
  const uint8_t *heads;
  int heads_full;
  int reverse, exclusive;
  int input;   // x's class where the tile loads convert it (scan_desc: input), else 0
  int64_t n, len;
  redo_gate gate;
  coef_args rec;
};
// (the members of a parameter struct of up to 128 bytes stay in registers: lanes_scan.cuh)
static_assert (sizeof (line_args) <= 128, "line_args fits the compiler's 128 bytes");

// x and y both 16-byte aligned (the engine's arrays are), for kernels that move vectors
inline bool vector_aligned (const void *x, const void *y)
{
  return ((reinterpret_cast<uintptr_t> (x) | reinterpret_cast<uintptr_t> (y)) & 15) == 0;
}

inline line_args make_line_args (const scan_desc *d)
{
  return { d->x, d->y, d->index, d->heads, d->heads_full, d->reverse, d->exclusive, d->input,
           scan_numel (d), d->len, redo_gate {}, make_coef_args (d) };
}

// The bytes of one element of x as the kernels read it: its own class where the tile
// loads convert it (line_args: input), else the element's
template <typename E>
__host__ __device__ __forceinline__ int input_bytes (const line_args& g)
{
  switch (g.input)
    {
    case SCAN_INPUT_LOGICAL: case SCAN_INPUT_INT8: case SCAN_INPUT_UINT8: return 1;
    case SCAN_INPUT_INT16: case SCAN_INPUT_UINT16: return 2;
    case SCAN_INPUT_INT32: case SCAN_INPUT_UINT32: case SCAN_INPUT_SINGLE: return 4;
    default: return (int) sizeof (E);
    }
}

// Elements copied from global to shared memory with cp.async (sm_80 on): they bypass
// the registers, so every load of a tile can be in flight at once.  With plain loads
// the 32-register cap of the wide tiles let only 4-5 of a thread's 14 loads out at a
// time (H100, decoupled scans at 2^26..2^28, x copy, with the shapes of tuning.cuh:
// native int64 sum 1.13-1.14 -> 1.10-1.12, double max 1.41 -> 1.39, staged single sum
// 1-3% faster).
template <typename T>
__device__ __forceinline__ void copy_to_shared (T *dst, const T *src)
{
#if __CUDA_ARCH__ >= 800
  if constexpr ((sizeof (T) == 4 || sizeof (T) == 8) && alignof (T) == sizeof (T))
    {
      asm volatile ("cp.async.ca.shared.global [%0], [%1], %2;"
                    :: "r"((unsigned) __cvta_generic_to_shared (dst)), "l"(src), "n"(sizeof (T))
                    : "memory");
      return;
    }
#endif
  *dst = *src;
}

// this thread's copies have landed (a barrier then shows them to the block)
__device__ __forceinline__ void copies_to_shared_done ()
{
#if __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_all;" ::: "memory");
#endif
}

// Where the elements of a scan come from and where its outputs go, at position q of the
// arrays: an element is x[q] and an output y[q] of the same type, but a recurrence's
// element is the pair (a[q], x[q]) and its output y[q] = p y0 + c from the map (p, c) its
// state emitted (scan_ops.cuh: recurrence_op).
template <typename E>
struct element_access
{
  static constexpr bool plain = true;   // (the lane kernels keep their own loads and stores)
  typedef E out;
  static __device__ __forceinline__ void to_shared (E *dst, const void *x, const coef_args&, int64_t q)
  { copy_to_shared (dst, static_cast<const E *> (x) + q); }
  static __device__ __forceinline__ E output (const E& v, const coef_args&) { return v; }
};

template <typename T> __device__ __forceinline__ T from_parts (const double *v) { return T (v[0]); }
template <> __device__ __forceinline__ cplx<double> from_parts<cplx<double>> (const double *v)
{ return { v[0], v[1] }; }
template <> __device__ __forceinline__ cplx<float> from_parts<cplx<float>> (const double *v)
{ return { float (v[0]), float (v[1]) }; }

template <typename T>
struct element_access<affine<T>>
{
  static constexpr bool plain = false;
  typedef affine<T> E;
  typedef T out;
  static __device__ __forceinline__ const T *coef (const coef_args& c)
  { return static_cast<const T *> (c.coef); }
  static __device__ __forceinline__ E load (const void *x, const coef_args& c, int64_t q)
  { return { coef (c)[c.coef_scalar ? 0 : q], static_cast<const T *> (x)[q] }; }
  static __device__ __forceinline__ void to_shared (E *dst, const void *x, const coef_args& c, int64_t q)
  {
    copy_to_shared (&dst->b, static_cast<const T *> (x) + q);
    if (c.coef_scalar)
      dst->a = coef (c)[0];
    else
      copy_to_shared (&dst->a, coef (c) + q);
  }
  // (y0 = 0, the default: c alone, b at a segment's start (recurrence_op).  p y0 would
  // turn every Inf p (an Inf a anywhere before k in the segment, an overflowed product)
  // into NaN where the loop gives Inf or a number)
  static __device__ __forceinline__ T output (const E& v, const coef_args& c)
  { return c.y0[0] == 0 && c.y0[1] == 0 ? v.b : v.a * from_parts<T> (c.y0) + v.b; }
};

// a staged tile's values, with its padding (tile_io::pad)
template <typename T, int SIZE>
struct staged_values
{
  T v[SIZE + SIZE / 32];
};

// NARROW: x may come in a narrower class than T (line_args: input), converted as each
// element is staged (the sums into double: reads_narrow in device_scan.cuh)
template <typename T, int BLOCK, int ITEMS, bool NARROW = false>
struct tile_io
{
  static constexpr int size = BLOCK * ITEMS;
  // one padding slot every 32 values: a thread's run of ITEMS values then starts in
  // another bank than its neighbour's
  static __device__ __forceinline__ int pad (int i) { return i + (i >> 5); }

  // (full head flags go to a separate dynamic array, `size` bytes, which the kernels
  // get only when there are such flags: without it more blocks fit on an SM)
  typedef staged_values<T, size> storage;
  // the indices of max and min, staged in dynamic shared memory like the values
  static constexpr size_t index_bytes = (size + size / 32) * sizeof (double);

  int64_t p0;     // logical position of the tile's first element
  int cnt;        // elements in this tile
  int64_t q_lo;   // physical position of the tile's lowest element

  __device__ __forceinline__ tile_io (const line_args& g, int64_t tile)
  {
    p0 = tile * size;
    cnt = (int) min ((int64_t) size, g.n - p0);
    q_lo = g.reverse ? g.n - p0 - cnt : p0;
  }

  // physical offset inside the tile of logical offset i
  __device__ __forceinline__ int phys (const line_args& g, int i) const
  { return g.reverse ? cnt - 1 - i : i; }
  // the same in a tile that whole () takes as full (reverse: it is)
  __device__ __forceinline__ int phys_whole (const line_args& g, int i) const
  { return g.reverse ? size - 1 - i : i; }

  // Can the runs of this tile be walked as those of a full tile?  A partial tile of a
  // forward scan can: its pads (zeros, see load) come after all its elements, so they
  // change no output but their own, which is never stored, and the tile's total, which
  // no later tile reads (it is the last).  (A reverse scan's elements lie at the tile's
  // end in scan order; those walk one by one.  Staged at the slots' end so that every
  // tile is whole, the walk's slots no longer depended on cnt, and the compiler hoisted
  // its shared loads: line blocks of max and min took 189 registers instead of 64, and
  // others moved by up to 16 registers or spilled; sm_90 ptxas, commit d45052e.)
  __device__ __forceinline__ bool whole (const line_args& g) const
  {
    return cnt == size || ! g.reverse;
  }

  // the elements from x in class In, converted exactly (integers of up to 32 bits and
  // singles into double)
  template <typename In>
  __device__ __forceinline__ void load_as (storage& st, const line_args& g) const
  {
    const In *x = static_cast<const In *> (g.x) + q_lo;
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      {
        const int i = j * BLOCK + threadIdx.x;
        if (i < cnt)
          st.v[pad (i)] = T (x[i]);
      }
  }

  __device__ __forceinline__ void load_elements (storage& st, const line_args& g) const
  {
    if constexpr (NARROW)
      {
        switch (g.input)
          {
          case SCAN_INPUT_LOGICAL: case SCAN_INPUT_UINT8: return load_as<uint8_t> (st, g);
          case SCAN_INPUT_INT8: return load_as<int8_t> (st, g);
          case SCAN_INPUT_INT16: return load_as<int16_t> (st, g);
          case SCAN_INPUT_UINT16: return load_as<uint16_t> (st, g);
          case SCAN_INPUT_INT32: return load_as<int32_t> (st, g);
          case SCAN_INPUT_UINT32: return load_as<uint32_t> (st, g);
          case SCAN_INPUT_SINGLE: return load_as<float> (st, g);
          default: break;
          }
      }
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      {
        const int i = j * BLOCK + threadIdx.x;
        if (i < cnt)
          element_access<T>::to_shared (&st.v[pad (i)], g.x, g.rec, q_lo + i);
      }
  }

  __device__ __forceinline__ void load (storage& st, uint8_t *h, const line_args& g) const
  {
    load_elements (st, g);
    // the pads of a partial tile (see whole): zeros, a step that leaves the range of no
    // native sum (no redo)
    for (int i = cnt + threadIdx.x; i < size; i += BLOCK)
      st.v[pad (i)] = T ();
    if (g.heads && g.heads_full)
      {
        // a reverse scan starts a segment at the element before a head
        const int64_t shift = g.reverse ? 1 : 0;
        const uint8_t *src = g.heads + q_lo + shift;
        if (cnt == size && size % 16 == 0 && q_lo + shift + size <= g.n
            && (reinterpret_cast<uintptr_t> (src) & 15) == 0)
          for (int i = threadIdx.x; i < size / 16; i += BLOCK)   // 16 flags a load
            reinterpret_cast<uint4 *> (h)[i] = reinterpret_cast<const uint4 *> (src)[i];
        else
          for (int i = threadIdx.x; i < cnt; i += BLOCK)
            {
              const int64_t q = q_lo + i + shift;
              h[i] = q < g.n ? g.heads[q] : 0;
            }
      }
    copies_to_shared_done ();
  }

  __device__ __forceinline__ void store (const storage& st, const line_args& g) const
  {
    typedef element_access<T> E;
    typename E::out *y = static_cast<typename E::out *> (g.y) + q_lo;
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      {
        const int i = j * BLOCK + threadIdx.x;
        if (i < cnt)
          y[i] = E::output (st.v[pad (i)], g.rec);
      }
  }

  __device__ __forceinline__ void store_index (const double *ix_st, const line_args& g) const
  {
    double *ix = g.ix + q_lo;
#pragma unroll
    for (int j = 0; j < ITEMS; j++)
      {
        const int i = j * BLOCK + threadIdx.x;
        if (i < cnt)
          ix[i] = ix_st[pad (i)];
      }
  }
};

// Walks a thread's run of elements: line boundaries and heads, without a division
// per element.
struct line_walker
{
  int64_t k;   // logical position inside the line
  int64_t len;

  __device__ __forceinline__ line_walker (const line_args& g, int64_t p)
    : k (p % g.len), len (g.len) { }

  // physical position along the dimension (what max/min report)
  __device__ __forceinline__ int64_t kphys (const line_args& g) const
  { return g.reverse ? len - 1 - k : k; }

  // does the current element start a segment?  head_byte: the staged full head flag
  __device__ __forceinline__ bool starts (const line_args& g, uint8_t head_byte) const
  {
    if (k == 0)
      return true;
    if (! g.heads)
      return false;
    if (g.heads_full)
      return head_byte != 0;
    return g.heads[g.reverse ? len - k : k] != 0;   // reverse: the flag after it
  }

  __device__ __forceinline__ void next ()
  {
    if (++k == len)
      k = 0;
  }
};

// bytes [lo, lo + cnt) x elem_bytes of a into L2 (sm_90 bulk prefetch: 16-byte steps)
__device__ __forceinline__ void prefetch_l2 (const void *a, int64_t lo, int64_t cnt, int elem_bytes)
{
#if __CUDA_ARCH__ >= 900
  const uintptr_t p = reinterpret_cast<uintptr_t> (a);
  const uintptr_t first = (p + lo * elem_bytes) & ~uintptr_t (15);
  const uintptr_t end = (p + (lo + cnt) * elem_bytes) & ~uintptr_t (15);
  if (end > first)
    asm volatile ("cp.async.bulk.prefetch.L2.global [%0], %1;"
                  :: "l"(first), "r"((unsigned) (end - first)) : "memory");
#endif
}

// A block asks L2 for the input of the tile `ahead` tiles after its own (one thread):
// its elements (elem_bytes each in x; not a recurrence's coefficients) and its head
// flags, so that the memory stays busy while blocks wait: a
// decoupled tile that waits on its look-back holds its data and loads nothing more, so
// at any time part of the GPU's blocks keep no loads in flight.  Tiles count in the
// scan's order (a reverse scan's from the end).  (H200, segmented singles, x copy at
// 2^26 / 2^28, the elements alone against elements and flags: 1.20 / 1.14 -> 1.19 / 1.12.)
__device__ __forceinline__ void prefetch_tile (const line_args& g, int elem_bytes, int64_t tile,
                                               int tile_elems, int64_t ahead)
{
  if (! ahead || threadIdx.x != 0)
    return;
  const int64_t p0 = (tile + ahead) * tile_elems;
  if (p0 >= g.n)
    return;
  const int64_t cnt = min ((int64_t) tile_elems, g.n - p0);
  const int64_t q_lo = g.reverse ? g.n - p0 - cnt : p0;
  prefetch_l2 (g.x, q_lo, cnt, elem_bytes);
  if (g.heads && g.heads_full)
    prefetch_l2 (g.heads, q_lo, cnt, 1);
}

}  // namespace gsk

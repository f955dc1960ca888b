// The decoupled scan of contiguous lines (forward, or reverse for one line of whole
// vectors; inclusive where there is more than one line or there are head flags) whose
// elements travel in 16-byte vectors: 4-byte elements whose state is the element itself
// (single sums and products, the wrapping pass of 4-byte native sums), and on one line
// without head flags 1- and 2-byte integers whose states travel packed in the look-back
// (logical and bitwise scans, native sums).  The tile lives in registers, in rows of one
// 16-byte vector a thread (a row: striped_threads x 16 bytes, one coalesced stretch), and
// the block scans all its rows at once.  Without the shared-memory staging of
// tile_scan_kernel a tile can be twice as large, so half as many look-backs stall their
// blocks: the look-back is what separates the staged kernel from a copy (without it, the
// staged kernel runs at the copy time).  A tile holds the same bytes whatever the
// element's size, so narrow elements take as few look-backs a byte as 4-byte ones (the
// staged tiles of 4096 bytes took 3.5x a copy for logical scans, H200).
#pragma once

#include <cuda_runtime.h>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "agent/look_back.cuh"
#include "agent/redo_gate.cuh"
#include "agent/tile_io.cuh"
#include "block/block_scan.cuh"
#include "ops/scan_ops.cuh"
#include "tuning/tuning.cuh"

namespace gsk {

template <typename Op, bool LINES = false>
struct striped_tile
{
  typedef typename Op::elem T;
  typedef typename Op::A A;
  // the operators it serves: 4-byte elements that are their own state; 1- and 2-byte
  // integers on one line without head flags (a row of a thread's flags would be 16
  // bytes, and its start bits more than a word holds), their states packed in one word
  // with the look-back's flags (not max and min, whose value-index states take two);
  // exclusive scans of 4-byte elements only (a narrow one takes the staged tiles: no
  // kernel of its own for so rare a call)
  static constexpr bool narrow = sizeof (T) <= 2 && std::is_integral<T>::value;
  static constexpr bool serves = (sizeof (T) == 4 && std::is_same<A, T>::value)
                                 || (narrow && ! LINES && status_word<A>::count == 1);
  static constexpr bool serves_exclusive = serves && ! narrow;
  static constexpr int per = 16 / sizeof (T);
  static constexpr int threads = striped_threads;
  static constexpr int row = threads * per;
  static constexpr int rows = LINES ? striped_rows_lines : narrow ? striped_rows_narrow : striped_rows;
  static constexpr int size = rows * row;

  // the rows, as words, a thread's elements read and written as bit fields of them (as
  // an array of bytes the tile left the registers: 536 bytes of stack, sm_90).  Each read
  // of a narrow element is an extract of its own, which the compiler may not merge with
  // another: merged, the fold's extracts stayed live across the look-back and spilled.
  uint4 v[rows];
  static constexpr int in_word = 4 / (int) sizeof (T);
  static __device__ __forceinline__ unsigned& word (uint4& a, int k)
  { return k == 0 ? a.x : k == 1 ? a.y : k == 2 ? a.z : a.w; }
  // element c of this thread's vector in row j
  __device__ __forceinline__ T get (int j, int c)
  {
    const unsigned w = word (v[j], c / in_word);
    if constexpr (in_word == 1)
      {
        T e;
        memcpy (&e, &w, sizeof e);
        return e;
      }
    else
      {
        unsigned e;
        asm volatile ("bfe.u32 %0, %1, %2, %3;" : "=r"(e)
                      : "r"(w), "r"(8 * (int) sizeof (T) * (c % in_word)), "r"(8 * (int) sizeof (T)));
        return T (e);
      }
  }
  __device__ __forceinline__ void set (int j, int c, T e)
  {
    unsigned& w = word (v[j], c / in_word);
    if constexpr (in_word == 1)
      memcpy (&w, &e, sizeof e);
    else
      {
        const int shift = 8 * sizeof (T) * (c % in_word);
        const unsigned mask = ((1u << 8 * sizeof (T)) - 1) << shift;
        w = (w & ~mask) | (unsigned (typename std::make_unsigned<T>::type (e)) << shift);
      }
  }

  // element c of this thread's vector in row j, from the tile's start
  static __device__ __forceinline__ int offset (int j, int c) { return j * row + threadIdx.x * per + c; }

  // A reverse scan's tile (plain vectors of a multiple of `per` elements only) mirrors
  // a forward one: logical element L lies at n - 1 - L, so that this thread's vector in
  // row j is the physical vector (rows - 1 - j, threads - 1 - thread), its elements in
  // reverse order.  (load branches on the direction, store steps by a signed row and
  // mirrors the tile in place, its last use: of the four ways, the one where no kernel
  // spills under the 80-register cap, sm_90.)
  static constexpr bool mirrors = ! LINES;
  static __device__ __forceinline__ unsigned mirrored (unsigned w)
  { return in_word == 1 ? w : __byte_perm (w, 0, in_word == 2 ? 0x1032 : 0x0123); }
  static __device__ __forceinline__ uint4 mirrored (uint4 a)
  { return make_uint4 (mirrored (a.w), mirrored (a.z), mirrored (a.y), mirrored (a.x)); }

  // what the missing elements of a partial tile read as: an element that changes no
  // state (the identity where the state is the element; a native sum's is 0)
  static __device__ __forceinline__ T pad ()
  {
    if constexpr (std::is_convertible<A, T>::value)
      return T (Op::identity ());
    else
      return T (0);
  }

  // rem: elements from the tile's start to the end (size or fewer: a partial tile, whose
  // missing elements read as pad (), so that the scan needs no bounds of its own)
  __device__ __forceinline__ void load (const line_args& g, int rem, int64_t base)
  {
    const T *x = static_cast<const T *> (g.x);
    const bool rev = mirrors && g.reverse;
    if (rem == size)
      {
        if (rev)
          {
            const uint4 *src = reinterpret_cast<const uint4 *> (x + g.n - base) - 1 - threadIdx.x;
#pragma unroll
            for (int j = 0; j < rows; j++)
              v[j] = mirrored (__ldcs (src - j * threads));
            return;
          }
        const uint4 *src = reinterpret_cast<const uint4 *> (x + base) + threadIdx.x;
#pragma unroll
        for (int j = 0; j < rows; j++)
          v[j] = __ldcs (src + j * threads);
      }
    else
#pragma unroll
      for (int j = 0; j < rows; j++)
#pragma unroll
        for (int c = 0; c < per; c++)
          {
            const int64_t p = base + offset (j, c);
            set (j, c, offset (j, c) < rem ? x[rev ? g.n - 1 - p : p] : pad ());
          }
  }

  __device__ __forceinline__ void store (const line_args& g, int rem, int64_t base)
  {
    T *y = static_cast<T *> (g.y);
    const bool rev = mirrors && g.reverse;
    if (rem == size)
      {
        uint4 *dst = rev ? reinterpret_cast<uint4 *> (y + g.n - base) - 1 - threadIdx.x
                         : reinterpret_cast<uint4 *> (y + base) + threadIdx.x;
        const int step = rev ? -threads : threads;
        if (rev)
#pragma unroll
          for (int j = 0; j < rows; j++)
            v[j] = mirrored (v[j]);
#pragma unroll
        for (int j = 0; j < rows; j++)
          __stcs (dst + j * step, v[j]);
      }
    else
#pragma unroll
      for (int j = 0; j < rows; j++)
#pragma unroll
        for (int c = 0; c < per; c++)
          if (offset (j, c) < rem)
            {
              const int64_t p = base + offset (j, c);
              y[rev ? g.n - 1 - p : p] = get (j, c);
            }
  }
};

// several lines or head flags cut g's tiles: the kernel of segmented states
inline bool striped_lines (const line_args& g) { return g.len != g.n || g.heads; }

// does g take the striped kernel?  (x and y 16-byte aligned: the engine's arrays are;
// lines of at least one vector, so that a vector holds at most one line start; full
// head flags, 4-byte aligned, read four at a time; a reverse scan: one line of whole
// vectors, see striped_tile::mirrors); from `from` elements (tuning_tables.cuh: wide_tile_from)
template <typename Op>
inline bool striped_applies (const line_args& g, long long from)
{
  const bool lines = striped_lines (g);
  return (lines ? striped_tile<Op, true>::serves
          : g.exclusive ? striped_tile<Op>::serves_exclusive : striped_tile<Op>::serves)
         && g.n >= from && ! g.ix && ! g.gate.exact
         && (! g.reverse || (! lines && g.n % striped_tile<Op>::per == 0))
         && (! lines || (! g.exclusive && g.len >= striped_tile<Op>::per))
         && (! g.heads || (g.heads_full && (reinterpret_cast<uintptr_t> (g.heads) & 3) == 0))
         && vector_aligned (g.x, g.y);
}

// The state of a stretch of the tile: the operator's own, or where lines or heads cut
// the tile (LINES), a segmented state (scan_ops.cuh: seg)
template <typename Op, bool LINES> struct striped_state
{
  typedef typename Op::A S;
  static __device__ __forceinline__ S identity () { return Op::identity (); }
  static __device__ __forceinline__ S combine (const S& x, const S& y) { return Op::combine (x, y); }
  static __device__ __forceinline__ S make (const typename Op::A& a, bool) { return a; }
  static __device__ __forceinline__ typename Op::A value (const S& s) { return s; }
  static __device__ __forceinline__ bool head (const S&) { return false; }
  static __device__ __forceinline__ seg<Op> to_seg (const S& s) { return { s, 0 }; }
  static __device__ __forceinline__ S from_seg (const seg<Op>& s) { return s.a; }
};
template <typename Op> struct striped_state<Op, true>
{
  typedef seg<Op> S;
  static __device__ __forceinline__ S identity () { return seg_identity<Op> (); }
  static __device__ __forceinline__ S combine (const S& x, const S& y) { return seg_combine<Op> (x, y); }
  static __device__ __forceinline__ S make (const typename Op::A& a, bool head) { return { a, head }; }
  static __device__ __forceinline__ typename Op::A value (const S& s) { return s.a; }
  static __device__ __forceinline__ bool head (const S& s) { return s.head; }
  static __device__ __forceinline__ seg<Op> to_seg (const S& s) { return s; }
  static __device__ __forceinline__ S from_seg (const seg<Op>& s) { return s; }
};

// The head flags of this thread's vector in each row (LINES with heads), one 4-byte
// word a row, all loaded before any is looked at, so that the loads are in flight together
// (where the compiler kept the test of a full tile between the rows, each load waited for
// the one before: 1.24x -> 1.76x the copy time, H200).  The kernel loads them before the
// tile's elements: issued behind the elements' loads they held up the rows' scans (H200,
// segmented singles, x copy at 2^24 / 2^26 / 2^28, both with the flags' L2 prefetch:
// 1.37 / 1.19 / 1.12 -> 1.27 / 1.15 / 1.11).  (A plain load: as a streaming load, like
// the elements', the scan took 1.50x instead of 1.15x.)
template <typename Op>
__device__ __forceinline__ void striped_head_words (const line_args& g, int64_t base, int rem,
                                                    unsigned (&flags)[striped_tile<Op, true>::rows])
{
  typedef striped_tile<Op, true> tile_t;
  static_assert (tile_t::per == 4, "a vector's head flags: one 4-byte word");
  if (! g.heads)
    return;
  if (rem == tile_t::size)
#pragma unroll
    for (int j = 0; j < tile_t::rows; j++)
      flags[j] = *reinterpret_cast<const unsigned *> (g.heads + base + tile_t::offset (j, 0));
  else
#pragma unroll
    for (int j = 0; j < tile_t::rows; j++)
      {
        flags[j] = 0;
#pragma unroll
        for (int c = 0; c < tile_t::per; c++)
          if (tile_t::offset (j, c) < rem)
            flags[j] |= (unsigned) g.heads[base + tile_t::offset (j, c)] << 8 * c;
      }
}

// Which elements of this thread's vector in each row start a segment (LINES): bit
// 4 * j + c for element c of row j (a line start, or a head flag; flags: the words of
// striped_head_words)
template <typename Op>
__device__ __forceinline__ unsigned long long striped_starts (const line_args& g, int64_t base,
                                                              const unsigned (&flags)[striped_tile<Op, true>::rows])
{
  typedef striped_tile<Op, true> tile_t;
  static_assert (tile_t::per * tile_t::rows <= 64, "one bit an element");
  unsigned long long starts = 0;
  if (g.len != g.n)
    {
      // position in its line of the vector's first element, row after row
      int64_t k = (base + threadIdx.x * tile_t::per) % g.len;
      const int64_t step = tile_t::row % g.len;
#pragma unroll
      for (int j = 0; j < tile_t::rows; j++)
        {
          const int64_t c = k == 0 ? 0 : g.len - k;
          if (c < tile_t::per)
            starts |= 1ull << (j * tile_t::per + c);
          k += step;
          if (k >= g.len)
            k -= g.len;
        }
    }
  if (g.heads)
    // a row's four flag bytes to four bits: the top bit of each byte set where the byte
    // is nonzero, then those gathered by one multiply (their products land on distinct
    // bits, so no carry reaches bits 28-31).  (Bit by bit, each byte tested: H200,
    // segmented singles of 2^26, 1.22-1.23x a copy against 1.21x, four runs each.)
#pragma unroll
    for (int j = 0; j < tile_t::rows; j++)
      {
        const unsigned nonzero = (((flags[j] & 0x7f7f7f7fu) + 0x7f7f7f7fu) | flags[j]) & 0x80808080u;
        starts |= (unsigned long long) ((nonzero * 0x00204081u) >> 28) << (j * tile_t::per);
      }
  return starts;
}

// one tile a block; exclusive scans take their own kernel: shifting the outputs costs
// registers, and as a kernel argument the inclusive scans spilled too (H100, single sum
// 2^26: 1.12x -> 1.10x the copy time without the spill); so do scans of several lines
// or with heads (LINES, inclusive only)
template <typename Op, bool EXCLUSIVE, bool LINES, bool ORDERED = false>
__global__ void __launch_bounds__ (striped_threads, striped_min_blocks)
striped_scan_kernel (line_args g, prefix_by_look_back<Op, ORDERED> look)
{
  typedef typename Op::elem T;
  typedef typename Op::A A;
  typedef runner<Op> R;
  typedef striped_tile<Op, LINES> tile_t;
  typedef striped_state<Op, LINES> St;
  typedef typename St::S S;
  static_assert (! (EXCLUSIVE && LINES), "exclusive scans of lines take the staged kernel");
  constexpr int warps = tile_t::threads / 32;
  // warp totals of each row, then the warps' exclusive offsets in the tile
  __shared__ S warp_offset[tile_t::rows][warps];
  __shared__ S tile_prefix_st;
  if (! begin_pass<R> (g.gate))
    return;

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const auto combine = [] (const S& x, const S& y) { return St::combine (x, y); };
  const auto op_combine = [] (const A& x, const A& y) { return Op::combine (x, y); };
  const int64_t base = (int64_t) blockIdx.x * tile_t::size;
  const int rem = (int) min ((int64_t) tile_t::size, g.n - base);
  unsigned head_words[LINES ? tile_t::rows : 1];
  if constexpr (LINES)
    striped_head_words<Op> (g, base, rem, head_words);
  tile_t t;
  t.load (g, rem, base);
  prefetch_tile (g, (int) sizeof (T), blockIdx.x, tile_t::size, look.prefetch_ahead);
  unsigned long long starts = 0;
  if constexpr (LINES)
    starts = striped_starts<Op> (g, base, head_words);
  const auto starts_at = [&] (int j, int c) { return LINES && ((starts >> (j * tile_t::per + c)) & 1); };

  // each row: the thread's vector folded, scanned across the warp (the lanes' exclusive
  // states kept as values and one bit a row for their heads: as seg states they spilled)
  A lane_excl[tile_t::rows];
  unsigned lane_excl_heads = 0;
#pragma unroll
  for (int j = 0; j < tile_t::rows; j++)
    {
      if constexpr (LINES)
        if (__any_sync (0xffffffffu, (starts >> (j * tile_t::per)) & ((1u << tile_t::per) - 1)))
          {
            S a = St::identity ();
#pragma unroll
            for (int c = 0; c < tile_t::per; c++)
              a = St::combine (a, St::make (Op::lift (t.get (j, c), base + tile_t::offset (j, c)),
                                            starts_at (j, c)));
            a = warp_inclusive_scan (a, combine);
            if (lane == 31)
              warp_offset[j][warp] = a;
            const S before = shfl_up (a, 1);
            const S excl = lane ? before : St::identity ();
            lane_excl[j] = St::value (excl);
            lane_excl_heads |= (unsigned) St::head (excl) << j;
            continue;
          }
      // (no segment starts in the warp's row, as in most rows of sparse head flags: the
      // operator's own scan, with no heads to carry; the vector folded as a run, which a
      // native sum folds cheaper than map by map)
      run_fold<Op> fold;
#pragma unroll
      for (int c = 0; c < tile_t::per; c++)
        fold.step (t.get (j, c), base + tile_t::offset (j, c));
      A a = warp_inclusive_scan (fold.state (), op_combine);
      if (lane == 31)
        warp_offset[j][warp] = St::make (a, false);
      const A before = shfl_up (a, 1);
      lane_excl[j] = lane ? before : Op::identity ();
    }
  __syncthreads ();

  // warp 0: the warps' offsets in the tile, as one scan of the row-major (row, warp)
  // totals (chaining the rows one after another cost 1.6 us a tile under full memory
  // load, all on the look-back's critical path), then the tile's prefix by the look-back
  if (warp == 0)
    {
      constexpr int totals = tile_t::rows * warps;
      constexpr int per_lane = (totals + 31) / 32;
      S *total = &warp_offset[0][0];
      S x[per_lane];
      S run = St::identity ();
#pragma unroll
      for (int k = 0; k < per_lane; k++)
        {
          const int i = lane * per_lane + k;
          x[k] = i < totals ? total[i] : St::identity ();
          run = St::combine (run, x[k]);
        }
      const S incl = warp_inclusive_scan (run, combine);
      const S before = shfl_up (incl, 1);
      S excl = lane ? before : St::identity ();
#pragma unroll
      for (int k = 0; k < per_lane; k++)
        {
          const int i = lane * per_lane + k;
          if (i < totals)
            total[i] = excl;
          excl = St::combine (excl, x[k]);
        }
      const S acc = shfl_idx (incl, 31);
      const seg<Op> prefix = tile_exclusive_prefix<ORDERED> (look.ts, (int64_t) blockIdx.x, look.epoch,
                                                                St::to_seg (acc), look.pace);
      if (lane == 0)
        tile_prefix_st = St::from_seg (prefix);
    }
  __syncthreads ();

  bool left = false;
#pragma unroll
  for (int j = 0; j < tile_t::rows; j++)
    {
      const S lane_prefix = St::make (lane_excl[j], (lane_excl_heads >> j) & 1);
      typename R::V value = R::start (St::value (St::combine (St::combine (tile_prefix_st, warp_offset[j][warp]),
                                                              lane_prefix)));
#pragma unroll
      for (int c = 0; c < tile_t::per; c++)
        {
          const T x = t.get (j, c);
          if (starts_at (j, c))
            value = R::reset ();
          left |= leaves_range<R> (value, x);   // (never on a pad)
          value = R::step (value, x, base + tile_t::offset (j, c));
          T out;
          R::emit (value, &out, nullptr);
          t.set (j, c, out);
        }
      if (EXCLUSIVE)
        {
          // the outputs move up by one element: the thread's first takes the lane
          // before's last (for lane 0: the warp's offset in the tile); keeping the
          // start value for it instead took 15 registers more
          const T before = shfl_up (t.get (j, tile_t::per - 1), 1);
#pragma unroll
          for (int c = tile_t::per - 1; c > 0; c--)
            t.set (j, c, exclusive_output<Op>::of (t.get (j, c - 1)));
          if (lane)
            t.set (j, 0, exclusive_output<Op>::of (before));
          else
            {
              T first;
              R::emit (exclusive_output<Op>::of (R::start (St::value (St::combine (tile_prefix_st,
                                                                                   warp_offset[j][warp])))),
                       &first, nullptr);
              t.set (j, 0, first);
            }
        }
    }
  t.store (g, rem, base);
  note_redo (g.gate, left);
}

}  // namespace gsk

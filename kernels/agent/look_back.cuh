// The decoupled look-back (Merrill & Garland 2016): each tile publishes its aggregate,
// then its inclusive prefix, in a status slot; a tile's exclusive prefix comes from its
// predecessors' slots.  Shared by the tile kernels of device_scan.cuh and striped_scan.cuh.
#pragma once

#include <cuda_runtime.h>
#include <cstdint>

#include "agent/workspace.cuh"
#include "block/block_scan.cuh"
#include "ops/scan_ops.cuh"

namespace gsk {

// ---- published tile states of the look-back ----------------------------------------
// flag = epoch << 2 | state; a flag of another epoch is "not yet" (so the flags never
// need clearing between scans), 1: aggregate published, 2: inclusive prefix published
enum { tile_aggregate = 1, tile_prefix = 2 };

// A flag keeps the low 30 bits of its word; the two above are the state's where it needs
// them.
constexpr unsigned flag_bits = (1u << 30) - 1;
static_assert (((epoch_limit - 1) << 2 | tile_prefix) <= flag_bits,
               "every epoch's flags fit below the state's bits");

// A state packed with its flag (status_word): in one 16-byte word (states of up to 8
// bytes), in two (up to 16 bytes), or not at all (larger: stored, then flagged after a
// fence).  `words` is what a slot holds and a poll reads.
template <typename A, int COUNT>
struct packed_state
{
  static constexpr int count = 0;
  typedef uint4 words;
};

// States of up to 8 bytes: the state, its head, its flag.
template <typename A>
struct packed_state<A, 1>
{
  static constexpr int count = 1;
  typedef uint4 words;
  static __device__ __forceinline__ uint4 pack (const A& a, int head, unsigned flag)
  {
    union { A a; unsigned long long bits; } u;
    u.bits = 0;
    u.a = a;
    return make_uint4 ((unsigned) u.bits, (unsigned) (u.bits >> 32), (unsigned) head, flag);
  }
  static __device__ __forceinline__ A state (const uint4& w, int& head)
  {
    union { A a; unsigned long long bits; } u;
    u.bits = (unsigned long long) w.x | (unsigned long long) w.y << 32;
    head = (int) w.z;
    return u.a;
  }
};

// States of 9 to 16 bytes (double recurrences, complex double sums, double-double
// accurate sums, value-index states): a word for each 8 bytes, each with the head and
// the flag.  A reader takes the state only where both words hold the same flag: each is
// written once an epoch and state (tile_aggregate, then tile_prefix), so equal flags are
// one publication.  So they too cost one L2 round trip a read and no fence (they were
// stored and fenced before: H200, 2^26 double recurrence 2.20 -> 1.68x a copy, complex
// double sum 1.73 -> 1.33x, commit 247934d).
template <typename A>
struct packed_state<A, 2>
{
  static constexpr int count = 2;
  struct words { uint4 w[2]; };
  static __device__ __forceinline__ words pack (const A& a, int head, unsigned flag)
  {
    union { A a; unsigned long long bits[2]; } u;
#pragma unroll
    for (int k = 0; k < 2; k++)
      u.bits[k] = 0;
    u.a = a;
    words w;
#pragma unroll
    for (int k = 0; k < 2; k++)
      w.w[k] = make_uint4 ((unsigned) u.bits[k], (unsigned) (u.bits[k] >> 32), (unsigned) head, flag);
    return w;
  }
  static __device__ __forceinline__ A state (const words& w, int& head)
  {
    union { A a; unsigned long long bits[2]; } u;
#pragma unroll
    for (int k = 0; k < 2; k++)
      u.bits[k] = (unsigned long long) w.w[k].x | (unsigned long long) w.w[k].y << 32;
    head = (int) w.w[0].z;
    return u.a;
  }
};

template <typename A>
struct status_word : packed_state<A, sizeof (A) <= 8 ? 1 : sizeof (A) <= 16 ? 2 : 0>
{
  static constexpr bool fits = status_word::count > 0;
};

// The clamp maps of 4-byte integers (scan_ops.cuh: a within +-(2^32 - 1), 33 bits): lo,
// hi, the low 32 bits of a, then a's sign and the head above the flag.
template <typename T>
struct status_word<clamp_map<long long, T>>
{
  static_assert (sizeof (T) == 4, "clamp maps of 4-byte integers");
  static constexpr int count = 1;
  static constexpr bool fits = true;
  typedef uint4 words;
  static __device__ __forceinline__ uint4 pack (const clamp_map<long long, T>& m, int head, unsigned flag)
  {
    return make_uint4 ((unsigned) m.lo, (unsigned) m.hi, (unsigned) m.a,
                       (unsigned) ((m.a >> 32) & 1) << 31 | (unsigned) (head != 0) << 30 | flag);
  }
  static __device__ __forceinline__ clamp_map<long long, T> state (const uint4& w, int& head)
  {
    head = (w.w >> 30) & 1;
    const long long a = (long long) ((unsigned long long) (w.w >> 31) << 63) >> 31 | w.z;
    return { a, (T) w.x, (T) w.y };
  }
};

// Packed states are published and read in their words (status_word), each slot's words
// side by side; larger states are stored first, then flagged after a fence.
template <typename Op>
struct tile_status
{
  static constexpr bool packed = status_word<typename Op::A>::fits;
  static constexpr int words_per_slot = status_word<typename Op::A>::count;
  typedef typename status_word<typename Op::A>::words polled;
  unsigned *flags;          // unpacked
  seg<Op> *aggregate;
  seg<Op> *inclusive;
  uint4 *words;             // packed

  static size_t flag_bytes (int64_t tiles) { return (packed ? 16 * words_per_slot : sizeof (unsigned)) * tiles; }
};

// values are read past L1, which is not coherent with other SMs' writes
template <typename S>
__device__ __forceinline__ S load_cg (const S *p)
{
  constexpr int words = (sizeof (S) + 3) / 4;
  union { S s; unsigned w[words]; } u;
  const unsigned *src = reinterpret_cast<const unsigned *> (p);
#pragma unroll
  for (int i = 0; i < words; i++)
    u.w[i] = __ldcg (src + i);
  return u.s;
}

// a status word that another block may still write: a volatile load, so that the
// compiler keeps every read of a polling loop (a loop over a plain load that cannot see
// a change may be taken for an endless one and dropped)
__device__ __forceinline__ uint4 poll_word (const uint4 *p)
{
  uint4 w;
  asm volatile ("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w) : "l"(p) : "memory");
  return w;
}

template <typename Op>
__device__ __forceinline__ typename tile_status<Op>::polled pack (const seg<Op>& v, unsigned flag)
{
  return status_word<typename Op::A>::pack (v.a, v.head, flag);
}

template <typename Op>
__device__ __forceinline__ seg<Op> unpack (const typename tile_status<Op>::polled& w)
{
  int head;
  const typename Op::A a = status_word<typename Op::A>::state (w, head);
  return { a, head };
}

template <typename Op>
__device__ __forceinline__ void publish (tile_status<Op> ts, int64_t tile, unsigned epoch,
                                         int state, const seg<Op>& v)
{
  if constexpr (tile_status<Op>::words_per_slot == 1)
    __stcg (&ts.words[tile], pack<Op> (v, epoch << 2 | state));
  else if constexpr (tile_status<Op>::words_per_slot == 2)
    {
      const typename tile_status<Op>::polled w = pack<Op> (v, epoch << 2 | state);
#pragma unroll
      for (int k = 0; k < 2; k++)
        __stcg (&ts.words[tile * 2 + k], w.w[k]);
    }
  else
    {
      (state == tile_prefix ? ts.inclusive : ts.aggregate)[tile] = v;
      __threadfence ();
      atomicExch (&ts.flags[tile], epoch << 2 | state);
    }
}

// One poll of a status slot: its flag (packed: and the words that hold the state too;
// words whose flags differ, one publication's and the next's, read as no flag yet)
template <typename Op>
__device__ __forceinline__ unsigned read_flag (const tile_status<Op>& ts, int64_t slot,
                                               typename tile_status<Op>::polled& word)
{
  if constexpr (tile_status<Op>::words_per_slot == 1)
    {
      word = poll_word (&ts.words[slot]);
      return word.w & flag_bits;
    }
  else if constexpr (tile_status<Op>::words_per_slot == 2)
    {
#pragma unroll
      for (int k = 0; k < 2; k++)
        word.w[k] = poll_word (&ts.words[slot * 2 + k]);
      if (word.w[0].w != word.w[1].w)
        return 0;
      return word.w[0].w & flag_bits;
    }
  else
    return *(volatile unsigned *) &ts.flags[slot];
}

// the state behind a flag of this epoch that read_flag returned (unpacked: stored before
// the flag, so read after a fence)
template <typename Op>
__device__ __forceinline__ seg<Op> slot_state (const tile_status<Op>& ts, int64_t slot,
                                               unsigned flag, const typename tile_status<Op>::polled& word)
{
  if constexpr (tile_status<Op>::packed)
    return unpack<Op> (word);
  else
    {
      __threadfence ();
      return (flag & 3) == tile_prefix ? load_cg (&ts.inclusive[slot]) : load_cg (&ts.aggregate[slot]);
    }
}

// Pacing of a look-back, ns of __nanosleep (0: none): before a tile's first poll, and
// between polls of predecessors that have not published yet.  Under full memory load a
// tile that waits for its predecessors to publish costs less than one that polls them
// over and over (the polls compete with the tiles' loads and stores for L2).
struct look_back_pacing
{
  unsigned wait_ns, poll_ns;
};

// Warp 0 finds the tile's exclusive prefix: 32 predecessors at a time, waiting for each
// to publish, combining aggregates up to the nearest inclusive prefix (or head).
template <typename Op>
__device__ seg<Op> look_back (tile_status<Op> ts, int64_t tile, unsigned epoch, look_back_pacing pace)
{
  const int lane = threadIdx.x & 31;
  seg<Op> acc = seg_identity<Op> ();
  for (int64_t w = tile - 1;; w -= 32)
    {
      const int64_t idx = w - lane;
      // (before the first tile: an inclusive prefix of the identity)
      unsigned f = idx >= 0 ? 0 : epoch << 2 | tile_prefix;
      typename tile_status<Op>::polled word = {};
      for (bool first = true; __any_sync (0xffffffffu, (f >> 2) != epoch); first = false)
        {
          if (pace.poll_ns && ! first)
            __nanosleep (pace.poll_ns);
          if ((f >> 2) != epoch)
            f = read_flag (ts, idx, word);
        }
      seg<Op> v = idx >= 0 ? slot_state (ts, idx, f, word) : seg_identity<Op> ();
      const bool is_prefix = (f & 3) == tile_prefix;
      const unsigned stop = __ballot_sync (0xffffffffu, is_prefix || v.head);
      const int stop_lane = stop ? __ffs (stop) - 1 : 31;
      if (lane > stop_lane)
        v = seg_identity<Op> ();
      // lane 0 is the nearest tile: fold the window as v[31] + ... + v[0]
#pragma unroll
      for (int off = 1; off < 32; off <<= 1)
        {
          const seg<Op> o = shfl_down (v, off);
          if (lane + off < 32)
            v = seg_combine<Op> (o, v);
        }
      acc = seg_combine<Op> (shfl_idx (v, 0), acc);
      if (stop)
        return acc;
    }
}

// The look-back of a "reproducible" scan, whose prefixes must not depend on the timing:
// look_back above groups the states it finds as it finds them.  Here the 32 nearest
// predecessors are polled until one holds its inclusive prefix (or a head) and all after
// it their aggregates; that prefix and those aggregates are then folded one at a time,
// nearest last.  Every tile's inclusive prefix is so the sequential fold of the tiles'
// aggregates, whichever predecessor held the prefix that a tile found.
template <typename Op>
__device__ seg<Op> ordered_look_back (tile_status<Op> ts, int64_t tile, unsigned epoch,
                                      look_back_pacing pace)
{
  const int lane = threadIdx.x & 31;
  const int64_t idx = tile - 1 - lane;
  // (before the first tile: never folded, the first tile's prefix comes before)
  unsigned f = idx >= 0 ? 0 : epoch << 2 | tile_prefix;
  seg<Op> v = seg_identity<Op> ();
  for (bool first = true;; first = false)
    {
      if (pace.poll_ns && ! first)
        __nanosleep (pace.poll_ns);
      if (idx >= 0 && f != (epoch << 2 | tile_prefix))
        {
          typename tile_status<Op>::polled word = {};
          f = read_flag (ts, idx, word);
          if ((f >> 2) == epoch)
            v = slot_state (ts, idx, f, word);
        }
      const bool published = (f >> 2) == epoch;
      const unsigned stop = __ballot_sync (0xffffffffu, published && ((f & 3) == tile_prefix || v.head));
      const unsigned seen = __ballot_sync (0xffffffffu, published);
      if (! stop)
        continue;
      const int s = __ffs (stop) - 1;
      const unsigned nearer = (1u << s) - 1;
      if ((seen & nearer) != nearer)
        continue;
      seg<Op> acc = shfl_idx (v, s);
      for (int l = s - 1; l >= 0; l--)
        acc = seg_combine<Op> (acc, shfl_idx (v, l));
      return acc;
    }
}

// Warp 0 of a tile: publishes the tile's aggregate, finds its exclusive prefix by the
// look-back (ORDERED: ordered_look_back; a kernel of its own, so that the others' code is
// what it was: as a run-time choice it cost 4-6% at 2^24-2^28 doubles, H200, commit
// e6c1217), publishes its inclusive prefix; returns the exclusive prefix.
template <bool ORDERED = false, typename Op>
__device__ seg<Op> tile_exclusive_prefix (tile_status<Op> ts, int64_t tile, unsigned epoch,
                                          const seg<Op>& aggregate, look_back_pacing pace = {})
{
  if (tile == 0)
    {
      if (threadIdx.x == 0)
        publish (ts, tile, epoch, tile_prefix, aggregate);
      return seg_identity<Op> ();
    }
  if (threadIdx.x == 0)
    publish (ts, tile, epoch, tile_aggregate, aggregate);
  if (pace.wait_ns)
    __nanosleep (pace.wait_ns);
  seg<Op> prefix;
  if constexpr (ORDERED)
    prefix = ordered_look_back (ts, tile, epoch, pace);
  else
    prefix = look_back (ts, tile, epoch, pace);
  if (threadIdx.x == 0)
    publish (ts, tile, epoch, tile_prefix, seg_combine<Op> (prefix, aggregate));
  return prefix;
}

// The prefix source of the decoupled tile kernels: every thread calls it with the tile's
// total and gets the tile's exclusive prefix (warp 0 looks back; the others wait at a
// barrier).  ORDERED: a "reproducible" scan's (ordered_look_back).
template <typename Op, bool ORDERED = false>
struct prefix_by_look_back
{
  tile_status<Op> ts;
  unsigned epoch;
  look_back_pacing pace;
  int64_t prefetch_ahead;   // tiles (0: none; tile_io.cuh: prefetch_tile)
  __device__ __forceinline__ seg<Op> operator() (int64_t tile, const seg<Op>& total, seg<Op>& slot) const
  {
    if (threadIdx.x < 32)
      {
        const seg<Op> p = tile_exclusive_prefix<ORDERED> (ts, tile, epoch, total, pace);
        if (threadIdx.x == 0)
          slot = p;
      }
    __syncthreads ();
    return slot;
  }
};

// A lane's exclusive prefix from the tiles before its own along the lane (lane tiles of
// lanes_scan.cuh): slot is the lane's status slot in the tile just before, stride the
// slots between two such tiles.  Each thread of the warp follows its own lane, one tile
// a read, and spins: paced as the tiles' look-back (1.2 us, then 0.6 us), 4096x4096
// along dim 2 went from 1.25x to 1.49x a copy (single) and 1.11x to 1.37x (double) on
// the H200.  ORDERED (a "reproducible" scan): the lane waits for the tile just before it
// to publish its inclusive prefix (or a head), so every prefix is the sequential fold of
// the lane's tiles.
template <bool ORDERED = false, typename Op>
__device__ seg<Op> lane_look_back (tile_status<Op> ts, int64_t slot, int64_t stride,
                                   unsigned epoch)
{
  seg<Op> acc = seg_identity<Op> ();
  for (;; slot -= stride)
    {
      typename tile_status<Op>::polled word;
      unsigned f;
      seg<Op> v;
      if constexpr (ORDERED)
        for (;;)
          {
            f = read_flag (ts, slot, word);
            if ((f >> 2) != epoch)
              continue;
            v = slot_state (ts, slot, f, word);
            if ((f & 3) == tile_prefix || v.head)
              break;
          }
      else
        {
          do
            f = read_flag (ts, slot, word);
          while ((f >> 2) != epoch);
          v = slot_state (ts, slot, f, word);
        }
      acc = seg_combine<Op> (v, acc);
      if ((f & 3) == tile_prefix || v.head)
        return acc;
    }
}

}  // namespace gsk

// Stream compaction (y = x(mask)) through an exclusive scan of the mask, the first
// application of scan in the source documents.  Two kernels:
//   count_tiles:   counts the kept elements of each tile and finds the tile's offset in
//                  the output by the decoupled look-back of the scans (look_back.cuh)
//                  over groups of tiles; the last group leaves the total, which sizes
//                  the output
//   scatter_tiles: each tile scans its mask (warp ballots, then one warp scans the warp
//                  counts) and writes each kept element straight to its place
// Elements move as opaque words of their size, so one kernel serves every class.
#include <cuda_runtime.h>

#include "agent/look_back.cuh"
#include "block/block_scan.cuh"
#include "dispatch/context.cuh"
#include "ops/scan_ops.cuh"
#include "scan_kernels.h"
#include "tuning/tuning.cuh"

namespace gsk {

constexpr int compact_tile = block_threads * compact_items;

constexpr int compact_warps = block_threads / 32;

typedef sum_op<long long> count_op;   // tile counts, published for the look-back

// Element (row j, thread t) of a tile is base + j * block_threads + t: striped, so that
// every load and store of a warp is contiguous.  The order of the kept elements is
// row, then warp, then lane.

// Counting needs no order, and a block of one tile's bytes is too little work to hide
// the latency of its loads and look-back: a count block takes count_group tiles, each
// thread count_bytes consecutive mask bytes, read as 16-byte words.
constexpr int count_group = 16;
constexpr int count_bytes = count_group * compact_tile / block_threads;
constexpr int count_threads_per_tile = compact_tile / count_bytes;
static_assert (count_bytes % 16 == 0 && count_threads_per_tile <= 32
               && 32 % count_threads_per_tile == 0, "tiles are whole 16-byte words of part of a warp");

__device__ __forceinline__ unsigned nonzero_bytes (unsigned long long v)
{
  v |= v >> 4;   // each byte's low bit: is the byte nonzero
  v |= v >> 2;
  v |= v >> 1;
  return __popcll (v & 0x0101010101010101ull);
}

__global__ void __launch_bounds__ (block_threads)
count_tiles (const uint8_t *mask, int64_t n, tile_status<count_op> ts, unsigned epoch,
             int64_t *offset, int64_t *total)
{
  __shared__ long long tile_count[count_group];
  __shared__ long long group_prefix;
  const int64_t group = blockIdx.x, first = group * count_group * compact_tile
                                           + (int64_t) threadIdx.x * count_bytes;
  unsigned c = 0;
  if (first + count_bytes <= n && ((uintptr_t) mask & 15) == 0)
#pragma unroll
    for (int w = 0; w < count_bytes / 16; w++)
      {
        const uint4 v = reinterpret_cast<const uint4 *> (mask + first)[w];
        c += nonzero_bytes ((unsigned long long) v.x | (unsigned long long) v.y << 32)
             + nonzero_bytes ((unsigned long long) v.z | (unsigned long long) v.w << 32);
      }
  else
    for (int j = 0; j < count_bytes && first + j < n; j++)
      c += mask[first + j] != 0;
  // the threads of one tile are neighbouring lanes
#pragma unroll
  for (int d = count_threads_per_tile / 2; d > 0; d >>= 1)
    c += __shfl_down_sync (0xffffffffu, c, d, count_threads_per_tile);
  if (threadIdx.x % count_threads_per_tile == 0)
    tile_count[threadIdx.x / count_threads_per_tile] = c;
  __syncthreads ();
  if (threadIdx.x < 32)
    {
      long long kept = 0;
      for (int t = 0; t < count_group; t++)
        kept += tile_count[t];
      const seg<count_op> prefix = tile_exclusive_prefix (ts, group, epoch, seg<count_op> { kept, 0 });
      if (threadIdx.x == 0)
        {
          group_prefix = prefix.a;
          if (group == gridDim.x - 1)
            *total = prefix.a + kept;
        }
    }
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      const int64_t tiles = (n + compact_tile - 1) / compact_tile;
      long long at = group_prefix;
      for (int t = 0; t < count_group && group * count_group + t < tiles; t++)
        {
          offset[group * count_group + t] = at;
          at += tile_count[t];
        }
    }
}

// Each warp ballots its row of the mask: a kept element's place is the kept count of
// the (row, warp) pairs before it, scanned by one warp, plus its lane's rank in the
// ballot.  Kept elements of a row leave a warp as one contiguous run.
template <typename W>
__global__ void scatter_tiles (const W *x, const uint8_t *mask, int64_t n,
                               const int64_t *offset, W *y)
{
  constexpr int pairs = compact_items * compact_warps;
  static_assert (pairs % 32 == 0, "one warp scans the (row, warp) counts, pairs / 32 each");
  __shared__ unsigned before[pairs];   // kept elements ahead of (row, warp)
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t base = (int64_t) blockIdx.x * compact_tile;
  unsigned ballot[compact_items];
  W v[compact_items];
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    {
      const int64_t i = base + j * block_threads + threadIdx.x;
      const bool keep = i < n && mask[i] != 0;
      if (keep)
        v[j] = x[i];
      ballot[j] = __ballot_sync (0xffffffffu, keep);
      if (lane == 0)
        before[j * compact_warps + warp] = __popc (ballot[j]);
    }
  __syncthreads ();
  if (warp == 0)
    {
      // pairs / 32 entries per lane, in order: exclusive scan
      constexpr int per = pairs / 32;
      unsigned c[per], s = 0;
#pragma unroll
      for (int k = 0; k < per; k++)
        s += c[k] = before[lane * per + k];
      const unsigned incl = warp_inclusive_scan (s, [] (unsigned a, unsigned b) { return a + b; });
      unsigned at = incl - s;
#pragma unroll
      for (int k = 0; k < per; k++)
        {
          before[lane * per + k] = at;
          at += c[k];
        }
    }
  __syncthreads ();
  W *out = y + offset[blockIdx.x];
  const unsigned lower = (1u << lane) - 1;
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    if (ballot[j] >> lane & 1)
      out[before[j * compact_warps + warp] + __popc (ballot[j] & lower)] = v[j];
}

struct word16 { unsigned long long a, b; };

}  // namespace gsk

using namespace gsk;

static int64_t compact_tiles (int64_t n) { return (n + compact_tile - 1) / compact_tile; }

static int64_t count_groups (int64_t n) { return (compact_tiles (n) + count_group - 1) / count_group; }

// workspace: [total][pad][offset: tiles x int64][pad to 16][status: groups x 16 bytes]
static size_t status_at (int64_t n) { return ((size_t) (2 + compact_tiles (n)) * 8 + 15) / 16 * 16; }
static int64_t *total_of (void *ws) { return (int64_t *) ws; }
static int64_t *offset_of (void *ws) { return (int64_t *) ws + 2; }

extern "C" size_t gsk_compact_workspace_bytes (int64_t n)
{
  return status_at (n) + (size_t) count_groups (n) * 16;
}

extern "C" cudaError_t gsk_compact_count (gsk_context *c, const uint8_t *mask, int64_t n, void *ws,
                                          int64_t *total_host, cudaStream_t s)
{
  const int64_t groups = count_groups (n);
  *total_host = 0;
  if (n == 0)
    return cudaSuccess;
  // flags of earlier epochs read as "not yet": no clearing between compactions, except
  // when the epoch wraps
  unsigned& epoch = c->compact_epoch;
  tile_status<count_op> ts = {};
  ts.words = reinterpret_cast<uint4 *> (static_cast<char *> (ws) + status_at (n));
  if (++epoch >= (1u << 29))
    {
      cudaMemsetAsync (ts.words, 0, (size_t) groups * 16, s);
      epoch = 1;
    }
  count_tiles<<<(unsigned) groups, block_threads, 0, s>>> (mask, n, ts, epoch, offset_of (ws),
                                                           total_of (ws));
  cudaError_t err = cudaGetLastError ();
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (total_host, total_of (ws), sizeof (int64_t), cudaMemcpyDeviceToHost, s);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (s);
  return err;
}

extern "C" cudaError_t gsk_compact_scatter (size_t elem_bytes, const void *x, const uint8_t *mask,
                                            int64_t n, void *y, void *ws, cudaStream_t s)
{
  if (n == 0)
    return cudaSuccess;
  const unsigned tiles = (unsigned) compact_tiles (n);
  const int64_t *offset = offset_of (ws);
  switch (elem_bytes)
    {
#define GSK_SCATTER(bytes, W)                                                            \
    case bytes:                                                                          \
      scatter_tiles<W><<<tiles, block_threads, 0, s>>> ((const W *) x, mask, n, offset, (W *) y); \
      break;
    GSK_SCATTER (1, uint8_t)
    GSK_SCATTER (2, uint16_t)
    GSK_SCATTER (4, uint32_t)
    GSK_SCATTER (8, unsigned long long)
    GSK_SCATTER (16, word16)
#undef GSK_SCATTER
    default:
      return cudaErrorNotSupported;
    }
  return cudaGetLastError ();
}

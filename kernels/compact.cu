// Stream compaction (y = x(mask)) through an exclusive scan of the mask, the first
// application of scan in the source documents.  Three kernels:
//   count_tiles:   the number of kept elements in each tile
//   offset_tiles:  exclusive scan of the tile counts (one block), and the total
//   scatter_tiles: each tile scans its mask (warp ballots, then one warp scans the warp
//                  counts) and writes each kept element straight to its place
// Elements move as opaque words of their size, so one kernel serves every class.
#include <cuda_runtime.h>

#include "scan_kernels.h"
#include "tuning.cuh"

namespace gsk {

constexpr int compact_tile = block_threads * compact_items;

constexpr int compact_warps = block_threads / 32;

// Element (row j, thread t) of a tile is base + j * block_threads + t: striped, so that
// every load and store of a warp is contiguous.  The order of the kept elements is
// row, then warp, then lane.

// the number of kept elements in each tile
__global__ void count_tiles (const uint8_t *mask, int64_t n, unsigned *count)
{
  __shared__ unsigned warp_count[compact_warps];
  const int64_t base = (int64_t) blockIdx.x * compact_tile;
  unsigned c = 0;
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    {
      const int64_t i = base + j * block_threads + threadIdx.x;
      c += i < n && mask[i] != 0;
    }
#pragma unroll
  for (int d = 16; d > 0; d >>= 1)
    c += __shfl_down_sync (0xffffffffu, c, d);
  if ((threadIdx.x & 31) == 0)
    warp_count[threadIdx.x >> 5] = c;
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      unsigned total = 0;
      for (int w = 0; w < compact_warps; w++)
        total += warp_count[w];
      count[blockIdx.x] = total;
    }
}

// one block: each thread sums a run of tile counts, the block scans the run sums
__global__ void offset_tiles (const unsigned *count, int64_t tiles, int64_t *offset,
                              int64_t *total)
{
  __shared__ int64_t run_sum[compact_scan_threads];
  const int64_t per = (tiles + compact_scan_threads - 1) / compact_scan_threads;
  const int64_t first = threadIdx.x * per;
  const int64_t last = first + per < tiles ? first + per : tiles;
  int64_t s = 0;
  for (int64_t t = first; t < last; t++)
    s += count[t];
  run_sum[threadIdx.x] = s;
  __syncthreads ();
  // Kogge-Stone over the run sums; 1024 entries, done once per compaction
  for (int d = 1; d < compact_scan_threads; d <<= 1)
    {
      const int64_t o = threadIdx.x >= d ? run_sum[threadIdx.x - d] : 0;
      __syncthreads ();
      run_sum[threadIdx.x] += o;
      __syncthreads ();
    }
  int64_t at = run_sum[threadIdx.x] - s;
  for (int64_t t = first; t < last; t++)
    {
      offset[t] = at;
      at += count[t];
    }
  if (threadIdx.x == compact_scan_threads - 1)
    *total = run_sum[threadIdx.x];
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
      unsigned incl = s;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1)
        {
          const unsigned o = __shfl_up_sync (0xffffffffu, incl, d);
          if (lane >= d)
            incl += o;
        }
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

extern "C" size_t gsk_compact_workspace_bytes (int64_t n)
{
  return (size_t) compact_tiles (n) * (sizeof (unsigned) + sizeof (int64_t)) + 2 * sizeof (int64_t);
}

// workspace: [total][pad][offset: tiles x int64][count: tiles x unsigned]
static int64_t *total_of (void *ws) { return (int64_t *) ws; }
static int64_t *offset_of (void *ws) { return (int64_t *) ws + 2; }
static unsigned *count_of (void *ws, int64_t n) { return (unsigned *) (offset_of (ws) + compact_tiles (n)); }

extern "C" cudaError_t gsk_compact_count (const uint8_t *mask, int64_t n, void *ws,
                                          int64_t *total_host, cudaStream_t s)
{
  const int64_t tiles = compact_tiles (n);
  *total_host = 0;
  if (n == 0)
    return cudaSuccess;
  count_tiles<<<(unsigned) tiles, block_threads, 0, s>>> (mask, n, count_of (ws, n));
  offset_tiles<<<1, compact_scan_threads, 0, s>>> (count_of (ws, n), tiles, offset_of (ws),
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

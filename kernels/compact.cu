// Stream compaction (y = x(mask)) through an exclusive scan of the mask, the first
// application of scan in the source documents.  Three kernels:
//   count_tiles:   the number of kept elements in each tile
//   offset_tiles:  exclusive scan of the tile counts (one block), and the total
//   scatter_tiles: each tile scans its mask in the block, gathers its kept elements
//                  in shared memory and writes them out as one contiguous run
// Elements move as opaque words of their size, so one kernel serves every class.
#include <cuda_runtime.h>

#include "scan_kernels.h"
#include "tuning.cuh"

namespace gsk {

constexpr int compact_tile = block_threads * compact_items;

// the mask bytes a thread owns (blocked: thread t has t*items .. t*items+items-1)
__device__ __forceinline__ void load_mask (const uint8_t *mask, int64_t n, int64_t base,
                                           bool (&keep)[compact_items])
{
  const int64_t first = base + (int64_t) threadIdx.x * compact_items;
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    keep[j] = first + j < n && mask[first + j] != 0;
}

// exclusive prefix of v over the block, and the block's total
__device__ __forceinline__ unsigned block_exclusive_sum (unsigned v, unsigned& total)
{
  __shared__ unsigned warp_sum[block_threads / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned incl = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1)
    {
      const unsigned o = __shfl_up_sync (0xffffffffu, incl, d);
      if (lane >= d)
        incl += o;
    }
  if (lane == 31)
    warp_sum[warp] = incl;
  __syncthreads ();
  unsigned before = 0;
  total = 0;
  for (int w = 0; w < block_threads / 32; w++)
    {
      before += w < warp ? warp_sum[w] : 0;
      total += warp_sum[w];
    }
  __syncthreads ();
  return before + incl - v;
}

__global__ void count_tiles (const uint8_t *mask, int64_t n, unsigned *count)
{
  bool keep[compact_items];
  load_mask (mask, n, (int64_t) blockIdx.x * compact_tile, keep);
  unsigned c = 0;
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    c += keep[j];
  unsigned total;
  block_exclusive_sum (c, total);
  if (threadIdx.x == 0)
    count[blockIdx.x] = total;
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

template <typename W>
__global__ void scatter_tiles (const W *x, const uint8_t *mask, int64_t n,
                               const int64_t *offset, W *y)
{
  __shared__ W buf[compact_tile];
  const int64_t base = (int64_t) blockIdx.x * compact_tile;
  const int here = n - base < compact_tile ? (int) (n - base) : compact_tile;
  for (int i = threadIdx.x; i < here; i += block_threads)   // coalesced, in order
    buf[i] = x[base + i];
  bool keep[compact_items];
  load_mask (mask, n, base, keep);
  unsigned c = 0;
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    c += keep[j];
  unsigned kept;
  unsigned at = block_exclusive_sum (c, kept);   // also orders buf's fill before reads
  W mine[compact_items];
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    if (keep[j])
      mine[j] = buf[threadIdx.x * compact_items + j];
  __syncthreads ();
#pragma unroll
  for (int j = 0; j < compact_items; j++)
    if (keep[j])
      buf[at++] = mine[j];
  __syncthreads ();
  W *out = y + offset[blockIdx.x];
  for (unsigned i = threadIdx.x; i < kept; i += block_threads)
    out[i] = buf[i];
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

// "groups" on the device: the stable order of the labels (CUB's radix sort of the labels
// with their positions: a radix sort is stable), the head flags where a sorted label
// starts a group, and the moves of X into that order and of the scan's outputs back.
// CUB here sorts, which is not the package's core (the scan is).
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <climits>

#include "dispatch/context.cuh"
#include "dispatch/launch.cuh"
#include "scan_kernels.h"

namespace gsk {

// What decides the sort's width: whether every label is an integer (finite, within
// +-2^53: then exact in an int64) and the smallest and largest
struct label_range { long long lo, hi; int wide; };

// -0 is 0 and every NaN the same NaN, so that equal labels have equal bits (Octave's sort
// keeps -0 and 0 in their order, and puts NaN last); the positions 0, 1, ...; the range
__global__ void group_keys_kernel (const double *keys, double *canonical, int64_t *positions,
                                   int64_t n, label_range *range)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  int wide = 0;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    {
      const double k = keys[i];
      canonical[i] = k != k ? __longlong_as_double (0x7ff8000000000000LL) : k == 0 ? 0.0 : k;
      positions[i] = i;
      if (! (fabs (k) <= 9007199254740992.0) || k != trunc (k))
        wide = 1;
      else
        {
          lo = min (lo, (long long) k);
          hi = max (hi, (long long) k);
        }
    }
  for (int off = 16; off > 0; off /= 2)
    {
      lo = min (lo, __shfl_down_sync (0xffffffffu, lo, off));
      hi = max (hi, __shfl_down_sync (0xffffffffu, hi, off));
      wide |= __shfl_down_sync (0xffffffffu, wide, off);
    }
  if ((threadIdx.x & 31) == 0)
    {
      atomicMin (&range->lo, lo);
      atomicMax (&range->hi, hi);
      if (wide)
        atomicOr (&range->wide, 1);
    }
}

// integer labels as offsets from the smallest, in 32 bits
__global__ void narrow_keys_kernel (const double *keys, uint32_t *narrow, int64_t n, long long lo)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    narrow[i] = (uint32_t) ((long long) keys[i] - lo);
}

// a group starts at the first sorted label and wherever one differs from the one before
// (a NaN differs from every label: each NaN is a group of its own, as Octave's != says)
template <typename K>
__global__ void group_heads_kernel (const K *sorted, uint8_t *heads, int64_t n)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    heads[i] = i == 0 || ! (sorted[i] == sorted[i - 1]);
}

// y(i, k, o) = x(i, order[k], o), or y(i, order[k], o) = x(i, k, o) (SCATTER); an index
// output's position p > 0 becomes order[p - 1] + 1 (INDEX, W = double)
template <typename W, bool SCATTER, bool INDEX>
__global__ void permute_kernel (const W *x, W *y, int64_t inner, int64_t len, int64_t outer,
                                const int64_t *order)
{
  const int64_t n = inner * len * outer, stride = (int64_t) gridDim.x * blockDim.x;
  const bool vector = inner == 1 && outer == 1;   // (no 64-bit divisions, emulated on GPUs)
  for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride)
    {
      const int64_t i = vector ? 0 : e % inner, k = vector ? e : e / inner % len;
      const int64_t o = vector ? 0 : e / (inner * len);
      const int64_t moved = i + inner * (order[k] + len * o);
      W v = x[SCATTER ? e : moved];
      if constexpr (INDEX)
        if (v > 0)
          v = W (order[(int64_t) v - 1] + 1);
      y[SCATTER ? moved : e] = v;
    }
}

template <bool SCATTER, bool INDEX>
cudaError_t permute_as (gsk_context *c, size_t elem_bytes, const void *x, void *y, int64_t inner,
                        int64_t len, int64_t outer, const int64_t *order, cudaStream_t s)
{
  const unsigned blocks = elementwise_blocks (*c, inner * len * outer);
#define GSK_PERMUTE(W)                                                                  \
  permute_kernel<W, SCATTER, INDEX><<<blocks, block_threads, 0, s>>> (                  \
    static_cast<const W *> (x), static_cast<W *> (y), inner, len, outer, order)
  if constexpr (INDEX)
    GSK_PERMUTE (double);
  else
    switch (elem_bytes)
      {
      case 1: GSK_PERMUTE (uint8_t); break;
      case 2: GSK_PERMUTE (uint16_t); break;
      case 4: GSK_PERMUTE (uint32_t); break;
      case 8: GSK_PERMUTE (uint64_t); break;
      case 16: GSK_PERMUTE (uint4); break;
      default: return cudaErrorInvalidValue;
      }
#undef GSK_PERMUTE
  return cudaGetLastError ();
}

}  // namespace gsk

using namespace gsk;

// the workspace: canonical labels, sorted labels, positions, the range, then CUB's
// temporary storage for the wider of the two sorts
static size_t sort_bytes (int64_t n)
{
  size_t wide = 0, narrow = 0;
  cub::DeviceRadixSort::SortPairs (nullptr, wide, (const double *) nullptr, (double *) nullptr,
                                   (const int64_t *) nullptr, (int64_t *) nullptr, n);
  cub::DeviceRadixSort::SortPairs (nullptr, narrow, (const uint32_t *) nullptr, (uint32_t *) nullptr,
                                   (const int64_t *) nullptr, (int64_t *) nullptr, n);
  return wide > narrow ? wide : narrow;
}

extern "C" size_t gsk_group_order_workspace_bytes (int64_t n)
{
  return 3 * (size_t) n * 8 + 256 + (sort_bytes (n) + 255) / 256 * 256;
}

// Integer labels whose range fits 32 bits sort as 32-bit offsets on the range's bits
// alone (1000 labels: 10 bits, two passes of CUB's radix sort, where 64-bit doubles take
// eight); others as doubles.  Reads the range back: waits for the stream.
extern "C" cudaError_t gsk_group_order (gsk_context *c, const double *keys, int64_t n,
                                        int64_t *order, uint8_t *heads, void *workspace,
                                        cudaStream_t s)
{
  if (n == 0)
    return cudaSuccess;
  double *canonical = static_cast<double *> (workspace), *sorted = canonical + n;
  int64_t *positions = reinterpret_cast<int64_t *> (sorted + n);
  label_range *range = reinterpret_cast<label_range *> (positions + n);
  void *sort_ws = reinterpret_cast<char *> (range) + 256;
  size_t ws_bytes = sort_bytes (n);
  const unsigned blocks = elementwise_blocks (*c, n);
  const label_range start = { LLONG_MAX, LLONG_MIN, 0 };
  label_range r;
  cudaError_t err = cudaMemcpyAsync (range, &start, sizeof start, cudaMemcpyHostToDevice, s);
  if (err != cudaSuccess)
    return err;
  group_keys_kernel<<<blocks, block_threads, 0, s>>> (keys, canonical, positions, n, range);
  if ((err = cudaMemcpyAsync (&r, range, sizeof r, cudaMemcpyDeviceToHost, s)) != cudaSuccess
      || (err = cudaStreamSynchronize (s)) != cudaSuccess)
    return err;
  if (! r.wide && (unsigned long long) (r.hi - r.lo) <= 0xffffffffull)
    {
      uint32_t *narrow = reinterpret_cast<uint32_t *> (canonical);
      uint32_t *narrow_sorted = reinterpret_cast<uint32_t *> (sorted);
      const unsigned long long span = (unsigned long long) (r.hi - r.lo);
      const int bits = span ? 64 - __builtin_clzll (span) : 1;
      narrow_keys_kernel<<<blocks, block_threads, 0, s>>> (keys, narrow, n, r.lo);
      err = cub::DeviceRadixSort::SortPairs (sort_ws, ws_bytes, narrow, narrow_sorted, positions,
                                             order, n, 0, bits, s);
      if (err != cudaSuccess)
        return err;
      group_heads_kernel<<<blocks, block_threads, 0, s>>> (narrow_sorted, heads, n);
      return cudaGetLastError ();
    }
  err = cub::DeviceRadixSort::SortPairs (sort_ws, ws_bytes, canonical, sorted, positions, order,
                                         n, 0, 64, s);
  if (err != cudaSuccess)
    return err;
  group_heads_kernel<<<blocks, block_threads, 0, s>>> (sorted, heads, n);
  return cudaGetLastError ();
}

extern "C" cudaError_t gsk_permute (gsk_context *c, size_t elem_bytes, const void *x, void *y,
                                    int64_t inner, int64_t len, int64_t outer,
                                    const int64_t *order, int scatter, int index_map,
                                    cudaStream_t s)
{
  if (inner * len * outer == 0)
    return cudaSuccess;
  if (scatter)
    return index_map ? permute_as<true, true> (c, elem_bytes, x, y, inner, len, outer, order, s)
                     : permute_as<true, false> (c, elem_bytes, x, y, inner, len, outer, order, s);
  return index_map ? permute_as<false, true> (c, elem_bytes, x, y, inner, len, outer, order, s)
                   : permute_as<false, false> (c, elem_bytes, x, y, inner, len, outer, order, s);
}

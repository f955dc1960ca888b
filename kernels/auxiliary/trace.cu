// The classic block scans traced on the GPU (gpuscan_trace): one block of the next power
// of two threads runs the step code of base/block_scan_steps.h, the code of the kernels'
// Kogge-Stone and Brent-Kung block scans (and Blelloch's exclusive scan, which only the
// trace runs), with a barrier after each step, and writes the shared-memory array after
// each step (padding removed).  The CPU engine's trace (src/cpu/cpu_trace.cc) runs the
// same steps a thread at a time and counts the adds and bank conflicts; the two arrays
// must agree.
#include <cuda_runtime.h>

#include "base/block_scan_steps.h"
#include "base/scan_trace.h"
#include "scan_kernels.h"

namespace gsk {

struct trace_add
{
  __device__ double operator() (double a, double b) const { return a + b; }
};

__global__ void kogge_stone_trace (const double *x, int n, double *rows)
{
  extern __shared__ double shared[];
  const int block = blockDim.x, t = threadIdx.x;
  double *buf[2] = { shared, shared + block };
  buf[0][t] = t < n ? x[t] : 0.0;
  __syncthreads ();
  int in = 0, step = 0;
  for (int d = 1; d < block; d <<= 1)
    {
      kogge_stone_step::run (buf[in], buf[1 - in], t, d, trace_add ());
      __syncthreads ();
      in = 1 - in;
      ++step;
      if (t < n)
        rows[(int64_t) step * n + t] = buf[in][t];
      // (the next step writes the other buffer: no barrier for the snapshot)
    }
}

template <bool PADDED, bool EXCLUSIVE>
__global__ void tree_trace (const double *x, int n, double *rows)
{
  typedef brent_kung_step<PADDED> bk;
  typedef blelloch_step<PADDED> bl;
  extern __shared__ double buf[];
  const int block = blockDim.x, t = threadIdx.x;
  for (int i = t; i < block + block / 32; i += block)
    buf[i] = 0.0;
  __syncthreads ();
  if (t < n)
    buf[bk::slot (t)] = x[t];
  int step = 0;
  const auto snapshot = [&] () {
    __syncthreads ();
    ++step;
    if (t < n)
      rows[(int64_t) step * n + t] = buf[bk::slot (t)];
    __syncthreads ();
  };
  __syncthreads ();
  for (int s = 1; s < block; s <<= 1)
    {
      bk::up (buf, t, s, block, trace_add ());
      snapshot ();
    }
  if (! EXCLUSIVE)
    {
      for (int s = block / 4; s > 0; s >>= 1)
        {
          bk::down (buf, t, s, block, trace_add ());
          snapshot ();
        }
      return;
    }
  if (t == 0)
    buf[bk::slot (block - 1)] = 0.0;
  snapshot ();
  for (int s = block / 2; s > 0; s >>= 1)
    {
      bl::down (buf, t, s, block, trace_add ());
      snapshot ();
    }
}

}  // namespace gsk

using namespace gsk;

extern "C" cudaError_t gsk_trace (trace_algorithm a, int padded, const double *x, int n,
                                  double *rows, cudaStream_t s)
{
  if (n < 1 || n > TRACE_MAX_ELEMENTS)
    return cudaErrorInvalidValue;
  int block = 1;
  while (block < n)
    block <<= 1;
  if (a == TRACE_KOGGE_STONE)
    kogge_stone_trace<<<1, block, 2 * block * sizeof (double), s>>> (x, n, rows);
  else
    {
      const size_t smem = (block + block / 32) * sizeof (double);
      const bool exclusive = a == TRACE_BLELLOCH;
      if (padded)
        (exclusive ? tree_trace<true, true> : tree_trace<true, false>)<<<1, block, smem, s>>> (x, n, rows);
      else
        (exclusive ? tree_trace<false, true> : tree_trace<false, false>)<<<1, block, smem, s>>> (x, n, rows);
    }
  return cudaGetLastError ();
}

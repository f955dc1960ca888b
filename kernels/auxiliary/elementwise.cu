// Element-wise arithmetic and comparisons of device arrays: the rule for one element is
// base/elementwise.h's, the one the CPU engine runs, so the GPU gives Octave's values as
// the host stand-in does.  The classes are read in the loop (the same branch for every
// thread of a call): one kernel for every pair of classes, memory-bound all the same.
#include <cuda_runtime.h>

#include "base/elementwise.h"
#include "dispatch/context.cuh"
#include "dispatch/launch.cuh"
#include "scan_kernels.h"

namespace gsk {

__global__ void elementwise_kernel (const elementwise_desc d)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < d.n; i += stride)
    elementwise_element (&d, i);
}

}  // namespace gsk

using namespace gsk;

extern "C" cudaError_t gsk_elementwise (gsk_context *c, const elementwise_desc *d, cudaStream_t s)
{
  if (d->n == 0)
    return cudaSuccess;
  elementwise_kernel<<<elementwise_blocks (*c, d->n), block_threads, 0, s>>> (*d);
  return cudaGetLastError ();
}

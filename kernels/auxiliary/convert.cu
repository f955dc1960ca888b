// Element-wise kernels: for device arrays, the class conversion of Octave's rules
// (integer, logical and single input summed in double) and head flags from an array of
// any class (nonzero -> 1, with a NaN check); for chunked scans, the index fix-up.
#include <type_traits>

#include <cuda_runtime.h>

#include "dispatch/context.cuh"
#include "dispatch/launch.cuh"
#include "ops/scan_ops.cuh"
#include "scan_kernels.h"
#include "tuning/tuning.cuh"

namespace gsk {

// F (T) is called with a value of the C type that holds one element of t
template <typename F>
bool with_type (scan_type t, F f)
{
  switch (t)
    {
    case SCAN_DOUBLE: return f (double ()), true;
    case SCAN_SINGLE: return f (float ()), true;
    case SCAN_CDOUBLE: return f (cplx<double> ()), true;
    case SCAN_CSINGLE: return f (cplx<float> ()), true;
    case SCAN_INT8: return f (int8_t ()), true;
    case SCAN_UINT8: return f (uint8_t ()), true;
    case SCAN_INT16: return f (int16_t ()), true;
    case SCAN_UINT16: return f (uint16_t ()), true;
    case SCAN_INT32: return f (int32_t ()), true;
    case SCAN_UINT32: return f (uint32_t ()), true;
    case SCAN_INT64: return f (int64_t ()), true;
    case SCAN_UINT64: return f (uint64_t ()), true;
    case SCAN_LOGICAL: return f (uint8_t ()), true;
    default: return false;
    }
}

template <typename From, typename To>
__device__ __forceinline__ To convert_value (From v) { return To (v); }
template <>
__device__ __forceinline__ cplx<double> convert_value (cplx<float> v)
{ return { double (v.re), double (v.im) }; }

template <typename From, typename To>
__global__ void convert_kernel (const From *x, To *y, int64_t n)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = convert_value<From, To> (x[i]);
}

template <typename T>
__device__ __forceinline__ bool nonzero (T v, bool& nan) { nan |= v != v; return v != T (0); }
template <typename T>
__device__ __forceinline__ bool nonzero (cplx<T> v, bool& nan)
{ nan |= v.re != v.re || v.im != v.im; return v.re != T (0) || v.im != T (0); }

template <typename T>
__global__ void flags_kernel (const T *x, uint8_t *flags, int64_t n, int *nan_seen)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  bool nan = false;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    flags[i] = nonzero (x[i], nan);
  if (__syncthreads_or (nan) && threadIdx.x == 0)
    *nan_seen = 1;
}

// index outputs of a chunk of a longer scan: chunk positions to positions in the line
__global__ void fix_index_kernel (double *ix, int64_t lanes, int64_t n, double carry_pos,
                                  const double *carry_ix, double shift)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    {
      const double p = ix[i];
      if (p != 0)
        ix[i] = p == carry_pos ? carry_ix[i % lanes] : p + shift;
    }
}

}  // namespace gsk

using namespace gsk;

extern "C" cudaError_t gsk_convert (gsk_context *c, scan_type from, scan_type to, const void *x, void *y,
                                    int64_t n, cudaStream_t s)
{
  if (n == 0)
    return cudaSuccess;
  cudaError_t err = cudaErrorNotSupported;
  if (to == SCAN_CDOUBLE && from == SCAN_CSINGLE)
    {
      convert_kernel<<<elementwise_blocks (*c, n), block_threads, 0, s>>>
        ((const cplx<float> *) x, (cplx<double> *) y, n);
      return cudaGetLastError ();
    }
  if (to != SCAN_DOUBLE || from == SCAN_CDOUBLE || from == SCAN_CSINGLE)
    return err;
  with_type (from, [&] (auto v) {
    typedef decltype (v) T;
    if constexpr (std::is_arithmetic<T>::value)
      {
        convert_kernel<<<elementwise_blocks (*c, n), block_threads, 0, s>>> ((const T *) x, (double *) y, n);
        err = cudaGetLastError ();
      }
  });
  return err;
}

extern "C" cudaError_t gsk_nonzero_flags (gsk_context *c, scan_type t, const void *x, uint8_t *flags,
                                          int64_t n, int *nan_seen, cudaStream_t s)
{
  if (n == 0)
    return cudaSuccess;
  cudaError_t err = cudaErrorNotSupported;
  with_type (t, [&] (auto v) {
    typedef decltype (v) T;
    flags_kernel<<<elementwise_blocks (*c, n), block_threads, 0, s>>> ((const T *) x, flags, n, nan_seen);
    err = cudaGetLastError ();
  });
  return err;
}

extern "C" cudaError_t gsk_fix_index (gsk_context *c, double *ix, int64_t lanes, int64_t steps, double carry_pos,
                                      const double *carry_ix, double shift, cudaStream_t s)
{
  const int64_t n = lanes * steps;
  if (n == 0)
    return cudaSuccess;
  fix_index_kernel<<<elementwise_blocks (*c, n), block_threads, 0, s>>> (ix, lanes, n, carry_pos,
                                                                     carry_ix, shift);
  return cudaGetLastError ();
}

// CUB's DeviceScan sums: the "cub" algorithm and the benchmark's baseline.  Only sums:
// each CUB instantiation costs tens of seconds of build time.
#include <cub/device/device_scan.cuh>

#include "scan_kernels.h"

namespace {

template <typename T>
cudaError_t cub_sum (const void *x, void *y, int64_t n, int exclusive, void *ws, size_t *bytes,
                     cudaStream_t s)
{
  const T *in = static_cast<const T *> (x);
  T *out = static_cast<T *> (y);
  return exclusive ? cub::DeviceScan::ExclusiveSum (ws, *bytes, in, out, n, s)
                   : cub::DeviceScan::InclusiveSum (ws, *bytes, in, out, n, s);
}

// ws == nullptr: only set *bytes.  Integer sums: inclusive only (the benchmark's need).
cudaError_t cub_sum_any (scan_type type, const void *x, void *y, int64_t n, int exclusive,
                         void *ws, size_t *bytes, cudaStream_t s)
{
  switch (type)
    {
    case SCAN_DOUBLE: return cub_sum<double> (x, y, n, exclusive, ws, bytes, s);
    case SCAN_SINGLE: return cub_sum<float> (x, y, n, exclusive, ws, bytes, s);
    case SCAN_INT32:
      return exclusive ? cudaErrorNotSupported
                       : cub::DeviceScan::InclusiveSum (ws, *bytes, static_cast<const int32_t *> (x),
                                                        static_cast<int32_t *> (y), n, s);
    case SCAN_INT64:
      return exclusive ? cudaErrorNotSupported
                       : cub::DeviceScan::InclusiveSum (ws, *bytes, static_cast<const int64_t *> (x),
                                                        static_cast<int64_t *> (y), n, s);
    default: return cudaErrorNotSupported;
    }
}

}  // namespace

extern "C" size_t gsk_cub_sum_workspace_bytes (scan_type type, int64_t n, int exclusive)
{
  size_t bytes = 0;
  cub_sum_any (type, nullptr, nullptr, n, exclusive, nullptr, &bytes, 0);
  return (bytes + 255) / 256 * 256;
}

extern "C" cudaError_t gsk_cub_sum (scan_type type, const void *x, void *y, int64_t n,
                                    int exclusive, void *ws, size_t ws_bytes, cudaStream_t s)
{
  return cub_sum_any (type, x, y, n, exclusive, ws, &ws_bytes, s);
}

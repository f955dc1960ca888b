// The limits of the GPU the kernels run on, from its properties (cudaDeviceProp), read once
// a context.  For tests, a profile clamps them to a smaller GPU's (GPUSCAN_DEVICE_LIMITS):
// the plans and grids then take that GPU's SMs, shared memory and threads, and the
// resident blocks at most what it would hold, so that the shapes a smaller GPU gets run on
// the GPU at hand.  (Kernels still run on the real SMs: a clamp tests the host's sizing,
// not the smaller GPU's timing.)
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>

namespace gsk {

struct device_limits
{
  int cc_major, cc_minor;          // compute capability
  int sms;                         // streaming multiprocessors
  int threads_per_sm;              // resident threads an SM at most
  size_t smem_per_sm;              // shared memory an SM
  size_t smem_per_block;           // shared memory a block may opt in to, static and dynamic
  size_t smem_reserved_per_block;  // what the GPU keeps of an SM's shared memory a block
  size_t l2_bytes;
  const char *clamped_to;          // the profile, or null
};

// Smaller GPUs to clamp to (the CUDA C++ Programming Guide's compute capability table;
// SMs and L2 from NVIDIA's data sheets)
struct limits_profile { const char *name; device_limits limits; };
constexpr limits_profile limits_profiles[] = {
  { "a100", { 8, 0, 108, 2048, 164 * 1024, 163 * 1024, 1024, 40u << 20, "a100" } },
  { "rtx4090", { 8, 9, 128, 1536, 100 * 1024, 99 * 1024, 1024, 72u << 20, "rtx4090" } },
  { "t4", { 7, 5, 40, 1024, 64 * 1024, 64 * 1024, 0, 4u << 20, "t4" } },
};

// the profile of that name, or null
inline const device_limits *limits_profile_named (const char *name)
{
  for (const limits_profile& q : limits_profiles)
    if (! strcmp (q.name, name))
      return &q.limits;
  return nullptr;
}

// the profiles' names, ", " between them, into buf (for messages)
inline void limits_profile_names (char *buf, size_t size)
{
  size_t used = 0;
  for (const limits_profile& q : limits_profiles)
    used += snprintf (used < size ? buf + used : nullptr, used < size ? size - used : 0,
                     "%s%s", used ? ", " : "", q.name);
}

// The current device's limits, clamped to c's where c is not null; false where the
// device cannot be queried
inline bool read_device_limits (const device_limits *c, device_limits *out)
{
  int dev = 0;
  cudaDeviceProp p;
  if (cudaGetDevice (&dev) != cudaSuccess || cudaGetDeviceProperties (&p, dev) != cudaSuccess)
    return false;
  device_limits l = { p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerMultiProcessor,
                      p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin,
                      p.reservedSharedMemPerBlock, (size_t) p.l2CacheSize, nullptr };
  if (c)
    {
      // the smaller of each, and the profile's architecture (its tuning table, no
      // programmatic dependent launch before sm_90)
      l.cc_major = std::min (l.cc_major, c->cc_major);
      l.cc_minor = l.cc_major == c->cc_major ? c->cc_minor : l.cc_minor;
      l.sms = std::min (l.sms, c->sms);
      l.threads_per_sm = std::min (l.threads_per_sm, c->threads_per_sm);
      l.smem_per_sm = std::min (l.smem_per_sm, c->smem_per_sm);
      l.smem_per_block = std::min (l.smem_per_block, c->smem_per_block);
      l.smem_reserved_per_block = std::max (l.smem_reserved_per_block, c->smem_reserved_per_block);
      l.l2_bytes = std::min (l.l2_bytes, c->l2_bytes);
      l.clamped_to = c->clamped_to;
    }
  *out = l;
  return true;
}

}  // namespace gsk

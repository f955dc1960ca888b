// Host-side launch helpers of the plans: launches behind a redo gate, dynamic shared
// memory, the device's SMs and the blocks it holds at once, sizes.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <utility>

#include "redo_gate.cuh"
#include "tuning.cuh"

namespace gsk {

// What the helpers here keep of a CUDA context (a kernel's shared-memory opt-in, a
// symbol's address) is valid until the context goes: gsk_context_reset (scan_kernels.cu),
// which the engine calls after a device reset, counts contexts, and each cache asks again
// when the count has moved
inline unsigned& context_count ()
{
  static unsigned count = 1;
  return count;
}

// the next mark of a redo_gate (never 0, which a fresh word holds)
inline unsigned next_redo_mark ()
{
  static unsigned mark = 0;
  if (++mark == 0)
    mark = 1;
  return mark;
}

// Launches a kernel of a pass; the kernels of an exact pass behind a wrapping one as
// programmatic dependent launches where the device has them (see gate_closed).
template <typename... P, typename... A>
inline void launch_pass (void (*kernel) (P...), int64_t grid, size_t smem, cudaStream_t s,
                         const redo_gate& gate, A&&... args)
{
  static int device_major = 0;
  if (! device_major)
    {
      int dev = 0;
      cudaGetDevice (&dev);
      if (cudaDeviceGetAttribute (&device_major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess)
        device_major = -1;
    }
  cudaLaunchAttribute dependent;
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3 ((unsigned) grid);
  cfg.blockDim = dim3 (block_threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = s;
  cfg.attrs = &dependent;
  cfg.numAttrs = gate.word && gate.exact && device_major >= 9 ? 1 : 0;
  cudaLaunchKernelEx (&cfg, kernel, std::forward<A> (args)...);
}

// blocks an SM that its shared memory and threads let in, for blocks of `threads` threads
// and the shared memory Storage
template <typename Storage>
constexpr int blocks_fitting (int threads)
{
  return std::min (smem_per_sm / (int) (sizeof (Storage) + smem_reserved_per_block), threads_per_sm / threads);
}

// Kernel may take `smem` bytes of dynamic shared memory (beyond 48 KiB a block in all,
// a kernel must ask; staged indices of single max and min take 34 KiB besides the tile's
// 17).  Asked once a size.
template <auto Kernel>
void allow_dynamic_smem (size_t smem)
{
  static size_t allowed = 0;
  static unsigned context = 0;
  if (context != context_count ())
    {
      allowed = 0;
      context = context_count ();
    }
  if (smem > allowed)
    {
      cudaFuncSetAttribute (Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
      allowed = smem;
    }
}

// the current device's SMs (queried once)
inline int sm_count ()
{
  static int sms = 0;
  if (! sms)
    {
      int dev = 0;
      cudaGetDevice (&dev);
      cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev);
    }
  return sms;
}

// blocks of Kernel the GPU holds at once, at `threads` a block and `smem` bytes of
// dynamic shared memory (queried once a size: a kernel takes a few sizes at most: none,
// head flags, indices, both)
template <auto Kernel>
int64_t resident_blocks (int threads, size_t smem)
{
  static struct { size_t smem; int64_t blocks; } held[4];
  int k = 0;
  while (k < 3 && held[k].blocks && held[k].smem != smem)
    k++;
  if (! held[k].blocks || held[k].smem != smem)
    {
      int per_sm = 0;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, Kernel, threads, smem);
      held[k] = { smem, std::max (1, sm_count () * per_sm) };
    }
  return held[k].blocks;
}

inline int64_t blocks_for (int64_t work, int64_t per_block) { return (work + per_block - 1) / per_block; }
inline size_t round_up (size_t b) { return (b + 255) / 256 * 256; }

}  // namespace gsk

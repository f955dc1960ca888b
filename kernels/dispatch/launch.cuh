// Host-side launch helpers of the plans: launches behind a redo gate, dynamic shared
// memory, the blocks the device holds at once, sizes; what they learn of the device is
// kept in the caller's context (context.cuh).
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <utility>

#include "agent/redo_gate.cuh"
#include "dispatch/context.cuh"
#include "tuning/tuning.cuh"

namespace gsk {

// the next mark of a redo_gate (never 0, which a fresh word holds)
inline unsigned next_redo_mark (gsk_context& c)
{
  if (++c.redo_mark == 0)
    c.redo_mark = 1;
  return c.redo_mark;
}

// grid-stride launches: enough blocks to fill the GPU, no more than the data needs
inline unsigned elementwise_blocks (const gsk_context& c, int64_t n)
{
  const int64_t need = (n + block_threads - 1) / block_threads;
  const int64_t most = (int64_t) c.limits.sms * c.tuning->elementwise_blocks_per_sm;
  return (unsigned) (need < most ? need : most);
}

// Launches a kernel of a pass; the kernels of an exact pass behind a wrapping one as
// programmatic dependent launches where the device has them (see gate_closed).
template <typename... P, typename... A>
inline void launch_pass (const gsk_context& c, void (*kernel) (P...), int64_t grid, size_t smem,
                         cudaStream_t s, const redo_gate& gate, A&&... args)
{
  cudaLaunchAttribute dependent;
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3 ((unsigned) grid);
  cfg.blockDim = dim3 (block_threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = s;
  cfg.attrs = &dependent;
  cfg.numAttrs = gate.word && gate.exact && c.limits.cc_major >= 9 ? 1 : 0;
  cudaLaunchKernelEx (&cfg, kernel, std::forward<A> (args)...);
}

// kernel may take `smem` bytes of dynamic shared memory (beyond 48 KiB a block in all,
// a kernel must ask; staged indices of single max and min take 34 KiB besides the tile's
// 17).  Asked once a size in a context.  False where the block's shared memory, static
// and dynamic, is more than the device (or the profile it is clamped to) gives a block.
template <typename... P>
bool allow_dynamic_smem (const gsk_context& c, void (*kernel) (P...), size_t smem)
{
  gsk_context::kernel_state *k = kernel_state_of (c, (const void *) kernel);
  if (k && smem <= k->smem_allowed)
    return true;
  cudaFuncAttributes a;
  if (cudaFuncGetAttributes (&a, kernel) != cudaSuccess
      || a.sharedSizeBytes + smem > c.limits.smem_per_block)
    return false;
  cudaFuncSetAttribute (kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem);
  if (k)
    k->smem_allowed = smem;
  return true;
}

// blocks of kernel the GPU holds at once, at `threads` a block and `smem` bytes of
// dynamic shared memory (asked once a shape in a context: a kernel takes a few at most:
// no extras, head flags, indices, both)
template <typename... P>
int64_t resident_blocks (const gsk_context& c, void (*kernel) (P...), int threads, size_t smem)
{
  gsk_context::kernel_state *k = kernel_state_of (c, (const void *) kernel);
  int i = 0;
  if (k)
    {
      while (i < 3 && k->resident[i].blocks
             && (k->resident[i].smem != smem || k->resident[i].threads != threads))
        i++;
      if (k->resident[i].blocks && k->resident[i].smem == smem && k->resident[i].threads == threads)
        return k->resident[i].blocks;
    }
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_sm, kernel, threads, smem);
  if (c.limits.clamped_to)
    {
      // at most what the smaller GPU's shared memory and threads hold
      cudaFuncAttributes a;
      if (cudaFuncGetAttributes (&a, kernel) == cudaSuccess)
        per_sm = std::min<int64_t> (per_sm, c.limits.smem_per_sm
                                            / (a.sharedSizeBytes + smem + c.limits.smem_reserved_per_block));
      per_sm = std::min (per_sm, c.limits.threads_per_sm / threads);
    }
  const int64_t blocks = std::max (1, c.limits.sms * per_sm);
  if (k)
    k->resident[i] = { threads, smem, blocks };
  return blocks;
}

inline int64_t blocks_for (int64_t work, int64_t per_block) { return (work + per_block - 1) / per_block; }
inline size_t round_up (size_t b) { return (b + 255) / 256 * 256; }

}  // namespace gsk

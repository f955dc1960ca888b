// What the kernels keep of a CUDA context between calls: the device's limits and the
// tuning table of its architecture, each kernel's shared-memory opt-in and resident blocks, symbol addresses, the look-back
// workspace's regions and epochs, the marks of redo gates.  The caller owns it
// (gsk_context_new once the device is set, gsk_context_free before a device reset, and a
// new one after): nothing of it lives in a static, so nothing outlives the CUDA context
// it was read from (a kept opt-in or address is wrong in the next one).
#pragma once

#include <cuda_runtime.h>
#include <cstdint>

#include "agent/workspace.cuh"
#include "dispatch/device_limits.cuh"
#include "tuning/tuning_tables.cuh"

struct gsk_context
{
  gsk::device_limits limits;  // the GPU's (device_limits.cuh), perhaps clamped
  const gsk::tuning *tuning;  // the table of its architecture, or the one asked for
  unsigned redo_mark;        // the last mark of a redo_gate given out
  unsigned *redo_word;       // redo_word and redo_next_tile (redo_gate.cuh), or null
  unsigned long long *redo_next_tile;   // while not yet looked up
  gsk::workspace_regions workspace;     // look-back regions (workspace.cuh)
  unsigned compact_epoch;    // the compaction's look-back epoch (compact.cu)
  // per kernel: the dynamic shared memory it may take, and the blocks the GPU holds at
  // once for a few (threads, shared memory) shapes; an open-addressed table by address
  // (a cache of what the runtime says: a plan may fill it while it only describes)
  struct kernel_state
  {
    const void *fn;
    size_t smem_allowed;
    struct { int threads; size_t smem; int64_t blocks; } resident[4];
  };
  static constexpr int kernel_slots = 512;
  mutable kernel_state kernels[kernel_slots];
};

namespace gsk {

// fn's entry (made on first use), or null where the table is full (then the callers ask
// the runtime every time)
inline gsk_context::kernel_state *kernel_state_of (const gsk_context& c, const void *fn)
{
  const uintptr_t h = (reinterpret_cast<uintptr_t> (fn) >> 4) * 2654435761u;
  for (int i = 0; i < gsk_context::kernel_slots; i++)
    {
      gsk_context::kernel_state& k = c.kernels[(h + i) % gsk_context::kernel_slots];
      if (k.fn == fn)
        return &k;
      if (! k.fn)
        {
          k.fn = fn;
          return &k;
        }
    }
  return nullptr;
}

}  // namespace gsk

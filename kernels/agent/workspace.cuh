// The look-back workspace a caller lends the scans: which layout a region last held, and
// the epochs that spare it a clearing between scans.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstddef>

namespace gsk {

// Epochs stay below this: a packed look-back word keeps its flag, the epoch and the tile's
// state (2 bits), in 30 bits (look_back.cuh: flag_bits)
constexpr unsigned epoch_limit = 1u << 28;

// Workspace layouts: states (hierarchical and lane-run scans, CUB; no flags), packed
// look-back words, or unpacked flags followed by the values they guard.
enum workspace_layout { layout_states, layout_packed, layout_unpacked };

// What a context (context.cuh) remembers of the regions of workspace lent to its scans: a
// few regions and the layout each last held, and the last epoch given out.
struct workspace_regions
{
  struct region { const char *base; size_t bytes; workspace_layout layout; size_t clean; };
  region known[4];   // bytes == 0: free
  unsigned epoch;
};

// The epoch of a look-back in the region [ws, ws + bytes) whose first flag_bytes hold its
// flags.  Flags of earlier epochs read as "not yet", so a region needs no clearing between
// scans as long as the epochs only grow and nothing but flags of the same layout was ever
// written where the flags now lie: a region last used with another layout, or whose flags
// now reach where an unpacked scan kept values, could hold data that reads as a flag of a
// later epoch.  Such a region is cleared first, whole (as when the epochs wrap).  A few
// regions are remembered, so that the two passes of a fast native sum keep theirs.
inline unsigned claim_workspace (workspace_regions& w, void *ws, size_t bytes,
                                 workspace_layout layout, size_t flag_bytes, cudaStream_t s)
{
  typedef workspace_regions::region region;
  region (&known)[4] = w.known;
  unsigned& epoch = w.epoch;
  if (epoch + 1 >= epoch_limit)
    {
      // any region may now hold flags of later epochs
      epoch = 0;
      for (region& r : known)
        r.bytes = 0;
    }
  const char *b = static_cast<const char *> (ws);
  region *mine = nullptr;
  if (layout != layout_states)
    for (region& r : known)
      if (r.bytes && r.base == b && r.layout == layout && bytes <= r.bytes && flag_bytes <= r.clean)
        mine = &r;
  if (! mine)
    {
      for (region& r : known)
        if (r.bytes && r.base < b + bytes && b < r.base + r.bytes)
          r.bytes = 0;
      if (layout == layout_states)
        return 0;
      cudaMemsetAsync (ws, 0, bytes, s);
      mine = &known[0];
      for (region& r : known)
        if (! r.bytes)
          mine = &r;
      *mine = { b, bytes, layout, bytes };
    }
  if (layout == layout_unpacked)
    mine->clean = std::min (mine->clean, flag_bytes);
  return ++epoch;
}

}  // namespace gsk

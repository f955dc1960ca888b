// The redo gate of a native sum's two passes: the wrapping pass notes a step that left
// the type's range, and the exact pass behind it runs only then (device_scan.cuh: plan<Op>::run).
#pragma once

namespace gsk {

// The two passes of a fast native sum meet in a device word, so that the host never
// waits between them: the wrapping pass writes its mark there when a step left the
// range; the exact pass runs only when the word holds that mark (marks only grow, so a
// mark of another scan never matches).  word == nullptr: a scan of one pass.
struct redo_gate
{
  unsigned *word;
  unsigned long long *next_tile;   // tiles taken by the blocks of a gated exact pass
  unsigned mark;
  int exact;   // 1: this is the exact pass
};

static __device__ unsigned redo_word;   // one of each per unit that scans with them
static __device__ unsigned long long redo_next_tile;

// At the start of every kernel of a gated pass.  Where the GPU has programmatic dependent
// launches (sm_90), the exact pass is launched as one (see launch_pass): the wrapping pass
// lets it start as soon as all its own blocks run, and its blocks wait here for the
// wrapping pass to end.  Its launch and empty blocks then overlap the wrapping pass's
// last tiles instead of following them.
__device__ __forceinline__ bool gate_closed (const redo_gate& g)
{
#if __CUDA_ARCH__ >= 900
  if (g.word && g.exact)
    asm volatile ("griddepcontrol.wait;" ::: "memory");
  else if (g.word)
    asm volatile ("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  return g.exact && *(volatile unsigned *) g.word != g.mark;
}

// The start of a tile kernel of a pass: false where its gate is closed (an exact pass
// that is not needed).  Block 0 of a wrapping pass zeroes the tile counter of the exact
// pass behind it, which starts only after this pass ends.
template <typename R>
__device__ __forceinline__ bool begin_pass (const redo_gate& g)
{
  if (gate_closed (g))
    return false;
  if constexpr (R::checks_range)
    if (g.word && blockIdx.x == 0 && threadIdx.x == 0)
      *g.next_tile = 0;
  return true;
}

// the final pass found a step that left the range (runners without the check: never)
template <typename R, typename V, typename T>
__device__ __forceinline__ bool leaves_range (const V& v, const T& x)
{
  if constexpr (R::checks_range)
    return R::leaves_range (v, x);
  else
    return false;
}

__device__ __forceinline__ void note_redo (const redo_gate& g, bool left)
{
  if (left && g.word)
    *g.word = g.mark;
}

}  // namespace gsk

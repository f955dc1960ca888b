// "groups" on the device.  Few labels (whole numbers of a narrow span): label tiles, each
// warp a tile with a state for every label in shared memory, whose totals chain through
// a scan of the tiles' totals; x is read twice and y written once, in place.  Others:
// the stable order of the labels (CUB's radix sort of the labels with their positions:
// a radix sort is stable), the head flags where a sorted label starts a group, and the
// moves of X into that order and of the scan's outputs back.  CUB here sorts, which is
// not the package's core (the scan is).
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <climits>

#include "dispatch/context.cuh"
#include "dispatch/launch.cuh"
#include "ops/op_list.h"
#include "scan_kernels.h"

namespace gsk {

// Whether every label is a whole number (finite, within +-2^53: then exact in an int64),
// and the smallest and largest: what decides the plan and the sort's width
typedef gsk_label_range label_range;

__global__ void label_range_kernel (const double *keys, int64_t n, label_range *range)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  int wide = 0;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    {
      const double k = keys[i];
      if (! (fabs (k) <= 9007199254740992.0) || k != trunc (k))
        wide = 1;
      else
        {
          lo = min (lo, (long long) k);
          hi = max (hi, (long long) k);
        }
    }
  for (int off = 16; off > 0; off /= 2)
    {
      lo = min (lo, __shfl_down_sync (0xffffffffu, lo, off));
      hi = max (hi, __shfl_down_sync (0xffffffffu, hi, off));
      wide |= __shfl_down_sync (0xffffffffu, wide, off);
    }
  if ((threadIdx.x & 31) == 0)
    {
      atomicMin (&range->lo, lo);
      atomicMax (&range->hi, hi);
      if (wide)
        atomicOr (&range->wide, 1);
    }
}

// the range of n labels in host memory (waits for the stream); `at`: 256 bytes of device
// memory
static cudaError_t read_label_range (const gsk_context& c, const double *keys, int64_t n,
                                     label_range *at, label_range *r, cudaStream_t s)
{
  const label_range start = { LLONG_MAX, LLONG_MIN, 0 };
  cudaError_t err = cudaMemcpyAsync (at, &start, sizeof start, cudaMemcpyHostToDevice, s);
  if (err != cudaSuccess)
    return err;
  label_range_kernel<<<elementwise_blocks (c, n), block_threads, 0, s>>> (keys, n, at);
  if ((err = cudaMemcpyAsync (r, at, sizeof *r, cudaMemcpyDeviceToHost, s)) != cudaSuccess)
    return err;
  return cudaStreamSynchronize (s);
}

// -0 is 0 and every NaN the same NaN, so that equal labels have equal bits (Octave's sort
// keeps -0 and 0 in their order, and puts NaN last); the positions 0, 1, ...
__global__ void sort_keys_kernel (const double *keys, double *canonical, int64_t *positions,
                                  int64_t n)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    {
      const double k = keys[i];
      canonical[i] = k != k ? __longlong_as_double (0x7ff8000000000000LL) : k == 0 ? 0.0 : k;
      positions[i] = i;
    }
}

// integer labels as offsets from the smallest, in 32 bits
__global__ void narrow_keys_kernel (const double *keys, uint32_t *narrow, int64_t n, long long lo)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    narrow[i] = (uint32_t) ((long long) keys[i] - lo);
}

// a group starts at the first sorted label and wherever one differs from the one before
// (a NaN differs from every label: each NaN is a group of its own, as Octave's != says)
template <typename K>
__global__ void group_heads_kernel (const K *sorted, uint8_t *heads, int64_t n)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    heads[i] = i == 0 || ! (sorted[i] == sorted[i - 1]);
}

// y(i, k, o) = x(i, order[k], o), or y(i, order[k], o) = x(i, k, o) (SCATTER); an index
// output's position p > 0 becomes order[p - 1] + 1 (INDEX, W = double)
template <typename W, bool SCATTER, bool INDEX>
__global__ void permute_kernel (const W *x, W *y, int64_t inner, int64_t len, int64_t outer,
                                const int64_t *order)
{
  const int64_t n = inner * len * outer, stride = (int64_t) gridDim.x * blockDim.x;
  const bool vector = inner == 1 && outer == 1;   // (no 64-bit divisions, emulated on GPUs)
  for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride)
    {
      const int64_t i = vector ? 0 : e % inner, k = vector ? e : e / inner % len;
      const int64_t o = vector ? 0 : e / (inner * len);
      const int64_t moved = i + inner * (order[k] + len * o);
      W v = x[SCATTER ? e : moved];
      if constexpr (INDEX)
        if (v > 0)
          v = W (order[(int64_t) v - 1] + 1);
      y[SCATTER ? moved : e] = v;
    }
}

template <bool SCATTER, bool INDEX>
cudaError_t permute_as (gsk_context *c, size_t elem_bytes, const void *x, void *y, int64_t inner,
                        int64_t len, int64_t outer, const int64_t *order, cudaStream_t s)
{
  const unsigned blocks = elementwise_blocks (*c, inner * len * outer);
#define GSK_PERMUTE(W)                                                                  \
  permute_kernel<W, SCATTER, INDEX><<<blocks, block_threads, 0, s>>> (                  \
    static_cast<const W *> (x), static_cast<W *> (y), inner, len, outer, order)
  if constexpr (INDEX)
    GSK_PERMUTE (double);
  else
    switch (elem_bytes)
      {
      case 1: GSK_PERMUTE (uint8_t); break;
      case 2: GSK_PERMUTE (uint16_t); break;
      case 4: GSK_PERMUTE (uint32_t); break;
      case 8: GSK_PERMUTE (uint64_t); break;
      case 16: GSK_PERMUTE (uint4); break;
      default: return cudaErrorInvalidValue;
      }
#undef GSK_PERMUTE
  return cudaGetLastError ();
}

// ---- few labels: label tiles --------------------------------------------------------

// The operators of label tiles: states of 8 bytes at most, which a warp keeps for each
// label in shared memory (sums and products of double and single; max and min, values
// only, inclusive); F (Op) is called with the operator; false when d is not one
template <typename F>
bool with_label_op (const scan_desc *d, F f)
{
  if (d->inner != 1 || d->heads || d->index || d->accurate || d->input != SCAN_INPUT_AS_OUTPUT
      || d->compare != SCAN_CMP_OCTAVE || d->nan_rule != SCAN_NAN_OCTAVE)
    return false;
#define GSK_LABEL_CASE(E, name)                                               \
  case E:                                                                    \
    if (d->op == SCAN_SUM) return f (sum_##name ()), true;                    \
    if (d->op == SCAN_PROD) return f (prod_##name ()), true;                  \
    if (d->op == SCAN_MAX && ! d->exclusive) return f (vmax_##name ()), true; \
    if (d->op == SCAN_MIN && ! d->exclusive) return f (vmin_##name ()), true; \
    return false;
  switch (d->type)
    {
      GSK_LABEL_CASE (SCAN_DOUBLE, double)
      GSK_LABEL_CASE (SCAN_SINGLE, single)
    default:
      return false;
    }
#undef GSK_LABEL_CASE
}

// A warp's tile: `tile` elements of a column (along the scanned dim, in the scan's
// direction); `per_column` tiles a column, `count` in all
struct label_tiles { int64_t tile, per_column, count; };

// One warp's tile: positions [p0, p1) of column col in the scan's direction, states[l]
// the running state of label l (shared memory).  Lanes of one label take their turns in
// the order of their positions, one at a time; the lanes of a turn hold distinct
// labels.  TOTALS: the pass that folds only, and writes each position's label number
// (ids, from column 0); else the last pass, which reads them and writes y.
template <typename Op, bool TOTALS>
__device__ __forceinline__ void label_tile_run (const typename Op::elem *x, typename Op::elem *y,
                                                const double *keys, uint16_t *ids, long long lo,
                                                typename Op::A *states, int64_t col, int64_t len,
                                                int64_t p0, int64_t p1, bool reverse, bool exclusive)
{
  typedef typename Op::elem T;
  typedef typename Op::A A;
  const unsigned lane = threadIdx.x & 31, below = (1u << lane) - 1;
  const T *xc = x + col * len;
  for (int64_t base = p0; base < p1; base += 32 * label_rounds)
    {
      T v[label_rounds];
      int label[label_rounds];
#pragma unroll
      for (int r = 0; r < label_rounds; r++)
        {
          const int64_t p = base + r * 32 + lane, k = reverse ? len - 1 - p : p;
          v[r] = T ();
          label[r] = -1;
          if (p < p1)
            {
              v[r] = xc[k];
              if constexpr (TOTALS)
                label[r] = (int) ((long long) keys[k] - lo);
              else
                label[r] = ids[k];
            }
        }
      if constexpr (TOTALS)
        {
          if (col == 0)
            {
#pragma unroll
              for (int r = 0; r < label_rounds; r++)
                if (label[r] >= 0)
                  {
                    const int64_t p = base + r * 32 + lane;
                    ids[reverse ? len - 1 - p : p] = (uint16_t) label[r];
                  }
            }
        }
#pragma unroll
      for (int r = 0; r < label_rounds; r++)
        {
          const unsigned peers = __match_any_sync (0xffffffffu, label[r]);
          const int rank = __popc (peers & below);
          const A a = Op::lift (v[r], 0);
          T out = T ();
          bool pending = label[r] >= 0;
          for (int turn = 0; __any_sync (0xffffffffu, pending); turn++)
            {
              if (pending && rank == turn)
                {
                  const A before = states[label[r]], after = Op::combine (before, a);
                  states[label[r]] = after;
                  if constexpr (! TOTALS)
                    Op::emit (exclusive ? exclusive_output<Op>::of (before) : after, &out, nullptr);
                  pending = false;
                }
              __syncwarp ();
            }
          if constexpr (! TOTALS)
            if (label[r] >= 0)
              {
                const int64_t p = base + r * 32 + lane;
                y[col * len + (reverse ? len - 1 - p : p)] = out;
              }
        }
    }
}

// The first pass: each warp's tile folded into a state a label, written to totals
// (tile-major, span states a tile)
template <typename Op>
__global__ void __launch_bounds__ (32 * label_warps)
label_totals_kernel (const typename Op::elem *x, const double *keys, uint16_t *ids, long long lo,
                     int span, label_tiles t, int64_t len, int reverse, typename Op::A *totals)
{
  typedef typename Op::A A;
  extern __shared__ __align__ (16) unsigned char label_smem[];
  const int lane = threadIdx.x & 31;
  const int64_t tile = (int64_t) blockIdx.x * label_warps + threadIdx.x / 32;
  if (tile >= t.count)
    return;
  A *states = reinterpret_cast<A *> (label_smem) + (int64_t) (threadIdx.x / 32) * span;
  for (int l = lane; l < span; l += 32)
    states[l] = Op::identity ();
  __syncwarp ();
  const int64_t col = tile / t.per_column, p0 = tile % t.per_column * t.tile;
  label_tile_run<Op, true> (x, nullptr, keys, ids, lo, states, col, len, p0,
                            min (len, p0 + t.tile), reverse, false);
  __syncwarp ();
  for (int l = lane; l < span; l += 32)
    totals[tile * span + l] = states[l];
}

// The tiles' totals of each (column, label) become the carries into each tile, in
// place: each of 32 rows of threads folds a run of tiles, the runs' totals are scanned
// in shared memory, and each row runs its tiles again.  A fixed grouping: the same bits
// on every call.  A block: 32 labels x 32 rows.
constexpr int label_carry_batch = 8;   // a row's loads in flight
template <typename Op>
__global__ void __launch_bounds__ (1024)
label_carries_kernel (typename Op::A *totals, int span, int64_t per_column)
{
  typedef typename Op::A A;
  __shared__ A run_total[32][33];
  const int slabs = (span + 31) / 32, lane = threadIdx.x & 31, row = threadIdx.x / 32;
  const int64_t col = blockIdx.x / slabs;
  const int l = (int) (blockIdx.x % slabs) * 32 + lane;
  const int64_t per_row = (per_column + 31) / 32;
  const int64_t t0 = min (per_column, row * per_row), t1 = min (per_column, t0 + per_row);
  A *c = totals + col * per_column * span + l;
  A sum = Op::identity ();
  if (l < span)
    for (int64_t t = t0; t < t1; t += label_carry_batch)
      {
        A s[label_carry_batch];
#pragma unroll
        for (int j = 0; j < label_carry_batch; j++)
          s[j] = t + j < t1 ? c[(t + j) * span] : Op::identity ();
#pragma unroll
        for (int j = 0; j < label_carry_batch; j++)
          if (t + j < t1)
            sum = Op::combine (sum, s[j]);
      }
  run_total[row][lane] = sum;
  __syncthreads ();
  if (row == 0)
    {
      A before = Op::identity ();
      for (int r = 0; r < 32; r++)
        {
          const A s = run_total[r][lane];
          run_total[r][lane] = before;
          before = Op::combine (before, s);
        }
    }
  __syncthreads ();
  A carry = run_total[row][lane];
  if (l < span)
    for (int64_t t = t0; t < t1; t += label_carry_batch)
      {
        A s[label_carry_batch];
#pragma unroll
        for (int j = 0; j < label_carry_batch; j++)
          s[j] = t + j < t1 ? c[(t + j) * span] : Op::identity ();
#pragma unroll
        for (int j = 0; j < label_carry_batch; j++)
          if (t + j < t1)
            {
              c[(t + j) * span] = carry;
              carry = Op::combine (carry, s[j]);
            }
      }
}

// The last pass: each warp's tile from its carries, y written
template <typename Op>
__global__ void __launch_bounds__ (32 * label_warps)
label_final_kernel (const typename Op::elem *x, typename Op::elem *y, const uint16_t *ids,
                    int span, label_tiles t, int64_t len, int reverse, int exclusive,
                    const typename Op::A *carries)
{
  typedef typename Op::A A;
  extern __shared__ __align__ (16) unsigned char label_smem[];
  const int lane = threadIdx.x & 31;
  const int64_t tile = (int64_t) blockIdx.x * label_warps + threadIdx.x / 32;
  if (tile >= t.count)
    return;
  A *states = reinterpret_cast<A *> (label_smem) + (int64_t) (threadIdx.x / 32) * span;
  for (int l = lane; l < span; l += 32)
    states[l] = carries[tile * span + l];
  __syncwarp ();
  const int64_t col = tile / t.per_column, p0 = tile % t.per_column * t.tile;
  label_tile_run<Op, false> (x, y, nullptr, const_cast<uint16_t *> (ids), 0, states, col, len,
                             p0, min (len, p0 + t.tile), reverse, exclusive);
}

// The tiles of d within span labels: as many as fill whole waves of the warps the GPU
// holds at once (a tile a warp, all alike), of at least label_tile_per_label elements a
// label and label_tile_min, a whole number of rounds
template <typename Op>
label_tiles label_tiles_of (const gsk_context& c, const scan_desc *d, long long span)
{
  const size_t smem = (size_t) label_warps * span * sizeof (typename Op::A);
  const int64_t warps = resident_blocks (c, label_final_kernel<Op>, 32 * label_warps, smem) * label_warps;
  const int64_t round = 32 * label_rounds, n = d->len * d->outer;
  const int64_t least = std::max<int64_t> (label_tile_min, label_tile_per_label * span);
  const int64_t waves = std::max<int64_t> (1, n / (warps * least));
  const int64_t per_column = std::max<int64_t> (1, blocks_for (waves * warps, d->outer));
  int64_t tile = std::max<int64_t> (least, blocks_for (d->len, per_column));
  tile = blocks_for (tile, round) * round;
  const int64_t tiles = blocks_for (d->len, tile);
  return { tile, tiles, tiles * d->outer };
}

}  // namespace gsk

using namespace gsk;

// the workspace: canonical labels, sorted labels, positions, the range, then CUB's
// temporary storage for the wider of the two sorts
static size_t sort_bytes (int64_t n)
{
  size_t wide = 0, narrow = 0;
  cub::DeviceRadixSort::SortPairs (nullptr, wide, (const double *) nullptr, (double *) nullptr,
                                   (const int64_t *) nullptr, (int64_t *) nullptr, n);
  cub::DeviceRadixSort::SortPairs (nullptr, narrow, (const uint32_t *) nullptr, (uint32_t *) nullptr,
                                   (const int64_t *) nullptr, (int64_t *) nullptr, n);
  return wide > narrow ? wide : narrow;
}

extern "C" size_t gsk_group_order_workspace_bytes (int64_t n)
{
  return 3 * (size_t) n * 8 + 256 + (sort_bytes (n) + 255) / 256 * 256;
}

// Integer labels whose range fits 32 bits sort as 32-bit offsets on the range's bits
// alone (1000 labels: 10 bits, two passes of CUB's radix sort, where 64-bit doubles take
// eight); others as doubles.  Reads the range back: waits for the stream.
extern "C" cudaError_t gsk_group_order (gsk_context *c, const double *keys, int64_t n,
                                        int64_t *order, uint8_t *heads, void *workspace,
                                        cudaStream_t s)
{
  if (n == 0)
    return cudaSuccess;
  double *canonical = static_cast<double *> (workspace), *sorted = canonical + n;
  int64_t *positions = reinterpret_cast<int64_t *> (sorted + n);
  label_range *range = reinterpret_cast<label_range *> (positions + n);
  void *sort_ws = reinterpret_cast<char *> (range) + 256;
  size_t ws_bytes = sort_bytes (n);
  const unsigned blocks = elementwise_blocks (*c, n);
  label_range r;
  cudaError_t err = read_label_range (*c, keys, n, range, &r, s);
  if (err != cudaSuccess)
    return err;
  sort_keys_kernel<<<blocks, block_threads, 0, s>>> (keys, canonical, positions, n);
  if (! r.wide && (unsigned long long) (r.hi - r.lo) <= 0xffffffffull)
    {
      uint32_t *narrow = reinterpret_cast<uint32_t *> (canonical);
      uint32_t *narrow_sorted = reinterpret_cast<uint32_t *> (sorted);
      const unsigned long long span = (unsigned long long) (r.hi - r.lo);
      const int bits = span ? 64 - __builtin_clzll (span) : 1;
      narrow_keys_kernel<<<blocks, block_threads, 0, s>>> (keys, narrow, n, r.lo);
      err = cub::DeviceRadixSort::SortPairs (sort_ws, ws_bytes, narrow, narrow_sorted, positions,
                                             order, n, 0, bits, s);
      if (err != cudaSuccess)
        return err;
      group_heads_kernel<<<blocks, block_threads, 0, s>>> (narrow_sorted, heads, n);
      return cudaGetLastError ();
    }
  err = cub::DeviceRadixSort::SortPairs (sort_ws, ws_bytes, canonical, sorted, positions, order,
                                         n, 0, 64, s);
  if (err != cudaSuccess)
    return err;
  group_heads_kernel<<<blocks, block_threads, 0, s>>> (sorted, heads, n);
  return cudaGetLastError ();
}

extern "C" cudaError_t gsk_permute (gsk_context *c, size_t elem_bytes, const void *x, void *y,
                                    int64_t inner, int64_t len, int64_t outer,
                                    const int64_t *order, int scatter, int index_map,
                                    cudaStream_t s)
{
  if (inner * len * outer == 0)
    return cudaSuccess;
  if (scatter)
    return index_map ? permute_as<true, true> (c, elem_bytes, x, y, inner, len, outer, order, s)
                     : permute_as<true, false> (c, elem_bytes, x, y, inner, len, outer, order, s);
  return index_map ? permute_as<false, true> (c, elem_bytes, x, y, inner, len, outer, order, s)
                   : permute_as<false, false> (c, elem_bytes, x, y, inner, len, outer, order, s);
}

extern "C" cudaError_t gsk_label_range_of (gsk_context *c, const double *keys, int64_t n,
                                        gsk_label_range *r, void *workspace, cudaStream_t s)
{
  *r = { 0, 0, 0 };
  return n == 0 ? cudaSuccess
                : read_label_range (*c, keys, n, static_cast<label_range *> (workspace), r, s);
}

extern "C" int gsk_label_scan_supports (const gsk_context *c, const scan_desc *d, long long span)
{
  size_t state = 0;
  if (! with_label_op (d, [&] (auto op) { state = sizeof (typename decltype (op)::A); }))
    return 0;
  return span >= 1 && span <= 65536 && span * (long long) state <= label_states_bytes
         && label_warps * span * state <= c->limits.smem_per_block;
}

extern "C" size_t gsk_label_scan_workspace_bytes (const gsk_context *c, const scan_desc *d,
                                                  long long span)
{
  size_t bytes = 0;
  with_label_op (d, [&] (auto op) {
    typedef decltype (op) Op;
    const label_tiles t = label_tiles_of<Op> (*c, d, span);
    bytes = round_up ((size_t) t.count * span * sizeof (typename Op::A))
            + round_up ((size_t) d->len * sizeof (uint16_t));
  });
  return bytes;
}

extern "C" void gsk_label_scan_describe (const gsk_context *c, const scan_desc *d,
                                         long long span, char *buf, size_t size)
{
  snprintf (buf, size, "no label tiles for this scan");
  with_label_op (d, [&] (auto op) {
    typedef decltype (op) Op;
    const label_tiles t = label_tiles_of<Op> (*c, d, span);
    snprintf (buf, size, "label tiles of %lld labels: %lld tiles of %lld elements, %d a block "
              "(%lld bytes of states a tile); totals, carries (%lld blocks of 1024), last",
              span, (long long) t.count, (long long) t.tile, label_warps,
              span * (long long) sizeof (typename Op::A), (long long) ((span + 31) / 32 * d->outer));
  });
}

extern "C" cudaError_t gsk_label_scan (gsk_context *c, const scan_desc *d, const double *keys,
                                       long long lo, long long span, void *workspace,
                                       size_t workspace_bytes, cudaStream_t s)
{
  if (scan_numel (d) == 0)
    return cudaSuccess;
  if (! gsk_label_scan_supports (c, d, span))
    return cudaErrorNotSupported;
  if (workspace_bytes < gsk_label_scan_workspace_bytes (c, d, span))
    return cudaErrorInvalidValue;
  with_label_op (d, [&] (auto op) {
    typedef decltype (op) Op;
    typedef typename Op::A A;
    typedef typename Op::elem T;
    const label_tiles t = label_tiles_of<Op> (*c, d, span);
    A *totals = static_cast<A *> (workspace);
    uint16_t *ids = reinterpret_cast<uint16_t *> (static_cast<char *> (workspace)
                                                  + round_up ((size_t) t.count * span * sizeof (A)));
    const size_t smem = (size_t) label_warps * span * sizeof (A);
    const int64_t blocks = blocks_for (t.count, label_warps);
    const T *x = static_cast<const T *> (d->x);
    label_totals_kernel<Op><<<(unsigned) blocks, 32 * label_warps, smem, s>>> (
      x, keys, ids, lo, (int) span, t, d->len, d->reverse, totals);
    label_carries_kernel<Op><<<(unsigned) ((span + 31) / 32 * d->outer), 1024, 0, s>>> (
      totals, (int) span, t.per_column);
    label_final_kernel<Op><<<(unsigned) blocks, 32 * label_warps, smem, s>>> (
      x, static_cast<T *> (d->y), ids, (int) span, t, d->len, d->reverse, d->exclusive, totals);
  });
  return cudaGetLastError ();
}

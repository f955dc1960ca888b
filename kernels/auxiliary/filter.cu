// Octave's filter of device arrays (base/filter_desc.h), the CPU engine's plan
// (src/cpu/cpu_filter.c) in kernels.  The state z of a channel (K values) steps as
// z' = M z + c x(k), y(k) = z_1 + b_1 x(k).  Two ways, by shape alone:
//   - in order: a thread runs a whole channel with filter's arithmetic (filter's bits),
//     where there are channels enough to fill the GPU or they are short;
//   - in blocks of filter_block_steps steps, for few long channels:
//       block_ends     each block's end state from a zero start: K dot products of its x
//                      with the response table g(m) = M^m c, a warp a block;
//       group_ends     the carry that each group of blocks adds, from a zero start, by
//                      s' = P s + e (P = M^L, L the block's steps);
//       channel_chain  the groups' start states, one after another (Q = P^G);
//       block_carries  each block's start state from its group's (each chain run by
//                      one thread of a block that stages its inputs);
//       steps          each block's steps from its carry, with filter's arithmetic;
//     then a channel whose carries are not all finite (an Inf or NaN in x, an unstable
//     filter) runs again in order, as the CPU engine does.
// The groups hold about sqrt(blocks) blocks, so that neither chain is long; tables and
// carries are in double.  The plan depends on the shape alone: the bits do not depend on
// the GPU.
#include <math.h>
#include <string.h>

#include <cuda_runtime.h>

#include "base/filter_desc.h"
#include "dispatch/context.cuh"
#include "dispatch/launch.cuh"
#include "scan_kernels.h"
#include "tuning/tuning.cuh"

namespace gsk {

constexpr int K_MAX = filter_max_order;
constexpr int L = filter_block_steps;
constexpr int warps_per_block = filter_threads / 32;
static_assert (L % 32 == 0 && filter_threads % 32 == 0, "blocks and steps of whole warps");

// filter's arithmetic, each operation rounded as written (no contraction into an fma)
__device__ __forceinline__ double mul (double a, double b) { return __dmul_rn (a, b); }
__device__ __forceinline__ double add (double a, double b) { return __dadd_rn (a, b); }
__device__ __forceinline__ double sub (double a, double b) { return __dsub_rn (a, b); }
__device__ __forceinline__ double fused (double a, double b, double c) { return __fma_rn (a, b, c); }
__device__ __forceinline__ float mul (float a, float b) { return __fmul_rn (a, b); }
__device__ __forceinline__ float add (float a, float b) { return __fadd_rn (a, b); }
__device__ __forceinline__ float sub (float a, float b) { return __fsub_rn (a, b); }
__device__ __forceinline__ float fused (float a, float b, float c) { return __fmaf_rn (a, b, c); }

// a call's filter (its coefficients by value) and arrays
template <typename T>
struct filter_args
{
  T b[K_MAX + 1], a[K_MAX + 1];   // divided by a's first, padded with zeros
  int order, fir, fused;
  int64_t inner, len, outer;      // element (i, k, o) at i + inner * (k + len * o)
  const T *x;
  T *y;
  const T *zi;
  T *zf;
};

// the maps that carry states across blocks and groups, column by column (stride K_MAX)
struct carry_maps { double p[K_MAX * K_MAX], q[K_MAX * K_MAX]; };

// One step of filter's (filter_desc.h; cpu_filter.c's STEP_ macros, term by term)
template <int K, typename T>
__device__ __forceinline__ T filter_step (const filter_args<T>& f, T (&z)[K], T xv)
{
  T yv;
  if (f.fused)
    {
      yv = fused (f.b[0], xv, z[0]);
#pragma unroll
      for (int j = 0; j < K - 1; j++)
        z[j] = f.fir ? fused (f.b[j + 1], xv, z[j + 1])
                     : fused (f.b[j + 1], xv, fused (-f.a[j + 1], yv, z[j + 1]));
      z[K - 1] = f.fir ? mul (f.b[K], xv) : fused (f.b[K], xv, mul (-f.a[K], yv));
    }
  else
    {
      yv = add (z[0], mul (f.b[0], xv));
#pragma unroll
      for (int j = 0; j < K - 1; j++)
        z[j] = f.fir ? add (z[j + 1], mul (f.b[j + 1], xv))
                     : add (sub (z[j + 1], mul (f.a[j + 1], yv)), mul (f.b[j + 1], xv));
      z[K - 1] = f.fir ? mul (f.b[K], xv) : sub (mul (f.b[K], xv), mul (f.a[K], yv));
    }
  return yv;
}

// Units of up to unit_len steps (blocks of a channel, or whole channels where blocks is
// 1), a thread each from its start state (zi for a channel's first, carry otherwise).
// in_order (NULL: every unit) leaves out the channels whose flag is not `want`.
// A warp's 32 units pass through shared memory 32 steps at a time, so that its loads and
// stores are whole rows: a unit's 32 steps (channels along the array's first dimension)
// or 32 neighbouring channels' step (inner >= 32).
template <int K, typename T>
__global__ void __launch_bounds__ (filter_threads)
filter_steps (filter_args<T> f, int64_t unit_len, int64_t blocks, const T *carry,
              const int *in_order, int want)
{
  __shared__ T stage[warps_per_block][32][33];
  __shared__ int64_t unit_at[warps_per_block][32], unit_steps[warps_per_block][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t units = f.inner * blocks * f.outer;
  const int64_t u = ((int64_t) blockIdx.x * warps_per_block + warp) * 32 + lane;
  int64_t n = 0, at = 0, ch = 0, blk = 0;
  if (u < units)
    {
      const int64_t i = u % f.inner, rest = u / f.inner, o = rest / blocks;
      blk = rest % blocks;
      ch = i + f.inner * o;
      if (! in_order || (in_order[ch] != 0) == (want != 0))
        {
          const int64_t k0 = blk * unit_len;
          n = f.len - k0 < unit_len ? f.len - k0 : unit_len;
          at = i + f.inner * (k0 + f.len * o);
        }
    }
  unit_at[warp][lane] = at;
  unit_steps[warp][lane] = n;
  T z[K];
  if (n)
    {
      const T *z0 = blk ? carry + (size_t) K * (ch * blocks + blk) : f.zi + (size_t) K * ch;
#pragma unroll
      for (int j = 0; j < K; j++)
        z[j] = z0[j];
    }
  int64_t most = n;
#pragma unroll
  for (int d = 16; d > 0; d >>= 1)
    {
      const int64_t other = __shfl_xor_sync (0xffffffffu, most, d);
      most = other > most ? other : most;
    }
  __syncwarp ();
  // rows of the stage: (unit r, step lane) or (unit lane, step r)
  const bool along = f.inner < 32;
  for (int64_t k0 = 0; k0 < most; k0 += 32)
    {
      // (the loads of a batch issued together, then stored: loads_in_flight a lane)
      for (int r0 = 0; r0 < 32; r0 += filter_loads_in_flight)
        {
          T v[filter_loads_in_flight];
          bool ok[filter_loads_in_flight];
#pragma unroll
          for (int q = 0; q < filter_loads_in_flight; q++)
            {
              const int un = along ? r0 + q : lane, s = along ? lane : r0 + q;
              ok[q] = k0 + s < unit_steps[warp][un];
              v[q] = ok[q] ? f.x[unit_at[warp][un] + f.inner * (k0 + s)] : T (0);
            }
#pragma unroll
          for (int q = 0; q < filter_loads_in_flight; q++)
            if (ok[q])
              stage[warp][along ? r0 + q : lane][along ? lane : r0 + q] = v[q];
        }
      __syncwarp ();
      const int64_t left = n - k0;
#pragma unroll
      for (int s = 0; s < 32; s++)
        if (s < left)
          stage[warp][lane][s] = filter_step<K> (f, z, stage[warp][lane][s]);
      __syncwarp ();
#pragma unroll 8
      for (int r = 0; r < 32; r++)
        {
          const int un = along ? r : lane, s = along ? lane : r;
          if (k0 + s < unit_steps[warp][un])
            f.y[unit_at[warp][un] + f.inner * (k0 + s)] = stage[warp][un][s];
        }
      __syncwarp ();
    }
  if (n && blk == blocks - 1)
#pragma unroll
    for (int j = 0; j < K; j++)
      f.zf[(size_t) K * ch + j] = z[j];
}

// order 0: a gain, y = b(1) x
template <typename T>
__global__ void filter_gain (T b0, const T *x, T *y, int64_t n)
{
  const int64_t stride = (int64_t) gridDim.x * blockDim.x;
  for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = mul (b0, x[i]);
}

// Each block's end state from a zero start (all but a channel's last block): a warp a
// block, the warps of a thread block on neighbouring channels of the same block
template <typename T>
__global__ void __launch_bounds__ (filter_threads)
filter_block_ends (filter_args<T> f, int64_t blocks, const double *table, double *ends)
{
  const int lane = threadIdx.x & 31;
  const int64_t pairs = f.inner * (blocks - 1) * f.outer;
  const int64_t step = (int64_t) gridDim.x * warps_per_block;
  for (int64_t w = (int64_t) blockIdx.x * warps_per_block + (threadIdx.x >> 5); w < pairs; w += step)
    {
      const int64_t i = w % f.inner, rest = w / f.inner, blk = rest % (blocks - 1),
                    o = rest / (blocks - 1), ch = i + f.inner * o;
      const T *x = f.x + i + f.inner * (blk * L + f.len * o);
      double xv[L / 32];
#pragma unroll
      for (int q = 0; q < L / 32; q++)
        xv[q] = (double) x[f.inner * (lane + 32 * q)];
      double *e = ends + (size_t) K_MAX * (ch * blocks + blk);
      for (int j = 0; j < f.order; j++)
        {
          double acc = 0;
#pragma unroll
          for (int q = 0; q < L / 32; q++)
            acc = fma (table[j * L + lane + 32 * q], xv[q], acc);
#pragma unroll
          for (int d = 16; d > 0; d >>= 1)
            acc += __shfl_xor_sync (0xffffffffu, acc, d);
          if (lane == 0)
            e[j] = acc;
        }
    }
}

// s = m s + e, for states of K <= K_MAX values (m column by column, stride K_MAX)
__device__ __forceinline__ void affine_step (const double *m, int K, double (&s)[K_MAX],
                                             const double *e)
{
  double t[K_MAX];
#pragma unroll
  for (int j = 0; j < K_MAX; j++)
    if (j < K)
      {
        double v = e ? e[j] : 0;
#pragma unroll
        for (int col = 0; col < K_MAX; col++)
          if (col < K)
            v = fma (m[K_MAX * col + j], s[col], v);
        t[j] = v;
      }
#pragma unroll
  for (int j = 0; j < K_MAX; j++)
    if (j < K)
      s[j] = t[j];
}

// The chain s(t + 1) = m s(t) + e(t) of count inputs e (stride K_MAX), from s: the block
// stages the inputs in shared memory, so that its first thread, which runs the chain,
// waits for no load; visit (t, s) sees each state s(t), t = 0 .. count.
template <typename V>
__device__ __forceinline__ void chain (const double *m, int K, double (&s)[K_MAX],
                                       const double *e, int64_t count, V visit)
{
  __shared__ double staged[filter_chain_stage * K_MAX];
  for (int64_t t0 = 0; t0 < count; t0 += filter_chain_stage)
    {
      const int64_t c = count - t0 < filter_chain_stage ? count - t0 : filter_chain_stage;
      __syncthreads ();
      for (int64_t i = threadIdx.x; i < c * K_MAX; i += blockDim.x)
        staged[i] = e[t0 * K_MAX + i];
      __syncthreads ();
      if (threadIdx.x == 0)
        for (int t = 0; t < c; t++)
          {
            visit (t0 + t, s);
            affine_step (m, K, s, staged + t * K_MAX);
          }
    }
  if (threadIdx.x == 0)
    visit (count, s);
}

// the carry that each group of blocks adds at the next group's start, from a zero start
// (a thread block a group)
__global__ void __launch_bounds__ (filter_chain_threads)
filter_group_ends (carry_maps m, int K, int64_t blocks, int64_t group, int64_t groups,
                   const double *ends, double *group_ends)
{
  const int64_t p = blockIdx.x, ch = p / groups, g = p % groups;
  double s[K_MAX] = { 0 };
  const int64_t last = (g + 1) * group < blocks - 1 ? (g + 1) * group : blocks - 1;
  chain (m.p, K, s, ends + (size_t) K_MAX * (ch * blocks + g * group), last - g * group,
         [&] (int64_t t, const double (&v)[K_MAX]) {
           if (t == last - g * group)
#pragma unroll
             for (int j = 0; j < K_MAX; j++)
               if (j < K)
                 group_ends[(size_t) K_MAX * p + j] = v[j];
         });
}

// the groups' start states of a channel, one after another from zi (a thread block a
// channel)
template <typename T>
__global__ void __launch_bounds__ (filter_chain_threads)
filter_channel_chain (carry_maps m, int K, int64_t groups, const T *zi,
                      const double *group_ends, double *starts)
{
  const int64_t ch = blockIdx.x;
  double s[K_MAX];
#pragma unroll
  for (int j = 0; j < K_MAX; j++)
    s[j] = j < K ? (double) zi[(size_t) K * ch + j] : 0;
  chain (m.q, K, s, group_ends + (size_t) K_MAX * ch * groups, groups - 1,
         [&] (int64_t g, const double (&v)[K_MAX]) {
#pragma unroll
           for (int j = 0; j < K_MAX; j++)
             if (j < K)
               starts[(size_t) K_MAX * (ch * groups + g) + j] = v[j];
         });
}

// each block's start state in the data's type, from its group's (a thread block a
// group); a channel with one that is not finite runs in order (in_order, zeroed before)
template <typename T>
__global__ void __launch_bounds__ (filter_chain_threads)
filter_block_carries (carry_maps m, int K, int64_t blocks, int64_t group, int64_t groups,
                      const double *ends, const double *starts, T *carry, int *in_order)
{
  const int64_t p = blockIdx.x, ch = p / groups, g = p % groups, first = g * group;
  double s[K_MAX];
#pragma unroll
  for (int j = 0; j < K_MAX; j++)
    s[j] = j < K ? starts[(size_t) K_MAX * p + j] : 0;
  bool finite = true;
  const int64_t last = (g + 1) * group < blocks ? (g + 1) * group : blocks;
  chain (m.p, K, s, ends + (size_t) K_MAX * (ch * blocks + first), last - first - 1,
         [&] (int64_t t, const double (&v)[K_MAX]) {
           const int64_t blk = first + t;
           if (blk)
#pragma unroll
             for (int j = 0; j < K_MAX; j++)
               if (j < K)
                 {
                   const T c = (T) v[j];
                   carry[(size_t) K * (ch * blocks + blk) + j] = c;
                   finite = finite && isfinite (v[j]) && isfinite (c);
                 }
         });
  if (threadIdx.x == 0 && ! finite)
    in_order[ch] = 1;
}

// ---- the plan and its host tables ----

struct filter_plan
{
  bool blocks_plan;       // few long channels, in blocks
  int64_t channels, blocks, group, groups;
  size_t table, ends, group_ends, starts, carry, in_order, bytes;   // workspace offsets
};

filter_plan plan_of (const filter_desc *d)
{
  filter_plan p = {};
  p.channels = d->inner * d->outer;
  p.blocks_plan = d->order >= 1 && d->len >= 2 * L && p.channels < filter_channels_min;
  if (! p.blocks_plan)
    return p;
  p.blocks = (d->len + L - 1) / L;
  p.group = (int64_t) ceil (sqrt ((double) p.blocks));
  p.groups = (p.blocks + p.group - 1) / p.group;
  const size_t es = d->type == SCAN_DOUBLE ? sizeof (double) : sizeof (float);
  size_t at = 0;
  auto take = [&] (size_t bytes) { const size_t here = at; at += (bytes + 255) / 256 * 256; return here; };
  p.table = take (sizeof (double) * K_MAX * L);
  p.ends = take (sizeof (double) * K_MAX * p.channels * p.blocks);
  p.group_ends = take (sizeof (double) * K_MAX * p.channels * p.groups);
  p.starts = take (sizeof (double) * K_MAX * p.channels * p.groups);
  p.carry = take (es * d->order * p.channels * p.blocks);
  p.in_order = take (sizeof (int) * p.channels);
  p.bytes = at;
  return p;
}

// (M g)_j = g_(j+1) - a_(j+1) g_1, the state map of a step without input
template <typename T>
void map_step (const filter_desc *d, const double *g, double *out)
{
  const T *a = (const T *) d->a;
  for (int j = 0; j < d->order; j++)
    out[j] = (j + 1 < d->order ? g[j + 1] : 0) - (d->fir ? 0 : (double) a[j + 1] * g[0]);
}

// the response table (table[j][n] = g(L - 1 - n)_j, g(0) = c, g(m + 1) = M g(m)) and the
// maps P = M^L and Q = P^group, in double
template <typename T>
void host_tables (const filter_desc *d, int64_t group, double *table, carry_maps *m)
{
  const int K = d->order;
  const T *b = (const T *) d->b, *a = (const T *) d->a;
  double g[K_MAX], next[K_MAX];
  for (int j = 0; j < K; j++)
    g[j] = (double) b[j + 1] - (d->fir ? 0 : (double) a[j + 1] * (double) b[0]);
  for (int m_ = 0; m_ < L; m_++)
    {
      for (int j = 0; j < K; j++)
        table[j * L + L - 1 - m_] = g[j];
      map_step<T> (d, g, next);
      memcpy (g, next, sizeof (double) * K);
    }
  memset (m, 0, sizeof *m);
  for (int col = 0; col < K; col++)
    {
      for (int j = 0; j < K; j++)
        g[j] = j == col;
      for (int s = 0; s < L; s++)
        {
          map_step<T> (d, g, next);
          memcpy (g, next, sizeof (double) * K);
        }
      memcpy (m->p + K_MAX * col, g, sizeof (double) * K);
    }
  for (int col = 0; col < K; col++)
    {
      for (int j = 0; j < K; j++)
        g[j] = j == col;
      for (int64_t s = 0; s < group; s++)
        {
          for (int j = 0; j < K; j++)
            {
              double v = 0;
              for (int c = 0; c < K; c++)
                v += m->p[K_MAX * c + j] * g[c];
              next[j] = v;
            }
          memcpy (g, next, sizeof (double) * K);
        }
      memcpy (m->q + K_MAX * col, g, sizeof (double) * K);
    }
}

inline unsigned grid_of (int64_t threads, int per_block)
{
  return (unsigned) ((threads + per_block - 1) / per_block);
}

template <int K, typename T>
void launch_steps (const filter_args<T>& f, int64_t unit_len, int64_t blocks, const T *carry,
                   const int *in_order, int want, cudaStream_t s)
{
  const int64_t units = f.inner * blocks * f.outer;
  filter_steps<K, T><<<grid_of (units, filter_threads), filter_threads, 0, s>>>
    (f, unit_len, blocks, carry, in_order, want);
}

template <typename T>
void steps_of_order (const filter_args<T>& f, int64_t unit_len, int64_t blocks, const T *carry,
                     const int *in_order, int want, cudaStream_t s)
{
  switch (f.order)
    {
    case 1: launch_steps<1> (f, unit_len, blocks, carry, in_order, want, s); break;
    case 2: launch_steps<2> (f, unit_len, blocks, carry, in_order, want, s); break;
    case 3: launch_steps<3> (f, unit_len, blocks, carry, in_order, want, s); break;
    case 4: launch_steps<4> (f, unit_len, blocks, carry, in_order, want, s); break;
    case 5: launch_steps<5> (f, unit_len, blocks, carry, in_order, want, s); break;
    case 6: launch_steps<6> (f, unit_len, blocks, carry, in_order, want, s); break;
    case 7: launch_steps<7> (f, unit_len, blocks, carry, in_order, want, s); break;
    default: launch_steps<8> (f, unit_len, blocks, carry, in_order, want, s); break;
    }
}

template <typename T>
cudaError_t run_filter (const gsk_context& c, const filter_desc *d, char *work, cudaStream_t s)
{
  filter_args<T> f = {};
  const int K = d->order;
  memcpy (f.b, d->b, sizeof (T) * (K + 1));
  if (! d->fir)
    memcpy (f.a, d->a, sizeof (T) * (K + 1));
  f.order = K;
  f.fir = d->fir;
  f.fused = d->fused;
  f.inner = d->inner;
  f.len = d->len;
  f.outer = d->outer;
  f.x = (const T *) d->x;
  f.y = (T *) d->y;
  f.zi = (const T *) d->zi;
  f.zf = (T *) d->zf;
  const int64_t n = d->inner * d->len * d->outer;
  if (K == 0)
    {
      filter_gain<T><<<elementwise_blocks (c, n), block_threads, 0, s>>> (f.b[0], f.x, f.y, n);
      return cudaGetLastError ();
    }
  const filter_plan p = plan_of (d);
  if (! p.blocks_plan)
    {
      steps_of_order (f, d->len, 1, (const T *) nullptr, (const int *) nullptr, 0, s);
      return cudaGetLastError ();
    }
  double *table = (double *) (work + p.table), *ends = (double *) (work + p.ends),
         *group_ends = (double *) (work + p.group_ends), *starts = (double *) (work + p.starts);
  T *carry = (T *) (work + p.carry);
  int *in_order = (int *) (work + p.in_order);
  double host_table[K_MAX * L];
  carry_maps m;
  host_tables<T> (d, p.group, host_table, &m);
  // (from pageable memory: staged before the call returns)
  cudaError_t err = cudaMemcpyAsync (table, host_table, sizeof (double) * K * L,
                                     cudaMemcpyHostToDevice, s);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (in_order, 0, sizeof (int) * p.channels, s);
  if (err != cudaSuccess)
    return err;
  const int64_t pairs = p.channels * (p.blocks - 1);
  const int64_t most = (int64_t) c.limits.sms * c.tuning->elementwise_blocks_per_sm;
  const int64_t end_blocks = grid_of (pairs, warps_per_block);
  filter_block_ends<T><<<(unsigned) (end_blocks < most ? end_blocks : most), filter_threads, 0, s>>>
    (f, p.blocks, table, ends);
  const unsigned group_blocks = (unsigned) (p.channels * p.groups);
  filter_group_ends<<<group_blocks, filter_chain_threads, 0, s>>>
    (m, K, p.blocks, p.group, p.groups, ends, group_ends);
  filter_channel_chain<T><<<(unsigned) p.channels, filter_chain_threads, 0, s>>>
    (m, K, p.groups, f.zi, group_ends, starts);
  filter_block_carries<T><<<group_blocks, filter_chain_threads, 0, s>>>
    (m, K, p.blocks, p.group, p.groups, ends, starts, carry, in_order);
  steps_of_order (f, (int64_t) L, p.blocks, (const T *) carry, (const int *) in_order, 0, s);
  steps_of_order (f, d->len, 1, (const T *) nullptr, (const int *) in_order, 1, s);
  return cudaGetLastError ();
}

}  // namespace gsk

using namespace gsk;

extern "C" int gsk_filter_supports (const filter_desc *d)
{
  return (d->type == SCAN_DOUBLE || d->type == SCAN_SINGLE) && d->order >= 0
         && d->order <= K_MAX;
}

extern "C" size_t gsk_filter_workspace_bytes (const filter_desc *d)
{
  return plan_of (d).bytes;
}

extern "C" cudaError_t gsk_filter (gsk_context *c, const filter_desc *d, void *workspace,
                                   size_t workspace_bytes, cudaStream_t s)
{
  if (! gsk_filter_supports (d))
    return cudaErrorNotSupported;
  if (d->inner * d->len * d->outer == 0 || workspace_bytes < plan_of (d).bytes)
    return d->inner * d->len * d->outer == 0 ? cudaSuccess : cudaErrorInvalidValue;
  return d->type == SCAN_DOUBLE ? run_filter<double> (*c, d, (char *) workspace, s)
                                : run_filter<float> (*c, d, (char *) workspace, s);
}

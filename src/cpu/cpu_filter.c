/* Octave's filter on the CPU engine (base/filter_desc.h has the steps).  The state z of a
   channel (K values) steps as z' = M z + c x(k), with y(k) = z_1 + b_1 x(k): a linear
   recurrence whose map M is the same at every step.

   Channels run in parallel, each in order with filter's own arithmetic, so the bits are
   filter's.  A few long channels are cut into blocks of FILTER_BLOCK steps (a constant,
   so the bits do not depend on the threads):
     1. each block's state at its end from a zero start: a dot product of its x with the
        response table g(m) = M^m c (no chain of dependent steps: it runs at the speed of
        the loads, a fraction of a step's time);
     2. the carries into the blocks, one after another: s(b+1) = M^L s(b) + e(b);
     3. each block's steps from its carry, with filter's arithmetic.
   Tables and carries are in double for single data.  The first block's outputs are
   filter's bits; the others start from a computed carry.  A channel whose carries are not
   all finite (an Inf or NaN in x, an unstable filter) runs in order, as filter does. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/work_pool.h"
#include "cpu/cpu_filter.h"
#include "cpu/cpu_tuning.h"

typedef double _Complex cdouble;
typedef float _Complex csingle;

/* Up to Octave 10, filter rounds each product (7.3 and 9.4 checked, 10 assumed), and so
   must this file: no contraction of a * b + c into an fma.  Octave 11's fused steps call
   fma, which a CPU with FMA instructions runs inline: the steps are compiled twice, for
   such CPUs and for the others (ifunc, ELF targets). */
#if defined __clang__
#pragma clang fp contract (off)
#elif defined __GNUC__
#pragma GCC optimize ("fp-contract=off")
#endif
#if defined __x86_64__ && defined __ELF__ && defined __GNUC__ && ! defined __clang__
#define FMA_CLONES __attribute__ ((target_clones ("fma", "default")))
#else
#define FMA_CLONES
#endif
/* (complex numbers have no fma: Octave 11's filter takes their products as they are) */
#define COMPLEX_FMA(a, b, c) ((a) * (b) + (c))

#define REAL_FINITE(v) isfinite (v)
#define COMPLEX_FINITE(v) (isfinite (creal (v)) && isfinite (cimag (v)))

/* Filter's arithmetic, term by term: the output, state value j (< K - 1) from the next
   one, and the last.  Octave 11's filter fuses each multiply and add (one rounding,
   fma); earlier ones round each product (fused 0).  F: the type's fma. */
#define STEP_Y(F, fused, b, xv, z0) ((fused) ? F (b[0], xv, z0) : (z0) + b[0] * (xv))
#define STEP_Z(F, fused, fir, j, a, b, xv, yv, next)                                  \
  ((fused) ? ((fir) ? F (b[(j) + 1], xv, next) : F (b[(j) + 1], xv, F (-a[(j) + 1], yv, next))) \
           : ((fir) ? (next) + b[(j) + 1] * (xv) : (next) - a[(j) + 1] * (yv) + b[(j) + 1] * (xv)))
#define STEP_LAST(F, fused, fir, K, a, b, xv, yv)                                     \
  ((fir) ? b[K] * (xv) : (fused) ? F (b[K], xv, -a[K] * (yv)) : b[K] * (xv) - a[K] * (yv))

/* One step on the state, Z (j) its j-th value (a macro, so that the state can be a lane
   of an array) */
#define FILTER_STEP(F, Z, K, fir, fused, b, a, xv, yv)                                \
  do                                                                                  \
    {                                                                                 \
      yv = STEP_Y (F, fused, b, xv, Z (0));                                           \
      for (int j = 0; j < K - 1; j++)                                                 \
        Z (j) = STEP_Z (F, fused, fir, j, a, b, xv, yv, Z (j + 1));                   \
      Z (K - 1) = STEP_LAST (F, fused, fir, K, a, b, xv, yv);                         \
    }                                                                                 \
  while (0)
#define MEM_Z(j) z[j]
#define LANE_Z(j) z[(j) * nl + l]

/* the way a filter runs: its channels in parallel, each in order, or few long channels
   in blocks; a matter of the shape and order alone */
static int in_blocks (const filter_desc *d)
{
  return d->order >= 1 && d->order <= FILTER_UNROLLED_ORDER
         && d->inner * d->outer < FILTER_ALONG_CHANNELS && d->len >= FILTER_ALONG_MIN_LEN;
}

/* State value j of steps_reg_'s scalars from the next one (0 past the end): unrolled for
   a constant K, dead for j >= K */
#define REG_UPDATE(F, j, next)                                                         \
  if (K > j + 1)                                                                      \
    r##j = STEP_Z (F, fused, fir, j, a, b, xv, yv, next);                             \
  else if (K == j + 1)                                                                \
    r##j = STEP_LAST (F, fused, fir, K, a, b, xv, yv);

/* the four register cases of order k: FIR or not, fused or not */
#define REG_CASES(NAME, k)                                                            \
    case 4 * k: steps_reg_##NAME (b, a, k, 0, 0, x, y, stride, n, z); return;         \
    case 4 * k + 1: steps_reg_##NAME (b, a, k, 0, 1, x, y, stride, n, z); return;     \
    case 4 * k + 2: steps_reg_##NAME (b, a, k, 1, 0, x, y, stride, n, z); return;     \
    case 4 * k + 3: steps_reg_##NAME (b, a, k, 1, 1, x, y, stride, n, z); return;

#define FILTER_DEFINE(NAME, T, W, FINITE, F)                                           \
/* n steps of one channel, stride apart, from the state zio (K values), left there, with \
   filter's arithmetic: the state in scalars (registers), for a K known where it is     \
   inlined (an array of them was packed into vectors in memory: 2x slower) */         \
static inline __attribute__ ((always_inline)) void                                    \
steps_reg_##NAME (const T *restrict b, const T *restrict a, const int K, const int fir, \
                  const int fused, const T *x, T *y, int64_t stride, int64_t n, T *zio) \
{                                                                                     \
  T r0 = zio[0], r1 = K > 1 ? zio[1] : 0, r2 = K > 2 ? zio[2] : 0,                    \
    r3 = K > 3 ? zio[3] : 0, r4 = K > 4 ? zio[4] : 0, r5 = K > 5 ? zio[5] : 0,         \
    r6 = K > 6 ? zio[6] : 0, r7 = K > 7 ? zio[7] : 0;                                 \
  for (int64_t k = 0; k < n; k++)                                                     \
    {                                                                                 \
      const T xv = x[k * stride];                                                     \
      const T yv = STEP_Y (F, fused, b, xv, r0);                                      \
      REG_UPDATE (F, 0, r1) REG_UPDATE (F, 1, r2) REG_UPDATE (F, 2, r3)               \
      REG_UPDATE (F, 3, r4) REG_UPDATE (F, 4, r5) REG_UPDATE (F, 5, r6)               \
      REG_UPDATE (F, 6, r7) REG_UPDATE (F, 7, 0)                                      \
      y[k * stride] = yv;                                                             \
    }                                                                                 \
  const T r[FILTER_UNROLLED_ORDER] = { r0, r1, r2, r3, r4, r5, r6, r7 };              \
  for (int j = 0; j < K; j++)                                                         \
    zio[j] = r[j];                                                                    \
}                                                                                     \
                                                                                      \
FMA_CLONES static void steps_##NAME (const filter_desc *d, const T *x, T *y,           \
                                     int64_t stride, int64_t n, T *z)                 \
{                                                                                     \
  const T *b = (const T *) d->b, *a = (const T *) d->a;                               \
  const int K = d->order, fir = d->fir, fused = d->fused;                             \
  switch (K <= FILTER_UNROLLED_ORDER ? 4 * K + 2 * fir + fused : -1)                  \
    {                                                                                 \
      REG_CASES (NAME, 1) REG_CASES (NAME, 2) REG_CASES (NAME, 3) REG_CASES (NAME, 4) \
      REG_CASES (NAME, 5) REG_CASES (NAME, 6) REG_CASES (NAME, 7) REG_CASES (NAME, 8) \
    default:                                                                          \
      /* a high order: the state in memory, as filter keeps it */                     \
      for (int64_t k = 0; k < n; k++)                                                 \
        {                                                                             \
          const T xv = x[k * stride];                                                 \
          T yv;                                                                       \
          FILTER_STEP (F, MEM_Z, K, fir, fused, b, a, xv, yv);                        \
          y[k * stride] = yv;                                                         \
        }                                                                             \
    }                                                                                 \
}                                                                                     \
                                                                                      \
/* nl channels side by side (inner > 1: channels l0 .. l0 + nl - 1 of slice o lie next \
   to each other at each step), lane l's state at z[j * nl + l]: the loop over the lanes \
   vectorizes, and each lane's arithmetic is steps_'s */                              \
FMA_CLONES static void lanes_##NAME (const filter_desc *d, int64_t o, int64_t l0,      \
                                     int64_t nl, T *z)                                \
{                                                                                     \
  const T *b = (const T *) d->b, *a = (const T *) d->a;                               \
  const int K = d->order, fir = d->fir, fused = d->fused;                             \
  const int64_t inner = d->inner, len = d->len;                                       \
  for (int64_t k = 0; k < len; k++)                                                   \
    {                                                                                 \
      const T *const xr = (const T *) d->x + l0 + inner * (k + len * o);              \
      T *const yr = (T *) d->y + l0 + inner * (k + len * o);                          \
_Pragma ("GCC ivdep")                                                                 \
      for (int64_t l = 0; l < nl; l++)                                                \
        {                                                                             \
          const T xv = xr[l];                                                         \
          T yv;                                                                       \
          FILTER_STEP (F, LANE_Z, K, fir, fused, b, a, xv, yv);                       \
          yr[l] = yv;                                                                 \
        }                                                                             \
    }                                                                                 \
}                                                                                     \
                                                                                      \
/* ---- channels in parallel: a unit is one channel, or a block of lanes ---- */      \
typedef struct channels_##NAME { const filter_desc *d; int64_t lanes, units; } channels_##NAME; \
                                                                                      \
static void channel_unit_##NAME (void *ctx, int64_t u)                                 \
{                                                                                     \
  const channels_##NAME *c = (const channels_##NAME *) ctx;                           \
  const filter_desc *d = c->d;                                                        \
  const int K = d->order;                                                             \
  const int64_t inner = d->inner, per_slice = (inner + c->lanes - 1) / c->lanes;       \
  const int64_t o = u / per_slice, l0 = (u % per_slice) * c->lanes;                   \
  const int64_t nl = l0 + c->lanes <= inner ? c->lanes : inner - l0;                  \
  const T *zi = (const T *) d->zi + (size_t) K * (l0 + inner * o);                    \
  T *zf = (T *) d->zf + (size_t) K * (l0 + inner * o);                                \
  if (nl == 1)                                                                        \
    {                                                                                 \
      memcpy (zf, zi, sizeof (T) * K);                                                \
      steps_##NAME (d, (const T *) d->x + l0 + inner * d->len * o,                    \
                    (T *) d->y + l0 + inner * d->len * o, inner, d->len, zf);          \
      return;                                                                         \
    }                                                                                 \
  /* (the states lane by lane: K * lanes of them, within CPU_LANE_STATE_BYTES) */     \
  T z[CPU_LANE_STATE_BYTES / sizeof (T)];                                             \
  for (int64_t l = 0; l < nl; l++)                                                    \
    for (int j = 0; j < K; j++)                                                       \
      z[j * nl + l] = zi[(size_t) K * l + j];                                         \
  lanes_##NAME (d, o, l0, nl, z);                                                     \
  for (int64_t l = 0; l < nl; l++)                                                    \
    for (int j = 0; j < K; j++)                                                       \
      zf[(size_t) K * l + j] = z[j * nl + l];                                         \
}                                                                                     \
                                                                                      \
static void run_channels_##NAME (const filter_desc *d, int nthreads)                  \
{                                                                                     \
  channels_##NAME c = { d, 1, 0 };                                                    \
  if (d->inner > 1 && d->order > 0)                                                   \
    {                                                                                 \
      /* as many lanes a unit as give each thread a unit (a lane's bits do not depend  \
         on its neighbours), within the state's budget */                             \
      const int64_t wanted = (int64_t) CPU_UNITS_PER_THREAD * nthreads;               \
      const int64_t cuts = d->outer >= wanted ? 1 : (wanted + d->outer - 1) / d->outer; \
      const int64_t most = CPU_LANE_STATE_BYTES / ((int64_t) sizeof (T) * d->order);   \
      c.lanes = ((d->inner + cuts - 1) / cuts + 7) / 8 * 8;                           \
      c.lanes = c.lanes < CPU_LANE_BLOCK ? c.lanes : CPU_LANE_BLOCK;                  \
      c.lanes = c.lanes < most ? c.lanes : most < 1 ? 1 : most;                       \
    }                                                                                 \
  c.units = (d->inner + c.lanes - 1) / c.lanes * d->outer;                            \
  work_pool_for_upto (c.units, channel_unit_##NAME, &c, nthreads);                    \
}                                                                                     \
                                                                                      \
/* ---- few long channels, in blocks ---- */                                          \
typedef struct blocks_##NAME                                                          \
{                                                                                     \
  const filter_desc *d;                                                               \
  int64_t blocks;        /* a channel's */                                            \
  W *table;              /* K rows of FILTER_BLOCK: table[j][n] = g(L - 1 - n)_j */   \
  W *ends;               /* each block's end state from zero (K), the last's unused */ \
  T *carry;              /* each block's start state (K) */                           \
  int *in_order;         /* a channel that runs in order */                           \
} blocks_##NAME;                                                                      \
                                                                                      \
/* the state map g -> M g */                                                          \
static void map_step_##NAME (const filter_desc *d, const W *g, W *out)                \
{                                                                                     \
  const T *a = (const T *) d->a;                                                      \
  const int K = d->order;                                                             \
  for (int j = 0; j < K; j++)                                                         \
    out[j] = (j + 1 < K ? g[j + 1] : 0) - (d->fir ? 0 : (W) a[j + 1] * g[0]);         \
}                                                                                     \
                                                                                      \
static void block_end_##NAME (void *ctx, int64_t p)                                   \
{                                                                                     \
  const blocks_##NAME *c = (const blocks_##NAME *) ctx;                               \
  const filter_desc *d = c->d;                                                        \
  const int K = d->order;                                                             \
  const int64_t ch = p / (c->blocks - 1), blk = p % (c->blocks - 1);                  \
  const int64_t i = ch % d->inner, o = ch / d->inner, stride = d->inner;              \
  const T *x = (const T *) d->x + i + stride * (blk * FILTER_BLOCK + d->len * o);      \
  W *e = c->ends + (size_t) K * (ch * c->blocks + blk);                               \
  for (int j = 0; j < K; j++)                                                         \
    {                                                                                 \
      /* eight sums side by side (vectorized), added in a fixed order */              \
      const W *g = c->table + (size_t) j * FILTER_BLOCK;                              \
      W acc[8] = { 0 };                                                               \
      for (int64_t n = 0; n < FILTER_BLOCK; n += 8)                                   \
        for (int u = 0; u < 8; u++)                                                   \
          acc[u] += g[n + u] * (W) x[(n + u) * stride];                               \
      e[j] = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])); \
    }                                                                                 \
}                                                                                     \
                                                                                      \
static void block_steps_##NAME (void *ctx, int64_t p)                                 \
{                                                                                     \
  const blocks_##NAME *c = (const blocks_##NAME *) ctx;                               \
  const filter_desc *d = c->d;                                                        \
  const int K = d->order;                                                             \
  const int64_t ch = p / c->blocks, blk = p % c->blocks;                              \
  const int64_t i = ch % d->inner, o = ch / d->inner, stride = d->inner;              \
  const int64_t k0 = blk * FILTER_BLOCK;                                              \
  const int whole = c->in_order[ch];                                                  \
  if (whole && blk > 0)                                                               \
    return;   /* (block 0's unit runs the channel) */                                 \
  const int64_t n = whole || blk == c->blocks - 1 ? d->len - k0 : FILTER_BLOCK;       \
  T z[FILTER_UNROLLED_ORDER];                                                         \
  memcpy (z, blk ? c->carry + (size_t) K * (ch * c->blocks + blk)                     \
                 : (const T *) d->zi + (size_t) K * ch, sizeof (T) * K);              \
  const size_t at = i + stride * (k0 + d->len * o);                                   \
  steps_##NAME (d, (const T *) d->x + at, (T *) d->y + at, stride, n, z);              \
  if (whole || blk == c->blocks - 1)                                                  \
    memcpy ((T *) d->zf + (size_t) K * ch, z, sizeof (T) * K);                        \
}                                                                                     \
                                                                                      \
/* 0, or -1 without the memory */                                                     \
static int run_blocks_##NAME (const filter_desc *d, int nthreads)                     \
{                                                                                     \
  const int K = d->order;                                                             \
  const int64_t channels = d->inner * d->outer;                                       \
  blocks_##NAME c = { d, (d->len + FILTER_BLOCK - 1) / FILTER_BLOCK };                 \
  W *power = (W *) malloc (sizeof (W) * K * K);   /* M^L, column by column */         \
  W *g = (W *) malloc (sizeof (W) * 2 * K);                                           \
  c.table = (W *) malloc (sizeof (W) * K * FILTER_BLOCK);                             \
  c.ends = (W *) malloc (sizeof (W) * K * channels * c.blocks);                       \
  c.carry = (T *) malloc (sizeof (T) * K * channels * c.blocks);                      \
  c.in_order = (int *) calloc ((size_t) channels, sizeof (int));                      \
  const int ok = power && g && c.table && c.ends && c.carry && c.in_order;            \
  if (ok)                                                                             \
    {                                                                                 \
      const T *b = (const T *) d->b, *a = (const T *) d->a;                           \
      /* g(0) = c, the step's input vector; g(m + 1) = M g(m) */                      \
      for (int j = 0; j < K; j++)                                                     \
        g[j] = (W) b[j + 1] - (d->fir ? 0 : (W) a[j + 1] * (W) b[0]);                 \
      for (int64_t m = 0; m < FILTER_BLOCK; m++)                                      \
        {                                                                             \
          for (int j = 0; j < K; j++)                                                 \
            c.table[(size_t) j * FILTER_BLOCK + FILTER_BLOCK - 1 - m] = g[j];         \
          map_step_##NAME (d, g, g + K);                                              \
          memcpy (g, g + K, sizeof (W) * K);                                          \
        }                                                                             \
      for (int col = 0; col < K; col++)                                               \
        {                                                                             \
          for (int j = 0; j < K; j++)                                                 \
            g[j] = j == col;                                                          \
          for (int64_t m = 0; m < FILTER_BLOCK; m++)                                  \
            {                                                                         \
              map_step_##NAME (d, g, g + K);                                          \
              memcpy (g, g + K, sizeof (W) * K);                                      \
            }                                                                         \
          memcpy (power + (size_t) K * col, g, sizeof (W) * K);                       \
        }                                                                             \
      work_pool_for_upto (channels * (c.blocks - 1), block_end_##NAME, &c, nthreads);  \
      /* the carries, one block after another */                                      \
      for (int64_t ch = 0; ch < channels; ch++)                                       \
        {                                                                             \
          W s[FILTER_UNROLLED_ORDER], t[FILTER_UNROLLED_ORDER];                       \
          int finite = 1;                                                             \
          for (int j = 0; j < K; j++)                                                 \
            s[j] = (W) ((const T *) d->zi)[(size_t) K * ch + j];                      \
          for (int64_t blk = 0; blk + 1 < c.blocks; blk++)                            \
            {                                                                         \
              const W *e = c.ends + (size_t) K * (ch * c.blocks + blk);               \
              T *next = c.carry + (size_t) K * (ch * c.blocks + blk + 1);             \
              for (int j = 0; j < K; j++)                                             \
                {                                                                     \
                  W v = e[j];                                                         \
                  for (int col = 0; col < K; col++)                                   \
                    v += power[(size_t) K * col + j] * s[col];                        \
                  t[j] = v;                                                           \
                }                                                                     \
              for (int j = 0; j < K; j++)                                             \
                {                                                                     \
                  s[j] = t[j];                                                        \
                  next[j] = (T) t[j];                                                 \
                  finite = finite && FINITE (t[j]) && FINITE (next[j]);               \
                }                                                                     \
            }                                                                         \
          c.in_order[ch] = ! finite;                                                  \
        }                                                                             \
      work_pool_for_upto (channels * c.blocks, block_steps_##NAME, &c, nthreads);      \
    }                                                                                 \
  free (power);                                                                       \
  free (g);                                                                           \
  free (c.table);                                                                     \
  free (c.ends);                                                                      \
  free (c.carry);                                                                     \
  free (c.in_order);                                                                  \
  return ok ? 0 : -1;                                                                 \
}                                                                                     \
                                                                                      \
static int filter_##NAME (const filter_desc *d, int nthreads)                         \
{                                                                                     \
  const T *b = (const T *) d->b;                                                      \
  const int64_t n = d->inner * d->len * d->outer;                                     \
  if (d->order == 0)                                                                  \
    {                                                                                 \
      /* a gain alone: y = b(1) x */                                                  \
      for (int64_t k = 0; k < n; k++)                                                 \
        ((T *) d->y)[k] = b[0] * ((const T *) d->x)[k];                               \
      return 0;                                                                       \
    }                                                                                 \
  if (in_blocks (d))                                                                  \
    return run_blocks_##NAME (d, nthreads);                                           \
  run_channels_##NAME (d, nthreads);                                                  \
  return 0;                                                                           \
}

FILTER_DEFINE (double, double, double, REAL_FINITE, fma)
FILTER_DEFINE (single, float, double, REAL_FINITE, fmaf)
FILTER_DEFINE (cdouble, cdouble, cdouble, COMPLEX_FINITE, COMPLEX_FMA)
FILTER_DEFINE (csingle, csingle, cdouble, COMPLEX_FINITE, COMPLEX_FMA)

int cpu_filter (const filter_desc *d, int nthreads)
{
  if (d->type != SCAN_DOUBLE && d->type != SCAN_SINGLE && d->type != SCAN_CDOUBLE
      && d->type != SCAN_CSINGLE)
    return -1;
  const size_t size = scan_type_size (d->type);
  if (d->inner * d->len * d->outer == 0)
    {
      /* no steps: the state stays (no state at all: empty arrays may have no memory) */
      const size_t zbytes = size * (size_t) d->order * (size_t) (d->inner * d->outer);
      if (zbytes)
        memcpy (d->zf, d->zi, zbytes);
      return 0;
    }
  switch (d->type)
    {
    case SCAN_DOUBLE: return filter_double (d, nthreads);
    case SCAN_SINGLE: return filter_single (d, nthreads);
    case SCAN_CDOUBLE: return filter_cdouble (d, nthreads);
    case SCAN_CSINGLE: return filter_csingle (d, nthreads);
    default: return -1;
    }
}

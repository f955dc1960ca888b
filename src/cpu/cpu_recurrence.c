/* Linear recurrences y(k) = a(k) y(k-1) + b(k) along a dimension, y before the first
   element (and before each segment's) the initial value: a scan of the affine maps
   f_k (y) = a(k) y + b(k), which compose as (a2, b2) after (a1, b1) = (a2 a1, a2 b1 + b2).
   A long line is cut into blocks of a fixed size (CPU_BLOCK_BYTES, whatever the threads):
   each block's composed map (reduce), the carries into the blocks one after another,
   then each block's outputs from its carry (scan).  0 times an Inf or NaN a counts as
   0 (step): y0 = 0 starts a segment at b, as filter does, and the GPU's maps compose by
   the same step (scan_ops.cuh: affine_step).  A block in which a segment starts passes
   on its B alone: A times the carry would be 0 * Inf = NaN where an Inf a follows the
   start, or where the carry is Inf.  Across vectors and for many lines a
   thread takes whole lines (or lanes side by side).  The results do not depend on the
   number of threads. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "base/work_pool.h"
#include "cpu/cpu_line_steps.h"
#include "cpu/cpu_recurrence.h"
#include "cpu/cpu_tuning.h"

typedef double _Complex cdouble;
typedef float _Complex csingle;

/* A per-type body.  RUN_LINE scans steps [k0, k1) of line (i, o) from y. */
#define RECURRENCE_DEFINE(NAME, T)                                                    \
/* a y + b, but b where y is 0 and that is NaN (0 * Inf, 0 * NaN count as 0) */       \
static inline T step_##NAME (T a, T y, T b)                                           \
{                                                                                     \
  const T r = a * y + b;                                                              \
  return r != r && y == 0 ? b : r;                                                    \
}                                                                                     \
/* The loops run plain steps and, only where a NaN came out, again with step (whose   \
   test on each result made the loops 9% slower with a per element).  A NaN state     \
   stays NaN to the segment's end: it is looked for there alone. */                   \
static inline __attribute__ ((always_inline)) T                                       \
line_pass_##NAME (const scan_desc *d, int64_t i, int64_t o, int64_t k0, int64_t k1,  \
                  T y, T y0, int emit, int careful, int *nan)                          \
{                                                                                     \
  const T *b = (const T *) d->x, *a = (const T *) d->coef;                            \
  T *out = (T *) d->y;                                                                \
  int seen = 0;                                                                       \
  for (int64_t k = k0; k < k1; k++)                                                   \
    {                                                                                 \
      const int64_t at = at_step (d, i, o, k);                                        \
      if (step_starts (d, i, o, k))                                                 \
        {                                                                             \
          seen |= y != y;                                                             \
          y = y0;                                                                     \
        }                                                                             \
      const T before = y, ak = a[d->coef_scalar ? 0 : at];                            \
      y = careful ? step_##NAME (ak, y, b[at]) : ak * y + b[at];                      \
      if (emit)                                                                       \
        out[at] = d->exclusive ? before : y;                                          \
    }                                                                                 \
  *nan = seen | (y != y);                                                             \
  return y;                                                                           \
}                                                                                     \
static T run_line_##NAME (const scan_desc *d, int64_t i, int64_t o, int64_t k0,      \
                          int64_t k1, T y, T y0, int emit)                            \
{                                                                                     \
  int nan;                                                                            \
  const T end = line_pass_##NAME (d, i, o, k0, k1, y, y0, emit, 0, &nan);             \
  return nan ? line_pass_##NAME (d, i, o, k0, k1, y, y0, emit, 1, &nan) : end;        \
}                                                                                     \
/* the composed map of steps [k0, k1) of a line: y_end = A y_start + B, or B alone    \
   (*cut) once a segment starts inside, B then from y0 */                             \
static inline __attribute__ ((always_inline)) int                                     \
compose_pass_##NAME (const scan_desc *d, int64_t k0, int64_t k1, T y0, T *A, T *B,   \
                     uint8_t *cut, int careful)                                       \
{                                                                                     \
  const T *b = (const T *) d->x, *a = (const T *) d->coef;                            \
  T p = 1, q = 0;                                                                     \
  int seen = 0;                                                                       \
  *cut = 0;                                                                           \
  for (int64_t k = k0; k < k1; k++)                                                   \
    {                                                                                 \
      const int64_t at = at_step (d, 0, 0, k);                                        \
      const T ak = a[d->coef_scalar ? 0 : at];                                        \
      if (step_starts (d, 0, 0, k))                                                 \
        {                                                                             \
          *cut = 1;                                                                   \
          seen |= q != q;                                                             \
          p = 0;                                                                      \
          q = y0;                                                                     \
        }                                                                             \
      else                                                                            \
        p = ak * p;                                                                   \
      q = careful ? step_##NAME (ak, q, b[at]) : ak * q + b[at];                      \
    }                                                                                 \
  *A = p;                                                                             \
  *B = q;                                                                             \
  return seen | (q != q);                                                             \
}                                                                                     \
static void compose_##NAME (const scan_desc *d, int64_t k0, int64_t k1, T y0, T *A,  \
                            T *B, uint8_t *cut)                                       \
{                                                                                     \
  if (compose_pass_##NAME (d, k0, k1, y0, A, B, cut, 0))                              \
    compose_pass_##NAME (d, k0, k1, y0, A, B, cut, 1);                                \
}                                                                                     \
typedef struct { const scan_desc *d; T y0; int64_t block; T *A, *B, *carry;           \
                 uint8_t *cut; } job_##NAME;                                          \
static void reduce_piece_##NAME (void *ctx, int64_t j)                                \
{                                                                                     \
  const job_##NAME *c = ctx;                                                          \
  const int64_t k0 = j * c->block, k1 = k0 + c->block < c->d->len ? k0 + c->block     \
                                                                    : c->d->len;      \
  compose_##NAME (c->d, k0, k1, c->y0, &c->A[j], &c->B[j], &c->cut[j]);               \
}                                                                                     \
static void scan_piece_##NAME (void *ctx, int64_t j)                                  \
{                                                                                     \
  const job_##NAME *c = ctx;                                                          \
  const int64_t k0 = j * c->block, k1 = k0 + c->block < c->d->len ? k0 + c->block     \
                                                                    : c->d->len;      \
  run_line_##NAME (c->d, 0, 0, k0, k1, c->carry[j], c->y0, 1);                        \
}                                                                                     \
/* lines: piece j takes lines (or lanes side by side) j * per .. */                   \
typedef struct { const scan_desc *d; T y0; int64_t per; } lines_##NAME;               \
static void lines_piece_##NAME (void *ctx, int64_t j)                                 \
{                                                                                     \
  const lines_##NAME *c = ctx;                                                        \
  const scan_desc *d = c->d;                                                          \
  const int64_t lines = d->inner * d->outer;                                          \
  for (int64_t l = j * c->per; l < lines && l < (j + 1) * c->per; l++)                \
    run_line_##NAME (d, l % d->inner, l / d->inner, 0, d->len, c->y0, c->y0, 1);      \
}                                                                                     \
static int recurrence_##NAME (const scan_desc *d, T y0, int nthreads)                 \
{                                                                                     \
  const int64_t block = CPU_BLOCK_BYTES / (int64_t) sizeof (T);                       \
  if (d->inner == 1 && d->outer == 1 && d->len > block)                               \
    {                                                                                 \
      /* one long line: blocks of a fixed size, whatever the threads */               \
      const int64_t nb = (d->len + block - 1) / block;                                \
      T *buf = malloc (3 * (size_t) nb * sizeof (T) + (size_t) nb);                   \
      if (! buf)                                                                      \
        return -1;                                                                    \
      job_##NAME c = { d, y0, block, buf, buf + nb, buf + 2 * nb,                     \
                       (uint8_t *) (buf + 3 * nb) };                                  \
      work_pool_for_upto (nb, reduce_piece_##NAME, &c, nthreads);                     \
      c.carry[0] = y0;                                                                \
      for (int64_t j = 1; j < nb; j++)                                                \
        c.carry[j] = c.cut[j - 1] ? c.B[j - 1]                                        \
                     : step_##NAME (c.A[j - 1], c.carry[j - 1], c.B[j - 1]);          \
      work_pool_for_upto (nb, scan_piece_##NAME, &c, nthreads);                       \
      free (buf);                                                                     \
      return 0;                                                                       \
    }                                                                                 \
  const int64_t lines = d->inner * d->outer;                                          \
  lines_##NAME c = { d, y0, 1 + (block / (d->len > 0 ? d->len : 1)) };                \
  const int64_t pieces = (lines + c.per - 1) / c.per;                                 \
  work_pool_for_upto (pieces, lines_piece_##NAME, &c, nthreads);                      \
  return 0;                                                                           \
}

RECURRENCE_DEFINE (double, double)
RECURRENCE_DEFINE (single, float)
RECURRENCE_DEFINE (cdouble, cdouble)
RECURRENCE_DEFINE (csingle, csingle)

int cpu_recurrence (const scan_desc *d, int nthreads)
{
  const double re = d->initial[0], im = d->initial[1];
  switch (d->type)
    {
    case SCAN_DOUBLE: return recurrence_double (d, re, nthreads);
    case SCAN_SINGLE: return recurrence_single (d, (float) re, nthreads);
    case SCAN_CDOUBLE: return recurrence_cdouble (d, re + im * I, nthreads);
    case SCAN_CSINGLE: return recurrence_csingle (d, (float) re + (float) im * I, nthreads);
    default: return -1;
    }
}

/* CPU stream compaction, class conversion, head flags and element-wise arithmetic. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/group_labels.h"
#include "base/work_pool.h"
#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_tuning.h"

/* pieces of CPU_OPS_PIECE elements, claimed by the pool's threads from CPU_PARALLEL_MIN
   elements */
static int64_t pieces_of (int64_t n)
{
  return n < CPU_PARALLEL_MIN ? 1 : (n + CPU_OPS_PIECE - 1) / CPU_OPS_PIECE;
}

/* the first element of piece i (n for i == pieces) */
static int64_t piece_lo (int64_t n, int64_t pieces, int64_t i)
{
  const int64_t lo = pieces == 1 ? i * n : i * CPU_OPS_PIECE;
  return lo < n ? lo : n;
}

static int64_t count_range (const uint8_t *mask, int64_t lo, int64_t hi)
{
  int64_t c = 0;
  for (int64_t i = lo; i < hi; i++)
    c += mask[i] != 0;
  return c;
}

typedef struct count_job
{
  const uint8_t *mask;
  int64_t n, pieces;
  int64_t *count;   /* per piece, at i + 1 */
} count_job;

static void count_piece (void *ctx, int64_t i)
{
  count_job *c = ctx;
  c->count[i + 1] = count_range (c->mask, piece_lo (c->n, c->pieces, i),
                                 piece_lo (c->n, c->pieces, i + 1));
}

/* count[i + 1] = the nonzero bytes of piece i; count[0] = 0.  NULL without memory. */
static int64_t *piece_counts (const uint8_t *mask, int64_t n, int64_t pieces)
{
  count_job c = { mask, n, pieces, calloc ((size_t) pieces + 1, sizeof (int64_t)) };
  if (c.count)
    work_pool_for (pieces, count_piece, &c);
  return c.count;
}

int64_t cpu_count_nonzero (const uint8_t *mask, int64_t n)
{
  const int64_t pieces = pieces_of (n);
  int64_t *count = pieces > 1 ? piece_counts (mask, n, pieces) : NULL;
  if (! count)
    return count_range (mask, 0, n);
  int64_t c = 0;
  for (int64_t i = 1; i <= pieces; i++)
    c += count[i];
  free (count);
  return c;
}

/* copy the kept elements of [lo, hi) to y, a word type W at a time */
#define COMPACT_RANGE(W)                                                              \
  {                                                                                   \
    const W *xs = (const W *) x;                                                      \
    W *ys = (W *) y + at;                                                             \
    for (int64_t i = lo; i < hi; i++)                                                 \
      if (mask[i])                                                                    \
        *ys++ = xs[i];                                                                \
  }
typedef struct { uint64_t a, b; } word16;

static void compact_range (size_t elem_bytes, const void *x, const uint8_t *mask,
                           int64_t lo, int64_t hi, void *y, int64_t at)
{
  switch (elem_bytes)
    {
    case 1: COMPACT_RANGE (uint8_t) break;
    case 2: COMPACT_RANGE (uint16_t) break;
    case 4: COMPACT_RANGE (uint32_t) break;
    case 8: COMPACT_RANGE (uint64_t) break;
    default: COMPACT_RANGE (word16) break;
    }
}

typedef struct compact_job
{
  size_t elem_bytes;
  const void *x;
  const uint8_t *mask;
  int64_t n, pieces;
  const int64_t *at;   /* where each piece's first kept element goes */
  void *y;
} compact_job;

static void compact_piece (void *ctx, int64_t i)
{
  const compact_job *c = ctx;
  compact_range (c->elem_bytes, c->x, c->mask, piece_lo (c->n, c->pieces, i),
                 piece_lo (c->n, c->pieces, i + 1), c->y, c->at[i]);
}

/* the pieces are counted, the counts scanned (exclusive), and the pieces copied */
void cpu_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y)
{
  const int64_t pieces = pieces_of (n);
  int64_t *count = pieces > 1 ? piece_counts (mask, n, pieces) : NULL;
  if (! count)   /* small, or no memory for the counts: one thread */
    {
      compact_range (elem_bytes, x, mask, 0, n, y, 0);
      return;
    }
  for (int64_t i = 0; i < pieces; i++)
    count[i + 1] += count[i];
  compact_job c = { elem_bytes, x, mask, n, pieces, count, y };
  work_pool_for (pieces, compact_piece, &c);
  free (count);
}

typedef double _Complex cdouble;
typedef float _Complex csingle;

#define FOR_REAL_TYPES(X)                                                              \
  X (SCAN_DOUBLE, double) X (SCAN_SINGLE, float) X (SCAN_INT8, int8_t)                  \
  X (SCAN_UINT8, uint8_t) X (SCAN_INT16, int16_t) X (SCAN_UINT16, uint16_t)             \
  X (SCAN_INT32, int32_t) X (SCAN_UINT32, uint32_t) X (SCAN_INT64, int64_t)             \
  X (SCAN_UINT64, uint64_t) X (SCAN_LOGICAL, uint8_t)

typedef struct convert_job
{
  scan_type from, to;
  const void *x;
  void *y;
  int64_t n, pieces;
} convert_job;

/* y[lo, hi) = x[lo, hi) in class `to`; -1 for a pair without a conversion */
static int convert_range (scan_type from, scan_type to, const void *x, void *y, int64_t lo,
                          int64_t hi)
{
  if (to == SCAN_CDOUBLE && from == SCAN_CSINGLE)
    {
      for (int64_t i = lo; i < hi; i++)
        ((cdouble *) y)[i] = ((const csingle *) x)[i];
      return 0;
    }
  if (to != SCAN_DOUBLE)
    return -1;
  switch (from)
    {
#define CONVERT_CASE(E, T)                                                            \
    case E:                                                                           \
      for (int64_t i = lo; i < hi; i++)                                               \
        ((double *) y)[i] = (double) ((const T *) x)[i];                              \
      return 0;
      FOR_REAL_TYPES (CONVERT_CASE)
#undef CONVERT_CASE
    default:
      return -1;
    }
}

static void convert_piece (void *ctx, int64_t i)
{
  const convert_job *c = ctx;
  convert_range (c->from, c->to, c->x, c->y, piece_lo (c->n, c->pieces, i),
                 piece_lo (c->n, c->pieces, i + 1));
}

int cpu_convert (scan_type from, scan_type to, const void *x, void *y, int64_t n)
{
  if (convert_range (from, to, x, y, 0, 0) != 0)
    return -1;
  convert_job c = { from, to, x, y, n, pieces_of (n) };
  work_pool_for (c.pieces, convert_piece, &c);
  return 0;
}

int cpu_nonzero_flags (scan_type t, const void *x, uint8_t *flags, int64_t n)
{
  int nan = 0;
  switch (t)
    {
#define FLAGS_CASE(E, T)                                                              \
    case E:                                                                           \
      for (int64_t i = 0; i < n; i++)                                                 \
        {                                                                             \
          const T v = ((const T *) x)[i];                                             \
          nan |= v != v;                                                              \
          flags[i] = v != 0;                                                          \
        }                                                                             \
      return nan;
      FOR_REAL_TYPES (FLAGS_CASE)
      FLAGS_CASE (SCAN_CDOUBLE, cdouble)
      FLAGS_CASE (SCAN_CSINGLE, csingle)
#undef FLAGS_CASE
    default:
      return -1;
    }
}

static void elementwise_piece (void *ctx, int64_t i)
{
  const elementwise_desc *d = ctx;
  const int64_t pieces = pieces_of (d->n);
  for (int64_t k = piece_lo (d->n, pieces, i), hi = piece_lo (d->n, pieces, i + 1); k < hi; k++)
    elementwise_element (d, k);
}

void cpu_elementwise (const elementwise_desc *d)
{
  work_pool_for (pieces_of (d->n), elementwise_piece, (void *) d);
}

/* ---- "groups" (the host stand-in of kernels/auxiliary/groups.cu) ---- */
typedef struct { double key; int64_t at; } keyed;

/* by label (-0 is 0 already, NaN after every number), then by position: stable */
static int keyed_cmp (const void *pa, const void *pb)
{
  const keyed *a = pa, *b = pb;
  const int an = isnan (a->key), bn = isnan (b->key);
  if (an != bn)
    return an - bn;
  if (! an && a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return (a->at > b->at) - (a->at < b->at);
}

int cpu_group_order (const double *keys, int64_t n, int64_t *order, uint8_t *heads)
{
  keyed *v = malloc ((size_t) (n > 0 ? n : 1) * sizeof *v);
  if (! v)
    return -1;
  for (int64_t i = 0; i < n; i++)
    {
      v[i].key = keys[i] == 0 ? 0.0 : keys[i];
      v[i].at = i;
    }
  qsort (v, (size_t) n, sizeof *v, keyed_cmp);
  for (int64_t k = 0; k < n; k++)
    {
      order[k] = v[k].at;
      heads[k] = k == 0 || ! (v[k].key == v[k - 1].key);
    }
  free (v);
  return 0;
}

int cpu_label_scan_supports (const scan_desc *d, long long span)
{
  if (d->inner != 1 || d->heads || d->index || d->accurate || d->input != SCAN_INPUT_AS_OUTPUT
      || d->compare != SCAN_CMP_OCTAVE || d->nan_rule != SCAN_NAN_OCTAVE || span < 1
      || span > UINT32_MAX || (d->type != SCAN_DOUBLE && d->type != SCAN_SINGLE))
    return 0;
  return d->op == SCAN_SUM || d->op == SCAN_PROD
         || ((d->op == SCAN_MAX || d->op == SCAN_MIN) && ! d->exclusive);
}

/* each column's labels' running states in order; an exclusive sum's output from +0 (a -0
   state gives 0, as Octave's sum of nothing); max and min skip NaN, ties keep the
   earlier element.  LABEL (k): the number of position k's label from 0 */
#define LABEL_SCAN(T, LABEL, EMPTY, COMBINE, EXCLUSIVE)                       \
  {                                                                           \
    T *states = malloc ((size_t) span * sizeof *states);                      \
    if (! states)                                                             \
      break;                                                                  \
    for (int64_t o = 0; o < d->outer; o++)                                    \
      {                                                                       \
        const T *x = (const T *) d->x + d->len * o;                           \
        T *y = (T *) d->y + d->len * o;                                       \
        for (int64_t l = 0; l < span; l++)                                    \
          states[l] = EMPTY;                                                  \
        for (int64_t p = 0; p < d->len; p++)                                  \
          {                                                                   \
            const int64_t k = d->reverse ? d->len - 1 - p : p;                \
            T *s = states + (LABEL (k));                                      \
            const T a = *s, b = x[k];                                         \
            *s = COMBINE;                                                     \
            y[k] = d->exclusive ? EXCLUSIVE : *s;                             \
          }                                                                   \
      }                                                                       \
    free (states);                                                            \
    done = 0;                                                                 \
  }                                                                           \
  break;
#define LABEL_SCANS(T, LABEL)                                                 \
  switch (d->op)                                                              \
    {                                                                         \
    case SCAN_SUM: LABEL_SCAN (T, LABEL, (T) -0.0, a + b, a + (T) 0)          \
    case SCAN_PROD: LABEL_SCAN (T, LABEL, (T) 1, a * b, a)                    \
    case SCAN_MAX: LABEL_SCAN (T, LABEL, (T) NAN, b > a || a != a ? b : a, a) \
    case SCAN_MIN: LABEL_SCAN (T, LABEL, (T) NAN, b < a || a != a ? b : a, a) \
    default: break;                                                           \
    }
#define DOUBLE_LABEL(k) ((int64_t) ((const double *) labels)[k] - lo)
#define NUMBERED_LABEL(k) ids[k]

int cpu_label_scan (const scan_desc *d, scan_type t, const void *labels, int64_t lo,
                    int64_t span)
{
  int done = -1;
  /* double labels (Octave's default class) are read as they are; others are numbered
     from 0 first, in one pass of their type */
  if (t == SCAN_DOUBLE)
    {
      if (d->type == SCAN_DOUBLE)
        LABEL_SCANS (double, DOUBLE_LABEL)
      else
        LABEL_SCANS (float, DOUBLE_LABEL)
      return done;
    }
  uint32_t *ids = malloc ((size_t) (d->len > 0 ? d->len : 1) * sizeof *ids);
  if (! ids)
    return -1;
  group_label_ids (t, labels, d->len, lo, ids);
  if (d->type == SCAN_DOUBLE)
    LABEL_SCANS (double, NUMBERED_LABEL)
  else
    LABEL_SCANS (float, NUMBERED_LABEL)
  free (ids);
  return done;
}
#undef NUMBERED_LABEL
#undef DOUBLE_LABEL
#undef LABEL_SCANS
#undef LABEL_SCAN

/* single elements of a fixed size moved as values, not by a call of memcpy each */
#define PERMUTE_ELEMENTS(T)                                                   \
  for (int64_t o = 0; o < outer; o++)                                         \
    {                                                                         \
      const T *xs = (const T *) x + len * o;                                  \
      T *ys = (T *) y + len * o;                                              \
      if (scatter)                                                            \
        for (int64_t k = 0; k < len; k++)                                     \
          ys[order[k]] = xs[k];                                               \
      else                                                                    \
        for (int64_t k = 0; k < len; k++)                                     \
          ys[k] = xs[order[k]];                                               \
    }

void cpu_permute (size_t elem_bytes, const void *x, void *y, int64_t inner, int64_t len,
                  int64_t outer, const int64_t *order, int scatter, int index_map)
{
  if (inner == 1 && ! index_map)
    switch (elem_bytes)
      {
      case 1: PERMUTE_ELEMENTS (uint8_t); return;
      case 2: PERMUTE_ELEMENTS (uint16_t); return;
      case 4: PERMUTE_ELEMENTS (uint32_t); return;
      case 8: PERMUTE_ELEMENTS (uint64_t); return;
      default: break;
      }
  const char *src = x;
  char *dst = y;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < len; k++)
      {
        const int64_t here = inner * (k + len * o), moved = inner * (order[k] + len * o);
        const int64_t from = scatter ? here : moved, to = scatter ? moved : here;
        if (! index_map)
          {
            memcpy (dst + (size_t) to * elem_bytes, src + (size_t) from * elem_bytes,
                    (size_t) inner * elem_bytes);
            continue;
          }
        for (int64_t i = 0; i < inner; i++)
          {
            const double p = ((const double *) x)[from + i];
            ((double *) y)[to + i] = p > 0 ? (double) (order[(int64_t) p - 1] + 1) : p;
          }
      }
}

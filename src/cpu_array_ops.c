/* CPU stream compaction, class conversion and head flags. */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_array_ops.h"
#include "cpu_tuning.h"

#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num (void) { return 0; }
static int omp_get_num_threads (void) { return 1; }
#endif

int64_t cpu_count_nonzero (const uint8_t *mask, int64_t n)
{
  int64_t c = 0;
#pragma omp parallel for reduction (+:c) schedule (static) if (n >= CPU_PARALLEL_MIN)
  for (int64_t i = 0; i < n; i++)
    c += mask[i] != 0;
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

/* each thread counts its piece, the counts are scanned (exclusive), each thread copies */
void cpu_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y)
{
  if (n < CPU_PARALLEL_MIN)
    {
      compact_range (elem_bytes, x, mask, 0, n, y, 0);
      return;
    }
  int64_t *count = NULL;
#pragma omp parallel
  {
    const int t = omp_get_thread_num (), nt = omp_get_num_threads ();
#pragma omp single
    count = calloc ((size_t) nt + 1, sizeof *count);
    const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    int64_t c = 0;
    for (int64_t i = lo; i < hi; i++)
      c += mask[i] != 0;
    if (count)
      count[t + 1] = c;
#pragma omp barrier
#pragma omp single
    if (count)
      for (int i = 0; i < nt; i++)
        count[i + 1] += count[i];
    if (count)
      compact_range (elem_bytes, x, mask, lo, hi, y, count[t]);
  }
  if (! count)   /* no memory for nt + 1 counters: one thread */
    compact_range (elem_bytes, x, mask, 0, n, y, 0);
  free (count);
}

typedef double _Complex cdouble;
typedef float _Complex csingle;

#define FOR_REAL_TYPES(X)                                                              \
  X (SCAN_DOUBLE, double) X (SCAN_SINGLE, float) X (SCAN_INT8, int8_t)                  \
  X (SCAN_UINT8, uint8_t) X (SCAN_INT16, int16_t) X (SCAN_UINT16, uint16_t)             \
  X (SCAN_INT32, int32_t) X (SCAN_UINT32, uint32_t) X (SCAN_INT64, int64_t)             \
  X (SCAN_UINT64, uint64_t) X (SCAN_LOGICAL, uint8_t)

int cpu_convert (scan_type from, scan_type to, const void *x, void *y, int64_t n)
{
  if (to == SCAN_CDOUBLE && from == SCAN_CSINGLE)
    {
#pragma omp parallel for schedule (static) if (n >= CPU_PARALLEL_MIN)
      for (int64_t i = 0; i < n; i++)
        ((cdouble *) y)[i] = ((const csingle *) x)[i];
      return 0;
    }
  if (to != SCAN_DOUBLE)
    return -1;
  switch (from)
    {
#define CONVERT_CASE(E, T)                                                            \
    case E:                                                                           \
      _Pragma ("omp parallel for schedule (static) if (n >= CPU_PARALLEL_MIN)")       \
      for (int64_t i = 0; i < n; i++)                                                 \
        ((double *) y)[i] = (double) ((const T *) x)[i];                              \
      return 0;
      FOR_REAL_TYPES (CONVERT_CASE)
#undef CONVERT_CASE
    default:
      return -1;
    }
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

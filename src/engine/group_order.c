/* "groups": the labels' stable order by counting (group_order.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/group_order.h"

/* label k of type t as a whole number; 0 where it is not one (a fraction, NaN, Inf, or
   beyond +-2^62, where the range's arithmetic would overflow) */
static inline int whole_label (scan_type t, const void *labels, int64_t k, int64_t *v)
{
  const double limit = 4611686018427387904.0;   /* 2^62 */
  double f;
  switch (t)
    {
    case SCAN_DOUBLE: f = ((const double *) labels)[k]; break;
    case SCAN_SINGLE: f = ((const float *) labels)[k]; break;
    case SCAN_INT8: *v = ((const int8_t *) labels)[k]; return 1;
    case SCAN_UINT8: case SCAN_LOGICAL: *v = ((const uint8_t *) labels)[k]; return 1;
    case SCAN_INT16: *v = ((const int16_t *) labels)[k]; return 1;
    case SCAN_UINT16: *v = ((const uint16_t *) labels)[k]; return 1;
    case SCAN_INT32: *v = ((const int32_t *) labels)[k]; return 1;
    case SCAN_UINT32: *v = ((const uint32_t *) labels)[k]; return 1;
    case SCAN_INT64: *v = ((const int64_t *) labels)[k]; return *v > -(INT64_MAX >> 1) && *v < (INT64_MAX >> 1);
    case SCAN_UINT64: *v = (int64_t) ((const uint64_t *) labels)[k]; return *v >= 0 && *v < (INT64_MAX >> 1);
    default: return 0;   /* complex: ordered by modulus and argument */
    }
  if (! (f > -limit && f < limit) || f != trunc (f))
    return 0;
  *v = (int64_t) f;   /* (-0 is 0: the same group, as Octave's comparisons say) */
  return 1;
}

int group_order_by_counting (scan_type t, const void *labels, int64_t n, int64_t *order,
                             uint8_t *heads)
{
  if (n <= 0)
    return 1;
  int64_t lo = INT64_MAX, hi = INT64_MIN, v;
  for (int64_t k = 0; k < n; k++)
    {
      if (! whole_label (t, labels, k, &v))
        return 0;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
  const int64_t span = hi - lo + 1;
  if (span > n + 1)
    return 0;
  /* next[i]: where the next position of label lo + i goes */
  int64_t *next = calloc ((size_t) span, sizeof *next);
  if (! next)
    return -1;
  for (int64_t k = 0; k < n; k++)
    {
      whole_label (t, labels, k, &v);
      next[v - lo]++;
    }
  memset (heads, 0, (size_t) n);
  int64_t at = 0;
  for (int64_t i = 0; i < span; i++)
    {
      const int64_t count = next[i];
      if (count)
        heads[at] = 1;
      next[i] = at;
      at += count;
    }
  for (int64_t k = 0; k < n; k++)
    {
      whole_label (t, labels, k, &v);
      order[next[v - lo]++] = k;
    }
  free (next);
  return 1;
}

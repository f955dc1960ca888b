/* A label of "groups" as a whole number: what the labels' order (engine/group_order.c)
   and the CPU engine's label scan (cpu/cpu_array_ops.c) both read. */
#ifndef GPUSCAN_GROUP_LABELS_H
#define GPUSCAN_GROUP_LABELS_H

#include <math.h>
#include <stdint.h>

#include "base/scan_desc.h"

/* what makes a label a whole number: not a fraction, NaN or Inf, and within +-2^62,
   where a range's arithmetic would overflow (complex labels are ordered by modulus and
   argument) */
static inline int group_whole_double (double f)
{
  const double limit = 4611686018427387904.0;   /* 2^62 */
  return f > -limit && f < limit && f == trunc (f);
}
static inline int group_whole_int64 (int64_t v)
{
  return v > -(INT64_MAX >> 1) && v < (INT64_MAX >> 1);
}
static inline int group_whole_uint64 (uint64_t v)
{
  return v < (uint64_t) (INT64_MAX >> 1);
}

/* label k of type t as a whole number in *v; 0 where it is not one */
static inline int group_label_value (scan_type t, const void *labels, int64_t k, int64_t *v)
{
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
    case SCAN_INT64: *v = ((const int64_t *) labels)[k]; return group_whole_int64 (*v);
    case SCAN_UINT64:
      *v = (int64_t) ((const uint64_t *) labels)[k];
      return group_whole_uint64 (((const uint64_t *) labels)[k]);
    default: return 0;
    }
  if (! group_whole_double (f))
    return 0;
  *v = (int64_t) f;   /* (-0 is 0: the same group, as Octave's comparisons say) */
  return 1;
}

/* 1 where the n labels are all whole numbers, with the smallest and largest; the loop
   a type (a switch an element took as long as the scan) */
#define GROUP_LABEL_RANGE(T, WHOLE)                                           \
  {                                                                           \
    const T *l = (const T *) labels;                                          \
    for (int64_t k = 0; k < n; k++)                                           \
      {                                                                       \
        const T f = l[k];                                                     \
        if (! (WHOLE))                                                        \
          return 0;                                                           \
        const int64_t v = (int64_t) f;                                        \
        *lo = v < *lo ? v : *lo;                                              \
        *hi = v > *hi ? v : *hi;                                              \
      }                                                                       \
    return 1;                                                                 \
  }
static inline int group_label_range (scan_type t, const void *labels, int64_t n, int64_t *lo,
                                     int64_t *hi)
{
  *lo = INT64_MAX;
  *hi = INT64_MIN;
  switch (t)
    {
    case SCAN_DOUBLE: GROUP_LABEL_RANGE (double, group_whole_double (f))
    case SCAN_SINGLE: GROUP_LABEL_RANGE (float, group_whole_double (f))
    case SCAN_INT8: GROUP_LABEL_RANGE (int8_t, 1)
    case SCAN_UINT8: case SCAN_LOGICAL: GROUP_LABEL_RANGE (uint8_t, 1)
    case SCAN_INT16: GROUP_LABEL_RANGE (int16_t, 1)
    case SCAN_UINT16: GROUP_LABEL_RANGE (uint16_t, 1)
    case SCAN_INT32: GROUP_LABEL_RANGE (int32_t, 1)
    case SCAN_UINT32: GROUP_LABEL_RANGE (uint32_t, 1)
    case SCAN_INT64: GROUP_LABEL_RANGE (int64_t, group_whole_int64 (f))
    case SCAN_UINT64: GROUP_LABEL_RANGE (uint64_t, group_whole_uint64 (f))
    default: return 0;
    }
}
#undef GROUP_LABEL_RANGE

/* ids[k] = label k - lo, for labels group_label_range found whole */
#define GROUP_LABEL_IDS(T)                                                    \
  {                                                                           \
    const T *l = (const T *) labels;                                          \
    for (int64_t k = 0; k < n; k++)                                           \
      ids[k] = (uint32_t) ((int64_t) l[k] - lo);                              \
    return;                                                                   \
  }
static inline void group_label_ids (scan_type t, const void *labels, int64_t n, int64_t lo,
                                    uint32_t *ids)
{
  switch (t)
    {
    case SCAN_DOUBLE: GROUP_LABEL_IDS (double)
    case SCAN_SINGLE: GROUP_LABEL_IDS (float)
    case SCAN_INT8: GROUP_LABEL_IDS (int8_t)
    case SCAN_UINT8: case SCAN_LOGICAL: GROUP_LABEL_IDS (uint8_t)
    case SCAN_INT16: GROUP_LABEL_IDS (int16_t)
    case SCAN_UINT16: GROUP_LABEL_IDS (uint16_t)
    case SCAN_INT32: GROUP_LABEL_IDS (int32_t)
    case SCAN_UINT32: GROUP_LABEL_IDS (uint32_t)
    case SCAN_INT64: GROUP_LABEL_IDS (int64_t)
    case SCAN_UINT64: GROUP_LABEL_IDS (uint64_t)
    default: return;
    }
}
#undef GROUP_LABEL_IDS

#endif

/* The CPU engine's scans that walk each line in order (cpu_recurrence.c, cpu_satprod.c):
   where step k of line (i, o) is, and whether it starts a segment. */
#ifndef GPUSCAN_CPU_LINE_STEPS_H
#define GPUSCAN_CPU_LINE_STEPS_H

#include "base/scan_desc.h"

/* the element's position k steps along line (i, o), in the scan's direction */
static inline int64_t at_step (const scan_desc *d, int64_t i, int64_t o, int64_t k)
{
  return i + d->inner * ((d->reverse ? d->len - 1 - k : k) + d->len * o);
}

/* Whether step k of line (i, o) starts a segment.  The heads of a reverse scan: a
   segment's last element starts it, so step k (from the end) starts one where the
   element after it (k - 1 from the end) is a head: heads[len - k] for k >= 1 (shared
   flags); full flags are handled the same way through at_step of k - 1. */
static inline int step_starts (const scan_desc *d, int64_t i, int64_t o, int64_t k)
{
  if (k == 0 || ! d->heads)
    return k == 0;
  if (! d->reverse)
    return d->heads_full ? d->heads[at_step (d, i, o, k)] : d->heads[k];
  /* reverse: a head at the element after this one (in memory) ends a segment there */
  return d->heads_full ? d->heads[at_step (d, i, o, k - 1)] : d->heads[d->len - k];
}

#endif

/* Device arrays in host memory, with the CPU engine (array_backend.h): the stand-in for a
   GPU in tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/group_labels.h"
#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_engine.h"
#include "cpu/cpu_filter.h"
#include "engine/array_backend.h"

static void use_faults (const char *names)
{
  (void) names;
}

static unsigned generation (void)
{
  return 0;
}

static engine_status alloc (size_t bytes, void **p, char *msg, size_t msg_size)
{
  if ((*p = malloc (bytes)))
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for a %.2f GiB stand-in device array",
            bytes / 1073741824.0);
  return ENGINE_NO_MEMORY;
}

static engine_status move (void *to, const void *from, size_t bytes, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  memcpy (to, from, bytes);
  return ENGINE_OK;
}

static engine_status wait (char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  return ENGINE_OK;
}

static engine_status scan (const scan_desc *d, const scan_plan *p, char *msg, size_t msg_size)
{
  if (cpu_scan (d, p->cpu_threads) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no CPU scan for %s %s", scan_op_name (d->op),
            scan_type_name (d->type));
  return ENGINE_UNSUPPORTED;
}

static engine_status convert (scan_type from, scan_type to, const void *x, void *y, int64_t n,
                              char *msg, size_t msg_size)
{
  if (cpu_convert (from, to, x, y, n) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no conversion from %s to %s", scan_type_name (from),
            scan_type_name (to));
  return ENGINE_UNSUPPORTED;
}

static engine_status elementwise (const elementwise_desc *d, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  cpu_elementwise (d);
  return ENGINE_OK;
}

static engine_status flags (scan_type t, const void *x, uint8_t *flags, int64_t n,
                            int *has_nan, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  *has_nan = cpu_nonzero_flags (t, x, flags, n) == 1;
  return ENGINE_OK;
}

static engine_status group_order (const double *keys, int64_t n, int64_t *order,
                                   uint8_t *heads, char *msg, size_t msg_size)
{
  if (cpu_group_order (keys, n, order, heads) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for the groups' order");
  return ENGINE_NO_MEMORY;
}

static engine_status label_range (const double *keys, int64_t n, int64_t *lo, int64_t *hi,
                                   int *whole, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  *whole = group_label_range (SCAN_DOUBLE, keys, n, lo, hi);
  return ENGINE_OK;
}

static void label_scan_describe (const scan_desc *d, long long span, char *buf, size_t size)
{
  (void) d;
  snprintf (buf, size, "the CPU engine's label scan of %lld labels, in order", span);
}

static engine_status label_scan (const scan_desc *d, const double *keys, int64_t lo,
                                 int64_t span, char *msg, size_t msg_size)
{
  if (cpu_label_scan (d, SCAN_DOUBLE, keys, lo, span) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for the labels' states");
  return ENGINE_NO_MEMORY;
}

static engine_status permute (size_t elem_bytes, const void *x, void *y, int64_t inner,
                              int64_t len, int64_t outer, const int64_t *order, int scatter,
                              int index_map, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  cpu_permute (elem_bytes, x, y, inner, len, outer, order, scatter, index_map);
  return ENGINE_OK;
}

static engine_status compact_count (const uint8_t *mask, int64_t n, int64_t *kept, char *msg,
                                    size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  *kept = cpu_count_nonzero (mask, n);
  return ENGINE_OK;
}

static engine_status compact_scatter (size_t elem_bytes, const void *x, const uint8_t *mask,
                                      int64_t n, void *y, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  cpu_compact (elem_bytes, x, mask, n, y);
  return ENGINE_OK;
}

/* (complex data as the GPU's: through the engine layer's round trip, which the stand-in
   so tests) */
static int filter_supports (const filter_desc *d)
{
  return d->type != SCAN_CDOUBLE && d->type != SCAN_CSINGLE;
}

static engine_status filter (const filter_desc *d, int cpu_threads, char *msg, size_t msg_size)
{
  if (! filter_supports (d))
    {
      snprintf (msg, msg_size, "no stand-in filter of %s data", scan_type_name (d->type));
      return ENGINE_UNSUPPORTED;
    }
  if (cpu_filter (d, cpu_threads) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for the filter");
  return ENGINE_NO_MEMORY;
}

const array_backend host_array_backend = {
  "host", use_faults, generation, alloc, free, move, move, move, wait, scan, convert, elementwise, flags,
  group_order, label_range, cpu_label_scan_supports, label_scan_describe, label_scan, permute,
  compact_count, compact_scatter, filter, filter_supports
};

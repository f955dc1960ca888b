/* "groups" (group_scan.h): gather, a segmented scan, scatter back. */
#include <stdio.h>
#include <stdlib.h>

#include "cpu/cpu_array_ops.h"
#include "engine/engine.h"
#include "engine/group_scan.h"

engine_status group_scan (const array_backend *memory,
                          engine_status (*scan) (const scan_desc *, scan_algorithm, char *, size_t),
                          const scan_desc *d, const int64_t *order, const uint8_t *heads,
                          scan_algorithm a, char *msg, size_t msg_size)
{
  const int64_t n = scan_numel (d);
  if (n == 0)
    return ENGINE_OK;
  const size_t es = scan_type_size (d->type), bytes = (size_t) n * es;
  void *xs = NULL, *ys = NULL, *ixs = NULL;
  engine_status s = memory->alloc (bytes, &xs, msg, msg_size);
  if (s == ENGINE_OK)
    s = memory->alloc (bytes, &ys, msg, msg_size);
  if (s == ENGINE_OK && d->index)
    s = memory->alloc ((size_t) n * sizeof (double), &ixs, msg, msg_size);
  if (s == ENGINE_OK)
    s = memory->permute (es, d->x, xs, d->inner, d->len, d->outer, order, 0, 0, msg, msg_size);
  if (s == ENGINE_OK)
    {
      scan_desc sorted = *d;
      sorted.x = xs;
      sorted.y = ys;
      sorted.index = ixs;
      sorted.heads = heads;
      sorted.heads_full = 0;
      s = scan (&sorted, a, msg, msg_size);
    }
  if (s == ENGINE_OK)
    s = memory->permute (es, ys, d->y, d->inner, d->len, d->outer, order, 1, 0, msg, msg_size);
  if (s == ENGINE_OK && d->index)
    s = memory->permute (sizeof (double), ixs, d->index, d->inner, d->len, d->outer, order, 1, 1,
                         msg, msg_size);
  if (xs)
    memory->free (xs);
  if (ys)
    memory->free (ys);
  if (ixs)
    memory->free (ixs);
  return s;
}

/* host memory for the host arrays' composition */
static engine_status host_alloc (size_t bytes, void **p, char *msg, size_t msg_size)
{
  if ((*p = malloc (bytes)))
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for the groups' sorted copy (%.2f GiB)",
            bytes / 1073741824.0);
  return ENGINE_NO_MEMORY;
}

static engine_status host_permute (size_t elem_bytes, const void *x, void *y, int64_t inner,
                                   int64_t len, int64_t outer, const int64_t *order, int scatter,
                                   int index_map, char *msg, size_t msg_size)
{
  (void) msg;
  (void) msg_size;
  cpu_permute (elem_bytes, x, y, inner, len, outer, order, scatter, index_map);
  return ENGINE_OK;
}

static const array_backend host_memory = {
  .name = "host", .alloc = host_alloc, .free = free, .permute = host_permute
};

engine_status engine_group_scan (const scan_desc *d, const int64_t *order, const uint8_t *heads,
                                 scan_algorithm a, char *msg, size_t msg_size)
{
  return group_scan (&host_memory, engine_scan, d, order, heads, a, msg, msg_size);
}

/* "groups" (group_scan.h): gather, a segmented scan, scatter back. */
#include <stdio.h>
#include <stdlib.h>

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

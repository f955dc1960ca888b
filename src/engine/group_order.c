/* "groups": the labels' stable order by counting (group_order.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/group_labels.h"
#include "engine/group_order.h"

int group_order_by_counting (scan_type t, const void *labels, int64_t n, int64_t *order,
                             uint8_t *heads)
{
  if (n <= 0)
    return 1;
  int64_t lo, hi, v = 0;
  if (! group_label_range (t, labels, n, &lo, &hi))
    return 0;
  const int64_t span = hi - lo + 1;
  if (span > n + 1)
    return 0;
  /* next[i]: where the next position of label lo + i goes */
  int64_t *next = calloc ((size_t) span, sizeof *next);
  if (! next)
    return -1;
  for (int64_t k = 0; k < n; k++)
    {
      group_label_value (t, labels, k, &v);
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
      group_label_value (t, labels, k, &v);
      order[next[v - lo]++] = k;
    }
  free (next);
  return 1;
}

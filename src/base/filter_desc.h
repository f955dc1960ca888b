/* One description of a filter call (gpuscan_filter, Octave's filter), shared by the
   engines and the gateway: the transposed direct form II that filter runs,

     y(k) = z_1 + b_1 x(k)
     z_j  = z_(j+1) - a_(j+1) y(k) + b_(j+1) x(k),   j = 1 .. K-1
     z_K  = b_(K+1) x(k) - a_(K+1) y(k)

   (z the state before the step on the right, after it on the left), along one dimension
   of a column-major array, each line (channel) with its own state. */
#ifndef GPUSCAN_FILTER_DESC_H
#define GPUSCAN_FILTER_DESC_H

#include <stdint.h>

#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct filter_desc {
  scan_type type;        /* SCAN_DOUBLE, SCAN_SINGLE or their complex: every array */
  int order;             /* K = max (numel (a), numel (b)) - 1 */
  int fir;               /* a is one element: no a terms at all (filter leaves them out,
                            where 0 * Inf would make a NaN) */
  int fused;             /* each multiply and add of a step fused (one rounding, fma), as
                            Octave 11's filter takes them; else each product rounded */
  const void *b, *a;     /* K + 1 each, divided by a's first, b padded with zeros, a too
                            (a unused where fir) */
  int64_t inner, len, outer;   /* element (i, k, o) at i + inner * (k + len * o) */
  const void *x;
  void *y;
  const void *zi;        /* the state before the first step: K values a channel, channel
                            i + inner * o after channel i - 1 + inner * o (filter's SI) */
  void *zf;              /* the state after the last step, laid out as zi */
} filter_desc;

#ifdef __cplusplus
}
#endif
#endif

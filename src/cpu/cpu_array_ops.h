/* Element-wise and compaction work of the CPU engine, beside the scans: stream
   compaction of host arrays, and the class conversion, head flags and arithmetic that
   device arrays need (the CPU versions serve the host stand-in for device arrays). */
#ifndef GPUSCAN_CPU_ARRAY_OPS_H
#define GPUSCAN_CPU_ARRAY_OPS_H

#include "base/elementwise.h"
#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the number of nonzero bytes of mask[0..n) */
int64_t cpu_count_nonzero (const uint8_t *mask, int64_t n);
/* y = x(mask): the elements (elem_bytes each) where mask is nonzero, in order, through an
   exclusive scan of the per-thread counts; y holds cpu_count_nonzero (mask, n) elements */
void cpu_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y);
/* y = x converted: to SCAN_DOUBLE from a real type, or SCAN_CSINGLE -> SCAN_CDOUBLE;
   -1 for other pairs */
int cpu_convert (scan_type from, scan_type to, const void *x, void *y, int64_t n);
/* flags[i] = x[i] != 0; returns 1 when x holds a NaN, -1 for an unknown type */
int cpu_nonzero_flags (scan_type t, const void *x, uint8_t *flags, int64_t n);
/* y = a OP b element by element, as base/elementwise.h says */
void cpu_elementwise (const elementwise_desc *d);
/* "groups": the stable order of n labels, order[k] the 0-based position of the k-th in
   sorted order (-0 is 0, NaN last), heads[k] = 1 where sorted label k starts a group (each
   NaN one of its own); -1 without the memory to sort */
int cpu_group_order (const double *keys, int64_t n, int64_t *order, uint8_t *heads);
/* "groups" by label (the host arrays' label scan, and the host stand-in's label tiles):
   sums, products and max and min without the index output of double and single along
   vectors and columns (inner == 1), in one pass, each (column, label) a running state
   in order; the labels (n = d->len, type t) are whole numbers lo .. lo + span - 1
   (base/group_labels.h); -1 without the memory */
int cpu_label_scan_supports (const scan_desc *d, long long span);
int cpu_label_scan (const scan_desc *d, scan_type t, const void *labels, int64_t lo,
                    int64_t span);
/* y(i, k, o) = x(i, order[k], o), or with scatter y(i, order[k], o) = x(i, k, o);
   index_map (doubles): a position p > 0 becomes order[p - 1] + 1 */
void cpu_permute (size_t elem_bytes, const void *x, void *y, int64_t inner, int64_t len,
                  int64_t outer, const int64_t *order, int scatter, int index_map);

#ifdef __cplusplus
}
#endif
#endif

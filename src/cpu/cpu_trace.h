/* The classic block scans step by step (Kogge-Stone, Brent-Kung, Blelloch's exclusive
   scan), on the host: each
   thread of a step in turn, through the kernels' own step code
   (base/block_scan_steps.h), recording the array after every step, the adds and the
   shared-memory bank conflicts of the addresses the steps use. */
#ifndef GPUSCAN_CPU_TRACE_H
#define GPUSCAN_CPU_TRACE_H

#include "base/scan_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Steps of the trace of n elements (1 <= n <= TRACE_MAX_ELEMENTS): the block is the next
   power of two threads, the elements past n hold 0. */
int cpu_trace_steps (trace_algorithm a, int n);

/* rows: (steps + 1) x n, column-major by row (row r at rows[r * n]), the loaded array
   first; steps: one each; arrows: per add with both ends below n, from[k] -> to[k]
   (0-based elements) in step step_of[k] (0-based), at most steps * n of them, their
   number in *arrows.  -1 for an n out of range. */
int cpu_trace (trace_algorithm a, int padded, const double *x, int n, double *rows,
               trace_step *steps, int *from, int *to, int *step_of, int *arrows);

#ifdef __cplusplus
}
#endif
#endif

/* The CPU engine's saturating integer product (scan_desc: op SCAN_SATPROD), Octave 11's
   cumprod of integers. */
#ifndef GPUSCAN_CPU_SATPROD_H
#define GPUSCAN_CPU_SATPROD_H

#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -1 for a type it does not take (the eight integer types only) */
int cpu_satprod (const scan_desc *d, int nthreads);

#ifdef __cplusplus
}
#endif
#endif

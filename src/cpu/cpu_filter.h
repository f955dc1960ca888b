/* The CPU engine's filter (gpuscan_filter: Octave's filter, base/filter_desc.h). */
#ifndef GPUSCAN_CPU_FILTER_H
#define GPUSCAN_CPU_FILTER_H

#include "base/filter_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0, or -1 for a type it does not take (double, single and their complex) or without
   the memory for its buffers */
int cpu_filter (const filter_desc *d, int nthreads);

#ifdef __cplusplus
}
#endif
#endif

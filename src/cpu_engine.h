/* The CPU engine: the reference every other engine is checked against, and the
   fallback.  Multithreaded with OpenMP where configure found it. */
#ifndef GPUSCAN_CPU_ENGINE_H
#define GPUSCAN_CPU_ENGINE_H

#include "scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0 on success, -1 when the (type, op) pair has no CPU scan. */
int cpu_scan (const scan_desc *d);
/* threads the engine uses for a large scan */
int cpu_threads (void);

#ifdef __cplusplus
}
#endif
#endif

/* The CPU engine: the reference every other engine is checked against, and the
   fallback.  Multithreaded on its own workers (cpu_pool.h), as many as OpenMP's
   settings allow (OMP_NUM_THREADS, OMP_THREAD_LIMIT). */
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

/* The CPU engine: the reference every other engine is checked against, and the
   fallback.  Multithreaded on the pool's workers (base/work_pool.h), as many as OpenMP's
   settings allow (OMP_NUM_THREADS, OMP_THREAD_LIMIT). */
#ifndef GPUSCAN_CPU_ENGINE_H
#define GPUSCAN_CPU_ENGINE_H

#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 0 on success, -1 when the (type, op) pair has no CPU scan; on `threads` threads
   (cpu_threads_for), which change no bit of the result */
int cpu_scan (const scan_desc *d, int threads);
/* 1 when cpu_scan reads d's input as it is (d->input), else the input needs converting
   to d's type first */
int cpu_reads_input (const scan_desc *d);
/* the same scan through the chunk driver (base/chunked_scan.h) on host buffers of about
   chunk elements: it tests the driver that the CUDA engine runs, where there is no GPU.
   0 on success, -1 without memory or a CPU scan. */
int cpu_scan_in_chunks (const scan_desc *d, int64_t chunk, int threads);
/* threads the engine uses for a large scan */
int cpu_threads (void);
/* threads for work on n elements: 1 below parallel_min (0: the engine's rule), else as
   many as the pool gives now (base/work_pool.h) */
int cpu_threads_for (int64_t n, int64_t parallel_min);
/* 1 when the engine would scan d on one thread, where it could take several, because
   it found the machine busy (base/work_pool.h) */
int cpu_scan_alone (const scan_desc *d, int64_t parallel_min);

#ifdef __cplusplus
}
#endif
#endif

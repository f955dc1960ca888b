/* Worker threads for every engine's host work (the CPU engine's scans, the CUDA engine's
   staging copies): a job is run by the caller and by whichever workers join it in time.
   Workers sleep (no spinning) until a job comes; the caller runs the job itself, and when
   it returns, closes the job and waits only for the workers that joined, never for one
   that the machine has not scheduled yet.  A job must therefore be work that its
   participants claim (no part is any one thread's), so that the caller alone can finish
   it.  (OpenMP's teams wait at their barriers for every thread: on 2 cores with one other
   busy process that made scans 5-100x slower than cumsum, and the CUDA engine's staging
   copies, on 16 cores with one busy, 2^18 doubles 13 ms instead of 0.3.) */
#ifndef GPUSCAN_WORK_POOL_H
#define GPUSCAN_WORK_POOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A job whose caller, its own share done, waited on the workers for more than
   POOL_LATE_FACTOR times that share (a worker lost its core mid-job) makes the next
   POOL_ALONE_JOBS jobs run on the caller alone, or those that come within
   POOL_ALONE_SECONDS (where "auto" sends a size to the GPU, the jobs alone would
   otherwise wait for the CPU engine's next calls); then the threads are tried again.
   Shares shorter than POOL_LATE_MIN_SECONDS tell nothing (a wake-up takes tens of
   microseconds). */
#define POOL_LATE_FACTOR 1.0
#define POOL_LATE_MIN_SECONDS 1e-4
#define POOL_ALONE_JOBS 15
#define POOL_ALONE_SECONDS 1.0

typedef void (*work_job) (void *ctx);

/* the threads a job may take: as many as OpenMP's settings allow (OMP_NUM_THREADS,
   OMP_THREAD_LIMIT), OpenMP's own teams unused */
int work_pool_max_threads (void);
/* job (ctx) on the caller and on up to threads - 1 workers that come while it runs */
void work_pool_run (work_job job, void *ctx, int threads);
/* the threads a job that could take `threads` takes now: 1 for a while after a job whose
   caller waited on a worker that had lost its core (a busy machine), else `threads`.
   Only the time changes: the engine's results do not depend on the threads. */
int work_pool_threads (int threads);
/* 1 while work_pool_threads gives 1 (without counting a job) */
int work_pool_alone (void);

/* piece (ctx, i) for i = 0 .. pieces - 1, each claimed by one of the caller and the
   workers (work_pool_threads (work_pool_max_threads ()) of them) */
typedef void (*work_piece) (void *ctx, int64_t i);
void work_pool_for (int64_t pieces, work_piece piece, void *ctx);
/* the same on the caller and up to threads - 1 workers: the caller alone, the pieces in
   order, for threads <= 1 (a small job, or a busy machine) */
void work_pool_for_upto (int64_t pieces, work_piece piece, void *ctx, int threads);

/* stop and join the workers (before the code they run is unloaded) */
void work_pool_release (void);

#ifdef __cplusplus
}
#endif
#endif

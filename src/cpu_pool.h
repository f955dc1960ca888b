/* The CPU engine's worker threads: a job is run by the caller and by whichever workers
   join it in time.  Workers sleep (no spinning) until a job comes; the caller runs the
   job itself, and when it returns, closes the job and waits only for the workers that
   joined, never for one that the machine has not scheduled yet.  A job must therefore be
   work that its participants claim (no part is any one thread's), so that the caller
   alone can finish it. */
#ifndef GPUSCAN_CPU_POOL_H
#define GPUSCAN_CPU_POOL_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*cpu_job) (void *ctx);

/* job (ctx) on the caller and on up to threads - 1 workers that come while it runs */
void cpu_pool_run (cpu_job job, void *ctx, int threads);
/* the threads a job that could take `threads` takes now: 1 for a while after a job whose
   caller waited on a worker that had lost its core (a busy machine), else `threads`.
   Only the time changes: the engine's results do not depend on the threads. */
int cpu_pool_threads (int threads);
/* stop and join the workers (before the code they run is unloaded) */
void cpu_pool_release (void);

#ifdef __cplusplus
}
#endif
#endif

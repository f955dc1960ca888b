/* Worker threads (see work_pool.h). */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "base/work_pool.h"

#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_max_threads (void) { return 1; }
static int omp_get_thread_limit (void) { return 1; }
#endif

static struct pool
{
  pthread_mutex_t m;
  pthread_cond_t wake;       /* a job came, or quit */
  pthread_cond_t done;       /* the last worker in the job left it */
  pthread_t *threads;
  int started;
  unsigned long generation;  /* bumped for every job */
  work_job job;
  void *ctx;
  int open;                  /* workers may still join */
  int want, joined;          /* workers the job takes, and that joined it */
  int running;               /* workers inside the job */
  int quit;
  int alone;                 /* jobs still to run on the caller alone ... */
  double alone_until;        /* ... before this time */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER };

static void *worker (void *arg)
{
  unsigned long seen = (unsigned long) (size_t) arg;
  pthread_mutex_lock (&pool.m);
  for (;;)
    {
      while (! pool.quit && pool.generation == seen)
        pthread_cond_wait (&pool.wake, &pool.m);
      if (pool.quit)
        break;
      seen = pool.generation;
      if (! pool.open || pool.joined >= pool.want)
        continue;   /* too late, or enough: sleep until the next job */
      pool.joined++;
      pool.running++;
      const work_job job = pool.job;
      void *const ctx = pool.ctx;
      pthread_mutex_unlock (&pool.m);
      job (ctx);
      pthread_mutex_lock (&pool.m);
      if (--pool.running == 0 && ! pool.open)
        pthread_cond_signal (&pool.done);
    }
  pthread_mutex_unlock (&pool.m);
  return NULL;
}

/* (with the lock held) at least n workers, as many as can be started */
static void start_workers (int n)
{
  if (n <= pool.started)
    return;
  pthread_t *t = realloc (pool.threads, (size_t) n * sizeof *t);
  if (! t)
    return;
  pool.threads = t;
  while (pool.started < n
         && pthread_create (&pool.threads[pool.started], NULL, worker,
                            (void *) (size_t) pool.generation) == 0)
    pool.started++;
}

static double seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* (with the lock held) */
static int backing_off (void)
{
  if (pool.alone > 0 && seconds () >= pool.alone_until)
    pool.alone = 0;
  return pool.alone > 0;
}

int work_pool_threads (int threads)
{
  pthread_mutex_lock (&pool.m);
  if (threads > 1 && backing_off ())
    {
      pool.alone--;
      threads = 1;
    }
  pthread_mutex_unlock (&pool.m);
  return threads;
}

int work_pool_alone (void)
{
  pthread_mutex_lock (&pool.m);
  const int alone = backing_off ();
  pthread_mutex_unlock (&pool.m);
  return alone;
}

void work_pool_run (work_job job, void *ctx, int threads)
{
  if (threads <= 1)
    {
      job (ctx);
      return;
    }
  pthread_mutex_lock (&pool.m);
  start_workers (threads - 1);
  pool.job = job;
  pool.ctx = ctx;
  pool.want = threads - 1;
  pool.joined = 0;
  pool.open = 1;
  pool.generation++;
  pthread_cond_broadcast (&pool.wake);
  pthread_mutex_unlock (&pool.m);
  const double t0 = seconds ();
  job (ctx);
  const double t1 = seconds ();
  pthread_mutex_lock (&pool.m);
  pool.open = 0;
  while (pool.running > 0)
    pthread_cond_wait (&pool.done, &pool.m);
  /* a worker that joined and then lost its core held the caller up for longer than
     the caller's own share: the machine is busy, and the next jobs run alone */
  const double t2 = seconds ();
  if (t1 - t0 > POOL_LATE_MIN_SECONDS && t2 - t1 > POOL_LATE_FACTOR * (t1 - t0))
    {
      pool.alone = POOL_ALONE_JOBS;
      pool.alone_until = t2 + POOL_ALONE_SECONDS;
    }
  pthread_mutex_unlock (&pool.m);
}

void work_pool_release (void)
{
  pthread_mutex_lock (&pool.m);
  pool.quit = 1;
  pthread_cond_broadcast (&pool.wake);
  const int n = pool.started;
  pthread_mutex_unlock (&pool.m);
  for (int i = 0; i < n; i++)
    pthread_join (pool.threads[i], NULL);
  pthread_mutex_lock (&pool.m);
  free (pool.threads);
  pool.threads = NULL;
  pool.started = 0;
  pool.quit = 0;
  pthread_mutex_unlock (&pool.m);
}

int work_pool_max_threads (void)
{
  const int n = omp_get_max_threads (), limit = omp_get_thread_limit ();
  return n < limit ? n : limit;
}

typedef struct for_job
{
  work_piece piece;
  void *ctx;
  int64_t pieces;
  int64_t next;   /* the next piece to claim */
} for_job;

static void for_claim (void *p)
{
  for_job *f = p;
  for (int64_t i; (i = __atomic_fetch_add (&f->next, 1, __ATOMIC_RELAXED)) < f->pieces;)
    f->piece (f->ctx, i);
}

void work_pool_for_upto (int64_t pieces, work_piece piece, void *ctx, int threads)
{
  for_job f = { piece, ctx, pieces, 0 };
  work_pool_run (for_claim, &f, (int64_t) threads < pieces ? threads : (int) pieces);
}

void work_pool_for (int64_t pieces, work_piece piece, void *ctx)
{
  work_pool_for_upto (pieces, piece, ctx,
                      pieces > 1 ? work_pool_threads (work_pool_max_threads ()) : 1);
}

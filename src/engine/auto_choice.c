/* "auto" (see auto_choice.h). */
#include <string.h>

#include "engine/auto_choice.h"

enum { AUTO_BUCKETS = 64 };

/* one engine's calls in a bucket: how many, and the seconds per element of the last
   AUTO_WINDOW */
typedef struct auto_times
{
  int64_t calls;
  double recent[AUTO_WINDOW];
} auto_times;

typedef struct auto_bucket
{
  int64_t chosen;   /* calls chosen since the bucket was measured */
  auto_times run[AUTO_RUNS];
} auto_bucket;

static auto_bucket buckets[SHAPE_CLASSES][AUTO_BUCKETS];

/* the CPU engine and the GPU's kernels scan each shape class differently */
static shape_class shape_of (const scan_desc *d)
{
  return d->inner > 1 ? SHAPE_STRIDED : d->outer > 1 ? SHAPE_COLUMNS : SHAPE_VECTOR;
}

static auto_bucket *bucket_of (const scan_desc *d)
{
  int b = 0;
  for (uint64_t n = (uint64_t) scan_numel (d); n > 1; n >>= 1)
    b++;
  return &buckets[shape_of (d)][b];
}

static int measured (const auto_times *t)
{
  return t->calls >= AUTO_SAMPLES;
}

static double best (const auto_times *t)
{
  const int64_t n = t->calls < AUTO_WINDOW ? t->calls : AUTO_WINDOW;
  double b = t->recent[0];
  for (int64_t i = 1; i < n; i++)
    b = t->recent[i] < b ? t->recent[i] : b;
  return b;
}

auto_run auto_choose (const scan_desc *d, int cpu_alone)
{
  auto_bucket *k = bucket_of (d);
  const auto_run cpu = cpu_alone ? AUTO_CPU_ALONE : AUTO_CPU_THREADS;
  const auto_times *g = &k->run[AUTO_GPU], *c = &k->run[cpu];
  if (! measured (g) || ! measured (c))
    return g->calls <= c->calls ? AUTO_GPU : cpu;
  const auto_run winner = best (g) < best (c) ? AUTO_GPU : cpu;
  const auto_run loser = winner == AUTO_GPU ? cpu : AUTO_GPU;
  return (k->chosen + 1) % AUTO_RECHECK == 0 ? loser : winner;
}

void auto_record (const scan_desc *d, auto_run run, double seconds)
{
  auto_bucket *k = bucket_of (d);
  /* (a call chosen from both engines' times moves the recheck's count on) */
  const auto_run cpu = run == AUTO_GPU ? AUTO_CPU_THREADS : run;
  if (measured (&k->run[AUTO_GPU]) && (measured (&k->run[cpu])
                                       || measured (&k->run[AUTO_CPU_ALONE])))
    k->chosen++;
  auto_times *t = &k->run[run];
  t->recent[t->calls++ % AUTO_WINDOW] = seconds / (double) scan_numel (d);
}

double auto_crossover (shape_class c)
{
  int any = 0;
  for (int b = 0; b < AUTO_BUCKETS; b++)
    {
      const auto_times *g = &buckets[c][b].run[AUTO_GPU];
      const auto_times *t = &buckets[c][b].run[AUTO_CPU_THREADS];
      if (! measured (g) || ! measured (t))
        continue;
      if (best (g) < best (t))
        return (double) ((int64_t) 1 << b);
      any = 1;
    }
  return any ? 0 : -1;
}

void auto_forget (void)
{
  memset (buckets, 0, sizeof buckets);
}

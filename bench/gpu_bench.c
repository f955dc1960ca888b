/* Kernel benchmark: every algorithm against CUB's InclusiveSum/ExclusiveSum and a
   device-to-device copy of the same bytes, measured in the same run.
     gpu_bench [max_log2]      (default 28)
     gpu_bench --transfers     host <-> device paths for a freshly allocated host array
                               (what an Octave call sees): pageable, cudaHostRegister of
                               the array, and pinned staging with threaded host copies
     gpu_bench --compact       stream compaction of 2^26 doubles, kernel by kernel,
                               against a device-to-device copy of the input
   Prints time (median of repeated runs, CUDA events), GB/s (bytes read + written) and
   the ratios to the copy and to CUB.  Integer sums are Octave's "native" saturating
   sums, of small values that never saturate (the kernels' wrapping fast path), and once
   of data that does ("vector saturating": the exact scan runs after the fast one);
   CUB's integer sum beside them wraps around. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "base/filter_desc.h"
#include "scan_kernels.h"

#define CHECK(call)                                                               \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess)                                                       \
      {                                                                          \
        fprintf (stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString (e_)); \
        exit (1);                                                                \
      }                                                                          \
  } while (0)

static void *work;
static size_t work_bytes;

/* what the kernels keep of the CUDA context, made at the first scan */
static gsk_context *kernels (void)
{
  static gsk_context *ctx;
  char why[200] = "";
  if (! ctx && ! (ctx = gsk_context_new (getenv ("GPUSCAN_TUNING"),
                                         getenv ("GPUSCAN_DEVICE_LIMITS"), why, sizeof why)))
    {
      fprintf (stderr, "gsk_context_new failed: %s\n", why);
      exit (1);
    }
  return ctx;
}
static cudaEvent_t ev0, ev1;

static void need_work (size_t bytes)
{
  if (bytes <= work_bytes)
    return;
  CHECK (cudaFree (work));
  CHECK (cudaMalloc (&work, bytes));
  CHECK (cudaMemset (work, 0, bytes));
  work_bytes = bytes;
}

static int cmp_float (const void *a, const void *b)
{
  const float u = *(const float *) a, v = *(const float *) b;
  return (u > v) - (u < v);
}

typedef struct job { int kind; const scan_desc *d; gsk_algorithm a; size_t bytes; const filter_desc *f; } job;
enum { JOB_SCAN, JOB_CUB, JOB_COPY, JOB_GROUPS, JOB_GROUP_ORDER, JOB_GATHER, JOB_LABEL_TILES, JOB_FILTER };

/* gpuscan_filter's workspace (its own: the scans' is zeroed for their flags) */
static void *filter_work;
static size_t filter_work_bytes;
/* room for the states of the filters below: order 4 at most, 2^16 channels */
static const size_t filter_state_bytes = (size_t) 4 * 65536 * 8;

/* gpuscan_filter of order 2 (poles 0.9 and 0.5) or 4 (and +-0.6i) of type t (double or
   single), fused steps, on (inner, len, outer), with its workspace grown to fit */
static filter_desc bench_filter (scan_type t, int order, int64_t inner, int64_t len,
                                 int64_t outer, void *x, void *y, void *zi, void *zf)
{
  static const double b2[] = { 0.2, 0.3, 0.1 }, a2[] = { 1, -1.4, 0.45 },
                      b4[] = { 0.1, 0.2, 0.3, 0.2, 0.1 }, a4[] = { 1, -1.4, 0.81, -0.504, 0.162 };
  static float b2s[3], a2s[3], b4s[5], a4s[5];
  for (int j = 0; j < 5; j++)
    {
      if (j < 3)
        b2s[j] = (float) b2[j], a2s[j] = (float) a2[j];
      b4s[j] = (float) b4[j], a4s[j] = (float) a4[j];
    }
  const int single = t == SCAN_SINGLE;
  filter_desc d = { 0 };
  d.type = t;
  d.order = order;
  d.fused = 1;
  d.b = order == 2 ? (single ? (const void *) b2s : (const void *) b2)
                   : (single ? (const void *) b4s : (const void *) b4);
  d.a = order == 2 ? (single ? (const void *) a2s : (const void *) a2)
                   : (single ? (const void *) a4s : (const void *) a4);
  d.inner = inner;
  d.len = len;
  d.outer = outer;
  d.x = x;
  d.y = y;
  d.zi = zi;
  d.zf = zf;
  const size_t need = gsk_filter_workspace_bytes (&d);
  if (need > filter_work_bytes)
    {
      CHECK (cudaFree (filter_work));
      CHECK (cudaMalloc (&filter_work, need));
      filter_work_bytes = need;
    }
  return d;
}

/* "groups" of a device array, as the engine runs them (engine_array_group_scan_labels):
   many labels: their order and head flags, X moved into that order, the segmented scan,
   Y moved back; few: the labels' range and label tiles */
static struct { const double *labels; int64_t *order; uint8_t *heads; void *xs, *ys, *ws; size_t ws_bytes; } grp;

static void run_label_tiles (const scan_desc *d)
{
  gsk_context *c = kernels ();
  gsk_label_range r;
  CHECK (gsk_label_range_of (c, grp.labels, d->len, &r, grp.ws, 0));
  CHECK (gsk_label_scan (c, d, grp.labels, r.lo, r.hi - r.lo + 1, grp.ws, grp.ws_bytes, 0));
}

static void run_groups (const scan_desc *d)
{
  gsk_context *c = kernels ();
  const size_t es = scan_type_size (d->type);
  CHECK (gsk_group_order (c, grp.labels, d->len, grp.order, grp.heads, grp.ws, 0));
  CHECK (gsk_permute (c, es, d->x, grp.xs, d->inner, d->len, d->outer, grp.order, 0, 0, 0));
  scan_desc s = *d;
  s.x = grp.xs;
  s.y = grp.ys;
  s.heads = grp.heads;
  s.heads_full = 0;
  CHECK (gsk_scan (c, &s, gsk_auto_algorithm (c, &s), work, work_bytes, 0));
  CHECK (gsk_permute (c, es, grp.ys, d->y, d->inner, d->len, d->outer, grp.order, 1, 0, 0));
}

static void run_job (const job *j)
{
  switch (j->kind)
    {
    case JOB_SCAN: CHECK (gsk_scan (kernels (), j->d, j->a, work, work_bytes, 0)); break;
    case JOB_FILTER: CHECK (gsk_filter (kernels (), j->f, filter_work, filter_work_bytes, 0)); break;
    case JOB_GROUPS: run_groups (j->d); break;
    case JOB_GROUP_ORDER:   /* (the parts of run_groups, for where its time goes) */
      CHECK (gsk_group_order (kernels (), grp.labels, j->d->len, grp.order, grp.heads, grp.ws, 0));
      break;
    case JOB_LABEL_TILES: run_label_tiles (j->d); break;
    case JOB_GATHER:
      CHECK (gsk_permute (kernels (), scan_type_size (j->d->type), j->d->x, grp.xs, j->d->inner,
                          j->d->len, j->d->outer, grp.order, 0, 0, 0));
      break;
    case JOB_CUB:
      CHECK (gsk_cub_sum (j->d->type, j->d->x, j->d->y, scan_numel (j->d), j->d->exclusive,
                          work, work_bytes, 0));
      break;
    default: CHECK (cudaMemcpyAsync (j->d->y, j->d->x, j->bytes, cudaMemcpyDeviceToDevice, 0));
    }
}

/* median milliseconds of one run; enough repetitions for ~50 ms of work */
static double time_job (const job *j)
{
  run_job (j);
  CHECK (cudaEventRecord (ev0, 0));
  run_job (j);
  CHECK (cudaEventRecord (ev1, 0));
  CHECK (cudaEventSynchronize (ev1));
  float once;
  CHECK (cudaEventElapsedTime (&once, ev0, ev1));
  int reps = once > 0 ? (int) (50.0 / once) : 100;
  reps = reps < 5 ? 5 : reps > 200 ? 200 : reps;
  float t[200];
  for (int r = 0; r < reps; r++)
    {
      CHECK (cudaEventRecord (ev0, 0));
      run_job (j);
      CHECK (cudaEventRecord (ev1, 0));
      CHECK (cudaEventSynchronize (ev1));
      CHECK (cudaEventElapsedTime (&t[r], ev0, ev1));
    }
  qsort (t, reps, sizeof *t, cmp_float);
  return t[reps / 2];
}

static void row (const char *shape, const scan_desc *d, const char *alg, double ms,
                 double copy_ms, double cub_ms, size_t bytes_moved)
{
  /* (a complex row says so in its shape, and its type column names the parts: the columns
     stay where tools/device-check.sh reads them) */
  const char *type = d->type == SCAN_CDOUBLE ? "double" : d->type == SCAN_CSINGLE ? "single"
                     : scan_type_name (d->type);
  printf ("%-22s %-6s %11lld %-12s %10.2f %8.0f %7.2f", shape, type,
          (long long) scan_numel (d), alg, ms * 1e3, bytes_moved / (ms * 1e-3) / 1e9,
          ms / copy_ms);
  if (cub_ms > 0)
    printf (" %7.2f", ms / cub_ms);
  else
    printf ("       -");
  printf ("\n");
}

/* one vector of len elements of type t, x into y */
static scan_desc vector_desc (scan_type t, scan_op op, int64_t len, void *x, void *y)
{
  scan_desc d = { 0 };
  d.type = t;
  d.op = op;
  d.inner = d.outer = 1;
  d.len = len;
  d.x = x;
  d.y = y;
  return d;
}

static void bench (const char *shape, scan_desc *d, int with_cub)
{
  const size_t bytes = (size_t) scan_numel (d) * scan_type_size (d->type);
  const size_t x_bytes = (size_t) scan_numel (d) * scan_type_size (scan_input_type (d));
  const size_t moved = bytes + x_bytes + (d->heads ? (d->heads_full ? scan_numel (d) : d->len) : 0)
                       + (d->coef && ! d->coef_scalar ? bytes : 0);
  /* the baseline copies as many bytes as the scan reads and writes (head flags and a
     recurrence's coefficients too); with x in a narrower class, the output's bytes */
  job copy = { JOB_COPY, d, 0, d->input != SCAN_INPUT_AS_OUTPUT ? bytes : moved / 2 };
  const double copy_ms = time_job (&copy);
  double cub_ms = 0;
  if (with_cub)
    {
      need_work (gsk_cub_sum_workspace_bytes (d->type, scan_numel (d), d->exclusive));
      job c = { JOB_CUB, d, 0, 0 };
      cub_ms = time_job (&c);
    }
  row (shape, d, "copy", copy_ms, copy_ms, cub_ms, moved);
  if (with_cub)
    row (shape, d, d->exclusive ? "cub-excl" : "cub", cub_ms, copy_ms, cub_ms, 2 * bytes);
  static const char *names[3] = { "decoupled", "kogge-stone", "brent-kung" };
  for (int a = 0; a < 3; a++)
    {
      need_work (gsk_workspace_bytes (kernels (), d, (gsk_algorithm) a));
      job s = { JOB_SCAN, d, (gsk_algorithm) a, 0 };
      row (shape, d, names[a], time_job (&s), copy_ms, cub_ms, moved);
    }
  /* floating sums and products: the decoupled scan with its look-back ordered, as
     "reproducible" asks (its cost against the row "decoupled") */
  const int floating = d->type == SCAN_DOUBLE || d->type == SCAN_SINGLE || d->type == SCAN_CDOUBLE
                       || d->type == SCAN_CSINGLE;
  if (floating && (d->op == SCAN_SUM || d->op == SCAN_PROD || d->op == SCAN_RECURRENCE) && ! d->accurate)
    {
      d->reproducible = 1;
      need_work (gsk_workspace_bytes (kernels (), d, GSK_DECOUPLED));
      job s = { JOB_SCAN, d, GSK_DECOUPLED, 0 };
      row (shape, d, "reproducible", time_job (&s), copy_ms, cub_ms, moved);
      d->reproducible = 0;
    }
  fflush (stdout);
}

static double seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* threaded memcpy, as the engine's staging does */
static void par_copy (void *dst, const void *src, size_t n)
{
  const size_t piece = 1 << 20;
  const int64_t pieces = (int64_t) ((n + piece - 1) / piece);
#pragma omp parallel for schedule (static)
  for (int64_t i = 0; i < pieces; i++)
    memcpy ((char *) dst + i * piece, (const char *) src + i * piece,
            (size_t) i * piece + piece <= n ? piece : n - (size_t) i * piece);
}

/* H2D and D2H of 2^26 doubles from and into fresh host arrays, best of 3 each */
static int transfers (void)
{
  const size_t bytes = (size_t) 8 << 26, stage = (size_t) 32 << 20;
  void *dev, *pinned, *st[2];
  CHECK (cudaMalloc (&dev, bytes));
  CHECK (cudaMallocHost (&pinned, bytes));
  CHECK (cudaMallocHost (&st[0], stage));
  CHECK (cudaMallocHost (&st[1], stage));
  cudaStream_t s;
  cudaEvent_t done[2];
  CHECK (cudaStreamCreate (&s));
  CHECK (cudaEventCreate (&done[0]));
  CHECK (cudaEventCreate (&done[1]));
  memset (pinned, 1, bytes);
  printf ("host <-> device, 2^26 doubles (%.0f MiB), fresh host array each time, GB/s\n", bytes / 1048576.0);
  char thp[128] = "?";
  FILE *f = fopen ("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (f)
    {
      if (! fgets (thp, sizeof thp, f))
        thp[0] = 0;
      fclose (f);
    }
  printf ("transparent huge pages: %s", thp);
  printf ("%-44s %8s %8s\n", "path", "H2D", "D2H");
  for (int path = 0; path < 5; path++)
    {
      double best[2] = { 1e30, 1e30 };
      for (int rep = 0; rep < 3; rep++)
        for (int dir = 0; dir < 2; dir++)
          {
            char *host = path == 3 ? pinned : malloc (bytes);
            if (path == 4)   /* transparent huge pages: 512x fewer first-touch faults */
              madvise ((void *) (((uintptr_t) host + (2 << 20) - 1) & ~(uintptr_t) ((2 << 20) - 1)),
                       bytes - (2 << 20), MADV_HUGEPAGE);
            if (dir == 0 && path != 3)
              par_copy (host, pinned, bytes);   /* the input exists already (and is touched) */
            const double t0 = seconds ();
            if (path == 0 || path == 3)
              CHECK (cudaMemcpy (dir ? (void *) host : dev, dir ? dev : (void *) host, bytes,
                                 dir ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice));
            else if (path == 1)
              {
                CHECK (cudaHostRegister (host, bytes, cudaHostRegisterDefault));
                CHECK (cudaMemcpy (dir ? (void *) host : dev, dir ? dev : (void *) host, bytes,
                                   dir ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice));
                CHECK (cudaHostUnregister (host));
              }
            else   /* paths 2 and 4 */
              for (size_t off = 0, c = 0; off < bytes + stage; off += stage, c++)
                {
                  /* staging: the host copies piece c while the GPU moves piece c - 1 */
                  const int b = c & 1;
                  if (off < bytes && dir == 0)
                    {
                      CHECK (cudaEventSynchronize (done[b]));
                      par_copy (st[b], host + off, stage);
                      CHECK (cudaMemcpyAsync ((char *) dev + off, st[b], stage, cudaMemcpyHostToDevice, s));
                      CHECK (cudaEventRecord (done[b], s));
                    }
                  if (dir == 1)
                    {
                      if (off < bytes)
                        {
                          CHECK (cudaMemcpyAsync (st[b], (char *) dev + off, stage, cudaMemcpyDeviceToHost, s));
                          CHECK (cudaEventRecord (done[b], s));
                        }
                      if (c > 0)
                        {
                          CHECK (cudaEventSynchronize (done[b ^ 1]));
                          par_copy (host + off - stage, st[b ^ 1], stage);
                        }
                    }
                }
            CHECK (cudaStreamSynchronize (s));
            const double t = seconds () - t0;
            best[dir] = t < best[dir] ? t : best[dir];
            if (path != 3)
              free (host);
          }
      static const char *name[5] = {
        "pageable cudaMemcpy", "cudaHostRegister + cudaMemcpy + unregister",
        "pinned staging 2 x 32 MiB, threaded copies", "pinned array (no host copy; upper bound)",
        "pinned staging, host array MADV_HUGEPAGE" };
      printf ("%-44s %8.1f %8.1f\n", name[path], bytes / best[0] / 1e9, bytes / best[1] / 1e9);
    }
  /* what the host side pays: the threaded copy of 512 MiB into a fresh array */
  for (int huge = 0; huge < 2; huge++)
    {
      double best = 1e30;
      for (int rep = 0; rep < 3; rep++)
        {
          char *host = malloc (bytes);
          if (huge)
            madvise ((void *) (((uintptr_t) host + (2 << 20) - 1) & ~(uintptr_t) ((2 << 20) - 1)),
                     bytes - (2 << 20), MADV_HUGEPAGE);
          const double t0 = seconds ();
          par_copy (host, pinned, bytes);
          const double t = seconds () - t0;
          best = t < best ? t : best;
          free (host);
        }
      printf ("threaded copy into a fresh host array%s: %.1f GB/s\n",
              huge ? " (MADV_HUGEPAGE)" : "", bytes / best / 1e9);
    }
  return 0;
}

/* median wall-clock milliseconds of f (which waits for the GPU) over 21 runs */
static double wall_ms (void (*f) (void *), void *arg)
{
  double t[21];
  f (arg);
  for (int r = 0; r < 21; r++)
    {
      const double t0 = seconds ();
      f (arg);
      t[r] = (seconds () - t0) * 1e3;
    }
  for (int i = 1; i < 21; i++)   /* insertion sort */
    for (int k = i; k > 0 && t[k] < t[k - 1]; k--)
      {
        const double u = t[k];
        t[k] = t[k - 1];
        t[k - 1] = u;
      }
  return t[10];
}

typedef struct compact_case
{
  const void *x;
  const uint8_t *mask;
  int64_t n;
  void *y, *ws;
  int64_t kept;
} compact_case;

static void do_copy (void *a)
{
  compact_case *c = a;
  CHECK (cudaMemcpyAsync (c->y, c->x, (size_t) c->n * 8, cudaMemcpyDeviceToDevice, 0));
  CHECK (cudaStreamSynchronize (0));
}
static void do_malloc_copy (void *a)
{
  compact_case *c = a;
  void *y;
  CHECK (cudaMalloc (&y, (size_t) c->n * 8));
  CHECK (cudaMemcpyAsync (y, c->x, (size_t) c->n * 8, cudaMemcpyDeviceToDevice, 0));
  CHECK (cudaStreamSynchronize (0));
  CHECK (cudaFree (y));
}
static void do_count (void *a)
{
  compact_case *c = a;
  CHECK (gsk_compact_count (kernels (), c->mask, c->n, c->ws, &c->kept, 0));
}
static void do_scatter (void *a)
{
  compact_case *c = a;
  CHECK (gsk_compact_scatter (8, c->x, c->mask, c->n, c->y, c->ws, 0));
  CHECK (cudaStreamSynchronize (0));
}
static void do_compact (void *a)
{
  compact_case *c = a;
  void *y;
  CHECK (gsk_compact_count (kernels (), c->mask, c->n, c->ws, &c->kept, 0));
  CHECK (cudaMalloc (&y, (size_t) (c->kept > 0 ? c->kept : 1) * 8));
  CHECK (gsk_compact_scatter (8, c->x, c->mask, c->n, y, c->ws, 0));
  CHECK (cudaStreamSynchronize (0));
  CHECK (cudaFree (y));
}

static int compaction (void)
{
  const int64_t n = (int64_t) 1 << 26;
  compact_case c = { 0 };
  c.n = n;
  uint8_t *m = malloc ((size_t) n);
  void *x, *y, *ws, *mask;
  CHECK (cudaMalloc (&x, (size_t) n * 8));
  CHECK (cudaMalloc (&y, (size_t) n * 8));
  CHECK (cudaMalloc (&mask, (size_t) n));
  CHECK (cudaMalloc (&ws, gsk_compact_workspace_bytes (n)));
  CHECK (cudaMemset (x, 1, (size_t) n * 8));
  c.x = x;
  c.y = y;
  c.ws = ws;
  c.mask = mask;
  printf ("stream compaction of 2^26 doubles (median wall-clock ms of 21 runs)\n");
  const double copy = wall_ms (do_copy, &c), malloc_copy = wall_ms (do_malloc_copy, &c);
  printf ("  D2D copy %.3f ms (%.0f GB/s read + write); cudaMalloc + copy + cudaFree %.3f ms\n",
          copy, 2.0 * n * 8 / copy / 1e6, malloc_copy);
  printf ("  %-6s %9s %9s %9s %9s %9s %9s\n", "kept", "count", "scatter", "compact", "x copy",
          "x m+copy", "GB/s");
  const double keep[3] = { 1.0, 0.5, 0.01 };
  for (int k = 0; k < 3; k++)
    {
      uint32_t r = 777;
      for (int64_t i = 0; i < n; i++)
        {
          r = r * 1664525u + 1013904223u;
          m[i] = (r >> 8) < keep[k] * 16777216.0;
        }
      CHECK (cudaMemcpy (mask, m, (size_t) n, cudaMemcpyHostToDevice));
      const double tc = wall_ms (do_count, &c);
      const double ts = wall_ms (do_scatter, &c);
      const double t = wall_ms (do_compact, &c);
      const double moved = 2.0 * n + 16.0 * c.kept;   /* mask twice, kept x and y */
      printf ("  %5.0f%% %9.3f %9.3f %9.3f %9.2f %9.2f %9.0f\n", keep[k] * 100, tc, ts, t,
              t / copy, t / malloc_copy, moved / t / 1e6);
    }
  free (m);
  return 0;
}

int main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--transfers") == 0)
    return transfers ();
  if (argc > 1 && strcmp (argv[1], "--compact") == 0)
    return compaction ();
  /* gpu_bench --profile LOG2: for ncu, three scans each of 2^LOG2 elements: double sum,
     int32 native sum, double sum segmented by full head flags, double sum along dim 2 of
     a square matrix, single sum, single sum along dim 1 of a square matrix, single sum
     segmented by full head flags; gpu_bench --profile LOG2 indexed: [m, i] = cummax of
     singles and of doubles; gpu_bench --profile LOG2 saturating: native sums of int64
     and int32 data that saturates (the wrapping pass, then the exact clamp-map pass),
     decoupled and then brent-kung; gpu_bench --profile LOG2 recurrence: recurrences of
     doubles and singles, a per element and then one a (every a 0x3f3f... bytes: |a| < 1);
     gpu_bench --profile LOG2 filter: gpuscan_filter's kernels (bench_filter) */
  const int profile = argc > 2 && strcmp (argv[1], "--profile") == 0;
  const int max_log2 = profile ? atoi (argv[2]) : argc > 1 ? atoi (argv[1]) : 28;
  int count = 0;
  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0)
    {
      printf ("gpu_bench: SKIP: no CUDA device\n");
      return 77;
    }
  struct cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  printf ("gpu_bench on %s, %d SMs; time in us (median), GB/s of bytes read + written,\n"
          "ratio to a device-to-device copy of the same bytes and to CUB's sum\n", prop.name,
          prop.multiProcessorCount);
  printf ("%-22s %-6s %11s %-12s %10s %8s %7s %7s\n", "shape", "type", "n", "algorithm", "us",
          "GB/s", "x copy", "x cub");
  CHECK (cudaEventCreate (&ev0));
  CHECK (cudaEventCreate (&ev1));
  const size_t max_bytes = ((size_t) 1 << max_log2) * 8;
  void *x, *y, *xi;
  uint8_t *heads;
  /* (x and y: room for the copy baselines of 2^max_log2 doubles that move more than x and
     y: a segmented scan's flag bytes, a recurrence's coefficients) */
  const size_t copy_bytes = max_bytes + max_bytes / 2;
  CHECK (cudaMalloc (&x, copy_bytes));
  CHECK (cudaMalloc (&xi, max_bytes));
  CHECK (cudaMalloc (&y, copy_bytes));
  CHECK (cudaMalloc ((void **) &heads, (size_t) 1 << max_log2));
  /* random bits: no zeros, no special structure */
  {
    const size_t n = max_bytes / 4;
    uint32_t *h = malloc (max_bytes);
    uint32_t s = 12345;
    for (size_t i = 0; i < n; i++)
      {
        s = s * 1664525u + 1013904223u;
        h[i] = (s >> 8) & 0x3f7fffffu;   /* finite floats, small doubles */
      }
    CHECK (cudaMemcpy (x, h, max_bytes, cudaMemcpyHostToDevice));
    /* small integers (int64; read as int32 too): native sums that never saturate */
    for (size_t i = 0; i < max_bytes / 8; i++)
      ((int64_t *) h)[i] = (int64_t) ((i * 7919) % 17) - 8;
    CHECK (cudaMemcpy (xi, h, max_bytes, cudaMemcpyHostToDevice));
    for (size_t i = 0; i < ((size_t) 1 << max_log2); i++)
      ((uint8_t *) h)[i] = (i * 2654435761u >> 7) % 1000 == 0;
    CHECK (cudaMemcpy (heads, h, (size_t) 1 << max_log2, cudaMemcpyHostToDevice));
    free (h);
  }
  static const scan_type types[4] = { SCAN_SINGLE, SCAN_DOUBLE, SCAN_INT32, SCAN_INT64 };
  /* the length of the rows at one size: 2^26, or what the buffers hold */
  const int64_t row_len = (int64_t) 1 << (max_log2 < 26 ? max_log2 : 26);
  if (profile)
    {
      /* coef: 0 none, 1 a per element, 2 one a */
      typedef struct { scan_type type; scan_op op; int heads, dim, index; gsk_algorithm alg; int coef; } profile_case;
      static const profile_case cases[] = {
        { SCAN_DOUBLE, SCAN_SUM, 0, 0, 0, GSK_DECOUPLED },
        { SCAN_INT32, SCAN_SATSUM, 0, 0, 0, GSK_DECOUPLED },
        { SCAN_DOUBLE, SCAN_SUM, 1, 0, 0, GSK_DECOUPLED },
        { SCAN_DOUBLE, SCAN_SUM, 0, 2, 0, GSK_DECOUPLED },
        { SCAN_SINGLE, SCAN_SUM, 0, 0, 0, GSK_DECOUPLED },
        { SCAN_SINGLE, SCAN_SUM, 0, 1, 0, GSK_DECOUPLED },
        { SCAN_SINGLE, SCAN_SUM, 1, 0, 0, GSK_DECOUPLED } };
      static const profile_case indexed_cases[] = {
        { SCAN_SINGLE, SCAN_MAX, 0, 0, 1, GSK_DECOUPLED },
        { SCAN_DOUBLE, SCAN_MAX, 0, 0, 1, GSK_DECOUPLED } };
      static const profile_case saturating_cases[] = {
        { SCAN_INT64, SCAN_SATSUM, 0, 0, 0, GSK_DECOUPLED },
        { SCAN_INT32, SCAN_SATSUM, 0, 0, 0, GSK_DECOUPLED },
        { SCAN_INT64, SCAN_SATSUM, 0, 0, 0, GSK_BRENT_KUNG },
        { SCAN_INT32, SCAN_SATSUM, 0, 0, 0, GSK_BRENT_KUNG } };
      static const profile_case recurrence_cases[] = {
        { SCAN_DOUBLE, SCAN_RECURRENCE, 0, 0, 0, GSK_DECOUPLED, 1 },
        { SCAN_DOUBLE, SCAN_RECURRENCE, 0, 0, 0, GSK_DECOUPLED, 2 },
        { SCAN_SINGLE, SCAN_RECURRENCE, 0, 0, 0, GSK_DECOUPLED, 1 },
        { SCAN_SINGLE, SCAN_RECURRENCE, 0, 0, 0, GSK_DECOUPLED, 2 } };
      /* the sets by name (argument 3; none or another name: the first); `saturating`:
         the integers read x, whose random bits saturate, instead of xi's small values */
      static const struct { const char *name; const profile_case *list; int ncases, saturating; } sets[] = {
        { "", cases, (int) (sizeof cases / sizeof *cases), 0 },
        { "indexed", indexed_cases, (int) (sizeof indexed_cases / sizeof *indexed_cases), 0 },
        { "saturating", saturating_cases, (int) (sizeof saturating_cases / sizeof *saturating_cases), 1 },
        { "recurrence", recurrence_cases, (int) (sizeof recurrence_cases / sizeof *recurrence_cases), 0 } };
      if (argc > 3 && strcmp (argv[3], "filter") == 0)
        {
          /* order 2 and 4 of doubles and singles, one channel (in blocks), then 2^16
             channels along dim 2 (each in order), three times each */
          void *zi, *zf;
          CHECK (cudaMalloc (&zi, filter_state_bytes));
          CHECK (cudaMalloc (&zf, filter_state_bytes));
          CHECK (cudaMemset (zi, 0, filter_state_bytes));
          const int64_t n = (int64_t) 1 << max_log2;
          for (int t = 0; t < 2; t++)
            for (int order = 2; order <= 4; order += 2)
              for (int many = 0; many < 2; many++)
                {
                  const filter_desc fd = bench_filter (types[t], order, many ? 65536 : 1,
                                                       many ? n / 65536 : n, 1, x, y, zi, zf);
                  for (int r = 0; r < 3; r++)
                    CHECK (gsk_filter (kernels (), &fd, filter_work, filter_work_bytes, 0));
                }
          CHECK (cudaDeviceSynchronize ());
          return 0;
        }
      const int nsets = (int) (sizeof sets / sizeof *sets);
      int set = nsets - 1;
      while (set > 0 && ! (argc > 3 && strcmp (argv[3], sets[set].name) == 0))
        set--;
      const profile_case *list = sets[set].list;
      const int ncases = sets[set].ncases;
      const int64_t n = (int64_t) 1 << max_log2, side = (int64_t) 1 << max_log2 / 2;
      void *coef;
      CHECK (cudaMalloc (&coef, (size_t) n * 8));
      CHECK (cudaMemset (coef, 0x3f, (size_t) n * 8));
      for (int c = 0; c < ncases; c++)
        {
          scan_desc d = { 0 };
          d.type = list[c].type;
          d.op = list[c].op;
          d.inner = list[c].dim == 2 ? side : 1;
          d.outer = list[c].dim == 1 ? side : 1;
          d.len = n / (d.inner * d.outer);
          d.heads = list[c].heads ? heads : NULL;
          d.heads_full = list[c].heads;
          d.index = list[c].index ? xi : NULL;
          d.x = d.type == SCAN_INT32 && ! sets[set].saturating ? xi : x;
          d.y = y;
          d.coef = list[c].coef ? coef : NULL;
          d.coef_scalar = list[c].coef == 2;
          need_work (gsk_workspace_bytes (kernels (), &d, list[c].alg));
          for (int r = 0; r < 3; r++)
            CHECK (gsk_scan (kernels (), &d, list[c].alg, work, work_bytes, 0));
        }
      CHECK (cudaDeviceSynchronize ());
      CHECK (cudaFree (coef));
      return 0;
    }
  for (int t = 0; t < 4; t++)
    for (int lg = 10; lg <= max_log2; lg += 2)
      {
        scan_desc d = vector_desc (types[t], t < 2 ? SCAN_SUM : SCAN_SATSUM, (int64_t) 1 << lg,
                                   t < 2 ? x : xi, y);
        bench ("vector", &d, 1);
      }
  /* lengths that are no multiple of a tile, as most arrays' are: their last tile is partial */
  static const int64_t odd_lengths[] = { 1000, 3000, 1000003, 10000019 };
  for (int t = 0; t < 4; t++)
    for (int k = 0; k < (int) (sizeof odd_lengths / sizeof *odd_lengths); k++)
      if (odd_lengths[k] <= (int64_t) 1 << max_log2)
        {
          scan_desc d = vector_desc (types[t], t < 2 ? SCAN_SUM : SCAN_SATSUM, odd_lengths[k],
                                     t < 2 ? x : xi, y);
          bench ("vector, odd length", &d, 1);
        }
  /* native sums of data that saturates: for 4- and 8-byte integers the fast path notices
     and the exact scan runs; 1- and 2-byte integers always take the exact scan (no fast
     path), here on random bytes */
  static const struct { scan_type type; const char *shape; } saturating[] = {
    { SCAN_INT32, "vector saturating" }, { SCAN_INT64, "vector saturating" },
    { SCAN_UINT64, "vector saturating" }, { SCAN_INT8, "vector native" }, { SCAN_INT16, "vector native" } };
  for (int t = 0; t < (int) (sizeof saturating / sizeof *saturating) && max_log2 >= 24; t++)
    {
      scan_desc d = vector_desc (saturating[t].type, SCAN_SATSUM, (int64_t) 1 << 24, x, y);
      bench (saturating[t].shape, &d, 0);
    }
  /* the logical and bitwise operators (exact: one pass, no fast path to check) */
  static const struct { scan_type type; scan_op op; const char *shape; } bits[] = {
    { SCAN_LOGICAL, SCAN_AND, "vector and" }, { SCAN_LOGICAL, SCAN_XOR, "vector xor" },
    { SCAN_UINT8, SCAN_BITXOR, "vector bitxor" }, { SCAN_UINT16, SCAN_BITOR, "vector bitor" },
    { SCAN_UINT32, SCAN_BITXOR, "vector bitxor" },
    { SCAN_UINT64, SCAN_BITAND, "vector bitand" } };
  for (int t = 0; t < (int) (sizeof bits / sizeof *bits); t++)
    {
      scan_desc d = vector_desc (bits[t].type, bits[t].op, row_len, x, y);
      bench (bits[t].shape, &d, 0);
    }
  /* sums into double of logical and int8 x, read in their own class (device arrays of
     those classes under cumsum); the copy baseline moves the output's bytes */
  static const struct { scan_input input; const char *shape; } narrow[] = {
    { SCAN_INPUT_LOGICAL, "vector from logical" }, { SCAN_INPUT_INT8, "vector from int8" } };
  for (int t = 0; t < (int) (sizeof narrow / sizeof *narrow); t++)
    {
      scan_desc d = vector_desc (SCAN_DOUBLE, SCAN_SUM, row_len, x, y);
      d.input = narrow[t].input;
      bench (narrow[t].shape, &d, 0);
    }
  /* MATLAB's "includenan" max (the first NaN wins; with the index, as the operator keeps
     it), logsumexp, and "accurate" sums (double-double states, reproducible as the
     gateway makes them: compare with the rows "vector" sum, decoupled, of the same size) */
  for (int t = 0; t < 2; t++)
    {
      scan_desc d = vector_desc (types[t], SCAN_MAX, row_len, x, y);
      d.nan_rule = SCAN_NAN_INCLUDE;
      bench ("vector max includenan", &d, 0);
      d.nan_rule = SCAN_NAN_OCTAVE;
      d.op = SCAN_LOGSUMEXP;
      bench ("vector logsumexp", &d, 0);
      d.op = SCAN_SUM;
      d.accurate = d.reproducible = 1;
      for (int lg = 14; lg <= 26 && lg <= max_log2; lg += 3)
        {
          d.len = (int64_t) 1 << lg;
          bench ("vector accurate", &d, 0);
        }
    }
  /* linear recurrences y(k) = a(k) y(k-1) + x(k), with a per element (0.5 and -0.5) and
     one a for all; the copy baseline moves x, a and y (x and y for the one a) */
  for (int t = 0; t < 2; t++)
    {
      const size_t es = scan_type_size (types[t]);
      void *h = malloc ((size_t) row_len * es), *coef;
      for (int64_t i = 0; i < row_len; i++)
        if (types[t] == SCAN_DOUBLE)
          ((double *) h)[i] = i % 3 ? 0.5 : -0.5;
        else
          ((float *) h)[i] = i % 3 ? 0.5f : -0.5f;
      CHECK (cudaMalloc (&coef, (size_t) row_len * es));
      CHECK (cudaMemcpy (coef, h, (size_t) row_len * es, cudaMemcpyHostToDevice));
      free (h);
      scan_desc d = vector_desc (types[t], SCAN_RECURRENCE, row_len, x, y);
      d.coef = coef;
      bench ("vector recurrence", &d, 0);
      d.coef_scalar = 1;
      bench ("recurrence, scalar a", &d, 0);
      if (types[t] == SCAN_SINGLE)
        {
          /* complex singles, a per element of modulus 0.71 (16-byte pairs as doubles') */
          d.type = SCAN_CSINGLE;
          d.len = row_len / 2;
          d.coef_scalar = 0;
          bench ("complex recurrence", &d, 0);
        }
      CHECK (cudaFree (coef));
    }
  /* gpuscan_filter (filter.cu, bench_filter's filters): one channel and 64 along dim 1
     and dim 2 (in blocks), and 2^16 channels along dim 2 (each in order); the copy
     baseline moves x and y */
  if (row_len >= (int64_t) 1 << 20)
    {
      void *zi, *zf;
      CHECK (cudaMalloc (&zi, filter_state_bytes));
      CHECK (cudaMalloc (&zf, filter_state_bytes));
      CHECK (cudaMemset (zi, 0, filter_state_bytes));
      static const struct { int64_t channels; int along; const char *shape; } fshapes[] = {
        { 1, 0, "filter %d, 1 channel" }, { 64, 0, "filter %d, 64 dim 1" },
        { 64, 1, "filter %d, 64 dim 2" }, { 65536, 1, "filter %d, 2^16 dim 2" } };
      for (int t = 0; t < 2; t++)
        for (int order = 2; order <= 4; order += 2)
          for (int f = 0; f < 4; f++)
            {
              const int64_t ch = fshapes[f].channels;
              const filter_desc fd = bench_filter (types[t], order, fshapes[f].along ? ch : 1,
                                                   row_len / ch, fshapes[f].along ? 1 : ch,
                                                   x, y, zi, zf);
              scan_desc d = vector_desc (types[t], SCAN_SUM, row_len, x, y);
              const size_t bytes = (size_t) row_len * scan_type_size (types[t]);
              job copy = { JOB_COPY, &d, 0, bytes, NULL }, run = { JOB_FILTER, &d, 0, 0, &fd };
              char shape[32];
              snprintf (shape, sizeof shape, fshapes[f].shape, order);
              const double copy_ms = time_job (&copy);
              row (shape, &d, "copy", copy_ms, copy_ms, 0, 2 * bytes);
              row (shape, &d, "filter", time_job (&run), copy_ms, 0, 2 * bytes);
            }
      fflush (stdout);
      CHECK (cudaFree (zi));
      CHECK (cudaFree (zf));
    }
  /* complex double sums (16-byte elements, as the pairs of a double recurrence) */
  {
    scan_desc d = vector_desc (SCAN_CDOUBLE, SCAN_SUM, row_len / 2, x, y);
    bench ("complex sum", &d, 0);
  }
  /* "groups": running sums within 1000 labels (random doubles 1..1000) of a vector,
     sorted (the labels' sort included) and in label tiles (the labels' range included),
     and within 10 labels in label tiles, against a copy of x to y */
  for (int t = 0; t < 2 && max_log2 >= 20; t++)
    {
      scan_desc d = vector_desc (types[t], SCAN_SUM, row_len, x, y);
      const size_t n = (size_t) d.len;
      double *h = malloc (n * 8);
      for (size_t i = 0; i < n; i++)
        h[i] = (double) (1 + (i * 2654435761u >> 5) % 1000);
      double *labels;
      CHECK (cudaMalloc ((void **) &labels, n * 8));
      CHECK (cudaMemcpy (labels, h, n * 8, cudaMemcpyHostToDevice));
      free (h);
      grp.labels = labels;
      CHECK (cudaMalloc ((void **) &grp.order, n * 8));
      CHECK (cudaMalloc ((void **) &grp.heads, n));
      CHECK (cudaMalloc (&grp.xs, n * scan_type_size (d.type)));
      CHECK (cudaMalloc (&grp.ys, n * scan_type_size (d.type)));
      grp.ws_bytes = gsk_group_order_workspace_bytes (d.len);
      const size_t tiles_bytes = gsk_label_scan_workspace_bytes (kernels (), &d, 1000);
      grp.ws_bytes = tiles_bytes > grp.ws_bytes ? tiles_bytes : grp.ws_bytes;
      CHECK (cudaMalloc (&grp.ws, grp.ws_bytes));
      scan_desc s = d;
      s.heads = grp.heads;
      need_work (gsk_workspace_bytes (kernels (), &s, GSK_DECOUPLED));
      const size_t bytes = n * scan_type_size (d.type);
      job copy = { JOB_COPY, &d, 0, bytes }, g = { JOB_GROUPS, &d, 0, 0 };
      const double copy_ms = time_job (&copy);
      row ("vector groups", &d, "copy", copy_ms, copy_ms, 0, 2 * bytes);
      row ("vector groups", &d, "sort+scan", time_job (&g), copy_ms, 0, 2 * bytes);
      job order = { JOB_GROUP_ORDER, &d, 0, 0 }, gather = { JOB_GATHER, &d, 0, 0 };
      row ("vector groups", &d, "order", time_job (&order), copy_ms, 0, 2 * bytes);
      row ("vector groups", &d, "gather", time_job (&gather), copy_ms, 0, 2 * bytes);
      job tiles = { JOB_LABEL_TILES, &d, 0, 0 };
      row ("vector groups", &d, "label tiles", time_job (&tiles), copy_ms, 0, 2 * bytes);
      /* 10 labels: lanes of one label take turns, about 8 a round */
      double *h10 = malloc (n * 8);
      for (size_t i = 0; i < n; i++)
        h10[i] = (double) (1 + (i * 2654435761u >> 5) % 10);
      CHECK (cudaMemcpy (labels, h10, n * 8, cudaMemcpyHostToDevice));
      free (h10);
      row ("vector groups", &d, "label tiles 10", time_job (&tiles), copy_ms, 0, 2 * bytes);
      fflush (stdout);
      CHECK (cudaFree (labels));
      CHECK (cudaFree (grp.order));
      CHECK (cudaFree (grp.heads));
      CHECK (cudaFree (grp.xs));
      CHECK (cudaFree (grp.ys));
      CHECK (cudaFree (grp.ws));
    }
  /* integer max (the value-only operator of 4- and 8-byte integers) */
  for (int t = 2; t < 4; t++)
    {
      scan_desc d = vector_desc (types[t], SCAN_MAX, row_len, xi, y);
      bench ("vector max", &d, 0);
    }
  /* max with the index output at smaller sizes (two launches: the values, then their
     positions; the copy baseline counts x and y only) */
  for (int t = 0; t < 2; t++)
    for (int lg = 16; lg <= 24 && lg <= max_log2; lg += 4)
      {
        scan_desc d = vector_desc (types[t], SCAN_MAX, (int64_t) 1 << lg, x, y);
        d.index = xi;
        bench ("vector max, index", &d, 0);
      }
  /* exclusive, reverse, segmented with 1-byte flags, max and prod, batched along dim 1 and
     dim 2 */
  for (int t = 0; t < 2; t++)
    {
      scan_desc d = vector_desc (types[t], SCAN_SUM, row_len, x, y);
      d.exclusive = 1;
      bench ("vector exclusive", &d, 1);
      d.exclusive = 0;
      d.reverse = 1;
      bench ("vector reverse", &d, 0);
      d.reverse = 0;
      d.heads = heads;
      d.heads_full = 1;
      bench ("segmented (flags)", &d, 0);
      d.heads = NULL;
      /* the other operators of the same kernels (the copy is the baseline) */
      d.op = SCAN_MAX;
      bench ("vector max", &d, 0);
      /* with the index output (into xi, free here; the copy baseline counts x and y only) */
      d.index = xi;
      bench ("vector max, index", &d, 0);
      d.heads = heads;
      d.heads_full = 1;
      bench ("segmented max, index", &d, 0);
      d.heads = NULL;
      d.heads_full = 0;
      d.index = NULL;
      d.op = SCAN_PROD;
      bench ("vector prod", &d, 0);
      d.op = SCAN_SUM;
      if (max_log2 < 24)   /* (the buffers hold 2^max_log2 elements) */
        continue;
      d.len = 4096;
      d.outer = 4096;
      bench ("4096x4096 dim 1", &d, 0);
      d.inner = 4096;
      d.outer = 1;
      bench ("4096x4096 dim 2", &d, 0);
    }
  return 0;
}

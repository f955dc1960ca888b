/* GPU self-test: every kernel algorithm x type x operator x mode x shape, at sizes
   around every tile boundary, on random data with a poisoned output, against the CPU
   engine.  The data are chosen so that every result is exact (small integers for sums,
   +-1, +-2 and 0.5 for products, m 2^k for accurate sums, maps of +-1 and +-i for
   recurrences), so results are compared
   element by element, exactly; but logsumexp's, which round in every step (check).

     gpu_selftest [--quick | --tiny] [--large]
   Prints a line as each algorithm finishes a type (scans, failures, seconds from the
   start; line-buffered, so that a run cut off by a time limit shows how far it got).
   --quick: fewer sizes and types (for compute-sanitizer); --tiny: double only (racecheck);  --large: also 2^28-element scans.
   Exits 0 when all pass, 1 on a mismatch, 77 (skip) without a CUDA device. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <complex.h>

#include <cuda_runtime_api.h>

#include "base/group_labels.h"
#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_engine.h"
#include "cpu/cpu_filter.h"
#include "scan_kernels.h"

#define CHECK(call)                                                               \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess)                                                       \
      {                                                                          \
        fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,           \
                 cudaGetErrorString (e_));                                       \
        exit (1);                                                                \
      }                                                                          \
  } while (0)

static uint64_t rng = 88172645463325252ull;
static uint64_t next (void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static gsk_context *ctx;   /* what the kernels keep of the CUDA context */
static void *dx, *dy, *dix, *dheads, *dwork, *dcoef;
static size_t work_bytes;
static long failures, runs;

static const char *alg_name[GSK_NALGORITHMS] = { "decoupled", "kogge-stone", "brent-kung", "cub" };

static double seconds_since (const struct timespec *t0)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) (t.tv_sec - t0->tv_sec) + 1e-9 * (double) (t.tv_nsec - t0->tv_nsec);
}

/* the largest value of an integer type, as its bytes */
static uint64_t highest (scan_type t)
{
  switch (t)
    {
    case SCAN_INT8: return 0x7f;
    case SCAN_UINT8: return 0xff;
    case SCAN_INT16: return 0x7fff;
    case SCAN_UINT16: return 0xffff;
    case SCAN_INT32: return 0x7fffffff;
    case SCAN_UINT32: return 0xffffffff;
    case SCAN_INT64: return 0x7fffffffffffffffull;
    default: return ~0ull;
    }
}

/* random input for (type, op): exact results in every order.  Native (saturating) sums
   take turns: the full range (saturating at once), small values (never saturating: the
   kernels' wrapping fast path) and small values with two of the largest in the middle
   (saturating once, late: the fast path must notice and scan again). */
static void fill (scan_type t, scan_op op, void *x, int64_t n)
{
  static unsigned turn;
  const int satsum_kind = op == SCAN_SATSUM && t != SCAN_LOGICAL ? (int) (turn++ % 3) : 0;
  for (int64_t i = 0; i < n; i++)
    {
      const uint64_t r = next ();
      const int small = (int) (r % 17) - 8;
      /* products: mostly 1, some -1, rarely 2 or 0.5, so that no prefix leaves the
         exponent range (which would make the order matter) */
      const double pv = (r >> 8) % 16 == 0 ? -1 : (r >> 12) % 65536 == 0 ? ((r >> 28) & 1 ? 2 : 0.5) : 1;
      const double v = op == SCAN_PROD ? pv : (r >> 20) % 97 == 0 ? NAN : small;
      /* (sums, products and logsumexp get no NaN, which would make the rest of a line NaN) */
      const int no_nan = op == SCAN_SUM || op == SCAN_PROD || op == SCAN_LOGSUMEXP;
      switch (t)
        {
        case SCAN_DOUBLE: ((double *) x)[i] = no_nan ? (isnan (v) ? 3 : v) : v; break;
        case SCAN_SINGLE: ((float *) x)[i] = (float) (no_nan ? (isnan (v) ? 3 : v) : v); break;
        case SCAN_CDOUBLE: ((double *) x)[2 * i] = isnan (v) ? 1 : v;
          ((double *) x)[2 * i + 1] = op == SCAN_PROD ? 0 : (int) ((r >> 30) % 9) - 4; break;
        case SCAN_CSINGLE: ((float *) x)[2 * i] = (float) (isnan (v) ? 1 : v);
          ((float *) x)[2 * i + 1] = op == SCAN_PROD ? 0 : (float) ((int) ((r >> 30) % 9) - 4); break;
        /* integers: the full range, so that native sums saturate often */
        case SCAN_INT8: case SCAN_UINT8: case SCAN_LOGICAL: ((uint8_t *) x)[i] = (uint8_t) (r >> 3); break;
        case SCAN_INT16: case SCAN_UINT16: ((uint16_t *) x)[i] = (uint16_t) (r >> 3); break;
        case SCAN_INT32: case SCAN_UINT32: ((uint32_t *) x)[i] = (uint32_t) (r >> 3); break;
        default: ((uint64_t *) x)[i] = r; break;
        }
      if (t == SCAN_LOGICAL)
        ((uint8_t *) x)[i] &= 1;
      if (satsum_kind)
        {
          const int unsigned_type = t == SCAN_UINT8 || t == SCAN_UINT16 || t == SCAN_UINT32
                                    || t == SCAN_UINT64;
          const int largest = satsum_kind == 2 && n >= 2 && (i == n / 2 || i == n / 2 - 1);
          const int64_t v = unsigned_type ? small + 8 : small;
          const uint64_t bits = largest ? highest (t) : (uint64_t) v;
          const size_t es = scan_type_size (t);
          for (size_t b = 0; b < es; b++)   /* little-endian */
            ((uint8_t *) x)[i * es + b] = (uint8_t) (bits >> (8 * b));
        }
    }
}

/* input for max and min with the index output: a walk that drifts the way the operator
   looks in scan order (new extrema often, ties, returns to the running extremum), NaN
   now and then and, every other array, a leading NaN run (reals), 0 and -0 */
static void fill_walk (scan_type t, int up, int reverse, void *x, int64_t n)
{
  static unsigned turn;
  const int unsigned_type = t == SCAN_UINT8 || t == SCAN_UINT16 || t == SCAN_UINT32
                            || t == SCAN_UINT64 || t == SCAN_LOGICAL;
  const int64_t lead = turn++ % 2 ? 3 : 0;
  int64_t v = unsigned_type ? 100 : 0;
  for (int64_t j = 0; j < n; j++)
    {
      const int64_t i = reverse ? n - 1 - j : j;
      const uint64_t r = next ();
      v += (up ? 1 : -1) * ((int64_t) (r % 4) - 1);
      if (unsigned_type && v < 0)
        v = 0;
      const double d = j < lead || (r >> 8) % 251 == 0 ? NAN : v == 0 && (r >> 16) % 2 ? -0.0 : (double) v;
      switch (t)
        {
        case SCAN_DOUBLE: ((double *) x)[i] = d; break;
        case SCAN_SINGLE: ((float *) x)[i] = (float) d; break;
        case SCAN_INT8: ((int8_t *) x)[i] = (int8_t) v; break;
        case SCAN_UINT8: case SCAN_LOGICAL: ((uint8_t *) x)[i] = (uint8_t) (t == SCAN_LOGICAL ? v & 1 : v); break;
        case SCAN_INT16: ((int16_t *) x)[i] = (int16_t) v; break;
        case SCAN_UINT16: ((uint16_t *) x)[i] = (uint16_t) v; break;
        case SCAN_INT32: ((int32_t *) x)[i] = (int32_t) v; break;
        case SCAN_UINT32: ((uint32_t *) x)[i] = (uint32_t) v; break;
        case SCAN_INT64: ((int64_t *) x)[i] = v; break;
        case SCAN_UINT64: ((uint64_t *) x)[i] = (uint64_t) v; break;
        default: break;
        }
    }
}

static int same (scan_type t, const void *a, const void *b, int64_t i)
{
  switch (t)
    {
    case SCAN_DOUBLE: { double u = ((double *) a)[i], v = ((double *) b)[i]; return u == v || (isnan (u) && isnan (v)); }
    case SCAN_SINGLE: { float u = ((float *) a)[i], v = ((float *) b)[i]; return u == v || (isnan (u) && isnan (v)); }
    case SCAN_CDOUBLE: return same (SCAN_DOUBLE, a, b, 2 * i) && same (SCAN_DOUBLE, a, b, 2 * i + 1);
    case SCAN_CSINGLE: return same (SCAN_SINGLE, a, b, 2 * i) && same (SCAN_SINGLE, a, b, 2 * i + 1);
    default:
      {
        const size_t s = scan_type_size (t);
        return memcmp ((const char *) a + i * s, (const char *) b + i * s, s) == 0;
      }
    }
}

/* element i of a real array, for messages */
static double as_double (scan_type t, const void *a, int64_t i)
{
  switch (t)
    {
    case SCAN_DOUBLE: return ((const double *) a)[i];
    case SCAN_SINGLE: return ((const float *) a)[i];
    case SCAN_INT8: return ((const int8_t *) a)[i];
    case SCAN_UINT8: case SCAN_LOGICAL: return ((const uint8_t *) a)[i];
    case SCAN_INT16: return ((const int16_t *) a)[i];
    case SCAN_UINT16: return ((const uint16_t *) a)[i];
    case SCAN_INT32: return ((const int32_t *) a)[i];
    case SCAN_UINT32: return ((const uint32_t *) a)[i];
    case SCAN_INT64: return (double) ((const int64_t *) a)[i];
    case SCAN_UINT64: return (double) ((const uint64_t *) a)[i];
    default: return NAN;
    }
}

/* the kernels' context, with the tuning table and device limits that GPUSCAN_TUNING and
   GPUSCAN_DEVICE_LIMITS name (the package's settings), or NULL (and why on stderr) */
static gsk_context *new_context (void)
{
  char why[200] = "";
  gsk_context *c = gsk_context_new (getenv ("GPUSCAN_TUNING"), getenv ("GPUSCAN_DEVICE_LIMITS"),
                                    why, sizeof why);
  if (! c)
    fprintf (stderr, "gsk_context_new failed: %s\n", why);
  return c;
}

/* one scan on the GPU against the CPU engine */
static void check (const scan_desc *h, gsk_algorithm a, void *y, void *ref, double *ix,
                   double *ref_ix, const char *what)
{
  const int64_t n = scan_numel (h);
  const size_t bytes = (size_t) n * scan_type_size (h->type);
  scan_desc d = *h;
  runs++;
  d.x = dx; d.y = dy; d.index = h->index ? (double *) dix : NULL;
  d.heads = h->heads ? dheads : NULL;
  if (h->coef)
    {
      d.coef = dcoef;
      CHECK (cudaMemcpy (dcoef, h->coef, (h->coef_scalar ? 1 : (size_t) n) * scan_type_size (h->type),
                         cudaMemcpyHostToDevice));
    }
  const size_t ws = gsk_workspace_bytes (ctx, &d, a);
  if (ws > work_bytes)
    {
      CHECK (cudaFree (dwork));
      CHECK (cudaMalloc (&dwork, ws));
      CHECK (cudaMemset (dwork, 0, ws));
      work_bytes = ws;
    }
  CHECK (cudaMemcpy (dx, h->x, bytes, cudaMemcpyHostToDevice));
  if (h->heads)
    CHECK (cudaMemcpy (dheads, h->heads, h->heads_full ? n : h->len, cudaMemcpyHostToDevice));
  CHECK (cudaMemset (dy, 0xAB, bytes));                  /* poison */
  if (h->index)
    CHECK (cudaMemset (dix, 0xAB, (size_t) n * 8));
  const cudaError_t launched = gsk_scan (ctx, &d, a, dwork, work_bytes, 0);
  if (launched != cudaSuccess)
    {
      char plan[600];
      gsk_describe (ctx, &d, a, plan, sizeof plan);
      fprintf (stderr, "FAIL %s %s of %lld x %lld x %lld (%s%s%s%s), algorithm %d: %s; plan: %s\n",
               scan_type_name (h->type), scan_op_name (h->op), (long long) h->inner,
               (long long) h->len, (long long) h->outer, h->exclusive ? "exclusive " : "",
               h->reverse ? "reverse " : "", h->heads ? "heads " : "", h->index ? "index" : "",
               (int) a, cudaGetErrorString (launched), plan);
      exit (1);
    }
  CHECK (cudaDeviceSynchronize ());
  CHECK (cudaMemcpy (y, dy, bytes, cudaMemcpyDeviceToHost));
  if (h->index)
    CHECK (cudaMemcpy (ix, dix, (size_t) n * 8, cudaMemcpyDeviceToHost));
  /* reproducible: the same scan again gives the same bits (ref holds the first's for now) */
  if (h->reproducible && n)
    {
      memcpy (ref, y, bytes);
      CHECK (cudaMemset (dy, 0xAB, bytes));
      CHECK (gsk_scan (ctx, &d, a, dwork, work_bytes, 0));
      CHECK (cudaDeviceSynchronize ());
      CHECK (cudaMemcpy (y, dy, bytes, cudaMemcpyDeviceToHost));
      if (memcmp (ref, y, bytes) != 0 && failures++ < 20)
        fprintf (stderr, "FAIL %s %s %s: %s inner %lld len %lld outer %lld excl %d rev %d: "
                 "reproducible, yet a second scan gave other bits\n", alg_name[a],
                 scan_type_name (h->type), scan_op_name (h->op), what, (long long) h->inner,
                 (long long) h->len, (long long) h->outer, h->exclusive, h->reverse);
    }
  scan_desc r = *h;
  r.y = ref;
  r.index = h->index ? ref_ix : NULL;
  if (h->op == SCAN_LOGSUMEXP)
    {
      /* logsumexp rounds in every step, and CUDA's exp and log1p are not the C library's:
         the GPU's outputs are compared with the CPU engine's in double (a single input
         converted first: its sequential sum stalls where the increments fall below an
         ulp), within a relative 1e-9 (double) or 1e-4 (single) */
      if (h->type == SCAN_SINGLE)
        {
          for (int64_t i = 0; i < n; i++)
            ix[i] = ((const float *) h->x)[i];
          r.type = SCAN_DOUBLE;
          r.x = ix;
        }
      cpu_scan (&r, cpu_threads_for (scan_numel (&r), 0));
      const double tol = h->type == SCAN_SINGLE ? 1e-4 : 1e-9;
      for (int64_t i = 0; i < n; i++)
        {
          const double g = h->type == SCAN_SINGLE ? ((float *) y)[i] : ((double *) y)[i];
          const double w = ((double *) ref)[i];
          if (! (g == w || (isnan (g) && isnan (w)) || fabs (g - w) <= tol * fmax (1.0, fabs (w))))
            {
              if (failures++ < 20)
                fprintf (stderr, "FAIL %s %s logsumexp: %s inner %lld len %lld outer %lld excl %d "
                         "rev %d heads %s: element %lld is %.17g, not %.17g\n", alg_name[a],
                         scan_type_name (h->type), what, (long long) h->inner, (long long) h->len,
                         (long long) h->outer, h->exclusive, h->reverse,
                         h->heads ? (h->heads_full ? "full" : "per-k") : "none", (long long) i, g, w);
              return;
            }
        }
      return;
    }
  cpu_scan (&r, cpu_threads_for (scan_numel (&r), 0));
  for (int64_t i = 0; i < n; i++)
    if (! same (h->type, y, ref, i) || (h->index && ix[i] != ref_ix[i]))
      {
        if (failures++ < 20)
          fprintf (stderr, "FAIL %s %s %s: %s inner %lld len %lld outer %lld excl %d rev %d "
                   "heads %s: first wrong element %lld (%g, not %g)\n", alg_name[a],
                   scan_type_name (h->type), scan_op_name (h->op), what, (long long) h->inner,
                   (long long) h->len, (long long) h->outer, h->exclusive, h->reverse,
                   h->heads ? (h->heads_full ? "full" : "per-k") : "none", (long long) i,
                   as_double (h->type, y, i), as_double (h->type, ref, i));
        return;
      }
}

/* part i of a double (single: 0) or single array, complex ones part by part */
static void put_part (int single, void *a, int64_t i, double v)
{
  if (single)
    ((float *) a)[i] = (float) v;
  else
    ((double *) a)[i] = v;
}

/* data for "omitnan" sums and products: small integers (sums) or +-1 (products; complex:
   1, -1, i or -i), one element in 7 a NaN (complex: in one part); with `inf`, +Inf a
   third of the way and -Inf two thirds (a sum's Inf - Inf is a NaN state, which stays;
   not in complex products, whose Inf parts give NaN parts that depend on the grouping) */
static void fill_nan (scan_type t, scan_op op, void *x, int64_t n, int inf)
{
  const int is_complex = t == SCAN_CDOUBLE || t == SCAN_CSINGLE;
  const int single = t == SCAN_SINGLE || t == SCAN_CSINGLE;
  for (int64_t i = 0; i < n; i++)
    {
      const uint64_t r = next ();
      double v = op == SCAN_PROD ? ((r >> 8) % 16 == 0 ? -1 : 1) : (int) (r % 17) - 8;
      double w = is_complex && op == SCAN_SUM ? (int) ((r >> 32) % 17) - 8 : 0;
      if (is_complex && op == SCAN_PROD && (r >> 12) % 8 == 0)
        {
          w = v;
          v = 0;
        }
      if ((r >> 20) % 7 == 0)
        *(is_complex && (r >> 24) % 2 ? &w : &v) = NAN;
      if (inf && ! (is_complex && op == SCAN_PROD) && i == n / 3)
        v = INFINITY;
      if (inf && ! (is_complex && op == SCAN_PROD) && i == 2 * n / 3 && n > 2)
        v = -INFINITY;
      if (is_complex)
        {
          put_part (single, x, 2 * i, v);
          put_part (single, x, 2 * i + 1, w);
        }
      else
        put_part (single, x, i, v);
    }
}

/* The sizes and shapes of the NaN-flag and accurate sections: m = 0 a vector of len, 1
   exclusive, 2 reverse, 3 33 lanes (of lanes_len_max steps at most), 4 segmented (a head
   in about 613 steps, into heads); x the input */
static const int64_t flag_sizes[5] = { 1, 33, 1025, 70001, 1 << 20 };

static scan_desc flag_case (scan_type t, scan_op op, int64_t len, int m, int64_t lanes_len_max,
                            uint8_t *heads, void *x)
{
  scan_desc h = { 0 };
  h.type = t;
  h.op = op;
  h.inner = m == 3 ? 33 : 1;
  h.outer = 1;
  h.len = m == 3 && len > lanes_len_max ? lanes_len_max : len;
  h.exclusive = m == 1;
  h.reverse = m == 2;
  if (m == 4)
    {
      for (int64_t i = 0; i < h.len; i++)
        heads[i] = next () % 613 == 0;
      h.heads = heads;
    }
  h.x = x;
  return h;
}

/* the scan of shape h (inner, len, outer, modes and heads set) on fresh data; max and
   min every other time with the index output (without it, inclusive decoupled scans of
   reals take the value-only operator) */
static void check_case (scan_desc h, gsk_algorithm a, void *x, void *y, void *ref, double *ix,
                        double *ref_ix, const char *what)
{
  static unsigned extrema;
  const int extremum = h.op == SCAN_MAX || h.op == SCAN_MIN;
  h.index = extremum && extrema++ % 2 == 0 ? ref_ix : NULL;
  h.x = x;
  fill (h.type, h.op, x, scan_numel (&h));
  check (&h, a, y, ref, ix, ref_ix, what);
}

/* Stream compaction and class conversion against the CPU versions, every element size,
   sizes around the compaction tile (2048), masks of several densities (one of them with
   nonzero bytes other than 1, one at an odd address); the output is poisoned, and what
   lies past the kept elements must stay poisoned. */
static void check_compaction (int quick, void *x, void *y, void *ref, uint8_t *mask)
{
  static const int64_t sizes[] = { 1, 2, 2047, 2048, 2049, 4095, 4097, 70001, 1 << 20 };
  static const size_t elem[] = { 1, 2, 4, 8, 16 };
  static const int density[] = { 0, 3, 50, 100 };   /* percent kept */
  const int nsizes = quick ? 6 : (int) (sizeof sizes / sizeof *sizes);
  void *ws;
  CHECK (cudaMalloc (&ws, gsk_compact_workspace_bytes (sizes[nsizes - 1])));
  CHECK (cudaMemset (ws, 0, gsk_compact_workspace_bytes (sizes[nsizes - 1])));
  for (int s = 0; s < nsizes; s++)
    for (int e = 0; e < 5; e++)
      for (int k = 0; k < 4; k++)
        {
          const int64_t n = sizes[s];
          const size_t bytes = (size_t) n * elem[e];
          for (size_t i = 0; i < bytes; i++)
            ((uint8_t *) x)[i] = (uint8_t) next ();
          for (int64_t i = 0; i < n; i++)
            mask[i] = (int) (next () % 100) < density[k] ? (k == 2 ? 1 + next () % 255 : 1) : 0;
          const int64_t want = cpu_count_nonzero (mask, n);
          cpu_compact (elem[e], x, mask, n, ref);
          const uint8_t *dmask = (const uint8_t *) dheads + (k == 1);
          CHECK (cudaMemcpy (dx, x, bytes, cudaMemcpyHostToDevice));
          CHECK (cudaMemcpy ((void *) dmask, mask, (size_t) n, cudaMemcpyHostToDevice));
          CHECK (cudaMemset (dy, 0xab, bytes + 64));
          int64_t kept = -1;
          CHECK (gsk_compact_count (ctx, dmask, n, ws, &kept, 0));
          CHECK (gsk_compact_scatter (elem[e], dx, dmask, n, dy, ws, 0));
          CHECK (cudaMemcpy (y, dy, bytes + 64, cudaMemcpyDeviceToHost));
          runs++;
          int bad = kept != want || memcmp (y, ref, (size_t) want * elem[e]) != 0;
          for (size_t i = (size_t) want * elem[e]; i < bytes + 64 && ! bad; i++)
            bad = ((uint8_t *) y)[i] != 0xab;
          if (bad)
            {
              failures++;
              fprintf (stderr, "FAIL compaction: n %lld, %zu-byte elements, %d%% kept "
                       "(kept %lld, want %lld)\n", (long long) n, elem[e], density[k],
                       (long long) kept, (long long) want);
            }
        }
  CHECK (cudaFree (ws));
  /* conversion to double and head flags of every real type, one size past a block */
  const int64_t n = 70001;
  for (int t = 0; t < SCAN_NTYPES; t++)
    {
      const size_t bytes = (size_t) n * scan_type_size ((scan_type) t);
      for (size_t i = 0; i < bytes; i++)
        ((uint8_t *) x)[i] = (uint8_t) (next () % 3 == 0 ? 0 : next ());
      if (t == SCAN_LOGICAL)
        for (int64_t i = 0; i < n; i++)
          ((uint8_t *) x)[i] &= 1;
      if (t == SCAN_DOUBLE || t == SCAN_SINGLE || t == SCAN_CDOUBLE || t == SCAN_CSINGLE)
        for (int64_t i = 0; i < n * (t == SCAN_CDOUBLE || t == SCAN_CSINGLE ? 2 : 1); i++)
          put_part (t == SCAN_SINGLE || t == SCAN_CSINGLE, x, i, (double) (next () % 5) - 2);
      CHECK (cudaMemcpy (dx, x, bytes, cudaMemcpyHostToDevice));
      const scan_type to = t == SCAN_CSINGLE ? SCAN_CDOUBLE : SCAN_DOUBLE;
      if (t != SCAN_CDOUBLE)
        {
          const size_t out = (size_t) n * scan_type_size (to);
          CHECK (cudaMemset (dy, 0xab, out));
          CHECK (gsk_convert (ctx, (scan_type) t, to, dx, dy, n, 0));
          CHECK (cudaMemcpy (y, dy, out, cudaMemcpyDeviceToHost));
          cpu_convert ((scan_type) t, to, x, ref, n);
          runs++;
          if (memcmp (y, ref, out) != 0)
            {
              failures++;
              fprintf (stderr, "FAIL conversion of %s\n", scan_type_name ((scan_type) t));
            }
        }
      CHECK (cudaMemset (dix, 0, sizeof (int)));
      CHECK (cudaMemset (dy, 0xab, (size_t) n));
      CHECK (gsk_nonzero_flags (ctx, (scan_type) t, dx, (uint8_t *) dy, n, (int *) dix, 0));
      int nan_seen = -1;
      CHECK (cudaMemcpy (y, dy, (size_t) n, cudaMemcpyDeviceToHost));
      CHECK (cudaMemcpy (&nan_seen, dix, sizeof (int), cudaMemcpyDeviceToHost));
      const int ref_nan = cpu_nonzero_flags ((scan_type) t, x, (uint8_t *) ref, n);
      runs++;
      if (memcmp (y, ref, (size_t) n) != 0 || nan_seen != ref_nan)
        {
          failures++;
          fprintf (stderr, "FAIL head flags of %s\n", scan_type_name ((scan_type) t));
        }
    }
}

/* "groups" of few labels (groups.cu): the labels' range (whole numbers, and not: a
   fraction, beyond 2^53, NaN), and label tiles against the CPU engine's label scan
   (cpu_label_scan, each label's states in order): sums, products, max and min of double
   and single, inclusive and exclusive, either direction, one column and three, spans
   from 1 to the most a warp holds, lengths around a round (256) and a tile (2048, and 8
   elements a label).  Elements are small integers, +-1, 0, +-Inf and NaN, whose sums
   and products are exact in any grouping: the same bits. */
static void check_label_tiles (int quick, void *x, void *y, void *ref, double *keys)
{
  const long failures_before = failures;
  long label_runs = 0;
  struct timespec t0;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  /* the range */
  static const double odd[] = { 2.5, 1e19, NAN, INFINITY };
  for (int k = -1; k < 4; k++)
    {
      const int64_t n = 5000;
      for (int64_t i = 0; i < n; i++)
        keys[i] = (double) (int64_t) (next () % 41) - 20.0;
      keys[n / 2] = -0.0;
      if (k >= 0)
        keys[next () % n] = odd[k];
      gsk_label_range r;
      CHECK (cudaMemcpy (dx, keys, (size_t) n * 8, cudaMemcpyHostToDevice));
      CHECK (gsk_label_range_of (ctx, dx, n, &r, dwork, 0));
      int64_t lo, hi;
      const int whole = group_label_range (SCAN_DOUBLE, keys, n, &lo, &hi);
      label_runs++;
      if ((r.wide == whole || (whole && (r.lo != lo || r.hi != hi))) && failures++ < 20)
        fprintf (stderr, "FAIL label range (odd label %d): %lld..%lld, wide %d\n", k, r.lo,
                 r.hi, r.wide);
    }
  /* the scans */
  static const int64_t lens[] = { 1, 255, 257, 2047, 2049, 8 * 1000 + 1, 70001, 1 << 20 };
  static const long long spans[] = { 1, 7, 1000, 1024, 2048 };
  static const scan_op ops[] = { SCAN_SUM, SCAN_PROD, SCAN_MAX, SCAN_MIN };
  static const double values[] = { 1, -1, 2, 3, -2, 0, INFINITY, -INFINITY, NAN };
  const int nlens = quick ? 6 : (int) (sizeof lens / sizeof *lens);
  for (int li = 0; li < nlens; li++)
    for (int si = 0; si < 5; si++)
      for (int t = 0; t < 2; t++)
        {
          const int64_t len = lens[li];
          const long long span = spans[si], lo = -3;
          scan_desc h = { 0 };
          h.type = t ? SCAN_SINGLE : SCAN_DOUBLE;
          h.inner = 1;
          h.len = len;
          h.outer = len < 100000 ? 3 : 1;
          const int64_t m = h.len * h.outer;
          for (int64_t i = 0; i < len; i++)
            keys[i] = (double) (lo + (long long) (next () % (uint64_t) span));
          if (len > 1)
            keys[len - 1] = (double) (lo + span - 1);   /* (the whole span) */
          for (int o = 0; o < 4; o++)
            for (int mode = 0; mode < 4; mode++)
              {
                h.op = ops[o];
                h.exclusive = mode & 1;
                h.reverse = mode >> 1;
                if (! gsk_label_scan_supports (ctx, &h, span))
                  {
                    /* (a span beyond a warp's states, or exclusive max and min) */
                    if ((h.exclusive && o >= 2) || span * (t ? 4 : 8) > 8192)
                      continue;
                    if (failures++ < 20)
                      fprintf (stderr, "FAIL label tiles: %s %s of span %lld not supported\n",
                               scan_type_name (h.type), scan_op_name (h.op), span);
                    continue;
                  }
                /* products: +-1, 0, NaN (exact); the others every value */
                for (int64_t i = 0; i < m; i++)
                  {
                    const double v = o == 1 ? values[next () % 2] * (next () % 97 ? 1 : 0)
                                     : (next () % 50 ? values[next () % 6] : values[6 + next () % 3]);
                    if (t)
                      ((float *) x)[i] = (float) (o == 1 && next () % 211 == 0 ? NAN : v);
                    else
                      ((double *) x)[i] = o == 1 && next () % 211 == 0 ? NAN : v;
                  }
                const size_t es = t ? 4 : 8, bytes = (size_t) m * es;
                const size_t ws = gsk_label_scan_workspace_bytes (ctx, &h, span);
                void *dkeys, *dws;
                CHECK (cudaMalloc (&dkeys, (size_t) len * 8));
                CHECK (cudaMalloc (&dws, ws));
                CHECK (cudaMemcpy (dkeys, keys, (size_t) len * 8, cudaMemcpyHostToDevice));
                CHECK (cudaMemcpy (dx, x, bytes, cudaMemcpyHostToDevice));
                CHECK (cudaMemset (dy, 0xab, bytes));
                scan_desc d = h;
                d.x = dx;
                d.y = dy;
                CHECK (gsk_label_scan (ctx, &d, dkeys, lo, span, dws, ws, 0));
                CHECK (cudaMemcpy (y, dy, bytes, cudaMemcpyDeviceToHost));
                d.x = x;
                d.y = ref;
                cpu_label_scan (&d, SCAN_DOUBLE, keys, lo, span);
                CHECK (cudaFree (dkeys));
                CHECK (cudaFree (dws));
                label_runs++;
                int64_t bad = -1;
                for (int64_t i = 0; i < m && bad < 0; i++)
                  {
                    const double a = t ? ((float *) y)[i] : ((double *) y)[i];
                    const double b = t ? ((float *) ref)[i] : ((double *) ref)[i];
                    if (! (a == b || (a != a && b != b)))
                      bad = i;
                  }
                if (bad >= 0 && failures++ < 20)
                  fprintf (stderr, "FAIL label tiles: %s %s%s%s, %lld x %lld, span %lld: element "
                           "%lld differs\n", scan_type_name (h.type), scan_op_name (h.op),
                           h.exclusive ? " exclusive" : "", h.reverse ? " reverse" : "",
                           (long long) h.len, (long long) h.outer, span, (long long) bad);
              }
        }
  runs += label_runs;
  printf ("  groups      label tiles %4ld checks, %ld failed (%.0f s)\n", label_runs,
          failures - failures_before, seconds_since (&t0));
}

/* gpuscan_filter's kernels (filter.cu) against the CPU engine: every order they run,
   FIR and IIR, each product rounded or fused, double and single, with a random ZI, in
   order (short channels, or 2^16 channels and more) and in blocks (few channels of 512
   steps and more) at block sizes +-1, with an Inf or NaN in a long channel.  Filter's
   bits where both engines run in order; in blocks within the bound of the help
   (1e4 eps times the largest output times the response's 1-norm). */
static void check_filter (int quick, void *x, void *y, void *ref)
{
  static const int64_t shapes[][3] = {
    { 1, 300, 3 }, { 37, 200, 2 }, { 65536, 3, 1 }, { 40, 700, 1 }, { 1, 512, 1 },
    { 1, 513, 2 }, { 1, 256 * 37 + 1, 1 }, { 3, 5000, 2 }, { 2, 5000, 1 }, { 1, 70001, 1 },
    { 1, 1 << 20, 1 } };
  const int nshapes = quick ? 9 : (int) (sizeof shapes / sizeof *shapes);
  const long failures_before = failures;
  long filter_runs = 0;
  void *dzi, *dzf, *ws = NULL, *zi = malloc (16 << 20), *zf = malloc (16 << 20),
       *ref_zf = malloc (16 << 20);
  size_t ws_bytes = 0;
  CHECK (cudaMalloc (&dzi, 16 << 20));
  CHECK (cudaMalloc (&dzf, 16 << 20));
  for (int single = 0; single < 2; single++)
    for (int K = 0; K <= 8; K += quick && K >= 2 ? 2 : 1)
      for (int kind = 0; kind < (K ? 4 : 1); kind++)
        for (int sh = 0; sh < nshapes; sh++)
          {
            const int fir = kind & 1, fused = kind >> 1, es = single ? 4 : 8;
            filter_desc d = { 0 };
            d.type = single ? SCAN_SINGLE : SCAN_DOUBLE;
            d.order = K;
            d.fir = fir || K == 0;
            d.fused = fused;
            d.inner = shapes[sh][0];
            d.len = shapes[sh][1];
            d.outer = shapes[sh][2];
            /* a = prod (1 - r_i q) with real poles r_i in (-0.9, 0.9): stable */
            double b[9], a[9] = { 1 };
            for (int i = 0; i < K; i++)
              {
                const double r = 0.9 * (2.0 * (double) (next () % 1000) / 1000 - 1);
                for (int j = i + 1; j > 0; j--)
                  a[j] -= r * a[j - 1];
              }
            for (int j = 0; j <= K; j++)
              b[j] = (double) (next () % 2001) / 1000 - 1;
            float bs[9], as[9];
            for (int j = 0; j <= K; j++)
              bs[j] = (float) b[j], as[j] = (float) a[j];
            d.b = single ? (const void *) bs : (const void *) b;
            d.a = single ? (const void *) as : (const void *) a;
            const int64_t n = d.inner * d.len * d.outer, nz = K * d.inner * d.outer;
            for (int64_t i = 0; i < n + nz; i++)
              put_part (single, i < n ? x : zi, i < n ? i : i - n,
                        (double) (next () % 20001) / 1000 - 10);
            /* an Inf and a NaN in a long channel: it runs in order */
            const int specials = sh == 8;
            if (specials)
              {
                put_part (single, x, 2 * 2600, INFINITY);
                put_part (single, x, 2 * 4000 + 1, NAN);
              }
            /* the impulse response's 1-norm, for the bound */
            double h1 = 0;
            {
              double zh[8] = { 0 };
              for (int k = 0; k < 4096; k++)
                {
                  const double xv = k == 0, yv = zh[0] + b[0] * xv;
                  for (int j = 0; j < K; j++)
                    zh[j] = (j + 1 < K ? zh[j + 1] : 0) + b[j + 1] * xv - (d.fir ? 0 : a[j + 1] * yv);
                  h1 += fabs (yv);
                }
            }
            d.x = x;
            d.y = ref;
            d.zi = zi;
            d.zf = ref_zf;
            if (cpu_filter (&d, 2) != 0)
              {
                fprintf (stderr, "out of host memory\n");
                exit (1);
              }
            CHECK (cudaMemcpy (dx, x, (size_t) n * es, cudaMemcpyHostToDevice));
            CHECK (cudaMemcpy (dzi, zi, (size_t) nz * es + 1, cudaMemcpyHostToDevice));
            CHECK (cudaMemset (dy, 0xab, (size_t) n * es));
            CHECK (cudaMemset (dzf, 0xab, (size_t) nz * es + 1));
            d.x = dx;
            d.y = dy;
            d.zi = dzi;
            d.zf = dzf;
            const size_t need = gsk_filter_workspace_bytes (&d);
            if (need > ws_bytes)
              {
                if (ws)
                  CHECK (cudaFree (ws));
                CHECK (cudaMalloc (&ws, need));
                ws_bytes = need;
              }
            CHECK (gsk_filter (ctx, &d, ws, ws_bytes, 0));
            CHECK (cudaDeviceSynchronize ());
            CHECK (cudaMemcpy (y, dy, (size_t) n * es, cudaMemcpyDeviceToHost));
            CHECK (cudaMemcpy (zf, dzf, (size_t) nz * es, cudaMemcpyDeviceToHost));
            filter_runs++;
            /* in blocks: on the GPU few channels of 512 steps, on the CPU few of 2^16 */
            const int channels_in_order = d.inner * d.outer >= (1 << 16) || d.len < 512;
            const int blocked = K >= 1 && ! specials
                                && (! channels_in_order || (d.inner * d.outer < 16 && d.len >= 65536));
            double worst = 0, top = 0;
            int64_t bad_at = -1;
            for (int64_t i = 0; i < n + nz; i++)
              {
                const double g = i < n ? as_double (d.type, y, i) : as_double (d.type, zf, i - n),
                             r = i < n ? as_double (d.type, ref, i) : as_double (d.type, ref_zf, i - n);
                if (i < n && isfinite (r))
                  top = fmax (top, fabs (r));
                const int same_bits = i < n ? same (d.type, y, ref, i) : same (d.type, zf, ref_zf, i - n);
                if (! same_bits && ! (isnan (g) && isnan (r)))
                  {
                    const double diff = isfinite (g - r) ? fabs (g - r) : INFINITY;
                    if (bad_at < 0 || diff > worst)
                      bad_at = i, worst = diff;
                  }
              }
            const double bound = 1e4 * (single ? 0x1p-23 : 0x1p-52) * top * h1;
            if (bad_at >= 0 && (! blocked || ! (worst <= bound)) && failures++ < 40)
              fprintf (stderr, "FAIL filter: %s order %d%s%s, %lld x %lld x %lld: %s at %lld "
                       "(%s %lld), difference %g, bound %g\n", scan_type_name (d.type), K,
                       d.fir ? " FIR" : "", fused ? " fused" : "", (long long) d.inner,
                       (long long) d.len, (long long) d.outer,
                       blocked ? "beyond the bound" : "not the CPU engine's bits",
                       (long long) bad_at, bad_at < n ? "y" : "zf",
                       (long long) (bad_at < n ? bad_at : bad_at - n), worst, bound);
          }
  if (ws)
    CHECK (cudaFree (ws));
  CHECK (cudaFree (dzi));
  CHECK (cudaFree (dzf));
  free (zi);
  free (zf);
  free (ref_zf);
  runs += filter_runs;
  printf ("  filter      kernels %4ld checks, %ld failed\n", filter_runs, failures - failures_before);
}

/* A device reset (the CUDA engine's answer to a sticky error) ends the CUDA context: what
   the kernels kept of it (the address of a native sum's redo word, shared-memory opt-ins)
   goes with their gsk_context, and the scans work in the new one.  (Whether a stale
   address fails depends on where the new context loads the kernels: the Octave suite's
   fresh-process test is the one that failed when they outlived the reset.) */
static void check_context_reset (void *x, void *y, void *ref, double *ix, double *ref_ix,
                                 size_t max_bytes, int64_t max_n)
{
  scan_desc h = { 0 };
  h.inner = h.outer = 1;
  h.len = 100003;
  h.x = x;
  for (int round = 0; round < 2; round++)
    {
      const char *what = round ? "after a device reset" : "before a device reset";
      if (! round)
        {
          h.type = SCAN_DOUBLE;
          h.op = SCAN_SUM;
          fill (h.type, h.op, x, h.len);
          check (&h, GSK_DECOUPLED, y, ref, ix, ref_ix, what);
        }
      h.type = SCAN_INT32;
      h.op = SCAN_SATSUM;
      h.exclusive = 0;
      h.index = NULL;
      fill (h.type, h.op, x, h.len);
      check (&h, GSK_DECOUPLED, y, ref, ix, ref_ix, what);
      h.type = SCAN_SINGLE;   /* exclusive, with the index: staged indices, 51 KiB a block */
      h.op = SCAN_MAX;
      h.exclusive = 1;
      h.index = ref_ix;
      fill (h.type, h.op, x, h.len);
      check (&h, GSK_DECOUPLED, y, ref, ix, ref_ix, what);
      if (round)
        break;
      gsk_context_free (ctx);
      CHECK (cudaDeviceReset ());
      if (! (ctx = new_context ()))
        return (void) (failures++, fprintf (stderr, "FAIL gsk_context_new after a reset\n"));
      CHECK (cudaMalloc (&dx, max_bytes));
      CHECK (cudaMalloc (&dy, max_bytes));
      CHECK (cudaMalloc (&dix, max_n * 8));
      CHECK (cudaMalloc (&dheads, max_n + 1));
      dwork = NULL;
      work_bytes = 0;
    }
}

int main (int argc, char **argv)
{
  int quick = 0, large = 0, tiny = 0;
  for (int i = 1; i < argc; i++)
    {
      tiny |= strcmp (argv[i], "--tiny") == 0;
      quick |= strcmp (argv[i], "--quick") == 0 || tiny;
      large |= strcmp (argv[i], "--large") == 0;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  struct timespec t0;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  int count = 0;
  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0)
    {
      printf ("gpu_selftest: SKIP: no CUDA device\n");
      return 77;
    }
  struct cudaDeviceProp prop;
  CHECK (cudaGetDeviceProperties (&prop, 0));
  printf ("gpu_selftest on %s (sm_%d%d)%s\n", prop.name, prop.major, prop.minor,
          quick ? ", quick" : "");

  /* (the striped rounds below need 6144 * 3000 + 7 elements) */
  const int64_t max_n = large ? (int64_t) 1 << 28 : 6144 * 3008;
  const size_t max_bytes = (size_t) max_n * 16;
  void *x = malloc (max_bytes), *y = malloc (max_bytes), *ref = malloc (max_bytes);
  double *ix = malloc (max_n * 8), *ref_ix = malloc (max_n * 8);
  uint8_t *heads = malloc (max_n + 1);
  if (! x || ! y || ! ref || ! ix || ! ref_ix || ! heads)
    return fprintf (stderr, "out of host memory\n"), 1;
  CHECK (cudaMalloc (&dx, max_bytes));
  CHECK (cudaMalloc (&dy, max_bytes));
  CHECK (cudaMalloc (&dix, max_n * 8));
  CHECK (cudaMalloc (&dheads, max_n + 1));
  if (! (ctx = new_context ()))
    return 1;
  char tuning[256];
  gsk_context_describe (ctx, tuning, sizeof tuning);
  printf ("gpu_selftest: %s\n", tuning);

  check_context_reset (x, y, ref, ix, ref_ix, max_bytes, max_n);

  /* tiles hold 1024, 2048 or 4096 elements, from 2^21 elements 3072 (8-byte floating),
     4096 (8-byte integers) or 6144 (4 bytes), or, in the striped kernel (4-byte sums and
     products), 6144 (5120 for several lines or head flags, tested below), and 16384 or
     8192 (1- and 2-byte elements); sizes at and around their multiples, odd and even */
  static const int64_t sizes_full[] = { 0, 1, 2, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025,
    2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 8193, 12288, 65535, 65536, 65537,
    100003, 1048575, 1048577, 3072 * 683 - 1, 4096 * 600 + 1, 4096 * 513 - 1, 6144 * 342 - 1,
    12288 * 171 - 1, 12288 * 200 + 1, 6144 * 343 + 1, 6144 * 401 - 1, 16384 * 130, (1 << 22) - 1 };
  static const int64_t sizes_quick[] = { 0, 1, 33, 1023, 1025, 2048, 4097, 70001, 12288 * 171 - 1 };
  const int64_t *sizes = quick ? sizes_quick : sizes_full;
  const int nsizes = quick ? (int) (sizeof sizes_quick / sizeof *sizes_quick)
                           : (int) (sizeof sizes_full / sizeof *sizes_full);
  /* the third: sums, in the large tiles, and native sums of 4- and 8-byte integers, with
     more tiles than the gated exact pass has blocks (they take the tiles in turn) */
  const int64_t mode_sizes[3] = { 5000, quick ? 20011 : 70001, ((int64_t) 1 << 22) + 7 };

  for (int a = 0; a < GSK_NALGORITHMS; a++)
    for (int t = 0; t < SCAN_NTYPES; t++)
      {
        const long runs_before = runs, failures_before = failures;
        for (int op = 0; op < SCAN_NOPS; op++)
          {
            scan_desc h = { 0 };
            h.type = (scan_type) t;
            h.op = (scan_op) op;
            h.inner = h.outer = 1;
            h.len = 1;
            /* (recurrences need coefficients: their own section below) */
            if (! gsk_supports (&h) || op == SCAN_RECURRENCE)
              continue;
            /* --quick (for the sanitizers): the four benchmark types only */
            if (quick && t != SCAN_DOUBLE && t != SCAN_SINGLE && t != SCAN_INT32 && t != SCAN_INT64)
              continue;
            /* --tiny (racecheck, which is slow): double only */
            if (tiny && t != SCAN_DOUBLE)
              continue;
            /* an algorithm is tested where it runs; elsewhere it is the decoupled scan */
            if (a != GSK_DECOUPLED && gsk_effective_algorithm (&h, a) == GSK_DECOUPLED
                && a != GSK_CUB)
              continue;
            const int cub = a == GSK_CUB;
            /* sizes: one plain line */
            for (int s = 0; s < nsizes; s++)
              {
                h.len = sizes[s];
                if (cub && gsk_effective_algorithm (&h, a) != GSK_CUB)
                  continue;
                h.x = x;
                fill (h.type, h.op, x, h.len);
                check (&h, (gsk_algorithm) a, y, ref, ix, ref_ix, "sizes");
              }
            if (cub)
              continue;
            /* modes x shapes x heads */
            for (int m = quick; m < 3; m++)
              for (int shape = 0; shape < 5
                   && (m < 2 || (! quick && (op == SCAN_SUM
                                             || (op == SCAN_SATSUM && scan_type_size (h.type) >= 4))));
                   shape++)
                for (int excl = 0; excl < 2; excl++)
                  for (int rev = 0; rev < 2; rev++)
                    for (int hk = 0; hk < 3; hk++)
                      {
                        const int64_t n = mode_sizes[m];
                        /* batched lines; across vectors in lane runs; in lane tiles
                           (a partial group of 32 lanes, several slices; whole groups) */
                        static const int64_t inners[5] = { 1, 1, 7, 37, 64 }, outers[5] = { 1, 5, 1, 3, 1 };
                        scan_desc c = h;
                        c.inner = inners[shape];
                        c.outer = outers[shape];
                        c.len = n / (c.inner * c.outer);
                        c.exclusive = excl;
                        c.reverse = rev;
                        c.heads_full = hk == 2;
                        c.heads = hk ? heads : NULL;
                        c.reproducible = excl == rev;   /* (half of them, every shape) */
                        const int64_t nh = hk == 2 ? scan_numel (&c) : c.len;
                        for (int64_t i = 0; i < nh; i++)
                          heads[i] = next () % 613 == 0 || i == 2048 || i == 4096;
                        check_case (c, (gsk_algorithm) a, x, y, ref, ix, ref_ix, "modes");
                      }
            /* the striped kernel's lines and heads (4-byte sums and products from 2^21
               elements, tiles of 5120): lines shorter and longer than a row of vectors,
               line starts inside a vector, lines across tiles, full head flags */
            static const int64_t line_lens[] = { 4, 5, 7, 1023, 4096, 4099, 5120 * 3 + 1, 5120 * 6 + 1,
                                                 5120 * 410 - 1 };
            static const int64_t line_lens_quick[] = { 5, 4099 };
            const int64_t *lens = quick ? line_lens_quick : line_lens;
            const int nlens = quick ? 2 : (int) (sizeof line_lens / sizeof *line_lens);
            if (scan_type_size (h.type) == 4 && ! tiny
                && (op == SCAN_SUM || op == SCAN_PROD || op == SCAN_SATSUM))
              for (int l = 0; l < nlens; l++)
                for (int hk = 0; hk < 2; hk++)
                  {
                    const int64_t len = lens[l];
                    scan_desc c = h;
                    c.len = len;
                    c.outer = (((int64_t) 1 << 21) + len) / len;   /* (more than 2^21 elements) */
                    c.heads_full = hk;
                    c.heads = hk ? heads : NULL;
                    for (int64_t i = 0; hk && i < scan_numel (&c); i++)
                      heads[i] = next () % 5003 == 0;
                    check_case (c, (gsk_algorithm) a, x, y, ref, ix, ref_ix, "striped lines");
                  }
            /* the striped kernels over more tiles than the GPU holds at once (132 SMs x 6
               blocks), whose look-back is paced: the last tile full or partial; exclusive;
               lines across tiles; head flags; reverse (mirrored tiles: lengths of whole
               vectors, the last tile full or partial, inclusive and exclusive) */
            static const int64_t round_sizes[2] = { 6144 * 3000, 6144 * 3000 + 7 };
            if (scan_type_size (h.type) == 4 && ! tiny && a == GSK_DECOUPLED
                && (op == SCAN_SUM || op == SCAN_PROD || op == SCAN_SATSUM))
              for (int v = 0; v < 8; v++)
                {
                  if (quick && v >= 2 && v != 6)
                    continue;
                  scan_desc c = h;
                  c.len = round_sizes[v % 2];
                  c.exclusive = v == 2 || v == 7;
                  if (v >= 5)
                    {
                      c.len = v == 5 ? round_sizes[0] : round_sizes[0] + 4;
                      c.reverse = 1;
                    }
                  if (v == 3)
                    {
                      c.len = 4099;
                      c.outer = round_sizes[0] / c.len + 1;
                    }
                  c.heads_full = v == 4;
                  c.heads = v == 4 ? heads : NULL;
                  c.reproducible = v % 2 == 0;
                  for (int64_t i = 0; c.heads && i < scan_numel (&c); i++)
                    heads[i] = next () % 5003 == 0;
                  check_case (c, (gsk_algorithm) a, x, y, ref, ix, ref_ix, "striped rounds");
                }
            /* scans of 1- and 2-byte elements in the striped tiles (16384 or 8192
               elements: native sums, logical and bitwise scans) over more tiles than the
               GPU holds at once, whose look-back is paced: the last tile full and
               partial, exclusive (staged tiles), reverse (mirrored tiles: lengths of
               whole vectors, the last tile full and partial; other lengths staged), head
               flags (staged) */
            if (scan_type_size (h.type) <= 2 && ! tiny && ! quick && a == GSK_DECOUPLED
                && (op == SCAN_SATSUM || op == SCAN_AND || op == SCAN_OR || op == SCAN_XOR
                    || op == SCAN_BITAND || op == SCAN_BITOR || op == SCAN_BITXOR))
              for (int v = 0; v < 7; v++)
                {
                  static const int64_t extra[7] = { 0, 7, 0, 0, 7, 16, 7 };
                  scan_desc c = h;
                  c.len = 16384 * 1100 + extra[v];
                  c.exclusive = v == 1;
                  c.reverse = v == 2 || v == 5 || v == 6;
                  c.heads_full = v == 3;
                  c.heads = v == 3 ? heads : NULL;
                  for (int64_t i = 0; c.heads && i < scan_numel (&c); i++)
                    heads[i] = next () % 5003 == 0;
                  check_case (c, (gsk_algorithm) a, x, y, ref, ix, ref_ix, "narrow rounds");
                }
            /* max and min with the index, which decoupled inclusive scans of lines find
               from the values (kernels/agent/extremum_index.cuh, tiles of 4096): vectors, batched
               lines, full head flags (one at a tile's start), forward and reverse, sizes
               around its tiles; the largest (vectors of 4- and 8-byte types, which take
               that way) in more tiles than the GPU holds at once */
            static const int64_t index_sizes[] = { 1, 4095, 4096, 4097, 4096 * 3 + 1, 70001,
                                                   12288 * 171 - 1, ((int64_t) 1 << 22) + 7 };
            if ((op == SCAN_MAX || op == SCAN_MIN) && a == GSK_DECOUPLED && ! tiny)
              for (int s = 0; s < (quick ? 5 : 8); s++)
                for (int v = 0; v < 6; v++)
                  {
                    if (s == 7 && (v >= 2 || scan_type_size (h.type) < 4))
                      continue;
                    scan_desc c = h;
                    c.reverse = v % 2;
                    c.len = v / 2 != 1 ? index_sizes[s] : index_sizes[s] / 37 + 1;
                    c.outer = v / 2 != 1 ? 1 : 37;
                    c.heads_full = v >= 4;
                    c.heads = v >= 4 ? heads : NULL;
                    for (int64_t i = 0; c.heads && i < c.len; i++)
                      heads[i] = next () % 997 == 0 || i == 4096;
                    c.x = x;
                    c.index = ref_ix;
                    fill_walk (c.type, op == SCAN_MAX, c.reverse, x, scan_numel (&c));
                    check (&c, (gsk_algorithm) a, y, ref, ix, ref_ix, "index from values");
                  }
            /* line blocks (decoupled, 1024 lines or more of a tile or more: a block a
               line, its tiles in turn): lines of one tile of 4096 elements, of two or four
               tiles of 2048 or 1024 (larger states), and of 6151, which ends in a partial tile */
            static const int64_t block_lens[] = { 4096, 6151 };
            for (int l = 0; l < (quick ? 1 : 2) && a == GSK_DECOUPLED && ! tiny; l++)
              for (int v = 0; v < 12; v++)
                {
                  if (quick && v % 3 == 1)
                    continue;
                  scan_desc c = h;
                  c.len = block_lens[l];
                  c.outer = 1024;
                  c.exclusive = v / 6;
                  c.reverse = v / 3 % 2;
                  c.heads_full = v % 3 == 2;
                  c.heads = v % 3 ? heads : NULL;
                  const int64_t nh = c.heads_full ? scan_numel (&c) : c.len;
                  for (int64_t i = 0; i < nh; i++)
                    heads[i] = next () % 1499 == 0;
                  check_case (c, (gsk_algorithm) a, x, y, ref, ix, ref_ix, "line blocks");
                }
            /* lane tiles: steps around the tiles' rows (64, 128, 256 steps; 512 for singles
               in vectors); inner 32 and 36 take vectors of lanes (4- and 8-byte states; 36:
               a partial group), 33 not */
            static const int64_t steps[] = { 1, 31, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257,
                                             511, 512, 513, 1025 };
            static const int64_t tile_inners[3] = { 32, 33, 36 };
            for (int s = 0; s < (int) (sizeof steps / sizeof *steps) && ! quick; s++)
              for (int v = 0; v < 12; v++)
                {
                  scan_desc c = h;
                  c.inner = tile_inners[v % 3];
                  c.outer = 2;
                  c.len = steps[s];
                  c.reverse = v / 3 % 2;
                  c.exclusive = v / 6;
                  c.heads_full = v % 3 != 0;
                  c.heads = heads;
                  for (int64_t i = 0; i < scan_numel (&c); i++)
                    heads[i] = next () % 97 == 0;
                  check_case (c, (gsk_algorithm) a, x, y, ref, ix, ref_ix, "lane tiles");
                }
          }
        if (runs > runs_before)
          printf ("  %-11s %-7s %6ld scans, %ld failed (%.0f s)\n", alg_name[a],
                  scan_type_name ((scan_type) t), runs - runs_before, failures - failures_before,
                  seconds_since (&t0));
      }
  /* sums into double of narrower input, which the staged tiles read in its own class
     (gsk_reads_input): every class they take, every algorithm that reads it; sizes
     around the tiles, exclusive, reverse, head flags full and per step, batched lines, and
     1024 lines (which line blocks take where a tuning table lets them: those read x
     converted, and are skipped here) (32-bit values kept below 2^20 in magnitude, so that
     no grouping rounds) */
  if (! quick)
    {
      static const scan_input inputs[] = { SCAN_INPUT_LOGICAL, SCAN_INPUT_INT8, SCAN_INPUT_UINT8,
                                           SCAN_INPUT_INT16, SCAN_INPUT_UINT16, SCAN_INPUT_INT32,
                                           SCAN_INPUT_UINT32, SCAN_INPUT_SINGLE };
      static const int64_t narrow_sizes[] = { 1, 2, 33, 1023, 1025, 2049, 3071, 3073, 4097, 70001,
                                              3072 * 683 - 1, ((int64_t) 1 << 22) + 7 };
      const long runs_before = runs, failures_before = failures;
      for (int a = 0; a < GSK_NALGORITHMS; a++)
        for (int in = 0; in < (int) (sizeof inputs / sizeof *inputs); in++)
          for (int s = 0; s < (int) (sizeof narrow_sizes / sizeof *narrow_sizes); s++)
            for (int v = 0; v < 8; v++)
              {
                scan_desc c = { 0 };
                c.type = SCAN_DOUBLE;
                c.op = SCAN_SUM;
                c.input = inputs[in];
                c.inner = 1;
                c.len = narrow_sizes[s];
                c.outer = 1;
                c.exclusive = v == 1 || v == 7;
                c.reverse = v == 2 || v == 7;
                c.heads_full = v == 3;
                c.heads = v == 3 || v == 4 ? heads : NULL;
                if (v >= 5)   /* batched lines; many lines */
                  {
                    c.outer = v == 5 ? 5 : 1024;
                    c.len = v == 5 ? c.len / 5 + 1 : 4096 + s;
                  }
                if (! gsk_reads_input (ctx, &c, (gsk_algorithm) a)
                    || (a != GSK_DECOUPLED && gsk_effective_algorithm (&c, (gsk_algorithm) a) != a))
                  continue;
                const int64_t n = scan_numel (&c);
                for (int64_t i = 0; c.heads && i < (c.heads_full ? n : c.len); i++)
                  heads[i] = next () % 1499 == 0;
                const scan_type it = scan_input_type (&c);
                fill (it, SCAN_SUM, x, n);
                for (int64_t i = 0; (it == SCAN_INT32 || it == SCAN_UINT32) && i < n; i++)
                  if (it == SCAN_INT32)
                    ((int32_t *) x)[i] >>= 12;
                  else
                    ((uint32_t *) x)[i] >>= 12;
                c.x = x;
                check (&c, (gsk_algorithm) a, y, ref, ix, ref_ix, "narrow input");
              }
      printf ("  narrow input sums into double %4ld scans, %ld failed (%.0f s)\n",
              runs - runs_before, failures - failures_before, seconds_since (&t0));
    }
  /* "omitnan": sums and products of the four floating types with NaN (left out) and +-Inf
     in the data, every algorithm, vectors and lanes, inclusive, exclusive, reverse,
     segmented */
  if (! tiny)
    {
      static const scan_type nan_types[] = { SCAN_DOUBLE, SCAN_SINGLE, SCAN_CDOUBLE, SCAN_CSINGLE };
      const long runs_before = runs, failures_before = failures;
      for (int a = 0; a < GSK_NALGORITHMS; a++)
        for (int t = 0; t < 4; t++)
          for (int op = 0; op < 2; op++)
            for (int s = 0; s < 5; s++)
              for (int m = 0; m < 5; m++)
                {
                  /* (33 lanes of 70001 complex at most: the buffers' size) */
                  scan_desc h = flag_case (nan_types[t], op ? SCAN_PROD : SCAN_SUM, flag_sizes[s], m,
                                           t >= 2 ? 70001 : INT64_MAX, heads, x);
                  h.nan_rule = SCAN_NAN_OMIT;
                  fill_nan (h.type, h.op, x, scan_numel (&h), s % 2);
                  check (&h, (gsk_algorithm) a, y, ref, ix, ref_ix, "omitnan");
                }
      printf ("  omitnan     sums and products %4ld scans, %ld failed (%.0f s)\n",
              runs - runs_before, failures - failures_before, seconds_since (&t0));
    }
  /* "accurate" sums of the four floating types: data m 2^k (|m| < 2^20, |k| <= 30),
     whose prefixes are exact in a double-double's 106 bits in any grouping, so that
     the GPU must give the CPU engine's bits; and "reproducible" (as the gateway sets
     it): a second run gives the same bits */
  if (! tiny)
    {
      static const scan_type acc_types[] = { SCAN_DOUBLE, SCAN_SINGLE, SCAN_CDOUBLE, SCAN_CSINGLE };
      const long runs_before = runs, failures_before = failures;
      for (int a = 0; a < GSK_NALGORITHMS; a++)
        for (int t = 0; t < 4; t++)
          for (int s = 0; s < 5; s++)
            for (int m = 0; m < 5; m++)
              {
                /* (33 lanes of 70001 at most: the buffers hold 6144 * 3008 elements) */
                scan_desc h = flag_case (acc_types[t], SCAN_SUM, flag_sizes[s], m, 70001, heads, x);
                h.accurate = h.reproducible = 1;
                const int64_t parts = scan_numel (&h) * (t >= 2 ? 2 : 1);
                for (int64_t i = 0; i < parts; i++)
                  {
                    const uint64_t r = next ();
                    put_part (t % 2, x, i, ldexp ((double) (int64_t) (r % (1 << 20)) * ((r >> 20) & 1 ? -1 : 1),
                                                  (int) ((r >> 21) % 61) - 30));
                  }
                check (&h, (gsk_algorithm) a, y, ref, ix, ref_ix, "accurate");
              }
      printf ("  accurate    sums %4ld scans, %ld failed (%.0f s)\n",
              runs - runs_before, failures - failures_before, seconds_since (&t0));
    }
  /* "includenan" max and min of doubles and singles (the first NaN wins, with its
     position), with the index output every other time: walks with NaN now and then */
  if (! tiny)
    {
      const long runs_before = runs, failures_before = failures;
      for (int a = 0; a < GSK_NALGORITHMS; a++)
        for (int t = 0; t < 2; t++)
          for (int op = 0; op < 2; op++)
            for (int s = 0; s < 5; s++)
              for (int m = 0; m < 5; m++)
                {
                  scan_desc h = flag_case (t ? SCAN_SINGLE : SCAN_DOUBLE, op ? SCAN_MIN : SCAN_MAX,
                                           flag_sizes[s], m, 70001, heads, x);
                  h.nan_rule = SCAN_NAN_INCLUDE;
                  h.index = (s + m) % 2 ? ref_ix : NULL;
                  fill_walk (h.type, op == 0, h.reverse, x, scan_numel (&h));
                  check (&h, (gsk_algorithm) a, y, ref, ix, ref_ix, "includenan");
                }
      printf ("  includenan  max and min %4ld scans, %ld failed (%.0f s)\n",
              runs - runs_before, failures - failures_before, seconds_since (&t0));
    }
  /* linear recurrences of the four floating types: a(k) in {1, -1} (complex: also +-i)
     and now and then 0, b(k) small integers, y0 0 or 2 (complex 2 - i), so that every
     map and output is exact in any grouping and the GPU must give the CPU engine's
     values; a scalar a every other case; "reproducible" half of the time */
  if (! tiny)
    {
      static const scan_type rec_types[] = { SCAN_DOUBLE, SCAN_SINGLE, SCAN_CDOUBLE, SCAN_CSINGLE };
      const int64_t coef_max = 33 * 70001;   /* (the lanes' case, the largest) */
      void *coef = malloc ((size_t) coef_max * 16);
      if (! coef)
        return fprintf (stderr, "out of host memory\n"), 1;
      CHECK (cudaMalloc (&dcoef, (size_t) coef_max * 16));
      const long runs_before = runs, failures_before = failures;
      for (int a = 0; a < GSK_NALGORITHMS; a++)
        for (int t = 0; t < 4; t++)
          for (int s = 0; s < 5; s++)
            for (int m = 0; m < 5; m++)
              {
                scan_desc h = flag_case (rec_types[t], SCAN_RECURRENCE, flag_sizes[s], m, 70001, heads, x);
                const int cplx = t >= 2, single = t % 2;
                const int64_t n = scan_numel (&h);
                h.coef = coef;
                h.coef_scalar = (s + m) % 2;
                h.reproducible = (s + m + a) % 2;
                h.initial[0] = (s + t) % 2 ? 2 : 0;
                h.initial[1] = cplx && h.initial[0] ? -1 : 0;
                for (int64_t i = 0; i < (h.coef_scalar ? 1 : n); i++)
                  {
                    const uint64_t r = next ();
                    const int k = (int) (r % (cplx ? 4 : 2));
                    double re = k == 0 ? 1 : k == 1 ? -1 : 0, im = k == 2 ? 1 : k == 3 ? -1 : 0;
                    if ((r >> 8) % 50 == 0 && ! h.coef_scalar)
                      re = im = 0;
                    put_part (single, coef, cplx ? 2 * i : i, re);
                    if (cplx)
                      put_part (single, coef, 2 * i + 1, im);
                  }
                for (int64_t i = 0; i < n * (cplx ? 2 : 1); i++)
                  put_part (single, x, i, (int) (next () % 7) - 3);
                check (&h, (gsk_algorithm) a, y, ref, ix, ref_ix, "recurrence");
              }
      CHECK (cudaFree (dcoef));
      dcoef = NULL;
      free (coef);
      printf ("  recurrence  %4ld scans, %ld failed (%.0f s)\n",
              runs - runs_before, failures - failures_before, seconds_since (&t0));
    }
  /* "groups": the labels' order and head flags (labels with ties, -0 beside 0, NaN, +-Inf)
     and the moves along a dimension, gather, scatter and an index output's mapping, for
     every element size, against the CPU versions */
  {
    static const int64_t group_sizes[] = { 1, 2, 1000, 70001, 1 << 20 };
    static const double specials[] = { 0.0, -0.0, NAN, INFINITY, -INFINITY, 1.5, -3.0 };
    const long failures_before = failures;
    int64_t group_runs = 0;
    for (int s = 0; s < 5; s++)
      {
        const int64_t n = group_sizes[s];
        double *keys = ref_ix;   /* (host: n labels) */
        int64_t *order = malloc ((size_t) n * 8), *gorder = malloc ((size_t) n * 8);
        uint8_t *gheads = malloc ((size_t) n);
        void *dorder, *dws;
        const size_t ws = gsk_group_order_workspace_bytes (n);
        CHECK (cudaMalloc (&dorder, (size_t) n * 8));
        CHECK (cudaMalloc (&dws, ws));
        /* labels: with specials (sorted as doubles), integers of a small range around
           -5e8 (as 32-bit offsets), integers whose range passes 32 bits (as doubles) */
        for (int v = 0; v < 3; v++)
          {
            for (int64_t i = 0; i < n; i++)
              {
                const uint64_t r = next ();
                const double small = (double) ((r >> 12) % (s * 40 + 3));
                keys[i] = v == 0 ? (r % 5 == 0 ? specials[(r >> 8) % 7] : small)
                          : v == 1 ? (r % 7 == 0 ? -0.0 : small - 5e8)
                          : (r % 3 == 0 ? 5e9 : -small);
              }
            CHECK (cudaMemcpy (dx, keys, (size_t) n * 8, cudaMemcpyHostToDevice));
            CHECK (gsk_group_order (ctx, dx, n, dorder, dheads, dws, 0));
            CHECK (cudaMemcpy (gorder, dorder, (size_t) n * 8, cudaMemcpyDeviceToHost));
            CHECK (cudaMemcpy (gheads, dheads, (size_t) n, cudaMemcpyDeviceToHost));
            if (cpu_group_order (keys, n, order, heads) != 0)
              return fprintf (stderr, "out of host memory\n"), 1;
            group_runs++;
            if ((memcmp (order, gorder, (size_t) n * 8) != 0 || memcmp (heads, gheads, (size_t) n) != 0)
                && failures++ < 20)
              fprintf (stderr, "FAIL groups: the order or head flags of %lld labels (kind %d) differ\n",
                       (long long) n, v);
          }
        /* moves of (inner, n, outer) elements, every size, and an index output */
        static const size_t sizes_b[] = { 1, 2, 4, 8, 16 };
        for (int b = 0; b < 6; b++)
          for (int scatter = 0; scatter < 2; scatter++)
            {
              const int index_map = b == 5;
              const size_t es = index_map ? 8 : sizes_b[b];
              const int64_t inner = s < 3 ? 3 : 1, outer = s < 3 ? 2 : 1, m = inner * n * outer;
              for (int64_t i = 0; i < m * (int64_t) es; i++)
                ((uint8_t *) x)[i] = (uint8_t) next ();
              if (index_map)
                for (int64_t i = 0; i < m; i++)
                  ((double *) x)[i] = (double) (next () % (n + 1));   /* 0: none */
              CHECK (cudaMemcpy (dx, x, (size_t) m * es, cudaMemcpyHostToDevice));
              CHECK (cudaMemset (dy, 0xAB, (size_t) m * es));
              CHECK (gsk_permute (ctx, es, dx, dy, inner, n, outer, dorder, scatter, index_map, 0));
              CHECK (cudaMemcpy (y, dy, (size_t) m * es, cudaMemcpyDeviceToHost));
              cpu_permute (es, x, ref, inner, n, outer, order, scatter, index_map);
              group_runs++;
              if (memcmp (y, ref, (size_t) m * es) != 0 && failures++ < 20)
                fprintf (stderr, "FAIL groups: %s of %zu-byte elements (%lld x %lld x %lld%s) differs\n",
                         scatter ? "scatter" : "gather", es, (long long) inner, (long long) n,
                         (long long) outer, index_map ? ", index mapped" : "");
            }
        CHECK (cudaFree (dorder));
        CHECK (cudaFree (dws));
        free (order);
        free (gorder);
        free (gheads);
      }
    runs += group_runs;
    printf ("  groups      orders and moves %4lld checks, %ld failed (%.0f s)\n",
            (long long) group_runs, failures - failures_before, seconds_since (&t0));
  }
  if (large)
    {
      static const scan_type big[3] = { SCAN_DOUBLE, SCAN_SINGLE, SCAN_INT32 };
      for (int b = 0; b < 3; b++)
        for (int a = 0; a < GSK_NALGORITHMS; a++)
          {
            scan_desc h = { 0 };
            h.type = big[b];
            h.op = big[b] == SCAN_INT32 ? SCAN_MAX : SCAN_SUM;
            h.inner = h.outer = 1;
            h.len = max_n;
            h.x = x;
            if (gsk_effective_algorithm (&h, a) != (gsk_algorithm) a)
              continue;
            fill (h.type, h.op, x, h.len);
            check (&h, (gsk_algorithm) a, y, ref, ix, ref_ix, "2^28");
          }
    }
  check_compaction (quick, x, y, ref, (uint8_t *) heads);
  check_label_tiles (quick, x, y, ref, ref_ix);
  check_filter (quick, x, y, ref);
  printf ("gpu_selftest: %ld scans, %ld failed: %s (%.0f s)\n", runs, failures,
          failures ? "FAIL" : "PASS", seconds_since (&t0));
  gsk_context_free (ctx);
  return failures ? 1 : 0;
}

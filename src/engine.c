/* Host engine dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chunked_scan.h"
#include "cpu_array_ops.h"
#include "cpu_engine.h"
#include "cpu_pool.h"
#include "device_arrays.h"
#include "engine.h"
#ifdef GPUSCAN_WITH_CUDA
#include "cuda_engine.h"
#endif

static const char *const algorithm_names[ALG_COUNT] = {
  "auto", "cpu", "kogge-stone", "brent-kung", "decoupled", "cub" };

const char *engine_algorithm_name (scan_algorithm a)
{
  return a < ALG_COUNT ? algorithm_names[a] : "?";
}

int engine_algorithm_from_name (const char *name)
{
  for (int a = 0; a < ALG_COUNT; a++)
    if (strcasecmp (name, algorithm_names[a]) == 0)
      return a;
  return -1;
}

static engine_warning_handler warning_handler;

void engine_set_warning_handler (engine_warning_handler h)
{
  warning_handler = h;
}

void engine_warn (const char *id, const char *msg)
{
  if (warning_handler)
    warning_handler (id, msg);
  else
    fprintf (stderr, "warning: gpuscan: %s\n", msg);
}

void engine_get_info (engine_info *info)
{
  memset (info, 0, sizeof *info);
  info->cpu_threads = cpu_threads ();
  for (int c = 0; c < SHAPE_CLASSES; c++)
    info->crossover[c] = -1;   /* nothing measured (no GPU: never) */
#ifdef GPUSCAN_WITH_CUDA
  info->has_cuda = 1;
  info->cuda_archs = GPUSCAN_CUDA_ARCHS;
  cuda_engine_info (info);
#else
  info->cuda_archs = "";
  snprintf (info->gpu_status, sizeof info->gpu_status, "built without CUDA");
#endif
  device_arrays_info (info);
#ifdef GPUSCAN_FAULT_INJECTION
  info->fault_injection = 1;
#endif
}

void engine_release (void)
{
  cpu_pool_release ();
  device_arrays_release ();
#ifdef GPUSCAN_WITH_CUDA
  cuda_engine_release ();
#endif
}

/* unloading the oct-file (clear functions, clear all, exit) gives everything back */
__attribute__ ((destructor)) static void unload (void)
{
  engine_release ();
}

int64_t engine_count_nonzero (const uint8_t *mask, int64_t n)
{
  return cpu_count_nonzero (mask, n);
}

void engine_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y)
{
  cpu_compact (elem_bytes, x, mask, n, y);
}

/* ---- the chunk driver on host buffers: GPUSCAN_CHUNK_ELEMENTS with "cpu" tests the
   GPU engine's chunk and carry logic where there is no GPU ---- */
static void host_moves (const chunk_moves *ms, int to_engine)
{
  for (int i = 0; ms && i < ms->count; i++)
    {
      const chunk_move *m = &ms->m[i];
      for (int64_t r = 0; r < m->rows; r++)
        {
          char *e = (char *) m->engine + (size_t) r * m->row_bytes;
          char *h = m->host + (size_t) r * (m->pitch ? m->pitch : m->row_bytes);
          memcpy (to_engine ? e : h, to_engine ? h : e, m->row_bytes);
        }
    }
}
static int host_transfer (void *ctx, const chunk_moves *put, const chunk_moves *get)
{
  (void) ctx;
  host_moves (put, 1);
  host_moves (get, 0);
  return 0;
}
static int host_copy_bytes (void *ctx, int slot, void *dst, const void *src, size_t bytes)
{ (void) ctx; (void) slot; memcpy (dst, src, bytes); return 0; }
static int host_scan (void *ctx, int slot, const scan_desc *d)
{ (void) ctx; (void) slot; return cpu_scan (d); }
static int host_fix_index (void *ctx, int slot, double *ix, int64_t lanes, int64_t steps,
                           double carry_pos, const double *carry_ix, double shift)
{
  (void) ctx;
  (void) slot;
  for (int64_t i = 0; i < lanes * steps; i++)
    if (ix[i] != 0)
      ix[i] = ix[i] == carry_pos ? carry_ix[i % lanes] : ix[i] + shift;
  return 0;
}

static int cpu_scan_chunked (const scan_desc *d, int64_t chunk)
{
  const int64_t m = chunk_buffer_elements (d, chunk);
  const size_t es = scan_type_size (d->type);
  chunk_backend b = { 0 };
  b.transfer = host_transfer;
  b.copy = host_copy_bytes;
  b.scan = host_scan;
  b.fix_index = host_fix_index;
  b.carry_index = malloc ((size_t) (d->inner < chunk ? d->inner : chunk) * sizeof (double));
  int ok = b.carry_index != NULL;
  for (int s = 0; s < 2; s++)
    {
      chunk_slot *c = &b.slot[s];
      c->in = malloc ((size_t) m * es);
      c->out = malloc ((size_t) m * es);
      c->heads = malloc ((size_t) (m > d->len ? m : d->len));
      c->index = malloc ((size_t) m * sizeof (double));
      ok = ok && c->in && c->out && c->heads && c->index;
    }
  const int err = ok ? chunked_scan (d, chunk, &b) : -1;
  for (int s = 0; s < 2; s++)
    {
      free (b.slot[s].in);
      free (b.slot[s].out);
      free (b.slot[s].heads);
      free (b.slot[s].index);
    }
  free (b.carry_index);
  return err;
}

static engine_status run_cpu (const scan_desc *d, char *msg, size_t msg_size)
{
  const int64_t chunk = chunk_elements_forced ();
  /* (the chunks carry a state as an element: "omitnan" would leave out a NaN state, and
     an accurate sum's state has more than an element's bits; the GPU engine, whose
     chunk logic this tests, takes neither) */
  if (chunk && scan_numel (d) > chunk && d->nan_rule != SCAN_NAN_OMIT && ! d->accurate)
    {
      if (cpu_scan_chunked (d, chunk) == 0)
        return ENGINE_OK;
    }
  else if (cpu_scan (d) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no CPU scan for %s %s", scan_op_name (d->op),
            scan_type_name (d->type));
  return ENGINE_UNSUPPORTED;
}

engine_status engine_algorithm_forced (scan_algorithm *a, char *msg, size_t msg_size)
{
  const char *name = getenv ("GPUSCAN_ALGORITHM");
  if (*a != ALG_AUTO || ! name || ! *name)
    return ENGINE_OK;
  const int forced = engine_algorithm_from_name (name);
  if (forced < 0)
    {
      snprintf (msg, msg_size, "GPUSCAN_ALGORITHM=\"%.60s\" names no algorithm; known: auto, "
                "cpu, kogge-stone, brent-kung, decoupled, cub", name);
      return ENGINE_BAD_SETTING;
    }
  *a = (scan_algorithm) forced;
  return ENGINE_OK;
}

engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size)
{
  const engine_status forced = engine_algorithm_forced (&a, msg, msg_size);
  if (forced != ENGINE_OK)
    return forced;
  /* nothing to scan: no engine is asked (the GPU path would size buffers from 0) */
  if (scan_numel (d) == 0)
    return ENGINE_OK;
  if (a == ALG_CPU)
    return run_cpu (d, msg, msg_size);
#ifdef GPUSCAN_WITH_CUDA
  return cuda_engine_scan (d, a, msg, msg_size, run_cpu);
#else
  if (a == ALG_AUTO)
    return run_cpu (d, msg, msg_size);
  snprintf (msg, msg_size, "algorithm '%s' needs the CUDA engine, and this build of "
            "gpuscan has none (configured without CUDA)", engine_algorithm_name (a));
  return ENGINE_NO_GPU;
#endif
}

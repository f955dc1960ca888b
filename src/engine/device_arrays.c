/* Device arrays: a registry from ids to device memory, and the operations on it, on the
   CUDA backend or (GPUSCAN_HOST_ARRAYS=1, for tests) on host memory with the CPU engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_engine.h"
#include "engine/algorithms.h"
#include "engine/device_arrays.h"
#include "engine/settings.h"
#ifdef GPUSCAN_WITH_CUDA
#include "cuda/cuda_engine.h"
#endif

typedef enum backend { BACKEND_UNKNOWN, BACKEND_NONE, BACKEND_CUDA, BACKEND_HOST } backend;

typedef struct entry
{
  engine_array id;
  void *p;
  size_t bytes;
  unsigned generation;   /* the CUDA engine's generation at allocation */
} entry;

static struct registry
{
  backend backend;
  char why[256];         /* why there is no backend */
  entry *e;
  size_t n, cap;
  engine_array next;     /* ids start from the load time: ids of an earlier load stay unknown */
} reg;

static unsigned current_generation (void)
{
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_generation ();
#endif
  return 0;
}

static backend pick_backend (void)
{
  if (reg.backend != BACKEND_UNKNOWN)
    return reg.backend;
  struct timespec t;
  clock_gettime (CLOCK_REALTIME, &t);
  reg.next = (engine_array) t.tv_sec * 1000000000u + (engine_array) t.tv_nsec;
  if (settings_host_arrays ())
    return reg.backend = BACKEND_HOST;
#ifdef GPUSCAN_WITH_CUDA
  if (cuda_engine_ready ())
    return reg.backend = BACKEND_CUDA;
  snprintf (reg.why, sizeof reg.why, "device arrays need a GPU: %.200s", cuda_engine_status ());
#else
  snprintf (reg.why, sizeof reg.why, "device arrays need a GPU, and this build of gpuscan "
            "has no CUDA engine (configured without CUDA)");
#endif
  return reg.backend = BACKEND_NONE;
}

static void backend_free (void *p)
{
  if (reg.backend == BACKEND_HOST)
    free (p);
#ifdef GPUSCAN_WITH_CUDA
  else if (reg.backend == BACKEND_CUDA)
    cuda_engine_free (p);
#endif
}

static entry *find (engine_array id)
{
  for (size_t i = 0; i < reg.n; i++)
    if (reg.e[i].id == id)
      return &reg.e[i];
  return NULL;
}

static void drop (entry *e, int give_back)
{
  if (give_back)
    backend_free (e->p);
  *e = reg.e[--reg.n];
}

void *engine_array_data (engine_array id, size_t *bytes)
{
  entry *e = id ? find (id) : NULL;
  if (e && e->generation != current_generation ())
    {
      drop (e, 0);   /* the device was reset: the memory is gone already */
      e = NULL;
    }
  if (bytes)
    *bytes = e ? e->bytes : 0;
  return e ? e->p : NULL;
}

engine_status engine_array_new (size_t bytes, engine_array *id, char *msg, size_t msg_size)
{
  *id = 0;
  if (pick_backend () == BACKEND_NONE)
    {
      snprintf (msg, msg_size, "%s", reg.why);
      return ENGINE_NO_GPU;
    }
  if (bytes == 0)
    return ENGINE_OK;
  if (reg.n == reg.cap)
    {
      const size_t cap = reg.cap ? 2 * reg.cap : 64;
      entry *e = realloc (reg.e, cap * sizeof *e);
      if (! e)
        {
          snprintf (msg, msg_size, "out of host memory");
          return ENGINE_NO_MEMORY;
        }
      reg.e = e;
      reg.cap = cap;
    }
  void *p = NULL;
  if (reg.backend == BACKEND_HOST)
    {
      if (! (p = malloc (bytes)))
        {
          snprintf (msg, msg_size, "out of host memory for a %.2f GiB stand-in device array",
                    bytes / 1073741824.0);
          return ENGINE_NO_MEMORY;
        }
    }
#ifdef GPUSCAN_WITH_CUDA
  else
    {
      const engine_status s = cuda_engine_alloc (bytes, &p, msg, msg_size);
      if (s != ENGINE_OK)
        return s;
    }
#endif
  entry e = { reg.next++, p, bytes, current_generation () };
  reg.e[reg.n++] = e;
  *id = e.id;
  return ENGINE_OK;
}

void engine_array_free (engine_array id)
{
  entry *e = id ? find (id) : NULL;
  if (e)
    drop (e, e->generation == current_generation ());
}

void device_arrays_release (void)
{
  const unsigned g = current_generation ();
  for (size_t i = 0; i < reg.n; i++)
    if (reg.e[i].generation == g)
      backend_free (reg.e[i].p);
  free (reg.e);
  memset (&reg, 0, sizeof reg);
}

void device_arrays_info (const char **where, double *count, double *bytes)
{
  const backend b = pick_backend ();
  *where = b == BACKEND_CUDA ? "cuda" : b == BACKEND_HOST ? "host" : "";
  double sum = 0;
  for (size_t i = 0; i < reg.n; i++)
    sum += (double) reg.e[i].bytes;
  *count = (double) reg.n;
  *bytes = sum;
}

static engine_status unknown (char *msg, size_t msg_size)
{
  snprintf (msg, msg_size, "the device array no longer exists (gpuscan was unloaded or "
            "the GPU was reset)");
  return ENGINE_GPU_ERROR;
}

/* host <-> bytes [offset, offset + bytes) of an array: the checks and the backend choice
   shared by upload, download and read */
static engine_status transfer (engine_array id, size_t offset, void *host, size_t bytes,
                               int to_array, char *msg, size_t msg_size)
{
  size_t have;
  char *p = engine_array_data (id, &have);
  if (bytes == 0)
    return ENGINE_OK;
  if (! p || offset > have || have - offset < bytes)
    return unknown (msg, msg_size);
  p += offset;
  if (reg.backend == BACKEND_HOST)
    {
      memcpy (to_array ? p : host, to_array ? host : p, bytes);
      return ENGINE_OK;
    }
#ifdef GPUSCAN_WITH_CUDA
  return to_array ? cuda_engine_to_device (p, host, bytes, msg, msg_size)
                  : cuda_engine_to_host (host, p, bytes, msg, msg_size);
#else
  return unknown (msg, msg_size);
#endif
}

engine_status engine_array_upload (engine_array id, const void *host, size_t bytes,
                                   char *msg, size_t msg_size)
{
  return transfer (id, 0, (void *) host, bytes, 1, msg, msg_size);
}

engine_status engine_array_download (engine_array id, void *host, size_t bytes,
                                     char *msg, size_t msg_size)
{
  return transfer (id, 0, host, bytes, 0, msg, msg_size);
}

engine_status engine_array_read (engine_array id, size_t offset, void *host, size_t bytes,
                                 char *msg, size_t msg_size)
{
  return transfer (id, offset, host, bytes, 0, msg, msg_size);
}

engine_status engine_array_wait (char *msg, size_t msg_size)
{
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_wait (msg, msg_size);
#endif
  (void) msg;
  (void) msg_size;
  return ENGINE_OK;
}

engine_status engine_array_copy (engine_array src, engine_array *id, char *msg, size_t msg_size)
{
  size_t bytes;
  const void *p = engine_array_data (src, &bytes);
  *id = 0;
  if (! src)
    return engine_array_new (0, id, msg, msg_size);
  if (! p)
    return unknown (msg, msg_size);
  engine_status s = engine_array_new (bytes, id, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
  void *q = engine_array_data (*id, NULL);
  if (reg.backend == BACKEND_HOST)
    memcpy (q, p, bytes);
#ifdef GPUSCAN_WITH_CUDA
  else
    s = cuda_engine_copy (q, p, bytes, msg, msg_size);
#endif
  if (s != ENGINE_OK)
    {
      engine_array_free (*id);
      *id = 0;
    }
  return s;
}

static engine_status no_cpu_scan (const scan_desc *d, char *msg, size_t msg_size)
{
  snprintf (msg, msg_size, "no CPU scan for %s %s", scan_op_name (d->op),
            scan_type_name (d->type));
  return ENGINE_UNSUPPORTED;
}

#ifdef GPUSCAN_WITH_CUDA
/* What the kernels do not cover, and "cpu": through host memory and the CPU engine. */
static engine_status scan_through_host (const scan_desc *d, char *msg, size_t msg_size)
{
  const int64_t n = scan_numel (d);
  const size_t bytes = (size_t) n * scan_type_size (d->type);
  const size_t heads_bytes = d->heads ? (size_t) (d->heads_full ? n : d->len) : 0;
  const size_t coef_bytes = d->coef ? (d->coef_scalar ? 1 : (size_t) n) * scan_type_size (d->type) : 0;
  scan_desc h = *d;
  void *x = malloc (bytes), *y = malloc (bytes), *heads = heads_bytes ? malloc (heads_bytes) : NULL;
  void *coef = coef_bytes ? malloc (coef_bytes) : NULL;
  double *index = d->index ? malloc ((size_t) n * sizeof (double)) : NULL;
  engine_status s = ENGINE_OK;
  if (! x || ! y || (heads_bytes && ! heads) || (coef_bytes && ! coef) || (d->index && ! index))
    {
      snprintf (msg, msg_size, "out of host memory for a CPU scan of a device array");
      s = ENGINE_NO_MEMORY;
    }
  else if ((s = cuda_engine_to_host (x, d->x, bytes, msg, msg_size)) == ENGINE_OK
           && (! heads_bytes
               || (s = cuda_engine_to_host (heads, d->heads, heads_bytes, msg, msg_size)) == ENGINE_OK)
           && (! coef_bytes
               || (s = cuda_engine_to_host (coef, d->coef, coef_bytes, msg, msg_size)) == ENGINE_OK))
    {
      h.x = x;
      h.y = y;
      h.heads = heads;
      h.coef = coef;
      h.index = index;
      if (cpu_scan (&h, settings_cpu_parallel_min ()) != 0)
        s = no_cpu_scan (d, msg, msg_size);
      else if ((s = cuda_engine_to_device (d->y, y, bytes, msg, msg_size)) == ENGINE_OK && index)
        s = cuda_engine_to_device (d->index, index, (size_t) n * sizeof (double), msg, msg_size);
    }
  free (x);
  free (y);
  free (heads);
  free (coef);
  free (index);
  return s;
}
#endif

engine_status engine_array_scan (const scan_desc *d, scan_algorithm a, char *msg,
                                 size_t msg_size)
{
  const engine_status forced = engine_algorithm_forced (&a, msg, msg_size);
  if (forced != ENGINE_OK || scan_numel (d) == 0)
    return forced;
  if (reg.backend == BACKEND_HOST)
    return cpu_scan (d, settings_cpu_parallel_min ()) == 0 ? ENGINE_OK : no_cpu_scan (d, msg, msg_size);
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    {
      if (a != ALG_CPU)
        {
          const cuda_settings gpu = { 0, settings_show_plan (), settings_tuning (),
                                      settings_device_limits () };
          const engine_status s = cuda_engine_scan_resident (d, a, &gpu, msg, msg_size);
          if (s != ENGINE_UNSUPPORTED)
            return s;
        }
      return scan_through_host (d, msg, msg_size);
    }
#endif
  (void) a;
  return unknown (msg, msg_size);
}

engine_status engine_array_convert (scan_type from, scan_type to, const void *x, void *y,
                                    int64_t n, char *msg, size_t msg_size)
{
  if (reg.backend == BACKEND_HOST)
    {
      if (cpu_convert (from, to, x, y, n) == 0)
        return ENGINE_OK;
      snprintf (msg, msg_size, "no conversion from %s to %s", scan_type_name (from),
                scan_type_name (to));
      return ENGINE_UNSUPPORTED;
    }
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_convert (from, to, x, y, n, msg, msg_size);
#endif
  return unknown (msg, msg_size);
}

engine_status engine_array_elementwise (const elementwise_desc *d, char *msg, size_t msg_size)
{
  if (reg.backend == BACKEND_HOST)
    {
      cpu_elementwise (d);
      return ENGINE_OK;
    }
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_elementwise (d, msg, msg_size);
#endif
  return unknown (msg, msg_size);
}

engine_status engine_array_flags (scan_type t, const void *x, uint8_t *flags, int64_t n,
                                  int *has_nan, char *msg, size_t msg_size)
{
  *has_nan = 0;
  if (reg.backend == BACKEND_HOST)
    {
      *has_nan = cpu_nonzero_flags (t, x, flags, n) == 1;
      return ENGINE_OK;
    }
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_flags (t, x, flags, n, has_nan, msg, msg_size);
#endif
  return unknown (msg, msg_size);
}

engine_status engine_array_group_order (const double *keys, int64_t n, int64_t *order,
                                        uint8_t *heads, char *msg, size_t msg_size)
{
  if (reg.backend == BACKEND_HOST)
    {
      if (cpu_group_order (keys, n, order, heads) == 0)
        return ENGINE_OK;
      snprintf (msg, msg_size, "out of host memory for the groups' order");
      return ENGINE_NO_MEMORY;
    }
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_group_order (keys, n, order, heads, msg, msg_size);
#endif
  return unknown (msg, msg_size);
}

engine_status engine_array_permute (size_t elem_bytes, const void *x, void *y, int64_t inner,
                                    int64_t len, int64_t outer, const int64_t *order,
                                    int scatter, int index_map, char *msg, size_t msg_size)
{
  if (reg.backend == BACKEND_HOST)
    {
      cpu_permute (elem_bytes, x, y, inner, len, outer, order, scatter, index_map);
      return ENGINE_OK;
    }
#ifdef GPUSCAN_WITH_CUDA
  if (reg.backend == BACKEND_CUDA)
    return cuda_engine_permute (elem_bytes, x, y, inner, len, outer, order, scatter,
                                index_map, msg, msg_size);
#endif
  return unknown (msg, msg_size);
}

engine_status engine_array_compact (size_t elem_bytes, const void *x, const uint8_t *mask,
                                    int64_t n, engine_array *out, int64_t *kept, char *msg,
                                    size_t msg_size)
{
  *out = 0;
  *kept = 0;
  engine_status s;
  if (reg.backend == BACKEND_HOST)
    *kept = cpu_count_nonzero (mask, n);
#ifdef GPUSCAN_WITH_CUDA
  else if (reg.backend == BACKEND_CUDA)
    {
      if ((s = cuda_engine_compact_count (mask, n, kept, msg, msg_size)) != ENGINE_OK)
        return s;
    }
#endif
  else
    return unknown (msg, msg_size);
  if ((s = engine_array_new ((size_t) *kept * elem_bytes, out, msg, msg_size)) != ENGINE_OK
      || *kept == 0)
    return s;
  void *y = engine_array_data (*out, NULL);
  if (reg.backend == BACKEND_HOST)
    {
      cpu_compact (elem_bytes, x, mask, n, y);
      return ENGINE_OK;
    }
#ifdef GPUSCAN_WITH_CUDA
  /* the count left the tile offsets in the engine's workspace; nothing ran in between */
  if ((s = cuda_engine_compact_scatter (elem_bytes, x, mask, n, y, msg, msg_size)) != ENGINE_OK)
    {
      engine_array_free (*out);
      *out = 0;
    }
#endif
  return s;
}

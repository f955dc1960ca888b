/* Device arrays: a registry from ids to the memory of a backend (array_backend.h): the
   GPU, or (GPUSCAN_HOST_ARRAYS=1, for tests) host memory with the CPU engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/cpu_engine.h"
#include "cpu/cpu_filter.h"
#include "engine/array_backend.h"
#include "engine/device_arrays.h"
#include "engine/group_scan.h"
#include "engine/scan_plan.h"
#include "engine/settings.h"

typedef struct entry
{
  engine_array id;
  void *p;
  size_t bytes;
  unsigned generation;   /* the backend's generation at allocation */
} entry;

static struct registry
{
  int chosen;            /* the backend was chosen (at the first call) */
  const array_backend *b;   /* ... and is this one, or none (NULL: why) */
  char why[256];
  entry *e;
  size_t n, cap;
  engine_array next;     /* ids start from the load time: ids of an earlier load stay unknown */
} reg;

/* The backend, chosen at the first call; each call reads the settings (into *s) and hands
   their faults down */
static const array_backend *backend (engine_settings *s)
{
  settings_read (s);
  if (! reg.chosen)
    {
      struct timespec t;
      clock_gettime (CLOCK_REALTIME, &t);
      reg.next = (engine_array) t.tv_sec * 1000000000u + (engine_array) t.tv_nsec;
      reg.chosen = 1;
      reg.b = s->host_arrays ? &host_array_backend
                             : gpu_array_backend (s->fault, reg.why, sizeof reg.why);
    }
  if (reg.b)
    reg.b->use_faults (s->fault);
  return reg.b;
}

static unsigned current_generation (void)
{
  return reg.b ? reg.b->generation () : 0;
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
    reg.b->free (e->p);
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
  engine_settings set;
  const array_backend *b = backend (&set);
  if (! b)
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
  const engine_status s = b->alloc (bytes, &p, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
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
      reg.b->free (reg.e[i].p);
  free (reg.e);
  memset (&reg, 0, sizeof reg);
}

void device_arrays_info (const char **where, double *count, double *bytes)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  *where = b ? b->name : "";
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

/* host <-> bytes [offset, offset + bytes) of an array: the checks shared by upload,
   download and read */
static engine_status transfer (engine_array id, size_t offset, void *host, size_t bytes,
                               int to_array, char *msg, size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  size_t have;
  char *p = engine_array_data (id, &have);
  if (bytes == 0)
    return ENGINE_OK;
  if (! b || ! p || offset > have || have - offset < bytes)
    return unknown (msg, msg_size);
  p += offset;
  return to_array ? b->to_device (p, host, bytes, msg, msg_size)
                  : b->to_host (host, p, bytes, msg, msg_size);
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
  engine_settings set;
  const array_backend *b = reg.chosen ? backend (&set) : NULL;
  return b ? b->wait (msg, msg_size) : ENGINE_OK;
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
  s = reg.b->copy (engine_array_data (*id, NULL), p, bytes, msg, msg_size);
  if (s != ENGINE_OK)
    {
      engine_array_free (*id);
      *id = 0;
    }
  return s;
}

/* What the kernels do not cover, and "cpu": through host memory and the CPU engine. */
static engine_status scan_through_host (const array_backend *b, const scan_desc *d,
                                        const scan_plan *p, char *msg, size_t msg_size)
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
  else if ((s = b->to_host (x, d->x, bytes, msg, msg_size)) == ENGINE_OK
           && (! heads_bytes || (s = b->to_host (heads, d->heads, heads_bytes, msg, msg_size)) == ENGINE_OK)
           && (! coef_bytes || (s = b->to_host (coef, d->coef, coef_bytes, msg, msg_size)) == ENGINE_OK))
    {
      h.x = x;
      h.y = y;
      h.heads = heads;
      h.coef = coef;
      h.index = index;
      if ((s = host_array_backend.scan (&h, p, msg, msg_size)) == ENGINE_OK
          && (s = b->to_device (d->y, y, bytes, msg, msg_size)) == ENGINE_OK && index)
        s = b->to_device (d->index, index, (size_t) n * sizeof (double), msg, msg_size);
    }
  free (x);
  free (y);
  free (heads);
  free (coef);
  free (index);
  return s;
}

engine_status engine_array_scan (const scan_desc *d, scan_algorithm a, char *msg,
                                 size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  if (! b)
    return unknown (msg, msg_size);
  scan_plan p;
  engine_status s = scan_plan_make (d, a, &set, 1, b == &host_array_backend, &p, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
  scan_plan_show (d, &p);
  if (p.engine == PLAN_NOTHING)
    return ENGINE_OK;
  /* X in its own class, where the scan does not read that: converted into memory of its
     own first */
  scan_desc w = *d;
  void *wide = NULL;
  if (p.widen)
    {
      const int64_t n = scan_numel (d);
      s = b->alloc ((size_t) n * scan_type_size (d->type), &wide, msg, msg_size);
      if (s == ENGINE_OK)
        s = b->convert (scan_input_type (d), d->type, d->x, wide, n, msg, msg_size);
      w.x = wide;
      w.input = SCAN_INPUT_AS_OUTPUT;
    }
  if (s == ENGINE_OK)
    s = p.engine == PLAN_CPU_VIA_HOST ? scan_through_host (b, &w, &p, msg, msg_size)
                                      : b->scan (&w, &p, msg, msg_size);
  if (wide)
    b->free (wide);
  return s;
}

/* a filter the backend does not run: its arrays to host memory, the CPU engine's filter,
   back */
static engine_status filter_through_host (const array_backend *b, const filter_desc *d,
                                          int cpu_threads, char *msg, size_t msg_size)
{
  const size_t es = scan_type_size (d->type);
  const size_t bytes = (size_t) (d->inner * d->len * d->outer) * es;
  const size_t zbytes = (size_t) d->order * (size_t) (d->inner * d->outer) * es;
  filter_desc h = *d;
  void *x = malloc (bytes + 1), *y = malloc (bytes + 1), *zi = malloc (zbytes + 1),
       *zf = malloc (zbytes + 1);
  engine_status s = ENGINE_OK;
  if (! x || ! y || ! zi || ! zf)
    {
      snprintf (msg, msg_size, "out of host memory for the filter of a device array");
      s = ENGINE_NO_MEMORY;
    }
  /* (an empty array has no memory: no move) */
  else if ((! bytes || (s = b->to_host (x, d->x, bytes, msg, msg_size)) == ENGINE_OK)
           && (! zbytes || (s = b->to_host (zi, d->zi, zbytes, msg, msg_size)) == ENGINE_OK))
    {
      h.x = x;
      h.y = y;
      h.zi = zi;
      h.zf = zf;
      if (cpu_filter (&h, cpu_threads) != 0)
        {
          snprintf (msg, msg_size, "out of host memory for the filter of a device array");
          s = ENGINE_NO_MEMORY;
        }
      else if ((! bytes || (s = b->to_device (d->y, y, bytes, msg, msg_size)) == ENGINE_OK)
               && zbytes)
        s = b->to_device (d->zf, zf, zbytes, msg, msg_size);
    }
  free (x);
  free (y);
  free (zi);
  free (zf);
  return s;
}

engine_status engine_filter_on_device (const filter_desc *d, char *msg, size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  const int64_t n = d->inner * d->len * d->outer;
  if (! b || n == 0 || ! b->filter_supports (d))
    {
      snprintf (msg, msg_size, "%s", ! b ? reg.why : n == 0 ? "no element"
                : "the device's kernels do not run this filter");
      return ENGINE_UNSUPPORTED;
    }
  const size_t es = scan_type_size (d->type), bytes = (size_t) n * es,
               zbytes = (size_t) d->order * (size_t) (d->inner * d->outer) * es;
  filter_desc g = *d;
  void *x = NULL, *y = NULL, *zi = NULL, *zf = NULL;
  engine_status s = b->alloc (bytes, &x, msg, msg_size);
  if (s == ENGINE_OK)
    s = b->alloc (bytes, &y, msg, msg_size);
  if (s == ENGINE_OK && zbytes)
    s = b->alloc (zbytes, &zi, msg, msg_size);
  if (s == ENGINE_OK && zbytes)
    s = b->alloc (zbytes, &zf, msg, msg_size);
  if (s == ENGINE_OK)
    s = b->to_device (x, d->x, bytes, msg, msg_size);
  if (s == ENGINE_OK && zbytes)
    s = b->to_device (zi, d->zi, zbytes, msg, msg_size);
  g.x = x;
  g.y = y;
  g.zi = zi;
  g.zf = zf;
  if (s == ENGINE_OK)
    s = b->filter (&g, cpu_threads_for (n, set.cpu_parallel_min), msg, msg_size);
  if (s == ENGINE_OK)
    s = b->to_host (d->y, y, bytes, msg, msg_size);
  if (s == ENGINE_OK && zbytes)
    s = b->to_host (d->zf, zf, zbytes, msg, msg_size);
  void *const held[4] = { x, y, zi, zf };
  for (int i = 0; i < 4; i++)
    if (held[i])
      b->free (held[i]);
  return s;
}

engine_status engine_array_filter (const filter_desc *d, char *msg, size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  if (! b)
    return unknown (msg, msg_size);
  const int threads = cpu_threads_for (d->inner * d->len * d->outer, set.cpu_parallel_min);
  engine_status s = b->filter (d, threads, msg, msg_size);
  return s == ENGINE_UNSUPPORTED ? filter_through_host (b, d, threads, msg, msg_size) : s;
}

engine_status engine_array_convert (scan_type from, scan_type to, const void *x, void *y,
                                    int64_t n, char *msg, size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  return b ? b->convert (from, to, x, y, n, msg, msg_size) : unknown (msg, msg_size);
}

engine_status engine_array_elementwise (const elementwise_desc *d, char *msg, size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  return b ? b->elementwise (d, msg, msg_size) : unknown (msg, msg_size);
}

engine_status engine_array_flags (scan_type t, const void *x, uint8_t *flags, int64_t n,
                                  int *has_nan, char *msg, size_t msg_size)
{
  *has_nan = 0;
  engine_settings set;
  const array_backend *b = backend (&set);
  return b ? b->flags (t, x, flags, n, has_nan, msg, msg_size) : unknown (msg, msg_size);
}

engine_status engine_array_group_scan_labels (const scan_desc *d, const double *keys,
                                              scan_algorithm a, char *msg, size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  if (! b)
    return unknown (msg, msg_size);
  const int64_t n = d->len;
  int64_t lo = 0, hi = 0;
  int whole = 0;
  scan_plan p;
  engine_status s = scan_plan_make (d, a, &set, 1, b == &host_array_backend, &p, msg, msg_size);
  if (s == ENGINE_OK && n > 0)
    s = b->label_range (keys, n, &lo, &hi, &whole, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
  const long long span = whole ? hi - lo + 1 : 0;
  const char *why = ! whole ? "labels that are not all whole numbers"
                    : p.engine != (b == &host_array_backend ? PLAN_CPU : PLAN_GPU_RESIDENT)
                      ? "the scan runs off the arrays' backend"
                    : p.algorithm != ALG_AUTO && p.algorithm != ALG_DECOUPLED
                      ? "an algorithm other than \"decoupled\" asked for"
                    : p.widen || ! b->label_scan_supports (d, span)
                      ? "no label tiles for this scan and span" : NULL;
  if (set.show_plan)
    {
      char tiles[512] = "";
      if (! why)
        b->label_scan_describe (d, span, tiles, sizeof tiles);
      fprintf (stderr, "groups: %lld labels%s: %s (%s)\n", whole ? span : (long long) n,
               whole ? " spanned" : " at most", why ? "sorted" : "label tiles",
               why ? why : tiles);
    }
  if (! why)
    return b->label_scan (d, keys, lo, span, msg, msg_size);
  int64_t *order = NULL;
  uint8_t *heads = NULL;
  s = b->alloc ((size_t) n * sizeof *order, (void **) &order, msg, msg_size);
  if (s == ENGINE_OK)
    s = b->alloc ((size_t) n, (void **) &heads, msg, msg_size);
  if (s == ENGINE_OK)
    s = b->group_order (keys, n, order, heads, msg, msg_size);
  if (s == ENGINE_OK)
    s = group_scan (b, engine_array_scan, d, order, heads, a, msg, msg_size);
  if (order)
    b->free (order);
  if (heads)
    b->free (heads);
  return s;
}

engine_status engine_array_group_scan (const scan_desc *d, const int64_t *order,
                                       const uint8_t *heads, scan_algorithm a, char *msg,
                                       size_t msg_size)
{
  engine_settings set;
  const array_backend *b = backend (&set);
  return b ? group_scan (b, engine_array_scan, d, order, heads, a, msg, msg_size)
           : unknown (msg, msg_size);
}

engine_status engine_array_compact (size_t elem_bytes, const void *x, const uint8_t *mask,
                                    int64_t n, engine_array *out, int64_t *kept, char *msg,
                                    size_t msg_size)
{
  *out = 0;
  *kept = 0;
  engine_settings set;
  const array_backend *b = backend (&set);
  if (! b)
    return unknown (msg, msg_size);
  engine_status s = b->compact_count (mask, n, kept, msg, msg_size);
  if (s != ENGINE_OK
      || (s = engine_array_new ((size_t) *kept * elem_bytes, out, msg, msg_size)) != ENGINE_OK
      || *kept == 0)
    return s;
  /* the count left the tile offsets in the engine's workspace; nothing ran in between */
  s = b->compact_scatter (elem_bytes, x, mask, n, engine_array_data (*out, NULL), msg, msg_size);
  if (s != ENGINE_OK)
    {
      engine_array_free (*out);
      *out = 0;
    }
  return s;
}

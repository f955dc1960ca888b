/* The chunk driver on host buffers (cpu_scan_in_chunks in cpu_engine.h). */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_engine.h"
#include "base/chunked_scan.h"

/* rows between host memory and a chunk buffer (memcpy stands for the engine's copies) */
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
{ (void) slot; return cpu_scan (d, *(const int *) ctx); }
static int host_widen (void *ctx, int slot, scan_type from, scan_type to, const void *x,
                       void *y, int64_t n)
{
  (void) ctx;
  (void) slot;
  return cpu_convert (from, to, x, y, n);
}
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

int cpu_scan_in_chunks (const scan_desc *d, int64_t chunk, int threads)
{
  const int64_t m = chunk_buffer_elements (d, chunk);
  const size_t es = scan_type_size (d->type);
  chunk_backend b = { 0 };
  b.ctx = &threads;
  b.transfer = host_transfer;
  b.copy = host_copy_bytes;
  b.scan = host_scan;
  b.fix_index = host_fix_index;
  b.widen = host_widen;
  const size_t narrow = chunk_x_in_bytes (d);
  b.carry_index = malloc ((size_t) (d->inner < chunk ? d->inner : chunk) * sizeof (double));
  int ok = b.carry_index != NULL;
  for (int s = 0; s < 2; s++)
    {
      chunk_slot *c = &b.slot[s];
      c->in = malloc ((size_t) m * es);
      c->out = malloc ((size_t) m * es);
      c->heads = malloc ((size_t) (m > d->len ? m : d->len));
      c->index = malloc ((size_t) m * sizeof (double));
      c->coef = d->op == SCAN_RECURRENCE ? malloc ((size_t) (d->coef_scalar ? 1 : m) * es) : NULL;
      c->x_in = narrow ? malloc ((size_t) m * narrow) : NULL;
      ok = ok && c->in && c->out && c->heads && c->index && (c->coef || d->op != SCAN_RECURRENCE)
           && (c->x_in || ! narrow);
    }
  const int err = ok ? chunked_scan (d, chunk, &b) : -1;
  for (int s = 0; s < 2; s++)
    {
      free (b.slot[s].in);
      free (b.slot[s].out);
      free (b.slot[s].heads);
      free (b.slot[s].index);
      free (b.slot[s].coef);
      free (b.slot[s].x_in);
    }
  free (b.carry_index);
  return err;
}


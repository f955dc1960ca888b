/* The chunk driver (see chunked_scan.h). */
#include <stdlib.h>
#include <string.h>

#include "base/chunked_scan.h"

/* lanes and steps of one chunk when a slab (inner x len) does not fit in a chunk */
static void tile_shape (const scan_desc *d, int64_t chunk, int64_t *lanes, int64_t *steps)
{
  *lanes = d->inner < chunk ? d->inner : chunk;
  const int64_t s = chunk / *lanes - 2;   /* two steps for the carry and the exclusive end */
  *steps = s < 1 ? 1 : s;
}

size_t chunk_x_in_bytes (const scan_desc *d)
{
  return d->input != SCAN_INPUT_AS_OUTPUT ? scan_type_size (scan_input_type (d)) : 0;
}

int chunk_carry_fits (const scan_desc *d)
{
  const int complex_extremum = (d->type == SCAN_CDOUBLE || d->type == SCAN_CSINGLE)
                               && (d->op == SCAN_MAX || d->op == SCAN_MIN);
  return d->nan_rule != SCAN_NAN_OMIT && ! d->accurate && d->op != SCAN_RECURRENCE
         && ! complex_extremum;
}

int64_t chunk_buffer_elements (const scan_desc *d, int64_t chunk)
{
  if (d->inner * d->len <= chunk)
    return chunk;
  int64_t lanes, steps;
  tile_shape (d, chunk, &lanes, &steps);
  return lanes * (steps + 2);
}

/* One chunk: what goes in, the engine work, what comes out.  Built one chunk ahead of
   the scan, so that its copy-in overlaps the scan before it. */
typedef struct chunk_job
{
  chunk_moves put, get;
  scan_desc scan;
  int fix;                         /* index fix-up after the scan */
  double carry_pos, shift;
  int64_t widen_at, widen_n;       /* elements of x_in that widen converts into in */
  scan_type widen_from;
  int carry_out;                   /* hand the carry to the next chunk's slot */
  void *carry_dst;
  const void *carry_src;
  size_t carry_bytes;
  const double *carry_index_src;
} chunk_job;

/* where the enumeration of chunks stands */
typedef struct chunk_cursor
{
  const scan_desc *d;
  const chunk_backend *b;
  int64_t chunk, lanes_max, steps_max;
  int tiles;
  int64_t o, i0, bi;               /* tiles: outer index, first lane, tile along the line */
  const uint8_t *zeros;            /* lanes_max zero flags: carry and end rows */
} chunk_cursor;

static void add_move (chunk_moves *ms, void *engine, const void *host, size_t row_bytes,
                      size_t pitch, int64_t rows)
{
  chunk_move *m = &ms->m[ms->count++];
  m->engine = engine;
  m->host = (char *) host;
  m->row_bytes = row_bytes;
  m->pitch = pitch;
  m->rows = rows;
}

/* 1 when X crosses in a class of its own (chunk_slot.x_in) */
static int narrow (const scan_desc *d)
{
  return d->input != SCAN_INPUT_AS_OUTPUT;
}

/* whole slabs per chunk: no line is cut, no carries */
static int next_slab_job (chunk_cursor *c, int slot, chunk_job *j)
{
  const scan_desc *d = c->d;
  const chunk_slot *s = &c->b->slot[slot];
  const size_t es = scan_type_size (d->type), ex = scan_type_size (scan_input_type (d));
  const int64_t slab = d->inner * d->len, per = c->chunk / slab, o0 = c->o;
  if (o0 >= d->outer)
    return 0;
  const int64_t oc = d->outer - o0 < per ? d->outer - o0 : per;
  const size_t n = (size_t) (oc * slab);
  c->o += oc;
  memset (j, 0, sizeof *j);
  j->put.slot = j->get.slot = slot;
  add_move (&j->put, narrow (d) ? s->x_in : s->in, (const char *) d->x + o0 * slab * ex,
            n * ex, 0, 1);
  j->widen_n = narrow (d) ? (int64_t) n : 0;
  j->widen_from = scan_input_type (d);
  if (d->heads_full)
    add_move (&j->put, s->heads, d->heads + o0 * slab, n, 0, 1);
  if (d->op == SCAN_RECURRENCE)
    {
      if (d->coef_scalar)
        add_move (&j->put, s->coef, d->coef, es, 0, 1);
      else
        add_move (&j->put, s->coef, (const char *) d->coef + o0 * slab * es, n * es, 0, 1);
    }
  add_move (&j->get, s->out, (char *) d->y + o0 * slab * es, n * es, 0, 1);
  if (d->index)
    add_move (&j->get, s->index, d->index + o0 * slab, n * sizeof (double), 0, 1);
  j->scan = *d;
  j->scan.input = SCAN_INPUT_AS_OUTPUT;
  j->scan.outer = oc;
  j->scan.x = s->in;
  j->scan.y = s->out;
  j->scan.heads = d->heads ? s->heads : NULL;
  j->scan.index = d->index ? s->index : NULL;
  if (d->op == SCAN_RECURRENCE)
    j->scan.coef = s->coef;
  return 1;
}

/* Lines longer than a chunk: tiles of (lanes x steps) in scan order, carries between. */
static int next_tile_job (chunk_cursor *c, int slot, chunk_job *j)
{
  const scan_desc *d = c->d;
  const chunk_backend *b = c->b;
  const chunk_slot *s = &b->slot[slot];
  if (c->o >= d->outer)
    return 0;
  const size_t es = scan_type_size (d->type), ex = scan_type_size (scan_input_type (d));
  const int excl = d->exclusive, rev = d->reverse;
  const size_t pitch = (size_t) d->inner * es;   /* host bytes from one step to the next */
  const int64_t o = c->o, i0 = c->i0, bi = c->bi, steps_max = c->steps_max;
  const int64_t lanes = d->inner - i0 < c->lanes_max ? d->inner - i0 : c->lanes_max;
  const size_t row = (size_t) lanes * es;
  const int64_t blocks = (d->len + steps_max - 1) / steps_max;
  /* the cursor moves on: next tile of the line, next lanes, next outer */
  if (++c->bi == blocks)
    {
      c->bi = 0;
      c->i0 += c->lanes_max;
      if (c->i0 >= d->inner)
        {
          c->i0 = 0;
          c->o++;
        }
    }
  const int64_t blk = rev ? blocks - 1 - bi : bi;
  const int64_t k0 = blk * steps_max;
  const int64_t ks = d->len - k0 < steps_max ? d->len - k0 : steps_max;
  const int carry = bi > 0;
  /* rows: forward [carry] x... [end]; reverse [end] x... [carry] */
  const int64_t before = rev ? excl : carry, after = rev ? carry : excl;
  const int64_t rows = before + ks + after;
  const int64_t first = before;   /* the first x row */
  const int64_t carry_row = rev ? first + ks : 0;
  const int64_t out_row = excl ? (rev ? 0 : first + ks) : (rev ? first : first + ks - 1);
  const size_t at = (size_t) ((o * d->len + k0) * d->inner + i0);
  memset (j, 0, sizeof *j);
  j->put.slot = j->get.slot = slot;
  if (narrow (d))
    {
      add_move (&j->put, (char *) s->x_in + first * lanes * ex, (const char *) d->x + at * ex,
                (size_t) lanes * ex, (size_t) d->inner * ex, ks);
      j->widen_at = first * lanes;
      j->widen_n = ks * lanes;
      j->widen_from = scan_input_type (d);
    }
  else
    add_move (&j->put, (char *) s->in + first * row, (const char *) d->x + at * es, row, pitch, ks);
  j->scan = *d;
  j->scan.input = SCAN_INPUT_AS_OUTPUT;
  j->scan.inner = lanes;
  j->scan.len = rows;
  j->scan.outer = 1;
  j->scan.x = s->in;
  j->scan.y = s->out;
  j->scan.index = d->index ? s->index : NULL;
  j->scan.heads = NULL;
  if (d->heads)
    {
      /* the x rows' own flags; the carry row joins unless the step after the cut (in
         index order) starts a segment; the end row always joins */
      const int64_t hl = d->heads_full ? lanes : 1;
      const uint8_t *h = d->heads_full ? d->heads + at : d->heads + k0;
      const size_t h_pitch = d->heads_full ? (size_t) d->inner : 0;
      add_move (&j->put, s->heads + first * hl, h, (size_t) hl, h_pitch, ks);
      if (carry && rev)
        add_move (&j->put, s->heads + carry_row * hl, h + ks * (h_pitch ? h_pitch : 1),
                  (size_t) hl, 0, 1);
      else if (carry)
        add_move (&j->put, s->heads + carry_row * hl, c->zeros, (size_t) hl, 0, 1);
      if (excl)
        add_move (&j->put, s->heads + (rev ? 0 : first + ks) * hl, c->zeros, (size_t) hl, 0, 1);
      j->scan.heads = s->heads;
      j->scan.heads_full = d->heads_full;
    }
  if (d->index)
    {
      j->fix = 1;
      j->carry_pos = carry ? (double) (carry_row + 1) : -1.0;
      j->shift = (double) (k0 - first);
    }
  /* the next tile's carry, handed over inside the engine into the other slot */
  if (bi + 1 < blocks)
    {
      const int64_t next_carry_row = rev ? excl + steps_max : 0;
      j->carry_out = 1;
      j->carry_dst = (char *) b->slot[slot ^ 1].in + next_carry_row * row;
      j->carry_src = (const char *) s->out + out_row * row;
      j->carry_bytes = row;
      j->carry_index_src = s->index + out_row * lanes;
    }
  add_move (&j->get, (char *) s->out + first * row, (char *) d->y + at * es, row, pitch, ks);
  if (d->index)
    add_move (&j->get, s->index + first * lanes, d->index + at, (size_t) lanes * sizeof (double),
              (size_t) d->inner * sizeof (double), ks);
  return 1;
}

static int next_job (chunk_cursor *c, int slot, chunk_job *j)
{
  return c->tiles ? next_tile_job (c, slot, j) : next_slab_job (c, slot, j);
}

/* the engine work of one chunk */
static int run_job (const chunk_backend *b, const chunk_job *j)
{
  const int s = j->put.slot;
  const scan_desc *c = &j->scan;
  int err = 0;
  if (j->widen_n)
    {
      const size_t es = scan_type_size (c->type), ex = scan_type_size (j->widen_from);
      err = b->widen (b->ctx, s, j->widen_from, c->type,
                      (const char *) b->slot[s].x_in + j->widen_at * ex,
                      (char *) b->slot[s].in + j->widen_at * es, j->widen_n);
    }
  if (! err)
    err = b->scan (b->ctx, s, c);
  if (! err && j->fix)
    err = b->fix_index (b->ctx, s, c->index, c->inner, c->len, j->carry_pos, b->carry_index,
                        j->shift);
  if (! err && j->carry_out)
    err = b->copy (b->ctx, s, j->carry_dst, j->carry_src, j->carry_bytes);
  if (! err && j->carry_out && c->index)
    err = b->copy (b->ctx, s, b->carry_index, j->carry_index_src,
                   (size_t) c->inner * sizeof (double));
  return err;
}

int64_t chunk_elements_for (const scan_desc *d, int64_t chunk_elements)
{
  const int64_t n = scan_numel (d);
  if (n > chunk_elements && chunk_carry_fits (d))
    return chunk_elements;
  return n < CHUNK_ELEMENTS_MIN ? CHUNK_ELEMENTS_MIN : n;
}

int chunked_scan (const scan_desc *d, int64_t chunk, const chunk_backend *b)
{
  if (scan_numel (d) == 0)
    return 0;
  if (chunk < CHUNK_ELEMENTS_MIN || (! chunk_carry_fits (d) && chunk < scan_numel (d)))
    return -1;
  chunk_cursor c = { 0 };
  c.d = d;
  c.b = b;
  c.chunk = chunk;
  c.tiles = d->inner * d->len > c.chunk;
  int err = 0;
  if (c.tiles)
    {
      tile_shape (d, c.chunk, &c.lanes_max, &c.steps_max);
      if (d->heads && ! (c.zeros = calloc ((size_t) c.lanes_max, 1)))
        return -1;
    }
  else if (d->heads && ! d->heads_full)
    /* one flag per step, the same for every chunk: into both slots once */
    for (int s = 0; s < 2 && ! err; s++)
      {
        chunk_moves h = { 0 };
        h.slot = s;
        add_move (&h, b->slot[s].heads, d->heads, (size_t) d->len, 0, 1);
        err = b->transfer (b->ctx, &h, NULL);
      }
  /* copy-in of chunk k + 1 and copy-out of chunk k - 1 while chunk k is scanned */
  chunk_job job[3];
  int64_t k = 0;
  int have = ! err && next_job (&c, 0, &job[0]);
  if (have)
    err = b->transfer (b->ctx, &job[0].put, NULL);
  while (have && ! err)
    {
      const chunk_job *prev = k > 0 ? &job[(k + 2) % 3] : NULL;
      chunk_job *next = &job[(k + 1) % 3];
      if ((err = run_job (b, &job[k % 3])))
        break;
      have = next_job (&c, (int) ((k + 1) & 1), next);
      err = b->transfer (b->ctx, have ? &next->put : NULL, prev ? &prev->get : NULL);
      k++;
    }
  if (! err && k > 0)
    err = b->transfer (b->ctx, NULL, &job[(k + 2) % 3].get);   /* the last chunk's */
  free ((void *) c.zeros);
  return err;
}

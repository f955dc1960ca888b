/* The chunk driver (see chunked_scan.h). */
#include <stdlib.h>
#include <string.h>

#include "chunked_scan.h"

/* lanes and steps of one chunk when a slab (inner x len) does not fit in a chunk */
static void tile_shape (const scan_desc *d, int64_t chunk, int64_t *lanes, int64_t *steps)
{
  *lanes = d->inner < chunk ? d->inner : chunk;
  const int64_t s = chunk / *lanes - 2;   /* two steps for the carry and the exclusive end */
  *steps = s < 1 ? 1 : s;
}

int64_t chunk_buffer_elements (const scan_desc *d, int64_t chunk)
{
  if (d->inner * d->len <= chunk)
    return chunk;
  int64_t lanes, steps;
  tile_shape (d, chunk, &lanes, &steps);
  return lanes * (steps + 2);
}

/* whole slabs per chunk: no line is cut, no carries */
static int scan_slabs (const scan_desc *d, int64_t chunk, const chunk_backend *b)
{
  const size_t es = scan_type_size (d->type);
  const int64_t slab = d->inner * d->len, per = chunk / slab;
  int err = 0;
  if (d->heads && ! d->heads_full)
    err = b->put_rows (b->ctx, b->heads, d->heads, (size_t) d->len, 0, 1);
  for (int64_t o0 = 0; o0 < d->outer && ! err; o0 += per)
    {
      const int64_t oc = d->outer - o0 < per ? d->outer - o0 : per;
      const size_t n = (size_t) (oc * slab);
      scan_desc c = *d;
      c.outer = oc;
      c.x = b->in;
      c.y = b->out;
      c.heads = d->heads ? b->heads : NULL;
      c.index = d->index ? b->index : NULL;
      if ((err = b->put_rows (b->ctx, b->in, (const char *) d->x + o0 * slab * es, n * es, 0, 1)))
        break;
      if (d->heads_full && (err = b->put_rows (b->ctx, b->heads, d->heads + o0 * slab, n, 0, 1)))
        break;
      if ((err = b->scan (b->ctx, &c))
          || (err = b->get_rows (b->ctx, (char *) d->y + o0 * slab * es, b->out, n * es, 0, 1)))
        break;
      if (d->index)
        err = b->get_rows (b->ctx, d->index + o0 * slab, b->index, n * sizeof (double), 0, 1);
    }
  return err;
}

/* Lines longer than a chunk: tiles of (lanes x steps) in scan order, carries between. */
static int scan_tiles (const scan_desc *d, int64_t chunk, const chunk_backend *b)
{
  const size_t es = scan_type_size (d->type);
  int64_t lanes_max, steps_max;
  tile_shape (d, chunk, &lanes_max, &steps_max);
  const int excl = d->exclusive, rev = d->reverse;
  const size_t pitch = (size_t) d->inner * es;   /* host bytes from one step to the next */
  uint8_t *heads = d->heads ? malloc ((size_t) (lanes_max * (steps_max + 2))) : NULL;
  if (d->heads && ! heads)
    return -1;
  int err = 0;
  for (int64_t o = 0; o < d->outer && ! err; o++)
    for (int64_t i0 = 0; i0 < d->inner && ! err; i0 += lanes_max)
      {
        const int64_t lanes = d->inner - i0 < lanes_max ? d->inner - i0 : lanes_max;
        const size_t row = (size_t) lanes * es;
        const int64_t blocks = (d->len + steps_max - 1) / steps_max;
        for (int64_t bi = 0; bi < blocks && ! err; bi++)
          {
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
            const char *x = (const char *) d->x + (size_t) ((o * d->len + k0) * d->inner + i0) * es;
            if ((err = b->put_rows (b->ctx, (char *) b->in + first * row, x, row, pitch, ks)))
              break;
            scan_desc c = *d;
            c.inner = lanes;
            c.len = rows;
            c.outer = 1;
            c.x = b->in;
            c.y = b->out;
            c.index = d->index ? b->index : NULL;
            c.heads = NULL;
            if (d->heads)
              {
                /* the x rows' own flags; the carry row joins unless the step after the
                   cut (in index order) starts a segment; the end row always joins */
                const int64_t hl = d->heads_full ? lanes : 1;
                for (int64_t r = 0; r < rows; r++)
                  for (int64_t l = 0; l < hl; l++)
                    {
                      int64_t k = k0 + r - first;   /* the global step of row r */
                      uint8_t h = 0;
                      if (r >= first && r < first + ks)
                        h = 1;   /* set below */
                      else if (carry && r == carry_row && rev)
                        k = k0 + ks, h = 1;
                      else if (carry && r == carry_row)
                        h = 0, k = -1;
                      if (h)
                        h = d->heads_full ? d->heads[(o * d->len + k) * d->inner + i0 + l] != 0
                                          : d->heads[k] != 0;
                      heads[r * hl + l] = h;
                    }
                c.heads = b->heads;
                c.heads_full = d->heads_full;
                if ((err = b->put_rows (b->ctx, b->heads, heads, (size_t) (rows * hl), 0, 1)))
                  break;
              }
            if ((err = b->scan (b->ctx, &c)))
              break;
            if (d->index
                && (err = b->fix_index (b->ctx, b->index, lanes, rows,
                                        carry ? (double) (carry_row + 1) : -1.0,
                                        b->carry_index, (double) (k0 - first))))
              break;
            /* the next tile's carry, handed over inside the engine */
            if (bi + 1 < blocks)
              {
                const int64_t next_carry_row = rev ? excl + steps_max : 0;
                if ((err = b->copy (b->ctx, (char *) b->in + next_carry_row * row,
                                    (const char *) b->out + out_row * row, row)))
                  break;
                if (d->index
                    && (err = b->copy (b->ctx, b->carry_index, b->index + out_row * lanes,
                                       (size_t) lanes * sizeof (double))))
                  break;
              }
            char *y = (char *) d->y + (size_t) ((o * d->len + k0) * d->inner + i0) * es;
            if ((err = b->get_rows (b->ctx, y, (const char *) b->out + first * row, row, pitch, ks)))
              break;
            if (d->index)
              err = b->get_rows (b->ctx, d->index + (o * d->len + k0) * d->inner + i0,
                                 b->index + first * lanes, (size_t) lanes * sizeof (double),
                                 (size_t) d->inner * sizeof (double), ks);
          }
      }
  free (heads);
  return err;
}

int chunked_scan (const scan_desc *d, int64_t chunk, const chunk_backend *b)
{
  if (scan_numel (d) == 0)
    return 0;
  if (chunk < 3)
    chunk = 3;
  return d->inner * d->len <= chunk ? scan_slabs (d, chunk, b) : scan_tiles (d, chunk, b);
}

/* Saturating integer products along a dimension, s(k) = sat (s(k-1) * x(k)), as Octave's
   integer arithmetic multiplies (the exact product clamped to the class's range).  The
   steps do not compose into a map of fixed size (a signed product that saturated at the
   top and is then multiplied by -1 gives intmin + 1, not intmin, so where a line
   saturates depends on the value carried in), so each line runs in order; lines (and
   lanes side by side) are the threads' pieces.  An integer product saturates or reaches
   0 within a few dozen steps of data of any size, so a line costs what Octave's loop
   does, and the lines run in parallel. */
#include <stdint.h>

#include "base/work_pool.h"
#include "cpu/cpu_line_steps.h"
#include "cpu/cpu_satprod.h"
#include "cpu/cpu_tuning.h"

typedef struct satprod_ctx { const scan_desc *d; int64_t lanes; } satprod_ctx;

/* whether a value is negative, written per signedness (no "unsigned < 0" test) */
#define IS_NEG_SIGNED(v) ((v) < 0)
#define IS_NEG_UNSIGNED(v) 0

#define SATPROD_DEFINE(NAME, T, LO, HI, IS_NEG)                                       \
static void piece_##NAME (void *ctx, int64_t j)                                        \
{                                                                                      \
  const satprod_ctx *c = (const satprod_ctx *) ctx;                                    \
  const scan_desc *d = c->d;                                                           \
  const int64_t blocks = (d->inner + c->lanes - 1) / c->lanes;                         \
  const int64_t o = j / blocks, i0 = (j % blocks) * c->lanes;                          \
  const int64_t i1 = i0 + c->lanes < d->inner ? i0 + c->lanes : d->inner;             \
  const T *x = (const T *) d->x;                                                       \
  T *y = (T *) d->y;                                                                   \
  T s[CPU_LANE_BLOCK];                                                                 \
  for (int64_t k = 0; k < d->len; k++)                                                 \
    for (int64_t i = i0; i < i1; i++)                                                  \
      {                                                                                \
        const int64_t at = at_step (d, i, o, k);                                       \
        if (step_starts (d, i, o, k))                                                  \
          s[i - i0] = 1;                                                               \
        /* an exact product out of range has the sign of its factors' signs */        \
        T next;                                                                        \
        if (__builtin_mul_overflow (s[i - i0], x[at], &next))                          \
          next = IS_NEG (s[i - i0]) != IS_NEG (x[at]) ? (T) (LO) : (T) (HI);           \
        /* x is read before y is written: the scan may run in place */                 \
        y[at] = d->exclusive ? s[i - i0] : next;                                       \
        s[i - i0] = next;                                                              \
      }                                                                                \
}
SATPROD_DEFINE (int8, int8_t, INT8_MIN, INT8_MAX, IS_NEG_SIGNED)
SATPROD_DEFINE (uint8, uint8_t, 0, UINT8_MAX, IS_NEG_UNSIGNED)
SATPROD_DEFINE (int16, int16_t, INT16_MIN, INT16_MAX, IS_NEG_SIGNED)
SATPROD_DEFINE (uint16, uint16_t, 0, UINT16_MAX, IS_NEG_UNSIGNED)
SATPROD_DEFINE (int32, int32_t, INT32_MIN, INT32_MAX, IS_NEG_SIGNED)
SATPROD_DEFINE (uint32, uint32_t, 0, UINT32_MAX, IS_NEG_UNSIGNED)
SATPROD_DEFINE (int64, int64_t, INT64_MIN, INT64_MAX, IS_NEG_SIGNED)
SATPROD_DEFINE (uint64, uint64_t, 0, UINT64_MAX, IS_NEG_UNSIGNED)

int cpu_satprod (const scan_desc *d, int nthreads)
{
  work_piece piece;
  switch (d->type)
    {
    case SCAN_INT8: piece = piece_int8; break;
    case SCAN_UINT8: piece = piece_uint8; break;
    case SCAN_INT16: piece = piece_int16; break;
    case SCAN_UINT16: piece = piece_uint16; break;
    case SCAN_INT32: piece = piece_int32; break;
    case SCAN_UINT32: piece = piece_uint32; break;
    case SCAN_INT64: piece = piece_int64; break;
    case SCAN_UINT64: piece = piece_uint64; break;
    default: return -1;
    }
  /* lanes side by side a piece where the scan runs across vectors, one line else */
  satprod_ctx c = { d, d->inner < CPU_LANE_BLOCK ? d->inner : CPU_LANE_BLOCK };
  const int64_t pieces = d->outer * ((d->inner + c.lanes - 1) / c.lanes);
  work_pool_for_upto (pieces, piece, &c, nthreads);
  return 0;
}

/* Element-wise arithmetic, comparisons and casts of device arrays, with Octave's values: one
   description that the gateway fills and the engines read, and the rule for one
   element, compiled into both the CPU engine (the host stand-in) and the kernels
   (kernels/auxiliary/elementwise.cu), so that the two cannot differ.

   Octave's rules, for the classes taken here (real; not int64 or uint64, whose
   arithmetic with doubles Octave does in extended precision):
   - an integer class on either side: the operation in double (exact for these classes,
     or past saturation; a quotient never rounds onto a half it is not), the result in
     that class, rounded to nearest (halves away from zero), saturated, NaN -> 0;
   - else single on either side: a double operand rounded to single, the operation in
     single, the result single;
   - else (double, logical) in double, the result double;
   - a comparison is made as the operation above would be, and gives logical. */
#ifndef GPUSCAN_ELEMENTWISE_H
#define GPUSCAN_ELEMENTWISE_H

#include <math.h>
#include <stdint.h>

#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum elementwise_op {
  EW_PLUS, EW_MINUS, EW_TIMES, EW_DIVIDE,
  EW_LT, EW_LE, EW_GT, EW_GE, EW_EQ, EW_NE,
  EW_NEGATE, EW_ABS,   /* of a alone */
  EW_CAST              /* a in class y_type (not logical), as Octave's cast functions */
} elementwise_op;

/* y(i) = a(i) OP b(i), i < n.  An operand is an array of n elements (step 1), one
   element used for all (step 0), or, where its pointer is NULL, the scalar value (a host
   scalar, exact in double).  Pointers are array memory (device memory on the GPU). */
typedef struct elementwise_desc {
  elementwise_op op;
  scan_type a_type, b_type, y_type;
  const void *a, *b;
  int a_step, b_step;
  double a_value, b_value;
  void *y;
  int64_t n;
} elementwise_desc;

#if defined (__CUDACC__)
#  define EW_RULE static __host__ __device__ __forceinline__
#else
#  define EW_RULE static inline
#endif

/* the class of a OP b, or -1 where these rules do not cover the pair (EW_CAST: whether
   they cover the source class a) */
EW_RULE int elementwise_result_type (elementwise_op op, scan_type a, scan_type b)
{
  const scan_type t[2] = { a, b };
  int integer = -1, single = 0;
  for (int k = 0; k < (op >= EW_NEGATE ? 1 : 2); k++)
    switch (t[k])
      {
      case SCAN_DOUBLE: case SCAN_LOGICAL: break;
      case SCAN_SINGLE: single = 1; break;
      case SCAN_INT8: case SCAN_UINT8: case SCAN_INT16: case SCAN_UINT16: case SCAN_INT32:
      case SCAN_UINT32:
        if (integer >= 0 && integer != (int) t[k])
          return -1;   /* (Octave: an error, which its own route raises) */
        integer = (int) t[k];
        break;
      default: return -1;
      }
  if (op >= EW_LT && op <= EW_NE)
    return SCAN_LOGICAL;
  if (integer >= 0)
    return integer;
  return single ? SCAN_SINGLE : SCAN_DOUBLE;
}

/* element i of an operand, in double (exact for every class above) */
EW_RULE double elementwise_load (scan_type t, const void *p, int64_t i)
{
  switch (t)
    {
    case SCAN_DOUBLE: return ((const double *) p)[i];
    case SCAN_SINGLE: return ((const float *) p)[i];
    case SCAN_INT8: return ((const int8_t *) p)[i];
    case SCAN_UINT8: case SCAN_LOGICAL: return ((const uint8_t *) p)[i];
    case SCAN_INT16: return ((const int16_t *) p)[i];
    case SCAN_UINT16: return ((const uint16_t *) p)[i];
    case SCAN_INT32: return ((const int32_t *) p)[i];
    case SCAN_UINT32: return ((const uint32_t *) p)[i];
    default: return 0;
    }
}

/* the operation in double and in single (comparisons: 1 or 0) */
#define EW_APPLY(T, name)                                                          \
  EW_RULE T name (elementwise_op op, T a, T b)                                    \
  {                                                                                \
    switch (op)                                                                    \
      {                                                                            \
      case EW_PLUS: return a + b;                                                  \
      case EW_MINUS: return a - b;                                                 \
      case EW_TIMES: return a * b;                                                 \
      case EW_DIVIDE: return a / b;                                                \
      case EW_LT: return a < b;                                                    \
      case EW_LE: return a <= b;                                                   \
      case EW_GT: return a > b;                                                    \
      case EW_GE: return a >= b;                                                   \
      case EW_EQ: return a == b;                                                   \
      case EW_NE: return a != b;                                                   \
      case EW_NEGATE: return -a;                                                   \
      case EW_CAST: return a;                                                      \
      case EW_ABS: return a < 0 ? -a : a + (T) 0;   /* (+0 for -0, as fabs) */      \
      default: return 0;                                                           \
      }                                                                            \
  }
EW_APPLY (double, elementwise_apply)
EW_APPLY (float, elementwise_apply_single)
#undef EW_APPLY

/* Octave's conversion of a double to an integer class: NaN -> 0, saturated, else
   rounded to nearest with halves away from zero */
EW_RULE double elementwise_to_integer (double v, double lo, double hi)
{
  return v != v ? 0 : v <= lo ? lo : v >= hi ? hi : round (v);
}

EW_RULE double elementwise_operand (scan_type t, const void *p, int step, double value,
                                    int64_t i)
{
  return p ? elementwise_load (t, p, i * step) : value;
}

/* whether the operation is made in single: single on a side and an integer on none */
EW_RULE int elementwise_in_single (const elementwise_desc *d)
{
  return d->y_type == SCAN_SINGLE
         || (d->y_type == SCAN_LOGICAL && d->op < EW_NEGATE
             && (d->a_type == SCAN_SINGLE || d->b_type == SCAN_SINGLE)
             && elementwise_result_type (EW_PLUS, d->a_type, d->b_type) == SCAN_SINGLE);
}

/* y(i) of the description */
EW_RULE void elementwise_element (const elementwise_desc *d, int64_t i)
{
  const double a = elementwise_operand (d->a_type, d->a, d->a_step, d->a_value, i);
  const double b = d->op >= EW_NEGATE
                     ? 0 : elementwise_operand (d->b_type, d->b, d->b_step, d->b_value, i);
  if (elementwise_in_single (d))
    {
      const float v = elementwise_apply_single (d->op, (float) a, (float) b);
      if (d->y_type == SCAN_SINGLE)
        ((float *) d->y)[i] = v;
      else
        ((uint8_t *) d->y)[i] = v != 0;
      return;
    }
  const double v = elementwise_apply (d->op, a, b);
  switch (d->y_type)
    {
    case SCAN_DOUBLE: ((double *) d->y)[i] = v; break;
    case SCAN_LOGICAL: ((uint8_t *) d->y)[i] = v != 0; break;
    case SCAN_INT8: ((int8_t *) d->y)[i] = (int8_t) elementwise_to_integer (v, INT8_MIN, INT8_MAX); break;
    case SCAN_UINT8: ((uint8_t *) d->y)[i] = (uint8_t) elementwise_to_integer (v, 0, UINT8_MAX); break;
    case SCAN_INT16: ((int16_t *) d->y)[i] = (int16_t) elementwise_to_integer (v, INT16_MIN, INT16_MAX); break;
    case SCAN_UINT16: ((uint16_t *) d->y)[i] = (uint16_t) elementwise_to_integer (v, 0, UINT16_MAX); break;
    case SCAN_INT32: ((int32_t *) d->y)[i] = (int32_t) elementwise_to_integer (v, INT32_MIN, INT32_MAX); break;
    case SCAN_UINT32: ((uint32_t *) d->y)[i] = (uint32_t) elementwise_to_integer (v, 0, UINT32_MAX); break;
    default: break;
    }
}

#ifdef __cplusplus
}
#endif
#endif

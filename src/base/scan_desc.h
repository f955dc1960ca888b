/* One description of a scan, shared by every engine (CPU, CUDA) and the gateway.
   Plain C, no Octave and no CUDA types: the gateway fills it, engines read it. */
#ifndef GPUSCAN_SCAN_DESC_H
#define GPUSCAN_SCAN_DESC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type an engine scans: the output's, and the input's but where scan_input
   says otherwise. */
typedef enum scan_type {
  SCAN_DOUBLE, SCAN_SINGLE, SCAN_CDOUBLE, SCAN_CSINGLE,
  SCAN_INT8, SCAN_UINT8, SCAN_INT16, SCAN_UINT16,
  SCAN_INT32, SCAN_UINT32, SCAN_INT64, SCAN_UINT64,
  SCAN_LOGICAL,  /* one byte, 0 or 1 */
  SCAN_NTYPES
} scan_type;

/* x's element type where it is not the output's: a logical, integer or single X whose
   output class is double by Octave's rules.  The CPU engine converts each element as it
   reads it, so no converted copy of X is made; the engine layer converts X first for
   an engine or operator that cannot (engine/engine.c).  0 (as a zeroed description has
   it): x is of `type`. */
typedef enum scan_input {
  SCAN_INPUT_AS_OUTPUT = 0,
  SCAN_INPUT_LOGICAL, SCAN_INPUT_INT8, SCAN_INPUT_UINT8, SCAN_INPUT_INT16,
  SCAN_INPUT_UINT16, SCAN_INPUT_INT32, SCAN_INPUT_UINT32, SCAN_INPUT_INT64,
  SCAN_INPUT_UINT64, SCAN_INPUT_SINGLE,
  SCAN_NINPUTS
} scan_input;

typedef enum scan_op {
  SCAN_SUM,     /* +, floating types */
  SCAN_PROD,    /* *, floating types */
  SCAN_MAX,     /* NaN-skipping, ties keep the earlier element (cummax) */
  SCAN_MIN,     /* NaN-skipping, ties keep the earlier element (cummin) */
  SCAN_SATSUM,  /* integer sum saturating at every step (cumsum "native") */
  SCAN_AND,     /* logical: all so far (cumulative all) */
  SCAN_OR,      /* logical: any so far (cumulative any) */
  SCAN_XOR,     /* logical: an odd number so far (parity) */
  SCAN_BITAND,  /* unsigned integers, bit by bit */
  SCAN_BITOR,
  SCAN_BITXOR,
  SCAN_LOGSUMEXP,  /* floating: log (sum (exp (x))) so far, without overflow or underflow */
  SCAN_RECURRENCE, /* floating: y(k) = a(k) y(k-1) + b(k), b in x, a in coef (CPU engine) */
  SCAN_SATPROD, /* integer product saturating at every step (Octave 11's cumprod): in
                   order along each line, as it does not compose (CPU engine) */
  SCAN_NOPS
} scan_op;

/* What a NaN does (floating types; the others have none).  Octave's rule: a sum or
   product takes it in (NaN from there on), max and min skip it.  MATLAB's flags flip
   that: "omitnan" makes a sum's or product's NaN count as nothing (the sum of nothing is
   +0, as NaN counted as +0 gives), "includenan" makes max's and min's first NaN win from
   there on (its index too). */
typedef enum scan_nan_rule {
  SCAN_NAN_OCTAVE = 0,
  SCAN_NAN_OMIT,        /* sum, prod */
  SCAN_NAN_INCLUDE      /* max, min */
} scan_nan_rule;

/* How max and min compare (MATLAB's and Octave 11's "ComparisonMethod").  Octave's
   rule: real numbers by value, complex ones by abs, then arg with -pi taken as pi (up
   to Octave 10).  REAL: complex numbers by the real part, then the imaginary part; ABS:
   real numbers by abs, then by value, complex ones by abs, then arg as carg gives it
   (Octave 11).  Other pairings are Octave's rule itself (the gateway says so). */
typedef enum scan_compare {
  SCAN_CMP_OCTAVE = 0,
  SCAN_CMP_REAL,        /* complex types */
  SCAN_CMP_ABS          /* signed real and complex types */
} scan_compare;

/* A column-major array scanned along one dimension: element (i, k, o) sits at
   i + inner * (k + len * o); k runs along the scanned dimension. */
typedef struct scan_desc {
  scan_type type;
  scan_op op;
  scan_nan_rule nan_rule;
  scan_compare compare;  /* max, min */
  int accurate;          /* floating sums: a compensated (double-double) state, so that
                            each output is the exact prefix sum rounded (but for double
                            rounding, singles; CPU engine) */
  int reproducible;      /* floating sums and products in a grouping that does not depend
                            on the timing: the same bits on every call (the CPU engine's
                            always are; GPU: look_back.cuh's ordered look-back) */
  int exclusive;         /* output k holds the scan of the segment's elements before k */
  int reverse;           /* scan from the last element toward the first */
  int64_t inner, len, outer;
  /* Segment heads as 0/1 bytes, or NULL.  heads_full: one flag per element, laid out
     as x; otherwise one flag per k, shared by every (i, o).  k == 0 always starts one.
     A segment runs from its head to the element before the next head, in either
     direction; a reverse scan starts at the segment's last element. */
  const uint8_t *heads;
  int heads_full;
  const void *x;         /* input */
  scan_input input;      /* x's element type, where it is not `type` */
  void *y;               /* output, same layout */
  double *index;         /* 1-based position along the scanned dimension (max/min), or NULL */
  const void *coef;      /* SCAN_RECURRENCE: a, of x's type, laid out as x ... */
  int coef_scalar;       /* ... or one value for every element */
  double initial[2];     /* SCAN_RECURRENCE: y before each line and segment (real, imag) */
} scan_desc;

static inline int64_t scan_numel (const scan_desc *d)
{ return d->inner * d->len * d->outer; }

size_t scan_type_size (scan_type t);
/* the element type of d->x */
scan_type scan_input_type (const scan_desc *d);
/* the scan_input that reads x of type t into another type (SCAN_INPUT_AS_OUTPUT for a
   type that has none: complex, double) */
scan_input scan_input_of (scan_type t);
const char *scan_type_name (scan_type t);
const char *scan_op_name (scan_op op);

#ifdef __cplusplus
}
#endif
#endif

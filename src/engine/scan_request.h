/* A gpuscan call's options and Octave's class rules, in C below the gateways: a gateway
   (the oct-file, the MEX file) describes each argument as a request_arg, and the request
   builder parses the options (scan_options_parse) and makes the scan description of an
   X (scan_desc_of_request).  An error gives its gpuscan: identifier and message. */
#ifndef GPUSCAN_ENGINE_SCAN_REQUEST_H
#define GPUSCAN_ENGINE_SCAN_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "base/scan_desc.h"
#include "base/scan_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* an argument as a gateway sees it */
typedef struct request_arg {
  int is_char;             /* a char array */
  const char *text;        /* a char array of at most one row: its text, else NULL */
  int is_numeric;          /* numeric or logical */
  int is_complex, is_sparse, is_single;
  int is_vector;           /* two dimensions, one of them 1 (Octave's isvector) */
  int64_t numel;
  const double *values;    /* its elements as doubles, where the builder reads them: the
                              argument after X that is no string (DIM); else NULL */
  const char *class_name;
} request_arg;

/* an error: the identifier and the message after "gpuscan: " */
typedef struct request_error {
  const char *id;
  char msg[512];
} request_error;

/* the most dimensions a VECDIM names */
#define SCAN_VECDIM_MAX 32

/* everything the options select, before it becomes a scan_desc */
typedef struct scan_options {
  scan_op op;
  int op_set;
  int exclusive, reverse;   /* -1: not given */
  int outclass;             /* 0: Octave's default, 1: "native", 2: "double" */
  int omitnan;              /* -1: not given, 1: "omitnan", 0: "includenan" */
  int accurate;             /* "accurate": compensated floating sums */
  int reproducible;         /* "reproducible": the same bits on every call */
  /* the argument of "segments", "keys", "groups", "recurrence" (A) and "initial" (Y0),
     an index into the arguments, or -1 */
  int segments, keys, groups, coef, initial;
  scan_algorithm algorithm;
  int dim;                  /* 0: the first non-singleton */
  int vecdim[SCAN_VECDIM_MAX];   /* VECDIM (two or more dimensions), nvecdim of them */
  int nvecdim;
  int all;                  /* "all": the whole array, as X(:) */
  int linear;               /* "linear": the index output as linear indices into X */
  int compare;              /* "ComparisonMethod": -1 not given, 0 "auto", 1 "real", 2 "abs" */
} scan_options;

/* The options of a call whose X is args[first - 1]; DIM (or VECDIM) may be args[first].
   Argument numbers in messages count X as 1.  0, or -1 with the error in e. */
int scan_options_parse (const request_arg *args, int nargs, int first, scan_options *r,
                        request_error *e);

/* the operator an option names ("sum", ..., "logsumexp"); 0 for another word */
int scan_op_named (const char *name, scan_op *op);

/* the geometry of a scan of an array of dims (ndims of them) along dim (1-based; 0: the
   first non-singleton) */
void scan_extent (const int64_t *dims, int ndims, int dim, int64_t *inner, int64_t *len,
                  int64_t *outer);

/* Whose cumsum the class rules follow: Octave 11's and MATLAB's keep integer classes in
   sums and products and compare complex numbers by abs, then arg in (-pi, pi]; Octave
   before 11 gives double for integers and folds an arg of -pi to pi. */
typedef enum class_rules { RULES_OCTAVE_BEFORE_11, RULES_OCTAVE_11 } class_rules;

/* The scan_desc of a request on an X of dims and type `in` (no pointers yet): geometry
   around DIM, the output class (d->type) and the operator after the class rules.  coef
   and initial: the arguments of "recurrence" and "initial", or NULL.  0, or -1 with the
   error in e. */
int scan_desc_of_request (const int64_t *dims, int ndims, scan_type in, const scan_options *r,
                          const request_arg *coef, const request_arg *initial, int nargout,
                          class_rules rules, scan_desc *d, request_error *e);

/* The layout of a flags array ("segments", what = "SEGMENTS"; "keys", "KEYS") of dims
   fdims against X's: 1 where it is X's, 0 where it is a vector of length len (one set of
   flags for every line), -1 with the error in e otherwise */
int scan_flags_layout (const int64_t *fdims, int fnd, const int64_t *xdims, int xnd,
                       int64_t len, const char *what, request_error *e);

/* "recurrence", A of dims adims against X's: 1 for one element (a scalar A), 0 for X's
   size, -1 with the error in e otherwise */
int scan_coef_layout (const int64_t *adims, int and_, const int64_t *xdims, int xnd,
                      request_error *e);

/* "keys": head flags where a key differs from the one before it along the scan (keys as
   (inner, len, outer) elements of elem_bytes; floating ones, 1 real or 2 complex,
   compared as numbers: -0 is 0, NaN differs from everything), and at each line's first
   element */
void scan_key_heads (const void *keys, size_t elem_bytes, int floating, int64_t inner,
                     int64_t len, int64_t outer, uint8_t *heads);

#ifdef __cplusplus
}
#endif
#endif

/* gpuscan_mex: gpuscan's scan of host arrays through the documented MEX API (the
   interleaved complex one), so that MATLAB's mex and Octave's mkoctfile --mex build the
   same file.  A marshaller: the request builder (engine/scan_request.h) parses the
   options and applies the class rules; the engine scans.  Help and tests:
   inst/gpuscan_mex.m. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mex.h"

#include "engine/engine.h"
#include "engine/scan_request.h"

/* the most arguments a call takes: X, DIM and every option with its value */
#define MAX_ARGS 64

/* Octave names the MEX function before its errors' messages; MATLAB does not */
static int in_octave (void);

static void fail_with (const char *id, const char *msg)
{
  mexErrMsgIdAndTxt (id, "%s%s", in_octave () ? "" : "gpuscan_mex: ", msg);
}

static scan_type type_of (const mxArray *a, int *known)
{
  const int c = mxIsComplex (a);
  *known = 1;
  switch (mxGetClassID (a))
    {
    case mxDOUBLE_CLASS: return c ? SCAN_CDOUBLE : SCAN_DOUBLE;
    case mxSINGLE_CLASS: return c ? SCAN_CSINGLE : SCAN_SINGLE;
    case mxLOGICAL_CLASS: return SCAN_LOGICAL;
    case mxINT8_CLASS: return SCAN_INT8;
    case mxUINT8_CLASS: return SCAN_UINT8;
    case mxINT16_CLASS: return SCAN_INT16;
    case mxUINT16_CLASS: return SCAN_UINT16;
    case mxINT32_CLASS: return SCAN_INT32;
    case mxUINT32_CLASS: return SCAN_UINT32;
    case mxINT64_CLASS: return SCAN_INT64;
    case mxUINT64_CLASS: return SCAN_UINT64;
    default: *known = 0; return SCAN_DOUBLE;
    }
}

static mxClassID class_id_of (scan_type t)
{
  static const mxClassID id[SCAN_NTYPES] = {
    mxDOUBLE_CLASS, mxSINGLE_CLASS, mxDOUBLE_CLASS, mxSINGLE_CLASS, mxINT8_CLASS,
    mxUINT8_CLASS, mxINT16_CLASS, mxUINT16_CLASS, mxINT32_CLASS, mxUINT32_CLASS,
    mxINT64_CLASS, mxUINT64_CLASS, mxLOGICAL_CLASS };
  return id[t];
}

static int is_complex_type (scan_type t)
{
  return t == SCAN_CDOUBLE || t == SCAN_CSINGLE;
}

/* an array's dims as int64 (MAX_DIMS of them at most) */
#define MAX_DIMS 32
static int dims_of (const mxArray *a, int64_t *dims)
{
  const mwSize nd = mxGetNumberOfDimensions (a);
  const mwSize *d = mxGetDimensions (a);
  if (nd > MAX_DIMS)
    fail_with ("gpuscan:dims", "gpuscan_mex takes arrays of at most 32 dimensions");
  for (mwSize i = 0; i < nd; i++)
    dims[i] = (int64_t) d[i];
  return (int) nd;
}

/* an argument as the request builder reads it; DIM's values read as doubles */
static request_arg describe (const mxArray *a, int dim_place)
{
  request_arg r;
  memset (&r, 0, sizeof r);
  r.is_char = mxIsChar (a);
  if (r.is_char && mxGetM (a) <= 1)
    r.text = mxArrayToString (a);   /* (freed with the call) */
  r.is_numeric = mxIsNumeric (a) || mxIsLogical (a);
  r.is_complex = mxIsComplex (a);
  r.is_sparse = mxIsSparse (a);
  r.is_single = mxIsSingle (a);
  r.is_vector = mxGetNumberOfDimensions (a) == 2 && (mxGetM (a) == 1 || mxGetN (a) == 1);
  r.numel = (int64_t) mxGetNumberOfElements (a);
  r.class_name = mxGetClassName (a);
  int known;
  const scan_type t = type_of (a, &known);
  if (dim_place && r.is_numeric && ! r.is_complex && ! r.is_sparse && known && r.numel)
    {
      double *v = mxMalloc ((size_t) r.numel * sizeof (double));
      if (t == SCAN_DOUBLE)
        memcpy (v, mxGetData (a), (size_t) r.numel * sizeof (double));
      else if (engine_convert (t, SCAN_DOUBLE, mxGetData (a), v, r.numel) != 0)
        fail_with ("gpuscan:dim", "DIM (argument 2) must be a positive integer or a vector "
                   "of them (VECDIM)");
      r.values = v;
    }
  return r;
}

/* head flags (0/1 bytes) of a flags array, or of the keys' changes */
static const uint8_t *flags_of (const mxArray *f, const int64_t *xdims, int xnd,
                                const scan_desc *d, int keys, int *full)
{
  int64_t fdims[MAX_DIMS];
  const int fnd = dims_of (f, fdims);
  request_error e;
  int known;
  const scan_type t = type_of (f, &known);
  const char *what = keys ? "KEYS" : "SEGMENTS";
  if (keys && (! (known || mxIsChar (f)) || mxIsSparse (f)))
    mexErrMsgIdAndTxt ("gpuscan:keys", "%sKEYS must be a full numeric, logical or char array "
                       "in host memory, got %s", in_octave () ? "" : "gpuscan_mex: ",
                       mxGetClassName (f));
  if (! keys && (! known || mxIsComplex (f) || mxIsSparse (f)))
    fail_with ("gpuscan:segments", "SEGMENTS must be a real numeric or logical array of head "
               "flags (full, for gpuscan_mex)");
  if ((*full = scan_flags_layout (fdims, fnd, xdims, xnd, d->len, what, &e)) < 0)
    fail_with (e.id, e.msg);
  const int64_t n = (int64_t) mxGetNumberOfElements (f);
  uint8_t *h = mxMalloc (n ? (size_t) n : 1);
  if (keys)
    {
      const int64_t inner = *full ? d->inner : 1, outer = *full ? d->outer : 1;
      scan_key_heads (mxGetData (f), mxGetElementSize (f),
                      mxIsComplex (f) ? 2 : mxIsDouble (f) || mxIsSingle (f), inner, d->len,
                      outer, h);
      return h;
    }
  if (engine_flags (t, mxGetData (f), h, n))
    fail_with ("gpuscan:segments", "SEGMENTS must not contain NaN");
  return h;
}

/* v as an array of class t (real or complex double or single), for "recurrence" */
static void *as_operand (const mxArray *v, scan_type t)
{
  int known;
  const scan_type from = type_of (v, &known);
  const int64_t n = (int64_t) mxGetNumberOfElements (v);
  if (from == t)
    return mxGetData (v);
  /* to doubles first (real, or each part), then to t */
  const int cplx_from = is_complex_type (from);
  double *re = mxMalloc ((size_t) (n ? n : 1) * sizeof (double) * (cplx_from ? 2 : 1));
  if (from == SCAN_DOUBLE || from == SCAN_CDOUBLE)
    memcpy (re, mxGetData (v), (size_t) n * sizeof (double) * (cplx_from ? 2 : 1));
  else if (from == SCAN_CSINGLE)
    engine_convert (SCAN_CSINGLE, SCAN_CDOUBLE, mxGetData (v), re, n);
  else
    engine_convert (from, SCAN_DOUBLE, mxGetData (v), re, n);
  const int cplx = is_complex_type (t), single = t == SCAN_SINGLE || t == SCAN_CSINGLE;
  const size_t es = single ? 4 : 8;
  char *out = mxMalloc ((size_t) (n ? n : 1) * es * (cplx ? 2 : 1));
  for (int64_t i = 0; i < n; i++)
    {
      const double r = cplx_from ? re[2 * i] : re[i], im = cplx_from ? re[2 * i + 1] : 0;
      const int64_t k = cplx ? 2 * i : i;
      if (single)
        {
          ((float *) out)[k] = (float) r;
          if (cplx)
            ((float *) out)[k + 1] = (float) im;
        }
      else
        {
          ((double *) out)[k] = r;
          if (cplx)
            ((double *) out)[k + 1] = im;
        }
    }
  mxFree (re);
  return out;
}

/* The Octave major version that runs this (0 in MATLAB), asked once a load:
   exist ("OCTAVE_VERSION") is 5, a built-in function, in Octave */
static int octave_major (void)
{
  static int major = -1;
  if (major < 0)
    {
      mxArray *name = mxCreateString ("OCTAVE_VERSION"), *is = NULL, *v = NULL;
      major = 0;
      if (mexCallMATLAB (1, &is, 1, &name, "exist") == 0 && mxGetScalar (is) == 5
          && mexCallMATLAB (1, &v, 0, NULL, "OCTAVE_VERSION") == 0)
        {
          char *text = mxArrayToString (v);
          major = text ? atoi (text) : 11;
          mxFree (text);
        }
      mxDestroyArray (name);
      if (is)
        mxDestroyArray (is);
      if (v)
        mxDestroyArray (v);
    }
  return major;
}

static int in_octave (void)
{
  return octave_major () > 0;
}

/* the class rules of the Octave that runs this, or MATLAB's (Octave 11's) */
static class_rules rules_here (void)
{
  const int major = octave_major ();
  return major > 0 && major < 11 ? RULES_OCTAVE_BEFORE_11 : RULES_OCTAVE_11;
}

/* the engine's threads and memory, given back before the file is unloaded (clear) */
static void release_engine (void)
{
  engine_release ();
}

void mexFunction (int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
  static int registered;
  if (! registered)
    registered = mexAtExit (release_engine) == 0;
  if (nrhs < 1)
    fail_with ("gpuscan:nargin", "X is missing; usage: Y = gpuscan_mex (X, DIM, OPTION, ...)");
  if (nrhs > MAX_ARGS)
    fail_with ("gpuscan:nargin", "too many arguments");
  const mxArray *x = prhs[0];
  int known;
  const scan_type in = type_of (x, &known);
  if (! known)
    mexErrMsgIdAndTxt ("gpuscan:type", "%sX (argument 1) must be numeric or logical, got %s",
                       in_octave () ? "" : "gpuscan_mex: ", mxGetClassName (x));
  if (mxIsSparse (x))
    fail_with ("gpuscan:sparse", "X (argument 1) is sparse; use full (X)");

  request_arg args[MAX_ARGS];
  memset (args, 0, sizeof args);
  for (int i = 1; i < nrhs; i++)
    args[i] = describe (prhs[i], i == 1);
  scan_options o;
  request_error e;
  if (scan_options_parse (args, nrhs, 1, &o, &e))
    fail_with (e.id, e.msg);
  if (o.groups >= 0 || o.all || o.nvecdim || o.linear)
    mexErrMsgIdAndTxt ("gpuscan:option", "%sgpuscan_mex takes no \"%s\": gpuscan does",
                       in_octave () ? "" : "gpuscan_mex: ", o.groups >= 0 ? "groups"
                       : o.all ? "all" : o.nvecdim ? "VECDIM" : "linear");

  int64_t dims[MAX_DIMS];
  const int nd = dims_of (x, dims);
  scan_desc d;
  const request_arg *coef = o.coef >= 0 ? &args[o.coef] : NULL;
  const request_arg *initial = o.initial >= 0 ? &args[o.initial] : NULL;
  if (scan_desc_of_request (dims, nd, in, &o, coef, initial, nlhs, rules_here (), &d, &e))
    fail_with (e.id, e.msg);

  /* X as the engine reads it: its own class where the output's is wider (the engine
     reads it as it is), logical (X) for the logical operators, the operand's class for a
     recurrence */
  const int64_t n = scan_numel (&d);
  d.x = mxGetData (x);
  if (d.type == SCAN_LOGICAL && in != SCAN_LOGICAL)
    {
      uint8_t *l = mxMalloc (n ? (size_t) n : 1);
      if (engine_flags (in, mxGetData (x), l, n))
        fail_with ("gpuscan:nan", "X holds NaN, which has no logical value (\"and\", \"or\" "
                   "and \"xor\" scan logical (X))");
      d.x = l;
    }
  else if (d.op == SCAN_RECURRENCE)
    {
      d.x = as_operand (x, d.type);
      const mxArray *a = prhs[o.coef];
      int64_t adims[MAX_DIMS];
      const int and_ = dims_of (a, adims);
      if ((d.coef_scalar = scan_coef_layout (adims, and_, dims, nd, &e)) < 0)
        fail_with (e.id, e.msg);
      d.coef = as_operand (a, d.type);
      if (initial)
        {
          const double *y0 = as_operand (prhs[o.initial], SCAN_CDOUBLE);
          d.initial[0] = y0[0];
          d.initial[1] = y0[1];
        }
    }
  else if (d.type != in)
    {
      d.input = d.type == SCAN_DOUBLE ? scan_input_of (in) : SCAN_INPUT_AS_OUTPUT;
      if (d.input == SCAN_INPUT_AS_OUTPUT)   /* (complex single as complex double) */
        {
          void *w = mxMalloc ((size_t) (n ? n : 1) * scan_type_size (d.type));
          if (engine_convert (in, d.type, mxGetData (x), w, n) != 0)
            fail_with ("gpuscan:type", "no conversion of X to the output's class");
          d.x = w;
        }
    }
  if (o.segments >= 0)
    d.heads = flags_of (prhs[o.segments], dims, nd, &d, 0, &d.heads_full);
  else if (o.keys >= 0)
    d.heads = flags_of (prhs[o.keys], dims, nd, &d, 1, &d.heads_full);

  mwSize out_dims[MAX_DIMS];
  for (int i = 0; i < nd; i++)
    out_dims[i] = (mwSize) dims[i];
  if (d.type == SCAN_LOGICAL)
    plhs[0] = mxCreateLogicalArray ((mwSize) nd, out_dims);
  else if (is_complex_type (d.type))
    {
      /* an empty complex array given its data (Octave 7's complex arrays made with their
         size hold the real parts' bytes alone) */
      plhs[0] = mxCreateNumericMatrix (0, 0, class_id_of (d.type), mxCOMPLEX);
      void *data = mxMalloc ((size_t) (n ? n : 1) * scan_type_size (d.type));
      if (d.type == SCAN_CDOUBLE)
        mxSetComplexDoubles (plhs[0], data);
      else
        mxSetComplexSingles (plhs[0], data);
      mxSetDimensions (plhs[0], out_dims, (mwSize) nd);
    }
  else
    plhs[0] = mxCreateUninitNumericArray ((mwSize) nd, out_dims, class_id_of (d.type), mxREAL);
  d.y = mxGetData (plhs[0]);
  engine_huge_pages (d.y, (size_t) n * scan_type_size (d.type));
  if (nlhs > 1)
    {
      plhs[1] = mxCreateUninitNumericArray ((mwSize) nd, out_dims, mxDOUBLE_CLASS, mxREAL);
      d.index = mxGetDoubles (plhs[1]);
      engine_huge_pages (d.index, (size_t) n * sizeof (double));
    }
  char msg[512] = "";
  const engine_status s = n ? engine_scan (&d, o.algorithm, msg, sizeof msg) : ENGINE_OK;
  if (s != ENGINE_OK)
    fail_with (engine_status_id (s), msg);
}

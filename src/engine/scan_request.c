/* A gpuscan call's options and class rules (scan_request.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/algorithms.h"
#include "engine/scan_request.h"

static int fail (request_error *e, const char *id, const char *fmt, ...)
{
  e->id = id;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (e->msg, sizeof e->msg, fmt, ap);
  va_end (ap);
  return -1;
}

int scan_op_named (const char *name, scan_op *op)
{
  for (int i = 0; i < SCAN_NOPS; i++)
    if (i != SCAN_SATSUM && i != SCAN_RECURRENCE && i != SCAN_SATPROD
        && strcmp (name, scan_op_name ((scan_op) i)) == 0)
      {
        *op = (scan_op) i;
        return 1;
      }
  return 0;
}

/* DIM, or a vector of dimensions (Octave 11's VECDIM: r->vecdim where it has two or
   more, with the same errors); dimensions beyond the array's are singleton ones */
static int parse_dim (const request_arg *v, int argn, scan_options *r, request_error *e)
{
  if (! v->is_numeric || v->is_complex || ! v->is_vector || v->numel == 0 || ! v->values)
    return fail (e, "gpuscan:dim", "DIM (argument %d) must be a positive integer or a "
                 "vector of them (VECDIM)", argn);
  const int vec = v->numel > 1;
  if (v->numel > SCAN_VECDIM_MAX)
    return fail (e, "gpuscan:dim", "VECDIM (argument %d) names more than %d dimensions",
                 argn, SCAN_VECDIM_MAX);
  int seen[SCAN_VECDIM_MAX];
  for (int64_t i = 0; i < v->numel; i++)
    {
      const double d = v->values[i];
      if (! (d >= 1) || d != floor (d) || isinf (d))
        return fail (e, "gpuscan:dim", vec ? "invalid dimension in VECDIM = %g (argument "
                     "%d): dimensions are positive integers" : "invalid dimension DIM = %g "
                     "(argument %d): DIM is a positive integer", d, argn);
      const int k = d > 0x7fffffff ? 0x7fffffff : (int) d;
      for (int64_t j = 0; j < i; j++)
        if (seen[j] == k)
          return fail (e, "gpuscan:dim", "duplicate dimension in VECDIM = %d (argument %d)",
                       k, argn);
      seen[i] = k;
    }
  if (vec)
    {
      memcpy (r->vecdim, seen, (size_t) v->numel * sizeof (int));
      r->nvecdim = (int) v->numel;
    }
  else
    r->dim = seen[0];
  return 0;
}

static int set_flag (int *flag, int value, const char *a, const char *b, request_error *e)
{
  if (*flag >= 0 && *flag != value)
    return fail (e, "gpuscan:conflict", "options \"%s\" and \"%s\" conflict", a, b);
  *flag = value;
  return 0;
}

/* an option's value (the argument after its name) */
static int take_value (const request_arg *args, int nargs, int *i, const char *opt, int argn,
                       scan_options *r, request_error *e)
{
  if (*i + 1 >= nargs)
    return fail (e, "gpuscan:missing_value", "option \"%s\" (argument %d) needs a value",
                 opt, argn);
  const int at = ++*i;
  const request_arg *v = &args[at];
  if (! strcmp (opt, "segments"))
    r->segments = at;
  else if (! strcmp (opt, "keys"))
    r->keys = at;
  else if (! strcmp (opt, "groups"))
    r->groups = at;
  else if (! strcmp (opt, "recurrence"))
    {
      if (r->op_set && r->op != SCAN_RECURRENCE)
        return fail (e, "gpuscan:conflict", "operators \"%s\" and \"recurrence\" conflict "
                     "(argument %d)", scan_op_name (r->op), argn);
      r->op = SCAN_RECURRENCE;
      r->op_set = 1;
      r->coef = at;
    }
  else if (! strcmp (opt, "initial"))
    r->initial = at;
  else if (! strcmp (opt, "comparisonmethod"))
    {
      const char *m = v->text ? v->text : "";
      r->compare = ! strcasecmp (m, "auto") ? 0 : ! strcasecmp (m, "real") ? 1
                   : ! strcasecmp (m, "abs") ? 2 : -1;
      if (r->compare < 0)
        return fail (e, "gpuscan:option", "\"ComparisonMethod\" (argument %d) takes \"auto\", "
                     "\"real\" or \"abs\"", argn + 1);
    }
  else   /* "algorithm" */
    {
      if (! v->is_char || ! v->text)
        return fail (e, "gpuscan:algorithm", "ALGORITHM (argument %d) must be a name", argn + 1);
      const int a = engine_algorithm_from_name (v->text);
      if (a < 0)
        return fail (e, "gpuscan:algorithm", "unknown ALGORITHM \"%s\" (argument %d); known: "
                     "auto, cpu, kogge-stone, brent-kung, decoupled, cub", v->text, argn + 1);
      r->algorithm = (scan_algorithm) a;
    }
  return 0;
}

/* the checks between options, once all are read */
static int check_pairs (const scan_options *r, int has_dim, request_error *e)
{
  if (r->all && has_dim)
    return fail (e, "gpuscan:dim", "cannot set DIM or VECDIM with \"all\" (it scans every "
                 "element, as X(:))");
  if ((r->linear || r->compare >= 0) && r->op != SCAN_MAX && r->op != SCAN_MIN)
    return fail (e, "gpuscan:conflict", "option \"%s\" applies to max and min, not to \"%s\"",
                 r->linear ? "linear" : "ComparisonMethod", scan_op_name (r->op));
  if (r->initial >= 0 && r->op != SCAN_RECURRENCE)
    return fail (e, "gpuscan:initial", "option \"initial\" takes \"recurrence\", A");
  if (r->op == SCAN_RECURRENCE && (r->outclass || r->omitnan >= 0 || r->accurate || r->groups >= 0))
    return fail (e, "gpuscan:conflict", "\"recurrence\" takes no \"%s\"",
                 r->outclass == 1 ? "native" : r->outclass == 2 ? "double"
                 : r->omitnan == 1 ? "omitnan" : r->omitnan == 0 ? "includenan"
                 : r->accurate ? "accurate" : "groups");
  if ((r->segments >= 0) + (r->keys >= 0) + (r->groups >= 0) > 1)
    return fail (e, "gpuscan:conflict", "options \"segments\", \"keys\" and \"groups\" "
                 "conflict (each gives the segments)");
  if (r->omitnan >= 0 && r->op != SCAN_SUM && r->op != SCAN_PROD && r->op != SCAN_MAX
      && r->op != SCAN_MIN)
    return fail (e, "gpuscan:conflict", "option \"%s\" applies to sum, prod, max and min, not "
                 "to \"%s\"", r->omitnan ? "omitnan" : "includenan", scan_op_name (r->op));
  if (r->accurate && r->op != SCAN_SUM)
    return fail (e, "gpuscan:conflict", "option \"accurate\" applies to sums, not to \"%s\"",
                 scan_op_name (r->op));
  if (r->reproducible && r->algorithm == ALG_CUB)
    return fail (e, "gpuscan:conflict", "option \"reproducible\" does not apply to algorithm "
                 "\"cub\", whose look-back has no fixed order (take \"decoupled\")");
  if (r->outclass && r->op != SCAN_SUM && r->op != SCAN_PROD)
    return fail (e, "gpuscan:conflict", "option \"%s\" does not apply to \"%s\"",
                 r->outclass == 1 ? "native" : "double", scan_op_name (r->op));
  return 0;
}

int scan_options_parse (const request_arg *args, int nargs, int first, scan_options *r,
                        request_error *e)
{
  memset (r, 0, sizeof *r);
  r->op = SCAN_SUM;
  r->exclusive = r->reverse = r->omitnan = r->compare = -1;
  r->segments = r->keys = r->groups = r->coef = r->initial = -1;
  r->algorithm = ALG_AUTO;
  const int shift = first - 1;   /* argument numbers as the user wrote them */
  int has_dim = 0;
  if (nargs > first && ! args[first].is_char)
    {
      if (parse_dim (&args[first], 2, r, e))
        return -1;
      has_dim = 1;
      first++;
    }
  for (int i = first; i < nargs; i++)
    {
      const int argn = i + 1 - shift;
      if (! args[i].is_char || ! args[i].text)
        return fail (e, "gpuscan:option", "argument %d must be an option name (a string); "
                     "DIM may only be argument 2", argn);
      /* the name in lower case (a longer one is no option's) */
      char opt[24];
      const size_t n = strlen (args[i].text);
      for (size_t k = 0; k <= n && k < sizeof opt; k++)
        opt[k] = (char) (args[i].text[k] >= 'A' && args[i].text[k] <= 'Z'
                         ? args[i].text[k] - 'A' + 'a' : args[i].text[k]);
      if (n >= sizeof opt)
        opt[0] = 0;   /* (matches nothing but "", which is no option either) */
      scan_op op;
      int err = 0;
      if (n < sizeof opt && *opt && scan_op_named (opt, &op))
        {
          if (r->op_set && op != r->op)
            return fail (e, "gpuscan:conflict", "operators \"%s\" and \"%s\" conflict "
                         "(argument %d)", scan_op_name (r->op), opt, argn);
          r->op = op;
          r->op_set = 1;
        }
      else if (n >= sizeof opt || ! *opt)
        err = -2;
      else if (! strcmp (opt, "inclusive") || ! strcmp (opt, "exclusive"))
        err = set_flag (&r->exclusive, ! strcmp (opt, "exclusive"), "inclusive", "exclusive", e);
      else if (! strcmp (opt, "forward") || ! strcmp (opt, "reverse"))
        err = set_flag (&r->reverse, ! strcmp (opt, "reverse"), "forward", "reverse", e);
      else if (! strcmp (opt, "accurate"))
        r->accurate = 1;
      else if (! strcmp (opt, "reproducible"))
        r->reproducible = 1;
      else if (! strcmp (opt, "omitnan") || ! strcmp (opt, "includenan"))
        err = set_flag (&r->omitnan, ! strcmp (opt, "omitnan"), "omitnan", "includenan", e);
      /* (MATLAB's names since R2023a) */
      else if (! strcmp (opt, "omitmissing") || ! strcmp (opt, "includemissing"))
        err = set_flag (&r->omitnan, ! strcmp (opt, "omitmissing"), "omitmissing",
                        "includemissing", e);
      else if (! strcmp (opt, "all"))
        r->all = 1;
      else if (! strcmp (opt, "linear"))
        r->linear = 1;
      else if (! strcmp (opt, "native") || ! strcmp (opt, "double"))
        {
          const int oc = ! strcmp (opt, "native") ? 1 : 2;
          if (r->outclass && r->outclass != oc)
            return fail (e, "gpuscan:conflict", "options \"native\" and \"double\" conflict");
          r->outclass = oc;
        }
      else if (! strcmp (opt, "segments") || ! strcmp (opt, "keys") || ! strcmp (opt, "groups")
               || ! strcmp (opt, "algorithm") || ! strcmp (opt, "recurrence")
               || ! strcmp (opt, "initial") || ! strcmp (opt, "comparisonmethod"))
        err = take_value (args, nargs, &i, opt, argn, r, e);
      else
        err = -2;
      if (err == -2)
        return fail (e, "gpuscan:option", "unknown option \"%s\" (argument %d); known: sum, "
                     "prod, max, min, and, or, xor, bitand, bitor, bitxor, logsumexp, native, "
                     "double, inclusive, exclusive, forward, reverse, omitnan, includenan, "
                     "omitmissing, includemissing, all, linear, ComparisonMethod, accurate, "
                     "reproducible, segments, keys, groups, recurrence, initial, algorithm",
                     args[i].text, argn);
      if (err)
        return -1;
    }
  return check_pairs (r, has_dim, e);
}

void scan_extent (const int64_t *dims, int ndims, int dim, int64_t *inner, int64_t *len,
                  int64_t *outer)
{
  if (dim == 0)
    {
      dim = 1;
      for (int i = 0; i < ndims; i++)
        if (dims[i] != 1)
          {
            dim = i + 1;
            break;
          }
    }
  *inner = 1;
  *len = dim <= ndims ? dims[dim - 1] : 1;
  *outer = 1;
  for (int i = 0; i < ndims; i++)
    {
      if (i < dim - 1)
        *inner *= dims[i];
      else if (i > dim - 1)
        *outer *= dims[i];
    }
}

static int is_complex_type (scan_type t)
{
  return t == SCAN_CDOUBLE || t == SCAN_CSINGLE;
}

/* Octave's class name of a type */
static const char *class_of (scan_type t)
{
  return t == SCAN_CDOUBLE ? "double" : t == SCAN_CSINGLE ? "single" : scan_type_name (t);
}

/* "recurrence": floating as Octave's arithmetic gives A .* Y + X: single where X, A or Y0
   is single, complex where one is complex (integers and logical as double) */
static int recurrence_type (scan_type in, const request_arg *a, const request_arg *y0,
                            scan_desc *d, request_error *e)
{
  if (! a->is_numeric || a->is_sparse)
    return fail (e, "gpuscan:recurrence", "\"recurrence\" takes a full numeric A (a scalar "
                 "or the size of X), got %s", a->class_name);
  if (y0 && (! y0->is_numeric || y0->numel != 1))
    return fail (e, "gpuscan:initial", "\"initial\" takes a numeric scalar Y0");
  const int single = in == SCAN_SINGLE || in == SCAN_CSINGLE || a->is_single
                     || (y0 && y0->is_single);
  const int cplx = is_complex_type (in) || a->is_complex || (y0 && y0->is_complex);
  d->type = single ? (cplx ? SCAN_CSINGLE : SCAN_SINGLE) : (cplx ? SCAN_CDOUBLE : SCAN_DOUBLE);
  return 0;
}

int scan_desc_of_request (const int64_t *dims, int ndims, scan_type in, const scan_options *r,
                          const request_arg *coef, const request_arg *initial, int nargout,
                          class_rules rules, scan_desc *d, request_error *e)
{
  if (nargout > 2)
    return fail (e, "gpuscan:nargout", "at most 2 outputs, [Y, IY]");
  if (nargout > 1 && r->op != SCAN_MAX && r->op != SCAN_MIN)
    return fail (e, "gpuscan:index", "the index output IY needs \"max\" or \"min\", not "
                 "\"%s\"", scan_op_name (r->op));
  memset (d, 0, sizeof *d);
  scan_extent (dims, ndims, r->dim, &d->inner, &d->len, &d->outer);
  d->exclusive = r->exclusive > 0;
  d->reverse = r->reverse > 0;
  d->op = r->op;

  const int complex = is_complex_type (in);
  const int integer = in >= SCAN_INT8 && in <= SCAN_UINT64;
  const char *cls = class_of (in);
  if (r->op == SCAN_AND || r->op == SCAN_OR || r->op == SCAN_XOR)
    {
      /* on logical values: X as logical (X) gives them (the gateway converts) */
      if (complex)
        return fail (e, "gpuscan:type", "\"%s\" takes logical or real X, got complex %s",
                     scan_op_name (r->op), cls);
      d->type = SCAN_LOGICAL;
      return 0;
    }
  if (r->op == SCAN_BITAND || r->op == SCAN_BITOR || r->op == SCAN_BITXOR)
    {
      if (in != SCAN_UINT8 && in != SCAN_UINT16 && in != SCAN_UINT32 && in != SCAN_UINT64)
        return fail (e, "gpuscan:type", "\"%s\" takes unsigned integers (uint8, uint16, "
                     "uint32, uint64), got %s%s", scan_op_name (r->op),
                     complex ? "complex " : "", cls);
      d->type = in;
      return 0;
    }
  if (r->op == SCAN_RECURRENCE)
    return recurrence_type (in, coef, initial, d, e);
  if (r->op == SCAN_LOGSUMEXP)
    {
      if (complex)
        return fail (e, "gpuscan:type", "\"logsumexp\" takes real X, got complex %s", cls);
      d->type = in == SCAN_SINGLE ? SCAN_SINGLE : SCAN_DOUBLE;   /* integers as cumsum: double */
      return 0;
    }
  const int rules_11 = rules == RULES_OCTAVE_11;
  /* Octave 11's cumsum and cumprod keep an integer class (saturating at every step),
     earlier versions' give double */
  const int native = r->outclass == 1 || (r->outclass == 0 && integer && rules_11);
  const int to_double = r->outclass == 2
                        || ((integer || in == SCAN_LOGICAL)
                            && (r->op == SCAN_SUM || r->op == SCAN_PROD) && ! native);
  /* MATLAB's NaN flags where they change Octave's rule (the other two are Octave's) */
  if (r->omitnan == 1 && (r->op == SCAN_SUM || r->op == SCAN_PROD))
    d->nan_rule = SCAN_NAN_OMIT;
  else if (r->omitnan == 0 && (r->op == SCAN_MAX || r->op == SCAN_MIN))
    d->nan_rule = SCAN_NAN_INCLUDE;
  if (to_double || in == SCAN_DOUBLE || in == SCAN_CDOUBLE)
    d->type = complex ? SCAN_CDOUBLE : SCAN_DOUBLE;
  else
    {
      d->type = in;
      /* integer "native" sums and products saturate; a logical sum is a running OR, a
         logical product a running AND */
      if (d->op == SCAN_SUM && (integer || in == SCAN_LOGICAL))
        d->op = SCAN_SATSUM;
      else if (d->op == SCAN_PROD && integer)
        d->op = SCAN_SATPROD;
      else if (d->op == SCAN_PROD && in == SCAN_LOGICAL)
        d->op = SCAN_AND;
    }
  /* "ComparisonMethod": "real" changes complex max and min, "abs" signed real ones; the
     other pairings are the rules' (Octave 11 no longer takes an arg of -pi as pi) */
  if (r->compare == 1 && complex)
    d->compare = SCAN_CMP_REAL;
  else if (complex && (r->op == SCAN_MAX || r->op == SCAN_MIN) && rules_11)
    d->compare = SCAN_CMP_ABS;
  else if (r->compare == 2 && ! complex
           && (in == SCAN_DOUBLE || in == SCAN_SINGLE || in == SCAN_INT8 || in == SCAN_INT16
               || in == SCAN_INT32 || in == SCAN_INT64))
    d->compare = SCAN_CMP_ABS;
  if (d->type != SCAN_DOUBLE && d->type != SCAN_SINGLE && d->type != SCAN_CDOUBLE
      && d->type != SCAN_CSINGLE)
    d->nan_rule = SCAN_NAN_OCTAVE;   /* (no NaN to treat) */
  else
    d->accurate = r->accurate && d->op == SCAN_SUM;
  /* an accurate sum is reproducible too: its double-double additions round in the last
     bits of lo, so that its grouping, and the engine, must not depend on the timing */
  d->reproducible = r->reproducible || d->accurate;
  return 0;
}

/* dims as Octave prints them: 3x4x2 */
static const char *dims_text (const int64_t *dims, int nd, char *buf, size_t size)
{
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < nd && k < size; i++)
    k += (size_t) snprintf (buf + k, size - k, "%s%lld", i ? "x" : "", (long long) dims[i]);
  return buf;
}

int scan_flags_layout (const int64_t *fdims, int fnd, const int64_t *xdims, int xnd,
                       int64_t len, const char *what, request_error *e)
{
  int same = fnd == xnd;
  for (int i = 0; same && i < fnd; i++)
    same = fdims[i] == xdims[i];
  if (same)
    return 1;
  int64_t numel = 1;
  for (int i = 0; i < fnd; i++)
    numel *= fdims[i];
  if (fnd == 2 && (fdims[0] == 1 || fdims[1] == 1) && numel == len)
    return 0;
  char xt[128], ft[128];
  return fail (e, what[0] == 'K' ? "gpuscan:keys" : "gpuscan:segments", "%s must be the size "
               "of X (%s) or a vector of length size (X, DIM) = %ld, got %s", what,
               dims_text (xdims, xnd, xt, sizeof xt), (long) len,
               dims_text (fdims, fnd, ft, sizeof ft));
}

int scan_coef_layout (const int64_t *adims, int and_, const int64_t *xdims, int xnd,
                      request_error *e)
{
  int64_t numel = 1;
  for (int i = 0; i < and_; i++)
    numel *= adims[i];
  if (numel == 1)
    return 1;
  int same = and_ == xnd;
  for (int i = 0; same && i < and_; i++)
    same = adims[i] == xdims[i];
  if (same)
    return 0;
  char xt[128], at[128];
  return fail (e, "gpuscan:recurrence", "\"recurrence\" takes A of one element or the size "
               "of X (%s), got %s", dims_text (xdims, xnd, xt, sizeof xt),
               dims_text (adims, and_, at, sizeof at));
}

/* keys k and j differ (floating: 1 real, 2 complex, each part compared as a number) */
static int keys_differ (const char *p, size_t es, int floating, int64_t k, int64_t j)
{
  const int parts = floating == 2 ? 2 : 1;
  const size_t ps = es / (size_t) parts;
  if (floating && ps == 8)
    {
      const double *a = (const double *) p + parts * k, *b = (const double *) p + parts * j;
      return a[0] != b[0] || (parts == 2 && a[1] != b[1]);
    }
  if (floating && ps == 4)
    {
      const float *a = (const float *) p + parts * k, *b = (const float *) p + parts * j;
      return a[0] != b[0] || (parts == 2 && a[1] != b[1]);
    }
  return memcmp (p + (size_t) k * es, p + (size_t) j * es, es) != 0;
}

void scan_key_heads (const void *keys, size_t elem_bytes, int floating, int64_t inner,
                     int64_t len, int64_t outer, uint8_t *heads)
{
  const char *p = keys;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < len; k++)
      for (int64_t i = 0; i < inner; i++)
        {
          const int64_t at = i + inner * (k + len * o);
          heads[at] = k == 0 || keys_differ (p, elem_bytes, floating, at, at - inner);
        }
}

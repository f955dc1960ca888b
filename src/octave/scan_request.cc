// Gateway layer: option parsing, Octave's class rules and segment flags.
#include "scan_request.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>

#include <sys/mman.h>

#include <octave/version.h>

namespace
{
// what changed in Octave 11's cumsum, cumprod, cummax and cummin
#if OCTAVE_MAJOR_VERSION >= 11
  constexpr bool integer_sums_native = true;
  constexpr bool complex_arg_unfolded = true;
#else
  constexpr bool integer_sums_native = false;
  constexpr bool complex_arg_unfolded = false;
#endif

  std::string lower (std::string s)
  {
    for (auto& c : s)
      c = std::tolower (static_cast<unsigned char> (c));
    return s;
  }

  // DIM, or a vector of dimensions (Octave 11's VECDIM: r.vecdim where it has two or
  // more, with the same errors); dimensions beyond the array's are singleton ones
  void parse_dim (const octave_value& v, int argn, scan_request& r)
  {
    if (! (v.isnumeric () || v.islogical ()) || v.iscomplex () || ! v.dims ().isvector ()
        || v.isempty ())
      error_with_id ("gpuscan:dim", "gpuscan: DIM (argument %d) must be a positive "
                     "integer or a vector of them (VECDIM)", argn);
    const NDArray dims = v.array_value ();
    const bool vec = dims.numel () > 1;
    std::vector<int> seen;
    for (octave_idx_type i = 0; i < dims.numel (); i++)
      {
        const double d = dims(i);
        if (! (d >= 1) || d != std::floor (d) || std::isinf (d))
          error_with_id ("gpuscan:dim", vec ? "gpuscan: invalid dimension in VECDIM = %g "
                         "(argument %d): dimensions are positive integers"
                         : "gpuscan: invalid dimension DIM = %g (argument %d): DIM is a "
                         "positive integer", d, argn);
        const int k = d > 0x7fffffff ? 0x7fffffff : static_cast<int> (d);
        for (int j : seen)
          if (j == k)
            error_with_id ("gpuscan:dim", "gpuscan: duplicate dimension in VECDIM = %d "
                           "(argument %d)", k, argn);
        seen.push_back (k);
      }
    if (vec)
      r.vecdim = seen;
    else
      r.dim = seen[0];
  }

  void set_flag (int& flag, int value, const char *a, const char *b)
  {
    if (flag >= 0 && flag != value)
      error_with_id ("gpuscan:conflict", "gpuscan: options \"%s\" and \"%s\" conflict",
                     a, b);
    flag = value;
  }
}

bool scan_op_named (const std::string& name, scan_op& op)
{
  for (int i = 0; i < SCAN_NOPS; i++)
    if (i != SCAN_SATSUM && i != SCAN_RECURRENCE && name == scan_op_name (static_cast<scan_op> (i)))
      {
        op = static_cast<scan_op> (i);
        return true;
      }
  return false;
}

scan_request parse_scan_options (const octave_value_list& args, int first)
{
  scan_request r;
  const int shift = first - 1;   // argument numbers as the user wrote them
  bool has_dim = false;
  if (args.length () > first && ! args(first).is_string ())
    {
      parse_dim (args(first), 2, r);
      has_dim = true;
      first++;
    }
  for (int i = first; i < args.length (); i++)
    {
      const int argn = i + 1 - shift;
      if (! args(i).is_string () || args(i).rows () > 1)
        error_with_id ("gpuscan:option", "gpuscan: argument %d must be an option "
                       "name (a string); DIM may only be argument 2", argn);
      const std::string opt = lower (args(i).string_value ());
      scan_op op;
      if (scan_op_named (opt, op))
        {
          if (r.op_set && op != r.op)
            error_with_id ("gpuscan:conflict", "gpuscan: operators \"%s\" and \"%s\" "
                           "conflict (argument %d)", scan_op_name (r.op),
                           opt.c_str (), argn);
          r.op = op;
          r.op_set = true;
        }
      else if (opt == "inclusive" || opt == "exclusive")
        set_flag (r.exclusive, opt == "exclusive", "inclusive", "exclusive");
      else if (opt == "forward" || opt == "reverse")
        set_flag (r.reverse, opt == "reverse", "forward", "reverse");
      else if (opt == "accurate")
        r.accurate = true;
      else if (opt == "reproducible")
        r.reproducible = true;
      else if (opt == "omitnan" || opt == "includenan")
        set_flag (r.omitnan, opt == "omitnan", "omitnan", "includenan");
      // (MATLAB's names since R2023a)
      else if (opt == "omitmissing" || opt == "includemissing")
        set_flag (r.omitnan, opt == "omitmissing", "omitmissing", "includemissing");
      else if (opt == "all")
        r.all = true;
      else if (opt == "linear")
        r.linear = true;
      else if (opt == "native" || opt == "double")
        {
          const int oc = opt == "native" ? 1 : 2;
          if (r.outclass && r.outclass != oc)
            error_with_id ("gpuscan:conflict", "gpuscan: options \"native\" and "
                           "\"double\" conflict");
          r.outclass = oc;
        }
      else if (opt == "segments" || opt == "keys" || opt == "groups" || opt == "algorithm"
               || opt == "recurrence" || opt == "initial" || opt == "comparisonmethod")
        {
          if (i + 1 >= args.length ())
            error_with_id ("gpuscan:missing_value", "gpuscan: option \"%s\" "
                           "(argument %d) needs a value", opt.c_str (), argn);
          const octave_value& v = args(++i);
          if (opt == "segments")
            {
              r.segments = v;
              r.has_segments = true;
            }
          else if (opt == "keys")
            {
              r.keys = v;
              r.has_keys = true;
            }
          else if (opt == "groups")
            {
              r.groups = v;
              r.has_groups = true;
            }
          else if (opt == "recurrence")
            {
              if (r.op_set && r.op != SCAN_RECURRENCE)
                error_with_id ("gpuscan:conflict", "gpuscan: operators \"%s\" and "
                               "\"recurrence\" conflict (argument %d)", scan_op_name (r.op), argn);
              r.op = SCAN_RECURRENCE;
              r.op_set = true;
              r.coef = v;
            }
          else if (opt == "initial")
            {
              r.initial = v;
              r.has_initial = true;
            }
          else if (opt == "comparisonmethod")
            {
              const std::string m = v.is_string () && v.rows () == 1
                                    ? lower (v.string_value ()) : "";
              if (m != "auto" && m != "real" && m != "abs")
                error_with_id ("gpuscan:option", "gpuscan: \"ComparisonMethod\" "
                               "(argument %d) takes \"auto\", \"real\" or \"abs\"",
                               argn + 1);
              r.compare = m == "auto" ? 0 : m == "real" ? 1 : 2;
            }
          else
            {
              if (! v.is_string ())
                error_with_id ("gpuscan:algorithm", "gpuscan: ALGORITHM (argument %d) "
                               "must be a name", argn + 1);
              const int a = engine_algorithm_from_name (v.string_value ().c_str ());
              if (a < 0)
                error_with_id ("gpuscan:algorithm", "gpuscan: unknown ALGORITHM "
                               "\"%s\" (argument %d); known: auto, cpu, kogge-stone, "
                               "brent-kung, decoupled, cub",
                               v.string_value ().c_str (), argn + 1);
              r.algorithm = static_cast<scan_algorithm> (a);
            }
        }
      else
        error_with_id ("gpuscan:option", "gpuscan: unknown option \"%s\" "
                       "(argument %d); known: sum, prod, max, min, and, or, xor, bitand, "
                       "bitor, bitxor, logsumexp, native, double, "
                       "inclusive, exclusive, forward, reverse, omitnan, includenan, "
                       "omitmissing, includemissing, all, linear, ComparisonMethod, "
                       "accurate, reproducible, segments, keys, groups, recurrence, initial, algorithm",
                       args(i).string_value ().c_str (), argn);
    }
  if (r.all && has_dim)
    error_with_id ("gpuscan:dim", "gpuscan: cannot set DIM or VECDIM with \"all\" (it "
                   "scans every element, as X(:))");
  if ((r.linear || r.compare >= 0) && r.op != SCAN_MAX && r.op != SCAN_MIN)
    error_with_id ("gpuscan:conflict", "gpuscan: option \"%s\" applies to max and min, "
                   "not to \"%s\"", r.linear ? "linear" : "ComparisonMethod",
                   scan_op_name (r.op));
  if (r.has_initial && r.op != SCAN_RECURRENCE)
    error_with_id ("gpuscan:initial", "gpuscan: option \"initial\" takes \"recurrence\", A");
  if (r.op == SCAN_RECURRENCE && (r.outclass || r.omitnan >= 0 || r.accurate || r.has_groups))
    error_with_id ("gpuscan:conflict", "gpuscan: \"recurrence\" takes no \"%s\"",
                   r.outclass == 1 ? "native" : r.outclass == 2 ? "double" : r.omitnan == 1
                   ? "omitnan" : r.omitnan == 0 ? "includenan" : r.accurate ? "accurate" : "groups");
  if (r.has_segments + r.has_keys + r.has_groups > 1)
    error_with_id ("gpuscan:conflict", "gpuscan: options \"segments\", \"keys\" and "
                   "\"groups\" conflict (each gives the segments)");
  if (r.omitnan >= 0 && r.op != SCAN_SUM && r.op != SCAN_PROD && r.op != SCAN_MAX
      && r.op != SCAN_MIN)
    error_with_id ("gpuscan:conflict", "gpuscan: option \"%s\" applies to sum, prod, max "
                   "and min, not to \"%s\"", r.omitnan ? "omitnan" : "includenan",
                   scan_op_name (r.op));
  if (r.accurate && r.op != SCAN_SUM)
    error_with_id ("gpuscan:conflict", "gpuscan: option \"accurate\" applies to sums, "
                   "not to \"%s\"", scan_op_name (r.op));
  if (r.reproducible && r.algorithm == ALG_CUB)
    error_with_id ("gpuscan:conflict", "gpuscan: option \"reproducible\" does not apply to "
                   "algorithm \"cub\", whose look-back has no fixed order (take \"decoupled\")");
  if (r.outclass && r.op != SCAN_SUM && r.op != SCAN_PROD)
    error_with_id ("gpuscan:conflict", "gpuscan: option \"%s\" does not apply to "
                   "\"%s\"", r.outclass == 1 ? "native" : "double",
                   scan_op_name (r.op));
  return r;
}

scan_type scan_type_of (const octave_value& x, const char *what)
{
  if (! (x.isnumeric () || x.islogical ()) || x.is_string ())
    error_with_id ("gpuscan:type", "gpuscan: %s must be numeric or logical, got %s",
                   what, x.class_name ().c_str ());
  if (x.issparse ())
    error_with_id ("gpuscan:sparse", "gpuscan: %s is sparse; use full (X)", what);
  return scan_type_named (x.class_name (), x.iscomplex ());
}

bool scan_type_find (const std::string& cls, bool complex, scan_type& t)
{
  for (int i = 0; i < SCAN_NTYPES; i++)
    if (cls == scan_type_class (static_cast<scan_type> (i))
        && complex == scan_type_complex (static_cast<scan_type> (i)))
      {
        t = static_cast<scan_type> (i);
        return true;
      }
  return false;
}

scan_type scan_type_named (const std::string& cls, bool complex)
{
  scan_type t;
  if (scan_type_find (cls, complex, t))
    return t;
  error_with_id ("gpuscan:type", "gpuscan: unsupported class %s%s",
                 complex ? "complex " : "", cls.c_str ());
}

const char *scan_type_class (scan_type t)
{
  static const char *const cls[SCAN_NTYPES] = {
    "double", "single", "double", "single", "int8", "uint8", "int16", "uint16",
    "int32", "uint32", "int64", "uint64", "logical" };
  return t < SCAN_NTYPES ? cls[t] : "?";
}

bool scan_type_complex (scan_type t)
{
  return t == SCAN_CDOUBLE || t == SCAN_CSINGLE;
}

void scan_extent (const dim_vector& dv, int dim, int64_t& inner, int64_t& len, int64_t& outer)
{
  if (dim == 0)
    {
      dim = 1;
      for (int i = 0; i < dv.ndims (); i++)
        if (dv(i) != 1)
          {
            dim = i + 1;
            break;
          }
    }
  inner = 1;
  len = dim <= dv.ndims () ? dv(dim - 1) : 1;
  outer = 1;
  for (int i = 0; i < dv.ndims (); i++)
    {
      if (i < dim - 1)
        inner *= dv(i);
      else if (i > dim - 1)
        outer *= dv(i);
    }
}

scan_desc plan_scan (const dim_vector& dv, scan_type in, const scan_request& r, int nargout)
{
  if (nargout > 2)
    error_with_id ("gpuscan:nargout", "gpuscan: at most 2 outputs, [Y, IY]");
  if (nargout > 1 && r.op != SCAN_MAX && r.op != SCAN_MIN)
    error_with_id ("gpuscan:index", "gpuscan: the index output IY needs \"max\" or "
                   "\"min\", not \"%s\"", scan_op_name (r.op));
  scan_desc d = {};
  scan_extent (dv, r.dim, d.inner, d.len, d.outer);
  d.exclusive = r.exclusive > 0;
  d.reverse = r.reverse > 0;
  d.op = r.op;
  d.index = nullptr;

  const bool complex = scan_type_complex (in);
  const bool integer = in >= SCAN_INT8 && in <= SCAN_UINT64;
  const char *cls = scan_type_class (in);
  if (r.op == SCAN_AND || r.op == SCAN_OR || r.op == SCAN_XOR)
    {
      // on logical values: X as logical (X) gives them (the gateway converts)
      if (complex)
        error_with_id ("gpuscan:type", "gpuscan: \"%s\" takes logical or real X, got "
                       "complex %s", scan_op_name (r.op), cls);
      d.type = SCAN_LOGICAL;
      return d;
    }
  if (r.op == SCAN_BITAND || r.op == SCAN_BITOR || r.op == SCAN_BITXOR)
    {
      if (in != SCAN_UINT8 && in != SCAN_UINT16 && in != SCAN_UINT32 && in != SCAN_UINT64)
        error_with_id ("gpuscan:type", "gpuscan: \"%s\" takes unsigned integers (uint8, "
                       "uint16, uint32, uint64), got %s%s", scan_op_name (r.op),
                       complex ? "complex " : "", cls);
      d.type = in;
      return d;
    }
  if (r.op == SCAN_RECURRENCE)
    {
      // floating as Octave's arithmetic gives A .* Y + X: single where X, A or Y0 is
      // single, complex where one is complex (integers and logical as double)
      const octave_value& a = r.coef;
      if (! (a.isnumeric () || a.islogical ()) || a.issparse ())
        error_with_id ("gpuscan:recurrence", "gpuscan: \"recurrence\" takes a full numeric "
                       "A (a scalar or the size of X), got %s", a.class_name ().c_str ());
      const octave_value& y0 = r.initial;
      if (r.has_initial && (! (y0.isnumeric () || y0.islogical ()) || y0.numel () != 1))
        error_with_id ("gpuscan:initial", "gpuscan: \"initial\" takes a numeric scalar Y0");
      const bool single = in == SCAN_SINGLE || in == SCAN_CSINGLE || a.is_single_type ()
                          || (r.has_initial && y0.is_single_type ());
      const bool cplx = complex || a.iscomplex () || (r.has_initial && y0.iscomplex ());
      d.type = single ? (cplx ? SCAN_CSINGLE : SCAN_SINGLE) : (cplx ? SCAN_CDOUBLE : SCAN_DOUBLE);
      return d;
    }
  if (r.op == SCAN_LOGSUMEXP)
    {
      if (complex)
        error_with_id ("gpuscan:type", "gpuscan: \"logsumexp\" takes real X, got complex "
                       "%s", cls);
      d.type = in == SCAN_SINGLE ? SCAN_SINGLE : SCAN_DOUBLE;   // integers as cumsum: double
      return d;
    }
  // Octave 11's cumsum and cumprod keep an integer class (saturating at every step),
  // earlier versions' give double: the Octave this is built for decides
  const bool native = r.outclass == 1 || (r.outclass == 0 && integer && integer_sums_native);
  const bool to_double = r.outclass == 2
                         || ((integer || in == SCAN_LOGICAL)
                             && (r.op == SCAN_SUM || r.op == SCAN_PROD) && ! native);
  // MATLAB's NaN flags where they change Octave's rule (the other two are Octave's)
  if (r.omitnan == 1 && (r.op == SCAN_SUM || r.op == SCAN_PROD))
    d.nan_rule = SCAN_NAN_OMIT;
  else if (r.omitnan == 0 && (r.op == SCAN_MAX || r.op == SCAN_MIN))
    d.nan_rule = SCAN_NAN_INCLUDE;
  if (to_double || in == SCAN_DOUBLE || in == SCAN_CDOUBLE)
    d.type = complex ? SCAN_CDOUBLE : SCAN_DOUBLE;
  else
    {
      d.type = in;
      // integer "native" sums and products saturate; a logical sum is a running OR, a
      // logical product a running AND
      if (d.op == SCAN_SUM && (integer || in == SCAN_LOGICAL))
        d.op = SCAN_SATSUM;
      else if (d.op == SCAN_PROD && integer)
        d.op = SCAN_SATPROD;
      else if (d.op == SCAN_PROD && in == SCAN_LOGICAL)
        d.op = SCAN_AND;
    }
  // "ComparisonMethod": "real" changes complex max and min, "abs" signed real ones; the
  // other pairings are Octave's rule, for complex numbers that of the Octave this is
  // built for (Octave 11 no longer takes an arg of -pi as pi)
  if (r.compare == 1 && complex)
    d.compare = SCAN_CMP_REAL;
  else if (complex && (r.op == SCAN_MAX || r.op == SCAN_MIN) && complex_arg_unfolded)
    d.compare = SCAN_CMP_ABS;
  else if (r.compare == 2 && ! complex
           && (in == SCAN_DOUBLE || in == SCAN_SINGLE || in == SCAN_INT8 || in == SCAN_INT16
               || in == SCAN_INT32 || in == SCAN_INT64))
    d.compare = SCAN_CMP_ABS;
  if (d.type != SCAN_DOUBLE && d.type != SCAN_SINGLE && d.type != SCAN_CDOUBLE
      && d.type != SCAN_CSINGLE)
    d.nan_rule = SCAN_NAN_OCTAVE;   // (no NaN to treat)
  else
    d.accurate = r.accurate && d.op == SCAN_SUM;
  // an accurate sum is reproducible too: its double-double additions round in the last
  // bits of lo, so that its grouping, and the engine, must not depend on the timing
  d.reproducible = r.reproducible || d.accurate;
  return d;
}

int segment_layout (const dim_vector& fdv, const dim_vector& xdv, octave_idx_type len,
                    const char *what)
{
  if (fdv == xdv)
    return 1;
  if (fdv.isvector () && fdv.numel () == len)
    return 0;
  error_with_id (what[0] == 'K' ? "gpuscan:keys" : "gpuscan:segments",
                 "gpuscan: %s must be the size of X (%s) or a vector of length "
                 "size (X, DIM) = %ld, got %s", what, xdv.str ().c_str (),
                 static_cast<long> (len), fdv.str ().c_str ());
}

octave_value key_heads (const octave_value& g, const dim_vector& xdv, const scan_desc& d)
{
  if (! (g.isnumeric () || g.islogical () || g.is_string ()) || g.issparse ())
    error_with_id ("gpuscan:keys", "gpuscan: KEYS must be a full numeric, logical or char "
                   "array in host memory, got %s", g.class_name ().c_str ());
  const bool full = segment_layout (g.dims (), xdv, d.len, "KEYS");
  // G as (lanes, steps, slices): a head where an element differs from the one before it
  // along the scan (compared in G's own class, so int64 keys stay exact; NaN != NaN)
  const octave_idx_type inner = full ? d.inner : 1, len = d.len, outer = full ? d.outer : 1;
  octave_value g3 = g.reshape (dim_vector (inner, len, outer));
  boolNDArray h (dim_vector (inner, len, outer), true);
  if (len > 1)
    {
      NDArray later (dim_vector (len - 1, 1)), earlier (dim_vector (len - 1, 1));
      for (octave_idx_type k = 1; k < len; k++)
        {
          later(k - 1) = k + 1;
          earlier(k - 1) = k;
        }
      const octave_value colon (octave_value::magic_colon_t);
      const octave_value ne
        = octave::binary_op (octave_value::op_ne,
                             g3.index_op (octave_value_list (ovl (colon, later, colon))),
                             g3.index_op (octave_value_list (ovl (colon, earlier, colon))));
      const boolNDArray changed = ne.bool_array_value ();
      for (octave_idx_type o = 0; o < outer; o++)
        for (octave_idx_type k = 1; k < len; k++)
          for (octave_idx_type i = 0; i < inner; i++)
            h(i + inner * (k + len * o)) = changed(i + inner * (k - 1 + (len - 1) * o));
    }
  return octave_value (h.reshape (full ? xdv : g.dims ()));
}

const uint8_t *host_segment_heads (const octave_value& f, const dim_vector& xdv,
                                   octave_idx_type len, int& full, boolNDArray& hold)
{
  if (! (f.isnumeric () || f.islogical ()) || f.iscomplex ())
    error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must be a real numeric or "
                   "logical array of head flags");
  full = segment_layout (f.dims (), xdv, len, "SEGMENTS");
  if (f.islogical ())
    hold = f.bool_array_value ();
  else
    {
      const NDArray v = f.array_value ();
      if (v.any_element_is_nan ())
        error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must not contain NaN");
      hold = mx_el_ne (v, 0.0);
    }
  return reinterpret_cast<const uint8_t *> (hold.data ());
}

void huge_pages (void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = 2u << 20;
  if (bytes < 4 * huge)
    return;
  const uintptr_t a = (reinterpret_cast<uintptr_t> (p) + huge - 1) & ~(huge - 1);
  const uintptr_t b = (reinterpret_cast<uintptr_t> (p) + bytes) & ~(huge - 1);
  if (b > a)
    madvise (reinterpret_cast<void *> (a), b - a, MADV_HUGEPAGE);
#else
  (void) p;
  (void) bytes;
#endif
}

void raise_engine_error (engine_status st, const char *msg)
{
  switch (st)
    {
    case ENGINE_OK:
      return;
    case ENGINE_NO_GPU:
      error_with_id ("gpuscan:no_gpu", "gpuscan: %s", msg);
    case ENGINE_UNSUPPORTED:
      error_with_id ("gpuscan:unsupported", "gpuscan: %s", msg);
    case ENGINE_NO_MEMORY:
      error_with_id ("gpuscan:out_of_memory", "gpuscan: %s", msg);
    case ENGINE_BAD_SETTING:
      error_with_id ("gpuscan:environment", "gpuscan: %s", msg);
    default:
      error_with_id ("gpuscan:gpu_error", "gpuscan: %s", msg);
    }
}

void octave_engine_warning (const char *id, const char *msg)
{
  warning_with_id (id, "gpuscan: %s", msg);
}

octave_value logical_operand (const octave_value& x)
{
  if (x.islogical ())
    return x;
  const bool nan = x.is_double_type () ? x.array_value ().any_element_is_nan ()
                   : x.is_single_type () && x.float_array_value ().any_element_is_nan ();
  if (nan)
    error_nan_to_logical ();
  return octave_value (x.bool_array_value ());
}

void error_nan_to_logical ()
{
  error_with_id ("gpuscan:nan", "gpuscan: X holds NaN, which has no logical value (\"and\", "
                 "\"or\" and \"xor\" scan logical (X))");
}

octave_value as_recurrence_operand (const octave_value& v, scan_type t)
{
  switch (t)
    {
    case SCAN_DOUBLE: return v.array_value ();
    case SCAN_SINGLE: return v.float_array_value ();
    case SCAN_CDOUBLE: return v.complex_array_value ();
    default: return v.float_complex_array_value ();
    }
}

std::shared_ptr<const void> recurrence_coef (const scan_request& r, const dim_vector& xdv,
                                             scan_desc& d)
{
  const octave_value& a = r.coef;
  if (a.numel () != 1 && a.dims () != xdv)
    error_with_id ("gpuscan:recurrence", "gpuscan: \"recurrence\" takes A of one element or "
                   "the size of X (%s), got %s", xdv.str ().c_str (), a.dims ().str ().c_str ());
  d.coef_scalar = a.numel () == 1;
  if (r.has_initial)
    {
      const Complex y0 = r.initial.complex_value ();
      d.initial[0] = y0.real ();
      d.initial[1] = y0.imag ();
    }
  // The array of d.type itself, not an octave_value of it: an octave_value narrows a
  // complex array whose imaginary parts are all zero to a real one, and an array
  // extracted from that again would be a temporary.  A scalar A twice, so that the
  // array holds its data (one element may be held as a scalar).
  return with_array_type (d.type, [&] (auto tag) -> std::shared_ptr<const void> {
    typedef decltype (tag) AT;
    const auto m = std::make_shared<AT> (octave_value_extract<AT> (as_recurrence_operand (a, d.type)));
    if (d.coef_scalar)
      m->resize (dim_vector (1, 2), (*m)(0));
    d.coef = m->data ();
    return m;
  });
}

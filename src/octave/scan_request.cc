// Gateway layer: option parsing, Octave's class rules and segment flags.
#include "scan_request.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include <octave/version.h>

#include "engine/scan_request.h"

namespace
{
  // whose class rules the request builder applies: the Octave this is built for
#if OCTAVE_MAJOR_VERSION >= 11
  constexpr class_rules octave_rules = RULES_OCTAVE_11;
#else
  constexpr class_rules octave_rules = RULES_OCTAVE_BEFORE_11;
#endif

  [[noreturn]] void raise_request_error (const request_error& e)
  {
    error_with_id (e.id, "gpuscan: %s", e.msg);
  }

  // an argument as the request builder reads it (text and values kept alive by the
  // caller); values only for DIM's place
  request_arg describe (const octave_value& v, std::string& text,
                        std::optional<NDArray>& values, bool dim_place)
  {
    request_arg a = {};
    a.is_char = v.is_string ();
    if (a.is_char && v.rows () <= 1)
      {
        text = v.string_value ();
        a.text = text.c_str ();
      }
    a.is_numeric = v.isnumeric () || v.islogical ();
    a.is_complex = v.iscomplex ();
    a.is_sparse = v.issparse ();
    a.is_single = v.is_single_type ();
    a.is_vector = v.dims ().isvector ();
    a.numel = v.numel ();
    if (dim_place && a.is_numeric && ! a.is_complex && ! a.is_char)
      {
        values = v.array_value ();
        a.values = values->data ();
      }
    return a;
  }

  // dims as the request builder takes them
  struct dims64
  {
    int64_t d[16];
    std::vector<int64_t> more;
    const int64_t *p;
    int n;
    explicit dims64 (const dim_vector& dv) : n (dv.ndims ())
    {
      int64_t *q = d;
      if (n > 16)
        {
          more.resize (n);
          q = more.data ();
        }
      for (int i = 0; i < n; i++)
        q[i] = dv(i);
      p = q;
    }
  };
}

scan_request parse_scan_options (const octave_value_list& args, int first)
{
  // (the common call has no option: nothing is described, nothing allocated)
  const int n = args.length ();
  std::vector<request_arg> a (n > first ? n : 0);
  std::vector<std::string> text (a.size ());
  std::optional<NDArray> values;
  for (int i = first; i < n; i++)
    a[i] = describe (args(i), text[i], values, i == first);
  scan_request r;
  scan_options& o = r.options;
  request_error e;
  if (scan_options_parse (a.data (), n, first, &o, &e))
    raise_request_error (e);
  r.op = o.op;
  r.exclusive = o.exclusive;
  r.reverse = o.reverse;
  r.omitnan = o.omitnan;
  r.accurate = o.accurate;
  r.algorithm = o.algorithm;
  r.dim = o.dim;
  r.vecdim.assign (o.vecdim, o.vecdim + o.nvecdim);
  r.all = o.all;
  r.linear = o.linear;
  if ((r.has_segments = o.segments >= 0))
    r.segments = args(o.segments);
  if ((r.has_keys = o.keys >= 0))
    r.keys = args(o.keys);
  if ((r.has_groups = o.groups >= 0))
    r.groups = args(o.groups);
  if (o.coef >= 0)
    r.coef = args(o.coef);
  if ((r.has_initial = o.initial >= 0))
    r.initial = args(o.initial);
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
  const dims64 d (dv);
  scan_extent (d.p, d.n, dim, &inner, &len, &outer);
}

scan_desc plan_scan (const dim_vector& dv, scan_type in, const scan_request& r, int nargout)
{
  request_arg coef = {}, initial = {};
  const bool recurrence = r.op == SCAN_RECURRENCE;
  std::string coef_class, text;
  std::optional<NDArray> values;
  if (recurrence)
    {
      coef = describe (r.coef, text, values, false);
      coef_class = r.coef.class_name ();
      coef.class_name = coef_class.c_str ();
      if (r.has_initial)
        initial = describe (r.initial, text, values, false);
    }
  scan_options o = r.options;
  o.dim = r.dim;   // (fold_dims may have set it)
  const dims64 d (dv);
  scan_desc desc;
  request_error e;
  if (scan_desc_of_request (d.p, d.n, in, &o, recurrence ? &coef : nullptr,
                            recurrence && r.has_initial ? &initial : nullptr, nargout,
                            octave_rules, &desc, &e))
    raise_request_error (e);
  return desc;
}

int segment_layout (const dim_vector& fdv, const dim_vector& xdv, octave_idx_type len,
                    const char *what)
{
  const dims64 f (fdv), x (xdv);
  request_error e;
  const int full = scan_flags_layout (f.p, f.n, x.p, x.n, len, what, &e);
  if (full < 0)
    raise_request_error (e);
  return full;
}

octave_value key_heads (const octave_value& g, const dim_vector& xdv, const scan_desc& d)
{
  if (! (g.isnumeric () || g.islogical () || g.is_string ()) || g.issparse ())
    error_with_id ("gpuscan:keys", "gpuscan: KEYS must be a full numeric, logical or char "
                   "array in host memory, got %s", g.class_name ().c_str ());
  const bool full = segment_layout (g.dims (), xdv, d.len, "KEYS");
  // G as (lanes, steps, slices): a head where an element differs from the one before it
  // along the scan, compared in G's own class (int64 keys stay exact; -0 is 0, NaN differs:
  // the engine's scan_key_heads, as gpuscan_mex's).  (The reshape makes a range a matrix,
  // whose data it reads.)
  const octave_idx_type inner = full ? d.inner : 1, len = d.len, outer = full ? d.outer : 1;
  const octave_value g3 = g.reshape (dim_vector (inner, len, outer));
  boolNDArray h = uninit<boolNDArray> (dim_vector (inner, len, outer));
  const octave_idx_type n = g3.numel ();
  if (n)
    scan_key_heads (g3.mex_get_data (), g3.byte_size () / n,
                    g3.isfloat () ? (g3.iscomplex () ? 2 : 1) : 0, inner, len, outer,
                    reinterpret_cast<uint8_t *> (h.fortran_vec ()));
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

void raise_engine_error (engine_status st, const char *msg)
{
  if (st != ENGINE_OK)
    error_with_id (engine_status_id (st), "gpuscan: %s", msg);
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
  const dims64 ad (a.dims ()), xd (xdv);
  request_error e;
  if ((d.coef_scalar = scan_coef_layout (ad.p, ad.n, xd.p, xd.n, &e)) < 0)
    raise_request_error (e);
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

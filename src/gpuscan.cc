// gpuscan gateway: parse and validate the arguments, apply Octave's class rules,
// allocate the outputs, fill one scan_desc and hand it to the engine dispatch.
//
// An oct-file rather than a MEX file: measured with Octave 7.3, a MEX call copies
// its output (a trivial MEX scan of 2^26 doubles took 1.7-3.2 s where cumsum took
// 0.5-0.6 s) and costs ~6 us against ~4.7 us for an oct-file on 1000 elements.
// The help text and the tests live in inst/gpuscan.m.

#include <octave/oct.h>

#include <cctype>
#include <memory>
#include <string>

#include "engine.h"
#include "scan_desc.h"

namespace
{
  // Everything the options select, before it becomes a scan_desc.
  struct request
  {
    scan_op op = SCAN_SUM;
    bool op_set = false;
    int exclusive = -1;        // -1: not given
    int reverse = -1;
    int outclass = 0;          // 0: Octave's default, 1: "native", 2: "double"
    octave_value segments;
    bool has_segments = false;
    scan_algorithm algorithm = ALG_AUTO;
    int dim = 0;               // 0: first non-singleton
  };

  std::string lower (std::string s)
  {
    for (auto& c : s)
      c = std::tolower (static_cast<unsigned char> (c));
    return s;
  }

  int parse_dim (const octave_value& v, int argn)
  {
    if (! (v.isnumeric () || v.islogical ()) || v.iscomplex () || v.numel () != 1)
      error_with_id ("gpuscan:dim", "gpuscan: DIM (argument %d) must be a positive "
                     "integer scalar", argn);
    const double d = v.double_value ();
    if (! (d >= 1) || d != std::floor (d) || d > 0x7fffffff)
      error_with_id ("gpuscan:dim", "gpuscan: DIM (argument %d) must be a positive "
                     "integer scalar, got %g", argn, d);
    return static_cast<int> (d);
  }

  void set_flag (int& flag, int value, const char *a, const char *b)
  {
    if (flag >= 0 && flag != value)
      error_with_id ("gpuscan:conflict", "gpuscan: options \"%s\" and \"%s\" conflict",
                     a, b);
    flag = value;
  }

  request parse_options (const octave_value_list& args)
  {
    request r;
    int first = 1;
    if (args.length () > 1 && ! args(1).is_string ())
      {
        r.dim = parse_dim (args(1), 2);
        first = 2;
      }
    for (int i = first; i < args.length (); i++)
      {
        const int argn = i + 1;
        if (! args(i).is_string () || args(i).rows () > 1)
          error_with_id ("gpuscan:option", "gpuscan: argument %d must be an option "
                         "name (a string); DIM may only be argument 2", argn);
        const std::string opt = lower (args(i).string_value ());
        if (opt == "sum" || opt == "prod" || opt == "max" || opt == "min")
          {
            const scan_op op = opt == "sum" ? SCAN_SUM : opt == "prod" ? SCAN_PROD
                               : opt == "max" ? SCAN_MAX : SCAN_MIN;
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
        else if (opt == "native" || opt == "double")
          {
            const int oc = opt == "native" ? 1 : 2;
            if (r.outclass && r.outclass != oc)
              error_with_id ("gpuscan:conflict", "gpuscan: options \"native\" and "
                             "\"double\" conflict");
            r.outclass = oc;
          }
        else if (opt == "segments" || opt == "algorithm")
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
                         "(argument %d)", args(i).string_value ().c_str (), argn);
      }
    if (r.outclass && r.op != SCAN_SUM && ! (r.outclass == 2 && r.op == SCAN_PROD))
      error_with_id ("gpuscan:conflict", "gpuscan: option \"%s\" does not apply to "
                     "\"%s\"", r.outclass == 1 ? "native" : "double",
                     scan_op_name (r.op));
    return r;
  }

  // An uninitialized Octave array: the engine writes every element, in parallel,
  // so fresh pages are touched first by the threads that fill them.
  template <typename AT>
  AT uninit (const dim_vector& dv)
  {
    typedef typename AT::element_type E;
    const octave_idx_type n = dv.safe_numel ();
    if (n == 0)
      return AT (dv);
    E *p = std::allocator<E> ().allocate (n);
    return AT (Array<E> (p, dv));
  }

  // Heads as 0/1 bytes, kept alive by `hold` for the duration of the call.
  const uint8_t *segment_heads (const octave_value& f, const dim_vector& xdv,
                                octave_idx_type len, int& full, boolNDArray& hold)
  {
    if (! (f.isnumeric () || f.islogical ()) || f.iscomplex ())
      error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must be a real numeric or "
                     "logical array of head flags");
    if (f.dims () == xdv)
      full = 1;
    else if (f.dims ().isvector () && f.numel () == len)
      full = 0;
    else
      error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must be the size of X "
                     "(%s) or a vector of length size (X, DIM) = %ld, got %s",
                     xdv.str ().c_str (), static_cast<long> (len),
                     f.dims ().str ().c_str ());
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

  void octave_warning (const char *id, const char *msg)
  {
    warning_with_id (id, "gpuscan: %s; using the CPU engine", msg);
  }

  template <typename AT>
  octave_value run (const AT& in, scan_desc& d, scan_algorithm alg, octave_value& index)
  {
    AT out = uninit<AT> (in.dims ());
    NDArray idx;
    d.x = in.data ();
    d.y = out.fortran_vec ();
    if (d.index)
      {
        idx = uninit<NDArray> (in.dims ());
        d.index = idx.fortran_vec ();
      }
    char msg[512] = "";
    const engine_status st = engine_scan (&d, alg, msg, sizeof msg);
    switch (st)
      {
      case ENGINE_OK:
        break;
      case ENGINE_NO_GPU:
        error_with_id ("gpuscan:no_gpu", "gpuscan: %s", msg);
      case ENGINE_UNSUPPORTED:
        error_with_id ("gpuscan:unsupported", "gpuscan: %s", msg);
      case ENGINE_NO_MEMORY:
        error_with_id ("gpuscan:out_of_memory", "gpuscan: %s", msg);
      default:
        error_with_id ("gpuscan:gpu_error", "gpuscan: %s", msg);
      }
    if (d.index)
      index = idx;
    return out;
  }
}

DEFUN_DLD (gpuscan, args, nargout,
           "-*- texinfo -*-\n@deftypefn {} {@var{y} =} gpuscan (@var{x}, @dots{})\n"
           "Prefix scan; see @code{help gpuscan} with the package loaded.\n@end deftypefn")
{
  if (args.length () < 1)
    error_with_id ("gpuscan:nargin", "gpuscan: X is missing; usage: "
                   "Y = gpuscan (X, DIM, OPTION, ...)");
  const octave_value& x = args(0);
  if (! (x.isnumeric () || x.islogical ()) || x.is_string ())
    error_with_id ("gpuscan:type", "gpuscan: X (argument 1) must be numeric or logical, "
                   "got %s", x.class_name ().c_str ());
  if (x.issparse ())
    error_with_id ("gpuscan:sparse", "gpuscan: X (argument 1) is sparse; use "
                   "gpuscan (full (X), ...)");

  engine_set_warning_handler (octave_warning);
  const request r = parse_options (args);
  if (nargout > 2)
    error_with_id ("gpuscan:nargout", "gpuscan: at most 2 outputs, [Y, IY]");
  if (nargout > 1 && r.op != SCAN_MAX && r.op != SCAN_MIN)
    error_with_id ("gpuscan:index", "gpuscan: the index output IY needs \"max\" or "
                   "\"min\", not \"%s\"", scan_op_name (r.op));

  // geometry: inner x len x outer around DIM
  const dim_vector dv = x.dims ();
  int dim = r.dim;
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
  scan_desc d = {};
  d.inner = 1;
  d.len = dim <= dv.ndims () ? dv(dim - 1) : 1;
  d.outer = 1;
  for (int i = 0; i < dv.ndims (); i++)
    {
      if (i < dim - 1)
        d.inner *= dv(i);
      else if (i > dim - 1)
        d.outer *= dv(i);
    }
  d.exclusive = r.exclusive > 0;
  d.reverse = r.reverse > 0;
  d.op = r.op;
  d.index = nargout > 1 ? reinterpret_cast<double *> (1) : nullptr;   // set in run ()

  boolNDArray heads_hold;
  if (r.has_segments)
    d.heads = segment_heads (r.segments, dv, d.len, d.heads_full, heads_hold);

  octave_value y, iy;
  const bool complex = x.iscomplex ();
  const bool to_double = r.outclass == 2
                         || ((x.isinteger () || x.islogical ())
                             && (r.op == SCAN_SUM || r.op == SCAN_PROD)
                             && r.outclass != 1);
  const scan_algorithm alg = r.algorithm;
  if (to_double || x.is_double_type ())
    {
      d.op = r.op == SCAN_SUM && r.outclass == 1 ? SCAN_SUM : r.op;
      d.type = complex ? SCAN_CDOUBLE : SCAN_DOUBLE;
      y = complex ? run (x.complex_array_value (), d, alg, iy)
                  : run (x.array_value (), d, alg, iy);
    }
  else if (x.is_single_type ())
    {
      d.type = complex ? SCAN_CSINGLE : SCAN_SINGLE;
      y = complex ? run (x.float_complex_array_value (), d, alg, iy)
                  : run (x.float_array_value (), d, alg, iy);
    }
  else if (x.islogical ())
    {
      // logical max/min, and "native" sum, which saturates at true
      d.type = SCAN_LOGICAL;
      if (d.op == SCAN_SUM)
        d.op = SCAN_SATSUM;
      y = run (x.bool_array_value (), d, alg, iy);
    }
  else
    {
      if (d.op == SCAN_SUM)
        d.op = SCAN_SATSUM;
#define INT_CASE(is, e, method)                        \
      if (x.is)                                        \
        {                                              \
          d.type = e;                                  \
          y = run (x.method (), d, alg, iy);           \
        }                                              \
      else
      INT_CASE (is_int8_type (), SCAN_INT8, int8_array_value)
      INT_CASE (is_uint8_type (), SCAN_UINT8, uint8_array_value)
      INT_CASE (is_int16_type (), SCAN_INT16, int16_array_value)
      INT_CASE (is_uint16_type (), SCAN_UINT16, uint16_array_value)
      INT_CASE (is_int32_type (), SCAN_INT32, int32_array_value)
      INT_CASE (is_uint32_type (), SCAN_UINT32, uint32_array_value)
      INT_CASE (is_int64_type (), SCAN_INT64, int64_array_value)
      INT_CASE (is_uint64_type (), SCAN_UINT64, uint64_array_value)
        error_with_id ("gpuscan:type", "gpuscan: X (argument 1) has unsupported class %s",
                       x.class_name ().c_str ());
#undef INT_CASE
    }

  octave_value_list retval;
  retval(0) = y;
  if (nargout > 1)
    retval(1) = iy;
  return retval;
}

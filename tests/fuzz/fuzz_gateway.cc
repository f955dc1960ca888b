// libFuzzer harness for the gateway: argument parsing, class rules, segment flags,
// compaction masks, filters and device arrays.  The fuzz input is decoded into an
// Octave argument list (X of any class and shape, then options, values, DIM candidates,
// segment arrays of any class, device arrays, junk) and handed to gpuscan, gpuscan_array,
// gather, gpuscan_filter or __gpuscan__, or to a device array's indexing, assignment, operators,
// element-wise functions and concatenation, in an embedded
// Octave interpreter, with the CPU engine and the host stand-in for device arrays.
// An Octave error is the right answer to bad input; a crash, a sanitizer report or a hang
// is a bug.  Built and run by tools/fuzz.sh.
#include <octave/oct.h>
#include <octave/interpreter.h>
#include <octave/ov-struct.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

octave_value_list Fgpuscan (const octave_value_list&, int);
octave_value_list F__gpuscan__ (const octave_value_list&, int);
octave_value_list Fgpuscan_filter (const octave_value_list&, int);

namespace
{
  // gpuscan_array and gather (m-files over __gpuscan__)
  octave_value_list request (const char *what, const octave_value_list& args, int nargout)
  {
    return F__gpuscan__ (octave_value_list (1, octave_value (what)).append (args), nargout);
  }

  octave::interpreter *interp;
  octave_value live_array;   // one stand-in device array, kept for the whole run

  struct reader
  {
    const uint8_t *p;
    size_t n;
    uint8_t byte () { if (! n) return 0; n--; return *p++; }
    double real ()
    {
      static const double special[] = { 0, -0.0, 1, -1, 2, 0.5, 100, -128, 127, 255,
        1e300, -1e300, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 9e18, -9e18, 3, 7, 1e10 };
      const uint8_t b = byte ();
      return b < 200 ? special[b % 20] : (double) (int8_t) byte ();
    }
  };

  dim_vector dims (reader& r)
  {
    const int nd = 1 + r.byte () % 4;
    dim_vector dv = dim_vector::alloc (nd < 2 ? 2 : nd);
    dv(0) = dv(1) = 1;
    for (int i = 0; i < nd; i++)
      dv(i) = r.byte () % 7;
    return dv;
  }

  octave_value array (reader& r)
  {
    const dim_vector dv = dims (r);
    NDArray re (dv), im (dv);
    for (octave_idx_type i = 0; i < re.numel (); i++)
      re(i) = r.real ();
    const uint8_t c = r.byte ();
    switch (c % 15)
      {
      case 0: return re;
      case 1: return FloatNDArray (re);
      case 2:
        for (octave_idx_type i = 0; i < im.numel (); i++)
          im(i) = r.real ();
        return ComplexNDArray (re) + Complex (0, 1) * ComplexNDArray (im);
      case 3: return FloatComplexNDArray (ComplexNDArray (re));
      case 4: return octave_value (re).int8_array_value ();
      case 5: return octave_value (re).uint8_array_value ();
      case 6: return octave_value (re).int16_array_value ();
      case 7: return octave_value (re).uint16_array_value ();
      case 8: return octave_value (re).int32_array_value ();
      case 9: return octave_value (re).uint32_array_value ();
      case 10: return octave_value (re).int64_array_value ();
      case 11: return octave_value (re).uint64_array_value ();
      case 12: return mx_el_ne (re, 0.0);
      case 13: return octave_value (SparseMatrix (Matrix (re.numel () ? 1 : 0, re.numel ())));
      default: return octave_value (std::string ("abc"));
      }
  }

  // a device array (the stand-in) of any class and shape, the one kept alive, or a
  // struct that looks like one (never a device array)
  octave_value device_or_fake (reader& r)
  {
    const uint8_t k = r.byte ();
    if (k % 3 == 0)
      return live_array;
    if (k % 3 == 1)
      {
        octave_scalar_map m;
        m.assign ("id", octave_uint64 (static_cast<uint64_t> (r.byte ()) << (r.byte () % 64)));
        m.assign ("size", RowVector (2, 3.0));
        return m;
      }
    return request ("upload", octave_value_list (1, array (r)), 1)(0);
  }

  // D(I) = V grows D to the largest indices, as Octave does: a huge result would make
  // the host array's allocation fail, which Octave reports as an error but
  // AddressSanitizer aborts on; assignments that could grow D past 2^20 elements are
  // left out
  // (gather: an index may be a device array)
  bool small_indices (const octave_value_list& idx)
  {
    double size = 1;
    for (int i = 0; i < idx.length (); i++)
      {
        const octave_value ix = request ("gather_values", octave_value_list (1, idx(i)), 1)(0);
        if (! (ix.isnumeric () || ix.is_string ()) || ix.issparse ())
          continue;
        const NDArray v = ix.iscomplex () ? NDArray (ix.complex_array_value ().abs ())
                                          : ix.array_value (true);
        double most = 1;
        for (octave_idx_type k = 0; k < v.numel (); k++)
          most = std::abs (v(k)) > most || std::isnan (v(k)) ? std::abs (v(k)) : most;
        size *= most;
      }
    return size <= 1048576;
  }

  octave_value argument (reader& r)
  {
    static const char *const words[] = { "sum", "prod", "max", "min", "inclusive",
      "exclusive", "forward", "reverse", "native", "double", "segments", "algorithm",
      "auto", "cpu", "decoupled", "cub", "SUM", "Max", "", "bogus", "omitnan",
      "includenan", "accurate", "keys", "groups", "int8", "single", "uint32", "logical",
      "kogge-stone", "brent-kung", "blelloch", "gpu" };
    const uint8_t k = r.byte ();
    switch (k % 10)
      {
      case 0: case 1: case 2:
        return std::string (words[r.byte () % (sizeof words / sizeof *words)]);
      case 3: return r.real ();
      case 4: return array (r);
      case 5: return device_or_fake (r);
      case 6: return Cell (1, 2);
      case 7: { octave_scalar_map m; m.assign ("a", 1); return m; }
      case 8: return octave_value (charMatrix (2, 2, 'a'), '\'');
      default: return Complex (r.real (), 1);
      }
  }
}

extern "C" int LLVMFuzzerInitialize (int *, char ***)
{
  setenv ("GPUSCAN_HOST_ARRAYS", "1", 1);
  interp = new octave::interpreter ();
  interp->initialize_history (false);
  interp->initialize_load_path (false);
  interp->initialize ();
  if (! interp->initialized () || interp->execute () != 0)
    abort ();
  live_array = request ("upload", octave_value_list (1, octave_value (NDArray (dim_vector (3, 4), 2.0))), 1)(0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  reader r = { data, size };
  const uint8_t what = r.byte ();
  const int nargout = r.byte () % 4;
  octave_value_list args;
  // 0-4 gpuscan, 5 __gpuscan__ (for "filter" gpuscan_filter), 6 gpuscan_array, 7 gather,
  // 8 D(args), 9 D(args) = V, 10 D op X or X op D, 11 a unary operator, an element-wise
  // function or [D, X] / [D; X]
  const int fn = what % 12;
  if (fn == 5)
    {
      static const char *const req[] = { "compact", "gather", "class", "live", "info", "upload",
                                         "cast", "trace", "gather_values", "filter", "nope" };
      args(0) = std::string (req[r.byte () % 11]);
    }
  const int nargs = r.byte () % 8;
  try
    {
      for (int i = 0; i < nargs; i++)
        args(args.length ()) = i == 0 && fn < 5 ? (r.byte () % 4 ? array (r) : device_or_fake (r))
                                                : argument (r);
      octave_value d = fn >= 8 ? device_or_fake (r) : octave_value ();
      if (fn >= 8 && d.class_name () != "gpuscan_array")
        return 0;
      switch (fn)
        {
        case 8: d.index_op (args); break;
        case 9:
          if (small_indices (args))
              d.assign (octave_value::op_asn_eq, "(", std::list<octave_value_list> (1, args),
                      r.byte () % 2 ? array (r) : argument (r));
          break;
        case 10:
          {
            const auto op = static_cast<octave_value::binary_op> (r.byte () % octave_value::op_struct_ref);
            const octave_value x = argument (r);
            // (broadcasting multiplies the sizes: kept below 2^20 elements, as above)
            if (static_cast<double> (d.numel ()) * x.numel () <= 1048576)
              r.byte () % 2 ? octave::binary_op (op, d, x) : octave::binary_op (op, x, d);
            break;
          }
        case 11:
          switch (r.byte () % 3)
            {
            case 0:
              octave::unary_op (static_cast<octave_value::unary_op> (r.byte () % octave_value::op_incr), d);
              break;
            case 1:
              d.map (static_cast<octave_base_value::unary_mapper_t> (r.byte () % octave_base_value::num_unary_mappers));
              break;
            default:
              interp->feval (r.byte () % 2 ? "horzcat" : "vertcat",
                             octave_value_list (d).append (args), 1);
            }
          break;
        case 5:
          // ("filter": gpuscan_filter's own entry, with the arguments after the name)
          if (args(0).string_value () == "filter")
            Fgpuscan_filter (args.slice (1, args.length () - 1), nargout);
          else
            F__gpuscan__ (args, nargout);
          break;
        case 6: request ("upload", args, nargout); break;
        case 7: request ("gather_values", args, nargout); break;
        default: Fgpuscan (args, nargout);
        }
    }
  catch (const octave::execution_exception&)
    {
      interp->recover_from_exception ();
    }
  return 0;
}

// gpuscan_filter's gateway (filter.h): the compiled gpuscan_filter, and filter's rules on
// its arguments (the classes, a(1), DIM, ZI's layout, empties), here rather than in an
// m-file so that a small call costs what filter's does; then a filter_desc for the engine
// layer: engine_filter, or for a device array x engine_array_filter, with device arrays y
// and zf.
#include <octave/oct.h>
#include <octave/version.h>

#include <cmath>
#include <string>
#include <vector>

#include "device_array.h"
#include "engine/engine.h"
#include "device_type.h"
#include "filter.h"
#include "gpuscan_filter_help.h"
#include "scan_request.h"

namespace
{
  void check_arg (const octave_value& v, const char *name)
  {
    if (! (v.isnumeric () || v.islogical () || is_device_array (v)))
      error_with_id ("gpuscan:filter_type", "gpuscan_filter: %s must be a numeric or logical "
                     "array, got %s", name, v.class_name ().c_str ());
  }

  // a size as mat2str writes it: [2 3]
  std::string size_text (const std::vector<octave_idx_type>& s)
  {
    std::string t = "[";
    for (size_t i = 0; i < s.size (); i++)
      t += (i ? " " : "") + std::to_string (s[i]);
    return t + "]";
  }

  std::vector<octave_idx_type> sizes_of (const dim_vector& dv)
  {
    std::vector<octave_idx_type> s;
    for (int i = 0; i < dv.ndims (); i++)
      s.push_back (dv(i));
    return s;
  }

  bool is_vector (const dim_vector& dv)
  {
    return dv.ndims () == 2 && (dv(0) == 1 || dv(1) == 1);
  }

  // DIM, 1-based: the first non-singleton dimension of x where not given
  int filter_dim (const octave_value& v, const dim_vector& xdims)
  {
    const int n = xdims.ndims ();
    if (v.isempty ())
      {
        for (int i = 0; i < n; i++)
          if (xdims(i) != 1)
            return i + 1;
        return 1;
      }
    const double d = v.isnumeric () && v.numel () == 1 && v.isreal () ? std::round (v.double_value ())
                                                                        : NAN;
    if (! (d >= 1 && d <= n))
      error_with_id ("gpuscan:filter_dim", "gpuscan_filter: DIM must be a dimension of X, 1 to %d", n);
    return static_cast<int> (d);
  }

  // x on the device in type t (Octave's conversion: on the device where the kernels
  // convert, else through host memory)
  device_array device_x_in (const octave_value& x, scan_type t, array_guard& g)
  {
    const device_array a = device_array_of (x, "X");
    if (a.type == t)
      return a;
    if (device_converts (a.type, t))
      return device_convert (a, t, g);
    return upload (gather (a), t, g);
  }

  // the filter of b and a (every array in the class AT, b padded, both divided by a(1))
  // of x's dims along dim, on the arrays x, y, zi and zf (host or device memory)
  template <typename AT>
  filter_desc describe (const AT& b, const AT& a, bool fir, const dim_vector& xdims, scan_type t,
                        int dim, const void *x, void *y, const void *zi, void *zf)
  {
    filter_desc d = {};
    d.type = t;
    d.order = static_cast<int> (b.numel () - 1);
    d.fir = fir;
    // the steps as this Octave's filter takes them: fused multiply-adds from Octave 11
    d.fused = OCTAVE_MAJOR_VERSION >= 11;
    scan_extent (xdims, dim, d.inner, d.len, d.outer);
    d.b = b.data ();
    d.a = a.data ();
    d.x = x;
    d.y = y;
    d.zi = zi;
    d.zf = zf;
    return d;
  }

  template <typename AT>
  octave_value_list run (const octave_value_list& args, const octave_value& bv,
                         const octave_value& av, const octave_value& ziv, scan_type t)
  {
    typedef typename AT::element_type E;
    const octave_value& xv = args(2);
    const bool on_device = is_device_array (xv);
    AT a = octave_value_extract<AT> (av);
    if (a.isempty ())
      error_with_id ("gpuscan:filter_a", "gpuscan_filter: A must have at least one element");
    if (a(0) == E (0))
      error_with_id ("gpuscan:filter_a", "gpuscan_filter: the first element of A must be nonzero");
    AT b = octave_value_extract<AT> (bv);
    const dim_vector xdims = on_device ? device_array_of (xv, "X").dims : xv.dims ();
    const int dim = filter_dim (args(4), xdims);
    const octave_idx_type K = std::max (a.numel (), b.numel ()) - 1;
    // ZI: K values a channel, in an array the shape of X with DIM removed and K in front
    std::vector<octave_idx_type> zsz = { K };
    for (int i = 0; i < xdims.ndims (); i++)
      if (i != dim - 1)
        zsz.push_back (xdims(i));
    dim_vector zdims;
    zdims.resize (static_cast<int> (zsz.size ()));
    for (size_t i = 0; i < zsz.size (); i++)
      zdims(i) = zsz[i];
    AT zi;
    if (ziv.isempty ())
      zi = AT (zdims, E (0));
    else
      {
        zi = octave_value_extract<AT> (ziv);
        if (is_vector (zi.dims ()) && is_vector (xdims))
          zi = zi.reshape (dim_vector (zi.numel (), 1));
        if (zi.dims ()(0) != K)
          error_with_id ("gpuscan:filter_zi", "gpuscan_filter: ZI must have max (numel (A), "
                         "numel (B)) - 1 = %ld rows, got %ld", static_cast<long> (K),
                         static_cast<long> (zi.dims ()(0)));
        std::vector<octave_idx_type> zs = sizes_of (zi.dims ()), want = zsz;
        const size_t n = std::max (zs.size (), want.size ());
        zs.resize (n, 1);
        want.resize (n, 1);
        if (zs != want)
          error_with_id ("gpuscan:filter_zi", "gpuscan_filter: ZI must be %s (K by the channels: "
                         "X's size without DIM), got %s", size_text (zsz).c_str (),
                         size_text (sizes_of (zi.dims ())).c_str ());
      }
    if (xdims(dim - 1) == 0)
      {
        // no steps: y is x (in the class), zf is zi
        if (! on_device)
          return ovl (octave_value_extract<AT> (xv), octave_value (zi));
        array_guard gy;
        const device_array y = new_device_array (xdims, t, gy);   // (empty: no memory)
        return ovl (device_array_value (y, gy), to_device (octave_value (zi)));
      }
    // (a of one element: no feedback terms at all, as filter, where 0 * Inf would make a NaN)
    const bool fir = a.numel () == 1;
    // a(1) divides the others, in the class (filter's order: b, then a)
    const E a0 = a(0);
    b = b.reshape (dim_vector (b.numel (), 1)) / a0;
    a = a.reshape (dim_vector (a.numel (), 1)) / a0;
    b.resize (dim_vector (K + 1, 1), E (0));
    a.resize (dim_vector (K + 1, 1), E (0));
    char msg[512] = "";
    if (on_device)
      {
        array_guard gx, gzi, gy, gzf;
        const device_array x = device_x_in (xv, t, gx);
        const device_array dzi = upload (octave_value (zi), t, gzi);
        const device_array y = new_device_array (xdims, t, gy), zf = new_device_array (zi.dims (), t, gzf);
        const filter_desc d = describe (b, a, fir, xdims, t, dim, x.data (), y.data (), dzi.data (),
                                        zf.data ());
        raise_engine_error (engine_array_filter (&d, msg, sizeof msg), msg);
        return ovl (device_array_value (y, gy), device_array_value (zf, gzf));
      }
    const AT x = octave_value_extract<AT> (xv);
    AT y = uninit<AT> (xdims), zf = uninit<AT> (zi.dims ());
    const filter_desc d = describe (b, a, fir, xdims, t, dim, x.data (), y.fortran_vec (), zi.data (),
                                    zf.fortran_vec ());
    raise_engine_error (engine_filter (&d, msg, sizeof msg), msg);
    return ovl (y, zf);
  }
}

octave_value_list filter_arrays (const octave_value_list& given)
{
  // (ZI and DIM empty where not given)
  octave_value_list args (5, octave_value (Matrix ()));
  for (int i = 0; i < given.length () && i < 5; i++)
    args(i) = given(i);
  static const char *const names[4] = { "B", "A", "X", "ZI" };
  for (int i = 0; i < 4; i++)
    check_arg (args(i), names[i]);
  // B, A and ZI are small: on the host
  const octave_value b = host_value (args(0)), a = host_value (args(1)), zi = host_value (args(3));
  const octave_value& x = args(2);
  bool single = b.is_single_type () || a.is_single_type () || zi.is_single_type ();
  bool complex = b.iscomplex () || a.iscomplex () || zi.iscomplex ();
  if (is_device_array (x))
    {
      const scan_type xt = device_array_of (x, "X").type;
      single = single || xt == SCAN_SINGLE || xt == SCAN_CSINGLE;
      complex = complex || scan_type_complex (xt);
    }
  else
    {
      single = single || x.is_single_type ();
      complex = complex || x.iscomplex ();
    }
  // filter's class rules: every argument in the class, single where any is, complex where
  // any is
  if (single)
    return complex ? run<FloatComplexNDArray> (args, b, a, zi, SCAN_CSINGLE)
                   : run<FloatNDArray> (args, b, a, zi, SCAN_SINGLE);
  return complex ? run<ComplexNDArray> (args, b, a, zi, SCAN_CDOUBLE)
                 : run<NDArray> (args, b, a, zi, SCAN_DOUBLE);
}

// `help gpuscan_filter` shows this docstring: inst/gpuscan_filter.m's texinfo (that file,
// which this function shadows where it is called by name, holds the tests)
DEFUN_DLD (gpuscan_filter, args, , DOCSTRING_gpuscan_filter)
{
  if (args.length () < 3 || args.length () > 5)
    print_usage ();
  gateway_start ();
  engine_set_warning_handler (octave_engine_warning);
  return filter_arrays (args);
}

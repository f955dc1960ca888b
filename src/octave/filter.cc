// gpuscan_filter's gateway (filter.h): checks what the m-file hands over (so that no
// call can read out of bounds), takes every array in the class of the filter, allocates
// y and zf (device arrays where x is one) and runs the engine.
#include <octave/oct.h>
#include <octave/version.h>

#include "device_array.h"
#include "engine/engine.h"
#include "filter.h"
#include "scan_request.h"

namespace
{
  // the filter of b and a (every array in the class AT) of x's dims along dim, zi's count
  // checked; a padded to K + 1 (d.b and d.a point into b and a)
  template <typename AT>
  filter_desc describe (const AT& b, AT& a, const dim_vector& xdims, const AT& zi, scan_type t,
                        int dim)
  {
    const octave_idx_type K = b.numel () - 1;
    filter_desc d = {};
    d.type = t;
    d.order = static_cast<int> (K);
    d.fir = a.numel () == 1;
    // the steps as this Octave's filter takes them: fused multiply-adds from Octave 11
    d.fused = OCTAVE_MAJOR_VERSION >= 11;
    scan_extent (xdims, dim, d.inner, d.len, d.outer);
    if (K < 0 || a.numel () < 1 || a.numel () > b.numel ()
        || zi.numel () != K * d.inner * d.outer)
      error_with_id ("gpuscan:internal", "__gpuscan__: \"filter\" takes B of K + 1 elements, "
                     "A of 1 to K + 1 and K initial states a channel");
    a.resize (dim_vector (K + 1, 1), 0);
    d.b = b.data ();
    d.a = a.data ();
    return d;
  }

  template <typename AT>
  octave_value_list run (const octave_value_list& args, scan_type t, int dim)
  {
    const AT b = octave_value_extract<AT> (args(0)), zi = octave_value_extract<AT> (args(3));
    AT a = octave_value_extract<AT> (args(1));
    char msg[512] = "";
    if (is_device_array (args(2)))
      {
        // y and zf device arrays, zi uploaded
        const device_array x = device_array_of (args(2), "X");
        if (x.type != t)
          error_with_id ("gpuscan:internal", "__gpuscan__: \"filter\" takes X in the filter's class");
        filter_desc d = describe (b, a, x.dims, zi, t, dim);
        array_guard gzi, gy, gzf;
        const device_array dzi = upload (args(3), t, gzi);
        const device_array y = new_device_array (x.dims, t, gy), zf = new_device_array (zi.dims (), t, gzf);
        d.x = x.data ();
        d.y = y.data ();
        d.zi = dzi.data ();
        d.zf = zf.data ();
        raise_engine_error (engine_array_filter (&d, msg, sizeof msg), msg);
        return ovl (device_array_value (y, gy), device_array_value (zf, gzf));
      }
    const AT x = octave_value_extract<AT> (args(2));
    filter_desc d = describe (b, a, x.dims (), zi, t, dim);
    AT y = uninit<AT> (x.dims ()), zf = uninit<AT> (zi.dims ());
    d.x = x.data ();
    d.y = y.fortran_vec ();
    d.zi = zi.data ();
    d.zf = zf.fortran_vec ();
    raise_engine_error (engine_filter (&d, msg, sizeof msg), msg);
    return ovl (y, zf);
  }
}

octave_value_list filter_arrays (const octave_value_list& args)
{
  bool single = false, complex = false;
  for (int i = 0; i < 4; i++)
    {
      const octave_value& v = args(i);
      if (i == 2 && is_device_array (v))
        {
          const scan_type t = device_array_of (v, "X").type;
          if (t != SCAN_DOUBLE && t != SCAN_SINGLE && t != SCAN_CDOUBLE && t != SCAN_CSINGLE)
            error_with_id ("gpuscan:internal", "__gpuscan__: \"filter\" takes a double or "
                           "single device array");
          single = single || t == SCAN_SINGLE || t == SCAN_CSINGLE;
          complex = complex || t == SCAN_CDOUBLE || t == SCAN_CSINGLE;
          continue;
        }
      if (! (v.is_double_type () || v.is_single_type ()) || v.issparse ())
        error_with_id ("gpuscan:internal", "__gpuscan__: \"filter\" takes full double or "
                       "single arrays");
      single = single || v.is_single_type ();
      complex = complex || v.iscomplex ();
    }
  const int dim = args(4).xint_value ("__gpuscan__: DIM must be an integer");
  if (dim < 1 || dim > args(2).ndims ())
    error_with_id ("gpuscan:internal", "__gpuscan__: DIM must be a dimension of X");
  if (single)
    return complex ? run<FloatComplexNDArray> (args, SCAN_CSINGLE, dim)
                   : run<FloatNDArray> (args, SCAN_SINGLE, dim);
  return complex ? run<ComplexNDArray> (args, SCAN_CDOUBLE, dim)
                 : run<NDArray> (args, SCAN_DOUBLE, dim);
}

// gpuscan_filter's gateway (filter.h): checks what the m-file hands over (so that no
// call can read out of bounds), takes every array in the class of the filter, allocates
// y and zf and runs the engine.
#include <octave/oct.h>
#include <octave/version.h>

#include "engine/engine.h"
#include "filter.h"
#include "scan_request.h"

namespace
{
  template <typename AT>
  octave_value_list run (const octave_value_list& args, scan_type t, int dim)
  {
    const AT b = octave_value_extract<AT> (args(0)), x = octave_value_extract<AT> (args(2)),
             zi = octave_value_extract<AT> (args(3));
    AT a = octave_value_extract<AT> (args(1));
    const octave_idx_type K = b.numel () - 1;
    filter_desc d = {};
    d.type = t;
    d.order = static_cast<int> (K);
    d.fir = a.numel () == 1;
    // the steps as this Octave's filter takes them: fused multiply-adds from Octave 11
    d.fused = OCTAVE_MAJOR_VERSION >= 11;
    scan_extent (x.dims (), dim, d.inner, d.len, d.outer);
    if (K < 0 || a.numel () < 1 || a.numel () > b.numel ()
        || zi.numel () != K * d.inner * d.outer)
      error_with_id ("gpuscan:internal", "__gpuscan__: \"filter\" takes B of K + 1 elements, "
                     "A of 1 to K + 1 and K initial states a channel");
    a.resize (dim_vector (K + 1, 1), 0);
    AT y = uninit<AT> (x.dims ()), zf = uninit<AT> (zi.dims ());
    d.b = b.data ();
    d.a = a.data ();
    d.x = x.data ();
    d.y = y.fortran_vec ();
    d.zi = zi.data ();
    d.zf = zf.fortran_vec ();
    char msg[512] = "";
    raise_engine_error (engine_filter (&d, msg, sizeof msg), msg);
    return ovl (y, zf);
  }
}

octave_value_list filter_host (const octave_value_list& args)
{
  bool single = false, complex = false;
  for (int i = 0; i < 4; i++)
    {
      const octave_value& v = args(i);
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

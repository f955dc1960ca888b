// x(mask) (compaction.h): host arrays on the CPU engine, device arrays on the device.

#include <octave/oct.h>

#include "compaction.h"
#include "device_array.h"
#include "engine/engine.h"
#include "scan_request.h"

namespace
{
  // the shape of x(mask) for a logical mask with numel (x) elements, as Octave's
  // Array<T>::index gives it: the mask's shape as an index (an N-d vector keeps its
  // orientation, anything else is a column), or x's own where both are N-d vectors
  dim_vector compact_dims (const dim_vector& xdv, const dim_vector& mdv, octave_idx_type kept)
  {
    if (xdv.numel () == 1)
      return kept ? dim_vector (1, 1) : dim_vector (0, 0);
    const dim_vector rd = mdv.is_nd_vector () ? mdv.make_nd_vector (kept)
                                              : dim_vector (kept, 1);
    if (xdv.is_nd_vector () && rd.is_nd_vector ())
      return xdv.make_nd_vector (kept);
    return rd;
  }

  void check_mask (const dim_vector& mdv, bool logical, const dim_vector& xdv)
  {
    if (! logical)
      error_with_id ("gpuscan:mask", "gpuscan_compact: MASK must be logical");
    if (mdv.numel () != xdv.numel ())
      error_with_id ("gpuscan:mask", "gpuscan_compact: MASK must have as many elements as "
                     "X (%s), got %s", xdv.str ().c_str (), mdv.str ().c_str ());
  }

  template <typename AT>
  octave_value compact_host_as (const AT& x, const boolNDArray& mask)
  {
    const uint8_t *m = reinterpret_cast<const uint8_t *> (mask.data ());
    const octave_idx_type kept = engine_count_nonzero (m, x.numel ());
    AT y = uninit<AT> (compact_dims (x.dims (), mask.dims (), kept));
    engine_compact (sizeof (typename AT::element_type), x.data (), m, x.numel (),
                    y.fortran_vec ());
    return y;
  }
}

octave_value compact_host (const octave_value& x, const octave_value& mask)
{
  const scan_type t = scan_type_of (x, "X (argument 1)");
  check_mask (mask.dims (), mask.islogical () && ! mask.issparse (), x.dims ());
  const boolNDArray m = mask.bool_array_value ();
  return with_array_type (t, [&] (auto tag) {
    return compact_host_as (octave_value_extract<decltype (tag)> (x), m);
  });
}

octave_value compact_device (const device_array& x, const octave_value& mv)
{
  array_guard mask_g;
  device_array m;
  if (is_device_array (mv))
    {
      m = device_array_of (mv, "MASK");
      check_mask (m.dims, m.type == SCAN_LOGICAL, x.dims);
    }
  else
    {
      check_mask (mv.dims (), mv.islogical () && ! mv.issparse (), x.dims);
      m = upload (mv, mask_g);
    }
  device_array y;
  y.type = x.type;
  int64_t kept = 0;
  array_guard yg;
  if (x.numel ())
    {
      char msg[512] = "";
      raise_engine_error (engine_array_compact (scan_type_size (x.type), x.data (),
                                                static_cast<const uint8_t *> (m.data ()),
                                                x.numel (), &yg.id, &kept, msg, sizeof msg),
                          msg);
    }
  y.id = yg.id;
  y.dims = compact_dims (x.dims, m.dims, kept);
  return device_array_value (y, yg);
}

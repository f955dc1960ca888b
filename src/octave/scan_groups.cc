// Gateway layer: scans within groups of labels (see scan_groups.h).
#include "scan_groups.h"

#include <octave/parse.h>

namespace
{
  NDArray inverse (const NDArray& order)
  {
    NDArray inv (order.dims ());
    for (octave_idx_type k = 0; k < order.numel (); k++)
      inv(static_cast<octave_idx_type> (order(k)) - 1) = k + 1;
    return inv;
  }
}

group_order order_groups (const octave_value& g, const scan_desc& d)
{
  if (! (g.isnumeric () || g.islogical () || g.is_string ()) || g.issparse ())
    error_with_id ("gpuscan:groups", "gpuscan: GROUPS must be a full numeric, logical or "
                   "char vector in host memory, got %s", g.class_name ().c_str ());
  if (! (g.dims ().isvector () || g.numel () <= 1) || g.numel () != d.len)
    error_with_id ("gpuscan:groups", "gpuscan: GROUPS must be a vector of length "
                   "size (X, DIM) = %ld, got %s", static_cast<long> (d.len),
                   g.dims ().str ().c_str ());
  // Octave's sort is stable: a group keeps its elements' order
  const octave_value_list s = octave::feval ("sort", ovl (g.reshape (dim_vector (d.len, 1))), 2);
  return group_order { s(1).array_value (), s(0) };
}

octave_value reorder (const octave_value& v, const scan_desc& d, const NDArray& order)
{
  octave_value v3 = v.reshape (dim_vector (d.inner, d.len, d.outer));
  const octave_value colon (octave_value::magic_colon_t);
  return v3.index_op (octave_value_list (ovl (colon, order, colon))).reshape (v.dims ());
}

octave_value restore_values (const octave_value& ys, const scan_desc& d,
                             const NDArray& order)
{
  return reorder (ys, d, inverse (order));
}

octave_value restore_index (const octave_value& iys, const scan_desc& d,
                            const NDArray& order)
{
  NDArray iy = reorder (iys, d, inverse (order)).array_value ();
  double *p = iy.fortran_vec ();
  for (octave_idx_type i = 0; i < iy.numel (); i++)
    if (p[i] > 0)
      p[i] = order(static_cast<octave_idx_type> (p[i]) - 1);
  return octave_value (iy);
}

// Gateway layer: "all", VECDIM and "linear" (scan_dims.h).
#include "scan_dims.h"

#include <algorithm>
#include <vector>

#include "device_array.h"

namespace
{
  octave_value as_scanned (const octave_value& v, const folded_scan& f)
  {
    return (f.perm.isempty () ? v : v.permute (f.perm)).reshape (f.scanned_dims);
  }
}

folded_scan fold_dims (const octave_value& x, scan_request& r)
{
  folded_scan f;
  f.x = x;
  f.x_dims = x.dims ();
  if (! r.all && r.vecdim.empty ())
    return f;
  const dim_vector dv = x.dims ();
  const int nd = dv.ndims ();
  std::vector<int> dims;
  for (int k = 1; k <= nd; k++)
    if (r.all || std::find (r.vecdim.begin (), r.vecdim.end (), k) != r.vecdim.end ())
      dims.push_back (k);
  if (dims.size () < 2)
    {
      // one dimension of X's, or none (every one named is beyond X's: a singleton one)
      r.dim = dims.empty () ? nd + 1 : dims[0];
      return f;
    }
  const int p = dims[0];
  octave_idx_type merged = 1;
  for (int k : dims)
    merged *= dv(k - 1);
  // the dimensions before p (none of them merged), the merged ones, the others after p
  std::vector<int> after;
  for (int k = p + 1; k <= nd; k++)
    if (std::find (dims.begin (), dims.end (), k) == dims.end ())
      after.push_back (k);
  std::vector<int> order;
  for (int k = 1; k < p; k++)
    order.push_back (k);
  order.insert (order.end (), dims.begin (), dims.end ());
  order.insert (order.end (), after.begin (), after.end ());
  bool identity = true;
  for (int i = 0; i < nd; i++)
    identity = identity && order[i] == i + 1;
  if (! identity)
    {
      f.perm = Array<int> (dim_vector (nd, 1));
      for (int i = 0; i < nd; i++)
        f.perm(i) = order[i] - 1;
    }
  // as scanned: the same, the merged ones as one
  dim_vector sd = dim_vector::alloc (std::max<int> (2, p + after.size ()));
  for (int i = 0; i < sd.ndims (); i++)
    sd(i) = 1;
  for (int k = 1; k < p; k++)
    sd(k - 1) = dv(k - 1);
  sd(p - 1) = merged;
  for (size_t j = 0; j < after.size (); j++)
    sd(p + j) = dv(after[j] - 1);
  f.scanned_dims = sd;
  f.out_dims = dv;
  for (int k : dims)
    f.out_dims(k - 1) = 1;
  f.out_dims(p - 1) = merged;
  f.out_dims.chop_trailing_singletons ();
  f.reshaped = true;
  f.x = as_scanned (x, f);
  r.dim = p;
  if (r.has_segments && r.segments.dims () == dv)
    r.segments = as_scanned (r.segments, f);
  if (r.has_keys && r.keys.dims () == dv)
    r.keys = as_scanned (r.keys, f);
  if (r.op == SCAN_RECURRENCE && r.coef.numel () > 1 && r.coef.dims () == dv)
    r.coef = as_scanned (r.coef, f);
  return f;
}

octave_value_list unfold_outputs (const octave_value_list& out, const folded_scan& f,
                                  const scan_request& r)
{
  octave_value_list o = out;
  if (o.length () > 1 && r.linear)
    {
      // position q of the scanned X holds X's element where(q): q itself where X was
      // only reshaped, else X's linear indices taken through the same permutation
      const bool device = is_device_array (o(1));
      const NDArray iy = host_value (o(1)).array_value ();
      const dim_vector sd = f.reshaped ? f.scanned_dims : f.x.dims ();
      int64_t inner, len, outer;
      scan_extent (sd, r.dim, inner, len, outer);
      NDArray where;
      if (! f.perm.isempty ())
        {
          NDArray ids (f.x_dims);
          for (octave_idx_type q = 0; q < ids.numel (); q++)
            ids(q) = q + 1;
          where = ids.permute (f.perm).reshape (sd);
        }
      NDArray lin (iy.dims ());
      for (int64_t b = 0; b < outer; b++)
        for (int64_t k = 0; k < len; k++)
          for (int64_t a = 0; a < inner; a++)
            {
              const int64_t e = a + inner * (k + len * b);
              const double i = iy(e);
              const int64_t q = a + inner * (static_cast<int64_t> (i) - 1 + len * b);
              lin(e) = i == 0 ? 0 : where.isempty () ? q + 1 : where(q);
            }
      o(1) = device ? to_device (octave_value (lin)) : octave_value (lin);
    }
  if (f.reshaped)
    for (int i = 0; i < o.length (); i++)
      o(i) = o(i).reshape (f.out_dims);
  return o;
}

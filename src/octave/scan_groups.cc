// Gateway layer: the order of host labels for "groups" (see scan_groups.h).
#include "scan_groups.h"

#include <octave/parse.h>

#include "engine/engine.h"
#include "engine/group_order.h"
#include "scan_request.h"

namespace
{
  void check_groups (const octave_value& g, const scan_desc& d)
  {
    if (! (g.isnumeric () || g.islogical () || g.is_string ()) || g.issparse ())
      error_with_id ("gpuscan:groups", "gpuscan: GROUPS must be a full numeric, logical or "
                     "char vector in host memory, got %s", g.class_name ().c_str ());
    if (! (g.dims ().isvector () || g.numel () <= 1) || g.numel () != d.len)
      error_with_id ("gpuscan:groups", "gpuscan: GROUPS must be a vector of length "
                     "size (X, DIM) = %ld, got %s", static_cast<long> (d.len),
                     g.dims ().str ().c_str ());
  }
}

void scan_host_groups (const octave_value& g, const dim_vector& xdv, const scan_desc& d,
                       scan_algorithm a)
{
  check_groups (g, d);
  char msg[512] = "";
  if (! g.is_string () && ! g.iscomplex ())
    {
      const octave_value labels = g.reshape (dim_vector (d.len, 1));   // (a range: an array)
      const engine_status s = engine_group_label_scan (&d, scan_type_of (labels, "GROUPS"),
                                                       labels.mex_get_data (), a, msg,
                                                       sizeof msg);
      if (s != ENGINE_UNSUPPORTED)
        {
          raise_engine_error (s, msg);
          return;
        }
    }
  const group_order go = order_groups (g, xdv, d);
  raise_engine_error (engine_group_scan (&d, go.order_data (), go.heads_data (), a, msg,
                                         sizeof msg), msg);
}

group_order order_groups (const octave_value& g, const dim_vector& xdv, const scan_desc& d)
{
  check_groups (g, d);
  const dim_vector col (d.len, 1);
  if (! g.is_string () && ! g.iscomplex ())
    {
      // whole numbers of a narrow range: counted (the engine's stable order)
      group_order go { uninit<int64NDArray> (col), uninit<boolNDArray> (col) };
      const octave_value labels = g.reshape (col);
      const int done
        = group_order_by_counting (scan_type_of (labels, "GROUPS"), labels.mex_get_data (), d.len,
                                   reinterpret_cast<int64_t *> (go.order.fortran_vec ()),
                                   reinterpret_cast<uint8_t *> (go.heads.fortran_vec ()));
      if (done < 0)
        error_with_id ("gpuscan:out_of_memory", "gpuscan: out of host memory for the counts "
                       "of the labels in GROUPS");
      if (done)
        return go;
    }
  // others by Octave's sort, which is stable: a group keeps its elements' order
  const octave_value_list s = octave::feval ("sort", ovl (g.reshape (col)), 2);
  const NDArray one_based = s(1).array_value ();
  group_order go { int64NDArray (col), key_heads (s(0), xdv, d).bool_array_value () };
  for (octave_idx_type k = 0; k < d.len; k++)
    go.order(k) = static_cast<int64_t> (one_based(k)) - 1;
  return go;
}

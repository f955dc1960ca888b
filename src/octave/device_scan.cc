// gpuscan on a device array (device_scan.h): the options parsed as for a host array,
// Octave's class rules applied on the device (a converted copy of X), outputs allocated
// on the device and the scan handed to the engine.

#include <octave/oct.h>

#include "device_array.h"
#include "device_scan.h"
#include "engine/engine.h"
#include "base/scan_desc.h"
#include "scan_groups.h"
#include "scan_request.h"

namespace
{
  // "groups" with labels that are a device array (but int64 and uint64, which doubles
  // may merge): the engine's plan, on the device; host labels are ordered by Octave's
  // sort (scan_groups.h), and the order and flags copied over
  void device_groups (const octave_value& g, const dim_vector& xdv, const scan_desc& d,
                      scan_algorithm a)
  {
    char msg[512] = "";
    if (is_device_array (g))
      {
        const device_array s = device_array_of (g, "GROUPS");
        if (! (s.dims.isvector () || s.numel () <= 1) || s.numel () != d.len
            || scan_type_complex (s.type))
          error_with_id ("gpuscan:groups", "gpuscan: GROUPS must be a real vector of length "
                         "size (X, DIM) = %ld, got %s %s", static_cast<long> (d.len),
                         s.dims.str ().c_str (), scan_type_name (s.type));
        if (s.type != SCAN_INT64 && s.type != SCAN_UINT64)
          {
            array_guard keys_g;
            const double *keys = static_cast<const double *> (
              s.type == SCAN_DOUBLE ? s.data () : device_convert (s, SCAN_DOUBLE, keys_g).data ());
            raise_engine_error (engine_array_group_scan_labels (&d, keys, a, msg, sizeof msg), msg);
            return;
          }
      }
    array_guard order_g, heads_g;
    const group_order go = order_groups (host_value (g), xdv, d);
    const int64_t *order = static_cast<const int64_t *> (upload (go.order, order_g).data ());
    const uint8_t *heads = static_cast<const uint8_t *> (upload (go.heads, heads_g).data ());
    raise_engine_error (engine_array_group_scan (&d, order, heads, a, msg, sizeof msg), msg);
  }

  // head flags on the device from a host array or a device array
  const uint8_t *device_heads (const octave_value& f, const scan_desc& d,
                               const dim_vector& xdv, int& full, array_guard& g)
  {
    char msg[512] = "";
    if (! is_device_array (f))
      {
        boolNDArray hold;
        host_segment_heads (f, xdv, d.len, full, hold);
        const device_array h = upload (hold, g);
        return static_cast<const uint8_t *> (h.data ());
      }
    const device_array s = device_array_of (f, "SEGMENTS");
    if (scan_type_complex (s.type))
      error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must be a real numeric or "
                     "logical array of head flags");
    full = segment_layout (s.dims, xdv, d.len, "SEGMENTS");
    if (s.type == SCAN_LOGICAL)
      return static_cast<const uint8_t *> (s.data ());
    const device_array h = new_device_array (s.dims, SCAN_LOGICAL, g);
    int nan = 0;
    raise_engine_error (engine_array_flags (s.type, s.data (), static_cast<uint8_t *> (h.data ()),
                                            s.numel (), &nan, msg, sizeof msg), msg);
    if (nan)
      error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must not contain NaN");
    return static_cast<const uint8_t *> (h.data ());
  }
}

octave_value_list device_scan (const octave_value& xv, const scan_request& r, int nargout)
{
  const device_array x = device_array_of (xv, "X (argument 1)");
  scan_desc d = plan_scan (x.dims, x.type, r, nargout);
  array_guard yg, ixg, heads_g, coef_g;
  if (r.op == SCAN_RECURRENCE)
    {
      // A (in host memory, as the options are) in the scan's class, copied over
      const std::shared_ptr<const void> a = recurrence_coef (r, x.dims, d);
      const device_array c = new_device_array (d.coef_scalar ? dim_vector (1, 2) : x.dims,
                                               d.type, coef_g);
      char msg[512] = "";
      raise_engine_error (engine_array_upload (c.id, d.coef, c.bytes (), msg, sizeof msg), msg);
      d.coef = c.data ();
    }
  const device_array y = new_device_array (x.dims, d.type, yg);
  device_array ix;
  if (nargout > 1)
    ix = new_device_array (x.dims, SCAN_DOUBLE, ixg);
  if (r.has_segments)
    d.heads = device_heads (r.segments, d, x.dims, d.heads_full, heads_g);
  else if (r.has_keys)
    d.heads = device_heads (key_heads (r.keys, x.dims, d), d, x.dims, d.heads_full, heads_g);
  char msg[512] = "";
  d.x = x.data ();
  array_guard converted_g;
  if (d.type != x.type && x.numel ())
    {
      // Octave's class rules: convert first, into an array of its own (a scan in
      // place would have to read each element before writing its output); logical
      // operators scan logical (X)
      if (d.type == SCAN_LOGICAL)
        {
          const device_array c = new_device_array (x.dims, d.type, converted_g);
          int nan = 0;
          raise_engine_error (engine_array_flags (x.type, x.data (), static_cast<uint8_t *> (c.data ()),
                                                  x.numel (), &nan, msg, sizeof msg), msg);
          if (nan)
            error_nan_to_logical ();
          d.x = c.data ();
        }
      else if (d.type == SCAN_DOUBLE && device_converts (x.type, d.type) && ! r.has_groups)
        d.input = scan_input_of (x.type);   // (the engine converts it where the scan does not read it)
      else if (device_converts (x.type, d.type))
        d.x = device_convert (x, d.type, converted_g).data ();
      else   // (a recurrence's real X in a complex or single class: through host memory)
        d.x = upload (host_value (xv), d.type, converted_g).data ();
    }
  d.y = y.data ();
  d.index = nargout > 1 ? static_cast<double *> (ix.data ()) : nullptr;
  if (r.has_groups && x.numel ())
    device_groups (r.groups, x.dims, d, r.algorithm);
  else if (x.numel ())
    raise_engine_error (engine_array_scan (&d, r.algorithm, msg, sizeof msg), msg);
  octave_value_list out;
  out(0) = device_array_value (y, yg);
  if (nargout > 1)
    out(1) = device_array_value (ix, ixg);
  return out;
}

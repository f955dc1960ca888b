// gpuscan on a device array (device_scan.h): the options parsed as for a host array,
// Octave's class rules applied on the device (a converted copy of X), outputs allocated
// on the device and the scan handed to the engine.

#include <octave/oct.h>

#include "device_array.h"
#include "device_scan.h"
#include "engine/engine.h"
#include "base/scan_desc.h"
#include "scan_request.h"

namespace
{
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

octave_value_list device_scan (const octave_value_list& args, int nargout)
{
  const device_array x = device_array_of (args(0), "X (argument 1)");
  const scan_request r = parse_scan_options (args, 1);
  if (r.has_groups || r.op == SCAN_RECURRENCE)
    error_with_id ("gpuscan:internal", "gpuscan: \"groups\" and \"recurrence\" of a "
                   "device array run on the host");
  scan_desc d = plan_scan (x.dims, x.type, r, nargout);
  array_guard yg, ixg, heads_g;
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
      else
        d.x = device_convert (x, d.type, converted_g).data ();
    }
  d.y = y.data ();
  d.index = nargout > 1 ? static_cast<double *> (ix.data ()) : nullptr;
  if (x.numel ())
    raise_engine_error (engine_array_scan (&d, r.algorithm, msg, sizeof msg), msg);
  octave_value_list out;
  out(0) = device_array_value (y, yg);
  if (nargout > 1)
    out(1) = device_array_value (ix, ixg);
  return out;
}

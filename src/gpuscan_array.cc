// The device array's way in and out: gpuscan_array, a device array holding a host array
// X (or a copy on the device of a device array), and gather, the host array of a device
// array.  The help texts and the tests live in inst/gpuscan_array.m and inst/gather.m
// (their texinfo becomes the docstrings below, *_help.h).

#include <octave/oct.h>

#include <algorithm>

#include "device_array.h"
#include "engine/engine.h"
#include "gather_help.h"
#include "gpuscan_array_help.h"
#include "scan_request.h"

// PKG_ADD: autoload ("gpuscan_array", "gpuscan.oct");
// PKG_DEL: autoload ("gpuscan_array", "gpuscan.oct", "remove");
// PKG_ADD: autoload ("gather", "gpuscan.oct");
// PKG_DEL: autoload ("gather", "gpuscan.oct", "remove");

DEFUN_DLD (gpuscan_array, args, , DOCSTRING_gpuscan_array)
{
  gateway_start ();
  if (args.length () != 1)
    print_usage ();
  engine_set_warning_handler (octave_engine_warning);
  array_guard g;
  if (! is_device_array (args(0)))
    {
      const device_array a = upload (args(0), g);
      return device_array_value (a, g);
    }
  device_array a = device_array_of (args(0), "D");
  if (a.id)
    {
      char msg[512] = "";
      raise_engine_error (engine_array_copy (a.id, &g.id, msg, sizeof msg), msg);
      a.id = g.id;
    }
  return device_array_value (a, g);
}

// (any other value comes back as it is, as MATLAB's gather does)
DEFUN_DLD (gather, args, nargout, DOCSTRING_gather)
{
  gateway_start ();
  const int nargin = args.length ();
  if (nargout > std::max (nargin, 1))
    error_with_id ("gpuscan:nargout", "gather: %d outputs for %d inputs", nargout, nargin);
  octave_value_list out = args;
  for (int i = 0; i < args.length (); i++)
    if (is_device_array (args(i)))
      out(i) = gather (device_array_of (args(i), "the device array"));
  return out;
}

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
  if (! is_device_array (args(0)))
    return to_device (args(0));
  array_guard g;
  const device_array c = device_copy (device_array_of (args(0), "D"), g);
  return device_array_value (c, g);
}

// (any other value comes back as it is, as MATLAB's gather does)
DEFUN_DLD (gather, args, nargout, DOCSTRING_gather)
{
  gateway_start ();
  const int nargin = args.length ();
  if (nargout > std::max (nargin, 1))
    error_with_id ("gpuscan:nargout", "gather: %d outputs for %d inputs", nargout, nargin);
  return host_values (args);
}

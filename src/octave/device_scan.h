// gpuscan (D, ...) for a device array D: the scan on the GPU, its results device arrays.

#ifndef GPUSCAN_DEVICE_SCAN_H
#define GPUSCAN_DEVICE_SCAN_H

#include <octave/oct.h>

#include "scan_request.h"

// x is a device array; the options r are gpuscan's, in host memory but SEGMENTS and
// GROUPS, which may be device arrays
octave_value_list device_scan (const octave_value& x, const scan_request& r, int nargout);

#endif

// Gateway layer: gpuscan of a sparse X is what this Octave's cumsum, cumprod, cummax or
// cummin gives, computed by that function itself (Octave's sparse code), a sparse result.
#ifndef GPUSCAN_SPARSE_SCAN_H
#define GPUSCAN_SPARSE_SCAN_H

#include <octave/oct.h>

#include "scan_request.h"

// the options those functions take (DIM or VECDIM, "all", the direction, the NaN flag,
// "linear" and "ComparisonMethod") are handed on; the others are a gpuscan:sparse error
octave_value_list sparse_scan (const octave_value& x, const scan_request& r, int nargout);

#endif

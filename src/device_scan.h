// gpuscan (D, ...) for a device array D: the scan on the GPU, its results device arrays.

#ifndef GPUSCAN_DEVICE_SCAN_H
#define GPUSCAN_DEVICE_SCAN_H

#include <octave/oct.h>

// args(0) is a device array; the options are gpuscan's, in host memory but SEGMENTS and
// GROUPS, which may be device arrays
octave_value_list device_scan (const octave_value_list& args, int nargout);

#endif

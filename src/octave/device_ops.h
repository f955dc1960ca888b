// Octave's operators on device arrays, and the host route of the operations without
// kernels (device_ops.cc).

#ifndef GPUSCAN_DEVICE_OPS_H
#define GPUSCAN_DEVICE_OPS_H

#include <octave/oct.h>

#include <string>

#include "device_array.h"

// registers the operators of the device arrays' type t with each type Octave knows
void install_device_ops (int t);

// r, a result Octave computed from gathered operands, as a new device array (the host
// route of every operation without kernels); gpuscan:type, naming what, where a device
// array cannot hold it (sparse, cell, ...)
octave_value device_result (const octave_value& r, const std::string& what);

#endif

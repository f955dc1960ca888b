// Octave's operators and element-wise functions on device arrays (device_ops.cc).

#ifndef GPUSCAN_DEVICE_OPS_H
#define GPUSCAN_DEVICE_OPS_H

#include <octave/oct.h>

#include "device_array.h"

// registers the operators of the device arrays' type t with each type Octave knows
void install_device_ops (int t);

// D resized to dv, zeros filling (Octave's concatenation starts from its first non-empty
// element resized to the result's shape, then the cat operators put each in place)
octave_value device_resize (const device_array& a, const dim_vector& dv, bool fill);

// any (D, dim) or all (D, dim) (dim 0-based, -1: the first non-singleton), a device array
octave_value device_any_all (const device_array& a, int dim, bool all);

// umap (D) for an element-wise function of Octave's (abs, sqrt, isnan, ...), named name
octave_value device_map (const device_array& a, octave_base_value::unary_mapper_t umap,
                         const char *name);

#endif

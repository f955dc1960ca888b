// Element-wise arithmetic and comparisons of device arrays on the device
// (device_elementwise.cc).

#ifndef GPUSCAN_DEVICE_ELEMENTWISE_H
#define GPUSCAN_DEVICE_ELEMENTWISE_H

#include <octave/oct.h>

#include "base/elementwise.h"
#include "device_array.h"

// a OP b on the device where base/elementwise.h's rule covers the operator and both
// classes and the shapes are equal or one operand is a single element; else an undefined
// value (the caller takes the host route)
octave_value device_binary (octave_value::binary_op op, const octave_value& a,
                            const octave_value& b);
// -a or abs (a) (EW_NEGATE, EW_ABS) on the device; undefined where the rule does not
// cover a's class
octave_value device_unary (elementwise_op op, const device_array& a);

// device array v in class `to` (Octave's cast), on the device; undefined where the rule
// does not cover the pair (to logical, int64 or uint64, from int64, uint64 or complex)
octave_value device_cast (const octave_value& v, scan_type to);

#endif

// Stream compaction, x(mask) with a logical mask of numel (x) elements, shape included:
// gpuscan_compact, and a device array indexed by a device mask.

#ifndef GPUSCAN_COMPACTION_H
#define GPUSCAN_COMPACTION_H

#include <octave/oct.h>

#include "device_array.h"

// a host X and a host MASK: the CPU engine
octave_value compact_host (const octave_value& x, const octave_value& mask);

// a device X, MASK on the host or the device: a device array
octave_value compact_device (const device_array& x, const octave_value& mask);

#endif

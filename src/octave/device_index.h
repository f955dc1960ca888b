// Indexing a device array: D(I), D(I, J, ...), D(:), D(end), ranges and masks, and
// assignment D(I) = V, with Octave's rules (the host array's own indexing gives shapes,
// bounds and errors).  A logical mask on the device with numel (D) elements runs the
// compaction kernels; every other index takes D through host memory (a download and an
// upload: correct everywhere, cheap only for small arrays).

#ifndef GPUSCAN_DEVICE_INDEX_H
#define GPUSCAN_DEVICE_INDEX_H

#include <octave/oct.h>

#include "device_array.h"

// D(idx{:}): a device array
octave_value device_index (const device_array& a, const octave_value_list& idx);

// D(idx{:}) = V: a new device array (D itself is not changed; V host or device)
octave_value device_assign (const device_array& a, const octave_value_list& idx,
                            const octave_value& v);

#endif

// Gateway layer: gpuscan_filter's arrays into a filter_desc for the engine layer.
#ifndef GPUSCAN_FILTER_H
#define GPUSCAN_FILTER_H

#include <octave/oct.h>

// [y, zf] of __gpuscan__ ("filter", b, a, x, zi, dim), which inst/gpuscan_filter.m calls
// with filter's rules applied: b divided by a(1) and padded to K + 1 elements, a divided
// by a(1) (one element: no feedback terms), x an array, zi K values a channel in filter's
// layout, dim a dimension of x.  Every array is taken in one class, as filter does:
// single where any is, complex where any is.  A device array x (in that class) gives
// device arrays y and zf.
octave_value_list filter_arrays (const octave_value_list& args);

#endif

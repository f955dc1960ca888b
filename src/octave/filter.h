// Gateway layer: gpuscan_filter's arrays into a filter_desc for the engine layer.
#ifndef GPUSCAN_FILTER_H
#define GPUSCAN_FILTER_H

#include <octave/oct.h>

// [y, zf] of gpuscan_filter (b, a, x, zi, dim), its 3 to 5 arguments as its caller gave
// them (zi and dim empty where not given; from the compiled gpuscan_filter, or from
// __gpuscan__ ("filter", ...), which inst/gpuscan_filter.m calls), with filter's rules:
// every array in one class (single where any is, complex where any is), b and a divided
// by a(1), dim the first non-singleton dimension by default, zi K values a channel in
// filter's layout.  A device array x gives device arrays y and zf.
octave_value_list filter_arrays (const octave_value_list& args);

#endif

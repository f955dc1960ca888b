// Gateway layer: Octave 11's "all" and VECDIM, on every version.  The dimensions named
// are merged into one: X is permuted so that they come together at the first of them
// (only where they are not together already), reshaped, and scanned along that one
// dimension; the outputs take Octave 11's shape, the merged length at the first of the
// dimensions and 1 at the others ("all": a column, as X(:)).  "linear" turns the index
// output into linear indices of X.
#ifndef GPUSCAN_SCAN_DIMS_H
#define GPUSCAN_SCAN_DIMS_H

#include <octave/oct.h>

#include "scan_request.h"

struct folded_scan
{
  octave_value x;              // X as scanned
  dim_vector x_dims;           // X's own shape
  bool reshaped = false;       // "all" or VECDIM merged two or more dimensions
  dim_vector out_dims;         // the outputs' shape, where reshaped
  Array<int> perm;             // the permutation taken first (empty where none)
  dim_vector scanned_dims;     // X's shape as scanned
};

// X as scanned, and r.dim for it; option values the size of X (SEGMENTS, KEYS, the
// recurrence's A) are permuted and reshaped as X is
folded_scan fold_dims (const octave_value& x, scan_request& r);

// the scan's outputs in Octave 11's shape, the index output as linear indices where
// "linear" asks (0 stays 0: an exclusive scan's first element)
octave_value_list unfold_outputs (const octave_value_list& out, const folded_scan& f,
                                  const scan_request& r);

#endif

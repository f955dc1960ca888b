// Gateway layer: "groups", G, running scans within groups of unsorted labels, in the
// original order.  The scan runs on X put in the stable order of G (Octave's sort), with
// a segment for each run of equal labels ("keys"), and its outputs go back to where
// their elements came from.
#ifndef GPUSCAN_SCAN_GROUPS_H
#define GPUSCAN_SCAN_GROUPS_H

#include <octave/oct.h>

#include "base/scan_desc.h"

struct group_order
{
  NDArray order;         // 1-based positions along DIM, in the labels' stable order
  octave_value sorted;   // the labels in that order (the keys of the sorted scan)
};

// G: a vector of labels of length size (X, DIM), shared by every line
group_order order_groups (const octave_value& g, const scan_desc& d);
// v(:, order, :) with v seen as (inner, len, outer): elements along DIM reordered
octave_value reorder (const octave_value& v, const scan_desc& d, const NDArray& order);
// the outputs back in place: values y(:, order, :) = ys, indices through order
octave_value restore_values (const octave_value& ys, const scan_desc& d,
                             const NDArray& order);
octave_value restore_index (const octave_value& iys, const scan_desc& d,
                            const NDArray& order);

#endif

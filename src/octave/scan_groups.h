// Gateway layer: "groups", G, running scans within groups of unsorted labels, in the
// original order.  Host arrays: the engine's label scan where it takes the labels
// (engine_group_label_scan: whole numbers of a narrow range), else the labels' stable
// order, made here: counted by the engine layer where they are whole numbers of a narrow
// range (group_order.h), else by Octave's sort; the engine layer gathers X into that
// order, scans a segment a group and scatters the outputs back (engine_group_scan,
// engine_array_group_scan).
#ifndef GPUSCAN_SCAN_GROUPS_H
#define GPUSCAN_SCAN_GROUPS_H

#include <octave/oct.h>

#include "base/scan_desc.h"
#include "base/scan_status.h"

struct group_order
{
  int64NDArray order;   // 0-based positions along DIM, in the labels' stable order
  boolNDArray heads;    // true where a group starts, in that order
  // as the engine takes them
  const int64_t *order_data () const { return reinterpret_cast<const int64_t *> (order.data ()); }
  const uint8_t *heads_data () const { return reinterpret_cast<const uint8_t *> (heads.data ()); }
};

// G: a vector of labels of length size (X, DIM), shared by every line
group_order order_groups (const octave_value& g, const dim_vector& xdv, const scan_desc& d);

// the scan of d (x and y host memory) within the groups of G, by the engine's label scan
// or through the labels' order; errors raised
void scan_host_groups (const octave_value& g, const dim_vector& xdv, const scan_desc& d,
                       scan_algorithm a);

#endif

/* "groups": the one composition of a scan within groups of labels, for host arrays
   (engine_group_scan, engine.h) and device arrays (engine_array_group_scan,
   device_arrays.h).  X is gathered into its labels' stable order, scanned with a segment
   a group, and the outputs are scattered back to where their elements came from (an index
   output's positions mapped through the order on the way). */
#ifndef GPUSCAN_GROUP_SCAN_H
#define GPUSCAN_GROUP_SCAN_H

#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "engine/algorithms.h"
#include "engine/array_backend.h"

/* the scan of d (x, y, index in memory's kind) through the groups' order and heads:
   memory gives the temporaries and the permutes, scan runs the sorted scan */
engine_status group_scan (const array_backend *memory,
                          engine_status (*scan) (const scan_desc *, scan_algorithm, char *, size_t),
                          const scan_desc *d, const int64_t *order, const uint8_t *heads,
                          scan_algorithm a, char *msg, size_t msg_size);

#endif

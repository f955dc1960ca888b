// Experiment builds only (GSK_SHAPES_FROM names this header; tools/device-check.sh's
// variants): a value of
// kernels/tuning/tuning.cuh's shape_values given as -DGSK_<NAME>=v replaces the package's, e.g.
// -DGSK_ITEMS_8B=12.  Included by kernels/tuning/tuning.cuh after shape_values.
#pragma once

namespace gsk {

constexpr shape_values experiment_shapes ()
{
  shape_values v;
#ifdef GSK_ITEMS_8B
  v.items_8b = GSK_ITEMS_8B;
#endif
#ifdef GSK_ITEMS_4B
  v.items_4b = GSK_ITEMS_4B;
#endif
#ifdef GSK_ITEMS_4B_LARGE
  v.items_4b_large = GSK_ITEMS_4B_LARGE;
#endif
#ifdef GSK_STRIPED_ROWS_NARROW
  v.striped_rows_narrow = GSK_STRIPED_ROWS_NARROW;
#endif
#ifdef GSK_ITEMS_NARROW
  v.items_narrow = GSK_ITEMS_NARROW;
#endif
#ifdef GSK_ITEMS_8B_LARGE
  v.items_8b_large = GSK_ITEMS_8B_LARGE;
#endif
#ifdef GSK_ITEMS_8B_LARGE_INT
  v.items_8b_large_int = GSK_ITEMS_8B_LARGE_INT;
#endif
#ifdef GSK_ITEMS_8B_INDEXED
  v.items_8b_indexed = GSK_ITEMS_8B_INDEXED;
#endif
#ifdef GSK_ITEMS_4B_INDEXED
  v.items_4b_indexed = GSK_ITEMS_4B_INDEXED;
#endif
#ifdef GSK_ITEMS_16B
  v.items_16b = GSK_ITEMS_16B;
#endif
#ifdef GSK_INDEX_ITEMS
  v.index_items = GSK_INDEX_ITEMS;
#endif
#ifdef GSK_INDEX_FROM_VALUES_MIN
  v.index_from_values_min = GSK_INDEX_FROM_VALUES_MIN;
#endif
#ifdef GSK_EXACT_ITEMS_8B
  v.exact_items_8b = GSK_EXACT_ITEMS_8B;
#endif
#ifdef GSK_EXACT_ITEMS_4B
  v.exact_items_4b = GSK_EXACT_ITEMS_4B;
#endif
#ifdef GSK_WIDE_THREADS
  v.wide_threads = GSK_WIDE_THREADS;
#endif
#ifdef GSK_WIDE_THREADS_INT
  v.wide_threads_int = GSK_WIDE_THREADS_INT;
#endif
#ifdef GSK_STRIPED_ROWS
  v.striped_rows = GSK_STRIPED_ROWS;
#endif
#ifdef GSK_STRIPED_THREADS
  v.striped_threads = GSK_STRIPED_THREADS;
#endif
#ifdef GSK_STRIPED_ROWS_LINES
  v.striped_rows_lines = GSK_STRIPED_ROWS_LINES;
#endif
#ifdef GSK_LANES_MIN_CHUNK
  v.lanes_min_chunk = GSK_LANES_MIN_CHUNK;
#endif
#ifdef GSK_LANES_BATCH
  v.lanes_batch = GSK_LANES_BATCH;
#endif
#ifdef GSK_LANE_ITEMS_4B
  v.lane_items_4b = GSK_LANE_ITEMS_4B;
#endif
#ifdef GSK_LANE_ITEMS_8B
  v.lane_items_8b = GSK_LANE_ITEMS_8B;
#endif
#ifdef GSK_LANE_VEC_4B
  v.lane_vec_4b = GSK_LANE_VEC_4B;
#endif
#ifdef GSK_LANE_VEC_ITEMS_4B
  v.lane_vec_items_4b = GSK_LANE_VEC_ITEMS_4B;
#endif
#ifdef GSK_LANE_VEC_8B
  v.lane_vec_8b = GSK_LANE_VEC_8B;
#endif
#ifdef GSK_LANE_VEC_ITEMS_8B
  v.lane_vec_items_8b = GSK_LANE_VEC_ITEMS_8B;
#endif
  return v;
}

}  // namespace gsk

// Experiment builds only (GSK_TABLES_FROM names this header; tools/device-check.sh's
// variants): a value of
// kernels/tuning/tuning_tables.cuh's table given as -DGSK_<NAME>=v replaces the chosen table's,
// e.g. -DGSK_LOOK_BACK_WAIT_NS=2000.  Included by kernels/tuning/tuning_tables.cuh.
#pragma once

namespace gsk {

inline const tuning *experiment_table (const tuning *t)
{
  static tuning e;
  e = *t;
#ifdef GSK_WIDE_TILE_FROM
  e.wide_tile_from = GSK_WIDE_TILE_FROM;
#endif
#ifdef GSK_LINE_BLOCKS_MIN_LINES
  e.line_blocks_min_lines = GSK_LINE_BLOCKS_MIN_LINES;
#endif
#ifdef GSK_LOOK_BACK_WAIT_NS
  e.look_back_wait_ns = GSK_LOOK_BACK_WAIT_NS;
#endif
#ifdef GSK_LOOK_BACK_POLL_NS
  e.look_back_poll_ns = GSK_LOOK_BACK_POLL_NS;
#endif
#ifdef GSK_L2_PREFETCH_TILES_PER_SM
  e.l2_prefetch_tiles_per_sm = GSK_L2_PREFETCH_TILES_PER_SM;
#endif
#ifdef GSK_FAST_SATSUM_MIN_BYTES
  e.fast_satsum_min_bytes = GSK_FAST_SATSUM_MIN_BYTES;
#endif
#ifdef GSK_REPRODUCIBLE_TREE_FROM
  e.reproducible_tree_from = GSK_REPRODUCIBLE_TREE_FROM;
#endif
  return &e;
}

}  // namespace gsk

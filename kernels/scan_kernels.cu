// The extern "C" launchers: dispatch from (type, operator) to the operator's plan, or
// to CUB's sum (cub_baseline.cu) where the "cub" algorithm applies.
#include <cuda_runtime.h>
#include <cstdio>
#include <new>

#include "dispatch/device_scan.cuh"
#include "ops/op_list.h"
#include "scan_kernels.h"

// the plans are instantiated in the ops_*.cu units
#define GSK_EXTERN_PLAN(Op) extern template struct gsk::plan<gsk::Op>;
GSK_ALL_OPS (GSK_EXTERN_PLAN)
#undef GSK_EXTERN_PLAN

namespace gsk {

// ---- (type, operator) -> operator type ----------------------------------------------
// F (Op) is called with the operator type for the descriptor and algorithm; false when
// none.  Max and min take the value-only operator where it serves (inclusive, decoupled:
// see extremum_op); with the index output, where their positions can be found from the
// values (lines: extremum_index.cuh).
template <typename F>
bool with_op (const scan_desc *d, F f, gsk_algorithm a = GSK_DECOUPLED)
{
  // (max and min by another "ComparisonMethod": the CPU engine)
  if (d->compare != SCAN_CMP_OCTAVE)
    return false;
  const bool values_only = ! d->exclusive && a == GSK_DECOUPLED
                           && (! d->index || (d->inner == 1 && scan_numel (d) >= index_from_values_min));
  // ("omitnan" changes the floating sums and products, "includenan" max and min; other
  // types hold no NaN)
  const bool omit = d->nan_rule == SCAN_NAN_OMIT, include = d->nan_rule == SCAN_NAN_INCLUDE;
  // ("includenan" values alone: without the index output; extremum_index.cuh finds
  // positions by comparing values, which a NaN does not equal)
  const bool nan_values_only = ! d->exclusive && a == GSK_DECOUPLED && ! d->index;
#define GSK_VALUES_ONLY(name)                                                 \
    if (d->op == SCAN_MAX && values_only) return f (vmax_##name ()), true;    \
    if (d->op == SCAN_MIN && values_only) return f (vmin_##name ()), true;
#define GSK_BITS(name)                                                        \
    if (d->op == SCAN_BITAND) return f (bitand_##name ()), true;              \
    if (d->op == SCAN_BITOR) return f (bitor_##name ()), true;                \
    if (d->op == SCAN_BITXOR) return f (bitxor_##name ()), true;
// every floating type, complex too: the recurrence, and "accurate" sums (with "omitnan":
// the CPU engine)
#define GSK_RECURRENCE_OR_ACCURATE(name)                                      \
    if (d->op == SCAN_RECURRENCE) return f (rec_##name ()), true;             \
    if (d->accurate)                                                         \
      return d->op == SCAN_SUM && ! omit ? (f (sumacc_##name ()), true) : false;
#define GSK_INT_CASE(E, name, values)                                         \
  case E:                                                                    \
    values                                                                   \
    if (d->op == SCAN_SATSUM) return f (satsum_##name ()), true;              \
    if (d->op == SCAN_MAX) return f (max_##name ()), true;                    \
    if (d->op == SCAN_MIN) return f (min_##name ()), true;                    \
    return false;
#define GSK_FLOAT_CASE(E, name)                                               \
  case E:                                                                    \
    GSK_RECURRENCE_OR_ACCURATE (name)                                        \
    if (d->op == SCAN_LOGSUMEXP) return f (lse_##name ()), true;              \
    if (d->op == SCAN_MAX && include && nan_values_only) return f (vmaxnan_##name ()), true; \
    if (d->op == SCAN_MIN && include && nan_values_only) return f (vminnan_##name ()), true; \
    if (d->op == SCAN_MAX && include) return f (maxnan_##name ()), true;      \
    if (d->op == SCAN_MIN && include) return f (minnan_##name ()), true;      \
    if (d->op == SCAN_SUM && omit) return f (sumomit_##name ()), true;        \
    if (d->op == SCAN_PROD && omit) return f (prodomit_##name ()), true;      \
    if (omit) return false;                                                  \
    if (d->op == SCAN_SUM) return f (sum_##name ()), true;                    \
    if (d->op == SCAN_PROD) return f (prod_##name ()), true;                  \
    GSK_VALUES_ONLY (name)                                                   \
    if (d->op == SCAN_MAX) return f (max_##name ()), true;                    \
    if (d->op == SCAN_MIN) return f (min_##name ()), true;                    \
    return false;
  switch (d->type)
    {
      GSK_FLOAT_CASE (SCAN_DOUBLE, double)
      GSK_FLOAT_CASE (SCAN_SINGLE, single)
      GSK_INT_CASE (SCAN_INT8, int8, )
      GSK_INT_CASE (SCAN_UINT8, uint8, GSK_BITS (uint8))
      GSK_INT_CASE (SCAN_INT16, int16, )
      GSK_INT_CASE (SCAN_UINT16, uint16, GSK_BITS (uint16))
      GSK_INT_CASE (SCAN_INT32, int32, GSK_VALUES_ONLY (int32))
      GSK_INT_CASE (SCAN_UINT32, uint32, GSK_VALUES_ONLY (uint32) GSK_BITS (uint32))
      GSK_INT_CASE (SCAN_INT64, int64, GSK_VALUES_ONLY (int64))
      GSK_INT_CASE (SCAN_UINT64, uint64, GSK_VALUES_ONLY (uint64) GSK_BITS (uint64))
    case SCAN_CDOUBLE:
      GSK_RECURRENCE_OR_ACCURATE (cdouble)
      if (d->op == SCAN_SUM) return omit ? f (sumomit_cdouble ()) : f (sum_cdouble ()), true;
      if (d->op == SCAN_PROD) return omit ? f (prodomit_cdouble ()) : f (prod_cdouble ()), true;
      return false;   // complex max/min: abs and arg as the C library computes them: CPU
    case SCAN_CSINGLE:
      GSK_RECURRENCE_OR_ACCURATE (csingle)
      if (d->op == SCAN_SUM) return omit ? f (sumomit_csingle ()) : f (sum_csingle ()), true;
      if (d->op == SCAN_PROD) return omit ? f (prodomit_csingle ()) : f (prod_csingle ()), true;
      return false;
    case SCAN_LOGICAL:
      // a logical "native" sum and max are a running OR: max over 0/1 bytes, whose empty
      // value 0 is false; a logical min's empty value would be 255, not true: CPU (AND,
      // OR and XOR are bits_op, whose empty AND is 1)
      if (d->op == SCAN_SATSUM || d->op == SCAN_MAX) return f (max_uint8 ()), true;
      if (d->op == SCAN_AND) return f (and_logical ()), true;
      if (d->op == SCAN_OR) return f (or_logical ()), true;
      if (d->op == SCAN_XOR) return f (xor_logical ()), true;
      return false;
    default:
      return false;
    }
#undef GSK_INT_CASE
#undef GSK_FLOAT_CASE
#undef GSK_VALUES_ONLY
#undef GSK_BITS
#undef GSK_RECURRENCE_OR_ACCURATE
}

}  // namespace gsk

using namespace gsk;

extern "C" int gsk_supports (const scan_desc *d)
{
  return with_op (d, [] (auto) { });
}

extern "C" int gsk_reads_input (const gsk_context *c, const scan_desc *d, gsk_algorithm a)
{
  switch (d->input)
    {
    case SCAN_INPUT_LOGICAL: case SCAN_INPUT_INT8: case SCAN_INPUT_UINT8: case SCAN_INPUT_INT16:
    case SCAN_INPUT_UINT16: case SCAN_INPUT_INT32: case SCAN_INPUT_UINT32: case SCAN_INPUT_SINGLE:
      break;
    default:
      return 0;
    }
  a = gsk_effective_algorithm (d, a);
  if (d->inner != 1 || a == GSK_CUB)
    return 0;
  bool narrow = false;
  with_op (d, [&] (auto op) {
    typedef decltype (op) Op;
    if constexpr (reads_narrow<Op>::value)
      narrow = plan<Op>::choose (*c, d, a, false).kernel != pass_kernel::line_blocks;
  }, a);
  return narrow;
}

// CUB covers plain sums of one double or single vector, forward; not reproducible ones,
// nor "omitnan" ones
// (its look-back groups the tiles as it finds them)
static bool cub_applies (const scan_desc *d)
{
  return (d->type == SCAN_DOUBLE || d->type == SCAN_SINGLE) && d->op == SCAN_SUM
         && d->nan_rule == SCAN_NAN_OCTAVE && ! d->heads && ! d->reverse && d->inner == 1 && d->outer == 1 && ! d->reproducible;
}

extern "C" gsk_algorithm gsk_effective_algorithm (const scan_desc *d, gsk_algorithm a)
{
  if (a == GSK_CUB)
    return cub_applies (d) ? a : GSK_DECOUPLED;
  if (d->inner > 1)
    return a;   /* every algorithm scans across vectors with the lanes kernels */
  with_op (d, [&] (auto op) { a = plan<decltype (op)>::effective (a); }, a);
  return a;
}

extern "C" gsk_algorithm gsk_auto_algorithm (const gsk_context *c, const scan_desc *d)
{
  // (with head flags the ordered look-back stops at the nearest head: H200, 2^26
  // segmented, x copy, ordered 1.10 / 1.15 against Brent-Kung 2.10 / 2.05, single / double)
  if (! d->reproducible || d->heads || d->inner != 1 || d->outer != 1)
    return GSK_DECOUPLED;
  bool one_word = true;
  with_op (d, [&] (auto op) { one_word = tile_status<decltype (op)>::words_per_slot == 1; });
  return d->len >= (one_word ? c->tuning->reproducible_tree_from
                             : c->tuning->reproducible_16b_tree_from)
         ? gsk_effective_algorithm (d, GSK_BRENT_KUNG) : GSK_DECOUPLED;
}

extern "C" void gsk_describe (const gsk_context *c, const scan_desc *d, gsk_algorithm a,
                              char *buf, size_t size)
{
  if (size)
    *buf = 0;
  a = gsk_effective_algorithm (d, a);
  if (a == GSK_CUB)
    snprintf (buf, size, "CUB's DeviceScan %s sum", d->exclusive ? "exclusive" : "inclusive");
  else
    with_op (d, [&] (auto op) { plan<decltype (op)>::describe (*c, d, a, buf, size); }, a);
}

extern "C" gsk_context *gsk_context_new (const char *tuning, const char *limits, char *why,
                                         size_t why_size)
{
  gsk_context *c = new (std::nothrow) gsk_context ();
  if (! c)
    return snprintf (why, why_size, "out of host memory"), nullptr;
  const device_limits *clamp = limits && *limits ? limits_profile_named (limits) : nullptr;
  if (limits && *limits && ! clamp)
    {
      char names[64];
      limits_profile_names (names, sizeof names);
      snprintf (why, why_size, "no device limits \"%s\" to clamp to (%s)", limits, names);
      delete c;
      return nullptr;
    }
  if (! read_device_limits (clamp, &c->limits))
    {
      snprintf (why, why_size, "the device's properties cannot be read");
      delete c;
      return nullptr;
    }
  c->tuning = tuning && *tuning ? tuning_named (tuning)
                                : tuning_for (c->limits.cc_major, c->limits.cc_minor);
  if (! c->tuning)
    {
      char names[64];
      tuning_table_names (names, sizeof names);
      snprintf (why, why_size, "no tuning table \"%s\" (%s)", tuning, names);
      delete c;
      return nullptr;
    }
#ifdef GSK_TABLES_FROM
  c->tuning = experiment_table (c->tuning);
#endif
  return c;
}

extern "C" void gsk_context_describe (const gsk_context *c, char *buf, size_t size)
{
  const device_limits& l = c->limits;
  snprintf (buf, size, "tuning %s, %d SMs, %d threads and %zu KiB shared memory an SM, "
            "%zu KiB a block, sm_%d%d%s%s", c->tuning->name, l.sms, l.threads_per_sm,
            l.smem_per_sm / 1024, l.smem_per_block / 1024, l.cc_major, l.cc_minor,
            l.clamped_to ? ", clamped to " : "", l.clamped_to ? l.clamped_to : "");
}

extern "C" void gsk_context_free (gsk_context *c)
{
  delete c;
}

extern "C" size_t gsk_workspace_bytes (const gsk_context *c, const scan_desc *d, gsk_algorithm a)
{
  a = gsk_effective_algorithm (d, a);
  size_t bytes = 0;
  if (a == GSK_CUB)
    return gsk_cub_sum_workspace_bytes (d->type, d->len, d->exclusive);
  with_op (d, [&] (auto op) { bytes = plan<decltype (op)>::workspace (*c, d, a); }, a);
  return bytes;
}

extern "C" cudaError_t gsk_scan (gsk_context *c, const scan_desc *d, gsk_algorithm a, void *ws,
                                 size_t ws_bytes, cudaStream_t s)
{
  if (scan_numel (d) == 0)
    return cudaSuccess;
  a = gsk_effective_algorithm (d, a);
  if (a == GSK_CUB)
    {
      claim_workspace (c->workspace, ws, ws_bytes, layout_states, 0, s);   // CUB's own look-back state goes into it
      return gsk_cub_sum (d->type, d->x, d->y, d->len, d->exclusive, ws, ws_bytes, s);
    }
  cudaError_t err = cudaErrorNotSupported;
  with_op (d, [&] (auto op) {
    err = plan<decltype (op)>::run (*c, d, a, ws, ws_bytes, s);
  }, a);
  return err;
}


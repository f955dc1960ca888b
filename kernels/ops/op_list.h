// Every operator the kernels scan, by name, in the groups whose plans ops.cu
// instantiates.  Names, not template-ids, so that they pass through macros.
#pragma once

#include "ops/scan_ops.cuh"

namespace gsk {

#define GSK_FLOAT_NAMES(T, name)                  \
  typedef sum_op<T> sum_##name;                   \
  typedef prod_op<T> prod_##name;                 \
  typedef omit_nan<sum_op<T>> sumomit_##name;     \
  typedef omit_nan<prod_op<T>> prodomit_##name;   \
  typedef minmax_op<T, true> max_##name;          \
  typedef minmax_op<T, false> min_##name;         \
  typedef minmax_op<T, true, true> maxnan_##name; \
  typedef minmax_op<T, false, true> minnan_##name; \
  typedef extremum_op<T, true, true> vmaxnan_##name; \
  typedef extremum_op<T, false, true> vminnan_##name; \
  typedef accurate_sum<T> sumacc_##name;          \
  typedef lse_op<T> lse_##name;                   \
  typedef recurrence_op<T> rec_##name;
#define GSK_INT_NAMES(T, name)                    \
  typedef satsum_op<T> satsum_##name;             \
  typedef minmax_op<T, true> max_##name;          \
  typedef minmax_op<T, false> min_##name;
// max and min without the index output (4- and 8-byte types: the tiles that take them)
#define GSK_VALUE_NAMES(T, name)                  \
  typedef extremum_op<T, true> vmax_##name;       \
  typedef extremum_op<T, false> vmin_##name;
GSK_FLOAT_NAMES (double, double)
GSK_FLOAT_NAMES (float, single)
typedef sum_op<cplx<double>> sum_cdouble;
typedef prod_op<cplx<double>> prod_cdouble;
typedef sum_op<cplx<float>> sum_csingle;
typedef prod_op<cplx<float>> prod_csingle;
typedef omit_nan<sum_op<cplx<double>>> sumomit_cdouble;
typedef omit_nan<prod_op<cplx<double>>> prodomit_cdouble;
typedef omit_nan<sum_op<cplx<float>>> sumomit_csingle;
typedef omit_nan<prod_op<cplx<float>>> prodomit_csingle;
typedef accurate_sum<cplx<double>> sumacc_cdouble;
typedef accurate_sum<cplx<float>> sumacc_csingle;
typedef recurrence_op<cplx<double>> rec_cdouble;
typedef recurrence_op<cplx<float>> rec_csingle;
GSK_INT_NAMES (int8_t, int8)
GSK_INT_NAMES (uint8_t, uint8)
GSK_INT_NAMES (int16_t, int16)
GSK_INT_NAMES (uint16_t, uint16)
GSK_INT_NAMES (int32_t, int32)
GSK_INT_NAMES (uint32_t, uint32)
GSK_INT_NAMES (int64_t, int64)
GSK_INT_NAMES (uint64_t, uint64)
#define GSK_BITS_NAMES(T, name)                   \
  typedef bits_op<T, bits_and, false> bitand_##name; \
  typedef bits_op<T, bits_or, false> bitor_##name;   \
  typedef bits_op<T, bits_xor, false> bitxor_##name;
GSK_BITS_NAMES (uint8_t, uint8)
GSK_BITS_NAMES (uint16_t, uint16)
GSK_BITS_NAMES (uint32_t, uint32)
GSK_BITS_NAMES (uint64_t, uint64)
typedef bits_op<uint8_t, bits_and, true> and_logical;
typedef bits_op<uint8_t, bits_or, true> or_logical;
typedef bits_op<uint8_t, bits_xor, true> xor_logical;
GSK_VALUE_NAMES (double, double)
GSK_VALUE_NAMES (float, single)
GSK_VALUE_NAMES (int32_t, int32)
GSK_VALUE_NAMES (uint32_t, uint32)
GSK_VALUE_NAMES (int64_t, int64)
GSK_VALUE_NAMES (uint64_t, uint64)
#undef GSK_FLOAT_NAMES
#undef GSK_INT_NAMES
#undef GSK_VALUE_NAMES
#undef GSK_BITS_NAMES

}  // namespace gsk

// One group an element type (complex: both), each instantiated by its own unit
// (ops.cu, compiled once a group), so that `make -j` builds them side by side.
#define GSK_OPS_double(X)                                                        \
  X (sum_double) X (prod_double) X (max_double) X (min_double) X (vmax_double) X (vmin_double)
#define GSK_OPS_single(X)                                                        \
  X (sum_single) X (prod_single) X (max_single) X (min_single) X (vmax_single) X (vmin_single)
#define GSK_OPS_omitnan(X)                                                       \
  X (sumomit_double) X (prodomit_double) X (sumomit_single) X (prodomit_single)  \
  X (sumomit_cdouble) X (prodomit_cdouble) X (sumomit_csingle) X (prodomit_csingle)
#define GSK_OPS_accurate(X)                                                      \
  X (sumacc_double) X (sumacc_single) X (sumacc_cdouble) X (sumacc_csingle)
#define GSK_OPS_includenan(X)                                                    \
  X (maxnan_double) X (minnan_double) X (maxnan_single) X (minnan_single)        \
  X (vmaxnan_double) X (vminnan_double) X (vmaxnan_single) X (vminnan_single)
#define GSK_OPS_logsumexp(X) X (lse_double) X (lse_single)
#define GSK_OPS_recurrence(X) X (rec_double) X (rec_single) X (rec_cdouble) X (rec_csingle)
#define GSK_OPS_complex(X) X (sum_cdouble) X (prod_cdouble) X (sum_csingle) X (prod_csingle)
#define GSK_OPS_int8(X) X (satsum_int8) X (max_int8) X (min_int8)
#define GSK_OPS_uint8(X) X (satsum_uint8) X (max_uint8) X (min_uint8)
#define GSK_OPS_int16(X) X (satsum_int16) X (max_int16) X (min_int16)
#define GSK_OPS_uint16(X) X (satsum_uint16) X (max_uint16) X (min_uint16)
#define GSK_OPS_int32(X) X (satsum_int32) X (max_int32) X (min_int32) X (vmax_int32) X (vmin_int32)
#define GSK_OPS_uint32(X)                                                        \
  X (satsum_uint32) X (max_uint32) X (min_uint32) X (vmax_uint32) X (vmin_uint32)
#define GSK_OPS_int64(X) X (satsum_int64) X (max_int64) X (min_int64) X (vmax_int64) X (vmin_int64)
#define GSK_OPS_uint64(X)                                                        \
  X (satsum_uint64) X (max_uint64) X (min_uint64) X (vmax_uint64) X (vmin_uint64)
#define GSK_OPS_logical(X) X (and_logical) X (or_logical) X (xor_logical)
#define GSK_OPS_bits8(X)                                                         \
  X (bitand_uint8) X (bitor_uint8) X (bitxor_uint8) X (bitand_uint16) X (bitor_uint16) X (bitxor_uint16)
#define GSK_OPS_bits32(X)                                                        \
  X (bitand_uint32) X (bitor_uint32) X (bitxor_uint32) X (bitand_uint64) X (bitor_uint64) X (bitxor_uint64)
// src/Makefile.am reads the groups it builds from this list, in its order: the longest
// to compile first, for `make -j`
#define GSK_ALL_OPS(X)                                                           \
  GSK_OPS_double (X) GSK_OPS_single (X) GSK_OPS_int32 (X) GSK_OPS_uint32 (X) GSK_OPS_int64 (X) \
  GSK_OPS_uint64 (X) GSK_OPS_bits32 (X) GSK_OPS_bits8 (X) GSK_OPS_int8 (X) GSK_OPS_uint8 (X) \
  GSK_OPS_accurate (X) GSK_OPS_recurrence (X) GSK_OPS_int16 (X) GSK_OPS_uint16 (X) GSK_OPS_complex (X) GSK_OPS_logical (X) \
  GSK_OPS_omitnan (X) GSK_OPS_includenan (X) GSK_OPS_logsumexp (X)

/* The kernels' C interface, called by the CUDA host engine (src/cuda/cuda_engine.c).
   Every pointer in the scan_desc is a device pointer. */
#ifndef GPUSCAN_SCAN_KERNELS_H
#define GPUSCAN_SCAN_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "base/scan_desc.h"
#include "base/scan_trace.h"
#include "dispatch/kernel_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The context of the current device, with the tuning table of its architecture
   (kernels/tuning/tuning_tables.cuh) or the one named by `tuning` ("sm_90", "sm_80", "sm_86",
   "sm_75", "default"), and its limits clamped to the profile `limits` names ("a100",
   "rtx4090", "t4"; kernels/dispatch/device_limits.cuh); null or "" for either: none.  NULL where
   the device cannot be queried or a name is unknown, and why in `why`. */
gsk_context *gsk_context_new (const char *tuning, const char *limits, char *why, size_t why_size);
void gsk_context_free (gsk_context *c);
/* The context's tuning table and limits, in words */
void gsk_context_describe (const gsk_context *c, char *buf, size_t size);

/* 1 when the kernels scan this (type, operator); 0: use the CPU engine */
int gsk_supports (const scan_desc *d);

/* 1 when the kernels of algorithm a read x in d's input class (d->input) as it is: sums
   into double of logical, 8-, 16- and 32-bit integer and single input along vectors
   (inner == 1), by every algorithm but CUB's, in tiles (not line blocks); 0: x must
   come in d's type */
int gsk_reads_input (const gsk_context *c, const scan_desc *d, gsk_algorithm a);

/* Device workspace the scan needs, in bytes.  A workspace must be zero-filled when it is
   first allocated (the look-back tile flags start invalid); later scans reuse it as is. */
size_t gsk_workspace_bytes (const gsk_context *c, const scan_desc *d, gsk_algorithm a);

/* Launch the scan on `stream` (asynchronous).  Returns cudaSuccess or the launch error;
   cudaErrorNotSupported when gsk_supports is 0. */
cudaError_t gsk_scan (gsk_context *c, const scan_desc *d, gsk_algorithm a, void *workspace,
                      size_t workspace_bytes, cudaStream_t stream);

/* What gsk_scan launches for d, in words: each pass's kernel, blocks, threads, tile,
   shared memory and workspace (the engine prints it where GPUSCAN_PLAN is set). */
void gsk_describe (const gsk_context *c, const scan_desc *d, gsk_algorithm a, char *buf,
                   size_t size);

/* The algorithm that actually runs: GSK_CUB covers plain double and single sums,
   GSK_KOGGE_STONE and GSK_BRENT_KUNG the 4- and 8-byte real types; elsewhere each is
   GSK_DECOUPLED.  Scans across vectors (inner > 1) use the lanes kernels for all (lane
   tiles with a per-lane look-back from 32 lanes, one thread per lane below). */
gsk_algorithm gsk_effective_algorithm (const scan_desc *d, gsk_algorithm a);

/* The algorithm of d under "auto" on this GPU: GSK_DECOUPLED, but for a reproducible
   scan of one long vector without head flags the hierarchical GSK_BRENT_KUNG (from the
   tuning table's reproducible_tree_from elements, or reproducible_16b_tree_from
   for states of more than 8 bytes), cheaper there than the ordered look-back. */
gsk_algorithm gsk_auto_algorithm (const gsk_context *c, const scan_desc *d);

/* CUB's InclusiveSum / ExclusiveSum of a plain vector, the benchmark's baseline.
   type: SCAN_DOUBLE, SCAN_SINGLE (inclusive or exclusive), SCAN_INT32 or SCAN_INT64
   (inclusive, wrapping). */
size_t gsk_cub_sum_workspace_bytes (scan_type type, int64_t n, int exclusive);
cudaError_t gsk_cub_sum (scan_type type, const void *x, void *y, int64_t n, int exclusive,
                         void *workspace, size_t workspace_bytes, cudaStream_t stream);

/* Element-wise work for device arrays (convert.cu).  gsk_convert: y = x in class `to`,
   SCAN_DOUBLE from any real type or SCAN_CDOUBLE from SCAN_CSINGLE (x == y is not
   allowed).  gsk_nonzero_flags: flags[i] = x[i] != 0 for any type, and *nan_seen (device
   memory, zeroed by the caller) set to 1 when x holds a NaN. */
cudaError_t gsk_convert (gsk_context *c, scan_type from, scan_type to, const void *x, void *y, int64_t n,
                         cudaStream_t stream);
cudaError_t gsk_nonzero_flags (gsk_context *c, scan_type t, const void *x, uint8_t *flags, int64_t n,
                               int *nan_seen, cudaStream_t stream);

/* y = a OP b element by element on the stream (elementwise.cu), as base/elementwise.h
   says; every pointer of d is device memory */
typedef struct elementwise_desc elementwise_desc;
cudaError_t gsk_elementwise (gsk_context *c, const elementwise_desc *d, cudaStream_t stream);
/* The rows of gpuscan_trace (trace.cu): x (n <= TRACE_MAX_ELEMENTS doubles, device
   memory) scanned by one block through the step code of base/block_scan_steps.h, rows
   (device memory, n x (steps + 1), column-major) the array as loaded and after each step
   (padding removed); row 0 is the caller's */
cudaError_t gsk_trace (trace_algorithm a, int padded, const double *x, int n, double *rows,
                       cudaStream_t stream);
/* Chunked scans (src/base/chunked_scan.h): over lanes x steps index outputs, 1-based chunk
   position p becomes carry_ix[lane] where p == carry_pos, p + shift elsewhere; 0 stays. */
cudaError_t gsk_fix_index (gsk_context *c, double *ix, int64_t lanes, int64_t steps, double carry_pos,
                           const double *carry_ix, double shift, cudaStream_t stream);

/* "groups" on the device (groups.cu).  gsk_group_order: the stable order of n labels
   (device doubles): order[k] the 0-based position of the k-th in sorted order (-0 is 0,
   NaN last), heads[k] = 1 where sorted label k starts a group (each NaN one of its own);
   with a workspace of gsk_group_order_workspace_bytes (n).  gsk_permute: y(i, k, o) =
   x(i, order[k], o), or with scatter y(i, order[k], o) = x(i, k, o), elements of 1, 2,
   4, 8 or 16 bytes; index_map (doubles): a position p > 0 becomes order[p - 1] + 1. */
size_t gsk_group_order_workspace_bytes (int64_t n);
cudaError_t gsk_group_order (gsk_context *c, const double *keys, int64_t n, int64_t *order,
                             uint8_t *heads, void *workspace, cudaStream_t stream);
cudaError_t gsk_permute (gsk_context *c, size_t elem_bytes, const void *x, void *y, int64_t inner,
                         int64_t len, int64_t outer, const int64_t *order, int scatter,
                         int index_map, cudaStream_t stream);

/* "groups" of few labels (groups.cu).  gsk_label_range_of: whether the n labels (device
   doubles) are all whole numbers (wide = 0: finite, within +-2^53) and the smallest and
   largest of them; waits for the stream; a workspace of 256 bytes.  Label tiles scan d
   within the labels keys - lo, span of them (each in [0, span)), in one pass that folds
   each warp's tile into a state a label, one that chains the tiles' states, and one
   that writes y (x read twice, no sort): gsk_label_scan_supports: 1 for inclusive and
   exclusive sums and products of double and single along vectors and columns (inner ==
   1), without head flags or index output, inclusive max and min of them, with span
   states that fit a warp's share of shared memory; the workspace
   (gsk_label_scan_workspace_bytes) needs no zeroing; gsk_label_scan_describe: its
   kernels, in words. */
typedef struct gsk_label_range { long long lo, hi; int wide; } gsk_label_range;
cudaError_t gsk_label_range_of (gsk_context *c, const double *keys, int64_t n, gsk_label_range *r,
                             void *workspace, cudaStream_t stream);
int gsk_label_scan_supports (const gsk_context *c, const scan_desc *d, long long span);
size_t gsk_label_scan_workspace_bytes (const gsk_context *c, const scan_desc *d, long long span);
void gsk_label_scan_describe (const gsk_context *c, const scan_desc *d, long long span, char *buf,
                              size_t size);
cudaError_t gsk_label_scan (gsk_context *c, const scan_desc *d, const double *keys, long long lo,
                            long long span, void *workspace, size_t workspace_bytes,
                            cudaStream_t stream);

/* Stream compaction y = x(mask) (compact.cu): gsk_compact_count scans the mask into the
   workspace and returns the number kept (it waits for the stream); gsk_compact_scatter
   then writes them.  Elements of 1, 2, 4, 8 or 16 bytes; a mask byte keeps its element
   when nonzero.  The workspace must be zeroed when first allocated (look-back flags). */
size_t gsk_compact_workspace_bytes (int64_t n);
cudaError_t gsk_compact_count (gsk_context *c, const uint8_t *mask, int64_t n, void *workspace,
                               int64_t *kept, cudaStream_t stream);
cudaError_t gsk_compact_scatter (size_t elem_bytes, const void *x, const uint8_t *mask,
                                 int64_t n, void *y, void *workspace, cudaStream_t stream);

/* gpuscan_filter (filter.cu): d's arrays in device memory, b and a in host memory.
   gsk_filter_supports: 1 for double and single data of order 8 at most.  The workspace
   (gsk_filter_workspace_bytes) needs no zeroing. */
typedef struct filter_desc filter_desc;
int gsk_filter_supports (const filter_desc *d);
size_t gsk_filter_workspace_bytes (const filter_desc *d);
cudaError_t gsk_filter (gsk_context *c, const filter_desc *d, void *workspace,
                        size_t workspace_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif

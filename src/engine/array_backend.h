/* Where device arrays live: the memory and the operations of a backend, as a table of
   the engine calls that serve them (device_arrays.c keeps the registry above it).  Two
   backends: the GPU through the CUDA engine, and host memory with the CPU engine, which
   stands in for a GPU in tests (GPUSCAN_HOST_ARRAYS=1). */
#ifndef GPUSCAN_ARRAY_BACKEND_H
#define GPUSCAN_ARRAY_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "base/elementwise.h"
#include "base/filter_desc.h"
#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "engine/scan_plan.h"

typedef struct array_backend {
  const char *name;   /* "cuda", "host" */
  /* the CUDA calls that fail (GPUSCAN_FAULT) in a test build */
  void (*use_faults) (const char *names);
  /* changes whenever the memory of earlier arrays is gone (a device reset) */
  unsigned (*generation) (void);
  engine_status (*alloc) (size_t bytes, void **p, char *msg, size_t msg_size);
  void (*free) (void *p);
  engine_status (*to_device) (void *dev, const void *host, size_t bytes, char *msg,
                              size_t msg_size);
  engine_status (*to_host) (void *host, const void *dev, size_t bytes, char *msg,
                            size_t msg_size);
  engine_status (*copy) (void *dst, const void *src, size_t bytes, char *msg, size_t msg_size);
  /* waits for the work queued, and reports an error in it */
  engine_status (*wait) (char *msg, size_t msg_size);
  /* a scan of array memory as planned: PLAN_GPU_RESIDENT or PLAN_CPU (scan_plan.h) */
  engine_status (*scan) (const scan_desc *d, const scan_plan *p, char *msg, size_t msg_size);
  engine_status (*convert) (scan_type from, scan_type to, const void *x, void *y, int64_t n,
                            char *msg, size_t msg_size);
  engine_status (*elementwise) (const elementwise_desc *d, char *msg, size_t msg_size);
  engine_status (*flags) (scan_type t, const void *x, uint8_t *flags, int64_t n, int *has_nan,
                          char *msg, size_t msg_size);
  engine_status (*group_order) (const double *keys, int64_t n, int64_t *order, uint8_t *heads,
                                char *msg, size_t msg_size);
  /* "groups" of few labels: the labels' range (whole: every one a whole number within
     +-2^53), and label tiles of d within span labels (keys - lo) where
     label_scan_supports says so (else the order and the permutes), in words */
  engine_status (*label_range) (const double *keys, int64_t n, int64_t *lo, int64_t *hi,
                                int *whole, char *msg, size_t msg_size);
  int (*label_scan_supports) (const scan_desc *d, long long span);
  void (*label_scan_describe) (const scan_desc *d, long long span, char *buf, size_t size);
  engine_status (*label_scan) (const scan_desc *d, const double *keys, int64_t lo,
                               int64_t span, char *msg, size_t msg_size);
  /* y(i, k, o) = x(i, order[k], o), or with scatter y(i, order[k], o) = x(i, k, o), of
     elements of elem_bytes; index_map (an index output's doubles): a position p > 0
     becomes order[p - 1] + 1 */
  engine_status (*permute) (size_t elem_bytes, const void *x, void *y, int64_t inner,
                            int64_t len, int64_t outer, const int64_t *order, int scatter,
                            int index_map, char *msg, size_t msg_size);
  /* compaction in two steps: the count, then the scatter into y (nothing runs between) */
  engine_status (*compact_count) (const uint8_t *mask, int64_t n, int64_t *kept, char *msg,
                                  size_t msg_size);
  engine_status (*compact_scatter) (size_t elem_bytes, const void *x, const uint8_t *mask,
                                    int64_t n, void *y, char *msg, size_t msg_size);
  /* filter of array memory (b and a in host memory); ENGINE_UNSUPPORTED where the
     backend has no filter of d's type and order (filter_supports is 0) */
  engine_status (*filter) (const filter_desc *d, int cpu_threads, char *msg, size_t msg_size);
  int (*filter_supports) (const filter_desc *d);
} array_backend;

/* host memory and the CPU engine */
extern const array_backend host_array_backend;
/* the GPU's (with these faults, in a test build), or NULL with why in why (no usable GPU,
   or a build without CUDA) */
const array_backend *gpu_array_backend (const char *faults, char *why, size_t why_size);

#endif

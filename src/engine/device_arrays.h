/* Device arrays: the registry of memory that lives across calls (device_arrays.c), on
   the GPU through the CUDA engine, or in host memory standing in for it in tests.  The
   gateway reaches it through engine.h, which includes this file. */
#ifndef GPUSCAN_DEVICE_ARRAYS_H
#define GPUSCAN_DEVICE_ARRAYS_H

#include <stddef.h>
#include <stdint.h>

#include "base/elementwise.h"
#include "base/filter_desc.h"
#include "base/scan_desc.h"
#include "base/scan_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- device arrays --------------------------------------------------------------------
   Memory on the GPU that lives across calls, owned by the engine on behalf of Octave
   objects and named by an id.  Id 0 names no memory (an empty array).  An id becomes
   unknown when its array is freed, when the engine is released (oct-file unloaded) or
   after a device reset; engine_array_data then returns NULL.  With GPUSCAN_HOST_ARRAYS=1
   in the environment, host memory and the CPU engine stand in for the GPU, so that the
   layers above can be tested on machines without one. */
typedef uint64_t engine_array;
engine_status engine_array_new (size_t bytes, engine_array *id, char *msg, size_t msg_size);
void engine_array_free (engine_array id);
/* the array's memory (for scan_desc pointers and the calls below), NULL if unknown */
void *engine_array_data (engine_array id, size_t *bytes);
engine_status engine_array_upload (engine_array id, const void *host, size_t bytes,
                                   char *msg, size_t msg_size);
engine_status engine_array_download (engine_array id, void *host, size_t bytes,
                                     char *msg, size_t msg_size);
/* bytes [offset, offset + bytes) of an array (one element, for Octave's printf) */
engine_status engine_array_read (engine_array id, size_t offset, void *host, size_t bytes,
                                 char *msg, size_t msg_size);
/* Array work on the GPU is queued, not waited for (downloads and uploads wait for it);
   engine_array_wait waits for everything queued, and reports an error in it */
engine_status engine_array_wait (char *msg, size_t msg_size);
/* a new array holding a copy of array src (device to device) */
engine_status engine_array_copy (engine_array src, engine_array *id, char *msg, size_t msg_size);
/* a scan whose x, y, heads and index are array memory (the kernels, or for what they do
   not cover and for ALG_CPU, a round trip through the CPU engine) */
engine_status engine_array_scan (const scan_desc *d, scan_algorithm a, char *msg,
                                 size_t msg_size);
/* y = x in class `to` (SCAN_DOUBLE from a real type, SCAN_CDOUBLE from SCAN_CSINGLE) */
engine_status engine_array_convert (scan_type from, scan_type to, const void *x, void *y,
                                    int64_t n, char *msg, size_t msg_size);
/* y = a OP b element by element (base/elementwise.h), on array memory */
engine_status engine_array_elementwise (const elementwise_desc *d, char *msg, size_t msg_size);
/* flags[i] = x[i] != 0; *has_nan = 1 when x holds a NaN */
engine_status engine_array_flags (scan_type t, const void *x, uint8_t *flags, int64_t n,
                                  int *has_nan, char *msg, size_t msg_size);
/* "groups" of device arrays, with labels in array memory (doubles, one a position along
   d's dim): label tiles where every label is a whole number, their span is one the
   backend's label scan takes, and the scan would run on the backend's kernels with the
   decoupled or "auto" algorithm; else the labels' stable order (-0 is 0, NaN last, each
   NaN a group of its own) and engine_array_group_scan.  GPUSCAN_PLAN prints which. */
engine_status engine_array_group_scan_labels (const scan_desc *d, const double *keys,
                                              scan_algorithm a, char *msg, size_t msg_size);
/* engine_group_scan (engine.h) of array memory: order and heads in array memory too */
engine_status engine_array_group_scan (const scan_desc *d, const int64_t *order,
                                       const uint8_t *heads, scan_algorithm a, char *msg,
                                       size_t msg_size);
/* y = x(mask) into a new array *out of *kept elements */
engine_status engine_array_compact (size_t elem_bytes, const void *x, const uint8_t *mask,
                                    int64_t n, engine_array *out, int64_t *kept, char *msg,
                                    size_t msg_size);

/* filter of array memory: x, y, zi and zf arrays, b and a host memory (the kernels, or
   for what they do not cover, a round trip through the CPU engine) */
engine_status engine_array_filter (const filter_desc *d, char *msg, size_t msg_size);
/* filter of host arrays on the device arrays' backend: x and zi there, its filter, y and
   zf back; ENGINE_UNSUPPORTED, with nothing moved, where there is no backend or it does
   not run d (the caller's CPU engine does) */
engine_status engine_filter_on_device (const filter_desc *d, char *msg, size_t msg_size);

/* ---- for the engine layer (engine.c) */
/* free every array (the ids become unknown) */
void device_arrays_release (void);
/* where device arrays live ("cuda", "host", or "": none), how many are alive and their
   bytes, for engine_info */
void device_arrays_info (const char **where, double *count, double *bytes);

#ifdef __cplusplus
}
#endif
#endif

/* The CUDA host engine: persistent device state, staged transfers, chunks, and the device
   memory of device arrays.  C on the CUDA runtime API; only the engine layer calls it. */
#ifndef GPUSCAN_CUDA_ENGINE_H
#define GPUSCAN_CUDA_ENGINE_H

#include "base/elementwise.h"
#include "base/filter_desc.h"
#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "base/scan_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* what the engine layer hands down from its settings (engine/settings.h) */
typedef struct cuda_settings {
  int64_t chunk;            /* elements a chunk of host arrays (0: the engine's own size) */
  const char *tuning;       /* the kernels' tuning table ("": the GPU's own), for tests */
  const char *device_limits;   /* the GPU's limits clamped to a smaller one's ("": none) */
} cuda_settings;

/* The CUDA engine's part of a scan's plan (engine/scan_plan.h), made by cuda_engine_plan
   and followed by the scans. */
typedef struct cuda_plan {
  int kernels_algorithm;    /* the kernels' algorithm (gsk_algorithm): "auto" resolved */
  int resident;             /* device arrays: one piece, on the device */
  int64_t chunk;            /* host arrays: elements a chunk (the array, where it is one) */
  int64_t chunks;           /* host arrays: about this many chunks */
  int release_first;        /* the buffers held go back first, for chunks of what fits */
  int fits;                 /* 0: the GPU's free memory holds no chunk of this scan */
} cuda_plan;

/* 1 when the kernels scan d's (type, operator, options) */
int cuda_engine_kernels_cover (const scan_desc *d);
/* 1 when the kernels cover d for a host array, and the scans that cross in one chunk fit
   a quarter of the GPU's memory */
int cuda_engine_covers (const scan_desc *d);
/* The plan of d with algorithm a (ALG_AUTO: the kernels' default, or a GPU algorithm), on
   device arrays where resident, else host arrays in chunks sized by the GPU's free memory
   now.  Takes the settings' tuning table and limits: ENGINE_BAD_SETTING for names the
   kernels do not know; ENGINE_NO_GPU without a usable GPU. */
engine_status cuda_engine_plan (const scan_desc *d, scan_algorithm a, const cuda_settings *set,
                                int resident, cuda_plan *p, char *msg, size_t msg_size);
/* what the plan launches (the kernels' passes of its largest chunk), into buf */
void cuda_engine_describe (const scan_desc *d, const cuda_plan *p, char *buf, size_t size);
/* Scan host arrays as planned; ENGINE_NO_MEMORY where the GPU's memory does not hold the
   chunks' buffers. */
engine_status cuda_engine_scan (const scan_desc *d, const cuda_plan *p, char *msg,
                                size_t msg_size);
/* the CUDA calls that fail (GPUSCAN_FAULT, cuda/fault_injection.h) in a test build; a
   release build ignores them */
void cuda_engine_use_faults (const char *names);

typedef struct cuda_info {
  int usable;               /* a GPU is there and works */
  char status[256];         /* "ok", or why not */
  char name[256];
  int cc_major, cc_minor;
  double mem_bytes;
  int driver_version, runtime_version;   /* as cudaDriverGetVersion: 1000*major + 10*minor */
  double held_bytes;        /* device and pinned memory held between calls */
  char tuning[256];         /* the kernels' tuning table and the limits they take */
} cuda_info;
void cuda_engine_info (cuda_info *info);
/* Free every device and pinned buffer (engine_release runs it when the oct-file is
   unloaded). */
void cuda_engine_release (void);

/* ---- the CUDA backend of device arrays (device_arrays.c keeps the registry) ---- */
/* 1 when a GPU is usable (initialises the engine); otherwise why not in the status */
int cuda_engine_ready (void);
const char *cuda_engine_status (void);
/* changes whenever the device is reset after an error: older device pointers are gone */
unsigned cuda_engine_generation (void);
/* alloc, copy, scan_resident, convert and elementwise queue their work and return; to_host and
   to_device wait for what is queued (an error in it is reported there) */
engine_status cuda_engine_alloc (size_t bytes, void **p, char *msg, size_t msg_size);
engine_status cuda_engine_wait (char *msg, size_t msg_size);
void cuda_engine_free (void *p);
engine_status cuda_engine_to_device (void *dev, const void *host, size_t bytes, char *msg,
                                     size_t msg_size);
engine_status cuda_engine_to_host (void *host, const void *dev, size_t bytes, char *msg,
                                   size_t msg_size);
engine_status cuda_engine_copy (void *dst, const void *src, size_t bytes, char *msg,
                                size_t msg_size);
/* 1 when the planned kernels read x of device arrays in d's input class (d->input) as it
   is; 0: x is converted to d's type first */
int cuda_engine_reads_input (const scan_desc *d, const cuda_plan *p);
/* a scan whose pointers are all device pointers, as planned (resident) */
engine_status cuda_engine_scan_resident (const scan_desc *d, const cuda_plan *p, char *msg,
                                         size_t msg_size);
engine_status cuda_engine_convert (scan_type from, scan_type to, const void *x, void *y,
                                   int64_t n, char *msg, size_t msg_size);
engine_status cuda_engine_elementwise (const elementwise_desc *d, char *msg, size_t msg_size);
/* gpuscan_trace's rows (n x (nsteps + 1), row 0 = x) from the GPU's trace kernel (waits) */
engine_status cuda_engine_trace (trace_algorithm a, int padded, const double *x, int n,
                                 double *rows, int nsteps, char *msg, size_t msg_size);
engine_status cuda_engine_flags (scan_type t, const void *x, uint8_t *flags, int64_t n,
                                 int *nan_seen, char *msg, size_t msg_size);
/* stream compaction in two steps: count (the kept total), then scatter into y */
/* "groups" of device arrays (scan_kernels.h: gsk_group_order, gsk_permute), queued */
engine_status cuda_engine_group_order (const double *keys, int64_t n, int64_t *order,
                                       uint8_t *heads, char *msg, size_t msg_size);
engine_status cuda_engine_permute (size_t elem_bytes, const void *x, void *y, int64_t inner,
                                   int64_t len, int64_t outer, const int64_t *order,
                                   int scatter, int index_map, char *msg, size_t msg_size);
/* "groups" of few labels (scan_kernels.h: gsk_label_range_of, gsk_label_scan): the
   labels' range (waits), and label tiles, queued */
engine_status cuda_engine_label_range (const double *keys, int64_t n, int64_t *lo,
                                       int64_t *hi, int *whole, char *msg, size_t msg_size);
int cuda_engine_label_scan_supports (const scan_desc *d, long long span);
void cuda_engine_label_scan_describe (const scan_desc *d, long long span, char *buf,
                                      size_t size);
engine_status cuda_engine_label_scan (const scan_desc *d, const double *keys, int64_t lo,
                                      int64_t span, char *msg, size_t msg_size);
engine_status cuda_engine_compact_count (const uint8_t *mask, int64_t n, int64_t *kept,
                                         char *msg, size_t msg_size);
engine_status cuda_engine_compact_scatter (size_t elem_bytes, const void *x,
                                           const uint8_t *mask, int64_t n, void *y,
                                           char *msg, size_t msg_size);
/* gpuscan_filter of device arrays (scan_kernels.h: gsk_filter), queued; b and a in host
   memory; ENGINE_UNSUPPORTED where the kernels do not run d (complex data, orders above
   8) */
engine_status cuda_engine_filter (const filter_desc *d, char *msg, size_t msg_size);
int cuda_engine_filter_supports (const filter_desc *d);

#ifdef __cplusplus
}
#endif
#endif

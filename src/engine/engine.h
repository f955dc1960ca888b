/* Host engine dispatch: picks the engine (CPU or CUDA) and the algorithm for a scan.
   The gateway calls only this; it never sees CUDA. */
#ifndef GPUSCAN_ENGINE_H
#define GPUSCAN_ENGINE_H

#include "base/elementwise.h"
#include "base/filter_desc.h"
#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "base/scan_trace.h"
#include "engine/algorithms.h"
#include "engine/auto_choice.h"
#include "engine/device_arrays.h"
#include "engine/warnings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the scan; on failure write a message (without the "gpuscan: " prefix) to msg.
   GPUSCAN_ALGORITHM=name in the environment replaces "auto" with that algorithm (the test
   matrix runs every call under each); an unknown name is an error. */
engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size);
/* The scan's plan in words (engine/scan_plan.h), as engine_scan would run it now, into
   text; nothing runs.  (The timing of "auto" is not advanced.) */
engine_status engine_plan (const scan_desc *d, scan_algorithm a, char *text, size_t text_size,
                           char *msg, size_t msg_size);

/* "groups" (engine/group_scan.h): the scan of d within groups of labels, in the
   original order.  order[k]: the 0-based position along the dimension of the k-th
   element in the labels' stable order; heads[k] = 1 where a group starts in that order. */
engine_status engine_group_scan (const scan_desc *d, const int64_t *order, const uint8_t *heads,
                                 scan_algorithm a, char *msg, size_t msg_size);

/* "groups" of host arrays by their n = d->len labels (type t): where the labels are
   whole numbers spanning at most n + 1 values (group_order.h's rule, base/group_labels.h),
   the CPU engine takes d in a label scan (cpu_array_ops.h) and the call's plan leaves
   the engine to "auto" or names the CPU, one pass with a running state a label, in
   order; else ENGINE_UNSUPPORTED with why in msg, nothing written (the caller orders the
   labels for engine_group_scan).  GPUSCAN_PLAN prints which. */
engine_status engine_group_label_scan (const scan_desc *d, scan_type t, const void *labels,
                                       scan_algorithm a, char *msg, size_t msg_size);

/* Octave's filter (gpuscan_filter): the CPU engine; ENGINE_NO_MEMORY, and why in msg,
   without the memory for its blocks. */
engine_status engine_filter (const filter_desc *d, char *msg, size_t msg_size);

/* What gpuscan_info reports. */
typedef struct engine_info {
  int has_cuda;             /* built with the CUDA engine */
  const char *cuda_archs;   /* the sm_ architectures compiled in ("" without CUDA) */
  int gpu_count;            /* usable GPUs (0 without CUDA, driver or device) */
  char gpu_name[256];
  int cc_major, cc_minor;
  double gpu_mem_bytes;
  int driver_version, runtime_version;   /* as cudaDriverGetVersion: 1000*major + 10*minor */
  char gpu_status[256];     /* why no GPU is usable, or "ok" */
  int cpu_threads;
  /* elements from which "auto" picks the GPU (0: never, -1: not measured yet), for each
     shape_class */
  double crossover[SHAPE_CLASSES];
  double gpu_held_bytes;    /* device and pinned memory the engine holds between calls */
  char gpu_tuning[256];     /* the kernels' tuning table and the limits they take */
  const char *array_backend;   /* where device arrays live: "cuda", "host" (the stand-in
                                  for tests) or "" (none: why in gpu_status) */
  double array_count, array_bytes;   /* device arrays alive, and their memory */
  int fault_injection;      /* a test build whose CUDA calls fail on demand (GPUSCAN_FAULT) */
} engine_info;
void engine_get_info (engine_info *info);

/* Free everything the engines hold, device arrays included, and start again as at load
   ("auto" measures anew, the GPU is found again): __gpuscan__ ("release"), which pkg
   unload runs, and at exit. */
void engine_release (void);

/* flags[i] = x[i] != 0 (head flags, logical (X)) of a host array; 1 where x holds a NaN
   (no logical value), else 0 */
int engine_flags (scan_type t, const void *x, uint8_t *flags, int64_t n);
/* y = x of a host array in class SCAN_DOUBLE from a real class (or SCAN_CDOUBLE from
   SCAN_CSINGLE); -1 for other pairs */
int engine_convert (scan_type from, scan_type to, const void *x, void *y, int64_t n);

/* Asks the kernel for transparent huge pages in a large output's untouched memory
   (where it offers them on request): its first writes then fault once per 2 MiB, not
   once per 4 KiB */
void engine_huge_pages (void *p, size_t bytes);
/* the gateways' error identifier of a status ("gpuscan:no_gpu", ...; "" for ENGINE_OK) */
const char *engine_status_id (engine_status s);

/* The number of nonzero bytes of mask, and y = x(mask) of a host array (the elements,
   elem_bytes each, where mask is nonzero, in order). */
int64_t engine_count_nonzero (const uint8_t *mask, int64_t n);
void engine_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y);

/* A classic block scan traced step by step (gpuscan_trace): the CPU engine runs the
   kernels' step code a thread at a time and counts (cpu/cpu_trace.h has the arguments);
   the rows then come from the GPU's trace kernel where `on` is TRACE_ON_GPU, or
   TRACE_ON_ANY and a GPU is usable.  *used: the engine that gave the rows.  Returns the
   steps, or -1 with why in msg (TRACE_ON_GPU without a usable GPU, a GPU error). */
typedef enum trace_engine { TRACE_ON_ANY, TRACE_ON_CPU, TRACE_ON_GPU } trace_engine;
int engine_trace_steps (trace_algorithm a, int n);
int engine_trace (trace_algorithm a, int padded, const double *x, int n, double *rows,
                  trace_step *steps, int *from, int *to, int *step_of, int *arrows,
                  trace_engine on, trace_engine *used, char *msg, size_t msg_size);

#ifdef __cplusplus
}
#endif
#endif

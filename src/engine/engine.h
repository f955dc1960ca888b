/* Host engine dispatch: picks the engine (CPU or CUDA) and the algorithm for a scan.
   The gateway calls only this; it never sees CUDA. */
#ifndef GPUSCAN_ENGINE_H
#define GPUSCAN_ENGINE_H

#include "base/elementwise.h"
#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "base/scan_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the option value's name for each algorithm */
const char *engine_algorithm_name (scan_algorithm a);
/* -1 for an unknown name (case-insensitive) */
int engine_algorithm_from_name (const char *name);

/* Run the scan; on failure write a message (without the "gpuscan: " prefix) to msg.
   GPUSCAN_ALGORITHM=name in the environment replaces "auto" with that algorithm (the test
   matrix runs every call under each); an unknown name is an error. */
engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size);
/* *a after GPUSCAN_ALGORITHM */
engine_status engine_algorithm_forced (scan_algorithm *a, char *msg, size_t msg_size);

/* the shapes "auto" measures apart: one vector, columns of a matrix (dim 1), lanes of
   any other dimension */
typedef enum shape_class { SHAPE_VECTOR, SHAPE_COLUMNS, SHAPE_STRIDED, SHAPE_CLASSES } shape_class;

/* Warnings (e.g. a one-time GPU fallback) go to this handler; the gateway sets it to
   Octave's warning (). */
typedef void (*engine_warning_handler) (const char *id, const char *msg);
void engine_set_warning_handler (engine_warning_handler h);
void engine_warn (const char *id, const char *msg);

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
/* Arrays carry a kind that the caller gives them (the gateway: the element type; -1 until
   set; a copy takes its source's).  engine_array_lookup returns the memory of a live
   array of exactly that kind and size, else NULL: ids that come from outside are checked
   so, never trusted. */
void engine_array_set_kind (engine_array id, int kind);
void *engine_array_lookup (engine_array id, int kind, size_t bytes);
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
/* "groups" of device arrays: the stable order of n labels (doubles, array memory):
   order[k] the 0-based position of the k-th label in sorted order (-0 is 0, NaN last),
   heads[k] = 1 where sorted label k starts a group (each NaN one of its own) */
engine_status engine_array_group_order (const double *keys, int64_t n, int64_t *order,
                                        uint8_t *heads, char *msg, size_t msg_size);
/* y(i, k, o) = x(i, order[k], o), or with scatter y(i, order[k], o) = x(i, k, o), of
   elements of elem_bytes; index_map (an index output's doubles): a position p > 0
   becomes order[p - 1] + 1 */
engine_status engine_array_permute (size_t elem_bytes, const void *x, void *y, int64_t inner,
                                    int64_t len, int64_t outer, const int64_t *order,
                                    int scatter, int index_map, char *msg, size_t msg_size);
/* y = x(mask) into a new array *out of *kept elements */
engine_status engine_array_compact (size_t elem_bytes, const void *x, const uint8_t *mask,
                                    int64_t n, engine_array *out, int64_t *kept, char *msg,
                                    size_t msg_size);

#ifdef __cplusplus
}
#endif
#endif

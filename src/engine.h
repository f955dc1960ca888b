/* Host engine dispatch: picks the engine (CPU or CUDA) and the algorithm for a scan.
   The gateway calls only this; it never sees CUDA. */
#ifndef GPUSCAN_ENGINE_H
#define GPUSCAN_ENGINE_H

#include "scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum scan_algorithm {
  ALG_AUTO, ALG_CPU, ALG_KOGGE_STONE, ALG_BRENT_KUNG, ALG_DECOUPLED, ALG_CUB,
  ALG_COUNT
} scan_algorithm;

/* the option value's name for each algorithm */
const char *engine_algorithm_name (scan_algorithm a);
/* -1 for an unknown name (case-insensitive) */
int engine_algorithm_from_name (const char *name);

typedef enum engine_status {
  ENGINE_OK = 0,
  ENGINE_UNSUPPORTED,   /* this (type, operator) has no scan in the engine asked for */
  ENGINE_NO_GPU,        /* a GPU algorithm was asked for and no usable GPU is there */
  ENGINE_GPU_ERROR,     /* the GPU failed; message in the buffer */
  ENGINE_NO_MEMORY
} engine_status;

/* Run the scan; on failure write a message (without the "gpuscan: " prefix) to msg. */
engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size);

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
  double crossover;         /* elements from which "auto" picks the GPU (0: never) */
  double gpu_held_bytes;    /* device and pinned memory the engine holds between calls */
} engine_info;
void engine_get_info (engine_info *info);

#ifdef __cplusplus
}
#endif
#endif

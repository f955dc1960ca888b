/* A scan's plan: every decision a call makes, from the engine and why down to the GPU's
   chunks and the kernels' passes, made once at the call's start from the scan
   description, the settings (read then) and the machine.  The engine layer runs it and
   nothing else; GPUSCAN_PLAN prints it (scan_plan_text), and __gpuscan__ ("plan", ...)
   returns it without running, for tests. */
#ifndef GPUSCAN_SCAN_PLAN_H
#define GPUSCAN_SCAN_PLAN_H

#include <stddef.h>

#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "cuda/cuda_engine.h"
#include "engine/auto_choice.h"
#include "engine/settings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum plan_engine {
  PLAN_NOTHING,         /* no element: no engine is asked */
  PLAN_CPU,             /* the CPU engine, on host memory */
  PLAN_GPU,             /* the CUDA engine: host arrays through the chunk pipeline */
  PLAN_GPU_RESIDENT,    /* the CUDA engine on device arrays, in one piece */
  PLAN_CPU_VIA_HOST     /* device arrays copied to host memory, the CPU engine, and back */
} plan_engine;

/* what a GPU scan that fails does */
typedef enum plan_fallback {
  FALLBACK_NONE,        /* reports the failure */
  FALLBACK_ANY,         /* "auto": any failure hands the call to the CPU engine (a warning) */
  FALLBACK_NO_MEMORY    /* one piece on a GPU algorithm: the CPU engine where the GPU's
                           memory does not hold it after all */
} plan_fallback;

typedef struct scan_plan {
  engine_settings settings;   /* as read at the call's start */
  scan_algorithm algorithm;   /* the call's, after GPUSCAN_ALGORITHM */
  plan_engine engine;
  const char *why;            /* the rule that chose the engine */
  int timed;                  /* "auto" records the call's time for its later choices */
  auto_run auto_run;          /* (timed: the engine as "auto" chose it) */
  plan_fallback falls_back;   /* when a GPU failure hands the call to the CPU engine */
  int widen;                  /* X is converted to the output's class first, on every core
                                 (the chunk driver converts it a chunk at a time) */
  int64_t cpu_chunk;          /* the CPU engine through the chunk driver in chunks of this
                                 many elements (GPUSCAN_CHUNK_ELEMENTS, tests), or 0 */
  int cpu_threads;            /* the CPU engine's threads (1 on a busy machine) */
  cuda_plan gpu;              /* PLAN_GPU, PLAN_GPU_RESIDENT */
} scan_plan;

/* The plan of d with algorithm a, for host arrays or (device_arrays) device arrays on
   their backend (host_stand_in: GPUSCAN_HOST_ARRAYS's host memory); ENGINE_BAD_SETTING,
   with why in msg, for settings that name nothing known. */
engine_status scan_plan_make (const scan_desc *d, scan_algorithm a, const engine_settings *s,
                              int device_arrays, int host_stand_in, scan_plan *p, char *msg,
                              size_t msg_size);
/* p after its GPU scan failed, where p->falls_back allows: the CPU engine, as planned
   for d (the host arrays' chunk test path included) */
void scan_plan_fall_back (const scan_desc *d, scan_plan *p);
/* the plan in words, one line (GPUSCAN_PLAN prints it to stderr) */
void scan_plan_text (const scan_desc *d, const scan_plan *p, char *buf, size_t size);
/* ... printed to stderr where the settings ask for it (GPUSCAN_PLAN) */
void scan_plan_show (const scan_desc *d, const scan_plan *p);

#ifdef __cplusplus
}
#endif
#endif

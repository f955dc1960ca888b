/* gpuscan's environment variables, read here and nowhere else: the engine layer reads
   them once at the start of each call into an engine_settings, which it passes down (the
   engines read none themselves). */
#ifndef GPUSCAN_SETTINGS_H
#define GPUSCAN_SETTINGS_H

#include <stdint.h>

typedef struct engine_settings {
  /* GPUSCAN_CHUNK_ELEMENTS (tests: the chunk size of host scans), raised to
     CHUNK_ELEMENTS_MIN; 0 where unset, or where it is no positive integer (with a
     warning) */
  int64_t chunk_elements;
  /* GPUSCAN_CROSSOVER: the size from which "auto" takes the GPU, without measuring (0:
     not set; -1: never) */
  int64_t crossover;
  /* GPUSCAN_CPU_PARALLEL_MIN (tests): the size from which the CPU engine takes several
     threads; 0 where unset or no positive integer (the engine's own rule) */
  int64_t cpu_parallel_min;
  /* GPUSCAN_PLAN (set, and not "0"): each scan prints its plan (scan_plan.h) to stderr */
  int show_plan;
  /* GPUSCAN_HOST_ARRAYS=1: device arrays in host memory, with the CPU engine (tests) */
  int host_arrays;
  /* GPUSCAN_ENGINE: "cpu" or "gpu" forces the engine of "auto" (case-insensitive; ""
     where unset or anything else) */
  const char *engine;
  /* GPUSCAN_ALGORITHM: the algorithm that replaces "auto" in every call ("" where unset) */
  const char *algorithm;
  /* GPUSCAN_TUNING (the kernels' tuning table to take instead of the GPU's own: "sm_90",
     "sm_80", "sm_86", "sm_75", "default") and GPUSCAN_DEVICE_LIMITS (the GPU's limits
     clamped to a smaller one's: "a100", "rtx4090", "t4"), for tests; "" where unset.
     The CUDA engine checks the names. */
  const char *tuning, *device_limits;
  /* GPUSCAN_FAULT: the CUDA calls a test build makes fail (cuda/fault_injection.h) */
  const char *fault;
} engine_settings;

/* the settings as the environment has them now (the strings are the environment's, or
   "": valid until it changes) */
void settings_read (engine_settings *s);

#endif

/* gpuscan's environment variables, read at each call here and nowhere else: the engine
   layer hands them down to the engines, which read none themselves (but the CUDA
   engine's fault injection of test builds, cuda/fault_injection.h). */
#ifndef GPUSCAN_SETTINGS_H
#define GPUSCAN_SETTINGS_H

#include <stdint.h>

/* GPUSCAN_CHUNK_ELEMENTS (tests: the chunk size of host scans), raised to
   CHUNK_ELEMENTS_MIN; 0 where unset, or where it is no positive integer (with a warning) */
int64_t settings_chunk_elements (void);
/* GPUSCAN_CROSSOVER: the size from which "auto" takes the GPU, without measuring (0: not
   set; -1: never) */
int64_t settings_crossover (void);
/* GPUSCAN_PLAN (set, and not "0"): each GPU scan prints what it launches to stderr */
int settings_show_plan (void);
/* GPUSCAN_TUNING (the kernels' tuning table to take instead of the GPU's own: "sm_90",
   "sm_80", "sm_86", "sm_75", "default") and GPUSCAN_DEVICE_LIMITS (the GPU's limits
   clamped to a smaller one's: "a100", "rtx4090", "t4"), for tests; "" where unset.  The
   CUDA engine checks the names. */
const char *settings_tuning (void);
const char *settings_device_limits (void);
/* GPUSCAN_ENGINE: "cpu" or "gpu" forces the engine of "auto" (case-insensitive; "" where
   unset or anything else) */
const char *settings_engine (void);
/* GPUSCAN_ALGORITHM: the algorithm that replaces "auto" in every call ("" where unset) */
const char *settings_algorithm (void);
/* GPUSCAN_HOST_ARRAYS=1: device arrays in host memory, with the CPU engine (tests) */
int settings_host_arrays (void);
/* GPUSCAN_CPU_PARALLEL_MIN (tests): the size from which the CPU engine takes several
   threads; 0 where unset or no positive integer (the engine's own rule) */
int64_t settings_cpu_parallel_min (void);

#endif

/* The engine layer: "auto" and dispatch to the CPU and CUDA engines (engine.h), with the
   settings from the environment (settings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/chunked_scan.h"
#include "base/work_pool.h"
#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_engine.h"
#include "cpu/cpu_filter.h"
#include "cpu/cpu_trace.h"
#include "engine/auto_choice.h"
#include "engine/device_arrays.h"
#include "engine/engine.h"
#include "engine/settings.h"
#ifdef GPUSCAN_WITH_CUDA
#include "cuda/cuda_engine.h"
#endif

#ifdef GPUSCAN_WITH_CUDA
static double seconds (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
#endif

void engine_get_info (engine_info *info)
{
  memset (info, 0, sizeof *info);
  info->cpu_threads = cpu_threads ();
  for (int c = 0; c < SHAPE_CLASSES; c++)
    info->crossover[c] = -1;   /* nothing measured (no GPU: never) */
#ifdef GPUSCAN_WITH_CUDA
  info->has_cuda = 1;
  info->cuda_archs = GPUSCAN_CUDA_ARCHS;
  cuda_info gpu;
  cuda_engine_info (&gpu);
  snprintf (info->gpu_status, sizeof info->gpu_status, "%s", gpu.status);
  info->driver_version = gpu.driver_version;
  info->runtime_version = gpu.runtime_version;
  if (gpu.usable)
    {
      info->gpu_count = 1;
      snprintf (info->gpu_name, sizeof info->gpu_name, "%s", gpu.name);
      info->cc_major = gpu.cc_major;
      info->cc_minor = gpu.cc_minor;
      info->gpu_mem_bytes = gpu.mem_bytes;
      info->gpu_held_bytes = gpu.held_bytes;
      snprintf (info->gpu_tuning, sizeof info->gpu_tuning, "%s", gpu.tuning);
      const int64_t crossover = settings_crossover ();
      for (int c = 0; c < SHAPE_CLASSES; c++)
        info->crossover[c] = crossover > 0 ? (double) crossover : crossover < 0 ? 0
                             : auto_crossover ((shape_class) c);
    }
#else
  info->cuda_archs = "";
  snprintf (info->gpu_status, sizeof info->gpu_status, "built without CUDA");
#endif
  device_arrays_info (&info->array_backend, &info->array_count, &info->array_bytes);
#ifdef GPUSCAN_FAULT_INJECTION
  info->fault_injection = 1;
#endif
}

void engine_release (void)
{
  auto_forget ();
  device_arrays_release ();
#ifdef GPUSCAN_WITH_CUDA
  cuda_engine_release ();
#endif
  work_pool_release ();
}

/* unloading the oct-file (at exit: it stays loaded once called) gives everything back */
__attribute__ ((destructor)) static void unload (void)
{
  engine_release ();
}

int64_t engine_count_nonzero (const uint8_t *mask, int64_t n)
{
  return cpu_count_nonzero (mask, n);
}

int engine_trace_steps (trace_algorithm a, int n)
{
  return cpu_trace_steps (a, n);
}

int engine_trace (trace_algorithm a, int padded, const double *x, int n, double *rows,
                  trace_step *steps, int *from, int *to, int *step_of, int *arrows,
                  trace_engine on, trace_engine *used, char *msg, size_t msg_size)
{
  *used = TRACE_ON_CPU;
  const int nsteps = cpu_trace (a, padded, x, n, rows, steps, from, to, step_of, arrows);
  if (nsteps < 0 || on == TRACE_ON_CPU)
    return nsteps;
#ifdef GPUSCAN_WITH_CUDA
  if (on == TRACE_ON_GPU || cuda_engine_ready ())
    {
      if (cuda_engine_trace (a, padded, x, n, rows, nsteps, msg, msg_size) != ENGINE_OK)
        return -1;
      *used = TRACE_ON_GPU;
      return nsteps;
    }
#endif
  if (on == TRACE_ON_GPU)
    {
      snprintf (msg, msg_size, "this build of gpuscan has no GPU engine");
      return -1;
    }
  return nsteps;
}

void engine_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y)
{
  cpu_compact (elem_bytes, x, mask, n, y);
}

/* d with its input converted to d's type (scan_desc.h's scan_input) into *hold, which the
   caller frees: for the engines and paths that read elements of d's type only */
static engine_status widen_input (const scan_desc *d, scan_desc *w, void **hold, char *msg,
                                  size_t msg_size)
{
  *w = *d;
  *hold = NULL;
  if (d->input == SCAN_INPUT_AS_OUTPUT)
    return ENGINE_OK;
  const int64_t n = scan_numel (d);
  *hold = malloc ((size_t) n * scan_type_size (d->type));
  if (! *hold || cpu_convert (scan_input_type (d), d->type, d->x, *hold, n) != 0)
    {
      free (*hold);
      *hold = NULL;
      snprintf (msg, msg_size, "no memory to convert X from %s to %s (%lld elements)",
                scan_type_name (scan_input_type (d)), scan_type_name (d->type), (long long) n);
      return ENGINE_NO_MEMORY;
    }
  w->x = *hold;
  w->input = SCAN_INPUT_AS_OUTPUT;
  return ENGINE_OK;
}

engine_status engine_filter (const filter_desc *d, char *msg, size_t msg_size)
{
  const int64_t n = d->inner * d->len * d->outer;
  if (cpu_filter (d, cpu_threads_for (n, settings_cpu_parallel_min ())) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no memory for the filter of %lld %s elements", (long long) n,
            scan_type_name (d->type));
  return ENGINE_NO_MEMORY;
}

static engine_status run_cpu (const scan_desc *d, int64_t chunk, char *msg, size_t msg_size)
{
  /* (as the GPU engine, whose chunk logic this tests: chunks where an element carries
     the state, else one chunk) */
  const int chunked = chunk && scan_numel (d) > chunk;
  scan_desc w = *d;
  void *hold = NULL;
  if (chunked || ! cpu_reads_input (d))
    {
      const engine_status s = widen_input (d, &w, &hold, msg, msg_size);
      if (s != ENGINE_OK)
        return s;
    }
  const int64_t parallel_min = settings_cpu_parallel_min ();
  const int err = chunked ? cpu_scan_in_chunks (&w, chunk_elements_for (&w, chunk), parallel_min)
                          : cpu_scan (&w, parallel_min);
  free (hold);
  if (err == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no CPU scan for %s %s", scan_op_name (d->op),
            scan_type_name (d->type));
  return ENGINE_UNSUPPORTED;
}

#ifdef GPUSCAN_WITH_CUDA
/* the CUDA engine reads elements of d's type only */
static engine_status run_gpu (const scan_desc *d, scan_algorithm a, const cuda_settings *gpu,
                              char *msg, size_t msg_size)
{
  scan_desc w;
  void *hold;
  engine_status s = widen_input (d, &w, &hold, msg, msg_size);
  if (s == ENGINE_OK)
    s = cuda_engine_scan (&w, a, gpu, msg, msg_size);
  free (hold);
  return s;
}

/* a GPU that failed under "auto" hands the call to the CPU engine, with one warning */
static engine_status fall_back (const scan_desc *d, int64_t chunk, char *msg, size_t msg_size)
{
  static int warned;
  if (! warned)
    {
      char why[600];
      snprintf (why, sizeof why, "%.560s; using the CPU engine", msg);
      engine_warn ("gpuscan:gpu_fallback", why);
      warned = 1;
    }
  return run_cpu (d, chunk, msg, msg_size);
}

/* "auto" on host arrays: the CPU engine, or the GPU where it is faster (auto_choice.h);
   GPUSCAN_ENGINE ("cpu" or "gpu") and GPUSCAN_CROSSOVER take the choice away */
static engine_status run_auto (const scan_desc *d, int64_t chunk, char *msg, size_t msg_size)
{
  const char *force = settings_engine ();
  if (strcmp (force, "cpu") == 0)
    return run_cpu (d, chunk, msg, msg_size);
  const int64_t n = scan_numel (d), crossover = settings_crossover ();
  const int gpu_forced = strcmp (force, "gpu") == 0;
  if (! cuda_engine_ready () || ! cuda_engine_covers (d)
      || (! gpu_forced && (n < AUTO_MIN_ELEMENTS || crossover < 0
                           || (crossover > 0 && n < crossover))))
    return run_cpu (d, chunk, msg, msg_size);
  /* a reproducible scan takes the same engine for the same call every time: by size */
  const int timed = ! gpu_forced && ! crossover && ! d->reproducible;
  const cuda_settings gpu = { chunk, settings_show_plan (), settings_tuning (),
                              settings_device_limits () };
  const auto_run run = timed ? auto_choose (d, cpu_scan_alone (d, settings_cpu_parallel_min ())) : AUTO_GPU;
  const double t0 = seconds ();
  engine_status s;
  if (run != AUTO_GPU)
    s = run_cpu (d, chunk, msg, msg_size);
  else if ((s = run_gpu (d, ALG_AUTO, &gpu, msg, msg_size)) == ENGINE_BAD_SETTING)
    return s;
  else if (s != ENGINE_OK)
    return fall_back (d, chunk, msg, msg_size);
  if (timed && s == ENGINE_OK)
    auto_record (d, run, seconds () - t0);
  return s;
}
#endif

engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size)
{
  const engine_status forced = engine_algorithm_forced (&a, msg, msg_size);
  if (forced != ENGINE_OK)
    return forced;
  /* nothing to scan: no engine is asked (the GPU path would size buffers from 0) */
  if (scan_numel (d) == 0)
    return ENGINE_OK;
  const int64_t chunk = settings_chunk_elements ();
  if (a == ALG_CPU)
    return run_cpu (d, chunk, msg, msg_size);
#ifdef GPUSCAN_WITH_CUDA
  if (a == ALG_AUTO)
    return run_auto (d, chunk, msg, msg_size);
  if (! cuda_engine_ready ())
    {
      snprintf (msg, msg_size, "algorithm '%s' needs a GPU: %s", engine_algorithm_name (a),
                cuda_engine_status ());
      return ENGINE_NO_GPU;
    }
  /* what the kernels do not cover (complex max/min, logical min, ...) runs on the CPU */
  if (! cuda_engine_covers (d))
    return run_cpu (d, chunk, msg, msg_size);
  const cuda_settings gpu = { chunk, settings_show_plan (), settings_tuning (),
                              settings_device_limits () };
  const engine_status s = run_gpu (d, a, &gpu, msg, msg_size);
  /* (a scan of one piece that the GPU's free memory does not hold now, as one it does not
     cover) */
  return s == ENGINE_NO_MEMORY && ! chunk_carry_fits (d) ? run_cpu (d, chunk, msg, msg_size) : s;
#else
  if (a == ALG_AUTO)
    return run_cpu (d, chunk, msg, msg_size);
  snprintf (msg, msg_size, "algorithm '%s' needs the CUDA engine, and this build of "
            "gpuscan has none (configured without CUDA)", engine_algorithm_name (a));
  return ENGINE_NO_GPU;
#endif
}

/* The engine layer: "auto" and dispatch to the CPU and CUDA engines (engine.h), with the
   settings from the environment (settings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "base/chunked_scan.h"
#include "base/group_labels.h"
#include "base/work_pool.h"
#include "cpu/cpu_array_ops.h"
#include "cpu/cpu_engine.h"
#include "cpu/cpu_filter.h"
#include "cpu/cpu_trace.h"
#include "engine/array_backend.h"
#include "engine/auto_choice.h"
#include "engine/device_arrays.h"
#include "engine/engine.h"
#include "engine/group_scan.h"
#include "engine/scan_plan.h"
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
      engine_settings s;
      settings_read (&s);
      const int64_t crossover = s.crossover;
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

int engine_flags (scan_type t, const void *x, uint8_t *flags, int64_t n)
{
  return cpu_nonzero_flags (t, x, flags, n) == 1;
}

int engine_convert (scan_type from, scan_type to, const void *x, void *y, int64_t n)
{
  return cpu_convert (from, to, x, y, n);
}

void engine_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y)
{
  cpu_compact (elem_bytes, x, mask, n, y);
}

/* d with its input converted to d's type (scan_desc.h's scan_input) into *hold, which the
   caller frees, where the plan says so */
static engine_status widen_input (const scan_desc *d, const scan_plan *p, scan_desc *w,
                                  void **hold, char *msg, size_t msg_size)
{
  *w = *d;
  *hold = NULL;
  if (! p->widen)
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

/* "groups" of host arrays (group_scan.h), in host memory */
static engine_status host_alloc (size_t bytes, void **p, char *msg, size_t msg_size)
{
  if ((*p = malloc (bytes)))
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for the groups' sorted copy (%.2f GiB)",
            bytes / 1073741824.0);
  return ENGINE_NO_MEMORY;
}

engine_status engine_group_scan (const scan_desc *d, const int64_t *order, const uint8_t *heads,
                                 scan_algorithm a, char *msg, size_t msg_size)
{
  /* the host backend's permutes, with a message of its own for the sorted copies */
  array_backend memory = host_array_backend;
  memory.alloc = host_alloc;
  return group_scan (&memory, engine_scan, d, order, heads, a, msg, msg_size);
}

void engine_huge_pages (void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = 2u << 20;
  if (bytes < 4 * huge)
    return;
  const uintptr_t a = ((uintptr_t) p + huge - 1) & ~(huge - 1);
  const uintptr_t b = ((uintptr_t) p + bytes) & ~(huge - 1);
  if (b > a)
    madvise ((void *) a, b - a, MADV_HUGEPAGE);
#else
  (void) p;
  (void) bytes;
#endif
}

const char *engine_status_id (engine_status s)
{
  switch (s)
    {
    case ENGINE_OK: return "";
    case ENGINE_NO_GPU: return "gpuscan:no_gpu";
    case ENGINE_UNSUPPORTED: return "gpuscan:unsupported";
    case ENGINE_NO_MEMORY: return "gpuscan:out_of_memory";
    case ENGINE_BAD_SETTING: return "gpuscan:environment";
    default: return "gpuscan:gpu_error";
    }
}

/* Where a filter of host arrays runs: the CPU engine, or the device's kernels (through
   the device arrays' backend) where GPUSCAN_ENGINE=gpu, or GPUSCAN_CROSSOVER from its
   size, send it there; "auto" alone keeps the CPU engine (no crossover measured yet).
   What the device does not run, or has no memory for, runs on the CPU engine. */
engine_status engine_filter (const filter_desc *d, char *msg, size_t msg_size)
{
  engine_settings s;
  settings_read (&s);
  const int64_t n = d->inner * d->len * d->outer;
  const int threads = cpu_threads_for (n, s.cpu_parallel_min);
  const char *why = strcmp (s.engine, "cpu") == 0 ? "GPUSCAN_ENGINE=cpu"
                    : strcmp (s.engine, "gpu") == 0 ? NULL
                    : s.crossover > 0 && n >= s.crossover ? NULL
                    : "auto: the CPU engine (the device's crossover is not measured)";
  engine_status on_device = ENGINE_UNSUPPORTED;
  if (! why)
    {
      /* (where the device does not run it, msg says why: the CPU engine's reason) */
      on_device = engine_filter_on_device (d, msg, msg_size);
      why = on_device == ENGINE_UNSUPPORTED || on_device == ENGINE_NO_MEMORY ? msg : NULL;
    }
  if (s.show_plan)
    {
      char where[64] = "the device's kernels";
      if (why)
        snprintf (where, sizeof where, "the CPU engine, %d threads", threads);
      fprintf (stderr, "filter: order %d %s, %lld x %lld x %lld: %s (%s)\n", d->order,
               scan_type_name (d->type), (long long) d->inner, (long long) d->len,
               (long long) d->outer, where,
               why ? why : *s.engine ? "GPUSCAN_ENGINE=gpu" : "auto: from GPUSCAN_CROSSOVER elements");
    }
  if (! why)
    return on_device;
  if (cpu_filter (d, threads) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no memory for the filter of %lld %s elements", (long long) n,
            scan_type_name (d->type));
  return ENGINE_NO_MEMORY;
}

static engine_status run_cpu (const scan_desc *d, const scan_plan *p, char *msg,
                              size_t msg_size)
{
  scan_desc w;
  void *hold;
  const engine_status s = widen_input (d, p, &w, &hold, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
  const int err = p->cpu_chunk ? cpu_scan_in_chunks (&w, p->cpu_chunk, p->cpu_threads)
                               : cpu_scan (&w, p->cpu_threads);
  free (hold);
  if (err == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no CPU scan for %s %s", scan_op_name (d->op),
            scan_type_name (d->type));
  return ENGINE_UNSUPPORTED;
}

#ifdef GPUSCAN_WITH_CUDA
/* a GPU that failed hands the call to the CPU engine where the plan says so ("auto":
   with one warning) */
static engine_status fall_back (const scan_desc *d, const scan_plan *gpu_plan, char *msg,
                                size_t msg_size)
{
  static int warned;
  if (gpu_plan->falls_back == FALLBACK_ANY && ! warned)
    {
      char why[600];
      snprintf (why, sizeof why, "%.560s; using the CPU engine", msg);
      engine_warn ("gpuscan:gpu_fallback", why);
      warned = 1;
    }
  scan_plan p = *gpu_plan;
  scan_plan_fall_back (d, &p);
  return run_cpu (d, &p, msg, msg_size);
}
#endif

/* the plan of a host scan with the settings as they are now */
static engine_status plan_now (const scan_desc *d, scan_algorithm a, scan_plan *p, char *msg,
                               size_t msg_size)
{
  engine_settings s;
  settings_read (&s);
#ifdef GPUSCAN_WITH_CUDA
  cuda_engine_use_faults (s.fault);
#endif
  return scan_plan_make (d, a, &s, 0, 0, p, msg, msg_size);
}

engine_status engine_plan (const scan_desc *d, scan_algorithm a, char *text, size_t text_size,
                           char *msg, size_t msg_size)
{
  scan_plan p;
  const engine_status s = plan_now (d, a, &p, msg, msg_size);
  if (s == ENGINE_OK)
    scan_plan_text (d, &p, text, text_size);
  return s;
}

engine_status engine_group_label_scan (const scan_desc *d, scan_type t, const void *labels,
                                       scan_algorithm a, char *msg, size_t msg_size)
{
  if (scan_numel (d) == 0)
    return ENGINE_UNSUPPORTED;
  scan_plan p;
  engine_status s = plan_now (d, a, &p, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
  int64_t lo, hi;
  const int whole = group_label_range (t, labels, d->len, &lo, &hi);
  const int64_t span = whole ? hi - lo + 1 : 0;
  /* (one pass, where ordering the labels takes three before the scan and two moves: on
     the CPU under "auto" too) */
  const char *why = ! whole || span > d->len + 1 ? "labels that are not whole numbers of a narrow range"
                    : ! cpu_label_scan_supports (d, span) ? "no label scan for this scan"
                    : p.engine != PLAN_CPU && (p.algorithm != ALG_AUTO || *p.settings.engine)
                      ? "the scan is planned for the GPU" : NULL;
  if (p.settings.show_plan)
    fprintf (stderr, "groups: %lld labels: %s (%s)\n", (long long) d->len,
             why ? "ordered" : "the CPU engine's label scan, 1 thread",
             why ? why : "whole numbers of a narrow range");
  if (why)
    {
      snprintf (msg, msg_size, "%s", why);
      return ENGINE_UNSUPPORTED;
    }
  if (cpu_label_scan (d, t, labels, lo, span) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "out of host memory for the labels' states");
  return ENGINE_NO_MEMORY;
}

engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size)
{
  scan_plan p;
  engine_status s = plan_now (d, a, &p, msg, msg_size);
  if (s != ENGINE_OK)
    return s;
  scan_plan_show (d, &p);
  if (p.engine == PLAN_NOTHING)
    return ENGINE_OK;
#ifdef GPUSCAN_WITH_CUDA
  const double t0 = p.timed ? seconds () : 0;
  if (p.engine == PLAN_GPU)
    {
      s = cuda_engine_scan (d, &p.gpu, msg, msg_size);
      if ((s != ENGINE_OK && p.falls_back == FALLBACK_ANY)
          || (s == ENGINE_NO_MEMORY && p.falls_back == FALLBACK_NO_MEMORY))
        return fall_back (d, &p, msg, msg_size);
    }
  else
    s = run_cpu (d, &p, msg, msg_size);
  if (s == ENGINE_OK && p.timed)
    auto_record (d, p.auto_run, seconds () - t0);
  return s;
#else
  return run_cpu (d, &p, msg, msg_size);
#endif
}

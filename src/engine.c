/* Host engine dispatch. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cpu_array_ops.h"
#include "cpu_engine.h"
#include "device_arrays.h"
#include "engine.h"
#ifdef GPUSCAN_WITH_CUDA
#include "cuda_engine.h"
#endif

static const char *const algorithm_names[ALG_COUNT] = {
  "auto", "cpu", "kogge-stone", "brent-kung", "decoupled", "cub" };

const char *engine_algorithm_name (scan_algorithm a)
{
  return a < ALG_COUNT ? algorithm_names[a] : "?";
}

int engine_algorithm_from_name (const char *name)
{
  for (int a = 0; a < ALG_COUNT; a++)
    if (strcasecmp (name, algorithm_names[a]) == 0)
      return a;
  return -1;
}

static engine_warning_handler warning_handler;

void engine_set_warning_handler (engine_warning_handler h)
{
  warning_handler = h;
}

void engine_warn (const char *id, const char *msg)
{
  if (warning_handler)
    warning_handler (id, msg);
  else
    fprintf (stderr, "warning: gpuscan: %s\n", msg);
}

void engine_get_info (engine_info *info)
{
  memset (info, 0, sizeof *info);
  info->cpu_threads = cpu_threads ();
#ifdef GPUSCAN_WITH_CUDA
  info->has_cuda = 1;
  info->cuda_archs = GPUSCAN_CUDA_ARCHS;
  cuda_engine_info (info);
#else
  info->cuda_archs = "";
  snprintf (info->gpu_status, sizeof info->gpu_status, "built without CUDA");
#endif
  device_arrays_info (info);
}

void engine_release (void)
{
  device_arrays_release ();
#ifdef GPUSCAN_WITH_CUDA
  cuda_engine_release ();
#endif
}

/* unloading the oct-file (clear functions, clear all, exit) gives everything back */
__attribute__ ((destructor)) static void unload (void)
{
  engine_release ();
}

int64_t engine_count_nonzero (const uint8_t *mask, int64_t n)
{
  return cpu_count_nonzero (mask, n);
}

void engine_compact (size_t elem_bytes, const void *x, const uint8_t *mask, int64_t n, void *y)
{
  cpu_compact (elem_bytes, x, mask, n, y);
}

static engine_status run_cpu (const scan_desc *d, char *msg, size_t msg_size)
{
  if (cpu_scan (d) == 0)
    return ENGINE_OK;
  snprintf (msg, msg_size, "no CPU scan for %s %s", scan_op_name (d->op),
            scan_type_name (d->type));
  return ENGINE_UNSUPPORTED;
}

engine_status engine_scan (const scan_desc *d, scan_algorithm a, char *msg, size_t msg_size)
{
  if (a == ALG_CPU)
    return run_cpu (d, msg, msg_size);
#ifdef GPUSCAN_WITH_CUDA
  return cuda_engine_scan (d, a, msg, msg_size, run_cpu);
#else
  if (a == ALG_AUTO)
    return run_cpu (d, msg, msg_size);
  snprintf (msg, msg_size, "algorithm '%s' needs the CUDA engine, and this build of "
            "gpuscan has none (configured without CUDA)", engine_algorithm_name (a));
  return ENGINE_NO_GPU;
#endif
}

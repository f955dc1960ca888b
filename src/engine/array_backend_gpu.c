/* Device arrays on the GPU, through the CUDA engine (array_backend.h). */
#include <stdio.h>

#include "engine/array_backend.h"
#ifdef GPUSCAN_WITH_CUDA
#include "cuda/cuda_engine.h"

static engine_status scan (const scan_desc *d, const scan_plan *p, char *msg, size_t msg_size)
{
  return cuda_engine_scan_resident (d, &p->gpu, msg, msg_size);
}

/* (what the kernels do not run, ENGINE_UNSUPPORTED: the engine layer's round trip
   through the CPU engine) */
static engine_status filter (const filter_desc *d, int cpu_threads, char *msg, size_t msg_size)
{
  (void) cpu_threads;
  return cuda_engine_filter (d, msg, msg_size);
}

static const array_backend cuda_array_backend = {
  "cuda", cuda_engine_use_faults, cuda_engine_generation, cuda_engine_alloc, cuda_engine_free, cuda_engine_to_device,
  cuda_engine_to_host, cuda_engine_copy, cuda_engine_wait, scan, cuda_engine_convert,
  cuda_engine_elementwise, cuda_engine_flags, cuda_engine_group_order, cuda_engine_label_range,
  cuda_engine_label_scan_supports, cuda_engine_label_scan_describe, cuda_engine_label_scan,
  cuda_engine_permute,
  cuda_engine_compact_count, cuda_engine_compact_scatter, filter, cuda_engine_filter_supports
};

const array_backend *gpu_array_backend (const char *faults, char *why, size_t why_size)
{
  cuda_engine_use_faults (faults);
  if (cuda_engine_ready ())
    return &cuda_array_backend;
  snprintf (why, why_size, "device arrays need a GPU: %.200s", cuda_engine_status ());
  return NULL;
}
#else
const array_backend *gpu_array_backend (const char *faults, char *why, size_t why_size)
{
  (void) faults;
  snprintf (why, why_size, "device arrays need a GPU, and this build of gpuscan has no "
            "CUDA engine (configured without CUDA)");
  return NULL;
}
#endif

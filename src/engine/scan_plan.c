/* A scan's plan (scan_plan.h): the engine layer's rules in one place. */
#include <stdio.h>
#include <string.h>

#include "base/chunked_scan.h"
#include "cpu/cpu_engine.h"
#include "engine/algorithms.h"
#include "engine/scan_plan.h"

static void engine_is (scan_plan *p, plan_engine e, const char *why)
{
  p->engine = e;
  p->why = why;
}

/* the CPU engine on host memory: through the chunk driver where the settings ask for
   chunks (tests, which converts X a chunk at a time), else converting X first where the
   engine does not read its class */
static void on_cpu (const scan_desc *d, scan_plan *p, const char *why)
{
  engine_is (p, PLAN_CPU, why);
  const int64_t chunk = p->settings.chunk_elements;
  p->cpu_chunk = chunk && scan_numel (d) > chunk ? chunk_elements_for (d, chunk) : 0;
  p->widen = d->input != SCAN_INPUT_AS_OUTPUT && ! p->cpu_chunk && ! cpu_reads_input (d);
}

void scan_plan_fall_back (const scan_desc *d, scan_plan *p)
{
  on_cpu (d, p, "the GPU failed");
  p->falls_back = FALLBACK_NONE;
  p->timed = 0;
}

#ifdef GPUSCAN_WITH_CUDA
/* the CUDA engine, as it plans d; one piece that the GPU's memory does not hold now goes
   to the CPU engine (as a scan the kernels do not cover) */
static engine_status on_gpu (const scan_desc *d, scan_plan *p, int resident, const char *why,
                             char *msg, size_t msg_size)
{
  const cuda_settings set = { p->settings.chunk_elements, p->settings.tuning,
                              p->settings.device_limits };
  const engine_status s = cuda_engine_plan (d, p->algorithm, &set, resident, &p->gpu, msg,
                                            msg_size);
  if (s != ENGINE_OK)
    return s;
  if (! p->gpu.fits)
    {
      on_cpu (d, p, "the GPU's free memory holds no piece of this scan, whose state does not "
              "cross chunks");
      p->falls_back = FALLBACK_NONE;
      p->timed = 0;
      return ENGINE_OK;
    }
  engine_is (p, resident ? PLAN_GPU_RESIDENT : PLAN_GPU, why);
  if (! resident && p->falls_back == FALLBACK_NONE && ! chunk_carry_fits (d))
    p->falls_back = FALLBACK_NO_MEMORY;
  return ENGINE_OK;
}

/* "auto" on host arrays: the CPU engine, or the GPU where it is faster (auto_choice.h);
   GPUSCAN_ENGINE ("cpu" or "gpu") and GPUSCAN_CROSSOVER take the choice away */
static engine_status plan_auto (const scan_desc *d, scan_plan *p, char *msg, size_t msg_size)
{
  const engine_settings *s = &p->settings;
  const int64_t n = scan_numel (d);
  const int gpu_forced = strcmp (s->engine, "gpu") == 0;
  if (strcmp (s->engine, "cpu") == 0)
    on_cpu (d, p, "GPUSCAN_ENGINE=cpu");
  else if (! cuda_engine_ready ())
    on_cpu (d, p, "auto: no usable GPU");
  else if (! cuda_engine_covers (d))
    on_cpu (d, p, "the GPU's kernels do not cover this scan");
  else if (! gpu_forced && n < AUTO_MIN_ELEMENTS)
    on_cpu (d, p, "auto: fewer elements than the GPU is ever sent");
  else if (! gpu_forced && s->crossover < 0)
    on_cpu (d, p, "GPUSCAN_CROSSOVER: never the GPU");
  else if (! gpu_forced && s->crossover > 0 && n < s->crossover)
    on_cpu (d, p, "auto: below GPUSCAN_CROSSOVER");
  else
    {
      /* a reproducible scan takes the same engine for the same call every time: by size */
      p->timed = ! gpu_forced && ! s->crossover && ! d->reproducible;
      p->falls_back = FALLBACK_ANY;
      p->auto_run = p->timed ? auto_choose (d, cpu_scan_alone (d, s->cpu_parallel_min))
                             : AUTO_GPU;
      if (p->auto_run != AUTO_GPU)
        on_cpu (d, p, "auto: the faster engine in this shape's and size's calls");
      else
        return on_gpu (d, p, 0, gpu_forced ? "GPUSCAN_ENGINE=gpu"
                                : p->timed ? "auto: the faster engine in this shape's and size's calls"
                                : s->crossover ? "auto: from GPUSCAN_CROSSOVER elements"
                                : "auto: a reproducible scan goes by its size",
                       msg, msg_size);
    }
  return ENGINE_OK;
}
#endif

/* the algorithm named, by the call or by GPUSCAN_ALGORITHM */
static const char *asked_for (const scan_plan *p)
{
#define NAMED(s) { "the algorithm \"auto\"" s, "the algorithm \"cpu\"" s,                    \
                   "the algorithm \"kogge-stone\"" s, "the algorithm \"brent-kung\"" s,       \
                   "the algorithm \"decoupled\"" s, "the algorithm \"cub\"" s }
  static const char *const by_call[ALG_COUNT] = NAMED (""),
                           *const by_setting[ALG_COUNT] = NAMED (" (GPUSCAN_ALGORITHM)");
#undef NAMED
  return (*p->settings.algorithm ? by_setting : by_call)[p->algorithm];
}

/* host arrays */
static engine_status plan_host (const scan_desc *d, scan_plan *p, char *msg, size_t msg_size)
{
  const char *why = asked_for (p);
  if (p->algorithm == ALG_CPU)
    {
      on_cpu (d, p, why);
      return ENGINE_OK;
    }
#ifdef GPUSCAN_WITH_CUDA
  if (p->algorithm == ALG_AUTO)
    return plan_auto (d, p, msg, msg_size);
  if (! cuda_engine_ready ())
    {
      snprintf (msg, msg_size, "algorithm '%s' needs a GPU: %s",
                engine_algorithm_name (p->algorithm), cuda_engine_status ());
      return ENGINE_NO_GPU;
    }
  if (! cuda_engine_covers (d))
    {
      on_cpu (d, p, "the GPU's kernels do not cover this scan");
      return ENGINE_OK;
    }
  return on_gpu (d, p, 0, why, msg, msg_size);
#else
  if (p->algorithm == ALG_AUTO)
    {
      on_cpu (d, p, "auto: this build of gpuscan has no CUDA engine");
      return ENGINE_OK;
    }
  snprintf (msg, msg_size, "algorithm '%s' needs the CUDA engine, and this build of "
            "gpuscan has none (configured without CUDA)", engine_algorithm_name (p->algorithm));
  return ENGINE_NO_GPU;
#endif
}

/* device arrays: where they are, but what the kernels do not cover and "cpu" */
static engine_status plan_arrays (const scan_desc *d, int host_stand_in, scan_plan *p,
                                  char *msg, size_t msg_size)
{
  const int narrow = d->input != SCAN_INPUT_AS_OUTPUT;
  if (host_stand_in)
    {
      engine_is (p, PLAN_CPU, "device arrays in host memory (GPUSCAN_HOST_ARRAYS)");
      p->widen = narrow && ! cpu_reads_input (d);
      return ENGINE_OK;
    }
  const char *why = asked_for (p);
#ifdef GPUSCAN_WITH_CUDA
  if (p->algorithm != ALG_CPU && cuda_engine_kernels_cover (d))
    {
      const engine_status s = on_gpu (d, p, 1, p->algorithm == ALG_AUTO ? "device arrays" : why,
                                      msg, msg_size);
      if (s == ENGINE_OK)
        p->widen = narrow && ! cuda_engine_reads_input (d, &p->gpu);
      return s;
    }
#else
  (void) msg;
  (void) msg_size;
#endif
  engine_is (p, PLAN_CPU_VIA_HOST,
             p->algorithm == ALG_CPU ? why : "the GPU's kernels do not cover this scan");
  p->widen = narrow;   /* (on the device, before the copy to host memory) */
  return ENGINE_OK;
}

engine_status scan_plan_make (const scan_desc *d, scan_algorithm a, const engine_settings *s,
                              int device_arrays, int host_stand_in, scan_plan *p, char *msg,
                              size_t msg_size)
{
  memset (p, 0, sizeof *p);
  p->settings = *s;
  p->algorithm = a;
  const engine_status forced = engine_algorithm_forced (&p->algorithm, s, msg, msg_size);
  if (forced != ENGINE_OK)
    return forced;
  const int64_t n = scan_numel (d);
  p->cpu_threads = cpu_threads_for (n, s->cpu_parallel_min);
  if (n == 0)
    {
      engine_is (p, PLAN_NOTHING, "no element");
      return ENGINE_OK;
    }
  return device_arrays ? plan_arrays (d, host_stand_in, p, msg, msg_size)
                       : plan_host (d, p, msg, msg_size);
}

void scan_plan_text (const scan_desc *d, const scan_plan *p, char *buf, size_t size)
{
  static const char *const engines[] = {
    "nothing to run", "CPU engine", "GPU, host arrays", "GPU, device arrays",
    "CPU engine, device arrays through host memory" };
  size_t k = 0;
#define ADD(...)                                                                       \
  do {                                                                                 \
    const int w_ = snprintf (k < size ? buf + k : NULL, k < size ? size - k : 0, __VA_ARGS__); \
    k += w_ > 0 ? (size_t) w_ : 0;                                                     \
  } while (0)
  ADD ("gpuscan plan: %s %s of %lld x %lld x %lld", scan_type_name (d->type),
       scan_op_name (d->op), (long long) d->inner, (long long) d->len, (long long) d->outer);
  if (d->input != SCAN_INPUT_AS_OUTPUT)
    ADD (" from %s", scan_type_name (scan_input_type (d)));
  ADD ("%s%s%s: %s (%s)", d->exclusive ? ", exclusive" : "", d->reverse ? ", reverse" : "",
       d->heads ? ", segmented" : "", engines[p->engine], p->why);
  if (p->timed)
    ADD ("; timed for \"auto\"");
  if (p->falls_back == FALLBACK_ANY)
    ADD ("; the CPU engine if the GPU fails");
  if (p->falls_back == FALLBACK_NO_MEMORY)
    ADD ("; the CPU engine if the GPU's memory does not hold it");
  if (p->widen)
    ADD ("; X converted to %s first", scan_type_name (d->type));
  else if (d->input != SCAN_INPUT_AS_OUTPUT && (p->engine == PLAN_GPU || p->cpu_chunk))
    ADD ("; X crosses as %s, converted to %s a chunk at a time", scan_type_name (scan_input_type (d)),
         scan_type_name (d->type));
  else if (d->input != SCAN_INPUT_AS_OUTPUT)
    ADD ("; X read as %s by the scan itself", scan_type_name (scan_input_type (d)));
  if (p->engine == PLAN_CPU || p->engine == PLAN_CPU_VIA_HOST)
    ADD ("; %d thread%s", p->cpu_threads, p->cpu_threads == 1 ? "" : "s");
  if (p->cpu_chunk)
    ADD ("; chunks of %lld elements", (long long) p->cpu_chunk);
#ifdef GPUSCAN_WITH_CUDA
  if (p->engine == PLAN_GPU || p->engine == PLAN_GPU_RESIDENT)
    {
      if (p->engine == PLAN_GPU)
        ADD ("; %lld chunk%s of %lld elements%s", (long long) p->gpu.chunks,
             p->gpu.chunks == 1 ? "" : "s", (long long) p->gpu.chunk,
             p->gpu.release_first ? ", held buffers given back first" : "");
      ADD ("; ");
      if (k < size)
        cuda_engine_describe (d, &p->gpu, buf + k, size - k);
    }
#endif
#undef ADD
}

void scan_plan_show (const scan_desc *d, const scan_plan *p)
{
  if (! p->settings.show_plan)
    return;
  char text[1024];
  scan_plan_text (d, p, text, sizeof text);
  fprintf (stderr, "%s\n", text);
}

/* gpuscan's environment variables (settings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/chunked_scan.h"
#include "engine/settings.h"
#include "engine/warnings.h"

int64_t settings_chunk_elements (void)
{
  const char *v = getenv ("GPUSCAN_CHUNK_ELEMENTS");
  if (! v || ! *v)
    return 0;
  char *end;
  const double n = strtod (v, &end);
  if (*end || ! (n >= 1 && n <= 9.2e18) || n != (double) (int64_t) n)
    {
      char msg[160];
      snprintf (msg, sizeof msg, "GPUSCAN_CHUNK_ELEMENTS=\"%.40s\" is no positive integer; "
                "ignored", v);
      engine_warn ("gpuscan:chunk_elements", msg);
      return 0;
    }
  return (int64_t) n < CHUNK_ELEMENTS_MIN ? CHUNK_ELEMENTS_MIN : (int64_t) n;
}

int64_t settings_crossover (void)
{
  const char *v = getenv ("GPUSCAN_CROSSOVER");
  return ! v || ! *v ? 0 : atoll (v) > 0 ? atoll (v) : -1;
}

int settings_show_plan (void)
{
  const char *v = getenv ("GPUSCAN_PLAN");
  return v && *v && strcmp (v, "0") != 0;
}

const char *settings_tuning (void)
{
  const char *v = getenv ("GPUSCAN_TUNING");
  return v ? v : "";
}

const char *settings_device_limits (void)
{
  const char *v = getenv ("GPUSCAN_DEVICE_LIMITS");
  return v ? v : "";
}

const char *settings_engine (void)
{
  const char *v = getenv ("GPUSCAN_ENGINE");
  return v && strcasecmp (v, "cpu") == 0 ? "cpu" : v && strcasecmp (v, "gpu") == 0 ? "gpu" : "";
}

const char *settings_algorithm (void)
{
  const char *v = getenv ("GPUSCAN_ALGORITHM");
  return v ? v : "";
}

int settings_host_arrays (void)
{
  const char *v = getenv ("GPUSCAN_HOST_ARRAYS");
  return v && strcmp (v, "1") == 0;
}

int64_t settings_cpu_parallel_min (void)
{
  const char *v = getenv ("GPUSCAN_CPU_PARALLEL_MIN");
  char *end;
  const long long n = v && *v ? strtoll (v, &end, 10) : 0;
  return n >= 1 && ! *end ? n : 0;
}

/* gpuscan's environment variables (settings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/chunked_scan.h"
#include "engine/settings.h"
#include "engine/warnings.h"

static const char *env (const char *name)
{
  const char *v = getenv (name);
  return v ? v : "";
}

static int64_t chunk_elements (void)
{
  const char *v = env ("GPUSCAN_CHUNK_ELEMENTS");
  if (! *v)
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

void settings_read (engine_settings *s)
{
  memset (s, 0, sizeof *s);
  s->chunk_elements = chunk_elements ();
  const char *v = env ("GPUSCAN_CROSSOVER");
  s->crossover = ! *v ? 0 : atoll (v) > 0 ? atoll (v) : -1;
  v = env ("GPUSCAN_CPU_PARALLEL_MIN");
  char *end;
  const long long n = *v ? strtoll (v, &end, 10) : 0;
  s->cpu_parallel_min = n >= 1 && ! *end ? n : 0;
  v = env ("GPUSCAN_PLAN");
  s->show_plan = *v && strcmp (v, "0") != 0;
  s->host_arrays = strcmp (env ("GPUSCAN_HOST_ARRAYS"), "1") == 0;
  v = env ("GPUSCAN_ENGINE");
  snprintf (s->engine, sizeof s->engine, "%s",
            ! strcasecmp (v, "cpu") ? "cpu" : ! strcasecmp (v, "gpu") ? "gpu" : "");
  snprintf (s->algorithm, sizeof s->algorithm, "%s", env ("GPUSCAN_ALGORITHM"));
  snprintf (s->tuning, sizeof s->tuning, "%s", env ("GPUSCAN_TUNING"));
  snprintf (s->device_limits, sizeof s->device_limits, "%s", env ("GPUSCAN_DEVICE_LIMITS"));
  snprintf (s->fault, sizeof s->fault, "%s", env ("GPUSCAN_FAULT"));
}

/* gpuscan's environment variables (settings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/chunked_scan.h"
#include "engine/settings.h"
#include "engine/warnings.h"

extern char **environ;

static int64_t chunk_elements (const char *v)
{
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
  /* (one pass over the environment: a small scan's time is mostly such costs) */
  const char *chunk = "", *crossover = "", *parallel_min = "", *plan = "", *host_arrays = "",
             *engine = "";
  s->algorithm = s->tuning = s->device_limits = s->fault = "";
  for (char **e = environ; e && *e; e++)
    {
      if (**e != 'G' || strncmp (*e, "GPUSCAN_", 8) != 0)
        continue;
      const char *name = *e + 8, *value = strchr (name, '=');
      if (! value++)
        continue;
      const size_t len = (size_t) (value - 1 - name);
      const struct { const char *name; const char **value; } known[] = {
        { "CHUNK_ELEMENTS", &chunk }, { "CROSSOVER", &crossover },
        { "CPU_PARALLEL_MIN", &parallel_min }, { "PLAN", &plan },
        { "HOST_ARRAYS", &host_arrays }, { "ENGINE", &engine }, { "ALGORITHM", &s->algorithm },
        { "TUNING", &s->tuning }, { "DEVICE_LIMITS", &s->device_limits },
        { "FAULT", &s->fault } };
      for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strlen (known[k].name) == len && ! strncmp (name, known[k].name, len))
          *known[k].value = value;
    }
  s->chunk_elements = chunk_elements (chunk);
  s->crossover = ! *crossover ? 0 : atoll (crossover) > 0 ? atoll (crossover) : -1;
  char *end;
  const long long n = *parallel_min ? strtoll (parallel_min, &end, 10) : 0;
  s->cpu_parallel_min = n >= 1 && ! *end ? n : 0;
  s->show_plan = *plan && strcmp (plan, "0") != 0;
  s->host_arrays = strcmp (host_arrays, "1") == 0;
  s->engine = ! strcasecmp (engine, "cpu") ? "cpu" : ! strcasecmp (engine, "gpu") ? "gpu" : "";
}

/* The algorithms' names, and the one GPUSCAN_ALGORITHM forces (algorithms.h). */
#include <stdio.h>
#include <strings.h>

#include "engine/algorithms.h"
#include "engine/settings.h"

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

engine_status engine_algorithm_forced (scan_algorithm *a, const engine_settings *s, char *msg,
                                       size_t msg_size)
{
  const char *name = s->algorithm;
  if (*a != ALG_AUTO || ! *name)
    return ENGINE_OK;
  const int forced = engine_algorithm_from_name (name);
  if (forced < 0)
    {
      snprintf (msg, msg_size, "GPUSCAN_ALGORITHM=\"%.60s\" names no algorithm; known: auto, "
                "cpu, kogge-stone, brent-kung, decoupled, cub", name);
      return ENGINE_BAD_SETTING;
    }
  *a = (scan_algorithm) forced;
  return ENGINE_OK;
}

/* The engine layer's warnings (warnings.h). */
#include <stdio.h>

#include "engine/warnings.h"

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

/* The algorithms by name (the "algorithm" option), and GPUSCAN_ALGORITHM, which names the
   one that replaces "auto" in every call (the test matrix runs each). */
#ifndef GPUSCAN_ALGORITHMS_H
#define GPUSCAN_ALGORITHMS_H

#include <stddef.h>

#include "base/scan_desc.h"
#include "base/scan_status.h"
#include "engine/settings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the option value's name for each algorithm */
const char *engine_algorithm_name (scan_algorithm a);
/* -1 for an unknown name (case-insensitive) */
int engine_algorithm_from_name (const char *name);
/* *a after the settings' GPUSCAN_ALGORITHM; ENGINE_BAD_SETTING, with why in msg, for an
   unknown name */
engine_status engine_algorithm_forced (scan_algorithm *a, const engine_settings *s, char *msg,
                                       size_t msg_size);

#ifdef __cplusplus
}
#endif
#endif

/* Inside the engine layer: the registry of device arrays (device_arrays.c). */
#ifndef GPUSCAN_DEVICE_ARRAYS_H
#define GPUSCAN_DEVICE_ARRAYS_H

#include "engine/engine.h"

/* free every array (the ids become unknown) */
void device_arrays_release (void);
/* array_backend, array_count and array_bytes of engine_info */
void device_arrays_info (engine_info *info);

#endif

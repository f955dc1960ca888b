/* The CUDA host engine: persistent device state, staged transfers, the choice between
   CPU and GPU for "auto".  C on the CUDA runtime API; the gateway never sees it. */
#ifndef GPUSCAN_CUDA_ENGINE_H
#define GPUSCAN_CUDA_ENGINE_H

#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef engine_status (*cpu_runner) (const scan_desc *d, char *msg, size_t msg_size);

/* Scan host arrays with algorithm a (ALG_AUTO or a GPU algorithm); cpu runs the CPU
   engine where the GPU cannot or should not. */
engine_status cuda_engine_scan (const scan_desc *d, scan_algorithm a, char *msg,
                                size_t msg_size, cpu_runner cpu);
void cuda_engine_info (engine_info *info);
/* Free every device and pinned buffer (also run when the oct-file is unloaded). */
void cuda_engine_release (void);

#ifdef __cplusplus
}
#endif
#endif

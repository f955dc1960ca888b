/* Fault injection for tests (configure --enable-fault-injection; never in a release
   build): while the settings' GPUSCAN_FAULT names a fault (cuda_engine_use_faults), the CUDA engine's calls fail as a real GPU
   would fail them:
     malloc      every cudaMalloc runs out of memory
     host_alloc  cudaMallocHost (pinned staging, at start-up) fails
     launch      every scan launch fails
     lost        the device is gone: every wait fails with a sticky error, and at
                 start-up there is no device
     busy        the GPU's memory is all taken by other processes: its free memory,
                 as the chunk pipeline asks for it, is 0
   Several faults may be named, separated by commas. */
#ifndef GPUSCAN_FAULT_INJECTION_H
#define GPUSCAN_FAULT_INJECTION_H

#ifdef GPUSCAN_FAULT_INJECTION
#include <string.h>

/* the faults named now (apart from the engine's state, which a device reset clears) */
static char injected_faults[80];
/* the error the call returns instead of running, or cudaSuccess to run it */
#define FAULT(what, err) (strstr (injected_faults, what) ? (err) : cudaSuccess)
#else
#define FAULT(what, err) cudaSuccess
#endif

#endif

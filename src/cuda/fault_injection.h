/* Fault injection for tests (configure --enable-fault-injection; never in a release
   build): while GPUSCAN_FAULT names a fault, the CUDA engine's calls fail as a real GPU
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
#include <stdlib.h>
#include <string.h>

static inline int fault_injected (const char *what)
{
  const char *f = getenv ("GPUSCAN_FAULT");
  return f && strstr (f, what) != NULL;
}
/* the error the call returns instead of running, or cudaSuccess to run it */
#define FAULT(what, err) (fault_injected (what) ? (err) : cudaSuccess)
#define FAULT_INJECTION_BUILT 1
#else
#define FAULT(what, err) cudaSuccess
#define FAULT_INJECTION_BUILT 0
#endif

#endif

/* A classic block scan traced step by step (gpuscan_trace): what every layer shares. */
#ifndef GPUSCAN_SCAN_TRACE_H
#define GPUSCAN_SCAN_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum trace_algorithm { TRACE_KOGGE_STONE, TRACE_BRENT_KUNG, TRACE_BLELLOCH } trace_algorithm;

enum { TRACE_MAX_ELEMENTS = 1024 };

typedef struct trace_step
{
  char name[32];     /* "d = 4", "up-sweep level 2", "clear the root", ... */
  int threads;       /* threads that add in this step */
  int adds;
  int conflicts;     /* shared-memory wavefronts beyond one a warp request (4-byte banks) */
} trace_step;

#ifdef __cplusplus
}
#endif
#endif

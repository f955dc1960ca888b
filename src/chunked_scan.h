/* Scans of arrays larger than the memory of the engine that runs them: the array goes
   through in chunks, and where a chunk cuts a line, the scan state at its end (the
   carry) is handed to the next chunk inside the engine's own memory.  The driver is
   backend-agnostic: the CUDA engine runs it on the GPU, and the CPU engine can run it
   on host buffers (GPUSCAN_CHUNK_ELEMENTS with the "cpu" algorithm) so that the chunk
   and carry logic is tested on machines without a GPU.

   How a carry crosses a chunk: the chunk's buffer gets one extra step holding the carry
   as an element (before the chunk's first step, or after its last for a reverse scan);
   scanning [carry, x...] gives exactly the outputs a sequential scan gives, for every
   operator, the saturating sum included.  Exclusive scans get one more step at the far
   end, whose output is the state after the chunk's last element: the next carry.  Head
   flags of the extra steps keep a carry out of a segment that starts at the cut. */
#ifndef GPUSCAN_CHUNKED_SCAN_H
#define GPUSCAN_CHUNKED_SCAN_H

#include "scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct chunk_backend
{
  void *ctx;
  /* engine memory, at least chunk_buffer_elements () elements each (index: doubles),
     heads: as many bytes, carry_index: lanes doubles */
  void *in, *out, *heads;
  double *index, *carry_index;
  /* copy rows of row_bytes: host rows lie pitch bytes apart, engine rows back to back */
  int (*put_rows) (void *ctx, void *dev, const void *host, size_t row_bytes, size_t pitch,
                   int64_t rows);
  int (*get_rows) (void *ctx, void *host, const void *dev, size_t row_bytes, size_t pitch,
                   int64_t rows);
  int (*copy) (void *ctx, void *dst, const void *src, size_t bytes);   /* inside the engine */
  int (*scan) (void *ctx, const scan_desc *d);                         /* engine pointers */
  /* index outputs of a chunk: 1-based position p along the chunk becomes
     carry_index[lane] where p == carry_pos, p + shift elsewhere (0 stays 0) */
  int (*fix_index) (void *ctx, double *index, int64_t lanes, int64_t steps, double carry_pos,
                    const double *carry_index, double shift);
} chunk_backend;

/* elements each engine buffer needs for chunks of chunk_elements */
int64_t chunk_buffer_elements (const scan_desc *d, int64_t chunk_elements);
/* the scan of d (host pointers) in chunks of about chunk_elements; 0 on success, else the
   first backend error */
int chunked_scan (const scan_desc *d, int64_t chunk_elements, const chunk_backend *b);

#ifdef __cplusplus
}
#endif
#endif

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
   flags of the extra steps keep a carry out of a segment that starts at the cut.  A scan
   whose state an element cannot carry (chunk_carry_fits) goes through in one chunk. */
#ifndef GPUSCAN_CHUNKED_SCAN_H
#define GPUSCAN_CHUNKED_SCAN_H

#include "base/scan_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rows between host memory and one engine buffer: engine rows lie back to back, host
   rows pitch bytes apart (pitch 0: one contiguous run) */
typedef struct chunk_move
{
  void *engine;
  char *host;
  size_t row_bytes, pitch;
  int64_t rows;
} chunk_move;

/* what one chunk moves in one direction, to or from the buffers of one slot */
typedef struct chunk_moves
{
  int slot, count;
  chunk_move m[4];
} chunk_moves;

/* Engine buffers of one chunk.  Two slots: while chunk k is scanned in one, chunk k + 1
   is copied into the other and chunk k - 1 out of it. */
typedef struct chunk_slot
{
  /* at least chunk_buffer_elements () elements each (index: doubles), heads as many bytes */
  void *in, *out;
  uint8_t *heads;
  double *index;
  void *coef;   /* a recurrence's coefficients: as many as in (one for a scalar a) */
  /* an X of another class than d's (scan_desc.input): it crosses in its own class into
     x_in, as many elements as in, and `widen` converts it into in */
  void *x_in;
} chunk_slot;

typedef struct chunk_backend
{
  void *ctx;
  chunk_slot slot[2];
  double *carry_index;   /* lanes doubles */
  /* Copies `put` into the engine and `get` out of it (either may be NULL), both in flight
     at once and beside the engine work queued before.  `put` waits until the earlier
     work on its slot is done, `get` until the work of its slot's chunk is; returns once
     `get` is in host memory. */
  int (*transfer) (void *ctx, const chunk_moves *put, const chunk_moves *get);
  /* the engine work of the chunk in `slot`, queued in the order called */
  int (*copy) (void *ctx, int slot, void *dst, const void *src, size_t bytes);
  int (*scan) (void *ctx, int slot, const scan_desc *d);   /* engine pointers */
  /* y = x (n elements) in class `to` from class `from`, once the slot's copies are in */
  int (*widen) (void *ctx, int slot, scan_type from, scan_type to, const void *x, void *y,
                int64_t n);
  /* index outputs of a chunk: 1-based position p along the chunk becomes
     carry_index[lane] where p == carry_pos, p + shift elsewhere (0 stays 0) */
  int (*fix_index) (void *ctx, int slot, double *index, int64_t lanes, int64_t steps,
                    double carry_pos, const double *carry_index, double shift);
} chunk_backend;

/* bytes an element of chunk_slot.x_in takes: the input's, where X crosses in a class of
   its own (scan_desc.input), else 0 (no x_in) */
size_t chunk_x_in_bytes (const scan_desc *d);
/* 1 when an element can carry d's state across a cut, as the driver carries it; 0 for
   "omitnan" (a NaN state, as a sum's Inf - Inf, would be left out), accurate sums (the
   state has more bits than an element), recurrences (the state is a map) and complex
   max and min (the state keeps candidates for a NaN part): those scan in one chunk */
int chunk_carry_fits (const scan_desc *d);
/* the fewest elements a chunk holds: a carry, an element and an exclusive end */
#define CHUNK_ELEMENTS_MIN 3
/* the chunk a scan of d takes where chunks of chunk_elements are asked for: the whole
   array where it is no larger or chunk_carry_fits says no (at least CHUNK_ELEMENTS_MIN) */
int64_t chunk_elements_for (const scan_desc *d, int64_t chunk_elements);
/* elements each engine buffer needs for chunks of chunk_elements (>= CHUNK_ELEMENTS_MIN) */
int64_t chunk_buffer_elements (const scan_desc *d, int64_t chunk_elements);
/* the scan of d (host pointers) in chunks of about chunk_elements (>= CHUNK_ELEMENTS_MIN,
   and the whole array where chunk_carry_fits says no), pipelined over the two slots; 0 on
   success, else the first backend error (-1 for a chunk below those) */
int chunked_scan (const scan_desc *d, int64_t chunk_elements, const chunk_backend *b);

#ifdef __cplusplus
}
#endif
#endif

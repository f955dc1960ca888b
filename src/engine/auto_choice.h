/* "auto": which engine scans host arrays, chosen from the calls' own times.

   In each shape class and size bucket (n in [2^b, 2^(b+1))), the first calls alternate
   between the GPU (with its transfers) and the CPU engine, AUTO_SAMPLES each, and from
   then on the bucket runs on the engine whose recent calls were faster, every call
   timed; one call in AUTO_RECHECK goes to the other engine.  So the choice rests on the
   user's own shapes, outputs and machine load (a synthetic calibration matrix chose the
   CPU for 4096x4096 along dim 2 where the GPU was 1.6x faster), and nothing runs that the
   caller did not ask for.

   The CPU engine runs a large scan on one thread for a while after it found the machine
   busy (base/work_pool.h): its times then are another engine's, kept apart, so that a
   few calls alone neither hide the threads' speed nor are hidden by it. */
#ifndef GPUSCAN_AUTO_CHOICE_H
#define GPUSCAN_AUTO_CHOICE_H

#include "base/scan_desc.h"

/* the shapes "auto" measures apart: one vector, columns of a matrix (dim 1), lanes of
   any other dimension */
typedef enum shape_class { SHAPE_VECTOR, SHAPE_COLUMNS, SHAPE_STRIDED, SHAPE_CLASSES } shape_class;

#ifdef __cplusplus
extern "C" {
#endif

/* "auto" never sends fewer elements than this to the GPU (nor times such calls) */
#define AUTO_MIN_ELEMENTS ((int64_t) 1 << 16)
/* calls timed of each engine in a bucket before it settles on the faster one (the best
   of them: early GPU calls of a shape vary, H100, 4096x4096 along dim 2: 13.2, 38.9,
   54.9, 15.2 ms, then 13-14 ms, where the CPU engine took 19-26 ms) ... */
#define AUTO_SAMPLES 3
/* ... the best of this many most recent calls stands for an engine (older times go
   stale when the machine's load changes: H100 host, 16 busy processes, 2^22 singles,
   "auto" kept the GPU at 2.6 ms from early slow CPU samples, where the CPU engine took
   0.76 ms) ... */
#define AUTO_WINDOW 4
/* ... and one call in this many goes to the slower engine, so that unlucky times do not
   decide for good (it costs at most 1/AUTO_RECHECK of the difference) */
#define AUTO_RECHECK 16

/* the engines "auto" chooses between, and how a CPU call ran */
typedef enum auto_run { AUTO_GPU, AUTO_CPU_THREADS, AUTO_CPU_ALONE, AUTO_RUNS } auto_run;

/* the engine for the next scan d: AUTO_GPU, or the CPU engine as it will run
   (cpu_alone: on one thread for a busy machine); changes nothing (auto_record does) */
auto_run auto_choose (const scan_desc *d, int cpu_alone);
/* the time of a call that ran as `run` */
void auto_record (const scan_desc *d, auto_run run, double seconds);
/* for gpuscan_info: the smallest size whose bucket chose the GPU over the CPU engine's
   threads; 0 where every measured bucket chose the CPU, -1 where none is measured yet */
double auto_crossover (shape_class c);
/* forget every time recorded: "auto" starts measuring again (at engine_release) */
void auto_forget (void);

#ifdef __cplusplus
}
#endif
#endif

/* Tuning constants of the CPU engine, apart from the algorithm (cpu_scan_body.h). */
#ifndef GPUSCAN_CPU_TUNING_H
#define GPUSCAN_CPU_TUNING_H

/* below this many elements one thread does the whole scan: others cost more than they
   bring (2 cores, 2026-11-26: 2^19 doubles took 0.63 ms on two threads against cumsum's
   0.81 idle, but 1.08 ms with both cores busy; one thread: 0.6).  GPUSCAN_CPU_PARALLEL_MIN
   sets it, for tests that run every size through the threads. */
#define CPU_PARALLEL_MIN (1 << 20)
/* elements of a piece of an element-wise operation (compaction, conversion) that a thread
   claims: many pieces a thread, so that a late thread leaves the rest to the others */
#define CPU_OPS_PIECE ((int64_t) 1 << 16)
/* bytes of one block of a long line: small enough to stay in a core's cache from its
   reduction to its scan; a constant, so that the blocks (and the rounding of floating
   sums) do not depend on the number of threads */
#define CPU_BLOCK_BYTES (128 * 1024)
/* polls (a pause apart: a microsecond or a few in all) for another thread's block
   aggregate before computing it again (a block's reduction takes 10-30 us): its thread
   may have lost its core, and a sched_yield would hand ours to another process for a
   scheduler tick (2 cores, both busy, 2026-11-26: 2^24 singles 52 ms with the yields,
   one thread 17.5) */
#define CPU_WAIT_POLLS 64
/* steps of a line a float sum combines as a group (cpu_scan_body.h): a dependent add
   takes 3-4 cycles, so a group of 8 leaves the loads and stores as the limit */
#define CPU_GROUP 8
/* steps of a saturating sum on one thread whose reach (the sum of their absolute
   values) decides whether they can clamp at all: short enough that data of a few bits'
   magnitude stays clear of the range, long enough that the check costs little */
#define SATSUM_RUN 64
/* lanes a thread scans side by side when scanning across contiguous vectors: at least
   this many (where there are), ... */
#define CPU_LANE_BLOCK 256
/* ... and as many more as cut a slice into this many units a thread: wide rows stream
   better (2 cores, 2026-11-26, 4096^2 doubles along dim 2: 256 lanes a unit 49 ms,
   four units a thread 49 ms, one 30-36 ms; along dim 1 36-43 ms) ... */
#define CPU_UNITS_PER_THREAD 1
/* ... while their states stay within this (a cache's worth) */
#define CPU_LANE_STATE_BYTES (64 * 1024)
/* with fewer independent lane blocks than this, the lines themselves are cut into blocks
   (a constant, not a multiple of the threads: the way a scan runs, so its rounding, must
   not depend on them; 1024 x 16384 along dim 2 took 1.1-1.25x its time along dim 1 in
   blocks, 0.85-1.0x as four units of lanes) ... */
#define CPU_ALONG_UNITS 4
/* ... provided the carries (one per lane) stay small */
#define CPU_MAX_ALONG_LANES 4096

/* gpuscan_filter: orders up to this keep each channel's state in registers (a step
   unrolled per order), and only these cut a long channel into blocks ... */
#define FILTER_UNROLLED_ORDER 8
/* ... of this many steps (a constant: the rounding must not depend on the threads; the
   response table of a block, order x steps, stays in a core's cache) ... */
#define FILTER_BLOCK 2048
/* ... where a channel has this many steps or more and there are fewer channels than
   this (else channels run in parallel, each in order, with filter's own bits) */
#define FILTER_ALONG_MIN_LEN ((int64_t) 1 << 16)
#define FILTER_ALONG_CHANNELS 16

#endif

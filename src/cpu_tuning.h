/* Tuning constants of the CPU engine, apart from the algorithm (cpu_scan_body.h). */
#ifndef GPUSCAN_CPU_TUNING_H
#define GPUSCAN_CPU_TUNING_H

/* below this many elements one thread does the whole scan: waking a team costs more */
#define CPU_PARALLEL_MIN 32768
/* bytes of one block of a long line: small enough to stay in a core's cache from its
   reduction to its scan; a constant, so that the blocks (and the rounding of floating
   sums) do not depend on the number of threads */
#define CPU_BLOCK_BYTES (128 * 1024)
/* blocks a thread takes in a round of a long line (one barrier a round) */
#define CPU_ROUND_BLOCKS 8
/* lanes a thread scans side by side when scanning across contiguous vectors */
#define CPU_LANE_BLOCK 256
/* with fewer independent lane blocks than this per thread, split the lines themselves */
#define CPU_UNITS_PER_THREAD 4
/* ... provided each thread then gets at least this many steps ... */
#define CPU_MIN_PIECE 1024
/* ... and the carries per thread (one per lane) stay small */
#define CPU_MAX_ALONG_LANES 4096

#endif

/* Tuning constants of the CPU engine, apart from the algorithm (cpu_scan_body.h). */
#ifndef GPUSCAN_CPU_TUNING_H
#define GPUSCAN_CPU_TUNING_H

/* below this many elements one thread does the whole scan: waking a team costs more */
#define CPU_PARALLEL_MIN 32768
/* bytes of one thread's piece of a superblock: small enough to stay in cache until it is
   scanned again ... */
#define CPU_PIECE_BYTES (1024 * 1024)
/* ... but no more than this many superblocks (one barrier each): a barrier costs
   milliseconds when a thread is descheduled (seen on a loaded 2-core machine) */
#define CPU_MAX_ROUNDS 256
/* lanes a thread scans side by side when scanning across contiguous vectors */
#define CPU_LANE_BLOCK 256
/* with fewer independent lane blocks than this per thread, split the lines themselves */
#define CPU_UNITS_PER_THREAD 4
/* ... provided each thread then gets at least this many steps ... */
#define CPU_MIN_PIECE 1024
/* ... and the carries per thread (one per lane) stay small */
#define CPU_MAX_ALONG_LANES 4096

#endif

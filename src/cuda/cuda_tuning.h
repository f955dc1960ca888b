/* Tuning constants of the CUDA host engine, apart from its logic (cuda_engine.c). */
#ifndef GPUSCAN_CUDA_TUNING_H
#define GPUSCAN_CUDA_TUNING_H

/* bytes of each of the four pinned staging buffers that host data streams through (two
   each way) */
#define CUDA_STAGING_BYTES ((size_t) 16 << 20)
/* below this many bytes a host copy is not worth waking the thread team */
#define CUDA_PAR_COPY_MIN ((size_t) 1 << 20)
/* the memory pool of device arrays keeps up to this fraction of the GPU's memory when
   arrays are freed, for the next ones (gpuscan_info counts it as held) */
#define CUDA_POOL_KEEP_FRACTION 0.125
/* device memory left free for others, in bytes */
#define CUDA_MEMORY_RESERVE ((size_t) 256 << 20)
/* host arrays go through the GPU in chunks of this many elements, copied in and out while
   the chunk before is scanned (H100, 2^26 doubles, bench/pipeline_bench.m: 2^22 1.09x,
   2^23 1.13x, 2^24 1.11x faster than whole-array transfers; 2^20 0.82x) */
#define CUDA_PIPELINE_CHUNK_ELEMENTS ((int64_t) 1 << 23)
/* when the GPU's free memory asks for smaller chunks, they have at least this many elements */
#define CUDA_MIN_CHUNK_ELEMENTS ((int64_t) 1 << 20)

#endif

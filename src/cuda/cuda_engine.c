/* CUDA host engine.  State that lives across calls: the device, three streams (scans,
   copies in, copies out), device buffers that only grow and pinned staging buffers.  Host data streams through the staging buffers: while the GPU copies
   one buffer, the host threads fill or drain the other, and copies in and out are
   interleaved so that both directions are in flight beside the scans.
   Device-array work (allocation, scan, copy, class conversion) is queued on the scan
   stream and not waited for, as a GPU array library does: a call costs its launches, not
   the GPU's round trip.  What touches that memory from elsewhere waits for the queue
   first (`settle`): copies to and from the host (other streams), and freeing a buffer
   that queued work may use.  An error in queued work is reported by the next call that
   waits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "base/chunked_scan.h"
#include "base/work_pool.h"
#include "cuda/cuda_engine.h"
#include "cuda/cuda_tuning.h"
#include "cuda/fault_injection.h"
#include "scan_kernels.h"

typedef struct device_buffer { void *p; size_t bytes; } device_buffer;

static struct cuda_state {
  int tried;                 /* initialisation attempted */
  int usable;                /* a device is there and works */
  char status[256];          /* "ok" or why not */
  struct cudaDeviceProp prop;
  cudaStream_t stream;       /* scans and other device work */
  cudaStream_t up, down;     /* copies host -> device, device -> host */
  void *up_staging[2], *down_staging[2];
  cudaEvent_t up_free[2];    /* the GPU is done reading up_staging[i] */
  cudaEvent_t down_full[2];  /* down_staging[i] holds its piece */
  cudaEvent_t uploaded[2];   /* the copies into buffer slot i are done */
  cudaEvent_t computed[2];   /* the device work on buffer slot i is done */
  device_buffer x, y, ix, heads, work, compact, carry, groups;
  device_buffer x2, y2, ix2, heads2;   /* the second slot of the chunk pipeline */
  device_buffer xn, xn2;     /* each slot's X in a class of its own (chunk_slot.x_in) */
  device_buffer coef;        /* a recurrence's coefficients (one chunk: the first slot's) */
  device_buffer filter;      /* gpuscan_filter's tables, block ends and carries */
  cudaMemPool_t pool;        /* device arrays' memory, or NULL: plain cudaMalloc */
  gsk_context *kernels;      /* what the kernels keep of this CUDA context */
  char kernels_tuning[32], kernels_limits[32];   /* the names it was made with ("": none) */
} st;

void cuda_engine_use_faults (const char *names)
{
#ifdef GPUSCAN_FAULT_INJECTION
  snprintf (injected_faults, sizeof injected_faults, "%s", names);
#else
  (void) names;
#endif
}

static const gsk_algorithm gsk_of[ALG_COUNT] = {
  GSK_DECOUPLED, GSK_DECOUPLED, GSK_KOGGE_STONE, GSK_BRENT_KUNG, GSK_DECOUPLED, GSK_CUB };

/* The CUDA calls that tests make fail (fault_injection.h; no-ops in a release build). */
static cudaError_t device_malloc (void **p, size_t bytes)
{
  cudaError_t err = FAULT ("malloc", cudaErrorMemoryAllocation);
  return err != cudaSuccess ? err : cudaMalloc (p, bytes);
}

/* the GPU's free memory, in bytes, as the chunk pipeline sizes its chunks by it */
static size_t free_memory (void)
{
  size_t free_mem = 0, total_mem = 0;
  if (FAULT ("busy", cudaErrorMemoryAllocation) != cudaSuccess)
    return 0;
  cudaMemGetInfo (&free_mem, &total_mem);
  return free_mem;
}

/* waits for the work queued on the scan stream (device-array calls do not wait) */
static cudaError_t settle (void)
{
  return st.stream ? cudaStreamSynchronize (st.stream) : cudaSuccess;
}

/* waits for all three streams */
static cudaError_t wait_stream (void)
{
  cudaError_t err = FAULT ("lost", cudaErrorDevicesUnavailable);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (st.stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (st.up);
  return err != cudaSuccess ? err : cudaStreamSynchronize (st.down);
}



static void set_status (const char *what, cudaError_t err)
{
  snprintf (st.status, sizeof st.status, "%.160s: %.80s", what, cudaGetErrorString (err));
}

/* every grow-only device buffer */
static device_buffer *const buffers[] = { &st.x, &st.y, &st.ix, &st.heads, &st.work, &st.carry,
                                          &st.x2, &st.y2, &st.ix2, &st.heads2, &st.compact,
                                          &st.groups, &st.coef, &st.xn, &st.xn2, &st.filter };
#define BUFFER_COUNT (sizeof buffers / sizeof buffers[0])

/* frees every buffer but `keep` (or all) */
static void release_buffers_but (const device_buffer *keep)
{
  settle ();   /* (an error there is the next call's to report) */
  for (size_t i = 0; i < BUFFER_COUNT; i++)
    if (buffers[i] != keep)
      {
        if (buffers[i]->p)
          cudaFree (buffers[i]->p);
        buffers[i]->p = NULL;
        buffers[i]->bytes = 0;
      }
}

static void release_buffers (void)
{
  release_buffers_but (NULL);
}

static size_t held_bytes (void)
{
  size_t bytes = 0;
  for (size_t i = 0; i < BUFFER_COUNT; i++)
    bytes += buffers[i]->bytes;
  return bytes;
}

/* gives back what the device arrays' pool keeps unused */
static void trim_pool (void)
{
  if (! st.pool)
    return;
  cudaStreamSynchronize (st.stream);
  cudaMemPoolTrimTo (st.pool, 0);
}

void cuda_engine_release (void)
{
  if (st.stream)
    wait_stream ();
  release_buffers ();
  trim_pool ();
  for (int i = 0; i < 2; i++)
    {
      if (st.up_staging[i])
        cudaFreeHost (st.up_staging[i]);
      if (st.down_staging[i])
        cudaFreeHost (st.down_staging[i]);
      cudaEvent_t e[] = { st.up_free[i], st.down_full[i], st.uploaded[i], st.computed[i] };
      for (int j = 0; j < 4; j++)
        if (e[j])
          cudaEventDestroy (e[j]);
    }
  cudaStream_t streams[] = { st.stream, st.up, st.down };
  for (int i = 0; i < 3; i++)
    if (streams[i])
      cudaStreamDestroy (streams[i]);
  gsk_context_free (st.kernels);
  memset (&st, 0, sizeof st);
}

/* bumped at every device reset: device arrays allocated before it are gone */
static unsigned generation = 1;

unsigned cuda_engine_generation (void)
{
  return generation;
}

/* After a CUDA error: a sticky error leaves the context unusable, so start afresh at the
   next call (device arrays included).  Returns ENGINE_GPU_ERROR with the message. */
static engine_status gpu_failed (cudaError_t err, const char *what, char *msg, size_t msg_size)
{
  snprintf (msg, msg_size, "CUDA error in %s: %s", what, cudaGetErrorString (err));
  cudaGetLastError ();
  if (wait_stream () != cudaSuccess)
    {
      cuda_engine_release ();   /* (the kernels' context with it) */
      cudaDeviceReset ();
      generation++;
    }
  return ENGINE_GPU_ERROR;
}

/* grow-only device buffer; a new work buffer starts zeroed (look-back flags) */
static cudaError_t reserve (device_buffer *b, size_t bytes, int zero)
{
  if (b->bytes >= bytes)
    return cudaSuccess;
  cudaError_t err = b->p ? settle () : cudaSuccess;
  if (err != cudaSuccess)
    return err;
  if (b->p)
    cudaFree (b->p);
  b->p = NULL;
  b->bytes = 0;
  err = device_malloc (&b->p, bytes);
  if (err == cudaErrorMemoryAllocation && st.pool)
    {
      /* what the pool keeps for device arrays goes first */
      cudaGetLastError ();
      trim_pool ();
      err = device_malloc (&b->p, bytes);
    }
  if (err != cudaSuccess)
    {
      cudaGetLastError ();
      return err;
    }
  b->bytes = bytes;
  return zero ? cudaMemsetAsync (b->p, 0, bytes, st.stream) : cudaSuccess;
}

/* (the workspace grows here too: a chunk's scan may take another kernel, and another
   workspace, than the largest chunk that the pipeline reserved for) */
static cudaError_t launch_scan (const scan_desc *d, gsk_algorithm a)
{
  cudaError_t err = FAULT ("launch", cudaErrorLaunchFailure);
  if (err == cudaSuccess)
    err = reserve (&st.work, gsk_workspace_bytes (st.kernels, d, a), 1);
  return err != cudaSuccess ? err
                            : gsk_scan (st.kernels, d, a, st.work.p, st.work.bytes, st.stream);
}

static int init (void)
{
  if (st.tried)
    return st.usable;
  st.tried = 1;
  int count = 0;
  char why[200] = "";
  cudaError_t err = FAULT ("lost", cudaErrorNoDevice);
  if (err == cudaSuccess)
    err = cudaGetDeviceCount (&count);
  if (err != cudaSuccess || count == 0)
    {
      /* (the runtime calls a missing driver "insufficient": say what is missing) */
      int driver = 0, runtime = 0;
      cudaDriverGetVersion (&driver);
      cudaRuntimeGetVersion (&runtime);
      if (err == cudaErrorInsufficientDriver && driver == 0)
        snprintf (st.status, sizeof st.status, "no NVIDIA driver on this machine");
      else if (err == cudaErrorInsufficientDriver)
        snprintf (st.status, sizeof st.status, "the NVIDIA driver supports CUDA %d.%d, older "
                  "than this build's CUDA runtime %d.%d: update the driver",
                  driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
      else if (err != cudaSuccess)
        set_status ("no usable CUDA driver or device", err);
      else
        snprintf (st.status, sizeof st.status, "no CUDA device");
      cudaGetLastError ();
      return 0;
    }
  if ((err = cudaSetDevice (0)) != cudaSuccess
      || (err = cudaGetDeviceProperties (&st.prop, 0)) != cudaSuccess
      || (err = cudaStreamCreateWithFlags (&st.stream, cudaStreamNonBlocking)) != cudaSuccess
      || (err = cudaStreamCreateWithFlags (&st.up, cudaStreamNonBlocking)) != cudaSuccess
      || (err = cudaStreamCreateWithFlags (&st.down, cudaStreamNonBlocking)) != cudaSuccess
      || (err = (st.kernels = gsk_context_new (NULL, NULL, why, sizeof why))
                ? cudaSuccess : cudaErrorMemoryAllocation) != cudaSuccess)
    {
      cudaGetLastError ();
      cuda_engine_release ();
      st.tried = 1;
      set_status (*why ? why : "CUDA device 0 unusable", err);
      return 0;
    }
  for (int i = 0; i < 2; i++)
    if ((err = FAULT ("host_alloc", cudaErrorMemoryAllocation)) != cudaSuccess
        || (err = cudaMallocHost (&st.up_staging[i], CUDA_STAGING_BYTES)) != cudaSuccess
        || (err = cudaMallocHost (&st.down_staging[i], CUDA_STAGING_BYTES)) != cudaSuccess
        || (err = cudaEventCreateWithFlags (&st.up_free[i], cudaEventDisableTiming)) != cudaSuccess
        || (err = cudaEventCreateWithFlags (&st.down_full[i], cudaEventDisableTiming)) != cudaSuccess
        || (err = cudaEventCreateWithFlags (&st.uploaded[i], cudaEventDisableTiming)) != cudaSuccess
        || (err = cudaEventCreateWithFlags (&st.computed[i], cudaEventDisableTiming)) != cudaSuccess)
      {
        cudaGetLastError ();
        cuda_engine_release ();
        st.tried = 1;
        set_status ("pinned staging memory and events", err);
        return 0;
      }
  /* device arrays come from the stream-ordered pool, which keeps what they give back up
     to a threshold: allocating a result costs microseconds, not a fresh mapping */
  int pools = 0;
  if (cudaDeviceGetAttribute (&pools, cudaDevAttrMemoryPoolsSupported, 0) == cudaSuccess && pools
      && cudaDeviceGetDefaultMemPool (&st.pool, 0) == cudaSuccess)
    {
      uint64_t keep = (uint64_t) ((double) st.prop.totalGlobalMem * CUDA_POOL_KEEP_FRACTION);
      if (cudaMemPoolSetAttribute (st.pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess)
        st.pool = NULL;
    }
  cudaGetLastError ();
  st.usable = 1;
  /* one tiny scan: a GPU too old for the compiled architectures fails here, once */
  scan_desc probe = { 0 };
  probe.type = SCAN_DOUBLE;
  probe.op = SCAN_SUM;
  probe.inner = probe.len = probe.outer = 1;
  if ((err = reserve (&st.x, 256, 0)) != cudaSuccess
      || (err = reserve (&st.work, gsk_workspace_bytes (st.kernels, &probe, GSK_DECOUPLED), 1)) != cudaSuccess)
    {
      set_status ("device memory", err);
      cuda_engine_release ();
      st.tried = 1;
      return 0;
    }
  probe.x = probe.y = st.x.p;
  err = launch_scan (&probe, GSK_DECOUPLED);
  if (err == cudaSuccess)
    err = wait_stream ();
  if (err != cudaSuccess)
    {
      char why[200];
      snprintf (why, sizeof why, "the GPU (%.80s, sm_%d%d) cannot run this build (sm %.40s)",
                st.prop.name, st.prop.major, st.prop.minor, GPUSCAN_CUDA_ARCHS);
      cuda_engine_release ();
      st.tried = 1;
      set_status (why, err);
      return 0;
    }
  snprintf (st.status, sizeof st.status, "ok");
  return 1;
}

/* what the pool keeps that no device array uses */
static size_t pool_idle_bytes (void)
{
  uint64_t reserved = 0, used = 0;
  if (! st.pool
      || cudaMemPoolGetAttribute (st.pool, cudaMemPoolAttrReservedMemCurrent, &reserved) != cudaSuccess
      || cudaMemPoolGetAttribute (st.pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess)
    return 0;
  return (size_t) (reserved - used);
}

void cuda_engine_info (cuda_info *info)
{
  init ();
  memset (info, 0, sizeof *info);
  snprintf (info->status, sizeof info->status, "%s", st.status);
  cudaDriverGetVersion (&info->driver_version);
  cudaRuntimeGetVersion (&info->runtime_version);
  if (! st.usable)
    return;
  info->usable = 1;
  snprintf (info->name, sizeof info->name, "%s", st.prop.name);
  info->cc_major = st.prop.major;
  info->cc_minor = st.prop.minor;
  info->mem_bytes = (double) st.prop.totalGlobalMem;
  info->held_bytes = (double) (held_bytes () + 4 * CUDA_STAGING_BYTES + pool_idle_bytes ());
  gsk_context_describe (st.kernels, info->tuning, sizeof info->tuning);
}

/* host copies use every core: one thread cannot keep up with the PCIe link */
typedef struct copy_job { char *dst; const char *src; size_t bytes, piece; } copy_job;

static void copy_piece (void *ctx, int64_t i)
{
  const copy_job *c = ctx;
  const size_t off = (size_t) i * c->piece;
  memcpy (c->dst + off, c->src + off, off + c->piece <= c->bytes ? c->piece : c->bytes - off);
}

static void host_copy (void *dst, const void *src, size_t bytes)
{
  if (bytes < CUDA_PAR_COPY_MIN)
    {
      memcpy (dst, src, bytes);
      return;
    }
  /* pieces that the pool's threads claim (a thread that comes late leaves its share to
     the others): at least 64 KiB, 64 of them in all */
  size_t piece = bytes / 64;
  piece = piece < ((size_t) 64 << 10) ? (size_t) 64 << 10 : piece;
  copy_job c = { dst, src, bytes, piece };
  work_pool_for ((int64_t) ((bytes + piece - 1) / piece), copy_piece, &c);
}

/* bytes [off, off + n) of a move's contiguous engine image to or from buf */
static void move_copy (const chunk_move *m, size_t off, size_t n, char *buf, int to_buf)
{
  if (! m->pitch || m->pitch == m->row_bytes)
    {
      if (to_buf)
        host_copy (buf, m->host + off, n);
      else
        host_copy (m->host + off, buf, n);
      return;
    }
  while (n)
    {
      const size_t r = off / m->row_bytes, in = off % m->row_bytes;
      const size_t k = m->row_bytes - in < n ? m->row_bytes - in : n;
      char *host = m->host + r * m->pitch + in;
      if (to_buf)
        host_copy (buf, host, k);
      else
        host_copy (host, buf, k);
      buf += k;
      off += k;
      n -= k;
    }
}

/* the moves of one direction, cut into pieces of at most one staging buffer */
typedef struct piece_cursor { const chunk_moves *ms; int i; size_t off; } piece_cursor;
typedef struct piece { const chunk_move *m; size_t off, n; } piece;

static int next_piece (piece_cursor *c, piece *p)
{
  for (; c->ms && c->i < c->ms->count; c->i++, c->off = 0)
    {
      const chunk_move *m = &c->ms->m[c->i];
      const size_t bytes = m->row_bytes * (size_t) m->rows;
      if (c->off < bytes)
        {
          p->m = m;
          p->off = c->off;
          p->n = bytes - c->off < CUDA_STAGING_BYTES ? bytes - c->off : CUDA_STAGING_BYTES;
          c->off += p->n;
          return 1;
        }
    }
  return 0;
}

/* queue the next piece of the way out into down_staging[*issued & 1] */
static cudaError_t issue_download (piece_cursor *c, piece ring[2], int *issued)
{
  piece *p = &ring[*issued & 1];
  if (! next_piece (c, p))
    return cudaSuccess;
  cudaError_t err = cudaMemcpyAsync (st.down_staging[*issued & 1], (const char *) p->m->engine + p->off,
                                     p->n, cudaMemcpyDeviceToHost, st.down);
  if (err == cudaSuccess)
    err = cudaEventRecord (st.down_full[*issued & 1], st.down);
  ++*issued;
  return err;
}

/* Copies put into the device and get out of it at once (chunk_backend.transfer): the host
   threads alternate between filling an upload staging buffer and draining a download
   one, while the copy engines of both directions and the scans queued before run.  A
   slot of -1 waits for nothing. */
static cudaError_t transfer (const chunk_moves *put, const chunk_moves *get)
{
  cudaError_t err = cudaSuccess;
  if (put && put->slot >= 0)
    err = cudaStreamWaitEvent (st.up, st.computed[put->slot], 0);
  if (err == cudaSuccess && get && get->slot >= 0)
    err = cudaStreamWaitEvent (st.down, st.computed[get->slot], 0);
  piece_cursor up = { put, 0, 0 }, down = { get, 0, 0 };
  piece ring[2], p;
  int issued = 0, drained = 0, ub = 0;
  for (int i = 0; i < 2 && err == cudaSuccess; i++)
    err = issue_download (&down, ring, &issued);
  while (err == cudaSuccess)
    {
      const int more_up = next_piece (&up, &p);
      if (more_up)
        {
          if ((err = cudaEventSynchronize (st.up_free[ub])) != cudaSuccess)
            break;
          move_copy (p.m, p.off, p.n, st.up_staging[ub], 1);
          err = cudaMemcpyAsync ((char *) p.m->engine + p.off, st.up_staging[ub], p.n,
                                 cudaMemcpyHostToDevice, st.up);
          if (err == cudaSuccess)
            err = cudaEventRecord (st.up_free[ub], st.up);
          ub ^= 1;
        }
      if (err == cudaSuccess && drained < issued)
        {
          const int b = drained & 1;
          if ((err = cudaEventSynchronize (st.down_full[b])) != cudaSuccess)
            break;
          move_copy (ring[b].m, ring[b].off, ring[b].n, st.down_staging[b], 0);
          drained++;
          err = issue_download (&down, ring, &issued);
        }
      else if (! more_up)
        break;
    }
  if (err == cudaSuccess && put && put->slot >= 0)
    err = cudaEventRecord (st.uploaded[put->slot], st.up);
  return err;
}

static cudaError_t upload (void *dev, const void *host, size_t bytes)
{
  chunk_moves m = { -1, 1, { { dev, (char *) host, bytes, 0, 1 } } };
  return transfer (&m, NULL);
}

static cudaError_t download (void *host, const void *dev, size_t bytes)
{
  chunk_moves m = { -1, 1, { { (void *) dev, host, bytes, 0, 1 } } };
  return transfer (NULL, &m);
}

/* ---- the chunk driver's CUDA backend ----------------------------------------------- */
typedef struct chunk_ctx { gsk_algorithm a; cudaError_t err; } chunk_ctx;

static int chunk_status (chunk_ctx *c, cudaError_t err)
{
  c->err = err;
  return err != cudaSuccess;
}

static int chunk_transfer (void *ctx, const chunk_moves *put, const chunk_moves *get)
{
  return chunk_status (ctx, transfer (put, get));
}

/* device work of a slot: marks the slot's `computed` event after it */
static cudaError_t slot_done (int slot, cudaError_t err)
{
  return err != cudaSuccess ? err : cudaEventRecord (st.computed[slot], st.stream);
}

static int chunk_copy (void *ctx, int slot, void *dst, const void *src, size_t bytes)
{
  return chunk_status (ctx, slot_done (slot, cudaMemcpyAsync (dst, src, bytes,
                                                             cudaMemcpyDeviceToDevice, st.stream)));
}

static int chunk_scan (void *ctx, int slot, const scan_desc *d)
{
  chunk_ctx *c = ctx;
  cudaError_t err = cudaStreamWaitEvent (st.stream, st.uploaded[slot], 0);
  return chunk_status (c, slot_done (slot, err != cudaSuccess ? err
                                                               : launch_scan (d, c->a)));
}

static int chunk_widen (void *ctx, int slot, scan_type from, scan_type to, const void *x,
                        void *y, int64_t n)
{
  cudaError_t err = cudaStreamWaitEvent (st.stream, st.uploaded[slot], 0);
  return chunk_status (ctx, slot_done (slot, err != cudaSuccess ? err
                                                               : gsk_convert (st.kernels, from, to, x, y, n,
                                                                              st.stream)));
}

static int chunk_fix_index (void *ctx, int slot, double *index, int64_t lanes, int64_t steps,
                            double carry_pos, const double *carry_index, double shift)
{
  return chunk_status (ctx, slot_done (slot, gsk_fix_index (st.kernels, index, lanes, steps, carry_pos,
                                                            carry_index, shift, st.stream)));
}

/* the most elements per chunk that two slots of buffers fit in mem bytes */
static int64_t chunk_fit (const scan_desc *d, size_t mem)
{
  const size_t es = scan_type_size (d->type);
  const size_t narrow = chunk_x_in_bytes (d);
  const size_t per = 2 * es + narrow + (d->index ? 8 : 0) + (d->heads ? 1 : 0)
                     + (d->op == SCAN_RECURRENCE && ! d->coef_scalar ? es : 0);
  const size_t usable = mem > 2 * CUDA_MEMORY_RESERVE ? mem - 2 * CUDA_MEMORY_RESERVE : 0;
  const int64_t n = (int64_t) (usable / 4 / per);   /* two slots, and room for the workspace */
  return n < CUDA_MIN_CHUNK_ELEMENTS ? CUDA_MIN_CHUNK_ELEMENTS : n;
}

/* the largest scan a chunk of `chunk` elements makes of d (lanes x steps, or slabs) */
static scan_desc largest_chunk (const scan_desc *d, int64_t chunk)
{
  scan_desc big = *d;
  if (d->inner * d->len <= chunk)
    big.outer = chunk / (d->inner * d->len);
  else
    {
      big.inner = d->inner < chunk ? d->inner : chunk;
      big.len = chunk_buffer_elements (d, chunk) / big.inner;
      big.outer = 1;
    }
  return big;
}

/* The scan of host arrays on the GPU, through the chunk pipeline (chunked_scan.h) in
   chunks of `chunk` elements; an array of one chunk uses one slot of buffers. */
static engine_status gpu_run_chunked (const scan_desc *d, gsk_algorithm a, int64_t chunk,
                                      char *msg, size_t msg_size)
{
  const int64_t m = chunk_buffer_elements (d, chunk);
  const size_t es = scan_type_size (d->type);
  /* the workspace of the largest chunk scan */
  const scan_desc big = largest_chunk (d, chunk);
  const size_t heads_bytes = (size_t) (m > d->len ? m : d->len);
  const int slots = scan_numel (d) <= chunk ? 1 : 2;
  device_buffer *slot_buffers[2][5] = { { &st.x, &st.y, &st.ix, &st.heads, &st.xn },
                                        { &st.x2, &st.y2, &st.ix2, &st.heads2, &st.xn2 } };
  const size_t narrow = chunk_x_in_bytes (d);
  cudaError_t err = cudaSuccess;
  for (int s = 0; s < slots && err == cudaSuccess; s++)
    if ((err = reserve (slot_buffers[s][0], (size_t) m * es, 0)) != cudaSuccess
        || (err = reserve (slot_buffers[s][1], (size_t) m * es, 0)) != cudaSuccess
        || (narrow && (err = reserve (slot_buffers[s][4], (size_t) m * narrow, 0)) != cudaSuccess)
        || (d->index && (err = reserve (slot_buffers[s][2], (size_t) m * 8, 0)) != cudaSuccess)
        || (d->heads && (err = reserve (slot_buffers[s][3], heads_bytes, 0)) != cudaSuccess))
      break;
  if (err != cudaSuccess
      || (d->op == SCAN_RECURRENCE
          && (err = reserve (&st.coef, (size_t) (d->coef_scalar ? 1 : m) * es, 0)) != cudaSuccess)
      || (d->index && (err = reserve (&st.carry, (size_t) big.inner * 8, 0)) != cudaSuccess)
      || (err = reserve (&st.work, gsk_workspace_bytes (st.kernels, &big, a), 1)) != cudaSuccess)
    {
      release_buffers ();
      snprintf (msg, msg_size, "GPU memory for chunks of %lld elements: %s", (long long) chunk,
                cudaGetErrorString (err));
      return ENGINE_NO_MEMORY;
    }
  chunk_ctx ctx = { a, cudaSuccess };
  chunk_backend b = { 0 };
  b.ctx = &ctx;
  for (int s = 0; s < 2; s++)
    {
      const int bs = s < slots ? s : 0;
      b.slot[s].in = slot_buffers[bs][0]->p;
      b.slot[s].out = slot_buffers[bs][1]->p;
      b.slot[s].index = slot_buffers[bs][2]->p;
      b.slot[s].heads = slot_buffers[bs][3]->p;
      b.slot[s].x_in = slot_buffers[bs][4]->p;
      b.slot[s].coef = st.coef.p;   /* (only scans of one chunk have coefficients) */
    }
  b.carry_index = st.carry.p;
  b.transfer = chunk_transfer;
  b.copy = chunk_copy;
  b.scan = chunk_scan;
  b.fix_index = chunk_fix_index;
  b.widen = chunk_widen;
  if (chunked_scan (d, chunk, &b) != 0 || (err = wait_stream ()) != cudaSuccess)
    {
      char what[64];
      snprintf (what, sizeof what, "%s scan", scan_type_name (d->type));
      return gpu_failed (ctx.err != cudaSuccess ? ctx.err : err, what, msg, msg_size);
    }
  return ENGINE_OK;
}

/* Host arrays go through the GPU in chunks of CUDA_PIPELINE_CHUNK_ELEMENTS (or the
   settings' size, for tests), smaller where the GPU's free memory asks for it: bounded
   device memory for any size.  Scans whose state an element cannot carry go through in
   one chunk (cuda_engine_covers: where the GPU's memory holds it). */
static void plan_chunks (const scan_desc *d, const cuda_settings *set, cuda_plan *p)
{
  int64_t chunk = chunk_elements_for (d, set->chunk ? set->chunk : CUDA_PIPELINE_CHUNK_ELEMENTS);
  const int64_t fit = chunk_fit (d, free_memory () + held_bytes ());
  if (chunk > fit)
    {
      /* the buffers held go back, and chunks of what fits are taken (a scan of one
         chunk: still the whole array) */
      p->release_first = 1;
      chunk = chunk_elements_for (d, fit);
      p->fits = chunk <= fit;
    }
  p->chunk = chunk;
  p->chunks = (scan_numel (d) + chunk - 1) / chunk;
}

/* ---- device arrays ----------------------------------------------------------------- */

int cuda_engine_ready (void)
{
  return init ();
}

const char *cuda_engine_status (void)
{
  init ();
  return st.status;
}

/* the device-array calls start the engine again after a reset */
static engine_status need_gpu (char *msg, size_t msg_size)
{
  if (init ())
    return ENGINE_OK;
  snprintf (msg, msg_size, "no usable GPU: %s", st.status);
  return ENGINE_NO_GPU;
}
#define NEED_GPU()                                                                    \
  do {                                                                                \
    const engine_status s_ = need_gpu (msg, msg_size);                               \
    if (s_ != ENGINE_OK)                                                              \
      return s_;                                                                      \
  } while (0)

int cuda_engine_kernels_cover (const scan_desc *d)
{
  return gsk_supports (d);
}

int cuda_engine_reads_input (const scan_desc *d, const cuda_plan *p)
{
  return gsk_reads_input (st.kernels, d, (gsk_algorithm) p->kernels_algorithm);
}

int cuda_engine_covers (const scan_desc *d)
{
  /* host arrays cross in chunks whose carry is an element (chunked_scan.h): the scans
     whose state an element does not hold cross in one chunk, where the GPU's memory
     holds one (its whole memory: the choice depends on the call alone, as "reproducible"
     asks), else take the CPU engine; device arrays (cuda_engine_scan_resident) scan in
     one piece */
  return init () && gsk_supports (d)
         && (chunk_carry_fits (d) || scan_numel (d) <= chunk_fit (d, st.prop.totalGlobalMem));
}

/* The kernels' context with the settings' tuning table and device limits (tests ask for
   another architecture's): made anew where they changed.  A new context knows nothing of
   the workspace, so the buffers start afresh (zeroed).  ENGINE_BAD_SETTING, and why, for
   a name the kernels do not know. */
static engine_status use_settings (const cuda_settings *set, char *msg, size_t msg_size)
{
  const char *tuning = set->tuning ? set->tuning : "";
  const char *limits = set->device_limits ? set->device_limits : "";
  if (! strcmp (tuning, st.kernels_tuning) && ! strcmp (limits, st.kernels_limits))
    return ENGINE_OK;
  char why[200] = "";
  gsk_context *c = gsk_context_new (tuning, limits, why, sizeof why);
  if (! c)
    {
      snprintf (msg, msg_size, "GPUSCAN_TUNING=\"%.40s\", GPUSCAN_DEVICE_LIMITS=\"%.40s\": %s",
                tuning, limits, why);
      return ENGINE_BAD_SETTING;
    }
  wait_stream ();
  release_buffers ();
  gsk_context_free (st.kernels);
  st.kernels = c;
  snprintf (st.kernels_tuning, sizeof st.kernels_tuning, "%s", tuning);
  snprintf (st.kernels_limits, sizeof st.kernels_limits, "%s", limits);
  return ENGINE_OK;
}
#define USE_SETTINGS()                                                                \
  do {                                                                                \
    const engine_status s_ = use_settings (set, msg, msg_size);                      \
    if (s_ != ENGINE_OK)                                                              \
      return s_;                                                                      \
  } while (0)

/* the kernels' algorithm for a: "auto" asks the kernels (a reproducible scan of a long
   vector takes a fixed tree) */
static gsk_algorithm kernels_algorithm (const scan_desc *d, scan_algorithm a)
{
  return a == ALG_AUTO ? gsk_auto_algorithm (st.kernels, d) : gsk_of[a];
}

engine_status cuda_engine_plan (const scan_desc *d, scan_algorithm a, const cuda_settings *set,
                                int resident, cuda_plan *p, char *msg, size_t msg_size)
{
  memset (p, 0, sizeof *p);
  NEED_GPU ();
  USE_SETTINGS ();
  p->kernels_algorithm = kernels_algorithm (d, a);
  p->resident = resident;
  p->fits = 1;
  if (! resident)
    plan_chunks (d, set, p);
  return ENGINE_OK;
}

void cuda_engine_describe (const scan_desc *d, const cuda_plan *p, char *buf, size_t size)
{
  static const char *const names[GSK_NALGORITHMS] = {
    "decoupled look-back", "Kogge-Stone", "Brent-Kung", "CUB" };
  const scan_desc big = p->resident ? *d : largest_chunk (d, p->chunk);
  const gsk_algorithm a = (gsk_algorithm) p->kernels_algorithm;
  const int k = snprintf (buf, size, "kernels %s: ", names[gsk_effective_algorithm (&big, a)]);
  if (k >= 0 && (size_t) k < size)
    gsk_describe (st.kernels, &big, a, buf + k, size - k);
}

engine_status cuda_engine_scan (const scan_desc *d, const cuda_plan *p, char *msg,
                                size_t msg_size)
{
  NEED_GPU ();
  if (p->release_first)
    release_buffers ();
  return gpu_run_chunked (d, (gsk_algorithm) p->kernels_algorithm, p->chunk, msg, msg_size);
}

/* device-array memory, from the pool where there is one */
static cudaError_t array_malloc (void **p, size_t bytes)
{
  cudaError_t err = FAULT ("malloc", cudaErrorMemoryAllocation);
  if (err != cudaSuccess)
    return err;
  if (! st.pool)
    return cudaMalloc (p, bytes);
  /* (queued: the copies from the host, on another stream, settle first) */
  return cudaMallocAsync (p, bytes, st.stream);
}

engine_status cuda_engine_alloc (size_t bytes, void **p, char *msg, size_t msg_size)
{
  *p = NULL;
  NEED_GPU ();
  cudaError_t err = array_malloc (p, bytes);
  if (err == cudaErrorMemoryAllocation)
    {
      /* the scan buffers of host calls only grow, the pool keeps what arrays gave back:
         return both and try once more (the compaction's buffer holds its tile offsets
         from the count to the scatter, around this allocation) */
      cudaGetLastError ();
      wait_stream ();
      trim_pool ();
      release_buffers_but (&st.compact);
      err = array_malloc (p, bytes);
    }
  if (err == cudaSuccess)
    return ENGINE_OK;
  *p = NULL;
  cudaGetLastError ();
  if (err == cudaErrorMemoryAllocation)
    {
      size_t free_mem = 0, total_mem = 0;
      cudaMemGetInfo (&free_mem, &total_mem);
      snprintf (msg, msg_size, "%.2f GiB of GPU memory asked for, %.2f GiB free",
                bytes / 1073741824.0, free_mem / 1073741824.0);
      return ENGINE_NO_MEMORY;
    }
  return gpu_failed (err, "cudaMalloc", msg, msg_size);
}

engine_status cuda_engine_wait (char *msg, size_t msg_size)
{
  if (! st.usable)
    return ENGINE_OK;   /* (nothing was queued) */
  const cudaError_t err = settle ();
  return err == cudaSuccess ? ENGINE_OK
                            : gpu_failed (err, "device-array work queued earlier", msg, msg_size);
}

void cuda_engine_free (void *p)
{
  if (! p)
    return;
  if (st.pool)
    cudaFreeAsync (p, st.stream);
  else
    {
      settle ();
      cudaFree (p);
    }
  cudaGetLastError ();   /* an array lost in a device reset: nothing left to free */
}

engine_status cuda_engine_to_device (void *dev, const void *host, size_t bytes, char *msg,
                                     size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = settle ();
  if (err != cudaSuccess)
    return gpu_failed (err, "device-array work queued before the upload", msg, msg_size);
  err = upload (dev, host, bytes);
  if (err == cudaSuccess)
    err = wait_stream ();
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "upload", msg, msg_size);
}

engine_status cuda_engine_to_host (void *host, const void *dev, size_t bytes, char *msg,
                                   size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = settle ();
  if (err != cudaSuccess)
    return gpu_failed (err, "device-array work queued before the download", msg, msg_size);
  err = download (host, dev, bytes);
  if (err == cudaSuccess)
    err = wait_stream ();
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "download", msg, msg_size);
}

engine_status cuda_engine_copy (void *dst, const void *src, size_t bytes, char *msg,
                                size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = cudaMemcpyAsync (dst, src, bytes, cudaMemcpyDeviceToDevice, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "copy", msg, msg_size);
}

engine_status cuda_engine_scan_resident (const scan_desc *d, const cuda_plan *p, char *msg,
                                         size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = launch_scan (d, (gsk_algorithm) p->kernels_algorithm);
  if (err == cudaErrorMemoryAllocation)   /* (only the workspace is allocated there) */
    {
      snprintf (msg, msg_size, "GPU memory for the scan's workspace: %s",
                cudaGetErrorString (err));
      return ENGINE_NO_MEMORY;
    }
  if (err == cudaSuccess)
    return ENGINE_OK;
  char what[64];
  snprintf (what, sizeof what, "%s scan", scan_type_name (d->type));
  return gpu_failed (err, what, msg, msg_size);
}

engine_status cuda_engine_convert (scan_type from, scan_type to, const void *x, void *y,
                                   int64_t n, char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = gsk_convert (st.kernels, from, to, x, y, n, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "class conversion", msg, msg_size);
}

engine_status cuda_engine_elementwise (const elementwise_desc *d, char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = gsk_elementwise (st.kernels, d, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "element-wise operation", msg, msg_size);
}

engine_status cuda_engine_trace (trace_algorithm a, int padded, const double *x, int n,
                                 double *rows, int nsteps, char *msg, size_t msg_size)
{
  NEED_GPU ();
  const size_t xb = (size_t) n * sizeof (double), rb = xb * (size_t) (nsteps + 1);
  void *dx = NULL, *drows = NULL;
  cudaError_t err = settle ();
  if (err == cudaSuccess)
    err = device_malloc (&dx, xb);
  if (err == cudaSuccess)
    err = device_malloc (&drows, rb);
  if (err == cudaSuccess)
    err = cudaMemcpy (dx, x, xb, cudaMemcpyHostToDevice);
  if (err == cudaSuccess)
    err = cudaMemcpy (drows, x, xb, cudaMemcpyHostToDevice);   /* row 0: the array as loaded */
  if (err == cudaSuccess)
    err = gsk_trace (a, padded, dx, n, drows, st.stream);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (rows, drows, rb, cudaMemcpyDeviceToHost, st.stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (st.stream);
  cudaFree (dx);
  cudaFree (drows);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "trace", msg, msg_size);
}

engine_status cuda_engine_flags (scan_type t, const void *x, uint8_t *flags, int64_t n,
                                 int *nan_seen, char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = reserve (&st.compact, sizeof (int), 1);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (st.compact.p, 0, sizeof (int), st.stream);
  if (err == cudaSuccess)
    err = gsk_nonzero_flags (st.kernels, t, x, flags, n, (int *) st.compact.p, st.stream);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync (nan_seen, st.compact.p, sizeof (int), cudaMemcpyDeviceToHost,
                           st.stream);
  if (err == cudaSuccess)
    err = wait_stream ();
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "head flags", msg, msg_size);
}

engine_status cuda_engine_group_order (const double *keys, int64_t n, int64_t *order,
                                       uint8_t *heads, char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = reserve (&st.groups, gsk_group_order_workspace_bytes (n), 0);
  if (err == cudaSuccess)
    err = gsk_group_order (st.kernels, keys, n, order, heads, st.groups.p, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "the groups' order", msg, msg_size);
}

engine_status cuda_engine_permute (size_t elem_bytes, const void *x, void *y, int64_t inner,
                                   int64_t len, int64_t outer, const int64_t *order,
                                   int scatter, int index_map, char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = gsk_permute (st.kernels, elem_bytes, x, y, inner, len, outer, order,
                                 scatter, index_map, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "the groups' moves", msg, msg_size);
}

engine_status cuda_engine_label_range (const double *keys, int64_t n, int64_t *lo,
                                       int64_t *hi, int *whole, char *msg, size_t msg_size)
{
  NEED_GPU ();
  gsk_label_range r = { 0, 0, 0 };
  cudaError_t err = reserve (&st.groups, 256, 0);
  if (err == cudaSuccess)
    err = gsk_label_range_of (st.kernels, keys, n, &r, st.groups.p, st.stream);
  *lo = r.lo;
  *hi = r.hi;
  *whole = ! r.wide;
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "the labels' range", msg, msg_size);
}

int cuda_engine_label_scan_supports (const scan_desc *d, long long span)
{
  return st.kernels && gsk_label_scan_supports (st.kernels, d, span);
}

void cuda_engine_label_scan_describe (const scan_desc *d, long long span, char *buf,
                                      size_t size)
{
  if (st.kernels)
    gsk_label_scan_describe (st.kernels, d, span, buf, size);
  else
    snprintf (buf, size, "no GPU");
}

engine_status cuda_engine_label_scan (const scan_desc *d, const double *keys, int64_t lo,
                                      int64_t span, char *msg, size_t msg_size)
{
  NEED_GPU ();
  const size_t bytes = gsk_label_scan_workspace_bytes (st.kernels, d, span);
  cudaError_t err = reserve (&st.groups, bytes, 0);
  if (err == cudaErrorMemoryAllocation)
    {
      snprintf (msg, msg_size, "GPU memory for the label tiles' workspace: %s",
                cudaGetErrorString (err));
      return ENGINE_NO_MEMORY;
    }
  if (err == cudaSuccess)
    err = gsk_label_scan (st.kernels, d, keys, lo, span, st.groups.p, bytes, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "the label tiles", msg, msg_size);
}

engine_status cuda_engine_compact_count (const uint8_t *mask, int64_t n, int64_t *kept,
                                         char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = reserve (&st.compact, gsk_compact_workspace_bytes (n), 1);
  if (err == cudaSuccess)
    err = gsk_compact_count (st.kernels, mask, n, st.compact.p, kept, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "compaction", msg, msg_size);
}

engine_status cuda_engine_compact_scatter (size_t elem_bytes, const void *x,
                                           const uint8_t *mask, int64_t n, void *y,
                                           char *msg, size_t msg_size)
{
  NEED_GPU ();
  cudaError_t err = gsk_compact_scatter (elem_bytes, x, mask, n, y, st.compact.p, st.stream);
  if (err == cudaSuccess)
    err = wait_stream ();
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "compaction", msg, msg_size);
}

int cuda_engine_filter_supports (const filter_desc *d)
{
  return gsk_filter_supports (d);
}

engine_status cuda_engine_filter (const filter_desc *d, char *msg, size_t msg_size)
{
  NEED_GPU ();
  if (! cuda_engine_filter_supports (d))
    {
      snprintf (msg, msg_size, "no GPU filter of order %d %s data", d->order,
                scan_type_name (d->type));
      return ENGINE_UNSUPPORTED;
    }
  cudaError_t err = reserve (&st.filter, gsk_filter_workspace_bytes (d), 0);
  if (err == cudaErrorMemoryAllocation)
    {
      snprintf (msg, msg_size, "GPU memory for the filter's workspace: %s",
                cudaGetErrorString (err));
      return ENGINE_NO_MEMORY;
    }
  if (err == cudaSuccess)
    err = gsk_filter (st.kernels, d, st.filter.p, st.filter.bytes, st.stream);
  return err == cudaSuccess ? ENGINE_OK : gpu_failed (err, "filter", msg, msg_size);
}

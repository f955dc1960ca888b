/* The CPU scan algorithm, written once: CPU_SCAN_DEFINE_FROM (NAME, TX, T, P) generates
   the functions that read elements of type TX, each converted to T as it is read (no
   converted copy of the input), and write elements of type T, for the operator whose
   state functions are prefixed P (CPU_SCAN_DEFINE (NAME, T, P): TX is T):
     P##_t                state ("aggregate") type
     P##_identity ()      the state of an empty scan
     P##_lift (x, k)      the state of element x at position k (0-based, along dim)
     P##_combine (a, b)   the state of a followed by b
     P##_emit (a, y, ix)  write state a's output to *y, and its 1-based index to *ix
                          when ix is not NULL
     P##_emit_before (a, y, ix)   the same for an exclusive scan's output (a sum of no
                          elements is +0, as Octave's sum ([]), where the state says -0)
     P##_grouped          1 where combining in groups pays and is allowed: float sums,
                          whose order is not Octave's anyway; 0 keeps the element order */
#ifndef GPUSCAN_CPU_SCAN_BODY_H
#define GPUSCAN_CPU_SCAN_BODY_H

#define CPU_SCAN_DEFINE(NAME, T, P) CPU_SCAN_DEFINE_FROM (NAME, T, T, P)

#define CPU_SCAN_DEFINE_FROM(NAME, TX, T, P) \
/* Scan lanes [l0, l0 + nl) of slice o over logical steps [k0, k1), starting from \
   state[] (one per lane) and leaving the final states there.  With emit == 0 it only \
   reduces: state[] then holds the aggregate after the range's last head, and head[] \
   says whether the range held a head for that lane.  With emit and agg[], it also \
   reduces into agg[] (from the identity, as emit == 0 would), in the same pass. */ \
static void scan_panel_##NAME (const scan_desc *d, int64_t o, int64_t l0, int64_t nl, \
                               int64_t k0, int64_t k1, P##_t *state, P##_t *agg, \
                               uint8_t *head, int emit) \
{ \
  /* locals, not d->: the output could alias *d as far as the compiler knows */ \
  const TX *const x = (const TX *) d->x; \
  T *const y = (T *) d->y; \
  double *const ix = d->index; \
  const int64_t inner = d->inner, len = d->len; \
  const int reverse = d->reverse, exclusive = d->exclusive; \
  const uint8_t *const heads = d->heads; \
  const int heads_full = d->heads_full; \
  if (nl == 1 && ! heads && (! exclusive || P##_grouped)) \
    { \
      /* the common case: one unsegmented line, state in registers (an exclusive one \
         here only where grouped: the others keep the general loop's order) */ \
      P##_t s = state[0], a = agg ? agg[0] : P##_identity (); \
      const int64_t step = reverse ? -inner : inner; \
      int64_t at = l0 + inner * ((reverse ? len - 1 - k0 : k0) + len * o), k = k0; \
      if (P##_grouped) \
        /* groups of CPU_GROUP steps from k0: a group's own prefix does not wait for \
           the running state, so the core overlaps the groups, and the state takes one \
           dependent step a group, not one an element.  The groups start at k0 (a \
           block's start), whatever the threads: the order of a float sum is fixed. \
           The aggregate (agg[], or the state with emit == 0) folds the same group \
           totals, so that every way of reducing a block gives the same bits. */ \
        for (; k + CPU_GROUP <= k1; k += CPU_GROUP, at += CPU_GROUP * step) \
          { \
            P##_t g[CPU_GROUP]; \
            g[0] = P##_lift (x[at], reverse ? len - 1 - k : k); \
_Pragma ("GCC unroll 8") \
            for (int j = 1; j < CPU_GROUP; j++) \
              g[j] = P##_combine (g[j - 1], P##_lift (x[at + j * step], \
                                                      reverse ? len - 1 - k - j : k + j)); \
            if (emit && exclusive) \
              { \
                P##_emit_before (s, &y[at], ix ? &ix[at] : NULL); \
_Pragma ("GCC unroll 8") \
                for (int j = 1; j < CPU_GROUP; j++) \
                  P##_emit_before (P##_combine (s, g[j - 1]), &y[at + j * step], \
                                   ix ? &ix[at + j * step] : NULL); \
              } \
            else if (emit) \
_Pragma ("GCC unroll 8") \
              for (int j = 0; j < CPU_GROUP; j++) \
                P##_emit (P##_combine (s, g[j]), &y[at + j * step], \
                          ix ? &ix[at + j * step] : NULL); \
            s = P##_combine (s, g[CPU_GROUP - 1]); \
            if (agg) \
              a = P##_combine (a, g[CPU_GROUP - 1]); \
          } \
      if (emit && exclusive) \
        for (; k < k1; k++, at += step) \
          { \
            /* x is read before y is written: the scan may run in place */ \
            const P##_t e = P##_lift (x[at], reverse ? len - 1 - k : k); \
            P##_emit_before (s, &y[at], ix ? &ix[at] : NULL); \
            s = P##_combine (s, e); \
            a = P##_combine (a, e); \
          } \
      else if (emit && agg) \
        /* two chains of dependent steps side by side: the second is nearly free */ \
        for (; k < k1; k++, at += step) \
          { \
            const P##_t e = P##_lift (x[at], reverse ? len - 1 - k : k); \
            s = P##_combine (s, e); \
            a = P##_combine (a, e); \
            P##_emit (s, &y[at], ix ? &ix[at] : NULL); \
          } \
      else if (emit) \
        for (; k < k1; k++, at += step) \
          { \
            s = P##_combine (s, P##_lift (x[at], reverse ? len - 1 - k : k)); \
            P##_emit (s, &y[at], ix ? &ix[at] : NULL); \
          } \
      else \
        for (; k < k1; k++, at += step) \
          s = P##_combine (s, P##_lift (x[at], reverse ? len - 1 - k : k)); \
      state[0] = s; \
      if (agg) \
        agg[0] = a; \
      return; \
    } \
  if (nl > 1 && ! heads && ! exclusive && emit) \
    { \
      /* lanes side by side without segments: a step is one contiguous row, and the \
         loop over it vectorizes (state[] and agg[] start each line as the identity, \
         so the reset at k == 0 changes nothing) */ \
      for (int64_t k = k0; k < k1; k++) \
        { \
          const int64_t kk = reverse ? len - 1 - k : k; \
          const TX *const xr = x + inner * (kk + len * o) + l0; \
          T *const yr = y + inner * (kk + len * o) + l0; \
          double *const ixr = ix ? ix + inner * (kk + len * o) + l0 : NULL; \
          if (agg) \
_Pragma ("GCC ivdep") \
            for (int64_t l = 0; l < nl; l++) \
              { \
                const P##_t e = P##_lift (xr[l], kk); \
                state[l] = P##_combine (state[l], e); \
                agg[l] = P##_combine (agg[l], e); \
                P##_emit (state[l], &yr[l], ixr ? &ixr[l] : NULL); \
              } \
          else \
_Pragma ("GCC ivdep") \
            for (int64_t l = 0; l < nl; l++) \
              { \
                state[l] = P##_combine (state[l], P##_lift (xr[l], kk)); \
                P##_emit (state[l], &yr[l], ixr ? &ixr[l] : NULL); \
              } \
        } \
      return; \
    } \
  for (int64_t k = k0; k < k1; k++) \
    { \
      const int64_t kk = reverse ? len - 1 - k : k;      /* physical position */ \
      const int64_t base = inner * (kk + len * o); \
      /* a reverse scan starts a segment at the element before a head */ \
      const int64_t hk = reverse ? kk + 1 : kk; \
      const uint8_t *hrow = NULL; \
      int starts_all = (k == 0); \
      if (! starts_all && heads) \
        { \
          if (heads_full) \
            hrow = heads + inner * (hk + len * o); \
          else \
            starts_all = heads[hk]; \
        } \
      for (int64_t l = l0; l < l0 + nl; l++) \
        { \
          P##_t s = state[l - l0]; \
          if (starts_all || (hrow && hrow[l])) \
            { \
              s = P##_identity (); \
              if (head) \
                head[l - l0] = 1; \
              if (agg) \
                agg[l - l0] = P##_identity (); \
            } \
          const int64_t at = base + l; \
          if (emit && agg) \
            agg[l - l0] = P##_combine (agg[l - l0], P##_lift (x[at], kk)); \
          if (! emit) \
            s = P##_combine (s, P##_lift (x[at], kk)); \
          else if (exclusive) \
            { \
              /* x is read before y is written: the scan may run in place */ \
              const TX xa = x[at]; \
              P##_emit_before (s, &y[at], ix ? &ix[at] : NULL); \
              s = P##_combine (s, P##_lift (xa, kk)); \
            } \
          else \
            { \
              s = P##_combine (s, P##_lift (x[at], kk)); \
              P##_emit (s, &y[at], ix ? &ix[at] : NULL); \
            } \
          state[l - l0] = s; \
        } \
    } \
} \
 \
/* One lane at a time, no extra memory: the fallback when allocation fails. */ \
static void scan_serial_##NAME (const scan_desc *d) \
{ \
  for (int64_t o = 0; o < d->outer; o++) \
    for (int64_t l = 0; l < d->inner; l++) \
      { \
        P##_t s = P##_identity (); \
        scan_panel_##NAME (d, o, l, 1, 0, d->len, &s, NULL, NULL, 1); \
      } \
} \
 \
/* Lines along k are long and few: each line is cut into blocks of a fixed number of \
   steps (a constant, not a share of the threads: the result does not depend on how \
   many take part), which the threads claim in order.  A thread reduces its block, \
   publishes the aggregate, folds the aggregates of the blocks before it into the \
   block's carry, and scans the block from it while the block is still in its cache. \
   An aggregate not yet published (its thread is slow, or descheduled) is computed \
   again where it is needed, after a short wait: no thread ever waits for another, so \
   a thread that comes late, or never, delays nothing (base/work_pool.h). */ \
typedef struct along_##NAME \
{ \
  const scan_desc *d; \
  int64_t piece, line_blocks, blocks; \
  P##_t *aggs;              /* each block's aggregate, inner states */ \
  uint8_t *agg_heads;       /* ... and whether a head lies in it, per lane */ \
  int *ready;               /* the aggregate is there (atomic) */ \
  int64_t next;             /* the next block to claim (atomic) */ \
} along_##NAME; \
 \
/* the aggregate of block b of line o into agg[], head[] (inner lanes) */ \
static void block_aggregate_##NAME (const along_##NAME *c, int64_t o, int64_t b, P##_t *agg, \
                                    uint8_t *head) \
{ \
  const int64_t inner = c->d->inner, k0 = b * c->piece; \
  const int64_t k1 = k0 + c->piece < c->d->len ? k0 + c->piece : c->d->len; \
  for (int64_t l = 0; l < inner; l++) \
    { \
      agg[l] = P##_identity (); \
      head[l] = 0; \
    } \
  scan_panel_##NAME (c->d, o, 0, inner, k0, k1, agg, NULL, head, 0); \
} \
 \
static void along_job_##NAME (void *ctx) \
{ \
  along_##NAME *c = (along_##NAME *) ctx; \
  const scan_desc *d = c->d; \
  const int64_t inner = d->inner; \
  /* the thread's own: the carry folded up to block `at` of line `line`, a block's \
     state, and an aggregate it computes again */ \
  P##_t *run = (P##_t *) malloc (sizeof (P##_t) * 3 * inner); \
  uint8_t *heads = (uint8_t *) malloc (2 * inner); \
  if (! run || ! heads) \
    { \
      free (run); \
      free (heads); \
      return;   /* (claims nothing: the caller's own call does the work) */ \
    } \
  P##_t *state = run + inner, *again = state + inner; \
  uint8_t *again_head = heads + inner; \
  int64_t line = -1, at = 0; \
  for (;;) \
    { \
      const int64_t id = __atomic_fetch_add (&c->next, 1, __ATOMIC_RELAXED); \
      if (id >= c->blocks) \
        break; \
      const int64_t o = id / c->line_blocks, b = id % c->line_blocks; \
      const int64_t k0 = b * c->piece; \
      const int64_t k1 = k0 + c->piece < d->len ? k0 + c->piece : d->len; \
      P##_t *mine = c->aggs + id * inner; \
      uint8_t *mine_head = c->agg_heads + id * inner; \
      if (line != o || at > b) \
        { \
          for (int64_t l = 0; l < inner; l++) \
            run[l] = P##_identity (); \
          line = o; \
          at = 0; \
        } \
      int64_t have = at; \
      while (have < b && __atomic_load_n (&c->ready[o * c->line_blocks + have], __ATOMIC_ACQUIRE)) \
        have++; \
      /* the carry is not there yet, or another thread has the next block and would \
         wait for this one's aggregate: publish the aggregate first (a second pass \
         over the block, from the cache) */ \
      const int first = have < b || __atomic_load_n (&c->next, __ATOMIC_RELAXED) > id + 1; \
      if (first) \
        { \
          block_aggregate_##NAME (c, o, b, mine, mine_head); \
          __atomic_store_n (&c->ready[id], 1, __ATOMIC_RELEASE); \
        } \
      for (; at < b; at++) \
        { \
          const int64_t j = o * c->line_blocks + at; \
          const P##_t *agg = c->aggs + j * inner; \
          const uint8_t *head = c->agg_heads + j * inner; \
          int ok = 0; \
          for (int spin = 0; spin < CPU_WAIT_POLLS && ! ok; spin++) \
            if (! (ok = __atomic_load_n (&c->ready[j], __ATOMIC_ACQUIRE))) \
              cpu_relax (); \
          if (! ok) \
            { \
              block_aggregate_##NAME (c, o, at, again, again_head); \
              agg = again; \
              head = again_head; \
            } \
          for (int64_t l = 0; l < inner; l++) \
            run[l] = head[l] ? agg[l] : P##_combine (run[l], agg[l]); \
        } \
      for (int64_t l = 0; l < inner; l++) \
        state[l] = run[l]; \
      if (first) \
        scan_panel_##NAME (d, o, 0, inner, k0, k1, state, NULL, NULL, 1); \
      else \
        { \
          /* the carry was there: one pass scans the block and reduces it */ \
          for (int64_t l = 0; l < inner; l++) \
            { \
              mine[l] = P##_identity (); \
              mine_head[l] = 0; \
            } \
          scan_panel_##NAME (d, o, 0, inner, k0, k1, state, mine, mine_head, 1); \
          __atomic_store_n (&c->ready[id], 1, __ATOMIC_RELEASE); \
        } \
    } \
  free (run); \
  free (heads); \
} \
 \
static void scan_along_##NAME (const scan_desc *d, int nthreads) \
{ \
  along_##NAME c = { d }; \
  c.piece = CPU_BLOCK_BYTES / ((int64_t) sizeof (T) * d->inner); \
  if (c.piece < 1) \
    c.piece = 1; \
  c.line_blocks = (d->len + c.piece - 1) / c.piece; \
  c.blocks = c.line_blocks * d->outer; \
  c.aggs = (P##_t *) malloc (sizeof (P##_t) * c.blocks * d->inner); \
  c.agg_heads = (uint8_t *) malloc ((size_t) (c.blocks * d->inner)); \
  c.ready = (int *) calloc ((size_t) c.blocks, sizeof (int)); \
  if (c.aggs && c.agg_heads && c.ready) \
    work_pool_run (along_job_##NAME, &c, nthreads); \
  if (__atomic_load_n (&c.next, __ATOMIC_RELAXED) < c.blocks) \
    scan_serial_##NAME (d);   /* (no memory for the blocks) */ \
  free (c.aggs); \
  free (c.agg_heads); \
  free (c.ready); \
} \
 \
/* Many independent lines (or short ones): threads claim units, each a block of lanes \
   of one slice scanned side by side.  A lane's result does not depend on the lanes \
   beside it, so the block's width may follow the threads: wide rows stream better. */ \
static void scan_unit_##NAME (const scan_desc *d, int64_t u, int64_t lane_block, \
                              P##_t *state) \
{ \
  const int64_t blocks_per_slice = (d->inner + lane_block - 1) / lane_block; \
  const int64_t o = u / blocks_per_slice; \
  const int64_t l0 = (u % blocks_per_slice) * lane_block; \
  const int64_t nl = l0 + lane_block <= d->inner ? lane_block : d->inner - l0; \
  for (int64_t l = 0; l < nl; l++) \
    state[l] = P##_identity (); \
  scan_panel_##NAME (d, o, l0, nl, 0, d->len, state, NULL, NULL, 1); \
} \
 \
typedef struct units_##NAME { const scan_desc *d; int64_t units, lane_block, next; } units_##NAME; \
 \
static void units_job_##NAME (void *ctx) \
{ \
  units_##NAME *c = (units_##NAME *) ctx; \
  P##_t *state = (P##_t *) malloc (sizeof (P##_t) * c->lane_block); \
  if (! state) \
    return;   /* (claims nothing: the caller's own call does the work) */ \
  for (int64_t u; (u = __atomic_fetch_add (&c->next, 1, __ATOMIC_RELAXED)) < c->units; ) \
    scan_unit_##NAME (c->d, u, c->lane_block, state); \
  free (state); \
} \
 \
/* The way a scan runs follows from its shape alone, never from the number of threads, \
   so that its result does not either: few long lines in blocks (scan_along), many \
   lines each by one thread. */ \
static void scan_run_##NAME (const scan_desc *d, int nthreads) \
{ \
  const int64_t inner = d->inner, len = d->len, outer = d->outer; \
  const int64_t narrow = inner < CPU_LANE_BLOCK ? inner : CPU_LANE_BLOCK; \
  if ((inner + narrow - 1) / narrow * outer < CPU_ALONG_UNITS && inner <= CPU_MAX_ALONG_LANES \
      && len * inner * (int64_t) sizeof (T) > CPU_BLOCK_BYTES) \
    { \
      scan_along_##NAME (d, nthreads); \
      return; \
    } \
  /* a slice in as few units as give each thread a few, within the state's budget */ \
  const int64_t wanted = nthreads == 1 ? 1 : (int64_t) CPU_UNITS_PER_THREAD * nthreads; \
  const int64_t cuts = outer >= wanted ? 1 : (wanted + outer - 1) / outer; \
  int64_t lane_block = ((inner + cuts - 1) / cuts + 7) / 8 * 8; \
  const int64_t most = CPU_LANE_STATE_BYTES / (int64_t) sizeof (P##_t); \
  if (lane_block > most) \
    lane_block = most; \
  if (lane_block < narrow) \
    lane_block = narrow; \
  if (lane_block > inner) \
    lane_block = inner; \
  units_##NAME c = { d, (inner + lane_block - 1) / lane_block * outer, lane_block, 0 }; \
  if (nthreads == 1) \
    units_job_##NAME (&c); \
  else \
    work_pool_run (units_job_##NAME, &c, nthreads); \
  if (__atomic_load_n (&c.next, __ATOMIC_RELAXED) < c.units) \
    scan_serial_##NAME (d);   /* (no memory for the states) */ \
}

#endif

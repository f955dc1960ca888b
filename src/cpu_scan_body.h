/* The CPU scan algorithm, written once: CPU_SCAN_DEFINE (NAME, T, P) generates the
   functions for element type T and the operator whose state functions are prefixed P:
     P##_t                state ("aggregate") type
     P##_identity ()      the state of an empty scan
     P##_lift (x, k)      the state of element x at position k (0-based, along dim)
     P##_combine (a, b)   the state of a followed by b
     P##_emit (a, y, ix)  write state a's output to *y, and its 1-based index to *ix
                          when ix is not NULL
     P##_emit_before (a, y, ix)   the same for an exclusive scan's output (a sum of no
                          elements is +0, as Octave's sum ([]), where the state says -0) */
#ifndef GPUSCAN_CPU_SCAN_BODY_H
#define GPUSCAN_CPU_SCAN_BODY_H

#define CPU_SCAN_DEFINE(NAME, T, P) \
/* Scan lanes [l0, l0 + nl) of slice o over logical steps [k0, k1), starting from \
   state[] (one per lane) and leaving the final states there.  With emit == 0 it only \
   reduces: state[] then holds the aggregate after the range's last head, and head[] \
   says whether the range held a head for that lane. */ \
static void scan_panel_##NAME (const scan_desc *d, int64_t o, int64_t l0, int64_t nl, \
                               int64_t k0, int64_t k1, P##_t *state, uint8_t *head, \
                               int emit) \
{ \
  /* locals, not d->: the output could alias *d as far as the compiler knows */ \
  const T *const x = (const T *) d->x; \
  T *const y = (T *) d->y; \
  double *const ix = d->index; \
  const int64_t inner = d->inner, len = d->len; \
  const int reverse = d->reverse, exclusive = d->exclusive; \
  const uint8_t *const heads = d->heads; \
  const int heads_full = d->heads_full; \
  if (nl == 1 && ! heads && ! exclusive) \
    { \
      /* the common case: one unsegmented inclusive line, state in registers */ \
      P##_t s = state[0]; \
      const int64_t step = reverse ? -inner : inner; \
      int64_t at = l0 + inner * ((reverse ? len - 1 - k0 : k0) + len * o); \
      if (emit) \
        for (int64_t k = k0; k < k1; k++, at += step) \
          { \
            s = P##_combine (s, P##_lift (x[at], reverse ? len - 1 - k : k)); \
            P##_emit (s, &y[at], ix ? &ix[at] : NULL); \
          } \
      else \
        for (int64_t k = k0; k < k1; k++, at += step) \
          s = P##_combine (s, P##_lift (x[at], reverse ? len - 1 - k : k)); \
      state[0] = s; \
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
            } \
          const int64_t at = base + l; \
          if (! emit) \
            s = P##_combine (s, P##_lift (x[at], kk)); \
          else if (exclusive) \
            { \
              /* x is read before y is written: the scan may run in place */ \
              const T xa = x[at]; \
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
        scan_panel_##NAME (d, o, l, 1, 0, d->len, &s, NULL, 1); \
      } \
} \
 \
/* Lines along k are long and few: each line is cut into blocks of a fixed number of \
   steps (a constant, not a share of the team: the result does not depend on how many \
   threads run), taken in rounds of CPU_ROUND_BLOCKS blocks a thread.  In a round the \
   threads claim blocks and reduce them, meet at one barrier, then scan the blocks from \
   their carries, each thread first those it reduced (still in its cache), then any left. \
   Every block is claimed by exactly one thread, so a thread that OpenMP does not start \
   (OMP_THREAD_LIMIT, OMP_DYNAMIC, a caller's own limit) or that starts late leaves its \
   blocks to the others.  A block's carry is the line's carry folded with the round's \
   aggregates before it, in block order.  The aggregates of a round sit in one of two \
   buffers, its claims in bytes of their own, so one barrier a round is enough. */ \
static void scan_along_##NAME (const scan_desc *d, int nthreads) \
{ \
  const int64_t inner = d->inner, len = d->len; \
  int64_t piece = CPU_BLOCK_BYTES / ((int64_t) sizeof (T) * inner); \
  if (piece < 1) \
    piece = 1; \
  const int64_t line_blocks = (len + piece - 1) / piece; \
  const int64_t per_round = (int64_t) nthreads * CPU_ROUND_BLOCKS; \
  const int64_t line_rounds = (line_blocks + per_round - 1) / per_round; \
  const int64_t rounds = line_rounds * d->outer; \
  /* private to each thread, padded apart: the line's carry, the running carry of the \
     blocks it scans, the aggregate it reduces, the blocks it reduced */ \
  const int64_t own = 3 * inner + 64; \
  P##_t *work = (P##_t *) malloc (sizeof (P##_t) * (2 * per_round * inner + nthreads * own)); \
  uint8_t *work_head = (uint8_t *) malloc (2 * per_round * inner + nthreads * (inner + 64)); \
  uint8_t *claims = (uint8_t *) calloc ((size_t) (2 * rounds * per_round), 1); \
  int64_t *reduced = (int64_t *) malloc (sizeof (int64_t) * nthreads * (per_round + 8)); \
  if (! work || ! work_head || ! claims || ! reduced) \
    { \
      free (work); \
      free (work_head); \
      free (claims); \
      free (reduced); \
      scan_serial_##NAME (d); \
      return; \
    } \
_Pragma ("omp parallel num_threads (nthreads)") \
  { \
    const int tid = omp_get_thread_num (); \
    P##_t *carry = work + 2 * per_round * inner + tid * own; \
    P##_t *run = carry + inner; \
    P##_t *red = run + inner; \
    uint8_t *red_head = work_head + 2 * per_round * inner + tid * (inner + 64); \
    int64_t *my_blocks = reduced + tid * (per_round + 8); \
    int64_t round = 0; \
    for (int64_t o = 0; o < d->outer; o++) \
      { \
        for (int64_t l = 0; l < inner; l++) \
          carry[l] = P##_identity (); \
        for (int64_t r = 0; r < line_rounds; r++, round++) \
          { \
            const int64_t b0 = r * per_round; \
            const int64_t nb = line_blocks - b0 < per_round ? line_blocks - b0 : per_round; \
            P##_t *aggs = work + (round & 1) * per_round * inner; \
            uint8_t *heads = work_head + (round & 1) * per_round * inner; \
            uint8_t *reduce_claim = claims + 2 * round * per_round; \
            uint8_t *scan_claim = reduce_claim + per_round; \
            int64_t mine = 0; \
            /* reduce: the thread's share of the round first, then whatever is left */ \
            const int64_t start = nb * tid / nthreads; \
            for (int64_t j = 0; j < nb; j++) \
              { \
                const int64_t g = (start + j) % nb; \
                if (__atomic_exchange_n (&reduce_claim[g], 1, __ATOMIC_ACQ_REL)) \
                  continue; \
                const int64_t a = (b0 + g) * piece; \
                const int64_t b = a + piece < len ? a + piece : len; \
                for (int64_t l = 0; l < inner; l++) \
                  { \
                    red[l] = P##_identity (); \
                    red_head[l] = 0; \
                  } \
                scan_panel_##NAME (d, o, 0, inner, a, b, red, red_head, 0); \
                for (int64_t l = 0; l < inner; l++) \
                  { \
                    aggs[g * inner + l] = red[l]; \
                    heads[g * inner + l] = red_head[l]; \
                  } \
                my_blocks[mine++] = g; \
              } \
_Pragma ("omp barrier") \
            /* scan: the blocks it reduced, then any still unclaimed; run[] holds the \
               carry of block `at`, folded forward (and from the line's carry again \
               where the order turns back) */ \
            int64_t at = nb; \
            for (int64_t j = 0; j < mine + nb; j++) \
              { \
                const int64_t g = j < mine ? my_blocks[j] : j - mine; \
                if (__atomic_exchange_n (&scan_claim[g], 1, __ATOMIC_ACQ_REL)) \
                  continue; \
                if (g < at) \
                  { \
                    for (int64_t l = 0; l < inner; l++) \
                      run[l] = carry[l]; \
                    at = 0; \
                  } \
                for (; at < g; at++) \
                  for (int64_t l = 0; l < inner; l++) \
                    run[l] = heads[at * inner + l] ? aggs[at * inner + l] \
                                                   : P##_combine (run[l], aggs[at * inner + l]); \
                const int64_t a = (b0 + g) * piece; \
                const int64_t b = a + piece < len ? a + piece : len; \
                for (int64_t l = 0; l < inner; l++) \
                  red[l] = run[l]; \
                scan_panel_##NAME (d, o, 0, inner, a, b, red, NULL, 1); \
              } \
            /* the line's carry past the round: every thread folds the same aggregates */ \
            for (int64_t t = 0; t < nb; t++) \
              for (int64_t l = 0; l < inner; l++) \
                carry[l] = heads[t * inner + l] ? aggs[t * inner + l] \
                                                : P##_combine (carry[l], aggs[t * inner + l]); \
          } \
      } \
  } \
  free (work); \
  free (work_head); \
  free (claims); \
  free (reduced); \
} \
 \
/* Many independent lines (or short ones): threads take whole lanes blocks. */ \
static void scan_unit_##NAME (const scan_desc *d, int64_t u, int64_t lane_block) \
{ \
  P##_t state[CPU_LANE_BLOCK]; \
  const int64_t blocks_per_slice = (d->inner + lane_block - 1) / lane_block; \
  const int64_t o = u / blocks_per_slice; \
  const int64_t l0 = (u % blocks_per_slice) * lane_block; \
  const int64_t nl = l0 + lane_block <= d->inner ? lane_block : d->inner - l0; \
  for (int64_t l = 0; l < nl; l++) \
    state[l] = P##_identity (); \
  scan_panel_##NAME (d, o, l0, nl, 0, d->len, state, NULL, 1); \
} \
 \
static void scan_run_##NAME (const scan_desc *d, int nthreads) \
{ \
  const int64_t inner = d->inner, len = d->len, outer = d->outer; \
  const int64_t lane_block = inner < CPU_LANE_BLOCK ? inner : CPU_LANE_BLOCK; \
  const int64_t units = (inner + lane_block - 1) / lane_block * outer; \
  if (nthreads == 1) \
    { \
      for (int64_t u = 0; u < units; u++) \
        scan_unit_##NAME (d, u, lane_block); \
      return; \
    } \
  if (units < (int64_t) nthreads * CPU_UNITS_PER_THREAD \
      && len >= (int64_t) nthreads * CPU_MIN_PIECE && inner <= CPU_MAX_ALONG_LANES) \
    { \
      scan_along_##NAME (d, nthreads); \
      return; \
    } \
_Pragma ("omp parallel for schedule (dynamic, 1) num_threads (nthreads)") \
  for (int64_t u = 0; u < units; u++) \
    scan_unit_##NAME (d, u, lane_block); \
}

#endif

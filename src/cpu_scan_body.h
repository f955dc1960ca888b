/* The CPU scan algorithm, written once: CPU_SCAN_DEFINE (NAME, T, P) generates the
   functions for element type T and the operator whose state functions are prefixed P:
     P##_t                state ("aggregate") type
     P##_identity ()      the state of an empty scan
     P##_lift (x, k)      the state of element x at position k (0-based, along dim)
     P##_combine (a, b)   the state of a followed by b
     P##_emit (a, y, ix)  write state a's output to *y, and its 1-based index to *ix
                          when ix is not NULL */
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
              P##_emit (s, &y[at], ix ? &ix[at] : NULL); \
              s = P##_combine (s, P##_lift (x[at], kk)); \
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
/* Lines along k are long and few: every thread takes a piece of each superblock of \
   steps; pieces are reduced, their carries combined, then scanned again while the \
   piece is still in cache, so memory is read once.  One barrier per superblock: \
   piece aggregates alternate between two buffers. */ \
static void scan_along_##NAME (const scan_desc *d, int nthreads) \
{ \
  const int64_t inner = d->inner, len = d->len; \
  /* a piece fits in cache, every thread gets one, and there are few rounds */ \
  int64_t piece = CPU_PIECE_BYTES / ((int64_t) sizeof (T) * inner); \
  const int64_t even = (len + nthreads - 1) / nthreads; \
  const int64_t few_rounds = (len + (int64_t) nthreads * CPU_MAX_ROUNDS - 1) \
                             / ((int64_t) nthreads * CPU_MAX_ROUNDS); \
  if (piece > even) \
    piece = even; \
  if (piece < few_rounds) \
    piece = few_rounds; \
  if (piece < 1) \
    piece = 1; \
  const int64_t super = piece * nthreads; \
  /* shared: the pieces' aggregates and head flags, in two buffers for alternating \
     rounds; private to each thread, padded apart to keep its cache lines its own: \
     its carry, the start of its piece and the aggregate it is reducing */ \
  const int64_t own = 3 * inner + 64; \
  P##_t *work = (P##_t *) malloc (sizeof (P##_t) * (2 * nthreads * inner + nthreads * own)); \
  uint8_t *work_head = (uint8_t *) malloc (2 * nthreads * inner + nthreads * (inner + 64)); \
  if (! work || ! work_head) \
    { \
      free (work); \
      free (work_head); \
      scan_serial_##NAME (d); \
      return; \
    } \
_Pragma ("omp parallel num_threads (nthreads)") \
  { \
    const int tid = omp_get_thread_num (); \
    P##_t *carry = work + 2 * nthreads * inner + tid * own; \
    P##_t *mine = carry + inner; \
    P##_t *red = mine + inner; \
    uint8_t *red_head = work_head + 2 * nthreads * inner + tid * (inner + 64); \
    int64_t round = 0; \
    for (int64_t o = 0; o < d->outer; o++) \
      { \
        for (int64_t l = 0; l < inner; l++) \
          carry[l] = P##_identity (); \
        for (int64_t k0 = 0; k0 < len; k0 += super, round++) \
          { \
            const int64_t a = k0 + piece * tid < len ? k0 + piece * tid : len; \
            const int64_t b = a + piece < len ? a + piece : len; \
            P##_t *aggs = work + (round & 1) * nthreads * inner; \
            uint8_t *heads = work_head + (round & 1) * nthreads * inner; \
            for (int64_t l = 0; l < inner; l++) \
              { \
                red[l] = P##_identity (); \
                red_head[l] = 0; \
              } \
            scan_panel_##NAME (d, o, 0, inner, a, b, red, red_head, 0); \
            for (int64_t l = 0; l < inner; l++) \
              { \
                aggs[tid * inner + l] = red[l]; \
                heads[tid * inner + l] = red_head[l]; \
              } \
_Pragma ("omp barrier") \
            /* every thread folds the same aggregates: its own start, and the next carry */ \
            for (int t = 0; t < nthreads; t++) \
              { \
                if (t == tid) \
                  for (int64_t l = 0; l < inner; l++) \
                    mine[l] = carry[l]; \
                for (int64_t l = 0; l < inner; l++) \
                  carry[l] = heads[t * inner + l] ? aggs[t * inner + l] \
                                                  : P##_combine (carry[l], aggs[t * inner + l]); \
              } \
            scan_panel_##NAME (d, o, 0, inner, a, b, mine, NULL, 1); \
          } \
      } \
  } \
  free (work); \
  free (work_head); \
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

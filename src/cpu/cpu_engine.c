/* CPU engine: instantiates cpu_scan_body.h over (element type, operator) and
   dispatches a scan_desc to the right instance. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "cpu/cpu_engine.h"
#include "cpu/cpu_recurrence.h"
#include "cpu/cpu_satprod.h"
#include "base/double_double.h"
#include "base/work_pool.h"
#include "cpu/cpu_tuning.h"
#include "cpu/cpu_scan_body.h"


/* a spin-wait's pause: no sched_yield, which on a busy machine hands the core to another
   process for up to a scheduler tick */
static inline void cpu_relax (void)
{
#if defined __x86_64__ || defined __i386__
  __builtin_ia32_pause ();
#elif defined __aarch64__
  __asm__ volatile ("yield");
#endif
}

typedef double _Complex cdouble;
typedef float _Complex csingle;
/* glibc defines CMPLX for GCC only; clang (the fuzz build) has the same builtin */
#if ! defined CMPLX && defined __clang__
#define CMPLX(x, y) __builtin_complex ((double) (x), (double) (y))
#define CMPLXF(x, y) __builtin_complex ((float) (x), (float) (y))
#endif

/* a complex number with a NaN part; no NaN (integers, or Octave's rule for sums) */
#define CNAN(v) (isnan (creal (v)) || isnan (cimag (v)))
#define NO_NAN(v) 0

/* ---- sum and product: the state is the running value ------------------------------ */
/* An exclusive scan's output is `before` added to the state: the sum of the elements
   before, as Octave's sum adds them from +0 (sum ([]) is 0, not the -0 identity) */
/* isnan_ (x) says whether x is a NaN that counts as nan_value ("omitnan"), NO_NAN for
   Octave's rule (a NaN is a value like any other) */
#define VALUE_OPS(P, type, identity, op, before, grouped, isnan_, nan_value)          \
  typedef type P##_t;                                                                 \
  enum { P##_grouped = grouped };                                                     \
  static inline P##_t P##_identity (void) { return identity; }                        \
  static inline P##_t P##_lift (type x, int64_t k)                                    \
  { (void) k; return isnan_ (x) ? (nan_value) : x; }                                  \
  static inline P##_t P##_combine (P##_t a, P##_t b) { return a op b; }               \
  static inline void P##_emit (P##_t a, type *y, double *ix) { (void) ix; *y = a; }   \
  static inline void P##_emit_before (P##_t a, type *y, double *ix)                   \
  { (void) ix; *y = a op (before); }

/* -0.0 is the exact identity of IEEE addition: -0.0 + x == x for every x, -0.0 too */
/* Sums are combined in groups (cpu_scan_body.h); products keep cumprod's order, where
   another order could overflow or underflow where Octave's does not */
VALUE_OPS (sum_double, double, -0.0, +, 0.0, 1, NO_NAN, 0)
VALUE_OPS (sum_single, float, -0.0f, +, 0.0f, 1, NO_NAN, 0)
VALUE_OPS (sum_cdouble, cdouble, CMPLX (-0.0, -0.0), +, CMPLX (0.0, 0.0), 1, NO_NAN, 0)
VALUE_OPS (sum_csingle, csingle, CMPLXF (-0.0f, -0.0f), +, CMPLXF (0.0f, 0.0f), 1, NO_NAN, 0)
VALUE_OPS (prod_double, double, 1.0, *, 1.0, 0, NO_NAN, 0)
VALUE_OPS (prod_single, float, 1.0f, *, 1.0f, 0, NO_NAN, 0)
/* "omitnan": a NaN counts as +0 (so a sum of nothing but NaN is +0) or 1 */
VALUE_OPS (sumomit_double, double, -0.0, +, 0.0, 1, isnan, 0.0)
VALUE_OPS (sumomit_single, float, -0.0f, +, 0.0f, 1, isnan, 0.0f)
VALUE_OPS (sumomit_cdouble, cdouble, CMPLX (-0.0, -0.0), +, CMPLX (0.0, 0.0), 1, CNAN,
           CMPLX (0.0, 0.0))
VALUE_OPS (sumomit_csingle, csingle, CMPLXF (-0.0f, -0.0f), +, CMPLXF (0.0f, 0.0f), 1, CNAN,
           CMPLXF (0.0f, 0.0f))
VALUE_OPS (prodomit_double, double, 1.0, *, 1.0, 0, isnan, 1.0)
VALUE_OPS (prodomit_single, float, 1.0f, *, 1.0f, 0, isnan, 1.0f)

/* ---- "accurate" sums: the state is a double-double (base/double_double.h) ---- */
#define ACCURATE_OPS(P, type, isnan_)                                                 \
  typedef dd P##_t;                                                                   \
  enum { P##_grouped = 1 };                                                           \
  static inline P##_t P##_identity (void) { const dd r = { -0.0, 0.0 }; return r; }   \
  static inline P##_t P##_lift (type x, int64_t k)                                    \
  {                                                                                   \
    const dd r = { isnan_ (x) ? 0.0 : (double) x, 0.0 };                              \
    (void) k;                                                                         \
    return r;                                                                         \
  }                                                                                   \
  static inline P##_t P##_combine (P##_t a, P##_t b) { return dd_add (a, b); }        \
  static inline void P##_emit (P##_t a, type *y, double *ix)                          \
  { (void) ix; *y = (type) dd_value (a); }                                            \
  static inline void P##_emit_before (P##_t a, type *y, double *ix)                   \
  { (void) ix; *y = (type) (dd_value (a) + 0.0); }
#define CACCURATE_OPS(P, type, isnan_, make)                                          \
  typedef struct { dd re, im; } P##_t;                                                \
  enum { P##_grouped = 1 };                                                           \
  static inline P##_t P##_identity (void)                                             \
  { const P##_t r = { { -0.0, 0.0 }, { -0.0, 0.0 } }; return r; }                     \
  static inline P##_t P##_lift (type x, int64_t k)                                    \
  {                                                                                   \
    const int nan = isnan_ (x);                                                       \
    const P##_t r = { { nan ? 0.0 : (double) creal (x), 0.0 },                        \
                      { nan ? 0.0 : (double) cimag (x), 0.0 } };                      \
    (void) k;                                                                         \
    return r;                                                                         \
  }                                                                                   \
  static inline P##_t P##_combine (P##_t a, P##_t b)                                  \
  { const P##_t r = { dd_add (a.re, b.re), dd_add (a.im, b.im) }; return r; }         \
  static inline void P##_emit (P##_t a, type *y, double *ix)                          \
  { (void) ix; *y = make (dd_value (a.re), dd_value (a.im)); }                        \
  static inline void P##_emit_before (P##_t a, type *y, double *ix)                   \
  { (void) ix; *y = make (dd_value (a.re) + 0.0, dd_value (a.im) + 0.0); }
ACCURATE_OPS (sumacc_double, double, NO_NAN)
ACCURATE_OPS (sumacc_single, float, NO_NAN)
ACCURATE_OPS (sumaccomit_double, double, isnan)
ACCURATE_OPS (sumaccomit_single, float, isnan)
CACCURATE_OPS (sumacc_cdouble, cdouble, NO_NAN, CMPLX)
CACCURATE_OPS (sumacc_csingle, csingle, NO_NAN, CMPLXF)
CACCURATE_OPS (sumaccomit_cdouble, cdouble, CNAN, CMPLX)
CACCURATE_OPS (sumaccomit_csingle, csingle, CNAN, CMPLXF)

/* Complex (1 + 0i) * x is not x when x holds an Inf (Annex G multiplication), and
   cumprod copies a scan's first element: so the complex state knows when it is empty. */
/* ("omitnan": an element with a NaN part is left out, as an empty state) */
#define COMPLEX_PROD_OPS(P, type, one, isnan_)                                        \
  typedef struct { type v; int has; } P##_t;                                          \
  enum { P##_grouped = 0 };                                                           \
  static inline P##_t P##_identity (void) { P##_t r = { 0, 0 }; return r; }           \
  static inline P##_t P##_lift (type x, int64_t k)                                    \
  { P##_t r = { x, ! isnan_ (x) }; (void) k; return r; }                              \
  static inline P##_t P##_combine (P##_t a, P##_t b)                                  \
  {                                                                                   \
    if (! a.has) return b;                                                            \
    if (! b.has) return a;                                                            \
    a.v *= b.v;                                                                       \
    return a;                                                                         \
  }                                                                                   \
  static inline void P##_emit (P##_t a, type *y, double *ix)                          \
  { (void) ix; *y = a.has ? a.v : (one); }                                            \
  static inline void P##_emit_before (P##_t a, type *y, double *ix) { P##_emit (a, y, ix); }
COMPLEX_PROD_OPS (prod_cdouble, cdouble, CMPLX (1.0, 0.0), NO_NAN)
COMPLEX_PROD_OPS (prod_csingle, csingle, CMPLXF (1.0f, 0.0f), NO_NAN)
COMPLEX_PROD_OPS (prodomit_cdouble, cdouble, CMPLX (1.0, 0.0), CNAN)
COMPLEX_PROD_OPS (prodomit_csingle, csingle, CMPLXF (1.0f, 0.0f), CNAN)

/* ---- max and min: (value, position), position -1 while empty ---------------------- */
/* Octave orders complex numbers by abs, then by arg: up to Octave 10 with -pi taken as
   pi (cgt_), from Octave 11 on as carg gives it, -pi the least (cgt_unfolded_, the
   "ComparisonMethod" ABS of complex types) */
#define COMPLEX_GT(NAME, type, ABS, ARG, fold)                                         \
  static inline int NAME (type a, type b)                                              \
  {                                                                                    \
    const __typeof__ (ABS (a)) aa = ABS (a), ab = ABS (b);                              \
    if (aa != ab)                                                                      \
      return aa > ab;                                                                  \
    __typeof__ (ABS (a)) ga = ARG (a), gb = ARG (b);                                   \
    if (fold && ga == (__typeof__ (ga)) -M_PI) ga = (__typeof__ (ga)) M_PI;            \
    if (fold && gb == (__typeof__ (gb)) -M_PI) gb = (__typeof__ (gb)) M_PI;            \
    return ga > gb;                                                                    \
  }
COMPLEX_GT (cgt_d, cdouble, cabs, carg, 1)
COMPLEX_GT (cgt_s, csingle, cabsf, cargf, 1)
COMPLEX_GT (cgt_unfolded_d, cdouble, cabs, carg, 0)
COMPLEX_GT (cgt_unfolded_s, csingle, cabsf, cargf, 0)
#define REAL_GT(a, b) ((a) > (b))

/* A later element replaces the running one only when strictly better.  NaN is never
   better, and a leading NaN run keeps its first position until a number comes; or,
   with nan_wins ("includenan"), the first NaN wins over every later element.
   `better (b, a)` is gt_ (b, a) for max, gt_ (a, b) for min. */
#define VALUE_INDEX_OPS_1(P, type, isnan_, better, empty_value, nan_wins)              \
  typedef struct { type v; int64_t i; } P##_t;                                         \
  enum { P##_grouped = 0 };                                                            \
  static inline P##_t P##_identity (void) { P##_t r = { 0, -1 }; return r; }          \
  static inline P##_t P##_lift (type x, int64_t k) { P##_t r = { x, k }; return r; }   \
  static inline P##_t P##_combine (P##_t a, P##_t b)                                   \
  {                                                                                    \
    if (b.i < 0) return a;                                                             \
    if (a.i < 0) return b;                                                             \
    if (isnan_ (nan_wins ? a.v : b.v)) return a;                                       \
    if (isnan_ (nan_wins ? b.v : a.v)) return b;                                       \
    return better (b.v, a.v) ? b : a;                                                  \
  }                                                                                    \
  static inline void P##_emit (P##_t a, type *y, double *ix)                           \
  {                                                                                    \
    *y = a.i < 0 ? (empty_value) : a.v;                                                \
    if (ix) *ix = (double) (a.i + 1);                                                  \
  }                                                                                    \
  static inline void P##_emit_before (P##_t a, type *y, double *ix) { P##_emit (a, y, ix); }
#define MINMAX_OPS_1(P, type, isnan_, better, empty_value)                             \
  VALUE_INDEX_OPS_1 (P, type, isnan_, better, empty_value, 0)
/* max and min of one type from the operator macro OPS_1 (MINMAX_OPS_1, CMINMAX_OPS_1) */
#define EXTREMA_OPS(OPS_1, name, type, arg, gt_, lowest, highest)                      \
  static inline int gt_##_lt_##name (type a, type b) { return gt_ (b, a); }            \
  OPS_1 (max_##name, type, arg, gt_, lowest)                                           \
  OPS_1 (min_##name, type, arg, gt_##_lt_##name, highest)
#define MINMAX_OPS(...) EXTREMA_OPS (MINMAX_OPS_1, __VA_ARGS__)

/* Complex cummax / cummin as Octave's loop runs them: a leading run of elements with a
   NaN part keeps the first; after it, an element replaces the running one when it
   compares better (by abs, then arg), so one whose abs is Inf (Inf + NaNi) can win and
   one whose abs is NaN never does.  A stretch's state holds what each context needs:
   `lead`, its first element (while all of it is NaN-run); `after`, the running element
   of the stretch scanned as a line's start; `any`, the best of all its comparable
   elements, for a stretch that follows a number. */
#define CMINMAX_OPS_1(P, type, cabs_, better, empty_value)                              \
  typedef struct { type lead, after, any; int64_t il, ia, in; int nan; } P##_t;          \
  enum { P##_grouped = 0 };                                                             \
  static inline P##_t P##_identity (void)                                               \
  { P##_t r = { 0, 0, 0, -1, -1, -1, 1 }; return r; }                                   \
  static inline P##_t P##_lift (type x, int64_t k)                                      \
  {                                                                                     \
    const int nan = CNAN (x), comparable = ! isnan (cabs_ (x));                         \
    P##_t r = { x, x, x, k, nan ? -1 : k, comparable ? k : -1, nan };                   \
    return r;                                                                           \
  }                                                                                     \
  /* the better of two candidates (i < 0: none), the earlier on a tie */                \
  static inline void P##_pick (type *v, int64_t *i, type w, int64_t j)                  \
  {                                                                                     \
    if (j >= 0 && (*i < 0 || better (w, *v)))                                           \
      {                                                                                 \
        *v = w;                                                                         \
        *i = j;                                                                         \
      }                                                                                 \
  }                                                                                     \
  static inline P##_t P##_combine (P##_t a, P##_t b)                                    \
  {                                                                                     \
    if (b.il < 0) return a;                                                             \
    if (a.il < 0) return b;                                                             \
    P##_t r = a;                                                                        \
    r.nan = a.nan && b.nan;                                                             \
    if (a.nan)                                                                          \
      {                                                                                 \
        r.after = b.after;                                                              \
        r.ia = b.ia;                                                                    \
      }                                                                                 \
    else                                                                                \
      P##_pick (&r.after, &r.ia, b.any, b.in);                                          \
    P##_pick (&r.any, &r.in, b.any, b.in);                                              \
    return r;                                                                           \
  }                                                                                     \
  static inline void P##_emit (P##_t a, type *y, double *ix)                            \
  {                                                                                     \
    const int64_t i = a.il < 0 ? -1 : a.nan ? a.il : a.ia;                              \
    *y = a.il < 0 ? (empty_value) : a.nan ? a.lead : a.after;                           \
    if (ix) *ix = (double) (i + 1);                                                     \
  }                                                                                     \
  static inline void P##_emit_before (P##_t a, type *y, double *ix) { P##_emit (a, y, ix); }
#define CMINMAX_OPS(...) EXTREMA_OPS (CMINMAX_OPS_1, __VA_ARGS__)

MINMAX_OPS (double, double, isnan, REAL_GT, -INFINITY, INFINITY)
MINMAX_OPS (single, float, isnan, REAL_GT, -INFINITY, INFINITY)

/* Real max and min without the index output, inclusive (the most common cummax): the
   state is the value alone, NaN while only NaN came (cummax's output there); an element
   replaces it when strictly better, or when the state is NaN: one select a step, no
   branches (the (value, index) state's took 2.5 ns an element where cummax takes 1.8;
   10^4 doubles 26.8 -> 14.6 us against cummax's 17.9).  Not in groups: a select's chain
   is short, and groups doubled the selects. */
#define EXTREMUM_VALUE_OPS(P, type, better)                                            \
  typedef type P##_t;                                                                  \
  enum { P##_grouped = 0 };                                                            \
  static inline P##_t P##_identity (void) { return (type) NAN; }                       \
  static inline P##_t P##_lift (type x, int64_t k) { (void) k; return x; }             \
  static inline P##_t P##_combine (P##_t a, P##_t b)                                   \
  { return isnan (a) || better (b, a) ? b : a; }                                       \
  static inline void P##_emit (P##_t a, type *y, double *ix) { (void) ix; *y = a; }    \
  static inline void P##_emit_before (P##_t a, type *y, double *ix) { P##_emit (a, y, ix); }
#define VALUE_GT(b, a) ((b) > (a))
#define VALUE_LT(b, a) ((b) < (a))
EXTREMUM_VALUE_OPS (maxv_double, double, VALUE_GT)
EXTREMUM_VALUE_OPS (minv_double, double, VALUE_LT)
EXTREMUM_VALUE_OPS (maxv_single, float, VALUE_GT)
EXTREMUM_VALUE_OPS (minv_single, float, VALUE_LT)
CMINMAX_OPS (cdouble, cdouble, cabs, cgt_d, -INFINITY, INFINITY)
CMINMAX_OPS (csingle, csingle, cabsf, cgt_s, -INFINITY, INFINITY)
CMINMAX_OPS (abs_cdouble, cdouble, cabs, cgt_unfolded_d, -INFINITY, INFINITY)
CMINMAX_OPS (abs_csingle, csingle, cabsf, cgt_unfolded_s, -INFINITY, INFINITY)
/* "ComparisonMethod" (scan_desc.h): complex numbers by the real part, then the
   imaginary part ("real"); real numbers by abs, then by value ("abs", as Octave 11's
   cummax and cummin order them: of 3 and -3, 3 is the larger) */
#define CREAL_GT(a, b)                                                                 \
  (creal (a) > creal (b) || (creal (a) == creal (b) && cimag (a) > cimag (b)))
#define FLOAT_ABS_GT(a, b) (fabs (a) > fabs (b) || (fabs (a) == fabs (b) && (a) > (b)))
/* (the magnitude of a signed integer as uint64_t: intmin's too) */
#define INT_MAG(v) ((v) < 0 ? -(uint64_t) (v) : (uint64_t) (v))
#define INT_ABS_GT(a, b)                                                               \
  (INT_MAG (a) > INT_MAG (b) || (INT_MAG (a) == INT_MAG (b) && (a) > (b)))
/* the exclusive scan's first output: the least and the greatest of each order (the
   floating types' with "includenan" too, below) */
#define COMPARED_FLOAT_OPS(X)                                                          \
  X (real_cdouble, cdouble, CNAN, CREAL_GT, CMPLX (-INFINITY, -INFINITY),               \
     CMPLX (INFINITY, INFINITY))                                                       \
  X (real_csingle, csingle, CNAN, CREAL_GT, CMPLXF (-INFINITY, -INFINITY),              \
     CMPLXF (INFINITY, INFINITY))                                                      \
  X (abs_double, double, isnan, FLOAT_ABS_GT, -0.0, -INFINITY)                         \
  X (abs_single, float, isnan, FLOAT_ABS_GT, -0.0f, -INFINITY)
COMPARED_FLOAT_OPS (MINMAX_OPS)
MINMAX_OPS (abs_int8, int8_t, NO_NAN, INT_ABS_GT, 0, INT8_MIN)
MINMAX_OPS (abs_int16, int16_t, NO_NAN, INT_ABS_GT, 0, INT16_MIN)
MINMAX_OPS (abs_int32, int32_t, NO_NAN, INT_ABS_GT, 0, INT32_MIN)
MINMAX_OPS (abs_int64, int64_t, NO_NAN, INT_ABS_GT, 0, INT64_MIN)

/* "includenan" (complex too: the first element with a NaN part wins) */
#define NANFIRST_OPS_1(P, type, isnan_, better, empty_value)                           \
  VALUE_INDEX_OPS_1 (P, type, isnan_, better, empty_value, 1)
/* (after EXTREMA_OPS of the same name, whose reversed comparison it uses) */
#define NAN_EXTREMA_OPS(name, type, isnan_, gt_, lowest, highest)                      \
  NANFIRST_OPS_1 (maxnan_##name, type, isnan_, gt_, lowest)                            \
  NANFIRST_OPS_1 (minnan_##name, type, isnan_, gt_##_lt_##name, highest)
NAN_EXTREMA_OPS (double, double, isnan, REAL_GT, -INFINITY, INFINITY)
NAN_EXTREMA_OPS (single, float, isnan, REAL_GT, -INFINITY, INFINITY)
NAN_EXTREMA_OPS (cdouble, cdouble, CNAN, cgt_d, -INFINITY, INFINITY)
COMPARED_FLOAT_OPS (NAN_EXTREMA_OPS)
NAN_EXTREMA_OPS (csingle, csingle, CNAN, cgt_s, -INFINITY, INFINITY)
NAN_EXTREMA_OPS (abs_cdouble, cdouble, CNAN, cgt_unfolded_d, -INFINITY, INFINITY)
NAN_EXTREMA_OPS (abs_csingle, csingle, CNAN, cgt_unfolded_s, -INFINITY, INFINITY)

MINMAX_OPS (int8, int8_t, NO_NAN, REAL_GT, INT8_MIN, INT8_MAX)
MINMAX_OPS (uint8, uint8_t, NO_NAN, REAL_GT, 0, UINT8_MAX)
MINMAX_OPS (int16, int16_t, NO_NAN, REAL_GT, INT16_MIN, INT16_MAX)
MINMAX_OPS (uint16, uint16_t, NO_NAN, REAL_GT, 0, UINT16_MAX)
MINMAX_OPS (int32, int32_t, NO_NAN, REAL_GT, INT32_MIN, INT32_MAX)
MINMAX_OPS (uint32, uint32_t, NO_NAN, REAL_GT, 0, UINT32_MAX)
MINMAX_OPS (int64, int64_t, NO_NAN, REAL_GT, INT64_MIN, INT64_MAX)
MINMAX_OPS (uint64, uint64_t, NO_NAN, REAL_GT, 0, UINT64_MAX)
MINMAX_OPS (logical, uint8_t, NO_NAN, REAL_GT, 0, 1)

/* ---- saturating integer sum: the state is the clamp map s -> clamp (s + a, lo, hi) -- */
/* Two such maps compose into one; `a` is kept within +-(hi - lo) of the type in a wider
   integer W, beyond which the map is constant anyway, so nothing overflows. */
typedef __int128 wide128;
#define SATSUM_OPS(P, type, W, lowest, highest)                                        \
  typedef struct { W a, lo, hi; } P##_t;                                               \
  enum { P##_grouped = 0 };                                                            \
  static inline W P##_clamp (W v, W lo, W hi) { return v < lo ? lo : v > hi ? hi : v; } \
  static inline P##_t P##_identity (void)                                              \
  { P##_t r = { 0, (W) (lowest), (W) (highest) }; return r; }                          \
  static inline P##_t P##_lift (type x, int64_t k)                                     \
  { P##_t r = { (W) x, (W) (lowest), (W) (highest) }; (void) k; return r; }            \
  static inline P##_t P##_combine (P##_t f, P##_t g)                                   \
  {                                                                                    \
    const W span = (W) (highest) - (W) (lowest);                                       \
    P##_t r;                                                                           \
    r.a = P##_clamp (f.a + g.a, -span, span);                                          \
    r.lo = P##_clamp (f.lo + g.a, g.lo, g.hi);                                         \
    r.hi = P##_clamp (f.hi + g.a, g.lo, g.hi);                                         \
    return r;                                                                          \
  }                                                                                    \
  static inline void P##_emit (P##_t f, type *y, double *ix)                           \
  { (void) ix; *y = (type) P##_clamp (f.a, f.lo, f.hi); }                              \
  static inline void P##_emit_before (P##_t f, type *y, double *ix) { P##_emit (f, y, ix); }

/* each class's saturating sum: its state's wide integer and its range */
#define SATSUM_CLASSES(X)                                                               \
  X (satsum_int8, int8_t, int64_t, INT8_MIN, INT8_MAX)                                 \
  X (satsum_uint8, uint8_t, int64_t, 0, UINT8_MAX)                                     \
  X (satsum_int16, int16_t, int64_t, INT16_MIN, INT16_MAX)                             \
  X (satsum_uint16, uint16_t, int64_t, 0, UINT16_MAX)                                  \
  X (satsum_int32, int32_t, int64_t, INT32_MIN, INT32_MAX)                             \
  X (satsum_uint32, uint32_t, int64_t, 0, UINT32_MAX)                                  \
  X (satsum_int64, int64_t, wide128, INT64_MIN, INT64_MAX)                             \
  X (satsum_uint64, uint64_t, wide128, 0, UINT64_MAX)
SATSUM_CLASSES (SATSUM_OPS)

/* One thread, lines without head flags: Octave's own steps, v = clamp (v + x), the value
   as the state (the maps above give the same bits; they serve the blocks that threads
   share).  A run of SATSUM_RUN steps whose absolute values, added to the value before
   it, stay within the class's range cannot reach a clamp: it is a plain running sum (a
   dependent add a step, not an add and a clamp); a run that starts saturated and only
   pushes further stays there.  A small saturating sum then costs what cumsum's loop does.
   (The direction and "exclusive" are constants of each loop.) */
#define SATSUM_LINE(P, type, W, lowest, highest, STEP, EXCLUSIVE)                      \
  for (int64_t k0 = 0; k0 < len; k0 += SATSUM_RUN)                                     \
    {                                                                                  \
      const int64_t n = len - k0 < SATSUM_RUN ? len - k0 : SATSUM_RUN;                 \
      const type *const xr = x + k0 * (STEP);                                          \
      type *const yr = y + k0 * (STEP);                                                \
      W reach = 0;                                                                     \
      type least = xr[0], most = xr[0];                                                \
      for (int64_t k = 0; k < n; k++)                                                  \
        {                                                                              \
          const type e = xr[k * (STEP)];                                               \
          reach += e < 0 ? -(W) e : (W) e;                                             \
          least = e < least ? e : least;                                               \
          most = e > most ? e : most;                                                  \
        }                                                                              \
      if ((v == (W) (highest) && least >= 0) || (v == (W) (lowest) && most <= 0))      \
        /* saturated, and pushed further: every step stays there */                    \
        for (int64_t k = 0; k < n; k++)                                                \
          yr[k * (STEP)] = (type) v;                                                   \
      else if (v - reach >= (W) (lowest) && v + reach <= (W) (highest))                \
        for (int64_t k = 0; k < n; k++)                                                \
          {                                                                            \
            const W next = v + (W) xr[k * (STEP)];                                     \
            yr[k * (STEP)] = (type) ((EXCLUSIVE) ? v : next);                          \
            v = next;                                                                  \
          }                                                                            \
      else                                                                             \
        for (int64_t k = 0; k < n; k++)                                                \
          {                                                                            \
            const W next = P##_clamp (v + (W) xr[k * (STEP)], (W) (lowest), (W) (highest)); \
            /* x is read before y is written: the scan may run in place */             \
            yr[k * (STEP)] = (type) ((EXCLUSIVE) ? v : next);                          \
            v = next;                                                                  \
          }                                                                            \
    }
#define SATSUM_LINES(P, type, W, lowest, highest)                                      \
  static void P##_lines (const scan_desc *d)                                           \
  {                                                                                    \
    const int64_t len = d->len;                                                        \
    for (int64_t o = 0; o < d->outer; o++)                                             \
      {                                                                                \
        const int64_t first = o * len + (d->reverse ? len - 1 : 0);                    \
        const type *const x = (const type *) d->x + first;                             \
        type *const y = (type *) d->y + first;                                         \
        W v = 0;                                                                       \
        if (! d->reverse && ! d->exclusive)                                            \
          SATSUM_LINE (P, type, W, lowest, highest, 1, 0)                              \
        else if (! d->reverse)                                                         \
          SATSUM_LINE (P, type, W, lowest, highest, 1, 1)                              \
        else if (! d->exclusive)                                                       \
          SATSUM_LINE (P, type, W, lowest, highest, -1, 0)                             \
        else                                                                           \
          SATSUM_LINE (P, type, W, lowest, highest, -1, 1)                             \
      }                                                                                \
  }
SATSUM_CLASSES (SATSUM_LINES)

/* ---- logical and bitwise operators: the state is the running value ------------------ */
/* (logical "and" and "or" are the running min and max of 0/1 bytes, below) */
VALUE_OPS (xor_logical, uint8_t, 0, ^, 0, 0, NO_NAN, 0)
#define BIT_OPS(name, type, ones)                                                     \
  VALUE_OPS (bitand_##name, type, ones, &, ones, 0, NO_NAN, 0)                        \
  VALUE_OPS (bitor_##name, type, 0, |, 0, 0, NO_NAN, 0)                               \
  VALUE_OPS (bitxor_##name, type, 0, ^, 0, 0, NO_NAN, 0)
BIT_OPS (uint8, uint8_t, UINT8_MAX)
BIT_OPS (uint16, uint16_t, UINT16_MAX)
BIT_OPS (uint32, uint32_t, UINT32_MAX)
BIT_OPS (uint64, uint64_t, UINT64_MAX)

/* ---- logsumexp: the state is log (sum (exp (x))) of the elements so far; -Inf (the
   log of an empty sum) is the identity.  Two states combine as hi + log1p (exp (lo - hi))
   with hi the larger, so no exp overflows or underflows to a wrong result; each combine
   adds a rounding or two of the result's size.  A NaN propagates; +Inf absorbs. ---- */
#define LSE_OPS(P, type, LOG1P, EXP)                                                  \
  typedef type P##_t;                                                                 \
  enum { P##_grouped = 0 };                                                           \
  static inline P##_t P##_identity (void) { return -INFINITY; }                       \
  static inline P##_t P##_lift (type x, int64_t k) { (void) k; return x; }            \
  static inline P##_t P##_combine (P##_t a, P##_t b)                                  \
  {                                                                                   \
    const type hi = a > b ? a : b, lo = a > b ? b : a;                                \
    if (isnan (a) || isnan (b))                                                       \
      return a + b;                                                                   \
    if (lo == -INFINITY || hi == INFINITY)                                            \
      return hi;                                                                      \
    return hi + LOG1P (EXP (lo - hi));                                                \
  }                                                                                   \
  static inline void P##_emit (P##_t a, type *y, double *ix) { (void) ix; *y = a; }   \
  static inline void P##_emit_before (P##_t a, type *y, double *ix)                   \
  { (void) ix; *y = a; }
LSE_OPS (lse_double, double, log1p, exp)
LSE_OPS (lse_single, float, log1pf, expf)

/* ---- the instances and the dispatch --------------------------------------------- */
/* X (type enum, element C type, name) for every element type */
#define FLOAT_TYPES(X)                                                                 \
  X (SCAN_DOUBLE, double, double) X (SCAN_SINGLE, float, single)                       \
  X (SCAN_CDOUBLE, cdouble, cdouble) X (SCAN_CSINGLE, csingle, csingle)
#define INT_TYPES(X)                                                                   \
  X (SCAN_INT8, int8_t, int8) X (SCAN_UINT8, uint8_t, uint8)                           \
  X (SCAN_INT16, int16_t, int16) X (SCAN_UINT16, uint16_t, uint16)                     \
  X (SCAN_INT32, int32_t, int32) X (SCAN_UINT32, uint32_t, uint32)                     \
  X (SCAN_INT64, int64_t, int64) X (SCAN_UINT64, uint64_t, uint64)

#define DEFINE_FLOAT(e, type, name)                                                    \
  CPU_SCAN_DEFINE (sum_##name, type, sum_##name)                                       \
  CPU_SCAN_DEFINE (prod_##name, type, prod_##name)                                     \
  CPU_SCAN_DEFINE (max_##name, type, max_##name)                                       \
  CPU_SCAN_DEFINE (min_##name, type, min_##name)                                       \
  CPU_SCAN_DEFINE (sumomit_##name, type, sumomit_##name)                               \
  CPU_SCAN_DEFINE (sumacc_##name, type, sumacc_##name)                                 \
  CPU_SCAN_DEFINE (sumaccomit_##name, type, sumaccomit_##name)                         \
  CPU_SCAN_DEFINE (prodomit_##name, type, prodomit_##name)                             \
  CPU_SCAN_DEFINE (maxnan_##name, type, maxnan_##name)                                 \
  CPU_SCAN_DEFINE (minnan_##name, type, minnan_##name)
#define DEFINE_INT(e, type, name)                                                      \
  CPU_SCAN_DEFINE (satsum_##name, type, satsum_##name)                                 \
  CPU_SCAN_DEFINE (max_##name, type, max_##name)                                       \
  CPU_SCAN_DEFINE (min_##name, type, min_##name)
FLOAT_TYPES (DEFINE_FLOAT)
INT_TYPES (DEFINE_INT)
/* logical: max and min (a running OR and AND); a "native" sum is the running OR */
CPU_SCAN_DEFINE (max_logical, uint8_t, max_logical)
CPU_SCAN_DEFINE (min_logical, uint8_t, min_logical)
CPU_SCAN_DEFINE (xor_logical, uint8_t, xor_logical)
#define DEFINE_BITS(e, type, name)                                                     \
  CPU_SCAN_DEFINE (bitand_##name, type, bitand_##name)                                 \
  CPU_SCAN_DEFINE (bitor_##name, type, bitor_##name)                                   \
  CPU_SCAN_DEFINE (bitxor_##name, type, bitxor_##name)
#define UINT_TYPES(X)                                                                  \
  X (SCAN_UINT8, uint8_t, uint8) X (SCAN_UINT16, uint16_t, uint16)                     \
  X (SCAN_UINT32, uint32_t, uint32) X (SCAN_UINT64, uint64_t, uint64)
UINT_TYPES (DEFINE_BITS)
/* sums into doubles of logical, integer and single inputs, read at their own width
   (Octave's cumsum of these gives double): each element read is what a converted copy
   would hold, and the blocks are those of a double input, so the bits are the same */
#define NARROW_INPUTS(X)                                                               \
  X (SCAN_INPUT_LOGICAL, uint8_t, logical) X (SCAN_INPUT_INT8, int8_t, int8)           \
  X (SCAN_INPUT_UINT8, uint8_t, uint8) X (SCAN_INPUT_INT16, int16_t, int16)            \
  X (SCAN_INPUT_UINT16, uint16_t, uint16) X (SCAN_INPUT_INT32, int32_t, int32)         \
  X (SCAN_INPUT_UINT32, uint32_t, uint32) X (SCAN_INPUT_INT64, int64_t, int64)         \
  X (SCAN_INPUT_UINT64, uint64_t, uint64) X (SCAN_INPUT_SINGLE, float, single)
#define DEFINE_SUM_FROM(e, type, name)                                                 \
  CPU_SCAN_DEFINE_FROM (sum_double_from_##name, type, double, sum_double)
NARROW_INPUTS (DEFINE_SUM_FROM)
CPU_SCAN_DEFINE (maxv_double, double, maxv_double)
CPU_SCAN_DEFINE (minv_double, double, minv_double)
CPU_SCAN_DEFINE (maxv_single, float, maxv_single)
CPU_SCAN_DEFINE (minv_single, float, minv_single)
CPU_SCAN_DEFINE (lse_double, double, lse_double)
CPU_SCAN_DEFINE (lse_single, float, lse_single)
/* max and min by another "ComparisonMethod", "includenan" for the floating types */
#define DEFINE_COMPARED(e, type, name)                                                 \
  CPU_SCAN_DEFINE (max_##name, type, max_##name)                                       \
  CPU_SCAN_DEFINE (min_##name, type, min_##name)
#define DEFINE_COMPARED_NAN(e, type, name)                                             \
  DEFINE_COMPARED (e, type, name)                                                      \
  CPU_SCAN_DEFINE (maxnan_##name, type, maxnan_##name)                                 \
  CPU_SCAN_DEFINE (minnan_##name, type, minnan_##name)
#define COMPARED_REAL_TYPES(X)                                                         \
  X (SCAN_CDOUBLE, cdouble, real_cdouble) X (SCAN_CSINGLE, csingle, real_csingle)
#define COMPARED_FLOAT_TYPES(X)                                                        \
  X (SCAN_CDOUBLE, cdouble, abs_cdouble) X (SCAN_CSINGLE, csingle, abs_csingle)        \
  X (SCAN_DOUBLE, double, abs_double) X (SCAN_SINGLE, float, abs_single)
#define COMPARED_INT_TYPES(X)                                                          \
  X (SCAN_INT8, int8_t, abs_int8) X (SCAN_INT16, int16_t, abs_int16)                   \
  X (SCAN_INT32, int32_t, abs_int32) X (SCAN_INT64, int64_t, abs_int64)
COMPARED_REAL_TYPES (DEFINE_COMPARED_NAN)
COMPARED_FLOAT_TYPES (DEFINE_COMPARED_NAN)
COMPARED_INT_TYPES (DEFINE_COMPARED)

/* max and min whose d->compare is not Octave's rule: 0, or -1 for a pairing of type and
   method that has no instance (the gateway sends only these) */
#define CASE_COMPARED_NAN(e, type, name)                                               \
    case e:                                                                            \
      (max ? (nan ? scan_run_maxnan_##name : scan_run_max_##name)                      \
           : (nan ? scan_run_minnan_##name : scan_run_min_##name)) (d, nthreads);      \
      return 0;
#define CASE_COMPARED(e, type, name)                                                   \
    case e:                                                                            \
      (max ? scan_run_max_##name : scan_run_min_##name) (d, nthreads);                 \
      return 0;
static int cpu_compared (const scan_desc *d, int nthreads)
{
  const int max = d->op == SCAN_MAX, nan = d->nan_rule == SCAN_NAN_INCLUDE;
  if (d->compare == SCAN_CMP_REAL)
    switch (d->type)
      {
        COMPARED_REAL_TYPES (CASE_COMPARED_NAN)
      default:
        return -1;
      }
  switch (d->type)
    {
      COMPARED_FLOAT_TYPES (CASE_COMPARED_NAN)
      COMPARED_INT_TYPES (CASE_COMPARED)
    default:
      return -1;
    }
}
#undef CASE_COMPARED_NAN
#undef CASE_COMPARED

int cpu_threads (void)
{
  return work_pool_max_threads ();
}

/* the size from which a scan takes several threads: the caller's (tests), else the rule */
static int64_t parallel_from (int64_t parallel_min)
{
  return parallel_min > 0 ? parallel_min : CPU_PARALLEL_MIN;
}

int cpu_scan_alone (const scan_desc *d, int64_t parallel_min)
{
  return scan_numel (d) >= parallel_from (parallel_min) && cpu_threads () > 1 && work_pool_alone ();
}

int cpu_threads_for (int64_t n, int64_t parallel_min)
{
  return n < parallel_from (parallel_min) ? 1 : work_pool_threads (cpu_threads ());
}

int cpu_reads_input (const scan_desc *d)
{
  /* (a NaN of a single input under "omitnan" would need an instance of its own) */
  return d->input == SCAN_INPUT_AS_OUTPUT
         || (d->type == SCAN_DOUBLE && d->op == SCAN_SUM && ! d->accurate
             && (d->nan_rule != SCAN_NAN_OMIT || d->input != SCAN_INPUT_SINGLE));
}

#define CASE_FLOAT(e, type, name)                                                      \
  case e:                                                                              \
    switch (d->op)                                                                     \
      {                                                                                \
      case SCAN_SUM:                                                                   \
        if (d->accurate)                                                               \
          (omit ? scan_run_sumaccomit_##name : scan_run_sumacc_##name) (d, nthreads); \
        else                                                                           \
          (omit ? scan_run_sumomit_##name : scan_run_sum_##name) (d, nthreads);       \
        return 0;                                                                      \
      case SCAN_PROD:                                                                  \
        (omit ? scan_run_prodomit_##name : scan_run_prod_##name) (d, nthreads);       \
        return 0;                                                                      \
      case SCAN_MAX:                                                                   \
        (include ? scan_run_maxnan_##name : scan_run_max_##name) (d, nthreads);       \
        return 0;                                                                      \
      case SCAN_MIN:                                                                   \
        (include ? scan_run_minnan_##name : scan_run_min_##name) (d, nthreads);       \
        return 0;                                                                      \
      default: return -1;                                                              \
      }
#define CASE_INT(e, type, name)                                                        \
  case e:                                                                              \
    switch (d->op)                                                                     \
      {                                                                                \
      case SCAN_SATSUM:                                                                \
        if (nthreads == 1 && d->inner == 1 && ! d->heads)                              \
          satsum_##name##_lines (d);                                                   \
        else                                                                           \
          scan_run_satsum_##name (d, nthreads);                                        \
        return 0;                                                                      \
      case SCAN_MAX: scan_run_max_##name (d, nthreads); return 0;                      \
      case SCAN_MIN: scan_run_min_##name (d, nthreads); return 0;                      \
      default: return -1;                                                              \
      }

int cpu_scan (const scan_desc *d, int threads)
{
  const int nthreads = threads > 1 ? threads : 1;
  if (scan_numel (d) == 0)
    return 0;
  const int omit = d->nan_rule == SCAN_NAN_OMIT, include = d->nan_rule == SCAN_NAN_INCLUDE;
  if (d->input != SCAN_INPUT_AS_OUTPUT)
    switch (cpu_reads_input (d) ? d->input : SCAN_INPUT_AS_OUTPUT)
      {
#define CASE_SUM_FROM(e, type, name)                                                   \
      case e: scan_run_sum_double_from_##name (d, nthreads); return 0;
        NARROW_INPUTS (CASE_SUM_FROM)
#undef CASE_SUM_FROM
      default:
        return -1;
      }
  if (d->op == SCAN_RECURRENCE)
    return cpu_recurrence (d, nthreads);
  if (d->op == SCAN_SATPROD)
    return cpu_satprod (d, nthreads);
  if ((d->op == SCAN_MAX || d->op == SCAN_MIN) && d->compare != SCAN_CMP_OCTAVE)
    return cpu_compared (d, nthreads);
  if ((d->op == SCAN_MAX || d->op == SCAN_MIN) && ! d->index && ! d->exclusive && ! include
      && (d->type == SCAN_DOUBLE || d->type == SCAN_SINGLE))
    {
      const int max = d->op == SCAN_MAX;
      if (d->type == SCAN_DOUBLE)
        (max ? scan_run_maxv_double : scan_run_minv_double) (d, nthreads);
      else
        (max ? scan_run_maxv_single : scan_run_minv_single) (d, nthreads);
      return 0;
    }
  if (d->op == SCAN_LOGSUMEXP)
    {
      if (d->type == SCAN_DOUBLE)
        scan_run_lse_double (d, nthreads);
      else if (d->type == SCAN_SINGLE)
        scan_run_lse_single (d, nthreads);
      else
        return -1;
      return 0;
    }
  if (d->op == SCAN_BITAND || d->op == SCAN_BITOR || d->op == SCAN_BITXOR)
    switch (d->type)
      {
#define CASE_BITS(e, type, name)                                                       \
      case e:                                                                          \
        (d->op == SCAN_BITAND ? scan_run_bitand_##name                                 \
         : d->op == SCAN_BITOR ? scan_run_bitor_##name : scan_run_bitxor_##name) (d, nthreads); \
        return 0;
        UINT_TYPES (CASE_BITS)
#undef CASE_BITS
      default:
        return -1;
      }
  switch (d->type)
    {
      FLOAT_TYPES (CASE_FLOAT)
      INT_TYPES (CASE_INT)
    case SCAN_LOGICAL:
      if (d->op == SCAN_MAX || d->op == SCAN_SATSUM || d->op == SCAN_OR)
        scan_run_max_logical (d, nthreads);
      else if (d->op == SCAN_MIN || d->op == SCAN_AND)
        scan_run_min_logical (d, nthreads);
      else if (d->op == SCAN_XOR)
        scan_run_xor_logical (d, nthreads);
      else
        return -1;
      return 0;
    default:
      return -1;
    }
}

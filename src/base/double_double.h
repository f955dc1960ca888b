/* The state of an "accurate" sum: a double-double hi + lo, |lo| <= ulp (hi) / 2, about
   106 bits, so that every prefix is the exact sum rounded once (to double; a single's
   from double, so twice) unless its exact value needs more than 106 bits to tell.  One
   rule, compiled into both the CPU engine and the kernels (kernels/ops/scan_ops.cuh), so
   that the two add alike.  Only additions: nothing for a compiler to contract into an
   FMA, and none may be reassociated (no fast-math anywhere in the build). */
#ifndef GPUSCAN_DOUBLE_DOUBLE_H
#define GPUSCAN_DOUBLE_DOUBLE_H

#if defined (__CUDACC__)
#  define DD_RULE static __host__ __device__ __forceinline__
#else
#  define DD_RULE static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dd { double hi, lo; } dd;

/* Knuth's TwoSum: s + e == a + b exactly */
DD_RULE dd dd_two_sum (double a, double b)
{
  const double s = a + b, bb = s - a;
  const dd r = { s, (a - (s - bb)) + (b - bb) };
  return r;
}

/* Dekker's FastTwoSum, for |a| >= |b| */
DD_RULE dd dd_fast_two_sum (double a, double b)
{
  const double s = a + b;
  const dd r = { s, b - (s - a) };
  return r;
}

/* the accurate double-double sum (two TwoSums, not the sloppy one, whose error grows
   without bound where hi parts cancel); a non-finite sum is its hi part alone (x - x
   is 0 only for a finite x) */
DD_RULE dd dd_add (dd a, dd b)
{
  dd s = dd_two_sum (a.hi, b.hi);
  if (! (s.hi - s.hi == 0))
    {
      s.lo = 0;
      return s;
    }
  if (a.lo == 0 && b.lo == 0)
    return s;   /* (TwoSum's pair is normalized; and -0 + -0 stays -0) */
  const dd t = dd_two_sum (a.lo, b.lo);
  s.lo += t.hi;
  s = dd_fast_two_sum (s.hi, s.lo);
  s.lo += t.lo;
  return dd_fast_two_sum (s.hi, s.lo);
}

/* hi + lo rounded; lo == 0 keeps a -0 */
DD_RULE double dd_value (dd a)
{
  return a.lo == 0 || ! (a.hi - a.hi == 0) ? a.hi : a.hi + a.lo;
}

#ifdef __cplusplus
}
#endif
#endif

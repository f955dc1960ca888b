// Scan operators on the GPU.  Each operator has a state type A (its "aggregate") and
//   identity ()          the state of an empty scan
//   lift (x, k)          the state of element x at position k along the scanned dim
//   combine (a, b)       the state of a followed by b (associative, not commutative)
//   emit (a, y, ix)      the output of state a, and its 1-based index where ix != 0
// The same rules as the CPU engine (src/cpu/cpu_engine.c), which is the reference.
#pragma once

#include <cstdint>
#include <type_traits>

#include "base/double_double.h"

namespace gsk {

template <typename T> struct cplx { T re, im; };
template <typename T> __host__ __device__ __forceinline__ cplx<T> operator+ (cplx<T> a, cplx<T> b)
{ return { a.re + b.re, a.im + b.im }; }

// C99 Annex G's recovery of infinities that the plain formula computes as NaN + NaNi, as
// libgcc's __muldc3 does it for the CPU engine and Octave (rare: out of line)
template <typename T>
__host__ __device__ __noinline__ cplx<T> annex_g_product (T a, T b, T c, T d, cplx<T> r)
{
  auto isinf_ = [] (T v) { return v == v && v - v != v - v; };
  auto isnan_ = [] (T v) { return v != v; };
  auto box = [] (bool one, T sign) { return T (copysign (one ? 1.0 : 0.0, double (sign))); };
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  bool recalc = false;
  if (isinf_ (a) || isinf_ (b))
    {
      a = box (isinf_ (a), a);
      b = box (isinf_ (b), b);
      if (isnan_ (c)) c = box (false, c);
      if (isnan_ (d)) d = box (false, d);
      recalc = true;
    }
  if (isinf_ (c) || isinf_ (d))
    {
      c = box (isinf_ (c), c);
      d = box (isinf_ (d), d);
      if (isnan_ (a)) a = box (false, a);
      if (isnan_ (b)) b = box (false, b);
      recalc = true;
    }
  if (! recalc && (isinf_ (ac) || isinf_ (bd) || isinf_ (ad) || isinf_ (bc)))
    {
      if (isnan_ (a)) a = box (false, a);
      if (isnan_ (b)) b = box (false, b);
      if (isnan_ (c)) c = box (false, c);
      if (isnan_ (d)) d = box (false, d);
      recalc = true;
    }
  if (recalc)
    {
      const T inf = T (INFINITY);
      r = { inf * (a * c - b * d), inf * (a * d + b * c) };
    }
  return r;
}

template <typename T> __host__ __device__ __forceinline__ cplx<T> operator* (cplx<T> a, cplx<T> b)
{
  const cplx<T> r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
  return r.re != r.re && r.im != r.im ? annex_g_product (a.re, a.im, b.re, b.im, r) : r;
}

// -0.0 is the exact identity of IEEE addition (-0.0 + x == x, also for x = -0.0)
template <typename T> struct neg_zero { static __device__ __forceinline__ T get () { return T (-0.0); } };
template <typename T> struct neg_zero<cplx<T>>
{ static __device__ __forceinline__ cplx<T> get () { return { T (-0.0), T (-0.0) }; } };
template <typename T> struct one { static __device__ __forceinline__ T get () { return T (1); } };
template <typename T> struct one<cplx<T>>
{ static __device__ __forceinline__ cplx<T> get () { return { T (1), T (0) }; } };

template <typename T>
struct sum_op
{
  typedef T elem;
  typedef T A;
  static __device__ __forceinline__ A identity () { return neg_zero<T>::get (); }
  static __device__ __forceinline__ A lift (T x, int64_t) { return x; }
  static __device__ __forceinline__ A combine (A a, A b) { return a + b; }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = a; }
};

template <typename T>
struct prod_op
{
  typedef T elem;
  typedef T A;
  static __device__ __forceinline__ A identity () { return one<T>::get (); }
  static __device__ __forceinline__ A lift (T x, int64_t) { return x; }
  static __device__ __forceinline__ A combine (A a, A b) { return a * b; }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = a; }
};

// A complex product starts from its first element, as cumprod does: (1 + 0i) * x is not
// x where x holds an Inf (Annex G: Inf + 0i becomes Inf + NaNi).  So the empty product is
// a state of its own: a signalling NaN of a payload that no arithmetic makes (lift turns
// an input's real part of that payload into the default NaN), which combine passes over.
template <typename T> struct empty_product;
template <> struct empty_product<double>
{
  static __device__ __forceinline__ double get () { return __longlong_as_double (0x7ff0deadbeef0001LL); }
  static __device__ __forceinline__ bool is (double v) { return __double_as_longlong (v) == 0x7ff0deadbeef0001LL; }
  static __device__ __forceinline__ double nan () { return __longlong_as_double (0x7ff8000000000000LL); }
};
template <> struct empty_product<float>
{
  static __device__ __forceinline__ float get () { return __int_as_float (0x7f80beef); }
  static __device__ __forceinline__ bool is (float v) { return __float_as_int (v) == 0x7f80beef; }
  static __device__ __forceinline__ float nan () { return __int_as_float (0x7fc00000); }
};

template <typename T>
struct prod_op<cplx<T>>
{
  typedef cplx<T> elem;
  typedef cplx<T> A;
  typedef empty_product<T> E;
  static __device__ __forceinline__ A identity () { return { E::get (), T (0) }; }
  static __device__ __forceinline__ A lift (A x, int64_t)
  { return E::is (x.re) ? A { E::nan (), x.im } : x; }
  static __device__ __forceinline__ A combine (A a, A b)
  { return E::is (a.re) ? b : E::is (b.re) ? a : a * b; }
  static __device__ __forceinline__ void emit (A a, A *y, double *)
  { *y = E::is (a.re) ? one<A>::get () : a; }
};

// Logical and bitwise operators (cumulative all, any and parity of logical bytes that
// hold 0 or 1; bitand, bitor and bitxor of unsigned integers): exact, so every grouping
// gives the same bits.  The state of a 1- or 2-byte type is 4 bytes wide, as the other
// operators' states are, for the look-back's status words.  An empty "all" is true: 1 for
// logical bytes, all bits set for the bitwise one.
enum bits_kind { bits_and, bits_or, bits_xor };
template <typename T, bits_kind K, bool is_logical>
struct bits_op
{
  typedef T elem;
  typedef typename std::conditional<(sizeof (T) < 4), uint32_t, T>::type A;
  static __device__ __forceinline__ A identity ()
  { return K == bits_and ? (is_logical ? A (1) : A (T (~T (0)))) : A (0); }
  static __device__ __forceinline__ A lift (T x, int64_t) { return A (x); }
  static __device__ __forceinline__ A combine (A a, A b)
  { return K == bits_and ? A (a & b) : K == bits_or ? A (a | b) : A (a ^ b); }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = T (a); }
};

// MATLAB's "omitnan" for sums and products: a NaN element (complex: with a NaN part)
// counts as +0 in a sum (so a sum of nothing but NaN is +0) and 1 in a real product; a
// complex product leaves it out (the empty product), as the CPU engine's sumomit/prodomit
// lift it; the rest is the operator's own
template <typename T> __device__ __forceinline__ bool has_nan (T x) { return x != x; }
template <typename T> __device__ __forceinline__ bool has_nan (cplx<T> x)
{ return x.re != x.re || x.im != x.im; }
template <typename Op>
struct omit_nan : Op
{
  typedef typename Op::elem T;
  typedef typename Op::A A;
  static __device__ __forceinline__ A lift (T x, int64_t k)
  {
    return has_nan (x) ? (std::is_same<Op, sum_op<T>>::value ? A {} : Op::identity ()) : Op::lift (x, k);
  }
};

// "accurate" sums of double, single and their complex: the state is a double-double
// (base/double_double.h, the CPU engine's rule), about 106 bits, so that each output is
// the exact prefix rounded once (a single's: to double, then to single).  Its additions
// are not associative in the last bits of lo: "accurate" scans are "reproducible" (the
// gateway sets both), so their grouping is fixed.
template <typename T> struct accurate_sum
{
  typedef T elem;
  typedef dd A;
  static __device__ __forceinline__ A identity () { return { -0.0, 0.0 }; }
  static __device__ __forceinline__ A lift (T x, int64_t) { return { double (x), 0.0 }; }
  static __device__ __forceinline__ A combine (A a, A b) { return dd_add (a, b); }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = T (dd_value (a)); }
};
template <typename T> struct accurate_sum<cplx<T>>
{
  typedef cplx<T> elem;
  struct A { dd re, im; };
  static __device__ __forceinline__ A identity () { return { { -0.0, 0.0 }, { -0.0, 0.0 } }; }
  static __device__ __forceinline__ A lift (elem x, int64_t)
  { return { { double (x.re), 0.0 }, { double (x.im), 0.0 } }; }
  static __device__ __forceinline__ A combine (A a, A b)
  { return { dd_add (a.re, b.re), dd_add (a.im, b.im) }; }
  static __device__ __forceinline__ void emit (A a, elem *y, double *)
  { *y = { T (dd_value (a.re)), T (dd_value (a.im)) }; }
};

template <typename T> struct lse_op;   // (below limits)

// Operators whose results depend on how the elements are grouped: floating sums and
// products round.  A "reproducible" scan fixes their grouping (look_back.cuh); the others'
// results are the same in any grouping.
template <typename Op> struct grouping_matters : std::false_type {};
template <typename T> struct grouping_matters<sum_op<T>> : std::true_type {};
template <typename T> struct grouping_matters<prod_op<T>> : std::true_type {};
template <typename Op> struct grouping_matters<omit_nan<Op>> : grouping_matters<Op> {};
template <typename T> struct grouping_matters<accurate_sum<T>> : std::true_type {};
template <typename T> struct grouping_matters<lse_op<T>> : std::true_type {};

// An exclusive scan's output: the sum of the elements before as Octave's sum adds them,
// from +0 (a sum of none is 0, where the -0 identity of sum_op would give -0).  Other
// operators' outputs are their states'.
template <typename Op> struct exclusive_output
{ template <typename V> static __device__ __forceinline__ V of (const V& v) { return v; } };
template <typename T> struct exclusive_output<sum_op<T>>
{ static __device__ __forceinline__ T of (T v) { return v + T {}; } };
template <typename Op> struct exclusive_output<omit_nan<Op>> : exclusive_output<Op> {};
template <typename T> struct exclusive_output<accurate_sum<T>>
{
  static __device__ __forceinline__ dd of (dd v) { return { v.hi + 0.0, v.lo }; }
  template <typename C> static __device__ __forceinline__ C of (const C& v)
  { return { of (v.re), of (v.im) }; }
};

template <typename T> struct limits;
#define GSK_LIMITS(T, lo, hi, nan_test)                                              \
  template <> struct limits<T>                                                       \
  {                                                                                  \
    static __device__ __forceinline__ T lowest () { return lo; }                     \
    static __device__ __forceinline__ T highest () { return hi; }                    \
    static __device__ __forceinline__ bool isnan (T v) { return nan_test; }          \
  };
GSK_LIMITS (double, -__longlong_as_double (0x7ff0000000000000LL),
            __longlong_as_double (0x7ff0000000000000LL), v != v)
GSK_LIMITS (float, -__int_as_float (0x7f800000), __int_as_float (0x7f800000), v != v)
GSK_LIMITS (int8_t, INT8_MIN, INT8_MAX, false)
GSK_LIMITS (uint8_t, 0, UINT8_MAX, false)
GSK_LIMITS (int16_t, INT16_MIN, INT16_MAX, false)
GSK_LIMITS (uint16_t, 0, UINT16_MAX, false)
GSK_LIMITS (int32_t, INT32_MIN, INT32_MAX, false)
GSK_LIMITS (uint32_t, 0, UINT32_MAX, false)
GSK_LIMITS (int64_t, INT64_MIN, INT64_MAX, false)
GSK_LIMITS (uint64_t, 0, UINT64_MAX, false)
#undef GSK_LIMITS

// logsumexp: the state is log (sum (exp (x))) of the elements so far; -Inf (the log of an
// empty sum) is the identity.  Two states combine as hi + log1p (exp (lo - hi)) with hi
// the larger, so that no exp overflows or underflows to a wrong result; a NaN propagates,
// +Inf absorbs (the CPU engine's LSE_OPS).  CUDA's exp and log1p round differently from
// the C library's (within 2 ulp each): the GPU's outputs agree with the CPU engine's to a
// few ulp of the result, not bit for bit.
template <typename T> struct lse_op
{
  typedef T elem;
  typedef T A;
  static __device__ __forceinline__ A identity () { return limits<T>::lowest (); }
  static __device__ __forceinline__ A lift (T x, int64_t) { return x; }
  static __device__ __forceinline__ A combine (A a, A b)
  {
    const T hi = a > b ? a : b, lo = a > b ? b : a;
    if (a != a || b != b)
      return a + b;
    if (lo == limits<T>::lowest () || hi == limits<T>::highest ())
      return hi;
    if constexpr (sizeof (T) == 4)
      return hi + log1pf (expf (lo - hi));
    else
      return hi + log1p (exp (lo - hi));
  }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = a; }
};

// Linear recurrences y(k) = a(k) y(k-1) + b(k): a scan of the affine maps y -> a y + b,
// which compose as (a2, b2) after (a1, b1) = (a2 a1, a2 b1 + b2) (the CPU engine's
// cpu_recurrence.c).  The element is the pair (a(k), b(k)), which element_access
// (tile_io.cuh) reads from the coefficients and x; the state is a composed map, and emit
// writes that map: the output y(k) = p y0 + q is made where the tile's outputs are
// stored, which knows the initial value y0.  0 times an Inf or NaN a counts as 0, as in
// the CPU engine's step (cpu_recurrence.c): so the identity (1, 0) composes to the
// element itself on every path (a kernel composes a segment's first element after the
// identity in one place and passes it on alone in another), and y0 = 0 starts a segment
// at b alone, as filter.
template <typename T> struct affine { T a, b; };
template <typename T> __device__ __forceinline__ bool is_zero (T v) { return v == T (0); }
template <typename T> __device__ __forceinline__ bool is_zero (cplx<T> v)
{ return v.re == T (0) && v.im == T (0); }
template <typename T> __device__ __forceinline__ T affine_step (T a, T y, T b)
{
  const T r = a * y + b;
  return has_nan (r) && is_zero (y) ? b : r;
}
template <typename T>
struct recurrence_op
{
  typedef affine<T> elem;
  typedef affine<T> A;
  static __device__ __forceinline__ A identity () { return { one<T>::get (), T () }; }
  static __device__ __forceinline__ A lift (A x, int64_t) { return x; }
  static __device__ __forceinline__ A combine (A f, A g)
  { return { g.a * f.a, affine_step (g.a, f.b, g.b) }; }
  static __device__ __forceinline__ void emit (A a, A *y, double *) { *y = a; }
};
template <typename T> struct grouping_matters<recurrence_op<T>> : std::true_type {};

template <typename T> struct value_index { T v; int64_t i; };   // i < 0: empty

// A later element replaces the running one only when strictly better (ties keep the
// element met first); NaN is never better, and a leading NaN run keeps its first
// position until a number comes: exactly cummax / cummin.  NAN_WINS ("includenan"): the
// first NaN wins over every later element, and its position stays.
template <typename T, bool is_max, bool nan_wins = false>
struct minmax_op
{
  typedef T elem;
  typedef value_index<T> A;
  static __device__ __forceinline__ A identity () { return { T (0), -1 }; }
  static __device__ __forceinline__ A lift (T x, int64_t k) { return { x, k }; }
  static __device__ __forceinline__ A combine (A a, A b)
  {
    if (b.i < 0) return a;
    if (a.i < 0) return b;
    if (limits<T>::isnan (nan_wins ? a.v : b.v)) return a;
    if (limits<T>::isnan (nan_wins ? b.v : a.v)) return b;
    return (is_max ? b.v > a.v : b.v < a.v) ? b : a;
  }
  static __device__ __forceinline__ void emit (A a, T *y, double *ix)
  {
    *y = a.i >= 0 ? a.v : is_max ? limits<T>::lowest () : limits<T>::highest ();
    if (ix)
      *ix = (double) (a.i + 1);
  }
};

// cummax / cummin of the values alone (no index output): the element is the state, so
// it travels packed with its look-back flag and the wide and striped tiles take it.  NaN
// is never better, and for floating types it is also the identity: a leading NaN run
// stays NaN (as with minmax_op) and pads change nothing.  An exclusive scan emits the
// empty state first (minmax_op: lowest () or highest ()), which NaN cannot stand for:
// exclusive scans, and the classic algorithms, take minmax_op (scan_kernels.cu).
// NAN_WINS ("includenan", floating types): a NaN wins from where it stands on, so the
// identity is -Inf for max and +Inf for min, which every element equals or beats.
template <typename T, bool is_max, bool nan_wins = false>
struct extremum_op
{
  typedef T elem;
  typedef T A;
  static __device__ __forceinline__ A identity ()
  {
    if constexpr (nan_wins)
      return is_max ? limits<T>::lowest () : limits<T>::highest ();
    else if constexpr (std::is_floating_point<T>::value)
      return limits<T>::highest () - limits<T>::highest ();   // inf - inf: NaN
    else
      return is_max ? limits<T>::lowest () : limits<T>::highest ();
  }
  static __device__ __forceinline__ A lift (T x, int64_t) { return x; }
  // b where it is better or a is NaN: a NaN b never wins, and ties keep the earlier (a
  // -0 before a 0 stays -0, as Octave's strict comparison); with nan_wins, a NaN a stays
  // and a NaN b wins
  static __device__ __forceinline__ A combine (A a, A b)
  {
    // (nan_wins as one select ran slower: H200, 2^26, x copy, single 1.56 -> 1.66,
    // double 1.13 -> 1.25; doc/performance.md)
    if constexpr (nan_wins)
      return limits<T>::isnan (a) ? a : (limits<T>::isnan (b) || (is_max ? b > a : b < a)) ? b : a;
    else
      return ((is_max ? b > a : b < a) || limits<T>::isnan (a)) ? b : a;
  }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = a; }
};

template <typename Op> struct is_extremum : std::false_type {};
template <typename T, bool is_max, bool nan_wins>
struct is_extremum<extremum_op<T, is_max, nan_wins>> : std::true_type {};

// operators that serve only inclusive scans with the decoupled algorithm (the dispatch
// sends the others to an operator that serves all): no kernels of theirs for the rest
template <typename Op> using inclusive_only = is_extremum<Op>;

// Saturating integer sum: the state is the clamp map s -> clamp (s + a, lo, hi).  Two
// such maps compose into one; `a` is kept within +-(hi - lo) of the type in a wider
// integer W (twice the type's bits: the sum of two such `a` fits), beyond which the map
// is constant anyway, so nothing overflows; lo and hi lie in the type's range.  (So the
// maps of 1- and 2-byte integers take 4 and 8 bytes, and travel packed in the look-back;
// those of 4-byte integers, 16 bytes, too, in 98 bits: look_back.cuh.)
template <typename T> struct wide { typedef long long type; };
template <> struct wide<int8_t> { typedef short type; };
template <> struct wide<uint8_t> { typedef short type; };
template <> struct wide<int16_t> { typedef int type; };
template <> struct wide<uint16_t> { typedef int type; };
template <> struct wide<int64_t> { typedef __int128 type; };
template <> struct wide<uint64_t> { typedef __int128 type; };

template <typename W, typename T> struct clamp_map { W a; T lo, hi; };

template <typename T>
struct satsum_op
{
  typedef T elem;
  typedef typename wide<T>::type W;
  typedef clamp_map<W, T> A;
  static __device__ __forceinline__ W clamp (W v, W lo, W hi) { return v < lo ? lo : v > hi ? hi : v; }
  static __device__ __forceinline__ A identity ()
  { return { W (0), limits<T>::lowest (), limits<T>::highest () }; }
  static __device__ __forceinline__ A lift (T x, int64_t)
  { return { W (x), limits<T>::lowest (), limits<T>::highest () }; }
  // beyond +-span of the type the map is constant: an offset kept within it loses nothing
  static __device__ __forceinline__ W clamp_offset (W a)
  {
    const W span = W (limits<T>::highest ()) - W (limits<T>::lowest ());
    return clamp (a, -span, span);
  }
  static __device__ __forceinline__ A combine (A f, A g)
  {
    return { clamp_offset (W (f.a + g.a)), T (clamp (W (f.lo + g.a), W (g.lo), W (g.hi))),
             T (clamp (W (f.hi + g.a), W (g.lo), W (g.hi))) };
  }
  static __device__ __forceinline__ void emit (A f, T *y, double *)
  { *y = T (clamp (f.a, W (f.lo), W (f.hi))); }
};

// The second pass of a scan knows its prefix, so it only needs to step a value along:
// runner<Op> does that.  For most operators the value is the state itself; a saturating
// sum steps a plain saturating add instead of composing clamp maps.
template <typename Op>
struct runner
{
  typedef typename Op::elem T;
  typedef typename Op::A V;
  static constexpr bool checks_range = false;
  static __device__ __forceinline__ V start (const typename Op::A& a) { return a; }
  static __device__ __forceinline__ V reset () { return Op::identity (); }
  static __device__ __forceinline__ V step (const V& v, T x, int64_t k)
  { return Op::combine (v, Op::lift (x, k)); }
  static __device__ __forceinline__ void emit (const V& v, T *y, double *ix) { Op::emit (v, y, ix); }
};

template <typename T>
__device__ __forceinline__ T wrap_add (T a, T b)
{
  typedef typename std::make_unsigned<T>::type U;
  return T (U (a) + U (b));
}

// A running saturating sum of T: in the wider type, clamped, where that is a machine
// type (1- to 4-byte elements); 64-bit sums in their own width, not in 128-bit arithmetic
// (a signed sum leaves the range only where the wrapped result's sign differs from both
// operands'; an unsigned one, where it wraps).  The test is runner<checked_sum_op>::
// leaves_range's, written out here: through one helper for both, ptxas compiled the
// saturating kernels 3% slower (H100: int64 at 2^24, kogge-stone 570 -> 585 us, commit faf01f0)
template <typename T>
struct saturating
{
  static constexpr bool in_wide = sizeof (T) < 8;
  // (1- and 2-byte sums step in int, the machine's width: in short, each step took
  // conversions besides its add, min and max)
  typedef typename std::conditional<(sizeof (T) < 4), int,
            typename std::conditional<in_wide, typename wide<T>::type, T>::type>::type V;
  static __device__ __forceinline__ V add (V v, T x)
  {
    if constexpr (in_wide)
      {
        const V lo = V (limits<T>::lowest ()), hi = V (limits<T>::highest ());
#if __CUDA_ARCH__ >= 900
        if constexpr (sizeof (T) < 4)   // (Hopper's fused add-and-max, DPX)
          return min (__viaddmax_s32 (v, V (x), lo), hi);
#endif
        const V r = v + V (x);
        return r < lo ? lo : r > hi ? hi : r;
      }
    else
      {
        const T r = wrap_add (v, x);
        if constexpr (std::is_signed<T>::value)
          return ((v ^ r) & (x ^ r)) < 0 ? (v < 0 ? limits<T>::lowest () : limits<T>::highest ()) : r;
        else
          return r < v ? limits<T>::highest () : r;
      }
  }
};

template <typename T>
struct runner<satsum_op<T>>
{
  typedef satsum_op<T> Op;
  typedef typename saturating<T>::V V;
  static constexpr bool checks_range = false;
  static __device__ __forceinline__ V start (const typename Op::A& f)
  { return V (Op::clamp (f.a, typename Op::W (f.lo), typename Op::W (f.hi))); }
  static __device__ __forceinline__ V reset () { return V (0); }
  static __device__ __forceinline__ V step (V v, T x, int64_t) { return saturating<T>::add (v, x); }
  static __device__ __forceinline__ void emit (V v, T *y, double *) { *y = T (v); }
};

// A thread's run of elements (no line start inside) folded into one state.  For most
// operators, state by state; a saturating sum's clamp map of a run is its bounds' images
// (lo = the run from lowest (), hi = from highest (), by saturating<T>::add) and the
// plain sum of the run as offset, clamped once: where lo < hi that offset is exact and
// within +-span, and where lo == hi the map is constant and its offset unused.
template <typename Op>
struct run_fold
{
  typename Op::A a = Op::identity ();
  __device__ __forceinline__ void step (typename Op::elem x, int64_t k) { a = Op::combine (a, Op::lift (x, k)); }
  __device__ __forceinline__ typename Op::A state () const { return a; }
};

template <typename T>
struct run_fold<satsum_op<T>>
{
  typedef satsum_op<T> Op;
  typedef typename Op::W W;
  typedef saturating<T> S;
  // the sum in W, or in int for 1- and 2-byte elements (as S::V): twice T's bits or
  // more, and no run is long enough to overflow them
  typedef typename std::conditional<(sizeof (T) < 4), int, W>::type U;
  U sum = 0;
  typename S::V lo = limits<T>::lowest (), hi = limits<T>::highest ();
  __device__ __forceinline__ void step (T x, int64_t)
  {
    sum += x;
    lo = S::add (lo, x);
    hi = S::add (hi, x);
  }
  __device__ __forceinline__ typename Op::A state () const
  {
    const U span = U (limits<T>::highest ()) - U (limits<T>::lowest ());
    return { W (sum < -span ? -span : sum > span ? span : sum), T (lo), T (hi) };
  }
};

// logsumexp's runs and final steps carry a pair (m, s), the value m + log (s): a step
// adds exp (x - m) to s (or rescales s where x is the larger), so each element costs one
// exp, off the dependent chain but for the rare rescale, and a run one log at its end
// (the state's combine takes an exp and a log1p an element, in the chain).  -Inf
// elements change nothing, a +Inf m stays, a NaN propagates: lse_op's rules.
template <typename T> struct lse_pair { T m, s; };
template <typename T>
__device__ __forceinline__ lse_pair<T> lse_step (lse_pair<T> v, T x)
{
  if (x != x || v.m != v.m)
    return { v.m + x, v.s };
  if (x == limits<T>::lowest () || v.m == limits<T>::highest ())
    return v;
  if constexpr (sizeof (T) == 4)
    return x <= v.m ? lse_pair<T> { v.m, v.s + expf (x - v.m) } : lse_pair<T> { x, v.s * expf (v.m - x) + 1 };
  else
    return x <= v.m ? lse_pair<T> { v.m, v.s + exp (x - v.m) } : lse_pair<T> { x, v.s * exp (v.m - x) + 1 };
}
template <typename T>
__device__ __forceinline__ T lse_value (lse_pair<T> v)
{
  if constexpr (sizeof (T) == 4)
    return v.m + logf (v.s);
  else
    return v.m + log (v.s);
}

template <typename T>
struct runner<lse_op<T>>
{
  typedef lse_pair<T> V;
  static constexpr bool checks_range = false;
  static __device__ __forceinline__ V start (T a) { return { a, T (1) }; }
  static __device__ __forceinline__ V reset () { return { limits<T>::lowest (), T (1) }; }
  static __device__ __forceinline__ V step (V v, T x, int64_t) { return lse_step (v, x); }
  static __device__ __forceinline__ void emit (V v, T *y, double *) { *y = lse_value (v); }
};

template <typename T>
struct run_fold<lse_op<T>>
{
  lse_pair<T> v = { limits<T>::lowest (), T (1) };
  __device__ __forceinline__ void step (T x, int64_t) { v = lse_step (v, x); }
  __device__ __forceinline__ T state () const { return lse_value (v); }
};

// The saturating sum's fast path for 4- and 8-byte integers: a wrapping sum (its state
// fits the packed look-back word), whose final pass notes any step whose exact result
// leaves the type's range (runner::leaves_range).  Where no step does, no step saturated
// and the wrapping sums are the saturating ones; otherwise the scan runs again with
// satsum_op.  Only the final pass checks: it steps from exact prefixes, while aggregates
// of a stretch may wrap and still sum to exact prefixes.
template <typename T>
struct checked_sum_op
{
  typedef T elem;
  typedef T A;
  static __device__ __forceinline__ A identity () { return T (0); }
  static __device__ __forceinline__ A lift (T x, int64_t) { return x; }
  static __device__ __forceinline__ A combine (A a, A b) { return wrap_add (a, b); }
  static __device__ __forceinline__ void emit (A a, T *y, double *) { *y = a; }
};

template <typename T>
struct runner<checked_sum_op<T>>
{
  typedef T V;
  static constexpr bool checks_range = true;
  static __device__ __forceinline__ V start (T a) { return a; }
  static __device__ __forceinline__ V reset () { return T (0); }
  static __device__ __forceinline__ V step (V v, T x, int64_t) { return wrap_add (v, x); }
  static __device__ __forceinline__ bool leaves_range (V v, T x)
  {
    const T r = wrap_add (v, x);
    return std::is_signed<T>::value ? ((v ^ r) & (x ^ r)) < 0 : r < v;
  }
  static __device__ __forceinline__ void emit (V v, T *y, double *) { *y = v; }
};

template <typename Op> struct fast_sum { typedef void type; };   // none
template <typename T> struct fast_sum<satsum_op<T>>
{ typedef typename std::conditional<sizeof (T) >= 4, checked_sum_op<T>, void>::type type; };

// Segmented scan: a state with a flag saying a head lies inside it; whatever came
// before a head does not reach past it.
template <typename Op>
struct seg
{
  typename Op::A a;
  int head;
};

template <typename Op>
__device__ __forceinline__ seg<Op> seg_combine (const seg<Op>& x, const seg<Op>& y)
{
  return { y.head ? y.a : Op::combine (x.a, y.a), x.head | y.head };
}

template <typename Op>
__device__ __forceinline__ seg<Op> seg_identity ()
{
  return { Op::identity (), 0 };
}

}  // namespace gsk

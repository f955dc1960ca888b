// The scan operators' algebra, checked on the host (no GPU): kernels/ops/scan_ops.cuh compiled
// as host code.  Every decoupled, striped and hierarchical kernel relies on it: combine is
// associative with identity () as its identity, a second pass stepping its runner from a
// prefix gives what the states give, and the wrapping sum's range check is exact.  The
// GPU self-test (tests/gpu_selftest.c) checks the kernels' outputs; this checks the rules
// under them on millions of random and extreme cases in a second, in every build.
//   saturating sums (clamp maps) of all eight integer types: states from random runs of
//     full-range, small and extreme values; associativity and identity as maps (the same
//     bounds, the same offset where the map is not constant), emit against a sequential
//     saturating sum, the runner and run_fold against the states;
//   checked sums: leaves_range against the exact sum;
//   max and min of doubles and singles with NaN, with and without the index;
//   complex products with Inf, NaN and zeros: the plain formula with Annex G's recovery
//     against std::complex (libgcc's __muldc3, what the CPU engine and Octave use), the
//     empty product passed over (a product starts from its first element, as cumprod);
//   "includenan" max and min (the first NaN wins, with its position);
//   "accurate" sums (double-doubles): the exact sum rounded, in every grouping, where it
//     fits 106 bits;
//   logsumexp: within a few ulp of log (sum (exp (x))) in every grouping; its identity,
//     +Inf and NaN;
//   exclusive sums' outputs: +0 for no elements, as Octave's sum ([]).
#include <cmath>
#include <complex>
#include <limits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
static inline double __longlong_as_double (long long v) { double d; std::memcpy (&d, &v, 8); return d; }
static inline float __int_as_float (int v) { float f; std::memcpy (&f, &v, 4); return f; }
static inline long long __double_as_longlong (double v) { long long d; std::memcpy (&d, &v, 8); return d; }
static inline int __float_as_int (float v) { int f; std::memcpy (&f, &v, 4); return f; }
#include "ops/scan_ops.cuh"

using namespace gsk;

static std::mt19937_64 rng (20261125);
static long failures;

#define EXPECT(cond, ...) \
  do { if (! (cond) && failures++ < 10) { std::printf (__VA_ARGS__); std::printf ("\n"); } } while (0)

template <typename T> static T draw (int mode)
{
  const uint64_t r = rng ();
  if (mode == 0)
    return (T) r;
  if (mode == 1)
    return (T) ((int64_t) (r % 9) - 4);
  const T near[] = { limits<T>::lowest (), limits<T>::highest (), T (0), T (1),
                     T (limits<T>::highest () - 1), T (limits<T>::lowest () + 1) };
  return near[r % 6];
}

// ---- saturating sums ----------------------------------------------------------------
template <typename T> struct run { T x[8]; int n; };

// an exact sum saturated to T's range
template <typename T> static __int128 saturate (__int128 v)
{
  return std::min (std::max (v, (__int128) limits<T>::lowest ()), (__int128) limits<T>::highest ());
}

template <typename T> static run<T> draw_run ()
{
  run<T> r;
  r.n = 1 + (int) (rng () % 8);
  const int mode = (int) (rng () % 3);
  for (int i = 0; i < r.n; i++)
    r.x[i] = draw<T> (mode);
  return r;
}

template <typename T> static typename satsum_op<T>::A state_of (const run<T>& r)
{
  typedef satsum_op<T> Op;
  typename Op::A a = Op::identity ();
  for (int i = 0; i < r.n; i++)
    a = Op::combine (a, Op::lift (r.x[i], i));
  return a;
}

template <typename T> static bool same_map (const typename satsum_op<T>::A& a, const typename satsum_op<T>::A& b)
{
  return a.lo == b.lo && a.hi == b.hi && (a.lo == a.hi || a.a == b.a);
}

template <typename T> static void check_satsum (const char *name, long cases)
{
  typedef satsum_op<T> Op;
  typedef runner<Op> R;
  const long before = failures;
  for (long c = 0; c < cases; c++)
    {
      const run<T> p = draw_run<T> (), q = draw_run<T> (), s = draw_run<T> ();
      const typename Op::A a = state_of (p), b = state_of (q), d = state_of (s);
      EXPECT (same_map<T> (Op::combine (Op::combine (a, b), d), Op::combine (a, Op::combine (b, d))),
              "%s: combine is not associative (case %ld)", name, c);
      EXPECT (same_map<T> (Op::combine (Op::identity (), a), a) && same_map<T> (Op::combine (a, Op::identity ()), a),
              "%s: identity () is not the identity (case %ld)", name, c);
      // a thread's run folded as the tile kernels fold it (run_fold)
      run_fold<Op> f;
      for (int i = 0; i < p.n; i++)
        f.step (p.x[i], i);
      EXPECT (same_map<T> (f.state (), a), "%s: run_fold differs from the states (case %ld)", name, c);
      // a scan of p then q, element by element, saturating at every step (in 128 bits)
      __int128 v = 0;
      for (int i = 0; i < p.n; i++)
        v = saturate<T> (v + p.x[i]);
      T y;
      Op::emit (a, &y, nullptr);
      EXPECT ((__int128) y == v, "%s: emit of a run's state differs from its saturating sum (case %ld)", name, c);
      // the runner from prefix a over q: each step as the states give it
      typename R::V rv = R::start (a);
      typename Op::A st = a;
      for (int i = 0; i < q.n; i++)
        {
          v = saturate<T> (v + q.x[i]);
          rv = R::step (rv, q.x[i], i);
          st = Op::combine (st, Op::lift (q.x[i], i));
          T yr, ys;
          R::emit (rv, &yr, nullptr);
          Op::emit (st, &ys, nullptr);
          EXPECT (yr == ys && (__int128) ys == v, "%s: the runner's step %d differs from the states (case %ld)", name, i, c);
        }
    }
  std::printf ("  satsum %-7s %ld cases, %ld failed\n", name, cases, failures - before);
}

// ---- checked sums: leaves_range is exact -------------------------------------------
template <typename T> static void check_checked (const char *name, long cases)
{
  typedef runner<checked_sum_op<T>> R;
  const long before = failures;
  for (long c = 0; c < cases; c++)
    {
      const T v = draw<T> ((int) (c % 3)), x = draw<T> ((int) ((c / 3) % 3));
      const __int128 exact = (__int128) v + x;
      EXPECT (R::leaves_range (v, x) == (saturate<T> (exact) != exact), "%s: leaves_range wrong (case %ld)", name, c);
    }
  std::printf ("  checked %-6s %ld cases, %ld failed\n", name, cases, failures - before);
}

// ---- max and min with NaN -----------------------------------------------------------
template <typename T> static T draw_float ()
{
  const uint64_t r = rng ();
  // NaN, small integers (ties), and -0 beside 0 (equal, yet a tie must keep the first)
  return r % 7 == 0 ? T (NAN) : r % 11 == 0 ? T (-0.0) : T ((int) (r % 5) - 2);
}

// Two random cut points of n elements (three parts, any of them empty), and an operator's
// states of x[0..n) folded part by part and the parts combined in both groupings
static void split_three (int n, int& s1, int& s2)
{
  s1 = (int) (rng () % (n + 1));
  s2 = s1 + (int) (rng () % (n - s1 + 1));
}

template <typename Op> struct groupings { typename Op::A left, right; };

template <typename Op>
static groupings<Op> fold_three (const typename Op::elem *x, int n, int s1, int s2)
{
  typename Op::A a[3] = { Op::identity (), Op::identity (), Op::identity () };
  for (int i = 0; i < n; i++)
    {
      const int part = i < s1 ? 0 : i < s2 ? 1 : 2;
      a[part] = Op::combine (a[part], Op::lift (x[i], i));
    }
  return { Op::combine (Op::combine (a[0], a[1]), a[2]), Op::combine (a[0], Op::combine (a[1], a[2])) };
}

// max and min with and without the index; NAN_WINS: "includenan", the first NaN wins
template <typename T, bool is_max, bool nan_wins = false>
static void check_extrema (const char *name, long cases)
{
  typedef minmax_op<T, is_max, nan_wins> I;
  typedef extremum_op<T, is_max, nan_wins> V;   // (the values alone)
  const char *flag = nan_wins ? "includenan " : "";
  const long before = failures;
  for (long c = 0; c < cases; c++)
    {
      const int n = 1 + (int) (rng () % 12);
      T x[12];
      for (int i = 0; i < n; i++)
        x[i] = draw_float<T> ();
      // sequential cummax / cummin: NaN skipped, ties keep the first; a leading NaN run
      // stays NaN with its first position.  With nan_wins a NaN, once met, stays with
      // its position.
      T m = x[0];
      int64_t at = 0;
      for (int i = 1; i < n; i++)
        if (nan_wins ? ! std::isnan (m) && (std::isnan (x[i]) || (is_max ? x[i] > m : x[i] < m))
                     : ! std::isnan (x[i]) && (std::isnan (m) || (is_max ? x[i] > m : x[i] < m)))
          m = x[i], at = i;
      int s1, s2;
      split_three (n, s1, s2);
      const groupings<I> ig = fold_three<I> (x, n, s1, s2);
      const groupings<V> vg = fold_three<V> (x, n, s1, s2);
      T y1, y2, y3, y4;
      double i1, i2;
      I::emit (ig.left, &y1, &i1);
      I::emit (ig.right, &y2, &i2);
      V::emit (vg.left, &y3, nullptr);
      V::emit (vg.right, &y4, nullptr);
      const auto same = [] (T a, T b) { return (std::isnan (a) && std::isnan (b)) || (a == b && std::signbit (a) == std::signbit (b)); };
      EXPECT (same (y1, m) && same (y2, m) && i1 == (double) (at + 1) && i2 == (double) (at + 1),
              "%s: %smax/min with the index differs from the sequential one (case %ld)", name, flag, c);
      EXPECT (same (y3, m) && same (y4, m),
              "%s: %smax/min of the values differs from the sequential one (case %ld)", name, flag, c);
    }
  std::printf ("  %s %s %s%ld cases, %ld failed\n", is_max ? "max" : "min", name, flag, cases,
               failures - before);
}

// ---- "accurate" sums: the exact sum rounded, in every grouping ---------------------
// Elements m 2^k (|m| < 2^20, k in [-40, 40]): every prefix is exact in 106 bits, so a
// double-double holds it whatever the grouping, and the output is the exact sum (an
// integer multiple of 2^-40, exact in __int128) rounded to double, then to T.
template <typename T> static void check_accurate (const char *name, long cases)
{
  typedef accurate_sum<T> S;
  const long before = failures;
  for (long c = 0; c < cases; c++)
    {
      const int n = 1 + (int) (rng () % 12);
      T x[12];
      __int128 exact = 0;
      for (int i = 0; i < n; i++)
        {
          const uint64_t r = rng ();
          const int64_t m = (int64_t) (r % (1 << 20)) * ((r >> 20) & 1 ? -1 : 1);
          const int k = (int) ((r >> 21) % 81) - 40;
          x[i] = T (std::ldexp ((double) m, k));
          exact += (__int128) m << (k + 40);
        }
      int s1, s2;
      split_three (n, s1, s2);
      const groupings<S> g = fold_three<S> (x, n, s1, s2);
      T y1, y2;
      S::emit (g.left, &y1, nullptr);
      S::emit (g.right, &y2, nullptr);
      // (__int128 to double rounds to nearest; the scale 2^-40 is exact)
      const T want = T (std::ldexp ((double) exact, -40));
      EXPECT (y1 == want && y2 == want, "%s: accurate sum %.17g / %.17g, not %.17g (case %ld)",
              name, (double) y1, (double) y2, (double) want, c);
    }
  std::printf ("  accurate %-6s %ld cases, %ld failed\n", name, cases, failures - before);
}

// ---- logsumexp: nearly associative, and log (sum (exp (x))) -------------------------
template <typename T> static void check_lse (const char *name, long cases)
{
  typedef lse_op<T> L;
  const long before = failures;
  const double tol = sizeof (T) == 4 ? 4e-6 : 8e-15;
  for (long c = 0; c < cases; c++)
    {
      const int n = 1 + (int) (rng () % 12);
      T x[12];
      long double sum = 0;
      for (int i = 0; i < n; i++)
        {
          x[i] = T ((double) (int64_t) (rng () % 2001 - 1000) / 50);   // within +-20
          sum += std::exp ((long double) x[i]);
        }
      int s1, s2;
      split_three (n, s1, s2);
      const groupings<L> g = fold_three<L> (x, n, s1, s2);
      const double want = (double) std::log (sum);
      const double y1 = g.left, y2 = g.right;
      const double err = std::fmax (std::fabs (y1 - want), std::fabs (y2 - want));
      EXPECT (err <= tol * std::fmax (1.0, std::fabs (want)),
              "%s: logsumexp %.17g / %.17g, not %.17g (case %ld)", name, y1, y2, want, c);
    }
  // the identity, +Inf and NaN
  EXPECT (L::combine (L::identity (), T (-3)) == T (-3) && L::combine (T (2), L::identity ()) == T (2),
          "%s: -Inf is not logsumexp's identity", name);
  EXPECT (L::combine (T (INFINITY), T (5)) == T (INFINITY), "%s: +Inf does not absorb", name);
  EXPECT (std::isnan (L::combine (T (NAN), T (5))) && std::isnan (L::combine (T (-INFINITY), T (NAN))),
          "%s: a NaN does not propagate", name);
  std::printf ("  logsumexp %-6s %ld cases, %ld failed\n", name, cases, failures - before);
}

// ---- complex products ---------------------------------------------------------------
template <typename T> static T draw_special ()
{
  const T inf = std::numeric_limits<T>::infinity (), nan = std::numeric_limits<T>::quiet_NaN ();
  const T v[] = { inf, -inf, nan, T (0), T (-0.0), T (1), T (-2.5), T (3), std::numeric_limits<T>::max () };
  return v[rng () % 9];
}

template <typename T> static bool same_bits (T a, T b)
{
  return (std::isnan (a) && std::isnan (b)) || (a == b && std::signbit (a) == std::signbit (b));
}

template <typename T> static void check_complex_prod (const char *name, long cases)
{
  typedef prod_op<cplx<T>> P;
  typedef cplx<T> C;
  const long before = failures;
  for (long c = 0; c < cases; c++)
    {
      const C a = { draw_special<T> (), draw_special<T> () }, b = { draw_special<T> (), draw_special<T> () };
      // volatile: the reference must not be folded into fused multiply-adds either
      volatile T ar = a.re, ai = a.im, br = b.re, bi = b.im;
      const std::complex<T> ref = std::complex<T> (ar, ai) * std::complex<T> (br, bi);
      const C got = a * b;
      EXPECT (same_bits (got.re, ref.real ()) && same_bits (got.im, ref.imag ()),
              "%s: (%g%+gi) * (%g%+gi) = %g%+gi, std::complex gives %g%+gi", name, (double) a.re,
              (double) a.im, (double) b.re, (double) b.im, (double) got.re, (double) got.im,
              (double) ref.real (), (double) ref.imag ());
      // the empty product is passed over on either side, and emits 1
      C y;
      P::emit (P::combine (P::identity (), P::lift (a, 0)), &y, nullptr);
      EXPECT (same_bits (y.re, a.re) && same_bits (y.im, a.im), "%s: empty * x is not x", name);
      P::emit (P::combine (P::lift (a, 0), P::identity ()), &y, nullptr);
      EXPECT (same_bits (y.re, a.re) && same_bits (y.im, a.im), "%s: x * empty is not x", name);
    }
  C one;
  P::emit (P::identity (), &one, nullptr);
  EXPECT (one.re == 1 && one.im == 0, "%s: the empty product emits %g%+gi", name, (double) one.re,
          (double) one.im);
  // an input holding the empty product's own NaN is a NaN like any other
  const C fake = P::identity ();
  C y;
  P::emit (P::combine (P::lift (C { 2, 0 }, 0), P::lift (fake, 1)), &y, nullptr);
  EXPECT (std::isnan (y.re), "%s: an input NaN of the empty product's payload was passed over", name);
  std::printf ("  complex prod %s %ld cases, %ld failed\n", name, cases, failures - before);
}

template <typename T> static void check_exclusive_sum (const char *name)
{
  typedef sum_op<T> S;
  const typename S::A neg_zero = S::combine (S::identity (), S::lift (T (-0.0), 0));
  const T none = exclusive_output<S>::of (S::identity ()), of_neg_zero = exclusive_output<S>::of (neg_zero);
  EXPECT (none == 0 && ! std::signbit (none) && ! std::signbit (of_neg_zero),
          "%s: an exclusive sum of nothing (or of -0) is -0, Octave's sum gives +0", name);
  T inclusive;
  S::emit (neg_zero, &inclusive, nullptr);
  EXPECT (std::signbit (inclusive), "%s: an inclusive sum of -0 is not -0 (cumsum's)", name);
}

int main ()
{
  const long n = 200000;
  check_satsum<int8_t> ("int8", n);
  check_satsum<uint8_t> ("uint8", n);
  check_satsum<int16_t> ("int16", n);
  check_satsum<uint16_t> ("uint16", n);
  check_satsum<int32_t> ("int32", n);
  check_satsum<uint32_t> ("uint32", n);
  check_satsum<int64_t> ("int64", n);
  check_satsum<uint64_t> ("uint64", n);
  check_checked<int32_t> ("int32", n);
  check_checked<uint32_t> ("uint32", n);
  check_checked<int64_t> ("int64", n);
  check_checked<uint64_t> ("uint64", n);
  check_extrema<double, true> ("double", n);
  check_extrema<double, false> ("double", n);
  check_extrema<float, true> ("single", n);
  check_extrema<float, false> ("single", n);
  check_extrema<double, true, true> ("double", n);
  check_extrema<double, false, true> ("double", n);
  check_extrema<float, true, true> ("single", n);
  check_extrema<float, false, true> ("single", n);
  check_accurate<double> ("double", n);
  check_accurate<float> ("single", n);
  check_lse<double> ("double", n);
  check_lse<float> ("single", n);
  check_complex_prod<double> ("double", n);
  check_complex_prod<float> ("single", n);
  check_exclusive_sum<double> ("double");
  check_exclusive_sum<float> ("single");
  std::printf ("ops_algebra_check: %s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}

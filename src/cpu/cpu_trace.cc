/* The classic block scans (and Blelloch's exclusive scan) traced a step at a time on the host (cpu_trace.h), through the
   kernels' step code: base/block_scan_steps.h compiled as host code. */
#include <cstdio>
#include <vector>

#include "base/block_scan_steps.h"
#include "cpu/cpu_trace.h"

using namespace gsk;

namespace {

int block_of (int n)
{
  int b = 1;
  while (b < n)
    b <<= 1;
  return b;
}

int log2_of (int b)
{
  int k = 0;
  while ((1 << k) < b)
    k++;
  return k;
}

// Bank conflicts of one access instruction of a step: for each warp, the shared-memory
// wavefronts its active threads' 4-byte words take (the most distinct words in one of
// the 32 banks; the same word is one), beyond the one a request takes
struct conflict_count
{
  int block;
  std::vector<std::vector<int>> words;   // a warp's words
  explicit conflict_count (int b) : block (b), words ((b + 31) / 32) {}
  void access (int t, int word) { words[t / 32].push_back (word); }
  int extra ()
  {
    int sum = 0;
    for (auto& w : words)
      {
        if (w.empty ())
          continue;
        std::vector<std::vector<int>> bank (32);
        int most = 0;
        for (int a : w)
          {
            auto& b = bank[a % 32];
            bool seen = false;
            for (int c : b)
              seen |= c == a;
            if (! seen)
              b.push_back (a);
            if ((int) b.size () > most)
              most = (int) b.size ();
          }
        sum += most - 1;
        w.clear ();
      }
    return sum;
  }
};

struct recorder
{
  int n;
  double *rows;
  trace_step *steps;
  int *from, *to, *step_of, *arrows;
  int step = 0;
  void row (const double *a, int (*slot) (int))
  {
    for (int i = 0; i < n; i++)
      rows[(step + 1) * n + i] = a[slot (i)];
  }
  void arrow (int f, int t)
  {
    if (f < n && t < n)
      {
        from[*arrows] = f;
        to[*arrows] = t;
        step_of[*arrows] = step;
        ++*arrows;
      }
  }
};

int identity_slot (int i) { return i; }

const auto plus = [] (double a, double b) { return a + b; };

void kogge_stone (recorder& r, std::vector<double> buf[2], int block)
{
  int in = 0;
  for (int d = 1; d < block; d <<= 1)
    {
      trace_step& s = r.steps[r.step];
      std::snprintf (s.name, sizeof s.name, "d = %d", d);
      conflict_count reads (block), operands (block), writes (block);
      for (int t = 0; t < block; t++)
        {
          kogge_stone_step::run (buf[in].data (), buf[1 - in].data (), t, d, plus);
          // the words it touched: in[t], in[t - d] where it adds, out[t] (buffer 1 after
          // buffer 0's block words)
          reads.access (t, in * block + t);
          if (kogge_stone_step::adds (t, d))
            {
              operands.access (t, in * block + t - d);
              s.threads++;
              s.adds++;
              r.arrow (t - d, t);
            }
          writes.access (t, (1 - in) * block + t);
        }
      s.conflicts = reads.extra () + operands.extra () + writes.extra ();
      in = 1 - in;
      r.row (buf[in].data (), identity_slot);
      r.step++;
    }
}

// Brent-Kung (inclusive) or Blelloch (exclusive): the same up-sweep, then Brent-Kung's
// distribution tree, or the root cleared and Blelloch's down-sweep
template <bool PADDED>
void tree_scan (recorder& r, std::vector<double>& buf, int block, bool exclusive)
{
  typedef brent_kung_step<PADDED> bk;
  typedef blelloch_step<PADDED> bl;
  // one level of a tree: thread t combines the pair (from, to) of its node (and in
  // Blelloch's down-sweep also moves to's old value to from)
  const auto sweep = [&] (bool up, int level, int stride) {
    trace_step& s = r.steps[r.step];
    std::snprintf (s.name, sizeof s.name, "%s-sweep level %d", up ? "up" : "down", level);
    conflict_count left (block), right (block), writes (block), moves (block);
    const bool swaps = ! up && exclusive;
    for (int t = 0; t < block; t++)
      {
        if (up)
          bk::up (buf.data (), t, stride, block, plus);
        else if (swaps)
          bl::down (buf.data (), t, stride, block, plus);
        else
          bk::down (buf.data (), t, stride, block, plus);
        if (up ? bk::adds_up (t, stride, block)
               : swaps ? bl::adds_down (t, stride, block) : bk::adds_down (t, stride, block))
          {
            const int i = bk::node (t, stride);
            const int from = up || swaps ? i - stride : i, to = up || swaps ? i : i + stride;
            left.access (t, bk::slot (from));
            right.access (t, bk::slot (to));
            writes.access (t, bk::slot (to));
            if (swaps)
              moves.access (t, bk::slot (from));
            s.threads++;
            s.adds++;
            r.arrow (from, to);
          }
      }
    s.conflicts = left.extra () + right.extra () + writes.extra () + moves.extra ();
    r.row (buf.data (), bk::slot);
    r.step++;
  };
  const int levels = log2_of (block);
  int level = 1;
  for (int stride = 1; stride < block; stride <<= 1)
    sweep (true, level++, stride);
  if (! exclusive)
    {
      level = levels - 1;
      for (int stride = block / 4; stride > 0; stride >>= 1)
        sweep (false, level--, stride);
      return;
    }
  // one thread writes the identity over the total
  trace_step& s = r.steps[r.step];
  std::snprintf (s.name, sizeof s.name, "clear the root");
  buf[bk::slot (block - 1)] = 0.0;
  s.threads = 1;
  r.row (buf.data (), bk::slot);
  r.step++;
  level = levels;
  for (int stride = block / 2; stride > 0; stride >>= 1)
    sweep (false, level--, stride);
}

}  // namespace

extern "C" int cpu_trace_steps (trace_algorithm a, int n)
{
  if (n < 1 || n > TRACE_MAX_ELEMENTS)
    return -1;
  const int k = log2_of (block_of (n));
  return a == TRACE_KOGGE_STONE ? k : a == TRACE_BLELLOCH ? 2 * k + 1 : k ? 2 * k - 1 : 0;
}

extern "C" int cpu_trace (trace_algorithm a, int padded, const double *x, int n, double *rows,
                          trace_step *steps, int *from, int *to, int *step_of, int *arrows)
{
  const int nsteps = cpu_trace_steps (a, n);
  if (nsteps < 0)
    return -1;
  const int block = block_of (n);
  for (int k = 0; k < nsteps; k++)
    steps[k] = trace_step {};
  *arrows = 0;
  recorder r = { n, rows, steps, from, to, step_of, arrows };
  for (int i = 0; i < n; i++)
    rows[i] = x[i];
  if (a == TRACE_KOGGE_STONE)
    {
      std::vector<double> buf[2] = { std::vector<double> (block, 0.0), std::vector<double> (block, 0.0) };
      for (int i = 0; i < n; i++)
        buf[0][i] = x[i];
      kogge_stone (r, buf, block);
    }
  else
    {
      std::vector<double> buf (block + block / 32, 0.0);
      for (int i = 0; i < n; i++)
        buf[padded ? brent_kung_step<true>::slot (i) : i] = x[i];
      const bool exclusive = a == TRACE_BLELLOCH;
      if (padded)
        tree_scan<true> (r, buf, block, exclusive);
      else
        tree_scan<false> (r, buf, block, exclusive);
    }
  return nsteps;
}

## groups_bench (): "groups" (running sums within each label, in place) against the ways
## Octave does it and against cumsum of the same X, the best of five calls each, taken in
## turn.  Host arrays: 2^20, 2^22 and 2^24 doubles with 10, 1000 and 10^5 whole-number
## labels in random order, gpuscan (a running value a label) against Octave's idiom (a
## stable sort of the labels, cumsum in that order, each group's start subtracted, the
## order undone) and against cumsum (x) without groups; then the same labels + 0.5 (not
## whole numbers: gpuscan orders them).  With a GPU, 2^26 device doubles with 1000 labels:
## label tiles against the sort (the labels + 0.5) and a device copy.  Prints "case ms ms
## ratio" rows.
##   octave --eval "pkg load gpuscan; addpath bench; groups_bench"
function groups_bench ()
  printf ("# %s, %d threads, gpuscan %s, Octave %s\n", datestr (now (), "yyyy-mm-dd"),
          gpuscan_info ().cpu_threads, gpuscan_info ().version, OCTAVE_VERSION);
  printf ("%-36s %12s %14s %9s\n", "case", "gpuscan ms", "baseline ms", "speed-up");
  rand ("seed", 1);  randn ("seed", 1);
  for n = 2 .^ [20 22 24]
    x = randn (n, 1);
    for labels = [10 1000 1e5]
      g = randi (labels, n, 1);
      t = best_of ({@() gpuscan(x, "groups", g), @() sorted_cumsum(x, g), @() cumsum(x)}, 5);
      what = sprintf ("2^%d, %d labels", log2 (n), labels);
      printf ("%-36s %12.2f %14.2f %8.2fx  (sort, cumsum, subtract)\n", what, 1e3 * t(1), 1e3 * t(2), t(2) / t(1));
      printf ("%-36s %12.2f %14.2f %8.2fx  (cumsum without groups)\n", what, 1e3 * t(1), 1e3 * t(3), t(3) / t(1));
      if (labels == 1000)
        t = best_of ({@() gpuscan(x, "groups", g + 0.5), @() sorted_cumsum(x, g + 0.5)}, 5);
        printf ("%-36s %12.2f %14.2f %8.2fx  (sort, cumsum, subtract)\n", [what " + 0.5"],
                1e3 * t(1), 1e3 * t(2), t(2) / t(1));
      endif
    endfor
  endfor
  if (gpuscan_info ().gpu_count > 0)
    x = gpuscan_array (randn (2^26, 1));
    gh = randi (1000, 2^26, 1);
    g = gpuscan_array (gh);
    gs = gpuscan_array (gh + 0.5);
    sync = @(d) gather (d(1));   # (a device array's scan is queued: wait for it)
    t = best_of ({@() sync(gpuscan(x, "groups", g)), @() sync(gpuscan(x, "groups", gs)),
                  @() sync(x + 0)}, 5);
    printf ("%-36s %12.2f %14.2f %8.2fx  (sorted)\n", "device 2^26, 1000 labels", 1e3 * t(1),
            1e3 * t(2), t(2) / t(1));
    printf ("%-36s %12.2f %14.2f %8.2fx  (x + 0)\n", "device 2^26, 1000 labels", 1e3 * t(1),
            1e3 * t(3), t(3) / t(1));
  endif
endfunction

## Octave's way: the running sums in the labels' stable order, less each group's sum
## before its start, put back in place
function y = sorted_cumsum (x, g)
  [gs, i] = sort (g);
  c = cumsum (x(i));
  start = [true; diff(gs) != 0];
  before = c - x(i);
  y = zeros (size (x));
  y(i) = c - repelem (before(start), diff ([find(start); numel(x) + 1]));
endfunction

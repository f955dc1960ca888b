## cpu_load (WHICH): times of cumsum and gpuscan (the default call, "auto") for the CPU
## load benchmark (bench/cpu_load_bench.sh, which runs it under each load and thread
## setting): vectors of 2^10 to 2^26 elements and a 4096x4096 matrix along dims 1 and 2,
## doubles and singles; the best of five calls each (fewer repetitions are not enough
## below a millisecond: up to 200 there).  Prints "case class cumsum_ms gpuscan_ms" rows.
function cpu_load ()
  cases = {};
  for e = 10:2:26
    cases(end+1, :) = {sprintf("2^%d", e), [2^e, 1], 1};
  endfor
  cases(end+1, :) = {"4096^2,dim1", [4096 4096], 1};
  cases(end+1, :) = {"4096^2,dim2", [4096 4096], 2};
  for c = {"double", "single"}
    for i = 1:rows (cases)
      x = rand (cases{i, 2}, c{1});
      dim = cases{i, 3};
      reps = max (5, min (200, round (2^20 / numel (x))));
      for w = 1:8   # "auto" times its first calls of a shape and size on each engine
        gpuscan (x, dim);
      endfor
      [tc, tg] = best (@() cumsum (x, dim), @() gpuscan (x, dim), reps);
      printf ("%s %s %.5f %.5f\n", cases{i, 1}, c{1}, 1e3 * tc, 1e3 * tg);
      fflush (stdout);
    endfor
  endfor
endfunction

## the best of reps calls of f and of g, one of each in turn, so that both meet the
## same moments of the machine
function [tf, tg] = best (f, g, reps)
  tf = tg = Inf;
  for r = 1:reps
    t0 = tic ();
    f ();
    tf = min (tf, toc (t0));
    t0 = tic ();
    g ();
    tg = min (tg, toc (t0));
  endfor
endfunction

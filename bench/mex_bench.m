## mex_bench: gpuscan_mex (the C MEX gateway) against gpuscan (the oct-file) in one run,
## the CPU engine on host arrays: calls on 1000 doubles, and large outputs of each kind
## (a MEX output is copied by Octave 7 to 9 for some classes).  Best of 5 runs each.
##   octave --eval "pkg load gpuscan; addpath ('bench'); mex_bench"
function mex_bench ()
  printf ("mex_bench: Octave %s, %d CPU threads; ms (best of 5), gpuscan_mex / gpuscan\n",
          OCTAVE_VERSION, gpuscan_info ().cpu_threads);
  cases = {"1000 doubles, a call", @() rand (1000, 1), {}, 2000;
           "2^26 doubles", @() rand (2^26, 1), {}, 1;
           "2^24 single", @() single (rand (2^24, 1)), {}, 1;
           "2^24 logical -> double", @() rand (2^24, 1) > 0.5, {}, 1;
           "2^24 int32", @() int32 (rand (2^24, 1) * 100), {}, 1;
           "2^24 complex doubles", @() complex (rand (2^24, 1), 1), {}, 1};
  for k = 1:rows (cases)
    x = cases{k, 2} ();
    o = cases{k, 3};
    reps = cases{k, 4};
    t_mex = best (@() gpuscan_mex (x, o{:}), reps);
    t_oct = best (@() gpuscan (x, o{:}), reps);
    printf ("  %-24s %10.4f %10.4f   %5.2fx\n", cases{k, 1}, 1e3 * t_mex, 1e3 * t_oct,
            t_mex / t_oct);
  endfor
endfunction

function t = best (f, reps)
  t = inf;
  for r = 1:5
    t = min (t, per_call (f, reps));
  endfor
endfunction

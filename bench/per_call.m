## t = per_call (f, reps): seconds a call of f () takes, averaged over reps calls in a row
## after one warm-up call (for the benchmarks in this folder; the result of each call is
## kept until the next replaces it, as a user's loop would; device results: the time
## until the GPU has done the last call's work, which calls queue without waiting for)
function t = per_call (f, reps)
  y = f ();
  t0 = tic ();
  for r = 1:reps
    y = f ();
  endfor
  if (isa (y, "gpuscan_array"))
    __gpuscan__ ("wait");
  endif
  t = toc (t0) / reps;
endfunction

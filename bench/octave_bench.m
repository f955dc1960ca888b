## End-to-end benchmark from Octave: gpuscan against cumsum, measured in the same run.
## Run with the package loaded:  octave-cli --eval "pkg load gpuscan; run bench/octave_bench.m"
## Prints 2^26 doubles, singles, logicals and int8 (a double sum before Octave 11, a
## saturating int8 one from 11), 4096x4096 along dims 1 and 2, the scans of host arrays
## that cross to the GPU in one piece (omitnan, accurate, recurrence: against cumsum or
## filter), 1000 doubles per call, and the worst excess of "auto" over cumsum from 1 to 2^28.
function octave_bench ()
  info = gpuscan_info ();
  printf ("gpuscan end-to-end benchmark: %s; CPU threads %d; GPU %s; %s\n", version_str (),
          info.cpu_threads, ifelse (info.gpu_count > 0, info.gpu_name, "none"), datestr (now ()));
  algs = {"auto", "cpu"};
  if (info.gpu_count > 0)
    algs{end+1} = "decoupled";
  endif
  printf ("%-26s %-10s %12s %12s %9s\n", "case", "algorithm", "gpuscan ms", "cumsum ms", "speed-up");
  ## (no space before a call's parenthesis inside a cell literal: it would split it)
  cases = {"2^26 double", @() randn(2^26, 1), 1;
           "2^26 single", @() single(randn(2^26, 1)), 1;
           "2^26 logical", @() randn(2^26, 1) > 0, 1;
           "2^26 int8", @() int8(randn(2^26, 1) * 3), 1;
           "4096x4096 double dim 1", @() randn(4096), 1;
           "4096x4096 double dim 2", @() randn(4096), 2};
  for c = 1:rows (cases)
    x = cases{c, 2} ();
    dim = cases{c, 3};
    tc = best_time (@() cumsum (x, dim), 3);
    for a = algs
      tg = best_time (@() gpuscan (x, dim, "algorithm", a{1}), 3);
      printf ("%-26s %-10s %12.2f %12.2f %8.2fx\n", cases{c, 1}, a{1}, tg * 1e3, tc * 1e3, tc / tg);
    endfor
    clear x
  endfor
  ## the scans whose state does not cross the host pipeline's chunks (one piece on the GPU),
  ## against the builtin that gives (or is nearest to) the same values
  x = randn (2^26, 1);
  xn = x;
  xn(1:1000:end) = NaN;
  a = 0.5 + 0.4 * rand (2^26, 1);
  one_piece = {"2^26 double omitnan", @() cumsum (x), {xn, "omitnan"};
               "2^26 double accurate", @() cumsum (x), {x, "accurate"};
               "2^26 double recurrence", @() filter (1, [1 -0.9], x), {x, "recurrence", 0.9};
               "2^26 double recurrence a(k)", @() filter (1, [1 -0.9], x), {x, "recurrence", a}};
  for c = 1:rows (one_piece)
    tc = best_time (one_piece{c, 2}, 3);
    args = one_piece{c, 3};
    for al = algs
      tg = best_time (@() gpuscan (args{:}, "algorithm", al{1}), 3);
      printf ("%-26s %-10s %12.2f %12.2f %8.2fx\n", one_piece{c, 1}, al{1}, tg * 1e3, tc * 1e3,
              tc / tg);
    endfor
  endfor
  clear x xn a
  x = randn (1000, 1);
  tc = per_call (@() cumsum (x), 20000);
  tg = per_call (@() gpuscan (x), 20000);
  printf ("%-26s %-10s %12.4f %12.4f %8.2fx   (per call)\n", "1000 double", "auto", tg * 1e3,
          tc * 1e3, tc / tg);
  worst = -Inf; worst_n = 0;
  for k = 0:2:28
    x = randn (2^k, 1);
    reps = max (3, min (2000, round (2^20 / 2^k)));
    tc = tg = Inf;
    for attempt = 1:3   # alternating, best of three: a stall of the machine hits one round
      tc = min (tc, per_call (@() cumsum (x), reps));
      tg = min (tg, per_call (@() gpuscan (x), reps));
    endfor
    if (tg - tc > worst)
      worst = tg - tc; worst_n = 2^k;
    endif
    printf ("  n = 2^%-2d  auto %10.4f ms  cumsum %10.4f ms  ratio %6.2f\n", k, tg * 1e3,
            tc * 1e3, tc / tg);
  endfor
  printf ("worst excess of auto over cumsum, 1..2^28: %.1f us at n = %d\n", worst * 1e6, worst_n);
  if (info.gpu_count > 0)
    printf ("auto crossover (vectors, columns, other dims): %s\n",
            num2str (gpuscan_info ().auto_crossover));
  endif
endfunction

function t = best_time (f, reps)
  for w = 1:6   # warm-up: engines, buffers, and "auto"'s six timed calls of a shape and size
    f ();
  endfor
  t = Inf;
  for r = 1:reps
    t0 = tic (); y = f (); t = min (t, toc (t0)); clear y
  endfor
endfunction

function s = version_str ()
  s = ["Octave " version()];
endfunction

function v = ifelse (c, a, b)
  if (c) v = a; else v = b; endif
endfunction

## filter_bench (): gpuscan_filter against Octave's filter in the same run, the best of
## five calls each, taken in turn: orders 1, 2, 4 and 8 (stable IIR, and an FIR of 5
## taps) on one channel of 2^22 samples (in blocks), 64 channels of 2^16 (in order, side
## by side) and 2^16 channels of 64 along dim 2 (lanes); then a call's own cost, 1000
## samples of order 2 (a thousand calls a timing, each by name through an anonymous
## function: a handle @gpuscan_filter may take the m-file); with a GPU, 2^26 samples of
## orders 2 and 4 on the CPU engine, through the GPU's kernels (GPUSCAN_ENGINE=gpu, the
## copies included) and as a device array (the data already there).  Prints "case ms ms ratio"
## rows; OMP_NUM_THREADS=1 gives the engine one thread.
##   octave --eval "pkg load gpuscan; addpath bench; filter_bench"
function filter_bench ()
  printf ("# %s, %d threads, gpuscan %s, Octave %s\n", datestr (now (), "yyyy-mm-dd"),
          gpuscan_info ().cpu_threads, gpuscan_info ().version, OCTAVE_VERSION);
  printf ("%-30s %12s %12s %9s\n", "case", "gpuscan ms", "filter ms", "speed-up");
  randn ("seed", 1);
  shapes = {"2^22 x 1", [2^22 1], 1; "2^16 x 64", [2^16 64], 1; "64 x 2^16, dim 2", [64 2^16], 2};
  filters = {};
  for K = [1 2 4 8]
    p = 0.9 * exp (1i * pi * (1:floor (K / 2)) / (K + 1));
    a = real (poly ([p, conj(p), 0.5 * ones(1, mod (K, 2))]));
    filters(end+1, :) = {sprintf("order %d", K), ones(1, K + 1) / (K + 1), a};
  endfor
  filters(end+1, :) = {"FIR, 5 taps", ones(1, 5) / 5, 1};
  for s = 1:rows (shapes)
    x = randn (shapes{s, 2});
    dim = shapes{s, 3};
    for f = 1:rows (filters)
      [b, a] = deal (filters{f, 2:3});
      t = best_of ({@() gpuscan_filter(b, a, x, [], dim), @() filter(b, a, x, [], dim)}, 5);
      printf ("%-30s %12.2f %12.2f %8.2fx\n", [shapes{s, 1} ", " filters{f, 1}], 1e3 * t,
              t(2) / t(1));
      fflush (stdout);
    endfor
  endfor
  if (gpuscan_info ().gpu_count > 0)
    x = randn (2^26, 1);
    dx = gpuscan_array (x);
    old = getenv ("GPUSCAN_ENGINE");
    for f = [2 3]
      [b, a] = deal (filters{f, 2:3});
      ways = {"CPU engine", "cpu", @() gpuscan_filter(b, a, x);
              "GPU, host", "gpu", @() gpuscan_filter(b, a, x);
              "GPU, device", "", @() device_call(b, a, dx)};
      tf = best_of ({@() filter(b, a, x)}, 3);
      for w = 1:rows (ways)
        setenv ("GPUSCAN_ENGINE", ways{w, 2});
        t = best_of ({ways{w, 3}}, 5);
        printf ("%-30s %12.2f %12.2f %8.2fx\n", ["2^26, " filters{f, 1} ", " ways{w, 1}],
                1e3 * t, 1e3 * tf, tf / t);
        fflush (stdout);
      endfor
    endfor
    setenv ("GPUSCAN_ENGINE", old);
    clear dx;
  endif
  x = randn (1000, 1);
  [b, a] = deal (filters{2, 2:3});
  t = best_of ({@() calls(@(p, q, r) gpuscan_filter (p, q, r), b, a, x),
                @() calls(@(p, q, r) filter (p, q, r), b, a, x)}, 5) / 1000;
  printf ("%-30s %12.4f %12.4f %8.2fx\n", "1000 x 1, order 2, a call", 1e3 * t, t(2) / t(1));
endfunction

## (a device array's filter, waited for: one element of y to host memory)
function device_call (b, a, dx)
  y = gpuscan_filter (b, a, dx);
  gather (y(1));
endfunction

function calls (f, b, a, x)
  for i = 1:1000
    f (b, a, x);
  endfor
endfunction

## Device-array benchmark from Octave, ratios measured in the same run:
##   gpuscan of a gpuscan_array of 2^26 doubles against cumsum of the host array;
##   upload (gpuscan_array) and gather rates; gpuscan_compact on the device against a
##   device-to-device copy of the input (gpuscan_array of a gpuscan_array); the cost of
##   a call on 1000 doubles against cumsum of the host array.
## Run with the package loaded:  octave-cli --eval "pkg load gpuscan; device_bench"
## (device_bench ("per-call"): the last part only, e.g. on the host stand-in,
## GPUSCAN_HOST_ARRAYS=1)
function device_bench (part)
  info = gpuscan_info ();
  if (isempty (info.device_arrays))
    printf ("device_bench: no device arrays here (%s)\n", info.gpu_status);
    return;
  endif
  printf ("gpuscan device-array benchmark: Octave %s; GPU %s; device arrays %s; %s\n",
          version (), info.gpu_name, info.device_arrays, datestr (now ()));
  if (nargin == 0 || ! strcmp (part, "per-call"))
    large_arrays ();
  endif
  ## what a call costs beyond the work: 1000 elements
  x = randn (1000, 1);
  small = gpuscan_array (x);
  tc = per_call (@() cumsum (x), 20000);
  for op = {{}, {"max"}, {2, "exclusive"}}
    t = per_call (@() gpuscan (small, op{1}{:}), 20000);
    args = strjoin (cellfun (@(a) disp (a)(1:end-1), [{"d"}, op{1}], "UniformOutput", false), ", ");
    printf ("1000 doubles: gpuscan (%-14s) %6.2f us, cumsum (host) %6.2f us: %5.2fx\n",
            args, t * 1e6, tc * 1e6, t / tc);
  endfor
  printf ("1000 doubles: gather %.2f us, gpuscan_array (upload) %.2f us\n",
          per_call (@() gather (small), 20000) * 1e6, per_call (@() gpuscan_array (x), 20000) * 1e6);
endfunction

function large_arrays ()
  n = 2^26;
  x = randn (n, 1);
  bytes = 8 * n;
  tc = best_time (@() cumsum (x), 3);
  tu = best_time (@() gpuscan_array (x), 5);
  d = gpuscan_array (x);
  tgather = best_time (@() gather (d), 5);
  ts = best_time (@() gpuscan (d), 20);
  tcopy = best_time (@() gpuscan_array (d), 20);
  printf ("2^26 double, per call (best of several):\n");
  printf ("  cumsum (host)              %9.3f ms\n", tc * 1e3);
  printf ("  gpuscan (device array)     %9.3f ms   %7.1fx cumsum   %5.2fx D2D copy\n",
          ts * 1e3, tc / ts, ts / tcopy);
  for op = {"max", "prod"}
    t = best_time (@() gpuscan (d, op{1}), 10);
    printf ("  gpuscan (device, %-4s)     %9.3f ms   %7.1fx cum%s\n", op{1}, t * 1e3,
            best_time (@() feval (["cum" op{1}], x), 2) / t, op{1});
  endfor
  printf ("  D2D copy (gpuscan_array (d)) %7.3f ms   %6.0f GB/s (read + write)\n",
          tcopy * 1e3, 2 * bytes / tcopy / 1e9);
  printf ("  upload (gpuscan_array (x)) %9.3f ms   %6.1f GB/s\n", tu * 1e3, bytes / tu / 1e9);
  printf ("  gather (d)                 %9.3f ms   %6.1f GB/s\n", tgather * 1e3,
          bytes / tgather / 1e9);
  printf ("gpuscan_compact of 2^26 doubles on the device, ratio to the D2D copy of the input:\n");
  for keep = [1, 0.5, 0.01]
    m = gpuscan_array (rand (n, 1) < keep);
    t = best_time (@() gpuscan_compact (d, m), 20);
    printf ("  %5.0f%% kept  %8.3f ms  %5.2fx copy\n", keep * 100, t * 1e3, t / tcopy);
  endfor
  printf ("element-wise on 2^26 doubles on the device, ratio to the D2D copy (x + 1 on the host):\n");
  e = gpuscan_array (rand (n, 1));
  for f = {@(a) a + 1, @(a) a .* e, @(a) a > 0.5, @(a) -a, @(a) int32 (a) / 3}
    t = best_time (@() f{1} (d), 10);
    printf ("  %-22s %8.3f ms  %5.2fx copy\n", func2str (f{1}), t * 1e3, t / tcopy);
  endfor
  printf ("  (x + 1 on the host       %8.3f ms)\n", best_time (@() x + 1, 3) * 1e3);
  clear e
  xs = single (x);
  ds = gpuscan_array (xs);
  tcs = best_time (@() cumsum (xs), 3);
  tss = best_time (@() gpuscan (ds), 20);
  printf ("2^26 single: gpuscan (device) %.3f ms, cumsum %.3f ms: %.1fx\n", tss * 1e3,
          tcs * 1e3, tcs / tss);
endfunction

function t = best_time (f, reps)
  y = f ();                               # warm-up
  clear y
  t = Inf;
  for r = 1:reps
    t0 = tic ();
    y = f ();
    if (isa (y, "gpuscan_array"))
      __gpuscan__ ("wait");             # (device calls return when their work is queued)
    endif
    t = min (t, toc (t0));
    clear y                               # a device result goes back before the next
  endfor
endfunction

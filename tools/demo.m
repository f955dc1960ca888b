## The main job of setup.sh: scan a large vector with gpuscan, check it against cumsum
## and print both times.
n = 2^26;
x = randn (n, 1);
gpuscan (x(1:1000));                     # first call: loads the engine
reps = 3;
tg = tc = Inf;
for r = 1:reps
  t0 = tic (); y = gpuscan (x); tg = min (tg, toc (t0)); clear y
  t0 = tic (); z = cumsum (x); tc = min (tc, toc (t0)); clear z
endfor
y = gpuscan (x);
z = cumsum (x);
err = max (abs (y - z) ./ max (cumsum (abs (x)), realmin));
info = gpuscan_info ();
printf ("gpuscan demo: %d doubles, engines: %s\n", n, strjoin (info.engines, ", "));
printf ("  gpuscan  %8.1f ms\n  cumsum   %8.1f ms   (gpuscan is %.2fx the speed of cumsum)\n",
        tg * 1e3, tc * 1e3, tc / tg);
verdict = {"MISMATCH", "OK"}{1 + (err <= 8 * eps)};
printf ("  largest difference from cumsum: %.2g eps of cumsum (abs (x)) -> %s\n",
        err / eps, verdict);

## repeat_bits: do repeated GPU scans give the same bits?  The same call on the same
## device array, REPEATS times, compared bit for bit with the first, for each GPU
## algorithm with and without "reproducible"; vectors of doubles and singles of 2^20,
## 2^24 and 2^26 elements (uniform in [-0.5, 0.5)), and a 4096x4096 single matrix along
## dim 2 (lane tiles); also with "accurate" (which implies "reproducible"), whose
## outputs are also compared with the CPU engine's (the same double-double rule, another
## grouping: elements whose last bit differs, if any, where a prefix needs more than 106
## bits).  Prints, a row each, how many calls differed.  (What the options cost:
## gpu_bench's rows "reproducible" and "vector accurate" against "decoupled".)
##   bench/repeat_bits (REPEATS)    default 20; needs a GPU
function repeat_bits (repeats = 20)
  if (gpuscan_info ().gpu_count == 0)
    error ("repeat_bits: no GPU");
  endif
  printf ("%-8s %-16s %-12s %-14s %s\n", "class", "shape", "algorithm", "option", "differ");
  cases = {};
  for c = {"double", "single"}
    for n = [2^20, 2^24, 2^26]
      cases{end+1} = {c{1}, sprintf("vector 2^%d", log2 (n)), rand(n, 1, c{1}) - 0.5, 1};
    endfor
  endfor
  cases{end+1} = {"single", "4096x4096 dim 2", rand(4096, "single") - 0.5, 2};
  for k = 1:numel (cases)
    [cls, shape, x, dim] = cases{k}{:};
    d = gpuscan_array (x);
    for a = {"decoupled", "kogge-stone", "brent-kung"}
      for opt = {{}, {"reproducible"}, {"accurate"}}
        args = [{dim, "algorithm", a{1}}, opt{1}];
        y0 = gather (gpuscan (d, args{:}));
        differ = 0;
        for r = 1:repeats
          differ += ! isequal (gather (gpuscan (d, args{:})), y0);
        endfor
        vs_cpu = "";
        if (any (strcmp (opt{1}, "accurate")))
          vs_cpu = sprintf ("; %d elements differ from the CPU engine's",
                            nnz (y0 != gpuscan (x, dim, "accurate", "algorithm", "cpu")));
        endif
        printf ("%-8s %-16s %-12s %-14s %d of %d%s\n", cls, shape, a{1},
                strjoin ([{"-"}, opt{1}], " "), differ, repeats, vs_cpu);
        fflush (stdout);
      endfor
    endfor
  endfor
endfunction

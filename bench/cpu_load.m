## cpu_load (): times of cumsum and gpuscan (the default call, "auto") for the CPU load
## benchmark (bench/cpu_load_bench.sh, which runs it under each load and thread setting):
## vectors of 2^10 to 2^26 elements and a 4096x4096 matrix along dims 1 and 2, doubles,
## singles, logical (x > 0.5: cumsum gives doubles) and int8 (doubles up to Octave 10,
## saturating int8 from 11); the best of five calls each (fewer repetitions are not enough below a
## millisecond: up to 200 there), the calls of all columns in turn, so that all meet the
## same moments of the machine, in an order that rotates from one repetition to the next
## (a call after cumsum's one thread found the other cores asleep: H100 host, 2^24
## doubles, the CPU engine 14.6 ms right after cumsum, 9.7 ms after another gpuscan).  Where a GPU is usable, the CPU engine and the GPU
## (GPUSCAN_ENGINE=cpu and gpu, which "auto" does not time) are columns of the same run,
## so that "auto"'s choice compares with both.  Prints "case class cumsum_ms gpuscan_ms
## [cpu_ms gpu_ms]" rows.
function cpu_load ()
  cases = {};
  for e = 10:2:26
    cases(end+1, :) = {sprintf("2^%d", e), [2^e, 1], 1};
  endfor
  cases(end+1, :) = {"4096^2,dim1", [4096 4096], 1};
  cases(end+1, :) = {"4096^2,dim2", [4096 4096], 2};
  engines = {""};
  if (gpuscan_info ().gpu_count > 0 && isempty (getenv ("GPUSCAN_ENGINE")))
    engines = {"", "cpu", "gpu"};
  endif
  for c = {"double", "single", "logical", "int8"}
    for i = 1:rows (cases)
      switch (c{1})
        case "logical"
          x = rand (cases{i, 2}) > 0.5;
        case "int8"
          x = int8 (randi ([-9 9], cases{i, 2}));
        otherwise
          x = rand (cases{i, 2}, c{1});
      endswitch
      dim = cases{i, 3};
      reps = max (5, min (200, round (2^20 / numel (x))));
      for w = 1:8   # "auto" times its first calls of a shape and size on each engine
        gpuscan (x, dim);
      endfor
      fs = {@() cumsum(x, dim), @() gpuscan(x, dim)};
      for e = engines(2:end)   # (a function call more: these columns are for 2^16 and up)
        fs{end+1} = @() on_engine (e{1}, x, dim);
      endfor
      t = best_of (fs, reps);
      printf ("%s %s%s\n", cases{i, 1}, c{1}, sprintf (" %.5f", 1e3 * t));
      fflush (stdout);
    endfor
  endfor
endfunction

function y = on_engine (engine, x, dim)
  setenv ("GPUSCAN_ENGINE", engine);
  unwind_protect
    y = gpuscan (x, dim);
  unwind_protect_cleanup
    setenv ("GPUSCAN_ENGINE", "");
  end_unwind_protect
endfunction

## The chunk pipeline against whole-array transfers, from Octave, measured in the same run.
## Run with the package loaded on a GPU machine:
##   octave-cli --eval "pkg load gpuscan; addpath bench; pipeline_bench"
## "whole": one chunk (upload everything, one scan, download everything).  "default" and
## "chunks of N": the chunk pipeline (copy-in of chunk k+1 and copy-out of chunk k-1 while
## chunk k is scanned) in the default chunks and in chunks forced with
## GPUSCAN_CHUNK_ELEMENTS.  Every result is checked against the whole scan.
function pipeline_bench ()
  info = gpuscan_info ();
  printf ("gpuscan chunk pipeline benchmark: GPU %s; CPU threads %d; %s\n",
          ifelse (info.gpu_count > 0, info.gpu_name, "none"), info.cpu_threads, datestr (now ()));
  old = getenv ("GPUSCAN_CHUNK_ELEMENTS");
  unwind_protect
    chunks = [2^40, 0, 2^20, 2^22, 2^24];
    printf ("%-30s %-16s %10s %10s %9s\n", "case", "path", "ms", "cumsum ms", "vs whole");
    ## (no space before a call's parenthesis inside a cell literal: it would split it)
    ## integer-valued data: sums are exact in any order, so chunks must match bit for bit
    cases = {"2^26 double", @() randi([-1000 1000], 2^26, 1), {1};
             "2^26 single", @() single(randi([-1 1], 2^26, 1)), {1};
             "4096x4096 double dim 1", @() randi([-1000 1000], 4096), {1};
             "4096x4096 double dim 2", @() randi([-1000 1000], 4096), {2};
             "2^26 double segmented", @() randi([-1000 1000], 2^26, 1), {1, "segments", rand(2^26, 1) < 1e-3};
             "2^26 double max", @() randn(2^26, 1), {1, "max"}};
    for c = 1:rows (cases)
      x = cases{c, 2} ();
      args = cases{c, 3};
      tc = best_time (@() cumsum (x, args{1}), 3);
      for ch = chunks
        setenv ("GPUSCAN_CHUNK_ELEMENTS", ifelse (ch == 0, "", num2str (ch)));
        f = @() gpuscan (x, args{:}, "algorithm", "decoupled");
        if (ch == 2^40)
          ref = f ();
          tw = best_time (f, 5);
          t = tw;
          name = "whole";
        else
          assert (isequal (f (), ref), "%s: chunks of %d differ from the whole scan", cases{c, 1}, ch);
          t = best_time (f, 5);
          name = ifelse (ch == 0, "default chunks", sprintf ("chunks of 2^%d", log2 (ch)));
        endif
        printf ("%-30s %-16s %10.2f %10.2f %8.2fx\n", cases{c, 1}, name, t * 1e3, tc * 1e3, tw / t);
      endfor
      clear x ref
    endfor
  unwind_protect_cleanup
    setenv ("GPUSCAN_CHUNK_ELEMENTS", old);
  end_unwind_protect
endfunction

function t = best_time (f, reps)
  f ();
  t = Inf;
  for r = 1:reps
    t0 = tic (); y = f (); t = min (t, toc (t0)); clear y
  endfor
endfunction

function s = ifelse (c, a, b)
  if (c)
    s = a;
  else
    s = b;
  endif
endfunction

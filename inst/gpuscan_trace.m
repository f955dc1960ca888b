## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {} gpuscan_trace (@var{x}, @var{algorithm})
## @deftypefnx {} {[@var{steps}, @var{info}] =} gpuscan_trace (@var{x}, @var{algorithm})
## @deftypefnx {} {@dots{} =} gpuscan_trace (@dots{}, "padding", @var{tf})
## @deftypefnx {} {@dots{} =} gpuscan_trace (@dots{}, "engine", @var{engine})
## @deftypefnx {} {@dots{} =} gpuscan_trace (@dots{}, "plot")
## Watch a classic block scan work: the sum scan of the vector @var{x} (1 to 1024
## elements, one block) step by step, as the shared-memory array after each step.
##
## @var{algorithm} is @qcode{"kogge-stone"} (Hillis-Steele, double-buffered: at step
## @code{d = 1, 2, 4, @dots{}} every element adds the one @code{d} places before it) or
## @qcode{"brent-kung"} (a reduction tree that leaves the total at the end, the
## up-sweep, then a distribution tree that fills in the rest, the down-sweep), both
## inclusive, or @qcode{"blelloch"}, Blelloch's exclusive work-efficient scan
## (Brent-Kung's up-sweep, the root cleared to 0, then a down-sweep in which each node
## hands its value to its left child and adds the child's old value to its own; the
## algorithms as GPU Gems 3, chapter 39, and the ECE408 lecture on parallel scan
## present them).  The
## Kogge-Stone and Brent-Kung steps are those of gpuscan's own block scans
## (@code{"algorithm", "kogge-stone"} and @code{"brent-kung"}), Blelloch's the same step
## code's (the kernels scan inclusively and have none), over a block of the next power
## of two threads (the elements past @code{numel (@var{x})} hold 0 and are not shown).
## With a GPU the steps run there, in one block of that many threads with a barrier
## after each step (@code{"engine", "gpu"}; the default @qcode{"auto"} takes the GPU
## where there is one); the CPU engine runs the same steps one thread at a time
## (@code{"engine", "cpu"}), and the two give the same arrays.  The counts (threads,
## adds, conflicts) come from the CPU engine's run, from the addresses each thread
## uses.
##
## @var{steps} has a row for the array as loaded, then one for each step, in element
## order (padding removed); its last row is @code{cumsum (@var{x})}, or for Blelloch
## the exclusive scan @code{[0, cumsum(@var{x})(1:end-1)]}.  @var{info} has
## @code{step}, a struct array with, for each step, @code{name} (@qcode{"d = 4"},
## @qcode{"up-sweep level 2"}, @dots{}), @code{threads} (those that add), @code{adds},
## @code{conflicts} and the adds as arrows @code{from} and @code{to} (element indices);
## the totals @code{steps}, @code{adds} and @code{conflicts}; @code{engine}, where the
## steps ran (@qcode{"gpu"} or @qcode{"cpu"}); and @code{formula}, the
## textbook counts for a power-of-two @var{n}: Kogge-Stone @code{log2 (n)} steps and
## @code{n*log2 (n) - (n - 1)} adds, Brent-Kung @code{2*log2 (n) - 1} steps and
## @code{2*(n - 1) - log2 (n)} adds, Blelloch @code{2*log2 (n) + 1} steps (the clearing
## of the root is one) and @code{2*(n - 1)} adds: the work-efficient ones do fewer adds
## in more steps.
##
## @code{conflicts} counts shared-memory bank conflicts: for each warp of 32 threads and
## each load or store of a step, the wavefronts the addresses take beyond the one a
## request takes without conflicts (32 banks of 4-byte words: elements counted as
## 4-byte values, as in GPU Gems 3, chapter 39).  The trees' strided steps conflict; one
## padding slot every 32 elements (GPU Gems 3's @code{CONFLICT_FREE_OFFSET}, which
## gpuscan's kernel uses) removes most of it.  @code{"padding", false} traces the
## unpadded trees.
##
## With no output the steps are printed, a line each with the elements aligned;
## @qcode{"plot"} draws them: the array as rows of cells, a row a step, with an arrow
## for each add.
##
## @example
## @group
## gpuscan_trace ([3 1 7 0 4 1 6 3], "brent-kung")
## @end group
## @end example
## @seealso{gpuscan, cumsum}
## @end deftypefn

function [steps, info] = gpuscan_trace (x, algorithm, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  algorithm = validatestring (algorithm, {"kogge-stone", "brent-kung", "blelloch"},
                              "gpuscan_trace");
  padding = true;
  draw = false;
  engine = "auto";
  i = 1;
  while (i <= numel (varargin))
    opt = varargin{i};
    if (! ischar (opt))
      error ("gpuscan:trace",
             "gpuscan_trace: options are \"padding\", TF, \"engine\", ENGINE and \"plot\"");
    endif
    switch (lower (opt))
      case "padding"
        if (i == numel (varargin) || ! isscalar (varargin{i+1})
            || ! (islogical (varargin{i+1}) || isnumeric (varargin{i+1})))
          error ("gpuscan:trace", "gpuscan_trace: \"padding\" takes true or false");
        endif
        padding = logical (varargin{i+1});
        i += 2;
      case "engine"
        if (i == numel (varargin) || ! ischar (varargin{i+1}))
          error ("gpuscan:trace", "gpuscan_trace: \"engine\" takes \"auto\", \"cpu\" or \"gpu\"");
        endif
        engine = lower (varargin{i+1});
        i += 2;
      case "plot"
        draw = true;
        i += 1;
      otherwise
        error ("gpuscan:trace", ["gpuscan_trace: unknown option \"%s\"; known: \"padding\", ", ...
                                 "\"engine\", \"plot\""], opt);
    endswitch
  endwhile
  [arr, step, ran_on] = __gpuscan__ ("trace", x, algorithm, padding, engine);
  n = numel (x);
  t = struct ("algorithm", algorithm, "padding", padding, "step", step,
              "steps", numel (step), "adds", sum ([step.adds]),
              "conflicts", sum ([step.conflicts]), "engine", ran_on,
              "formula", formula (algorithm, n));
  if (draw)
    plot_steps (arr, t);
  endif
  if (nargout == 0 && ! draw)
    print_steps (arr, t);
  else
    steps = arr;
    info = t;
  endif
endfunction

## the textbook counts for n a power of two (NaN otherwise)
function f = formula (algorithm, n)
  k = log2 (n);
  if (k != round (k))
    f = struct ("steps", NaN, "adds", NaN);
  elseif (strcmp (algorithm, "kogge-stone"))
    f = struct ("steps", k, "adds", n * k - (n - 1));
  elseif (strcmp (algorithm, "blelloch"))
    f = struct ("steps", 2 * k + 1, "adds", 2 * (n - 1));
  else
    f = struct ("steps", max (2 * k - 1, 0), "adds", 2 * (n - 1) - k);
  endif
endfunction

function print_steps (arr, t)
  w = max (3, max (cellfun (@numel, arrayfun (@(v) sprintf ("%g", v), arr(:), "uniformoutput", false))));
  names = [{"load"}, {t.step.name}];
  label = max (cellfun (@numel, names));
  printf ("%s%s, the steps run %s\n", t.algorithm,
          merge (! strcmp (t.algorithm, "kogge-stone") && ! t.padding, " (no padding)", ""),
          merge (strcmp (t.engine, "gpu"), "on the GPU", "by the CPU engine"));
  for r = 1:rows (arr)
    printf ("  %-*s ", label, names{r});
    printf (" %*g", [repmat(w, 1, columns (arr)); arr(r, :)]);
    if (r > 1)
      s = t.step(r - 1);
      printf ("   (%d add%s, %d conflict%s)", s.adds, merge (s.adds == 1, "", "s"),
              s.conflicts, merge (s.conflicts == 1, "", "s"));
    endif
    printf ("\n");
  endfor
  printf ("  %d steps, %d adds, %d bank conflicts", t.steps, t.adds, t.conflicts);
  if (! isnan (t.formula.steps))
    printf ("; the formulas: %d steps, %d adds", t.formula.steps, t.formula.adds);
  endif
  printf ("\n");
endfunction

## the array as rows of cells, a row a step, an arrow for each add
function plot_steps (arr, t)
  [nr, n] = size (arr);
  clf ();
  hold ("on");
  for r = 1:nr
    y = nr - r;
    for c = 1:n
      rectangle ("position", [c - 0.45, y - 0.3, 0.9, 0.6]);
      text (c, y, sprintf ("%g", arr(r, c)), "horizontalalignment", "center");
    endfor
    if (r > 1)
      s = t.step(r - 1);
      for k = 1:numel (s.from)
        line ([s.from(k), s.to(k)], [y + 0.7, y + 0.3], "color", "b");
      endfor
    endif
  endfor
  names = [{"load"}, {t.step.name}];
  set (gca (), "ytick", 0:nr - 1, "yticklabel", fliplr (names), "xtick", 1:n);
  axis ([0.4, n + 0.6, -0.5, nr - 0.5]);
  title (sprintf ("%s: %d steps, %d adds, %d bank conflicts", t.algorithm, t.steps, t.adds,
                  t.conflicts));
  hold ("off");
endfunction

%!demo
%! ## the ECE408 lecture's example through each algorithm: Kogge-Stone adds more (17 against
%! ## 11) in fewer steps (3 against 5)
%! x = [3 1 7 0 4 1 6 3];
%! gpuscan_trace (x, "kogge-stone")
%! gpuscan_trace (x, "brent-kung")
%! ## the exclusive scan: the same up-sweep, the root cleared, a down-sweep that swaps
%! gpuscan_trace (x, "blelloch")

%!demo
%! ## 16 elements, and work against steps for n = 16 ... 1024; the padding against the
%! ## bank conflicts of Brent-Kung's strided steps
%! gpuscan_trace (1:16, "kogge-stone")
%! gpuscan_trace (1:16, "brent-kung")
%! printf ("%6s %18s %18s %22s %18s\n", "n", "Kogge-Stone", "Brent-Kung", "conflicts (pad/none)",
%!         "Blelloch");
%! for n = 2 .^ (4:10)
%!   [~, ks] = gpuscan_trace (ones (1, n), "kogge-stone");
%!   [~, bk] = gpuscan_trace (ones (1, n), "brent-kung");
%!   [~, raw] = gpuscan_trace (ones (1, n), "brent-kung", "padding", false);
%!   [~, bl] = gpuscan_trace (ones (1, n), "blelloch");
%!   printf ("%6d %5d steps %5d adds %3d steps %5d adds %10d / %-10d %3d steps %5d adds\n", n,
%!           ks.steps, ks.adds, bk.steps, bk.adds, bk.conflicts, raw.conflicts, bl.steps, bl.adds);
%! endfor

%!test
%! ## the ECE408 lecture's example, step by step
%! [s, t] = gpuscan_trace ([3 1 7 0 4 1 6 3], "kogge-stone");
%! assert (s, [3 1 7 0 4 1 6 3; 3 4 8 7 4 5 7 9; 3 4 11 11 12 12 11 14; 3 4 11 11 15 16 22 25]);
%! assert ({t.step.name}, {"d = 1", "d = 2", "d = 4"});
%! assert ([t.step.adds], [7 6 4]);
%! assert (t.step(3).from, 1:4);
%! assert (t.step(3).to, 5:8);
%! [s, t] = gpuscan_trace ([3 1 7 0 4 1 6 3], "brent-kung");
%! assert (s(end, :), [3 4 11 11 15 16 22 25]);
%! assert (s(4, :), [3 4 7 11 4 5 6 25]);   # the up-sweep's root holds the total
%! assert ({t.step.name}, {"up-sweep level 1", "up-sweep level 2", "up-sweep level 3", ...
%!                         "down-sweep level 2", "down-sweep level 1"});
%! assert ([t.step.adds], [4 2 1 1 3]);
%! [s, t] = gpuscan_trace ([3 1 7 0 4 1 6 3], "blelloch");
%! assert (s(4, :), [3 4 7 11 4 5 6 25]);   # the same up-sweep
%! assert (s(5, :), [3 4 7 11 4 5 6 0]);    # the root cleared
%! assert (s(6, :), [3 4 7 0 4 5 6 11]);    # the down-sweep, level by level
%! assert (s(7, :), [3 0 7 4 4 11 6 16]);
%! assert (s(8, :), [0 3 4 11 11 15 16 22]);
%! assert ({t.step(4:5).name}, {"clear the root", "down-sweep level 3"});
%! assert ([t.step.adds], [4 2 1 0 1 2 4]);
%! assert ([t.step(6).from; t.step(6).to], [2 6; 4 8]);

%!test
%! ## the last row is cumsum for every length, power of two or not; the counts are the
%! ## formulas' for powers of two
%! for n = [1 2 3 5 8 31 32 33 100 255 256 257 1000 1023 1024]
%!   x = round (10 * randn (1, n));
%!   for a = {"kogge-stone", "brent-kung", "blelloch"}
%!     [s, t] = gpuscan_trace (x, a{1});
%!     assert (s(1, :), x);
%!     if (strcmp (a{1}, "blelloch"))
%!       assert (s(end, :), [0, cumsum(x)(1:end-1)], 0);
%!     else
%!       assert (s(end, :), cumsum (x), 0);
%!     endif
%!     assert (rows (s), t.steps + 1);
%!     if (n == 2 ^ round (log2 (n)))
%!       assert ([t.steps, t.adds], [t.formula.steps, t.formula.adds]);
%!     endif
%!   endfor
%! endfor
%! ## column vectors and logical input
%! [s, t] = gpuscan_trace ([true; false; true], "brent-kung");
%! assert (s(end, :), [1 1 2]);

%!test
%! ## Kogge-Stone's accesses are consecutive: no conflicts; the unpadded Brent-Kung tree
%! ## conflicts from its first step (stride 2: two threads a bank), the padding removes
%! ## that in every up-sweep step and most of the rest
%! [~, ks] = gpuscan_trace (ones (1, 1024), "kogge-stone");
%! assert (ks.conflicts, 0);
%! [~, raw] = gpuscan_trace (ones (1, 1024), "brent-kung", "padding", false);
%! [~, pad] = gpuscan_trace (ones (1, 1024), "brent-kung");
%! assert (all ([raw.step(1:5).conflicts] > 0));
%! up = strncmp ({pad.step.name}, "up-sweep", 8);
%! assert ([pad.step(up).conflicts], zeros (1, 10));
%! assert (pad.conflicts < raw.conflicts / 10);
%! assert (pad.adds, raw.adds);
%! ## Blelloch's tree: the same up-sweep; its down-sweep conflicts without the padding
%! [~, braw] = gpuscan_trace (ones (1, 1024), "blelloch", "padding", false);
%! [~, bpad] = gpuscan_trace (ones (1, 1024), "blelloch");
%! assert ([bpad.step(1:10).conflicts], [pad.step(1:10).conflicts]);
%! assert (all ([braw.step(end-4:end).conflicts] > 0));
%! assert (bpad.conflicts < braw.conflicts / 10);

%!test
%! ## printed and drawn
%! out = evalc ("gpuscan_trace ([3 1 7 0 4 1 6 3], 'kogge-stone')");
%! assert (! isempty (strfind (out, "d = 4")));
%! assert (! isempty (strfind (out, "3 steps, 17 adds")));

%!testif ; any (strcmp (available_graphics_toolkits (), "gnuplot"))
%! h = figure ("visible", "off");
%! unwind_protect
%!   gpuscan_trace ([3 1 7 0 4 1 6 3], "brent-kung", "plot");
%!   assert (numel (findobj (h, "type", "line")), 11);
%! unwind_protect_cleanup
%!   close (h);
%! end_unwind_protect

%!testif ; gpuscan_info ().gpu_count > 0
%! ## the GPU's trace kernel and the CPU engine's thread-by-thread run of the same step
%! ## code give the same arrays: every algorithm, padded or not, lengths around the
%! ## warps and up to a whole block (random values: the sums round alike only in the
%! ## same order)
%! rand ("seed", 44);
%! for n = [1 2 3 8 31 32 33 100 512 1000 1023 1024]
%!   x = randn (1, n);
%!   for a = {"kogge-stone", "brent-kung", "blelloch"}
%!     for pad = [true false]
%!       [g, ig] = gpuscan_trace (x, a{1}, "padding", pad, "engine", "gpu");
%!       [c, ic] = gpuscan_trace (x, a{1}, "padding", pad, "engine", "cpu");
%!       assert (isequal (g, c), sprintf ("%s, n = %d, padding %d", a{1}, n, pad));
%!       assert ({ig.engine, ic.engine}, {"gpu", "cpu"});
%!       assert ({ig.steps, ig.adds, ig.conflicts}, {ic.steps, ic.adds, ic.conflicts});
%!     endfor
%!   endfor
%! endfor
%! [~, i] = gpuscan_trace (1:8, "kogge-stone");
%! assert (i.engine, "gpu");
%!testif ; gpuscan_info ().gpu_count == 0
%! [~, i] = gpuscan_trace (1:8, "kogge-stone");
%! assert (i.engine, "cpu");
%! fail ('gpuscan_trace (1:8, "kogge-stone", "engine", "gpu")', "gpuscan_trace: .*GPU");

%!error <ALGORITHM|does not match> gpuscan_trace (1:4, "decoupled")
%!error <"engine" must be "auto", "cpu" or "gpu"> gpuscan_trace (1:4, "brent-kung", "engine", "tpu")
%!error <one block> gpuscan_trace (1:1025, "kogge-stone")
%!error <one block> gpuscan_trace ([], "kogge-stone")
%!error <one block> gpuscan_trace ([1 2; 3 4], "kogge-stone")
%!error <one block> gpuscan_trace ([1i 2], "kogge-stone")
%!error <"padding" takes true or false> gpuscan_trace (1:4, "brent-kung", "padding")
%!error <unknown option "bogus"> gpuscan_trace (1:4, "brent-kung", "bogus")
%!error <Invalid call> gpuscan_trace (1:4)

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {} gpuscan_bench ()
## @deftypefnx {} {} gpuscan_bench ("quick")
## @deftypefnx {} {@var{r} =} gpuscan_bench (@dots{}, @var{name}, @var{value}, @dots{})
## Time gpuscan against Octave's own cumsum, cumprod, cummax and cummin on this machine.
##
## For every size, class, operator and algorithm it runs both, shows progress, prints a
## table (time, GB/s of bytes read and written, speed-up over Octave's function) and
## returns a struct array @var{r} with fields @code{n}, @code{class}, @code{op},
## @code{algorithm}, @code{time}, @code{baseline_time}, @code{gbps} and @code{speedup}.
## Times are the best of a few runs, each with a fresh output, as a script would see.
##
## @qcode{"quick"} runs sizes 2^10 to 2^22, doubles, sums and the algorithms of
## @code{gpuscan_info}: under a minute.  Options:
## @table @asis
## @item @qcode{"sizes"}
## vector of element counts (default 2.^(10:2:26))
## @item @qcode{"classes"}
## cell array of class names (default @code{@{"double", "single"@}})
## @item @qcode{"ops"}
## cell array out of @qcode{"sum"}, @qcode{"prod"}, @qcode{"max"}, @qcode{"min"}
## (default @code{@{"sum"@}})
## @item @qcode{"algorithms"}
## cell array of algorithm names (default: all of @code{gpuscan_info ().algorithms})
## @item @qcode{"plot"}
## a file name: save a log-log plot of throughput against size there (PNG); works
## without a display (gnuplot)
## @end table
## @seealso{gpuscan, gpuscan_info}
## @end deftypefn

function r = gpuscan_bench (varargin)
  info = gpuscan_info ();
  opt = struct ("sizes", 2 .^ (10:2:26), "classes", {{"double", "single"}},
                "ops", {{"sum"}}, "algorithms", {info.algorithms}, "plot", "");
  i = 1;
  while (i <= numel (varargin))
    key = varargin{i};
    if (! ischar (key))
      error ("gpuscan:option", "gpuscan_bench: argument %d must be an option name", i);
    endif
    key = lower (key);
    if (strcmp (key, "quick"))
      opt.sizes = 2 .^ (10:4:22);
      opt.classes = {"double"};
      i += 1;
      continue;
    endif
    if (! isfield (opt, key))
      error ("gpuscan:option", "gpuscan_bench: unknown option \"%s\"", key);
    elseif (i == numel (varargin))
      error ("gpuscan:missing_value", "gpuscan_bench: option \"%s\" needs a value", key);
    endif
    opt.(key) = varargin{i+1};
    i += 2;
  endwhile
  baseline = struct ("sum", @cumsum, "prod", @cumprod, "max", @cummax, "min", @cummin);

  total = numel (opt.sizes) * numel (opt.classes) * numel (opt.ops) * numel (opt.algorithms);
  r = struct ("n", {}, "class", {}, "op", {}, "algorithm", {}, "time", {},
              "baseline_time", {}, "gbps", {}, "speedup", {});
  done = 0;
  t_start = tic ();
  for c = opt.classes(:)'
    for op = opt.ops(:)'
      for n = opt.sizes(:)'
        x = cast (randn (n, 1), c{1});
        if (strcmp (op{1}, "prod"))
          x = cast (1 + randn (n, 1) / n, c{1});
        endif
        f = baseline.(op{1});
        tb = best_time (@() f (x), n);
        bytes = 2 * n * sizeof_class (c{1});
        for a = opt.algorithms(:)'
          t = best_time (@() gpuscan (x, op{1}, "algorithm", a{1}), n);
          r(end+1) = struct ("n", n, "class", c{1}, "op", op{1}, "algorithm", a{1},
                             "time", t, "baseline_time", tb, "gbps", bytes / t / 1e9,
                             "speedup", tb / t);
          done += 1;
          printf ("\rgpuscan_bench: %3d of %d (%s %s n=%d %s) %5.1f s   ", done, total, c{1},
                  op{1}, n, a{1}, toc (t_start));
          fflush (stdout);
        endfor
      endfor
    endfor
  endfor
  printf ("\n%-7s %-5s %11s %-12s %10s %10s %9s %9s\n", "class", "op", "n", "algorithm",
          "ms", "base ms", "GB/s", "speed-up");
  for k = 1:numel (r)
    printf ("%-7s %-5s %11d %-12s %10.3f %10.3f %9.2f %8.2fx\n", r(k).class, r(k).op, r(k).n,
            r(k).algorithm, r(k).time * 1e3, r(k).baseline_time * 1e3, r(k).gbps, r(k).speedup);
  endfor
  if (! isempty (opt.plot))
    save_plot (r, opt.plot);
  endif
  if (nargout == 0)
    clear r
  endif
endfunction

function t = best_time (f, n)
  reps = max (3, min (50, round (2^22 / n)));
  t = Inf;
  for k = 1:reps
    t0 = tic ();
    y = f ();
    t = min (t, toc (t0));
    clear y
  endfor
endfunction

function b = sizeof_class (c)
  switch (c)
    case {"double", "int64", "uint64"}, b = 8;
    case {"single", "int32", "uint32"}, b = 4;
    case {"int16", "uint16"}, b = 2;
    otherwise, b = 1;
  endswitch
endfunction

function save_plot (r, file)
  if (isempty (getenv ("DISPLAY")) && any (strcmp (available_graphics_toolkits (), "gnuplot")))
    warning ("off", "Octave:gnuplot-graphics", "local");
    graphics_toolkit ("gnuplot");
  endif
  h = figure ("visible", "off");
  label = arrayfun (@(e) sprintf ("%s %s %s", e.class, e.op, e.algorithm), r,
                    "uniformoutput", false);
  base = arrayfun (@(e) sprintf ("%s %s", e.class, e.op), r, "uniformoutput", false);
  hold on;
  for key = unique (label)
    sel = strcmp (label, key{1});
    loglog ([r(sel).n], [r(sel).gbps], "-o", "displayname", key{1});
  endfor
  for key = unique (base)
    sel = find (strcmp (base, key{1}));
    [~, first] = unique ([r(sel).n]);
    sel = sel(first);
    loglog ([r(sel).n], [r(sel).gbps] ./ [r(sel).speedup], "--", "displayname",
            [key{1} " (Octave)"]);
  endfor
  set (gca, "xscale", "log", "yscale", "log");
  xlabel ("elements");
  ylabel ("GB/s (read + written)");
  title ("gpuscan throughput");
  legend ("location", "northwest");
  grid on;
  print (h, file, "-dpng");
  close (h);
endfunction

%!test
%! r = gpuscan_bench ("quick", "sizes", [1000 5000], "algorithms", {"cpu"});
%! assert (numel (r), 2);
%! assert (all ([r.time] > 0) && all ([r.speedup] > 0));
%! assert ({r.algorithm}, {"cpu", "cpu"});
%!test
%! r = gpuscan_bench ("sizes", 4096, "classes", {"single", "int32"}, "ops", {"max", "prod"},
%!                    "algorithms", {"auto"});
%! assert (numel (r), 4);
%!testif ; any (strcmp (available_graphics_toolkits (), "gnuplot"))
%! f = [tempname() ".png"];
%! gpuscan_bench ("sizes", [1024 4096], "algorithms", {"cpu"}, "plot", f);
%! s = dir (f);
%! assert (numel (s), 1);
%! assert (s.bytes > 1000);
%! delete (f);
%!error id=gpuscan:option gpuscan_bench ("bogus", 1)
%!error id=gpuscan:missing_value gpuscan_bench ("sizes")

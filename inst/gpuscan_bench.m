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
    if (! ischar (key) || rows (key) > 1)
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
      error ("gpuscan:option", "gpuscan_bench: unknown option \"%s\"; known: quick, %s",
             key, strjoin (fieldnames (opt)', ", "));
    elseif (i == numel (varargin))
      error ("gpuscan:missing_value", "gpuscan_bench: option \"%s\" needs a value", key);
    endif
    opt.(key) = checked_value (key, varargin{i+1}, info);
    i += 2;
  endwhile
  baseline = struct ("sum", @cumsum, "prod", @cumprod, "max", @cummax, "min", @cummin);

  total = numel (opt.sizes) * numel (opt.classes) * numel (opt.ops) * numel (opt.algorithms);
  r = struct ("n", {}, "class", {}, "op", {}, "algorithm", {}, "time", {},
              "baseline_time", {}, "gbps", {}, "speedup", {});
  done = 0;
  t_start = tic ();
  on_terminal = isguirunning () || system ("test -t 1") == 0;
  machine = machine_line (info);
  printf ("%s\n", machine);
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
          progress (done, total, sprintf ("%s %s n=%d %s", c{1}, op{1}, n, a{1}),
                    toc (t_start), on_terminal);
        endfor
      endfor
    endfor
  endfor
  printf ("%-7s %-5s %11s %-12s %10s %10s %9s %9s\n", "class", "op", "n", "algorithm",
          "ms", "base ms", "GB/s", "speed-up");
  for k = 1:numel (r)
    printf ("%-7s %-5s %11d %-12s %10.3f %10.3f %9.2f %8.2fx\n", r(k).class, r(k).op, r(k).n,
            r(k).algorithm, r(k).time * 1e3, r(k).baseline_time * 1e3, r(k).gbps, r(k).speedup);
  endfor
  if (! isempty (opt.plot))
    save_plot (r, opt.plot, machine);
  endif
  if (nargout == 0)
    clear r
  endif
endfunction

## a checked value of option KEY, or an error that says what is allowed
function v = checked_value (key, v, info)
  switch (key)
    case "sizes"
      if (! isnumeric (v) || isempty (v) || ! isreal (v) || any (v(:) < 1)
          || any (v(:) != fix (v(:))) || any (! isfinite (v(:))))
        error ("gpuscan:option", "gpuscan_bench: \"sizes\" must be a vector of positive integers");
      endif
      v = double (v(:)');
    case {"classes", "ops", "algorithms"}
      known = struct ("classes", {{"double", "single", "int8", "uint8", "int16", "uint16", ...
                                   "int32", "uint32", "int64", "uint64"}},
                      "ops", {{"sum", "prod", "max", "min"}},
                      "algorithms", {info.algorithms}).(key);
      if (ischar (v))
        v = {v};
      endif
      if (! iscellstr (v) || isempty (v))
        error ("gpuscan:option", "gpuscan_bench: \"%s\" must be a cell array of names out of: %s",
               key, strjoin (known, ", "));
      endif
      for k = 1:numel (v)
        if (! any (strcmpi (v{k}, known)))
          error ("gpuscan:option", "gpuscan_bench: \"%s\" has \"%s\"; known here: %s",
                 key, v{k}, strjoin (known, ", "));
        endif
        v{k} = lower (v{k});
      endfor
    case "plot"
      if (! ischar (v) || rows (v) > 1)
        error ("gpuscan:option", "gpuscan_bench: \"plot\" must be a file name");
      endif
  endswitch
endfunction

## one line: on a terminal, overwritten in place; in a log, a line every tenth of the run
function progress (done, total, what, secs, on_terminal)
  if (on_terminal)
    printf ("\rgpuscan_bench: %3d of %d (%s) %5.1f s   ", done, total, what, secs);
    if (done == total)
      printf ("\n");
    endif
  elseif (done == total || floor (10 * done / total) > floor (10 * (done - 1) / total))
    printf ("gpuscan_bench: %3d of %d (%s) %5.1f s\n", done, total, what, secs);
  endif
  fflush (stdout);
endfunction

## the machine, GPU, CPU threads, date and package build the numbers come from
function s = machine_line (info)
  cpu = "";
  [err, txt] = system ("sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1");
  if (err == 0)
    cpu = strtrim (txt);
  endif
  gpu = "no GPU";
  if (info.gpu_count > 0)
    gpu = info.gpu_name;
  endif
  s = sprintf ("%s, %s, %s, %d CPU threads, %s, gpuscan %s (%s)", strtrim (uname ().nodename),
               ifelse_text (cpu, "CPU unknown"), gpu, info.cpu_threads,
               datestr (now (), "yyyy-mm-dd"), info.version, info.commit);
endfunction

function s = ifelse_text (s, other)
  if (isempty (s))
    s = other;
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

## throughput (left) and speed-up against Octave's function (right), the machine above
function save_plot (r, file, machine)
  if (isempty (getenv ("DISPLAY")) && any (strcmp (available_graphics_toolkits (), "gnuplot")))
    warning ("off", "Octave:gnuplot-graphics", "local");
    graphics_toolkit ("gnuplot");
  endif
  h = figure ("visible", "off", "position", [0 0 1200 520]);
  label = arrayfun (@(e) sprintf ("%s %s %s", e.class, e.op, e.algorithm), r,
                    "uniformoutput", false);
  base = arrayfun (@(e) sprintf ("%s %s", e.class, e.op), r, "uniformoutput", false);
  subplot (1, 2, 1);
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
  title ("throughput");
  legend ("location", "northwest");
  grid on;
  subplot (1, 2, 2);
  hold on;
  for key = unique (label)
    sel = strcmp (label, key{1});
    semilogx ([r(sel).n], [r(sel).speedup], "-o", "displayname", key{1});
  endfor
  semilogx ([min([r.n]) max([r.n])], [1 1], "k--", "displayname", "Octave's function");
  set (gca, "xscale", "log");
  xlabel ("elements");
  ylabel ("speed-up (Octave's time / gpuscan's)");
  title ("speed-up against Octave's function");
  legend ("location", "northwest");
  grid on;
  axes ("position", [0 0.96 1 0.04], "visible", "off");
  text (0.5, 0.5, machine, "horizontalalignment", "center", "interpreter", "none");
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
%!error <unknown option "bogus"; known: quick, sizes> gpuscan_bench ("bogus", 1)
%!error <"sizes" must be a vector of positive integers> gpuscan_bench ("sizes", "big")
%!error <"sizes" must be> gpuscan_bench ("sizes", [1 0.5])
%!error <"ops" has "mean"; known here: sum, prod, max, min> gpuscan_bench ("ops", {"mean"})
%!error <"classes" has "char"> gpuscan_bench ("classes", "char")
%!error <"algorithms" has "bogus"> gpuscan_bench ("algorithms", {"bogus"})
%!error <"plot" must be a file name> gpuscan_bench ("plot", 3)
%!error id=gpuscan:missing_value gpuscan_bench ("sizes")
%!test
%! ## in a log (not a terminal) the progress is whole lines, no carriage returns
%! out = evalc ('gpuscan_bench ("sizes", [100 200], "classes", {"double"}, "algorithms", {"cpu"})');
%! assert (isempty (strfind (out, "\r")));
%! assert (! isempty (strfind (out, "2 of 2")));
%! assert (! isempty (strfind (out, gpuscan_info ().commit)));
%!error id=gpuscan:missing_value gpuscan_bench ("sizes")

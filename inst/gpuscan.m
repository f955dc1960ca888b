## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {@var{y} =} gpuscan (@var{x})
## @deftypefnx {} {@var{y} =} gpuscan (@var{x}, @var{dim})
## @deftypefnx {} {@var{y} =} gpuscan (@var{x}, @var{vecdim})
## @deftypefnx {} {@var{y} =} gpuscan (@var{x}, "all")
## @deftypefnx {} {@var{y} =} gpuscan (@dots{}, @var{option}, @dots{})
## @deftypefnx {} {[@var{y}, @var{iy}] =} gpuscan (@dots{}, "max")
## @deftypefnx {} {[@var{y}, @var{iy}] =} gpuscan (@dots{}, "min")
## Prefix scan (cumulative sum, product, maximum or minimum, and logical, bitwise and
## log-space scans) of @var{x} on every CPU core or on an NVIDIA GPU.
##
## @code{gpuscan (@var{x})} is @code{cumsum (@var{x})} of the Octave gpuscan was built
## for, class rules included (from Octave 11, integer sums and products keep the class
## and saturate).  @var{dim} picks the dimension; a vector @var{vecdim}, or
## @qcode{"all"}, scans several as one, as Octave 11 does.  Options are strings, in any
## order, case-insensitive:
##
## @table @asis
## @item @qcode{"sum"} (default), @qcode{"prod"}, @qcode{"max"}, @qcode{"min"}
## @code{cumsum}, @code{cumprod}, @code{cummax}, @code{cummin}; @var{iy} is the index of
## the element chosen, along @var{dim} (with @qcode{"linear"}: into @var{x}).
## @item @qcode{"and"}, @qcode{"or"}, @qcode{"xor"}; @qcode{"bitand"}, @qcode{"bitor"}, @qcode{"bitxor"}
## Running all, any and parity of @code{logical (@var{x})}; running bitwise operations of
## unsigned integers.
## @item @qcode{"logsumexp"}
## @code{log (cumsum (exp (@var{x})))} without its overflow and underflow.
## @item @qcode{"recurrence"}, @var{a}
## @code{@var{y}(k) = @var{a}(k) * @var{y}(k-1) + @var{x}(k)}, @var{a} a scalar (then
## @code{filter (1, [1, -@var{a}], @var{x})}) or the size of @var{x};
## @qcode{"initial"}, @var{y0} gives @var{y}(0).
## @item @qcode{"native"}, @qcode{"double"}
## As Octave 7's @code{cumsum}, on every version: keep an integer class and saturate at
## every step, or compute in double.
## @item @qcode{"inclusive"} (default), @qcode{"exclusive"}
## An exclusive scan gives at each element the scan of the elements before it, starting
## from the operator's identity (0, 1, -Inf or intmin, Inf or intmax).
## @item @qcode{"forward"} (default), @qcode{"reverse"}
## From the last element to the first, as MATLAB's @code{cumsum (@var{x}, "reverse")}.
## @item @qcode{"includenan"}, @qcode{"omitnan"} (or @qcode{"includemissing"}, @qcode{"omitmissing"})
## MATLAB's NaN flags: with @qcode{"omitnan"} a NaN counts as 0 in a sum and 1 in a
## product; with @qcode{"includenan"} the first NaN wins max and min.
## @item @qcode{"ComparisonMethod"}, @qcode{"auto"} | @qcode{"real"} | @qcode{"abs"}
## How max and min compare, as Octave 11 and MATLAB (CPU engine).
## @item @qcode{"accurate"}
## Floating sums with a double-double state: each prefix within one unit in the last
## place of the exact sum, the same bits from every call.
## @item @qcode{"reproducible"}
## The same bits from every call with the same input on the same machine, on the GPU
## too (at some cost there).
## @item @qcode{"segments"}, @var{f}; @qcode{"keys"}, @var{g}
## Restart the scan where the head flags @var{f} are nonzero, or wherever @var{g}
## changes along @var{dim} (Thrust's @code{scan_by_key}).
## @item @qcode{"groups"}, @var{g}
## Running scans within each label of @var{g}, each output in its element's place.
## Labels that are whole numbers spanning at most @code{numel (@var{g}) + 1} values take
## one pass with a running value a label (sums, products, max and min of double and
## single: @code{cumsum}'s own bits in each group), or are counted into order; others
## are sorted (several times slower).
## @item @qcode{"algorithm"}, @var{name}
## @qcode{"auto"} (default: per shape and size, the engine that was faster in its last
## calls), @qcode{"cpu"}, or on the GPU @qcode{"decoupled"}, @qcode{"kogge-stone"},
## @qcode{"brent-kung"}, @qcode{"cub"} (where one does not apply: @qcode{"decoupled"}).
## @env{GPUSCAN_ENGINE} (@qcode{"cpu"} or @qcode{"gpu"}) forces the engine of
## @qcode{"auto"}; @env{GPUSCAN_PLAN} prints each call's plan: the engine and why, down
## to each kernel launch.
## @end table
##
## Integer, logical, max and min results are bit-identical to Octave's.  Floating sums
## and products are summed in another order than @code{cumsum}'s: element @var{k} of a
## sum is within @code{(@var{k}-1) * eps * sum (abs (@var{x}(1:@var{k})))}, and in
## practice a few @code{eps} of @code{cumsum (abs (@var{x}))}.
##
## @example
## @group
## gpuscan ([1 2 3 4], "exclusive")                 # [0 1 3 6]
## gpuscan ([1 2 3 4 5], "segments", [1 0 1 0 0])   # [1 3 3 7 12]
## [m, i] = gpuscan ([3 1 4 1 5], "max")            # [3 3 4 4 5], [1 1 3 3 5]
## balance = gpuscan (amount, "groups", customer);  # per customer, in time order
## @end group
## @end example
##
## @code{doc gpuscan} has each option in detail: class rules, NaN and complex
## numbers, accuracy bounds, the engines and the environment.  Char, cell, struct and
## function handle input is an error, as for @code{cumsum}; errors carry identifiers
## @code{gpuscan:@var{reason}}.
##
## @seealso{cumsum, cumprod, cummax, cummin, gpuscan_info, gpuscan_array, gpuscan_compact, gpuscan_filter,
## gpuscan_mex, gpuscan_trace}
## @end deftypefn

function varargout = gpuscan (varargin)
  ## Only reached when the compiled gpuscan.oct is missing from the path.
  error ("gpuscan:not_built",
         "gpuscan: the compiled function is missing; build or install the package");
endfunction

## ---- helpers -----------------------------------------------------------------------
## the help Octave shows is this file's texinfo, every option named (the compiled
## function's docstring, which shadows this file, is made from it)
%!test
%! [txt, fmt] = get_help_text ("gpuscan");
%! assert (fmt, "texinfo");
%! for o = {"sum", "prod", "max", "min", "native", "double", "inclusive", "exclusive", ...
%!          "forward", "reverse", "omitnan", "includenan", "omitmissing", "all", "linear", "ComparisonMethod", "accurate", "reproducible", "segments", "keys", "groups", "algorithm", "auto", "cpu", "gpu"}
%!   assert (! isempty (strfind (txt, sprintf ('@qcode{"%s"}', o{1}))), o{1});
%! endfor
%! ## (short enough to read in a terminal: the details are in doc gpuscan)
%! assert (numel (strfind (txt, "\n")) <= 90);

## `doc NAME` reads the Info manual doc.info beside NAME's file (made where makeinfo is)
%!testif ; ! isempty (file_in_path (getenv ("PATH"), "makeinfo"))
%! f = fullfile (fileparts (which ("gpuscan")), "doc.info");
%! assert (exist (f, "file"), 2);
%! txt = fileread (f);
%! for n = {"gpuscan", "gpuscan_mex", "gpuscan_array", "gather", "classUnderlying", "existsOnGPU", "gpuscan_compact", "gpuscan_filter", "gpuscan_info", "gpuscan_bench", "gpuscan_trace"}
%!   assert (! isempty (regexp (txt, ['\n\* ' n{1} ':\s'], "once")), n{1});
%! endfor
%! assert (! isempty (strfind (txt, '"exclusive"')));
%! assert (! isempty (strfind (txt, "gpuscan in detail")));

%!function algs = test_algorithms ()
%!  algs = gpuscan_info ().algorithms;
%!endfunction

%!function ok = close_enough (y, ref, x, op)
%!  ## exact for integers, logical, max and min; a bound for float sums and products
%!  if (! strcmp (class (y), class (ref)) || ! isequal (size (y), size (ref)))
%!    ok = false;
%!  elseif (isinteger (y) || islogical (y) || any (strcmp (op, {"max", "min"})))
%!    ok = isequaln (y, ref);
%!  else
%!    tol = 8 * eps (class (y));
%!    if (strcmp (op, "sum"))
%!      ## the whole line's sum of magnitudes bounds every prefix, in either direction
%!      dim = max ([1, find(size (x) != 1, 1)]);
%!      bound = tol * sum (abs (double (x)), dim) .* ones (size (x));
%!      bound = max (bound, realmin (class (y)));
%!    else
%!      bound = tol * max (abs (ref), realmin (class (y))) * max (1, numel (x)) ^ 0.5;
%!    endif
%!    err = abs (double (y) - double (ref));
%!    fin = isfinite (ref);
%!    ok = all (err(fin) <= bound(fin)) && isequaln (y(! fin), ref(! fin));
%!  endif
%!endfunction

%!function [y, iy] = ref_scan (x, dim, op, excl, rev, heads)
%!  ## Sequential reference for every mode: Octave's own cum* on each segment.
%!  sz = size (x);
%!  sz(end+1:max (dim, 2)) = 1;
%!  len = sz(dim);
%!  inner = prod (sz(1:dim-1));
%!  outer = prod (sz(dim+1:end));
%!  xr = reshape (x, inner, len, outer);
%!  if (isempty (heads))
%!    hr = false (inner, len, outer);
%!  elseif (numel (heads) == numel (x) && isequal (size (heads), size (x)))
%!    hr = reshape (logical (heads), inner, len, outer);
%!  else
%!    hr = repmat (reshape (logical (heads), 1, len), [inner, 1, outer]);
%!  endif
%!  switch (op)
%!    case "sum",  f = @cumsum;  ident = 0;
%!    case "prod", f = @cumprod; ident = 1;
%!    case "max",  f = @cummax;  ident = -Inf;
%!    case "min",  f = @cummin;  ident = Inf;
%!  endswitch
%!  probe = f (xr(1:min (1, numel (xr))));
%!  y = zeros (size (xr), class (probe));
%!  iy = zeros (size (xr));
%!  if (isinteger (y) && isinf (ident))
%!    ident = ifelse_int (ident, class (y));
%!  elseif (islogical (y))
%!    ident = ident > 0;
%!  endif
%!  for o = 1:outer
%!    for i = 1:inner
%!      h = squeeze (hr(i, :, o));
%!      h(1) = true;
%!      starts = find (h);
%!      stops = [starts(2:end) - 1, len];
%!      for s = 1:numel (starts)
%!        idx = starts(s):stops(s);
%!        if (rev)
%!          idx = fliplr (idx);
%!        endif
%!        v = squeeze (xr(i, idx, o));
%!        if (any (strcmp (op, {"max", "min"})))
%!          [w, iw] = f (v);
%!          iw = idx(iw);
%!        else
%!          w = f (v);
%!          iw = zeros (size (w));
%!        endif
%!        if (excl)
%!          w = [cast(ident, class (w)), w(1:end-1)];
%!          iw = [0, iw(1:end-1)];
%!        endif
%!        y(i, idx, o) = w;
%!        iy(i, idx, o) = iw;
%!      endfor
%!    endfor
%!  endfor
%!  y = reshape (y, size (x));
%!  iy = reshape (iy, size (x));
%!endfunction

%!function y = native_cumsum (x)
%!  ## cumsum in the class of x, saturating at every step: Octave 11's cumsum of integers,
%!  ## cumsum (x, "native") before
%!  if (compare_versions (OCTAVE_VERSION, "11", ">="))
%!    y = cumsum (x);
%!  else
%!    y = cumsum (x, "native");
%!  endif
%!endfunction

%!function x = as_class (x, cls)
%!  ## test data of class cls: logical as x > 0
%!  if (strcmp (cls, "logical"))
%!    x = x > 0;
%!  else
%!    x = cast (x, cls);
%!  endif
%!endfunction

%!function v = ifelse_int (ident, cls)
%!  if (ident < 0)
%!    v = intmin (cls);
%!  else
%!    v = intmax (cls);
%!  endif
%!endfunction

## ---- agreement with cumsum / cumprod / cummax / cummin ----------------------------
%!test
%! ## every class, operator and dimension, against Octave's own functions
%! classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", ...
%!            "uint32", "int64", "uint64", "logical"};
%! for alg = test_algorithms ()
%!   for c = classes
%!     x = as_class (randn (7, 5, 3) * 40, c{1});
%!     for dim = 1:4
%!       a = {"algorithm", alg{1}};
%!       assert (close_enough (gpuscan (x, dim, a{:}), cumsum (x, dim), x, "sum"));
%!       p = x;
%!       if (! islogical (x))
%!         p = cast (1 + double (x) / 1000, class (x));
%!         if (isinteger (x))
%!           p = x / 16;
%!         endif
%!       endif
%!       assert (close_enough (gpuscan (p, dim, "prod", a{:}), cumprod (p, dim), p, "prod"));
%!       [w, iw] = gpuscan (x, dim, "max", a{:});
%!       [rw, riw] = cummax (x, dim);
%!       assert (isequal (w, rw) && isequal (iw, riw) && strcmp (class (w), class (rw)));
%!       [w, iw] = gpuscan (x, dim, "min", a{:});
%!       [rw, riw] = cummin (x, dim);
%!       assert (isequal (w, rw) && isequal (iw, riw) && strcmp (class (w), class (rw)));
%!     endfor
%!   endfor
%! endfor

%!test
%! ## default dimension, shapes and empties as cumsum
%! for x = {[], zeros(0, 3), zeros(3, 0, 2), 5, (1:7)', 1:7, ones(1, 1, 4), rand(2, 3, 4)}
%!   assert (gpuscan (x{1}), cumsum (x{1}));
%!   assert (size (gpuscan (x{1}, 2)), size (cumsum (x{1}, 2)));
%! endfor
%! assert (class (gpuscan (single ([]))), "single");
%! assert (class (gpuscan (zeros (0, 3, "int8"), "max")), "int8");
%! assert (gpuscan ([1 2; 3 4], 3), [1 2; 3 4]);
%! assert (gpuscan ([1 2; 3 4], 300), [1 2; 3 4]);

%!test
%! ## class rules
%! assert (class (gpuscan (int8 ([1 2]))), class (cumsum (int8 ([1 2]))));
%! assert (class (gpuscan (true (1, 3))), "double");
%! assert (class (gpuscan (single ([1 2]))), "single");
%! assert (class (gpuscan (single ([1 2]), "double")), "double");
%! assert (class (gpuscan (int16 ([1 2]), "double")), "double");
%! assert (class (gpuscan (int8 ([1 2]), "prod")), class (cumprod (int8 ([1 2]))));
%! assert (class (gpuscan (int8 ([1 2]), "max")), "int8");
%! assert (class (gpuscan (true (1, 3), "max")), "logical");
%! assert (gpuscan (int64 ([2^53 1 1])), cumsum (int64 ([2^53 1 1])));
%! assert (gpuscan ([true true false], "native"), [true true true]);
%! assert (gpuscan ([true true false], "prod", "native"), [true true false]);
%! assert (class (gpuscan (single ([1 2]), "native")), "single");

%!test
%! ## native saturation, bit-identical to Octave's step-by-step arithmetic
%! assert (gpuscan (int8 ([100 100 -100]), "native"), int8 ([100 127 27]));
%! for c = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
%!   lo = double (intmin (c{1}));  hi = double (intmax (c{1}));
%!   x = cast (round ((rand (1, 3000) - 0.45) * (hi - lo) / 3), c{1});
%!   for alg = test_algorithms ()
%!     assert (gpuscan (x, "native", "algorithm", alg{1}), native_cumsum (x));
%!     assert (gpuscan (x', "native", "algorithm", alg{1}), native_cumsum (x'));
%!   endfor
%! endfor
%! x = int64 ([9223372036854775807 1 -5 -9223372036854775807 -9223372036854775807 3]);
%! assert (gpuscan (x, "native"), native_cumsum (x));

%!test
%! ## NaN and Inf: sums and products propagate, max and min skip NaN
%! x = [NaN NaN 1 NaN 0 1];
%! [w, iw] = gpuscan (x, "max");
%! assert (w, [NaN NaN 1 1 1 1]);
%! assert (iw, [1 1 3 3 3 3]);
%! [w, iw] = gpuscan (x, "min");
%! [rw, riw] = cummin (x);
%! assert (isequaln (w, rw) && isequal (iw, riw));
%! assert (gpuscan ([1 Inf -Inf 2]), cumsum ([1 Inf -Inf 2]));
%! assert (gpuscan ([1 NaN 2], "prod"), cumprod ([1 NaN 2]));
%! x = [1 -Inf NaN Inf 3];
%! [w, iw] = gpuscan (x, "min");
%! [rw, riw] = cummin (x);
%! assert (isequaln (w, rw) && isequal (iw, riw));

%!test
%! ## max and min with the index on walks that make new extrema often, with ties and NaN
%! ## runs (the GPU finds the positions from the values), vectors and columns
%! x = cumsum (randi ([-1 2], 3 * 2^17, 1));
%! x(1:3) = NaN;
%! x(rand (size (x)) < 0.004) = NaN;
%! for alg = test_algorithms ()
%!   for c = {"double", "single", "int32", "int64", "uint32"}
%!     for xc = {cast(x, c{1}), cast(reshape (-x, [], 3), c{1})}
%!       [w, iw] = gpuscan (xc{1}, "max", "algorithm", alg{1});
%!       [rw, riw] = cummax (xc{1});
%!       assert (isequaln (w, rw) && isequal (iw, riw), "%s %s max", alg{1}, c{1});
%!       [w, iw] = gpuscan (xc{1}, "min", "algorithm", alg{1});
%!       [rw, riw] = cummin (xc{1});
%!       assert (isequaln (w, rw) && isequal (iw, riw), "%s %s min", alg{1}, c{1});
%!     endfor
%!   endfor
%! endfor

%!test
%! ## complex input: all four operators as Octave
%! x = complex (randn (6, 4), randn (6, 4));
%! assert (close_enough (gpuscan (x), cumsum (x), x, "sum"));
%! assert (close_enough (gpuscan (x, 2, "prod"), cumprod (x, 2), x, "prod"));
%! x = [1i, -1, 1, -1i, 1+0i, NaN, 2];
%! [w, iw] = gpuscan (x, "max");  [rw, riw] = cummax (x);
%! assert (isequal (w, rw) && isequal (iw, riw));
%! [w, iw] = gpuscan (x, "min");  [rw, riw] = cummin (x);
%! assert (isequal (w, rw) && isequal (iw, riw));
%! xs = single (x);
%! [w, iw] = gpuscan (xs, "max");  [rw, riw] = cummax (xs);
%! assert (isequal (w, rw) && isequal (iw, riw) && isa (w, "single"));

## ---- exclusive, reverse and segmented scans against a plain loop ------------------
%!test
%! ## every operator x inclusive/exclusive x forward/reverse x dim x segments
%! classes = {"double", "single", "int32", "uint8", "logical"};
%! ops = {"sum", "prod", "max", "min"};
%! for alg = test_algorithms ()
%!   for c = classes
%!     x = as_class (round (randn (5, 6, 4) * 3), c{1});
%!     for dim = 1:3
%!       n = size (x, dim);
%!       for seg = 0:2
%!         switch (seg)
%!           case 0, f = [];
%!           case 1, f = rand (1, n) > 0.6;
%!           case 2, f = rand (size (x)) > 0.7;
%!         endswitch
%!         for op = ops
%!           for excl = 0:1
%!             for rev = 0:1
%!               args = {dim, op{1}, "algorithm", alg{1}};
%!               if (excl), args{end+1} = "exclusive"; endif
%!               if (rev), args{end+1} = "reverse"; endif
%!               if (seg), args(end+1:end+2) = {"segments", f}; endif
%!               [ry, riy] = ref_scan (x, dim, op{1}, excl, rev, f);
%!               if (any (strcmp (op{1}, {"max", "min"})))
%!                 [y, iy] = gpuscan (x, args{:});
%!                 assert (isequal (iy, riy), "index %s %s dim %d seg %d excl %d rev %d",
%!                         c{1}, op{1}, dim, seg, excl, rev);
%!               else
%!                 y = gpuscan (x, args{:});
%!               endif
%!               assert (close_enough (y, ry, x, op{1}), "%s %s %s dim %d seg %d excl %d rev %d",
%!                       alg{1}, c{1}, op{1}, dim, seg, excl, rev);
%!             endfor
%!           endfor
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%! endfor

%!test
%! ## exclusive identities in the output class
%! assert (gpuscan ([3 4], "exclusive"), [0 3]);
%! assert (gpuscan ([3 4], "prod", "exclusive"), [1 3]);
%! assert (gpuscan ([3 4], "max", "exclusive"), [-Inf 3]);
%! assert (gpuscan (int8 ([3 4]), "min", "exclusive"), int8 ([127 3]));
%! assert (gpuscan (uint16 ([3 4]), "max", "exclusive"), uint16 ([0 3]));
%! [~, i] = gpuscan ([3 4], "max", "exclusive");
%! assert (i, [0 1]);
%! assert (gpuscan (1:5, "reverse"), [15 14 12 9 5]);
%! assert (gpuscan (1:6, "segments", [1 0 0 1 0 0]), [1 3 6 4 9 15]);
%! assert (gpuscan (1:6, "segments", [0 0 0 1 0 0], "reverse", "exclusive"), [5 3 0 11 6 0]);

%!test
%! ## heads of every numeric class, Inf and negative flags count as heads
%! x = 1:6;
%! for c = {"double", "single", "int8", "uint32", "int64"}
%!   assert (gpuscan (x, "segments", cast ([0 0 1 0 0 1], c{1})), [1 3 3 7 12 6]);
%! endfor
%! assert (gpuscan (x, "segments", [0 0 Inf 0 0 -2]), [1 3 3 7 12 6]);

%!test
%! ## max and min without the index output (on the GPU, a scan of the values alone):
%! ## leading and scattered NaN, ties of -0 and 0 (the earlier stays), tiles of every
%! ## kernel, along dim 1 and dim 2
%! for alg = test_algorithms ()
%!   for n = [1 5 4095 4097 65537 2^21+5]
%!     x = randn (n, 1) * 1e3;
%!     x(rand (n, 1) < 0.02) = 0;
%!     x(rand (n, 1) < 0.02) = -0;
%!     x(rand (n, 1) < 0.01) = NaN;
%!     x(1:min (n, 3)) = NaN;
%!     for c = {"double", "single", "int32", "int64", "uint32"}
%!       xc = cast (x, c{1});
%!       for op = {"max", "min"}
%!         w = gpuscan (xc, op{1}, "algorithm", alg{1});
%!         rw = feval (["cum" op{1}], xc);
%!         k = ! isnan (rw);
%!         assert (isequaln (w, rw) && isequal (signbit (w(k)), signbit (rw(k))) ...
%!                 && isa (w, c{1}), "%s %s %s n=%d", alg{1}, c{1}, op{1}, n);
%!       endfor
%!     endfor
%!   endfor
%!   x = randn (300, 700);
%!   x(rand (size (x)) < 0.01) = NaN;
%!   assert (isequaln (gpuscan (single (x), 2, "max", "algorithm", alg{1}),
%!                     cummax (single (x), 2)), "%s dim 2", alg{1});
%! endfor

## ---- sizes around every block and tile boundary, and large arrays ------------------
%!test
%! ## lengths around the CPU engine's and GPU kernels' tile sizes
%! sizes = [1 2 3 31 32 33 127 128 129 255 256 257 1023 1024 1025 2047 2048 2049 ...
%!          4095 4096 4097 8191 8192 8193 16383 16384 16385 32767 32768 32769 ...
%!          65535 65536 65537 131071 131072 131073 262143 262144 262145 1000003];
%! for alg = test_algorithms ()
%!   for n = sizes
%!     x = randn (n, 1);
%!     assert (close_enough (gpuscan (x, "algorithm", alg{1}), cumsum (x), x, "sum"),
%!             "%s n=%d", alg{1}, n);
%!     xs = single (x);
%!     assert (close_enough (gpuscan (xs, "algorithm", alg{1}), single (cumsum (double (xs))),
%!                           xs, "sum"), "%s single n=%d", alg{1}, n);
%!     xi = int32 (x * 1e6);
%!     [w, iw] = gpuscan (xi, "max", "algorithm", alg{1});
%!     [rw, riw] = cummax (xi);
%!     assert (isequal (w, rw) && isequal (iw, riw), "%s max n=%d", alg{1}, n);
%!   endfor
%! endfor

%!test
%! ## segments with heads at tile boundaries, batched columns, reverse
%! for alg = test_algorithms ()
%!   for n = [2048 8192 65536 262144]
%!     x = randn (n + 3, 3);
%!     f = false (n + 3, 1);
%!     h = [1024 2048 2049 4096 n n+1];
%!     f(h(h <= n + 3)) = true;
%!     for rev = 0:1
%!       for excl = 0:1
%!         args = {"segments", f, "algorithm", alg{1}};
%!         if (rev), args{end+1} = "reverse"; endif
%!         if (excl), args{end+1} = "exclusive"; endif
%!         assert (close_enough (gpuscan (x, args{:}), ref_scan (x, 1, "sum", excl, rev, f),
%!                               x, "sum"), "%s n=%d rev %d excl %d", alg{1}, n, rev, excl);
%!       endfor
%!     endfor
%!   endfor
%! endfor

%!test
%! ## large arrays (>= 2^22 elements), vectors and matrices along both dimensions
%! x = randn (2^22, 1);
%! for alg = test_algorithms ()
%!   a = {"algorithm", alg{1}};
%!   assert (close_enough (gpuscan (x, a{:}), cumsum (x), x, "sum"), alg{1});
%!   assert (close_enough (gpuscan (x, "reverse", a{:}), flipud (cumsum (flipud (x))), x, "sum"));
%!   m = reshape (x, 2048, 2048);
%!   assert (close_enough (gpuscan (m, 2, a{:}), cumsum (m, 2), m, "sum"), alg{1});
%!   xs = single (x);
%!   assert (close_enough (gpuscan (xs, a{:}), single (cumsum (x)), xs, "sum"), alg{1});
%!   assert (close_enough (gpuscan (xs, "reverse", a{:}), single (flipud (cumsum (flipud (x)))),
%!                         xs, "sum"), alg{1});
%!   assert (close_enough (gpuscan (xs, "reverse", "exclusive", a{:}),
%!                         single ([flipud(cumsum (flipud (x(2:end)))); 0]), xs, "sum"), alg{1});
%!   [w, iw] = gpuscan (xs, "max", a{:});
%!   [rw, riw] = cummax (xs);
%!   assert (isequal (w, rw) && isequal (iw, riw), alg{1});
%! endfor

%!function gb = available_gb ()
%!  gb = 0;
%!  fid = fopen ("/proc/meminfo");
%!  if (fid >= 0)
%!    txt = fread (fid, Inf, "*char")';
%!    fclose (fid);
%!    kb = sscanf (txt(strfind (txt, "MemAvailable:") + 13:end), "%d", 1);
%!    gb = kb / 2^20;
%!  endif
%!  ## GPUSCAN_TEST_MAX_GB: what the tests may take at most (the sanitizer build, where a
%!  ## large array costs its shadow memory and every access is checked)
%!  cap = str2double (getenv ("GPUSCAN_TEST_MAX_GB"));
%!  if (isfinite (cap))
%!    gb = min (gb, cap);
%!  endif
%!endfunction

%!testif ; available_gb () >= 12
%! ## past 2^31 elements (int8: 2 GiB a copy), every engine: 64-bit sizes throughout
%! n = 2^31 + 7;
%! x = zeros (n, 1, "int8");   # strided stores: repmat and an index took 65 s on 2 cores
%! x(1:3:end) = 1;
%! x(2:3:end) = -1;
%! x(3:3:end) = 2;
%! for alg = test_algorithms ()
%!   y = gpuscan (x, "native", "algorithm", alg{1});
%!   assert (y([1:6, 2^31 - 1, 2^31 + 2, n]), int8 ([1 0 2 3 2 4 127 127 127])');
%!   clear y
%!   y = gpuscan (x, "min", "reverse", "algorithm", alg{1});
%!   assert (y([1, n - 3, n - 2, n - 1, n]), int8 ([-1 -1 -1 -1 2])');
%!   clear y
%! endfor

## ---- repeated calls hold no growing memory; unloading and reloading work ----------
%!function kb = resident_kb ()
%!  kb = NaN;
%!  fid = fopen ("/proc/self/statm");
%!  if (fid >= 0)
%!    v = fscanf (fid, "%d", 2);
%!    fclose (fid);
%!    kb = v(2) * 4;
%!  endif
%!endfunction

%!test
%! ## 10,000 calls of every engine: host memory and the GPU engine's buffers stay put
%! x = randn (3000, 2);
%! f = rand (3000, 1) > 0.9;
%! for alg = test_algorithms ()
%!   a = {"algorithm", alg{1}};
%!   gpuscan (x, a{:}); [~, ~] = gpuscan (x, "max", "segments", f, a{:});
%!   rss0 = resident_kb ();
%!   held0 = gpuscan_info ().gpu_memory_held_bytes;
%!   for k = 1:2500
%!     y = gpuscan (x, a{:});
%!     y = gpuscan (x, "exclusive", "reverse", a{:});
%!     [y, iy] = gpuscan (x, "max", "segments", f, a{:});
%!     y = gpuscan (int8 (x), "native", a{:});
%!   endfor
%!   assert (gpuscan_info ().gpu_memory_held_bytes, held0);
%!   ## (not under AddressSanitizer: its quarantine keeps freed memory resident)
%!   if (! isnan (rss0) && isempty (getenv ("ASAN_OPTIONS")))
%!     assert (resident_kb () - rss0 < 8192, "%s: resident memory grew by %d kB", alg{1},
%!             resident_kb () - rss0);
%!   endif
%! endfor

%!test
%! ## Arrays larger than one chunk (GPUSCAN_CHUNK_ELEMENTS forces a tiny chunk): lines cut
%! ## by chunks, carries and segments crossing the cuts, every mode, every algorithm
%! ## ("cpu" runs the same chunk driver on host buffers), against unchunked scans.
%! old = getenv ("GPUSCAN_CHUNK_ELEMENTS");
%! unwind_protect
%!   x = mod ((1:420)' * 7, 19) - 9;
%!   shapes = {x, reshape(x, 20, 21), reshape(x, 4, 5, 21), reshape(x, 21, 20)};
%!   cases = {{"sum"}, {"max"}, {"min", "exclusive"}, {"sum", "reverse"}, ...
%!            {"max", "exclusive", "reverse"}, {"prod"}};
%!   for c = [5 7 64 401]
%!     for s = 1:numel (shapes)
%!       xs = shapes{s};
%!       for dim = 1:ndims (xs)
%!         per_k = mod (1:size (xs, dim), 3) == 0;
%!         full = mod (reshape (1:numel (xs), size (xs)), 11) == 0;
%!         for k = 1:numel (cases)
%!           opts = cases{k};
%!           v = xs;
%!           if (strcmp (opts{1}, "prod"))
%!             v = 1 - 2 * (mod (xs, 5) == 0);
%!           endif
%!           for seg = {{}, {"segments", per_k}, {"segments", full}}
%!             nout = 1 + any (strcmp (opts{1}, {"max", "min"}));
%!             ref = cell (1, nout);
%!             setenv ("GPUSCAN_CHUNK_ELEMENTS", "");
%!             [ref{:}] = gpuscan (v, dim, opts{:}, seg{1}{:}, "algorithm", "cpu");
%!             setenv ("GPUSCAN_CHUNK_ELEMENTS", num2str (c));
%!             for a = test_algorithms ()
%!               y = cell (1, nout);
%!               [y{:}] = gpuscan (v, dim, opts{:}, seg{1}{:}, "algorithm", a{1});
%!               assert (isequal (y, ref), "chunk %d, shape %d, dim %d, %s, %s", c, s,
%!                       dim, strjoin (opts, " "), a{1});
%!             endfor
%!           endfor
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", "5");
%!   assert (gpuscan (int8 ([100 100 -100 -100 -100 50 50 50]), "native", "algorithm", "cpu"),
%!           int8 ([100 127 27 -73 -128 -78 -28 22]));
%!   ## complex max and min are not chunked: their state keeps candidates for a NaN part,
%!   ## which a chunk's carry (an element) lost (a later number replaced an Inf + NaNi)
%!   rand ("seed", 1);
%!   randn ("seed", 1);
%!   sp = [NaN, Inf, -Inf, 0, 1];
%!   for trial = 1:40
%!     re = randn (1, 3000);
%!     im = randn (1, 3000);
%!     m = rand (1, 3000) < 0.05;
%!     re(m) = sp(randi (5, 1, nnz (m)));
%!     m = rand (1, 3000) < 0.05;
%!     im(m) = sp(randi (5, 1, nnz (m)));
%!     x = complex (re, im);
%!     s = double (rand (1, 3000) < 0.01);
%!     setenv ("GPUSCAN_CHUNK_ELEMENTS", "");
%!     [r, ir] = gpuscan (x, 2, "max", "segments", s, "algorithm", "cpu");
%!     setenv ("GPUSCAN_CHUNK_ELEMENTS", "1000");
%!     [y, iy] = gpuscan (x, 2, "max", "segments", s, "algorithm", "cpu");
%!     assert (isequaln ({y, iy}, {r, ir}), "trial %d", trial);
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", old);
%! end_unwind_protect

%!test
%! ## max and min without the index output (a state of the value alone): cummax's and
%! ## cummin's values, leading NaN runs, NaN skipped, the earlier of -0 and +0 kept, along
%! ## and across lines, forward and reverse, on one thread and several
%! old = getenv ("GPUSCAN_CPU_PARALLEL_MIN");
%! unwind_protect
%!   randn ("seed", 12);
%!   for n = [1 2 7 1000 16385]
%!     for c = {"double", "single"}
%!       x = cast (randn (n, 3), c{1});
%!       x(rand (size (x)) < 0.2) = NaN;
%!       x(1:min (3, n), 1) = NaN;
%!       x(rand (size (x)) < 0.1) = 0;
%!       x(rand (size (x)) < 0.1) = -0;
%!       for env = {"", "1"}
%!         setenv ("GPUSCAN_CPU_PARALLEL_MIN", env{1});
%!         for f = {{"max", @cummax}, {"min", @cummin}}
%!           r = f{1}{2} (x, 1);
%!           y = gpuscan (x, 1, f{1}{1});
%!           assert (isequaln (y, r) && isequaln (1 ./ y, 1 ./ r));
%!           assert (isequaln (gpuscan (x', 2, f{1}{1}), f{1}{2} (x', 2)));
%!           assert (isequaln (gpuscan (x, 1, f{1}{1}, "reverse"), flipud (f{1}{2} (flipud (x), 1))));
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", old);
%! end_unwind_protect

%!test
%! ## logical, integer and single X under a double output are read as they are, without a
%! ## converted copy: the same bits as the scan of double (X), at the CPU engine's block
%! ## of 16384 doubles +-1, along and across lines, on one thread and several, through
%! ## chunks (X crosses in its class, converted a chunk at a time) and the operators that
%! ## convert X first, every algorithm
%! old = {getenv("GPUSCAN_CPU_PARALLEL_MIN"), getenv("GPUSCAN_CHUNK_ELEMENTS")};
%! unwind_protect
%!   rand ("seed", 7);
%!   for n = [1 7 9 16383 16385 3 * 16384 + 1]
%!     base = randi ([-300 300], n, 1);
%!     heads = rand (n, 1) < 0.01;
%!     for c = {"logical", "int8", "uint8", "int16", "uint16", "int32", "uint32", ...
%!              "int64", "uint64", "single"}
%!       if (strcmp (c{1}, "logical"))
%!         x = base > 0;
%!       else
%!         x = cast (base, c{1});
%!       endif
%!       for o = {{}, {"exclusive"}, {"reverse"}, {"segments", heads}, {"omitnan"}, {"prod"}}
%!         for env = {{"", ""}, {"1", ""}, {"", "1000"}}
%!           setenv ("GPUSCAN_CPU_PARALLEL_MIN", env{1}{1});
%!           setenv ("GPUSCAN_CHUNK_ELEMENTS", env{1}{2});
%!           for a = test_algorithms ()
%!             opts = [o{1}, {"double", "algorithm", a{1}}];
%!             y = gpuscan (x, opts{:});
%!             assert (isequaln (y, gpuscan (double (x), opts{:})), "%s n = %d, %s",
%!                     c{1}, n, strjoin (opts(cellfun (@ischar, opts)), " "));
%!             if (n > 1000 && isempty (o{1}))
%!               m = reshape (x(1:1000), 10, 100);
%!               assert (isequal (gpuscan (m, 2, opts{:}), gpuscan (double (m), 2, opts{:})));
%!               assert (isequal (gpuscan (m, 1, opts{:}), cumsum (double (m))));
%!             endif
%!           endfor
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%!   assert (gpuscan ([true false true]), [1 1 2]);
%!   assert (gpuscan (intmax ("uint64") * [1 1], "double"), double (intmax ("uint64")) * [1 2]);
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", old{1});
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", old{2});
%! end_unwind_protect

%!test
%! ## Scans whose state an element cannot carry ("omitnan", "accurate", "recurrence") cross
%! ## in one chunk, whatever GPUSCAN_CHUNK_ELEMENTS says, on every algorithm ("cpu" runs
%! ## the same chunk driver on host buffers): exact data, against unchunked scans
%! old = getenv ("GPUSCAN_CHUNK_ELEMENTS");
%! unwind_protect
%!   x = mod ((1:420)' * 7, 19) - 9;
%!   xn = x;
%!   xn(mod (1:420, 13) == 0) = NaN;
%!   pm = 1 - 2 * (mod (x, 5) == 0);
%!   pm(mod (1:420, 17) == 0) = NaN;
%!   a = mod ((1:420)', 3) - 1;
%!   f = mod ((1:420)', 37) == 0;
%!   units = [1; 1i; -1; -1i];
%!   cases = {{xn, "omitnan"}, {pm, "prod", "omitnan", "reverse"}, ...
%!            {xn, "omitnan", "exclusive", "segments", f}, {x, "accurate"}, ...
%!            {complex(xn, flipud (xn)), "omitnan"}, ...
%!            {single(pm .* units(mod ((1:420)', 4) + 1)), "prod", "omitnan"}, ...
%!            {x, "recurrence", a}, {x, "recurrence", -1, "exclusive", "initial", 2}, ...
%!            {x, "recurrence", a, "segments", f, "reverse"}};
%!   for c = [5 419 1000]
%!     for k = 1:numel (cases)
%!       [v, opts] = deal (cases{k}{1}, cases{k}(2:end));
%!       for shape = {[420 1], [20 21]}
%!         o = opts;
%!         for i = 1:numel (o)
%!           if (numel (o{i}) == 420)
%!             o{i} = reshape (o{i}, shape{1});
%!           endif
%!         endfor
%!         vs = reshape (v, shape{1});
%!         for dim = 1:2
%!           if (any (strcmp (o, "segments")) && dim == 2)
%!             continue;
%!           endif
%!           setenv ("GPUSCAN_CHUNK_ELEMENTS", "");
%!           ref = gpuscan (vs, dim, o{:}, "algorithm", "cpu");
%!           setenv ("GPUSCAN_CHUNK_ELEMENTS", num2str (c));
%!           for alg = test_algorithms ()
%!             if (strcmp (alg{1}, "cub") && any (strcmp (o, "accurate")))
%!               continue;   # (accurate is reproducible, which cub is not)
%!             endif
%!             y = gpuscan (vs, dim, o{:}, "algorithm", alg{1});
%!             assert (isequaln (y, ref), "chunk %d, case %d, %dx%d, dim %d, %s", c, k,
%!                     shape{1}, dim, alg{1});
%!           endfor
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", old);
%! end_unwind_protect

%!test
%! ## __gpuscan__ ("release") (what pkg unload runs) frees the GPU buffers and starts
%! ## the engine again; clearing gpuscan's functions leaves them loaded and working (the
%! ## device arrays' type must outlive its values)
%! y0 = gpuscan (1:5);
%! x = rand (1e6, 1);
%! y = gpuscan (x, "algorithm", gpuscan_info ().algorithms{end});
%! held = gpuscan_info ().gpu_memory_held_bytes;
%! __gpuscan__ ("release");
%! ## (gpuscan_info starts the engine again: pinned staging and a probe, no scan buffers)
%! assert (gpuscan_info ().gpu_memory_held_bytes < held || held == 0);
%! assert (gpuscan (1:5), y0);
%! clear gpuscan __gpuscan__
%! assert (gpuscan (1:5), y0);
%! clear all
%! assert (gpuscan (1:5), [1 3 6 10 15]);
%! assert (isstruct (gpuscan_info ()));

%!testif ; any (cellfun (@(p) strcmp (p.name, "gpuscan") && p.loaded, pkg ("list")))
%! ## pkg unload frees everything (PKG_DEL), pkg load brings gpuscan back
%! x = rand (1e6, 1);
%! y = gpuscan (x, "algorithm", gpuscan_info ().algorithms{end});
%! if (! isempty (gpuscan_info ().device_arrays))
%!   d = gpuscan_array (x);
%! endif
%! held = gpuscan_info ().gpu_memory_held_bytes;
%! pkg unload gpuscan
%! assert (! exist ("gpuscan_info"));
%! pkg load gpuscan
%! info = gpuscan_info ();
%! assert (info.device_array_count, 0);
%! assert (info.gpu_memory_held_bytes < held || held == 0);
%! assert (gpuscan (x), y, 1e-8 * sum (abs (x)));

%!test
%! ## Saturating integer sums, Octave's step by step: small values (a plain running sum),
%! ## runs that saturate and push on (a fill), and values that clamp now and then; on one
%! ## thread (the value as the state) and through the threads' blocks (clamp maps)
%! old = getenv ("GPUSCAN_CPU_PARALLEL_MIN");
%! unwind_protect
%!   rand ("seed", 3);
%!   for c = {"int8", "uint8", "int16", "uint32", "int64", "uint64"}
%!     hi = double (intmax (c{1}));
%!     for scale = [0.001 0.2 3]
%!       x = cast ((rand (300, 2) - 0.3) * hi * scale / 20, c{1});
%!       x(100:140, 1) = intmax (c{1});
%!       for o = {{}, {"exclusive"}, {"reverse"}}
%!         ref = zeros (size (x), c{1});
%!         excl = any (strcmp (o{1}, "exclusive"));
%!         order = 1:300;
%!         if (any (strcmp (o{1}, "reverse")))
%!           order = fliplr (order);
%!         endif
%!         for j = 1:2
%!           v = cast (0, c{1});
%!           for k = order
%!             next = v + x(k, j);   # (Octave's saturating addition)
%!             ref(k, j) = merge (excl, v, next);
%!             v = next;
%!           endfor
%!         endfor
%!         for env = {"", "1"}
%!           setenv ("GPUSCAN_CPU_PARALLEL_MIN", env{1});
%!           assert (gpuscan (x, "native", o{1}{:}, "algorithm", "cpu"), ref);
%!         endfor
%!       endfor
%!     endfor
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", old);
%! end_unwind_protect

%!test
%! ## The plan of a call (GPUSCAN_PLAN prints it; __gpuscan__ ("plan", ...) returns it and
%! ## runs nothing): the engine and why, the threads, chunks and conversions, for shapes
%! ## and settings (the GPU's part where there is one, below)
%! names = {"GPUSCAN_ALGORITHM", "GPUSCAN_ENGINE", "GPUSCAN_CHUNK_ELEMENTS", ...
%!          "GPUSCAN_CPU_PARALLEL_MIN", "GPUSCAN_CROSSOVER"};
%! old = cellfun (@getenv, names, "uniformoutput", false);
%! plan = @(varargin) __gpuscan__ ("plan", varargin{:});
%! unwind_protect
%!   cellfun (@(n) setenv (n, ""), names);
%!   assert (plan (zeros (0, 3)), "gpuscan plan: double sum of 1 x 0 x 3: nothing to run (no element)");
%!   p = plan (rand (7, 5), 2, "max", "reverse", "algorithm", "cpu");
%!   assert (p, ["gpuscan plan: double max of 7 x 5 x 1, reverse: CPU engine ", ...
%!               "(the algorithm \"cpu\"); 1 thread"]);
%!   ## a narrow X is read as it is, but where the engine converts it first
%!   assert (! isempty (regexp (plan (rand (9, 1) > 0.5), "double sum of 1 x 9 x 1 from logical: CPU engine")));
%!   assert (isempty (strfind (plan (rand (9, 1) > 0.5), "converted")));
%!   assert (! isempty (strfind (plan (int8 ([1 2]), "prod", "algorithm", "cpu"), ...
%!                               "from int8: CPU engine (the algorithm \"cpu\"); X converted to double first")) ...
%!           || compare_versions (OCTAVE_VERSION, "11", ">="));
%!   assert (! isempty (strfind (plan (rand (3, 4, 5), "all"), "double sum of 1 x 60 x 1")));
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", "1000");
%!   assert (! isempty (strfind (plan (rand (5000, 1), "algorithm", "cpu"), "; chunks of 1000 elements")));
%!   assert (isempty (strfind (plan (rand (999, 1), "algorithm", "cpu"), "chunks")));
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", "");
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", "1");
%!   assert (! isempty (regexp (plan (rand (50, 1), "algorithm", "cpu"), sprintf ("; %d threads?$", gpuscan_info ().cpu_threads))) ...
%!           || gpuscan_info ().cpu_threads > 1);   # (1 on a machine found busy)
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", "");
%!   setenv ("GPUSCAN_ALGORITHM", "cpu");
%!   assert (! isempty (strfind (plan (rand (5, 1)), "(the algorithm \"cpu\" (GPUSCAN_ALGORITHM))")));
%!   setenv ("GPUSCAN_ALGORITHM", "no-such");
%!   fail ("plan (rand (5, 1))", "GPUSCAN_ALGORITHM=\"no-such\" names no algorithm");
%!   setenv ("GPUSCAN_ALGORITHM", "");
%!   if (! gpuscan_info ().cuda_built)
%!     assert (! isempty (strfind (plan (rand (5, 1)), "(auto: this build of gpuscan has no CUDA engine)")));
%!     fail ("plan (rand (5, 1), 'algorithm', 'decoupled')", "needs the CUDA engine");
%!   elseif (gpuscan_info ().gpu_count == 0)
%!     assert (! isempty (strfind (plan (rand (5, 1)), "(auto: no usable GPU)")));
%!     fail ("plan (rand (5, 1), 'algorithm', 'decoupled')", "needs a GPU");
%!   else
%!     assert (! isempty (strfind (plan (rand (5, 1)), "(auto: fewer elements than the GPU is ever sent)")));
%!     setenv ("GPUSCAN_ENGINE", "cpu");
%!     assert (! isempty (strfind (plan (rand (2^17, 1)), "CPU engine (GPUSCAN_ENGINE=cpu)")));
%!     setenv ("GPUSCAN_ENGINE", "gpu");
%!     p = plan (rand (2^17, 1) > 0.5);
%!     assert (! isempty (regexp (p, "from logical: GPU, host arrays \\(GPUSCAN_ENGINE=gpu\\); the CPU engine if the GPU fails; X crosses as logical, converted to double a chunk at a time; 1 chunk of 131072 elements; kernels decoupled look-back: ")), p);
%!     setenv ("GPUSCAN_ENGINE", "");
%!     setenv ("GPUSCAN_CROSSOVER", "-1");
%!     assert (! isempty (strfind (plan (rand (2^17, 1)), "CPU engine (GPUSCAN_CROSSOVER: never the GPU)")));
%!     setenv ("GPUSCAN_CROSSOVER", "");
%!     setenv ("GPUSCAN_CHUNK_ELEMENTS", "100000");
%!     p = plan (rand (250000, 1), "algorithm", "brent-kung");
%!     assert (! isempty (regexp (p, "GPU, host arrays \\(the algorithm \"brent-kung\"\\); 3 chunks of 100000 elements; kernels Brent-Kung: ")), p);
%!     p = plan (rand (250000, 1), "omitnan", "algorithm", "decoupled");
%!     assert (! isempty (strfind (p, "1 chunk of 250000 elements")), p);
%!     setenv ("GPUSCAN_CHUNK_ELEMENTS", "");
%!     p = plan (rand (2^20, 1), "algorithm", "cub");
%!     assert (! isempty (strfind (p, "kernels CUB: CUB's DeviceScan inclusive sum")), p);
%!     p = plan (rand (2^20, 1), "max", "algorithm", "cub");
%!     assert (! isempty (strfind (p, "kernels decoupled look-back: ")), p);
%!     ## each launch: the blocks the GPU holds at once, and the look-back's order
%!     p = plan (rand (2^22, 1), "algorithm", "decoupled");
%!     assert (! isempty (regexp (p, "B workspace, \\d+ resident")), p);
%!     p = plan (rand (2^20, 1), "reproducible", "algorithm", "decoupled");
%!     assert (! isempty (strfind (p, ", ordered look-back")), p);
%!   endif
%! unwind_protect_cleanup
%!   cellfun (@setenv, names, old);
%! end_unwind_protect
%!error <X and the options are host arrays> __gpuscan__ ("plan", sparse ([1 2]))

%!testif ; gpuscan_info ().gpu_count > 0 && isempty (getenv ("GPUSCAN_CROSSOVER")) && isempty (getenv ("GPUSCAN_ENGINE")) && isempty (getenv ("GPUSCAN_ALGORITHM"))
%! ## "auto" times its own calls: three on each engine per shape and size, then the faster
%! ## (where GPUSCAN_ENGINE or GPUSCAN_ALGORITHM takes the choice away, nothing is timed)
%! x = mod ((1:2^17)', 17) - 8;
%! ref = cumsum (x);
%! __gpuscan__ ("release");
%! assert (gpuscan_info ().auto_crossover, [-1 -1 -1]);
%! for k = 1:5
%!   assert (gpuscan (x), ref);
%! endfor
%! assert (gpuscan_info ().auto_crossover(1), -1);
%! assert (gpuscan (x), ref);
%! assert (gpuscan_info ().auto_crossover(1) == 0 || gpuscan_info ().auto_crossover(1) == 2^17);
%! assert (gpuscan_info ().auto_crossover(2:3), [-1 -1]);
%! assert (gpuscan (x), ref);
%! assert (gpuscan (reshape (x, 2^9, 2^8)), cumsum (reshape (x, 2^9, 2^8)));

%!testif ; gpuscan_info ().fault_injection && gpuscan_info ().gpu_count > 0
%! ## GPU faults (a test build: GPUSCAN_FAULT makes CUDA calls fail): each one gives a
%! ## clear error or a CPU fall-back, and the next call works
%! x = mod ((1:3e5)', 17) - 8;
%! ref = gpuscan (x, "algorithm", "cpu");
%! ## kernels that need what a CUDA context keeps: a shared-memory opt-in (the staged
%! ## indices of singles) and a symbol's address (a native sum's redo word)
%! ## (a function of this block: an earlier block's clear all removes %!functions)
%! xs = single (x);
%! xi = int32 (x) * 2^26;
%! context_kernels = @(a) {nthargout(1:2, @gpuscan, xs, "max", "exclusive", "algorithm", a), ...
%!                         gpuscan(xi, "native", "algorithm", a)};
%! context_ref = context_kernels ("cpu");
%! unwind_protect
%!   for f = {"malloc", "launch", "lost"}
%!     if (strcmp (f{1}, "lost"))
%!       assert (context_kernels ("decoupled"), context_ref);
%!     endif
%!     setenv ("GPUSCAN_FAULT", f{1});
%!     d = [];
%!     ## a named GPU algorithm fails cleanly; "auto" on the GPU falls back to the CPU
%!     ok = true;
%!     try
%!       ## (with "malloc", buffers held from earlier calls may need no allocation)
%!       y = gpuscan (x, "algorithm", "decoupled");
%!     catch err
%!       ok = false;
%!       assert (any (strcmp (err.identifier, {"gpuscan:out_of_memory", "gpuscan:gpu_error", "gpuscan:no_gpu"})), err.message);
%!     end_try_catch
%!     if (ok)
%!       assert (y, ref);
%!     endif
%!     if (strcmp (f{1}, "lost"))
%!       ## the device was reset; found again by the next call, it has a new context, in
%!       ## which the kernels that need what a context keeps work as before the reset (a
%!       ## large array first, so that the kernels' globals load elsewhere than before)
%!       setenv ("GPUSCAN_FAULT", "");
%!       big = gpuscan_array (zeros (2^27, 1, "single"));
%!       assert (context_kernels ("decoupled"), context_ref);
%!       clear big
%!       setenv ("GPUSCAN_FAULT", f{1});
%!     endif
%!     setenv ("GPUSCAN_ENGINE", "gpu");
%!     warning ("off", "gpuscan:gpu_fallback", "local");
%!     assert (gpuscan (x), ref);
%!     setenv ("GPUSCAN_ENGINE", "");
%!     setenv ("GPUSCAN_FAULT", "");
%!     if (strcmp (f{1}, "lost"))
%!       ## a lost GPU stays lost for this process's engine; a release finds it again
%!       assert (gpuscan (x), ref);
%!       __gpuscan__ ("release");
%!     endif
%!     assert (gpuscan (x, "algorithm", "decoupled"), ref);
%!     if (! isempty (gpuscan_info ().device_arrays))
%!       d = gpuscan_array (x);
%!       setenv ("GPUSCAN_FAULT", f{1});
%!       try
%!         gather (gpuscan (d));
%!       catch err
%!         assert (strncmp (err.identifier, "gpuscan:", 8), err.message);
%!       end_try_catch
%!       setenv ("GPUSCAN_FAULT", "");
%!       ## after a lost device the array is gone (gpuscan:stale); otherwise it works
%!       try
%!         assert (gather (gpuscan (d)), ref);
%!       catch err
%!         assert (strcmp (f{1}, "lost") && strcmp (err.identifier, "gpuscan:stale"), err.message);
%!       end_try_catch
%!       assert (gather (gpuscan (gpuscan_array (x))), ref);
%!     endif
%!   endfor
%!   ## no pinned memory at start-up: no GPU engine, the CPU engine works
%!   setenv ("GPUSCAN_FAULT", "host_alloc");
%!   __gpuscan__ ("release");
%!   assert (gpuscan (x), ref);
%!   assert (gpuscan_info ().gpu_count, 0);
%!   fail ("gpuscan (x, 'algorithm', 'decoupled')", "pinned");
%!   setenv ("GPUSCAN_FAULT", "");
%!   __gpuscan__ ("release");
%!   assert (gpuscan (x, "algorithm", "decoupled"), ref);
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_FAULT", "");
%!   setenv ("GPUSCAN_ENGINE", "");
%! end_unwind_protect

%!testif ; gpuscan_info ().fault_injection && gpuscan_info ().gpu_count > 0
%! ## A GPU whose memory other processes hold (a test build: GPUSCAN_FAULT=busy, no free
%! ## memory), in a fresh Octave whose GPUSCAN_PLAN line shows the plan: a sum goes
%! ## through in the smallest chunks (2^20 elements: three for 2^21 + 5), and a scan of one
%! ## piece ("omitnan", "accurate", "recurrence") runs on the CPU engine, under a named
%! ## algorithm and under "auto"; each as the CPU engine gives it
%! octave = fullfile (OCTAVE_HOME (), "bin", "octave-cli");
%! setup = sprintf (["addpath ('%s'); addpath ('%s'); warning ('off', 'gpuscan:gpu_fallback');", ...
%!                   "x = mod ((1:2^21+5)', 17) - 8; x(7:1000:end) = NaN;"],
%!                  fileparts (which ("gpuscan_array")), fileparts (which ("gpuscan")));
%! cases = {"{}", "{'omitnan'}", "{'accurate'}", "{'recurrence', 0.5}"};
%! on_gpu = [true false false false];
%! for k = 1:numel (cases)
%!   for alg = {"decoupled", "auto"}
%!     code = sprintf (["%s c = %s; r = gpuscan (x, c{:}, 'algorithm', 'cpu');", ...
%!                      "y = gpuscan (x, c{:}, 'algorithm', '%s'); printf ('same %%d', isequaln (y, r));"],
%!                     setup, cases{k}, alg{1});
%!     [~, out] = system (sprintf (['GPUSCAN_FAULT=busy GPUSCAN_PLAN=1 GPUSCAN_ENGINE=gpu ', ...
%!                                  '"%s" --no-gui --norc --no-history --quiet --eval "%s" 2>&1'], octave, code));
%!     assert (! isempty (strfind (out, "same 1")), out);
%!     plans = regexp (out, "gpuscan plan: [^\\n]*", "match");
%!     gpu_plan = plans{end};   # (the last: the reference's comes first)
%!     if (on_gpu(k))
%!       assert (! isempty (strfind (gpu_plan, "GPU, host arrays")) ...
%!               && ! isempty (strfind (gpu_plan, "3 chunks of 1048576 elements")), out);
%!     else
%!       assert (! isempty (strfind (gpu_plan, "CPU engine (the GPU's free memory holds no piece")), out);
%!     endif
%!   endfor
%! endfor

%!testif ; gpuscan_info ().fault_injection && gpuscan_info ().gpu_count > 0
%! ## A device reset in a fresh Octave (a test build: GPUSCAN_FAULT=lost), with a device
%! ## array made before the kernels first load: the kernels' caches of the old context (a
%! ## native sum's redo word) must go with it.  Without that, the native sum after the
%! ## reset wrote through a stale address (an illegal access; the GPU was lost).
%! script = sprintf (["addpath ('%s'); addpath ('%s'); x = mod ((1:3e5)', 17) - 8;", ...
%!   "xi = int32 (x) * 2^26; d = gpuscan_array (x); n = gpuscan (xi, 'native', 'algorithm', 'decoupled');", ...
%!   "setenv ('GPUSCAN_FAULT', 'lost'); try, gpuscan (x, 'algorithm', 'decoupled'); end;", ...
%!   "setenv ('GPUSCAN_FAULT', ''); m = gpuscan (xi, 'native', 'algorithm', 'decoupled');", ...
%!   "printf ('context ok %%d', isequal (n, m));"],
%!   fileparts (which ("gpuscan_array")), fileparts (which ("gpuscan")));
%! octave = fullfile (OCTAVE_HOME (), "bin", "octave-cli");
%! [~, out] = system (sprintf ('"%s" --no-gui --norc --no-history --quiet --eval "%s" 2>&1', octave, script));
%! assert (! isempty (strfind (out, "context ok 1")), out);

## ---- bad input: gpuscan:<reason>, and Octave keeps working ---------------------------
%!error <X is missing> gpuscan ()
%!error id=gpuscan:type gpuscan ("abc")
%!error id=gpuscan:type gpuscan ({1, 2})
%!error id=gpuscan:type gpuscan (struct ("a", 1))
%!error id=gpuscan:type gpuscan (@sin)
%!error id=gpuscan:sparse gpuscan (sparse ([1 2 3]), "exclusive")
%!error id=gpuscan:sparse gpuscan (sparse ([1 2 3]), "xor")
%!error id=gpuscan:sparse gpuscan (sparse ([1 2 3]), "algorithm", "cpu")
%!error id=gpuscan:dim gpuscan (1:3, 0)
%!error id=gpuscan:dim gpuscan (1:3, -1)
%!error id=gpuscan:dim gpuscan (1:3, 1.5)
%!error id=gpuscan:dim gpuscan (1:3, NaN)
%!error <duplicate dimension in VECDIM = 2> gpuscan (ones (3), [1 2 2])
%!error <invalid dimension in VECDIM = -2> gpuscan (ones (3), [1 -2])
%!error <invalid dimension DIM = 0> gpuscan (ones (3), 0)
%!error <cannot set DIM or VECDIM with "all"> gpuscan (ones (3), 1, "all")
%!error <cannot set DIM or VECDIM with "all"> gpuscan (ones (3), [1 2], "all")
%!error id=gpuscan:dim gpuscan (1:3, [])
%!error id=gpuscan:dim gpuscan (1:3, [1.5 2])
%!error <option "linear" applies to max and min> gpuscan (1:3, "linear")
%!error <"ComparisonMethod" .argument 4. takes "auto", "real" or "abs"> gpuscan (1:3, "max", "ComparisonMethod", "size")
%!error <option "ComparisonMethod" applies to max and min> gpuscan (1:3, "ComparisonMethod", "abs")
%!error <options "omitmissing" and "includemissing" conflict> gpuscan (1:3, "omitmissing", "includemissing")
%!error id=gpuscan:dim gpuscan (1:3, Inf)
%!error id=gpuscan:dim gpuscan (1:3, -2^40)
%!error id=gpuscan:dim gpuscan (1:3, 1i)
%!error <unknown option "bogus" .argument 2.; known: sum, prod, max, min, and, or, xor, bitand, bitor, bitxor, logsumexp, native.*omitnan, includenan, omitmissing, includemissing, all, linear, ComparisonMethod, accurate, reproducible, segments, keys, groups, recurrence, initial> gpuscan (1:3, "bogus")

## ---- Octave 11's and MATLAB's options, on every version -------------------------------
%!test
%! ## VECDIM: the dimensions merged into one at the first of them (Octave 11's shapes),
%! ## "all" as X(:); dimensions beyond the array's are singletons
%! x = reshape (1:8, 2, 2, 2);
%! for alg = gpuscan_info ().algorithms   # (clear all above removed test_algorithms)
%!   a = {"algorithm", alg{1}};
%!   y = gpuscan (x, [1, 2], "prod", a{:});
%!   assert (y, reshape ([1 2 6 24 5 30 210 1680], [4 1 2]));
%!   assert (gpuscan (x, [1, 3], "prod", a{:}), [1 3; 2 12; 10 84; 60 672]);
%!   assert (gpuscan (x, [3, 1], "prod", a{:}), [1 3; 2 12; 10 84; 60 672]);
%!   assert (gpuscan (x, [2, 3], "prod", a{:}), [1 3 15 105; 2 8 48 384]);
%!   assert (gpuscan (x, [1 2 3], a{:}), gpuscan (x, "all", a{:}));
%!   assert (gpuscan (x, "all", a{:}), cumsum (x(:)));
%!   assert (gpuscan (x, "all", "reverse", a{:}), flipud (cumsum (flipud (x(:)))));
%!   assert (gpuscan (x, [2 4], a{:}), cumsum (x, 2));
%!   assert (gpuscan (x, [4 5], a{:}), x);
%!   assert (gpuscan (ones (2), [4, 5], "prod", a{:}), ones (2));
%!   ## with segments the size of X (permuted as X is) and the exclusive scan
%!   f = false (2, 2, 2);
%!   f(1, 2, 1) = true;
%!   y = gpuscan (x, [2 3], "segments", f, "exclusive", a{:});
%!   assert (y, [0 0 3 8; 0 2 6 12]);
%!   ## and on random data of every class, against the merged scan of X permuted
%!   r = randn (3, 4, 5, 2) * 10;
%!   for c = {"double", "single", "int16", "uint8"}
%!     xc = cast (r, c{1});
%!     assert (gpuscan (xc, [2 3], "max", a{:}), cummax (reshape (xc, 3, 20, 1, 2), 2));
%!     assert (gpuscan (xc, [3 2], a{:}), gpuscan (reshape (xc, 3, 20, 1, 2), 2, a{:}));
%!     p = reshape (permute (xc, [1 3 2 4]), 15, 4, 1, 2);
%!     assert (gpuscan (xc, [1 3], "min", a{:}), cummin (p, 1));
%!   endfor
%! endfor

%!test
%! ## "linear": the index output as linear indices of X, with any DIM or VECDIM
%! A = [3, 5, NaN, 4, 2; 2, 6, 2, 9, 4; 1, 3, 0, NaN, 1; 5, 3, 4, 2, 0];
%! x = randi ([-10, 10], 3, 4, 5, 2);
%! for alg = gpuscan_info ().algorithms   # (clear all above removed test_algorithms)
%!   a = {"algorithm", alg{1}};
%!   for op = {"max", "min"}
%!     for o = {{}, {"includenan"}, {"reverse"}, {2}, {2, "includenan", "reverse"}}
%!       [m, i] = gpuscan (A, o{1}{:}, op{1}, "linear", a{:});
%!       assert (isequaln (m, A(i)));
%!     endfor
%!     for v = {[2 3], [1 3], [2 4], [1 4], [1 2 3], [2 3 4], "all"}
%!       [m, i] = gpuscan (x, v{1}, op{1}, "linear", a{:});
%!       assert (m, x(i));
%!     endfor
%!   endfor
%!   [m, i] = gpuscan ([1, 2, 3; 4, 5, 6], 1, "min", "linear", "reverse", a{:});
%!   assert ({m, i}, {[1, 2, 3; 4, 5, 6], [1, 3, 5; 2, 4, 6]});
%!   [m, i] = gpuscan ([1, 2, 3; 4, 5, 6], 2, "max", "linear", "exclusive", a{:});
%!   assert (i, [0, 1, 3; 0, 2, 4]);
%! endfor

%!test
%! ## "ComparisonMethod": "real" orders complex numbers by the real part, then the
%! ## imaginary part; "abs" orders real ones by abs, then by value (as Octave 11 does);
%! ## "auto" and the other pairings are Octave's rule
%! C = [3+2i, 5i, NaN, 4+i, 2i; 2, 6i, 2, 9+2i, 4i; 1, 2+3i, 0, NaN, 1i; 5, 3i, 4, 2i, 1i];
%! for alg = gpuscan_info ().algorithms   # (clear all above removed test_algorithms)
%!   a = {"algorithm", alg{1}};
%!   [m, i] = gpuscan (C, 2, "min", "ComparisonMethod", "real", a{:});
%!   assert (m, [3+2i, 5i, 5i, 5i, 2i; 2, 6i, 6i, 6i, 4i; 1, 1, 0, 0, 0; 5, 3i, 3i, 2i, 1i]);
%!   assert (i, [1, 2, 2, 2, 5; 1, 2, 2, 2, 5; 1, 1, 3, 3, 3; 1, 2, 2, 4, 5]);
%!   [m, i] = gpuscan (C, "min", "includenan", "comparisonmethod", "REAL", a{:});
%!   assert (i, [1, 1, 1, 1, 1; 2, 1, 1, 1, 1; 3, 1, 1, 3, 3; 3, 4, 1, 3, 3]);
%!   assert (isequaln (m, C(sub2ind (size (C), i, repmat (1:5, 4, 1)))));
%!   [m, i] = gpuscan ([-3 3 -4 4 1 NaN], "max", "ComparisonMethod", "abs", a{:});
%!   assert ({m, i}, {[-3 3 -4 4 4 4], [1 2 3 4 4 4]});
%!   [m, i] = gpuscan (int8 ([-3 3 -4 4 1 -128 127]), "min", "ComparisonMethod", "abs", a{:});
%!   assert ({m, i}, {int8([-3 -3 -3 -3 1 1 1]), [1 1 1 1 5 5 5]});
%!   x = [int64(5), -intmax("int64"), intmin("int64"), int64(3)];
%!   [m, i] = gpuscan (x, "max", "ComparisonMethod", "abs", a{:});
%!   assert ({m, i}, {x([1 2 3 3]), [1 2 3 3]});
%!   [m, i] = gpuscan (single ([2 -2 NaN -3]), "max", "includenan", "ComparisonMethod", "abs", a{:});
%!   assert (isequaln ({m, i}, {single([2 2 NaN NaN]), [1 1 3 3]}));
%!   assert (gpuscan ([-2 2 3], "max", "ComparisonMethod", "abs", "exclusive", a{:}), [0 -2 2]);
%!   assert (gpuscan (uint8 ([2 1 3]), "max", "ComparisonMethod", "abs", a{:}), uint8 ([2 2 3]));
%!   assert (gpuscan ([1 -5 2], "max", "ComparisonMethod", "real", a{:}), [1 1 2]);
%!   assert (gpuscan ([1 -5i 2], "max", "ComparisonMethod", "abs", a{:}), gpuscan ([1 -5i 2], "max"));
%!   assert (gpuscan (C, "max", "ComparisonMethod", "auto", a{:}), gpuscan (C, "max"));
%! endfor

%!testif ; compare_versions (OCTAVE_VERSION, "11", ">=")
%! ## against this Octave's own cummax and cummin with the method, random data
%! for t = 1:20
%!   x = complex (randi (5, 6, 7) - 3, randi (5, 6, 7) - 3);
%!   x(rand (size (x)) < 0.1) = NaN;
%!   r = randi (9, 6, 7) - 5;
%!   r(rand (size (r)) < 0.1) = NaN;
%!   for f = {"max", "min"}
%!     ref = str2func (["cum" f{1}]);
%!     for nan = {"omitnan", "includenan"}
%!       [m, i] = gpuscan (x, 2, f{1}, nan{1}, "ComparisonMethod", "real");
%!       [rm, ri] = ref (x, 2, nan{1}, "ComparisonMethod", "real");
%!       assert (isequaln ({m, i}, {rm, ri}));
%!       [m, i] = gpuscan (r, f{1}, nan{1}, "ComparisonMethod", "abs", "reverse");
%!       [rm, ri] = ref (r, nan{1}, "reverse", "ComparisonMethod", "abs");
%!       assert (isequaln ({m, i}, {rm, ri}));
%!       [m, i] = gpuscan (int8 (r * 20), f{1}, "ComparisonMethod", "abs");
%!       [rm, ri] = ref (int8 (r * 20), "ComparisonMethod", "abs");
%!       assert (isequaln ({m, i}, {rm, ri}));
%!       ## Octave 11's complex order: an arg of -pi is less than pi
%!       z = complex ([-1 -1 -2 2 1], [-0 0 -0 0 -1]);
%!       [m, i] = gpuscan (z, f{1}, nan{1}, "ComparisonMethod", "abs");
%!       [rm, ri] = ref (z, nan{1}, "ComparisonMethod", "abs");
%!       assert (isequaln ({m, i}, {rm, ri}));
%!       [m, i] = gpuscan (single (z), f{1}, nan{1});
%!       [rm, ri] = ref (single (z), nan{1});
%!       assert (isequaln ({m, i}, {rm, ri}));
%!     endfor
%!   endfor
%! endfor

%!test
%! ## MATLAB's "omitmissing" and "includemissing" are "omitnan" and "includenan"
%! x = [1 NaN 2 NaN 5 0];
%! assert (gpuscan (x, "omitmissing"), gpuscan (x, "omitnan"));
%! assert (isequaln (gpuscan (x, "max", "includemissing"), gpuscan (x, "max", "includenan")));
%! assert (gpuscan (x, "prod", "OmitMissing"), [1 1 2 2 10 0]);

%!test
%! ## integer products in the class, saturating at every step ("native"; the default
%! ## from Octave 11 on, as its cumprod); a logical one is a running AND
%! for alg = gpuscan_info ().algorithms   # (clear all above removed test_algorithms)
%!   a = {"algorithm", alg{1}};
%!   assert (gpuscan (uint16 ([300 300]), "prod", "native", a{:}), uint16 ([300 65535]));
%!   ## a signed product saturated at the top, times -1, is intmin + 1, as Octave's loop
%!   assert (gpuscan (int8 ([100 2 -1 -1 3 0 5]), "prod", "native", a{:}),
%!           int8 ([100 127 -127 127 127 0 0]));
%!   for c = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
%!     x = cast (randi ([-3 3], 40, 3), c{1});
%!     ref = x;
%!     for k = 2:rows (x)
%!       ref(k, :) = ref(k - 1, :) .* x(k, :);
%!     endfor
%!     assert (gpuscan (x, "prod", "native", a{:}), ref);
%!     assert (gpuscan (x', 2, "prod", "native", a{:}), ref');
%!     assert (gpuscan (x, "prod", "native", "exclusive", a{:}), [ones(1, 3, c{1}); ref(1:end-1, :)]);
%!     assert (class (gpuscan (x, "prod", a{:})), class (cumprod (x)));
%!     ## products far past the range, whose exact values outgrow 128 bits
%!     m = [intmax(c{1}) intmin(c{1})];
%!     assert (gpuscan ([m(1) m(1) m(2)], "prod", "native", a{:}), [m(1) m(1) m(2)]);
%!     assert (gpuscan ([m(2) m(2) 1], "prod", "native", a{:}), [m(2) m(2)*m(2) m(2)*m(2)]);
%!     if (compare_versions (OCTAVE_VERSION, "11", ">="))
%!       assert (gpuscan (x, "prod", a{:}), cumprod (x));
%!       assert (gpuscan (x, a{:}), cumsum (x));
%!     endif
%!   endfor
%!   x = int16 ([3 -2 7; 9 9 -1]);
%!   assert (gpuscan (x, 2, "prod", "native", "reverse", "segments", [true false true], a{:}),
%!           int16 ([-6 -2 7; 81 9 -1]));
%!   assert (gpuscan ([true true false true], "prod", "native", a{:}), [true true false false]);
%! endfor

%!test
%! ## sparse X: this Octave's own cumsum, cumprod, cummax and cummin, a sparse result
%! s = sparse ([1 0 2; 0 3 0; NaN 0 1]);
%! assert (gpuscan (s), cumsum (s));
%! assert (issparse (gpuscan (s, 2)) && isequaln (gpuscan (s, 2), cumsum (s, 2)));
%! assert (isequaln (gpuscan (s, "prod"), cumprod (s)));
%! assert (gpuscan (sparse ([1, 2i; 3, 4]), 3, "prod"), cumprod (sparse ([1, 2i; 3, 4]), 3));
%! if (compare_versions (OCTAVE_VERSION, "11", ">="))
%!   assert (gpuscan (s, "omitnan"), cumsum (s, "omitnan"));
%! endif

%!test
%! ## handles to the package's functions, in feval, cellfun and arrayfun, also after
%! ## clear all and clear functions
%! for c = {"", "clear all", "clear functions"}
%!   eval (c{1});
%!   assert (feval (@gpuscan, [1 2 3]), [1 3 6]);
%!   assert (cellfun (@gpuscan, {[1 2], [3 4]}, "UniformOutput", false), {[1 3], [3 7]});
%!   assert (arrayfun (@gather, [1 2 3]), [1 2 3]);
%!   assert (cellfun (@gather, {1, "a"}, "UniformOutput", false), {1, "a"});
%!   assert (feval (@gpuscan_compact, [1 2 3], [true false true]), [1 3]);
%!   assert (cellfun (@classUnderlying, {1, int8(2)}, "UniformOutput", false), {"double", "int8"});
%!   assert (arrayfun (@existsOnGPU, [1 2]), [false false]);
%!   if (! isempty (gpuscan_info ().device_arrays))
%!     g = @gpuscan_array;
%!     assert (feval (@gather, g ([1 2])), [1 2]);
%!     assert (cellfun (@(d) existsOnGPU (d), {g(1)}));
%!   endif
%! endfor

%!error <option "reproducible" does not apply to algorithm "cub"> gpuscan (1:3, "reproducible", "algorithm", "cub")

%!test
%! ## "reproducible": the same bits from every call, and the values of the scan without
%! ## it (on the CPU engine its very bits); on the GPU the ordered look-back of the tiles,
%! ## the wide tiles (2^21 and more), the striped ones (singles), lane tiles, segments
%! x = rand (2^21 + 3, 1) - 0.5;
%! assert (isequal (gpuscan (x, "reproducible", "algorithm", "cpu"), gpuscan (x, "algorithm", "cpu")));
%! m = single (rand (300, 2000) - 0.5);
%! f = rand (size (x)) < 1e-4;
%! ## {x, dim or none, operator, options}
%! cases = {{x, {}, "sum", {}}, {single(x), {}, "sum", {"reverse"}}, {x, {}, "sum", {"exclusive"}}, ...
%!          {x, {}, "sum", {"segments", f}}, {m, {2}, "sum", {}}, {m(:, 1:400), {1}, "sum", {}}, ...
%!          {complex(x, -x), {}, "sum", {}}, {1 + x(1:2^18) / 2^18, {}, "prod", {}}, {x, {}, "max", {}}};
%! for alg = gpuscan_info ().algorithms   # (clear all above removed test_algorithms)
%!   if (strcmp (alg{1}, "cub"))
%!     continue;
%!   endif
%!   for c = 1:numel (cases)
%!     [xc, dim, op, opts] = cases{c}{:};
%!     y = gpuscan (xc, dim{:}, op, opts{:}, "reproducible", "algorithm", alg{1});
%!     for rep = 1:2
%!       assert (isequal (gpuscan (xc, dim{:}, op, opts{:}, "reproducible", "algorithm", alg{1}), y),
%!               "%s case %d repeat %d", alg{1}, c, rep);
%!     endfor
%!     ## (a tile's sum left out or taken twice would be off by far more)
%!     ref = double (gpuscan (xc, dim{:}, op, opts{:}, "algorithm", "cpu"));
%!     bound = 16 * eps (class (y)) * sum (abs (double (xc(:))));
%!     if (strcmp (op, "prod"))
%!       bound *= max (abs (ref(:)));
%!     endif
%!     assert (max (abs (double (y(:)) - ref(:))) <= bound, "%s case %d", alg{1}, c);
%!   endfor
%! endfor

%!test
%! ## "and", "or", "xor": cumulative all, any and parity of logical (X)
%! x = logical ([1 1 0 1 0 1]);
%! assert (gpuscan (x, "and"), logical ([1 1 0 0 0 0]));
%! assert (gpuscan (x, "or"), true (1, 6));
%! assert (gpuscan (x, "xor"), logical ([1 0 0 1 1 0]));
%! assert (gpuscan (x, "and", "exclusive"), logical ([1 1 1 0 0 0]));
%! assert (gpuscan (x, "xor", "reverse"), logical ([0 1 0 0 1 1]));
%! assert (gpuscan ([0 2; -1 0], "or"), logical ([0 1; 1 1]));
%! assert (gpuscan (int8 ([3 0 5 5]), "and", "segments", logical ([1 0 1 0])), logical ([1 0 1 1]));
%! assert (gpuscan (x, "xor", "keys", [1 1 1 2 2 2]), logical ([1 0 0 1 1 0]));
%! assert (gpuscan (x, "or", "groups", [2 1 2 1 2 1]), logical ([1 1 1 1 1 1]));
%! assert (gpuscan (logical ([0 0 1 0]), "or", "groups", [1 2 1 2]), logical ([0 0 1 0]));
%!error <gpuscan: X holds NaN> gpuscan ([1 NaN], "and")
%!error <takes logical or real X> gpuscan ([1i 2], "or")
%!error <needs "max" or "min", not "or"> [y, iy] = gpuscan (true (1, 3), "or")

%!test
%! ## "bitand", "bitor", "bitxor" on unsigned integers, in their class
%! u = uint8 ([255 15 7 12]);
%! assert (gpuscan (u, "bitand"), uint8 ([255 15 7 4]));
%! assert (gpuscan (u, "bitor"), uint8 ([255 255 255 255]));
%! assert (gpuscan (u, "bitxor"), uint8 ([255 240 247 251]));
%! assert (gpuscan (u, "bitand", "exclusive"), uint8 ([255 255 15 7]));
%! assert (gpuscan (u, "bitor", "exclusive"), uint8 ([0 255 255 255]));
%! v = [bitshift(uint64(1), 63) + 5, bitshift(uint64(1), 62) + 7, uint64(3)];
%! assert (gpuscan (v, "bitxor"), [v(1), bitxor(v(1), v(2)), bitxor(bitxor(v(1), v(2)), v(3))]);
%! assert (gpuscan (v, "bitor", "reverse"), [bitor(bitor(v(1), v(2)), v(3)), bitor(v(2), v(3)), v(3)]);
%! ## a long line through the threads: the last element is the parity of each bit
%! w = uint16 (mod ((1:2^20 + 5)' * 40503, 65536));
%! ref = uint16 (0);
%! for b = 1:16
%!   ref = bitset (ref, b, mod (sum (bitget (w, b)), 2));
%! endfor
%! assert (gpuscan (w, "bitxor")(end), ref);
%! assert (gpuscan (w, "bitxor", "reverse")(1), ref);
%!error <takes unsigned integers .uint8, uint16, uint32, uint64., got int8> gpuscan (int8 (1), "bitand")
%!error <takes unsigned integers> gpuscan (1.5, "bitor")

%!test
%! ## "logsumexp": log (cumsum (exp (x))) without its overflow and underflow
%! x = [1 2 3 -Inf 4];
%! assert (gpuscan (x, "logsumexp"), log (cumsum (exp (x))), 1e-14);
%! big = [1000 1000 999];
%! assert (gpuscan (big, "logsumexp"), 1000 + log (cumsum (exp (big - 1000))), 1e-12);
%! small = -[1000 1000 1001];
%! assert (gpuscan (small, "logsumexp"), -1000 + log (cumsum (exp (small + 1000))), 1e-12);
%! assert (gpuscan ([-Inf -Inf], "logsumexp"), [-Inf -Inf]);
%! assert (gpuscan ([1 Inf 2], "logsumexp"), [1 Inf Inf]);
%! assert (isnan (gpuscan ([1 NaN 2], "logsumexp")), logical ([0 1 1]));
%! assert (gpuscan ([1 2], "logsumexp", "exclusive"), [-Inf 1]);
%! assert (class (gpuscan (single ([1 2]), "logsumexp")), "single");
%! assert (gpuscan (int8 ([1 2]), "logsumexp"), log (cumsum (exp ([1 2]))), 1e-14);
%! ## long lines through the threads: within the stated bound
%! x = 40 * rand (2^20 + 3, 1) - 20;
%! y = gpuscan (x, "logsumexp");
%! assert (all (abs (y - log (cumsum (exp (x)))) <= 2 * (1:numel (x))' * eps .* (abs (y) + 1)));
%! assert (gpuscan (x, "logsumexp", "reverse")(1), y(end), 1e-9);
%!test
%! ## "recurrence": filter for a constant A, a loop for A per element, every option
%! x = randn (3000, 3);
%! for alg = gpuscan_info ().algorithms
%!   assert (gpuscan (x, "recurrence", 0.9, "algorithm", alg{1}), filter (1, [1 -0.9], x), 1e-12);
%! endfor
%! a = rand (3000, 3);
%! r = zeros (size (x)); p = zeros (1, 3);
%! for k = 1:3000
%!   p = a(k,:) .* p + x(k,:);
%!   r(k,:) = p;
%! endfor
%! assert (gpuscan (x, "recurrence", a), r, 1e-12);
%! assert (gpuscan (x.', 2, "recurrence", a.'), r.', 1e-12);
%! assert (gpuscan (x, "recurrence", a, "reverse"), flipud (gpuscan (flipud (x), "recurrence", flipud (a))), 1e-12);
%! assert (gpuscan (x, "recurrence", 0.5, "exclusive"), [zeros(1, 3); filter(1, [1 -0.5], x(1:end-1,:))], 1e-12);
%! assert (gpuscan (x, "recurrence", 0.5, "initial", 2), filter (1, [1 -0.5], x, [1 1 1]), 1e-12);
%! assert (gpuscan (x, "recurrence", 0.5, "initial", 2, "exclusive")(1,:), [2 2 2]);
%! s = false (3000, 1); s([1 700 701 2999]) = true;
%! y = gpuscan (x, "recurrence", 0.5, "segments", s);
%! assert (y(701:2998,:), filter (1, [1 -0.5], x(701:2998,:)), 1e-12);
%! assert (y(700,:), x(700,:));
%! assert (gpuscan (x, "recurrence", 0.5, "keys", cumsum (s)), y);
%! z = complex (randn (50, 1), randn (50, 1));
%! assert (gpuscan (z, "recurrence", 0.5i), filter (1, [1 -0.5i], z), 1e-12);
%! ## a real A with a complex X (A in the complex class), scalar and per element
%! assert (gpuscan (z, "recurrence", 0.5), filter (1, [1 -0.5], z), 1e-12);
%! assert (gpuscan (z, "recurrence", 0.5 * ones (size (z))), filter (1, [1 -0.5], z), 1e-12);
%! assert (gpuscan (single (z), "recurrence", single (0.9), "reverse"),
%!         flipud (filter (1, [1 -0.9], flipud (single (z)))), 1e-5);
%! assert (class (gpuscan (single (x), "recurrence", 0.5)), "single");
%! assert (class (gpuscan (x, "recurrence", single (0.5))), "single");
%! assert (gpuscan (int8 ([1 2 3]), "recurrence", 1), [1 3 6]);
%! assert (size (gpuscan (zeros (0, 3), "recurrence", 2)), [0 3]);
%!test
%! ## Inf and NaN in A, as the loop gives them: a NaN A at a segment's start (not
%! ## multiplied by y0 = 0, times y0 = 2), an Inf A after one, whose Inf the line's blocks
%! ## (16384 doubles) carry on; forward and reverse, on every algorithm
%! n = 2^15 + 7;
%! x = ones (n, 1); a = ones (n, 1);
%! s = false (n, 1); s([10000 20000]) = true;
%! a([1 12000]) = [NaN Inf];
%! from0 = [(1:9999)'; (1:2000)'; Inf(8000, 1); (1:n-19999)'];
%! from2 = [NaN(9999, 1); (3:2002)'; Inf(8000, 1); (3:n-19997)'];
%! sr = false (n, 1); sr([n-9998, n-19998]) = true;   # the same segments, reversed
%! for alg = gpuscan_info ().algorithms
%!   o = {"recurrence", a, "segments", s, "algorithm", alg{1}};
%!   assert (gpuscan (x, o{:}), from0);
%!   assert (gpuscan (x, o{:}, "initial", 2), from2);
%!   o = {"recurrence", flipud(a), "segments", sr, "reverse", "algorithm", alg{1}};
%!   assert (gpuscan (x, o{:}), flipud (from0));
%!   assert (gpuscan (x, o{:}, "initial", 2), flipud (from2));
%!   ## from y0 = 0, y(1) = x(1) whatever a(1) is, as filter
%!   assert (gpuscan ([1 2 3], "recurrence", [Inf 1 1], "algorithm", alg{1}), [1 3 6]);
%!   assert (gpuscan ([1 2 3], "recurrence", [NaN 1 1], "exclusive", "algorithm", alg{1}), [0 1 3]);
%!   assert (gpuscan ([0 2 3], "recurrence", [1 Inf 1], "algorithm", alg{1}), [0 2 5]);
%! endfor
%!test
%! ## a long line in blocks (of 16384 doubles), segments within and across them,
%! ## forward and reverse: as the loop
%! n = 2^15 + 7;   # (past two block boundaries)
%! x = randn (n, 1); a = 0.5 + 0.5 * rand (n, 1);
%! s = rand (n, 1) < 3e-4;
%! for rev = [false true]
%!   xs = x; as = a; ss = s;
%!   if (rev)
%!     xs = flipud (x); as = flipud (a); ss = circshift (flipud (s), 1);  # a reverse segment starts after a head
%!   endif
%!   r = zeros (n, 1); p = 0;
%!   for k = 1:n
%!     if (ss(k)) p = 0; endif
%!     p = as(k) * p + xs(k);
%!     r(k) = p;
%!   endfor
%!   if (rev) r = flipud (r); endif
%!   opts = {"recurrence", a, "segments", s};
%!   if (rev) opts{end+1} = "reverse"; endif
%!   assert (gpuscan (x, opts{:}), r, 1e-9);
%! endfor
%!error <takes A of one element or the size of X> gpuscan (1:3, "recurrence", [1 2])
%!error <"recurrence" takes no "native"> gpuscan (1:3, "recurrence", 1, "native")
%!error <"recurrence" takes no "omitnan"> gpuscan (1:3, "recurrence", 1, "omitnan")
%!error <option "initial" takes "recurrence"> gpuscan (1:3, "initial", 1)
%!error <"initial" takes a numeric scalar> gpuscan (1:3, "recurrence", 1, "initial", [1 2])
%!error <takes a full numeric A> gpuscan (1:3, "recurrence", "a")
%!error <operators "sum" and "recurrence" conflict> gpuscan (1:3, "sum", "recurrence", 1)
%!error <index output IY needs "max" or "min", not "recurrence"> [y, i] = gpuscan (1:3, "recurrence", 1)
%!error <takes real X, got complex double> gpuscan (1i, "logsumexp")
%!error <"omitnan" applies to sum, prod, max and min, not to "logsumexp"> gpuscan (1, "logsumexp", "omitnan")
%!error id=gpuscan:option gpuscan (1:3, 1, 2)
%!error id=gpuscan:missing_value gpuscan (1:3, "segments")
%!error id=gpuscan:missing_value gpuscan (1:3, "algorithm")
%!error id=gpuscan:algorithm gpuscan (1:3, "algorithm", "quantum")
%!error id=gpuscan:algorithm gpuscan (1:3, "algorithm", 3)
%!error id=gpuscan:conflict gpuscan (1:3, "inclusive", "exclusive")
%!error id=gpuscan:conflict gpuscan (1:3, "forward", "reverse")
%!error id=gpuscan:conflict gpuscan (1:3, "sum", "max")
%!error id=gpuscan:conflict gpuscan (1:3, "native", "double")
%!error id=gpuscan:conflict gpuscan (1:3, "max", "native")
%!error id=gpuscan:segments gpuscan (1:3, "segments", [1 0])
%!error id=gpuscan:segments gpuscan (ones (3), "segments", ones (2))
%!error id=gpuscan:segments gpuscan (1:3, "segments", [1 NaN 0])
%!error id=gpuscan:segments gpuscan (1:3, "segments", "abc")
%!error id=gpuscan:segments gpuscan (1:3, "segments", {1, 0, 0})
%!error id=gpuscan:segments gpuscan (1:3, "segments", [1 1i 0])
%!error id=gpuscan:index [y, i] = gpuscan (1:3)
%!error id=gpuscan:index [y, i] = gpuscan (1:3, "prod")
%!error id=gpuscan:nargout [y, i, j] = gpuscan (1:3, "max")
## ---- regressions: each of these once gave a wrong value, hung or crashed ------------
%!test
%! ## an exclusive sum of no elements is +0 (Octave's sum ([])), at every segment start
%! y = gpuscan ([3 4], "exclusive");
%! assert (1 ./ y(1), Inf);
%! y = gpuscan (single ([-0 -0 2 3]), "exclusive", "segments", [1 0 1 0]);
%! assert (1 ./ y, single ([Inf Inf Inf 0.5]));
%! y = gpuscan (complex ([-0 1], -0), "exclusive");
%! assert (1 ./ real (y(1)), Inf);
%! assert (1 ./ imag (y(1)), Inf);
%! ## an inclusive sum of -0 stays -0, as cumsum's
%! assert (1 ./ gpuscan (-0), -Inf);

%!test
%! ## DIM: any positive integer, as cumsum; beyond ndims every line has one element
%! x = [1 2; 3 4];
%! assert (gpuscan (x, 2^40), cumsum (x, 2^40));
%! assert (gpuscan (x, realmax), x);
%! assert (gpuscan (x, 3, "max"), x);

%!test
%! ## complex cummax / cummin with a NaN part: abs (Inf + NaNi) is Inf, the largest
%! for x = {[2, complex(Inf, NaN), 3], [complex(Inf, NaN), 2, 3], ...
%!          [complex(NaN, NaN), complex(Inf, NaN), 3], [1, complex(NaN, 1), complex(Inf, 0)]}
%!   [m, i] = gpuscan (x{1}, "max");
%!   [rm, ri] = cummax (x{1});
%!   assert (isequaln (m, rm) && isequal (i, ri));
%!   [m, i] = gpuscan (x{1}, "min");
%!   [rm, ri] = cummin (x{1});
%!   assert (isequaln (m, rm) && isequal (i, ri));
%! endfor

%!test
%! ## complex products start from the first element itself, as cumprod (Annex G makes
%! ## (1 + 0i) * (Inf + 0i) Inf + NaNi)
%! for a = gpuscan_info ().algorithms
%!   y = gpuscan (complex ([Inf 2 3], 0), "prod", "algorithm", a{1});
%!   assert ([real(y(1)), imag(y(1))], [Inf 0]);
%!   y = gpuscan (complex ([2 Inf 3], 0), "prod", "segments", [1 1 0], "algorithm", a{1});
%!   assert (real (y(2)), Inf);
%!   assert (imag (y(2)), 0);
%! endfor

%!test
%! ## empty input on every algorithm (once an endless floating point exception on the GPU)
%! for a = gpuscan_info ().algorithms
%!   assert (gpuscan ([], "algorithm", a{1}), []);
%!   assert (size (gpuscan (zeros (0, 3), "algorithm", a{1})), [0 3]);
%!   assert (size (gpuscan (zeros (1, 1, 0), "max", "algorithm", a{1})), [1 1 0]);
%!   assert (size (gpuscan (zeros (3, 0), 2, "exclusive", "algorithm", a{1})), [3 0]);
%! endfor

%!test
%! ## GPUSCAN_CHUNK_ELEMENTS: tiny or unparsable values are raised or refused, never a crash
%! old = getenv ("GPUSCAN_CHUNK_ELEMENTS");
%! unwind_protect
%!   x = reshape (1:63, 7, 9);
%!   for v = {"1", "2", "3", "1e3", "7"}
%!     setenv ("GPUSCAN_CHUNK_ELEMENTS", v{1});
%!     for a = gpuscan_info ().algorithms
%!       assert (gpuscan (x, 2, "algorithm", a{1}), cumsum (x, 2));
%!       assert (gpuscan (x, 1, "exclusive", "reverse", "algorithm", a{1}),
%!               flipud ([zeros(1, 9); cumsum(flipud (x)(1:end-1, :))]));
%!     endfor
%!   endfor
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", "abc");
%!   lastwarn ("");
%!   assert (gpuscan (x, 2, "algorithm", "cpu"), cumsum (x, 2));   # (warns)
%!   [~, id] = lastwarn ();
%!   assert (id, "gpuscan:chunk_elements");
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CHUNK_ELEMENTS", old);
%! end_unwind_protect

%!test
%! ## GPUSCAN_ALGORITHM replaces "auto"; an unknown name is an error that says which exist
%! old = getenv ("GPUSCAN_ALGORITHM");
%! unwind_protect
%!   setenv ("GPUSCAN_ALGORITHM", "cpu");
%!   assert (gpuscan (1:5), cumsum (1:5));
%!   setenv ("GPUSCAN_ALGORITHM", "quantum");
%!   fail ("gpuscan (1:5)", "GPUSCAN_ALGORITHM.*known: auto, cpu");
%!   assert (gpuscan (1:5, "algorithm", "cpu"), cumsum (1:5));   # (named: unchanged)
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_ALGORITHM", old);
%! end_unwind_protect

%!test
%! ## the CPU engine's long lines: every element written whatever team OpenMP starts (a
%! ## short team once left whole pieces 0); its blocks do not depend on the thread count,
%! ## so threads that do not come change no bit
%! x = (1:40000)';
%! assert (gpuscan (x, "algorithm", "cpu"), cumsum (x));
%! r = rand (3 * 16384 + 7, 2);
%! y = gpuscan (r, "algorithm", "cpu");
%! assert (y, cumsum (r), 1e-12 * sum (r(:)));
%! [m, i] = gpuscan (r, "max", "reverse", "algorithm", "cpu");
%! [rm, ri] = cummax (flipud (r));
%! assert (m, flipud (rm));
%! assert (i, rows (r) + 1 - flipud (ri));
%! v = int8 (r > 0.5) * 3;
%! if (compare_versions (OCTAVE_VERSION, "11", ">="))
%!   assert (gpuscan (v, "native", "algorithm", "cpu"), cumsum (v));
%! else
%!   assert (gpuscan (v, "native", "algorithm", "cpu"), cumsum (v, "native"));
%! endif

%!test
%! ## MATLAB's NaN flags: "omitnan" counts a NaN as 0 or 1, "includenan" lets the first
%! ## NaN win; the other two combinations are the defaults; no effect on integers
%! x = [1 NaN 2 NaN -Inf Inf 3];
%! assert (gpuscan (x, "omitnan"), [1 1 3 3 -Inf NaN NaN]);
%! assert (gpuscan (x, "prod", "omitnan"), [1 1 2 2 -Inf -Inf -Inf]);
%! assert (gpuscan (x, "includenan"), cumsum (x));
%! assert (gpuscan ([NaN NaN], "omitnan"), [0 0]);
%! assert (signbit (gpuscan ([-0 NaN], "omitnan")), [true false]);   # -0 + 0 is +0
%! assert (gpuscan (single ([NaN 2 1]), "omitnan", "exclusive"), single ([0 0 2]));
%! assert (gpuscan ([NaN 1+2i 3], "omitnan"), [0 1+2i 4+2i]);
%! [m, i] = gpuscan ([3 1 NaN 5 NaN], "max", "includenan");
%! assert (m, [3 3 NaN NaN NaN]);
%! assert (i, [1 1 3 3 3]);
%! [m, i] = gpuscan ([3 1 NaN 5 NaN], "min", "includenan", "reverse");
%! assert (i, [5 5 5 5 5]);
%! [m, i] = gpuscan ([3 1 NaN 5 NaN], "max", "omitnan");
%! [rm, ri] = cummax ([3 1 NaN 5 NaN]);
%! assert ({m, i}, {rm, ri});
%! assert (gpuscan (int8 ([1 2 3]), "omitnan"), cumsum (int8 ([1 2 3])));
%! ## long lines, segments and dim 2 through the blocks of the CPU engine
%! r = randn (3e5, 2);
%! r(rand (size (r)) < 0.01) = NaN;
%! z = r;
%! z(isnan (z)) = 0;
%! assert (gpuscan (r, "omitnan", "algorithm", "cpu"), cumsum (z), 1e-9 * sum (abs (z(:))));
%! assert (gpuscan (r.', 2, "omitnan"), cumsum (z.', 2), 1e-9 * sum (abs (z(:))));
%! [m, i] = gpuscan (r, "max", "includenan");
%! p = find (isnan (r(:, 1)), 1);
%! assert (all (isnan (m(p:end, 1))) && all (i(p:end, 1) == p));
%! [rm, ri] = cummax (r(1:p-1, 1));
%! assert ({m(1:p-1, 1), i(1:p-1, 1)}, {rm, ri});
%!error <options "omitnan" and "includenan" conflict> gpuscan (1:3, "omitnan", "includenan")

%!test
%! ## "keys": segments wherever the keys change along DIM, in the keys' own class
%! x = 1:8;
%! assert (gpuscan (x, "keys", [1 1 2 2 2 1 1 3]), [1 3 3 7 12 6 13 8]);
%! assert (gpuscan (x, "keys", 'aabbbccd'), [1 3 3 7 12 6 13 8]);
%! assert (gpuscan (x, "keys", int64 (2^53) + int64 ([0 0 1 1 1 0 0 2])), [1 3 3 7 12 6 13 8]);
%! assert (gpuscan (x, "keys", [NaN NaN 1 1 1 1 1 1]), [1 2 3 7 12 18 25 33]);
%! m = magic (4);
%! assert (gpuscan (m, 2, "keys", [1 1 2 2]), gpuscan (m, 2, "segments", [1 0 1 0]));
%! g = [1 1 2 2; 1 2 2 2; 3 3 3 3; 3 3 3 3];
%! [y, i] = gpuscan (m, "max", "reverse", "keys", g);
%! [ry, ri] = gpuscan (m, "max", "reverse", "segments", [1 1 1 1; 0 1 0 0; 1 1 1 1; 0 0 0 0]);
%! assert ({y, i}, {ry, ri});
%! r = randn (1e5, 1);
%! k = cumsum (rand (1e5, 1) < 0.001);
%! ## (within rounding: "auto" may time the two calls on different engines)
%! assert (gpuscan (r, "keys", k, "exclusive"), gpuscan (r, "segments", [1; diff(k)], "exclusive"),
%!         1e-12 * sum (abs (r)));
%!error <KEYS must be a full numeric, logical or char array> gpuscan (1:3, "keys", {1, 2, 3})
%!error <KEYS must be the size of X> gpuscan (1:8, "keys", 1:3)
%!error <"segments", "keys" and "groups" conflict> gpuscan (1:3, "keys", 1:3, "segments", [1 0 0])

%!test
%! ## "groups": each label's running scan in the original order, on every algorithm
%! x = [10 20 30 40 50 60];
%! g = [2 1 2 3 1 2];
%! assert (gpuscan (x, "groups", g), [10 20 40 40 70 100]);
%! [m, i] = gpuscan ([5 1 7 2 3 9], "max", "groups", g, "reverse", "exclusive");
%! assert (m, [9 3 9 -Inf -Inf -Inf]);
%! assert (i, [6 5 6 0 0 0]);
%! assert (gpuscan (magic (4), "groups", 'abab'), [16 2 3 13; 5 11 10 8; 25 9 9 25; 9 25 25 9]);
%! ## a ledger: random labels, every operator against a loop over the groups
%! n = 5000;
%! lab = randi (40, n, 1);
%! lab(1:97:end) = NaN;   # each NaN a group of its own
%! v = randn (n, 3);
%! for a = gpuscan_info ().algorithms
%!   for op = {"sum", "max"}
%!     [y, iy] = deal (zeros (n, 3));
%!     if (strcmp (op{1}, "max"))
%!       [y, iy] = gpuscan (v, "max", "groups", lab, "algorithm", a{1});
%!     else
%!       y = gpuscan (v, "groups", lab, "algorithm", a{1});
%!     endif
%!     [ry, riy] = deal (zeros (n, 3));
%!     u = unique (lab(! isnan (lab)));
%!     sets = [num2cell(u); num2cell(find (isnan (lab)))];
%!     for s = 1:numel (sets)
%!       if (s <= numel (u))
%!         at = find (lab == sets{s});
%!       else
%!         at = sets{s};
%!       endif
%!       if (strcmp (op{1}, "max"))
%!         [ry(at, :), k] = cummax (v(at, :), 1);
%!         riy(at, :) = at(k);
%!       else
%!         ry(at, :) = cumsum (v(at, :), 1);
%!       endif
%!     endfor
%!     assert (y, ry, 1e-12 * sum (abs (v(:))));
%!     if (strcmp (op{1}, "max"))
%!       assert (iy, riy);
%!     endif
%!   endfor
%! endfor
%!test
%! ## labels that are whole numbers of a narrow range are counted into order, others
%! ## sorted: the same order, so the same bits (+0.5 makes the same groups sorted)
%! n = 3000;
%! x = randn (n, 2);
%! labels = {randi(40, n, 1), int8(randi([-5 5], n, 1)), single(randi(7, n, 1)), ...
%!           uint64(2^40 + randi(3, n, 1)), randi([-3 3], n, 1) * 1e6, rand(n, 1) > 0.5};
%! for k = 1:numel (labels)
%!   g = labels{k};
%!   sorted = double (g) + 0.5;
%!   assert (isequal (gpuscan (x, "groups", g), gpuscan (x, "groups", sorted)));
%!   [m, i] = gpuscan (x, "max", "groups", g, "reverse");
%!   [ms, is] = gpuscan (x, "max", "groups", sorted, "reverse");
%!   assert (isequal (m, ms) && isequal (i, is));
%! endfor
%! ## -0 and 0 label one group; the extremes of int64 (a range too wide to count)
%! assert (gpuscan ([1 2 3 4], "groups", [0 -0 1 0]), [1 3 3 7]);
%! ## whole labels of a narrow range, host arrays: one pass, a running value a label in
%! ## order, so each group's bits are cumsum's, cumprod's, cummax's (any label class,
%! ## either direction, several columns, the CPU engine's threads or not; under "auto"
%! ## where the plan keeps the CPU engine)
%! n = 5000;
%! x = randn (n, 3);
%! x(7:41:end) = NaN;
%! old = getenv ("GPUSCAN_CPU_PARALLEL_MIN");
%! unwind_protect
%!   for lab = {randi(60, n, 1), int16(randi([-9 9], n, 1)), single(randi(3, n, 1)), randi(2, n, 1) > 1}
%!     g = lab{1};
%!     for fn = {@cumsum, @cumprod, @cummax, @cummin}
%!       op = {"sum", "prod", "max", "min"}{find (cellfun (@(f) isequal (f, fn{1}), {@cumsum, @cumprod, @cummax, @cummin}))};
%!       r = x;
%!       rr = x;
%!       for l = unique (g)'
%!         r(g == l, :) = fn{1} (x(g == l, :));
%!         rr(g == l, :) = flipud (fn{1} (flipud (x(g == l, :))));
%!       endfor
%!       for threads = {"1", "1e12"}
%!         setenv ("GPUSCAN_CPU_PARALLEL_MIN", threads{1});
%!         assert (isequaln (gpuscan (x, op, "groups", g, "algorithm", "cpu"), r));
%!         assert (isequaln (gpuscan (x, op, "groups", g, "reverse", "algorithm", "cpu"), rr));
%!         if (any (strcmp (op, {"max", "min"})))
%!           assert (isequaln (gpuscan (single (x), op, "groups", g, "algorithm", "cpu"), single (r)));
%!         endif
%!       endfor
%!     endfor
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", old);
%! end_unwind_protect
%! wide = int64 ([intmin("int64"), intmax("int64"), intmin("int64"), 0]);
%! assert (gpuscan ([1 2 3 4], "groups", wide), [1 2 4 4]);
%! assert (gpuscan ([1 2 3 4], "groups", [Inf 1 Inf 1]), [1 2 4 6]);
%!error <GROUPS must be a vector of length size .X, DIM. = 3> gpuscan (1:3, "groups", [1 2])
%!error <GROUPS must be a full numeric, logical or char vector> gpuscan (1:3, "groups", {1, 2, 3})
%!error <"segments", "keys" and "groups" conflict> gpuscan (1:3, "groups", 1:3, "keys", 1:3)

%!function [hi, lo] = exact_prefix (x)
%!  ## prefix sums as double-doubles (TwoSum), the reference of "accurate"
%!  hi = lo = zeros (size (x));
%!  s = e = 0;
%!  for k = 1:numel (x)
%!    t = s + x(k);
%!    b = t - s;
%!    e += (s - (t - b)) + (x(k) - b);
%!    s = t + e;
%!    e -= s - t;
%!    hi(k) = s;
%!    lo(k) = e;
%!  endfor
%!endfunction

%!test
%! ## "accurate": every prefix within one ulp of the exact sum, on nasty data, one
%! ## thread and the blocks of several
%! n = 20000;
%! alternating = [1e15; 0.1; -1e15; 0.3](mod (0:n-1, 4)' + 1) .* (1 + rand (n, 1));
%! tiny = [1; 1e-17 * (1 + rand(n - 1, 1))];
%! mixed = randn (n, 1) .* 10 .^ randi ([-20 20], n, 1);
%! nasty = {alternating, tiny, rand(n, 1), mixed};
%! old = getenv ("GPUSCAN_CPU_PARALLEL_MIN");
%! unwind_protect
%!   for c = 1:numel (nasty)
%!     x = nasty{c};
%!     [hi, lo] = exact_prefix (x);
%!     [hs, ls] = exact_prefix (double (single (x)));
%!     [hr, lr] = exact_prefix (flipud (x));
%!     for threads = {"", "1"}
%!       setenv ("GPUSCAN_CPU_PARALLEL_MIN", threads{1});
%!       y = gpuscan (x, "accurate");
%!       assert (all (abs (y - (hi + lo)) <= eps (hi + lo)), sprintf ("data %d", c));
%!       ys = gpuscan (single (x), "accurate");
%!       assert (all (abs (double (ys) - (hs + ls)) <= eps (single (hs + ls))), sprintf ("single data %d", c));
%!       yr = gpuscan (x, "accurate", "reverse");
%!       assert (all (abs (flipud (yr) - (hr + lr)) <= eps (hr + lr)), sprintf ("reverse data %d", c));
%!     endfor
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", old);
%! end_unwind_protect
%! ## where the plain sum is off (the 1e15 data), the accurate one is not
%! x = nasty{1};
%! [hi, lo] = exact_prefix (x);
%! assert (max (abs (gpuscan (x) - (hi + lo))) > 1e-3);
%! ## signed zeros, Inf, NaN flags, complex, exclusive
%! assert (signbit (gpuscan ([-0 -0], "accurate")), [true true]);
%! assert (gpuscan ([1 Inf 2 -Inf], "accurate"), [1 Inf Inf NaN]);
%! assert (gpuscan ([1+2i NaN 3], "accurate", "omitnan"), [1+2i 1+2i 4+2i]);
%! assert (gpuscan ([1e16 1 -1e16 1], "accurate", "exclusive"), [0 1e16 1e16+1 1]);
%! assert (gpuscan (int16 ([1 2 3]), "accurate"), cumsum (int16 ([1 2 3])));
%!error <"accurate" applies to sums, not to "max"> gpuscan (1:3, "max", "accurate")

%!test
%! ## the CPU engine's floating sums: the same bits for 1 and 3 threads (fresh Octaves,
%! ## every size through the threads) as for this one's: blocks and groups are fixed by
%! ## the shape, never by the threads (lines of 5 and 16 blocks)
%! script = ["addpath ('%s'); v = sin ((1:5 * 2^14 + 5)') * 1e3; m = reshape (sin (1:64 * 2^12), 64, []);", ...
%!   "w = reshape (sin (1:1024 * 600), 1024, []); c = v + 1i * cos (v);", ...
%!   "y = {gpuscan(v, 'algorithm', 'cpu'), gpuscan(v, 'reverse', 'algorithm', 'cpu'),", ...
%!   "gpuscan(v, 'exclusive', 'algorithm', 'cpu'), gpuscan(single (v), 'algorithm', 'cpu'),", ...
%!   "gpuscan(m, 2, 'algorithm', 'cpu'), gpuscan(w, 2, 'algorithm', 'cpu'), gpuscan(c, 'algorithm', 'cpu')};"];
%! script = sprintf (script, fileparts (which ("gpuscan")));
%! eval (script);
%! octave = fullfile (OCTAVE_HOME (), "bin", "octave-cli");
%! for threads = [1 3]
%!   f = [tempname() ".mat"];
%!   unwind_protect
%!     cmd = sprintf ('OMP_NUM_THREADS=%d GPUSCAN_CPU_PARALLEL_MIN=1 "%s" --no-gui --norc --no-history --quiet --eval "%s save (''-binary'', ''%s'', ''y'');" 2>&1',
%!                    threads, octave, script, f);
%!     [status, out] = system (cmd);
%!     assert (status, 0, out);
%!     other = load (f);
%!     for i = 1:numel (y)
%!       assert (isequal (other.y{i}, y{i}), sprintf ("%d threads: result %d differs", threads, i));
%!     endfor
%!   unwind_protect_cleanup
%!     unlink (f);
%!   end_unwind_protect
%! endfor

%!test
%! ## after every error above, the next call works
%! try
%!   gpuscan ({1});
%! catch
%! end_try_catch
%! assert (gpuscan (1:3), [1 3 6]);

## ---- demos (demo gpuscan) -----------------------------------------------------------
%!demo
%! ## Cutting a loaf: piece lengths -> where each piece starts (an exclusive sum)
%! lengths = [3 1 4 1 5 9 2 6];
%! starts = gpuscan (lengths, "exclusive") + 1
%! ends = gpuscan (lengths)
%! ## piece k of the loaf is loaf(starts(k):ends(k))

%!demo
%! ## Stream compaction: keep the positive values, in order, through an exclusive
%! ## scan of the mask (each kept element learns its place in the output)
%! x = randn (1, 12)
%! keep = x > 0;
%! where = gpuscan (keep, "exclusive") + 1;   # output slot of every kept element
%! y = zeros (1, sum (keep));
%! y(where(keep)) = x(keep)
%! assert (y, x(keep))

%!demo
%! ## Running totals per group: sales of three shops in one vector, restarting at
%! ## every shop's first day (segments), and the total still to come (reverse)
%! shop  = [1 1 1 1 2 2 2 3 3 3 3 3];
%! sales = [5 3 0 7 2 2 9 1 1 4 0 6];
%! first_day = [true, diff(shop) != 0];
%! running = gpuscan (sales, "segments", first_day)
%! to_come = gpuscan (sales, "segments", first_day, "reverse", "exclusive")

%!demo
%! ## Record highs: running maximum of a random walk and the day each record was set
%! walk = cumsum (randn (1, 250));
%! [best, day] = gpuscan (walk, "max");
%! records = unique (day);
%! printf ("%d records; the last one, %.2f, on day %d\n", numel (records), best(end), day(end));
%! plot (1:250, walk, 1:250, best); legend ("walk", "running maximum");

%!demo
%! ## The algorithms side by side on 2^24 doubles (GPU ones only with a GPU)
%! x = randn (2^24, 1);
%! ref = cumsum (x);
%! t0 = tic (); cumsum (x); tc = toc (t0);
%! printf ("%-12s %9.2f ms\n", "cumsum", tc * 1e3);
%! for a = gpuscan_info ().algorithms
%!   gpuscan (x, "algorithm", a{1});      # warm-up
%!   t0 = tic (); y = gpuscan (x, "algorithm", a{1}); t = toc (t0);
%!   printf ("%-12s %9.2f ms  %5.1fx cumsum  max rel. diff %.1g\n", a{1}, t * 1e3, tc / t,
%!           max (abs (y - ref)) / max (abs (ref)));
%! endfor

%!demo
%! ## MATLAB's NaN flags: a rain gauge with gaps (NaN).  "omitnan" keeps the running
%! ## total going over the gaps; "includenan" makes the running maximum NaN from the
%! ## first gap on, so that a report cannot hide it
%! rain = [2 0 5 NaN 1 0 NaN 3];
%! total = gpuscan (rain, "omitnan")
%! wettest = gpuscan (rain, "max")                 # Octave's cummax: skips NaN
%! wettest_flagged = gpuscan (rain, "max", "includenan")

%!demo
%! ## A ledger: the balance of each customer after each transaction, in the log's
%! ## order ("groups" sorts nothing for you to undo), and the same for the first
%! ## overdraft: a running minimum per customer
%! customer = [7 3 7 7 3 9 3 9 7];
%! amount   = [50 20 -80 10 -5 100 -40 -30 25];
%! balance = gpuscan (amount, "groups", customer)
%! lowest  = gpuscan (balance, "min", "groups", customer)

%!demo
%! ## Logical scans: a server up every day so far ("and"), ever down ("or"), and
%! ## whether a switch pressed on the marked days is on ("xor")
%! up = logical ([1 1 1 0 1 1 0 1]);
%! up_so_far = gpuscan (up, "and")
%! ever_down = gpuscan (! up, "or")
%! pressed = logical ([1 0 0 1 1 0 0 1]);
%! switch_on = gpuscan (pressed, "xor")

%!demo
%! ## Log-space sums: the log-probability that one of the first k events happens, for
%! ## log-probabilities far below what exp can hold (each about exp (-800))
%! logp = -800 - rand (1, 6);
%! naive = log (cumsum (exp (logp)))               # exp underflows to 0: -Inf
%! lse = gpuscan (logp, "logsumexp")

%!demo
%! ## Linear recurrences: a loan whose interest rate changes every month,
%! ## balance(k) = (1 + rate(k)) * balance(k-1) + charge(k), and an exponential moving
%! ## average, ema(k) = (1 - alpha) * ema(k-1) + alpha * price(k), which is
%! ## filter (alpha, [1, alpha - 1], price)
%! rate = [0.010 0.010 0.012 0.012 0.015 0.015];
%! charge = [1000 -200 -200 -200 -200 -200];
%! balance = gpuscan (charge, "recurrence", 1 + rate)
%! price = 100 + cumsum (randn (1, 200));
%! alpha = 0.1;
%! ema = gpuscan (alpha * price, "recurrence", 1 - alpha, "initial", price(1));
%! printf ("largest difference from filter: %g\n",
%!         max (abs (ema - filter (alpha, [1, alpha - 1], price, (1 - alpha) * price(1)))));
%! plot (1:200, price, 1:200, ema); legend ("price", "moving average");

%!demo
%! ## "accurate": 1 followed by a million values near 1.5e-17.  Added to 1 one at a time,
%! ## each rounds away (cumsum stays at 1); gpuscan's blocks add the small values among
%! ## themselves first and come close; "accurate" carries what each addition rounds off
%! x = [1; 1e-17 * (1 + rand(1e6, 1))];
%! gain = sum (x(2:end));
%! c = cumsum (x);
%! plain = gpuscan (x);
%! acc = gpuscan (x, "accurate");
%! printf ("the small values' sum: %.4g\n", gain);
%! printf ("what each adds to 1:   cumsum %.4g, gpuscan %.4g, accurate %.4g\n",
%!         c(end) - 1, plain(end) - 1, acc(end) - 1);

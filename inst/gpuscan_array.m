## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {@var{d} =} gpuscan_array (@var{x})
## @deftypefnx {} {@var{x} =} gather (@var{d})
## @deftypefnx {} {[@var{y}, @var{iy}] =} gpuscan (@var{d}, @dots{})
## @deftypefnx {} {@var{y} =} gpuscan_compact (@var{d}, @var{mask})
## An array held in GPU memory: upload once, scan many times on the GPU, gather once.
##
## @code{gpuscan_array (@var{x})} copies the numeric or logical array @var{x} (real or
## complex, any class gpuscan takes) to the GPU; @code{gpuscan_array (@var{d})} copies a
## device array on the GPU.  @code{gather (@var{d})} copies it
## back.  @code{gpuscan (@var{d}, @dots{})} takes every option of the host call
## (@var{dim}, the operator, @qcode{"exclusive"}, @qcode{"reverse"},
## @qcode{"native"}/@qcode{"double"}, @qcode{"omitnan"}/@qcode{"includenan"},
## @qcode{"accurate"}, @qcode{"reproducible"}, @qcode{"segments"} given as a host array or a @code{gpuscan_array}, @qcode{"keys"}
## as a host array, @qcode{"algorithm"}) and returns device arrays, the values and,
## for max and min, the indices, without going through host memory (@qcode{"groups"}
## too: labels that are a device array are sorted on the device, but int64 and uint64
## ones, whose doubles could merge labels; host labels by Octave's @code{sort}; whole
## numbers spanning at most 1024 values, 2048 for single X, need no sort for sums,
## products and inclusive max and min, without the index), and
## @qcode{"recurrence"} (@var{a} and @var{y0} may be device arrays: they are read in
## host memory, and @var{a} copied to the GPU in the scan's class).  The results equal the host call's, class rules included
## (floating sums, products, log-space sums and recurrences within their stated bounds:
## the GPU groups their operations differently).  @code{cumsum}, @code{cumprod}, @code{cummax}
## and @code{cummin} of a device array are @code{gpuscan} on the GPU, with their
## @var{dim} and MATLAB's option names (@qcode{"reverse"}, @qcode{"omitnan"}; for
## @code{cumsum} @qcode{"native"} and @qcode{"double"}), so code written for host arrays
## runs on device arrays.  @code{gpuscan_compact} keeps the elements
## where a logical mask is true.
##
## A device array is a value of its own class, @qcode{"gpuscan_array"} (as
## @code{class} of MATLAB's @code{gpuArray} is @qcode{"gpuArray"}): @code{size},
## @code{numel}, @code{ndims}, @code{rows}, @code{columns}, @code{isempty},
## @code{isreal}, @code{isnumeric}, @code{isfloat}, @code{isinteger},
## @code{islogical}, @code{isa} and @code{classUnderlying} (the class of the
## elements) describe it without copying it; displaying it shows its shape, class and
## GPU.  A copy (@code{@var{c} = @var{d}}) shares the memory until one of them would
## change.  @code{@var{d}(@var{i})}, @code{@var{d}(@var{i}, @var{j}, @dots{})} (ranges,
## @code{end}, @code{:}, logical masks) and @code{@var{d}(@var{i}) = @var{v}} give device
## arrays, with Octave's rules (and a device array indexes a host array:
## @code{@var{x}(@var{d} > 0)}); a logical mask on the device with as many elements as
## @var{d} runs on the GPU (@code{gpuscan_compact}), every other index takes @var{d}
## through host memory (fine for small arrays, a round trip for large ones).
## @code{double (@var{d})} converts on the GPU.  Octave's operators (@code{+ - .* ./ .^ *
## / \ ^}, the comparisons, @code{& | !}, unary minus, @code{'} and @code{.'}) take device
## arrays on either side, with host arrays, scalars or other device arrays; so do
## Octave's element-wise functions (@code{abs}, @code{sqrt}, @code{isnan}, @code{real},
## @dots{}), @code{sum}, @code{max} and @code{min} (along any dimension, with indices),
## the casts @code{single}, @code{int8} @dots{} @code{uint64} and @code{logical}, and
## concatenation (@code{[@var{d}, @var{x}]}, @code{[@var{d}; @var{x}]}, @code{cat},
## @code{horzcat}, @code{vertcat}).  Their results are device arrays with the host's
## values, class rules and errors, so @code{gpuscan_compact (@var{d}, @var{d} > 0)} stays
## on the device; @code{any} and @code{all} give device arrays too.  On the GPU run
## @code{+ - .* ./}, @code{*} and @code{/} by a scalar, the six comparisons, unary minus,
## @code{abs} and the casts but @code{logical}, @code{int64} and @code{uint64}, for
## operands of equal size or a single element, of any real class but int64 and uint64;
## the others go through host memory (fine for small arrays, a
## round trip for large ones).  Octave's
## other functions that read the elements (@code{printf} and @code{sprintf},
## @code{mat2str}, @code{num2str}, @code{isequal}, @code{find}, @code{mod}, @dots{}) read
## the gathered array and give host results; those that need the type itself
## (@code{reshape} and @code{squeeze}, copies on the device; @code{permute}, @code{sort},
## @code{diag}, through host memory) give device arrays; @code{if}, @code{while},
## @code{&&} and @code{||} test the gathered array (as for @code{gpuArray});
## @code{median}, @code{mode}, @code{norm}, the bitwise functions and @code{idivide} are
## methods through host memory; the few left that switch on Octave's own classes (a range
## @code{@var{d}(1):@var{d}(2)}, MEX files) say it is the wrong type, and @code{save}
## refuses: @code{gather} is one call away.
##
## Calls on device arrays return as soon as their GPU work is queued (as MATLAB's
## @code{gpuArray} calls do), so that a call costs microseconds, not the GPU's round
## trip; @code{gather} and anything else that copies to or from host memory waits for
## the work queued before it.  To time device calls, stop the clock after a
## @code{gather}.  An error in queued work (a GPU fault) is reported by the next call
## that waits.
##
## The GPU memory is freed when the last copy of the array goes (@code{clear},
## reassignment), at @code{pkg unload gpuscan} and at exit.  An array whose memory was
## freed that way, or by a GPU reset after an error, gives the error
## @code{gpuscan:stale} when used (@code{existsOnGPU} tells).  Without a usable GPU the
## function gives @code{gpuscan:no_gpu}; @code{gpuscan_info ().device_arrays} says
## whether they work here.  Device memory in use:
## @code{gpuscan_info ().device_array_bytes}.
##
## @example
## @group
## d = gpuscan_array (rand (2^20, 1));
## s = gpuscan (d);                    # on the GPU
## m = gpuscan (d, "max", "reverse");  # again, no transfer
## x = gather (s);                     # one download
## @end group
## @end example
## @seealso{gpuscan, gather, classUnderlying, existsOnGPU, gpuscan_compact, gpuscan_info}
## @end deftypefn

function d = gpuscan_array (varargin)
  if (nargin != 1)
    print_usage ();
  endif
  d = __gpuscan__ ("upload", varargin{1});
endfunction

%!demo
%! ## upload once, scan several times on the GPU, download once
%! if (isempty (gpuscan_info ().device_arrays))
%!   disp ("no device arrays here (no usable GPU)");
%! else
%!   x = rand (2^22, 1);
%!   tic; d = gpuscan_array (x); t_up = toc;
%!   ## (the scans are queued; gather waits for them, then downloads one result)
%!   tic; s = gpuscan (d); m = gpuscan (d, "max"); e = gpuscan (d, "exclusive"); y = gather (s); t_scan = toc;
%!   tic; y = gather (s); t_down = toc;
%!   tic; r = cumsum (x); t_cpu = toc;
%!   printf (["upload %.2f ms; three scans on the GPU and a gather %.2f ms (the gather ", ...
%!            "alone %.2f ms); cumsum %.2f ms\n"], 1e3 * [t_up, t_scan, t_down, t_cpu]);
%!   ## both sum in floating point, in different orders: they agree to rounding
%!   printf ("largest difference from cumsum, relative to the total: %.1e\n",
%!           max (abs (y - r)) / r(end));
%!   d
%! endif

%!function t = have_arrays ()
%!  t = ! isempty (gpuscan_info ().device_arrays);
%!endfunction

%!function kb = resident_kb ()
%!  kb = NaN;
%!  fid = fopen ("/proc/self/statm");
%!  if (fid >= 0)
%!    v = fscanf (fid, "%d", 2);
%!    fclose (fid);
%!    kb = v(2) * 4;
%!  endif
%!endfunction

%!function check_same (f, varargin)
%!  ## f of device arrays (mixed with host ones) gives f of the host arrays, on the device
%!  h = varargin;
%!  for i = 1:numel (h)
%!    if (isa (h{i}, "gpuscan_array"))
%!      h{i} = gather (h{i});
%!    endif
%!  endfor
%!  want = f (h{:});
%!  got = f (varargin{:});
%!  assert (isa (got, "gpuscan_array"), func2str (f));
%!  g = gather (got);
%!  assert (class (g), class (want));
%!  assert (size (g), size (want));
%!  assert (isequaln (g, want), func2str (f));
%!endfunction

%!function y = ifelse_cast (c, v)
%!  ## v in class c (logical: nonzero and not NaN)
%!  if (strcmp (c, "logical"))
%!    y = v != 0 & ! isnan (v);
%!  else
%!    y = cast (v, c);
%!  endif
%!endfunction

%!function check_scan (x, varargin)
%!  ## the device result equals the host result, class and shape included
%!  d = gpuscan_array (x);
%!  nout = 1 + any (strcmp (varargin, "max") | strcmp (varargin, "min"));
%!  host = cell (1, nout);
%!  dev = cell (1, nout);
%!  [host{:}] = gpuscan (x, varargin{:});
%!  [dev{:}] = gpuscan (d, varargin{:});
%!  for k = 1:nout
%!    assert (isa (dev{k}, "gpuscan_array"));
%!    g = gather (dev{k});
%!    assert (class (g), class (host{k}));
%!    assert (size (g), size (host{k}));
%!    if (isfloat (g) && any (strcmp (varargin, "prod")))
%!      assert (g, host{k}, -8 * numel (x) * eps (class (g)));
%!    elseif (isfloat (g) && ! any (strcmp (varargin, "max") | strcmp (varargin, "min")))
%!      assert (g, host{k}, 8 * eps (class (g)) * max (1, sum (abs (double (x(:))))));
%!    else
%!      assert (isequaln (g, host{k}));
%!    endif
%!  endfor
%!endfunction

%!testif ; have_arrays ()
%! ## Octave 11's options on device arrays: VECDIM, "all", "linear", "ComparisonMethod",
%! ## saturating products and "omitmissing", with device results equal to the host's
%! x = reshape (mod ((1:60) * 7, 13) - 6, 3, 4, 5);
%! d = gpuscan_array (x);
%! for a = {{[1 3]}, {[2 3], "reverse"}, {"all"}, {[3 1], "exclusive"}}
%!   y = gpuscan (d, a{1}{:});
%!   assert (isa (y, "gpuscan_array") && isequal (gather (y), gpuscan (x, a{1}{:})));
%!   [m, i] = gpuscan (d, a{1}{:}, "max", "linear");
%!   [hm, hi] = gpuscan (x, a{1}{:}, "max", "linear");
%!   assert (isa (i, "gpuscan_array") && isequal ({gather(m), gather(i)}, {hm, hi}));
%! endfor
%! assert (gather (cumsum (d, "all")), cumsum (x(:)));
%! [m, i] = cummin (d, 2, "linear", "ComparisonMethod", "abs");
%! [hm, hi] = gpuscan (x, 2, "min", "linear", "ComparisonMethod", "abs");
%! assert ({gather(m), gather(i)}, {hm, hi});
%! xi = int8 (x * 9);
%! assert (gather (gpuscan (gpuscan_array (xi), "prod", "native")), gpuscan (xi, "prod", "native"));
%! assert (gather (gpuscan (gpuscan_array ([1 NaN 2]), "omitmissing")), [1 1 3]);

%!testif ; have_arrays ()
%! ## upload, gather and what describes the array, every class
%! for c = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", ...
%!          "int64", "uint64", "logical"}
%!   x = cast (reshape (mod (0:23, 7), 2, 3, 4), c{1});
%!   d = gpuscan_array (x);
%!   assert (gather (d), x);
%!   assert (size (d), [2 3 4]);
%!   assert (size (d, 3), 4);
%!   assert (size (d, 5), 1);
%!   [r, cc] = size (d);
%!   assert ([r, cc], [2 12]);
%!   assert (numel (d), 24);
%!   assert (ndims (d), 3);
%!   assert (! isempty (d));
%!   assert (isreal (d));
%!   assert (classUnderlying (d), c{1});
%!   assert (class (d), "gpuscan_array");
%!   assert (isa (d, "gpuscan_array"));
%!   assert ([isnumeric(d), islogical(d), isfloat(d), isinteger(d)],
%!           [isnumeric(x), islogical(x), isfloat(x), isinteger(x)]);
%!   assert ([rows(d), columns(d), length(d)], [rows(x), columns(x), length(x)]);
%!   ## double (D) converts on the device, as double (X) does on the host
%!   assert (isa (double (d), "gpuscan_array"));
%!   assert (gather (double (d)), double (x));
%! endfor
%! assert (gather (double (gpuscan_array (single ([1+2i, NaN])))), double (single ([1+2i, NaN])));
%! assert (gather (double (gpuscan_array (int64 (2^53 + 1)))), double (int64 (2^53 + 1)));
%! ## if, while, && and || take the gathered array's truth, as MATLAB's gpuArray does
%! ## (Octave's default for a type was a quiet false)
%! for v = {[1 2], [1 0], zeros(1, 0), int8([-1 3]), true, single(0), [2; 3] > 1}
%!   t = false;
%!   if (v{1}) t = true; endif
%!   u = false;
%!   if (gpuscan_array (v{1})) u = true; endif
%!   assert (u, t);
%! endfor
%! assert (all (gpuscan_array ([1 2]) > 0) && ! any (gpuscan_array ([0 0])));
%! fail ("if (gpuscan_array ([1 NaN])), end", "NaN");
%! ## nnz, issorted, sortrows, char, sparse, triu and arrayfun: the host array's answers
%! h = [3 1 2; 4 0 6];
%! g = gpuscan_array (h);
%! assert (nnz (g), nnz (h));
%! assert (issorted (gpuscan_array ([1 2 2 5])), true);
%! assert (gather (sortrows (gpuscan_array ([3 1; 1 2]))), [1 2; 3 1]);
%! assert (char (gpuscan_array ([72 105])), "Hi");
%! assert (sparse (g), sparse (h));
%! assert (gather (triu (g)), triu (h));
%! assert (gather (arrayfun (@(v) v + 1, g)), h + 1);
%! assert (int2str (gpuscan_array ([1.4 2.6])), int2str ([1.4 2.6]));
%! ## median, mode, norm, the bitwise functions and idivide (methods through host memory)
%! check_same (@median, g);
%! check_same (@(a) median (a, 2), g);
%! check_same (@mode, g);
%! check_same (@norm, g);
%! check_same (@(a) norm (a, 1), g);
%! u = gpuscan_array (uint8 ([3 12 255]));
%! check_same (@(a) bitand (a, uint8 (6)), u);
%! check_same (@(a) bitor (a, uint8 (6)), u);
%! check_same (@(a) bitxor (a, a), u);
%! check_same (@(a) bitshift (a, 1), u);
%! check_same (@bitcmp, u);
%! check_same (@(a) idivide (a, uint8 (4)), u);
%! z = gpuscan_array (single ([1+2i, 3-4i]));
%! assert (gather (z), single ([1+2i, 3-4i]));
%! assert (! isreal (z));
%! e = gpuscan_array (zeros (0, 3));
%! assert (isempty (e));
%! assert (size (gather (e)), [0 3]);
%! assert (size (gather (gpuscan (e))), [0 3]);
%! out = evalc ("disp (d)");
%! assert (! isempty (strfind (out, "2x3x4 logical gpuscan_array")));
%! out = evalc ("d");
%! assert (! isempty (strfind (out, "d = 2x3x4 logical gpuscan_array")), out);
%! assert (classUnderlying (z), "single");
%! assert (classUnderlying (int8 (1)), "int8");
%! assert ([existsOnGPU(z), existsOnGPU(e), existsOnGPU(1)], [true, true, false]);

%!testif ; have_arrays ()
%! ## every operator and mode on device arrays equals the host call
%! x = reshape (mod ((1:60) * 7, 11) - 5, 3, 20);
%! for op = {"sum", "prod", "max", "min"}
%!   for mode = {{}, {"exclusive"}, {"reverse"}, {"exclusive", "reverse"}}
%!     check_scan (x, op{1}, mode{1}{:});
%!     check_scan (x, 2, op{1}, mode{1}{:});
%!     check_scan (x(:), op{1}, mode{1}{:});
%!   endfor
%! endfor

%!testif ; have_arrays ()
%! ## class rules, native, double, complex, NaN, every algorithm
%! check_scan (int8 ([100 100 -100 -100 -100]));
%! check_scan (int8 ([100 100 -100 -100 -100]), "native");
%! check_scan (uint16 (1:50), "prod");
%! check_scan (int64 ([9e18 9e18 -5]), "native");
%! check_scan (logical ([0 1 0 1]));
%! check_scan (logical ([0 1 0 1]), "native");
%! check_scan (logical ([0 1 0 1]), "min");
%! check_scan (single (1:10), "double");
%! check_scan (single ([1+2i, 3, 4i]), "double");
%! ## (conversions of 2^20 elements and more go in pieces over the threads)
%! check_scan (int16 (mod ((1:2^20+7)', 9) - 4));
%! check_scan (single (complex (mod ((1:2^20+7)', 9), 1)), "double");
%! ## logical operators scan logical (X), converted on the device
%! check_scan ([0 2 -1 0 3], "and");
%! check_scan (int16 ([0 2 -1 0 3]), "xor", "reverse");
%! fail ("gpuscan (gpuscan_array ([1 NaN]), \"or\")", "X holds NaN, which has no logical value");
%! check_scan ([1+2i, 3, 4i, -1], "max");
%! check_scan ([NaN 2 NaN 5 1], "max");
%! check_scan (single ([NaN 2 NaN 5 1]), "min", "reverse");
%! x = mod ((1:5000)', 13) - 6;
%! check_scan (single (x / 4), "reproducible");   # (quarters: exact sums)
%! check_scan (x / 4, 1, "prod", "reproducible", "reverse");
%! for a = gpuscan_info ().algorithms
%!   check_scan (x, "algorithm", a{1});
%!   check_scan (reshape (x, 50, 100), 2, "max", "algorithm", a{1});
%! endfor

%!testif ; have_arrays ()
%! ## sums into double of narrower classes, which the scan reads in their own class
%! ## (or converts first where the algorithm cannot): every algorithm, lines of several
%! ## tiles, reverse, exclusive, segments, batched lines and across rows
%! x = mod ((1:20011)', 23) - 11;
%! f = mod (1:20011, 997)' == 1;
%! for c = {"logical", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "single"}
%!   v = ifelse_cast (c{1}, x);
%!   for a = gpuscan_info ().algorithms
%!     check_scan (v, "double", "algorithm", a{1});
%!   endfor
%!   check_scan (v, "double", "reverse");
%!   check_scan (v, "double", "exclusive", "segments", f);
%!   check_scan (reshape (v(1:20000), 2000, 10), "double");
%!   check_scan (reshape (v(1:20000), 10, 2000), 2, "double");
%! endfor
%! check_scan (x > 0);
%! check_scan (x(1:0) > 0);

%!testif ; have_arrays ()
%! ## segments as a host array and as a device array, per element and per k
%! x = mod ((1:3000)', 17) - 8;
%! f = mod (1:3000, 97)' == 0;
%! check_scan (x, "segments", f);
%! check_scan (x, "segments", double (f) * -2.5);
%! d = gpuscan_array (x);
%! finf = single (f);
%! finf(f) = -Inf;
%! for fd = {gpuscan_array(f), gpuscan_array(int16 (f)), gpuscan_array(finf)}
%!   assert (gather (gpuscan (d, "segments", fd{1})), gpuscan (x, "segments", f));
%! endfor
%! m = reshape (x, 30, 100);
%! k = mod (1:100, 7) == 0;
%! y = gpuscan (gpuscan_array (m), 2, "exclusive", "segments", gpuscan_array (k));
%! assert (gather (y), gpuscan (m, 2, "exclusive", "segments", k));
%! ## keys (a host array) and NaN flags on device arrays
%! assert (gather (gpuscan (gpuscan_array (x), "keys", cumsum (f))), gpuscan (x, "keys", cumsum (f)));
%! xn = x;
%! xn(3:7:end) = NaN;
%! assert (gather (gpuscan (gpuscan_array (xn), "omitnan")), gpuscan (xn, "omitnan"));
%! ## (on the GPU: the omit_nan kernels; a NaN the sum makes, Inf - Inf, stays)
%! xi = xn;
%! xi([100 2000]) = [Inf -Inf];
%! units = [1, 1i, -1, -1i];
%! for c = {@double, @single, @(v) complex (v, flipud (v)), @(v) single (complex (-v, v))}
%!   for o = {{}, {"exclusive"}, {"reverse"}, {"prod"}, {"prod", "reverse"}, {2}}
%!     h = c{1} (reshape (xi, [], 50));
%!     if (any (strcmp (o{1}, "prod")))
%!       ## (+-1, complex +-1 and +-i, and NaN: exact products)
%!       u = real (h);
%!       h = sign (u) + isnan (u) .* u;
%!       if (iscomplex (c{1} (1)))
%!         h = h .* units(mod (reshape (1:numel (h), size (h)), 4) + 1);
%!       endif
%!     endif
%!     assert (isequaln (gather (gpuscan (gpuscan_array (h), o{1}{:}, "omitnan")),
%!                       gpuscan (h, o{1}{:}, "omitnan")));
%!   endfor
%! endfor
%! [m, i] = gpuscan (gpuscan_array (xn), "min", "includenan");
%! [rm, ri] = gpuscan (xn, "min", "includenan");
%! assert ({gather(m), gather(i)}, {rm, ri});
%! [m, i] = gpuscan (gpuscan_array (single (reshape (xn, 100, []))), 2, "max", "includenan", "reverse");
%! [rm, ri] = gpuscan (single (reshape (xn, 100, [])), 2, "max", "includenan", "reverse");
%! assert ({gather(m), gather(i)}, {rm, ri});
%! ## logsumexp (the GPU's exp and log1p round as CUDA's do: within a few eps)
%! for o = {{}, {"exclusive"}, {"reverse"}, {"segments", reshape(f, [], 50)}, {2}}
%!   h = reshape (x, [], 50);
%!   assert (gather (gpuscan (gpuscan_array (h), o{1}{:}, "logsumexp")),
%!           gpuscan (h, o{1}{:}, "logsumexp"), -1e-12);
%! endfor
%! ## accurate sums: m 2^k data, whose prefixes a double-double holds exactly, so that the
%! ## GPU's bits are the host's (the CPU engine's); the same bits again on a second call
%! z = round (2^20 * (rand (1, 3000) - 0.5)) .* 2 .^ round (60 * rand (1, 3000) - 30);
%! z(1:997:end) = 2^60;
%! for c = {@double, @single, @(v) complex (v, -v)}
%!   for o = {{}, {"exclusive"}, {"reverse"}, {"segments", f}}
%!     h = c{1} (z);
%!     d = gpuscan (gpuscan_array (h), "accurate", o{1}{:});
%!     assert (isequal (gather (d), gpuscan (h, "accurate", o{1}{:})));
%!     assert (isequal (gather (gpuscan (gpuscan_array (h), "accurate", o{1}{:})), gather (d)));
%!   endfor
%! endfor
%! ## "groups" on the device: labels sorted there (a device array; but int64 and uint64,
%! ## and host labels, by Octave's sort), X moved into their order, scanned, moved back;
%! ## the host call's values and indices for every label class, -0 beside 0, NaN labels
%! ## (each its own group), Inf, shapes along either dim, the modes
%! lab = [3 -1 0 -0 NaN 2.5 Inf 3 NaN -Inf 0 -1];
%! g = lab(mod ((1:300)' * 7, numel (lab)) + 1);
%! xs = mod ((1:300)', 13) - 6;
%! xs(5:11:end) = NaN;
%! for gc = {@double, @single, @int32, @int64, @uint8, @logical, "host", "char"}
%!   if (ischar (gc{1}))
%!     gd = g;
%!     if (strcmp (gc{1}, "char"))
%!       gd = char (65 + mod ((1:300)', 5));
%!     endif
%!     gh = gd;
%!   else
%!     gh = gc{1} (mod ((1:300)', 4));
%!     if (isfloat (gh))
%!       gh = gc{1} (g);
%!     endif
%!     gd = gpuscan_array (gh);
%!   endif
%!   for o = {{}, {"exclusive"}, {"reverse"}, {"prod"}, {"native"}}
%!     d = gpuscan (gpuscan_array (xs), o{1}{:}, "groups", gd);
%!     assert (class (d), "gpuscan_array");
%!     assert (isequaln (gather (d), gpuscan (xs, o{1}{:}, "groups", gh)));
%!   endfor
%!   for op = {"max", "min"}
%!     [m, i] = gpuscan (gpuscan_array (xs), op{1}, "groups", gd);
%!     [rm, ri] = gpuscan (xs, op{1}, "groups", gh);
%!     assert (isequaln ({gather(m), gather(i)}, {rm, ri}));
%!   endfor
%!   xm = reshape (int16 (1:1200), 4, 300);   # along dim 2: lanes
%!   [m, i] = gpuscan (gpuscan_array (xm), 2, "max", "groups", gd, "reverse");
%!   [rm, ri] = gpuscan (xm, 2, "max", "groups", gh, "reverse");
%!   assert ({gather(m), gather(i)}, {rm, ri});
%!   assert (gather (gpuscan (gpuscan_array (xm.'), "groups", gd)), gpuscan (xm.', "groups", gh));
%! endfor
%! assert (isempty (gather (gpuscan (gpuscan_array (zeros (0, 3)), "groups", gpuscan_array (zeros (0, 1))))));
%! fail ("gpuscan (gpuscan_array (1:3), 'groups', gpuscan_array ([1 2]))", "GROUPS must be a real vector of length");
%! fail ("gpuscan (gpuscan_array (1:3), 'groups', gpuscan_array ([1 2 1i]))", "GROUPS must be a real vector");
%! ## "groups" with a device array of labels
%! g = mod ((1:300)', 7);
%! [m, i] = gpuscan (gpuscan_array (x(1:300)), "max", "groups", gpuscan_array (g));
%! [rm, ri] = gpuscan (x(1:300), "max", "groups", g);
%! assert ({class(m), gather(m), gather(i)}, {"gpuscan_array", rm, ri});
%! ## few labels, whole numbers (label tiles: no sort), at a tile's sizes +-1 and spans
%! ## around the most a tile takes (1024 for double, 2048 for single), against the host
%! ## call (sorted): max and min exact, sums and products within the help's bound
%! for n = [1 2047 2049 8193]
%!   for span = [1 7 1024 1025 2049]
%!     g = randi ([-5, span - 6], n, 1);
%!     g(end) = span - 6;
%!     for cl = {@double, @single}
%!       xs = cl{1} (randn (n, 2));
%!       xs(3:17:end) = NaN;
%!       for o = {{}, {"exclusive"}, {"reverse"}, {"reverse", "exclusive"}, {"prod"}, ...
%!                {"max"}, {"min", "reverse"}}
%!         d = gather (gpuscan (gpuscan_array (xs), 1, o{1}{:}, "groups", gpuscan_array (g)));
%!         r = gpuscan (xs, 1, o{1}{:}, "groups", g);
%!         if (any (strcmp (o{1}, "max")) || any (strcmp (o{1}, "min")))
%!           assert (isequaln (d, r));
%!         else
%!           modes = o{1}(! strcmp (o{1}, "prod"));
%!           scale = abs (r) + gpuscan (abs (xs), 1, modes{:}, "omitnan", "groups", g);
%!           assert (isnan (d), isnan (r));
%!           ok = isnan (r) | abs (d - r) <= 8 * n * eps (class (xs)) * scale;
%!           assert (all (ok(:)));
%!         endif
%!       endfor
%!     endfor
%!   endfor
%! endfor
%! a = linspace (-0.9, 0.9, 300)';
%! y = gpuscan (gpuscan_array (x(1:300)), "Recurrence", gpuscan_array (a), "initial", 2, "reverse");
%! assert (gather (y), gpuscan (x(1:300), "recurrence", a, "initial", 2, "reverse"), 1e-12);
%! ## a host X with device segments runs on the host
%! assert (gpuscan (x, "segments", gpuscan_array (f)), gpuscan (x, "segments", f));
%! ## DIM and KEYS given as device arrays are read on the host
%! xm = reshape (x, 30, 100);
%! assert (gather (gpuscan (gpuscan_array (xm), gpuscan_array (2))), gpuscan (xm, 2));
%! assert (gather (gpuscan (gpuscan_array (x), "keys", gpuscan_array (cumsum (f)))),
%!         gpuscan (x, "keys", cumsum (f)));

## "recurrence" of a device array against the host call, within the help's bound (the
## GPU composes the maps in another grouping)
%!function check_recurrence (x, a, opts, varargin)
%!  y = gpuscan (gpuscan_array (x), varargin{:}, "recurrence", a, opts{:});
%!  r = gpuscan (x, varargin{:}, "recurrence", gather (a), opts{:});
%!  assert (class (y), "gpuscan_array");
%!  y = gather (y);
%!  assert ({class(y), size(y)}, {class(r), size(r)});
%!  tol = 8 * max (1, numel (x)) * eps (class (r)) * (1 + sum (abs (double (x(:)))));
%!  assert (all (abs (double (y(:)) - double (r(:))) <= tol));
%!endfunction

%!testif ; have_arrays ()
%! ## "recurrence" on the device: class mixes, sizes around the tiles, every option
%! rand ("seed", 7);
%! for n = [0 1 2 255 256 257 1023 1025 4097 70001]
%!   x = rand (n, 1) - 0.5;
%!   a = 1.8 * rand (n, 1) - 0.9;
%!   check_recurrence (x, 0.75, {});
%!   check_recurrence (x, a, {});
%!   check_recurrence (x, gpuscan_array (a), {"exclusive"});
%!   check_recurrence (x, a, {"reverse", "initial", 2});
%!   check_recurrence (x, a, {"exclusive", "reverse", "initial", -1.5});
%!   check_recurrence (single (x), a, {});
%!   check_recurrence (x, single (a), {"initial", 0.5});   # (X through host memory)
%!   check_recurrence (x + 1i * x(end:-1:1), 0.5i, {});
%!   check_recurrence (x, a * exp (0.3i), {"initial", 1 - 2i});
%!   check_recurrence (single (x) * (1 - 1i), single (0.9), {"reverse"});
%!   check_recurrence (int16 (1000 * x), 0.5, {});
%! endfor
%! ## lines and lanes (dim 1, 2, 3), with segments and keys on the host and the device
%! x = rand (300, 40) - 0.5;
%! a = 1.8 * rand (300, 40) - 0.9;
%! s = rand (300, 1) < 0.05;
%! ds = gpuscan_array (s);
%! sf = rand (300, 40) < 0.1;
%! for o = {{}, {"exclusive"}, {"reverse", "initial", 3}, {"segments", s}, ...
%!          {"segments", ds}, {"keys", cumsum(s)}, {"segments", sf, "reverse"}}
%!   check_recurrence (x, a, o{1});
%!   check_recurrence (x, 0.5, [o{1}, {"initial", 1}]);
%! endfor
%! for o = {{}, {"exclusive"}, {"reverse", "initial", 3}, {"segments", s'}}
%!   check_recurrence (x', a', o{1}, 2);
%! endfor
%! check_recurrence (reshape (x, 30, 10, 40), reshape (a, 30, 10, 40), {"exclusive"}, 2);
%! check_recurrence (reshape (x, 3, 4000), 0.99, {"reverse"}, 2);
%! ## every algorithm by name, and "reproducible": the same bits from every call
%! x = rand (50000, 1) - 0.5;
%! for alg = gpuscan_info ().algorithms
%!   check_recurrence (x, 0.999, {"algorithm", alg{1}});
%!   if (! strcmp (alg{1}, "cub"))   # (whose look-back has no fixed order)
%!     check_recurrence (x, 0.999, {"algorithm", alg{1}, "reproducible"});
%!   endif
%! endfor
%! y = gather (gpuscan (gpuscan_array (x), "recurrence", 0.999, "reproducible"));
%! assert (isequal (y, gather (gpuscan (gpuscan_array (x), "recurrence", 0.999, "reproducible"))));
%! ## an Inf a inside a segment gives Inf as the loop does (y0 = 0 too), a NaN a NaN; at
%! ## a segment's start from y0 = 0, x alone (an Inf a at a start with another y0, and
%! ## signs that make Inf - Inf, may differ: help)
%! s = logical ([1; 0; 0; 1; 0; 0; 1; 0; 0]);
%! a = [0.5; Inf; 0.5; 0.5; Inf; 0.5; 2; NaN; 0.5];
%! for o = {{}, {"initial", 2}, {"exclusive"}, {"reverse"}, {"reverse", "initial", 2}}
%!   y = gather (gpuscan (gpuscan_array (ones (9, 1)), "recurrence", a, "segments", s, o{1}{:}));
%!   assert (y, gpuscan (ones (9, 1), "recurrence", a, "segments", s, o{1}{:}));
%! endfor
%! assert (gather (gpuscan (gpuscan_array (ones (9, 1)), "recurrence", a, "segments", s)),
%!         [1; Inf; Inf; 1; Inf; Inf; 1; NaN; NaN]);
%! a = [Inf; 1; 1; NaN; 0.5; 0.5; Inf; 2; NaN];
%! for o = {{}, {"exclusive"}, {"reverse"}}
%!   y = gather (gpuscan (gpuscan_array (ones (9, 1)), "recurrence", a, "segments", s, o{1}{:}));
%!   assert (y, gpuscan (ones (9, 1), "recurrence", a, "segments", s, o{1}{:}));
%! endfor
%! assert (gather (gpuscan (gpuscan_array (ones (9, 1)), "recurrence", a, "segments", s)),
%!         [1; 2; 3; 1; 1.5; 1.75; 1; 3; NaN]);
%! fail ("gpuscan (gpuscan_array (1:3), 'recurrence', [1 2])", "takes A of one element or the size of X");
%! fail ("gpuscan (gpuscan_array (1:3), 'recurrence', 1, 'omitnan')", "takes no .omitnan.");

%!testif ; have_arrays ()
%! ## Inf and NaN a at the starts and ends of lines and segments, on each kernel path
%! ## (tiles, line tiles, lanes, many short lines), forward, reverse and exclusive, from
%! ## y0 = 0: as the host (a = 1 elsewhere: no product underflows to 0 before an Inf)
%! for sz = {[3000, 1], [1000, 40], [40, 1000], [7, 3000]}
%!   [len, lines] = deal (sz{1}(1), sz{1}(2));
%!   x = 1 + mod (reshape (0:len*lines-1, len, lines), 7);
%!   a = ones (len, lines);
%!   h = floor (len / 2) + 1;
%!   s = false (len, 1); s(h) = true;   # (segments [1, h-1] and [h, len], either way)
%!   at = unique ([1, h-2, h-1, h, h+1, len]);
%!   a(at, :) = repmat ([Inf, NaN](1 + mod (0:lines-1, 2)), numel (at), 1);
%!   for o = {{}, {"reverse"}, {"exclusive"}}
%!     y = gpuscan (x, 1, "recurrence", a, "segments", s, o{1}{:});
%!     assert (gather (gpuscan (gpuscan_array (x), 1, "recurrence", a, "segments", s, o{1}{:})), y);
%!     assert (gather (gpuscan (gpuscan_array (x.'), 2, "recurrence", a.', "segments", s, o{1}{:})), y.');
%!   endfor
%! endfor

%!testif ; have_arrays ()
%! ## a scan of a scan stays on the device; results are independent arrays
%! d = gpuscan_array ((1:10)');
%! c = gpuscan_array (d);
%! assert (gather (c), (1:10)');
%! s = gpuscan (gpuscan (d));
%! assert (gather (s), cumsum (cumsum ((1:10)')));
%! clear d
%! assert (gather (s), cumsum (cumsum ((1:10)')));
%! ## copies are values: the memory goes with the last one
%! n0 = gpuscan_info ().device_array_count;
%! a = gpuscan_array (1:4);
%! b = a;
%! assert (gpuscan_info ().device_array_count, n0 + 1);
%! clear a
%! assert (gather (b), 1:4);
%! clear b
%! assert (gpuscan_info ().device_array_count, n0);
%! cells = {gpuscan_array(1:3), gpuscan_array(4:6)};
%! assert (gather (cells{2}), 4:6);
%! clear cells
%! assert (gpuscan_info ().device_array_count, n0);
%! [m, im] = gpuscan (gpuscan_array ([3 1 4 1 5 9 2 6]), "max");
%! assert (gather (m), [3 3 4 4 5 9 9 9]);
%! assert (gather (im), [1 1 3 3 5 6 6 6]);
%! assert (classUnderlying (im), "double");

%!testif ; have_arrays ()
%! ## 10,000 create/scan/compact/gather/copy cycles hold no device memory afterwards, and
%! ## host memory stays put
%! info0 = gpuscan_info ();
%! x = rand (1000, 1);
%! for i = 1:10000
%!   d = gpuscan_array (x);
%!   [y, iy] = gpuscan (d, "max");
%!   c = gpuscan_compact (d, x > 0.5);
%!   g = gather (double (y));
%!   e = d;
%!   if (i == 100)
%!     rss0 = resident_kb ();
%!   endif
%! endfor
%! clear d y iy c e
%! info1 = gpuscan_info ();
%! assert (info1.device_array_count, info0.device_array_count);
%! assert (info1.device_array_bytes, info0.device_array_bytes);
%! assert (info1.gpu_memory_held_bytes, max (info0.gpu_memory_held_bytes, info1.gpu_memory_held_bytes));
%! ## (not under AddressSanitizer: its quarantine keeps freed memory resident)
%! if (! isnan (rss0) && isempty (getenv ("ASAN_OPTIONS")))
%!   assert (resident_kb () - rss0 < 8192, "resident memory grew by %d kB", resident_kb () - rss0);
%! endif

%!testif ; have_arrays ()
%! ## releasing the engine (what pkg unload does) frees device arrays; using one then
%! ## is a clear error
%! d = gpuscan_array (1:5);
%! __gpuscan__ ("release");
%! assert (gpuscan_info ().device_array_count, 0);
%! assert (! existsOnGPU (d));
%! fail ("gather (d)", "released");
%! fail ("gpuscan (d)", "released");
%! fail ("d + 1", "gpuscan:stale|released");
%! fail ("abs (d)", "released");
%! fail ("sum (d)", "released");
%! fail ("any (d)", "released");
%! fail ("sprintf ('%g', d)", "released");
%! fail ("find (d)", "released");
%! clear d
%! assert (gather (gpuscan (gpuscan_array (1:3))), [1 3 6]);
%! ## "clear gpuscan" leaves the compiled functions loaded (their values' type stays)
%! d = gpuscan_array (1:5);
%! clear gpuscan __gpuscan__ gpuscan_array
%! assert (gather (gpuscan (d)), cumsum (1:5));

%!testif ; have_arrays ()
%! ## device calls are queued, not waited for: chains of scans whose inputs are freed at
%! ## once, their memory taken again by new arrays (uploads, on another stream) before the
%! ## GPU is done, give the host's values (integers below 2^53: exact in any order)
%! x = mod ((1:2^21)', 13) - 6;
%! d = cell (1, 6);
%! for k = 1:6
%!   d{k} = gpuscan (gpuscan (gpuscan_array (x + k), "max"), "exclusive");
%!   junk = gpuscan_array (-x);
%! endfor
%! for k = 1:6
%!   ## (isequal: assert would spell out every differing element of 2^21)
%!   assert (isequal (gather (d{k}), gpuscan (gpuscan (x + k, "max"), "exclusive")), sprintf ("chain %d", k));
%! endfor
%! assert (isequal (gather (junk), -x));
%! e = double (gpuscan (gpuscan_array (int8 (x)), "native"));
%! clear junk
%! assert (isequal (gather (e), double (gpuscan (int8 (x), "native"))));

%!testif ; have_arrays ()
%! ## operators, element-wise functions, reductions, casts, concatenation and cumsum,
%! ## cumprod, cummax and cummin (gpuscan on the device; integer values: exact sums in any
%! ## order): the host array's result
%! ## (values, class, shape, Octave's class rules and broadcasting), on the device
%! rand ("seed", 5);
%! binary = {@plus, @minus, @times, @rdivide, @power, @lt, @le, @gt, @ge, @eq, @ne, @and, @or};
%! unary = {@uminus, @uplus, @not, @transpose, @ctranspose, @abs, @sign, @isnan, ...
%!          @(a) sum (a), @(a) sum (a, 2), @(a) max (a, [], 2), @(a) min (a), @(a) max (a, 2), ...
%!          @single, @int8, @int32, @uint8, @uint64, @logical, ...
%!          @cumsum, @(a) cumsum (a, 2), @cumprod, @(a) cumprod (a, 2), ...
%!          @cummax, @(a) cummin (a, 2), @(a) nthargout (2, @cummax, a), @(a) nthargout (2, @cummin, a, 2), ...
%!          @(a) reshape (a, [], 1), @(a) reshape (a, 1, 1, []), @squeeze, @(a) permute (a, [2 1]), ...
%!          @sort, @(a) sort (a, 2, "descend"), @diag, @full, @(a) repmat (a, 2, 1), @fliplr};
%! if (compare_versions (OCTAVE_VERSION, "11", "<"))   # (Octave 11's cumsum refuses "native")
%!   unary{end+1} = @(a) cumsum (a, "native");
%! endif
%! for c = {"double", "single", "int8", "uint16", "int32", "logical"}
%!   for sz = {[3 4], [1 1], [0 3]}
%!     x = round (10 * rand (sz{1}) - 3);
%!     y = round (5 * rand (sz{1}));
%!     if (strcmp (c{1}, "logical"))
%!       x = x > 0;
%!       y = y > 2;
%!     endif
%!     x = cast (x, c{1});
%!     y = cast (y, c{1});
%!     d = gpuscan_array (x);
%!     e = gpuscan_array (y);
%!     for f = binary
%!       check_same (f{1}, d, y);
%!       check_same (f{1}, x, e);
%!       check_same (f{1}, d, e);
%!       check_same (f{1}, d, 2);
%!       check_same (f{1}, 2, d);
%!     endfor
%!     for f = unary
%!       check_same (f{1}, d);
%!     endfor
%!     ## (Octave concatenates empties alone without asking their type: a host empty)
%!     for f = {@(a, b) [a, b], @(a, b) [a; b], @(a, b) [a, b; b, a], @(a, b) cat (3, a, b), ...
%!              @horzcat, @vertcat, @(a, b) [a, int8(b)], @(a, b) [single(a); b]}
%!       if (! isempty (x))
%!         check_same (f{1}, d, y);
%!         check_same (f{1}, x, e);
%!         check_same (f{1}, d, e);
%!       endif
%!     endfor
%!   endfor
%! endfor
%! z = complex ([1 -2 NaN 4], [0 1 -1 Inf]);
%! for f = {@abs, @conj, @real, @isnan, @(a) a .* a, @(a) a + 1i, @(a) a', @(a) sum (a)}
%!   check_same (f{1}, gpuscan_array (z));
%! endfor
%! check_same (@plus, gpuscan_array (int8 ([100 -120])), 100);        # saturates
%! check_same (@plus, gpuscan_array ([1 2 3]), [10; 20]);              # broadcasts
%! check_same (@mtimes, gpuscan_array (magic (3)), gpuscan_array (eye (3)));
%! [m, i] = max (gpuscan_array ([3 NaN 7 7]));
%! assert ({gather(m), gather(i)}, {7, 3});
%! d = gpuscan_array ([1 2]);
%! d += 1;
%! assert (gather (d), [2 3]);
%! assert (gather (gpuscan_compact (d, d > 2)), 3);
%!testif ; have_arrays ()
%! ## + - .* ./ (and * and / by a scalar), the comparisons, unary minus, abs and the casts
%! ## run on the device for the real classes but int64 and uint64: Octave's values and classes at the
%! ## edges (halves, saturation, NaN to integers, division by zero, -0, a double that
%! ## rounds twice on its way to single), for every pair of classes, with equal shapes,
%! ## host and device scalars on either side
%! v = [0, -0, 1, -1, 2.5, -2.5, 0.5, -0.5, 127.5, -128.5, 1e10, -1e10, NaN, Inf, -Inf, ...
%!      1/3, 2^-24 + 2^-49, 65535.5, 2^31, -2^31 - 1];
%! classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", "logical"};
%! for i = 1:numel (classes)
%!   x = ifelse_cast (classes{i}, v);
%!   for j = 1:numel (classes)
%!     y = ifelse_cast (classes{j}, fliplr (v));
%!     if (! (isinteger (x) && isinteger (y) && ! strcmp (classes{i}, classes{j})))
%!       for f = {@plus, @minus, @times, @rdivide, @lt, @le, @gt, @ge, @eq, @ne}
%!         check_same (f{1}, gpuscan_array (x), y);
%!         check_same (f{1}, gpuscan_array (x), gpuscan_array (y));
%!         check_same (f{1}, gpuscan_array (x), y(3));
%!         check_same (f{1}, x(5), gpuscan_array (y));
%!         check_same (f{1}, gpuscan_array (x), gpuscan_array (y(4)));
%!       endfor
%!       check_same (@mtimes, gpuscan_array (x), y(5));
%!       check_same (@mrdivide, gpuscan_array (x), y(6));
%!     endif
%!   endfor
%!   check_same (@uminus, gpuscan_array (x));
%!   check_same (@abs, gpuscan_array (x));
%!   for f = {@double, @single, @int8, @uint8, @int16, @uint16, @int32, @uint32, @int64, ...
%!            @uint64, @logical}
%!     if (! (isequal (f{1}, @logical) && any (isnan (x))))
%!       check_same (f{1}, gpuscan_array (x));
%!     endif
%!   endfor
%! endfor
%! check_same (@int8, gpuscan_array (int64 ([-300 5 300])));
%! check_same (@single, gpuscan_array (uint64 (2^60 + 1)));
%!testif ; have_arrays ()
%! fail ('logical (gpuscan_array ([1 NaN]))', 'invalid conversion from NaN to logical');
%!testif ; have_arrays ()
%! fail ('gpuscan_array ([1 2]) + {1}', 'not implemented for ''matrix'' by ''cell''');
%!testif ; have_arrays ()
%! try
%!   gpuscan_array ([1 2]) .* sparse ([1 0]);
%!   error ("no error");
%! catch e
%!   assert (e.identifier, "gpuscan:type");
%! end_try_catch
%!testif ; have_arrays ()
%! fail ('[gpuscan_array([1 2]); 1 2 3]', 'vertical dimensions mismatch');
%!testif ; have_arrays ()
%! ## any and all give device arrays; Octave's functions that read the elements (the
%! ## printf family, mat2str, num2str, isequal, find, mod) give the host array's results
%! x = [3 -1 0 4; 0 2 NaN 1];
%! d = gpuscan_array (x);
%! check_same (@any, d);
%! check_same (@all, d);
%! check_same (@(a) any (a, 2), d);
%! check_same (@(a) all (a(:) > -2), d);
%! assert (sprintf ("%g,", d), sprintf ("%g,", x));
%! assert (sprintf ("%d|%s", gpuscan_array (int8 ([1 -2 72]))), sprintf ("%d|%s", int8 ([1 -2 72])));
%! assert (mat2str (d), mat2str (x));
%! assert (num2str (d), num2str (x));
%! assert (isequal (gpuscan_array ([1 2]), [1 2], gpuscan_array ([1 2])));
%! assert (! isequal (gpuscan_array ([1 2]), [1 3]));
%! assert (find (d), find (x));
%! assert (mod (d, 2), mod (x, 2));
%!test
%! if (! isempty (gpuscan_info ().device_arrays))
%!   [s, i] = sort (gpuscan_array ([3 1 2]));
%!   assert ({gather(s), i}, {[1 2 3], [2 3 1]});
%!   assert (size (squeeze (gpuscan_array (ones (1, 1, 3)))), [3 1]);
%!   ## assigning into an undefined variable keeps D's class (it was double, quietly)
%!   y(1:2) = gpuscan_array (int8 (5));
%!   assert (class (gather (y)), "int8");
%!   assert (class (gather (repmat (gpuscan_array (uint16 (7)), 2, 3))), "uint16");
%!   ## a device array indexes a host array (a host result)
%!   x = 10:15;
%!   assert (x(gpuscan_array ([1 3])), [10 12]);
%!   assert (x(gpuscan_array (x > 13)), [14 15]);
%! endif
%!testif ; have_arrays ()
%! fail ('reshape (gpuscan_array ([2 1]), 3, 1)', 'can''t reshape 1x2 array to 3x1 array');
%!testif ; have_arrays ()
%! fail ('cumsum (gpuscan_array (1), "max")', 'cumsum of a device array takes DIM and "native".*not "max"');
%!testif ; have_arrays ()
%! fail ('gpuscan_array ([1 2]) + [1 2 3]', 'nonconformant');

%!testif ; have_arrays ()
%! ## exclusive scans that change the class (the input converted, then scanned)
%! for c = {"int8", "uint16", "int32", "uint64", "logical"}
%!   x = cast ([1 0 1 1], c{1});
%!   for op = {"sum", "prod"}
%!     check_scan (x, op{1}, "exclusive");
%!     check_scan (x, op{1}, "exclusive", "reverse");
%!   endfor
%! endfor
%! check_scan (single ([1 2 3 4]), "exclusive", "double");
%! check_scan (single (complex ([1 2 3 4], 1)), "prod", "exclusive", "double");
%! y = gather (gpuscan (gpuscan_array (int8 ([1 2 3 4])), "exclusive"));
%! assert (isequal (y, gpuscan (int8 ([1 2 3 4]), "exclusive")) && isequal (y, [0 1 3 6]));

%!testif ; have_arrays ()
%! ## indexing and assignment as the host array's, results on the device: subscripts,
%! ## ranges, end, colon, linear and logical indices (a device mask on the device)
%! rand ("seed", 3);
%! for c = {"double", "single", "int16", "uint64", "logical"}
%!   x = cast (reshape (mod ((1:60) * 7, 11), 3, 4, 5), c{1});
%!   d = gpuscan_array (x);
%!   for e = {"d(2, 3, 4)", "d(end)", "d(:)", "d(:, end, 2)", "d(2:3, [1 end], :)", ...
%!            "d(7:9)", "d([])", "d(:, :)", "d(mask)", "d(gpuscan_array (mask))", ...
%!            "d(logical (x))", "d(1, [true false true])", "d(gpuscan_array (2), 1)"}
%!     mask = rand (size (x)) < 0.4;
%!     r = eval (e{1});
%!     ref = eval (strrep (strrep (e{1}, "d(", "x("), "gpuscan_array ", ""));
%!     assert (isa (r, "gpuscan_array") && isequal (gather (r), ref)
%!             && strcmp (classUnderlying (r), class (ref)), "%s of %s", e{1}, c{1});
%!   endfor
%!   ## assignment: a new device array, Octave's class rules, deletion; copies unchanged
%!   y = x;
%!   c0 = d;
%!   v = 5 - 4 * strcmp (c{1}, "logical");   # (5 into a logical: Octave warns)
%!   d(2, 3, 4) = v;
%!   y(2, 3, 4) = v;
%!   d(:, 1, :) = gpuscan_array (zeros (3, 1, 5));
%!   y(:, 1, :) = 0;
%!   d(:, :, 2) = [];
%!   y(:, :, 2) = [];
%!   assert (isa (d, "gpuscan_array"));
%!   assert (gather (d), y);
%!   assert (gather (c0), x);
%! endfor
%! z = gpuscan_array ([1 2 3]);
%! z(2) = 2i;
%! assert (gather (z), [1 2i 3]);
%! ## what the host array refuses, the device array refuses alike
%! d = gpuscan_array ((1:5)');
%! fail ("d(6)", "out of bound");
%! fail ("d(0)", "subscripts must be");
%! fail ("d(1.5)", "subscripts must be");
%! ## D{I} and D.NAME mean nothing for an array
%! for e = {"d{1}", "d.x", "d{1} = 3;"}
%!   fail (e{1}, "gpuscan_array.*gather");
%! endfor
%! assert (gather (d), (1:5)');      # the array itself is untouched
%! assert (gather ([1 2 3]), [1 2 3]);

%!testif ; have_arrays ()
%! ## device arrays come only from gpuscan: a struct is not one, and the value has no
%! ## fields to read or forge
%! d = gpuscan_array (rand (30, 1));
%! f = gpuscan_array (true (30, 1));
%! fake = struct ("id", 1, "size", [30 1]);
%! fail ("gpuscan (d, 'segments', fake)", "SEGMENTS|numeric");
%! fail ("f.id", "gpuscan_array.*gather");
%! fail ("gpuscan_compact (d, fake)", "MASK");
%! assert (gather (gpuscan (d, "segments", f)), gather (d));
%! fail ("save ('-text', tempname (), 'd')", "gather");
%! fail ("save ('-binary', tempname (), 'd')", "gather");
%! ## errors of the device path carry gpuscan: identifiers
%! try
%!   [a, b, c] = gpuscan (d, "max");
%! catch err
%!   assert (err.identifier, "gpuscan:nargout");
%! end_try_catch
%! for bad = {containers.Map(), inputParser()}
%!   try
%!     gpuscan (d, "segments", bad{1});
%!     error ("accepted");
%!   catch err
%!     assert (strncmp (err.identifier, "gpuscan:", 8), err.message);
%!   end_try_catch
%!   try
%!     gpuscan (d, bad{1});
%!     error ("accepted");
%!   catch err
%!     assert (strncmp (err.identifier, "gpuscan:", 8), err.message);
%!   end_try_catch
%! endfor

%!testif ; have_arrays ()
%! ## empty device arrays and a shape beyond ndims
%! for a = gpuscan_info ().algorithms
%!   assert (size (gather (gpuscan (gpuscan_array (zeros (0, 3)), "algorithm", a{1}))), [0 3]);
%!   assert (size (gather (gpuscan (gpuscan_array (zeros (1, 1, 0)), "max", "algorithm", a{1}))), [1 1 0]);
%! endfor
%! assert (gather (gpuscan (gpuscan_array ([1 2; 3 4]), 2^40)), [1 2; 3 4]);

%!error <Invalid call> gpuscan_array (1, 2)
%!error <Invalid call> gpuscan_array ()
%!testif ; have_arrays ()
%! fail ("gpuscan_array ('abc')", "must be numeric");
%! fail ("gpuscan_array ({1})", "must be numeric");
%! fail ("gpuscan_array (sparse (1))", "sparse");
%! d = gpuscan_array (1:3);
%! fail ("gpuscan (d, 0)", "DIM");
%! fail ("gpuscan (d, 'bogus')", "unknown option");
%! fail ("gpuscan (d, 'segments', [1 0])", "SEGMENTS");
%! fail ("gpuscan (d, 'segments', gpuscan_array ([1 NaN 0]))", "NaN");
%! fail ("gpuscan (d, 'segments', gpuscan_array ([1 1i 0]))", "SEGMENTS");
%! fail ("[a, b] = gpuscan (d)", "index output");
%!testif ; isempty (gpuscan_info ().device_arrays)
%! fail ("gpuscan_array (1:3)", "need");

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {@var{y} =} gpuscan_filter (@var{b}, @var{a}, @var{x})
## @deftypefnx {} {[@var{y}, @var{zf}] =} gpuscan_filter (@var{b}, @var{a}, @var{x}, @var{zi})
## @deftypefnx {} {[@var{y}, @var{zf}] =} gpuscan_filter (@var{b}, @var{a}, @var{x}, @var{zi}, @var{dim})
## Octave's @code{filter} on every core: the FIR and IIR filter with numerator @var{b}
## and denominator @var{a} along dimension @var{dim} of @var{x} (the first
## non-singleton by default), each slice along @var{dim} a channel with its own state.
##
## The arguments, the classes (single where any argument is, complex where any is), the
## initial state @var{zi} (empty, or @code{max (numel (@var{a}), numel (@var{b})) - 1}
## values a channel, laid out as @code{filter}'s) and the final state @var{zf} are
## @code{filter}'s; @code{@var{a}(1)} divides the others and must not be 0.
##
## The filter is the recurrence of its state (transposed direct form II): a linear map
## the same at every step, so a long channel can be cut into blocks.  Channels run on the
## threads side by side, each with @code{filter}'s own arithmetic, so the results are
## @code{filter}'s bits.  Fewer than 16 channels of 2^16 steps or more, of order 1 to 8,
## are cut into blocks of 2048 steps: the state at each block's end from a zero start is
## a dot product of its @var{x} with the filter's state response (in double), the states
## carry from block to block, and each block then runs @code{filter}'s steps from its
## carry.  Those blocks differ from @code{filter} by rounding in the carried state,
## which a stable filter's response damps (the tests hold them within
## @code{1e4 * eps} times the largest output times the response's 1-norm); an Inf or
## NaN in a channel, or an unstable filter, makes that channel run in order.  The
## results never depend on the number of threads.
##
## Host arrays run on the CPU engine; @env{GPUSCAN_ENGINE}=gpu, or
## @env{GPUSCAN_CROSSOVER} from that many elements, sends them through the GPU's kernels.
## A device array @var{x} (@code{gpuscan_array}) gives device arrays @var{y} and
## @var{zf}.  On the GPU, real data of order 8 at most run in kernels: 2^16 channels or
## more, or channels shorter than 512 steps, each in order (@code{filter}'s bits); fewer,
## longer ones in blocks of 256 steps, as above and within the same bound.  Complex data
## and higher orders run through host memory with the CPU engine.
##
## @example
## @group
## [b, a] = deal ([0.2 0.2], [1 -0.6]);
## y = gpuscan_filter (b, a, randn (2^22, 1));   # as filter (b, a, x)
## @end group
## @end example
## @seealso{filter, gpuscan}
## @end deftypefn

function [y, zf] = gpuscan_filter (b, a, x, zi = [], dim = [])
  ## Reached where Octave takes this file rather than the compiled gpuscan_filter
  ## (src/octave/filter.cc), as for a handle @gpuscan_filter: the same gateway
  if (nargin < 3 || nargin > 5)
    print_usage ();
  endif
  [y, zf] = __gpuscan__ ("filter", b, a, x, zi, dim);
endfunction

%!demo
%! ## a biquad low-pass (RBJ's cookbook, 1 kHz at 44.1 kHz, Q = 0.707) on ten seconds of
%! ## a noisy 440 Hz tone, against filter
%! fs = 44100;  f0 = 1000;  q = 1 / sqrt (2);
%! w = 2 * pi * f0 / fs;  al = sin (w) / (2 * q);
%! b = [1 - cos(w), 2 * (1 - cos (w)), 1 - cos(w)] / 2;
%! a = [1 + al, -2 * cos(w), 1 - al];
%! t = (0:10 * fs - 1)' / fs;
%! x = sin (2 * pi * 440 * t) + 0.5 * randn (size (t));
%! tic; y = gpuscan_filter (b, a, x); t1 = toc;
%! tic; r = filter (b, a, x); t2 = toc;
%! printf ("gpuscan_filter %.1f ms, filter %.1f ms, largest difference %.2g\n",
%!         1e3 * t1, 1e3 * t2, max (abs (y - r)));
%! k = 1:round (0.02 * fs);
%! plot (1e3 * t(k), x(k), 1e3 * t(k), y(k), "linewidth", 2);
%! xlabel ("ms");  legend ("noisy 440 Hz", "low-passed");

%!demo
%! ## an AR(2) process, x(k) = 1.6 x(k-1) - 0.8 x(k-2) + e(k): 64 series of 2^16 steps
%! ## at once, each column a channel
%! e = randn (2^16, 64);
%! x = gpuscan_filter (1, [1 -1.6 0.8], e);
%! plot (x(1:400, 1:3));
%! title ("AR(2): three of 64 series");

%!function r = stable_a (K)
%!  ## a real denominator of order K with its poles within radius 0.95: conjugate pairs,
%!  ## and one real pole for an odd K
%!  p = 0.95 * rand (1, floor (K / 2)) .* exp (1i * pi * rand (1, floor (K / 2)));
%!  r = real (poly ([p, conj(p), 0.95 * (2 * rand (1, mod (K, 2)) - 1)]));
%!endfunction

%!test
%! ## filter's bits where channels run side by side in order: every order to 8 and two
%! ## higher, FIR and IIR, with and without ZI, columns, rows, dims 1 to 3
%! rand ("seed", 3);  randn ("seed", 3);
%! for K = [0:8 12 20]
%!   for fir = [false true]
%!     b = randn (1, K + 1);
%!     a = 1;
%!     if (! fir && K > 0)
%!       a = stable_a (K) * 2;   # a(1) = 2 divides the rest
%!     endif
%!     x = randn (50, 3, 2);
%!     for dim = 1:3
%!       [y, zf] = gpuscan_filter (b, a, x, [], dim);
%!       [r, rf] = filter (b, a, x, [], dim);
%!       assert ({y, zf}, {r, rf});
%!       zi = randn (size (rf));
%!       [y, zf] = gpuscan_filter (b, a, x, zi, dim);
%!       [r, rf] = filter (b, a, x, zi, dim);
%!       assert ({y, zf}, {r, rf});
%!     endfor
%!     assert (gpuscan_filter (b, a, x(:, 1)'), filter (b, a, x(:, 1)'));
%!   endfor
%! endfor

%!test
%! ## ZI and ZF chain: two halves are the whole call
%! randn ("seed", 4);
%! b = [0.3 0.2 0.1];  a = [1 -0.9 0.2];
%! for n = [10 2^17]
%!   x = randn (n, 2);
%!   [y1, z1] = gpuscan_filter (b, a, x(1:n/2, :));
%!   [y2, z2] = gpuscan_filter (b, a, x(n/2+1:end, :), z1);
%!   [y, z] = gpuscan_filter (b, a, x);
%!   assert ([y1; y2], y, 1e-12 * max (abs (y(:))));
%!   assert (z2, z, 1e-12 * max (abs (y(:))));
%! endfor

%!test
%! ## classes as filter's: single where any is, complex where any is; integer, logical
%! ## and sparse X as double; a vector ZI of a vector X in any orientation
%! x = [3 1 4 1 5 9 2 6];
%! for c = {{single([1 2]), [1 -0.5], x}, {[1 2], single([1 -0.5]), x}, ...
%!          {[1 2], [1 -0.5], int8(x)}, {[1 2], [1 -0.5], x > 2}, ...
%!          {[1 2i], [1 -0.5], x}, {[1 2], [1 -0.5i], single(x)}, ...
%!          {[1 2], [1 -0.5], sparse(x)}, {true, [2 1], x}, {[1 2], [1 -0.5], x, 3}, ...
%!          {[1 2 3], [1 -0.5], x', [3 4]}}
%!   [y, zf] = gpuscan_filter (c{1}{:});
%!   [r, rf] = filter (c{1}{:});
%!   assert (class (y), class (r));
%!   assert (iscomplex (y), iscomplex (r));
%!   assert ({y, zf}, {r, rf});
%! endfor

%!test
%! ## empty and length-1 X, zero-length channels, a gain alone
%! for x = {[], zeros(0, 3), zeros(3, 0), 5, zeros(1, 0, 2), single(7)}
%!   for ba = {{[1 2 3], [1 -0.5]}, {2, 4}, {[1 1], 1}}
%!     [y, zf] = gpuscan_filter (ba{1}{:}, x{1});
%!     [r, rf] = filter (ba{1}{:}, x{1});
%!     assert ({y, zf}, {r, rf});
%!   endfor
%! endfor

%!test
%! ## few long channels run in the CPU engine's blocks of 2048 steps: within the bound of
%! ## the help of filter's results (ZF too), at block sizes +-1, for every order of the
%! ## blocks, and the same bits on one thread and on several
%! rand ("seed", 5);  randn ("seed", 5);
%! old = getenv ("GPUSCAN_CPU_PARALLEL_MIN");
%! engine = getenv ("GPUSCAN_ENGINE");
%! setenv ("GPUSCAN_ENGINE", "cpu");
%! unwind_protect
%!   for K = 1:8
%!     a = stable_a (K);
%!     b = randn (1, K + 1);
%!     h = filter (b, a, [1; zeros(4095, 1)]);
%!     for n = [2^16, 2^16 + 1, 2^16 + 2047, 3 * 2^15 - 1]
%!       x = randn (n, 1 + (K == 3));
%!       zi = randn (K, columns (x));
%!       [r, rf] = filter (b, a, x, zi);
%!       setenv ("GPUSCAN_CPU_PARALLEL_MIN", "1");
%!       [y, zf] = gpuscan_filter (b, a, x, zi);
%!       setenv ("GPUSCAN_CPU_PARALLEL_MIN", "1e12");
%!       [y1, zf1] = gpuscan_filter (b, a, x, zi);
%!       assert ({y1, zf1}, {y, zf});
%!       tol = 1e4 * eps * max (abs (r(:))) * norm (h, 1);
%!       assert (y, r, tol);
%!       assert (zf, rf, tol);
%!       assert (y(1:2048, :), r(1:2048, :));   # the first block: filter's bits
%!     endfor
%!   endfor
%!   ## single: tables and carries in double
%!   x = single (randn (2^17, 1));
%!   a = stable_a (4);  b = randn (1, 5);
%!   h = filter (b, a, [1; zeros(4095, 1)]);
%!   assert (gpuscan_filter (b, a, x), filter (b, a, x), 1e4 * eps ("single") * max (abs (filter (b, a, x))) * norm (h, 1));
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_CPU_PARALLEL_MIN", old);
%!   setenv ("GPUSCAN_ENGINE", engine);
%! end_unwind_protect

%!test
%! ## an Inf or NaN in a long channel, and an unstable filter, run the channel in order:
%! ## filter's results, NaN for NaN
%! randn ("seed", 6);
%! x = randn (2^17, 2);
%! x(70000, 1) = Inf;
%! x(9000, 2) = NaN;
%! for ba = {{[0.2 0.3 0.1], [1 -1.2 0.5]}, {[1 1 1], 1}, {1, [1 -1.01]}}
%!   [y, zf] = gpuscan_filter (ba{1}{:}, x);
%!   [r, rf] = filter (ba{1}{:}, x);
%!   assert (isequaln ({y, zf}, {r, rf}));
%! endfor

%!testif ; ! isempty (gpuscan_info ().device_arrays)
%! ## a device array X: Y and ZF are device arrays with filter's values (within the
%! ## help's bound where few long channels run in blocks), ZI a host or device array,
%! ## every class filter takes, along any dimension
%! randn ("seed", 5);
%! b = [0.3 0.2 0.1];  a = [1 -0.9 0.2];
%! for n = [1 37 600 2^17 + 3]
%!   x = randn (n, 2);
%!   [r, rf] = filter (b, a, x);
%!   tol = 1e-12 * max (abs (r(:)));
%!   [y, zf] = gpuscan_filter (b, a, gpuscan_array (x));
%!   assert (isa (y, "gpuscan_array") && isa (zf, "gpuscan_array"));
%!   assert ({gather(y), gather(zf)}, {r, rf}, tol);
%!   [r, rf] = filter (b, a, x, rf);
%!   [y, zf] = gpuscan_filter (b, a, gpuscan_array (x), zf);
%!   assert ({gather(y), gather(zf)}, {r, rf}, tol);
%! endfor
%! x = randn (300, 4);
%! assert (gather (gpuscan_filter (b, a, gpuscan_array (x), [], 2)), filter (b, a, x, [], 2), 1e-12);
%! assert (gather (gpuscan_filter (single (b), a, gpuscan_array (x))), filter (single (b), a, x), 1e-5);
%! assert (classUnderlying (gpuscan_filter (b, a, gpuscan_array (single (x)))), "single");
%! xi = int8 (round (50 * x));
%! assert (gather (gpuscan_filter (b, a, gpuscan_array (xi))), filter (b, a, xi), 1e-12);
%! assert (gather (gpuscan_filter (b, a, gpuscan_array (x > 0))), filter (b, a, x > 0), 1e-12);
%! assert (gather (gpuscan_filter ([1 2i], a, gpuscan_array (x))), filter ([1 2i], a, x), 1e-12);
%! [y, zf] = gpuscan_filter (b, a, gpuscan_array (zeros (0, 3)));
%! assert ({size(y), gather(zf)}, {[0 3], zeros(2, 3)});
%! ## no state (order 0, complex: through host memory), no channels
%! assert (gather (gpuscan_filter (2i, 1, gpuscan_array (x))), filter (2i, 1, x));
%! [y, zf] = gpuscan_filter ([1 2], 1, gpuscan_array (zeros (3, 0)));
%! assert ({size(y), size(zf)}, {[3 0], [1 0]});

%!test
%! ## GPUSCAN_ENGINE=gpu, or GPUSCAN_CROSSOVER from its size, sends host arrays to the
%! ## device's kernels (with GPUSCAN_HOST_ARRAYS=1 the stand-in's); complex data, higher
%! ## orders and machines without a device stay on the CPU engine: filter's values always
%! randn ("seed", 7);
%! old = {getenv("GPUSCAN_ENGINE"), getenv("GPUSCAN_CROSSOVER")};
%! unwind_protect
%!   b = [0.3 0.2 0.1];  a = [1 -0.9 0.2];
%!   x = randn (3000, 3);  zi = randn (2, 3);
%!   [r, rf] = filter (b, a, x, zi);
%!   for setting = {{"gpu", ""}, {"", "100"}, {"", "1e9"}, {"cpu", "100"}}
%!     setenv ("GPUSCAN_ENGINE", setting{1}{1});
%!     setenv ("GPUSCAN_CROSSOVER", setting{1}{2});
%!     [y, zf] = gpuscan_filter (b, a, x, zi);
%!     assert ({y, zf}, {r, rf}, 1e-12 * max (abs (r(:))));
%!     assert (gpuscan_filter (b, a, single (x)), filter (b, a, single (x)), 1e-4);
%!     assert (gpuscan_filter (b, a, complex (x, 1)), filter (b, a, complex (x, 1)), 1e-12 * max (abs (r(:))));
%!     assert (gpuscan_filter (1, [1 -0.1 zeros(1, 9) 0.1], x), filter (1, [1 -0.1 zeros(1, 9) 0.1], x));
%!     assert (gpuscan_filter (2, 1, x), 2 * x);
%!   endfor
%! unwind_protect_cleanup
%!   setenv ("GPUSCAN_ENGINE", old{1});
%!   setenv ("GPUSCAN_CROSSOVER", old{2});
%! end_unwind_protect

%!test
%! ## the compiled function answers, and its help is this file's texinfo
%! [txt, fmt] = get_help_text ("gpuscan_filter");
%! assert (fmt, "texinfo");
%! assert (! isempty (strfind (txt, "gpuscan_filter (@var{b}, @var{a}, @var{x})")));
%! assert (regexp (which ("gpuscan_filter"), '\.oct$'));
%! ## a handle, which Octave may resolve to this file: the same gateway
%! f = @gpuscan_filter;
%! [y, zf] = f ([1 2], [1 -0.5], [1 2 3]);
%! [r, rf] = filter ([1 2], [1 -0.5], [1 2 3]);
%! assert ({y, zf}, {r, rf});
%! assert (cellfun (@gpuscan_filter, {2, 3}, {1, 1}, {4, 5}), [8 15]);

%!error <Invalid call> gpuscan_filter (1, 1)
%!error <Invalid call> gpuscan_filter (1, 1, 1, [], 1, 1)
%!error <first element of A must be nonzero> gpuscan_filter (1, [0 1], 1:3)
%!error <A must have at least one element> gpuscan_filter (1, [], 1:3)
%!error <X must be a numeric or logical array, got char> gpuscan_filter (1, 1, "abc")
%!error <B must be a numeric or logical array, got cell> gpuscan_filter ({1}, 1, 1:3)
%!error <DIM must be a dimension of X, 1 to 2> gpuscan_filter (1, [1 2], 1:3, [], 3)
%!error <DIM must be a dimension of X> gpuscan_filter (1, [1 2], 1:3, [], 0)
%!error <ZI must have .* = 1 rows, got 2> gpuscan_filter (1, [1 2], 1:3, [1 2])
%!error <ZI must be \[2 3\] .*got \[2 4\]> gpuscan_filter ([1 2 3], [1 2], rand (4, 3), rand (2, 4))

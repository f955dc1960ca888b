## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn {} {@var{y} =} gpuscan_compact (@var{x}, @var{mask})
## Stream compaction: the elements of @var{x} where the logical @var{mask} is true, in
## order; the same result as @code{@var{x}(@var{mask})}, shape included.
##
## @var{mask} must be logical with as many elements as @var{x}.  The position of each
## kept element in @var{y} is an exclusive scan (sum) of the mask, the textbook
## application of scan (GPU Gems 3, chapter 39).  On a host array the CPU engine counts the kept
## elements of each thread's piece, scans the counts and copies; on a
## @code{gpuscan_array} (with a host or device @var{mask}) three GPU kernels count the
## kept elements of each tile, scan the tile counts, and place each kept element
## (its warp's ballot of the mask gives its rank), and the result is a
## @code{gpuscan_array}.
##
## @example
## @group
## gpuscan_compact ([5 6 7 8], logical ([1 0 1 1]))
##   @result{} 5 7 8
## @end group
## @end example
## @seealso{gpuscan, gpuscan_array}
## @end deftypefn

function y = gpuscan_compact (x, mask)
  if (nargin != 2)
    error ("gpuscan:nargin", "gpuscan_compact: takes X and MASK, %d given; usage: Y = gpuscan_compact (X, MASK)",
           nargin);
  endif
  y = __gpuscan__ ("compact", x, mask);
endfunction

%!demo
%! ## keep the positive elements, and see where each one lands: the exclusive sum of
%! ## the mask is the position of every kept element in the result
%! x = round (10 * randn (1, 12))
%! mask = x > 0
%! position = gpuscan (double (mask), "exclusive") + 1
%! y = gpuscan_compact (x, mask)

%!function t = have_arrays ()
%!  t = ! isempty (gpuscan_info ().device_arrays);
%!endfunction

%!function check_compact (x, mask)
%!  ref = x(mask);
%!  y = gpuscan_compact (x, mask);
%!  assert (class (y), class (ref));
%!  assert (size (y), size (ref));
%!  assert (isequaln (y, ref));
%!  if (have_arrays ())
%!    d = gpuscan_compact (gpuscan_array (x), mask);
%!    assert (isa (d, "gpuscan_array"));
%!    assert (size (d), size (ref));
%!    assert (isequaln (gather (d), ref));
%!    d = gpuscan_compact (gpuscan_array (x), gpuscan_array (mask));
%!    assert (isequaln (gather (d), ref));
%!  endif
%!endfunction

%!assert (gpuscan_compact ([5 6 7 8], logical ([1 0 1 1])), [5 7 8])

%!test
%! ## every class, random masks, sizes around the tile boundaries (2048 on the GPU)
%! rand ("seed", 7);
%! for c = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", ...
%!          "int64", "uint64", "logical"}
%!   for n = [1 2 31 2047 2048 2049 4095 4097 70001]
%!     x = cast (mod ((1:n)' * 7, 13), c{1});
%!     check_compact (x, rand (n, 1) < 0.5);
%!   endfor
%! endfor
%! check_compact (complex (1:5000, -(1:5000)), rand (1, 5000) < 0.3);
%! check_compact (single (complex (1:5000, 1)), rand (1, 5000) < 0.7);
%! check_compact ([1 NaN 3 Inf], logical ([0 1 1 1]));

%!test
%! ## sizes the CPU threads share (pieces of 2^16 elements from 2^20): the pieces' counts
%! ## and places, of every element width, with runs of kept elements across pieces
%! n = 2^20 + 2^16 + 5;
%! mask = mod (floor ((1:n)' / 40000), 3) > 0 & rand (n, 1) < 0.9;
%! for c = {"double", "single", "int16", "uint8"}
%!   check_compact (cast (mod ((1:n)', 251), c{1}), mask);
%! endfor
%! check_compact (complex (single (1:n), 1)', mask);
%! check_compact (complex (1:n, -1)', mask);

%!test
%! ## empty, all-false and all-true masks; shapes as x(mask)
%! for n = [0 1 5 2048 100000]
%!   x = (1:n)';
%!   check_compact (x, false (n, 1));
%!   check_compact (x, true (n, 1));
%!   check_compact (x', true (1, n));
%! endfor
%! check_compact (5, true);
%! check_compact (5, false);
%! check_compact (magic (4), magic (4) > 8);
%! check_compact (magic (4), logical (mod (1:16, 2)));
%! check_compact (reshape (1:24, 2, 3, 4), reshape (mod (1:24, 3) == 0, 4, 6));
%! check_compact (zeros (0, 3), false (0, 3));
%! ## N-d vectors keep their shape; a row mask gives a row, any other a column
%! check_compact (ones (1, 1, 3), true (1, 1, 3));
%! check_compact (ones (1, 1, 3), false (1, 1, 3));
%! check_compact (ones (1, 1, 3), true (3, 1));
%! check_compact (ones (2, 3), true (1, 6));
%! check_compact (ones (2, 3), false (1, 6));
%! check_compact (ones (2, 3), true (2, 3));
%! check_compact (ones (2, 2, 2), true (1, 2, 4));
%! check_compact ((1:6), true (2, 3));
%! check_compact ((1:6)', false (1, 6));
%! check_compact (zeros (0, 3), true (1, 0));
%! check_compact (zeros (1, 0), true (0, 1));

%!testif ; have_arrays ()
%! ## 100 compactions of a device array hold no device memory afterwards
%! n0 = gpuscan_info ().device_array_count;
%! d = gpuscan_array (rand (10000, 1));
%! for i = 1:100
%!   y = gpuscan_compact (d, rand (10000, 1) < 0.5);
%! endfor
%! clear d y
%! assert (gpuscan_info ().device_array_count, n0);

%!error <gpuscan_compact: takes X and MASK, 1 given> gpuscan_compact (1)
%!error id=gpuscan:nargin gpuscan_compact ()
%!error id=gpuscan:mask gpuscan_compact (1:3, [1 0 1])
%!error id=gpuscan:mask gpuscan_compact (1:3, true (1, 2))
%!error id=gpuscan:type gpuscan_compact ("abc", true (1, 3))
%!error id=gpuscan:type gpuscan_compact ({1, 2}, true (1, 2))

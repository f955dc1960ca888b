## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {@var{y} =} gpuscan_mex (@var{x})
## @deftypefnx {} {@var{y} =} gpuscan_mex (@var{x}, @var{dim}, @var{option}, @dots{})
## @deftypefnx {} {[@var{y}, @var{iy}] =} gpuscan_mex (@dots{})
## @code{gpuscan} of host arrays through a C MEX file: the same engine, options and
## results, from a gateway that MATLAB's @code{mex} builds too.
##
## It takes every option of @code{gpuscan} that needs no Octave type: the operators,
## @var{dim}, @qcode{"exclusive"}, @qcode{"reverse"}, @qcode{"native"},
## @qcode{"double"}, the NaN flags, @qcode{"ComparisonMethod"}, @qcode{"accurate"},
## @qcode{"reproducible"}, @qcode{"segments"}, @qcode{"keys"}, @qcode{"recurrence"}
## with @qcode{"initial"}, and @qcode{"algorithm"}; errors are @code{gpuscan}'s.
## @qcode{"groups"}, @qcode{"all"}, @var{vecdim}, @qcode{"linear"}, sparse @var{x} and
## @code{gpuscan_array} values are for @code{gpuscan}.  The class rules are those of the
## Octave that runs it (integer sums keep their class from Octave 11, as in MATLAB).
##
## Octave 11 hands a MEX file its floating and logical outputs without a copy: there
## both cost the same on large arrays (2^26 doubles, 2 cores: 82 against 86 ms), integer
## outputs 2x.  Octave 7.3 copies every MEX output: @code{gpuscan} is 6-7x faster there.
## @file{doc/mex.md} in the source has the numbers and the MATLAB build command.
##
## @example
## @group
## gpuscan_mex ([1 2 3 4], "exclusive")
##   @result{} 0 1 3 6
## @end group
## @end example
## @seealso{gpuscan}
## @end deftypefn

function varargout = gpuscan_mex (varargin)
  ## (the MEX file, beside this help, takes every call; this runs only without it)
  error ("gpuscan:mex", "gpuscan_mex: the MEX file was not built with this package");
endfunction

## the same as gpuscan, or the same error
%!function check (x, varargin)
%!  try
%!    [y, iy] = deal (gpuscan (x, varargin{:}), []);
%!    if (any (strcmpi (varargin, "max") | strcmpi (varargin, "min")))
%!      [y, iy] = gpuscan (x, varargin{:});
%!    endif
%!  catch err
%!    try
%!      gpuscan_mex (x, varargin{:});
%!    catch err_mex
%!      assert (err_mex.identifier, err.identifier);
%!      assert (regexprep (err_mex.message, "^gpuscan_mex: ", ""),
%!              regexprep (err.message, "^gpuscan: ", ""));
%!      return;
%!    end_try_catch
%!    error ("gpuscan_mex took what gpuscan refused: %s", err.message);
%!  end_try_catch
%!  if (isempty (iy))
%!    m = gpuscan_mex (x, varargin{:});
%!  else
%!    [m, im] = gpuscan_mex (x, varargin{:});
%!    assert (im, iy);
%!  endif
%!  assert (class (m), class (y));
%!  assert (size (m), size (y));
%!  assert (iscomplex (m), iscomplex (y));
%!  assert (isequaln (m, y));
%!endfunction

%!function x = sample (cls, dims, cplx)
%!  x = randn (dims) .* 10 .^ randi (3, dims);
%!  if (numel (x) > 3)
%!    x([1 end]) = [-0 Inf];
%!  endif
%!  if (any (strcmp (cls, {"double", "single"})))
%!    if (numel (x) > 5)
%!      x(3) = NaN;
%!    endif
%!    if (cplx)
%!      x = complex (x, randn (dims));
%!    endif
%!    x = cast (x, cls);
%!  elseif (strcmp (cls, "logical"))
%!    x = x > 0;
%!  else
%!    x = cast (x, cls);
%!  endif
%!endfunction

%!test
%! ## every class and shape, the common options
%! classes = {"double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", ...
%!            "int64", "uint64", "logical"};
%! shapes = {[0 3], [1 1], [7 1], [1 9], [5 4 3], [2 0]};
%! opts = {{}, {2}, {3}, {"exclusive"}, {"reverse"}, {1, "reverse", "exclusive"}, ...
%!         {"prod"}, {"max"}, {"min", "reverse"}, {"native"}, {"double"}, {"omitnan"}, ...
%!         {"max", "includenan"}, {"max", "ComparisonMethod", "abs"}, {"algorithm", "cpu"}, ...
%!         {"reproducible"}, {"logsumexp"}, {"and"}, {"xor"}, {"bitor"}};
%! for c = classes
%!   for s = shapes
%!     for cplx = 0:1
%!       if (cplx && ! any (strcmp (c{1}, {"double", "single"})))
%!         continue;
%!       endif
%!       x = sample (c{1}, s{1}, cplx);
%!       for o = opts
%!         check (x, o{1}{:});
%!       endfor
%!     endfor
%!   endfor
%! endfor

%!test
%! ## segments, keys, accurate, recurrence
%! x = randn (6, 5);
%! check (x, "segments", [1 0 0 1 0 0]);
%! check (x, "segments", rand (6, 5) > 0.5);
%! check (x, 2, "segments", logical ([1 0 1 0 0]));
%! check (x, "keys", [3 3 1 1 1 2]);
%! check (x, "keys", int64 ([3; 3; 1; 1; 1; 2]));
%! check (x, "keys", "aabbbc");
%! check (x, "keys", [1 1 NaN NaN 0 -0]);
%! check (x, "keys", complex ([1 1 2 2 2 2], [0 0 0 1 1 -0]));
%! check (x, "keys", single ([1 1 2 2 2 2] + 1i));
%! check (x, "keys", {1});
%! check (x, "max", "keys", randi (2, 6, 5));
%! check (single (x), "accurate");
%! check (x, "accurate", "reverse");
%! check (x, "recurrence", 0.5);
%! check (x, "recurrence", rand (6, 5), "initial", 2);
%! check (single (x), "recurrence", 0.9i, "initial", 1 - 1i);
%! check (int16 (x * 10), "recurrence", single (0.5));
%! check (x + 1i, "recurrence", 0.25, "reverse", "exclusive");

%!test
%! ## errors: gpuscan's, or what gpuscan_mex leaves to gpuscan
%! x = rand (4, 3);
%! check (x, "foo");
%! check (x, 0);
%! check (x, [1 1]);
%! check (x, "exclusive", "inclusive");
%! check (x, "segments");
%! check (x, "segments", [1 NaN 0 1]);
%! check (x, "segments", [1 0]);
%! check (x, "keys", [1 2]);
%! check (x, "algorithm", "nope");
%! check (x, "sum", "max");
%! check (x, "recurrence", [1 2]);
%! check (x, "native", "double");
%! check (x + 1i, "and");
%! check (x, "bitand");
%! check ([1 NaN], "or");
%! fail ("gpuscan_mex ()", "X is missing");
%! fail ("gpuscan_mex (x, 'groups', [1 2 1 2])", "gpuscan_mex takes no \"groups\"");
%! fail ("gpuscan_mex (x, 'all')", "gpuscan_mex takes no \"all\"");
%! fail ("gpuscan_mex (x, [1 2])", "gpuscan_mex takes no \"VECDIM\"");
%! fail ("gpuscan_mex (sparse (x))", "sparse");
%! fail ("gpuscan_mex ({1})", "must be numeric or logical");
%! fail ("[a, b] = gpuscan_mex (x)", "index output IY needs");

%!test
%! ## cleared (the engine's threads and memory given back) and loaded again
%! x = rand (2^18, 3);
%! y = gpuscan_mex (x);
%! clear gpuscan_mex;
%! assert (gpuscan_mex (x), y);

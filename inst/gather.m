## Copyright (C) 2026 The gpuscan authors
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{x} =} gather (@var{a})
## @deftypefnx {} {[@var{x1}, @dots{}, @var{xn}] =} gather (@var{a1}, @dots{}, @var{an})
## The host copy of each argument: a device array (@code{gpuscan_array}) is copied
## from the GPU into an Octave array of its class; any other value comes back as it is,
## as MATLAB's @code{gather} does, so code may call @code{gather} on whatever a scan
## returned.
## @seealso{gpuscan_array, gpuscan}
## @end deftypefn

function varargout = gather (varargin)
  varargout = cell (1, max (nargout, 1));
  [varargout{:}] = __gpuscan__ ("gather_values", varargin{:});
endfunction

%!assert (gather ([1 2; 3 4]), [1 2; 3 4])
%!assert (gather (int8 (-3)), int8 (-3))
%!assert (gather ("text"), "text")
%!test
%! [a, b] = gather (single (1), {2});
%! assert (a, single (1));
%! assert (b, {2});
%!error <outputs> [a, b] = gather (1)
%!testif ; ! isempty (gpuscan_info ().device_arrays)
%! [a, b, c] = gather (gpuscan_array (int8 ([1 2])), 3, gpuscan_array (zeros (2, 0)));
%! assert ({a, b, c}, {int8([1 2]), 3, zeros(2, 0)});

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
  if (nargout > max (nargin, 1))
    error ("gpuscan:nargout", "gather: %d outputs for %d inputs", nargout, nargin);
  endif
  varargout = varargin;
  for i = 1:nargin
    if (isa (varargin{i}, "gpuscan_array"))
      varargout{i} = gather (varargin{i});
    endif
  endfor
endfunction

%!assert (gather ([1 2; 3 4]), [1 2; 3 4])
%!assert (gather (int8 (-3)), int8 (-3))
%!assert (gather ("text"), "text")
%!test
%! [a, b] = gather (single (1), {2});
%! assert (a, single (1));
%! assert (b, {2});
%!error <outputs> [a, b] = gather (1)

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn {} {@var{c} =} classUnderlying (@var{d})
## The class of the elements of the device array @var{d} (@qcode{"double"},
## @qcode{"int32"}, @dots{}), read without copying it; for any other array, its
## @code{class}.  The name is MATLAB's, for @code{gpuArray}.
## @seealso{gpuscan_array, class}
## @end deftypefn

function c = classUnderlying (d)
  if (nargin != 1)
    print_usage ();
  endif
  if (isa (d, "gpuscan_array"))
    c = __gpuscan__ ("class", d);
  else
    c = class (d);
  endif
endfunction

%!assert (classUnderlying (single (1)), "single")
%!assert (classUnderlying (true), "logical")
%!testif ; ! isempty (gpuscan_info ().device_arrays)
%! assert (classUnderlying (gpuscan_array (uint16 ([1 2]))), "uint16");
%! assert (classUnderlying (gpuscan_array (1i)), "double");
%!error <Invalid call> classUnderlying ()

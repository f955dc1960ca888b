## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn {} {@var{tf} =} existsOnGPU (@var{d})
## True if @var{d} is a device array whose memory is still on the GPU; false for one
## freed by @code{pkg unload gpuscan} or a GPU reset (using it gives
## @code{gpuscan:stale}), and for anything else.  The name is MATLAB's, for
## @code{gpuArray}.
## @seealso{gpuscan_array}
## @end deftypefn

function tf = existsOnGPU (d)
  if (nargin != 1)
    print_usage ();
  endif
  tf = __gpuscan__ ("live", d);
endfunction

%!assert (existsOnGPU ([1 2 3]), false)
%!testif ; ! isempty (gpuscan_info ().device_arrays)
%! assert (existsOnGPU (gpuscan_array ([1 2 3])));
%! assert (existsOnGPU (gpuscan_array (zeros (0, 2))));
%!error <Invalid call> existsOnGPU ()

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## isequal (D, X, ...): isequal of the host arrays (device arrays gathered), a host logical
## as MATLAB's isequal of gpuArrays is
function t = isequal (varargin)
  args = host_args (varargin);
  t = isequal (args{:});
endfunction

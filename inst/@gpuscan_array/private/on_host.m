## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## [Y1, Y2, ...] = on_host (F, ARGS...): F of the host arrays of ARGS (device arrays
## gathered), each output a device array: the reductions and casts of device arrays,
## through host memory until kernels take them (gpuscan_array's help)
function varargout = on_host (f, varargin)
  args = host_args (varargin);
  [varargout{1:max (nargout, 1)}] = f (args{:});
  ## (in a method, gpuscan_array names the class, not the function)
  varargout = cellfun (@(y) __gpuscan__ ("upload", y), varargout, "UniformOutput", false);
endfunction

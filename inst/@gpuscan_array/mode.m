## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## mode of a device array (or with one among the arguments): Octave's mode, each output a
## device array (through host memory: @gpuscan_array/private/on_host.m; Octave's own
## switches on its classes and would call a device array the wrong type)
function varargout = mode (varargin)
  [varargout{1:max (nargout, 1)}] = on_host (@mode, varargin{:});
endfunction

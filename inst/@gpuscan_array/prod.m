## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## prod of a device array: Octave's prod, a device array (through host memory:
## @gpuscan_array/private/on_host.m)
function y = prod (varargin)
  y = on_host (@prod, varargin{:});
endfunction

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## num2str (D, ...): num2str of the host array (a string, as for a host array)
function s = num2str (varargin)
  args = host_args (varargin);
  s = num2str (args{:});
endfunction

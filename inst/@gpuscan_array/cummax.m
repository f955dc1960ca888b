## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## [W, IW] = cummax (D, ...): gpuscan (D, "max", ...) on the GPU, device arrays; DIM, and
## MATLAB's "reverse" and "omitnan"/"includenan" as gpuscan takes them
function varargout = cummax (d, varargin)
  opts = scan_options ("cummax", varargin);
  [varargout{1:max (nargout, 1)}] = gpuscan (d, opts{:}, "max");
endfunction

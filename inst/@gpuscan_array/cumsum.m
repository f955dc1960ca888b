## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## cumsum (D, ...): gpuscan (D, "sum", ...) on the GPU, a device array; DIM, "native",
## "double", and MATLAB's "reverse" and "omitnan" as gpuscan takes them
function y = cumsum (d, varargin)
  opts = scan_options ("cumsum", varargin);
  y = gpuscan (d, opts{:}, "sum");
endfunction

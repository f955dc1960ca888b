## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## cumprod (D, ...): gpuscan (D, "prod", ...) on the GPU, a device array; DIM, and
## MATLAB's "reverse" and "omitnan" as gpuscan takes them
function y = cumprod (d, varargin)
  opts = scan_options ("cumprod", varargin);
  y = gpuscan (d, opts{:}, "prod");
endfunction

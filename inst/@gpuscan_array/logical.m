## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## logical (D): the device array D converted by Octave's logical, a device array (through host
## memory)
function y = logical (d)
  y = __gpuscan__ ("cast", d, "logical");
endfunction

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## uint64 (D): the device array D converted by Octave's uint64, a device array (through host
## memory)
function y = uint64 (d)
  y = __gpuscan__ ("cast", d, "uint64");
endfunction

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## uint16 (D): the device array D converted as Octave's uint16 converts, a device array (on the
## device, from every real class but int64 and uint64; else through host memory)
function y = uint16 (d)
  y = __gpuscan__ ("cast", d, "uint16");
endfunction

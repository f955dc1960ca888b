## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## ARGS = host_args (ARGS): the cell ARGS with each device array gathered
function args = host_args (args)
  for i = 1:numel (args)
    if (isa (args{i}, "gpuscan_array"))
      args{i} = gather (args{i});
    endif
  endfor
endfunction

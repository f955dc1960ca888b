## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## OPTS = scan_options (NAME, ARGS): the arguments after D of NAME (D, ...) for cumsum,
## cumprod, cummax and cummin of a device array, which gpuscan takes as they are: DIM and
## MATLAB's option names; any other option is an error that names those
function opts = scan_options (name, args)
  known = {"all", "forward", "reverse", "omitnan", "includenan", "omitmissing", ...
           "includemissing"};
  if (any (strcmp (name, {"cumsum", "cumprod"})))
    known = [{"native", "double"}, known];
  else
    known = [known, {"linear", "ComparisonMethod", "auto", "real", "abs"}];
  endif
  for i = 1:numel (args)
    if (ischar (args{i}) && ! any (strcmpi (args{i}, known)))
      error ("gpuscan:option", "%s of a device array takes DIM and %s, not \"%s\"",
             name, strjoin (strcat ('"', known, '"'), ", "), args{i});
    endif
  endfor
  opts = args;
endfunction

## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## `pkg install` calls this in the unpacked package once the files are in place: the
## Info manual of the functions (src/doc.info, where makeinfo made it) goes beside them,
## where `doc NAME` looks for it: the m-files' folder and the compiled function's.  The
## MEX file's help is its m-file's, which Octave reads only beside the MEX file.
function post_install (desc)
  for mex = dir (fullfile (desc.archprefix, "*", "gpuscan_mex.mex"))'
    copyfile (fullfile (desc.dir, "gpuscan_mex.m"), mex.folder);
  endfor
  manual = fullfile ("src", "doc.info");
  if (! exist (manual, "file"))
    return;
  endif
  copyfile (manual, desc.dir);
  for oct = dir (fullfile (desc.archprefix, "*", "gpuscan.oct"))'
    copyfile (manual, oct.folder);
  endfor
endfunction

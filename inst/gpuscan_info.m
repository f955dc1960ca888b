## Copyright (C) 2026 The gpuscan developers
##
## This program is free software: you can redistribute it and/or modify it
## under the terms of the GNU General Public License as published by the Free
## Software Foundation, either version 3 of the License, or (at your option)
## any later version.  See the file COPYING.

## -*- texinfo -*-
## @deftypefn  {} {} gpuscan_info ()
## @deftypefnx {} {@var{info} =} gpuscan_info ()
## Report what gpuscan can use on this machine.
##
## Without an output, print it; with one, return a struct with the fields
## @table @code
## @item engines
## cell array: @qcode{"cpu"}, and @qcode{"cuda"} when a usable GPU is present
## @item algorithms
## the names the @qcode{"algorithm"} option of @code{gpuscan} accepts here
## @item cuda_built, cuda_archs
## whether the package was built with the CUDA engine, and for which @code{sm_}
## architectures
## @item gpu_count, gpu_name, compute_capability, gpu_memory_bytes
## the GPU in use (device 0)
## @item driver_version, runtime_version
## CUDA driver and runtime versions (1000*major + 10*minor)
## @item gpu_status
## @qcode{"ok"}, or why no GPU is usable
## @item cpu_threads
## threads of the CPU engine (@env{OMP_NUM_THREADS} sets it)
## @item auto_crossover
## the size (elements) from which @qcode{"auto"} runs on the GPU: measured at the first
## @qcode{"auto"} call of 2^16 elements or more (the CPU engine and the GPU with its
## transfers, both timed on this machine); 0 when the GPU never won, -1 before that
## first measurement (@env{GPUSCAN_CROSSOVER} sets it, @env{GPUSCAN_ENGINE} forces
## @qcode{"cpu"} or @qcode{"gpu"})
## @item gpu_memory_held_bytes
## device and pinned host memory gpuscan keeps between calls (buffers grow to the
## largest scan so far and are freed by @code{clear gpuscan}, @code{clear all} and exit)
## @end table
## @seealso{gpuscan}
## @end deftypefn

function info = gpuscan_info ()
  ## Only reached when the compiled gpuscan_info.oct is missing from the path.
  error ("gpuscan:not_built",
         "gpuscan_info: the compiled function is missing; build or install the package");
endfunction

%!test
%! s = gpuscan_info ();
%! assert (isstruct (s));
%! assert (any (strcmp (s.engines, "cpu")));
%! assert (all (ismember ({"auto", "cpu"}, s.algorithms)));
%! assert (s.cpu_threads >= 1);
%! assert (s.gpu_count > 0 || ! any (strcmp (s.engines, "cuda")));
%!test
%! out = evalc ("gpuscan_info ()");
%! assert (! isempty (strfind (out, "CPU threads")));
%!error id=gpuscan:nargin gpuscan_info (1)

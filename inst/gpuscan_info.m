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
## @item version, commit
## the package version, and the source commit it was built from (@qcode{"unknown"}
## where neither a git clone nor the release tarball said)
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
## @item gpu_tuning
## the kernels' tuning table (one an architecture, chosen by the GPU's compute
## capability) and the GPU's limits they take: SMs, threads and shared memory an SM,
## shared memory a block (@qcode{""} without a GPU).  For tests, @env{GPUSCAN_TUNING}
## takes another table (@qcode{"sm_90"}, @qcode{"sm_80"}, @qcode{"sm_86"},
## @qcode{"sm_75"}, @qcode{"default"}) and @env{GPUSCAN_DEVICE_LIMITS} clamps the
## limits to a smaller GPU's (@qcode{"a100"}, @qcode{"rtx4090"}, @qcode{"t4"})
## @item cpu_threads
## threads of the CPU engine (@env{OMP_NUM_THREADS} sets it)
## @item auto_crossover
## for one vector, for the columns of a matrix (dim 1) and for any other dimension:
## the smallest size (a power of two, elements) where @qcode{"auto"} has chosen the
## GPU.  @qcode{"auto"} times its own calls of 2^16 elements or more, per shape and
## power-of-two size: three on the GPU (transfers included) and three on the CPU
## engine, then the faster of the two (and one call in 16 on the other, to check
## again).  0 when the CPU won at every size measured so far, -1 before any size is
## measured, and always where no GPU is usable (@env{GPUSCAN_CROSSOVER} sets all three, with no measuring;
## @env{GPUSCAN_ENGINE} forces @qcode{"cpu"} or @qcode{"gpu"})
## @item gpu_memory_held_bytes
## device and pinned host memory gpuscan keeps between calls (buffers grow to the
## largest scan so far and are freed by @code{pkg unload} and at exit)
## @item device_arrays
## where @code{gpuscan_array} keeps its data: @qcode{"cuda"}, @qcode{"host"} (the
## test stand-in that @env{GPUSCAN_HOST_ARRAYS}=1 selects) or @qcode{""} (no GPU)
## @item device_array_count, device_array_bytes
## the device arrays alive and the GPU memory they hold
## @item fault_injection
## true only in a test build that makes CUDA calls fail on demand
## (@code{--enable-fault-injection}); false in every build for users
## @end table
## @seealso{gpuscan}
## @end deftypefn

function info = gpuscan_info (varargin)
  if (nargin != 0)
    error ("gpuscan:nargin", "gpuscan_info: takes no arguments");
  endif
  s = __gpuscan__ ("info");
  if (nargout > 0)
    info = s;
    return;
  endif
  printf ("gpuscan %s (%s): engines: %s\n", s.version, s.commit, strjoin (s.engines, " "));
  printf ("  CPU threads:       %d\n", s.cpu_threads);
  if (s.cuda_built)
    printf ("  CUDA engine built: yes (sm %s)\n", s.cuda_archs);
  else
    printf ("  CUDA engine built: no\n");
  endif
  if (s.gpu_count > 0)
    printf ("  GPU:               %s, compute capability %s, %.1f GiB\n", s.gpu_name,
            s.compute_capability, s.gpu_memory_bytes / 2^30);
    printf ("  driver/runtime:    %d / %d\n", s.driver_version, s.runtime_version);
    printf ("  kernels:           %s\n", s.gpu_tuning);
    shapes = {"vectors", "columns", "other dims"};
    for k = 1:numel (shapes)
      c = s.auto_crossover(k);
      if (c < 0)
        what = "not measured yet";
      elseif (c == 0)
        what = "never so far (the CPU engine was faster at every size measured)";
      else
        what = sprintf ("from %d elements (sizes measured so far)", c);
      endif
      printf ("  auto crossover:    %-10s %s\n", shapes{k}, what);
    endfor
  else
    printf ("  GPU:               none (%s)\n", s.gpu_status);
  endif
  printf ("  device arrays:     %s (%d alive, %.1f MiB)\n",
          ifelse_str (s.device_arrays, "unavailable"), s.device_array_count,
          s.device_array_bytes / 2^20);
  printf ("  algorithms:        %s\n", strjoin (s.algorithms, " "));
endfunction

function s = ifelse_str (s, other)
  if (isempty (s))
    s = other;
  endif
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
%! assert (! isempty (strfind (out, "device arrays")));
%!test
%! s = gpuscan_info ();
%! assert (any (strcmp (s.device_arrays, {"cuda", "host", ""})));
%! assert (s.device_array_count >= 0 && s.device_array_bytes >= 0);
%!test
%! ## every field is documented in the help
%! s = gpuscan_info ();
%! txt = get_help_text ("gpuscan_info");
%! for f = fieldnames (s)'
%!   assert (! isempty (regexp (txt, ['@item[^\n]*\<' f{1} '\>'], "once")), f{1});
%! endfor
%! assert (ischar (s.version) && ischar (s.commit) && ! isempty (s.commit));
%!test
%! ## no usable GPU: nothing measured, and the reason in words
%! s = gpuscan_info ();
%! if (s.gpu_count == 0)
%!   assert (s.auto_crossover, [-1 -1 -1]);
%!   assert (isempty (strfind (s.gpu_status, "insufficient")), s.gpu_status);
%! endif
%!test
%! ## on a GPU: the tuning table of its architecture, others on demand (the test matrix
%! ## runs the suite under them), and a clear error for a name the kernels do not know
%! s = gpuscan_info ();
%! if (s.gpu_count > 0)
%!   assert (strncmp (s.gpu_tuning, "tuning ", 7), s.gpu_tuning);
%!   x = rand (3e6, 1);
%!   old = {getenv("GPUSCAN_TUNING"), getenv("GPUSCAN_DEVICE_LIMITS")};
%!   unwind_protect
%!     for t = {"sm_75", "sm_80", "default"}
%!       setenv ("GPUSCAN_TUNING", t{1});
%!       assert (gpuscan (x, "algorithm", "decoupled"), cumsum (x), 1e-9 * numel (x));
%!       assert (strncmp (gpuscan_info ().gpu_tuning, ["tuning " t{1} ","], 8 + numel (t{1})));
%!     endfor
%!     setenv ("GPUSCAN_TUNING", "sm_1");
%!     fail ('gpuscan (x, "algorithm", "decoupled")',
%!           'no tuning table "sm_1" \(sm_90, sm_80, sm_86, sm_75, default\)');
%!     setenv ("GPUSCAN_TUNING", "");
%!     setenv ("GPUSCAN_DEVICE_LIMITS", "k80");
%!     fail ('gpuscan (x, "algorithm", "decoupled")',
%!           'no device limits "k80" to clamp to \(a100, rtx4090, t4\)');
%!     setenv ("GPUSCAN_DEVICE_LIMITS", "t4");
%!     assert (gpuscan (x, "algorithm", "decoupled"), cumsum (x), 1e-9 * numel (x));
%!     assert (! isempty (strfind (gpuscan_info ().gpu_tuning, "clamped to t4")));
%!   unwind_protect_cleanup
%!     setenv ("GPUSCAN_TUNING", old{1});
%!     setenv ("GPUSCAN_DEVICE_LIMITS", old{2});
%!   end_unwind_protect
%! endif
%!error id=gpuscan:nargin gpuscan_info (1)

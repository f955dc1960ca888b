// gpuscan_info gateway: reports the engines, the GPU and the build.
// Help and tests: inst/gpuscan_info.m.

#include <octave/oct.h>
#include <octave/ov-struct.h>

#include "engine.h"

DEFUN_DLD (gpuscan_info, args, nargout,
           "-*- texinfo -*-\n@deftypefn {} {@var{info} =} gpuscan_info ()\n"
           "See @code{help gpuscan_info} with the package loaded.\n@end deftypefn")
{
  if (args.length () != 0)
    error_with_id ("gpuscan:nargin", "gpuscan_info: takes no arguments");
  engine_info e;
  engine_get_info (&e);

  Cell engines (1, e.gpu_count > 0 ? 2 : 1);
  engines(0) = "cpu";
  if (e.gpu_count > 0)
    engines(1) = "cuda";
  Cell algorithms (1, e.gpu_count > 0 ? ALG_COUNT : 2);
  for (int a = 0; a < algorithms.numel (); a++)
    algorithms(a) = engine_algorithm_name (static_cast<scan_algorithm> (a));

  octave_scalar_map s;
  s.assign ("engines", octave_value (engines));
  s.assign ("algorithms", octave_value (algorithms));
  s.assign ("cuda_built", e.has_cuda != 0);
  s.assign ("cuda_archs", std::string (e.cuda_archs));
  s.assign ("gpu_count", e.gpu_count);
  s.assign ("gpu_name", std::string (e.gpu_name));
  s.assign ("compute_capability", std::to_string (e.cc_major) + "." + std::to_string (e.cc_minor));
  s.assign ("gpu_memory_bytes", e.gpu_mem_bytes);
  s.assign ("driver_version", e.driver_version);
  s.assign ("runtime_version", e.runtime_version);
  s.assign ("gpu_status", std::string (e.gpu_status));
  s.assign ("cpu_threads", e.cpu_threads);
  s.assign ("auto_crossover", e.crossover);
  s.assign ("gpu_memory_held_bytes", e.gpu_held_bytes);

  if (nargout == 0)
    {
      octave_stdout << "gpuscan: engines:";
      for (int i = 0; i < engines.numel (); i++)
        octave_stdout << ' ' << engines(i).string_value ();
      octave_stdout << "\n  CPU threads:      " << e.cpu_threads
                    << "\n  CUDA engine built: " << (e.has_cuda ? "yes" : "no");
      if (e.has_cuda)
        octave_stdout << " (sm " << e.cuda_archs << ")";
      octave_stdout << "\n  GPU:              ";
      if (e.gpu_count > 0)
        octave_stdout << e.gpu_name << ", compute capability " << e.cc_major << '.'
                      << e.cc_minor << ", " << e.gpu_mem_bytes / (1 << 30) << " GiB"
                      << "\n  driver/runtime:   " << e.driver_version << " / "
                      << e.runtime_version
                      << "\n  auto crossover:   " << e.crossover << " elements";
      else
        octave_stdout << "none (" << e.gpu_status << ")";
      octave_stdout << "\n  algorithms:      ";
      for (int i = 0; i < algorithms.numel (); i++)
        octave_stdout << ' ' << algorithms(i).string_value ();
      octave_stdout << "\n";
      return octave_value_list ();
    }
  return octave_value (s);
}

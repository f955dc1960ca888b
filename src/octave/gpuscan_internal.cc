// __gpuscan__: the gateway of everything besides the host scan, in gpuscan.oct so that
// it shares the engine's state (GPU buffers, device arrays) with gpuscan:
//   __gpuscan__ ("info")                 the struct gpuscan_info returns
//   __gpuscan__ ("gather", d)            the host array of a device array
//   __gpuscan__ ("gather_values", ...)    gather: each argument, device arrays as host
//                                        arrays (the others as they are)
//   __gpuscan__ ("class", d)             the class of its elements
//   __gpuscan__ ("live", d)              whether its memory is still there
//   __gpuscan__ ("compact", x, mask)     x(mask), host or device
//   __gpuscan__ ("trace", x, alg, pad, engine)  [rows, steps, engine used] of
//                                        gpuscan_trace (engine "auto", "cpu", "gpu")
//   __gpuscan__ ("upload", x)            a device array of host array x, or a copy on
//                                        the device of a device array x (gpuscan_array,
//                                        and the methods in inst/@gpuscan_array, where
//                                        gpuscan_array names the class, not the function)
//   __gpuscan__ ("cast", d, class)       d in class (single, int8, ...: the methods of
//                                        inst/@gpuscan_array), on the device where the
//                                        element-wise rule covers it
//   __gpuscan__ ("filter", b, a, x, ...)  [y, zf] of gpuscan_filter where Octave takes
//                                        inst/gpuscan_filter.m (a handle to it): filter.h
//   __gpuscan__ ("wait")                 wait for the device work queued so far (timings)
//   __gpuscan__ ("release")              free everything the engine holds

#include <octave/oct.h>
#include <octave/ov-struct.h>
#include <octave/parse.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "build_info.h"
#include "compaction.h"
#include "device_array.h"
#include "device_elementwise.h"
#include "device_ops.h"
#include "device_type.h"
#include "engine/engine.h"
#include "filter.h"
#include "gpuscan.h"
#include "base/scan_desc.h"
#include "scan_request.h"

// (src/pkg_add.cc holds the package's PKG_ADD and PKG_DEL: they autoload __gpuscan__
// and release its memory before the oct-file goes)

namespace
{
  // d in class cls (a real class's name): on the device, else Octave's cast function
  // of the gathered array
  octave_value cast (const octave_value& d, const std::string& cls)
  {
    scan_type t;
    if (scan_type_find (cls, false, t))
      {
        const octave_value r = device_cast (d, t);
        if (r.is_defined ())
          return r;
        return device_result (octave::feval (cls, octave_value_list (host_value (d)), 1)(0),
                              cls + " (D)");
      }
    error_with_id ("gpuscan:internal", "__gpuscan__: \"cast\" takes a real class's name, "
                   "not \"%s\"", cls.c_str ());
  }

  octave_value info ()
  {
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
    s.assign ("version", std::string (GPUSCAN_VERSION));
    s.assign ("commit", std::string (GPUSCAN_COMMIT));
    s.assign ("engines", octave_value (engines));
    s.assign ("algorithms", octave_value (algorithms));
    s.assign ("cuda_built", e.has_cuda != 0);
    s.assign ("cuda_archs", std::string (e.cuda_archs));
    s.assign ("gpu_count", e.gpu_count);
    s.assign ("gpu_name", std::string (e.gpu_name));
    s.assign ("compute_capability", std::to_string (e.cc_major) + "."
                                    + std::to_string (e.cc_minor));
    s.assign ("gpu_memory_bytes", e.gpu_mem_bytes);
    s.assign ("driver_version", e.driver_version);
    s.assign ("runtime_version", e.runtime_version);
    s.assign ("gpu_status", std::string (e.gpu_status));
    s.assign ("gpu_tuning", std::string (e.gpu_tuning));
    s.assign ("cpu_threads", e.cpu_threads);
    RowVector crossover (SHAPE_CLASSES);
    for (int c = 0; c < SHAPE_CLASSES; c++)
      crossover(c) = e.crossover[c];
    s.assign ("auto_crossover", crossover);
    s.assign ("gpu_memory_held_bytes", e.gpu_held_bytes);
    s.assign ("device_arrays", std::string (e.array_backend));
    s.assign ("device_array_count", e.array_count);
    s.assign ("device_array_bytes", e.array_bytes);
    s.assign ("fault_injection", e.fault_injection != 0);
    return s;
  }
}

namespace
{
  // gpuscan_trace's run of a classic block scan: the array after each step (a row each,
  // the loaded one first) and a struct array of the steps (name, threads, adds,
  // conflicts, and the adds as arrows from -> to, 1-based)
  octave_value_list trace (const octave_value& xv, const octave_value& alg,
                           const octave_value& pad, const std::string& engine)
  {
    if (! (xv.isnumeric () || xv.islogical ()) || xv.iscomplex () || xv.issparse ()
        || xv.ndims () != 2 || (xv.rows () != 1 && xv.columns () != 1) || xv.numel () < 1
        || xv.numel () > TRACE_MAX_ELEMENTS)
      error_with_id ("gpuscan:trace", "gpuscan_trace: X must be a real vector of 1 to %d "
                     "elements (one block)", (int) TRACE_MAX_ELEMENTS);
    const std::string name = alg.is_string () ? alg.string_value () : "";
    if (name != "kogge-stone" && name != "brent-kung" && name != "blelloch")
      error_with_id ("gpuscan:trace", "gpuscan_trace: ALGORITHM must be \"kogge-stone\", "
                     "\"brent-kung\" or \"blelloch\"");
    const trace_algorithm a = name == "kogge-stone" ? TRACE_KOGGE_STONE
                              : name == "brent-kung" ? TRACE_BRENT_KUNG : TRACE_BLELLOCH;
    const NDArray x = xv.array_value ();
    const int n = (int) x.numel ();
    const int nsteps = engine_trace_steps (a, n);
    Matrix rows (n, nsteps + 1);   // (transposed below: a row a step)
    std::vector<trace_step> steps (nsteps + 1);
    std::vector<int> from ((size_t) n * nsteps + 1), to (from.size ()), step_of (from.size ());
    int arrows = 0;
    if (engine != "auto" && engine != "cpu" && engine != "gpu")
      error_with_id ("gpuscan:trace", "gpuscan_trace: \"engine\" must be \"auto\", \"cpu\" "
                     "or \"gpu\"");
    trace_engine used;
    char msg[512] = "";
    if (engine_trace (a, pad.bool_value (), x.data (), n, rows.fortran_vec (), steps.data (),
                      from.data (), to.data (), step_of.data (), &arrows,
                      engine == "cpu" ? TRACE_ON_CPU : engine == "gpu" ? TRACE_ON_GPU
                                                                       : TRACE_ON_ANY,
                      &used, msg, sizeof msg) < 0)
      error_with_id ("gpuscan:trace", "gpuscan_trace: %s", msg);
    const dim_vector dv (nsteps, 1);
    Cell names (dv), threads (dv), adds (dv), conflicts (dv), froms (dv), tos (dv);
    for (int k = 0; k < nsteps; k++)
      {
        int m = 0;
        for (int j = 0; j < arrows; j++)
          m += step_of[j] == k;
        RowVector f (m), t (m);
        for (int j = 0, i = 0; j < arrows; j++)
          if (step_of[j] == k)
            {
              f(i) = from[j] + 1;
              t(i++) = to[j] + 1;
            }
        names(k) = std::string (steps[k].name);
        threads(k) = steps[k].threads;
        adds(k) = steps[k].adds;
        conflicts(k) = steps[k].conflicts;
        froms(k) = f;
        tos(k) = t;
      }
    octave_map info (dv);
    info.setfield ("name", names);
    info.setfield ("threads", threads);
    info.setfield ("adds", adds);
    info.setfield ("conflicts", conflicts);
    info.setfield ("from", froms);
    info.setfield ("to", tos);
    octave_value_list out;
    out(0) = rows.transpose ();
    out(1) = info;
    out(2) = used == TRACE_ON_GPU ? "gpu" : "cpu";
    return out;
  }
}

DEFUN_DLD (__gpuscan__, args, nargout,
           "-*- texinfo -*-\n@deftypefn {} {} __gpuscan__ (@var{what}, @dots{})\n"
           "Internal to the gpuscan package (gpuscan_info, gpuscan_array, gpuscan_filter, "
           "gpuscan_compact).\n@end deftypefn")
{
  gateway_start ();
  if (args.length () < 1 || ! args(0).is_string ())
    error_with_id ("gpuscan:internal", "__gpuscan__: internal to the gpuscan package");
  engine_set_warning_handler (octave_engine_warning);
  const std::string what = args(0).string_value ();
  const int nargs = args.length ();
  if (what == "info" && nargs == 1)
    return info ();
  if (what == "gather" && nargs == 2)
    return gather (device_array_of (args(1), "the device array"));
  if (what == "gather_values")
    {
      if (nargout > std::max (nargs - 1, 1))
        error_with_id ("gpuscan:nargout", "gather: %d outputs for %d inputs", nargout,
                       nargs - 1);
      return host_values (args.slice (1, nargs - 1));
    }
  if (what == "class" && nargs == 2)
    return octave_value (scan_type_class (device_array_of (args(1), "the device array").type));
  if (what == "live" && nargs == 2)
    {
      if (! is_device_array (args(1)))
        return octave_value (false);
      return octave_value (device_array_is_live (args(1)));
    }
  if (what == "compact" && nargs == 3)
    {
      if (is_device_array (args(1)))
        return compact_device (device_array_of (args(1), "X (argument 1)"), args(2));
      // (a device MASK of a host X: the host compaction)
      return compact_host (args(1), is_device_array (args(2))
                                      ? gather (device_array_of (args(2), "MASK")) : args(2));
    }
  if (what == "trace" && nargs == 5)
    return trace (args(1), args(2), args(3),
                  args(4).xstring_value ("__gpuscan__: ENGINE must be a string"));
  if (what == "upload" && nargs == 2)
    {
      if (! is_device_array (args(1)))
        return to_device (args(1));
      array_guard g;
      const device_array c = device_copy (device_array_of (args(1), "D"), g);
      return device_array_value (c, g);
    }
  if (what == "cast" && nargs == 3)
    return cast (args(1), args(2).xstring_value ("__gpuscan__: CLASS must be a string"));
  if (what == "plan" && nargs >= 2)
    return gpuscan_plan (args.slice (1, nargs - 1), std::max (nargout, 1));
  if (what == "filter" && nargs >= 4 && nargs <= 6)
    return filter_arrays (args.slice (1, nargs - 1));
  if (what == "wait" && nargs == 1)
    {
      char msg[512] = "";
      raise_engine_error (engine_array_wait (msg, sizeof msg), msg);
      return octave_value_list ();
    }
  if (what == "release" && nargs == 1)
    {
      engine_release ();
      return octave_value_list ();
    }
  error_with_id ("gpuscan:internal", "__gpuscan__: unknown request \"%s\"", what.c_str ());
}

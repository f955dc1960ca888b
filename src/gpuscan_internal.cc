// __gpuscan__: the gateway of everything besides the host scan, in gpuscan.oct so that
// it shares the engine's state (GPU buffers, device arrays) with gpuscan:
//   __gpuscan__ ("info")                 the struct gpuscan_info returns
//   __gpuscan__ ("upload", x)            a device array descriptor holding x
//   __gpuscan__ ("gather", desc)         the host array
//   __gpuscan__ ("copy", desc)           a device-to-device copy
//   __gpuscan__ ("free", id)             give a device array back (unknown ids: no-op)
//   __gpuscan__ ("scan", desc, ...)      gpuscan's options; descriptors of Y (and IY)
//   __gpuscan__ ("compact", x, mask)     x(mask), host or device (descriptors)
//   __gpuscan__ ("trace", x, alg, pad)   [rows, steps] of gpuscan_trace
//   __gpuscan__ ("release")              free everything the engine holds
// A descriptor is a struct (id, size, class, complex); inst/gpuscan_array.m wraps it.

#include <octave/oct.h>
#include <octave/ov-struct.h>

#include <cmath>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "build_info.h"
#include "engine/engine.h"
#include "base/scan_desc.h"
#include "scan_request.h"

// PKG_ADD: autoload ("__gpuscan__", "gpuscan.oct");
// PKG_DEL: if (exist ("__gpuscan__") == 3) __gpuscan__ ("release"); end
// PKG_DEL: autoload ("__gpuscan__", "gpuscan.oct", "remove");

namespace
{
  // A device array seen from the gateway.
  struct device_array
  {
    engine_array id = 0;
    dim_vector dims;
    scan_type type = SCAN_DOUBLE;
    octave_idx_type numel () const { return dims.safe_numel (); }
    size_t bytes () const { return static_cast<size_t> (numel ()) * scan_type_size (type); }
  };

  // Frees a device array at scope exit unless kept (errors unwind through it).
  class array_guard
  {
  public:
    engine_array id = 0;
    ~array_guard () { if (id) engine_array_free (id); }
    engine_array keep () { engine_array k = id; id = 0; return k; }
  };

  bool is_descriptor (const octave_value& v)
  {
    return v.isstruct () && v.numel () == 1 && v.map_value ().isfield ("id")
           && v.map_value ().isfield ("size");
  }

  [[noreturn]] void not_an_array (const char *what)
  {
    error_with_id ("gpuscan:descriptor", "gpuscan: %s is not a device array of this "
                   "Octave process (make one with gpuscan_array (X))", what);
  }

  // A descriptor's fields, checked against the registry: the id of a live array of
  // this class and size, never a number taken on trust.
  device_array from_descriptor (const octave_value& v, const char *what)
  {
    if (! is_descriptor (v))
      not_an_array (what);
    const octave_scalar_map m = v.scalar_map_value ();
    const octave_value id = m.getfield ("id"), size = m.getfield ("size"),
                       cls = m.getfield ("class"), cplx = m.getfield ("complex");
    if (! id.is_uint64_type () || id.numel () != 1 || ! size.is_double_type ()
        || size.iscomplex () || ! size.is_matrix_type () || size.rows () != 1
        || size.numel () < 2 || ! cls.is_string () || cls.rows () != 1
        || ! cplx.islogical () || cplx.numel () != 1)
      not_an_array (what);
    device_array a;
    a.id = id.uint64_scalar_value ().value ();
    const RowVector sz = size.row_vector_value ();
    a.dims = dim_vector::alloc (sz.numel ());
    for (octave_idx_type i = 0; i < sz.numel (); i++)
      {
        if (! (sz(i) >= 0 && sz(i) < 9007199254740992.0) || sz(i) != std::floor (sz(i)))
          not_an_array (what);
        a.dims(i) = static_cast<octave_idx_type> (sz(i));
      }
    a.dims.chop_trailing_singletons ();
    try
      {
        a.dims.safe_numel ();
      }
    catch (const std::bad_alloc&)   // (the element count overflows Octave's index)
      {
        not_an_array (what);
      }
    if (! scan_type_find (cls.string_value (), cplx.bool_value (), a.type))
      not_an_array (what);
    if (a.numel () == 0)
      {
        if (a.id != 0)
          not_an_array (what);
        return a;
      }
    if (! engine_array_data (a.id, nullptr))
      error_with_id ("gpuscan:stale", "gpuscan: %s names no live device array (gpuscan "
                     "was unloaded, the GPU was reset, or it never was one); create it "
                     "again", what);
    if (! engine_array_lookup (a.id, a.type, a.bytes ()))
      not_an_array (what);
    return a;
  }

  octave_value descriptor (const device_array& a)
  {
    octave_scalar_map m;
    m.assign ("id", octave_uint64 (a.id));
    RowVector sz (a.dims.ndims ());
    for (int i = 0; i < a.dims.ndims (); i++)
      sz(i) = static_cast<double> (a.dims(i));
    m.assign ("size", sz);
    m.assign ("class", std::string (scan_type_class (a.type)));
    m.assign ("complex", scan_type_complex (a.type));
    return m;
  }

  void *data (const device_array& a)
  {
    return a.numel () ? engine_array_data (a.id, nullptr) : nullptr;
  }

  // a new device array of this shape and type, freed by g unless kept
  device_array new_array (const dim_vector& dv, scan_type t, array_guard& g)
  {
    device_array a;
    a.dims = dv;
    a.type = t;
    char msg[512] = "";
    raise_engine_error (engine_array_new (a.bytes (), &g.id, msg, sizeof msg), msg);
    engine_array_set_kind (g.id, t);
    a.id = g.id;
    return a;
  }

  template <typename AT>
  octave_value gather_as (const device_array& a)
  {
    AT out = uninit<AT> (a.dims);
    char msg[512] = "";
    raise_engine_error (engine_array_download (a.id, out.fortran_vec (), a.bytes (), msg,
                                               sizeof msg), msg);
    return out;
  }

  octave_value gather (const device_array& a)
  {
    return with_array_type (a.type, [&] (auto tag) { return gather_as<decltype (tag)> (a); });
  }

  // Upload a host array into a new device array.
  template <typename AT>
  void upload_as (const AT& v, const device_array& a)
  {
    char msg[512] = "";
    raise_engine_error (engine_array_upload (a.id, v.data (), a.bytes (), msg, sizeof msg), msg);
  }

  device_array upload (const octave_value& x, array_guard& g)
  {
    const scan_type t = scan_type_of (x, "X");
    device_array a = new_array (x.dims (), t, g);
    with_array_type (t, [&] (auto tag) { upload_as (octave_value_extract<decltype (tag)> (x), a); });
    return a;
  }

  // head flags on the device from a host array or a device array
  const uint8_t *device_heads (const octave_value& f, const scan_desc& d,
                               const dim_vector& xdv, int& full, array_guard& g)
  {
    char msg[512] = "";
    if (! is_descriptor (f))
      {
        boolNDArray hold;
        host_segment_heads (f, xdv, d.len, full, hold);
        device_array h = new_array (hold.dims (), SCAN_LOGICAL, g);
        upload_as (hold, h);
        return static_cast<const uint8_t *> (data (h));
      }
    const device_array s = from_descriptor (f, "SEGMENTS");
    if (scan_type_complex (s.type))
      error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must be a real numeric or "
                     "logical array of head flags");
    full = segment_layout (s.dims, xdv, d.len, "SEGMENTS");
    if (s.type == SCAN_LOGICAL)
      return static_cast<const uint8_t *> (data (s));
    device_array h = new_array (s.dims, SCAN_LOGICAL, g);
    int nan = 0;
    raise_engine_error (engine_array_flags (s.type, data (s), static_cast<uint8_t *> (data (h)),
                                            s.numel (), &nan, msg, sizeof msg), msg);
    if (nan)
      error_with_id ("gpuscan:segments", "gpuscan: SEGMENTS must not contain NaN");
    return static_cast<const uint8_t *> (data (h));
  }

  octave_value_list scan (const octave_value_list& args, int nargout)
  {
    const device_array x = from_descriptor (args(1), "X (argument 1)");
    const scan_request r = parse_scan_options (args.slice (1, args.length () - 1), 1);
    scan_desc d = plan_scan (x.dims, x.type, r, nargout);
    if (r.has_groups)
      error_with_id ("gpuscan:groups", "gpuscan: \"groups\" takes a host X; gather the "
                     "device array first (or sort it by label and use \"keys\")");
    if (r.op == SCAN_RECURRENCE)
      error_with_id ("gpuscan:recurrence", "gpuscan: \"recurrence\" takes a host X; gather "
                     "the device array first");
    array_guard yg, ixg, heads_g;
    const device_array y = new_array (x.dims, d.type, yg);
    device_array ix;
    if (nargout > 1)
      ix = new_array (x.dims, SCAN_DOUBLE, ixg);
    if (r.has_segments)
      d.heads = device_heads (r.segments, d, x.dims, d.heads_full, heads_g);
    else if (r.has_keys)
      d.heads = device_heads (key_heads (r.keys, x.dims, d), d, x.dims, d.heads_full, heads_g);
    char msg[512] = "";
    d.x = data (x);
    array_guard converted_g;
    if (d.type != x.type && x.numel ())
      {
        // Octave's class rules: convert first, into an array of its own (a scan in
        // place would have to read each element before writing its output); logical
        // operators scan logical (X)
        const device_array c = new_array (x.dims, d.type, converted_g);
        if (d.type == SCAN_LOGICAL)
          {
            int nan = 0;
            raise_engine_error (engine_array_flags (x.type, data (x), static_cast<uint8_t *> (data (c)),
                                                    x.numel (), &nan, msg, sizeof msg), msg);
            if (nan)
              error_nan_to_logical ();
          }
        else
          raise_engine_error (engine_array_convert (x.type, d.type, data (x), data (c),
                                                    x.numel (), msg, sizeof msg), msg);
        d.x = data (c);
      }
    d.y = data (y);
    d.index = nargout > 1 ? static_cast<double *> (data (ix)) : nullptr;
    if (x.numel ())
      raise_engine_error (engine_array_scan (&d, r.algorithm, msg, sizeof msg), msg);
    octave_value_list out;
    yg.keep ();
    out(0) = descriptor (y);
    if (nargout > 1)
      {
        ixg.keep ();
        out(1) = descriptor (ix);
      }
    return out;
  }

  // the shape of x(mask) for a logical mask with numel (x) elements, as Octave's
  // Array<T>::index gives it: the mask's shape as an index (an N-d vector keeps its
  // orientation, anything else is a column), or x's own where both are N-d vectors
  dim_vector compact_dims (const dim_vector& xdv, const dim_vector& mdv, octave_idx_type kept)
  {
    if (xdv.numel () == 1)
      return kept ? dim_vector (1, 1) : dim_vector (0, 0);
    const dim_vector rd = mdv.is_nd_vector () ? mdv.make_nd_vector (kept)
                                              : dim_vector (kept, 1);
    if (xdv.is_nd_vector () && rd.is_nd_vector ())
      return xdv.make_nd_vector (kept);
    return rd;
  }

  void check_mask (const dim_vector& mdv, bool logical, const dim_vector& xdv)
  {
    if (! logical)
      error_with_id ("gpuscan:mask", "gpuscan_compact: MASK must be logical");
    if (mdv.numel () != xdv.numel ())
      error_with_id ("gpuscan:mask", "gpuscan_compact: MASK must have as many elements as "
                     "X (%s), got %s", xdv.str ().c_str (), mdv.str ().c_str ());
  }

  template <typename AT>
  octave_value compact_host_as (const AT& x, const boolNDArray& mask)
  {
    const uint8_t *m = reinterpret_cast<const uint8_t *> (mask.data ());
    const octave_idx_type kept = engine_count_nonzero (m, x.numel ());
    AT y = uninit<AT> (compact_dims (x.dims (), mask.dims (), kept));
    engine_compact (sizeof (typename AT::element_type), x.data (), m, x.numel (),
                    y.fortran_vec ());
    return y;
  }

  octave_value compact_host (const octave_value& x, const octave_value& mask)
  {
    const scan_type t = scan_type_of (x, "X (argument 1)");
    check_mask (mask.dims (), mask.islogical () && ! mask.issparse (), x.dims ());
    const boolNDArray m = mask.bool_array_value ();
    return with_array_type (t, [&] (auto tag) { return compact_host_as (octave_value_extract<decltype (tag)> (x), m); });
  }

  octave_value compact_device (const octave_value& xv, const octave_value& mv)
  {
    const device_array x = from_descriptor (xv, "X (argument 1)");
    array_guard mask_g;
    const uint8_t *mask;
    dim_vector mdv;
    if (is_descriptor (mv))
      {
        const device_array m = from_descriptor (mv, "MASK");
        check_mask (m.dims, m.type == SCAN_LOGICAL, x.dims);
        mask = static_cast<const uint8_t *> (data (m));
        mdv = m.dims;
      }
    else
      {
        check_mask (mv.dims (), mv.islogical () && ! mv.issparse (), x.dims);
        const boolNDArray hm = mv.bool_array_value ();
        const device_array m = new_array (hm.dims (), SCAN_LOGICAL, mask_g);
        upload_as (hm, m);
        mask = static_cast<const uint8_t *> (data (m));
        mdv = hm.dims ();
      }
    device_array y;
    y.type = x.type;
    int64_t kept = 0;
    if (x.numel ())
      {
        char msg[512] = "";
        raise_engine_error (engine_array_compact (scan_type_size (x.type), data (x), mask,
                                                  x.numel (), &y.id, &kept, msg, sizeof msg),
                            msg);
      }
    y.dims = compact_dims (x.dims, mdv, kept);
    engine_array_set_kind (y.id, y.type);
    return descriptor (y);
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
                           const octave_value& pad)
  {
    if (! (xv.isnumeric () || xv.islogical ()) || xv.iscomplex () || xv.issparse ()
        || xv.ndims () != 2 || (xv.rows () != 1 && xv.columns () != 1) || xv.numel () < 1
        || xv.numel () > TRACE_MAX_ELEMENTS)
      error_with_id ("gpuscan:trace", "gpuscan_trace: X must be a real vector of 1 to %d "
                     "elements (one block)", (int) TRACE_MAX_ELEMENTS);
    const std::string name = alg.is_string () ? alg.string_value () : "";
    if (name != "kogge-stone" && name != "brent-kung")
      error_with_id ("gpuscan:trace", "gpuscan_trace: ALGORITHM must be \"kogge-stone\" or "
                     "\"brent-kung\"");
    const trace_algorithm a = name == "kogge-stone" ? TRACE_KOGGE_STONE : TRACE_BRENT_KUNG;
    const NDArray x = xv.array_value ();
    const int n = (int) x.numel ();
    const int nsteps = engine_trace_steps (a, n);
    Matrix rows (n, nsteps + 1);   // (transposed below: a row a step)
    std::vector<trace_step> steps (nsteps + 1);
    std::vector<int> from ((size_t) n * nsteps + 1), to (from.size ()), step_of (from.size ());
    int arrows = 0;
    engine_trace (a, pad.bool_value (), x.data (), n, rows.fortran_vec (), steps.data (),
                  from.data (), to.data (), step_of.data (), &arrows);
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
    return out;
  }
}

DEFUN_DLD (__gpuscan__, args, nargout,
           "-*- texinfo -*-\n@deftypefn {} {} __gpuscan__ (@var{what}, @dots{})\n"
           "Internal to the gpuscan package (gpuscan_info, gpuscan_array, "
           "gpuscan_compact).\n@end deftypefn")
{
  if (args.length () < 1 || ! args(0).is_string ())
    error_with_id ("gpuscan:internal", "__gpuscan__: internal to the gpuscan package");
  engine_set_warning_handler (octave_engine_warning);
  const std::string what = args(0).string_value ();
  const int nargs = args.length ();
  if (what == "info" && nargs == 1)
    return info ();
  if (what == "upload" && nargs == 2)
    {
      array_guard g;
      const device_array a = upload (args(1), g);
      g.keep ();
      return descriptor (a);
    }
  if (what == "gather" && nargs == 2)
    return gather (from_descriptor (args(1), "the device array"));
  if (what == "copy" && nargs == 2)
    {
      device_array a = from_descriptor (args(1), "the device array");
      char msg[512] = "";
      raise_engine_error (engine_array_copy (a.id, &a.id, msg, sizeof msg), msg);
      return descriptor (a);
    }
  if (what == "free" && nargs == 2)
    {
      engine_array_free (args(1).uint64_scalar_value ().value ());
      return octave_value_list ();
    }
  if (what == "scan" && nargs >= 2)
    return scan (args, nargout);
  if (what == "compact" && nargs == 3)
    return is_descriptor (args(1)) ? compact_device (args(1), args(2))
                                   : compact_host (args(1), args(2));
  if (what == "trace" && nargs == 4)
    return trace (args(1), args(2), args(3));
  if (what == "release" && nargs == 1)
    {
      engine_release ();
      return octave_value_list ();
    }
  error_with_id ("gpuscan:internal", "__gpuscan__: unknown request \"%s\"", what.c_str ());
}

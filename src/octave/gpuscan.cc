// gpuscan gateway: parse and validate the arguments, apply Octave's class rules,
// allocate the outputs, fill one scan_desc and hand it to the engine dispatch.
//
// An oct-file rather than a MEX file: measured with Octave 7.3, a MEX call copies
// its output (a trivial MEX scan of 2^26 doubles took 1.7-3.2 s where cumsum took
// 0.5-0.6 s) and costs ~6 us against ~4.7 us for an oct-file on 1000 elements.
// The help text and the tests live in inst/gpuscan.m (its texinfo becomes the docstring
// below, gpuscan_help.h, made by src/Makefile).  A device array X (gpuscan_array) is
// scanned on the device (device_scan.cc); a host X takes device arrays among its options
// to host memory.

#include <octave/oct.h>

#include <memory>
#include <optional>

#include "device_array.h"
#include "device_scan.h"
#include "device_type.h"
#include "engine/engine.h"
#include "gpuscan.h"
#include "gpuscan_help.h"
#include "base/scan_desc.h"
#include "scan_dims.h"
#include "scan_groups.h"
#include "scan_request.h"
#include "sparse_scan.h"

namespace
{
  // the scan of X (an array of d's input type) into a new array of class AY, within
  // groups where there are; with a plan, only its words (engine_plan), and nothing runs
  template <typename AY, typename AX>
  octave_value run (const AX& in, scan_desc& d, scan_algorithm alg, octave_value& index,
                    const octave_value *groups, std::string *plan)
  {
    char msg[512] = "";
    if (plan)
      {
        char text[1024] = "";
        d.x = in.data ();
        std::optional<group_order> go;
        if (groups)   // (the plan of the scan of the sorted X)
          {
            go = order_groups (*groups, in.dims (), d);
            d.heads = go->heads_data ();
          }
        raise_engine_error (engine_plan (&d, alg, text, sizeof text, msg, sizeof msg), msg);
        *plan = text;
        return octave_value ();
      }
    AY out = uninit<AY> (in.dims ());
    std::optional<NDArray> idx;   // (an empty Octave array allocates too)
    d.x = in.data ();
    d.y = out.fortran_vec ();
    if (d.index)
      {
        idx = uninit<NDArray> (in.dims ());
        d.index = idx->fortran_vec ();
      }
    if (groups)
      scan_host_groups (*groups, in.dims (), d, alg);
    else
      raise_engine_error (engine_scan (&d, alg, msg, sizeof msg), msg);
    if (idx)
      index = *idx;
    return out;
  }

  octave_value_list host_scan (const octave_value& x, const scan_request& r, int nargout,
                               std::string *plan = nullptr)
  {
    const scan_type in = scan_type_of (x, "X (argument 1)");
    const dim_vector dv = x.dims ();
    scan_desc d = plan_scan (dv, in, r, nargout);
    d.index = nargout > 1 ? reinterpret_cast<double *> (1) : nullptr;   // set in run ()

    std::optional<boolNDArray> heads_hold;
    octave_value xin = d.type == SCAN_LOGICAL ? logical_operand (x) : x;
    std::shared_ptr<const void> coef_hold;
    if (d.op == SCAN_RECURRENCE)
      {
        coef_hold = recurrence_coef (r, dv, d);
        xin = as_recurrence_operand (x, d.type);
      }
    if (r.has_segments || r.has_keys)
      heads_hold.emplace ();
    if (r.has_segments)
      d.heads = host_segment_heads (r.segments, dv, d.len, d.heads_full, *heads_hold);
    else if (r.has_keys)
      d.heads = host_segment_heads (key_heads (r.keys, dv, d), dv, d.len, d.heads_full,
                                    *heads_hold);

    // a logical, integer or single X whose output is double is read as it is: no
    // converted copy (the engine layer makes one for an engine that needs it)
    d.input = d.type == SCAN_DOUBLE && d.op != SCAN_RECURRENCE && ! r.has_groups
              ? scan_input_of (in) : SCAN_INPUT_AS_OUTPUT;
    octave_value y, iy;
    const scan_algorithm alg = r.algorithm;
    if (d.input != SCAN_INPUT_AS_OUTPUT)
      y = with_array_type (in, [&] (auto tag) {
        return run<NDArray> (octave_value_extract<decltype (tag)> (x), d, alg, iy, nullptr, plan);
      });
    else
      y = with_array_type (d.type, [&] (auto tag) {
        typedef decltype (tag) AT;
        return run<AT> (octave_value_extract<AT> (xin), d, alg, iy,
                        r.has_groups ? &r.groups : nullptr, plan);
      });
    if (plan)
      return octave_value (*plan);

    octave_value_list retval;
    retval(0) = y;
    if (nargout > 1)
      retval(1) = iy;
    return retval;
  }

  // args with device arrays gathered into host memory but X, SEGMENTS and GROUPS, which
  // the device scan reads where they are
  octave_value_list on_host_but_segments_and_groups (const octave_value_list& args)
  {
    octave_value_list h = args;
    for (int i = 1; i < args.length (); i++)
      {
        const octave_value& o = args(i - 1);
        const bool read_on_device = o.is_string () && o.rows () == 1
                                    && (! strcasecmp (o.string_value ().c_str (), "segments")
                                        || ! strcasecmp (o.string_value ().c_str (), "groups"));
        if (! read_on_device)
          h(i) = host_value (args(i));
      }
    return h;
  }
}

octave_value gpuscan_plan (const octave_value_list& args, int nargout)
{
  if (args.length () < 1 || is_device_array (args(0)) || any_device_array (args)
      || args(0).issparse ())
    error_with_id ("gpuscan:plan", "__gpuscan__ (\"plan\", X, ...): X and the options are "
                   "host arrays, X not sparse");
  scan_request r = parse_scan_options (args, 1);
  std::string plan;
  if (! r.all && r.vecdim.empty () && ! r.linear)
    host_scan (args(0), r, nargout, &plan);
  else
    host_scan (fold_dims (args(0), r).x, r, nargout, &plan);
  return octave_value (plan);
}

DEFUN_DLD (gpuscan, args, nargout, DOCSTRING_gpuscan)
{
  gateway_start ();
  if (args.length () < 1)
    error_with_id ("gpuscan:nargin", "gpuscan: X is missing; usage: "
                   "Y = gpuscan (X, DIM, OPTION, ...)");
  engine_set_warning_handler (octave_engine_warning);
  const bool device = is_device_array (args(0));
  // (the common call, host arrays only, takes args as they are: each copy of an Octave
  // list or shape allocates, and a small scan's time is mostly such costs)
  std::optional<octave_value_list> gathered;
  if (device)
    gathered = on_host_but_segments_and_groups (args);
  else if (any_device_array (args))
    gathered = host_values (args);
  const octave_value_list& a = gathered ? *gathered : args;
  scan_request r = parse_scan_options (a, 1);
  if (! device && a(0).issparse ())
    return sparse_scan (a(0), r, nargout);
  if (! r.all && r.vecdim.empty () && ! r.linear)
    return device ? device_scan (a(0), r, nargout) : host_scan (a(0), r, nargout);
  const folded_scan f = fold_dims (a(0), r);
  return unfold_outputs (device ? device_scan (f.x, r, nargout) : host_scan (f.x, r, nargout),
                         f, r);
}

// The device-array handle (device_array.h): the value type's data, and the moves of
// device arrays' memory that every part of the gateway uses.

#include <octave/oct.h>

#include "device_array.h"
#include "scan_request.h"

namespace
{
  bool live (const device_array& a)
  {
    return ! a.id || engine_array_data (a.id, nullptr);
  }
}

void device_array_check (const device_array& a, const char *what)
{
  if (! live (a))
    error_with_id ("gpuscan:stale", "gpuscan: %s is a device array whose memory was "
                   "released (gpuscan was unloaded or the GPU was reset); create it "
                   "again", what);
}

DEFINE_OV_TYPEID_FUNCTIONS_AND_DATA (octave_device_array, "gpuscan_array", "gpuscan_array");

bool is_device_array (const octave_value& v)
{
  return octave_device_array::static_type_id () >= 0
         && v.type_id () == octave_device_array::static_type_id ();
}

device_array device_array_of (const octave_value& v, const char *what)
{
  if (! is_device_array (v))
    error_with_id ("gpuscan:type", "gpuscan: %s is not a device array (make one with "
                   "gpuscan_array (X))", what);
  const device_array& a = dynamic_cast<const octave_device_array&> (v.get_rep ()).array ();
  device_array_check (a, what);
  return a;
}

bool device_array_is_live (const octave_value& v)
{
  return live (dynamic_cast<const octave_device_array&> (v.get_rep ()).array ());
}

device_array new_device_array (const dim_vector& dv, scan_type t, array_guard& g)
{
  device_array a;
  a.dims = dv;
  a.type = t;
  char msg[512] = "";   // (also for an empty array: no GPU is an error all the same)
  raise_engine_error (engine_array_new (a.bytes (), &g.id, msg, sizeof msg), msg);
  a.id = g.id;
  return a;
}

octave_value device_array_value (const device_array& a, array_guard& g)
{
  octave_value v (new octave_device_array (a));   // (gateway_start registered the type)
  if (g.id == a.id)
    g.keep ();
  return v;
}

namespace
{
  template <typename AT>
  octave_value gather_as (const device_array& a)
  {
    AT out = uninit<AT> (a.dims);
    if (a.numel ())
      {
        char msg[512] = "";
        raise_engine_error (engine_array_download (a.id, out.fortran_vec (), a.bytes (),
                                                   msg, sizeof msg), msg);
      }
    return out;
  }

  template <typename AT>
  void upload_as (const AT& v, const device_array& a)
  {
    if (! a.numel ())
      return;
    char msg[512] = "";
    raise_engine_error (engine_array_upload (a.id, v.data (), a.bytes (), msg, sizeof msg), msg);
  }
}

octave_value gather_element (const device_array& a, octave_idx_type n)
{
  return with_array_type (a.type, [&] (auto tag) {
    typedef decltype (tag) AT;
    AT out = uninit<AT> (dim_vector (1, 1));
    char msg[512] = "";
    raise_engine_error (engine_array_read (a.id, n * scan_type_size (a.type), out.fortran_vec (),
                                           scan_type_size (a.type), msg, sizeof msg), msg);
    return octave_value (out).fast_elem_extract (0);
  });
}

octave_value gather (const device_array& a)
{
  return with_array_type (a.type, [&] (auto tag) { return gather_as<decltype (tag)> (a); });
}

device_array upload (const octave_value& x, array_guard& g)
{
  return upload (x, scan_type_of (x, "X"), g);
}

device_array upload (const octave_value& x, scan_type t, array_guard& g)
{
  device_array a = new_device_array (x.dims (), t, g);
  with_array_type (t, [&] (auto tag) { upload_as (octave_value_extract<decltype (tag)> (x), a); });
  return a;
}

octave_value to_device (const octave_value& x)
{
  array_guard g;
  const device_array a = upload (x, g);
  return device_array_value (a, g);
}

octave_value host_value (const octave_value& v)
{
  return is_device_array (v) ? gather (device_array_of (v, "a device array argument")) : v;
}

bool any_device_array (const octave_value_list& args)
{
  for (int i = 0; i < args.length (); i++)
    if (is_device_array (args(i)))
      return true;
  return false;
}

octave_value_list host_values (const octave_value_list& args)
{
  octave_value_list h = args;
  for (int i = 0; i < args.length (); i++)
    h(i) = host_value (args(i));
  return h;
}

device_array device_copy (const device_array& a, array_guard& g)
{
  device_array c = a;
  if (a.id)
    {
      char msg[512] = "";
      raise_engine_error (engine_array_copy (a.id, &g.id, msg, sizeof msg), msg);
      c.id = g.id;
    }
  return c;
}

bool device_converts (scan_type from, scan_type to)
{
  return (to == SCAN_DOUBLE && ! scan_type_complex (from))
         || (to == SCAN_CDOUBLE && from == SCAN_CSINGLE);
}

device_array device_convert (const device_array& a, scan_type to, array_guard& g)
{
  const device_array c = new_device_array (a.dims, to, g);
  if (a.numel ())
    {
      char msg[512] = "";
      raise_engine_error (engine_array_convert (a.type, to, a.data (), c.data (), a.numel (),
                                                msg, sizeof msg), msg);
    }
  return c;
}

// Device arrays in Octave: a value type of their own (class "gpuscan_array"), which
// holds the engine's id of the memory, the shape and the element type, and gives the
// memory back when the last copy of the value goes.  Octave's size, numel, ndims,
// isempty, isreal, isnumeric, isfloat, isinteger, islogical, class and isa read it
// without touching the memory; gpuscan, gpuscan_compact and gather take it (the scan:
// device_scan.h).

#ifndef GPUSCAN_DEVICE_ARRAY_H
#define GPUSCAN_DEVICE_ARRAY_H

#include <octave/oct.h>

#include "engine/engine.h"
#include "base/scan_desc.h"

// what the gateway reads of a device array
struct device_array
{
  engine_array id = 0;   // 0: no memory (an empty array)
  dim_vector dims;
  scan_type type = SCAN_DOUBLE;
  octave_idx_type numel () const { return dims.safe_numel (); }
  size_t bytes () const { return static_cast<size_t> (numel ()) * scan_type_size (type); }
  void *data () const { return numel () ? engine_array_data (id, nullptr) : nullptr; }
};

// at the top of every gateway function: registers the type, and keeps gpuscan.oct
// loaded from then on (device_array.cc says why)
void gateway_start ();

bool is_device_array (const octave_value& v);

// the device array v holds, checked to be live ("gpuscan:stale" if its memory was
// released); WHAT names v in errors
device_array device_array_of (const octave_value& v, const char *what);
// whether the memory of device array v is still there
bool device_array_is_live (const octave_value& v);

// Frees a new device array at scope exit unless kept (errors unwind through it).
class array_guard
{
public:
  engine_array id = 0;
  ~array_guard () { if (id) engine_array_free (id); }
  engine_array keep () { engine_array k = id; id = 0; return k; }
};

// a new device array of this shape and type, freed by g unless kept
device_array new_device_array (const dim_vector& dv, scan_type t, array_guard& g);

// the Octave value of a new device array: it now owns the memory (g keeps nothing)
octave_value device_array_value (const device_array& a, array_guard& g);

// host <-> device
device_array upload (const octave_value& x, array_guard& g);
// x's values in class t (Octave's conversion, in host memory), copied over
device_array upload (const octave_value& x, scan_type t, array_guard& g);
octave_value gather (const device_array& a);
// element n (0-based, in range) as a host scalar: one element's download
octave_value gather_element (const device_array& a, octave_idx_type n);
// a host array uploaded as the value of a new device array
octave_value to_device (const octave_value& x);
// v itself, or the host array of a device array v (each of a list)
octave_value host_value (const octave_value& v);
octave_value_list host_values (const octave_value_list& args);

// on the device: a copy of a, and a converted to TO (Octave's conversion), each a new
// device array freed by g unless kept
device_array device_copy (const device_array& a, array_guard& g);
device_array device_convert (const device_array& a, scan_type to, array_guard& g);
// the conversions device_convert makes: a real class to double, complex single to
// complex double
bool device_converts (scan_type from, scan_type to);

#endif

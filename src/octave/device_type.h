// The device-array value type's registration and its behaviours that reach the layers of
// the gateway above the handle (device_array.h): indexing, operators, element-wise
// functions, the host route.
//
// Octave keeps a value type's prototype in its type table for as long as the
// interpreter runs, and a live value calls into gpuscan.oct, so the oct-file that
// registers the type must stay loaded: every gateway function registers it at its first
// call and locks itself (mlock), so that `clear` never unloads gpuscan.oct.  The
// engine's memory is given back, and its state reset, by __gpuscan__ ("release"), which
// `pkg unload` runs (PKG_DEL); a value that outlives it is stale, and says so when used.

#ifndef GPUSCAN_DEVICE_TYPE_H
#define GPUSCAN_DEVICE_TYPE_H

// at the top of every gateway function: registers the type and its operators, and
// keeps gpuscan.oct loaded from then on
void gateway_start ();

#endif

// Gateway layer: the options of a gpuscan call and Octave's class rules, shared by the
// host call (gpuscan.cc) and the device-array calls (gpuscan_internal.cc).
#ifndef GPUSCAN_SCAN_REQUEST_H
#define GPUSCAN_SCAN_REQUEST_H

#include <octave/oct.h>

#include <memory>
#include <vector>

#include "engine/engine.h"
#include "engine/scan_request.h"
#include "base/scan_desc.h"

// The options of a call (engine/scan_request.h parses them), with the values of those
// that take one, as the gateway reads them.
struct scan_request
{
  scan_options options;      // as parsed
  scan_op op = SCAN_SUM;
  int exclusive = -1;        // -1: not given
  int reverse = -1;
  int omitnan = -1;          // -1: not given, 1: "omitnan", 0: "includenan"
  bool accurate = false;     // "accurate": compensated floating sums
  octave_value segments;
  bool has_segments = false;
  octave_value keys;         // "keys": a segment starts wherever they change
  bool has_keys = false;
  octave_value groups;       // "groups": labels whose groups are scanned apart
  bool has_groups = false;
  octave_value coef;         // "recurrence", A: y(k) = A(k) y(k-1) + X(k)
  octave_value initial;      // "initial", Y0: y before each line and segment (recurrence)
  bool has_initial = false;
  scan_algorithm algorithm = ALG_AUTO;
  int dim = 0;               // 0: first non-singleton
  std::vector<int> vecdim;   // a vector of dimensions (two or more), as Octave 11's VECDIM
  bool all = false;          // "all": the whole array, as X(:)
  bool linear = false;       // "linear": the index output as linear indices into X
};

// args(first - 1) is X; DIM may be args(first), options follow
scan_request parse_scan_options (const octave_value_list& args, int first);

// The element type of an Octave value (errors for classes gpuscan does not take)
scan_type scan_type_of (const octave_value& x, const char *what);
// ... and from a class name and complexity (device arrays); scan_type_find says
// whether there is one instead of raising an error
scan_type scan_type_named (const std::string& cls, bool complex);
bool scan_type_find (const std::string& cls, bool complex, scan_type& t);
// Octave's class name of a scan type, and whether it is complex
const char *scan_type_class (scan_type t);
bool scan_type_complex (scan_type t);

// the geometry of a scan of an array of dims dv along dim (0: the first non-singleton)
void scan_extent (const dim_vector& dv, int dim, int64_t& inner, int64_t& len, int64_t& outer);

// The scan_desc of a request on an array of dims dv and type in (no pointers yet):
// geometry around DIM, the output class (d.type) and the operator after Octave's rules.
scan_desc plan_scan (const dim_vector& dv, scan_type in, const scan_request& r, int nargout);

// "recurrence": A (scalar or the size of X; a scalar twice) in d.type, which d.coef
// points into while the returned array lives, and Y0; sets d.coef, d.coef_scalar,
// d.initial.  X must be converted to d.type by the caller (as_recurrence_operand).
std::shared_ptr<const void> recurrence_coef (const scan_request& r, const dim_vector& xdv,
                                             scan_desc& d);
// X, A or Y0 in the class of d.type (double or single, complex or not)
octave_value as_recurrence_operand (const octave_value& v, scan_type t);

// logical (X) for "and", "or" and "xor" (gpuscan:nan where X holds a NaN)
octave_value logical_operand (const octave_value& x);
// the gpuscan:nan error of that conversion (device arrays find the NaN on the device)
[[noreturn]] void error_nan_to_logical ();

// Heads as 0/1 bytes from a host array of flags, kept alive by `hold`; sets full
const uint8_t *host_segment_heads (const octave_value& f, const dim_vector& xdv,
                                   octave_idx_type len, int& full, boolNDArray& hold);
// "keys", G: head flags (a logical array, the layout of G) that start a segment at the
// first element and wherever G changes along the scanned dimension (for the segment code)
octave_value key_heads (const octave_value& g, const dim_vector& xdv, const scan_desc& d);
// Checks the shape of a flags array (what: "SEGMENTS" or "KEYS") against X; returns
// heads_full
int segment_layout (const dim_vector& fdv, const dim_vector& xdv, octave_idx_type len,
                    const char *what);


// An uninitialized Octave array (Array's own constructor zero-fills, on one thread):
// the engine writes every element, in parallel, so fresh pages are touched first by the
// threads that fill them.
template <typename AT>
AT uninit (const dim_vector& dv)
{
  typedef typename AT::element_type E;
  const octave_idx_type n = dv.safe_numel ();
  if (n == 0)
    return AT (dv);
  E *p = std::allocator<E> ().allocate (n);
  engine_huge_pages (p, static_cast<size_t> (n) * sizeof (E));
  return AT (Array<E> (p, dv));
}

// The gateway's one class switch: f (AT ()), with AT the Octave array type of t
// (NDArray for SCAN_DOUBLE, ...; octave_value_extract<AT> takes one from a value); its
// result is with_array_type's.
template <typename F>
auto with_array_type (scan_type t, F f)
{
  switch (t)
    {
    case SCAN_DOUBLE: return f (NDArray ());
    case SCAN_CDOUBLE: return f (ComplexNDArray ());
    case SCAN_SINGLE: return f (FloatNDArray ());
    case SCAN_CSINGLE: return f (FloatComplexNDArray ());
    case SCAN_LOGICAL: return f (boolNDArray ());
    case SCAN_INT8: return f (int8NDArray ());
    case SCAN_UINT8: return f (uint8NDArray ());
    case SCAN_INT16: return f (int16NDArray ());
    case SCAN_UINT16: return f (uint16NDArray ());
    case SCAN_INT32: return f (int32NDArray ());
    case SCAN_UINT32: return f (uint32NDArray ());
    case SCAN_INT64: return f (int64NDArray ());
    case SCAN_UINT64: return f (uint64NDArray ());
    default:
      error_with_id ("gpuscan:type", "gpuscan: unsupported element type %d", static_cast<int> (t));
    }
}

// Raise the Octave error for an engine status (no return for a failure)
void raise_engine_error (engine_status st, const char *msg);

// Octave's warning () for the engine's one-time warnings
void octave_engine_warning (const char *id, const char *msg);

#endif

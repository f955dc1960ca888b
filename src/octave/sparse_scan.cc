// Gateway layer: sparse X through Octave's own cum* (sparse_scan.h).
#include "sparse_scan.h"

#include <octave/parse.h>

octave_value_list sparse_scan (const octave_value& x, const scan_request& r, int nargout)
{
  const char *fn = r.op == SCAN_SUM ? "cumsum" : r.op == SCAN_PROD ? "cumprod"
                   : r.op == SCAN_MAX ? "cummax" : r.op == SCAN_MIN ? "cummin" : nullptr;
  const char *other = ! fn ? scan_op_name (r.op) : r.exclusive > 0 ? "exclusive"
                      : r.has_segments ? "segments" : r.has_keys ? "keys"
                      : r.has_groups ? "groups" : r.accurate ? "accurate"
                      : r.options.reproducible ? "reproducible" : r.options.outclass == 1 ? "native"
                      : r.options.outclass == 2 ? "double" : r.algorithm != ALG_AUTO ? "algorithm"
                      : nullptr;
  if (other)
    error_with_id ("gpuscan:sparse", "gpuscan: sparse X takes sum, prod, max and min with "
                   "DIM or VECDIM, \"all\", the direction, the NaN flag, \"linear\" and "
                   "\"ComparisonMethod\" (Octave's own cumsum, cumprod, cummax and cummin "
                   "scan it), not \"%s\"; full (X) takes every option", other);
  // (through builtin: a user's own cumsum, which may call gpuscan, is not Octave's)
  octave_value_list a (1, octave_value (fn));
  a.append (x);
  if (! r.vecdim.empty ())
    {
      RowVector v (r.vecdim.size ());
      for (size_t i = 0; i < r.vecdim.size (); i++)
        v(i) = r.vecdim[i];
      a.append (octave_value (v));
    }
  else if (r.dim)
    a.append (octave_value (r.dim));
  if (r.all)
    a.append (octave_value ("all"));
  if (r.reverse > 0)
    a.append (octave_value ("reverse"));
  if (r.omitnan >= 0)
    a.append (octave_value (r.omitnan ? "omitnan" : "includenan"));
  if (r.linear)
    a.append (octave_value ("linear"));
  if (r.options.compare >= 0)
    {
      a.append (octave_value ("ComparisonMethod"));
      const int c = r.options.compare;
      a.append (octave_value (c == 0 ? "auto" : c == 1 ? "real" : "abs"));
    }
  return octave::feval ("builtin", a, nargout);
}

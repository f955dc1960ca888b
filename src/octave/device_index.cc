// Indexing a device array (device_index.h).

#include <octave/oct.h>

#include "compaction.h"
#include "device_index.h"

octave_value device_index (const device_array& a, const octave_value_list& idx)
{
  if (idx.length () == 1 && is_device_array (idx(0)))
    {
      const device_array m = device_array_of (idx(0), "the index");
      if (m.type == SCAN_LOGICAL && m.numel () == a.numel ())
        return compact_device (a, idx(0));
    }
  octave_value host = gather (a);
  return to_device (host.index_op (host_values (idx)));
}

octave_value device_assign (const device_array& a, const octave_value_list& idx,
                            const octave_value& v)
{
  octave_value host = gather (a);
  host.assign (octave_value::op_asn_eq, "(", std::list<octave_value_list> (1, host_values (idx)),
               host_value (v));
  // (Octave's class rules: a double into an int8 array stays int8, and so on)
  return to_device (host);
}

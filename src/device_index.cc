// Indexing a device array (device_index.h).

#include <octave/oct.h>

#include "compaction.h"
#include "device_index.h"

namespace
{
  octave_value on_host (const octave_value& v)
  {
    return is_device_array (v) ? gather (device_array_of (v, "an index")) : v;
  }

  octave_value_list on_host (const octave_value_list& idx)
  {
    octave_value_list h = idx;
    for (int i = 0; i < idx.length (); i++)
      h(i) = on_host (idx(i));
    return h;
  }

  octave_value to_device (const octave_value& v)
  {
    array_guard g;
    const device_array r = upload (v, g);
    return device_array_value (r, g);
  }
}

octave_value device_index (const device_array& a, const octave_value_list& idx)
{
  if (idx.length () == 1 && is_device_array (idx(0)))
    {
      const device_array m = device_array_of (idx(0), "the index");
      if (m.type == SCAN_LOGICAL && m.numel () == a.numel ())
        return compact_device (a, idx(0));
    }
  const octave_value host = gather (a);
  return to_device (octave_value (host).index_op (on_host (idx)));
}

octave_value device_assign (const device_array& a, const octave_value_list& idx,
                            const octave_value& v)
{
  octave_value host = gather (a);
  const octave_value rhs = on_host (v);
  host.assign (octave_value::op_asn_eq, "(", std::list<octave_value_list> (1, on_host (idx)),
               rhs);
  // (Octave's class rules: a double into an int8 array stays int8, and so on)
  return to_device (host);
}

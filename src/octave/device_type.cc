// The device-array value type: registration, and the methods that reach indexing,
// operators and element-wise functions (device_type.h).

#include <octave/oct.h>
#include <octave/interpreter.h>
#include <octave/pt-eval.h>

#include <string>

#include "device_array.h"
#include "device_elementwise.h"
#include "device_index.h"
#include "device_ops.h"
#include "device_type.h"

void gateway_start ()
{
  if (octave_device_array::static_type_id () < 0)
    {
      octave_device_array::register_type ();
      install_device_ops (octave_device_array::static_type_id ());
    }
  // the gateway function running now (none where a program embeds Octave and calls the
  // gateway directly, as the fuzzer does)
  octave::tree_evaluator& tw = octave::interpreter::the_interpreter ()->get_evaluator ();
  octave_function *f = tw.current_function ();
  if (f && ! f->islocked ())
    f->lock ();
}

octave_value
octave_device_array::any (int dim) const
{ return device_result (host ().any (dim), "any (D)"); }

octave_value
octave_device_array::all (int dim) const
{ return device_result (host ().all (dim), "all (D)"); }

octave_value
octave_device_array::do_index_op (const octave_value_list& idx, bool)
{
  device_array_check (m_a, "D");
  return device_index (m_a, idx);
}

octave_value
octave_device_array::permute (const Array<int>& vec, bool inv) const
{
  return device_result (host ().permute (vec, inv), "permute (D)");
}

octave_value
octave_device_array::sort (octave_idx_type dim, sortmode mode) const
{
  return device_result (host ().sort (dim, mode), "sort (D)");
}

octave_value
octave_device_array::sort (Array<octave_idx_type>& sidx, octave_idx_type dim,
                     sortmode mode) const
{
  return device_result (host ().sort (sidx, dim, mode), "sort (D)");
}

octave_value
octave_device_array::diag (octave_idx_type k) const
{
  return device_result (host ().diag (k), "diag (D)");
}

octave_value
octave_device_array::resize (const dim_vector& dv, bool fill) const
{
  return device_result (host ().resize (dv, fill), "resize");
}

octave_value
octave_device_array::map (unary_mapper_t umap) const
{
  if (umap == umap_abs)
    {
      device_array_check (m_a, "D");
      const octave_value r = device_unary (EW_ABS, m_a);
      if (r.is_defined ())
        return r;
    }
  return device_result (host ().map (umap), std::string (get_umap_name (umap)) + " (D)");
}

octave_value
octave_device_array::subsref (const std::string& type, const std::list<octave_value_list>& idx)
{
  if (type[0] != '(')
    refuse_index (type);
  device_array_check (m_a, "D");
  octave_value r = device_index (m_a, idx.front ());
  return type.length () > 1 ? r.next_subsref (type, idx) : r;
}

octave_value
octave_device_array::subsasgn (const std::string& type, const std::list<octave_value_list>& idx,
                         const octave_value& rhs)
{
  if (type != "(")
    error_with_id ("gpuscan:index", "gpuscan_array: D%s = V assigns into a device array "
                   "by (I) only; assign into the host array gather (D), then "
                   "gpuscan_array it", type[0] == '{' ? "{I}" : type[0] == '.' ? ".NAME" : "(I)(J)");
  device_array_check (m_a, "D");
  return device_assign (m_a, idx.front (), rhs);
}

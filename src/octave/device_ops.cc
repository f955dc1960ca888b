// Octave's operators on device arrays: D + X, D - X, D .* X, D ./ X, D * X, D .^ X, the
// comparisons, D & X, D | X, -D, !D, D' and the rest, with host arrays, scalars or
// other device arrays on either side, and the concatenation step ([D, X], [D; X], cat,
// horzcat, vertcat).  The common arithmetic and comparisons of real classes run on the
// device (device_elementwise.h); the rest goes through host memory, as the type's other
// element-wise functions, any, all, sort and the rest do (device_result): the operands
// are gathered, Octave computes the result (its broadcasting, class rules and errors),
// and the result goes back to the device: right for every operation Octave has, cheap
// for small arrays only.

#include <octave/oct.h>
#include <octave/interpreter.h>
#include <octave/ov-typeinfo.h>

#include <string>
#include <utility>

#include "device_elementwise.h"
#include "device_ops.h"

namespace
{
  // an operand as a value, and its host value (a device array gathered)
  octave_value value_of (const octave_base_value& v)
  {
    return octave_value (const_cast<octave_base_value *> (&v), true);
  }

  octave_value host_operand (const octave_base_value& v)
  {
    return host_value (value_of (v));
  }

  template <octave_value::binary_op OP>
  octave_value binary (const octave_base_value& a, const octave_base_value& b)
  {
    const octave_value r = device_binary (OP, value_of (a), value_of (b));
    if (r.is_defined ())
      return r;
    return device_result (octave::binary_op (OP, host_operand (a), host_operand (b)),
                      "operator " + octave_value::binary_op_as_string (OP));
  }

  template <octave_value::unary_op OP>
  octave_value unary (const octave_base_value& a)
  {
    if (OP == octave_value::op_uminus)
      {
        const octave_value r = device_unary (EW_NEGATE, device_array_of (value_of (a), "D"));
        if (r.is_defined ())
          return r;
      }
    return device_result (octave::unary_op (OP, host_operand (a)),
                      "operator " + octave_value::unary_op_as_string (OP));
  }

  // every binary operator from + to | (not the struct reference), both ways round
  template <std::size_t... OP>
  void install_binary (octave::type_info& ti, int t, int types, std::index_sequence<OP...>)
  {
    const octave::type_info::binary_op_fcn fcn[] = {
      binary<static_cast<octave_value::binary_op> (OP)>... };
    for (std::size_t op = 0; op < sizeof... (OP); op++)
      for (int u = 0; u < types; u++)
        {
          const auto o = static_cast<octave_value::binary_op> (op);
          ti.install_binary_op (o, t, u, fcn[op]);
          if (u != t)
            ti.install_binary_op (o, u, t, fcn[op]);
        }
  }

  // the concatenation step: b put into a at ra_idx
  octave_value cat (const octave_base_value& a, const octave_base_value& b,
                    const Array<octave_idx_type>& ra_idx)
  {
    return device_result (octave::cat_op (host_operand (a), host_operand (b), ra_idx),
                      "concatenation");
  }

  // !, unary +, unary -, .' and ' (++ and -- assign D + 1 and D - 1)
  template <std::size_t... OP>
  void install_unary (octave::type_info& ti, int t, std::index_sequence<OP...>)
  {
    const octave::type_info::unary_op_fcn fcn[] = {
      unary<static_cast<octave_value::unary_op> (OP)>... };
    for (std::size_t op = 0; op < sizeof... (OP); op++)
      ti.install_unary_op (static_cast<octave_value::unary_op> (op), t, fcn[op]);
  }
}

void install_device_ops (int t)
{
  octave::type_info& ti = octave::interpreter::the_interpreter ()->get_type_info ();
  const int types = ti.installed_type_names ().numel ();
  install_binary (ti, t, types, std::make_index_sequence<octave_value::op_struct_ref> ());
  install_unary (ti, t, std::make_index_sequence<octave_value::op_incr> ());
  for (int u = 0; u < types; u++)
    {
      ti.install_cat_op (t, u, cat);
      if (u != t)
        ti.install_cat_op (u, t, cat);
    }
}

octave_value device_result (const octave_value& r, const std::string& what)
{
  if (r.issparse () || ! (r.isnumeric () || r.islogical ()))
    error_with_id ("gpuscan:type", "gpuscan_array: %s gives a%s %s array, which a device "
                   "array cannot hold; gather the device arrays first", what.c_str (),
                   r.issparse () ? " sparse" : "", r.class_name ().c_str ());
  return to_device (r);
}

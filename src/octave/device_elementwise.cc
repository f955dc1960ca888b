// Element-wise arithmetic and comparisons of device arrays on the device: D + X, D - X,
// D .* X, D ./ X, D * S, D / S, the six comparisons, -D, abs (D) and the casts, with
// device arrays,
// host arrays or scalars on either side, through the engine's element-wise call (the
// rule of base/elementwise.h: Octave's values and classes).  What the rule does not
// cover (complex, int64, mixed integer classes, broadcasting, char, sparse, ...) is left
// to the host route (device_ops.h), which gives Octave's result or error.

#include <octave/oct.h>

#include "device_elementwise.h"
#include "scan_request.h"

namespace
{
  bool elementwise_op_of (octave_value::binary_op op, const octave_value& a,
                          const octave_value& b, elementwise_op& e)
  {
    switch (op)
      {
      case octave_value::op_add: e = EW_PLUS; return true;
      case octave_value::op_sub: e = EW_MINUS; return true;
      case octave_value::op_el_mul: e = EW_TIMES; return true;
      // (a matrix product or division with a scalar is the element-wise one)
      case octave_value::op_mul: e = EW_TIMES; return a.numel () == 1 || b.numel () == 1;
      case octave_value::op_el_div: e = EW_DIVIDE; return true;
      case octave_value::op_div: e = EW_DIVIDE; return b.numel () == 1;
      case octave_value::op_lt: e = EW_LT; return true;
      case octave_value::op_le: e = EW_LE; return true;
      case octave_value::op_gt: e = EW_GT; return true;
      case octave_value::op_ge: e = EW_GE; return true;
      case octave_value::op_eq: e = EW_EQ; return true;
      case octave_value::op_ne: e = EW_NE; return true;
      default: return false;
      }
  }

  // the class of a host operand, false where the rule does not take it (complex, sparse,
  // special matrices, char, ...; the rule itself declines int64 and uint64)
  bool host_type (const octave_value& v, scan_type& t)
  {
    return ! (v.iscomplex () || v.issparse () || v.is_diag_matrix () || v.is_perm_matrix ()
              || ! (v.isnumeric () || v.islogical ()))
           && scan_type_find (v.class_name (), false, t);
  }

  // one operand of the description: device memory, a host array uploaded (freed by g),
  // or a host scalar's value; step 0 for a single element beside a longer operand
  struct operand
  {
    scan_type type = SCAN_DOUBLE;
    const void *p = nullptr;
    int step = 1;
    double value = 0;
  };

  operand operand_of (const octave_value& v, scan_type t, bool single, array_guard& g)
  {
    operand o;
    o.type = t;
    o.step = single ? 0 : 1;
    if (is_device_array (v))
      o.p = device_array_of (v, "an operand").data ();
    else if (v.numel () == 1)
      o.value = v.double_value ();   // (exact for every class the rule takes)
    else
      o.p = upload (v, g).data ();
    return o;
  }

  octave_value run (elementwise_op op, const dim_vector& dims, const operand& a,
                    const operand& b, int y_type)
  {
    array_guard g;
    const device_array y = new_device_array (dims, static_cast<scan_type> (y_type), g);
    elementwise_desc d = { op, a.type, b.type, y.type, a.p, b.p, a.step, b.step,
                           a.value, b.value, y.data (), y.numel () };
    if (d.n)
      {
        char msg[512] = "";
        raise_engine_error (engine_array_elementwise (&d, msg, sizeof msg), msg);
      }
    return device_array_value (y, g);
  }
}

octave_value device_binary (octave_value::binary_op op, const octave_value& a,
                            const octave_value& b)
{
  elementwise_op e;
  scan_type ta, tb;
  if (! elementwise_op_of (op, a, b, e))
    return octave_value ();
  if (! (is_device_array (a) ? (ta = device_array_of (a, "an operand").type, true)
                             : host_type (a, ta))
      || ! (is_device_array (b) ? (tb = device_array_of (b, "an operand").type, true)
                                : host_type (b, tb)))
    return octave_value ();
  const int y_type = elementwise_result_type (e, ta, tb);
  const dim_vector da = a.dims (), db = b.dims ();
  if (y_type < 0 || ! (da == db || a.numel () == 1 || b.numel () == 1))
    return octave_value ();
  // (a single element beside a longer operand is used for all; equal shapes: one by one)
  const bool a_one = ! (da == db) && a.numel () == 1;
  const bool b_one = ! (da == db) && b.numel () == 1;
  array_guard ga, gb;
  return run (e, a_one ? db : da, operand_of (a, ta, a_one, ga), operand_of (b, tb, b_one, gb),
              y_type);
}

octave_value device_cast (const octave_value& v, scan_type to)
{
  const device_array a = device_array_of (v, "D");
  if (a.type == to)
    return v;
  if (to == SCAN_LOGICAL || to == SCAN_INT64 || to == SCAN_UINT64 || scan_type_complex (to)
      || elementwise_result_type (EW_CAST, a.type, a.type) < 0)
    return octave_value ();
  operand o;
  o.type = a.type;
  o.p = a.data ();
  return run (EW_CAST, a.dims, o, o, to);
}

octave_value device_unary (elementwise_op op, const device_array& a)
{
  const int y_type = elementwise_result_type (op, a.type, a.type);
  if (y_type < 0)
    return octave_value ();
  operand o;
  o.type = a.type;
  o.p = a.data ();
  return run (op, a.dims, o, o, y_type);
}

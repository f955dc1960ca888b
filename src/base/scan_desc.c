/* Names and sizes of the scan description's types and operators. */
#include "base/scan_desc.h"

size_t scan_type_size (scan_type t)
{
  static const size_t size[SCAN_NTYPES] = { 8, 4, 16, 8, 1, 1, 2, 2, 4, 4, 8, 8, 1 };
  return t < SCAN_NTYPES ? size[t] : 0;
}

static const scan_type input_types[SCAN_NINPUTS] = {
  SCAN_NTYPES, SCAN_LOGICAL, SCAN_INT8, SCAN_UINT8, SCAN_INT16, SCAN_UINT16, SCAN_INT32,
  SCAN_UINT32, SCAN_INT64, SCAN_UINT64, SCAN_SINGLE };

scan_type scan_input_type (const scan_desc *d)
{
  return d->input > SCAN_INPUT_AS_OUTPUT && d->input < SCAN_NINPUTS ? input_types[d->input]
                                                                    : d->type;
}

scan_input scan_input_of (scan_type t)
{
  for (int i = 1; i < SCAN_NINPUTS; i++)
    if (input_types[i] == t)
      return (scan_input) i;
  return SCAN_INPUT_AS_OUTPUT;
}

const char *scan_type_name (scan_type t)
{
  static const char *name[SCAN_NTYPES] = {
    "double", "single", "complex double", "complex single", "int8", "uint8",
    "int16", "uint16", "int32", "uint32", "int64", "uint64", "logical" };
  return t < SCAN_NTYPES ? name[t] : "?";
}

const char *scan_op_name (scan_op op)
{
  static const char *name[SCAN_NOPS] = { "sum", "prod", "max", "min", "native sum", "and",
                                          "or", "xor", "bitand", "bitor", "bitxor",
                                          "logsumexp", "recurrence", "native prod" };
  return op < SCAN_NOPS ? name[op] : "?";
}

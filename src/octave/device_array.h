// Device arrays in Octave, the handle that the gateway's other parts share: a value type
// of its own (class "gpuscan_array"), which holds the engine's id of the memory, the
// shape and the element type, and gives the memory back when the last copy of the value
// goes.  Its indexing, operators and element-wise functions (device_type.cc) sit above
// this file, which depends on none of them.  Octave's size, numel, ndims,
// isempty, isreal, isnumeric, isfloat, isinteger, islogical, class and isa read it
// without touching the memory; gpuscan, gpuscan_compact and gather take it (the scan:
// device_scan.h).

#ifndef GPUSCAN_DEVICE_ARRAY_H
#define GPUSCAN_DEVICE_ARRAY_H

#include <octave/oct.h>

#include "engine/engine.h"
#include "base/scan_desc.h"
#include "scan_request.h"

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

bool is_device_array (const octave_value& v);

// the device array v holds, checked to be live ("gpuscan:stale" if its memory was
// released); WHAT names v in errors
device_array device_array_of (const octave_value& v, const char *what);
// whether the memory of device array v is still there
bool device_array_is_live (const octave_value& v);
// "gpuscan:stale", naming the array WHAT, where a's memory was released
void device_array_check (const device_array& a, const char *what);

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
// whether any of args is a device array
bool any_device_array (const octave_value_list& args);

// on the device: a copy of a, and a converted to TO (Octave's conversion), each a new
// device array freed by g unless kept
device_array device_copy (const device_array& a, array_guard& g);
device_array device_convert (const device_array& a, scan_type to, array_guard& g);
// the conversions device_convert makes: a real class to double, complex single to
// complex double
bool device_converts (scan_type from, scan_type to);

// The value type.  The methods declared here without a body reach indexing, operators
// and element-wise functions: device_type.cc defines them.
class octave_device_array : public octave_base_value
{
public:
  octave_device_array () = default;
  explicit octave_device_array (const device_array& a) : m_a (a) { }
  ~octave_device_array () { if (m_a.id) engine_array_free (m_a.id); }

  // a modified copy is a copy on the device (a value, as Octave's arrays are)
  octave_base_value *clone () const
  {
    device_array_check (m_a, "D");
    array_guard g;
    const device_array c = device_copy (m_a, g);
    g.keep ();
    return new octave_device_array (c);
  }
  // (X(I) = D for an undefined X starts from D's empty clone: of D's class, 0x0)
  octave_base_value *empty_clone () const
  {
    device_array e;
    e.type = m_a.type;
    return new octave_device_array (e);
  }

  const device_array& array () const { return m_a; }

  dim_vector dims () const { return m_a.dims; }
  std::size_t byte_size () const { return m_a.bytes (); }
  bool is_defined () const { return true; }
  bool is_constant () const { return true; }
  bool isnumeric () const { return m_a.type != SCAN_LOGICAL; }
  bool islogical () const { return m_a.type == SCAN_LOGICAL; }
  bool isfloat () const { return m_a.type <= SCAN_CSINGLE; }
  bool isinteger () const { return isnumeric () && ! isfloat (); }
  bool isreal () const { return ! scan_type_complex (m_a.type); }
  bool iscomplex () const { return scan_type_complex (m_a.type); }

  // if (D), while (D), D && E: the gathered array's truth, as MATLAB's gpuArray answers
  // (Octave's default for a type is a quiet false)
  bool is_true () const { return host ().is_true (); }

  // double (D): the elements as doubles, on the device (Octave's conversion)
  octave_value as_double () const
  {
    device_array_check (m_a, "D");
    if (m_a.type == SCAN_DOUBLE || m_a.type == SCAN_CDOUBLE)
      return octave_value (const_cast<octave_device_array *> (this), true);
    array_guard g;
    const device_array d = device_convert (m_a, m_a.type == SCAN_CSINGLE ? SCAN_CDOUBLE
                                                                        : SCAN_DOUBLE, g);
    return device_array_value (d, g);
  }

  // any (D), all (D): device arrays (through host memory, device_result; Octave's
  // default for a type would be a quiet 0)
  octave_value any (int dim = 0) const;
  octave_value all (int dim = 0) const;

  // element n, for printf and sprintf, which read their arguments so (an undefined
  // value, Octave's default, printed nothing, quietly)
  octave_value fast_elem_extract (octave_idx_type n) const
  {
    if (n < 0 || n >= m_a.numel ())
      return octave_value ();
    device_array_check (m_a, "D");
    return gather_element (m_a, n);
  }

  // The elements as host arrays, for Octave's functions that have no device-array
  // method (find, mod, mat2str, ...): they read the gathered array and give host
  // results
  NDArray array_value (bool f = false) const { return host ().array_value (f); }
  FloatNDArray float_array_value (bool f = false) const { return host ().float_array_value (f); }
  ComplexNDArray complex_array_value (bool f = false) const { return host ().complex_array_value (f); }
  FloatComplexNDArray float_complex_array_value (bool f = false) const
  { return host ().float_complex_array_value (f); }
  boolNDArray bool_array_value (bool f = false) const { return host ().bool_array_value (f); }
  charNDArray char_array_value (bool f = false) const { return host ().char_array_value (f); }
  Matrix matrix_value (bool f = false) const { return host ().matrix_value (f); }
  FloatMatrix float_matrix_value (bool f = false) const { return host ().float_matrix_value (f); }
  ComplexMatrix complex_matrix_value (bool f = false) const { return host ().complex_matrix_value (f); }
  FloatComplexMatrix float_complex_matrix_value (bool f = false) const
  { return host ().float_complex_matrix_value (f); }
  boolMatrix bool_matrix_value (bool f = false) const { return host ().bool_matrix_value (f); }
  double double_value (bool f = false) const { return host ().double_value (f); }
  float float_value (bool f = false) const { return host ().float_value (f); }
  Complex complex_value (bool f = false) const { return host ().complex_value (f); }
  FloatComplex float_complex_value (bool f = false) const { return host ().float_complex_value (f); }
  bool bool_value (bool f = false) const { return host ().bool_value (f); }
  int8NDArray int8_array_value () const { return host ().int8_array_value (); }
  int16NDArray int16_array_value () const { return host ().int16_array_value (); }
  int32NDArray int32_array_value () const { return host ().int32_array_value (); }
  int64NDArray int64_array_value () const { return host ().int64_array_value (); }
  uint8NDArray uint8_array_value () const { return host ().uint8_array_value (); }
  uint16NDArray uint16_array_value () const { return host ().uint16_array_value (); }
  uint32NDArray uint32_array_value () const { return host ().uint32_array_value (); }
  uint64NDArray uint64_array_value () const { return host ().uint64_array_value (); }
  // nnz, issorted, sortrows, char (D), sparse (D): the gathered array's answers (host
  // results; Octave's defaults for a type are wrong-type errors)
  octave_idx_type nnz () const { return host ().nnz (); }
  sortmode issorted (sortmode mode = UNSORTED) const { return host ().issorted (mode); }
  Array<octave_idx_type> sort_rows_idx (sortmode mode = ASCENDING) const
  {
    return host ().sort_rows_idx (mode);
  }
  sortmode is_sorted_rows (sortmode mode = UNSORTED) const { return host ().is_sorted_rows (mode); }
  octave_value convert_to_str_internal (bool pad, bool force, char type) const
  {
    return host ().convert_to_str_internal (pad, force, type);
  }
  SparseMatrix sparse_matrix_value (bool f = false) const { return host ().sparse_matrix_value (f); }
  SparseComplexMatrix sparse_complex_matrix_value (bool f = false) const
  {
    return host ().sparse_complex_matrix_value (f);
  }
  SparseBoolMatrix sparse_bool_matrix_value (bool f = false) const
  {
    return host ().sparse_bool_matrix_value (f);
  }
  // D(I) from Octave's C++ (triu, tril, arrayfun, ...): as D(I) in the language
  octave_value do_index_op (const octave_value_list& idx, bool = false);

  // X(D) for a host X: D's elements as the index
  octave::idx_vector index_vector (bool require_integers = false) const
  {
    return host ().index_vector (require_integers);
  }

  // reshape and squeeze: a device copy with the new shape; permute, sort and diag:
  // through host memory (device_result), results on the device
  octave_value reshape (const dim_vector& dv) const
  {
    device_array_check (m_a, "D");
    if (dv.safe_numel () != m_a.numel ())
      error ("reshape: can't reshape %s array to %s array", m_a.dims.str ().c_str (),
             dv.str ().c_str ());
    array_guard g;
    device_array c = device_copy (m_a, g);
    c.dims = dv;
    c.dims.chop_trailing_singletons ();   // (as Octave's arrays)
    return device_array_value (c, g);
  }
  // (Octave's arrays squeeze so: one dimension left is a column; 2-D stays as it is)
  octave_value squeeze () const
  {
    const dim_vector& d = m_a.dims;
    if (d.ndims () <= 2)
      return reshape (d);
    std::vector<octave_idx_type> kept;
    for (int i = 0; i < d.ndims (); i++)
      if (d(i) != 1)
        kept.push_back (d(i));
    if (kept.size () < 2)
      return reshape (dim_vector (kept.empty () ? 1 : kept[0], 1));
    dim_vector s = dim_vector::alloc (kept.size ());
    for (std::size_t i = 0; i < kept.size (); i++)
      s(i) = kept[i];
    return reshape (s);
  }
  octave_value permute (const Array<int>& vec, bool inv = false) const;
  octave_value sort (octave_idx_type dim = 0, sortmode mode = ASCENDING) const;
  octave_value sort (Array<octave_idx_type>& sidx, octave_idx_type dim = 0,
                     sortmode mode = ASCENDING) const;
  octave_value diag (octave_idx_type k = 0) const;
  octave_value full_value () const
  {
    return octave_value (const_cast<octave_device_array *> (this), true);
  }

  // (Octave's concatenation starts from its first non-empty element resized to the
  // result's shape, then device_ops.h's cat operators put each element in place)
  octave_value resize (const dim_vector& dv, bool fill = false) const;

  // abs (D), sqrt (D), isnan (D), ...: Octave's element-wise functions
  octave_value map (unary_mapper_t umap) const;

  // D(I), D(I, J, ...) and D(I) = V: device_index.h (D{I} and D.NAME mean nothing)
  octave_value subsref (const std::string& type, const std::list<octave_value_list>& idx);
  octave_value_list subsref (const std::string& type, const std::list<octave_value_list>& idx,
                             int)
  {
    return subsref (type, idx);
  }
  octave_value subsasgn (const std::string& type, const std::list<octave_value_list>& idx,
                         const octave_value& rhs);

  bool save_ascii (std::ostream&) { refuse_save (); }
  bool save_binary (std::ostream&, bool) { refuse_save (); }
  bool save_hdf5 (octave_hdf5_id, const char *, bool) { refuse_save (); }

  bool print_as_scalar () const { return true; }
  void print (std::ostream& os, bool pr_as_read_syntax = false)
  {
    print_raw (os, pr_as_read_syntax);
    newline (os);
  }
  void print_raw (std::ostream& os, bool = false) const
  {
    engine_info e;
    engine_get_info (&e);
    const std::string where = std::string (e.array_backend) == "host"
                                ? "host memory (test stand-in)" : e.gpu_name;
    indent (os);
    os << m_a.dims.str () << ' ' << (iscomplex () ? "complex " : "")
       << scan_type_class (m_a.type) << " gpuscan_array on " << where;
  }
  void short_disp (std::ostream& os) const
  {
    os << "[" << m_a.dims.str () << " gpuscan_array]";
  }

private:
  device_array m_a;

  octave_value host () const
  {
    device_array_check (m_a, "D");
    return gather (m_a);
  }

  [[noreturn]] static void refuse_index (const std::string& type)
  {
    error_with_id ("gpuscan:index", "gpuscan_array: a device array is indexed with "
                   "D(I) or D(I, J, ...), not D%s; gather (D) gives the host array",
                   type[0] == '{' ? "{I}" : ".NAME");
  }
  [[noreturn]] static void refuse_save ()
  {
    error_with_id ("gpuscan:save", "gpuscan_array: a device array cannot be saved; "
                   "save gather (D)");
  }

  DECLARE_OV_TYPEID_FUNCTIONS_AND_DATA
};

#endif

// The device-array value type (device_array.h).
//
// Octave keeps a value type's prototype in its type table for as long as the
// interpreter runs, and a live value calls into this file, so the oct-file that
// registers the type must stay loaded: every gateway function registers it at its first
// call and locks itself (mlock), so that `clear` never unloads gpuscan.oct.  The
// engine's memory is given back, and its state reset, by __gpuscan__ ("release"), which
// `pkg unload` runs (PKG_DEL); a value that outlives it is stale, and says so when used.

#include <octave/oct.h>
#include <octave/interpreter.h>
#include <octave/pt-eval.h>

#include <vector>

#include "device_array.h"
#include "device_elementwise.h"
#include "device_index.h"
#include "device_ops.h"
#include "scan_request.h"

namespace
{
  bool live (const device_array& a)
  {
    return ! a.id || engine_array_data (a.id, nullptr);
  }

  void check_live (const device_array& a, const char *what)
  {
    if (! live (a))
      error_with_id ("gpuscan:stale", "gpuscan: %s is a device array whose memory was "
                     "released (gpuscan was unloaded or the GPU was reset); create it "
                     "again", what);
  }

  class octave_device_array : public octave_base_value
  {
  public:
    octave_device_array () = default;
    explicit octave_device_array (const device_array& a) : m_a (a) { }
    ~octave_device_array () { if (m_a.id) engine_array_free (m_a.id); }

    // a modified copy is a copy on the device (a value, as Octave's arrays are)
    octave_base_value *clone () const
    {
      check_live (m_a, "D");
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
      check_live (m_a, "D");
      if (m_a.type == SCAN_DOUBLE || m_a.type == SCAN_CDOUBLE)
        return octave_value (const_cast<octave_device_array *> (this), true);
      array_guard g;
      const device_array d = device_convert (m_a, m_a.type == SCAN_CSINGLE ? SCAN_CDOUBLE
                                                                          : SCAN_DOUBLE, g);
      return device_array_value (d, g);
    }

    // any (D), all (D): device arrays (through host memory, device_result; Octave's
    // default for a type would be a quiet 0)
    octave_value any (int dim = 0) const { return device_result (host ().any (dim), "any (D)"); }
    octave_value all (int dim = 0) const { return device_result (host ().all (dim), "all (D)"); }

    // element n, for printf and sprintf, which read their arguments so (an undefined
    // value, Octave's default, printed nothing, quietly)
    octave_value fast_elem_extract (octave_idx_type n) const
    {
      if (n < 0 || n >= m_a.numel ())
        return octave_value ();
      check_live (m_a, "D");
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
    octave_value do_index_op (const octave_value_list& idx, bool = false)
    {
      check_live (m_a, "D");
      return device_index (m_a, idx);
    }

    // X(D) for a host X: D's elements as the index
    octave::idx_vector index_vector (bool require_integers = false) const
    {
      return host ().index_vector (require_integers);
    }

    // reshape and squeeze: a device copy with the new shape; permute, sort and diag:
    // through host memory (device_result), results on the device
    octave_value reshape (const dim_vector& dv) const
    {
      check_live (m_a, "D");
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
    octave_value permute (const Array<int>& vec, bool inv = false) const
    {
      return device_result (host ().permute (vec, inv), "permute (D)");
    }
    octave_value sort (octave_idx_type dim = 0, sortmode mode = ASCENDING) const
    {
      return device_result (host ().sort (dim, mode), "sort (D)");
    }
    octave_value sort (Array<octave_idx_type>& sidx, octave_idx_type dim = 0,
                       sortmode mode = ASCENDING) const
    {
      return device_result (host ().sort (sidx, dim, mode), "sort (D)");
    }
    octave_value diag (octave_idx_type k = 0) const
    {
      return device_result (host ().diag (k), "diag (D)");
    }
    octave_value full_value () const
    {
      return octave_value (const_cast<octave_device_array *> (this), true);
    }

    // (Octave's concatenation starts from its first non-empty element resized to the
    // result's shape, then device_ops.h's cat operators put each element in place)
    octave_value resize (const dim_vector& dv, bool fill = false) const
    {
      return device_result (host ().resize (dv, fill), "resize");
    }

    // abs (D), sqrt (D), isnan (D), ...: Octave's element-wise functions
    octave_value map (unary_mapper_t umap) const
    {
      if (umap == umap_abs)
        {
          check_live (m_a, "D");
          const octave_value r = device_unary (EW_ABS, m_a);
          if (r.is_defined ())
            return r;
        }
      return device_result (host ().map (umap), std::string (get_umap_name (umap)) + " (D)");
    }

    // D(I), D(I, J, ...) and D(I) = V: device_index.h (D{I} and D.NAME mean nothing)
    octave_value subsref (const std::string& type, const std::list<octave_value_list>& idx)
    {
      if (type[0] != '(')
        refuse_index (type);
      check_live (m_a, "D");
      octave_value r = device_index (m_a, idx.front ());
      return type.length () > 1 ? r.next_subsref (type, idx) : r;
    }
    octave_value_list subsref (const std::string& type, const std::list<octave_value_list>& idx,
                               int)
    {
      return subsref (type, idx);
    }
    octave_value subsasgn (const std::string& type, const std::list<octave_value_list>& idx,
                           const octave_value& rhs)
    {
      if (type != "(")
        error_with_id ("gpuscan:index", "gpuscan_array: D%s = V assigns into a device array "
                       "by (I) only; assign into the host array gather (D), then "
                       "gpuscan_array it", type[0] == '{' ? "{I}" : type[0] == '.' ? ".NAME" : "(I)(J)");
      check_live (m_a, "D");
      return device_assign (m_a, idx.front (), rhs);
    }

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
      check_live (m_a, "D");
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

  DEFINE_OV_TYPEID_FUNCTIONS_AND_DATA (octave_device_array, "gpuscan_array", "gpuscan_array");
}

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

bool is_device_array (const octave_value& v)
{
  return octave_device_array::static_type_id () >= 0
         && v.type_id () == octave_device_array::static_type_id ();
}

device_array device_array_of (const octave_value& v, const char *what)
{
  if (! is_device_array (v))
    error_with_id ("gpuscan:type", "gpuscan: %s is not a device array (make one with "
                   "gpuscan_array (X))", what);
  const device_array& a = dynamic_cast<const octave_device_array&> (v.get_rep ()).array ();
  check_live (a, what);
  return a;
}

bool device_array_is_live (const octave_value& v)
{
  return live (dynamic_cast<const octave_device_array&> (v.get_rep ()).array ());
}

device_array new_device_array (const dim_vector& dv, scan_type t, array_guard& g)
{
  device_array a;
  a.dims = dv;
  a.type = t;
  char msg[512] = "";   // (also for an empty array: no GPU is an error all the same)
  raise_engine_error (engine_array_new (a.bytes (), &g.id, msg, sizeof msg), msg);
  if (g.id)
    engine_array_set_kind (g.id, t);
  a.id = g.id;
  return a;
}

octave_value device_array_value (const device_array& a, array_guard& g)
{
  octave_value v (new octave_device_array (a));   // (gateway_start registered the type)
  if (g.id == a.id)
    g.keep ();
  return v;
}

namespace
{
  template <typename AT>
  octave_value gather_as (const device_array& a)
  {
    AT out = uninit<AT> (a.dims);
    if (a.numel ())
      {
        char msg[512] = "";
        raise_engine_error (engine_array_download (a.id, out.fortran_vec (), a.bytes (),
                                                   msg, sizeof msg), msg);
      }
    return out;
  }

  template <typename AT>
  void upload_as (const AT& v, const device_array& a)
  {
    if (! a.numel ())
      return;
    char msg[512] = "";
    raise_engine_error (engine_array_upload (a.id, v.data (), a.bytes (), msg, sizeof msg), msg);
  }
}

octave_value gather_element (const device_array& a, octave_idx_type n)
{
  return with_array_type (a.type, [&] (auto tag) {
    typedef decltype (tag) AT;
    AT out = uninit<AT> (dim_vector (1, 1));
    char msg[512] = "";
    raise_engine_error (engine_array_read (a.id, n * scan_type_size (a.type), out.fortran_vec (),
                                           scan_type_size (a.type), msg, sizeof msg), msg);
    return octave_value (out).fast_elem_extract (0);
  });
}

octave_value gather (const device_array& a)
{
  return with_array_type (a.type, [&] (auto tag) { return gather_as<decltype (tag)> (a); });
}

device_array upload (const octave_value& x, array_guard& g)
{
  return upload (x, scan_type_of (x, "X"), g);
}

device_array upload (const octave_value& x, scan_type t, array_guard& g)
{
  device_array a = new_device_array (x.dims (), t, g);
  with_array_type (t, [&] (auto tag) { upload_as (octave_value_extract<decltype (tag)> (x), a); });
  return a;
}

octave_value to_device (const octave_value& x)
{
  array_guard g;
  const device_array a = upload (x, g);
  return device_array_value (a, g);
}

octave_value host_value (const octave_value& v)
{
  return is_device_array (v) ? gather (device_array_of (v, "a device array argument")) : v;
}

octave_value_list host_values (const octave_value_list& args)
{
  octave_value_list h = args;
  for (int i = 0; i < args.length (); i++)
    h(i) = host_value (args(i));
  return h;
}

device_array device_copy (const device_array& a, array_guard& g)
{
  device_array c = a;
  if (a.id)
    {
      char msg[512] = "";
      raise_engine_error (engine_array_copy (a.id, &g.id, msg, sizeof msg), msg);
      c.id = g.id;
    }
  return c;
}

bool device_converts (scan_type from, scan_type to)
{
  return (to == SCAN_DOUBLE && ! scan_type_complex (from))
         || (to == SCAN_CDOUBLE && from == SCAN_CSINGLE);
}

device_array device_convert (const device_array& a, scan_type to, array_guard& g)
{
  const device_array c = new_device_array (a.dims, to, g);
  if (a.numel ())
    {
      char msg[512] = "";
      raise_engine_error (engine_array_convert (a.type, to, a.data (), c.data (), a.numel (),
                                                msg, sizeof msg), msg);
    }
  return c;
}

// The `pliant._pliant` extension: meshes, materials, scenes and bodies as numpy arrays. The package's
// __init__.py re-exports it; docs/python.md lists the API.
#include "bindings.hpp"

#include <pybind11/stl.h>

#include <stdexcept>

namespace pliant::python {

py::array_t<double> view_vec3(std::span<const Vec3> values, py::handle owner) {
  static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must be three packed doubles");
  py::array_t<double> a({static_cast<py::ssize_t>(values.size()), py::ssize_t{3}},
                        {static_cast<py::ssize_t>(sizeof(Vec3)), static_cast<py::ssize_t>(sizeof(double))},
                        values.empty() ? nullptr : values.front().data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

namespace {

// Any array-like of numbers with shape (n, 3), converted (a copy) to float64.
py::array_t<double, py::array::c_style> as_float_array(const py::handle& value, const char* argument) {
  py::array generic = py::array::ensure(value);
  if (!generic) throw py::type_error(std::string(argument) + ": expected an array of numbers");
  if (generic.dtype().kind() != 'f' && generic.dtype().kind() != 'i' && generic.dtype().kind() != 'u')
    throw py::type_error(std::string(argument) + ": expected numbers, got dtype " +
                         py::str(generic.dtype()).cast<std::string>());
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(generic);
}

std::string shape_of(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

}  // namespace

std::vector<Vec3> to_points(const py::handle& array, const char* argument) {
  const auto a = as_float_array(array, argument);
  if (a.ndim() != 2 || a.shape(1) != 3)
    throw py::value_error(std::string(argument) + ": expected shape (n, 3), got " + shape_of(a));
  std::vector<Vec3> out(static_cast<std::size_t>(a.shape(0)));
  const auto r = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    out[static_cast<std::size_t>(i)] = Vec3(r(i, 0), r(i, 1), r(i, 2));
  return out;
}

template <std::size_t K>
std::vector<std::array<Index, K>> to_indices(const py::handle& array, const char* argument,
                                             std::size_t node_count) {
  py::array generic = py::array::ensure(array);
  if (!generic || (generic.dtype().kind() != 'i' && generic.dtype().kind() != 'u'))
    throw py::type_error(std::string(argument) + ": expected an integer array of node indices");
  const auto a = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(generic);
  if (a.ndim() != 2 || a.shape(1) != static_cast<py::ssize_t>(K))
    throw py::value_error(std::string(argument) + ": expected shape (m, " + std::to_string(K) + "), got " +
                          shape_of(a));
  std::vector<std::array<Index, K>> out(static_cast<std::size_t>(a.shape(0)));
  const auto r = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i) {
    for (std::size_t k = 0; k < K; ++k) {
      const long long v = r(i, static_cast<py::ssize_t>(k));
      if (v < 0 || static_cast<unsigned long long>(v) >= node_count)
        throw py::value_error(std::string(argument) + ": row " + std::to_string(i) + " names node " +
                              std::to_string(v) + ", outside 0.." + std::to_string(node_count) +
                              (node_count ? "" : " (no nodes)") + "-1");
      out[static_cast<std::size_t>(i)][k] = static_cast<Index>(v);
    }
  }
  return out;
}
template std::vector<std::array<Index, 3>> to_indices<3>(const py::handle&, const char*, std::size_t);
template std::vector<std::array<Index, 4>> to_indices<4>(const py::handle&, const char*, std::size_t);

Vec3 to_vec3(const py::handle& value, const char* argument) {
  // Fast paths for what a per-frame call passes (a float64 array of 3, a list or tuple of 3 floats):
  // a grab moved every haptic frame must not pay for a generic array conversion.
  if (py::isinstance<py::array_t<double>>(value)) {
    const auto a = py::reinterpret_borrow<py::array_t<double>>(value);
    if (a.ndim() == 1 && a.shape(0) == 3) return Vec3(a.at(0), a.at(1), a.at(2));
  } else if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr())) {
    PyObject* seq = value.ptr();
    if (PySequence_Fast_GET_SIZE(seq) == 3) {
      PyObject** items = PySequence_Fast_ITEMS(seq);
      if (PyFloat_CheckExact(items[0]) && PyFloat_CheckExact(items[1]) && PyFloat_CheckExact(items[2]))
        return Vec3(PyFloat_AS_DOUBLE(items[0]), PyFloat_AS_DOUBLE(items[1]), PyFloat_AS_DOUBLE(items[2]));
    }
  }
  const auto a = as_float_array(value, argument);
  if (a.ndim() != 1 || a.shape(0) != 3)
    throw py::value_error(std::string(argument) + ": expected 3 numbers, got shape " + shape_of(a));
  return Vec3(a.at(0), a.at(1), a.at(2));
}

}  // namespace pliant::python

PYBIND11_MODULE(_pliant, m) {
  namespace py = pybind11;
  using namespace pliant::python;
  m.doc() = "Pliant: real-time deformable bodies (meshes, materials, scenes, bodies as numpy arrays)";
  static py::exception<PliantError> error(m, "Error", PyExc_ValueError);
  error.doc() = "A Pliant failure: the one-line message names the file, line, element or JSON path.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const PliantError& e) {
      PyErr_SetString(error.ptr(), e.message.c_str());
    } catch (const pliant::BadResultAccess& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
  bind_mesh(m);
  bind_materials(m);
  bind_scene(m);
  bind_green(m);
  bind_validate(m);
}

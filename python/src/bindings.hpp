// Shared pieces of the Python module: the error type, Result unwrapping and numpy conversions.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <span>
#include <string>
#include <vector>

namespace pliant::python {

namespace py = pybind11;

/// Raised for every failed Result: `pliant.Error`, a ValueError subclass carrying the one-line message.
struct PliantError {
  std::string message;
};

template <class T>
T unwrap(Result<T> result) {
  if (!result.ok()) throw PliantError{result.message()};
  return std::move(result).value();
}
inline void unwrap(const Status& status) {
  if (!status.ok()) throw PliantError{status.message()};
}

/// A read-only (n, 3) float64 view of `values` whose memory stays owned by `owner` (kept alive by the
/// array): no copy.
py::array_t<double> view_vec3(std::span<const Vec3> values, py::handle owner);
/// A read-only (n, K) int32 view of index tuples owned by `owner`.
template <std::size_t K>
py::array_t<Index> view_index(std::span<const std::array<Index, K>> values, py::handle owner) {
  static_assert(sizeof(std::array<Index, K>) == K * sizeof(Index));
  py::array_t<Index> a({static_cast<py::ssize_t>(values.size()), static_cast<py::ssize_t>(K)},
                       {static_cast<py::ssize_t>(K * sizeof(Index)), static_cast<py::ssize_t>(sizeof(Index))},
                       values.empty() ? nullptr : values.front().data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

/// Copies an (n, 3) array of numbers into points; TypeError/ValueError naming `argument` otherwise.
std::vector<Vec3> to_points(const py::handle& array, const char* argument);
/// Copies an (n, K) array of integers into index tuples, each in [0, node_count).
template <std::size_t K>
std::vector<std::array<Index, K>> to_indices(const py::handle& array, const char* argument,
                                             std::size_t node_count);
/// A 3-vector from any sequence of three numbers.
Vec3 to_vec3(const py::handle& value, const char* argument);

void bind_mesh(py::module_& m);
void bind_materials(py::module_& m);
void bind_scene(py::module_& m);
/// After bind_scene: it adds World.add_green_body.
void bind_green(py::module_& m);
/// pliant._validate_json, behind pliant.validate() (the `pliant validate` catalogue).
void bind_validate(py::module_& m);

}  // namespace pliant::python

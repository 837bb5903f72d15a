// Properties every reader must keep on any input, checked by the fuzz harnesses: a failure is one
// line naming the input, a success holds only in-range indices and finite coordinates. A violation
// aborts, so that libFuzzer records the input as a finding.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/io/mesh_file.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace pliant::fuzz {

[[noreturn]] inline void violated(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz: contract violated: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

/// An error message is one non-empty line that starts with `name` (the file it is about).
inline void check_error_message(const std::string& message, std::string_view name) {
  if (message.empty()) violated("empty error message", name);
  if (message.find('\n') != std::string::npos || message.find('\r') != std::string::npos)
    violated("error message is not one line", message);
  if (message.compare(0, name.size(), name) != 0) violated("error message does not name the input", message);
}

template <class Cell>
void check_cells(const std::vector<Cell>& cells, std::size_t nodes, const char* kind) {
  for (const Cell& c : cells)
    for (const auto v : c)
      if (v < 0 || static_cast<std::size_t>(v) >= nodes) violated("node index out of range in", kind);
}

/// A successfully read mesh refers only to its own nodes, and every coordinate is finite.
inline void check_mesh_file(const io::MeshFile& file) {
  for (const Vec3& x : file.positions)
    if (!std::isfinite(x.x()) || !std::isfinite(x.y()) || !std::isfinite(x.z()))
      violated("non-finite coordinate accepted", file.format);
  check_cells(file.tets, file.positions.size(), "tetrahedra");
  check_cells(file.triangles, file.positions.size(), "triangles");
  check_cells(file.edges, file.positions.size(), "edges");
}

}  // namespace pliant::fuzz

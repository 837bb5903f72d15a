// Private helpers shared by the text and binary writers of src/io (MEDIT, OFF, PLY).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace pliant::io::detail {

/// Appends the shortest decimal that reads back to the same double (std::to_chars).
inline void append_shortest(std::string& out, double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

/// Appends "x y z" per node and "3 a b c" per triangle, one per line: the ASCII body OFF and PLY share.
inline void append_ascii_nodes_and_triangles(std::string& out, const std::vector<Vec3>& positions,
                                             const std::vector<Tri>& triangles) {
  for (const Vec3& p : positions) {
    for (int k = 0; k < 3; ++k) {
      if (k) out += ' ';
      append_shortest(out, p[k]);
    }
    out += '\n';
  }
  for (const Tri& t : triangles) {
    out += "3 " + std::to_string(t[0]) + ' ' + std::to_string(t[1]) + ' ' + std::to_string(t[2]) + '\n';
  }
}

/// Checks a writer's input: finite coordinates and every cell index in [0, positions.size()).
/// `kind` names the cells in the message ("triangle", "tetrahedron").
template <class Cell>
Status check_cells(const std::filesystem::path& path, const std::vector<Vec3>& positions,
                   const std::vector<Cell>& cells, const char* kind) {
  for (std::size_t c = 0; c < cells.size(); ++c) {
    for (const Index v : cells[c]) {
      if (v < 0 || static_cast<std::size_t>(v) >= positions.size()) {
        return Error{path.string() + ": cannot write: " + kind + " " + std::to_string(c) +
                     " references node " + std::to_string(v) + ", but there are " +
                     std::to_string(positions.size()) + " nodes"};
      }
    }
  }
  return {};
}

/// Checks every coordinate is finite (no format Pliant reads accepts NaN or infinity back).
inline Status check_finite(const std::filesystem::path& path, const std::vector<Vec3>& positions) {
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!positions[i].allFinite()) {
      return Error{path.string() + ": cannot write: node " + std::to_string(i) +
                   " has a coordinate that is NaN or infinite"};
    }
  }
  return {};
}

}  // namespace pliant::io::detail

// Structured box of tetrahedra. The six-tet split is Kuhn's (Freudenthal's) triangulation of the cube;
// the five-tet split with alternating parity is the classic conforming "5-tet" cube decomposition.
#include "pliant/meshing/box.hpp"

#include "meshing/detail.hpp"

namespace pliant::meshing {

Result<TetMesh> box_mesh(const BoxDef& def) {
  static const char* kAxis[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const std::string size_field = std::string("size.") + kAxis[a];
    const std::string cells_field = std::string("cells.") + kAxis[a];
    if (auto e = detail::require_finite("box", (std::string("origin.") + kAxis[a]).c_str(), def.origin[a]))
      return *e;
    if (auto e = detail::require_positive("box", size_field.c_str(), def.size[a])) return *e;
    if (auto e = detail::require_at_least("box", cells_field.c_str(), def.cells[a], 1)) return *e;
  }
  const long long nx = def.cells[0], ny = def.cells[1], nz = def.cells[2];
  const int per_cell = def.split == CellSplit::six ? 6 : 5;  // five is the default (box.hpp)
  if (auto e = detail::require_element_budget("box", static_cast<long double>(nx) * ny * nz * per_cell))
    return *e;

  TetMesh mesh;
  const auto id = [&](long long i, long long j, long long k) {
    return static_cast<Index>(i + (nx + 1) * (j + (ny + 1) * k));
  };
  mesh.positions.reserve(static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  for (long long k = 0; k <= nz; ++k) {
    for (long long j = 0; j <= ny; ++j) {
      for (long long i = 0; i <= nx; ++i) {
        // Coordinates as origin + size · (i / n): the last layer lands exactly on origin + size.
        mesh.positions.emplace_back(
            def.origin.x() + def.size.x() * static_cast<double>(i) / static_cast<double>(nx),
            def.origin.y() + def.size.y() * static_cast<double>(j) / static_cast<double>(ny),
            def.origin.z() + def.size.z() * static_cast<double>(k) / static_cast<double>(nz));
      }
    }
  }
  mesh.tets.reserve(static_cast<std::size_t>(nx * ny * nz * per_cell));
  std::array<Index, 8> node;
  std::array<detail::LatticePoint, 8> point;
  for (long long k = 0; k < nz; ++k) {
    for (long long j = 0; j < ny; ++j) {
      for (long long i = 0; i < nx; ++i) {
        for (int v = 0; v < 8; ++v) {
          const int a = v & 1, b = (v >> 1) & 1, c = (v >> 2) & 1;
          node[v] = id(i + a, j + b, k + c);
          point[v] = {a, b, c};
        }
        detail::split_cell(node, point, def.split, ((i + j + k) & 1) != 0, mesh.tets);
      }
    }
  }
  return mesh;
}

}  // namespace pliant::meshing

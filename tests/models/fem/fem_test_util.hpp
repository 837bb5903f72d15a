// Shared helpers of the fem tests: beam meshes and reproducible perturbations.
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/meshing/box.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace pliant::fem::test {

/// A box mesh [0, size] with the given cells (6-tet split unless told).
inline TetMesh box(Vec3 size, std::array<Index, 3> cells,
                   meshing::CellSplit split = meshing::CellSplit::six) {
  meshing::BoxDef def;
  def.size = size;
  def.cells = cells;
  def.split = split;
  auto mesh = meshing::box_mesh(def);
  EXPECT_TRUE(mesh.ok()) << (mesh.ok() ? "" : mesh.message());
  return std::move(mesh.value());
}

/// Moves every node not on the box boundary by up to `amount`·h in each coordinate (seeded), so that
/// tests run on irregular tets, not only the structured split.
inline void jitter_interior(TetMesh& mesh, const Vec3& size, double h, double amount, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amount * h, amount * h);
  const double eps = 1e-9 * size.maxCoeff();
  for (Vec3& x : mesh.positions) {
    bool boundary = false;
    for (int d = 0; d < 3; ++d) boundary = boundary || x[d] < eps || x[d] > size[d] - eps;
    if (!boundary) x += Vec3(u(rng), u(rng), u(rng));
  }
}

/// Nodes with coordinate `axis` within tol of `value`.
inline std::vector<Index> nodes_at(const TetMesh& mesh, int axis, double value, double tol = 1e-9) {
  std::vector<Index> out;
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (std::abs(mesh.positions[i][axis] - value) <= tol) out.push_back(static_cast<Index>(i));
  return out;
}

inline materials::Material steel() { return materials::material_preset("steel").value(); }

}  // namespace pliant::fem::test

// Consistent and lumped tetrahedron masses; see mass.hpp.
#include "pliant/models/fem/assembly/mass.hpp"

#include "pliant/core/geometry.hpp"

#include <cmath>
#include <string>

namespace pliant::fem {
namespace {

Status check_densities(const TetMesh& mesh, std::span<const double> density) {
  if (auto s = check_fem_mesh(mesh); !s) return s;
  if (density.size() != mesh.tet_count())
    return Error{"fem mass: " + std::to_string(density.size()) + " densities for " +
                 std::to_string(mesh.tet_count()) + " tets"};
  for (std::size_t t = 0; t < density.size(); ++t)
    if (!(density[t] > 0.0) || !std::isfinite(density[t]))
      return Error{"fem mass: tet " + std::to_string(t) + " has density " + std::to_string(density[t]) +
                   " kg/m³; it must be positive and finite"};
  return {};
}

double tet_volume(const TetMesh& mesh, const Tet& t) {
  return signed_volume(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]],
                       mesh.positions[t[3]]);
}

}  // namespace

Mat12 consistent_tet_mass(double density, double volume) {
  const double m = density * volume / 20.0;
  Mat12 M = Mat12::Zero();
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) M.block<3, 3>(3 * a, 3 * b).diagonal().setConstant(a == b ? 2.0 * m : m);
  return M;
}

double lumped_tet_mass(double density, double volume) { return 0.25 * density * volume; }

Result<SparseMatrix> assemble_consistent_mass(const TetMesh& mesh, std::span<const double> density) {
  if (auto s = check_densities(mesh, density); !s) return s.error();
  // The element mass couples equal components only, so per node pair three entries; triplets are
  // summed in tet order by setFromTriplets, which keeps the result deterministic.
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(mesh.tet_count() * 48);
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    const Tet& tet = mesh.tets[t];
    const double m = density[t] * tet_volume(mesh, tet) / 20.0;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 3; ++c)
          triplets.emplace_back(3 * tet[a] + c, 3 * tet[b] + c, a == b ? 2.0 * m : m);
  }
  const auto n = static_cast<Eigen::Index>(3 * mesh.node_count());
  SparseMatrix M(n, n);
  M.setFromTriplets(triplets.begin(), triplets.end());
  return M;
}

Result<std::vector<double>> assemble_lumped_mass(const TetMesh& mesh, std::span<const double> density) {
  if (auto s = check_densities(mesh, density); !s) return s.error();
  std::vector<double> mass(mesh.node_count(), 0.0);
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    const Tet& tet = mesh.tets[t];
    const double m = lumped_tet_mass(density[t], tet_volume(mesh, tet));
    for (Index v : tet) mass[v] += m;
  }
  return mass;
}

}  // namespace pliant::fem

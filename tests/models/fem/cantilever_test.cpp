// Cantilever benchmark: a beam clamped at x = 0 with a transverse tip load P, against Timoshenko beam
// theory δ = PL³/(3EI) + PL/(κGA) with Cowper's shear coefficient κ = 10(1+ν)/(12+11ν) for a
// rectangle (Cowper, J. Appl. Mech. 33(2), 1966). Linear tets are too stiff in bending (shear
// locking), so the tip deflection approaches the theory from below as the mesh refines; the table of
// errors printed here is reproduced in docs/accuracy.md.
#include "models/fem/fem_test_util.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace pliant::fem {
using namespace pliant::materials;  // the materials the elements are tested with
namespace {
using linalg::SparseCholesky;

struct BeamResult {
  std::size_t nodes = 0, tets = 0;
  double deflection = 0.0;  // mean tip deflection (unit: m), positive downwards
};

constexpr double kL = 1.0, kB = 0.1, kH = 0.1, kP = 1000.0;  // m, m, m, N

BeamResult solve_beam(Index n, meshing::CellSplit split, const Material& m) {
  const Vec3 size(kL, kB, kH);
  const TetMesh mesh = test::box(size, {10 * n, n, n}, split);
  const SparseMatrix K = assemble_stiffness(mesh, m);
  const DofMap map = DofMap::from_fixed_nodes(mesh, test::nodes_at(mesh, 0, 0.0)).value();
  // Consistent nodal loads of a uniform traction -P/(bh) ez on the tip face: a third of each
  // boundary triangle's share to each of its corners.
  Eigen::VectorXd f = Eigen::VectorXd::Zero(K.rows());
  const double traction = kP / (kB * kH);
  for (const Tri& t : boundary_faces(mesh.tets)) {
    const Vec3 &a = mesh.positions[t[0]], &b = mesh.positions[t[1]], &c = mesh.positions[t[2]];
    if (std::abs(a.x() - kL) > 1e-9 || std::abs(b.x() - kL) > 1e-9 || std::abs(c.x() - kL) > 1e-9) continue;
    const double area = 0.5 * (b - a).cross(c - a).norm();
    for (Index v : t) f[3 * v + 2] -= traction * area / 3.0;
  }
  auto chol = SparseCholesky::factor(map.restrict_matrix(K));
  EXPECT_TRUE(chol.ok());
  const Eigen::VectorXd u = map.expand(chol->solve(map.restrict_vector(f)));
  const auto tip = test::nodes_at(mesh, 0, kL);
  double w = 0.0;
  for (Index v : tip) w -= u[3 * v + 2];
  return {mesh.node_count(), mesh.tet_count(), w / static_cast<double>(tip.size())};
}

double timoshenko(const Material& m) {
  const double E = m.youngs_modulus(), nu = m.poisson_ratio(), G = m.mu;
  const double I = kB * kH * kH * kH / 12.0, A = kB * kH;
  const double kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
  return kP * kL * kL * kL / (3.0 * E * I) + kP * kL / (kappa * G * A);
}

TEST(Cantilever, TipDeflectionConvergesToTimoshenko) {
  const Material m = material_from_young_poisson(200e9, 0.3).value();
  const double exact = timoshenko(m);
  std::printf("| split | cells (x×y×z) | nodes | tets | tip deflection (m) | Timoshenko (m) | error |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  for (auto split : {meshing::CellSplit::six, meshing::CellSplit::five}) {
    double previous_error = 1.0;
    Index previous_n = 0;
    for (Index n : {1, 2, 4, 6, 8, 10}) {
      const BeamResult r = solve_beam(n, split, m);
      const double error = (r.deflection - exact) / exact;
      std::printf("| %s | %d×%d×%d | %zu | %zu | %.6e | %.6e | %+.2f%% |\n",
                  split == meshing::CellSplit::six ? "6-tet" : "5-tet", 10 * n, n, n, r.nodes, r.tets,
                  r.deflection, exact, 100.0 * error);
      EXPECT_LT(error, 0.0) << "linear tets are stiffer than the beam";
      EXPECT_LT(std::abs(error), previous_error) << "error must shrink as the mesh refines (n = " << n << ")";
      if (n >= 6) {  // asymptotic range: the error falls at least like h^1.3 (observed about h^1.6)
        const double order = std::log(previous_error / std::abs(error)) / std::log(double(n) / previous_n);
        EXPECT_GT(order, 1.3) << "n = " << n;
      }
      previous_error = std::abs(error);
      previous_n = n;
    }
    EXPECT_LT(previous_error, 0.05) << "finest mesh within 5% of Timoshenko";
  }
}

// Nearly incompressible (ν = 0.49, rubber, silicone, tissue): linear tets lock, and how badly
// depends on the split. Kuhn's 6-tet split (all diagonals parallel) has too few independent
// volume-preserving modes and converges very slowly; the alternating 5-tet split stays close to its
// compressible behaviour. The table printed here is reproduced in docs/accuracy.md.
TEST(Cantilever, FiveTetSplitLocksFarLessThanSixForNearlyIncompressibleMaterial) {
  const Material m = material_from_young_poisson(1e6, 0.49).value();
  const double exact = timoshenko(m);
  std::printf("| split | cells (x×y×z) | nodes | tets | tip deflection (m) | δ / Timoshenko | order |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  std::map<int, double> ratio[2];
  for (int s = 0; s < 2; ++s) {
    const auto split = s == 0 ? meshing::CellSplit::six : meshing::CellSplit::five;
    Index previous_n = 0;
    for (Index n : {1, 2, 4, 6, 8, 10}) {
      const BeamResult r = solve_beam(n, split, m);
      ratio[s][n] = r.deflection / exact;
      std::string order = "";
      if (previous_n > 0) {
        const double p =
            std::log((1.0 - ratio[s][previous_n]) / (1.0 - ratio[s][n])) / std::log(double(n) / previous_n);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", p);
        order = buf;
      }
      std::printf("| %s | %d×%d×%d | %zu | %zu | %.6e | %.3f | %s |\n", s == 0 ? "6-tet" : "5-tet", 10 * n, n,
                  n, r.nodes, r.tets, r.deflection, ratio[s][n], order.c_str());
      EXPECT_GT(ratio[s][n], 0.0);
      EXPECT_LT(ratio[s][n], 1.0) << "linear tets are stiffer than the beam";
      previous_n = n;
    }
  }
  for (Index n : {1, 2, 4, 6, 8, 10}) EXPECT_GT(ratio[1][n], ratio[0][n]) << "n = " << n;
  // On the finest mesh (12k nodes) the 5-tet split is within 10% of beam theory, the 6-tet split
  // still more than 25% too stiff.
  EXPECT_GT(ratio[1][10], 0.90);
  EXPECT_LT(ratio[0][10], 0.75);
  // The 5-tet split on 1k nodes is already closer than the 6-tet split on 12k nodes.
  EXPECT_GT(ratio[1][4], ratio[0][10]);
  // Mean order of convergence of the error from the coarsest to the finest mesh (h falls 10×):
  // the 5-tet split's is more than twice the 6-tet split's (measured 1.12 and 0.47; the 6-tet
  // split is still far from its asymptotic rate at 12k nodes).
  const auto order = [&](int s) {
    return std::log((1.0 - ratio[s][1]) / (1.0 - ratio[s][10])) / std::log(10.0);
  };
  EXPECT_GT(order(1), 2.0 * order(0));
}

}  // namespace
}  // namespace pliant::fem

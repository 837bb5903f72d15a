// Test helpers shared by the families' tests: pseudo-random per-node vector fields and their
// flattening into one Eigen vector (node-major: x0, y0, z0, x1, ...), the layout of assembled matrices.
#pragma once

#include "pliant/core/types.hpp"

#include <Eigen/Core>

#include <random>
#include <span>
#include <vector>

namespace pliant::test {

/// n vectors with components uniform in [-1, 1], the same for the same seed.
inline std::vector<Vec3> random_field(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vec3> out(n);
  for (Vec3& p : out) p = Vec3(u(rng), u(rng), u(rng));
  return out;
}

/// The per-node vectors as one vector of 3·v.size() entries.
inline Eigen::VectorXd flatten(std::span<const Vec3> v) {
  Eigen::VectorXd out(3 * static_cast<Eigen::Index>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) out.segment<3>(3 * static_cast<Eigen::Index>(i)) = v[i];
  return out;
}

}  // namespace pliant::test

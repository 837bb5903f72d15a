// Basic numeric types shared by every Pliant layer.
#pragma once

#include <Eigen/Core>
// cross() and quaternions: MatrixBase::cross is declared by Core but defined here, so code using it
// without this include compiles and then fails to link.
#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <vector>

namespace pliant {

/// Index of a node or element. 32 bits: meshes up to 2^31 - 1 entities, half the memory of size_t.
using Index = std::int32_t;

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Vec3f = Eigen::Vector3f;
using Mat3 = Eigen::Matrix3d;

/// Four node indices of a tetrahedron; positive orientation means (x1-x0)·((x2-x0)×(x3-x0)) > 0.
using Tet = std::array<Index, 4>;
/// Three node indices of a triangle; counter-clockwise seen from the side its normal points to.
using Tri = std::array<Index, 3>;
/// Two node indices of an edge, stored with edge[0] < edge[1] where a function says "unique".
using Edge = std::array<Index, 2>;

/// View of a list of 3-vectors as a 3×N column matrix (no copy).
inline Eigen::Map<const Eigen::Matrix3Xd> as_matrix(const std::vector<Vec3>& points) {
  return {points.empty() ? nullptr : points.front().data(), 3, static_cast<Eigen::Index>(points.size())};
}
inline Eigen::Map<Eigen::Matrix3Xd> as_matrix(std::vector<Vec3>& points) {
  return {points.empty() ? nullptr : points.front().data(), 3, static_cast<Eigen::Index>(points.size())};
}

}  // namespace pliant

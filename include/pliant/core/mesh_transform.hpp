// MeshTransform: how a mesh as written in its file becomes a mesh in the scene's metres.
//
// A mesh file carries bare numbers; SOFA's liver, for one, is about 6.5 units across and meant in
// centimetres. A scene (and `pliant mesh` / `pliant info`) therefore says the file's length unit and
// may scale, rotate and place the mesh. The steps apply in one fixed, documented order:
//
//   p_scene = R · (s ⊙ (u · p_file)) + t
//
//   1. units      u: metres per file unit ("m" = 1, "cm" = 0.01, "mm" = 0.001)
//   2. scale      s: a factor per axis (a single number scales all three alike), in the file's axes
//   3. rotate     R: about the origin, given as axis + angle or as a unit quaternion [w, x, y, z]
//   4. translate  t: in metres, last, so it is where the mesh's origin ends up
//
// Scale factors are > 0: a mirror would turn every tetrahedron inside out.
#pragma once

#include "pliant/core/pose.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace pliant {

struct MeshTransform {
  double metres_per_unit = 1;  ///< length unit of the file (unit: m per file unit)
  Vec3 scale = Vec3::Ones();   ///< factor per axis, > 0 (unit: 1)
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();  ///< unit quaternion (unit: 1)
  Vec3 translate = Vec3::Zero();                                 ///< applied last (unit: m)

  /// True when applying it changes nothing (every step is exactly the identity).
  bool is_identity() const;
  /// The transformed point R · (s ⊙ (u · p)) + t.
  Vec3 apply(const Vec3& p) const;
};

/// Metres per unit for "m", "cm" or "mm"; nothing for any other text.
std::optional<double> metres_per_unit(std::string_view unit);

/// The unit names metres_per_unit accepts, for messages: "m, cm, mm".
const char* known_length_units();

/// Fails unless every factor is finite and > 0, naming the first offending one.
Status check_scale(const Vec3& scale);

/// Applies `transform` to every position in place.
void transform_positions(std::vector<Vec3>& positions, const MeshTransform& transform);

}  // namespace pliant

// Rotations as a scene file writes them: an axis and an angle in degrees, or a unit quaternion.
#include "pliant/core/pose.hpp"

#include "pliant/core/escape.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace pliant {

Result<Eigen::Quaterniond> axis_angle_rotation(const Vec3& axis, double degrees) {
  if (!axis.allFinite()) return Error{"rotation axis has a non-finite entry"};
  const double length = axis.norm();
  if (!(length > 0)) return Error{"rotation axis is the zero vector; give a direction such as [0, 0, 1]"};
  if (!std::isfinite(degrees)) return Error{"rotation angle is not a finite number of degrees"};
  return Eigen::Quaterniond(Eigen::AngleAxisd(degrees * std::numbers::pi / 180.0, axis / length));
}

Result<Eigen::Quaterniond> quaternion_rotation(double w, double x, double y, double z) {
  const Eigen::Quaterniond q(w, x, y, z);
  if (!q.coeffs().allFinite()) return Error{"quaternion [w, x, y, z] has a non-finite entry"};
  const double norm = q.norm();
  if (!(std::abs(norm - 1) <= 1e-3)) {
    return Error{"quaternion [w, x, y, z] has norm " + number_for_message(norm) +
                 ", expected 1 (a unit quaternion; [1, 0, 0, 0] is no rotation)"};
  }
  return q.normalized();
}

}  // namespace pliant

// Units and rigid placement of meshes read from files (the order is documented in the header).
#include "pliant/core/mesh_transform.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace pliant {
namespace {

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

}  // namespace

bool MeshTransform::is_identity() const {
  return metres_per_unit == 1 && scale == Vec3::Ones() &&
         rotation.coeffs() == Eigen::Quaterniond::Identity().coeffs() && translate == Vec3::Zero();
}

Vec3 MeshTransform::apply(const Vec3& p) const {
  return rotation * (scale.cwiseProduct(metres_per_unit * p)) + translate;
}

std::optional<double> metres_per_unit(std::string_view unit) {
  if (unit == "m") return 1.0;
  if (unit == "cm") return 0.01;
  if (unit == "mm") return 0.001;
  return std::nullopt;
}

const char* known_length_units() { return "m, cm, mm"; }

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
    return Error{"quaternion [w, x, y, z] has norm " + number(norm) +
                 ", expected 1 (a unit quaternion; [1, 0, 0, 0] is no rotation)"};
  }
  return q.normalized();
}

Status check_scale(const Vec3& scale) {
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(scale[k]) || !(scale[k] > 0)) {
      return Error{std::string("scale factor ") + "xyz"[k] + " is " + number(scale[k]) +
                   ", expected a finite number > 0 (a zero scale flattens the mesh, a negative one turns it "
                   "inside out)"};
    }
  }
  return {};
}

void transform_positions(std::vector<Vec3>& positions, const MeshTransform& transform) {
  if (transform.is_identity()) return;
  for (Vec3& p : positions) p = transform.apply(p);
}

}  // namespace pliant

// Units and rigid placement of meshes read from files (the order is documented in the header).
#include "pliant/core/mesh_transform.hpp"

#include "pliant/core/escape.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace pliant {

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

Status check_scale(const Vec3& scale) {
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(scale[k]) || !(scale[k] > 0)) {
      return Error{std::string("scale factor ") + "xyz"[k] + " is " + number_for_message(scale[k]) +
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

#include "pliant/models/meshless/phyxel_fields.hpp"

namespace pliant::meshless {

PhyxelFields phyxel_fields(const MlsBody& body, std::span<const Vec3> x) {
  const std::size_t n = body.rest.size();
  PhyxelFields out;
  if (x.size() != n) return out;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 u = x[i] - body.rest[i];
    out.displacement.insert(out.displacement.end(), {u.x(), u.y(), u.z()});
    const Mat3 J = deformation_gradient(body, x, static_cast<Index>(i));
    const Mat3 I = Mat3::Identity();
    Mat3 e = body.strain == StrainMeasure::green ? Mat3(0.5 * (J.transpose() * J - I))
                                                 : Mat3(0.5 * (J + J.transpose()) - I);
    if (!body.plastic_strain.empty()) e -= body.plastic_strain[i];
    const auto& m = body.materials[static_cast<std::size_t>(body.material[i])];
    const Mat3 S = m.lambda * e.trace() * I + 2.0 * m.mu * e;
    const double det = J.determinant();
    // Cauchy stress: (1/det J) J S Jᵀ for Green strain (S the second Piola stress); σ = S for linear.
    const Mat3 sigma =
        body.strain == StrainMeasure::green && det > 0.0 ? Mat3(J * S * J.transpose() / det) : S;
    out.strain.push_back(e.norm());
    out.stress.push_back(sigma.norm());
    out.volume_change.push_back(det - 1.0);
    out.volume.push_back(body.volume[i]);
  }
  return out;
}

}  // namespace pliant::meshless

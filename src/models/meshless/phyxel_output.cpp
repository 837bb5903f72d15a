#include "pliant/models/meshless/phyxel_output.hpp"

#include "pliant/core/point_set.hpp"
#include "pliant/io/vtu.hpp"

namespace pliant::meshless {

Status write_phyxels_vtu(const std::filesystem::path& path, const MlsBody& body, std::span<const Vec3> x) {
  const std::size_t n = body.rest.size();
  if (x.size() != n) return Error{path.string() + ": cannot write: positions do not match the phyxels"};
  PointSet points{{x.begin(), x.end()}};
  io::Field displacement{"displacement", 3, {}}, strain{"strain", 1, {}}, stress{"stress", 1, {}},
      volume_change{"volume_change", 1, {}}, volume{"volume", 1, {}};
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 u = x[i] - body.rest[i];
    displacement.values.insert(displacement.values.end(), {u.x(), u.y(), u.z()});
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
    strain.values.push_back(e.norm());
    stress.values.push_back(sigma.norm());
    volume_change.values.push_back(det - 1.0);
    volume.values.push_back(body.volume[i]);
  }
  return io::write_vtu(path, points, {displacement, strain, stress, volume_change, volume});
}

}  // namespace pliant::meshless

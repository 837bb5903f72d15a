// Hyperelastic tetrahedron element kernels; see hyperelastic_tet.hpp.
#include "pliant/models/fem/elements/hyperelastic_tet.hpp"

#include "pliant/models/fem/elements/psd_projection.hpp"
#include "pliant/models/fem/elements/stable_neo_hookean.hpp"
#include "pliant/models/fem/elements/stvk.hpp"

namespace pliant::fem {

double energy_density(Hyperelastic model, const Mat3& F, const materials::Material& m) {
  switch (model) {
    case Hyperelastic::stvk:
      return stvk_energy_density(F, m);
    case Hyperelastic::stable_neo_hookean:
      return stable_neo_hookean_energy_density(F, m);
  }
  return 0.0;
}

Mat3 first_piola(Hyperelastic model, const Mat3& F, const materials::Material& m) {
  switch (model) {
    case Hyperelastic::stvk:
      return stvk_first_piola(F, m);
    case Hyperelastic::stable_neo_hookean:
      return stable_neo_hookean_first_piola(F, m);
  }
  return Mat3::Zero();
}

Mat9 first_piola_derivative(Hyperelastic model, const Mat3& F, const materials::Material& m,
                            Definiteness definiteness) {
  const bool project = definiteness == Definiteness::projected;
  switch (model) {
    case Hyperelastic::stvk:
      return project ? project_psd(stvk_first_piola_derivative(F, m)) : stvk_first_piola_derivative(F, m);
    case Hyperelastic::stable_neo_hookean:
      return project ? stable_neo_hookean_first_piola_derivative_psd(F, m)
                     : stable_neo_hookean_first_piola_derivative(F, m);
  }
  return Mat9::Zero();
}

double hyperelastic_energy(Hyperelastic model, const materials::Material& m, const Mat3& dm_inverse,
                           double volume, const Vec12& x) {
  return volume * energy_density(model, deformation_gradient(dm_inverse, x), m);
}

Vec12 hyperelastic_force(Hyperelastic model, const materials::Material& m, const Mat3& dm_inverse,
                         double volume, const Vec12& x) {
  const Mat3 P = first_piola(model, deformation_gradient(dm_inverse, x), m);
  // (dF/dx)ᵀ vec P node by node: node k receives P ∇N_k.
  const Eigen::Matrix<double, 3, 4> G = shape_gradients(dm_inverse);
  Vec12 f;
  for (int k = 0; k < 4; ++k) f.segment<3>(3 * k) = -volume * (P * G.col(k));
  return f;
}

Mat12 hyperelastic_stiffness(Hyperelastic model, const materials::Material& m, const Mat3& dm_inverse,
                             double volume, const Vec12& x, Definiteness definiteness) {
  const Mat9 H = first_piola_derivative(model, deformation_gradient(dm_inverse, x), m, definiteness);
  const Mat9x12 dFdx = deformation_gradient_jacobian(dm_inverse);
  Mat12 K = volume * (dFdx.transpose() * H * dFdx);
  return 0.5 * (K + K.transpose());
}

}  // namespace pliant::fem

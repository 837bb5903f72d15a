// St. Venant-Kirchhoff energy density; see stvk.hpp for the formulas.
#include "pliant/models/fem/elements/stvk.hpp"

namespace pliant::fem {
namespace {

Mat3 green_strain(const Mat3& F) { return 0.5 * (F.transpose() * F - Mat3::Identity()); }

}  // namespace

double stvk_energy_density(const Mat3& F, const materials::Material& m) {
  const Mat3 E = green_strain(F);
  const double tr = E.trace();
  return m.mu * E.squaredNorm() + 0.5 * m.lambda * tr * tr;
}

Mat3 stvk_first_piola(const Mat3& F, const materials::Material& m) {
  const Mat3 E = green_strain(F);
  const Mat3 S = 2.0 * m.mu * E + m.lambda * E.trace() * Mat3::Identity();
  return F * S;
}

Mat9 stvk_first_piola_derivative(const Mat3& F, const materials::Material& m) {
  const Mat3 E = green_strain(F);
  const Mat3 S = 2.0 * m.mu * E + m.lambda * E.trace() * Mat3::Identity();
  Mat9 H;
  // Column c is dP for dF = the unit matrix of vec index c (row c % 3, column c / 3).
  for (int c = 0; c < 9; ++c) {
    Mat3 dF = Mat3::Zero();
    dF(c % 3, c / 3) = 1.0;
    const Mat3 FtdF = F.transpose() * dF;
    const Mat3 dE = 0.5 * (FtdF + FtdF.transpose());
    const Mat3 dS = 2.0 * m.mu * dE + m.lambda * dE.trace() * Mat3::Identity();
    const Mat3 dP = dF * S + F * dS;
    H.col(c) = Eigen::Map<const Vec9>(dP.data());
  }
  return 0.5 * (H + H.transpose());  // symmetric in exact arithmetic (a Hessian); remove rounding
}

}  // namespace pliant::fem

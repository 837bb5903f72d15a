#include "pliant/models/meshless/rest_factor_euler.hpp"

#include "pliant/core/timing.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/meshless/rest_stiffness.hpp"

#include <cmath>

namespace pliant::meshless {

struct RestFactorEuler::Factor {
  linalg::SparseCholesky cholesky;
};

RestFactorEuler::RestFactorEuler(RestFactorEuler&&) noexcept = default;
RestFactorEuler& RestFactorEuler::operator=(RestFactorEuler&&) noexcept = default;
RestFactorEuler::~RestFactorEuler() = default;

Result<RestFactorEuler> RestFactorEuler::build(const MlsForceModel& model, const MlsBody& body, double h) {
  if (!(h > 0.0) || !std::isfinite(h)) return Error{"rest-factor backward Euler: the step must be positive"};
  const Stopwatch clock;
  RestFactorEuler out;
  out.h_ = h;
  for (Index i = 0; i < body.size(); ++i)
    if (body.inv_mass[static_cast<std::size_t>(i)] > 0.0) out.free_.push_back(i);
  if (out.free_.empty()) return Error{"rest-factor backward Euler: the body has no free phyxel"};
  linalg::SparseMatrix A = rest_stiffness(body, true) * (h * h);
  const double mass_term = 1.0 + h * model.mass_damping();
  for (std::size_t k = 0; k < out.free_.size(); ++k)
    for (int a = 0; a < 3; ++a) {
      const auto r = static_cast<Eigen::Index>(3 * k + static_cast<std::size_t>(a));
      A.coeffRef(r, r) += mass_term * body.mass[static_cast<std::size_t>(out.free_[k])];
    }
  auto cholesky = linalg::SparseCholesky::factor(A);
  if (!cholesky.ok()) return Error{"rest-factor backward Euler: " + cholesky.message()};
  out.factor_ = std::make_unique<Factor>(Factor{std::move(cholesky).value()});
  out.f_.assign(body.rest.size(), Vec3::Zero());
  out.rhs_.assign(body.rest.size(), Vec3::Zero());
  out.b_.resize(static_cast<Eigen::Index>(3 * out.free_.size()));
  out.build_s_ = clock.seconds();
  return out;
}

long long RestFactorEuler::factor_nonzeros() const { return factor_->cholesky.factor_nonzeros(); }

void RestFactorEuler::step(const MlsForceModel& model, std::span<Vec3> x, std::span<Vec3> v) {
  const double h = h_;
  model.forces(x, v, f_);
  for (std::size_t i = 0; i < f_.size(); ++i) rhs_[i] = h * f_[i];
  model.add_stiffness_product(x, v, -h * h, rhs_);
  for (std::size_t k = 0; k < free_.size(); ++k)
    b_.segment<3>(static_cast<Eigen::Index>(3 * k)) = rhs_[static_cast<std::size_t>(free_[k])];
  const Eigen::VectorXd dv = factor_->cholesky.solve(b_);
  for (std::size_t k = 0; k < free_.size(); ++k) {
    const auto i = static_cast<std::size_t>(free_[k]);
    v[i] += dv.segment<3>(static_cast<Eigen::Index>(3 * k));
    x[i] += h * v[i];
  }
}

}  // namespace pliant::meshless

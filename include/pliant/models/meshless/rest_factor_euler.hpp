// Backward Euler on the rest tangent with a direct solve: the linearised step of dynamics::Integrator's
// backward Euler (Baraff & Witkin 1998) for an MlsForceModel,
//   ((1 + hα) M + h² K) Δv = h (f(x, v) - h K v),  v += Δv,  x += h v,
// where K is the rest tangent (rest_stiffness.hpp) and α the mass damping. Since K does not change,
// the system matrix is factored once (sparse Cholesky, CHOLMOD) at build and each step costs one force
// evaluation, one stiffness product and two triangular solves, instead of a Jacobi-preconditioned CG
// run. It gives the same step as the CG one to the CG's tolerance; like it, it linearises about the
// rest shape, so under large rotations the step is an approximation (the rotations enter only
// through the forces).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/meshless/mls_force_model.hpp"

#include <Eigen/Core>

#include <memory>
#include <span>
#include <vector>

namespace pliant::meshless {

class RestFactorEuler {
 public:
  /// Factors the system matrix of `model`'s body for step h (unit: s, > 0) over its free phyxels.
  /// Holds a reference to the body: valid while it is, and its fixed phyxels and links must not
  /// change. Fails with one line on a bad step, a body without free phyxels, or a failed factorisation.
  static Result<RestFactorEuler> build(const MlsForceModel& model, const MlsBody& body, double h);
  RestFactorEuler(RestFactorEuler&&) noexcept;
  RestFactorEuler& operator=(RestFactorEuler&&) noexcept;
  ~RestFactorEuler();

  /// Advances x and v (unit: m, m/s; one per phyxel) by h; fixed phyxels stay as given. The solve
  /// allocates its result vector (CHOLMOD), so a step is not allocation-free.
  void step(const MlsForceModel& model, std::span<Vec3> x, std::span<Vec3> v);

  double dt() const { return h_; }
  /// Non-zeros of the Cholesky factor (its fill-in).
  long long factor_nonzeros() const;
  /// Wall time of the assembly and factorisation at build (unit: s).
  double build_seconds() const { return build_s_; }

 private:
  struct Factor;
  RestFactorEuler() = default;
  double h_ = 0.0, build_s_ = 0.0;
  std::unique_ptr<Factor> factor_;
  std::vector<Index> free_;  // free phyxels in order
  std::vector<Vec3> f_, rhs_;
  Eigen::VectorXd b_;
};

}  // namespace pliant::meshless

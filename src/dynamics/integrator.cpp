// Time integrators over a ForceModel (formulas in include/pliant/dynamics/integrator.hpp). Explicit
// schemes follow their textbook definitions; the implicit ones linearise the forces about the current
// state once per step and solve with block-Jacobi (or Jacobi) preconditioned CG.
#include "pliant/dynamics/integrator.hpp"
#include "pliant/dynamics/implicit_scheme.hpp"

#include <Eigen/Cholesky>

#include <cmath>

namespace pliant::dynamics {

const char* scheme_name(Scheme scheme) {
  switch (scheme) {
    case Scheme::explicit_euler:
      return "explicit_euler";
    case Scheme::symplectic_euler:
      return "symplectic_euler";
    case Scheme::midpoint:
      return "midpoint";
    case Scheme::rk2:
      return "rk2";
    case Scheme::rk4:
      return "rk4";
    case Scheme::central_difference:
      return "central_difference";
    case Scheme::quasi_static_euler:
      return "quasi_static_euler";
    case Scheme::backward_euler:
      return "backward_euler";
    case Scheme::newmark:
      return "newmark";
    case Scheme::houbolt:
      return "houbolt";
  }
  return "unknown";
}

bool is_implicit(Scheme scheme) {
  return scheme == Scheme::backward_euler || scheme == Scheme::newmark || scheme == Scheme::houbolt;
}

double explicit_euler_critical_step(double k, double c, double m) {
  if (!(c > 0.0)) return 0.0;
  const double disc = c * c - 4.0 * k * m;
  if (disc < 0.0) return c / k;  // |1 + hλ|² = 1 - h c/m + h² k/m < 1  ⇔  h < c/k
  const double lambda_max = (c + std::sqrt(disc)) / (2.0 * m);
  return 2.0 / lambda_max;
}

void Integrator::ensure_size(std::size_t n) {
  if (f_.size() == n) return;
  for (auto* v : {&f_,   &x1_, &v1_, &k1x_, &k1v_, &k2x_, &k2v_, &k3x_, &k3v_, &k4x_,
                  &k4v_, &r_,  &z_,  &p_,   &q_,   &rhs_, &y_,   &xm1_, &xm2_, &acc_})
    v->assign(n, Vec3::Zero());
  diag_.assign(n, 0.0);
  blocks_.clear();  // sized by the first block-Jacobi solve: explicit schemes never need them
  history_ = 0;
}

void Integrator::step(const ForceModel& model, std::span<Vec3> x, std::span<Vec3> v) {
  const std::size_t n = x.size();
  ensure_size(n);
  const double h = def_.dt;
  const auto w = model.inverse_mass();
  const auto m = model.mass();
  switch (def_.scheme) {
    case Scheme::explicit_euler:
    case Scheme::symplectic_euler:
    case Scheme::midpoint:
    case Scheme::rk2:
    case Scheme::rk4:
    case Scheme::central_difference:
    case Scheme::quasi_static_euler:
      explicit_step(model, x, v);
      return;
    case Scheme::backward_euler: {
      model.forces(x, v, f_);
      // rhs = h f - h² K v
      for (std::size_t i = 0; i < n; ++i) {
        rhs_[i] = h * f_[i];
        y_[i].setZero();
      }
      model.add_stiffness_product(x, v, -h * h, rhs_);
      solve(model, x, 1.0, h * h, h, rhs_, y_);
      for (std::size_t i = 0; i < n; ++i)
        if (w[i] != 0.0) backward_euler_advance(h, y_[i], x[i], v[i]);
      return;
    }
    case Scheme::newmark: {
      const NewmarkParameters newmark{.beta = def_.newmark_beta, .gamma = def_.newmark_gamma};
      if (history_ == 0) {  // start-up: the acceleration of the current state
        model.forces(x, v, f_);
        start_acceleration(model, x, acc_);
        history_ = 1;
      }
      for (std::size_t i = 0; i < n; ++i) {
        x1_[i] = x[i];
        v1_[i] = v[i];
        if (w[i] != 0.0) newmark_predict(newmark, h, acc_[i], x1_[i], v1_[i]);
        y_[i] = acc_[i];
      }
      model.forces(x1_, v1_, f_);
      // The mass-plus-stiffness system of Newmark's form; damping enters through the model's own term.
      const ImplicitForm form = newmark_form(newmark, h, 0.0, 0.0);
      solve(model, x1_, form.mass_coefficient, form.stiffness_coefficient, form.velocity_scale, f_, y_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        acc_[i] = y_[i];
        x[i] = x1_[i];
        v[i] = v1_[i];
        newmark_correct(newmark, h, y_[i], x[i], v[i]);
      }
      return;
    }
    case Scheme::houbolt: {
      if (history_ == 0) {  // the past from a Taylor expansion with the current acceleration
        model.forces(x, v, f_);
        start_acceleration(model, x, acc_);
        for (std::size_t i = 0; i < n; ++i) {
          const Vec3& a = acc_[i];
          xm1_[i] = x[i] - h * v[i] + 0.5 * h * h * a;
          xm2_[i] = x[i] - 2.0 * h * v[i] + 2.0 * h * h * a;
        }
        history_ = 1;
      }
      for (std::size_t i = 0; i < n; ++i) {
        v1_[i] = (-7.0 * x[i] + 9.0 * xm1_[i] - 2.0 * xm2_[i]) / (6.0 * h);
        if (w[i] == 0.0) v1_[i] = v[i];
      }
      model.forces(x, v1_, f_);
      if (model.diagonal_mass()) {
        for (std::size_t i = 0; i < n; ++i) {
          rhs_[i] = f_[i] - m[i] * (-3.0 * x[i] + 4.0 * xm1_[i] - xm2_[i]) / (h * h);
          y_[i] = h * v[i];
        }
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          rhs_[i] = f_[i];
          q_[i] = (-3.0 * x[i] + 4.0 * xm1_[i] - xm2_[i]) / (h * h);
          y_[i] = h * v[i];
        }
        model.add_mass_product(q_, -1.0, rhs_);
      }
      solve(model, x, 2.0 / (h * h), 1.0, 11.0 / (6.0 * h), rhs_, y_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) {
          xm2_[i] = xm1_[i] = x[i];
          continue;
        }
        const Vec3 xn = x[i] + y_[i];
        v[i] = (11.0 * xn - 18.0 * x[i] + 9.0 * xm1_[i] - 2.0 * xm2_[i]) / (6.0 * h);
        xm2_[i] = xm1_[i];
        xm1_[i] = x[i];
        x[i] = xn;
      }
      return;
    }
  }
}

void Integrator::start_acceleration(const ForceModel& model, std::span<const Vec3> x, std::span<Vec3> a) {
  const auto w = model.inverse_mass();
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i) a[i] = w[i] * f_[i];
  if (model.diagonal_mass()) return;
  // M a = f on the free nodes (kinematic ones at a = 0), from the lumped guess; CG's scratch is free here.
  for (std::size_t i = 0; i < n; ++i) rhs_[i] = f_[i];
  solve(model, x, 1.0, 0.0, 0.0, rhs_, a);
}

int Integrator::static_step(const ForceModel& model, std::span<Vec3> x) {
  const std::size_t n = x.size();
  ensure_size(n);
  for (std::size_t i = 0; i < n; ++i) {
    v1_[i].setZero();
    y_[i].setZero();
  }
  model.forces(x, v1_, f_);
  solve(model, x, 0.0, 1.0, 0.0, f_, y_);
  const auto w = model.inverse_mass();
  for (std::size_t i = 0; i < n; ++i)
    if (w[i] != 0.0) x[i] += y_[i];
  return last_iterations_;
}

void Integrator::explicit_step(const ForceModel& model, std::span<Vec3> x, std::span<Vec3> v) {
  const std::size_t n = x.size();
  const double h = def_.dt;
  const auto w = model.inverse_mass();
  switch (def_.scheme) {
    case Scheme::explicit_euler:
      model.forces(x, v, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h * v[i];
        v[i] += h * w[i] * f_[i];
      }
      return;
    case Scheme::symplectic_euler:
      model.forces(x, v, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        v[i] += h * w[i] * f_[i];
        x[i] += h * v[i];
      }
      return;
    case Scheme::central_difference: {
      // Velocity form of x⁺ = 2x - x₋ + h² a: v holds v at the half step before x. Mass damping α is
      // treated exactly by the central average of v, (1 + αh/2) v⁺ = (1 - αh/2) v + h a_rest, so the
      // lumped system stays explicit (Masutani et al. 2004); other damping lags half a step.
      const double alpha = model.mass_damping();
      const auto m = model.mass();
      if (history_ == 0) {  // v at -h/2 from the initial state, for second-order accuracy
        model.forces(x, v, f_);
        for (std::size_t i = 0; i < n; ++i)
          if (w[i] != 0.0) v[i] -= 0.5 * h * w[i] * f_[i];
        history_ = 1;
      }
      model.forces(x, v, f_);
      const double lag = 1.0 - 0.5 * alpha * h, lead = 1.0 / (1.0 + 0.5 * alpha * h);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        const Vec3 f_rest = f_[i] + alpha * m[i] * v[i];
        v[i] = lead * (lag * v[i] + h * w[i] * f_rest);
        x[i] += h * v[i];
      }
      return;
    }
    case Scheme::quasi_static_euler:
      model.forces(x, v, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h * h * w[i] * f_[i];
        v[i].setZero();
      }
      return;
    case Scheme::midpoint:
      model.forces(x, v, f_);
      for (std::size_t i = 0; i < n; ++i) {
        const bool free = w[i] != 0.0;
        x1_[i] = free ? Vec3(x[i] + 0.5 * h * v[i]) : x[i];
        v1_[i] = free ? Vec3(v[i] + 0.5 * h * w[i] * f_[i]) : v[i];
      }
      model.forces(x1_, v1_, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h * v1_[i];
        v[i] += h * w[i] * f_[i];
      }
      return;
    case Scheme::rk2:
      model.forces(x, v, f_);
      for (std::size_t i = 0; i < n; ++i) {
        const bool free = w[i] != 0.0;
        k1v_[i] = w[i] * f_[i];
        x1_[i] = free ? Vec3(x[i] + h * v[i]) : x[i];
        v1_[i] = free ? Vec3(v[i] + h * k1v_[i]) : v[i];
      }
      model.forces(x1_, v1_, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += 0.5 * h * (v[i] + v1_[i]);
        v[i] += 0.5 * h * (k1v_[i] + w[i] * f_[i]);
      }
      return;
    case Scheme::rk4: {
      // Stage k_j = (velocity, acceleration) at the j-th evaluation point.
      auto stage = [&](std::span<const Vec3> xs, std::span<const Vec3> vs, std::vector<Vec3>& kx,
                       std::vector<Vec3>& kv) {
        model.forces(xs, vs, f_);
        for (std::size_t i = 0; i < n; ++i) {
          kx[i] = w[i] == 0.0 ? Vec3::Zero() : vs[i];
          kv[i] = w[i] * f_[i];
        }
      };
      auto advance = [&](const std::vector<Vec3>& kx, const std::vector<Vec3>& kv, double s) {
        for (std::size_t i = 0; i < n; ++i) {
          x1_[i] = x[i] + s * kx[i];
          v1_[i] = v[i] + s * kv[i];
        }
      };
      stage(x, v, k1x_, k1v_);
      advance(k1x_, k1v_, 0.5 * h);
      stage(x1_, v1_, k2x_, k2v_);
      advance(k2x_, k2v_, 0.5 * h);
      stage(x1_, v1_, k3x_, k3v_);
      advance(k3x_, k3v_, h);
      stage(x1_, v1_, k4x_, k4v_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h / 6.0 * (k1x_[i] + 2.0 * k2x_[i] + 2.0 * k3x_[i] + k4x_[i]);
        v[i] += h / 6.0 * (k1v_[i] + 2.0 * k2v_[i] + 2.0 * k3v_[i] + k4v_[i]);
      }
      return;
    }
    default:
      return;
  }
}

void Integrator::apply(const ForceModel& model, std::span<const Vec3> x, double alpha, double beta_k,
                       double beta_d, std::span<const Vec3> p, std::span<Vec3> out) {
  const std::size_t n = x.size();
  const auto m = model.mass();
  const auto w = model.inverse_mass();
  const double mass_term = alpha + beta_d * model.mass_damping();  // D holds α M too
  if (model.diagonal_mass()) {
    for (std::size_t i = 0; i < n; ++i) out[i] = mass_term * m[i] * p[i];
  } else {
    for (std::size_t i = 0; i < n; ++i) out[i].setZero();
    model.add_mass_product(p, mass_term, out);
  }
  if (beta_k != 0.0) model.add_stiffness_product(x, p, beta_k, out);
  if (beta_d != 0.0) model.add_damping_product(x, p, beta_d, out);
  for (std::size_t i = 0; i < n; ++i)
    if (w[i] == 0.0) out[i].setZero();
}

void Integrator::solve(const ForceModel& model, std::span<const Vec3> x, double alpha, double beta_k,
                       double beta_d, std::span<const Vec3> rhs, std::span<Vec3> y) {
  const std::size_t n = x.size();
  const auto m = model.mass();
  const auto w = model.inverse_mass();
  const double mass_term = alpha + beta_d * model.mass_damping();
  // Block Jacobi where the model has exact diagonal blocks (and the mass is the lumped one), inverted
  // per node; a block that is not positive definite (or not finite) falls back to its diagonal's mean.
  bool blocks = false;
  if (def_.preconditioner == Preconditioner::block_jacobi && model.diagonal_mass()) {
    blocks_.resize(n);
    for (std::size_t i = 0; i < n; ++i) blocks_[i] = (mass_term * m[i]) * Mat3::Identity();
    blocks = model.add_block_diagonal(x, beta_k, beta_d, blocks_);
    if (blocks) {
      for (std::size_t i = 0; i < n; ++i) {
        const Eigen::LLT<Mat3> llt(blocks_[i]);
        const Mat3 inverse = llt.solve(Mat3::Identity());
        const double mean = blocks_[i].trace() / 3.0;
        blocks_[i] = llt.info() == Eigen::Success && inverse.allFinite()
                         ? inverse
                         : Mat3((mean > 0.0 ? 1.0 / mean : 1.0) * Mat3::Identity());
      }
    }
  }
  if (!blocks) {
    for (std::size_t i = 0; i < n; ++i) diag_[i] = mass_term * m[i];
    model.add_jacobi_diagonal(x, beta_k, beta_d, diag_);
  }
  const auto precondition = [&](std::size_t i) {
    return blocks ? Vec3(blocks_[i] * r_[i]) : diag_[i] > 0.0 ? Vec3(r_[i] / diag_[i]) : r_[i];
  };
  for (std::size_t i = 0; i < n; ++i)
    if (w[i] == 0.0) y[i].setZero();
  apply(model, x, alpha, beta_k, beta_d, y, q_);
  double rhs_norm2 = 0.0, rz = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool free = w[i] != 0.0;
    r_[i] = free ? Vec3(rhs[i] - q_[i]) : Vec3::Zero();
    z_[i] = precondition(i);
    p_[i] = z_[i];
    rz += r_[i].dot(z_[i]);
    if (free) rhs_norm2 += rhs[i].squaredNorm();
  }
  const double tol2 = def_.cg_tolerance * def_.cg_tolerance * rhs_norm2;
  last_iterations_ = 0;
  for (int it = 0; it < def_.cg_max_iterations; ++it) {
    double r2 = 0.0;
    for (std::size_t i = 0; i < n; ++i) r2 += r_[i].squaredNorm();
    if (r2 <= tol2 || rz == 0.0) break;
    apply(model, x, alpha, beta_k, beta_d, p_, q_);
    double pq = 0.0;
    for (std::size_t i = 0; i < n; ++i) pq += p_[i].dot(q_[i]);
    if (!(pq > 0.0)) break;
    const double a = rz / pq;
    double rz_new = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      y[i] += a * p_[i];
      r_[i] -= a * q_[i];
      z_[i] = precondition(i);
      rz_new += r_[i].dot(z_[i]);
    }
    const double b = rz_new / rz;
    rz = rz_new;
    for (std::size_t i = 0; i < n; ++i) p_[i] = z_[i] + b * p_[i];
    last_iterations_ = it + 1;
  }
  double r2 = 0.0;
  for (std::size_t i = 0; i < n; ++i) r2 += r_[i].squaredNorm();
  last_residual_ = rhs_norm2 > 0.0 ? std::sqrt(r2 / rhs_norm2) : 0.0;
}

}  // namespace pliant::dynamics

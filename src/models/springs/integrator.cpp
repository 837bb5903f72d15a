// Mass-spring integrators. Explicit schemes follow their textbook definitions; the implicit ones
// linearise the forces about the current state once per step and solve with Jacobi-preconditioned CG:
//  backward Euler (Baraff & Witkin 1998): (M - h D - h² K) Δv = h (F + h K v)
//  Newmark (1959) with predictors x̃ = x + h v + h²(½ - β) a, ṽ = v + h(1 - γ) a:
//    (M - β h² K - γ h D) a⁺ = F(x̃, ṽ);  x⁺ = x̃ + β h² a⁺, v⁺ = ṽ + γ h a⁺
//  Houbolt (1950): a⁺ = (2x⁺ - 5x + 4x₋₁ - x₋₂)/h², v⁺ = (11x⁺ - 18x + 9x₋₁ - 2x₋₂)/(6h); with
//    x⁺ = x + Δ:  (2M/h² - K - 11/(6h) D) Δ = F(x, v₀) - M(-3x + 4x₋₁ - x₋₂)/h²,
//    v₀ = (-7x + 9x₋₁ - 2x₋₂)/(6h); the history starts from x₋ₖ = x - k h v.
// Here K = ∂F/∂x and D = ∂F/∂v (negative semidefinite), so every operator is symmetric positive
// definite on the free nodes.
#include "pliant/models/springs/integrator.hpp"

#include <cmath>
#include <limits>

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

double explicit_euler_critical_step(double k, double c, double m) {
  if (!(c > 0.0)) return 0.0;
  const double disc = c * c - 4.0 * k * m;
  if (disc < 0.0) return c / k;  // |1 + hλ|² = 1 - h c/m + h² k/m < 1  ⇔  h < c/k
  const double lambda_max = (c + std::sqrt(disc)) / (2.0 * m);
  return 2.0 / lambda_max;
}

double explicit_euler_stable_step(const SpringMesh& mesh, double mass_damping) {
  const std::size_t n = mesh.position.size();
  std::vector<double> bound(n, 0.0);
  double beta_min = std::numeric_limits<double>::infinity(), beta_max = 0.0;
  for (std::size_t s = 0; s < mesh.rest_length.size(); ++s) {
    const auto a = static_cast<std::size_t>(mesh.spring_nodes[s][0]);
    const auto b = static_cast<std::size_t>(mesh.spring_nodes[s][1]);
    const double k = mesh.stiffness[s];
    if (!(k > 0.0)) continue;
    // A fixed node is no degree of freedom: its spring adds to the diagonal block only.
    const bool both_free = mesh.inv_mass[a] != 0.0 && mesh.inv_mass[b] != 0.0;
    const double coupling = both_free ? k / std::sqrt(mesh.mass[a] * mesh.mass[b]) : 0.0;
    bound[a] += k / mesh.mass[a] + coupling;
    bound[b] += k / mesh.mass[b] + coupling;
    beta_min = std::min(beta_min, mesh.damping[s] / k);
    beta_max = std::max(beta_max, mesh.damping[s] / k);
  }
  double w2_max = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (mesh.inv_mass[i] != 0.0) w2_max = std::max(w2_max, bound[i]);
  }
  double h = std::numeric_limits<double>::infinity();
  if (!(w2_max > 0.0)) return h;
  // Modes on a logarithmic grid down to 1e-8 ω²_max: the limit α/ω² + β of an underdamped mode falls
  // with ω, that of an overdamped one (2/|λ_max|) too, so the worst case sits at the top; the grid
  // also covers the crossover between the two.
  constexpr int kSamples = 400;
  for (const double beta : {beta_min, beta_max}) {
    for (int i = 0; i <= kSamples; ++i) {
      const double w2 = w2_max * std::pow(10.0, -8.0 * i / kSamples);
      h = std::min(h, explicit_euler_critical_step(w2, mass_damping + beta * w2, 1.0));
      if (h == 0.0) return 0.0;
    }
  }
  return h;
}

void Integrator::ensure_size(std::size_t n) {
  if (f_.size() == n) return;
  for (auto* v : {&f_,   &x1_, &v1_, &k1x_, &k1v_, &k2x_, &k2v_, &k3x_, &k3v_, &k4x_,
                  &k4v_, &r_,  &z_,  &p_,   &q_,   &rhs_, &y_,   &xm1_, &xm2_, &acc_})
    v->assign(n, Vec3::Zero());
  diag_.assign(n, 0.0);
  history_ = 0;
}

void Integrator::step(SpringMesh& mesh, const Loads& loads) {
  const std::size_t n = mesh.position.size();
  ensure_size(n);
  mass_damping_ = loads.mass_damping;
  const double h = def_.dt;
  auto& x = mesh.position;
  auto& v = mesh.velocity;
  const auto& w = mesh.inv_mass;
  switch (def_.scheme) {
    case Scheme::explicit_euler:
    case Scheme::symplectic_euler:
    case Scheme::midpoint:
    case Scheme::rk4:
    case Scheme::quasi_static_euler:
      explicit_step(mesh, loads);
      return;
    case Scheme::backward_euler: {
      accumulate_forces(mesh, x, v, loads, f_);
      // rhs = h F - h² (-K) v
      for (std::size_t i = 0; i < n; ++i) {
        rhs_[i] = h * f_[i];
        y_[i].setZero();
      }
      add_stiffness_product(mesh, x, v, -h * h, rhs_);
      solve(mesh, x, 1.0, h * h, h, rhs_, y_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        v[i] += y_[i];
        x[i] += h * v[i];
      }
      return;
    }
    case Scheme::newmark: {
      const double beta = def_.newmark_beta, gamma = def_.newmark_gamma;
      if (history_ == 0) {  // start-up: the acceleration of the current state
        accumulate_forces(mesh, x, v, loads, f_);
        for (std::size_t i = 0; i < n; ++i) acc_[i] = w[i] * f_[i];
        history_ = 1;
      }
      for (std::size_t i = 0; i < n; ++i) {
        x1_[i] = w[i] == 0.0 ? x[i] : Vec3(x[i] + h * v[i] + h * h * (0.5 - beta) * acc_[i]);
        v1_[i] = w[i] == 0.0 ? v[i] : Vec3(v[i] + h * (1.0 - gamma) * acc_[i]);
        y_[i] = acc_[i];
      }
      accumulate_forces(mesh, x1_, v1_, loads, f_);
      solve(mesh, x1_, 1.0, beta * h * h, gamma * h, f_, y_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        acc_[i] = y_[i];
        x[i] = x1_[i] + beta * h * h * y_[i];
        v[i] = v1_[i] + gamma * h * y_[i];
      }
      return;
    }
    case Scheme::houbolt: {
      if (history_ == 0) {
        for (std::size_t i = 0; i < n; ++i) {
          xm1_[i] = x[i] - h * v[i];
          xm2_[i] = x[i] - 2.0 * h * v[i];
        }
        history_ = 1;
      }
      for (std::size_t i = 0; i < n; ++i) {
        v1_[i] = (-7.0 * x[i] + 9.0 * xm1_[i] - 2.0 * xm2_[i]) / (6.0 * h);
        if (w[i] == 0.0) v1_[i] = v[i];
      }
      accumulate_forces(mesh, x, v1_, loads, f_);
      for (std::size_t i = 0; i < n; ++i) {
        rhs_[i] = f_[i] - mesh.mass[i] * (-3.0 * x[i] + 4.0 * xm1_[i] - xm2_[i]) / (h * h);
        y_[i] = h * v[i];
      }
      solve(mesh, x, 2.0 / (h * h), 1.0, 11.0 / (6.0 * h), rhs_, y_);
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

void Integrator::explicit_step(SpringMesh& mesh, const Loads& loads) {
  const std::size_t n = mesh.position.size();
  const double h = def_.dt;
  auto& x = mesh.position;
  auto& v = mesh.velocity;
  const auto& w = mesh.inv_mass;
  switch (def_.scheme) {
    case Scheme::explicit_euler:
      accumulate_forces(mesh, x, v, loads, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h * v[i];
        v[i] += h * w[i] * f_[i];
      }
      return;
    case Scheme::symplectic_euler:
      accumulate_forces(mesh, x, v, loads, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        v[i] += h * w[i] * f_[i];
        x[i] += h * v[i];
      }
      return;
    case Scheme::quasi_static_euler:
      accumulate_forces(mesh, x, v, loads, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h * h * w[i] * f_[i];
        v[i].setZero();
      }
      return;
    case Scheme::midpoint:
      accumulate_forces(mesh, x, v, loads, f_);
      for (std::size_t i = 0; i < n; ++i) {
        const bool free = w[i] != 0.0;
        x1_[i] = free ? Vec3(x[i] + 0.5 * h * v[i]) : x[i];
        v1_[i] = free ? Vec3(v[i] + 0.5 * h * w[i] * f_[i]) : v[i];
      }
      accumulate_forces(mesh, x1_, v1_, loads, f_);
      for (std::size_t i = 0; i < n; ++i) {
        if (w[i] == 0.0) continue;
        x[i] += h * v1_[i];
        v[i] += h * w[i] * f_[i];
      }
      return;
    case Scheme::rk4: {
      // Stage k_j = (velocity, acceleration) at the j-th evaluation point.
      auto stage = [&](std::span<const Vec3> xs, std::span<const Vec3> vs, std::vector<Vec3>& kx,
                       std::vector<Vec3>& kv) {
        accumulate_forces(mesh, xs, vs, loads, f_);
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

void Integrator::apply(const SpringMesh& mesh, std::span<const Vec3> x, double alpha, double beta_k,
                       double beta_d, std::span<const Vec3> p, std::span<Vec3> out) {
  const std::size_t n = mesh.position.size();
  const double mass_term = alpha + beta_d * mass_damping_;  // -∂F/∂v holds m·α on the diagonal
  for (std::size_t i = 0; i < n; ++i) out[i] = mass_term * mesh.mass[i] * p[i];
  add_stiffness_product(mesh, x, p, beta_k, out);
  if (beta_d != 0.0) add_damping_product(mesh, x, p, beta_d, out);
  for (std::size_t i = 0; i < n; ++i)
    if (mesh.inv_mass[i] == 0.0) out[i].setZero();
}

void Integrator::solve(const SpringMesh& mesh, std::span<const Vec3> x, double alpha, double beta_k,
                       double beta_d, std::span<const Vec3> rhs, std::span<Vec3> y) {
  const std::size_t n = mesh.position.size();
  // Jacobi preconditioner: the mass term plus each spring's axial stiffness and damping on its ends.
  for (std::size_t i = 0; i < n; ++i) diag_[i] = (alpha + beta_d * mass_damping_) * mesh.mass[i];
  for (std::size_t s = 0; s < mesh.spring_nodes.size(); ++s) {
    const double d = beta_k * mesh.stiffness[s] + beta_d * mesh.damping[s];
    diag_[at(mesh.spring_nodes[s][0])] += d;
    diag_[at(mesh.spring_nodes[s][1])] += d;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (mesh.inv_mass[i] == 0.0) y[i].setZero();
  apply(mesh, x, alpha, beta_k, beta_d, y, q_);
  double rhs_norm2 = 0.0, rz = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool free = mesh.inv_mass[i] != 0.0;
    r_[i] = free ? Vec3(rhs[i] - q_[i]) : Vec3::Zero();
    z_[i] = r_[i] / diag_[i];
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
    apply(mesh, x, alpha, beta_k, beta_d, p_, q_);
    double pq = 0.0;
    for (std::size_t i = 0; i < n; ++i) pq += p_[i].dot(q_[i]);
    if (!(pq > 0.0)) break;
    const double a = rz / pq;
    double rz_new = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      y[i] += a * p_[i];
      r_[i] -= a * q_[i];
      z_[i] = r_[i] / diag_[i];
      rz_new += r_[i].dot(z_[i]);
    }
    const double b = rz_new / rz;
    rz = rz_new;
    for (std::size_t i = 0; i < n; ++i) p_[i] = z_[i] + b * p_[i];
    last_iterations_ = it + 1;
  }
}

}  // namespace pliant::springs

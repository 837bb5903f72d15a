#include "pliant/models/meshless/mls_force_model.hpp"

#include "core/parallel_for.hpp"

#include "pliant/core/threads.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pliant::meshless {
namespace {

constexpr Index kParallelFrom = 2048;  // phyxels below which a step runs on one thread

int team(Index n) { return n >= kParallelFrom ? solver_threads() : 1; }

Mat3 cofactor(const Mat3& J) {
  Mat3 c;
  c.row(0) = J.row(1).cross(J.row(2));
  c.row(1) = J.row(2).cross(J.row(0));
  c.row(2) = J.row(0).cross(J.row(1));
  return c;
}

// The strain of J in the body's measure (Green or linear).
Mat3 strain_of(const Mat3& J, StrainMeasure strain) {
  if (strain == StrainMeasure::green) return 0.5 * (J.transpose() * J - Mat3::Identity());
  const Mat3 H = J - Mat3::Identity();
  return 0.5 * (H + H.transpose());
}

// First Piola stress P and energy density Ψ of one phyxel at deformation gradient J, with plastic
// strain `plastic` subtracted from the strain (Müller et al. 2004).
Mat3 piola(const Mat3& J, const materials::Material& m, StrainMeasure strain, double kv, const Mat3& plastic,
           double* energy) {
  const Mat3 I = Mat3::Identity();
  const Mat3 e = strain_of(J, strain) - plastic;
  const double tr = e.trace();
  const Mat3 S = m.lambda * tr * I + 2.0 * m.mu * e;
  Mat3 P = strain == StrainMeasure::green ? Mat3(J * S) : S;
  double psi = energy ? m.mu * e.squaredNorm() + 0.5 * m.lambda * tr * tr : 0.0;
  if (kv > 0.0) {
    const double dv = J.determinant() - 1.0;
    P += kv * dv * cofactor(J);
    if (energy) psi += 0.5 * kv * dv * dv;
  }
  if (energy) *energy = psi;
  return P;
}

// The largest eigenvalue of a symmetric 3 × 3 matrix in closed form (Smith 1961: the eigenvalues are
// q + 2p cos(φ + 2πk/3) with q = tr/3, p² = |A - qI|²/6 and cos 3φ = det((A - qI)/p)/2).
double largest_eigenvalue(const Mat3& A) {
  const double q = A.trace() / 3.0;
  const Mat3 B = A - q * Mat3::Identity();
  const double p2 = B.squaredNorm() / 6.0;
  if (!(p2 > 1e-30 * q * q)) return std::isnan(p2) ? p2 : q;  // a multiple of I, or a NaN
  const double p = std::sqrt(p2);
  const double r = std::clamp((B / p).determinant() / 2.0, -1.0, 1.0);
  return q + 2.0 * p * std::cos(std::acos(r) / 3.0);
}

// An upper bound of that eigenvalue without the trigonometry: q + 2p (cos ≤ 1 above), exact when the two
// smaller eigenvalues are equal (a uniaxial stretch, or rest). A sixth of largest_eigenvalue's cost.
double largest_eigenvalue_bound(const Mat3& A) {
  const double q = A.trace() / 3.0;
  return q + 2.0 * std::sqrt((A - q * Mat3::Identity()).squaredNorm() / 6.0);
}

}  // namespace

Mat3 MlsForceModel::plastic(std::size_t i) const {
  return body_.plastic_strain.empty() ? Mat3::Zero() : body_.plastic_strain[i];
}

MlsForceModel::MlsForceModel(const MlsBody& body, MlsLoads loads)
    : body_(body),
      loads_(loads),
      jacobi_(body.rest.size(), 0.0),
      stress_(body.rest.size()),
      product_(body.rest.size()) {
  // Diagonal of the rest tangent per phyxel, bounded per degree of freedom by (λ + k_v + 2μ) v_i |d|²
  // for each link end (the second derivative of Ψ along e_a dᵀ is μ(|d|² + d_a²) + λ d_a²).
  for (std::size_t i = 0; i < body.rest.size(); ++i) {
    const auto& m = body.materials[static_cast<std::size_t>(body.material[i])];
    const double c = (m.lambda + body.volume_stiffness + 2.0 * m.mu) * body.volume[i];
    for (Index l = body.link_begin[i]; l < body.link_begin[i + 1]; ++l) {
      jacobi_[static_cast<std::size_t>(body.link_target[static_cast<std::size_t>(l)])] +=
          c * body.link_d[static_cast<std::size_t>(l)].squaredNorm();
    }
    jacobi_[i] += c * body.d_sum[i].squaredNorm();
  }
}

void MlsForceModel::gather(std::span<const Mat3> g, double scale, std::span<Vec3> y) const {
  const Index n = body_.size();
  parallel_for(n, team(n), [&](Index j) {
    const auto ju = static_cast<std::size_t>(j);
    Vec3 sum = g[ju] * body_.d_sum[ju];
    for (Index k = body_.in_begin[ju]; k < body_.in_begin[ju + 1]; ++k) {
      const auto ku = static_cast<std::size_t>(k);
      sum.noalias() -= g[static_cast<std::size_t>(body_.in_source[ku])] *
                       body_.link_d[static_cast<std::size_t>(body_.in_link[ku])];
    }
    y[ju] += scale * sum;
  });
}

void MlsForceModel::elastic_forces(std::span<const Vec3> x, std::span<Vec3> f) const {
  const Index n = body_.size();
  const double kv = body_.volume_stiffness;
  double stretch = 1.0, stiff = 1.0;
  // Not parallel_for (core/parallel_for.hpp) for its max reduction, but on the same rule: one thread runs a
  // plain loop (a one-thread OpenMP region allocates its team).
  auto phyxel = [&](Index i, double& high_stretch, double& high_stiff) {
    const auto iu = static_cast<std::size_t>(i);
    const Mat3 J = deformation_gradient(body_, x, i);
    const auto& m = body_.materials[static_cast<std::size_t>(body_.material[iu])];
    stress_[iu] = body_.volume[iu] * piola(J, m, body_.strain, kv, plastic(iu), nullptr);
    // The maxima over the phyxels of λ_max(JᵀJ) and of the stiffening (nondecreasing in it): the exact
    // eigenvalue only where its cheap upper bound could raise one of them (NaN-safe comparisons).
    const Mat3 C = J.transpose() * J;
    const double det = J.determinant(), upper = largest_eigenvalue_bound(C);
    if (!(upper <= high_stretch) ||
        !(stretch_stiffening(upper, det, body_.strain, m.lambda, m.mu, kv) <= high_stiff)) {
      const double c = largest_eigenvalue(C);
      const double g = stretch_stiffening(c, det, body_.strain, m.lambda, m.mu, kv);
      // A NaN becomes +∞ (std::max would keep a NaN only as its first argument).
      high_stretch = std::isnan(c) ? std::numeric_limits<double>::infinity() : std::max(high_stretch, c);
      high_stiff = std::isnan(g) ? std::numeric_limits<double>::infinity() : std::max(high_stiff, g);
    }
  };
  if (team(n) <= 1) {
    for (Index i = 0; i < n; ++i) phyxel(i, stretch, stiff);
  } else {
#pragma omp parallel for schedule(static) num_threads(team(n)) reduction(max : stretch, stiff)
    for (Index i = 0; i < n; ++i) phyxel(i, stretch, stiff);
  }
  max_stretch2_ = stretch;
  stiffening_ = stiff;
  std::fill(f.begin(), f.end(), Vec3::Zero());
  gather(stress_, 1.0, f);
}

void MlsForceModel::forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const {
  elastic_forces(x, f);
  const bool external = loads_.external.size() == body_.rest.size();
  for (std::size_t i = 0; i < body_.rest.size(); ++i) {
    f[i] += body_.mass[i] * (loads_.gravity - loads_.mass_damping * v[i]);
    if (external) f[i] += loads_.external[i];
  }
}

void MlsForceModel::add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                          std::span<Vec3> y) const {
  const Index n = body_.size();
  const double kv = body_.volume_stiffness;
  const bool current = tangent_ == MlsTangent::current;
  const bool green = body_.strain == StrainMeasure::green;
  parallel_for(n, team(n), [&](Index i) {
    const auto iu = static_cast<std::size_t>(i);
    const auto& m = body_.materials[static_cast<std::size_t>(body_.material[iu])];
    // dJ = Σ_j (p_j - p_i) d_ijᵀ, the change of J along p (and J itself for the current tangent).
    Mat3 dJ = Mat3::Zero(), J = Mat3::Identity();
    const Vec3 ui = current ? Vec3(x[iu] - body_.rest[iu]) : Vec3::Zero();
    for (Index l = body_.link_begin[iu]; l < body_.link_begin[iu + 1]; ++l) {
      const auto lu = static_cast<std::size_t>(l);
      const auto j = static_cast<std::size_t>(body_.link_target[lu]);
      dJ.noalias() += (p[j] - p[iu]) * body_.link_d[lu].transpose();
      if (current) J.noalias() += (x[j] - body_.rest[j] - ui) * body_.link_d[lu].transpose();
    }
    Mat3 dP;
    if (!current) {
      const Mat3 eps = 0.5 * (dJ + dJ.transpose());
      dP = (m.lambda + kv) * eps.trace() * Mat3::Identity() + 2.0 * m.mu * eps;
    } else {
      const Mat3 JtdJ = green ? Mat3(J.transpose() * dJ) : dJ;
      const Mat3 dE = 0.5 * (JtdJ + JtdJ.transpose());
      const Mat3 dS = m.lambda * dE.trace() * Mat3::Identity() + 2.0 * m.mu * dE;
      dP = green ? Mat3(J * dS) : dS;
      if (kv > 0.0) {
        const Mat3 c = cofactor(J);
        dP += kv * c.cwiseProduct(dJ).sum() * c;
      }
    }
    product_[iu] = body_.volume[iu] * dP;
  });
  gather(product_, -scale, y);  // K = -∂f/∂x
}

void MlsForceModel::add_damping_product(std::span<const Vec3> /*x*/, std::span<const Vec3> /*p*/,
                                        double /*scale*/, std::span<Vec3> /*y*/) const {}

void MlsForceModel::add_jacobi_diagonal(std::span<const Vec3> /*x*/, double beta_k, double /*beta_d*/,
                                        std::span<double> diagonal) const {
  for (std::size_t i = 0; i < jacobi_.size(); ++i) diagonal[i] += beta_k * jacobi_[i];
}

bool MlsForceModel::add_block_diagonal(std::span<const Vec3> x, double beta_k, double /*beta_d*/,
                                       std::span<Mat3> blocks) const {
  const Index n = body_.size();
  const double kv = body_.volume_stiffness;
  const bool current = tangent_ == MlsTangent::current;
  const bool green = current && body_.strain == StrainMeasure::green;
  // Per phyxel: G (J for the current tangent with Green strain, else I) and cof J.
  block_scratch_.resize(2 * body_.rest.size());
  parallel_for(n, team(n), [&](Index i) {
    const auto iu = static_cast<std::size_t>(i);
    const Mat3 J = current ? deformation_gradient(body_, x, i) : Mat3::Identity();
    block_scratch_[2 * iu] = green ? J : Mat3::Identity();
    block_scratch_[2 * iu + 1] = current ? cofactor(J) : Mat3::Zero();
  });
  // Phyxel i's part of K_aa for stencil coefficient c.
  const auto part = [&](std::size_t i, const Vec3& c) {
    const auto& m = body_.materials[static_cast<std::size_t>(body_.material[i])];
    const Mat3& G = block_scratch_[2 * i];
    const Vec3 w = G * c, z = block_scratch_[2 * i + 1] * c;
    const double lambda = current ? m.lambda : m.lambda + kv;
    Mat3 k = (lambda + m.mu) * w * w.transpose() + m.mu * c.squaredNorm() * (G * G.transpose());
    if (current) k.noalias() += kv * z * z.transpose();
    return Mat3(body_.volume[i] * k);
  };
  // Gathered per a over the links into it (body_.in_*), so that no two threads write one block.
  parallel_for(n, team(n), [&](Index a) {
    const auto au = static_cast<std::size_t>(a);
    Mat3 sum = part(au, -body_.d_sum[au]);
    for (Index k = body_.in_begin[au]; k < body_.in_begin[au + 1]; ++k) {
      const auto ku = static_cast<std::size_t>(k);
      sum += part(static_cast<std::size_t>(body_.in_source[ku]),
                  body_.link_d[static_cast<std::size_t>(body_.in_link[ku])]);
    }
    blocks[au] += beta_k * sum;
  });
  return true;
}

double MlsForceModel::elastic_energy(std::span<const Vec3> x) const {
  double total = 0.0;
  for (Index i = 0; i < body_.size(); ++i) {
    const auto iu = static_cast<std::size_t>(i);
    double psi = 0.0;
    piola(deformation_gradient(body_, x, i), body_.materials[static_cast<std::size_t>(body_.material[iu])],
          body_.strain, body_.volume_stiffness, plastic(iu), &psi);
    total += body_.volume[iu] * psi;
  }
  return total;
}

void update_plasticity(MlsBody& body, std::span<const Vec3> x, double h) {
  const Plasticity& p = body.plasticity;
  if (!(p.creep > 0.0) || !std::isfinite(p.yield)) return;
  if (body.plastic_strain.size() != body.rest.size())
    body.plastic_strain.assign(body.rest.size(), Mat3::Zero());
  const Index n = body.size();
  parallel_for(n, team(n), [&](Index i) {
    const auto iu = static_cast<std::size_t>(i);
    Mat3& ep = body.plastic_strain[iu];
    const Mat3 elastic = strain_of(deformation_gradient(body, x, i), body.strain) - ep;
    if (elastic.norm() > p.yield) ep += h * p.creep * elastic;
    const double size = ep.norm();
    if (size > p.max) ep *= p.max / size;
  });
}

RestFrequency rest_max_frequency2(const MlsBody& body, int max_steps, double tolerance) {
  const std::size_t n = body.rest.size();
  MlsForceModel model(body);
  // Lanczos on M⁻¹K over the free phyxels, orthonormal in the mass inner product <a, b> = Σ m_i a_i·b_i
  // (where M⁻¹K is self-adjoint). A fixed, irregular start vector with a component along every mode.
  std::vector<Vec3> q(n, Vec3::Zero()), previous(n, Vec3::Zero()), w(n);
  std::uint64_t state = 0x2545f4914f6cdd1dULL;
  bool any_free = false;
  for (std::size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      q[i][a] = body.inv_mass[i] > 0.0 ? static_cast<double>(state >> 11) * 0x1.0p-53 - 0.5 : 0.0;
    }
    any_free = any_free || body.inv_mass[i] > 0.0;
  }
  RestFrequency out;
  if (!any_free) return out;
  const auto mass_dot = [&](std::span<const Vec3> a, std::span<const Vec3> b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (body.inv_mass[i] > 0.0) sum += body.mass[i] * a[i].dot(b[i]);
    return sum;
  };
  double norm = std::sqrt(mass_dot(q, q));
  for (Vec3& qi : q) qi /= norm;
  std::vector<double> alpha, beta;  // the tridiagonal Lanczos matrix T: diagonal and off-diagonal
  double beta_last = 0.0;
  const int steps = std::max(1, std::min<int>(max_steps, static_cast<int>(3 * n)));
  for (int k = 0; k < steps; ++k) {
    std::fill(w.begin(), w.end(), Vec3::Zero());
    model.add_stiffness_product(body.rest, q, 1.0, w);  // K q
    double a = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      a += body.inv_mass[i] > 0.0 ? q[i].dot(w[i]) : 0.0;  // qᵀKq = <M⁻¹Kq, q>
      w[i] *= body.inv_mass[i];
    }
    alpha.push_back(a);
    for (std::size_t i = 0; i < n; ++i) w[i] -= a * q[i] + beta_last * previous[i];
    beta_last = std::sqrt(std::max(0.0, mass_dot(w, w)));
    out.steps = k + 1;
    const bool last = k + 1 == steps || !(beta_last > 1e-14 * std::abs(a));
    if (last || (k + 1) % 8 == 0) {
      // Largest Ritz value θ and its residual |β_k s_k|: an eigenvalue of M⁻¹K lies within it of θ.
      const auto m = static_cast<Eigen::Index>(alpha.size());
      Eigen::VectorXd diagonal = Eigen::Map<const Eigen::VectorXd>(alpha.data(), m);
      Eigen::VectorXd off =
          m > 1 ? Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(beta.data(), m - 1)) : Eigen::VectorXd();
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> tri;
      tri.computeFromTridiagonal(diagonal, off, Eigen::ComputeEigenvectors);
      out.omega2 = tri.eigenvalues()(m - 1);
      out.residual = beta_last * std::abs(tri.eigenvectors()(m - 1, m - 1));
      if (last || out.residual <= tolerance * out.omega2) break;
    }
    beta.push_back(beta_last);
    previous.swap(q);
    for (std::size_t i = 0; i < n; ++i) q[i] = w[i] / beta_last;
  }
  return out;
}

double symplectic_euler_stable_step(const MlsBody& body, double safety) {
  const RestFrequency f = rest_max_frequency2(body);
  const double omega2 = f.omega2 + f.residual;
  if (!(omega2 > 0.0)) return std::numeric_limits<double>::infinity();
  return safety * 2.0 / std::sqrt(omega2);
}

double stretch_stiffening(double c, double det, StrainMeasure strain, double lambda, double mu, double kv) {
  if (!std::isfinite(c) || !std::isfinite(det)) return std::numeric_limits<double>::infinity();  // NaN too
  const double s2 = std::max(c, 1.0);
  const double material = strain == StrainMeasure::green ? 0.5 * (3.0 * s2 - 1.0) : 1.0;
  const double volume = s2 * s2 + 2.0 * std::abs(det - 1.0) * std::sqrt(s2);
  const double weight = lambda + 2.0 * mu + kv;
  return weight > 0.0 ? std::max(1.0, ((lambda + 2.0 * mu) * material + kv * volume) / weight) : 1.0;
}

}  // namespace pliant::meshless

namespace pliant::meshless {

ExplicitStepControl::ExplicitStepControl(double rest_substep) : rest_(rest_substep), used_(kMargin) {}

double ExplicitStepControl::substep() const { return rest_ / std::sqrt(used_); }

bool ExplicitStepControl::observe(double stiffening) {
  const double g =
      std::isfinite(stiffening) ? std::clamp(kMargin * stiffening, kMargin, kMaxStiffening) : kMaxStiffening;
  if (g > used_) {
    used_ = g;
    return true;
  }
  if (kMargin * g < used_) used_ = g;
  return false;
}

}  // namespace pliant::meshless

// MlsForceModel: an MlsBody's elastic and volume forces as the dynamics::ForceModel the shared
// integrators advance (Müller et al. 2004, with the constant/variable split of Li et al.'s patent
// CN102831280).
//
// Phyxel i stores the energy U_i = v_i Ψ(J_i) with J_i = I + Σ_j (u_j - u_i) d_ijᵀ (with plasticity,
// the body's plastic strain ε_p is subtracted from E or ε first):
//   Green strain E = ½(JᵀJ - I): Ψ = μ E:E + ½λ tr(E)², first Piola stress P = J(λ tr(E) I + 2μE);
//   linear strain ε = ½(∇u + ∇uᵀ): Ψ = μ ε:ε + ½λ tr(ε)², P = λ tr(ε) I + 2μ ε;
//   volume term ½ k_v (det J - 1)²: P += k_v (det J - 1) cof(J), cof(J)'s rows J₂×J₃, J₃×J₁, J₁×J₂.
// Its forces are f_j = -v_i P_i d_ij on each neighbour j and f_i = v_i P_i Σ_j d_ij on i (Müller et
// al.'s F_j and F_i; the forces of one phyxel sum to zero). A step computes each v_i P_i in parallel,
// then gathers every phyxel's force over its incoming links in a fixed order: no write conflicts, no
// allocation, and the same bits for any thread count.
#pragma once

#include "pliant/dynamics/force_model.hpp"
#include "pliant/models/meshless/mls_body.hpp"

#include <span>
#include <vector>

namespace pliant::meshless {

/// The stiffness K that implicit steps solve with (add_stiffness_product).
enum class MlsTangent {
  /// The tangent at the rest state (linear strain, λ + k_v for the volume term): constant, symmetric
  /// positive semidefinite, exact for small deformation, wrong under large rotation.
  rest,
  /// The tangent at the current positions without its stress terms: v_i (∂P/∂J)[dJ] with the material
  /// part J C:sym(Jᵀ dJ) (Green strain; C:sym(dJ) for the linear strain) and the volume part
  /// k_v (cof J : dJ) cof J, dropping dJ S and k_v (det J - 1) d(cof J), which are indefinite under
  /// compression. Symmetric positive semidefinite, rotates with the body, equal to the exact Jacobian
  /// wherever the stress is zero (any rigid motion) and to the rest tangent at rest. Costs one more
  /// pass over the links per product (J at x).
  current,
};

struct MlsLoads {
  Vec3 gravity = Vec3::Zero();          ///< gravitational acceleration (unit: m/s²), applied as m_i g
  double mass_damping = 0.0;            ///< Rayleigh α: f_i -= α m_i v_i (unit: 1/s)
  std::span<const Vec3> external = {};  ///< optional per-phyxel external force (unit: N): empty or size()
};

/// Holds a reference to the body (valid while it is) and scratch sized at construction.
class MlsForceModel final : public dynamics::ForceModel {
 public:
  explicit MlsForceModel(const MlsBody& body, MlsLoads loads = {});

  MlsLoads& loads() { return loads_; }
  const MlsLoads& loads() const { return loads_; }
  MlsTangent tangent() const { return tangent_; }
  void set_tangent(MlsTangent tangent) { tangent_ = tangent; }

  std::span<const double> mass() const override { return body_.mass; }
  std::span<const double> inverse_mass() const override { return body_.inv_mass; }
  double mass_damping() const override { return loads_.mass_damping; }
  void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const override;
  /// K p with K the tangent() (rest by default) at positions x: symmetric positive semidefinite.
  void add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y) const override;
  /// No velocity-dependent force besides mass damping: adds nothing.
  void add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                           std::span<Vec3> y) const override;
  void add_jacobi_diagonal(std::span<const Vec3> x, double beta_k, double beta_d,
                           std::span<double> diagonal) const override;

  /// The elastic and volume forces alone (no loads) at positions x (unit: N), size() entries.
  void elastic_forces(std::span<const Vec3> x, std::span<Vec3> f) const;
  /// Elastic plus volume energy Σ v_i Ψ(J_i) at positions x (unit: J).
  double elastic_energy(std::span<const Vec3> x) const;

 private:
  // f_j += Σ over links i→j of -G_i d_ij, plus G_j Σ d_jk: the gather of the second pass.
  void gather(std::span<const Mat3> g, double scale, std::span<Vec3> y) const;

  Mat3 plastic(std::size_t i) const;

  const MlsBody& body_;
  MlsLoads loads_;
  MlsTangent tangent_ = MlsTangent::rest;
  std::vector<double> jacobi_;         // rest tangent diagonal estimate per phyxel (unit: N/m)
  mutable std::vector<Mat3> stress_;   // v_i P_i of the last forces() (unit: N·m)
  mutable std::vector<Mat3> product_;  // v_i σ_i of the last stiffness product
};

/// Müller et al.'s (2004) plasticity, one step of length h (unit: s) at positions x: per phyxel the
/// elastic strain ε_e = ε - ε_p; if |ε_e| (Frobenius) exceeds body.plasticity.yield, ε_p += h · creep
/// · ε_e; then ε_p is scaled back to |ε_p| ≤ max. Does nothing unless creep > 0 and yield is finite.
/// Allocates only the first time (the plastic strain array).
void update_plasticity(MlsBody& body, std::span<const Vec3> x, double h);

/// The largest step for which symplectic Euler stays stable on the body at rest (ω_max h < 2, unit: s),
/// times `safety` (in (0, 1]). ω_max² is the largest eigenvalue of M⁻¹K at rest (free phyxels only),
/// estimated by 60 power iterations with Rayleigh quotients (which approach it from below, hence the
/// safety factor). Green strain stiffens under stretch: keep safety ≤ 0.5 for large deformations.
/// Returns +∞ when no phyxel is free or nothing is stiff.
double symplectic_euler_stable_step(const MlsBody& body, double safety = 0.5);

}  // namespace pliant::meshless

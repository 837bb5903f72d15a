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
  /// The exact 3×3 diagonal blocks of the tangent(): per phyxel i and member a of its stencil (c_ia =
  /// d_ia for a neighbour, -Σ_j d_ij for i itself), K_aa += v_i ((λ + μ) (G c)(G c)ᵀ + μ |c|² G Gᵀ +
  /// k_v (cof J c)(cof J c)ᵀ) with G = J for the current tangent with Green strain, else I (the rest
  /// tangent: λ + k_v for λ and no last term). One pass over the links, as a product.
  bool add_block_diagonal(std::span<const Vec3> x, double beta_k, double beta_d,
                          std::span<Mat3> blocks) const override;

  /// The elastic and volume forces alone (no loads) at positions x (unit: N), size() entries.
  void elastic_forces(std::span<const Vec3> x, std::span<Vec3> f) const;
  /// At the last elastic_forces() (and so forces()): the largest eigenvalue of JᵀJ over all phyxels
  /// (the squared largest principal stretch, closed form; 1 at rest and for a rigid motion; +∞ after
  /// a NaN), and the largest stretch_stiffening of a phyxel (dimensionless, ≥ 1): both 1 before the
  /// first call.
  double max_stretch2() const { return max_stretch2_; }
  double stiffening() const { return stiffening_; }
  /// Elastic plus volume energy Σ v_i Ψ(J_i) at positions x (unit: J).
  double elastic_energy(std::span<const Vec3> x) const;

 private:
  // f_j += Σ over links i→j of -G_i d_ij, plus G_j Σ d_jk: the gather of the second pass.
  void gather(std::span<const Mat3> g, double scale, std::span<Vec3> y) const;

  Mat3 plastic(std::size_t i) const;

  const MlsBody& body_;
  MlsLoads loads_;
  MlsTangent tangent_ = MlsTangent::rest;
  std::vector<double> jacobi_;               // rest tangent diagonal estimate per phyxel (unit: N/m)
  mutable std::vector<Mat3> stress_;         // v_i P_i of the last forces() (unit: N·m)
  mutable std::vector<Mat3> product_;        // v_i σ_i of the last stiffness product
  mutable std::vector<Mat3> block_scratch_;  // per phyxel G and cof J of add_block_diagonal
  mutable double max_stretch2_ = 1.0;        // see max_stretch2()
  mutable double stiffening_ = 1.0;          // see stiffening()
};

/// Müller et al.'s (2004) plasticity, one step of length h (unit: s) at positions x: per phyxel the
/// elastic strain ε_e = ε - ε_p; if |ε_e| (Frobenius) exceeds body.plasticity.yield, ε_p += h · creep
/// · ε_e; then ε_p is scaled back to |ε_p| ≤ max. Does nothing unless creep > 0 and yield is finite.
/// Allocates only the first time (the plastic strain array).
void update_plasticity(MlsBody& body, std::span<const Vec3> x, double h);

/// The largest eigenvalue ω_max² of M⁻¹K at rest (free phyxels only, rest tangent; unit: 1/s²) by
/// Lanczos in the mass inner product (no reorthogonalisation: it may repeat a Ritz value, never
/// exceed the spectrum), stopped when the largest Ritz value's residual bound is below `tolerance`
/// times it or after `max_steps` products. `residual` bounds the distance to an eigenvalue.
struct RestFrequency {
  double omega2 = 0.0;    ///< the largest Ritz value (unit: 1/s²); 0 when no phyxel is free
  double residual = 0.0;  ///< |β_k s_k|: an eigenvalue lies within it of omega2 (unit: 1/s²)
  int steps = 0;          ///< stiffness products taken
};
RestFrequency rest_max_frequency2(const MlsBody& body, int max_steps = 300, double tolerance = 1e-3);

/// The largest step for which symplectic Euler stays stable on the body at rest (ω_max h < 2, unit: s),
/// times `safety` (> 0), with ω_max² = omega2 + residual of rest_max_frequency2 (at or above the
/// exact value, within 10⁻³ of it). Stretch stiffens Green strain and the volume term beyond this rest
/// value: MeshlessBody's step shortens the substep by 1/√g (ExplicitStepControl, MlsForceModel's
/// stiffening()). Returns +∞ when no phyxel is free or nothing is stiff.
double symplectic_euler_stable_step(const MlsBody& body, double safety);

/// How much stiffer than at rest (a bound on the ratio of ω_max², dimensionless, ≥ 1) a phyxel is
/// whose JᵀJ has largest eigenvalue c (the squared largest principal stretch, taken as ≥ 1) and whose
/// det J is `det`: for Green strain the 1-D tangent of Saint-Venant–Kirchhoff along the stretch,
/// (λ+2μ)(3c - 1)/2 against λ+2μ at rest (the linear strain does not stiffen); for the volume term
/// k_v(c² + 2|det J - 1|√c), the first from (cof J : dJ)², bounded by c², the second from
/// (det J - 1) ∂cof J, which stiffens under compression too; weighted by λ + 2μ and k_v. +∞ for a
/// non-finite input.
double stretch_stiffening(double c, double det, StrainMeasure strain, double lambda, double mu, double kv);

/// The explicit substep of a body that stretches: rest_substep / √g_used. g_used is 1.1 g (a margin
/// for the bound, ≥ 1.1, so a body at rest takes 0.95 of rest_substep) for the stiffening g it has
/// been told of: it follows an increase at once and a decrease only once 1.1 g is below g_used / 1.1
/// (hysteresis: the substep does not jitter with the oscillation of a swinging body). g_used is
/// capped at 64: the substep never falls below rest_substep / 8.
class ExplicitStepControl {
 public:
  static constexpr double kMargin = 1.1;
  static constexpr double kMaxStiffening = 64.0;

  explicit ExplicitStepControl(double rest_substep = 0.0);
  /// The substep to take now (unit: s).
  double substep() const;
  /// g_used (dimensionless, in [1.1, 64]).
  double stiffening() const { return used_; }
  /// Takes in the model's stiffening() after a substep; true when the substep shrank.
  bool observe(double stiffening);

 private:
  double rest_ = 0.0;
  double used_ = kMargin;
};

}  // namespace pliant::meshless

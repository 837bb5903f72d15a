// Isotropic linear-elastic materials: (E, ν) or Lamé (λ, μ), validated, plus named presets.
//
// Linear elasticity (Hooke's law σ = D ε, as in Nikitina et al. 2003) needs exactly two constants. We store
// Lamé's (λ, μ) because the element kernel uses them directly, and derive E and ν on demand. A material is
// physically admissible (strain energy positive definite) iff μ > 0 and the bulk modulus
// K = λ + 2μ/3 > 0, which is the same as E > 0 and -1 < ν < 1/2. ν → 1/2 is incompressible: linear
// tetrahedra lock there, so presets of near-incompressible rubber, silicone and tissue use their
// measured E with ν = 0.45 (see material.cpp).
#pragma once

#include "pliant/core/result.hpp"

#include <Eigen/Core>

#include <string>
#include <string_view>
#include <vector>

namespace pliant::materials {

/// An isotropic linear-elastic material. Build it with `material_from_young_poisson`,
/// `material_from_lame` or `material_preset`, which reject impossible values; the fields are public
/// so that per-tet arrays stay plain data.
struct Material {
  double lambda = 0.0;      ///< first Lamé constant λ (unit: Pa)
  double mu = 0.0;          ///< shear modulus μ, second Lamé constant (unit: Pa)
  double density = 1000.0;  ///< mass density ρ (unit: kg/m³); unused by statics, used by dynamics

  /// Young's modulus E = μ(3λ + 2μ)/(λ + μ) (unit: Pa).
  double youngs_modulus() const;
  /// Poisson's ratio ν = λ / (2(λ + μ)) (dimensionless).
  double poisson_ratio() const;
  /// Bulk modulus K = λ + 2μ/3 (unit: Pa).
  double bulk_modulus() const;
};

/// Material from Young's modulus E (unit: Pa, > 0), Poisson's ratio ν (in (-1, 0.5)) and density
/// ρ (unit: kg/m³, > 0). Fails with a one-line message on NaN, E ≤ 0, ν ≥ 0.5 or ν ≤ -1, ρ ≤ 0.
Result<Material> material_from_young_poisson(double youngs_modulus, double poisson_ratio,
                                             double density = 1000.0);

/// Material from Lamé constants λ, μ (unit: Pa) and density ρ (unit: kg/m³). Fails unless μ > 0,
/// λ + 2μ/3 > 0 (positive bulk modulus) and ρ > 0, all finite.
Result<Material> material_from_lame(double lambda, double mu, double density = 1000.0);

/// Checks an existing material (for example one filled field by field): same rules as above.
Status validate(const Material& material);

/// Named preset (case-sensitive), each with its source beside the value in material.cpp:
/// - "steel", "ceramic": the Lamé constants printed by Nikitina et al. 2003 (realistic values);
/// - "rubber": real soft natural rubber, E = 1.2 MPa, ν = 0.45 (Treloar 1944 / Ogden 1972);
/// - "nikitina2003_rubber": the paper's "rubber", E ≈ 0.139 GPa, ν ≈ 0.48 (what "rubber" meant in
///   earlier Pliant versions);
/// - silicones "ecoflex_00_30", "dragon_skin_10", "dragon_skin_30" (datasheets), "sylgard_184";
/// - soft tissues "liver", "kidney", "brain", "brain_white", "brain_gray", "muscle", "fat", "skin",
///   "cartilage", and the generic phantom gel "silicone_gel".
/// Fails naming the unknown preset and listing the valid ones.
Result<Material> material_preset(std::string_view name);

/// All preset names, in the order of the preset table (for help texts and error messages).
std::vector<std::string> material_preset_names();

/// The 6×6 Voigt elasticity matrix D = λ D1 + μ D2 (Nikitina et al. 2003), for strains ordered
/// (εxx, εyy, εzz, 2εxy, 2εxz, 2εyz) (unit: Pa).
Eigen::Matrix<double, 6, 6> elasticity_matrix(const Material& material);

}  // namespace pliant::materials

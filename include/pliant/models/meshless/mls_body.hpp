// MlsBody: phyxels with the rest-state constants of moving-least-squares (MLS) elasticity with a linear
// basis (Müller, Keiser, Nealen, Pauly, Gross & Alexa 2004, "Point based animation of elastic,
// plastic and melting objects"), split as Li et al. (patent CN102831280, claim 2) ask: everything
// that depends only on the rest state is computed here once, so a step only forms each phyxel's
// deformation gradient from the displacements of its neighbours.
//
// With the kernel w(r, h) = 315/(64π h⁹)(h² - r²)³ (r < h) and x_ij = x_j - x_i at rest:
//   ρ_i = Σ_j m_j w_ij (self included),  v_i = m_i / ρ_i,
//   A_i = Σ_j w_ij x_ij x_ijᵀ (moment matrix),  d_ij = A_i⁻¹ x_ij w_ij,
// and per step the displacement gradient ∇u_i = Σ_j d_ij (u_j - u_i)ᵀ, J_i = I + ∇u_iᵀ (= F_i).
// MLS with a linear basis reproduces any linear field exactly, so ∇u_i is exact for affine motion.
//
// A phyxel with too few or coplanar neighbours has a singular A_i. Its condition number (largest over
// smallest eigenvalue) is checked at build: above max_condition the support grows (× enlargement, up
// to max_enlargements times); if that does not help, A_i is regularised (A_i + δI, δ set so the
// condition becomes max_condition), which gives up exact linear reproduction at that phyxel only.
// Each phyxel reports what was done (`fix`).
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/region.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/meshless/signed_distance.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace pliant::meshless {

/// Strain measure of the elastic energy.
enum class StrainMeasure {
  green,   ///< Green-Saint-Venant E = ½(JᵀJ - I): rotation invariant (St. Venant-Kirchhoff)
  linear,  ///< Cauchy ε = ½(∇u + ∇uᵀ): small deformation only, rotations strain it
};

/// What the build did to a phyxel's neighbourhood.
enum class NeighbourhoodFix : std::uint8_t {
  none,         ///< the moment matrix was well conditioned at the nominal support
  enlarged,     ///< the support was enlarged until it was
  regularised,  ///< A_i + δI was inverted (linear fields are no longer reproduced exactly there)
  isolated,     ///< no neighbour at all: the phyxel carries no strain (moves as a free particle)
};

/// Müller et al.'s (2004) plasticity: above an elastic limit the plastic strain creeps toward the
/// total strain, up to a largest plastic strain (all strains Frobenius norms, dimensionless).
struct Plasticity {
  double yield = std::numeric_limits<double>::infinity();  ///< elastic limit c_yield; ∞: elastic
  double creep = 0.0;                                      ///< c_creep (unit: 1/s), ≥ 0
  double max = std::numeric_limits<double>::infinity();    ///< c_max, the largest plastic strain
};

/// A material assigned to the phyxels a region holds (later regions win). The region is, in this order
/// of precedence: `selection` when set (a core region, core/region.hpp, applied to the phyxels' rest
/// positions: half-spaces, bounding-box faces, boxes, balls or phyxel indices); else the inside of the
/// closed surface `inside` (signed distance ≤ 0) when set; else `box`.
struct MaterialRegion {
  Aabb box;            ///< region (unit: m), used when the others are unset
  Index material = 0;  ///< index into MlsDef::materials
  std::shared_ptr<const SignedDistance> inside = nullptr;  ///< a closed surface: the region is its inside
  std::optional<Region> selection = std::nullopt;          ///< a core region (coordinates in m)
};

struct MlsDef {
  double spacing = 0.01;        ///< sample spacing s (unit: m), > 0: each phyxel's mass is ρ s³
  double support_factor = 2.2;  ///< support radius h = support_factor · s (dimensionless), > 1
  std::vector<materials::Material> materials = {};  ///< at least one; phyxels use material 0 by default
  std::vector<MaterialRegion> regions = {};         ///< optional per-region materials
  double volume_stiffness = 0.0;  ///< k_v of the volume term ½ k_v (det J - 1)² per volume (unit: Pa), ≥ 0
  StrainMeasure strain = StrainMeasure::green;
  double max_condition = 1e4;  ///< largest accepted condition number of A_i (dimensionless), > 1
  double enlargement = 1.25;   ///< support growth factor per try (dimensionless), > 1
  int max_enlargements = 3;    ///< tries before regularising, ≥ 0
  Plasticity plasticity = {};  ///< off by default
};

struct MlsBody {
  // Per phyxel.
  std::vector<Vec3> rest;            ///< rest positions (unit: m)
  std::vector<Vec3> position;        ///< current positions (unit: m)
  std::vector<Vec3> velocity;        ///< velocities (unit: m/s)
  std::vector<double> mass;          ///< m_i (unit: kg)
  std::vector<double> inv_mass;      ///< 1/m_i, or 0 for a fixed (kinematic) phyxel (unit: 1/kg)
  std::vector<double> density;       ///< kernel-sum density ρ_i (unit: kg/m³)
  std::vector<double> volume;        ///< v_i = m_i / ρ_i (unit: m³)
  std::vector<double> support;       ///< support radius h_i (unit: m)
  std::vector<Index> material;       ///< index into `materials`
  std::vector<Mat3> moment_inverse;  ///< A_i⁻¹ (unit: 1/m²)
  std::vector<Vec3> d_sum;           ///< Σ_j d_ij (unit: 1/m)
  std::vector<double> condition;     ///< condition number of the inverted moment matrix (∞ when isolated)
  std::vector<NeighbourhoodFix> fix;
  // Rest neighbour links i → j, grouped by source i (CSR), targets ascending.
  std::vector<Index> link_begin;   ///< #phyxels + 1 offsets into link_target / link_d
  std::vector<Index> link_target;  ///< j
  std::vector<Vec3> link_d;        ///< d_ij (unit: 1/m)
  // The same links grouped by target j, sources ascending: force gathering without write conflicts.
  std::vector<Index> in_begin;   ///< #phyxels + 1 offsets into in_link
  std::vector<Index> in_link;    ///< link index (into link_target / link_d)
  std::vector<Index> in_source;  ///< the link's source phyxel i, parallel to in_link

  std::vector<materials::Material> materials;
  StrainMeasure strain = StrainMeasure::green;
  Plasticity plasticity;
  std::vector<Mat3> plastic_strain;  ///< ε_p per phyxel (dimensionless); empty while none has yielded
  double volume_stiffness = 0.0;     ///< k_v (unit: Pa)
  double spacing = 0.0;              ///< sample spacing s (unit: m)

  Index size() const { return static_cast<Index>(rest.size()); }
  std::size_t link_count() const { return link_target.size(); }
  /// Fixes a phyxel in place (inverse mass 0) or frees it again.
  void set_fixed(Index i, bool fixed) {
    inv_mass[static_cast<std::size_t>(i)] = fixed ? 0.0 : 1.0 / mass[static_cast<std::size_t>(i)];
  }
  double total_mass() const;
  /// Phyxels whose neighbourhood needed `what`.
  Index count_fixes(NeighbourhoodFix what) const;
};

/// The MLS kernel 315/(64π h⁹)(h² - r²)³ for r < h, else 0 (unit: 1/m³; r, h in m).
double mls_kernel(double r, double h);

/// Builds the phyxels at `points` (unit: m) with their rest constants (grid-accelerated neighbour
/// search). Fails with a one-line message on bad settings, an invalid material, a region naming an
/// unknown material, non-finite points or fewer than one point.
Result<MlsBody> build_mls_body(std::span<const Vec3> points, const MlsDef& def);

/// Rebuilds in_begin, in_link and in_source from link_begin and link_target (a counting sort: each
/// phyxel's incoming links come out by ascending source).
void index_links_by_target(MlsBody& body);

/// The deformation gradient J_i = I + Σ_j (x_j - x_i - (X_j - X_i)) d_ijᵀ of phyxel i at positions x
/// (dimensionless).
Mat3 deformation_gradient(const MlsBody& body, std::span<const Vec3> x, Index i);

}  // namespace pliant::meshless

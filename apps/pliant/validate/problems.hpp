// The verification problems of the catalogue, one function each (catalogue.cpp lists them). Each runs
// the library as a user would and compares with an analytic or published value; docs/validation.md
// describes their set-ups. Tests call them directly with perturbed inputs to show that they can fail.
#pragma once

#include "validation.hpp"

#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"
#include "pliant/models/springs/methods.hpp"

#include <array>

namespace pliant::validate {

/// Richardson extrapolation through three meshes (sizes h, coarsest first, values f): f = f∞ + C h^p with
/// p found from the values alone (self-convergence; a NaN-free answer needs monotone values).
struct Extrapolation {
  double value = 0.0;  ///< f∞ (unit: f's)
  double order = 0.0;  ///< p (dimensionless)
};
Extrapolation richardson(const std::array<double, 3>& h, const std::array<double, 3>& f);

/// Patch test (Irons & Razzaque 1972) of one element kind: the boundary nodes of a jittered box moved
/// by an affine map (small strain for the linear element, 20 % strain for the others), the interior
/// solved for; measured: largest interior deviation from the affine field over the largest boundary
/// displacement (reference 0). With youngs_scale ≠ 1 every other tet is stiffer, which must fail.
Problem patch_test(fem::ElementKind element, const Variant& variant);

/// The cantilevers of docs/accuracy.md: steel (ν = 0.3) and nearly incompressible (ν = 0.49) on the
/// 5-tet split, and the latter on Kuhn's 6-tet split, which locks (reported, not checked).
enum class CantileverCase { steel, nearly_incompressible, nearly_incompressible_six };

/// Cantilever under a tip shear load against Timoshenko beam theory with Cowper's shear coefficient;
/// observed order fitted over the meshes.
Problem cantilever(CantileverCase which, const Variant& variant);

/// Cook's membrane (Cook 1974): the tapered plate clamped on its short edge under a shear load, as a
/// thin 3D slab (plane stress); the tip corner's vertical displacement against the converged 23.96.
Problem cook_membrane(const Variant& variant);

/// Lamé's thick-walled cylinder under internal pressure (plane strain): radial displacement of the bore.
Problem lame_cylinder(const Variant& variant);

/// Uniaxial stretch to λ = 1.5 of a block on symmetry rollers: nominal stress P11 against the closed
/// form of the element's model (stable Neo-Hookean or corotational).
Problem uniaxial_stretch(fem::ElementKind element, const Variant& variant);

/// Simple shear γ = 0.5 imposed on every boundary node: the mean shear stress P12 from the boundary
/// reactions against the closed form.
Problem simple_shear(fem::ElementKind element, const Variant& variant);

/// A rigid rotation by `degrees` (about a skew axis) of a jittered box: largest node force over that of a
/// 1 % stretch (reference 0). The linear element fails it (it inflates under rotation).
Problem rigid_rotation(fem::ElementKind element, double degrees, const Variant& variant);

/// Lowest (mode 0) or second (mode 1) bending frequency of a clamped steel beam against
/// Euler-Bernoulli, Richardson-extrapolated from three meshes with their observed order.
Problem beam_frequency(int mode, const Variant& variant);

/// A clamped steel beam released from its first mode shape with Rayleigh damping αM (ζ = 0.02), stepped
/// by the implicit Newmark solver: the damping ratio from the logarithmic decrement against α/(2ω₁).
Problem damped_mode(const Variant& variant);

/// The same beam undamped, stepped by `scheme` for 10 periods: the largest relative energy change
/// (reference 0). Newmark's average acceleration conserves it; backward Euler dissipates (and fails).
Problem integrator_energy(fem::ImplicitScheme scheme, const Variant& variant);
/// The energy of an explicit dynamics::Integrator scheme (explicit Euler, midpoint, RK2, RK4, symplectic
/// Euler, central differences) stepping a small bar's highest mode undamped (a dense eigen-solve): the
/// one-step schemes' energy change per step against |R(iωh)|² − 1, the symplectic ones' energy band
/// against (1 + ωh/2)/(1 − ωh/2).
Problem explicit_energy(dynamics::Scheme scheme, const Variant& variant);

/// The families side by side on one problem: a clamped 0.1 × 0.02 × 0.02 m beam (E = 1 MPa, ν = 0.3,
/// ρ = 1000 kg/m³) sagging under gravity; the mean end deflection of `family` ("fem": linear tets on a
/// 20 × 4 × 4 grid; "green": Green's functions precomputed on that grid; "tensor_mass": Cotin et al.'s
/// tensor-mass model, springs family, on the same grid; "meshless": MLS phyxels at 5 mm, 2.5 mm in the full
/// run) against converged linear FEM (Richardson extrapolation of 4, 6 and 8 cells across).
Problem family_beam(const std::string& family, const Variant& variant);

/// A FEM block resting on a plane tilted by 30° with μ = 0.2 (tan θ > μ): its acceleration down the
/// slope against Coulomb's a = g (sin θ − μ cos θ).
Problem incline_slide(const Variant& variant);

/// The same block on a 20° incline with μ = 0.5 (tan θ < μ): its base's largest move over 2 s against
/// the frictionless slide's ½ g sin θ t² (reference 0: it sticks).
Problem incline_stick(const Variant& variant);
/// A grasper's two jaws (μ = 0.5) closed on a 4 cm FEM block in the air: the smallest grip force that
/// holds it, found by bisection, against Coulomb's m g / (2 μ).
Problem grasp_threshold(const Variant& variant);

/// One depth of a Hertz indentation: the sphere's depth, the force and contact radius measured and
/// Hertz's (Hertz 1882; Johnson 1985, §4.2).
struct HertzDepth {
  double depth = 0.0;         ///< δ, the sphere below the undeformed top less the pair's margin (unit: m)
  double force = 0.0;         ///< total normal force the sphere takes (unit: N)
  double hertz_force = 0.0;   ///< 4/3 E* √R δ^{3/2} (unit: N)
  double radius = 0.0;        ///< contact radius, midway between the farthest node held and the nearest
                              ///< free top node beyond it (unit: m)
  double hertz_radius = 0.0;  ///< √(R δ) (unit: m)
};

/// A rigid sphere pressed frictionlessly into a clamped block, graded toward the contact point, of
/// `family` ("green": Green's functions of linear tets; "fem": linear tets, quasi-static), at
/// δ/R = 0.01 … 0.05. `level` 0, 1, 2: the finest
/// spacing under the sphere R/8, R/12, R/18 and the grading ratio beyond 1.5, 1.33, 1.22 (the block's
/// size kept). Set-up in docs/validation.md, "Hertz contact".
struct HertzRun {
  double spacing = 0.0;  ///< finest grid spacing, under the sphere (unit: m)
  Index nodes = 0;       ///< the mesh's nodes
  std::vector<HertzDepth> depths;
  double force_error = 0.0;   ///< the largest |force/Hertz − 1| over the depths (dimensionless)
  double radius_error = 0.0;  ///< the largest |radius/√(Rδ) − 1| over the depths (dimensionless)
};
HertzRun hertz_indentation(const std::string& family, int level, const Variant& variant);

/// Hertz contact: the force over Hertz's at the depth of the worst error of hertz_indentation on the
/// finest mesh (level 2; the quick run level 1, the coarse run level 0), the series of worst errors
/// over the levels up to it.
Problem hertz(const std::string& family, const Variant& variant);

/// One sampled top-surface node of a Boussinesq point load.
struct BoussinesqSample {
  double radius = 0.0;        ///< r, the node's rest distance from the load (unit: m)
  double displacement = 0.0;  ///< its downward displacement (unit: m)
  double reference = 0.0;     ///< Boussinesq's (1 − ν²) F / (π E r) (unit: m)
};

/// A normal point force F into the top face's centre node of the Hertz problem's graded block as a Green
/// body (mesh `level` 0, 1, 2 as hertz_indentation's, its half-width and depth 16 R, its spacing doubling
/// beyond 4 R), and the top nodes' deflection at 3 h0 ≤ r ≤ R/2 against Boussinesq's (Boussinesq 1885;
/// Johnson 1985, §3.2). Set-up in docs/validation.md, "Boussinesq's point load".
struct BoussinesqRun {
  double spacing = 0.0;  ///< finest grid spacing, under the load (unit: m)
  Index nodes = 0;       ///< the mesh's nodes
  std::vector<BoussinesqSample> samples;
  double error = 0.0;  ///< the largest |displacement/reference − 1| over the samples (dimensionless)
};
BoussinesqRun boussinesq_load(int level, const Variant& variant);

/// Boussinesq's point load: the deflection over Boussinesq's at the sample of the worst error of
/// boussinesq_load on the finest mesh (level 2; quick: level 1; coarse: level 0), the series of worst
/// errors over the levels up to it.
Problem boussinesq(const Variant& variant);

/// Grimm (2005) Table 2.1: steps for one interaction method to settle the pulled membrane, against the
/// thesis' count (reported, not checked). With `velocity_coupling` a combined method's correction also
/// changes velocities, at k h²/m = 0.4: the parameter that brings Dragnet mass-spring near the thesis.
Problem grimm_table21(springs::Method method, const Variant& variant, bool velocity_coupling = false);

}  // namespace pliant::validate

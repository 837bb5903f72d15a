// The verification problems of `pliant validate` pass as run, and fail when the input is wrong: a wrong
// material (Young's modulus off by 10 %, or a stiffer material in every other tet of a patch), a
// coarser mesh, or an element that is not frame indifferent. The catalogue's names, selection, JSON
// schema and order fit are checked here too; tests/cli runs the whole quick catalogue.
#include "problems.hpp"

#include "core/asan.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace pliant::validate {
namespace {

using fem::ElementKind;

Variant quick() {
  Variant v;
  v.quick = true;
  return v;
}

Variant wrong_material() {
  Variant v = quick();
  v.youngs_scale = 1.1;
  return v;
}

TEST(Validation, UniaxialStretchPassesAndFailsWithAWrongMaterial) {
  for (ElementKind k : {ElementKind::stable_neo_hookean, ElementKind::corotational}) {
    const Problem good = uniaxial_stretch(k, quick());
    EXPECT_TRUE(good.passed) << good.name << ": error " << good.error;
    EXPECT_GT(good.reference, 0.0);
    const Problem bad = uniaxial_stretch(k, wrong_material());
    EXPECT_FALSE(bad.passed) << bad.name;
    // The stress of a homogeneous model scales with its moduli: 10 % too stiff reads 10 % high.
    EXPECT_NEAR(bad.error, 0.1, 1e-4) << bad.name;
  }
}

TEST(Validation, SimpleShearFailsWithAWrongMaterial) {
  for (ElementKind k : {ElementKind::stable_neo_hookean, ElementKind::corotational}) {
    EXPECT_TRUE(simple_shear(k, quick()).passed);
    const Problem bad = simple_shear(k, wrong_material());
    EXPECT_FALSE(bad.passed) << bad.name;
    EXPECT_NEAR(bad.error, 0.1, 1e-4) << bad.name;
  }
}

TEST(Validation, PatchTestFailsWithMixedMaterials) {
  for (ElementKind k : {ElementKind::linear, ElementKind::stable_neo_hookean}) {
    const Problem good = patch_test(k, quick());
    EXPECT_TRUE(good.passed) << good.name << ": " << good.measured;
    const Problem bad = patch_test(k, wrong_material());
    EXPECT_FALSE(bad.passed) << bad.name << ": " << bad.measured;
    EXPECT_GT(bad.measured, 1e-6) << "a material jump bends the affine field";
  }
}

TEST(Validation, CantileverFailsOnACoarseMeshAndWithAWrongMaterial) {
  const Problem good = cantilever(CantileverCase::steel, quick());
  ASSERT_TRUE(good.passed) << good.error;
  ASSERT_TRUE(good.order.has_value());
  EXPECT_GT(*good.order, 1.0);  // linear tets in bending: about h^1.6 (docs/accuracy.md)
  EXPECT_EQ(good.series.h.size(), 3u);
  Variant coarse = quick();
  coarse.coarse = true;
  const Problem c = cantilever(CantileverCase::steel, coarse);
  EXPECT_FALSE(c.passed) << c.error;
  EXPECT_LT(c.error, -0.07);  // too stiff, as linear tets in bending are
  EXPECT_FALSE(cantilever(CantileverCase::steel, wrong_material()).passed);
  // Nearly incompressible: the 5-tet split passes; Kuhn's 6-tet split locks and is only reported.
  const Problem five = cantilever(CantileverCase::nearly_incompressible, quick());
  const Problem six = cantilever(CantileverCase::nearly_incompressible_six, quick());
  EXPECT_TRUE(five.passed) << five.error;
  EXPECT_TRUE(std::isnan(six.tolerance));
  EXPECT_LT(six.error, -0.4);  // 0.45 of the deflection at 6 cells across (docs/accuracy.md)
  EXPECT_GT(five.error, six.error);
}

TEST(Validation, BeamFrequencyFailsWithAWrongMaterial) {
  const Problem good = beam_frequency(0, quick());
  EXPECT_TRUE(good.passed) << good.error;
  // f ∝ √E: 10 % stiffer reads about 4.9 % high, beyond the 1 % tolerance.
  const Problem bad = beam_frequency(0, wrong_material());
  EXPECT_FALSE(bad.passed) << bad.error;
  EXPECT_NEAR(bad.error - good.error, std::sqrt(1.1) - 1.0, 0.01);
  // Meshes before the asymptotic range (2, 3, 4 cells across) extrapolate 2.4 % low.
  Variant coarse = quick();
  coarse.coarse = true;
  EXPECT_FALSE(beam_frequency(0, coarse).passed);
}

TEST(Validation, DampedModeAndEnergy) {
  const Problem good = damped_mode(quick());
  EXPECT_TRUE(good.passed) << good.measured;
  // Simulated 10 % stiffer than the reference's ω: ζ = α/(2ω) reads 1/√1.1 of it, 4.7 % low.
  const Problem bad = damped_mode(wrong_material());
  EXPECT_FALSE(bad.passed) << bad.error;
  EXPECT_NEAR(bad.error, 1.0 / std::sqrt(1.1) - 1.0, 0.005);
  EXPECT_TRUE(integrator_energy(fem::ImplicitScheme::newmark, quick()).passed);
  // Backward Euler dissipates: at 100 steps a period it loses most of the energy in 10 periods.
  const Problem euler = integrator_energy(fem::ImplicitScheme::backward_euler, quick());
  EXPECT_FALSE(euler.passed);
  EXPECT_GT(euler.measured, 0.5);
}

TEST(Validation, ExplicitSchemesEnergyAsTheirAmplificationFactorsSay) {
  using dynamics::Scheme;
  for (Scheme scheme : {Scheme::explicit_euler, Scheme::midpoint, Scheme::rk2, Scheme::rk4,
                        Scheme::symplectic_euler, Scheme::central_difference}) {
    const Problem good = explicit_energy(scheme, quick());
    EXPECT_TRUE(good.passed) << good.name << ": measured " << good.measured << ", reference "
                             << good.reference;
    // 10 % stiffer: ωh is √1.1 of the reference's, so (ωh)², (ωh)⁴, (ωh)⁶ and the band ωh are off by
    // 10 %, 21 %, 33 % and 4.9 %.
    const Problem bad = explicit_energy(scheme, wrong_material());
    EXPECT_FALSE(bad.passed) << bad.name << ": error " << bad.error;
    EXPECT_GT(std::abs(bad.error), 0.04) << bad.name;
  }
  // Explicit Euler gains energy, RK4 loses a little, the symplectic schemes neither.
  EXPECT_GT(explicit_energy(Scheme::explicit_euler, quick()).measured, 0.0);
  EXPECT_LT(explicit_energy(Scheme::rk4, quick()).measured, 0.0);
}

TEST(Validation, FamiliesOnTheSharedBeam) {
  const Problem fem = family_beam("fem", quick());
  const Problem tensor_mass = family_beam("tensor_mass", quick());
  EXPECT_TRUE(fem.passed) << fem.error;
  EXPECT_GT(fem.measured, 0.0);
  EXPECT_LT(fem.error, 0.0);  // linear tets: too stiff in bending
  // Tensor-mass is linear FEM's stiffness in node and edge tensors: the same answer on the same grid.
  EXPECT_NEAR(tensor_mass.measured, fem.measured, 1e-6 * fem.measured);
  // Green's functions are K⁻¹ of the same FEM, stored in float.
  const Problem green = family_beam("green", quick());
  EXPECT_NEAR(green.measured, fem.measured, 1e-4 * fem.measured);
  Variant coarse = quick();
  coarse.coarse = true;
  EXPECT_FALSE(family_beam("fem", coarse).passed);
  Variant stiffer = quick();
  stiffer.youngs_scale = 1.25;  // 12 % short as sampled, so a 25 % stiffer material is far outside
  EXPECT_FALSE(family_beam("meshless", stiffer).passed);
}

TEST(Validation, LameCylinderFailsWithAWrongMaterial) {
  EXPECT_TRUE(lame_cylinder(quick()).passed);
  const Problem bad = lame_cylinder(wrong_material());
  EXPECT_FALSE(bad.passed) << bad.error;
  EXPECT_LT(bad.error, -0.05);  // stiffer: the bore opens about 9 % less
}

TEST(Validation, RigidRotationFailsForTheLinearElement) {
  for (double degrees : {90.0, 180.0}) {
    for (ElementKind k : {ElementKind::corotational, ElementKind::stvk, ElementKind::stable_neo_hookean}) {
      const Problem p = rigid_rotation(k, degrees, quick());
      EXPECT_TRUE(p.passed) << p.name << ": " << p.measured;
    }
    // Small-strain elasticity is not frame indifferent: a rotation reads as a large strain.
    const Problem linear = rigid_rotation(ElementKind::linear, degrees, quick());
    EXPECT_FALSE(linear.passed);
    EXPECT_GT(linear.measured, 10.0) << degrees;
  }
}

// Coulomb's incline: the slide's acceleration and the stick, and both fail with the pair's μ off (a
// 1.5× μ slows the slide by g cos 30° × 0.1 = 0.85 m/s² of its 3.2; half the μ, 0.25 < tan 20°, slides).
TEST(Validation, InclineSlidesAndSticksAsCoulombSaysAndFailsWithAWrongFriction) {
  const Problem slide = incline_slide(quick());
  EXPECT_TRUE(slide.passed) << slide.measured << " vs " << slide.reference;
  const Problem stick = incline_stick(quick());
  EXPECT_TRUE(stick.passed) << stick.measured;
  Variant more = quick();
  more.friction_scale = 1.5;
  EXPECT_FALSE(incline_slide(more).passed);
  Variant less = quick();
  less.friction_scale = 0.5;
  EXPECT_FALSE(incline_stick(less).passed);
}

// The grasper's grip threshold: Coulomb's m g / (2 μ) to 5 %, and off with the jaws' and block's μ
// 10 % high (the block then holds from 1/1.1 = 0.91 of the threshold).
TEST(Validation, GraspThresholdIsCoulombsAndFailsWithAWrongFriction) {
  const Problem p = grasp_threshold(quick());
  EXPECT_TRUE(p.passed) << p.measured;
  Variant more = quick();
  more.friction_scale = 1.1;
  const Problem off = grasp_threshold(more);
  EXPECT_FALSE(off.passed) << off.measured;
  EXPECT_LT(off.measured, 0.95);
}

// Hertz contact on a Green body: the force over Hertz's and its error falling under refinement, the 3/2
// power of the depth (a least-squares fit of log F against log δ over the five depths), the contact
// radius, a wrong modulus read as such, and quasi-static FEM on the same mesh giving the same forces. The
// goal of 5 % is not reached on these meshes (docs/validation.md): the bounds are what holds, measured 17 %
// on level 0 and 13 % on level 1.
TEST(Validation, HertzForceFallsUnderRefinementFollowsTheThreeHalvesPowerAndReadsTheModulus) {
  const HertzRun coarse = hertz_indentation("green", 0, Variant{});
  const HertzRun fine = hertz_indentation("green", 1, Variant{});
  ASSERT_EQ(fine.depths.size(), 5u);
  EXPECT_LT(fine.spacing, coarse.spacing);
  EXPECT_LT(fine.force_error, coarse.force_error);
  EXPECT_LT(fine.force_error, 0.15);
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (const HertzDepth& d : fine.depths) mx += std::log(d.depth) / 5, my += std::log(d.force) / 5;
  for (const HertzDepth& d : fine.depths) {
    sxy += (std::log(d.depth) - mx) * (std::log(d.force) - my);
    sxx += (std::log(d.depth) - mx) * (std::log(d.depth) - mx);
  }
  EXPECT_NEAR(sxy / sxx, 1.5, 0.05) << "F ~ δ^" << sxy / sxx;
  // The contact radius, midway between the farthest node held and the nearest free one beyond it:
  // within 25 % of √(R δ) on level 1 (measured 22 % at δ/R = 0.03, where those two nodes are 0.05 R, a
  // third of a, apart), within 10 % on level 2 only.
  EXPECT_LT(fine.radius_error, 0.25);
  for (const HertzDepth& d : fine.depths) EXPECT_GT(d.radius, 0.0);
  // Linear elasticity and a geometric contact set: 10 % stiffer reads exactly 10 % more force.
  Variant stiff;
  stiff.youngs_scale = 1.1;
  const HertzRun off = hertz_indentation("green", 0, stiff);
  ASSERT_EQ(off.depths.size(), coarse.depths.size());
  for (std::size_t k = 0; k < off.depths.size(); ++k)
    EXPECT_NEAR(off.depths[k].force, 1.1 * coarse.depths[k].force, 1e-6 * coarse.depths[k].force);
  EXPECT_GT(off.force_error, 0.25);
  // Quasi-static FEM on the same mesh is the same discretisation by another path (a sparse solve each
  // step, the contacts decided by its rest-stiffness compliance instead of the Green body's exact one):
  // the same forces once the frictionless slides have settled.
  const HertzRun fem = hertz_indentation("fem", 0, Variant{});
  ASSERT_EQ(fem.depths.size(), coarse.depths.size());
  for (std::size_t k = 0; k < fem.depths.size(); ++k)
    EXPECT_NEAR(fem.depths[k].force, coarse.depths[k].force, 1e-3 * coarse.depths[k].force) << k;
  // The catalogue's row on level 0 alone fails its tolerance (17 % > 15 %): the mesh matters.
  Variant coarsest;
  coarsest.coarse = true;
  const Problem row = hertz("green", coarsest);
  EXPECT_FALSE(row.passed);
  EXPECT_NEAR(std::abs(row.measured - 1.0), coarse.force_error, 1e-12);
}

// Boussinesq's point load on a Green body: the top nodes' deflection over Boussinesq's at 3 h0 ≤ r ≤ R/2,
// its worst error falling from level 0 to level 1 and within the row's tolerance on level 1 (measured
// 16.6 % and 13.1 %), and a 10 % stiffer block reading every deflection exactly 1/1.1 of the nominal
// one (linear elasticity) and failing the row's tolerance.
TEST(Validation, BoussinesqDeflectionFallsUnderRefinementAndReadsTheModulus) {
#ifdef PLIANT_ASAN
  // Two Green precomputes of 6k and 15k nodes (67 s in Release, about a gigabyte): too long under
  // AddressSanitizer. The graded block and its Green body run there in the Hertz test above.
  GTEST_SKIP() << "the release suite runs it";
#endif
  const BoussinesqRun coarse = boussinesq_load(0, Variant{});
  const BoussinesqRun fine = boussinesq_load(1, Variant{});
  ASSERT_FALSE(coarse.samples.empty());
  ASSERT_GT(fine.samples.size(), coarse.samples.size());
  EXPECT_LT(fine.spacing, coarse.spacing);
  EXPECT_LT(fine.error, coarse.error);
  EXPECT_LT(fine.error, 0.15);
  for (const BoussinesqSample& s : fine.samples) {
    EXPECT_GE(s.radius, 3.0 * fine.spacing * (1.0 - 1e-9));
    EXPECT_GT(s.displacement, 0.0);
  }
  Variant stiff;
  stiff.youngs_scale = 1.1;
  const BoussinesqRun off = boussinesq_load(1, stiff);
  ASSERT_EQ(off.samples.size(), fine.samples.size());
  for (std::size_t k = 0; k < off.samples.size(); ++k)
    EXPECT_NEAR(off.samples[k].displacement, fine.samples[k].displacement / 1.1,
                1e-5 * fine.samples[k].displacement);
  EXPECT_GT(off.error, 0.15);
  // The catalogue's row on level 0 alone fails its 15 % (16.6 %): the mesh matters.
  Variant coarsest;
  coarsest.coarse = true;
  const Problem row = boussinesq(coarsest);
  EXPECT_FALSE(row.passed);
  EXPECT_NEAR(std::abs(row.measured - 1.0), coarse.error, 1e-12);
}

TEST(Validation, GrimmStepCountsAreReportedNotChecked) {
  const Problem p = grimm_table21(springs::Method::mass_spring, quick());
  EXPECT_TRUE(p.passed);
  EXPECT_TRUE(std::isnan(p.tolerance));
  EXPECT_EQ(p.reference, 86.0);
  EXPECT_GT(p.measured, 1.0);
}

TEST(Validation, FinishAndOrder) {
  Problem p;
  p.measured = 1.05, p.reference = 1.0, p.tolerance = 0.04;
  finish(p);
  EXPECT_NEAR(p.error, 0.05, 1e-12);
  EXPECT_FALSE(p.passed);
  p.tolerance = 0.06;
  finish(p);
  EXPECT_TRUE(p.passed);
  p.measured = std::nan("");
  finish(p);
  EXPECT_FALSE(p.passed) << "a NaN measurement never passes";
  // error = 3 h²: order 2 exactly.
  Series s{{0.1, 0.05, 0.025}, {0.03, 0.0075, 0.001875}};
  EXPECT_NEAR(fitted_order(s), 2.0, 1e-12);
}

TEST(Validation, CatalogueNamesAreUniqueAndSelectable) {
  std::set<std::string> names;
  for (const Entry& e : catalogue()) EXPECT_TRUE(names.insert(e.name).second) << e.name;
  EXPECT_GE(names.size(), 20u);
  auto some = select({"patch_test_*", "lame_cylinder"}, false);
  ASSERT_TRUE(some) << some.message();
  EXPECT_EQ(some->size(), 5u);
  auto bad = select({"no_such_problem"}, false);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.message().find("no problem named \"no_such_problem\""), std::string::npos);
  EXPECT_EQ(bad.message().find('\n'), std::string::npos);
}

TEST(Validation, JsonHasExactlyTheSchemaKeys) {
  Problem p;
  p.name = "x", p.measured = 2, p.reference = 1, p.tolerance = std::nan("");
  finish(p);
  Problem q = p;
  q.series = {{0.2, 0.1, 0.05}, {0.4, 0.1, 0.025}};
  q.order = fitted_order(q.series);
  const nlohmann::json j = to_json({p, q}, true);
  const std::set<std::string> schema = {"name",      "family",           "method", "quantity",  "measured",
                                        "reference", "reference_source", "error",  "tolerance", "passed"};
  std::set<std::string> keys;
  for (const auto& [k, v] : j["problems"][0].items()) keys.insert(k);
  EXPECT_EQ(keys, schema);
  EXPECT_TRUE(j["problems"][0]["tolerance"].is_null());  // reported only
  EXPECT_TRUE(j["problems"][1].contains("order"));
  EXPECT_NEAR(j["problems"][1]["order"].get<double>(), 2.0, 1e-12);
  EXPECT_EQ(j["series"]["x"]["h_m"].size(), 3u);
}

}  // namespace
}  // namespace pliant::validate

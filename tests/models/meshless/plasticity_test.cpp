// Müller et al.'s (2004) plasticity: creep to the yield surface, the cap on plastic strain, a bar that
// keeps part of its stretch.
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/meshless/mls_force_model.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

namespace pliant::meshless {
namespace {

std::vector<Vec3> stretched(const MlsBody& body, double sx) {
  std::vector<Vec3> x = body.rest;
  for (Vec3& p : x) p.x() *= sx;
  return x;
}

TEST(Plasticity, CreepsToTheYieldSurfaceAndRelievesStress) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.05, 0.03, 0.03), 0.01, 0.0,
                                {.plasticity = {.yield = 0.01, .creep = 20.0, .max = 1.0}});
  const auto x = stretched(body, 1.2);
  const MlsForceModel model(body);
  const double e_before = model.elastic_energy(x);
  for (int s = 0; s < 400; ++s) update_plasticity(body, x, 0.01);
  ASSERT_EQ(body.plastic_strain.size(), body.rest.size());
  for (Index i = 0; i < body.size(); ++i) {
    const Mat3 total = 0.5 * [&] {
      const Mat3 J = deformation_gradient(body, x, i);
      return Mat3(J.transpose() * J - Mat3::Identity());
    }();
    const double elastic = (total - body.plastic_strain[static_cast<std::size_t>(i)]).norm();
    EXPECT_LE(elastic, 0.01 * 1.0001) << i;  // creep stops at the elastic limit
    EXPECT_GT(elastic, 0.009) << i;          // ... and not far inside it
  }
  EXPECT_LT(model.elastic_energy(x), 0.01 * e_before);
}

TEST(Plasticity, PlasticStrainIsCapped) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.05, 0.03, 0.03), 0.01, 0.0,
                                {.plasticity = {.yield = 0.0, .creep = 50.0, .max = 0.05}});
  const auto x = stretched(body, 1.3);
  for (int s = 0; s < 200; ++s) update_plasticity(body, x, 0.01);
  for (const Mat3& ep : body.plastic_strain) EXPECT_LE(ep.norm(), 0.05 * (1 + 1e-12));
}

TEST(Plasticity, OffByDefault) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.03, 0.03, 0.03), 0.01);
  update_plasticity(body, stretched(body, 1.5), 0.01);
  EXPECT_TRUE(body.plastic_strain.empty());
}

// Length of a free bar held at a 20% stretch for 0.1 s, then let go and settled (overdamped).
double settled_length(const Plasticity& plasticity) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.06, 0.02, 0.02), 0.01, 0.0, {.plasticity = plasticity});
  body.position = stretched(body, 1.2);
  for (int s = 0; s < 50; ++s) update_plasticity(body, body.position, 0.002);
  const MlsForceModel model(body, {.mass_damping = 500.0});
  const double h = symplectic_euler_stable_step(body, 0.4);
  dynamics::Integrator integrator({.scheme = dynamics::Scheme::symplectic_euler, .dt = h});
  for (int s = 0; s < 1500; ++s) {
    integrator.step(model, body.position, body.velocity);
    update_plasticity(body, body.position, h);
  }
  double lo = 1e300, hi = -1e300;
  for (const Vec3& p : body.position) {
    lo = std::min(lo, p.x());
    hi = std::max(hi, p.x());
  }
  return hi - lo;
}

TEST(Plasticity, YieldedBarKeepsPartOfItsStretch) {
  const double rest = 0.05;  // between the outer phyxel layers
  const double elastic = settled_length({});
  const double plastic = settled_length({.yield = 0.02, .creep = 200.0, .max = 1.0});
  EXPECT_NEAR(elastic, rest, 0.002 * rest);  // springs back
  EXPECT_GT(plastic, rest * 1.1);            // keeps most of the stretch: it crept while held
  EXPECT_LT(plastic, rest * 1.2 * 0.995);    // minus the elastic part it springs back
}

}  // namespace
}  // namespace pliant::meshless

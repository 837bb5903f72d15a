// Signed distance, its grid and phyxel sampling against exact geometry.
#include "pliant/models/meshless/sampling.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/models/meshless/signed_distance.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pliant::meshless {
namespace {

TEST(SignedDistance, BoxDistancesAndSignsAreExact) {
  const auto sd = SignedDistance::build(test::box_surface(Vec3(0, 0, 0), Vec3(1, 2, 3)));
  ASSERT_TRUE(sd.ok());
  EXPECT_NEAR((*sd)(Vec3(0.5, 1.0, 1.5)), -0.5, 1e-14);  // centre: nearest faces x = 0, 1
  EXPECT_NEAR((*sd)(Vec3(0.2, 1.0, 1.5)), -0.2, 1e-14);
  EXPECT_NEAR((*sd)(Vec3(-0.3, 1.0, 1.5)), 0.3, 1e-14);               // outside a face
  EXPECT_NEAR((*sd)(Vec3(2.0, 3.0, 1.5)), std::sqrt(2.0), 1e-14);     // outside an edge
  EXPECT_NEAR((*sd)(Vec3(-1.0, -1.0, -1.0)), std::sqrt(3.0), 1e-14);  // outside a corner
  // Just outside and inside an edge and a corner, where only the pseudonormal gets the sign right.
  EXPECT_GT((*sd)(Vec3(1.0 + 1e-6, 2.0 + 1e-6, 1.0)), 0.0);
  EXPECT_LT((*sd)(Vec3(1.0 - 1e-6, 2.0 - 1e-6, 1.0)), 0.0);
  EXPECT_GT((*sd)(Vec3(1e-3, -1e-3, 1e-3)), 0.0);
  EXPECT_LT((*sd)(Vec3(1e-3, 1e-3, 1e-3)), 0.0);
}

TEST(SignedDistance, RejectsOpenSurface) {
  TriMesh open = test::box_surface(Vec3::Zero(), Vec3::Ones());
  open.triangles.pop_back();
  const auto sd = SignedDistance::build(open);
  ASSERT_FALSE(sd.ok());
  EXPECT_NE(sd.message().find("closed surface"), std::string::npos);
}

TEST(SignedDistance, GridInterpolatesSphereDistance) {
  const auto sphere = meshing::icosphere({.radius = 1.0, .subdivisions = 4});
  ASSERT_TRUE(sphere.ok());
  const auto sd = SignedDistance::build(*sphere);
  ASSERT_TRUE(sd.ok());
  const auto grid = sample_sdf_grid(*sd, 0.1, 2);
  ASSERT_TRUE(grid.ok());
  // Inscribed polyhedron: its distance is within the chord sag (1 - cos(edge/2) ≈ 2e-3) of |p| - 1.
  for (const Vec3& p : {Vec3(0.31, -0.22, 0.13), Vec3(0.8, 0.1, -0.3), Vec3(1.1, 0.2, 0.05)}) {
    EXPECT_NEAR(grid->interpolate(p), p.norm() - 1.0, 0.02) << p.transpose();
    EXPECT_NEAR((*sd)(p), p.norm() - 1.0, 3e-3) << p.transpose();
  }
}

TEST(Sampling, RegularBoxHasExactCountAndMass) {
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.1, 0.05, 0.03), 0.01);
  ASSERT_EQ(body.size(), 10 * 5 * 3);
  // Mass = ρ · (sampled volume) = ρ V for a lattice-aligned box.
  EXPECT_NEAR(body.total_mass(), 1000.0 * 0.1 * 0.05 * 0.03, 1e-12);
  for (const Vec3& p : body.rest) {
    EXPECT_GT(p.minCoeff(), 0.0);
    EXPECT_LT(p.x(), 0.1);
  }
}

TEST(Sampling, SphereCountMatchesVolumeAndJitterStaysInside) {
  const auto sphere = meshing::icosphere({.radius = 0.05, .subdivisions = 3});
  ASSERT_TRUE(sphere.ok());
  const auto sd = SignedDistance::build(*sphere);
  ASSERT_TRUE(sd.ok());
  const double s = 0.005, volume = 4.0 / 3.0 * std::numbers::pi * std::pow(0.05, 3);
  for (double jitter : {0.0, 0.8}) {
    const auto points = sample_phyxels(*sd, {.spacing = s, .jitter = jitter, .seed = 3});
    ASSERT_TRUE(points.ok());
    EXPECT_NEAR(static_cast<double>(points->size()) * s * s * s, volume, 0.05 * volume) << jitter;
    for (const Vec3& p : *points) EXPECT_LE((*sd)(p), 0.0);
  }
  const auto a = sample_phyxels(*sd, {.spacing = s, .jitter = 0.8, .seed = 3});
  const auto b = sample_phyxels(*sd, {.spacing = s, .jitter = 0.8, .seed = 4});
  EXPECT_NE(a->front(), b->front());  // the seed matters
}

// Poisson-disk samples of a sphere of radius 5 cm at spacing 8 mm (about 1,000 points).
struct PoissonSphere {
  SignedDistance sd =
      SignedDistance::build(meshing::icosphere({.radius = 0.05, .subdivisions = 3}).value()).value();
  double s = 0.008;
  double r = poisson_radius_factor * s;
  std::vector<Vec3> sample(std::uint64_t seed, double margin = 0.0) const {
    auto p =
        sample_phyxels(sd, {.spacing = s, .seed = seed, .kind = SamplingKind::poisson, .margin = margin});
    EXPECT_TRUE(p.ok()) << p.message();
    return p.ok() ? *p : std::vector<Vec3>{};
  }
};

double nearest(const std::vector<Vec3>& points, const Vec3& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3& q : points) best = std::min(best, (q - p).norm());
  return best;
}

TEST(PoissonDisk, PointsAreInsideAndAtLeastRApart) {
  const PoissonSphere ps;
  for (double margin : {0.0, 0.004}) {
    const std::vector<Vec3> points = ps.sample(5, margin);
    ASSERT_GT(points.size(), 100u);
    for (const Vec3& p : points) EXPECT_LE(ps.sd(p), -margin);
    // Every pair, by brute force (independent of the sampler's background grid).
    double closest = std::numeric_limits<double>::infinity();
    for (std::size_t a = 0; a < points.size(); ++a) {
      for (std::size_t b = a + 1; b < points.size(); ++b)
        closest = std::min(closest, (points[a] - points[b]).norm());
    }
    EXPECT_GE(closest, ps.r) << margin;
    EXPECT_LT(closest, 1.2 * ps.r) << margin;  // and packed: some pairs are close to r
  }
}

TEST(PoissonDisk, CountMatchesTheLatticeAndNoGapIsLeft) {
  const PoissonSphere ps;
  const auto lattice = sample_phyxels(ps.sd, {.spacing = ps.s});
  ASSERT_TRUE(lattice.ok());
  for (double margin : {0.0, 0.004}) {
    const std::vector<Vec3> points = ps.sample(9, margin);
    if (margin == 0.0) {
      // About one point per s³, as the lattice (within 10 %).
      EXPECT_NEAR(static_cast<double>(points.size()), static_cast<double>(lattice->size()),
                  0.1 * static_cast<double>(lattice->size()));
    }
    // Maximal: every node of a finer lattice at signed distance ≤ -margin has a point within 2r (the
    // sampler guarantees r at its own lattice's nodes, and Bridson's shells leave no hole of radius 2r).
    const auto grid = sample_sdf_grid(ps.sd, 0.5 * ps.s, 0);
    ASSERT_TRUE(grid.ok());
    int checked = 0;
    for (Index k = 0; k < grid->dims[2]; ++k) {
      for (Index j = 0; j < grid->dims[1]; ++j) {
        for (Index i = 0; i < grid->dims[0]; ++i) {
          if (grid->value[grid->index(i, j, k)] > -margin) continue;
          ++checked;
          EXPECT_LE(nearest(points, grid->node(i, j, k)), 2.0 * ps.r) << grid->node(i, j, k).transpose();
        }
      }
    }
    EXPECT_GT(checked, 1000);
  }
}

TEST(PoissonDisk, SameSeedSamePoints) {
  const PoissonSphere ps;
  EXPECT_EQ(ps.sample(3), ps.sample(3));
  EXPECT_NE(ps.sample(3), ps.sample(4));
}

TEST(PoissonDisk, RejectsJitterAndBadSettings) {
  const PoissonSphere ps;
  EXPECT_FALSE(sample_phyxels(ps.sd, {.spacing = ps.s, .jitter = 0.5, .kind = SamplingKind::poisson}).ok());
  EXPECT_FALSE(sample_phyxels(ps.sd, {.spacing = ps.s, .kind = SamplingKind::poisson, .candidates = 0}).ok());
  EXPECT_FALSE(sample_phyxels(ps.sd, {.spacing = ps.s, .kind = SamplingKind::poisson, .margin = -1.0}).ok());
  // A margin thicker than the sphere leaves nothing.
  EXPECT_FALSE(sample_phyxels(ps.sd, {.spacing = ps.s, .kind = SamplingKind::poisson, .margin = 0.06}).ok());
}

// A 4 cm cube at a spacing of 0.1 mm is 401^3 lattice nodes: the estimate names that count and
// sampling refuses it before building its signed-distance grid (which took 25-60 s and 1.2 GB). The
// message is the estimate's, which no sampled count could produce; just under the limit still samples.
TEST(Sampling, TooFineASpacingIsRefusedFromTheEstimateBeforeSampling) {
  const TriMesh cube = test::box_surface(Vec3(0, 0, 0), Vec3(0.04, 0.04, 0.04));
  const auto sd = SignedDistance::build(cube);
  ASSERT_TRUE(sd.ok());
  EXPECT_EQ(lattice_node_estimate(sd->bounds(), 1e-4), 401.0 * 401.0 * 401.0);
  EXPECT_EQ(lattice_node_estimate(sd->bounds(), 0.0), INFINITY);
  SamplingDef def;
  def.spacing = 1e-4;
  for (const SamplingKind kind : {SamplingKind::lattice, SamplingKind::poisson}) {
    def.kind = kind;
    const auto points = sample_phyxels(*sd, def);
    ASSERT_FALSE(points.ok());
    EXPECT_EQ(points.message(),
              "sampling: about 64481201 phyxels at a spacing of 0.0001 m, above the limit of 4000000");
  }
  // 158 nodes per axis (3.94 M) is just under the limit; 159 (4.02 M) over it. A coarse spacing samples
  // the cell centres inside (the estimate bounds them: 20^3 of its 21^3).
  EXPECT_LT(lattice_node_estimate(sd->bounds(), 0.04 / 157.5), kMaxPhyxels);
  EXPECT_GT(lattice_node_estimate(sd->bounds(), 0.04 / 158.5), kMaxPhyxels);
  def.kind = SamplingKind::lattice;
  def.spacing = 0.002;
  const auto points = sample_phyxels(*sd, def);
  ASSERT_TRUE(points.ok()) << points.message();
  EXPECT_EQ(lattice_node_estimate(sd->bounds(), def.spacing), 21.0 * 21.0 * 21.0);
  EXPECT_EQ(points->size(), 20u * 20u * 20u);
}

}  // namespace
}  // namespace pliant::meshless

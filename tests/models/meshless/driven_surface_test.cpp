// The driven render surface against the deformed surface itself (its triangles' area vectors).
#include "pliant/models/meshless/driven_surface.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

namespace pliant::meshless {
namespace {

struct Fixture {
  MlsBody body;
  TriMesh surface;
  DrivenSurface driven;
};

Fixture sphere(double jitter) {
  const auto surface = meshing::icosphere({.radius = 0.05, .subdivisions = 2});
  EXPECT_TRUE(surface.ok());
  const auto sd = SignedDistance::build(*surface);
  EXPECT_TRUE(sd.ok());
  const auto points = sample_phyxels(*sd, {.spacing = 0.01, .jitter = jitter});
  EXPECT_TRUE(points.ok());
  auto body = build_mls_body(*points, {.spacing = 0.01, .materials = {test::jelly()}});
  EXPECT_TRUE(body.ok());
  auto driven = DrivenSurface::bind(*body, *surface);
  EXPECT_TRUE(driven.ok()) << driven.message();
  return {std::move(body).value(), *surface, std::move(driven).value()};
}

// Normals of the deformed surface from its own geometry: area-weighted over the triangles at a vertex.
std::vector<Vec3> surface_normals(const Fixture& f, const std::vector<Vec3>& positions) {
  return area_weighted_normals(positions, f.surface.triangles);
}

// Positions to double round-off; normals to the single precision of the stored gradients, also after a
// translation of kilometres (F sums displacements relative to one phyxel, so the translation cancels).
TEST(DrivenSurface, AffineMotionMovesVerticesAndNormalsExactly) {
  for (double jitter : {0.0, 0.8}) {
    const Fixture f = sphere(jitter);
    Mat3 A;
    A << 1.3, 0.4, -0.2, -0.1, 0.8, 0.3, 0.2, -0.5, 1.1;
    for (const Vec3& b : {Vec3(0.1, -0.3, 0.2), Vec3(2e3, -1e3, 3e3)}) {
      std::vector<Vec3> x;
      for (const Vec3& p : f.body.rest) x.push_back(A * p + b);
      std::vector<Vec3> pos(f.driven.vertex_count()), nrm(f.driven.vertex_count());
      f.driven.update(f.body, x, pos, nrm);
      const auto reference = surface_normals(f, pos);
      for (std::size_t v = 0; v < pos.size(); ++v) {
        EXPECT_LT((pos[v] - (A * f.surface.positions[v] + b)).norm(), 1e-13 * (1.0 + b.norm())) << v;
        EXPECT_LT((nrm[v] - reference[v]).norm(), 1e-7) << v;
        const Mat3 F = f.driven.deformation_gradient(f.body, x, static_cast<Index>(v));
        EXPECT_LT((F - A).norm(), 1e-6 * A.norm()) << v;
      }
    }
  }
}

TEST(DrivenSurface, FirstOrderNormalHasTheSignOfTheDeformedSurface) {
  const Fixture f = sphere(0.0);
  Mat3 H;
  H << 0.3, -0.7, 0.2, 0.5, 0.1, -0.4, -0.6, 0.8, 0.2;
  H *= 1e-4;
  std::vector<Vec3> x;
  for (const Vec3& p : f.body.rest) x.push_back(p + H * p);
  std::vector<Vec3> pos(f.driven.vertex_count()), nrm(f.driven.vertex_count());
  f.driven.update(f.body, x, pos, nrm);
  const auto reference = surface_normals(f, pos);
  const auto rest_n = f.driven.rest_normals();
  for (std::size_t v = 0; v < pos.size(); ++v) {
    EXPECT_LT((first_order_normal(H, rest_n[v]) - reference[v]).norm(), 1e-7) << v;  // O(|H|²)
  }
  // The patent's printed n + ∇uᵀn (∇uᵀ = H in Müller et al.'s notation) turns the normal the wrong way.
  double worst = 0.0;
  for (std::size_t v = 0; v < pos.size(); ++v) {
    worst = std::max(worst, (((Mat3::Identity() + H) * rest_n[v]).normalized() - reference[v]).norm());
  }
  EXPECT_GT(worst, 1e-5);
}

TEST(DrivenSurface, ForcesReachThePhyxelsWithTheirTotalAndWork) {
  const Fixture f = sphere(0.5);
  std::vector<Vec3> force(f.body.rest.size(), Vec3::Zero());
  const Vec3 applied(0.3, -1.0, 2.0);
  const Index v = 17;
  f.driven.scatter_force(v, applied, force);
  Vec3 total = Vec3::Zero();
  double work = 0.0;
  const Mat3 A = Eigen::AngleAxisd(0.3, Vec3::UnitY()).toRotationMatrix() * 1.1;
  for (std::size_t j = 0; j < force.size(); ++j) {
    total += force[j];
    work += force[j].dot(A * f.body.rest[j] - f.body.rest[j]);
  }
  EXPECT_LT((total - applied).norm(), 1e-13);
  const Vec3 X = f.surface.positions[static_cast<std::size_t>(v)];
  EXPECT_NEAR(work, applied.dot(A * X - X), 1e-14);
}

}  // namespace
}  // namespace pliant::meshless

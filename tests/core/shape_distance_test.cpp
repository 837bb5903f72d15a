// The contact kernels against analytic distances: plane, sphere, capsule, box and a rigid mesh (a
// closed cube and an open square), and the pose helpers.
#include "pliant/core/shape_distance.hpp"
#include "pliant/core/mesh_distance.hpp"
#include "pliant/core/pose.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace pliant {
namespace {

void expect_near(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_LT((a - b).norm(), tol) << a.transpose() << " vs " << b.transpose();
}

TEST(ShapeDistance, PlaneWithAnyNormal) {
  const Vec3 n = Vec3(1.0, 2.0, -0.5).normalized();
  const Vec3 p(0.3, -0.2, 0.7);
  const SurfaceDistance d = plane_distance(n, p);
  EXPECT_NEAR(d.distance, n.dot(p), 1e-15);
  EXPECT_NEAR(n.dot(d.point), 0.0, 1e-15);
  expect_near(d.point + d.distance * d.normal, p, 1e-15);
}

TEST(ShapeDistance, SphereInsideAndOutside) {
  const SurfaceDistance out = sphere_distance(0.5, Vec3(0.0, 0.6, 0.8));
  EXPECT_NEAR(out.distance, 0.5, 1e-15);
  expect_near(out.point, Vec3(0.0, 0.3, 0.4), 1e-15);
  expect_near(out.normal, Vec3(0.0, 0.6, 0.8), 1e-15);
  const SurfaceDistance in = sphere_distance(2.0, Vec3(0.0, 0.6, 0.8));
  EXPECT_NEAR(in.distance, -1.0, 1e-15);
  expect_near(in.point, Vec3(0.0, 1.2, 1.6), 1e-15);
}

TEST(ShapeDistance, CapsuleSideAndCap) {
  // Beside the segment: the distance to the axis minus the radius, normal radial.
  const SurfaceDistance side = capsule_distance(0.1, 0.5, Vec3(0.3, 0.2, 0.4));
  EXPECT_NEAR(side.distance, 0.5 - 0.1, 1e-15);
  expect_near(side.normal, Vec3(0.6, 0.0, 0.8), 1e-15);
  // Beyond the end: the distance to the end point.
  const SurfaceDistance cap = capsule_distance(0.1, 0.5, Vec3(0.0, 0.55, 0.0));
  EXPECT_NEAR(cap.distance, -0.05, 1e-15);
  expect_near(cap.point, Vec3(0.0, 0.6, 0.0), 1e-15);
  expect_near(cap.normal, Vec3::UnitY(), 1e-15);
}

TEST(ShapeDistance, BoxFacesEdgesCorners) {
  const Vec3 h(1.0, 2.0, 3.0);
  const SurfaceDistance face = box_distance(h, Vec3(0.2, 2.5, 0.1));
  EXPECT_NEAR(face.distance, 0.5, 1e-15);
  expect_near(face.normal, Vec3::UnitY(), 1e-15);
  const SurfaceDistance corner = box_distance(h, Vec3(2.0, 4.0, 5.0));
  EXPECT_NEAR(corner.distance, 3.0, 1e-15);  // (1, 2, 2)
  expect_near(corner.point, h, 1e-15);
  const SurfaceDistance inside = box_distance(h, Vec3(0.9, 0.0, -1.0));
  EXPECT_NEAR(inside.distance, -0.1, 1e-15);
  expect_near(inside.normal, Vec3::UnitX(), 1e-15);
  expect_near(inside.point, Vec3(1.0, 0.0, -1.0), 1e-15);
  const SurfaceDistance below = box_distance(h, Vec3(0.0, 0.0, -2.5));
  EXPECT_NEAR(below.distance, -0.5, 1e-15);
  expect_near(below.normal, -Vec3::UnitZ(), 1e-15);
}

// A closed unit cube [0, 1]³ as 12 outward triangles.
TriMesh cube() {
  TriMesh m;
  for (int i = 0; i < 8; ++i) m.positions.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                 {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}

TEST(MeshDistance, ClosedCubeMatchesTheBoxEverywhere) {
  Result<MeshDistance> mesh = MeshDistance::build(cube());
  ASSERT_TRUE(mesh.ok()) << mesh.message();
  EXPECT_TRUE(mesh->closed());
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.7, 1.7);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const SurfaceDistance ref = box_distance(Vec3::Constant(0.5), p - Vec3::Constant(0.5));
    const std::optional<SurfaceDistance> d = mesh->query(p);
    ASSERT_TRUE(d);
    EXPECT_NEAR(d->distance, ref.distance, 1e-12) << p.transpose();
    // Inside, ties between faces may pick another face at the same distance; outside the point is unique.
    if (ref.distance > 0.0) expect_near(d->point, ref.point + Vec3::Constant(0.5), 1e-12);
  }
}

// The point a NearestHit names on mesh m.
Vec3 point_of(const TriMesh& m, const NearestHit& h) {
  const Tri& t = m.triangles[static_cast<std::size_t>(h.triangle)];
  return (1.0 - h.u - h.v) * m.positions[static_cast<std::size_t>(t[0])] +
         h.u * m.positions[static_cast<std::size_t>(t[1])] +
         h.v * m.positions[static_cast<std::size_t>(t[2])];
}

// A deforming surface (body–body contact): moving the nodes with update_positions gives the same
// distances, points, triangles and normals as a tree built afresh on the moved nodes.
TEST(MeshDistance, UpdatedPositionsMatchAFreshBuild) {
  Result<MeshDistance> moving = MeshDistance::build(cube());
  ASSERT_TRUE(moving.ok());
  TriMesh sheared = cube();
  for (Vec3& x : sheared.positions) x = Vec3(2.0 * x.x() + 0.3 * x.z(), x.y() + 1.0, 0.5 * x.z());
  ASSERT_TRUE(moving->update_positions(sheared.positions));
  EXPECT_FALSE(moving->update_positions(std::vector<Vec3>(3, Vec3::Zero())));  // another node count
  Result<MeshDistance> fresh = MeshDistance::build(sheared);
  ASSERT_TRUE(fresh.ok());
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.5, 2.5);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng) - 1.0);
    NearestHit a, b;
    const std::optional<SurfaceDistance> da = moving->query(p, std::numeric_limits<double>::infinity(), &a);
    const std::optional<SurfaceDistance> db = fresh->query(p, std::numeric_limits<double>::infinity(), &b);
    ASSERT_TRUE(da && db);
    EXPECT_NEAR(da->distance, db->distance, 1e-12) << p.transpose();
    expect_near(da->normal, db->normal, 1e-12);
    EXPECT_NEAR((point_of(sheared, a) - da->point).norm(), 0.0, 1e-12);
  }
  for (std::size_t k = 0; k < sheared.triangles.size(); ++k)
    EXPECT_NEAR(moving->face_normal(static_cast<Index>(k)).norm(), 1.0, 1e-12);
}

TEST(MeshDistance, OpenSquareIsOneSided) {
  TriMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  Result<MeshDistance> mesh = MeshDistance::build(m);
  ASSERT_TRUE(mesh.ok());
  EXPECT_FALSE(mesh->closed());
  EXPECT_NEAR(mesh->query(Vec3(0.3, 0.4, 0.2))->distance, 0.2, 1e-15);
  EXPECT_NEAR(mesh->query(Vec3(0.3, 0.4, -0.2))->distance, -0.2, 1e-15);
  expect_near(mesh->query(Vec3(0.3, 0.4, -0.2))->normal, Vec3::UnitZ(), 1e-15);
  EXPECT_FALSE(mesh->query(Vec3(0.3, 0.4, 5.0), 1.0));
}

TEST(MeshDistance, BadMeshesAreRefused) {
  EXPECT_FALSE(MeshDistance::build(TriMesh{}).ok());
  TriMesh out_of_range;
  out_of_range.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  out_of_range.triangles = {{0, 1, 3}};
  EXPECT_FALSE(MeshDistance::build(out_of_range).ok());
  TriMesh flat = out_of_range;
  flat.triangles = {{0, 1, 1}};
  EXPECT_FALSE(MeshDistance::build(flat).ok());
}

TEST(Pose, QuaternionChecksAndTrack) {
  EXPECT_FALSE(quaternion_rotation(0, 0, 0, 0).ok());
  EXPECT_FALSE(quaternion_rotation(NAN, 0, 0, 1).ok());
  EXPECT_FALSE(quaternion_rotation(2, 0, 0, 0).ok());  // far from unit length: a typo
  EXPECT_FALSE(axis_angle_rotation(Vec3::Zero(), 30.0).ok());
  const Pose p{Vec3(1, 2, 3), *axis_angle_rotation(Vec3::UnitZ(), 90.0)};
  expect_near(p.to_world(Vec3::UnitX()), Vec3(1, 3, 3), 1e-15);
  expect_near(p.to_local(p.to_world(Vec3(0.3, -0.2, 0.5))), Vec3(0.3, -0.2, 0.5), 1e-15);
  // Halfway through a 90° turn about z: 45°, positions linear.
  const std::vector<PoseKey> track = {{0.0, Pose{}}, {2.0, p}};
  const Pose mid = pose_at(track, 1.0, Pose{});
  expect_near(mid.position, Vec3(0.5, 1.0, 1.5), 1e-15);
  expect_near(mid.to_world(Vec3::UnitX()) - mid.position, Vec3(std::sqrt(0.5), std::sqrt(0.5), 0.0), 1e-12);
  expect_near(pose_at(track, 5.0, Pose{}).position, p.position, 1e-15);
}

}  // namespace
}  // namespace pliant

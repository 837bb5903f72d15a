// Invariants swept over a set of meshes and scales (libigl's habit: a property that holds for every
// mesh is checked on many, not on one). Each mesh, a file from tests/data/meshes and procedural ones
// from pliant/meshing (boxes split two ways, a ball, a tube with a hole through it), is scaled by 1e-2,
// 1 and 1e2 about the origin, and then:
//  - the assembled linear stiffness is symmetric and the six rigid-body modes lie in its null space
//    (a stretch does not);
//  - the lumped masses sum to density × volume, the volume enclosed by the extracted surface;
//  - the extracted surface is closed and wound outward (positive signed volume, equal to the tets'),
//    with the Euler characteristic of the mesh's shape (2 for a solid, 0 for the tube);
//  - a rigid rotation and translation of the rest state gives zero elastic force in every family with a
//    force model (fem's corotational, StVK and stable Neo-Hookean tets; springs; meshless MLS with the
//    Green strain), while fem's linear tets, which are not rotation invariant, do pull back;
//  - under linear elasticity K scales with the length L (K ∝ E L), so a load scaled by L² (a traction
//    on an area) gives displacements scaled by L exactly.
#include "pliant/core/geometry.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/surface_check.hpp"
#include "pliant/meshing/tube.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/mass.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/meshless/mls_body.hpp"
#include "pliant/models/meshless/mls_force_model.hpp"
#include "pliant/models/springs/integrator.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <gtest/gtest.h>
#include <Eigen/Geometry>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace pliant {
namespace {

struct SweepMesh {
  std::string name;
  TetMesh mesh;
  int euler_characteristic;  // of the boundary surface: 2 for a ball-like solid, 0 for a torus-like one
  double spacing;            // typical node spacing at scale 1 (unit: m), for the meshless sampling
};

template <class T>
T value_of(Result<T> r) {
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? std::move(r.value()) : T{};
}

const std::vector<SweepMesh>& meshes() {
  static const std::vector<SweepMesh> all = [] {
    std::vector<SweepMesh> m;
    m.push_back({"box.msh",
                 value_of(io::read_tet_mesh(std::string(PLIANT_TEST_DATA_DIR) + "/meshes/box.msh")), 2, 1.0});
    m.push_back({"box, five tets a cell",
                 value_of(meshing::box_mesh({.origin = Vec3(0.01, -0.02, 0.005),
                                             .size = Vec3(0.1, 0.04, 0.03),
                                             .cells = {5, 2, 2},
                                             .split = meshing::CellSplit::five})),
                 2, 0.02});
    m.push_back({"box, six tets a cell",
                 value_of(meshing::box_mesh({.origin = Vec3::Zero(),
                                             .size = Vec3(0.04, 0.04, 0.06),
                                             .cells = {2, 2, 3},
                                             .split = meshing::CellSplit::six})),
                 2, 0.02});
    m.push_back(
        {"ball",
         value_of(meshing::ball_mesh({.center = Vec3(0.0, 0.01, 0.0), .radius = 0.05, .resolution = 4})), 2,
         0.025});
    m.push_back({"tube",
                 value_of(meshing::tube_mesh({.inner_radius = 0.02,
                                              .outer_radius = 0.03,
                                              .length = 0.08,
                                              .segments_around = 10,
                                              .segments_along = 3,
                                              .segments_through = 1})),
                 0, 0.02});
    return m;
  }();
  return all;
}

constexpr double kScales[] = {1e-2, 1.0, 1e2};

TetMesh scaled(const TetMesh& mesh, double s) {
  TetMesh out = mesh;
  for (Vec3& p : out.positions) p *= s;
  return out;
}

materials::Material material() { return materials::material_from_young_poisson(1e5, 0.3, 1100.0).value(); }

double tet_volume_sum(const TetMesh& mesh) {
  double v = 0.0;
  for (const Tet& t : mesh.tets)
    v +=
        signed_volume(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]], mesh.positions[t[3]]);
  return v;
}

// The six rigid-body modes of the nodes (three translations, three infinitesimal rotations about the
// centroid), one column each, 3·#nodes rows.
Eigen::MatrixXd rigid_modes(const TetMesh& mesh) {
  const auto n = static_cast<Eigen::Index>(mesh.node_count());
  Vec3 c = Vec3::Zero();
  for (const Vec3& p : mesh.positions) c += p;
  c /= static_cast<double>(n);
  Eigen::MatrixXd r = Eigen::MatrixXd::Zero(3 * n, 6);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 p = mesh.positions[static_cast<std::size_t>(i)] - c;
    for (int a = 0; a < 3; ++a) {
      r(3 * i + a, a) = 1.0;
      r.block<3, 1>(3 * i, 3 + a) = Vec3::Unit(a).cross(p);
    }
  }
  return r;
}

// Calls check(m, s, mesh) for every mesh m of the sweep scaled by every s.
template <class Check>
void for_each_mesh_and_scale(Check&& check) {
  for (const SweepMesh& m : meshes())
    for (const double s : kScales) {
      SCOPED_TRACE(m.name + " scaled by " + std::to_string(s));
      ASSERT_GT(m.mesh.tet_count(), 0u);
      check(m, s, scaled(m.mesh, s));
    }
}

TEST(InvariantSweep, StiffnessIsSymmetricWithTheRigidModesInItsNullSpace) {
  for_each_mesh_and_scale([&](const SweepMesh&, double, const TetMesh& mesh) {
    const fem::SparseMatrix K = fem::assemble_stiffness(mesh, material());
    ASSERT_EQ(K.rows(), static_cast<Eigen::Index>(3 * mesh.node_count()));
    const double k = K.norm();
    const fem::SparseMatrix Kt = K.transpose();
    EXPECT_LE((K - Kt).norm(), 1e-14 * k);
    const Eigen::MatrixXd r = rigid_modes(mesh);
    for (int c = 0; c < 6; ++c)
      EXPECT_LE((K * r.col(c)).norm(), 1e-12 * k * r.col(c).norm()) << "rigid mode " << c;
    // A stretch along x is not a rigid motion: the same measure sees it.
    Eigen::VectorXd stretch = Eigen::VectorXd::Zero(K.rows());
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
      stretch[3 * static_cast<Eigen::Index>(i)] = mesh.positions[i].x();
    EXPECT_GT((K * stretch).norm(), 1e-3 * k * stretch.norm());
  });
}

TEST(InvariantSweep, SurfaceIsClosedAndOutwardAndEnclosesTheTets) {
  for_each_mesh_and_scale([&](const SweepMesh& m, double, const TetMesh& mesh) {
    const BoundarySurface b = extract_boundary(mesh);
    const Result<meshing::ClosedSurfaceInfo> info = meshing::check_closed_surface(b.mesh);
    ASSERT_TRUE(info.ok()) << info.message();
    EXPECT_FALSE(info->inward);
    // Signed volume by the divergence theorem, each triangle with the origin: positive when outward.
    double v = 0.0;
    for (const Tri& t : b.mesh.triangles)
      v += b.mesh.positions[t[0]].dot(b.mesh.positions[t[1]].cross(b.mesh.positions[t[2]])) / 6.0;
    const double tets = tet_volume_sum(mesh);
    EXPECT_GT(v, 0.0);
    EXPECT_NEAR(v, tets, 1e-12 * tets);
    const auto vertices = static_cast<long long>(b.mesh.positions.size());
    const auto faces = static_cast<long long>(b.mesh.triangles.size());
    EXPECT_EQ(vertices - info->edges + faces, m.euler_characteristic);
  });
}

TEST(InvariantSweep, LumpedMassIsDensityTimesEnclosedVolume) {
  for_each_mesh_and_scale([&](const SweepMesh&, double, const TetMesh& mesh) {
    const double rho = material().density;
    const std::vector<double> density(mesh.tet_count(), rho);
    const std::vector<double> mass = value_of(fem::assemble_lumped_mass(mesh, density));
    ASSERT_EQ(mass.size(), mesh.node_count());
    double total = 0.0;
    for (double mi : mass) total += mi;
    // The volume from the surface alone (check_closed_surface), independent of the tets.
    const Result<meshing::ClosedSurfaceInfo> info =
        meshing::check_closed_surface(extract_boundary(mesh).mesh);
    ASSERT_TRUE(info.ok()) << info.message();
    EXPECT_NEAR(total, rho * info->volume, 1e-12 * rho * info->volume);
  });
}

// Rotation by 50° about a skew axis, then a translation of twice the mesh's size.
std::vector<Vec3> rigidly_moved(const TetMesh& mesh, double s) {
  const Mat3 R = Eigen::AngleAxisd(0.87, Vec3(1.0, 2.0, -0.5).normalized()).toRotationMatrix();
  const Vec3 t = s * Vec3(0.3, -0.1, 0.2);
  std::vector<Vec3> x(mesh.node_count());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = R * mesh.positions[i] + t;
  return x;
}

// A 1 % stretch along x: the force scale the rigid-motion forces are compared to.
std::vector<Vec3> stretched(const TetMesh& mesh) {
  std::vector<Vec3> x = mesh.positions;
  for (Vec3& p : x) p.x() *= 1.01;
  return x;
}

double norm(std::span<const Vec3> f) {
  double sum = 0.0;
  for (const Vec3& v : f) sum += v.squaredNorm();
  return std::sqrt(sum);
}

// The elastic force of `model` at positions x with zero velocity (no loads are set).
template <class Model>
double force_norm(const Model& model, std::span<const Vec3> x) {
  const std::vector<Vec3> v(x.size(), Vec3::Zero());
  std::vector<Vec3> f(x.size(), Vec3::Zero());
  model.forces(x, v, f);
  return norm(f);
}

TEST(InvariantSweep, RigidMotionGivesNoElasticForce) {
  const materials::Material mat[] = {material()};
  for_each_mesh_and_scale([&](const SweepMesh& m, double s, const TetMesh& mesh) {
    const std::vector<Vec3> rigid = rigidly_moved(mesh, s), stretch = stretched(mesh);
    for (const fem::ElementKind kind : {fem::ElementKind::linear, fem::ElementKind::corotational,
                                        fem::ElementKind::stvk, fem::ElementKind::stable_neo_hookean}) {
      SCOPED_TRACE(fem::element_kind_name(kind));
      const fem::FemForceModel model = value_of(fem::FemForceModel::build(mesh, mat, {.element = kind}));
      const double reference = force_norm(model, stretch);
      ASSERT_GT(reference, 0.0);
      if (kind == fem::ElementKind::linear)
        EXPECT_GT(force_norm(model, rigid), 1e-2 * reference) << "linear tets are not rotation invariant";
      else
        EXPECT_LE(force_norm(model, rigid), 1e-9 * reference);
    }
    {
      SCOPED_TRACE("springs");
      springs::SpringMesh net =
          value_of(springs::build_spring_mesh(mesh, {.stiffness = 50.0, .damping = 0.0}));
      const springs::Loads loads;
      const springs::SpringForceModel model(net, loads);
      const double reference = force_norm(model, stretch);
      ASSERT_GT(reference, 0.0);
      EXPECT_LE(force_norm(model, rigid), 1e-9 * reference);
    }
    {
      SCOPED_TRACE("meshless");
      meshless::MlsDef def;
      def.spacing = m.spacing * s;
      def.materials = {mat[0]};
      const meshless::MlsBody body = value_of(meshless::build_mls_body(mesh.positions, def));
      const meshless::MlsForceModel model(body);
      const double reference = force_norm(model, stretch);
      ASSERT_GT(reference, 0.0);
      EXPECT_LE(force_norm(model, rigid), 1e-9 * reference);
    }
  });
}

// Linear statics with the nodes near the minimum x fixed and a load along -z on the nodes at the maximum
// x: K(L s) = s K(L) exactly (each tet's K is E·V·∇N∇Nᵀ, V ∝ s³, ∇N ∝ 1/s), so the load s² f gives s u.
TEST(InvariantSweep, DisplacementScalesWithLengthUnderLinearElasticity) {
  for (const SweepMesh& m : meshes()) {
    SCOPED_TRACE(m.name);
    Eigen::VectorXd reference;  // u at scale 1, which runs first
    for (const double s : {1.0, 1e-2, 1e2}) {
      SCOPED_TRACE(s);
      const TetMesh mesh = scaled(m.mesh, s);
      double x_min = mesh.positions[0].x(), x_max = x_min;
      for (const Vec3& p : mesh.positions) {
        x_min = std::min(x_min, p.x());
        x_max = std::max(x_max, p.x());
      }
      // Clamped over the first quarter of its length (a plane of nodes would leave the ball and the tube a
      // rotation free), loaded over the last sliver; the same nodes at every scale.
      const double clamp = x_min + 0.25 * (x_max - x_min), tol = 1e-6 * (x_max - x_min);
      std::vector<Eigen::Index> free;  // free DOFs
      Eigen::VectorXd f = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(3 * mesh.node_count()));
      for (std::size_t i = 0; i < mesh.node_count(); ++i) {
        if (mesh.positions[i].x() < clamp) continue;
        for (int c = 0; c < 3; ++c) free.push_back(3 * static_cast<Eigen::Index>(i) + c);
        if (mesh.positions[i].x() > x_max - tol) f[3 * static_cast<Eigen::Index>(i) + 2] = -1e-3 * s * s;
      }
      const fem::SparseMatrix K = fem::assemble_stiffness(mesh, material());
      std::vector<Eigen::Index> position(static_cast<std::size_t>(K.rows()), -1);
      for (std::size_t k = 0; k < free.size(); ++k)
        position[static_cast<std::size_t>(free[k])] = static_cast<Eigen::Index>(k);
      std::vector<Eigen::Triplet<double>> entries;
      for (Eigen::Index c = 0; c < K.outerSize(); ++c)
        for (fem::SparseMatrix::InnerIterator it(K, c); it; ++it)
          if (position[static_cast<std::size_t>(it.row())] >= 0 && position[static_cast<std::size_t>(c)] >= 0)
            entries.emplace_back(position[static_cast<std::size_t>(it.row())],
                                 position[static_cast<std::size_t>(c)], it.value());
      const auto nf = static_cast<Eigen::Index>(free.size());
      fem::SparseMatrix Kff(nf, nf);
      Kff.setFromTriplets(entries.begin(), entries.end());
      Eigen::VectorXd ff(nf);
      for (Eigen::Index k = 0; k < nf; ++k) ff[k] = f[free[static_cast<std::size_t>(k)]];
      const Eigen::SimplicialLDLT<fem::SparseMatrix> ldlt(Kff);
      ASSERT_EQ(ldlt.info(), Eigen::Success);
      const Eigen::VectorXd u = ldlt.solve(ff);
      ASSERT_GT(u.norm(), 0.0);
      if (s == 1.0) {
        reference = u;
        continue;
      }
      ASSERT_EQ(reference.size(), u.size());
      EXPECT_LE((u - s * reference).norm(), 1e-9 * s * reference.norm());
    }
  }
}

}  // namespace
}  // namespace pliant

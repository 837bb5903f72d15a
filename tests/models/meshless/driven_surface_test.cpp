// The driven render surface against the deformed surface itself (its triangles' area vectors).
#include "pliant/models/meshless/driven_surface.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

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

// Positions, F and normals to double round-off, also after a translation of kilometres (F sums position
// differences to one phyxel, so the translation cancels). There the tolerances grow with |b| only
// through the round-off of the given positions themselves: ε |b| on a point, ε |b| / s on F (s the 1 cm
// phyxel spacing), and ε |b| / ℓ on the reference normals of triangles of edge ℓ (about 1.5 cm).
TEST(DrivenSurface, AffineMotionMovesVerticesAndNormalsExactly) {
  for (double jitter : {0.0, 0.8}) {
    const Fixture f = sphere(jitter);
    Mat3 A;
    A << 1.3, 0.4, -0.2, -0.1, 0.8, 0.3, 0.2, -0.5, 1.1;
    for (const Vec3& b : {Vec3(0.1, -0.3, 0.2), Vec3(2e3, -1e3, 3e3)}) {
      std::vector<Vec3> x;
      for (const Vec3& p : f.body.rest) x.push_back(A * p + b);
      std::vector<Vec3> pos(f.driven.vertex_count()), nrm(f.driven.vertex_count());
      f.driven.update(x, pos, nrm);
      const auto reference = surface_normals(f, pos);
      const double far = b.norm() / 1.0;  // |b| in metres
      for (std::size_t v = 0; v < pos.size(); ++v) {
        EXPECT_LT((pos[v] - (A * f.surface.positions[v] + b)).norm(), 1e-13 * (1.0 + far)) << v;
        EXPECT_LT((nrm[v] - reference[v]).norm(), 1e-11 * (1.0 + far)) << v;
        const Mat3 F = f.driven.deformation_gradient(x, static_cast<Index>(v));
        EXPECT_LT((F - A).norm(), 1e-12 * (1.0 + far) * A.norm()) << v;
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
  f.driven.update(x, pos, nrm);
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

// The plain sums, written independently of the kernels: x = X + u_0 + Σ φ_j (u_j - u_0),
// F = I + Σ (u_j - u_0) g_jᵀ, n' = cof(F) n / |cof(F) n| (a vertex without phyxels stays at rest). Relative
// to u_0 as the header says: Σ φ_j = 1 and Σ g_j = 0 only to the round-off of the fit, which a poorly
// conditioned moment matrix amplifies, and these forms do not carry that error into a translation. Also
// the round-off scales of the two sums, Σ |φ_j| (|x_j| + |X_j|) and Σ |g_j| (|x_j| + |X_j|): the kernels
// sum the same terms grouped differently (positions, not displacements).
struct Reference {
  std::vector<Vec3> pos, nrm;
  std::vector<double> pos_scale, f_scale;
};
Reference reference_update(const Fixture& f, const std::vector<Vec3>& x) {
  Reference r;
  for (std::size_t v = 0; v < f.driven.vertex_count(); ++v) {
    const auto near = f.driven.phyxels(static_cast<Index>(v));
    const auto terms = f.driven.terms(static_cast<Index>(v));
    Vec3 u = Vec3::Zero();
    Mat3 F = Mat3::Identity();
    double ps = 0.0, fs = 0.0;
    for (std::size_t k = 0; k < near.size(); ++k) {
      const auto j = static_cast<std::size_t>(near[k]);
      const auto j0 = static_cast<std::size_t>(near[0]);
      const Vec3 du = (x[j] - f.body.rest[j]) - (x[j0] - f.body.rest[j0]);
      const Vec3 g(terms[k].grad[0], terms[k].grad[1], terms[k].grad[2]);
      if (k == 0) u = x[j0] - f.body.rest[j0];
      u += terms[k].phi * du;
      F += du * g.transpose();
      ps += std::abs(terms[k].phi) * (x[j].norm() + f.body.rest[j].norm());
      fs += g.norm() * (x[j].norm() + f.body.rest[j].norm());
    }
    Mat3 cof;
    cof.row(0) = F.row(1).cross(F.row(2));
    cof.row(1) = F.row(2).cross(F.row(0));
    cof.row(2) = F.row(0).cross(F.row(1));
    r.pos.push_back(f.driven.rest_positions()[v] + u);
    r.nrm.push_back((cof * f.driven.rest_normals()[v]).normalized());
    r.pos_scale.push_back(ps);
    r.f_scale.push_back(fs);
  }
  return r;
}

// Both implementations of the update (baseline SSE2 and, where the CPU has it, AVX2 + FMA) and the
// automatic choice equal the plain sums, under a smooth nonlinear motion and also for vertices refitted
// with fewer phyxels, with Shepard weights, or with none.
TEST(DrivenSurface, VectorKernelsEqualThePlainSums) {
  Fixture f = sphere(0.6);
  const auto refitted = f.driven.refit_without(f.body, [](Index v, Index j) {
    if (v % 11 == 0) return true;       // no phyxel left
    if (v % 5 == 0) return j % 4 != 0;  // a few left: often Shepard
    return v % 3 == 0 && j % 2 == 0;    // fewer, mostly still linear
  });
  EXPECT_GT(refitted, 0);
  bool shepard = false, empty = false;
  for (std::size_t v = 0; v < f.driven.vertex_count(); ++v) {
    const auto terms = f.driven.terms(static_cast<Index>(v));
    empty = empty || terms.empty();
    for (const FitTerm& t : terms)
      shepard = shepard || (terms.size() > 0 && t.grad[0] == 0.0 && t.grad[1] == 0.0 && t.grad[2] == 0.0);
  }
  EXPECT_TRUE(shepard);
  EXPECT_TRUE(empty);
  std::vector<Vec3> x;
  for (const Vec3& p : f.body.rest) {
    x.push_back(p + Vec3(0.01 * std::sin(40.0 * p.y()), 0.008 * std::cos(30.0 * p.z()),
                         0.012 * p.x() * p.y() / 0.05));
  }
  const std::size_t n = f.driven.vertex_count();
  std::vector<Vec3> pos(n), nrm(n);
  const Reference ref = reference_update(f, x);
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<SurfaceKernel> kernels = {SurfaceKernel::baseline, SurfaceKernel::automatic};
  if (cpu_has_avx2_fma()) kernels.push_back(SurfaceKernel::avx2);
  for (SurfaceKernel kernel : kernels) {
    f.driven.update(x, pos, nrm, kernel);
    for (std::size_t v = 0; v < n; ++v) {
      EXPECT_LE((pos[v] - ref.pos[v]).norm(), 8.0 * eps * ref.pos_scale[v])
          << static_cast<int>(kernel) << " " << v;
      EXPECT_LT((nrm[v] - ref.nrm[v]).norm(), 8.0 * eps * (1.0 + ref.f_scale[v]))
          << static_cast<int>(kernel) << " " << v;
    }
  }
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

#include "pliant/models/fem/elements/corotational_tet.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"

#include "element_test_util.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

namespace pliant::fem {
using namespace pliant::materials;
namespace {

const Material kMat{2.0e6, 1.0e6, 1000.0};  // λ = 2 MPa, μ = 1 MPa

struct Element {
  std::array<Vec3, 4> X;
  Mat3 dm_inverse;
  Mat12 K0;
  Vec12 rest;
  double force_scale;  // ‖K0‖ times the element size (unit: N)
};

Element make_element(std::mt19937& rng) {
  Element e;
  e.X = test::random_tet(rng, 0.1);
  e.dm_inverse = test::dm_inverse_of(e.X);
  e.K0 = tet_stiffness(e.X[0], e.X[1], e.X[2], e.X[3], kMat);
  e.rest = test::stack(e.X);
  e.force_scale = e.K0.norm() * 0.1;
  return e;
}

Vec12 force(const Element& e, const Vec12& x) {
  return corotational_force(e.K0, corotational_rotation(e.dm_inverse, x), e.rest, x);
}

TEST(CorotationalTet, RigidMotionsGiveZeroForce) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 10; ++trial) {
    const Element e = make_element(rng);
    const Vec3 t(0.3, -1.2, 2.0);
    EXPECT_LT(force(e, test::stack(e.X, Mat3::Identity(), t)).norm(), 1e-12 * e.force_scale);
    for (const Mat3& Q : test::test_rotations(rng)) {
      const Vec12 x = test::stack(e.X, Q, t);
      const Mat3 R = corotational_rotation(e.dm_inverse, x);
      EXPECT_LT((R - Q).norm(), 1e-12);
      EXPECT_LT(corotational_force(e.K0, R, e.rest, x).norm(), 1e-12 * e.force_scale);
      EXPECT_LT(corotational_energy(e.K0, R, e.rest, x), 1e-14 * e.K0.norm() * t.squaredNorm());
      // The linear element, by contrast, sees a large ghost force.
      EXPECT_GT((e.K0 * (x - e.rest)).norm(), 0.01 * e.force_scale);
    }
  }
}

TEST(CorotationalTet, EqualsLinearForSmallDisplacements) {
  std::mt19937 rng(32);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Element e = make_element(rng);
    Vec12 dir;
    for (double& v : dir) v = u(rng);
    dir *= 0.1 / dir.norm();  // a displacement pattern of the element's size
    // The difference f_corot - f_lin is second order in the displacement, so relative to the force
    // scale ‖K0‖‖u‖ it is O(ε) for a displacement ε times the element size.
    double previous = 0.0;
    for (double eps : {1e-3, 1e-4, 1e-5, 1e-6, 1e-7}) {
      const Vec12 uvec = eps * dir;
      const Vec12 linear = -e.K0 * uvec;
      const double rel = (force(e, e.rest + uvec) - linear).norm() / (e.K0.norm() * uvec.norm());
      if (eps == 1e-7) {
        EXPECT_LT(rel, 1e-6) << "trial " << trial;
      }
      if (eps == 1e-4) {
        EXPECT_NEAR(previous / rel, 10.0, 3.0) << "trial " << trial;  // linear scaling
      }
      previous = rel;
    }
  }
}

TEST(CorotationalTet, FrameIndifferent) {
  // Rotating a deformed element rotates its forces: f(Q x) = Q f(x).
  std::mt19937 rng(33);
  std::uniform_real_distribution<double> u(-0.02, 0.02);
  for (int trial = 0; trial < 20; ++trial) {
    const Element e = make_element(rng);
    Vec12 x = e.rest;
    for (double& v : x) v += u(rng);
    const Mat3 Q = test::random_rotation(rng);
    Vec12 qx, qf;
    const Vec12 f = force(e, x);
    for (int k = 0; k < 4; ++k) {
      qx.segment<3>(3 * k) = Q * x.segment<3>(3 * k);
      qf.segment<3>(3 * k) = Q * f.segment<3>(3 * k);
    }
    EXPECT_LT((force(e, qx) - qf).norm(), 1e-11 * e.force_scale);
  }
}

TEST(CorotationalTet, WarpedStiffnessIsTheJacobianAtRotatedRest) {
  // At x = Q X the omitted ∂R/∂x terms vanish (they multiply Rᵀx - X = 0 or an infinitesimal rotation
  // that K0 annihilates), so R K0 Rᵀ must equal the central-difference Jacobian there.
  std::mt19937 rng(34);
  for (int trial = 0; trial < 5; ++trial) {
    const Element e = make_element(rng);
    for (const Mat3& Q : test::test_rotations(rng)) {
      const Vec12 x = test::stack(e.X, Q, Vec3(1, 2, 3));
      const Mat12 K = corotational_stiffness(e.K0, corotational_rotation(e.dm_inverse, x));
      const Mat12 fd = -test::central_jacobian([&](const Vec12& y) { return force(e, y); }, x, 1e-7);
      EXPECT_LT((K - fd).norm(), 1e-6 * K.norm());
      EXPECT_LT((K - K.transpose()).norm(), 1e-14 * K.norm());
      Eigen::SelfAdjointEigenSolver<Mat12> eig(K);
      EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-10 * K.norm());
    }
  }
}

TEST(CorotationalTet, InvertedElementIsPushedBack) {
  // Push node 3 through the opposite face, then follow the forces (explicit gradient flow with a step
  // below 2/‖K0‖): the element must come back to positive volume and to rest.
  std::mt19937 rng(35);
  for (int trial = 0; trial < 20; ++trial) {
    const Element e = make_element(rng);
    const Vec3 n = (e.X[1] - e.X[0]).cross(e.X[2] - e.X[0]).normalized();  // towards node 3
    const double height = (e.X[3] - e.X[0]).dot(n);
    Vec12 x = e.rest;
    x.segment<3>(9) -= 1.5 * height * n;  // node 3 now half a height below the face
    const auto volume = [](const Vec12& y) {
      return signed_volume(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9));
    };
    ASSERT_LT(volume(x), 0.0);
    const Vec12 f0 = force(e, x);
    EXPECT_GT(f0.segment<3>(9).dot(n), 0.0) << "trial " << trial;  // node 3 pulled back up
    const double h = 0.25 / e.K0.norm();
    for (int it = 0; it < 40000; ++it) x += h * force(e, x);
    EXPECT_GT(volume(x), 0.9 * volume(e.rest)) << "trial " << trial;
    EXPECT_LT(force(e, x).norm(), 1e-3 * f0.norm()) << "trial " << trial;
  }
}

}  // namespace
}  // namespace pliant::fem

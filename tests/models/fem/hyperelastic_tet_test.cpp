#include "pliant/models/fem/elements/hyperelastic_tet.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/models/fem/elements/psd_projection.hpp"
#include "pliant/models/fem/elements/stable_neo_hookean.hpp"
#include "pliant/models/fem/elements/stvk.hpp"

#include "element_test_util.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <string>

namespace pliant::fem {
using namespace pliant::materials;
namespace {

const Material kSoft{2.0e6, 1.0e6, 1000.0};                  // λ = 2 MPa, μ = 1 MPa (ν = 1/3)
const Material kNearlyIncompressible{9.0e6, 1.0e6, 1000.0};  // ν = 0.45

constexpr Hyperelastic kModels[] = {Hyperelastic::stvk, Hyperelastic::stable_neo_hookean};
std::string name(Hyperelastic m) { return m == Hyperelastic::stvk ? "stvk" : "stable_neo_hookean"; }

struct Element {
  std::array<Vec3, 4> X;
  Mat3 dm_inverse;
  double volume;
  Vec12 rest;
};

Element make_element(std::mt19937& rng, double size = 0.1) {
  Element e;
  e.X = test::random_tet(rng, size);
  e.dm_inverse = test::dm_inverse_of(e.X);
  e.volume = signed_volume(e.X[0], e.X[1], e.X[2], e.X[3]);
  e.rest = test::stack(e.X);
  return e;
}

// Deformation gradients for the derivative tests: stretched, sheared, compressed, nearly flat,
// inverted, for both orientations of the SVD frame.
std::vector<Mat3> test_gradients(std::mt19937& rng) {
  std::vector<Mat3> out;
  for (const Vec3& s : {Vec3(1.0, 1.0, 1.0), Vec3(1.3, 0.9, 1.1), Vec3(2.0, 1.5, 0.7), Vec3(0.6, 0.5, 0.4),
                        Vec3(0.9, 0.7, 0.05), Vec3(1.0, 0.8, 0.01), Vec3(1.0, 0.9, -0.01),
                        Vec3(1.1, 0.8, -0.4), Vec3(0.7, 0.6, -0.9), Vec3(1.0, 1.0, 1.0001)})
    out.push_back(test::gradient_with_singular_values(rng, s));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 10; ++k) {
    Mat3 F = Mat3::Identity();
    for (double& a : F.reshaped()) a += 0.5 * u(rng);
    out.push_back(F);
  }
  return out;
}

Vec9 vec(const Mat3& A) { return Eigen::Map<const Vec9>(A.data()); }

TEST(Hyperelastic, RestStateIsStressFreeWithZeroEnergy) {
  for (Hyperelastic m : kModels) {
    EXPECT_NEAR(energy_density(m, Mat3::Identity(), kSoft), 0.0, 1e-9) << name(m);
    EXPECT_LT(first_piola(m, Mat3::Identity(), kSoft).norm(), 1e-9) << name(m);
  }
}

TEST(Hyperelastic, DensityIsFrameIndifferentAndIsotropic) {
  std::mt19937 rng(41);
  for (Hyperelastic m : kModels) {
    for (const Mat3& F : test_gradients(rng)) {
      const Mat3 Q = test::random_rotation(rng), W = test::random_rotation(rng);
      const double psi = energy_density(m, F, kSoft);
      const double tol = 1e-12 * (std::abs(psi) + kSoft.mu);
      EXPECT_NEAR(energy_density(m, Q * F, kSoft), psi, tol) << name(m);  // frame indifference
      EXPECT_NEAR(energy_density(m, F * W, kSoft), psi, tol) << name(m);  // isotropy
      const Mat3 P = first_piola(m, F, kSoft);
      EXPECT_LT((first_piola(m, Q * F, kSoft) - Q * P).norm(), 1e-12 * (P.norm() + kSoft.mu)) << name(m);
    }
  }
}

TEST(Hyperelastic, StressIsTheEnergyGradientAndTangentIsTheStressGradient) {
  // Central differences of Ψ must give P, and of P must give ∂P/∂F, at every test gradient.
  std::mt19937 rng(42);
  for (const Material& mat : {kSoft, kNearlyIncompressible}) {
    for (Hyperelastic m : kModels) {
      for (const Mat3& F : test_gradients(rng)) {
        const double h = 1e-6;
        const Mat3 P = first_piola(m, F, mat);
        const Mat9 H = first_piola_derivative(m, F, mat);
        Vec9 dpsi;
        Mat9 dP;
        for (int c = 0; c < 9; ++c) {
          Mat3 Fp = F, Fm = F;
          Fp(c % 3, c / 3) += h;
          Fm(c % 3, c / 3) -= h;
          dpsi[c] = (energy_density(m, Fp, mat) - energy_density(m, Fm, mat)) / (2 * h);
          dP.col(c) = vec(first_piola(m, Fp, mat) - first_piola(m, Fm, mat)) / (2 * h);
        }
        EXPECT_LT((dpsi - vec(P)).norm(), 1e-6 * (P.norm() + mat.mu)) << name(m);
        EXPECT_LT((dP - H).norm(), 1e-6 * H.norm()) << name(m);
        EXPECT_LT((H - H.transpose()).norm(), 1e-13 * H.norm()) << name(m);
      }
    }
  }
}

TEST(Hyperelastic, ElementTangentEqualsFiniteDifferencesOfForces) {
  std::mt19937 rng(43);
  for (const Material& mat : {kSoft, kNearlyIncompressible}) {
    for (Hyperelastic m : kModels) {
      for (int trial = 0; trial < 3; ++trial) {
        const Element e = make_element(rng);
        for (const Mat3& F : test_gradients(rng)) {
          const Vec12 x = test::stack(e.X, F, Vec3(0.2, 0.1, -0.3));
          const auto f = [&](const Vec12& y) {
            return hyperelastic_force(m, mat, e.dm_inverse, e.volume, y);
          };
          const auto E = [&](const Vec12& y) {
            return hyperelastic_energy(m, mat, e.dm_inverse, e.volume, y);
          };
          const Mat12 K = hyperelastic_stiffness(m, mat, e.dm_inverse, e.volume, x);
          const Mat12 fd = -test::central_jacobian(f, x, 1e-7);
          EXPECT_LT((K - fd).norm(), 1e-6 * K.norm()) << name(m) << " det F " << F.determinant();
          // Energy gradient equals the force (sign included).
          const Vec12 force = f(x);
          const Vec12 grad = test::central_gradient(E, x, 1e-7);
          const double scale = force.norm() + 1e-3 * K.norm() * 0.1;
          EXPECT_LT((force + grad).norm(), 1e-6 * scale) << name(m) << " det F " << F.determinant();
        }
      }
    }
  }
}

TEST(Hyperelastic, RestStiffnessIsTheLinearElement) {
  // Both energies linearise to Hooke's law with the material's Lamé constants (the stable
  // Neo-Hookean one through Smith et al.'s reparameterisation), so K(X) = K0 of linear_tet.
  std::mt19937 rng(44);
  for (const Material& mat : {kSoft, kNearlyIncompressible}) {
    for (Hyperelastic m : kModels) {
      for (int trial = 0; trial < 10; ++trial) {
        const Element e = make_element(rng);
        const Mat12 K0 = tet_stiffness(e.X[0], e.X[1], e.X[2], e.X[3], mat);
        const Mat12 K = hyperelastic_stiffness(m, mat, e.dm_inverse, e.volume, e.rest);
        EXPECT_LT((K - K0).norm(), 1e-10 * K0.norm()) << name(m);
        EXPECT_LT(hyperelastic_force(m, mat, e.dm_inverse, e.volume, e.rest).norm(), 1e-9 * K0.norm() * 0.1);
      }
    }
  }
}

TEST(Hyperelastic, RigidMotionsGiveZeroForce) {
  std::mt19937 rng(45);
  for (Hyperelastic m : kModels) {
    for (int trial = 0; trial < 10; ++trial) {
      const Element e = make_element(rng);
      const double scale = tet_stiffness(e.X[0], e.X[1], e.X[2], e.X[3], kSoft).norm() * 0.1;  // N
      const Vec3 t(-0.4, 2.0, 0.7);
      EXPECT_LT(
          hyperelastic_force(m, kSoft, e.dm_inverse, e.volume, test::stack(e.X, Mat3::Identity(), t)).norm(),
          1e-10 * scale);
      for (const Mat3& Q : test::test_rotations(rng)) {
        const Vec12 x = test::stack(e.X, Q, t);
        EXPECT_LT(hyperelastic_force(m, kSoft, e.dm_inverse, e.volume, x).norm(), 1e-10 * scale) << name(m);
        EXPECT_NEAR(hyperelastic_energy(m, kSoft, e.dm_inverse, e.volume, x), 0.0, 1e-10 * scale * 0.1)
            << name(m);
      }
    }
  }
}

TEST(Hyperelastic, ProjectedStiffnessIsPositiveSemidefinite) {
  std::mt19937 rng(46);
  for (Hyperelastic m : kModels) {
    int indefinite = 0;
    for (const Mat3& F : test_gradients(rng)) {
      const Element e = make_element(rng);
      const Vec12 x = test::stack(e.X, F);
      const Mat12 K = hyperelastic_stiffness(m, kNearlyIncompressible, e.dm_inverse, e.volume, x);
      const Mat12 Kp = hyperelastic_stiffness(m, kNearlyIncompressible, e.dm_inverse, e.volume, x,
                                              Definiteness::projected);
      Eigen::SelfAdjointEigenSolver<Mat12> exact(K), projected(Kp);
      if (exact.eigenvalues().minCoeff() < -1e-8 * K.norm()) ++indefinite;
      EXPECT_GT(projected.eigenvalues().minCoeff(), -1e-10 * K.norm()) << name(m);
      // Translations stay free.
      for (int d = 0; d < 3; ++d) {
        Vec12 t = Vec12::Zero();
        for (int k = 0; k < 4; ++k) t[3 * k + d] = 1.0;
        EXPECT_LE((Kp * t).norm(), 1e-10 * K.norm()) << name(m);
      }
      // Where ∂P/∂F is already semidefinite, the projection leaves the stiffness alone.
      Eigen::SelfAdjointEigenSolver<Mat9> tangent(first_piola_derivative(m, F, kNearlyIncompressible));
      if (tangent.eigenvalues().minCoeff() >= 0.0) {
        EXPECT_LT((Kp - K).norm(), 1e-10 * K.norm()) << name(m);
      }
    }
    EXPECT_GT(indefinite, 2) << name(m) << ": the test gradients should include indefinite states";
  }
}

TEST(StableNeoHookean, AnalyticEigensystemDiagonalisesTheTangent) {
  std::mt19937 rng(47);
  for (const Material& mat : {kSoft, kNearlyIncompressible}) {
    for (const Mat3& F : test_gradients(rng)) {
      const Mat9 H = stable_neo_hookean_first_piola_derivative(F, mat);
      const Eigensystem9 es = stable_neo_hookean_eigensystem(F, mat);
      EXPECT_LT((es.vectors.transpose() * es.vectors - Mat9::Identity()).norm(), 1e-12);
      EXPECT_LT((es.vectors * es.values.asDiagonal() * es.vectors.transpose() - H).norm(), 1e-11 * H.norm());
      // The analytic projection equals the dense one (psd_projection.hpp).
      const Mat9 analytic = stable_neo_hookean_first_piola_derivative_psd(F, mat);
      EXPECT_LT((analytic - project_psd(H)).norm(), 1e-10 * H.norm()) << "det F " << F.determinant();
    }
  }
}

TEST(StableNeoHookean, ParametersReproduceTheLameConstants) {
  // Independent check of the reparameterisation: the small-strain Cauchy stress of a pure
  // volumetric and a pure shear strain must be Hooke's σ = λ tr(ε) I + 2μ ε.
  const double eps = 1e-7;
  for (const Material& mat : {kSoft, kNearlyIncompressible}) {
    const Mat3 vol = Mat3::Identity() * (1.0 + eps);
    EXPECT_NEAR(stable_neo_hookean_first_piola(vol, mat)(0, 0) / eps, 3 * mat.lambda + 2 * mat.mu,
                1e-5 * (mat.lambda + mat.mu));
    Mat3 shear = Mat3::Identity();
    shear(0, 1) = shear(1, 0) = eps;
    EXPECT_NEAR(stable_neo_hookean_first_piola(shear, mat)(0, 1) / eps, 2 * mat.mu, 1e-5 * mat.mu);
    const StableNeoHookeanParameters p = stable_neo_hookean_parameters(mat);
    EXPECT_NEAR(p.alpha, 1.0 + mat.mu / (mat.lambda + 5.0 / 6.0 * mat.mu), 1e-15);
  }
}

TEST(StableNeoHookean, InvertedAndFlatElementsAreFiniteAndRestoring) {
  std::mt19937 rng(48);
  for (int trial = 0; trial < 20; ++trial) {
    const Element e = make_element(rng);
    const Vec3 n = (e.X[1] - e.X[0]).cross(e.X[2] - e.X[0]).normalized();  // towards node 3
    const double height = (e.X[3] - e.X[0]).dot(n);
    const auto volume = [](const Vec12& y) {
      return signed_volume(y.segment<3>(0), y.segment<3>(3), y.segment<3>(6), y.segment<3>(9));
    };
    for (double depth : {1.0, 1.5, 2.5}) {  // flat, inverted, deeply inverted
      Vec12 x = e.rest;
      x.segment<3>(9) -= depth * height * n;
      const Hyperelastic m = Hyperelastic::stable_neo_hookean;
      const double E = hyperelastic_energy(m, kNearlyIncompressible, e.dm_inverse, e.volume, x);
      const Vec12 f = hyperelastic_force(m, kNearlyIncompressible, e.dm_inverse, e.volume, x);
      const Mat12 K = hyperelastic_stiffness(m, kNearlyIncompressible, e.dm_inverse, e.volume, x,
                                             Definiteness::projected);
      ASSERT_TRUE(std::isfinite(E) && f.allFinite() && K.allFinite());
      EXPECT_GT(E, 0.0);
      EXPECT_GT(f.segment<3>(9).dot(n), 0.0) << "depth " << depth;  // node 3 pulled back up
      // Following the forces (gradient descent with a small step) restores the element.
      const Mat12 K0 = tet_stiffness(e.X[0], e.X[1], e.X[2], e.X[3], kNearlyIncompressible);
      const double h = 0.25 / K0.norm();
      double energy = E;
      for (int it = 0; it < 40000; ++it) {
        x += h * hyperelastic_force(m, kNearlyIncompressible, e.dm_inverse, e.volume, x);
        if (it % 1000 == 999) {
          const double next = hyperelastic_energy(m, kNearlyIncompressible, e.dm_inverse, e.volume, x);
          EXPECT_LE(next, energy + 1e-12 * E);
          energy = next;
        }
      }
      EXPECT_GT(volume(x), 0.9 * e.volume) << "depth " << depth;
      EXPECT_LT(energy, 1e-4 * E) << "depth " << depth;
    }
  }
}

}  // namespace
}  // namespace pliant::fem

// The corotational loops in SIMD lanes (SSE2, AVX2 and AVX-512 versions) against the one-tet element kernels
// (corotational_tet.hpp): rotated gradients, forces with β damping, stiffness products; lanes whose F
// suits no Newton iteration (inverted, nearly flat, strongly stretched) take the SVD; a last partial group.
#include "models/fem/elements/corotational_lanes.hpp"

#include "core/cpu_dispatch.hpp"
#include "pliant/models/fem/elements/corotational_tet.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"
#include "pliant/models/fem/elements/polar_decomposition.hpp"

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include <algorithm>
#include <random>
#include <vector>

namespace pliant::fem {
namespace {

struct Tets {
  TetMesh rest;
  TetRestShape shape;
  std::vector<materials::Material> material;
  std::vector<Vec3> x, v, p;
};

Vec12 stack(const std::vector<Vec3>& q, const Tet& tet) {
  Vec12 e;
  for (int a = 0; a < 4; ++a) e.segment<3>(3 * a) = q[static_cast<std::size_t>(tet[a])];
  return e;
}

// Ten separate tets, each deformed by its own F: small strain with a large rotation (most), an inverted
// one, a nearly flat one, a strongly stretched one (the Newton branch's limit) and the identity.
Tets make_tets(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Tets s;
  const int n = 10;
  for (int t = 0; t < n; ++t) {
    const Vec3 origin(3.0 * t, u(rng), u(rng));
    s.rest.positions.push_back(origin);
    s.rest.positions.push_back(origin + Vec3(1.0 + 0.2 * u(rng), 0.1 * u(rng), 0.1 * u(rng)));
    s.rest.positions.push_back(origin + Vec3(0.1 * u(rng), 1.0 + 0.2 * u(rng), 0.1 * u(rng)));
    s.rest.positions.push_back(origin + Vec3(0.1 * u(rng), 0.1 * u(rng), 1.0 + 0.2 * u(rng)));
    s.rest.tets.push_back({4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3});
    s.material.push_back(
        materials::material_from_young_poisson(1e5 * (1 + t), 0.3 + 0.015 * t, 1000.0).value());
  }
  s.shape = build_rest_shape(s.rest).value();
  for (int t = 0; t < n; ++t) {
    Mat3 F = Eigen::AngleAxisd(0.7 * t, Vec3(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix() *
             (Mat3::Identity() + 0.05 * Mat3::Random());
    if (t == 2) F.col(0) = -F.col(0);                         // inverted
    if (t == 5) F.col(2) = 0.2 * F.col(0) + 1e-4 * F.col(2);  // nearly flat
    if (t == 6) F = F * Vec3(8.0, 0.3, 0.3).asDiagonal();     // det / (‖F‖²/3)^{3/2} < 0.1
    if (t == 9) F.setIdentity();
    const Vec3& X0 = s.rest.positions[static_cast<std::size_t>(4 * t)];
    for (int a = 0; a < 4; ++a) {
      const Vec3& X = s.rest.positions[static_cast<std::size_t>(4 * t + a)];
      s.x.push_back(Vec3(0.5 * t, 0.0, 1.0) + F * (X - X0));
      s.v.push_back(Vec3(u(rng), u(rng), u(rng)));
      s.p.push_back(Vec3(u(rng), u(rng), u(rng)));
    }
  }
  return s;
}

TEST(CorotationalLanes, MatchTheOneTetKernelsInEveryVersion) {
  const Tets s = make_tets(11);
  const auto nt = static_cast<Index>(s.rest.tets.size());
  constexpr int W = detail::kTetLanes;
  const std::size_t groups = (s.rest.tets.size() + W - 1) / W;
  // The kernels' rest data, padded to whole groups with the last tet.
  std::vector<Tet> lane_tets(groups * W);
  std::vector<double> dm_inverse(groups * W * detail::kMatrixValues),
      moduli(groups * W * detail::kModuliValues);
  for (std::size_t lane = 0; lane < lane_tets.size(); ++lane) {
    const std::size_t t = std::min(lane, s.rest.tets.size() - 1);
    lane_tets[lane] = s.rest.tets[t];
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        dm_inverse[detail::lane_index(lane, detail::kMatrixValues, 3 * c + r)] = s.shape.dm_inverse[t](r, c);
    moduli[detail::lane_index(lane, detail::kModuliValues, 0)] = -s.shape.volume[t] * s.material[t].lambda;
    moduli[detail::lane_index(lane, detail::kModuliValues, 1)] = -s.shape.volume[t] * s.material[t].mu;
  }
  const detail::TetLaneData data{lane_tets.data(), dm_inverse.data(), moduli.data()};
  const double beta = 0.013;
  std::vector<detail::LaneKernel> kernels{detail::LaneKernel::baseline};
  if (cpu::has_avx2_fma()) kernels.push_back(detail::LaneKernel::avx2);
  if (cpu::has_avx512f()) kernels.push_back(detail::LaneKernel::avx512);
  for (detail::LaneKernel kernel : kernels) {
    SCOPED_TRACE(static_cast<int>(kernel));
    std::vector<double> h(groups * W * detail::kMatrixValues), force(groups * W * detail::kSlotValues);
    std::vector<double> product = force;
    // Whole groups and the last, partial one.
    for (Index first = 0; first < nt; first += W) {
      const int count = static_cast<int>(std::min<Index>(W, nt - first));
      detail::corotational_forces(data, s.x.data(), s.v.data(), beta, first, count, h.data(), force.data(),
                                  kernel);
      detail::corotational_products(data, h.data(), s.p.data(), first, product.data(), kernel);
    }
    for (Index t = 0; t < nt; ++t) {
      SCOPED_TRACE(t);
      const auto ts = static_cast<std::size_t>(t);
      const Tet& tet = s.rest.tets[ts];
      const Vec12 X = stack(s.rest.positions, tet), x = stack(s.x, tet);
      const Mat12 K0 =
          tet_stiffness(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6), X.segment<3>(9), s.material[ts]);
      const Mat3 R = corotational_rotation(s.shape.dm_inverse[ts], x);
      EXPECT_NEAR(R.determinant(), 1.0, 1e-12);
      Mat3 H;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) H(r, c) = h[detail::lane_index(ts, detail::kMatrixValues, 3 * c + r)];
      EXPECT_LT((H - R * s.shape.dm_inverse[ts].transpose()).norm(), 1e-12 * H.norm());
      const Mat12 K = corotational_stiffness(K0, R);
      const Vec12 f_ref = corotational_force(K0, R, X, x) - beta * K * stack(s.v, tet);
      const Vec12 kp_ref = -K * stack(s.p, tet);
      Vec12 f, kp;
      for (int k = 0; k < 12; ++k) {
        f[k] = force[detail::lane_index(ts, detail::kSlotValues, k)];
        kp[k] = product[detail::lane_index(ts, detail::kSlotValues, k)];
      }
      EXPECT_LT((f - f_ref).norm(), 1e-10 * f_ref.norm());
      EXPECT_LT((kp - kp_ref).norm(), 1e-11 * kp_ref.norm());
    }
  }
}

}  // namespace
}  // namespace pliant::fem

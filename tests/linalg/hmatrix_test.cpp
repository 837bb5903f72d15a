// Hierarchical matrices against the dense matrices they approximate: a regularised 1/r kernel (one
// unknown per point) and a Kelvin-like 3×3 kernel (three per point) between random points on a
// sphere, a surface like the ones Green's functions live on.
#include "pliant/linalg/hmatrix.hpp"
#include "pliant/linalg/hmatrix_build.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

namespace pliant::linalg {
namespace {

std::vector<Vec3> sphere_points(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<Vec3> p(static_cast<std::size_t>(n));
  for (Vec3& x : p) x = Vec3(g(rng), g(rng), g(rng)).normalized();
  return p;
}

// A(3i + a, 3j + b) = (δ_ab + r_a r_b / ρ²) / ρ with ρ² = |x_i − x_j|² + h²: symmetric, smooth away
// from the diagonal (a regularised Kelvin solution; with dofs = 1 only the 1/ρ part).
struct Kernel {
  std::vector<Vec3> x;
  int dofs = 1;
  double h = 0.02;
  double operator()(Index r, Index c) const {
    const Vec3 d = x[static_cast<std::size_t>(r / dofs)] - x[static_cast<std::size_t>(c / dofs)];
    const double rho2 = d.squaredNorm() + h * h, rho = std::sqrt(rho2);
    if (dofs == 1) return 1.0 / rho;
    const int a = r % dofs, b = c % dofs;
    return ((a == b ? 1.0 : 0.0) + d[a] * d[b] / rho2) / rho;
  }
  Eigen::MatrixXd dense() const {
    const Index n = static_cast<Index>(x.size()) * dofs;
    Eigen::MatrixXd A(n, n);
    for (Index c = 0; c < n; ++c)
      for (Index r = 0; r < n; ++r) A(r, c) = (*this)(r, c);
    return A;
  }
  ColumnOracle oracle() const {
    return [this](std::span<const Index> rows, Index col, double* out) {
      for (std::size_t k = 0; k < rows.size(); ++k) out[k] = (*this)(rows[k], col);
    };
  }
};

// The whole matrix as the runtime reads it: point by point through columns().
Eigen::MatrixXd columns_of(const HMatrix& H) {
  const Index n = H.rows(), d = H.dofs_per_point();
  Eigen::MatrixXd A(n, n);
  for (Index p = 0; p < n / d; ++p) H.columns(p, A.col(d * p).data());
  return A;
}

double dense_float_bytes(Index n) { return 4.0 * static_cast<double>(n) * (n + 1) / 2; }

TEST(HMatrix, AcaOnInverseDistanceMeetsTheToleranceAndFallsWithIt) {
  Kernel k{sphere_points(2000, 1), 1};
  const Eigen::MatrixXd A = k.dense();
  double previous = 1.0;
  for (double tol : {1e-2, 1e-3, 1e-4}) {
    const HMatrix H = build_hmatrix_aca(k.x, 1, k.oracle(), {.tolerance = tol, .threads = 2});
    const double err = (columns_of(H) - A).norm() / A.norm();
    std::printf("aca tol %g: error %.3g, %zu bytes = %.3f of dense float lower triangle\n", tol, err,
                H.stored_bytes(), static_cast<double>(H.stored_bytes()) / dense_float_bytes(H.rows()));
    EXPECT_LT(err, tol) << "tolerance " << tol;
    EXPECT_LT(err, 0.5 * previous);
    previous = err;
    // Far below the dense lower triangle in float (what a dense .green stores).
    EXPECT_LT(static_cast<double>(H.stored_bytes()), (tol < 1e-3 ? 0.6 : 0.35) * dense_float_bytes(H.rows()))
        << "tolerance " << tol;
    EXPECT_GT(H.low_rank_blocks(), 100u);
  }
}

TEST(HMatrix, PanelBuildOnThreeUnknownsPerPointAgreesWithEveryQuery) {
  Kernel k{sphere_points(1200, 2), 3};
  const Eigen::MatrixXd A = k.dense();
  double previous = 1.0;
  for (double tol : {1e-2, 1e-3, 1e-4}) {
    HMatrixPanelBuilder builder(k.x, 3, {.tolerance = tol, .threads = 2});
    const auto& leaves = builder.leaves();
    // Hand the panels over in uneven runs: the result must not depend on the cut.
    for (std::size_t first = 0; first < leaves.size();) {
      const std::size_t last = std::min(leaves.size(), first + 1 + first % 3);
      std::vector<Eigen::MatrixXd> panels;
      for (std::size_t l = first; l < last; ++l) {
        const auto cols = builder.leaf_columns(leaves[l]);
        Eigen::MatrixXd P(A.rows(), static_cast<Eigen::Index>(cols.size()));
        for (std::size_t c = 0; c < cols.size(); ++c) P.col(static_cast<Eigen::Index>(c)) = A.col(cols[c]);
        panels.push_back(std::move(P));
      }
      builder.add_panels(std::span(leaves).subspan(first, last - first), panels);
      first = last;
    }
    const HMatrix H = builder.finish();
    const Eigen::MatrixXd B = columns_of(H);
    const double err = (B - A).norm() / A.norm();
    std::printf("panel tol %g: error %.3g, %zu bytes = %.3f of dense float lower triangle, max rank %d\n",
                tol, err, H.stored_bytes(),
                static_cast<double>(H.stored_bytes()) / dense_float_bytes(H.rows()), H.max_rank());
    EXPECT_LT(err, tol) << "tolerance " << tol;
    EXPECT_LT(err, 0.5 * previous);
    previous = err;
    EXPECT_LT(static_cast<double>(H.stored_bytes()), 0.5 * dense_float_bytes(H.rows()));

    // The other queries read the same matrix: point blocks, products, sparse products.
    std::mt19937 rng(3);
    std::uniform_int_distribution<Index> pick(0, 1199);
    for (int t = 0; t < 20; ++t) {
      const Index i = pick(rng), j = pick(rng);
      Eigen::Matrix3d blk;
      H.point_block(i, j, blk.data());
      EXPECT_LT((blk - B.block<3, 3>(3 * i, 3 * j)).norm(), 1e-12 * A.norm());
    }
    const Eigen::VectorXd x = Eigen::VectorXd::Random(A.rows());
    Eigen::VectorXd y(A.rows());
    H.multiply(x.data(), y.data());
    EXPECT_LT((y - B * x).norm(), 1e-9 * (B * x).norm());
    EXPECT_LT((y - A * x).norm(), 3 * tol * (A * x).norm());
    Eigen::VectorXd sparse = Eigen::VectorXd::Zero(A.rows());
    Eigen::VectorXd f = Eigen::VectorXd::Zero(A.rows());
    for (Index p : {5, 77, 1000}) {
      const Vec3 v(1.0, -2.0, 0.5);
      f.segment<3>(3 * p) += v;
      H.add_columns(p, v.data(), sparse.data());
    }
    EXPECT_LT((sparse - B * f).norm(), 1e-9 * (B * f).norm());
  }
}

TEST(HMatrix, BytesRoundTripAndDamageIsRefused) {
  Kernel k{sphere_points(500, 4), 3};
  const HMatrix H = build_hmatrix_aca(k.x, 3, k.oracle(), {.tolerance = 1e-3});
  const std::vector<std::byte> bytes = H.to_bytes();
  EXPECT_EQ(bytes.size(), H.stored_bytes());
  auto R = HMatrix::from_bytes(bytes, nullptr, "h");
  ASSERT_TRUE(R.ok()) << R.message();
  EXPECT_EQ(columns_of(*R), columns_of(H));
  EXPECT_EQ(R->tolerance(), 1e-3);

  // Truncated, and each table entry broken in turn: one clear error, never a crash.
  EXPECT_FALSE(HMatrix::from_bytes(std::span(bytes).first(bytes.size() - 8), nullptr, "h").ok());
  const std::size_t table = H.table_bytes();
  for (std::size_t at = 0; at < table; at += 4) {
    std::vector<std::byte> bad = bytes;
    bad[at] = static_cast<std::byte>(static_cast<unsigned char>(bad[at]) ^ 0x5a);
    bad[at + 3] = static_cast<std::byte>(static_cast<unsigned char>(bad[at + 3]) ^ 0x40);
    auto r = HMatrix::from_bytes(bad, nullptr, "h");
    if (!r.ok()) {
      EXPECT_NE(r.message().find("h: damaged hierarchical block"), std::string::npos) << r.message();
    }
  }
  std::vector<std::byte> nan = bytes;
  const float q = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan.data() + table, &q, 4);
  EXPECT_FALSE(HMatrix::from_bytes(nan, nullptr, "h").ok());
}

}  // namespace
}  // namespace pliant::linalg

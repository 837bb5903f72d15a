#include "pliant/models/meshless/rest_stiffness.hpp"

#include <algorithm>
#include <vector>

namespace pliant::meshless {

Eigen::SparseMatrix<double> rest_stiffness(const MlsBody& body, bool free_only) {
  const auto n = static_cast<std::size_t>(body.size());
  std::vector<Index> dof(n, -1);  // block column of each phyxel, -1 when left out
  Index count = 0;
  for (std::size_t a = 0; a < n; ++a)
    if (!free_only || body.inv_mass[a] > 0.0) dof[a] = count++;

  // Column by column (phyxel b): every phyxel i whose stencil holds b adds its blocks K_ab for the
  // a in that stencil, accumulated in a dense workspace over a.
  std::vector<Mat3> block(n, Mat3::Zero());
  std::vector<std::uint8_t> touched(n, 0);
  std::vector<Index> rows;
  std::vector<Index> column_rows;                               // per column's entries: row phyxels (sorted)
  std::vector<Mat3> column_blocks;                              // their blocks
  std::vector<Index> column_begin(1, 0);                        // per free column + 1
  const auto stencil_c = [&](std::size_t i, Index l) -> Vec3 {  // c_ia for link l of i, l = -1: a = i
    return l < 0 ? Vec3(-body.d_sum[i]) : body.link_d[static_cast<std::size_t>(l)];
  };
  const auto add_source = [&](std::size_t i, const Vec3& cb) {
    const auto& m = body.materials[static_cast<std::size_t>(body.material[i])];
    const double lambda = m.lambda + body.volume_stiffness, mu = m.mu, v = body.volume[i];
    for (Index l = body.link_begin[i] - 1; l < body.link_begin[i + 1]; ++l) {
      const bool self = l < body.link_begin[i];
      const auto a = self ? i : static_cast<std::size_t>(body.link_target[static_cast<std::size_t>(l)]);
      if (dof[a] < 0) continue;
      const Vec3 ca = stencil_c(i, self ? Index{-1} : l);
      block[a] +=
          v * (lambda * ca * cb.transpose() + mu * ca.dot(cb) * Mat3::Identity() + mu * cb * ca.transpose());
      if (!touched[a]) {
        touched[a] = 1;
        rows.push_back(static_cast<Index>(a));
      }
    }
  };
  for (std::size_t b = 0; b < n; ++b) {
    if (dof[b] < 0) continue;
    add_source(b, stencil_c(b, -1));  // b's own stencil
    for (Index k = body.in_begin[b]; k < body.in_begin[b + 1]; ++k)
      add_source(static_cast<std::size_t>(body.in_source[static_cast<std::size_t>(k)]),
                 body.link_d[static_cast<std::size_t>(body.in_link[static_cast<std::size_t>(k)])]);
    std::sort(rows.begin(), rows.end());
    for (Index a : rows) {
      const auto au = static_cast<std::size_t>(a);
      column_rows.push_back(a);
      column_blocks.push_back(block[au]);
      block[au].setZero();
      touched[au] = 0;
    }
    rows.clear();
    column_begin.push_back(static_cast<Index>(column_rows.size()));
  }

  const auto size = static_cast<Eigen::Index>(3 * count);
  Eigen::SparseMatrix<double> K(size, size);
  Eigen::VectorXi per_column(size);
  for (Index c = 0; c < count; ++c)
    for (int k = 0; k < 3; ++k)
      per_column(3 * c + k) =
          3 * (column_begin[static_cast<std::size_t>(c) + 1] - column_begin[static_cast<std::size_t>(c)]);
  K.reserve(per_column);
  for (Index c = 0; c < count; ++c)
    for (int k = 0; k < 3; ++k)
      for (Index e = column_begin[static_cast<std::size_t>(c)];
           e < column_begin[static_cast<std::size_t>(c) + 1]; ++e) {
        const auto eu = static_cast<std::size_t>(e);
        const Index r = dof[static_cast<std::size_t>(column_rows[eu])];
        for (int s = 0; s < 3; ++s) K.insert(3 * r + s, 3 * c + k) = column_blocks[eu](s, k);
      }
  K.makeCompressed();
  return K;
}

}  // namespace pliant::meshless

// Dense packed and hierarchical surface Green's blocks (see surface_block.hpp).
#include "pliant/models/green/surface_block.hpp"

namespace pliant::green {

Mat3 PackedSurfaceBlock::node_block(Index i, Index j) const {
  const bool lower = i >= j;
  const std::size_t a = static_cast<std::size_t>(lower ? i : j);
  const std::size_t b = static_cast<std::size_t>(lower ? j : i);
  const float* p = values_ + 9 * (a * (a + 1) / 2 + b);
  Mat3 m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m(r, c) = p[3 * r + c];
  return lower ? m : Mat3(m.transpose());
}

// u += G(:, j) v, reading the packed lower triangle: for i < j the stored block is G(j, i) = G(i, j)ᵀ
// (row j of the packing, contiguous); for i ≥ j it is G(i, j) itself (column j, stride 9(i+1)).
void PackedSurfaceBlock::add_column(Index j, const Vec3& v, double* u) const {
  const float v0 = static_cast<float>(v[0]), v1 = static_cast<float>(v[1]), v2 = static_cast<float>(v[2]);
  const std::size_t jj = static_cast<std::size_t>(j);
  const float* row = values_ + 9 * (jj * (jj + 1) / 2);
  for (std::size_t i = 0; i < jj; ++i) {
    const float* p = row + 9 * i;
    u[3 * i + 0] += p[0] * v0 + p[3] * v1 + p[6] * v2;
    u[3 * i + 1] += p[1] * v0 + p[4] * v1 + p[7] * v2;
    u[3 * i + 2] += p[2] * v0 + p[5] * v1 + p[8] * v2;
  }
  const std::size_t ns = static_cast<std::size_t>(ns_);
  for (std::size_t i = jj; i < ns; ++i) {
    const float* p = values_ + 9 * (i * (i + 1) / 2 + jj);
    u[3 * i + 0] += p[0] * v0 + p[1] * v1 + p[2] * v2;
    u[3 * i + 1] += p[3] * v0 + p[4] * v1 + p[5] * v2;
    u[3 * i + 2] += p[6] * v0 + p[7] * v1 + p[8] * v2;
  }
}

void PackedSurfaceBlock::node_columns(Index j, double* out) const {
  const std::size_t n3 = 3 * static_cast<std::size_t>(ns_);
  for (Index i = 0; i < ns_; ++i) {
    const Mat3 g = node_block(i, j);
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        out[static_cast<std::size_t>(c) * n3 + 3 * static_cast<std::size_t>(i) +
            static_cast<std::size_t>(r)] = g(r, c);
  }
}

std::size_t PackedSurfaceBlock::stored_bytes() const {
  const std::size_t ns = static_cast<std::size_t>(ns_);
  return 4 * 9 * (ns * (ns + 1) / 2);
}

Mat3 CompressedSurfaceBlock::node_block(Index i, Index j) const {
  Mat3 m;
  h_.point_block(i, j, m.data());
  return m;
}

void CompressedSurfaceBlock::add_column(Index j, const Vec3& v, double* u) const {
  h_.add_columns(j, v.data(), u);
}

void CompressedSurfaceBlock::node_columns(Index j, double* out) const { h_.columns(j, out); }

}  // namespace pliant::green

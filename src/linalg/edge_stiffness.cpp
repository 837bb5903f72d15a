// Nikitina et al.'s (2003) edge-based block store of K: its products.
#include "pliant/linalg/edge_stiffness.hpp"

namespace pliant::linalg {

namespace {

// The product in Nikitina et al.'s order, y(i) += scale · (K u)_i: node blocks first, then both blocks of
// each edge. `u(i)` yields node i's 3-vector of the operand, `y(i)` a writable view of node i's output.
template <class In, class Out>
void add_edge_product(const EdgeStiffness& S, double scale, In u, Out y) {
  for (Index i = 0; i < S.node_count; ++i) {
    const Vec3 k = S.diagonal[i] * u(i);
    y(i) += scale * k;
  }
  for (std::size_t e = 0; e < S.edges.size(); ++e) {
    const Index i = S.edges[e][0], j = S.edges[e][1];
    const Mat3& Kij = S.off_diagonal[e];
    const Vec3 kj = Kij * u(j);
    y(i) += scale * kj;
    const Vec3 ki = Kij.transpose() * u(i);
    y(j) += scale * ki;
  }
}

}  // namespace

void EdgeStiffness::multiply(const Eigen::VectorXd& u, Eigen::VectorXd& g) const {
  g.setZero(3 * static_cast<Eigen::Index>(node_count));
  add_edge_product(
      *this, 1.0, [&](Index i) { return u.segment<3>(3 * i); }, [&](Index i) { return g.segment<3>(3 * i); });
}

void EdgeStiffness::add_product(std::span<const Vec3> u, double scale, std::span<Vec3> y,
                                std::span<const Vec3> u0) const {
  auto out = [&](Index i) -> Vec3& { return y[i]; };
  if (u0.empty())
    add_edge_product(
        *this, scale, [&](Index i) -> const Vec3& { return u[i]; }, out);
  else
    add_edge_product(
        *this, scale, [&](Index i) { return Vec3(u[i] - u0[i]); }, out);
}

std::size_t EdgeStiffness::memory_bytes() const {
  return diagonal.size() * sizeof(Mat3) + off_diagonal.size() * sizeof(Mat3) + edges.size() * sizeof(Edge);
}

}  // namespace pliant::linalg

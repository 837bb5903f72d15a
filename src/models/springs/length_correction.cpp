// Provot 1995 length correction and Wagner 2003 sorted length correction (see the header).
#include "pliant/models/springs/length_correction.hpp"

#include <algorithm>

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

Index provot_pass(SpringMesh& mesh, double factor) {
  Index corrected = 0;
  for (std::size_t s = 0; s < mesh.spring_nodes.size(); ++s) {
    const auto [a, b] = mesh.spring_nodes[s];
    const bool fa = mesh.fixed(a), fb = mesh.fixed(b);
    if (fa && fb) continue;
    Vec3& xa = mesh.position[at(a)];
    Vec3& xb = mesh.position[at(b)];
    const Vec3 d = xb - xa;
    const double l = d.norm();
    const double excess = l - mesh.max_length[s];
    if (!(excess > 0.0)) continue;
    const Vec3 shift = (factor * excess / l) * d;  // total shortening along the spring
    if (fa) {
      xb -= shift;
    } else if (fb) {
      xa += shift;
    } else {
      xa += 0.5 * shift;
      xb -= 0.5 * shift;
    }
    ++corrected;
  }
  return corrected;
}

Index SortedLengthCorrection::pass(SpringMesh& mesh, const Vec3& interaction_point) {
  const std::size_t e = mesh.spring_nodes.size(), n = mesh.position.size();
  if (node_stamp_.size() != n || pass_ == UINT32_MAX) {
    node_stamp_.assign(n, 0);
    pass_ = 0;
  }
  ++pass_;
  order_.resize(e);  // capacity kept between passes
  for (std::size_t s = 0; s < e; ++s) {
    const auto [a, b] = mesh.spring_nodes[s];
    const Vec3 mid = 0.5 * (mesh.position[at(a)] + mesh.position[at(b)]);
    order_[s] = {(mid - interaction_point).squaredNorm(), static_cast<Index>(s)};
  }
  std::sort(order_.begin(), order_.end());
  auto pinned = [&](Index v) { return mesh.fixed(v) || node_stamp_[at(v)] == pass_; };
  Index corrected = 0;
  for (const auto& [key, s] : order_) {
    const auto [a, b] = mesh.spring_nodes[at(s)];
    Vec3& xa = mesh.position[at(a)];
    Vec3& xb = mesh.position[at(b)];
    const Vec3 d = xb - xa;
    const double l = d.norm();
    const double excess = l - mesh.max_length[at(s)];
    if (!(excess > 0.0)) continue;
    const bool pa = pinned(a), pb = pinned(b);
    if (pa && pb) continue;
    const Vec3 shift = (excess / l) * d;
    if (pa) {
      xb -= shift;
    } else if (pb) {
      xa += shift;
    } else {
      xa += 0.5 * shift;
      xb -= 0.5 * shift;
    }
    node_stamp_[at(a)] = node_stamp_[at(b)] = pass_;
    ++corrected;
  }
  return corrected;
}

}  // namespace pliant::springs

// Enhanced ChainMail (Schill, Gibson, Bender, Männer 1998) on unstructured spring meshes.
#include "pliant/models/springs/chainmail.hpp"

#include <algorithm>

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

double ChainMail::bound(const SpringMesh& mesh, Index s) const {
  const double l0 = mesh.rest_length[at(s)];
  return def_.slack > 0.0 ? def_.slack * l0 : mesh.max_length[at(s)] - l0;
}

ChainMailStats ChainMail::pass(SpringMesh& mesh, std::span<const Index> interaction_nodes) {
  const std::size_t n = mesh.position.size();
  if (node_stamp_.size() != n || pass_ == UINT32_MAX) {
    node_stamp_.assign(n, 0);
    pass_ = 0;
    heap_.reserve(n * static_cast<std::size_t>(def_.max_moves_per_node + 1));
  }
  ++pass_;
  heap_.clear();
  for (Index v : interaction_nodes) {
    if (v < 0 || at(v) >= n) continue;  // stale index after tearing renumbered nodes: ignored
    node_stamp_[at(v)] = pass_;
    heap_.push_back({1e300, v});
  }
  std::make_heap(heap_.begin(), heap_.end());
  ChainMailStats stats;
  const Index cap =
      static_cast<Index>(std::max<std::size_t>(1, n) * static_cast<std::size_t>(def_.max_moves_per_node));
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end());
    const Index sponsor = heap_.back().node;
    heap_.pop_back();
    const Vec3 xs = mesh.position[at(sponsor)];
    const Vec3 rs = mesh.rest_position[at(sponsor)];
    for (Index s : mesh.node_springs.of(sponsor)) {
      const Index m = mesh.other_end(s, sponsor);
      if (mesh.fixed(m) || node_stamp_[at(m)] == pass_) continue;
      const double delta = bound(mesh, s);
      const Vec3 centre = xs + (mesh.rest_position[at(m)] - rs);
      Vec3& xm = mesh.position[at(m)];
      const Vec3 clamped = xm.array().max(centre.array() - delta).min(centre.array() + delta).matrix();
      const double moved = (clamped - xm).cwiseAbs().maxCoeff();
      if (!(moved > 1e-12 * delta)) continue;
      if (stats.moves >= cap) {
        stats.capped = true;
        heap_.clear();
        break;
      }
      xm = clamped;
      ++stats.moves;
      heap_.push_back({moved, m});
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
  return stats;
}

double chainmail_max_violation(const SpringMesh& mesh, const ChainMail& chainmail) {
  double worst = 0.0;
  for (Index s = 0; s < mesh.spring_count(); ++s) {
    const auto [a, b] = mesh.spring_nodes[at(s)];
    const Vec3 off = (mesh.position[at(b)] - mesh.position[at(a)]) -
                     (mesh.rest_position[at(b)] - mesh.rest_position[at(a)]);
    worst = std::max(worst, off.cwiseAbs().maxCoeff() - chainmail.bound(mesh, s));
  }
  return worst;
}

}  // namespace pliant::springs

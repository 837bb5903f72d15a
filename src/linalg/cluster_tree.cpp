// Geometric bisection cluster tree (see cluster_tree.hpp).
#include "pliant/linalg/cluster_tree.hpp"

#include <algorithm>
#include <numeric>

namespace pliant::linalg {

namespace {

struct Builder {
  std::span<const Vec3> points;
  Index leaf_size;
  std::vector<Index>& order;
  std::vector<Cluster>& clusters;
  std::vector<Vec3>& lo;
  std::vector<Vec3>& hi;

  Index make(Index begin, Index end) {
    const Index id = static_cast<Index>(clusters.size());
    Cluster c;
    c.begin = begin;
    c.end = end;
    clusters.push_back(c);
    Vec3 a = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 b = -a;
    for (Index k = begin; k < end; ++k) {
      const Vec3& x = points[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
      a = a.cwiseMin(x);
      b = b.cwiseMax(x);
    }
    lo.push_back(a);
    hi.push_back(b);
    if (end - begin <= leaf_size) return id;
    int axis = 0;
    (b - a).maxCoeff(&axis);
    const Index mid = begin + (end - begin) / 2;
    // Median split; ties broken by index so the tree does not depend on the sort implementation.
    auto first = order.begin() + begin;
    std::nth_element(first, order.begin() + mid, order.begin() + end, [&](Index p, Index q) {
      const double xp = points[static_cast<std::size_t>(p)][axis];
      const double xq = points[static_cast<std::size_t>(q)][axis];
      return xp < xq || (xp == xq && p < q);
    });
    const Index c0 = make(begin, mid);
    const Index c1 = make(mid, end);
    clusters[static_cast<std::size_t>(id)].child[0] = c0;
    clusters[static_cast<std::size_t>(id)].child[1] = c1;
    return id;
  }
};

}  // namespace

ClusterTree ClusterTree::build(std::span<const Vec3> points, Index leaf_size) {
  ClusterTree t;
  const Index n = static_cast<Index>(points.size());
  t.order_.resize(points.size());
  std::iota(t.order_.begin(), t.order_.end(), 0);
  Builder b{points, std::max<Index>(leaf_size, 1), t.order_, t.clusters_, t.lo_, t.hi_};
  if (n > 0) b.make(0, n);
  t.position_.resize(points.size());
  for (Index k = 0; k < n; ++k)
    t.position_[static_cast<std::size_t>(t.order_[static_cast<std::size_t>(k)])] = k;
  return t;
}

ClusterTree ClusterTree::from_parts(std::vector<Index> order, std::vector<Cluster> clusters) {
  ClusterTree t;
  t.order_ = std::move(order);
  t.clusters_ = std::move(clusters);
  t.position_.assign(t.order_.size(), 0);
  for (std::size_t k = 0; k < t.order_.size(); ++k)
    t.position_[static_cast<std::size_t>(t.order_[k])] = static_cast<Index>(k);
  return t;
}

bool ClusterTree::admissible(Index t, Index s, double eta) const {
  const std::size_t a = static_cast<std::size_t>(t), b = static_cast<std::size_t>(s);
  const double diam = std::min((hi_[a] - lo_[a]).norm(), (hi_[b] - lo_[b]).norm());
  const Vec3 gap = (lo_[a] - hi_[b]).cwiseMax(lo_[b] - hi_[a]).cwiseMax(0.0);
  return eta * gap.norm() >= diam && gap.norm() > 0.0;
}

}  // namespace pliant::linalg

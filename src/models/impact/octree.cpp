#include "pliant/models/impact/octree.hpp"

#include "pliant/models/impact/triangle_box.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::impact {

Octree::Octree(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles, Options options)
    : options_(options) {
  // Node -> triangles, for refresh.
  node_tri_start_.assign(positions.size() + 1, 0);
  for (const Tri& t : triangles)
    for (int k = 0; k < 3; ++k)
      if (t[k] >= 0 && t[k] < static_cast<Index>(positions.size())) ++node_tri_start_[t[k] + 1];
  for (std::size_t n = 0; n < positions.size(); ++n) node_tri_start_[n + 1] += node_tri_start_[n];
  node_tris_.resize(node_tri_start_.back());
  std::vector<Index> fill(node_tri_start_.begin(), node_tri_start_.end() - 1);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      if (triangles[t][k] >= 0 && triangles[t][k] < static_cast<Index>(positions.size()))
        node_tris_[fill[triangles[t][k]]++] = static_cast<Index>(t);
  stamp_.assign(triangles.size(), 0);
  int d = options.depth;
  if (d <= 0) {
    // The smallest depth (at most 7) whose occupied leaves hold about 32 triangles each: a flat
    // mesh occupies 4^d leaves, a volume-filling one 8^d.
    const Vec3 e = bounding_box(positions).extent();
    const double side = std::max(e.maxCoeff(), 1e-300);
    d = 1;
    for (; d < 7; ++d) {
      const double per_side = std::pow(2.0, d);
      double occupied = 1;
      for (int k = 0; k < 3; ++k) occupied *= std::clamp(std::ceil(per_side * e[k] / side), 1.0, per_side);
      if (static_cast<double>(triangles.size()) <= 32.0 * occupied) break;
    }
  }
  depth_ = std::clamp(d, 1, 8);
  side_ = 1 << depth_;
  build(positions, triangles);
}

void Octree::build(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles) {
  const Aabb box = bounding_box(positions);
  const double extent = box.empty() ? 0.0 : box.extent().maxCoeff();
  size_ = std::max(extent, 1e-6) * (1.0 + options_.margin);
  centre_ = box.empty() ? Vec3::Zero() : box.centre();
  origin_ = centre_ - Vec3::Constant(0.5 * size_);
  leaf_size_ = size_ / side_;
  leaves_.assign(static_cast<std::size_t>(side_) * side_ * side_, Leaf{});
  counts_.assign(depth_ + 1, {});
  for (int k = 0; k <= depth_; ++k) counts_[k].assign(std::size_t{1} << (3 * k), 0);
  node_leaf_.resize(positions.size());
  for (std::size_t n = 0; n < positions.size(); ++n) {
    node_leaf_[n] = leaf_of(positions[n]);
    leaves_[node_leaf_[n]].nodes.push_back(static_cast<Index>(n));
  }
  tri_cells_.assign(triangles.size(), CellBox{1, 1, 1, 0, 0, 0});
  for (std::size_t t = 0; t < triangles.size(); ++t)
    insert_triangle(positions, triangles[t], static_cast<Index>(t));
}

std::array<int, 3> Octree::cell_of(const Vec3& p) const {
  std::array<int, 3> c{0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const double x = std::floor((p[k] - origin_[k]) / leaf_size_);
    c[k] = std::isfinite(x) ? static_cast<int>(std::clamp(x, 0.0, static_cast<double>(side_ - 1))) : 0;
  }
  return c;
}

Index Octree::leaf_of(const Vec3& p) const {
  const auto c = cell_of(p);
  return leaf_index(c[0], c[1], c[2]);
}

Aabb Octree::leaf_box(Index leaf) const {
  const int i = leaf % side_, j = (leaf / side_) % side_, l = leaf / (side_ * side_);
  const Vec3 lo = origin_ + leaf_size_ * Vec3(i, j, l);
  return {lo, lo + Vec3::Constant(leaf_size_)};
}

void Octree::count(Index leaf, int delta) {
  const int i = leaf % side_, j = (leaf / side_) % side_, l = leaf / (side_ * side_);
  for (int k = depth_; k >= 0; --k) {
    const int s = depth_ - k, side = 1 << k;
    counts_[k][(static_cast<std::size_t>(l >> s) * side + (j >> s)) * side + (i >> s)] += delta;
  }
}

bool Octree::insert_triangle(const std::vector<Vec3>& positions, const Tri& tri, Index t) {
  const auto n = static_cast<Index>(positions.size());
  if (tri[0] < 0 || tri[1] < 0 || tri[2] < 0 || tri[0] >= n || tri[1] >= n || tri[2] >= n) return true;
  const Vec3 &a = positions[tri[0]], &b = positions[tri[1]], &c = positions[tri[2]];
  if (!a.allFinite() || !b.allFinite() || !c.allFinite()) return true;
  const Vec3 lo = a.cwiseMin(b).cwiseMin(c), hi = a.cwiseMax(b).cwiseMax(c);
  const Vec3 root_hi = origin_ + Vec3::Constant(size_);
  if ((lo.array() < origin_.array()).any() || (hi.array() > root_hi.array()).any()) return false;
  // A hair wider than the box so a triangle touching a leaf face reaches the SAT test of both leaves.
  const double eps = 1e-9 * leaf_size_;
  const auto c0 = cell_of(lo - Vec3::Constant(eps));
  const auto c1 = cell_of(hi + Vec3::Constant(eps));
  tri_cells_[t] = {static_cast<std::int16_t>(c0[0]), static_cast<std::int16_t>(c0[1]),
                   static_cast<std::int16_t>(c0[2]), static_cast<std::int16_t>(c1[0]),
                   static_cast<std::int16_t>(c1[1]), static_cast<std::int16_t>(c1[2])};
  const Vec3 half = Vec3::Constant(0.5 * leaf_size_);
  for (int l = c0[2]; l <= c1[2]; ++l)
    for (int j = c0[1]; j <= c1[1]; ++j)
      for (int i = c0[0]; i <= c1[0]; ++i) {
        const Vec3 centre = origin_ + leaf_size_ * Vec3(i + 0.5, j + 0.5, l + 0.5);
        if (!triangle_overlaps_box(a, b, c, centre, half)) continue;
        const Index leaf = leaf_index(i, j, l);
        leaves_[leaf].triangles.push_back(t);
        count(leaf, +1);
      }
  return true;
}

void Octree::remove_triangle(Index t) {
  const CellBox& cb = tri_cells_[t];
  for (int l = cb[2]; l <= cb[5]; ++l)
    for (int j = cb[1]; j <= cb[4]; ++j)
      for (int i = cb[0]; i <= cb[3]; ++i) {
        const Index leaf = leaf_index(i, j, l);
        auto& v = leaves_[leaf].triangles;
        const auto it = std::find(v.begin(), v.end(), t);
        if (it == v.end()) continue;
        *it = v.back();
        v.pop_back();
        count(leaf, -1);
      }
  tri_cells_[t] = {1, 1, 1, 0, 0, 0};
}

void Octree::refresh(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles,
                     std::span<const Index> moved) {
  if (leaves_.empty()) return;
  if (++stamp_value_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    stamp_value_ = 1;
  }
  scratch_.clear();
  for (Index n : moved) {
    const Index leaf = leaf_of(positions[n]);
    if (leaf != node_leaf_[n]) {
      auto& v = leaves_[node_leaf_[n]].nodes;
      const auto it = std::find(v.begin(), v.end(), n);
      if (it != v.end()) {
        *it = v.back();
        v.pop_back();
      }
      leaves_[leaf].nodes.push_back(n);
      node_leaf_[n] = leaf;
    }
    for (Index k = node_tri_start_[n]; k < node_tri_start_[n + 1]; ++k) {
      const Index t = node_tris_[k];
      if (stamp_[t] == stamp_value_) continue;
      stamp_[t] = stamp_value_;
      scratch_.push_back(t);
    }
  }
  for (Index t : scratch_) {
    remove_triangle(t);
    if (!insert_triangle(positions, triangles[t], t)) {
      ++rebuilds_;
      build(positions, triangles);
      return;
    }
  }
}

void Octree::raycast_node(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles,
                          const Ray& ray, const Vec3& inv, int level, int i, int j, int l,
                          std::optional<RayHit>& best, double& t_max) const {
  const int side = 1 << level;
  if (counts_[level][(static_cast<std::size_t>(l) * side + j) * side + i] == 0) return;
  if (level == depth_) {
    for (Index t : leaves_[leaf_index(i, j, l)].triangles) {
      const Tri& tri = triangles[t];
      if (auto h =
              intersect_ray_triangle(ray, positions[tri[0]], positions[tri[1]], positions[tri[2]], t_max)) {
        if (!best || h->t < best->t || (h->t == best->t && t < best->triangle)) {
          best = h;
          best->triangle = t;
          t_max = h->t;
        }
      }
    }
    return;
  }
  // Children in the order the ray enters them, so a near hit prunes the far ones.
  const double child = size_ / (2 * side);
  std::array<std::pair<double, int>, 8> order;
  int count = 0;
  for (int c = 0; c < 8; ++c) {
    const int ci = 2 * i + (c & 1), cj = 2 * j + ((c >> 1) & 1), cl = 2 * l + (c >> 2);
    const Vec3 lo = origin_ + child * Vec3(ci, cj, cl);
    const Aabb box{lo, lo + Vec3::Constant(child)};
    double enter = 0;
    if (!box.intersect_ray(ray.origin, ray.direction, inv, 0.0, t_max, enter)) continue;
    int k = count++;  // insertion sort by entry parameter
    for (; k > 0 && order[k - 1].first > enter; --k) order[k] = order[k - 1];
    order[k] = {enter, c};
  }
  for (int k = 0; k < count; ++k) {
    if (order[k].first > t_max) break;
    const int c = order[k].second;
    raycast_node(positions, triangles, ray, inv, level + 1, 2 * i + (c & 1), 2 * j + ((c >> 1) & 1),
                 2 * l + (c >> 2), best, t_max);
  }
}

std::optional<RayHit> Octree::raycast(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles,
                                      const Ray& ray, double t_max) const {
  std::optional<RayHit> best;
  if (leaves_.empty()) return best;
  const Vec3 inv = ray.direction.cwiseInverse();
  const Aabb root{origin_, origin_ + Vec3::Constant(size_)};
  double enter = 0;
  if (!root.intersect_ray(ray.origin, ray.direction, inv, 0.0, t_max, enter)) return best;
  raycast_node(positions, triangles, ray, inv, 0, 0, 0, 0, best, t_max);
  return best;
}

}  // namespace pliant::impact

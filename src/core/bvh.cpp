// Triangle BVH: binned SAH build (Wald 2007), bottom-up refit, stack-based traversal.
#include "pliant/core/bvh.hpp"

#include "pliant/core/geometry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>

namespace pliant {
namespace {

constexpr int kBins = 16;
constexpr Index kLeafSize = 4;
constexpr int kSahDepthLimit = 48;

Aabb triangle_box(const std::vector<Vec3>& x, const Tri& t) {
  Aabb box;
  for (Index v : t) {
    if (x[static_cast<std::size_t>(v)].allFinite()) box.extend(x[static_cast<std::size_t>(v)]);
  }
  return box;
}

}  // namespace

void TriangleBvh::build(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles) {
  positions_ = positions;
  parent_.clear();
  node_leaf_start_.clear();
  node_leaves_.clear();
  nodes_.clear();
  depth_ = 0;
  // Triangles naming nodes that do not exist are left out of the tree (validate() reports them).
  triangle_id_.clear();
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    bool valid = true;
    for (Index v : triangles[i]) valid = valid && v >= 0 && static_cast<std::size_t>(v) < positions.size();
    if (valid) triangle_id_.push_back(static_cast<Index>(i));
  }
  const Index n = static_cast<Index>(triangle_id_.size());
  triangles_.clear();
  if (n == 0) return;

  std::vector<Aabb> boxes(triangles.size());
  std::vector<Vec3> centroids(triangles.size());
  for (Index i : triangle_id_) {
    boxes[i] = triangle_box(positions, triangles[i]);
    centroids[i] = boxes[i].empty() ? Vec3::Zero() : boxes[i].centre();
  }

  struct Task {
    Index node, first, count;
    int depth;
  };
  nodes_.reserve(2 * triangles.size());
  nodes_.push_back({});
  std::vector<Task> stack = {{0, 0, n, 0}};
  while (!stack.empty()) {
    const Task task = stack.back();
    stack.pop_back();
    depth_ = std::max(depth_, task.depth);
    Index* ids = triangle_id_.data() + task.first;
    Aabb box, centre_box;
    for (Index i = 0; i < task.count; ++i) {
      box.merge(boxes[ids[i]]);
      centre_box.extend(centroids[ids[i]]);
    }
    Node& node = nodes_[task.node];
    node.box = box;
    node.first = task.first;
    node.count = task.count;
    if (task.count <= kLeafSize) continue;

    const Vec3 extent = centre_box.extent();
    int axis = 0;
    extent.maxCoeff(&axis);
    if (!(extent[axis] > 0)) continue;  // all centroids coincide: no split separates them

    Index split = task.count / 2;  // object median, used below depth kSahDepthLimit or if SAH declines
    const double lo = centre_box.min[axis];
    const double scale = kBins / extent[axis];
    const auto bin_of = [&](Index id) {
      return std::min(kBins - 1, static_cast<int>((centroids[id][axis] - lo) * scale));
    };
    bool use_sah = task.depth < kSahDepthLimit && std::isfinite(scale);
    if (use_sah) {
      // Binned SAH: cost of a split after bin b ∝ area(left)·#left + area(right)·#right.
      std::array<Aabb, kBins> bin_box;
      std::array<Index, kBins> bin_count{};
      for (Index i = 0; i < task.count; ++i) {
        const int b = bin_of(ids[i]);
        bin_box[b].merge(boxes[ids[i]]);
        ++bin_count[b];
      }
      std::array<double, kBins> right_cost{};
      Aabb acc;
      Index count = 0;
      for (int b = kBins - 1; b > 0; --b) {
        acc.merge(bin_box[b]);
        count += bin_count[b];
        right_cost[b] = acc.surface_area() * count;
      }
      double best = std::numeric_limits<double>::infinity();
      int best_bin = -1;
      acc = Aabb{};
      count = 0;
      for (int b = 0; b < kBins - 1; ++b) {
        acc.merge(bin_box[b]);
        count += bin_count[b];
        const double cost = acc.surface_area() * count + right_cost[b + 1];
        if (count > 0 && count < task.count && cost < best) best = cost, best_bin = b;
      }
      // SAH with a traversal cost of one triangle test: splitting costs 1 + best/area(box), a leaf
      // costs count. Small nodes become leaves when no split is cheaper; larger ones always split.
      if (best_bin < 0) {
        use_sah = false;
      } else if (task.count <= 2 * kLeafSize && best >= box.surface_area() * (task.count - 1)) {
        continue;
      } else {
        Index* mid = std::partition(ids, ids + task.count, [&](Index id) { return bin_of(id) <= best_bin; });
        split = static_cast<Index>(mid - ids);
      }
    }
    if (!use_sah) {
      std::nth_element(ids, ids + split, ids + task.count,
                       [&](Index a, Index b) { return centroids[a][axis] < centroids[b][axis]; });
    }
    const Index left = static_cast<Index>(nodes_.size());
    nodes_.push_back({});
    nodes_.push_back({});
    Node& parent = nodes_[task.node];  // push_back may have moved the array
    parent.first = left;
    parent.count = 0;
    stack.push_back({left + 1, task.first + split, task.count - split, task.depth + 1});
    stack.push_back({left, task.first, split, task.depth + 1});
  }
  triangles_.resize(triangle_id_.size());
  for (Index i = 0; i < n; ++i) triangles_[i] = triangles[triangle_id_[i]];
}

void TriangleBvh::refit(const std::vector<Vec3>& positions) {
  if (positions.size() != positions_.size()) {
    // Not the node set it was built for: rebuild rather than read past the end.
    std::vector<Tri> original;
    Index max_id = -1;
    for (Index id : triangle_id_) max_id = std::max(max_id, id);
    original.assign(static_cast<std::size_t>(max_id + 1), Tri{-1, -1, -1});
    for (std::size_t i = 0; i < triangles_.size(); ++i) original[triangle_id_[i]] = triangles_[i];
    build(positions, original);
    return;
  }
  positions_ = positions;  // same size: copies into the existing buffer
  for (std::size_t k = nodes_.size(); k-- > 0;) {
    Node& node = nodes_[k];
    if (node.count > 0) {
      node.box = Aabb{};
      for (Index i = node.first; i < node.first + node.count; ++i)
        node.box.merge(triangle_box(positions_, triangles_[i]));
    } else {
      node.box = nodes_[node.first].box;
      node.box.merge(nodes_[node.first + 1].box);
    }
  }
}

void TriangleBvh::refit_nodes(const std::vector<Vec3>& positions, std::span<const Index> moved) {
  if (nodes_.empty()) return;
  if (positions.size() != positions_.size()) {
    refit(positions);
    return;
  }
  if (parent_.size() != nodes_.size()) {
    parent_.assign(nodes_.size(), -1);
    node_leaf_start_.assign(positions_.size() + 1, 0);
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      const Node& node = nodes_[k];
      if (node.count == 0) {
        parent_[static_cast<std::size_t>(node.first)] = static_cast<Index>(k);
        parent_[static_cast<std::size_t>(node.first) + 1] = static_cast<Index>(k);
      } else {
        for (Index i = node.first; i < node.first + node.count; ++i)
          for (Index v : triangles_[static_cast<std::size_t>(i)])
            ++node_leaf_start_[static_cast<std::size_t>(v) + 1];
      }
    }
    for (std::size_t n = 0; n < positions_.size(); ++n) node_leaf_start_[n + 1] += node_leaf_start_[n];
    node_leaves_.resize(static_cast<std::size_t>(node_leaf_start_.back()));
    std::vector<Index> fill(node_leaf_start_.begin(), node_leaf_start_.end() - 1);
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      const Node& node = nodes_[k];
      for (Index i = node.first; node.count > 0 && i < node.first + node.count; ++i)
        for (Index v : triangles_[static_cast<std::size_t>(i)])
          node_leaves_[static_cast<std::size_t>(fill[static_cast<std::size_t>(v)]++)] = static_cast<Index>(k);
    }
    dirty_.assign(nodes_.size(), 0);
  }
  dirty_list_.clear();
  for (Index n : moved) {
    if (n < 0 || static_cast<std::size_t>(n) >= positions_.size()) continue;
    positions_[static_cast<std::size_t>(n)] = positions[static_cast<std::size_t>(n)];
    for (Index k = node_leaf_start_[static_cast<std::size_t>(n)];
         k < node_leaf_start_[static_cast<std::size_t>(n) + 1]; ++k) {
      // Mark the leaf and its ancestors up to the first one already marked.
      for (Index a = node_leaves_[static_cast<std::size_t>(k)];
           a >= 0 && !dirty_[static_cast<std::size_t>(a)]; a = parent_[static_cast<std::size_t>(a)]) {
        dirty_[static_cast<std::size_t>(a)] = 1;
        dirty_list_.push_back(a);
      }
    }
  }
  // Children come after their parents: descending indices refit bottom-up.
  std::sort(dirty_list_.begin(), dirty_list_.end(), std::greater<>());
  for (Index k : dirty_list_) {
    Node& node = nodes_[static_cast<std::size_t>(k)];
    dirty_[static_cast<std::size_t>(k)] = 0;
    if (node.count > 0) {
      node.box = Aabb{};
      for (Index i = node.first; i < node.first + node.count; ++i)
        node.box.merge(triangle_box(positions_, triangles_[static_cast<std::size_t>(i)]));
    } else {
      node.box = nodes_[static_cast<std::size_t>(node.first)].box;
      node.box.merge(nodes_[static_cast<std::size_t>(node.first) + 1].box);
    }
  }
}

std::optional<RayHit> TriangleBvh::raycast(const Ray& ray, double t_max) const {
  std::optional<RayHit> best;
  if (nodes_.empty()) return best;
  const Vec3 inv = ray.direction.cwiseInverse();
  double t_enter = 0;
  if (!nodes_[0].box.intersect_ray(ray.origin, ray.direction, inv, 0, t_max, t_enter)) return best;
  // Each pending node with the ray's entry into its box: one entered beyond a hit found meanwhile
  // cannot hold a closer hit and is skipped.
  std::array<std::pair<Index, double>, kMaxDepth + 2> stack;
  int top = 0;
  stack[top++] = {0, t_enter};
  while (top > 0) {
    const auto [id, entry] = stack[--top];
    if (entry > t_max) continue;
    const Node& node = nodes_[id];
    if (node.count > 0) {
      for (Index i = node.first; i < node.first + node.count; ++i) {
        const Tri& t = triangles_[i];
        if (auto hit =
                intersect_ray_triangle(ray, positions_[t[0]], positions_[t[1]], positions_[t[2]], t_max)) {
          hit->triangle = triangle_id_[i];
          t_max = hit->t;
          best = hit;
        }
      }
      continue;
    }
    // Visit the nearer child first: its hits shrink t_max and prune the other.
    double t0 = 0, t1 = 0;
    const bool h0 = nodes_[node.first].box.intersect_ray(ray.origin, ray.direction, inv, 0, t_max, t0);
    const bool h1 = nodes_[node.first + 1].box.intersect_ray(ray.origin, ray.direction, inv, 0, t_max, t1);
    if (h0 && h1) {
      const bool near_first = t0 <= t1;
      stack[top++] = near_first ? std::pair{node.first + 1, t1} : std::pair{node.first, t0};
      stack[top++] = near_first ? std::pair{node.first, t0} : std::pair{node.first + 1, t1};
    } else if (h0) {
      stack[top++] = {node.first, t0};
    } else if (h1) {
      stack[top++] = {node.first + 1, t1};
    }
  }
  return best;
}

Index TriangleBvh::any_hit(const Ray& ray, double t_max) const {
  if (nodes_.empty()) return -1;
  const Vec3 inv = ray.direction.cwiseInverse();
  double t_enter = 0;
  std::array<Index, kMaxDepth + 2> stack;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (!node.box.intersect_ray(ray.origin, ray.direction, inv, 0, t_max, t_enter)) continue;
    if (node.count > 0) {
      for (Index i = node.first; i < node.first + node.count; ++i) {
        const Tri& t = triangles_[i];
        if (intersect_ray_triangle(ray, positions_[t[0]], positions_[t[1]], positions_[t[2]], t_max))
          return triangle_id_[i];
      }
      continue;
    }
    stack[top++] = node.first + 1;
    stack[top++] = node.first;
  }
  return -1;
}

std::vector<Index> TriangleBvh::overlapping(const Aabb& box) const {
  std::vector<Index> result;
  if (nodes_.empty() || box.empty()) return result;
  std::array<Index, kMaxDepth + 2> stack;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (!node.box.overlaps(box)) continue;
    if (node.count > 0) {
      for (Index i = node.first; i < node.first + node.count; ++i) {
        if (triangle_box(positions_, triangles_[i]).overlaps(box)) result.push_back(triangle_id_[i]);
      }
    } else {
      stack[top++] = node.first;
      stack[top++] = node.first + 1;
    }
  }
  std::sort(result.begin(), result.end());
  return result;
}

std::optional<NearestHit> TriangleBvh::nearest(const Vec3& query, double max_distance_squared) const {
  std::optional<NearestHit> best;
  if (nodes_.empty()) return best;
  double limit = max_distance_squared;
  std::array<Index, kMaxDepth + 2> stack;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (node.box.empty() || node.box.squared_distance(query) > limit) continue;
    if (node.count > 0) {
      for (Index i = node.first; i < node.first + node.count; ++i) {
        const Tri& t = triangles_[i];
        double u = 0, v = 0;
        const Vec3 p =
            closest_point_on_triangle(query, positions_[t[0]], positions_[t[1]], positions_[t[2]], u, v);
        const double d2 = (p - query).squaredNorm();
        if (d2 <= limit) {
          limit = d2;
          best = NearestHit{triangle_id_[i], p, d2, u, v};
        }
      }
      continue;
    }
    const Index a = node.first, b = node.first + 1;
    const bool a_first = nodes_[a].box.squared_distance(query) <= nodes_[b].box.squared_distance(query);
    stack[top++] = a_first ? b : a;
    stack[top++] = a_first ? a : b;
  }
  return best;
}

}  // namespace pliant

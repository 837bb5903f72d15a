#include "pliant/models/impact/dent_target.hpp"

#include "pliant/core/aabb.hpp"
#include "pliant/core/bvh.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/models/impact/falloff.hpp"
#include "pliant/models/impact/octree.hpp"
#include "pliant/models/impact/point_grid.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pliant::impact {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Distance from a query to the nearest of a fixed set of points: a k-d tree (Bentley 1975) with
// leaves of at most 8 points split at the median of the longest axis, each node keeping the box of
// its points; a query descends nearer child first and skips every node whose box lies farther than
// the best distance so far (which starts at the query's limit). Exact: the minimum of the same
// squared distances a brute-force scan takes.
class NearestPoint {
 public:
  void build(const std::vector<Vec3>& points) {
    items_.assign(points.begin(), points.end());
    nodes_.clear();
    if (items_.empty()) return;
    build_node(0, static_cast<Index>(items_.size()));
  }
  // Nearest distance below `limit`, or kInf.
  double nearest(const Vec3& q, double limit) const {
    if (nodes_.empty()) return kInf;
    double best = limit * limit;
    Index stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Index id = stack[--top];
      const Node& node = nodes_[id];
      if (!(node.box.squared_distance(q) < best)) continue;
      if (node.right < 0) {
        for (Index k = node.first; k < node.first + node.count; ++k)
          best = std::min(best, (items_[k] - q).squaredNorm());
        continue;
      }
      // Nearer child last, so it is searched first.
      const Index left = id + 1, right = node.right;
      const bool left_nearer = nodes_[left].box.squared_distance(q) <= nodes_[right].box.squared_distance(q);
      stack[top++] = left_nearer ? right : left;
      stack[top++] = left_nearer ? left : right;
    }
    return best < limit * limit ? std::sqrt(best) : kInf;
  }

 private:
  struct Node {
    Aabb box;
    Index first = 0, count = 0;
    Index right = -1;  // -1: a leaf; else the right child (the left child follows its parent)
  };

  // Builds the subtree over items_[first, first + count); returns its node index. Depth is at most
  // log2(count / 8) + 1, so the query's 64-entry stack (one pending sibling per level) suffices.
  Index build_node(Index first, Index count) {
    const auto id = static_cast<Index>(nodes_.size());
    nodes_.push_back({});
    Aabb box;
    for (Index k = first; k < first + count; ++k) box.extend(items_[k]);
    nodes_[id].box = box;
    nodes_[id].first = first;
    nodes_[id].count = count;
    if (count <= 8) return id;
    int axis = 0;
    box.extent().maxCoeff(&axis);
    const Index half = count / 2;
    std::nth_element(items_.begin() + first, items_.begin() + first + half, items_.begin() + first + count,
                     [axis](const Vec3& a, const Vec3& b) { return a[axis] < b[axis]; });
    build_node(first, half);  // id + 1
    const Index right = build_node(first + half, count - half);
    nodes_[id].right = right;
    return id;
  }
  std::vector<Node> nodes_;
  std::vector<Vec3> items_;
};

}  // namespace

struct DentTarget::Impl {
  struct Body {
    Projectile def;
    ProjectileStatus status;
    Dent dent;
    Aabb shape_box;  // local frame
    Octree shape_octree;
    TriangleBvh shape_bvh;
    double speed = 0, deceleration = 0, tau = 0, tau_stop = 0;
  };

  // The rest surface, materials and structures at rest, shared and never written.
  std::shared_ptr<const DentAsset> asset;
  DentThreading threading;
  // The surface and structures the queries read: the asset's until the first dent or edit, then the
  // target's own copies below (copy-on-write, own_surface()). The Impl lives on the heap and never
  // moves, so the pointers into it stay valid.
  const TriMesh* mesh_ = nullptr;
  const Octree* octree_ = nullptr;
  const TriangleBvh* bvh_ = nullptr;
  const PointGrid* grid_ = nullptr;
  bool owned = false;
  TriMesh own_mesh;
  Octree own_octree;
  TriangleBvh own_bvh;
  PointGrid own_grid;
  Aabb bounds;  // the rest bounds grown by every dent (the passing test's neighbourhood)
  std::vector<Body> bodies;
  std::vector<ImpactEvent> events;
  StepStats stats;
  std::vector<Index> moved, candidates, hit_nodes;
  std::vector<std::uint8_t> node_hit;  // per target node: a direct hit of the dent being set up
  std::vector<double> ray_t;
  std::vector<Vec3> ray_point;
  std::vector<Index> ray_tri;
  NearestPoint nearest;

  int threads() const { return threading.threads > 0 ? threading.threads : std::max(1, solver_threads()); }
  ImpactMethod method() const { return asset->method(); }
  const TriMesh& mesh() const { return *mesh_; }
  const Octree& octree() const { return *octree_; }
  const TriangleBvh& bvh() const { return *bvh_; }
  const PointGrid& grid() const { return *grid_; }
  const std::vector<ImpactMaterial>& materials() const { return asset->materials(); }

  void read_asset() {
    mesh_ = &asset->surface();
    octree_ = &asset->octree();
    bvh_ = &asset->bvh();
    grid_ = &asset->grid();
    bounds = asset->bounds();
  }
  // Before the first change of the surface: the target's own copy of the surface and the method's
  // structures (copied, not rebuilt, so that they equal the asset's bit for bit), which it then moves.
  void own_surface() {
    if (owned) return;
    own_mesh = asset->surface();
    switch (method()) {
      case ImpactMethod::brute_force:
        break;
      case ImpactMethod::octree:
        own_octree = asset->octree();
        break;
      case ImpactMethod::bvh_grid:
        own_bvh = asset->bvh();
        own_grid = asset->grid();
        break;
    }
    mesh_ = &own_mesh;
    octree_ = &own_octree;
    bvh_ = &own_bvh;
    grid_ = &own_grid;
    owned = true;
  }

  std::optional<RayHit> cast_target(const Ray& ray, double t_max) const {
    switch (method()) {
      case ImpactMethod::brute_force: {
        std::optional<RayHit> best;
        for (std::size_t t = 0; t < mesh().triangles.size(); ++t) {
          const Tri& tri = mesh().triangles[t];
          if (auto h = intersect_ray_triangle(ray, mesh().positions[tri[0]], mesh().positions[tri[1]],
                                              mesh().positions[tri[2]], t_max)) {
            if (!best || h->t < best->t) {
              best = h;
              best->triangle = static_cast<Index>(t);
            }
          }
        }
        return best;
      }
      case ImpactMethod::octree:
        return octree().raycast(mesh().positions, mesh().triangles, ray, t_max);
      case ImpactMethod::bvh_grid:
        return bvh().raycast(ray, t_max);
    }
    return std::nullopt;
  }

  // The projectile's shape at `offset` against a ray (world frame).
  std::optional<RayHit> cast_shape(const Body& b, const Vec3& offset, const Ray& world, double t_max) const {
    const Ray ray{world.origin - offset, world.direction};
    const TriMesh& s = b.def.shape;
    switch (method()) {
      case ImpactMethod::brute_force: {
        std::optional<RayHit> best;
        for (std::size_t t = 0; t < s.triangles.size(); ++t) {
          const Tri& tri = s.triangles[t];
          if (auto h = intersect_ray_triangle(ray, s.positions[tri[0]], s.positions[tri[1]],
                                              s.positions[tri[2]], t_max))
            if (!best || h->t < best->t) best = h;
        }
        return best;
      }
      case ImpactMethod::octree:
        return b.shape_octree.raycast(s.positions, s.triangles, ray, t_max);
      case ImpactMethod::bvh_grid:
        return b.shape_bvh.raycast(ray, t_max);
    }
    return std::nullopt;
  }

  // Whether a ray (world frame) meets the projectile's shape at `offset` within t_max: an occlusion
  // query that stops at the first hit. `hint` is a shape triangle to try first (neighbouring rays
  // mostly meet the same one; -1: none); it is set to the triangle met. The answer does not depend
  // on the hint.
  bool hits_shape(const Body& b, const Vec3& offset, const Ray& world, double t_max, Index& hint) const {
    const Ray ray{world.origin - offset, world.direction};
    const TriMesh& s = b.def.shape;
    auto meets = [&](const Tri& tri) {
      return intersect_ray_triangle(ray, s.positions[tri[0]], s.positions[tri[1]], s.positions[tri[2]], t_max)
          .has_value();
    };
    if (hint >= 0 && meets(s.triangles[hint])) return true;
    switch (method()) {
      case ImpactMethod::brute_force:
        for (std::size_t t = 0; t < s.triangles.size(); ++t) {
          if (meets(s.triangles[t])) {
            hint = static_cast<Index>(t);
            return true;
          }
        }
        return false;
      case ImpactMethod::octree:
        if (auto h = b.shape_octree.raycast(s.positions, s.triangles, ray, t_max)) {
          hint = h->triangle;
          return true;
        }
        return false;
      case ImpactMethod::bvh_grid: {
        const Index t = b.shape_bvh.any_hit(ray, t_max);
        if (t >= 0) hint = t;
        return t >= 0;
      }
    }
    return false;
  }

  // Target nodes that may lie in `box`, ascending (brute force: all nodes).
  void nodes_near(const Aabb& box, std::vector<Index>& out) const {
    out.clear();
    switch (method()) {
      case ImpactMethod::brute_force:
        for (std::size_t n = 0; n < mesh().positions.size(); ++n) out.push_back(static_cast<Index>(n));
        return;
      case ImpactMethod::octree:
        octree().for_each_node_near(box, [&](Index n) { out.push_back(n); });
        break;
      case ImpactMethod::bvh_grid:
        grid().for_each_near(box, [&](Index n) { out.push_back(n); });
        break;
    }
    std::sort(out.begin(), out.end());
  }

  // Nodes that may start an inverse ray reaching the projectile: those in its swept box (a ray from
  // outside it cannot meet the projectile within the sweep). Brute force tries every node.
  void nodes_inside(const Aabb& swept, std::vector<Index>& out) const {
    const Aabb box = swept.inflated(1e-9 * std::max(1.0, swept.diagonal()));
    nodes_near(box, out);
    if (method() == ImpactMethod::brute_force) return;
    std::erase_if(out, [&](Index n) { return !box.contains(mesh().positions[n]); });
  }

  // After own_surface() moved `nodes`.
  void refresh_structures(std::span<const Index> nodes) {
    for (Index n : nodes) bounds.extend(mesh().positions[n]);  // the passing test's neighbourhood
    switch (method()) {
      case ImpactMethod::brute_force:
        break;
      case ImpactMethod::octree:
        own_octree.refresh(own_mesh.positions, own_mesh.triangles, nodes);
        break;
      case ImpactMethod::bvh_grid:
        own_grid.update(own_mesh.positions, nodes);
        own_bvh.refit_nodes(own_mesh.positions, nodes);  // only the boxes above the moved triangles
        break;
    }
  }

  // Casts `n` rays in parallel: origin(i), direction, against target or shape; keeps t, point, triangle.
  template <class Origin, class Cast>
  void cast_all(Index n, Origin&& origin, const Vec3& direction, double t_max, Cast&& cast) {
    ray_t.assign(n, kInf);
    ray_point.resize(n);
    ray_tri.assign(n, -1);
    const int nt = threads();
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) if (n >= threading.parallel_min)
    for (Index i = 0; i < n; ++i) {
      const Ray ray{origin(i), direction};
      if (auto h = cast(ray, t_max)) {
        ray_t[i] = h->t;
        ray_point[i] = ray.at(h->t);
        ray_tri[i] = h->triangle;
      }
    }
    stats.rays += n;
  }

  Index nearest_node(Index tri, const Vec3& p) const {
    if (tri < 0) return -1;
    Index best = mesh().triangles[tri][0];
    for (int k = 1; k < 3; ++k)
      if ((mesh().positions[mesh().triangles[tri][k]] - p).squaredNorm() <
          (mesh().positions[best] - p).squaredNorm())
        best = mesh().triangles[tri][k];
    return best;
  }

  Vec3 triangle_normal(Index tri, const Vec3& facing) const {
    if (tri < 0) return -facing.normalized();
    const Tri& t = mesh().triangles[tri];
    Vec3 n = (mesh().positions[t[1]] - mesh().positions[t[0]])
                 .cross(mesh().positions[t[2]] - mesh().positions[t[0]]);
    if (n.squaredNorm() == 0.0) return -facing.normalized();
    n.normalize();
    return n.dot(facing) > 0 ? Vec3(-n) : n;
  }

  // Earliest contact of body b moving by `disp` this step: t in [0, 1], contact point, target triangle
  // (-1 for an inverse hit) and target node. Returns t = inf if none.
  struct Contact {
    double t = kInf;
    Vec3 point = Vec3::Zero();
    Index triangle = -1;
    Index node = -1;
  };
  Contact first_contact(Body& b, const Vec3& disp) {
    Contact c;
    const Vec3 pos = b.status.position;
    if (b.def.is_point()) {
      if (auto h = cast_target(Ray{pos, disp}, 1.0)) {
        c = {h->t, pos + h->t * disp, h->triangle, -1};
        ++stats.rays;
      }
      return c;
    }
    const auto& local = b.def.shape.positions;
    cast_all(
        static_cast<Index>(local.size()), [&](Index i) { return Vec3(pos + local[i]); }, disp, 1.0,
        [&](const Ray& r, double tm) { return cast_target(r, tm); });
    for (std::size_t i = 0; i < local.size(); ++i)
      if (ray_t[i] < c.t) c = {ray_t[i], ray_point[i], ray_tri[i], -1};
    Aabb swept{b.shape_box.min + pos, b.shape_box.max + pos};
    swept.merge({swept.min + disp, swept.max + disp});
    nodes_inside(swept, candidates);
    // Only hits up to the earliest vertex hit can be the contact (ties kept: t_max is inclusive).
    cast_all(
        static_cast<Index>(candidates.size()), [&](Index i) { return mesh().positions[candidates[i]]; },
        -disp, std::min(1.0, c.t), [&](const Ray& r, double tm) { return cast_shape(b, pos, r, tm); });
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (ray_t[i] < c.t) c = {ray_t[i], mesh().positions[candidates[i]], -1, candidates[i]};
    return c;
  }

  void begin_contact(Index id, Body& b, const Contact& c, const Vec3& velocity) {
    const double speed = velocity.norm();
    const Vec3 dir = speed > 0 ? Vec3(velocity / speed) : Vec3::UnitZ();
    b.deceleration = b.def.contact_deceleration > 0 ? b.def.contact_deceleration : b.def.acceleration.norm();
    const Index node = c.node >= 0 ? c.node : nearest_node(c.triangle, c.point);
    const ImpactMaterial& mat = materials()[node >= 0 ? node : 0];
    ImpactEvent e;
    e.projectile = id;
    e.node = node;
    e.position = c.point;
    e.normal = triangle_normal(c.triangle, dir);
    e.force = b.def.mass * b.deceleration;
    Dent& dent = b.dent;
    dent = Dent{};
    if (!(b.deceleration > 0) || !(speed > 0) || e.force < mat.min_force) {
      b.status.phase = ProjectilePhase::stopped;
      b.status.velocity = Vec3::Zero();
      events.push_back(e);
      return;
    }
    dent.direction = dir;
    dent.stopping_distance = speed * speed / (2.0 * b.deceleration);
    const double S = dent.stopping_distance;
    b.speed = speed;
    b.tau = 0;
    b.tau_stop = speed / b.deceleration;
    // Direct hits within the stopping distance.
    dent.hits.push_back(c.point);
    if (!b.def.is_point()) {
      const Vec3 pos = b.status.position;
      const auto& local = b.def.shape.positions;
      cast_all(
          static_cast<Index>(local.size()), [&](Index i) { return Vec3(pos + local[i]); }, dir, S,
          [&](const Ray& r, double tm) { return cast_target(r, tm); });
      for (std::size_t i = 0; i < local.size(); ++i)
        if (ray_t[i] < kInf) dent.hits.push_back(ray_point[i]);
      Aabb swept{b.shape_box.min + pos, b.shape_box.max + pos};
      swept.merge({swept.min + S * dir, swept.max + S * dir});
      nodes_inside(swept, candidates);
      // Inverse rays: a node is a hit if its ray meets the projectile within S (any hit will do).
      const auto nc = static_cast<Index>(candidates.size());
      ray_t.assign(nc, kInf);
      const int nt = threads();
#pragma omp parallel num_threads(nt) if (nc >= threading.parallel_min)
      {
        Index hint = -1;  // per thread
#pragma omp for schedule(dynamic, 256)
        for (Index i = 0; i < nc; ++i)
          if (hits_shape(b, pos, Ray{mesh().positions[candidates[i]], -dir}, S, hint)) ray_t[i] = 0.0;
      }
      stats.rays += nc;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (ray_t[i] < kInf) {
          dent.hits.push_back(mesh().positions[candidates[i]]);
          node_hit[candidates[i]] = 1;  // a hit itself: distance 0 below, no search
          hit_nodes.push_back(candidates[i]);
        }
      }
    }
    // Weights of the nodes within φ of a hit: (1 - R)·f(distance to the nearest hit).
    const double phi = mat.falloff_radius;
    nodes_inside(bounding_box(dent.hits).inflated(phi), candidates);
    const bool brute = method() == ImpactMethod::brute_force;
    if (!brute) nearest.build(dent.hits);
    const auto n = static_cast<Index>(candidates.size());
    ray_t.assign(n, 0.0);
    const int nt = threads();
#pragma omp parallel for num_threads(nt) schedule(static) if (n >= threading.parallel_min)
    for (Index i = 0; i < n; ++i) {
      const Vec3& x = mesh().positions[candidates[i]];
      double d = kInf;
      if (brute) {
        for (const Vec3& h : dent.hits) d = std::min(d, (h - x).norm());
      } else if (node_hit[candidates[i]]) {
        d = 0.0;
      } else {
        d = nearest.nearest(x, phi);
      }
      ray_t[i] = (1.0 - materials()[candidates[i]].resistance) * falloff(d, phi, mat.hardness);
    }
    for (Index h : hit_nodes) node_hit[h] = 0;
    hit_nodes.clear();
    for (Index i = 0; i < n; ++i) {
      if (ray_t[i] > 0.0) {
        dent.nodes.push_back(candidates[i]);
        dent.weights.push_back(ray_t[i]);
      }
    }
    double wmax = 0;
    for (double w : dent.weights) wmax = std::max(wmax, w);
    e.depth = wmax * S;
    e.affected_points = static_cast<Index>(dent.nodes.size());
    events.push_back(e);
    b.status.phase = ProjectilePhase::denting;
    b.status.velocity = velocity;
  }

  void step_flying(Index id, Body& b, double dt) {
    const Vec3 v0 = b.status.velocity;
    const Vec3& a = b.def.acceleration;
    const Vec3 disp = v0 * dt + 0.5 * dt * dt * a;
    if (disp.squaredNorm() == 0.0) {
      b.status.velocity = v0 + dt * a;
      return;
    }
    const Contact c = first_contact(b, disp);
    if (c.t <= 1.0) {
      // The rays run along the step's chord `disp`; the contact time tc is when the projectile has
      // come c.t of the way along it: (v0·u)·tc + (a·u)·tc²/2 = c.t·|disp| with u = disp/|disp|
      // (exact for motion along a line, as under an acceleration parallel to the velocity).
      const double length = disp.norm();
      const Vec3 u = disp / length;
      const double s = c.t * length, B = v0.dot(u), A = 0.5 * a.dot(u);
      const double root = B * B + 4.0 * A * s;
      double tc = c.t * dt;
      if (root >= 0.0 && B + std::sqrt(root) > 0.0) tc = std::clamp(2.0 * s / (B + std::sqrt(root)), 0.0, dt);
      b.status.position += c.t * disp;
      begin_contact(id, b, c, v0 + tc * a);
      return;
    }
    b.status.position += disp;
    b.status.velocity = v0 + dt * a;
    // Passed: outside the target's neighbourhood and moving (and accelerating) away from it.
    const Vec3 to_target = bounds.centre() - b.status.position;
    const double reach = b.shape_box.empty() ? 0.0 : b.shape_box.diagonal();
    if (bounds.inflated(asset->max_radius() + reach).squared_distance(b.status.position) > 0 &&
        b.status.velocity.dot(to_target) < 0 && a.dot(to_target) <= 0)
      b.status.phase = ProjectilePhase::passed;
  }

  void step_denting(Body& b, double dt) {
    auto travel = [&](double tau) { return b.speed * tau - 0.5 * b.deceleration * tau * tau; };
    const double t1 = std::min(b.tau + dt, b.tau_stop);
    const double ds = travel(t1) - travel(b.tau);
    b.tau = t1;
    const Vec3 step = ds * b.dent.direction;
    b.status.position += step;
    own_surface();
    for (std::size_t k = 0; k < b.dent.nodes.size(); ++k)
      own_mesh.positions[b.dent.nodes[k]] += b.dent.weights[k] * step;
    stats.moved_nodes += static_cast<Index>(b.dent.nodes.size());
    refresh_structures(b.dent.nodes);
    if (b.tau >= b.tau_stop) {
      b.status.phase = ProjectilePhase::stopped;
      b.status.velocity = Vec3::Zero();
    } else {
      b.status.velocity = (b.speed - b.deceleration * b.tau) * b.dent.direction;
    }
  }
};

DentTarget::DentTarget(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DentTarget::DentTarget(DentTarget&&) noexcept = default;
DentTarget& DentTarget::operator=(DentTarget&&) noexcept = default;
DentTarget::~DentTarget() = default;

Result<DentTarget> DentTarget::create(std::shared_ptr<const DentAsset> asset, DentThreading threading) {
  if (!asset) return Error{"impact target: no asset (null)"};
  auto impl = std::make_unique<Impl>();
  impl->asset = std::move(asset);
  impl->threading = threading;
  impl->read_asset();
  impl->node_hit.assign(impl->mesh().positions.size(), 0);
  return DentTarget(std::move(impl));
}

Result<DentTarget> DentTarget::create(TriMesh surface, const ImpactMaterial& material,
                                      const std::vector<ImpactRegion>& regions, DentOptions options) {
  Result<std::shared_ptr<const DentAsset>> asset =
      DentAsset::build(std::move(surface), material, regions, options.method, options.octree_depth);
  if (!asset.ok()) return asset.error();
  return create(std::move(asset).value(), {options.threads, options.parallel_min});
}

Index DentTarget::launch(Projectile projectile) {
  Impl::Body b;
  b.status.position = projectile.position;
  b.status.velocity = projectile.velocity;
  if (!projectile.is_point()) {
    b.shape_box = bounding_box(projectile.shape.positions);
    if (impl_->method() == ImpactMethod::octree)
      b.shape_octree = Octree(projectile.shape.positions, projectile.shape.triangles, {0, 0.25});
    if (impl_->method() == ImpactMethod::bvh_grid)
      b.shape_bvh.build(projectile.shape.positions, projectile.shape.triangles);
  }
  b.def = std::move(projectile);
  impl_->bodies.push_back(std::move(b));
  return static_cast<Index>(impl_->bodies.size() - 1);
}

void DentTarget::step(double dt) {
  Impl& m = *impl_;
  m.events.clear();
  m.stats = {};
  if (!(dt > 0)) return;
  for (std::size_t i = 0; i < m.bodies.size(); ++i) {
    Impl::Body& b = m.bodies[i];
    switch (b.status.phase) {
      case ProjectilePhase::flying:
        m.step_flying(static_cast<Index>(i), b, dt);
        break;
      case ProjectilePhase::denting:
        m.step_denting(b, dt);
        break;
      case ProjectilePhase::stopped:
      case ProjectilePhase::passed:
        break;
    }
  }
}

void DentTarget::drop_finished() {
  std::erase_if(impl_->bodies, [](const Impl::Body& b) {
    return b.status.phase == ProjectilePhase::stopped || b.status.phase == ProjectilePhase::passed;
  });
}

const TriMesh& DentTarget::surface() const { return impl_->mesh(); }
const std::vector<Vec3>& DentTarget::rest_positions() const { return impl_->asset->surface().positions; }
const std::vector<ImpactMaterial>& DentTarget::materials() const { return impl_->materials(); }
Index DentTarget::projectile_count() const { return static_cast<Index>(impl_->bodies.size()); }
const ProjectileStatus& DentTarget::status(Index p) const { return impl_->bodies[p].status; }
const Dent& DentTarget::dent(Index p) const { return impl_->bodies[p].dent; }
std::span<const ImpactEvent> DentTarget::events() const { return impl_->events; }
const StepStats& DentTarget::stats() const { return impl_->stats; }
DentOptions DentTarget::options() const {
  return {impl_->method(), impl_->asset->octree_depth(), impl_->threading.threads,
          impl_->threading.parallel_min};
}
const std::shared_ptr<const DentAsset>& DentTarget::asset() const { return impl_->asset; }
bool DentTarget::owns_surface() const { return impl_->owned; }

std::uint64_t DentTarget::state_hash() const {
  Hasher h;
  h.add(impl_->mesh().positions);
  for (const auto& b : impl_->bodies) {
    h.add_value(b.status.position).add_value(b.status.velocity).add_value(b.status.phase);
  }
  return h.value();
}

std::optional<RayHit> DentTarget::raycast(const Ray& ray, double t_max) const {
  return impl_->cast_target(ray, t_max);
}

void DentTarget::move_nodes(std::span<const Index> nodes, std::span<const Vec3> positions) {
  if (nodes.empty() || positions.empty()) return;
  impl_->own_surface();
  for (std::size_t k = 0; k < nodes.size() && k < positions.size(); ++k)
    impl_->own_mesh.positions[nodes[k]] = positions[k];
  impl_->refresh_structures(nodes.subspan(0, std::min(nodes.size(), positions.size())));
}

}  // namespace pliant::impact

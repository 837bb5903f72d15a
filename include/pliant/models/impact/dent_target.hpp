// DentTarget: a triangle surface that projectiles dent permanently in real time (N. Milanović's
// visual method: ray casting with Möller–Trumbore, falloff f(x) = (1 - (x/φ)²)^r, point and mesh
// projectiles; see docs/impact.md).
//
// Every step each flying projectile casts the segment it travels this step (a point: one ray; a
// mesh: one ray per vertex, plus inverse rays from target nodes near its swept box against its
// triangles). At first contact the dent is fixed: the hit points are the direct hits within the
// projectile's stopping distance S = v²/(2·deceleration) along its velocity, a node's weight is
// (1 - R)·f(distance to the nearest hit), and while the projectile decelerates each affected node
// moves with its per-step travel times its weight, so the final dent is weight · S.
//
// Three interchangeable query structures give identical results (tests compare them):
// brute_force (every ray against every triangle, every node against every hit: the source's
// baseline), octree (the source's method, with leaves refreshed after each dent step) and bvh_grid
// (core's TriangleBvh for rays, refitting only the boxes above moved triangles after a dent step; a uniform
// grid of falloff-radius cells for the neighbourhood) — the fastest, the default.
//
// The rest surface, the node materials and the structures at rest are a shared DentAsset; a target
// reads them until its first dent or edit, then moves and refits its own copy (copy-on-write).
#pragma once

#include "pliant/core/ray.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/models/impact/dent_asset.hpp"
#include "pliant/models/impact/impact_event.hpp"
#include "pliant/models/impact/material.hpp"
#include "pliant/models/impact/projectile.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace pliant::impact {

/// How a target runs its ray casts and weights: per target, not part of its asset.
struct DentThreading {
  int threads = 0;  ///< threads for the ray casts and weights; 0: core's solver_threads()
  /// Fewest rays or nodes a loop needs to run on several threads: below it waking the threads costs
  /// more than the work (a few ms on a loaded machine).
  Index parallel_min = 4096;
};

/// Everything create(surface, ...) takes: the asset's method and octree depth, and the threading.
struct DentOptions {
  ImpactMethod method = ImpactMethod::bvh_grid;
  int octree_depth = 0;  ///< octree leaf level; 0: automatic (see Octree::Options)
  int threads = 0;       ///< threads for the ray casts and weights; 0: core's solver_threads()
  /// Fewest rays or nodes a loop needs to run on several threads: below it waking the threads costs
  /// more than the work (a few ms on a loaded machine).
  Index parallel_min = 4096;
};

/// The dent a projectile makes: fixed at its first contact.
struct Dent {
  std::vector<Index> nodes;       ///< affected target nodes, ascending
  std::vector<double> weights;    ///< (1 - R)·f per node, in (0, 1]
  std::vector<Vec3> hits;         ///< the direct hit points it was computed from (unit: m)
  Vec3 direction = Vec3::Zero();  ///< unit contact direction (the projectile's velocity at contact)
  double stopping_distance = 0;   ///< S, the projectile's travel while denting (unit: m)
};

/// Work of the last step, for benchmarks.
struct StepStats {
  Index rays = 0;         ///< rays cast
  Index moved_nodes = 0;  ///< target nodes moved
};

class DentTarget {
 public:
  /// A target of `asset` (shared; the target copies its surface and structures on its first dent or
  /// edit, never writing to the asset). Fails (one line) on a null asset.
  static Result<DentTarget> create(std::shared_ptr<const DentAsset> asset, DentThreading threading = {});
  /// Convenience for tests and tools: builds the asset (not shared), then the target. Fails (one line)
  /// on a material out of range, a region naming a missing node, or an empty mesh.
  static Result<DentTarget> create(TriMesh surface, const ImpactMaterial& material,
                                   const std::vector<ImpactRegion>& regions = {}, DentOptions options = {});
  DentTarget(DentTarget&&) noexcept;
  DentTarget& operator=(DentTarget&&) noexcept;
  ~DentTarget();

  /// Adds a projectile; returns its id (0, 1, ... in launch order).
  Index launch(Projectile projectile);
  /// Advances every projectile by dt (unit: s), denting as they touch. Never throws.
  void step(double dt);
  /// Forgets the projectiles that have stopped or passed by (their status and dent with them); the
  /// others keep their launch order and are renumbered 0, 1, ... An owner that launches without end
  /// (the scene layer launches one projectile per impact) calls it after each step, so that memory
  /// and step time stay flat over a session of thousands of impacts. The dents stay in the surface.
  void drop_finished();

  /// The shared asset: the rest surface and structures.
  const std::shared_ptr<const DentAsset>& asset() const;
  /// Whether the target has taken its own copy of the surface (after its first dent or edit).
  bool owns_surface() const;
  /// The current surface (the asset's until the first dent, then the target's own).
  const TriMesh& surface() const;
  const std::vector<Vec3>& rest_positions() const;
  const std::vector<ImpactMaterial>& materials() const;  ///< per node
  Index projectile_count() const;
  const ProjectileStatus& status(Index projectile) const;
  /// The projectile's dent (empty before contact or when nothing dented).
  const Dent& dent(Index projectile) const;
  /// Impact events of the last step.
  std::span<const ImpactEvent> events() const;
  const StepStats& stats() const;
  DentOptions options() const;
  /// Hash of the node positions and projectile states (for determinism checks).
  std::uint64_t state_hash() const;

  /// The closest hit of a ray on the current surface by the configured method (t in [0, t_max],
  /// unit of the ray direction).
  std::optional<RayHit> raycast(const Ray& ray, double t_max) const;
  /// Moves nodes to new positions (unit: m) and refreshes the query structures (e.g. an edit).
  void move_nodes(std::span<const Index> nodes, std::span<const Vec3> positions);

 private:
  struct Impl;
  explicit DentTarget(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pliant::impact

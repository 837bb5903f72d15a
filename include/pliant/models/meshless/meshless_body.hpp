// MeshlessBody: the meshless family's run time. A closed surface is sampled into phyxels (sampling.hpp),
// given MLS rest constants (mls_body.hpp), integrated by pliant::dynamics over MlsForceModel with
// substeps no longer than dt_safety of the stable explicit step at rest, shortened while the body
// stretches (ExplicitStepControl, docs/meshless.md "Stable step"), and drives its own surface
// (driven_surface.hpp).
//
// Grabs hold a surface vertex through the phyxels its MLS fit uses (every phyxel with a weight on it):
// they become kinematic and translate with the grab's target, so the vertex, whose weights sum to 1,
// sits exactly at the target; the reaction is the sum of the forces on the held phyxels (elastic and
// their weight), each shared equally among the grabs holding it.
// Forces applied at the surface reach the phyxels by the same weights.
#pragma once

#include "pliant/core/grab_id.hpp"
#include "pliant/core/grab_released.hpp"
#include "pliant/core/grab_slots.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/meshless/cutting.hpp"
#include "pliant/models/meshless/driven_surface.hpp"
#include "pliant/models/meshless/meshless_asset.hpp"
#include "pliant/models/meshless/mls_body.hpp"
#include "pliant/models/meshless/mls_force_model.hpp"
#include "pliant/models/meshless/sampling.hpp"
#include "pliant/models/meshless/surface_cutter.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace pliant::meshless {

struct MeshlessBodyDef {
  SamplingDef sampling;       ///< spacing and jitter of the phyxels
  MlsDef mls;                 ///< support, materials, volume term, strain (its spacing is sampling's)
  SurfaceBindingDef binding;  ///< how surface vertices are fitted to phyxels
  dynamics::Scheme scheme = dynamics::Scheme::symplectic_euler;
  /// The stiffness the implicit schemes solve with (mls_force_model.hpp); explicit schemes use none.
  MlsTangent tangent = MlsTangent::current;
  /// Largest substep (unit: s), used as is; 0: dt_safety · symplectic_euler_stable_step, shortened by
  /// ExplicitStepControl while the body stretches (explicit schemes).
  double dt = 0.0;
  /// Fraction of the rest stable step taken when dt is 0, in (0, 1]: the substep is
  /// dt_safety · stable / √(1.1 g) with g ≥ 1 the stretch stiffening. 1: the state-aware step is
  /// stable on every hard case of docs/meshless.md at 1.
  double dt_safety = 1.0;
  Vec3 gravity = Vec3::Zero();  ///< (unit: m/s²)
  double mass_damping = 0.0;    ///< Rayleigh α (unit: 1/s)
  /// A frictionless, inelastic floor z = floor (unit: m), or none: after each substep a free phyxel
  /// closer than half a spacing to it is put back at floor + spacing/2 (where the surface sampled
  /// around it then touches the floor) and loses its downward velocity.
  std::optional<double> floor = std::nullopt;
  /// Phyxels held in place from the start (supports; set_fixed), indices into the asset's phyxels.
  std::vector<Index> fixed_phyxels = {};
};

class MeshlessBody {
 public:
  /// A body over `asset` (shared: its phyxels and binding are copied once, here) with the per-body
  /// settings of `def`; def.sampling, def.mls and def.binding are the asset's (def() reports them), the
  /// given ones are not read. Fails with one line for a null asset or a bad setting.
  static Result<MeshlessBody> build(std::shared_ptr<const MeshlessAsset> asset, const MeshlessBodyDef& def);
  /// Samples `surface` (closed, outward, unit: m) into an asset of its own (MeshlessAsset::build with
  /// def's sampling, mls and binding) and builds the body on it. Fails with a one-line message.
  static Result<MeshlessBody> build(const TriMesh& surface, const MeshlessBodyDef& def);
  /// The asset the body was built from (never changed by the body).
  const std::shared_ptr<const MeshlessAsset>& asset() const { return asset_; }

  const MlsBody& phyxels() const { return *body_; }
  const DrivenSurface& surface() const { return surface_; }
  const MeshlessBodyDef& def() const { return def_; }
  /// Current surface positions (unit: m) and unit normals, one per surface vertex.
  std::span<const Vec3> surface_positions() const { return x_surface_; }
  std::span<const Vec3> surface_normals() const { return n_surface_; }
  /// The substep (unit: s) and the stable explicit step it was derived from or checked against.
  /// substep() is the last step's (the rest substep before any step), substeps() how many it took.
  double substep() const { return substep_; }
  double stable_step() const { return stable_step_; }
  int substeps() const { return last_substeps_; }
  /// The stiffening the substep is shortened for (ExplicitStepControl: 1.1 × the stretch stiffening,
  /// ≥ 1.1; 1.1 with a given dt or an implicit scheme, where it is not used).
  double stiffening() const { return control_.stiffening(); }
  /// The largest principal stretch of a phyxel at the last force evaluation of the last step
  /// (dimensionless; 1 at rest and for rigid motions; +∞ once the state holds a NaN).
  double largest_stretch() const;
  /// The phyxels' elastic plus volume energy Σ v_i Ψ(J_i) now (MlsForceModel::elastic_energy; unit: J).
  double elastic_energy() const;
  /// Implicit schemes: the largest relative residual ‖b - A y‖/‖b‖ of the last step's CG solves
  /// (dimensionless; above cg_tolerance() when a solve stopped at its iteration cap); 0 otherwise.
  double last_relative_residual() const { return last_residual_; }
  /// The CG settings of the implicit step (dynamics::IntegratorDef's: relative tolerance, iteration cap).
  double cg_tolerance() const { return integrator_.def().cg_tolerance; }

  /// Replaces the phyxels' positions (unit: m) and velocities (unit: m/s), one each per phyxel (a
  /// pre-deformed start); false, changing nothing, for a size mismatch or a non-finite entry.
  bool set_state(std::span<const Vec3> x, std::span<const Vec3> v);

  /// Fixes phyxel i in place (a support) or frees it.
  void set_fixed(Index phyxel, bool fixed);

  /// Grabs surface vertex v where it is now; an invalid id for a bad vertex.
  GrabId grab(Index vertex);
  /// Moves a grab's target (unit: m); the held phyxels reach it over the next step's substeps.
  void move_grab(GrabId id, const Vec3& target);
  void release(GrabId id);
  /// Sum of the elastic forces on the held phyxels after the last step (unit: N).
  Vec3 grab_reaction(GrabId id) const;
  /// Phyxels a grab holds (empty for an invalid id).
  std::span<const Index> grab_phyxels(GrabId id) const;
  /// The vertex a grab holds, or -1.
  Index grab_vertex(GrabId id) const;
  /// The same vertex as a one-element span (empty for an invalid id), valid while the grab lives.
  std::span<const Index> grab_vertices(GrabId id) const;
  /// Grabs released since the previous step's start (valid until the next step).
  std::span<const GrabReleased> released_grabs() const { return released_; }

  /// Cuts along the blade at the start of the next step (cutting.hpp): links crossing the swept
  /// surface at that time are removed, the affected phyxels' constants recomputed, and surface
  /// vertices refitted on the phyxels on their side; the surface is then cut along the run of blades
  /// so far (surface_cutter.hpp): split and closed where the cut goes through, slit and closed by its
  /// cut face where the blade's edge ends inside the body, so vertices and triangles are appended and
  /// surface_topology_version() grows. A blade that does not start where the last one ended starts a
  /// new run (the surface's unused vertices are then removed and the others renumbered; grabs follow).
  /// False (and nothing queued) for a blade of zero area or one whose bounds miss the body's.
  bool cut(const Blade& blade);
  /// Phyxels that lost links in the last step's cuts (valid until the next step).
  std::span<const CutEvent> cut_events() const { return cut_events_; }
  /// Incremented whenever a cut changes the surface's triangles (vertices and triangles added or
  /// re-connected, or vertices renumbered).
  std::uint64_t surface_topology_version() const { return surface_.topology_version(); }

  /// Adds force f (unit: N) at surface vertex v for the next step.
  void add_surface_force(Index vertex, const Vec3& f);

  /// Advances by dt (unit: s) in ceil(dt / substep) equal substeps, split again into shorter ones
  /// when the body stiffens during the step (at most 8× the rest count); never throws. Stages recorded:
  /// "meshless.solve", "meshless.surface" (unit: ms).
  void step(double dt, Profile& profile);

  /// Per surface vertex det F - 1 (dimensionless), the volume change the surface sees; `out` has
  /// one entry per vertex.
  void volume_change(std::span<double> out) const;
  std::uint64_t state_hash() const;

 private:
  struct Grab {
    Index vertex = -1;
    std::vector<Index> phyxels;
    std::vector<Vec3> offset;  // held phyxel position minus the vertex position at grab time
    Vec3 from = Vec3::Zero(), target = Vec3::Zero();
    Vec3 reaction = Vec3::Zero();
  };
  // After the surface's vertices were renumbered (old → new, -1 removed; x_surface_ still the old).
  void renumber_grabs(std::span<const Index> renumbered);

  MeshlessBodyDef def_;
  std::shared_ptr<const MeshlessAsset> asset_;
  std::unique_ptr<MlsBody> body_;  // stable address: the force model refers to it
  std::unique_ptr<MlsForceModel> model_;
  DrivenSurface surface_;
  dynamics::Integrator integrator_;
  double substep_ = 0.0, stable_step_ = 0.0;
  double last_residual_ = 0.0;
  ExplicitStepControl control_;
  int last_substeps_ = 0;
  std::vector<Vec3> x_surface_, n_surface_;
  std::vector<Vec3> external_, scratch_;
  std::vector<int> holders_;         // per phyxel, the live grabs holding it (zero between steps)
  std::vector<std::uint8_t> fixed_;  // supports (set_fixed), kept through grabs
  GrabSlots<Grab> grabs_;
  std::vector<GrabReleased> released_, pending_released_;
  std::vector<Blade> pending_cuts_;
  SurfaceCutter cutter_;
  std::vector<CutEvent> cut_events_;
};

}  // namespace pliant::meshless

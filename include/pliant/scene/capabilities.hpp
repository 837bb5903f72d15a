// Optional capabilities of a body beyond the surface contract. A family that supports one derives
// its scene body from the interface as well as from Body; interactions (a blade, a projectile) ask
// with scene::capability<Cuttable>(body) and skip bodies that answer nullptr, never naming a family.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"

#include <filesystem>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// A blade's cutting edge over one step: the segment (a0, b0) at the step's start swept to (a1, b1)
/// at its end; the surface it sweeps is the cut (unit: m).
struct BladeSweep {
  Vec3 a0 = Vec3::Zero(), b0 = Vec3::Zero();
  Vec3 a1 = Vec3::Zero(), b1 = Vec3::Zero();
};

/// A body that a blade can cut (the meshless family; FEM's hybrid cut region).
class Cuttable {
 public:
  virtual ~Cuttable() = default;
  /// Cuts along the swept blade in the next step; what was cut is reported as the family's cut
  /// events. Returns false if the sweep is degenerate (zero area) or misses the body's bounds.
  virtual bool cut(const BladeSweep& blade) = 0;
};

/// A rigid projectile as a target sees it during one step.
struct ProjectileState {
  Vec3 position = Vec3::Zero();      ///< a reference point of the projectile (unit: m)
  Vec3 velocity = Vec3::Zero();      ///< at the start of the step (unit: m/s)
  double mass = 0.0;                 ///< (unit: kg)
  double radius = 0.0;               ///< bounding radius around position, 0 for a point (unit: m)
  const TriMesh* shape = nullptr;    ///< its mesh around position (unit: m), nullptr for a point
  Vec3 acceleration = Vec3::Zero();  ///< while it flies (unit: m/s²)
};

/// A body that projectiles dent (the impact family).
class ImpactTarget {
 public:
  virtual ~ImpactTarget() = default;
  /// Lets the projectile act on the body during the next step of length dt (unit: s); returns the
  /// projectile's velocity change over the step (unit: m/s), zero if it missed.
  virtual Vec3 impact(const ProjectileState& projectile, double dt) = 0;
};

/// A body whose state lives inside as well as on its surface (the meshless family's phyxels, a FEM
/// body's tetrahedra): output writers save that interior as a second ParaView series beside the surface.
class InteriorOutput {
 public:
  virtual ~InteriorOutput() = default;
  /// The series' name in file names, e.g. "phyxels" for NAME_phyxels_00010.vtu (letters, digits, '_').
  virtual std::string_view interior_name() const = 0;
  /// Writes the current interior state to a .vtu file at `path`; fails with the writer's one line.
  virtual Status write_interior_vtu(const std::filesystem::path& path) const = 0;
  /// The interior's current points (unit: m): the phyxels, or a FEM body's nodes; valid until the
  /// next step. For drawing them (the viewer's "interior points").
  virtual std::span<const Vec3> interior_points() const = 0;
};

/// A body simulated on tetrahedra whose every node it moves (a FEM body): a render mesh embeds in its
/// tets by barycentric coordinates (render_mesh.hpp), which follow any affine motion of the body exactly.
/// The three spans describe the mesh as it is now (after cuts: surface_topology_version() changes with
/// them) and stay valid until the next step.
class SimulationTets {
 public:
  virtual ~SimulationTets() = default;
  /// The tetrahedra, indices into the two node arrays below.
  virtual std::span<const Tet> simulation_tets() const = 0;
  /// Every node's rest position (unit: m).
  virtual std::span<const Vec3> simulation_rest_nodes() const = 0;
  /// Every node's current position (unit: m).
  virtual std::span<const Vec3> simulation_nodes() const = 0;
};

/// A render mesh fitted by a family its own way (FitsSurfaces), reading the body's state when asked.
class SurfaceFit {
 public:
  virtual ~SurfaceFit() = default;
  /// Current positions (unit: m) of the fitted vertices, one per vertex of the mesh it was fitted to.
  virtual void positions(std::span<Vec3> out) const = 0;
};

/// A body that fits a render mesh its own way (the meshless family: the moving-least-squares fit over
/// its phyxels that drives its own surface, exact under affine motion); RenderMesh prefers it to tets
/// and surface frames.
class FitsSurfaces {
 public:
  virtual ~FitsSurfaces() = default;
  /// Fits `rest` (unit: m, where the body is at rest); fails with one line. The fit reads this body when
  /// asked for positions, so it must not outlive it.
  virtual Result<std::unique_ptr<SurfaceFit>> fit_surface(const TriMesh& rest) const = 0;
};

/// What a body is made of and what pulls on it, in continuum terms: what the plausibility checks
/// (plausibility.hpp) compare with the body's size. A family with elastic constants answers it once.
struct BodyPhysics {
  /// Every material the body uses (one, or one per region), with its density (unit: kg/m³).
  std::vector<materials::Material> materials;
  /// The gravitational acceleration the body feels (unit: m/s²); zero when it has none.
  Vec3 gravity = Vec3::Zero();
};

/// A body that describes its materials and gravity (fem, green, meshless).
class DescribesPhysics {
 public:
  virtual ~DescribesPhysics() = default;
  virtual BodyPhysics physics() const = 0;
};

/// A body's mechanical energy now (unit: J). gravity is the potential of the body's uniform gravity,
/// −Σ m_i g·x_i over its nodes (phyxels), zero at the world origin: only its changes mean something.
struct BodyEnergy {
  double kinetic = 0.0;  ///< ½ vᵀ M v over the moving nodes (unit: J)
  double elastic = 0.0;  ///< the stored strain energy of the body's own elastic model (unit: J)
  double gravity = 0.0;  ///< −Σ m_i g·x_i (unit: J)
  double total() const { return kinetic + elastic + gravity; }
};

/// A dynamic body that reports its energy (fem, springs, meshless): for energy balances (a body
/// dropped on another never gains energy through contact), summary.json and Python. elastic is the
/// energy whose gradient is the body's elastic force (FemForceModel::elastic_energy, the springs' ½ k
/// (l − l0)², the meshless Σ v_i Ψ); a springs body's internal pressure and a meshless body's plastic
/// flow are work done outside it, not stored energy. Quasi-static bodies (Green) and rigid targets
/// (impact) do not report one.
class ReportsEnergy {
 public:
  virtual ~ReportsEnergy() = default;
  virtual BodyEnergy energy() const = 0;
};

/// −Σ m_i g·x_i (unit: J) for node masses m (unit: kg), positions x (unit: m, as many) and gravity g
/// (unit: m/s²): BodyEnergy::gravity.
double gravity_potential(std::span<const double> mass, std::span<const Vec3> x, const Vec3& g);

}  // namespace pliant::scene

// ViewerModel: what the interactive viewer shows and drives. The viewer knows no physics: it draws
// the model's surfaces, turns a left-drag on a surface into a grab that follows the mouse ray, shows
// the grab's reaction force, and calls step() once per frame unless paused.
//
// The scene layer implements this over a World (its bodies seen through the surface contract);
// test_models.hpp has a static mesh and a clearly artificial "pull" model for testing the viewer.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/ray.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/tool_cylinders.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::viewer {

/// One drawable, pickable surface (a body's current surface).
struct ViewerSurface {
  std::string name;
  std::span<const Vec3> positions;  ///< current positions (unit: m), valid until the next step()
  std::span<const Tri> triangles;   ///< triangles over `positions`
  /// Changes when triangles or node count change (tearing): the viewer rebuilds its picking BVH
  /// instead of refitting it.
  std::uint64_t topology_version = 0;
};

/// A build under way while the model has nothing to show yet (a scene precomputing its bodies).
struct LoadingState {
  bool active = false;  ///< true while nothing can be drawn yet
  std::string what;     ///< e.g. "pipe_drag"
  double seconds = 0;   ///< time spent building so far (unit: s)
};

/// The instrument the viewer's instrument mode drives with the mouse (a scene's probe, grasper or
/// scalpel, scene/instrument.hpp), as it was after the last step.
struct ViewerInstrument {
  std::string name;
  std::string type;           ///< "probe", "grasper" or "scalpel"
  Vec3 tip = Vec3::Zero();    ///< where its tip is (unit: m)
  Vec3 force = Vec3::Zero();  ///< the bodies' contact force on it (unit: N)
  int contacts = 0;           ///< surface nodes it holds in contact
  /// Radius of a sphere about the tip that holds the instrument's cross-section there (a probe's
  /// radius; a grasper's jaws; a scalpel's edge) (unit: m): the force arrow starts that far in front
  /// of the tip, so that the instrument's own body does not hide it.
  double reach = 0.0;
  bool grasper = false;      ///< it has jaws (the fields below mean something)
  bool jaws_closed = false;  ///< the jaws are commanded closed
  double gap = 0.0;          ///< between the jaws' inner faces (unit: m)
  double grip = 0.0;         ///< the jaws' mean normal force on what they pinch (unit: N)
};

/// A rigid tool or blade the model moves by itself (a scene's scripted instrument), drawn but not
/// pickable.
using ViewerTool = scene::ToolCylinder;

class ViewerModel {
 public:
  virtual ~ViewerModel() = default;
  /// Window title text, e.g. the scene file name.
  virtual std::string title() const = 0;
  virtual std::size_t surface_count() const = 0;
  virtual ViewerSurface surface(std::size_t index) const = 0;

  /// What is drawn in place of surface `index` (a body's render mesh, scene/render_mesh.hpp), or nullopt
  /// to draw the surface itself. Picking and grabbing always use surface(index).
  virtual std::optional<ViewerSurface> drawn_surface(std::size_t /*index*/) const { return std::nullopt; }
  /// A field of surface `index` (one value per its node) carried onto drawn_surface(index)'s vertices.
  virtual void drawn_field(std::size_t /*index*/, std::span<const double> /*surface_values*/,
                           std::vector<double>& /*out*/) const {}

  /// Names of the per-node scalar fields offered for colouring ("displacement", "stress", ...).
  virtual std::vector<std::string> field_names() const { return {}; }
  /// Fills `values` (one per node of surface `index`) and `unit` with field `name`; false when the
  /// surface has no such field.
  virtual bool field(std::size_t /*index*/, std::string_view /*name*/, std::vector<double>& /*values*/,
                     std::string& /*unit*/) const {
    return false;
  }

  /// The field to colour by when the viewer starts or shows another scene (a scene's output
  /// "color" setting), or "" for none. The viewer uses it unless told otherwise (--field).
  virtual std::string default_field() const { return {}; }

  /// Whether grab_reaction() is a force the model computes. False for stand-ins without physics
  /// (a bare mesh): the viewer then draws no force arrow and no force value.
  virtual bool has_reaction() const { return true; }

  /// A build in progress while there is nothing to draw (the viewer shows a progress bar and does not
  /// count such frames for --after), and the error that ended it if it failed: a model that can
  /// never show anything makes the viewer exit with that error.
  virtual LoadingState loading() const { return {}; }
  virtual std::string fatal_error() const { return {}; }

  /// Starts a grab at the surface point (triangle, u, v) of surface `index` (the point being
  /// (1-u-v)·a + u·b + v·c); false if this surface cannot be grabbed. At most one grab is held.
  virtual bool grab(std::size_t index, Index triangle, double u, double v) = 0;
  /// Moves the held grab's target point (unit: m).
  virtual void move_grab(const Vec3& target) = 0;
  virtual void release() = 0;
  /// Force the body exerts on the grabbing tool (unit: N); zero without a grab.
  virtual Vec3 grab_reaction() const = 0;

  /// The instrument the mouse drives in instrument mode, or nullopt when the model has none (the
  /// default). A scene's drives its "device" instrument, else its first.
  virtual std::optional<ViewerInstrument> instrument() const { return std::nullopt; }
  /// Moves that instrument's tip to `tip` (unit: m) from the next step on, keeping its orientation; its
  /// track then no longer moves it.
  virtual void move_instrument(const Vec3& /*tip*/) {}
  /// Closes (true) or opens a grasper's jaws from the next step on; nothing for another instrument.
  virtual void close_jaws(bool /*closed*/) {}

  /// Fires a point projectile from the ray's origin along its direction (the viewer's P key: the
  /// camera's mouse ray); false if this model has no projectiles.
  virtual bool fire(const Ray& /*ray*/) { return false; }

  /// Called once per viewer frame, paused or not, before step(): lets a model land work finished in
  /// the background (a rebuilt world) while the viewer is paused too.
  virtual void poll() {}
  /// Advances the simulation by one viewer frame.
  virtual void step() = 0;
  /// Back to the initial state (grabs released).
  virtual void reset() = 0;
  /// Draws the model's own ImGui widgets (parameters, method switches) inside the viewer's panel.
  virtual void panel() {}
  /// Rigid tools to draw with the surfaces (they move on their own; the mouse cannot pick them).
  virtual std::vector<ViewerTool> tools() const { return {}; }
  /// Rigid colliders' surfaces at their current pose (unit: m; a plane as a quad around `around`, the
  /// bodies' box), drawn but not pickable.
  virtual std::vector<TriMesh> collider_surfaces(const Aabb& /*around*/) const { return {}; }
  /// The surface nodes held in contact after the last step (unit: m).
  virtual std::vector<Vec3> contact_points() const { return {}; }
  /// Current positions of the surface nodes the bodies hold fixed (a scene's "fixed" regions; unit:
  /// m), for the viewer's markers; empty when the model does not know them.
  virtual std::vector<Vec3> fixed_points() const { return {}; }
  /// Height of the scene's floor along +Y (unit: m): the highest upward-facing plane collider's;
  /// nullopt without one (the viewer's grid then lies just below the bodies).
  virtual std::optional<double> floor_height() const { return std::nullopt; }
  /// The bodies' interior points (phyxels, FEM nodes; unit: m), valid until the next step, for the
  /// "interior points" display option.
  virtual std::vector<std::span<const Vec3>> interior_points() const { return {}; }
  /// Named stage timings of the last step, or nullptr.
  virtual const Profile* profile() const { return nullptr; }

  /// Changes whenever the model replaces its surfaces wholesale (a world rebuilt after a parameter
  /// edit or a reset, another scene shown): the viewer then drops a grab it is dragging, since the
  /// grabbed triangle belongs to surfaces that no longer exist, and rebuilds its picking structures.
  virtual std::uint64_t surfaces_generation() const { return 0; }
  /// Changes when the model shows a different scene, whose size may differ: the viewer re-frames
  /// the camera. A rebuild of the same scene keeps the camera where the user left it.
  virtual std::uint64_t scene_generation() const { return 0; }
};

}  // namespace pliant::viewer

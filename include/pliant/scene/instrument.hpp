// Instrument: a rigid tool in the user's hand that touches the World's bodies through contact. It owns
// one collider or more in the World (World::add_instrument), so it touches every body through the one
// contact path of contact.hpp (held surface nodes, Coulomb friction). Three types:
//   probe    a capsule with a spherical tip: its pose is the tip sphere's centre and its shaft runs
//            `length` along the local +y axis.
//   grasper  two flat jaws (boxes) facing each other across the local x axis, centred on the pose; when
//            closed they move together until each presses with the grip force (or they meet), so what
//            they pinch is held by contact and friction (μ·grip per jaw), never by capturing nodes.
//   scalpel  a flat blade (a thin box) whose cutting edge is the segment along local x through the
//            pose, the blade rising from it along +y: every step it hands the surface its edge swept
//            over the step to each Cuttable body (capabilities.hpp), which cuts there (the meshless
//            family; FEM's hybrid cut region), and touches every other body like a collider (a body it
//            cuts it does not push: held ahead of the edge the tissue would never be reached).
// An instrument is moved either by a keyframe track of poses or by a haptic device through the virtual
// coupling (World::bind_haptic_instrument, scene/virtual_coupling.hpp): the instrument is the coupling's
// proxy and stops at the tissue surface as far as the contact lets it.
#pragma once

#include "pliant/core/pose.hpp"
#include "pliant/core/result.hpp"
#include "pliant/scene/collider.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pliant::scene {

enum class InstrumentType { probe, grasper, scalpel };

/// The scene files' name of an instrument type ("probe", "grasper", "scalpel").
std::string_view instrument_type_name(InstrumentType type);

/// A command of a grasper's jaws from time t on (unit: s).
struct JawKey {
  double t = 0.0;
  bool closed = false;
};

/// A grasper's two jaws, each a box `thickness` × `length` × `width` along the local x, y, z axes, their
/// inner faces `gap` apart across x about the pose. Open, the gap widens to `opening` at `speed`;
/// closed, it narrows at `speed` until contact, then each step by the change that brings the grip force
/// (the mean of the two jaws' normal forces along their closing directions, measured after the last
/// step) to `grip`, from a secant estimate of how that force answers the gap (World::grasper_state).
struct GrasperJaws {
  double length = 0.02;       ///< along the local y axis (unit: m), > 0
  double width = 0.01;        ///< along the local z axis (unit: m), > 0
  double thickness = 0.003;   ///< each jaw, along the local x axis (unit: m), > 0
  double opening = 0.03;      ///< the gap between the inner faces when open (unit: m), > 0
  double grip = 2.0;          ///< the force each closed jaw presses with (unit: N), > 0
  double speed = 0.05;        ///< how fast the gap narrows or widens without contact (unit: m/s), > 0
  std::vector<JawKey> track;  ///< when the jaws close and open (times increasing); empty: open
  /// Whether the jaws are commanded closed at time t (unit: s): the last key at or before t.
  bool closed_at(double t) const;
};

/// A scalpel's blade: a box `length` × `height` × `thickness` along the local x, y, z axes, its cutting
/// edge the segment from (−length/2, 0, 0) to (length/2, 0, 0), the blade rising along +y from it.
struct ScalpelBlade {
  double length = 0.02;     ///< the cutting edge (unit: m), > 0
  double height = 0.008;    ///< from the edge to the back (unit: m), > 0
  double thickness = 5e-4;  ///< (unit: m), > 0
};

/// A grasper's jaws after the last step (World::grasper_state).
struct GrasperState {
  bool closed = false;  ///< commanded closed: by World::close_jaws (at once), else by its jaw track
  double gap = 0.0;     ///< between the jaws' inner faces (unit: m)
  double grip = 0.0;    ///< the mean of the two jaws' normal forces on the bodies along their closing
                        ///< directions (unit: N); what a closed grasper holds at GrasperJaws::grip
  int contacts = 0;     ///< surface nodes the jaws hold
};

struct Instrument {
  std::string name;
  InstrumentType type = InstrumentType::probe;
  double radius = 0.004;  ///< probe: tip sphere and shaft radius (unit: m), > 0
  double length =
      0.1;  ///< probe: shaft from the tip sphere's centre to the back end's, along local +y (unit: m), ≥ 0
  GrasperJaws jaws;    ///< grasper: its jaws
  ScalpelBlade blade;  ///< scalpel: its blade
  Pose pose;  ///< the tip's pose when it has no track (unit: m): the probe's tip sphere's centre, the
              ///< grasper's point midway between its jaws, the middle of the scalpel's edge
  /// Keyframes of the tip's pose (times in s); empty: fixed at `pose`. With `device`, the scripted
  /// hand's path: what a simulated device follows (`pliant haptics`), and where `pliant run` moves it.
  std::vector<PoseKey> track;
  /// Driven by the haptic device through the virtual coupling (World::bind_haptic_instrument); at most
  /// one instrument of a scene is.
  bool device = false;
  double friction = 0.5;  ///< Coulomb coefficient μ against the bodies (dimensionless, ≥ 0)
  double margin = 5e-4;   ///< contact thickness (unit: m), > 0

  /// The tip's pose at time t from the track (unit: s).
  Pose pose_at(double t) const { return pliant::pose_at(track, t, pose); }
};

/// Checks the type's sizes, pose, track, friction and margin; the error is one line naming the bad
/// value.
Status validate(const Instrument& instrument);

/// The colliders of an instrument whose tip is at `tip` (unit: m): its shapes, sizes, friction and
/// margin, no track. A probe has one capsule (its centre half the shaft up the local +y axis), a
/// grasper two jaw boxes `gap` apart (unit: m), a scalpel one blade box. Named after the instrument
/// ("NAME", or "NAME/jaw1", "NAME/jaw2").
std::vector<Collider> instrument_colliders(const Instrument& instrument, const Pose& tip, double gap);

/// Where those colliders are (unit: m), in the same order.
std::vector<Pose> instrument_collider_poses(const Instrument& instrument, const Pose& tip, double gap);

/// A grasper's jaw j (0 or 1): the unit direction it closes along, world frame, with the grasper at `tip`.
Vec3 jaw_closing_direction(const Pose& tip, int jaw);

/// A scalpel's cutting edge with the scalpel at `tip`: its two ends (unit: m).
std::pair<Vec3, Vec3> scalpel_edge(const Instrument& instrument, const Pose& tip);

}  // namespace pliant::scene

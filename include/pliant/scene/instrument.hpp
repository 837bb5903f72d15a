// Instrument: a rigid tool in the user's hand that touches the World's bodies through contact. A probe
// is a capsule with a spherical tip: its pose is the tip sphere's centre and its shaft runs `length`
// along the local +y axis. It owns a capsule Collider in the World (World::add_instrument), so it
// touches every body through the one contact path of contact.hpp (held surface nodes, Coulomb
// friction). It is moved either by a keyframe track of poses or by a haptic device through the
// virtual coupling (World::bind_haptic_instrument, scene/virtual_coupling.hpp): the instrument is the
// coupling's proxy and stops at the tissue surface as far as the contact lets it.
#pragma once

#include "pliant/core/pose.hpp"
#include "pliant/core/result.hpp"
#include "pliant/scene/collider.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

enum class InstrumentType { probe };

/// The scene files' name of an instrument type ("probe").
std::string_view instrument_type_name(InstrumentType type);

struct Instrument {
  std::string name;
  InstrumentType type = InstrumentType::probe;
  double radius = 0.004;  ///< tip sphere and shaft radius (unit: m), > 0
  double length =
      0.1;    ///< shaft from the tip sphere's centre to the back end's, along local +y (unit: m), ≥ 0
  Pose pose;  ///< the tip's pose when it has no track (unit: m)
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

/// The capsule collider of an instrument whose tip is at `tip` (its shape, sizes, friction, margin, no
/// track): the capsule's centre is half the shaft up the local +y axis.
Collider instrument_collider(const Instrument& instrument, const Pose& tip);

/// The collider pose of an instrument whose tip is at `tip` (unit: m).
Pose instrument_collider_pose(const Instrument& instrument, const Pose& tip);

}  // namespace pliant::scene

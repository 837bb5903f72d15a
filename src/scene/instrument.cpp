#include "pliant/scene/instrument.hpp"

#include "pose_track_check.hpp"

#include <cmath>

namespace pliant::scene {

std::string_view instrument_type_name(InstrumentType type) {
  switch (type) {
    case InstrumentType::probe:
      return "probe";
  }
  return "?";
}

Status validate(const Instrument& in) {
  const std::string who = "instrument \"" + in.name + "\": ";
  if (!std::isfinite(in.radius) || !(in.radius > 0.0)) return Error{who + "radius must be > 0 m"};
  if (!std::isfinite(in.length) || in.length < 0.0) return Error{who + "length must be ≥ 0 m"};
  if (Status s = detail::check_pose_track(in.pose, in.track, who); !s.ok()) return s;
  if (!std::isfinite(in.friction) || in.friction < 0.0) return Error{who + "friction must be ≥ 0"};
  if (!std::isfinite(in.margin) || !(in.margin > 0.0)) return Error{who + "margin must be > 0 m"};
  return {};
}

Pose instrument_collider_pose(const Instrument& in, const Pose& tip) {
  Pose p = tip;
  p.position = tip.to_world(Vec3(0.0, 0.5 * in.length, 0.0));
  return p;
}

Collider instrument_collider(const Instrument& in, const Pose& tip) {
  Collider c;
  c.name = in.name;
  c.shape = ColliderShape::capsule;
  c.radius = in.radius;
  c.half_length = 0.5 * in.length;
  c.pose = instrument_collider_pose(in, tip);
  c.friction = in.friction;
  c.margin = in.margin;
  return c;
}

}  // namespace pliant::scene

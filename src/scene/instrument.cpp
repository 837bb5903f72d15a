#include "pliant/scene/instrument.hpp"

#include "pose_track_check.hpp"

#include <cmath>

namespace pliant::scene {

std::string_view instrument_type_name(InstrumentType type) {
  switch (type) {
    case InstrumentType::probe:
      return "probe";
    case InstrumentType::grasper:
      return "grasper";
    case InstrumentType::scalpel:
      return "scalpel";
  }
  return "?";
}

bool GrasperJaws::closed_at(double t) const {
  bool closed = false;
  for (const JawKey& k : track) {
    if (k.t > t) break;
    closed = k.closed;
  }
  return closed;
}

namespace {

Status positive(double v, const std::string& who, std::string_view key) {
  if (!std::isfinite(v) || !(v > 0.0)) return Error{who + std::string(key) + " must be > 0 m"};
  return {};
}

Status validate_jaws(const GrasperJaws& j, const std::string& who) {
  for (const auto& [key, v] :
       {std::pair{"jaws length", j.length}, std::pair{"jaws width", j.width},
        std::pair{"jaws thickness", j.thickness}, std::pair{"jaws opening", j.opening}})
    if (Status s = positive(v, who, key); !s.ok()) return s;
  if (!std::isfinite(j.grip) || !(j.grip > 0.0)) return Error{who + "jaws grip must be > 0 N"};
  if (!std::isfinite(j.speed) || !(j.speed > 0.0)) return Error{who + "jaws speed must be > 0 m/s"};
  for (std::size_t k = 0; k < j.track.size(); ++k) {
    if (!std::isfinite(j.track[k].t))
      return Error{who + "jaws track key " + std::to_string(k) + ": the time must be finite"};
    if (k > 0 && !(j.track[k].t > j.track[k - 1].t))
      return Error{who + "jaws track key " + std::to_string(k) + ": times must increase"};
  }
  return {};
}

}  // namespace

Status validate(const Instrument& in) {
  const std::string who = "instrument \"" + in.name + "\": ";
  switch (in.type) {
    case InstrumentType::probe:
      if (!std::isfinite(in.radius) || !(in.radius > 0.0)) return Error{who + "radius must be > 0 m"};
      if (!std::isfinite(in.length) || in.length < 0.0) return Error{who + "length must be ≥ 0 m"};
      break;
    case InstrumentType::grasper:
      if (Status s = validate_jaws(in.jaws, who); !s.ok()) return s;
      break;
    case InstrumentType::scalpel:
      for (const auto& [key, v] :
           {std::pair{"blade length", in.blade.length}, std::pair{"blade height", in.blade.height},
            std::pair{"blade thickness", in.blade.thickness}})
        if (Status s = positive(v, who, key); !s.ok()) return s;
      break;
  }
  if (Status s = detail::check_pose_track(in.pose, in.track, who); !s.ok()) return s;
  if (!std::isfinite(in.friction) || in.friction < 0.0) return Error{who + "friction must be ≥ 0"};
  if (!std::isfinite(in.margin) || !(in.margin > 0.0)) return Error{who + "margin must be > 0 m"};
  return {};
}

Vec3 jaw_closing_direction(const Pose& tip, int jaw) {
  // Jaw 0 sits on the local −x side and closes along +x; jaw 1 the other way.
  return tip.rotation * Vec3(jaw == 0 ? 1.0 : -1.0, 0.0, 0.0);
}

std::vector<Pose> instrument_collider_poses(const Instrument& in, const Pose& tip, double gap) {
  switch (in.type) {
    case InstrumentType::probe: {
      Pose p = tip;
      p.position = tip.to_world(Vec3(0.0, 0.5 * in.length, 0.0));
      return {p};
    }
    case InstrumentType::grasper: {
      const double x = 0.5 * gap + 0.5 * in.jaws.thickness;
      Pose a = tip, b = tip;
      a.position = tip.to_world(Vec3(-x, 0.0, 0.0));
      b.position = tip.to_world(Vec3(x, 0.0, 0.0));
      return {a, b};
    }
    case InstrumentType::scalpel: {
      Pose p = tip;
      p.position = tip.to_world(Vec3(0.0, 0.5 * in.blade.height, 0.0));
      return {p};
    }
  }
  return {};
}

std::vector<Collider> instrument_colliders(const Instrument& in, const Pose& tip, double gap) {
  const std::vector<Pose> poses = instrument_collider_poses(in, tip, gap);
  std::vector<Collider> out(poses.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    Collider& c = out[k];
    c.name = in.name;
    c.pose = poses[k];
    c.friction = in.friction;
    c.margin = in.margin;
    switch (in.type) {
      case InstrumentType::probe:
        c.shape = ColliderShape::capsule;
        c.radius = in.radius;
        c.half_length = 0.5 * in.length;
        break;
      case InstrumentType::grasper:
        c.name += k == 0 ? "/jaw1" : "/jaw2";
        c.shape = ColliderShape::box;
        c.half_extents = 0.5 * Vec3(in.jaws.thickness, in.jaws.length, in.jaws.width);
        break;
      case InstrumentType::scalpel:
        c.shape = ColliderShape::box;
        c.half_extents = 0.5 * Vec3(in.blade.length, in.blade.height, in.blade.thickness);
        break;
    }
  }
  return out;
}

std::pair<Vec3, Vec3> scalpel_edge(const Instrument& in, const Pose& tip) {
  return {tip.to_world(Vec3(-0.5 * in.blade.length, 0.0, 0.0)),
          tip.to_world(Vec3(0.5 * in.blade.length, 0.0, 0.0))};
}

}  // namespace pliant::scene

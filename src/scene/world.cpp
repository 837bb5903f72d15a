#include "pliant/scene/world.hpp"

#include "pliant/core/hash.hpp"

#include <algorithm>

namespace pliant::scene {

Vec3 offset_at(const std::vector<Keyframe>& track, double t) {
  if (track.empty()) return Vec3::Zero();
  if (t <= track.front().t) return track.front().offset;
  for (std::size_t k = 1; k < track.size(); ++k) {
    if (t < track[k].t) {
      const Keyframe& a = track[k - 1];
      const Keyframe& b = track[k];
      const double s = (t - a.t) / (b.t - a.t);
      return (1.0 - s) * a.offset + s * b.offset;
    }
  }
  return track.back().offset;
}

Index World::add_body(std::unique_ptr<Body> body) {
  body_stage_names_.push_back("body:" + body->name());
  bodies_.push_back(std::move(body));
  body_profiles_.emplace_back();
  return static_cast<Index>(bodies_.size() - 1);
}

void World::step() {
  // Interactions act at the time the step ends: targets are where handles should be after it.
  const double t = time_ + dt_;
  Stopwatch watch;
  for (ScriptedGrab& g : grabs_) {
    if (g.done || t < g.start) continue;
    Body& b = body(g.body);
    if (!g.id.valid()) {
      g.anchor = point_on(b.surface_positions(), b.surface_triangles(), g.point);
      g.id = b.grab(g.point);
    }
    if (g.release > g.start && t >= g.release) {
      b.release(g.id);
      g.done = true;
      continue;
    }
    b.move_grab(g.id, g.anchor + offset_at(g.track, t - g.start));
  }
  for (const ForceProbe& p : probes_) {
    if (t < p.start || t >= p.end) continue;
    const double scale = p.ramp > 0.0 ? std::min(1.0, (t - p.start) / p.ramp) : 1.0;
    body(p.body).apply_force(p.point, scale * p.force);
  }
  profile_.record("interactions", watch.ms());

  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    watch.reset();
    bodies_[i]->step(dt_, body_profiles_[i]);
    profile_.record(body_stage_names_[i], watch.ms());
  }

  watch.reset();
  time_ = t;
  ++steps_;
  events_.clear();
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    for (const BodyEvent& e : bodies_[i]->events()) events_.push_back({static_cast<Index>(i), time_, e});
  }
  profile_.record("events", watch.ms());
}

ScriptedGrab World::take_scripted_grab(std::size_t i) {
  ScriptedGrab g = std::move(grabs_.at(i));
  grabs_.erase(grabs_.begin() + static_cast<std::ptrdiff_t>(i));
  return g;
}

std::uint64_t World::state_hash() const {
  Hasher h;
  h.add_value(time_).add_value(steps_);
  for (const auto& b : bodies_) h.add_value(b->state_hash());
  return h.value();
}

}  // namespace pliant::scene

#include "bob_family.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/scene/events.hpp"
#include "pliant/scene/family_registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace bob {
namespace {

using pliant::Index;
using pliant::Mat3;
using pliant::Vec3;
namespace scene = pliant::scene;

class BobBody final : public scene::Body {
 public:
  BobBody(std::string name, pliant::TriMesh rest, const BobDef& def)
      : name_(std::move(name)), rest_(std::move(rest)), x_(rest_.positions), def_(def) {}

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "bob"; }
  std::span<const Vec3> surface_positions() const override { return x_; }
  std::span<const Vec3> surface_rest_positions() const override { return rest_.positions; }
  std::span<const pliant::Tri> surface_triangles() const override { return rest_.triangles; }

  // One grab at a time: it holds the triangle corner nearest the picked point, and the whole body
  // follows it (the body is rigid).
  scene::GrabId grab(const scene::SurfacePoint& p) override {
    if (held_ >= 0 || p.triangle < 0 || static_cast<std::size_t>(p.triangle) >= rest_.triangles.size())
      return {};
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    held_ = rest_.triangles[static_cast<std::size_t>(p.triangle)][std::max_element(w, w + 3) - w];
    target_ = x_[static_cast<std::size_t>(held_)];
    return {0, ++generation_};
  }
  bool holds(scene::GrabId id) const override { return live(id); }
  void move_grab(scene::GrabId id, const Vec3& target) override {
    if (live(id)) target_ = target;
  }
  void release(scene::GrabId id) override {
    if (!live(id)) return;
    incoming_.push(scene::GrabReleased{id, held_, x_[static_cast<std::size_t>(held_)]});
    held_ = -1;
  }
  // What the tool feels holding the body still: the spring's pull, the weight and the applied forces.
  Vec3 grab_reaction(scene::GrabId id) const override {
    return live(id) ? Vec3(-def_.stiffness * u_ + def_.mass * def_.gravity + force_) : Vec3::Zero();
  }
  Mat3 grab_compliance(scene::GrabId id) const override {
    return live(id) ? Mat3(Mat3::Identity() / def_.stiffness) : Mat3::Zero();
  }
  void apply_force(const scene::SurfacePoint&, const Vec3& force) override { pending_ += force; }

  void step(double dt, pliant::Profile& profile) override {
    const auto start = std::chrono::steady_clock::now();
    events_.swap(incoming_);
    incoming_.clear();
    force_ = pending_;
    pending_ = Vec3::Zero();
    if (held_ >= 0) {
      // Held: the body sits where the grab puts it, at rest.
      u_ = target_ - rest_.positions[static_cast<std::size_t>(held_)];
      v_ = Vec3::Zero();
    } else {
      // The exact solution over dt about the equilibrium u* (see bob_family.hpp).
      const double omega = std::sqrt(def_.stiffness / def_.mass);
      const double c = std::cos(omega * dt), s = std::sin(omega * dt);
      const Vec3 eq = (def_.mass * def_.gravity + force_) / def_.stiffness;
      const Vec3 w = u_ - eq;
      u_ = eq + c * w + (s / omega) * v_;
      v_ = -omega * s * w + c * v_;
    }
    for (std::size_t i = 0; i < x_.size(); ++i) x_[i] = rest_.positions[i] + u_;
    profile.record(
        "bob.step",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }

  const scene::EventLog& events() const override { return events_; }
  std::span<const scene::FieldInfo> fields() const override {
    static constexpr scene::FieldInfo kFields[] = {{"displacement", "m"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    if (index != 0 || out.size() != x_.size()) return;
    std::fill(out.begin(), out.end(), u_.norm());
  }
  std::uint64_t state_hash() const override {
    return pliant::Hasher()
        .add(u_.data(), 3 * sizeof(double))
        .add(v_.data(), 3 * sizeof(double))
        .add(x_)
        .value();
  }

 private:
  bool live(scene::GrabId id) const { return held_ >= 0 && id.slot == 0 && id.generation == generation_; }

  std::string name_;
  pliant::TriMesh rest_;
  std::vector<Vec3> x_;
  BobDef def_;
  Vec3 u_ = Vec3::Zero(), v_ = Vec3::Zero();            // displacement (m) and velocity (m/s) from rest
  Vec3 force_ = Vec3::Zero(), pending_ = Vec3::Zero();  // applied (N): this step's, the next one's
  Index held_ = -1;
  Vec3 target_ = Vec3::Zero();
  std::uint32_t generation_ = 0;
  scene::EventLog events_, incoming_;
};

// Reads the body's "bob" object through the public JsonReader: errors name the JSON pointer, and a
// key the family does not know is refused with the list of those it does.
std::unique_ptr<scene::Body> make_bob(const scene::JsonReader& body, scene::BodyInputs in) {
  if (!in.fixed.empty()) body.at("fixed").fail("a bob body has no fixed nodes: its spring holds it");
  BobDef def;
  if (const auto j = body.find("bob")) {
    j->expect_object({"mass", "stiffness", "gravity"});
    def.mass = j->positive_or("mass", def.mass);
    def.stiffness = j->positive_or("stiffness", def.stiffness);
    if (const auto g = j->find("gravity")) def.gravity = g->vec3();
  }
  pliant::TriMesh surface = in.surface ? std::move(*in.surface) : pliant::extract_boundary(*in.volume).mesh;
  return std::make_unique<BobBody>(std::move(in.name), std::move(surface), def);
}

}  // namespace

bool register_bob_family() {
  return scene::register_family(
      {.name = "bob",
       .summary = "a rigid surface on a spring, registered out of tree (examples/plugin_family)",
       .keys = {"bob"},
       .why_fixed = {},
       .example_body = R"({"mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [4, 4]},
                           "bob": {"mass": 0.2, "stiffness": 50}})",
       .make = &make_bob});
}

}  // namespace bob

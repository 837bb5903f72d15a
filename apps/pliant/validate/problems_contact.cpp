// Contact against closed forms: Coulomb friction on an incline. A block on a plane tilted by θ slides
// with a = g (sin θ − μ cos θ) when tan θ > μ and stays where it was put when tan θ < μ. Run through
// the scene layer as a user would: a FEM block resting on a plane collider, held by contact, its patch
// slid by the World's Coulomb law.
#include "problems.hpp"

#include "pliant/scene/collider.hpp"
#include "pliant/scene/contact.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace pliant::validate {
namespace {

constexpr double kG = 9.81;  // m/s²

struct InclineRun {
  double along[3] = {0.0, 0.0, 0.0};  // mean position down the slope at 1, 1.5 and 2 s (unit: m)
  double held_moved = 0.0;            // largest move of a bottom-face node from the first step to 2 s (m)
};

// A 1 kg FEM block (0.1 m, 2 cells a side, corotational, E = 200 kPa, ν = 0.3, backward Euler at
// dt = 1/120 s, no mass-proportional damping: α M v would be a drag Coulomb's law does not have) resting
// on a z = 0 plane with gravity tilted by θ about y, which is the incline's problem in its own frame.
// The pair's friction is μ (body and plane alike: √(μ μ) = μ).
InclineRun incline(double theta_degrees, double mu) {
  const double dt = 1.0 / 120.0, th = theta_degrees * M_PI / 180.0;
  scene::World world(dt);
  const std::string json = fmt::format(
      R"({{"name": "block", "family": "fem",
          "mesh": {{"shape": "box", "origin": [0, 0, 0.000999], "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]}},
          "material": {{"E": 2e5, "nu": 0.3, "density": 1000}},
          "fem": {{"element": "corotational", "damping": {{"alpha": 0, "beta": 0.01}},
                  "gravity": [{:.17g}, 0, {:.17g}], "integrator": "backward_euler",
                  "solver": {{"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}}}}})",
      kG * std::sin(th), -kG * std::cos(th));
  Result<std::unique_ptr<scene::Body>> body = scene::make_body(json, "incline.json", dt);
  if (!body) throw std::runtime_error("incline block: " + body.message());
  world.add_body(std::move(body).value());
  scene::BodyContact contact;
  contact.friction = mu;
  world.set_contact(0, contact);
  scene::Collider plane;
  plane.name = "incline";
  plane.shape = scene::ColliderShape::plane;
  plane.normal = Vec3::UnitZ();
  plane.friction = mu;
  if (auto added = world.add_collider(plane); !added) throw std::runtime_error("incline: " + added.message());
  InclineRun out;
  std::vector<Vec3> first;
  for (int s = 1; s <= 240; ++s) {
    world.step();
    const auto x = world.body(0).surface_positions();
    if (s == 1) first.assign(x.begin(), x.end());
    if (s % 60 == 0 && s >= 120) {
      double mean = 0.0;
      for (const Vec3& p : x) mean += p.x();
      out.along[s / 60 - 2] = mean / static_cast<double>(x.size());
    }
  }
  const auto x = world.body(0).surface_positions();
  for (std::size_t i = 0; i < x.size(); ++i)
    if (first[i].z() < 0.01) out.held_moved = std::max(out.held_moved, (x[i] - first[i]).norm());
  return out;
}

}  // namespace

Problem incline_slide(const Variant& variant) {
  const double theta = 30.0, mu = 0.2, th = theta * M_PI / 180.0;
  const InclineRun r = incline(theta, mu * variant.friction_scale);
  Problem p;
  p.name = "incline_slide";
  p.family = "fem";
  p.method = "contact, Coulomb patch slide, θ = 30°, μ = 0.2";
  p.quantity = "acceleration (m/s²)";
  // Second difference of the mean position over 0.5 s intervals (exact for a constant acceleration).
  p.measured = (r.along[2] - 2.0 * r.along[1] + r.along[0]) / 0.25;
  p.reference = kG * (std::sin(th) - mu * std::cos(th));
  p.reference_source = "analytic: a = g (sin θ − μ cos θ)";
  p.tolerance = 0.02;
  finish(p);
  return p;
}

Problem incline_stick(const Variant& variant) {
  const double theta = 20.0, mu = 0.5, th = theta * M_PI / 180.0;
  const InclineRun r = incline(theta, mu * variant.friction_scale);
  Problem p;
  p.name = "incline_stick";
  p.family = "fem";
  p.method = "contact, Coulomb stick, θ = 20°, μ = 0.5";
  p.quantity = "base slide over 2 s / frictionless slide";
  // The bottom face's largest move over the frictionless slide's ½ g sin θ t² (6.7 m in 2 s).
  p.measured = r.held_moved / (0.5 * kG * std::sin(th) * 4.0);
  p.reference = 0.0;
  p.reference_source = "analytic: at rest for tan θ < μ";
  p.tolerance = 1e-6;
  finish(p);
  return p;
}

}  // namespace pliant::validate

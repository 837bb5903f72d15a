// Contact against closed forms: Coulomb friction on an incline. A block on a plane tilted by θ slides
// with a = g (sin θ − μ cos θ) when tan θ > μ and stays where it was put when tan θ < μ. Run through
// the scene layer as a user would: a FEM block resting on a plane collider, held by contact, its patch
// slid by the World's Coulomb law.
#include "problems.hpp"

#include "pliant/scene/collider.hpp"
#include "pliant/scene/contact.hpp"
#include "pliant/scene/instrument.hpp"
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

// Whether a grasper with grip `grip` (N a jaw) and friction μ holds a 4 cm FEM block (64 g) in the air:
// the jaws closed on it from the first step (0.2 mm wider than the block and the two contact margins),
// held when it has dropped less than 1 mm after 0.4 s (slipping at 5 % below the threshold it drops 6 mm).
bool grasp_holds(double grip, double mu) {
  const double dt = 1.0 / 120.0, side = 0.04;
  scene::World world(dt);
  Result<std::unique_ptr<scene::Body>> body = scene::make_body(
      R"({"name": "block", "family": "fem",
          "mesh": {"shape": "box", "origin": [0, 0, 0.001], "size": [0.04, 0.04, 0.04], "cells": [4, 4, 4]},
          "material": {"E": 2e5, "nu": 0.3, "density": 1000},
          "fem": {"element": "corotational", "damping": {"alpha": 8.0, "beta": 0.01}, "gravity": [0, 0, -9.81],
                  "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
      "grasp.json", dt);
  if (!body) throw std::runtime_error("grasp block: " + body.message());
  world.add_body(std::move(body).value());
  scene::BodyContact contact;
  contact.friction = mu;
  world.set_contact(0, contact);
  scene::Instrument in;
  in.name = "grasper";
  in.type = scene::InstrumentType::grasper;
  in.friction = mu;
  in.pose.position = Vec3(0.5 * side, 0.5 * side, 0.001 + 0.5 * side);
  in.jaws.length = 0.05;
  in.jaws.width = 0.12;  // the block slides over the jaws' faces, never off an end
  in.jaws.opening = side + 2.0 * (contact.margin + in.margin) + 2e-4;
  in.jaws.grip = grip;
  in.jaws.track = {{0.0, true}};
  if (auto added = world.add_instrument(in); !added) throw std::runtime_error("grasper: " + added.message());
  const auto mean_z = [&] {
    double z = 0.0;
    for (const Vec3& p : world.body(0).surface_positions()) z += p.z();
    return z / static_cast<double>(world.body(0).surface_positions().size());
  };
  const double z0 = mean_z();
  for (int s = 0; s < 48; ++s) world.step();
  return z0 - mean_z() < 0.001;
}

}  // namespace

Problem grasp_threshold(const Variant& variant) {
  const double mu = 0.5, weight = 0.064 * kG;
  const double threshold = weight / (2.0 * mu);  // Coulomb: two jaws, each μ G
  // Bisection on the grip, in multiples of the threshold: lo slips, hi holds.
  double lo = 0.5, hi = 2.0;
  for (int k = 0; k < 8; ++k) {
    const double mid = 0.5 * (lo + hi);
    (grasp_holds(mid * threshold, mu * variant.friction_scale) ? hi : lo) = mid;
  }
  Problem p;
  p.name = "grasp_threshold";
  p.family = "fem";
  p.method = "grasper, contact and Coulomb friction, μ = 0.5";
  p.quantity = "smallest grip that holds / m g / (2 μ)";
  p.measured = 0.5 * (lo + hi);
  p.reference = 1.0;
  p.reference_source = "analytic: two jaws hold m g when 2 μ G ≥ m g";
  p.tolerance = 0.05;
  finish(p);
  return p;
}

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

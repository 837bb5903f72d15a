// The contact_pressure field and the collider surfaces drawn for contact. References: the total normal
// force of the contact events (the pressure integrated over the nodes' area shares must give it back),
// the oedometric stiffness of a thin slab compressed between bonded plates (away from its edges the
// lateral strain vanishes, so p = E(1 − ν)/((1 + ν)(1 − 2ν)) · δ/h, uniform), and the colliders' own
// distance queries (every vertex of a drawn collider lies on its surface).
#include "pliant/scene/collider_mesh.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace pliant::scene {
namespace {

// Each node's area share: one third of its triangles' areas.
std::vector<double> area_shares(const Body& body) {
  const auto x = body.surface_positions();
  std::vector<double> share(x.size(), 0.0);
  for (const Tri& t : body.surface_triangles()) {
    const double a = (x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]]).norm() / 2.0;
    for (int k = 0; k < 3; ++k) share[t[k]] += a / 3.0;
  }
  return share;
}

double integrated(const World& world, Index b) {
  const std::vector<double> p = world.contact_pressure(b);
  const std::vector<double> share = area_shares(world.body(b));
  double sum = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) sum += p[i] * share[i];
  return sum;
}

Collider plane(const Vec3& normal, const Vec3& position, double friction) {
  Collider c;
  c.name = "press";
  c.normal = normal;
  c.pose.position = position;
  c.friction = friction;
  return c;
}

// A Green slab 0.2 × 0.2 × 0.02 m clamped at its base, pressed on its top by a plane lowered by δ, the
// top nodes sticking where they touched (μ = 10): both faces bonded.
TEST(ContactPressure, PressedSlabIntegratesToTheForceAndIsUniformAwayFromEdges) {
  const double dt = 0.01, E = 1e5, nu = 0.3, h = 0.02, delta = 1e-3;
  World world(dt);
  Result<std::unique_ptr<Body>> body = make_body(
      R"({"name": "slab", "family": "green", "mesh": {"shape": "box", "size": [0.2, 0.2, 0.02], "cells": [10, 10, 1]},
          "material": {"E": 1e5, "nu": 0.3}, "fixed": ["zmin"]})",
      "slab.json", dt);
  ASSERT_TRUE(body.ok()) << body.message();
  world.add_body(std::move(body).value());
  BodyContact grip;
  grip.friction = 10.0;
  world.set_contact(0, grip);
  ASSERT_TRUE(world.add_collider(plane(-Vec3::UnitZ(), Vec3(0.0, 0.0, h - delta), 10.0)).ok());
  // No contact yet: all zeros.
  for (double p : world.contact_pressure(0)) EXPECT_EQ(p, 0.0);
  for (int s = 0; s < 3; ++s) world.step();
  ASSERT_EQ(world.contact_events().size(), 1u);
  const ContactEvent& e = world.contact_events()[0];
  ASSERT_EQ(e.contacts, 121);  // the top face's 11 × 11 nodes
  // Integrated over the area shares: the events' total normal force to round-off.
  EXPECT_NEAR(integrated(world, 0), e.normal_force, 1e-12 * e.normal_force);
  // The held compression is δ plus the two margins (0.5 mm each).
  const double strain = (delta + 1e-3) / h;
  const double oedometric = E * (1.0 - nu) / ((1.0 + nu) * (1.0 - 2.0 * nu)) * strain;
  const std::vector<double> p = world.contact_pressure(0);
  const auto x = world.body(0).surface_positions();
  double lo = INFINITY, hi = 0.0;
  int inner = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Away from the edges: two slab thicknesses in from each side, on the top face.
    if (x[i].z() < 0.5 * h || std::min({x[i].x(), 0.2 - x[i].x(), x[i].y(), 0.2 - x[i].y()}) < 2.0 * h - 1e-9)
      continue;
    ++inner;
    lo = std::min(lo, p[i]);
    hi = std::max(hi, p[i]);
  }
  EXPECT_EQ(inner, 49);  // 7 × 7 nodes
  // Uniform to 2 % there, and the oedometric value to 5 %.
  EXPECT_LT((hi - lo) / hi, 0.02) << lo << " .. " << hi;
  EXPECT_NEAR(lo, oedometric, 0.05 * oedometric);
  EXPECT_NEAR(hi, oedometric, 0.05 * oedometric);
  // Pressure only where the plane holds nodes: none on the clamped base or the sides below the top.
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].z() < 0.5 * h) {
      EXPECT_EQ(p[i], 0.0);
    }
  }
}

// Body–body: the holding body's pressure integrates to the same total as the held body's (Newton's
// third law, up to the response's one-step lag, gone at rest).
TEST(ContactPressure, BothBodiesOfABodyPairIntegrateToTheSameForce) {
  const double dt = 1.0 / 60.0;
  World world(dt);
  auto fem = [&](const char* name, const Vec3& origin, const Vec3& size, int cells) {
    char json[1024];
    std::snprintf(json, sizeof json,
                  R"({"name": "%s", "family": "fem",
        "mesh": {"shape": "box", "origin": [%.17g, %.17g, %.17g], "size": [%.17g, %.17g, %.17g], "cells": [%d, %d, %d]},
        "material": {"E": 2e5, "nu": 0.3, "density": 1000},
        "fem": {"element": "corotational", "damping": {"alpha": 8.0, "beta": 0.01}, "gravity": [0, 0, -9.81],
                "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
                  name, origin.x(), origin.y(), origin.z(), size.x(), size.y(), size.z(), cells, cells,
                  cells);
    Result<std::unique_ptr<Body>> b = make_body(json, "pair.json", dt);
    EXPECT_TRUE(b.ok()) << b.message();
    return std::move(b).value();
  };
  world.add_body(fem("slab", Vec3::Zero(), Vec3(0.2, 0.2, 0.1), 2));
  world.add_body(fem("block", Vec3(0.05, 0.05, 0.101), Vec3(0.1, 0.1, 0.1), 4));
  ASSERT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3::Zero(), 0.5)).ok());
  for (int s = 0; s < 300; ++s) world.step();
  double held = 0.0;
  for (const ContactPoint& c : world.contact_points())
    if (c.body == 1 && c.other_body == 0) held += c.normal_force;
  ASSERT_GT(held, 0.0);
  EXPECT_NEAR(integrated(world, 1), held, 1e-12 * held);
  // The slab's pressure: the block's share on its top and both weights from the plane on its base.
  double plane_force = 0.0;
  for (const ContactEvent& e : world.contact_events())
    if (e.body == 0 && e.collider == 0) plane_force = e.normal_force;
  EXPECT_NEAR(integrated(world, 0), held + plane_force, 1e-12 * (held + plane_force));
  EXPECT_NEAR(held, 9.81, 1e-3 * 9.81);  // the block's 1 kg
}

// "output": {"color": "contact_pressure"} is the World's field: accepted where contact runs (a
// collider), refused with the field list where it does not (one body, no collider).
TEST(ContactPressure, ColourFieldIsOfferedWhereContactRuns) {
  const std::string body = R"({"name": "b", "family": "springs", "mesh": {"shape": "rect", "size": [0.1, 0.1],
      "cells": [2, 2]}, "fixed": ["xmin"], "springs": {"method": "dragnet", "stiffness": 100}})";
  const std::string output =
      R"("output": {"color": "contact_pressure", "contact_arrows": true, "vtu": false})";
  const std::string with = R"({"pliant": 1, "bodies": [)" + body +
                           R"(], "colliders": [{"shape": "plane", "position": [0, 0, -1]}], )" + output + "}";
  const std::string without = R"({"pliant": 1, "bodies": [)" + body + "], " + output + "}";
  Result<Scene> ok = parse_scene(with, "with.json");
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_EQ(ok->output.color_field, kContactPressureField);
  EXPECT_TRUE(ok->output.contact_arrows);
  Result<Scene> bad = parse_scene(without, "without.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("/output/color: expected a field of these bodies"), std::string::npos)
      << bad.message();
}

// Every vertex of a drawn collider lies on the collider's surface (its own distance query), the plane's
// quad covers the bodies' box, and the triangles face outwards.
TEST(ContactPressure, ColliderSurfacesLieOnTheColliders) {
  Pose at;
  at.position = Vec3(0.1, -0.2, 0.3);
  at.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 3.0).normalized()));
  const Aabb around{Vec3(-0.1, -0.1, -0.1), Vec3(0.2, 0.1, 0.1)};
  for (ColliderShape shape :
       {ColliderShape::plane, ColliderShape::sphere, ColliderShape::capsule, ColliderShape::box}) {
    Collider c;
    c.shape = shape;
    c.normal = Vec3(0.0, 1.0, 1.0).normalized();
    c.radius = 0.04;
    c.half_length = 0.06;
    c.half_extents = Vec3(0.02, 0.03, 0.05);
    const TriMesh m = collider_surface(c, at, around, 16);
    ASSERT_FALSE(m.triangles.empty()) << collider_shape_name(shape);
    for (const Vec3& p : m.positions)
      EXPECT_NEAR(c.distance(at, p).distance, 0.0, 1e-12) << collider_shape_name(shape);
    // Outward: each triangle's normal points away from the solid (a point just outside its centroid
    // is outside the collider).
    for (const Tri& t : m.triangles) {
      const Vec3 a = m.positions[t[0]], b = m.positions[t[1]], d = m.positions[t[2]];
      ASSERT_GT((b - a).cross(d - a).norm(), 0.0) << collider_shape_name(shape) << ": a collapsed triangle";
      const Vec3 n = (b - a).cross(d - a).normalized();
      const Vec3 centroid = (a + b + d) / 3.0;
      EXPECT_GT(c.distance(at, centroid + 1e-4 * n).distance, c.distance(at, centroid - 1e-4 * n).distance)
          << collider_shape_name(shape);
    }
    if (shape == ColliderShape::plane) {
      // The quad reaches past the box's projection: half side 0.6 × its diagonal from the centre.
      const Vec3 centre = around.centre();
      const Vec3 foot = centre - c.distance(at, centre).distance * at.direction_to_world(c.normal);
      double reach = 0.0;
      for (const Vec3& p : m.positions) reach = std::max(reach, (p - foot).norm());
      EXPECT_NEAR(reach, std::sqrt(2.0) * 0.6 * around.diagonal(), 1e-12);
    }
  }
}

}  // namespace
}  // namespace pliant::scene

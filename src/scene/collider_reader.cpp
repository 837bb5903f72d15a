#include "collider_reader.hpp"

#include "pliant/io/mesh_file.hpp"

#include <memory>
#include <string>
#include <utility>

namespace pliant::scene::detail {
namespace {

// "rotation": {"axis": [x, y, z], "degrees": angle} or {"quaternion": [w, x, y, z]} (normalised; a
// zero one is refused).
Eigen::Quaterniond read_rotation(const JsonReader& r) {
  r.expect_object({"axis", "degrees", "quaternion"});
  if (r.has("quaternion")) {
    if (r.has("axis") || r.has("degrees")) r.fail("give either \"quaternion\" or \"axis\" and \"degrees\"");
    const JsonReader q = r.at("quaternion");
    if (!q.json().is_array() || q.json().size() != 4) q.fail_expected("an array of 4 numbers [w, x, y, z]");
    const auto e = q.elements();
    const auto unit = normalized_quaternion(e[0].number(), e[1].number(), e[2].number(), e[3].number());
    if (!unit) q.fail_expected("a non-zero quaternion [w, x, y, z]");
    return *unit;
  }
  const JsonReader axis = r.at("axis");
  const auto q = axis_angle_degrees(axis.vec3(), r.at("degrees").number());
  if (!q) axis.fail_expected("a non-zero axis");
  return *q;
}

Pose read_pose(const JsonReader& r, const Pose& fallback) {
  Pose p = fallback;
  if (auto v = r.find("position")) p.position = v->vec3();
  if (auto v = r.find("rotation")) p.rotation = read_rotation(*v);
  return p;
}

Vec3 positive3(const JsonReader& r) {
  const Vec3 v = r.vec3();
  if (!(v.array() > 0.0).all()) r.fail_expected("3 numbers > 0");
  return v;
}

}  // namespace

Collider read_collider(const JsonReader& r, const std::filesystem::path& directory) {
  Collider c;
  const std::string shape = r.at("shape").one_of({"plane", "sphere", "capsule", "box", "mesh"});
  std::vector<std::string_view> keys = {"name",     "shape",  "position", "rotation",
                                        "friction", "margin", "track"};
  if (shape == "plane") {
    c.shape = ColliderShape::plane;
    keys.push_back("normal");
  } else if (shape == "sphere") {
    c.shape = ColliderShape::sphere;
    keys.push_back("radius");
  } else if (shape == "capsule") {
    c.shape = ColliderShape::capsule;
    keys.insert(keys.end(), {"radius", "half_length"});
  } else if (shape == "box") {
    c.shape = ColliderShape::box;
    keys.push_back("size");
  } else {
    c.shape = ColliderShape::mesh;
    keys.push_back("mesh");
  }
  r.expect_object(keys);
  c.name = r.string_or("name", shape);
  if (auto v = r.find("normal")) {
    const Vec3 n = v->vec3();
    if (!(n.norm() > 1e-12)) v->fail_expected("a non-zero normal");
    c.normal = n.normalized();
  }
  if (auto v = r.find("radius")) c.radius = v->positive();
  if (auto v = r.find("half_length")) c.half_length = v->non_negative();
  if (auto v = r.find("size")) c.half_extents = 0.5 * positive3(*v);
  if (c.shape == ColliderShape::mesh) {
    const JsonReader m = r.at("mesh");
    m.expect_object({"file"});
    const JsonReader f = m.at("file");
    std::filesystem::path path = f.string();
    if (path.is_relative()) path = directory / path;
    Result<TriMesh> mesh = io::read_tri_mesh(path);
    if (!mesh.ok()) f.fail(mesh.message());
    Result<MeshDistance> distance = MeshDistance::build(std::move(mesh).value());
    if (!distance.ok()) f.fail(distance.message());
    c.mesh = std::make_shared<const MeshDistance>(std::move(distance).value());
  }
  c.pose = read_pose(r, Pose{});
  if (auto v = r.find("friction")) c.friction = v->non_negative();
  if (auto v = r.find("margin")) c.margin = v->positive();
  if (auto track = r.find("track")) {
    // Keyframes {"t": s, "position": [m, m, m], "rotation": {...}}; a key without one of them keeps
    // the collider's own.
    double last = -1.0;
    for (const JsonReader& k : track->elements(1)) {
      k.expect_object({"t", "position", "rotation"});
      PoseKey key;
      key.t = k.at("t").non_negative();
      if (!(key.t > last)) k.at("t").fail_expected("a time greater than the previous keyframe's");
      last = key.t;
      key.pose = read_pose(k, c.pose);
      c.track.push_back(key);
    }
  }
  if (Status s = validate(c); !s.ok()) r.fail(s.message());
  return c;
}

BodyContact read_body_contact(const JsonReader& r) {
  r.expect_object({"enabled", "friction", "margin"});
  BodyContact c;
  c.enabled = r.boolean_or("enabled", c.enabled);
  if (auto v = r.find("friction")) c.friction = v->non_negative();
  if (auto v = r.find("margin")) c.margin = v->positive();
  return c;
}

ContactSolverDef read_contact_solver(const JsonReader& r) {
  r.expect_object({"tolerance"});
  ContactSolverDef d;
  if (auto v = r.find("tolerance")) d.tolerance = v->number_in(0.0, 1.0, true);
  return d;
}

}  // namespace pliant::scene::detail

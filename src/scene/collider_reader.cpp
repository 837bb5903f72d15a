#include "collider_reader.hpp"

#include "mesh_reader.hpp"

#include "pliant/core/topology.hpp"

#include <memory>
#include <string>
#include <utility>

namespace pliant::scene::detail {
namespace {

Pose read_pose(const JsonReader& r, const Pose& fallback) {
  Pose p = fallback;
  if (auto v = r.find("position")) p.position = v->vec3();
  if (auto v = r.find("rotation")) p.rotation = read_rotation(*v);
  return p;
}

// Keyframes {"t": s, "position": [m, m, m], "rotation": {...}} with increasing times; a key without
// a position or rotation keeps the shape's own (`own`).
std::vector<PoseKey> read_pose_track(const JsonReader& track, const Pose& own) {
  std::vector<PoseKey> keys;
  double last = -1.0;
  for (const JsonReader& k : track.elements(1)) {
    k.expect_object({"t", "position", "rotation"});
    PoseKey key;
    key.t = k.at("t").non_negative();
    if (!(key.t > last)) k.at("t").fail_expected("a time greater than the previous keyframe's");
    last = key.t;
    key.pose = read_pose(k, own);
    keys.push_back(key);
  }
  return keys;
}

Vec3 positive3(const JsonReader& r) {
  const Vec3 v = r.vec3();
  if (!(v.array() > 0.0).all()) r.fail_expected("3 numbers > 0");
  return v;
}

}  // namespace

Collider read_collider(const JsonReader& r, const std::filesystem::path& directory,
                       std::size_t max_elements) {
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
    // The same "mesh" object as a body's: a file or a procedural shape, with units and a transform;
    // a volume mesh collides through its boundary surface.
    const JsonReader m = r.at("mesh");
    BodyInputs in;
    read_mesh(m, directory, in, max_elements);
    if (!in.surface && in.volume) in.surface = extract_boundary(*in.volume).mesh;
    TriMesh mesh = std::move(*in.surface);
    const JsonReader& f = m.has("file") ? m.at("file") : m;
    Result<MeshDistance> distance = MeshDistance::build(std::move(mesh));
    if (!distance.ok()) f.fail(distance.message());
    c.mesh = std::make_shared<const MeshDistance>(std::move(distance).value());
  }
  c.pose = read_pose(r, Pose{});
  if (auto v = r.find("friction")) c.friction = v->non_negative();
  if (auto v = r.find("margin")) c.margin = v->positive();
  if (auto track = r.find("track")) c.track = read_pose_track(*track, c.pose);
  if (Status s = validate(c); !s.ok()) r.fail(s.message());
  return c;
}

Instrument read_instrument(const JsonReader& r) {
  Instrument in;
  const std::string type = r.at("type").one_of({"probe", "grasper", "scalpel"});
  std::vector<std::string_view> keys = {"name",  "type",   "position", "rotation",
                                        "track", "device", "friction", "margin"};
  if (type == "probe") {
    in.type = InstrumentType::probe;
    keys.insert(keys.end(), {"radius", "length"});
  } else if (type == "grasper") {
    in.type = InstrumentType::grasper;
    keys.push_back("jaws");
  } else {
    in.type = InstrumentType::scalpel;
    keys.push_back("blade");
  }
  r.expect_object(keys);
  in.name = r.string_or("name", type);
  if (auto v = r.find("radius")) in.radius = v->positive();
  if (auto v = r.find("length")) in.length = v->non_negative();
  if (auto jaws = r.find("jaws")) {
    jaws->expect_object({"length", "width", "thickness", "opening", "grip", "speed", "track"});
    GrasperJaws& j = in.jaws;
    j.length = jaws->positive_or("length", j.length);
    j.width = jaws->positive_or("width", j.width);
    j.thickness = jaws->positive_or("thickness", j.thickness);
    j.opening = jaws->positive_or("opening", j.opening);
    j.grip = jaws->positive_or("grip", j.grip);
    j.speed = jaws->positive_or("speed", j.speed);
    if (auto track = jaws->find("track")) {
      const std::vector<JsonReader> keyframes = track->elements();
      for (std::size_t k = 0; k < keyframes.size(); ++k) {
        const JsonReader& key = keyframes[k];
        key.expect_object({"t", "closed"});
        JawKey jk{key.at("t").number(), key.at("closed").boolean()};
        if (k > 0 && !(jk.t > j.track.back().t)) key.at("t").fail_expected("a time after the previous key's");
        j.track.push_back(jk);
      }
    }
  }
  if (auto blade = r.find("blade")) {
    blade->expect_object({"length", "height", "thickness"});
    in.blade.length = blade->positive_or("length", in.blade.length);
    in.blade.height = blade->positive_or("height", in.blade.height);
    in.blade.thickness = blade->positive_or("thickness", in.blade.thickness);
  }
  in.pose = read_pose(r, Pose{});
  in.device = r.boolean_or("device", false);
  if (auto v = r.find("friction")) in.friction = v->non_negative();
  if (auto v = r.find("margin")) in.margin = v->positive();
  if (auto track = r.find("track")) in.track = read_pose_track(*track, in.pose);  // of the tip
  if (Status s = validate(in); !s.ok()) r.fail(s.message());
  return in;
}

BodyContact read_body_contact(const JsonReader& r) {
  r.expect_object({"enabled", "bodies", "friction", "margin", "self"});
  BodyContact c;
  c.enabled = r.boolean_or("enabled", c.enabled);
  c.bodies = r.boolean_or("bodies", c.bodies);
  if (auto v = r.find("friction")) c.friction = v->non_negative();
  if (auto v = r.find("margin")) c.margin = v->positive();
  c.self = r.boolean_or("self", c.self);
  return c;
}

ContactSolverDef read_contact_solver(const JsonReader& r) {
  r.expect_object({"tolerance", "relaxation"});
  ContactSolverDef d;
  if (auto v = r.find("tolerance")) d.tolerance = v->number_in(0.0, 1.0, true);
  if (auto v = r.find("relaxation")) d.relaxation = v->number_in(0.0, 1.0, true);
  return d;
}

}  // namespace pliant::scene::detail

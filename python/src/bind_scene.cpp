// Scenes, the world and bodies behind the surface contract. Arrays of a body (surface positions,
// triangles) are read-only numpy views of the body's own memory: no copy, valid until the next step
// (a tearing body may reallocate them then); .copy() keeps one.
#include "bindings.hpp"
#include "pliant/headless/headless_run.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/checked_grab.hpp"
#include "pliant/scene/reactions.hpp"

#include "pliant/scene/families.hpp"
#include "pliant/scene/plausibility.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/setting_spec.hpp"
#include "pliant/scene/world.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <nlohmann/json.hpp>

#include <chrono>

namespace pliant::python {
namespace {

// Plausibility warnings as a list of dicts (body, kind, message).
py::list warnings_to_python(const std::vector<scene::PlausibilityWarning>& warnings) {
  py::list out;
  for (const scene::PlausibilityWarning& w : warnings) {
    py::dict d;
    d["body"] = w.body;
    d["kind"] = w.kind;
    d["message"] = w.message;
    out.append(std::move(d));
  }
  return out;
}

using scene::Body;
using scene::GrabId;
using scene::SurfacePoint;
using scene::World;

// Long loops run without the GIL; every 50 ms they take it back to let Python handle Ctrl-C
// (KeyboardInterrupt stops the loop after the step in progress).
class InterruptCheck {
 public:
  void operator()() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(50)) return;
    last_ = now;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

py::array_t<double> vec3_array(const Vec3& v) {
  py::array_t<double> a(3);
  for (int k = 0; k < 3; ++k) a.mutable_at(k) = v[k];
  return a;
}

py::object json_to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

py::dict profile_dict(const Profile& profile) {
  py::dict d;
  for (const Profile::Stage& s : profile.stages) d[py::str(s.name)] = s.ms;
  return d;
}

Body& body_at(World& world, const py::object& key) {
  if (py::isinstance<py::str>(key)) {
    const std::string name = key.cast<std::string>();
    for (std::size_t i = 0; i < world.body_count(); ++i)
      if (world.body(static_cast<Index>(i)).name() == name) return world.body(static_cast<Index>(i));
    throw py::key_error("no body named \"" + name + "\"");
  }
  const long long i = key.cast<long long>();
  const long long n = static_cast<long long>(world.body_count());
  if (i < -n || i >= n)
    throw py::index_error("body index " + std::to_string(i) + " out of range (" + std::to_string(n) +
                          " bodies)");
  return world.body(static_cast<Index>(i < 0 ? i + n : i));
}

// The checked grab calls (checked_grab.hpp) raise ValueError with their one line, which names the
// argument: a point off the surface, a NaN radius or target, a released or unknown grab.
void raise_if(const Status& s) {
  if (!s.ok()) throw py::value_error(s.message());
}
template <class T>
T value_or_raise(Result<T> r) {
  if (!r.ok()) throw py::value_error(r.message());
  return std::move(r).value();
}

void check_point(const Body& body, const SurfacePoint& p) { raise_if(scene::check_surface_point(body, p)); }

py::list events_list(const World& world) {
  py::list out;
  for (const scene::WorldEvent& e : world.events()) {
    py::dict d;
    d["body"] = world.body(e.body).name();
    d["time"] = e.time;
    d["category"] = std::string(e.category);
    d["kind"] = std::string(e.brief.kind);
    d["node"] = e.brief.node;
    d["position"] = vec3_array(e.brief.position);
    if (!e.brief.quantity.empty()) d[py::str(std::string(e.brief.quantity))] = e.brief.value;
    out.append(std::move(d));
  }
  return out;
}

// A float64 array of shape (n,) or (n, 3) filled by `get` for each of `n` items.
template <class Get>
py::array_t<double> column(std::size_t n, Get get) {
  py::array_t<double> a(static_cast<py::ssize_t>(n));
  for (std::size_t i = 0; i < n; ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = get(i);
  return a;
}
template <class Get>
py::array_t<double> column3(std::size_t n, Get get) {
  py::array_t<double> a({static_cast<py::ssize_t>(n), py::ssize_t{3}});
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 v = get(i);
    for (int k = 0; k < 3; ++k) a.mutable_at(static_cast<py::ssize_t>(i), k) = v[k];
  }
  return a;
}
template <class Get>
py::array_t<Index> index_column(std::size_t n, Get get) {
  py::array_t<Index> a(static_cast<py::ssize_t>(n));
  for (std::size_t i = 0; i < n; ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = static_cast<Index>(get(i));
  return a;
}

// World.contacts: one row per body–collider or body–body pair in contact after the last step.
py::dict contacts_dict(const World& w) {
  const auto e = w.contact_events();
  const std::size_t n = e.size();
  py::dict d;
  d["body"] = index_column(n, [&](std::size_t i) { return e[i].body; });
  d["collider"] = index_column(n, [&](std::size_t i) { return e[i].collider; });
  d["other_body"] = index_column(n, [&](std::size_t i) { return e[i].other_body; });
  d["contacts"] = index_column(n, [&](std::size_t i) { return e[i].contacts; });
  d["sticking"] = index_column(n, [&](std::size_t i) { return e[i].sticking; });
  d["slipping"] = index_column(n, [&](std::size_t i) { return e[i].slipping; });
  d["normal_force"] = column(n, [&](std::size_t i) { return e[i].normal_force; });
  d["tangential_force"] = column(n, [&](std::size_t i) { return e[i].tangential_force; });
  d["force"] = column3(n, [&](std::size_t i) { return e[i].force; });
  d["force_on_other"] = column3(n, [&](std::size_t i) { return e[i].force_on_other; });
  d["max_penetration"] = column(n, [&](std::size_t i) { return e[i].max_penetration; });
  d["position"] = column3(n, [&](std::size_t i) { return e[i].position; });
  return d;
}

// World.contact_points: one row per held surface node.
py::dict contact_points_dict(const World& w) {
  const auto c = w.contact_points();
  const std::size_t n = c.size();
  py::dict d;
  d["body"] = index_column(n, [&](std::size_t i) { return c[i].body; });
  d["node"] = index_column(n, [&](std::size_t i) { return c[i].node; });
  d["collider"] = index_column(n, [&](std::size_t i) { return c[i].collider; });
  d["other_body"] = index_column(n, [&](std::size_t i) { return c[i].other_body; });
  d["position"] = column3(n, [&](std::size_t i) { return c[i].position; });
  d["normal"] = column3(n, [&](std::size_t i) { return c[i].normal; });
  d["force"] = column3(n, [&](std::size_t i) { return c[i].force; });
  d["normal_force"] = column(n, [&](std::size_t i) { return c[i].normal_force; });
  d["penetration"] = column(n, [&](std::size_t i) { return c[i].penetration; });
  d["slipping"] = index_column(n, [&](std::size_t i) { return c[i].slipping ? 1 : 0; });
  return d;
}

// World.reactions: the force on every scripted grab and collider after the last step.
py::dict reactions_dict(const World& w) {
  std::vector<Vec3> f;
  scene::reaction_forces(w, f);
  py::dict d;
  d["name"] = scene::reaction_names(w);
  d["force"] = column3(f.size(), [&](std::size_t i) { return f[i]; });
  return d;
}

Index body_index(World& w, const py::object& key) {
  const Body& b = body_at(w, key);
  Index index = 0;
  while (&w.body(index) != &b) ++index;
  return index;
}

}  // namespace

void bind_scene(py::module_& m) {
  py::class_<SurfacePoint>(m, "SurfacePoint",
                           "A point on a body's current surface: triangle and barycentric (u, v).")
      .def(py::init([](Index triangle, double u, double v) {
             return SurfacePoint{triangle, u, v};
           }),
           py::arg("triangle"), py::arg("u") = 1.0 / 3.0, py::arg("v") = 1.0 / 3.0)
      .def_readwrite("triangle", &SurfacePoint::triangle)
      .def_readwrite("u", &SurfacePoint::u)
      .def_readwrite("v", &SurfacePoint::v)
      .def("__repr__", [](const SurfacePoint& p) {
        return "<pliant.SurfacePoint triangle=" + std::to_string(p.triangle) +
               " u=" + py::repr(py::float_(p.u)).cast<std::string>() +
               " v=" + py::repr(py::float_(p.v)).cast<std::string>() + ">";
      });

  py::class_<GrabId>(m, "Grab",
                     "A grab handle returned by Body.grab; pass it to move_grab, release, reaction.")
      .def_property_readonly("valid", &GrabId::valid)
      .def("__eq__", [](const GrabId& a, const GrabId& b) { return a == b; })
      .def("__repr__", [](const GrabId& g) { return "<pliant.Grab slot=" + std::to_string(g.slot) + ">"; });

  py::class_<Body, std::unique_ptr<Body, py::nodelete>>(
      m, "Body", "A deformable body of any family, seen through the surface contract.")
      .def_property_readonly("name", &Body::name)
      .def_property_readonly("family", [](const Body& b) { return std::string(b.family()); })
      .def_property_readonly(
          "surface_positions",
          [](py::object self) { return view_vec3(self.cast<const Body&>().surface_positions(), self); },
          "(n, 3) float64 read-only view of the current surface positions (unit: m); no copy, valid until "
          "the next step")
      .def_property_readonly(
          "surface_rest_positions",
          [](py::object self) { return view_vec3(self.cast<const Body&>().surface_rest_positions(), self); },
          "(n, 3) float64 read-only view of the rest surface positions (unit: m)")
      .def_property_readonly(
          "surface_triangles",
          [](py::object self) { return view_index<3>(self.cast<const Body&>().surface_triangles(), self); },
          "(k, 3) int32 read-only view of the surface triangles (outward)")
      .def_property_readonly(
          "fixed_nodes",
          [](const Body& b) {
            const std::vector<Index> nodes = b.fixed_surface_nodes();
            return index_column(nodes.size(), [&](std::size_t i) { return nodes[i]; });
          },
          "The surface nodes the body holds fixed (its supports, not grabs or contacts), ascending, a new "
          "int32 array of surface node numbers (a meshless body's: the vertices fitted only to fixed "
          "phyxels)")
      .def_property_readonly(
          "fields",
          [](const Body& b) {
            py::dict d;
            for (const scene::FieldInfo& f : b.fields())
              d[py::str(std::string(f.name))] = std::string(f.unit);
            return d;
          },
          "{name: unit} of the per-surface-node fields the body offers")
      .def(
          "field",
          [](const Body& b, const std::string& name, py::object out) {
            const int index = scene::find_field(b, name);
            if (index < 0) throw py::key_error("body \"" + b.name() + "\" has no field \"" + name + "\"");
            const auto n = static_cast<py::ssize_t>(b.surface_positions().size());
            py::array_t<double> array =
                out.is_none() ? py::array_t<double>(n) : out.cast<py::array_t<double>>();
            if (!out.is_none()) {
              if (!py::isinstance<py::array_t<double>>(out) || array.ndim() != 1 || array.shape(0) != n ||
                  !(array.flags() & py::array::c_style) || !array.writeable())
                throw py::value_error("out: expected a writeable contiguous float64 array of shape (" +
                                      std::to_string(n) + ",)");
            }
            b.fill_field(static_cast<std::size_t>(index),
                         std::span<double>(array.mutable_data(), static_cast<std::size_t>(n)));
            return array;
          },
          py::arg("name"), py::arg("out") = py::none(),
          "Field values per surface node (fills `out` when given, allocating nothing)")
      .def(
          "grab",
          [](Body& b, const SurfacePoint& p) {
            return value_or_raise(scene::checked_grab(b, p, scene::kDefaultGrabRadius));
          },
          py::arg("point"),
          "Holds the surface point where it is now (the body's default patch); ValueError for a point off "
          "the surface or one where the body can hold nothing")
      .def(
          "grab_patch",
          [](Body& b, const SurfacePoint& p, double radius) {
            return value_or_raise(scene::checked_grab(b, p, radius));
          },
          py::arg("point"), py::arg("radius") = scene::kDefaultGrabRadius,
          "A soft grab of the surface within radius (unit: m) of the point; negative: the body's default. "
          "ValueError as for grab, or for a NaN radius")
      .def(
          "move_grab",
          [](Body& b, const GrabId& id, const py::handle& target) {
            raise_if(scene::checked_move_grab(b, id, to_vec3(target, "target")));
          },
          py::arg("grab"), py::arg("target"),
          "Moves the grab's target (unit: m); the body follows in its next step. ValueError for a grab "
          "the body does not hold or a non-finite target")
      .def(
          "release", [](Body& b, const GrabId& id) { raise_if(scene::checked_release(b, id)); },
          py::arg("grab"), "Ends the grab; ValueError for a grab the body does not hold (released already)")
      .def("holds", &Body::holds, py::arg("grab"), "Whether the body holds the grab now (not released)")
      .def(
          "reaction",
          [](const Body& b, const GrabId& id) {
            return vec3_array(value_or_raise(scene::checked_grab_reaction(b, id)));
          },
          py::arg("grab"),
          "Force the body exerts on the grabbing tool after the last step (unit: N); ValueError for a "
          "grab the body does not hold, never a silent zero")
      .def(
          "compliance",
          [](const Body& b, const GrabId& id) {
            raise_if(scene::check_held(b, id));
            const Mat3 c = b.grab_compliance(id);
            py::array_t<double> a({3, 3});
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) a.mutable_at(i, j) = c(i, j);
            return a;
          },
          py::arg("grab"), "Local compliance at the grab (unit: m/N), 3x3; ValueError for a grab not held")
      .def(
          "apply_force",
          [](Body& b, const SurfacePoint& p, const py::handle& force) {
            check_point(b, p);
            b.apply_force(p, to_vec3(force, "force"));
          },
          py::arg("point"), py::arg("force"), "Adds a force (unit: N) at a surface point for the next step")
      .def(
          "cut",
          [](Body& b, const py::handle& a0, const py::handle& b0, const py::handle& a1,
             const py::handle& b1) {
            scene::Cuttable* cuttable = scene::capability<scene::Cuttable>(b);
            if (!cuttable)
              throw py::type_error(
                  "body \"" + b.name() + "\" (family " + std::string(b.family()) +
                  ") cannot be cut: meshless bodies and fem bodies with a hybrid region can");
            return cuttable->cut(
                {to_vec3(a0, "a0"), to_vec3(b0, "b0"), to_vec3(a1, "a1"), to_vec3(b1, "b1")});
          },
          py::arg("a0"), py::arg("b0"), py::arg("a1"), py::arg("b1"),
          "Cuts along a blade, the edge a0-b0 moved to a1-b1 (unit: m), at the start of the next step; "
          "False for a sweep of zero area or one that misses the body. Sweeps that go on from the last "
          "one's end make one cut (a slit until it goes through)")
      .def_property_readonly(
          "interior_points",
          [](py::object self) -> py::object {
            const auto* interior = scene::capability<scene::InteriorOutput>(self.cast<const Body&>());
            if (!interior) return py::none();
            return view_vec3(interior->interior_points(), self);
          },
          "(n, 3) float64 read-only view of the interior's current points (unit: m): a meshless body's "
          "phyxels, a FEM body's nodes; None for a body with no interior. Valid until the next step")
      .def_property_readonly(
          "tets",
          [](py::object self) -> py::object {
            const auto* tets = scene::capability<scene::SimulationTets>(self.cast<const Body&>());
            if (!tets) return py::none();
            return view_index<4>(tets->simulation_tets(), self);
          },
          "(m, 4) int32 read-only view of the tetrahedra a body simulates on (a FEM body), indices into "
          "nodes and rest_nodes; None for other bodies. Re-read after a cut")
      .def_property_readonly(
          "nodes",
          [](py::object self) -> py::object {
            const auto* tets = scene::capability<scene::SimulationTets>(self.cast<const Body&>());
            if (!tets) return py::none();
            return view_vec3(tets->simulation_nodes(), self);
          },
          "(n, 3) float64 read-only view of every node's current position (unit: m), interior nodes "
          "included, for a body with tets; None for other bodies")
      .def_property_readonly(
          "rest_nodes",
          [](py::object self) -> py::object {
            const auto* tets = scene::capability<scene::SimulationTets>(self.cast<const Body&>());
            if (!tets) return py::none();
            return view_vec3(tets->simulation_rest_nodes(), self);
          },
          "(n, 3) float64 read-only view of every node's rest position (unit: m), for a body with tets")
      .def_property_readonly("surface_topology_version", &Body::surface_topology_version,
                             "Grows when the surface's triangles change (a cut): re-read surface_triangles")
      .def_property_readonly("state_hash", &Body::state_hash)
      .def("__repr__", [](const Body& b) {
        return "<pliant.Body \"" + b.name() + "\" (" + std::string(b.family()) + "), " +
               std::to_string(b.surface_positions().size()) + " surface nodes>";
      });

  py::class_<World>(m, "World", "Bodies of any family, scripted interactions and the staged step.")
      .def(py::init([](double time_step) {
             if (!(time_step > 0.0 && time_step <= 10.0))
               throw py::value_error("time_step: expected a number in (0, 10] s, got " +
                                     py::repr(py::float_(time_step)).cast<std::string>());
             return std::make_unique<World>(time_step);
           }),
           py::arg("time_step") = 1.0 / 60.0, "An empty world stepping by time_step (unit: s)")
      .def(
          "_add_body",
          [](World& w, const std::string& json_text, const py::object& mesh,
             const std::string& file) -> Body& {
            scene::BodyMesh given;
            if (py::isinstance<TetMesh>(mesh)) {
              given.volume = mesh.cast<const TetMesh&>();
            } else if (py::isinstance<TriMesh>(mesh)) {
              given.surface = mesh.cast<const TriMesh&>();
            } else if (!mesh.is_none()) {
              throw py::type_error("mesh: expected a pliant.TetMesh, a pliant.TriMesh or a dict, got " +
                                   py::str(py::type::handle_of(mesh)).cast<std::string>());
            }
            std::unique_ptr<Body> body;
            {
              py::gil_scoped_release release;
              body =
                  unwrap(scene::make_body(json_text, file, w.time_step(), mesh.is_none() ? nullptr : &given));
            }
            return w.body(w.add_body(std::move(body)));
          },
          py::arg("json_text"), py::arg("mesh"), py::arg("file"), py::return_value_policy::reference_internal)
      .def_property_readonly("time", &World::time, "simulated time (unit: s)")
      .def_property_readonly("time_step", &World::time_step, "(unit: s)")
      .def_property_readonly("step_count", &World::step_count)
      .def_property_readonly("body_count", &World::body_count)
      .def(
          "body", [](World& w, const py::object& key) -> Body& { return body_at(w, key); }, py::arg("key"),
          py::return_value_policy::reference_internal, "A body by index or name")
      .def_property_readonly(
          "bodies",
          [](py::object self) {
            World& w = self.cast<World&>();
            py::list out;
            for (std::size_t i = 0; i < w.body_count(); ++i)
              out.append(py::cast(&w.body(static_cast<Index>(i)), py::return_value_policy::reference_internal,
                                  self));
            return out;
          },
          "The bodies, in scene order")
      .def(
          "step",
          [](World& w) {
            py::gil_scoped_release release;
            w.step();
          },
          "Advances every body by one time step (the GIL is released)")
      .def(
          "run",
          [](World& w, long long steps) {
            if (steps < 0) throw py::value_error("steps: expected ≥ 0, got " + std::to_string(steps));
            py::gil_scoped_release release;
            InterruptCheck check;
            for (long long s = 0; s < steps; ++s) {
              w.step();
              check();
            }
          },
          py::arg("steps"), "Takes `steps` steps without the GIL; Ctrl-C stops it between steps")
      .def(
          "pick",
          [](World& w, const py::handle& origin, const py::handle& direction) -> py::object {
            Ray ray{to_vec3(origin, "origin"), to_vec3(direction, "direction")};
            if (ray.direction.squaredNorm() == 0.0 || !ray.direction.allFinite() || !ray.origin.allFinite())
              throw py::value_error("direction: expected a finite non-zero vector");
            const auto hit = w.pick(ray);
            if (!hit) return py::none();
            py::dict d;
            d["body"] = hit->body;
            d["point"] = hit->point;
            d["position"] = vec3_array(hit->position);
            d["t"] = hit->t;
            return d;
          },
          py::arg("origin"), py::arg("direction"),
          "The first surface a ray hits: {body, point, position, t}, or None")
      .def(
          "render_mesh",
          [](py::object self, const py::object& key) -> py::object {
            World& w = self.cast<World&>();
            const Body& b = body_at(w, key);
            Index index = 0;
            while (&w.body(index) != &b) ++index;
            const scene::RenderMesh* r = w.render_mesh(index);
            if (!r) return py::none();
            py::dict d;
            d["positions"] = view_vec3(r->positions(), self);
            d["rest_positions"] = view_vec3(r->rest().positions, self);
            d["triangles"] = view_index<3>(r->triangles(), self);
            d["embedding"] = std::string(scene::RenderMesh::embedding_name(r->embedding()));
            d["max_offset"] = r->max_offset();
            return d;
          },
          py::arg("key"),
          "A body's render mesh (by index or name) as {positions, rest_positions, triangles, embedding, "
          "max_offset}: read-only views (unit: m), positions valid until the next step; None without one")
      .def(
          "_add_collider",
          [](World& w, const std::string& json_text, const std::string& file) {
            scene::Collider c = unwrap(scene::make_collider(json_text, file));
            for (const scene::Collider& other : w.colliders())
              if (other.name == c.name)
                throw PliantError{file + ": /name: duplicate collider name \"" + c.name + "\""};
            return unwrap(w.add_collider(std::move(c)));
          },
          py::arg("json_text"), py::arg("file"))
      .def(
          "_add_instrument",
          [](World& w, const std::string& json_text, const std::string& file) {
            scene::Instrument in = unwrap(scene::make_instrument(json_text, file));
            const Result<Index> i = w.add_instrument(std::move(in));
            if (!i.ok()) throw PliantError{file + ": " + i.message()};
            return i.value();
          },
          py::arg("json_text"), py::arg("file"))
      .def(
          "instrument",
          [](const World& w, const std::string& name) {
            const Index i = w.find_instrument(name);
            if (i < 0) throw py::key_error("no instrument named \"" + name + "\"");
            const scene::Instrument& in = w.instruments()[static_cast<std::size_t>(i)];
            const Pose tip = w.instrument_pose(i);
            py::dict d;
            d["name"] = in.name;
            d["type"] = std::string(scene::instrument_type_name(in.type));
            d["radius"] = in.radius;
            d["length"] = in.length;
            d["device"] = in.device;
            d["position"] = vec3_array(tip.position);
            d["rotation"] =
                py::make_tuple(tip.rotation.w(), tip.rotation.x(), tip.rotation.y(), tip.rotation.z());
            d["force"] = vec3_array(w.instrument_force(i));
            d["contacts"] = w.instrument_contacts(i);
            if (in.type == scene::InstrumentType::grasper) {
              const scene::GrasperState jaws = w.grasper_state(i);
              d["closed"] = jaws.closed;
              d["gap"] = jaws.gap;
              d["grip"] = jaws.grip;
            }
            if (in.type == scene::InstrumentType::scalpel) d["bodies_cut"] = w.scalpel_bodies_cut(i);
            return d;
          },
          py::arg("name"),
          "An instrument after the last step as a dict: name, type, radius (m), length (m), device, position "
          "(its tip, m), rotation (w, x, y, z), force (N: the bodies' force on it), contacts (held nodes); a "
          "grasper adds closed, gap (m, between its jaws) and grip (N, the mean of its jaws' normal forces), "
          "a "
          "scalpel bodies_cut (Cuttable bodies its edge reached in the last step)")
      .def(
          "close_jaws",
          [](World& w, const std::string& name, bool closed) {
            const Index i = w.find_instrument(name);
            if (i < 0) throw py::key_error("no instrument named \"" + name + "\"");
            if (w.instruments()[static_cast<std::size_t>(i)].type != scene::InstrumentType::grasper)
              throw py::value_error("close_jaws: instrument \"" + name + "\" is not a grasper");
            w.close_jaws(i, closed);
          },
          py::arg("name"), py::arg("closed") = true,
          "Closes (closed=True) or opens a grasper's jaws from the next step on; its jaw track is no longer "
          "followed")
      .def(
          "move_instrument",
          [](World& w, const std::string& name, const py::object& position, const py::object& rotation) {
            const Index i = w.find_instrument(name);
            if (i < 0) throw py::key_error("no instrument named \"" + name + "\"");
            const auto p = position.cast<std::vector<double>>();
            if (p.size() != 3 || !std::all_of(p.begin(), p.end(), [](double v) { return std::isfinite(v); }))
              throw py::value_error("move_instrument: position must be 3 finite numbers (m)");
            Pose tip = w.instrument_pose(i);
            tip.position = Vec3(p[0], p[1], p[2]);
            if (!rotation.is_none()) {
              const auto q = rotation.cast<std::vector<double>>();
              if (q.size() != 4) throw py::value_error("move_instrument: rotation must be (w, x, y, z)");
              const Result<Eigen::Quaterniond> r = quaternion_rotation(q[0], q[1], q[2], q[3]);
              if (!r.ok()) throw py::value_error("move_instrument: rotation: " + r.message());
              tip.rotation = r.value();
            }
            w.move_instrument(i, tip);
          },
          py::arg("name"), py::arg("position"), py::arg("rotation") = py::none(),
          "Moves an instrument's tip for the next steps (m; rotation a unit quaternion (w, x, y, z)); its "
          "track is no longer followed")
      .def_property_readonly(
          "instruments",
          [](const World& w) {
            py::list out;
            for (const scene::Instrument& in : w.instruments()) out.append(in.name);
            return out;
          },
          "The instruments' names")
      .def(
          "_set_contact",
          [](World& w, const py::object& key, const std::string& json_text, const std::string& file) {
            const Index b = body_index(w, key);
            w.set_contact(b, unwrap(scene::make_body_contact(json_text, file)));
          },
          py::arg("body"), py::arg("json_text"), py::arg("file"))
      .def_property_readonly(
          "colliders",
          [](const World& w) {
            py::list out;
            for (const scene::Collider& c : w.colliders()) {
              py::dict d;
              d["name"] = c.name;
              d["shape"] = std::string(scene::collider_shape_name(c.shape));
              d["position"] = vec3_array(c.pose_at(w.time()).position);
              d["friction"] = c.friction;
              d["margin"] = c.margin;
              out.append(std::move(d));
            }
            return out;
          },
          "The rigid colliders as dicts {name, shape, position (now, unit: m), friction, margin (m)}")
      .def_property_readonly(
          "contacts", &contacts_dict,
          "The contact pairs after the last step as numpy arrays, one row per pair: body, collider (-1 for "
          "a body pair), other_body (-1 for a collider), contacts, sticking, slipping, normal_force (N), "
          "tangential_force (N), force (n×3, N: on the body), force_on_other (n×3, N), max_penetration "
          "(m), position (n×3, m: the held nodes' mean)")
      .def_property_readonly(
          "contact_points", &contact_points_dict,
          "Every held surface node after the last step as numpy arrays: body, node, collider, other_body, "
          "position (n×3, m), normal (n×3), force (n×3, N), normal_force (N), penetration (m), slipping")
      .def(
          "contact_pressure",
          [](World& w, const py::object& key) {
            const std::vector<double> p = w.contact_pressure(body_index(w, key));
            return column(p.size(), [&](std::size_t i) { return p[i]; });
          },
          py::arg("body"),
          "A body's contact pressure per surface node after the last step (unit: Pa): its normal contact "
          "force over one third of its triangles' areas")
      .def(
          "energy",
          [](World& w, const py::object& key) -> py::object {
            const auto* r = scene::capability<scene::ReportsEnergy>(w.body(body_index(w, key)));
            if (!r) return py::none();
            const scene::BodyEnergy e = r->energy();
            py::dict d;
            d["kinetic"] = e.kinetic;
            d["elastic"] = e.elastic;
            d["gravity"] = e.gravity;
            d["total"] = e.total();
            return d;
          },
          py::arg("body"),
          "A body's mechanical energy now (unit: J): {'kinetic', 'elastic', 'gravity', 'total'}, gravity "
          "being -sum m_i g.x_i (zero at the origin); None for a body that reports none (green, impact, "
          "fem_modal)")
      .def_property_readonly(
          "reactions", &reactions_dict,
          "The force on every scripted grab and collider after the last step: {'name': [...], 'force': "
          "(k×3, N, world frame)}, names 'grab:I' (the I-th scripted grab), 'collider:NAME' and "
          "'instrument:NAME'; a "
          "collider's is minus the contact forces it applies, zero when it touches nothing (the rows of "
          "forces.csv)")
      .def_property_readonly("events", &events_list, "Events of the last step as dicts")
      .def_property_readonly(
          "profile", [](const World& w) { return profile_dict(w.profile()); },
          "Stage name -> duration of the last step (unit: ms)")
      .def(
          "body_profile",
          [](const World& w, long long i) {
            if (i < 0 || i >= static_cast<long long>(w.body_count()))
              throw py::index_error("body index out of range");
            return profile_dict(w.body_profile(static_cast<Index>(i)));
          },
          py::arg("index"), "A body's own stages of the last step (unit: ms)")
      .def_property_readonly("state_hash", &World::state_hash, "Hash of every body's state and the clock")
      .def(
          "plausibility", [](const World& w) { return warnings_to_python(scene::check_plausibility(w)); },
          "What looks unintended about the bodies at rest (a mesh in the wrong unit, kPa written as Pa, a "
          "body its own weight would squash): dicts with body, kind and message; never blocking");

  py::class_<scene::ReactionSeries>(
      m, "ReactionSeries",
      "World.reactions recorded step after step (the arrays of forces.csv): record(world) after each step")
      .def(py::init<const World&>(), py::arg("world"),
           "Takes the world's grabs and colliders as they are now")
      .def("record", &scene::ReactionSeries::record, py::arg("world"),
           "Appends the forces after the last step")
      .def_property_readonly(
          "names", [](const scene::ReactionSeries& s) { return s.names(); }, "Source names, one per column")
      .def_property_readonly(
          "step",
          [](const scene::ReactionSeries& s) {
            py::array_t<std::int64_t> a(static_cast<py::ssize_t>(s.rows()));
            for (std::size_t r = 0; r < s.rows(); ++r)
              a.mutable_at(static_cast<py::ssize_t>(r)) = static_cast<std::int64_t>(s.steps()[r]);
            return a;
          },
          "(n,) int64: World.step_count of each row")
      .def_property_readonly(
          "time",
          [](const scene::ReactionSeries& s) {
            return column(s.rows(), [&](std::size_t r) { return s.times()[r]; });
          },
          "(n,) float64: World.time of each row (unit: s)")
      .def_property_readonly(
          "force",
          [](const scene::ReactionSeries& s) {
            const auto k = static_cast<py::ssize_t>(s.names().size());
            py::array_t<double> a({static_cast<py::ssize_t>(s.rows()), k, py::ssize_t{3}});
            double* out = a.mutable_data();
            for (const Vec3& f : s.forces())
              for (int c = 0; c < 3; ++c) *out++ = f[c];
            return a;
          },
          "(n, k, 3) float64: row r's force on source k (unit: N, world frame)")
      .def(
          "stats",
          [](const scene::ReactionSeries& s) {
            py::list out;
            const std::vector<scene::ReactionSeries::Stats> stats = s.stats();
            for (std::size_t j = 0; j < stats.size(); ++j) {
              py::dict d;
              d["name"] = s.names()[j];
              d["peak_n"] = stats[j].peak;
              d["peak_step"] = stats[j].peak_step;
              d["max_jump_n"] = stats[j].max_jump;
              d["max_jump_step"] = stats[j].max_jump_step;
              out.append(std::move(d));
            }
            return out;
          },
          "Per source: peak |F| and the largest change between consecutive rows (unit: N), with their steps "
          "(summary.json's forces.series)")
      .def("csv", &scene::ReactionSeries::csv, "The series as forces.csv's text")
      .def("__len__", &scene::ReactionSeries::rows);

  py::class_<scene::Scene>(m, "Scene", "A loaded scene: its world, step count and output settings.")
      .def_readonly("name", &scene::Scene::name)
      .def_readonly("steps", &scene::Scene::steps)
      .def_readonly(
          "notices", &scene::Scene::notices,
          "What reading the meshes changed (cells split, nodes in no element dropped), one line each")
      .def_property_readonly(
          "warnings", [](const scene::Scene& s) { return warnings_to_python(s.warnings); },
          "What looks unintended (plausibility checks and nearly flat tets): dicts with body, kind and "
          "message")
      .def_property_readonly(
          "world", [](scene::Scene& s) -> World& { return *s.world; },
          py::return_value_policy::reference_internal)
      .def(
          "run",
          [](scene::Scene& s, const std::filesystem::path& out_dir, py::object steps, bool render) {
            headless::RunOptions options;
            options.out_dir = out_dir;
            options.steps = steps.is_none() ? -1 : steps.cast<int>();
            options.render = render;
            Result<headless::RunReport> report = Error{};
            {
              py::gil_scoped_release release;
              InterruptCheck check;
              options.after_step = [&check] { check(); };
              report = headless::run_scene(s, options);
            }
            if (!report) throw PliantError{report.message()};
            const nlohmann::json summary = nlohmann::json::parse(report->summary_json);
            return json_to_python(summary);
          },
          py::arg("out_dir"), py::arg("steps") = py::none(), py::arg("render") = false,
          "Runs headless like `pliant run`: VTU frames + .pvd series per body (and PNG frames when "
          "render or the scene asks), summary.json and forces.csv (forces.png with PNG frames) in out_dir; "
          "returns the summary as a dict");

  m.def(
      "families",
      [] {
        py::list out;
        for (const scene::FamilyInfo& f : scene::registered_families()) {
          py::dict d;
          d["name"] = f.name;
          d["summary"] = f.summary;
          d["keys"] = f.keys;
          d["example_body"] = json_to_python(nlohmann::json::parse(f.example_body));
          out.append(std::move(d));
        }
        return out;
      },
      "The model families of this build: dicts with name, summary, keys (body keys besides the shared "
      "ones) and example_body (a small body object without name and family, for World.add_body)");
  m.def(
      "family_settings",
      [](const std::string& family) {
        const std::vector<scene::SettingSpec> specs = scene::family_settings(family);
        if (specs.empty()) {
          std::string known;
          for (const scene::FamilyInfo& f : scene::registered_families())
            known += (known.empty() ? "" : ", ") + f.name;
          throw PliantError{"family_settings: unknown family \"" + family + "\" (known: " + known + ")"};
        }
        py::list out;
        for (const scene::SettingSpec& spec : specs) {
          py::dict d;
          d["name"] = std::string(spec.path);
          d["key"] = std::string(scene::setting_key(spec));
          d["type"] = std::string(scene::to_string(spec.type));
          d["unit"] = std::string(spec.unit);
          d["default"] = spec.fallback.empty() ? py::object(py::none())
                                               : json_to_python(nlohmann::json::parse(spec.fallback));
          d["otherwise"] = std::string(spec.otherwise);
          const bool numeric =
              spec.type == scene::SettingType::number || spec.type == scene::SettingType::integer;
          d["min"] = numeric && spec.min > -scene::kSettingUnbounded ? py::object(py::float_(spec.min))
                                                                     : py::object(py::none());
          d["max"] = numeric && spec.max < scene::kSettingUnbounded ? py::object(py::float_(spec.max))
                                                                    : py::object(py::none());
          d["min_open"] = spec.min_open;
          d["max_open"] = spec.max_open;
          d["max_time_step"] = spec.max_time_step;
          d["range"] = scene::setting_range_text(spec);
          py::list choices;
          for (std::string_view c : spec.choices) choices.append(std::string(c));
          d["choices"] = choices;
          d["required"] = spec.required;
          d["help"] = std::string(spec.help);
          out.append(std::move(d));
        }
        return out;
      },
      py::arg("family"),
      "The settings a family declares (docs/scene-format.md): dicts with name (the JSON path below the body, "
      "e.g. \"fem/solver/kind\"), key, type (number, integer, boolean, choice, string, vec3, object, array), "
      "unit, default (None when computed: see otherwise), otherwise, min, max (None: unbounded), min_open, "
      "max_open, max_time_step, range (as text), choices, required and help. The body's top-level names "
      "are the keyword arguments World.add_body takes besides the shared ones");
  m.def(
      "load_scene", [](const std::filesystem::path& path) { return unwrap(scene::load_scene(path)); },
      py::arg("path"), "Reads and builds a scene file; pliant.Error names the file and JSON path at fault");
  m.def(
      "parse_scene",
      [](const std::string& text, const std::filesystem::path& file) {
        return unwrap(scene::parse_scene(text, file));
      },
      py::arg("text"), py::arg("file") = "scene.json",
      "Builds a scene from JSON text; `file` names it in messages and anchors relative mesh paths");
}

}  // namespace pliant::python
